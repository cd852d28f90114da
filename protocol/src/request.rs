//! The arena's messages to a bot: `hello`, `newgame`, `turn`, `gameover`
//! and `quit`.

use std::fmt;
use std::ops::Deref;
use std::str::FromStr;

use endodoi::{
    Move, MoveSet, ParseSideError, Position, Rules, RulesError, Side, DEFAULT_MAX_LAPS,
    DEFAULT_MAX_PLIES, MAX_HOLES,
};

use crate::{parse_decimal, write_list, write_num, Encode, VERSION};

/// The command word of a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Command {
    /// `hello`.
    Hello,
    /// `newgame`.
    NewGame,
    /// `turn`.
    Turn,
    /// `gameover`.
    GameOver,
    /// `quit`.
    Quit,
}

impl Command {
    /// The word as sent: `hello`, `newgame`, `turn`, `gameover`, `quit`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Command::Hello => "hello",
            Command::NewGame => "newgame",
            Command::Turn => "turn",
            Command::GameOver => "gameover",
            Command::Quit => "quit",
        }
    }

    fn from_word(word: &str) -> Option<Command> {
        Some(match word {
            "hello" => Command::Hello,
            "newgame" => Command::NewGame,
            "turn" => Command::Turn,
            "gameover" => Command::GameOver,
            "quit" => Command::Quit,
            _ => return None,
        })
    }
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// `Display` for each message as its [`Encode`]: the same text, written
/// through the formatter.
macro_rules! display_by_encode {
    ($($message:ty),+) => {$(
        impl fmt::Display for $message {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.encode(f)
            }
        }
    )+};
}

display_by_encode!(Hello, NewGame, Turn, GameOver, Quit, Request);

/// A request line that could not be understood: which command, and what
/// was wrong with it (so that a bot can still answer in step).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad '{command}' request: {kind}")]
pub struct RequestError {
    /// The line's command.
    pub command: Command,
    /// What was wrong.
    pub kind: RequestErrorKind,
}

/// What was wrong with a request line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RequestErrorKind {
    /// A required argument is missing.
    #[error("missing {key}=")]
    Missing {
        /// The argument's key.
        key: &'static str,
    },
    /// An argument is not a whole number (of the type it needs) in plain
    /// decimal: digits only, no sign, no leading zero.
    #[error("{key}={value} is not a number: write plain decimal digits, with no sign and no leading zero")]
    NotANumber {
        /// The argument's key.
        key: &'static str,
        /// Its value, as sent.
        value: String,
    },
    /// An item of a comma-separated list is not a whole number in plain
    /// decimal.
    #[error("{key}={value}: '{item}' is not a number: write plain decimal digits, with no sign and no leading zero")]
    BadListItem {
        /// The argument's key.
        key: &'static str,
        /// Its whole value, as sent.
        value: String,
        /// The item that is not a number.
        item: String,
    },
    /// A list that must hold two numbers holds another count.
    #[error("{key}= needs two numbers")]
    NotAPair {
        /// The argument's key.
        key: &'static str,
    },
    /// `side=` is neither `south` nor `north`.
    #[error("side={value}: {error}")]
    BadSide {
        /// The value, as sent.
        value: String,
        /// The rules crate's reason.
        error: ParseSideError,
    },
    /// `newgame`'s board or limits are not valid rules.
    #[error("{0}")]
    Rules(RulesError),
    /// `mine` and `theirs` have different lengths.
    #[error("mine has {mine} holes and theirs {theirs}")]
    RowLengths {
        /// Holes in `mine`.
        mine: usize,
        /// Holes in `theirs`.
        theirs: usize,
    },
    /// A row with more holes than a board can have.
    #[error("{key}= has more than {MAX_HOLES} holes")]
    TooManyHoles {
        /// The argument's key.
        key: &'static str,
    },
    /// `last=` is neither `none` nor a hole.
    #[error("last={value} is not a hole")]
    BadLast {
        /// The value, as sent.
        value: String,
    },
    /// A hole of `legal=` out of 1 to 50.
    #[error("legal hole {hole} is out of range")]
    LegalOutOfRange {
        /// The hole.
        hole: u8,
    },
    /// The line is another command (when one message type is parsed).
    #[error("the line is '{found}', not this request")]
    WrongCommand {
        /// The command word found (empty for a blank line).
        found: String,
    },
}

/// The most `key=value` words of a request split up front; a line with
/// more (keys of later versions) is searched word by word past them.
const SPLIT_PAIRS: usize = 16;

