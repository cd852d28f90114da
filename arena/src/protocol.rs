//! The arena's side of the bot protocol (protocol.md, version 1): requests
//! written as text, replies parsed from text. Pure: no I/O.
//!
//! Requests are built into a caller's `String` so the game loop reuses one
//! buffer and a ply costs no allocation here.

use std::fmt::Write as _;

use endodoi::{Move, MoveSet, Position, Side};

/// The protocol version this arena speaks.
pub const VERSION: u32 = 1;

/// The longest line, in bytes without the `\n`, a bot may send.
pub const MAX_LINE_BYTES: usize = 4096;

/// The `newgame` parameters sent to a bot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NewGame {
    /// The bot's side in this game.
    pub side: Side,
    /// Holes per row.
    pub holes: usize,
    /// Seeds per hole at the start.
    pub seeds: u32,
    /// The per-move limit, ms; 0 for none.
    pub move_time_ms: u64,
    /// The game clock's starting time, ms; 0 for no game clock.
    pub base_time_ms: u64,
    /// The increment per move, ms.
    pub increment_ms: u64,
    /// The ply limit.
    pub max_plies: u32,
    /// The lap limit for endless sowing.
    pub max_laps: u32,
    /// The series' number, from 1.
    pub series: usize,
    /// The game's number in its series, from 1.
    pub game: u32,
}

/// How a finished game looks to one bot, for `gameover`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameOver {
    /// The game's winner, `None` for a draw.
    pub winner: Option<Side>,
    /// Final seeds of South and North.
    pub seeds: [u32; 2],
    /// The termination name as in `games.csv`.
    pub reason: &'static str,
}

/// Writes `hello version=1` into `buf` (cleared first), with its `\n`.
pub fn hello(buf: &mut String) {
    buf.clear();
    let _ = writeln!(buf, "hello version={VERSION}");
}

/// Writes a `newgame` request into `buf` (cleared first), with its `\n`.
pub fn newgame(buf: &mut String, g: &NewGame) {
    buf.clear();
    let _ = writeln!(
        buf,
        "newgame holes={} seeds={} side={} move_time_ms={} base_time_ms={} increment_ms={} max_plies={} max_laps={} series={} game={}",
        g.holes, g.seeds, g.side, g.move_time_ms, g.base_time_ms, g.increment_ms, g.max_plies, g.max_laps, g.series, g.game
    );
}

/// Writes a `turn` request for the side to move of `pos` into `buf` (cleared
/// first), with its `\n`: the position from that side's own point of view,
/// the opponent's `last` move, the `legal` moves, the time this reply may
/// take (`time_ms`, ms) and, with a game clock, both clocks (`clock_ms`:
/// mover's then opponent's, ms).
pub fn turn(
    buf: &mut String,
    pos: &Position,
    last: Option<Move>,
    legal: MoveSet,
    time_ms: u64,
    clock_ms: Option<[u64; 2]>,
) {
    let me = pos.to_move();
    let them = me.opponent();
    buf.clear();
    buf.push_str("turn mine=");
    push_list(buf, pos.row(me).iter().copied());
    buf.push_str(" theirs=");
    push_list(buf, pos.row(them).iter().copied());
    let _ = write!(
        buf,
        " captured={},{} last=",
        pos.captured(me),
        pos.captured(them)
    );
    match last {
        Some(mv) => {
            let _ = write!(buf, "{mv}");
        }
        None => buf.push_str("none"),
    }
    buf.push_str(" legal=");
    push_list(buf, legal.into_iter().map(|m| u32::from(m.hole())));
    let _ = write!(buf, " ply={} time_ms={time_ms}", pos.ply());
    if let Some([mine, theirs]) = clock_ms {
        let _ = write!(buf, " clock_ms={mine},{theirs}");
    }
    buf.push('\n');
}

