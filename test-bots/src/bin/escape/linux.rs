//! `escape ATTEMPT...`: a hostile bot for the sandbox's attacker tests. It
//! first tries to break out of its sandbox, one escape per argument, then
//! plays a correct game (the library's default hooks), so a test can check
//! both that every escape failed and that the sandbox still lets a bot play.
//!
//! Each ATTEMPT is `NAME` or `NAME=ARG`; for each, in order, one line goes to
//! standard error: `attempt ATTEMPT: refused (WHY)` when the escape failed,
//! `attempt ATTEMPT: ESCAPED (WHAT)` when it worked, or `attempt ATTEMPT:
//! unknown` (ATTEMPT as given, so two reads of different paths are told
//! apart).
//! No attempt panics: every failure is a `refused` line. An attempt named
//! in [`AT_FIRST_TURN`] runs at the bot's first `turn` instead, when its
//! opponent is certainly running. The attempts:
//!
//! - `read=PATH`: read PATH (at most 1 MiB); escaped if a byte came.
//! - `list=PATH`: list the directory PATH.
//! - `write=PATH`: create PATH holding `escaped\n` (left in place).
//! - `fill=PATH:MIB`: write MIB MiB to the file PATH (then remove it);
//!   escaped if all of it was written.
//! - `mount`: remount `/` and `/usr` read-write, mount a tmpfs on `/tmp`,
//!   bind-mount `/` on `/tmp`, detach `/proc`. A mount on `/tmp` that works
//!   is undone at once, and so is a detached `/proc` (mounted again), so
//!   that the attempt does not damage a host it reaches.
//! - `caps`: any capability in `/proc/self/status`, or `NoNewPrivs` not 1.
//! - `seccomp`: `Seccomp:` in `/proc/self/status` not 2 (filter mode).
//! - `connect=HOST:PORT`: a TCP connection (2 s timeout).
//! - `unix=NAME`: a connection to the abstract Unix socket NAME.
//! - `signal=PID`: `kill(PID, 0)`.
//! - `ptrace=PID`: `ptrace(PTRACE_ATTACH, PID)` (detached at once).
//! - `procs`: more than 8 processes in `/proc`, or a pid 1 that is not
//!   bubblewrap's (its first word does not end in `bwrap`).
//! - `forks=N`: N children (each killed and reaped afterwards).
//! - `tty`: `/dev/tty`, `TIOCSTI` on fds 0, 1, 2 and `/dev/tty`, or any
//!   `/dev/pts` entry other than `ptmx`, opened read-write.
//! - `env=NAME`: the environment variable NAME is set (its value is not
//!   printed, only its length).
//! - `userns`: `unshare(CLONE_NEWUSER)`, in a forked child.
//! - `setuid`: `setuid(0)`, in a forked child.
//! - `whoami`: never escapes; logs the uid, gid and `/proc/self/uid_map`.
//! - `environ`: never escapes; logs its whole environment: the variables
//!   as the process sees them, `/proc/self/environ`, and its parent's
//!   `/proc/PPID/environ` where it can read it (`NAME=VALUE` words; a test
//!   looks for a secret in them).
//! - `setid=PATH`: a set-uid or set-gid file at PATH (and PATH.2 to PATH.4),
//!   made by chmod, by open with O_CREAT, by mknod and by openat2; escaped
//!   if one of them has the bit.
//! - `tmpfile=PATH:MODE`: a file of MODE (octal, e.g. `6755`) at PATH, made
//!   nameless by open with O_TMPFILE in PATH's folder and then linked there
//!   (`linkat` of `/proc/self/fd/N`); escaped if it has the set-uid or
//!   set-gid bit.
//! - `affinity`: `sched_setaffinity` to every CPU, then `sched_getaffinity`;
//!   escaped if the set widened (a bot pinned to one core took the others).
//!   The line says how many CPUs the set held before and after.
//! - `cmdline=HEX:MARK` (at the first turn): the bytes HEX encodes in the
//!   command line (`/proc/PID/cmdline`) of any process of the host it can
//!   read; escaped if found. The line counts the command lines read and
//!   gives those that hold MARK's bytes (a bot's path, say), so that a test
//!   can see that the scan saw that bot's sandbox running. Both in hex, so
//!   that the bot's own command line holds neither.
//! - `int80`: an i386 `getpid` through `int 0x80` (another ABI, which a
//!   filter that checks call numbers only would let through), in a child.
//! - `x32`: an x32 `getpid` (number with bit 30 set), in a child.

