//! How a bot process is started: through the guard (`arena guard`),
//! optionally inside bubblewrap, in its own process group, with resource
//! limits set before exec.

use std::path::{Path, PathBuf};
use std::process::Stdio;

use tokio::process::Command;
use tokio_util::sync::CancellationToken;

use crate::config::{BotSpec, CgroupMode, Config, ConfigError, Limits};
use crate::platform::{OnArenaDeath, ProcessLimits};
use crate::sandbox::{Sandbox, SandboxError};

/// Why a bot cannot be started as configured; each names the bot and the fix.
#[derive(Debug, thiserror::Error)]
pub enum SpawnError {
    /// The arena's working directory cannot be read.
    #[error("cannot read the working directory: {0}")]
    Cwd(std::io::Error),
    /// The bot's `dir` does not exist.
    #[error("bot '{bot}': working directory '{}' does not exist{}", dir.display(), if hint.is_empty() { ": fix its dir in the config" } else { hint })]
    NoDir {
        /// The bot.
        bot: String,
        /// The folder.
        dir: PathBuf,
        /// [`crate::config::current_dir_hint`] when the current directory
        /// has the folder as written, else empty.
        hint: String,
    },
    /// The arena's own executable (for `arena ...` commands) cannot be found.
    #[error("bot '{bot}': cannot find the arena's own executable: {cause}")]
    NoArena {
        /// The bot.
        bot: String,
        /// Why.
        cause: std::io::Error,
    },
    /// The program is not found, or not executable.
    #[error("bot '{bot}': program '{program}' {why}: fix its command in the config, or its dir")]
    NotFound {
        /// The bot.
        bot: String,
        /// The program as configured.
        program: String,
        /// Where it was looked for and what was found.
        why: String,
    },
    /// A sandboxed bot's program lies outside what its sandbox shows.
    #[error("bot '{bot}': its program {}{link} is outside the sandbox, which shows /usr, the bot's dir and its sandbox_ro and sandbox_rw paths: add the folder that holds it to sandbox_ro, or use a program under /usr (make a Python virtual environment with /usr/bin/python3 -m venv)", program.display())]
    OutsideSandbox {
        /// The bot.
        bot: String,
        /// The program's path.
        program: PathBuf,
        /// ` (a link to ...)` when it is a link, else empty.
        link: String,
    },
    /// The sandbox cannot be set up.
    #[error(transparent)]
    Sandbox(#[from] SandboxError),
    /// The sandbox does not hold on this host (the probe).
    #[error("bot '{bot}' wants a sandbox, but {cause}")]
    Probe {
        /// The bot.
        bot: String,
        /// What the probe found.
        cause: SandboxError,
    },
    /// A sandboxed bot was to start without the guard.
    #[error("bot '{bot}': a sandboxed bot is started by the guard")]
    NoGuard {
        /// The bot.
        bot: String,
    },
    /// The sandbox cannot be handed to the guard.
    #[error("cannot pass the sandbox to the guard: {0}")]
    Pass(std::io::Error),
}

/// Where the program of `spec` is, and the working directory it runs in.
///
/// `arena` as the first word means this executable (the bundled bots); a
/// name without `/` is looked up in `PATH` (for a sandboxed bot, in the
/// sandbox's, [`crate::sandbox::INSIDE_PATH`]); a path is relative to the
/// working directory (`dir`, else the config's folder, `base`).
///
/// # Errors
/// One line naming the bot, the program and the fix, when the working
/// directory or the program does not exist or is not executable.
pub fn resolve_program(spec: &BotSpec) -> Result<(PathBuf, PathBuf), SpawnError> {
    let cwd = std::env::current_dir().map_err(SpawnError::Cwd)?;
    let dir = match &spec.dir {
        Some(d) => cwd.join(d),
        None => cwd.join(&spec.base),
    };
    if !dir.is_dir() {
        let hint = spec
            .dir
            .as_deref()
            .and_then(|d| d.strip_prefix(&spec.base).ok())
            .map_or_else(String::new, |written| {
                in_current_dir(written, spec, Path::is_dir)
            });
        return Err(SpawnError::NoDir {
            bot: spec.name.clone(),
            dir,
            hint,
        });
    }
    let first = &spec.command[0];
    if first == "arena" {
        let exe = std::env::current_exe().map_err(|source| SpawnError::NoArena {
            bot: spec.name.clone(),
            cause: source,
        })?;
        return Ok((exe, dir));
    }
    let path = match spec.sandbox {
        Some(_) => Some(crate::sandbox::INSIDE_PATH.into()),
        None => std::env::var_os("PATH"),
    };
    // On Windows `python3` may be `python` alone (crate::platform::program_aliases).
    let found = std::iter::once(first.as_str())
        .chain(crate::platform::program_aliases(first).iter().copied())
        .find_map(|name| which::which_in(name, path.clone(), &dir).ok());
    let program = found.ok_or(()).map_err(|()| {
        let why = if spec.sandbox.is_some() && !first.contains('/') {
            format!(
                "is not found in the sandbox's PATH ({}), where a program named without / is looked up",
                crate::sandbox::INSIDE_PATH
            )
        } else if spec.dir.is_none() {
            let hint = in_current_dir(Path::new(first), spec, Path::exists);
            format!("{}{hint}", why_not_found(first, &dir))
        } else {
            why_not_found(first, &dir)
        };
        SpawnError::NotFound {
            bot: spec.name.clone(),
            program: first.clone(),
            why,
        }
    })?;
    Ok((program, dir))
}

/// Why `program`, run from `dir`, cannot be started: not in PATH, a
/// folder, not executable, or missing; with the fix.
#[must_use]
pub fn why_not_found(program: &str, dir: &Path) -> String {
    // `components` drops the `.` of `./bot.sh` (no `DIR/./bot.sh` in the fix).
    let path: PathBuf = dir.join(program).components().collect();
    if !program.contains('/') {
        format!(
            "is not found in PATH (a program in {} needs a path: ./{program})",
            dir.display()
        )
    } else if path.is_dir() {
        format!("is a folder ({})", path.display())
    } else if path.exists() {
        format!(
            "exists but is not executable: chmod +x {}, or give its interpreter first (e.g. [\"python3\", \"{program}\"])",
            path.display()
        )
    } else {
        format!("does not exist (looked in {})", dir.display())
    }
}

/// The bots `arena bot NAME` plays that live in the arena itself, not in
/// the bots crate ([`endodoi_bots::BOT_NAMES`]): `perfect`, which reads
/// the endgame tables (docs/tablebases.md).
pub const ARENA_BOTS: [&str; 1] = ["perfect"];

/// The first script file a command names after its program (an argument
/// ending in `.py`, `.js`, `.sh`, ... that is not an option) that does
/// not exist in `dir`, the folder the command starts in.
#[must_use]
pub fn missing_script<'a>(command: &'a [String], dir: &Path) -> Option<&'a str> {
    const SCRIPTS: [&str; 9] = ["py", "js", "mjs", "sh", "rb", "pl", "lua", "jl", "php"];
    command.get(1..)?.iter().map(String::as_str).find(|arg| {
        let path = Path::new(arg);
        !arg.starts_with('-')
            && path
                .extension()
                .is_some_and(|e| SCRIPTS.contains(&e.to_string_lossy().as_ref()))
            && !dir.join(path).exists()
    })
}

