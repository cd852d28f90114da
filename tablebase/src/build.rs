//! The builder: layer by layer of seeds on the board, each by retrograde
//! analysis over thresholds (see the crate's documentation).

use std::fmt;

use endodoi::{Position, Rules, Side, DEFAULT_MAX_LAPS, MAX_HOLES, MIN_HOLES};

use crate::value::MAX_SEEDS_ON_BOARD;
use crate::{Index, Value};

/// The most positions one layer may have: ranks are `u32`.
pub const MAX_LAYER_POSITIONS: u64 = u32::MAX as u64 - 1;

/// An edge whose move ends the game: the opponent has no legal move after it.
const ENDS: u32 = u32::MAX;

/// A depth not (yet) reached in an attractor.
const UNREACHED: u32 = u32::MAX;

/// Why tables could not be built: returned by [`build`], [`Tables::new`] and
/// [`Tables::build_next`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BuildError {
    /// Holes per row outside 2..=50 (the rules engine's range); holds the number asked for.
    Holes(usize),
    /// A lap limit of 0.
    MaxLaps,
    /// More seeds on the board than [`MAX_SEEDS_ON_BOARD`] (126); holds the number asked for.
    Seeds(u32),
    /// A layer of more than [`MAX_LAYER_POSITIONS`] positions; holds the seeds on the board.
    TooBig(u32),
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildError::Holes(h) => {
                write!(f, "{h} holes per row: use {MIN_HOLES} to {MAX_HOLES}")
            }
            BuildError::MaxLaps => f.write_str("max_laps must be 1 or more"),
            BuildError::Seeds(k) => write!(
                f,
                "{k} seeds on the board: the tables take at most {MAX_SEEDS_ON_BOARD}"
            ),
            BuildError::TooBig(k) => write!(
                f,
                "the layer of {k} seeds has more than {MAX_LAYER_POSITIONS} positions"
            ),
        }
    }
}

impl std::error::Error for BuildError {}

/// The positions with one number of seeds on the board, and their values
/// (indexed by the rank of the board seen from the mover: its row, hole 1
/// to H, then the opponent's row, hole 1 to H).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layer {
    index: Index,
    values: Vec<Value>,
}

impl Layer {
    /// Seeds on the board in this layer.
    #[must_use]
    pub fn seeds(&self) -> u32 {
        self.index.seeds()
    }

    /// The index of the layer's boards.
    #[must_use]
    pub fn index(&self) -> &Index {
        &self.index
    }

    /// The values, by rank.
    #[must_use]
    pub fn values(&self) -> &[Value] {
        &self.values
    }

    /// The layer of `seeds` seeds on `holes` ring holes with these values, as
    /// read back from a file; `None` when their number is not the index's count.
    #[must_use]
    pub fn from_values(holes: usize, seeds: u32, values: Vec<Value>) -> Option<Layer> {
        let index = Index::new(holes, seeds);
        (index.count() == values.len() as u64).then_some(Layer { index, values })
    }

    /// The layer's counts (see [`LayerStats`]).
    #[must_use]
    pub fn stats(&self) -> LayerStats {
        let mut stats = LayerStats {
            seeds: self.seeds(),
            positions: self.values.len() as u64,
            ..LayerStats::default()
        };
        for v in &self.values {
            match v.exact() {
                Some(m) => {
                    stats.resolved += 1;
                    match m.signum() {
                        1 => stats.won += 1,
                        0 => stats.drawn += 1,
                        _ => stats.lost += 1,
                    }
                    stats.longest = stats.longest.max(u32::from(v.plies()));
                }
                None => stats.unresolved += 1,
            }
        }
        stats
    }
}

