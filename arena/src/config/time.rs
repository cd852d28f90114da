//! The `[time]` table: every bot's clocks, in ms.

use serde::Deserialize;
use toml::Spanned;

use super::errors::{span_of, ConfigError, Place};

/// Time limits, all in ms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// The most one reply to `turn` may take, ms; 0 for no per-move limit.
    pub move_time_ms: u64,
    /// The game clock's starting time, ms; 0 for no game clock.
    pub base_time_ms: u64,
    /// Added to a bot's game clock after each of its moves, ms.
    pub increment_ms: u64,
    /// Extra time granted past every deadline to absorb scheduling noise, ms.
    pub margin_ms: u64,
    /// The limit for a bot's `hello` and `ready` replies, ms.
    pub startup_ms: u64,
}

impl TimeControl {
    /// A per-move limit of `move_time_ms` alone (no game clock), with
    /// `startup_ms` for the start-up and the default margin: the clocks of
    /// `arena check` and `arena play`.
    #[must_use]
    pub const fn per_move(move_time_ms: u64, startup_ms: u64) -> TimeControl {
        TimeControl {
            move_time_ms,
            base_time_ms: 0,
            increment_ms: 0,
            margin_ms: DEFAULT_MARGIN_MS,
            startup_ms,
        }
    }
}

/// The default per-move limit, ms.
pub const DEFAULT_MOVE_TIME_MS: u64 = 1000;
/// The default margin past each deadline, ms.
pub const DEFAULT_MARGIN_MS: u64 = 50;
/// The default start-up limit, ms.
pub const DEFAULT_STARTUP_MS: u64 = 5000;

/// The longest clock of any kind, ms: a day.
pub(super) const DAY_MS: i64 = 86_400_000;

/// The `[time]` table as written.
#[derive(Deserialize, Default)]
#[serde(
    deny_unknown_fields,
    expecting = "a table ([time] on a line of its own, its keys below)"
)]
pub(super) struct RawTime {
    pub(super) move_time_ms: Option<Spanned<i64>>,
    pub(super) base_time_ms: Option<Spanned<i64>>,
    pub(super) increment_ms: Option<Spanned<i64>>,
    pub(super) margin_ms: Option<Spanned<i64>>,
    pub(super) startup_ms: Option<Spanned<i64>>,
}

/// Checks `[time]` `t`: each clock in range, and some limit on a move.
pub(super) fn time_control(t: &RawTime, p: &Place<'_>) -> Result<TimeControl, ConfigError> {
    let time = TimeControl {
        move_time_ms: p.int(
            &t.move_time_ms,
            "time.move_time_ms",
            0,
            DAY_MS,
            DEFAULT_MOVE_TIME_MS as i64,
        )? as u64,
        base_time_ms: p.int(&t.base_time_ms, "time.base_time_ms", 0, DAY_MS, 0)? as u64,
        increment_ms: p.int(&t.increment_ms, "time.increment_ms", 0, DAY_MS, 0)? as u64,
        margin_ms: p.int(
            &t.margin_ms,
            "time.margin_ms",
            0,
            60_000,
            DEFAULT_MARGIN_MS as i64,
        )? as u64,
        startup_ms: p.int(
            &t.startup_ms,
            "time.startup_ms",
            1,
            600_000,
            DEFAULT_STARTUP_MS as i64,
        )? as u64,
    };
    if time.move_time_ms == 0 && time.base_time_ms == 0 {
        return Err(p.at(
            span_of(&t.move_time_ms),
            "time.move_time_ms = 0 and no game clock leaves moves unlimited: set move_time_ms or base_time_ms above 0",
        ));
    }
    Ok(time)
}
