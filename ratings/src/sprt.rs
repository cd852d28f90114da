//! Sequential probability ratio test, generalised (GSPRT), as fishtest and
//! fastchess run it.
//!
//! The log-likelihood ratio of a results table is computed as in fishtest's
//! `server/fishtest/stats/LLRcalc.py` (`LLR_logistic`, `LLR_normalized`),
//! which fastchess ports in `app/src/matchmaking/sprt/sprt.cpp`
//! (`SPRT::getLLR`): the outcomes (L, D, W, or the five pair scores) are an
//! unknown multinomial distribution; under each hypothesis it is replaced by
//! its maximum-likelihood estimate subject to that hypothesis (Michel Van den
//! Bergh, "Support of the MLE of a multinomial distribution", Proposition
//! 1.1, and "Normalized Elo", Section 4.1, both at cantate.be/Fishtest), and
//! the LLR is `N Σ p̂_i (ln p1_i - ln p0_i)`.

use serde::{Deserialize, Serialize};

use super::pair::NELO_PER_T;
use super::pentanomial::Pentanomial;
use super::ELO_LIMIT;

/// The Elo scale the SPRT hypotheses are expressed in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SprtModel {
    /// Logistic Elo (fishtest `LLR_logistic`, fastchess `logistic`):
    /// hypothesis `elo` means an expected score per game of
    /// `1 / (1 + 10^(-elo / 400))`, whatever the draw rate.
    Logistic,
    /// Normalised Elo (fishtest `LLR_normalized`, fastchess `normalized`;
    /// Van den Bergh, "Normalized Elo"): hypothesis `nelo` means a t-value
    /// per game `(μ - ½) / σ = nelo / (800 / ln 10)`, `σ` being the standard
    /// deviation of one game's score. For pairs, fishtest's
    /// `t = sqrt(2) × nelo / (800 / ln 10)` on the half-pair score.
    Normalized,
}

/// Where an SPRT stands after the latest log-likelihood ratio.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SprtStatus {
    /// The LLR is strictly between the bounds: keep playing.
    Continue,
    /// The LLR reached the lower bound: accept H0 (`elo = elo0`); in
    /// fishtest's words the test failed.
    AcceptH0,
    /// The LLR reached the upper bound: accept H1 (`elo = elo1`); the test
    /// passed.
    AcceptH1,
}

/// A sequential probability ratio test of H0 `elo = elo0` against H1 `elo =
/// elo1` (in the units of `model`), with error rates `alpha` (accepting H1
/// when H0 holds) and `beta` (accepting H0 when H1 holds).
///
/// Sources: Wald's SPRT bounds; the generalised LLR of fishtest
/// (`LLRcalc.py`) and fastchess (`sprt.cpp`); Van den Bergh's notes at
/// cantate.be/Fishtest.
///
/// The fields are plain data and are sanitised where they are used, so that
/// no method ever returns NaN or infinity:
/// * `elo0`, `elo1`: Elo points (logistic) or nElo (normalised), clamped to
///   `-ELO_LIMIT..=ELO_LIMIT`; if either is NaN, or they are equal, every
///   LLR is 0. `elo0 > elo1` is allowed (the LLR changes sign).
/// * `alpha`, `beta`: probabilities, clamped to `1e-9..=1 - 1e-9`; NaN
///   means 0.05.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Sprt {
    /// H0: the first bot's true strength over the second (Elo or nElo).
    pub elo0: f64,
    /// H1: the first bot's true strength over the second (Elo or nElo).
    pub elo1: f64,
    /// Type I error rate: probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Type II error rate: probability of accepting H0 when H1 holds.
    pub beta: f64,
    /// The scale of `elo0` and `elo1`.
    pub model: SprtModel,
}

impl Default for Sprt {
    /// Bounds often used on fishtest (and in fastchess's tests) for a test
    /// of a gain: normalised Elo `[0, 2]`, `alpha = beta = 0.05`.
    fn default() -> Self {
        Self {
            elo0: 0.0,
            elo1: 2.0,
            alpha: 0.05,
            beta: 0.05,
            model: SprtModel::Normalized,
        }
    }
}

/// Pseudo-count fishtest and fastchess give to an outcome never observed
/// (`regularize` in `LLRcalc.py`, `regularize` in `sprt.cpp`), so that the
/// empirical distribution has full support and the LLR stays finite.
const REGULARIZATION: f64 = 1e-3;

/// Cap on the fixed-point iterations of the normalised MLE (fishtest stops
/// after 10; they normally converge in fewer than 10).
const MAX_T_ITERATIONS: usize = 100;

/// The normalised MLE iteration stops when no probability moved by more
/// than this (fishtest: 1e-9).
const T_TOLERANCE: f64 = 1e-13;