/// The `key=value` arguments of a request, split in one pass and without
/// allocating: the first occurrence of a key wins, words without `=` are
/// ignored.
struct Args<'a> {
    command: Command,
    rest: &'a str,
    pairs: [(&'a str, &'a str); SPLIT_PAIRS],
    len: usize,
    /// Whether there are more pairs than `pairs` holds.
    more: bool,
}

impl<'a> Args<'a> {
    fn new(command: Command, rest: &'a str) -> Args<'a> {
        let mut args = Args {
            command,
            rest,
            pairs: [("", ""); SPLIT_PAIRS],
            len: 0,
            more: false,
        };
        for pair in rest.split_whitespace().filter_map(|w| w.split_once('=')) {
            if args.len == SPLIT_PAIRS {
                args.more = true;
                break;
            }
            args.pairs[args.len] = pair;
            args.len += 1;
        }
        args
    }

    fn error(&self, kind: RequestErrorKind) -> RequestError {
        RequestError {
            command: self.command,
            kind,
        }
    }

    fn get(&self, key: &str) -> Option<&'a str> {
        let found = self.pairs[..self.len].iter().find(|(k, _)| *k == key);
        match found {
            Some(&(_, v)) => Some(v),
            None if self.more => self
                .rest
                .split_whitespace()
                .filter_map(|w| w.split_once('='))
                .find(|(k, _)| *k == key)
                .map(|(_, v)| v),
            None => None,
        }
    }

    fn require(&self, key: &'static str) -> Result<&'a str, RequestError> {
        self.get(key)
            .ok_or_else(|| self.error(RequestErrorKind::Missing { key }))
    }

    fn number<T: FromStr>(&self, key: &'static str) -> Result<Option<T>, RequestError> {
        self.get(key)
            .map(|v| {
                parse_decimal(v).ok_or_else(|| {
                    self.error(RequestErrorKind::NotANumber {
                        key,
                        value: v.to_string(),
                    })
                })
            })
            .transpose()
    }

    /// The items of list `key` (required), each passed to `each`.
    fn list<T: FromStr>(
        &self,
        key: &'static str,
        mut each: impl FnMut(T) -> Result<(), RequestError>,
    ) -> Result<(), RequestError> {
        let value = self.require(key)?;
        for item in value.split(',') {
            let x = parse_decimal(item).ok_or_else(|| {
                self.error(RequestErrorKind::BadListItem {
                    key,
                    value: value.to_string(),
                    item: item.to_string(),
                })
            })?;
            each(x)?;
        }
        Ok(())
    }

    fn row(&self, key: &'static str) -> Result<Row, RequestError> {
        let mut row = Row::EMPTY;
        self.list(key, |x: u32| {
            row.push(x)
                .ok_or_else(|| self.error(RequestErrorKind::TooManyHoles { key }))
        })?;
        Ok(row)
    }

    /// An optional pair `key=a,b`.
    fn pair<T: FromStr + Copy + Default>(
        &self,
        key: &'static str,
    ) -> Result<Option<[T; 2]>, RequestError> {
        if self.get(key).is_none() {
            return Ok(None);
        }
        let mut pair = [T::default(); 2];
        let mut count = 0;
        self.list(key, |x: T| {
            if count < 2 {
                pair[count] = x;
            }
            count += 1;
            Ok(())
        })?;
        if count == 2 {
            Ok(Some(pair))
        } else {
            Err(self.error(RequestErrorKind::NotAPair { key }))
        }
    }

    fn legal(&self) -> Result<MoveSet, RequestError> {
        let mut legal = MoveSet::EMPTY;
        self.list("legal", |hole: u8| {
            let mv = Move::new(hole)
                .ok_or_else(|| self.error(RequestErrorKind::LegalOutOfRange { hole }))?;
            legal.insert(mv);
            Ok(())
        })?;
        Ok(legal)
    }
}

/// Splits a line into its command word and the rest, for one message type.
fn args_for(line: &str, command: Command) -> Result<Args<'_>, RequestError> {
    let line = line.trim();
    let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    if word == command.as_str() {
        Ok(Args::new(command, rest))
    } else {
        Err(RequestError {
            command,
            kind: RequestErrorKind::WrongCommand {
                found: word.to_string(),
            },
        })
    }
}

