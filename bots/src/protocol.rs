//! The bot's side of the arena protocol, version 1 (`protocol.md`): parsing the
//! arena's request lines and formatting the bot's replies. Pure: no I/O.
//!
//! ```
//! use endodoi_bots::protocol::{parse_request, Reply, Request};
//! let req = parse_request("turn mine=1,1 theirs=1,1 captured=0,0 last=none legal=1,2 ply=0 time_ms=1000\r\n")?;
//! let Request::Turn(turn) = req else { panic!("a turn") };
//! assert_eq!(turn.legal.to_string(), "1 2");
//! assert_eq!(Reply::Move(turn.legal.first().unwrap()).to_string(), "move 1");
//! # Ok::<(), endodoi_bots::protocol::ProtocolError>(())
//! ```

use std::fmt;

use endodoi::{Move, MoveSet, Rules, Side, DEFAULT_MAX_LAPS, DEFAULT_MAX_PLIES};

/// The protocol version this crate speaks.
pub const PROTOCOL_VERSION: u32 = 1;

/// The settings of a game, from a `newgame` request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameSettings {
    /// Holes, seeds, `max_laps` and `max_plies` of the game.
    pub rules: Rules,
    /// The bot's side: South moves first.
    pub side: Side,
    /// The most one reply may take, in ms; 0 means no per-move limit.
    pub move_time_ms: u64,
    /// The game clock's starting time, in ms; 0 means no game clock.
    pub base_time_ms: u64,
    /// Added to the bot's game clock after each of its moves, in ms.
    pub increment_ms: u64,
    /// The game's place in the tournament, `(series, game)`, when the arena
    /// says (`series=` and `game=`): a seed for bots that want each game to
    /// play the same whatever process plays it.
    pub game: Option<(u64, u64)>,
}

/// A `turn` request: the position from the bot's own point of view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Turn {
    /// Seeds in the bot's holes 1..n.
    pub mine: Vec<u32>,
    /// Seeds in the opponent's holes 1..n, numbered from the opponent's left.
    pub theirs: Vec<u32>,
    /// Seeds captured so far: the bot's, then the opponent's.
    pub captured: [u32; 2],
    /// The opponent's previous move, in its own numbering; `None` for `last=none`.
    pub last: Option<Move>,
    /// The bot's legal moves; never empty in a well-formed request.
    pub legal: MoveSet,
    /// Plies played so far in the game.
    pub ply: u32,
    /// The time this reply may take, in ms, when given.
    pub time_ms: Option<u64>,
    /// The game clocks, the bot's then the opponent's, when the game has a clock.
    pub clock_ms: Option<[u64; 2]>,
}

/// The result of a game from the bot's side, in a `gameover` notification.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// The bot won.
    Win,
    /// The bot lost.
    Loss,
    /// Equal totals.
    Draw,
}

/// A `gameover` notification. Every field is optional so that a bot never
/// trips over it: bots may ignore it entirely.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameOver {
    /// Win, loss or draw, from the bot's side.
    pub result: Option<GameResult>,
    /// The bot's final seed total.
    pub mine: Option<u32>,
    /// The opponent's final seed total.
    pub theirs: Option<u32>,
    /// The game's termination, such as `no-moves` or `timeout`.
    pub reason: Option<String>,
}

/// A message from the arena to the bot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    /// `hello`: the handshake; `version` is the arena's protocol version, if given.
    Hello {
        /// The version the arena speaks.
        version: Option<u32>,
    },
    /// `newgame`: a game starts; reply [`Reply::Ready`].
    NewGame(GameSettings),
    /// `turn`: the bot's move; reply [`Reply::Move`].
    Turn(Turn),
    /// `gameover`: a game ended (no reply).
    GameOver(GameOver),
    /// `quit`: exit promptly (no reply).
    Quit,
    /// A blank line: nothing to do.
    Empty,
    /// A command this version does not know, kept by name; bots ignore it.
    Unknown(String),
}

/// A message from the bot to the arena. `Display` gives the line without its `\n`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// `hello version=1 name=NAME [author=AUTHOR]`.
    Hello {
        /// The bot's name: `[A-Za-z0-9._-]`, at most 64 characters (see [`valid_name`]).
        name: String,
        /// The author, if any (no spaces).
        author: Option<String>,
    },
    /// `ready`, the answer to `newgame`.
    Ready,
    /// `move N`, the answer to `turn`.
    Move(Move),
    /// `info TEXT`, a log line; never taken as a reply. Line breaks in the text
    /// are written as spaces.
    Info(String),
}

