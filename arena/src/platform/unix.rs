//! Every Unix (macOS, the BSDs; Linux with `portable-unix`): process
//! groups, POSIX signals, `setrlimit`, `getrusage`. What only Linux has is
//! in `linux.rs`, which builds on this and replaces what it does better;
//! here it is missing, and said so (see the facts in `mod.rs`).
//!
//! On full Linux the items `linux.rs` replaces are unused, yet compiled,
//! so Linux CI type-checks this file in both builds.
#![cfg_attr(
    all(target_os = "linux", not(feature = "portable-unix")),
    allow(dead_code)
)]

use std::ffi::{OsStr, OsString};
use std::io;
use std::os::fd::{AsFd, AsRawFd, OwnedFd};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::Path;
use std::process::ExitStatus;
use std::time::Duration;

use nix::sys::resource::{getrusage, setrlimit, Resource, UsageWho};
use nix::sys::signal::{kill, killpg, SigHandler, SigSet, Signal};
use nix::unistd::Pid;

// Built into Linux, linux.rs replaces every one of these (hence unused there).
#[cfg_attr(
    all(target_os = "linux", not(feature = "portable-unix")),
    allow(unused_imports)
)]
pub use super::absent::{
    allowed_cores, join_cgroups_at_exec, limit_processes, own_status, pin_child,
    pin_current_thread, pinned, read_inherited, sealed_file, seccomp_filter, unsupported,
};
use super::{OnArenaDeath, ProcessEntry, ProcessLimits, Sig, Whose};

pub const NAME: &str = "unix";
pub const SANDBOX: bool = false;
pub const CGROUPS: bool = false;
pub const AFFINITY: bool = false;
pub const PARENT_DEATH_SIGNAL: bool = false;
pub const SUBREAPER: bool = false;
pub const MEMORY_LIMIT_NOTE: Option<&str> = if cfg!(target_os = "macos") {
    Some("memory_mb is not enforced on macOS (it ignores RLIMIT_DATA): a bot may use more")
} else {
    None
};

pub type Descriptor = OwnedFd;

fn signal_of(sig: Sig) -> Signal {
    match sig {
        Sig::Terminate => Signal::SIGTERM,
        Sig::Kill => Signal::SIGKILL,
        Sig::Continue => Signal::SIGCONT,
        Sig::EndGuard => Signal::SIGUSR2,
    }
}

fn pid(id: u32) -> Pid {
    Pid::from_raw(id as i32)
}

pub fn start_in_own_group(
    cmd: &mut tokio::process::Command,
    _on_death: OnArenaDeath,
    limits: ProcessLimits,
) {
    cmd.process_group(0);
    // SAFETY: the closure makes only async-signal-safe calls (setrlimit)
    // and allocates nothing.
    unsafe {
        cmd.pre_exec(move || apply_limits(limits).map_err(io::Error::from));
    }
}

/// Sets the resource limits of the calling process (see
/// [`ProcessLimits`]); core dumps always off. Async-signal-safe.
pub fn apply_limits(limits: ProcessLimits) -> nix::Result<()> {
    const MIB: u64 = 1 << 20;
    if limits.memory_mb > 0 {
        let bytes = limits.memory_mb.saturating_mul(MIB);
        setrlimit(Resource::RLIMIT_DATA, bytes, bytes)?;
    }
    if limits.cpu_seconds > 0 {
        setrlimit(
            Resource::RLIMIT_CPU,
            limits.cpu_seconds,
            limits.cpu_seconds + 1,
        )?;
    }
    if limits.open_files > 0 {
        setrlimit(
            Resource::RLIMIT_NOFILE,
            limits.open_files,
            limits.open_files,
        )?;
    }
    setrlimit(Resource::RLIMIT_CORE, 0, 0)
}

pub const GUARD: bool = true;

/// Nothing to do: the process group and the limits were set as it started.
pub fn started(_child: &tokio::process::Child, _limits: ProcessLimits) -> io::Result<()> {
    Ok(())
}

pub fn program_aliases(_program: &str) -> &'static [&'static str] {
    &[]
}

pub fn signal_group(group: u32, sig: Sig) -> io::Result<()> {
    Ok(killpg(pid(group), signal_of(sig))?)
}

pub fn signal_process(id: u32, sig: Sig) -> io::Result<()> {
    Ok(kill(pid(id), signal_of(sig))?)
}

