//! `arena rate`: every statistic again, from one or more games.csv files.

use std::path::{Path, PathBuf};

use anyhow::Context as _;

use super::{Console, Outcome};
use crate::config::{Config, RatingSettings, DEFAULT_SEED};
use crate::report;

/// What `arena rate` was asked; `None` takes the run's own setting (from
/// the config.toml beside the files, when they share one), else the default.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The games.csv files to rate together.
    pub games: Vec<PathBuf>,
    /// Where to write the files [default: the folder of a single games.csv].
    pub out: Option<PathBuf>,
    /// The bot whose rating is fixed.
    pub anchor: Option<String>,
    /// The anchor's rating, Elo points (logistic scale).
    pub anchor_elo: Option<f64>,
    /// Virtual draws added to every pair that played (the prior).
    pub prior_draws: Option<f64>,
    /// Bootstrap replicates for the intervals and LOS.
    pub bootstrap: Option<u32>,
    /// The seed of the bootstrap.
    pub seed: Option<u64>,
    /// Pool games of different rules (refused without it).
    pub mixed_rules: bool,
    /// The endgame tables that check rows adjudicated `tablebase`
    /// [default: the run's config's `[board] tablebase`].
    pub tablebase: Option<PathBuf>,
}

/// Rates the games, writes standings.csv, pairwise.csv, los.csv,
/// report.html and standings.svg, and prints the table.
///
/// # Errors
/// Several files without `out`; settings that would overwrite a run's own
/// statistics; no games; an anchor that played no game; unreadable files.
pub fn run(options: &Options, console: &mut Console<'_>) -> anyhow::Result<Outcome> {
    check_distinct(&options.games)?;
    let out = out_dir(options)?;
    check_not_another_run(&options.games, &out)?;
    // The settings of the run the files come from (its config.toml beside
    // them, the same for all), so that rating a run gives the run's files;
    // a league's bots that came and went as its roster.csv has them.
    let (run_config, roster) = with_roster(run_config_of(options)?, &options.games)?;
    let given = options.prior_draws.is_some()
        || options.bootstrap.is_some()
        || options.seed.is_some()
        || options.anchor.is_some();
    anyhow::ensure!(
        options.out.is_some() || !given || !out.join("config.toml").exists(),
        "{} is a run folder: rating it with other settings would overwrite its own statistics; give --out DIR for the new files",
        out.display()
    );
    // A run's SPRT test, so that its report shows the test's course.
    let sprt = run_config
        .as_ref()
        .and_then(|c| crate::runner::series_rule(c, None).sprt);
    // Its bots, so that one without a game is listed as the run listed it.
    let run_bots: Vec<String> = run_config
        .as_ref()
        .map(|c| c.bots.iter().map(|b| b.name.clone()).collect())
        .unwrap_or_default();
    let from_run = run_config.is_some();
    // A gauntlet's, knockout's or Swiss's course, for its report's sections.
    let format_config = run_config
        .as_ref()
        .filter(|c| c.format != crate::format::Format::RoundRobin)
        .cloned();
    let referee = super::referee_for(options.tablebase.as_deref(), run_config.as_ref())?;
    let (ratings, seed) = run_config.map_or_else(
        || (RatingSettings::default(), DEFAULT_SEED),
        |c| (c.ratings, c.tournament.seed),
    );
    let prior_draws = options.prior_draws.unwrap_or(ratings.prior_draws);
    anyhow::ensure!(
        prior_draws.is_finite() && prior_draws >= 0.0,
        "--prior-draws must be 0 or more"
    );
    let mut rated = read_rated(&options.games, options.mixed_rules, referee, console)?;
    let (not_started, listed) = listed_bots(&mut rated, &run_bots, from_run, &options.games);
    let anchor = anchor_of(options, ratings.anchor, &rated.names)?;
    std::fs::create_dir_all(&out).with_context(|| format!("cannot create {}", out.display()))?;
    let settings = RatingSettings {
        prior_draws,
        bootstrap: options.bootstrap.unwrap_or(ratings.bootstrap),
        anchor,
    };
    let seed = options.seed.unwrap_or(seed);
    let rating = report::rating_options(&settings, seed, &rated.names);
    let course = course_of(
        format_config.as_ref(),
        &options.games,
        &not_started,
        &out,
        roster.as_ref().map(|(r, _)| r),
    )?;
    copy_roster(roster.as_ref(), &options.games, &out)?;
    let config_names: Vec<String> = format_config
        .iter()
        .flat_map(|c| c.bots.iter().map(|b| b.name.clone()))
        .collect();
    let format_course = course
        .as_ref()
        .map(|(c, trends)| crate::html::FormatCourse {
            plan: c.plan(),
            names: &config_names,
            trends: trends.as_ref(),
        });
    if let Some(c) = &format_course {
        report::write_format_rows(&out, c)
            .with_context(|| format!("cannot write the format's file in {}", out.display()))?;
    }
    let table = report::write_ratings(
        &rated.names,
        &rated.tally,
        &rating,
        &out,
        &options.games,
        sprt,
        &listed,
        format_course,
    )?;
    let table = with_retired(table, roster.as_ref(), &out)?;
    let table = match &format_course {
        Some(c) => {
            report::with_format_text(c, table, crate::output::table::stdout_terminal_width())
        }
        None => table,
    };
    console.print(table);
    let format_files = format_files(format_config.as_ref(), roster.is_some());
    say_written(&rated, options.games.len(), &format_files, &out, console);
    Ok(Outcome::Success)
}

