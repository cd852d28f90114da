//! Linear solves with the Bradley–Terry Hessian, a weighted graph
//! Laplacian, without any dense `n × n` matrix past the envelope.
//!
//! The negated Hessian of the log-likelihood is `L = Σ_pairs w_p b_p b_pᵀ`,
//! `b_p = e_i - e_j` (a weighted graph Laplacian: the bots are the nodes,
//! the pairs that played the edges). It is singular along "shift a
//! connected group": every right-hand side here sums to 0 over each group,
//! and the solution returned is the one with mean 0 in each group (the
//! Moore–Penrose solution, the same as the dense solve of `L + 1 1ᵀ` per
//! group that the fit used before).
//!
//! Two methods:
//! * [`Method::Direct`]: Cholesky factorisation in the envelope (profile)
//!   of the matrix after a reverse Cuthill–McKee ordering (Cuthill & McKee
//!   1969, "Reducing the bandwidth of sparse symmetric matrices"; George &
//!   Liu 1981, "Computer Solution of Large Sparse Positive Definite
//!   Systems", chapter 4, for the reversal, the pseudo-peripheral start and
//!   the envelope factorisation, whose fill stays inside the envelope). Each
//!   group is grounded at one bot (its diagonal doubled), which makes the
//!   block definite and gives the solution with that bot's entry 0; the
//!   group's mean is then subtracted. Cost `Σ_i width_i²`: tiny for few bots
//!   and for chain-like pairings (a band), `n³/3` for a dense graph.
//! * [`Method::Iterative`]: conjugate gradients preconditioned by the
//!   diagonal (Jacobi), matrix-free over the pairs (Hestenes & Stiefel
//!   1952; Saad 2003, "Iterative Methods for Sparse Linear Systems",
//!   algorithm 9.1). On a well-mixed pairing graph (random opponents,
//!   round robins) the preconditioned Laplacian's eigenvalues cluster near
//!   1 and a handful of iterations suffice; on a chain they spread, and CG
//!   needs about `n / width` iterations, which is why the envelope is
//!   chosen there.

/// The undirected graph of the pairs that played: for each bot, its
/// neighbours with the index of their pair.
#[derive(Debug, Clone)]
pub(crate) struct Graph {
    /// `start[v]..start[v + 1]` indexes `links` for bot `v`.
    start: Vec<usize>,
    /// `(neighbour, pair index)`, sorted by neighbour for each bot.
    links: Vec<(usize, usize)>,
}

impl Graph {
    /// The graph of `pairs` (`(i, j)` with `i != j`) among `bots` bots.
    pub fn new(bots: usize, pairs: impl Iterator<Item = (usize, usize)> + Clone) -> Self {
        let mut start = vec![0usize; bots + 1];
        for (i, j) in pairs.clone() {
            start[i + 1] += 1;
            start[j + 1] += 1;
        }
        for v in 0..bots {
            start[v + 1] += start[v];
        }
        let mut next = start.clone();
        let mut links = vec![(0, 0); start[bots]];
        for (p, (i, j)) in pairs.enumerate() {
            links[next[i]] = (j, p);
            next[i] += 1;
            links[next[j]] = (i, p);
            next[j] += 1;
        }
        for v in 0..bots {
            links[start[v]..start[v + 1]].sort_unstable();
        }
        Self { start, links }
    }

    /// The neighbours of `v` with their pair indices.
    pub fn links(&self, v: usize) -> &[(usize, usize)] {
        &self.links[self.start[v]..self.start[v + 1]]
    }

    fn degree(&self, v: usize) -> usize {
        self.start[v + 1] - self.start[v]
    }

    fn bots(&self) -> usize {
        self.start.len() - 1
    }
}

/// Which solver a table uses; see the module's documentation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Method {
    /// Envelope Cholesky after reverse Cuthill–McKee.
    Direct,
    /// Jacobi-preconditioned conjugate gradients.
    Iterative,
}

/// Groups of at most this many bots are always solved directly: the
/// envelope is then at most a small dense matrix, solved exactly.
const ALWAYS_DIRECT_BOTS: usize = 64;