/// Checks that every bot's program can be found, its command can be
/// built (bubblewrap for a sandbox), and the script files its arguments
/// name (`*.py`, `*.js`, ...) exist, without starting anything but a
/// sandbox's probe (killed when `stop` fires: [`check`]).
///
/// # Errors
/// One line, `FILE:LINE:COL` of the bot's `command` first, naming the
/// program or script and where it was looked for.
pub fn check_programs(config: &Config, stop: &CancellationToken) -> Result<(), ConfigError> {
    check_cgroups(config)?;
    for (bot, origin) in config.bots.iter().zip(&config.bot_origins) {
        let (_, dir) = resolve_program(bot).map_err(|e| bot_error(origin, e))?;
        // The whole start as it will be made (a sandbox is tried for real).
        check(bot, stop).map_err(|e| bot_error(origin, e))?;
        if let [arena, sub, name, ..] = bot.command.as_slice() {
            let known = endodoi_bots::BOT_NAMES.contains(&name.as_str())
                || ARENA_BOTS.contains(&name.as_str());
            if arena == "arena" && sub == "bot" && !known {
                return Err(bot_error(
                    origin,
                    format!(
                        "bot '{}': there is no bundled bot '{name}': the bundled bots are {}, {}",
                        bot.name,
                        endodoi_bots::BOT_NAMES.join(", "),
                        ARENA_BOTS.join(", ")
                    ),
                ));
            }
        }
        if let Some(script) = missing_script(&bot.command, &dir) {
            let hint = if bot.dir.is_none() {
                in_current_dir(Path::new(script), bot, Path::exists)
            } else {
                String::new()
            };
            let fix = if hint.is_empty() {
                ": fix its command in the config; relative paths start in the bot's dir, or else in the config file's folder"
            } else {
                ""
            };
            return Err(bot_error(
                origin,
                format!(
                    "bot '{}': script '{script}' does not exist (looked in {}){hint}{fix}",
                    bot.name,
                    dir.display()
                ),
            ));
        }
    }
    Ok(())
}
/// With `[limits] cgroups = "require"`, that this host enforces every
/// per-bot cgroup control ([`crate::cgroup`]).
///
/// # Errors
/// One line naming the config, what is missing, and the fix.
pub fn check_cgroups(config: &Config) -> Result<(), ConfigError> {
    let required = config
        .bots
        .iter()
        .any(|b| b.limits.cgroups == CgroupMode::Require);
    if !required {
        return Ok(());
    }
    let host = crate::cgroup::Cgroups::host();
    if host.missing().is_empty() {
        return Ok(());
    }
    let origin = config
        .bot_origins
        .first()
        .map_or("", |o| o.rsplitn(3, ':').last().unwrap_or(o));
    Err(ConfigError::File {
        origin: origin.to_string(),
        message: format!(
            "[limits] cgroups = \"require\", but {}; or set cgroups = \"auto\" to run with what the host gives",
            host.summary()
        ),
    })
}

