//! Tournament configuration: the TOML file, its defaults, and its validation.
//!
//! Raw TOML is read with serde (unknown keys are errors, so typos are caught)
//! and checked into a [`Config`]. Every error is one line naming the file, the
//! line and column where TOML knows them, the problem and the fix.
//!
//! One module a table, each with its raw type beside its validation:
//! `board`, `time`, `tournament` (and its format keys in `format`),
//! `limits`, `bots`, `ratings` (with `[sprt]`), `openings`. Apart: the
//! errors and the place they name (`errors`), the fixes they suggest
//! (`hints`), the text itself (`text`), where relative paths start
//! (`paths`), and whether two files play the same games (`resume`).

use std::path::{Path, PathBuf};

use endodoi::Rules;
use endodoi_protocol::valid_name;
use serde::Deserialize;
use toml::Spanned;

use crate::format::Format;

mod board;
mod bots;
mod errors;
mod format;
mod hints;
mod limits;
mod openings;
mod paths;
mod ratings;
mod resume;
mod text;
mod time;
mod tournament;

pub use board::{Adjudicate, DEFAULT_HOLES, DEFAULT_SEEDS};
pub use bots::{valid_env_name, valid_option, BotSpec, MAX_OPTION_BYTES};
pub use errors::ConfigError;
pub use limits::{
    CgroupMode, Limits, SandboxSpec, DEFAULT_CPU_SECONDS, DEFAULT_MEMORY_MB, DEFAULT_OPEN_FILES,
    DEFAULT_PROCESSES, DEFAULT_SANDBOX_USER, DEFAULT_TMP_MB,
};
pub use openings::{not_a_hole, OpeningsError};
pub use paths::{current_dir_hint, CONFIG_DIR_FILE};
pub use ratings::{
    anchor_elo, check_anchor_elo, AnchorEloError, RatingSettings, SprtModelName, SprtSettings,
    MAX_ANCHOR_ELO, SPRT_ELO_LIMIT,
};
pub use resume::{games_difference, same_games};
pub use text::strip_bom;
pub use time::{TimeControl, DEFAULT_MARGIN_MS, DEFAULT_MOVE_TIME_MS, DEFAULT_STARTUP_MS};
pub use tournament::{OnStartFailure, TournamentSettings, DEFAULT_FIRST_TO, DEFAULT_SEED};

use errors::{span_of, Place};

/// A validated tournament configuration.
#[derive(Clone, Debug)]
pub struct Config {
    /// The tournament's name: `name` in the file, or the file's stem.
    pub name: String,
    /// The board and rule limits of every game.
    pub rules: Rules,
    /// Whether the referee ends a game once its winner is certain
    /// (`[board] adjudicate`).
    pub adjudicate: Adjudicate,
    /// The endgame tables' folder (`[board] tablebase`, resolved from
    /// [`Config::base`]); set exactly when `adjudicate` is
    /// [`Adjudicate::tablebase`]. Its manifest's board and lap limit are
    /// checked against `rules` when the config is read; the layers are read
    /// when the run starts.
    pub tablebase: Option<PathBuf>,
    /// The `[time]` table: every bot's clocks but those its `[[bot]]` table
    /// sets itself; the referee plays each bot on [`BotSpec::time`].
    pub time: TimeControl,
    /// Series length and how the tournament runs.
    pub tournament: TournamentSettings,
    /// The format: who meets whom (`[tournament] format` and its keys).
    pub format: Format,
    /// The bots, in the file's order; at least two, names unique.
    pub bots: Vec<BotSpec>,
    /// How the ratings are computed.
    pub ratings: RatingSettings,
    /// A sequential test for a two-bot match, if asked for.
    pub sprt: Option<SprtSettings>,
    /// How many random plies open each game pair (both ends included);
    /// `0..=0` for none.
    pub opening_plies: std::ops::RangeInclusive<u32>,
    /// Whether the file sets `plies_min` or `plies_max` (which a `file`
    /// makes moot).
    pub opening_plies_set: bool,
    /// Whether the file sets `[tournament] first_to` (which an SPRT match
    /// does not use).
    pub first_to_set: bool,
    /// Openings from a file, one move list per line: pair `k` of every
    /// series plays line `(k - 1) % lines`. `None` for random openings.
    pub opening_book: Option<Vec<Vec<endodoi::Move>>>,
    /// Where each bot's `command` is written, `FILE:LINE:COL`, for errors.
    pub bot_origins: Vec<String>,
    /// The openings file (`[openings] file`), resolved from `base`.
    pub openings_file: Option<PathBuf>,
    /// The folder the config's relative paths start from: the config
    /// file's own (empty: the arena's working directory, for a config given
    /// as text). See [`Config::load`].
    pub base: PathBuf,
}

