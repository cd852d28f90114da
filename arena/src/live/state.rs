//! What a live view knows: the finished games, tallied as the report
//! tallies them ([`ReportGames::add`], [`Tally`]); the standings of the
//! last refit and the report's sections made from them; the games in
//! progress, replayed ply by ply with the rules engine from the runner's
//! [`WatchEvent`]s; progress and time left. Fed by the runner's events
//! (one per game, never dropped), its watch feed (droppable) or a followed
//! `games.csv`; it answers with [`Update`]s for the page's event stream,
//! and with the page, the snapshot, a game and the report on request.
//!
//! The refit of the standings (the Bradley–Terry fit and its intervals) is
//! the costly part: [`LiveState::tick`] does it at most once every
//! [`REFIT_EVERY`] while games end, with a smaller bootstrap than the final
//! files' ([`LIVE_BOOTSTRAP`]); `report::write_summaries` still writes the
//! final files from `games.csv` as always.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use endodoi::{Move, Position, Side};
use serde::Serialize;

use super::records::Records;
use crate::format::{Format, GameCourse};
use crate::html::{
    self, BoardSummary, FormatCourse, GameRow, LeagueBoard, LivePage, ReportGames, ReportInput,
    Roster, Sections, Trends,
};
use crate::matchup::{matchup, Matchup};
use crate::referee::WatchEvent;
use crate::runner::Event;
use crate::series::SeriesRule;
use crate::standings::{standings, GameResult, Standing, Tally};
use crate::stats::{RatingOptions, Sprt};

/// The least time between two refits of the standings while games end.
pub const REFIT_EVERY: Duration = Duration::from_secs(1);

/// Bootstrap samples of a live refit (the final files use the config's).
pub const LIVE_BOOTSTRAP: u32 = 100;

/// What a live view is of, known before any game.
#[derive(Clone, Debug, Default)]
pub struct Setup {
    /// The page's title: the config's name, or the folder.
    pub title: String,
    /// The bots in the config's order (more may come with the games).
    pub bots: Vec<String>,
    /// The most games the run plays; 0 if unknown or unbounded (an
    /// endless league): `/state` then gives null.
    pub bound: u64,
    /// The SPRT test of a match, if it has one.
    pub sprt: Option<Sprt>,
    /// The rating options (its bootstrap is cut to [`LIVE_BOOTSTRAP`]).
    pub ratings: RatingOptions,
    /// Whether the view follows a run that goes on (`false`: a folder read
    /// once, whose page needs no event stream).
    pub follows: bool,
    /// The tournament's format (the default: a round robin).
    pub format: Format,
    /// The rule that ends the config's series; with it, the page shows a
    /// knockout's bracket, a Swiss's rounds or a gauntlet's candidates as
    /// series end (`None`: it does not).
    pub series_rule: Option<SeriesRule>,
    /// The run folder, for a league's `roster.csv` and `league.csv`
    /// (looked at again at most every [`REFIT_EVERY`]); `None`: none.
    pub folder: Option<PathBuf>,
    /// Whether [`LiveState::set_absent`] is to come (the run's own view
    /// of a knockout, Swiss or league, once its bots' start is checked):
    /// until it has, the format's course keeps every game, to count them
    /// again then. `false`: it keeps none, so that a league's course
    /// holds its plan and open series only.
    pub absent_to_come: bool,
}

/// A file's length and time of change, to see whether it changed.
type Mark = Option<(u64, std::time::SystemTime)>;

/// What a league's live view knows besides the standings.
struct LeagueLive {
    /// The ratings of the pairings: `league.csv`'s when the folder has
    /// one, else the course's.
    trends: Trends,
    from_file: bool,
    roster: Option<Roster>,
    board: LeagueBoard,
    /// The files as last read: `roster.csv`, `league.csv`.
    marks: [Mark; 2],
    /// A problem reading them.
    notes: [Option<String>; 2],
    last_look: Option<Instant>,
    /// Each bot's latest series, for `/bot`.
    records: Records,
}

/// One update for the page's event stream: its event name and its data
/// (JSON), shared by every client.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Update {
    /// `snapshot`, `summary`, `board`, `ended`, `gone` or `finished`.
    pub event: &'static str,
    /// The event's data, one line of JSON.
    pub data: Arc<str>,
}

impl Update {
    fn new(event: &'static str, data: String) -> Update {
        Update {
            event,
            data: data.into(),
        }
    }
}

/// A game in progress, as the watch feed told it.
#[derive(Clone, Debug)]
struct Board {
    south: String,
    north: String,
    pos: Position,
    /// The last ply: who played which hole, and its laps.
    last: Option<(Side, u8, u32)>,
    clocks: Option<[u64; 2]>,
    /// An update was dropped: the position is no longer followed.
    stale: bool,
    /// Changed since the last [`LiveState::boards_changed`].
    changed: bool,
}

impl Board {
    /// Plays `hole` (the engine's numbering for the side to move) as ply
    /// `ply`; marks the board stale if a ply was missed or does not play.
    fn play(&mut self, ply: u32, hole: u8) {
        if self.stale {
            return;
        }
        let mover = self.pos.to_move();
        let played = (ply == self.pos.ply() + 1)
            .then(|| Move::new(hole))
            .flatten()
            .and_then(|mv| self.pos.play(mv).ok());
        match played {
            Some(details) => self.last = Some((mover, hole, details.laps)),
            None => self.stale = true,
        }
        self.changed = true;
    }
}

/// A game in progress as the page gets it (`board` events, `/state`).
#[derive(Serialize)]
struct BoardJson<'a> {
    series: usize,
    game: u32,
    south: &'a str,
    north: &'a str,
    /// Plies played, the opening's included.
    ply: u32,
    /// The position as `html::encode_position` writes it, captured seeds
    /// included.
    position: String,
    holes: usize,
    /// South's and North's game clocks, ms.
    clocks: Option<[u64; 2]>,
    /// The last ply: `side` (`s` or `n`), `hole`, `laps`.
    last: Option<LastJson>,
    stale: bool,
}

#[derive(Serialize)]
struct LastJson {
    side: &'static str,
    hole: u8,
    laps: u32,
}

/// A bot's row of the standings in `/state`.
#[derive(Serialize)]
struct StandingJson<'a> {
    bot: &'a str,
    games: u32,
    elo: f64,
    lower: f64,
    upper: f64,
}

/// An SPRT's course in `/state`.
#[derive(Serialize)]
struct SprtJson {
    llr: f64,
    lower: f64,
    upper: f64,
    /// Game pairs counted.
    pairs: usize,
    verdict: &'static str,
}

/// The whole state (`snapshot` events, `/state`, the page's start).
#[derive(Serialize)]
struct SnapshotJson<'a> {
    done: u64,
    /// `None` (null) without a bound: an endless league.
    bound: Option<u64>,
    finished: bool,
    follows: bool,
    progress: String,
    bots: &'a [String],
    standings: Vec<StandingJson<'a>>,
    live: Vec<BoardJson<'a>>,
    sprt: Option<SprtJson>,
    sections: &'a Sections,
    /// The games the viewer holds: file (from 1), series, game.
    viewed: Vec<(usize, u64, u32)>,
    /// A league's table: the top of the active and retired bots.
    #[serde(skip_serializing_if = "Option::is_none")]
    league: Option<BoardSummary<'a>>,
}

