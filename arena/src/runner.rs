//! Runs a tournament on tokio: `concurrency` series workers, each a thread
//! with its own current-thread runtime (optionally pinned to a core), take
//! the series in schedule order; a series starts its two bots once and
//! plays its games one after another. A two-bot match is played on lanes
//! instead ([`crate::lanes`]). Finished games come back to one place,
//! which writes and counts them.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use anyhow::Context as _;
use tokio::sync::mpsc;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use tokio_util::sync::CancellationToken;

use crate::bot::log::LOG_CAP_BYTES;
use crate::bot::{BotLog, BotProcess, StartOptions};
use crate::config::{Config, SprtModelName};
use crate::lanes::{self, Pairs};
use crate::output::{GamesCsv, RunDir};
use crate::referee::{play_game, stop_seats, GameRecord, Seat};
use crate::schedule::{self, round_robin, Series};
use crate::standings::Wdl;
use crate::stats::{GameScore, Pentanomial, Sprt, SprtModel, SprtStatus};

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
}

/// The state of an SPRT match after a game pair.
#[derive(Clone, Debug, PartialEq)]
pub struct SprtState {
    /// Games played.
    pub games: u32,
    /// Results from the first bot's side.
    pub wdl: Wdl,
    /// Game pairs by the first bot's points (0, 1/2, 1, 3/2, 2).
    pub pentanomial: [u32; 5],
    /// The log-likelihood ratio of the pairs so far.
    pub llr: f64,
    /// The bounds: H0 is accepted at or below the first, H1 at or above the second.
    pub bounds: (f64, f64),
    /// What the test says now.
    pub status: SprtStatus,
}

/// An SPRT match's test, fed game by game: games 1 and 2, 3 and 4, ... are
/// pairs (the same start, sides swapped), scored as a pentanomial.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SprtTrack {
    sprt: Sprt,
    pentanomial: Pentanomial,
    first_of_pair: Option<GameScore>,
}

impl SprtTrack {
    /// The test of `config`'s `[sprt]`, or `None` without one.
    pub(crate) fn new(config: &Config) -> Option<SprtTrack> {
        config.sprt.map(|s| SprtTrack {
            sprt: Sprt {
                elo0: s.elo0,
                elo1: s.elo1,
                alpha: s.alpha,
                beta: s.beta,
                model: match s.model {
                    SprtModelName::Logistic => SprtModel::Logistic,
                    SprtModelName::Normalized => SprtModel::Normalized,
                },
            },
            pentanomial: Pentanomial::default(),
            first_of_pair: None,
        })
    }

    /// The test of `config`'s `[sprt]` fed with the match's recorded games
    /// (series 1, in order), and its state after each of their pairs.
    fn replay(
        config: &Config,
        games: &[crate::output::MergedGame],
    ) -> Option<(SprtTrack, Vec<SprtState>)> {
        let mut track = SprtTrack::new(config)?;
        let mut wdl = Wdl::default();
        let mut states = Vec::new();
        for g in games.iter().filter(|g| g.series == 1) {
            let score = match &g.winner {
                None => GameScore::Draw,
                Some(w) if *w == config.bots[0].name => GameScore::Win,
                Some(_) => GameScore::Loss,
            };
            match score {
                GameScore::Draw => wdl.draws += 1,
                GameScore::Win => wdl.wins += 1,
                GameScore::Loss => wdl.losses += 1,
            }
            states.extend(track.add(wdl.games(), wdl, score));
        }
        Some((track, states))
    }

    /// Counts game `games` (its `score` from the first bot's side; `wdl`
    /// the match so far): the test's state when it completes a pair.
    pub(crate) fn add(&mut self, games: u32, wdl: Wdl, score: GameScore) -> Option<SprtState> {
        let first = match self.first_of_pair.take() {
            None => {
                self.first_of_pair = Some(score);
                return None;
            }
            Some(first) => first,
        };
        self.pentanomial.add_pair(first, score);
        let llr = self.sprt.llr_pentanomial(&self.pentanomial);
        Some(SprtState {
            games,
            wdl,
            pentanomial: self.pentanomial.counts,
            llr,
            bounds: self.sprt.bounds(),
            status: self.sprt.status(llr),
        })
    }
}

