//! A league's games so far as per-pair totals: one entry per pair of bots
//! that met (repeats merge), with the series they played and the games'
//! wins, draws and losses. The league's memory for its games is
//! `O(distinct pairs)`, not `O(series)`: an entry is 12 bytes (the higher
//! bot's index and four 16-bit counts) in a sorted list per lower bot, 15
//! to 17 bytes a pair with the lists' spare room and headers (measured
//! over 1,000 bots' 20 and 10,000 bots' 50 rounds of random pairs; 39 to
//! 40 in the `BTreeMap` of `(u32, u32)` to four `u32` it replaced;
//! `arena/tests/league_memory.rs` checks it), whatever the number of
//! repeats; a pair whose counts pass 16 bits keeps them whole in a map
//! beside the lists. The fit takes its
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

impl PairTotal {
    /// The games the two played.
    #[must_use]
    pub fn games(&self) -> u64 {
        u64::from(self.wins) + u64::from(self.draws) + u64::from(self.losses)
    }
}

/// A pair as kept: the higher bot's index and the pair's series, wins,
/// draws and losses (from the lower bot's side) in 16 bits each; counts of
/// [`WIDE`] series mean the pair's totals are in [`PairTotals`]'s map of
/// wide pairs instead.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Entry {
    /// The higher bot of the pair.
    higher: u32,
    /// Series, wins, draws, losses.
    counts: [u16; 4],
}

/// The series count of an [`Entry`] whose totals are too wide for 16 bits.
const WIDE: u16 = u16::MAX;

/// The games of a league so far, one [`PairTotal`] per pair that met, in
/// `(lower, higher)` order (bots as `u32`: a league has fewer than 2³²
/// bots).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PairTotals {
    /// Per lower bot, its pairs with higher bots, sorted by the higher.
    by_lower: Vec<Vec<Entry>>,
    /// The totals of the pairs whose counts do not fit 16 bits, keyed
    /// `(lower, higher)`.
    wide: BTreeMap<(u32, u32), PairTotal>,
    /// The pairs that met.
    pairs: usize,
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
        let (low, high) = (key(low), key(high));
        if self.by_lower.len() <= low as usize {
            self.by_lower.resize_with(low as usize + 1, Vec::new);
        }
        let list = &mut self.by_lower[low as usize];
        let at = match list.binary_search_by_key(&high, |e| e.higher) {
            Ok(at) => at,
            Err(at) => {
                grow(list);
                list.insert(
                    at,
                    Entry {
                        higher: high,
                        counts: [0; 4],
                    },
                );
                self.pairs += 1;
                at
            }
        };
        let entry = &mut list[at];
        let mut t = total(&self.wide, low, entry);
        t.series = t.series.saturating_add(1);
        t.wins = t.wins.saturating_add(wins);
        t.draws = t.draws.saturating_add(wdl.draws);
        t.losses = t.losses.saturating_add(losses);
        let narrow = [t.series, t.wins, t.draws, t.losses].map(|c| u16::try_from(c).ok());
        match narrow {
            [Some(series), Some(w), Some(d), Some(l)]
                if series < WIDE && entry.counts[0] != WIDE =>
            {
                entry.counts = [series, w, d, l];
            }
            _ => {
                entry.counts = [WIDE, 0, 0, 0];
                self.wide.insert((low, high), t);
            }
        }
    }

    /// The pairs that met.
    #[must_use]
    pub fn len(&self) -> usize {
        self.pairs
    }

    /// Whether no two bots have met.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.pairs == 0
    }

    /// The totals of bots `a` and `b` (in either order) from the lower
    /// bot's side; `None` when they have not met.
    #[must_use]
    pub fn get(&self, a: usize, b: usize) -> Option<PairTotal> {
        let (low, high) = (u32::try_from(a.min(b)).ok()?, u32::try_from(a.max(b)).ok()?);
        let list = self.by_lower.get(low as usize)?;
        let at = list.binary_search_by_key(&high, |e| e.higher).ok()?;
        Some(total(&self.wide, low, &list[at]))
    }

    /// Every pair that met, in `(lower, higher)` order, with its totals.
    fn pairs(&self) -> impl Iterator<Item = (usize, usize, PairTotal)> + '_ {
        self.by_lower
            .iter()
            .enumerate()
            .flat_map(move |(low, list)| {
                list.iter().map(move |e| {
                    let t = total(&self.wide, key(low), e);
                    (low, e.higher as usize, t)
                })
            })
    }

    /// Each pair's games as the fit takes them, in `(lower, higher)`
    /// order, from the lower bot's side (a pair whose series had no game
    /// gives a result of no games, which the fit skips).
    pub fn results(&self) -> impl Iterator<Item = PairResult> + '_ {
        self.pairs().map(|(a, b, t)| PairResult {
            a,
            b,
            wins: t.wins,
            draws: t.draws,
            losses: t.losses,
        })
    }

    /// Each pair's series and games, in `(lower, higher)` order: `(lower,
    /// higher, series, games)`, what a rating's curvature adds up (each
    /// series counting the prior once).
    pub fn series_and_games(&self) -> impl Iterator<Item = (usize, usize, u32, u64)> + '_ {
        self.pairs().map(|(a, b, t)| (a, b, t.series, t.games()))
    }

    /// The series each of `bots` bots played (a bot `>= bots` is not
    /// counted).
    #[must_use]
    pub fn series(&self, bots: usize) -> Vec<u64> {
        self.per_bot(bots, |t| u64::from(t.series))
    }

    /// The games each of `bots` bots played (a bot `>= bots` is not
    /// counted).
    #[must_use]
    pub fn games(&self, bots: usize) -> Vec<u64> {
        self.per_bot(bots, PairTotal::games)
    }

    /// `count` of each pair added up for each of its two bots, for each of
    /// `bots` bots (a bot `>= bots` is not counted).
    fn per_bot(&self, bots: usize, count: impl Fn(&PairTotal) -> u64) -> Vec<u64> {
        let mut played = vec![0u64; bots];
        for (a, b, t) in self.pairs() {
            let n = count(&t);
            for bot in [a, b] {
                if let Some(p) = played.get_mut(bot) {
                    *p += n;
                }
            }
        }
        played
    }
}

