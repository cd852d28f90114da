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
use std::sync::Arc;
use std::time::{Duration, Instant};

use endodoi::{Move, Position, Side};
use serde::Serialize;

use crate::html::{self, GameRow, LivePage, ReportGames, ReportInput, Sections};
use crate::matchup::{matchup, Matchup};
use crate::referee::WatchEvent;
use crate::runner::Event;
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
    /// The most games the run plays; 0 if unknown.
    pub bound: u64,
    /// The SPRT test of a match, if it has one.
    pub sprt: Option<Sprt>,
    /// The rating options (its bootstrap is cut to [`LIVE_BOOTSTRAP`]).
    pub ratings: RatingOptions,
    /// Whether the view follows a run that goes on (`false`: a folder read
    /// once, whose page needs no event stream).
    pub follows: bool,
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
    bound: u64,
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
}

/// The progress part of `summary` events.
#[derive(Serialize)]
struct SummaryJson<'a> {
    done: u64,
    bound: u64,
    progress: String,
    standings: Vec<StandingJson<'a>>,
    sprt: Option<SprtJson>,
    sections: &'a Sections,
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
}

impl LiveState {
    /// A view of `setup` with no game yet, started at `now`.
    #[must_use]
    pub fn new(setup: Setup, now: Instant) -> LiveState {
        let mut names: Vec<String> = setup.bots.clone();
        names.sort();
        names.dedup();
        let mut state = LiveState {
            tally: Tally::new(names.len()),
            names,
            setup,
            games: ReportGames::new(),
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
        };
        state.refit(now);
        state
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
        self.add(row);
    }

    /// A finished game (a row of `games.csv`, its `file` from 0): counted,
    /// and its board gone. The `ended` update carries the viewer's game.
    pub fn add_row(&mut self, row: GameRow) -> Update {
        self.played_here += 1;
        self.add(row)
    }

    fn add(&mut self, row: GameRow) -> Update {
        let (file, series, game) = (row.file, row.series, row.game);
        let (south, north) = (self.bot(&row.south), self.bot(&row.north));
        self.tally.add(GameResult {
            series: series | ((file as u64) << 40),
            game,
            south,
            north,
            winner: row.winner(),
            forfeit: row.is_forfeit(),
        });
        self.games.add(row, html::VIEWER_BUDGET_BYTES);
        self.done += 1;
        self.dirty = true;
        if let Ok(s) = usize::try_from(series) {
            self.boards.remove(&(s, game));
        }
        let viewer = self
            .game(file + 1, series, game)
            .unwrap_or_else(|| "null".to_string());
        Update::new(
            "ended",
            format!(
                "{{\"file\":{},\"series\":{series},\"game\":{game},\"viewer\":{viewer}}}",
                file + 1
            ),
        )
    }

    /// A runner event: a game's row becomes an `ended` update; series and
    /// SPRT events change nothing here (the SPRT's course is recomputed
    /// from the games, as in the report).
    pub fn event(&mut self, event: &Event) -> Option<Update> {
        match event {
            Event::Game(record) => Some(self.add_row(GameRow::from(record))),
            Event::Series(_) | Event::Sprt(_) => None,
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
        let due = self
            .last_refit
            .is_none_or(|t| now.duration_since(t) >= REFIT_EVERY);
        (self.dirty && due).then(|| {
            self.refit(now);
            self.summary(now)
        })
    }

    /// The run is over: a last refit, its `summary`, and `finished`.
    pub fn finish(&mut self, now: Instant) -> Vec<Update> {
        self.finished = true;
        self.boards.clear();
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
        crate::standings::list_idle_by(&mut table, |i| {
            listed
                .iter()
                .position(|b| *b == names[i])
                .unwrap_or(usize::MAX)
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
        self.sections = html::sections(&self.input());
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
        }
    }

    /// The progress line: games done of the bound, time left.
    #[must_use]
    pub fn progress(&self, now: Instant) -> String {
        let mut line = String::new();
        let done = self.done;
        let bound = self.setup.bound;
        let _ = write!(line, "{done} game{}", if done == 1 { "" } else { "s" });
        if bound > 0 {
            let _ = write!(line, " of at most {bound}");
        }
        if self.finished {
            line.push_str(" · the run is over");
            return line;
        }
        line.push_str(" done");
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
        self.table
            .iter()
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
            bound: self.setup.bound,
            progress: self.progress(now),
            standings: self.standings_json(),
            sprt: self.sprt_json(),
            sections: &self.sections,
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
            bound: self.setup.bound,
            finished: self.finished,
            follows: self.setup.follows,
            progress: self.progress(now),
            bots: &self.names,
            standings: self.standings_json(),
            live: self.boards.iter().map(|(k, b)| board_json(*k, b)).collect(),
            sprt: self.sprt_json(),
            sections: &self.sections,
            viewed,
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
