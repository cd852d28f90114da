//! Exact values of small boards: retrograde analysis over the ply horizon.
//!
//! A game of En Dodoi can go round in circles (relay sowing moves seeds without
//! capturing them), so on every board bigger than 2x2 the position graph has
//! cycles and a plain game-tree search to "the end" never ends. RULES.md ends
//! such games at the ply limit (default 1000 plies), where each player takes the
//! seeds of their own row. A position's exact value therefore depends on the
//! plies left, `r = max_plies - ply`, and this module computes it by backward
//! induction over `r` (Bellman 1957, *Dynamic Programming*; in game solving,
//! retrograde analysis, Ströhlein 1970 and Thompson 1986):
//!
//! - `V_0(s)` = the mover's row minus the opponent's row (the ply limit);
//! - `V_r(s)` = the best, over the mover's legal moves, of the seeds the move
//!   captures minus `V_{r-1}` of the position it leads to; a move after which the
//!   opponent has no legal move is worth its capture plus the whole board
//!   (the last mover sweeps, and this end comes before the ply limit).
//!
//! Values are the mover's *future* net gain, final totals minus the seeds
//! captured so far, so they depend only on the board and `r`: the captured
//! totals and the side to move are factored out (each board is seen from the
//! mover's side, as the protocol shows it). The maximiser of the final margin
//! also wins whenever a win is possible, so the sign of the value is the
//! game-theoretic result (win, draw, loss).
//!
//! Every board reachable from the start is enumerated once (breadth first) and
//! ranked by the combinatorial number system (stars and bars over the `2n`
//! holes and the captured seeds), so value tables are flat arrays indexed by
//! rank and need no hashing. The sweeps `V_0, V_1, ...` are a deterministic
//! sequence, so once a layer repeats an earlier one, `V_a = V_b` with `a > b`,
//! every later layer repeats with period `a - b`. The solver looks for such a
//! repetition with Brent's cycle detection (Brent 1980, "An improved Monte
//! Carlo factorization algorithm", *BIT* 20), comparing whole layers (a hash
//! first, then every value), and stops there: the value at `max_plies` follows
//! exactly from the period. On 2x4 with 2 seeds, say, the values settle into
//! a period of 30 plies after about 70 sweeps.
//!
//! ```
//! use endodoi::Rules;
//! use endodoi_bots::solve::{solve, GameValue};
//! let solution = solve(Rules::new(2, 1)?)?;
//! assert_eq!(solution.report().value, GameValue::Win);
//! assert_eq!(solution.report().margin, 4);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;

use endodoi::{Move, Position, Rules, Side};

/// The most boards (the size of the ranked universe) [`solve`] will take on:
/// 2x4 with 4 seeds needs 76,904,685, one byte per board per value table.
pub const MAX_UNIVERSE: u64 = 200_000_000;

/// Layers of values kept for [`Solution::value`]: every one while they take at
/// most this many bytes together, else only the last few.
const KEEP_LAYERS_BYTES: u64 = 256 << 20;

/// An edge whose move ends the game (the opponent has no legal move).
const TERMINAL: u32 = u32::MAX;

/// The game-theoretic result of a position for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameValue {
    /// The side to move can force a win.
    Win,
    /// Neither side can force a win.
    Draw,
    /// The opponent can force a win.
    Loss,
}

impl GameValue {
    /// The result of a final margin (the side's total minus the opponent's).
    #[must_use]
    pub fn of_margin(margin: i32) -> GameValue {
        match margin.signum() {
            1 => GameValue::Win,
            0 => GameValue::Draw,
            _ => GameValue::Loss,
        }
    }
}

impl fmt::Display for GameValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            GameValue::Win => "win",
            GameValue::Draw => "draw",
            GameValue::Loss => "loss",
        })
    }
}

