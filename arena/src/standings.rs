//! Tallies of finished games, per bot and per pair, and the standings table
//! built from them with the ratings. Pure: no I/O.
//!
//! Only counts are kept, never the games themselves, so memory does not grow
//! with the number of games.

use std::collections::HashMap;

use endodoi::Side;

use crate::stats::{self, IntervalMethod, PairResult, RatingOptions, Ratings};

/// Wins, draws and losses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

impl Wdl {
    /// Games played.
    #[must_use]
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Points: a win is 1, a draw 1/2.
    #[must_use]
    pub fn score(&self) -> f64 {
        f64::from(self.wins) + 0.5 * f64::from(self.draws)
    }

    /// Whether these results end a series of first to `first_to` wins: a
    /// bot has `first_to` wins and more than the other. (Both can reach
    /// `first_to` in one game pair; the series then goes on, pair by pair,
    /// until one leads or `max_games` is reached.)
    #[must_use]
    pub fn takes_series(&self, first_to: u32) -> bool {
        self.wins.max(self.losses) >= first_to && self.wins != self.losses
    }

    /// Points as a percentage of the games played; 0 with no games.
    #[must_use]
    pub fn score_pct(&self) -> f64 {
        match self.games() {
            0 => 0.0,
            games => 100.0 * self.score() / f64::from(games),
        }
    }
}

/// What the tally needs of one finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// Which series: any number unique to the series (series numbers from
    /// several files are made unique by the caller).
    pub series: u64,
    /// The game's number in its series, from 1. Games 1 and 2, 3 and 4, ...
    /// are pairs: the same opening with sides swapped.
    pub game: u32,
    /// South's bot index.
    pub south: usize,
    /// North's bot index.
    pub north: usize,
    /// The winner, `None` for a draw.
    pub winner: Option<Side>,
    /// Whether the loser lost by a fault.
    pub forfeit: bool,
}

/// Counts of every finished game, by bot and by pair of bots, with the
/// pentanomial counts of game pairs.
#[derive(Clone, Debug)]
pub struct Tally {
    bots: usize,
    /// Per bot: its W/D/L and the games it lost by a fault.
    per_bot: Vec<(Wdl, u32)>,
    /// `pairs[&(a, b)]` for `a < b`, only pairs that played: results from
    /// `a`'s side, and the game pairs by `a`'s points in half points,
    /// 0..=4. Sparse, so memory grows with the pairs that met, not with
    /// the square of the bots.
    pairs: HashMap<(usize, usize), (Wdl, [u32; 5])>,
    /// The first game of a pair still waiting for its second: series ->
    /// (game, half points of the lower-index bot). At most one per series.
    waiting: HashMap<u64, (u32, u32)>,
}

impl Tally {
    /// An empty tally for `bots` bots.
    #[must_use]
    pub fn new(bots: usize) -> Tally {
        Tally {
            bots,
            per_bot: vec![(Wdl::default(), 0); bots],
            pairs: HashMap::new(),
            waiting: HashMap::new(),
        }
    }

    /// Adds a finished game.
    pub fn add(&mut self, g: GameResult) {
        let (south, north) = (g.south, g.north);
        let (a, b) = (south.min(north), south.max(north));
        let a_side = if a == south { Side::South } else { Side::North };
        let (pair, penta) = self.pairs.entry((a, b)).or_default();
        let a_half_points = match g.winner {
            None => {
                pair.draws += 1;
                self.per_bot[south].0.draws += 1;
                self.per_bot[north].0.draws += 1;
                1
            }
            Some(w) => {
                let (winner, loser) = if w == Side::South {
                    (south, north)
                } else {
                    (north, south)
                };
                self.per_bot[winner].0.wins += 1;
                self.per_bot[loser].0.losses += 1;
                if g.forfeit {
                    self.per_bot[loser].1 += 1;
                }
                if w == a_side {
                    pair.wins += 1;
                    2
                } else {
                    pair.losses += 1;
                    0
                }
            }
        };
        if g.game % 2 == 1 {
            self.waiting.insert(g.series, (g.game, a_half_points));
        } else if let Some((first, points)) = self.waiting.remove(&g.series) {
            if first + 1 == g.game {
                penta[(points + a_half_points) as usize] += 1;
            }
        }
    }

    /// The number of bots.
    #[must_use]
    pub fn bots(&self) -> usize {
        self.bots
    }

    /// Results between bots `a < b`, from `a`'s side, and their pentanomial
    /// counts (pairs by `a`'s points: 0, 1/2, 1, 3/2, 2).
    #[must_use]
    pub fn pair(&self, a: usize, b: usize) -> (Wdl, [u32; 5]) {
        self.pairs.get(&(a, b)).copied().unwrap_or_default()
    }

