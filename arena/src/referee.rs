//! One game between two bot processes, refereed by the rules engine.
//!
//! Faults are data: a bot that crashes, times out, or sends a bad or illegal
//! reply loses the game, and the [`GameRecord`] says why. The referee asks one
//! question per ply (`turn`, answered by `move`): one protocol round trip,
//! through [`ply::ply`], the per-ply step `arena play` and `arena check` use
//! too.

pub mod ply;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use endodoi::{Move, Position, Rules, Side};
use endodoi_tablebase::{adjudicate as by_tables, Adjudication, Tables};
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use endodoi_protocol::{shown, write_line, GameOver, NewGame};

use crate::bot::{
    BotLog, BotProcess, Fault, StartOptions, Transcriber, Transcript, TranscriptFailed,
    TRANSCRIPT_CAP_BYTES,
};
use crate::config::{Adjudicate, BotSpec, TimeControl};
use ply::{NewGameFault, PlyClock, PlyFault};

/// How a game ended: by the rules, or by a bot's fault.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameEnd {
    /// The player to move had no legal move; the last mover swept the board.
    NoMoves,
    /// The ply limit was reached; each player took their own row.
    PlyLimit,
    /// Exact adjudication (`[board] adjudicate = "decided"`): the winner
    /// had captured more than half of all seeds, so the referee stopped the
    /// game; the seeds are those captured so far.
    Decided,
    /// Tablebase adjudication (`[board] adjudicate = "tablebase"`): the
    /// endgame tables knew the result of perfect play from the position
    /// within the plies left, so the referee stopped the game; the seeds are
    /// those captured so far plus the forced margin's split of the board.
    Tablebase,
    /// A bot named a hole that is not a legal move.
    IllegalMove,
    /// A bot did not reply in time.
    Timeout,
    /// A bot's process exited or closed its output during the game.
    Crash,
    /// A bot could not be started, or failed its handshake.
    StartFailure,
    /// A bot sent a line that is not the expected message.
    ProtocolError,
}

impl GameEnd {
    /// The `termination` column of `games.csv`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            GameEnd::NoMoves => "no-moves",
            GameEnd::PlyLimit => "ply-limit",
            GameEnd::Decided => "decided",
            GameEnd::Tablebase => "tablebase",
            GameEnd::IllegalMove => "illegal-move",
            GameEnd::Timeout => "timeout",
            GameEnd::Crash => "crash",
            GameEnd::StartFailure => "start-failure",
            GameEnd::ProtocolError => "protocol-error",
        }
    }

    /// Whether the game ended by a bot's fault (a forfeit).
    #[must_use]
    pub const fn is_forfeit(self) -> bool {
        !matches!(
            self,
            GameEnd::NoMoves | GameEnd::PlyLimit | GameEnd::Decided | GameEnd::Tablebase
        )
    }

    /// All ends, those without a fault first.
    pub const ALL: [GameEnd; 9] = [
        GameEnd::NoMoves,
        GameEnd::PlyLimit,
        GameEnd::Decided,
        GameEnd::Tablebase,
        GameEnd::IllegalMove,
        GameEnd::Timeout,
        GameEnd::Crash,
        GameEnd::ProtocolError,
        GameEnd::StartFailure,
    ];

    /// The end a bot's fault makes.
    #[must_use]
    pub fn from_fault(fault: &Fault) -> GameEnd {
        match fault {
            Fault::Start(_) => GameEnd::StartFailure,
            Fault::Timeout { .. } => GameEnd::Timeout,
            Fault::Crash(_) => GameEnd::Crash,
            Fault::Protocol(_) => GameEnd::ProtocolError,
        }
    }
}