/// Why a board could not be solved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveError {
    /// The ranked universe of boards would have this many members, more than
    /// [`MAX_UNIVERSE`].
    TooBig(u64),
    /// More than 127 seeds: values would not fit the one-byte tables.
    TooManySeeds(u32),
}

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolveError::TooBig(n) => write!(
                f,
                "{n} boards to rank, more than the {MAX_UNIVERSE} this solver takes: try fewer holes or seeds"
            ),
            SolveError::TooManySeeds(n) => {
                write!(f, "{n} seeds in play, more than the 127 this solver takes")
            }
        }
    }
}

impl std::error::Error for SolveError {}

/// What [`solve`] found for the start position, and what it cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolveReport {
    /// Holes per row.
    pub holes: usize,
    /// Seeds per hole at the start.
    pub seeds: u32,
    /// The ply limit the value is for.
    pub max_plies: u32,
    /// The result for South, the first player, under perfect play by both.
    pub value: GameValue,
    /// South's best final margin, South's seeds minus North's, when North
    /// minimises it: the game's value in seeds.
    pub margin: i32,
    /// South's first moves that achieve `margin`.
    pub best_moves: Vec<Move>,
    /// Boards reachable from the start (each seen from the side to move, so a
    /// board and its mirror with the other side to move count once).
    pub positions: u64,
    /// Legal moves out of those boards (edges of the position graph).
    pub moves: u64,
    /// Moves among them that are illegal as endless (RULES.md, "Endless sowing").
    pub endless: u64,
    /// Sweeps of backward induction done: `max_plies`, or fewer if the value
    /// tables started to repeat earlier.
    pub sweeps: u32,
    /// When the value tables repeat: `(from, period)` says that `V_r` equals
    /// `V_{r - period}` for every `r >= from + period` (a period of 1 is a
    /// fixed point). `None` if they did not repeat within `max_plies` sweeps.
    pub cycle: Option<(u32, u32)>,
    /// Move evaluations done in the sweeps (`moves * sweeps`), the work's
    /// node count.
    pub evaluations: u64,
}

/// The boards of `m` holes holding at most `total` seeds, numbered
/// `0..size` by the combinatorial number system: the prefix sums `S_j` make
/// the strictly increasing `S_j + j`, and the board's rank is
/// `sum_j C(S_j + j, j + 1)` (Knuth, TAOCP 4A, 7.2.1.3).
#[derive(Clone, Debug)]
struct Universe {
    m: usize,
    total: u32,
    /// `binom[k * (m + 1) + j]` = C(k, j) for `k <= total + m`, `j <= m`.
    binom: Vec<u64>,
    size: u64,
}

impl Universe {
    fn new(m: usize, total: u32) -> Universe {
        let rows = total as usize + m + 1;
        let mut binom = vec![0u64; rows * (m + 1)];
        for k in 0..rows {
            binom[k * (m + 1)] = 1;
            for j in 1..=m.min(k) {
                binom[k * (m + 1) + j] =
                    binom[(k - 1) * (m + 1) + j - 1].saturating_add(if j < k {
                        binom[(k - 1) * (m + 1) + j]
                    } else {
                        0
                    });
            }
        }
        let size = binom[(rows - 1) * (m + 1) + m];
        Universe {
            m,
            total,
            binom,
            size,
        }
    }

    fn c(&self, k: usize, j: usize) -> u64 {
        self.binom[k * (self.m + 1) + j]
    }

    fn rank(&self, board: &[u32]) -> u64 {
        let mut sum = 0usize;
        let mut rank = 0u64;
        for (j, &h) in board.iter().enumerate() {
            sum += h as usize;
            rank += self.c(sum + j, j + 1);
        }
        rank
    }

    fn unrank(&self, mut rank: u64, board: &mut [u32]) {
        let mut p = self.total as usize + self.m; // one past the largest position
        let mut sums = [0usize; 2 * endodoi::MAX_HOLES];
        for j in (0..self.m).rev() {
            p -= 1;
            while self.c(p, j + 1) > rank {
                p -= 1;
            }
            rank -= self.c(p, j + 1);
            sums[j] = p - j;
        }
        let mut prev = 0;
        for j in 0..self.m {
            board[j] = (sums[j] - prev) as u32;
            prev = sums[j];
        }
    }
}