    /// Every pair `a < b` that played, sorted by `(a, b)`, with its
    /// results and pentanomial counts from `a`'s side (as [`Tally::pair`]).
    #[must_use]
    pub fn played_pairs(&self) -> Vec<(usize, usize, Wdl, [u32; 5])> {
        let mut out: Vec<_> = self
            .pairs
            .iter()
            .filter(|(_, (wdl, _))| wdl.games() > 0)
            .map(|(&(a, b), &(wdl, penta))| (a, b, wdl, penta))
            .collect();
        out.sort_unstable_by_key(|&(a, b, _, _)| (a, b));
        out
    }

    /// Series `series` (as [`GameResult::series`] numbers it) is over:
    /// its game still waiting for a second one to make a pair (a series
    /// of an odd number of games) is forgotten, so that what the tally
    /// keeps grows with the pairs of bots, not with the series.
    pub fn series_over(&mut self, series: u64) {
        self.waiting.remove(&series);
    }

    /// Bot `i`'s W/D/L.
    #[must_use]
    pub fn bot(&self, i: usize) -> Wdl {
        self.per_bot[i].0
    }

    /// Games bot `i` lost by a fault (illegal move, timeout, crash, protocol error).
    #[must_use]
    pub fn forfeits(&self, i: usize) -> u32 {
        self.per_bot[i].1
    }

    /// The same counts for `bots` bots, bot `i` becoming `map[i]` (`map`
    /// has one entry per bot of `self`, all different and below `bots`);
    /// the new bots have no games, and a game pair still waiting for its
    /// second game is forgotten. Lets a caller list bots that played
    /// nothing (a run stopped before its first game).
    ///
    /// # Panics
    /// If `map` is shorter than the bots, or an entry is `>= bots`.
    #[must_use]
    pub fn renumbered(&self, map: &[usize], bots: usize) -> Tally {
        let mut out = Tally::new(bots);
        for (&to, &counts) in map.iter().zip(&self.per_bot) {
            out.per_bot[to] = counts;
        }
        for (&(i, j), &(wdl, penta)) in &self.pairs {
            let (a, b) = (map[i], map[j]);
            if wdl.games() == 0 {
                continue;
            }
            // Stored from the lower index's side.
            if a < b {
                out.pairs.insert((a, b), (wdl, penta));
            } else {
                let flipped = Wdl {
                    wins: wdl.losses,
                    draws: wdl.draws,
                    losses: wdl.wins,
                };
                let mut counts = penta;
                counts.reverse();
                out.pairs.insert((b, a), (flipped, counts));
            }
        }
        out
    }

    /// The results of every pair that played, for the rating fit.
    #[must_use]
    pub fn pair_results(&self) -> Vec<PairResult> {
        self.played_pairs()
            .into_iter()
            .map(|(a, b, p, _)| PairResult {
                a,
                b,
                wins: p.wins,
                draws: p.draws,
                losses: p.losses,
            })
            .collect()
    }
}

#[cfg(test)]
impl Tally {
    /// For unit tests: the tally of one series between bots 0 and 1, bot
    /// 0 South in the odd games, whose games `winners` won (no forfeit).
    pub(crate) fn of_pair(winners: &[Option<Side>]) -> Tally {
        let mut tally = Tally::new(2);
        for (i, &winner) in winners.iter().enumerate() {
            let game = i as u32 + 1;
            let (south, north) = if game % 2 == 1 { (0, 1) } else { (1, 0) };
            tally.add(GameResult {
                series: 1,
                game,
                south,
                north,
                winner,
                forfeit: false,
            });
        }
        tally
    }
}

/// One row of the standings.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    /// 1 for the top bot.
    pub rank: usize,
    /// The bot's index.
    pub bot: usize,
    /// Its W/D/L.
    pub wdl: Wdl,
    /// Games it lost by a fault.
    pub forfeits: u32,
    /// Elo points, logistic scale: mean 0 over its group, or anchored.
    pub elo: f64,
    /// The lower end of its 95% interval, Elo points.
    pub elo_lower: f64,
    /// The upper end of its 95% interval, Elo points.
    pub elo_upper: f64,
    /// How the interval was measured; only [`IntervalMethod::Bootstrap`]
    /// and [`IntervalMethod::Curvature`] give an estimate (`elo` and the
    /// interval mean nothing for a bot without games or at the limit).
    pub interval: IntervalMethod,
    /// The likelihood of superiority over the bot ranked next, 0..=1; `None` for the last.
    pub los_next: Option<f64>,
    /// Its connected group, from 1: bots in different groups never met,
    /// even through others, and their ratings are not comparable.
    pub group: usize,
}