/// `hello`: the handshake, once per process. Answered by [`Reply::Hello`](crate::Reply::Hello).
///
/// The bot's options from the config travel as `option.NAME=VALUE` words
/// (protocol.md): a bot reads those it knows and ignores the rest.
///
/// ```
/// use endodoi_protocol::Hello;
/// assert_eq!(Hello::CURRENT.to_string(), "hello version=1");
/// assert_eq!("hello".parse(), Ok(Hello { version: None, options: vec![] }));
/// let hello = Hello { options: vec![("depth".into(), "4".into())], ..Hello::CURRENT };
/// assert_eq!(hello.to_string(), "hello version=1 option.depth=4");
/// assert_eq!(hello.to_string().parse::<Hello>()?.option("depth"), Some("4"));
/// # Ok::<(), endodoi_protocol::RequestError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Hello {
    /// The version the arena speaks; `None` when the line has none (or an
    /// unreadable one).
    pub version: Option<u32>,
    /// The `option.NAME=VALUE` words, `(NAME, VALUE)`, in the line's order.
    /// Encoding writes them as given: names and values must be words (no
    /// whitespace, no `=` in a name), as the arena's config ensures.
    pub options: Vec<(String, String)>,
}

impl Hello {
    /// The handshake of this version with no options: `hello version=1`.
    pub const CURRENT: Hello = Hello {
        version: Some(VERSION),
        options: Vec::new(),
    };

    /// The value of option `name`, if the line set it (the last one if it
    /// set it twice).
    #[must_use]
    pub fn option(&self, name: &str) -> Option<&str> {
        self.options
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// The prefix of an option's key in `hello`: `option.depth=4`.
pub const OPTION_PREFIX: &str = "option.";

impl Encode for Hello {
    fn encode<W: fmt::Write + ?Sized>(&self, f: &mut W) -> fmt::Result {
        f.write_str("hello")?;
        if let Some(v) = self.version {
            write!(f, " version={v}")?;
        }
        for (name, value) in &self.options {
            write!(f, " {OPTION_PREFIX}{name}={value}")?;
        }
        Ok(())
    }
}

impl FromStr for Hello {
    type Err = RequestError;

    /// # Errors
    /// Only [`RequestErrorKind::WrongCommand`]: a bad version reads as none.
    fn from_str(line: &str) -> Result<Hello, RequestError> {
        let args = args_for(line, Command::Hello)?;
        Ok(Hello {
            version: args.number("version").ok().flatten(),
            options: options_of(line),
        })
    }
}

/// The `option.NAME=VALUE` words of a `hello` line, in order (a word
/// `option.=x`, with no name, is skipped).
fn options_of(line: &str) -> Vec<(String, String)> {
    line.split_whitespace()
        .filter_map(|w| w.strip_prefix(OPTION_PREFIX)?.split_once('='))
        .filter(|(name, _)| !name.is_empty())
        .map(|(n, v)| (n.to_string(), v.to_string()))
        .collect()
}

/// `newgame`: a game starts, with these settings. Answered by
/// [`Reply::Ready`](crate::Reply::Ready).
///
/// Encoded with every key of `protocol.md`; decoded with `max_laps` and
/// `max_plies` defaulting to the rules' defaults, the times to 0 and
/// `series`/`game` to none, so an older or smaller arena still works.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NewGame {
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
    /// The game's place in the tournament, `(series, game)`, both from 1,
    /// when the arena says (`series=` and `game=`): a seed for bots that want
    /// each game to play the same whatever process plays it.
    pub game: Option<(u64, u64)>,
}

impl Encode for NewGame {
    fn encode<W: fmt::Write + ?Sized>(&self, f: &mut W) -> fmt::Result {
        let r = &self.rules;
        write!(
            f,
            "newgame holes={} seeds={} side={} move_time_ms={} base_time_ms={} increment_ms={} max_plies={} max_laps={}",
            r.holes(),
            r.seeds(),
            self.side,
            self.move_time_ms,
            self.base_time_ms,
            self.increment_ms,
            r.max_plies(),
            r.max_laps()
        )?;
        if let Some((series, game)) = self.game {
            write!(f, " series={series} game={game}")?;
        }
        Ok(())
    }
}

impl FromStr for NewGame {
    type Err = RequestError;

