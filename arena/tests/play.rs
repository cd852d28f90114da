//! `arena play`: a scripted human plays whole games through stdin against
//! the bundled bots, every kind of bad input gets its message and a new
//! prompt, `quit` and Ctrl-C stop the bot with every process it started,
//! and two bots play the very game `arena run` plays (and the rules engine
//! scores). The bots run as real processes, started by the arena.
//!
//! The interactive tests wait for the arena's prompts on its stdout before
//! they type, as a human would: no sleeps. A session that stops talking
//! fails after a minute instead of hanging the test run.

// Unix only: Python test bots and SIGINT (docs/platforms.md, Windows).
#![cfg(unix)]

mod common;

use std::io::{Read as _, Write as _};
use std::process::{Child, ChildStdin, Command as StdCommand, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

use assert_cmd::Command;
use endodoi::{Move, Rules, Side};

use common::{arena_command, assert_contains, assert_ends_with, repo, stderr_of, stdout_of};

/// How long an interactive test waits for the arena's next words before
/// it fails: only a safety net, far above any real wait.
const STALLED: Duration = Duration::from_secs(60);

/// `arena play ARGS` from the repository root, colour variables cleared,
/// as a command to add to.
fn play_command(args: &[&str]) -> StdCommand {
    let mut command = arena_command();
    command
        .current_dir(repo())
        .env_remove("CLICOLOR_FORCE")
        .env_remove("NO_COLOR")
        .arg("play")
        .args(args);
    command
}

/// [`play_command`] run to its end with `stdin` as the input (stalling
/// fails it after [`STALLED`]).
fn play_output(args: &[&str], stdin: &str) -> std::process::Output {
    Command::from_std(play_command(args))
        .write_stdin(stdin)
        .timeout(STALLED)
        .output()
        .unwrap()
}

/// `arena play ARGS` from the repository root, run to its end with `stdin`
/// as the input; exit code and stdout. Colour variables are cleared, so the
/// output is the plain text of a pipe.
fn play(args: &[&str], stdin: &str) -> (i32, String) {
    let output = play_output(args, stdin);
    let stdout = stdout_of(&output);
    assert!(
        output.stderr.is_empty(),
        "stderr: {}\nstdout: {stdout}",
        stderr_of(&output)
    );
    (output.status.code().unwrap_or(-1), stdout)
}

/// A running `arena play`, spoken to a line at a time.
struct Session {
    child: Child,
    stdin: Option<ChildStdin>,
    chunks: Receiver<Vec<u8>>,
    /// Everything it printed so far.
    text: String,
    /// How much of `text` the test has read.
    seen: usize,
}

/// What the arena waits for, or that the game is over.
enum Next {
    /// The human's prompt, with its list of legal moves.
    Prompt(Vec<u8>),
    /// The final score was printed.
    Over,
}

impl Session {
    fn start(args: &[&str]) -> Session {
        let mut child = play_command(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let mut stdout = child.stdout.take().unwrap();
        let (tx, chunks) = mpsc::channel();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = stdout.read(&mut buf) {
                if n == 0 || tx.send(buf[..n].to_vec()).is_err() {
                    break;
                }
            }
        });
        Session {
            stdin: child.stdin.take(),
            child,
            chunks,
            text: String::new(),
            seen: 0,
        }
    }

    /// Reads more output; panics at its end or when it stalls.
    fn read_more(&mut self, waiting_for: &str) {
        match self.chunks.recv_timeout(STALLED) {
            Ok(chunk) => self.text.push_str(&String::from_utf8_lossy(&chunk)),
            Err(e) => panic!(
                "no more output ({e:?}) while waiting for {waiting_for:?}; so far:\n{}",
                self.text
            ),
        }
    }

    /// Waits for the human's prompt, or the end of the game.
    fn next(&mut self) -> Next {
        loop {
            let rest = &self.text[self.seen..];
            if let Some(i) = rest.find("Final score: ") {
                if let Some(j) = rest[i..].find('\n') {
                    self.seen += i + j + 1;
                    return Next::Over;
                }
            } else if let Some(i) = rest.find("Your move, ply ") {
                if let Some(j) = rest[i..].find("): ") {
                    let prompt = &rest[i..i + j];
                    let legal = prompt
                        .split_once("(legal: ")
                        .unwrap_or_else(|| panic!("no legal list in {prompt:?}"))
                        .1
                        .split(' ')
                        .map(|h| h.parse().unwrap())
                        .collect();
                    self.seen += i + j + 3;
                    return Next::Prompt(legal);
                }
            }
            self.read_more("a prompt or the final score");
        }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    }

    /// Waits for the exit, after closing the input if `close` (a signal
    /// must not race with the end of the input): its code and all the output.
    fn finish(mut self, close: bool) -> (i32, String) {
        if close {
            drop(self.stdin.take());
        }
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let status = self.child.wait().unwrap();
            let _ = tx.send(status);
        });
        let status = rx
            .recv_timeout(STALLED)
            .unwrap_or_else(|_| panic!("arena play did not exit; it printed:\n{}", self.text));
        while let Ok(chunk) = self.chunks.recv_timeout(STALLED) {
            self.text.push_str(&String::from_utf8_lossy(&chunk));
        }
        (status.code().unwrap_or(-1), self.text)
    }

    fn pid(&self) -> i32 {
        self.child.id() as i32
    }
}

