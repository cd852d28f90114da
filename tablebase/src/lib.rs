//! # endodoi-tablebase: endgame tables for En Dodoi
//!
//! Exact forced results of every position of a 2xH board with few seeds on
//! the board, by retrograde analysis, layer by layer. Pure: no I/O (the
//! [`encode_layer`] and [`decode_layer`] bytes are written and read by the
//! caller, `arena tablebase build`). The rules are the project's `RULES.md`
//! through the `endodoi` engine, which generates every move.
//!
//! ## What a position is
//! Captured seeds never return to the board, and how the game ends (the last
//! mover sweeps the board; at the ply limit each side takes its own row)
//! depends only on the board. So from any position, what both players will
//! still gain depends only on the board and on who is to move: a position of
//! the tables is the board seen from the side to move (its row, holes 1 to
//! H, then the opponent's row, holes 1 to H, each from its owner's left), and
//! its value is a **margin from here**: the mover's future seeds minus the
//! opponent's, counting the captures still to come and the seeds the end of
//! the game hands out. Add the seeds captured so far for the final score.
//! The layer `k` holds the `C(k + 2H - 1, 2H - 1)` boards with `k` seeds
//! ([`Index`] ranks them).
//!
//! ## What the table holds
//! A relay-sowing move that captures nothing keeps the seeds on the board, so
//! within a layer play can go round in cycles; RULES.md ends such a game only
//! at the ply limit (each side takes its own row), a result that depends on
//! the plies left. The table therefore holds, per position ([`Value`]):
//! - `lo`, the best margin the mover can **force with the game ending**:
//!   a strategy under which every line ends (a player without a legal move,
//!   the other sweeps) with at least that margin;
//! - `hi`, the worst margin (for the mover) the opponent can force with the
//!   game ending;
//! - `plies`: both strategies end the game within that many plies.
//!
//! Always `lo <= hi` (play both strategies against each other). Where they
//! agree the position is *resolved*: with at least `plies` plies left before
//! the ply limit, the value of the game under perfect play is exactly that
//! margin, whatever the limit. Where they differ (or one is missing), the
//! best play of a side needs the ply limit, and the table only bounds the
//! value by the forced ends (an *unresolved* position). A position whose
//! mover has no legal move is resolved at `-k` in 0 plies: the opponent, the
//! last mover, sweeps the board. (The rule for a game whose first player has
//! no move at all, each side taking its own row, never applies: a table
//! position always has a last mover.)
//!
//! Endless moves (RULES.md, "Endless sowing") are not legal moves, so a
//! table is for one lap limit ([`Tables::max_laps`], default 100,000).
//!
//! ## How it is computed
//! Layers are built from 0 seeds up. A capturing move goes to a layer below,
//! already known; a move that ends the game is worth its capture plus the
//! whole board. For the non-capturing moves within the layer, the builder
//! uses the standard retrograde analysis of games with cycles by attractors
//! with successor counting (as in Awari's database, Romein and Bal 2002,
//! "Solving Awari with Parallel Retrograde Analysis", *IEEE Computer* 36(10);
//! the counting algorithm goes back to Thompson 1986 and Ströhlein 1970):
//! for every threshold `t` (margins have the parity of `k`), the set of
//! positions from which the mover can force an end with margin `>= t` and
//! the set from which the opponent can force an end with its own margin `>=
//! t` are one least fixed point. A position joins the first when one move
//! leads into the second; it joins the second when every move leads into the
//! first, found by counting each position's moves down. The least fixed
//! point holds exactly the forced *ends*: a cycle never enters it. `lo` is the
//! highest `t` of the first set and `hi` minus the highest of the second.
//! The fixed point is reached in order of depth (a bucket queue, Dijkstra
//! order), so `plies` is the fewest plies within the layer; across layers it
//! uses the stored `plies` of the positions below, an upper bound.
//!
//! ```
//! let tables = endodoi_tablebase::build(2, 3)?;
//! let stats = tables.layers()[3].stats();
//! assert_eq!(stats.positions, 20); // C(6, 3)
//! assert_eq!(stats.resolved, stats.won + stats.drawn + stats.lost);
//! # Ok::<(), endodoi_tablebase::BuildError>(())
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod adjudicate;
mod attractor;
mod build;
mod file;
mod index;
mod judge;
mod layer_graph;
#[cfg(test)]
mod reference;
mod value;

pub use adjudicate::{adjudicate, Adjudication};
pub use build::{build, BuildError, Layer, LayerStats, Tables, MAX_LAYER_POSITIONS};
pub use file::{crc32, decode_layer, encode_layer, FileError, Header, FORMAT_VERSION};
pub use index::Index;
pub use judge::{judge_game, judge_move, move_bound, move_value, GameError, Judged, Verdict};
pub use value::{Value, MAX_SEEDS_ON_BOARD};
