//! The guard: a tiny supervisor the arena puts between itself and each bot,
//! as `arena guard -- PROGRAM ARGS...`.
//!
//! Why: `PR_SET_PDEATHSIG` reaches only the process that set it, so a bot's
//! own children would outlive a `kill -9` of the arena. The guard leads the
//! bot's process group, and is its children's subreaper
//! (`PR_SET_CHILD_SUBREAPER`): a process the bot started stays the guard's
//! descendant even if it leaves the group (`setsid`, a daemon's double
//! fork). When the bot exits, and on SIGUSR2 (the arena's death, or its
//! request to stop the bot), the guard SIGKILLs its group and every
//! descendant, then itself. Otherwise it only waits for the bot and exits as
//! the bot did (same code, or same signal), so the arena sees the bot's own
//! exit status. Stdio is inherited: the guard carries no data and costs
//! nothing per ply. A watchdog thread also checks every 200 ms that the
//! arena is still its parent, in case the signal is ever missed.
//!
//! Where the platform has no parent-death signal and no subreaper (macOS,
//! the other Unixes: [`crate::platform`]), the watchdog is how the guard
//! learns of the arena's death, and a process that left the bot's group is
//! out of its reach (docs/platforms.md).

use std::ffi::OsString;
use std::path::PathBuf;

use crate::platform::{self, Sig};

/// Sends SIGKILL to every process in the guard's group, and to every
/// descendant of the guard (orphans come back to it where it is the
/// subreaper, [`platform::SUBREAPER`]) but the guard; again until none is
/// left, so a child forked meanwhile goes too.
fn kill_rest_of_group() {
    let me = std::process::id();
    for _ in 0..10 {
        let Some(procs) = platform::processes() else {
            return;
        };
        let mut doomed: Vec<u32> = procs
            .iter()
            .filter(|p| p.group == me && p.pid != me)
            .map(|p| p.pid)
            .collect();
        let mut tree = vec![me];
        while let Some(parent) = tree.pop() {
            for p in &procs {
                if p.parent == parent && p.pid != me {
                    tree.push(p.pid);
                    doomed.push(p.pid);
                }
            }
        }
        if doomed.is_empty() {
            return;
        }
        for pid in doomed {
            let _ = platform::signal_process(pid, Sig::Kill);
        }
    }
}

/// The bot's cgroups, as the arena gave them (`--cgroup`, `--cgroup-home`).
#[derive(Clone, Debug, Default)]
pub struct Cgroups {
    /// The bot's folders, one per hierarchy ([`crate::cgroup::BotGroup::dirs`]).
    pub dirs: Vec<PathBuf>,
    /// Where the guard goes back to, one for each of `dirs`.
    pub homes: Vec<PathBuf>,
}

/// Held by whoever ends the guard (a thread on the arena's death, or the
/// main thread once the bot exited), so that the process does not end in
/// the middle of another's cleanup.
static ENDING: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Ends the bot, its group and its descendants, whatever is in its
/// cgroups, and the guard with them; removes the cgroups (the arena, which
/// would, is gone).
fn kill_all(cgroups: &[PathBuf]) -> ! {
    let _ending = ENDING.lock();
    kill_rest_of_group();
    end_cgroups(cgroups, true);
    platform::kill_own_group();
    std::process::exit(137);
}

/// Kills whatever is left in the bot's cgroups and, if `remove`, removes
/// them, reaping the guard's exited children as it goes: the bot's orphans
/// are its children (it is their subreaper), and a zombie keeps its cgroup
/// busy until it is reaped. Gives up after two seconds.
fn end_cgroups(cgroups: &[PathBuf], remove: bool) {
    if !remove {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(2);
        crate::cgroup::kill(cgroups, deadline);
        return;
    }
    crate::cgroup::kill_and_remove_with(cgroups, platform::reap_exited_children);
}

/// The exit code of a guard whose bot could not start (as a shell's).
pub const NOT_STARTED: i32 = 127;

