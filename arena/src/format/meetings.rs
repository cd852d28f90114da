//! A league's games so far as per-pair totals: one entry per pair of bots
//! that met (repeats merge), with the series they played and the games'
//! wins, draws and losses. The league's memory for its games is
//! `O(distinct pairs)`, not `O(series)`: about 35 bytes a pair (a
//! `BTreeMap` entry of 24 bytes, `(u32, u32)` and four `u32`, with its
//! nodes' spare room), whatever the number of repeats. The fit takes its
//! input from these totals ([`PairTotals::results`]), the pairing its
//! meetings ([`Meetings`]).

use std::collections::{BTreeMap, HashMap};

use crate::standings::Wdl;
use crate::stats::PairResult;

/// How many times two bots have met: what the pairing asks of the games
/// so far.
pub trait Meetings {
    /// The series bots `a` and `b` have played (in either order).
    fn met(&self, a: usize, b: usize) -> u32;
}

/// Times each two bots have met, keyed `(lower, higher)`: a table of
/// meetings for tests and benches ([`PairTotals`] is the league's own).
pub type Met = HashMap<(usize, usize), u32>;

impl Meetings for Met {
    fn met(&self, a: usize, b: usize) -> u32 {
        self.get(&(a.min(b), a.max(b))).copied().unwrap_or(0)
    }
}

/// One pair's totals, from the lower-numbered bot's side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PairTotal {
    /// The series the two played.
    pub series: u32,
    /// Games the lower-numbered bot won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games the lower-numbered bot lost.
    pub losses: u32,
}

/// The games of a league so far, one [`PairTotal`] per pair that met,
/// keyed `(lower, higher)` (bots as `u32`: a league has fewer than 2³²
/// bots).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PairTotals {
    pairs: BTreeMap<(u32, u32), PairTotal>,
}

/// A bot's index as a key: bots are config indices, far below 2³².
fn key(bot: usize) -> u32 {
    u32::try_from(bot).expect("a league has fewer than 2^32 bots")
}

impl PairTotals {
    /// No games.
    #[must_use]
    pub fn new() -> PairTotals {
        PairTotals::default()
    }

    /// Adds one series of `a` against `b`, `wdl` from `a`'s side (counts
    /// saturate at `u32::MAX`).
    pub fn add(&mut self, a: usize, b: usize, wdl: Wdl) {
        let (low, high, wins, losses) = if a <= b {
            (a, b, wdl.wins, wdl.losses)
        } else {
            (b, a, wdl.losses, wdl.wins)
        };
        let t = self.pairs.entry((key(low), key(high))).or_default();
        t.series = t.series.saturating_add(1);
        t.wins = t.wins.saturating_add(wins);
        t.draws = t.draws.saturating_add(wdl.draws);
        t.losses = t.losses.saturating_add(losses);
    }

    /// The pairs that met.
    #[must_use]
    pub fn len(&self) -> usize {
        self.pairs.len()
    }

    /// Whether no two bots have met.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }

    /// Each pair's games as the fit takes them, in `(lower, higher)`
    /// order, from the lower bot's side (a pair whose series had no game
    /// gives a result of no games, which the fit skips).
    pub fn results(&self) -> impl Iterator<Item = PairResult> + '_ {
        self.pairs.iter().map(|(&(a, b), t)| PairResult {
            a: a as usize,
            b: b as usize,
            wins: t.wins,
            draws: t.draws,
            losses: t.losses,
        })
    }

    /// Each pair's series and games, in `(lower, higher)` order: `(lower,
    /// higher, series, games)`, what a rating's curvature adds up (each
    /// series counting the prior once).
    pub fn series_and_games(&self) -> impl Iterator<Item = (usize, usize, u32, u64)> + '_ {
        self.pairs.iter().map(|(&(a, b), t)| {
            let games = u64::from(t.wins) + u64::from(t.draws) + u64::from(t.losses);
            (a as usize, b as usize, t.series, games)
        })
    }

    /// The series each of `bots` bots played (a bot `>= bots` is not
    /// counted).
    #[must_use]
    pub fn series(&self, bots: usize) -> Vec<u64> {
        let mut played = vec![0u64; bots];
        for (&(a, b), t) in &self.pairs {
            for bot in [a as usize, b as usize] {
                if let Some(p) = played.get_mut(bot) {
                    *p += u64::from(t.series);
                }
            }
        }
        played
    }

    /// The games each of `bots` bots played (a bot `>= bots` is not
    /// counted).
    #[must_use]
    pub fn games(&self, bots: usize) -> Vec<u64> {
        let mut played = vec![0u64; bots];
        for r in self.results() {
            let n = u64::from(r.wins) + u64::from(r.draws) + u64::from(r.losses);
            for bot in [r.a, r.b] {
                if let Some(p) = played.get_mut(bot) {
                    *p += n;
                }
            }
        }
        played
    }
}

