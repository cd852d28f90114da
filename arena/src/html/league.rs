//! A league's leaderboard (docs/live.md, "A league"): the bots of the
//! standings split into the active ones and those retired (`roster.csv`),
//! each with its rating and interval, games, W-D-L and its trend: the
//! change of its rating over the last [`TREND_ROUNDS`] rounds, from the
//! ratings each round was paired by (`league.csv`'s, or the league's
//! course in memory). The live page sends its top [`LEAGUE_TOP`] rows and
//! answers a search or one bot's record on request; `report.html` shows
//! the top [`LEAGUE_TOP`] of each table.
//!
//! Sizes: everything here is `O(bots + pairings)` to build and
//! `O(bots)` to search; a bot keeps at most [`TREND_POINTS`] ratings, so
//! the memory per bot stays flat from round to round.

use std::collections::{HashMap, VecDeque};
use std::path::Path;

use maud::{html, Markup, PreEscaped};
use serde::Serialize;

use crate::format::LeagueCourse;
use crate::output::{num, LeagueRow};
use crate::standings::{Standing, Wdl};

/// The rows of each table the live page shows at once (and a page of a
/// search), and `report.html` shows in all.
pub const LEAGUE_TOP: usize = 100;

/// The trend is the change of a bot's rating over its last this many
/// rounds paired (its rating when the latest was paired, less its rating
/// when the one this many rounds before it was).
pub const TREND_ROUNDS: usize = 5;

/// The ratings kept per bot for its trend and sparkline.
pub const TREND_POINTS: usize = 10;

/// The series one bot's record lists and the live view keeps of it: its
/// latest (its totals count every game; `games.csv` has every series).
pub const BOT_SERIES_MAX: usize = 50;

pub use crate::output::roster::{read_roster, RosterRow, ROSTER_FILE};

/// The file of a league's pairings, in the run folder.
pub const LEAGUE_FILE: &str = "league.csv";

/// `roster.csv` as [`read_roster`] reads it: a row per bot ever in the
/// league, in the file's order, with the round it joined and the last
/// round it was in once it retired (`bot,joined,retired`).
pub type Roster = Vec<RosterRow>;

/// Why `league.csv` could not be read.
#[derive(Debug, thiserror::Error)]
pub enum LeagueFileError {
    /// The file cannot be opened or read.
    #[error("{0}: {1}")]
    Io(String, std::io::Error),
    /// A line does not parse.
    #[error("{file}: line {line}: {problem}")]
    Bad {
        /// The file.
        file: String,
        /// The line, from 1 (the header is line 1).
        line: u64,
        /// What is wrong, and the fix.
        problem: String,
    },
}

/// The ratings the rounds were paired by, per bot (its latest
/// [`TREND_POINTS`]), and the round of each series.
#[derive(Clone, Debug, Default)]
pub struct Trends {
    points: HashMap<String, VecDeque<(u32, f64)>>,
    /// The round of each series, as runs of series numbers: (first, last,
    /// round), in series order. A round's series are numbered one after
    /// another as it is paired, so this is one run a round, not one entry
    /// a series.
    rounds: Vec<(u64, u64, u32)>,
    /// The last round paired.
    pub last_round: u32,
    /// The rounds taken from a course so far ([`Trends::follow`]).
    followed: u32,
}

impl Trends {
    /// No ratings yet.
    #[must_use]
    pub fn new() -> Trends {
        Trends::default()
    }

    /// Adds bot `bot`'s rating `elo` when round `round` was paired.
    pub fn push(&mut self, bot: &str, round: u32, elo: f64) {
        let points = self.points.entry(bot.to_string()).or_default();
        if points.back().is_some_and(|&(r, _)| r >= round) {
            return;
        }
        points.push_back((round, elo));
        if points.len() > TREND_POINTS {
            points.pop_front();
        }
        self.last_round = self.last_round.max(round);
    }

