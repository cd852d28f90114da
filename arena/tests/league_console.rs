//! What a league says on the console as it runs and resumes: a bot that
//! joins is said before the round it joins at, with the league's new
//! bound on the games; a resume says so first, says a damaged
//! `league.csv` it writes anew, and says the rounds already played in one
//! line instead of each again (docs/formats.md, "League").
#![cfg(unix)]

mod common;

use common::{
    assert_contains, said_by, save_atomically, start_run, stderr_of, stdout_of, wait_until,
};

use std::path::{Path, PathBuf};
use std::process::Child;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

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
    common::games_so_far(dir).len()
}

/// A running `arena run` (lines on stderr, not a terminal) and what it
/// has said on stderr so far.
struct Running {
    child: Child,
    said: Arc<Mutex<String>>,
    reader: JoinHandle<()>,
}

impl Running {
    /// Starts `arena run CFG` into `out`, or resuming it.
    fn start(cfg: &Path, out: &Path, resume: bool) -> Running {
        let mut child = start_run(cfg, &[], out, resume);
        let (said, reader) = said_by(&mut child);
        Running {
            child,
            said,
            reader,
        }
    }

    /// A league of 4 bots and 1000 rounds, its config `dir/t.toml` and
    /// its run folder `dir/run`, started; once a game is in, the config is
    /// saved again with the `[[bot]]` table `joining` added.
    fn long_league_joined_by(dir: &Path, joining: &str) -> (PathBuf, PathBuf, Running) {
        let cfg = dir.join("t.toml");
        std::fs::write(&cfg, league_text(4, 1000, 2, "")).unwrap();
        let run = dir.join("run");
        let mut running = Running::start(&cfg, &run, false);
        running.wait_until("a game", |_| games_so_far(&run) > 0);
        save_atomically(&cfg, &league_text(4, 1000, 2, joining));
        (cfg, run, running)
    }

    /// Waits (bounded) until `ready` holds of what the run said so far.
    fn wait_until(&mut self, what: &str, mut ready: impl FnMut(&str) -> bool) {
        let said = self.said.clone();
        wait_until(&mut self.child, what, || ready(&said.lock().unwrap()));
    }

    /// Interrupts the run (SIGINT) and returns all it said.
    fn interrupted(mut self) -> String {
        kill(Pid::from_raw(self.child.id() as i32), Signal::SIGINT).unwrap();
        self.child.wait().unwrap();
        self.reader.join().unwrap();
        let text = self.said.lock().unwrap().clone();
        text
    }
}

#[test]
fn a_resumed_league_says_so_and_its_rounds_played_once() {
    let tmp = tempfile::tempdir().unwrap();
    let cfg = tmp.path().join("t.toml");
    // 8 bots: 4 series (8 games) a round; each move waits 5 ms.
    std::fs::write(&cfg, league_text(8, 3, 5, "")).unwrap();
    let run = tmp.path().join("run");
    let mut child = start_run(&cfg, &[], &run, false);
    wait_until(&mut child, "a game of round 2", || games_so_far(&run) > 8);
    kill(Pid::from_raw(child.id() as i32), Signal::SIGKILL).unwrap();
    child.wait().unwrap();
    // A damaged league.csv: a row's round edited.
    let league = run.join("league.csv");
    let text = std::fs::read_to_string(&league).unwrap();
    std::fs::write(&league, text.replacen("\n1,", "\n9,", 1)).unwrap();
    let kept = games_so_far(&run);
    let output = start_run(&cfg, &[], &run, true).wait_with_output().unwrap();
    common::assert_success(&output);
    let stderr = stderr_of(&output);
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
    let stdout = stdout_of(&output);
    assert_contains(
        &stdout,
        "League after 3 of 3 rounds (12 pairings in league.csv)",
    );
}

#[test]
fn a_bot_that_joins_is_said_before_its_round_with_the_new_bound() {
    let tmp = tempfile::tempdir().unwrap();
    let newbie = "\n[[bot]]\nname = \"newbie\"\ncommand = [\"arena\", \"bot\", \"random\", \"--seed\", \"4\"]\n";
    let (_, _, mut running) = Running::long_league_joined_by(tmp.path(), newbie);
    running.wait_until("the new bound said", |s| s.contains("it now plays at most"));
    running.wait_until("the round newbie joins at begun", |s| {
        s.lines().any(|l| l.contains("joins the league at round"))
            && s.lines()
                .filter(|l| l.contains("arena: league round"))
                .count()
                > 2
    });
    let text = running.interrupted();
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

#[test]
fn a_bot_that_cannot_start_does_not_join_while_running_or_at_a_resume() {
    let tmp = tempfile::tempdir().unwrap();
    let broken = "\n[[bot]]\nname = \"broken\"\ncommand = [\"./no-such-bot\"]\n";
    let (cfg, run, mut running) = Running::long_league_joined_by(tmp.path(), broken);
    let refused = "bot 'broken' does not join: ";
    running.wait_until("broken refused and a round after", |s| {
        round_after(s, refused)
    });
    let text = running.interrupted();
    // Nothing changed: no new bound said.
    assert!(!text.contains("it now plays at most"), "{text}");
    // A resume with it still in the config goes on without it.
    let mut running = Running::start(&cfg, &run, true);
    running.wait_until("broken refused at the resume", |s| round_after(s, refused));
    let text = running.interrupted();
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
    let mut child = start_run(&cfg, &[], &run, false);
    wait_until(&mut child, "a game", || games_so_far(&run) > 0);
    // g6 removed: its last round is written in roster.csv.
    let five = six[..six.rfind("\n[[bot]]").unwrap() + 1].to_string();
    save_atomically(&cfg, &five);
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
    save_atomically(&cfg, &six);
    let mut running = Running::start(&cfg, &run, true);
    let refused = "change refused (bot 'g6' left the league";
    running.wait_until("g6 refused and a round after", |s| round_after(s, refused));
    let text = running.interrupted();
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
