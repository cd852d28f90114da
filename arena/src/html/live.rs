//! The live page of `arena run --serve` and `arena serve`: the report's own
//! sections (the same maud functions, so the tables are the report's), its
//! style and its game viewer, with the games in progress drawn as boards
//! and a script that follows the server's events (`live.js`). The page is
//! whole at every moment: a late visitor sees the state at once, then the
//! updates. As in `report.html`, every string from a bot or a file is
//! escaped by maud or put into the page as text by the scripts.

use maud::{html, PreEscaped, DOCTYPE};
use serde::Serialize;

use super::{
    cross_section, forfeits_section, game_json, match_section, page_head, prepared,
    standings_section, standings_svg, viewer_json, viewer_section, GameJson, ReportInput,
    SeriesInfo, SeriesJson, CSS, SCRIPT,
};

/// The live page's own style, after the report's.
const LIVE_CSS: &str = include_str!("live.css");
/// The live page's script: the server's events into the page.
const LIVE_SCRIPT: &str = include_str!("live.js");

/// The report's sections as HTML fragments, as `report.html` has them:
/// the server sends them to the live page as they change.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Sections {
    /// `section#match` of a two-bot match (with its LLR chart); empty for
    /// a tournament of more bots.
    #[serde(rename = "match")]
    pub matchup: String,
    /// `section#standings`: the chart and the table.
    pub standings: String,
    /// `section#cross`: the cross table; past
    /// [`super::CROSS_TABLE_MAX_BOTS`] bots `section#records`, each bot's
    /// record.
    pub cross: String,
    /// `section#forfeits`: how games ended, forfeits by kind.
    pub forfeits: String,
    /// The sections of a knockout (`section#bracket`), Swiss
    /// (`section#swiss`, `section#rounds`) or gauntlet
    /// (`section#candidates`); empty for a round robin.
    pub format: String,
    /// `section#tuning` of `arena tune --serve` ([`super::tune_section`]):
    /// each parameter's course so far; empty for other runs. The state
    /// keeps it across refits.
    pub tune: String,
}

/// The number of groups (bots that met, even through others) in `input`.
fn groups(input: &ReportInput<'_>) -> usize {
    input
        .table
        .iter()
        .map(|s| s.group)
        .collect::<std::collections::BTreeSet<_>>()
        .len()
}

/// The sections of the report of `input`, each rendered as in
/// `report.html`. For a league (`input.league`), the standings and the
/// records are left empty: they list every bot, and the live page shows
/// the league's table instead, whose top comes with the state and the
/// rest on request.
#[must_use]
pub fn sections(input: &ReportInput<'_>) -> Sections {
    let (names, series) = prepared(input);
    let league = input.league.is_some();
    Sections {
        matchup: input
            .matchup
            .map(|m| match_section(m).into_string())
            .unwrap_or_default(),
        standings: if league {
            String::new()
        } else {
            let svg = standings_svg(&names, input.table);
            standings_section(input, &names, &svg, groups(input)).into_string()
        },
        cross: if league {
            String::new()
        } else {
            cross_section(input, &names, &series).into_string()
        },
        forfeits: forfeits_section(input, &names, &series).into_string(),
        format: input
            .format
            .map(|c| super::format_sections(&c).into_string())
            .unwrap_or_default(),
        tune: String::new(),
    }
}

/// One finished game for the viewer of a page already open.
#[derive(Serialize)]
struct ViewerGame<'a> {
    /// The names of the series' two bots (one for a bot against itself);
    /// `series` and `game` refer to them by index.
    bots: &'a [String],
    /// The game's series, its tallies so far (no games listed).
    series: SeriesJson,
    /// The game, replayed by the engine (`series` is 0: the page files it).
    game: GameJson<'a>,
}

