//! Trinomial Elo estimate for one pair of players (cutechess / fastchess),
//! with normalised Elo (fishtest / fastchess).

use serde::{Deserialize, Serialize};
use statrs::distribution::ContinuousCDF;
use statrs::function::erf::erf;

use super::{standard_normal, ELO_LIMIT};

/// Elo estimate of one side of a match, from its wins, draws and losses.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct PairElo {
    /// Elo difference of this side over the opponent, in Elo points
    /// (logistic scale), clamped to `-ELO_LIMIT..=ELO_LIMIT`.
    pub elo: f64,
    /// Half-width of the 95% confidence interval of `elo`, in Elo points.
    pub error_95: f64,
    /// Likelihood of superiority, `0..=1`: probability that this side is the
    /// stronger one.
    pub los: f64,
    /// Score fraction `(wins + draws / 2) / games`, `0..=1` (½ without
    /// games).
    pub score: f64,
    /// Normalised Elo (fishtest / fastchess `nElo`):
    /// `(score - ½) / σ × 800 / ln 10`, where `σ` is the standard deviation
    /// of a single game's score (in points, `0..=½`). Unlike `elo` it does
    /// not depend on the draw rate's effect on the scale: 1 nElo of
    /// difference needs the same number of games to detect whatever the draw
    /// rate. Clamped to `-ELO_LIMIT..=ELO_LIMIT`.
    pub nelo: f64,
    /// Half-width of the 95% confidence interval of `nelo`, in nElo:
    /// `(nelo(μ + z s) - nelo(μ - z s)) / 2` with the same score interval as
    /// `error_95`, which is `z / sqrt(games) × 800 / ln 10` whenever `σ > 0`.
    pub nelo_error_95: f64,
}

/// Elo difference, 95% error and LOS of a single match between two players,
/// from the first player's side, with the formulas of cutechess and
/// fastchess (normal approximation to the trinomial score):
///
/// * score `μ = (w + d/2) / n`, `n = w + d + l`;
/// * per-game variance `σ² = (w(1-μ)² + d(½-μ)² + l μ²) / n`, standard error
///   of `μ`: `s = sqrt(σ² / n)`;
/// * `elo(x) = -400 log10(1/x - 1)`; `elo = elo(μ)`;
/// * `error_95 = (elo(μ + z s) - elo(μ - z s)) / 2` with `z = Φ⁻¹(0.975)`
///   ≈ 1.959964;
/// * `los = ½ (1 + erf((μ - ½) / (sqrt(2) s)))`, i.e. `Φ((μ - ½) / s)`, as
///   in fastchess (`EloWDL::los`). This is what reproduces fastchess's
///   reference output (W 136, D 111, L 96: 40.70 ± 30.43, LOS 99.60%); the
///   older cutechess form `½ (1 + erf((w - l) / sqrt(2 (w + l))))` gives
///   99.57% there and is only used as the fallback below;
/// * normalised Elo, as in fastchess (`EloWDL::scoreToNeloDiff`, file
///   `app/src/matchmaking/elo/elo_wdl.cpp`) and fishtest
///   (`LLRcalc.py`, `nelo_divided_by_nt = 800 / ln 10`), after Michel Van
///   den Bergh's note "Normalized Elo" (cantate.be/Fishtest): `nelo(x) =
///   (x - ½) / σ × 800 / ln 10`, `nelo = nelo(μ)`, `nelo_error_95 =
///   (nelo(μ + z s) - nelo(μ - z s)) / 2`. fastchess's reference: W 136,
///   D 111, L 96 give 49.77 ± 36.77 nElo.
///
/// Degenerate cases give finite values, never NaN:
/// * no games: `elo = 0`, `error_95 = 0`, `los = ½`, `score = ½`,
///   `nelo = 0`, `nelo_error_95 = 0`;
/// * `elo(x)` is clamped to `±ELO_LIMIT` (±2000), so a 100% score gives
///   `elo = 2000`, a 0% score `-2000`; both have zero trinomial variance and
///   so `error_95 = 0` (the formula has nothing to say there, so treat it
///   as "unknown", not "exact");
/// * zero variance (every game had the same result): `los` falls back to
///   the cutechess formula (e.g. 10 wins out of 10 give 0.99922), or ½ when
///   there is no decisive game at all; `nelo` is `±ELO_LIMIT` when the score
///   is not ½ (all wins or all losses: `(μ - ½) / 0`) and 0 when it is (all
///   draws: `0 / 0`), and `nelo_error_95 = 0` ("unknown", as above);
/// * `nelo` is clamped to `±ELO_LIMIT` also when `σ > 0` but tiny.
pub fn pair_elo(wins: u32, draws: u32, losses: u32) -> PairElo {
    let (w, d, l) = (f64::from(wins), f64::from(draws), f64::from(losses));
    let n = w + d + l;
    if n == 0.0 {
        return PairElo {
            elo: 0.0,
            error_95: 0.0,
            los: 0.5,
            score: 0.5,
            nelo: 0.0,
            nelo_error_95: 0.0,
        };
    }
    let mu = (w + d / 2.0) / n;
    let variance = (w * (1.0 - mu).powi(2) + d * (0.5 - mu).powi(2) + l * mu.powi(2)) / n;
    let stderr = (variance.max(0.0) / n).sqrt();
    let (half_width, error_95) = interval_95(mu, stderr);
    let sd = variance.max(0.0).sqrt();
    let (nelo, nelo_error_95) = nelo_with_error(mu, sd, half_width);
    let los = if stderr > 0.0 {
        0.5 * (1.0 + erf((mu - 0.5) / (std::f64::consts::SQRT_2 * stderr)))
    } else {
        los_of_decisive(w, l)
    };
    PairElo {
        elo: elo_of_score(mu),
        error_95,
        los: bounded_los(los),
        score: mu,
        nelo,
        nelo_error_95,
    }
}

