//! `arena analyse RUN_DIR`: every move of a run's games judged against the
//! endgame tables ([`endodoi_tablebase::judge_game`]), summed per bot into
//! `analysis.csv` and a console table (docs/tablebases.md, "Judging moves").

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use endodoi::{Move, Position};
use endodoi_tablebase::{adjudicate, judge_game, Judged, Tables, Verdict};

use super::{Console, Outcome};
use crate::output::{AnalysisRow, CsvRow, GameAnalysisRow, GameRow};

/// What `arena analyse` was asked.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The run folder, holding `games.csv`.
    pub run: PathBuf,
    /// The endgame tables [default: the run's config's `[board] tablebase`].
    pub tablebase: Option<PathBuf>,
    /// The CSV file to write [default: `analysis.csv` in the run folder].
    pub out: Option<PathBuf>,
}

/// Why a run cannot be analysed; each names the path and the fix.
#[derive(Debug, thiserror::Error)]
pub enum AnalyseError {
    /// The run folder is not a folder with a `games.csv`.
    #[error("{}: no games.csv there: give a run folder, the --out DIR of `arena run CONFIG --out DIR`", path.display())]
    NotARun {
        /// The folder given.
        path: PathBuf,
    },
    /// No tables given and none in the run's config.
    #[error("{}: its config names no endgame tables: give --tablebase DIR, a folder `arena tablebase build` wrote for the run's board", path.display())]
    NoTables {
        /// The run folder.
        path: PathBuf,
    },
    /// `--out` names a file, or one beside which `analysis-games.csv` would
    /// go, that is not a former file of arena analyse.
    #[error("{}: it exists and is not a file of arena analyse (its first line is not analysis.csv's or analysis-games.csv's header): give --out a new file in a folder without it", path.display())]
    NotAnAnalysis {
        /// The file.
        path: PathBuf,
    },
    /// The games.csv lacks a column the replay needs.
    #[error("{}: no column '{column}': the games cannot be replayed (a games.csv of an older arena?)", path.display())]
    Column {
        /// The games.csv.
        path: PathBuf,
        /// The column.
        column: &'static str,
    },
}

/// The columns a game's replay needs.
const NEEDED: [&str; 6] = [
    "holes",
    "seeds",
    "max_laps",
    "max_plies",
    "moves",
    "opening",
];

