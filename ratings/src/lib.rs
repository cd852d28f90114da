//! `endodoi-ratings`: ratings and confidence statistics for tournaments of
//! bots, from a few to thousands (docs/ratings.md has every formula with
//! its source, and what changes with many bots).
//!
//! Everything here is pure computation: no I/O, no async, no global state
//! (the one-step bootstrap splits its samples over scoped threads, with
//! results independent of their number). The arena uses it as
//! `arena::stats`.
//!
//! * [`fit`]: maximum-likelihood Bradley–Terry ratings on the logistic Elo
//!   scale (Bradley & Terry 1952, fitted by damped Newton iteration on the
//!   concave log-likelihood; see Hunter 2004 for the model and its existence
//!   conditions), draws counted as half a win and half a loss (Ordo's
//!   convention), with a virtual-draw prior per pair.
//! * [`rate`]: [`fit`] plus confidence intervals and likelihood of
//!   superiority from a parametric bootstrap, like Ordo's simulation.
//! * [`pair_elo`]: the classic trinomial Elo estimate for a single pair, with
//!   the error and LOS formulas of cutechess / fastchess, and normalised Elo
//!   (fishtest / fastchess).
//! * [`penta_elo`]: the same from [`Pentanomial`] counts of game pairs
//!   (same opening, sides swapped), with fastchess's pentanomial formulas.
//! * [`Sprt`]: the generalised sequential probability ratio test of fishtest
//!   and fastchess, for trinomial or pentanomial results, in logistic or
//!   normalised Elo.
//!
//! Units: ratings, intervals and errors are in Elo points on the logistic
//! scale, where a difference of `D` points means an expected score of
//! `1 / (1 + 10^(-D / 400))` for the higher-rated side. Probabilities (LOS,
//! draw rate, confidence) are plain fractions in `0..=1`, not percentages.
//! Normalised Elo (nElo) is `(score - ½) / σ × 800 / ln 10`, `σ` being the
//! standard deviation of one game's score (Van den Bergh, "Normalized Elo",
//! cantate.be/Fishtest). Log-likelihood ratios are natural logarithms.
//!
//! No public function returns NaN or infinity; each documents what it
//! returns in degenerate cases (no games, all draws, 100% scores, bots
//! without games).

use serde::{Deserialize, Serialize};
use statrs::distribution::{ContinuousCDF, Normal};

mod bootstrap;
mod error;
mod fit;
mod pair;
mod pentanomial;
mod sampled;
mod solve;
mod sprt;

pub use error::RatingsError;
pub use fit::{fit, fit_from, try_fit};

pub use pair::{pair_elo, PairElo};
pub use pentanomial::{penta_elo, GameScore, PentaElo, Pentanomial};
pub use sprt::{Sprt, SprtModel, SprtStatus};

/// Largest magnitude, in Elo points, that a rating or a pairwise Elo estimate
/// may take when the exact maximum-likelihood value is infinite.
///
/// This only matters without a prior (`prior_draws == 0`), when some group of
/// bots scored 100% (or 0%) against the rest of its connected group: the
/// likelihood then keeps growing as ratings drift apart, so ratings are
/// confined to `-ELO_LIMIT..=ELO_LIMIT` (before any anchor shift, see
/// [`RatingOptions::anchor`]). [`pair_elo`] and [`penta_elo`] likewise clamp
/// their Elo and nElo estimates and interval ends to this range for 0% and
/// 100% scores, and [`Sprt`] clamps its hypotheses to it.
pub const ELO_LIMIT: f64 = 2000.0;

/// Games between bots `a` and `b` (indices into the caller's bot list),
/// counted from `a`'s side: `wins` are games `a` won.
///
/// Several entries for the same pair (in either order) are added up. Entries
/// with `a == b` are ignored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairResult {
    /// Index of the first bot.
    pub a: usize,
    /// Index of the second bot.
    pub b: usize,
    /// Games won by `a`.
    pub wins: u32,
    /// Drawn games.
    pub draws: u32,
    /// Games lost by `a` (won by `b`).
    pub losses: u32,
}