/// `(z × stderr, error_95)` for a score `mu` with standard error `stderr`
/// (both in points per game), `z` the normal quantile at 0.975: the
/// half-width of the score's 95% interval and of the Elo interval it maps
/// to, in Elo points.
pub(super) fn interval_95(mu: f64, stderr: f64) -> (f64, f64) {
    let half_width = standard_normal().inverse_cdf(0.975) * stderr;
    let error_95 = (elo_of_score(mu + half_width) - elo_of_score(mu - half_width)) / 2.0;
    (half_width, error_95)
}

/// Likelihood of superiority without a spread of scores (cutechess's
/// formula `½ (1 + erf((W - L) / sqrt(2 (W + L))))` over the `wins` and
/// `losses` counted), or ½ when there is neither.
pub(super) fn los_of_decisive(wins: f64, losses: f64) -> f64 {
    if wins + losses > 0.0 {
        0.5 * (1.0 + erf((wins - losses) / (2.0 * (wins + losses)).sqrt()))
    } else {
        0.5
    }
}

/// A likelihood of superiority kept in `0..=1`, ½ where it is NaN.
pub(super) fn bounded_los(los: f64) -> f64 {
    if los.is_nan() {
        0.5
    } else {
        los.clamp(0.0, 1.0)
    }
}

/// Normalised Elo per unit of t-value, `800 / ln 10` ≈ 347.4356 (fishtest's
/// `nelo_divided_by_nt`): nElo = `t × 800 / ln 10` where `t = (μ - ½) / σ`
/// per game.
pub(super) const NELO_PER_T: f64 = 800.0 / std::f64::consts::LN_10;

