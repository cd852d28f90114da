//! Fair play among hostile bots (issue 29; docs/sandbox.md, "Fair play"),
//! tried as an attacker would, with real sandboxed bots in per-bot
//! cgroups:
//! - `fair-hog` forks spinning children in sessions of their own, stops
//!   them while it is on move and lets them run while its opponent
//!   thinks: the victim (`fair-counter`, which counts its work in a fixed
//!   time per move) loses no game on time, and does at least half the work
//!   per move it does against a quiet opponent. The same attack with
//!   `cgroups = "off"` is the control: there it does starve the victim.
//! - `fair-memory` takes memory that RLIMIT_DATA does not count (memfd,
//!   System V shared memory, its private tmpfs) past `memory_mb`: it loses
//!   by a crash that names the memory limit, and its log never shows more
//!   than the limit held. With `cgroups = "off"` (the control) it holds it
//!   all.
//! - `fault-grandchild --daemon` leaves a double-forked, re-sessioned child
//!   that ignores every signal: gone when the run ends, and when the arena
//!   is killed with `kill -9`; the bots' cgroup folders are removed.
//!
//! Each runs as root and as an ordinary user (uid 4242) with cgroups
//! delegated to it (made by the test inside its own cgroup, chowned), with
//! the v2 freezer this machine has and with the v1 hierarchies alone
//! (`ENDODOI_CGROUP_NO_V2`). The tests need root, cgroups the arena can
//! write and bubblewrap; without them they say SKIPPED, unless
//! `ENDODOI_REQUIRE_CGROUPS=1` (as `.ci/run` sets), which makes a skip a
//! failure. They run one at a time: the control runs load the machine.
//! Built with `portable-unix` (no cgroups), each checks instead that
//! `cgroups = "require"` stops the arena in one line.

#![cfg(target_os = "linux")]

mod common;

use std::ffi::CString;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Mutex;

use arena::cgroup::Cgroups;
use common::{assert_contains, rows, stderr_of};

/// The ordinary user of the delegated runs (no such user needs to exist).
const ORDINARY: u32 = 4242;

/// One test at a time: the control runs' spinning children would slow
/// the others' victims.
static SERIAL: Mutex<()> = Mutex::new(());

/// Whether the tests can run here: root, every per-bot cgroup control,
/// bubblewrap. `false` after saying SKIPPED, or a panic when
/// `ENDODOI_REQUIRE_CGROUPS=1`.
fn ready() -> bool {
    if !arena::platform::CGROUPS {
        // The portable-unix build (macOS): its refusal, in one line.
        common::refused_by_platform("cgroups = \"require\"", arena::platform::NO_CGROUPS);
        return false;
    }
    let host = Cgroups::probe();
    let why = if !nix::unistd::geteuid().is_root() {
        Some("the fairness tests make and delegate cgroups, which needs root".to_string())
    } else if !host.missing().is_empty() {
        Some(host.summary())
    } else if arena::bot::spawn::bubblewrap().is_none() {
        Some("bubblewrap (bwrap) is not installed".to_string())
    } else {
        None
    };
    let Some(why) = why else { return true };
    assert_ne!(
        std::env::var("ENDODOI_REQUIRE_CGROUPS").as_deref(),
        Ok("1"),
        "ENDODOI_REQUIRE_CGROUPS=1 requires the fairness tests: {why}"
    );
    common::skipped(why);
    false
}

/// A fairness test's start: the others wait, the host is checked
/// ([`ready`]), and a [`workspace`] is made; `None` to skip.
fn start() -> Option<(std::sync::MutexGuard<'static, ()>, tempfile::TempDir)> {
    let serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    ready().then(|| (serial, workspace()))
}

fn built(name: &str) -> PathBuf {
    Path::new(env!("CARGO_BIN_EXE_arena"))
        .parent()
        .unwrap()
        .join(name)
}

/// Who runs the arena: root, or uid 4242 in cgroups delegated to it; and
/// whether the arena may use cgroup v2.
#[derive(Clone, Copy, Debug)]
struct Who {
    ordinary: bool,
    v2: bool,
}

const EVERYONE: [Who; 4] = [
    Who {
        ordinary: false,
        v2: true,
    },
    Who {
        ordinary: false,
        v2: false,
    },
    Who {
        ordinary: true,
        v2: true,
    },
    Who {
        ordinary: true,
        v2: false,
    },
];

