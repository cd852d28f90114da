//! Tournament configuration: the TOML file, its defaults, and its validation.
//!
//! Raw TOML is read with serde (unknown keys are errors, so typos are caught)
//! and checked into a [`Config`]. Every error is one line naming the file, the
//! line and column where TOML knows them, the problem and the fix.

use std::ops::Range;
use std::path::{Path, PathBuf};

use endodoi::Rules;
use serde::Deserialize;
use toml::Spanned;

use endodoi_protocol::valid_name;

use crate::format::{Decider, Format};

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
    /// [`Adjudicate::Tablebase`]. Its manifest's board and lap limit are
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

/// How the joint ratings are computed (`[ratings]`).
#[derive(Clone, Debug, PartialEq)]
pub struct RatingSettings {
    /// Virtual draws added to each pair that played (the prior).
    pub prior_draws: f64,
    /// Bootstrap replicates for the intervals and LOS.
    pub bootstrap: u32,
    /// The bot whose rating is fixed, and its rating (Elo); `None` for mean 0.
    pub anchor: Option<(String, f64)>,
}

impl Default for RatingSettings {
    /// The defaults of a config without `[ratings]`: 1 virtual draw, 1000
    /// bootstrap replicates, no anchor.
    fn default() -> Self {
        RatingSettings {
            prior_draws: 1.0,
            bootstrap: 1000,
            anchor: None,
        }
    }
}

/// A sequential probability ratio test for a two-bot match (`[sprt]`): H0
/// says the first bot is `elo0` stronger, H1 says `elo1`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtSettings {
    /// Elo difference under H0.
    pub elo0: f64,
    /// Elo difference under H1.
    pub elo1: f64,
    /// The false-positive rate (accepting H1 when H0 holds).
    pub alpha: f64,
    /// The false-negative rate (accepting H0 when H1 holds).
    pub beta: f64,
    /// Whether elo0 and elo1 are logistic or normalised Elo.
    pub model: SprtModelName,
}

/// The largest `[sprt]` `elo0` or `elo1` accepted, either sign, in the
/// test's Elo points (logistic or normalised).
pub const SPRT_ELO_LIMIT: f64 = 1000.0;

/// The Elo scale of an SPRT's hypotheses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SprtModelName {
    /// Logistic Elo, as in the standings.
    Logistic,
    /// Normalised Elo (fishtest's default).
    Normalized,
}

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

/// Whether the referee ends a game early when its result is certain
/// (`[board] adjudicate`, `"off"` by default).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Adjudicate {
    /// Every game is played to its end by the rules (the default).
    #[default]
    Off,
    /// Exact adjudication: a game ends, with termination `decided`, after
    /// the ply that gives one side more than half of all seeds
    /// ([`endodoi::Position::decided_winner`]): seeds never return to the
    /// board, so that side wins whatever follows, short of a later forfeit.
    Decided,
    /// Tablebase adjudication (`[board] tablebase = "DIR"`): a game ends,
    /// with termination `tablebase`, at the first position (the start, or
    /// after any ply) whose value the endgame tables know exactly within
    /// the plies left ([`endodoi_tablebase::adjudicate`]); the final seeds
    /// are those captured so far plus the forced margin's split of the
    /// board. The result of perfect play from there, as Syzygy adjudication
    /// in chess, not of the bots.
    Tablebase,
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

/// Limits applied to a bot process with setrlimit before it runs; 0 means
/// no limit. They hold for the bot and every process it starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Memory the process may allocate (RLIMIT_DATA), MiB.
    pub memory_mb: u64,
    /// CPU time the process may use over its life (a series), seconds (RLIMIT_CPU).
    pub cpu_seconds: u64,
    /// Open files (RLIMIT_NOFILE).
    pub open_files: u64,
    /// Whether the bot gets cgroups of its own (`[limits] cgroups`, for
    /// every bot; docs/sandbox.md, "Fair play").
    pub cgroups: CgroupMode,
}

/// `[limits] cgroups`: whether each bot runs in cgroups of its own, the
/// kernel's control of its CPU turn, memory and processes as a whole
/// (docs/sandbox.md, "Fair play").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum CgroupMode {
    /// Use what the host gives, and say at the start what is not enforced
    /// (the default).
    #[default]
    Auto,
    /// Refuse to start, in one line naming what is missing and the fix,
    /// unless every control is enforced.
    Require,
    /// No cgroups: the per-process limits only.
    Off,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            memory_mb: DEFAULT_MEMORY_MB,
            cpu_seconds: DEFAULT_CPU_SECONDS,
            open_files: DEFAULT_OPEN_FILES,
            cgroups: CgroupMode::Auto,
        }
    }
}

/// The default memory limit per bot process, MiB.
pub const DEFAULT_MEMORY_MB: u64 = 4096;
/// The default CPU-time limit per bot process, seconds (one day).
pub const DEFAULT_CPU_SECONDS: u64 = 86_400;
/// The default open-file limit per bot process.
pub const DEFAULT_OPEN_FILES: u64 = 1024;

/// One bot: how to start it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotSpec {
    /// The name used in tables and CSV files, `[A-Za-z0-9._-]`, unique.
    pub name: String,
    /// The program and its arguments, run without a shell. A first word of
    /// exactly `arena` means this arena's own executable (the bundled bots).
    pub command: Vec<String>,
    /// The working directory, as resolved from [`BotSpec::base`]; `None`
    /// for the base itself.
    pub dir: Option<PathBuf>,
    /// The folder a relative `dir` was resolved from, and the bot runs in
    /// without one: the config file's folder (empty: the arena's working
    /// directory).
    pub base: PathBuf,
    /// Resource limits for its process.
    pub limits: Limits,
    /// How it is sandboxed; `None` runs it as the arena's user, unconfined.
    pub sandbox: Option<SandboxSpec>,
    /// Its clocks: `[time]`, with the bot's own `move_time_ms`,
    /// `base_time_ms` and `increment_ms` in place of the table's (a handicap
    /// match); `margin_ms` and `startup_ms` are always `[time]`'s.
    pub time: TimeControl,
    /// Variables set in its environment (`env`), in name order: names
    /// `[A-Za-z_][A-Za-z0-9_]*`. A sandboxed bot sees these and the few the
    /// sandbox sets (docs/sandbox.md), nothing of the arena's; an unsandboxed
    /// one the arena's environment with these on top.
    pub env: Vec<(String, String)>,
    /// Options sent in `hello` as `option.NAME=VALUE` (`options`), in name
    /// order, the values rendered plainly ([`BotSpec::options`] fit
    /// protocol.md's word rules: [`valid_option`]).
    pub options: Vec<(String, String)>,
}

impl BotSpec {
    /// A bot called `name` run by `command` from the arena's working
    /// directory, with the default limits and clocks `time`, unsandboxed,
    /// with no `env` and no `options`: the bot of `arena check` and
    /// `arena play`, and of tests.
    #[must_use]
    pub fn new(name: &str, command: Vec<String>, time: TimeControl) -> BotSpec {
        BotSpec {
            name: name.into(),
            command,
            dir: None,
            base: PathBuf::new(),
            limits: Limits::default(),
            sandbox: None,
            time,
            env: Vec::new(),
            options: Vec::new(),
        }
    }
}

/// Whether `name` may name an environment variable of a bot's `env`:
/// `[A-Za-z_][A-Za-z0-9_]*` (the POSIX shell's rule), so it cannot hold
/// `=` or a NUL and every shell can read it.
///
/// ```
/// assert!(arena::config::valid_env_name("DEPTH_2"));
/// assert!(!arena::config::valid_env_name("2DEPTH"));
/// assert!(!arena::config::valid_env_name("A=B"));
/// ```
#[must_use]
pub fn valid_env_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Whether `name` and `value` (as rendered) make a word
/// `option.NAME=VALUE` of `hello` that protocol.md allows: a name of 1 to
/// 64 of `A-Z a-z 0-9 . _ -`, a value of printable ASCII without spaces
/// (possibly empty), the word at most [`MAX_OPTION_BYTES`].
///
/// ```
/// assert!(arena::config::valid_option("depth", "5"));
/// assert!(!arena::config::valid_option("my depth", "5"));
/// assert!(!arena::config::valid_option("style", "very fast"));
/// ```
#[must_use]
pub fn valid_option(name: &str, value: &str) -> bool {
    valid_name(name)
        && value.chars().all(|c| c.is_ascii_graphic())
        && "option.".len() + name.len() + 1 + value.len() <= MAX_OPTION_BYTES
}

/// A TOML value's type with its article, for messages: "an integer",
/// "a string".
fn a_type(value: &toml::Value) -> String {
    let name = value.type_str();
    let article = if name.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    };
    format!("{article} {name}")
}

/// The longest `option.NAME=VALUE` word, bytes: a tenth of protocol.md's
/// line cap, so a `hello` with a few dozen options still fits one line.
pub const MAX_OPTION_BYTES: usize = endodoi_protocol::MAX_LINE_BYTES / 10;

/// The default holes per row.
pub const DEFAULT_HOLES: usize = 8;
/// The default seeds per hole.
pub const DEFAULT_SEEDS: u32 = 4;
/// The default per-move limit, ms.
pub const DEFAULT_MOVE_TIME_MS: u64 = 1000;
/// The default margin past each deadline, ms.
pub const DEFAULT_MARGIN_MS: u64 = 50;
/// The default start-up limit, ms.
pub const DEFAULT_STARTUP_MS: u64 = 5000;
/// The default wins that take a series.
pub const DEFAULT_FIRST_TO: u32 = 5;
/// The default tournament seed.
pub const DEFAULT_SEED: u64 = 1;

/// A sandboxed bot's settings (`sandbox = true`): bubblewrap with a user
/// namespace, no capabilities, no network, a minimal filesystem; see
/// `docs/sandbox.md` and `sandbox::Sandbox`, which runs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SandboxSpec {
    /// Extra paths the bot may read (`sandbox_ro`), as written: a relative
    /// one is relative to the bot's `dir`. `"."` is the `dir` itself.
    pub read_only: Vec<PathBuf>,
    /// Paths the bot may write (`sandbox_rw`), as written; `"."` makes its
    /// `dir` writable (read-only by default).
    pub writable: Vec<PathBuf>,
    /// Processes and threads the bot may have at once inside its sandbox
    /// (RLIMIT_NPROC, counted in its own user namespace).
    pub processes: u64,
    /// The size of each of its private `/tmp`, `/var/tmp`, `/run` and
    /// `/dev/shm` (tmpfs, counted against the host's memory), MiB.
    pub tmp_mb: u64,
    /// The host user it runs as when the arena runs as root (a name or a
    /// number); an arena run by any other user runs it as that user.
    pub user: String,
    /// Whether its start pins it to one core (`[tournament] affinity`): its
    /// seccomp filter then refuses `sched_setaffinity`, so that it cannot
    /// take back the other cores.
    pub pinned: bool,
}

impl Default for SandboxSpec {
    /// `sandbox = true` with no other sandbox setting.
    fn default() -> SandboxSpec {
        SandboxSpec {
            read_only: Vec::new(),
            writable: Vec::new(),
            processes: DEFAULT_PROCESSES,
            tmp_mb: DEFAULT_TMP_MB,
            user: DEFAULT_SANDBOX_USER.into(),
            pinned: false,
        }
    }
}

/// The default of `processes`, per sandboxed bot (threads count).
pub const DEFAULT_PROCESSES: u64 = 256;
/// The default size of each private tmpfs of a sandboxed bot, MiB.
pub const DEFAULT_TMP_MB: u64 = 64;
/// The default host user of sandboxed bots when the arena runs as root.
pub const DEFAULT_SANDBOX_USER: &str = "nobody";

impl Config {
    /// The relative paths of the config (a bot's `dir`; without one, its
    /// program and arguments; the openings file) that name something from
    /// the arena's working directory other than what they name from
    /// [`Config::base`], as written: what a config read the old way, from
    /// the working directory, would have used instead. Empty when `base` is
    /// the working directory. A path missing from `base` is not listed: the
    /// error about it says that the working directory has it
    /// ([`current_dir_hint`]).
    #[must_use]
    pub fn moved_paths(&self) -> Vec<String> {
        let base = &self.base;
        let Ok(cwd) = std::env::current_dir() else {
            return Vec::new();
        };
        let same = |a: &Path, b: &Path| match (a.canonicalize(), b.canonicalize()) {
            (Ok(a), Ok(b)) => a == b,
            _ => false,
        };
        if base.as_os_str().is_empty() || same(base, &cwd) {
            return Vec::new();
        }
        let mut written: Vec<PathBuf> = Vec::new();
        for bot in &self.bots {
            match &bot.dir {
                Some(dir) => written.extend(dir.strip_prefix(base).ok().map(Path::to_path_buf)),
                None if bot.command.first().is_some_and(|w| w != "arena") => written.extend(
                    bot.command
                        .iter()
                        .filter(|w| !w.starts_with('-'))
                        .map(PathBuf::from),
                ),
                None => {}
            }
        }
        if let Some(file) = &self.openings_file {
            written.extend(file.strip_prefix(base).ok().map(Path::to_path_buf));
        }
        let mut moved: Vec<String> = Vec::new();
        for path in written {
            let text = path.display().to_string();
            if path.is_relative()
                && !text.is_empty()
                && path.exists()
                && base.join(&path).exists()
                && !same(&path, &base.join(&path))
                && !moved.contains(&text)
            {
                moved.push(text);
            }
        }
        moved
    }
}

