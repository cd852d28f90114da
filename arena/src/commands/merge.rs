//! `arena merge`: the shards' run folders as one.

use std::path::PathBuf;

use anyhow::Context as _;

use super::{Console, Outcome};
use crate::config::Config;
use crate::output::games::{write_rows_to, PAST_END_FILE};
use crate::output::RunFolder;
use crate::{report, runner};

/// What `arena merge` was asked.
#[derive(Clone, Debug)]
pub struct Options {
    /// The shard folders (each holds games.csv and config.toml).
    pub dirs: Vec<PathBuf>,
    /// The merged run folder (new, or without a games.csv).
    pub out: PathBuf,
    /// Merge what there is, even if shards are missing or unfinished.
    pub partial: bool,
}

/// The shards' games in one games.csv, and every summary computed from it,
/// as a single run would have written them; prints the final table.
///
/// # Errors
/// A missing, unfinished or cut-short shard (without `partial`), shards of
/// different configs, unreadable or unwritable files.
pub fn run(options: &Options, console: &mut Console<'_>) -> anyhow::Result<Outcome> {
    let (partial, out) = (options.partial, &options.out);
    // A shard that never ran has no folder (or an empty one).
    let (dirs, absent): (Vec<PathBuf>, Vec<PathBuf>) = options
        .dirs
        .iter()
        .cloned()
        .partition(|d| RunFolder::at(d).is_run());
    let list = |ds: &[PathBuf]| {
        ds.iter()
            .map(|d| d.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    if !absent.is_empty() {
        anyhow::ensure!(
            partial && !dirs.is_empty(),
            "{} {} no run (no config.toml): a shard that never ran? Run it (`arena slurm rerun DIR`, or `arena run CONFIG --shard K/N --out DIR`), or pass --partial to merge what there is",
            list(&absent),
            if absent.len() == 1 { "holds" } else { "hold" }
        );
        console.note(format_args!(
            "arena: --partial: leaving out {}",
            list(&absent)
        ));
    }
    let (first, base, config) = shards_config(&dirs)?;
    let files: Vec<PathBuf> = dirs.iter().map(|d| RunFolder::at(d).games()).collect();
    // Every row checked (replayed, no game twice; a `tablebase` one by the
    // tables of the config's [board] tablebase) before anything is written.
    let tables = super::tables_for(None, Some(&config))?;
    let checked = crate::output::games::merge_games_with(&files, None, tables, config.adjudicate)?;
    if !partial {
        check_whole(&dirs, &checked.per_file)?;
    }
    if let Some(why) = crate::runner::unsplittable(&config) {
        anyhow::bail!("{}: {why}; so there are no shards to merge", list(&dirs));
    }
    let dir = RunFolder::create(out)?;
    dir.write_config(&first)?;
    super::run::write_config_dir(&dir.path, &base)?;
    for torn in &checked.torn {
        console.note(format_args!("arena: {torn}"));
    }
    // A long match split by game pairs played all its pairs: cut it where
    // a single run would have stopped, and keep the rest aside.
    // Where a single run stops is only known from every game before it: with
    // a game missing there (a --partial merge), the cut would be a guess.
    let past = runner::past_the_end(&config, &checked.games).unwrap_or_else(|| {
        console.note(
            "arena: --partial: games are missing before the point where a single run would have stopped the match, so it is not cut there; every game is counted (merge every shard to get a single run's files)",
        );
        vec![false; checked.games.len()]
    });
    let (mut rows, mut past_rows, mut series) = (Vec::new(), Vec::new(), Vec::new());
    for ((row, game), past) in checked.rows.into_iter().zip(checked.games).zip(past) {
        if past {
            past_rows.push(row);
        } else {
            rows.push(row);
            series.push(game);
        }
    }
    write_rows_to(&dir.games(), &rows)?;
    if !past_rows.is_empty() {
        let path = dir.path.join(PAST_END_FILE);
        write_rows_to(&path, &past_rows)?;
        console.note(format_args!(
            "arena: the match ended after {}, as a single run would have stopped it; the {} the shards played past its end {} in {}, not counted",
            crate::output::counted(rows.len(), "game", "games"),
            crate::output::counted(past_rows.len(), "game", "games"),
            if past_rows.len() == 1 { "is" } else { "are" },
            path.display()
        ));
    }
    let mut summary = runner::merged_summary(&config, &series);
    summary.not_started = not_started(&config, &dirs);
    let skipped = |i: usize| summary.not_started.iter().any(|(b, _)| *b == i);
    summary.not_played = config
        .format
        .static_schedule(config.bots.len())
        .unwrap_or_default()
        .into_iter()
        .filter(|s| skipped(s.a) || skipped(s.b))
        .filter(|s| summary.series.iter().all(|r| r.series.number != s.number))
        .collect();
    if !partial {
        dir.mark_finished(series.len())
            .context("cannot mark the merge finished")?;
    }
    let table = report::write_summaries(&config, &dir, &summary)?;
    console.print(table);
    console.note(format_args!(
        "arena: {} merged into {}",
        crate::output::counted(dirs.len(), "shard folder", "shard folders"),
        dir.path.display()
    ));
    Ok(Outcome::Success)
}

/// The config the shard folders `dirs` share (one and the same file, or an
/// error): its bytes, the folder its relative paths start from, and the
/// config read.
fn shards_config(dirs: &[PathBuf]) -> anyhow::Result<(Vec<u8>, PathBuf, Config)> {
    let config_text = |d: &PathBuf| {
        RunFolder::at(d)
            .config()
            .with_context(|| format!("cannot read {}", d.join("config.toml").display()))
    };
    let first = config_text(&dirs[0])?;
    for d in &dirs[1..] {
        anyhow::ensure!(
            config_text(d)? == first,
            "{} comes from another config than {}: merge only the shards of one tournament",
            d.display(),
            dirs[0].display()
        );
    }
    // The shards' copy resolves its paths from the original config's folder.
    let base = std::fs::read_to_string(dirs[0].join(crate::config::CONFIG_DIR_FILE)).map_or_else(
        |_| PathBuf::new(),
        |t| PathBuf::from(t.trim_end_matches('\n')),
    );
    let config = Config::parse_in(
        &String::from_utf8_lossy(&first),
        "config.toml",
        "merged",
        &base,
        &super::host(),
    )?;
    Ok((first, base, config))
}

/// That the shards of `dirs` make the whole run, and each finished one
/// holds every game it counted (`rows`, per folder, as read).
fn check_whole(dirs: &[PathBuf], rows: &[usize]) -> anyhow::Result<()> {
    let states: Vec<_> = dirs
        .iter()
        .map(|d| crate::shards::ShardState::read(d))
        .collect();
    crate::shards::check_whole(&states)
        .map_err(|e| anyhow::anyhow!("{e}; or pass --partial to merge what there is"))?;
    // A finished run counted its games: a copy cut short has fewer.
    for (d, &rows) in dirs.iter().zip(rows) {
        let counted = RunFolder::at(d).finished_games();
        if let Some(counted) = counted.filter(|&c| c != rows) {
            anyhow::bail!(
                "{} finished with {}, but its games.csv holds {}: copy the folder again (a copy cut short?), or pass --partial to merge what there is",
                d.display(),
                crate::output::counted(counted, "game", "games"),
                crate::output::counted(rows, "whole row", "whole rows")
            );
        }
    }
    Ok(())
}

/// The bots that did not start (by index in `config`'s bots), with why,
/// as the shards' series.csv give them, in the config's order.
fn not_started(config: &Config, dirs: &[PathBuf]) -> Vec<(usize, String)> {
    let mut reasons: Vec<(String, String)> = Vec::new();
    for d in dirs {
        for (bot, why) in super::rate::not_started_in(d) {
            if reasons.iter().all(|(b, _)| *b != bot) {
                reasons.push((bot, why));
            }
        }
    }
    config
        .bots
        .iter()
        .enumerate()
        .filter_map(|(i, b)| {
            let why = reasons.iter().find(|(n, _)| *n == b.name)?;
            Some((i, why.1.clone()))
        })
        .collect()
}
