//! The platform boundary: every call into the operating system that is not
//! the same everywhere, behind one interface, and what each platform lacks,
//! said as a fact the rest of the arena reads (never faked).
//!
//! The rule (docs/architecture.md, "The platform layer"): in the arena
//! library, `cfg(target_os = ...)`, `cfg(unix)` and `cfg(windows)` appear
//! only under `platform/`, and so do `nix::` and `libc::`. This file holds
//! the interface, its documentation and the dispatch; each platform's
//! module implements every item below with the same name and signature:
//!
//! - `linux.rs` (Linux, without the `portable-unix` feature): everything,
//!   on top of `unix.rs`: the parent-death signal and the subreaper
//!   (`prctl`), CPU affinity, `/proc` figures, the sandbox's calls
//!   (sealed memory files, `no_new_privs`, the seccomp filter in
//!   `linux/seccomp.rs`), and the per-bot cgroups (the files `cgroup.rs`
//!   reads and writes exist there only).
//! - `unix.rs` (macOS, the BSDs, and Linux with `portable-unix`): process
//!   groups and `killpg`, `setrlimit`, `getrusage`, the guard's signals,
//!   the process table through `ps`; no sandbox, no cgroups, no affinity,
//!   no parent-death signal (the guard's watchdog notices a new parent).
//! - `windows.rs` (Windows): a Job Object per bot, which limits it and
//!   ends it with all its processes, even when the arena is killed, so no
//!   guard process is needed ([`GUARD`]); no sandbox, no cgroups, no
//!   affinity. A bot starts suspended and runs once it is in its job
//!   ([`started`]).
//!
//! The feature `portable-unix` builds, on Linux, the arena that macOS and
//! the other Unixes get, so that its tests run in Linux CI.
//!
//! The functions never print; an OS failure is an [`std::io::Error`], a
//! missing facility a [`std::io::ErrorKind::Unsupported`] error or `None`.

use std::ffi::{OsStr, OsString};
use std::io;
use std::path::Path;
use std::process::ExitStatus;
use std::time::Duration;

mod absent;
#[cfg(all(target_os = "linux", not(feature = "portable-unix")))]
mod linux;
#[cfg(all(target_os = "linux", not(feature = "portable-unix")))]
use linux as imp;
#[cfg(unix)]
mod unix;
#[cfg(all(unix, any(not(target_os = "linux"), feature = "portable-unix")))]
use unix as imp;
#[cfg(windows)]
mod windows;
#[cfg(windows)]
use windows as imp;

// ---------------------------------------------------------------- facts

/// The platform the arena was built for: `"linux"` (everything),
/// `"unix"` (macOS, the BSDs, and Linux built with `portable-unix`) or
/// `"windows"`.
pub const NAME: &str = imp::NAME;

/// Whether bots can be sandboxed (`sandbox = true`: bubblewrap, user
/// namespaces, the seccomp filter). Without it, [`NO_SANDBOX`] says why.
pub const SANDBOX: bool = imp::SANDBOX;

/// Whether bots can get cgroups of their own (`[limits] cgroups`: the
/// freeze off turn, one memory budget, the kill of every process). Without
/// it, `cgroups = "auto"` runs without them and [`NO_CGROUPS`] says why
/// `"require"` stops.
pub const CGROUPS: bool = imp::CGROUPS;

/// Whether series can be pinned to cores (`[tournament] affinity = true`).
/// Without it they run unpinned, with the note [`NO_AFFINITY`].
pub const AFFINITY: bool = imp::AFFINITY;

/// Whether a bot (or its guard) hears of the arena's death at once, even
/// on `kill -9` (Linux's `PR_SET_PDEATHSIG`). Without it the guard's
/// watchdog notices its new parent within [`WATCHDOG`]. On Windows (true)
/// the bot's Job Object does it: it ends with the arena's handle of it.
pub const PARENT_DEATH_SIGNAL: bool = imp::PARENT_DEATH_SIGNAL;

