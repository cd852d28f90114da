//! Runs each fault bot on a scripted exchange and checks it shows its fault.
//!
//! No test sleeps to synchronise: each reads the bot's output line by line
//! (or its standard error, or waits for its exit). A watchdog kills a bot
//! that is still running after 10 s, so a broken bot fails its test instead of
//! hanging the suite.

use nix::sys::signal::{kill, killpg, Signal};
use nix::unistd::{getpgid, Pid};
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Child, ChildStderr, ChildStdin, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

const HELLO: &str = "hello version=1";
const NEWGAME: &str = "newgame holes=3 seeds=2 side=south move_time_ms=1000 base_time_ms=0 \
                       increment_ms=0 max_plies=1000 max_laps=100000";
const TURN1: &str =
    "turn mine=2,2,2 theirs=2,2,2 captured=0,0 last=none legal=1,2,3 ply=0 time_ms=1000";
const TURN2: &str = "turn mine=0,2,0 theirs=1,3,0 captured=4,2 last=2 legal=2 ply=2 time_ms=1000";
const GAMEOVER: &str = "gameover result=loss mine=4 theirs=8 reason=no-moves";

/// A running bot with piped standard streams, killed when dropped.
struct Bot {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
    stderr: Option<BufReader<ChildStderr>>,
    watchdog: Option<mpsc::Sender<()>>,
}

impl Bot {
    /// Starts `exe` with `args`, as the leader of a new process group (as the
    /// arena starts bots).
    fn spawn(exe: &str, args: &[&str]) -> Bot {
        Bot::spawn_command(Command::new(exe).args(args))
    }

    fn spawn_command(command: &mut Command) -> Bot {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .spawn()
            .expect("start the bot");
        let (tx, rx) = mpsc::channel::<()>();
        let pid = Pid::from_raw(child.id() as i32);
        std::thread::spawn(move || {
            if rx.recv_timeout(Duration::from_secs(10)) == Err(mpsc::RecvTimeoutError::Timeout) {
                let _ = kill(pid, Signal::SIGKILL);
            }
        });
        Bot {
            stdin: child.stdin.take(),
            stdout: BufReader::new(child.stdout.take().unwrap()),
            stderr: child.stderr.take().map(BufReader::new),
            child,
            watchdog: Some(tx),
        }
    }

    fn pid(&self) -> Pid {
        Pid::from_raw(self.child.id() as i32)
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        writeln!(stdin, "{line}").expect("write to the bot");
        stdin.flush().unwrap();
    }

    fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// The next line of standard output, newline included (raw bytes).
    fn raw_line(&mut self) -> Vec<u8> {
        let mut line = Vec::new();
        self.stdout.read_until(b'\n', &mut line).unwrap();
        line
    }

    /// The next line of standard output, without its newline; panics at end
    /// of output.
    fn line(&mut self) -> String {
        let line = String::from_utf8(self.raw_line()).expect("a UTF-8 line");
        line.strip_suffix('\n')
            .unwrap_or_else(|| panic!("a whole line, got {line:?}"))
            .to_string()
    }

    /// Everything left on standard output, up to end of output.
    fn rest(&mut self) -> Vec<u8> {
        let mut rest = Vec::new();
        self.stdout.read_to_end(&mut rest).unwrap();
        rest
    }

    /// The next line of standard error, without its newline.
    fn err_line(&mut self) -> String {
        let mut line = String::new();
        let stderr = self.stderr.as_mut().expect("stderr is piped");
        stderr.read_line(&mut line).unwrap();
        line.trim_end().to_string()
    }

    /// Reads standard error to its end on a thread; returns the byte count.
    fn count_stderr(&mut self) -> std::thread::JoinHandle<usize> {
        let mut stderr = self.stderr.take().expect("stderr is piped");
        std::thread::spawn(move || {
            std::io::copy(&mut stderr, &mut std::io::sink()).unwrap() as usize
        })
    }

