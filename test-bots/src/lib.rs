//! The shared protocol loop of the En Dodoi arena's faulty test bots.
//!
//! Every binary in `src/bin/` is a bot that speaks protocol version 1
//! (`protocol.md` at the workspace root) correctly except for one fault. The
//! correct part lives here: [`Message`] parses a line, [`Conn`] reads requests
//! and writes replies, and [`run`] drives a [`Bot`] whose default hooks answer
//! `hello`, `newgame` and `turn` (with the first legal hole) and return on
//! `quit` or end of input. A binary overrides the one hook that holds its
//! fault.

#![warn(missing_docs)]

use std::io::{self, BufRead, BufReader, Stdin, Write};
use std::process::ExitCode;
use std::str::FromStr;

/// One protocol line: a command word and its `key=value` arguments.
///
/// Words without `=` after the command (as in `move 3`) are kept in
/// [`Message::words`] so nothing is lost.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    /// The first word of the line, e.g. `turn`.
    pub command: String,
    /// The `key=value` arguments, in the order they came.
    pub args: Vec<(String, String)>,
    /// The other words after the command, in the order they came.
    pub words: Vec<String>,
}

impl Message {
    /// Parses a line; `None` when it holds no word. Surrounding whitespace,
    /// including a trailing `\r`, is ignored.
    pub fn parse(line: &str) -> Option<Message> {
        let mut words = line.split_whitespace();
        let command = words.next()?.to_string();
        let mut args = Vec::new();
        let mut rest = Vec::new();
        for word in words {
            match word.split_once('=') {
                Some((key, value)) => args.push((key.to_string(), value.to_string())),
                None => rest.push(word.to_string()),
            }
        }
        Some(Message {
            command,
            args,
            words: rest,
        })
    }

    /// The value of argument `key`, if present (the first one if repeated).
    pub fn get(&self, key: &str) -> Option<&str> {
        self.args
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// The value of argument `key` as a comma-separated list of numbers;
    /// empty when absent. Items that are not numbers are skipped.
    pub fn list(&self, key: &str) -> Vec<u32> {
        self.get(key).map(parse_list).unwrap_or_default()
    }

    /// The value of argument `key` parsed as a number, if present and valid.
    pub fn number<T: FromStr>(&self, key: &str) -> Option<T> {
        self.get(key).and_then(|v| v.parse().ok())
    }
}

/// Parses a comma-separated list of numbers such as `4,0,12`; items that are
/// not numbers are skipped.
pub fn parse_list(value: &str) -> Vec<u32> {
    value
        .split(',')
        .filter_map(|item| item.trim().parse().ok())
        .collect()
}

/// A `turn` request, decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Turn {
    /// Which turn of the current game this is for the bot: 1 for its first.
    pub number: u32,
    /// Seeds in the bot's holes 1..n.
    pub mine: Vec<u32>,
    /// Seeds in the opponent's holes 1..n.
    pub theirs: Vec<u32>,
    /// The legal holes, in increasing order.
    pub legal: Vec<u32>,
    /// Plies played so far in the game.
    pub ply: u32,
    /// The time this reply may take, in milliseconds.
    pub time_ms: u64,
    /// The request as it came.
    pub message: Message,
}

impl Turn {
    /// Decodes a `turn` message; `number` is the bot's turn count in the game.
    pub fn from_message(message: Message, number: u32) -> Turn {
        Turn {
            number,
            mine: message.list("mine"),
            theirs: message.list("theirs"),
            legal: message.list("legal"),
            ply: message.number("ply").unwrap_or(0),
            time_ms: message.number("time_ms").unwrap_or(0),
            message,
        }
    }

    /// The lowest legal hole (hole 1 if the request listed none).
    pub fn first_legal(&self) -> u32 {
        self.legal.first().copied().unwrap_or(1)
    }
}

/// When [`Conn`] flushes what it writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flush {
    /// After every write, as the protocol requires.
    EachWrite,
    /// Never explicitly: output leaves only when the writer's buffer fills or
    /// the writer is dropped.
    Never,
}

/// The bot's end of the pipes: requests from standard input, replies to a
/// writer (standard output unless built otherwise).
pub struct Conn {
    input: BufReader<Stdin>,
    output: Box<dyn Write>,
    flush: Flush,
    trace: bool,
}