/// The plies of a game as the arena printed them (`Ply 6: you play 3: ...`).
fn plies(text: &str) -> Vec<u8> {
    text.lines()
        .filter_map(|l| l.strip_prefix("Ply "))
        .map(|l| {
            let said = l.split(": ").nth(1).unwrap();
            said.rsplit(' ').next().unwrap().parse().unwrap()
        })
        .collect()
}

/// The seeds of South and North on the `Final score:` line.
fn final_score(text: &str) -> [u32; 2] {
    let line = text
        .lines()
        .find(|l| l.starts_with("Final score: "))
        .unwrap_or_else(|| panic!("no final score in:\n{text}"));
    let seeds = |side: &str| -> u32 {
        let at = line.find(&format!("({side}) ")).unwrap() + side.len() + 3;
        let digits: String = line[at..]
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        digits.parse().unwrap()
    };
    [seeds("South"), seeds("North")]
}

/// The `Result:` line.
fn result_line(text: &str) -> &str {
    text.lines()
        .find(|l| l.starts_with("Result: "))
        .unwrap_or_else(|| panic!("no result in:\n{text}"))
}

/// A human who always types the first legal move of the prompt, checked
/// against the rules engine, plays a whole game as `side`; the plies and
/// the score printed are the engine's.
fn scripted_game(side: &str, bot: &[&str]) -> String {
    let mut args = vec!["--side", side, "--"];
    args.extend(bot);
    let mut session = Session::start(&args);
    let rules = Rules::new(8, 4).unwrap();
    let human = if side == "south" {
        Side::South
    } else {
        Side::North
    };
    let mut typed = 0;
    while let Next::Prompt(legal) = session.next() {
        // Replay what was printed so far: the human is to move, and
        // the prompt lists exactly the engine's legal moves.
        let mut pos = rules.start();
        for hole in plies(&session.text) {
            pos.play(Move::new(hole).unwrap()).unwrap();
        }
        assert_eq!(pos.to_move(), human, "{}", session.text);
        let engine: Vec<u8> = pos.legal_moves().into_iter().map(Move::hole).collect();
        assert_eq!(legal, engine, "{}", session.text);
        session.send(&legal[0].to_string());
        typed += 1;
    }
    let (code, text) = session.finish(true);
    assert_eq!(code, 0, "{text}");
    assert!(typed > 3, "{text}");
    assert!(!text.contains('\u{1b}'), "no colour in a pipe:\n{text}");
    // The whole game replays in the engine to the score printed.
    let mut pos = rules.start();
    let moves = plies(&text);
    for (i, hole) in moves.iter().enumerate() {
        pos.play(Move::new(*hole).unwrap())
            .unwrap_or_else(|e| panic!("ply {}: {e}\n{text}", i + 1));
    }
    let outcome = pos.outcome().expect("the game is over");
    let seeds = [pos.captured(Side::South), pos.captured(Side::North)];
    assert_eq!(final_score(&text), seeds, "{text}");
    let result = result_line(&text);
    match outcome.winner {
        None => assert!(result.starts_with("Result: a draw"), "{result}"),
        Some(w) if w == human => assert!(result.starts_with("Result: you win "), "{result}"),
        Some(_) => assert!(result.contains(" wins "), "{result}"),
    }
    assert!(text.contains(&format!("Game over after {} plies", moves.len())));
    text
}