/// The envelope is chosen while its factorisation costs at most this many
/// times the work of one pass over the pairs and bots (a conjugate-gradient
/// iteration): on a band of width 25 (2,000 bots) the envelope costs about
/// 100 passes and CG needs several hundred iterations; on 1,000 bots with
/// random opponents the envelope is dense (1,700 passes) and CG needs about
/// ten iterations.
const DIRECT_PASSES: usize = 400;

/// The symbolic part of the direct solver: the ordering and the envelope.
#[derive(Debug, Clone)]
pub(crate) struct Pattern {
    /// `order[new] = old` bot index.
    order: Vec<usize>,
    /// `position[old] = new`.
    position: Vec<usize>,
    /// Per new row, the column of its first entry in the envelope.
    first: Vec<usize>,
    /// Per new row, the offset of its first entry in the factor's storage
    /// (`offset[n]` is the total).
    offset: Vec<usize>,
    /// Per bot (old index): whether it grounds its group (one per group
    /// of two or more bots).
    roots: Vec<bool>,
}

impl Pattern {
    /// The reverse Cuthill–McKee ordering of `graph` and its envelope;
    /// `members` are the connected groups.
    pub fn new(graph: &Graph, members: &[Vec<usize>]) -> Self {
        let n = graph.bots();
        let mut order = Vec::with_capacity(n);
        let mut roots = vec![false; n];
        let mut seen = vec![false; n];
        for group in members {
            let start = peripheral(graph, group[0], &mut seen);
            let at = order.len();
            cuthill_mckee(graph, start, &mut seen, &mut order);
            order[at..].reverse();
            if group.len() > 1 {
                roots[order[order.len() - 1]] = true;
            }
        }
        let mut position = vec![0; n];
        for (new, &old) in order.iter().enumerate() {
            position[old] = new;
        }
        let first: Vec<usize> = order
            .iter()
            .enumerate()
            .map(|(new, &old)| {
                graph
                    .links(old)
                    .iter()
                    .map(|&(u, _)| position[u])
                    .fold(new, usize::min)
            })
            .collect();
        let mut offset = vec![0; n + 1];
        for r in 0..n {
            offset[r + 1] = offset[r] + (r - first[r] + 1);
        }
        Self {
            order,
            position,
            first,
            offset,
            roots,
        }
    }

    /// The work of the envelope factorisation, about `Σ width²`.
    fn cost(&self) -> usize {
        (0..self.first.len())
            .map(|r| {
                let w = r - self.first[r] + 1;
                w.saturating_mul(w)
            })
            .fold(0usize, usize::saturating_add)
    }

    /// The method for this pattern: direct for small groups and narrow
    /// envelopes, iterative otherwise.
    pub fn method(&self, graph: &Graph, members: &[Vec<usize>]) -> Method {
        let largest = members.iter().map(Vec::len).max().unwrap_or(0);
        let pass = graph.links.len() + graph.bots();
        if largest <= ALWAYS_DIRECT_BOTS || self.cost() <= DIRECT_PASSES.saturating_mul(pass) {
            Method::Direct
        } else {
            Method::Iterative
        }
    }
}

/// A pseudo-peripheral bot of `root`'s group (George & Liu 1979, "An
/// implementation of a pseudoperipheral node finder"): repeatedly the
/// lowest-degree bot of the last breadth-first level, while the number of
/// levels grows. Leaves `seen` as it found it.
fn peripheral(graph: &Graph, root: usize, seen: &mut [bool]) -> usize {
    let mut start = root;
    let mut depth = 0;
    for _ in 0..8 {
        let mut list = vec![start];
        seen[start] = true;
        let (mut level_start, mut levels) = (0, 0);
        while level_start < list.len() {
            let level_end = list.len();
            for k in level_start..level_end {
                for &(u, _) in graph.links(list[k]) {
                    if !seen[u] {
                        seen[u] = true;
                        list.push(u);
                    }
                }
            }
            levels += 1;
            if list.len() == level_end {
                break;
            }
            level_start = level_end;
        }
        for &v in &list {
            seen[v] = false;
        }
        let last = list[level_start..]
            .iter()
            .copied()
            .min_by_key(|&v| (graph.degree(v), v))
            .unwrap_or(start);
        if levels <= depth {
            break;
        }
        depth = levels;
        start = last;
    }
    start
}