    /// Sends `message` and checks that the bot's next line is `reply`.
    fn answers(&mut self, message: &str, reply: &str) {
        self.send(message);
        assert_eq!(self.line(), reply);
    }

    /// Sends `hello` and `newgame` and checks the two replies.
    fn handshake(&mut self, name: &str) {
        self.answers(HELLO, &format!("hello version=1 name={name}"));
        self.answers(NEWGAME, "ready");
    }

    /// Asserts that the bot exits with `code` having sent nothing more on
    /// stdout; `why` says what that shows.
    fn exits_silently(&mut self, code: i32, why: &str) {
        assert_eq!(self.wait().code(), Some(code), "{why}");
        assert_eq!(self.rest(), b"", "{why}");
    }

    fn wait(&mut self) -> ExitStatus {
        self.stdin = None;
        let status = self.child.wait().unwrap();
        self.watchdog = None;
        status
    }

    fn kill(&mut self) -> ExitStatus {
        self.child.kill().unwrap();
        self.wait()
    }
}

impl Drop for Bot {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// The fault bot `$name` (the binary's name, and its name in its hello
/// reply) started with `$args`, its handshake done and its first turn sent.
macro_rules! at_first_turn {
    ($name:literal, $args:expr) => {{
        let mut bot = Bot::spawn(env!(concat!("CARGO_BIN_EXE_", $name)), $args);
        bot.handshake($name);
        bot.send(TURN1);
        bot
    }};
}

#[test]
fn crash_exits_3_on_its_second_turn() {
    let mut bot = at_first_turn!("fault-crash", &[]);
    assert_eq!(bot.line(), "move 1");
    bot.send(TURN2);
    bot.exits_silently(3, "no move once it crashed");
}

#[test]
fn crash_at_1_exits_on_its_first_turn_of_each_game() {
    let mut bot = at_first_turn!("fault-crash", &["--at", "1"]);
    bot.exits_silently(3, "no move once it crashed");
}

#[test]
fn hang_never_answers_its_first_turn_and_exits_at_end_of_input() {
    let mut bot = at_first_turn!("fault-hang", &[]);
    bot.send("quit");
    bot.close_stdin();
    bot.exits_silently(0, "no move, even after quit");
}

#[test]
fn hang_is_still_there_until_killed() {
    let mut bot = at_first_turn!("fault-hang", &[]);
    bot.send("quit");
    assert!(bot.child.try_wait().unwrap().is_none());
    assert_eq!(bot.kill().signal(), Some(9));
    assert_eq!(bot.rest(), b"");
}

#[test]
fn noflush_sends_nothing_before_it_exits() {
    let mut bot = Bot::spawn(env!("CARGO_BIN_EXE_fault-noflush"), &[]);
    bot.send(HELLO);
    // Its log says the reply is written (to its buffer)...
    assert!(bot
        .err_line()
        .contains("hello version=1 name=fault-noflush"));
    // ...but killed now, it has sent nothing.
    bot.kill();
    assert_eq!(bot.rest(), b"");
}

#[test]
fn noflush_sends_everything_at_exit() {
    let mut bot = Bot::spawn(env!("CARGO_BIN_EXE_fault-noflush"), &[]);
    for line in [HELLO, NEWGAME, TURN1, GAMEOVER, "quit"] {
        bot.send(line);
    }
    assert_eq!(bot.wait().code(), Some(0));
    let expected = "hello version=1 name=fault-noflush\nready\nmove 1\n";
    assert_eq!(String::from_utf8(bot.rest()).unwrap(), expected);
}

#[test]
fn nonewline_writes_its_move_without_a_newline() {
    let mut bot = at_first_turn!("fault-nonewline", &[]);
    let mut reply = [0; 6];
    bot.stdout.read_exact(&mut reply).unwrap();
    assert_eq!(&reply, b"move 1", "flushed without a newline");
    bot.send("quit");
    bot.exits_silently(0, "the newline never comes");
}

#[test]
fn junk_answers_a_turn_with_junk() {
    let mut bot = at_first_turn!("fault-junk", &[]);
    assert_eq!(bot.raw_line(), b"\x00\xff garbage \x1b[2J\n");
    bot.send("quit");
    assert_eq!(bot.wait().code(), Some(0));
}

#[test]
fn stderr_flood_writes_2_mib_before_each_correct_move() {
    let mut bot = Bot::spawn(env!("CARGO_BIN_EXE_fault-stderr-flood"), &[]);
    let stderr = bot.count_stderr();
    bot.handshake("fault-stderr-flood");
    bot.answers(TURN1, "move 1");
    bot.answers(TURN2, "move 2");
    bot.send(GAMEOVER);
    bot.send("quit");
    assert_eq!(bot.wait().code(), Some(0));
    assert_eq!(stderr.join().unwrap(), 2 * (2 << 20));
}

/// The lines of standard output up to the next non-blank one: how many
/// blank lines came first, and that line.
fn blanks_then_line(bot: &mut Bot) -> (usize, String) {
    let mut blanks = 0;
    loop {
        let line = bot.line();
        if !line.is_empty() {
            return (blanks, line);
        }
        blanks += 1;
    }
}

#[test]
fn stdout_flood_sends_blank_lines_before_each_correct_move() {
    let mut bot = Bot::spawn(env!("CARGO_BIN_EXE_fault-stdout-flood"), &[]);
    bot.answers(HELLO, "hello version=1 name=fault-stdout-flood");
    bot.answers(NEWGAME, "ready");
    bot.send(TURN1);
    // The 5,000 blank lines sent unasked with ready, then the flood.
    assert_eq!(
        blanks_then_line(&mut bot),
        (5_000 + 1_000_000, "move 1".to_string())
    );
    bot.send(TURN2);
    assert_eq!(
        blanks_then_line(&mut bot),
        (1_000_000, "move 2".to_string())
    );
    bot.send("quit");
    assert_eq!(bot.wait().code(), Some(0));
}

#[test]
fn stdout_flood_with_info_sends_info_lines_before_each_move() {
    let args = ["--info", "--bytes", "110", "--unasked", "0"];
    let mut bot = Bot::spawn(env!("CARGO_BIN_EXE_fault-stdout-flood"), &args);
    bot.handshake("fault-stdout-flood");
    for (turn, reply) in [(TURN1, "move 1"), (TURN2, "move 2")] {
        bot.send(turn);
        for _ in 0..10 {
            assert_eq!(bot.line(), "info flood");
        }
        assert_eq!(bot.line(), reply);
    }
    bot.send("quit");
    assert_eq!(bot.wait().code(), Some(0));
}

#[test]
fn grandchild_leaves_a_sleeper_in_its_group_and_exits_4() {
    let pidfile = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("fault-grandchild-{}.pids", std::process::id()));
    let _ = std::fs::remove_file(&pidfile);
    let mut command = Command::new(env!("CARGO_BIN_EXE_fault-grandchild"));
    let mut bot = Bot::spawn_command(command.env("FAULT_PIDFILE", &pidfile));
    let group = bot.pid();
    bot.handshake("fault-grandchild");
    let pids = std::fs::read_to_string(&pidfile).unwrap();
    let grandchild = Pid::from_raw(pids.trim().parse().unwrap());
    let grandchild_group = getpgid(Some(grandchild));
    bot.send(TURN1);
    let status = bot.wait();
    // Still there after the bot is gone, until its group is killed.
    let alive_after_exit = kill(grandchild, None).is_ok();
    killpg(group, Signal::SIGKILL).unwrap();
    std::fs::remove_file(&pidfile).unwrap();
    assert_eq!(status.code(), Some(4));
    assert_eq!(bot.rest(), b"");
    assert_eq!(grandchild_group, Ok(group));
    assert!(alive_after_exit);
}