/// What a config is read against, passed in so that reading one does no
/// I/O of its own and its defaults can be tested: the machine's CPUs and
/// the files the config names.
#[derive(Clone, Copy)]
pub struct Host<'a> {
    /// The CPUs the arena may use, which is the default `concurrency`.
    pub cores: usize,
    /// Reads a file by its path (a relative one from where the arena runs):
    /// the config itself, the [`CONFIG_DIR_FILE`] beside it, its openings
    /// file (resolved from the config's folder).
    pub read: &'a dyn Fn(&Path) -> std::io::Result<String>,
}

/// The starter config `arena init` writes: every key with its default, and
/// two bundled bots, so that it runs as it is.
pub const STARTER: &str = include_str!("starter.toml");

/// A config file as written: its tables, each checked by its own module.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    name: Option<Spanned<String>>,
    #[serde(default)]
    board: board::RawBoard,
    #[serde(default)]
    time: time::RawTime,
    #[serde(default)]
    tournament: tournament::RawTournament,
    #[serde(default)]
    limits: limits::RawLimits,
    #[serde(default)]
    ratings: ratings::RawRatings,
    #[serde(default)]
    openings: openings::RawOpenings,
    sprt: Option<ratings::RawSprt>,
    #[serde(default)]
    bot: Vec<Spanned<bots::RawBot>>,
    /// `arena tune`'s table, read by the tuning's own parser; with it, one
    /// `[[bot]]` (the bot tuned against itself) is enough.
    tune: Option<toml::Value>,
}