/// Appends `start`'s group to `order` in Cuthill–McKee order: breadth
/// first, each bot's unseen neighbours by increasing degree.
fn cuthill_mckee(graph: &Graph, start: usize, seen: &mut [bool], order: &mut Vec<usize>) {
    let mut next = order.len();
    order.push(start);
    seen[start] = true;
    let mut fresh = Vec::new();
    while next < order.len() {
        let v = order[next];
        next += 1;
        fresh.clear();
        fresh.extend(graph.links(v).iter().map(|&(u, _)| u).filter(|&u| !seen[u]));
        fresh.sort_unstable_by_key(|&u| (graph.degree(u), u));
        fresh.dedup();
        for &u in &fresh {
            seen[u] = true;
            order.push(u);
        }
    }
}

/// The Hessian at one point, ready to solve with: factorised (direct) or
/// with its preconditioner (iterative).
#[derive(Debug, Clone)]
pub(crate) struct Factor<'a> {
    /// The connected groups, each centred after a solve.
    members: &'a [Vec<usize>],
    kind: Kind<'a>,
}

#[derive(Debug, Clone)]
enum Kind<'a> {
    /// The envelope Cholesky factor, rows in the pattern's order.
    Direct {
        pattern: &'a Pattern,
        factor: Vec<f64>,
    },
    /// The pair weights and the Jacobi preconditioner.
    Iterative(Iterative<'a>),
}

/// What conjugate gradients need of `L`: the graph, its pair weights and
/// the Jacobi preconditioner.
#[derive(Debug, Clone)]
struct Iterative<'a> {
    graph: &'a Graph,
    weights: Vec<f64>,
    diagonal: Vec<f64>,
}

impl Iterative<'_> {
    /// `L` with the gauge term over the connected groups `members`.
    fn operator<'s>(&'s self, members: &'s [Vec<usize>]) -> Gauged<'s> {
        Gauged {
            graph: self.graph,
            weights: &self.weights,
            members,
            diagonal: &self.diagonal,
        }
    }
}

impl<'a> Factor<'a> {
    /// Factorises `Σ weights_p b_p b_pᵀ` (one weight per pair of `graph`)
    /// by `method`; `members` are the connected groups.
    pub fn new(
        method: Method,
        graph: &'a Graph,
        pattern: &'a Pattern,
        members: &'a [Vec<usize>],
        weights: &[f64],
    ) -> Self {
        let n = graph.bots();
        let mut diagonal = vec![0.0; n];
        for (v, d) in diagonal.iter_mut().enumerate() {
            *d = graph.links(v).iter().map(|&(_, p)| weights[p]).sum();
        }
        let kind = match method {
            Method::Direct => Kind::Direct {
                pattern,
                factor: envelope_cholesky(graph, pattern, weights, &diagonal),
            },
            Method::Iterative => Kind::Iterative(Iterative {
                graph,
                weights: weights.to_vec(),
                diagonal: diagonal
                    .iter()
                    .map(|&d| if d > 0.0 { d } else { 1.0 })
                    .collect(),
            }),
        };
        Self { members, kind }
    }

    /// Solves `L x = rhs` into `x` (length `n`), mean 0 per group. `rhs`
    /// must sum to 0 over each group. `tolerance` is the relative residual
    /// at which conjugate gradients stop (the direct solve is exact).
    /// Returns false if the result is not finite.
    pub fn solve(&self, rhs: &[f64], x: &mut [f64], tolerance: f64) -> bool {
        match &self.kind {
            Kind::Direct { pattern, factor } => envelope_solve(pattern, factor, rhs, x),
            Kind::Iterative(parts) => {
                conjugate_gradient(&parts.operator(self.members), rhs, x, tolerance)
            }
        }
        for group in self.members {
            let mean = group.iter().map(|&v| x[v]).sum::<f64>() / group.len() as f64;
            for &v in group {
                x[v] -= mean;
            }
        }
        x.iter().all(|v| v.is_finite())
    }
}