pub fn pipe_readable(out: &tokio::process::ChildStdout) -> bool {
    use nix::poll::{poll, PollFd, PollFlags, PollTimeout};
    let mut fds = [PollFd::new(out.as_fd(), PollFlags::POLLIN)];
    // An error (EINTR) counts as "look": the read that follows finds out.
    poll(&mut fds, PollTimeout::ZERO).map_or(true, |n| n > 0)
}

pub fn descriptor_number(fd: &Descriptor) -> i32 {
    fd.as_raw_fd()
}

pub fn descriptor_of(file: std::fs::File) -> Descriptor {
    file.into()
}

pub fn pass_descriptor(cmd: &mut tokio::process::Command, fd: Descriptor) -> i32 {
    let number = fd.as_raw_fd();
    // SAFETY: fcntl is async-signal-safe; nothing is allocated. The closure
    // owns the descriptor, so it stays open until the command is dropped,
    // and only the child's copy loses close-on-exec.
    unsafe {
        cmd.pre_exec(move || {
            use nix::fcntl::{fcntl, FcntlArg, FdFlag};
            fcntl(fd.as_raw_fd(), FcntlArg::F_SETFD(FdFlag::empty()))?;
            Ok(())
        });
    }
    number
}

pub fn set_mode(path: &Path, mode: u32) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
}

pub fn write_at_start(file: &std::fs::File, bytes: &[u8]) -> io::Result<usize> {
    std::os::unix::fs::FileExt::write_at(file, bytes, 0)
}

/// The guard's SIGUSR2, blocked in every thread, taken by `sigwait`.
pub struct EndRequests(SigSet);

impl EndRequests {
    pub fn wait(&self) {
        let _ = self.0.wait();
    }
}

pub fn guard_setup() -> EndRequests {
    let usr2 = SigSet::from(Signal::SIGUSR2);
    // SAFETY: setting SIGTERM's disposition to SIG_IGN installs no handler.
    unsafe {
        let _ = nix::sys::signal::signal(Signal::SIGTERM, SigHandler::SigIgn);
    }
    let _ = usr2.thread_block();
    EndRequests(usr2)
}

pub fn guard_child(cmd: &mut std::process::Command, limits: ProcessLimits) {
    // SAFETY: restoring a signal disposition, sigprocmask and setrlimit are
    // async-signal-safe.
    unsafe {
        cmd.pre_exec(move || {
            // An ignored signal stays ignored across exec, and a blocked one
            // blocked: give the bot SIGTERM and SIGUSR2 back.
            nix::sys::signal::signal(Signal::SIGTERM, SigHandler::SigDfl)?;
            SigSet::from(Signal::SIGUSR2).thread_unblock()?;
            apply_limits(limits).map_err(io::Error::from)
        });
    }
}

pub fn parent_id() -> u32 {
    std::os::unix::process::parent_id()
}

/// The process table from `ps -A -o pid= -o ppid= -o pgid= -o stat=`
/// (POSIX), zombies and the `ps` itself left out.
pub fn processes() -> Option<Vec<ProcessEntry>> {
    let child = std::process::Command::new("ps")
        .args([
            "-A", "-o", "pid=", "-o", "ppid=", "-o", "pgid=", "-o", "stat=",
        ])
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .ok()?;
    let ps = child.id();
    let out = child.wait_with_output().ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8_lossy(&out.stdout);
    Some(
        text.lines()
            .filter_map(|line| {
                let f: Vec<&str> = line.split_whitespace().collect();
                let n = |i: usize| f.get(i)?.parse::<u32>().ok();
                let entry = ProcessEntry {
                    pid: n(0)?,
                    parent: n(1)?,
                    group: n(2)?,
                };
                let zombie = f.get(3).is_some_and(|s| s.starts_with('Z'));
                (!zombie && entry.pid != ps).then_some(entry)
            })
            .collect(),
    )
}

pub fn reap_exited_children() {
    use nix::sys::wait::{waitpid, WaitPidFlag, WaitStatus};
    while let Ok(status) = waitpid(None, Some(WaitPidFlag::WNOHANG)) {
        if status == WaitStatus::StillAlive {
            break;
        }
    }
}

pub fn detach_stdio() {
    if let Ok(null) = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open("/dev/null")
    {
        for fd in 0..=2 {
            let _ = nix::unistd::dup2(null.as_raw_fd(), fd);
        }
    }
}

pub fn kill_own_group() {
    let _ = kill(Pid::from_raw(0), Signal::SIGKILL);
}

