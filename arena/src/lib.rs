//! # arena: round-robin tournaments of external En Dodoi bots
//!
//! The library behind the `arena` binary. See README.md for the user's view.

#![warn(missing_docs)]

pub mod stats;
