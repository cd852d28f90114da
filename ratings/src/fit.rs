//! Maximum-likelihood Bradley–Terry ratings (logistic Elo scale).

use super::error::{check_results, RatingsError};
use super::solve::{Factor, Graph, Method, Pattern};
use super::{from_elo, sanitize_prior, to_elo, PairResult, ELO_LIMIT};

/// Newton iterations are capped at this number (convergence normally takes
/// well under 30 from a cold start and 2–5 from a warm start).
const MAX_ITERATIONS: usize = 200;

/// Stop when no rating moved by more than this many Elo points (plus a
/// relative term so huge ratings can still meet it in floating point).
const TOLERANCE_ELO: f64 = 1e-10;

/// Relative residual at which the conjugate-gradient solves of the Newton
/// steps stop (the direct solve is exact): far below the final tolerance,
/// so the inexact steps still converge to the same maximum.
const NEWTON_CG_TOLERANCE: f64 = 1e-12;

/// Maximum-likelihood ratings, in Elo points on the logistic scale.
///
/// Model: Bradley & Terry (1952) on the logistic Elo scale. Bot `i` scores
/// `E_ij = 1 / (1 + 10^((r_j - r_i) / 400))` in expectation against bot `j`;
/// a draw counts as half a win and half a loss (Ordo's convention), so the
/// log-likelihood is `Σ_pairs S_ij ln E_ij + (N_ij - S_ij) ln(1 - E_ij)` with
/// `S_ij` = wins + draws/2 and `N_ij` = games.
///
/// Prior: every pair of bots that played at least one game gets
/// `prior_draws` extra virtual draws (added to `N_ij`, half of them to
/// `S_ij`). Like the virtual-draw priors of BayesElo and Ordo this pulls the
/// pair slightly towards equality and keeps 100% and 0% scores finite.
/// Negative or NaN `prior_draws` count as 0.
///
/// Method: damped Newton iteration with a backtracking line search on the
/// concave log-likelihood (Hunter 2004 discusses this model, its MM
/// alternative and the existence conditions below), started from all zeros,
/// stopped when no rating moves by more than about 1e-10 Elo (at most 200
/// iterations). The games are added up per pair once; each Newton step
/// solves with the sparse Hessian (a weighted graph Laplacian), by an
/// envelope Cholesky factorisation for few bots and chain-like pairings or
/// by preconditioned conjugate gradients for well-mixed ones (see
/// `solve.rs`): no dense `n × n` matrix past a few dozen bots.
///
/// Normalisation and degenerate cases (the result never contains NaN or
/// infinity):
/// * Each connected group of bots (bots linked by games, directly or
///   through others) is centred at mean 0 on its own; ratings in different
///   groups are not comparable. The caller can find groups with
///   [`super::rate`] ([`super::Rating::group`]).
/// * A bot without games, and every bot when there are no games at all, gets
///   0.
/// * All draws gives all zeros.
/// * Without a prior, the maximum-likelihood ratings are infinite when part
///   of a group scored 100% against the rest of it (Zermelo's / Hunter's
///   strong-connectivity condition fails). Ratings are then confined to
///   `-ELO_LIMIT..=ELO_LIMIT` (±2000): the result maximises the likelihood
///   over that box, keeping each group's mean at 0.
///
/// # Panics
/// If a result refers to a bot index `>= bots` (with the message of
/// [`RatingsError::BotOutOfRange`]); [`try_fit`] returns that error instead.
pub fn fit(bots: usize, results: &[PairResult], prior_draws: f64) -> Vec<f64> {
    try_fit(bots, results, prior_draws).unwrap_or_else(|e| panic!("{e}"))
}

/// [`fit()`], with bad input as an error instead of a panic.
///
/// # Errors
/// [`RatingsError::BotOutOfRange`] if a result refers to a bot index
/// `>= bots`.
pub fn try_fit(
    bots: usize,
    results: &[PairResult],
    prior_draws: f64,
) -> Result<Vec<f64>, RatingsError> {
    check_results(bots, results)?;
    let table = Table::new(bots, results);
    Ok(table
        .solve(sanitize_prior(prior_draws), None)
        .into_iter()
        .map(to_elo)
        .collect())
}

