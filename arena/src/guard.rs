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

extern "C" fn on_arena_death(_: nix::libc::c_int) {
    // Async-signal-safe: one kill(2) on our own process group (pid 0).
    let _ = kill(Pid::from_raw(0), Signal::SIGKILL);
}

/// Runs the guard: starts `command` and mirrors its exit. Returns the exit
/// code to use when the bot exited normally or could not start.
#[must_use]
pub fn run(command: &[OsString]) -> i32 {
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
    // SAFETY: restoring a signal disposition is async-signal-safe.
    unsafe {
        cmd.pre_exec(|| {
            // An ignored signal stays ignored across exec: give the bot SIGTERM back.
            signal(Signal::SIGTERM, SigHandler::SigDfl)
                .map(|_| ())
                .map_err(std::io::Error::from)
        });
    }
    let status = match cmd.status() {
        Ok(s) => s,
        Err(e) => {
            eprintln!("guard: cannot start {}: {e}", program.to_string_lossy());
            return 127;
        }
    };
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