/// The counts of one layer, for the manifest and the docs. `resolved = won +
/// drawn + lost` (for the side to move) and `positions = resolved + unresolved`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LayerStats {
    /// Seeds on the board.
    pub seeds: u32,
    /// Positions (boards with the side to move), `C(seeds + 2H - 1, 2H - 1)`.
    pub positions: u64,
    /// Positions with an exact forced value.
    pub resolved: u64,
    /// Resolved with a positive margin for the mover.
    pub won: u64,
    /// Resolved with margin 0.
    pub drawn: u64,
    /// Resolved with a negative margin.
    pub lost: u64,
    /// Positions whose best play needs the ply limit.
    pub unresolved: u64,
    /// The longest forced ending among the resolved positions, in plies.
    pub longest: u32,
}

/// The tables of a 2xH board for one lap limit, from 0 seeds on the board up
/// to the layers built so far.
#[derive(Clone, Debug)]
pub struct Tables {
    rules: Rules,
    layers: Vec<Layer>,
}

/// Builds the tables of a 2x`holes` board with up to `max_seeds_on_board`
/// seeds on the board, under the default lap limit ([`DEFAULT_MAX_LAPS`]).
///
/// # Errors
/// As [`Tables::new`] and [`Tables::build_next`].
///
/// ```
/// let tables = endodoi_tablebase::build(3, 4)?;
/// assert_eq!(tables.layers().len(), 5);
/// assert_eq!(tables.layers()[4].stats().positions, 126); // C(9, 5)
/// # Ok::<(), endodoi_tablebase::BuildError>(())
/// ```
pub fn build(holes: usize, max_seeds_on_board: u32) -> Result<Tables, BuildError> {
    let mut tables = Tables::new(holes, DEFAULT_MAX_LAPS)?;
    if max_seeds_on_board > MAX_SEEDS_ON_BOARD {
        return Err(BuildError::Seeds(max_seeds_on_board));
    }
    while tables.layers.len() <= max_seeds_on_board as usize {
        tables.build_next()?;
    }
    Ok(tables)
}

impl Tables {
    /// Empty tables (no layer built yet) of a 2x`holes` board under the lap
    /// limit `max_laps` (RULES.md, "Endless sowing": an endless move is not legal).
    ///
    /// # Errors
    /// [`BuildError::Holes`] outside 2..=50, [`BuildError::MaxLaps`] for 0.
    pub fn new(holes: usize, max_laps: u32) -> Result<Tables, BuildError> {
        let rules = Rules::new(holes, 1)
            .map_err(|_| BuildError::Holes(holes))?
            .with_max_laps(max_laps)
            .map_err(|_| BuildError::MaxLaps)?
            .with_max_plies(u32::MAX)
            .expect("u32::MAX plies is a valid limit");
        Ok(Tables {
            rules,
            layers: Vec::new(),
        })
    }

    /// Holes per row.
    #[must_use]
    pub fn holes(&self) -> usize {
        self.rules.holes()
    }

    /// The lap limit the tables are for.
    #[must_use]
    pub fn max_laps(&self) -> u32 {
        self.rules.max_laps()
    }

    /// The layers built, layer `k` holding the positions with `k` seeds on the board.
    #[must_use]
    pub fn layers(&self) -> &[Layer] {
        &self.layers
    }

    /// The value of `board` (the mover's row, holes 1 to H, then the
    /// opponent's, holes 1 to H, each from its owner's left), or `None` when
    /// its layer is not built or the board is not of this size.
    #[must_use]
    pub fn value(&self, board: &[u32]) -> Option<Value> {
        if board.len() != 2 * self.holes() {
            return None;
        }
        let layer = self.layers.get(board.iter().sum::<u32>() as usize)?;
        Some(layer.values[layer.index.rank(board) as usize])
    }

    /// The value of `pos` for its side to move, or `None` when the game is
    /// over, the board has another size or lap limit, or its layer is not
    /// built. The value is the margin from here: add the seeds captured so
    /// far for the final totals.
    #[must_use]
    pub fn probe(&self, pos: &Position) -> Option<Value> {
        if pos.is_over() || pos.holes() != self.holes() || pos.rules().max_laps() != self.max_laps()
        {
            return None;
        }
        let mut board = [0u32; 2 * MAX_HOLES];
        let board = mover_view(pos, &mut board);
        self.value(board)
    }

