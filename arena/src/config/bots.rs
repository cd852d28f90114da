//! The `[[bot]]` tables: each bot's name, command, limits, sandbox,
//! clocks, environment and options.

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::{Path, PathBuf};

use endodoi_protocol::valid_name;
use serde::Deserialize;
use toml::Spanned;

use super::errors::{span_of, ConfigError, Place};
use super::hints::a_type;
use super::limits::{
    user_of, LimitDefaults, Limits, SandboxSpec, MAX_LIMIT, MAX_OPEN_FILES, MAX_PROCESSES,
    MAX_TMP_MB,
};
use super::time::{TimeControl, DAY_MS};

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

/// The longest `option.NAME=VALUE` word, bytes: a tenth of protocol.md's
/// line cap, so a `hello` with a few dozen options still fits one line.
pub const MAX_OPTION_BYTES: usize = endodoi_protocol::MAX_LINE_BYTES / 10;

/// A `[[bot]]` table as written.
#[derive(Deserialize)]
#[serde(
    deny_unknown_fields,
    expecting = "a [[bot]] table (a [[bot]] line, its keys below)"
)]
pub(super) struct RawBot {
    pub(super) name: Spanned<String>,
    pub(super) command: Spanned<Vec<String>>,
    pub(super) dir: Option<String>,
    pub(super) memory_mb: Option<Spanned<i64>>,
    pub(super) cpu_seconds: Option<Spanned<i64>>,
    pub(super) open_files: Option<Spanned<i64>>,
    pub(super) sandbox: Option<Spanned<bool>>,
    pub(super) processes: Option<Spanned<i64>>,
    pub(super) tmp_mb: Option<Spanned<i64>>,
    pub(super) sandbox_user: Option<Spanned<String>>,
    pub(super) sandbox_ro: Option<Spanned<Vec<String>>>,
    pub(super) sandbox_rw: Option<Spanned<Vec<String>>>,
    pub(super) move_time_ms: Option<Spanned<i64>>,
    pub(super) base_time_ms: Option<Spanned<i64>>,
    pub(super) increment_ms: Option<Spanned<i64>>,
    pub(super) env: Option<Spanned<BTreeMap<String, Spanned<toml::Value>>>>,
    pub(super) options: Option<Spanned<BTreeMap<String, Spanned<toml::Value>>>>,
}

/// What every bot starts from: the checked `[limits]` and `[time]` tables.
pub(super) struct Shared<'a> {
    /// `[limits]`.
    pub(super) limits: &'a LimitDefaults,
    /// `[time]`.
    pub(super) time: TimeControl,
    /// Where `[time] increment_ms` is written, if it is.
    pub(super) increment_span: Option<Range<usize>>,
    /// `[tournament] affinity`.
    pub(super) affinity: bool,
    /// The folder the config's relative paths start from.
    pub(super) base: &'a Path,
}

/// Checks the `[[bot]]` tables `raw`, in order: the bots, and where each
/// one's `command` is written, `FILE:LINE:COL`.
pub(super) fn bots(
    raw: &[Spanned<RawBot>],
    shared: &Shared<'_>,
    p: &Place<'_>,
) -> Result<(Vec<BotSpec>, Vec<String>), ConfigError> {
    let mut bots: Vec<BotSpec> = Vec::new();
    let mut origins = Vec::new();
    for raw_bot in raw {
        let rb = raw_bot.get_ref();
        let name = rb.name.get_ref();
        if !valid_name(name) {
            return Err(p.at(
                Some(rb.name.span()),
                &format!("bot name '{name}' must be 1 to 64 of A-Z a-z 0-9 . _ -, starting with a letter or digit"),
            ));
        }
        if bots.iter().any(|b| &b.name == name) {
            return Err(p.at(
                Some(rb.name.span()),
                &format!("bot name '{name}' is used twice: give each [[bot]] its own name"),
            ));
        }
        if rb.command.get_ref().is_empty() || rb.command.get_ref()[0].is_empty() {
            return Err(p.at(
                Some(rb.command.span()),
                &format!("bot '{name}' has an empty command: give the program and its arguments, e.g. [\"python3\", \"bots/python/greedy.py\"]"),
            ));
        }
        origins.push(p.origin_of(rb.command.span().start));
        bots.push(bot(rb, shared, p)?);
    }
    Ok((bots, origins))
}

