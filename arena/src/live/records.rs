//! Each bot's record for a league's live page (`/bot`, docs/live.md, "A
//! league"): how many series it has played, and its latest
//! [`BOT_SERIES_MAX`] series, each with its opponent and its W-D-L from
//! its side, kept as the games come. An older series is dropped once a
//! newer one comes (`games.csv` holds every one), so the memory is per
//! bot, flat however many games a league plays; the bot's totals are the
//! standings' ([`crate::standings::Tally`]).

use std::collections::{HashMap, VecDeque};

use endodoi::Side;

use crate::html::{BotSeries, BOT_SERIES_MAX};
use crate::output::GameRow;
use crate::standings::Wdl;

/// A series of a bot's record, from its side.
#[derive(Clone, Copy, Debug)]
struct Recent {
    /// The file, from 0, and the series number: the series' place.
    file: usize,
    series: u64,
    /// The opponent, an index into [`Records::names`].
    opponent: u32,
    /// The bot's wins, draws and losses in it so far.
    wdl: Wdl,
    /// Its lowest game number so far (the viewer's link).
    first_game: u32,
}

/// One bot's record: its series in all and its latest ones.
#[derive(Clone, Debug, Default)]
struct Log {
    /// Series played (begun), in all.
    series: usize,
    /// The latest [`BOT_SERIES_MAX`], in file and series order.
    recent: VecDeque<Recent>,
}

impl Log {
    /// Counts game `game` of `file`'s series `series` against `opponent`,
    /// with `result` from this bot's side (`Some(true)`: won). A series
    /// older than every one kept, once [`BOT_SERIES_MAX`] are, is left
    /// out (its games come after those of [`BOT_SERIES_MAX`] later
    /// series: a file out of order).
    fn add(&mut self, file: usize, series: u64, game: u32, opponent: u32, result: Option<bool>) {
        let key = (file, series);
        // The series is nearly always the latest one.
        let found = self.recent.iter().rposition(|r| (r.file, r.series) == key);
        let at = match found {
            Some(at) => at,
            None => {
                let at = self.recent.partition_point(|r| (r.file, r.series) < key);
                if at == 0 && self.recent.len() == BOT_SERIES_MAX {
                    return;
                }
                self.series += 1;
                if self.recent.len() == self.recent.capacity() {
                    // Room for one more than kept, no more (a doubling
                    // would hold 64).
                    let room = (self.recent.len() * 2).clamp(4, BOT_SERIES_MAX + 1);
                    self.recent.reserve_exact(room - self.recent.len());
                }
                self.recent.insert(
                    at,
                    Recent {
                        file,
                        series,
                        opponent,
                        wdl: Wdl::default(),
                        first_game: game,
                    },
                );
                if self.recent.len() > BOT_SERIES_MAX {
                    self.recent.pop_front();
                    at - 1
                } else {
                    at
                }
            }
        };
        let r = &mut self.recent[at];
        r.first_game = r.first_game.min(game);
        match result {
            Some(true) => r.wdl.wins += 1,
            Some(false) => r.wdl.losses += 1,
            None => r.wdl.draws += 1,
        }
    }
}

/// Every bot's record, by name.
#[derive(Clone, Debug, Default)]
pub struct Records {
    /// The bots in order of first game.
    names: Vec<String>,
    index: HashMap<String, u32>,
    logs: Vec<Log>,
}

impl Records {
    /// No games yet.
    #[must_use]
    pub fn new() -> Records {
        Records::default()
    }

    fn bot(&mut self, name: &str) -> u32 {
        if let Some(&i) = self.index.get(name) {
            return i;
        }
        let i = u32::try_from(self.names.len()).unwrap_or(u32::MAX);
        self.names.push(name.to_string());
        self.index.insert(name.to_string(), i);
        self.logs.push(Log::default());
        i
    }

    /// Counts the game of `row` (its [`GameRow::file`] from 0) in both
    /// bots' records (once for a bot against itself).
    pub fn add(&mut self, row: &GameRow) {
        let (south, north) = (self.bot(&row.south), self.bot(&row.north));
        let winner = row.winner();
        let sides = [(south, north, Side::South), (north, south, Side::North)];
        for (me, them, side) in sides.into_iter().take(if south == north { 1 } else { 2 }) {
            let result = winner.map(|w| w == side);
            if let Some(log) = self.logs.get_mut(me as usize) {
                log.add(row.file, row.series, row.game, them, result);
            }
        }
    }