    /// Tables of a 2x`holes` board under `max_laps` from layers read back
    /// (layer `k` holding `k` seeds on the board, from 0 up, as
    /// [`crate::decode_layer`] returns them); `None` when a layer is out of
    /// place or of another board, or the board or lap limit is invalid.
    #[must_use]
    pub fn from_layers(holes: usize, max_laps: u32, layers: Vec<Layer>) -> Option<Tables> {
        let mut tables = Tables::new(holes, max_laps).ok()?;
        let in_place = layers
            .iter()
            .enumerate()
            .all(|(k, l)| l.seeds() as usize == k && l.index.holes() == 2 * holes);
        tables.layers = layers;
        in_place.then_some(tables)
    }

    /// Builds the next layer (0 seeds on the board first) and returns it.
    ///
    /// # Errors
    /// [`BuildError::Seeds`] beyond 126 seeds, [`BuildError::TooBig`] for a
    /// layer of more than [`MAX_LAYER_POSITIONS`] positions.
    pub fn build_next(&mut self) -> Result<&Layer, BuildError> {
        let k = self.layers.len() as u32;
        if k > MAX_SEEDS_ON_BOARD {
            return Err(BuildError::Seeds(k));
        }
        let index = Index::new(2 * self.holes(), k);
        if index.count() > MAX_LAYER_POSITIONS {
            return Err(BuildError::TooBig(k));
        }
        let graph = Graph::new(self, &index);
        let values = solve_layer(&graph, k, &self.layers);
        self.layers.push(Layer { index, values });
        Ok(self.layers.last().expect("just pushed"))
    }
}

/// `pos`'s board seen from its side to move, written to the front of `out`.
fn mover_view<'a>(pos: &Position, out: &'a mut [u32]) -> &'a [u32] {
    let n = pos.holes();
    let side = pos.to_move();
    pos.row(side).copy_to(&mut out[..n]);
    pos.row(side.opponent()).copy_to(&mut out[n..2 * n]);
    &out[..2 * n]
}

/// One legal move of a position: the seeds it captures, and the rank of the
/// position it leads to in the layer `k - captured` ([`ENDS`] if the
/// opponent then has no legal move).
#[derive(Clone, Copy, Debug)]
struct Edge {
    captured: u32,
    child: u32,
}

/// The moves of every position of a layer (compressed rows), and the
/// predecessors along the non-capturing moves that stay in the layer.
struct Graph {
    starts: Vec<u32>,
    edges: Vec<Edge>,
    pred_starts: Vec<u32>,
    preds: Vec<u32>,
}

impl Graph {
    fn new(tables: &Tables, index: &Index) -> Graph {
        let n = tables.holes();
        let k = index.seeds();
        let count = index.count() as usize;
        let mut starts = Vec::with_capacity(count + 1);
        let mut edges = Vec::new();
        let mut board = vec![0u32; 2 * n];
        let mut child_board = [0u32; 2 * MAX_HOLES];
        let child_indices: Vec<Index> = (0..=k).map(|c| Index::new(2 * n, c)).collect();
        let mut in_layer = vec![0u32; count];
        starts.push(0);
        for rank in 0..count as u64 {
            index.unrank(rank, &mut board);
            let pos = Position::from_parts(
                tables.rules,
                &board[..n],
                &board[n..],
                Side::South,
                [0, 0],
                1,
            )
            .expect("a board of the rules' size");
            for mv in pos.legal_moves() {
                let mut next = pos.clone();
                let details = next.play_unchecked(mv);
                let captured = details.capture.map_or(0, |c| c.seeds);
                let child = if details.outcome.is_some() {
                    ENDS
                } else {
                    let view = mover_view(&next, &mut child_board);
                    let child = child_indices[(k - captured) as usize].rank(view) as u32;
                    if captured == 0 {
                        in_layer[child as usize] += 1;
                    }
                    child
                };
                edges.push(Edge { captured, child });
            }
            starts.push(edges.len() as u32);
        }
        let (pred_starts, preds) = predecessors(&starts, &edges, in_layer);
        Graph {
            starts,
            edges,
            pred_starts,
            preds,
        }
    }