impl Sprt {
    /// Wald's stopping bounds on the LLR, `(ln(β / (1 - α)), ln((1 - β) /
    /// α))`, as in fishtest (`sprt.py`) and fastchess (`SPRT::SPRT`). For
    /// `α = β = 0.05` they are `±2.944439`. Always finite (see [`Sprt`] for
    /// how `alpha` and `beta` are sanitised).
    pub fn bounds(&self) -> (f64, f64) {
        let alpha = error_rate(self.alpha);
        let beta = error_rate(self.beta);
        ((beta / (1.0 - alpha)).ln(), ((1.0 - beta) / alpha).ln())
    }

    /// Generalised log-likelihood ratio of H1 over H0 (natural log) after
    /// `wins`, `draws` and `losses` of the first bot, with fishtest's
    /// trinomial formula (`LLR_logistic` / `LLR_normalized` on `[L, D, W]`).
    ///
    /// Conventions: no games give exactly 0. Otherwise outcomes never seen
    /// count `0.001` (fishtest's regularisation), which keeps the value
    /// finite for records such as 0–2, 1–292 or all draws. The
    /// constrained maximum-likelihood estimates are computed to nearly full
    /// precision, including for huge one-sided records where fishtest's own
    /// root bracket gives up. If they cannot be computed at all, fishtest's
    /// closed-form approximations are used instead (`LLR_alt2` for logistic,
    /// `LLR_normalized_alt` for normalised), and 0 if even those are not
    /// finite. In randomised tests that never happened for logistic
    /// hypotheses (any value, they are clamped to `±ELO_LIMIT`) nor for
    /// normalised hypotheses within ±200 nElo; beyond about ±250 nElo
    /// fishtest's fixed-point iteration for the normalised MLE breaks down
    /// (fishtest raises an assertion) and the approximation takes over.
    /// Never NaN or infinite.
    pub fn llr_trinomial(&self, wins: u32, draws: u32, losses: u32) -> f64 {
        self.llr(&[losses, draws, wins], false)
    }

    /// Generalised log-likelihood ratio of H1 over H0 (natural log) for game
    /// pairs, with fishtest's pentanomial formula (the five pair scores as
    /// outcomes, half-pair scores 0, ¼, ½, ¾, 1; normalised hypotheses scaled
    /// by `sqrt(2)`, as in `LLR_normalized` and fastchess's
    /// `SPRT::getLLR(penta...)`). Same conventions as
    /// [`Sprt::llr_trinomial`]: 0 without pairs, never NaN or infinite.
    pub fn llr_pentanomial(&self, pentanomial: &Pentanomial) -> f64 {
        self.llr(&pentanomial.counts, true)
    }