/// The board of `pos` seen from `side`: `side`'s row, then the other row.
fn view(pos: &Position, side: Side, out: &mut [u32]) {
    let n = pos.holes();
    pos.row(side).copy_to(&mut out[..n]);
    pos.row(side.opponent()).copy_to(&mut out[n..2 * n]);
}

/// A solved board: the report, and the value of the reachable positions at
/// the plies they can be reached at (see [`Solution::value`]).
#[derive(Clone, Debug)]
pub struct Solution {
    rules: Rules,
    universe: Universe,
    reachable: Vec<u64>,
    /// Value tables by rank: `layers[k]` holds `V_{first_layer + k}`.
    layers: Vec<Vec<i8>>,
    first_layer: u32,
    /// The values of the start and its children at every sweep, whatever
    /// `layers` keeps: `watched_values[r * watched.len() + i]` is
    /// `V_r(watched[i])`.
    watched: Vec<u32>,
    watched_values: Vec<i8>,
    report: SolveReport,
}

impl Solution {
    /// The report on the start position.
    #[must_use]
    pub fn report(&self) -> &SolveReport {
        &self.report
    }

    /// The rules solved for.
    #[must_use]
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The exact future net gain of the side to move in `pos`, in seeds: its
    /// final total minus the opponent's, minus the difference captured so far,
    /// under perfect play by both sides to the end of the game (ply limit
    /// included, at `pos.ply()`). 0 for a finished game.
    ///
    /// `None` when `pos` is not of these rules (holes, seeds, `max_laps` or
    /// `max_plies` differ), its board cannot be reached from the start, or the
    /// table for its ply was not kept: every table is kept up to 256 MiB of
    /// them (all boards up to 2x4 with 1 seed, and 2x3 with up to 4), else only
    /// the start and its children are known.
    #[must_use]
    pub fn value(&self, pos: &Position) -> Option<i32> {
        if pos.rules() != &self.rules {
            return None;
        }
        if pos.is_over() {
            return Some(0);
        }
        let mut board = [0u32; 2 * endodoi::MAX_HOLES];
        let m = 2 * pos.holes();
        view(pos, pos.to_move(), &mut board[..m]);
        if board[..m].iter().sum::<u32>() > self.universe.total {
            return None;
        }
        let rank = self.universe.rank(&board[..m]);
        if self.reachable[(rank / 64) as usize] & (1 << (rank % 64)) == 0 {
            return None;
        }
        let r = self.rules.max_plies().checked_sub(pos.ply())?;
        self.value_at(rank, r).map(i32::from)
    }

    /// The exact final margin for the side to move after each legal move in
    /// `pos`, counting from the seeds captured so far: the move's gain now
    /// minus the opponent's best future gain afterwards. `None` as for
    /// [`Solution::value`].
    #[must_use]
    pub fn move_values(&self, pos: &Position) -> Option<Vec<(Move, i32)>> {
        let me = pos.to_move();
        let before = pos.captured(me) as i32 - pos.captured(me.opponent()) as i32;
        pos.legal_moves()
            .into_iter()
            .map(|mv| {
                let mut next = pos.clone();
                next.play(mv).ok()?;
                let now = next.captured(me) as i32 - next.captured(me.opponent()) as i32;
                Some((mv, now - before - self.value(&next)?))
            })
            .collect()
    }

    /// `V_r` of the board ranked `rank`, from the tables kept.
    fn value_at(&self, rank: u64, r: u32) -> Option<i8> {
        let last = self.report.sweeps;
        // Past the last sweep, the tables repeat.
        let r = match self.report.cycle {
            Some((from, period)) if r > last => from + (r - from) % period,
            _ => r,
        };
        if r > last {
            return None;
        }
        if r >= self.first_layer {
            return Some(self.layers[(r - self.first_layer) as usize][rank as usize]);
        }
        let i = self.watched.iter().position(|&w| u64::from(w) == rank)?;
        Some(self.watched_values[r as usize * self.watched.len() + i])
    }
}

