//! Intervals for many bots: the one-step parametric bootstrap, and the
//! curvature by sampling, both on one factorisation of the Hessian.
//!
//! The full bootstrap ([`super::bootstrap`]) refits every simulated
//! tournament by Newton's method from the fitted ratings. Its first Newton
//! step uses the Hessian at the fit, the same for every sample, so it can
//! be factorised once; the one-step bootstrap stops there: each sample's
//! deviation is `H⁻¹ ∇ℓ*(θ̂)`, `ℓ*` the log-likelihood of the simulated
//! results. This is the "k-step bootstrap" with `k = 1` (Davidson &
//! MacKinnon 1999, "Bootstrap testing in nonlinear models", International
//! Economic Review 40; Andrews 2002, "Higher-order improvements of a
//! computationally attractive k-step bootstrap for extremum estimators",
//! Econometrica 70), whose covariance is the sandwich `H⁻¹ J H⁻¹`, `J` the
//! covariance of the simulated scores. It agrees with the full refit to
//! first order, and has no refit that can sit at the `±ELO_LIMIT` box.
//!
//! The curvature (the inverse of the observed information, BayesElo's
//! covariance) is sampled the same way: `x = H⁻¹ g` with
//! `g = Σ_p sqrt(w_p) z_p b_p`, `z_p` standard normal, has covariance
//! exactly `H⁻¹` (on the mean-0 space). Each sample costs one pass over the
//! pairs (or the games, to simulate them) and one solve, so the whole costs
//! `samples × (games + solve)` and the covariance is kept as the samples
//! (`samples × n` numbers), from which any entry is `O(samples)`.

use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::bootstrap::outcome_probabilities;
use super::fit::{sigmoid, Score, Table};
use super::solve::{Lanes, BLOCK};
use super::to_elo;

/// Relative residual of the conjugate-gradient solves of the samples: the
/// samples' own noise (the spread is estimated to about `1 / sqrt(2
/// samples)`, 2% at 1,000) is far larger.
const SAMPLE_CG_TOLERANCE: f64 = 1e-6;

/// What the samples are drawn from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Draw {
    /// Simulated tournaments (the one-step parametric bootstrap).
    Bootstrap,
    /// Normal scores with the information's covariance (the curvature).
    Curvature,
}

/// The deviations of `samples` draws from the fit, Elo points, bot-major
/// `n × samples` (bot `k`'s deviations are `k * samples..(k + 1) *
/// samples`, so a covariance is one pass over two contiguous rows),
/// centred (each bot's mean over the samples is 0). `theta` is the fit
/// (natural units) and `scores` its pair scores with the prior. With an
/// `anchor`, each sample is shifted in the anchor's group so the anchor's
/// deviation is 0, as in the full bootstrap. Sample `s` draws from its own
/// ChaCha8 stream (`seed`, stream `s`), so the result does not depend on
/// how the samples are split between threads; they are solved [`BLOCK`] at
/// a time ([`super::solve::Factor::solve_block`]).
pub(crate) fn deviations(
    table: &Table,
    theta: &[f64],
    scores: &[Score],
    draw: Draw,
    samples: u32,
    seed: u64,
    anchor: Option<usize>,
) -> Vec<f64> {
    let n = table.bots;
    let samples = samples as usize;
    if samples < 2 || table.pairs.is_empty() {
        return vec![0.0; samples * n];
    }
    let mut weights = vec![0.0; table.pairs.len()];
    let mut gradient = vec![0.0; n];
    table.newton_system(scores, theta, &mut weights, &mut gradient);
    let factor = table.factor(&weights);
    let simulation = Simulation::new(table, theta, scores, &weights);
    let blocks = samples.div_ceil(BLOCK);
    let threads = std::thread::available_parallelism().map_or(1, |t| t.get().clamp(1, 8));
    let per_thread = blocks.div_ceil(threads).max(1);
    // Per block, its solutions (`n` lanes of BLOCK samples), in order.
    let mut solved: Vec<Vec<Lanes>> = vec![Vec::new(); blocks];
    std::thread::scope(|scope| {
        for (c, chunk) in solved.chunks_mut(per_thread).enumerate() {
            let (factor, simulation) = (&factor, &simulation);
            scope.spawn(move || {
                let mut rhs = vec![[0.0; BLOCK]; n];
                for (b, out) in chunk.iter_mut().enumerate() {
                    let first = (c * per_thread + b) * BLOCK;
                    let mut rngs: Vec<ChaCha8Rng> = (first..samples.min(first + BLOCK))
                        .map(|sample| {
                            let mut rng = ChaCha8Rng::seed_from_u64(seed);
                            rng.set_stream(sample as u64);
                            rng
                        })
                        .collect();
                    simulation.gradients(draw, &mut rngs, &mut rhs);
                    let mut x = vec![[0.0; BLOCK]; n];
                    let finite = factor.solve_block(&rhs, &mut x, SAMPLE_CG_TOLERANCE);
                    for lanes in &mut x {
                        for (v, ok) in lanes.iter_mut().zip(finite) {
                            *v = if ok { to_elo(*v) } else { 0.0 };
                        }
                    }
                    if let Some(a) = anchor {
                        shift_to_anchor(table, a, &mut x);
                    }
                    *out = x;
                }
            });
        }
    });
    let mut out = vec![0.0; samples * n];
    for (k, row) in out.chunks_mut(samples).enumerate() {
        for (s, v) in row.iter_mut().enumerate() {
            *v = solved[s / BLOCK][k][s % BLOCK];
        }
    }
    drop(solved);
    centre(&mut out, samples);
    out
}