    /// The decision for a log-likelihood ratio: [`SprtStatus::AcceptH1`] if
    /// `llr >= upper`, else [`SprtStatus::AcceptH0`] if `llr <= lower`, else
    /// [`SprtStatus::Continue`] (also for NaN), with `(lower, upper) =
    /// self.bounds()`. fastchess compares the same way (`SPRT::getResult`).
    pub fn status(&self, llr: f64) -> SprtStatus {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtStatus::AcceptH1
        } else if llr <= lower {
            SprtStatus::AcceptH0
        } else {
            SprtStatus::Continue
        }
    }

    /// LLR for the outcome `counts` (ascending score; 3 for games, 5 for
    /// pairs).
    fn llr(&self, counts: &[u32], paired: bool) -> f64 {
        match self.llr_parts(counts, paired) {
            Llr::Trivial => 0.0,
            Llr::Exact(llr) | Llr::Approximate(llr) => llr,
        }
    }

    /// The LLR and how it was obtained.
    fn llr_parts(&self, counts: &[u32], paired: bool) -> Llr {
        if counts.iter().all(|&c| c == 0) {
            return Llr::Trivial;
        }
        let (Some(h0), Some(h1)) = (hypothesis(self.elo0), hypothesis(self.elo1)) else {
            return Llr::Trivial;
        };
        if h0 == h1 {
            return Llr::Trivial;
        }
        let regularized: Vec<f64> = counts
            .iter()
            .map(|&c| if c == 0 { REGULARIZATION } else { f64::from(c) })
            .collect();
        let total: f64 = regularized.iter().sum();
        let probs: Vec<f64> = regularized.iter().map(|c| c / total).collect();
        let last = (counts.len() - 1) as f64;
        let scores: Vec<f64> = (0..counts.len()).map(|i| i as f64 / last).collect();

        let exact = match self.model {
            SprtModel::Logistic => {
                let (s0, s1) = (logistic_score(h0), logistic_score(h1));
                mle_expected(&scores, &probs, s0).zip(mle_expected(&scores, &probs, s1))
            }
            SprtModel::Normalized => {
                let scale = if paired {
                    std::f64::consts::SQRT_2
                } else {
                    1.0
                };
                let (t0, t1) = (h0 / NELO_PER_T * scale, h1 / NELO_PER_T * scale);
                mle_t_value(&scores, &probs, 0.5, t0).zip(mle_t_value(&scores, &probs, 0.5, t1))
            }
        };
        let exact = exact.map(|(p0, p1)| {
            total
                * probs
                    .iter()
                    .zip(p0.iter().zip(&p1))
                    .map(|(p, (a, b))| p * (b.ln() - a.ln()))
                    .sum::<f64>()
        });
        match exact {
            Some(llr) if llr.is_finite() => Llr::Exact(llr),
            _ => {
                let approx = self.llr_approximation(&scores, &probs, total, paired, h0, h1);
                if approx.is_finite() {
                    Llr::Approximate(approx)
                } else {
                    Llr::Trivial
                }
            }
        }
    }

    /// fishtest's closed-form approximations (`LLR_alt2` for logistic Elo,
    /// `LLR_normalized_alt` for normalised Elo; Van den Bergh,
    /// "GSPRT approximation" and "Normalized Elo", Section 4.2), used only
    /// when the exact constrained MLE fails.
    fn llr_approximation(
        &self,
        scores: &[f64],
        probs: &[f64],
        total: f64,
        paired: bool,
        h0: f64,
        h1: f64,
    ) -> f64 {
        let (mu, var) = mean_and_variance(scores, probs);
        if var <= 0.0 || !var.is_finite() {
            return 0.0;
        }
        match self.model {
            SprtModel::Logistic => {
                let (s0, s1) = (logistic_score(h0), logistic_score(h1));
                total * (s1 - s0) * (2.0 * mu - s0 - s1) / var / 2.0
            }
            SprtModel::Normalized => {
                let (sigma_per_game, games) = if paired {
                    ((2.0 * var).sqrt(), 2.0 * total)
                } else {
                    (var.sqrt(), total)
                };
                let (nt0, nt1) = (h0 / NELO_PER_T, h1 / NELO_PER_T);
                let nt = (mu - 0.5) / sigma_per_game;
                games / 2.0 * ((1.0 + (nt - nt0).powi(2)) / (1.0 + (nt - nt1).powi(2))).ln()
            }
        }
    }
}

/// How an LLR was obtained.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Llr {
    /// No games, a NaN hypothesis or `elo0 == elo1` (or every formula
    /// failed): 0.
    Trivial,
    /// fishtest's generalised LLR from the constrained MLEs.
    Exact(f64),
    /// The closed-form fallback approximation.
    Approximate(f64),
}

/// A hypothesis' value clamped to `±ELO_LIMIT`; `None` for NaN.
fn hypothesis(elo: f64) -> Option<f64> {
    if elo.is_nan() {
        None
    } else {
        Some(elo.clamp(-ELO_LIMIT, ELO_LIMIT))
    }
}

/// An error rate clamped to `1e-9..=1 - 1e-9`, NaN as 0.05.
fn error_rate(x: f64) -> f64 {
    if x.is_nan() {
        0.05
    } else {
        x.clamp(1e-9, 1.0 - 1e-9)
    }
}

/// Expected score per game for a logistic Elo difference (fishtest's `L_`).
fn logistic_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Mean and variance of the distribution `probs` on `values`.
fn mean_and_variance(values: &[f64], probs: &[f64]) -> (f64, f64) {
    let mu: f64 = values.iter().zip(probs).map(|(a, p)| a * p).sum();
    let var: f64 = values
        .iter()
        .zip(probs)
        .map(|(a, p)| p * (a - mu) * (a - mu))
        .sum();
    (mu, var.max(0.0))
}

/// Root `x` of the secular equation `Σ p_i a_i / (1 + x a_i) = 0` on the
/// interval where every `1 + x a_i` is positive (fishtest's `secular`). The
/// left side decreases strictly from `+∞` to `-∞` there, so the root is
/// unique; it is found by bisection to (nearly) full precision. `None` if
/// the `a_i` do not change sign (no root).
fn secular(a: &[f64], p: &[f64]) -> Option<f64> {
    let low_a = a.iter().copied().fold(f64::INFINITY, f64::min);
    let high_a = a.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !(low_a < 0.0 && high_a > 0.0 && low_a.is_finite() && high_a.is_finite()) {
        return None;
    }
    /// Where `x` lies relative to the root.
    enum Side {
        /// Below the root (the sum is positive, or `x` is left of the
        /// domain).
        Below,
        /// Above the root.
        Above,
        /// At the root.
        At,
    }
    let side = |x: f64| {
        let mut sum = 0.0;
        for (&ai, &pi) in a.iter().zip(p) {
            let d = 1.0 + x * ai;
            if d <= 0.0 {
                // Outside the domain: left of it if a_i > 0, right if < 0.
                return if ai > 0.0 { Side::Below } else { Side::Above };
            }
            sum += pi * ai / d;
        }
        if sum > 0.0 {
            Side::Below
        } else if sum < 0.0 {
            Side::Above
        } else {
            Side::At
        }
    };
    let (mut lo, mut hi) = (-1.0 / high_a, -1.0 / low_a);
    for _ in 0..2000 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi || hi - lo <= 1e-18 {
            break;
        }
        match side(mid) {
            Side::Below => lo = mid,
            Side::Above => hi = mid,
            Side::At => return Some(mid),
        }
    }
    let x = 0.5 * (lo + hi);
    let inside = |x: f64| a.iter().all(|&ai| 1.0 + x * ai > 0.0);
    [x, lo, hi].into_iter().find(|&x| inside(x))
}

