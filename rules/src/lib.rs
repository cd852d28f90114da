//! # endodoi: the rules of En Dodoi
//!
//! En Dodoi is the two-row mancala of the Maasai of northern Tanzania, recorded
//! by Merker (1904, *Die Masai*) and described on Mancala World's "En Dodoi"
//! page; with 40 to 50 holes per row the same rules are "En Gehé". This crate
//! implements the project's normative rule book, `RULES.md`:
//!
//! - two rows of `n` holes (2 to 50), `seeds` seeds in each hole at the start;
//! - a move lifts a hole of the mover's own row and sows counterclockwise, one
//!   seed per hole, the emptied hole not skipped; a lap that ends in an occupied
//!   hole lifts that hole and sows on (relay sowing);
//! - a move that ends in an empty hole of the mover's own row captures the
//!   opposite hole's seeds and the triggering seed, if the opposite hole is occupied;
//! - a move still sowing at lap `max_laps` is endless, and not legal;
//! - a player without a legal move ends the game, and the last mover sweeps the
//!   board; at the ply limit each player takes their own row.
//!
//! The crate is pure: no I/O, no async, no allocation when a move is generated
//! or played ([`Position::laps`] shows a move lap by lap, also without
//! allocating). Holes are numbered 1..=n from each player's own left; the ring
//! index of South's hole `i` is `i - 1` and of North's hole `i` is `n + i - 1`.
//! Seed, lap and ply counts are `u32` (seeds sown in one move: `u64`), hole
//! counts `usize` and hole numbers `u8`.
//!
//! Fallible calls return [`RulesError`] (bad rule parameters),
//! [`ParsePositionError`] (bad position text or parts), [`ParseSideError`] and
//! [`IllegalMove`] (a move that cannot be played). The only panics are
//! [`Position::seeds`] with a hole outside 1..=n, and the ply counter
//! overflowing in [`Position::play_unchecked`] (see there).
//!
//! The types that model a rule ([`Rules`], [`Side`], [`Move`], [`Position`],
//! [`Capture`], [`IllegalMove`], [`Termination`], [`Outcome`]) say which
//! section of `RULES.md` they follow.
//!
//! ```
//! use endodoi::{Rules, Side};
//! let rules = Rules::new(8, 4)?;
//! let mut pos = rules.start();
//! while let Some(mv) = pos.legal_moves().first() {
//!     pos.play(mv)?;
//! }
//! let outcome = pos.outcome().expect("the game is over");
//! assert_eq!(pos.captured(Side::South) + pos.captured(Side::North), rules.total_seeds());
//! println!("{} after {} plies: {:?}", outcome.termination, pos.ply(), outcome.winner);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod game;
mod moves;
mod perft;
mod position;
mod results;
mod ring;
mod rules;
mod side;
mod sowing;
mod swar;

pub use moves::{Move, MoveSet, MoveSetIter};
pub use perft::perft;
pub use position::{ParsePositionError, Position};
pub use results::{Capture, IllegalMove, MoveDetails, Outcome, Termination};
pub use ring::{Seeds, SeedsIter};
pub use rules::{Rules, RulesError, DEFAULT_MAX_LAPS, DEFAULT_MAX_PLIES, MAX_HOLES, MIN_HOLES};
pub use side::{ParseSideError, Side};
pub use sowing::{Lap, Laps};