/// What a one-line error adds when a relative path of the config, as
/// `written`, names nothing from the config's folder `base` but does name
/// something from the current directory (where paths started before issue
/// 17): that it is there, why it is not used, and the fix. The caller has
/// looked in the current directory.
///
/// ```
/// # use std::path::Path;
/// let hint = arena::config::current_dir_hint(Path::new("book.txt"), Path::new("other/place"));
/// assert!(hint.starts_with("; the current directory has book.txt, but relative paths start from the config's folder other/place"));
/// ```
#[must_use]
pub fn current_dir_hint(written: &Path, base: &Path) -> String {
    format!(
        "; the current directory has {}, but relative paths start from the config's folder {} (they used to start from the current directory): write the path from {1}, or an absolute one (see \"Relative paths\" in docs/configuration.md)",
        written.display(),
        base.display()
    )
}

/// The file beside a copy of a config (in a run folder, a Slurm
/// tournament's folder) that names the folder the original config's
/// relative paths start from, so that the copy's resolve the same way.
pub const CONFIG_DIR_FILE: &str = "config-dir";

/// An error in a config file, shown on one line: where, what, and the fix.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The config file cannot be read.
    #[error("cannot read config {}: {cause}; check the path", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        cause: std::io::Error,
    },
    /// The config file is not UTF-8 text (UTF-16, say, as some Windows
    /// editors save): TOML is UTF-8.
    #[error("config {} is not UTF-8 text (TOML is UTF-8; a Windows editor may have saved it as UTF-16): save it as UTF-8", path.display())]
    NotUtf8 {
        /// The file.
        path: PathBuf,
    },
    /// A problem at a place in the file.
    #[error("{origin}:{line}:{column}: {message}")]
    At {
        /// The file, as named to the user.
        origin: String,
        /// 1-based line.
        line: usize,
        /// 1-based column (characters).
        column: usize,
        /// The problem and its fix.
        message: String,
    },
    /// A problem of the whole file (no one place).
    #[error("{origin}: {message}")]
    File {
        /// The file, as named to the user.
        origin: String,
        /// The problem and its fix.
        message: String,
    },
    /// A bot whose program or script cannot be found or started.
    #[error("{origin}: {message}")]
    Bot {
        /// Where the bot's `command` is, `FILE:LINE:COL`.
        origin: String,
        /// The problem and its fix.
        message: String,
    },
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

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    name: Option<Spanned<String>>,
    #[serde(default)]
    board: RawBoard,
    #[serde(default)]
    time: RawTime,
    #[serde(default)]
    tournament: RawTournament,
    #[serde(default)]
    limits: RawLimits,
    #[serde(default)]
    ratings: RawRatings,
    #[serde(default)]
    openings: RawOpenings,
    sprt: Option<RawSprt>,
    #[serde(default)]
    bot: Vec<Spanned<RawBot>>,
    /// `arena tune`'s table, read by the tuning's own parser; with it, one
    /// `[[bot]]` (the bot tuned against itself) is enough.
    tune: Option<toml::Value>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawOpenings {
    plies_min: Option<Spanned<i64>>,
    plies_max: Option<Spanned<i64>>,
    file: Option<Spanned<String>>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawRatings {
    prior_draws: Option<Spanned<f64>>,
    bootstrap: Option<Spanned<i64>>,
    anchor: Option<Spanned<String>>,
    anchor_elo: Option<Spanned<f64>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSprt {
    elo0: Spanned<f64>,
    elo1: Spanned<f64>,
    alpha: Option<Spanned<f64>>,
    beta: Option<Spanned<f64>>,
    model: Option<SprtModelName>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawLimits {
    memory_mb: Option<Spanned<i64>>,
    cpu_seconds: Option<Spanned<i64>>,
    open_files: Option<Spanned<i64>>,
    sandbox: Option<Spanned<bool>>,
    processes: Option<Spanned<i64>>,
    tmp_mb: Option<Spanned<i64>>,
    sandbox_user: Option<Spanned<String>>,
    cgroups: Option<Spanned<toml::Value>>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawBoard {
    holes: Option<Spanned<i64>>,
    seeds: Option<Spanned<i64>>,
    max_plies: Option<Spanned<i64>>,
    max_laps: Option<Spanned<i64>>,
    /// Any TOML value, so a bad one of any type gets the one message
    /// that lists the choices.
    adjudicate: Option<Spanned<toml::Value>>,
    tablebase: Option<Spanned<String>>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawTime {
    move_time_ms: Option<Spanned<i64>>,
    base_time_ms: Option<Spanned<i64>>,
    increment_ms: Option<Spanned<i64>>,
    margin_ms: Option<Spanned<i64>>,
    startup_ms: Option<Spanned<i64>>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawTournament {
    first_to: Option<Spanned<i64>>,
    max_games: Option<Spanned<i64>>,
    concurrency: Option<Spanned<i64>>,
    seed: Option<Spanned<i64>>,
    on_start_failure: Option<OnStartFailure>,
    affinity: Option<bool>,
    format: Option<Spanned<String>>,
    candidates: Option<Spanned<Vec<String>>>,
    seeding: Option<Spanned<Vec<String>>>,
    seeding_file: Option<Spanned<String>>,
    decider: Option<Spanned<String>>,
    rounds: Option<Spanned<i64>>,
    settle_los: Option<Spanned<f64>>,
    pairing: Option<Spanned<String>>,
    catch_up: Option<Spanned<i64>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBot {
    name: Spanned<String>,
    command: Spanned<Vec<String>>,
    dir: Option<String>,
    memory_mb: Option<Spanned<i64>>,
    cpu_seconds: Option<Spanned<i64>>,
    open_files: Option<Spanned<i64>>,
    sandbox: Option<Spanned<bool>>,
    processes: Option<Spanned<i64>>,
    tmp_mb: Option<Spanned<i64>>,
    sandbox_user: Option<Spanned<String>>,
    sandbox_ro: Option<Spanned<Vec<String>>>,
    sandbox_rw: Option<Spanned<Vec<String>>>,
    move_time_ms: Option<Spanned<i64>>,
    base_time_ms: Option<Spanned<i64>>,
    increment_ms: Option<Spanned<i64>>,
    env: Option<Spanned<std::collections::BTreeMap<String, Spanned<toml::Value>>>>,
    options: Option<Spanned<std::collections::BTreeMap<String, Spanned<toml::Value>>>>,
}

/// `[limits] cgroups`, or the one line that lists the choices.
fn cgroup_mode(
    value: Option<&Spanned<toml::Value>>,
    at: impl Fn(Option<Range<usize>>, &str) -> ConfigError,
) -> Result<CgroupMode, ConfigError> {
    let Some(v) = value else {
        return Ok(CgroupMode::Auto);
    };
    match v.get_ref().as_str() {
        Some("auto") => Ok(CgroupMode::Auto),
        Some("require") if !crate::platform::CGROUPS => {
            Err(at(Some(v.span()), crate::platform::NO_CGROUPS))
        }
        Some("require") => Ok(CgroupMode::Require),
        Some("off") => Ok(CgroupMode::Off),
        _ => Err(at(
            Some(v.span()),
            &format!(
                "limits.cgroups = {} is not a choice: use \"auto\" (the default: what the host gives), \"require\" (refuse to start without every control) or \"off\"",
                v.get_ref()
            ),
        )),
    }
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
        let lines = Lines::new(text);
        let at = |span: Option<Range<usize>>, msg: &str| -> ConfigError {
            match span {
                Some(span) => {
                    let (line, column) = lines.line_col(span.start);
                    ConfigError::At {
                        origin: origin.to_string(),
                        line,
                        column,
                        message: msg.to_string(),
                    }
                }
                None => ConfigError::File {
                    origin: origin.to_string(),
                    message: msg.to_string(),
                },
            }
        };
        let raw: RawConfig = toml::from_str(text).map_err(|e| {
            let mut msg = e.message().trim().replace('\n', " ");
            msg = msg.replace("expected i64", "expected a whole number");
            let line_of = |span: Range<usize>| {
                let start = text[..span.start.min(text.len())]
                    .rfind('\n')
                    .map_or(0, |i| i + 1);
                text[start..]
                    .lines()
                    .next()
                    .unwrap_or("")
                    .trim()
                    .to_string()
            };
            let key = e.span().and_then(|s| key_before(text, s.start));
            msg.push_str(&hint(&msg, key.as_deref()));
            if msg.contains("number too large") {
                msg.push_str(": use a smaller whole number");
            }
            if msg.contains("duplicate key") {
                if let Some(span) = e.span() {
                    msg.push_str(&duplicate_hint(text, span.start));
                }
            }
            // Name the place: the line TOML stumbled on, as written.
            if let Some(span) = e.span() {
                let line = line_of(span);
                if line.starts_with("[bot]") {
                    msg.push_str(": write [[bot]], one table per bot");
                }
                if !line.is_empty() {
                    let shown: String = line.chars().take(80).collect();
                    msg.push_str(&format!(" (in `{shown}`)"));
                }
            }
            at(e.span(), &msg)
        })?;
        let int = |v: &Option<Spanned<i64>>, key: &str, min: i64, max: i64, default: i64| match v {
            None => Ok(default),
            Some(s) if (min..=max).contains(s.get_ref()) => Ok(*s.get_ref()),
            Some(s) => Err(at(
                Some(s.span()),
                &format!(
                    "{key} = {} is out of range: use {min} to {max}",
                    s.get_ref()
                ),
            )),
        };

        let name = match &raw.name {
            Some(n) if valid_name(n.get_ref()) => n.get_ref().clone(),
            Some(n) => {
                return Err(at(
                    Some(n.span()),
                    "name must be 1 to 64 of A-Z a-z 0-9 . _ - (it names the results folder)",
                ))
            }
            None => sanitize(default_name),
        };

        let b = &raw.board;
        let holes = int(&b.holes, "board.holes", 2, 50, DEFAULT_HOLES as i64)? as usize;
        let seeds = int(&b.seeds, "board.seeds", 1, 1000, i64::from(DEFAULT_SEEDS))? as u32;
        let max_plies = int(
            &b.max_plies,
            "board.max_plies",
            1,
            10_000_000,
            i64::from(endodoi::DEFAULT_MAX_PLIES),
        )? as u32;
        let max_laps = int(
            &b.max_laps,
            "board.max_laps",
            1,
            10_000_000,
            i64::from(endodoi::DEFAULT_MAX_LAPS),
        )? as u32;
        let rules = Rules::new(holes, seeds)
            .and_then(|r| r.with_max_plies(max_plies))
            .and_then(|r| r.with_max_laps(max_laps))
            .map_err(|e| at(b.seeds.as_ref().map(|s| s.span()), &e.to_string()))?;
        if rules.start().is_over() {
            return Err(at(
                b.max_laps.as_ref().map(|s| s.span()),
                &format!(
                    "board.max_laps = {max_laps} makes every first move endless, so no game can start: raise it (default {})",
                    endodoi::DEFAULT_MAX_LAPS
                ),
            ));
        }

        let adjudicate = adjudicate_of(b.adjudicate.as_ref()).map_err(|(span, m)| at(span, &m))?;
        let tablebase = tablebase_of(b.tablebase.as_ref(), adjudicate, rules, base, host)
            .map_err(|(span, m)| at(span, &m))?;

        let t = &raw.time;
        const DAY_MS: i64 = 86_400_000;
        let time = TimeControl {
            move_time_ms: int(
                &t.move_time_ms,
                "time.move_time_ms",
                0,
                DAY_MS,
                DEFAULT_MOVE_TIME_MS as i64,
            )? as u64,
            base_time_ms: int(&t.base_time_ms, "time.base_time_ms", 0, DAY_MS, 0)? as u64,
            increment_ms: int(&t.increment_ms, "time.increment_ms", 0, DAY_MS, 0)? as u64,
            margin_ms: int(
                &t.margin_ms,
                "time.margin_ms",
                0,
                60_000,
                DEFAULT_MARGIN_MS as i64,
            )? as u64,
            startup_ms: int(
                &t.startup_ms,
                "time.startup_ms",
                1,
                600_000,
                DEFAULT_STARTUP_MS as i64,
            )? as u64,
        };
        if time.move_time_ms == 0 && time.base_time_ms == 0 {
            return Err(at(
                t.move_time_ms.as_ref().map(|s| s.span()),
                "time.move_time_ms = 0 and no game clock leaves moves unlimited: set move_time_ms or base_time_ms above 0",
            ));
        }

        let r = &raw.tournament;
        let first_to = int(
            &r.first_to,
            "tournament.first_to",
            1,
            1_000_000,
            i64::from(DEFAULT_FIRST_TO),
        )? as u32;
        let league = r.format.as_ref().is_some_and(|f| f.get_ref() == "league");
        let max_games_default = if raw.sprt.is_some() {
            100_000
        } else if league {
            // A league pairs often and briefly: one game pair a pairing.
            2
        } else {
            3 * i64::from(first_to)
        };
        let max_games = int(
            &r.max_games,
            "tournament.max_games",
            1,
            10_000_000,
            max_games_default,
        )? as u32;
        // A max_games of at most first_to is allowed on purpose: no bot can
        // take the series early, so it makes a match of fixed length (the
        // leader takes it), which can be split into shards by game pairs.
        let cores = host.cores.clamp(1, 1024) as i64;
        let concurrency = int(&r.concurrency, "tournament.concurrency", 1, 1024, cores)? as usize;
        let seed = int(&r.seed, "tournament.seed", 0, i64::MAX, DEFAULT_SEED as i64)? as u64;

        let l = &raw.limits;
        const MAX_LIMIT: i64 = 1 << 40;
        // Linux's default ceiling (fs.nr_open); above it setrlimit fails.
        const MAX_OPEN_FILES: i64 = 1 << 20;
        let limits = Limits {
            memory_mb: int(
                &l.memory_mb,
                "limits.memory_mb",
                0,
                MAX_LIMIT,
                DEFAULT_MEMORY_MB as i64,
            )? as u64,
            cpu_seconds: int(
                &l.cpu_seconds,
                "limits.cpu_seconds",
                0,
                MAX_LIMIT,
                DEFAULT_CPU_SECONDS as i64,
            )? as u64,
            open_files: int(
                &l.open_files,
                "limits.open_files",
                0,
                MAX_OPEN_FILES,
                DEFAULT_OPEN_FILES as i64,
            )? as u64,
            cgroups: cgroup_mode(l.cgroups.as_ref(), at)?,
        };
        let sandbox = l.sandbox.as_ref().is_some_and(|s| *s.get_ref());
        const MAX_PROCESSES: i64 = 1 << 22;
        const MAX_TMP_MB: i64 = 1 << 20;
        let processes = int(
            &l.processes,
            "limits.processes",
            1,
            MAX_PROCESSES,
            DEFAULT_PROCESSES as i64,
        )?;
        let tmp_mb = int(
            &l.tmp_mb,
            "limits.tmp_mb",
            1,
            MAX_TMP_MB,
            DEFAULT_TMP_MB as i64,
        )?;
        let user_of = |u: &Option<Spanned<String>>, key: &str, default: &str| match u {
            None => Ok(default.to_string()),
            Some(u) if !u.get_ref().trim().is_empty() => Ok(u.get_ref().trim().to_string()),
            Some(u) => Err(at(
                Some(u.span()),
                &format!("{key} is empty: name a host user (default \"{DEFAULT_SANDBOX_USER}\")"),
            )),
        };
        let sandbox_user = user_of(&l.sandbox_user, "limits.sandbox_user", DEFAULT_SANDBOX_USER)?;

        let mut bots: Vec<BotSpec> = Vec::new();
        let mut bot_origins = Vec::new();
        for raw_bot in &raw.bot {
            let rb = raw_bot.get_ref();
            let name = rb.name.get_ref();
            if !valid_name(name) {
                return Err(at(
                    Some(rb.name.span()),
                    &format!("bot name '{name}' must be 1 to 64 of A-Z a-z 0-9 . _ -, starting with a letter or digit"),
                ));
            }
            if bots.iter().any(|b| &b.name == name) {
                return Err(at(
                    Some(rb.name.span()),
                    &format!("bot name '{name}' is used twice: give each [[bot]] its own name"),
                ));
            }
            if rb.command.get_ref().is_empty() || rb.command.get_ref()[0].is_empty() {
                return Err(at(
                    Some(rb.command.span()),
                    &format!("bot '{name}' has an empty command: give the program and its arguments, e.g. [\"python3\", \"bots/python/greedy.py\"]"),
                ));
            }
            let (line, col) = lines.line_col(rb.command.span().start);
            bot_origins.push(format!("{origin}:{line}:{col}"));
            let paths = |p: &Option<Spanned<Vec<String>>>, key: &str| {
                match p {
                None => Ok(Vec::new()),
                Some(p) if p.get_ref().iter().any(|s| s.is_empty()) => Err(at(
                    Some(p.span()),
                    &format!("bot '{name}': {key} holds an empty path: remove it, or write \".\" for the bot's dir"),
                )),
                Some(p) => Ok(p.get_ref().iter().map(PathBuf::from).collect()),
            }
            };
            let sandboxed = rb.sandbox.as_ref().map_or(sandbox, |s| *s.get_ref());
            if sandboxed && !crate::platform::SANDBOX {
                let span = rb
                    .sandbox
                    .as_ref()
                    .or(l.sandbox.as_ref())
                    .map(Spanned::span);
                return Err(at(span, crate::platform::NO_SANDBOX));
            }
            let spec = SandboxSpec {
                read_only: paths(&rb.sandbox_ro, "sandbox_ro")?,
                writable: paths(&rb.sandbox_rw, "sandbox_rw")?,
                processes: int(&rb.processes, "bot.processes", 1, MAX_PROCESSES, processes)? as u64,
                tmp_mb: int(&rb.tmp_mb, "bot.tmp_mb", 1, MAX_TMP_MB, tmp_mb)? as u64,
                user: user_of(&rb.sandbox_user, "bot.sandbox_user", &sandbox_user)?,
                pinned: r.affinity.unwrap_or(false),
            };
            if !sandboxed {
                // A sandbox setting on a bot that runs unsandboxed is a mistake
                // that would leave the organiser believing it holds.
                let given = [
                    ("sandbox_ro", rb.sandbox_ro.as_ref().map(|s| s.span())),
                    ("sandbox_rw", rb.sandbox_rw.as_ref().map(|s| s.span())),
                    ("processes", rb.processes.as_ref().map(|s| s.span())),
                    ("tmp_mb", rb.tmp_mb.as_ref().map(|s| s.span())),
                    ("sandbox_user", rb.sandbox_user.as_ref().map(|s| s.span())),
                ];
                if let Some((key, span)) = given.into_iter().find(|(_, s)| s.is_some()) {
                    return Err(at(
                        span,
                        &format!("bot '{name}': {key} applies only in the sandbox: set sandbox = true for this bot, or remove {key}"),
                    ));
                }
            }
            let own = |v: &Option<Spanned<i64>>, key: &str, default: u64| {
                int(
                    v,
                    &format!("bot '{name}': {key}"),
                    0,
                    DAY_MS,
                    default as i64,
                )
                .map(|x| x as u64)
            };
            let bot_time = TimeControl {
                move_time_ms: own(&rb.move_time_ms, "move_time_ms", time.move_time_ms)?,
                base_time_ms: own(&rb.base_time_ms, "base_time_ms", time.base_time_ms)?,
                increment_ms: own(&rb.increment_ms, "increment_ms", time.increment_ms)?,
                ..time
            };
            if bot_time.move_time_ms == 0 && bot_time.base_time_ms == 0 {
                let span = [&rb.move_time_ms, &rb.base_time_ms]
                    .into_iter()
                    .flatten()
                    .next()
                    .map(|s| s.span());
                return Err(at(
                    span,
                    &format!("bot '{name}': move_time_ms = 0 and no game clock leaves its moves unlimited: set its move_time_ms or base_time_ms above 0"),
                ));
            }
            if bot_time.increment_ms > 0 && bot_time.base_time_ms == 0 {
                // An increment with no clock to add to means nothing, yet
                // it would be sent: say where it comes from.
                let inc = bot_time.increment_ms;
                let msg = if let Some(own) = &rb.increment_ms {
                    at(Some(own.span()), &format!("bot '{name}': increment_ms = {inc} adds to a game clock, and base_time_ms = 0 sets none: set its base_time_ms, or remove increment_ms"))
                } else if let Some(base) = &rb.base_time_ms {
                    at(Some(base.span()), &format!("bot '{name}': base_time_ms = 0 sets no game clock, and [time]'s increment_ms = {inc} adds to one: set its base_time_ms above 0, or its increment_ms = 0"))
                } else {
                    at(t.increment_ms.as_ref().map(|s| s.span()), &format!("time.increment_ms = {inc} adds to a game clock, and base_time_ms = 0 sets none: set base_time_ms, or remove increment_ms"))
                };
                return Err(msg);
            }
            let mut env = Vec::new();
            for (key, value) in rb.env.iter().flat_map(|e| e.get_ref()) {
                if !valid_env_name(key) {
                    return Err(at(
                        Some(value.span()),
                        &format!("bot '{name}': env name '{}' is not a variable name: use letters, digits and _, not starting with a digit (e.g. MY_SETTING)", endodoi_protocol::shown(key)),
                    ));
                }
                match value.get_ref() {
                    toml::Value::String(v) if !v.contains('\0') => env.push((key.clone(), v.clone())),
                    toml::Value::String(_) => return Err(at(
                        Some(value.span()),
                        &format!("bot '{name}': env {key} holds a NUL character, which no environment can: remove it"),
                    )),
                    other => return Err(at(
                        Some(value.span()),
                        &format!("bot '{name}': env {key} = {other} is {}: write the value as a string, e.g. {key} = \"{}\"", a_type(other), other.to_string().trim_matches('"')),
                    )),
                }
            }
            let mut options = Vec::new();
            for (key, value) in rb.options.iter().flat_map(|o| o.get_ref()) {
                let rendered = match value.get_ref() {
                    toml::Value::String(v) => Some(v.clone()),
                    toml::Value::Integer(i) => Some(i.to_string()),
                    toml::Value::Float(f) if f.is_finite() => Some(format!("{f:?}")),
                    toml::Value::Boolean(b) => Some(b.to_string()),
                    _ => None,
                };
                let Some(rendered) = rendered else {
                    return Err(at(
                        Some(value.span()),
                        &format!("bot '{name}': option {} is {}: use a string, a whole number, a finite number or a boolean", endodoi_protocol::shown(key), a_type(value.get_ref())),
                    ));
                };
                if !valid_name(key) {
                    return Err(at(
                        Some(value.span()),
                        &format!("bot '{name}': option name '{}' does not fit the protocol: use 1 to 64 of A-Z a-z 0-9 . _ - (no spaces or '=')", endodoi_protocol::shown(key)),
                    ));
                }
                if !valid_option(key, &rendered) {
                    return Err(at(
                        Some(value.span()),
                        &format!("bot '{name}': option {key} = '{}' does not fit the protocol: use printable ASCII without spaces, option.{key}=VALUE at most {MAX_OPTION_BYTES} bytes", endodoi_protocol::shown(&rendered)),
                    ));
                }
                options.push((key.clone(), rendered));
            }
            let hello_bytes = "hello version=1".len()
                + options
                    .iter()
                    .map(|(k, v)| " option.=".len() + k.len() + v.len())
                    .sum::<usize>();
            if hello_bytes > endodoi_protocol::MAX_LINE_BYTES {
                return Err(at(
                    rb.options.as_ref().map(|o| o.span()),
                    &format!("bot '{name}': its options make a hello line of {hello_bytes} bytes, over the protocol's {}: send fewer or shorter options", endodoi_protocol::MAX_LINE_BYTES),
                ));
            }
            bots.push(BotSpec {
                name: name.clone(),
                command: rb.command.get_ref().clone(),
                dir: rb.dir.as_ref().map(|d| base.join(d)),
                base: base.to_path_buf(),
                limits: Limits {
                    memory_mb: int(
                        &rb.memory_mb,
                        "bot.memory_mb",
                        0,
                        MAX_LIMIT,
                        limits.memory_mb as i64,
                    )? as u64,
                    cpu_seconds: int(
                        &rb.cpu_seconds,
                        "bot.cpu_seconds",
                        0,
                        MAX_LIMIT,
                        limits.cpu_seconds as i64,
                    )? as u64,
                    open_files: int(
                        &rb.open_files,
                        "bot.open_files",
                        0,
                        MAX_OPEN_FILES,
                        limits.open_files as i64,
                    )? as u64,
                    cgroups: limits.cgroups,
                },
                sandbox: sandboxed.then_some(spec),
                time: bot_time,
                env,
                options,
            });
        }
        if bots.len() < 2 && !(raw.tune.is_some() && bots.len() == 1) {
            return Err(at(
                None,
                &format!(
                    "{} configured: a round robin needs at least two [[bot]] tables with name and command",
                    if bots.is_empty() { "no bot" } else { "1 bot" }
                ),
            ));
        }
        let mut format = parse_format(r, &bots, raw.sprt.is_some(), base, host, &at)?;
        let rr = &raw.ratings;
        let prior_draws = match &rr.prior_draws {
            None => 1.0,
            Some(p) if p.get_ref().is_finite() && (0.0..=1000.0).contains(p.get_ref()) => {
                *p.get_ref()
            }
            Some(p) => {
                return Err(at(
                    Some(p.span()),
                    "ratings.prior_draws must be from 0 to 1000 (virtual draws per pair)",
                ))
            }
        };
        let bootstrap = int(&rr.bootstrap, "ratings.bootstrap", 0, 100_000, 1000)? as u32;
        if let Format::League(l) = &mut format {
            // The league pairs by the ratings the run reports.
            (l.seed, l.prior_draws, l.bootstrap) = (seed, prior_draws, bootstrap);
            if l.settle_los.is_some() && bootstrap == 0 {
                return Err(at(
                    r.settle_los.as_ref().map(Spanned::span),
                    "tournament.settle_los needs the bootstrap's LOS, and ratings.bootstrap = 0 measures none: set bootstrap above 0 (e.g. 200), or remove settle_los",
                ));
            }
        }
        let anchor_elo = match &rr.anchor_elo {
            None => 0.0,
            Some(e) => check_anchor_elo(*e.get_ref())
                .map_err(|why| at(Some(e.span()), &format!("ratings.anchor_elo is {why}")))?,
        };
        let anchor = match &rr.anchor {
            None => None,
            Some(a) if bots.iter().any(|b| &b.name == a.get_ref()) => {
                Some((a.get_ref().clone(), anchor_elo))
            }
            Some(a) => {
                return Err(at(
                    Some(a.span()),
                    &format!(
                        "ratings.anchor = '{}' is not a bot: name one of the [[bot]] tables",
                        a.get_ref()
                    ),
                ))
            }
        };
        let sprt = match &raw.sprt {
            None => None,
            Some(r) => {
                let rate = |v: &Option<Spanned<f64>>| v.as_ref().map_or(0.05, |v| *v.get_ref());
                let (alpha, beta) = (rate(&r.alpha), rate(&r.beta));
                let (elo0, elo1) = (*r.elo0.get_ref(), *r.elo1.get_ref());
                // Each error points at its key; one about the whole test at
                // its `[sprt]` header (or, written inline or with dotted
                // keys, at its first key).
                let fail = |span: Range<usize>, msg: &str| Err(at(Some(span), msg));
                if bots.len() != 2 {
                    let table = table_header(text, "sprt").unwrap_or_else(|| r.elo0.span());
                    return fail(table, &format!("[sprt] is for a match of two bots, and {} are configured: keep two [[bot]] tables", bots.len()));
                }
                // Hypotheses past ±1000 Elo test nothing a match can tell
                // apart (and NaN or infinity break the LLR).
                for (name, key, x) in [("elo0", &r.elo0, elo0), ("elo1", &r.elo1, elo1)] {
                    if x.is_nan() || x.abs() > SPRT_ELO_LIMIT {
                        return fail(
                            key.span(),
                            &format!("[sprt] {name} must be a number of Elo points from -{SPRT_ELO_LIMIT} to {SPRT_ELO_LIMIT}, e.g. elo0 = 0 and elo1 = 5"),
                        );
                    }
                }
                if elo0 >= elo1 {
                    return fail(
                        r.elo1.span(),
                        "[sprt] needs elo0 < elo1, e.g. elo0 = 0 and elo1 = 5",
                    );
                }
                for v in [&r.alpha, &r.beta].into_iter().flatten() {
                    if !(*v.get_ref() > 0.0 && *v.get_ref() < 0.5) {
                        return fail(
                            v.span(),
                            "[sprt] alpha and beta must be between 0 and 0.5, e.g. 0.05",
                        );
                    }
                }
                Some(SprtSettings {
                    elo0,
                    elo1,
                    alpha,
                    beta,
                    model: r.model.unwrap_or(SprtModelName::Normalized),
                })
            }
        };
        let o = &raw.openings;
        let plies_min = int(&o.plies_min, "openings.plies_min", 0, 100, 2)? as u32;
        let plies_max = int(
            &o.plies_max,
            "openings.plies_max",
            0,
            100,
            i64::from(plies_min.max(4)),
        )? as u32;
        if plies_max < plies_min {
            return Err(at(
                o.plies_max.as_ref().map(|s| s.span()),
                "openings.plies_max is below plies_min: make it at least as large",
            ));
        }
        let opening_book = match &o.file {
            None => None,
            Some(f) => Some(
                read_openings(&base.join(f.get_ref()), rules, host)
                    .map_err(|e| match e {
                        // Missing beside the config, but where paths
                        // used to start from (the host reads a relative
                        // path from the current directory)?
                        OpeningsError::Read {
                            path,
                            cause: source,
                            ..
                        } if source.kind() == std::io::ErrorKind::NotFound
                            && Path::new(f.get_ref()).is_relative()
                            && !base.as_os_str().is_empty()
                            && (host.read)(Path::new(f.get_ref())).is_ok() =>
                        {
                            OpeningsError::Read {
                                path,
                                cause: source,
                                hint: Some(current_dir_hint(Path::new(f.get_ref()), base)),
                            }
                        }
                        e => e,
                    })
                    .map_err(|e| at(Some(f.span()), &e.to_string()))?,
            ),
        };
        Ok(Config {
            bot_origins,
            base: base.to_path_buf(),
            openings_file: o.file.as_ref().map(|f| base.join(f.get_ref())),
            opening_book,
            opening_plies: plies_min..=plies_max,
            opening_plies_set: o.plies_min.is_some() || o.plies_max.is_some(),
            first_to_set: r.first_to.is_some(),
            ratings: RatingSettings {
                prior_draws,
                bootstrap,
                anchor,
            },
            sprt,
            name,
            rules,
            adjudicate,
            tablebase,
            time,
            format,
            tournament: TournamentSettings {
                first_to,
                max_games,
                concurrency,
                seed,
                on_start_failure: r.on_start_failure.unwrap_or(OnStartFailure::Stop),
                affinity: r.affinity.unwrap_or(false),
            },
            bots,
        })
    }
}

/// `[board] adjudicate`, or the span and message of its error.
fn adjudicate_of(
    value: Option<&Spanned<toml::Value>>,
) -> Result<Adjudicate, (Option<Range<usize>>, String)> {
    let Some(v) = value else {
        return Ok(Adjudicate::Off);
    };
    match v.get_ref().as_str() {
        Some("off") => Ok(Adjudicate::Off),
        Some("decided") => Ok(Adjudicate::Decided),
        Some("tablebase") => Ok(Adjudicate::Tablebase),
        other => {
            let close = other
                .and_then(|s| {
                    ["decided", "tablebase"]
                        .into_iter()
                        .find(|c| strsim::jaro_winkler(s, c) > 0.8)
                })
                .map_or(String::new(), |c| format!("; did you mean \"{c}\"?"));
            Err((
                Some(v.span()),
                format!(
                    "board.adjudicate = {} is not a choice: use \"off\" (the default), \"decided\" (end a game once its winner is certain) or \"tablebase\" (end it once the endgame tables of board.tablebase know its result){close}",
                    v.get_ref()
                ),
            ))
        }
    }
}

/// `[board] tablebase`, resolved from `base`, with its manifest's board
/// and lap limit checked against `rules`; or the span and message of its
/// error.
fn tablebase_of(
    dir: Option<&Spanned<String>>,
    adjudicate: Adjudicate,
    rules: Rules,
    base: &Path,
    host: &Host<'_>,
) -> Result<Option<PathBuf>, (Option<Range<usize>>, String)> {
    let dir = match (dir, adjudicate) {
        (None, Adjudicate::Tablebase) => {
            return Err((None, "board.adjudicate = \"tablebase\" needs board.tablebase = \"DIR\", the folder `arena tablebase build --out DIR` wrote: add it".into()))
        }
        (None, _) => return Ok(None),
        (Some(d), Adjudicate::Tablebase) => d,
        (Some(d), _) => {
            return Err((Some(d.span()), "board.tablebase is used only with adjudicate = \"tablebase\": set that, or remove the key".into()))
        }
    };
    let path = base.join(dir.get_ref());
    let manifest = path.join("manifest.toml");
    let fail = |problem: String| {
        Err((
            Some(dir.span()),
            format!("board.tablebase = {:?}: {problem}", dir.get_ref()),
        ))
    };
    let text = match (host.read)(&manifest) {
        Ok(text) => text,
        Err(e) => return fail(format!("cannot read {}: {e}; build the tables there with `arena tablebase build --holes {} --seeds-on-board K --max-laps {} --out DIR` (relative to the config file's folder)", manifest.display(), rules.holes(), rules.max_laps())),
    };
    let board = toml::from_str::<toml::Value>(&text).ok().and_then(|v| {
        let b = v.get("board")?;
        Some((
            b.get("holes")?.as_integer()?,
            b.get("max_laps")?.as_integer()?,
        ))
    });
    match board {
        None => fail(format!("{} is not a tables manifest ([board] holes and max_laps): rebuild it with `arena tablebase build`", manifest.display())),
        Some((holes, max_laps))
            if holes != rules.holes() as i64 || max_laps != i64::from(rules.max_laps()) =>
        {
            fail(format!(
                "the tables are for 2x{holes} with max_laps {max_laps}, but the board is 2x{} with max_laps {}: build tables for this board, or point to them",
                rules.holes(),
                rules.max_laps()
            ))
        }
        Some(_) => Ok(Some(path)),
    }
}

/// What is wrong with an openings file.
#[derive(Debug, thiserror::Error)]
pub enum OpeningsError {
    /// It cannot be read.
    #[error("openings.file {}: {cause}{}", path.display(), hint.as_deref().unwrap_or("; check the path (relative to the config file's folder)"))]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        cause: std::io::Error,
        /// The [`current_dir_hint`], when the current directory has the
        /// file as written.
        hint: Option<String>,
    },
    /// A line is not a legal opening that leaves the game on.
    #[error("openings.file {}:{line}: {why}", path.display())]
    Bad {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// What is wrong, and the fix.
        why: String,
    },
    /// It holds no opening.
    #[error("openings.file {} holds no opening", .0.display())]
    Empty(PathBuf),
}

/// `text` without one leading UTF-8 byte order mark (U+FEFF), which some
/// Windows editors write at the start of a text file: every text file the
/// arena reads (the config, an openings file) goes through this; the CSV
/// reader strips one itself.
#[must_use]
pub fn strip_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// Reads an openings file: one opening per line, own-perspective hole
/// numbers separated by spaces, South first; blank lines and lines starting
/// with `#` are skipped. Every opening must be legal and leave the game on.
/// Why `word` is not a hole number, with the rule, as every reader of a
/// move list says it (the openings file, `arena replay`, `--opening`, the
/// checks of `games.csv`): `'01' is not a hole number: use 1 to 3, in plain
/// digits (no sign, no leading zero)`. `holes` is the board's holes per
/// row when known; without it the range is the largest board's, 1 to
/// [`endodoi::MAX_HOLES`].
#[must_use]
pub fn not_a_hole(word: &str, holes: Option<usize>) -> String {
    let top = holes.unwrap_or(endodoi::MAX_HOLES);
    format!(
        "'{word}' is not a hole number: use 1 to {top}, in plain digits (no sign, no leading zero)"
    )
}

fn read_openings(
    path: &Path,
    rules: Rules,
    host: &Host<'_>,
) -> Result<Vec<Vec<endodoi::Move>>, OpeningsError> {
    let text = (host.read)(path).map_err(|source| OpeningsError::Read {
        path: path.to_path_buf(),
        cause: source,
        hint: None,
    })?;
    let text = strip_bom(&text);
    let mut book = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = |why: String| OpeningsError::Bad {
            path: path.to_path_buf(),
            line: i + 1,
            why,
        };
        let mut pos = rules.start();
        let mut moves = Vec::new();
        for word in line.split_whitespace() {
            let mv = endodoi_protocol::parse_move(word)
                .ok()
                .ok_or_else(|| at(not_a_hole(word, Some(rules.holes()))))?;
            pos.play(mv).map_err(|e| at(format!("move {word}: {e}")))?;
            moves.push(mv);
        }
        if pos.is_over() {
            return Err(at("this opening ends the game: shorten it".into()));
        }
        book.push(moves);
    }
    if book.is_empty() {
        return Err(OpeningsError::Empty(path.to_path_buf()));
    }
    Ok(book)
}

/// The span of table `name`'s header line (`[name]`, spaces and a comment
/// allowed) in TOML `text`, from its `[`; `None` if it has none (a table
/// written inline or with dotted keys).
fn table_header(text: &str, name: &str) -> Option<Range<usize>> {
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start();
        let start = offset + (line.len() - trimmed.len());
        offset += line.len();
        let Some(rest) = trimmed.strip_prefix('[') else {
            continue;
        };
        let Some((inside, after)) = rest.split_once(']') else {
            continue;
        };
        let after = after.trim();
        if inside.trim() == name && (after.is_empty() || after.starts_with('#')) {
            return Some(start..start + 1);
        }
    }
    None
}

/// 1-based line and column of byte `offset` in `text`.
/// Where each line of a text starts (byte offsets), so that a byte offset
/// turns into a line and column in `O(log lines)`: a config of 10,000
/// `[[bot]]` tables names each bot's line without a scan per bot.
struct Lines {
    starts: Vec<usize>,
    len: usize,
}

impl Lines {
    fn new(text: &str) -> Lines {
        let starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        Lines {
            starts,
            len: text.len(),
        }
    }

    /// The 1-based line and byte column of `offset`.
    fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.len);
        let line = self.starts.partition_point(|&s| s <= offset);
        (line, offset - self.starts[line - 1] + 1)
    }
}

/// The first key by which two config files (their bytes) play other
/// games, for a resume's refusal: `None` when they play the same games
/// ([`same_games`]); `[tournament] seed`, `the [[bot]] tables`, or
/// `the file` when one is not TOML.
#[must_use]
pub fn games_difference(a: &[u8], b: &[u8]) -> Option<String> {
    if same_games(a, b) {
        return None;
    }
    let first = match (games_table(a), games_table(b)) {
        (Some(x), Some(y)) => crate::format::roster::changed_keys(&x, &y)
            .into_iter()
            .next(),
        _ => None,
    };
    Some(match first.as_deref() {
        None => "the file".into(),
        Some("bot") => "the [[bot]] tables".into(),
        Some(_) => first.unwrap_or_default(),
    })
}

/// Whether two config files (their bytes) play the same games: equal but
/// for `[tournament]` `concurrency` and `affinity`, which change only how
/// many games run at once and where, so a run may be resumed on another
/// machine. Files that are not TOML are the same only when equal.
#[must_use]
pub fn same_games(a: &[u8], b: &[u8]) -> bool {
    a == b || matches!((games_table(a), games_table(b)), (Some(x), Some(y)) if x == y)
}

/// A config file's table without the keys that do not change its games
/// (`[tournament]` `concurrency` and `affinity`); `None` when not TOML.
fn games_table(bytes: &[u8]) -> Option<toml::Table> {
    let mut value: toml::Table = toml::from_str(std::str::from_utf8(bytes).ok()?).ok()?;
    if let Some(toml::Value::Table(t)) = value.get_mut("tournament") {
        t.remove("concurrency");
        t.remove("affinity");
        if t.is_empty() {
            value.remove("tournament");
        }
    }
    Some(value)
}

/// The starter config `arena init` writes: every key with its default, and
/// two bundled bots, so that it runs as it is.
pub const STARTER: &str = include_str!("starter.toml");

/// A hint for a TOML or serde message: the key meant, for an unknown one;
/// how to write the value, for a wrong type.
/// The fix of a key written twice in one table, whose second writing
/// starts at byte `at` of `text`: `; keep one: it is also on line 3`
/// (the first writing's line, found back to the table's header), or
/// `; keep one of the two` when it cannot be found.
fn duplicate_hint(text: &str, at: usize) -> String {
    let at = at.min(text.len());
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let key_of = |line: &str| {
        line.split_once('=')
            .map(|(k, _)| k.trim().trim_matches('"').to_string())
    };
    let this_line = text[line_start..].lines().next().unwrap_or("");
    let Some(key) = key_of(this_line) else {
        return "; keep one of the two".into();
    };
    let before: Vec<&str> = text[..line_start].lines().collect();
    for (i, line) in before.iter().enumerate().rev() {
        let trimmed = line.trim_start();
        if trimmed.starts_with('[') {
            break;
        }
        if !trimmed.starts_with('#') && key_of(trimmed).as_deref() == Some(key.as_str()) {
            return format!("; keep one: `{key}` is also on line {}", i + 1);
        }
    }
    "; keep one of the two".into()
}

/// The key whose value starts at byte `at` of `text`: the word before the
/// last `=` ahead of it on its line (`seeding` in `seeding = "a"`, `b` in
/// `a = { b = 1 }`); `None` when there is none.
fn key_before(text: &str, at: usize) -> Option<String> {
    let at = at.min(text.len());
    let line = &text[text[..at].rfind('\n').map_or(0, |i| i + 1)..at];
    let (before, _) = line.rsplit_once('=')?;
    let before = before.trim_end();
    let start = before
        .rfind(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '"')))
        .map_or(0, |i| i + 1);
    let key = before[start..].trim_matches('"');
    (!key.is_empty()).then(|| key.to_string())
}