impl Config {
    /// Reads and validates the config file at `path`. Its relative paths
    /// (a bot's `dir`, its program and scripts without a `dir`, the openings
    /// file) start from the config file's folder, as Cargo's and Compose's
    /// do; or, for a copy in a run folder, from the folder its
    /// [`CONFIG_DIR_FILE`] names (the original config's).
    ///
    /// # Errors
    /// [`ConfigError`], one line: the file cannot be read, is not TOML, has an
    /// unknown key or a value of the wrong type or range, or names fewer than
    /// two bots or a bot twice.
    pub fn load(path: &Path, host: &Host<'_>) -> Result<Config, ConfigError> {
        let text = (host.read)(path).map_err(|source| {
            if source.kind() == std::io::ErrorKind::InvalidData {
                ConfigError::NotUtf8 {
                    path: path.to_path_buf(),
                }
            } else {
                ConfigError::Read {
                    path: path.to_path_buf(),
                    cause: source,
                }
            }
        })?;
        let stem = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "tournament".into());
        let folder = path.parent().unwrap_or(Path::new("")).to_path_buf();
        let base = match (host.read)(&folder.join(CONFIG_DIR_FILE)) {
            Ok(named) if !named.trim_end_matches('\n').is_empty() => {
                PathBuf::from(named.trim_end_matches('\n'))
            }
            _ => folder,
        };
        Config::parse_in(&text, &path.display().to_string(), &stem, &base, host)
    }

    /// Validates config `text` with its relative paths starting from the
    /// arena's working directory; see [`Config::parse_in`].
    ///
    /// # Errors
    /// As [`Config::load`].
    pub fn parse(
        text: &str,
        origin: &str,
        default_name: &str,
        host: &Host<'_>,
    ) -> Result<Config, ConfigError> {
        Config::parse_in(text, origin, default_name, Path::new(""), host)
    }

    /// Validates config `text`; `origin` names it in errors and `default_name`
    /// is the tournament's name when the text has none; its relative paths
    /// start from `base` (empty: the arena's working directory).
    ///
    /// # Errors
    /// As [`Config::load`].
    pub fn parse_in(
        text: &str,
        origin: &str,
        default_name: &str,
        base: &Path,
        host: &Host<'_>,
    ) -> Result<Config, ConfigError> {
        let text = strip_bom(text);
        let p = Place::new(origin, text);
        let raw: RawConfig =
            toml::from_str(text).map_err(|e| p.at(e.span(), &hints::toml_message(text, &e)))?;
        let name = match &raw.name {
            Some(n) if valid_name(n.get_ref()) => n.get_ref().clone(),
            Some(n) => {
                return Err(p.at(
                    Some(n.span()),
                    "name must be 1 to 64 of A-Z a-z 0-9 . _ - (it names the results folder)",
                ))
            }
            None => text::sanitize(default_name),
        };
        let board = board::board(&raw.board, base, host, &p)?;
        let time = time::time_control(&raw.time, &p)?;
        let r = &raw.tournament;
        let tournament = tournament::settings(r, raw.sprt.is_some(), host.cores, &p)?;
        let limits = limits::limit_defaults(&raw.limits, &p)?;
        let shared = bots::Shared {
            limits: &limits,
            time,
            increment_span: span_of(&raw.time.increment_ms),
            affinity: tournament.affinity,
            base,
        };
        let (bots, bot_origins) = bots::bots(&raw.bot, &shared, &p)?;
        if bots.len() < 2 && !(raw.tune.is_some() && bots.len() == 1) {
            return Err(p.at(
                None,
                &format!(
                    "{} configured: a round robin needs at least two [[bot]] tables with name and command",
                    if bots.is_empty() { "no bot" } else { "1 bot" }
                ),
            ));
        }
        let mut format = format::parse_format(r, &bots, raw.sprt.is_some(), base, host, &p)?;
        let (prior_draws, bootstrap) = ratings::fit_settings(&raw.ratings, &p)?;
        if let Format::League(l) = &mut format {
            // The league pairs by the ratings the run reports.
            (l.seed, l.prior_draws, l.bootstrap) = (tournament.seed, prior_draws, bootstrap);
            if l.settle_los.is_some() && bootstrap == 0 {
                return Err(p.at(
                    span_of(&r.settle_los),
                    "tournament.settle_los needs the bootstrap's LOS, and ratings.bootstrap = 0 measures none: set bootstrap above 0 (e.g. 200), or remove settle_los",
                ));
            }
        }
        let anchor = ratings::anchor(&raw.ratings, &bots, &p)?;
        let sprt = ratings::sprt(raw.sprt.as_ref(), text, bots.len(), &p)?;
        let openings = openings::openings(&raw.openings, board.rules, base, host, &p)?;
        Ok(Config {
            bot_origins,
            base: base.to_path_buf(),
            openings_file: openings.file,
            opening_book: openings.book,
            opening_plies: openings.plies,
            opening_plies_set: openings.plies_set,
            first_to_set: r.first_to.is_some(),
            ratings: RatingSettings {
                prior_draws,
                bootstrap,
                anchor,
            },
            sprt,
            name,
            rules: board.rules,
            adjudicate: board.adjudicate,
            tablebase: board.tablebase,
            time,
            format,
            tournament,
            bots,
        })
    }
}

/// A config for unit tests: `text` read as `t.toml` (named `t`) on a
/// host of 2 cores that reads files from disk.
///
/// # Panics
/// If `text` is not a valid config.
#[cfg(test)]
pub(crate) fn test_config(text: &str) -> Config {
    fn read(path: &std::path::Path) -> std::io::Result<String> {
        std::fs::read_to_string(path)
    }
    let host = Host {
        cores: 2,
        read: &read,
    };
    Config::parse(text, "t.toml", "t", &host).unwrap()
}

/// `[[bot]]` tables for unit tests, one for each of `names`, each with
/// the command `x` (never started).
#[cfg(test)]
pub(crate) fn test_bots(names: &[&str]) -> String {
    names
        .iter()
        .map(|n| format!("[[bot]]\nname = \"{n}\"\ncommand = [\"x\"]\n"))
        .collect()
}

#[cfg(test)]
mod tests;