#[test]
fn a_scripted_human_plays_a_whole_game_against_random() {
    let text = scripted_game("south", &["arena", "bot", "random", "--seed", "1"]);
    // The intro is wrapped to 80 columns: its words, whatever the breaks.
    assert!(
        text.replace('\n', " ")
            .contains("you are South, random is North; South moves first"),
        "{text}"
    );
    // The board from South's seat: North's holes numbered from its own
    // left above its row, South's 1..8 under its own.
    assert!(
        text.contains(
            "  random (North), captured 0\n       8   7   6   5   4   3   2   1\n  .--  4   4   4   4   4   4   4   4 <-.\n  v                                    ^\n  '->  4   4   4   4   4   4   4   4 --'\n       1   2   3   4   5   6   7   8\n  you (South), captured 0\n  ply 0; to move: you\n"
        ),
        "{text}"
    );
}

#[test]
fn a_scripted_human_plays_a_whole_game_against_greedy_as_north() {
    let text = scripted_game("north", &["arena", "bot", "greedy"]);
    assert_contains(&text, "you are North, greedy is South");
    assert_contains(&text, "Ply 1: greedy plays ");
    assert_contains(&text, "Ply 2: you play ");
}

/// After `4 3 2 4 1` on 2x4 (RULES.md's example) North is to move: hole 1
/// sows forever, hole 2 is empty, 3 and 4 are legal.
const ENDLESS: [&str; 7] = [
    "--holes",
    "4",
    "--side",
    "north",
    "--opening",
    "4 3 2 4 1",
    "--",
];

fn endless_args<'a>(bot: &[&'a str]) -> Vec<&'a str> {
    let mut args = ENDLESS.to_vec();
    args.extend(bot);
    args
}

#[test]
fn every_kind_of_bad_input_gets_its_message_and_a_new_prompt() {
    let input = "abc\n5\n0\n2\n1\n\nlegal\nhelp\n3\nquit\n";
    let (code, text) = play(&endless_args(&["arena", "bot", "greedy"]), input);
    assert_eq!(code, 0, "{text}");
    let prompt = "Your move, ply 6 (legal: 3 4): ";
    let expected = [
        "abc\n'abc' is not a hole number: type one of your holes (legal: 3 4), or help\n",
        "5\nthere is no hole 5: your holes are 1 to 4, numbered from your left under your row (legal: 3 4)\n",
        "0\nthere is no hole 0: your holes are 1 to 4, numbered from your left under your row (legal: 3 4)\n",
        "2\nyour hole 2 is empty: pick a hole with seeds (legal: 3 4)\n",
        "1\nhole 1 is an endless move: its relay sowing is still going at lap 100000, the lap limit (that lap ends in an occupied hole), so the rules do not allow it (legal: 3 4)\n",
        "\n",
        "legal\nyour legal moves: 3 4 (not 1: endless, still sowing at lap 100000, the lap limit)\n",
        "help\nType one of these, then Enter:\n  1 to 4   play that hole of your row",
    ];
    // Each answer follows its own prompt, in order.
    let mut rest = text.as_str();
    for answer in expected {
        let at = rest
            .find(&format!("{prompt}{answer}"))
            .unwrap_or_else(|| panic!("no {answer:?} after a prompt in:\n{text}"));
        rest = &rest[at + prompt.len()..];
    }
    assert_eq!(text.matches(prompt).count(), 9, "{text}");
    // Then the move, the bot's reply, and the next prompt.
    assert!(rest.contains("3\nPly 6: you play 3: 15 laps"), "{text}");
    assert!(rest.contains("Ply 7: greedy plays "), "{text}");
    assert!(rest.contains("Your move, ply 8 "), "{text}");
    assert_ends_with(
        &text,
        "quit\nYou quit: the game is abandoned after 7 plies; stopping the bot.\n",
    );
}