/// Settings for [`rate`].
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct RatingOptions {
    /// Virtual draws added to every pair of bots that played at least one
    /// game (default `1.0`). Keeps 100% and 0% scores finite, like the
    /// virtual-draw priors of BayesElo and Ordo. Negative or NaN values are
    /// treated as `0.0`, values above `1e9` (or infinite) as `1e9`.
    pub prior_draws: f64,
    /// Number of simulated tournaments for the bootstrap (default `1000`).
    /// With `0` every interval has zero width and LOS is 0, ½ or 1.
    pub bootstrap_samples: u32,
    /// Seed of the ChaCha8 generator used by the bootstrap (default `0`).
    /// Identical inputs and seed give bit-identical results.
    pub seed: u64,
    /// Two-sided confidence level of the intervals, as a fraction (default
    /// `0.95`). Clamped to `0.0..=0.999999`; NaN means `0.95`.
    pub confidence: f64,
    /// Optional anchor `(bot, elo)`: bot index and its fixed rating in Elo
    /// points (default `None`). This is Ordo's `-a` (anchor) / `-A` (its
    /// rating) convention.
    ///
    /// * `None`: each connected group of bots is centred at mean 0.
    /// * `Some((a, r))`: the ratings of bot `a`'s group are shifted by one
    ///   common amount so that bot `a` is exactly `r`, and so is every
    ///   bootstrap sample before the spread is measured. Bot `a`'s interval
    ///   then has zero width (`sd == 0`, `lower == upper == r`), and every
    ///   other interval of its group measures the uncertainty of that bot
    ///   *relative to the anchor* (so it is wider than the mean-0 one: it
    ///   includes the anchor's own uncertainty). Rating differences, and
    ///   [`Ratings::los`] within the group, do not change. Bots in other
    ///   groups, which never met the anchor even indirectly, keep the mean-0
    ///   convention (a bot without games stays at 0) and keep their
    ///   intervals.
    ///
    /// A NaN rating counts as 0 and the rating is clamped to `±1e9`. An
    /// index that is not a bot makes [`rate`] panic.
    #[serde(default)]
    pub anchor: Option<(usize, f64)>,
}

impl Default for RatingOptions {
    fn default() -> Self {
        Self {
            prior_draws: 1.0,
            bootstrap_samples: 1000,
            seed: 0,
            confidence: 0.95,
            anchor: None,
        }
    }
}

/// How a rating's interval (and its group's covariance, behind LOS) was
/// measured; see [`rate`] for when each is used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum IntervalMethod {
    /// The parametric bootstrap (Ordo's simulation): the normal case.
    Bootstrap,
    /// The curvature of the fit (the inverse of its observed Fisher
    /// information, as BayesElo's covariance), used where the bootstrap
    /// degenerates: a bot of the group won or lost every game, every
    /// simulated tournament gave the same ratings (all draws), or some
    /// simulated tournament had no finite estimate (it sat at the
    /// `±ELO_LIMIT` box).
    Curvature,
    /// No interval can be given: without a prior, part of the group scored
    /// 100% against the rest, so the maximum-likelihood ratings are
    /// infinite and the fit sits at the `±ELO_LIMIT` box. `lower` and
    /// `upper` are then the box's ends (shifted with the anchor), not an
    /// interval estimate.
    AtLimit,
    /// The bot played no games: nothing is measured (`elo`, `lower` and
    /// `upper` are 0, or the anchor's rating).
    NoGames,
}

impl IntervalMethod {
    /// The name written in `standings.csv`'s `interval` column:
    /// `bootstrap`, `curvature`, `at-limit` or `no-games`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Bootstrap => "bootstrap",
            Self::Curvature => "curvature",
            Self::AtLimit => "at-limit",
            Self::NoGames => "no-games",
        }
    }

    /// Whether `lower..=upper` is an interval estimate (bootstrap or
    /// curvature), as opposed to no games or the box's ends.
    #[must_use]
    pub fn has_interval(self) -> bool {
        matches!(self, Self::Bootstrap | Self::Curvature)
    }
}

