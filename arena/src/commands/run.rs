//! `arena run`: a tournament from its config, into a run folder.

use std::future::Future;
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Context as _;
use tokio_util::sync::CancellationToken;

use super::{Console, Outcome};
use crate::config::{Config, OnStartFailure};
use crate::output::RunDir;
use crate::reporter::{Lines, Reporter};
use crate::runner::{self, RunOptions};
use crate::{progress, report};

/// How the run is shown as it goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    /// The live view (a terminal).
    Live,
    /// A line per game (off a terminal).
    Lines,
    /// Only the final table and the lines a user must see (`--quiet`).
    Quiet,
}

/// What `arena run` was asked.
#[derive(Clone, Debug)]
pub struct Options {
    /// The tournament config.
    pub config: PathBuf,
    /// The run folder [default: a new results/NAME-TIMESTAMP].
    pub out: Option<PathBuf>,
    /// How the run is shown.
    pub view: View,
    /// Keep every game's protocol transcript.
    pub transcripts: bool,
    /// Play only shard K of N, `(K, N)`.
    pub shard: Option<(usize, usize)>,
    /// Go on with the interrupted run in this folder.
    pub resume: Option<PathBuf>,
    /// With `out`: resume it if it already holds this run.
    pub resume_if_exists: bool,
    /// The executable that supervises each bot (`arena guard`): this one.
    pub guard: Option<PathBuf>,
}

