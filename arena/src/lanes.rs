//! A two-bot match (an SPRT test, or one long series, or a shard of its
//! game pairs) played `concurrency` games at once, as cutechess-cli and fastchess do: each lane is a thread
//! with its own current-thread runtime and its own two bot processes, and
//! takes the next game pair; one place, [`commit`], counts the pairs in
//! order. So the match plays exactly the games it plays on one lane, and
//! stops at the same pair: a pair that ended early waits for the ones
//! before it, and the pairs after the deciding one are abandoned, never
//! recorded.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU32, Ordering};

use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use crate::bot::BotLog;
use crate::config::Config;
use crate::referee::{stop_seats, GameRecord};
use crate::runner::{
    count, opening_of, play_series_game, send_series_result, series_seats, Event, RunOptions,
    SeriesStart, SprtTrack,
};
use crate::schedule::Series;
use crate::stats::SprtStatus;

/// The game pairs of a match and which is handed out next: all of them, or
/// a shard's (pairs `k`, `k + n`, ... of shard `k` of `n`), numbered in
/// order from 0. Pair `p` is games `2p - 1` and `2p`, less those already
/// played and any beyond `max_games`.
#[derive(Debug)]
pub(crate) struct Pairs {
    /// Games an interrupted run already played (a prefix of its pairs' games).
    played: u32,
    max_games: u32,
    shard: Option<(usize, usize)>,
    /// The index of the next pair to hand out.
    next: AtomicU32,
    /// Fired when the match is decided (or the run cancelled): lanes
    /// abandon their games and stop.
    pub(crate) stop: CancellationToken,
}

impl Pairs {
    /// The pairs of a match that starts at `start`, stopped with `stop`;
    /// none if an interrupted run had already decided it (fired before any
    /// lane starts, so no lane starts its bots for nothing).
    pub(crate) fn new(config: &Config, start: &SeriesStart, stop: CancellationToken) -> Pairs {
        if decided_at(config, start) {
            stop.cancel();
        }
        let played = start.played;
        Pairs {
            played,
            max_games: config.tournament.max_games,
            shard: start.pair_shard,
            next: AtomicU32::new(played / 2),
            stop,
        }
    }

    /// The index of the first pair with a game left to play.
    fn first(&self) -> u32 {
        self.played / 2
    }

    /// The number of the pair with index `index`.
    fn pair(&self, index: u32) -> u64 {
        let (k, n) = self.shard.unwrap_or((1, 1));
        u64::from(index) * n as u64 + k as u64
    }

    /// The games of the pair with index `index` still to play, in order
    /// (none past the end).
    fn games(&self, index: u32) -> std::ops::RangeInclusive<u32> {
        let pair = self.pair(index);
        let played_of_it = u64::from(self.played)
            .saturating_sub(2 * u64::from(index))
            .min(2);
        let last = (2 * pair).min(u64::from(self.max_games));
        // Both fit: a game number beyond max_games makes the range empty.
        let first = (2 * pair - 1 + played_of_it).min(last + 1);
        first as u32..=last as u32
    }

    /// Takes the next pair to play (its index), if any is left and the
    /// match goes on.
    fn take(&self) -> Option<u32> {
        let index = self.next.fetch_add(1, Ordering::Relaxed);
        (!self.stop.is_cancelled() && !self.games(index).is_empty()).then_some(index)
    }
}

/// The games of one pair, as a lane played them.
#[derive(Debug)]
pub(crate) struct PairDone {
    /// The pair's index in [`Pairs`].
    pair: u32,
    games: Vec<GameRecord>,
}

/// One lane of `series`: takes pairs from `pairs` and plays them with its
/// own two bots (started at its first game, stopped at the end), sending
/// each whole pair to [`commit`]. A pair cut short by `pairs.stop` is
/// dropped.
pub(crate) async fn lane(
    lane: usize,
    config: &Config,
    series: Series,
    logs: [BotLog; 2],
    pairs: &Pairs,
    options: &RunOptions,
    done: mpsc::Sender<PairDone>,
) {
    let prefix = format!("s{}l{}", series.number, lane + 1);
    let mut seats = series_seats(config, series, logs, &prefix, options);
    'pairs: while let Some(pair) = pairs.take() {
        // A pair handed out has a game, so its number fits.
        let opening = opening_of(config, series, pairs.pair(pair) as u32);
        let mut games = Vec::with_capacity(2);
        for game in pairs.games(pair) {
            let Some(record) =
                play_series_game(config, series, &mut seats, &opening, game, &pairs.stop).await
            else {
                break 'pairs; // Stopped: the unfinished pair is not recorded.
            };
            games.push(record);
        }
        if done.send(PairDone { pair, games }).await.is_err() {
            break;
        }
    }
    stop_seats(seats).await;
}

/// Whether a match that starts at `start` (a resumed one) was already
/// decided: its test, or a bot with `first_to` wins and the lead at a
/// pair's end (not in a shard, which plays all its pairs).
fn decided_at(config: &Config, start: &SeriesStart) -> bool {
    match start.sprt {
        Some(s) => s.decided,
        None => {
            config.sprt.is_none()
                && start.pair_shard.is_none()
                && start.played % 2 == 0
                && start.played > 0
                && start.wdl.takes_series(config.tournament.first_to)
        }
    }
}

/// Counts the pairs the lanes send, in pair order, exactly as one lane
/// playing the match would: each game goes to `tx` (to be written), an SPRT
/// match's test is fed pair by pair, and once the match is decided (the
/// test, or a bot with `first_to` wins and the lead at a pair's end)
/// `pairs.stop` fires and later pairs are dropped. Sends the series result
/// once every lane has ended.
pub(crate) async fn commit(
    config: &Config,
    series: Series,
    start: SeriesStart,
    pairs: &Pairs,
    mut done: mpsc::Receiver<PairDone>,
    tx: mpsc::Sender<Event>,
) {
    let t = &config.tournament;
    let mut wdl = start.wdl;
    let mut sprt = start
        .sprt
        .map(|s| s.track)
        .or_else(|| SprtTrack::new(config));
    let mut decided = decided_at(config, &start);
    let mut waiting: BTreeMap<u32, Vec<GameRecord>> = BTreeMap::new();
    let mut next = pairs.first();
    while let Some(pair) = done.recv().await {
        waiting.insert(pair.pair, pair.games);
        while !decided {
            let Some(games) = waiting.remove(&next) else {
                break;
            };
            next += 1;
            let last = games.last().map_or(0, |g| g.game);
            for record in games {
                let score = count(&mut wdl, &record, series);
                let game = record.game;
                if tx.send(Event::Game(record)).await.is_err() {
                    pairs.stop.cancel();
                    return;
                }
                if let Some(state) = sprt.as_mut().and_then(|s| s.add(game, wdl, score)) {
                    decided = state.status != SprtStatus::Continue;
                    if tx.send(Event::Sprt(state)).await.is_err() {
                        pairs.stop.cancel();
                        return;
                    }
                }
            }
            // A series is judged at the end of a whole pair, as one lane
            // does; a shard's pairs are all played.
            let first_to_counts = sprt.is_none() && pairs.shard.is_none();
            if first_to_counts && last % 2 == 0 && wdl.takes_series(t.first_to) {
                decided = true;
            }
            if decided {
                pairs.stop.cancel();
            }
        }
    }
    send_series_result(&tx, config, series, wdl, sprt.map(|_| decided)).await;
}