/// Right-hand sides solved together by [`Factor::solve_block`]: one pass
/// over the factor or the pairs serves all of them, and the arithmetic on a
/// bot's `BLOCK` values vectorises.
pub(crate) const BLOCK: usize = 8;

/// One bot's values in each of the [`BLOCK`] right-hand sides.
pub(crate) type Lanes = [f64; BLOCK];

impl Factor<'_> {
    /// Solves `L x_s = rhs_s` for the [`BLOCK`] right-hand sides `s` at
    /// once, as [`Factor::solve`] does one (`rhs[v][s]` is bot `v`'s entry
    /// of the `s`-th; each sums to 0 over each group), into `x`, mean 0 per
    /// group. Conjugate gradients run on all the sides together, each with
    /// its own step lengths, and stop each side at `tolerance` (relative
    /// residual). Returns, per side, whether its solution is finite.
    pub fn solve_block(&self, rhs: &[Lanes], x: &mut [Lanes], tolerance: f64) -> [bool; BLOCK] {
        match &self.kind {
            Kind::Direct { pattern, factor } => envelope_solve_block(pattern, factor, rhs, x),
            Kind::Iterative(parts) => {
                conjugate_gradient_block(&parts.operator(self.members), rhs, x, tolerance)
            }
        }
        for group in self.members {
            let mut mean = [0.0; BLOCK];
            for &v in group {
                add_scaled(&mut mean, &x[v], 1.0);
            }
            let count = group.len() as f64;
            for &v in group {
                add_scaled(&mut x[v], &mean, -1.0 / count);
            }
        }
        let mut finite = [true; BLOCK];
        for row in x.iter() {
            for (f, v) in finite.iter_mut().zip(row) {
                *f &= v.is_finite();
            }
        }
        finite
    }
}

/// `to += scale * from`, lane by lane.
fn add_scaled(to: &mut Lanes, from: &Lanes, scale: f64) {
    for (t, f) in to.iter_mut().zip(from) {
        *t += scale * f;
    }
}

/// [`envelope_solve`] on [`BLOCK`] right-hand sides at once.
fn envelope_solve_block(pattern: &Pattern, l: &[f64], rhs: &[Lanes], x: &mut [Lanes]) {
    let n = pattern.order.len();
    let mut y: Vec<Lanes> = pattern.order.iter().map(|&old| rhs[old]).collect();
    for r in 0..n {
        let (fr, row) = (pattern.first[r], pattern.offset[r]);
        let (done, rest) = y.split_at_mut(r);
        let mut dot = [0.0; BLOCK];
        for (a, yk) in l[row..row + r - fr].iter().zip(&done[fr..r]) {
            add_scaled(&mut dot, yk, *a);
        }
        let pivot = l[row + r - fr];
        for (v, d) in rest[0].iter_mut().zip(&dot) {
            *v = (*v - d) / pivot;
        }
    }
    for r in (0..n).rev() {
        let (fr, row) = (pattern.first[r], pattern.offset[r]);
        let pivot = l[row + r - fr];
        let (before, rest) = y.split_at_mut(r);
        for v in rest[0].iter_mut() {
            *v /= pivot;
        }
        let value = rest[0];
        for (yk, a) in before[fr..r].iter_mut().zip(&l[row..row + r - fr]) {
            add_scaled(yk, &value, -a);
        }
    }
    for (r, &old) in pattern.order.iter().enumerate() {
        x[old] = y[r];
    }
}

/// Per lane, `Σ_k a[k][s] b[k][s]`.
fn dot_lanes(a: &[Lanes], b: &[Lanes]) -> Lanes {
    let mut out = [0.0; BLOCK];
    for (u, v) in a.iter().zip(b) {
        for s in 0..BLOCK {
            out[s] += u[s] * v[s];
        }
    }
    out
}

