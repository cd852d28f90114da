//! Pentanomial statistics of game pairs (fastchess / fishtest).
//!
//! When every opening is played twice with the sides swapped, the two games
//! of a pair are correlated (a lopsided opening tends to be won by whoever
//! has the good side both times), so the per-game trinomial variance
//! misjudges the error. Counting pairs by their total score (0, ½, 1, 1½ or
//! 2 points, the "pentanomial" frequencies) and treating pairs as the
//! independent trials gives the right error, as fishtest and fastchess do.

use serde::{Deserialize, Serialize};
use statrs::function::erf::erf;

use super::pair::{bounded_los, elo_of_score, interval_95, los_of_decisive, nelo_with_error};

/// The result of one game for the side it is counted from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GameScore {
    /// A loss: 0 points.
    Loss,
    /// A draw: ½ point.
    Draw,
    /// A win: 1 point.
    Win,
}

impl GameScore {
    /// Points in half-point units: 0 for a loss, 1 for a draw, 2 for a win.
    pub fn half_points(self) -> usize {
        match self {
            GameScore::Loss => 0,
            GameScore::Draw => 1,
            GameScore::Win => 2,
        }
    }
}

/// Pentanomial frequencies of game pairs between two bots, from the first
/// bot's side.
///
/// `counts[k]` is the number of pairs in which the first bot scored `k / 2`
/// points over the two games: `[LL, LD, LW + DD, DW, WW]` (the order of the
/// two games does not matter, so `LD` also counts `DL`, and so on). This is
/// fishtest's order (`LLRcalc.py`: "LL, LD+DL, LW+DD+WL, DW+WD, WW"); a
/// pair is two games with the same opening and the sides swapped.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Pentanomial {
    /// Pairs by the first bot's points in half-point units, `0..=4`.
    pub counts: [u32; 5],
}

impl Pentanomial {
    /// Counts one pair: the first bot's results in the two games (both from
    /// its side, in either order). A count that would overflow `u32` stays
    /// at `u32::MAX`.
    pub fn add_pair(&mut self, first: GameScore, second: GameScore) {
        let k = first.half_points() + second.half_points();
        self.counts[k] = self.counts[k].saturating_add(1);
    }

    /// The frequencies of `pairs` (each the first bot's two results, see
    /// [`Pentanomial::add_pair`]).
    pub fn from_pairs<I: IntoIterator<Item = (GameScore, GameScore)>>(pairs: I) -> Self {
        let mut p = Self::default();
        for (first, second) in pairs {
            p.add_pair(first, second);
        }
        p
    }

    /// Number of pairs counted.
    pub fn pairs(&self) -> u64 {
        self.counts.iter().map(|&c| u64::from(c)).sum()
    }

    /// The same pairs seen from the second bot's side (`counts` reversed).
    pub fn flipped(&self) -> Self {
        let mut counts = self.counts;
        counts.reverse();
        Self { counts }
    }
}

/// Elo and normalised Elo of one side of a paired match, from its
/// pentanomial frequencies (see [`penta_elo`]).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct PentaElo {
    /// Elo difference of the first bot over the second, in Elo points
    /// (logistic scale), clamped to `-ELO_LIMIT..=ELO_LIMIT`.
    pub elo: f64,
    /// Half-width of the 95% confidence interval of `elo`, in Elo points.
    pub error_95: f64,
    /// Normalised Elo, in nElo (fishtest / fastchess): `(μ - ½) /
    /// sqrt(2 var) × 800 / ln 10`, `var` being the variance of half a pair's
    /// score, so that `sqrt(2 var)` is the per-game standard deviation
    /// implied by the pairs. Clamped to `-ELO_LIMIT..=ELO_LIMIT`.
    pub nelo: f64,
    /// Half-width of the 95% confidence interval of `nelo`, in nElo
    /// (`z / sqrt(2 pairs) × 800 / ln 10` whenever `var > 0`).
    pub nelo_error_95: f64,
    /// Likelihood of superiority, `0..=1`: probability that the first bot is
    /// the stronger one.
    pub los: f64,
    /// Score fraction of the first bot over all games of the pairs, `0..=1`
    /// (½ without pairs).
    pub score: f64,
}