/// Maximum-likelihood distribution on `scores` with expectation `s`, given
/// the empirical distribution `probs` (fishtest's `MLE_expected`; Van den
/// Bergh, "Support of the MLE of a multinomial distribution", Proposition
/// 1.1): `p_i = p̂_i / (1 + x (a_i - s))` with `x` the secular root.
fn mle_expected(scores: &[f64], probs: &[f64], s: f64) -> Option<Vec<f64>> {
    let shifted: Vec<f64> = scores.iter().map(|a| a - s).collect();
    let x = secular(&shifted, probs)?;
    reweight(probs, &shifted, x)
}

/// `p_i = p̂_i / (1 + x a_i)`, the solution of a secular equation. When the
/// root lies very close to the end of its interval, one denominator is tiny
/// and that `p_i` (large although `p̂_i` is tiny: the hypothesis moves
/// mass onto an outcome hardly ever seen) loses most of its digits to
/// cancellation; since the `p_i` add up to 1 at the root, that one is then
/// taken as `1 - Σ_{j≠i} p_j`, which is accurate. `None` unless all are
/// positive and finite.
fn reweight(probs: &[f64], a: &[f64], x: f64) -> Option<Vec<f64>> {
    let denominators: Vec<f64> = a.iter().map(|ai| 1.0 + x * ai).collect();
    let mut p: Vec<f64> = probs
        .iter()
        .zip(&denominators)
        .map(|(p, d)| p / d)
        .collect();
    let (worst, &smallest) = denominators
        .iter()
        .enumerate()
        .min_by(|a, b| a.1.total_cmp(b.1))?;
    // Direct: relative error about ε / d; complement: about ε / p.
    if smallest < p[worst] {
        let rest: f64 = (0..p.len()).filter(|&j| j != worst).map(|j| p[j]).sum();
        if rest < 1.0 {
            p[worst] = 1.0 - rest;
        }
    }
    p.iter().all(|q| *q > 0.0 && q.is_finite()).then_some(p)
}