/// Writes a `gameover` notification for `side` into `buf` (cleared first).
pub fn gameover(buf: &mut String, side: Side, over: &GameOver) {
    let result = match over.winner {
        None => "draw",
        Some(w) if w == side => "win",
        Some(_) => "loss",
    };
    buf.clear();
    let _ = writeln!(
        buf,
        "gameover result={result} mine={} theirs={} reason={}",
        over.seeds[side.index()],
        over.seeds[side.opponent().index()],
        over.reason
    );
}

/// The `quit` notification, with its `\n`.
pub const QUIT: &str = "quit\n";

fn push_list(buf: &mut String, items: impl Iterator<Item = u32>) {
    for (i, x) in items.enumerate() {
        if i > 0 {
            buf.push(',');
        }
        let _ = write!(buf, "{x}");
    }
}

/// One line from a bot, parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply<'a> {
    /// `info ...`: a log line, never a reply. Holds the text after `info`.
    Info(&'a str),
    /// An empty line; ignored.
    Blank,
    /// `hello version=V name=NAME ...`.
    Hello {
        /// The version the bot speaks.
        version: u32,
        /// The bot's own name.
        name: &'a str,
    },
    /// `ready`.
    Ready,
    /// `move N`; the number is not yet checked against the board.
    Move(u32),
}

/// Why a bot's line is not a valid message.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReplyError {
    /// The line is not one of the messages of protocol.md.
    #[error("not a protocol message")]
    Unknown,
    /// `move` without a whole number from 0 to 4294967295.
    #[error("not a hole number: reply 'move N' with N from the legal list")]
    BadMove,
    /// `hello` without `version=` or `name=`, or with a bad value.
    #[error("bad handshake: reply 'hello version=1 name=NAME'")]
    BadHello,
}

/// Parses one line from a bot (without its `\n`); a trailing `\r` and
/// surrounding whitespace are ignored.
///
/// # Errors
/// [`ReplyError`] naming the line when it is not a message of protocol.md.
pub fn parse_reply(line: &str) -> Result<Reply<'_>, ReplyError> {
    let line = line.trim();
    let (command, rest) = line.split_once(' ').unwrap_or((line, ""));
    match command {
        "" => Ok(Reply::Blank),
        "info" => Ok(Reply::Info(rest.trim_start())),
        "ready" if rest.trim().is_empty() => Ok(Reply::Ready),
        "move" => {
            let arg = rest.trim();
            // Only plain digits: "+3" or "3 4" is not a hole number.
            if arg.is_empty() || !arg.bytes().all(|b| b.is_ascii_digit()) {
                return Err(ReplyError::BadMove);
            }
            arg.parse()
                .map(Reply::Move)
                .map_err(|_| ReplyError::BadMove)
        }
        "hello" => {
            let mut version = None;
            let mut name = None;
            for word in rest.split_whitespace() {
                match word.split_once('=') {
                    Some(("version", v)) => version = v.parse().ok(),
                    Some(("name", n)) if valid_name(n) => name = Some(n),
                    Some(_) => {} // author=, and keys of later versions
                    // A name with a space (`name=my bot`) leaves a bare word.
                    None => return Err(ReplyError::BadHello),
                }
            }
            match (version, name) {
                (Some(version), Some(name)) => Ok(Reply::Hello { version, name }),
                _ => Err(ReplyError::BadHello),
            }
        }
        _ => Err(ReplyError::Unknown),
    }
}

/// The bot's name from its answer to `hello` (`line`, as read): it must be
/// `hello version=1 name=NAME`, with a valid name and this arena's version.
///
/// # Errors
/// One line saying what is wrong and what to reply, with the line escaped.
pub fn hello_name(line: &str) -> Result<&str, String> {
    match parse_reply(line) {
        Ok(Reply::Hello { version, name }) if version == VERSION => Ok(name),
        Ok(Reply::Hello { version, .. }) => Err(format!(
            "speaks protocol version {version}, the arena speaks {VERSION}"
        )),
        _ => Err(format!(
            "answered hello with '{}': reply 'hello version=1 name=NAME', every word key=value",
            shown(line)
        )),
    }
}