/// [`conjugate_gradient`] on [`BLOCK`] right-hand sides at once: the same
/// iteration in each lane, with its own step lengths, a lane stopping
/// (its direction set to 0) when its residual is below `tolerance` times
/// its right-hand side's norm or its iteration breaks down.
fn conjugate_gradient_block(operator: &Gauged<'_>, rhs: &[Lanes], x: &mut [Lanes], tolerance: f64) {
    let n = rhs.len();
    let diagonal = operator.preconditioner();
    x.fill([0.0; BLOCK]);
    let target = dot_lanes(rhs, rhs).map(|v| tolerance * v.sqrt());
    let mut r = rhs.to_vec();
    let mut z: Vec<Lanes> = r
        .iter()
        .zip(&diagonal)
        .map(|(a, d)| a.map(|v| v / d))
        .collect();
    let mut p = z.clone();
    let mut q = vec![[0.0; BLOCK]; n];
    let mut rz = dot_lanes(&r, &z);
    let mut stopped = [false; BLOCK];
    for _ in 0..4 * n + 100 {
        let rr = dot_lanes(&r, &r);
        for s in 0..BLOCK {
            stopped[s] |= rr[s].sqrt() <= target[s] || rz[s] <= 0.0;
        }
        if stopped.iter().all(|&s| s) {
            break;
        }
        operator.apply_block(&p, &mut q);
        let pq = dot_lanes(&p, &q);
        let mut alpha = [0.0; BLOCK];
        for s in 0..BLOCK {
            stopped[s] |= pq[s].is_nan() || pq[s] <= 0.0;
            alpha[s] = if stopped[s] { 0.0 } else { rz[s] / pq[s] };
        }
        for k in 0..n {
            for s in 0..BLOCK {
                x[k][s] += alpha[s] * p[k][s];
                r[k][s] -= alpha[s] * q[k][s];
                z[k][s] = r[k][s] / diagonal[k];
            }
        }
        let next = dot_lanes(&r, &z);
        let mut beta = [0.0; BLOCK];
        let mut keep = [0.0; BLOCK];
        for s in 0..BLOCK {
            if !stopped[s] {
                beta[s] = next[s] / rz[s];
                rz[s] = next[s];
                keep[s] = 1.0;
            }
        }
        for k in 0..n {
            for s in 0..BLOCK {
                p[k][s] = keep[s] * (z[k][s] + beta[s] * p[k][s]);
            }
        }
    }
}

/// The envelope Cholesky factor of the Laplacian with `weights`, each
/// group grounded at its root (the root's diagonal doubled; a bot without
/// games gets 1). A pivot that vanishes in rounding (a pair whose weight
/// underflowed cut the group) is grounded the same way.
fn envelope_cholesky(
    graph: &Graph,
    pattern: &Pattern,
    weights: &[f64],
    diagonal: &[f64],
) -> Vec<f64> {
    let n = pattern.order.len();
    let mut l = vec![0.0; pattern.offset[n]];
    // Scatter the matrix into the envelope, rows in the new order.
    for r in 0..n {
        let old = pattern.order[r];
        let row = pattern.offset[r];
        for &(u, p) in graph.links(old) {
            let c = pattern.position[u];
            if c < r {
                l[row + c - pattern.first[r]] -= weights[p];
            }
        }
        let ground = if pattern.roots[old] { 2.0 } else { 1.0 };
        l[row + r - pattern.first[r]] = diagonal[old] * ground;
    }
    for r in 0..n {
        let (fr, row) = (pattern.first[r], pattern.offset[r]);
        for c in fr..r {
            let (fc, col) = (pattern.first[c], pattern.offset[c]);
            let k0 = fr.max(fc);
            let dot: f64 = l[row + k0 - fr..row + c - fr]
                .iter()
                .zip(&l[col + k0 - fc..col + c - fc])
                .map(|(a, b)| a * b)
                .sum();
            let pivot = l[col + c - fc];
            l[row + c - fr] = (l[row + c - fr] - dot) / pivot;
        }
        let original = l[row + r - fr];
        let squares: f64 = l[row..row + r - fr].iter().map(|a| a * a).sum();
        let d = original - squares;
        let scale = diagonal[pattern.order[r]];
        l[row + r - fr] = if d > 1e-12 * scale && d.is_finite() {
            d.sqrt()
        } else {
            // Grounded here (a bot without games, or a group cut by an
            // underflowed weight): its unknown is pinned by its own weight.
            scale.max(1.0).sqrt()
        };
    }
    l
}