/// One `[[bot]]` table `rb`, its name and command checked.
fn bot(rb: &RawBot, shared: &Shared<'_>, p: &Place<'_>) -> Result<BotSpec, ConfigError> {
    let name = rb.name.get_ref();
    let sandbox = sandbox_of(rb, shared, p)?;
    let time = bot_time(rb, shared, p)?;
    let env = env_of(rb, p)?;
    let options = options_of(rb, p)?;
    let base = shared.base;
    Ok(BotSpec {
        name: name.clone(),
        command: rb.command.get_ref().clone(),
        dir: rb.dir.as_ref().map(|d| base.join(d)),
        base: base.to_path_buf(),
        limits: bot_limits(rb, &shared.limits.limits, p)?,
        sandbox,
        time,
        env,
        options,
    })
}

/// The bot's sandbox: `None` unsandboxed, where a sandbox setting of its
/// own is an error (it would leave the organiser believing it holds).
fn sandbox_of(
    rb: &RawBot,
    shared: &Shared<'_>,
    p: &Place<'_>,
) -> Result<Option<SandboxSpec>, ConfigError> {
    let name = rb.name.get_ref();
    let l = shared.limits;
    let paths = |v: &Option<Spanned<Vec<String>>>, key: &str| {
        match v {
        None => Ok(Vec::new()),
        Some(v) if v.get_ref().iter().any(|s| s.is_empty()) => Err(p.at(
            Some(v.span()),
            &format!("bot '{name}': {key} holds an empty path: remove it, or write \".\" for the bot's dir"),
        )),
        Some(v) => Ok(v.get_ref().iter().map(PathBuf::from).collect()),
    }
    };
    let sandboxed = rb.sandbox.as_ref().map_or(l.sandbox, |s| *s.get_ref());
    if sandboxed && !crate::platform::SANDBOX {
        let span = rb
            .sandbox
            .as_ref()
            .map(Spanned::span)
            .or(l.sandbox_span.clone());
        return Err(p.at(span, crate::platform::NO_SANDBOX));
    }
    let spec = SandboxSpec {
        read_only: paths(&rb.sandbox_ro, "sandbox_ro")?,
        writable: paths(&rb.sandbox_rw, "sandbox_rw")?,
        processes: p.int(
            &rb.processes,
            "bot.processes",
            1,
            MAX_PROCESSES,
            l.processes,
        )? as u64,
        tmp_mb: p.int(&rb.tmp_mb, "bot.tmp_mb", 1, MAX_TMP_MB, l.tmp_mb)? as u64,
        user: user_of(&rb.sandbox_user, "bot.sandbox_user", &l.sandbox_user, p)?,
        pinned: shared.affinity,
    };
    if !sandboxed {
        let given = [
            ("sandbox_ro", span_of(&rb.sandbox_ro)),
            ("sandbox_rw", span_of(&rb.sandbox_rw)),
            ("processes", span_of(&rb.processes)),
            ("tmp_mb", span_of(&rb.tmp_mb)),
            ("sandbox_user", span_of(&rb.sandbox_user)),
        ];
        if let Some((key, span)) = given.into_iter().find(|(_, s)| s.is_some()) {
            return Err(p.at(
                span,
                &format!("bot '{name}': {key} applies only in the sandbox: set sandbox = true for this bot, or remove {key}"),
            ));
        }
    }
    Ok(sandboxed.then_some(spec))
}