/// Refuses an `out` folder that holds another run's `games.csv` (one
/// not among the `games` rated): its summaries belong to its own games,
/// and its `roster.csv` to its league, which would no longer resume.
///
/// # Errors
/// `out` holds a `games.csv` that is not rated here.
fn check_not_another_run(games: &[PathBuf], out: &Path) -> anyhow::Result<()> {
    let theirs = out.join(<crate::output::GameRow as crate::output::CsvRow>::FILE);
    let Ok(theirs) = theirs.canonicalize() else {
        return Ok(());
    };
    let rated = games
        .iter()
        .any(|g| g.canonicalize().is_ok_and(|g| g == theirs));
    anyhow::ensure!(
        rated,
        "{} holds another run's games.csv: writing there would replace that run's summaries; give --out a folder without one",
        out.display()
    );
    Ok(())
}

/// The format's own files that rate writes for a run of `config` (with
/// a `roster`: a league whose bots came and went), each followed by ", ".
fn format_files(config: Option<&Config>, roster: bool) -> String {
    use crate::format::Format;
    match config.map(|c| &c.format) {
        Some(Format::Knockout { .. }) => "knockout.csv, ".into(),
        Some(Format::Swiss { .. }) => "swiss.csv, ".into(),
        Some(Format::League(_)) if roster => "league.csv, roster.csv, ".into(),
        Some(Format::League(_)) => "league.csv, ".into(),
        _ => String::new(),
    }
}

/// The last line: the games rated, from how many `files`, and the files
/// written in `out` (the format's own, `format_files`, among them).
fn say_written(
    rated: &crate::rate::Rated,
    files: usize,
    format_files: &str,
    out: &Path,
    console: &mut Console<'_>,
) {
    console.note(format_args!(
        "arena: {} from {}; standings.csv, pairwise.csv, los.csv, {}{format_files}report.html and standings.svg in {}",
        crate::output::counted(rated.games, "game", "games"),
        crate::output::counted(files, "file", "files"),
        // A match of two bots also has its summary (report::write_ratings).
        if rated.names.len() == 2 { "match.csv, " } else { "" },
        out.display()
    ));
}

/// The anchor: `--anchor` (at `--anchor-elo`, else 0), else the run's
/// config's (`config_anchor`); it must be one of the bots that played,
/// `names`.
fn anchor_of(
    options: &Options,
    config_anchor: Option<(String, f64)>,
    names: &[String],
) -> anyhow::Result<Option<(String, f64)>> {
    let anchor = match &options.anchor {
        Some(a) => Some((a.clone(), options.anchor_elo.unwrap_or(0.0))),
        None => config_anchor,
    };
    if let Some((anchor, _)) = &anchor {
        anyhow::ensure!(
            names.contains(anchor),
            "--anchor {anchor} played no game here; the bots are {}",
            names.join(", ")
        );
    }
    Ok(anchor)
}