/// One bot's rating, in Elo points on the logistic scale.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    /// Maximum-likelihood rating (see [`fit`]); the mean over each connected
    /// group of bots is 0, except in the anchor's group when
    /// [`RatingOptions::anchor`] is set, which is shifted so the anchor has
    /// its given rating.
    pub elo: f64,
    /// Lower end of the confidence interval: `elo - z * sd` (for
    /// [`IntervalMethod::AtLimit`], the box's lower end).
    pub lower: f64,
    /// Upper end of the confidence interval: `elo + z * sd` (for
    /// [`IntervalMethod::AtLimit`], the box's upper end).
    pub upper: f64,
    /// Standard deviation of the rating, in Elo points, from `interval`'s
    /// method (relative to the anchor, if any; 0 for the anchor itself).
    pub sd: f64,
    /// How `sd`, `lower` and `upper` were measured.
    pub interval: IntervalMethod,
    /// Real games this bot played (virtual prior draws not counted). A bot
    /// with no games gets `elo == lower == upper == 0` (or the anchor's
    /// rating if it is the anchor).
    pub games: u64,
    /// Index of the connected group of bots this bot belongs to (bots are
    /// connected when they played each other, directly or through others).
    /// Groups are numbered in order of their lowest bot index; a bot without
    /// games is a group of its own. Ratings are only comparable within a
    /// group.
    pub group: usize,
}

/// Result of [`rate`]: ratings, intervals and the bootstrap covariance.
#[derive(Debug, Clone, PartialEq)]
pub struct Ratings {
    /// One entry per bot, in the caller's order.
    pub ratings: Vec<Rating>,
    /// Number of connected groups (see [`Rating::group`]). More than one
    /// means some ratings are not comparable with each other: each group is
    /// centred at 0 on its own.
    pub groups: usize,
    /// Fraction of real games that were drawn (`0..=1`; 0 without games),
    /// used to simulate draws in the bootstrap.
    pub draw_rate: f64,
    /// Number of bootstrap samples behind `sd`, the intervals and LOS.
    pub samples: u32,
    /// Confidence level of the intervals actually used (after clamping).
    pub confidence: f64,
    /// The anchor actually applied, `(bot, elo)`, after sanitising the
    /// rating (see [`RatingOptions::anchor`]); `None` without one.
    pub anchor: Option<(usize, f64)>,
    /// The covariance of the ratings, Elo²: each group's block from its
    /// [`IntervalMethod`] (bootstrap, or curvature).
    covariance: Covariance,
}

/// The covariance behind [`Ratings::covariance`]: a dense matrix for few
/// bots, the samples themselves for many (any entry is then a sum over
/// the samples, and nothing of size `n²` is kept).
#[derive(Debug, Clone, PartialEq)]
enum Covariance {
    /// Row-major `n × n`, Elo².
    Dense(Vec<f64>),
    /// Centred deviations, bot-major `n × samples` (each bot's samples
    /// contiguous), Elo.
    Sampled(Vec<f64>),
}

impl Covariance {
    /// The entry of bots `i` and `j` among `n`, Elo².
    fn get(&self, n: usize, i: usize, j: usize) -> f64 {
        match self {
            Covariance::Dense(c) => c[i * n + j],
            Covariance::Sampled(d) => sampled::covariance(d, n, i, j),
        }
    }
}

/// Up to this many bots [`rate`] refits every simulated tournament (the
/// full bootstrap) and keeps the dense covariance; above it, it uses the
/// one-step bootstrap on one factorisation and keeps the samples (see
/// [`rate`], and docs/ratings.md for the cost of each).
pub const FULL_BOOTSTRAP_MAX_BOTS: usize = 64;

impl Ratings {
    /// Number of bots.
    pub fn len(&self) -> usize {
        self.ratings.len()
    }

    /// Whether there are no bots at all.
    pub fn is_empty(&self) -> bool {
        self.ratings.is_empty()
    }

