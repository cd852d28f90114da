//! # endodoi-python: the En Dodoi rules engine for Python
//!
//! The Python package `endodoi` (built by maturin from this crate with the
//! `python` feature; see `docs/python.md`) exposes the rules crate
//! [`endodoi`] to Python: `Rules`, `Position`, the legal moves, `play`, the
//! laps of a move, the outcome, the text format, and the protocol's `turn`
//! line both ways. This crate's plain-Rust part, always built, holds what
//! the bindings add to the engine, so it is unit-tested without Python:
//!
//! - [`batch`]: seeded random playouts and every legal move's resulting
//!   position in one call, so Python pays the interpreter once per batch;
//! - [`turn`]: a [`Position`](endodoi::Position) from a `turn` request and
//!   the side the bot plays, and back;
//! - [`observation`]: the mover's view of a position as the environments
//!   show it;
//! - [`ratings`]: games given as arrays (bot indices and South's results)
//!   rated by the crate `endodoi-ratings` as `arena rate` rates a
//!   `games.csv`, for `endodoi.ratings`.
//!
//! The bindings (module `py`, behind the `python` feature) only convert
//! arguments and errors: a bad argument from Python is a `ValueError`, an
//! illegal move an `endodoi.IllegalMoveError` (a `ValueError`), never a panic.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod batch;
pub mod observation;
pub mod ratings;
pub mod turn;

#[cfg(feature = "python")]
mod py;