/// The progress part of `summary` events.
#[derive(Serialize)]
struct SummaryJson<'a> {
    done: u64,
    bound: Option<u64>,
    progress: String,
    standings: Vec<StandingJson<'a>>,
    sprt: Option<SprtJson>,
    sections: &'a Sections,
    #[serde(skip_serializing_if = "Option::is_none")]
    league: Option<BoardSummary<'a>>,
}

/// The live view's state; see the module's documentation.
pub struct LiveState {
    setup: Setup,
    /// Bot names in name order, as `arena rate` and the final files have them.
    names: Vec<String>,
    tally: Tally,
    games: ReportGames,
    /// Games finished in all (a resumed run's earlier games included).
    done: u64,
    /// Games finished since `started`, for the time left.
    played_here: u64,
    started: Instant,
    finished: bool,
    boards: BTreeMap<(usize, u32), Board>,
    table: Vec<Standing>,
    matchup: Option<Matchup>,
    sections: Sections,
    /// Games ended since the last refit.
    dirty: bool,
    last_refit: Option<Instant>,
    /// The format's course, rebuilt from the games as series end.
    course: Option<GameCourse>,
    /// A league's table, trends and roster; `None` for other formats.
    league: Option<LeagueLive>,
    /// Each bot of [`Setup::bots`] by name: its first index there.
    config_index: std::collections::HashMap<String, usize>,
}

impl LiveState {
    /// A view of `setup` with no game yet, started at `now`.
    #[must_use]
    pub fn new(setup: Setup, now: Instant) -> LiveState {
        let mut names: Vec<String> = setup.bots.clone();
        names.sort();
        names.dedup();
        let mut course = setup
            .series_rule
            .filter(|_| setup.format != Format::RoundRobin)
            .map(|rule| GameCourse::new(&setup.format, setup.bots.len(), &[], rule, &[]));
        if let Some(c) = course.as_mut().filter(|_| !setup.absent_to_come) {
            c.forget_games();
        }
        let league = matches!(setup.format, Format::League(_));
        let mut state = LiveState {
            tally: Tally::new(names.len()),
            names,
            setup,
            // A league's series go on without end: the viewer's only.
            games: if league {
                ReportGames::new_bounded()
            } else {
                ReportGames::new()
            },
            done: 0,
            played_here: 0,
            started: now,
            finished: false,
            boards: BTreeMap::new(),
            table: Vec::new(),
            matchup: None,
            sections: Sections::default(),
            dirty: false,
            last_refit: None,
            course,
            league: None,
            config_index: std::collections::HashMap::new(),
        };
        for (i, name) in state.setup.bots.iter().enumerate() {
            state.config_index.entry(name.clone()).or_insert(i);
        }
        if league {
            state.league = Some(LeagueLive {
                trends: Trends::new(),
                from_file: false,
                roster: None,
                board: LeagueBoard::default(),
                marks: [None, None],
                notes: [None, None],
                last_look: None,
                records: Records::new(),
            });
            state.look_at_files(now);
        }
        state.refit(now);
        state
    }

    /// The bots (indices into [`Setup::bots`]) that did not start: a
    /// knockout or Swiss course is made again without them, from the
    /// games so far.
    pub fn set_absent(&mut self, absent: &[usize]) {
        if let Some(c) = self.course.take() {
            if let Some(l) = self.league.as_mut().filter(|l| !l.from_file) {
                l.trends = Trends::new();
            }
            let (bots, rule) = (self.setup.bots.len(), c.rule());
            let mut course = GameCourse::new(&self.setup.format, bots, absent, rule, &[]);
            // Told once: the games need not be counted again.
            course.forget_games();
            self.course = Some(course);
            // Game by game, so that no league round's trends are missed.
            self.follow_league();
            for &(number, game, bots, winner) in c.seen() {
                if self
                    .course
                    .as_mut()
                    .is_some_and(|course| course.add(number, game, bots, winner))
                {
                    self.follow_league();
                }
            }
            self.sections.format = self.format_html();
            self.dirty = true;
        }
    }

    /// Takes a league's last round paired into its trends (unless they
    /// come from `league.csv`): after each series recorded, since the
    /// course keeps that round only.
    fn follow_league(&mut self) {
        let Some(l) = self.league.as_mut().filter(|l| !l.from_file) else {
            return;
        };
        if let Some(course) = self.course.as_ref().and_then(|c| c.plan().league()) {
            l.trends.follow(course, &self.setup.bots);
        }
    }

    /// Games finished.
    #[must_use]
    pub fn done(&self) -> u64 {
        self.done
    }

    /// The most games the run plays, now known better (bots left out).
    pub fn set_bound(&mut self, bound: u64) {
        self.setup.bound = bound;
    }

    /// The most games the run plays, as shown: never below the games
    /// done, and a finished league's games (its bots may have come and
    /// gone); `None` without a bound (an endless league).
    #[must_use]
    pub fn bound(&self) -> Option<u64> {
        let bound = self.setup.bound;
        let over = self.finished && self.league.is_some();
        (bound > 0).then(|| {
            if over {
                self.done
            } else {
                bound.max(self.done)
            }
        })
    }

    /// Whether the run is over.
    #[must_use]
    pub fn is_finished(&self) -> bool {
        self.finished
    }

    /// Whether the view follows a run that goes on.
    #[must_use]
    pub fn follows(&self) -> bool {
        self.setup.follows
    }

    /// The standings of the last refit, best first (bots as indices into
    /// the names in name order).
    #[must_use]
    pub fn table(&self) -> &[Standing] {
        &self.table
    }

    /// The index of bot `name`, added (in name order) if it is new.
    fn bot(&mut self, name: &str) -> usize {
        match self.names.binary_search_by(|n| n.as_str().cmp(name)) {
            Ok(i) => i,
            Err(i) => {
                let mut names = self.names.clone();
                names.insert(i, name.to_string());
                let map: Vec<usize> = (0..self.names.len())
                    .map(|k| if k < i { k } else { k + 1 })
                    .collect();
                self.tally = self.tally.renumbered(&map, names.len());
                self.names = names;
                i
            }
        }
    }

    /// A game of a resumed run, played before this view started: counted,
    /// but not in the time left.
    pub fn add_earlier(&mut self, row: GameRow) {
        self.add(row, false);
    }

    /// A finished game (a row of `games.csv`, its `file` from 0): counted,
    /// and its board gone. The `ended` update carries the viewer's game,
    /// and, if the game ended a series of a knockout, Swiss or gauntlet,
    /// the format's sections as `format` (the HTML of `Sections::format`).
    pub fn add_row(&mut self, row: GameRow) -> Update {
        self.played_here += 1;
        self.add(row, true)
            .unwrap_or_else(|| Update::new("ended", "{}".to_string()))
    }