impl SprtState {
    /// `continue`, `H0` or `H1`, for the CSV and the log.
    #[must_use]
    pub fn verdict(&self) -> &'static str {
        match self.status {
            SprtStatus::Continue => "continue",
            SprtStatus::AcceptH0 => "H0",
            SprtStatus::AcceptH1 => "H1",
        }
    }
}

/// The result of one series.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeriesResult {
    /// The series.
    pub series: Series,
    /// Results from bot `a`'s side.
    pub wdl: Wdl,
    /// Whether a bot reached `first_to` wins (otherwise `max_games` ended it).
    pub decided: bool,
}

impl SeriesResult {
    /// The index of the bot that took the series, or `None` for a drawn series.
    #[must_use]
    pub fn winner(&self) -> Option<usize> {
        match self.wdl.wins.cmp(&self.wdl.losses) {
            std::cmp::Ordering::Greater => Some(self.series.a),
            std::cmp::Ordering::Less => Some(self.series.b),
            std::cmp::Ordering::Equal => None,
        }
    }
}

/// Everything a finished run produced.
#[derive(Clone, Debug)]
pub struct Summary {
    /// Every series' result, in schedule order.
    pub series: Vec<SeriesResult>,
    /// In an SPRT match, the test's state after each game pair.
    pub sprt: Vec<SprtState>,
}

impl Summary {
    /// The summary of merged shards: each series' result from its games
    /// (bots by name), and an SPRT match's test after each game pair, as
    /// the run would have counted them.
    #[must_use]
    pub fn from_series(config: &Config, games: &[crate::output::MergedGame]) -> Summary {
        let t = &config.tournament;
        // An SPRT match (one series) is tested again over its games, in order.
        let sprt = SprtTrack::replay(config, games).map_or_else(Vec::new, |(_, states)| states);
        // It is decided when its test is, as the run counts it; first_to is not used.
        let sprt_decided = config.sprt.map(|_| {
            sprt.last()
                .is_some_and(|s| s.status != SprtStatus::Continue)
        });
        let series = round_robin(config.bots.len())
            .into_iter()
            .filter_map(|s| {
                let mut wdl = Wdl::default();
                for g in games.iter().filter(|g| g.series == s.number) {
                    match &g.winner {
                        None => wdl.draws += 1,
                        Some(w) if *w == config.bots[s.a].name => wdl.wins += 1,
                        Some(_) => wdl.losses += 1,
                    }
                }
                let decided = sprt_decided.unwrap_or_else(|| wdl.takes_series(t.first_to));
                (wdl.games() > 0).then_some(SeriesResult {
                    series: s,
                    wdl,
                    decided,
                })
            })
            .collect();
        Summary { series, sprt }
    }
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
    pub shard: Option<(usize, usize)>,
    /// Resume an interrupted run: append to its `games.csv`, and go on with
    /// each series from the games it already has.
    pub resume: bool,
    /// The bots left out (indices into the config's list; `on_start_failure
    /// = "skip"`): their series are not played, and the others keep their
    /// numbers, so a resume or a shard with another set of bots left out
    /// still agrees on which pair each series is.
    pub skipped: Vec<usize>,
}

impl RunOptions {
    /// Whether `series` is not played, since one of its bots is left out.
    fn leaves_out(&self, series: &Series) -> bool {
        self.skipped.contains(&series.a) || self.skipped.contains(&series.b)
    }
}