impl fmt::Display for Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reply::Hello { name, author } => {
                write!(
                    f,
                    "hello version={PROTOCOL_VERSION} name={}",
                    valid_name(name)
                )?;
                if let Some(author) = author {
                    let author: String = author
                        .chars()
                        .map(|c| if c.is_ascii_graphic() { c } else { '_' })
                        .collect();
                    if !author.is_empty() {
                        write!(f, " author={author}")?;
                    }
                }
                Ok(())
            }
            Reply::Ready => f.write_str("ready"),
            Reply::Move(mv) => write!(f, "move {mv}"),
            Reply::Info(text) => {
                f.write_str("info")?;
                if !text.is_empty() {
                    let text: String = text
                        .chars()
                        .map(|c| if c == '\n' || c == '\r' { ' ' } else { c })
                        .collect();
                    write!(f, " {text}")?;
                }
                Ok(())
            }
        }
    }
}

/// `name` made into a valid protocol name: characters outside
/// `[A-Za-z0-9._-]` become `-`, it is cut to 64 characters, and an empty
/// name becomes `bot`.
///
/// ```
/// assert_eq!(endodoi_bots::protocol::valid_name("my bot!"), "my-bot-");
/// ```
#[must_use]
pub fn valid_name(name: &str) -> String {
    let name: String = name
        .chars()
        .take(64)
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '-'
            }
        })
        .collect();
    if name.is_empty() {
        "bot".to_string()
    } else {
        name
    }
}

/// A request line that could not be understood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProtocolError {
    /// The line's command word (`turn`, `newgame`, ...), so that a bot can still
    /// answer in step.
    pub command: String,
    /// What was wrong.
    pub message: String,
}

impl fmt::Display for ProtocolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad '{}' request: {}", self.command, self.message)
    }
}

impl std::error::Error for ProtocolError {}

/// The `key=value` arguments of a line; the first occurrence of a key wins and
/// words without `=` are ignored.
struct Args<'a> {
    command: &'a str,
    pairs: Vec<(&'a str, &'a str)>,
}

impl<'a> Args<'a> {
    fn new(command: &'a str, words: impl Iterator<Item = &'a str>) -> Args<'a> {
        Args {
            command,
            pairs: words.filter_map(|w| w.split_once('=')).collect(),
        }
    }

    fn error(&self, message: String) -> ProtocolError {
        ProtocolError {
            command: self.command.to_string(),
            message,
        }
    }

    fn get(&self, key: &str) -> Option<&'a str> {
        self.pairs.iter().find(|(k, _)| *k == key).map(|&(_, v)| v)
    }

    fn require(&self, key: &str) -> Result<&'a str, ProtocolError> {
        self.get(key)
            .ok_or_else(|| self.error(format!("missing {key}=")))
    }

    fn number<T: std::str::FromStr>(&self, key: &str) -> Result<Option<T>, ProtocolError> {
        self.get(key)
            .map(|v| {
                v.parse()
                    .map_err(|_| self.error(format!("{key}={v} is not a number")))
            })
            .transpose()
    }

    fn list<T: std::str::FromStr>(&self, key: &str) -> Result<Vec<T>, ProtocolError> {
        let value = self.require(key)?;
        value
            .split(',')
            .map(|v| {
                v.parse()
                    .map_err(|_| self.error(format!("{key}={value}: '{v}' is not a number")))
            })
            .collect()
    }
}

/// Parses one request line from the arena. A trailing `\r`, `\n` and
/// surrounding whitespace are ignored, as are argument keys this version does
/// not know; an unknown command gives [`Request::Unknown`].
///
/// # Errors
/// [`ProtocolError`] when a known command lacks a required argument or has a
/// malformed one.
pub fn parse_request(line: &str) -> Result<Request, ProtocolError> {
    let mut words = line.split_whitespace();
    let Some(command) = words.next() else {
        return Ok(Request::Empty);
    };
    let args = Args::new(command, words);
    match command {
        "hello" => Ok(Request::Hello {
            version: args.number("version").ok().flatten(),
        }),
        "newgame" => parse_newgame(&args).map(Request::NewGame),
        "turn" => parse_turn(&args).map(Request::Turn),
        "gameover" => Ok(Request::GameOver(GameOver {
            result: match args.get("result") {
                Some("win") => Some(GameResult::Win),
                Some("loss") => Some(GameResult::Loss),
                Some("draw") => Some(GameResult::Draw),
                _ => None,
            },
            mine: args.number("mine").ok().flatten(),
            theirs: args.number("theirs").ok().flatten(),
            reason: args.get("reason").map(str::to_string),
        })),
        "quit" => Ok(Request::Quit),
        other => Ok(Request::Unknown(other.to_string())),
    }
}