impl std::fmt::Display for GameEnd {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The record of one finished game: one row of `games.csv`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The series' number, from 1.
    pub series: usize,
    /// The game's number within its series, from 1.
    pub game: u32,
    /// The bots' config names: South's, then North's.
    pub bots: [String; 2],
    /// The rules the game was played under.
    pub rules: Rules,
    /// Every legal ply played, as own-perspective hole numbers, space separated, South first.
    pub moves: String,
    /// The number of plies in `moves`.
    pub plies: u32,
    /// Final seeds of South and North; for a forfeit or a decided game, the
    /// seeds captured so far.
    pub seeds: [u32; 2],
    /// The winner, or `None` for a draw.
    pub winner: Option<Side>,
    /// How the game ended.
    pub end: GameEnd,
    /// For a forfeit, who faulted and how, with the offending line; else empty.
    pub detail: String,
    /// Wall time from the first `newgame` to the end, ms.
    pub duration_ms: u64,
    /// The game's transcript, when transcripts were asked for and its
    /// file could not be written (the run stops on it).
    pub transcript_failed: Option<TranscriptFailed>,
    /// The opening plies the referee played before the bots took over, as
    /// in `moves` (which starts with them).
    pub opening: String,
}

#[cfg(test)]
impl GameRecord {
    /// For unit tests: game `game` of `series` between `bots` (South,
    /// North) on 2x8 with 4 seeds, 10 plies to 40-24 seeds, won by
    /// `winner` (`None`: a draw), ended by `end`, with no moves or detail.
    pub(crate) fn for_test(
        series: usize,
        game: u32,
        bots: [&str; 2],
        winner: Option<Side>,
        end: GameEnd,
    ) -> GameRecord {
        GameRecord {
            series,
            game,
            bots: bots.map(String::from),
            rules: Rules::new(8, 4).unwrap(),
            moves: String::new(),
            plies: 10,
            seeds: [40, 24],
            winner,
            end,
            detail: String::new(),
            duration_ms: 1,
            transcript_failed: None,
            opening: String::new(),
        }
    }
}

impl From<&GameRecord> for crate::output::GameRow {
    /// The game's row of `games.csv`.
    fn from(g: &GameRecord) -> crate::output::GameRow {
        crate::output::GameRow {
            series: g.series as u64,
            game: g.game,
            pair: g.game.div_ceil(2),
            opening: g.opening.clone(),
            south: g.bots[0].clone(),
            north: g.bots[1].clone(),
            holes: g.rules.holes().to_string(),
            seeds: g.rules.seeds().to_string(),
            max_laps: g.rules.max_laps().to_string(),
            max_plies: g.rules.max_plies().to_string(),
            moves: g.moves.clone(),
            plies: g.plies,
            south_seeds: g.seeds[0].to_string(),
            north_seeds: g.seeds[1].to_string(),
            result: g.winner.map_or("draw", Side::name).to_string(),
            termination: g.end.name().to_string(),
            detail: g.detail.clone(),
            duration_ms: g.duration_ms,
            file: 0,
        }
    }
}

/// One side of a game: the bot's spec, its process (kept across the games of
/// a series; `None` until started or after a fault), and how to start it.
pub struct Seat {
    /// How to start the bot.
    pub spec: BotSpec,
    /// The running process, if any.
    pub process: Option<BotProcess>,
    /// The bot's log, shared by all its processes.
    pub log: BotLog,
    /// What its log lines start with, e.g. `s3` for series 3.
    pub log_prefix: String,
    /// The arena's own executable, to start bots under the guard.
    pub guard: Option<PathBuf>,
    /// The folder of the games' transcripts (`DIR/transcripts`), when
    /// they are kept.
    pub transcripts: Option<PathBuf>,
}

impl Seat {
    /// Starts the bot if it has no process; its lines (the handshake's
    /// too) go to `transcript` from now on.
    async fn ensure_started(
        &mut self,
        startup: Duration,
        transcript: Option<Transcriber>,
    ) -> Result<(), Fault> {
        match &mut self.process {
            Some(p) => p.transcribe_to(transcript),
            None => {
                let options = StartOptions {
                    startup,
                    guard: self.guard.as_deref(),
                    log: self.log.clone(),
                    log_prefix: self.log_prefix.clone(),
                    transcript,
                };
                self.process = Some(BotProcess::start(&self.spec, options).await?);
            }
        }
        Ok(())
    }

    /// Stops the bot after a fault, so the next game starts a fresh process
    /// and no late reply can be read as the answer to a later request.
    async fn restart_later(&mut self, fault: &str) {
        if let Some(p) = self.process.take() {
            p.note(&format!("fault: {fault}; stopping the process"));
            p.shutdown(false).await;
        }
    }
}