/// Cgroup folders made in the test's own cgroups and handed to uid 4242,
/// as a host delegates a subtree to a user; removed on drop.
struct Delegated {
    dirs: Vec<PathBuf>,
}

static DELEGATED: AtomicU32 = AtomicU32::new(0);

impl Delegated {
    fn new(v2: bool) -> Delegated {
        let n = DELEGATED.fetch_add(1, Ordering::Relaxed);
        let mut dirs = Vec::new();
        for own in own_dirs(v2) {
            // Named as the arena names its own: a later arena's sweep
            // removes it if this test dies.
            let dir = own.join(format!("endodoi-{}-delegated{n}", arena::cgroup::owner()));
            std::fs::create_dir(&dir).unwrap();
            for file in [
                "",
                "cgroup.procs",
                "tasks",
                "cgroup.threads",
                "cgroup.subtree_control",
            ] {
                let path = dir.join(file);
                if path.exists() {
                    std::os::unix::fs::chown(&path, Some(ORDINARY), Some(ORDINARY)).unwrap();
                }
            }
            dirs.push(dir);
        }
        Delegated { dirs }
    }

    /// Folders the arena left in the delegated ones.
    fn left(&self) -> Vec<String> {
        folders_left(&self.dirs, None)
    }
}

impl Drop for Delegated {
    fn drop(&mut self) {
        for dir in &self.dirs {
            let _ = std::fs::remove_dir(dir);
        }
    }
}

/// The arena's folders (`endodoi-NS-PID-START-WHAT`) inside `dirs`: all
/// of them, or those of the arena with pid `pid`.
fn folders_left(dirs: &[PathBuf], pid: Option<u32>) -> Vec<String> {
    let mut left = Vec::new();
    for dir in dirs {
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let pid_of = name.split('-').nth(2).and_then(|p| p.parse::<u32>().ok());
            let arenas = name.starts_with("endodoi-") && pid_of.is_some();
            if entry.path().is_dir() && arenas && pid.is_none_or(|p| pid_of == Some(p)) {
                left.push(entry.path().display().to_string());
            }
        }
    }
    left
}

/// The test's own folders in the cgroup hierarchies the arena uses (v2,
/// and v1's memory, pids, cpu and freezer): where a root arena makes its
/// bots'. Without `v2`, the v1 ones only.
fn own_dirs(v2: bool) -> Vec<PathBuf> {
    let read = |p: &str| std::fs::read_to_string(p).unwrap();
    let wanted = ["memory", "pids", "cpu", "freezer"];
    arena::cgroup::own_folders(&read("/proc/self/cgroup"), &read("/proc/self/mountinfo"))
        .into_iter()
        .filter(|m| match &m.controllers {
            None => v2,
            Some(c) => c.iter().any(|c| wanted.contains(&c.as_str())),
        })
        .map(|m| m.own)
        .collect()
}

/// `arena run CFG --out OUT --quiet` as `who`, not yet started: as uid
/// 4242 in the `delegated` cgroups, or in none.
fn arena(cfg: &Path, out: &Path, who: Who, delegated: Option<&Delegated>) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_arena"));
    cmd.arg("run").arg(cfg).arg("--out").arg(out).arg("--quiet");
    if !who.v2 {
        cmd.env(arena::cgroup::NO_V2, "1");
    }
    if who.ordinary {
        // The delegated cgroups (none: an ordinary user with no cgroup).
        let procs: Vec<CString> = delegated
            .map_or(&[][..], |d| &d.dirs)
            .iter()
            .map(|d| {
                CString::new(d.join("cgroup.procs").into_os_string().into_encoded_bytes()).unwrap()
            })
            .collect();
        // SAFETY: open, write, close, setgroups, setresgid and setresuid
        // are async-signal-safe; nothing is allocated.
        unsafe {
            cmd.pre_exec(move || {
                use nix::fcntl::{open, OFlag};
                for path in &procs {
                    let fd = open(
                        path.as_c_str(),
                        OFlag::O_WRONLY,
                        nix::sys::stat::Mode::empty(),
                    )?;
                    // SAFETY: `fd` was just opened, and is closed below.
                    let written = nix::unistd::write(std::os::fd::BorrowedFd::borrow_raw(fd), b"0");
                    nix::unistd::close(fd)?;
                    written?;
                }
                let (uid, gid) = (
                    nix::unistd::Uid::from_raw(ORDINARY),
                    nix::unistd::Gid::from_raw(ORDINARY),
                );
                nix::unistd::setgroups(&[])?;
                nix::unistd::setresgid(gid, gid, gid)?;
                nix::unistd::setresuid(uid, uid, uid)?;
                Ok(())
            });
        }
    }
    cmd
}