/// The folder the statistics go to: `--out`, or the one games.csv's own.
fn out_dir(options: &Options) -> anyhow::Result<PathBuf> {
    Ok(match (&options.out, options.games.as_slice()) {
        (Some(dir), _) => dir.clone(),
        (None, [one]) => one
            .parent()
            .map_or_else(|| PathBuf::from("."), Path::to_path_buf),
        (None, _) => {
            anyhow::bail!("several games.csv files need --out DIR for the merged statistics")
        }
    })
}

/// The `games` files read, replayed and checked (their rules may differ
/// with `mixed_rules`; a `tablebase` row is checked by `referee`'s tables,
/// every adjudicated row under its run's `[board] adjudicate`), what the
/// read found said on `console`; an error when they hold no game.
fn read_rated(
    games: &[PathBuf],
    mixed_rules: bool,
    referee: (
        Option<std::sync::Arc<endodoi_tablebase::Tables>>,
        crate::config::Adjudicate,
    ),
    console: &mut Console<'_>,
) -> anyhow::Result<crate::rate::Rated> {
    let rated = crate::rate::read_games_with(games, mixed_rules, referee.0, referee.1)?;
    note_read(&rated, console);
    anyhow::ensure!(
        rated.games > 0,
        "no games in {}: a games.csv needs its header row and a row per game played, as `arena run CONFIG --out DIR` writes DIR/games.csv (a run stopped before its first game has none yet)",
        games
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    );
    Ok(rated)
}

/// Bots that did not start, each with why.
type NotStarted = Vec<(String, String)>;

/// Bots in the config's order, each with why it did not start (`None`:
/// it started).
type Listed = Vec<(String, Option<String>)>;

/// The run's bots (`run_bots`, when the one file is `from_run`) that did
/// not start, as its series.csv gives them, with why; and every run bot in
/// the config's order with why it did not start, as the run listed them.
/// The bots that started but played no game join `rated`.
fn listed_bots(
    rated: &mut crate::rate::Rated,
    run_bots: &[String],
    from_run: bool,
    games: &[PathBuf],
) -> (NotStarted, Listed) {
    // The run's bots that did not start, as its series.csv gives them, are
    // listed after the others, as the run listed them.
    let not_started: Vec<(String, String)> = match (from_run, games) {
        (true, [games]) => not_started_in(games.parent().unwrap_or(Path::new(".")))
            .into_iter()
            .filter(|(bot, _)| !rated.names.contains(bot) && run_bots.contains(bot))
            .collect(),
        _ => Vec::new(),
    };
    let started: Vec<&String> = run_bots
        .iter()
        .filter(|b| not_started.iter().all(|(n, _)| n != *b))
        .collect();
    rated.include_bots(&started);
    // In the config's order, as the run listed them.
    let listed: Vec<(String, Option<String>)> = run_bots
        .iter()
        .map(|b| {
            let why = not_started.iter().find(|(n, _)| n == b);
            (b.clone(), why.map(|(_, why)| why.clone()))
        })
        .collect();
    (not_started, listed)
}

/// That no file of `games` is given twice: its games would count twice.
fn check_distinct(games: &[PathBuf]) -> anyhow::Result<()> {
    for (i, file) in games.iter().enumerate() {
        let same = |other: &PathBuf| match (file.canonicalize(), other.canonicalize()) {
            (Ok(a), Ok(b)) => a == b,
            _ => file == other,
        };
        anyhow::ensure!(
            !games[..i].iter().any(same),
            "{} is given twice: give each games.csv once (its games would count twice)",
            file.display()
        );
    }
    Ok(())
}

