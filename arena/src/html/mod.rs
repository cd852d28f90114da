//! The shareable report of a run folder: `report.html` and `standings.svg`.
//!
//! `report.html` is one self-contained page: inline CSS, inline JavaScript
//! and inline SVG; it loads nothing, from the network or elsewhere. It holds
//! the standings with the chart of their Elo intervals (the top
//! [`CHART_MAX_BOTS`]), the cross table of series results (past
//! [`CROSS_TABLE_MAX_BOTS`] bots, each bot's record instead: nothing grows as
//! the square of the bots), forfeits by kind, and a game viewer that steps through
//! any game of the tournament ply by ply. `standings.svg` is the chart alone.
//! Both are written with the summary files (by `report::write_ratings`),
//! whole and atomically (temp file and rename).
//!
//! **The viewer's positions come from the rules engine.** Every game shown is
//! replayed here with the `endodoi` crate from its `games.csv` row (rules
//! columns and `moves`, which starts with the opening), and the positions
//! after each ply are embedded in the page as JSON; the page's script only
//! decodes and draws them. A game whose moves do not replay shows the
//! positions up to the failing ply and the engine's reason.
//!
//! **Size.** A position is one token (see [`encode_position`]): a letter,
//! one character per hole, and the captured seeds when they changed; about
//! 19 bytes a ply on a 2x8 board, so about 1 kB per game of 50 plies. The
//! positions of all games together are held to [`VIEWER_BUDGET_BYTES`]:
//! beyond that, games are left out of the viewer (never out of the tables),
//! fairly across series (game 1 of every series first, then game 2, ...),
//! as they are past [`VIEWER_GAMES_MAX`] games whatever their size,
//! and the page says how many and how to replay them (`arena replay`).
//! The report's tables are tallied while `games.csv` streams, and only the
//! viewer's games are kept whole ([`read_games`], [`ReportGames`]), so a
//! report of a large `games.csv` holds far less than the file in memory.
//!
//! **Escaping.** The markup is written with `maud`, which escapes every
//! interpolated string, so a bot name or a forfeit `detail` can never become
//! markup. The JSON for the viewer has every `<` written as `\u003c`, so no
//! string in it can close its `<script>` element, and the script puts names
//! and details into the page as text (`textContent`), never as HTML.

mod chart;
mod formats;
mod games;
mod league;
mod live;
#[cfg(test)]
mod tests;
mod tune;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use endodoi::{Move, Position, Side};
use maud::{html, Markup, PreEscaped, DOCTYPE};
use serde::Serialize;

pub use chart::{llr_svg, standings_svg, CHART_MAX_BOTS, CHART_WIDTH};
#[cfg(test)]
pub(crate) use formats::fixtures as formats_fixtures;
pub use formats::{
    candidate_scores, format_sections, round_name, settled_word, settled_words, swiss_rounds, ties,
    CandidateScore, Entrant, FormatCourse, SwissRound, Tie,
};
use games::SeriesInfo;
pub use games::{read_games, ReportGames};
pub use league::{
    changed_mark, league_section, live_league_section, read_roster, sparkline, trend_text,
    BoardPage, BoardRow, BoardSummary, BotRecord, BotSeries, LeagueBoard, LeagueFileError, Roster,
    Trends, BOT_SERIES_MAX, LEAGUE_FILE, LEAGUE_TOP, ROSTER_FILE, TREND_POINTS, TREND_ROUNDS,
};
pub use live::{live_page, sections, viewer_game, LivePage, Sections};
pub use tune::{tune_page, tune_section, write_tune_report, TuneSummary};

use crate::matchup::Matchup;
use crate::output::rows::RULE_ENDS;
pub use crate::output::GameRow;
use crate::output::{num, write_bytes_atomic, GamesError, RunFolder};
use crate::replay::Recorded;
use crate::standings::{Standing, Wdl};

/// The page's file name in the run folder.
pub const REPORT_FILE: &str = "report.html";

/// The chart's file name in the run folder.
pub const CHART_FILE: &str = "standings.svg";

/// The most bytes of encoded positions the viewer embeds, over all games
/// (8 MiB: about 8,000 games of 50 plies on 2x8). Games past it are left out
/// of the viewer, fairly across series; the tables always count every game.
pub const VIEWER_BUDGET_BYTES: usize = 8 << 20;

/// The most bots for which the report draws its cross table (n x n cells,
/// which grow as the square of the bots). Past it the report shows each
/// bot's own record instead ([`RECORD_ENTRIES_MAX`]), which grows with the
/// pairs that actually met.
pub const CROSS_TABLE_MAX_BOTS: usize = 64;

/// Past [`CROSS_TABLE_MAX_BOTS`], about the most opponents listed over all
/// the bots' records together: each bot lists its strongest opponents, at
/// least [`RECORD_OPPONENTS_MIN`] and at most this divided by the bots, and
/// says how many more it met (`pairwise.csv` has every pair).
pub const RECORD_ENTRIES_MAX: usize = 60_000;

/// The fewest opponents a bot's record lists (when it met that many).
pub const RECORD_OPPONENTS_MIN: usize = 5;

/// The most games the viewer embeds, whatever their size: a game's data
/// costs some 150 bytes besides its positions (which
/// [`VIEWER_BUDGET_BYTES`] bounds), so games without moves would otherwise
/// embed by the hundred thousand.
pub const VIEWER_GAMES_MAX: usize = 5_000;

/// The most series the viewer lists: past it, it lists only the series
/// with a game in the viewer, and a link to another says to replay it.
pub const VIEWER_SERIES_MAX: usize = 5_000;

/// The most forfeited games listed one by one (all are counted).
pub(crate) const FORFEIT_LIST_MAX: usize = 200;

