//! What the user reads: the line per game, the final table, and the summary
//! CSV files built from a finished run.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;

use endodoi::Side;

use std::path::Path;

use crate::config::{Config, RatingSettings};
use crate::format::{Format, Plan};
pub use crate::html::ReportError;
use crate::html::{
    candidate_scores, round_name, settled_word, settled_words, ties, Entrant, FormatCourse, Trends,
    LEAGUE_FILE,
};
use crate::matchup::{matchup, model_name, model_words, verdict_words, Matchup};
use crate::output::rows::{LOS_COLUMNS, LOS_FILE};
use crate::output::{
    num, write_atomic, write_rows, KnockoutRow, LeagueCsv, MatchRow, PairwiseRow, RowsFile,
    RunFolder, SeriesRow, SprtRow, StandingRow, SwissStandingRow,
};
use crate::referee::GameRecord;
use crate::runner::{SprtState, Summary};
use crate::series::{SeriesResult, SeriesRule, SeriesState};
use crate::standings::{standings, Standing, Tally};
use crate::stats::{self, RatingOptions, Sprt};

/// Claims a new folder `results/<name>-<UTC timestamp>`, with `-2`, `-3`...
/// if that exists. The folder is created here, atomically, so two runs
/// started in the same second never share one.
///
/// # Errors
/// The I/O error creating `results/` or the folder.
pub fn claim_run_dir(name: &str) -> std::io::Result<PathBuf> {
    let now = time::OffsetDateTime::now_utc();
    let stamp = now
        .format(time::macros::format_description!(
            "[year][month][day]-[hour][minute][second]"
        ))
        .unwrap_or_else(|_| "now".into());
    std::fs::create_dir_all("results")?;
    let base = PathBuf::from("results").join(format!("{name}-{stamp}"));
    let mut path = base.clone();
    for n in 2.. {
        match std::fs::create_dir(&path) {
            Ok(()) => return Ok(path),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                path = PathBuf::from(format!("{}-{n}", base.display()));
            }
            Err(e) => return Err(e),
        }
    }
    unreachable!("the loop returns")
}

/// The most games the tournament can play: every series at `max_games`.
#[must_use]
pub fn games_bound(config: &Config) -> u64 {
    let n = config.bots.len() as u64;
    n * (n - 1) / 2 * u64::from(config.tournament.max_games)
}

/// One line about a finished game, for the log on stderr.
#[must_use]
pub fn game_line(done: usize, g: &GameRecord) -> String {
    let result = match g.winner {
        None => "draw".to_string(),
        Some(Side::South) => format!("{} wins", g.bots[0]),
        Some(Side::North) => format!("{} wins", g.bots[1]),
    };
    let mut line = format!(
        "[{done:>4}] series {} game {}: {} (S) {}-{} {} (N), {result} by {} after {} {}",
        g.series,
        g.game,
        g.bots[0],
        g.seeds[0],
        g.seeds[1],
        g.bots[1],
        g.end,
        g.plies,
        if g.plies == 1 { "ply" } else { "plies" }
    );
    if !g.detail.is_empty() {
        let _ = write!(line, ": {}", g.detail);
    }
    line
}

/// One line about an SPRT match after a game pair, for the log on stderr;
/// `first` is the bot the results count from (the first `[[bot]]`).
#[must_use]
pub fn sprt_line(s: &SprtState, first: &str) -> String {
    format!(
        "       SPRT after {} ({first}: +{} ={} -{}): LLR {} in [{}, {}]: {}",
        crate::output::counted(s.games, "game", "games"),
        s.wdl.wins,
        s.wdl.draws,
        s.wdl.losses,
        num(s.llr, 3),
        num(s.bounds.0, 3),
        num(s.bounds.1, 3),
        verdict_words(s.verdict())
    )
}

pub use crate::output::SPRT_COLUMNS;

/// Writes `series.csv`, `standings.csv`, `pairwise.csv`, `los.csv`,
/// `report.html` and `standings.svg` (and a two-bot match's `match.csv`) for
/// a finished (or interrupted) run and returns the final output: the table
/// as aligned text, then a two-bot match's summary ([`write_ratings`]).
///
/// # Errors
/// An I/O error writing a file.
pub fn write_summaries(
    config: &Config,
    dir: &RunFolder,
    summary: &Summary,
) -> Result<String, ReportError> {
    let name = |i: usize| config.bots[i].name.clone();
    // A knockout's deciders are named as such.
    let absent: Vec<usize> = summary.not_started.iter().map(|(i, _)| *i).collect();
    // A league whose bots came and went: its roster.csv says who was in
    // which round.
    let roster = crate::output::roster::league_roster(config, &dir.path);
    let names: Vec<String> = config.bots.iter().map(|b| b.name.clone()).collect();
    let mut plan = match &roster {
        Some((roster, _)) => crate::format::Plan::with_roster(&config.format, roster.clone()),
        None => crate::format::Plan::new(&config.format, config.bots.len(), &absent),
    };
    // A league's league.csv is written anew as its rounds are replayed.
    let mut league = LeagueReplay::new(&dir.path, &plan, &names)?;
    let mut follow = |p: &Plan| league.as_mut().map_or(Ok(()), |l| l.follow(p));
    let mut series_csv = SeriesRows::create(&dir.path, &names)?;
    if summary.results_in_games {
        // A league run whole kept no result: its games say them again,
        // round by round.
        let rule = crate::runner::series_rule(config, None);
        let mut take = |p: &Plan, round: &[SeriesResult]| series_csv.take(round, p, true);
        replay_games(
            &dir.games(),
            &names,
            rule,
            &mut plan,
            &mut follow,
            &mut take,
        )?;
    } else {
        plan.record_each(&summary.series, &mut follow)?;
        series_csv.take(&summary.series, &plan, false)?;
    }
    let trends = league.map(LeagueReplay::finish).transpose()?;
    let unplayed = unplayed_rows(config, summary, &plan, &series_csv.held);
    series_csv.finish(unplayed)?;
    if !summary.sprt.is_empty() {
        let rows: Vec<SprtRow> = summary.sprt.iter().map(sprt_row).collect();
        write_rows(&dir.path, &rows)?;
    }
    // The ratings come from games.csv itself, exactly as `arena rate` would
    // compute them, so the two can never disagree.
    let games = [dir.games()];
    let rated = rated_games(config, &games, &summary.not_started)?;
    let options = rating_options(&config.ratings, config.tournament.seed, &rated.names);
    let sprt = crate::runner::series_rule(config, None).sprt;
    let listed: Vec<(String, Option<String>)> = (0..config.bots.len())
        .map(|i| {
            let why = summary.not_started.iter().find(|(bot, _)| *bot == i);
            (name(i), why.map(|(_, why)| why.clone()))
        })
        .collect();
    let course = FormatCourse {
        plan: &plan,
        names: &names,
        trends: trends.as_ref(),
    };
    write_format_rows(&dir.path, &course)?;
    let table = write_ratings(
        &rated.names,
        &rated.tally,
        &options,
        &dir.path,
        &games,
        sprt,
        &listed,
        (config.format != Format::RoundRobin).then_some(course),
    )?;
    let width = crate::output::table::stdout_terminal_width();
    let mut table = table;
    if let Some((_, rows)) = &roster {
        if let Some(line) = crate::output::roster::mark_retired(&dir.path, rows)? {
            table.push('\n');
            table.push_str(&line);
        }
    }
    Ok(with_format_text(&course, table, width))
}

