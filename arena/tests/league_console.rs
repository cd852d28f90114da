//! What a league says on the console as it runs and resumes: a bot that
//! joins is said before the round it joins at, with the league's new
//! bound on the games; a resume says so first, says a damaged
//! `league.csv` it writes anew, and says the rounds already played in one
//! line instead of each again (docs/formats.md, "League").
#![cfg(unix)]

mod common;

use common::assert_contains;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use nix::sys::signal::{kill, Signal};
use nix::unistd::Pid;

/// A league of `n` greedy bots of rising noise, `rounds` rounds, each bot
/// waiting `think_ms` a move; `extra` more `[[bot]]` tables.
fn league_text(n: usize, rounds: u32, think_ms: u32, extra: &str) -> String {
    let mut t = format!("[board]\nholes = 6\n[tournament]\nformat = \"league\"\nrounds = {rounds}\nconcurrency = 2\nseed = 7\n[ratings]\nbootstrap = 50\n");
    for i in 1..=n {
        let noise = (i - 1) as f64 / (n - 1) as f64;
        t.push_str(&format!(
            "\n[[bot]]\nname = \"g{i}\"\ncommand = [\"arena\", \"bot\", \"greedy\", \"--seed\", \"{i}\", \"--noise\", \"{noise:.3}\", \"--think-ms\", \"{think_ms}\"]\n"
        ));
    }
    t.push_str(extra);
    t
}

/// The whole rows of `dir/games.csv` so far.
fn games_so_far(dir: &Path) -> usize {
    let text = std::fs::read_to_string(dir.join("games.csv")).unwrap_or_default();
    text[..text.rfind('\n').map_or(0, |i| i + 1)]
        .lines()
        .count()
        .saturating_sub(1)
}