/// Whether the guard stays the parent of every process the bot starts,
/// even one that leaves the bot's process group (`setsid`, a daemon's
/// double fork): Linux's `PR_SET_CHILD_SUBREAPER`. Without it such a
/// process escapes the guard's end of the bot (the per-bot cgroups,
/// Linux only too, would catch it). On Windows (true) every process the
/// bot starts is in its Job Object, which allows no breakaway.
pub const SUBREAPER: bool = imp::SUBREAPER;

/// Whether bots run under the guard (`arena guard`), the process that
/// ends a bot with everything it started when the arena ends (Unix). On
/// Windows the bot's Job Object does that, and there is no guard: the
/// arena's guard executable, if given, is not used.
pub const GUARD: bool = imp::GUARD;

/// How often the guard checks that the arena is still its parent.
pub const WATCHDOG: Duration = Duration::from_millis(200);

/// Why `sandbox = true` stops on a platform without [`SANDBOX`] (one line;
/// the caller puts the file and line in front).
pub const NO_SANDBOX: &str = "sandbox = true needs Linux with bubblewrap: run the bots unsandboxed (sandbox = false), or the arena in a Linux container or VM";

/// Why `cgroups = "require"` stops on a platform without [`CGROUPS`].
pub const NO_CGROUPS: &str = "cgroups = \"require\" needs Linux's cgroups: use cgroups = \"auto\" or \"off\" here (the per-process limits still hold), or run the arena on Linux";

/// The note for `affinity = true` on a platform without [`AFFINITY`].
pub const NO_AFFINITY: &str =
    "affinity = true needs Linux (sched_setaffinity): the series run unpinned here";

/// The note for `memory_mb` where the kernel does not enforce it
/// (`RLIMIT_DATA` is accepted but not enforced by macOS); `None` where it
/// is enforced.
pub const MEMORY_LIMIT_NOTE: Option<&str> = imp::MEMORY_LIMIT_NOTE;

// ------------------------------------------------------ bot processes

/// A signal to a bot's process group, or to its guard.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sig {
    /// Ask to end (SIGTERM).
    Terminate,
    /// End now (SIGKILL).
    Kill,
    /// Go on after a stop (SIGCONT).
    Continue,
    /// The guard's "end the bot, its group and yourself" (SIGUSR2).
    EndGuard,
}

/// The per-process limits set before a bot's program starts (`[limits]`);
/// 0 leaves that resource alone.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ProcessLimits {
    /// Data segment size, MiB (`RLIMIT_DATA`; see [`MEMORY_LIMIT_NOTE`]).
    pub memory_mb: u64,
    /// CPU time, seconds (`RLIMIT_CPU`; the hard limit one second above,
    /// so the bot dies of SIGXCPU).
    pub cpu_seconds: u64,
    /// Open descriptors (`RLIMIT_NOFILE`).
    pub open_files: u64,
}

/// What a process started by the arena gets when the arena dies, where
/// [`PARENT_DEATH_SIGNAL`] exists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnArenaDeath {
    /// SIGKILL (an unguarded bot).
    Kill,
    /// [`Sig::EndGuard`] (a guard, which then ends its bot).
    EndGuard,
}

/// Sets up `cmd` as a bot (or a guard) starts: in a process group of its
/// own (its id is the child's pid), with `limits`, told of the arena's
/// death as `on_death` says where the platform can; a child whose arena
/// died while it started fails to start.
pub fn start_in_own_group(
    cmd: &mut tokio::process::Command,
    on_death: OnArenaDeath,
    limits: ProcessLimits,
) {
    imp::start_in_own_group(cmd, on_death, limits);
}

/// Completes the start of `child`, spawned from a command that
/// [`start_in_own_group`] set up with `limits`: on Windows, puts it in a
/// Job Object of its own with `limits` and lets it run (it starts
/// suspended, so nothing it starts escapes the job); nothing on Unix.
///
/// # Errors
/// The OS's refusal; the child is then ended, never left running outside
/// its job.
pub fn started(child: &tokio::process::Child, limits: ProcessLimits) -> io::Result<()> {
    imp::started(child, limits)
}

