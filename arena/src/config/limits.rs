//! The `[limits]` table: each bot process's resource limits, its cgroups,
//! and its sandbox.

use std::ops::Range;
use std::path::PathBuf;

use serde::Deserialize;
use toml::Spanned;

use super::errors::{span_of, ConfigError, Place};

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

/// The largest memory or CPU-time limit, MiB or seconds.
pub(super) const MAX_LIMIT: i64 = 1 << 40;
/// The largest open-file limit: Linux's default ceiling (fs.nr_open);
/// above it setrlimit fails.
pub(super) const MAX_OPEN_FILES: i64 = 1 << 20;
/// The largest `processes` of a sandboxed bot.
pub(super) const MAX_PROCESSES: i64 = 1 << 22;
/// The largest `tmp_mb` of a sandboxed bot, MiB.
pub(super) const MAX_TMP_MB: i64 = 1 << 20;

/// The `[limits]` table as written.
#[derive(Deserialize, Default)]
#[serde(
    deny_unknown_fields,
    expecting = "a table ([limits] on a line of its own, its keys below)"
)]
pub(super) struct RawLimits {
    pub(super) memory_mb: Option<Spanned<i64>>,
    pub(super) cpu_seconds: Option<Spanned<i64>>,
    pub(super) open_files: Option<Spanned<i64>>,
    pub(super) sandbox: Option<Spanned<bool>>,
    pub(super) processes: Option<Spanned<i64>>,
    pub(super) tmp_mb: Option<Spanned<i64>>,
    pub(super) sandbox_user: Option<Spanned<String>>,
    pub(super) cgroups: Option<Spanned<toml::Value>>,
}

/// The `[limits]` table checked: what every bot has unless its `[[bot]]`
/// table says otherwise.
pub(super) struct LimitDefaults {
    /// The process limits and the cgroups.
    pub(super) limits: Limits,
    /// `sandbox`: whether bots are sandboxed.
    pub(super) sandbox: bool,
    /// Where `sandbox` is written, if it is.
    pub(super) sandbox_span: Option<Range<usize>>,
    /// `processes`.
    pub(super) processes: i64,
    /// `tmp_mb`, MiB.
    pub(super) tmp_mb: i64,
    /// `sandbox_user`.
    pub(super) sandbox_user: String,
}

/// Checks `[limits]` `l`.
pub(super) fn limit_defaults(l: &RawLimits, p: &Place<'_>) -> Result<LimitDefaults, ConfigError> {
    let limits = Limits {
        memory_mb: p.int(
            &l.memory_mb,
            "limits.memory_mb",
            0,
            MAX_LIMIT,
            DEFAULT_MEMORY_MB as i64,
        )? as u64,
        cpu_seconds: p.int(
            &l.cpu_seconds,
            "limits.cpu_seconds",
            0,
            MAX_LIMIT,
            DEFAULT_CPU_SECONDS as i64,
        )? as u64,
        open_files: p.int(
            &l.open_files,
            "limits.open_files",
            0,
            MAX_OPEN_FILES,
            DEFAULT_OPEN_FILES as i64,
        )? as u64,
        cgroups: cgroup_mode(l.cgroups.as_ref(), p)?,
    };
    let processes = p.int(
        &l.processes,
        "limits.processes",
        1,
        MAX_PROCESSES,
        DEFAULT_PROCESSES as i64,
    )?;
    let tmp_mb = p.int(
        &l.tmp_mb,
        "limits.tmp_mb",
        1,
        MAX_TMP_MB,
        DEFAULT_TMP_MB as i64,
    )?;
    let sandbox_user = user_of(
        &l.sandbox_user,
        "limits.sandbox_user",
        DEFAULT_SANDBOX_USER,
        p,
    )?;
    Ok(LimitDefaults {
        limits,
        sandbox: l.sandbox.as_ref().is_some_and(|s| *s.get_ref()),
        sandbox_span: span_of(&l.sandbox),
        processes,
        tmp_mb,
        sandbox_user,
    })
}

/// A `sandbox_user` key `u` (named `key` in errors), trimmed: `default`
/// without it; an empty one is an error.
pub(super) fn user_of(
    u: &Option<Spanned<String>>,
    key: &str,
    default: &str,
    p: &Place<'_>,
) -> Result<String, ConfigError> {
    match u {
        None => Ok(default.to_string()),
        Some(u) if !u.get_ref().trim().is_empty() => Ok(u.get_ref().trim().to_string()),
        Some(u) => Err(p.at(
            Some(u.span()),
            &format!("{key} is empty: name a host user (default \"{DEFAULT_SANDBOX_USER}\")"),
        )),
    }
}

/// `[limits] cgroups`, or the one line that lists the choices.
fn cgroup_mode(
    value: Option<&Spanned<toml::Value>>,
    p: &Place<'_>,
) -> Result<CgroupMode, ConfigError> {
    let Some(v) = value else {
        return Ok(CgroupMode::Auto);
    };
    match v.get_ref().as_str() {
        Some("auto") => Ok(CgroupMode::Auto),
        Some("require") if !crate::platform::CGROUPS => {
            Err(p.at(Some(v.span()), crate::platform::NO_CGROUPS))
        }
        Some("require") => Ok(CgroupMode::Require),
        Some("off") => Ok(CgroupMode::Off),
        _ => Err(p.at(
            Some(v.span()),
            &format!(
                "limits.cgroups = {} is not a choice: use \"auto\" (the default: what the host gives), \"require\" (refuse to start without every control) or \"off\"",
                v.get_ref()
            ),
        )),
    }
}
