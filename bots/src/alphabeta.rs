//! The `alphabeta` bot: iterative-deepening negamax with alpha-beta pruning
//! (Knuth & Moore 1975, "An analysis of alpha-beta pruning", *Artificial
//! Intelligence* 6) and a transposition table (Greenblatt, Eastlake & Crocker
//! 1967; Zobrist 1970), with the table's move and the history heuristic
//! (Schaeffer 1989, "The history heuristic and alpha-beta search
//! enhancements in practice", *IEEE PAMI* 11) for move ordering.
//!
//! - **Scores** are from the side to move, in quarter seeds
//!   ([`SCORE_PER_SEED`]). An ended game scores its final margin, plus
//!   [`WIN_BONUS`] for a win (minus for a loss): a strictly increasing
//!   function of the margin, so among proven results the search still
//!   maximises the margin, and it prefers a proven win to any unproven lead.
//! - **Evaluation** at the horizon: the captured difference, plus half a
//!   seed per seed of difference between the two rows (the weight was
//!   chosen by measurement, see [`Evaluation`]).
//! - **Transposition table**: a hash of the position (the ring, the side to
//!   move, the mover's captured seeds, and the plies left when the ply limit
//!   is within reach of a search), one entry per slot, allocated once
//!   ([`TT_BYTES`]). Relay sowing changes most holes of the ring in one move,
//!   so an incremental Zobrist key would cost as much as hashing the `2n`
//!   holes afresh, which is what this does.
//! - **Exact results**: a search whose every leaf is the end of a game (no
//!   horizon evaluation was used) has found the game-theoretic value; the
//!   deepening stops there, and such table entries are used at any depth.
//! - **Time**: see [`TimePlan`]. A search stops at its hard deadline and
//!   plays the best move of the last completed iteration.
//!
//! The searcher allocates its table and a buffer of child positions once;
//! a node allocates nothing.

use std::time::{Duration, Instant};

use endodoi::{Move, MoveSet, Position, MAX_HOLES};

use crate::strategy::{playable_moves, Strategy, TimeLeft};
use endodoi_protocol::NewGame;

/// Score units per seed: scores are in quarter seeds, so that
/// [`Evaluation::row_weight`] can weigh a seed in a row at a fraction of a
/// captured one.
pub const SCORE_PER_SEED: i32 = 4;

/// Added to the score of a won game (subtracted for a lost one): larger than
/// any margin, so any proven win beats any evaluation.
pub const WIN_BONUS: i32 = 1 << 20;

/// Above every score.
const INFINITY: i32 = 1 << 24;

/// The deepest search, in plies.
pub const MAX_DEPTH: u32 = 128;

/// The transposition table's size in bytes (16-byte entries).
pub const TT_BYTES: usize = 16 << 20;

/// Nodes between two looks at the clock (a look costs about as much as a
/// tenth of a node on 2x8; on 2x50 a node can take 50 long sowings).
const CLOCK_EVERY: u64 = 64;

/// The static evaluation of a position at the search horizon.
///
/// Score, from the side to move: `SCORE_PER_SEED * (my captured - their
/// captured) + row_weight * (seeds in my row - seeds in theirs)`. The
/// captured difference is what the game is scored on. Seeds still on the
/// board could go either way: a capture takes seeds from the *opponent's*
/// row (so the seeds in my row are what my opponent can take), but the ply
/// limit gives each player their own row, a player whose row is empty has no
/// move and loses the whole board to the last mover, and seeds in my row are
/// my moves. Measured (in-process matches from random 2-4 ply openings, sides
/// swapped, `examples/match.rs`), counting the rows helps: against weight 0
/// at the same depth, weight 2 scored 54.6% at depth 5 and at depth 6 (800
/// games each, 2x8), 56.4% at depth 8 (400 games) and 58.8% on 2x10 at depth
/// 6 (400 games); weight 1 was as good (53.4% against weight 2 at depth 6,
/// 49.9% at depth 8), weight 3 and 4 worse (46.8%), and negative weights
/// much worse (-2: 34.1%, -4: 19.2%). The default is 2: a seed in my row is
/// worth half a captured seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Evaluation {
    /// Quarter seeds per seed of difference between the mover's row and the
    /// opponent's.
    pub row_weight: i32,
}