impl Conn {
    /// Standard input and output, flushing after every reply.
    pub fn stdio() -> Conn {
        Conn::new(Box::new(io::stdout()), Flush::EachWrite)
    }

    /// Standard input, and `output` for replies, flushed as `flush` says.
    pub fn new(output: Box<dyn Write>, flush: Flush) -> Conn {
        Conn {
            input: BufReader::new(io::stdin()),
            output,
            flush,
            trace: false,
        }
    }

    /// Also logs every reply to standard error once it has been written (to
    /// the writer, which does not mean it reached the pipe). Tests use the
    /// log to know a reply was produced.
    pub fn with_trace(mut self, trace: bool) -> Conn {
        self.trace = trace;
        self
    }

    /// Reads the next non-blank line; `None` at end of input. Bytes that are
    /// not UTF-8 are replaced, not rejected.
    pub fn read_message(&mut self) -> io::Result<Option<Message>> {
        let mut line = Vec::new();
        loop {
            line.clear();
            if self.input.read_until(b'\n', &mut line)? == 0 {
                return Ok(None);
            }
            if let Some(message) = Message::parse(&String::from_utf8_lossy(&line)) {
                return Ok(Some(message));
            }
        }
    }

    /// Reads and discards everything up to end of input, blocking on the pipe
    /// (no busy loop).
    pub fn drain(&mut self) -> io::Result<()> {
        io::copy(&mut self.input, &mut io::sink()).map(|_| ())
    }

    /// Writes `line` and a newline.
    pub fn send(&mut self, line: &str) -> io::Result<()> {
        self.send_raw(format!("{line}\n").as_bytes())
    }

    /// Writes the reply `move hole`.
    pub fn play(&mut self, hole: u32) -> io::Result<()> {
        self.send(&format!("move {hole}"))
    }

    /// Writes `bytes` exactly as given (no newline is added).
    pub fn send_raw(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.output.write_all(bytes)?;
        if self.flush == Flush::EachWrite {
            self.output.flush()?;
        }
        if self.trace {
            log(&format!("wrote {:?}", String::from_utf8_lossy(bytes)));
        }
        Ok(())
    }
}

/// A bot: one hook per request. The defaults play correctly (the first legal
/// hole); a faulty bot overrides the hook that holds its fault.
pub trait Bot {
    /// The name sent in the handshake; by default the executable's file name.
    fn name(&self) -> String {
        program_name()
    }

    /// Answers `hello` with `hello version=1 name=NAME`.
    fn on_hello(&mut self, _hello: &Message, conn: &mut Conn) -> io::Result<()> {
        conn.send(&format!("hello version=1 name={}", self.name()))
    }

    /// Answers `newgame` with `ready`.
    fn on_newgame(&mut self, _game: &Message, conn: &mut Conn) -> io::Result<()> {
        conn.send("ready")
    }

    /// Answers `turn` with the first legal hole.
    fn on_turn(&mut self, turn: &Turn, conn: &mut Conn) -> io::Result<()> {
        conn.play(turn.first_legal())
    }

    /// Takes note of `gameover` (no reply).
    fn on_gameover(&mut self, _result: &Message, _conn: &mut Conn) -> io::Result<()> {
        Ok(())
    }

    /// Called once on `quit` or at end of input, just before [`play`]
    /// returns; by default does nothing, so the bot exits.
    fn on_end(&mut self, _conn: &mut Conn) -> io::Result<()> {
        Ok(())
    }
}

/// Runs the protocol loop until `quit` or end of input: answers `hello`,
/// `newgame` and `turn` through the bot's hooks, and ignores unknown
/// commands. Counts the bot's turns in each game for [`Turn::number`].
pub fn play<B: Bot + ?Sized>(bot: &mut B, conn: &mut Conn) -> io::Result<()> {
    let mut turns = 0;
    while let Some(message) = conn.read_message()? {
        match message.command.as_str() {
            "hello" => bot.on_hello(&message, conn)?,
            "newgame" => {
                turns = 0;
                bot.on_newgame(&message, conn)?;
            }
            "turn" => {
                turns += 1;
                bot.on_turn(&Turn::from_message(message, turns), conn)?;
            }
            "gameover" => bot.on_gameover(&message, conn)?,
            "quit" => break,
            _ => {}
        }
    }
    bot.on_end(conn)
}