/// Judges every game of the run, writes `analysis.csv` and prints the
/// per-bot table and a summary line. A game that cannot be replayed is
/// left out with a note.
///
/// # Errors
/// [`AnalyseError`], an unreadable games.csv or tables folder, a config
/// that names tables which cannot be read, or the CSV file not written.
pub fn run(options: &Options, console: &mut Console<'_>) -> anyhow::Result<Outcome> {
    let games_csv = options.run.join(GameRow::FILE);
    if !games_csv.is_file() {
        return Err(AnalyseError::NotARun {
            path: options.run.clone(),
        }
        .into());
    }
    let config = super::run_config(&options.run, options.tablebase.is_some())?;
    let tables =
        super::tables_for(options.tablebase.as_deref(), config.as_ref())?.ok_or_else(|| {
            AnalyseError::NoTables {
                path: options.run.clone(),
            }
        })?;
    let out = options
        .out
        .clone()
        .unwrap_or_else(|| options.run.join(AnalysisRow::FILE));
    let games_out = out.with_file_name(GameAnalysisRow::FILE);
    check_replaceable(&out, AnalysisRow::COLUMNS)?;
    check_replaceable(&games_out, GameAnalysisRow::COLUMNS)?;
    let read = crate::output::read_games(&games_csv)?;
    if let Some(column) = NEEDED.iter().find(|c| !read.has_column(c)) {
        return Err(AnalyseError::Column {
            path: games_csv,
            column,
        }
        .into());
    }
    if let Some(torn) = &read.torn {
        console.note(format_args!("arena: {torn}"));
    }
    let mut tally = Tally::default();
    let mut games = Vec::with_capacity(read.rows.len());
    for row in &read.rows {
        match judge_row(&tables, row) {
            Ok((judged, game)) => {
                tally.add_game(row, &judged);
                tally.add_reach(&game);
                games.push(game);
            }
            Err(why) => {
                tally.skipped += 1;
                console.note(format_args!(
                    "arena: {} series {} game {}: cannot replay it ({why}); left out",
                    games_csv.display(),
                    row.series,
                    row.game
                ));
            }
        }
    }
    let stopped_by_tables = read
        .rows
        .iter()
        .filter(|r| r.termination == "tablebase")
        .count();
    if tally.games > 0 && tally.in_tables == 0 && stopped_by_tables > 0 {
        console.note(format_args!(
            "arena: no move of these games was from a position the tables know exactly: {stopped_by_tables} of them ended by tablebase adjudication the moment they reached the tables; to judge endgames, analyse a run played on past them (adjudicate = \"off\" or \"decided\")"
        ));
    } else if tally.games > 0 && tally.in_tables == 0 {
        let first = &read.rows[0];
        console.note(format_args!(
            "arena: no move of these games was from a position the tables know exactly: the tables are of 2x{} with max_laps {}, up to {} seeds on the board, the first game on 2x{} with max_laps {}; give tables of the run's board, built far enough",
            tables.holes(),
            tables.max_laps(),
            tables.layers().len().saturating_sub(1),
            first.holes,
            first.max_laps
        ));
    }
    let rows = tally.rows();
    crate::output::write_rows_at(&out, &rows)?;
    crate::output::write_rows_at(&games_out, &games)?;
    console.print(table(&rows));
    console.print(tally.summary(&tables));
    console.print(tally.reach_line());
    let report = options.run.join(crate::html::REPORT_FILE);
    if options.out.is_none() && report.is_file() {
        if options.run.join("config.toml").is_file() {
            rewrite_report(options, tally.in_tables > 0, console);
        } else {
            console.note(format_args!(
                "arena: {} not written again, so its viewer does not show the verdicts: the folder has no config.toml, without which the report would lose the run's settings and format",
                report.display()
            ));
        }
    }
    Ok(Outcome::Success)
}

/// Writes the run's `report.html` again (called only when it has one), as
/// `arena rate RUN_DIR` does (the same statistics from the same games and
/// settings), so that its viewer shows the verdicts of the
/// `analysis-games.csv` just written (the note says when none was
/// `judged`). A run the rating refuses keeps its report, with a note.
fn rewrite_report(options: &Options, judged: bool, console: &mut Console<'_>) {
    let rate = super::rate::Options {
        games: vec![options.run.join(GameRow::FILE)],
        tablebase: options.tablebase.clone(),
        ..super::rate::Options::default()
    };
    let mut quiet = Console::new(std::io::sink(), std::io::sink());
    match super::rate::run(&rate, &mut quiet) {
        Ok(_) => console.note(format_args!(
            "arena: {}: written again; its viewer shows the verdicts{}",
            options.run.join(crate::html::REPORT_FILE).display(),
            if judged {
                ""
            } else {
                " (none here: no move was judged)"
            }
        )),
        Err(e) => console.note(format_args!(
            "arena: {} not written again, so its viewer does not show the verdicts: {e:#}",
            options.run.join(crate::html::REPORT_FILE).display()
        )),
    }
}

/// Refuses to write over `path` unless it is missing or a former file of
/// these `columns` (its first line their header: an `analysis.csv` or
/// `analysis-games.csv`), so that `--out` never replaces a run's games.csv
/// or any other file.
///
/// # Errors
/// [`AnalyseError::NotAnAnalysis`].
fn check_replaceable(path: &Path, columns: &[&str]) -> Result<(), AnalyseError> {
    use std::io::BufRead as _;
    let Ok(file) = std::fs::File::open(path) else {
        return Ok(());
    };
    let mut first = String::new();
    let _ = std::io::BufReader::new(file).read_line(&mut first);
    if first.trim_end() == columns.join(",") {
        Ok(())
    } else {
        Err(AnalyseError::NotAnAnalysis {
            path: path.to_path_buf(),
        })
    }
}