/// The standings: bots ordered by group, then Elo, then score, then index,
/// with the ratings of one joint fit over all games (see [`stats::rate`]),
/// which are also returned for the LOS matrix. Bots without games come
/// after every bot with games (by index; [`list_idle_by`] orders them
/// otherwise), and groups are numbered in the order they are listed.
#[must_use]
pub fn standings(tally: &Tally, options: &RatingOptions) -> (Vec<Standing>, Ratings) {
    let ratings = stats::rate(tally.bots, &tally.pair_results(), options);
    let mut order: Vec<usize> = (0..tally.bots).collect();
    let idle = |i: usize| tally.bot(i).games() == 0;
    order.sort_by(|&x, &y| {
        let (rx, ry) = (&ratings.ratings[x], &ratings.ratings[y]);
        idle(x)
            .cmp(&idle(y))
            .then(rx.group.cmp(&ry.group))
            .then(ry.elo.total_cmp(&rx.elo))
            .then(tally.bot(y).score().total_cmp(&tally.bot(x).score()))
            .then(x.cmp(&y))
    });
    // Each fit group's number in the listing, from 1.
    let mut listed_groups: Vec<usize> = Vec::new();
    for &bot in &order {
        if !listed_groups.contains(&ratings.ratings[bot].group) {
            listed_groups.push(ratings.ratings[bot].group);
        }
    }
    let table = order
        .iter()
        .enumerate()
        .map(|(i, &bot)| {
            let r = &ratings.ratings[bot];
            let next = order
                .get(i + 1)
                .filter(|&&n| ratings.ratings[n].group == r.group);
            Standing {
                rank: i + 1,
                bot,
                wdl: tally.bot(bot),
                forfeits: tally.forfeits(bot),
                elo: r.elo,
                elo_lower: r.lower,
                elo_upper: r.upper,
                interval: r.interval,
                los_next: next.map(|&n| ratings.los(bot, n)),
                group: 1 + listed_groups
                    .iter()
                    .position(|&g| g == r.group)
                    .expect("every group is listed"),
            }
        })
        .collect();
    (table, ratings)
}

/// Orders the bots without games at the end of `table` (as [`standings`]
/// lists them) by `key` of their index, and numbers ranks and groups again
/// (a bot without games is a group of its own).
pub fn list_idle_by<K: Ord>(table: &mut [Standing], key: impl Fn(usize) -> K) {
    let first = table
        .iter()
        .position(|s| s.wdl.games() == 0)
        .unwrap_or(table.len());
    table[first..].sort_by_key(|s| key(s.bot));
    let group = table[..first].last().map_or(0, |s| s.group);
    for (i, s) in table.iter_mut().enumerate().skip(first) {
        s.rank = i + 1;
        s.group = group + 1 + (i - first);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A series of three games keeps its third waiting for a pair until
    /// it is said to be over; the pairs counted are the same.
    #[test]
    fn an_odd_series_over_leaves_no_game_waiting() {
        let mut tally = Tally::new(2);
        for series in 1..=3 {
            for game in 1..=3 {
                tally.add(GameResult {
                    series,
                    game,
                    south: (game % 2) as usize,
                    north: 1 - (game % 2) as usize,
                    winner: Some(Side::South),
                    forfeit: false,
                });
            }
            assert_eq!(tally.waiting.len(), 1, "game 3 waits");
            tally.series_over(series);
            assert!(tally.waiting.is_empty(), "series {series}");
        }
        let (wdl, penta) = tally.pair(0, 1);
        assert_eq!(wdl.games(), 9);
        // Games 1 and 2 of each series: one win each, a pair of 1 point.
        assert_eq!(penta, [0, 0, 3, 0, 0]);
    }

    /// A bot without games (an interrupted run) is listed after every bot
    /// with games, even with the lowest index; groups count from the top.
    #[test]
    fn a_bot_without_games_comes_last() {
        let mut tally = Tally::new(4);
        for (game, winner) in [(1, Side::South), (2, Side::South)] {
            tally.add(GameResult {
                series: 1,
                game,
                south: 2,
                north: 1,
                winner: Some(winner),
                forfeit: false,
            });
        }
        let (mut table, _) = standings(&tally, &RatingOptions::default());
        let listed = |t: &[Standing]| t.iter().map(|s| (s.bot, s.group)).collect::<Vec<_>>();
        assert_eq!(listed(&table), [(2, 1), (1, 1), (0, 2), (3, 3)]);
        list_idle_by(&mut table, std::cmp::Reverse);
        assert_eq!(listed(&table), [(2, 1), (1, 1), (3, 2), (0, 3)]);
        assert_eq!(table[3].rank, 4);
        assert_eq!(table[1].los_next, None);
    }
}