use endodoi_test_bots::{run, Bot, Conn, Turn};
use nix::errno::Errno;
use nix::mount::{mount, umount2, MntFlags, MsFlags};
use nix::sched::{unshare, CloneFlags};
use nix::sys::signal::{kill, Signal};
use nix::sys::wait::{waitpid, WaitPidFlag, WaitStatus};
use nix::unistd::{fork, ForkResult, Pid, Uid};
use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::os::fd::AsRawFd;
use std::os::linux::net::SocketAddrExt;
use std::os::unix::fs::OpenOptionsExt;
use std::os::unix::net::{SocketAddr, UnixStream};
use std::process::ExitCode;
use std::time::Duration;

/// The attempts that run at the bot's first `turn`, not before its `hello`.
const AT_FIRST_TURN: &[&str] = &["cmdline"];

/// A bot that plays correctly once the attempts are over; those of
/// [`AT_FIRST_TURN`] it makes at its first turn.
struct Plain {
    /// The attempts still to make, as given.
    later: Vec<String>,
}

impl Bot for Plain {
    fn on_turn(&mut self, turn: &Turn, conn: &mut Conn) -> io::Result<()> {
        for attempt in std::mem::take(&mut self.later) {
            report(&attempt);
        }
        conn.play(turn.first_legal())
    }
}

/// What became of one attempt.
enum Outcome {
    /// The escape failed, for this reason.
    Refused(String),
    /// The escape worked, and this is what it could do.
    Escaped(String),
    /// No attempt has this name.
    Unknown,
}

use Outcome::{Escaped, Refused};

nix::ioctl_write_ptr_bad!(tiocsti, nix::libc::TIOCSTI, u8);

pub fn main() -> ExitCode {
    let (later, now): (Vec<String>, Vec<String>) = std::env::args()
        .skip(1)
        .partition(|a| AT_FIRST_TURN.contains(&a.split('=').next().unwrap_or_default()));
    for attempt in now {
        report(&attempt);
    }
    let _ = io::stderr().flush();
    run(Plain { later })
}

/// Makes `attempt` (`NAME` or `NAME=ARG`) and says what became of it on
/// standard error, in one line.
fn report(attempt: &str) {
    let (name, arg) = match attempt.split_once('=') {
        Some((name, arg)) => (name, Some(arg)),
        None => (attempt, None),
    };
    let line = match try_attempt(name, arg) {
        Refused(why) => format!("attempt {attempt}: refused ({})", one_line(&why)),
        Escaped(what) => format!("attempt {attempt}: ESCAPED ({})", one_line(&what)),
        Outcome::Unknown => format!("attempt {attempt}: unknown"),
    };
    let mut stderr = io::stderr().lock();
    let _ = writeln!(stderr, "{}", one_line(&line));
    let _ = stderr.flush();
}