/// `(nelo(μ), (nelo(μ + h) - nelo(μ - h)) / 2)` with `nelo(x) = (x - ½) / sd
/// × 800 / ln 10` (fastchess's `scoreToNeloDiff`), for a score `mu`, a
/// per-game standard deviation `sd` (points) and an interval half-width `h`
/// on the score. Zero `sd`: `(±ELO_LIMIT or 0, 0)`, see [`pair_elo`]. The
/// value is clamped to `±ELO_LIMIT`; the error is not clamped (it is
/// `h / sd × 800 / ln 10`, finite whenever `sd > 0`).
pub(super) fn nelo_with_error(mu: f64, sd: f64, half_width: f64) -> (f64, f64) {
    let nelo = |x: f64| (x - 0.5) / sd * NELO_PER_T;
    if sd > 0.0 && sd.is_finite() {
        let value = nelo(mu);
        let error = (nelo(mu + half_width) - nelo(mu - half_width)) / 2.0;
        let value = if value.is_finite() {
            value.clamp(-ELO_LIMIT, ELO_LIMIT)
        } else {
            0.0
        };
        let error = if error.is_finite() {
            error.max(0.0)
        } else {
            0.0
        };
        (value, error)
    } else if mu > 0.5 {
        (ELO_LIMIT, 0.0)
    } else if mu < 0.5 {
        (-ELO_LIMIT, 0.0)
    } else {
        (0.0, 0.0)
    }
}