    /// Counts `row`; with `update`, its `ended` update.
    fn add(&mut self, row: GameRow, update: bool) -> Option<Update> {
        let (file, series, game) = (row.file, row.series, row.game);
        let (south, north) = (self.bot(&row.south), self.bot(&row.north));
        // The config's index of each bot by hash (as `add_named` finds
        // them, but without a search of every bot for each game).
        let at = |name: &str| self.config_index.get(name).copied();
        let recorded = match (at(&row.south), at(&row.north), usize::try_from(series)) {
            (Some(s), Some(n), Ok(number)) => self
                .course
                .as_mut()
                .is_some_and(|course| course.add(number, game, [s, n], row.winner())),
            _ => false,
        };
        let key = series | ((file as u64) << 40);
        self.tally.add(GameResult {
            series: key,
            game,
            south,
            north,
            winner: row.winner(),
            forfeit: row.is_forfeit(),
        });
        if recorded {
            // Its last game, if odd, waits for no second one.
            self.tally.series_over(key);
        }
        if let Some(l) = &mut self.league {
            l.records.add(&row);
        }
        self.games.add(row, html::VIEWER_BUDGET_BYTES);
        if recorded {
            self.follow_league();
        }
        self.done += 1;
        self.dirty = true;
        if let Ok(s) = usize::try_from(series) {
            self.boards.remove(&(s, game));
        }
        if !update {
            if recorded {
                self.sections.format = self.format_html();
            }
            return None;
        }
        let viewer = self
            .game(file + 1, series, game)
            .unwrap_or_else(|| "null".to_string());
        // A series ended: the bracket, rounds or candidates change now, not
        // at the next refit (they need no rating fit, so they are cheap).
        let format = if recorded {
            self.sections.format = self.format_html();
            let html = serde_json::to_string(&self.sections.format).unwrap_or_default();
            format!(",\"format\":{html}")
        } else {
            String::new()
        };
        Some(Update::new(
            "ended",
            format!(
                "{{\"file\":{},\"series\":{series},\"game\":{game},\"viewer\":{viewer}{format}}}",
                file + 1
            ),
        ))
    }

    /// The format's sections (bracket, Swiss standings and rounds,
    /// candidates) of the course so far; empty for a round robin.
    fn format_html(&self) -> String {
        self.course
            .as_ref()
            .map(|c| {
                html::format_sections(&FormatCourse {
                    plan: c.plan(),
                    names: &self.setup.bots,
                    trends: None,
                })
                .into_string()
            })
            .unwrap_or_default()
    }

    /// A runner event: a game's row becomes an `ended` update; series and
    /// SPRT events change nothing here (the SPRT's course is recomputed
    /// from the games, as in the report).
    pub fn event(&mut self, event: &Event) -> Option<Update> {
        match event {
            Event::Game(record) => Some(self.add_row(GameRow::from(record))),
            Event::Series(_) | Event::Sprt(_) | Event::Stage(_) => None,
        }
    }

    /// An event of the watch feed. A board's updates are sent by
    /// [`LiveState::boards_changed`], at most one per game at a time; a
    /// game abandoned gives a `gone` update at once.
    pub fn watch(&mut self, event: WatchEvent) -> Option<Update> {
        match event {
            WatchEvent::GameStarted {
                series,
                game,
                south,
                north,
                rules,
                opening,
                clocks_ms,
            } => {
                let mut board = Board {
                    south,
                    north,
                    pos: rules.start(),
                    last: None,
                    clocks: clocks_ms,
                    stale: false,
                    changed: true,
                };
                match crate::replay::parse_moves(&[opening.as_str()]) {
                    Ok(holes) => {
                        for hole in holes {
                            let ply = board.pos.ply() + 1;
                            board.play(ply, hole);
                        }
                    }
                    Err(_) => board.stale = true,
                }
                self.boards.insert((series, game), board);
                None
            }
            WatchEvent::Ply {
                series,
                game,
                ply,
                hole,
                clocks_ms,
            } => {
                if let Some(board) = self.boards.get_mut(&(series, game)) {
                    board.play(ply, hole);
                    board.clocks = clocks_ms;
                }
                None
            }
            // The game's row comes as a runner event, which removes it.
            WatchEvent::GameEnded { .. } => None,
            WatchEvent::Abandoned { series, game } => self
                .boards
                .remove(&(series, game))
                .map(|_| Update::new("gone", format!("{{\"series\":{series},\"game\":{game}}}"))),
        }
    }

    /// A `board` update for each game in progress that changed since the
    /// last call.
    pub fn boards_changed(&mut self) -> Vec<Update> {
        let changed: Vec<(usize, u32)> = self
            .boards
            .iter()
            .filter(|(_, b)| b.changed)
            .map(|(k, _)| *k)
            .collect();
        changed
            .into_iter()
            .filter_map(|key| {
                let board = self.boards.get_mut(&key)?;
                board.changed = false;
                let json = serde_json::to_string(&board_json(key, board)).ok()?;
                Some(Update::new("board", json))
            })
            .collect()
    }

    /// The `summary` update, with a refit first, if games ended since the
    /// last refit and it was at least [`REFIT_EVERY`] ago.
    pub fn tick(&mut self, now: Instant) -> Option<Update> {
        self.look_at_files(now);
        let due = self
            .last_refit
            .is_none_or(|t| now.duration_since(t) >= REFIT_EVERY);
        (self.dirty && due).then(|| {
            self.refit(now);
            self.summary(now)
        })
    }

    /// A tuning's section ([`html::tune_section`]) as it is now, after an
    /// iteration ended: it goes to the page with the `summary`.
    pub fn set_tune(&mut self, section: String, now: Instant) -> Update {
        self.sections.tune = section;
        self.summary(now)
    }

    /// The run is over: a last refit, its `summary`, and `finished`.
    pub fn finish(&mut self, now: Instant) -> Vec<Update> {
        self.finished = true;
        self.boards.clear();
        if let Some(l) = &mut self.league {
            l.last_look = None;
        }
        self.look_at_files(now);
        self.refit(now);
        vec![self.summary(now), Update::new("finished", "{}".to_string())]
    }

    /// Fits the standings to the games so far and renders the sections.
    fn refit(&mut self, now: Instant) {
        let options = RatingOptions {
            bootstrap_samples: self.setup.ratings.bootstrap_samples.min(LIVE_BOOTSTRAP),
            ..self.setup.ratings
        };
        let (mut table, _) = standings(&self.tally, &options);
        let listed = &self.setup.bots;
        let names = &self.names;
        let index = &self.config_index;
        // By hash: a league starts with thousands of idle bots.
        crate::standings::list_idle_by(&mut table, |i| {
            index.get(&names[i]).copied().unwrap_or(usize::MAX)
        });
        let first = listed
            .iter()
            .find_map(|b| names.iter().position(|n| n == b))
            .or_else(|| {
                let south = self.games.first_south()?;
                names.iter().position(|n| n == south)
            })
            .unwrap_or(0);
        let course = self.games.course(names);
        self.matchup = matchup(
            names,
            &self.tally,
            first,
            course.as_deref(),
            self.setup.sprt,
        );
        self.table = table;
        self.league_board();
        let tune = std::mem::take(&mut self.sections.tune);
        self.sections = html::sections(&self.input());
        self.sections.tune = tune;
        self.dirty = false;
        self.last_refit = Some(now);
    }