/// The rows of `series.csv` for the series not played (after those
/// `held` to be written): the series `summary` did not play (a bot that
/// did not start, said with why), and a knockout's or Swiss's round known
/// to `plan` but not begun when the run stopped (listed, unplayed, as
/// knockout.csv lists its ties; the rows written already are of earlier
/// rounds).
fn unplayed_rows(
    config: &Config,
    summary: &Summary,
    plan: &Plan,
    held: &[SeriesRow],
) -> Vec<SeriesRow> {
    let name = |i: usize| config.bots[i].name.clone();
    let why = |i: usize| {
        summary
            .not_started
            .iter()
            .find(|(bot, _)| *bot == i)
            .map(|(_, why)| format!("not played: bot '{}' did not start: {why}", name(i)))
    };
    let mut unplayed: Vec<SeriesRow> = summary
        .not_played
        .iter()
        .map(|s| SeriesRow {
            series: s.number,
            round: s.round,
            bot_a: name(s.a),
            bot_b: name(s.b),
            note: why(s.a)
                .or_else(|| why(s.b))
                .unwrap_or_else(|| "not played: a bot of it did not start".to_string()),
            ..SeriesRow::default()
        })
        .collect();
    if !config.format.is_static() {
        let listed: Vec<usize> = (held.iter().chain(&unplayed)).map(|r| r.series).collect();
        let open = plan
            .series()
            .iter()
            .filter(|s| plan.result(s.number).is_none() && !listed.contains(&s.number))
            .map(|s| SeriesRow {
                series: s.number,
                round: s.round,
                bot_a: name(s.a),
                bot_b: name(s.b),
                note: "not played: the run was interrupted".to_string(),
                ..SeriesRow::default()
            });
        unplayed.extend(open);
    }
    unplayed
}

/// The row of `sprt.csv` for an SPRT test's state `s` after a game pair.
fn sprt_row(s: &SprtState) -> SprtRow {
    SprtRow {
        games: s.games,
        wins: s.wdl.wins,
        draws: s.wdl.draws,
        losses: s.wdl.losses,
        penta_0: s.pentanomial[0],
        penta_1: s.pentanomial[1],
        penta_2: s.pentanomial[2],
        penta_3: s.pentanomial[3],
        penta_4: s.pentanomial[4],
        llr: num(s.llr, 4),
        lower: num(s.bounds.0, 4),
        upper: num(s.bounds.1, 4),
        status: s.verdict().to_string(),
    }
}

/// The games of `games` (a run's `games.csv`) tallied for the ratings as
/// `arena rate` reads them (checked against `config`'s endgame tables, if
/// any), with every bot of `config` listed, even one without a game yet;
/// those `not_started` are listed after them, as not started.
///
/// # Errors
/// The tables or the games cannot be read.
fn rated_games(
    config: &Config,
    games: &[PathBuf],
    not_started: &[(usize, String)],
) -> Result<crate::rate::Rated, ReportError> {
    let tables = match &config.tablebase {
        Some(tables) => Some(crate::output::tablebase::shared(tables)?),
        None => None,
    };
    let mut rated = crate::rate::read_games_with(games, false, tables, config.adjudicate)?;
    let bots: Vec<&str> = (0..config.bots.len())
        .filter(|i| not_started.iter().all(|(bot, _)| bot != i))
        .map(|i| config.bots[i].name.as_str())
        .collect();
    rated.include_bots(&bots);
    Ok(rated)
}

/// `series.csv` written as its rows come: a league's round by round (its
/// rounds are numbered one after the other), the rows of the last round
/// taken held back to be sorted with the series not played
/// ([`SeriesRows::finish`]); every row of another format's run held.
struct SeriesRows<'a> {
    file: RowsFile<SeriesRow>,
    /// The rows not written yet.
    held: Vec<SeriesRow>,
    /// The bots' names, by index.
    names: &'a [String],
}

impl<'a> SeriesRows<'a> {
    /// Starts `dir`'s `series.csv` (bots named by `names`).
    ///
    /// # Errors
    /// An I/O error creating the file.
    fn create(dir: &Path, names: &'a [String]) -> std::io::Result<SeriesRows<'a>> {
        Ok(SeriesRows {
            file: RowsFile::create(dir)?,
            held: Vec::new(),
            names,
        })
    }

    /// Takes the rows of `results` (deciders as `plan` names them), held;
    /// those held before are written first if `new_round` (a league's
    /// rounds, taken one after the other).
    ///
    /// # Errors
    /// An I/O error writing the file.
    fn take(
        &mut self,
        results: &[SeriesResult],
        plan: &Plan,
        new_round: bool,
    ) -> std::io::Result<()> {
        if new_round {
            for row in self.held.drain(..) {
                self.file.push(&row)?;
            }
        }
        let name = |i: usize| bot_name(self.names, i);
        self.held.extend(results.iter().map(|s| SeriesRow {
            series: s.series.number,
            round: s.series.round,
            bot_a: name(s.series.a),
            bot_b: name(s.series.b),
            games: s.wdl.games(),
            wins_a: s.wdl.wins,
            draws: s.wdl.draws,
            wins_b: s.wdl.losses,
            winner: s.winner().map_or_else(|| "draw".to_string(), name),
            decided: s.decided,
            note: match (plan.is_decider(s.series.number), s.over) {
                (true, true) => "decider".to_string(),
                (true, false) => "decider; not over: the run was interrupted".to_string(),
                (false, true) => String::new(),
                (false, false) => "not over: the run was interrupted".to_string(),
            },
        }));
        Ok(())
    }

    /// Writes the rows held and `unplayed` (the series not played), in
    /// number order, and puts the file in place.
    ///
    /// # Errors
    /// An I/O error writing the file.
    fn finish(mut self, unplayed: Vec<SeriesRow>) -> std::io::Result<()> {
        self.held.extend(unplayed);
        self.held.sort_by_key(|r| r.series);
        for row in &self.held {
            self.file.push(row)?;
        }
        self.file.finish()
    }
}

/// The results of a run's series read again from its `games` file, row
/// by row (bots by their `names`), as the run counted them under `rule`
/// (a decider's: one game pair): each round's recorded into `plan` once
/// its rows are read, in number order, handing the plan to `each` as
/// [`Plan::record_each`] does, then handed to `on_round` with the plan
/// (one round's results held at a time). For a league run whole, which keeps no
/// result so that its memory stays flat over its rounds; the rounds are
/// played one after the other, so a round's rows all come before the
/// next round's. A row of a series that the plan does not hold, or whose
/// bots are not the series' pair, is left out.
///
/// # Errors
/// `games` cannot be read, or the first error of `each` or `on_round`.
fn replay_games(
    games: &Path,
    names: &[String],
    rule: SeriesRule,
    plan: &mut Plan,
    each: &mut impl FnMut(&Plan) -> std::io::Result<()>,
    on_round: &mut impl FnMut(&Plan, &[SeriesResult]) -> std::io::Result<()>,
) -> Result<(), ReportError> {
    // The series of the open round that have games, by number.
    let mut open: BTreeMap<usize, SeriesState> = BTreeMap::new();
    for row in crate::output::GamesReader::open(games)? {
        let (_, row) = row?;
        let at = |name: &str| names.iter().position(|b| b == name);
        let (Some(south), Some(north), Ok(number)) =
            (at(&row.south), at(&row.north), usize::try_from(row.series))
        else {
            continue;
        };
        if plan.get(number).is_none() && !open.is_empty() {
            // A later round's first row: the open round is read whole.
            close_round(&mut open, plan, each, on_round)?;
        }
        let Some(series) = plan.get(number) else {
            continue;
        };
        if (series.a, series.b) != (south.min(north), south.max(north)) {
            continue;
        }
        let rule = if plan.is_decider(number) {
            SeriesRule::decider()
        } else {
            rule
        };
        let state = open
            .entry(number)
            .or_insert_with(|| SeriesState::new(series, rule));
        state.record(crate::series::score(series, row.game, row.winner()));
    }
    close_round(&mut open, plan, each, on_round)?;
    Ok(())
}

/// Records the results of the series `open` (emptied) into `plan`, in
/// number order, handing the plan to `each` before the first and after
/// each one ([`Plan::record_each`]), then the plan and the results to
/// `on_round`.
///
/// # Errors
/// The first error of `each` or `on_round`.
fn close_round(
    open: &mut BTreeMap<usize, SeriesState>,
    plan: &mut Plan,
    each: &mut impl FnMut(&Plan) -> std::io::Result<()>,
    on_round: &mut impl FnMut(&Plan, &[SeriesResult]) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let round: Vec<SeriesResult> = std::mem::take(open)
        .into_values()
        .filter_map(|s| s.result())
        .collect();
    plan.record_each(&round, &mut *each)?;
    on_round(plan, &round)
}

/// `table` (the Elo standings and any match summary) with the text of
/// `course`'s format around it: a knockout's champion and bracket after
/// it, a Swiss's standings before it (points rank a Swiss), a gauntlet's
/// candidates after it; `table` alone for a round robin.
#[must_use]
pub fn with_format_text(course: &FormatCourse<'_>, table: String, width: Option<u16>) -> String {
    match course.plan.format() {
        Format::RoundRobin => table,
        Format::Swiss { .. } => format!(
            "{}

{table}",
            swiss_text(course, width)
        ),
        Format::Knockout { .. } => format!(
            "{table}

{}",
            knockout_text(course, width)
        ),
        Format::Gauntlet { .. } => format!(
            "{table}

{}",
            candidates_text(course, width)
        ),
        Format::League(_) => format!("{}\n\n{table}", league_text(course)),
    }
}

/// A league's course in one line: the rounds played, and why it stopped.
#[must_use]
pub fn league_text(course: &FormatCourse<'_>) -> String {
    let (Some(l), Format::League(settings)) = (course.plan.league(), course.plan.format()) else {
        return String::new();
    };
    // The rounds over: an interrupted run's last round paired is not.
    let over = l.rounds_paired - u32::from(!course.plan.is_over() && l.rounds_paired > 0);
    let of = settings
        .rounds
        .map_or_else(String::new, |r| format!(" of {r}"));
    let why = match (l.settled, settings.settle_los) {
        (true, Some(los)) => format!(
            ": settled (every two neighbours of the ranking decided at LOS {})",
            num(los, 3)
        ),
        _ if course.plan.is_over() => String::new(),
        _ => ": stopped".to_string(),
    };
    format!(
        "League after {over}{of} rounds{why} ({} pairings in league.csv)",
        l.series_paired
    )
}

/// A league's course replayed round by round ([`Plan::record_each`]): its
/// `league.csv` written anew (in place of the old one once whole) and the
/// trends of its pairings for the report, each round taken as it is
/// paired, since the plan keeps only its last round.
pub struct LeagueReplay<'a> {
    csv: LeagueCsv,
    trends: Trends,
    names: &'a [String],
}