    /// Adds the pairings of `course`'s last round paired if not yet taken
    /// (bots are indices into `names`); a course with fewer rounds than
    /// were taken starts again. The course keeps its last round only: to
    /// miss none, follow it after each result recorded.
    pub fn follow(&mut self, course: &LeagueCourse, names: &[String]) {
        if course.rounds_paired < self.followed {
            *self = Trends::new();
        }
        if course.rounds_paired == self.followed {
            return;
        }
        for p in &course.pairings {
            let name = |i: usize| names.get(i).map_or("?", String::as_str);
            self.push(name(p.south.bot), p.round, p.south.elo);
            if let Some(n) = &p.north {
                self.push(name(n.bot), p.round, n.elo);
            }
            if let Some(s) = p.series {
                self.set_round(s as u64, p.round);
            }
        }
        self.followed = course.rounds_paired;
    }

    /// The trends of `league.csv` at `path`; `Ok(None)` when there is none.
    ///
    /// # Errors
    /// The file cannot be read or a row does not parse (named by line).
    pub fn read(path: &Path) -> Result<Option<Trends>, LeagueFileError> {
        let file = path.display().to_string();
        let mut reader = match csv::Reader::from_path(path) {
            Ok(r) => r,
            Err(e) => {
                return match e.into_kind() {
                    csv::ErrorKind::Io(io) if io.kind() == std::io::ErrorKind::NotFound => Ok(None),
                    csv::ErrorKind::Io(io) => Err(LeagueFileError::Io(file, io)),
                    other => Err(LeagueFileError::Bad {
                        file,
                        line: 1,
                        problem: format!("{other:?}"),
                    }),
                }
            }
        };
        let mut trends = Trends::new();
        for (i, row) in reader.deserialize::<LeagueRow>().enumerate() {
            let row = row.map_err(|e| LeagueFileError::Bad {
                file: file.clone(),
                line: e.position().map_or(i as u64 + 2, csv::Position::line),
                problem: format!("{e}: the columns are docs/output-files.md's (league.csv)"),
            })?;
            if let Ok(elo) = row.south_elo.parse::<f64>() {
                trends.push(&row.south, row.round, elo);
            }
            if let Ok(elo) = row.north_elo.parse::<f64>() {
                trends.push(&row.north, row.round, elo);
            }
            if let Some(s) = row.series {
                trends.set_round(s as u64, row.round);
            }
            trends.last_round = trends.last_round.max(row.round);
        }
        Ok(Some(trends))
    }

    /// The round series `series` was paired in, if known.
    #[must_use]
    pub fn round_of(&self, series: u64) -> Option<u32> {
        let at = self.rounds.partition_point(|&(_, last, _)| last < series);
        self.rounds
            .get(at)
            .filter(|&&(first, _, _)| first <= series)
            .map(|&(_, _, round)| round)
    }

    /// Notes that series `series` was paired in round `round`: the run of
    /// its round goes on by one, or a new run begins (one out of order
    /// goes to its place, a number given again takes its new round).
    fn set_round(&mut self, series: u64, round: u32) {
        if let Some(last) = self.rounds.last_mut() {
            if last.2 == round && last.1.checked_add(1) == Some(series) {
                last.1 = series;
                return;
            }
        }
        let at = self.rounds.partition_point(|&(_, last, _)| last < series);
        match self.rounds.get(at).copied() {
            Some((first, last, r)) if first <= series => {
                if r != round {
                    // Split the run around the series.
                    let mut runs = Vec::with_capacity(3);
                    if first < series {
                        runs.push((first, series - 1, r));
                    }
                    runs.push((series, series, round));
                    if series < last {
                        runs.push((series + 1, last, r));
                    }
                    self.rounds.splice(at..=at, runs);
                }
            }
            _ => self.rounds.insert(at, (series, series, round)),
        }
    }

    /// Bot `bot`'s ratings, oldest first, and its trend: the change over
    /// its last [`TREND_ROUNDS`] rounds paired (`None` with fewer than two).
    fn of(&self, bot: &str) -> (Vec<f64>, Option<f64>) {
        let Some(points) = self.points.get(bot) else {
            return (Vec::new(), None);
        };
        let elos: Vec<f64> = points.iter().map(|&(_, e)| e).collect();
        let trend = (elos.len() >= 2).then(|| {
            let from = elos.len().saturating_sub(TREND_ROUNDS + 1);
            elos[elos.len() - 1] - elos[from]
        });
        (elos, trend)
    }
}