    /// Covariance of the ratings of bots `i` and `j`, in Elo²: the sample
    /// covariance over the bootstrap samples (0 with fewer than two), or,
    /// in a group whose [`Rating::interval`] is
    /// [`IntervalMethod::Curvature`], the curvature covariance (0 between
    /// groups).
    ///
    /// # Panics
    /// If `i` or `j` is not a bot index.
    pub fn covariance(&self, i: usize, j: usize) -> f64 {
        let n = self.ratings.len();
        assert!(i < n && j < n, "bot index out of range");
        if matches!(self.covariance, Covariance::Sampled(_))
            && self.ratings[i].group != self.ratings[j].group
        {
            return 0.0;
        }
        self.covariance.get(n, i, j)
    }

    /// Likelihood of superiority: probability (`0..=1`) that bot `i` is
    /// stronger than bot `j`.
    ///
    /// Computed as `Φ((r_i - r_j) / sd(r_i - r_j))`, where `Φ` is the
    /// standard normal CDF and `sd(r_i - r_j)` comes from the bootstrap
    /// covariance (`var_i + var_j - 2 cov_ij`), as in Ordo. When that
    /// standard deviation is 0 (no bootstrap samples, bots without games) the
    /// answer is 1, ½ or 0 according to the sign of `r_i - r_j`; `los(i, i)`
    /// is ½. Never NaN. Only meaningful for bots of the same group.
    ///
    /// # Panics
    /// If `i` or `j` is not a bot index.
    pub fn los(&self, i: usize, j: usize) -> f64 {
        let diff = self.ratings[i].elo - self.ratings[j].elo;
        let var = self.covariance(i, i) + self.covariance(j, j) - 2.0 * self.covariance(i, j);
        let sd = var.max(0.0).sqrt();
        if sd > 1e-12 && diff.is_finite() {
            standard_normal().cdf(diff / sd).clamp(0.0, 1.0)
        } else if diff > 0.0 {
            1.0
        } else if diff < 0.0 {
            0.0
        } else {
            0.5
        }
    }
}