/// The fix for a TOML type error `message` on the value of `key` (when
/// known), with its leading `; `; empty when there is none to name.
fn hint(message: &str, key: Option<&str>) -> String {
    if message.contains("expected a sequence") {
        match key {
            Some("command") | None => {}
            Some(k @ ("sandbox_ro" | "sandbox_rw")) => {
                return format!("; write a list of paths, e.g. {k} = [\"state\"]")
            }
            Some(k) => {
                // The value as written, in the list: `seeding = ["a"]`.
                let value = message
                    .strip_prefix("invalid type: string ")
                    .and_then(|r| r.split_once(", expected"))
                    .map_or("\"name\"", |(v, _)| v);
                return format!("; write a list, e.g. {k} = [{value}]");
            }
        }
    }
    if message.contains("expected a string") {
        match key {
            Some("format") => {
                return "; use \"round-robin\", \"gauntlet\", \"knockout\", \"swiss\" or \"league\"".into()
            }
            Some("decider") => {
                return "; use \"pair\" (extra game pairs) or \"seed\" (the better seed goes through)"
                    .into()
            }
            Some(k @ ("candidates" | "seeding")) => {
                return format!("; write bot names in quotes, e.g. {k} = [\"a\", \"b\"]")
            }
            _ => {}
        }
    }
    if let Some(rest) = message.strip_prefix("unknown field `") {
        let (unknown, expected) = rest.split_once('`').unwrap_or((rest, ""));
        if unknown == "cgroups" {
            return "; cgroups holds for every bot: set it in [limits]".into();
        }
        let closest = expected
            .split('`')
            .skip(1)
            .step_by(2)
            .map(|known| (strsim::jaro_winkler(unknown, known), known))
            .filter(|(score, _)| *score > 0.8)
            .max_by(|a, b| a.0.total_cmp(&b.0));
        return match closest {
            Some((_, known)) => format!("; did you mean `{known}`?"),
            None => "; `arena init` writes a config that lists every key".into(),
        };
    }
    if message.contains("invalid type: string") {
        if message.contains("expected a sequence") {
            return "; write the command as a list of words, e.g. command = [\"python3\", \"bot.py\"]".into();
        }
        if message.contains("number") || message.contains("float") {
            return "; write the number without quotes".into();
        }
        if message.contains("boolean") {
            return "; write true or false, without quotes".into();
        }
    }
    if message.contains("expected a map") {
        return "; write a table of names and values, e.g. env = { MY_SETTING = \"1\" } or options = { depth = 5 }".into();
    }
    if message.contains("missing field `name`") || message.contains("missing field `command`") {
        return "; every [[bot]] needs a name and a command".into();
    }
    String::new()
}