/// Other names under which a program named in a bot's command is looked
/// up in `PATH` when its own is not found: on Windows, `python` for
/// `python3` (the python.org installer makes `python.exe` and no
/// `python3.exe`); none on Unix, where `python3` is the name to use.
#[must_use]
pub fn program_aliases(program: &str) -> &'static [&'static str] {
    imp::program_aliases(program)
}

/// Sends `sig` to every process of group `group` (a bot's, or its
/// guard's, whose id is the leader's pid).
///
/// # Errors
/// The OS's refusal (no such group: it has ended).
pub fn signal_group(group: u32, sig: Sig) -> io::Result<()> {
    imp::signal_group(group, sig)
}

/// Sends `sig` to the process `pid` alone.
///
/// # Errors
/// The OS's refusal (no such process: it has ended).
pub fn signal_process(pid: u32, sig: Sig) -> io::Result<()> {
    imp::signal_process(pid, sig)
}

/// Whether the bot's stdout has bytes to read, or its end, right now (one
/// zero-timeout poll of the OS, not the runtime's cached readiness). On
/// doubt `true`: the read that follows finds out.
#[must_use]
pub fn pipe_readable(out: &tokio::process::ChildStdout) -> bool {
    imp::pipe_readable(out)
}

/// A descriptor the arena hands to a child (the sandbox's data): an
/// `OwnedFd` on Unix.
pub type Descriptor = imp::Descriptor;

/// The number of `fd`, as a child that inherits it sees it.
#[must_use]
pub fn descriptor_number(fd: &Descriptor) -> i32 {
    imp::descriptor_number(fd)
}

/// `file` as a [`Descriptor`].
#[must_use]
pub fn descriptor_of(file: std::fs::File) -> Descriptor {
    imp::descriptor_of(file)
}

/// Makes the child of `cmd` inherit `fd` (kept open until `cmd` is
/// dropped); returns the number the child sees.
pub fn pass_descriptor(cmd: &mut tokio::process::Command, fd: Descriptor) -> i32 {
    imp::pass_descriptor(cmd, fd)
}

/// Sets `path`'s Unix permission bits to `mode` (a script made
/// executable, a folder others may enter); nothing where there are none.
///
/// # Errors
/// The file system's refusal.
pub fn set_mode(path: &Path, mode: u32) -> io::Result<()> {
    imp::set_mode(path, mode)
}

/// Writes `bytes` at offset 0 of `file` (a cgroup's control file, kept
/// open), without moving its position.
///
/// # Errors
/// The kernel's refusal.
pub fn write_at_start(file: &std::fs::File, bytes: &[u8]) -> io::Result<usize> {
    imp::write_at_start(file, bytes)
}

// ------------------------------------------------------------- the guard

/// The guard's end requests ([`Sig::EndGuard`]): set up by
/// [`guard_setup`], waited for on a thread of their own.
pub struct EndRequests(imp::EndRequests);

impl EndRequests {
    /// Blocks until the arena asks the guard to end (or dies, where
    /// [`PARENT_DEATH_SIGNAL`] exists).
    pub fn wait(&self) {
        self.0.wait();
    }
}

/// Sets up the guard's process, before it starts any thread: termination
/// requests (SIGTERM to the group) ignored, so the guard lives to report
/// its bot's status; [`Sig::EndGuard`] kept for [`EndRequests::wait`]; the
/// guard the subreaper of the bot's descendants where [`SUBREAPER`] exists.
#[must_use]
pub fn guard_setup() -> EndRequests {
    EndRequests(imp::guard_setup())
}

/// Sets up `cmd`, the guard's bot: the signals [`guard_setup`] changed
/// given back, and `limits`.
pub fn guard_child(cmd: &mut std::process::Command, limits: ProcessLimits) {
    imp::guard_child(cmd, limits);
}

/// The pid of this process's parent (the guard's watchdog compares it).
#[must_use]
pub fn parent_id() -> u32 {
    imp::parent_id()
}

/// One live process: its pid, its parent's and its process group's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProcessEntry {
    /// Its pid.
    pub pid: u32,
    /// Its parent's pid.
    pub parent: u32,
    /// Its process group.
    pub group: u32,
}