/// A 64-bit fingerprint of a value table over `states` (FNV-1a), to rule
/// out most unequal tables before comparing them value by value.
fn fingerprint(table: &[i8], states: &[u32]) -> u64 {
    states.iter().fold(0xcbf2_9ce4_8422_2325, |h, &s| {
        (h ^ u64::from(table[s as usize] as u8)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Solves the start position of `rules` exactly (see the module docs):
/// enumerates every reachable board, then runs backward induction over the
/// plies left until `rules.max_plies()`, or until the value tables repeat.
///
/// Memory: one byte per ranked board per value table (four or five tables,
/// more on small boards), four bytes per position and five per move; 2x4
/// with 4 seeds needs about 2 GB and some minutes, the boards up to 2x3
/// well under a second.
///
/// # Errors
/// [`SolveError::TooBig`] when more than [`MAX_UNIVERSE`] boards would have to
/// be ranked (boards beyond 2x4 with 4 seeds, or 2x5 with 3);
/// [`SolveError::TooManySeeds`] above 127 seeds.
pub fn solve(rules: Rules) -> Result<Solution, SolveError> {
    solve_with(rules, true)
}

/// [`solve`], with the search for repeating tables on or off (off: all
/// `max_plies` sweeps, the plain definition, for tests).
fn solve_with(rules: Rules, detect_cycles: bool) -> Result<Solution, SolveError> {
    let n = rules.holes();
    let m = 2 * n;
    let total = rules.total_seeds();
    if total > 127 {
        return Err(SolveError::TooManySeeds(total));
    }
    let universe = Universe::new(m, total);
    if universe.size > MAX_UNIVERSE {
        return Err(SolveError::TooBig(universe.size));
    }
    let graph = explore(rules, &universe);
    // The start and its children, whose values every sweep records.
    let watched: Vec<u32> = match graph.states.first() {
        Some(&s) => std::iter::once(s)
            .chain(
                graph.child[..graph.first[1] as usize]
                    .iter()
                    .copied()
                    .filter(|&c| c != TERMINAL),
            )
            .collect(),
        None => Vec::new(),
    };

    let Induction {
        layers,
        first_layer,
        watched_values,
        sweeps,
        cycle,
    } = induce(rules, &universe, &graph, &watched, detect_cycles);
    let Graph {
        reachable,
        states,
        child,
        endless,
        ..
    } = graph;
    let start = rules.start();
    let max_plies = rules.max_plies();
    let moves = child.len() as u64;
    let mut solution = Solution {
        rules,
        universe,
        reachable,
        layers,
        first_layer,
        watched,
        watched_values,
        report: SolveReport {
            holes: n,
            seeds: rules.seeds(),
            max_plies,
            value: GameValue::Draw,
            margin: 0,
            best_moves: Vec::new(),
            positions: states.len() as u64,
            moves,
            endless,
            sweeps,
            cycle,
            evaluations: moves * u64::from(sweeps),
        },
    };
    if !start.is_over() {
        let margin = solution.value(&start).expect("the start is solved");
        let best = solution
            .move_values(&start)
            .expect("the start's moves are solved")
            .into_iter()
            .filter(|&(_, v)| v == margin)
            .map(|(mv, _)| mv)
            .collect();
        solution.report.margin = margin;
        solution.report.value = GameValue::of_margin(margin);
        solution.report.best_moves = best;
    }
    Ok(solution)
}

/// The boards reachable from the start of `rules`, each seen from the side
/// to move, and their moves: `first[i]..first[i + 1]` are the moves of
/// `states[i]`, each to `child` (a rank, or [`TERMINAL`]) with the mover's
/// `gain`; `endless` counts the moves that never end.
struct Graph {
    /// The ranks seen, a bit each.
    reachable: Vec<u64>,
    /// The ranks of the boards, in breadth-first order.
    states: Vec<u32>,
    /// Where each board's moves start in `child` and `gain`.
    first: Vec<u32>,
    /// Each move's board after it, or [`TERMINAL`].
    child: Vec<u32>,
    /// The seeds each move captures for its mover (the margin, at the end).
    gain: Vec<i8>,
    /// Moves that never end.
    endless: u64,
}

/// Breadth first over the boards reachable from the start of `rules`.
fn explore(rules: Rules, universe: &Universe) -> Graph {
    let n = rules.holes();
    let m = 2 * n;
    // Positions are built at ply 1 under no ply limit: the induction applies
    // the limit itself, and ply 1 keeps the engine's ply-0 rule out.
    let explore = rules
        .with_max_plies(u32::MAX)
        .expect("u32::MAX plies is a valid limit");
    let mut reachable = vec![0u64; universe.size.div_ceil(64) as usize];
    let mark = |set: &mut Vec<u64>, rank: u64| -> bool {
        let (word, bit) = ((rank / 64) as usize, 1u64 << (rank % 64));
        let new = set[word] & bit == 0;
        set[word] |= bit;
        new
    };
    let start = rules.start();
    let mut board = [0u32; 2 * endodoi::MAX_HOLES];
    view(&start, Side::South, &mut board[..m]);
    let start_rank = universe.rank(&board[..m]);
    let mut states: Vec<u32> = Vec::new();
    let mut first: Vec<u32> = vec![0];
    let mut child: Vec<u32> = Vec::new();
    let mut gain: Vec<i8> = Vec::new();
    let mut endless = 0u64;
    if !start.is_over() {
        mark(&mut reachable, start_rank);
        states.push(start_rank as u32);
    }
    let mut next = 0;
    let mut child_board = [0u32; 2 * endodoi::MAX_HOLES];
    while next < states.len() {
        universe.unrank(u64::from(states[next]), &mut board[..m]);
        next += 1;
        let pos = Position::from_parts(explore, &board[..n], &board[n..m], Side::South, [0, 0], 1)
            .expect("a ranked board fits the rules");
        for mv in pos.candidate_moves() {
            let mut after = pos.clone();
            if after.play(mv).is_err() {
                endless += 1;
                continue;
            }
            let mine = after.captured(Side::South) as i32;
            let theirs = after.captured(Side::North) as i32;
            if after.is_over() {
                // The opponent cannot move: the mover swept the board.
                child.push(TERMINAL);
                gain.push((mine - theirs) as i8);
            } else {
                view(&after, Side::North, &mut child_board[..m]);
                let rank = universe.rank(&child_board[..m]);
                if mark(&mut reachable, rank) {
                    states.push(rank as u32);
                }
                child.push(rank as u32);
                gain.push(mine as i8);
            }
        }
        first.push(u32::try_from(child.len()).expect("fewer than 2^32 moves"));
    }
    Graph {
        reachable,
        states,
        first,
        child,
        gain,
        endless,
    }
}

/// What backward induction leaves: the layers kept (the last ones, from
/// `first_layer`), the watched boards' values after each sweep, the sweeps
/// made, and the cycle of whole tables found (its start and period).
struct Induction {
    layers: Vec<Vec<i8>>,
    first_layer: u32,
    watched_values: Vec<i8>,
    sweeps: u32,
    cycle: Option<(u32, u32)>,
}

/// Backward induction over `graph` up to the ply limit of `rules` (or a
/// cycle of whole tables, with `detect_cycles`), recording the `watched`
/// boards' values.
fn induce(
    rules: Rules,
    universe: &Universe,
    graph: &Graph,
    watched: &[u32],
    detect_cycles: bool,
) -> Induction {
    let n = rules.holes();
    let m = 2 * n;
    let mut board = [0u32; 2 * endodoi::MAX_HOLES];
    let Graph {
        states,
        first,
        child,
        gain,
        ..
    } = graph;
    // Backward induction. V_0: the ply limit, each side takes its own row.
    let size = universe.size as usize;
    let max_plies = rules.max_plies();
    let mut v0 = vec![0i8; size];
    for &s in states {
        universe.unrank(u64::from(s), &mut board[..m]);
        let mine: u32 = board[..n].iter().sum();
        let theirs: u32 = board[n..m].iter().sum();
        v0[s as usize] = (mine as i32 - theirs as i32) as i8;
    }
    let mut watched_values: Vec<i8> = watched.iter().map(|&w| v0[w as usize]).collect();
    // Brent's cycle detection over whole tables: `saved` is V_{saved_at}.
    let mut saved = (v0.clone(), fingerprint(&v0, states), 0u32);
    let mut prev_print = saved.1;
    let (mut power, mut lambda) = (1u32, 0u32);
    let mut layers: Vec<Vec<i8>> = vec![v0];
    let mut first_layer = 0u32;
    let mut sweeps = 0u32;
    let mut cycle = None;
    while sweeps < max_plies {
        let kept = (layers.len() as u64 + 1) * universe.size;
        let mut cur = if kept <= KEEP_LAYERS_BYTES || layers.len() < 2 {
            vec![0i8; size]
        } else {
            first_layer += 1;
            layers.remove(0)
        };
        let prev = layers.last().expect("at least one layer");
        for (i, &s) in states.iter().enumerate() {
            let mut best = i32::MIN;
            for e in first[i] as usize..first[i + 1] as usize {
                let g = i32::from(gain[e]);
                let v = match child[e] {
                    TERMINAL => g,
                    c => g - i32::from(prev[c as usize]),
                };
                best = best.max(v);
            }
            cur[s as usize] = best as i8;
        }
        sweeps += 1;
        watched_values.extend(watched.iter().map(|&w| cur[w as usize]));
        let print = fingerprint(&cur, states);
        let same = |print_b: u64, b: &[i8]| {
            print == print_b && states.iter().all(|&s| cur[s as usize] == b[s as usize])
        };
        // A fixed point is caught at once, longer periods by Brent's method.
        let repeats = if detect_cycles && same(prev_print, prev) {
            Some(sweeps - 1)
        } else if detect_cycles && same(saved.1, &saved.0) {
            Some(saved.2)
        } else {
            None
        };
        prev_print = print;
        if let Some(from) = repeats {
            cycle = Some((from, sweeps - from));
            layers.push(cur);
            break;
        }
        lambda += 1;
        if lambda == power {
            saved.0.copy_from_slice(&cur);
            saved.1 = print;
            saved.2 = sweeps;
            power = power.saturating_mul(2);
            lambda = 0;
        }
        layers.push(cur);
    }

    Induction {
        layers,
        first_layer,
        watched_values,
        sweeps,
        cycle,
    }
}

/// Checks that `rules` can be solved, without solving: the same errors as
/// [`solve`], at once.
///
/// # Errors
/// As [`solve`].
pub fn check(rules: &Rules) -> Result<(), SolveError> {
    let total = rules.total_seeds();
    if total > 127 {
        return Err(SolveError::TooManySeeds(total));
    }
    let size = Universe::new(2 * rules.holes(), total).size;
    if size > MAX_UNIVERSE {
        return Err(SolveError::TooBig(size));
    }
    Ok(())
}

/// The header of [`table_row`]'s table (Markdown).
pub const TABLE_HEADER: &str = "| board | seeds | South's result | South's margin | best first moves | positions | moves | endless moves | sweeps | period | move evaluations | time |\n|---|---|---|---|---|---|---|---|---|---|---|---|";

/// One row of the table `arena solve` prints (Markdown), for a report and
/// the time it took.
#[must_use]
pub fn table_row(report: &SolveReport, elapsed: std::time::Duration) -> String {
    let moves: Vec<String> = report.best_moves.iter().map(Move::to_string).collect();
    let period = match report.cycle {
        Some((_, p)) => p.to_string(),
        None => "none".to_string(),
    };
    let thousands = |n: u64| {
        let digits = n.to_string();
        let mut out = String::new();
        for (i, c) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i).is_multiple_of(3) {
                out.push(',');
            }
            out.push(c);
        }
        out
    };
    format!(
        "| 2x{} | {} | {} | {:+} | {} | {} | {} | {} | {} | {} | {} | {:.2} s |",
        report.holes,
        report.seeds,
        report.value,
        report.margin,
        moves.join(" "),
        thousands(report.positions),
        thousands(report.moves),
        thousands(report.endless),
        report.sweeps,
        period,
        thousands(report.evaluations),
        elapsed.as_secs_f64()
    )
}

/// Why a table of boards cannot be solved: the board, and why.
#[derive(Debug)]
pub enum TableError {
    /// Bad rules for a board.
    Rules {
        /// Holes per row.
        holes: u8,
        /// Seeds per hole.
        seeds: u32,
        /// Why.
        error: endodoi::RulesError,
    },
    /// A board this solver does not take.
    Solve {
        /// Holes per row.
        holes: u8,
        /// Seeds per hole.
        seeds: u32,
        /// Why.
        error: SolveError,
    },
    /// The table could not be written.
    Write(std::io::Error),
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableError::Rules {
                holes,
                seeds,
                error,
            } => {
                write!(f, "2x{holes} with {seeds} seeds: {error}")
            }
            TableError::Solve {
                holes,
                seeds,
                error,
            } => {
                write!(f, "2x{holes} with {seeds} seeds: {error}")
            }
            TableError::Write(e) => write!(f, "cannot write the table: {e}"),
        }
    }
}