/// Runs the attempt `name` with its argument, if any.
fn try_attempt(name: &str, arg: Option<&str>) -> Outcome {
    let needs = |what: &str| Refused(format!("missing ={what}"));
    match name {
        "read" => arg.map_or_else(|| needs("PATH"), read),
        "list" => arg.map_or_else(|| needs("PATH"), list),
        "write" => arg.map_or_else(|| needs("PATH"), write),
        "fill" => arg.map_or_else(|| needs("PATH:MIB"), fill),
        "mount" => mounts(),
        "caps" => caps(),
        "seccomp" => seccomp(),
        "connect" => arg.map_or_else(|| needs("HOST:PORT"), connect),
        "unix" => arg.map_or_else(|| needs("NAME"), unix),
        "signal" => arg.map_or_else(|| needs("PID"), signal),
        "ptrace" => arg.map_or_else(|| needs("PID"), trace),
        "procs" => procs(),
        "forks" => arg.map_or_else(|| needs("N"), forks),
        "tty" => tty(),
        "env" => arg.map_or_else(|| needs("NAME"), env),
        "userns" => in_child(
            || unshare(CloneFlags::CLONE_NEWUSER),
            "unshared a user namespace",
        ),
        "setuid" => in_child(|| nix::unistd::setuid(Uid::from_raw(0)), "became uid 0"),
        "whoami" => whoami(),
        "environ" => environ(),
        "int80" => in_child(int80, "made an i386 system call (int 0x80)"),
        "setid" => arg.map_or_else(|| needs("PATH"), setid),
        "tmpfile" => arg.map_or_else(|| needs("PATH:MODE"), tmpfile),
        "x32" => in_child(x32, "made an x32 system call"),
        "affinity" => affinity(),
        "cmdline" => arg.map_or_else(|| needs("HEX"), cmdline),
        _ => Outcome::Unknown,
    }
}

/// `text` with its line breaks turned into spaces, so a report stays one line.
fn one_line(text: &str) -> String {
    text.replace(['\n', '\r'], " ")
}

fn read(path: &str) -> Outcome {
    let mut buffer = Vec::new();
    let result = File::open(path).and_then(|file| file.take(1 << 20).read_to_end(&mut buffer));
    match result {
        Ok(0) => Refused(format!("{path}: read 0 bytes")),
        Ok(n) => Escaped(format!("read {n} bytes of {path}")),
        Err(error) => Refused(format!("{path}: {error}")),
    }
}

fn list(path: &str) -> Outcome {
    match fs::read_dir(path) {
        Ok(entries) => Escaped(format!("listed {} entries of {path}", entries.count())),
        Err(error) => Refused(format!("{path}: {error}")),
    }
}

fn write(path: &str) -> Outcome {
    let result = File::create(path).and_then(|mut file| {
        file.write_all(b"escaped\n")?;
        file.flush()
    });
    match result {
        Ok(()) => Escaped(format!("wrote {path}")),
        Err(error) => Refused(format!("{path}: {error}")),
    }
}

fn fill(arg: &str) -> Outcome {
    let Some((path, mib)) = arg
        .rsplit_once(':')
        .and_then(|(p, m)| Some((p, m.parse::<usize>().ok()?)))
    else {
        return Refused(format!("bad PATH:MIB {arg:?}"));
    };
    let chunk = vec![0u8; 1 << 20];
    let mut written = 0;
    let result = File::create(path).and_then(|mut file| {
        for _ in 0..mib {
            file.write_all(&chunk)?;
            written += 1;
        }
        file.sync_all()
    });
    let _ = fs::remove_file(path);
    match result {
        Ok(()) => Escaped(format!("wrote {mib} MiB to {path}")),
        Err(error) => Refused(format!("{path}: {error} after {written} MiB")),
    }
}