/// The default [`Evaluation::row_weight`]: half a seed.
pub const DEFAULT_ROW_WEIGHT: i32 = 2;

impl Default for Evaluation {
    fn default() -> Evaluation {
        Evaluation {
            row_weight: DEFAULT_ROW_WEIGHT,
        }
    }
}

impl Evaluation {
    /// The score of `pos` for its side to move, in quarter seeds: the end's
    /// margin (with [`WIN_BONUS`]) for a finished game, the evaluation
    /// otherwise.
    #[must_use]
    pub fn score(&self, pos: &Position) -> i32 {
        let me = pos.to_move();
        let margin = pos.captured(me) as i32 - pos.captured(me.opponent()) as i32;
        if pos.is_over() {
            return terminal_score(margin);
        }
        let mine: u32 = pos.row(me).sum();
        let theirs: u32 = pos.row(me.opponent()).sum();
        SCORE_PER_SEED * margin + self.row_weight * (mine as i32 - theirs as i32)
    }
}

/// The score of a finished game with this final margin (the side's total
/// minus the opponent's).
#[must_use]
pub fn terminal_score(margin: i32) -> i32 {
    SCORE_PER_SEED * margin + margin.signum() * WIN_BONUS
}

/// The final margin a score stands for, if it is the score of a finished
/// game other than a draw (`None` for an evaluation, and for 0).
#[must_use]
pub fn proven_margin(score: i32) -> Option<i32> {
    (score.abs() >= WIN_BONUS).then(|| (score - score.signum() * WIN_BONUS) / SCORE_PER_SEED)
}

/// How the bot limits its search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AlphaBetaOptions {
    /// Search to exactly this depth, in plies (1 to [`MAX_DEPTH`]; less if
    /// the result is proven sooner), for reproducible play; the protocol's
    /// time limit still stops it (see [`TimePlan`]).
    pub depth: Option<u32>,
    /// Take at most this long per move, ms, also within the protocol's limits.
    pub time_ms: Option<u64>,
    /// The horizon evaluation.
    pub eval: Evaluation,
}

/// How long a move should take, from the moment the `turn` request was read.
///
/// - `hard`: the search is abandoned here. It is the reply's limit
///   (`time_ms`: the per-move limit or the game clock, whichever is less)
///   minus a safety margin of 30 ms plus 20% (for writing the reply, the
///   arena's reading it, and a busy machine), and with a game clock at most
///   3 times the move's share of the clock (below). A bot's own time cap
///   (`--time-ms`) caps it too.
/// - `target`: the time the move should take: the hard limit, or with a game
///   clock the move's share of it: the clock divided by the moves the bot
///   still expects to make (half the plies to an expected game length of `8n`
///   plies, at least 10), plus three quarters of the increment; at most the
///   time cap. Without any limit from the protocol or the options it is
///   [`DEFAULT_MOVE_MS`]; with a fixed budget (a depth, a number of playouts)
///   and no time cap there is none.
///
/// `alphabeta` starts no new iteration after half the target (the next one
/// would most likely be abandoned); `mcts` stops its playouts at the target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimePlan {
    /// The time the move should take.
    pub target: Option<Duration>,
    /// Stop searching at this.
    pub hard: Option<Duration>,
}

/// The time a bot with no limit at all takes per move, ms.
pub const DEFAULT_MOVE_MS: u64 = 1000;

impl TimePlan {
    /// The plan for a move at ply `ply` of a game on `holes` holes per row
    /// (see [`TimePlan`]); `fixed_budget` when the bot was given a depth or a
    /// number of playouts, `cap_ms` its own time cap, if any.
    #[must_use]
    pub fn new(
        time: &TimeLeft,
        ply: u32,
        holes: usize,
        fixed_budget: bool,
        cap_ms: Option<u64>,
    ) -> TimePlan {
        let safety = |ms: u64| 30 + ms / 5;
        let mut hard = time.reply_ms.map(|ms| ms.saturating_sub(safety(ms)));
        let mut target = hard;
        if let Some(clock) = time.clock_ms {
            let expected = 8 * holes as u64;
            let moves_left = (expected.saturating_sub(u64::from(ply)) / 2).max(10);
            let share = clock / moves_left + time.increment_ms * 3 / 4;
            target = Some(target.map_or(share, |t| t.min(share)));
            hard = Some(hard.map_or(3 * share, |h| h.min(3 * share)));
        }
        if let Some(cap) = cap_ms {
            target = Some(target.map_or(cap, |t| t.min(cap)));
            hard = Some(hard.map_or(cap, |h| h.min(cap)));
        }
        if fixed_budget && cap_ms.is_none() {
            target = None;
        } else if target.is_none() {
            target = Some(DEFAULT_MOVE_MS);
            hard = Some(DEFAULT_MOVE_MS);
        }
        TimePlan {
            target: target.map(Duration::from_millis),
            hard: hard.map(Duration::from_millis),
        }
    }