impl<'a> LeagueReplay<'a> {
    /// The replay of `plan`'s league (bots are indices into `names`),
    /// writing `dir`'s `league.csv`; `None` for another format.
    ///
    /// # Errors
    /// An I/O error creating the file.
    pub fn new(
        dir: &Path,
        plan: &Plan,
        names: &'a [String],
    ) -> std::io::Result<Option<LeagueReplay<'a>>> {
        if plan.league().is_none() {
            return Ok(None);
        }
        Ok(Some(LeagueReplay {
            csv: LeagueCsv::replacing(&dir.join(LEAGUE_FILE))?,
            trends: Trends::new(),
            names,
        }))
    }

    /// Takes `plan`'s last round paired if it is new: its rows and trends.
    ///
    /// # Errors
    /// An I/O error writing the file.
    pub fn follow(&mut self, plan: &Plan) -> std::io::Result<()> {
        if let Some(l) = plan.league() {
            self.trends.follow(l, self.names);
        }
        self.csv.follow(plan, self.names)
    }

    /// Puts `league.csv` in place and returns the trends.
    ///
    /// # Errors
    /// An I/O error syncing or renaming the file.
    pub fn finish(self) -> std::io::Result<Trends> {
        self.csv.finish()?;
        Ok(self.trends)
    }
}

/// Writes a knockout's `knockout.csv` or a Swiss's `swiss.csv` from
/// `course`; nothing for other formats (a league's `league.csv` is
/// written round by round: [`LeagueReplay`]).
///
/// # Errors
/// An I/O error writing the file.
pub fn write_format_rows(dir: &Path, course: &FormatCourse<'_>) -> std::io::Result<()> {
    match course.plan.format() {
        Format::Knockout { .. } => write_rows(dir, &knockout_rows(course)),
        Format::Swiss { .. } => write_rows(dir, &swiss_rows(course)),
        Format::League(_) | Format::RoundRobin | Format::Gauntlet { .. } => Ok(()),
    }
}

/// `names[i]`, or `?`.
fn bot_name(names: &[String], i: usize) -> String {
    names.get(i).cloned().unwrap_or_else(|| "?".to_string())
}

/// The rows of `knockout.csv`: one per tie, round by round.
#[must_use]
pub fn knockout_rows(course: &FormatCourse<'_>) -> Vec<KnockoutRow> {
    let names = course.names;
    ties(course.plan)
        .iter()
        .map(|t| KnockoutRow {
            round: t.round,
            tie: t.tie,
            series: t
                .series
                .iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(" "),
            bot_a: t.bots[0].map_or_else(String::new, |e| bot_name(names, e.bot)),
            seed_a: t.bots[0].map(|e| e.seed),
            bot_b: t.bots[1].map_or_else(String::new, |e| bot_name(names, e.bot)),
            seed_b: t.bots[1].map(|e| e.seed),
            wins_a: t.wdl.wins,
            draws: t.wdl.draws,
            wins_b: t.wdl.losses,
            winner: t.winner.map_or_else(String::new, |w| bot_name(names, w)),
            settled: t.settled.map_or("", settled_word).to_string(),
        })
        .collect()
}

/// The rows of `swiss.csv`: the Swiss standings, best first.
#[must_use]
pub fn swiss_rows(course: &FormatCourse<'_>) -> Vec<SwissStandingRow> {
    let Some(st) = course.plan.swiss_standings() else {
        return Vec::new();
    };
    st.rows
        .iter()
        .map(|r| SwissStandingRow {
            rank: r.rank,
            bot: bot_name(course.names, r.bot),
            seed: r.seed,
            points: num(r.points, 1),
            buchholz: num(r.buchholz, 1),
            won: r.won,
            drawn: r.drawn,
            lost: r.lost,
            byes: r.byes,
            note: if r.absent {
                "not started".to_string()
            } else {
                String::new()
            },
        })
        .collect()
}

/// A table laid out for `width` (`None`: natural width), its `left`
/// columns aligned left; no column is left out, text cells are broken
/// to fit ([`render_fitted`](crate::output::table::render_fitted)).
fn fitted_table(
    header: &[&str],
    left: &[usize],
    rows: &[Vec<String>],
    width: Option<u16>,
) -> String {
    use crate::output::table::{render_fitted, Align};
    let mut align = vec![Align::Right; header.len()];
    for &i in left {
        align[i] = Align::Left;
    }
    render_fitted(header, &align, rows, width, &[]).text
}

/// A knockout as text: the champion (or who is still in), then the
/// bracket round by round, one tie a line: the better seed and its bot,
/// the games W-D-L from its side (deciders included), the other seed and
/// bot, and how the tie was settled.
#[must_use]
pub fn knockout_text(course: &FormatCourse<'_>, width: Option<u16>) -> String {
    let names = course.names;
    let plan = course.plan;
    let total = plan.bracket().map_or(0, |b| b.total_rounds);
    let mut out = match plan.champion() {
        Some(c) => format!("Knockout champion: {}", bot_name(names, c)),
        None => "Knockout: no champion yet".to_string(),
    };
    let side = |e: Option<Entrant>| match e {
        Some(e) => (e.seed.to_string(), bot_name(names, e.bot)),
        None => (String::new(), "(bye)".to_string()),
    };
    let rows: Vec<Vec<String>> = ties(plan)
        .iter()
        .map(|t| {
            let (sa, a) = side(t.bots[0]);
            let (sb, b) = side(t.bots[1]);
            let mark = |x: Option<Entrant>, n: String| {
                if x.is_some_and(|e| t.winner == Some(e.bot)) {
                    format!("{n} *")
                } else {
                    n
                }
            };
            vec![
                round_name(t.round, total),
                sa,
                mark(t.bots[0], a),
                if t.series.is_empty() {
                    "-".to_string()
                } else {
                    format!("{}-{}-{}", t.wdl.wins, t.wdl.draws, t.wdl.losses)
                },
                sb,
                mark(t.bots[1], b),
                settled_words(t),
            ]
        })
        .collect();
    let header = ["round", "seed", "bot", "W-D-L", "seed", "bot", "settled"];
    let _ = write!(
        out,
        "\n{}\n(* went through; W-D-L games from the first bot's side, deciders included; knockout.csv has the ties)",
        fitted_table(&header, &[0, 2, 5, 6], &rows, width)
    );
    out
}