/// What an interrupted run already played: per series, its games so far and
/// their results from bot `a`'s side, rebuilt from `recorded`, the games of
/// `games` (its `games.csv`, named in errors).
///
/// # Errors
/// A series that does not fit the schedule, or that holds another pair.
pub fn progress(
    config: &Config,
    games: &Path,
    recorded: &[crate::output::MergedGame],
) -> anyhow::Result<HashMap<usize, (u32, Wdl)>> {
    let schedule = round_robin(config.bots.len());
    let mut progress: HashMap<usize, (u32, Wdl)> = HashMap::new();
    for g in recorded {
        let series = schedule.get(g.series.wrapping_sub(1)).with_context(|| {
            format!(
                "{} has series {}, which this config does not schedule",
                games.display(),
                g.series
            )
        })?;
        let pair = [&config.bots[series.a].name, &config.bots[series.b].name];
        anyhow::ensure!(
            pair.contains(&&g.bots[0]) && pair.contains(&&g.bots[1]) && g.bots[0] != g.bots[1],
            "{} has a game of {} and {} in series {}, which this config plays between {} and {}: resume only the run's own folder",
            games.display(),
            g.bots[0],
            g.bots[1],
            g.series,
            pair[0],
            pair[1]
        );
        let (played, wdl) = progress.entry(g.series).or_default();
        *played += 1;
        match &g.winner {
            None => wdl.draws += 1,
            Some(w) if *w == config.bots[series.a].name => wdl.wins += 1,
            Some(_) => wdl.losses += 1,
        }
    }
    Ok(progress)
}

/// The series a run plays: all of the round robin, or a shard's share.
/// One long match (a single series) is split by game pairs instead, and
/// then the shard is returned as the pair shard.
#[must_use]
pub fn shard_schedule(
    bots: usize,
    shard: Option<(usize, usize)>,
) -> (Vec<Series>, Option<(usize, usize)>) {
    let full = round_robin(bots);
    let pair_shard = shard.filter(|_| full.len() == 1);
    let schedule = full
        .into_iter()
        .filter(|s| pair_shard.is_some() || shard.is_none_or_in(s.number))
        .collect();
    (schedule, pair_shard)
}

/// The most games a run can play: `max_games` for each of its series, or a
/// pair shard's share of them.
#[must_use]
pub fn games_bound(config: &Config, shard: Option<(usize, usize)>, skipped: &[usize]) -> u64 {
    let (schedule, pair_shard) = shard_schedule(config.bots.len(), shard);
    let schedule: Vec<Series> = schedule
        .into_iter()
        .filter(|s| !skipped.contains(&s.a) && !skipped.contains(&s.b))
        .collect();
    let per_series = (1..=config.tournament.max_games)
        .filter(|g| pair_shard.is_none_or_in(g.div_ceil(2) as usize))
        .count() as u64;
    schedule.len() as u64 * per_series
}

/// The series a run plays between bots that started (`skipped` are the
/// indices of those that did not).
#[must_use]
pub fn series_count(bots: usize, shard: Option<(usize, usize)>, skipped: &[usize]) -> usize {
    let (schedule, _) = shard_schedule(bots, shard);
    schedule
        .iter()
        .filter(|s| !skipped.contains(&s.a) && !skipped.contains(&s.b))
        .count()
}

/// The most games a run plays at once: a series plays its games one by
/// one, so no more than one game per series, except in a two-bot match,
/// played `concurrency` games at once on lanes.
#[must_use]
pub fn games_at_once(config: &Config, shard: Option<(usize, usize)>, skipped: &[usize]) -> usize {
    let (schedule, _) = shard_schedule(config.bots.len(), shard);
    let series = series_count(config.bots.len(), shard, skipped);
    if schedule.len() == 1 && series == 1 {
        config.tournament.concurrency
    } else {
        config.tournament.concurrency.min(series).max(1)
    }
}

/// Whether a series belongs to a shard.
trait ShardFilter {
    fn is_none_or_in(&self, series: usize) -> bool;
}

impl ShardFilter for Option<(usize, usize)> {
    fn is_none_or_in(&self, series: usize) -> bool {
        match *self {
            None => true,
            Some((k, n)) => (series - 1) % n == k - 1,
        }
    }
}