/// [`fit()`] started from `start` (Elo points, by bot; a missing or
/// non-finite value starts at 0) instead of all zeros: a warm start, from
/// the ratings of fewer games, which takes fewer Newton steps to the same
/// maximum. The result is the same ratings to the fit's tolerance (no
/// rating moves by more than about 1e-10 Elo at the end), not to the last
/// bit: a cold and a warm start stop at different points within it.
///
/// # Panics
/// As [`fit()`]: a result refers to a bot index `>= bots`.
pub fn fit_from(bots: usize, results: &[PairResult], prior_draws: f64, start: &[f64]) -> Vec<f64> {
    check_results(bots, results).unwrap_or_else(|e| panic!("{e}"));
    let table = Table::new(bots, results);
    let theta: Vec<f64> = (0..bots)
        .map(|k| start.get(k).copied().map_or(0.0, from_elo))
        .collect();
    table
        .solve(sanitize_prior(prior_draws), Some(&theta))
        .into_iter()
        .map(to_elo)
        .collect()
}

/// All games between one pair of bots `i < j`, from `i`'s side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Pair {
    pub i: usize,
    pub j: usize,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

impl Pair {
    /// Real games played.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }
}

/// Weighted games of a pair as seen by the likelihood: `n` games (real plus
/// virtual), of which `i` scored `s`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Score {
    pub n: f64,
    pub s: f64,
}

impl Score {
    /// Score of `wins`/`draws`/`losses` plus `prior` virtual draws.
    pub fn new(wins: u64, draws: u64, losses: u64, prior: f64) -> Self {
        let (w, d, l) = (wins as f64, draws as f64, losses as f64);
        Self {
            n: w + d + l + prior,
            s: w + 0.5 * (d + prior),
        }
    }
}

/// The aggregated results table with its connected groups.
#[derive(Debug, Clone)]
pub(crate) struct Table {
    pub bots: usize,
    /// Pairs with at least one real game, sorted by `(i, j)`.
    pub pairs: Vec<Pair>,
    /// Real games per bot.
    pub games: Vec<u64>,
    /// Group index of each bot.
    pub group: Vec<usize>,
    /// Number of groups.
    pub groups: usize,
    /// Members of each group, in increasing bot order.
    pub members: Vec<Vec<usize>>,
    /// Real drawn games and real games in total.
    draws: u64,
    total: u64,
    /// Who played whom, with the pair indices.
    graph: Graph,
    /// The ordering and envelope of the direct solver.
    pattern: Pattern,
    /// The solver used for the Newton steps and the intervals.
    pub method: Method,
}

impl Table {
    /// Adds up `results` (in either orientation) per pair of bots: sorted
    /// by pair and merged in place, one buffer of 40 bytes a result (no map:
    /// input already in pair order, as a league's per-pair totals are,
    /// sorts in one pass).
    pub fn new(bots: usize, results: &[PairResult]) -> Self {
        let mut pairs: Vec<Pair> = results
            .iter()
            .filter_map(|r| {
                assert!(
                    r.a < bots && r.b < bots,
                    "PairResult refers to bot {} or {}, but there are only {bots} bots",
                    r.a,
                    r.b
                );
                if r.a == r.b || r.wins as u64 + r.draws as u64 + r.losses as u64 == 0 {
                    return None;
                }
                let (i, j, w, l) = if r.a < r.b {
                    (r.a, r.b, r.wins, r.losses)
                } else {
                    (r.b, r.a, r.losses, r.wins)
                };
                Some(Pair {
                    i,
                    j,
                    wins: w as u64,
                    draws: r.draws as u64,
                    losses: l as u64,
                })
            })
            .collect();
        pairs.sort_by_key(|p| (p.i, p.j));
        // `later` merges into `kept`, the pair's first entry.
        pairs.dedup_by(|later, kept| {
            let same = (later.i, later.j) == (kept.i, kept.j);
            if same {
                kept.wins += later.wins;
                kept.draws += later.draws;
                kept.losses += later.losses;
            }
            same
        });
        pairs.shrink_to_fit();

        let mut games = vec![0u64; bots];
        let (mut draws, mut total) = (0, 0);
        for p in &pairs {
            games[p.i] += p.games();
            games[p.j] += p.games();
            draws += p.draws;
            total += p.games();
        }
        let graph = Graph::new(bots, pairs.iter().map(|p| (p.i, p.j)));
        let (group, members) = connected_groups(&graph, bots);
        let pattern = Pattern::new(&graph, &members);
        let method = pattern.method(&graph, &members);
        Self {
            bots,
            pairs,
            games,
            group,
            groups: members.len(),
            members,
            draws,
            total,
            graph,
            pattern,
            method,
        }
    }

