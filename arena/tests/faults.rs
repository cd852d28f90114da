//! The fault bots of `test-bots/` (package endodoi-test-bots) against the
//! real arena binary: every fault loses with its exact reason, the
//! tournament completes, and no process is left behind, after a normal end,
//! Ctrl-C, or `kill -9` of the arena. `cargo test --workspace` builds the
//! fault bots; alone, build them first with `cargo build -p endodoi-test-bots`.

// Unix only: the Unix fault bots of test-bots/, signals and the process table (docs/platforms.md, Windows).
#![cfg(unix)]

mod common;

use std::collections::HashMap;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use nix::sys::signal::{kill, Signal};
use nix::unistd::Pid;

use common::{
    arena_bot, assert_contains, assert_none_left, assert_same_files, assert_success, config,
    games_counted, games_without_timing, leftovers, rows, run_arena, run_in, run_to, stderr_of,
    stdout_of, temp_config, SUMMARY_FILES,
};

/// The arena, without RUST_BACKTRACE: a bot at its memory limit that
/// panics would spend its move time printing a backtrace.
fn arena_command() -> Command {
    let mut command = Command::new(arena());
    command.env_remove("RUST_BACKTRACE");
    command
}

fn arena() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_arena"))
}

/// A copy of fault bot `name` inside `dir`, so its command line carries a
/// marker to look for afterwards.
fn fault_bot(dir: &Path, name: &str) -> String {
    let built = arena().parent().unwrap().join(name);
    assert!(
        built.exists(),
        "{} is missing: run cargo build -p endodoi-test-bots",
        built.display()
    );
    let copy = dir.join(name);
    if !copy.exists() {
        std::fs::copy(&built, &copy).unwrap();
    }
    copy.display().to_string()
}