#[test]
fn ignore_term_survives_sigterm_and_quit() {
    let mut bot = Bot::spawn(env!("CARGO_BIN_EXE_fault-ignore-term"), &[]);
    bot.answers(HELLO, "hello version=1 name=fault-ignore-term");
    // It set SIG_IGN before it replied: SIGTERM now is dropped, so it answers.
    kill(bot.pid(), Signal::SIGTERM).unwrap();
    bot.answers(NEWGAME, "ready");
    bot.answers(TURN1, "move 1");
    bot.send(GAMEOVER);
    bot.send("quit");
    bot.close_stdin();
    assert_eq!(
        bot.err_line(),
        "fault-ignore-term: parked; only a signal ends me"
    );
    kill(bot.pid(), Signal::SIGTERM).unwrap();
    assert!(bot.child.try_wait().unwrap().is_none());
    assert_eq!(bot.kill().signal(), Some(9));
    assert_eq!(bot.rest(), b"");
}

#[test]
fn slow_waits_before_its_move() {
    let mut bot = Bot::spawn(env!("CARGO_BIN_EXE_fault-slow"), &["--delay-ms", "100"]);
    bot.handshake("fault-slow");
    let start = Instant::now();
    bot.answers(TURN1, "move 1");
    assert!(start.elapsed() >= Duration::from_millis(100));
    bot.send("quit");
    assert_eq!(bot.wait().code(), Some(0));
}