    /// The same table solved by `method` (for tests that compare them).
    #[cfg(test)]
    pub fn with_method(mut self, method: Method) -> Self {
        self.method = method;
        self
    }

    /// Fraction of real games drawn (0 without games).
    pub fn draw_rate(&self) -> f64 {
        if self.total == 0 {
            0.0
        } else {
            self.draws as f64 / self.total as f64
        }
    }

    /// The pair scores of the real results with `prior` virtual draws.
    pub fn scores(&self, prior: f64) -> Vec<Score> {
        self.pairs
            .iter()
            .map(|p| Score::new(p.wins, p.draws, p.losses, prior))
            .collect()
    }

    /// Maximum-likelihood ratings of the real results, in natural log-odds
    /// units (`ln 10 / 400` per Elo point).
    pub fn solve(&self, prior: f64, start: Option<&[f64]>) -> Vec<f64> {
        let scores = self.scores(prior);
        let start = start.map_or_else(|| vec![0.0; self.bots], <[f64]>::to_vec);
        self.solve_scores(&scores, start)
    }

    /// Maximum-likelihood ratings (natural units) for `scores` (one per
    /// entry of `self.pairs`), starting from `theta`. See [`fit`].
    pub fn solve_scores(&self, scores: &[Score], mut theta: Vec<f64>) -> Vec<f64> {
        debug_assert_eq!(scores.len(), self.pairs.len());
        debug_assert_eq!(theta.len(), self.bots);
        let n = self.bots;
        let limit = if self.mle_exists(scores) {
            f64::INFINITY
        } else {
            from_elo(ELO_LIMIT)
        };
        for t in theta.iter_mut() {
            if !t.is_finite() {
                *t = 0.0;
            }
        }
        self.project(&mut theta, limit);
        let mut current = self.log_likelihood(scores, &theta);
        let mut weights = vec![0.0; self.pairs.len()];
        let mut gradient = vec![0.0; n];
        let mut step = vec![0.0; n];
        let mut candidate = vec![0.0; n];

        for _ in 0..MAX_ITERATIONS {
            self.newton_system(scores, &theta, &mut weights, &mut gradient);
            if !self
                .factor(&weights)
                .solve(&gradient, &mut step, NEWTON_CG_TOLERANCE)
            {
                break;
            }
            let mut t = 1.0;
            let mut accepted = None;
            for _ in 0..64 {
                for k in 0..n {
                    candidate[k] = theta[k] + t * step[k];
                }
                self.project(&mut candidate, limit);
                let value = self.log_likelihood(scores, &candidate);
                // Accept any step that does not lower the likelihood beyond
                // rounding noise (near the optimum every step is a tie).
                if value >= current - 1e-13 * (1.0 + current.abs()) {
                    accepted = Some(value);
                    break;
                }
                t *= 0.5;
            }
            let Some(value) = accepted else { break };
            let mut change: f64 = 0.0;
            let mut largest: f64 = 0.0;
            for k in 0..n {
                change = change.max((candidate[k] - theta[k]).abs());
                largest = largest.max(candidate[k].abs());
            }
            std::mem::swap(&mut theta, &mut candidate);
            current = value;
            if to_elo(change) < TOLERANCE_ELO + 1e-14 * to_elo(largest) {
                break;
            }
        }
        theta
    }

    /// Log-likelihood of `theta` (natural units).
    fn log_likelihood(&self, scores: &[Score], theta: &[f64]) -> f64 {
        self.pairs
            .iter()
            .zip(scores)
            .map(|(p, sc)| {
                let d = theta[p.i] - theta[p.j];
                sc.s * log_sigmoid(d) + (sc.n - sc.s) * log_sigmoid(-d)
            })
            .sum()
    }

    /// Fills `weights` with the negated Hessian's weight of each pair
    /// (`n E (1 - E)`: the Hessian is `Σ_p weights_p b_p b_pᵀ`, a weighted
    /// graph Laplacian) and `gradient` with the gradient of the
    /// log-likelihood at `theta`.
    pub fn newton_system(
        &self,
        scores: &[Score],
        theta: &[f64],
        weights: &mut [f64],
        gradient: &mut [f64],
    ) {
        gradient.fill(0.0);
        for ((p, sc), w) in self.pairs.iter().zip(scores).zip(weights.iter_mut()) {
            let d = theta[p.i] - theta[p.j];
            let e = sigmoid(d);
            let residual = sc.s - sc.n * e;
            *w = sc.n * e * sigmoid(-d);
            gradient[p.i] += residual;
            gradient[p.j] -= residual;
        }
    }

