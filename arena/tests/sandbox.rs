//! The sandbox (`sandbox = true`) tried as an attacker would: real
//! sandboxed bots (`test-bots/src/bin/escape.rs`) each try one escape per
//! argument and log what they could do, then play their games. Every
//! promise of `docs/sandbox.md` has an attempt here, and a few attempts
//! that must work (the bot's own `/tmp` and writable folder) show that the
//! bot really ran them.
//!
//! These tests need bubblewrap (Debian's `bubblewrap`) and user namespaces.
//! Without bubblewrap they say SKIPPED, unless `ENDODOI_REQUIRE_BWRAP=1`
//! (as `.ci/run` sets), which makes a skip a failure. The run as an
//! ordinary user needs root to switch to one; as any other user, the first
//! run already is one.

#![cfg(target_os = "linux")]

mod common;

use std::os::unix::fs::{chown, PermissionsExt};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::{assert_contains, rows, stderr_of, stdout_of};

/// A new temporary folder that other users may enter (mode 755), as a
/// sandboxed bot's folder needs, or `None` without bubblewrap (see
/// [`bubblewrap`]: the test then returns).
fn sandbox_folder() -> Option<tempfile::TempDir> {
    if !bubblewrap() {
        return None;
    }
    let tmp = tempfile::tempdir().unwrap();
    std::fs::set_permissions(tmp.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    Some(tmp)
}

/// Whether bubblewrap is here; `false` after saying SKIPPED, or a panic
/// when `ENDODOI_REQUIRE_BWRAP=1`. Where the platform has no sandbox (the
/// `portable-unix` build), `false` once its refusal is checked: `sandbox =
/// true` stops `arena run`, and `arena check --sandbox`, in one line.
fn bubblewrap() -> bool {
    if !arena::platform::SANDBOX {
        common::refused_by_platform("sandbox = true", arena::platform::NO_SANDBOX);
        let output = Command::new(env!("CARGO_BIN_EXE_arena"))
            .args(["check", "--sandbox", "--", "arena", "bot", "random"])
            .output()
            .unwrap();
        let stderr = stderr_of(&output);
        assert!(!output.status.success(), "{stderr}");
        assert_contains(&stderr, arena::platform::NO_SANDBOX);
        return false;
    }
    if arena::bot::spawn::bubblewrap().is_some() {
        return true;
    }
    assert_ne!(
        std::env::var("ENDODOI_REQUIRE_BWRAP").as_deref(),
        Ok("1"),
        "bubblewrap (bwrap) is not installed, and ENDODOI_REQUIRE_BWRAP=1 requires the sandbox tests"
    );
    common::skipped("bubblewrap (bwrap) is not installed; .ci/run installs Debian's bubblewrap");
    false
}

fn is_root() -> bool {
    nix::unistd::geteuid().is_root()
}

/// The uid the sandboxed bots run as on the host when the arena runs as
/// root: `sandbox_user`'s default, nobody.
const NOBODY: u32 = 65534;
/// The ordinary user the arena runs as in the second run (no such user
/// needs to exist).
const ORDINARY: u32 = 4242;

fn built(name: &str) -> PathBuf {
    let path = Path::new(env!("CARGO_BIN_EXE_arena"))
        .parent()
        .unwrap()
        .join(name);
    assert!(
        path.exists(),
        "{} is missing: run cargo build -p endodoi-test-bots",
        path.display()
    );
    path
}

/// Makes `path` (a folder or file) and what is in it owned by `uid` and
/// open to others (0755 / 0644, executables 0755), as an organiser's
/// deployed bots would be.
fn hand_over(path: &Path, uid: Option<u32>) {
    let meta = std::fs::metadata(path).unwrap();
    let mode = if meta.is_dir() || meta.permissions().mode() & 0o100 != 0 {
        0o755
    } else {
        0o644
    };
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
    if let Some(uid) = uid {
        chown(path, Some(uid), Some(uid)).unwrap();
    }
    if meta.is_dir() {
        for entry in std::fs::read_dir(path).unwrap() {
            hand_over(&entry.unwrap().path(), uid);
        }
    }
}

/// One attempt and whether it must work (a control) or fail.
struct Attempt {
    arg: String,
    must_work: bool,
}

fn fails(arg: impl Into<String>) -> Attempt {
    Attempt {
        arg: arg.into(),
        must_work: false,
    }
}

fn works(arg: impl Into<String>) -> Attempt {
    Attempt {
        arg: arg.into(),
        must_work: true,
    }
}

/// The tournament of two escaping bots, laid out under `root`, as the
/// organiser `as_user` (`None`: the test's own user) would run it.
struct EscapeRun {
    root: PathBuf,
    config: PathBuf,
    out: PathBuf,
    attempts: Vec<(&'static str, Vec<Attempt>)>,
    listener: std::net::TcpListener,
    _unix: std::os::unix::net::UnixListener,
}

const SECRET_VAR: &str = "ENDODOI_SANDBOX_TEST_SECRET";

impl EscapeRun {
    fn new(root: &Path, bots_owner: Option<u32>) -> EscapeRun {
        let root = root.to_path_buf();
        let home = root.join("home");
        std::fs::create_dir_all(&home).unwrap();
        // Readable by anyone on the host: only the sandbox's view hides it.
        std::fs::write(home.join("secret.txt"), "organiser's secret\n").unwrap();
        let out = root.join("run");
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let port = listener.local_addr().unwrap().port();
        static RUNS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let unix_name = format!(
            "endodoi-sandbox-test-{}-{}",
            std::process::id(),
            RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
        );
        let unix = {
            use std::os::linux::net::SocketAddrExt;
            let addr = std::os::unix::net::SocketAddr::from_abstract_name(&unix_name).unwrap();
            std::os::unix::net::UnixListener::bind_addr(&addr).unwrap()
        };
        let test_pid = std::process::id();
        let p = |rel: &str| root.join(rel).display().to_string();
        let a = vec![
            fails("read=/etc/shadow"),
            fails(format!("read={}", p("home/secret.txt"))),
            fails("list=/root"),
            fails("list=/home"),
            fails(format!("list={}", p("bots/b"))),
            fails(format!("list={}", p("run"))),
            fails(format!("write={}", p("home/escaped-a"))),
            fails(format!("write={}", p("bots/b/escaped-a"))),
            fails(format!("write={}", p("run/escaped-a"))),
            fails("write=/usr/escaped-a"),
            fails("write=/etc/escaped-a"),
            fails("write=/escaped-a"),
            fails("write=/dev/escaped-a"),
            fails("mount"),
            fails("caps"),
            fails("seccomp"),
            fails("userns"),
            fails("setuid"),
            fails(format!("connect=127.0.0.1:{port}")),
            fails(format!("unix={unix_name}")),
            fails(format!("signal={test_pid}")),
            fails(format!("ptrace={test_pid}")),
            fails("ptrace=1"),
            fails("procs"),
            fails("forks=500"),
            fails("tty"),
            fails(format!("env={SECRET_VAR}")),
            // bubblewrap's own init runs as the bot's user: its environment
            // must not be the arena's either.
            fails("read=/proc/1/environ"),
            fails(format!("setid={}", p("bots/a/setid"))),
            // A nameless file (O_TMPFILE) linked into the writable folder.
            fails(format!("tmpfile={}:6755", p("bots/a/tmpfile-suid"))),
            fails(format!("tmpfile={}:2705", p("bots/a/tmpfile-sgid"))),
            fails("int80"),
            fails("x32"),
            fails("fill=/tmp/fill:40"),
            fails("fill=/dev/shm/fill:40"),
            // Controls: what the bot may do, so a refusal for a trivial
            // reason (the bot never ran) cannot pass as a sandbox.
            works("write=/tmp/control"),
            works("fill=/tmp/fill:8"),
            works(format!("write={}", p("bots/a/control-a"))),
            works(format!("read={}", p("bots/a/escape"))),
            works("whoami"),
        ];
        let b = vec![
            fails(format!("write={}", p("bots/b/control-b"))),
            fails(format!("list={}", p("bots/a"))),
            fails(format!("read={}", p("bots/a/escape"))),
            fails("read=/etc/shadow"),
            fails("caps"),
            works(format!("read={}", p("bots/b/escape"))),
        ];
        let mut text = String::from(
            "[time]\nstartup_ms = 30000\n\n[tournament]\nfirst_to = 1\nconcurrency = 1\n\n[limits]\nsandbox = true\nprocesses = 64\ntmp_mb = 16\n",
        );
        for (name, attempts) in [("a", &a), ("b", &b)] {
            let dir = root.join("bots").join(name);
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::copy(built("escape"), dir.join("escape")).unwrap();
            let mut command = vec!["./escape".to_string()];
            command.extend(attempts.iter().map(|t| t.arg.clone()));
            let command: Vec<String> = command.iter().map(|c| format!("{c:?}")).collect();
            text.push_str(&format!(
                "\n[[bot]]\nname = \"{name}\"\ncommand = [{}]\ndir = {:?}\n",
                command.join(", "),
                dir.display().to_string()
            ));
            if name == "a" {
                text.push_str("sandbox_rw = [\".\"]\n");
            }
        }
        let config = root.join("t.toml");
        std::fs::write(&config, text).unwrap();
        hand_over(&root.join("bots"), bots_owner);
        hand_over(&home, None);
        std::fs::set_permissions(&root, std::fs::Permissions::from_mode(0o755)).unwrap();
        EscapeRun {
            root,
            config,
            out,
            attempts: vec![("a", a), ("b", b)],
            listener,
            _unix: unix,
        }
    }

    /// Runs the tournament on a terminal (so that the bots have one to try),
    /// with a secret in the arena's environment, as `user` if given.
    fn run(&self, arena: &Path, user: Option<u32>) {
        let command = format!(
            "{} run {} --out {}",
            arena.display(),
            self.config.display(),
            self.out.display()
        );
        let mut script = Command::new("script");
        script
            .args(["-qec", &command, "/dev/null"])
            .env(SECRET_VAR, "hunter2")
            .env("HOME", self.root.join("home"))
            .current_dir(&self.root);
        if let Some(uid) = user {
            script.uid(uid).gid(uid);
        }
        let output = script
            .output()
            .expect("script (util-linux) runs a command on a terminal");
        assert!(
            output.status.success(),
            "{}{}",
            stdout_of(&output),
            stderr_of(&output)
        );
    }

    /// Checks every attempt's line in each bot's log, the host's files, the
    /// listeners, and that the games were played to their end.
    fn check(&self) {
        for (bot, attempts) in &self.attempts {
            let log =
                std::fs::read_to_string(self.out.join(format!("logs/{bot}.stderr.log"))).unwrap();
            for attempt in attempts {
                let prefix = format!("attempt {}: ", attempt.arg);
                let lines: Vec<&str> = log
                    .lines()
                    .filter_map(|l| l.split_once(' ').map(|(_, rest)| rest))
                    .filter(|l| l.starts_with(&prefix))
                    .collect();
                assert!(
                    !lines.is_empty(),
                    "bot {bot}: no line for {}\n{log}",
                    attempt.arg
                );
                for line in lines {
                    let escaped = line[prefix.len()..].starts_with("ESCAPED");
                    if attempt.must_work {
                        assert!(
                            escaped || attempt.arg == "whoami",
                            "bot {bot}: the control {} failed, so the bot did not run as it should: {line}",
                            attempt.arg
                        );
                    } else {
                        assert!(!escaped, "bot {bot} escaped: {line}");
                        assert!(line[prefix.len()..].starts_with("refused"), "{line}");
                    }
                }
            }
        }
        for stray in [
            "home/escaped-a",
            "bots/b/escaped-a",
            "run/escaped-a",
            "bots/b/control-b",
        ] {
            assert!(!self.root.join(stray).exists(), "{stray} was written");
        }
        for stray in [
            "/usr/escaped-a",
            "/etc/escaped-a",
            "/escaped-a",
            "/dev/escaped-a",
        ] {
            assert!(!Path::new(stray).exists(), "{stray} was written");
        }
        // x32 calls fail by the filter (EPERM), not only where the kernel
        // has no x32 (ENOSYS); i386 calls kill the process.
        let log = std::fs::read_to_string(self.out.join("logs/a.stderr.log")).unwrap();
        assert!(log.contains("attempt x32: refused (EPERM"), "{log}");
        assert!(
            log.contains("attempt int80: refused (child ended as Signaled"),
            "{log}"
        );
        // The nameless set-id files are refused by the filter (EPERM) at
        // the open, not for a lack of O_TMPFILE in the folder's filesystem.
        let tmpfiles: Vec<&str> = log
            .lines()
            .filter(|l| l.contains("attempt tmpfile="))
            .collect();
        assert!(!tmpfiles.is_empty(), "{log}");
        for line in tmpfiles {
            assert!(line.contains(": refused (open: EPERM"), "{line}");
        }
        // The control really wrote the writable folder of the host.
        assert!(self.root.join("bots/a/control-a").exists());
        assert!(
            self.listener.accept().is_err(),
            "a bot reached the test's TCP listener"
        );
        let games = rows(&self.out.join("games.csv"));
        assert!(!games.is_empty());
        for game in &games {
            assert!(
                ["no-moves", "ply-limit"].contains(&game["termination"].as_str()),
                "a sandboxed bot could not play: {game:?}"
            );
        }
    }
}

#[test]
fn every_escape_fails_and_the_bots_still_play() {
    if !bubblewrap() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    // As root the bots run as nobody, who must own the writable folder.
    let owner = is_root().then_some(NOBODY);
    let run = EscapeRun::new(tmp.path(), owner);
    run.run(Path::new(env!("CARGO_BIN_EXE_arena")), None);
    run.check();
    // The bots' ids: uid 1000 in the sandbox; on the host, nobody (as root)
    // or the arena's own user, as the file the control wrote shows.
    let log = std::fs::read_to_string(run.out.join("logs/a.stderr.log")).unwrap();
    assert!(
        log.contains("attempt whoami: refused (uid 1000 gid 1000"),
        "{log}"
    );
    let wrote = std::fs::metadata(run.root.join("bots/a/control-a")).unwrap();
    use std::os::unix::fs::MetadataExt;
    let expected = owner.unwrap_or_else(|| nix::unistd::geteuid().as_raw());
    assert_eq!(wrote.uid(), expected);
}

#[test]
fn every_escape_fails_for_an_arena_run_by_an_ordinary_user() {
    if !bubblewrap() {
        return;
    }
    if !is_root() {
        common::skipped("this user is already an ordinary one (the other test is this run)");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("organiser");
    std::fs::create_dir(&root).unwrap();
    let run = EscapeRun::new(&root, Some(ORDINARY));
    // The organiser's own copy of the arena, and a home it owns.
    let arena = root.join("arena");
    std::fs::copy(env!("CARGO_BIN_EXE_arena"), &arena).unwrap();
    std::fs::set_permissions(&arena, std::fs::Permissions::from_mode(0o755)).unwrap();
    for owned in [&root, &root.join("home")] {
        chown(owned, Some(ORDINARY), Some(ORDINARY)).unwrap();
    }
    std::fs::set_permissions(tmp.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    run.run(&arena, Some(ORDINARY));
    run.check();
    use std::os::unix::fs::MetadataExt;
    let wrote = std::fs::metadata(run.root.join("bots/a/control-a")).unwrap();
    assert_eq!(wrote.uid(), ORDINARY);
}

/// A copy of the repository's file `from` in a folder of its own under
/// `root`, deployed for the sandbox's host user.
fn deploy(root: &Path, name: &str, files: &[PathBuf]) -> PathBuf {
    let dir = root.join(name);
    std::fs::create_dir_all(&dir).unwrap();
    for file in files {
        std::fs::copy(file, dir.join(file.file_name().unwrap())).unwrap();
    }
    hand_over(&dir, is_root().then_some(NOBODY));
    dir
}

#[test]
fn python_node_compiled_and_bundled_bots_play_a_tournament_in_the_sandbox() {
    if !bubblewrap() {
        return;
    }
    let node = which::which("node").is_ok();
    if !node {
        assert_ne!(
            std::env::var("ENDODOI_REQUIRE_NODE").as_deref(),
            Ok("1"),
            "node is not on PATH, and ENDODOI_REQUIRE_NODE=1 requires the sandboxed Node bot"
        );
        common::skipped("the Node bot only: node is not on PATH");
    }
    let tmp = tempfile::tempdir().unwrap();
    std::fs::set_permissions(tmp.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let repo = common::repo();
    let mut bots: Vec<(&str, Vec<&str>, PathBuf)> = vec![
        (
            "python",
            vec!["python3", "greedy.py"],
            deploy(tmp.path(), "py", &[repo.join("bots/python/greedy.py")]),
        ),
        (
            "compiled",
            vec!["./escape"],
            // Its dir given through a link, as /srv/bots -> /data/bots.
            {
                let real = deploy(tmp.path(), "c", &[built("escape")]);
                let link = tmp.path().join("c-link");
                std::os::unix::fs::symlink(&real, &link).unwrap();
                link
            },
        ),
        (
            "bundled",
            vec!["arena", "bot", "random", "--seed", "3"],
            deploy(tmp.path(), "r", &[]),
        ),
    ];
    if node {
        bots.push((
            "node",
            vec!["node", "greedy.js"],
            deploy(tmp.path(), "js", &[repo.join("bots/js/greedy.js")]),
        ));
    }
    let mut text = String::from("[tournament]\nfirst_to = 2\n\n[limits]\nsandbox = true\n");
    for (name, command, dir) in &bots {
        let command: Vec<String> = command.iter().map(|c| format!("{c:?}")).collect();
        text.push_str(&format!(
            "\n[[bot]]\nname = \"{name}\"\ncommand = [{}]\ndir = {:?}\n",
            command.join(", "),
            dir.display().to_string()
        ));
    }
    let (out, _) = common::run_text_in(tmp.path(), &text);
    let games = rows(&out.join("games.csv"));
    let series = rows(&out.join("series.csv"));
    assert_eq!(series.len(), bots.len() * (bots.len() - 1) / 2);
    for game in &games {
        assert!(
            ["no-moves", "ply-limit"].contains(&game["termination"].as_str()),
            "{game:?}"
        );
    }
    for (name, _, _) in &bots {
        assert!(
            games
                .iter()
                .any(|g| g["south"] == *name || g["north"] == *name),
            "{name} played no game"
        );
    }
}

/// A `sandbox_ro` line naming `path`.
fn ro(path: &Path) -> String {
    format!("sandbox_ro = [{:?}]\n", path.display().to_string())
}

/// `arena run` of `config` (a header and bots) in `tmp`: its stderr, after
/// checking that it refused with exit code 2.
fn refused(tmp: &Path, config: &str) -> String {
    let cfg = tmp.join("t.toml");
    std::fs::write(&cfg, config).unwrap();
    let output = common::run_arena(&cfg, &tmp.join("run"));
    let stderr = stderr_of(&output);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
    assert!(!tmp.join("run/games.csv").exists());
    stderr
}

#[test]
fn a_sandbox_that_would_not_hold_is_refused_before_any_game() {
    let Some(tmp) = sandbox_folder() else {
        return;
    };
    let t = tmp.path();
    let escape = built("escape");
    let a = deploy(t, "a", std::slice::from_ref(&escape));
    let other = deploy(t, "other", &[escape]);
    let bot = |name: &str, dir: &Path, extra: &str| {
        format!(
            "\n[[bot]]\nname = \"{name}\"\ncommand = [\"./escape\"]\ndir = {:?}\n{extra}",
            dir.display().to_string()
        )
    };
    let head = "[limits]\nsandbox = true\n";
    let random =
        "\n[[bot]]\nname = \"r\"\ncommand = [\"arena\", \"bot\", \"random\"]\nsandbox = false\n";
    // Bot x alone in the sandbox (with the unsandboxed r), or x and y.
    let alone = |dir: &Path, extra: &str| format!("{head}{}{random}", bot("x", dir, extra));
    let pair = |x_dir: &Path, x_extra: &str, y_dir: &Path, y_extra: &str| {
        format!(
            "{head}{}{}",
            bot("x", x_dir, x_extra),
            bot("y", y_dir, y_extra)
        )
    };

    // A program the sandbox does not show.
    let outside = format!(
        "{head}\n[[bot]]\nname = \"o\"\ncommand = [{:?}]\ndir = {:?}\n{random}",
        other.join("escape").display().to_string(),
        a.display().to_string()
    );
    assert!(refused(t, &outside).contains("is outside the sandbox"));

    // Two bots in one folder, one of which may write it.
    let shared = pair(&a, "sandbox_rw = [\".\"]\n", &a, "");
    assert!(refused(t, &shared).contains("would see bot"));

    // A bot whose view holds another bot's folder.
    let parent = pair(&a, &ro(t), &other, "");
    let e = refused(t, &parent);
    assert!(
        e.contains("run folder") || e.contains("would see bot"),
        "{e}"
    );

    // A link the bot could have made in its writable folder, to the host.
    let planted = deploy(t, "planted", &[built("escape")]);
    std::os::unix::fs::symlink(t.join("other"), planted.join("state")).unwrap();
    let e = refused(t, &alone(&planted, "sandbox_rw = [\".\", \"state\"]\n"));
    assert_contains(&e, "in the bot's folder, which its author made");

    // A link the bot's author put in its folder, named in sandbox_ro: to
    // another bot's folder, or to the host's /proc.
    let author = deploy(t, "author", &[built("escape")]);
    std::os::unix::fs::symlink(other.join("escape"), author.join("weights")).unwrap();
    std::os::unix::fs::symlink("/proc", author.join("hostproc")).unwrap();
    for link in ["weights", "hostproc"] {
        let e = refused(
            t,
            &pair(&author, &format!("sandbox_ro = [\"{link}\"]\n"), &other, ""),
        );
        assert_contains(&e, "in the bot's folder, which its author made");
    }
    // A link in another bot's folder, named by this one: that bot's author
    // points it where they like.
    let e = refused(t, &pair(&a, &ro(&author.join("weights")), &author, ""));
    assert_contains(&e, "in bot 'y''s folder");
    // The host's /proc, /sys, /dev or /run, named outright.
    let e = refused(t, &alone(&a, "sandbox_ro = [\"/proc\"]\n"));
    assert_contains(&e, "system folder");
    // A path inside another bot's folder.
    let e = refused(t, &pair(&a, &ro(&other.join("escape")), &other, ""));
    assert_contains(&e, "in bot 'y''s folder");
    // A path shown on top of a folder the bot may write (it could rename
    // what is there and put a link in its place).
    std::fs::create_dir_all(planted.join("models")).unwrap();
    let e = refused(
        t,
        &alone(
            &planted,
            "sandbox_rw = [\".\"]\nsandbox_ro = [\"models\"]\n",
        ),
    );
    assert_contains(&e, "which the bot may write");
    // A run folder that does not exist yet, inside a bot's folder: through
    // `..`, or through a link.
    std::os::unix::fs::symlink(&a, t.join("a-link")).unwrap();
    let cfg = t.join("t.toml");
    std::fs::write(&cfg, alone(&a, "")).unwrap();
    for out in [t.join("nowhere/../a/run"), t.join("a-link/run")] {
        let output = common::run_arena(&cfg, &out);
        let stderr = stderr_of(&output);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert_contains(&stderr, "would see the run folder");
        assert!(!a.join("run/games.csv").exists());
    }

    // One bot's writable folder on the way to what another sees: it could
    // swap what is there for a link between the other's starts.
    let shared = t.join("shared");
    std::fs::create_dir_all(shared.join("model")).unwrap();
    hand_over(&shared, is_root().then_some(NOBODY));
    std::os::unix::fs::symlink(&other, shared.join("other-link")).unwrap();
    let writer = format!("sandbox_rw = [{:?}]\n", shared.display().to_string());
    for (victim_dir, victim_extra) in [
        (shared.join("other-link"), String::new()),
        (other.clone(), ro(&shared.join("model"))),
        (other.clone(), writer.clone()),
    ] {
        let e = refused(t, &pair(&a, &writer, &victim_dir, &victim_extra));
        assert_contains(&e, "which bot 'x' may write");
    }

    // A sandbox setting on a bot that is not sandboxed.
    let unsandboxed = format!(
        "{}{random}",
        bot("x", &a, "sandbox = false\nsandbox_ro = [\"/opt\"]\n")
    );
    assert!(refused(t, &unsandboxed).contains("applies only in the sandbox"));

    // A sandboxed bot without a folder of its own.
    let no_dir = format!(
        "{head}\n[[bot]]\nname = \"x\"\ncommand = [\"arena\", \"bot\", \"random\"]\n{random}"
    );
    let e = refused(t, &no_dir);
    assert!(
        e.contains("t.toml:") && e.contains("has no dir"),
        "the bot's line is named: {e}"
    );
    // Without --out, the folder made for the run is taken back.
    let output = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(["run", "t.toml"])
        .current_dir(t)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let left: Vec<_> = std::fs::read_dir(t.join("results"))
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    assert!(left.is_empty(), "{left:?}");

    if is_root() {
        // A writable folder that nobody, as whom the bot runs, cannot write.
        let locked = t.join("locked");
        std::fs::create_dir(&locked).unwrap();
        std::fs::copy(built("escape"), locked.join("escape")).unwrap();
        let e = refused(t, &alone(&locked, "sandbox_rw = [\".\"]\n"));
        assert_contains(&e, "cannot write");
        // A folder nobody cannot reach.
        let hidden = t.join("hidden");
        std::fs::create_dir(&hidden).unwrap();
        let inner = deploy(&hidden, "bot", &[built("escape")]);
        std::fs::set_permissions(&hidden, std::fs::Permissions::from_mode(0o700)).unwrap();
        let e = refused(t, &alone(&inner, ""));
        assert_contains(&e, "cannot reach");
        // A host user that is root, or unknown.
        let e = refused(
            t,
            &format!(
                "{head}sandbox_user = \"root\"\n{}{random}",
                bot("x", &a, "")
            ),
        );
        assert_contains(&e, "is root");
        let e = refused(
            t,
            &format!(
                "{head}sandbox_user = \"no-such-user-here\"\n{}{random}",
                bot("x", &a, "")
            ),
        );
        assert_contains(&e, "not a user");
    }
}

/// A `bwrap` first on `PATH` that runs `script` (a shell body; `"$@"` is
/// what the arena asked bubblewrap to run).
fn fake_bubblewrap(dir: &Path, script: &str) -> std::ffi::OsString {
    let bin = dir.join("fake-bin");
    std::fs::create_dir_all(&bin).unwrap();
    let path = bin.join("bwrap");
    std::fs::write(&path, format!("#!/bin/sh\n{script}\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    hand_over(&bin, None);
    let mut search = bin.into_os_string();
    search.push(":");
    search.push(std::env::var_os("PATH").unwrap_or_default());
    search
}

#[test]
fn a_host_that_cannot_isolate_is_refused_before_any_game() {
    if !arena::platform::SANDBOX {
        common::refused_by_platform("sandbox = true", arena::platform::NO_SANDBOX);
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    std::fs::set_permissions(t, std::fs::Permissions::from_mode(0o755)).unwrap();
    let a = deploy(t, "a", &[built("escape")]);
    let cfg = t.join("t.toml");
    std::fs::write(
        &cfg,
        format!(
            "[[bot]]\nname = \"x\"\ncommand = [\"./escape\"]\ndir = {:?}\nsandbox = true\n\n[[bot]]\nname = \"r\"\ncommand = [\"arena\", \"bot\", \"random\"]\n",
            a.display().to_string()
        ),
    )
    .unwrap();
    let run = |path: &std::ffi::OsStr| {
        let output = Command::new(env!("CARGO_BIN_EXE_arena"))
            .args(["run", "t.toml", "--out", "run"])
            .current_dir(t)
            .env("PATH", path)
            .output()
            .unwrap();
        let stderr = stderr_of(&output);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
        assert!(!t.join("run/games.csv").exists());
        stderr
    };
    // A kernel without unprivileged user namespaces, as bubblewrap says it.
    let no_userns = fake_bubblewrap(
        t,
        "echo 'bwrap: No permissions to create new namespace, likely because the kernel does not allow non-privileged user namespaces.' >&2; exit 1",
    );
    let e = run(&no_userns);
    assert_contains(&e, "cannot give the sandbox's isolation");
    assert_contains(&e, "unprivileged user namespaces");
    // A bubblewrap that isolates nothing, running the confine step on the
    // host: the step's own check refuses to start the bot.
    let t2 = t.join("second");
    std::fs::create_dir(&t2).unwrap();
    let none = fake_bubblewrap(
        &t2,
        "while [ \"$1\" != \"--\" ]; do shift; done; shift; exec \"$@\"",
    );
    let e = run(&none);
    assert_contains(&e, "not isolated as promised");
}

#[test]
fn a_bot_author_checks_a_bot_in_the_sandbox() {
    let Some(tmp) = sandbox_folder() else {
        return;
    };
    let dir = deploy(
        tmp.path(),
        "py",
        &[common::repo().join("bots/python/greedy.py")],
    );
    let log = tmp.path().join("check.log");
    let output = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(["check", "--sandbox", "--log"])
        .arg(&log)
        .args(["--", "python3", "greedy.py"])
        .current_dir(&dir)
        .output()
        .unwrap();
    common::assert_success(&output);
    let stdout = stdout_of(&output);
    assert_contains(&stdout, "all 9 checks passed");
    // The same bot, told to write its folder, cannot: it is read-only.
    std::fs::write(
        dir.join("writer.py"),
        "open('mine.txt', 'w').write('x')\nexec(open('greedy.py').read())\n",
    )
    .unwrap();
    hand_over(&dir, is_root().then_some(NOBODY));
    let output = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(["check", "--sandbox", "--", "python3", "writer.py"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(!output.status.success());
    assert!(!dir.join("mine.txt").exists());
}

#[test]
fn kill_9_of_the_arena_takes_every_sandbox_down() {
    let Some(tmp) = sandbox_folder() else {
        return;
    };
    let marker = tmp.path().display().to_string();
    let mut text = String::from(
        "[tournament]\nfirst_to = 100000\nmax_games = 300000\nconcurrency = 2\n\n[limits]\nsandbox = true\n",
    );
    // Each bot leaves a child behind in its sandbox before it plays.
    for name in ["a", "b"] {
        let dir = deploy(tmp.path(), name, &[built("fault-grandchild")]);
        text.push_str(&format!(
            "\n[[bot]]\nname = \"{name}\"\ncommand = [\"./fault-grandchild\", \"--keep-playing\"]\ndir = {:?}\n",
            dir.display().to_string()
        ));
    }
    let cfg = tmp.path().join("t.toml");
    std::fs::write(&cfg, text).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_arena"))
        .arg("run")
        .arg(&cfg)
        .arg("--out")
        .arg(tmp.path().join("run"))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let _stderr = common::after_first_game(&mut child);
    assert!(
        !common::leftovers(&marker, &[]).is_empty(),
        "no sandbox to take down"
    );
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(child.id() as i32),
        nix::sys::signal::Signal::SIGKILL,
    )
    .unwrap();
    child.wait().unwrap();
    let end = std::time::Instant::now() + std::time::Duration::from_secs(5);
    while !common::leftovers(&marker, &[]).is_empty() && std::time::Instant::now() < end {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let left = common::leftovers(&marker, &[]);
    assert!(left.is_empty(), "processes left behind: {left:?}");
}

/// The `attempt environ:` line of `bot`'s log in the run folder `out`: its
/// variables, `/proc/self/environ` and its parent's.
fn environ_line(out: &Path, bot: &str) -> String {
    let log = std::fs::read_to_string(out.join(format!("logs/{bot}.stderr.log"))).unwrap();
    log.lines()
        .find_map(|l| {
            l.split_once("attempt environ: ")
                .map(|(_, rest)| rest.to_string())
        })
        .unwrap_or_else(|| panic!("bot {bot} logged no environ line:\n{log}"))
}

/// Every file under `dir` but `skip`, read whole (lossily).
fn all_text(dir: &Path, skip: &Path) -> String {
    let mut text = String::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            text.push_str(&all_text(&path, skip));
        } else if path != skip {
            text.push_str(&String::from_utf8_lossy(&std::fs::read(&path).unwrap()));
        }
    }
    text
}

#[test]
fn a_sandboxed_bot_sees_its_env_and_nothing_of_the_arenas() {
    const SECRET: &str = "ENDODOI_SECRET";
    const VALUE: &str = "s3cr3t-7d1e-do-not-leak";
    let Some(tmp) = sandbox_folder() else {
        return;
    };
    let owner = is_root().then_some(NOBODY);
    let mut text = String::from("[tournament]\nfirst_to = 1\nconcurrency = 1\n");
    for (name, sandboxed) in [("boxed", true), ("open", false)] {
        let dir = tmp.path().join("bots").join(name);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::copy(built("escape"), dir.join("escape")).unwrap();
        // A writable folder too, where a bot could leave what it found.
        text.push_str(&format!(
            "\n[[bot]]\nname = \"{name}\"\ncommand = [\"./escape\", \"environ\"]\ndir = {:?}\nsandbox = {sandboxed}\nenv = {{ BOT_DEPTH = \"7\", LANG = \"C\" }}\n{}",
            dir.display().to_string(),
            if sandboxed { "sandbox_rw = [\".\"]\n" } else { "" }
        ));
    }
    hand_over(&tmp.path().join("bots"), owner);
    let config = tmp.path().join("t.toml");
    std::fs::write(&config, text).unwrap();
    let out = tmp.path().join("run");
    let status = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(["run", "--quiet"])
        .arg(&config)
        .arg("--out")
        .arg(&out)
        .env(SECRET, VALUE)
        .status()
        .unwrap();
    assert!(status.success());

    let boxed = environ_line(&out, "boxed");
    assert!(!boxed.contains(VALUE), "the secret leaked: {boxed}");
    assert!(!boxed.contains(SECRET), "the secret's name leaked: {boxed}");
    // Exactly the sandbox's documented variables (bubblewrap adds PWD, the
    // bot's dir) and the bot's own, which replaces the sandbox's LANG.
    let vars = boxed
        .strip_prefix("refused (vars: ")
        .and_then(|v| v.split_once(';'))
        .map(|(v, _)| v)
        .unwrap_or_else(|| panic!("{boxed}"));
    let mut names: Vec<&str> = vars
        .split(' ')
        .filter_map(|w| w.split_once('='))
        .map(|(k, _)| k)
        .collect();
    names.sort_unstable();
    let mut expected: Vec<&str> = arena::sandbox::ENV.iter().map(|(k, _)| *k).collect();
    expected.extend(["BOT_DEPTH", "PWD"]);
    expected.sort_unstable();
    assert_eq!(names, expected, "{boxed}");
    assert!(
        vars.contains("BOT_DEPTH=7") && vars.contains("LANG=C "),
        "{boxed}"
    );
    assert!(
        boxed.contains("self: PATH="),
        "/proc/self/environ was not read: {boxed}"
    );
    // Nothing of it anywhere the sandboxed bot could write, or in the run
    // folder but the unsandboxed bot's log.
    for dir in [tmp.path().join("bots/boxed"), out.clone()] {
        let text = all_text(&dir, &out.join("logs/open.stderr.log"));
        assert!(!text.contains(VALUE), "the secret is in {}", dir.display());
    }

    // Unsandboxed, a bot gets the arena's environment with its env on top,
    // as docs/sandbox.md says: the control that the secret was there.
    let open = environ_line(&out, "open");
    assert_contains(&open, &format!("{SECRET}={VALUE}"));
    assert_contains(&open, "BOT_DEPTH=7");
}

#[test]
fn a_pinned_sandboxed_bot_cannot_widen_its_cpu_set() {
    let Some(tmp) = sandbox_folder() else {
        return;
    };
    // Each series worker, and the bots it starts, pinned to one core.
    let mut text = String::from("[tournament]\nfirst_to = 1\nconcurrency = 1\naffinity = true\n");
    for (name, sandboxed) in [("boxed", true), ("open", false)] {
        let dir = deploy(tmp.path(), name, &[built("escape")]);
        text.push_str(&format!(
            "\n[[bot]]\nname = \"{name}\"\ncommand = [\"./escape\", \"affinity\"]\ndir = {:?}\nsandbox = {sandboxed}\n",
            dir.display().to_string()
        ));
    }
    let (out, _) = common::run_text_in(tmp.path(), &text);
    // What each start of `bot` said of its attempt.
    let said = |bot: &str| -> Vec<String> {
        let log = std::fs::read_to_string(out.join(format!("logs/{bot}.stderr.log"))).unwrap();
        log.lines()
            .filter_map(|l| {
                l.split_once("attempt affinity: ")
                    .map(|(_, r)| r.to_string())
            })
            .collect()
    };
    let boxed = said("boxed");
    assert!(!boxed.is_empty(), "the sandboxed bot never tried");
    for line in &boxed {
        assert!(
            line.starts_with("refused (sched_setaffinity: EPERM"),
            "{line}"
        );
    }
    // Its start for the game was pinned: one CPU it could not widen.
    assert!(
        boxed
            .iter()
            .any(|l| l.contains("; CPUs: 1 before, 1 after")),
        "{boxed:?}"
    );
    // Unsandboxed, nothing refuses it (as docs/sandbox.md says): the
    // control that the attempt widens a pinned set on this host.
    if arena::affinity::allowed_cores().len() > 1 {
        let open = said("open");
        assert!(
            open.iter()
                .any(|l| l.starts_with("ESCAPED (widened its CPU set: CPUs: 1 before")),
            "{open:?}"
        );
    }
}

#[test]
fn no_command_line_on_the_host_shows_a_sandboxed_bots_env_or_sandbox() {
    if !bubblewrap() {
        return;
    }
    use std::hash::{BuildHasher, Hasher};
    const SECRET: &str = "ENDODOI_SECRET_X";
    let random = std::collections::hash_map::RandomState::new()
        .build_hasher()
        .finish();
    let value = format!("s3cr3t-{random:016x}");
    let tmp = tempfile::tempdir().unwrap();
    std::fs::set_permissions(tmp.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let boxed = deploy(tmp.path(), "boxed", &[built("escape")]);
    let scanner = deploy(tmp.path(), "scanner", &[built("escape")]);
    // The scanner looks for the secret, and lists the command lines that
    // hold the sandboxed bot's program, both given in hex: its own command
    // line must hold neither.
    let program = boxed.join("escape").display().to_string();
    let hex = |text: &str| -> String { text.bytes().map(|b| format!("{b:02x}")).collect() };
    let hex = format!("{}:{}", hex(&value), hex(&program));
    // The unsandboxed scanner, on the host, reads every process's command
    // line at its first turn, while the sandboxed bot plays against it.
    let text = format!(
        "[tournament]\nfirst_to = 1\nconcurrency = 1\n\n[[bot]]\nname = \"boxed\"\ncommand = [\"./escape\", \"env={SECRET}\"]\ndir = {:?}\nsandbox = true\nenv = {{ {SECRET} = \"{value}\" }}\n\n[[bot]]\nname = \"scanner\"\ncommand = [\"./escape\", \"cmdline={hex}\"]\ndir = {:?}\n",
        boxed.display().to_string(),
        scanner.display().to_string()
    );
    let (out, _) = common::run_text_in(tmp.path(), &text);
    let said = |bot: &str, attempt: &str| -> Vec<String> {
        let log = std::fs::read_to_string(out.join(format!("logs/{bot}.stderr.log"))).unwrap();
        let prefix = format!("attempt {attempt}: ");
        log.lines()
            .filter_map(|l| l.split_once(&prefix).map(|(_, r)| r.to_string()))
            .collect()
    };
    // The control: the sandboxed bot got its variable.
    let env = said("boxed", &format!("env={SECRET}"));
    assert!(!env.is_empty(), "the sandboxed bot never ran");
    for line in &env {
        let set = format!("ESCAPED ({SECRET} is set, {} bytes)", value.len());
        assert_eq!(line, &set);
    }
    let scans = said("scanner", &format!("cmdline={hex}"));
    assert!(!scans.is_empty(), "the scanner never played");
    for line in &scans {
        assert!(line.starts_with("refused ("), "the secret leaked: {line}");
    }
    // The scan saw the sandboxed bot's guard and bubblewrap running, and
    // no command line of its shows a sandbox setting.
    let seen = |line: &String, word: &str| line.contains(&format!("[{word} "));
    let bwrap = which::which("bwrap").unwrap().display().to_string();
    assert!(
        scans
            .iter()
            .any(|l| seen(l, &bwrap) && l.contains(" guard ")),
        "the scan saw no sandbox of the bot: {scans:?}"
    );
    for line in &scans {
        // (The variable's name is on them: the bot's own attempt names it.)
        for detail in ["--setenv", "--ro-bind", "--bind", "--tmpfs", "--sandbox="] {
            assert!(!line.contains(detail), "{detail} on a command line: {line}");
        }
    }
    // Nor in the logs (the run's copy of its config holds it, as the
    // config does).
    let text = all_text(&out, &out.join("config.toml"));
    assert!(!text.contains(&value), "the secret is in the run folder");
}

#[test]
fn arena_check_sandbox_names_a_missing_program_as_the_command_after_the_dashes() {
    if !bubblewrap() {
        return;
    }
    let output = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(["check", "--sandbox", "--", "no-such-program-here"])
        .output()
        .unwrap();
    let stderr = stderr_of(&output);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.starts_with("error: program 'no-such-program-here' is not found"),
        "{stderr}"
    );
    assert_contains(&stderr, "fix the command after --");
    assert!(!stderr.contains("bot 'bot'"), "{stderr}");
}