impl Meetings for PairTotals {
    fn met(&self, a: usize, b: usize) -> u32 {
        let (Ok(low), Ok(high)) = (u32::try_from(a.min(b)), u32::try_from(a.max(b))) else {
            return 0;
        };
        self.pairs.get(&(low, high)).map_or(0, |t| t.series)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wdl(wins: u32, draws: u32, losses: u32) -> Wdl {
        Wdl {
            wins,
            draws,
            losses,
        }
    }

    #[test]
    fn repeats_merge_into_one_pair_from_the_lower_bots_side() {
        let mut t = PairTotals::new();
        t.add(3, 1, wdl(2, 0, 0));
        t.add(1, 3, wdl(0, 1, 1));
        t.add(0, 2, wdl(1, 1, 0));
        assert_eq!(t.len(), 2);
        assert_eq!(
            (t.met(1, 3), t.met(3, 1), t.met(0, 2), t.met(0, 1)),
            (2, 2, 1, 0)
        );
        let r: Vec<PairResult> = t.results().collect();
        assert_eq!(
            (r[0].a, r[0].b, r[0].wins, r[0].draws, r[0].losses),
            (0, 2, 1, 1, 0)
        );
        // Bot 3 won 2, then drew 1 and won 1 against bot 1: from bot 1's
        // side 0 wins, 1 draw, 3 losses.
        assert_eq!(
            (r[1].a, r[1].b, r[1].wins, r[1].draws, r[1].losses),
            (1, 3, 0, 1, 3)
        );
        assert_eq!(t.games(4), vec![2, 4, 2, 4]);
        assert_eq!(t.series(4), vec![1, 2, 1, 2]);
        let terms: Vec<_> = t.series_and_games().collect();
        assert_eq!(terms, vec![(0, 2, 1, 2), (1, 3, 2, 4)]);
    }

    proptest::proptest! {
        /// The fit of the per-pair totals is the fit of the series list,
        /// to the last bit (the fit adds up each pair's games itself), with
        /// the league's mean bot and its bootstrap alike.
        #[test]
        fn the_totals_fit_as_the_list_of_series(
            series in proptest::collection::vec((0usize..12, 0usize..12, 0u32..3, 0u32..2), 1..80),
            prior in 0.0f64..2.0,
        ) {
            let mut totals = PairTotals::new();
            let mut list = Vec::new();
            for &(a, b, wins, draws) in series.iter().filter(|s| s.0 != s.1) {
                let losses = 2u32.saturating_sub(wins + draws);
                totals.add(a, b, wdl(wins, draws, losses));
                list.push(PairResult { a, b, wins, draws, losses });
            }
            let compact: Vec<PairResult> = totals.results().collect();
            proptest::prop_assert!(compact.len() <= list.len());
            let bits = |v: Vec<f64>| v.into_iter().map(f64::to_bits).collect::<Vec<_>>();
            proptest::prop_assert_eq!(
                bits(crate::stats::fit(12, &list, prior)),
                bits(crate::stats::fit(12, &compact, prior))
            );
            let options = crate::stats::RatingOptions {
                prior_draws: prior,
                bootstrap_samples: 20,
                seed: 7,
                ..crate::stats::RatingOptions::default()
            };
            let (x, y) = (crate::stats::rate(12, &list, &options), crate::stats::rate(12, &compact, &options));
            for bot in 0..12 {
                proptest::prop_assert_eq!(x.ratings[bot].elo.to_bits(), y.ratings[bot].elo.to_bits());
                proptest::prop_assert_eq!(x.ratings[bot].sd.to_bits(), y.ratings[bot].sd.to_bits());
            }
            let mut games = vec![0u64; 12];
            for r in &list {
                games[r.a] += u64::from(r.wins + r.draws + r.losses);
                games[r.b] += u64::from(r.wins + r.draws + r.losses);
            }
            proptest::prop_assert_eq!(totals.games(12), games);
        }
    }
}