#[test]
fn a_move_over_the_lap_limit_is_refused_and_says_so() {
    // Hole 3 needs 15 laps: with a limit of 14 it counts as endless.
    let mut args = vec!["--max-laps", "14"];
    args.extend(endless_args(&["arena", "bot", "random", "--seed", "1"]));
    let (code, text) = play(&args, "3\nquit\n");
    assert_eq!(code, 0, "{text}");
    assert_contains(&text, "Your move, ply 6 (legal: 4): 3\nhole 3 is an endless move: its relay sowing is still going at lap 14, the lap limit (that lap ends in an occupied hole), so the rules do not allow it (legal: 4)\n");
}

#[test]
fn laps_shows_each_lap_with_its_board() {
    let (code, text) = play(
        &endless_args(&["arena", "bot", "random", "--seed", "1"]),
        "laps\n3\nquit\n",
    );
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("laps\nlaps on: each move is shown lap by lap\n"));
    // A lap line too long for 80 columns goes on on lines indented by 4.
    let mut lines: Vec<String> = Vec::new();
    for line in text.lines() {
        let goes_on = line.starts_with("    ") && !line.starts_with("     ");
        match lines.last_mut() {
            Some(last) if goes_on && last.starts_with("  lap ") => {
                last.push(' ');
                last.push_str(line.trim_start());
            }
            _ => lines.push(line.to_string()),
        }
    }
    let laps: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("  lap "))
        .take_while(|l| !l.contains("sowing ends"))
        .collect();
    assert_eq!(laps.len(), 14, "{text}");
    // Lap 1 lifts North's hole 3 (6 seeds) and ends in its hole 1 (2 seeds).
    assert_contains(&text, "  lap 1: 6 seeds from your hole 3; the last falls in your hole 1, which held\n    seeds: they are lifted next\n\n  random (South), captured 5\n       4   3   2   1\n  .--  2   1   6   1 <-.\n  v                    ^\n  '->  3   0   0   6 --'\n");
    assert!(
        lines.iter().any(|l| l == "  lap 15: 6 seeds from your hole 1; the last falls in random's hole 3, which was empty: the sowing ends, on the other side (no capture)"),
        "{text}"
    );
    // A board after each of the 14 laps, then one after the move.
    let between = &text[text.find("  lap 1:").unwrap()..text.find("  lap 15:").unwrap()];
    assert_eq!(between.matches("<-.").count(), 14);
}

/// The pids of `pid`'s descendants, from /proc.
fn descendants(pid: i32) -> Vec<i32> {
    let mut parents: Vec<(i32, i32)> = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(p) = entry.file_name().to_string_lossy().parse::<i32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        let Some((_, rest)) = stat.rsplit_once(')') else {
            continue;
        };
        if let Some(ppid) = rest.split_whitespace().nth(1).and_then(|s| s.parse().ok()) {
            parents.push((p, ppid));
        }
    }
    let mut found = vec![pid];
    let mut i = 0;
    while i < found.len() {
        let parent = found[i];
        found.extend(
            parents
                .iter()
                .filter(|(_, pp)| *pp == parent)
                .map(|(p, _)| *p),
        );
        i += 1;
    }
    found.remove(0);
    found
}