fn parse_newgame(args: &Args<'_>) -> Result<GameSettings, ProtocolError> {
    let holes: usize = args
        .number("holes")?
        .ok_or_else(|| args.error("missing holes=".into()))?;
    let seeds: u32 = args
        .number("seeds")?
        .ok_or_else(|| args.error("missing seeds=".into()))?;
    let side = args.require("side")?;
    let side: Side = side
        .parse()
        .map_err(|e| args.error(format!("side={side}: {e}")))?;
    let max_laps = args.number("max_laps")?.unwrap_or(DEFAULT_MAX_LAPS);
    let max_plies = args.number("max_plies")?.unwrap_or(DEFAULT_MAX_PLIES);
    let rules = Rules::new(holes, seeds)
        .and_then(|r| r.with_max_laps(max_laps))
        .and_then(|r| r.with_max_plies(max_plies))
        .map_err(|e| args.error(e.to_string()))?;
    Ok(GameSettings {
        rules,
        side,
        move_time_ms: args.number("move_time_ms")?.unwrap_or(0),
        base_time_ms: args.number("base_time_ms")?.unwrap_or(0),
        increment_ms: args.number("increment_ms")?.unwrap_or(0),
        game: args.number("series")?.zip(args.number("game")?),
    })
}

fn parse_legal(args: &Args<'_>) -> Result<MoveSet, ProtocolError> {
    let mut legal = MoveSet::EMPTY;
    for hole in args.list::<u8>("legal")? {
        let mv = Move::new(hole)
            .ok_or_else(|| args.error(format!("legal hole {hole} is out of range")))?;
        legal.insert(mv);
    }
    Ok(legal)
}

fn parse_turn(args: &Args<'_>) -> Result<Turn, ProtocolError> {
    let mine: Vec<u32> = args.list("mine")?;
    let theirs: Vec<u32> = args.list("theirs")?;
    if mine.len() != theirs.len() {
        return Err(args.error(format!(
            "mine has {} holes and theirs {}",
            mine.len(),
            theirs.len()
        )));
    }
    let captured = match args.get("captured") {
        None => [0, 0],
        Some(_) => match args.list::<u32>("captured")?[..] {
            [a, b] => [a, b],
            _ => return Err(args.error("captured= needs two numbers".into())),
        },
    };
    let last = match args.get("last") {
        None | Some("none") => None,
        Some(v) => Some(
            v.parse()
                .ok()
                .and_then(Move::new)
                .ok_or_else(|| args.error(format!("last={v} is not a hole")))?,
        ),
    };
    let legal = parse_legal(args)?;
    let clock_ms = match args.get("clock_ms") {
        None => None,
        Some(_) => match args.list::<u64>("clock_ms")?[..] {
            [a, b] => Some([a, b]),
            _ => return Err(args.error("clock_ms= needs two numbers".into())),
        },
    };
    Ok(Turn {
        mine,
        theirs,
        captured,
        last,
        legal,
        ply: args.number("ply")?.unwrap_or(0),
        time_ms: args.number("time_ms")?,
        clock_ms,
    })
}