/// A Swiss's standings as text: rank, bot, points, Buchholz, the series
/// W-D-L and byes.
#[must_use]
pub fn swiss_text(course: &FormatCourse<'_>, width: Option<u16>) -> String {
    let Some(st) = course.plan.swiss_standings() else {
        return String::new();
    };
    let rounds = match course.plan.format() {
        Format::Swiss { rounds, .. } => *rounds,
        _ => 0,
    };
    // The rounds over: an interrupted run's last round paired is not.
    let over = st.rounds_paired - u32::from(!course.plan.is_over() && st.rounds_paired > 0);
    let mut out = format!("Swiss standings after {over} of {rounds} rounds");
    if let Some(c) = course.plan.champion() {
        let _ = write!(out, ": {} wins", bot_name(course.names, c));
    }
    let rows: Vec<Vec<String>> = st
        .rows
        .iter()
        .map(|r| {
            vec![
                if r.absent {
                    "-".to_string()
                } else {
                    r.rank.to_string()
                },
                bot_name(course.names, r.bot),
                num(r.points, 1),
                num(r.buchholz, 1),
                format!("{}-{}-{}", r.won, r.drawn, r.lost),
                r.byes.to_string(),
            ]
        })
        .collect();
    let header = ["#", "bot", "points", "Buchholz", "series W-D-L", "byes"];
    let _ = write!(
        out,
        "\n{}\n(points: 1 a series won or a bye, 0.5 drawn; ties by Buchholz, then seed; the Elo standings rate the same games)",
        fitted_table(&header, &[1], &rows, width)
    );
    out
}

/// A gauntlet's candidates against the pool as text: series and games
/// W-D-L and the score.
#[must_use]
pub fn candidates_text(course: &FormatCourse<'_>, width: Option<u16>) -> String {
    let rows: Vec<Vec<String>> = candidate_scores(course.plan)
        .iter()
        .map(|c| {
            vec![
                bot_name(course.names, c.bot),
                c.series.to_string(),
                format!(
                    "{}-{}-{}",
                    c.series_wdl.wins, c.series_wdl.draws, c.series_wdl.losses
                ),
                c.wdl.games().to_string(),
                format!("{}-{}-{}", c.wdl.wins, c.wdl.draws, c.wdl.losses),
                c.score_pct()
                    .map_or_else(String::new, |p| format!("{}%", num(p, 1))),
            ]
        })
        .collect();
    let header = [
        "candidate",
        "series",
        "series W-D-L",
        "games",
        "W-D-L",
        "score",
    ];
    format!(
        "Candidates against the pool\n{}",
        fitted_table(&header, &[0], &rows, width)
    )
}

/// `los.csv` holds the LOS matrix of at most this many bots: the top of
/// the standings. The matrix grows as the square of the bots (7 MB at
/// 1,000 bots, each cell a sum over the bootstrap samples); every bot's LOS
/// over the next one is in `standings.csv` (`los_next`) whatever the size.
pub const LOS_MATRIX_MAX_BOTS: usize = 200;

/// The rating options of `settings`, with the anchor looked up in `names`.
#[must_use]
pub fn rating_options(settings: &RatingSettings, seed: u64, names: &[String]) -> RatingOptions {
    RatingOptions {
        prior_draws: settings.prior_draws,
        bootstrap_samples: settings.bootstrap,
        seed,
        anchor: settings
            .anchor
            .as_ref()
            .and_then(|(bot, elo)| names.iter().position(|n| n == bot).map(|i| (i, *elo))),
        ..RatingOptions::default()
    }
}

/// Writes `standings.csv`, `pairwise.csv` and `los.csv` into `dir` from
/// `tally` (bot `i` is `names[i]`), then `report.html` and `standings.svg`
/// ([`crate::html`]) from the same standings and the games of `games` (the
/// `games.csv` files `tally` counts), and returns the standings as a table.
///
/// When exactly two bots played, it also writes `match.csv` and puts the
/// match's summary ([`matchup_text`]) in the report and under the table:
/// with `sprt`, the test the match ran, whose LLR is recomputed pair by
/// pair from the games.
///
/// `listed` are a run's bots in its config's order, each with why it did
/// not start if it was left out (empty when the games come from no run):
/// the bots without games are listed after the others in this order, and
/// each left out that played no game gets a row of 0 games after them all,
/// with its reason in `standings.csv`'s `note`, in the table and in the
/// report. A bot without games has empty LOS cells. `format` is the
/// course of a knockout, Swiss or gauntlet, whose sections the report
/// shows.
///
/// # Errors
/// An I/O error writing a file, or a `games` file that cannot be read.
#[allow(clippy::too_many_arguments)]
pub fn write_ratings(
    names: &[String],
    tally: &Tally,
    options: &RatingOptions,
    dir: &Path,
    games: &[impl AsRef<Path>],
    sprt: Option<Sprt>,
    listed: &[(String, Option<String>)],
    format: Option<FormatCourse<'_>>,
) -> Result<String, ReportError> {
    let (mut table, ratings) = standings(tally, options);
    crate::standings::list_idle_by(&mut table, |i| {
        listed
            .iter()
            .position(|(bot, _)| *bot == names[i])
            .unwrap_or(usize::MAX)
    });
    let not_started: Vec<(String, String)> = listed
        .iter()
        .filter_map(|(bot, why)| Some((bot.clone(), why.clone()?)))
        .filter(|(bot, _)| !names.contains(bot))
        .collect();
    write_standing_rows(dir, names, &table, &not_started)?;
    write_rows(dir, &pairwise_rows(names, tally))?;
    write_los(dir, names, tally, &table, &ratings)?;
    let rows = crate::html::read_games(games, crate::html::VIEWER_BUDGET_BYTES)?;
    // Seen from the config's first bot; without a config, from the first
    // game's South.
    let first = listed
        .iter()
        .find_map(|(bot, _)| names.iter().position(|n| n == bot))
        .or_else(|| {
            let south = rows.first_south()?;
            names.iter().position(|n| n == south)
        })
        .unwrap_or(0);
    let course = rows.course(names);
    // A league's table on the console is its top: the population is large.
    let top = format
        .as_ref()
        .is_some_and(|c| matches!(c.plan.format(), Format::League(_)))
        .then_some(CONSOLE_TOP_ROWS);
    let matchup = matchup(names, tally, first, course.as_deref(), sprt);
    if let Some(m) = &matchup {
        write_rows(dir, &[match_row(m)])?;
    }
    crate::html::write_report_of(
        dir,
        names,
        &table,
        games,
        &rows,
        matchup.as_ref(),
        &not_started,
        format,
    )?;
    let mut out = console_table(names, &table, &not_started, top, dir);
    if let Some(m) = &matchup {
        out.push_str("\n\n");
        out.push_str(&matchup_text_at(
            m,
            crate::output::table::stdout_terminal_width(),
        ));
    }
    Ok(out)
}

/// Writes `dir`'s `standings.csv`: a row for each standing of `table`
/// (bot `i` is `names[i]`), then a row of 0 games for each bot
/// `not_started`, with why in its note.
///
/// # Errors
/// An I/O error writing the file.
fn write_standing_rows(
    dir: &Path,
    names: &[String],
    table: &[Standing],
    not_started: &[(String, String)],
) -> std::io::Result<()> {
    let mut rows: Vec<StandingRow> = table.iter().map(|s| standing_row(names, s)).collect();
    rows.extend(not_started.iter().map(|(bot, why)| StandingRow {
        rank: table.len() + 1,
        bot: bot.clone(),
        interval: crate::stats::IntervalMethod::NoGames.name().to_string(),
        note: format!("not started: {why}"),
        ..StandingRow::default()
    }));
    write_rows(dir, &rows)
}