/// Elo, normalised Elo, their 95% errors and LOS of a paired match, with the
/// pentanomial formulas of fastchess (`EloPentanomial`, file
/// `app/src/matchmaking/elo/elo_pentanomial.cpp` in Disservin/fastchess),
/// which follow fishtest (`server/fishtest/stats/stat_util.py` and
/// `LLRcalc.py`) and Michel Van den Bergh's note "Normalized Elo"
/// (cantate.be/Fishtest/normalized_elo_practical.pdf):
///
/// * `n` pairs, frequencies `p_k = counts[k] / n`, half-pair scores
///   `a_k = k / 4` (0, ¼, ½, ¾, 1);
/// * score `μ = Σ p_k a_k` (the first bot's score fraction);
/// * variance of the half-pair score `var = Σ p_k (a_k - μ)²`, standard
///   error of `μ`: `s = sqrt(var / n)` (pairs are the independent trials);
/// * `elo(x) = -400 log10(1/x - 1)`; `elo = elo(μ)`, `error_95 = (elo(μ + z
///   s) - elo(μ - z s)) / 2` with `z = Φ⁻¹(0.975)` ≈ 1.959964;
/// * `nelo(x) = (x - ½) / sqrt(2 var) × 800 / ln 10`, `nelo = nelo(μ)`,
///   `nelo_error_95 = (nelo(μ + z s) - nelo(μ - z s)) / 2`;
/// * `los = ½ (1 - erf(-(μ - ½) / sqrt(2 s²)))`, i.e. `Φ((μ - ½) / s)`.
///
/// fastchess's reference (`app/tests/elo_test.cpp`, "EloPentanomial 1"):
/// counts `[34, 54, 63, 64, 75]` give 55.58 ± 27.65 Elo, 57.94 ± 28.28 nElo.
///
/// Degenerate cases give finite values, never NaN (same conventions as
/// [`super::pair_elo`]):
/// * no pairs: `elo = 0`, `error_95 = 0`, `nelo = 0`, `nelo_error_95 = 0`,
///   `los = ½`, `score = ½`;
/// * `elo(x)` is clamped to `±ELO_LIMIT` (±2000): all pairs WW give `elo =
///   2000`, all LL `-2000`;
/// * zero variance (every pair scored the same): `error_95 = 0` and
///   `nelo_error_95 = 0` ("unknown", not "exact"); `nelo` is `±ELO_LIMIT`
///   when `μ ≠ ½` and 0 when `μ = ½` (e.g. every pair 1 point); `los` falls
///   back to the cutechess formula `½ (1 + erf((W - L) / sqrt(2 (W + L))))`
///   with `W` the pairs scoring more than 1 point and `L` those scoring less
///   (so `n` pairs WW give `Φ(sqrt(n))`), or ½ when every pair scored
///   exactly 1 point;
/// * `nelo` is clamped to `±ELO_LIMIT` also when `var > 0` but tiny.
pub fn penta_elo(p: &Pentanomial) -> PentaElo {
    let n = p.pairs() as f64;
    if n == 0.0 {
        return PentaElo {
            elo: 0.0,
            error_95: 0.0,
            nelo: 0.0,
            nelo_error_95: 0.0,
            los: 0.5,
            score: 0.5,
        };
    }
    let freq: Vec<f64> = p.counts.iter().map(|&c| f64::from(c) / n).collect();
    let mu: f64 = freq
        .iter()
        .enumerate()
        .map(|(k, f)| f * k as f64 / 4.0)
        .sum();
    let variance: f64 = freq
        .iter()
        .enumerate()
        .map(|(k, f)| f * (k as f64 / 4.0 - mu).powi(2))
        .sum::<f64>()
        .max(0.0);
    let stderr = (variance / n).sqrt();
    let (half_width, error_95) = interval_95(mu, stderr);
    let (nelo, nelo_error_95) = nelo_with_error(mu, (2.0 * variance).sqrt(), half_width);
    let los = if stderr > 0.0 {
        0.5 * (1.0 - erf(-(mu - 0.5) / (2.0 * stderr * stderr).sqrt()))
    } else {
        let above = f64::from(p.counts[3]) + f64::from(p.counts[4]);
        let below = f64::from(p.counts[0]) + f64::from(p.counts[1]);
        los_of_decisive(above, below)
    };
    PentaElo {
        elo: elo_of_score(mu),
        error_95,
        nelo,
        nelo_error_95,
        los: bounded_los(los),
        score: mu.clamp(0.0, 1.0),
    }
}

/// Random pentanomial counts for property tests: each count zero, small,
/// up to `typical`, or any `u32`.
#[cfg(test)]
pub(crate) fn counts_strategy(typical: u32) -> impl proptest::strategy::Strategy<Value = [u32; 5]> {
    proptest::array::uniform5(proptest::prop_oneof![
        proptest::strategy::Just(0u32),
        0u32..5,
        0u32..typical,
        proptest::prelude::any::<u32>(),
    ])
}

#[cfg(test)]
mod tests {
    use super::super::ELO_LIMIT;
    use super::*;
    use GameScore::{Draw, Loss, Win};

    /// `(elo, error_95, nelo, nelo_error_95, los, score)`, to compare at once.
    fn fields(r: PentaElo) -> (f64, f64, f64, f64, f64, f64) {
        (r.elo, r.error_95, r.nelo, r.nelo_error_95, r.los, r.score)
    }

