//! # arena: round-robin tournaments of external En Dodoi bots
//!
//! The library behind the `arena` binary. See README.md and docs/ for the
//! user's view, and docs/architecture.md for its layers.

#![warn(missing_docs)]

pub mod affinity;
pub mod bot;
pub mod cgroup;
pub mod check;
pub mod commands;
pub mod config;
pub mod format;
pub mod guard;
pub mod html;
pub mod live;
pub mod matchup;
pub mod output;
pub mod platform;
pub mod play;
pub mod progress;
pub mod rate;
pub mod referee;
pub mod replay;
pub mod report;
pub mod reporter;
pub mod runner;
pub mod sandbox;
pub mod schedule;
pub mod series;
pub mod shard;
pub mod shards;
pub mod standings;
pub mod stats;
pub mod tune;
pub mod tunechart;