/// `/proc/PID/stat` of each leftover, for a failure message.
fn describe(left: &[String]) -> String {
    left.iter()
        .map(|l| {
            let pid = l.split(':').next().unwrap_or("");
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
            format!("{l} [stat: {}]", stat.trim())
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// Waits up to `limit` for `condition`, checking every few ms: for effects in
/// other processes that no pipe tells us about (a process disappearing).
fn eventually(limit: Duration, mut condition: impl FnMut() -> bool) -> bool {
    let end = Instant::now() + limit;
    while Instant::now() < end {
        if condition() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    condition()
}

fn pids_in(file: &Path) -> Vec<i32> {
    std::fs::read_to_string(file)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.trim().parse().ok())
        .collect()
}

#[test]
fn half_the_bots_misbehave_and_every_forfeit_is_attributed() {
    let tmp = tempfile::tempdir().unwrap();
    let marker = tmp.path().display().to_string();
    let f = |name: &str, args: &[&str]| {
        let mut v = vec![fault_bot(tmp.path(), name)];
        v.extend(args.iter().map(|s| s.to_string()));
        v
    };
    let bots = [
        ("random", arena_bot("random", 1)),
        (
            "greedy",
            vec!["arena".into(), "bot".into(), "greedy".into()],
        ),
        ("stderr-flood", f("fault-stderr-flood", &[])),
        ("ignore-term", f("fault-ignore-term", &[])),
        ("slow", f("fault-slow", &["--delay-ms", "5"])),
        ("crash", f("fault-crash", &[])),
        ("hang", f("fault-hang", &[])),
        ("nonewline", f("fault-nonewline", &[])),
        ("junk", f("fault-junk", &[])),
        ("grandchild", f("fault-grandchild", &[])),
        ("escaper", f("fault-grandchild", &["--own-group"])),
        ("endless", f("fault-endless", &[])),
        ("unsolicited", f("fault-unsolicited", &[])),
        ("alloc", f("fault-alloc", &[])),
    ];
    let expected: HashMap<&str, &str> = [
        ("crash", "crash"),
        ("hang", "timeout"),
        ("nonewline", "timeout"),
        ("junk", "protocol-error"),
        ("grandchild", "crash"),
        ("escaper", "crash"),
        ("endless", "illegal-move"),
        ("unsolicited", "protocol-error"),
        ("alloc", "crash"),
    ]
    .into_iter()
    .collect();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    // A second a move: the hanging bots still time out, and a well-behaved
    // one (the stderr flood) keeps its margin on a loaded machine, where
    // 300 ms was once too little.
    let header = format!(
        "[board]\nholes = 6\n[time]\nmove_time_ms = 1000\n[tournament]\nfirst_to = 1\nmax_games = 1\nconcurrency = {}\n",
        2 * cores
    );
    let cfg = config(tmp.path(), &header, &bots);
    // The last bot, alloc, gets a memory limit small enough to hit at once.
    let mut text = std::fs::read_to_string(&cfg).unwrap();
    text.push_str("memory_mb = 64\n");
    std::fs::write(&cfg, text).unwrap();
    let out = tmp.path().join("run");
    let pidfile = tmp.path().join("grandchildren.txt");
    let output = arena_command()
        .args(["run", "--quiet"])
        .arg(&cfg)
        .arg("--out")
        .arg(&out)
        .env("FAULT_PIDFILE", &pidfile)
        .output()
        .unwrap();
    assert_success(&output);

    let games = rows(&out.join("games.csv"));
    assert_eq!(
        games.len(),
        14 * 13 / 2,
        "one game per series, every series played"
    );
    assert_eq!(rows(&out.join("series.csv")).len(), 91);
    for g in &games {
        let (south, north) = (g["south"].as_str(), g["north"].as_str());
        let loser = match g["result"].as_str() {
            "south" => north,
            "north" => south,
            _ => continue, // a draw between two well-behaved bots
        };
        let termination = g["termination"].as_str();
        if expected.contains_key(south) || expected.contains_key(north) {
            assert_eq!(
                Some(&termination),
                expected.get(loser),
                "the loser is the bot at fault, for its fault: {g:?}"
            );
            assert!(g["detail"].contains(&format!("({loser})")), "{g:?}");
            if termination == "crash" {
                assert!(
                    g["detail"].contains("exit") || g["detail"].contains("closed"),
                    "{g:?}"
                );
            }
        } else {
            assert!(
                ["no-moves", "ply-limit"].contains(&termination),
                "well-behaved bots never forfeit: {g:?}"
            );
        }
    }
    let grandchildren = pids_in(&pidfile);
    assert!(
        !grandchildren.is_empty(),
        "the grandchild bot started its grandchild"
    );
    let left = leftovers(&marker, &grandchildren);
    if arena::platform::SUBREAPER {
        assert!(left.is_empty(), "processes left behind: {left:?}");
    } else {
        // Without a subreaper (macOS, the portable-unix build), a
        // grandchild in a process group of its own is out of the guard's
        // reach once its bot has exited (docs/platforms.md): the
        // escaper's may be left, and nothing else.
        only_escaped_grandchildren(&left, &grandchildren);
    }
}

/// Where the platform has no subreaper: asserts that every process of
/// `left` is one of `grandchildren` that leads a process group of its own
/// (so it left the bot's), and ends them.
fn only_escaped_grandchildren(left: &[String], grandchildren: &[i32]) {
    for line in left {
        let pid: i32 = line.split(':').next().unwrap().parse().unwrap();
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        let group = stat
            .rsplit_once(')')
            .map(|(_, r)| r.split_whitespace().nth(2));
        let _ = kill(Pid::from_raw(pid), Signal::SIGKILL);
        assert!(
            grandchildren.contains(&pid) && group == Some(Some(pid.to_string().as_str())),
            "only grandchildren that lead a group of their own are left: {line} ({stat})"
        );
    }
}

#[test]
fn a_game_clock_runs_out() {
    let tmp = tempfile::tempdir().unwrap();
    // 200 ms for the whole game, 40 ms a move, no increment: the clock must run out.
    let bots = [
        ("a", arena_bot("random", 1)),
        (
            "slow",
            vec![
                fault_bot(tmp.path(), "fault-slow"),
                "--delay-ms".into(),
                "40".into(),
            ],
        ),
    ];
    let header = "[time]\nmove_time_ms = 0\nbase_time_ms = 200\nmargin_ms = 50\n[tournament]\nfirst_to = 1\n";
    let (out, _) = run_in(tmp.path(), header, &bots);
    let games = rows(&out.join("games.csv"));
    assert!(!games.is_empty());
    for g in &games {
        let slow_side = if g["south"] == "slow" {
            "south"
        } else {
            "north"
        };
        assert_eq!(g["termination"], "timeout", "{g:?}");
        assert!(g["detail"].starts_with(slow_side), "{g:?}");
        // 200 ms of clock, at 40 ms a move, lasts about 5 moves plus the margin's worth.
        let bot_plies =
            g["moves"].split_whitespace().count() - g["opening"].split_whitespace().count();
        let slow_moves = bot_plies / 2 + 1;
        assert!(slow_moves <= 8, "{g:?}");
    }
}

#[test]
fn a_bot_that_cannot_start_stops_the_tournament_or_is_skipped() {
    let tmp = tempfile::tempdir().unwrap();
    for bad in ["fault-exit-start", "fault-noflush"] {
        let bots = [
            ("a", arena_bot("random", 1)),
            ("b", arena_bot("random", 2)),
            ("bad", vec![fault_bot(tmp.path(), bad)]),
        ];
        let header = "[time]\nstartup_ms = 1000\n[tournament]\nfirst_to = 1\n";
        let cfg = config(tmp.path(), header, &bots);
        let out = tmp.path().join(format!("stop-{bad}"));
        let output = run_arena(&cfg, &out);
        assert_eq!(output.status.code(), Some(2), "{bad}");
        let err = stderr_of(&output);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.contains("bot 'bad' did not start") && err.contains("on_start_failure"),
            "{err}"
        );
        if bad == "fault-exit-start" {
            // Its last stderr line, which is usually the reason.
            assert!(
                err.contains("(its stderr: fault-exit-start: cannot load my weights"),
                "{err}"
            );
            // It exited: no flush hint beside the cause its stderr gives.
            assert!(!err.contains("flushed"), "{err}");
        }
        assert_eq!(
            std::fs::read_to_string(out.join("games.csv")).ok(),
            None,
            "no game was played"
        );

        let skip = header.replace("first_to = 1", "first_to = 1\non_start_failure = \"skip\"");
        let cfg = config(tmp.path(), &skip, &bots);
        let out = tmp.path().join(format!("skip-{bad}"));
        let output = run_arena(&cfg, &out);
        assert_success(&output);
        // Played without it, and every output shows it as not started.
        let games = rows(&out.join("games.csv"));
        assert!(games
            .iter()
            .all(|g| g["south"] != "bad" && g["north"] != "bad"));
        let standings = rows(&out.join("standings.csv"));
        assert_eq!(standings.len(), 3, "{standings:?}");
        let bad_row = standings.iter().find(|s| s["bot"] == "bad").unwrap();
        assert_eq!(bad_row["games"], "0");
        assert!(bad_row["note"].starts_with("not started: "), "{bad_row:?}");
        assert!(standings
            .iter()
            .filter(|s| s["bot"] != "bad")
            .all(|s| s["note"].is_empty()));
        let series = rows(&out.join("series.csv"));
        assert_eq!(series.len(), 3, "{series:?}");
        let unplayed: Vec<_> = series.iter().filter(|s| s["games"] == "0").collect();
        assert_eq!(unplayed.len(), 2, "{series:?}");
        for s in unplayed {
            assert!(s["bot_a"] == "bad" || s["bot_b"] == "bad", "{s:?}");
            assert!(
                s["note"].starts_with("not played: bot 'bad' did not start: "),
                "{s:?}"
            );
        }
        let table = stdout_of(&output);
        let marked = table
            .lines()
            .any(|l| l.starts_with('-') && l.split_whitespace().nth(1) == Some("bad"));
        assert!(marked && table.contains("did not start"), "{table}");
        let report = std::fs::read_to_string(out.join("report.html")).unwrap();
        assert!(report.contains("not started: "), "the report names it");
    }
}

#[test]
fn a_shard_of_one_series_with_a_skipped_bot_plays_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let bots = [
        ("a", arena_bot("random", 1)),
        ("b", arena_bot("random", 2)),
        ("bad", vec![fault_bot(tmp.path(), "fault-exit-start")]),
    ];
    let header = "[tournament]\nfirst_to = 1\nconcurrency = 2\non_start_failure = \"skip\"\n";
    let cfg = config(tmp.path(), header, &bots);
    // Each shard of 3 holds one series; two of them are the bad bot's.
    for k in 1..=3 {
        let out = tmp.path().join(format!("shard-{k}"));
        let output = arena_command()
            .arg("run")
            .arg(&cfg)
            .args(["--shard", &format!("{k}/3"), "--out"])
            .arg(&out)
            .output()
            .unwrap();
        assert_success(&output);
        let games = rows(&out.join("games.csv"));
        assert!(
            games
                .iter()
                .all(|g| g["south"] != "bad" && g["north"] != "bad"),
            "shard {k}: the skipped bot played: {games:?}"
        );
    }
}

/// Starts a long tournament and returns the arena once its first game is
/// reported on stderr, with the rest of stderr still to read.
fn start_long_tournament(
    dir: &Path,
    bot: Vec<String>,
) -> (std::process::Child, BufReader<std::process::ChildStderr>) {
    let bots = [("random", arena_bot("random", 3)), ("other", bot)];
    let cfg = config(
        dir,
        "[time]\nmove_time_ms = 500\n[tournament]\nfirst_to = 100000\nmax_games = 300000\n",
        &bots,
    );
    let mut child = arena_command()
        .arg("run")
        .arg(&cfg)
        .arg("--out")
        .arg(dir.join("run"))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = common::after_first_game(&mut child);
    (child, stderr)
}

#[test]
fn ctrl_c_abandons_running_games_and_writes_consistent_files() {
    let tmp = tempfile::tempdir().unwrap();
    let marker = tmp.path().display().to_string();
    let (mut child, _stderr) =
        start_long_tournament(tmp.path(), vec![fault_bot(tmp.path(), "fault-ignore-term")]);
    let sent = Instant::now();
    kill(Pid::from_raw(child.id() as i32), Signal::SIGINT).unwrap();
    let status = child.wait().unwrap();
    // 2 s plus the per-move limit, as promised.
    assert!(
        sent.elapsed() < Duration::from_millis(2500),
        "took {:?}",
        sent.elapsed()
    );
    assert_eq!(status.code(), Some(130));
    let out = tmp.path().join("run");
    let games = rows(&out.join("games.csv"));
    assert!(!games.is_empty());
    let standings = rows(&out.join("standings.csv"));
    let counted = games_counted(&standings);
    assert_eq!(
        counted,
        2 * games.len(),
        "the summaries cover exactly the games written"
    );
    assert_none_left(&marker);
}

/// Ctrl-C's last line is the command that goes on: quoted for the shell
/// (the folder's name has a space and a quote), and it works.
#[test]
fn ctrl_c_prints_the_resume_command_and_it_works() {
    use std::io::Read;
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("o'clock runs");
    std::fs::create_dir(&dir).unwrap();
    // Games of a few plies at 3 ms a move of the slow bot: a second or so.
    let slow = vec![
        fault_bot(tmp.path(), "fault-slow"),
        "--delay-ms".to_string(),
        "3".to_string(),
    ];
    let bots = [("random", arena_bot("random", 3)), ("slow", slow)];
    let header = "[board]\nholes = 4\nseeds = 2\n[tournament]\nfirst_to = 20\nmax_games = 40\n";
    let cfg = config(&dir, header, &bots);
    let out = dir.join("the run");
    let mut child = arena_command()
        .arg("run")
        .arg(&cfg)
        .arg("--out")
        .arg(&out)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = common::after_first_game(&mut child);
    kill(Pid::from_raw(child.id() as i32), Signal::SIGINT).unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130));
    let mut rest = String::new();
    stderr.read_to_string(&mut rest).unwrap();
    let prefix = "arena: to go on where it stopped, run (from this folder): ";
    let command = rest
        .lines()
        .find_map(|l| l.strip_prefix(prefix))
        .unwrap_or_else(|| panic!("no resume command in:\n{rest}"));
    assert_contains(command, "--resume");
    assert!(!out.join("finished").exists());

    let resumed = std::process::Command::new("sh")
        .args(["-c", command])
        .output()
        .unwrap();
    assert_success(&resumed);
    assert!(out.join("finished").exists(), "the resume finished the run");
    let games = rows(&out.join("games.csv"));
    let series = rows(&out.join("series.csv"));
    assert_eq!(series[0]["games"], games.len().to_string());
    assert_eq!(series[0]["decided"], "true");
}