    fn input(&self) -> ReportInput<'_> {
        ReportInput {
            names: &self.names,
            table: &self.table,
            games: &self.games,
            files: &[],
            warning: None,
            matchup: self.matchup.as_ref(),
            not_started: &[],
            format: self.course.as_ref().map(|c| FormatCourse {
                plan: c.plan(),
                names: &self.setup.bots,
                trends: None,
            }),
            league: self.league.as_ref().map(|l| &l.board),
        }
    }

    /// A league's folder files, looked at again if [`REFIT_EVERY`] has
    /// passed since the last look: `roster.csv` and `league.csv` read
    /// again if they changed (their length or time of change), and the
    /// standings marked for a refit then.
    fn look_at_files(&mut self, now: Instant) {
        let (Some(l), Some(dir)) = (&mut self.league, &self.setup.folder) else {
            return;
        };
        if l.last_look
            .is_some_and(|t| now.duration_since(t) < REFIT_EVERY)
        {
            return;
        }
        l.last_look = Some(now);
        let roster = dir.join(html::ROSTER_FILE);
        if let Some(mark) = html::changed_mark(&roster, l.marks[0]) {
            l.marks[0] = mark;
            match html::read_roster(dir) {
                Ok(r) => {
                    l.roster = r;
                    l.notes[0] = None;
                }
                Err(e) => l.notes[0] = Some(format!("{e}; the roster as last read is shown")),
            }
            self.dirty = true;
        }
        let league = dir.join(html::LEAGUE_FILE);
        if let Some(mark) = html::changed_mark(&league, l.marks[1]) {
            l.marks[1] = mark;
            match Trends::read(&league) {
                Ok(Some(t)) => {
                    l.trends = t;
                    l.from_file = true;
                    l.notes[1] = None;
                }
                Ok(None) => {
                    l.trends = Trends::new();
                    l.from_file = false;
                }
                Err(e) => l.notes[1] = Some(format!("{e}; the trends as last read are shown")),
            }
            self.dirty = true;
        }
    }

    /// Builds a league's table from the standings of the last refit.
    fn league_board(&mut self) {
        self.follow_league();
        let Some(l) = &mut self.league else { return };
        l.board = LeagueBoard::new(&self.names, &self.table, &l.trends, l.roster.as_ref());
        let notes: Vec<&str> = l.notes.iter().flatten().map(String::as_str).collect();
        l.board.note = (!notes.is_empty()).then(|| notes.join("; "));
    }

    /// `/league`: a page of a league's table (`retired`, else the active
    /// bots) of the last refit, the bots whose names hold `find`, from the
    /// `offset`-th, at most [`html::LEAGUE_TOP`]; `None` if no league.
    #[must_use]
    pub fn league_page(&self, table: &str, find: &str, offset: usize) -> Option<String> {
        let l = self.league.as_ref()?;
        let page = l.board.page(table, find, offset, html::LEAGUE_TOP);
        serde_json::to_string(&page).ok()
    }

    /// `/bot`: bot `name`'s row of a league's table and its latest
    /// series (latest first, at most [`html::BOT_SERIES_MAX`]), from its
    /// side, each with its round (that of a series still being played
    /// too); `None` if no league or no such bot.
    #[must_use]
    pub fn bot_record(&self, name: &str) -> Option<String> {
        let l = self.league.as_ref()?;
        let row = l.board.row(name)?;
        let round_of = |series: u64, bot: &str, opponent: &str| {
            l.trends
                .round_of(series)
                .or_else(|| self.open_round_of(series, [bot, opponent]))
        };
        let viewed = |file, series, game| self.games.viewed(file, series, game).is_some();
        let (series, total) = l.records.of(name, round_of, viewed).unwrap_or_default();
        let record = html::BotRecord {
            row,
            retired: row.retired.is_some(),
            series,
            series_total: total,
        };
        serde_json::to_string(&record)
            .ok()
            .map(|j| j.replace('<', "\\u003c"))
    }

    /// The round of series `series` between `bots` if it is of the round
    /// a league's course has paired last (being played, or just over):
    /// `league.csv` has it only once the file is read again, and the
    /// trends of the course only once one of its series has ended.
    fn open_round_of(&self, series: u64, bots: [&str; 2]) -> Option<u32> {
        let league = self.course.as_ref()?.plan().league()?;
        let name = |i: usize| self.setup.bots.get(i).map(String::as_str);
        league
            .pairings
            .iter()
            .find(|p| p.series.is_some_and(|s| s as u64 == series))
            .filter(|p| {
                let pair = [Some(p.south.bot), p.north.as_ref().map(|n| n.bot)];
                let names = pair.map(|b| b.and_then(name));
                names == [Some(bots[0]), Some(bots[1])] || names == [Some(bots[1]), Some(bots[0])]
            })
            .map(|p| p.round)
    }

    /// The progress line: games done of the bound, time left.
    #[must_use]
    pub fn progress(&self, now: Instant) -> String {
        let mut line = String::new();
        let done = self.done;
        let bound = self.bound().unwrap_or(0);
        let _ = write!(line, "{done} game{}", if done == 1 { "" } else { "s" });
        if bound > 0 {
            let _ = write!(line, " of at most {bound}");
        }
        if self.finished {
            line.push_str(" · the run is over");
            return line;
        }
        line.push_str(" done");
        if bound == 0 && self.setup.format.is_endless() {
            line.push_str(" (endless league)");
        }
        let left = bound.saturating_sub(done);
        if self.setup.follows && bound > 0 && self.played_here > 0 && left > 0 {
            let elapsed = now.duration_since(self.started).as_secs_f64();
            let secs = elapsed / self.played_here as f64 * left as f64;
            let _ = write!(line, " · at most about {} left", duration_words(secs));
            if self.setup.sprt.is_some() {
                line.push_str(" (an SPRT may stop sooner)");
            }
        }
        line
    }

    fn standings_json(&self) -> Vec<StandingJson<'_>> {
        // A league's population is large: its top only (the rest on request).
        let most = if self.league.is_some() {
            html::LEAGUE_TOP
        } else {
            usize::MAX
        };
        self.table
            .iter()
            .take(most)
            .map(|s| StandingJson {
                bot: &self.names[s.bot],
                games: s.wdl.games(),
                elo: s.elo,
                lower: s.elo_lower,
                upper: s.elo_upper,
            })
            .collect()
    }

    fn sprt_json(&self) -> Option<SprtJson> {
        let curve = self.matchup.as_ref()?.sprt.as_ref()?;
        let (lower, upper) = curve.bounds();
        Some(SprtJson {
            llr: curve.llr(),
            lower,
            upper,
            pairs: curve.pairs.len(),
            verdict: curve.verdict(),
        })
    }

    fn summary(&self, now: Instant) -> Update {
        let json = SummaryJson {
            done: self.done,
            bound: self.bound(),
            progress: self.progress(now),
            standings: self.standings_json(),
            sprt: self.sprt_json(),
            sections: &self.sections,
            league: self.league.as_ref().map(|l| l.board.summary()),
        };
        Update::new("summary", serde_json::to_string(&json).unwrap_or_default())
    }

    /// The whole state as JSON: the `snapshot` event, `/state`.
    #[must_use]
    pub fn snapshot(&self, now: Instant) -> String {
        let viewed = self
            .games
            .viewed_games()
            .iter()
            .map(|g| (g.file + 1, g.series, g.game))
            .collect();
        let json = SnapshotJson {
            done: self.done,
            bound: self.bound(),
            finished: self.finished,
            follows: self.setup.follows,
            progress: self.progress(now),
            bots: &self.names,
            standings: self.standings_json(),
            live: self.boards.iter().map(|(k, b)| board_json(*k, b)).collect(),
            sprt: self.sprt_json(),
            sections: &self.sections,
            viewed,
            league: self.league.as_ref().map(|l| l.board.summary()),
        };
        serde_json::to_string(&json).unwrap_or_default()
    }

    /// The `snapshot` update.
    #[must_use]
    pub fn snapshot_update(&self, now: Instant) -> Update {
        Update::new("snapshot", self.snapshot(now))
    }

    /// The viewer's JSON of game `game` of series `series` in file `file`
    /// (from 1), if the viewer holds it.
    #[must_use]
    pub fn game(&self, file: usize, series: u64, game: u32) -> Option<String> {
        html::viewer_game(&self.input(), file.checked_sub(1)?, series, game)
    }

    /// The live page as it is now.
    #[must_use]
    pub fn page(&self, now: Instant) -> String {
        let state = self.snapshot(now).replace('<', "\\u003c");
        html::live_page(
            &self.input(),
            &LivePage {
                finished: self.finished,
                done: self.done,
                progress: &self.progress(now),
                state_json: &state,
                title: &self.setup.title,
                sections: &self.sections,
            },
        )
    }

    /// `report.html` of the games so far, as the report renders it (the
    /// standings of the last refit).
    #[must_use]
    pub fn report(&self) -> String {
        html::render(&self.input()).html
    }

    /// The games in progress: series and game.
    #[must_use]
    pub fn in_progress(&self) -> BTreeSet<(usize, u32)> {
        self.boards.keys().copied().collect()
    }
}