/// Forward and back substitution with the envelope factor.
fn envelope_solve(pattern: &Pattern, l: &[f64], rhs: &[f64], x: &mut [f64]) {
    let n = pattern.order.len();
    let mut y: Vec<f64> = pattern.order.iter().map(|&old| rhs[old]).collect();
    for r in 0..n {
        let (fr, row) = (pattern.first[r], pattern.offset[r]);
        let dot: f64 = l[row..row + r - fr]
            .iter()
            .zip(&y[fr..r])
            .map(|(a, b)| a * b)
            .sum();
        y[r] = (y[r] - dot) / l[row + r - fr];
    }
    for r in (0..n).rev() {
        let (fr, row) = (pattern.first[r], pattern.offset[r]);
        y[r] /= l[row + r - fr];
        let v = y[r];
        for (k, a) in (fr..r).zip(&l[row..row + r - fr]) {
            y[k] -= a * v;
        }
    }
    for (r, &old) in pattern.order.iter().enumerate() {
        x[old] = y[r];
    }
}

/// The Laplacian made definite: `L + Σ_g s_g 1_g 1_gᵀ / |g|` over the
/// connected groups `g`, with `s_g` the mean diagonal of `L` in the group,
/// so the direction "shift the group", where `L` is flat, gets an
/// eigenvalue on the scale of the others. A right-hand side with mean 0 per
/// group has the same solution as with `L` alone, mean 0; without the term,
/// rounding in that flat direction can make conjugate gradients diverge.
struct Gauged<'a> {
    graph: &'a Graph,
    weights: &'a [f64],
    members: &'a [Vec<usize>],
    /// `L`'s diagonal (1 for a bot without games).
    diagonal: &'a [f64],
}

impl Gauged<'_> {
    /// `out = A v`.
    fn apply(&self, v: &[f64], out: &mut [f64]) {
        for (a, o) in out.iter_mut().enumerate() {
            *o = self
                .graph
                .links(a)
                .iter()
                .map(|&(b, p)| self.weights[p] * (v[a] - v[b]))
                .sum();
        }
        for group in self.members {
            let g = group.len() as f64;
            let (mut sum, mut scale) = (0.0, 0.0);
            for &k in group {
                sum += v[k];
                scale += self.diagonal[k];
            }
            let shift = scale / g * sum / g;
            for &k in group {
                out[k] += shift;
            }
        }
    }

    /// `out[k][s] = (A v_s)[k]` for the [`BLOCK`] vectors `v_s`.
    fn apply_block(&self, v: &[Lanes], out: &mut [Lanes]) {
        for (a, o) in out.iter_mut().enumerate() {
            let mut sum = [0.0; BLOCK];
            let va = v[a];
            for &(b, p) in self.graph.links(a) {
                let w = self.weights[p];
                let vb = &v[b];
                for s in 0..BLOCK {
                    sum[s] += w * (va[s] - vb[s]);
                }
            }
            *o = sum;
        }
        for group in self.members {
            let g = group.len() as f64;
            let mut sum = [0.0; BLOCK];
            let mut scale = 0.0;
            for &k in group {
                add_scaled(&mut sum, &v[k], 1.0);
                scale += self.diagonal[k];
            }
            for &k in group {
                add_scaled(&mut out[k], &sum, scale / g / g);
            }
        }
    }

    /// The diagonal of `A`, the Jacobi preconditioner.
    fn preconditioner(&self) -> Vec<f64> {
        let mut d = self.diagonal.to_vec();
        for group in self.members {
            let g = group.len() as f64;
            let scale: f64 = group.iter().map(|&k| self.diagonal[k]).sum();
            for &k in group {
                d[k] += scale / (g * g);
            }
        }
        d
    }
}