    /// The plan for a move in `pos`: [`TimePlan::new`] at its ply and its
    /// number of holes per row.
    #[must_use]
    pub fn for_position(
        time: &TimeLeft,
        pos: &Position,
        fixed_budget: bool,
        cap_ms: Option<u64>,
    ) -> TimePlan {
        TimePlan::new(time, pos.ply(), pos.holes(), fixed_budget, cap_ms)
    }
}

/// What a search found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play.
    pub best: Move,
    /// Its score for the side to move, in quarter seeds (see [`terminal_score`]).
    pub score: i32,
    /// The depth of the last completed iteration, in plies.
    pub depth: u32,
    /// Whether the score is the game-theoretic value (every leaf was the end of
    /// a game).
    pub exact: bool,
    /// Nodes visited over all iterations.
    pub nodes: u64,
    /// Whether the last iteration was abandoned at the hard deadline.
    pub stopped: bool,
    /// The time taken.
    pub elapsed: Duration,
}

/// The bound a table entry's value is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

/// One slot of the transposition table, 16 bytes.
#[derive(Clone, Copy, Debug)]
struct Entry {
    key: u64,
    value: i32,
    /// The best (or refuting) move's hole, 0 for none.
    hole: u8,
    depth: u8,
    /// `Bound` in bits 0-1, "game-theoretic" in bit 2.
    flags: u8,
    /// The search (move of the game) that wrote it.
    age: u8,
}

const EMPTY_ENTRY: Entry = Entry {
    key: 0,
    value: 0,
    hole: 0,
    depth: 0,
    flags: 0,
    age: 0,
};

impl Entry {
    fn bound(self) -> Bound {
        match self.flags & 3 {
            0 => Bound::Exact,
            1 => Bound::Lower,
            _ => Bound::Upper,
        }
    }

    fn proven(self) -> bool {
        self.flags & 4 != 0
    }
}