/// The file name of a game's transcript: `series-0001-game-001.txt`.
#[must_use]
pub fn transcript_name(series: usize, game: u32) -> String {
    format!("series-{series:04}-game-{game:03}.txt")
}

/// Game `game` of series `series`'s transcript, in `dir` if transcripts
/// are kept ([`TRANSCRIPT_CAP_BYTES`] for each bot).
fn open_transcript(
    dir: Option<&Path>,
    (series, game): (usize, u32),
) -> Result<Option<Transcript>, TranscriptFailed> {
    dir.map(|dir| {
        Transcript::create(
            &dir.join(transcript_name(series, game)),
            TRANSCRIPT_CAP_BYTES,
        )
    })
    .transpose()
}

/// Ends a game's transcript: the bots' lines stop going to it (what they
/// send between games goes to the next game's), and the file is finished.
fn end_transcript(
    transcript: Option<Transcript>,
    seats: &mut [&mut Seat; 2],
) -> Result<(), TranscriptFailed> {
    for seat in seats.iter_mut() {
        if let Some(p) = seat.process.as_mut() {
            p.transcribe_to(None);
        }
    }
    transcript.map_or(Ok(()), Transcript::finish)
}

/// Stops the bots of `seats` that were started (`quit`, then SIGTERM and
/// SIGKILL after a grace period each), both at once, so stopping them
/// takes one grace period, not two.
pub async fn stop_seats(seats: [Seat; 2]) {
    futures::future::join_all(
        seats
            .into_iter()
            .filter_map(|s| s.process)
            .map(|p| p.shutdown(true)),
    )
    .await;
}

/// What happens inside a game, for watchers (the live view of
/// `arena run --serve`): sent through a [`Watch`], and dropped when the
/// watcher is behind, so a game never waits for one. The position is not
/// sent: a watcher replays the holes with the rules engine from the start
/// and the opening.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WatchEvent {
    /// A game began; its opening is already played.
    GameStarted {
        /// The series' number, from 1.
        series: usize,
        /// The game's number in its series, from 1.
        game: u32,
        /// South's bot.
        south: String,
        /// North's bot.
        north: String,
        /// The rules it is played under.
        rules: Rules,
        /// The opening plies the referee played, as in `games.csv`'s
        /// `moves` (own-perspective holes, space separated).
        opening: String,
        /// South's and North's game clocks, ms; `None` without a clock.
        clocks_ms: Option<[u64; 2]>,
    },
    /// A bot's ply was played.
    Ply {
        /// The series' number.
        series: usize,
        /// The game's number.
        game: u32,
        /// The ply's number in the game (the opening's plies count), from 1.
        ply: u32,
        /// The hole played, in the mover's numbering.
        hole: u8,
        /// South's and North's game clocks after it, ms; `None` without one.
        clocks_ms: Option<[u64; 2]>,
    },
    /// The game ended; its record follows as a runner event.
    GameEnded {
        /// The series' number.
        series: usize,
        /// The game's number.
        game: u32,
    },
    /// The game was cut short (the run stopped, or its series ended on
    /// another lane): it is not recorded.
    Abandoned {
        /// The series' number.
        series: usize,
        /// The game's number.
        game: u32,
    },
}

/// The sending end of a watcher's feed: a bounded channel written only with
/// `try_send`, so a full feed drops the update and the game goes on.
#[derive(Clone, Debug)]
pub struct Watch(tokio::sync::mpsc::Sender<WatchEvent>);

impl Watch {
    /// A feed holding at most `capacity` updates not yet read, and its
    /// receiving end.
    #[must_use]
    pub fn channel(capacity: usize) -> (Watch, tokio::sync::mpsc::Receiver<WatchEvent>) {
        let (tx, rx) = tokio::sync::mpsc::channel(capacity.max(1));
        (Watch(tx), rx)
    }

    /// Hands `event` to the watcher if there is room; drops it otherwise.
    pub fn send(&self, event: WatchEvent) {
        let _ = self.0.try_send(event);
    }
}