fn board_json(key: (usize, u32), b: &Board) -> BoardJson<'_> {
    let mut position = String::new();
    html::encode_position(&b.pos, true, &mut position);
    BoardJson {
        series: key.0,
        game: key.1,
        south: &b.south,
        north: &b.north,
        ply: b.pos.ply(),
        position,
        holes: b.pos.holes(),
        clocks: b.clocks,
        last: b.last.map(|(side, hole, laps)| LastJson {
            side: if side == Side::South { "s" } else { "n" },
            hole,
            laps,
        }),
        stale: b.stale,
    }
}

/// `secs` in words: `40 s`, `3 min`, `2 h 05 min`.
fn duration_words(secs: f64) -> String {
    let s = secs.max(0.0).round() as u64;
    if s < 90 {
        format!("{s} s")
    } else if s < 5400 {
        format!("{} min", (s + 30) / 60)
    } else {
        format!("{} h {:02} min", s / 3600, (s % 3600) / 60)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::{GameEnd, GameRecord};
    use endodoi::Rules;

    /// A league of `rounds` (`None`: endless) for a test's setup.
    fn league_of(rounds: Option<u32>) -> Format {
        Format::League(crate::format::LeagueSettings {
            rounds,
            settle_los: None,
            seed: 1,
            prior_draws: 1.0,
            bootstrap: 0,
            pairing: crate::format::PairBy::Rating,
            catch_up: crate::format::LEAGUE_CATCH_UP,
        })
    }

    fn setup() -> Setup {
        Setup {
            title: "t".into(),
            bots: vec!["b".into(), "a".into()],
            bound: 10,
            sprt: None,
            ratings: RatingOptions {
                bootstrap_samples: 20,
                ..RatingOptions::default()
            },
            follows: true,
            ..Setup::default()
        }
    }

    /// A whole game of the first legal move on 2x3 with 2 seeds: its holes.
    fn first_moves(rules: Rules) -> Vec<u8> {
        let mut pos = rules.start();
        let mut holes = Vec::new();
        while !pos.is_over() {
            let mv = pos.legal_moves().into_iter().next().unwrap();
            pos.play(mv).unwrap();
            holes.push(mv.hole());
        }
        holes
    }

    /// A live state of [`setup`] started now, and the rules (2x3, 2 seeds)
    /// and [`first_moves`] of the game a test plays on it.
    fn fresh_state_and_game() -> (Instant, LiveState, Rules, Vec<u8>) {
        let t0 = Instant::now();
        let rules = Rules::new(3, 2).unwrap();
        (t0, LiveState::new(setup(), t0), rules, first_moves(rules))
    }

    /// The start of game `(series, game)`, a (South) v b, by `rules`
    /// after the referee's `opening`, with `clocks_ms` if the game has
    /// clocks.
    fn a_v_b_started(
        (series, game): (usize, u32),
        rules: Rules,
        opening: &str,
        clocks_ms: Option<[u64; 2]>,
    ) -> WatchEvent {
        WatchEvent::GameStarted {
            series,
            game,
            south: "a".into(),
            north: "b".into(),
            rules,
            opening: opening.to_string(),
            clocks_ms,
        }
    }

    fn record(series: usize, game: u32, south: &str, north: &str) -> GameRecord {
        let rules = Rules::new(3, 2).unwrap();
        let holes = first_moves(rules);
        let mut pos = rules.start();
        for &h in &holes {
            pos.play(Move::new(h).unwrap()).unwrap();
        }
        let outcome = pos.outcome().unwrap();
        GameRecord {
            series,
            game,
            bots: [south.into(), north.into()],
            rules,
            moves: holes
                .iter()
                .map(u8::to_string)
                .collect::<Vec<_>>()
                .join(" "),
            plies: holes.len() as u32,
            seeds: [pos.captured(Side::South), pos.captured(Side::North)],
            winner: outcome.winner,
            end: match outcome.termination {
                endodoi::Termination::NoMoves => GameEnd::NoMoves,
                endodoi::Termination::PlyLimit => GameEnd::PlyLimit,
            },
            detail: String::new(),
            duration_ms: 1,
            transcript_failed: None,
            opening: String::new(),
        }
    }

    fn json(text: &str) -> serde_json::Value {
        serde_json::from_str(text).unwrap()
    }

    #[test]
    fn plies_in_make_the_engines_position_and_a_finished_game_moves_into_the_viewer() {
        let (t0, mut state, rules, holes) = fresh_state_and_game();
        // The first ply is the opening; the bots play the rest.
        let started = a_v_b_started((1, 1), rules, &holes[0].to_string(), Some([1000, 1000]));
        assert_eq!(state.watch(started), None);
        let mut engine = rules.start();
        engine.play(Move::new(holes[0]).unwrap()).unwrap();
        let details = engine.play(Move::new(holes[1]).unwrap()).unwrap();
        let ply = WatchEvent::Ply {
            series: 1,
            game: 1,
            ply: 2,
            hole: holes[1],
            clocks_ms: Some([990, 1000]),
        };
        assert_eq!(state.watch(ply), None);
        let boards = state.boards_changed();
        assert_eq!(boards.len(), 1, "one update for the two plies");
        assert_eq!(boards[0].event, "board");
        assert!(state.boards_changed().is_empty(), "nothing changed since");

        let snap = json(&state.snapshot(t0));
        let live = &snap["live"][0];
        let mut token = String::new();
        html::encode_position(&engine, true, &mut token);
        assert_eq!(live["ply"], 2);
        assert_eq!(live["position"], token.as_str());
        assert_eq!(live["south"], "a");
        assert_eq!(live["clocks"], serde_json::json!([990, 1000]));
        assert_eq!(live["last"]["hole"], holes[1]);
        assert_eq!(live["last"]["laps"], details.laps);
        assert_eq!(live["stale"], false);
        assert_eq!(snap["done"], 0);

        // The game ends: its board goes, the game is counted and viewable.
        let ended = state.event(&Event::Game(record(1, 1, "a", "b"))).unwrap();
        assert_eq!(ended.event, "ended");
        let e = json(&ended.data);
        assert_eq!(
            (e["file"].clone(), e["series"].clone(), e["game"].clone()),
            (1.into(), 1.into(), 1.into())
        );
        assert_eq!(
            e["viewer"]["game"]["moves"].as_array().unwrap().len(),
            holes.len()
        );
        // The viewer's entry names the series' two bots only (not every
        // bot: a league's thousands), its South and North by index.
        assert_eq!(e["viewer"]["bots"], serde_json::json!(["a", "b"]));
        assert_eq!(e["viewer"]["game"]["south"], 0);
        assert_eq!(e["viewer"]["game"]["north"], 1);
        assert_eq!(e["viewer"]["series"]["a"], 0);
        let snap = json(&state.snapshot(t0));
        assert_eq!(snap["live"].as_array().unwrap().len(), 0);
        assert_eq!(snap["done"], 1);
        assert_eq!(snap["viewed"], serde_json::json!([[1, 1, 1]]));
        assert!(state.game(1, 1, 1).is_some());
        assert!(state.game(1, 1, 2).is_none());
        assert!(state.game(0, 1, 1).is_none(), "files count from 1");

        // The end: a last refit counts every game, then `finished`.
        let last = state.finish(t0);
        assert_eq!(
            last.iter().map(|u| u.event).collect::<Vec<_>>(),
            ["summary", "finished"]
        );
        let snap = json(&state.snapshot(t0));
        assert_eq!(snap["finished"], true);
        let games: Vec<_> = snap["standings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| {
                (
                    s["bot"].as_str().unwrap().to_string(),
                    s["games"].as_u64().unwrap(),
                )
            })
            .collect();
        assert_eq!(games.len(), 2);
        assert!(games.iter().all(|(_, g)| *g == 1), "{games:?}");
        assert!(state.page(t0).contains("data-state=\"finished\""));
    }

    #[test]
    fn a_missed_ply_marks_the_board_stale_instead_of_drawing_a_wrong_position() {
        let (t0, mut state, rules, holes) = fresh_state_and_game();
        state.watch(a_v_b_started((2, 3), rules, "", None));
        // Ply 1 was dropped: ply 2 cannot be placed.
        state.watch(WatchEvent::Ply {
            series: 2,
            game: 3,
            ply: 2,
            hole: holes[1],
            clocks_ms: None,
        });
        let snap = json(&state.snapshot(t0));
        assert_eq!(snap["live"][0]["stale"], true);
        assert_eq!(snap["live"][0]["ply"], 0);
        // An abandoned game goes at once.
        let gone = state
            .watch(WatchEvent::Abandoned { series: 2, game: 3 })
            .unwrap();
        assert_eq!(gone.event, "gone");
        assert_eq!(json(&state.snapshot(t0))["live"], serde_json::json!([]));
    }

    #[test]
    fn the_standings_are_refitted_at_most_once_a_second_while_games_end() {
        let t0 = Instant::now();
        let mut state = LiveState::new(setup(), t0);
        let games = |s: &LiveState| s.table().iter().map(|r| r.wdl.games()).sum::<u32>();
        assert_eq!(state.tick(t0 + REFIT_EVERY), None, "nothing ended");
        state.event(&Event::Game(record(1, 1, "a", "b")));
        // Refitted at t0 (the start): not again before a second has passed.
        assert_eq!(state.tick(t0 + REFIT_EVERY / 2), None);
        assert_eq!(games(&state), 0);
        let summary = state.tick(t0 + REFIT_EVERY).expect("a refit is due");
        assert_eq!(summary.event, "summary");
        assert_eq!(json(&summary.data)["done"], 1);
        assert_eq!(games(&state), 2, "one game, counted for both bots");
        // Games that end within the next second wait for it.
        state.event(&Event::Game(record(1, 2, "b", "a")));
        state.event(&Event::Game(record(1, 3, "a", "b")));
        assert_eq!(state.tick(t0 + REFIT_EVERY + REFIT_EVERY / 2), None);
        assert_eq!(games(&state), 2);
        assert!(state.tick(t0 + 2 * REFIT_EVERY).is_some());
        assert_eq!(games(&state), 6);
        assert_eq!(state.tick(t0 + 5 * REFIT_EVERY), None, "nothing new");
    }

    #[test]
    fn time_left_comes_from_the_pace_of_the_games_played_here() {
        let t0 = Instant::now();
        let mut state = LiveState::new(setup(), t0);
        // A resumed run's earlier games are not part of the pace.
        state.add_earlier(GameRow::from(&record(1, 1, "a", "b")));
        assert_eq!(state.progress(t0), "1 game of at most 10 done");
        state.event(&Event::Game(record(1, 2, "b", "a")));
        // 1 game in 60 s, 8 to go: 8 minutes.
        let line = state.progress(t0 + Duration::from_secs(60));
        assert_eq!(
            line,
            "2 games of at most 10 done · at most about 8 min left"
        );
        state.finish(t0);
        assert_eq!(
            state.progress(t0),
            "2 games of at most 10 · the run is over"
        );
    }

    #[test]
    fn an_endless_league_has_no_bound_and_says_so() {
        let t0 = Instant::now();
        let mut setup = setup();
        setup.bound = 0;
        setup.format = league_of(None);
        let mut state = LiveState::new(setup, t0);
        state.event(&Event::Game(record(1, 1, "a", "b")));
        assert_eq!(state.progress(t0), "1 game done (endless league)");
        let json: serde_json::Value = serde_json::from_str(&state.snapshot(t0)).unwrap();
        assert!(json["bound"].is_null(), "{json}");
        // A bound known: given.
        state.set_bound(40);
        let json: serde_json::Value = serde_json::from_str(&state.snapshot(t0)).unwrap();
        assert_eq!(json["bound"], 40);
    }

    #[test]
    fn a_leagues_bound_is_never_below_its_games_and_is_its_games_once_over() {
        let t0 = Instant::now();
        let mut setup = setup();
        setup.format = league_of(Some(2));
        setup.bound = 2;
        let mut state = LiveState::new(setup, t0);
        for _ in 0..3 {
            state.event(&Event::Game(record(1, 1, "a", "b")));
        }
        assert_eq!(state.bound(), Some(3));
        assert_eq!(state.progress(t0), "3 games of at most 3 done");
        state.set_bound(10);
        state.finish(t0);
        assert_eq!(state.progress(t0), "3 games of at most 3 · the run is over");
        let json: serde_json::Value = serde_json::from_str(&state.snapshot(t0)).unwrap();
        assert_eq!(
            (json["done"].clone(), json["bound"].clone()),
            (3.into(), 3.into())
        );
    }

    /// A knockout's bracket on the live page follows the games: a series
    /// goes to the plan once its games end it under the config's rule, and
    /// the next round appears once the round before is over.
    #[test]
    fn the_live_bracket_records_a_series_once_its_games_end_it() {
        let t0 = Instant::now();
        let setup = setup_of_two_game_series();
        // A view that does not know c was skipped (arena serve) sees the
        // run's series 1, a v b, where its plan has b v c: left out.
        let mut unaware = LiveState::new(setup.clone(), t0);
        for game in 1..=2 {
            unaware.add_row(GameRow {
                series: 1,
                game,
                south: "a".into(),
                north: "b".into(),
                result: "south".into(),
                termination: "no-moves".into(),
                ..GameRow::default()
            });
        }
        unaware.tick(t0 + REFIT_EVERY);
        let page = unaware.page(t0 + REFIT_EVERY);
        assert_eq!(page.matches("<div class=\"tie\"").count(), 2, "{page}");
        assert!(page.contains("data-settled=\"open\""), "{page}");
        let mut absent = LiveState::new(setup.clone(), t0);
        // With c out (the start-up check), b walks over: the final, a v
        // b, is series 1.
        absent.set_absent(&[2]);
        absent.tick(t0 + REFIT_EVERY);
        let page = absent.page(t0 + REFIT_EVERY);
        assert!(page.contains("data-settled=\"walkover\""), "{page}");
        assert_eq!(page.matches("<div class=\"tie\"").count(), 3, "{page}");
        let mut state = LiveState::new(setup, t0);
        let row = super::super::records::row;
        let bracket = |state: &LiveState, at: Instant| {
            let page = state.page(at);
            let start = page.find("<section id=\"bracket\">").expect("a bracket");
            let end = start + page[start..].find("</section>").unwrap();
            page[start..end].to_string()
        };
        // Seed 1 (a) has the bye; b and c play series 1, South b in game 1.
        state.add_row(row(1, 1, "b", "c", "north"));
        state.tick(t0 + REFIT_EVERY);
        let html = bracket(&state, t0 + REFIT_EVERY);
        assert!(
            html.contains("data-settled=\"open\""),
            "one game of two: {html}"
        );
        assert_eq!(html.matches("<div class=\"tie\"").count(), 2, "{html}");
        state.add_row(row(1, 2, "c", "b", "south"));
        state.tick(t0 + 2 * REFIT_EVERY);
        let html = bracket(&state, t0 + 2 * REFIT_EVERY);
        // c won 2-0: the final, a v c (series 2), is known and open.
        assert_eq!(html.matches("<div class=\"tie\"").count(), 3, "{html}");
        assert!(
            html.contains("<span class=\"bot\">c</span><span class=\"wins\">2</span>"),
            "{html}"
        );
        assert!(html.contains("No champion yet"), "{html}");
        // The final: 1-1, a drawn series; the better seed a goes through.
        state.add_row(row(2, 1, "a", "c", "north"));
        state.add_row(row(2, 2, "c", "a", "north"));
        state.finish(t0 + 3 * REFIT_EVERY);
        let html = bracket(&state, t0 + 3 * REFIT_EVERY);
        assert!(
            html.contains("Champion: <strong class=\"champion\">a</strong>"),
            "{html}"
        );
        assert!(html.contains("better seed"), "{html}");
    }

    /// A Swiss's rounds on the live page follow the games, not the refit:
    /// the `ended` update of the game that ends round 1 carries round 2's
    /// pairings at once, with the standings not refitted.
    #[test]
    fn the_game_that_ends_a_swiss_round_brings_the_next_rounds_pairings_without_a_refit() {
        let t0 = Instant::now();
        let bots: Vec<String> = ["a", "b", "c", "d"].map(String::from).to_vec();
        let setup = Setup {
            title: "swiss".into(),
            bots: bots.clone(),
            format: Format::Swiss {
                seeds: vec![0, 1, 2, 3],
                rounds: 2,
            },
            series_rule: first_to_of_as_many(1),
            follows: true,
            ..Setup::default()
        };
        let mut state = LiveState::new(setup, t0);
        let round = |state: &LiveState, r: u32| -> Vec<crate::schedule::Series> {
            let plan = state.course.as_ref().unwrap().plan();
            plan.series()
                .iter()
                .filter(|s| s.round == r)
                .copied()
                .collect()
        };
        let first = round(&state, 1);
        assert_eq!(first.len(), 2, "4 bots: two series in round 1");
        assert!(
            round(&state, 2).is_empty(),
            "round 2 is paired after round 1"
        );
        // Each series is one game, won by its South.
        let play = |state: &mut LiveState, s: &crate::schedule::Series| {
            let south = s.south(1);
            let north = if south == s.a { s.b } else { s.a };
            state.add_row(GameRow {
                series: s.number as u64,
                game: 1,
                south: bots[south].clone(),
                north: bots[north].clone(),
                result: "south".into(),
                termination: "no-moves".into(),
                ..GameRow::default()
            })
        };
        let ended = json(&play(&mut state, &first[0]).data);
        let html = ended["format"]
            .as_str()
            .expect("a series ended: its sections");
        assert!(html.contains("data-round=\"1\""), "{html}");
        assert!(!html.contains("data-round=\"2\""), "{html}");
        let ended = json(&play(&mut state, &first[1]).data);
        let html = ended["format"]
            .as_str()
            .expect("round 1 ended: its sections");
        let second = round(&state, 2);
        assert_eq!(second.len(), 2, "round 2 is paired");
        assert!(html.contains("data-round=\"2\""), "{html}");
        let start = html.find("data-round=\"2\"").unwrap();
        for s in &second {
            assert!(
                html[start..].contains(&format!("<td>series {}</td>", s.number)),
                "series {} of round 2 listed: {html}",
                s.number
            );
        }
        // No refit ran: the standings count no game, and the snapshot's
        // sections (for a page opened now) are the new ones too.
        assert_eq!(state.table().iter().map(|r| r.wdl.games()).sum::<u32>(), 0);
        let snap = json(&state.snapshot(t0));
        assert_eq!(snap["sections"]["format"].as_str(), Some(html));
        // A game that ends no series carries no sections.
        let mut open = LiveState::new(setup_of_two_game_series(), t0);
        let ended = json(
            &open
                .add_row(GameRow {
                    series: 1,
                    game: 1,
                    south: "b".into(),
                    north: "c".into(),
                    result: "north".into(),
                    termination: "no-moves".into(),
                    ..GameRow::default()
                })
                .data,
        );
        assert!(ended.get("format").is_none(), "{ended}");
    }

    /// A league of 150 bots: the state carries the top 100 of its table
    /// and of the standings, not the every-bot sections; a roster.csv that
    /// does not read is named on the page, and one fixed later is read
    /// again (at the next look, a second on).
    #[test]
    fn a_leagues_state_carries_the_top_of_its_table_and_follows_its_roster() {
        let t0 = Instant::now();
        let dir = tempfile::tempdir().unwrap();
        let roster = dir.path().join(html::ROSTER_FILE);
        std::fs::write(&roster, "bot,joined,retired\nb1,1,x\n").unwrap();
        let bots = (0..150).map(|i| format!("b{i}")).collect();
        let mut state = LiveState::new(league_setup(bots, dir.path()), t0);
        let snap = json(&state.snapshot(t0));
        assert_eq!(
            snap["standings"].as_array().unwrap().len(),
            html::LEAGUE_TOP
        );
        assert_eq!(snap["league"]["active"]["total"], 150, "{}", snap["league"]);
        assert_eq!(
            snap["league"]["active"]["rows"].as_array().unwrap().len(),
            html::LEAGUE_TOP
        );
        assert_eq!(snap["sections"]["standings"], "");
        assert_eq!(snap["sections"]["cross"], "");
        let note = snap["league"]["note"].as_str().unwrap();
        assert!(note.contains("roster.csv: line 2:"), "{note}");
        // Fixed: read at the next look, and b1 is retired.
        std::fs::write(&roster, "bot,joined,retired\nb1,1,2\n").unwrap();
        assert!(
            state.tick(t0 + REFIT_EVERY).is_some(),
            "a changed roster refits"
        );
        let snap = json(&state.snapshot(t0));
        assert!(snap["league"]["note"].is_null(), "{}", snap["league"]);
        assert_eq!(snap["league"]["retired"]["rows"][0]["bot"], "b1");
        assert!(state.bot_record("b1").unwrap().contains("\"retired\":true"));
        assert!(state.bot_record("nobody").is_none());
        let page = json(&state.league_page("active", "B14", 0).unwrap());
        assert_eq!(page["matched"], 11, "b14 and b140..b149: {page}");
    }

    /// `/bot` gives each series' round, that of a series still being
    /// played too: with `league.csv` read before its round was written
    /// (it is read again at most once a second), the round of the course
    /// (the record said `null`).
    #[test]
    fn a_bots_record_gives_the_round_of_a_series_still_being_played() {
        let t0 = Instant::now();
        let dir = tempfile::tempdir().unwrap();
        let bots: Vec<String> = (0..4).map(|i| format!("b{i}")).collect();
        let mut state = LiveState::new(league_setup(bots.clone(), dir.path()), t0);
        // The pairings of the round paired last: series, South of game 1,
        // North of game 1.
        let paired = |state: &LiveState| -> Vec<(u64, String, String)> {
            let league = state.course.as_ref().unwrap().plan().league().unwrap();
            league
                .pairings
                .iter()
                .filter_map(|p| {
                    let north = p.north.as_ref()?.bot;
                    Some((
                        p.series? as u64,
                        bots[p.south.bot].clone(),
                        bots[north].clone(),
                    ))
                })
                .collect()
        };
        let game = |series: u64, game: u32, south: &str, north: &str| GameRow {
            series,
            game,
            south: south.into(),
            north: north.into(),
            result: "south".into(),
            termination: "no-moves".into(),
            ..GameRow::default()
        };
        let rounds_of = |state: &LiveState, bot: &str| -> Vec<(u64, serde_json::Value)> {
            let record = json(&state.bot_record(bot).unwrap());
            record["series"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| (s["series"].as_u64().unwrap(), s["round"].clone()))
                .collect()
        };
        let first = paired(&state);
        assert_eq!(first.len(), 2, "4 bots: two series a round");
        // league.csv with round 1, as the run writes it once paired.
        let mut csv = String::from("round,series,south,north,south_elo,south_sd,south_games,north_elo,north_sd,north_games,quality,note\n");
        for (series, south, north) in &first {
            csv.push_str(&format!(
                "1,{series},{south},{north},0.0,350.0,0,0.0,350.0,0,0.5,\n"
            ));
        }
        std::fs::write(dir.path().join(html::LEAGUE_FILE), csv).unwrap();
        state.tick(t0 + REFIT_EVERY);
        assert_eq!(state.league.as_ref().unwrap().trends.last_round, 1);
        let (s1, south, north) = first[0].clone();
        state.add_row(game(s1, 1, &south, &north));
        assert_eq!(rounds_of(&state, &south), [(s1, 1.into())]);
        // Round 1 played out: round 2 is paired, its first game ends
        // before league.csv is read again.
        state.add_row(game(s1, 2, &north, &south));
        let (s2, south2, north2) = first[1].clone();
        state.add_row(game(s2, 1, &south2, &north2));
        state.add_row(game(s2, 2, &north2, &south2));
        let second = paired(&state);
        let (s3, south3, north3) = second
            .iter()
            .find(|p| p.1 == south || p.2 == south)
            .cloned()
            .unwrap();
        assert!(s3 > s2, "round 2's series come after round 1's");
        state.add_row(game(s3, 1, &south3, &north3));
        assert_eq!(
            rounds_of(&state, &south),
            [(s3, 2.into()), (s1, 1.into())],
            "latest first"
        );
    }

    /// A league of `bots` over 3 rounds, series of one game pair, its
    /// run folder `folder`.
    fn league_setup(bots: Vec<String>, folder: &std::path::Path) -> Setup {
        use crate::format::{Format, LeagueSettings};
        Setup {
            title: "league".into(),
            bots,
            format: Format::League(LeagueSettings {
                rounds: Some(3),
                settle_los: None,
                seed: 1,
                prior_draws: 0.0,
                bootstrap: 10,
                pairing: Default::default(),
                catch_up: crate::format::LEAGUE_CATCH_UP,
            }),
            series_rule: first_to_of_as_many(2),
            folder: Some(folder.to_path_buf()),
            follows: true,
            ..Setup::default()
        }
    }

    /// Series first to `wins` of at most `wins` games.
    fn first_to_of_as_many(wins: u32) -> Option<SeriesRule> {
        Some(SeriesRule {
            first_to: wins,
            max_games: wins,
            sprt: None,
            pair_shard: None,
        })
    }

    /// A knockout of a, b, c whose series are first to 2 of at most 2.
    fn setup_of_two_game_series() -> Setup {
        Setup {
            title: "ko".into(),
            bots: vec!["a".into(), "b".into(), "c".into()],
            format: Format::Knockout {
                seeds: vec![0, 1, 2],
                decider: crate::format::Decider::Seed,
            },
            series_rule: first_to_of_as_many(2),
            follows: true,
            ..Setup::default()
        }
    }
}