    /// Bot `name`'s latest series, latest first (by file, then series
    /// number, the order series begin in), each with the round
    /// `round_of(series, bot, opponent)` gives and whether `viewed(file,
    /// series, first game)` holds its first game; and its series in all.
    /// `None` if it has played no game.
    #[must_use]
    pub fn of(
        &self,
        name: &str,
        round_of: impl Fn(u64, &str, &str) -> Option<u32>,
        viewed: impl Fn(usize, u64, u32) -> bool,
    ) -> Option<(Vec<BotSeries>, usize)> {
        let log = &self.logs[*self.index.get(name)? as usize];
        let list = log
            .recent
            .iter()
            .rev()
            .map(|r| {
                let opponent = &self.names[r.opponent as usize];
                BotSeries {
                    file: r.file + 1,
                    series: r.series,
                    round: round_of(r.series, name, opponent),
                    opponent: opponent.clone(),
                    wins: r.wdl.wins,
                    draws: r.wdl.draws,
                    losses: r.wdl.losses,
                    first_game: r.first_game,
                    viewed: viewed(r.file, r.series, r.first_game),
                }
            })
            .collect();
        Some((list, log.series))
    }
}

/// A row of game `game` of `series`, `south` against `north`, its
/// `result` (`south`, `north` or `draw`) by `no-moves`: for the tests.
#[cfg(test)]
pub(super) fn row(series: u64, game: u32, south: &str, north: &str, result: &str) -> GameRow {
    GameRow {
        series,
        game,
        south: south.into(),
        north: north.into(),
        result: result.into(),
        termination: "no-moves".into(),
        ..GameRow::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bot_keeps_its_latest_series_from_its_side_and_counts_them_all() {
        let mut r = Records::new();
        let n = BOT_SERIES_MAX as u64 + 30;
        for s in 1..=n {
            // a wins game 1 as South, draws game 2 as North.
            r.add(&row(s, 1, "a", "b", "south"));
            r.add(&row(s, 2, "b", "a", "draw"));
        }
        let (list, total) = r
            .of("a", |s, _, _| Some(s as u32), |_, _, g| g == 1)
            .unwrap();
        assert_eq!(total, n as usize);
        assert_eq!(list.len(), BOT_SERIES_MAX);
        assert_eq!(list[0].series, n, "latest first");
        assert_eq!(list.last().unwrap().series, n - BOT_SERIES_MAX as u64 + 1);
        let s = &list[0];
        assert_eq!((s.wins, s.draws, s.losses), (1, 1, 0));
        assert_eq!(
            (s.opponent.as_str(), s.first_game, s.round),
            ("b", 1, Some(n as u32))
        );
        assert!(s.viewed);
        let (list, _) = r.of("b", |_, _, _| None, |_, _, _| false).unwrap();
        assert_eq!((list[0].wins, list[0].draws, list[0].losses), (0, 1, 1));
        assert!(r.of("c", |_, _, _| None, |_, _, _| false).is_none());
        // A game of a series long dropped is not listed nor counted again.
        r.add(&row(1, 3, "a", "b", "south"));
        let (list, total) = r.of("a", |_, _, _| None, |_, _, _| false).unwrap();
        assert_eq!((list.len(), total), (BOT_SERIES_MAX, n as usize));
        assert!(list.iter().all(|s| s.series != 1));
    }

    #[test]
    fn a_series_whose_second_game_ends_first_is_one_series_with_its_first_game() {
        let mut r = Records::new();
        r.add(&row(7, 2, "b", "a", "north"));
        r.add(&row(6, 1, "a", "c", "north"));
        r.add(&row(7, 1, "a", "b", "north"));
        let (list, total) = r.of("a", |_, _, _| None, |_, _, _| false).unwrap();
        assert_eq!(total, 2);
        assert_eq!(
            list.iter()
                .map(|s| (s.series, s.first_game, s.wins, s.losses))
                .collect::<Vec<_>>(),
            [(7, 1, 1, 1), (6, 1, 0, 1)]
        );
    }
}
