//! `fair-hog [--children N]`: the CPU-starvation attack on fair play (issue
//! 29). At `hello` it forks `N` (default 100) children that spin forever,
//! each in a session of its own (`setsid`, so each is a scheduler
//! autogroup of its own). On every turn it stops them all (SIGSTOP) while it
//! is itself on move, plays its first legal move, and lets them run again
//! (SIGCONT) as soon as it has replied: exactly while its opponent thinks.
//! Each child is signalled by its pid, never with `kill(-1, ...)`, so the
//! bot is safe to run unsandboxed in a test.
//!
//! Expected: with per-bot cgroups the children are frozen with the bot
//! whenever it is not on move, so its opponent keeps its CPU; without them
//! the opponent starves.

use endodoi_test_bots::{arg, log, run, Bot, Conn, Message, Turn};
use nix::sys::signal::{kill, Signal};
use nix::unistd::{fork, setsid, ForkResult, Pid};
use std::io;
use std::process::ExitCode;

struct Hog {
    count: usize,
    children: Vec<Pid>,
}

/// A child's whole life: its own session, no standard streams, a spin.
fn spin() -> ! {
    let _ = setsid();
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
    let mut x: u64 = 1;
    loop {
        x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
    }
}

impl Hog {
    fn signal_all(&self, signal: Signal) {
        for &child in &self.children {
            let _ = kill(child, signal);
        }
    }
}

impl Bot for Hog {
    fn on_hello(&mut self, _hello: &Message, conn: &mut Conn) -> io::Result<()> {
        if self.children.is_empty() {
            for _ in 0..self.count {
                // SAFETY: the bot is single-threaded; the child only spins.
                match unsafe { fork() } {
                    Ok(ForkResult::Child) => spin(),
                    Ok(ForkResult::Parent { child }) => self.children.push(child),
                    Err(e) => {
                        log(&format!("fork failed after {}: {e}", self.children.len()));
                        break;
                    }
                }
            }
            log(&format!(
                "started {} spinning children",
                self.children.len()
            ));
        }
        conn.send("hello version=1 name=fair-hog")
    }

    fn on_turn(&mut self, turn: &Turn, conn: &mut Conn) -> io::Result<()> {
        self.signal_all(Signal::SIGSTOP);
        conn.play(turn.first_legal())?;
        self.signal_all(Signal::SIGCONT);
        Ok(())
    }
}

fn main() -> ExitCode {
    run(Hog {
        count: arg("--children", 100),
        children: Vec::new(),
    })
}
