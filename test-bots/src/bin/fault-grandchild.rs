//! `fault-grandchild [--inherit-stdio] [--keep-playing] [--own-group]`: at its first `newgame` starts a
//! grandchild, `sleep 3600`, in the bot's process group, and appends the
//! grandchild's pid (a line) to the file named by `FAULT_PIDFILE` if set;
//! then exits with code 4 when asked for its first move, leaving the
//! grandchild behind. The grandchild's standard streams are `/dev/null`;
//! with `--inherit-stdio` it inherits the bot's, so the bot's standard output
//! stays open after the bot dies. With `--keep-playing` it plays the first
//! legal move instead of exiting, so the grandchild lives as long as the bot
//! (for the test that kills the arena with `kill -9`). With `--own-group`
//! the grandchild leads a process group of its own, out of reach of a
//! signal to the bot's group, as a daemonising bot's child would be.
//!
//! With `--daemon` the grandchild is made as a daemon would be and as a
//! hostile bot would hide one: a double fork (its parent exits, so it is
//! an orphan), a session of its own (`setsid`), every catchable signal
//! ignored; it is then `sleep 3600` as before, exec'd with the signals
//! still ignored, and its pid is the one written (a pid of the bot's own
//! process namespace, in a sandbox); `--sleep S` sets its duration
//! (default 3600), a marker to find it by on the host. The bot logs
//! `started a daemon` once the daemon's parent has exited.
//!
//! Expected termination: `crash`; the arena must leave no process behind
//! (it ends the process group).

use endodoi_test_bots::{arg, has_flag, log, run, Bot, Conn, Message, Turn};
use std::fs::OpenOptions;
use std::io::{self, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, ExitCode, Stdio};

struct Grandchild {
    inherit: bool,
    keep_playing: bool,
    own_group: bool,
    daemon: bool,
    started: bool,
    child: Option<Child>,
}

/// Writes `pid` as a line to `FAULT_PIDFILE`, if set, in one write (so a
/// reader never sees half the number).
fn record(pid: u32) -> io::Result<()> {
    if let Some(path) = std::env::var_os("FAULT_PIDFILE") {
        let mut file = OpenOptions::new().create(true).append(true).open(path)?;
        file.write_all(format!("{pid}\n").as_bytes())?;
    }
    Ok(())
}

/// Starts the `--daemon` grandchild: fork, setsid, ignore every catchable
/// signal, fork again (the middle process exits), and exec `sleep SECONDS`.
/// Returns once the middle process has exited, having written the pid.
fn daemon(seconds: &str) -> io::Result<()> {
    use nix::sys::signal::{signal, SigHandler, Signal};
    use nix::unistd::{fork, setsid, ForkResult};
    // SAFETY: the bot is single-threaded; the children only make system
    // calls and exec.
    match unsafe { fork() }? {
        ForkResult::Parent { child } => {
            nix::sys::wait::waitpid(child, None)?;
            log("started a daemon");
            Ok(())
        }
        ForkResult::Child => {
            let _ = setsid();
            for sig in Signal::iterator() {
                if sig != Signal::SIGKILL && sig != Signal::SIGSTOP {
                    // SAFETY: SIG_IGN installs no handler.
                    let _ = unsafe { signal(sig, SigHandler::SigIgn) };
                }
            }
            match unsafe { fork() } {
                Ok(ForkResult::Child) => {
                    let e = Command::new("sleep")
                        .arg(seconds)
                        .stdin(Stdio::null())
                        .stdout(Stdio::null())
                        .stderr(Stdio::null())
                        .exec();
                    log(&format!("cannot exec sleep: {e}"));
                    std::process::exit(1)
                }
                // The middle process writes the pid before it exits, so
                // it is there once the bot's wait returns.
                Ok(ForkResult::Parent { child }) => {
                    let written = record(child.as_raw() as u32);
                    std::process::exit(i32::from(written.is_err()))
                }
                Err(_) => std::process::exit(1),
            }
        }
    }
}

impl Bot for Grandchild {
    fn on_newgame(&mut self, _game: &Message, conn: &mut Conn) -> io::Result<()> {
        if self.daemon && !self.started {
            self.started = true;
            daemon(&arg("--sleep", "3600".to_string()))?;
        }
        if !self.daemon && self.child.is_none() {
            let mut sleep = Command::new("sleep");
            sleep.arg("3600");
            if self.own_group {
                sleep.process_group(0);
            }
            if !self.inherit {
                sleep
                    .stdin(Stdio::null())
                    .stdout(Stdio::null())
                    .stderr(Stdio::null());
            }
            let child = sleep.spawn()?;
            log(&format!("started grandchild {}", child.id()));
            record(child.id())?;
            self.child = Some(child);
        }
        conn.send("ready")
    }

    fn on_turn(&mut self, turn: &Turn, conn: &mut Conn) -> io::Result<()> {
        if self.keep_playing {
            return conn.play(turn.first_legal());
        }
        std::process::exit(4);
    }
}

fn main() -> ExitCode {
    run(Grandchild {
        inherit: has_flag("--inherit-stdio"),
        keep_playing: has_flag("--keep-playing"),
        own_group: has_flag("--own-group"),
        daemon: has_flag("--daemon"),
        started: false,
        child: None,
    })
}