/// Maximum-likelihood ratings with bootstrap confidence intervals.
///
/// 1. Ratings: [`fit`] with `options.prior_draws` (Bradley–Terry, logistic
///    Elo scale, draws = half a win, virtual-draw prior, mean 0 per group).
/// 2. Spread: a parametric bootstrap in the style of Ordo's simulation. From
///    the fitted ratings, every pair's games are played again at random
///    (same number of games per pair). For a pair with expected score `E`
///    (from the fitted ratings) and the observed overall draw rate `D`, a
///    game is drawn with probability `d = min(D, 2E, 2(1 - E))`, won with
///    `E - d/2` and lost with `1 - E - d/2`, so the expected score stays `E`
///    and all probabilities are valid. The simulated table is refitted
///    (warm-started from the fitted ratings) with the same prior; this is
///    repeated `options.bootstrap_samples` times with a `ChaCha8Rng` seeded
///    from `options.seed`, so results are reproducible.
/// 3. Anchor (optional, [`RatingOptions::anchor`], Ordo's `-a`/`-A`): the
///    anchor's group is shifted so the anchor has its given rating, in the
///    fit and in every bootstrap sample.
/// 4. Interval of bot `i`: `[elo_i - z sd_i, elo_i + z sd_i]`, where `sd_i`
///    is the standard deviation of bot `i`'s rating over the samples and `z`
///    the standard normal quantile at `(1 + confidence) / 2` (1.96 for 95%).
///    The covariance of all ratings is kept for [`Ratings::los`].
/// 5. Where the bootstrap degenerates, a group's covariance is the curvature
///    of the fit instead ([`IntervalMethod::Curvature`]: the inverse of the
///    negated Hessian of the log-likelihood, prior included, under the
///    group's mean-0 constraint; BayesElo's covariance): when a bot of the
///    group won every game or lost every game (the simulation, drawn from
///    ratings already at the edge, cannot go further out, so it shrinks the
///    spread), when the bootstrap's spread is 0 in the group (all draws: it
///    only simulates draws), or when some simulated tournament had no
///    finite estimate in the group (without a prior, a resample at 100%:
///    the refit sits at `±ELO_LIMIT` and inflates the spread). With fewer
///    than two samples the intervals keep zero width.
/// 6. A group whose own fit has no finite estimate (no prior, part of it
///    at 100%) gets [`IntervalMethod::AtLimit`]: no interval (the box's
///    ends). A bot without games gets [`IntervalMethod::NoGames`].
///
/// Degenerate cases (never NaN or infinity): no bots gives an empty result;
/// no games gives every bot `elo == lower == upper == 0` and LOS ½; a bot
/// without games gets 0 with zero width (its own group, `NoGames`); all
/// draws give all ratings 0 with the curvature's intervals; 100% scores
/// stay finite through the prior (curvature intervals), or the
/// `±ELO_LIMIT` box without one (`AtLimit`, see [`fit()`]).
///
/// Many bots: above [`FULL_BOOTSTRAP_MAX_BOTS`] bots, step 2 is the
/// one-step bootstrap instead (each simulated tournament's first Newton
/// step from the fit, on one factorisation of the Hessian at the fit; the
/// "k-step bootstrap" of Davidson & MacKinnon 1999 and Andrews 2002 with
/// k = 1, whose covariance is the sandwich `H⁻¹ J H⁻¹`), and step 5's
/// curvature is sampled on the same factorisation (normal scores with the
/// information's covariance, so the samples' covariance is `H⁻¹`). No
/// refit sits at the box, so step 5's third case does not arise there. The
/// samples are kept instead of an `n × n` matrix: [`Ratings::covariance`]
/// and [`Ratings::los`] are then a sum over the samples, 0 between groups.
/// Sample `s` draws from its own ChaCha8 stream, so the numbers do not
/// depend on the machine's threads.
///
/// Cost: one simulated game per real game per sample, plus one Newton refit
/// per sample (up to [`FULL_BOOTSTRAP_MAX_BOTS`] bots), or one solve per
/// sample with a Hessian factorised once (above); the fit's solves use the
/// sparse Hessian (see [`fit()`]).
///
/// # Panics
/// If a result refers to a bot index `>= bots`, or the anchor's index is
/// `>= bots` (with the message of the [`RatingsError`]); [`try_rate`]
/// returns the error instead.
pub fn rate(bots: usize, results: &[PairResult], options: &RatingOptions) -> Ratings {
    try_rate(bots, results, options).unwrap_or_else(|e| panic!("{e}"))
}

/// [`rate`], with bad input as an error instead of a panic.
///
/// # Errors
/// [`RatingsError::BotOutOfRange`] if a result refers to a bot index
/// `>= bots`; [`RatingsError::AnchorOutOfRange`] if the anchor's is.
pub fn try_rate(
    bots: usize,
    results: &[PairResult],
    options: &RatingOptions,
) -> Result<Ratings, RatingsError> {
    error::check_results(bots, results)?;
    if let Some((anchor, _)) = options.anchor {
        if anchor >= bots {
            return Err(RatingsError::AnchorOutOfRange { anchor, bots });
        }
    }
    Ok(rate_checked(bots, results, options))
}