/// Runs `bot` on standard input and output ([`Conn::stdio`]); the exit code
/// is 0, or 1 after an I/O error (logged to standard error).
pub fn run<B: Bot>(bot: B) -> ExitCode {
    run_with(bot, Conn::stdio())
}

/// Runs `bot` on `conn`; the exit code is 0, or 1 after an I/O error (logged
/// to standard error). `conn` is dropped, and so its writer flushed, before
/// this returns.
pub fn run_with<B: Bot>(mut bot: B, mut conn: Conn) -> ExitCode {
    let result = play(&mut bot, &mut conn);
    drop(conn);
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            log(&format!("I/O error: {error}"));
            ExitCode::FAILURE
        }
    }
}

/// The executable's file name (`test-bot` if unknown), as a protocol name:
/// characters outside `[A-Za-z0-9._-]` become `_`.
pub fn program_name() -> String {
    let name = std::env::args_os()
        .next()
        .map(std::path::PathBuf::from)
        .and_then(|path| path.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| "test-bot".to_string());
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "._-".contains(c) {
                c
            } else {
                '_'
            }
        })
        .take(64)
        .collect()
}

/// Writes `NAME: text` and a newline to standard error (unbuffered).
pub fn log(text: &str) {
    let _ = writeln!(io::stderr().lock(), "{}: {text}", program_name());
}

/// The value of command-line option `flag` (`--flag V` or `--flag=V`), or
/// `default` when absent. Exits with code 2 if the value does not parse.
pub fn arg<T: FromStr>(flag: &str, default: T) -> T {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let prefix = format!("{flag}=");
    let mut value = None;
    for (i, a) in args.iter().enumerate() {
        if a == flag {
            value = args.get(i + 1).cloned();
        } else if let Some(v) = a.strip_prefix(&prefix) {
            value = Some(v.to_string());
        }
    }
    match value {
        None => default,
        Some(v) => v.parse().unwrap_or_else(|_| {
            log(&format!("bad value {v:?} for {flag}"));
            std::process::exit(2)
        }),
    }
}

/// Whether command-line switch `flag` (e.g. `--inherit-stdio`) was given.
pub fn has_flag(flag: &str) -> bool {
    std::env::args().skip(1).any(|a| a == flag)
}

/// Blocks forever without using the CPU (`std::thread::park` in a loop);
/// logs `parked` to standard error first. Only a signal ends the process.
pub fn park_forever() -> ! {
    log("parked; only a signal ends me");
    loop {
        std::thread::park();
    }
}

/// The `main` of a test bot whose attacks are Linux's calls, the bot itself
/// being the binary's `linux` module: on Linux `linux::main()`, elsewhere a
/// line on stderr naming the bot (`$name`) and exit code 2.
#[macro_export]
macro_rules! linux_only_main {
    ($name:literal) => {
        #[cfg(target_os = "linux")]
        fn main() -> std::process::ExitCode {
            linux::main()
        }

        #[cfg(not(target_os = "linux"))]
        fn main() -> std::process::ExitCode {
            eprintln!(concat!($name, ": this test bot runs on Linux only"));
            std::process::ExitCode::from(2)
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_command_and_arguments() {
        let m = Message::parse("  turn mine=4,0,4 legal=1,3 ply=2 extra\r\n").unwrap();
        assert_eq!(m.command, "turn");
        assert_eq!(m.get("ply"), Some("2"));
        assert_eq!(m.list("mine"), vec![4, 0, 4]);
        assert_eq!(m.list("absent"), Vec::<u32>::new());
        assert_eq!(m.number::<u32>("ply"), Some(2));
        assert_eq!(m.words, vec!["extra".to_string()]);
        assert_eq!(Message::parse(" \r\n"), None);
    }

    #[test]
    fn decodes_a_turn() {
        let m = Message::parse("turn mine=2,2 theirs=1,0 legal=2 ply=3 time_ms=900").unwrap();
        let t = Turn::from_message(m, 2);
        assert_eq!((t.number, t.ply, t.time_ms), (2, 3, 900));
        assert_eq!(
            (t.mine, t.theirs, t.legal),
            (vec![2, 2], vec![1, 0], vec![2])
        );
        assert_eq!(t.message.command, "turn");
    }
}