/// A game against the random bot with a seed of its own (`marker`), one
/// move played, stopped by `stop`: no process it started is left.
fn stopped_mid_game(marker: &str, signal: bool, stop: impl FnOnce(&mut Session)) -> (i32, String) {
    let mut session = Session::start(&["--", "arena", "bot", "random", "--seed", marker]);
    let Next::Prompt(legal) = session.next() else {
        panic!("no prompt")
    };
    session.send(&legal[0].to_string());
    assert!(matches!(session.next(), Next::Prompt(_)));
    // The guard and the bot under it are running now.
    let started = descendants(session.pid());
    let bot = format!("arena bot random --seed {marker}");
    let running = started.iter().filter(|pid| {
        std::fs::read(format!("/proc/{pid}/cmdline")).is_ok_and(|c| {
            String::from_utf8_lossy(&c)
                .replace('\0', " ")
                .contains(&bot)
        })
    });
    assert_eq!(running.count(), 2, "the guard and the bot: {started:?}");
    stop(&mut session);
    let (code, text) = session.finish(!signal);
    let left = common::leftovers(&format!("--seed {marker}"), &started);
    assert!(left.is_empty(), "left behind: {left:?}\n{text}");
    (code, text)
}

#[test]
fn quit_mid_game_stops_the_bot() {
    let (code, text) = stopped_mid_game("70707", false, |s| s.send("quit"));
    assert_eq!(code, 0, "{text}");
    assert_ends_with(
        &text,
        "quit\nYou quit: the game is abandoned after 2 plies; stopping the bot.\n",
    );
}

#[test]
fn ctrl_c_mid_game_stops_the_bot() {
    let (code, text) = stopped_mid_game("80808", true, |s| {
        nix::sys::signal::kill(
            nix::unistd::Pid::from_raw(s.pid()),
            nix::sys::signal::Signal::SIGINT,
        )
        .unwrap();
    });
    assert_eq!(code, 130, "{text}");
    assert_ends_with(
        &text,
        "\nInterrupted: the game is abandoned after 2 plies; stopping the bot.\n",
    );
}

#[test]
fn the_end_of_the_input_abandons_the_game() {
    let (code, text) = play(&["--", "arena", "bot", "greedy"], "1\n");
    assert_eq!(code, 0, "{text}");
    assert!(
        text.ends_with(
            "\nThe input ended: the game is abandoned after 2 plies; stopping the bot.\n"
        ),
        "{text}"
    );
}

/// `arena play ARGS… --side north -- python3 SCRIPT…` with no input (the
/// bot plays South), asserting it exited 0: what it printed.
fn against_a_faulty_bot(args: &[&str], script: &[&str]) -> String {
    let mut all = args.to_vec();
    all.extend(["--side", "north", "--", "python3"]);
    all.extend(script);
    let (code, text) = play(&all, "");
    assert_eq!(code, 0, "{text}");
    text
}

#[test]
fn a_bot_that_faults_loses_by_forfeit() {
    // The illegal bot plays South and answers hole 5 on 2x4.
    let text = against_a_faulty_bot(&["--holes", "4"], &["test-bots/illegal.py"]);
    assert_ends_with(&text, "illegal (South) forfeits: illegal-move: hole 5 does not exist: holes are 1 to 4;\n  legal were 1 2 3 4; it sent 'move 5'.\nResult: you win by forfeit.\nFinal score: illegal (South) 0, you (North) 0.\n");
    // The crash bot exits when asked for its first move.
    let text = against_a_faulty_bot(&[], &["test-bots/crash.py", "--at", "1"]);
    assert_contains(&text, "crash (South) forfeits: crash: ");
    assert!(
        text.replace("\n  ", " ").contains("(exit status: 3)"),
        "{text}"
    );
    assert_contains(&text, "Result: you win by forfeit.");
}