/// Shifts each sample's deviations in the anchor's group so the anchor's
/// is 0 (`x[bot][sample]`).
fn shift_to_anchor(table: &Table, anchor: usize, x: &mut [Lanes]) {
    let shift = x[anchor];
    for &k in &table.members[table.group[anchor]] {
        for (v, s) in x[k].iter_mut().zip(&shift) {
            *v -= s;
        }
    }
    x[anchor] = [0.0; BLOCK];
}

/// Subtracts each bot's mean over its `samples` deviations (bot-major).
fn centre(rows: &mut [f64], samples: usize) {
    for row in rows.chunks_mut(samples) {
        let mean = row.iter().sum::<f64>() / samples as f64;
        for v in row.iter_mut() {
            *v -= mean;
        }
    }
}

/// Sample covariance of bots `i` and `j` from centred deviations
/// (bot-major `n × samples`), Elo²: 0 with fewer than two samples.
pub(crate) fn covariance(deviations: &[f64], n: usize, i: usize, j: usize) -> f64 {
    let samples = deviations.len() / n.max(1);
    if samples < 2 {
        return 0.0;
    }
    let (x, y) = (
        &deviations[i * samples..(i + 1) * samples],
        &deviations[j * samples..(j + 1) * samples],
    );
    let sum: f64 = x.iter().zip(y).map(|(a, b)| a * b).sum();
    let c = sum / (samples - 1) as f64;
    if i == j {
        c.max(0.0)
    } else {
        c
    }
}

/// Pairs with at most this many games draw their points in one go, from
/// the exact distribution of the sum of their games' points (one uniform
/// per pair and sample); a pair with more games draws each game.
const SUM_TABLE_MAX_GAMES: u64 = 64;

/// What one sample's gradient is drawn from: the pairs' games and outcome
/// thresholds, their prior-included scores at the fit, and the
/// information weights.
struct Simulation<'a> {
    table: &'a Table,
    /// Per pair: `(win, win or draw)` thresholds for a 32-bit uniform.
    thresholds: Vec<(u64, u64)>,
    /// Per pair with at most [`SUM_TABLE_MAX_GAMES`] games: the cumulative
    /// distribution of its points in half points, `P(points <= h)` for
    /// `h` in `0..2 games` as thresholds for a 32-bit uniform, at
    /// `sums[start[k]..start[k + 1]]`; empty for a pair with more games.
    sums: Vec<u32>,
    start: Vec<usize>,
    /// Per pair: the gradient's constant part, `prior / 2 - N E` (prior
    /// included in `N`).
    offset: Vec<f64>,
    /// Per pair: `sqrt(w_p)`, the information's square root.
    root_weight: Vec<f64>,
}