fn mounts() -> Outcome {
    const NONE: Option<&str> = None;
    let remount = MsFlags::MS_REMOUNT | MsFlags::MS_BIND;
    let mut worked = Vec::new();
    let mut failed = Vec::new();
    let mut note = |what: &str, result: nix::Result<()>| match result {
        Ok(()) => {
            worked.push(what.to_string());
            true
        }
        Err(errno) => {
            failed.push(format!("{what}: {errno}"));
            false
        }
    };
    note("remount / rw", mount(NONE, "/", NONE, remount, NONE));
    note("remount /usr rw", mount(NONE, "/usr", NONE, remount, NONE));
    if note(
        "tmpfs on /tmp",
        mount(Some("tmpfs"), "/tmp", Some("tmpfs"), MsFlags::empty(), NONE),
    ) {
        let _ = umount2("/tmp", MntFlags::MNT_DETACH);
    }
    if note(
        "bind / on /tmp",
        mount(Some("/"), "/tmp", NONE, MsFlags::MS_BIND, NONE),
    ) {
        let _ = umount2("/tmp", MntFlags::MNT_DETACH);
    }
    if note("umount /proc", umount2("/proc", MntFlags::MNT_DETACH)) {
        let flags = MsFlags::MS_NOSUID | MsFlags::MS_NODEV | MsFlags::MS_NOEXEC;
        let _ = mount(Some("proc"), "/proc", Some("proc"), flags, NONE);
    }
    if worked.is_empty() {
        Refused(failed.join("; "))
    } else {
        Escaped(worked.join(", "))
    }
}

/// The fields of `/proc/self/status`, as (name, value) pairs.
fn status() -> io::Result<Vec<(String, String)>> {
    Ok(fs::read_to_string("/proc/self/status")?
        .lines()
        .filter_map(|line| line.split_once(':'))
        .map(|(name, value)| (name.trim().to_string(), value.trim().to_string()))
        .collect())
}

fn field<'a>(fields: &'a [(String, String)], name: &str) -> Option<&'a str> {
    fields
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
}

fn caps() -> Outcome {
    let fields = match status() {
        Ok(fields) => fields,
        Err(error) => return Refused(format!("/proc/self/status: {error}")),
    };
    let mut all = Vec::new();
    let mut offending = Vec::new();
    for name in [
        "CapInh",
        "CapPrm",
        "CapEff",
        "CapBnd",
        "CapAmb",
        "NoNewPrivs",
    ] {
        let value = field(&fields, name);
        let text = format!("{name} {}", value.unwrap_or("missing"));
        let bad = match value {
            None => true,
            Some(v) if name == "NoNewPrivs" => v != "1",
            Some(v) => v.is_empty() || v.chars().any(|c| c != '0'),
        };
        if bad {
            offending.push(text.clone());
        }
        all.push(text);
    }
    if offending.is_empty() {
        Refused(all.join(" "))
    } else {
        Escaped(offending.join(" "))
    }
}

fn seccomp() -> Outcome {
    match status() {
        Ok(fields) => match field(&fields, "Seccomp") {
            Some("2") => Refused("Seccomp 2".to_string()),
            Some(mode) => Escaped(format!("Seccomp {mode}")),
            None => Escaped("no Seccomp line".to_string()),
        },
        Err(error) => Refused(format!("/proc/self/status: {error}")),
    }
}

fn connect(target: &str) -> Outcome {
    let addresses = match target.to_socket_addrs() {
        Ok(addresses) => addresses.collect::<Vec<_>>(),
        Err(error) => return Refused(format!("{target}: {error}")),
    };
    let mut errors = Vec::new();
    for address in &addresses {
        match TcpStream::connect_timeout(address, Duration::from_secs(2)) {
            Ok(_) => return Escaped(format!("connected to {address}")),
            Err(error) => errors.push(format!("{address}: {error}")),
        }
    }
    if errors.is_empty() {
        errors.push(format!("{target}: no address"));
    }
    Refused(errors.join("; "))
}

fn unix(name: &str) -> Outcome {
    let result =
        SocketAddr::from_abstract_name(name.as_bytes()).and_then(|a| UnixStream::connect_addr(&a));
    match result {
        Ok(_) => Escaped(format!("connected to abstract socket @{name}")),
        Err(error) => Refused(format!("@{name}: {error}")),
    }
}

fn pid(text: &str) -> Result<Pid, Outcome> {
    text.parse()
        .map(Pid::from_raw)
        .map_err(|_| Refused(format!("bad PID {text:?}")))
}