/// The forfeit kinds protocol.md lists, in the order the page shows them;
/// any other kind found in a file follows them.
const FORFEIT_KINDS: [&str; 5] = [
    "illegal-move",
    "protocol-error",
    "timeout",
    "crash",
    "start-failure",
];

const CSS: &str = include_str!("page.css");
const SCRIPT: &str = include_str!("viewer.js");
/// The box that finds a bot in the standings and the records (many bots).
const FIND_SCRIPT: &str = include_str!("find.js");

/// What a row recorded of the game's end, if its seeds are numbers.
fn recorded(row: &GameRow) -> Option<Recorded> {
    Some(Recorded {
        seeds: [row.south_seeds.parse().ok()?, row.north_seeds.parse().ok()?],
        result: row.result.clone(),
        termination: row.termination.clone(),
        detail: row.detail.clone(),
    })
}

/// Why the report cannot be written.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// A games file that cannot be read.
    #[error(transparent)]
    Games(#[from] GamesError),
    /// The endgame tables that check the games cannot be read.
    #[error(transparent)]
    Tables(#[from] crate::output::tablebase::LoadError),
    /// A file that cannot be written.
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

/// The alphabet of hole counts 0 to 61 in [`encode_position`].
const DIGITS: &[u8; 62] = b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

/// One position as a token of the viewer's data, appended to `out`:
///
/// 1. the side to move, `s` or `n`, in upper case (`S`, `N`) once the game
///    is over ([`Position::to_move`] still names the side that would move);
/// 2. the ring in the engine's order ([`Position::ring`]: South's holes 1 to
///    n, then North's holes 1 to n, each from its owner's left), one
///    character per hole: `0`-`9`, `a`-`z`, `A`-`Z` for 0 to 61 seeds, and
///    `(` count `)` for more, e.g. `(250)`;
/// 3. with `captured`, `:` and the seeds captured by South and North,
///    comma separated, e.g. `:12,7`. The viewer writes them for the first
///    position of a game and whenever they change; a token without them has
///    the captured seeds of the token before.
///
/// The 2x8 start is `s4444444444444444:0,0`. Tokens hold no spaces, so a
/// game's positions are its tokens joined by single spaces.
pub fn encode_position(pos: &Position, captured: bool, out: &mut String) {
    let side = match pos.to_move() {
        Side::South => 's',
        Side::North => 'n',
    };
    out.push(if pos.is_over() {
        side.to_ascii_uppercase()
    } else {
        side
    });
    for seeds in pos.ring() {
        match DIGITS.get(seeds as usize) {
            Some(&d) => out.push(char::from(d)),
            None => {
                out.push('(');
                out.push_str(&seeds.to_string());
                out.push(')');
            }
        }
    }
    if captured {
        out.push(':');
        out.push_str(&pos.captured(Side::South).to_string());
        out.push(',');
        out.push_str(&pos.captured(Side::North).to_string());
    }
}

/// A game replayed by the engine for the viewer.
#[derive(Clone, Debug, Default)]
struct Replayed {
    /// The positions from the start to the last ply replayed, as tokens of
    /// [`encode_position`] joined by spaces; empty without rules.
    positions: String,
    /// The moves replayed, own-perspective holes.
    moves: Vec<u8>,
    /// Holes per row.
    holes: usize,
    /// Why the replay stopped early, if it did.
    error: Option<String>,
    /// Whether the end agrees with the row's record; `None` if unknown.
    agrees: Option<bool>,
}

/// Replays `row` with the engine, position by position.
fn replay(row: &GameRow) -> Replayed {
    let rules = match row.rules() {
        Ok(rules) => rules,
        Err(e) => {
            return Replayed {
                error: Some(format!("cannot replay: {e}")),
                ..Replayed::default()
            }
        }
    };
    let mut pos = rules.start();
    let mut out = Replayed {
        holes: rules.holes(),
        ..Replayed::default()
    };
    encode_position(&pos, true, &mut out.positions);
    let moves = match crate::replay::parse_moves(&[row.moves.as_str()]) {
        Ok(moves) => moves,
        Err(e) => {
            out.error = Some(format!("cannot replay the moves: {e}"));
            return out;
        }
    };
    for (i, &hole) in moves.iter().enumerate() {
        let before = [pos.captured(Side::South), pos.captured(Side::North)];
        let mover = pos.to_move();
        let played = Move::new(hole)
            .ok_or_else(|| format!("no hole {hole}"))
            .and_then(|mv| pos.play(mv).map_err(|e| e.to_string()));
        if let Err(e) = played {
            out.error = Some(format!("ply {}: {mover} cannot play {hole}: {e}", i + 1));
            return out;
        }
        out.moves.push(hole);
        out.positions.push(' ');
        let after = [pos.captured(Side::South), pos.captured(Side::North)];
        encode_position(&pos, after != before, &mut out.positions);
    }
    // A `tablebase` end needs the tables to check: the viewer has none, so
    // it does not say (`arena rate` and `arena replay` check such rows).
    out.agrees = recorded(row)
        .filter(|rec| rec.termination != "tablebase")
        .map(|rec| rec.agrees(&pos));
    out
}

/// The viewer's data, embedded in the page as JSON.
#[derive(Serialize)]
struct ViewerData<'a> {
    /// Bot names; games and series refer to them by index.
    bots: &'a [String],
    /// How many games.csv files the report covers.
    files: usize,
    /// Every series, in file and series order (past [`VIEWER_SERIES_MAX`],
    /// those with a game in the viewer).
    series: Vec<SeriesJson>,
    /// The games in the viewer, in series and game order.
    games: Vec<GameJson<'a>>,
    /// Games left out of the viewer for its size budget.
    omitted: usize,
    /// Series left out of `series` (none of their games is in the viewer),
    /// past [`VIEWER_SERIES_MAX`] series, and those a live league's view
    /// did not keep ([`ReportGames::new_bounded`], at least).
    #[serde(skip_serializing_if = "is_zero")]
    series_omitted: usize,
    /// Games in the tournament.
    total: usize,
}

#[derive(Serialize)]
struct SeriesJson {
    /// The file, from 1.
    file: usize,
    series: u64,
    a: usize,
    b: usize,
    wins: u32,
    draws: u32,
    losses: u32,
    /// Games played in the series.
    played: usize,
    /// Indices into `games` of those in the viewer.
    games: Vec<usize>,
}

impl SeriesJson {
    /// Series `s` for the viewer, with no game of it embedded yet.
    fn of(s: &SeriesInfo) -> SeriesJson {
        SeriesJson {
            file: s.file + 1,
            series: s.number,
            a: s.a,
            b: s.b,
            wins: s.wdl.wins,
            draws: s.wdl.draws,
            losses: s.wdl.losses,
            played: s.played,
            games: Vec::new(),
        }
    }
}

#[derive(Serialize)]
struct GameJson<'a> {
    /// Index into `series`.
    series: usize,
    game: u32,
    south: usize,
    north: usize,
    holes: usize,
    /// Opening plies: the first ones of `moves`, played by the referee.
    opening: usize,
    moves: Vec<u8>,
    result: &'a str,
    termination: &'a str,
    detail: &'a str,
    /// The engine's positions, tokens of `encode_position` joined by spaces.
    positions: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    agrees: Option<bool>,
    /// The tables' verdict on each ply, tokens of `analysis-games.csv`'s
    /// `verdicts` joined by spaces, when `arena analyse` judged the game.
    #[serde(skip_serializing_if = "Option::is_none")]
    verdicts: Option<String>,
}

