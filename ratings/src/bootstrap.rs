//! Parametric bootstrap of the ratings (Ordo-style simulation).

use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::fit::{sigmoid, Score, Table};
use super::to_elo;

/// Win and draw probabilities for a game with expected score `expected`
/// (`0..=1`) when the overall draw rate is `draw_rate`: the draw
/// probability is `min(draw_rate, 2E, 2(1 - E))` so that `win = E - d/2`
/// and `loss = 1 - E - d/2` are valid probabilities and the expected score
/// is kept.
pub(crate) fn outcome_probabilities(expected: f64, draw_rate: f64) -> (f64, f64) {
    let e = expected.clamp(0.0, 1.0);
    let draw = draw_rate.clamp(0.0, 1.0).min(2.0 * e).min(2.0 * (1.0 - e));
    ((e - 0.5 * draw).max(0.0), draw)
}

/// What the bootstrap measured.
pub(crate) struct Bootstrap {
    /// Row-major `n × n` sample covariance of the refitted ratings, Elo².
    pub covariance: Vec<f64>,
    /// Per group: whether some simulated tournament had no finite
    /// maximum-likelihood estimate in that group (part of it scored 100%
    /// against the rest without a prior), so its refit sat at the
    /// `±ELO_LIMIT` box and the spread measures the box, not the data.
    pub clamped: Vec<bool>,
}

/// Row-major `n × n` sample covariance, in Elo², of the ratings refitted
/// on `samples` simulated tournaments (see [`super::rate`]), and the groups
/// whose refits hit the `±ELO_LIMIT` box. `theta` are the
/// fitted ratings in natural units; the simulation draws games from them
/// and each refit is warm-started from them. Zero with fewer than two
/// samples.
///
/// With an `anchor` bot, every sample's ratings in the anchor's group are
/// shifted so that the anchor's deviation is exactly 0 (Ordo's anchored
/// simulation): its row and column are then exactly 0, and the other
/// variances in its group are variances relative to the anchor.
pub(crate) fn covariance(
    table: &Table,
    theta: &[f64],
    prior: f64,
    samples: u32,
    seed: u64,
    anchor: Option<usize>,
) -> Bootstrap {
    let n = table.bots;
    let mut cov = vec![0.0; n * n];
    let mut clamped = vec![false; table.groups];
    if samples < 2 || table.pairs.is_empty() {
        return Bootstrap {
            covariance: cov,
            clamped,
        };
    }
    let draw_rate = table.draw_rate();
    // Games are drawn from 32-bit uniforms compared with fixed-point
    // thresholds (probabilities rounded to multiples of 2^-32).
    let scale = 4_294_967_296.0; // 2^32
    let thresholds: Vec<(u64, u64)> = table
        .pairs
        .iter()
        .map(|p| {
            let (win, draw) = outcome_probabilities(sigmoid(theta[p.i] - theta[p.j]), draw_rate);
            let to_fixed = |x: f64| (x.clamp(0.0, 1.0) * scale).round() as u64;
            (to_fixed(win), to_fixed(win + draw))
        })
        .collect();

    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut scores = Vec::with_capacity(table.pairs.len());
    // Deviations from the fitted ratings are accumulated (a shift that
    // keeps the one-pass covariance numerically stable).
    let mut sum = vec![0.0; n];
    let mut cross = vec![0.0; n * n];
    let mut deviation = vec![0.0; n];
    for _ in 0..samples {
        scores.clear();
        for (pair, &(win, win_or_draw)) in table.pairs.iter().zip(&thresholds) {
            let (mut wins, mut draws) = (0u64, 0u64);
            for _ in 0..pair.games() {
                let u = u64::from(rng.next_u32());
                if u < win {
                    wins += 1;
                } else if u < win_or_draw {
                    draws += 1;
                }
            }
            let losses = pair.games() - wins - draws;
            scores.push(Score::new(wins, draws, losses, prior));
        }
        for (flag, finite) in clamped.iter_mut().zip(table.finite_groups(&scores)) {
            *flag |= !finite;
        }
        let refit = table.solve_scores(&scores, theta.to_vec());
        for k in 0..n {
            deviation[k] = to_elo(refit[k] - theta[k]);
        }
        if let Some(a) = anchor {
            let shift = deviation[a];
            let group = table.group[a];
            for (k, d) in deviation.iter_mut().enumerate() {
                if k == a {
                    *d = 0.0;
                } else if table.group[k] == group {
                    *d -= shift;
                }
            }
        }
        for k in 0..n {
            sum[k] += deviation[k];
        }
        for a in 0..n {
            if deviation[a] == 0.0 {
                continue;
            }
            for b in a..n {
                cross[a * n + b] += deviation[a] * deviation[b];
            }
        }
    }
    let m = f64::from(samples);
    for a in 0..n {
        for b in a..n {
            let c = (cross[a * n + b] - sum[a] * sum[b] / m) / (m - 1.0);
            // Guard the diagonal against rounding below zero.
            let c = if a == b { c.max(0.0) } else { c };
            cov[a * n + b] = c;
            cov[b * n + a] = c;
        }
    }
    Bootstrap {
        covariance: cov,
        clamped,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcome_probabilities_are_valid_and_keep_the_score() {
        for &(e, d) in &[
            (0.5, 0.3),
            (0.9, 0.4),
            (0.05, 0.5),
            (1.0, 0.2),
            (0.0, 0.9),
            (0.7, 0.0),
        ] {
            let (w, dr) = outcome_probabilities(e, d);
            let l = 1.0 - w - dr;
            assert!(
                w >= 0.0 && dr >= 0.0 && l >= -1e-15,
                "{e} {d}: {w} {dr} {l}"
            );
            assert!((w + dr / 2.0 - e).abs() < 1e-12, "{e} {d}");
        }
        // The draw rate is used as is when it fits.
        assert_eq!(outcome_probabilities(0.5, 0.3), (0.35, 0.3));
        // ...and capped at 2E otherwise.
        let (w, dr) = outcome_probabilities(0.1, 0.5);
        assert!((dr - 0.2).abs() < 1e-15 && w.abs() < 1e-15);
    }
}