impl std::error::Error for TableError {}

/// Solves every board of `holes` x `seeds` under the given ply and lap
/// limits and writes the table to `out` (header, then a row per board as
/// soon as it is solved, flushed): what `arena solve` does.
///
/// # Errors
/// [`TableError`]: the first board that cannot be solved (bad rules, or
/// [`check`] fails), before any work is done; or `out` fails (a closed
/// pipe only ends the table).
pub fn write_table(
    holes: &[u8],
    seeds: &[u32],
    max_plies: u32,
    max_laps: u32,
    out: &mut dyn std::io::Write,
) -> Result<(), TableError> {
    let mut boards = Vec::new();
    for &h in holes {
        for &s in seeds {
            let rules = Rules::new(usize::from(h), s)
                .and_then(|r| r.with_max_plies(max_plies))
                .and_then(|r| r.with_max_laps(max_laps))
                .map_err(|error| TableError::Rules {
                    holes: h,
                    seeds: s,
                    error,
                })?;
            check(&rules).map_err(|error| TableError::Solve {
                holes: h,
                seeds: s,
                error,
            })?;
            boards.push((h, s, rules));
        }
    }
    // A reader that went away (`arena solve | head`) ends the table.
    let closed = |e: &std::io::Error| e.kind() == std::io::ErrorKind::BrokenPipe;
    match writeln!(out, "{TABLE_HEADER}") {
        Err(e) if closed(&e) => return Ok(()),
        r => r.map_err(TableError::Write)?,
    }
    for (h, s, rules) in boards {
        let start = std::time::Instant::now();
        let solution = solve(rules).map_err(|error| TableError::Solve {
            holes: h,
            seeds: s,
            error,
        })?;
        match writeln!(out, "{}", table_row(solution.report(), start.elapsed()))
            .and_then(|()| out.flush())
        {
            Err(e) if closed(&e) => return Ok(()),
            r => r.map_err(TableError::Write)?,
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_are_a_bijection() {
        let u = Universe::new(4, 3);
        assert_eq!(u.size, 35); // C(7, 4)
        let mut seen = vec![false; u.size as usize];
        let mut board = [0u32; 4];
        for a in 0..=3 {
            for b in 0..=3 - a {
                for c in 0..=3 - a - b {
                    for d in 0..=3 - a - b - c {
                        let rank = u.rank(&[a, b, c, d]) as usize;
                        assert!(!seen[rank]);
                        seen[rank] = true;
                        u.unrank(rank as u64, &mut board);
                        assert_eq!(board, [a, b, c, d]);
                    }
                }
            }
        }
        assert!(seen.iter().all(|&s| s));
    }

    /// Plain minimax over the real engine, ply limit included: the reference
    /// for tiny boards (exponential, so only with a small ply limit).
    fn minimax(pos: &Position) -> i32 {
        let me = pos.to_move();
        let diff = |p: &Position| p.captured(me) as i32 - p.captured(me.opponent()) as i32;
        if pos.is_over() {
            return 0;
        }
        pos.legal_moves()
            .into_iter()
            .map(|mv| {
                let mut next = pos.clone();
                next.play(mv).unwrap();
                diff(&next) - diff(pos) - minimax(&next)
            })
            .max()
            .unwrap()
    }

    #[test]
    fn agrees_with_minimax_under_a_short_ply_limit() {
        for (holes, seeds, plies) in [(2, 1, 12), (2, 2, 12), (2, 3, 12), (3, 1, 9), (3, 2, 8)] {
            let rules = Rules::new(holes, seeds)
                .unwrap()
                .with_max_plies(plies)
                .unwrap();
            let solution = solve(rules).unwrap();
            let start = rules.start();
            assert_eq!(
                solution.report().margin,
                minimax(&start),
                "2x{holes} with {seeds} seeds, {plies} plies"
            );
            // And at every position of a few lines of play.
            let mut pos = start;
            while !pos.is_over() {
                assert_eq!(solution.value(&pos), Some(minimax(&pos)), "{pos}");
                let mv = pos.legal_moves().into_iter().last().unwrap();
                pos.play(mv).unwrap();
            }
        }
    }

    #[test]
    fn repeating_tables_give_the_values_of_all_sweeps() {
        // 2x4 with 2 seeds repeats with period 30; the others reach fixed
        // points or period 2. Compare with every sweep done, positions along
        // a game included.
        for (holes, seeds, plies) in [(4, 1, 200), (3, 3, 150), (4, 2, 130), (3, 4, 101)] {
            let rules = Rules::new(holes, seeds)
                .unwrap()
                .with_max_plies(plies)
                .unwrap();
            let fast = solve(rules).unwrap();
            let full = solve_with(rules, false).unwrap();
            assert!(fast.report().cycle.is_some(), "2x{holes} with {seeds}");
            assert!(fast.report().sweeps < plies);
            assert_eq!(full.report().sweeps, plies);
            assert_eq!(fast.report().margin, full.report().margin);
            assert_eq!(fast.report().best_moves, full.report().best_moves);
            let mut pos = rules.start();
            let mut i = 0;
            while !pos.is_over() {
                assert!(fast.value(&pos).is_some(), "{pos}");
                assert_eq!(fast.value(&pos), full.value(&pos), "{pos}");
                let legal = pos.legal_moves();
                pos.play(legal.nth(i % legal.len()).unwrap()).unwrap();
                i += 7;
            }
        }
    }

    #[test]
    fn margin_and_result_agree() {
        let solution = solve(Rules::new(2, 2).unwrap()).unwrap();
        let report = solution.report();
        assert_eq!(report.value, GameValue::of_margin(report.margin));
        assert!(!report.best_moves.is_empty());
        assert!(report.positions > 0 && report.moves >= report.positions);
    }

    #[test]
    fn refuses_big_boards() {
        assert!(matches!(
            solve(Rules::new(6, 4).unwrap()),
            Err(SolveError::TooBig(_))
        ));
    }
}