/// The verdicts of the game of `row`, replayed from its rules' start, and
/// its row of `analysis-games.csv`.
///
/// # Errors
/// Its rules or moves do not parse, or a move is illegal, in words.
fn judge_row(tables: &Tables, row: &GameRow) -> Result<(Vec<Judged>, GameAnalysisRow), String> {
    let rules = row.rules().map_err(|e| e.to_string())?;
    let holes = crate::replay::parse_moves_of(&[row.moves.as_str()], Some(rules.holes()))
        .map_err(|e| e.to_string())?;
    let moves: Vec<Move> = holes
        .into_iter()
        .map(|h| Move::new(h).ok_or_else(|| format!("hole {h}")))
        .collect::<Result<_, _>>()?;
    let judged = judge_game(tables, &rules.start(), &moves).map_err(|e| e.to_string())?;
    let opening = row.opening.split_whitespace().count();
    let game = game_row(tables, row, &rules.start(), &moves, &judged, opening);
    Ok((judged, game))
}

/// The `analysis-games.csv` row of the game of `row`: its `moves` (legal,
/// as judged) from `start`, their verdicts `judged`, and where the
/// referee's adjudication would have stopped it: the first position at the
/// end of the `opening` plies or later, with the game going on, that the
/// tables know exactly, or in which a side holds more than half of all
/// seeds.
fn game_row(
    tables: &Tables,
    row: &GameRow,
    start: &Position,
    moves: &[Move],
    judged: &[Judged],
    opening: usize,
) -> GameAnalysisRow {
    let (mut table, mut decided) = (None, None);
    let mut pos = start.clone();
    for ply in 0..=moves.len() {
        if ply >= opening && !pos.is_over() {
            if table.is_none() {
                table = adjudicate(tables, &pos).map(|a| (ply, a.margin));
            }
            if decided.is_none() && pos.decided_winner().is_some() {
                decided = Some(ply);
            }
        }
        if let Some(&mv) = moves.get(ply) {
            // Legal: judge_game played every move.
            let _ = pos.play(mv);
        }
    }
    let text = |v: Option<usize>| v.map_or_else(String::new, |v| v.to_string());
    GameAnalysisRow {
        series: row.series,
        game: row.game,
        south: row.south.clone(),
        north: row.north.clone(),
        plies: moves.len() as u32,
        opening: opening.min(moves.len()) as u32,
        first_table_ply: text(table.map(|t| t.0)),
        table_margin: table.map_or_else(String::new, |t| format!("{:+}", t.1)),
        decided_ply: text(decided),
        verdicts: judged
            .iter()
            .map(|j| token(j.verdict))
            .collect::<Vec<_>>()
            .join(" "),
    }
}

/// A verdict as `analysis-games.csv` writes it: `.` outside, `f` forced,
/// `o` optimal, `m3` a mistake of 3 seeds, `m3+` of at least 3, `u`
/// unjudged.
fn token(verdict: Verdict) -> String {
    match verdict {
        Verdict::Outside => ".".into(),
        Verdict::Forced { .. } => "f".into(),
        Verdict::Optimal { .. } => "o".into(),
        Verdict::Mistake { .. } => format!("m{}", verdict.loss()),
        Verdict::BoundedMistake { .. } => format!("m{}+", verdict.loss()),
        Verdict::Unjudged { .. } => "u".into(),
    }
}

/// One bot's counts ([`AnalysisRow`]).
#[derive(Clone, Debug, Default, PartialEq)]
struct BotTally {
    games: u32,
    moves_in_tables: u64,
    forced: u64,
    unjudged: u64,
    optimal: u64,
    mistakes: u64,
    results_lost: u64,
    seeds_lost: u64,
    bounded_mistakes: u64,
    /// Per game that reached the tables: plies played before the first
    /// position known exactly.
    entries: Vec<u32>,
}

/// The counts of all games so far, per bot (by name, in name order).
#[derive(Clone, Debug, Default)]
struct Tally {
    bots: BTreeMap<String, BotTally>,
    games: u64,
    skipped: u64,
    /// The bots' moves (openings left out).
    moves: u64,
    /// Of those, from a position known exactly.
    in_tables: u64,
    /// Of those, judged (optimal or a mistake).
    judged: u64,
    /// Of those, forced (one legal move).
    forced: u64,
    /// Of those, into a position not known exactly.
    unjudged: u64,
    /// How far the tables reach ([`Reach`]).
    reach: Reach,
}