/// A 64-bit hash of what a position's value depends on: the ring, the side
/// to move, the mover's captured seeds (with the board they fix both
/// totals), and the plies left when the ply limit is within [`MAX_DEPTH`]
/// (beyond that no search reaches it). Multiply-xorshift mixing, after
/// Steele, Lea & Flood 2014 (SplitMix64).
fn position_key(pos: &Position) -> u64 {
    let mix = |mut z: u64| {
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    let me = pos.to_move();
    let mut h = mix(u64::from(pos.captured(me)) ^ ((me.index() as u64) << 40));
    for seeds in pos.ring() {
        h = mix(h ^ u64::from(seeds));
    }
    let left = pos.rules().max_plies().saturating_sub(pos.ply());
    if left <= MAX_DEPTH {
        h = mix(h ^ (u64::from(left + 1) << 48));
    }
    h | 1 // 0 marks an empty slot
}

/// Exact values known outside the search, used at its nodes in place of
/// searching them: endgame tables (`arena bot perfect --tablebase DIR`).
pub trait Leaves: std::fmt::Debug + Send + Sync {
    /// The margin from `pos` (its mover's seeds still to come minus the
    /// opponent's: captures to come and the end's share of the board, the
    /// seeds captured so far left out) that perfect play by both sides
    /// forces, if it is known exactly and the game ends within the plies
    /// left before the ply limit; `None` otherwise.
    fn exact_margin(&self, pos: &Position) -> Option<i32>;
}

/// The search itself, reusable across moves and games.
#[derive(Clone, Debug)]
pub struct Searcher {
    eval: Evaluation,
    /// Exact values at the nodes they know ([`Searcher::with_leaves`]).
    leaves: Option<std::sync::Arc<dyn Leaves>>,
    table: Vec<Entry>,
    age: u8,
    /// History heuristic: a score per hole of the mover's row.
    history: [u32; MAX_HOLES],
    /// Child positions and their holes, `MAX_HOLES` slots per ply from the root.
    children: Vec<Position>,
    holes: Vec<u8>,
    nodes: u64,
    /// Horizon evaluations (and table entries resting on them) used so far:
    /// unchanged over a subtree means its value is proven.
    horizon: u64,
    deadline: Option<Instant>,
    stopped: bool,
}

impl Searcher {
    /// A searcher with its table ([`TT_BYTES`]) and child buffer (about
    /// 2.7 MB) allocated, so that no search allocates.
    #[must_use]
    pub fn new(eval: Evaluation) -> Searcher {
        let filler = endodoi::Rules::new(2, 1).expect("2x2 with 1 seed").start();
        Searcher {
            eval,
            leaves: None,
            table: vec![EMPTY_ENTRY; TT_BYTES / std::mem::size_of::<Entry>()],
            age: 0,
            history: [0; MAX_HOLES],
            children: vec![filler; (MAX_DEPTH as usize + 1) * MAX_HOLES],
            holes: vec![0; (MAX_DEPTH as usize + 1) * MAX_HOLES],
            nodes: 0,
            horizon: 0,
            deadline: None,
            stopped: false,
        }
    }

    /// The searcher, with `leaves` giving the exact value of every node they
    /// know (in place of searching it or evaluating it at the horizon): the
    /// score of a proven end with the final margin the seeds captured so far
    /// and the leaves' margin give.
    #[must_use]
    pub fn with_leaves(mut self, leaves: std::sync::Arc<dyn Leaves>) -> Searcher {
        self.leaves = Some(leaves);
        self
    }

    /// The exact score of `pos` by the leaves, if they know it.
    fn leaf_score(&self, pos: &Position) -> Option<i32> {
        let margin = self.leaves.as_ref()?.exact_margin(pos)?;
        let me = pos.to_move();
        let so_far = pos.captured(me) as i32 - pos.captured(me.opponent()) as i32;
        Some(terminal_score(so_far + margin))
    }

    /// Forgets everything learnt (table, history), so that the next search
    /// plays as a fresh process would.
    pub fn clear(&mut self) {
        self.table.fill(EMPTY_ENTRY);
        self.history = [0; MAX_HOLES];
        self.age = 0;
    }

    /// Searches `pos` (its game not over) by iterative deepening up to
    /// `max_depth` plies, within `plan` counted from `start`, over the moves
    /// of `legal` that can be played. An iteration cut off by the hard
    /// deadline is discarded, except that depth 1 always completes. The
    /// deepening also stops once a result is proven ([`SearchResult::exact`]).
    ///
    /// # Panics
    /// If no move of `legal` can be played in `pos`.
    pub fn search(
        &mut self,
        pos: &Position,
        legal: MoveSet,
        max_depth: u32,
        plan: TimePlan,
        start: Instant,
    ) -> SearchResult {
        self.age = self.age.wrapping_add(1);
        for h in &mut self.history {
            *h /= 8;
        }
        self.nodes = 0;
        self.stopped = false;
        self.deadline = plan.hard.map(|d| start + d);
        let mut result: Option<SearchResult> = None;
        for depth in 1..=max_depth.clamp(1, MAX_DEPTH) {
            let horizon_before = self.horizon;
            let (score, best) = self.root(pos, legal, depth);
            if self.stopped && depth > 1 {
                break;
            }
            let exact = self.horizon == horizon_before;
            result = Some(SearchResult {
                best,
                score,
                depth,
                exact,
                nodes: self.nodes,
                stopped: false,
                elapsed: start.elapsed(),
            });
            if exact || plan.target.is_some_and(|t| start.elapsed() >= t / 2) {
                break;
            }
        }
        let mut result = result.expect("depth 1 always completes");
        result.nodes = self.nodes;
        result.stopped = self.stopped;
        result.elapsed = start.elapsed();
        result
    }

    /// The root of one iteration: like [`Searcher::negamax`], but over the
    /// moves of `legal`, without a table cut-off, and returning the move.
    /// Among equal scores the move searched first (the table's move, then
    /// the ordering's) is kept.
    fn root(&mut self, pos: &Position, legal: MoveSet, depth: u32) -> (i32, Move) {
        let count = self.generate(pos, 0, legal);
        assert!(count > 0, "no legal move can be played in {pos}");
        let mut order = [0u8; MAX_HOLES];
        let tt_hole = self.probe(pos).map_or(0, |e| e.hole);
        self.order(pos, 0, count, tt_hole, &mut order);
        let mut alpha = -INFINITY;
        let mut best_hole = self.holes[usize::from(order[0])];
        let horizon_before = self.horizon;
        for &k in &order[..count] {
            let child = self.children[usize::from(k)].clone();
            let hole = self.holes[usize::from(k)];
            let score = -self.negamax(&child, depth - 1, -INFINITY, -alpha, 1, depth > 1);
            if self.stopped {
                break;
            }
            if score > alpha {
                alpha = score;
                best_hole = hole;
            }
        }
        if !self.stopped {
            let proven = self.horizon == horizon_before;
            self.store(pos, depth, alpha, Bound::Exact, best_hole, proven);
        }
        (alpha, Move::new(best_hole).expect("a hole of the board"))
    }

    /// Fail-soft negamax alpha-beta: the score of `pos` for its side to move,
    /// searched `depth` plies deep, exact when strictly between `alpha` and
    /// `beta`, else a bound on the same side. `ply` is the distance from the
    /// root; `can_stop` lets the deadline abandon the search (the result is
    /// then meaningless, and `self.stopped` says so).
    fn negamax(
        &mut self,
        pos: &Position,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        can_stop: bool,
    ) -> i32 {
        if pos.is_over() {
            return self.eval.score(pos);
        }
        if let Some(score) = self.leaf_score(pos) {
            return score;
        }
        if depth == 0 {
            self.horizon += 1;
            return self.eval.score(pos);
        }
        self.nodes += 1;
        if can_stop && self.nodes.is_multiple_of(CLOCK_EVERY) {
            if let Some(deadline) = self.deadline {
                if Instant::now() >= deadline {
                    self.stopped = true;
                }
            }
        }
        if self.stopped {
            return 0;
        }
        let mut tt_hole = 0;
        if let Some(entry) = self.probe(pos) {
            tt_hole = entry.hole;
            if entry.proven() || u32::from(entry.depth) >= depth {
                let cut = match entry.bound() {
                    Bound::Exact => true,
                    Bound::Lower => entry.value >= beta,
                    Bound::Upper => entry.value <= alpha,
                };
                if cut {
                    if !entry.proven() {
                        self.horizon += 1;
                    }
                    return entry.value;
                }
            }
        }
        let count = self.generate(pos, ply, pos.candidate_moves());
        if count == 0 {
            // Only endless moves: the engine would have ended the game.
            return self.eval.score(pos);
        }
        let mut order = [0u8; MAX_HOLES];
        self.order(pos, ply, count, tt_hole, &mut order);
        let alpha_in = alpha;
        let horizon_before = self.horizon;
        let mut best = -INFINITY;
        let mut best_hole = 0;
        for &k in &order[..count] {
            let slot = ply * MAX_HOLES + usize::from(k);
            let child = self.children[slot].clone();
            let hole = self.holes[slot];
            let score = -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1, can_stop);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                best_hole = hole;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        let h = &mut self.history[usize::from(hole) - 1];
                        *h = h.saturating_add(depth * depth);
                        break;
                    }
                }
            }
        }
        let bound = if best <= alpha_in {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        let proven = self.horizon == horizon_before;
        self.store(pos, depth, best, bound, best_hole, proven);
        best
    }

    /// Plays each move of `moves` that can be played into the child slots of
    /// `ply`; returns how many.
    fn generate(&mut self, pos: &Position, ply: usize, moves: MoveSet) -> usize {
        let base = ply * MAX_HOLES;
        let mut count = 0;
        for mv in moves {
            let slot = &mut self.children[base + count];
            slot.clone_from(pos);
            if slot.play(mv).is_ok() {
                self.holes[base + count] = mv.hole();
                count += 1;
            }
        }
        count
    }

    /// Orders the `count` children of `ply`: the table's move first, then by
    /// what the move gains at once (captures, and the sweep of a move that
    /// ends the game), then by the history heuristic. Writes child indices.
    fn order(&self, pos: &Position, ply: usize, count: usize, tt_hole: u8, order: &mut [u8]) {
        let me = pos.to_move();
        let before = pos.captured(me);
        let mut keys = [0u64; MAX_HOLES];
        for k in 0..count {
            let slot = ply * MAX_HOLES + k;
            let hole = self.holes[slot];
            let gain = u64::from(self.children[slot].captured(me) - before);
            let first = u64::from(hole == tt_hole);
            keys[k] = (first << 62)
                | (gain.min(0xffff) << 32)
                | u64::from(self.history[usize::from(hole) - 1]);
            order[k] = k as u8;
        }
        // Insertion sort, best first; stable, so ties keep the hole order.
        for i in 1..count {
            let mut j = i;
            while j > 0 && keys[usize::from(order[j - 1])] < keys[usize::from(order[j])] {
                order.swap(j - 1, j);
                j -= 1;
            }
        }
    }

    fn slot(&self, key: u64) -> usize {
        (key % self.table.len() as u64) as usize
    }

    fn probe(&self, pos: &Position) -> Option<Entry> {
        let key = position_key(pos);
        let entry = self.table[self.slot(key)];
        (entry.key == key).then_some(entry)
    }

    /// Stores a result, unless the slot holds a deeper result of this search
    /// for another position (depth-preferred within a search, always
    /// replacing older searches' entries).
    fn store(
        &mut self,
        pos: &Position,
        depth: u32,
        value: i32,
        bound: Bound,
        hole: u8,
        proven: bool,
    ) {
        let key = position_key(pos);
        let slot = self.slot(key);
        let old = self.table[slot];
        if old.key != key && old.age == self.age && u32::from(old.depth) > depth {
            return;
        }
        let bound_bits = match bound {
            Bound::Exact => 0,
            Bound::Lower => 1,
            Bound::Upper => 2,
        };
        self.table[slot] = Entry {
            key,
            value,
            hole,
            depth: depth.min(255) as u8,
            flags: bound_bits | (u8::from(proven) << 2),
            age: self.age,
        };
    }
}