    /// The Laplacian with one weight per pair, ready to solve with by this
    /// table's method.
    pub fn factor(&self, weights: &[f64]) -> Factor<'_> {
        Factor::new(
            self.method,
            &self.graph,
            &self.pattern,
            &self.members,
            weights,
        )
    }

    /// Whether the maximum-likelihood estimate is finite: within every
    /// group, each bot can be reached from every other one by following
    /// "scored something against" links (Zermelo 1929, Hunter 2004).
    fn mle_exists(&self, scores: &[Score]) -> bool {
        self.finite_groups(scores).iter().all(|&finite| finite)
    }

    /// Per group (indexed like [`Table::group`]'s values): whether the
    /// maximum-likelihood estimate of that group is finite for `scores`,
    /// i.e. whether each of its bots can be reached from every other one by
    /// following "scored something against" links (Zermelo 1929, Hunter
    /// 2004). A group of one bot is always finite (its rating is 0).
    pub fn finite_groups(&self, scores: &[Score]) -> Vec<bool> {
        let mut forward = vec![Vec::new(); self.bots];
        let mut backward = vec![Vec::new(); self.bots];
        for (p, sc) in self.pairs.iter().zip(scores) {
            if sc.s > 0.0 {
                forward[p.i].push(p.j);
                backward[p.j].push(p.i);
            }
            if sc.n - sc.s > 0.0 {
                forward[p.j].push(p.i);
                backward[p.i].push(p.j);
            }
        }
        let mut seen = vec![false; self.bots];
        self.members
            .iter()
            .map(|group| {
                group.len() == 1
                    || [&forward, &backward].iter().all(|links| {
                        for &v in group {
                            seen[v] = false;
                        }
                        let mut stack = vec![group[0]];
                        seen[group[0]] = true;
                        let mut reached = 1;
                        while let Some(v) = stack.pop() {
                            for &u in &links[v] {
                                if !seen[u] {
                                    seen[u] = true;
                                    reached += 1;
                                    stack.push(u);
                                }
                            }
                        }
                        reached == group.len()
                    })
            })
            .collect()
    }

    /// The curvature covariance of the ratings at `theta` (natural units²,
    /// row-major `n × n`): the inverse of the observed information, i.e. of
    /// the negated Hessian of the log-likelihood of `scores`, taken within
    /// each group under its mean-0 constraint (the Moore–Penrose inverse of
    /// the group's block, whose only null direction is "all shift
    /// together"). This is the asymptotic covariance of a maximum-likelihood
    /// estimate (the Fisher information's inverse), as BayesElo's
    /// `covariance` command computes it. Entries between groups are 0, and so
    /// is every entry of a group whose Hessian cannot be inverted (an
    /// estimate at the `±ELO_LIMIT` box, where the information is 0).
    ///
    /// For two bots with `N` games (prior included) at expected score `E`,
    /// the information of the difference is `N E (1 - E)`, so each mean-0
    /// rating has variance `1 / (4 N E (1 - E))`.
    pub fn curvature(&self, scores: &[Score], theta: &[f64]) -> Vec<f64> {
        let n = self.bots;
        let mut weights = vec![0.0; self.pairs.len()];
        let mut gradient = vec![0.0; n];
        self.newton_system(scores, theta, &mut weights, &mut gradient);
        let factor = self.factor(&weights);
        // Column c of the Moore–Penrose inverse is the mean-0 solution of
        // L x = e_c - 1/g (the unit vector projected on the mean-0 space).
        let mut inverse = vec![0.0; n * n];
        let mut rhs = vec![0.0; n];
        let mut column = vec![0.0; n];
        for group in &self.members {
            if group.len() < 2 {
                continue;
            }
            let g = group.len() as f64;
            for &c in group {
                rhs.fill(0.0);
                for &v in group {
                    rhs[v] = -1.0 / g;
                }
                rhs[c] += 1.0;
                if !factor.solve(&rhs, &mut column, 1e-13) {
                    column.fill(f64::NAN);
                }
                for &r in group {
                    inverse[r * n + c] = column[r];
                }
            }
        }
        // Project each group's block on the mean-0 subspace, P M P with
        // P = I - 1 1ᵀ / g (the columns are already in it: this only makes
        // the block exactly symmetric and mean 0 in rounding).
        let mut cov = vec![0.0; n * n];
        for group in &self.members {
            if group.len() < 2 {
                continue;
            }
            let g = group.len() as f64;
            let row_mean: Vec<f64> = group
                .iter()
                .map(|&a| group.iter().map(|&b| inverse[a * n + b]).sum::<f64>() / g)
                .collect();
            let total = row_mean.iter().sum::<f64>() / g;
            let mut ok = true;
            for (x, &a) in group.iter().enumerate() {
                for (y, &b) in group.iter().enumerate() {
                    let v = inverse[a * n + b] - row_mean[x] - row_mean[y] + total;
                    ok &= v.is_finite();
                    cov[a * n + b] = v;
                }
            }
            if !ok {
                for &a in group {
                    for &b in group {
                        cov[a * n + b] = 0.0;
                    }
                }
            }
        }
        cov
    }

    /// Euclidean projection onto "mean 0 in every group, |θ| <= limit":
    /// shifts each group by the `λ` for which `Σ clamp(θ - λ)` is 0.
    fn project(&self, theta: &mut [f64], limit: f64) {
        for group in &self.members {
            if group.len() == 1 {
                theta[group[0]] = 0.0;
                continue;
            }
            let mean = group.iter().map(|&v| theta[v]).sum::<f64>() / group.len() as f64;
            if group.iter().all(|&v| (theta[v] - mean).abs() <= limit) {
                for &v in group {
                    theta[v] -= mean;
                }
                continue;
            }
            let lowest = group
                .iter()
                .map(|&v| theta[v])
                .fold(f64::INFINITY, f64::min);
            let highest = group
                .iter()
                .map(|&v| theta[v])
                .fold(f64::NEG_INFINITY, f64::max);
            let (mut lo, mut hi) = (lowest - limit, highest + limit);
            for _ in 0..200 {
                let mid = 0.5 * (lo + hi);
                if mid <= lo || mid >= hi {
                    break;
                }
                let sum: f64 = group
                    .iter()
                    .map(|&v| (theta[v] - mid).clamp(-limit, limit))
                    .sum();
                if sum > 0.0 {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            let shift = 0.5 * (lo + hi);
            for &v in group {
                theta[v] = (theta[v] - shift).clamp(-limit, limit);
            }
        }
    }
}

/// Each bot's connected group (numbered by lowest bot) and the members
/// of each group in increasing bot order.
fn connected_groups(graph: &Graph, bots: usize) -> (Vec<usize>, Vec<Vec<usize>>) {
    let mut group = vec![usize::MAX; bots];
    let mut members = Vec::new();
    for root in 0..bots {
        if group[root] != usize::MAX {
            continue;
        }
        let id = members.len();
        group[root] = id;
        let mut list = vec![root];
        let mut next = 0;
        while next < list.len() {
            let v = list[next];
            next += 1;
            for &(u, _) in graph.links(v) {
                if group[u] == usize::MAX {
                    group[u] = id;
                    list.push(u);
                }
            }
        }
        list.sort_unstable();
        members.push(list);
    }
    (group, members)
}

/// Logistic function `1 / (1 + e^-x)`, without overflow.
pub(crate) fn sigmoid(x: f64) -> f64 {
    if x >= 0.0 {
        1.0 / (1.0 + (-x).exp())
    } else {
        let e = x.exp();
        e / (1.0 + e)
    }
}

/// `ln(sigmoid(x))`, accurate for large `|x|`.
fn log_sigmoid(x: f64) -> f64 {
    if x >= 0.0 {
        -(-x).exp().ln_1p()
    } else {
        x - x.exp().ln_1p()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pr(a: usize, b: usize, wins: u32, draws: u32, losses: u32) -> PairResult {
        PairResult {
            a,
            b,
            wins,
            draws,
            losses,
        }
    }

    /// Proptest's `(a, b, wins, draws, losses)` tuples as results among
    /// `bots` bots (indices taken modulo `bots`).
    fn random_table(bots: usize, raw: &[(usize, usize, u32, u32, u32)]) -> Vec<PairResult> {
        raw.iter()
            .map(|&(a, b, w, d, l)| pr(a % bots, b % bots, w, d, l))
            .collect()
    }

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn two_bots_75_percent_without_prior() {
        // 30 wins, 10 losses: score 0.75, so the difference is 400 log10(3).
        let r = fit(2, &[pr(0, 1, 30, 0, 10)], 0.0);
        let diff = 400.0 * 3f64.log10();
        assert!(close(diff, 190.848_501_887_864_98, 1e-9));
        assert!(close(r[0], diff / 2.0, 1e-9), "{r:?}");
        assert!(close(r[1], -diff / 2.0, 1e-9), "{r:?}");
        // Draws count half: 20 wins + 20 draws is also a 75% score.
        let r = fit(2, &[pr(1, 0, 0, 20, 20)], 0.0);
        assert!(close(r[0] - r[1], diff, 1e-9), "{r:?}");
    }

    #[test]
    fn two_bots_75_percent_with_prior() {
        // One virtual draw: 30.5 points out of 41 games.
        let r = fit(2, &[pr(0, 1, 30, 0, 10)], 1.0);
        let diff = 400.0 * (30.5f64 / 10.5).log10();
        assert!(close(r[0] - r[1], diff, 1e-9), "{r:?}");
        assert!(close(r[0] + r[1], 0.0, 1e-9), "{r:?}");
        assert!(diff < 190.0, "the prior must shrink the difference");
    }

    #[test]
    fn results_are_aggregated_in_either_orientation() {
        let split = fit(2, &[pr(0, 1, 20, 0, 4), pr(1, 0, 6, 0, 10)], 0.0);
        // Bot 0 total: 30 wins, 10 losses.
        let diff = 400.0 * 3f64.log10();
        assert!(close(split[0] - split[1], diff, 1e-9), "{split:?}");
    }

    #[test]
    fn a_warm_start_reaches_the_same_fit_to_its_tolerance() {
        let results = [
            pr(0, 1, 6, 2, 2),
            pr(1, 2, 6, 2, 2),
            pr(0, 2, 8, 1, 1),
            pr(3, 2, 1, 0, 5),
        ];
        let cold = fit(4, &results, 1.0);
        // From the fit of fewer games, from far off, and from a short start.
        for start in [
            fit(4, &results[..2], 1.0),
            vec![900.0, -50.0, 3.0, 0.0],
            vec![10.0],
        ] {
            let warm = fit_from(4, &results, 1.0, &start);
            for (w, c) in warm.iter().zip(&cold) {
                assert!(close(*w, *c, 1e-8), "{warm:?} {cold:?}");
            }
        }
        // The same input in another order: the same pairs, to the bit.
        let mut shuffled = results.to_vec();
        shuffled.reverse();
        shuffled.push(pr(1, 0, 0, 0, 0));
        assert_eq!(fit(4, &shuffled, 1.0), cold);
    }

    #[test]
    fn transitive_results_give_the_expected_order() {
        let results = [pr(0, 1, 6, 2, 2), pr(1, 2, 6, 2, 2), pr(0, 2, 8, 1, 1)];
        let r = fit(3, &results, 1.0);
        assert!(r[0] > r[1] && r[1] > r[2], "{r:?}");
        assert!(close(r.iter().sum::<f64>(), 0.0, 1e-9));
    }

    #[test]
    fn fit_satisfies_the_likelihood_equations() {
        // At the maximum each bot's expected score equals its actual score
        // (real plus prior), whatever the data.
        let results = [
            pr(0, 1, 7, 3, 5),
            pr(1, 2, 2, 0, 9),
            pr(0, 2, 4, 4, 4),
            pr(2, 3, 10, 1, 0),
            pr(3, 0, 3, 3, 6),
        ];
        let prior = 0.7;
        let r = fit(4, &results, prior);
        let mut actual = [0.0; 4];
        let mut expected = [0.0; 4];
        for p in &results {
            let n = (p.wins + p.draws + p.losses) as f64 + prior;
            let s = p.wins as f64 + 0.5 * (p.draws as f64 + prior);
            let e = 1.0 / (1.0 + 10f64.powf((r[p.b] - r[p.a]) / 400.0));
            actual[p.a] += s;
            actual[p.b] += n - s;
            expected[p.a] += n * e;
            expected[p.b] += n * (1.0 - e);
        }
        for k in 0..4 {
            assert!(
                close(actual[k], expected[k], 1e-9),
                "{actual:?} {expected:?}"
            );
        }
    }

    #[test]
    fn perfect_score_stays_finite_with_prior() {
        let r = fit(2, &[pr(0, 1, 50, 0, 0)], 1.0);
        let diff = 400.0 * (50.5f64 / 0.5).log10();
        assert!(close(r[0] - r[1], diff, 1e-9), "{r:?}");
    }

    #[test]
    fn perfect_score_without_prior_is_clamped() {
        let r = fit(2, &[pr(0, 1, 50, 0, 0)], 0.0);
        assert!(
            close(r[0], ELO_LIMIT, 1e-9) && close(r[1], -ELO_LIMIT, 1e-9),
            "{r:?}"
        );
        // A bot beating two equal bots: it sits at the limit, the others
        // share the rest of the zero mean.
        let r = fit(
            3,
            &[pr(0, 1, 10, 0, 0), pr(0, 2, 10, 0, 0), pr(1, 2, 5, 0, 5)],
            0.0,
        );
        assert!(close(r[0], ELO_LIMIT, 1e-6), "{r:?}");
        assert!(close(r[1], -ELO_LIMIT / 2.0, 1e-6), "{r:?}");
        assert!(close(r[2], -ELO_LIMIT / 2.0, 1e-6), "{r:?}");
        assert!(close(r.iter().sum::<f64>(), 0.0, 1e-6));
    }

    #[test]
    fn chain_of_perfect_scores_without_prior_stays_ordered_and_bounded() {
        let r = fit(
            3,
            &[pr(0, 1, 5, 0, 0), pr(1, 2, 5, 0, 0), pr(0, 2, 5, 0, 0)],
            0.0,
        );
        assert!(
            r.iter()
                .all(|x| x.is_finite() && x.abs() <= ELO_LIMIT + 1e-9),
            "{r:?}"
        );
        assert!(r[0] > r[1] && r[1] > r[2], "{r:?}");
        assert!(close(r.iter().sum::<f64>(), 0.0, 1e-6));
    }

    #[test]
    fn no_games_all_draws_and_idle_bots_give_zeros() {
        assert_eq!(fit(3, &[], 1.0), vec![0.0; 3]);
        assert_eq!(fit(0, &[], 1.0), Vec::<f64>::new());
        assert_eq!(fit(2, &[pr(0, 1, 0, 0, 0)], 0.0), vec![0.0; 2]);
        let r = fit(3, &[pr(0, 1, 0, 12, 0)], 0.0);
        assert!(r.iter().all(|x| x.abs() < 1e-9), "{r:?}");
        // Bot 2 idle while 0 beats 1: it stays at exactly 0.
        let r = fit(3, &[pr(0, 1, 8, 0, 2)], 1.0);
        assert_eq!(r[2], 0.0);
        assert!(r[0] > 0.0);
    }

    #[test]
    fn disconnected_groups_are_centred_separately() {
        let r = fit(4, &[pr(0, 1, 30, 0, 10), pr(2, 3, 10, 0, 30)], 0.0);
        let half = 200.0 * 3f64.log10();
        let expected = [half, -half, -half, half];
        for k in 0..4 {
            assert!(close(r[k], expected[k], 1e-9), "{r:?}");
        }
        let table = Table::new(5, &[pr(0, 1, 1, 0, 0), pr(3, 2, 1, 0, 0)]);
        assert_eq!(table.groups, 3);
        assert_eq!(table.group, vec![0, 0, 1, 1, 2]);
        assert_eq!(table.games, vec![1, 1, 1, 1, 0]);
    }

    #[test]
    fn self_play_is_ignored() {
        assert_eq!(fit(2, &[pr(1, 1, 9, 0, 0)], 1.0), vec![0.0, 0.0]);
    }

    #[test]
    #[should_panic(expected = "only 2 bots")]
    fn out_of_range_bot_panics() {
        fit(2, &[pr(0, 2, 1, 0, 0)], 1.0);
    }

    #[test]
    fn extreme_inputs_stay_finite() {
        let big = u32::MAX;
        let r = fit(3, &[pr(0, 1, big, 0, 1), pr(1, 2, big, big, 0)], 1e-300);
        assert!(r.iter().all(|x| x.is_finite()), "{r:?}");
        assert!(r[0] > r[1] && r[1] > r[2], "{r:?}");
        let r = fit(2, &[pr(0, 1, 3, 0, 1)], f64::NAN);
        assert!(close(r[0] - r[1], 400.0 * 3f64.log10(), 1e-9), "{r:?}");
        let r = fit(2, &[pr(0, 1, 3, 0, 1)], f64::INFINITY);
        assert!(r.iter().all(|x| x.is_finite() && x.abs() < 1e-3), "{r:?}");
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]

        /// With a prior the maximum is interior, so the likelihood equations
        /// (expected score = actual score, per bot) must hold at the result.
        #[test]
        fn likelihood_equations_hold_for_random_tables(
            bots in 2usize..7,
            raw in proptest::collection::vec((0usize..7, 0usize..7, 0u32..40, 0u32..40, 0u32..40), 1..15),
            prior in 0.05f64..3.0,
        ) {
            let results = random_table(bots, &raw);
            let r = fit(bots, &results, prior);
            let table = Table::new(bots, &results);
            let mut residual = vec![0.0; bots];
            let mut games = vec![0.0; bots];
            for p in &table.pairs {
                let sc = Score::new(p.wins, p.draws, p.losses, prior);
                let e = 1.0 / (1.0 + 10f64.powf((r[p.j] - r[p.i]) / 400.0));
                residual[p.i] += sc.s - sc.n * e;
                residual[p.j] -= sc.s - sc.n * e;
                games[p.i] += sc.n;
                games[p.j] += sc.n;
            }
            for k in 0..bots {
                proptest::prop_assert!(residual[k].abs() <= 1e-9 * (1.0 + games[k]), "{:?} {:?}", r, residual);
            }
        }
    }

    /// A table of `bots` bots where each plays `games` games against each
    /// of the `width` bots after it in a hidden order (a chain, as rating
    /// lists pair bots), results from a fixed formula, not random.
    fn chain(bots: usize, width: usize) -> Vec<PairResult> {
        let hidden = |k: usize| (k * 7919) % bots;
        let mut results = Vec::new();
        for r in 0..bots {
            for s in r + 1..(r + width + 1).min(bots) {
                let (w, d, l) = (2 + (r % 3) as u32, 1, 2 + (s % 2) as u32);
                results.push(pr(hidden(r), hidden(s), w, d, l));
            }
        }
        results
    }

    #[test]
    fn solver_choice_follows_the_pairing_graph() {
        // Few bots, or a chain: the envelope; many bots all meeting each
        // other: conjugate gradients.
        assert_eq!(Table::new(6, &chain(6, 5)).method, Method::Direct);
        let long = Table::new(2000, &chain(2000, 25));
        assert_eq!(long.method, Method::Direct);
        // 2,000 bots, each with 50 opponents picked by a fixed
        // pseudo-random sequence: the envelope would be dense.
        let mut mixed = Vec::new();
        let mut x: u64 = 1;
        for a in 0..2000 {
            for _ in 0..50 {
                x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                mixed.push(pr(a, (x >> 33) as usize % 2000, 1, 0, 1));
            }
        }
        assert_eq!(Table::new(2000, &mixed).method, Method::Iterative);
    }

    #[test]
    fn direct_and_iterative_fits_agree_on_a_chain() {
        // 300 bots in a chain of width 4 (cold start, a few hundred CG
        // iterations per step): both satisfy the likelihood equations and
        // agree to 1e-6 Elo.
        let results = chain(300, 4);
        let table = Table::new(300, &results);
        let direct = table.clone().with_method(Method::Direct).solve(1.0, None);
        let iterative = table.with_method(Method::Iterative).solve(1.0, None);
        for (a, b) in direct.iter().zip(&iterative) {
            assert!(close(to_elo(*a), to_elo(*b), 1e-6), "{a} {b}");
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(100))]

        /// The envelope Cholesky and conjugate gradients give the same
        /// maximum (to 1e-7 Elo), with or without a prior, on any table.
        #[test]
        fn direct_and_iterative_fits_agree(
            bots in 2usize..12,
            raw in proptest::collection::vec((0usize..12, 0usize..12, 0u32..30, 0u32..30, 0u32..30), 1..40),
            prior in proptest::prop_oneof![proptest::strategy::Just(0.0), 0.05f64..3.0],
        ) {
            let results = random_table(bots, &raw);
            let table = Table::new(bots, &results);
            let direct = table.clone().with_method(Method::Direct).solve(prior, None);
            let iterative = table.with_method(Method::Iterative).solve(prior, None);
            for (a, b) in direct.iter().zip(&iterative) {
                proptest::prop_assert!(close(to_elo(*a), to_elo(*b), 1e-7), "{:?} {:?}", direct, iterative);
            }
        }
    }

    #[test]
    fn log_sigmoid_is_accurate_in_both_tails() {
        assert!(close(log_sigmoid(0.0), -std::f64::consts::LN_2, 1e-15));
        assert!(close(log_sigmoid(-800.0), -800.0, 1e-9));
        assert!(log_sigmoid(800.0) <= 0.0 && log_sigmoid(800.0) > -1e-300);
        assert!(close(sigmoid(-800.0), 0.0, 1e-300) && sigmoid(800.0) == 1.0);
    }
}