/// The verdicts of `arena analyse` per game of a run (its
/// `analysis-games.csv`), by series and game, for the viewer.
#[derive(Clone, Debug, Default)]
pub struct Verdicts {
    games: std::collections::HashMap<(u64, u32), crate::output::GameAnalysisRow>,
}

impl Verdicts {
    /// The verdicts of the run folder `dir`, from its `analysis-games.csv`,
    /// of the games the viewer of `games` holds (rows streamed, the others
    /// dropped: the viewer's size bounds the memory); none when it has none
    /// or it cannot be read (the report is written all the same, without
    /// them).
    #[must_use]
    pub fn of_run(dir: &Path, games: &ReportGames) -> Verdicts {
        use crate::output::{CsvRow, GameAnalysisRow};
        let path = dir.join(GameAnalysisRow::FILE);
        let Ok(mut reader) = csv::Reader::from_path(&path) else {
            return Verdicts::default();
        };
        let games = reader
            .deserialize::<GameAnalysisRow>()
            .map_while(Result::ok)
            .filter(|row| games.viewed(0, row.series, row.game).is_some())
            .map(|row| ((row.series, row.game), row))
            .collect();
        Verdicts { games }
    }

    /// The verdicts of game `g` (of the first file), if judged: the row of
    /// the same series, game and bots, with one verdict per move replayed.
    fn of_game(&self, g: &GameRow, moves: usize) -> Option<String> {
        let row = self.games.get(&(g.series, g.game))?;
        let fits = g.file == 0
            && row.south == g.south
            && row.north == g.north
            && row.plies as usize == moves
            && row.verdicts.split_whitespace().count() == moves;
        fits.then(|| row.verdicts.clone())
    }
}

/// What the report shows: the standings, from the same fit as
/// `standings.csv`, and the games they were computed from.
#[derive(Clone, Copy, Debug)]
pub struct ReportInput<'a> {
    /// Bot names; `table` refers to them by index.
    pub names: &'a [String],
    /// The standings, best first.
    pub table: &'a [Standing],
    /// Every game, tallied ([`read_games`]).
    pub games: &'a ReportGames,
    /// The games.csv files, named on the page when there is more than one.
    pub files: &'a [String],
    /// A warning shown at the top: the run did not finish, say.
    pub warning: Option<&'a str>,
    /// The summary of a two-bot match (with its SPRT's course), shown
    /// first; `None` for a tournament of more bots.
    pub matchup: Option<&'a Matchup>,
    /// The bots left out since they did not start (name, why): rows of 0
    /// games under the standings.
    pub not_started: &'a [(String, String)],
    /// The course of a knockout, Swiss or gauntlet, whose sections
    /// (bracket, rounds, candidates) come before the standings; `None`
    /// for a round robin or games without a config.
    pub format: Option<FormatCourse<'a>>,
    /// A league's leaderboard (active and retired bots, trends), shown
    /// before the standings; `None` for other formats.
    pub league: Option<&'a LeagueBoard>,
}

/// The report's two files, as text.
#[derive(Clone, Debug)]
pub struct Rendered {
    /// `report.html`.
    pub html: String,
    /// `standings.svg`.
    pub svg: String,
}

/// Builds `report.html` and `standings.svg` from `input`. Pure: the same
/// input always gives the same bytes (no dates, no paths unless several
/// files). Never panics on odd rows: games that do not replay are shown
/// with the engine's reason.
#[must_use]
pub fn render(input: &ReportInput<'_>) -> Rendered {
    render_with(input, &Verdicts::default())
}

