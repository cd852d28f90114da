//! Windows: a Job Object per bot, and what Windows lacks said as such.
//!
//! # How a bot is started and ended
//!
//! A bot starts suspended (`CREATE_SUSPENDED`, with `CREATE_NEW_PROCESS_GROUP`
//! so the console's Ctrl-C reaches the arena and not the bot), is put in a
//! Job Object of its own ([`started`]), and only then runs: so no process it
//! starts can be outside the job, and no window is left between the spawn
//! and the assignment. (std's `Command` gives no thread handle to resume;
//! the process's one thread is found through a Toolhelp snapshot.) If the
//! arena dies in that instant, between the spawn and the assignment, the
//! child stays suspended: it never runs a line of its own.
//!
//! The job has these limits (`JOBOBJECT_EXTENDED_LIMIT_INFORMATION`,
//! <https://learn.microsoft.com/windows/win32/api/winnt/ns-winnt-jobobject_extended_limit_information>):
//! - `JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE`: the arena holds the job's only
//!   handle, so when the arena ends, however it ends (even killed by Task
//!   Manager or `taskkill /F`), Windows closes it and ends every process of
//!   the bot. This is what the guard and the parent-death signal do on
//!   Linux, and why Windows needs no guard process ([`GUARD`] is false).
//!   The job allows no breakaway, so a bot's children (and theirs) are in
//!   it too: none escapes ([`SUBREAPER`]'s promise, kept by the job).
//! - `JOB_OBJECT_LIMIT_JOB_MEMORY` for `memory_mb`: the committed memory of
//!   all the bot's processes together (one budget, as the cgroups give on
//!   Linux); an allocation over it fails in the bot.
//! - `JOB_OBJECT_LIMIT_JOB_TIME` for `cpu_seconds`: the user-mode CPU time
//!   of all its processes (100 ns units); over it, Windows ends the job.
//! - `JOB_OBJECT_LIMIT_DIE_ON_UNHANDLED_EXCEPTION`: a crash ends the bot at
//!   once instead of waiting on an error-report dialog.
//! - `open_files` has no Windows counterpart (handles are not limited per
//!   process) and is not enforced.
//!
//! Ending a bot ([`signal_group`] with [`Sig::Terminate`] or [`Sig::Kill`])
//! is `TerminateJobObject`: every process of the bot ends at once, with
//! exit code [`ENDED_CODE`] (Windows has no "please end" for a console
//! program with no window; the polite `quit` and the closed stdin come
//! first, as everywhere). [`Sig::Kill`], which the arena sends last to
//! every bot (at its end, or when it is dropped), also closes its handle of
//! the job.
//!
//! Wine (which the workspace's Windows tests run under) creates, fills and
//! terminates jobs and ends them on close, but enforces neither the memory
//! nor the CPU limit: those hold on a real Windows only.
//!
//! No sandbox, no cgroups, no CPU pinning, no process table, no guard;
//! every function for them answers [`io::ErrorKind::Unsupported`], `None`
//! or nothing, as `mod.rs` says.

use std::ffi::{OsStr, OsString};
use std::io;
use std::os::windows::io::{AsRawHandle, FromRawHandle, OwnedHandle, RawHandle};
use std::path::Path;
use std::process::ExitStatus;
use std::sync::Mutex;
use std::time::Duration;

use windows_sys::Win32::Foundation::{CloseHandle, FILETIME, INVALID_HANDLE_VALUE};
use windows_sys::Win32::System::Diagnostics::ToolHelp::{
    CreateToolhelp32Snapshot, Thread32First, Thread32Next, TH32CS_SNAPTHREAD, THREADENTRY32,
};
use windows_sys::Win32::System::JobObjects::{
    AssignProcessToJobObject, CreateJobObjectW, JobObjectExtendedLimitInformation,
    SetInformationJobObject, TerminateJobObject, JOBOBJECT_EXTENDED_LIMIT_INFORMATION,
    JOB_OBJECT_LIMIT_DIE_ON_UNHANDLED_EXCEPTION, JOB_OBJECT_LIMIT_JOB_MEMORY,
    JOB_OBJECT_LIMIT_JOB_TIME, JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE,
};
use windows_sys::Win32::System::Pipes::PeekNamedPipe;
use windows_sys::Win32::System::ProcessStatus::{K32GetProcessMemoryInfo, PROCESS_MEMORY_COUNTERS};
use windows_sys::Win32::System::Threading::{
    GetCurrentProcess, GetProcessTimes, OpenProcess, OpenThread, ResumeThread, TerminateProcess,
    CREATE_NEW_PROCESS_GROUP, CREATE_SUSPENDED, PROCESS_TERMINATE, THREAD_SUSPEND_RESUME,
};

