//! The SPSA step (simultaneous perturbation stochastic approximation,
//! Spall 1992; the gains of Spall 1998, "Implementation of the simultaneous
//! perturbation algorithm for stochastic optimization", IEEE Trans.
//! Aerospace and Electronic Systems 34(3)), as fishtest runs it: pure, a
//! function of the parameters, the iteration's index, the seed and the
//! game pair's result.
//!
//! Iteration `k` (from 0) of `N` perturbs every parameter at once by
//! `±c_k` (the sign `Δ`, drawn from the seed and `k`), plays the bot at
//! `θ + c_k·Δ` against `θ - c_k·Δ`, and moves `θ` by
//! `a_k / c_k · result · Δ`, clipped to `[min, max]`, where `result` is the
//! pair's wins minus losses for `θ + c_k·Δ`.
//!
//! The gains are Spall's standard schedule, `c_k = c / (k+1)^γ` and
//! `a_k = a / (A+k+1)^α` with `α = 0.602`, `γ = 0.101` and `A` a tenth of
//! `N`. `c` and `a` come from each parameter's `c_end` and `r_end` as in
//! fishtest (`server/fishtest/spsa_workflow.py`, `parse_spsa_params` and
//! `build_spsa_worker_step`): `c = c_end · N^γ` and
//! `a = r_end · c_end² · (A+N)^α`, so that the last iteration has
//! `c_k = c_end` and `a_k / c_k² = r_end` exactly. An integer parameter is
//! sent rounded stochastically (`floor(v + u)`, `u` uniform in `[0, 1)`),
//! as fishtest's worker does (`worker/games.py`), so its expected value is
//! the real one.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Spall's `α`, the decay of the step size `a_k`.
pub const ALPHA: f64 = 0.602;
/// Spall's `γ`, the decay of the perturbation `c_k`.
pub const GAMMA: f64 = 0.101;
/// `A` as a share of the iterations (fishtest's default `A` ratio).
pub const A_RATIO: f64 = 0.1;

/// One tuned parameter, as fishtest and OpenBench take it
/// (`name,start,min,max,c_end,r_end`).
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    /// The option sent to the bot (`option.NAME=VALUE` in `hello`).
    pub name: String,
    /// The value the tuning starts from.
    pub start: f64,
    /// The smallest value `θ` and the values played may take.
    pub min: f64,
    /// The largest value `θ` and the values played may take.
    pub max: f64,
    /// The perturbation `c_k` of the last iteration, in the parameter's
    /// units; more than 0.
    pub c_end: f64,
    /// The learning rate `a_k / c_k²` of the last iteration, per unit of
    /// the parameter squared; at least 0.
    pub r_end: f64,
    /// Whether the bot takes a whole number: each value sent is rounded
    /// stochastically.
    pub integer: bool,
}

/// The schedule of a tuning run: its length and the gains derived from it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Schedule {
    /// The iterations `N` (game pairs of the budget).
    pub iterations: u64,
    /// Spall's stability constant `A`: a tenth of `N`, rounded down (as
    /// fishtest's `int(A_ratio * num_games / 2)`).
    pub big_a: f64,
}

impl Schedule {
    /// The schedule of `iterations` iterations, `A` a tenth of them.
    #[must_use]
    pub fn new(iterations: u64) -> Schedule {
        Schedule {
            iterations,
            big_a: (A_RATIO * iterations as f64).floor(),
        }
    }

    /// `param`'s `(c, a)`: `c = c_end · N^γ`, `a = r_end · c_end² · (A+N)^α`
    /// (fishtest's derivation; see the module's note).
    #[must_use]
    pub fn constants(&self, param: &Param) -> (f64, f64) {
        let n = self.iterations as f64;
        let c = param.c_end * n.powf(GAMMA);
        let a = param.r_end * param.c_end * param.c_end * (self.big_a + n).powf(ALPHA);
        (c, a)
    }

