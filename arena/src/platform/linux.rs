//! Linux: everything of `unix.rs`, and what only Linux has: the
//! parent-death signal and the subreaper (`prctl`), CPU affinity, `/proc`
//! figures and process table, the sandbox's calls (sealed memory files,
//! `no_new_privs`, descriptors by `/proc/self/fd`, the seccomp filter of
//! `linux/seccomp.rs`). The per-bot cgroups are files only Linux has;
//! `cgroup.rs` reads and writes them, and this says they exist.

mod seccomp;

use std::ffi::{OsStr, OsString};
use std::io;
use std::os::fd::AsRawFd;
use std::os::unix::process::CommandExt;

use nix::sched::{sched_getaffinity, sched_setaffinity, CpuSet};
use nix::sys::signal::Signal;
use nix::unistd::Pid;

pub use super::unix::*;
use super::{OnArenaDeath, ProcessEntry, ProcessLimits};

pub const NAME: &str = "linux";
pub const SANDBOX: bool = true;
pub const CGROUPS: bool = true;
pub const AFFINITY: bool = true;
pub const PARENT_DEATH_SIGNAL: bool = true;
pub const SUBREAPER: bool = true;
pub const MEMORY_LIMIT_NOTE: Option<&str> = None;

pub fn start_in_own_group(
    cmd: &mut tokio::process::Command,
    on_death: OnArenaDeath,
    limits: ProcessLimits,
) {
    let death_signal = match on_death {
        OnArenaDeath::Kill => Signal::SIGKILL,
        OnArenaDeath::EndGuard => Signal::SIGUSR2,
    };
    let parent = nix::unistd::getpid();
    cmd.process_group(0);
    // SAFETY: the closure makes only async-signal-safe system calls
    // (prctl, getppid, setrlimit) and allocates nothing.
    unsafe {
        cmd.pre_exec(move || {
            // The guard (or the bot) hears of the arena's death, even on kill -9.
            nix::sys::prctl::set_pdeathsig(death_signal)?;
            if nix::unistd::getppid() != parent {
                return Err(io::Error::other(
                    "the arena exited while the bot was starting",
                ));
            }
            apply_limits(limits).map_err(io::Error::from)
        });
    }
}

pub fn guard_setup() -> EndRequests {
    let requests = super::unix::guard_setup();
    let _ = nix::sys::prctl::set_child_subreaper(true);
    requests
}

/// The process table from `/proc`: pid, ppid and pgrp of `/proc/PID/stat`
/// (proc(5)).
pub fn processes() -> Option<Vec<ProcessEntry>> {
    let entries = std::fs::read_dir("/proc").ok()?;
    let mut procs = Vec::new();
    for entry in entries.flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // Fields after the command (which may hold spaces) end at ')':
        // state, ppid, pgrp.
        let Some(rest) = stat.rsplit_once(')').map(|(_, r)| r) else {
            continue;
        };
        let fields: Vec<&str> = rest.split_whitespace().collect();
        if fields.len() > 2 && fields[0] != "Z" {
            let number = |f: &str| f.parse::<u32>().unwrap_or(0);
            procs.push(ProcessEntry {
                pid,
                parent: number(fields[1]),
                group: number(fields[2]),
            });
        }
    }
    Some(procs)
}

pub fn sealed_file(bytes: &[u8]) -> io::Result<Descriptor> {
    use nix::fcntl::{fcntl, FcntlArg, SealFlag};
    use nix::sys::memfd::{memfd_create, MemFdCreateFlag};
    use std::io::{Seek, Write};
    let flags = MemFdCreateFlag::MFD_CLOEXEC | MemFdCreateFlag::MFD_ALLOW_SEALING;
    let mut file = std::fs::File::from(memfd_create(c"endodoi-sandbox", flags)?);
    file.write_all(bytes)?;
    file.rewind()?;
    let seals = SealFlag::F_SEAL_SEAL
        | SealFlag::F_SEAL_SHRINK
        | SealFlag::F_SEAL_GROW
        | SealFlag::F_SEAL_WRITE;
    fcntl(file.as_raw_fd(), FcntlArg::F_ADD_SEALS(seals))?;
    Ok(file.into())
}

pub fn sandbox_child(
    cmd: &mut std::process::Command,
    inherit: Vec<i32>,
    host_user: Option<(u32, u32)>,
) {
    // SAFETY: fcntl, setgroups, setresgid, setresuid and prctl are
    // async-signal-safe system calls; nothing is allocated.
    unsafe {
        cmd.pre_exec(move || {
            use nix::fcntl::{fcntl, FcntlArg, FdFlag};
            for &fd in &inherit {
                fcntl(fd, FcntlArg::F_SETFD(FdFlag::empty()))?;
            }
            if let Some((uid, gid)) = host_user {
                let (uid, gid) = (
                    nix::unistd::Uid::from_raw(uid),
                    nix::unistd::Gid::from_raw(gid),
                );
                nix::unistd::setgroups(&[])?;
                nix::unistd::setresgid(gid, gid, gid)?;
                nix::unistd::setresuid(uid, uid, uid)?;
            }
            nix::sys::prctl::set_no_new_privs()?;
            Ok(())
        });
    }
}

