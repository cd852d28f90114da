//! Runs a tournament on tokio: `concurrency` workers, each a thread with
//! its own current-thread runtime (optionally pinned to a core). Every
//! series is a match played on lanes by one loop, [`play_lane`]: a lane
//! has its own two bots and takes the series' game pairs in order, and
//! each game it ends is committed in game order, so a match ends at the
//! same game whatever the number of lanes. A round robin plays each series
//! on one lane (a worker takes the next series when its lane ends); a
//! two-bot match plays its one series on all the workers' lanes. When a
//! series goes on is [`crate::series`]'s to say. Committed games come back
//! to one place, which writes them (group commit) and hands each
//! [`Event`] to the caller; the runner prints nothing.

use std::collections::HashMap;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering};
use std::sync::Arc;

use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use crate::bot::log::LOG_CAP_BYTES;
use crate::bot::{BotLog, BotProcess, StartOptions};
use crate::config::{Config, SprtModelName, TimeControl};
use crate::format::{Plan, Stage};
use crate::output::{CsvRow, GamesCsv, LeagueCsv, LeagueRow, RunFolder};
use crate::referee::{play_watched, stop_seats, GameRecord, GameRules, Seat, Watch};
use crate::schedule::{self, Series};
use crate::series::{self, InOrder, SeriesRule, SeriesState};
use crate::shard::Shard;
use crate::stats::{GameScore, Sprt, SprtModel};

pub use crate::series::{SeriesResult, SprtState, Summary};
pub use roster::{
    league_order, roster_series, with_joined, DoorNote, LeagueDoor, LeagueResumeError,
};

mod roster;

/// Events that may wait for the writer (games not yet on disk, say): the
/// channel's bound, and the most handled per sync of `games.csv`.
const EVENTS_IN_FLIGHT: usize = 64;

/// What happens during a run, in the order it happens.
#[derive(Clone, Debug)]
pub enum Event {
    /// A game ended and its row is safely in `games.csv`.
    Game(GameRecord),
    /// A series ended.
    Series(SeriesResult),
    /// In an SPRT match, a game pair ended: the test's state after it.
    Sprt(SprtState),
    /// A stage begins: its series are played now (a round robin's or
    /// gauntlet's whole schedule, a knockout or Swiss round).
    Stage(Stage),
}