/// The start-up note on the per-bot cgroups, for a run with a sandboxed
/// bot (fair play among strangers) or `cgroups = "require"`: what is and
/// is not enforced; `None` for trusted bots alone or `cgroups = "off"`.
#[must_use]
pub fn cgroups_note(config: &Config) -> Option<String> {
    let shown = config.bots.iter().any(|b| {
        b.limits.cgroups == CgroupMode::Require
            || (b.limits.cgroups == CgroupMode::Auto && b.sandbox.is_some())
    });
    shown.then(|| crate::cgroup::Cgroups::host().summary())
}

/// [`crate::config::current_dir_hint`] for `written`, a relative path of
/// `spec` missing from the config's folder, when `found` holds for it from
/// the current directory (where relative paths started before); else
/// empty.
fn in_current_dir(written: &Path, spec: &BotSpec, found: fn(&Path) -> bool) -> String {
    if written.is_relative() && !spec.base.as_os_str().is_empty() && found(written) {
        crate::config::current_dir_hint(written, &spec.base)
    } else {
        String::new()
    }
}

/// A problem of the bot whose `command` is at `origin` (`FILE:LINE:COL`).
fn bot_error(origin: &str, message: impl std::fmt::Display) -> ConfigError {
    ConfigError::Bot {
        origin: origin.to_string(),
        message: message.to_string(),
    }
}

/// bubblewrap's path, if it is installed.
#[must_use]
pub fn bubblewrap() -> Option<PathBuf> {
    which::which("bwrap").ok()
}

/// The sandbox of a sandboxed `spec`, resolved, with its program checked
/// to be visible inside; `None` for a bot that runs unsandboxed.
///
/// # Errors
/// As [`resolve_program`] and [`Sandbox::resolve`], or when the program
/// lies outside what the sandbox shows.
pub fn sandbox(spec: &BotSpec) -> Result<Option<Sandbox>, SpawnError> {
    if spec.sandbox.is_none() {
        return Ok(None);
    }
    let (program, dir) = resolve_program(spec)?;
    sandbox_of(spec, &program, &dir)
}