pub fn read_inherited(fd: i32) -> io::Result<Vec<u8>> {
    // A fresh open of the memory file reads it from its start.
    let bytes = std::fs::read(format!("/proc/self/fd/{fd}"));
    let _ = nix::unistd::close(fd);
    bytes
}

pub fn seccomp_filter(pinned: bool) -> io::Result<Vec<u8>> {
    seccomp::program(pinned).map_err(io::Error::other)
}

pub fn own_status() -> String {
    std::fs::read_to_string("/proc/self/status").unwrap_or_default()
}

pub fn limit_processes(processes: u64) -> io::Result<()> {
    use nix::sys::resource::{setrlimit, Resource};
    Ok(setrlimit(Resource::RLIMIT_NPROC, processes, processes)?)
}

pub fn close_other_descriptors() {
    use nix::fcntl::{fcntl, FcntlArg, FdFlag};
    let fds: Vec<i32> = std::fs::read_dir("/proc/self/fd")
        .map(|d| {
            d.flatten()
                .filter_map(|e| e.file_name().to_str()?.parse().ok())
                .collect()
        })
        .unwrap_or_default();
    for fd in fds.into_iter().filter(|&fd| fd > 2) {
        let _ = fcntl(fd, FcntlArg::F_SETFD(FdFlag::FD_CLOEXEC));
    }
}

pub fn exec(program: Option<&OsStr>, args: &[OsString]) -> io::Error {
    match program {
        Some(p) => std::process::Command::new(p).args(args).exec(),
        // The sandbox shows the arena's executable only as this descriptor.
        None => std::process::Command::new("/proc/self/exe")
            .arg0("arena")
            .args(args)
            .exec(),
    }
}

pub fn allowed_cores() -> Vec<usize> {
    let Ok(set) = sched_getaffinity(Pid::from_raw(0)) else {
        return Vec::new();
    };
    (0..CpuSet::count())
        .filter(|&c| set.is_set(c).unwrap_or(false))
        .collect()
}

/// The set holding `core` alone (a core beyond the set's size: empty,
/// which the kernel refuses).
fn one_core(core: usize) -> CpuSet {
    let mut set = CpuSet::new();
    let _ = set.set(core);
    set
}

pub fn pin_current_thread(core: usize) -> io::Result<()> {
    Ok(sched_setaffinity(Pid::from_raw(0), &one_core(core))?)
}

pub fn pinned<T>(core: Option<usize>, f: impl FnOnce() -> T) -> T {
    let Some(core) = core else { return f() };
    let before = sched_getaffinity(Pid::from_raw(0)).ok();
    let _ = pin_current_thread(core);
    let out = f();
    if let Some(before) = before {
        let _ = sched_setaffinity(Pid::from_raw(0), &before);
    }
    out
}

pub fn join_cgroups_at_exec(
    cmd: &mut std::process::Command,
    dirs: &[std::path::PathBuf],
) -> io::Result<()> {
    use std::os::unix::ffi::OsStrExt as _;
    let files = dirs
        .iter()
        .map(|d| std::ffi::CString::new(d.join("cgroup.procs").as_os_str().as_bytes()))
        .collect::<Result<Vec<_>, _>>()
        .map_err(io::Error::other)?;
    // SAFETY: open, write and close are async-signal-safe; the paths were
    // made before the fork, so nothing is allocated.
    unsafe {
        cmd.pre_exec(move || {
            use nix::fcntl::{open, OFlag};
            use nix::sys::stat::Mode;
            for file in &files {
                let fd = open(
                    file.as_c_str(),
                    OFlag::O_WRONLY | OFlag::O_CLOEXEC,
                    Mode::empty(),
                )?;
                // SAFETY: `fd` was opened just above and is closed below.
                let borrowed = std::os::fd::BorrowedFd::borrow_raw(fd);
                let written = nix::unistd::write(borrowed, b"0");
                let _ = nix::unistd::close(fd);
                written?;
            }
            Ok(())
        });
    }
    Ok(())
}

pub fn pin_child(cmd: &mut std::process::Command, core: usize) {
    let set = one_core(core);
    // SAFETY: sched_setaffinity is a plain system call, async-signal-safe.
    unsafe {
        cmd.pre_exec(move || Ok(sched_setaffinity(Pid::from_raw(0), &set)?));
    }
}

/// `VmHWM` of `/proc/self/status`: the peak of this program since its
/// exec (`ru_maxrss` keeps the parent's peak across fork and exec, so a
/// small child would report its parent's size); `ru_maxrss` without it.
pub fn peak_rss_kib() -> Option<u64> {
    let hwm = own_status().lines().find_map(|l| {
        l.strip_prefix("VmHWM:")
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
    });
    hwm.or_else(super::unix::peak_rss_kib)
}

pub fn load_average() -> Option<String> {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
}