    /// Iteration `k`'s step for `params`, its signs drawn from `seed` and
    /// `k` alone (so a resumed run draws the same ones).
    #[must_use]
    pub fn step(&self, params: &[Param], seed: u64, k: u64) -> Step {
        let mut rng = rng_of(seed, k, 0);
        let kk = k as f64 + 1.0;
        let mut step = Step {
            k,
            delta: Vec::with_capacity(params.len()),
            c: Vec::with_capacity(params.len()),
            a: Vec::with_capacity(params.len()),
        };
        for p in params {
            let (c, a) = self.constants(p);
            step.delta.push(if rng.gen::<bool>() { 1 } else { -1 });
            step.c.push(c / kk.powf(GAMMA));
            step.a.push(a / (self.big_a + kk).powf(ALPHA));
        }
        step
    }
}

/// The random numbers of iteration `k`'s use `what` (0: the signs, 1 and
/// 2: the rounding of each side), from the run's seed.
fn rng_of(seed: u64, k: u64, what: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(k.wrapping_mul(4).wrapping_add(what));
    rng
}

/// One iteration's draw: the signs and gains of each parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// The iteration, from 0.
    pub k: u64,
    /// Each parameter's sign, `+1` or `-1`.
    pub delta: Vec<i8>,
    /// Each parameter's perturbation `c_k`, in its units.
    pub c: Vec<f64>,
    /// Each parameter's step size `a_k` (`θ` moves by `a_k / c_k` per unit
    /// of result).
    pub a: Vec<f64>,
}

/// Which side of the perturbation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// `θ + c_k·Δ`: the side the result is counted for.
    Plus,
    /// `θ - c_k·Δ`.
    Minus,
}

impl Step {
    /// `θ ± c_k·Δ` for `side`, each clipped to its parameter's range (real
    /// values, before any rounding).
    #[must_use]
    pub fn point(&self, params: &[Param], theta: &[f64], side: Side) -> Vec<f64> {
        let sign = match side {
            Side::Plus => 1.0,
            Side::Minus => -1.0,
        };
        params
            .iter()
            .enumerate()
            .map(|(i, p)| clip(p, theta[i] + sign * self.c[i] * f64::from(self.delta[i])))
            .collect()
    }

    /// The values sent to the bot for `side` (the point, an integer
    /// parameter rounded stochastically from `seed` and the iteration), as
    /// option values: whole numbers for integers, the shortest exact
    /// decimal otherwise.
    #[must_use]
    pub fn options(&self, params: &[Param], theta: &[f64], side: Side, seed: u64) -> Vec<String> {
        let what = match side {
            Side::Plus => 1,
            Side::Minus => 2,
        };
        let mut rng = rng_of(seed, self.k, what);
        self.point(params, theta, side)
            .into_iter()
            .zip(params)
            .map(|(v, p)| value_text(p, v, &mut rng))
            .collect()
    }

    /// `θ` after a pair whose result (wins minus losses of `θ + c_k·Δ`,
    /// from -2 to 2 for one pair) is `result`: `θ + a_k / c_k · result · Δ`,
    /// clipped (fishtest's `apply_spsa_result_updates`).
    #[must_use]
    pub fn update(&self, params: &[Param], theta: &[f64], result: f64) -> Vec<f64> {
        params
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let move_by = self.a[i] / self.c[i] * result * f64::from(self.delta[i]);
                clip(p, theta[i] + move_by)
            })
            .collect()
    }
}

/// `v` within `p`'s range.
fn clip(p: &Param, v: f64) -> f64 {
    v.max(p.min).min(p.max)
}

/// `v` as sent for `p`: rounded stochastically to a whole number for an
/// integer parameter (kept in range), plainly otherwise.
fn value_text(p: &Param, v: f64, rng: &mut ChaCha8Rng) -> String {
    if p.integer {
        let u: f64 = rng.gen();
        let rounded = (v + u).floor().max(p.min.ceil()).min(p.max.floor());
        format!("{}", rounded as i64)
    } else {
        format!("{v}")
    }
}