pub fn exit_like(status: ExitStatus) -> i32 {
    if let Some(sig) = status.signal() {
        if let Ok(sig) = Signal::try_from(sig) {
            // SAFETY: restoring the default disposition before raising it.
            unsafe {
                let _ = nix::sys::signal::signal(sig, SigHandler::SigDfl);
            }
            let _ = nix::sys::signal::raise(sig);
        }
        return 128 + sig;
    }
    status.code().unwrap_or(1)
}

pub fn sandbox_child(
    cmd: &mut std::process::Command,
    _inherit: Vec<i32>,
    _host_user: Option<(u32, u32)>,
) {
    // SAFETY: the closure makes no call at all.
    unsafe {
        cmd.pre_exec(|| Err(unsupported("the sandbox")));
    }
}

pub fn is_root() -> bool {
    nix::unistd::geteuid().is_root()
}

pub fn user_id() -> u32 {
    nix::unistd::getuid().as_raw()
}

pub fn user_ids(user: &str) -> Option<(u32, u32)> {
    use nix::unistd::{Uid, User};
    match user.parse::<u32>() {
        Ok(uid) => Some(
            User::from_uid(Uid::from_raw(uid))
                .ok()
                .flatten()
                .map_or((uid, uid), |u| (uid, u.gid.as_raw())),
        ),
        Err(_) => match User::from_name(user) {
            Ok(Some(u)) => Some((u.uid.as_raw(), u.gid.as_raw())),
            _ => None,
        },
    }
}

pub fn owner_and_mode(meta: &std::fs::Metadata) -> (u32, u32, u32) {
    use std::os::unix::fs::MetadataExt;
    (meta.uid(), meta.gid(), meta.mode())
}

pub fn close_other_descriptors() {}

pub fn exec(program: Option<&OsStr>, args: &[OsString]) -> io::Error {
    let program = match program {
        Some(p) => return std::process::Command::new(p).args(args).exec(),
        None => match std::env::current_exe() {
            Ok(p) => p.into_os_string(),
            Err(e) => return e,
        },
    };
    std::process::Command::new(program)
        .arg0("arena")
        .args(args)
        .exec()
}

pub fn cpu_time(whose: Whose) -> Option<Duration> {
    let who = match whose {
        Whose::ThisProcess => UsageWho::RUSAGE_SELF,
        Whose::ReapedChildren => UsageWho::RUSAGE_CHILDREN,
    };
    let usage = getrusage(who).ok()?;
    let tv = |t: nix::sys::time::TimeVal| {
        Duration::from_secs(t.tv_sec() as u64) + Duration::from_micros(t.tv_usec() as u64)
    };
    Some(tv(usage.user_time()) + tv(usage.system_time()))
}

pub fn peak_rss_kib() -> Option<u64> {
    let max = getrusage(UsageWho::RUSAGE_SELF).ok()?.max_rss() as u64;
    // ru_maxrss is in bytes on macOS, in KiB elsewhere.
    Some(if cfg!(target_os = "macos") {
        max / 1024
    } else {
        max
    })
}

pub fn load_average() -> Option<String> {
    let mut loads = [0f64; 3];
    // SAFETY: getloadavg writes at most 3 doubles into the array given.
    let n = unsafe { nix::libc::getloadavg(loads.as_mut_ptr(), 3) };
    (n == 3).then(|| format!("{:.2} {:.2} {:.2}", loads[0], loads[1], loads[2]))
}

/// SIGINT, SIGTERM and (with hangup) SIGHUP through tokio.
pub struct ShutdownSignals(Vec<tokio::signal::unix::Signal>);

impl ShutdownSignals {
    pub fn install(hangup: bool) -> ShutdownSignals {
        use tokio::signal::unix::{signal, SignalKind};
        let mut kinds = vec![SignalKind::interrupt(), SignalKind::terminate()];
        if hangup {
            kinds.push(SignalKind::hangup());
        }
        ShutdownSignals(kinds.into_iter().filter_map(|k| signal(k).ok()).collect())
    }

    pub async fn recv(&mut self) {
        if self.0.is_empty() {
            return std::future::pending().await;
        }
        let waits = self.0.iter_mut().map(|s| Box::pin(s.recv()));
        let (got, _, _) = futures::future::select_all(waits).await;
        if got.is_none() {
            std::future::pending::<()>().await;
        }
    }
}