/// The distribution of the half points of `games` independent games, each
/// lost, drawn or won (0, 1 or 2 half points) with probabilities `loss`,
/// `draw`, `win`: the coefficients of `(loss + draw x + win x²)^games`.
fn points_distribution(games: u64, win: f64, draw: f64) -> Vec<f64> {
    let loss = (1.0 - win - draw).max(0.0);
    let mut p = vec![1.0];
    for _ in 0..games {
        let mut next = vec![0.0; p.len() + 2];
        for (k, &v) in p.iter().enumerate() {
            next[k] += v * loss;
            next[k + 1] += v * draw;
            next[k + 2] += v * win;
        }
        p = next;
    }
    p
}

impl<'a> Simulation<'a> {
    fn new(table: &'a Table, theta: &[f64], scores: &[Score], weights: &[f64]) -> Self {
        let draw_rate = table.draw_rate();
        let scale = 4_294_967_296.0; // 2^32
        let to_fixed = |x: f64| (x.clamp(0.0, 1.0) * scale).round() as u64;
        let mut thresholds = Vec::with_capacity(table.pairs.len());
        let mut offset = Vec::with_capacity(table.pairs.len());
        let mut sums = Vec::new();
        let mut start = Vec::with_capacity(table.pairs.len() + 1);
        start.push(0);
        for (p, sc) in table.pairs.iter().zip(scores) {
            let e = sigmoid(theta[p.i] - theta[p.j]);
            let (win, draw) = outcome_probabilities(e, draw_rate);
            thresholds.push((to_fixed(win), to_fixed(win + draw)));
            if p.games() <= SUM_TABLE_MAX_GAMES {
                let mut total = 0.0;
                let distribution = points_distribution(p.games(), win, draw);
                for v in &distribution[..distribution.len() - 1] {
                    total += v;
                    sums.push(to_fixed(total).min(u64::from(u32::MAX)) as u32);
                }
            }
            start.push(sums.len());
            let prior = sc.n - p.games() as f64;
            offset.push(0.5 * prior - sc.n * e);
        }
        Self {
            table,
            thresholds,
            sums,
            start,
            offset,
            root_weight: weights.iter().map(|w| w.max(0.0).sqrt()).collect(),
        }
    }

    /// One simulated result of pair `k`'s games: their points, in half
    /// points.
    fn points2(&self, k: usize, games: u64, rng: &mut ChaCha8Rng) -> u64 {
        let cumulative = &self.sums[self.start[k]..self.start[k + 1]];
        if cumulative.is_empty() && games > 0 {
            let (win, win_or_draw) = self.thresholds[k];
            let mut points2 = 0u64;
            for _ in 0..games {
                let u = u64::from(rng.next_u32());
                points2 += u64::from(u < win) + u64::from(u < win_or_draw);
            }
            return points2;
        }
        // The sum is the number of thresholds at or below a 32-bit
        // uniform (counted without branches: the table is short).
        let u = rng.next_u32();
        cumulative.iter().map(|&c| u64::from(c <= u)).sum()
    }

    /// The gradients of the log-likelihood at the fit of the samples whose
    /// generators are `rngs` (at most [`BLOCK`]), into `out[bot][lane]`
    /// (lanes past `rngs.len()` are 0). One pass over the pairs serves all
    /// of them; each generator is used exactly as if its sample were drawn
    /// alone (pair by pair, in order).
    fn gradients(&self, draw: Draw, rngs: &mut [ChaCha8Rng], out: &mut [Lanes]) {
        out.fill([0.0; BLOCK]);
        for (k, p) in self.table.pairs.iter().enumerate() {
            let mut g = [0.0; BLOCK];
            for (v, rng) in g.iter_mut().zip(rngs.iter_mut()) {
                *v = match draw {
                    Draw::Bootstrap => {
                        0.5 * self.points2(k, p.games(), rng) as f64 + self.offset[k]
                    }
                    Draw::Curvature => self.root_weight[k] * standard_normal(rng),
                };
            }
            for s in 0..BLOCK {
                out[p.i][s] += g[s];
                out[p.j][s] -= g[s];
            }
        }
    }
}