/// A folder under `root` open to every user, with `files` copied in.
fn deploy(root: &Path, name: &str, files: &[PathBuf]) -> PathBuf {
    let dir = root.join(name);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    for file in files {
        let to = dir.join(file.file_name().unwrap());
        std::fs::copy(file, &to).unwrap();
        std::fs::set_permissions(&to, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    dir
}

/// A test's folder: open to others, with `runs/` writable by uid 4242.
fn workspace() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::set_permissions(tmp.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let runs = tmp.path().join("runs");
    std::fs::create_dir(&runs).unwrap();
    std::os::unix::fs::chown(&runs, Some(ORDINARY), Some(ORDINARY)).unwrap();
    tmp
}

/// Runs `cfg` as `who` to its end, into a new folder under `runs/`, and
/// checks that no cgroup folder of the arena is left; the run folder.
fn run(tmp: &Path, cfg: &Path, who: Who) -> PathBuf {
    static RUN: AtomicU32 = AtomicU32::new(0);
    let out = tmp
        .join("runs")
        .join(format!("run{}", RUN.fetch_add(1, Ordering::Relaxed)));
    let delegated = who.ordinary.then(|| Delegated::new(who.v2));
    let output: Output = arena(cfg, &out, who, delegated.as_ref())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    common::assert_success(&output);
    if let Some(d) = &delegated {
        assert_eq!(
            d.left(),
            Vec::<String>::new(),
            "cgroup folders left ({who:?})"
        );
    }
    out
}

/// A config of two bots, one series of up to two games on a small board,
/// each bot's table given whole.
fn config(tmp: &Path, name: &str, limits: &str, bots: &[String]) -> PathBuf {
    let mut text = format!(
        "name = \"{name}\"\n[board]\nholes = 4\nseeds = 2\n[tournament]\nconcurrency = 1\nfirst_to = 1\nmax_games = 2\n[time]\nmove_time_ms = 2000\nstartup_ms = 10000\n[limits]\n{limits}\n"
    );
    for bot in bots {
        text.push_str("\n[[bot]]\n");
        text.push_str(bot);
    }
    let path = tmp.join(format!("{name}.toml"));
    std::fs::write(&path, text).unwrap();
    path
}

/// The victim's work per move in the run folder `out`: the `work N` lines
/// of its log, in order.
fn work(out: &Path) -> Vec<u64> {
    let log = std::fs::read_to_string(out.join("logs/counter.stderr.log")).unwrap();
    log.lines()
        .filter_map(|l| l.split("work ").nth(1))
        .map(|n| n.trim().parse().unwrap())
        .collect()
}

fn median(mut v: Vec<u64>) -> u64 {
    assert!(!v.is_empty(), "the victim made no move");
    v.sort_unstable();
    v[v.len() / 2]
}

/// The games of `out` that `bot` lost on time.
fn lost_on_time(out: &Path, bot: &str) -> usize {
    rows(&out.join("games.csv"))
        .iter()
        .filter(|g| g["termination"] == "timeout" && g["detail"].contains(&format!("({bot})")))
        .count()
}

#[test]
fn a_bot_that_steals_its_opponents_turn_gets_nothing_from_it() {
    let Some((_serial, tmp)) = start() else {
        return;
    };
    let hog_dir = deploy(tmp.path(), "hog", &[built("fair-hog")]);
    let counter = format!(
        "name = \"counter\"\ncommand = [{:?}, \"--think-ms\", \"100\"]\n",
        built("fair-counter").display().to_string()
    );
    let opponent = |children: u32| {
        format!(
            "name = \"hog\"\ncommand = [\"./fair-hog\", \"--children\", \"{children}\"]\ndir = {:?}\nsandbox = true\nprocesses = 512\n",
            hog_dir.display().to_string()
        )
    };
    let quiet = config(tmp.path(), "quiet", "", &[counter.clone(), opponent(0)]);
    let hog = config(tmp.path(), "hog", "", &[counter.clone(), opponent(100)]);
    let off = config(
        tmp.path(),
        "off",
        "cgroups = \"off\"",
        &[counter, opponent(100)],
    );
    // The control: without cgroups the attack works.
    let root = EVERYONE[0];
    let (calm, starved) = (run(tmp.path(), &quiet, root), run(tmp.path(), &off, root));
    let (calm, starved) = (median(work(&calm)), median(work(&starved)));
    eprintln!("the control, cgroups off: the victim's work per move: {starved} with the hog, {calm} without");
    assert!(
        starved * 2 < calm,
        "the control: without cgroups the hog should starve the victim, but its work per move was {starved} against {calm} undisturbed"
    );
    for who in EVERYONE {
        // Interleaved, twice, so that the machine's load falls on both
        // alike; the better run of each is compared.
        let (mut calm, mut attacked) = (0, 0);
        for _ in 0..2 {
            calm = calm.max(median(work(&run(tmp.path(), &quiet, who))));
            let out = run(tmp.path(), &hog, who);
            assert_eq!(lost_on_time(&out, "counter"), 0, "{who:?}");
            let hog_log = std::fs::read_to_string(out.join("logs/hog.stderr.log")).unwrap();
            assert!(
                hog_log.contains("started 100 spinning children"),
                "{who:?}: {hog_log}"
            );
            attacked = attacked.max(median(work(&out)));
        }
        eprintln!("{who:?}: the victim's work per move: {attacked} with the hog, {calm} without");
        assert!(
            attacked * 2 >= calm,
            "{who:?}: the victim's work per move fell to {attacked} with the hog, from {calm} without"
        );
    }
}

/// The most the `fair-memory` bot's log says it held, MiB.
fn held_mib(out: &Path) -> u64 {
    let log = std::fs::read_to_string(out.join("logs/hog.stderr.log")).unwrap();
    log.lines()
        .filter_map(|l| l.split("held ").nth(1))
        .filter_map(|n| n.trim_end_matches(" MiB").parse().ok())
        .max()
        .unwrap_or(0)
}

#[test]
fn memory_that_rlimit_data_does_not_count_is_held_to_memory_mb() {
    let Some((_serial, tmp)) = start() else {
        return;
    };
    let dir = deploy(tmp.path(), "hog", &[built("fair-memory")]);
    let bots = |kind: &str| {
        vec![
            "name = \"first\"\ncommand = [\"arena\", \"bot\", \"first\"]\n".to_string(),
            format!(
                "name = \"hog\"\ncommand = [\"./fair-memory\", \"--{kind}\", \"--mib\", \"256\"]\ndir = {:?}\nsandbox = true\nmemory_mb = 64\ntmp_mb = 512\n",
                dir.display().to_string()
            ),
        ]
    };
    // The control: without cgroups the bot holds it all.
    let off = config(tmp.path(), "off", "cgroups = \"off\"", &bots("memfd"));
    let out = run(tmp.path(), &off, EVERYONE[0]);
    assert_eq!(
        held_mib(&out),
        256,
        "the control: RLIMIT_DATA should not count a memfd"
    );
    for (kind, who) in ["memfd", "shm", "tmpfs", "memfd"].into_iter().zip(EVERYONE) {
        let cfg = config(tmp.path(), kind, "", &bots(kind));
        let out = run(tmp.path(), &cfg, who);
        let held = held_mib(&out);
        assert!(
            held <= 64,
            "{kind} {who:?}: the bot held {held} MiB over its 64"
        );
        let games = rows(&out.join("games.csv"));
        let lost = games
            .iter()
            .find(|g| g["termination"] == "crash")
            .unwrap_or_else(|| panic!("{kind} {who:?}: no game lost by a crash: {games:?}"));
        assert!(
            lost["detail"].contains("(hog)") && lost["detail"].contains("over its memory limit"),
            "{kind} {who:?}: {}",
            lost["detail"]
        );
    }
}

/// A `fault-grandchild --daemon` bot's table, sandboxed in `dir` or not;
/// its daemon sleeps for `marker` seconds, which finds it on the host.
fn daemon_bot(dir: &Path, sandbox: bool, marker: &str) -> String {
    let program = if sandbox {
        "./fault-grandchild".to_string()
    } else {
        built("fault-grandchild").display().to_string()
    };
    let mut bot = format!(
        "name = \"daemon\"\ncommand = [{program:?}, \"--keep-playing\", \"--daemon\", \"--sleep\", {marker:?}]\n"
    );
    if sandbox {
        bot.push_str(&format!(
            "dir = {:?}\nsandbox = true\n",
            dir.display().to_string()
        ));
    }
    bot
}

/// A `sleep` duration no other process has: 3600.N seconds.
fn marker() -> String {
    static N: AtomicU32 = AtomicU32::new(0);
    format!(
        "3600.{}{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    )
}

#[test]
fn a_daemon_that_ignores_every_signal_is_gone_with_its_bot() {
    let Some((_serial, tmp)) = start() else {
        return;
    };
    let dir = deploy(tmp.path(), "daemon", &[built("fault-grandchild")]);
    let first = "name = \"first\"\ncommand = [\"arena\", \"bot\", \"first\"]\n".to_string();
    let cases = [
        (false, EVERYONE[0]),
        (true, EVERYONE[1]),
        (true, EVERYONE[2]),
        (false, EVERYONE[3]),
    ];
    for (sandbox, who) in cases {
        let marker = marker();
        let bots = [first.clone(), daemon_bot(&dir, sandbox, &marker)];
        let cfg = config(tmp.path(), "daemon", "", &bots);
        let out = run(tmp.path(), &cfg, who);
        let log = std::fs::read_to_string(out.join("logs/daemon.stderr.log")).unwrap();
        assert!(log.contains("started a daemon"), "{who:?}: {log}");
        let left = common::leftovers(&marker, &[]);
        assert!(
            left.is_empty(),
            "{who:?} sandbox {sandbox}: daemons left: {left:?}"
        );
    }
}

#[test]
fn a_daemon_is_gone_and_the_cgroups_removed_after_kill_9_of_the_arena() {
    let Some((_serial, tmp)) = start() else {
        return;
    };
    let dir = deploy(tmp.path(), "daemon", &[built("fault-grandchild")]);
    for (sandbox, who) in [
        (true, EVERYONE[0]),
        (false, EVERYONE[2]),
        (true, EVERYONE[3]),
    ] {
        let marker = marker();
        let text = format!(
            "[tournament]\nfirst_to = 100000\nmax_games = 300000\n[[bot]]\nname = \"first\"\ncommand = [\"arena\", \"bot\", \"first\"]\n[[bot]]\n{}",
            daemon_bot(&dir, sandbox, &marker)
        );
        let cfg = tmp.path().join("kill.toml");
        std::fs::write(&cfg, text).unwrap();
        let delegated = who.ordinary.then(|| Delegated::new(who.v2));
        let out = tmp.path().join("runs").join(format!("kill-{marker}"));
        let mut child = arena(&cfg, &out, who, delegated.as_ref())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let arena_pid = child.id();
        // The daemon starts before its bot's first reply: once the run has
        // a game, it must be there.
        let games = out.join("games.csv");
        let end = std::time::Instant::now() + std::time::Duration::from_secs(60);
        while rows_in(&games) == 0 {
            assert!(
                std::time::Instant::now() < end,
                "{who:?}: no game in a minute"
            );
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        assert!(
            !common::leftovers(&marker, &[]).is_empty(),
            "{who:?}: no daemon to take down"
        );
        nix::sys::signal::kill(
            nix::unistd::Pid::from_raw(arena_pid as i32),
            nix::sys::signal::Signal::SIGKILL,
        )
        .unwrap();
        child.wait().unwrap();
        // The guards end the bots and remove their cgroups: wait for it.
        let dirs = delegated
            .as_ref()
            .map_or_else(|| own_dirs(true), |d| d.dirs.clone());
        let done = || {
            common::leftovers(&marker, &[]).is_empty()
                && folders_left(&dirs, Some(arena_pid)).is_empty()
        };
        let end = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while !done() && std::time::Instant::now() < end {
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        let left = common::leftovers(&marker, &[]);
        assert!(
            left.is_empty(),
            "{who:?}: daemons left after kill -9: {left:?}"
        );
        assert_eq!(
            folders_left(&dirs, Some(arena_pid)),
            Vec::<String>::new(),
            "{who:?}"
        );
    }
}

#[test]
fn the_sweeper_kills_and_removes_its_arenas_folders_once_its_pipe_ends() {
    let Some((_serial, _tmp)) = start() else {
        return;
    };
    let places = own_dirs(true);
    // No arena has pid u32::MAX: these owners are made up.
    let folder = |owner: u32, n: u32| -> Vec<PathBuf> {
        places
            .iter()
            .map(|p| p.join(format!("endodoi-0-{}-{owner}-{n}", u32::MAX)))
            .collect()
    };
    let (mine, other) = (folder(1, 3), folder(2, 3));
    for dir in mine.iter().chain(&other) {
        std::fs::create_dir(dir).unwrap();
    }
    let mut member = Command::new("sleep").arg("600").spawn().unwrap();
    for dir in &mine {
        std::fs::write(dir.join("cgroup.procs"), member.id().to_string()).unwrap();
    }
    let mut sweeper = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(["sweeper", "--owner", &format!("0-{}-1", u32::MAX)])
        .args(places.iter().flat_map(|p| [Path::new("--place"), p]))
        .stdin(Stdio::piped())
        .spawn()
        .unwrap();
    // Once it has read a pipe's worth, it was waiting: nothing went.
    let mut pipe = sweeper.stdin.take().unwrap();
    std::io::Write::write_all(&mut pipe, &vec![b'x'; 1 << 20]).unwrap();
    assert!(mine.iter().all(|d| d.exists()), "swept while its arena ran");
    drop(pipe);
    assert!(sweeper.wait().unwrap().success());
    // The sweeper returns once its folders are empty: the member has ended.
    let ended = member.try_wait().unwrap();
    let _ = member.kill();
    let _ = member.wait();
    let gone: Vec<&PathBuf> = mine.iter().filter(|d| d.exists()).collect();
    let kept = other.iter().all(|d| d.exists());
    for dir in mine.iter().chain(&other) {
        let _ = std::fs::remove_dir(dir);
    }
    assert!(ended.is_some(), "its member lived");
    assert!(gone.is_empty(), "not removed: {gone:?}");
    assert!(kept, "another arena's folders went too");
}

/// The complete rows of a `games.csv` being written (0 if none yet).
fn rows_in(path: &Path) -> usize {
    std::fs::read_to_string(path)
        .map(|t| t.lines().count().saturating_sub(1))
        .unwrap_or(0)
}

#[test]
fn an_ordinary_user_without_a_cgroup_is_told_and_require_refuses_to_start() {
    let Some((_serial, tmp)) = start() else {
        return;
    };
    let dir = deploy(tmp.path(), "greedy", &[]);
    let bots = [
        "name = \"first\"\ncommand = [\"arena\", \"bot\", \"first\"]\n".to_string(),
        format!(
            "name = \"greedy\"\ncommand = [\"arena\", \"bot\", \"greedy\"]\ndir = {:?}\nsandbox = true\n",
            dir.display().to_string()
        ),
    ];
    let who = Who {
        ordinary: true,
        v2: true,
    };
    // "auto": the run goes on, and says what it could not enforce.
    let cfg = config(tmp.path(), "auto", "", &bots);
    let out = tmp.path().join("runs/auto");
    let output = arena(&cfg, &out, who, None).output().unwrap();
    common::assert_success(&output);
    let stderr = stderr_of(&output);
    assert_contains(&stderr, "arena: per-bot cgroups are not enforced: the arena cannot make folders in its own cgroups: ");
    assert_eq!(rows(&out.join("games.csv")).len(), 2);
    // "require": one line before anything is written, exit 2.
    let cfg = config(tmp.path(), "require", "cgroups = \"require\"", &bots);
    let out = tmp.path().join("runs/require");
    let output = arena(&cfg, &out, who, None).output().unwrap();
    let stderr = stderr_of(&output);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains(
            "require.toml: [limits] cgroups = \"require\", but per-bot cgroups are not enforced"
        ) && stderr.contains("docs/sandbox.md"),
        "{stderr}"
    );
    assert!(!out.join("games.csv").exists());
}

#[test]
fn the_next_arena_kills_and_removes_what_a_dead_one_left() {
    let Some((_serial, tmp)) = start() else {
        return;
    };
    // A pid no process has now: one that has just exited.
    let dead = Command::new("true").spawn().unwrap();
    let dead_pid = dead.id();
    let mut dead = dead;
    dead.wait().unwrap();
    let ns = std::fs::read_link("/proc/self/ns/pid").unwrap();
    let ns = ns.to_string_lossy();
    let ns = ns.trim_start_matches("pid:[").trim_end_matches(']');
    // Folders as arenas name theirs (pid namespace, pid, start time, n),
    // in each of the test's own cgroups: of that dead arena, with a
    // process still in it, as a guard killed by hand would leave it; of a
    // live pid whose start time is not the arena's (a reused pid); and of
    // an arena in another pid namespace, which cannot be judged from here
    // and must be left alone.
    let mut sleeper = Command::new("sleep").arg("3600").spawn().unwrap();
    let make = |name: String| -> Vec<PathBuf> {
        own_dirs(true)
            .into_iter()
            .map(|d| d.join(&name))
            .filter(|d| std::fs::create_dir(d).is_ok())
            .collect()
    };
    let stale = make(format!("endodoi-{ns}-{dead_pid}-1-1"));
    let reused = make(format!("endodoi-{ns}-{}-1-1", std::process::id()));
    let foreign = make(format!("endodoi-1{ns}-{dead_pid}-1-1"));
    assert!(!stale.is_empty() && !reused.is_empty() && !foreign.is_empty());
    for dir in &stale {
        std::fs::write(dir.join("cgroup.procs"), sleeper.id().to_string()).unwrap();
    }
    let bots = [
        "name = \"a\"\ncommand = [\"arena\", \"bot\", \"first\"]\n".to_string(),
        "name = \"b\"\ncommand = [\"arena\", \"bot\", \"first\"]\n".to_string(),
    ];
    let cfg = config(tmp.path(), "next", "", &bots);
    run(tmp.path(), &cfg, EVERYONE[0]);
    let status = sleeper.wait().unwrap();
    assert_eq!(
        std::os::unix::process::ExitStatusExt::signal(&status),
        Some(9),
        "the stale cgroup's process was not killed"
    );
    let left: Vec<&PathBuf> = stale.iter().chain(&reused).filter(|d| d.exists()).collect();
    assert!(left.is_empty(), "stale cgroups left: {left:?}");
    let kept = foreign.iter().filter(|d| d.exists()).count();
    for dir in &foreign {
        let _ = std::fs::remove_dir(dir);
    }
    assert_eq!(
        kept,
        foreign.len(),
        "another pid namespace's folders were removed"
    );
}

#[test]
fn an_arena_in_another_pid_namespace_leaves_a_running_arenas_bots_alone() {
    let Some((_serial, tmp)) = start() else {
        return;
    };
    // A long run, in the test's own pid namespace...
    let long = format!(
        "[tournament]\nfirst_to = 100000\nmax_games = 300000\n[[bot]]\nname = \"a\"\ncommand = [\"arena\", \"bot\", \"first\"]\n[[bot]]\nname = \"b\"\ncommand = [{:?}, \"--think-ms\", \"1\"]\n",
        built("fair-counter").display().to_string()
    );
    let cfg = tmp.path().join("long.toml");
    std::fs::write(&cfg, long).unwrap();
    let out = tmp.path().join("runs/long");
    let mut child = arena(&cfg, &out, EVERYONE[0], None)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let games = out.join("games.csv");
    let end = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while rows_in(&games) == 0 {
        assert!(std::time::Instant::now() < end, "no game in a minute");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    // ...and a short one in a pid namespace of its own, where the long
    // run's pids do not exist: its start-up sweep must not take them for
    // a dead arena's.
    let bots = [
        "name = \"a\"\ncommand = [\"arena\", \"bot\", \"first\"]\n".to_string(),
        "name = \"b\"\ncommand = [\"arena\", \"bot\", \"first\"]\n".to_string(),
    ];
    let short = config(tmp.path(), "short", "", &bots);
    let output = Command::new("unshare")
        .args(["--pid", "--fork", "--mount-proc"])
        .arg(env!("CARGO_BIN_EXE_arena"))
        .arg("run")
        .arg(&short)
        .arg("--out")
        .arg(tmp.path().join("runs/short"))
        .arg("--quiet")
        .output()
        .expect("unshare (util-linux)");
    common::assert_success(&output);
    let before = rows_in(&games);
    // The long run still plays: more games come, none lost by a crash.
    let end = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while rows_in(&games) < before + 3 {
        assert!(
            std::time::Instant::now() < end,
            "the long run stopped playing"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(child.id() as i32),
        nix::sys::signal::Signal::SIGINT,
    )
    .unwrap();
    child.wait().unwrap();
    let crashes: Vec<String> = rows(&games)
        .into_iter()
        .filter(|g| g["termination"] == "crash")
        .map(|g| g["detail"].clone())
        .collect();
    assert!(crashes.is_empty(), "{crashes:?}");
}