/// The totals of `entry`, of lower bot `low`: its own counts, or those of
/// `wide` when they are too wide for it.
fn total(wide: &BTreeMap<(u32, u32), PairTotal>, low: u32, entry: &Entry) -> PairTotal {
    let [series, wins, draws, losses] = entry.counts;
    if series == WIDE {
        return wide.get(&(low, entry.higher)).copied().unwrap_or_default();
    }
    PairTotal {
        series: series.into(),
        wins: wins.into(),
        draws: draws.into(),
        losses: losses.into(),
    }
}

/// Room for one more entry in `list`, a quarter more at a time (at least
/// 4): a bot meets about one new opponent a round, so doubling would
/// leave a third of the room spare on average, a quarter about a tenth.
fn grow(list: &mut Vec<Entry>) {
    if list.len() == list.capacity() {
        list.reserve_exact((list.len() / 4).max(4));
    }
}

impl Meetings for PairTotals {
    fn met(&self, a: usize, b: usize) -> u32 {
        self.get(a, b).map_or(0, |t| t.series)
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

    #[test]
    fn counts_past_16_bits_are_kept_whole_and_saturate_at_32() {
        let mut t = PairTotals::new();
        t.add(5, 2, wdl(70_000, 1, 0));
        t.add(2, 5, wdl(1, 0, 2));
        for _ in 0..u32::from(u16::MAX) {
            t.add(0, 1, wdl(0, 0, 0));
        }
        t.add(3, 4, wdl(u32::MAX, 0, 0));
        t.add(4, 3, wdl(5, 0, 0));
        let pair = |series, wins, draws, losses| {
            Some(PairTotal {
                series,
                wins,
                draws,
                losses,
            })
        };
        assert_eq!(t.get(5, 2), pair(2, 1, 1, 70_002));
        assert_eq!(t.get(1, 0), pair(65_535, 0, 0, 0));
        assert_eq!(t.met(0, 1), 65_535);
        assert_eq!(t.get(3, 4), pair(2, u32::MAX, 0, 5));
        assert_eq!(t.get(0, 2), None);
        assert_eq!(t.len(), 3);
        assert_eq!(t.series(6), vec![65_535, 65_535, 2, 2, 2, 2]);
        let order: Vec<(usize, usize)> = t.results().map(|r| (r.a, r.b)).collect();
        assert_eq!(order, [(0, 1), (2, 5), (3, 4)]);
    }

    proptest::proptest! {
        /// The totals are those of a map of `(lower, higher)` to counts
        /// added up in 32 bits, pair for pair and in the map's order,
        /// counts past 16 bits too.
        #[test]
        fn the_totals_are_a_maps_of_each_pair(
            series in proptest::collection::vec((0usize..9, 0usize..9, 0u32..40_000, 0u32..3), 1..60),
        ) {
            let mut totals = PairTotals::new();
            let mut map: BTreeMap<(usize, usize), PairTotal> = BTreeMap::new();
            for &(a, b, wins, draws) in &series {
                totals.add(a, b, wdl(wins, draws, 1));
                let t = map.entry((a.min(b), a.max(b))).or_default();
                let (w, l) = if a <= b { (wins, 1) } else { (1, wins) };
                *t = PairTotal {
                    series: t.series + 1,
                    wins: t.wins + w,
                    draws: t.draws + draws,
                    losses: t.losses + l,
                };
            }
            proptest::prop_assert_eq!(totals.len(), map.len());
            let got: Vec<(usize, usize, u32, u64)> = totals.series_and_games().collect();
            let want: Vec<(usize, usize, u32, u64)> =
                map.iter().map(|(&(a, b), t)| (a, b, t.series, t.games())).collect();
            proptest::prop_assert_eq!(got, want);
            for (&(a, b), t) in &map {
                proptest::prop_assert_eq!(totals.get(b, a), Some(*t));
                proptest::prop_assert_eq!(totals.met(a, b), t.series);
            }
        }


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