/// One bot's row of the leaderboard.
#[derive(Clone, Debug, Serialize)]
pub struct BoardRow {
    /// Its rank in its table (active or retired), from 1.
    pub rank: usize,
    /// The bot's name.
    pub bot: String,
    /// Its rating, Elo, and the 95% interval's ends; `None` without games
    /// or an estimate.
    pub elo: Option<f64>,
    /// The interval's lower end, Elo.
    pub lower: Option<f64>,
    /// The interval's upper end, Elo.
    pub upper: Option<f64>,
    /// Games played.
    pub games: u32,
    /// Wins, draws and losses.
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// Losses.
    pub losses: u32,
    /// The change of its pairing rating over its last [`TREND_ROUNDS`]
    /// rounds, Elo.
    pub trend: Option<f64>,
    /// Its latest pairing ratings (at most [`TREND_POINTS`]), oldest first.
    pub spark: Vec<f64>,
    /// The round it joined, from `roster.csv`.
    pub joined: Option<u32>,
    /// The last round it was in, once retired.
    pub retired: Option<u32>,
}

/// The leaderboard: the active bots and the retired ones, each best first.
#[derive(Clone, Debug, Default)]
pub struct LeagueBoard {
    /// The active bots, best first.
    pub active: Vec<BoardRow>,
    /// The retired bots, best first.
    pub retired: Vec<BoardRow>,
    /// The last round paired (0: none known).
    pub rounds: u32,
    /// A problem reading `roster.csv` or `league.csv`, shown on the page.
    pub note: Option<String>,
}

/// One page of a table, for `/league` and the page's start.
#[derive(Serialize)]
pub struct BoardPage<'a> {
    /// `active` or `retired`.
    pub table: &'static str,
    /// Rows of the table in all (before the search).
    pub total: usize,
    /// Rows that match the search.
    pub matched: usize,
    /// The first row's place among those that match, from 0.
    pub offset: usize,
    /// The rows.
    pub rows: Vec<&'a BoardRow>,
}

/// The leaderboard's summary for the page's events: the top of each table.
#[derive(Serialize)]
pub struct BoardSummary<'a> {
    /// The last round paired.
    pub rounds: u32,
    /// The rounds a trend spans.
    pub trend_rounds: usize,
    /// The top of the active table.
    pub active: BoardPage<'a>,
    /// The top of the retired table.
    pub retired: BoardPage<'a>,
    /// A problem with the league's files, if any.
    pub note: Option<&'a str>,
}

impl LeagueBoard {
    /// The board of the standings `table` (bots as indices into `names`),
    /// with `trends` and `roster` (absent: every bot active). A bot of
    /// the roster without a game yet is listed after those with games.
    #[must_use]
    pub fn new(
        names: &[String],
        table: &[Standing],
        trends: &Trends,
        roster: Option<&Roster>,
    ) -> LeagueBoard {
        let mut board = LeagueBoard {
            rounds: trends.last_round,
            ..LeagueBoard::default()
        };
        // Each bot's stint by name (a bot twice in the file: its last row).
        let stints: Stints<'_> = roster
            .into_iter()
            .flatten()
            .map(|r| (r.bot.as_str(), (Some(r.joined), r.retired)))
            .collect();
        let mut listed = std::collections::HashSet::new();
        let rows = table.iter().map(|s| {
            let name = names.get(s.bot).map_or("?", String::as_str);
            listed.insert(name);
            row_of(name, Some(s), trends, &stints)
        });
        let mut all: Vec<BoardRow> = rows.collect();
        for r in roster.into_iter().flatten() {
            if listed.insert(r.bot.as_str()) {
                all.push(row_of(&r.bot, None, trends, &stints));
            }
        }
        for row in all {
            let table = if row.retired.is_some() {
                &mut board.retired
            } else {
                &mut board.active
            };
            let mut row = row;
            row.rank = table.len() + 1;
            table.push(row);
        }
        board
    }

