//! The protocol loop ([`endodoi_bots::run`]) against scripted input, and in
//! step with an in-process referee that builds each `turn` from the rules
//! engine, over channels (no processes, no sleeps).

use std::io::{self, BufRead, BufReader, Read, Write};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::thread;

use endodoi::{Move, MoveSet, Position, Rules, Side};
use endodoi_bots::{run, Greedy, Random, Strategy};

/// Runs `strategy` over the whole of `input` and returns its output lines.
fn run_script<S: Strategy>(strategy: S, input: &str) -> Vec<String> {
    let mut output = Vec::new();
    run(strategy, input.as_bytes(), &mut output).unwrap();
    String::from_utf8(output)
        .unwrap()
        .lines()
        .map(String::from)
        .collect()
}

const NEWGAME: &str = "newgame holes=2 seeds=1 side=south move_time_ms=1000 base_time_ms=0 increment_ms=0 max_plies=1000 max_laps=100000";

#[test]
fn the_full_game_of_protocol_md() {
    let input = format!(
        "hello version=1\n{NEWGAME}\n\
         turn mine=1,1 theirs=1,1 captured=0,0 last=none legal=1,2 ply=0 time_ms=1000\n\
         turn mine=0,0 theirs=0,2 captured=0,2 last=1 legal=2 ply=2 time_ms=1000\n\
         gameover result=win mine=3 theirs=1 reason=no-moves\nquit\n"
    );
    let out = run_script(Greedy::new(0), &input);
    assert_eq!(out.len(), 4, "{out:?}");
    assert_eq!(out[0], "hello version=1 name=greedy");
    assert_eq!(out[1], "ready");
    // Hole 1 relays round and ends in the empty hole 2, capturing 3 seeds;
    // hole 2 ends in North's row: greedy plays 1. (The second turn is made up.)
    assert_eq!(out[2], "move 1");
    assert_eq!(out[3], "move 2");
}

#[test]
fn tolerant_reading() {
    // CRLF, blank lines, surrounding blanks, unknown keys and commands, keys in
    // any order, no newline at the end of input.
    let input = "\r\n  hello version=1 shiny=yes \r\nping\n\
        newgame seeds=1 side=north holes=2 future=1\r\n\
        turn legal=2 ply=1 theirs=0,2 mine=1,1 captured=0,0 last=1 time_ms=5 extra=x,y\r\n\
        gameover result=loss";
    let out = run_script(Random::new(0), input);
    assert_eq!(out, ["hello version=1 name=random", "ready", "move 2"]);
}

#[test]
fn stops_at_quit_and_at_end_of_input() {
    let out = run_script(Random::new(0), "hello version=1\nquit\nhello version=1\n");
    assert_eq!(out, ["hello version=1 name=random"]);
    assert!(run_script(Random::new(0), "").is_empty());
}

#[test]
fn unparseable_turns_get_the_first_legal_hole() {
    let input = format!(
        "{NEWGAME}\n\
         turn mine=1,banana theirs=1,1 legal=2 ply=0\n\
         turn mine=1,1 theirs=1,1 legal=oops\n\
         turn mine=1,1 theirs=1,1 captured=0,0 legal=2 ply=0\n"
    );
    let out = run_script(Greedy::new(0), &input);
    let moves: Vec<&String> = out.iter().filter(|l| !l.starts_with("info")).collect();
    assert_eq!(moves, ["ready", "move 2", "move 1", "move 2"]);
    assert_eq!(
        out.iter().filter(|l| l.starts_with("info ")).count(),
        2,
        "{out:?}"
    );
}

#[test]
fn a_bad_newgame_is_still_ready() {
    let input = "newgame holes=99 seeds=4 side=south\n\
        turn mine=0,3 theirs=1,0 captured=0,0 legal=2 ply=4\n";
    let out = run_script(Greedy::new(0), input);
    assert!(out[0].starts_with("info "), "{out:?}");
    assert_eq!(&out[1..], ["ready", "move 2"]);
}

/// A strategy that answers outside `legal`: the loop must correct it.
struct Stubborn;
impl Strategy for Stubborn {
    fn name(&self) -> &str {
        "stubborn bot!"
    }
    fn choose(&mut self, _pos: &Position, _legal: MoveSet) -> Move {
        Move::new(50).unwrap()
    }
}

#[test]
fn choices_outside_legal_are_replaced_and_names_cleaned() {
    let input = format!("hello version=1\n{NEWGAME}\nturn mine=1,1 theirs=1,1 legal=2\n");
    let out = run_script(Stubborn, &input);
    assert_eq!(
        out,
        ["hello version=1 name=stubborn-bot-", "ready", "move 2"]
    );
}

/// The reading end of a line channel, as a byte stream.
struct LineReader {
    lines: Receiver<String>,
    pending: Vec<u8>,
    at: usize,
}