/// Plays the whole round robin of `config` into `dir`: `games.csv` gets one
/// synced row per game as it ends; `on_event` sees each game and series.
/// When `cancel` fires, games in progress are abandoned (not recorded), no
/// new game starts, every bot is stopped, and the games played so far are
/// returned.
///
/// # Errors
/// The arena's own failures only (a `games.csv` that cannot be written, a
/// series worker that cannot start or panicked); bot faults are recorded
/// as lost games.
pub async fn run(
    config: Arc<Config>,
    dir: &RunDir,
    options: &RunOptions,
    cancel: &CancellationToken,
    mut on_event: impl FnMut(&Event),
) -> anyhow::Result<Summary> {
    // A resumed run that stopped before its first game has no games.csv yet.
    let (mut games, progress, sprt_so_far) =
        if options.resume && dir.path.join("games.csv").exists() {
            let file = dir.path.join("games.csv");
            let recorded = crate::output::merge_games(&[&file], None)?.games;
            let so_far = progress(&config, &file, &recorded)?;
            // An SPRT match goes on with its test fed the games already played.
            let sprt = SprtTrack::replay(&config, &recorded);
            (
                GamesCsv::reopen(dir).context("cannot reopen games.csv")?,
                so_far,
                sprt,
            )
        } else {
            (
                GamesCsv::create(dir).context("cannot create games.csv")?,
                HashMap::new(),
                None,
            )
        };
    if options.transcripts {
        std::fs::create_dir_all(dir.path.join("transcripts"))
            .context("cannot create transcripts/")?;
    }
    let logs: Vec<BotLog> = config
        .bots
        .iter()
        .map(|b| BotLog::open(&dir.bot_log(&b.name), LOG_CAP_BYTES))
        .collect::<Result<_, _>>()
        .context("cannot create the bot logs")?;
    let (schedule, pair_shard) = shard_schedule(config.bots.len(), options.shard);
    let (tx, mut rx) = mpsc::channel::<Event>(EVENTS_IN_FLIGHT);
    // The workers stop when the run is cancelled, and when this future ends
    // or is dropped (an error here, a second Ctrl-C).
    let stop = cancel.child_token();
    let _stop_workers = stop.clone().drop_guard();
    let shared = Arc::new(Shared {
        config: config.clone(),
        schedule,
        next: AtomicUsize::new(0),
        logs,
        progress,
        sprt: sprt_so_far.as_ref().map(|(track, states)| SprtStart {
            track: *track,
            decided: states
                .last()
                .is_some_and(|s| s.status != SprtStatus::Continue),
        }),
        pair_shard,
        options: options.clone(),
    });
    let cores = if config.tournament.affinity {
        crate::affinity::allowed_cores()
    } else {
        Vec::new()
    };
    // A two-bot match (one series, or a shard of its pairs) plays
    // `concurrency` games at once, on lanes; a round robin plays that many
    // series at once.
    let lanes = match shared.schedule.as_slice() {
        [series] if config.tournament.concurrency > 1 && !options.leaves_out(series) => {
            let (done_tx, done_rx) = mpsc::channel(EVENTS_IN_FLIGHT);
            let start = series_start(&shared, series.number);
            let pairs = Arc::new(Pairs::new(&config, &start, stop.child_token()));
            let commit = tokio::spawn({
                let (config, series, pairs, tx) =
                    (config.clone(), *series, pairs.clone(), tx.clone());
                async move { lanes::commit(&config, series, start, &pairs, done_rx, tx).await }
            });
            Some((*series, pairs, done_tx, commit))
        }
        _ => None,
    };
    let workers = match lanes {
        Some(_) => config.tournament.concurrency,
        None => config.tournament.concurrency.min(shared.schedule.len()),
    };
    let mut handles = Vec::with_capacity(workers);
    for k in 0..workers {
        // Built here, so that a failure is an error of the run.
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .context("cannot start a series worker's runtime")?;
        let core = (!cores.is_empty()).then(|| cores[k % cores.len()]);
        let (shared, stop, tx) = (shared.clone(), stop.clone(), tx.clone());
        let lane = lanes
            .as_ref()
            .map(|(series, pairs, done, _)| (*series, pairs.clone(), done.clone()));
        let handle = std::thread::Builder::new()
            .name(format!("series-worker-{k}"))
            .spawn(move || {
                if let Some(core) = core {
                    // Bots started from this thread inherit the pin.
                    let _ = crate::affinity::pin_current_thread(core);
                }
                match lane {
                    Some((series, pairs, done)) => {
                        let logs = [shared.logs[series.a].clone(), shared.logs[series.b].clone()];
                        runtime.block_on(lanes::lane(
                            k,
                            &shared.config,
                            series,
                            logs,
                            &pairs,
                            &shared.options,
                            done,
                        ));
                    }
                    None => runtime.block_on(series_worker(&shared, &stop, &tx)),
                }
            })
            .context("cannot start a series worker")?;
        handles.push(handle);
    }
    drop(tx);
    // The lanes hold the only senders of their pairs now, so the commit
    // ends once they have all ended.
    let commit = lanes.map(|(_, _, done, commit)| {
        drop(done);
        commit
    });

    let mut results = Vec::new();
    // A resumed match's rows start with those of the games played before.
    let mut sprt_rows = sprt_so_far.map_or_else(Vec::new, |(_, states)| states);
    let mut batch = Vec::with_capacity(EVENTS_IN_FLIGHT);
    // Group commit: the events that came while the last sync ran are
    // handled together, their games written with one write and one sync;
    // each is counted (on_event) only once its row is on disk.
    while rx.recv_many(&mut batch, EVENTS_IN_FLIGHT).await > 0 {
        let played = batch.iter().filter_map(|e| match e {
            Event::Game(g) => Some(g),
            _ => None,
        });
        games
            .append_all(played)
            .context("cannot append to games.csv")?;
        for event in batch.drain(..) {
            match &event {
                Event::Game(g) => {
                    if let Some(t) = &g.transcript {
                        let path = dir
                            .path
                            .join("transcripts")
                            .join(format!("series-{:04}-game-{:03}.txt", g.series, g.game));
                        std::fs::write(&path, t)
                            .with_context(|| format!("cannot write {}", path.display()))?;
                    }
                }
                Event::Series(s) => results.push(s.clone()),
                Event::Sprt(s) => sprt_rows.push(s.clone()),
            }
            on_event(&event);
        }
    }
    // Every worker has dropped its sender: they are ending, if not gone.
    let joined = tokio::task::spawn_blocking(move || {
        handles.into_iter().map(|h| h.join()).collect::<Vec<_>>()
    })
    .await
    .context("cannot wait for the series workers")?;
    anyhow::ensure!(joined.iter().all(Result::is_ok), "a series worker panicked");
    if let Some(commit) = commit {
        commit.await.context("the match's commit task failed")?;
    }
    results.sort_by_key(|r| r.series.number);
    Ok(Summary {
        series: results,
        sprt: sprt_rows,
    })
}