/// Why a run could not go on: the arena's own failures (bot faults are
/// lost games, not errors).
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The endgame tables of `[board] tablebase` could not be read.
    #[error(transparent)]
    Tables(#[from] crate::output::tablebase::LoadError),
    /// `games.csv` (the path) could not be created.
    #[error("cannot create {}", .0.display())]
    CreateGames(PathBuf, #[source] io::Error),
    /// A resumed run's `games.csv` (the path) could not be reopened for
    /// appending.
    #[error("cannot reopen {}", .0.display())]
    ReopenGames(PathBuf, #[source] io::Error),
    /// A resumed run's `games.csv` could not be read.
    #[error(transparent)]
    ReadGames(#[from] crate::output::GamesError),
    /// A resumed run's games do not fit this config.
    #[error(transparent)]
    Resume(#[from] ResumeError),
    /// Games could not be appended to `games.csv` (the path).
    #[error("cannot append to {}", .0.display())]
    AppendGames(PathBuf, #[source] io::Error),
    /// The `transcripts/` folder (the path) could not be created.
    #[error("cannot create {}", .0.display())]
    CreateTranscripts(PathBuf, #[source] io::Error),
    /// A game's transcript could not be written.
    #[error("cannot write {}", path.display())]
    WriteTranscript {
        /// The transcript's file.
        path: PathBuf,
        /// Why.
        #[source]
        source: io::Error,
    },
    /// A bot's log could not be created.
    #[error("cannot create the bot logs")]
    BotLogs(#[source] io::Error),
    /// A worker's runtime could not be built.
    #[error("cannot start a series worker's runtime")]
    WorkerRuntime(#[source] io::Error),
    /// A worker's thread could not be started.
    #[error("cannot start a series worker")]
    WorkerThread(#[source] io::Error),
    /// The wait for the workers failed.
    #[error("cannot wait for the series workers")]
    Join(#[source] tokio::task::JoinError),
    /// A worker panicked.
    #[error("a series worker panicked")]
    WorkerPanicked,
    /// A league's `roster.csv` (the path) could not be written.
    #[error("cannot write {}", .0.display())]
    WriteRoster(PathBuf, #[source] io::Error),
    /// A league's `league.csv` (the path) could not be written.
    #[error("cannot write {}", .0.display())]
    WriteLeague(PathBuf, #[source] io::Error),
}

/// Why an interrupted run's games cannot be resumed with this config.
#[derive(Debug, thiserror::Error)]
pub enum ResumeError {
    /// A game of a series the config does not have.
    #[error("{} has series {series}, which this config does not schedule", file.display())]
    UnknownSeries {
        /// The `games.csv`.
        file: PathBuf,
        /// Its series number.
        series: usize,
    },
    /// A game of another pair of bots than the config's series.
    #[error("{} has a game of {} and {} in series {series}, which this config plays between {} and {}: resume only the run's own folder", file.display(), bots[0], bots[1], pair[0], pair[1])]
    OtherPair {
        /// The `games.csv`.
        file: PathBuf,
        /// The series number.
        series: usize,
        /// The game's bots.
        bots: Box<[String; 2]>,
        /// The config's pair for that series.
        pair: Box<[String; 2]>,
    },
}

/// How a run is carried out, beyond its config.
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// The arena's own executable, to start bots under `arena guard` so
    /// their whole process group dies with the arena; `None` starts them
    /// directly.
    pub guard: Option<PathBuf>,
    /// Keep each game's protocol transcript in `DIR/transcripts/`.
    pub transcripts: bool,
    /// Play only shard `k` of `n` (1-based): the series whose number `s`
    /// has `(s - 1) % n == k - 1`. `None` plays them all.
    pub shard: Option<Shard>,
    /// Resume an interrupted run: append to its `games.csv`, and go on with
    /// each series from the games it already has.
    pub resume: bool,
    /// With `resume`: the games of the run folder's `games.csv` as the
    /// caller already read them ([`crate::output::read_games`]), so that
    /// the file is read once; `None`: the runner reads it itself.
    pub earlier: Option<Arc<crate::output::GamesRead>>,
    /// The bots left out (indices into the config's list; `on_start_failure
    /// = "skip"`): their series are not played, and the others keep their
    /// numbers, so a resume or a shard with another set of bots left out
    /// still agrees on which pair each series is.
    pub skipped: Vec<usize>,
    /// A watcher's feed of what happens inside games (the live view of
    /// `arena run --serve`), written with `try_send` only: a full feed
    /// drops updates and no game waits. `None` watches nothing.
    pub watch: Option<Watch>,
    /// Play exactly these series of a format that pairs round by round,
    /// then stop (a round's share on a cluster: `arena slurm play`); the
    /// rounds before it are the caller's to know. `None`: the whole course.
    pub stage: Option<Stage>,
    /// A league's door: its config read again between rounds for bots
    /// that come and go, its roster in `roster.csv`. `None`: the bots of
    /// the start play to the end.
    pub league: Option<LeagueDoor>,
}

impl RunOptions {
    /// Whether `series` is not played, since one of its bots is left out.
    fn leaves_out(&self, series: &Series) -> bool {
        self.skipped.contains(&series.a) || self.skipped.contains(&series.b)
    }
}

/// The SPRT test of `config`'s `[sprt]`, if any.
#[must_use]
pub fn sprt_of(config: &Config) -> Option<Sprt> {
    config.sprt.map(|s| Sprt {
        elo0: s.elo0,
        elo1: s.elo1,
        alpha: s.alpha,
        beta: s.beta,
        model: match s.model {
            SprtModelName::Logistic => SprtModel::Logistic,
            SprtModelName::Normalized => SprtModel::Normalized,
        },
    })
}

/// The rule that ends each series of `config`: `first_to`, `max_games`,
/// the SPRT test; for one long match split by game pairs, `pair_shard`.
#[must_use]
pub fn series_rule(config: &Config, pair_shard: Option<Shard>) -> SeriesRule {
    SeriesRule {
        first_to: config.tournament.first_to,
        max_games: config.tournament.max_games,
        sprt: sprt_of(config),
        pair_shard,
    }
}

/// The score of game `g` for bot `a` of `series` (bots by name).
fn merged_score(config: &Config, series: Series, g: &crate::output::MergedGame) -> GameScore {
    match &g.winner {
        None => GameScore::Draw,
        Some(w) if *w == config.bots[series.a].name => GameScore::Win,
        Some(_) => GameScore::Loss,
    }
}

/// The whole schedule of `config`'s format if it is static (round robin,
/// gauntlet); empty for a knockout or Swiss, which cannot be merged from
/// shards.
fn static_schedule(config: &Config) -> Vec<Series> {
    config
        .format
        .static_schedule(config.bots.len())
        .unwrap_or_default()
}

/// The summary of merged shards' `games` (bots by name, in schedule
/// order): each series' result, and an SPRT match's test after each game
/// pair, as the run would have counted them.
#[must_use]
pub fn merged_summary(config: &Config, games: &[crate::output::MergedGame]) -> Summary {
    let schedule = static_schedule(config);
    let scores = games.iter().filter_map(|g| {
        let series = *schedule.get(g.series.checked_sub(1)?)?;
        Some((g.series, merged_score(config, series, g)))
    });
    Summary::from_scores(schedule.clone(), series_rule(config, None), scores)
}

/// Which of the merged shards' `games` (bots by name, in schedule order:
/// series, then game) a single run would not have played: those after the
/// game at which the series' rule ([`SeriesState`], without a shard) ended
/// it. A long match split by game pairs plays all its pairs, since no
/// shard sees when a bot reaches `first_to`; the merge cuts it where one
/// run stops. `true` for each game past that end.
///
/// Where a single run stops is only known from every game before it, so
/// this is `None` when some series is cut but a kept game of any series
/// is not the next one of its series (games 1, 2, ... with none missing):
/// a partial merge, which is then not cut at all.
#[must_use]
pub fn past_the_end(config: &Config, games: &[crate::output::MergedGame]) -> Option<Vec<bool>> {
    let schedule = static_schedule(config);
    let rule = series_rule(config, None);
    // Per series: its rule's state and the number of the next kept game.
    let mut states: HashMap<usize, (SeriesState, u32)> = HashMap::new();
    let mut gap = false;
    let past: Vec<bool> = games
        .iter()
        .map(|g| {
            let Some(&series) = g.series.checked_sub(1).and_then(|i| schedule.get(i)) else {
                return false;
            };
            let (state, next) = states
                .entry(g.series)
                .or_insert_with(|| (SeriesState::new(series, rule), 1));
            if state.is_over() {
                return true;
            }
            gap |= g.game != *next;
            *next += 1;
            state.record(merged_score(config, series, g));
            false
        })
        .collect();
    (!gap || !past.contains(&true)).then_some(past)
}

/// What an interrupted run already played, per series number, from its
/// `games.csv` (`file`, named in errors): handed out stage by stage, each
/// series' games checked against the pair the format gives it.
struct Recorded {
    file: PathBuf,
    by_series: HashMap<usize, Vec<crate::output::MergedGame>>,
}

impl Recorded {
    /// The games `recorded` of `file`, grouped by series.
    fn new(file: &Path, recorded: Vec<crate::output::MergedGame>) -> Recorded {
        let mut by_series: HashMap<usize, Vec<_>> = HashMap::new();
        for g in recorded {
            by_series.entry(g.series).or_default().push(g);
        }
        Recorded {
            file: file.to_path_buf(),
            by_series,
        }
    }

    /// The scores (from bot `a`'s side, in order) of the recorded games of
    /// the series `schedule`, taken out of the store.
    ///
    /// # Errors
    /// A series whose games are of another pair of bots.
    fn take(
        &mut self,
        config: &Config,
        schedule: &[Series],
    ) -> Result<HashMap<usize, Vec<GameScore>>, ResumeError> {
        let mut out = HashMap::new();
        for &series in schedule {
            let Some(games) = self.by_series.remove(&series.number) else {
                continue;
            };
            let pair = [&config.bots[series.a].name, &config.bots[series.b].name];
            let mut scores = Vec::with_capacity(games.len());
            for g in games {
                if !(pair.contains(&&g.bots[0])
                    && pair.contains(&&g.bots[1])
                    && g.bots[0] != g.bots[1])
                {
                    return Err(ResumeError::OtherPair {
                        file: self.file.clone(),
                        series: g.series,
                        bots: Box::new(g.bots.clone()),
                        pair: Box::new(pair.map(Clone::clone)),
                    });
                }
                scores.push(merged_score(config, series, &g));
            }
            out.insert(series.number, scores);
        }
        Ok(out)
    }

    /// The scores of the recorded games of `schedule`, as
    /// [`Recorded::take`], when they are all the recorded games: a static
    /// format's whole schedule, a given stage's series.
    ///
    /// # Errors
    /// A series whose games are of another pair of bots, or a recorded
    /// series `schedule` does not have.
    fn take_all(
        &mut self,
        config: &Config,
        schedule: &[Series],
    ) -> Result<HashMap<usize, Vec<GameScore>>, ResumeError> {
        let scores = self.take(config, schedule)?;
        match self.leftover() {
            Some(e) => Err(e),
            None => Ok(scores),
        }
    }

    /// Whether no recorded game is left to hand out: a resumed run has
    /// caught up with the interrupted one (its later rounds were paired
    /// there, and are replayed as they were).
    fn is_empty(&self) -> bool {
        self.by_series.is_empty()
    }

    /// An error for the lowest series left that the tournament never
    /// scheduled, if any.
    fn leftover(&self) -> Option<ResumeError> {
        let series = *self.by_series.keys().min()?;
        Some(ResumeError::UnknownSeries {
            file: self.file.clone(),
            series,
        })
    }
}

/// The most games a run can play: `max_games` for each of its series (a
/// knockout's or Swiss's most), a pair shard's share of them, and a
/// knockout's possible deciders of one game pair each.
#[must_use]
pub fn games_bound(config: &Config, shard: Option<Shard>, skipped: &[usize]) -> u64 {
    let (_, pair_shard) = config.format.shard_schedule(config.bots.len(), shard);
    let series = series_count(config, shard, skipped) as u64;
    let deciders = config.format.max_decider_series() as u64;
    series * u64::from(series_rule(config, pair_shard).bound())
        + deciders * u64::from(SeriesRule::decider().bound())
}

/// How many shards a tournament splits into at most: one per series of
/// the round robin or gauntlet, or, for a two-bot match, one per game
/// pair; 1 for a knockout or Swiss, whose rounds are known only as the
/// games are played (see [`crate::format::Format::is_static`]).
#[must_use]
pub fn split_units(config: &Config) -> usize {
    if !config.format.is_static() {
        return 1;
    }
    match static_schedule(config).len() {
        1 => config.tournament.max_games.div_ceil(2) as usize,
        series => series,
    }
}

/// Why `config`'s tournament cannot be split into shards, if it cannot: a
/// knockout or Swiss pairs each round from the results of the round
/// before, so no shard can know its series before they are played. One
/// line, with the fix; `None` for a round robin or gauntlet.
#[must_use]
pub fn unsplittable(config: &Config) -> Option<String> {
    (!config.format.is_static()).then(|| {
        format!(
            "a {} pairs each round from the results of the round before, so its series are not known before they are played and cannot be split into shards: run it whole (as shard 1/1, or without --shard; concurrency plays a round's series at once), or on Slurm round by round (`arena slurm CONFIG --shards N`)",
            config.format.name()
        )
    })
}

/// The series a run plays between bots that started (`skipped` are the
/// indices of those that did not): a static format's (or its shard's), or
/// the most a knockout (without deciders) or Swiss has.
#[must_use]
pub fn series_count(config: &Config, shard: Option<Shard>, skipped: &[usize]) -> usize {
    let bots = config.bots.len();
    if !config.format.is_static() {
        return config.format.max_series(bots - skipped.len().min(bots));
    }
    let (schedule, _) = config.format.shard_schedule(bots, shard);
    schedule
        .iter()
        .filter(|s| !skipped.contains(&s.a) && !skipped.contains(&s.b))
        .count()
}

/// The most games a run plays at once: one per series (each is played on
/// one lane), except in a two-bot match, played `concurrency` games at once
/// on as many lanes. A knockout or Swiss plays a round's series at once: at
/// most half the bots.
#[must_use]
pub fn games_at_once(config: &Config, shard: Option<Shard>, skipped: &[usize]) -> usize {
    let bots = config.bots.len();
    if !config.format.is_static() {
        return config
            .tournament
            .concurrency
            .min((bots - skipped.len().min(bots)) / 2)
            .max(1);
    }
    let (schedule, _) = config.format.shard_schedule(bots, shard);
    let series = series_count(config, shard, skipped);
    if schedule.len() == 1 && series == 1 {
        config.tournament.concurrency
    } else {
        config.tournament.concurrency.min(series).max(1)
    }
}

/// The time each move needs, with the margin, for a run with more bot
/// processes than cores not to lose games on time to the scheduler alone,
/// ms: below it, the start warns ([`overload_warning`]).
pub const LOADED_MOVE_MS: u64 = 150;

/// The time a move gets under `time`, ms, for the overload warning: the
/// per-move limit, or with a game clock its increment plus a 30th of its
/// base (whichever is less when both are set); `None` with no limit.
#[must_use]
pub fn move_budget_ms(time: &TimeControl) -> Option<u64> {
    let per_move = (time.move_time_ms > 0).then_some(time.move_time_ms);
    let clock = (time.base_time_ms > 0).then(|| time.increment_ms + time.base_time_ms / 30);
    match (per_move, clock) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// The clocks of `bots` whose move gets the least ([`move_budget_ms`]; no
/// limit counts as the most): what the overload warning judges, since the
/// fastest bot is the first to lose on time. `None` for no bots.
#[must_use]
pub fn tightest_time(bots: &[crate::config::BotSpec]) -> Option<TimeControl> {
    bots.iter()
        .map(|b| b.time)
        .min_by_key(|t| move_budget_ms(t).unwrap_or(u64::MAX))
}

/// The warning for a run that plays `games` games at once (2 bot processes
/// each) on `cores` usable cores under `time`, if there are more processes
/// than cores and a move gets less than [`LOADED_MOVE_MS`] with the margin:
/// bots then wait for a core while their clock runs, and even an instant bot
/// can lose on time. One line, with the fix; `None` when either holds.
/// Bots that think only on their own move (most) use one core per game, so
/// this is a warning, not a refusal.
#[must_use]
pub fn overload_warning(games: usize, cores: usize, time: &TimeControl) -> Option<String> {
    let processes = games * 2;
    let budget = move_budget_ms(time)?;
    if processes <= cores || budget + time.margin_ms >= LOADED_MOVE_MS {
        return None;
    }
    Some(format!(
        "warning: {processes} bot processes at once ({}, 2 each) on {}, with {budget} ms a move and a {} ms margin: a bot waiting for a core can lose on time, even an instant one; lower concurrency to {}, or give each move at least {LOADED_MOVE_MS} ms with the margin (move_time_ms + margin_ms; see docs/tournaments.md)",
        crate::output::counted(games, "game", "games"),
        crate::output::counted(cores, "usable core", "usable cores"),
        time.margin_ms,
        (cores / 2).max(1),
    ))
}

/// What this platform does not do of `config`, one line each, for the
/// start of a run ([`crate::platform`]): `affinity = true` without CPU
/// affinity, and `memory_mb` where the kernel does not enforce it.
#[must_use]
pub fn platform_notes(config: &Config) -> Vec<String> {
    let mut notes = Vec::new();
    if config.tournament.affinity && !crate::platform::AFFINITY {
        notes.push(format!("note: {}", crate::platform::NO_AFFINITY));
    }
    if let Some(note) = crate::platform::MEMORY_LIMIT_NOTE {
        if config.bots.iter().any(|b| b.limits.memory_mb > 0) {
            notes.push(format!("note: {note}"));
        }
    }
    notes
}

/// The warning an SPRT match with `first_to` set gets at start: the test,
/// not a bot's wins, ends it (or `max_games`).
#[must_use]
pub fn sprt_note(config: &Config) -> Option<String> {
    (config.sprt.is_some() && config.first_to_set).then(|| {
        format!(
            "warning: [tournament] first_to = {} is not used by an SPRT match, which ends at the test's verdict or max_games = {}; remove first_to",
            config.tournament.first_to, config.tournament.max_games
        )
    })
}

/// What a run with an openings file should be told at its start, one line
/// each: that `plies_min`/`plies_max` are ignored when the config sets them
/// too, and that the book's lines repeat: pair k of every one of `series`
/// series plays line k, cycling within a series of more pairs than lines.
/// Empty without `[openings] file`.
#[must_use]
pub fn openings_notes(config: &Config, series: usize) -> Vec<String> {
    let Some(book) = &config.opening_book else {
        return Vec::new();
    };
    let file = config.openings_file.as_ref().map_or_else(
        || "the openings file".to_string(),
        |f| f.display().to_string(),
    );
    let mut notes = Vec::new();
    if config.opening_plies_set {
        notes.push(format!(
            "warning: [openings] file is set, so plies_min and plies_max are ignored: every game pair opens with a line of {file}; remove them, or remove file for random openings"
        ));
    }
    let lines = book.len();
    let pairs = config.tournament.max_games.div_ceil(2) as usize;
    let repeats = pairs > lines;
    if series > 1 || repeats {
        let mut note = format!(
            "note: {file} has {}: pair k of every series plays line k",
            crate::output::counted(lines, "opening", "openings")
        );
        if series > 1 {
            note.push_str(&format!(", so the {series} series play the same openings"));
        }
        if repeats {
            note.push_str(&format!(
                ", and a series of more than {} (up to {pairs}, max_games = {}) plays them again from the first",
                crate::output::counted(lines, "pair", "pairs"),
                config.tournament.max_games
            ));
        }
        notes.push(note);
    }
    notes
}

/// Plays the whole tournament of `config` into `dir`, stage by stage (a
/// round robin or gauntlet in one, a knockout or Swiss a round at a time:
/// [`Plan`]): `games.csv` gets one synced row per game as it ends;
/// `on_event` sees each stage, game and series. When `cancel` fires, games
/// in progress are abandoned (not recorded), no new game starts, every bot
/// is stopped, and the games played so far are returned.
///
/// # Errors
/// The arena's own failures only (a `games.csv` that cannot be read or
/// written, a resumed run's games that do not fit the config, a worker
/// that cannot start or panicked); bot faults are recorded as lost games.
pub async fn run(
    config: Arc<Config>,
    dir: &RunFolder,
    options: &RunOptions,
    cancel: &CancellationToken,
    mut on_event: impl FnMut(&Event),
) -> Result<Summary, RunError> {
    // The endgame tables, read once and shared by every game.
    let tables = match &config.tablebase {
        Some(dir) => Some(crate::output::tablebase::shared(dir)?),
        None => None,
    };
    let (games, games_csv, mut recorded) =
        open_games(dir, options, tables.clone(), config.adjudicate)?;
    let transcripts = transcripts_folder(dir, options)?;
    let logs = open_logs(&config, dir)?;
    let is_static = config.format.is_static();
    // A static format checks every recorded game before it plays any.
    let mut checked = None;
    if is_static {
        checked = Some(recorded.take_all(&config, &static_schedule(&config))?);
    }
    // A knockout or Swiss pairs only the bots that started.
    let absent: &[usize] = if is_static { &[] } else { &options.skipped };
    let (mut config, mut logs) = (config, logs);
    // A league's bots come and go through its door (its config read again).
    let (mut plan, mut door) = roster::plan(&config, dir, options, absent);
    // A league's `league.csv`, round by round (a given stage is a Slurm
    // task's: the merge writes the file).
    let mut league = LeagueFile::for_plan(&plan, dir, options)?;
    LeagueFile::follow(&mut league, &plan, &config)?;
    let league_whole = plan.league().is_some() && options.stage.is_none();
    let mut out = Committer::new(games, games_csv);
    if options.stage.is_some() {
        // One given stage: every recorded game must be of its series.
        let all = options.stage.as_ref().map(|s| s.series.clone());
        checked = Some(recorded.take_all(&config, &all.unwrap_or_default())?);
    }
    while let Some(stage) = options.stage.clone().or_else(|| plan.next_stage()) {
        if cancel.is_cancelled() {
            break;
        }
        let (schedule, rule) = stage_schedule(&config, options, is_static, &stage);
        let resumed = match checked.take() {
            Some(all) => all,
            None => recorded.take(&config, &schedule)?,
        };
        if let Some(d) = &door {
            d.write(dir, &plan, &config)?;
        }
        on_event(&Event::Stage(stage));
        let shared = Arc::new(Shared {
            config: config.clone(),
            schedule,
            rule,
            next: AtomicUsize::new(0),
            logs: logs.clone(),
            resumed,
            options: options.clone(),
            transcripts: transcripts.clone(),
            tables: tables.clone(),
        });
        let before = out.results.len();
        play_stage(shared, cancel, &mut out, &mut on_event).await?;
        // Between a league's rounds: bots come and go; a round the
        // interrupted run paired (it has games left to replay) is paired
        // again as it was.
        if let Some(d) = door.as_mut().filter(|_| recorded.is_empty()) {
            let mut at = roster::Between {
                config: &mut config,
                logs: &mut logs,
                dir,
                options,
                cancel,
            };
            d.after_round(&mut plan, &mut at).await;
        }
        let took = out.record_stage(&mut plan, before, league_whole);
        LeagueFile::follow(&mut league, &plan, &config)?;
        // A static format is one stage (a shard plays only its part of
        // it); a stage that settled nothing (cancelled) ends the run.
        if is_static || options.stage.is_some() || !took {
            break;
        }
    }
    if !is_static && plan.is_over() {
        if let Some(e) = recorded.leftover() {
            return Err(e.into());
        }
    }
    let not_played = if is_static {
        not_played(&config, options)
    } else {
        Vec::new()
    };
    Ok(out.into_summary(league_whole, not_played))
}

/// The series of a static format's schedule (a shard's part of it) that
/// are not played, since one of their bots is left out.
fn not_played(config: &Config, options: &RunOptions) -> Vec<Series> {
    config
        .format
        .shard_schedule(config.bots.len(), options.shard)
        .0
        .into_iter()
        .filter(|s| options.leaves_out(s))
        .collect()
}

/// `dir`'s `games.csv` opened for the run's games (its path beside it),
/// and the games an interrupted run recorded in it when `options.resume`
/// (as `options.earlier` has them, else read here; checked against
/// `tables` under the run's `adjudicate`:
/// [`crate::output::games::checked_games`]). A resumed run that stopped
/// before its first game has no games.csv yet, or one cut short before
/// its header row (a full disk): it is created afresh.
///
/// # Errors
/// A `games.csv` that cannot be read, reopened or created.
fn open_games(
    dir: &RunFolder,
    options: &RunOptions,
    tables: Option<Arc<endodoi_tablebase::Tables>>,
    adjudicate: crate::config::Adjudicate,
) -> Result<(GamesCsv, PathBuf, Recorded), RunError> {
    let games_csv = dir.games();
    if options.resume && dir.has_games() {
        let read = match &options.earlier {
            Some(read) => read.clone(),
            None => Arc::new(crate::output::read_games(&games_csv)?),
        };
        let games = crate::output::games::checked_games(&games_csv, &read, tables, adjudicate)?;
        let csv = GamesCsv::reopen(dir).map_err(|e| RunError::ReopenGames(games_csv.clone(), e))?;
        let recorded = Recorded::new(&games_csv, games);
        return Ok((csv, games_csv, recorded));
    }
    if options.resume {
        dir.clear_headerless_games()
            .map_err(|e| RunError::CreateGames(games_csv.clone(), e))?;
    }
    let csv = GamesCsv::create(dir).map_err(|e| RunError::CreateGames(games_csv.clone(), e))?;
    let recorded = Recorded::new(&games_csv, Vec::new());
    Ok((csv, games_csv, recorded))
}

/// The folder of the games' transcripts (`DIR/transcripts/`, created) when
/// `options` keeps them.
///
/// # Errors
/// [`RunError::CreateTranscripts`].
fn transcripts_folder(dir: &RunFolder, options: &RunOptions) -> Result<Option<PathBuf>, RunError> {
    let transcripts = options.transcripts.then(|| dir.path.join("transcripts"));
    if let Some(folder) = &transcripts {
        std::fs::create_dir_all(folder)
            .map_err(|e| RunError::CreateTranscripts(folder.clone(), e))?;
    }
    Ok(transcripts)
}

/// One log a bot of `config`, in `dir`'s `logs/` (each capped).
///
/// # Errors
/// [`RunError::BotLogs`].
fn open_logs(config: &Config, dir: &RunFolder) -> Result<Vec<BotLog>, RunError> {
    config
        .bots
        .iter()
        .map(|b| BotLog::open(&dir.bot_log(&b.name), LOG_CAP_BYTES))
        .collect::<Result<_, _>>()
        .map_err(RunError::BotLogs)
}

/// The series `stage` plays and the rule they go by: a static format's
/// schedule (a shard's part of it, its pairs' share when sharded by
/// pairs), or the stage's own series (a decider's rule for a knockout's
/// deciders).
fn stage_schedule(
    config: &Config,
    options: &RunOptions,
    is_static: bool,
    stage: &Stage,
) -> (Vec<Series>, SeriesRule) {
    let (schedule, pair_shard) = if is_static {
        config
            .format
            .shard_schedule(config.bots.len(), options.shard)
    } else {
        (stage.series.clone(), None)
    };
    let rule = if stage.decider {
        SeriesRule::decider()
    } else {
        series_rule(config, pair_shard)
    };
    (schedule, rule)
}

/// A league run's `league.csv` and its path, for errors.
struct LeagueFile {
    csv: LeagueCsv,
    path: PathBuf,
}

impl LeagueFile {
    /// Creates `dir`'s `league.csv`, or opens it to go on with if
    /// `resume` (its whole rounds kept, [`LeagueCsv::resume`]).
    fn create(dir: &RunFolder, resume: bool) -> Result<LeagueFile, RunError> {
        let path = dir.path.join(<LeagueRow as CsvRow>::FILE);
        let opened = if resume {
            LeagueCsv::resume(&path)
        } else {
            LeagueCsv::create(&path)
        };
        match opened {
            Ok(csv) => Ok(LeagueFile { csv, path }),
            Err(e) => Err(RunError::WriteLeague(path, e)),
        }
    }

    /// The `league.csv` of a league `plan` played whole (`None` for another
    /// format, or a given stage: a Slurm task's, whose merge writes the
    /// file), as [`LeagueFile::create`] makes it.
    ///
    /// # Errors
    /// [`RunError::WriteLeague`].
    fn for_plan(
        plan: &Plan,
        dir: &RunFolder,
        options: &RunOptions,
    ) -> Result<Option<LeagueFile>, RunError> {
        match (plan.league(), &options.stage) {
            (Some(_), None) => LeagueFile::create(dir, options.resume).map(Some),
            _ => Ok(None),
        }
    }

    /// Appends `plan`'s last round paired to `file` if it is new (bots
    /// named as `config` names them now: a league's bots only grow).
    fn follow(file: &mut Option<LeagueFile>, plan: &Plan, config: &Config) -> Result<(), RunError> {
        let Some(f) = file else { return Ok(()) };
        let names: Vec<String> = config.bots.iter().map(|b| b.name.clone()).collect();
        f.csv
            .follow(plan, &names)
            .map_err(|e| RunError::WriteLeague(f.path.clone(), e))
    }
}

/// Where the games of a run go: `games.csv` (group commit), and the
/// results and SPRT rows so far (the transcripts are written as each game
/// goes).
struct Committer {
    games: GamesCsv,
    games_csv: PathBuf,
    /// The results (a league run whole's: of the stage being played only).
    results: Vec<SeriesResult>,
    /// The games of every result recorded.
    played: usize,
    sprt: Vec<SprtState>,
}

impl Committer {
    /// A committer of the games to `games` (at `games_csv`, named in
    /// errors), with no result yet.
    fn new(games: GamesCsv, games_csv: PathBuf) -> Committer {
        Committer {
            games,
            games_csv,
            results: Vec::new(),
            played: 0,
            sprt: Vec::new(),
        }
    }

    /// Records the results the stage just played added (from index
    /// `before`) in `plan` and counts their games; a league run whole
    /// (`league_whole`) then drops them, since its summaries read them
    /// again from games.csv, so that its memory stays flat. Whether any of
    /// them settled something in the plan.
    fn record_stage(&mut self, plan: &mut Plan, before: usize, league_whole: bool) -> bool {
        let mut took = false;
        for result in &self.results[before..] {
            took |= plan.record(result);
            self.played += result.wdl.games() as usize;
        }
        if league_whole {
            self.results.clear();
        }
        took
    }

    /// The run's summary: the results kept (in series order), the games
    /// played, the SPRT rows, and the series `not_played` (a bot left out).
    fn into_summary(self, league_whole: bool, not_played: Vec<Series>) -> Summary {
        let mut results = self.results;
        results.sort_by_key(|r| r.series.number);
        Summary {
            series: results,
            results_in_games: league_whole,
            games: self.played,
            sprt: self.sprt,
            // The command knows why a bot did not start, and says so.
            not_started: Vec::new(),
            not_played,
        }
    }
}

/// Plays the series of one stage (`shared.schedule`, all at once) to their
/// end or until `cancel` fires, committing each game to `out` and handing
/// each event to `on_event`.
async fn play_stage(
    shared: Arc<Shared>,
    cancel: &CancellationToken,
    out: &mut Committer,
    on_event: &mut impl FnMut(&Event),
) -> Result<(), RunError> {
    let config = shared.config.clone();
    let options = &shared.options;
    let (tx, mut rx) = mpsc::channel::<Event>(EVENTS_IN_FLIGHT);
    // The workers stop when the run is cancelled, and when this future ends
    // or is dropped (an error here, a second Ctrl-C).
    let stop = cancel.child_token();
    let _stop_workers = stop.clone().drop_guard();
    // A resumed SPRT match's rows start with those of the games played before.
    if let [series] = shared.schedule.as_slice() {
        if shared.rule.sprt.is_some() {
            out.sprt.extend(shared.state_of(*series).1);
        }
    }
    // A stage of one series (a two-bot match, a shard of its pairs, a
    // knockout's final) plays `concurrency` games at once, one per lane;
    // otherwise that many series play at once, each on one lane.
    let one_match = match shared.schedule.as_slice() {
        [series] if config.tournament.concurrency > 1 && !options.leaves_out(series) => {
            let state = shared.state_of(*series).0;
            let lanes = config.tournament.concurrency;
            Some(Arc::new(Match::new(
                state,
                lanes,
                false,
                stop.child_token(),
            )))
        }
        _ => None,
    };
    let handles = start_workers(&shared, one_match, &stop, &tx)?;
    drop(tx);
    commit_events(&mut rx, out, on_event).await?;
    // Every worker has dropped its sender: they are ending, if not gone.
    let joined = tokio::task::spawn_blocking(move || {
        handles.into_iter().map(|h| h.join()).collect::<Vec<_>>()
    })
    .await
    .map_err(RunError::Join)?;
    if !joined.iter().all(Result::is_ok) {
        return Err(RunError::WorkerPanicked);
    }
    Ok(())
}

/// Starts the workers of a stage, each a thread with its own
/// current-thread runtime (pinned to a core of its own in turn, with
/// `[tournament] affinity`): one a lane of `one_match` when the stage is
/// one match, else `concurrency` of them (at most one a series), each
/// taking the next series. They send their events on `tx` and stop when
/// `stop` fires.
///
/// # Errors
/// [`RunError::WorkerRuntime`], [`RunError::WorkerThread`].
fn start_workers(
    shared: &Arc<Shared>,
    one_match: Option<Arc<Match>>,
    stop: &CancellationToken,
    tx: &mpsc::Sender<Event>,
) -> Result<Vec<std::thread::JoinHandle<()>>, RunError> {
    let config = &shared.config;
    let cores = if config.tournament.affinity {
        crate::affinity::allowed_cores()
    } else {
        Vec::new()
    };
    let workers = match &one_match {
        Some(_) => config.tournament.concurrency,
        None => config
            .tournament
            .concurrency
            .min(shared.schedule.len())
            .max(1),
    };
    let mut handles = Vec::with_capacity(workers);
    for k in 0..workers {
        // Built here, so that a failure is an error of the run.
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(RunError::WorkerRuntime)?;
        let core = (!cores.is_empty()).then(|| cores[k % cores.len()]);
        let (shared, stop, tx) = (shared.clone(), stop.clone(), tx.clone());
        let one_match = one_match.clone();
        let handle = std::thread::Builder::new()
            .name(format!("series-worker-{k}"))
            .spawn(move || {
                if let Some(core) = core {
                    // Bots started from this thread inherit the pin.
                    let _ = crate::affinity::pin_current_thread(core);
                }
                match one_match {
                    Some(m) => {
                        let prefix = format!("s{}l{}", m.series.number, k + 1);
                        runtime.block_on(play_lane(&shared, &m, &prefix, &tx));
                    }
                    None => runtime.block_on(series_worker(&shared, &stop, &tx)),
                }
            })
            .map_err(RunError::WorkerThread)?;
        handles.push(handle);
    }
    Ok(handles)
}

/// Commits the workers' events from `rx` to `out` until every worker has
/// dropped its sender, handing each to `on_event` once its game's row is
/// on disk. Group commit: the events that came while the last sync ran
/// are handled together, their games written with one write and one sync.
///
/// # Errors
/// [`RunError::AppendGames`], and [`RunError::WriteTranscript`] for a
/// game whose transcript could not be written (it stops the run).
async fn commit_events(
    rx: &mut mpsc::Receiver<Event>,
    out: &mut Committer,
    on_event: &mut impl FnMut(&Event),
) -> Result<(), RunError> {
    let mut batch = Vec::with_capacity(EVENTS_IN_FLIGHT);
    while rx.recv_many(&mut batch, EVENTS_IN_FLIGHT).await > 0 {
        let played = batch.iter().filter_map(|e| match e {
            Event::Game(g) => Some(g),
            _ => None,
        });
        out.games
            .append_all(played)
            .map_err(|e| RunError::AppendGames(out.games_csv.clone(), e))?;
        for event in batch.drain(..) {
            match &event {
                Event::Game(g) => {
                    // Written as the game went; a failed write stops the run.
                    if let Some(failed) = &g.transcript_failed {
                        return Err(RunError::WriteTranscript {
                            path: failed.path.clone(),
                            source: io::Error::other(failed.why.clone()),
                        });
                    }
                }
                Event::Series(s) => out.results.push(s.clone()),
                Event::Sprt(s) => out.sprt.push(s.clone()),
                Event::Stage(_) => {}
            }
            on_event(&event);
        }
    }
    Ok(())
}

/// What the workers of a stage share: its series, and the index of the
/// next one to play (taken in order).
struct Shared {
    config: Arc<Config>,
    schedule: Vec<Series>,
    rule: SeriesRule,
    next: AtomicUsize,
    logs: Vec<BotLog>,
    /// An interrupted run's games, per series.
    resumed: HashMap<usize, Vec<GameScore>>,
    options: RunOptions,
    /// The folder of the games' transcripts, when they are kept.
    transcripts: Option<PathBuf>,
    /// The endgame tables of `[board] tablebase`, if adjudicating by them.
    tables: Option<Arc<endodoi_tablebase::Tables>>,
}

impl Shared {
    /// Where `series` starts: its state after the games an interrupted run
    /// played of it, and an SPRT test's rows for them.
    fn state_of(&self, series: Series) -> (SeriesState, Vec<SprtState>) {
        let scores = self.resumed.get(&series.number).into_iter().flatten();
        SeriesState::replay(series, self.rule, scores.copied())
    }

    /// The two seats of `series`, `[a, b]`, their bots not yet started;
    /// their log lines start with `prefix`.
    fn seats(&self, series: Series, prefix: &str) -> [Seat; 2] {
        let seat = |i: usize| Seat {
            spec: self.config.bots[i].clone(),
            process: None,
            log: self.logs[i].clone(),
            log_prefix: prefix.to_string(),
            guard: self.options.guard.clone(),
            transcripts: self.transcripts.clone(),
        };
        [seat(series.a), seat(series.b)]
    }
}

/// One worker of a round robin: on its own thread and current-thread
/// runtime (a game's round trips then never hop between threads), it takes
/// the next series of the schedule and plays it on one lane, until none is
/// left or `stop` fires.
async fn series_worker(shared: &Shared, stop: &CancellationToken, tx: &mpsc::Sender<Event>) {
    while !stop.is_cancelled() && !tx.is_closed() {
        let next = shared.next.fetch_add(1, Ordering::Relaxed);
        let Some(&series) = shared.schedule.get(next) else {
            return;
        };
        let state = shared.state_of(series).0;
        let left_out = shared.options.leaves_out(&series);
        let m = Match::new(state, 1, left_out, stop.child_token());
        play_lane(shared, &m, &format!("s{}", series.number), tx).await;
    }
}

/// A series being played on one or more lanes: its state, the next pair to
/// hand out, and the games that ended before their turn.
struct Match {
    series: Series,
    rule: SeriesRule,
    /// Games an interrupted run already played (the first of its pairs' games).
    played: u32,
    /// The index of the next pair to hand out (this shard's pairs, from 0).
    next_pair: AtomicU32,
    /// Fired when the series is over (or the run cancelled): lanes abandon
    /// their games and stop.
    stop: CancellationToken,
    /// Lanes still playing; the last to end sends the series' result.
    lanes: AtomicUsize,
    commit: tokio::sync::Mutex<Commit>,
}

/// A match's committed games and those waiting for their turn (by index).
struct Commit {
    state: SeriesState,
    waiting: InOrder<GameRecord>,
}

impl Match {
    /// The match of `state`'s series, from where `state` is, played on
    /// `lanes` lanes and stopped with `stop`; none of its games is played
    /// if it is over (an interrupted run finished it) or `left_out` (a bot
    /// did not start): `stop` fires before any lane starts its bots.
    fn new(state: SeriesState, lanes: usize, left_out: bool, stop: CancellationToken) -> Match {
        if left_out || state.is_over() {
            stop.cancel();
        }
        let played = state.played();
        Match {
            series: state.series(),
            rule: *state.rule(),
            played,
            next_pair: AtomicU32::new(played / 2),
            stop,
            lanes: AtomicUsize::new(lanes),
            commit: tokio::sync::Mutex::new(Commit {
                state,
                waiting: InOrder::new(played),
            }),
        }
    }

    /// The games of pair `index` still to play: each game's index (in
    /// commit order) and number; none past the end.
    fn games(&self, index: u32) -> impl Iterator<Item = (u32, u32)> + '_ {
        ((2 * index).max(self.played)..=2 * index + 1)
            .filter_map(move |i| self.rule.game(i).map(|g| (i, g)))
    }

    /// Takes the next pair to play (its index), if any is left and the
    /// match goes on.
    fn take(&self) -> Option<u32> {
        let index = self.next_pair.fetch_add(1, Ordering::Relaxed);
        (!self.stop.is_cancelled() && self.games(index).next().is_some()).then_some(index)
    }

    /// Commits game `index`, `record`: once every game before it is, it and
    /// those waiting after it go to `tx`, with an SPRT match's state after
    /// each pair; once the series is over, `stop` fires and later games are
    /// dropped. Returns whether the lane goes on.
    async fn commit(&self, index: u32, record: GameRecord, tx: &mpsc::Sender<Event>) -> bool {
        let mut commit = self.commit.lock().await;
        let Commit { state, waiting } = &mut *commit;
        if !state.is_over() {
            waiting.push(index, record);
        }
        while !state.is_over() {
            let Some(record) = waiting.pop() else {
                break;
            };
            let sprt = state.record(series::score(self.series, record.game, record.winner));
            let sent = tx.send(Event::Game(record)).await.is_ok()
                && match sprt {
                    Some(s) => tx.send(Event::Sprt(s)).await.is_ok(),
                    None => true,
                };
            if !sent {
                // The run is being torn down.
                self.stop.cancel();
                return false;
            }
        }
        if state.is_over() {
            waiting.clear();
            self.stop.cancel();
            return false;
        }
        true
    }
}

/// One lane of match `m`, the one loop that plays series: takes pairs and
/// plays them with its own two bots (started at its first game, their log
/// lines starting with `prefix`, stopped at the end), committing each game
/// as it ends. A game cut short by `m.stop` is not recorded. The last lane
/// of the match to end sends the series' result.
async fn play_lane(shared: &Shared, m: &Match, prefix: &str, tx: &mpsc::Sender<Event>) {
    let config = &shared.config;
    let mut seats = shared.seats(m.series, prefix);
    'pairs: while let Some(pair) = m.take() {
        // A pair handed out has a game, so its number fits.
        let opening = opening_of(config, m.series, m.rule.pair(pair) as u32);
        for (index, game) in m.games(pair) {
            let Some(record) =
                play_series_game(shared, m.series, &mut seats, &opening, game, &m.stop).await
            else {
                break 'pairs; // Stopped: the unfinished game is not recorded.
            };
            if !m.commit(index, record, tx).await {
                break 'pairs;
            }
        }
    }
    stop_seats(seats).await;
    if m.lanes.fetch_sub(1, Ordering::AcqRel) == 1 {
        if let Some(result) = m.commit.lock().await.state.result() {
            let _ = tx.send(Event::Series(result)).await;
        }
    }
}

/// Plays game `game` of `series` from `opening` between `seats` (`[a, b]`),
/// each on its side of that game; `None` if `cancel` fired first.
async fn play_series_game(
    shared: &Shared,
    series: Series,
    seats: &mut [Seat; 2],
    opening: &[endodoi::Move],
    game: u32,
    cancel: &CancellationToken,
) -> Option<GameRecord> {
    let [sa, sb] = seats;
    let in_order = if series.south(game) == series.a {
        [sa, sb]
    } else {
        [sb, sa]
    };
    let config = &shared.config;
    play_watched(
        GameRules {
            rules: config.rules,
            adjudicate: config.adjudicate,
            tables: shared.tables.clone(),
        },
        in_order,
        opening,
        (series.number, game),
        cancel,
        shared.options.watch.as_ref(),
    )
    .await
}

/// The opening of game pair `pair` (from 1) of `series`: from the book, or
/// drawn from the seed.
fn opening_of(config: &Config, series: Series, pair: u32) -> Vec<endodoi::Move> {
    match &config.opening_book {
        Some(book) => book[(pair as usize - 1) % book.len()].clone(),
        None => schedule::opening(
            &config.rules,
            config.tournament.seed,
            series.number,
            pair,
            config.opening_plies.clone(),
        ),
    }
}

/// What the start-up check ([`check_bots`]) found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StartChecks {
    /// Per bot, in the config's order: `None` if it started, or why it did
    /// not (with the last lines it wrote to stderr in this check, if any: a
    /// usage error, a traceback).
    pub failures: Vec<Option<String>>,
    /// Warnings for bots that started but do something a bot author should
    /// fix (a second `hello` reply), each naming the bot: for stderr.
    pub notes: Vec<String>,
    /// Per bot, in the config's order: the options the config sets that the
    /// bot's `hello` reply does not list (empty when it lists no options:
    /// then nothing is known).
    pub unlisted: Vec<Vec<String>>,
}

/// Starts every bot once, runs its handshake and stops it: the check made
/// before any game, so a bot that cannot start is reported at once, and a
/// bot that answers `hello` twice (it sends a reply before it is asked) is
/// named in [`StartChecks::notes`].
/// Bots in `options.skipped` (left out before the check: not in a
/// resumed league) are not started and count as started.
pub async fn check_bots(config: &Config, dir: &RunFolder, options: &RunOptions) -> StartChecks {
    let checks = config.bots.iter().enumerate().map(|(i, spec)| async move {
        if options.skipped.contains(&i) {
            return (None, Vec::new(), Vec::new());
        }
        check_bot(spec, dir, options).await
    });
    let mut all = StartChecks::default();
    for (failure, notes, unlisted) in futures::future::join_all(checks).await {
        all.failures.push(failure);
        all.notes.extend(notes);
        all.unlisted.push(unlisted);
    }
    all
}

/// The start-up check of one bot ([`check_bots`]): `None` if it started,
/// or why not; the notes for its author; and the options the config sets
/// that its `hello` reply does not list.
pub(crate) async fn check_bot(
    spec: &crate::config::BotSpec,
    dir: &RunFolder,
    options: &RunOptions,
) -> (Option<String>, Vec<String>, Vec<String>) {
    let startup = std::time::Duration::from_millis(spec.time.startup_ms);
    let log =
        BotLog::open(&dir.bot_log(&spec.name), LOG_CAP_BYTES).unwrap_or_else(|_| BotLog::none());
    let start = StartOptions {
        startup,
        guard: options.guard.as_deref(),
        log,
        log_prefix: "check".into(),
        transcript: None,
    };
    match BotProcess::start(spec, start).await {
        Ok(p) => {
            let unlisted = crate::bot::unlisted_options(p.listed_options.as_deref(), &spec.options);
            let options = (!unlisted.is_empty()).then(|| {
                // Bot text: valid names only (the codec), escaped all the same.
                let listed = p
                    .listed_options
                    .as_deref()
                    .unwrap_or_default()
                    .iter()
                    .map(|n| endodoi_protocol::shown(n))
                    .collect::<Vec<_>>()
                    .join(", ");
                format!(
                    "bot '{}': the config sets option{} {}, which the bot does not list in its hello reply (it lists {}): check the name, or the bot ignores it",
                    spec.name,
                    if unlisted.len() == 1 { "" } else { "s" },
                    unlisted.join(", "),
                    if listed.is_empty() { "none" } else { &listed },
                )
            });
            let note = p.shutdown(true).await.second_hello_note();
            let notes = note
                .map(|n| format!("bot '{}' {n}", spec.name))
                .into_iter()
                .chain(options)
                .collect::<Vec<_>>();
            (
                None,
                notes,
                unlisted.into_iter().map(str::to_string).collect(),
            )
        }
        Err(f) => (
            Some(match dir.bot_stderr_tail(&spec.name, "check", 3) {
                Some(said) => format!("{f} (its stderr: {said})"),
                None => f.to_string(),
            }),
            Vec::new(),
            Vec::new(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn affinity_where_the_platform_has_none_is_a_note() {
        let bots = crate::config::test_bots(&["a", "b"]);
        let config = crate::config::test_config(&format!("[tournament]\naffinity = true\n{bots}"));
        let notes = platform_notes(&config);
        let noted = notes
            .iter()
            .any(|n| n.contains(crate::platform::NO_AFFINITY));
        assert_eq!(noted, !crate::platform::AFFINITY, "{notes:?}");
    }

    #[test]
    fn past_the_end_cuts_a_series_after_its_end_unless_a_game_before_it_is_missing() {
        let bots = crate::config::test_bots(&["a", "b"]);
        let config = crate::config::test_config(&format!(
            "[tournament]\nfirst_to = 1\nmax_games = 6\n{bots}"
        ));
        let game = |game: u32, winner: Option<&str>| crate::output::MergedGame {
            series: 1,
            game,
            bots: ["a".to_string(), "b".to_string()],
            winner: winner.map(String::from),
        };
        // a's first win ends the series: games 3 and 4 are past its end.
        let whole = [
            game(1, None),
            game(2, Some("a")),
            game(3, None),
            game(4, None),
        ];
        assert_eq!(
            past_the_end(&config, &whole),
            Some(vec![false, false, true, true])
        );
        // Game 1 missing: where a single run stops is not known.
        assert_eq!(past_the_end(&config, &whole[1..]), None);
        // Nothing past an end: nothing to cut, missing games or not.
        assert_eq!(
            past_the_end(&config, &[game(2, None), game(3, None)]),
            Some(vec![false, false])
        );
    }

    /// A run folder resumed from `earlier` (a game pair greedy won: a demo
    /// game and a forfeit; series 1 of 2 games over) while the folder's
    /// games.csv holds its header only; its bots cannot start.
    fn resumed_from(earlier: bool) -> (Result<Summary, RunError>, String) {
        const HEAD: &str = "series,game,pair,opening,south,north,holes,seeds,max_laps,max_plies,moves,plies,south_seeds,north_seeds,result,termination,detail,duration_ms\n";
        const GAME: &str = "1,1,1,4 2 2 6,greedy,first,8,4,100000,1000,4 2 2 6 4 1 7 1 5 2 1 1 5 5 1 6 7 1,18,38,26,south,no-moves,,608\n1,2,1,4 2 2 6,first,greedy,8,4,100000,1000,4 2 2 6,4,0,7,north,timeout,south (first) no reply,5\n";
        let tmp = tempfile::tempdir().unwrap();
        let read = tmp.path().join("read.csv");
        std::fs::write(&read, format!("{HEAD}{GAME}")).unwrap();
        let dir = RunFolder::create(&tmp.path().join("run")).unwrap();
        std::fs::write(dir.games(), HEAD).unwrap();
        let bots = crate::config::test_bots(&["greedy", "first"]);
        let text = format!(
            "[board]\nholes = 8\nseeds = 4\n[tournament]\nfirst_to = 1\nmax_games = 2\n{bots}"
        );
        let config = crate::config::test_config(&text);
        let options = RunOptions {
            resume: true,
            earlier: earlier.then(|| Arc::new(crate::output::read_games(&read).unwrap())),
            ..RunOptions::default()
        };
        let runtime = tokio::runtime::Runtime::new().unwrap();
        let cancel = CancellationToken::new();
        let summary = runtime.block_on(run(Arc::new(config), &dir, &options, &cancel, |_| {}));
        (summary, std::fs::read_to_string(dir.games()).unwrap())
    }

    #[test]
    fn a_resume_goes_on_from_the_games_its_caller_read_without_reading_games_csv_again() {
        let (summary, games_csv) = resumed_from(true);
        let summary = summary.unwrap();
        // The series is over with the game read: no bot started, no row
        // written, and the result is that game's.
        assert_eq!(games_csv.lines().count(), 1, "{games_csv}");
        assert_eq!(summary.games, 2);
        assert_eq!(summary.series.len(), 1);
        assert_eq!(summary.series[0].winner(), Some(0));
        // Without the caller's games, the runner reads the file, finds no
        // game, and plays the series (its bots forfeit, not starting).
        let (summary, games_csv) = resumed_from(false);
        assert!(summary.unwrap().games >= 1);
        assert!(games_csv.lines().count() > 1, "{games_csv}");
    }

    #[test]
    fn a_games_csv_that_cannot_be_written_is_named_with_its_folder() {
        let path = PathBuf::from("results/run-1/games.csv");
        for e in [
            RunError::CreateGames(path.clone(), io::Error::other("disk full")),
            RunError::ReopenGames(path.clone(), io::Error::other("disk full")),
            RunError::AppendGames(path.clone(), io::Error::other("disk full")),
        ] {
            assert!(e.to_string().ends_with(" results/run-1/games.csv"), "{e}");
        }
    }

    fn time(
        move_time_ms: u64,
        base_time_ms: u64,
        increment_ms: u64,
        margin_ms: u64,
    ) -> TimeControl {
        TimeControl {
            move_time_ms,
            base_time_ms,
            increment_ms,
            margin_ms,
            startup_ms: 5000,
        }
    }

    #[test]
    fn the_overload_warning_needs_more_processes_than_cores_and_a_tight_clock() {
        let tight = time(20, 0, 0, 50);
        // 4 games, 8 processes, on 2 cores at 20 ms a move: the case seen.
        let w = overload_warning(4, 2, &tight).unwrap();
        assert!(
            w.starts_with("warning: 8 bot processes at once (4 games, 2 each) on 2 usable cores, with 20 ms a move and a 50 ms margin:"),
            "{w}"
        );
        assert!(w.contains("lower concurrency to 1"), "{w}");
        // As many processes as cores: no warning, however tight.
        assert_eq!(overload_warning(1, 2, &tight), None);
        assert_eq!(overload_warning(4, 8, &tight), None);
        // 5 processes on 4 cores is one too many.
        assert!(overload_warning(3, 5, &tight).is_some());
        // Enough time with the margin: 100 + 50 reaches the 150 ms needed.
        assert_eq!(overload_warning(4, 2, &time(100, 0, 0, 50)), None);
        assert!(overload_warning(4, 2, &time(99, 0, 0, 50)).is_some());
        assert_eq!(overload_warning(4, 2, &time(20, 0, 0, 130)), None);
        // No limit at all: nothing to lose on time.
        assert_eq!(overload_warning(4, 2, &time(0, 0, 0, 50)), None);
        // A game clock counts as its increment and a 30th of its base.
        assert_eq!(move_budget_ms(&time(0, 3000, 10, 50)), Some(110));
        assert_eq!(move_budget_ms(&time(50, 60_000, 0, 50)), Some(50));
        assert!(overload_warning(4, 2, &time(0, 1500, 0, 50)).is_some());
        assert_eq!(overload_warning(4, 2, &time(0, 60_000, 0, 50)), None);
    }

    #[test]
    fn the_overload_warning_judges_the_bot_with_the_least_time() {
        let bot = |t: TimeControl| crate::config::BotSpec::new("x", vec!["x".into()], t);
        let bots = [
            bot(time(1000, 0, 0, 50)),
            bot(time(0, 3000, 10, 50)),
            bot(time(0, 0, 0, 50)),
        ];
        // 110 ms a move (the clock's) is less than 1000, and no limit the most.
        assert_eq!(tightest_time(&bots), Some(time(0, 3000, 10, 50)));
        assert_eq!(tightest_time(&bots[2..]), Some(time(0, 0, 0, 50)));
        assert_eq!(tightest_time(&[]), None);
    }
}