    /// # Errors
    /// [`RequestError`] for a missing `holes`, `seeds` or `side`, a value
    /// that is not a number, or rules the engine refuses.
    fn from_str(line: &str) -> Result<NewGame, RequestError> {
        parse_newgame(&args_for(line, Command::NewGame)?)
    }
}

fn parse_newgame(args: &Args<'_>) -> Result<NewGame, RequestError> {
    let missing = |key| args.error(RequestErrorKind::Missing { key });
    let holes: usize = args.number("holes")?.ok_or_else(|| missing("holes"))?;
    let seeds: u32 = args.number("seeds")?.ok_or_else(|| missing("seeds"))?;
    let side = args.require("side")?;
    let side: Side = side.parse().map_err(|error| {
        args.error(RequestErrorKind::BadSide {
            value: side.to_string(),
            error,
        })
    })?;
    let max_laps = args.number("max_laps")?.unwrap_or(DEFAULT_MAX_LAPS);
    let max_plies = args.number("max_plies")?.unwrap_or(DEFAULT_MAX_PLIES);
    let rules = Rules::new(holes, seeds)
        .and_then(|r| r.with_max_laps(max_laps))
        .and_then(|r| r.with_max_plies(max_plies))
        .map_err(|e| args.error(RequestErrorKind::Rules(e)))?;
    Ok(NewGame {
        rules,
        side,
        move_time_ms: args.number("move_time_ms")?.unwrap_or(0),
        base_time_ms: args.number("base_time_ms")?.unwrap_or(0),
        increment_ms: args.number("increment_ms")?.unwrap_or(0),
        game: args.number("series")?.zip(args.number("game")?),
    })
}

/// One row of a `turn`: the seeds of up to [`MAX_HOLES`] holes, held
/// inline (no heap), so the arena fills one per ply without allocating.
/// Derefs to the slice of its holes.
///
/// ```
/// let row = endodoi_protocol::Row::new(&[4, 0, 2]).unwrap();
/// assert_eq!((row.len(), &row[..]), (3, &[4, 0, 2][..]));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Row {
    len: u8,
    /// Seeds by hole; zero past `len`, so the derived comparisons hold.
    seeds: [u32; MAX_HOLES],
}

impl Row {
    /// A row of no holes.
    pub const EMPTY: Row = Row {
        len: 0,
        seeds: [0; MAX_HOLES],
    };

    /// A row of these holes; `None` for more than [`MAX_HOLES`].
    #[must_use]
    pub fn new(seeds: &[u32]) -> Option<Row> {
        let mut row = Row::EMPTY;
        row.seeds.get_mut(..seeds.len())?.copy_from_slice(seeds);
        row.len = seeds.len() as u8;
        Some(row)
    }

    /// Adds a hole at the end; `None` when the row is full.
    pub fn push(&mut self, seeds: u32) -> Option<()> {
        let slot = self.seeds.get_mut(usize::from(self.len))?;
        *slot = seeds;
        self.len += 1;
        Some(())
    }

    /// The holes' seeds, hole 1 first.
    #[must_use]
    pub fn as_slice(&self) -> &[u32] {
        &self.seeds[..usize::from(self.len)]
    }
}

impl Deref for Row {
    type Target = [u32];

    fn deref(&self) -> &[u32] {
        self.as_slice()
    }
}

impl fmt::Debug for Row {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

/// `turn`: the bot's move, with the position from its own point of view.
/// Answered by [`Reply::Move`](crate::Reply::Move).
///
/// Decoding requires `mine`, `theirs` and `legal`; `captured` defaults to
/// `0,0`, `ply` to 0, `time_ms` and `clock_ms` to none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Turn {
    /// Seeds in the bot's holes 1..n.
    pub mine: Row,
    /// Seeds in the opponent's holes 1..n, numbered from the opponent's left.
    pub theirs: Row,
    /// Seeds captured so far: the bot's, then the opponent's.
    pub captured: [u32; 2],
    /// The opponent's previous move, in its own numbering; `None` for `last=none`.
    pub last: Option<Move>,
    /// The bot's legal moves; never empty in a well-formed request.
    pub legal: MoveSet,
    /// Plies played so far in the game.
    pub ply: u32,
    /// The time this reply may take, in ms (the per-move limit or the game
    /// clock, whichever is less); always sent by the arena.
    pub time_ms: Option<u64>,
    /// The game clocks in ms, the bot's then the opponent's, when the game
    /// has a clock.
    pub clock_ms: Option<[u64; 2]>,
}

impl Turn {
    /// The `turn` for the side to move of `pos`: the position from that
    /// side's own point of view, the opponent's `last` move, the `legal`
    /// moves (those of `pos`), the time this reply may take (`time_ms`, ms)
    /// and, with a game clock, both clocks (`clock_ms`: mover's then
    /// opponent's, ms). Allocates nothing.
    #[must_use]
    pub fn new(
        pos: &Position,
        last: Option<Move>,
        legal: MoveSet,
        time_ms: u64,
        clock_ms: Option<[u64; 2]>,
    ) -> Turn {
        let me = pos.to_move();
        let them = me.opponent();
        let row = |side| {
            let mut row = Row::EMPTY;
            for seeds in pos.row(side) {
                row.push(seeds)
                    .expect("a board has at most MAX_HOLES holes");
            }
            row
        };
        Turn {
            mine: row(me),
            theirs: row(them),
            captured: [pos.captured(me), pos.captured(them)],
            last,
            legal,
            ply: pos.ply(),
            time_ms: Some(time_ms),
            clock_ms,
        }
    }
}