/// Why the guard could not start the bot; the caller says it on stderr,
/// which is the bot's log, and exits with [`NOT_STARTED`].
#[derive(Debug, thiserror::Error)]
pub enum GuardError {
    /// No program was given.
    #[error("no command")]
    NoCommand,
    /// The sandbox's command could not be prepared.
    #[error("cannot set up the sandbox: {0}")]
    Sandbox(std::io::Error),
    /// The bot's cgroup could not be joined.
    #[error("cannot put the bot into its cgroup: {0}")]
    Cgroup(std::io::Error),
    /// The program could not be started.
    #[error("cannot start {program}: {cause}")]
    Start {
        /// The program.
        program: String,
        /// Why.
        cause: std::io::Error,
    },
}

/// Runs the guard: starts `command` and mirrors its exit. Returns the exit
/// code to use when the bot exited normally. With `cgroups` (the bot's
/// folders, [`crate::cgroup`]), the bot starts in them and the guard
/// stays outside; at the end, or on the arena's death, everything in them
/// is killed and they are removed.
///
/// # Errors
/// [`GuardError`]: the bot could not start.
pub fn run(
    command: &[OsString],
    limits: crate::config::Limits,
    sandbox: Option<&crate::sandbox::Sandbox>,
    cgroups: &Cgroups,
) -> Result<i32, GuardError> {
    let Some((program, args)) = command.split_first() else {
        return Err(GuardError::NoCommand);
    };
    // SIGTERM ignored keeps the guard alive to report the bot's status
    // when the group gets SIGTERM. The end request (the arena's death, or
    // its request to end the bot) is taken by a thread of its own, which
    // may then read the process table: set up here, before any thread
    // starts, so that every thread inherits it.
    let requests = platform::guard_setup();
    let owned = cgroups.dirs.clone();
    std::thread::spawn(move || {
        requests.wait();
        kill_all(&owned);
    });
    // Belt and braces for the parent-death signal (and all there is where
    // the platform has none): if the arena is gone (we were re-parented),
    // end everything all the same.
    let arena = platform::parent_id();
    let owned = cgroups.dirs.clone();
    std::thread::spawn(move || loop {
        std::thread::sleep(platform::WATCHDOG);
        if platform::parent_id() != arena {
            kill_all(&owned);
        }
    });
    // A sandbox's descriptors stay open until the spawn, then close.
    // The bot joins its cgroups itself, between fork and exec (first of
    // all, while it has the guard's rights), so the guard never enters
    // them: a guard in them could be frozen with the bot, and a frozen
    // guard can end nothing when the arena dies.
    let sandboxed = sandbox.map(|s| s.command(Some(program), args, &cgroups.dirs));
    let mut prepared = sandboxed.transpose().map_err(GuardError::Sandbox)?;
    let mut plain;
    let cmd = match &mut prepared {
        Some(p) => &mut p.command,
        None => {
            plain = std::process::Command::new(program);
            plain.args(args);
            platform::join_cgroups_at_exec(&mut plain, &cgroups.dirs)
                .map_err(GuardError::Cgroup)?;
            &mut plain
        }
    };
    platform::guard_child(cmd, crate::bot::spawn::process_limits(&limits));
    let spawned = cmd.spawn();
    drop(prepared);
    let mut child = spawned.map_err(|source| GuardError::Start {
        program: program.to_string_lossy().into_owned(),
        cause: source,
    })?;
    // The bot has its own copies of the pipes: drop ours, so the arena sees
    // the end of the bot's output when the bot closes it.
    platform::detach_stdio();
    let status = loop {
        match child.wait() {
            Ok(s) => break s,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return Ok(1),
        }
    };
    // The bot is gone: end whatever it left, before we go too. The arena
    // removes the cgroups once it has read why the bot died; if it is
    // gone, the guard does.
    kill_rest_of_group();
    let _ending = ENDING.lock();
    end_cgroups(&cgroups.dirs, platform::parent_id() != arena);
    Ok(platform::exit_like(status))
}
