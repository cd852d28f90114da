//! The live view of a run in the browser: `arena run --serve` and
//! `arena serve DIR` (docs/live.md). [`state`] holds what the page shows,
//! fed by the runner's events and its watch feed, or by [`follow`], which
//! follows a run folder's `games.csv` as it grows, and [`records`] keeps
//! each bot's latest series for a league; [`server`] serves the
//! page, its event stream and the report over HTTP on a thread of its own.

pub mod follow;
pub mod records;
pub mod server;
pub mod state;

pub use server::{bind, parse_addr, ServeError, Server, DEFAULT_ADDR};
pub use state::{LiveState, Setup, Update};