/// The viewer's JSON of game `game` of series `series` in file `file`
/// (from 0) of `input`, if the viewer holds it: what `/game` answers and the
/// live page hands to `endodoiViewer.add`. Every `<` is written `\u003c`.
#[must_use]
pub fn viewer_game(input: &ReportInput<'_>, file: usize, series: u64, game: u32) -> Option<String> {
    // The series' own two names, not every bot's: a game of a population
    // of thousands costs what a game of two does.
    let si = input.games.series_of(file, series)?;
    let row = input.games.viewed(file, series, game)?;
    let s = &input.games.series[si];
    let name = |i: usize| input.games.bots.get(i).cloned().unwrap_or_default();
    let mut names = vec![name(s.a)];
    if s.b != s.a {
        names.push(name(s.b));
    }
    let two = SeriesInfo {
        a: 0,
        b: names.len() - 1,
        ..s.clone()
    };
    let bot = |n: &str| names.iter().position(|x| x == n).unwrap_or(0);
    let data = ViewerGame {
        bots: &names,
        series: SeriesJson::of(&two),
        game: game_json(row, 0, bot),
    };
    serde_json::to_string(&data)
        .ok()
        .map(|j| j.replace('<', "\\u003c"))
}

/// What the live page shows beyond the report's sections.
#[derive(Clone, Copy, Debug)]
pub struct LivePage<'a> {
    /// Whether the run is over (`body[data-state=finished]`).
    pub finished: bool,
    /// Games done (`#progress[data-done]`).
    pub done: u64,
    /// The progress line: games done of the bound, time left.
    pub progress: &'a str,
    /// The live state as JSON (the `/state` snapshot), for the script's
    /// start; its `<` must be written `\u003c`.
    pub state_json: &'a str,
    /// What the page is of: the config's name, or the folder.
    pub title: &'a str,
    /// The report's sections as the state holds them ([`sections`]).
    pub sections: &'a Sections,
}

/// The live page of `input` (the games finished so far) and `live`.
#[must_use]
pub fn live_page(input: &ReportInput<'_>, live: &LivePage<'_>) -> String {
    let parts = live.sections;
    let (names, series) = prepared(input);
    let json = viewer_json(input, &names, &series, &super::Verdicts::default());
    let state = if live.finished { "finished" } else { "live" };
    html! {
        (DOCTYPE)
        html lang="en" {
            (page_head(&format!("En Dodoi live: {}", live.title), &[CSS, LIVE_CSS]))
            body data-state=(state) {
                header {
                    h1 { "En Dodoi live: " (live.title) }
                    p #progress .meta data-done=(live.done) { (live.progress) }
                    p #connection .meta {}
                    nav {
                        @if !parts.tune.is_empty() { a href="#tuning" { "Tuning" } " · " }
                        a href="#live-games" { "Games in progress" } " · "
                        @if !parts.matchup.is_empty() { a href="#match" { "Match" } " · " }
                        @if let Some(c) = &input.format { (super::formats::format_links(c)) }
                        @if input.league.is_some() {
                            a href="#league" { "League" } " · "
                        } @else {
                            a href="#standings" { "Standings" } " · "
                            @if input.table.len() > super::CROSS_TABLE_MAX_BOTS {
                                a href="#records" { "Records" } " · "
                            } @else {
                                a href="#cross" { "Cross table" } " · "
                            }
                        }
                        a href="#forfeits" { "How games ended" } " · "
                        a href="#viewer" { "Game viewer" } " · "
                        a #report-link href="/report" { "The report" }
                    }
                }
                div #part-tune { (PreEscaped(&parts.tune)) }
                section #live-games {
                    h2 { "Games in progress" }
                    p #no-live .note { "None at the moment." }
                    div #boards .boards {}
                }
                div #part-match { (PreEscaped(&parts.matchup)) }
                div #part-format { (PreEscaped(&parts.format)) }
                @if input.league.is_some() { (super::live_league_section()) }
                div #part-standings { (PreEscaped(&parts.standings)) }
                div #part-cross { (PreEscaped(&parts.cross)) }
                div #part-forfeits { (PreEscaped(&parts.forfeits)) }
                (viewer_section())
                script #report-data type="application/json" { (PreEscaped(json)) }
                script #live-data type="application/json" { (PreEscaped(live.state_json)) }
                script { (PreEscaped(SCRIPT)) }
                script { (PreEscaped(LIVE_SCRIPT)) }
            }
        }
    }
    .into_string()
}
