//! `arena check`: every bot in bots/ passes it, and the faulty bots of
//! test-bots/ fail it with the right checklist line. The bots run as real
//! processes, from the repository root, as a bot author would run them.
//!
//! The JavaScript bot needs `node`: without it its test says it is skipped,
//! unless ENDODOI_REQUIRE_NODE=1 (as in CI), which makes it fail.

mod common;

use std::collections::BTreeSet;

use assert_cmd::Command;

use common::{assert_contains, assert_ends_with, repo, stderr_of, stdout_of};

/// The checks, in the order of the checklist.
const CHECKS: [&str; 9] = [
    "handshake",
    "game 2x8 as South",
    "game 2x12 as North",
    "North mid-game",
    "single legal move",
    "endless move",
    "lap limit",
    "reply time",
    "quit",
];

/// Every bot script in bots/ (besides tests), as its interpreter runs it.
const SCRIPT_BOTS: [(&str, &str); 5] = [
    ("python3", "bots/python/first_legal.py"),
    ("python3", "bots/python/greedy.py"),
    ("python3", "bots/python/template.py"),
    ("bash", "bots/shell/first_legal.sh"),
    ("node", "bots/js/greedy.js"),
];

/// `arena check OPTIONS -- BOT...` from the repository root, asserting it
/// exited with `code` and printed nothing on stderr: its stdout.
fn check_exits(code: i32, options: &[&str], bot: &[&str]) -> String {
    let output = Command::cargo_bin("arena")
        .unwrap()
        .current_dir(repo())
        .arg("check")
        .args(options)
        .arg("--")
        .args(bot)
        .output()
        .unwrap();
    let stdout = stdout_of(&output);
    assert!(output.stderr.is_empty(), "stderr: {}", stderr_of(&output));
    assert_eq!(output.status.code().unwrap_or(-1), code, "{stdout}");
    stdout
}

/// Asserts that the checklist line of check `name` in `stdout` starts
/// with `prefix`, showing the checklist if not.
#[track_caller]
fn assert_line_starts(stdout: &str, name: &str, prefix: &str) {
    assert!(line(stdout, name).starts_with(prefix), "{stdout}");
}

/// The checklist line of check `name`.
fn line<'a>(stdout: &'a str, name: &str) -> &'a str {
    stdout
        .lines()
        .find(|l| {
            l.get(6..)
                .is_some_and(|rest| rest.starts_with(&format!("{name} ")))
        })
        .unwrap_or_else(|| panic!("no line for '{name}' in:\n{stdout}"))
}

/// Asserts that `bot` passes every check.
fn passes(bot: &[&str]) {
    let stdout = check_exits(0, &[], bot);
    for name in CHECKS {
        assert_line_starts(&stdout, name, "PASS  ");
    }
    assert_ends_with(&stdout, "all 9 checks passed\n");
}

fn script_bot(path: &str) -> [&str; 2] {
    let (interpreter, _) = SCRIPT_BOTS
        .iter()
        .find(|(_, p)| *p == path)
        .expect("listed in SCRIPT_BOTS");
    [interpreter, path]
}

#[test]
fn every_bot_script_in_bots_is_listed_here() {
    let mut found = BTreeSet::new();
    for dir in ["bots/python", "bots/shell", "bots/js"] {
        for entry in std::fs::read_dir(repo().join(dir)).unwrap() {
            let name = entry.unwrap().file_name().to_string_lossy().into_owned();
            let script = [".py", ".sh", ".js"].iter().any(|e| name.ends_with(e));
            if script && !name.starts_with("test_") {
                found.insert(format!("{dir}/{name}"));
            }
        }
    }
    let listed: BTreeSet<String> = SCRIPT_BOTS.iter().map(|(_, p)| p.to_string()).collect();
    assert_eq!(found, listed, "add new bots to SCRIPT_BOTS and to a test");
}

#[test]
fn bundled_rust_bots_pass() {
    passes(&["arena", "bot", "random", "--seed", "3"]);
    passes(&["arena", "bot", "greedy"]);
}