/// Builds the report as [`render`] does, its viewer showing the tables'
/// `verdicts` on the games `arena analyse` judged.
#[must_use]
pub fn render_with(input: &ReportInput<'_>, verdicts: &Verdicts) -> Rendered {
    let (names, series) = prepared(input);
    let svg = standings_svg(&names, input.table);
    let json = viewer_json(input, &names, &series, verdicts);
    let page = page(input, &names, &series, &svg, &json);
    Rendered {
        html: page.into_string(),
        svg,
    }
}

/// The viewer's data of `input` as JSON, safe inside a `<script>`.
fn viewer_json(
    input: &ReportInput<'_>,
    names: &[String],
    series: &[SeriesInfo],
    verdicts: &Verdicts,
) -> String {
    let data = viewer_data(input, names, series, verdicts);
    serde_json::to_string(&data)
        .unwrap_or_else(|_| "{}".to_string())
        .replace('<', "\\u003c")
}

/// The bot names of `input` (those of the standings, then any only the
/// games name) and its series with their bots as indices into them.
fn prepared(input: &ReportInput<'_>) -> (Vec<String>, Vec<SeriesInfo>) {
    let mut names: Vec<String> = input.names.to_vec();
    // By name, so that thousands of bots cost no search each (O(bots)).
    let mut index: std::collections::HashMap<String, usize> = names
        .iter()
        .enumerate()
        .rev()
        .map(|(i, n)| (n.clone(), i))
        .collect();
    let at: Vec<usize> = input
        .games
        .bots
        .iter()
        .map(|b| {
            *index.entry(b.clone()).or_insert_with(|| {
                names.push(b.clone());
                names.len() - 1
            })
        })
        .collect();
    let series: Vec<SeriesInfo> = input
        .games
        .series
        .iter()
        .map(|s| SeriesInfo {
            a: at[s.a],
            b: at[s.b],
            ..s.clone()
        })
        .collect();
    (names, series)
}

/// The viewer's data: every series, and the games [`read_games`] chose
/// for the viewer, replayed by the engine.
fn viewer_data<'a>(
    input: &ReportInput<'a>,
    names: &'a [String],
    series: &[SeriesInfo],
    verdicts: &Verdicts,
) -> ViewerData<'a> {
    let mut series_json: Vec<SeriesJson> = series.iter().map(SeriesJson::of).collect();
    let mut index: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for (i, n) in names.iter().enumerate() {
        index.entry(n.as_str()).or_insert(i);
    }
    let bot = |name: &str| index.get(name).copied().unwrap_or(0);
    let viewed = &input.games.viewed;
    let mut games: Vec<GameJson<'a>> = viewed
        .iter()
        .enumerate()
        .filter_map(|(k, g)| {
            let si = input.games.series_of(g.file, g.series)?;
            series_json[si].games.push(k);
            let mut json = game_json(g, si, bot);
            json.verdicts = verdicts.of_game(g, json.moves.len());
            Some(json)
        })
        .collect();
    let mut series_omitted = input.games.unkept;
    if series_json.len() > VIEWER_SERIES_MAX {
        // Only the series with a game in the viewer, renumbered.
        let mut at = vec![0; series_json.len()];
        let mut kept = Vec::new();
        for (i, s) in series_json.into_iter().enumerate() {
            if s.games.is_empty() {
                series_omitted += 1;
            } else {
                at[i] = kept.len();
                kept.push(s);
            }
        }
        for g in &mut games {
            g.series = at[g.series];
        }
        series_json = kept;
    }
    ViewerData {
        series_omitted,
        bots: names,
        files: input.files.len().max(1),
        series: series_json,
        games,
        omitted: input.games.total - viewed.len(),
        total: input.games.total,
    }
}

/// The viewer's data of game `g`, replayed by the engine, in series `si`
/// (an index into the viewer's series), its bots numbered by `bot`.
fn game_json(g: &GameRow, si: usize, bot: impl Fn(&str) -> usize) -> GameJson<'_> {
    let r = replay(g);
    GameJson {
        series: si,
        game: g.game,
        south: bot(&g.south),
        north: bot(&g.north),
        holes: r.holes,
        opening: g.opening.split_whitespace().count().min(r.moves.len()),
        moves: r.moves,
        result: &g.result,
        termination: &g.termination,
        detail: &g.detail,
        positions: r.positions,
        error: r.error,
        agrees: r.agrees,
        verdicts: None,
    }
}

#[allow(clippy::trivially_copy_pass_by_ref)]
fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// The fragment that selects series `s`, game `game`, in the viewer.
fn game_link(s: &SeriesInfo, game: u32, end: bool) -> String {
    let mut link = format!("#series={}&game={game}", s.number);
    if s.file > 0 {
        link = format!("#file={}&{}", s.file + 1, &link[1..]);
    }
    if end {
        link.push_str("&ply=end");
    }
    link
}

/// A series' name on the page: `series 3`, or `file 2, series 3`.
fn series_name(s: &SeriesInfo, files: usize) -> String {
    if files > 1 {
        format!("file {}, series {}", s.file + 1, s.number)
    } else {
        format!("series {}", s.number)
    }
}