/// What the series workers share: the schedule, and the index of the next
/// series to play (taken in schedule order).
struct Shared {
    config: Arc<Config>,
    schedule: Vec<Series>,
    next: AtomicUsize,
    logs: Vec<BotLog>,
    progress: HashMap<usize, (u32, Wdl)>,
    /// A resumed SPRT match's test so far.
    sprt: Option<SprtStart>,
    pair_shard: Option<(usize, usize)>,
    options: RunOptions,
}

/// Where series `number` starts: what an interrupted run played of it.
fn series_start(shared: &Shared, number: usize) -> SeriesStart {
    let (played, wdl) = shared.progress.get(&number).copied().unwrap_or_default();
    SeriesStart {
        played,
        wdl,
        sprt: shared.sprt,
        pair_shard: shared.pair_shard,
    }
}

/// One series worker: on its own thread and current-thread runtime (a
/// game's round trips then never hop between threads), it takes the next
/// series of the schedule and plays it, until none is left or `stop` fires.
async fn series_worker(shared: &Shared, stop: &CancellationToken, tx: &mpsc::Sender<Event>) {
    while !stop.is_cancelled() && !tx.is_closed() {
        let next = shared.next.fetch_add(1, Ordering::Relaxed);
        let Some(&series) = shared.schedule.get(next) else {
            return;
        };
        let logs = [shared.logs[series.a].clone(), shared.logs[series.b].clone()];
        let start = series_start(shared, series.number);
        run_series(
            &shared.config,
            series,
            logs,
            start,
            &shared.options,
            stop,
            tx,
        )
        .await;
    }
}