    fn round2(x: f64) -> f64 {
        (x * 100.0).round() / 100.0
    }

    /// fastchess's `Stats(ll, ld, wl, dd, wd, ww)` as our counts.
    fn fastchess(ll: u32, ld: u32, wl: u32, dd: u32, wd: u32, ww: u32) -> Pentanomial {
        Pentanomial {
            counts: [ll, ld, wl + dd, wd, ww],
        }
    }

    #[test]
    fn pairs_are_counted_by_points() {
        let p = Pentanomial::from_pairs([
            (Loss, Loss),
            (Loss, Draw),
            (Draw, Loss),
            (Win, Loss),
            (Draw, Draw),
            (Loss, Win),
            (Win, Draw),
            (Win, Win),
        ]);
        assert_eq!(p.counts, [1, 2, 3, 1, 1]);
        assert_eq!(p.pairs(), 8);
        assert_eq!(p.flipped().counts, [1, 1, 3, 2, 1]);
        let mut full = Pentanomial {
            counts: [0, 0, 0, 0, u32::MAX],
        };
        full.add_pair(Win, Win);
        assert_eq!(full.counts[4], u32::MAX);
    }

    #[test]
    fn fastchess_reference_values() {
        // Disservin/fastchess app/tests/elo_test.cpp; its Stats(ll, ld, wl,
        // dd, wd, ww) constructor. Published to 2 decimals.
        // (Stats, [elo, error_95, nelo, nelo_error_95], LOS in percent).
        let cases = [
            (
                fastchess(34, 54, 31, 32, 64, 75),
                [55.58, 27.65, 57.94, 28.28],
                Some(100.00),
            ),
            (
                fastchess(332, 433, 457, 41, 333, 334),
                [-8.64, 10.33, -9.17, 10.96],
                Some(5.05),
            ),
            (
                fastchess(7895, 8757, 5485, 200, 568, 9999),
                [-21.04, 2.95, -19.01, 2.65],
                None,
            ),
        ];
        for (stats, expected, los_percent) in cases {
            let r = penta_elo(&stats);
            assert_eq!(
                [r.elo, r.error_95, r.nelo, r.nelo_error_95].map(round2),
                expected,
                "{r:?}"
            );
            if let Some(los_percent) = los_percent {
                assert_eq!(round2(r.los * 100.0), los_percent, "{r:?}");
            }
        }
    }

    #[test]
    fn values_by_hand() {
        // Counts [0, 1, 2, 3, 4], 10 pairs: μ = (¼ + 2·½ + 3·¾ + 4) / 10 = ¾;
        // var = (0.1·¼ + 0.2·1/16 + 0 + 0.4·1/16) = 1/16.
        // elo = 400 log10 3 = 190.8485; nElo = ¼ / sqrt(1/8) × 347.4356 =
        // 245.6741; nElo error = z / sqrt(20) × 347.4356 = 152.2676;
        // s = sqrt(1/160), LOS = Φ(¼ / s) = Φ(sqrt(10)) = 0.999217.
        let r = penta_elo(&Pentanomial {
            counts: [0, 1, 2, 3, 4],
        });
        assert!((r.score - 0.75).abs() < 1e-15, "{r:?}");
        assert!((r.elo - 190.848_501_887_865).abs() < 1e-9, "{r:?}");
        assert!((r.nelo - 245.674_058_548_550).abs() < 1e-9, "{r:?}");
        assert!(
            (r.nelo_error_95 - 152.267_561_054_491).abs() < 1e-9,
            "{r:?}"
        );
        assert!((r.los - 0.999_217_298_871).abs() < 1e-9, "{r:?}");
        // Elo interval from the score interval ¾ ± z sqrt(1/160).
        let s = (1.0f64 / 160.0).sqrt();
        let z = 1.959_963_984_540_054;
        let expected = (elo_of_score(0.75 + z * s) - elo_of_score(0.75 - z * s)) / 2.0;
        assert!((r.error_95 - expected).abs() < 1e-9);
        assert!((r.error_95 - 162.302_379_628_196).abs() < 1e-6, "{r:?}");
    }

    #[test]
    fn symmetric_counts_are_even_and_flipping_mirrors() {
        let p = Pentanomial {
            counts: [1, 2, 3, 2, 1],
        };
        let r = penta_elo(&p);
        assert!(r.elo.abs() < 1e-9 && r.nelo.abs() < 1e-9 && (r.los - 0.5).abs() < 1e-12);
        let a = penta_elo(&Pentanomial {
            counts: [3, 10, 20, 15, 7],
        });
        let b = penta_elo(
            &Pentanomial {
                counts: [3, 10, 20, 15, 7],
            }
            .flipped(),
        );
        assert!((a.elo + b.elo).abs() < 1e-9 && (a.nelo + b.nelo).abs() < 1e-9);
        assert!((a.error_95 - b.error_95).abs() < 1e-9);
        assert!((a.los + b.los - 1.0).abs() < 1e-12);
    }