/// How far the tables reach into the games, and the plies each kind of
/// adjudication would have played ([`Tally::add_reach`]).
#[derive(Clone, Debug, Default)]
struct Reach {
    /// Per game that reached them past the opening: the first such ply.
    first_plies: Vec<u32>,
    /// Games a side held more than half of all seeds in, the game going on.
    decided_games: u64,
    /// Of the games that reached the tables, those before `decided` stops them.
    before_decided: u64,
    /// The plies played.
    played: u64,
    /// The plies with `adjudicate = "decided"`: to `decided_ply`.
    decided: u64,
    /// The plies with `"tablebase"`: to `first_table_ply`.
    tablebase: u64,
    /// The plies with both: to the earlier.
    both: u64,
}

impl Tally {
    /// Adds the game of `row` with its verdicts `judged` (one per ply): the
    /// referee's opening plies (`row.opening`) are no bot's moves; the
    /// others are South's and North's by the mover.
    fn add_game(&mut self, row: &GameRow, judged: &[Judged]) {
        self.games += 1;
        let opening = row.opening.split_whitespace().count();
        let entry = judged.iter().find(|j| j.verdict.in_tables()).map(|j| j.ply);
        for (side, name) in [
            (endodoi::Side::South, &row.south),
            (endodoi::Side::North, &row.north),
        ] {
            let bot = self.bots.entry(name.clone()).or_default();
            bot.games += 1;
            bot.entries.extend(entry);
            for j in judged.iter().skip(opening).filter(|j| j.mover == side) {
                self.moves += 1;
                let v = j.verdict;
                bot.moves_in_tables += u64::from(v.in_tables());
                bot.forced += u64::from(matches!(v, Verdict::Forced { .. }));
                bot.unjudged += u64::from(matches!(v, Verdict::Unjudged { .. }));
                bot.optimal += u64::from(matches!(v, Verdict::Optimal { .. }));
                if v.is_mistake() {
                    bot.mistakes += 1;
                    bot.seeds_lost += u64::from(v.loss());
                    bot.results_lost += u64::from(v.loses_result());
                    bot.bounded_mistakes += u64::from(matches!(v, Verdict::BoundedMistake { .. }));
                }
                self.in_tables += u64::from(v.in_tables());
                self.judged += u64::from(v.is_judged());
                self.forced += u64::from(matches!(v, Verdict::Forced { .. }));
                self.unjudged += u64::from(matches!(v, Verdict::Unjudged { .. }));
            }
        }
    }

    /// Adds the reach of the game of `game` (its `analysis-games.csv` row).
    fn add_reach(&mut self, game: &GameAnalysisRow) {
        let ply = |s: &str| s.parse::<u32>().ok();
        let (table, decided) = (ply(&game.first_table_ply), ply(&game.decided_ply));
        let r = &mut self.reach;
        let end_decided = decided.unwrap_or(game.plies);
        let end_table = table.unwrap_or(game.plies);
        r.first_plies.extend(table);
        r.decided_games += u64::from(decided.is_some());
        r.before_decided += u64::from(table.is_some_and(|t| t < end_decided));
        r.played += u64::from(game.plies);
        r.decided += u64::from(end_decided);
        r.tablebase += u64::from(end_table);
        r.both += u64::from(end_decided.min(end_table));
    }

    /// The reach line: how many games the tables reach past the opening
    /// and at which ply, and the plies each adjudication would play.
    fn reach_line(&self) -> String {
        let r = &self.reach;
        let share = |a: u64| {
            if r.played == 0 {
                0.0
            } else {
                100.0 * a as f64 / r.played as f64
            }
        };
        let mut sorted = r.first_plies.clone();
        sorted.sort_unstable();
        let at = match (sorted.first(), median(&sorted), sorted.last()) {
            (Some(lo), Some(mid), Some(hi)) => {
                format!(" at ply {lo} to {hi}, median {mid:.1},")
            }
            _ => String::new(),
        };
        format!(
            "reach: {} of {} games enter the tables past the opening{at} {} of them before a side holds more than half of all seeds (where adjudicate = \"decided\" stops a game; {} games reach it); plies played {}, with adjudicate = \"decided\" {} ({:.1}%), \"tablebase\" {} ({:.1}%), both {} ({:.1}%): the tables save {} plies beside decided ({:.1}% of the plies played)",
            r.first_plies.len(),
            self.games,
            r.before_decided,
            r.decided_games,
            r.played,
            r.decided,
            share(r.decided),
            r.tablebase,
            share(r.tablebase),
            r.both,
            share(r.both),
            r.decided - r.both,
            share(r.decided - r.both),
        )
    }