/// Every live process but zombies (Linux: `/proc`; other Unix: `ps`),
/// `None` if the table cannot be read.
#[must_use]
pub fn processes() -> Option<Vec<ProcessEntry>> {
    imp::processes()
}

/// Reaps this process's exited children, without waiting.
pub fn reap_exited_children() {
    imp::reap_exited_children();
}

/// Points this process's stdin, stdout and stderr at the null device
/// (the guard gives up its copies of the bot's pipes).
pub fn detach_stdio() {
    imp::detach_stdio();
}

/// Kills this process's whole group, this process with it.
pub fn kill_own_group() {
    imp::kill_own_group();
}

/// Mirrors a child's `status` as this process's end: for a signal, dies
/// of the same signal (so the parent sees it), returning 128 + N if it
/// cannot; otherwise returns the child's exit code.
#[must_use]
pub fn exit_like(status: ExitStatus) -> i32 {
    imp::exit_like(status)
}

// ----------------------------------------------------------- the sandbox

/// A sealed, close-on-exec memory file holding `bytes`, read from its
/// start (Linux's `memfd_create`).
///
/// # Errors
/// When it cannot be made; [`io::ErrorKind::Unsupported`] without
/// [`SANDBOX`].
pub fn sealed_file(bytes: &[u8]) -> io::Result<Descriptor> {
    imp::sealed_file(bytes)
}

/// The read end of a close-on-exec pipe that holds `bytes` (small: the
/// writer does not block). The same on every platform (`std::io::pipe`).
///
/// # Errors
/// When the pipe cannot be made or written.
pub fn data_pipe(bytes: &[u8]) -> io::Result<Descriptor> {
    use std::io::Write as _;
    let (read, mut write) = std::io::pipe()?;
    write.write_all(bytes)?;
    Ok(read.into())
}

/// Sets up `cmd` (bubblewrap): it inherits the descriptors `inherit`,
/// switches to `host_user` (uid, gid) if given, and sets `no_new_privs`.
pub fn sandbox_child(
    cmd: &mut std::process::Command,
    inherit: Vec<i32>,
    host_user: Option<(u32, u32)>,
) {
    imp::sandbox_child(cmd, inherit, host_user);
}

/// Reads the whole memory file inherited as descriptor `fd`, from its
/// start, and closes `fd`.
///
/// # Errors
/// When it cannot be read; [`io::ErrorKind::Unsupported`] without
/// [`SANDBOX`].
pub fn read_inherited(fd: i32) -> io::Result<Vec<u8>> {
    imp::read_inherited(fd)
}

/// The sandbox's seccomp filter as classic BPF for bubblewrap's
/// `--seccomp` (`pinned`: `sched_setaffinity` refused too).
///
/// # Errors
/// When it cannot be compiled; [`io::ErrorKind::Unsupported`] without
/// [`SANDBOX`].
pub fn seccomp_filter(pinned: bool) -> io::Result<Vec<u8>> {
    imp::seccomp_filter(pinned)
}

/// Whether this process runs as root (effective uid 0).
#[must_use]
pub fn is_root() -> bool {
    imp::is_root()
}

/// This process's real uid.
#[must_use]
pub fn user_id() -> u32 {
    imp::user_id()
}

/// The uid and gid of host user `user`, a name or a number (a number with
/// no entry keeps its own number as gid); `None` for an unknown name.
#[must_use]
pub fn user_ids(user: &str) -> Option<(u32, u32)> {
    imp::user_ids(user)
}

/// The owner's uid, the group's gid and the permission bits of `meta`.
#[must_use]
pub fn owner_and_mode(meta: &std::fs::Metadata) -> (u32, u32, u32) {
    imp::owner_and_mode(meta)
}

/// What the kernel says of this process's credentials and confinement
/// (Linux's `/proc/self/status`; empty elsewhere).
#[must_use]
pub fn own_status() -> String {
    imp::own_status()
}

/// Limits this process (and its user in its user namespace) to
/// `processes` processes and threads at once (`RLIMIT_NPROC`).
///
/// # Errors
/// The kernel's refusal.
pub fn limit_processes(processes: u64) -> io::Result<()> {
    imp::limit_processes(processes)
}