/// As [`sandbox`], for a program and folder already resolved.
fn sandbox_of(spec: &BotSpec, program: &Path, dir: &Path) -> Result<Option<Sandbox>, SpawnError> {
    let Some(settings) = &spec.sandbox else {
        return Ok(None);
    };
    let runs_arena = spec.command[0] == "arena";
    let mut sandbox = Sandbox::resolve(&spec.name, settings, dir, runs_arena)?;
    sandbox.env.clone_from(&spec.env);
    if !runs_arena && !sandbox.shows(program) {
        let real = std::fs::canonicalize(program).unwrap_or_else(|_| program.to_path_buf());
        let link = if real == program {
            String::new()
        } else {
            format!(" (a link to {})", real.display())
        };
        return Err(SpawnError::OutsideSandbox {
            bot: spec.name.clone(),
            program: program.to_path_buf(),
            link,
        });
    }
    Ok(Some(sandbox))
}

/// Checks, before anything runs, that `spec` can be started as configured:
/// its program is found and, for a sandboxed bot, visible and reachable in
/// its sandbox, and the sandbox holds on this host (a real start of it,
/// with the confine step's check and no bot, killed when `stop` fires).
///
/// # Errors
/// One line naming the bot, the problem and the fix.
pub fn check(spec: &BotSpec, stop: &CancellationToken) -> Result<(), SpawnError> {
    let (program, dir) = resolve_program(spec)?;
    if let Some(sandbox) = sandbox_of(spec, &program, &dir)? {
        sandbox.check_access(&spec.name)?;
        sandbox.probe(stop).map_err(|source| SpawnError::Probe {
            bot: spec.name.clone(),
            cause: source,
        })?;
    }
    Ok(())
}