/// The `alphabeta` bot: a [`Searcher`] under [`AlphaBetaOptions`], cleared
/// at every `newgame` (so a game plays the same in any process).
#[derive(Clone, Debug)]
pub struct AlphaBeta {
    options: AlphaBetaOptions,
    searcher: Searcher,
    last: Option<SearchResult>,
}

impl AlphaBeta {
    /// The bot with these options.
    #[must_use]
    pub fn new(options: AlphaBetaOptions) -> AlphaBeta {
        AlphaBeta {
            options,
            searcher: Searcher::new(options.eval),
            last: None,
        }
    }

    /// The bot with these options, its search using `leaves` where they
    /// know a position exactly ([`Searcher::with_leaves`]).
    #[must_use]
    pub fn with_leaves(options: AlphaBetaOptions, leaves: std::sync::Arc<dyn Leaves>) -> AlphaBeta {
        AlphaBeta {
            options,
            searcher: Searcher::new(options.eval).with_leaves(leaves),
            last: None,
        }
    }

    /// The options it plays with.
    #[must_use]
    pub fn options(&self) -> &AlphaBetaOptions {
        &self.options
    }

    /// Searches `pos` as the bot would for a move, with `time` to think.
    /// A single legal move is played at once (with an empty search).
    pub fn analyse(&mut self, pos: &Position, legal: MoveSet, time: &TimeLeft) -> SearchResult {
        let fixed = self.options.depth.is_some();
        let plan = TimePlan::for_position(time, pos, fixed, self.options.time_ms);
        let depth = self.options.depth.unwrap_or(MAX_DEPTH);
        let playable = playable_moves(pos, legal);
        if playable.len() == 1 {
            let only = playable.first().expect("one move");
            return SearchResult {
                best: only,
                score: 0,
                depth: 0,
                exact: false,
                nodes: 0,
                stopped: false,
                elapsed: time.received.elapsed(),
            };
        }
        self.searcher
            .search(pos, playable, depth, plan, time.received)
    }
}