/// The settings of the run the `games` files come from: its config.toml
/// beside them, the same for all, read as a run reads its copy (paths from
/// the original's folder); `None` when they come from no one run.
fn run_config_of(options: &Options) -> anyhow::Result<Option<Config>> {
    let texts: Vec<Option<String>> = options
        .games
        .iter()
        .map(|g| {
            let dir = g.parent().unwrap_or(Path::new("."));
            std::fs::read_to_string(dir.join("config.toml")).ok()
        })
        .collect();
    Ok(match texts.first() {
        // Read as a run reads its copy: paths from the original's folder.
        Some(Some(first)) if texts.iter().all(|t| t.as_ref() == Some(first)) => {
            let dir = options.games[0].parent().unwrap_or(Path::new("."));
            super::run_config(dir, options.tablebase.is_some())?
        }
        _ => None,
    })
}

/// A league's roster as its run recorded it: who was in which round, and
/// the rows of its `roster.csv`.
type RunRoster = (
    crate::format::roster::Roster,
    Vec<crate::output::roster::RosterRow>,
);

/// `run_config` with a league's bots that joined while it ran (stand-ins,
/// named only), and its roster, when it is a league's and its one file of
/// `games` has a `roster.csv` beside it: the league is then replayed as
/// the run recorded its bots coming and going, as the run's own summaries
/// and `--resume` replay it ([`crate::output::roster::league_roster`]).
///
/// # Errors
/// `roster.csv` cannot be read.
fn with_roster(
    run_config: Option<Config>,
    games: &[PathBuf],
) -> anyhow::Result<(Option<Config>, Option<RunRoster>)> {
    let (Some(config), [games]) = (&run_config, games) else {
        return Ok((run_config, None));
    };
    if !matches!(config.format, crate::format::Format::League(_)) {
        return Ok((run_config, None));
    }
    let dir = games.parent().unwrap_or(Path::new("."));
    let config = crate::runner::with_joined(config, &crate::output::RunFolder::at(dir))?;
    let roster = crate::output::roster::league_roster(&config, dir);
    Ok((Some(config), roster))
}

/// A league's `roster.csv` (its `roster`'s rows) written into `out` when
/// that is not the folder of its one file of `games` (where the run's own
/// is), so that the report there marks the bots that left; nothing
/// without a roster.
///
/// # Errors
/// The file cannot be written.
fn copy_roster(roster: Option<&RunRoster>, games: &[PathBuf], out: &Path) -> anyhow::Result<()> {
    let Some((_, rows)) = roster else {
        return Ok(());
    };
    let same = |a: &Path, b: &Path| match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    };
    let from = games
        .first()
        .and_then(|g| g.parent())
        .unwrap_or(Path::new("."));
    if !same(from, out) {
        crate::output::write_rows(out, rows)
            .with_context(|| format!("cannot write roster.csv in {}", out.display()))?;
    }
    Ok(())
}

/// `table` with the line naming a league's bots that left (as its
/// `roster` has them), those marked in `out`'s `standings.csv`, as the
/// run's own summaries mark them; `table` as it is without a roster.
///
/// # Errors
/// `standings.csv` cannot be read or written.
fn with_retired(
    mut table: String,
    roster: Option<&RunRoster>,
    out: &Path,
) -> anyhow::Result<String> {
    let Some((_, rows)) = roster else {
        return Ok(table);
    };
    let line = crate::output::roster::mark_retired(out, rows)
        .with_context(|| format!("cannot mark the retired bots in {}", out.display()))?;
    if let Some(line) = line {
        table.push('\n');
        table.push_str(&line);
    }
    Ok(table)
}

/// What reading the games found that the user should know: rows cut
/// short, files that hold the same games, files without moves.
fn note_read(rated: &crate::rate::Rated, console: &mut Console<'_>) {
    for torn in &rated.torn {
        console.note(format_args!("arena: {torn}"));
    }
    for (file, first) in &rated.twins {
        console.note(format_args!(
            "arena: warning: {} holds the same games as {}, game for game (two runs of one config and seed?): they count twice; give one of them",
            file.display(),
            first.display()
        ));
    }
    for file in &rated.unreplayed {
        console.note(format_args!(
            "arena: {} has no moves column, so its rows are counted as they are, not replayed and checked",
            file.display()
        ));
    }
}