/// A file stem made safe for a folder name.
fn sanitize(stem: &str) -> String {
    let s: String = stem
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '_'
            }
        })
        .take(64)
        .collect();
    if s.is_empty() {
        "tournament".into()
    } else {
        s
    }
}

/// The largest anchor rating, Elo points either way: far beyond any real
/// rating list, small enough that the fit stays exact in `f64`.
pub const MAX_ANCHOR_ELO: f64 = 10_000.0;

/// An anchor rating that is not one.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AnchorEloError {
    /// The text is not a number, or is NaN, infinite or out of range.
    #[error("'{0}' is not an anchor rating: give Elo points from -10000 to 10000, such as 1500")]
    NotARating(String),
    /// The number is NaN, infinite or out of range.
    #[error("out of range: give Elo points from -10000 to 10000, such as 1500")]
    OutOfRange,
}

/// Parses an anchor rating: a finite number of Elo points within
/// [`MAX_ANCHOR_ELO`] either way.
///
/// # Errors
/// [`AnchorEloError::NotARating`]: not a number, NaN or infinite, or out of range.
pub fn anchor_elo(text: &str) -> Result<f64, AnchorEloError> {
    text.trim()
        .parse::<f64>()
        .ok()
        .and_then(|x| check_anchor_elo(x).ok())
        .ok_or_else(|| AnchorEloError::NotARating(text.to_string()))
}