pub use super::absent::{
    allowed_cores, join_cgroups_at_exec, limit_processes, own_status, pin_child,
    pin_current_thread, pinned, read_inherited, sealed_file, seccomp_filter, unsupported,
};
use super::{OnArenaDeath, ProcessEntry, ProcessLimits, Sig, Whose};

pub const NAME: &str = "windows";
pub const SANDBOX: bool = false;
pub const CGROUPS: bool = false;
pub const AFFINITY: bool = false;
/// The job's `KILL_ON_JOB_CLOSE` ends a bot when the arena dies, however.
pub const PARENT_DEATH_SIGNAL: bool = true;
/// No guard, but the job holds every descendant of the bot: none escapes.
pub const SUBREAPER: bool = true;
pub const MEMORY_LIMIT_NOTE: Option<&str> = None;
pub const GUARD: bool = false;

/// The exit code of a bot the arena ended (`TerminateJobObject`), as
/// `taskkill /F` gives.
pub const ENDED_CODE: u32 = 1;

/// A handle the arena could hand to a child (only the sandbox does, which
/// Windows has not).
pub type Descriptor = OwnedHandle;

/// A Win32 `BOOL` result as an `io::Result`.
fn check(ok: i32) -> io::Result<()> {
    if ok == 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(())
    }
}

/// One bot's Job Object; closing it ends every process in it.
struct Job(OwnedHandle);