impl Read for LineReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.at == self.pending.len() {
            match self.lines.recv() {
                Ok(line) => {
                    self.pending = line.into_bytes();
                    self.at = 0;
                }
                Err(_) => return Ok(0), // sender dropped: end of input
            }
        }
        let n = buf.len().min(self.pending.len() - self.at);
        buf[..n].copy_from_slice(&self.pending[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// The writing end: sends each flushed chunk, so a reply that is never flushed
/// never arrives (as over a real pipe).
struct FlushWriter {
    out: Sender<String>,
    buffer: Vec<u8>,
}

impl Write for FlushWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.buffer.extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        if !self.buffer.is_empty() {
            let text = String::from_utf8(std::mem::take(&mut self.buffer)).unwrap();
            self.out
                .send(text)
                .map_err(|_| io::Error::new(io::ErrorKind::BrokenPipe, "referee gone"))?;
        }
        Ok(())
    }
}

/// A bot running `run` on its own thread, spoken to line by line.
struct Bot {
    to_bot: Option<Sender<String>>,
    from_bot: BufReader<LineReader>,
    thread: Option<thread::JoinHandle<io::Result<()>>>,
}

impl Bot {
    fn start<S: Strategy + Send + 'static>(strategy: S) -> Bot {
        let (to_bot, bot_in) = channel();
        let (bot_out, from_bot) = channel();
        let thread = thread::spawn(move || {
            let input = BufReader::new(LineReader {
                lines: bot_in,
                pending: Vec::new(),
                at: 0,
            });
            let output = FlushWriter {
                out: bot_out,
                buffer: Vec::new(),
            };
            run(strategy, input, output)
        });
        Bot {
            to_bot: Some(to_bot),
            from_bot: BufReader::new(LineReader {
                lines: from_bot,
                pending: Vec::new(),
                at: 0,
            }),
            thread: Some(thread),
        }
    }

    fn send(&mut self, line: &str) {
        self.to_bot
            .as_ref()
            .unwrap()
            .send(format!("{line}\n"))
            .unwrap();
    }

    /// The next non-`info` line.
    fn reply(&mut self) -> String {
        loop {
            let mut line = String::new();
            assert!(
                self.from_bot.read_line(&mut line).unwrap() > 0,
                "bot closed its output"
            );
            assert!(line.ends_with('\n'), "{line:?}");
            if !line.starts_with("info") {
                return line.trim_end().to_string();
            }
        }
    }

    fn ask(&mut self, line: &str) -> String {
        self.send(line);
        self.reply()
    }

    fn quit(mut self) {
        self.send("quit");
        self.thread.take().unwrap().join().unwrap().unwrap();
    }
}

fn list(values: impl IntoIterator<Item = impl ToString>) -> String {
    values
        .into_iter()
        .map(|v| v.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

/// The `turn` line the arena sends to the side to move in `pos`.
fn turn_line(pos: &Position, last: Option<Move>) -> String {
    let me = pos.to_move();
    let them = me.opponent();
    format!(
        "turn mine={} theirs={} captured={},{} last={} legal={} ply={} time_ms=1000",
        list(pos.row(me)),
        list(pos.row(them)),
        pos.captured(me),
        pos.captured(them),
        last.map_or("none".to_string(), |m| m.to_string()),
        list(pos.legal_moves()),
        pos.ply()
    )
}

/// Plays `games` games of the bundled greedy bot, over the protocol, against
/// an in-process greedy player with the same seed; the bot must answer every
/// turn with a legal move, and since both sides see the same positions through
/// the same rules, the bot's moves must be greedy ones.
#[test]
fn in_step_with_a_referee() {
    let rules = Rules::new(6, 4).unwrap().with_max_plies(150).unwrap();
    let mut bot = Bot::start(Greedy::new(11));
    assert_eq!(bot.ask("hello version=1"), "hello version=1 name=greedy");
    let mut opponent = Random::new(12);
    let mut bot_moves = 0;
    for game in 0..6 {
        let bot_side = if game % 2 == 0 {
            Side::South
        } else {
            Side::North
        };
        let newgame = format!(
            "newgame holes=6 seeds=4 side={bot_side} move_time_ms=1000 base_time_ms=0 increment_ms=0 max_plies=150 max_laps=100000"
        );
        assert_eq!(bot.ask(&newgame), "ready");
        let mut pos = rules.start();
        let mut last = None;
        while !pos.is_over() {
            let view = endodoi_bots::own_view(&pos);
            let mv = if pos.to_move() == bot_side {
                let reply = bot.ask(&turn_line(&pos, last));
                let hole: u8 = reply
                    .strip_prefix("move ")
                    .and_then(|h| h.parse().ok())
                    .unwrap_or_else(|| panic!("not a move: {reply:?}"));
                let mv = Move::new(hole).unwrap();
                assert!(pos.legal_moves().contains(mv), "{reply} in {pos}");
                let (best, _) = Greedy::best_moves(&view, view.legal_moves()).unwrap();
                assert!(best.contains(mv), "{reply} is not greedy in {pos}: {best}");
                bot_moves += 1;
                mv
            } else {
                opponent.choose(&view, view.legal_moves())
            };
            pos.play(mv).unwrap();
            last = Some(mv);
        }
        bot.send("gameover result=draw mine=0 theirs=0 reason=no-moves");
    }
    assert!(bot_moves > 20, "only {bot_moves} moves");
    bot.quit();
}

#[test]
fn end_of_input_ends_the_loop() {
    let mut bot = Bot::start(Random::new(1));
    assert_eq!(bot.ask("hello version=1"), "hello version=1 name=random");
    drop(bot.to_bot.take());
    bot.thread.take().unwrap().join().unwrap().unwrap();
}