/// Writes `dir`'s `los.csv`, the LOS matrix of `ratings`, bots in the
/// order of `table`: row bot over column bot (empty where either played
/// no game in `tally`); past [`LOS_MATRIX_MAX_BOTS`], the top of the
/// standings only.
///
/// # Errors
/// An I/O error writing the file.
fn write_los(
    dir: &Path,
    names: &[String],
    tally: &Tally,
    table: &[Standing],
    ratings: &stats::Ratings,
) -> std::io::Result<()> {
    let order: Vec<usize> = table
        .iter()
        .map(|s| s.bot)
        .take(LOS_MATRIX_MAX_BOTS)
        .collect();
    let mut header: Vec<String> = LOS_COLUMNS.iter().map(|c| c.to_string()).collect();
    header.extend(order.iter().map(|&i| names[i].clone()));
    let matrix: Vec<Vec<String>> = order
        .iter()
        .map(|&i| {
            let mut row = vec![names[i].clone()];
            row.extend(order.iter().map(|&j| {
                if i == j || tally.bot(i).games() == 0 || tally.bot(j).games() == 0 {
                    String::new()
                } else {
                    num(ratings.los(i, j), 4)
                }
            }));
            row
        })
        .collect();
    let header: Vec<&str> = header.iter().map(String::as_str).collect();
    write_atomic(&dir.join(LOS_FILE), &header, &matrix)
}

/// The final table for the console: the standings of `table` with the
/// bots `not_started`, or only the `top` of them when there are more,
/// with a line naming `dir`'s `standings.csv`, which has every bot.
fn console_table(
    names: &[String],
    table: &[Standing],
    not_started: &[(String, String)],
    top: Option<usize>,
    dir: &Path,
) -> String {
    match top {
        Some(top) if table.len() > top => format!(
            "{}\n(the top {top} of {} bots; every bot is in {})",
            render_table(names, &table[..top], not_started),
            table.len(),
            dir.join("standings.csv").display()
        ),
        _ => render_table(names, table, not_started),
    }
}

/// The rows a league's final table shows on the console; `standings.csv`
/// has every bot.
pub const CONSOLE_TOP_ROWS: usize = 20;

/// The summary of a two-bot match as the lines printed under the final
/// table: the SPRT's verdict, LLR and bounds, hypotheses and model (with
/// a test), then games and pairs, W-D-L with the draw ratio, the
/// pentanomial counts, Elo and nElo with their 95% errors, and LOS, all
/// from the first bot's side.
#[must_use]
pub fn matchup_text(m: &Matchup) -> String {
    matchup_text_at(m, None)
}

/// [`matchup_text`] for a terminal `width` columns wide: each line wrapped
/// to it, continuation lines indented ([`crate::output::table::wrap_lines`]);
/// with `None` (a pipe or a file) each line whole.
#[must_use]
pub fn matchup_text_at(m: &Matchup, width: Option<u16>) -> String {
    crate::output::table::wrap_lines(&matchup_lines(m), width)
}

/// The summary's lines, each whole.
fn matchup_lines(m: &Matchup) -> String {
    let [a, b] = &m.bots;
    let games = m.wdl.games();
    let draw_pct = m.draw_pct();
    let mut out = format!(
        "{a} vs {b}: {}, from {a}'s side\n",
        crate::matchup::games_and_pairs(games, m.pentanomial.pairs())
    );
    if let Some(s) = &m.sprt {
        let (lower, upper) = s.bounds();
        let _ = writeln!(out, "  SPRT: {}", verdict_words(s.verdict()));
        let _ = writeln!(
            out,
            "  LLR {} in [{}, {}], [elo0, elo1] = [{}, {}] {}, alpha {}, beta {}",
            num(s.llr(), 2),
            num(lower, 2),
            num(upper, 2),
            s.test.elo0,
            s.test.elo1,
            model_words(s.test.model),
            s.test.alpha,
            s.test.beta
        );
    }
    let _ = writeln!(
        out,
        "  W-D-L {}-{}-{}, draw ratio {}%",
        m.wdl.wins,
        m.wdl.draws,
        m.wdl.losses,
        num(draw_pct, 1)
    );
    let c = m.pentanomial.counts;
    let _ = writeln!(
        out,
        "  pentanomial [{}, {}, {}, {}, {}] (pairs by {a}'s points: 0, 0.5, 1, 1.5, 2)",
        c[0], c[1], c[2], c[3], c[4]
    );
    let e = &m.elo;
    let column = e.los_column();
    let _ = write!(
        out,
        "  Elo {}, LOS {}% (pairwise.csv's {column})",
        crate::matchup::elo_text(e),
        num(100.0 * e.los, 1)
    );
    out
}

/// The row of `match.csv` of `m`.
fn match_row(m: &Matchup) -> MatchRow {
    let games = m.wdl.games();
    let e = &m.elo;
    let opt = |x: Option<f64>| x.map_or_else(String::new, |x| num(x, 1));
    let mut row = MatchRow {
        bot_a: m.bots[0].clone(),
        bot_b: m.bots[1].clone(),
        games,
        wins: m.wdl.wins,
        draws: m.wdl.draws,
        losses: m.wdl.losses,
        draw_pct: num(m.draw_pct(), 1),
        pairs: m.pentanomial.pairs(),
        penta_0: m.pentanomial.counts[0],
        penta_1: m.pentanomial.counts[1],
        penta_2: m.pentanomial.counts[2],
        penta_3: m.pentanomial.counts[3],
        penta_4: m.pentanomial.counts[4],
        elo: opt(e.elo),
        elo_error_95: opt(e.error_95),
        nelo: opt(e.nelo),
        nelo_error_95: opt(e.nelo_error_95),
        los: num(e.los, 4),
        elo_from: if e.pentanomial {
            "pentanomial"
        } else {
            "trinomial"
        }
        .to_string(),
        ..MatchRow::default()
    };
    if let Some(s) = &m.sprt {
        let (lower, upper) = s.bounds();
        row.sprt_model = model_name(s.test.model).to_string();
        row.elo0 = num(s.test.elo0, 2);
        row.elo1 = num(s.test.elo1, 2);
        row.alpha = num(s.test.alpha, 4);
        row.beta = num(s.test.beta, 4);
        row.llr = num(s.llr(), 4);
        row.lower = num(lower, 4);
        row.upper = num(upper, 4);
        row.status = s.verdict().to_string();
    }
    row
}

/// One row of `pairwise.csv` per pair that played, from the first bot's side.
fn pairwise_rows(names: &[String], tally: &Tally) -> Vec<PairwiseRow> {
    let mut rows = Vec::new();
    for (a, b, wdl, penta) in tally.played_pairs() {
        let tri = stats::pair_elo(wdl.wins, wdl.draws, wdl.losses);
        // When every game (or pair) had the same result the sample
        // variance is 0: no error, and no nElo, can be given, and a
        // ±0 would claim certainty where there is least. Those cells
        // stay empty.
        let spread = |x: f64, single: bool| if single { String::new() } else { num(x, 1) };
        let one_result = [wdl.wins, wdl.draws, wdl.losses]
            .iter()
            .filter(|&&c| c > 0)
            .count()
            <= 1;
        let pentanomial = stats::Pentanomial { counts: penta };
        let mut row = PairwiseRow {
            bot_a: names[a].clone(),
            bot_b: names[b].clone(),
            games: wdl.games(),
            wins_a: wdl.wins,
            draws: wdl.draws,
            wins_b: wdl.losses,
            score_pct: num(100.0 * tri.score, 1),
            // A 100% or 0% score has no finite Elo: the ±2000 stand-in
            // would be plotted as real, so the cell stays empty (the
            // LOS is still given).
            elo: if wdl.wins == wdl.games() || wdl.losses == wdl.games() {
                String::new()
            } else {
                num(tri.elo, 1)
            },
            elo_error_95: spread(tri.error_95, one_result),
            los: num(tri.los, 4),
            nelo: spread(tri.nelo, one_result),
            nelo_error_95: spread(tri.nelo_error_95, one_result),
            pairs: pentanomial.pairs(),
            penta_0: penta[0],
            penta_1: penta[1],
            penta_2: penta[2],
            penta_3: penta[3],
            penta_4: penta[4],
            ..PairwiseRow::default()
        };
        if pentanomial.pairs() > 0 {
            let p = stats::penta_elo(&pentanomial);
            let one_kind = penta.iter().filter(|&&c| c > 0).count() <= 1;
            let all_or_nothing =
                penta[0] == pentanomial.pairs() as u32 || penta[4] == pentanomial.pairs() as u32;
            row.penta_elo = if all_or_nothing {
                String::new()
            } else {
                num(p.elo, 1)
            };
            row.penta_elo_error_95 = spread(p.error_95, one_kind);
            row.penta_los = num(p.los, 4);
            row.penta_nelo = spread(p.nelo, one_kind);
            row.penta_nelo_error_95 = spread(p.nelo_error_95, one_kind);
        }
        rows.push(row);
    }
    rows
}