/// `x` if it is a finite rating within [`MAX_ANCHOR_ELO`] either way.
///
/// # Errors
/// [`AnchorEloError::OutOfRange`]: NaN, infinite or out of range.
pub fn check_anchor_elo(x: f64) -> Result<f64, AnchorEloError> {
    if x.is_finite() && x.abs() <= MAX_ANCHOR_ELO {
        Ok(x)
    } else {
        Err(AnchorEloError::OutOfRange)
    }
}

/// The `[tournament]` format keys of `r` checked into a [`Format`] over
/// `bots`: `format`, `candidates` (gauntlet), `seeding` or `seeding_file`
/// (knockout, Swiss), `decider` (knockout), `rounds` (Swiss). A key of
/// another format is an error, since it would leave the organiser believing
/// it holds.
fn parse_format(
    r: &RawTournament,
    bots: &[BotSpec],
    sprt: bool,
    base: &Path,
    host: &Host<'_>,
    at: &dyn Fn(Option<Range<usize>>, &str) -> ConfigError,
) -> Result<Format, ConfigError> {
    const NAMES: &str = "\"round-robin\", \"gauntlet\", \"knockout\", \"swiss\" or \"league\"";
    let name = r
        .format
        .as_ref()
        .map_or("round-robin", |f| f.get_ref().as_str());
    if !["round-robin", "gauntlet", "knockout", "swiss", "league"].contains(&name) {
        return Err(at(
            r.format.as_ref().map(|f| f.span()),
            &format!("tournament.format = \"{name}\" is not a format: use {NAMES}"),
        ));
    }
    // Keys that belong to other formats than this one.
    let only = |key: &str, span: Option<Range<usize>>, formats: &[&str]| {
        match span {
            Some(span) if !formats.contains(&name) => Err(at(
                Some(span),
                &format!(
                    "tournament.{key} applies only to format = {}, and this config's format is \"{name}\": set the format, or remove {key}",
                    formats.iter().map(|f| format!("\"{f}\"")).collect::<Vec<_>>().join(" or ")
                ),
            )),
            _ => Ok(()),
        }
    };
    only(
        "candidates",
        r.candidates.as_ref().map(Spanned::span),
        &["gauntlet"],
    )?;
    only(
        "decider",
        r.decider.as_ref().map(Spanned::span),
        &["knockout"],
    )?;
    only(
        "rounds",
        r.rounds.as_ref().map(Spanned::span),
        &["swiss", "league"],
    )?;
    only(
        "settle_los",
        r.settle_los.as_ref().map(Spanned::span),
        &["league"],
    )?;
    only(
        "pairing",
        r.pairing.as_ref().map(Spanned::span),
        &["league"],
    )?;
    only(
        "catch_up",
        r.catch_up.as_ref().map(Spanned::span),
        &["league"],
    )?;
    only(
        "seeding",
        r.seeding.as_ref().map(Spanned::span),
        &["knockout", "swiss"],
    )?;
    only(
        "seeding_file",
        r.seeding_file.as_ref().map(Spanned::span),
        &["knockout", "swiss"],
    )?;
    if sprt && name != "round-robin" {
        return Err(at(
            r.format.as_ref().map(|f| f.span()),
            &format!("tournament.format = \"{name}\" does not go with [sprt], a match of two bots: remove format, or remove [sprt]"),
        ));
    }
    let index_of = |n: &str| bots.iter().position(|b| b.name == n);
    // A list of bot names: each a bot, none twice.
    let names = |list: &Spanned<Vec<String>>, key: &str| -> Result<Vec<usize>, ConfigError> {
        let mut out = Vec::new();
        for n in list.get_ref() {
            let Some(i) = index_of(n) else {
                return Err(at(
                    Some(list.span()),
                    &format!(
                        "tournament.{key} names '{n}', which is not a bot: name [[bot]] tables"
                    ),
                ));
            };
            if out.contains(&i) {
                return Err(at(
                    Some(list.span()),
                    &format!("tournament.{key} names '{n}' twice: name each bot once"),
                ));
            }
            out.push(i);
        }
        Ok(out)
    };
    match name {
        "round-robin" => Ok(Format::RoundRobin),
        "league" => league_format(r, at),
        "gauntlet" => {
            let Some(list) = &r.candidates else {
                return Err(at(
                    r.format.as_ref().map(|f| f.span()),
                    "tournament.format = \"gauntlet\" needs candidates: the bots that meet all the others, e.g. candidates = [\"new\"]",
                ));
            };
            let candidates = names(list, "candidates")?;
            if candidates.is_empty() {
                return Err(at(
                    Some(list.span()),
                    "tournament.candidates is empty: name at least one bot, e.g. candidates = [\"new\"]",
                ));
            }
            Ok(Format::Gauntlet { candidates })
        }
        _ => {
            // The seeds: the listed bots first, in that order, then the
            // others in the config's order.
            let mut seeds = match (&r.seeding, &r.seeding_file) {
                (Some(list), None) => names(list, "seeding")?,
                (None, Some(file)) => {
                    let path = base.join(file.get_ref());
                    let text = (host.read)(&path).map_err(|e| {
                        at(
                            Some(file.span()),
                            &format!("tournament.seeding_file: cannot read {}: {e}: give the path of a standings.csv (from the config's folder)", path.display()),
                        )
                    })?;
                    let ranked = ranked_bots(&text).map_err(|why| {
                        at(
                            Some(file.span()),
                            &format!("tournament.seeding_file {}: {why}", path.display()),
                        )
                    })?;
                    let mut seeds = Vec::new();
                    for n in &ranked {
                        if let Some(i) = index_of(n).filter(|i| !seeds.contains(i)) {
                            seeds.push(i);
                        }
                    }
                    seeds
                }
                (Some(_), Some(file)) => {
                    return Err(at(
                        Some(file.span()),
                        "tournament.seeding and seeding_file are both set: keep one",
                    ))
                }
                (None, None) => Vec::new(),
            };
            let rest: Vec<usize> = (0..bots.len()).filter(|i| !seeds.contains(i)).collect();
            seeds.extend(rest);
            if name == "knockout" {
                let decider = match r.decider.as_ref().map(|d| d.get_ref().as_str()) {
                    None | Some("pair") => Decider::Pair,
                    Some("seed") => Decider::Seed,
                    Some(other) => {
                        return Err(at(
                            r.decider.as_ref().map(Spanned::span),
                            &format!("tournament.decider = \"{other}\" is not a decider: use \"pair\" (extra game pairs) or \"seed\" (the better seed goes through)"),
                        ))
                    }
                };
                Ok(Format::Knockout { seeds, decider })
            } else {
                // Each bot can meet a new one in n - 1 rounds (n with an odd
                // count, one of them a bye).
                let most = (bots.len() - 1 + bots.len() % 2) as i64;
                let default = (usize::BITS - (bots.len() - 1).leading_zeros()) as i64;
                let rounds = match &r.rounds {
                    None => default.min(most),
                    Some(s) if (1..=most).contains(s.get_ref()) => *s.get_ref(),
                    Some(s) => {
                        return Err(at(
                            Some(s.span()),
                            &format!(
                                "tournament.rounds = {} is out of range: {} bots can play 1 to {most} rounds without a repeat (default {})",
                                s.get_ref(),
                                bots.len(),
                                default.min(most)
                            ),
                        ))
                    }
                };
                Ok(Format::Swiss {
                    seeds,
                    rounds: rounds as u32,
                })
            }
        }
    }
}