/// The values of `theta` as a bot takes them at the end of a tuning: an
/// integer parameter rounded to the nearest whole number within its range,
/// the others to six significant digits (whole where six digits would
/// fall outside the range; `0` for zero).
#[must_use]
pub fn final_values(params: &[Param], theta: &[f64]) -> Vec<String> {
    params
        .iter()
        .zip(theta)
        .map(|(p, &v)| {
            if p.integer {
                format!("{}", v.round().max(p.min.ceil()).min(p.max.floor()) as i64)
            } else if v == 0.0 {
                "0".to_string()
            } else {
                let digits = 6 - 1 - v.abs().max(1e-12).log10().floor() as i32;
                let short = format!("{:.*}", digits.clamp(0, 12) as usize, v);
                // Six digits that fall outside the range: the value whole.
                match short.parse::<f64>() {
                    Ok(s) if (p.min..=p.max).contains(&s) => short,
                    _ => format!("{v}"),
                }
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{final_values, Param, Schedule, Side};
    use proptest::prelude::{any, prop_assert, proptest, ProptestConfig};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn param(start: f64, c_end: f64, r_end: f64) -> Param {
        Param {
            name: "x".into(),
            start,
            min: 0.0,
            max: 10.0,
            c_end,
            r_end,
            integer: false,
        }
    }

    #[test]
    fn the_last_iteration_has_c_end_and_r_end() {
        let p = param(5.0, 0.7, 0.003);
        let s = Schedule::new(1000);
        assert_eq!(s.big_a, 100.0);
        let last = s.step(std::slice::from_ref(&p), 1, 999);
        assert!((last.c[0] - 0.7).abs() < 1e-12);
        assert!((last.a[0] / (last.c[0] * last.c[0]) - 0.003).abs() < 1e-12);
        // And the gains shrink along the way.
        let first = s.step(std::slice::from_ref(&p), 1, 0);
        assert!(first.c[0] > last.c[0] && first.a[0] > last.a[0]);
    }

    #[test]
    fn the_draws_depend_on_the_seed_and_the_index_only() {
        let ps = vec![param(5.0, 0.5, 0.01); 8];
        let s = Schedule::new(100);
        assert_eq!(s.step(&ps, 7, 42), s.step(&ps, 7, 42));
        let signs: Vec<Vec<i8>> = (0..20).map(|k| s.step(&ps, 7, k).delta).collect();
        assert!(signs.windows(2).any(|w| w[0] != w[1]));
        assert!(signs.iter().flatten().all(|&d| d == 1 || d == -1));
    }

    #[test]
    fn points_are_clipped_and_updates_move_along_the_sign() {
        let p = param(9.9, 0.5, 0.01);
        let s = Schedule::new(100);
        let step = s.step(std::slice::from_ref(&p), 3, 0);
        let plus = step.point(std::slice::from_ref(&p), &[9.9], Side::Plus);
        let minus = step.point(std::slice::from_ref(&p), &[9.9], Side::Minus);
        assert!(plus[0] <= 10.0 && minus[0] <= 10.0 && plus[0] != minus[0]);
        let up = step.update(std::slice::from_ref(&p), &[5.0], 2.0);
        let expected = 5.0 + step.a[0] / step.c[0] * 2.0 * f64::from(step.delta[0]);
        assert!((up[0] - expected).abs() < 1e-12);
        assert_eq!(
            step.update(std::slice::from_ref(&p), &[5.0], 0.0),
            vec![5.0]
        );
    }

    #[test]
    fn integer_rounding_is_unbiased_and_in_range() {
        let p = Param {
            integer: true,
            ..param(3.3, 1e-9, 0.0)
        };
        let s = Schedule::new(4000);
        let ps = std::slice::from_ref(&p);
        let sum: i64 = (0..4000)
            .map(|k| {
                let v = s.step(ps, 11, k).options(ps, &[3.3], Side::Plus, 11);
                v[0].parse::<i64>().unwrap()
            })
            .sum();
        let mean = sum as f64 / 4000.0;
        // The mean of 4000 draws of 3 or 4 (p = 0.3): sd 0.0072.
        assert!((mean - 3.3).abs() < 0.04, "mean {mean}");
    }

    /// A pair's result (wins minus losses of the first bot, no draws) when
    /// the bots' Elo differ by `diff`, drawn from `rng`.
    fn pair(diff: f64, rng: &mut ChaCha8Rng) -> f64 {
        let p = 1.0 / (1.0 + 10f64.powf(-diff / 400.0));
        (0..2)
            .map(|_| if rng.gen::<f64>() < p { 1.0 } else { -1.0 })
            .sum()
    }

    proptest! {
        // A fixed seed for the cases: the bound is statistical (about four
        // spreads), so fresh cases on every run would fail now and then
        // without a bug (best 3.0 from 9.5 with seed 716 ended 1.02 away).
        #![proptest_config(ProptestConfig {
            cases: 12,
            rng_seed: proptest::test_runner::RngSeed::Fixed(0x5e5a),
            ..ProptestConfig::default()
        })]
        /// With a noisy objective (each game a Bernoulli draw, the strength
        /// a quadratic of the parameter, 20 Elo per unit squared from the
        /// optimum), 2000 iterations from a poor start end near the optimum.
        #[test]
        fn iterates_approach_the_optimum(best in 3.0f64..7.0, low in any::<bool>(), seed in 0u64..1000) {
            let start = if low { 0.5 } else { 9.5 };
            let p = param(start, 0.5, 0.05);
            let ps = std::slice::from_ref(&p);
            let elo = |x: f64| -20.0 * (x - best) * (x - best);
            let s = Schedule::new(2000);
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut theta = vec![start];
            for k in 0..2000 {
                let step = s.step(ps, seed, k);
                let plus = step.point(ps, &theta, Side::Plus);
                let minus = step.point(ps, &theta, Side::Minus);
                let result = pair(elo(plus[0]) - elo(minus[0]), &mut rng);
                theta = step.update(ps, &theta, result);
            }
            // The start is at least 2.5 away; near the optimum the
            // iterates' spread is about 0.25 (gain over twice the slope).
            prop_assert!((theta[0] - best).abs() < 1.0, "ended at {} for {best}", theta[0]);
        }
    }

    #[test]
    fn two_parameters_converge_together() {
        let ps = vec![param(1.0, 0.5, 0.05), param(9.0, 0.5, 0.05)];
        let elo = |x: &[f64]| -20.0 * ((x[0] - 6.0).powi(2) + (x[1] - 4.0).powi(2));
        let s = Schedule::new(2000);
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut theta = vec![1.0, 9.0];
        for k in 0..2000 {
            let step = s.step(&ps, 5, k);
            let plus = step.point(&ps, &theta, Side::Plus);
            let minus = step.point(&ps, &theta, Side::Minus);
            theta = step.update(&ps, &theta, pair(elo(&plus) - elo(&minus), &mut rng));
        }
        assert!(
            (theta[0] - 6.0).abs() < 1.0 && (theta[1] - 4.0).abs() < 1.0,
            "{theta:?}"
        );
    }

    #[test]
    fn final_values_read_plainly() {
        let ps = vec![
            Param {
                integer: true,
                ..param(0.0, 1.0, 0.0)
            },
            param(0.0, 1.0, 0.0),
        ];
        assert_eq!(
            final_values(&ps, &[3.6, 1.234_567_89]),
            vec!["4", "1.23457"]
        );
        assert_eq!(final_values(&ps, &[0.0, 0.0]), vec!["0", "0"]);
        // Never outside the range: a fractional min, six digits below it.
        let edge = Param {
            min: 0.123_456_4,
            max: 0.2,
            ..param(0.123_456_4, 0.01, 0.0)
        };
        let whole = Param {
            min: 0.4,
            max: 3.0,
            integer: true,
            ..param(0.4, 0.1, 0.0)
        };
        assert_eq!(
            final_values(&[edge, whole], &[0.123_456_4, 0.4]),
            vec!["0.1234564", "1"]
        );
    }
}