#[test]
fn endless_plays_an_occupied_hole_that_is_not_legal() {
    let mut bot = Bot::spawn(env!("CARGO_BIN_EXE_fault-endless"), &[]);
    bot.handshake("fault-endless");
    bot.send("turn mine=4,0,4 theirs=1,1,1 captured=0,0 last=none legal=1 ply=0 time_ms=1000");
    assert_eq!(bot.line(), "move 3", "occupied, not legal");
    bot.send("turn mine=4,0,4 theirs=1,1,1 captured=0,0 last=2 legal=1,3 ply=2 time_ms=1000");
    assert_eq!(
        bot.line(),
        "move 2",
        "every occupied hole legal: an empty one"
    );
    bot.send("turn mine=1,1 theirs=1,1 captured=0,0 last=1 legal=1,2 ply=4 time_ms=1000");
    assert_eq!(bot.line(), "move 3", "no empty hole: n+1");
    bot.send("quit");
    assert_eq!(bot.wait().code(), Some(0));
}

#[test]
fn exit_start_exits_5_before_reading() {
    let mut bot = Bot::spawn(env!("CARGO_BIN_EXE_fault-exit-start"), &[]);
    assert_eq!(bot.wait().code(), Some(5));
    assert_eq!(bot.rest(), b"");
}

#[test]
fn alloc_plays_once_then_dies_under_a_memory_limit() {
    // 256 MiB of RLIMIT_DATA, as the arena sets with setrlimit.
    let mut command = Command::new("sh");
    command.args([
        "-c",
        "ulimit -d 262144 && exec \"$0\"",
        env!("CARGO_BIN_EXE_fault-alloc"),
    ]);
    let mut bot = Bot::spawn_command(&mut command);
    let stderr = bot.count_stderr();
    bot.handshake("fault-alloc");
    bot.answers(TURN1, "move 1");
    bot.send(TURN2);
    let status = bot.wait();
    assert!(!status.success(), "{status:?}");
    assert_eq!(bot.rest(), b"");
    assert!(stderr.join().unwrap() > 0, "it logs before allocating");
}

#[test]
fn unsolicited_sends_a_move_before_any_turn() {
    let mut bot = Bot::spawn(env!("CARGO_BIN_EXE_fault-unsolicited"), &[]);
    bot.handshake("fault-unsolicited");
    assert_eq!(bot.line(), "move 1", "before any turn");
    bot.answers(TURN2, "move 2");
    bot.send("quit");
    assert_eq!(bot.wait().code(), Some(0));
}