impl Job {
    /// A job with `limits` and `KILL_ON_JOB_CLOSE` (see the module's docs).
    fn new(limits: ProcessLimits) -> io::Result<Job> {
        // SAFETY: no security attributes and no name: both may be null.
        let raw = unsafe { CreateJobObjectW(std::ptr::null(), std::ptr::null()) };
        if raw.is_null() {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: a fresh handle that nothing else owns.
        let job = Job(unsafe { OwnedHandle::from_raw_handle(raw) });
        let mut info = JOBOBJECT_EXTENDED_LIMIT_INFORMATION::default();
        let mut flags =
            JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE | JOB_OBJECT_LIMIT_DIE_ON_UNHANDLED_EXCEPTION;
        if limits.memory_mb > 0 {
            flags |= JOB_OBJECT_LIMIT_JOB_MEMORY;
            info.JobMemoryLimit =
                usize::try_from(limits.memory_mb.saturating_mul(1 << 20)).unwrap_or(usize::MAX);
        }
        if limits.cpu_seconds > 0 {
            flags |= JOB_OBJECT_LIMIT_JOB_TIME;
            // 100-nanosecond units.
            info.BasicLimitInformation.PerJobUserTimeLimit =
                i64::try_from(limits.cpu_seconds.saturating_mul(10_000_000)).unwrap_or(i64::MAX);
        }
        info.BasicLimitInformation.LimitFlags = flags;
        // SAFETY: `info` is a JOBOBJECT_EXTENDED_LIMIT_INFORMATION of the size given.
        check(unsafe {
            SetInformationJobObject(
                job.0.as_raw_handle(),
                JobObjectExtendedLimitInformation,
                (&raw const info).cast(),
                std::mem::size_of_val(&info) as u32,
            )
        })?;
        Ok(job)
    }

    /// Puts the process `process` in the job.
    fn assign(&self, process: RawHandle) -> io::Result<()> {
        // SAFETY: both handles are open for the call.
        check(unsafe { AssignProcessToJobObject(self.0.as_raw_handle(), process) })
    }

    /// Ends every process in the job.
    fn terminate(&self) -> io::Result<()> {
        // SAFETY: the handle is open.
        check(unsafe { TerminateJobObject(self.0.as_raw_handle(), ENDED_CODE) })
    }
}

/// The jobs of the bots now running, by the pid of the process the arena
/// started (the "group" id of [`signal_group`]). A few entries: a vector.
static JOBS: Mutex<Vec<(u32, Job)>> = Mutex::new(Vec::new());

fn jobs() -> std::sync::MutexGuard<'static, Vec<(u32, Job)>> {
    // A panic elsewhere while holding it leaves the list intact.
    JOBS.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

pub fn start_in_own_group(
    cmd: &mut tokio::process::Command,
    _on_death: OnArenaDeath,
    _limits: ProcessLimits,
) {
    // The limits go on the job in `started`, before the bot runs.
    cmd.creation_flags(CREATE_SUSPENDED | CREATE_NEW_PROCESS_GROUP);
}

pub fn started(child: &tokio::process::Child, limits: ProcessLimits) -> io::Result<()> {
    let (Some(pid), Some(process)) = (child.id(), child.raw_handle()) else {
        return Err(io::Error::other("the bot ended as it started"));
    };
    let joined = Job::new(limits).and_then(|job| {
        job.assign(process)?;
        resume(pid)?;
        Ok(job)
    });
    match joined {
        Ok(job) => {
            let mut jobs = jobs();
            // A pid used again: the old job's processes have all ended.
            jobs.retain(|(p, _)| *p != pid);
            jobs.push((pid, job));
            Ok(())
        }
        Err(e) => {
            // Never let a process outside its job run.
            // SAFETY: the child's handle is open.
            unsafe { TerminateProcess(process, ENDED_CODE) };
            Err(e)
        }
    }
}

/// Resumes the threads of process `pid`, started suspended (it has one).
fn resume(pid: u32) -> io::Result<()> {
    // SAFETY: a plain call; the handle is owned below.
    let snap = unsafe { CreateToolhelp32Snapshot(TH32CS_SNAPTHREAD, 0) };
    if snap == INVALID_HANDLE_VALUE {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: a fresh handle that nothing else owns.
    let snap = unsafe { OwnedHandle::from_raw_handle(snap) };
    let mut entry = THREADENTRY32 {
        dwSize: std::mem::size_of::<THREADENTRY32>() as u32,
        ..Default::default()
    };
    let mut resumed = 0;
    // SAFETY: `entry.dwSize` is set, as both calls require.
    let mut more = unsafe { Thread32First(snap.as_raw_handle(), &mut entry) } != 0;
    while more {
        if entry.th32OwnerProcessID == pid {
            // SAFETY: plain calls; the thread's handle is closed at once.
            unsafe {
                let thread = OpenThread(THREAD_SUSPEND_RESUME, 0, entry.th32ThreadID);
                if thread.is_null() {
                    return Err(io::Error::last_os_error());
                }
                let count = ResumeThread(thread);
                CloseHandle(thread);
                if count == u32::MAX {
                    return Err(io::Error::last_os_error());
                }
            }
            resumed += 1;
        }
        // SAFETY: as above.
        more = unsafe { Thread32Next(snap.as_raw_handle(), &mut entry) } != 0;
    }
    if resumed == 0 {
        return Err(io::Error::other("the bot's thread was not found to resume"));
    }
    Ok(())
}

pub fn program_aliases(program: &str) -> &'static [&'static str] {
    match program {
        "python3" => &["python"],
        _ => &[],
    }
}

pub fn signal_group(group: u32, sig: Sig) -> io::Result<()> {
    let mut jobs = jobs();
    let Some(at) = jobs.iter().position(|(pid, _)| *pid == group) else {
        return Err(io::Error::from(io::ErrorKind::NotFound));
    };
    match sig {
        Sig::Terminate => jobs[at].1.terminate(),
        // The last word on a bot: its job is ended and closed.
        Sig::Kill => jobs.swap_remove(at).1.terminate(),
        Sig::Continue => Ok(()),
        Sig::EndGuard => Err(unsupported("the guard")),
    }
}

pub fn signal_process(id: u32, sig: Sig) -> io::Result<()> {
    match sig {
        Sig::Terminate | Sig::Kill => {
            // SAFETY: plain calls; the handle is owned below.
            let process = unsafe { OpenProcess(PROCESS_TERMINATE, 0, id) };
            if process.is_null() {
                return Err(io::Error::last_os_error());
            }
            // SAFETY: a fresh handle that nothing else owns.
            let process = unsafe { OwnedHandle::from_raw_handle(process) };
            // SAFETY: the handle is open, with PROCESS_TERMINATE.
            check(unsafe { TerminateProcess(process.as_raw_handle(), ENDED_CODE) })
        }
        Sig::Continue => Ok(()),
        Sig::EndGuard => Err(unsupported("the guard")),
    }
}

pub fn pipe_readable(out: &tokio::process::ChildStdout) -> bool {
    let mut available = 0u32;
    // SAFETY: no buffer is read into; `available` is written.
    let ok = unsafe {
        PeekNamedPipe(
            out.as_raw_handle(),
            std::ptr::null_mut(),
            0,
            std::ptr::null_mut(),
            &mut available,
            std::ptr::null_mut(),
        )
    };
    // A failure (the bot closed its end: ERROR_BROKEN_PIPE) is an end to read.
    ok == 0 || available > 0
}

pub fn descriptor_number(fd: &Descriptor) -> i32 {
    fd.as_raw_handle() as usize as i32
}

pub fn descriptor_of(file: std::fs::File) -> Descriptor {
    file.into()
}

pub fn pass_descriptor(_cmd: &mut tokio::process::Command, fd: Descriptor) -> i32 {
    // Only the sandbox passes one, and Windows has no sandbox.
    descriptor_number(&fd)
}

pub fn set_mode(_path: &Path, _mode: u32) -> io::Result<()> {
    Ok(())
}

pub fn write_at_start(file: &std::fs::File, bytes: &[u8]) -> io::Result<usize> {
    std::os::windows::fs::FileExt::seek_write(file, bytes, 0)
}

/// The guard's end requests: there is no guard on Windows, so none comes.
pub struct EndRequests;

impl EndRequests {
    pub fn wait(&self) {
        loop {
            std::thread::park();
        }
    }
}

pub fn guard_setup() -> EndRequests {
    EndRequests
}

pub fn guard_child(_cmd: &mut std::process::Command, _limits: ProcessLimits) {}

/// No guard watches its parent on Windows; a constant.
pub fn parent_id() -> u32 {
    0
}

pub fn processes() -> Option<Vec<ProcessEntry>> {
    None
}

pub fn reap_exited_children() {}

pub fn detach_stdio() {}

pub fn kill_own_group() {
    std::process::exit(ENDED_CODE as i32);
}

pub fn exit_like(status: ExitStatus) -> i32 {
    status.code().unwrap_or(1)
}

/// Never reached: without [`SANDBOX`] the config refuses `sandbox = true`.
pub fn sandbox_child(
    _cmd: &mut std::process::Command,
    _inherit: Vec<i32>,
    _host_user: Option<(u32, u32)>,
) {
}

pub fn is_root() -> bool {
    false
}

/// Windows has no uids; the sandbox, which reads them, is Linux's.
pub fn user_id() -> u32 {
    u32::MAX
}

pub fn user_ids(_user: &str) -> Option<(u32, u32)> {
    None
}

/// No owners and mode bits on Windows: [`user_id`]'s, and the bits a
/// read-only flag and a folder suggest.
pub fn owner_and_mode(meta: &std::fs::Metadata) -> (u32, u32, u32) {
    let mode = match (meta.is_dir(), meta.permissions().readonly()) {
        (true, false) => 0o755,
        (true, true) => 0o555,
        (false, false) => 0o644,
        (false, true) => 0o444,
    };
    (user_id(), user_id(), mode)
}

pub fn close_other_descriptors() {}

pub fn exec(_program: Option<&OsStr>, _args: &[OsString]) -> io::Error {
    unsupported("replacing the running program (exec)")
}

pub fn cpu_time(whose: Whose) -> Option<Duration> {
    if whose == Whose::ReapedChildren {
        return None;
    }
    let mut times = [FILETIME::default(); 4];
    let [created, exited, kernel, user] = &mut times;
    // SAFETY: the pseudo-handle of this process; four FILETIMEs written.
    check(unsafe { GetProcessTimes(GetCurrentProcess(), created, exited, kernel, user) }).ok()?;
    let ticks = |t: &FILETIME| u64::from(t.dwHighDateTime) << 32 | u64::from(t.dwLowDateTime);
    // 100-nanosecond units.
    Some(Duration::from_nanos(
        (ticks(kernel) + ticks(user)).saturating_mul(100),
    ))
}

pub fn peak_rss_kib() -> Option<u64> {
    let mut counters = PROCESS_MEMORY_COUNTERS {
        cb: std::mem::size_of::<PROCESS_MEMORY_COUNTERS>() as u32,
        ..Default::default()
    };
    // SAFETY: the pseudo-handle of this process; `counters` of the size given.
    check(unsafe { K32GetProcessMemoryInfo(GetCurrentProcess(), &mut counters, counters.cb) })
        .ok()?;
    Some(counters.PeakWorkingSetSize as u64 / 1024)
}

pub fn load_average() -> Option<String> {
    None
}

/// Ctrl-C, Ctrl-Break and (with hangup) the console's closing, through
/// tokio.
pub struct ShutdownSignals {
    ctrl_c: Option<tokio::signal::windows::CtrlC>,
    ctrl_break: Option<tokio::signal::windows::CtrlBreak>,
    close: Option<tokio::signal::windows::CtrlClose>,
}

impl ShutdownSignals {
    pub fn install(hangup: bool) -> ShutdownSignals {
        use tokio::signal::windows::{ctrl_break, ctrl_c, ctrl_close};
        ShutdownSignals {
            ctrl_c: ctrl_c().ok(),
            ctrl_break: ctrl_break().ok(),
            close: if hangup { ctrl_close().ok() } else { None },
        }
    }

    pub async fn recv(&mut self) {
        let ShutdownSignals {
            ctrl_c,
            ctrl_break,
            close,
        } = self;
        // A listener that is missing, or whose stream ended, never fires.
        let ctrl_c = async {
            if let Some(s) = ctrl_c {
                if s.recv().await.is_some() {
                    return;
                }
            }
            std::future::pending::<()>().await;
        };
        let ctrl_break = async {
            if let Some(s) = ctrl_break {
                if s.recv().await.is_some() {
                    return;
                }
            }
            std::future::pending::<()>().await;
        };
        let close = async {
            if let Some(s) = close {
                if s.recv().await.is_some() {
                    return;
                }
            }
            std::future::pending::<()>().await;
        };
        tokio::select! {
            () = ctrl_c => {}
            () = ctrl_break => {}
            () = close => {}
        }
    }
}