/// The command that starts `spec`, and the limits to hand to
/// [`crate::platform::started`] once it is spawned. With `guard` (the
/// arena's own executable), the bot runs under `guard -- ...`, so its whole
/// process group dies with the arena, and in `cgroup`'s folders if given;
/// without, the bot alone gets the parent-death signal (and no cgroup).
/// Stdio is piped; the process leads its own process group (on Windows,
/// its own Job Object).
///
/// # Errors
/// As [`resolve_program`], or when the bot wants a sandbox and bubblewrap
/// is not installed.
pub fn command(
    spec: &BotSpec,
    guard: Option<&Path>,
    cgroup: Option<&crate::cgroup::BotGroup>,
) -> Result<(Command, ProcessLimits), SpawnError> {
    let (program, dir) = resolve_program(spec)?;
    let sandbox = sandbox_of(spec, &program, &dir)?;
    let program = match &sandbox {
        Some(_) => Sandbox::inside_path(&program),
        None => program,
    };
    let mut argv: Vec<std::ffi::OsString> = vec![program.into()];
    argv.extend(spec.command[1..].iter().map(Into::into));

    let mut cmd = match guard {
        Some(exe) => {
            // The guard applies the limits to the bot alone, so tiny limits
            // cannot break the guard itself; it also starts the sandbox.
            let mut c = Command::new(exe);
            c.arg("guard")
                .arg(format!("--memory-mb={}", spec.limits.memory_mb))
                .arg(format!("--cpu-seconds={}", spec.limits.cpu_seconds))
                .arg(format!("--open-files={}", spec.limits.open_files));
            if let Some(sandbox) = &sandbox {
                pass_sandbox(&mut c, sandbox)?;
            }
            if let Some(group) = cgroup {
                for (dir, home) in group.dirs().iter().zip(group.homes()) {
                    c.arg("--cgroup").arg(dir).arg("--cgroup-home").arg(home);
                }
            }
            c.arg("--").args(&argv);
            c
        }
        None if sandbox.is_some() => {
            return Err(SpawnError::NoGuard {
                bot: spec.name.clone(),
            })
        }
        None => {
            let mut c = Command::new(&argv[0]);
            c.args(&argv[1..]);
            c
        }
    };
    // A guarded bot is ended by its guard (SIGUSR2, see `BotProcess`'s
    // drop): a SIGKILL to the guard alone on drop could beat the guard to
    // it and leave the bot orphaned, so only an unguarded bot is killed on
    // drop here.
    // Unsandboxed, the bot gets the arena's environment with its own `env`
    // on top; a sandboxed one gets these in the sandbox (`Sandbox::env`),
    // and the guard's environment never reaches it.
    if sandbox.is_none() {
        cmd.envs(spec.env.iter().map(|(k, v)| (k, v)));
    }
    cmd.current_dir(&dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(guard.is_none());
    // A guard sets the bot's limits itself, and hears of the arena's death.
    let (on_death, limits) = if guard.is_some() {
        (OnArenaDeath::EndGuard, ProcessLimits::default())
    } else {
        (OnArenaDeath::Kill, process_limits(&spec.limits))
    };
    crate::platform::start_in_own_group(&mut cmd, on_death, limits);
    Ok((cmd, limits))
}

/// Hands `sandbox` to the guard that `command` starts, in a descriptor it
/// inherits (`--sandbox-fd`): on its command line, which every local user
/// may read, it would show the bot's `env` and paths.
fn pass_sandbox(command: &mut Command, sandbox: &Sandbox) -> Result<(), SpawnError> {
    let fd = sandbox.send().map_err(SpawnError::Pass)?;
    let number = crate::platform::pass_descriptor(command, fd);
    command.arg(format!("--sandbox-fd={number}"));
    Ok(())
}

/// The per-process limits of `limits` (`[limits]`; the platform sets them
/// as the bot starts, [`crate::platform::ProcessLimits`]).
#[must_use]
pub fn process_limits(limits: &Limits) -> ProcessLimits {
    ProcessLimits {
        memory_mb: limits.memory_mb,
        cpu_seconds: limits.cpu_seconds,
        open_files: limits.open_files,
    }
}

#[cfg(test)]
mod tests {
    use super::{check_programs, why_not_found};
    use crate::config::Config;
    use tokio_util::sync::CancellationToken;

    #[test]
    fn the_chmod_fix_names_the_script_without_a_dot_folder() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(tmp.path().join("noexec.sh"), "#!/bin/sh\n").unwrap();
        let why = why_not_found("./noexec.sh", tmp.path());
        let path = tmp.path().join("noexec.sh");
        assert!(
            why.contains(&format!("chmod +x {},", path.display())),
            "{why}"
        );
        assert!(!why.contains("/./"), "{why}");
    }

    #[test]
    fn a_missing_program_or_script_is_named_with_its_line() {
        let tmp = tempfile::tempdir().unwrap();
        let text = format!(
            "[[bot]]\nname = \"a\"\ncommand = [\"arena\", \"bot\", \"random\"]\n[[bot]]\nname = \"b\"\ndir = '{0}'\ncommand = [\"no-such-program-here\"]\n",
            tmp.path().display()
        );
        // What the check of the programs of the config `text` says.
        let check = |text: &str| {
            let c = Config::parse(text, "t.toml", "t", &crate::commands::host()).unwrap();
            check_programs(&c, &CancellationToken::new()).map_err(|e| e.to_string())
        };
        let e = check(&text).unwrap_err();
        assert!(
            e.starts_with("t.toml:7:11: bot 'b': program 'no-such-program-here'"),
            "{e}"
        );
        let text = text.replace(
            "[\"no-such-program-here\"]",
            // A program every platform has (this one), and a script it is given.
            "[\"arena\", \"-e\", \"bot.sh\"]",
        );
        let e = check(&text).unwrap_err();
        assert!(
            e.starts_with("t.toml:7:11: bot 'b': script 'bot.sh' does not exist"),
            "{e}"
        );
        std::fs::write(tmp.path().join("bot.sh"), "").unwrap();
        assert!(check(&text).is_ok());
        let text = text.replace("\"random\"", "\"nosuch\"");
        let e = check(&text).unwrap_err();
        assert!(
            e.starts_with("t.toml:3:11: bot 'a': there is no bundled bot 'nosuch'"),
            "{e}"
        );
        assert!(e.ends_with(", perfect"), "the arena's own bots listed: {e}");
        // `perfect` lives in the arena, not the bots crate: it is a bot too.
        let text = text.replace(
            "[\"arena\", \"bot\", \"nosuch\"]",
            "[\"arena\", \"bot\", \"perfect\", \"--tablebase\", \"tb\"]",
        );
        let checked = check(&text);
        assert!(checked.is_ok(), "{:?}", checked.err());
    }
}