/// Ctrl-C during the start-up check, while a bot takes its time to answer
/// `hello`: the check stops, no bot is left behind, the summaries list every
/// bot with no game, and the resume command is printed, as for a Ctrl-C
/// between games.
#[test]
fn ctrl_c_during_the_start_up_check_stops_it_and_prints_the_resume_command() {
    use std::io::Read;
    let tmp = tempfile::tempdir().unwrap();
    let marker = tmp.path().display().to_string();
    // A copy, so its command line carries the marker; it never answers.
    // It imports the fault bots' shared loop, which is copied beside it.
    let script = tmp.path().join("slow_start.py");
    for f in ["slow_start.py", "_protocol.py"] {
        std::fs::copy(common::repo().join("test-bots").join(f), tmp.path().join(f)).unwrap();
    }
    let bots = [
        ("random", arena_bot("random", 3)),
        ("slow", common::python(&script, &[])),
    ];
    let cfg = config(
        tmp.path(),
        "[time]\nstartup_ms = 600000\n[tournament]\nfirst_to = 1\n",
        &bots,
    );
    let out = tmp.path().join("run");
    let mut child = arena_command()
        .arg("run")
        .arg(&cfg)
        .arg("--out")
        .arg(&out)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The arena logs a bot's start just before it spawns it, from inside the
    // check: the random bot answers at once, the slow one never.
    let log = out.join("logs/slow.stderr.log");
    let started = eventually(Duration::from_secs(60), || {
        std::fs::read_to_string(&log).is_ok_and(|l| l.contains("# start:"))
    });
    if !started {
        let _ = child.kill();
        panic!("the check never started the slow bot");
    }
    kill(Pid::from_raw(child.id() as i32), Signal::SIGINT).unwrap();
    let status = child.wait().unwrap();
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    assert_eq!(status.code(), Some(130), "{stderr}");
    let prefix = "arena: to go on where it stopped, run (from this folder): ";
    let command = stderr
        .lines()
        .find_map(|l| l.strip_prefix(prefix))
        .unwrap_or_else(|| panic!("no resume command in:\n{stderr}"));
    assert_contains(command, "--resume");
    assert!(!out.join("finished").exists());
    let standings = rows(&out.join("standings.csv"));
    let mut names: Vec<&str> = standings.iter().map(|r| r["bot"].as_str()).collect();
    names.sort_unstable();
    assert_eq!(names, ["random", "slow"], "{standings:?}");
    assert!(standings.iter().all(|r| r["games"] == "0"), "{standings:?}");
    assert!(rows(&out.join("games.csv")).is_empty());
    let gone = eventually(Duration::from_secs(5), || {
        leftovers(&marker, &[]).is_empty()
    });
    assert!(gone, "processes left behind: {:?}", leftovers(&marker, &[]));
}