/// A bot's text made safe to show and store: at most 200 characters, with
/// control characters and non-ASCII escaped (`\u{1b}`, `\n`...), so a bot
/// cannot write escape sequences to a terminal or a CSV file.
#[must_use]
pub fn shown(text: &str) -> String {
    const MAX_CHARS: usize = 200;
    let mut out: String = text
        .chars()
        .take(MAX_CHARS)
        .flat_map(char::escape_default)
        .collect();
    if text.chars().nth(MAX_CHARS).is_some() {
        out.push_str("...");
    }
    out
}

/// Whether `name` is a valid bot name: 1 to 64 of `[A-Za-z0-9._-]`, the first
/// a letter or digit. Names become parts of file names, so `..` or `-x`
/// never can.
#[must_use]
pub fn valid_name(name: &str) -> bool {
    (1..=64).contains(&name.len())
        && name.as_bytes()[0].is_ascii_alphanumeric()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use endodoi::Rules;

    #[test]
    fn turn_is_from_the_movers_point_of_view() {
        let mut pos = Rules::new(4, 4).unwrap().start();
        pos.play(Move::new(4).unwrap()).unwrap();
        assert_eq!(pos.to_string(), "1,8,0,4/0,9,9,1 n 0 0 1");
        let mut buf = String::new();
        turn(&mut buf, &pos, Move::new(4), pos.legal_moves(), 950, None);
        assert_eq!(
            buf,
            "turn mine=0,9,9,1 theirs=1,8,0,4 captured=0,0 last=4 legal=2,3,4 ply=1 time_ms=950\n"
        );
        turn(&mut buf, &pos, None, pos.legal_moves(), 5, Some([100, 200]));
        assert!(
            buf.ends_with("last=none legal=2,3,4 ply=1 time_ms=5 clock_ms=100,200\n"),
            "{buf}"
        );
    }

    #[test]
    fn newgame_and_gameover_lines() {
        let mut buf = String::new();
        let g = NewGame {
            side: Side::North,
            holes: 8,
            seeds: 4,
            move_time_ms: 1000,
            base_time_ms: 0,
            increment_ms: 0,
            max_plies: 1000,
            max_laps: 100_000,
            series: 3,
            game: 2,
        };
        newgame(&mut buf, &g);
        assert_eq!(buf, "newgame holes=8 seeds=4 side=north move_time_ms=1000 base_time_ms=0 increment_ms=0 max_plies=1000 max_laps=100000 series=3 game=2\n");
        let over = GameOver {
            winner: Some(Side::South),
            seeds: [40, 24],
            reason: "no-moves",
        };
        gameover(&mut buf, Side::North, &over);
        assert_eq!(
            buf,
            "gameover result=loss mine=24 theirs=40 reason=no-moves\n"
        );
        gameover(&mut buf, Side::South, &over);
        assert_eq!(
            buf,
            "gameover result=win mine=40 theirs=24 reason=no-moves\n"
        );
        hello(&mut buf);
        assert_eq!(buf, "hello version=1\n");
    }

    #[test]
    fn replies_parse_with_tolerance() {
        assert_eq!(parse_reply("move 3"), Ok(Reply::Move(3)));
        assert_eq!(parse_reply("  move 12 \r"), Ok(Reply::Move(12)));
        assert_eq!(parse_reply("ready\r"), Ok(Reply::Ready));
        assert_eq!(parse_reply(""), Ok(Reply::Blank));
        assert_eq!(parse_reply("info depth 3"), Ok(Reply::Info("depth 3")));
        assert_eq!(
            parse_reply("hello version=1 name=greedy-py author=x extra=1"),
            Ok(Reply::Hello {
                version: 1,
                name: "greedy-py"
            })
        );
    }

    #[test]
    fn bad_replies_are_errors() {
        for bad in [
            "move",
            "move x",
            "move -1",
            "move +3",
            "move 3 4",
            "move 99999999999",
        ] {
            assert!(
                matches!(parse_reply(bad), Err(ReplyError::BadMove)),
                "{bad}"
            );
        }
        for bad in [
            "hello",
            "hello version=1",
            "hello name=x",
            "hello version=one name=x",
            "hello version=1 name=a/b",
        ] {
            assert!(
                matches!(parse_reply(bad), Err(ReplyError::BadHello)),
                "{bad}"
            );
        }
        for bad in ["3", "hello there", "ready now", "MOVE 3"] {
            assert!(parse_reply(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn hello_answers() {
        assert_eq!(hello_name("hello version=1 name=me author=x"), Ok("me"));
        let old = hello_name("hello version=2 name=me").unwrap_err();
        assert!(old.contains("version 2"), "{old}");
        let bad = hello_name("hi\u{1b}").unwrap_err();
        assert!(bad.contains("'hi\\u{1b}'"), "{bad}");
        // A name with a space is not silently cut to its first word.
        let spaced = hello_name("hello version=1 name=cap bot").unwrap_err();
        assert!(spaced.contains("every word key=value"), "{spaced}");
        assert_eq!(hello_name("hello version=1 name=me future=1"), Ok("me"));
    }

    #[test]
    fn bot_text_is_escaped_and_cut() {
        assert_eq!(shown("move\u{1b}[2J\r\0"), "move\\u{1b}[2J\\r\\u{0}");
        let long = "A".repeat(4000);
        assert_eq!(shown(&long).len(), 203);
        assert_eq!(shown("move 3"), "move 3");
    }

    #[test]
    fn names() {
        assert!(valid_name("greedy-py_2.0"));
        assert!(!valid_name(""));
        assert!(!valid_name("a b"));
        assert!(!valid_name(&"x".repeat(65)));
        assert!(!valid_name(".."));
        assert!(!valid_name("../../x"));
        assert!(!valid_name("-rf"));
    }

    /// The example game in protocol.md is exactly what the arena sends.
    #[test]
    fn protocol_md_transcript_is_true() {
        let doc = include_str!("../../protocol.md");
        let start = doc.find("## A full game").expect("section");
        let section = &doc[start..];
        let block = section.split("```").nth(1).expect("transcript block");
        let documented: Vec<&str> = block
            .lines()
            .filter(|l| {
                l.starts_with("> turn") || l.starts_with("> gameover") || l.starts_with("> newgame")
            })
            .map(|l| &l[2..])
            .collect();

        let rules = Rules::new(3, 2).unwrap();
        let mut pos = rules.start();
        let mut buf = String::new();
        let mut sent = Vec::new();
        let g = NewGame {
            side: Side::South,
            holes: 3,
            seeds: 2,
            move_time_ms: 1000,
            base_time_ms: 0,
            increment_ms: 0,
            max_plies: rules.max_plies(),
            max_laps: rules.max_laps(),
            series: 1,
            game: 1,
        };
        newgame(&mut buf, &g);
        sent.push(buf.trim_end().to_string());
        let mut last = None;
        while !pos.is_over() {
            let legal = pos.legal_moves();
            if pos.to_move() == Side::South {
                turn(&mut buf, &pos, last, legal, 1000, None);
                sent.push(buf.trim_end().to_string());
            }
            let mv = legal.first().unwrap();
            pos.play(mv).unwrap();
            last = Some(mv);
        }
        let o = pos.outcome().unwrap();
        let over = GameOver {
            winner: o.winner,
            seeds: [pos.captured(Side::South), pos.captured(Side::North)],
            reason: o.termination.name(),
        };
        gameover(&mut buf, Side::South, &over);
        sent.push(buf.trim_end().to_string());
        assert_eq!(documented, sent);
    }
}