#[test]
fn two_bots_play_the_game_the_referee_plays() {
    let random = ["arena", "bot", "random", "--seed", "1"];
    let greedy = ["arena", "bot", "greedy"];
    let mut args = vec!["--bots", "--holes", "6", "--"];
    args.extend(random);
    args.push("--");
    args.extend(greedy);
    let (code, text) = play(&args, "");
    assert_eq!(code, 0, "{text}");
    assert_contains(&text, "South (random) against North (greedy)");
    assert!(!text.contains("Your move"), "{text}");

    // The same two bots in a one-game tournament without an opening.
    let dir = tempfile::tempdir().unwrap();
    let header = "[board]\nholes = 6\n[openings]\nplies_min = 0\nplies_max = 0\n[tournament]\nfirst_to = 1\nmax_games = 1\n";
    let command = |c: &[&str]| c.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let cfg = common::config(
        dir.path(),
        header,
        &[("random", command(&random)), ("greedy", command(&greedy))],
    );
    let out = dir.path().join("run");
    common::assert_success(&common::run_arena(&cfg, &out));
    let games = common::rows(&out.join("games.csv"));
    assert_eq!(games.len(), 1);
    let game = &games[0];
    assert_eq!(
        (game["south"].as_str(), game["north"].as_str()),
        ("random", "greedy")
    );

    let moves: Vec<String> = plies(&text).iter().map(u8::to_string).collect();
    assert_eq!(moves.join(" "), game["moves"], "{text}");
    let score = final_score(&text);
    assert_eq!(
        [score[0].to_string(), score[1].to_string()],
        [game["south_seeds"].clone(), game["north_seeds"].clone()]
    );
    let winner = match game["result"].as_str() {
        "south" => "Result: South (random) wins ",
        "north" => "Result: North (greedy) wins ",
        _ => "Result: a draw",
    };
    assert!(result_line(&text).starts_with(winner), "{text}");
    let why = match game["termination"].as_str() {
        "no-moves" => " no legal move, so ",
        _ => "the ply limit",
    };
    assert_contains(&text, why);

    // And the rules engine agrees with both.
    let mut pos = Rules::new(6, 4).unwrap().start();
    for hole in plies(&text) {
        pos.play(Move::new(hole).unwrap()).unwrap();
    }
    assert!(pos.is_over());
    assert_eq!(
        [pos.captured(Side::South), pos.captured(Side::North)],
        score
    );
}

#[test]
fn step_waits_for_enter_before_each_ply() {
    let args = [
        "--bots", "--step", "--", "arena", "bot", "greedy", "--", "arena", "bot", "random",
    ];
    let (code, text) = play(&args, "\nnext\n\nquit\n");
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("Press Enter for ply 1 (laps, quit): \nPly 1: South (greedy) plays "));
    assert!(text.contains(
        "Press Enter for ply 2 (laps, quit): next\n'next': press Enter for the next ply, or type laps or quit\nPress Enter for ply 2 (laps, quit): \nPly 2: North (random) plays "
    ), "{text}");
    assert!(!text.contains("Ply 3:"), "{text}");
    assert_ends_with(&text, "Press Enter for ply 3 (laps, quit): quit\nYou quit: the game is abandoned after 2 plies; stopping the bots.\n");
}

