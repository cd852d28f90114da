//! The `[tournament]` table's settings of how series are played and
//! scheduled (its format keys are checked in `format`).

use serde::Deserialize;
use toml::Spanned;

use super::errors::{ConfigError, Place};

/// How series are played and scheduled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TournamentSettings {
    /// Wins that take a series.
    pub first_to: u32,
    /// The most games in one series; the leader then takes it, or it is drawn.
    pub max_games: u32,
    /// Series played at once (each plays its games one after another); a
    /// two-bot match plays this many games at once instead, on lanes.
    pub concurrency: usize,
    /// The tournament's seed: it fixes the bootstrap of the ratings.
    pub seed: u64,
    /// What to do when a bot fails its start-up check, before any game.
    pub on_start_failure: OnStartFailure,
    /// Pin each series worker, with the bots it starts, to one core (worker
    /// k to the k-th allowed core, cycling), so a game's round trips never
    /// cross cores. For single-threaded bots: a bot's threads share the core.
    pub affinity: bool,
}

/// What to do when a bot fails its start-up check before the first game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum OnStartFailure {
    /// Stop with an error naming the bot (the default).
    Stop,
    /// Leave the bot out of the schedule and play on without it.
    Skip,
}

/// The default wins that take a series.
pub const DEFAULT_FIRST_TO: u32 = 5;
/// The default tournament seed.
pub const DEFAULT_SEED: u64 = 1;

/// The `[tournament]` table as written.
#[derive(Deserialize, Default)]
#[serde(
    deny_unknown_fields,
    expecting = "a table ([tournament] on a line of its own, its keys below)"
)]
pub(super) struct RawTournament {
    pub(super) first_to: Option<Spanned<i64>>,
    pub(super) max_games: Option<Spanned<i64>>,
    pub(super) concurrency: Option<Spanned<i64>>,
    pub(super) seed: Option<Spanned<i64>>,
    pub(super) on_start_failure: Option<OnStartFailure>,
    pub(super) affinity: Option<bool>,
    pub(super) format: Option<Spanned<String>>,
    pub(super) candidates: Option<Spanned<Vec<String>>>,
    pub(super) seeding: Option<Spanned<Vec<String>>>,
    pub(super) seeding_file: Option<Spanned<String>>,
    pub(super) decider: Option<Spanned<String>>,
    pub(super) rounds: Option<Spanned<i64>>,
    pub(super) settle_los: Option<Spanned<f64>>,
    pub(super) pairing: Option<Spanned<String>>,
    pub(super) catch_up: Option<Spanned<i64>>,
}

/// Checks the series keys of `[tournament]` `r`: `first_to`, `max_games`
/// (its default by the kind of run: an SPRT match, a league, or
/// `3 * first_to`), `concurrency` (by default the `cores`), `seed`.
pub(super) fn settings(
    r: &RawTournament,
    sprt: bool,
    cores: usize,
    p: &Place<'_>,
) -> Result<TournamentSettings, ConfigError> {
    let first_to = p.int(
        &r.first_to,
        "tournament.first_to",
        1,
        1_000_000,
        i64::from(DEFAULT_FIRST_TO),
    )? as u32;
    let league = r.format.as_ref().is_some_and(|f| f.get_ref() == "league");
    let max_games_default = if sprt {
        100_000
    } else if league {
        // A league pairs often and briefly: one game pair a pairing.
        2
    } else {
        3 * i64::from(first_to)
    };
    let max_games = p.int(
        &r.max_games,
        "tournament.max_games",
        1,
        10_000_000,
        max_games_default,
    )? as u32;
    // A max_games of at most first_to is allowed on purpose: no bot can
    // take the series early, so it makes a match of fixed length (the
    // leader takes it), which can be split into shards by game pairs.
    let cores = cores.clamp(1, 1024) as i64;
    let concurrency = p.int(&r.concurrency, "tournament.concurrency", 1, 1024, cores)? as usize;
    let seed = p.int(&r.seed, "tournament.seed", 0, i64::MAX, DEFAULT_SEED as i64)? as u64;
    Ok(TournamentSettings {
        first_to,
        max_games,
        concurrency,
        seed,
        on_start_failure: r.on_start_failure.unwrap_or(OnStartFailure::Stop),
        affinity: r.affinity.unwrap_or(false),
    })
}