    fn count(&self) -> usize {
        self.starts.len() - 1
    }

    fn moves(&self, p: usize) -> &[Edge] {
        &self.edges[self.starts[p] as usize..self.starts[p + 1] as usize]
    }

    fn preds(&self, p: usize) -> &[u32] {
        &self.preds[self.pred_starts[p] as usize..self.pred_starts[p + 1] as usize]
    }
}

/// The reverse of the in-layer edges as compressed rows, given how many
/// edges enter each position (`in_layer`). A position with two moves to the
/// same child is its predecessor twice.
fn predecessors(starts: &[u32], edges: &[Edge], in_layer: Vec<u32>) -> (Vec<u32>, Vec<u32>) {
    let mut pred_starts = Vec::with_capacity(in_layer.len() + 1);
    let mut total = 0u32;
    pred_starts.push(0);
    for &c in &in_layer {
        total += c;
        pred_starts.push(total);
    }
    let mut fill = pred_starts[..in_layer.len()].to_vec();
    let mut preds = vec![0u32; total as usize];
    for p in 0..in_layer.len() {
        for e in &edges[starts[p] as usize..starts[p + 1] as usize] {
            if e.captured == 0 && e.child != ENDS {
                preds[fill[e.child as usize] as usize] = p as u32;
                fill[e.child as usize] += 1;
            }
        }
    }
    (pred_starts, preds)
}

/// The values of the layer of `k` seeds, the layers below known.
///
/// For every threshold `t` (`k, k - 2, ..., -k`: margins have the parity of
/// `k`) one attractor (below) gives, for every position, whether the mover
/// can force an end with margin `>= t` (role X) and whether the opponent can
/// force an end with the opponent's margin `>= t` (role Y); the first,
/// highest, `t` that holds is `lo` (X) and `-hi` (Y).
fn solve_layer(graph: &Graph, k: u32, below: &[Layer]) -> Vec<Value> {
    let count = graph.count();
    let mut lo: Vec<Option<(i32, u32)>> = vec![None; count];
    let mut hi: Vec<Option<(i32, u32)>> = vec![None; count];
    let k = k as i32;
    let mut attractor = Attractor::new(count);
    for t in (-k..=k).rev().step_by(2) {
        attractor.run(graph, k, t, below);
        for p in 0..count {
            let (x, y) = (attractor.depth[2 * p], attractor.depth[2 * p + 1]);
            if lo[p].is_none() && x != UNREACHED {
                lo[p] = Some((t, x));
            }
            if hi[p].is_none() && y != UNREACHED {
                hi[p] = Some((-t, y));
            }
        }
    }
    lo.iter()
        .zip(&hi)
        .map(|(lo, hi)| {
            let plies = lo.map_or(0, |l| l.1).max(hi.map_or(0, |h| h.1));
            Value::new(lo.map(|l| l.0), hi.map(|h| h.0), plies)
        })
        .collect()
}

/// The attractor of one threshold `t` over the nodes `2p` (X: the player
/// to move at `p` forces an end with its margin `>= t`) and `2p + 1` (Y: the
/// player not to move forces an end with its margin `>= t`), with the
/// fewest plies each needs: a bucket queue by depth (Dijkstra order), so an
/// X node takes its first (smallest) entry and a Y node is entered when its
/// last move has been counted, at the largest depth among them.
struct Attractor {
    /// Plies to force, by node; [`UNREACHED`] if it cannot be forced.
    depth: Vec<u32>,
    /// Y nodes: in-layer moves not yet known to lead into X; `u32::MAX` if
    /// a move out of the layer already fails.
    open: Vec<u32>,
    /// Y nodes: the largest depth among the moves counted so far.
    deepest: Vec<u32>,
    buckets: Vec<Vec<u32>>,
}