#[test]
fn colour_only_on_request_and_never_with_no_color() {
    let run = |env: &[(&str, &str)]| {
        let mut cmd = play_command(&["--", "arena", "bot", "greedy"]);
        for (k, v) in env {
            cmd.env(k, v);
        }
        let output = Command::from_std(cmd)
            .write_stdin("quit\n")
            .timeout(STALLED)
            .output()
            .unwrap();
        assert!(output.status.success());
        stdout_of(&output)
    };
    assert!(!run(&[]).contains('\u{1b}'));
    assert!(run(&[("CLICOLOR_FORCE", "1")]).contains("\u{1b}["));
    assert!(!run(&[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")]).contains('\u{1b}'));
}

#[test]
fn bad_arguments_get_one_line_and_exit_2() {
    let cases: [(&[&str], &str); 5] = [
        (
            &["--", "no-such-bot-program"],
            "program 'no-such-bot-program' not found",
        ),
        (
            &["--bots", "--", "arena", "bot", "greedy"],
            "two bots need two commands",
        ),
        (
            &["--opening", "1 9", "--", "arena", "bot", "greedy"],
            "--opening: ply 2 (north to move) cannot be 9",
        ),
        (
            &["--holes", "51", "--", "arena", "bot", "greedy"],
            "51 holes per row is not playable",
        ),
        (
            &["--", "arena", "bot", "nosuch"],
            "the bot 'arena bot nosuch' did not start",
        ),
    ];
    for (args, message) in cases {
        let output = play_output(args, "");
        let stderr = stderr_of(&output);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    }
}

#[test]
fn the_intro_is_wrapped_to_80_columns_off_a_terminal() {
    // A long bot name, an opening: the lines that overflowed 80 columns.
    let (code, text) = play(
        &["--opening", "4 3 2 4", "--", "arena", "bot", "alphabeta"],
        "quit\n",
    );
    assert_eq!(code, 0, "{text}");
    let intro: Vec<&str> = text.lines().take_while(|l| !l.is_empty()).collect();
    assert!(intro.len() >= 4, "{text}");
    for line in &intro {
        assert!(
            line.chars().count() <= 80,
            "{} columns: {line}\n{text}",
            line.chars().count()
        );
    }
    // Nothing is lost by the wrapping: the words are those of the sentences.
    let words = intro.join(" ");
    assert!(
        words.contains(
            "arena play: 2x8 board, 4 seeds per hole, after the opening 4 3 2 4; \
             you are South, alphabeta is North; South moves first."
        ),
        "{words}"
    );
    assert_contains(
        &words,
        "then alphabeta's row to the left. alphabeta's holes are numbered",
    );
}

#[test]
fn move_lap_and_status_lines_fit_80_columns_off_a_terminal() {
    // Issue 17's tester: "Ply 7: South (alphabeta) plays 3: 2 laps, ...,
    // captures ..." ran past 80 columns, as did lap lines.
    let (code, text) = play(
        &[
            "--laps",
            "--bots",
            "--",
            "arena",
            "bot",
            "alphabeta",
            "--",
            "arena",
            "bot",
            "greedy",
        ],
        "",
    );
    assert_eq!(code, 0, "{text}");
    for line in text.lines() {
        assert!(
            line.chars().count() <= 80,
            "{} columns: {line}\n{text}",
            line.chars().count()
        );
    }
    // Wrapped, not cut: a move line goes on on an indented line.
    assert_contains(&text, "Ply 1: South (alphabeta) plays ");
    let joined = text.replace("\n  ", " ");
    assert!(
        joined.contains("captures") && joined.contains("and the triggering seed:"),
        "{text}"
    );
    assert!(joined.contains("; the last falls in "), "{text}");
}

#[test]
fn south_and_north_take_commands_that_hold_a_double_dash() {
    // `env -- PROGRAM` holds a `--` of its own, as `cargo run -- ...` does:
    // --bots would split there; --south and --north take it whole.
    let south = "env -- python3 'bots/python/greedy.py' --seed 3";
    let (code, text) = play(
        &[
            "--holes",
            "6",
            "--south",
            south,
            "--north",
            "arena bot greedy",
        ],
        "",
    );
    assert_eq!(code, 0, "{text}");
    let intro = text.lines().take(2).collect::<Vec<_>>().join(" ");
    assert!(
        intro.contains("South (greedy-py) against North (greedy)"),
        "{text}"
    );
    assert_contains(&text, "Result: ");

    // The same game as the old way, with a command that has no `--`.
    let (code, old) = play(
        &[
            "--holes",
            "6",
            "--bots",
            "--",
            "python3",
            "bots/python/greedy.py",
            "--seed",
            "3",
            "--",
            "arena",
            "bot",
            "greedy",
        ],
        "",
    );
    assert_eq!(code, 0, "{old}");
    assert_eq!(plies(&text), plies(&old));
    assert_eq!(result_line(&text), result_line(&old));

    // Bad uses get one line and exit 2.
    let cases: [(&[&str], &str); 3] = [
        (&["--south", "arena bot greedy"], "--north"),
        (
            &[
                "--south",
                "arena bot 'greedy",
                "--north",
                "arena bot greedy",
            ],
            "--south: missing closing quote",
        ),
        (
            &[
                "--south",
                "arena bot greedy",
                "--north",
                "arena bot random",
                "--",
                "arena",
            ],
            "give the bots' commands one way",
        ),
    ];
    for (args, message) in cases {
        let output = play_output(args, "");
        let stderr = stderr_of(&output);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    }
}