    /// The rows of `table` (`retired`, else active) whose bot's name holds
    /// `find` (any case; empty: every row), from the `offset`-th match, at
    /// most `limit`.
    #[must_use]
    pub fn page(&self, table: &str, find: &str, offset: usize, limit: usize) -> BoardPage<'_> {
        let (name, rows) = if table == "retired" {
            ("retired", &self.retired)
        } else {
            ("active", &self.active)
        };
        let find = find.trim().to_lowercase();
        let matches = |r: &&BoardRow| find.is_empty() || r.bot.to_lowercase().contains(&find);
        let matched = rows.iter().filter(matches).count();
        BoardPage {
            table: name,
            total: rows.len(),
            matched,
            offset,
            rows: rows
                .iter()
                .filter(matches)
                .skip(offset)
                .take(limit)
                .collect(),
        }
    }

    /// The top [`LEAGUE_TOP`] of each table.
    #[must_use]
    pub fn summary(&self) -> BoardSummary<'_> {
        BoardSummary {
            rounds: self.rounds,
            trend_rounds: TREND_ROUNDS,
            active: self.page("active", "", 0, LEAGUE_TOP),
            retired: self.page("retired", "", 0, LEAGUE_TOP),
            note: self.note.as_deref(),
        }
    }

    /// Bot `name`'s row, if it is on the board.
    #[must_use]
    pub fn row(&self, name: &str) -> Option<&BoardRow> {
        self.active
            .iter()
            .chain(&self.retired)
            .find(|r| r.bot == name)
    }
}

/// Each bot of a roster by name: the round it joined and the last round
/// it was in once it retired.
type Stints<'a> = HashMap<&'a str, (Option<u32>, Option<u32>)>;

/// Bot `name`'s row, with its standing `s` (none: no game yet), its
/// trend and its stint, if `stints` has it.
fn row_of(name: &str, s: Option<&Standing>, trends: &Trends, stints: &Stints<'_>) -> BoardRow {
    let (spark, trend) = trends.of(name);
    let (joined, retired) = stints.get(name).copied().unwrap_or((None, None));
    let rated = s.filter(|s| s.interval.has_interval());
    let wdl = s.map(|s| s.wdl).unwrap_or_default();
    BoardRow {
        rank: 0,
        bot: name.to_string(),
        elo: rated.map(|s| s.elo),
        lower: rated.map(|s| s.elo_lower),
        upper: rated.map(|s| s.elo_upper),
        games: wdl.games(),
        wins: wdl.wins,
        draws: wdl.draws,
        losses: wdl.losses,
        trend,
        spark,
        joined,
        retired,
    }
}

/// One series of a bot's record, from its side.
#[derive(Clone, Debug, Serialize)]
pub struct BotSeries {
    /// The file, from 1.
    pub file: usize,
    /// The series number.
    pub series: u64,
    /// The round it was paired in, if known.
    pub round: Option<u32>,
    /// The opponent.
    pub opponent: String,
    /// The bot's wins, draws and losses in it.
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// Losses.
    pub losses: u32,
    /// Its first game's number (the viewer's link).
    pub first_game: u32,
    /// Whether the viewer holds its first game.
    pub viewed: bool,
}

/// One bot's record, for `/bot`.
#[derive(Serialize)]
pub struct BotRecord<'a> {
    /// Its leaderboard row.
    pub row: &'a BoardRow,
    /// Whether it is retired.
    pub retired: bool,
    /// Its series, latest first (at most [`BOT_SERIES_MAX`]).
    pub series: Vec<BotSeries>,
    /// Its series in all.
    pub series_total: usize,
}

/// The W-D-L of `w` as `W-D-L`.
fn wdl_text(w: Wdl) -> String {
    format!("{}-{}-{}", w.wins, w.draws, w.losses)
}

