//! Trinomial Elo estimate for one pair of players (cutechess / fastchess).

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
///   99.57% there and is only used as the fallback below.
///
/// Degenerate cases give finite values, never NaN:
/// * no games: `elo = 0`, `error_95 = 0`, `los = ½`, `score = ½`;
/// * `elo(x)` is clamped to `±ELO_LIMIT` (±2000), so a 100% score gives
///   `elo = 2000`, a 0% score `-2000`; both have zero trinomial variance and
///   so `error_95 = 0` (the formula has nothing to say there, so treat it
///   as "unknown", not "exact");
/// * zero variance (every game had the same result): `los` falls back to
///   the cutechess formula (e.g. 10 wins out of 10 give 0.99922), or ½ when
///   there is no decisive game at all.
pub fn pair_elo(wins: u32, draws: u32, losses: u32) -> PairElo {
    let (w, d, l) = (f64::from(wins), f64::from(draws), f64::from(losses));
    let n = w + d + l;
    if n == 0.0 {
        return PairElo {
            elo: 0.0,
            error_95: 0.0,
            los: 0.5,
            score: 0.5,
        };
    }
    let mu = (w + d / 2.0) / n;
    let variance = (w * (1.0 - mu).powi(2) + d * (0.5 - mu).powi(2) + l * mu.powi(2)) / n;
    let stderr = (variance.max(0.0) / n).sqrt();
    let z = standard_normal().inverse_cdf(0.975);
    let error_95 = (elo_of_score(mu + z * stderr) - elo_of_score(mu - z * stderr)) / 2.0;
    let los = if stderr > 0.0 {
        0.5 * (1.0 + erf((mu - 0.5) / (std::f64::consts::SQRT_2 * stderr)))
    } else if w + l > 0.0 {
        0.5 * (1.0 + erf((w - l) / (2.0 * (w + l)).sqrt()))
    } else {
        0.5
    };
    let los = if los.is_nan() {
        0.5
    } else {
        los.clamp(0.0, 1.0)
    };
    PairElo {
        elo: elo_of_score(mu),
        error_95,
        los,
        score: mu,
    }
}

/// `-400 log10(1/x - 1)`: Elo difference for expected score `x`, clamped to
/// `±ELO_LIMIT` (scores at or beyond 0 and 1 give the limits).
fn elo_of_score(x: f64) -> f64 {
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

        let perfect = pair_elo(10, 0, 0);
        assert_eq!(
            (perfect.elo, perfect.error_95, perfect.score),
            (ELO_LIMIT, 0.0, 1.0)
        );
        // Zero variance: cutechess's LOS, ½ (1 + erf(10 / sqrt(20))).
        assert!((perfect.los - 0.999_217_3).abs() < 1e-6, "{perfect:?}");

        let zero = pair_elo(0, 0, 7);
        assert_eq!((zero.elo, zero.error_95), (-ELO_LIMIT, 0.0));
        assert!(zero.los < 0.01 && zero.los >= 0.0);

        let draws = pair_elo(0, 9, 0);
        assert_eq!((draws.elo, draws.error_95, draws.los), (0.0, 0.0, 0.5));

        // Nearly perfect: the upper interval end is clamped, still finite.
        let nearly = pair_elo(99, 0, 1);
        assert!(nearly.elo.is_finite() && nearly.error_95.is_finite() && nearly.error_95 > 0.0);

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