/// Waits (bounded: 120 s) until `ready` holds, failing if `child` ended.
fn wait_until(child: &mut std::process::Child, what: &str, mut ready: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(120);
    while !ready() {
        if let Some(status) = child.try_wait().unwrap() {
            panic!("the run ended ({status}) before {what}");
        }
        assert!(Instant::now() < deadline, "not {what} in 120 s");
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// `arena run CFG` (lines on stderr, not a terminal), into `out` or
/// resuming it.
fn start(cfg: &Path, out: &Path, resume: bool) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_arena"))
        .arg("run")
        .arg(cfg)
        .arg(if resume { "--resume" } else { "--out" })
        .arg(out)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

#[test]
fn a_resumed_league_says_so_and_its_rounds_played_once() {
    let tmp = tempfile::tempdir().unwrap();
    let cfg = tmp.path().join("t.toml");
    // 8 bots: 4 series (8 games) a round; each move waits 5 ms.
    std::fs::write(&cfg, league_text(8, 3, 5, "")).unwrap();
    let run = tmp.path().join("run");
    let mut child = start(&cfg, &run, false);
    wait_until(&mut child, "a game of round 2", || games_so_far(&run) > 8);
    kill(Pid::from_raw(child.id() as i32), Signal::SIGKILL).unwrap();
    child.wait().unwrap();
    // A damaged league.csv: a row's round edited.
    let league = run.join("league.csv");
    let text = std::fs::read_to_string(&league).unwrap();
    std::fs::write(&league, text.replacen("\n1,", "\n9,", 1)).unwrap();
    let kept = games_so_far(&run);
    let output = start(&cfg, &run, true).wait_with_output().unwrap();
    common::assert_success(&output);
    let stderr = String::from_utf8_lossy(&output.stderr);
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(
        lines[0],
        format!(
            "arena: resuming {}: {kept} games kept; the league's rounds are paired again from them",
            run.display()
        ),
        "{stderr}"
    );
    assert!(
        lines[1].starts_with(&format!("arena: {} is damaged", league.display())),
        "{stderr}"
    );
    // Round 1 was played whole: one line for it, and not its own again.
    assert_contains(&stderr, "arena: league round 1 paired again as they were and replayed from the games kept (already played)");
    assert!(!stderr.contains("arena: league round 1 of 3"), "{stderr}");
    assert_contains(&stderr, "arena: league round 3 of 3");
    // league.csv written anew: 3 rounds of 4 series.
    assert_eq!(common::rows(&league).len(), 12);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_contains(
        &stdout,
        "League after 3 of 3 rounds (12 pairings in league.csv)",
    );
}

#[test]
fn a_bot_that_joins_is_said_before_its_round_with_the_new_bound() {
    let tmp = tempfile::tempdir().unwrap();
    let cfg = tmp.path().join("t.toml");
    std::fs::write(&cfg, league_text(4, 1000, 2, "")).unwrap();
    let run = tmp.path().join("run");
    let mut child = start(&cfg, &run, false);
    let (said, reader) = said_by(&mut child);
    wait_until(&mut child, "a game", || games_so_far(&run) > 0);
    let newbie = "\n[[bot]]\nname = \"newbie\"\ncommand = [\"arena\", \"bot\", \"random\", \"--seed\", \"4\"]\n";
    let tmp_cfg = tmp.path().join("t.toml.tmp");
    std::fs::write(&tmp_cfg, league_text(4, 1000, 2, newbie)).unwrap();
    std::fs::rename(&tmp_cfg, &cfg).unwrap();
    wait_until(&mut child, "the new bound said", || {
        said.lock().unwrap().contains("it now plays at most")
    });
    wait_until(&mut child, "the round newbie joins at begun", || {
        let s = said.lock().unwrap();
        s.lines().any(|l| l.contains("joins the league at round"))
            && s.lines()
                .filter(|l| l.contains("arena: league round"))
                .count()
                > 2
    });
    kill(Pid::from_raw(child.id() as i32), Signal::SIGINT).unwrap();
    child.wait().unwrap();
    reader.join().unwrap();
    let text = said.lock().unwrap().clone();
    let lines: Vec<&str> = text.lines().collect();
    let joined = lines
        .iter()
        .position(|l| l.contains("bot 'newbie' joins the league at round"))
        .unwrap();
    let round: u32 = lines[joined].rsplit(' ').next().unwrap().parse().unwrap();
    let begins = lines
        .iter()
        .position(|l| l.starts_with(&format!("arena: league round {round} of 1000")))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(joined < begins, "{text}");
    // 5 bots from then on: 2 series a round and up to 2 catch-up series
    // of newbie's, of 2 games each, for each round left.
    let bound_line = lines
        .iter()
        .find(|l| l.contains("it now plays at most"))
        .unwrap();
    let bound: u64 = bound_line
        .split("at most ")
        .nth(1)
        .and_then(|r| r.split(' ').next())
        .unwrap()
        .parse()
        .unwrap();
    let left = u64::from(1000 - round + 1);
    let catch_up = u64::from(arena::format::LEAGUE_CATCH_UP - 1);
    assert!(bound >= left * (2 + catch_up) * 2, "{bound_line}");
    assert!(
        bound <= left * (2 + catch_up) * 2 + 8 * u64::from(round),
        "{bound_line}"
    );
}

/// Collects `child`'s stderr as it comes: the text so far, and the thread
/// that reads it (it ends with the child).
fn said_by(
    child: &mut std::process::Child,
) -> (
    std::sync::Arc<std::sync::Mutex<String>>,
    std::thread::JoinHandle<()>,
) {
    let stderr = child.stderr.take().unwrap();
    let said = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
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

/// Whether `text` has a line with `what`, and a round begun after it.
fn round_after(text: &str, what: &str) -> bool {
    let lines: Vec<&str> = text.lines().collect();
    lines
        .iter()
        .position(|l| l.contains(what))
        .is_some_and(|at| {
            lines[at..]
                .iter()
                .any(|l| l.starts_with("arena: league round"))
        })
}

/// Writes `text` to `cfg` at once (a rename), as an editor saves.
fn save(cfg: &Path, text: &str) {
    let tmp = cfg.with_extension("toml.tmp");
    std::fs::write(&tmp, text).unwrap();
    std::fs::rename(&tmp, cfg).unwrap();
}

#[test]
fn a_bot_that_cannot_start_does_not_join_while_running_or_at_a_resume() {
    let tmp = tempfile::tempdir().unwrap();
    let cfg = tmp.path().join("t.toml");
    std::fs::write(&cfg, league_text(4, 1000, 2, "")).unwrap();
    let run = tmp.path().join("run");
    let mut child = start(&cfg, &run, false);
    let (said, reader) = said_by(&mut child);
    wait_until(&mut child, "a game", || games_so_far(&run) > 0);
    let broken = "\n[[bot]]\nname = \"broken\"\ncommand = [\"./no-such-bot\"]\n";
    save(&cfg, &league_text(4, 1000, 2, broken));
    let refused = "bot 'broken' does not join: ";
    wait_until(&mut child, "broken refused and a round after", || {
        round_after(&said.lock().unwrap(), refused)
    });
    kill(Pid::from_raw(child.id() as i32), Signal::SIGINT).unwrap();
    child.wait().unwrap();
    reader.join().unwrap();
    let text = said.lock().unwrap().clone();
    // Nothing changed: no new bound said.
    assert!(!text.contains("it now plays at most"), "{text}");
    // A resume with it still in the config goes on without it.
    let mut child = start(&cfg, &run, true);
    let (said, reader) = said_by(&mut child);
    wait_until(&mut child, "broken refused at the resume", || {
        round_after(&said.lock().unwrap(), refused)
    });
    kill(Pid::from_raw(child.id() as i32), Signal::SIGINT).unwrap();
    child.wait().unwrap();
    reader.join().unwrap();
    let text = said.lock().unwrap().clone();
    assert_contains(&text, "fix it and save the config again to retry");
    assert!(!text.contains("it now plays at most"), "{text}");
}

#[test]
fn a_retired_bot_added_back_is_refused_at_the_resumes_start_and_the_bound_counts_it_out() {
    let tmp = tempfile::tempdir().unwrap();
    let cfg = tmp.path().join("t.toml");
    let six = league_text(6, 1000, 2, "");
    std::fs::write(&cfg, &six).unwrap();
    let run = tmp.path().join("run");
    let mut child = start(&cfg, &run, false);
    wait_until(&mut child, "a game", || games_so_far(&run) > 0);
    // g6 removed: its last round is written in roster.csv.
    let five = six[..six.rfind("\n[[bot]]").unwrap() + 1].to_string();
    save(&cfg, &five);
    let retired = || {
        let text = std::fs::read_to_string(run.join("roster.csv")).unwrap_or_default();
        let row = text.lines().find(|l| l.starts_with("g6,"))?.to_string();
        row.rsplit(',').next()?.parse::<u64>().ok()
    };
    wait_until(&mut child, "g6 retired in roster.csv", || {
        retired().is_some()
    });
    kill(Pid::from_raw(child.id() as i32), Signal::SIGKILL).unwrap();
    child.wait().unwrap();
    save(&cfg, &six);
    let mut child = start(&cfg, &run, true);
    let (said, reader) = said_by(&mut child);
    let refused = "change refused (bot 'g6' left the league";
    wait_until(&mut child, "g6 refused and a round after", || {
        round_after(&said.lock().unwrap(), refused)
    });
    kill(Pid::from_raw(child.id() as i32), Signal::SIGINT).unwrap();
    child.wait().unwrap();
    reader.join().unwrap();
    let text = said.lock().unwrap().clone();
    let lines: Vec<&str> = text.lines().collect();
    let at = lines.iter().position(|l| l.contains(refused)).unwrap();
    // Before any round, once only.
    assert!(
        lines[..at]
            .iter()
            .all(|l| !l.contains("arena: league round")),
        "{text}"
    );
    assert_eq!(
        lines.iter().filter(|l| l.contains(refused)).count(),
        1,
        "{text}"
    );
}