/// A sparkline of `elos` as inline SVG, 60 by 16 pixels: the rating each
/// round was paired by, oldest on the left.
#[must_use]
pub fn sparkline(elos: &[f64]) -> String {
    if elos.len() < 2 {
        return String::new();
    }
    let (lo, hi) = elos
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &e| {
            (l.min(e), h.max(e))
        });
    let span = (hi - lo).max(1.0);
    let step = 58.0 / (elos.len() - 1) as f64;
    let points: Vec<String> = elos
        .iter()
        .enumerate()
        .map(|(i, e)| {
            format!(
                "{:.1},{:.1}",
                1.0 + step * i as f64,
                15.0 - 14.0 * (e - lo) / span
            )
        })
        .collect();
    format!(
        "<svg class=\"spark\" width=\"60\" height=\"16\" viewBox=\"0 0 60 16\" aria-hidden=\"true\"><polyline points=\"{}\" fill=\"none\" stroke=\"currentColor\" stroke-width=\"1.5\"/></svg>",
        points.join(" ")
    )
}

/// The trend as text: `+12.3`, `-4.0`, or empty.
#[must_use]
pub fn trend_text(trend: Option<f64>) -> String {
    trend.map_or_else(String::new, |t| {
        if t >= 0.0 {
            format!("+{}", num(t, 1))
        } else {
            num(t, 1)
        }
    })
}

fn table_rows(rows: &[BoardRow]) -> Markup {
    html! {
        @for r in rows {
            tr data-bot=(r.bot) {
                td { (r.rank) }
                td.name { (r.bot) }
                td { @if let Some(e) = r.elo { (num(e, 1)) } }
                td { @if let (Some(l), Some(u)) = (r.lower, r.upper) { "[" (num(l, 1)) ", " (num(u, 1)) "]" } }
                td { (r.games) }
                td { (wdl_text(Wdl { wins: r.wins, draws: r.draws, losses: r.losses })) }
                td.trend { (trend_text(r.trend)) " " (PreEscaped(sparkline(&r.spark))) }
                @if r.retired.is_some() { td { (r.retired.unwrap_or(0)) } }
            }
        }
    }
}

/// The league's section of `report.html` (`section#league`): the top
/// [`LEAGUE_TOP`] active bots, then the retired ones apart, each with
/// where the rest is.
#[must_use]
pub fn league_section(board: &LeagueBoard) -> Markup {
    let head = |retired: bool| {
        html! { thead { tr {
            th { "#" } th.name { "bot" } th { "Elo" } th { "95% interval" } th { "games" } th { "W-D-L" }
            th { "trend (" (TREND_ROUNDS) " rounds)" }
            @if retired { th { "retired after round" } }
        } } }
    };
    let active = &board.active[..board.active.len().min(LEAGUE_TOP)];
    let retired = &board.retired[..board.retired.len().min(LEAGUE_TOP)];
    html! {
        section #league {
            h2 { "League" }
            p.note {
                (crate::output::counted(board.active.len(), "active bot", "active bots"))
                @if !board.retired.is_empty() { ", " (board.retired.len()) " retired" }
                @if board.rounds > 0 { ", after " (crate::output::counted(board.rounds as usize, "round", "rounds")) " paired" }
                ". Elo and its interval as in standings.csv; the trend is the change of a bot's rating over its last "
                (TREND_ROUNDS) " rounds, from the ratings each round was paired by (league.csv), with a line of its last "
                (TREND_POINTS) "."
            }
            @if let Some(note) = &board.note { p.warning { (note) } }
            div.scroll {
                table.standings.league #league-active {
                    (head(false))
                    tbody { (table_rows(active)) }
                }
            }
            @if board.active.len() > LEAGUE_TOP {
                p.note { "The top " (LEAGUE_TOP) " of " (board.active.len()) " active bots; standings.csv has every bot, and the standings below list them all." }
            }
            @if !board.retired.is_empty() {
                h3 { "Retired" }
                p.note { "Bots that left the league (roster.csv): their games stay counted, and they keep their rating." }
                div.scroll {
                    table.standings.league.retired #league-retired {
                        (head(true))
                        tbody { (table_rows(retired)) }
                    }
                }
                @if board.retired.len() > LEAGUE_TOP {
                    p.note { "The top " (LEAGUE_TOP) " of " (board.retired.len()) " retired bots; standings.csv has every bot." }
                }
            }
        }
    }
}