/// [`rate`] of input already checked.
fn rate_checked(bots: usize, results: &[PairResult], options: &RatingOptions) -> Ratings {
    let prior = sanitize_prior(options.prior_draws);
    let confidence = if options.confidence.is_nan() {
        0.95
    } else {
        options.confidence.clamp(0.0, 0.999_999)
    };
    let anchor = options.anchor.map(|(bot, elo)| {
        let elo = if elo.is_nan() {
            0.0
        } else {
            elo.clamp(-MAX_ANCHOR, MAX_ANCHOR)
        };
        (bot, elo)
    });
    let table = fit::Table::new(bots, results);
    let theta = table.solve(prior, None);
    let mut elo: Vec<f64> = theta.iter().map(|&t| to_elo(t)).collect();
    if let Some((a, value)) = anchor {
        let shift = value - elo[a];
        for (k, e) in elo.iter_mut().enumerate() {
            if table.group[k] == table.group[a] {
                *e = if k == a { value } else { *e + shift };
            }
        }
    }
    let spread = Spread {
        table: &table,
        theta: &theta,
        scores: table.scores(prior),
        prior,
        options,
        anchor: anchor.map(|(a, _)| a),
    };
    let (methods, covariance) = if bots <= FULL_BOOTSTRAP_MAX_BOTS {
        spread.full()
    } else {
        spread.one_step()
    };
    let z = standard_normal().inverse_cdf(0.5 + confidence / 2.0);
    let mut ratings = Ratings {
        ratings: Vec::with_capacity(bots),
        groups: table.groups,
        draw_rate: table.draw_rate(),
        samples: options.bootstrap_samples,
        confidence,
        anchor,
        covariance,
    };
    for i in 0..bots {
        let g = table.group[i];
        let sd = ratings.covariance.get(bots, i, i).max(0.0).sqrt();
        let interval = if table.games[i] == 0 {
            IntervalMethod::NoGames
        } else {
            methods[g]
        };
        let (lower, upper) = if interval == IntervalMethod::AtLimit {
            // The box's ends, moved with the anchor's shift.
            let shift = elo[i] - to_elo(theta[i]);
            if anchor.is_some_and(|(a, _)| a == i) {
                (elo[i], elo[i])
            } else {
                (
                    (shift - ELO_LIMIT).min(elo[i]),
                    (shift + ELO_LIMIT).max(elo[i]),
                )
            }
        } else {
            (elo[i] - z * sd, elo[i] + z * sd)
        };
        ratings.ratings.push(Rating {
            elo: elo[i],
            lower,
            upper,
            sd,
            interval,
            games: table.games[i],
            group: g,
        });
    }
    ratings
}

/// What the spread of the ratings is measured from (see [`rate`]).
struct Spread<'a> {
    table: &'a fit::Table,
    /// The fit, natural units.
    theta: &'a [f64],
    /// The pair scores with the prior.
    scores: Vec<fit::Score>,
    prior: f64,
    options: &'a RatingOptions,
    anchor: Option<usize>,
}

impl Spread<'_> {
    /// Few bots: the full bootstrap (every sample refitted), or the exact
    /// curvature where it degenerates; a dense covariance.
    fn full(&self) -> (Vec<IntervalMethod>, Covariance) {
        let (table, bots) = (self.table, self.table.bots);
        let boot = bootstrap::covariance(
            table,
            self.theta,
            self.prior,
            self.options.bootstrap_samples,
            self.options.seed,
            self.anchor,
        );
        let finite = table.finite_groups(&self.scores);
        let variances: Vec<f64> = (0..bots).map(|k| boot.covariance[k * bots + k]).collect();
        let methods = interval_methods(
            table,
            &variances,
            &boot.clamped,
            &finite,
            self.options.bootstrap_samples,
        );
        let mut covariance = boot.covariance;
        if !methods.contains(&IntervalMethod::Curvature) {
            return (methods, Covariance::Dense(covariance));
        }
        let curvature = table.curvature(&self.scores, self.theta);
        let elo2 = 1.0 / (NATURAL_PER_ELO * NATURAL_PER_ELO);
        let c = |x: usize, y: usize| curvature[x * bots + y];
        for i in 0..bots {
            let g = table.group[i];
            if methods[g] != IntervalMethod::Curvature {
                continue;
            }
            for j in 0..bots {
                let v = if table.group[j] != g {
                    0.0
                } else if let Some(a) = self.anchor.filter(|&a| table.group[a] == g) {
                    // Relative to the anchor: var(r_i - r_a) and its kin.
                    (c(i, j) - c(i, a) - c(j, a) + c(a, a)) * elo2
                } else {
                    c(i, j) * elo2
                };
                covariance[i * bots + j] = v;
                covariance[j * bots + i] = v;
            }
        }
        (methods, Covariance::Dense(covariance))
    }

    /// Many bots: the one-step bootstrap, or the sampled curvature where it
    /// degenerates, on one factorisation; the samples kept.
    fn one_step(&self) -> (Vec<IntervalMethod>, Covariance) {
        let (table, bots) = (self.table, self.table.bots);
        let samples = self.options.bootstrap_samples;
        let draw = |d| {
            sampled::deviations(
                table,
                self.theta,
                &self.scores,
                d,
                samples,
                self.options.seed,
                self.anchor,
            )
        };
        let mut deviations = draw(sampled::Draw::Bootstrap);
        let variances: Vec<f64> = (0..bots)
            .map(|k| sampled::covariance(&deviations, bots, k, k))
            .collect();
        let finite = table.finite_groups(&self.scores);
        // No refit, so no sample sits at the box: nothing is clamped.
        let clamped = vec![false; table.groups];
        let methods = interval_methods(table, &variances, &clamped, &finite, samples);
        if methods.contains(&IntervalMethod::Curvature) {
            let curvature = draw(sampled::Draw::Curvature);
            let rows = deviations.len() / bots.max(1);
            for (k, (row, from)) in deviations
                .chunks_mut(rows.max(1))
                .zip(curvature.chunks(rows.max(1)))
                .enumerate()
            {
                if methods[table.group[k]] == IntervalMethod::Curvature {
                    row.copy_from_slice(from);
                }
            }
        }
        (methods, Covariance::Sampled(deviations))
    }
}