    /// One row per bot, in name order.
    fn rows(&self) -> Vec<AnalysisRow> {
        self.bots
            .iter()
            .map(|(name, t)| {
                let judged = t.optimal + t.mistakes;
                let ratio = |a: u64, b: u64, places: usize| {
                    if b == 0 {
                        String::new()
                    } else {
                        format!("{:.places$}", a as f64 / b as f64)
                    }
                };
                AnalysisRow {
                    bot: name.clone(),
                    games: t.games,
                    moves_in_tables: t.moves_in_tables,
                    forced: t.forced,
                    unjudged: t.unjudged,
                    judged,
                    optimal: t.optimal,
                    mistakes: t.mistakes,
                    results_lost: t.results_lost,
                    seeds_lost: t.seeds_lost,
                    seeds_lost_per_mistake: ratio(t.seeds_lost, t.mistakes, 2),
                    accuracy: ratio(t.optimal, judged, 4),
                    games_in_tables: t.entries.len() as u32,
                    median_entry_ply: median(&t.entries)
                        .map_or_else(String::new, |m| format!("{m:.1}")),
                    bounded_mistakes: t.bounded_mistakes,
                }
            })
            .collect()
    }

    /// The summary line: games, the bots' moves, their share from positions
    /// known exactly, and how many of those were judged, forced, unjudged.
    fn summary(&self, tables: &Tables) -> String {
        let share = if self.moves == 0 {
            0.0
        } else {
            100.0 * self.in_tables as f64 / self.moves as f64
        };
        let skipped = if self.skipped == 0 {
            String::new()
        } else {
            format!(" ({} left out: cannot be replayed)", self.skipped)
        };
        format!(
            "{} games analysed{skipped}; {} moves by the bots, {} ({share:.1}%) from a position the tables (2x{}, up to {} seeds on the board) know exactly: {} judged, {} forced, {} unjudged",
            self.games,
            self.moves,
            self.in_tables,
            tables.holes(),
            tables.layers().len().saturating_sub(1),
            self.judged,
            self.forced,
            self.unjudged
        )
    }
}

/// The median of `values`: the middle one, or the mean of the middle two;
/// `None` for none.
fn median(values: &[u32]) -> Option<f64> {
    let mut sorted = values.to_vec();
    sorted.sort_unstable();
    let n = sorted.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(f64::from(sorted[n / 2])),
        _ => Some((f64::from(sorted[n / 2 - 1]) + f64::from(sorted[n / 2])) / 2.0),
    }
}

/// The console's table of `rows`: the figures a reader compares bots by
/// (the rest are in the CSV file and the summary line).
fn table(rows: &[AnalysisRow]) -> String {
    use crate::output::table::{render_fitted, stdout_terminal_width, Align};
    let header = [
        "bot",
        "games",
        "judged",
        "optimal",
        "mistakes",
        "seeds lost",
        "results lost",
        "accuracy",
    ];
    let mut align = vec![Align::Right; header.len()];
    align[0] = Align::Left;
    let cells: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            vec![
                r.bot.clone(),
                r.games.to_string(),
                r.judged.to_string(),
                r.optimal.to_string(),
                r.mistakes.to_string(),
                r.seeds_lost.to_string(),
                r.results_lost.to_string(),
                r.accuracy.clone(),
            ]
        })
        .collect();
    // Every column whole (a pipe or a file: at its natural width).
    render_fitted(&header, &align, &cells, stdout_terminal_width(), &[]).text
}

#[cfg(test)]
mod tests {
    use super::*;
    use endodoi::Side;

    fn ply(ply: u32, mover: Side, verdict: Verdict) -> Judged {
        Judged {
            ply,
            mover,
            verdict,
        }
    }