fn signal(text: &str) -> Outcome {
    let pid = match pid(text) {
        Ok(pid) => pid,
        Err(outcome) => return outcome,
    };
    match kill(pid, None) {
        Ok(()) => Escaped(format!("kill({pid}, 0) succeeded")),
        Err(errno) => Refused(format!("kill({pid}, 0): {errno}")),
    }
}

fn trace(text: &str) -> Outcome {
    let pid = match pid(text) {
        Ok(pid) => pid,
        Err(outcome) => return outcome,
    };
    match nix::sys::ptrace::attach(pid) {
        Ok(()) => {
            // The tracee stops with SIGSTOP; detaching needs it stopped.
            let stopped = waitpid(pid, Some(WaitPidFlag::__WALL));
            let detached = nix::sys::ptrace::detach(pid, None);
            Escaped(format!(
                "attached to {pid} (wait: {}, detach: {})",
                stopped.map_or_else(|e| e.to_string(), |s| format!("{s:?}")),
                detached.map_or_else(|e| e.to_string(), |()| "ok".to_string())
            ))
        }
        Err(errno) => Refused(format!("attach {pid}: {errno}")),
    }
}

fn procs() -> Outcome {
    let count = match fs::read_dir("/proc") {
        Ok(entries) => entries
            .filter_map(Result::ok)
            .filter(|e| {
                let name = e.file_name();
                let name = name.to_string_lossy();
                !name.is_empty() && name.bytes().all(|b| b.is_ascii_digit())
            })
            .count(),
        Err(error) => return Refused(format!("/proc: {error}")),
    };
    let (first, bwrap) = match fs::read("/proc/1/cmdline") {
        Ok(bytes) => {
            let word = bytes.split(|&b| b == 0).next().unwrap_or_default();
            let word = String::from_utf8_lossy(word).into_owned();
            let bwrap = word.ends_with("bwrap");
            (format!("{word:?}"), bwrap)
        }
        Err(error) => (format!("unknown ({error})"), false),
    };
    let text = format!("{count} processes visible, pid 1 is {first}");
    if count > 8 || !bwrap {
        Escaped(text)
    } else {
        Refused(text)
    }
}

fn forks(text: &str) -> Outcome {
    let wanted: usize = match text.parse() {
        Ok(n) => n,
        Err(_) => return Refused(format!("bad count {text:?}")),
    };
    let mut children = Vec::new();
    let mut stopped = None;
    while children.len() < wanted {
        // SAFETY: the bot is single-threaded here, and the child only calls
        // async-signal-safe functions (prctl, pause) until it is killed.
        match unsafe { fork() } {
            Ok(ForkResult::Child) => {
                let _ = nix::sys::prctl::set_pdeathsig(Signal::SIGKILL);
                loop {
                    nix::unistd::pause();
                }
            }
            Ok(ForkResult::Parent { child }) => children.push(child),
            Err(errno) => {
                stopped = Some(errno);
                break;
            }
        }
    }
    let started = children.len();
    for &child in &children {
        let _ = kill(child, Signal::SIGKILL);
    }
    for &child in &children {
        let _ = waitpid(child, None);
    }
    match stopped {
        None => Escaped(format!("started all {started} of {wanted} children")),
        Some(errno) => Refused(format!("started {started} of {wanted}, then {errno}")),
    }
}