/// The rules of a game and whether the referee adjudicates it: what
/// [`play_game`] plays under. `Rules` alone convert to it with
/// adjudication off.
#[derive(Clone, Debug)]
pub struct GameRules {
    /// The board and rule limits.
    pub rules: Rules,
    /// Whether the game ends as soon as its winner is certain
    /// ([`GameEnd::Decided`]) or its result is in the tables
    /// ([`GameEnd::Tablebase`]).
    pub adjudicate: Adjudicate,
    /// The endgame tables of [`Adjudicate::tablebase`], read once per run
    /// and shared by every game; without them that adjudication never ends
    /// a game.
    pub tables: Option<Arc<Tables>>,
}

impl From<Rules> for GameRules {
    fn from(rules: Rules) -> GameRules {
        GameRules {
            rules,
            adjudicate: Adjudicate::OFF,
            tables: None,
        }
    }
}

/// Plays one game between `seats` (`[south, north]`) under `rules`, each
/// bot on its own clocks ([`BotSpec::time`](crate::config::BotSpec::time)),
/// from the position after `opening` (legal plies, played by the referee),
/// as game `game.1` of series `game.0`, and returns its record; `None` if `cancel` fired first (the game is then not
/// recorded, and its bots are left to the caller to stop). Starts bots
/// whose process is `None`.
pub async fn play_game(
    rules: impl Into<GameRules>,
    seats: [&mut Seat; 2],
    opening: &[Move],
    game: (usize, u32),
    cancel: &CancellationToken,
) -> Option<GameRecord> {
    play_watched(rules, seats, opening, game, cancel, None).await
}

/// [`play_game`], telling `watch` (if any) of the game's start, each ply
/// and its end ([`WatchEvent`]); without one nothing per ply changes.
pub async fn play_watched(
    rules: impl Into<GameRules>,
    seats: [&mut Seat; 2],
    opening: &[Move],
    game: (usize, u32),
    cancel: &CancellationToken,
    watch: Option<&Watch>,
) -> Option<GameRecord> {
    let played = tokio::select! {
        biased;
        () = cancel.cancelled() => None,
        record = play(rules.into(), seats, opening, game, watch) => Some(record),
    };
    if let Some(w) = watch {
        let (series, game) = game;
        w.send(match played {
            Some(_) => WatchEvent::GameEnded { series, game },
            None => WatchEvent::Abandoned { series, game },
        });
    }
    played
}

async fn play(
    GameRules {
        rules,
        adjudicate,
        tables,
    }: GameRules,
    mut seats: [&mut Seat; 2],
    opening: &[Move],
    (series, game): (usize, u32),
    watch: Option<&Watch>,
) -> GameRecord {
    let started = Instant::now();
    // The opening is played by the referee; the bots take over after it.
    let mut pos = rules.start();
    // Room for every ply (a hole number and a space each) up front, so no
    // ply allocates; a game past 2048 plies grows it now and then.
    let mut moves = String::with_capacity(3 * rules.max_plies().min(2048) as usize);
    for mv in opening {
        pos.play(*mv).expect("openings are legal");
        if !moves.is_empty() {
            moves.push(' ');
        }
        let _ = write!(moves, "{mv}");
    }
    let opening_text = moves.clone();
    let mut buf = String::new();
    // Each bot's own clocks: a handicap match gives the two different ones.
    let times = [seats[0].spec.time, seats[1].spec.time];
    let startup = times.map(|t| Duration::from_millis(t.startup_ms));
    let (transcript, opened) =
        match open_transcript(seats[0].transcripts.as_deref(), (series, game)) {
            Ok(t) => (t, Ok(())),
            Err(f) => (None, Err(f)),
        };
    let pen = |side: Side| transcript.as_ref().map(|t| t.side(side));
    // Which bots were told of this game: only they hear of its end.
    let mut in_game = [false; 2];
    // How adjudication ended the game, if it did.
    let mut decided = None;

    // Bots not running yet (a series' first game, or after a fault) start
    // at once, not one after the other: a start costs milliseconds.
    let starts = {
        let [south, north] = &mut seats;
        let (s, n) = futures::join!(
            south.ensure_started(startup[0], pen(Side::South)),
            north.ensure_started(startup[1], pen(Side::North))
        );
        [s, n]
    };
    let table = Table {
        rules,
        adjudicate,
        tables: tables.as_deref(),
        times,
        series,
        game,
        watch,
    };
    let forfeit = match open_game(&mut seats, &table, starts, &mut buf, &mut in_game).await {
        Some(foul) => Some(foul),
        None => {
            let last = opening.last().copied();
            play_plies(
                &mut seats,
                &table,
                &mut pos,
                &mut moves,
                &mut buf,
                &mut decided,
                last,
            )
            .await
        }
    };

    let seeds = match (&forfeit, decided) {
        (None, Some(Adjudicated::Tablebase(end))) => end.seeds,
        _ => [pos.captured(Side::South), pos.captured(Side::North)],
    };
    let (end, winner, detail) = ending(&pos, decided, forfeit, &mut seats).await;

    tell_game_over(&mut seats, in_game, &mut buf, winner, seeds, end).await;

    GameRecord {
        series,
        game,
        bots: [seats[0].spec.name.clone(), seats[1].spec.name.clone()],
        rules,
        plies: pos.ply(),
        moves,
        seeds,
        winner,
        end,
        detail,
        duration_ms: started.elapsed().as_millis() as u64,
        transcript_failed: opened.and(end_transcript(transcript, &mut seats)).err(),
        opening: opening_text,
    }
}