/// The whole page.
fn page(
    input: &ReportInput<'_>,
    names: &[String],
    series: &[SeriesInfo],
    svg: &str,
    json: &str,
) -> Markup {
    let games = input.games.total;
    let groups = input
        .table
        .iter()
        .map(|s| s.group)
        .collect::<BTreeSet<_>>()
        .len();
    let boards = &input.games.boards;
    html! {
        (DOCTYPE)
        html lang="en" {
            (page_head("En Dodoi tournament report", &[CSS]))
            body {
                header {
                    h1 { "En Dodoi tournament report" }
                    p.meta {
                        (crate::output::counted(games, "game", "games")) ", "
                        (crate::output::counted(input.table.len(), "bot", "bots")) ", "
                        (series.len()) " series"
                        @for (holes, seeds) in boards {
                            " · 2x" (holes) " board, " (seeds) " seeds per hole"
                        }
                    }
                    @if let Some(warning) = &input.warning {
                        p.warning { (warning) }
                    }
                    @if input.files.len() > 1 {
                        p.meta { "From " (input.files.len()) " files: "
                            @for (i, f) in input.files.iter().enumerate() {
                                @if i > 0 { ", " }
                                "file " (i + 1) " " code { (f) }
                            }
                        }
                    }
                    nav {
                        @if input.matchup.is_some() { a href="#match" { "Match" } " · " }
                        @if let Some(c) = &input.format { (formats::format_links(c)) }
                        @if input.league.is_some() { a href="#league" { "League" } " · " }
                        a href="#standings" { "Standings" } " · "
                        @if input.table.len() > CROSS_TABLE_MAX_BOTS {
                            a href="#records" { "Records" } " · "
                        } @else {
                            a href="#cross" { "Cross table" } " · "
                        }
                        a href="#forfeits" { "How games ended" } " · "
                        a href="#viewer" { "Game viewer" }
                    }
                }
                @if let Some(m) = input.matchup { (match_section(m)) }
                @if let Some(c) = &input.format { (format_sections(c)) }
                @if let Some(board) = input.league { (league_section(board)) }
                (standings_section(input, names, svg, groups))
                (cross_section(input, names, series))
                (forfeits_section(input, names, series))
                (viewer_section())
                script #report-data type="application/json" { (PreEscaped(json)) }
                script { (PreEscaped(SCRIPT)) }
            }
        }
    }
}

/// The summary of a two-bot match, and the chart of its SPRT's LLR.
fn match_section(m: &Matchup) -> Markup {
    let [a, b] = &m.bots;
    let games = m.wdl.games();
    let draw_pct = m.draw_pct();
    let e = &m.elo;
    html! {
        section #match {
            h2 { "Match: " (a) " vs " (b) }
            @if let Some(s) = &m.sprt {
                @let (lower, upper) = s.bounds();
                p #sprt-verdict .verdict { "SPRT: " (crate::matchup::verdict_words(s.verdict())) }
                figure.chart #llr-chart {
                    (PreEscaped(llr_svg(&s.pairs.iter().map(|p| (p.games, p.llr)).collect::<Vec<_>>(), (lower, upper))))
                    figcaption {
                        "The log-likelihood ratio of H1 over H0 after each game pair, recomputed from games.csv, against its bounds: the test stops when it reaches one."
                    }
                }
            }
            table.match {
                tbody {
                    @if let Some(s) = &m.sprt {
                        @let (lower, upper) = s.bounds();
                        tr { th.name { "LLR" } td.name { (num(s.llr(), 2)) " in [" (num(lower, 2)) ", " (num(upper, 2)) "]" } }
                        tr { th.name { "hypotheses" } td.name {
                            "[elo0, elo1] = [" (s.test.elo0) ", " (s.test.elo1) "] " (crate::matchup::model_words(s.test.model))
                            ", alpha " (s.test.alpha) ", beta " (s.test.beta)
                        } }
                    }
                    tr { th.name { "games" } td.name { (crate::matchup::games_and_pairs(games, m.pentanomial.pairs())) } }
                    tr { th.name { "W-D-L" } td.name { (m.wdl.wins) "-" (m.wdl.draws) "-" (m.wdl.losses) " for " (a) ", draw ratio " (num(draw_pct, 1)) "%" } }
                    tr { th.name { "pentanomial" } td.name {
                        "[" @for (i, c) in m.pentanomial.counts.iter().enumerate() { @if i > 0 { ", " } (c) } "]"
                        " (pairs by " (a) "'s points: 0, 0.5, 1, 1.5, 2)"
                    } }
                    tr { th.name { "Elo" } td.name {
                        (crate::matchup::elo_text(e))
                    } }
                    tr { th.name { "LOS" } td.name { (num(100.0 * e.los, 1)) "% that " (a) " is the stronger (pairwise.csv's " (e.los_column()) ")" } }
                }
            }
        }
    }
}

/// How the standings' intervals were measured, for the chart's caption
/// (after "from one Bradley–Terry fit over all games"): the bootstrap, the
/// fit's curvature, or both, as the `interval` column says of each bot.
fn interval_words(table: &[Standing]) -> &'static str {
    use crate::stats::IntervalMethod::{Bootstrap, Curvature};
    let bootstrap = table.iter().any(|s| s.interval == Bootstrap);
    let curvature = table.iter().any(|s| s.interval == Curvature);
    match (bootstrap, curvature) {
        (true, false) => " and a parametric bootstrap",
        (false, true) => {
            " and the fit's curvature (the bootstrap degenerates on these games: a bot won or lost every game, or every game was drawn)"
        }
        (true, true) => {
            " and a parametric bootstrap, or the fit's curvature where the interval says (curvature)"
        }
        (false, false) => ", with no interval measured (see the interval column)",
    }
}