/// A league's `rounds`, `settle_los`, `pairing` and `catch_up` checked (the seed and
/// the ratings' settings are filled in from their own keys afterwards).
fn league_format(
    r: &RawTournament,
    at: &dyn Fn(Option<Range<usize>>, &str) -> ConfigError,
) -> Result<Format, ConfigError> {
    use crate::format::{
        LeagueSettings, PairBy, LEAGUE_CATCH_UP, LEAGUE_MAX_CATCH_UP, LEAGUE_MAX_ROUNDS,
    };
    let pairing = match r.pairing.as_ref().map(|p| p.get_ref().as_str()) {
        None | Some("rating") => PairBy::Rating,
        Some("random") => PairBy::Random,
        Some(other) => {
            return Err(at(
                r.pairing.as_ref().map(Spanned::span),
                &format!("tournament.pairing = \"{other}\" is not a pairing: use \"rating\" (by the current ratings, the default) or \"random\" (a random matching each round, a control)"),
            ))
        }
    };
    let rounds = match &r.rounds {
        None => None,
        Some(s) if (1..=i64::from(LEAGUE_MAX_ROUNDS)).contains(s.get_ref()) => {
            Some(*s.get_ref() as u32)
        }
        Some(s) => {
            return Err(at(
                Some(s.span()),
                &format!(
                    "tournament.rounds = {} is out of range: a league plays 1 to {LEAGUE_MAX_ROUNDS} rounds; remove rounds to play until stopped",
                    s.get_ref()
                ),
            ))
        }
    };
    let settle_los = match &r.settle_los {
        None => None,
        Some(p) if p.get_ref().is_finite() && (0.5..1.0).contains(p.get_ref()) => {
            Some(*p.get_ref())
        }
        Some(p) => {
            return Err(at(
                Some(p.span()),
                &format!(
                    "tournament.settle_los = {} is out of range: give a likelihood of superiority from 0.5 to below 1, e.g. 0.95",
                    p.get_ref()
                ),
            ))
        }
    };
    let catch_up = match &r.catch_up {
        None => LEAGUE_CATCH_UP,
        Some(k) if (1..=i64::from(LEAGUE_MAX_CATCH_UP)).contains(k.get_ref()) => *k.get_ref() as u32,
        Some(k) => {
            return Err(at(
                Some(k.span()),
                &format!(
                    "tournament.catch_up = {} is out of range: give the most series a late entrant far behind plays in a round, 1 to {LEAGUE_MAX_CATCH_UP} (1: one series a round like every bot; default {LEAGUE_CATCH_UP})",
                    k.get_ref()
                ),
            ))
        }
    };
    Ok(Format::League(LeagueSettings {
        rounds,
        settle_los,
        seed: 0,
        prior_draws: 1.0,
        bootstrap: 0,
        pairing,
        catch_up,
    }))
}

