//! The guard: a tiny supervisor the arena puts between itself and each bot,
//! as `arena guard -- PROGRAM ARGS...`.
//!
//! Why: `PR_SET_PDEATHSIG` reaches only the process that set it, so a bot's
//! own children would outlive a `kill -9` of the arena. The guard leads the
//! bot's process group and gets SIGUSR2 when the arena dies; it then
//! SIGKILLs the whole group, itself included. Otherwise it only waits for
//! the bot and exits as the bot did (same code, or same signal), so the
//! arena sees the bot's own exit status. Stdio is inherited: the guard
//! carries no data and costs nothing per ply. A watchdog thread also checks
//! every 200 ms that the arena is still its parent, in case the signal is
//! ever missed.

use std::ffi::OsString;
use std::os::unix::process::{CommandExt, ExitStatusExt};

use nix::sys::signal::{kill, signal, SigHandler, Signal};
use nix::unistd::Pid;

/// Sends SIGKILL to every process in the guard's group but the guard.
fn kill_rest_of_group() {
    let me = nix::unistd::getpid();
    for _ in 0..10 {
        let mut found = false;
        let Ok(entries) = std::fs::read_dir("/proc") else {
            return;
        };
        for entry in entries.flatten() {
            let Ok(pid) = entry.file_name().to_string_lossy().parse::<i32>() else {
                continue;
            };
            if pid == me.as_raw() {
                continue;
            }
            let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
                continue;
            };
            // Fields after the command (which may hold spaces) end at ')':
            // state, ppid, pgrp.
            let Some(rest) = stat.rsplit_once(')').map(|(_, r)| r) else {
                continue;
            };
            let fields: Vec<&str> = rest.split_whitespace().collect();
            if fields.len() > 2 && fields[0] != "Z" && fields[2] == me.as_raw().to_string() {
                found = true;
                let _ = kill(Pid::from_raw(pid), Signal::SIGKILL);
            }
        }
        if !found {
            return;
        }
    }
}

extern "C" fn on_arena_death(_: nix::libc::c_int) {
    // Async-signal-safe: one kill(2) on our own process group (pid 0).
    let _ = kill(Pid::from_raw(0), Signal::SIGKILL);
}

/// Runs the guard: starts `command` and mirrors its exit. Returns the exit
/// code to use when the bot exited normally or could not start.
#[must_use]
pub fn run(command: &[OsString], limits: crate::config::Limits) -> i32 {
    let Some((program, args)) = command.split_first() else {
        eprintln!("guard: no command");
        return 127;
    };
    // SAFETY: the handler only calls kill(2); SIG_IGN for SIGTERM keeps the
    // guard alive to report the bot's status when the group gets SIGTERM.
    unsafe {
        let _ = signal(Signal::SIGUSR2, SigHandler::Handler(on_arena_death));
        let _ = signal(Signal::SIGTERM, SigHandler::SigIgn);
    }
    // Belt and braces for the parent-death signal: if the arena is gone
    // (we were re-parented), end the group all the same.
    let arena = nix::unistd::getppid();
    std::thread::spawn(move || loop {
        std::thread::sleep(std::time::Duration::from_millis(200));
        if nix::unistd::getppid() != arena {
            let _ = kill(Pid::from_raw(0), Signal::SIGKILL);
        }
    });
    let mut cmd = std::process::Command::new(program);
    cmd.args(args);
    // SAFETY: restoring a signal disposition and setrlimit are async-signal-safe.
    unsafe {
        cmd.pre_exec(move || {
            // An ignored signal stays ignored across exec: give the bot SIGTERM back.
            signal(Signal::SIGTERM, SigHandler::SigDfl).map_err(std::io::Error::from)?;
            crate::bot::spawn::apply_limits(&limits).map_err(std::io::Error::from)
        });
    }
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("guard: cannot start {}: {e}", program.to_string_lossy());
            return 127;
        }
    };
    // The bot has its own copies of the pipes: drop ours, so the arena sees
    // the end of the bot's output when the bot closes it.
    if let Ok(null) = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open("/dev/null")
    {
        use std::os::fd::AsRawFd;
        for fd in 0..=2 {
            let _ = nix::unistd::dup2(null.as_raw_fd(), fd);
        }
    }
    let status = loop {
        match child.wait() {
            Ok(s) => break s,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return 1,
        }
    };
    // The bot is gone: end whatever it left in its group, before we go too.
    kill_rest_of_group();
    if let Some(sig) = status.signal() {
        // Die of the same signal, so the arena sees "signal: N".
        if let Ok(sig) = Signal::try_from(sig) {
            // SAFETY: restoring the default disposition before raising it.
            unsafe {
                let _ = signal(sig, SigHandler::SigDfl);
            }
            let _ = nix::sys::signal::raise(sig);
        }
        return 128 + sig;
    }
    status.code().unwrap_or(1)
}