fn standings_section(
    input: &ReportInput<'_>,
    names: &[String],
    svg: &str,
    groups: usize,
) -> Markup {
    html! {
        section #standings {
            h2 { "Standings" }
            figure.chart {
                (PreEscaped(svg))
                figcaption {
                    "Elo ratings (logistic scale, mean 0 in each group unless anchored) with their 95% intervals, from one Bradley–Terry fit over all games"
                    (interval_words(input.table))
                    ", as in standings.csv."
                    @if input.table.len() > CHART_MAX_BOTS {
                        " The chart shows the top " (CHART_MAX_BOTS) " of " (input.table.len()) " bots; the table below has them all."
                    }
                    @if groups > 1 {
                        " Colours mark groups: bots in different groups never met, even through others, so their ratings are not comparable."
                    }
                }
            }
            p.note.narrow-hint { "The table scrolls sideways: Elo, its interval, LOS and forfeits are to the right." }
            @if input.table.len() > CROSS_TABLE_MAX_BOTS {
                p.find { label { "Find a bot (in the table and the records): " input #find-bot type="search" placeholder="part of a name"; } }
            }
            table.standings {
                thead { tr {
                    th { "#" } th.name { "bot" } th { "games" } th { "W" } th { "D" } th { "L" }
                    th { "score" } th { "Elo" } th { "95% interval" } th { "LOS next" } th { "forfeits" }
                    @if groups > 1 { th { "group" } }
                } }
                tbody {
                    @for s in input.table {
                        tr {
                            td { (s.rank) }
                            td.name { (names.get(s.bot).map_or("?", String::as_str)) }
                            td { (s.wdl.games()) }
                            td { (s.wdl.wins) } td { (s.wdl.draws) } td { (s.wdl.losses) }
                            td { @if s.wdl.games() > 0 { (num(s.wdl.score(), 1)) " (" (num(s.wdl.score_pct(), 1)) "%)" } }
                            @if s.interval.has_interval() {
                                td { (num(s.elo, 1)) }
                                td { "[" (num(s.elo_lower, 1)) ", " (num(s.elo_upper, 1)) "]"
                                    @if s.interval == crate::stats::IntervalMethod::Curvature { " (curvature)" } }
                            } @else {
                                td {} td { (s.interval.name()) }
                            }
                            td { @if let Some(l) = s.los_next { (num(100.0 * l, 1)) "%" } }
                            td { (s.forfeits) }
                            @if groups > 1 { td { (s.group) } }
                        }
                    }
                    @for (bot, why) in input.not_started {
                        tr.not-started {
                            td { "-" }
                            td.name { (bot) }
                            td { "0" }
                            td colspan=(if groups > 1 { 9 } else { 8 }) .note { "not started: " (why) }
                        }
                    }
                }
            }
        }
    }
}

/// The cross table (`section#cross`), or past [`CROSS_TABLE_MAX_BOTS`]
/// each bot's record (`section#records`).
fn cross_section(input: &ReportInput<'_>, names: &[String], series: &[SeriesInfo]) -> Markup {
    if input.table.len() > CROSS_TABLE_MAX_BOTS {
        records_section(input, names, series)
    } else {
        cross_table(input, names, series)
    }
}

fn cross_table(input: &ReportInput<'_>, names: &[String], series: &[SeriesInfo]) -> Markup {
    let order: Vec<usize> = input.table.iter().map(|s| s.bot).collect();
    let mut by_pair: BTreeMap<(usize, usize), Vec<&SeriesInfo>> = BTreeMap::new();
    for s in series {
        by_pair.entry((s.a, s.b)).or_default().push(s);
        if s.a != s.b {
            by_pair.entry((s.b, s.a)).or_default().push(s);
        }
    }
    let name = |i: usize| names.get(i).map_or("?", String::as_str);
    let files = input.files.len().max(1);
    html! {
        section #cross {
            h2 { "Cross table" }
            p.note { "Each cell holds the row bot's series against the column bot: its wins, draws and losses (W-D-L). A cell opens the series in the game viewer." }
            div.scroll {
                table.cross {
                    thead { tr {
                        th.name { }
                        @for &j in &order { th.colname { (name(j)) } }
                    } }
                    tbody {
                        @for &i in &order {
                            tr {
                                th.name { (name(i)) }
                                @for &j in &order {
                                    @if i == j {
                                        td.self { "—" }
                                    } @else {
                                        td {
                                            @for s in by_pair.get(&(i, j)).map_or(&[][..], Vec::as_slice) {
                                                @let w = if s.a == i { s.wdl } else { Wdl { wins: s.wdl.losses, draws: s.wdl.draws, losses: s.wdl.wins } };
                                                @let class = match w.wins.cmp(&w.losses) {
                                                    std::cmp::Ordering::Greater => "series win",
                                                    std::cmp::Ordering::Less => "series loss",
                                                    std::cmp::Ordering::Equal => "series even",
                                                };
                                                a class=(class) href=(game_link(s, s.first_game, false))
                                                    title={ (series_name(s, files)) ": " (name(i)) " " (w.wins) " wins, " (w.draws) " draws, " (w.losses) " losses against " (name(j)) } {
                                                    (w.wins) "-" (w.draws) "-" (w.losses)
                                                }
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// One opponent in a bot's record: the opponent, the bot's results against
/// it over all their series, and their first series.
struct Met<'a> {
    opponent: usize,
    wdl: Wdl,
    first: &'a SeriesInfo,
}

/// Each bot's own record, in place of the cross table past
/// [`CROSS_TABLE_MAX_BOTS`]: per bot (in standings order) its opponents,
/// strongest first, each with the bot's W-D-L against it and a link to
/// their first series in the viewer. Grows with the pairs that met, held to
/// about [`RECORD_ENTRIES_MAX`] entries in all.
fn records_section(input: &ReportInput<'_>, names: &[String], series: &[SeriesInfo]) -> Markup {
    let order: Vec<usize> = input.table.iter().map(|s| s.bot).collect();
    let mut rank = vec![usize::MAX; names.len()];
    for (r, &b) in order.iter().enumerate() {
        if let Some(x) = rank.get_mut(b) {
            *x = r;
        }
    }
    let mut met: Vec<BTreeMap<usize, Met<'_>>> =
        (0..names.len()).map(|_| BTreeMap::new()).collect();
    for s in series {
        if s.a == s.b {
            continue;
        }
        for (me, them, w) in [(s.a, s.b, s.wdl), (s.b, s.a, flipped(s.wdl))] {
            let Some(mine) = met.get_mut(me) else {
                continue;
            };
            let m = mine.entry(them).or_insert(Met {
                opponent: them,
                wdl: Wdl::default(),
                first: s,
            });
            m.wdl.wins += w.wins;
            m.wdl.draws += w.draws;
            m.wdl.losses += w.losses;
        }
    }
    let per_bot = (RECORD_ENTRIES_MAX / order.len().max(1)).max(RECORD_OPPONENTS_MIN);
    let name = |i: usize| names.get(i).map_or("?", String::as_str);
    html! {
        section #records {
            h2 { "Each bot's record" }
            p.note {
                "With " (order.len()) " bots the cross table is left out (it has a cell for every two bots, so it is drawn up to "
                (CROSS_TABLE_MAX_BOTS) " bots only). Instead, each bot's record: the opponents it met, strongest first, "
                "each with the bot's wins, draws and losses against it over all their series (W-D-L), a link opening their first series in the game viewer. "
                "A record lists at most " (per_bot) " opponents; pairwise.csv has every pair."
            }
            @for s in input.table {
                @let list: Vec<&Met<'_>> = {
                    let mut l: Vec<&Met<'_>> = met.get(s.bot).map(|m| m.values().collect()).unwrap_or_default();
                    l.sort_by_key(|m| (rank.get(m.opponent).copied().unwrap_or(usize::MAX), m.opponent));
                    l
                };
                details.record {
                    summary {
                        (s.rank) ". " span.bot { (name(s.bot)) } ": " (s.wdl.wins) "-" (s.wdl.draws) "-" (s.wdl.losses) " against "
                        (crate::output::counted(list.len(), "opponent", "opponents"))
                    }
                    p {
                        @for m in list.iter().take(per_bot) {
                            a href=(game_link(m.first, m.first.first_game, false)) {
                                (name(m.opponent)) " " (m.wdl.wins) "-" (m.wdl.draws) "-" (m.wdl.losses)
                            }
                            " "
                        }
                        @if list.len() > per_bot {
                            span.note { "and " (list.len() - per_bot) " more (pairwise.csv)" }
                        }
                    }
                }
            }
            script { (PreEscaped(FIND_SCRIPT)) }
        }
    }
}

/// `w` from the other bot's side.
fn flipped(w: Wdl) -> Wdl {
    Wdl {
        wins: w.losses,
        draws: w.draws,
        losses: w.wins,
    }
}

fn forfeits_section(input: &ReportInput<'_>, names: &[String], series: &[SeriesInfo]) -> Markup {
    let g = input.games;
    let (ends, counts, forfeits) = (&g.ends, &g.faults, g.forfeits);
    let kinds: BTreeSet<&str> = counts.keys().map(|(_, k)| k.as_str()).collect();
    let mut kinds: Vec<&str> = kinds.into_iter().collect();
    let rank = |k: &str| {
        FORFEIT_KINDS
            .iter()
            .position(|f| *f == k)
            .unwrap_or(FORFEIT_KINDS.len())
    };
    kinds.sort_by(|x, y| rank(x).cmp(&rank(y)).then(x.cmp(y)));
    // Every bot of the standings, in their order, then any other loser.
    let mut bots: Vec<String> = input
        .table
        .iter()
        .filter_map(|s| names.get(s.bot).cloned())
        .collect();
    for (b, _) in counts.keys() {
        if !bots.iter().any(|x| x == b) {
            bots.push(b.clone());
        }
    }
    // With many bots, only those at fault: the rest would be rows of zeros.
    if input.table.len() > CROSS_TABLE_MAX_BOTS {
        let at_fault: BTreeSet<&String> = counts.keys().map(|(b, _)| b).collect();
        bots.retain(|b| at_fault.contains(b));
    }
    let listed: Vec<_> = g
        .listed
        .iter()
        .map(|(&(file, number, game), f)| (g.series_of(file, number).map(|i| &series[i]), game, f))
        .collect();
    let files = input.files.len().max(1);
    html! {
        section #forfeits {
            h2 { "How games ended" }
            table.ends {
                thead { tr { th.name { "termination" } th { "games" } } }
                tbody {
                    @for (end, n) in ends {
                        tr { td.name { (end) @if !RULE_ENDS.contains(&end.as_str()) { " (forfeit)" } } td { (n) } }
                    }
                }
            }
            h3 { "Forfeits by kind" }
            @if forfeits == 0 {
                p #no-forfeits { "No forfeits: every game ended by the rules." }
            } @else {
                p.note { "Games lost by a fault, by the bot at fault and the kind of fault (the termination column of games.csv; protocol.md lists the kinds)." }
                table.forfeits {
                    thead { tr {
                        th.name { "bot" }
                        @for k in &kinds { th { (k) } }
                        th { "total" }
                    } }
                    tbody {
                        @for b in &bots {
                            @let row: Vec<u32> = kinds.iter().map(|k| counts.get(&(b.clone(), (*k).to_string())).copied().unwrap_or(0)).collect();
                            tr {
                                td.name { (b) }
                                @for c in &row { td { @if *c > 0 { (c) } @else { span.zero { "0" } } } }
                                td { (row.iter().sum::<u32>()) }
                            }
                        }
                    }
                }
                h3 { "Forfeited games" }
                @if forfeits > listed.len() {
                    p.note { "The first " (listed.len()) " of " (forfeits) " forfeits; games.csv has them all." }
                }
                table.forfeit-list {
                    thead { tr { th.name { "game" } th.name { "bot at fault" } th.name { "kind" } th.name { "detail" } } }
                    tbody {
                        @for (s, game, f) in &listed {
                            tr {
                                td.name {
                                    @if let Some(s) = s {
                                        a href=(game_link(s, *game, true)) { (series_name(s, files)) ", game " (game) }
                                    }
                                }
                                td.name { (f.loser) }
                                td.name { (f.kind) }
                                td.name.detail { (f.detail) }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// A page's `<head>`: UTF-8, the viewport of a phone's width, `title`
/// (escaped), and the style sheets `styles` in order, as one `<style>`.
fn page_head(title: &str, styles: &[&str]) -> Markup {
    html! {
        head {
            meta charset="utf-8";
            meta name="viewport" content="width=device-width, initial-scale=1";
            title { (title) }
            style { @for css in styles { (PreEscaped(css)) } }
        }
    }
}

fn viewer_section() -> Markup {
    html! {
        section #viewer {
            h2 { "Game viewer" }
            p.note {
                "Positions as the arena's rules engine (the endodoi crate) replayed them from games.csv. "
                kbd { "←" } " " kbd { "→" } " step a ply, " kbd { "Home" } " " kbd { "End" }
                " jump to the start or the end; the address bar names the game and ply shown."
            }
            div.controls {
                label { "Series " select #pick-series {} }
                label { "Game " select #pick-game {} }
            }
            p #game-line {}
            div.steps {
                button #first type="button" title="the start (Home)" { "|◀" }
                button #prev type="button" title="the ply before (←)" { "◀" }
                input #ply-slider type="range" min="0" max="0" value="0" aria-label="ply";
                button #next type="button" title="the next ply (→)" { "▶" }
                button #last type="button" title="the end (End)" { "▶|" }
                span #ply-label {}
            }
            div.board-wrap { div #board.board {} }
            p #status {}
            p.postext { "Position (the engine's text format): " code #pos-text {} }
            div #moves.moves {}
            p #verdict-note.note {}
            p #viewer-note.note {}
        }
    }
}

/// Writes `report.html` and `standings.svg` into `dir`, from the standings
/// `table` (bot `i` is `names[i]`) and the games of `files`, each file
/// whole and atomically.
///
/// # Errors
/// A games file that cannot be read (see [`read_games`]), or an I/O error
/// writing a file; a file not written is left as it was.
pub fn write_report(
    dir: &Path,
    names: &[String],
    table: &[Standing],
    files: &[impl AsRef<Path>],
) -> Result<(), ReportError> {
    let games = read_games(files, VIEWER_BUDGET_BYTES)?;
    write_report_of(dir, names, table, files, &games, None, &[], None)
}

/// Writes `report.html` and `standings.svg` as [`write_report`] does, from
/// `games` already read from `files` (with [`read_games`]), with the
/// summary of a two-bot match `matchup` if there is one, and a row for each
/// bot of `not_started` (name, why), and the sections of a knockout's,
/// Swiss's or gauntlet's `format` course.
///
/// # Errors
/// An I/O error writing a file; a file not written is left as it was.
#[allow(clippy::too_many_arguments)]
pub fn write_report_of(
    dir: &Path,
    names: &[String],
    table: &[Standing],
    files: &[impl AsRef<Path>],
    games: &ReportGames,
    matchup: Option<&Matchup>,
    not_started: &[(String, String)],
    format: Option<FormatCourse<'_>>,
) -> Result<(), ReportError> {
    let file_names: Vec<String> = files
        .iter()
        .map(|f| f.as_ref().display().to_string())
        .collect();
    // A run folder without its `finished` marker was interrupted.
    let folder = RunFolder::at(dir);
    let interrupted = folder.is_run() && !folder.is_finished();
    let board = format.and_then(|c| league_board_of(dir, names, table, &c));
    // The verdicts of `arena analyse` are of the run folder's own games.
    let verdicts = if files.len() == 1 {
        Verdicts::of_run(dir, games)
    } else {
        Verdicts::default()
    };
    let rendered = render_with(
        &ReportInput {
        names,
        table,
        games,
        files: &file_names,
        matchup,
        not_started,
        format,
        league: board.as_ref(),
        warning: interrupted.then_some(
            "This run did not finish: the figures cover only the games played so far (arena run --resume DIR plays the rest).",
        ),
    },
        &verdicts,
    );
    write_bytes_atomic(&dir.join(CHART_FILE), rendered.svg.as_bytes())?;
    write_bytes_atomic(&dir.join(REPORT_FILE), rendered.html.as_bytes())?;
    Ok(())
}

/// The leaderboard of a league's report: the standings `table`, with the
/// trends of the league's pairings (`course`'s, taken as its plan was
/// replayed, or else the folder's `league.csv`'s) and the folder's
/// `roster.csv`; `None` for other formats. A file that does not read is
/// named in the board's note, not an error: the report is written all the
/// same.
fn league_board_of(
    dir: &Path,
    names: &[String],
    table: &[Standing],
    course: &FormatCourse<'_>,
) -> Option<LeagueBoard> {
    course.plan.league()?;
    let mut notes = Vec::new();
    let mut read = Trends::new();
    let trends = match course.trends {
        Some(t) => t,
        None => {
            match Trends::read(&dir.join(LEAGUE_FILE)) {
                Ok(Some(t)) => read = t,
                Ok(None) => {}
                Err(e) => notes.push(e.to_string()),
            }
            &read
        }
    };
    let roster = read_roster(dir).unwrap_or_else(|e| {
        notes.push(format!("{e}; every bot is shown as active"));
        None
    });
    let mut board = LeagueBoard::new(names, table, trends, roster.as_ref());
    board.note = (!notes.is_empty()).then(|| notes.join("; "));
    Some(board)
}
