//! The tournament schedule: which pairs meet, in what order, who is South,
//! and the openings. Pure: a function of the number of bots, the rules and
//! the seed.

use crate::shard::Shard;
use std::ops::RangeInclusive;

use endodoi::{Move, Rules};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// One series: a pair of bots (indices into the config's bot list).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Series {
    /// The series' number, from 1, in schedule order.
    pub number: usize,
    /// The round it belongs to, from 1: a round robin's Berger round, a
    /// gauntlet's, a knockout's or a Swiss round.
    pub round: u32,
    /// The first bot of the pair (the lower index).
    pub a: usize,
    /// The second bot of the pair.
    pub b: usize,
}

impl Series {
    /// The bot that is South in game `game` (from 1) of this series. South
    /// alternates game by game, so each bot is South in half of the games,
    /// give or take one. Game 1's South is `a` when `a + b` is odd and `b`
    /// when it is even, which gives every bot the first move in half of its
    /// series, give or take one, whatever the order of the bots.
    #[must_use]
    pub fn south(&self, game: u32) -> usize {
        let a_first = (self.a + self.b) % 2 == 1;
        if (game % 2 == 1) == a_first {
            self.a
        } else {
            self.b
        }
    }

    /// The other bot of game `game`: North.
    #[must_use]
    pub fn north(&self, game: u32) -> usize {
        if self.south(game) == self.a {
            self.b
        } else {
            self.a
        }
    }
}

/// The opening of game pair `pair` (from 1) of series `series`: the first
/// plies, chosen uniformly at random from the legal moves, their number
/// drawn uniformly from `plies`. A pure function of its arguments and the
/// tournament `seed`, so a schedule always gets the same openings. An
/// opening that would end the game is drawn again.
#[must_use]
pub fn opening(
    rules: &Rules,
    seed: u64,
    series: usize,
    pair: u32,
    plies: RangeInclusive<u32>,
) -> Vec<Move> {
    // One generator per pair, from a mix of the three numbers (SplitMix64's
    // constants), so openings do not depend on the order games are played.
    let mix = seed
        ^ (series as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ u64::from(pair).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    let mut rng = ChaCha8Rng::seed_from_u64(mix);
    for _attempt in 0..100 {
        let k = rng.gen_range(plies.clone());
        let mut pos = rules.start();
        let mut moves = Vec::with_capacity(k as usize);
        for _ in 0..k {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let mv = legal.nth(rng.gen_range(0..legal.len())).expect("in range");
            pos.play(mv).expect("a legal move");
            moves.push(mv);
        }
        if !pos.is_over() && moves.len() == k as usize {
            return moves;
        }
    }
    Vec::new()
}

/// A round robin over `bots` bots: every pair meets in exactly one series.
/// Series come in rounds built by the circle method (Berger tables), so the
/// series run at the same time tend to involve different bots.
#[must_use]
pub fn round_robin(bots: usize) -> Vec<Series> {
    // With an odd count, a dummy bot `bots` gives one bot a bye each round.
    let n = bots + bots % 2;
    let mut ring: Vec<usize> = (0..n).collect();
    let mut out = Vec::with_capacity(bots * bots.saturating_sub(1) / 2);
    for round in 0..n.saturating_sub(1) {
        for i in 0..n / 2 {
            let (x, y) = (ring[i], ring[n - 1 - i]);
            if x < bots && y < bots {
                out.push(Series {
                    number: out.len() + 1,
                    round: round as u32 + 1,
                    a: x.min(y),
                    b: x.max(y),
                });
            }
        }
        // Keep the first bot fixed and rotate the rest by one.
        ring[1..].rotate_right(1);
    }
    out
}

/// The series of `full` (a whole schedule, numbered 1, 2, ...) that a run
/// plays: all of them, or shard `k` of `n`'s share (`shard`, 1-based: the
/// series whose number `s` has `(s - 1) % n == k - 1`). One long match (a
/// single series) is split by game pairs instead, and then the shard is
/// returned as the pair shard.
#[must_use]
pub fn shard_of(full: Vec<Series>, shard: Option<Shard>) -> (Vec<Series>, Option<Shard>) {
    let pair_shard = shard.filter(|_| full.len() == 1);
    let schedule = full
        .into_iter()
        .filter(|s| match shard {
            Some(shard) if pair_shard.is_none() => (s.number - 1) % shard.n() == shard.k() - 1,
            _ => true,
        })
        .collect();
    (schedule, pair_shard)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn every_pair_meets_once(bots in 0usize..40) {
            let s = round_robin(bots);
            prop_assert_eq!(s.len(), bots * bots.saturating_sub(1) / 2);
            let mut seen = std::collections::HashSet::new();
            for (i, x) in s.iter().enumerate() {
                prop_assert_eq!(x.number, i + 1);
                prop_assert!(x.a < x.b && x.b < bots);
                prop_assert!(seen.insert((x.a, x.b)), "pair met twice");
            }
        }

        #[test]
        fn south_is_shared_fairly(bots in 2usize..30, games in 1u32..60) {
            let mut south_total = vec![0i64; bots];
            let mut played = vec![0i64; bots];
            for s in round_robin(bots) {
                let mut south_a = 0i64;
                for g in 1..=games {
                    let (south, north) = (s.south(g), s.north(g));
                    prop_assert!(south != north);
                    prop_assert!([s.a, s.b].contains(&south) && [s.a, s.b].contains(&north));
                    if south == s.a { south_a += 1 }
                    south_total[south] += 1;
                }
                played[s.a] += i64::from(games);
                played[s.b] += i64::from(games);
                // Within a series: half the games, give or take one.
                prop_assert!((2 * south_a - i64::from(games)).abs() <= 1);
            }
            // Over the tournament too: each bot is South in half its games, give or take one.
            for b in 0..bots {
                prop_assert!((2 * south_total[b] - played[b]).abs() <= 1, "bot {b}: {} of {}", south_total[b], played[b]);
            }
        }
    }

    #[test]
    fn openings_are_seeded_legal_and_of_the_asked_length() {
        let rules = Rules::new(8, 4).unwrap();
        let a = opening(&rules, 1, 3, 2, 2..=4);
        assert_eq!(a, opening(&rules, 1, 3, 2, 2..=4), "a pure function");
        assert!((2..=4).contains(&a.len()));
        let others: Vec<_> = (1..=20).map(|p| opening(&rules, 1, 3, p, 2..=4)).collect();
        assert!(
            others.iter().any(|o| *o != a),
            "pairs get different openings"
        );
        let mut pos = rules.start();
        for mv in &a {
            pos.play(*mv).unwrap();
        }
        assert!(!pos.is_over());
        assert!(opening(&rules, 1, 1, 1, 0..=0).is_empty());
    }

    #[test]
    fn rounds_keep_bots_apart() {
        // Four bots: three rounds of two series, each round with all four bots.
        let s = round_robin(4);
        for round in s.chunks(2) {
            let mut bots: Vec<_> = round.iter().flat_map(|x| [x.a, x.b]).collect();
            bots.sort();
            assert_eq!(bots, [0, 1, 2, 3]);
        }
    }
}