/// The live page's league section: the tables, filled by the page's
/// script from the `league` part of the state, a search box, and the
/// panel of one bot's record.
#[must_use]
pub fn live_league_section() -> Markup {
    html! {
        section #league {
            h2 { "League" }
            p #league-meta .note {}
            p #league-note .warning hidden {}
            p.find { label { "Find a bot: " input #league-find type="search" placeholder="part of a name" autocomplete="off"; } }
            p #league-count .note {}
            div.scroll {
                table.standings.league #league-active {
                    thead { tr {
                        th { "#" } th.name { "bot" } th { "Elo" } th { "95% interval" } th { "games" } th { "W-D-L" }
                        th { "trend (" (TREND_ROUNDS) " rounds)" }
                    } }
                    tbody {}
                }
            }
            button #league-more type="button" hidden { "Show more" }
            div #league-retired-part hidden {
                h3 { "Retired" }
                p #league-retired-count .note {}
                div.scroll {
                    table.standings.league.retired #league-retired {
                        thead { tr {
                            th { "#" } th.name { "bot" } th { "Elo" } th { "95% interval" } th { "games" } th { "W-D-L" }
                            th { "trend (" (TREND_ROUNDS) " rounds)" } th { "retired after round" }
                        } }
                        tbody {}
                    }
                }
            }
            div #league-bot hidden {}
        }
    }
}