impl Strategy for AlphaBeta {
    fn name(&self) -> &str {
        "alphabeta"
    }

    fn new_game(&mut self, settings: &NewGame) {
        let _ = settings;
        self.searcher.clear();
    }

    fn choose(&mut self, pos: &Position, legal: MoveSet) -> Move {
        self.choose_timed(pos, legal, &TimeLeft::unlimited())
    }

    fn choose_timed(&mut self, pos: &Position, legal: MoveSet, time: &TimeLeft) -> Move {
        if pos.is_over() || legal.is_empty() {
            return legal
                .first()
                .unwrap_or_else(|| Move::new(1).expect("hole 1"));
        }
        let result = self.analyse(pos, legal, time);
        self.last = Some(result);
        result.best
    }

    fn info(&mut self) -> Option<String> {
        let r = self.last.take()?;
        let score = match proven_margin(r.score) {
            Some(margin) => format!("{margin:+} (proven)"),
            None if r.exact => "0 (proven draw)".to_string(),
            None => format!("{:+.2}", f64::from(r.score) / f64::from(SCORE_PER_SEED)),
        };
        Some(format!(
            "depth {} score {score} nodes {} time {:.2} ms{}",
            r.depth,
            r.nodes,
            r.elapsed.as_secs_f64() * 1e3,
            if r.stopped {
                " (last iteration cut off)"
            } else {
                ""
            }
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use endodoi::{Rules, Side};

    fn time(reply_ms: Option<u64>, clock_ms: Option<u64>, increment_ms: u64) -> TimeLeft {
        TimeLeft {
            received: Instant::now(),
            reply_ms,
            clock_ms,
            increment_ms,
        }
    }

    fn ms(plan: TimePlan) -> (Option<u128>, Option<u128>) {
        (
            plan.target.map(|d| d.as_millis()),
            plan.hard.map(|d| d.as_millis()),
        )
    }

    #[test]
    fn time_plans() {
        // A per-move limit of 1 s: 1000 - (30 + 200) ms for everything.
        let per_move = time(Some(1000), None, 0);
        assert_eq!(
            ms(TimePlan::new(&per_move, 0, 8, false, None)),
            (Some(770), Some(770))
        );
        // A fixed depth: no target, but the same hard stop.
        assert_eq!(
            ms(TimePlan::new(&per_move, 0, 8, true, None)),
            (None, Some(770))
        );
        // A cap of its own.
        assert_eq!(
            ms(TimePlan::new(&per_move, 0, 8, true, Some(200))),
            (Some(200), Some(200))
        );
        // A game clock of 10 s + 100 ms at the start of 2x8: 32 moves to go,
        // 312 + 75 ms a move, at most 3 times that.
        let clock = time(Some(10_000), Some(10_000), 100);
        assert_eq!(
            ms(TimePlan::new(&clock, 0, 8, false, None)),
            (Some(387), Some(1161))
        );
        // Late in the game at least 10 moves are expected.
        assert_eq!(
            ms(TimePlan::new(&clock, 200, 8, false, None)),
            (Some(1075), Some(3225))
        );
        // The clock nearly out: time_ms is the clock, and the margin is kept
        // (hard: 40 - 38 ms; the share: 40 / 32 ms).
        let short = time(Some(40), Some(40), 0);
        assert_eq!(
            ms(TimePlan::new(&short, 0, 8, false, None)),
            (Some(1), Some(2))
        );
        let gone = time(Some(20), Some(20), 0);
        assert_eq!(
            ms(TimePlan::new(&gone, 0, 8, false, None)),
            (Some(0), Some(0))
        );
        // No limit anywhere: one second; with a fixed budget: none.
        let free = time(None, None, 0);
        assert_eq!(
            ms(TimePlan::new(&free, 0, 8, false, None)),
            (Some(1000), Some(1000))
        );
        assert_eq!(ms(TimePlan::new(&free, 0, 8, true, None)), (None, None));
    }

    #[test]
    fn scores_and_margins() {
        for margin in [-40, -1, 1, 7] {
            assert_eq!(proven_margin(terminal_score(margin)), Some(margin));
            assert!(terminal_score(margin).abs() > WIN_BONUS);
        }
        assert_eq!(terminal_score(0), 0);
        assert_eq!(proven_margin(0), None);
        assert_eq!(proven_margin(4 * 60), None);
        // A finished game scores its margin, from the side to move.
        let pos = Position::parse("0,0/1,1 s 1 1 5", Rules::new(2, 1).unwrap()).unwrap();
        assert!(pos.is_over());
        assert_eq!(Evaluation::default().score(&pos), terminal_score(-2));
        // The evaluation: captured difference and half a seed per row seed.
        let mut pos = Rules::new(6, 4).unwrap().start();
        for _ in 0..6 {
            let legal = pos.legal_moves();
            pos.play(legal.nth(legal.len() / 2).unwrap()).unwrap();
            let me = pos.to_move();
            let diff = pos.captured(me) as i32 - pos.captured(me.opponent()) as i32;
            let rows = pos.row(me).sum() as i32 - pos.row(me.opponent()).sum() as i32;
            assert!(!pos.is_over());
            assert_eq!(
                Evaluation::default().score(&pos),
                4 * diff + 2 * rows,
                "{pos}"
            );
        }
    }

    #[test]
    fn keys_tell_apart_what_values_depend_on() {
        let rules = Rules::new(3, 2).unwrap();
        let key = |text: &str| position_key(&Position::parse(text, rules).unwrap());
        let base = key("2,2,2/2,2,2 s 0 0 10");
        assert_ne!(base, key("2,2,2/2,2,2 n 0 0 10"));
        assert_ne!(base, key("2,2,2/2,2,1 s 0 1 10"));
        assert_ne!(base, key("2,2,2/2,2,2 s 1 0 10")); // not a real position, but a key
                                                       // Far from the ply limit the ply does not matter; near it, it does.
        assert_eq!(base, key("2,2,2/2,2,2 s 0 0 11"));
        assert_ne!(key("2,2,2/2,2,2 s 0 0 900"), key("2,2,2/2,2,2 s 0 0 901"));
        assert_eq!(key("2,2,2/2,2,2 s 0 0 800"), base);
    }

    fn bot(depth: u32) -> AlphaBeta {
        AlphaBeta::new(AlphaBetaOptions {
            depth: Some(depth),
            ..AlphaBetaOptions::default()
        })
    }

    #[test]
    fn fixed_depth_is_reproducible() {
        let rules = Rules::new(8, 4).unwrap();
        let (mut a, mut b) = (bot(5), bot(5));
        let mut pos = rules.start();
        while !pos.is_over() {
            let view = crate::own_view(&pos);
            let ra = a.analyse(&view, view.legal_moves(), &TimeLeft::unlimited());
            let rb = b.analyse(&view, view.legal_moves(), &TimeLeft::unlimited());
            assert_eq!((ra.best, ra.score, ra.nodes), (rb.best, rb.score, rb.nodes));
            assert!(ra.depth <= 5 && !ra.stopped);
            pos.play(ra.best).unwrap();
        }
    }

    #[test]
    fn the_deadline_stops_the_search_after_depth_1() {
        // A hard limit of 0 ms: depth 1 completes whatever the clock says,
        // the next iterations are cut off at the first look at the clock.
        let pos = Rules::new(10, 4).unwrap().start();
        let mut searcher = Searcher::new(Evaluation::default());
        let plan = TimePlan {
            target: None,
            hard: Some(Duration::ZERO),
        };
        let result = searcher.search(&pos, pos.legal_moves(), 60, plan, Instant::now());
        assert!(result.stopped);
        assert!(result.depth >= 1 && result.depth < 60);
        assert!(pos.legal_moves().contains(result.best));
    }

    #[test]
    fn takes_a_proven_win() {
        // 2x3, 1 seed per hole: South wins by 6 with hole 1 only (solved).
        let pos = Rules::new(3, 1).unwrap().start();
        let result = bot(40).analyse(&pos, pos.legal_moves(), &TimeLeft::unlimited());
        assert_eq!(result.best.hole(), 1);
        assert!(result.exact);
        assert_eq!(proven_margin(result.score), Some(6));
        assert_eq!(pos.to_move(), Side::South);
    }

    #[test]
    fn info_line() {
        let pos = Rules::new(6, 4).unwrap().start();
        let mut b = bot(3);
        assert_eq!(b.info(), None);
        let mv = b.choose(&pos, pos.legal_moves());
        assert!(pos.legal_moves().contains(mv));
        let info = b.info().unwrap();
        assert!(info.starts_with("depth 3 score "), "{info}");
        assert_eq!(b.info(), None);
    }
}
