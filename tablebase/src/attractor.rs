//! The solver of one layer: for every threshold `t` (`k, k - 2, ..., -k`:
//! margins have the parity of `k`), the attractor of the positions from
//! which the mover forces an end with margin `>= t` (role X) and those from
//! which the opponent forces an end with its own margin `>= t` (role Y), a
//! least fixed point filled in order of depth (a bucket queue, Dijkstra
//! order): retrograde analysis with successor counting (Romein and Bal,
//! "Solving Awari with Parallel Retrograde Analysis", IEEE Computer 36(10),
//! 2003; Thompson 1986). The first, highest, `t` at which X holds is `lo`,
//! the first at which Y holds is `-hi`, each with the depth it had there.

use crate::layer_graph::LayerGraph;
use crate::Value;

/// A node's depth is final (the bit above every depth).
const DONE: u32 = 1 << 31;

/// A depth not reached (yet), above every depth.
const UNREACHED: u32 = DONE - 1;

/// Bucket entries whose nodes are read ahead together ([`Attractor::warm`]).
const WARM: usize = 16;

/// `open` of a position whose exits already fail the opponent at this threshold.
const DEAD: u32 = u32::MAX;

/// One position's two nodes at one threshold, in one cache line's quarter.
#[derive(Clone, Copy)]
#[repr(C, align(16))]
struct Node {
    /// X: plies the mover needs (tentative until [`DONE`] is set).
    x: u32,
    /// Y: plies the opponent needs (set when the last move is counted).
    y: u32,
    /// Y: in-layer moves not yet known to lead into X ([`DEAD`]: hopeless).
    open: u32,
    /// Y: the most plies among the moves counted so far.
    deepest: u32,
}

/// A threshold and its depth where a role first held; `t == i8::MIN`: never.
#[derive(Clone, Copy)]
struct Found {
    t: i8,
    plies: u32,
}

impl Found {
    const NONE: Found = Found {
        t: i8::MIN,
        plies: 0,
    };

    fn margin(self, sign: i32) -> Option<i32> {
        (self.t != i8::MIN).then_some(sign * i32::from(self.t))
    }
}

/// The values of the layer of `k` seeds whose moves are `graph`.
pub(crate) fn solve(graph: &LayerGraph, k: u32) -> Vec<Value> {
    let count = graph.count();
    let mut lo = vec![Found::NONE; count];
    let mut hi = vec![Found::NONE; count];
    let k = k as i32;
    let mut attractor = Attractor {
        nodes: vec![
            Node {
                x: UNREACHED,
                y: UNREACHED,
                open: 0,
                deepest: 0
            };
            count
        ],
        buckets: Vec::new(),
    };
    for t in (-k..=k).rev().step_by(2) {
        attractor.run(graph, t);
        let t8 = i8::try_from(t).expect("thresholds fit -126..=126");
        for ((node, lo), hi) in attractor.nodes.iter().zip(&mut lo).zip(&mut hi) {
            if lo.t == i8::MIN && node.x & DONE != 0 {
                *lo = Found {
                    t: t8,
                    plies: node.x & !DONE,
                };
            }
            if hi.t == i8::MIN && node.y & DONE != 0 {
                *hi = Found {
                    t: t8,
                    plies: node.y & !DONE,
                };
            }
        }
    }
    lo.iter()
        .zip(&hi)
        .map(|(lo, hi)| Value::new(lo.margin(1), hi.margin(-1), lo.plies.max(hi.plies)))
        .collect()
}

/// The state of one threshold's pass, reused from one threshold to the next.
struct Attractor {
    nodes: Vec<Node>,
    /// Node ids (`2p` X, `2p + 1` Y) by the depth they were queued at.
    buckets: Vec<Vec<u32>>,
}

impl Attractor {
    fn push(&mut self, node: u32, depth: u32) {
        let d = depth as usize;
        if self.buckets.len() <= d {
            self.buckets.resize_with(d + 1, Vec::new);
        }
        self.buckets[d].push(node);
    }

    /// Fills the attractor of threshold `t`.
    fn run(&mut self, graph: &LayerGraph, t: i32) {
        self.seed(graph, t);
        let mut d = 0;
        while d < self.buckets.len() {
            let mut bucket = std::mem::take(&mut self.buckets[d]);
            let depth = d as u32;
            for (i, &id) in bucket.iter().enumerate() {
                if i % WARM == 0 {
                    self.warm(graph, &bucket[i..bucket.len().min(i + WARM)]);
                }
                let node = &mut self.nodes[(id / 2) as usize];
                let role = if id % 2 == 0 {
                    &mut node.x
                } else {
                    &mut node.y
                };
                if *role == depth {
                    *role |= DONE;
                    self.enter(graph, id, depth);
                }
            }
            bucket.clear();
            self.buckets[d] = bucket;
            d += 1;
        }
    }

    /// Reads the nodes of `ids` and of their predecessors without a
    /// dependence between the reads, so that the processor fetches them
    /// into the cache together rather than one miss after another.
    fn warm(&self, graph: &LayerGraph, ids: &[u32]) {
        let mut sum = 0u32;
        for &id in ids {
            sum = sum.wrapping_add(self.nodes[(id / 2) as usize].open);
        }
        for &id in ids {
            for &q in graph.preds((id / 2) as usize) {
                sum = sum.wrapping_add(self.nodes[q as usize].open);
            }
        }
        std::hint::black_box(sum);
    }

    /// Resets every node and queues what each position forces through its
    /// moves out of the layer (or at once if it has no legal move).
    fn seed(&mut self, graph: &LayerGraph, t: i32) {
        for p in 0..graph.count() {
            let mut node = Node {
                x: UNREACHED,
                y: UNREACHED,
                open: DEAD,
                deepest: 0,
            };
            if let Some(d) = graph.best_exit(p, t) {
                node.x = d;
                self.push(2 * p as u32, d);
            }
            if t <= i32::from(graph.y_max[p]) {
                node.open = u32::from(graph.in_layer[p]);
                node.deepest = graph.y_deep[p];
                if node.open == 0 {
                    node.y = node.deepest;
                    self.push(2 * p as u32 + 1, node.deepest);
                }
            }
            self.nodes[p] = node;
        }
    }

    /// Node `id` has entered at depth `d`: its predecessors along in-layer moves learn it.
    fn enter(&mut self, graph: &LayerGraph, id: u32, d: u32) {
        let p = (id / 2) as usize;
        for &q in graph.preds(p) {
            let node = &mut self.nodes[q as usize];
            if id % 2 == 1 {
                // A Y node: the mover at q can move into it.
                if d + 1 < node.x & !DONE {
                    node.x = d + 1;
                    self.push(2 * q, d + 1);
                }
            } else if node.open != DEAD && node.open > 0 {
                // An X node: one more of q's moves is good for q's opponent.
                node.open -= 1;
                node.deepest = node.deepest.max(d + 1);
                if node.open == 0 {
                    node.y = node.deepest;
                    let deepest = node.deepest;
                    self.push(2 * q + 1, deepest);
                }
            }
        }
    }
}