impl Encode for Turn {
    fn encode<W: fmt::Write + ?Sized>(&self, f: &mut W) -> fmt::Result {
        f.write_str("turn mine=")?;
        write_list(f, self.mine.iter().map(|&x| u64::from(x)))?;
        f.write_str(" theirs=")?;
        write_list(f, self.theirs.iter().map(|&x| u64::from(x)))?;
        f.write_str(" captured=")?;
        write_list(f, self.captured.map(u64::from))?;
        f.write_str(" last=")?;
        match self.last {
            Some(mv) => write_num(f, u64::from(mv.hole()))?,
            None => f.write_str("none")?,
        }
        f.write_str(" legal=")?;
        write_list(f, self.legal.into_iter().map(|m| u64::from(m.hole())))?;
        f.write_str(" ply=")?;
        write_num(f, u64::from(self.ply))?;
        if let Some(t) = self.time_ms {
            f.write_str(" time_ms=")?;
            write_num(f, t)?;
        }
        if let Some(clocks) = self.clock_ms {
            f.write_str(" clock_ms=")?;
            write_list(f, clocks)?;
        }
        Ok(())
    }
}

impl FromStr for Turn {
    type Err = RequestError;

    /// # Errors
    /// [`RequestError`] for a missing or malformed `mine`, `theirs` or
    /// `legal`, rows of different lengths, a malformed `captured`, `last`,
    /// `ply`, `time_ms` or `clock_ms`.
    fn from_str(line: &str) -> Result<Turn, RequestError> {
        parse_turn(&args_for(line, Command::Turn)?)
    }
}

fn parse_turn(args: &Args<'_>) -> Result<Turn, RequestError> {
    let mine = args.row("mine")?;
    let theirs = args.row("theirs")?;
    if mine.len() != theirs.len() {
        return Err(args.error(RequestErrorKind::RowLengths {
            mine: mine.len(),
            theirs: theirs.len(),
        }));
    }
    let captured = args.pair("captured")?.unwrap_or([0, 0]);
    let last = match args.get("last") {
        None | Some("none") => None,
        Some(v) => Some(parse_decimal(v).and_then(Move::new).ok_or_else(|| {
            args.error(RequestErrorKind::BadLast {
                value: v.to_string(),
            })
        })?),
    };
    let legal = args.legal()?;
    Ok(Turn {
        mine,
        theirs,
        captured,
        last,
        legal,
        ply: args.number("ply")?.unwrap_or(0),
        time_ms: args.number("time_ms")?,
        clock_ms: args.pair("clock_ms")?,
    })
}

/// The legal moves of a `turn` line, read on their own: the fallback when the
/// rest of the line cannot be parsed. `None` unless the line is a `turn` with a
/// well-formed, non-empty `legal=` argument.
///
/// ```
/// use endodoi_protocol::legal_of_turn;
/// assert_eq!(legal_of_turn("turn mine=x legal=3,5").unwrap().to_string(), "3 5");
/// ```
#[must_use]
pub fn legal_of_turn(line: &str) -> Option<MoveSet> {
    args_for(line, Command::Turn)
        .ok()?
        .legal()
        .ok()
        .filter(|l| !l.is_empty())
}

/// A game's result from the bot's side, in `gameover`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// The bot won.
    Win,
    /// The bot lost.
    Loss,
    /// Equal totals.
    Draw,
}

impl GameResult {
    /// `win`, `loss` or `draw`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            GameResult::Win => "win",
            GameResult::Loss => "loss",
            GameResult::Draw => "draw",
        }
    }

    /// The result for `side` of a game won by `winner` (`None`: a draw).
    #[must_use]
    pub fn for_side(side: Side, winner: Option<Side>) -> GameResult {
        match winner {
            None => GameResult::Draw,
            Some(w) if w == side => GameResult::Win,
            Some(_) => GameResult::Loss,
        }
    }
}

/// `gameover`: a game ended (a notification, no reply). Every field is
/// optional when decoding, so that a bot never trips over it: bots may
/// ignore it entirely. Encoding writes the fields that are set, in the
/// order `result`, `mine`, `theirs`, `reason`.
///
/// ```
/// use endodoi::Side;
/// use endodoi_protocol::GameOver;
/// let over = GameOver::new(Side::North, Some(Side::South), [40, 24], "no-moves");
/// assert_eq!(over.to_string(), "gameover result=loss mine=24 theirs=40 reason=no-moves");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameOver {
    /// Win, loss or draw, from the bot's side.
    pub result: Option<GameResult>,
    /// The bot's final seed total.
    pub mine: Option<u32>,
    /// The opponent's final seed total.
    pub theirs: Option<u32>,
    /// The game's termination as in `games.csv`, such as `no-moves` or
    /// `timeout` (one word).
    pub reason: Option<String>,
}