/// What a game is played by, fixed for the game.
struct Table<'a> {
    /// The board and rule limits.
    rules: Rules,
    /// Whether the game ends once its result is certain.
    adjudicate: Adjudicate,
    /// The endgame tables of [`Adjudicate::tablebase`].
    tables: Option<&'a Tables>,
    /// Each side's clocks.
    times: [TimeControl; 2],
    /// The series (1-based) and game within it.
    series: usize,
    /// The game within the series.
    game: u32,
    /// Who watches the games as they go.
    watch: Option<&'a Watch>,
}

/// Tells each bot of `seats` that started (`starts`, a fault otherwise)
/// about the new game; `in_game` notes those told. The first foul (a
/// start or a `ready` that failed), with the line the bot sent.
async fn open_game(
    seats: &mut [&mut Seat; 2],
    t: &Table<'_>,
    mut starts: [Result<(), Fault>; 2],
    buf: &mut String,
    in_game: &mut [bool; 2],
) -> Option<(Side, Foul, String)> {
    let startup = t.times.map(|t| Duration::from_millis(t.startup_ms));
    for side in Side::ALL {
        let seat = &mut *seats[side.index()];
        if let Err(f) = std::mem::replace(&mut starts[side.index()], Ok(())) {
            return Some((side, Foul::Fault(f), String::new()));
        }
        let time = &t.times[side.index()];
        let new_game = NewGame {
            rules: t.rules,
            side,
            move_time_ms: time.move_time_ms,
            base_time_ms: time.base_time_ms,
            increment_ms: time.increment_ms,
            game: Some((t.series as u64, u64::from(t.game))),
        };
        let bot = seat.process.as_mut().expect("started");
        let answer = match ply::new_game(bot, buf, &new_game, startup[side.index()]).await {
            Ok(()) => None,
            Err(NewGameFault::Fault(f)) => Some((Foul::Fault(f), String::new())),
            Err(e @ NewGameFault::NotReady { .. }) => {
                let line = e.line().unwrap_or_default().to_string();
                Some((Foul::Fault(Fault::Protocol(e.to_string())), line))
            }
        };
        match answer {
            None => in_game[side.index()] = true,
            Some((foul, line)) => return Some((side, foul, line)),
        }
    }

    None
}

