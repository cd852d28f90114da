//! The first builder's solver, kept for the tests only: the move graph with
//! every edge stored and one attractor per threshold that reads the layers
//! below on every pass. The tests check that [`crate::build`]'s faster
//! solver (`layer_graph` and `attractor`) gives the same values, bit for bit.

use endodoi::{Position, Side, MAX_HOLES};

use crate::build::{Layer, Tables};
use crate::layer_graph::{mover_view, row_starts};
use crate::{Index, Value};

/// An edge whose move ends the game: the opponent has no legal move after it.
const ENDS: u32 = u32::MAX;

/// A depth not (yet) reached in an attractor.
const UNREACHED: u32 = u32::MAX;

/// The values of the layer of `k` seeds of `tables` (whose layers below are built).
pub(crate) fn solve(tables: &Tables, index: &Index) -> Vec<Value> {
    let graph = Graph::new(tables, index);
    solve_layer(&graph, index.seeds(), tables.layers())
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
                tables.rules(),
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
    let pred_starts = row_starts(&in_layer);
    let mut fill = pred_starts[..in_layer.len()].to_vec();
    let mut preds = vec![0u32; pred_starts[in_layer.len()] as usize];
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
                let v = below[(k - g) as usize].values()[e.child as usize];
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Every layer of 2xH up to `k` seeds: the builder's values are the first solver's.
    fn same_as_reference(holes: usize, k: u32) {
        let mut tables = Tables::new(holes, endodoi::DEFAULT_MAX_LAPS).unwrap();
        for seeds in 0..=k {
            let index = Index::new(2 * holes, seeds);
            let expected = solve(&tables, &index);
            let layer = tables.build_next().unwrap();
            assert!(
                layer.values() == expected.as_slice(),
                "2x{holes}, {seeds} seeds: the builder differs from the reference"
            );
        }
    }

    #[test]
    fn the_builder_gives_the_first_solvers_values() {
        for (holes, k) in [(2, 12), (3, 10), (4, 9), (5, 8), (6, 6)] {
            same_as_reference(holes, k);
        }
    }
}