impl GameOver {
    /// How a game won by `winner` (`None`: a draw) with final seeds
    /// `seeds` (South's, North's) and termination `reason` looks to `side`.
    #[must_use]
    pub fn new(side: Side, winner: Option<Side>, seeds: [u32; 2], reason: &str) -> GameOver {
        GameOver {
            result: Some(GameResult::for_side(side, winner)),
            mine: Some(seeds[side.index()]),
            theirs: Some(seeds[side.opponent().index()]),
            reason: Some(reason.to_string()),
        }
    }
}

impl Encode for GameOver {
    fn encode<W: fmt::Write + ?Sized>(&self, f: &mut W) -> fmt::Result {
        f.write_str("gameover")?;
        if let Some(r) = self.result {
            write!(f, " result={}", r.as_str())?;
        }
        if let Some(m) = self.mine {
            write!(f, " mine={m}")?;
        }
        if let Some(t) = self.theirs {
            write!(f, " theirs={t}")?;
        }
        if let Some(r) = &self.reason {
            write!(f, " reason={r}")?;
        }
        Ok(())
    }
}

impl FromStr for GameOver {
    type Err = RequestError;

    /// # Errors
    /// Only [`RequestErrorKind::WrongCommand`]: a field that cannot be read
    /// is left out.
    fn from_str(line: &str) -> Result<GameOver, RequestError> {
        Ok(parse_gameover(&args_for(line, Command::GameOver)?))
    }
}

fn parse_gameover(args: &Args<'_>) -> GameOver {
    GameOver {
        result: match args.get("result") {
            Some("win") => Some(GameResult::Win),
            Some("loss") => Some(GameResult::Loss),
            Some("draw") => Some(GameResult::Draw),
            _ => None,
        },
        mine: args.number("mine").ok().flatten(),
        theirs: args.number("theirs").ok().flatten(),
        reason: args.get("reason").map(str::to_string),
    }
}

/// `quit`: the end (a notification, no reply); the bot exits promptly.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Quit;

impl Encode for Quit {
    fn encode<W: fmt::Write + ?Sized>(&self, f: &mut W) -> fmt::Result {
        f.write_str("quit")
    }
}

impl FromStr for Quit {
    type Err = RequestError;

    /// # Errors
    /// Only [`RequestErrorKind::WrongCommand`].
    fn from_str(line: &str) -> Result<Quit, RequestError> {
        args_for(line, Command::Quit).map(|_| Quit)
    }
}

/// Any line from the arena to a bot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    /// `hello`: the handshake.
    Hello(Hello),
    /// `newgame`: a game starts; reply [`Reply::Ready`](crate::Reply::Ready).
    NewGame(NewGame),
    /// `turn`: the bot's move; reply [`Reply::Move`](crate::Reply::Move).
    Turn(Box<Turn>),
    /// `gameover`: a game ended (no reply).
    GameOver(GameOver),
    /// `quit`: exit promptly (no reply).
    Quit,
    /// A blank line: nothing to do.
    Empty,
    /// A command this version does not know, kept by name; bots ignore it.
    /// (Encoded as the bare word.)
    Unknown(String),
}

impl Request {
    /// Parses one request line. A trailing `\r`, `\n` and surrounding
    /// whitespace are ignored, as are argument keys this version does not
    /// know; an unknown command gives [`Request::Unknown`].
    ///
    /// # Errors
    /// [`RequestError`] when a known command lacks a required argument or
    /// has a malformed one.
    pub fn parse(line: &str) -> Result<Request, RequestError> {
        let line = line.trim();
        let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        if word.is_empty() {
            return Ok(Request::Empty);
        }
        let Some(command) = Command::from_word(word) else {
            return Ok(Request::Unknown(word.to_string()));
        };
        let args = Args::new(command, rest);
        Ok(match command {
            Command::Hello => Request::Hello(Hello {
                version: args.number("version").ok().flatten(),
                options: options_of(rest),
            }),
            Command::NewGame => Request::NewGame(parse_newgame(&args)?),
            Command::Turn => Request::Turn(Box::new(parse_turn(&args)?)),
            Command::GameOver => Request::GameOver(parse_gameover(&args)),
            Command::Quit => Request::Quit,
        })
    }
}

impl Encode for Request {
    fn encode<W: fmt::Write + ?Sized>(&self, f: &mut W) -> fmt::Result {
        match self {
            Request::Hello(m) => m.encode(f),
            Request::NewGame(m) => m.encode(f),
            Request::Turn(m) => m.encode(f),
            Request::GameOver(m) => m.encode(f),
            Request::Quit => Quit.encode(f),
            Request::Empty => Ok(()),
            Request::Unknown(word) => f.write_str(word),
        }
    }
}