    #[test]
    fn pairs_see_correlation_that_games_miss() {
        // Every pair is a win with one side and a loss with the other: the
        // games are 50% wins and 50% losses (trinomial error large) but the
        // pairs always score 1 point (pentanomial variance 0).
        let p = Pentanomial {
            counts: [0, 0, 50, 0, 0],
        };
        let r = penta_elo(&p);
        assert_eq!((r.elo, r.error_95, r.nelo, r.los), (0.0, 0.0, 0.0, 0.5));
        assert!(super::super::pair_elo(50, 0, 50).error_95 > 50.0);
    }

    #[test]
    fn degenerate_cases_are_finite_and_documented() {
        let none = penta_elo(&Pentanomial::default());
        assert_eq!(fields(none), (0.0, 0.0, 0.0, 0.0, 0.5, 0.5));

        // All pairs 1 point (here all DD): even, zero variance.
        let even = penta_elo(&Pentanomial {
            counts: [0, 0, 12, 0, 0],
        });
        assert_eq!(fields(even), (0.0, 0.0, 0.0, 0.0, 0.5, 0.5));

        // All WW: 100%, clamped; LOS from the cutechess fallback with 9
        // pair wins: ½ (1 + erf(9 / sqrt(18))) = Φ(3) = 0.9986501.
        let all_ww = penta_elo(&Pentanomial {
            counts: [0, 0, 0, 0, 9],
        });
        let (elo, error_95, nelo, nelo_error_95, los, score) = fields(all_ww);
        assert_eq!(
            (elo, error_95, nelo, nelo_error_95, score),
            (ELO_LIMIT, 0.0, ELO_LIMIT, 0.0, 1.0)
        );
        assert!((los - 0.998_650_1).abs() < 1e-7, "{all_ww:?}");

        let all_ll = penta_elo(&Pentanomial {
            counts: [4, 0, 0, 0, 0],
        });
        assert_eq!(
            (all_ll.elo, all_ll.nelo, all_ll.score),
            (-ELO_LIMIT, -ELO_LIMIT, 0.0)
        );
        // Four pairs below, none above: Φ(-2).
        assert!((all_ll.los - 0.022_750_1).abs() < 1e-7, "{all_ll:?}");

        // A single pair: zero variance again; LD gives ¼, one pair below
        // and none above, so LOS = ½ (1 + erf(-1 / sqrt(2))) = Φ(-1).
        let single = penta_elo(&Pentanomial::from_pairs([(Loss, Draw)]));
        assert!((single.score - 0.25).abs() < 1e-15);
        assert!(
            (single.elo + 400.0 * 3f64.log10()).abs() < 1e-9,
            "{single:?}"
        );
        assert_eq!(
            (single.error_95, single.nelo, single.nelo_error_95),
            (0.0, -ELO_LIMIT, 0.0)
        );
        assert!((single.los - 0.158_655_3).abs() < 1e-6, "{single:?}");

        // Nearly all WW: finite, the upper end clamped.
        let nearly = penta_elo(&Pentanomial {
            counts: [1, 0, 0, 0, 1000],
        });
        assert!(nearly.elo.is_finite() && nearly.error_95 > 0.0 && nearly.error_95.is_finite());
        assert_eq!(nearly.nelo, ELO_LIMIT);
        assert!(nearly.nelo_error_95 > 0.0 && nearly.nelo_error_95.is_finite());

        let huge = penta_elo(&Pentanomial {
            counts: [u32::MAX; 5],
        });
        assert!(huge.elo.abs() < 1e-9 && huge.nelo.abs() < 1e-9 && huge.los == 0.5);
        assert!(huge.error_95 > 0.0 && huge.error_95 < 0.01);
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(500))]

        #[test]
        fn outputs_are_finite_and_in_range(
            counts in counts_strategy(1000),
        ) {
            let r = penta_elo(&Pentanomial { counts });
            for x in [r.elo, r.error_95, r.nelo, r.nelo_error_95, r.los, r.score] {
                proptest::prop_assert!(x.is_finite(), "{:?} {:?}", counts, r);
            }
            proptest::prop_assert!(r.elo.abs() <= ELO_LIMIT && r.nelo.abs() <= ELO_LIMIT);
            proptest::prop_assert!(r.error_95 >= 0.0 && r.nelo_error_95 >= 0.0);
            proptest::prop_assert!((0.0..=1.0).contains(&r.los) && (0.0..=1.0).contains(&r.score));
        }
    }
}