/// The bots of a standings file (`arena rate`'s or a run's
/// `standings.csv`), best first: the `bot` column in the file's order,
/// which is by `rank`.
///
/// # Errors
/// A line naming the problem: no `bot` column, a row that is not CSV.
fn ranked_bots(text: &str) -> Result<Vec<String>, String> {
    let mut reader = csv::ReaderBuilder::new().from_reader(strip_bom(text).as_bytes());
    let headers = reader
        .headers()
        .map_err(|e| format!("is not CSV: {e}"))?
        .clone();
    let Some(bot) = headers.iter().position(|h| h == "bot") else {
        return Err(
            "has no bot column: give a standings.csv written by arena run or arena rate".into(),
        );
    };
    let mut out = Vec::new();
    for row in reader.records() {
        let row = row.map_err(|e| format!("is not CSV: {e}"))?;
        if let Some(name) = row.get(bot) {
            out.push(name.to_string());
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_agree_with_a_scan() {
        // Every offset of a text, against counting the newlines before it.
        for text in ["", "a", "\n", "ab\ncd\n\nef", "[[bot]]\nname = \"x\"\n"] {
            let lines = Lines::new(text);
            for offset in 0..=text.len() + 2 {
                let before = &text[..offset.min(text.len())];
                let line = before.matches('\n').count() + 1;
                let col = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
                assert_eq!(lines.line_col(offset), (line, col), "{text:?} at {offset}");
            }
        }
    }

    const TWO_BOTS: &str = r#"
[[bot]]
name = "a"
command = ["x"]
[[bot]]
name = "b"
command = ["y", "--seed", "2"]
dir = "bots"
"#;

    #[test]
    fn defaults_fill_missing_keys() {
        let c = Config::parse(TWO_BOTS, "t.toml", "t", &crate::commands::host()).unwrap();
        assert_eq!(c.name, "t");
        assert_eq!((c.rules.holes(), c.rules.seeds()), (8, 4));
        assert_eq!(c.rules.max_plies(), 1000);
        assert_eq!(c.time.move_time_ms, 1000);
        assert_eq!(c.tournament.first_to, 5);
        assert_eq!(c.tournament.max_games, 15);
        assert_eq!(c.bots[1].command, ["y", "--seed", "2"]);
        assert_eq!(c.bots[1].dir, Some(PathBuf::from("bots")));
    }

    /// The config of bot `a` with `keys` (TOML lines) beside bot `b`.
    fn with_bot_keys(keys: &str) -> Result<Config, ConfigError> {
        Config::parse(
            &format!("[time]\nmove_time_ms = 500\nmargin_ms = 20\n[[bot]]\nname = \"a\"\ncommand = [\"x\"]\n{keys}\n[[bot]]\nname = \"b\"\ncommand = [\"y\"]\n"),
            "t.toml",
            "t",
            &crate::commands::host(),
        )
    }

    #[test]
    fn a_bots_own_time_replaces_the_tables() {
        let c =
            with_bot_keys("move_time_ms = 0\nbase_time_ms = 60000\nincrement_ms = 100").unwrap();
        let [a, b] = [&c.bots[0].time, &c.bots[1].time];
        assert_eq!(
            (a.move_time_ms, a.base_time_ms, a.increment_ms),
            (0, 60_000, 100)
        );
        // margin and start-up are the table's, for every bot.
        assert_eq!((a.margin_ms, a.startup_ms), (20, DEFAULT_STARTUP_MS));
        assert_eq!(*b, c.time);
        assert_eq!(b.move_time_ms, 500);
        let e = with_bot_keys("move_time_ms = 0").unwrap_err().to_string();
        assert!(
            e.starts_with("t.toml:7:16: bot 'a': move_time_ms = 0 and no game clock"),
            "{e}"
        );
        // An increment with no game clock to add to is refused where it is
        // set: the bot's own keys, or [time]'s.
        let e = with_bot_keys("increment_ms = 100").unwrap_err().to_string();
        assert_eq!(e, "t.toml:7:16: bot 'a': increment_ms = 100 adds to a game clock, and base_time_ms = 0 sets none: set its base_time_ms, or remove increment_ms");
        let e = Config::parse(
            &format!(
                "[time]\nbase_time_ms = 1000\nincrement_ms = 100\n{TWO_BOTS}\nbase_time_ms = 0\n"
            ),
            "t.toml",
            "t",
            &crate::commands::host(),
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains(": bot 'b': base_time_ms = 0 sets no game clock, and [time]'s increment_ms = 100 adds to one: set its base_time_ms above 0, or its increment_ms = 0"), "{e}");
        let e = Config::parse(
            &format!("[time]\nincrement_ms = 100\n{TWO_BOTS}"),
            "t.toml",
            "t",
            &crate::commands::host(),
        )
        .unwrap_err()
        .to_string();
        assert_eq!(e, "t.toml:2:16: time.increment_ms = 100 adds to a game clock, and base_time_ms = 0 sets none: set base_time_ms, or remove increment_ms");
        let e = with_bot_keys("increment_ms = -1").unwrap_err().to_string();
        assert!(
            e.starts_with(
                "t.toml:7:16: bot 'a': increment_ms = -1 is out of range: use 0 to 86400000"
            ),
            "{e}"
        );
    }

    #[test]
    fn env_takes_variable_names_and_strings() {
        let c = with_bot_keys("env = { B_2 = \"x y\", _A = \"\" }").unwrap();
        assert_eq!(
            c.bots[0].env,
            [("B_2".into(), "x y".into()), ("_A".into(), String::new())]
        );
        assert!(c.bots[1].env.is_empty());
        for (keys, want) in [
            ("env = { 2X = \"1\" }", "t.toml:7:14: bot 'a': env name '2X' is not a variable name"),
            ("env = { \"A=B\" = \"1\" }", "t.toml:7:17: bot 'a': env name 'A=B'"),
            ("env = { A-B = \"1\" }", "t.toml:7:15: bot 'a': env name 'A-B'"),
            ("env = { DEPTH = 5 }", "t.toml:7:17: bot 'a': env DEPTH = 5 is an integer: write the value as a string, e.g. DEPTH = \"5\""),
            ("env = { A = \"a\\u0000b\" }", "t.toml:7:13: bot 'a': env A holds a NUL"),
        ] {
            let e = with_bot_keys(keys).unwrap_err().to_string();
            assert!(e.starts_with(want), "{keys}: {e}");
        }
        let e = with_bot_keys("env = \"A=1\"").unwrap_err().to_string();
        assert!(e.contains("e.g. env = { MY_SETTING"), "{e}");
    }

    #[test]
    fn options_are_rendered_plainly_and_must_fit_the_protocol() {
        let c = with_bot_keys(
            "options = { depth = 5, style = \"fast\", c = 1.5, d = 2.0, big = 1e300, on = true, k = -3 }",
        )
        .unwrap();
        let shown: Vec<String> = c.bots[0]
            .options
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        assert_eq!(
            shown,
            [
                "big=1e300",
                "c=1.5",
                "d=2.0",
                "depth=5",
                "k=-3",
                "on=true",
                "style=fast"
            ]
        );
        for (keys, want) in [
            (
                "options = { \"my depth\" = 5 }",
                "t.toml:7:26: bot 'a': option name 'my depth' does not fit",
            ),
            (
                "options = { \"a=b\" = 5 }",
                "t.toml:7:21: bot 'a': option name 'a=b'",
            ),
            (
                "options = { style = \"very fast\" }",
                "t.toml:7:21: bot 'a': option style = 'very fast' does not fit",
            ),
            (
                "options = { list = [1, 2] }",
                "t.toml:7:20: bot 'a': option list is an array",
            ),
            (
                "options = { x = nan }",
                "t.toml:7:17: bot 'a': option x is a float",
            ),
            (
                "options = { at = 1979-05-27 }",
                "t.toml:7:18: bot 'a': option at is a datetime",
            ),
        ] {
            let e = with_bot_keys(keys).unwrap_err().to_string();
            assert!(e.starts_with(want), "{keys}: {e}");
        }
        let long = "v".repeat(MAX_OPTION_BYTES);
        let e = with_bot_keys(&format!("options = {{ x = \"{long}\" }}"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("at most 409 bytes"), "{e}");
        // Many options that fit one by one, but not in one hello line.
        let many: Vec<String> = (0..20)
            .map(|i| format!("o{i} = \"{}\"", "v".repeat(300)))
            .collect();
        let e = with_bot_keys(&format!("options = {{ {} }}", many.join(", ")))
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("t.toml:7:11: bot 'a': its options make a hello line of"),
            "{e}"
        );
    }

    #[test]
    fn errors_teach_the_fix() {
        let error = |text: &str| {
            Config::parse(
                &format!("{text}\n{TWO_BOTS}"),
                "t.toml",
                "t",
                &crate::commands::host(),
            )
            .unwrap_err()
            .to_string()
        };
        let e = error("[tournament]\nconcurency = 2");
        assert!(
            e.starts_with("t.toml:2:1: unknown field `concurency`"),
            "{e}"
        );
        assert!(e.contains("did you mean `concurrency`?"), "{e}");
        let e = error("[tournament]\nzzz = 2");
        assert!(
            !e.contains("did you mean") && e.contains("arena init"),
            "{e}"
        );
        let e = error("[board]\nholes = \"8\"");
        assert!(e.contains("write the number without quotes"), "{e}");
        let e = error("[limits]\nsandbox = \"yes\"");
        assert!(e.contains("write true or false"), "{e}");
        let e = Config::parse(
            "[[bot]]\nname = \"a\"\ncommand = \"x y\"\n",
            "t.toml",
            "t",
            &crate::commands::host(),
        )
        .unwrap_err()
        .to_string();
        assert!(
            e.starts_with("t.toml:3:11:") && e.contains("list of words"),
            "{e}"
        );
    }

    #[test]
    fn the_starter_config_runs_as_it_is_and_shows_the_defaults() {
        let starter =
            Config::parse(STARTER, "arena.toml", "arena", &crate::commands::host()).unwrap();
        let defaults = Config::parse(TWO_BOTS, "t.toml", "t", &crate::commands::host()).unwrap();
        assert_eq!(starter.rules, defaults.rules);
        assert_eq!(starter.adjudicate, defaults.adjudicate);
        assert_eq!(starter.time, defaults.time);
        assert_eq!(starter.tournament, defaults.tournament);
        assert_eq!(starter.ratings, defaults.ratings);
        assert_eq!(starter.opening_plies, defaults.opening_plies);
        assert_eq!(starter.bots[0].limits, defaults.bots[0].limits);
        assert_eq!(starter.bots.len(), 2);
    }

    #[test]
    fn the_starter_config_lists_every_key() {
        // Each table's keys, as serde lists them for an unknown one.
        for table in [
            "",
            "[board]",
            "[time]",
            "[tournament]",
            "[openings]",
            "[ratings]",
            "[limits]",
            "[sprt]\nelo0 = 0\nelo1 = 5",
            "[[bot]]\nname = \"z\"\ncommand = [\"z\"]",
        ] {
            let e = Config::parse(
                &format!("{table}\nzzz = 1\n"),
                "t",
                "t",
                &crate::commands::host(),
            )
            .unwrap_err()
            .to_string();
            let keys: Vec<&str> = e
                .split("expected one of ")
                .nth(1)
                .and_then(|rest| rest.split(';').next())
                .unwrap_or_else(|| panic!("{e}"))
                .split('`')
                .skip(1)
                .step_by(2)
                .collect();
            assert!(!keys.is_empty(), "{e}");
            for key in keys {
                let written = STARTER
                    .lines()
                    .map(|l| l.trim_start_matches(['#', ' ', '[']))
                    .any(|l| {
                        l.strip_prefix(key)
                            .is_some_and(|rest| rest.starts_with([' ', '=', ']']))
                    });
                assert!(written, "the starter config lacks `{key}` of {table:?}");
            }
        }
    }

    #[test]
    fn format_keys_are_checked_against_the_format_and_the_bots() {
        let bots = "[[bot]]\nname = \"a\"\ncommand = [\"x\"]\n[[bot]]\nname = \"b\"\ncommand = [\"x\"]\n[[bot]]\nname = \"c\"\ncommand = [\"x\"]\n";
        let files = |p: &Path| match p.to_str() {
            Some("ranks.csv") => Ok("rank,bot,elo\n1,c,50\n2,zed,10\n3,a,-60\n".to_string()),
            _ => Err(std::io::Error::from(std::io::ErrorKind::NotFound)),
        };
        let host = Host {
            cores: 2,
            read: &files,
        };
        let parse = |tournament: &str| {
            Config::parse(
                &format!("[tournament]\n{tournament}\n{bots}"),
                "t.toml",
                "t",
                &host,
            )
        };
        let err = |tournament: &str| parse(tournament).unwrap_err().to_string();
        assert_eq!(parse("").unwrap().format, Format::RoundRobin);
        assert_eq!(
            parse("format = \"gauntlet\"\ncandidates = [\"b\"]")
                .unwrap()
                .format,
            Format::Gauntlet {
                candidates: vec![1]
            }
        );
        // Seeds: the listed bots first, then the others in the config's order.
        assert_eq!(
            parse("format = \"knockout\"\nseeding = [\"b\"]")
                .unwrap()
                .format,
            Format::Knockout {
                seeds: vec![1, 0, 2],
                decider: Decider::Pair
            }
        );
        // A standings file: its order, bots it does not know left out.
        assert_eq!(
            parse("format = \"swiss\"\nseeding_file = \"ranks.csv\"\nrounds = 3")
                .unwrap()
                .format,
            Format::Swiss {
                seeds: vec![2, 0, 1],
                rounds: 3
            }
        );
        assert_eq!(
            parse("format = \"swiss\"").unwrap().format,
            Format::Swiss {
                seeds: vec![0, 1, 2],
                rounds: 2
            }
        );
        // A league: its keys, the ratings' settings, one game pair a pairing.
        let league = parse("format = \"league\"\nrounds = 5\nsettle_los = 0.95").unwrap();
        let Format::League(l) = league.format else {
            panic!("{:?}", league.format)
        };
        assert_eq!((l.rounds, l.settle_los), (Some(5), Some(0.95)));
        assert_eq!(l.seed, league.tournament.seed);
        assert_eq!(l.bootstrap, league.ratings.bootstrap);
        assert_eq!(league.tournament.max_games, 2);
        let open = parse("format = \"league\"").unwrap();
        assert!(
            matches!(open.format, Format::League(l) if l.rounds.is_none() && l.settle_los.is_none() && l.pairing == crate::format::PairBy::Rating)
        );
        let random = parse("format = \"league\"\npairing = \"random\"").unwrap();
        assert!(
            matches!(random.format, Format::League(l) if l.pairing == crate::format::PairBy::Random)
        );
        assert!(
            matches!(open.format, Format::League(l) if l.catch_up == crate::format::LEAGUE_CATCH_UP)
        );
        let off = parse("format = \"league\"\ncatch_up = 1").unwrap();
        assert!(matches!(off.format, Format::League(l) if l.catch_up == 1));
        for (tournament, expected) in [
            ("format = \"ladder\"", "t.toml:2:10: tournament.format = \"ladder\" is not a format: use \"round-robin\", \"gauntlet\", \"knockout\", \"swiss\" or \"league\""),
            ("candidates = [\"a\"]", "t.toml:2:14: tournament.candidates applies only to format = \"gauntlet\", and this config's format is \"round-robin\": set the format, or remove candidates"),
            ("format = \"gauntlet\"", "t.toml:2:10: tournament.format = \"gauntlet\" needs candidates"),
            ("format = \"gauntlet\"\ncandidates = [\"q\"]", "t.toml:3:14: tournament.candidates names 'q', which is not a bot"),
            ("format = \"knockout\"\nseeding = [\"a\", \"a\"]", "t.toml:3:11: tournament.seeding names 'a' twice"),
            ("format = \"knockout\"\ndecider = \"coin\"", "t.toml:3:11: tournament.decider = \"coin\" is not a decider"),
            ("format = \"knockout\"\nrounds = 2", "t.toml:3:10: tournament.rounds applies only to format = \"swiss\" or \"league\""),
            ("format = \"swiss\"\nsettle_los = 0.9", "t.toml:3:14: tournament.settle_los applies only to format = \"league\""),
            ("format = \"swiss\"\npairing = \"random\"", "t.toml:3:11: tournament.pairing applies only to format = \"league\""),
            ("format = \"league\"\npairing = \"best\"", "t.toml:3:11: tournament.pairing = \"best\" is not a pairing: use \"rating\""),
            ("format = \"league\"\nsettle_los = 1.0", "t.toml:3:14: tournament.settle_los = 1 is out of range"),
            ("format = \"league\"\ncatch_up = 0", "t.toml:3:12: tournament.catch_up = 0 is out of range: give the most series a late entrant far behind plays in a round, 1 to 16"),
            ("format = \"swiss\"\ncatch_up = 2", "t.toml:3:12: tournament.catch_up applies only to format = \"league\""),
            ("format = \"league\"\nrounds = 0", "t.toml:3:10: tournament.rounds = 0 is out of range: a league plays 1 to 1000000 rounds"),
            ("format = \"swiss\"\nrounds = 4", "t.toml:3:10: tournament.rounds = 4 is out of range: 3 bots can play 1 to 3 rounds"),
            ("format = \"swiss\"\nseeding_file = \"none.csv\"", "t.toml:3:16: tournament.seeding_file: cannot read none.csv"),
            // Type errors name the key's fix, not the command's.
            ("format = \"knockout\"\nseeding = \"a\"", "t.toml:3:11: invalid type: string \"a\", expected a sequence; write a list, e.g. seeding = [\"a\"] (in `seeding = \"a\"`)"),
            ("format = \"gauntlet\"\ncandidates = \"b\"", "t.toml:3:14: invalid type: string \"b\", expected a sequence; write a list, e.g. candidates = [\"b\"]"),
            ("format = \"gauntlet\"\ncandidates = [1, 2]", "t.toml:3:15: invalid type: integer `1`, expected a string; write bot names in quotes, e.g. candidates = [\"a\", \"b\"]"),
            ("format = 3", "t.toml:2:10: invalid type: integer `3`, expected a string; use \"round-robin\", \"gauntlet\", \"knockout\", \"swiss\" or \"league\" (in `format = 3`)"),
            ("format = \"knockout\"\ndecider = 1", "t.toml:3:11: invalid type: integer `1`, expected a string; use \"pair\" (extra game pairs) or \"seed\""),
        ] {
            let e = err(tournament);
            assert!(e.starts_with(expected), "{tournament:?}: {e}");
        }
    }

    #[test]
    fn adjudication_is_off_unless_asked_for_and_takes_two_values() {
        let parse = |board: &str| {
            let text = format!("[board]\n{board}\n{TWO_BOTS}");
            Config::parse(&text, "t.toml", "t", &crate::commands::host()).map_err(|e| e.to_string())
        };
        assert_eq!(parse("").unwrap().adjudicate, Adjudicate::Off);
        assert_eq!(
            parse("adjudicate = \"off\"").unwrap().adjudicate,
            Adjudicate::Off
        );
        assert_eq!(
            parse("adjudicate = \"decided\"").unwrap().adjudicate,
            Adjudicate::Decided
        );
        let e = parse("adjudicate = \"decide\"").unwrap_err();
        assert_eq!(
            e,
            "t.toml:2:14: board.adjudicate = \"decide\" is not a choice: use \"off\" (the default), \"decided\" (end a game once its winner is certain) or \"tablebase\" (end it once the endgame tables of board.tablebase know its result); did you mean \"decided\"?"
        );
        for bad in ["\"always\"", "true", "1"] {
            let e = parse(&format!("adjudicate = {bad}")).unwrap_err();
            assert!(
                e.starts_with(&format!(
                    "t.toml:2:14: board.adjudicate = {bad} is not a choice: use \"off\""
                )),
                "{e}"
            );
            assert!(!e.contains("did you mean") && !e.contains('\n'), "{e}");
        }
    }

    #[test]
    fn tablebase_adjudication_needs_tables_of_its_board() {
        let parse = |board: &str, manifest: &str| {
            let text = format!("[board]\nholes = 3\n{board}\n{TWO_BOTS}");
            let manifest = manifest.to_string();
            let read = move |p: &Path| {
                if p.ends_with("tb/manifest.toml") && !manifest.is_empty() {
                    Ok(manifest.clone())
                } else {
                    Err(std::io::Error::from(std::io::ErrorKind::NotFound))
                }
            };
            let host = Host {
                cores: 1,
                read: &read,
            };
            Config::parse_in(&text, "t.toml", "t", Path::new("cfg"), &host)
                .map_err(|e| e.to_string())
        };
        let good = "[board]\nholes = 3\nmax_laps = 100000\n";
        let c = parse("adjudicate = \"tablebase\"\ntablebase = \"tb\"", good).unwrap();
        assert_eq!(c.adjudicate, Adjudicate::Tablebase);
        assert_eq!(c.tablebase.as_deref(), Some(Path::new("cfg/tb")));
        for (board, manifest, expected) in [
            ("adjudicate = \"tablebase\"", good, "t.toml: board.adjudicate = \"tablebase\" needs board.tablebase"),
            ("tablebase = \"tb\"", good, "t.toml:3:13: board.tablebase is used only with adjudicate = \"tablebase\""),
            ("adjudicate = \"tablebase\"\ntablebase = \"tb\"", "", "t.toml:4:13: board.tablebase = \"tb\": cannot read cfg/tb/manifest.toml"),
            ("adjudicate = \"tablebase\"\ntablebase = \"tb\"", "[board]\nholes = 4\nmax_laps = 100000\n", "t.toml:4:13: board.tablebase = \"tb\": the tables are for 2x4 with max_laps 100000, but the board is 2x3"),
            ("adjudicate = \"tablebase\"\nmax_laps = 7\ntablebase = \"tb\"", good, "t.toml:5:13: board.tablebase = \"tb\": the tables are for 2x3 with max_laps 100000, but the board is 2x3 with max_laps 7"),
            ("adjudicate = \"tablebase\"\ntablebase = \"tb\"", "holes = 3", "t.toml:4:13: board.tablebase = \"tb\": cfg/tb/manifest.toml is not a tables manifest"),
        ] {
            let e = parse(board, manifest).unwrap_err();
            assert!(e.starts_with(expected), "{board:?}: {e}");
            assert!(!e.contains('\n'), "{e}");
        }
    }

    #[test]
    fn errors_point_at_the_line() {
        let text = format!("[board]\nholes = 60\n{TWO_BOTS}");
        let e = Config::parse(&text, "t.toml", "t", &crate::commands::host())
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("t.toml:2:9: board.holes = 60 is out of range"),
            "{e}"
        );
        assert!(!e.contains('\n'));

        let text = format!("[board]\nholse = 6\n{TWO_BOTS}");
        let e = Config::parse(&text, "t.toml", "t", &crate::commands::host())
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("t.toml:2:1: unknown field `holse`"), "{e}");
        assert!(!e.contains('\n'));
    }

    #[test]
    fn sandbox_true_where_the_platform_has_none_stops_at_its_line() {
        let text = "[[bot]]\nname = \"a\"\ncommand = [\"x\"]\nsandbox = true\n[[bot]]\nname = \"b\"\ncommand = [\"x\"]\n";
        let parsed = Config::parse(text, "t.toml", "t", &crate::commands::host());
        if crate::platform::SANDBOX {
            assert!(parsed.unwrap().bots[0].sandbox.is_some());
        } else {
            let e = parsed.unwrap_err().to_string();
            assert_eq!(e, format!("t.toml:4:11: {}", crate::platform::NO_SANDBOX));
        }
    }

    #[test]
    fn cgroups_is_a_choice_of_limits_for_every_bot() {
        let parse = |limits: &str, bot: &str| {
            let text = format!(
                "[limits]\n{limits}\n[[bot]]\nname = \"a\"\ncommand = [\"x\"]\n{bot}\n[[bot]]\nname = \"b\"\ncommand = [\"x\"]\n"
            );
            Config::parse(&text, "t.toml", "t", &crate::commands::host())
        };
        let mode = |limits: &str| parse(limits, "").unwrap().bots[1].limits.cgroups;
        assert_eq!(mode(""), CgroupMode::Auto);
        assert_eq!(mode("cgroups = \"auto\""), CgroupMode::Auto);
        if crate::platform::CGROUPS {
            assert_eq!(mode("cgroups = \"require\""), CgroupMode::Require);
        } else {
            // Where the platform has none, at the setting's line.
            let e = parse("cgroups = \"require\"", "").unwrap_err().to_string();
            assert_eq!(e, format!("t.toml:2:11: {}", crate::platform::NO_CGROUPS));
        }
        assert_eq!(mode("cgroups = \"off\""), CgroupMode::Off);
        for bad in ["\"yes\"", "true", "\"Require\""] {
            let e = parse(&format!("cgroups = {bad}"), "")
                .unwrap_err()
                .to_string();
            assert!(
                e.starts_with(&format!(
                    "t.toml:2:11: limits.cgroups = {bad} is not a choice: use \"auto\""
                )),
                "{e}"
            );
        }
        let e = parse("", "cgroups = \"off\"").unwrap_err().to_string();
        assert!(e.starts_with("t.toml:6:1: unknown field `cgroups`"), "{e}");
        assert!(
            e.contains("; cgroups holds for every bot: set it in [limits] (in"),
            "{e}"
        );
    }

    #[test]
    fn type_errors_name_the_line() {
        let text = format!("[board]\nholes = \"8\"\n{TWO_BOTS}");
        let e = Config::parse(&text, "t", "t", &crate::commands::host())
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with(
                "t:2:9: invalid type: string \"8\", expected a whole number; write the number without quotes (in `holes = \"8\"`)"
            ),
            "{e}"
        );
        let e = Config::parse(
            "[bot]\nname = \"a\"\ncommand = [\"x\"]\n",
            "t",
            "t",
            &crate::commands::host(),
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("write [[bot]]"), "{e}");
        let text = format!("[board]\nmax_laps = 2\n{TWO_BOTS}");
        let e = Config::parse(&text, "t", "t", &crate::commands::host())
            .unwrap_err()
            .to_string();
        assert!(e.contains("every first move endless"), "{e}");
    }

    #[test]
    fn openings_from_a_file_are_checked() {
        let dir = tempfile::tempdir().unwrap();
        let book = dir.path().join("book.txt");
        std::fs::write(&book, "# two openings\n4 3\n\n1 2\n").unwrap();
        let text = format!(
            "[openings]\nfile = {:?}\n{TWO_BOTS}",
            book.display().to_string()
        );
        let c = Config::parse(&text, "t", "t", &crate::commands::host()).unwrap();
        let book_moves: Vec<String> = c
            .opening_book
            .unwrap()
            .iter()
            .map(|o| {
                o.iter()
                    .map(|m| m.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        assert_eq!(book_moves, ["4 3", "1 2"]);
        std::fs::write(&book, "4 9\n").unwrap();
        let e = Config::parse(&text, "t", "t", &crate::commands::host())
            .unwrap_err()
            .to_string();
        assert!(e.contains("book.txt:1: move 9"), "{e}");
        // The protocol's rule of a hole number: no sign, no leading zero.
        std::fs::write(&book, "4 03\n").unwrap();
        let e = Config::parse(&text, "t", "t", &crate::commands::host())
            .unwrap_err()
            .to_string();
        assert!(e.contains("book.txt:1: '03' is not a hole number"), "{e}");
        // With the rule, and the board's own range (issue 17's tester):
        // a 2x3 board's holes are 1 to 3.
        std::fs::write(&book, "01\n").unwrap();
        let small = format!(
            "[board]\nholes = 3\n[openings]\nfile = {:?}\n{TWO_BOTS}",
            book.display().to_string()
        );
        let e = Config::parse(&small, "t", "t", &crate::commands::host())
            .unwrap_err()
            .to_string();
        assert!(
            e.ends_with(
                "book.txt:1: '01' is not a hole number: use 1 to 3, in plain digits (no sign, no leading zero)"
            ),
            "{e}"
        );
    }

    #[test]
    fn a_byte_order_mark_is_skipped_in_the_config_and_the_openings_file() {
        let dir = tempfile::tempdir().unwrap();
        let book = dir.path().join("book.txt");
        std::fs::write(&book, "\u{feff}1 2\n4 3\n").unwrap();
        let config = dir.path().join("t.toml");
        let text = format!(
            "\u{feff}[openings]\nfile = {:?}\n{TWO_BOTS}",
            book.display().to_string()
        );
        std::fs::write(&config, text).unwrap();
        let c = Config::load(&config, &crate::commands::host()).unwrap();
        let first: Vec<String> = c.opening_book.unwrap()[0]
            .iter()
            .map(|m| m.to_string())
            .collect();
        assert_eq!(first, ["1", "2"]);
        // Only one: a second is still a bad word, on its line.
        std::fs::write(&book, "\u{feff}\u{feff}1 2\n").unwrap();
        let e = Config::load(&config, &crate::commands::host())
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("book.txt:1: '\u{feff}1' is not a hole number"),
            "{e}"
        );
    }

    #[test]
    fn only_concurrency_and_affinity_may_change_on_a_resume() {
        let base = format!("[tournament]\nfirst_to = 3\nconcurrency = 1\n{TWO_BOTS}");
        let same = |other: &str| same_games(base.as_bytes(), other.as_bytes());
        assert!(same(&base));
        assert!(same(
            &base.replace("concurrency = 1", "concurrency = 8\naffinity = true")
        ));
        assert!(same(&base.replace("concurrency = 1\n", "")));
        let bare = base.replace("[tournament]\nfirst_to = 3\nconcurrency = 1\n", "");
        assert!(same_games(
            bare.as_bytes(),
            format!("{bare}[tournament]\nconcurrency = 4\n").as_bytes()
        ));
        assert!(!same(&base.replace("first_to = 3", "first_to = 4")));
        assert!(!same(
            &base.replace("[tournament]", "[board]\nholes = 6\n[tournament]")
        ));
        assert!(!same("not toml ["));
        assert!(same_games(b"not toml [", b"not toml ["));
    }

    #[test]
    fn a_resume_refusal_names_the_first_key_that_differs() {
        let base = format!("[tournament]\nfirst_to = 3\nconcurrency = 1\n{TWO_BOTS}");
        let diff = |other: &str| games_difference(base.as_bytes(), other.as_bytes());
        assert_eq!(
            diff(&base.replace("concurrency = 1", "concurrency = 4")),
            None
        );
        assert_eq!(
            diff(&base.replace("first_to = 3", "first_to = 4")).as_deref(),
            Some("[tournament] first_to")
        );
        assert_eq!(
            diff(&format!("[board]\nholes = 6\n{base}")).as_deref(),
            Some("board")
        );
        assert_eq!(
            diff(&base.replace("[tournament]\nfirst_to = 3\nconcurrency = 1\n", "")).as_deref(),
            Some("tournament")
        );
        assert_eq!(diff("not toml [").as_deref(), Some("the file"));
        assert_eq!(
            diff(&base.replace("\"x\"", "\"z\"")).as_deref(),
            Some("the [[bot]] tables")
        );
    }

    #[test]
    fn ratings_and_sprt_settings() {
        let text = format!("[ratings]\nanchor = \"a\"\nanchor_elo = 1500\n[sprt]\nelo0 = 0\nelo1 = 5\nmodel = \"logistic\"\n{TWO_BOTS}");
        let c = Config::parse(&text, "t", "t", &crate::commands::host()).unwrap();
        assert_eq!(c.ratings.anchor, Some(("a".to_string(), 1500.0)));
        let sprt = c.sprt.unwrap();
        assert_eq!(
            (sprt.elo0, sprt.elo1, sprt.alpha, sprt.model),
            (0.0, 5.0, 0.05, SprtModelName::Logistic)
        );
        // NaN, infinite or absurd anchors are refused at their line.
        for bad in ["nan", "inf", "-1e308", "10001"] {
            let text = format!("[ratings]\nanchor = \"a\"\nanchor_elo = {bad}\n{TWO_BOTS}");
            let e = Config::parse(&text, "t", "t", &crate::commands::host())
                .unwrap_err()
                .to_string();
            assert!(
                e.starts_with("t:3:14: ratings.anchor_elo is out of range"),
                "{bad}: {e}"
            );
        }
        assert_eq!(super::anchor_elo("-250.5"), Ok(-250.5));
        for bad in ["nan", "inf", "1e308", "x"] {
            let e = super::anchor_elo(bad).unwrap_err().to_string();
            assert!(e.contains("from -10000 to 10000"), "{bad}: {e}");
        }
        let text = format!("[ratings]\nanchor = \"zz\"\n{TWO_BOTS}");
        assert!(Config::parse(&text, "t", "t", &crate::commands::host())
            .unwrap_err()
            .to_string()
            .contains("is not a bot"));
        let text = format!("[sprt]\nelo0 = 5\nelo1 = 0\n{TWO_BOTS}");
        assert!(Config::parse(&text, "t", "t", &crate::commands::host())
            .unwrap_err()
            .to_string()
            .contains("elo0 < elo1"));
        let three = format!(
            "[sprt]\nelo0 = 0\nelo1 = 5\n{TWO_BOTS}[[bot]]\nname = \"c\"\ncommand = [\"z\"]\n"
        );
        assert!(Config::parse(&three, "t", "t", &crate::commands::host())
            .unwrap_err()
            .to_string()
            .contains("two bots"));
    }

    #[test]
    fn sprt_errors_point_at_the_sprt_table_or_its_key() {
        let error = |text: &str| {
            Config::parse(text, "t", "t", &crate::commands::host())
                .unwrap_err()
                .to_string()
        };
        // The key at fault: elo1 (line 4), alpha (line 5).
        let e = error(&format!(
            "name = \"x\"\n\n[sprt]\nelo0 = 5\nelo1 = 0\n{TWO_BOTS}"
        ));
        assert!(e.starts_with("t:5:8: [sprt] needs elo0 < elo1"), "{e}");
        let e = error(&format!(
            "# a comment\n[sprt]\nelo0 = 0\nelo1 = 5\nalpha = 0.7\n{TWO_BOTS}"
        ));
        assert!(e.starts_with("t:5:9: [sprt] alpha and beta"), "{e}");
        let e = error(&format!("[sprt]\nelo0 = 0\nelo1 = 5\nbeta = 0\n{TWO_BOTS}"));
        assert!(e.starts_with("t:4:8: [sprt] alpha and beta"), "{e}");
        // NaN, infinity and absurd sizes at the key that has them.
        for (elo0, elo1, line) in [("0", "nan", 3), ("-inf", "5", 2), ("0", "1e300", 3)] {
            let e = error(&format!("[sprt]\nelo0 = {elo0}\nelo1 = {elo1}\n{TWO_BOTS}"));
            let key = if line == 2 { "elo0" } else { "elo1" };
            assert!(
                e.starts_with(&format!(
                    "t:{line}:8: [sprt] {key} must be a number of Elo points from -1000 to 1000"
                )),
                "{elo0} {elo1}: {e}"
            );
        }
        // The table itself: [sprt] on line 3, after the bots too.
        let three = format!(
            "[tournament]\nseed = 1\n[sprt]\nelo0 = 0\nelo1 = 5\n{TWO_BOTS}[[bot]]\nname = \"c\"\ncommand = [\"z\"]\n"
        );
        assert!(
            error(&three).starts_with("t:3:1: [sprt] is for a match of two bots"),
            "{}",
            error(&three)
        );
        let late = format!("{TWO_BOTS}[[bot]]\nname = \"c\"\ncommand = [\"z\"]\n  [ sprt ]  # the test\nelo0 = 0\nelo1 = 5\n");
        let line = late.lines().position(|l| l.contains("[ sprt ]")).unwrap() + 1;
        assert!(
            error(&late).starts_with(&format!("t:{line}:3: [sprt] is for")),
            "{}",
            error(&late)
        );
        // With dotted keys, the key's line.
        let dotted = format!("name = \"x\"\nsprt.elo0 = 5\nsprt.elo1 = 0\n{TWO_BOTS}");
        assert!(
            error(&dotted).starts_with("t:3:13: [sprt] needs elo0 < elo1"),
            "{}",
            error(&dotted)
        );
        // Written inline, the key's line.
        let inline = format!("sprt = {{ elo0 = 3, elo1 = 1 }}\n{TWO_BOTS}");
        assert!(error(&inline).starts_with("t:1:"), "{}", error(&inline));
        assert!(error(&inline).contains("elo0 < elo1"), "{}", error(&inline));
    }

    /// Issue 17's tester: a key written twice said only `duplicate key`.
    #[test]
    fn a_duplicate_key_names_both_lines() {
        let text = format!("[board]\nholes = 6\nseeds = 4\nholes = 5\n{TWO_BOTS}");
        let e = Config::parse(&text, "t", "t", &crate::commands::host())
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("t:4:"), "{e}");
        assert!(e.contains("duplicate key"), "{e}");
        assert!(e.contains("keep one: `holes` is also on line 2"), "{e}");
        assert_eq!(e.lines().count(), 1, "{e}");
    }

    #[test]
    fn bad_bots_are_refused() {
        let one = "[[bot]]\nname = \"a\"\ncommand = [\"x\"]\n";
        assert!(Config::parse(one, "t", "t", &crate::commands::host())
            .unwrap_err()
            .to_string()
            .contains("1 bot configured: a round robin needs at least two"));
        let dup = format!("{one}{one}");
        let e = Config::parse(&dup, "t", "t", &crate::commands::host())
            .unwrap_err()
            .to_string();
        assert!(e.contains("used twice") && e.starts_with("t:5:"), "{e}");
        let empty = format!("{one}[[bot]]\nname = \"b\"\ncommand = []\n");
        assert!(Config::parse(&empty, "t", "t", &crate::commands::host())
            .unwrap_err()
            .to_string()
            .contains("empty command"));
    }

    #[test]
    fn unlimited_moves_are_refused_and_fixed_length_matches_allowed() {
        let text = format!("[tournament]\nfirst_to = 100\nmax_games = 8\n{TWO_BOTS}");
        assert_eq!(
            Config::parse(&text, "t", "t", &crate::commands::host())
                .unwrap()
                .tournament
                .max_games,
            8
        );
        let text = format!("[time]\nmove_time_ms = 0\n{TWO_BOTS}");
        assert!(Config::parse(&text, "t", "t", &crate::commands::host()).is_err());
    }
}