#[test]
fn options_go_in_hello_and_the_bots_list_is_shown() {
    let stdout = check_exits(
        0,
        &["--option", "depth=3", "--option", "style=fast"],
        &["arena", "bot", "alphabeta"],
    );
    let hello = line(&stdout, "handshake");
    assert_contains(
        hello,
        "'hello version=1 name=alphabeta options=depth,time_ms,seed,noise'",
    );
    assert!(
        hello.contains(
            "; its options: depth, time_ms, seed, noise; warning: it does not list style "
        ),
        "{hello}"
    );
    // A bad value for an option the bot takes stops it before its reply.
    let stdout = check_exits(1, &["--option", "depth=0"], &["arena", "bot", "alphabeta"]);
    assert_line_starts(&stdout, "handshake", "FAIL  ");
    // And the arena refuses an option that does not fit the protocol.
    let output = Command::cargo_bin("arena")
        .unwrap()
        .args([
            "check",
            "--option",
            "style=very fast",
            "--",
            "arena",
            "bot",
            "first",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert_contains(&stderr_of(&output), "write NAME=VALUE");
}

#[test]
fn searching_rust_bots_pass() {
    passes(&["arena", "bot", "alphabeta", "--depth", "4"]);
    passes(&["arena", "bot", "mcts", "--playouts", "200", "--seed", "1"]);
}

#[test]
fn python_bots_pass() {
    passes(&script_bot("bots/python/first_legal.py"));
    passes(&script_bot("bots/python/greedy.py"));
    passes(&script_bot("bots/python/template.py"));
}

#[test]
fn shell_bot_passes() {
    passes(&script_bot("bots/shell/first_legal.sh"));
}

#[test]
fn js_bot_passes() {
    let node = std::process::Command::new("node")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !node {
        assert_ne!(
            std::env::var("ENDODOI_REQUIRE_NODE").as_deref(),
            Ok("1"),
            "node is not on PATH, and ENDODOI_REQUIRE_NODE=1 requires the JavaScript bot's test"
        );
        eprintln!(
            "skipped: node is not on PATH (set ENDODOI_REQUIRE_NODE=1 to make this a failure)"
        );
        return;
    }
    passes(&script_bot("bots/js/greedy.js"));
}

/// `info` lines (even `info move 99`) and a flood of stderr are not replies;
/// `--log` keeps them.
#[test]
fn info_lines_and_stderr_pass_and_go_to_the_log() {
    let tmp = tempfile::tempdir().unwrap();
    let log = tmp.path().join("bot.log");
    check_exits(
        0,
        &["--log", log.to_str().unwrap()],
        &["python3", "test-bots/info_spam.py", "--stderr-bytes", "100"],
    );
    let log = std::fs::read_to_string(&log).unwrap();
    assert_contains(&log, "check info: move ");
}

#[test]
fn an_illegal_move_fails_each_game_with_the_move_and_the_legal_list() {
    let stdout = check_exits(1, &[], &["python3", "test-bots/illegal.py"]);
    assert_line_starts(&stdout, "handshake", "PASS  ");
    assert_eq!(
        line(&stdout, "game 2x8 as South"),
        "FAIL  game 2x8 as South   at ply 0: illegal move: hole 9 does not exist: holes are 1 to 8; sent 'move 9'; expected 'move N' with N in legal=1,2,3,4,5,6,7,8"
    );
    assert_eq!(
        line(&stdout, "North mid-game"),
        "FAIL  North mid-game      at ply 3: illegal move: hole 1 is empty; sent 'move 1'; expected 'move N' with N in legal=4,5,6"
    );
    assert_eq!(
        line(&stdout, "endless move"),
        "FAIL  endless move        at ply 5: illegal move: hole 1 is an endless move (still sowing at lap 100000); sent 'move 1'; expected 'move N' with N in legal=3,4"
    );
    assert_line_starts(
        &stdout,
        "lap limit",
        "FAIL  lap limit           at ply 10: illegal move: hole 1 is an endless move",
    );
    assert!(
        line(&stdout, "single legal move").contains("legal=3"),
        "{stdout}"
    );
    // An illegal move keeps the bot in step: it is still there for quit.
    assert_line_starts(&stdout, "quit", "PASS  ");
    assert_contains(&stdout, "6 of 9 checks failed\n");
    assert_ends_with(
        &stdout,
        "run again with --log FILE before -- to see what it said)\n",
    );
}

#[test]
fn garbage_is_shown_escaped() {
    let stdout = check_exits(1, &[], &["python3", "test-bots/garbage.py"]);
    assert_eq!(
        line(&stdout, "game 2x8 as South"),
        "FAIL  game 2x8 as South   at ply 0: not the answer to turn; sent 'hello there'; expected 'move N' with N in legal=1,2,3,4,5,6,7,8"
    );
    let stdout = check_exits(
        1,
        &[],
        &[
            "python3",
            "test-bots/garbage.py",
            "--reply",
            "move \u{1b}[2J",
        ],
    );
    assert_line_starts(&stdout, "game 2x12 as North", "FAIL  game 2x12 as North  at ply 1: not a hole number; sent 'move \\u{1b}[2J'; expected 'move N' with N in legal=");
    assert!(!stdout.contains('\u{1b}'), "{stdout}");
}

#[test]
fn a_crash_fails_with_its_exit_status_and_the_bot_is_restarted() {
    let stdout = check_exits(1, &[], &["python3", "test-bots/crash.py"]);
    for name in &CHECKS[1..7] {
        let l = line(&stdout, name);
        assert!(l.starts_with("FAIL  "), "{stdout}");
        assert!(l.contains("(exit status: 3)"), "{stdout}");
    }
    assert!(
        line(&stdout, "game 2x8 as South").contains("at ply 2: "),
        "{stdout}"
    );
    assert_line_starts(&stdout, "quit", "PASS  ");
}

#[test]
fn a_hang_fails_on_time() {
    let stdout = check_exits(
        1,
        &["--move-time-ms", "100"],
        &["python3", "test-bots/hang.py"],
    );
    assert_eq!(
        line(&stdout, "game 2x8 as South"),
        "FAIL  game 2x8 as South   at ply 0: no reply within its 100 ms (and the 50 ms margin); expected 'move N' with N in legal=1,2,3,4,5,6,7,8"
    );
    assert_line_starts(
        &stdout,
        "reply time",
        "FAIL  reply time          6 of 6 turns got no reply within 100 ms (+50 ms margin)",
    );
}

#[test]
fn no_handshake_skips_the_rest() {
    let stdout = check_exits(
        1,
        &["--startup-ms", "300"],
        &["python3", "test-bots/slow_start.py"],
    );
    assert_line_starts(&stdout, "handshake", "FAIL  handshake           at hello: no reply within 300 ms (if it wrote one, flush standard output after each line); expected 'hello version=1 name=NAME'");
    for name in &CHECKS[1..] {
        assert_line_starts(&stdout, name, "SKIP  ");
    }
    assert_contains(&stdout, "1 of 9 checks failed, 8 skipped\n");
}

#[test]
fn a_bot_that_lingers_after_quit_fails_quit() {
    let stdout = check_exits(1, &[], &["python3", "test-bots/linger.py"]);
    assert_eq!(
        line(&stdout, "quit"),
        "FAIL  quit                still running 500 ms after quit and the end of its input; expected it to exit within 500 ms (a tournament then sends SIGTERM, then SIGKILL)"
    );
    assert_contains(&stdout, "1 of 9 checks failed\n");
}

#[test]
fn usage_errors_exit_2_with_one_line() {
    let arena = || {
        let mut c = Command::cargo_bin("arena").unwrap();
        c.current_dir(repo()).arg("check");
        c
    };
    for args in [
        vec!["--", "./no-such-bot"],
        vec![],
        vec!["--move-time-ms", "0", "--", "python3", "x.py"],
        vec!["--startup-ms", "600001", "--", "python3", "x.py"],
        vec![
            "--log",
            "/no/such/dir/bot.log",
            "--",
            "arena",
            "bot",
            "random",
        ],
    ] {
        let output = arena().args(&args).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(output.stdout.is_empty(), "{args:?}");
        let stderr = stderr_of(&output);
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.starts_with("error: "), "{stderr}");
    }
}

/// Writes `dir/file`, a Python bot that answers hello with `hello` (a
/// Python string's text: escapes allowed), plays the first legal move, and
/// answers gameover with `on_gameover` if it is not empty (gameover takes
/// no reply).
fn first_legal_py(
    dir: &std::path::Path,
    file: &str,
    hello: &str,
    on_gameover: &str,
) -> std::path::PathBuf {
    let bot = dir.join(file);
    let gameover = if on_gameover.is_empty() {
        String::new()
    } else {
        format!("    elif w[0] == 'gameover': print('{on_gameover}', flush=True)\n")
    };
    std::fs::write(
        &bot,
        format!(
            "import sys\n\
             for line in sys.stdin:\n\
             \x20   w = line.split()\n\
             \x20   if not w: continue\n\
             \x20   if w[0] == 'hello': print('{hello}', flush=True)\n\
             \x20   elif w[0] == 'newgame': print('ready', flush=True)\n\
             \x20   elif w[0] == 'turn':\n\
             \x20       legal = [x for x in w if x.startswith('legal=')][0][6:]\n\
             \x20       print('move', legal.split(',')[0], flush=True)\n\
             {gameover}\
             \x20   elif w[0] == 'quit': break\n"
        ),
    )
    .unwrap();
    bot
}

#[test]
fn a_reply_to_gameover_is_named_as_such() {
    let tmp = tempfile::tempdir().unwrap();
    // Plays the first legal move, and answers gameover, which takes no reply.
    let bot = first_legal_py(tmp.path(), "chatty.py", "hello version=1 name=chatty", "ok");
    let stdout = check_exits(1, &[], &["python3", bot.to_str().unwrap()]);
    // Caught before newgame if it has arrived by then, else as newgame's
    // answer; named as a reply to gameover either way.
    assert!(
        stdout.contains(
            "sent 'ok' before it was asked for anything (after gameover, which takes no reply)"
        ) || stdout
            .contains("not a protocol message (after gameover, which takes no reply); sent 'ok'"),
        "{stdout}"
    );
}

/// A bot's `options=` list reaches the organiser's terminal: escape
/// sequences in it (a colour, a window title with BEL) must not.
#[test]
fn escape_sequences_in_a_bots_options_do_not_reach_the_terminal() {
    let tmp = tempfile::tempdir().unwrap();
    let bot = first_legal_py(
        tmp.path(),
        "escopt.py",
        "hello version=1 name=esc options=\\x1b[31mred\\x1b[0m,depth,\\x1b]0;pwned\\x07,depth",
        "",
    );
    let stdout = check_exits(
        0,
        &["--option", "bogus=1"],
        &["python3", bot.to_str().unwrap()],
    );
    assert!(
        !stdout
            .bytes()
            .any(|b| (b < 0x20 && b != b'\n') || b == 0x7f),
        "a raw control byte in: {stdout:?}"
    );
    // The valid name is kept, once; the rest is dropped.
    let handshake = line(&stdout, "handshake");
    assert_contains(
        handshake,
        "; its options: depth; warning: it does not list bogus (sent as option.bogus=1 in hello)",
    );
}

#[test]
fn a_bot_that_answers_hello_twice_fails_the_handshake_in_words_it_can_act_on() {
    let stdout = check_exits(1, &[], &["python3", "test-bots/early_hello.py"]);
    let handshake = line(&stdout, "handshake");
    assert!(
        handshake.starts_with("FAIL  handshake           'hello version=1 name=early-hello' in "),
        "{stdout}"
    );
    assert!(
        handshake.ends_with("but it answered hello twice (the second 'hello version=1 name=early-hello'): it sent two hello replies (one early, before it was asked, or two in answer to one hello); the arena skips the second, but send exactly one, in answer to the arena's hello"),
        "{stdout}"
    );
    // The skipped reply costs it nothing: every game passes.
    for name in &CHECKS[1..] {
        assert_line_starts(&stdout, name, "PASS  ");
    }
    assert_contains(&stdout, "\n1 of 9 checks failed\n");
}

/// A banner line that is not UTF-8 is shown as sent, `\xff`, as the
/// referee's details and logs show it (it was `\u{fffd}`).
#[test]
fn a_banner_that_is_not_utf8_is_shown_as_its_bytes() {
    // The bot reads `\xff` as the byte 0xff.
    let stdout = check_exits(
        0,
        &[],
        &[
            "python3",
            "test-bots/early_hello.py",
            "--banner",
            "EarlyBot \\xff1.0",
        ],
    );
    assert!(
        line(&stdout, "handshake").ends_with("skipped as a banner: 'EarlyBot \\xff1.0')"),
        "{stdout}"
    );
    assert!(!stdout.contains("fffd"), "{stdout}");
}

#[test]
fn a_banner_or_an_early_hello_reply_passes() {
    passes(&["python3", "test-bots/early_hello.py", "--once"]);
    let stdout = check_exits(
        0,
        &[],
        &[
            "python3",
            "test-bots/early_hello.py",
            "--banner",
            "EarlyBot 1.0",
        ],
    );
    assert!(
        line(&stdout, "handshake").ends_with(
            " (after 1 line that is not a hello reply, skipped as a banner: 'EarlyBot 1.0')"
        ),
        "{stdout}"
    );
}

#[test]
fn a_missing_script_is_named_before_anything_starts() {
    let output = Command::cargo_bin("arena")
        .unwrap()
        .current_dir(repo())
        .args(["check", "--", "python3", "test-bots/no_such_bot.py"])
        .output()
        .unwrap();
    let stderr = stderr_of(&output);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert_contains(&stderr, "script 'test-bots/no_such_bot.py' does not exist");
    assert!(
        output.stdout.is_empty(),
        "no checklist: {}",
        stdout_of(&output)
    );
}