impl FromStr for Request {
    type Err = RequestError;

    /// [`Request::parse`].
    fn from_str(line: &str) -> Result<Request, RequestError> {
        Request::parse(line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn turn(line: &str) -> Turn {
        match Request::parse(line) {
            Ok(Request::Turn(t)) => *t,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn newgame_with_unknown_keys_and_crlf() {
        let req = Request::parse(
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
        assert_eq!(s.game, None);
    }

    #[test]
    fn newgame_is_written_as_protocol_md_says() {
        let g = NewGame {
            rules: Rules::new(8, 4).unwrap(),
            side: Side::North,
            move_time_ms: 1000,
            base_time_ms: 0,
            increment_ms: 0,
            game: Some((3, 2)),
        };
        assert_eq!(g.to_string(), "newgame holes=8 seeds=4 side=north move_time_ms=1000 base_time_ms=0 increment_ms=0 max_plies=1000 max_laps=100000 series=3 game=2");
    }

    #[test]
    fn newgame_defaults_and_errors() {
        let s: NewGame = "newgame holes=8 seeds=4 side=south".parse().unwrap();
        assert_eq!(s.rules.max_laps(), DEFAULT_MAX_LAPS);
        assert_eq!(s.rules.max_plies(), DEFAULT_MAX_PLIES);
        for (bad, kind) in [
            (
                "newgame seeds=4 side=south",
                RequestErrorKind::Missing { key: "holes" },
            ),
            (
                "newgame holes=8 seeds=4 side=south max_plies=x",
                RequestErrorKind::NotANumber {
                    key: "max_plies",
                    value: "x".into(),
                },
            ),
        ] {
            let err = Request::parse(bad).unwrap_err();
            assert_eq!((err.command, err.kind), (Command::NewGame, kind), "{bad}");
        }
        for bad in [
            "newgame holes=1 seeds=4 side=south",
            "newgame holes=8 seeds=4 side=south max_laps=0",
        ] {
            let err = Request::parse(bad).unwrap_err();
            assert!(matches!(err.kind, RequestErrorKind::Rules(_)), "{bad}");
        }
        let err = Request::parse("newgame holes=8 seeds=4 side=east").unwrap_err();
        assert!(
            matches!(err.kind, RequestErrorKind::BadSide { .. }),
            "{err}"
        );
        assert_eq!(
            Request::parse("newgame seeds=4 side=south")
                .unwrap_err()
                .to_string(),
            "bad 'newgame' request: missing holes="
        );
    }

    #[test]
    fn turn_fields() {
        let t = turn(
            "  turn theirs=0,2 mine=0,0 captured=0,2 last=1 legal=2 ply=2 time_ms=1000 clock_ms=900,800 future=1  ",
        );
        assert_eq!((&t.mine[..], &t.theirs[..]), (&[0, 0][..], &[0, 2][..]));
        assert_eq!(t.captured, [0, 2]);
        assert_eq!(t.last, Move::new(1));
        assert_eq!(t.legal.to_string(), "2");
        assert_eq!(
            (t.ply, t.time_ms, t.clock_ms),
            (2, Some(1000), Some([900, 800]))
        );
    }

    #[test]
    fn turn_is_from_the_movers_point_of_view() {
        let mut pos = Rules::new(4, 4).unwrap().start();
        pos.play(Move::new(4).unwrap()).unwrap();
        assert_eq!(pos.to_string(), "1,8,0,4/0,9,9,1 n 0 0 1");
        let t = Turn::new(&pos, Move::new(4), pos.legal_moves(), 950, None);
        assert_eq!(
            t.to_string(),
            "turn mine=0,9,9,1 theirs=1,8,0,4 captured=0,0 last=4 legal=2,3,4 ply=1 time_ms=950"
        );
        let t = Turn::new(&pos, None, pos.legal_moves(), 5, Some([100, 200]));
        assert!(
            t.to_string()
                .ends_with("last=none legal=2,3,4 ply=1 time_ms=5 clock_ms=100,200"),
            "{t}"
        );
    }

    #[test]
    fn bad_turns() {
        use RequestErrorKind as K;
        for (bad, kind) in [
            ("turn mine=1,1 legal=1", K::Missing { key: "theirs" }),
            (
                "turn mine=1,1 theirs=1 legal=1",
                K::RowLengths { mine: 2, theirs: 1 },
            ),
            (
                "turn mine=1,x theirs=1,1 legal=1",
                K::BadListItem {
                    key: "mine",
                    value: "1,x".into(),
                    item: "x".into(),
                },
            ),
            (
                "turn mine=1,1 theirs=1,1 legal=0",
                K::LegalOutOfRange { hole: 0 },
            ),
            (
                "turn mine=1,1 theirs=1,1 legal=1 captured=1",
                K::NotAPair { key: "captured" },
            ),
            (
                "turn mine=1,1 theirs=1,1 legal=1 last=banana",
                K::BadLast {
                    value: "banana".into(),
                },
            ),
        ] {
            let err = Request::parse(bad).unwrap_err();
            assert_eq!((err.command, err.kind), (Command::Turn, kind), "{bad}");
        }
        // Numbers are plain decimal: no sign, no leading zero.
        for (bad, kind) in [
            (
                "turn mine=01,1 theirs=1,1 legal=1",
                K::BadListItem {
                    key: "mine",
                    value: "01,1".into(),
                    item: "01".into(),
                },
            ),
            (
                "turn mine=1,1 theirs=1,1 legal=+1",
                K::BadListItem {
                    key: "legal",
                    value: "+1".into(),
                    item: "+1".into(),
                },
            ),
            (
                "turn mine=1,1 theirs=1,1 legal=1 last=01",
                K::BadLast { value: "01".into() },
            ),
            (
                "turn mine=1,1 theirs=1,1 legal=1 ply=+2",
                K::NotANumber {
                    key: "ply",
                    value: "+2".into(),
                },
            ),
        ] {
            let err = Request::parse(bad).unwrap_err();
            assert_eq!((err.command, err.kind), (Command::Turn, kind), "{bad}");
        }
        assert_eq!(
            Request::parse("newgame holes=08 seeds=4 side=south")
                .unwrap_err()
                .to_string(),
            "bad 'newgame' request: holes=08 is not a number: write plain decimal digits, with no sign and no leading zero"
        );
        assert_eq!(turn("turn mine=0,10 theirs=0,0 legal=2 ply=0").mine[1], 10);
        let long = format!("turn mine={} theirs=1 legal=1", vec!["1"; 51].join(","));
        assert_eq!(
            Request::parse(&long).unwrap_err().kind,
            K::TooManyHoles { key: "mine" }
        );
        assert_eq!(
            legal_of_turn("turn mine=1,x legal=2,1")
                .unwrap()
                .to_string(),
            "1 2"
        );
        assert_eq!(legal_of_turn("turn legal=a"), None);
        assert_eq!(legal_of_turn("newgame legal=1"), None);
        assert_eq!(
            "newgame holes=2".parse::<Turn>().unwrap_err().kind,
            K::WrongCommand {
                found: "newgame".into()
            }
        );
    }

    #[test]
    fn other_requests() {
        assert_eq!(
            Request::parse("hello version=1\n"),
            Ok(Request::Hello(Hello::CURRENT))
        );
        assert_eq!(
            Request::parse("hello"),
            Ok(Request::Hello(Hello {
                version: None,
                options: vec![]
            }))
        );
        assert_eq!(Request::parse("quit\r"), Ok(Request::Quit));
        assert_eq!("quit".parse(), Ok(Quit));
        assert_eq!(Request::parse(" \r\n"), Ok(Request::Empty));
        assert_eq!(
            Request::parse("ping x=1"),
            Ok(Request::Unknown("ping".into()))
        );
        let Ok(Request::GameOver(g)) =
            Request::parse("gameover result=win mine=40 theirs=24 reason=no-moves")
        else {
            panic!()
        };
        assert_eq!(g.result, Some(GameResult::Win));
        assert_eq!((g.mine, g.theirs), (Some(40), Some(24)));
        assert_eq!(g.reason.as_deref(), Some("no-moves"));
        assert_eq!(
            "gameover result=maybe mine=x".parse(),
            Ok(GameOver::default())
        );
    }

    #[test]
    fn gameover_lines() {
        let over = |side| GameOver::new(side, Some(Side::South), [40, 24], "no-moves");
        assert_eq!(
            over(Side::North).to_string(),
            "gameover result=loss mine=24 theirs=40 reason=no-moves"
        );
        assert_eq!(
            over(Side::South).to_string(),
            "gameover result=win mine=40 theirs=24 reason=no-moves"
        );
        let draw = GameOver::new(Side::South, None, [32, 32], "ply-limit");
        assert_eq!(
            draw.to_string(),
            "gameover result=draw mine=32 theirs=32 reason=ply-limit"
        );
        assert_eq!(Hello::CURRENT.to_string(), "hello version=1");
        assert_eq!(Quit.to_string(), "quit");
    }
}