/// A standard normal draw (Box–Muller, from two 32-bit uniforms).
fn standard_normal(rng: &mut ChaCha8Rng) -> f64 {
    let u = (f64::from(rng.next_u32()) + 0.5) / 4_294_967_296.0;
    let v = f64::from(rng.next_u32()) / 4_294_967_296.0;
    (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
}

#[cfg(test)]
mod tests {
    use super::super::{bootstrap, PairResult};
    use super::*;

    fn table() -> Table {
        let results: Vec<PairResult> = [
            (0, 1, 12, 5, 8),
            (1, 2, 9, 9, 7),
            (0, 2, 15, 6, 4),
            (3, 0, 2, 3, 20),
            (3, 1, 6, 2, 17),
            (2, 3, 11, 4, 10),
        ]
        .iter()
        .map(|&(a, b, wins, draws, losses)| PairResult {
            a,
            b,
            wins,
            draws,
            losses,
        })
        .collect();
        Table::new(4, &results)
    }

    #[test]
    fn one_step_and_full_bootstrap_agree() {
        // Same model, same table: the one-step spread is the full
        // bootstrap's to first order; 4000 samples each estimate an sd to
        // about 1.1%, and the two differ by the second-order terms.
        let table = table();
        let theta = table.solve(1.0, None);
        let scores = table.scores(1.0);
        let full = bootstrap::covariance(&table, &theta, 1.0, 4000, 3, None);
        let one = deviations(&table, &theta, &scores, Draw::Bootstrap, 4000, 3, None);
        for k in 0..4 {
            let (a, b) = (
                full.covariance[k * 4 + k].sqrt(),
                covariance(&one, 4, k, k).sqrt(),
            );
            assert!((a / b - 1.0).abs() < 0.05, "{k}: full {a}, one-step {b}");
        }
    }

    #[test]
    fn sampled_curvature_is_the_inverse_information() {
        let table = table();
        let theta = table.solve(1.0, None);
        let scores = table.scores(1.0);
        let exact = table.curvature(&scores, &theta);
        let sampled = deviations(&table, &theta, &scores, Draw::Curvature, 4000, 5, None);
        for i in 0..4 {
            for j in 0..4 {
                let e = exact[i * 4 + j] * to_elo(1.0) * to_elo(1.0);
                let s = covariance(&sampled, 4, i, j);
                let scale = (exact[i * 4 + i] * exact[j * 4 + j]).sqrt() * to_elo(1.0).powi(2);
                assert!(
                    (e - s).abs() < 0.07 * scale,
                    "{i} {j}: exact {e}, sampled {s}"
                );
            }
        }
    }

    #[test]
    fn points_of_a_pair_follow_the_trinomial_sum() {
        // (loss + draw x + win x²)^games: a distribution whose mean is
        // games × (2 win + draw) half points, and for one game the three
        // outcomes themselves.
        for (games, win, draw) in [
            (1, 0.35, 0.3),
            (2, 0.5, 0.2),
            (7, 0.05, 0.1),
            (64, 0.6, 0.0),
        ] {
            let p = points_distribution(games, win, draw);
            assert_eq!(p.len() as u64, 2 * games + 1);
            let total: f64 = p.iter().sum();
            let mean: f64 = p.iter().enumerate().map(|(k, v)| k as f64 * v).sum();
            assert!((total - 1.0).abs() < 1e-12, "{games}: {total}");
            let want = games as f64 * (2.0 * win + draw);
            assert!((mean - want).abs() < 1e-9, "{games}: {mean} {want}");
        }
        let one = points_distribution(1, 0.35, 0.3);
        assert!((one[0] - 0.35).abs() < 1e-15 && (one[1] - 0.3).abs() < 1e-15);
        assert!((one[2] - 0.35).abs() < 1e-15);
    }

    #[test]
    fn samples_do_not_depend_on_the_threads() {
        // Each sample has its own stream: sample s is the same whoever
        // draws it, so fewer samples are a prefix of more (after
        // centring, compare the raw differences between two samples).
        let table = table();
        let theta = table.solve(1.0, None);
        let scores = table.scores(1.0);
        let a = deviations(&table, &theta, &scores, Draw::Bootstrap, 7, 9, None);
        let b = deviations(&table, &theta, &scores, Draw::Bootstrap, 50, 9, None);
        for k in 0..4 {
            // Bot-major: bot k's samples are k * samples.. .
            let (da, db) = (a[7 * k + 1] - a[7 * k], b[50 * k + 1] - b[50 * k]);
            assert!((da - db).abs() < 1e-9, "{da} {db}");
        }
    }
}