/// Plays the game at `pos` (after its opening, whose last move is `last`)
/// to its end, or to a foul (returned, with the line the bot sent), or to
/// its adjudication (`decided`); each move is added to `moves`.
async fn play_plies(
    seats: &mut [&mut Seat; 2],
    t: &Table<'_>,
    pos: &mut Position,
    moves: &mut String,
    buf: &mut String,
    decided: &mut Option<Adjudicated>,
    mut last: Option<Move>,
) -> Option<(Side, Foul, String)> {
    // Game clocks in ms; a bot may overdraw its clock by at most the
    // margin over the whole game, so a clock at 0 runs out for real.
    // A bot without a game clock (a handicap match) shows 0.
    let mut clock = t.times.map(|t| t.base_time_ms as i64);
    let any_clock = t.times.iter().any(|t| t.base_time_ms > 0);
    let shown_clocks = |clock: &[i64; 2]| any_clock.then(|| clock.map(|c| c.max(0) as u64));
    if let Some(w) = t.watch {
        w.send(WatchEvent::GameStarted {
            series: t.series,
            game: t.game,
            south: seats[0].spec.name.clone(),
            north: seats[1].spec.name.clone(),
            rules: t.rules,
            opening: moves.clone(),
            clocks_ms: shown_clocks(&clock),
        });
    }
    while !pos.is_over() {
        // After every ply (and the opening): a winner already certain
        // ends the game here, with the seeds captured so far.
        *decided = adjudication(pos, t.adjudicate, t.tables);
        if decided.is_some() {
            break;
        }
        let side = pos.to_move();
        let time = &t.times[side.index()];
        let margin = Duration::from_millis(time.margin_ms);
        let mine = clock[side.index()];
        let limit = turn_limit(time, mine.max(0) as u64);
        let grace = if time.base_time_ms > 0 {
            margin.saturating_sub(Duration::from_millis(mine.min(0).unsigned_abs()))
        } else {
            margin
        };
        let clocks = (time.base_time_ms > 0).then(|| {
            [
                mine.max(0) as u64,
                clock[side.opponent().index()].max(0) as u64,
            ]
        });
        let clock_now = PlyClock {
            limit_ms: limit,
            margin: grace,
            clocks,
        };
        let previous = seats[side.opponent().index()]
            .process
            .as_ref()
            .and_then(BotProcess::cgroup);
        let seat = &mut *seats[side.index()];
        let bot = seat.process.as_mut().expect("started");
        bot.hand_over(previous);
        let played = ply::ply(bot, buf, pos, last, clock_now).await;
        let elapsed = match played {
            Ok(played) => {
                let mv = played.details.mv;
                if !moves.is_empty() {
                    moves.push(' ');
                }
                let _ = write!(moves, "{mv}");
                last = Some(mv);
                played.elapsed
            }
            Err(PlyFault::Fault(f)) => return Some((side, Foul::Fault(f), String::new())),
            Err(e @ PlyFault::NotAMove { .. }) => {
                let line = e.line().unwrap_or_default().to_string();
                return Some((side, Foul::Fault(Fault::Protocol(e.to_string())), line));
            }
            Err(e @ PlyFault::Illegal { hole, .. }) => {
                // The move as the engine reads it, whatever the spacing.
                return Some((side, Foul::Illegal(e.to_string()), format!("move {hole}")));
            }
        };
        if time.base_time_ms > 0 {
            let c = &mut clock[side.index()];
            *c = *c - elapsed.as_millis() as i64 + time.increment_ms as i64;
        }
        if let (Some(w), Some(mv)) = (t.watch, last) {
            w.send(WatchEvent::Ply {
                series: t.series,
                game: t.game,
                ply: pos.ply(),
                hole: mv.hole(),
                clocks_ms: shown_clocks(&clock),
            });
        }
    }
    None
}

/// Sends `gameover` to each bot of `seats` that was told of the game
/// (`in_game`); one that cannot take it restarts before its next game.
async fn tell_game_over(
    seats: &mut [&mut Seat; 2],
    in_game: [bool; 2],
    buf: &mut String,
    winner: Option<Side>,
    seeds: [u32; 2],
    end: GameEnd,
) {
    for side in Side::ALL {
        let seat = &mut *seats[side.index()];
        if let (Some(bot), true) = (seat.process.as_mut(), in_game[side.index()]) {
            write_line(buf, &GameOver::new(side, winner, seeds, end.name()));
            let sent = bot.notify(buf, crate::bot::GRACE).await;
            if let Err(f) = sent {
                seat.restart_later(&format!("gameover could not be sent: {f}"))
                    .await;
            }
        }
    }
}