/// Jacobi-preconditioned conjugate gradients from `x = 0` on the definite
/// operator, until the residual is below `tolerance` times the right-hand
/// side's norm (or `4 n + 100` iterations).
fn conjugate_gradient(operator: &Gauged<'_>, rhs: &[f64], x: &mut [f64], tolerance: f64) {
    let n = rhs.len();
    let diagonal = operator.preconditioner();
    x.fill(0.0);
    let norm = |v: &[f64]| v.iter().map(|a| a * a).sum::<f64>().sqrt();
    let target = tolerance * norm(rhs);
    let mut r = rhs.to_vec();
    let mut z: Vec<f64> = r.iter().zip(&diagonal).map(|(a, d)| a / d).collect();
    let mut p = z.clone();
    let mut q = vec![0.0; n];
    let mut rz: f64 = r.iter().zip(&z).map(|(a, b)| a * b).sum();
    for _ in 0..4 * n + 100 {
        if norm(&r) <= target || rz <= 0.0 {
            break;
        }
        operator.apply(&p, &mut q);
        let pq: f64 = p.iter().zip(&q).map(|(a, b)| a * b).sum();
        if pq.is_nan() || pq <= 0.0 {
            break;
        }
        let alpha = rz / pq;
        for k in 0..n {
            x[k] += alpha * p[k];
            r[k] -= alpha * q[k];
            z[k] = r[k] / diagonal[k];
        }
        let next: f64 = r.iter().zip(&z).map(|(a, b)| a * b).sum();
        let beta = next / rz;
        rz = next;
        for k in 0..n {
            p[k] = z[k] + beta * p[k];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A path of `n` bots in a shuffled order: `hidden(k)` is the bot at
    /// position `k` of the path.
    fn shuffled_path(n: usize) -> (Graph, Vec<Vec<usize>>) {
        let hidden = |k: usize| (k * 37) % n;
        let graph = Graph::new(n, (0..n - 1).map(move |k| (hidden(k), hidden(k + 1))));
        (graph, vec![(0..n).collect()])
    }

    #[test]
    fn reverse_cuthill_mckee_finds_the_path() {
        // 101 bots (37 is prime to 101): whatever the labels, the ordering
        // follows the path, so every row's envelope is two entries.
        let (graph, members) = shuffled_path(101);
        let pattern = Pattern::new(&graph, &members);
        assert!(
            (1..101).all(|r| r - pattern.first[r] <= 1),
            "{:?}",
            pattern.first
        );
        assert_eq!(pattern.cost(), 1 + 4 * 100);
    }

    #[test]
    fn both_methods_solve_the_laplacian() {
        // A path with weights 1..: L x = b for b = e_0 - e_last has the
        // solution x_k = (sum of 1/w over the edges after position k),
        // centred (the potentials of a series of resistors).
        let n = 101;
        let hidden = |k: usize| (k * 37) % n;
        let (graph, members) = shuffled_path(n);
        // Pair p joins path positions p and p + 1; its weight is p + 1.
        let weights: Vec<f64> = (0..n - 1).map(|p| (p + 1) as f64).collect();
        let pattern = Pattern::new(&graph, &members);
        let mut rhs = vec![0.0; n];
        rhs[hidden(0)] = 1.0;
        rhs[hidden(n - 1)] = -1.0;
        let mut expected: Vec<f64> = (0..n)
            .map(|k| (k..n - 1).map(|p| 1.0 / (p + 1) as f64).sum())
            .collect();
        let mean = expected.iter().sum::<f64>() / n as f64;
        expected.iter_mut().for_each(|x| *x -= mean);
        for method in [Method::Direct, Method::Iterative] {
            let factor = Factor::new(method, &graph, &pattern, &members, &weights);
            let mut x = vec![0.0; n];
            assert!(factor.solve(&rhs, &mut x, 1e-14));
            for k in 0..n {
                assert!((x[hidden(k)] - expected[k]).abs() < 1e-9, "{method:?} {k}");
            }
        }
    }
}