impl Attractor {
    fn new(count: usize) -> Attractor {
        Attractor {
            depth: vec![UNREACHED; 2 * count],
            open: vec![0; count],
            deepest: vec![0; count],
            buckets: Vec::new(),
        }
    }

    fn push(&mut self, node: u32, depth: u32) {
        let d = depth as usize;
        if self.buckets.len() <= d {
            self.buckets.resize_with(d + 1, Vec::new);
        }
        self.buckets[d].push(node);
    }

    fn run(&mut self, graph: &Graph, k: i32, t: i32, below: &[Layer]) {
        self.depth.fill(UNREACHED);
        for p in 0..graph.count() {
            self.seed(graph, p, k, t, below);
        }
        let mut d = 0;
        while d < self.buckets.len() {
            let bucket = std::mem::take(&mut self.buckets[d]);
            for &node in &bucket {
                if self.depth[node as usize] == UNREACHED {
                    self.depth[node as usize] = d as u32;
                    self.enter(graph, node, d as u32);
                }
            }
            d += 1;
        }
        self.buckets.clear();
    }

    /// Queues what `p` can force through its moves out of the layer (captures,
    /// moves that end the game), or at once if it has no legal move.
    fn seed(&mut self, graph: &Graph, p: usize, k: i32, t: i32, below: &[Layer]) {
        let moves = graph.moves(p);
        if moves.is_empty() {
            // The opponent, the last mover, sweeps all k seeds.
            if -k >= t {
                self.push(2 * p as u32, 0);
            }
            if k >= t {
                self.push(2 * p as u32 + 1, 0);
            }
            return;
        }
        let mut best_x = UNREACHED;
        let (mut open, mut deepest, mut dead) = (0u32, 0u32, false);
        for e in moves {
            let g = e.captured as i32;
            if e.captured == 0 && e.child != ENDS {
                open += 1;
                continue;
            }
            let (clo, chi, cd) = if e.child == ENDS {
                let m = -(k - g);
                (Some(m), Some(m), 0)
            } else {
                let v = below[(k - g) as usize].values[e.child as usize];
                (v.lo(), v.hi(), u32::from(v.plies()))
            };
            // X: the mover's margin g - (child's) >= t, the child's opponent forcing.
            if chi.is_some_and(|h| h <= g - t) {
                best_x = best_x.min(cd + 1);
            }
            // Y: the opponent's margin (child's) - g >= t, the child's mover forcing.
            if clo.is_some_and(|l| l >= t + g) {
                deepest = deepest.max(cd + 1);
            } else {
                dead = true;
            }
        }
        if dead {
            open = u32::MAX;
        }
        if best_x != UNREACHED {
            self.push(2 * p as u32, best_x);
        }
        self.open[p] = open;
        self.deepest[p] = deepest;
        if open == 0 {
            self.push(2 * p as u32 + 1, deepest);
        }
    }

    /// `node` has entered at depth `d`: its predecessors along in-layer moves learn it.
    fn enter(&mut self, graph: &Graph, node: u32, d: u32) {
        let p = (node / 2) as usize;
        for &q in graph.preds(p) {
            let q = q as usize;
            if node % 2 == 1 {
                // A Y node: the mover at q can move into it.
                if self.depth[2 * q] == UNREACHED {
                    self.push(2 * q as u32, d + 1);
                }
            } else if self.open[q] != u32::MAX && self.open[q] > 0 {
                // An X node: one more of q's moves is good for q's opponent.
                self.open[q] -= 1;
                self.deepest[q] = self.deepest[q].max(d + 1);
                if self.open[q] == 0 {
                    self.push(2 * q as u32 + 1, self.deepest[q]);
                }
            }
        }
    }
}