fn tty() -> Outcome {
    let mut worked = Vec::new();
    let mut failed = Vec::new();
    let open = |path: &str| {
        OpenOptions::new()
            .read(true)
            .write(true)
            .custom_flags(nix::libc::O_NOCTTY)
            .open(path)
    };
    let dev_tty = match open("/dev/tty") {
        Ok(mut file) => {
            worked.push("opened /dev/tty".to_string());
            match file.write_all(b"\n") {
                Ok(()) => worked.push("wrote to /dev/tty".to_string()),
                Err(error) => failed.push(format!("write /dev/tty: {error}")),
            }
            Some(file)
        }
        Err(error) => {
            failed.push(format!("/dev/tty: {error}"));
            None
        }
    };
    let mut fds: Vec<_> = (0..3).map(|fd| (fd, format!("fd {fd}"))).collect();
    if let Some(file) = &dev_tty {
        fds.push((file.as_raw_fd(), "/dev/tty".to_string()));
    }
    for (fd, what) in fds {
        // SAFETY: TIOCSTI reads one byte through the pointer, which is valid.
        match unsafe { tiocsti(fd, &b'x') } {
            Ok(_) => worked.push(format!("TIOCSTI on {what}")),
            Err(errno) => failed.push(format!("TIOCSTI {what}: {errno}")),
        }
    }
    match fs::read_dir("/dev/pts") {
        Ok(entries) => {
            for entry in entries.filter_map(Result::ok) {
                if entry.file_name() == "ptmx" {
                    continue;
                }
                let path = entry.path();
                let path = path.to_string_lossy();
                match open(&path) {
                    Ok(_) => worked.push(format!("opened {path}")),
                    Err(error) => failed.push(format!("{path}: {error}")),
                }
            }
        }
        Err(error) => failed.push(format!("/dev/pts: {error}")),
    }
    if worked.is_empty() {
        Refused(failed.join("; "))
    } else {
        Escaped(worked.join(", "))
    }
}

fn environ() -> Outcome {
    let vars: Vec<String> = std::env::vars_os()
        .map(|(k, v)| format!("{}={}", k.to_string_lossy(), v.to_string_lossy()))
        .collect();
    let file = |path: &str| match fs::read(path) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).replace('\0', " "),
        Err(e) => format!("unreadable: {e}"),
    };
    let ppid = nix::unistd::getppid();
    Refused(format!(
        "vars: {}; self: {}; parent {ppid}: {}",
        vars.join(" "),
        file("/proc/self/environ"),
        file(&format!("/proc/{ppid}/environ"))
    ))
}

fn env(name: &str) -> Outcome {
    match std::env::var_os(name) {
        Some(value) => Escaped(format!("{name} is set, {} bytes", value.len())),
        None => Refused(format!("{name} is not set")),
    }
}

/// Runs `action` in a forked child, so the bot itself is unaffected, and
/// reports what the child's exit code says: 0 if it worked, else the errno.
fn in_child(action: impl FnOnce() -> nix::Result<()>, success: &str) -> Outcome {
    // SAFETY: the bot is single-threaded here, and the child makes one
    // system call and exits without unwinding or running exit handlers.
    match unsafe { fork() } {
        Ok(ForkResult::Child) => {
            let code = match action() {
                Ok(()) => 0,
                Err(errno) => (errno as i32).clamp(1, 255),
            };
            // SAFETY: _exit(2) ends the child at once; nothing is shared.
            unsafe { nix::libc::_exit(code) }
        }
        Ok(ForkResult::Parent { child }) => match waitpid(child, None) {
            Ok(WaitStatus::Exited(_, 0)) => Escaped(success.to_string()),
            Ok(WaitStatus::Exited(_, code)) => Refused(Errno::from_raw(code).to_string()),
            Ok(other) => Refused(format!("child ended as {other:?}")),
            Err(errno) => Refused(format!("waitpid: {errno}")),
        },
        Err(errno) => Refused(format!("fork: {errno}")),
    }
}