/// How a game ended: its termination, winner and `detail`, from the
/// final position, the winner adjudication `decided` on, or the foul that
/// lost it (a bot that faulted, not merely illegal, is stopped so its next
/// game starts a fresh process).
async fn ending(
    pos: &Position,
    decided: Option<Adjudicated>,
    forfeit: Option<(Side, Foul, String)>,
    seats: &mut [&mut Seat; 2],
) -> (GameEnd, Option<Side>, String) {
    match forfeit {
        None if decided.is_some() => match decided.expect("checked") {
            Adjudicated::Decided(winner) => (GameEnd::Decided, Some(winner), String::new()),
            Adjudicated::Tablebase(end) => (GameEnd::Tablebase, end.winner, end.detail()),
        },
        None => {
            let outcome = pos
                .outcome()
                .expect("the game loop ends only when the game is over");
            let end = match outcome.termination {
                endodoi::Termination::NoMoves => GameEnd::NoMoves,
                endodoi::Termination::PlyLimit => GameEnd::PlyLimit,
            };
            (end, outcome.winner, String::new())
        }
        Some((side, foul, line)) => {
            let (end, why) = match foul {
                Foul::Illegal(why) => (GameEnd::IllegalMove, why),
                Foul::Fault(f) => (GameEnd::from_fault(&f), f.to_string()),
            };
            let seat = &mut *seats[side.index()];
            let mut detail = format!("{side} ({}) {why}", seat.spec.name);
            if !line.is_empty() {
                let _ = write!(detail, "; it sent '{}'", shown(&line));
            }
            if end != GameEnd::IllegalMove {
                seat.restart_later(&detail).await;
            }
            (end, Some(side.opponent()), detail)
        }
    }
}

/// How adjudication ended a game.
#[derive(Clone, Copy, Debug)]
enum Adjudicated {
    /// `decided`: this side has more than half of all seeds.
    Decided(Side),
    /// `tablebase`: the tables' forced end.
    Tablebase(Adjudication),
}

/// Whether `adjudicate` ends the game at `pos` (the start, or after a ply),
/// and how: by `decided` first, so that a position both rules end ends by
/// the rule exact without the tables.
fn adjudication(
    pos: &Position,
    adjudicate: Adjudicate,
    tables: Option<&Tables>,
) -> Option<Adjudicated> {
    let decided = adjudicate
        .decided
        .then(|| pos.decided_winner())
        .flatten()
        .map(Adjudicated::Decided);
    decided.or_else(|| {
        adjudicate
            .tablebase
            .then_some(tables)
            .flatten()
            .and_then(|t| by_tables(t, pos))
            .map(Adjudicated::Tablebase)
    })
}

/// A bot's fault in a game: a process fault, or a legal-looking reply that
/// names an illegal move.
enum Foul {
    Fault(Fault),
    Illegal(String),
}

/// The time a reply may take, ms: the per-move limit or the game clock,
/// whichever is less (a zero setting means none).
fn turn_limit(time: &TimeControl, clock_ms: u64) -> u64 {
    match (time.move_time_ms, time.base_time_ms) {
        (m, 0) => m,
        (0, _) => clock_ms,
        (m, _) => m.min(clock_ms),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turn_limit_takes_the_tighter_clock() {
        let mut t = TimeControl {
            move_time_ms: 1000,
            base_time_ms: 0,
            increment_ms: 0,
            margin_ms: 50,
            startup_ms: 5000,
        };
        assert_eq!(turn_limit(&t, 0), 1000);
        t.base_time_ms = 60_000;
        assert_eq!(turn_limit(&t, 400), 400);
        assert_eq!(turn_limit(&t, 4000), 1000);
        t.move_time_ms = 0;
        assert_eq!(turn_limit(&t, 4000), 4000);
    }

    #[test]
    fn forfeits_are_named_as_in_games_csv() {
        let names: Vec<_> = GameEnd::ALL.iter().map(|e| e.name()).collect();
        assert_eq!(
            names,
            [
                "no-moves",
                "ply-limit",
                "decided",
                "tablebase",
                "illegal-move",
                "timeout",
                "crash",
                "protocol-error",
                "start-failure"
            ]
        );
        assert!(GameEnd::ALL.iter().filter(|e| e.is_forfeit()).count() == 5);
        // The reader's lists of ends are these names.
        let (rules, faults) = names.split_at(4);
        assert_eq!(rules, crate::output::rows::RULE_ENDS);
        assert_eq!(faults, crate::output::rows::FAULT_ENDS);
    }
}