/// Reads `path` again if its length or time of change differ from
/// `seen`'s; returns the new mark, or `None` if unchanged.
#[must_use]
pub fn changed_mark(
    path: &Path,
    seen: Option<(u64, std::time::SystemTime)>,
) -> Option<Option<(u64, std::time::SystemTime)>> {
    let mark = std::fs::metadata(path)
        .ok()
        .map(|m| (m.len(), m.modified().unwrap_or(std::time::UNIX_EPOCH)));
    (mark != seen).then_some(mark)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::IntervalMethod;

    /// Standings of `n` bots `b0`..: bot `i` ranked `i + 1`, Elo `-i`.
    fn table(n: usize) -> (Vec<String>, Vec<Standing>) {
        let names = (0..n).map(|i| format!("b{i}")).collect();
        let table = (0..n)
            .map(|i| Standing {
                rank: i + 1,
                bot: i,
                wdl: Wdl {
                    wins: 1,
                    draws: 0,
                    losses: i as u32,
                },
                forfeits: 0,
                elo: -(i as f64),
                elo_lower: -(i as f64) - 50.0,
                elo_upper: -(i as f64) + 50.0,
                interval: IntervalMethod::Bootstrap,
                los_next: None,
                group: 1,
            })
            .collect();
        (names, table)
    }

    /// The roster of `roster.csv`'s `text`.
    fn roster(text: &str) -> Roster {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(ROSTER_FILE), text).unwrap();
        read_roster(dir.path()).unwrap().unwrap()
    }

    #[test]
    fn a_trend_is_the_change_over_the_last_rounds_and_a_bot_keeps_few_points() {
        let mut t = Trends::new();
        assert_eq!(t.of("x"), (Vec::new(), None));
        t.push("x", 1, 0.0);
        assert_eq!(t.of("x").1, None, "one rating: no trend yet");
        t.push("x", 2, 10.0);
        assert_eq!(t.of("x").1, Some(10.0));
        // A round given twice counts once.
        t.push("x", 2, 99.0);
        for round in 3..=30 {
            t.push("x", round, f64::from(round) * 10.0);
        }
        let (spark, trend) = t.of("x");
        assert_eq!(spark.len(), TREND_POINTS);
        assert_eq!(spark.last(), Some(&300.0));
        assert_eq!(trend, Some(300.0 - (30 - TREND_ROUNDS) as f64 * 10.0));
        assert_eq!(t.last_round, 30);
    }

    /// The rounds of the series are kept as one run a round, and each
    /// series still has its round: in order, out of order, given again.
    #[test]
    fn each_series_has_its_round_from_one_run_a_round() {
        let mut t = Trends::new();
        for round in 1..=100u32 {
            for k in 0..8u64 {
                t.set_round(u64::from(round - 1) * 8 + k + 1, round);
            }
        }
        assert_eq!(t.rounds.len(), 100, "one run a round");
        assert_eq!(t.round_of(1), Some(1));
        assert_eq!(t.round_of(8), Some(1));
        assert_eq!(t.round_of(9), Some(2));
        assert_eq!(t.round_of(800), Some(100));
        assert_eq!(t.round_of(801), None);
        assert_eq!(t.round_of(0), None);
        // Out of order, and a series given again with another round.
        t.set_round(1000, 120);
        t.set_round(900, 110);
        t.set_round(12, 7);
        assert_eq!(
            [900, 1000, 850, 11, 12, 13].map(|s| t.round_of(s)),
            [Some(110), Some(120), None, Some(2), Some(7), Some(2)]
        );
    }

    #[test]
    fn the_board_puts_the_retired_apart_searches_and_pages() {
        let (names, table) = table(250);
        let r = roster("bot,joined,retired\nb1,1,2\nb7,1,5\nnew,9,\n");
        let board = LeagueBoard::new(&names, &table, &Trends::new(), Some(&r));
        assert_eq!(board.active.len(), 249, "248 with games and the new one");
        assert_eq!(board.retired.len(), 2);
        assert_eq!(board.active[0].bot, "b0");
        assert_eq!(board.active[1].bot, "b2", "b1 retired");
        assert_eq!(board.active[1].rank, 2);
        let last = board.active.last().unwrap();
        assert_eq!((last.bot.as_str(), last.games, last.elo), ("new", 0, None));
        assert_eq!(
            board
                .retired
                .iter()
                .map(|r| (r.bot.as_str(), r.rank, r.retired))
                .collect::<Vec<_>>(),
            [("b1", 1, Some(2)), ("b7", 2, Some(5))]
        );
        let s = board.summary();
        assert_eq!((s.active.rows.len(), s.active.total), (LEAGUE_TOP, 249));
        assert_eq!(s.retired.rows.len(), 2);
        // Any case; from an offset; at most a limit.
        let p = board.page("active", " B24", 0, 5);
        assert_eq!(p.matched, 11, "b24 and b240..b249");
        assert_eq!(
            p.rows.iter().map(|r| r.bot.as_str()).collect::<Vec<_>>(),
            ["b24", "b240", "b241", "b242", "b243"]
        );
        let p = board.page("active", "b24", 10, 5);
        assert_eq!(p.rows.len(), 1);
        assert_eq!(board.page("retired", "7", 0, 5).rows[0].bot, "b7");
        assert_eq!(board.row("b7").unwrap().retired, Some(5));
        // Without a roster every bot is active.
        let all = LeagueBoard::new(&names, &table, &Trends::new(), None);
        assert_eq!((all.active.len(), all.retired.len()), (250, 0));
    }

    #[test]
    fn the_reports_section_shows_the_top_says_where_the_rest_is_and_escapes_names() {
        let (mut names, table) = table(150);
        names[3] = "<b>bold</b>".into();
        let mut trends = Trends::new();
        trends.push("b0", 1, 0.0);
        trends.push("b0", 2, 12.5);
        let r = roster("bot,joined,retired\nb5,1,2\n");
        let board = LeagueBoard::new(&names, &table, &trends, Some(&r));
        let html = league_section(&board).into_string();
        let active = &html[..html.find("id=\"league-retired\"").unwrap()];
        assert_eq!(active.matches("<tr data-bot=").count(), LEAGUE_TOP);
        assert!(
            html.contains("The top 100 of 149 active bots; standings.csv"),
            "{html}"
        );
        assert!(!html.contains("<b>bold"), "a name is text");
        assert!(html.contains("&lt;b&gt;bold"), "{html}");
        assert!(html.contains("+12.5 <svg class=\"spark\""), "{html}");
        let retired = &html[html.find("id=\"league-retired\"").unwrap()..];
        assert!(retired.contains("data-bot=\"b5\""), "{retired}");
        assert_eq!(sparkline(&[1.0]), "");
        assert!(sparkline(&[1.0, 3.0, 2.0]).contains("points=\"1.0,15.0 30.0,1.0 59.0,8.0\""));
    }
}