#[test]
fn a_second_ctrl_c_exits_at_once_and_kill_9_takes_every_bot_down() {
    for kill_9 in [false, true] {
        let tmp = tempfile::tempdir().unwrap();
        let marker = tmp.path().display().to_string();
        // A bot that ignores SIGTERM and quit.
        let (mut child, _stderr) =
            start_long_tournament(tmp.path(), vec![fault_bot(tmp.path(), "fault-ignore-term")]);
        let pid = Pid::from_raw(child.id() as i32);
        if kill_9 {
            kill(pid, Signal::SIGKILL).unwrap();
        } else {
            kill(pid, Signal::SIGINT).unwrap();
            kill(pid, Signal::SIGINT).unwrap();
        }
        let status = child.wait().unwrap();
        if !kill_9 {
            assert_eq!(status.code(), Some(130));
        }
        // The games written are whole rows.
        let games = std::fs::read_to_string(tmp.path().join("run/games.csv")).unwrap();
        assert!(games.ends_with('\n'));
        assert!(rows(&tmp.path().join("run/games.csv"))
            .iter()
            .all(|g| !g["termination"].is_empty()));
        let gone = eventually(Duration::from_secs(5), || {
            leftovers(&marker, &[]).is_empty()
        });
        assert!(
            gone,
            "kill -9 = {kill_9}: processes left behind: {:?}",
            leftovers(&marker, &[])
        );
    }
}