/// The course of a gauntlet, knockout, Swiss or league run
/// (`format_config`) as its one `games` file followed it, the bots
/// `not_started` left out; a league's bots as its `roster` says, when it
/// has one.
fn course_of(
    format_config: Option<&Config>,
    games: &[PathBuf],
    not_started: &[(String, String)],
    out: &Path,
    roster: Option<&crate::format::roster::Roster>,
) -> anyhow::Result<Option<(crate::format::GameCourse, Option<crate::html::Trends>)>> {
    Ok(match (format_config, games) {
        (Some(config), [games]) => {
            let rule = crate::runner::series_rule(config, None);
            let course = match roster {
                Some(r) => crate::format::GameCourse::with_roster(&config.format, r.clone(), rule),
                None => {
                    let absent: Vec<usize> = not_started
                        .iter()
                        .filter_map(|(n, _)| config.bots.iter().position(|b| &b.name == n))
                        .collect();
                    let bots = config.bots.len();
                    crate::format::GameCourse::new(&config.format, bots, &absent, rule, &[])
                }
            };
            Some(followed_course(config, course, games, out)?)
        }
        _ => None,
    })
}

/// The bots a run in `dir` left out since they did not start, with why, as
/// its `series.csv` notes them (`not played: bot 'X' did not start: WHY`);
/// none when the file is missing or unreadable.
pub(super) fn not_started_in(dir: &Path) -> Vec<(String, String)> {
    let Ok(mut reader) = csv::Reader::from_path(dir.join("series.csv")) else {
        return Vec::new();
    };
    let mut found: Vec<(String, String)> = Vec::new();
    for row in reader.deserialize::<crate::output::SeriesRow>().flatten() {
        let Some(rest) = row.note.strip_prefix("not played: bot '") else {
            continue;
        };
        if let Some((bot, why)) = rest.split_once("' did not start: ") {
            if found.iter().all(|(b, _)| b != bot) {
                found.push((bot.to_string(), why.to_string()));
            }
        }
    }
    found
}

/// The `course` of `config`'s format, before any game, followed through
/// the games of its run's `games`, as the run recorded it, so that rating
/// a run folder keeps its report's bracket, rounds or candidates; a
/// league's `league.csv` is written into `out` round by round as its
/// rounds are paired, and its trends returned.
///
/// # Errors
/// `games` cannot be read, or `league.csv` written; a league's game that
/// is not one of its pairings (nothing is written then).
fn followed_course(
    config: &Config,
    mut course: crate::format::GameCourse,
    games: &Path,
    out: &Path,
) -> anyhow::Result<(crate::format::GameCourse, Option<crate::html::Trends>)> {
    let names: Vec<String> = config.bots.iter().map(|b| b.name.clone()).collect();
    let cannot = || format!("cannot write the format's file in {}", out.display());
    let mut league = report::LeagueReplay::new(out, course.plan(), &names).with_context(cannot)?;
    let mut follow = |course: &crate::format::GameCourse| match league.as_mut() {
        Some(l) => l.follow(course.plan()).with_context(cannot),
        None => Ok(()),
    };
    follow(&course)?;
    let league_run = matches!(config.format, crate::format::Format::League(_));
    // A torn or bad row was reported by the rating's own read.
    for (_, row) in crate::output::GamesReader::open(games)?.map_while(Result::ok) {
        let bots = [row.south.as_str(), row.north.as_str()];
        if league_run && !course.has_named(&names, row.series, bots) {
            drop(league);
            let _ = std::fs::remove_file(out.join(format!("{}.tmp", crate::html::LEAGUE_FILE)));
            anyhow::bail!(
                "{}: series {} of {} and {} is not a pairing of the league replayed from its config and roster.csv: games.csv or roster.csv was edited, or they are from another run; the run's own files are its result",
                games.display(),
                row.series,
                row.south,
                row.north
            );
        }
        if course.add_named(&names, row.series, row.game, bots, row.winner()) {
            follow(&course)?;
        }
    }
    let trends = league
        .map(report::LeagueReplay::finish)
        .transpose()
        .with_context(cannot)?;
    Ok((course, trends))
}