/// Maximum-likelihood distribution on `scores` with t-value `(μ - reference)
/// / σ = t`, given the empirical distribution `probs` (fishtest's
/// `MLE_t_value`; Van den Bergh, "Normalized Elo", Section 4.1): the
/// fixed-point iteration from the uniform distribution, each step solving a
/// secular equation. `None` if a step has no solution or the result misses
/// the constraint by more than 1e-5 (fishtest's check).
fn mle_t_value(scores: &[f64], probs: &[f64], reference: f64, t: f64) -> Option<Vec<f64>> {
    let n = scores.len();
    let mut p = vec![1.0 / n as f64; n];
    let mut phi = vec![0.0; n];
    for _ in 0..MAX_T_ITERATIONS {
        let (mu, var) = mean_and_variance(scores, &p);
        let sigma = var.sqrt();
        if !(sigma > 0.0 && sigma.is_finite()) {
            return None;
        }
        for (f, &a) in phi.iter_mut().zip(scores) {
            let z = (mu - a) / sigma;
            *f = a - reference - t * sigma * (1.0 + z * z) / 2.0;
        }
        let x = secular(&phi, probs)?;
        let next = reweight(probs, &phi, x)?;
        let change = next
            .iter()
            .zip(&p)
            .fold(0.0f64, |m, (a, b)| m.max((a - b).abs()));
        p = next;
        if change < T_TOLERANCE {
            break;
        }
    }
    let (mu, var) = mean_and_variance(scores, &p);
    let achieved = (mu - reference) / var.sqrt();
    ((achieved - t).abs() < 1e-5).then_some(p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pentanomial::{counts_strategy, GameScore};

    fn sprt(elo0: f64, elo1: f64, model: SprtModel) -> Sprt {
        Sprt {
            elo0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
            model,
        }
    }

    fn penta(counts: [u32; 5]) -> Pentanomial {
        Pentanomial { counts }
    }

    /// fastchess's `Stats(ll, ld, wl, dd, wd, ww)` as our counts.
    fn fastchess_penta(ll: u32, ld: u32, wl: u32, dd: u32, wd: u32, ww: u32) -> Pentanomial {
        penta([ll, ld, wl + dd, wd, ww])
    }

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn bounds_for_five_percent() {
        let (lower, upper) = Sprt::default().bounds();
        let expected = (0.05f64 / 0.95).ln();
        assert!(close(lower, expected, 1e-15) && close(upper, -expected, 1e-15));
        assert!(close(upper, 2.944_438_979_166_44, 1e-12), "{upper}");
        assert_eq!((upper * 1000.0).round() / 1000.0, 2.944);
        // Asymmetric: α = 0.05, β = 0.1 (ln(0.1/0.95), ln(0.9/0.05)).
        let s = Sprt {
            beta: 0.1,
            ..Sprt::default()
        };
        let (lower, upper) = s.bounds();
        assert!(close(lower, -2.251_291_798_606_495, 1e-12), "{lower}");
        assert!(close(upper, 2.890_371_757_896_165, 1e-12), "{upper}");
    }

    #[test]
    fn status_uses_the_bounds() {
        let s = Sprt::default();
        assert_eq!(s.status(0.0), SprtStatus::Continue);
        assert_eq!(s.status(2.95), SprtStatus::AcceptH1);
        assert_eq!(s.status(-2.95), SprtStatus::AcceptH0);
        assert_eq!(s.status(f64::NAN), SprtStatus::Continue);
        assert_eq!(s.status(f64::INFINITY), SprtStatus::AcceptH1);
    }

    /// Reference values: Disservin/fastchess `app/tests/sprt_test.cpp`
    /// (published to 2 decimals; its `Stats(w, l, d)` is wins, losses,
    /// draws), and to 1e-6 the same numbers from a transcription of
    /// fishtest's `LLRcalc.py` (`LLR_logistic`, `LLR_normalized`) run in
    /// Python with `scipy.optimize.brentq` replaced by bisection to full
    /// precision.
    #[test]
    fn trinomial_reference_values() {
        use SprtModel::{Logistic, Normalized};
        let cases = [
            // (elo0, elo1, model, wins, draws, losses, fastchess, fishtest)
            (
                0.0,
                2.0,
                Normalized,
                36433,
                68692,
                36027,
                0.92,
                0.923_293_450_945_917,
            ),
            (
                -1.75,
                0.25,
                Normalized,
                10871,
                20431,
                10650,
                2.30,
                2.297_500_407_105_074,
            ),
            (
                0.5,
                2.5,
                Logistic,
                21404,
                40708,
                21184,
                -1.57,
                -1.571_888_792_694_266,
            ),
            (
                0.0,
                2.0,
                Logistic,
                57433,
                106593,
                57030,
                -2.59,
                -2.593_024_163_541_22,
            ),
        ];
        for (elo0, elo1, model, w, d, l, published, fishtest) in cases {
            let llr = sprt(elo0, elo1, model).llr_trinomial(w, d, l);
            assert_eq!((llr * 100.0).round() / 100.0, published, "{w} {d} {l}");
            assert!(close(llr, fishtest, 1e-6), "{llr} vs {fishtest}");
        }
    }

    #[test]
    fn pentanomial_reference_values() {
        use SprtModel::{Logistic, Normalized};
        let cases = [
            (
                0.0,
                2.0,
                Normalized,
                fastchess_penta(365, 16618, 36029, 200, 16974, 390),
                2.25,
                2.250_367_703_551_081,
            ),
            (
                -1.75,
                0.25,
                Normalized,
                fastchess_penta(127, 4883, 10311, 401, 5150, 104),
                3.01,
                3.010_154_196_605_7,
            ),
            (
                0.5,
                2.5,
                Logistic,
                fastchess_penta(223, 9863, 20279, 1000, 10037, 246),
                -3.07,
                -3.074_126_439_586_767,
            ),
            (
                0.0,
                2.0,
                Logistic,
                fastchess_penta(871, 26175, 55003, 980, 26678, 821),
                -4.98,
                -4.978_672_863_451_179,
            ),
        ];
        for (elo0, elo1, model, p, published, fishtest) in cases {
            let llr = sprt(elo0, elo1, model).llr_pentanomial(&p);
            assert_eq!((llr * 100.0).round() / 100.0, published, "{p:?}");
            assert!(close(llr, fishtest, 1e-6), "{llr} vs {fishtest}");
        }
    }

    #[test]
    fn all_wins_follow_fishtest() {
        // fastchess's sprt_test.cpp also has "normalized trinomial 3" (4250
        // wins, nElo [0, 10]: 2.97) and "normalized pentanomial 3" (5550 WW,
        // [0, 5]: 2.94). fishtest's formula, in the Python transcription
        // above (and with fastchess's own stopping rule, 1e-4), gives 120.55
        // and 111.80 for them: the regularised all-wins distribution is far
        // from both hypotheses. We follow fishtest.
        let s = sprt(0.0, 10.0, SprtModel::Normalized);
        assert!(close(
            s.llr_trinomial(4250, 0, 0),
            120.548_267_741_203_94,
            1e-5
        ));
        let s = sprt(0.0, 5.0, SprtModel::Normalized);
        assert!(close(
            s.llr_pentanomial(&penta([0, 0, 0, 0, 5550])),
            111.797_555_086_713_87,
            1e-5
        ));
    }

    #[test]
    fn no_games_give_zero() {
        for model in [SprtModel::Logistic, SprtModel::Normalized] {
            let s = sprt(0.0, 5.0, model);
            assert_eq!(s.llr_trinomial(0, 0, 0), 0.0);
            assert_eq!(s.llr_pentanomial(&Pentanomial::default()), 0.0);
            assert_eq!(s.status(0.0), SprtStatus::Continue);
        }
    }

    /// Small and extreme records: finite, with the fishtest formula's value
    /// (same Python transcription as above, bisection to full precision).
    #[test]
    fn edge_cases_are_finite_and_match_fishtest() {
        use SprtModel::{Logistic, Normalized};
        let tri = [
            // (model, elo0, elo1, w, d, l, fishtest)
            (Logistic, 0.0, 2.0, 0, 0, 2, -0.011_546_089_561_241_495),
            (Normalized, 0.0, 2.0, 0, 0, 2, -0.011_543_145_771_406_47),
            (Logistic, 0.0, 5.0, 1, 0, 292, -4.218_180_928_872_462),
            (Normalized, 0.0, 5.0, 1, 0, 292, -4.218_027_121_266_061),
            (Logistic, 0.0, 5.0, 292, 0, 1, 4.157_500_932_713_816),
            (Normalized, 0.0, 5.0, 292, 0, 1, 4.157_351_367_432_014),
            (Logistic, 0.0, 2.0, 0, 1000, 0, -5.764_071_837_518_062),
            (Normalized, 0.0, 2.0, 0, 1000, 0, -0.029_991_858_266_788_456),
            (Logistic, 0.0, 5.0, 0, 10, 0, -0.139_681_997_233_609_63),
            (Normalized, 0.0, 5.0, 0, 10, 0, -0.001_276_511_305_554_191_7),
            (Logistic, 0.0, 2.0, 1, 0, 0, 0.005_739_849_687_826_882),
            (Normalized, 0.0, 2.0, 1, 0, 0, 0.005_736_949_113_742_135),
            (Logistic, 0.0, 2.0, 0, 1, 0, -0.003_634_082_560_633_861_2),
            (Normalized, 0.0, 2.0, 0, 1, 0, -1.667_005_424_788_090_5e-5),
            (Logistic, 0.0, 5.0, 10, 0, 0, 0.142_875_867_061_313_25),
            (Normalized, 0.0, 5.0, 10, 0, 0, 0.142_863_803_752_871_14),
        ];
        for (model, elo0, elo1, w, d, l, fishtest) in tri {
            let s = sprt(elo0, elo1, model);
            assert!(matches!(s.llr_parts(&[l, d, w], false), Llr::Exact(_)));
            let llr = s.llr_trinomial(w, d, l);
            assert!(
                llr.is_finite() && close(llr, fishtest, 1e-7),
                "{model:?} {w}-{d}-{l}: {llr} vs {fishtest}"
            );
        }
        let pen = [
            (
                Logistic,
                0.0,
                2.0,
                [0, 0, 10, 0, 0],
                -0.053_102_527_144_750_69,
            ),
            (
                Normalized,
                0.0,
                2.0,
                [0, 0, 10, 0, 0],
                -0.000_350_070_536_927_081_9,
            ),
            (
                Logistic,
                0.0,
                5.0,
                [0, 0, 0, 0, 100],
                1.428_789_137_645_051_2,
            ),
            (
                Normalized,
                0.0,
                5.0,
                [0, 0, 0, 0, 100],
                2.014_379_719_997_257,
            ),
            (
                Logistic,
                0.0,
                2.0,
                [0, 1, 0, 0, 0],
                -0.005_778_826_488_816_143,
            ),
            (
                Normalized,
                0.0,
                2.0,
                [0, 1, 0, 0, 0],
                -0.005_789_657_170_332_024,
            ),
        ];
        for (model, elo0, elo1, counts, fishtest) in pen {
            let s = sprt(elo0, elo1, model);
            assert!(matches!(s.llr_parts(&counts, true), Llr::Exact(_)));
            let llr = s.llr_pentanomial(&penta(counts));
            assert!(
                llr.is_finite() && close(llr, fishtest, 1e-7),
                "{model:?} {counts:?}: {llr} vs {fishtest}"
            );
        }
    }

    /// Huge one-sided records, where the constrained MLE puts about half
    /// its mass on an outcome of empirical frequency ~1e-11. fishtest's own
    /// code stops there (its root bracket is cut 1e-9 short of the ends);
    /// these values come from the same equations evaluated with 60-digit
    /// arithmetic (Python mpmath), and need the cancellation-free
    /// `reweight`.
    #[test]
    fn huge_one_sided_records_match_high_precision() {
        use SprtModel::{Logistic, Normalized};
        let cases = [
            (
                Normalized,
                [200_000_000, 0, 0, 0, 0],
                false,
                -2_898_840.421_110_774,
            ),
            (
                Logistic,
                [200_000_000, 0, 0, 0, 0],
                false,
                -2_898_941.190_898_889,
            ),
            (
                Normalized,
                [0, 200_000_000, 0, 0, 0],
                false,
                -41_416.773_163_187_08,
            ),
            (
                Normalized,
                [0, 0, 0, 0, 100_000_000],
                true,
                2_014_370.190_204_306,
            ),
            (
                Logistic,
                [0, 0, 0, 0, 100_000_000],
                true,
                1_428_760.770_821_584,
            ),
        ];
        for (model, counts, paired, expected) in cases {
            let s = sprt(0.0, 5.0, model);
            let parts = if paired { &counts[..] } else { &counts[..3] };
            let how = s.llr_parts(parts, paired);
            let Llr::Exact(llr) = how else {
                panic!("{model:?} {counts:?}: {how:?}")
            };
            assert!(
                (llr / expected - 1.0).abs() < 1e-9,
                "{model:?} {counts:?}: {llr} vs {expected}"
            );
        }
    }

    #[test]
    fn extreme_hypotheses_stay_finite() {
        // Hypotheses far beyond anything measurable, up to the ±ELO_LIMIT
        // clamp: the exact MLE or the documented fallback, never NaN.
        for model in [SprtModel::Logistic, SprtModel::Normalized] {
            for (elo0, elo1) in [(-2000.0, 2000.0), (0.0, 1500.0), (-1e6, -900.0)] {
                let s = sprt(elo0, elo1, model);
                for (w, d, l) in [(0, 0, 2), (1, 0, 292), (0, 50, 0), (7, 0, 0), (40, 30, 20)] {
                    let llr = s.llr_trinomial(w, d, l);
                    assert!(llr.is_finite(), "{model:?} {elo0} {elo1} {w}-{d}-{l}");
                }
                for counts in [[0, 0, 5, 0, 0], [0, 0, 0, 0, 9], [1, 2, 3, 4, 5]] {
                    assert!(s.llr_pentanomial(&penta(counts)).is_finite());
                }
            }
        }
        // The logistic fallback formula itself (fishtest's LLR_alt2) agrees
        // with the exact LLR to a few percent on a long, close record.
        let s = sprt(0.0, 5.0, SprtModel::Logistic);
        let counts = [400u32, 1000, 600];
        let exact = s.llr(&counts, false);
        let regularized: Vec<f64> = counts.iter().map(|&c| f64::from(c)).collect();
        let total: f64 = regularized.iter().sum();
        let probs: Vec<f64> = regularized.iter().map(|c| c / total).collect();
        let approx = s.llr_approximation(&[0.0, 0.5, 1.0], &probs, total, false, 0.0, 5.0);
        assert!((approx / exact - 1.0).abs() < 0.05, "{approx} vs {exact}");
        let s = sprt(0.0, 5.0, SprtModel::Normalized);
        let exact = s.llr(&counts, false);
        let approx = s.llr_approximation(&[0.0, 0.5, 1.0], &probs, total, false, 0.0, 5.0);
        assert!((approx / exact - 1.0).abs() < 0.05, "{approx} vs {exact}");
    }

    #[test]
    fn long_records_decide() {
        for model in [SprtModel::Logistic, SprtModel::Normalized] {
            let s = sprt(0.0, 5.0, model);
            // +35 Elo over 2000 games: clearly H1.
            let strong = s.llr_trinomial(600, 1000, 400);
            assert_eq!(s.status(strong), SprtStatus::AcceptH1, "{model:?} {strong}");
            // -35 Elo: clearly H0.
            let weak = s.llr_trinomial(400, 1000, 600);
            assert_eq!(s.status(weak), SprtStatus::AcceptH0, "{model:?} {weak}");
            // Exactly even over 40000 games: nearer H0 (0) than H1 (5).
            let even = s.llr_trinomial(10000, 20000, 10000);
            assert_eq!(s.status(even), SprtStatus::AcceptH0, "{model:?} {even}");
            // Pairs as well.
            let strong = s.llr_pentanomial(&penta([50, 200, 400, 300, 100]));
            assert_eq!(s.status(strong), SprtStatus::AcceptH1, "{model:?} {strong}");
            let weak = s.llr_pentanomial(&penta([100, 300, 400, 200, 50]));
            assert_eq!(s.status(weak), SprtStatus::AcceptH0, "{model:?} {weak}");
            // Few games: keep playing.
            assert_eq!(s.status(s.llr_trinomial(6, 10, 4)), SprtStatus::Continue);
        }
    }

    #[test]
    fn llr_is_antisymmetric_in_the_hypotheses() {
        for model in [SprtModel::Logistic, SprtModel::Normalized] {
            let a = sprt(0.0, 5.0, model).llr_trinomial(120, 200, 100);
            let b = sprt(5.0, 0.0, model).llr_trinomial(120, 200, 100);
            assert!(close(a, -b, 1e-9), "{a} {b}");
            assert_eq!(sprt(3.0, 3.0, model).llr_trinomial(120, 200, 100), 0.0);
        }
    }

    #[test]
    fn odd_parameters_stay_finite() {
        let s = Sprt {
            elo0: f64::NAN,
            ..Sprt::default()
        };
        assert_eq!(s.llr_trinomial(10, 5, 3), 0.0);
        let s = Sprt {
            elo0: f64::NEG_INFINITY,
            elo1: f64::INFINITY,
            alpha: f64::NAN,
            beta: 0.0,
            model: SprtModel::Normalized,
        };
        let (lower, upper) = s.bounds();
        assert!(lower.is_finite() && upper.is_finite() && lower < upper);
        assert!(close(upper, (1.0f64 / 0.05).ln(), 1e-6));
        for model in [SprtModel::Logistic, SprtModel::Normalized] {
            let s = Sprt { model, ..s };
            for (w, d, l) in [(10, 5, 3), (0, 0, 1), (u32::MAX, u32::MAX, u32::MAX)] {
                assert!(s.llr_trinomial(w, d, l).is_finite());
            }
            let s = Sprt {
                alpha: 1.0,
                beta: 1.0,
                ..s
            };
            let (lower, upper) = s.bounds();
            assert!(lower.is_finite() && upper.is_finite());
        }
    }

    #[test]
    fn sequence_of_games_stays_finite_at_every_step() {
        // Every prefix of a long, lopsided stream of results, pairs built
        // from consecutive games.
        for model in [SprtModel::Logistic, SprtModel::Normalized] {
            let s = sprt(-5.0, 5.0, model);
            let (mut w, mut d, mut l) = (0u32, 0u32, 0u32);
            let mut p = Pentanomial::default();
            let mut previous = None;
            for i in 0..600u32 {
                let g = match i % 7 {
                    0 | 3 => GameScore::Win,
                    5 => GameScore::Draw,
                    _ => GameScore::Loss,
                };
                match g {
                    GameScore::Win => w += 1,
                    GameScore::Draw => d += 1,
                    GameScore::Loss => l += 1,
                }
                match previous.take() {
                    None => previous = Some(g),
                    Some(first) => p.add_pair(first, g),
                }
                assert!(s.llr_trinomial(w, d, l).is_finite());
                assert!(s.llr_pentanomial(&p).is_finite());
            }
            assert_eq!(
                s.status(s.llr_trinomial(w, d, l)),
                SprtStatus::AcceptH0,
                "{model:?}"
            );
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]

        #[test]
        fn llr_is_always_finite(
            counts in counts_strategy(5000),
            elo0 in -50.0f64..50.0,
            width in 0.0f64..50.0,
            normalized in proptest::prelude::any::<bool>(),
        ) {
            let model = if normalized { SprtModel::Normalized } else { SprtModel::Logistic };
            let s = sprt(elo0, elo0 + width, model);
            let tri = s.llr_trinomial(counts[0], counts[1], counts[2]);
            let pen = s.llr_pentanomial(&penta(counts));
            proptest::prop_assert!(tri.is_finite() && pen.is_finite(), "{:?} {} {}", counts, tri, pen);
            // Realistic hypotheses never need the fallback approximation.
            for (parts, paired) in [(&counts[..3], false), (&counts[..], true)] {
                let how = s.llr_parts(parts, paired);
                proptest::prop_assert!(
                    matches!(how, Llr::Exact(_)) || (width == 0.0 || parts.iter().all(|&c| c == 0)),
                    "{:?} {:?}", parts, how
                );
            }
        }
    }
}