#[test]
fn a_grandchild_dies_with_the_arena_on_kill_9() {
    // In the bot's process group, and in a group of its own.
    for own_group in [false, true] {
        a_grandchild_dies_with_the_arena_on_kill_9_in(own_group);
    }
}

fn a_grandchild_dies_with_the_arena_on_kill_9_in(own_group: bool) {
    let tmp = tempfile::tempdir().unwrap();
    let pidfile = tmp.path().join("grandchildren.txt");
    let mut gc = vec![
        fault_bot(tmp.path(), "fault-grandchild"),
        "--keep-playing".into(),
    ];
    if own_group {
        gc.push("--own-group".into());
    }
    let bots = [("a", arena_bot("random", 1)), ("gc", gc)];
    let cfg = config(
        tmp.path(),
        // One lane: one bot process, one grandchild.
        "[tournament]\nfirst_to = 100000\nmax_games = 300000\nconcurrency = 1\n",
        &bots,
    );
    let mut child = arena_command()
        .arg("run")
        .arg(&cfg)
        .arg("--out")
        .arg(tmp.path().join("run"))
        .env("FAULT_PIDFILE", &pidfile)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Held open to the end: the arena goes on writing to it.
    let _stderr = common::after_first_game(&mut child);
    // The bot and its grandchild are alive while the games go on.
    let pids = pids_in(&pidfile);
    assert_eq!(
        pids.len(),
        1,
        "one grandchild, started at the first newgame"
    );
    assert!(
        !leftovers("no marker", &pids).is_empty(),
        "the grandchild runs"
    );
    kill(Pid::from_raw(child.id() as i32), Signal::SIGKILL).unwrap();
    child.wait().unwrap();
    let pids = pids_in(&pidfile);
    let gone = eventually(Duration::from_secs(5), || {
        leftovers(&tmp.path().display().to_string(), &pids).is_empty()
    });
    if own_group && !arena::platform::SUBREAPER {
        // Without the parent-death signal the guard learns of the arena's
        // death from its watchdog; a bot that exits first (its stdin
        // closed) leaves a grandchild of its own group out of reach.
        only_escaped_grandchildren(&leftovers("no marker", &pids), &pids);
        return;
    }
    assert!(
        gone,
        "left behind after kill -9: {}",
        describe(&leftovers(&tmp.path().display().to_string(), &pids))
    );
}