/// The row of `standings.csv` of standing `s`.
fn standing_row(names: &[String], s: &Standing) -> StandingRow {
    StandingRow {
        rank: s.rank,
        bot: names[s.bot].clone(),
        games: s.wdl.games(),
        wins: s.wdl.wins,
        draws: s.wdl.draws,
        losses: s.wdl.losses,
        score: played(s, || num(s.wdl.score(), 1)),
        score_pct: played(s, || num(s.wdl.score_pct(), 1)),
        elo: estimate(s, s.elo, 1),
        elo_lower: estimate(s, s.elo_lower, 1),
        elo_upper: estimate(s, s.elo_upper, 1),
        interval: s.interval.name().to_string(),
        los_next: s.los_next.map_or_else(String::new, |l| num(l, 4)),
        forfeits: s.forfeits,
        group: s.group,
        note: String::new(),
    }
}

/// `cell()` when `s` played a game, else empty: a bot with no games has no
/// score, as a bot left out at the start has none (not 0.0, not 0.0%).
fn played(s: &Standing, cell: impl FnOnce() -> String) -> String {
    if s.wdl.games() == 0 {
        String::new()
    } else {
        cell()
    }
}

/// A rating figure of `s` with `decimals` decimals, or empty when there is
/// no estimate (no games, or a rating at the `±ELO_LIMIT` box).
fn estimate(s: &Standing, x: f64, decimals: usize) -> String {
    if s.interval.has_interval() {
        num(x, decimals)
    } else {
        String::new()
    }
}

/// The standings as a console table laid out for stdout
/// ([`crate::output::table`]): wins, draws and losses in one column, the
/// score as a percentage, Elo and its interval in whole points
/// (`standings.csv` has the decimals).
/// A bot of `not_started` (name, why) gets a row of 0 games marked `-`,
/// named again in a line under the table.
fn render_table(names: &[String], table: &[Standing], not_started: &[(String, String)]) -> String {
    render_table_at(
        names,
        table,
        not_started,
        crate::output::table::stdout_terminal_width(),
    )
}

/// The standings table's columns left out, in this order, when a terminal
/// is too narrow for them all: `LOS next`, `forfeits`, `95% interval`,
/// `W-D-L` (indices into its header).
const DROP_ORDER: [usize; 4] = [7, 8, 6, 3];

