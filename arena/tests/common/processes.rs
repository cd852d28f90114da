//! Processes of a running arena: the ones left behind, its stderr read
//! as it goes, its games so far, a wait for what it does, and a run
//! killed in a round and resumed.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::{Child, Stdio};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::runs::{arena_command, assert_success};

/// Live processes whose command line mentions `marker`, or whose pid is
/// listed. Zombies (empty command line) are gone, only not yet reaped.
pub fn leftovers(marker: &str, pids: &[i32]) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().to_string();
        let Ok(pid) = name.parse::<i32>() else {
            continue;
        };
        let Ok(cmd) = std::fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        let cmd = String::from_utf8_lossy(&cmd).replace('\0', " ");
        if !cmd.is_empty() && (cmd.contains(marker) || pids.contains(&pid)) {
            found.push(format!("{pid}: {cmd}"));
        }
    }
    found
}

/// Reads a running arena's stderr (piped) until its first game's line,
/// and hands it back for the rest.
pub fn after_first_game(
    child: &mut std::process::Child,
) -> std::io::BufReader<std::process::ChildStderr> {
    use std::io::BufRead;
    let mut stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    while !line.starts_with('[') {
        line.clear();
        assert!(
            stderr.read_line(&mut line).unwrap() > 0,
            "the arena ended before a game"
        );
    }
    stderr
}

/// Asserts that no live process's command line mentions `marker`
/// ([`leftovers`]), listing those left behind if any.
#[track_caller]
pub fn assert_none_left(marker: &str) {
    let left = leftovers(marker, &[]);
    assert!(left.is_empty(), "processes left behind: {left:?}");
}

/// Starts `arena run CFG FLAGS… --out OUT` (`--resume OUT` with
/// `resume`), its stdout and stderr piped.
pub fn start_run(cfg: &Path, flags: &[&str], out: &Path, resume: bool) -> Child {
    arena_command()
        .arg("run")
        .arg(cfg)
        .args(flags)
        .arg(if resume { "--resume" } else { "--out" })
        .arg(out)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Collects `child`'s stderr (piped) as it comes: the text so far, a
/// line at a time, and the thread that reads it (it ends with the child).
pub fn said_by(child: &mut Child) -> (Arc<Mutex<String>>, JoinHandle<()>) {
    let stderr = child.stderr.take().unwrap();
    let said = Arc::new(Mutex::new(String::new()));
    let sink = said.clone();
    let reader = std::thread::spawn(move || {
        use std::io::BufRead as _;
        for line in std::io::BufReader::new(stderr)
            .lines()
            .map_while(Result::ok)
        {
            let mut s = sink.lock().unwrap();
            s.push_str(&line);
            s.push('\n');
        }
    });
    (said, reader)
}

/// Waits (bounded: 120 s, polling every 2 ms) until `ready` holds,
/// failing if `child` ended first; `what` names what is waited for.
pub fn wait_until(child: &mut Child, what: &str, mut ready: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(120);
    while !ready() {
        if let Some(status) = child.try_wait().unwrap() {
            panic!("the run ended ({status}) before {what}");
        }
        assert!(Instant::now() < deadline, "not {what} in 120 s");
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// The `(series, game)` of each whole row of `dir`'s games.csv so far
/// (none before the file is there), in file order: a running arena's
/// games, read without waiting for it.
pub fn games_so_far(dir: &Path) -> Vec<(usize, u32)> {
    let Ok(text) = std::fs::read_to_string(dir.join("games.csv")) else {
        return Vec::new();
    };
    let whole = &text[..text.rfind('\n').map_or(0, |i| i + 1)];
    whole
        .lines()
        .skip(1)
        .map(|l| {
            let mut cells = l.split(',');
            let series = cells.next().unwrap().parse().unwrap();
            let game = cells.next().unwrap().parse().unwrap();
            (series, game)
        })
        .collect()
}

/// Runs `arena run CFG --quiet --out RUN` in a process group of its own
/// and kills the group (SIGKILL) once a game of round `round` (series by
/// `round_of`, from an uninterrupted run) is in games.csv, within 120 s;
/// asserts that the run had not finished nor gone past the round, and
/// returns the games it left.
#[cfg(unix)]
pub fn killed_in_round(
    cfg: &Path,
    run: &Path,
    round_of: &BTreeMap<usize, u32>,
    round: u32,
) -> Vec<(usize, u32)> {
    use std::os::unix::process::CommandExt as _;
    let in_round = |games: &[(usize, u32)]| games.iter().any(|(s, _)| round_of[s] == round);
    let mut child = arena_command()
        .arg("run")
        .arg(cfg)
        .arg("--quiet")
        .arg("--out")
        .arg(run)
        .process_group(0)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(120);
    while !in_round(&games_so_far(run)) {
        if let Some(status) = child.try_wait().unwrap() {
            panic!("the run ended ({status}) before a game of round {round}");
        }
        assert!(
            Instant::now() < deadline,
            "no game of round {round} in 120 s"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
    let group = nix::unistd::Pid::from_raw(-(child.id() as i32));
    nix::sys::signal::kill(group, nix::sys::signal::Signal::SIGKILL).unwrap();
    child.wait().unwrap();
    let cut = games_so_far(run);
    assert!(
        !run.join("finished").exists(),
        "the run finished before the kill"
    );
    assert!(
        !cut.iter().any(|(s, _)| round_of[s] > round),
        "the kill came after round {round}"
    );
    cut
}

/// Resumes the run in `run` (`arena run CFG --quiet --resume RUN`),
/// asserting it succeeded, played more than the games `cut` it had, and
/// wrote no game twice.
pub fn resume_after_cut(cfg: &Path, run: &Path, cut: &[(usize, u32)]) {
    let output = arena_command()
        .arg("run")
        .arg(cfg)
        .arg("--quiet")
        .arg("--resume")
        .arg(run)
        .output()
        .unwrap();
    assert_success(&output);
    let resumed = games_so_far(run);
    let once: BTreeSet<&(usize, u32)> = resumed.iter().collect();
    assert_eq!(once.len(), resumed.len(), "a game is in games.csv twice");
    assert!(resumed.len() > cut.len(), "the resume played nothing");
}
