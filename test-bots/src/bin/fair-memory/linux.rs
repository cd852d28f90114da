//! `fair-memory --memfd|--shm|--tmpfs [--mib N]`: memory that a
//! per-process limit (RLIMIT_DATA) does not count (issue 29). At its first
//! turn it takes `N` MiB (default 256) as a `memfd` (`--memfd`), a System V
//! shared memory segment (`--shm`) or a file in its private `/dev/shm`
//! tmpfs (`--tmpfs`), touching every page, and writes `held N MiB` to
//! standard error after each 16 MiB; then it plays its first legal move.
//!
//! Expected: with a per-bot memory cgroup of `memory_mb` below `N`, the
//! kernel ends it before its log shows more than the limit, and it loses
//! the game as a crash whose reason names the memory limit.

use endodoi_test_bots::{arg, has_flag, log, run, Bot, Conn, Turn};
use nix::libc;
use std::io::{self, Write};
use std::process::ExitCode;

const MIB: usize = 1 << 20;
const STEP_MIB: usize = 16;

struct Memory {
    mib: usize,
    done: bool,
}

/// Writes `mib` MiB into `file`, logging after each step.
fn fill(mut file: std::fs::File, mib: usize) -> io::Result<std::fs::File> {
    let chunk = vec![0x5au8; MIB];
    for held in 1..=mib {
        file.write_all(&chunk)?;
        if held % STEP_MIB == 0 {
            log(&format!("held {held} MiB"));
        }
    }
    Ok(file)
}

/// A System V segment of `mib` MiB, attached and touched page by page.
fn shm(mib: usize) -> io::Result<()> {
    // SAFETY: shmget and shmat with a fresh private key; the segment is
    // written only within its size.
    unsafe {
        let id = libc::shmget(libc::IPC_PRIVATE, mib * MIB, libc::IPC_CREAT | 0o600);
        if id < 0 {
            return Err(io::Error::last_os_error());
        }
        let at = libc::shmat(id, std::ptr::null(), 0);
        if at as isize == -1 {
            return Err(io::Error::last_os_error());
        }
        let base = at.cast::<u8>();
        for held in 1..=mib {
            for page in (0..MIB).step_by(4096) {
                base.add((held - 1) * MIB + page).write_volatile(0x5a);
            }
            if held % STEP_MIB == 0 {
                log(&format!("held {held} MiB"));
            }
        }
    }
    Ok(())
}

impl Memory {
    fn take(&self) -> io::Result<()> {
        if has_flag("--memfd") {
            let fd =
                nix::sys::memfd::memfd_create(c"hog", nix::sys::memfd::MemFdCreateFlag::empty())?;
            std::mem::forget(fill(std::fs::File::from(fd), self.mib)?);
        } else if has_flag("--shm") {
            shm(self.mib)?;
        } else {
            let file = std::fs::File::create("/dev/shm/hog")?;
            std::mem::forget(fill(file, self.mib)?);
        }
        Ok(())
    }
}

impl Bot for Memory {
    fn on_turn(&mut self, turn: &Turn, conn: &mut Conn) -> io::Result<()> {
        if !self.done {
            self.done = true;
            if let Err(e) = self.take() {
                log(&format!("could not take the memory: {e}"));
            }
        }
        conn.play(turn.first_legal())
    }
}

pub fn main() -> ExitCode {
    run(Memory {
        mib: arg("--mib", 256),
        done: false,
    })
}