/// [`render_table`] laid out for a terminal `width` columns wide, or at
/// its natural width when `width` is `None` (a pipe or a file): no row is
/// broken across lines while columns can be left out
/// ([`DROP_ORDER`]; a line under the table names them).
fn render_table_at(
    names: &[String],
    table: &[Standing],
    not_started: &[(String, String)],
    width: Option<u16>,
) -> String {
    use crate::output::table::{render_fitted, Align};
    let header = [
        "#",
        "bot",
        "games",
        "W-D-L",
        "score",
        "Elo",
        "95% interval",
        "LOS next",
        "forfeits",
    ];
    let mut align = [Align::Right; 9];
    align[1] = Align::Left;
    let rows: Vec<Vec<String>> = table
        .iter()
        .map(|s| {
            vec![
                s.rank.to_string(),
                names[s.bot].clone(),
                s.wdl.games().to_string(),
                format!("{}-{}-{}", s.wdl.wins, s.wdl.draws, s.wdl.losses),
                played(s, || format!("{}%", num(s.wdl.score_pct(), 1))),
                estimate(s, s.elo, 0),
                if s.interval.has_interval() {
                    format!("[{}, {}]", num(s.elo_lower, 0), num(s.elo_upper, 0))
                } else {
                    s.interval.name().to_string()
                },
                s.los_next
                    .map_or_else(String::new, |l| format!("{}%", num(100.0 * l, 1))),
                s.forfeits.to_string(),
            ]
        })
        .chain(not_started.iter().map(|(bot, _)| {
            let mut row = vec!["-".to_string(), bot.clone(), "0".to_string()];
            row.resize(header.len(), String::new());
            row
        }))
        .collect();
    let fitted = render_fitted(&header, &align, &rows, width, &DROP_ORDER);
    let mut out = fitted.text;
    if !fitted.dropped.is_empty() {
        let cols = width.unwrap_or(u16::MAX);
        let note = format!(
            "(left out to fit {cols} columns: {}; standings.csv has them)",
            fitted.dropped.join(", ")
        );
        let options = textwrap::Options::new(usize::from(cols))
            .subsequent_indent(" ")
            .break_words(true)
            .word_splitter(textwrap::WordSplitter::NoHyphenation);
        let _ = write!(out, "\n{}", textwrap::fill(&note, options));
    }
    if !not_started.is_empty() {
        let bots: Vec<&str> = not_started.iter().map(|(bot, _)| bot.as_str()).collect();
        let _ = write!(
            out,
            "\n-  did not start, so not played: {} (the reason is in standings.csv)",
            bots.join(", ")
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::Plan;
    use crate::html::formats_fixtures as fx;
    use crate::standings::GameResult;
    use endodoi::Side;

    /// `pairwise.csv`'s row of a pair that played `winners` (South first
    /// in odd games, as a series does).
    fn row(winners: &[Option<Side>]) -> Vec<String> {
        let row = pairwise_row(winners);
        let mut w = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(Vec::new());
        w.serialize(row).unwrap();
        let bytes = w.into_inner().unwrap();
        let mut r = csv::ReaderBuilder::new()
            .has_headers(false)
            .from_reader(bytes.as_slice());
        let record = r.records().next().unwrap().unwrap();
        record.iter().map(str::to_string).collect()
    }

    /// The `PairwiseRow` of a pair that played `winners`.
    fn pairwise_row(winners: &[Option<Side>]) -> PairwiseRow {
        pairwise_rows(&["a".into(), "b".into()], &Tally::of_pair(winners)).remove(0)
    }

    fn cell(row: &[String], column: &str) -> String {
        let i = crate::output::PAIRWISE_COLUMNS
            .iter()
            .position(|c| *c == column)
            .unwrap();
        row[i].clone()
    }

    /// A knockout stopped in round 1: the series it cut short is not
    /// over, and the one not begun is listed too, unplayed; neither
    /// settles its tie.
    #[test]
    fn an_interrupted_knockout_lists_its_round_cut_short_and_not_begun() {
        let bots = crate::config::test_bots(&["a", "b", "c", "d"]);
        let config =
            crate::config::test_config(&format!("[tournament]\nformat = \"knockout\"\n{bots}"));
        let tmp = tempfile::tempdir().unwrap();
        let dir = RunFolder::create(tmp.path()).unwrap();
        let header = crate::output::GAMES_COLUMNS.join(",");
        std::fs::write(dir.games(), format!("{header}\n")).unwrap();
        let plan = crate::format::Plan::new(&config.format, 4, &[]);
        let round = plan.next_stage().unwrap().series;
        let mut cut = crate::format::test_result(round[0], 1, 1);
        cut.over = false;
        let summary = Summary {
            series: vec![cut],
            results_in_games: false,
            games: 2,
            sprt: Vec::new(),
            not_started: Vec::new(),
            not_played: Vec::new(),
        };
        write_summaries(&config, &dir, &summary).unwrap();
        let mut reader = csv::Reader::from_path(tmp.path().join("series.csv")).unwrap();
        let rows: Vec<SeriesRow> = reader.deserialize().map(Result::unwrap).collect();
        let notes: Vec<(usize, u32, &str, &str)> = rows
            .iter()
            .map(|r| (r.series, r.games, r.winner.as_str(), r.note.as_str()))
            .collect();
        assert_eq!(
            notes,
            [
                (1, 2, "draw", "not over: the run was interrupted"),
                (2, 0, "", "not played: the run was interrupted")
            ]
        );
        assert!(rows.iter().all(|r| r.round == 1 && !r.decided));
        let ties = std::fs::read_to_string(tmp.path().join("knockout.csv")).unwrap();
        assert_eq!(
            ties.lines().count(),
            3,
            "a header and two open ties:\n{ties}"
        );
    }

    /// A run stopped before its first game: `games.csv` has only its
    /// header. The standings still list every bot of the config, with 0
    /// games and no Elo (before: no bot rows at all).
    #[test]
    fn a_run_without_games_lists_every_bot() {
        let config = crate::config::test_config(&crate::config::test_bots(&["zed", "amy", "kim"]));
        let tmp = tempfile::tempdir().unwrap();
        let dir = RunFolder::create(tmp.path()).unwrap();
        let header = crate::output::GAMES_COLUMNS.join(",");
        std::fs::write(dir.games(), format!("{header}\n")).unwrap();
        let summary = Summary {
            series: Vec::new(),
            results_in_games: false,
            games: 0,
            sprt: Vec::new(),
            not_started: Vec::new(),
            not_played: Vec::new(),
        };
        let table = write_summaries(&config, &dir, &summary).unwrap();
        let mut reader = csv::Reader::from_path(tmp.path().join("standings.csv")).unwrap();
        let rows: Vec<StandingRow> = reader.deserialize().map(Result::unwrap).collect();
        let names: Vec<&str> = rows.iter().map(|r| r.bot.as_str()).collect();
        assert_eq!(names, ["zed", "amy", "kim"], "in the config's order");
        for r in &rows {
            assert_eq!(r.games, 0);
            assert_eq!(
                (r.score.as_str(), r.score_pct.as_str()),
                ("", ""),
                "no games, no score"
            );
            assert_eq!(
                (r.elo.as_str(), r.elo_lower.as_str(), r.elo_upper.as_str()),
                ("", "", "")
            );
            assert_eq!(r.interval, "no-games");
        }
        assert!(
            table.contains("zed") && table.contains("no-games"),
            "{table}"
        );
        assert!(!table.contains("0.0%"), "no score shown:\n{table}");
        let html = std::fs::read_to_string(tmp.path().join("report.html")).unwrap();
        assert!(!html.contains("0.0 (0.0%)"), "no score in the report");
        assert_eq!(
            html.matches("no-games").count(),
            3,
            "the report says it too"
        );
    }

    /// Game `game` (from 0) of series 1 between bots 0 and 1, bot 0 South
    /// in the even ones, won by `winner` (`None`: drawn).
    fn alternating_game(game: usize, winner: Option<Side>) -> GameResult {
        let (south, north) = if game.is_multiple_of(2) {
            (0, 1)
        } else {
            (1, 0)
        };
        GameResult {
            series: 1,
            game: game as u32 + 1,
            south,
            north,
            winner,
            forfeit: false,
        }
    }

    /// The standings of one series between `names[0]` (South in odd
    /// games) and `names[1]`, with `winners` game by game.
    fn two_bot_table(names: &[String], winners: &[Option<Side>]) -> Vec<Standing> {
        let mut tally = Tally::new(2);
        for (game, &winner) in winners.iter().enumerate() {
            tally.add(alternating_game(game, winner));
        }
        let options = rating_options(&RatingSettings::default(), 1, names);
        standings(&tally, &options).0
    }

    /// Issue 17's tester: bot names over about 18 characters made the
    /// table wrap mid-row at 80 columns. At a terminal's 80 columns every
    /// row is one line (columns left out and named under the table); off
    /// a terminal every column is there, each row one line.
    #[test]
    fn long_names_never_break_a_row() {
        let names: Vec<String> = ["alphabeta-depth-7-quiescence", "mcts-10000-playouts-uct"]
            .iter()
            .map(|n| n.to_string())
            .collect();
        let table = two_bot_table(&names, &[Some(Side::South), None, Some(Side::South)]);
        let rows = |text: &str| -> Vec<String> {
            text.lines()
                .filter(|l| names.iter().any(|n| l.contains(n.as_str())))
                .map(str::to_string)
                .collect()
        };
        let at_80 = render_table_at(&names, &table, &[], Some(80));
        assert!(at_80.lines().all(|l| l.chars().count() <= 80), "{at_80}");
        assert_eq!(
            at_80.lines().count(),
            4,
            "header, 2 rows, the note:\n{at_80}"
        );
        assert_eq!(
            rows(&at_80).len(),
            2,
            "each name whole on its row:\n{at_80}"
        );
        assert!(
            at_80.ends_with(
                "(left out to fit 80 columns: LOS next, forfeits; standings.csv has them)"
            ),
            "{at_80}"
        );
        assert!(
            at_80.lines().next().unwrap().ends_with("95% interval"),
            "{at_80}"
        );
        let piped = render_table_at(&names, &table, &[], None);
        assert_eq!(piped.lines().count(), 3, "{piped}");
        assert_eq!(rows(&piped).len(), 2, "{piped}");
        assert!(
            piped
                .lines()
                .next()
                .unwrap()
                .ends_with("LOS next  forfeits"),
            "{piped}"
        );
        assert!(
            piped.lines().any(|l| l.chars().count() > 80),
            "full width:\n{piped}"
        );
    }

    /// Issue 17's tester: the note naming the columns left out was wider
    /// than the terminal (72 characters at 60 columns). It wraps to the
    /// width, its continuation lines indented.
    #[test]
    fn the_left_out_note_fits_the_width() {
        let names: Vec<String> = [
            "a-bot-whose-name-is-sixty-four-characters-long-and-then-some-more",
            "mcts",
        ]
        .iter()
        .map(|n| n.to_string())
        .collect();
        let table = two_bot_table(&names, &[Some(Side::South), None]);
        for width in [60u16, 80] {
            let text = render_table_at(&names, &table, &[], Some(width));
            assert!(text.contains("(left out to fit"), "{text}");
            for line in text.lines() {
                assert!(
                    line.chars().count() <= usize::from(width),
                    "{} chars at {width}: {line}\n{text}",
                    line.chars().count()
                );
            }
            let note_at = text.find("(left out").unwrap();
            let note: Vec<&str> = text[note_at..].lines().collect();
            assert!(note.len() >= 2, "wrapped at {width}:\n{text}");
            assert!(note[1..].iter().all(|l| l.starts_with(' ')), "{text}");
            assert!(
                note.last().unwrap().ends_with("standings.csv has them)"),
                "{text}"
            );
        }
    }

    /// Issue 17's tester: at 80 columns the SPRT summary's LLR line (86
    /// characters) and Elo line (103) ran past the terminal. They wrap,
    /// continuation lines indented; off a terminal each line is whole.
    #[test]
    fn the_match_summary_fits_the_width() {
        use crate::matchup::MatchGame;
        let names = vec!["greedy".to_string(), "random".to_string()];
        let mut tally = Tally::new(2);
        let mut course = Vec::new();
        for (game, winner) in [
            Some(Side::South),
            None,
            Some(Side::North),
            Some(Side::South),
        ]
        .into_iter()
        .enumerate()
        {
            let result = alternating_game(game, winner);
            tally.add(result);
            course.push(MatchGame {
                south: result.south,
                winner,
            });
        }
        let test = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
            model: crate::stats::SprtModel::Logistic,
        };
        let m = matchup(&names, &tally, 0, Some(&course), Some(test)).unwrap();
        let whole = matchup_text(&m);
        assert!(whole.lines().any(|l| l.chars().count() > 80), "{whole}");
        let at_80 = matchup_text_at(&m, Some(80));
        assert!(at_80.lines().all(|l| l.chars().count() <= 80), "{at_80}");
        assert!(at_80.lines().count() > whole.lines().count(), "{at_80}");
        for line in at_80.lines().skip(1) {
            assert!(line.starts_with("  "), "{at_80}");
        }
        let llr_at = at_80.lines().position(|l| l.starts_with("  LLR ")).unwrap();
        assert!(
            at_80.lines().nth(llr_at + 1).unwrap().starts_with("    "),
            "{at_80}"
        );
        assert_eq!(matchup_text_at(&m, None), whole);
    }

    #[test]
    fn one_sided_pairs_get_no_error_instead_of_zero() {
        // a wins both games: South in game 1, North in game 2.
        let sweep = row(&[Some(Side::South), Some(Side::North)]);
        // No finite Elo: empty, not the ±2000 stand-in; LOS still given
        // (cutechess's formula: ½ (1 + erf(2 / sqrt(4))) = 0.9214).
        assert_eq!(cell(&sweep, "elo"), "");
        assert_eq!(cell(&sweep, "penta_elo"), "");
        assert_eq!(cell(&sweep, "los"), "0.9214");
        assert_eq!(cell(&sweep, "penta_los"), "0.8413");
        assert_eq!(cell(&sweep, "elo_error_95"), "");
        assert_eq!(cell(&sweep, "nelo_error_95"), "");
        assert_eq!(cell(&sweep, "penta_elo_error_95"), "");
        // A win and a loss: an error can be given.
        let split = row(&[Some(Side::South), Some(Side::South)]);
        assert_ne!(cell(&split, "elo_error_95"), "");
        // Two pairs that both scored 1-1: the pentanomial spread is 0.
        let even = row(&[
            Some(Side::South),
            Some(Side::South),
            Some(Side::South),
            Some(Side::South),
        ]);
        assert_ne!(cell(&even, "elo_error_95"), "");
        assert_eq!(cell(&even, "penta_elo_error_95"), "");
    }

    /// The course of `plan` among the bots `names`, without a league's
    /// trends.
    fn course_of<'a>(plan: &'a Plan, names: &'a [String]) -> FormatCourse<'a> {
        FormatCourse {
            plan,
            names,
            trends: None,
        }
    }

    /// The console's text of `course` around a stand-in Elo table, `ELO
    /// TABLE`, on a pipe, and its [`words`].
    fn around_elo_table(course: &FormatCourse<'_>) -> (String, Vec<Vec<String>>) {
        let whole = with_format_text(course, "ELO TABLE".to_string(), None);
        let lines = words(&whole);
        (whole, lines)
    }

    /// The words of each line of `text` (columns split on spaces).
    fn words(text: &str) -> Vec<Vec<String>> {
        text.lines()
            .map(|l| l.split_whitespace().map(str::to_string).collect())
            .collect()
    }

    #[test]
    fn a_knockout_prints_its_champion_and_each_tie_with_how_it_was_settled() {
        let (names, plan) = (fx::names(4), fx::knockout());
        let course = course_of(&plan, &names);
        let text = knockout_text(&course, None);
        let lines = words(&text);
        assert_eq!(lines[0], ["Knockout", "champion:", "c"], "{text}");
        assert_eq!(
            lines[1],
            ["round", "seed", "bot", "W-D-L", "seed", "bot", "settled"]
        );
        // a beat d; b and c drew and c took the decider (b's side: 1-0-1
        // then 0-0-2); c beat a in the final (a's side 1-0-2).
        assert_eq!(
            lines[2],
            ["semi-finals", "1", "a", "*", "2-0-0", "4", "d", "series"]
        );
        assert_eq!(
            lines[3],
            ["semi-finals", "2", "b", "1-0-3", "3", "c", "*", "decider"]
        );
        assert_eq!(
            lines[4],
            ["final", "1", "a", "1-0-2", "3", "c", "*", "series"]
        );
        assert_eq!(lines.len(), 6, "a note under the table:\n{text}");
        // The console puts it after the Elo table.
        let (whole, _) = around_elo_table(&course);
        assert!(
            whole.starts_with("ELO TABLE\n\nKnockout champion: c"),
            "{whole}"
        );
    }

    #[test]
    fn knockout_csv_has_a_row_per_tie_with_seeds_game_sums_and_the_settling() {
        let (names, plan) = (fx::names(4), fx::knockout());
        let rows = knockout_rows(&course_of(&plan, &names));
        let row = |round,
                   tie,
                   series: &str,
                   a: &str,
                   sa,
                   b: &str,
                   sb,
                   w,
                   d,
                   l,
                   winner: &str,
                   how: &str| KnockoutRow {
            round,
            tie,
            series: series.to_string(),
            bot_a: a.to_string(),
            seed_a: Some(sa),
            bot_b: b.to_string(),
            seed_b: Some(sb),
            wins_a: w,
            draws: d,
            wins_b: l,
            winner: winner.to_string(),
            settled: how.to_string(),
        };
        assert_eq!(
            rows,
            [
                row(1, 1, "1", "a", 1, "d", 4, 2, 0, 0, "a", "series"),
                row(1, 2, "2 3", "b", 2, "c", 3, 1, 0, 3, "c", "decider"),
                row(2, 1, "4", "a", 1, "c", 3, 1, 0, 2, "c", "series"),
            ]
        );
        let tmp = tempfile::tempdir().unwrap();
        write_format_rows(tmp.path(), &course_of(&plan, &names)).unwrap();
        let csv = std::fs::read_to_string(tmp.path().join("knockout.csv")).unwrap();
        assert_eq!(
            csv.lines().nth(2),
            Some("1,2,2 3,b,2,c,3,1,0,3,c,decider"),
            "{csv}"
        );
        assert!(!tmp.path().join("swiss.csv").exists());
    }

    #[test]
    fn a_swiss_prints_its_points_table_before_the_elo_table() {
        let (names, plan) = (fx::names(3), fx::swiss());
        let course = course_of(&plan, &names);
        let (whole, lines) = around_elo_table(&course);
        assert_eq!(
            lines[0],
            [
                "Swiss",
                "standings",
                "after",
                "2",
                "of",
                "2",
                "rounds:",
                "c",
                "wins"
            ],
            "{whole}"
        );
        assert_eq!(
            lines[1],
            ["#", "bot", "points", "Buchholz", "series", "W-D-L", "byes"]
        );
        // c: bye, then beat a; b: drew a, then the bye; a: drew b, lost to c.
        assert_eq!(lines[2], ["1", "c", "2.0", "0.5", "1-0-0", "1"]);
        assert_eq!(lines[3], ["2", "b", "1.5", "0.5", "0-1-0", "1"]);
        assert_eq!(lines[4], ["3", "a", "0.5", "3.5", "0-1-1", "0"]);
        assert!(whole.ends_with("\n\nELO TABLE"), "{whole}");
        let tmp = tempfile::tempdir().unwrap();
        write_format_rows(tmp.path(), &course).unwrap();
        let csv = std::fs::read_to_string(tmp.path().join("swiss.csv")).unwrap();
        assert_eq!(
            csv.lines().collect::<Vec<_>>(),
            [
                "rank,bot,seed,points,buchholz,won,drawn,lost,byes,note",
                "1,c,3,2.0,0.5,1,0,0,1,",
                "2,b,2,1.5,0.5,0,1,0,1,",
                "3,a,1,0.5,3.5,0,1,1,0,",
            ]
        );
        assert!(!tmp.path().join("knockout.csv").exists());
    }

    #[test]
    fn a_gauntlet_prints_each_candidates_score_against_the_pool() {
        let (names, plan) = (fx::names(4), fx::gauntlet());
        let (_, lines) = around_elo_table(&course_of(&plan, &names));
        assert_eq!(lines[0], ["ELO", "TABLE"]);
        assert_eq!(lines[2], ["Candidates", "against", "the", "pool"]);
        // a: c 2-0, d 1-0-1 (a v b left out); b: c 0-0-2, d 1-2-0.
        assert_eq!(lines[4], ["a", "2", "1-1-0", "4", "3-0-1", "75.0%"]);
        assert_eq!(lines[5], ["b", "2", "1-0-1", "5", "1-2-2", "40.0%"]);
        let round_robin = Plan::new(&Format::RoundRobin, 4, &[]);
        let plain = course_of(&round_robin, &names);
        assert_eq!(with_format_text(&plain, "T".to_string(), None), "T");
    }
}