    #[test]
    fn a_game_counts_each_bots_moves_after_the_opening() {
        let row = GameRow {
            south: "a".into(),
            north: "b".into(),
            opening: "1".into(),
            ..GameRow::default()
        };
        let (s, n) = (Side::South, Side::North);
        let judged = [
            // The opening ply: no bot's move, but the game is in the tables.
            ply(0, s, Verdict::Mistake { best: 2, after: 0 }),
            ply(1, n, Verdict::Optimal { best: 0 }),
            ply(2, s, Verdict::Mistake { best: 2, after: -2 }),
            ply(3, n, Verdict::Forced { best: 2 }),
            ply(4, s, Verdict::Mistake { best: 1, after: -1 }),
            ply(5, n, Verdict::Unjudged { best: 1 }),
            ply(6, s, Verdict::Outside),
            ply(7, n, Verdict::Mistake { best: 0, after: -2 }),
        ];
        let mut tally = Tally::default();
        tally.add_game(&row, &judged);
        let rows = tally.rows();
        let a = &rows[0];
        assert_eq!(a.bot, "a");
        assert_eq!(
            (
                a.moves_in_tables,
                a.judged,
                a.optimal,
                a.mistakes,
                a.seeds_lost
            ),
            (2, 2, 0, 2, 6)
        );
        assert_eq!(
            (a.results_lost, a.seeds_lost_per_mistake.as_str()),
            (2, "3.00")
        );
        assert_eq!(
            (a.accuracy.as_str(), a.median_entry_ply.as_str()),
            ("0.0000", "0.0")
        );
        let b = &rows[1];
        assert_eq!(
            (
                b.moves_in_tables,
                b.forced,
                b.unjudged,
                b.judged,
                b.optimal,
                b.mistakes
            ),
            (4, 1, 1, 2, 1, 1)
        );
        // 0 to -2 turns a draw into a loss.
        assert_eq!((b.results_lost, b.accuracy.as_str()), (1, "0.5000"));
        assert_eq!((tally.moves, tally.in_tables, tally.judged), (7, 6, 4));
    }

    #[test]
    fn a_bot_never_in_the_tables_has_empty_shares() {
        let row = GameRow {
            south: "a".into(),
            north: "b".into(),
            ..GameRow::default()
        };
        let mut tally = Tally::default();
        tally.add_game(&row, &[ply(0, Side::South, Verdict::Outside)]);
        let a = &tally.rows()[0];
        assert_eq!((a.games, a.judged, a.games_in_tables), (1, 0, 0));
        assert!(a.accuracy.is_empty() && a.seeds_lost_per_mistake.is_empty());
        assert!(a.median_entry_ply.is_empty());
    }

    #[test]
    fn reach_sums_the_plies_each_adjudication_would_play() {
        let game = |plies: u32, table: &str, decided: &str| GameAnalysisRow {
            plies,
            first_table_ply: table.into(),
            decided_ply: decided.into(),
            ..GameAnalysisRow::default()
        };
        let mut tally = Tally::default();
        // Tables first (10 < 20), decided first (15 < 25), tables only,
        // neither.
        for g in [
            game(30, "10", "20"),
            game(40, "25", "15"),
            game(50, "12", ""),
            game(8, "", ""),
        ] {
            tally.games += 1;
            tally.add_reach(&g);
        }
        let r = &tally.reach;
        assert_eq!(r.first_plies, [10, 25, 12]);
        assert_eq!((r.decided_games, r.before_decided), (2, 2));
        assert_eq!((r.played, r.decided, r.tablebase), (128, 93, 55));
        // Both: 10 + 15 + 12 + 8.
        assert_eq!(r.both, 45);
        let line = tally.reach_line();
        assert!(
            line.starts_with("reach: 3 of 4 games enter the tables past the opening at ply 10 to 25, median 12.0, 2 of them before"),
            "{line}"
        );
        assert!(
            line.ends_with("the tables save 48 plies beside decided (37.5% of the plies played)"),
            "{line}"
        );
    }

    #[test]
    fn the_median_is_the_middle_or_the_mean_of_the_middle_two() {
        assert_eq!(median(&[]), None);
        assert_eq!(median(&[7, 1, 3]), Some(3.0));
        assert_eq!(median(&[4, 1, 3, 8]), Some(3.5));
    }
}