/// Runs the tournament: checks the bots, plays every game, writes the
/// summaries and prints the final table. `interrupted` resolves when the
/// user asks to stop (Ctrl-C, SIGTERM): the first time, the games in
/// progress are abandoned and the run winds down ([`Outcome::Interrupted`]);
/// the second time, it returns at once.
///
/// # Errors
/// A bad config or run folder, a bot that does not start (unless skipped),
/// a resume of another run, or a file that cannot be written.
pub fn run<F: Future<Output = ()>>(
    options: &Options,
    console: &mut Console<'_>,
    interrupted: impl Fn() -> F,
) -> anyhow::Result<Outcome> {
    let config_path = &options.config;
    let shard = options.shard;
    // An earlier attempt's folder (it has the config copied in) is resumed.
    let resume = match (&options.out, &options.resume) {
        (Some(dir), None) if options.resume_if_exists && dir.join("config.toml").exists() => {
            Some(dir.clone())
        }
        (_, resume) => resume.clone(),
    };
    let config = Config::load(config_path, &super::host())?;
    let claimed = options.out.is_none() && resume.is_none();
    let out = match (&options.out, &resume) {
        (_, Some(dir)) => dir.clone(),
        (Some(dir), None) => dir.clone(),
        (None, None) => {
            report::claim_run_dir(&config.name).context("cannot create a folder in results/")?
        }
    };
    // What sandboxed bots would see first (a writable folder that holds
    // the results is refused as that, not as one to chown), then each start.
    let checked = crate::bot::layout::check_layout(&config.bots, &out)
        .map_err(|e| anyhow::anyhow!("{}: {e}", config.bot_origins[e.bot]))
        .and_then(|()| Ok(crate::bot::spawn::check_programs(&config)?));
    if let Err(e) = checked {
        if claimed {
            // The folder just made for this run is still empty: take it back.
            let _ = std::fs::remove_dir(&out);
        }
        return Err(e);
    }
    anyhow::ensure!(
        shard.is_none() || shard == Some((1, 1)) || config.sprt.is_none(),
        "an SPRT match decides game by game and cannot be split into shards: run it whole (or as shard 1/1)"
    );
    let shard_text = shard.map_or_else(|| "all".to_string(), |(k, n)| format!("{k}/{n}"));
    // Each branch takes the folder's lock before it writes anything there.
    let (dir, _lock) = if resume.is_some() {
        // Only the same config (and shard) may go on where a run stopped.
        let stored = std::fs::read(out.join("config.toml")).with_context(|| {
            format!(
                "{} holds no config.toml: is it a run folder?",
                out.display()
            )
        })?;
        let dir = RunDir { path: out.clone() };
        let lock = dir.lock()?;
        // Bot logs are appended to; a folder copied without them still resumes.
        std::fs::create_dir_all(dir.path.join("logs"))
            .with_context(|| format!("cannot create {}", dir.path.join("logs").display()))?;
        anyhow::ensure!(
            crate::config::same_games(&stored, &std::fs::read(config_path)?),
            "{} was run with another config: resume it with its own config.toml (only [tournament] concurrency and affinity may differ), or start a new run",
            out.display()
        );
        let stored_shard =
            std::fs::read_to_string(out.join("shard")).unwrap_or_else(|_| "all".into());
        anyhow::ensure!(
            stored_shard.trim() == shard_text,
            "{} was run as shard {}: resume it with the same --shard",
            out.display(),
            stored_shard.trim()
        );
        (dir, lock)
    } else {
        // The folder may be new, or an earlier attempt's that never began.
        let existing = RunDir { path: out.clone() };
        if out.join("games.csv").exists() {
            let how = if existing.is_finished() {
                "choose another --out (`arena rate` re-rates it)"
            } else {
                "choose another --out, or go on with it: `arena run CONFIG --resume DIR`"
            };
            anyhow::bail!(
                "cannot create the run folder {0}: {0} already holds a tournament (games.csv): {how}",
                out.display()
            );
        }
        let dir = RunDir::create(&out)
            .with_context(|| format!("cannot create the run folder {}", out.display()))?;
        let lock = dir.lock()?;
        // Whole or not at all, since a resume compares it byte for byte.
        std::fs::read(config_path)
            .and_then(|text| {
                crate::output::write_bytes_atomic(&dir.path.join("config.toml"), &text)
            })
            .context("cannot copy the config into the run folder")?;
        std::fs::write(dir.path.join("shard"), &shard_text)
            .context("cannot write the run folder")?;
        (dir, lock)
    };
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    let mut run_options = RunOptions {
        guard: options.guard.clone(),
        transcripts: options.transcripts,
        // Shard 1 of 1 is the whole tournament (an SPRT match on Slurm).
        shard: shard.filter(|&s| s != (1, 1)),
        resume: resume.is_some(),
        skipped: Vec::new(),
    };

    // Every bot must start before any game is played.
    let failures = runtime.block_on(runner::check_bots(&config, &dir, &run_options));
    let failed: Vec<String> = config
        .bots
        .iter()
        .zip(&failures)
        .filter_map(|(b, f)| {
            f.as_ref()
                .map(|why| format!("bot '{}' did not start: {why}", b.name))
        })
        .collect();
    if !failed.is_empty() {
        match config.tournament.on_start_failure {
            OnStartFailure::Stop => anyhow::bail!(
                "{}; fix it, or set on_start_failure = \"skip\" in [tournament] to play without it (logs in {})",
                failed.join("; "),
                dir.path.join("logs").display()
            ),
            OnStartFailure::Skip => {
                for line in &failed {
                    console.note(format_args!("arena: {line}; playing without it"));
                }
                // The bot stays in the list, so every series keeps its number
                // (a resume may see another set of bots start).
                run_options.skipped = (0..failures.len())
                    .filter(|&i| failures[i].is_some())
                    .collect();
                anyhow::ensure!(
                    config.bots.len() - run_options.skipped.len() >= 2,
                    "fewer than two bots started: nothing to play"
                );
            }
        }
    }
    let config = Arc::new(config);
    let bound = runner::games_bound(&config, run_options.shard, &run_options.skipped);
    let playing = |i: &usize| !run_options.skipped.contains(i);
    let series = runner::series_count(config.bots.len(), run_options.shard, &run_options.skipped);
    let at_once = runner::games_at_once(&config, run_options.shard, &run_options.skipped);
    let start = format!(
        "arena: {} bots, {series} series, at most {bound} games, {at_once} at once; writing {}",
        (0..config.bots.len()).filter(playing).count(),
        dir.path.display()
    );
    // Before the live view starts, as plain text the terminal may wrap.
    if options.view != View::Quiet {
        console.note(&start);
    }
    let mut reporter: Box<dyn Reporter + '_> = match options.view {
        View::Live => {
            let mut shown = (*config).clone();
            let mut index = 0..;
            shown
                .bots
                .retain(|_| playing(&index.next().unwrap_or_default()));
            Box::new(progress::Live::new(&shown, bound))
        }
        view => Box::new(Lines::new(
            console.status_sink(),
            view == View::Quiet,
            &config.bots[0].name,
        )),
    };
    let cancel = CancellationToken::new();
    // A resumed run counts on from the games it already has.
    let mut done = if run_options.resume {
        reporter.resumed(&dir.path.join("games.csv"))
    } else {
        0
    };
    let reporter = std::cell::RefCell::new(reporter);
    let outcome = runtime.block_on(async {
        let work = runner::run(config.clone(), &dir, &run_options, &cancel, |event| {
            if let runner::Event::Game(_) = event {
                done += 1;
            }
            reporter.borrow_mut().event(event);
        });
        tokio::pin!(work);
        // The first Ctrl-C (or SIGTERM) abandons the games in progress and
        // lets the run wind down; a second one returns at once.
        tokio::select! {
            r = &mut work => return Some(r),
            () = interrupted() => {
                reporter.borrow_mut().note("arena: stopping: games in progress are abandoned and every bot is stopped (press Ctrl-C again to exit at once)");
                cancel.cancel();
            }
        }
        tokio::select! {
            r = &mut work => Some(r),
            () = interrupted() => None,
        }
    });
    let mut reporter = reporter.into_inner();
    reporter.finish();
    // Dropping the runtime kills every bot still running, with its group.
    drop(runtime);
    let Some(summary) = outcome else {
        reporter.note(&format!(
            "arena: interrupted; the games already played are in {}",
            dir.path.join("games.csv").display()
        ));
        return Ok(Outcome::Interrupted);
    };
    let summary = summary?;
    // Every game is in games.csv: the run is finished (the report says so).
    if !cancel.is_cancelled() {
        let games = summary.series.iter().map(|s| s.wdl.games() as usize).sum();
        dir.mark_finished(games)
            .context("cannot mark the run finished")?;
    }
    let table = report::write_summaries(&config, &dir, &summary)?;
    drop(reporter);
    console.print(table);
    if cancel.is_cancelled() {
        console.note(format_args!(
            "arena: interrupted; the summaries cover the {done} games played, in {}",
            dir.path.display()
        ));
        return Ok(Outcome::Interrupted);
    }
    if options.view != View::Quiet {
        console.note(format_args!("arena: results in {}", dir.path.display()));
    }
    Ok(Outcome::Success)
}