/// The bot's clocks: `[time]`'s, with its own `move_time_ms`,
/// `base_time_ms` and `increment_ms` in their place; some limit on a move,
/// and no increment without a game clock.
fn bot_time(rb: &RawBot, shared: &Shared<'_>, p: &Place<'_>) -> Result<TimeControl, ConfigError> {
    let name = rb.name.get_ref();
    let time = shared.time;
    let own = |v: &Option<Spanned<i64>>, key: &str, default: u64| {
        p.int(
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
        return Err(p.at(
            span,
            &format!("bot '{name}': move_time_ms = 0 and no game clock leaves its moves unlimited: set its move_time_ms or base_time_ms above 0"),
        ));
    }
    if bot_time.increment_ms > 0 && bot_time.base_time_ms == 0 {
        // An increment with no clock to add to means nothing, yet
        // it would be sent: say where it comes from.
        let inc = bot_time.increment_ms;
        let msg = if let Some(own) = &rb.increment_ms {
            p.at(Some(own.span()), &format!("bot '{name}': increment_ms = {inc} adds to a game clock, and base_time_ms = 0 sets none: set its base_time_ms, or remove increment_ms"))
        } else if let Some(base) = &rb.base_time_ms {
            p.at(Some(base.span()), &format!("bot '{name}': base_time_ms = 0 sets no game clock, and [time]'s increment_ms = {inc} adds to one: set its base_time_ms above 0, or its increment_ms = 0"))
        } else {
            p.at(shared.increment_span.clone(), &format!("time.increment_ms = {inc} adds to a game clock, and base_time_ms = 0 sets none: set base_time_ms, or remove increment_ms"))
        };
        return Err(msg);
    }
    Ok(bot_time)
}

/// The bot's `env`, in name order: variable names, string values.
fn env_of(rb: &RawBot, p: &Place<'_>) -> Result<Vec<(String, String)>, ConfigError> {
    let name = rb.name.get_ref();
    let mut env = Vec::new();
    for (key, value) in rb.env.iter().flat_map(|e| e.get_ref()) {
        if !valid_env_name(key) {
            return Err(p.at(
                Some(value.span()),
                &format!("bot '{name}': env name '{}' is not a variable name: use letters, digits and _, not starting with a digit (e.g. MY_SETTING)", endodoi_protocol::shown(key)),
            ));
        }
        match value.get_ref() {
            toml::Value::String(v) if !v.contains('\0') => env.push((key.clone(), v.clone())),
            toml::Value::String(_) => return Err(p.at(
                Some(value.span()),
                &format!("bot '{name}': env {key} holds a NUL character, which no environment can: remove it"),
            )),
            other => return Err(p.at(
                Some(value.span()),
                &format!("bot '{name}': env {key} = {other} is {}: write the value as a string, e.g. {key} = \"{}\"", a_type(other), other.to_string().trim_matches('"')),
            )),
        }
    }
    Ok(env)
}

/// The bot's `options`, in name order, rendered plainly; each fits the
/// protocol, and all of them fit one `hello` line.
fn options_of(rb: &RawBot, p: &Place<'_>) -> Result<Vec<(String, String)>, ConfigError> {
    let name = rb.name.get_ref();
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
            return Err(p.at(
                Some(value.span()),
                &format!("bot '{name}': option {} is {}: use a string, a whole number, a finite number or a boolean", endodoi_protocol::shown(key), a_type(value.get_ref())),
            ));
        };
        if !valid_name(key) {
            return Err(p.at(
                Some(value.span()),
                &format!("bot '{name}': option name '{}' does not fit the protocol: use 1 to 64 of A-Z a-z 0-9 . _ - (no spaces or '=')", endodoi_protocol::shown(key)),
            ));
        }
        if !valid_option(key, &rendered) {
            return Err(p.at(
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
        return Err(p.at(
            span_of(&rb.options),
            &format!("bot '{name}': its options make a hello line of {hello_bytes} bytes, over the protocol's {}: send fewer or shorter options", endodoi_protocol::MAX_LINE_BYTES),
        ));
    }
    Ok(options)
}

/// The bot's process limits: `[limits]`'s `limits`, with its own in their
/// place.
fn bot_limits(rb: &RawBot, limits: &Limits, p: &Place<'_>) -> Result<Limits, ConfigError> {
    Ok(Limits {
        memory_mb: p.int(
            &rb.memory_mb,
            "bot.memory_mb",
            0,
            MAX_LIMIT,
            limits.memory_mb as i64,
        )? as u64,
        cpu_seconds: p.int(
            &rb.cpu_seconds,
            "bot.cpu_seconds",
            0,
            MAX_LIMIT,
            limits.cpu_seconds as i64,
        )? as u64,
        open_files: p.int(
            &rb.open_files,
            "bot.open_files",
            0,
            MAX_OPEN_FILES,
            limits.open_files as i64,
        )? as u64,
        cgroups: limits.cgroups,
    })
}
