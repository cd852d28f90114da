//! One layer's moves as the solver (the attractor) needs them: every
//! legal move is played once on the rules engine; the moves out of the layer
//! (captures, moves that end the game) are folded into a few numbers per
//! position, and the moves that stay in the layer are kept reversed only
//! (the predecessors, compressed rows of `u32` ranks).

use endodoi::{Position, Rules, Side, MAX_HOLES};

use crate::{Index, Value};

/// A threshold no position's exits ever pass (thresholds are `-126..=126`).
const NEVER: i8 = i8::MIN;

/// The moves of the positions of one layer of `k` seeds.
///
/// For a threshold `t`, the exits of position `p` (moves out of the layer)
/// let the mover force margin `>= t` in [`LayerGraph::best_exit`] plies, and
/// all of them leave the opponent margin `>= t` when `t <= y_max[p]`, then
/// within `y_deep[p]` plies. A position without a legal move is stored as one
/// exit worth `-k` to the mover in 0 plies, and `y_max = k`, `y_deep = 0`.
pub(crate) struct LayerGraph {
    /// The moves that stay in the layer, per position (at most `H <= 50`).
    pub(crate) in_layer: Vec<u8>,
    /// The highest threshold at which every exit is good for the opponent;
    /// [`NEVER`] when an exit never is (as `i8`).
    pub(crate) y_max: Vec<i8>,
    /// The most plies the exits need for the opponent (1 + the child's plies).
    pub(crate) y_deep: Vec<u32>,
    /// Where each position's steps start in `x_steps` (one more entry than positions).
    x_starts: Vec<u32>,
    /// Per position, the exits good for the mover as a staircase: `(a, d)`
    /// with `a` falling and `d` falling, packed as `(a + 128) << 24 | d`: at
    /// threshold `t` the mover forces margin `>= t` in the `d` of the last
    /// step with `a >= t`.
    x_steps: Vec<u32>,
    /// Where each position's predecessors start in `preds`.
    pred_starts: Vec<u32>,
    /// The positions with a move to each position that stays in the layer
    /// (twice for two such moves).
    preds: Vec<u32>,
}

/// The exits of one position, gathered while its moves are played.
struct Exits {
    steps: Vec<(i32, u32)>,
    y_max: i32,
    y_deep: u32,
}

impl Exits {
    fn clear(&mut self) {
        self.steps.clear();
        self.y_max = i32::from(i8::MAX);
        self.y_deep = 0;
    }

    /// A move that captures `g` seeds to a child worth `child` for its
    /// mover (the opponent), or that ends the game when `child` is `None`.
    fn add(&mut self, k: i32, g: i32, child: Option<Value>) {
        let (clo, chi, cd) = match child {
            None => (Some(g - k), Some(g - k), 0),
            Some(v) => (v.lo(), v.hi(), u32::from(v.plies())),
        };
        // X: the mover's margin g - (child's) >= t, the child's opponent forcing.
        if let Some(h) = chi {
            self.steps.push((g - h, cd + 1));
        }
        // Y: the opponent's margin (child's) - g >= t, the child's mover forcing.
        match clo {
            Some(l) => self.y_max = self.y_max.min(l - g),
            None => self.y_max = i32::from(NEVER),
        }
        self.y_deep = self.y_deep.max(cd + 1);
    }

    /// The staircase: by `a` falling, only the steps that need fewer plies
    /// than every step before them.
    fn staircase(&mut self, out: &mut Vec<u32>) {
        self.steps
            .sort_unstable_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)));
        let mut fewest = u32::MAX;
        for &(a, d) in &self.steps {
            if d < fewest {
                fewest = d;
                out.push(((a + 128) as u32) << 24 | d);
            }
        }
    }
}