/// The legal moves of a `turn` line, read on their own: the fallback when the
/// rest of the line cannot be parsed. `None` unless the line is a `turn` with a
/// well-formed, non-empty `legal=` argument.
///
/// ```
/// use endodoi_bots::protocol::legal_of_turn;
/// assert_eq!(legal_of_turn("turn mine=x legal=3,5").unwrap().to_string(), "3 5");
/// ```
#[must_use]
pub fn legal_of_turn(line: &str) -> Option<MoveSet> {
    let mut words = line.split_whitespace();
    let command = words.next().filter(|&c| c == "turn")?;
    parse_legal(&Args::new(command, words))
        .ok()
        .filter(|l| !l.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn newgame_with_unknown_keys_and_crlf() {
        let req = parse_request(
            "newgame side=north holes=6 seeds=3 colour=blue move_time_ms=500 max_plies=200 max_laps=999 base_time_ms=0 increment_ms=0\r\n",
        )
        .unwrap();
        let Request::NewGame(s) = req else {
            panic!("{req:?}")
        };
        assert_eq!(s.side, Side::North);
        assert_eq!((s.rules.holes(), s.rules.seeds()), (6, 3));
        assert_eq!((s.rules.max_plies(), s.rules.max_laps()), (200, 999));
        assert_eq!(s.move_time_ms, 500);
    }

    #[test]
    fn newgame_defaults_and_errors() {
        let Ok(Request::NewGame(s)) = parse_request("newgame holes=8 seeds=4 side=south") else {
            panic!()
        };
        assert_eq!(s.rules.max_laps(), DEFAULT_MAX_LAPS);
        assert_eq!(s.rules.max_plies(), DEFAULT_MAX_PLIES);
        for bad in [
            "newgame seeds=4 side=south",
            "newgame holes=1 seeds=4 side=south",
            "newgame holes=8 seeds=4 side=east",
            "newgame holes=8 seeds=4 side=south max_laps=0",
            "newgame holes=8 seeds=4 side=south max_plies=x",
        ] {
            let err = parse_request(bad).unwrap_err();
            assert_eq!(err.command, "newgame", "{bad}");
        }
    }

    #[test]
    fn turn_fields() {
        let req = parse_request(
            "  turn theirs=0,2 mine=0,0 captured=0,2 last=1 legal=2 ply=2 time_ms=1000 clock_ms=900,800 future=1  ",
        )
        .unwrap();
        let Request::Turn(t) = req else {
            panic!("{req:?}")
        };
        assert_eq!((t.mine, t.theirs), (vec![0, 0], vec![0, 2]));
        assert_eq!(t.captured, [0, 2]);
        assert_eq!(t.last, Move::new(1));
        assert_eq!(t.legal.to_string(), "2");
        assert_eq!(
            (t.ply, t.time_ms, t.clock_ms),
            (2, Some(1000), Some([900, 800]))
        );
    }

    #[test]
    fn bad_turns() {
        for bad in [
            "turn mine=1,1 legal=1",
            "turn mine=1,1 theirs=1 legal=1",
            "turn mine=1,x theirs=1,1 legal=1",
            "turn mine=1,1 theirs=1,1 legal=0",
            "turn mine=1,1 theirs=1,1 legal=1 captured=1",
            "turn mine=1,1 theirs=1,1 legal=1 last=banana",
        ] {
            assert_eq!(parse_request(bad).unwrap_err().command, "turn", "{bad}");
        }
        assert_eq!(
            legal_of_turn("turn mine=1,x legal=2,1")
                .unwrap()
                .to_string(),
            "1 2"
        );
        assert_eq!(legal_of_turn("turn legal=a"), None);
        assert_eq!(legal_of_turn("newgame legal=1"), None);
    }

    #[test]
    fn other_requests() {
        assert_eq!(
            parse_request("hello version=1\n"),
            Ok(Request::Hello { version: Some(1) })
        );
        assert_eq!(parse_request("hello"), Ok(Request::Hello { version: None }));
        assert_eq!(parse_request("quit\r"), Ok(Request::Quit));
        assert_eq!(parse_request(" \r\n"), Ok(Request::Empty));
        assert_eq!(
            parse_request("ping x=1"),
            Ok(Request::Unknown("ping".into()))
        );
        let Ok(Request::GameOver(g)) =
            parse_request("gameover result=win mine=40 theirs=24 reason=no-moves")
        else {
            panic!()
        };
        assert_eq!(g.result, Some(GameResult::Win));
        assert_eq!((g.mine, g.theirs), (Some(40), Some(24)));
        assert_eq!(g.reason.as_deref(), Some("no-moves"));
    }

    #[test]
    fn replies() {
        let hello = Reply::Hello {
            name: "greedy".into(),
            author: Some("a b".into()),
        };
        assert_eq!(hello.to_string(), "hello version=1 name=greedy author=a_b");
        assert_eq!(Reply::Ready.to_string(), "ready");
        assert_eq!(Reply::Move(Move::new(12).unwrap()).to_string(), "move 12");
        assert_eq!(Reply::Info("a\nb".into()).to_string(), "info a b");
        assert_eq!(valid_name(""), "bot");
        assert_eq!(valid_name(&"x".repeat(100)).len(), 64);
    }
}