#[test]
fn names_cannot_reach_outside_the_run_folder() {
    let (tmp, cfg) = temp_config(
        "",
        &[
            ("../../x", arena_bot("random", 1)),
            ("b", arena_bot("random", 2)),
        ],
    );
    let output = arena_command()
        .arg("run")
        .arg(&cfg)
        .arg("--out")
        .arg(tmp.path().join("run"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr_of(&output).contains("bot name '../../x' must be"));
    assert!(
        !tmp.path().join("x.stderr.log").exists()
            && !tmp.path().parent().unwrap().join("x.stderr.log").exists()
    );
}

#[test]
fn killed_runs_resume_to_exactly_the_uninterrupted_result() {
    let (tmp, cfg) = temp_config(
        "[board]\nholes = 6\n[tournament]\nfirst_to = 4\nconcurrency = 2\nseed = 3\n",
        &[
            (
                "g",
                arena_bot("random", 9)
                    .into_iter()
                    .map(|s| if s == "random" { "greedy".into() } else { s })
                    .collect(),
            ),
            ("r1", arena_bot("random", 1)),
            ("r2", arena_bot("random", 2)),
            ("r3", arena_bot("random", 3)),
        ],
    );
    let whole = tmp.path().join("whole");
    let status = arena_command()
        .arg("run")
        .arg("--quiet")
        .arg(&cfg)
        .arg("--out")
        .arg(&whole)
        .status()
        .unwrap();
    assert!(status.success());

    // The same run, killed with SIGKILL after 3, then 9 more games, and resumed each time.
    let run = tmp.path().join("run");
    let mut first = true;
    for kill_after in [3, 9] {
        let mut cmd = arena_command();
        cmd.arg("run").arg(&cfg);
        if first {
            cmd.arg("--out").arg(&run);
        } else {
            cmd.arg("--resume").arg(&run);
        }
        first = false;
        let mut child = cmd
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stderr = BufReader::new(child.stderr.take().unwrap());
        let mut seen = 0;
        let mut line = String::new();
        while seen < kill_after {
            line.clear();
            if stderr.read_line(&mut line).unwrap() == 0 {
                break; // it finished first
            }
            seen += usize::from(line.starts_with('['));
        }
        let _ = kill(Pid::from_raw(child.id() as i32), Signal::SIGKILL);
        child.wait().unwrap();
    }
    let output = arena_command()
        .arg("run")
        .arg("--quiet")
        .arg(&cfg)
        .arg("--resume")
        .arg(&run)
        .output()
        .unwrap();
    assert_success(&output);

    // Every scheduled game exactly once, and the same statistics.
    assert_eq!(games_without_timing(&whole), games_without_timing(&run));
    assert_same_files(&whole, &run, &SUMMARY_FILES);
    // Another config is refused.
    let other = tmp.path().join("other.toml");
    std::fs::write(
        &other,
        std::fs::read_to_string(&cfg)
            .unwrap()
            .replace("first_to = 4", "first_to = 5"),
    )
    .unwrap();
    let output = arena_command()
        .arg("run")
        .arg(&other)
        .arg("--resume")
        .arg(&run)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    // The key that differs is named.
    assert_contains(
        &stderr_of(&output),
        "another config ([tournament] first_to differs)",
    );
}

/// `on_start_failure = "skip"` leaves a bot's series unplayed but keeps the
/// schedule's numbering, so a resume on which the bot starts (or no longer
/// starts) goes on with the same series: every series keeps its own pair.
#[test]
fn a_skipped_bot_that_starts_on_the_resume_plays_its_own_series() {
    let tmp = tempfile::tempdir().unwrap();
    let flag = tmp.path().join("fail");
    std::fs::write(&flag, "").unwrap();
    let flaky = vec![
        "sh".to_string(),
        "-c".to_string(),
        format!(
            "test -e '{}' && exit 7; exec '{}' bot random --seed 4",
            flag.display(),
            arena().display()
        ),
    ];
    let bots = [
        ("a", arena_bot("random", 1)),
        ("b", arena_bot("random", 2)),
        ("c", arena_bot("random", 3)),
        ("flaky", flaky),
    ];
    let header = "[board]\nholes = 4\nseeds = 2\n[tournament]\nfirst_to = 2\nconcurrency = 1\non_start_failure = \"skip\"\n";
    let cfg = config(tmp.path(), header, &bots);
    let (run, _) = run_to(&cfg, tmp.path().join("run"));
    let played = |rows: &[HashMap<String, String>], bot: &str| {
        rows.iter().any(|g| g["south"] == bot || g["north"] == bot)
    };
    assert!(!played(&rows(&run.join("games.csv")), "flaky"));

    std::fs::remove_file(&flag).unwrap();
    let output = arena_command()
        .arg("run")
        .arg("--quiet")
        .arg(&cfg)
        .arg("--resume")
        .arg(&run)
        .output()
        .unwrap();
    assert_success(&output);
    let games = rows(&run.join("games.csv"));
    assert!(played(&games, "flaky"));
    // Each series is one pair of bots, the same in games.csv and series.csv.
    for s in rows(&run.join("series.csv")) {
        let mut pair = [s["bot_a"].clone(), s["bot_b"].clone()];
        pair.sort();
        let of_series: Vec<_> = games
            .iter()
            .filter(|g| g["series"] == s["series"])
            .collect();
        assert_eq!(of_series.len().to_string(), s["games"], "{s:?}");
        for g in of_series {
            let mut players = [g["south"].clone(), g["north"].clone()];
            players.sort();
            assert_eq!(players, pair, "series {}", s["series"]);
        }
    }
}

#[test]
fn a_bot_cannot_send_escape_sequences_to_the_organisers_terminal() {
    let tmp = tempfile::tempdir().unwrap();
    // It sets the window title and the clipboard (OSC 0 and 52), erases the
    // line and writes a fake verdict, then fails its start.
    let script =
        "printf '\\033]0;owned\\007\\033]52;c;aGk=\\007\\033[2K\\rall bots passed\\n' >&2; exit 1";
    let bots = [
        ("a", arena_bot("random", 1)),
        ("evil", vec!["sh".into(), "-c".into(), script.into()]),
    ];
    let cfg = config(tmp.path(), "", &bots);
    let out = tmp.path().join("run");
    let output = run_arena(&cfg, &out);
    let stderr = stderr_of(&output);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    // Its words are quoted.
    assert_contains(&stderr, "all bots passed");
    assert!(
        !stderr.contains('\u{1b}') && !stderr.contains('\u{7}'),
        "{stderr:?}"
    );
    let log = std::fs::read_to_string(out.join("logs/evil.stderr.log")).unwrap();
    assert!(log.contains("\\u{1b}]52;c;aGk="), "{log:?}");
    assert!(!log.contains('\u{1b}') && !log.contains('\u{7}'), "{log:?}");
}

#[test]
fn a_bot_that_floods_its_output_loses_and_the_tournament_goes_on() {
    let tmp = tempfile::tempdir().unwrap();
    // After its first move, children write blank lines faster than anyone
    // reads them (the arena used to read them for ever, before a request).
    let script = r#"
import os, sys
flooding = False
for line in sys.stdin:
    w = line.split()
    if not w: continue
    if w[0] == "hello": print("hello version=1 name=flood", flush=True)
    elif w[0] == "newgame": print("ready", flush=True)
    elif w[0] == "turn":
        legal = dict(x.split("=", 1) for x in w[1:] if "=" in x)["legal"]
        print("move " + legal.split(",")[0], flush=True)
        if not flooding:
            flooding = True
            for _ in range(2):
                if os.fork() == 0:
                    while True:
                        os.write(1, b"\n" * 65536)
    elif w[0] == "quit": break
"#;
    let bots = [
        ("a", arena_bot("random", 1)),
        ("flood", vec!["python3".into(), "-c".into(), script.into()]),
    ];
    let (out, _) = run_in(tmp.path(), "[tournament]\nfirst_to = 2\n", &bots);
    let games = rows(&out.join("games.csv"));
    assert!(!games.is_empty());
    let flooded: Vec<_> = games
        .iter()
        .filter(|g| g["termination"] == "protocol-error")
        .collect();
    assert!(!flooded.is_empty(), "{games:?}");
    assert!(
        flooded
            .iter()
            .all(|g| g["detail"].contains("before it was asked")),
        "{flooded:?}"
    );
}

#[test]
fn a_bot_that_sends_its_hello_reply_early_plays_and_is_named_at_start() {
    let tmp = tempfile::tempdir().unwrap();
    let early = common::repo().join("test-bots/early_hello.py");
    let bots = [
        ("a", arena_bot("random", 1)),
        ("twice", common::python(&early, &[])),
        ("once", common::python(&early, &["--once"])),
        (
            "banner",
            common::python(&early, &["--banner", "EarlyBot 1.0"]),
        ),
    ];
    let (out, output) = run_in(tmp.path(), "[tournament]\nfirst_to = 2\n", &bots);
    let stderr = stderr_of(&output);
    let noted: Vec<_> = stderr
        .lines()
        .filter(|l| l.contains("answered hello twice"))
        .collect();
    assert_eq!(noted.len(), 1, "{stderr}");
    assert!(
        noted[0].starts_with("arena: bot 'twice' answered hello twice (the second 'hello version=1 name=early-hello'): it sent two hello replies (one early, before it was asked"),
        "{stderr}"
    );
    let games = rows(&out.join("games.csv"));
    assert!(!games.is_empty());
    assert!(
        games
            .iter()
            .all(|g| ["no-moves", "ply-limit"].contains(&g["termination"].as_str())),
        "{games:?}"
    );
    let log = std::fs::read_to_string(out.join("logs/twice.stderr.log")).unwrap();
    assert_contains(&log, "skipped a second hello reply");
    let log = std::fs::read_to_string(out.join("logs/banner.stderr.log")).unwrap();
    assert_contains(&log, "skipped before its hello reply: 'EarlyBot 1.0'");
}

#[test]
fn hole_numbers_with_a_sign_or_a_leading_zero_are_refused_with_the_fix() {
    let tmp = tempfile::tempdir().unwrap();
    let garbage = common::repo().join("test-bots/garbage.py");
    let bots = [
        ("a", arena_bot("random", 1)),
        ("zero", common::python(&garbage, &["--reply", "move 01"])),
        ("plus", common::python(&garbage, &["--reply", "move +1"])),
    ];
    let (out, _) = run_in(tmp.path(), "[tournament]\nfirst_to = 1\n", &bots);
    let games = rows(&out.join("games.csv"));
    for (bot, fix) in [
        (
            "zero",
            "write it without a leading zero: 'move 3', not 'move 03'",
        ),
        ("plus", "write it without a sign: 'move 3', not 'move +3'"),
    ] {
        let theirs: Vec<_> = games
            .iter()
            .filter(|g| {
                g["termination"] == "protocol-error" && g["detail"].contains(&format!("({bot})"))
            })
            .collect();
        assert!(!theirs.is_empty(), "{bot}: {games:?}");
        for g in theirs {
            assert!(
                g["detail"].contains(&format!("not a hole number: {fix}")),
                "{bot}: {g:?}"
            );
        }
    }
}

#[test]
fn an_unfinished_line_and_bytes_that_are_not_utf8_are_shown_as_sent() {
    let tmp = tempfile::tempdir().unwrap();
    let bots = [
        ("a", arena_bot("random", 1)),
        ("nonewline", vec![fault_bot(tmp.path(), "fault-nonewline")]),
        ("junk", vec![fault_bot(tmp.path(), "fault-junk")]),
    ];
    let header = "[time]\nmove_time_ms = 200\n[tournament]\nfirst_to = 1\nmax_games = 1\n";
    let (out, _) = run_in(tmp.path(), header, &bots);
    let games = rows(&out.join("games.csv"));
    let of = |bot: &str| -> Vec<String> {
        games
            .iter()
            .filter(|g| g["detail"].contains(&format!("({bot})")))
            .map(|g| g["detail"].clone())
            .collect()
    };
    let unfinished = of("nonewline");
    assert!(!unfinished.is_empty(), "{games:?}");
    for detail in &unfinished {
        assert!(
            detail
                .contains("no reply within its 200 ms (and the 50 ms margin); it had sent 'move ")
                && detail.ends_with("' with no end of line (end each line with \\n and flush)"),
            "{detail}"
        );
    }
    let log = std::fs::read_to_string(out.join("logs/nonewline.stderr.log")).unwrap();
    assert_contains(&log, "it had sent 'move ");
    let junk = of("junk");
    assert!(!junk.is_empty(), "{games:?}");
    for detail in &junk {
        assert_contains(detail, "not ASCII: '\\u{0}\\xff garbage \\u{1b}[2J'");
    }
    let log = std::fs::read_to_string(out.join("logs/junk.stderr.log")).unwrap();
    assert!(
        log.contains("\\xff garbage") && !log.contains('\u{fffd}'),
        "{log}"
    );
}

#[test]
fn more_bot_processes_than_cores_on_a_tight_clock_are_warned_about_at_start() {
    let tmp = tempfile::tempdir().unwrap();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let bots = [("a", arena_bot("random", 1)), ("b", arena_bot("random", 2))];
    // A two-bot match plays `concurrency` games at once: 2 * (cores + 1)
    // processes, more than the cores whatever the machine.
    let header = |move_time_ms: u64| {
        format!(
            "[time]\nmove_time_ms = {move_time_ms}\n[tournament]\nfirst_to = 1\nmax_games = 1\nconcurrency = {}\n",
            cores + 1
        )
    };
    let warned = |move_time_ms: u64| {
        let dir = tmp.path().join(move_time_ms.to_string());
        std::fs::create_dir(&dir).unwrap();
        let cfg = config(&dir, &header(move_time_ms), &bots);
        let output = arena_command()
            .args(["run", "--quiet"])
            .arg(&cfg)
            .arg("--out")
            .arg(dir.join("run"))
            .output()
            .unwrap();
        assert_success(&output);
        let stderr = stderr_of(&output);
        let lines: Vec<String> = stderr
            .lines()
            .filter(|l| l.contains("bot processes at once"))
            .map(str::to_string)
            .collect();
        (lines, stderr)
    };
    let (lines, stderr) = warned(20);
    assert_eq!(lines.len(), 1, "{stderr}");
    let processes = 2 * (cores + 1);
    assert!(
        lines[0].starts_with(&format!(
            "arena: warning: {processes} bot processes at once ({} games, 2 each) on {cores} usable core",
            cores + 1
        )) && lines[0].contains("with 20 ms a move and a 50 ms margin"),
        "{stderr}"
    );
    let (lines, stderr) = warned(1000);
    assert!(lines.is_empty(), "{stderr}");
}