impl LayerGraph {
    /// Plays every legal move of the layer `index` under `rules`; `below[c]`
    /// holds the values of the layer of `c` seeds, for every `c` below.
    pub(crate) fn new(rules: Rules, index: &Index, below: &[&[Value]]) -> LayerGraph {
        let n = rules.holes();
        let k = index.seeds();
        let count = index.count() as usize;
        let mut graph = LayerGraph {
            in_layer: Vec::with_capacity(count),
            y_max: Vec::with_capacity(count),
            y_deep: Vec::with_capacity(count),
            x_starts: Vec::with_capacity(count + 1),
            x_steps: Vec::new(),
            pred_starts: Vec::new(),
            preds: Vec::new(),
        };
        let mut forward: Vec<u32> = Vec::new();
        let mut entering = vec![0u32; count];
        let mut board = [0u32; 2 * MAX_HOLES];
        let mut child_board = [0u32; 2 * MAX_HOLES];
        let child_indices: Vec<Index> = (0..=k).map(|c| Index::new(2 * n, c)).collect();
        let mut exits = Exits {
            steps: Vec::new(),
            y_max: 0,
            y_deep: 0,
        };
        graph.x_starts.push(0);
        for rank in 0..count as u64 {
            index.unrank(rank, &mut board[..2 * n]);
            let pos =
                Position::from_parts(rules, &board[..n], &board[n..2 * n], Side::South, [0, 0], 1)
                    .expect("a board of the rules' size");
            exits.clear();
            let mut stay = 0u8;
            let mut moves = 0;
            for mv in pos.legal_moves() {
                moves += 1;
                let mut next = pos.clone();
                let details = next.play_unchecked(mv);
                let g = details.capture.map_or(0, |c| c.seeds);
                if details.outcome.is_some() {
                    exits.add(k as i32, g as i32, None);
                    continue;
                }
                let view = mover_view(&next, &mut child_board);
                let child = child_indices[(k - g) as usize].rank(view) as u32;
                if g == 0 {
                    stay += 1;
                    entering[child as usize] += 1;
                    forward.push(child);
                } else {
                    let v = below[(k - g) as usize][child as usize];
                    exits.add(k as i32, g as i32, Some(v));
                }
            }
            if moves == 0 {
                // The opponent, the last mover, sweeps all k seeds.
                exits.steps.push((-(k as i32), 0));
                exits.y_max = k as i32;
            }
            exits.staircase(&mut graph.x_steps);
            graph.x_starts.push(graph.x_steps.len() as u32);
            graph.in_layer.push(stay);
            graph.y_max.push(exits.y_max as i8);
            graph.y_deep.push(exits.y_deep);
        }
        graph.reverse(&forward, entering);
        graph
    }

    /// Fills the predecessors from the in-layer moves `forward` (by
    /// position, `in_layer[p]` each) and how many enter each position.
    fn reverse(&mut self, forward: &[u32], entering: Vec<u32>) {
        let starts = row_starts(&entering);
        drop(entering);
        let mut fill = starts[..starts.len() - 1].to_vec();
        let mut preds = vec![0u32; starts[starts.len() - 1] as usize];
        let mut at = 0;
        for (p, &stay) in self.in_layer.iter().enumerate() {
            for &child in &forward[at..at + usize::from(stay)] {
                preds[fill[child as usize] as usize] = p as u32;
                fill[child as usize] += 1;
            }
            at += usize::from(stay);
        }
        self.pred_starts = starts;
        self.preds = preds;
    }

    /// Positions in the layer.
    pub(crate) fn count(&self) -> usize {
        self.in_layer.len()
    }

    /// The fewest plies in which `p`'s exits let its mover force margin
    /// `>= t`; `None` when none does.
    pub(crate) fn best_exit(&self, p: usize, t: i32) -> Option<u32> {
        let steps = &self.x_steps[self.x_starts[p] as usize..self.x_starts[p + 1] as usize];
        let mut best = None;
        for &s in steps {
            if (s >> 24) as i32 - 128 < t {
                break;
            }
            best = Some(s & 0x00FF_FFFF);
        }
        best
    }

    /// The positions with a move into `p` that stays in the layer.
    pub(crate) fn preds(&self, p: usize) -> &[u32] {
        &self.preds[self.pred_starts[p] as usize..self.pred_starts[p + 1] as usize]
    }
}

/// `pos`'s board seen from its side to move, written to the front of `out`.
pub(crate) fn mover_view<'a>(pos: &Position, out: &'a mut [u32]) -> &'a [u32] {
    let n = pos.holes();
    let side = pos.to_move();
    pos.row(side).copy_to(&mut out[..n]);
    pos.row(side.opponent()).copy_to(&mut out[n..2 * n]);
    &out[..2 * n]
}

/// Where each row of a compressed-row array starts when row `p` holds
/// `counts[p]` entries: `counts.len() + 1` offsets, the last one the total.
pub(crate) fn row_starts(counts: &[u32]) -> Vec<u32> {
    let mut starts = Vec::with_capacity(counts.len() + 1);
    let mut total = 0u32;
    starts.push(0);
    for &c in counts {
        total += c;
        starts.push(total);
    }
    starts
}