fn setid(path: &str) -> Outcome {
    use nix::sys::stat::{fchmodat, mknod, FchmodatFlags, Mode, SFlag};
    use std::os::unix::fs::PermissionsExt;
    let suid = Mode::from_bits_truncate(0o4755);
    let sgid = Mode::from_bits_truncate(0o2755);
    let mut said = Vec::new();
    let chmod = File::create(path).map_err(|e| e.to_string()).and_then(|_| {
        fchmodat(None, path, suid, FchmodatFlags::FollowSymlink).map_err(|e| e.to_string())
    });
    said.push(format!("chmod: {chmod:?}"));
    let second = format!("{path}.2");
    let open = OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o2755)
        .open(&second)
        .map(drop)
        .map_err(|e| e.to_string());
    said.push(format!("open: {open:?}"));
    let third = format!("{path}.3");
    let node = mknod(third.as_str(), SFlag::S_IFREG, sgid, 0).map_err(|e| e.to_string());
    said.push(format!("mknod: {node:?}"));
    // openat2 takes its mode in a structure (struct open_how).
    #[repr(C)]
    struct OpenHow {
        flags: u64,
        mode: u64,
        resolve: u64,
    }
    let fourth = format!("{path}.4");
    let how = OpenHow {
        flags: (nix::libc::O_CREAT | nix::libc::O_WRONLY) as u64,
        mode: 0o6755,
        resolve: 0,
    };
    let name = std::ffi::CString::new(fourth.as_str()).unwrap_or_default();
    // SAFETY: openat2 reads the path and the structure, both alive here.
    let fd = unsafe {
        nix::libc::syscall(
            nix::libc::SYS_openat2,
            nix::libc::AT_FDCWD,
            name.as_ptr(),
            &how as *const OpenHow,
            std::mem::size_of::<OpenHow>(),
        )
    };
    said.push(format!("openat2: {:?}", Errno::result(fd).map(drop)));
    if fd >= 0 {
        let _ = nix::unistd::close(fd as i32);
    }
    let marked: Vec<String> = [path, second.as_str(), third.as_str(), fourth.as_str()]
        .iter()
        .filter(|p| fs::metadata(p).is_ok_and(|m| m.permissions().mode() & 0o6000 != 0))
        .map(|p| p.to_string())
        .collect();
    if marked.is_empty() {
        Refused(said.join("; "))
    } else {
        Escaped(format!("set-id files: {}", marked.join(", ")))
    }
}

fn tmpfile(arg: &str) -> Outcome {
    use nix::fcntl::{open, AtFlags, OFlag};
    use nix::sys::stat::Mode;
    use std::os::unix::fs::PermissionsExt;
    let Some((path, mode)) = arg
        .rsplit_once(':')
        .and_then(|(p, m)| Some((p, u32::from_str_radix(m, 8).ok()?)))
    else {
        return Refused(format!("bad PATH:MODE {arg:?}"));
    };
    let folder = match std::path::Path::new(path).parent() {
        Some(f) if !f.as_os_str().is_empty() => f,
        _ => std::path::Path::new("."),
    };
    let flags = OFlag::O_TMPFILE | OFlag::O_RDWR;
    let fd = match open(folder, flags, Mode::from_bits_truncate(mode)) {
        Ok(fd) => fd,
        Err(errno) => return Refused(format!("open: {errno}")),
    };
    let linked = nix::unistd::linkat(
        None,
        format!("/proc/self/fd/{fd}").as_str(),
        None,
        path,
        AtFlags::AT_SYMLINK_FOLLOW,
    );
    let _ = nix::unistd::close(fd);
    if let Err(errno) = linked {
        return Refused(format!("linkat: {errno}"));
    }
    match fs::metadata(path) {
        Ok(m) if m.permissions().mode() & 0o6000 != 0 => Escaped(format!(
            "set-id file {path}, mode {:o}",
            m.permissions().mode() & 0o7777
        )),
        Ok(m) => Refused(format!(
            "linked {path} without a set-id bit: mode {:o}",
            m.permissions().mode() & 0o7777
        )),
        Err(error) => Refused(format!("{path}: {error}")),
    }
}