/// The interval method of each group (see [`rate`], steps 5 and 6):
/// `variances` are the bootstrap's per bot, `clamped` says per group
/// whether a refit sat at the box, `finite` whether the group's own fit
/// has a finite estimate.
fn interval_methods(
    table: &fit::Table,
    variances: &[f64],
    clamped: &[bool],
    finite: &[bool],
    samples: u32,
) -> Vec<IntervalMethod> {
    let n = table.bots;
    // Per bot: whether all its games had one decisive result.
    let mut won = vec![0u64; n];
    let mut lost = vec![0u64; n];
    for p in &table.pairs {
        won[p.i] += p.wins;
        lost[p.i] += p.losses;
        won[p.j] += p.losses;
        lost[p.j] += p.wins;
    }
    table
        .members
        .iter()
        .enumerate()
        .map(|(g, bots)| {
            if bots.len() < 2 {
                return IntervalMethod::NoGames;
            }
            if !finite[g] {
                return IntervalMethod::AtLimit;
            }
            if samples < 2 {
                return IntervalMethod::Bootstrap;
            }
            let swept = bots
                .iter()
                .any(|&k| won[k] == table.games[k] || lost[k] == table.games[k]);
            let flat = bots.iter().all(|&k| variances[k] <= 0.0);
            if swept || flat || clamped[g] {
                IntervalMethod::Curvature
            } else {
                IntervalMethod::Bootstrap
            }
        })
        .collect()
}

/// Natural log-odds per Elo point: `ln(10) / 400`.
const NATURAL_PER_ELO: f64 = std::f64::consts::LN_10 / 400.0;

/// Converts natural log-odds units (used inside the solver) to Elo points.
fn to_elo(theta: f64) -> f64 {
    theta / NATURAL_PER_ELO
}

/// Converts Elo points to natural log-odds units.
fn from_elo(elo: f64) -> f64 {
    elo * NATURAL_PER_ELO
}

/// Negative or NaN priors mean "no prior"; huge ones are capped at `1e9`.
fn sanitize_prior(prior_draws: f64) -> f64 {
    if prior_draws > 0.0 {
        prior_draws.min(MAX_PRIOR)
    } else {
        0.0
    }
}

/// Largest prior accepted (keeps every count finite).
const MAX_PRIOR: f64 = 1e9;

/// Largest magnitude accepted for an anchor's rating, in Elo points.
const MAX_ANCHOR: f64 = 1e9;

/// The standard normal distribution.
fn standard_normal() -> Normal {
    Normal::new(0.0, 1.0).expect("standard normal parameters are valid")
}