/// Plays one series: until a bot has `first_to` wins or `max_games` games
/// were played, or `cancel` fires. The two bots are started once and reused
/// across its games, and stopped at the end.
async fn run_series(
    config: &Config,
    series: Series,
    logs: [BotLog; 2],
    start: SeriesStart,
    options: &RunOptions,
    cancel: &CancellationToken,
    tx: &mpsc::Sender<Event>,
) {
    let prefix = format!("s{}", series.number);
    let mut seats = series_seats(config, series, logs, &prefix, options);
    let SeriesStart {
        played,
        mut wdl,
        sprt: sprt_start,
        pair_shard,
    } = start;
    let t = &config.tournament;
    let (mut sprt, mut sprt_decided) = match sprt_start {
        Some(s) => (Some(s.track), s.decided),
        None => (SprtTrack::new(config), false),
    };
    // With a pair shard, game numbers skip the other shards' pairs, and the
    // match plays all its max_games games (first_to cannot be judged by one shard).
    let assigned = |g: u32| pair_shard.is_none_or_in(g.div_ceil(2) as usize);
    let mut game = match pair_shard {
        None => played,
        Some(_) => (1..=t.max_games)
            .filter(|&g| assigned(g))
            .nth(played as usize)
            .map_or(t.max_games, |g| g - 1),
    };
    let first_to_counts = pair_shard.is_none();
    // A series an interrupted run already finished plays no game, nor one
    // of a bot left out.
    let left_out = options.leaves_out(&series);
    let finished = left_out
        || game >= t.max_games
        || sprt_decided
        || (first_to_counts && game % 2 == 0 && game > 0 && !going_now(config, &wdl));
    // An SPRT match ends when the test decides (or at max_games), a series
    // when a bot has first_to wins.
    let is_sprt = sprt.is_some();
    let going = |wdl: &Wdl| is_sprt || !wdl.takes_series(t.first_to);
    let mut opening = Vec::new();
    // A series stops only at the end of a game pair (or at max_games).
    while !finished && game < t.max_games && (game % 2 == 1 || !first_to_counts || going(&wdl)) {
        game += 1;
        while game <= t.max_games && !assigned(game) {
            game += 1;
        }
        if game > t.max_games {
            break;
        }
        if game % 2 == 1 || opening.is_empty() {
            opening = opening_of(config, series, game.div_ceil(2));
        }
        let Some(record) =
            play_series_game(config, series, &mut seats, &opening, game, cancel).await
        else {
            break; // Cancelled: the unfinished game is not recorded.
        };
        let score = count(&mut wdl, &record, series);
        if tx.send(Event::Game(record)).await.is_err() {
            break; // The run is being torn down.
        }
        if let Some(state) = sprt.as_mut().and_then(|t| t.add(game, wdl, score)) {
            sprt_decided = state.status != SprtStatus::Continue;
            if tx.send(Event::Sprt(state)).await.is_err() || sprt_decided {
                break;
            }
        }
    }
    stop_seats(seats).await;
    send_series_result(tx, config, series, wdl, sprt.map(|_| sprt_decided)).await;
}

/// Sends the result of `series` (`wdl` from bot `a`'s side), if it played a
/// game: decided by its SPRT test (`sprt_decided`, in an SPRT match), or
/// else by a bot with `first_to` wins and the lead.
pub(crate) async fn send_series_result(
    tx: &mpsc::Sender<Event>,
    config: &Config,
    series: Series,
    wdl: Wdl,
    sprt_decided: Option<bool>,
) {
    if wdl.games() > 0 {
        let decided = sprt_decided.unwrap_or_else(|| wdl.takes_series(config.tournament.first_to));
        let _ = tx
            .send(Event::Series(SeriesResult {
                series,
                wdl,
                decided,
            }))
            .await;
    }
}