/// `-400 log10(1/x - 1)`: Elo difference for expected score `x`, clamped to
/// `±ELO_LIMIT` (scores at or beyond 0 and 1 give the limits).
pub(super) fn elo_of_score(x: f64) -> f64 {
    if x >= 1.0 {
        ELO_LIMIT
    } else if x <= 0.0 {
        -ELO_LIMIT
    } else {
        (-400.0 * (1.0 / x - 1.0).log10()).clamp(-ELO_LIMIT, ELO_LIMIT)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round2(x: f64) -> f64 {
        (x * 100.0).round() / 100.0
    }

    #[test]
    fn fastchess_reference_values() {
        let r = pair_elo(136, 111, 96);
        assert_eq!(round2(r.elo), 40.70, "{r:?}");
        assert_eq!(round2(r.error_95), 30.43, "{r:?}");
        assert_eq!(round2(r.los * 100.0), 99.60, "{r:?}");
        assert!((r.score - 191.5 / 343.0).abs() < 1e-15);
        // fastchess app/tests/elo_test.cpp, "EloWDL 2" (its Stats(136, 96,
        // 111) is wins, losses, draws): nElo 49.77 ± 36.77.
        assert_eq!(round2(r.nelo), 49.77, "{r:?}");
        assert_eq!(round2(r.nelo_error_95), 36.77, "{r:?}");
    }

    #[test]
    fn fastchess_nelo_reference_values() {
        // fastchess app/tests/elo_test.cpp, "EloWDL 1": Stats(76, 89, 123)
        // = 76 wins, 89 losses, 123 draws: nElo -20.76 ± 40.13, LOS 15.53%.
        let r = pair_elo(76, 123, 89);
        assert_eq!(round2(r.nelo), -20.76, "{r:?}");
        assert_eq!(round2(r.nelo_error_95), 40.13, "{r:?}");
        assert_eq!(round2(r.los * 100.0), 15.53, "{r:?}");
        // "EloWDL 3": 34 wins, 356 losses, no draws: nElo -508.44 ± 34.48.
        let r = pair_elo(34, 0, 356);
        assert_eq!(round2(r.nelo), -508.44, "{r:?}");
        assert_eq!(round2(r.nelo_error_95), 34.48, "{r:?}");
    }

    #[test]
    fn nelo_by_hand() {
        // 3 wins, 1 loss: μ = ¾, σ² = (3 (¼)² + 1 (¾)²) / 4 = 3/16, so
        // nElo = (¼ / sqrt(3/16)) × 800 / ln 10 = 347.4356 / sqrt(3)
        // = 200.5920, and the error is z / sqrt(4) × 800 / ln 10 = 340.4806.
        let r = pair_elo(3, 0, 1);
        assert!((r.nelo - 200.592_028_8).abs() < 1e-6, "{r:?}");
        assert!((r.nelo_error_95 - 340.480_617_3).abs() < 1e-6, "{r:?}");
        // Draws lower σ, so the same score is more nElo: 2 wins, 2 draws
        // (μ = ¾, σ² = 1/16) give ¼ / ¼ × 347.4356.
        let r = pair_elo(2, 2, 0);
        assert!((r.nelo - NELO_PER_T).abs() < 1e-9, "{r:?}");
        assert!((NELO_PER_T - 347.435_585_522_601_46).abs() < 1e-9);
    }

    #[test]
    fn z_is_the_95_percent_quantile() {
        let z = standard_normal().inverse_cdf(0.975);
        assert!((z - 1.959_963_984_540_054).abs() < 1e-9, "{z}");
    }

    #[test]
    fn mirrored_results_mirror_the_estimate() {
        let a = pair_elo(30, 20, 10);
        let b = pair_elo(10, 20, 30);
        assert!((a.elo + b.elo).abs() < 1e-9);
        assert!((a.error_95 - b.error_95).abs() < 1e-9);
        assert!((a.los + b.los - 1.0).abs() < 1e-12);
        assert!(a.elo > 0.0 && a.error_95 > 0.0 && a.los > 0.5);
    }

    #[test]
    fn degenerate_cases_are_finite_and_documented() {
        let none = pair_elo(0, 0, 0);
        assert_eq!(
            (none.elo, none.error_95, none.los, none.score),
            (0.0, 0.0, 0.5, 0.5)
        );
        assert_eq!((none.nelo, none.nelo_error_95), (0.0, 0.0));

        let perfect = pair_elo(10, 0, 0);
        assert_eq!(
            (perfect.elo, perfect.error_95, perfect.score),
            (ELO_LIMIT, 0.0, 1.0)
        );
        // Zero variance: cutechess's LOS, ½ (1 + erf(10 / sqrt(20))).
        assert!((perfect.los - 0.999_217_3).abs() < 1e-6, "{perfect:?}");
        assert_eq!((perfect.nelo, perfect.nelo_error_95), (ELO_LIMIT, 0.0));

        let zero = pair_elo(0, 0, 7);
        assert_eq!((zero.elo, zero.error_95), (-ELO_LIMIT, 0.0));
        assert!(zero.los < 0.01 && zero.los >= 0.0);
        assert_eq!((zero.nelo, zero.nelo_error_95), (-ELO_LIMIT, 0.0));

        let draws = pair_elo(0, 9, 0);
        assert_eq!((draws.elo, draws.error_95, draws.los), (0.0, 0.0, 0.5));
        assert_eq!((draws.nelo, draws.nelo_error_95), (0.0, 0.0));

        // A single game: a win is a 100% score, a draw an even one.
        let win = pair_elo(1, 0, 0);
        assert_eq!(
            (win.elo, win.error_95, win.nelo),
            (ELO_LIMIT, 0.0, ELO_LIMIT)
        );
        assert!((win.los - 0.841_344_7).abs() < 1e-6, "{win:?}");
        let draw = pair_elo(0, 1, 0);
        assert_eq!((draw.elo, draw.nelo, draw.los), (0.0, 0.0, 0.5));

        // Nearly perfect: the upper interval end is clamped, still finite.
        let nearly = pair_elo(99, 0, 1);
        assert!(nearly.elo.is_finite() && nearly.error_95.is_finite() && nearly.error_95 > 0.0);
        assert!(nearly.nelo.is_finite() && nearly.nelo > 0.0 && nearly.nelo_error_95 > 0.0);

        let huge = pair_elo(u32::MAX, u32::MAX, u32::MAX);
        assert!(huge.elo.abs() < 1e-9 && huge.error_95 >= 0.0 && huge.error_95 < 0.01);
        assert_eq!(huge.los, 0.5);
    }

    #[test]
    fn elo_of_score_known_points() {
        assert_eq!(elo_of_score(0.5), 0.0);
        assert!((elo_of_score(0.75) - 400.0 * 3f64.log10()).abs() < 1e-9);
        assert_eq!(elo_of_score(1e-300), -ELO_LIMIT);
        assert_eq!(elo_of_score(1.5), ELO_LIMIT);
    }
}