/// The shard to play: `--shard K/N`, or `--shard auto/N` with K from the
/// job array's index: Slurm's SLURM_ARRAY_TASK_ID as it is (arrays numbered
/// 1-N, so that a task re-run alone with `--array=K` keeps its K), or
/// Kubernetes' JOB_COMPLETION_INDEX + 1 (numbered from 0). A Slurm array
/// task without `--shard` is refused: it would play the whole tournament.
/// `env` gives the environment's variables.
///
/// # Errors
/// A malformed shard, or `auto` without (or with a bad) job array index.
pub fn shard_from(
    arg: Option<&str>,
    env: impl Fn(&str) -> Option<String>,
) -> anyhow::Result<Option<(usize, usize)>> {
    let number = |k: &str| env(k).and_then(|v| v.trim().parse::<usize>().ok());
    match arg {
        Some(text) => match text.strip_prefix("auto/") {
            Some(n) => {
                let k = match (number("SLURM_ARRAY_TASK_ID"), number("JOB_COMPLETION_INDEX")) {
                    (Some(0), _) => anyhow::bail!("--shard auto/N: SLURM_ARRAY_TASK_ID is 0; number the array 1-N (sbatch --array=1-N)"),
                    (Some(id), _) => id,
                    (None, Some(i)) => i + 1,
                    (None, None) => anyhow::bail!("--shard auto/N needs SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX in the environment"),
                };
                crate::output::parse_shard(&format!("{k}/{n}")).map(Some).map_err(|e| {
                    anyhow::anyhow!("{e} (K from SLURM_ARRAY_TASK_ID, or JOB_COMPLETION_INDEX + 1: is N the number of tasks?)")
                })
            }
            None => crate::output::parse_shard(text).map(Some).map_err(anyhow::Error::msg),
        },
        None if env("SLURM_ARRAY_TASK_ID").is_some() => anyhow::bail!(
            "this is a Slurm array task: pass --shard auto/N (N shards, array 1-N), or let `arena slurm` write the job"
        ),
        None => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use super::shard_from;

    #[test]
    fn shards_come_from_the_flag_or_the_job_array() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |k: &str| {
                pairs
                    .iter()
                    .find(|(n, _)| *n == k)
                    .map(|(_, v)| v.to_string())
            }
        };
        assert_eq!(shard_from(Some("2/4"), env(&[])).unwrap(), Some((2, 4)));
        assert_eq!(shard_from(None, env(&[])).unwrap(), None);
        assert_eq!(
            shard_from(Some("auto/4"), env(&[("JOB_COMPLETION_INDEX", "0")])).unwrap(),
            Some((1, 4))
        );
        let slurm = env(&[("SLURM_ARRAY_TASK_ID", "3"), ("SLURM_ARRAY_TASK_MIN", "3")]);
        assert_eq!(shard_from(Some("auto/4"), slurm).unwrap(), Some((3, 4)));
        assert!(shard_from(None, slurm).is_err());
        assert!(shard_from(Some("auto/4"), env(&[("SLURM_ARRAY_TASK_ID", "0")])).is_err());
        assert!(shard_from(Some("auto/4"), env(&[])).is_err());
        assert!(shard_from(Some("5/4"), env(&[])).is_err());
    }
}