/// The two seats of `series`, `[a, b]`, their bots not yet started; their
/// log lines start with `prefix`.
pub(crate) fn series_seats(
    config: &Config,
    series: Series,
    logs: [BotLog; 2],
    prefix: &str,
    options: &RunOptions,
) -> [Seat; 2] {
    let [log_a, log_b] = logs;
    let seat = |i: usize, log: BotLog| Seat {
        spec: config.bots[i].clone(),
        process: None,
        log,
        log_prefix: prefix.to_string(),
        guard: options.guard.clone(),
        transcripts: options.transcripts,
    };
    [seat(series.a, log_a), seat(series.b, log_b)]
}

/// Plays game `game` of `series` from `opening` between `seats` (`[a, b]`,
/// as [`series_seats`] gives them), each on its side of that game; `None`
/// if `cancel` fired first.
pub(crate) async fn play_series_game(
    config: &Config,
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
    play_game(
        config.rules,
        &config.time,
        in_order,
        opening,
        (series.number, game),
        cancel,
    )
    .await
}

/// The opening of game pair `pair` (from 1) of `series`: from the book, or
/// drawn from the seed.
pub(crate) fn opening_of(config: &Config, series: Series, pair: u32) -> Vec<endodoi::Move> {
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

/// Counts game `record` of `series` into `wdl` (bot `a`'s side) and
/// returns its score for bot `a`.
pub(crate) fn count(wdl: &mut Wdl, record: &GameRecord, series: Series) -> GameScore {
    let a_is_south = series.south(record.game) == series.a;
    match record.winner {
        None => {
            wdl.draws += 1;
            GameScore::Draw
        }
        Some(side) if (side == endodoi::Side::South) == a_is_south => {
            wdl.wins += 1;
            GameScore::Win
        }
        Some(_) => {
            wdl.losses += 1;
            GameScore::Loss
        }
    }
}

/// Where a series starts: the games an interrupted run already played, and
/// for one long match split into shards, which game pairs are this shard's.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct SeriesStart {
    pub(crate) played: u32,
    pub(crate) wdl: Wdl,
    /// A resumed SPRT match's test so far.
    pub(crate) sprt: Option<SprtStart>,
    pub(crate) pair_shard: Option<(usize, usize)>,
}

/// A resumed SPRT match's test, fed its recorded games, and whether it had
/// already decided.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SprtStart {
    pub(crate) track: SprtTrack,
    pub(crate) decided: bool,
}

/// Whether a series with results `wdl` goes on (SPRT matches always do).
fn going_now(config: &Config, wdl: &Wdl) -> bool {
    let t = &config.tournament;
    config.sprt.is_some() || !wdl.takes_series(t.first_to)
}

/// Starts every bot once, runs its handshake and stops it: the check made
/// before any game, so a bot that cannot start is reported at once.
/// Returns, per bot, `None` if it started, or why it did not (with the
/// last lines it wrote to stderr in this check, if any: a usage error, a
/// traceback).
pub async fn check_bots(
    config: &Config,
    dir: &RunDir,
    options: &RunOptions,
) -> Vec<Option<String>> {
    let startup = std::time::Duration::from_millis(config.time.startup_ms);
    let checks = config.bots.iter().map(|spec| async move {
        let log = BotLog::open(&dir.bot_log(&spec.name), LOG_CAP_BYTES)
            .unwrap_or_else(|_| BotLog::none());
        let start = StartOptions {
            startup,
            guard: options.guard.as_deref(),
            log,
            log_prefix: "check".into(),
            transcript: false,
        };
        match BotProcess::start(spec, start).await {
            Ok(p) => {
                p.shutdown(true).await;
                None
            }
            Err(f) => Some(match dir.bot_stderr_tail(&spec.name, "check", 3) {
                Some(said) => format!("{f} (its stderr: {said})"),
                None => f.to_string(),
            }),
        }
    });
    futures::future::join_all(checks).await
}