/// Marks every descriptor but stdio close-on-exec.
pub fn close_other_descriptors() {
    imp::close_other_descriptors();
}

/// Replaces this process with `program` (`None`: this executable, as the
/// kernel knows it, named `arena`) run with `args`; returns only on
/// failure.
#[must_use]
pub fn exec(program: Option<&OsStr>, args: &[OsString]) -> io::Error {
    imp::exec(program, args)
}

// ----------------------------------------------------- cores and figures

/// The cores the calling thread may run on, in increasing order (empty
/// without [`AFFINITY`], or if the system will not say).
#[must_use]
pub fn allowed_cores() -> Vec<usize> {
    imp::allowed_cores()
}

/// Pins the calling thread to `core`; threads and processes it starts
/// later inherit the pin.
///
/// # Errors
/// The system's refusal; [`io::ErrorKind::Unsupported`] without
/// [`AFFINITY`].
pub fn pin_current_thread(core: usize) -> io::Result<()> {
    imp::pin_current_thread(core)
}

/// Runs `f` with the calling thread pinned to `core` (if any, and where
/// [`AFFINITY`] exists), then gives the thread back its former cores.
pub fn pinned<T>(core: Option<usize>, f: impl FnOnce() -> T) -> T {
    imp::pinned(core, f)
}

/// Puts the child of `cmd` into the cgroup folders `dirs` as it starts,
/// before its program runs (it writes `0`, itself, to each
/// `cgroup.procs`): the bot is born in its cgroups and the guard that
/// starts it never enters them, so a freeze of the bot's cgroups can never
/// catch the guard (which must outlive the arena to end the bot).
///
/// # Errors
/// [`std::io::ErrorKind::Unsupported`] with folders where there are no
/// [`CGROUPS`]; a path with a NUL byte. A folder that refuses the child
/// fails its start (the kernel's error).
pub fn join_cgroups_at_exec(
    cmd: &mut std::process::Command,
    dirs: &[std::path::PathBuf],
) -> io::Result<()> {
    imp::join_cgroups_at_exec(cmd, dirs)
}

/// Pins the child of `cmd` to `core` as it starts (nothing without
/// [`AFFINITY`]).
pub fn pin_child(cmd: &mut std::process::Command, core: usize) {
    imp::pin_child(cmd, core);
}

/// Whose CPU time [`cpu_time`] reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Whose {
    /// This process, all its threads.
    ThisProcess,
    /// Its children that have been reaped, their whole lives.
    ReapedChildren,
}

/// CPU time (user plus system) of `whose` so far (`getrusage`); `None`
/// where the system will not say.
#[must_use]
pub fn cpu_time(whose: Whose) -> Option<Duration> {
    imp::cpu_time(whose)
}

/// Peak resident set size of this program since its exec, KiB (Linux:
/// `VmHWM` of `/proc/self/status`; other Unix: `getrusage`'s `ru_maxrss`,
/// which may keep a parent's peak across fork and exec); `None` where the
/// system will not say.
#[must_use]
pub fn peak_rss_kib() -> Option<u64> {
    imp::peak_rss_kib()
}

/// The 1-, 5- and 15-minute load averages, as one line; `None` where the
/// system will not say.
#[must_use]
pub fn load_average() -> Option<String> {
    imp::load_average()
}

// ------------------------------------------------------------- signals

/// The signals that stop a command (Ctrl-C; SIGTERM; with `hangup`, the
/// terminal's closing), installed by [`ShutdownSignals::install`] within
/// a tokio runtime.
pub struct ShutdownSignals(imp::ShutdownSignals);

impl ShutdownSignals {
    /// Installs the handlers (those that cannot be installed are not
    /// listened for); call it within a tokio runtime.
    #[must_use]
    pub fn install(hangup: bool) -> ShutdownSignals {
        ShutdownSignals(imp::ShutdownSignals::install(hangup))
    }

    /// Resolves on the next such signal.
    pub async fn recv(&mut self) {
        self.0.recv().await;
    }
}