fn affinity() -> Outcome {
    use nix::sched::{sched_getaffinity, sched_setaffinity, CpuSet};
    let me = Pid::from_raw(0);
    let cpus = || {
        sched_getaffinity(me).map(|set| {
            (0..CpuSet::count())
                .filter(|&c| set.is_set(c).unwrap_or(false))
                .count()
        })
    };
    let before = match cpus() {
        Ok(n) => n,
        Err(errno) => return Refused(format!("sched_getaffinity: {errno}")),
    };
    let mut every = CpuSet::new();
    for cpu in 0..CpuSet::count() {
        let _ = every.set(cpu);
    }
    let set = sched_setaffinity(me, &every);
    let after = match cpus() {
        Ok(n) => n,
        Err(errno) => return Refused(format!("sched_getaffinity after: {errno}")),
    };
    let counts = format!("CPUs: {before} before, {after} after");
    match set {
        _ if after > before => Escaped(format!("widened its CPU set: {counts}")),
        Err(errno) => Refused(format!("sched_setaffinity: {errno}; {counts}")),
        Ok(()) => Refused(format!("sched_setaffinity worked, not wider: {counts}")),
    }
}

/// The bytes that `hex` (two digits a byte) encodes, if any.
fn unhex(hex: &str) -> Option<Vec<u8>> {
    let bytes: Option<Vec<u8>> = (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok())
        .collect();
    bytes.filter(|b| !b.is_empty())
}

fn cmdline(arg: &str) -> Outcome {
    let Some((needle, mark)) = arg
        .split_once(':')
        .and_then(|(n, m)| Some((unhex(n)?, unhex(m)?)))
    else {
        return Refused(format!("bad HEX:MARK {arg:?}"));
    };
    let entries = match fs::read_dir("/proc") {
        Ok(entries) => entries,
        Err(error) => return Refused(format!("/proc: {error}")),
    };
    let holds = |bytes: &[u8], part: &[u8]| bytes.windows(part.len()).any(|w| w == part);
    let (mut read, mut found, mut marked) = (0, Vec::new(), Vec::new());
    for entry in entries.filter_map(Result::ok) {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.is_empty() || !name.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        let Ok(bytes) = fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        read += 1;
        let words = String::from_utf8_lossy(&bytes).replace('\0', " ");
        if holds(&bytes, &needle) {
            let first = words.split(' ').next().unwrap_or_default();
            found.push(format!("{name} ({first})"));
        } else if holds(&bytes, &mark) {
            marked.push(format!("[{}]", words.trim_end()));
        }
    }
    if found.is_empty() {
        Refused(format!(
            "{read} command lines read, none holds it; those of the mark: {}",
            marked.join(" ")
        ))
    } else {
        Escaped(format!("in the command line of {}", found.join(", ")))
    }
}

/// An i386 `getpid` (call 20) through `int 0x80`.
fn int80() -> nix::Result<()> {
    #[cfg(target_arch = "x86_64")]
    {
        let result: i64;
        // SAFETY: int 0x80 with eax = 20 is i386 getpid: it reads nothing
        // of ours and returns the pid or -errno in eax.
        unsafe {
            std::arch::asm!("int 0x80", inlateout("rax") 20i64 => result, options(nostack));
        }
        if result > 0 {
            Ok(())
        } else {
            Err(Errno::from_raw((-result) as i32))
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    Err(Errno::ENOSYS)
}

/// An x32 `getpid` (39 with the x32 bit).
fn x32() -> nix::Result<()> {
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: getpid takes no argument.
        let pid = unsafe { nix::libc::syscall(0x4000_0000 | 39) };
        Errno::result(pid).map(drop)
    }
    #[cfg(not(target_arch = "x86_64"))]
    Err(Errno::ENOSYS)
}

fn whoami() -> Outcome {
    let map = match fs::read_to_string("/proc/self/uid_map") {
        Ok(text) => text
            .lines()
            .map(|line| line.split_whitespace().collect::<Vec<_>>().join(" "))
            .collect::<Vec<_>>()
            .join(", "),
        Err(error) => format!("unreadable ({error})"),
    };
    Refused(format!(
        "uid {} gid {}, uid_map: {map}",
        nix::unistd::getuid(),
        nix::unistd::getgid()
    ))
}
