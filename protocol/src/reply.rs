//! A bot's messages to the arena: `hello`, `ready`, `move N` and `info`.

use std::borrow::Cow;
use std::fmt;
use std::str::FromStr;

use endodoi::Move;

use crate::{shown, valid_name, write_valid_name, VERSION};

/// Why a bot's line is not a valid message.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReplyError {
    /// The line is not one of the messages of protocol.md.
    #[error("not a protocol message")]
    Unknown,
    /// `move` without a hole number: plain decimal digits with no sign
    /// and no leading zero (`[1-9][0-9]*`, at most 4294967295).
    #[error("not a hole number: {0}")]
    BadMove(BadHole),
    /// `hello` without `version=` or `name=`, with a bad value, or with a
    /// word that is not `key=value`.
    #[error("bad handshake: reply 'hello version=1 name=NAME'")]
    BadHello,
}

/// Why the argument of `move` is not a hole number, each with its fix.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum BadHole {
    /// Missing, not digits, or more than one word.
    #[error("reply 'move N' with N from the legal list")]
    NotDigits,
    /// A sign in front (`+3`, `-3`).
    #[error("write it without a sign: 'move 3', not 'move +3'")]
    Sign,
    /// A leading zero (`03`).
    #[error("write it without a leading zero: 'move 3', not 'move 03'")]
    LeadingZero,
    /// `0`: holes are numbered from 1.
    #[error("holes are numbered from 1: reply 'move N' with N from the legal list")]
    Zero,
    /// More than 4294967295.
    #[error("past any board: reply 'move N' with N from the legal list")]
    TooLarge,
}

/// `text` as a hole number, the one rule of every hole number the arena
/// reads (a bot's `move N`, a move list in `games.csv`, `arena replay`,
/// an openings file, `--opening`): plain decimal digits with no sign and no
/// leading zero, from 1 (`[1-9][0-9]*`, at most 4294967295). Whether the
/// board has that hole is the rules engine's to say.
///
/// ```
/// use endodoi_protocol::{parse_hole, BadHole};
/// assert_eq!(parse_hole("12"), Ok(12));
/// assert_eq!(parse_hole("01"), Err(BadHole::LeadingZero));
/// assert_eq!(parse_hole("+1"), Err(BadHole::Sign));
/// ```
///
/// # Errors
/// [`BadHole`]: why `text` is not a hole number.
pub fn parse_hole(text: &str) -> Result<u32, BadHole> {
    match BadHole::of(text) {
        Some(why) => Err(why),
        None => text.parse().map_err(|_| BadHole::TooLarge),
    }
}

/// `text` as a move of a move list: a hole number by [`parse_hole`]'s rule
/// that a board can have (1 to 50, [`Move::new`]).
///
/// ```
/// assert_eq!(endodoi_protocol::parse_move("3"), endodoi::Move::new(3).ok_or(endodoi_protocol::BadHole::Zero));
/// assert!(endodoi_protocol::parse_move("03").is_err());
/// ```
///
/// # Errors
/// [`BadHole`], with [`BadHole::TooLarge`] for a number past 50.
pub fn parse_move(text: &str) -> Result<Move, BadHole> {
    let hole = parse_hole(text)?;
    u8::try_from(hole)
        .ok()
        .and_then(Move::new)
        .ok_or(BadHole::TooLarge)
}

impl BadHole {
    /// Why `arg` (the text after `move`, trimmed) is not a hole number;
    /// `None` if it is one.
    fn of(arg: &str) -> Option<BadHole> {
        let digits = arg.strip_prefix(['+', '-']).unwrap_or(arg);
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            Some(BadHole::NotDigits)
        } else if digits.len() != arg.len() {
            Some(BadHole::Sign)
        } else if arg.bytes().all(|b| b == b'0') {
            Some(BadHole::Zero)
        } else if arg.starts_with('0') {
            Some(BadHole::LeadingZero)
        } else if arg.parse::<u32>().is_err() {
            Some(BadHole::TooLarge)
        } else {
            None
        }
    }
}

/// A bot's answer to `hello`:
/// `hello version=V name=NAME [author=AUTHOR] [options=NAME,NAME...]`.
///
/// Encoding makes the name valid ([`to_valid_name`](crate::to_valid_name))
/// and replaces characters of the author that are not printable ASCII with
/// `_` (an empty author is left out); decoding requires a valid name.
///
/// ```
/// use endodoi_protocol::HelloReply;
/// let reply: HelloReply = "hello version=1 name=ab options=depth,think_ms".parse()?;
/// assert_eq!(reply.option_names().collect::<Vec<_>>(), ["depth", "think_ms"]);
/// assert_eq!(reply.to_string(), "hello version=1 name=ab options=depth,think_ms");
/// # Ok::<(), endodoi_protocol::ReplyError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct HelloReply<'a> {
    /// The version the bot speaks.
    pub version: u32,
    /// The bot's own name ([`valid_name`]).
    pub name: Cow<'a, str>,
    /// The author, if given (no spaces).
    pub author: Option<Cow<'a, str>>,
    /// The options the bot takes (`options=`): names separated by commas
    /// ([`HelloReply::option_names`]); `None` when it lists none. Decoding
    /// and [`HelloReply::with_options`] keep only valid option names
    /// ([`valid_name`]: what protocol.md allows in `option.NAME=`), each
    /// once, in the bot's order, so the list is safe to print. Kept as one
    /// word so decoding a clean list allocates nothing.
    pub options: Option<Cow<'a, str>>,
}

impl<'a> HelloReply<'a> {
    /// The answer of a bot called `name` speaking this version.
    #[must_use]
    pub fn new(name: impl Into<Cow<'a, str>>, author: Option<Cow<'a, str>>) -> HelloReply<'a> {
        HelloReply {
            version: VERSION,
            name: name.into(),
            author,
            options: None,
        }
    }

    /// The same reply listing the options `names`, joined with commas: as
    /// decoding does, a name that is not a valid option name
    /// ([`valid_name`]) is left out, and a repeated one kept once.
    #[must_use]
    pub fn with_options<S: AsRef<str>>(mut self, names: &[S]) -> HelloReply<'a> {
        let joined: Vec<&str> = names.iter().map(AsRef::as_ref).collect();
        self.options = Some(Cow::Owned(clean_options(&joined.join(",")).into_owned()));
        self
    }

    /// The names of the options the bot listed, in its order (empty items
    /// of the list skipped); none when it listed none.
    pub fn option_names(&self) -> impl Iterator<Item = &str> {
        self.options
            .as_deref()
            .unwrap_or("")
            .split(',')
            .filter(|n| !n.is_empty())
    }

    /// The same reply, owning its text.
    #[must_use]
    pub fn into_owned(self) -> HelloReply<'static> {
        HelloReply {
            version: self.version,
            name: Cow::Owned(self.name.into_owned()),
            author: self.author.map(|a| Cow::Owned(a.into_owned())),
            options: self.options.map(|o| Cow::Owned(o.into_owned())),
        }
    }
}

/// An `options=` list with only its valid option names ([`valid_name`]),
/// each once, in order: borrowed when it is already so (no allocation).
/// A bot's list reaches the organiser's terminal, so nothing else may pass.
fn clean_options(list: &str) -> Cow<'_, str> {
    let names = || list.split(',');
    let fresh = |i: usize, n: &str| valid_name(n) && !names().take(i).any(|m| m == n);
    if names().enumerate().all(|(i, n)| fresh(i, n)) {
        return Cow::Borrowed(list);
    }
    let kept: Vec<&str> = names()
        .enumerate()
        .filter(|&(i, n)| fresh(i, n))
        .map(|(_, n)| n)
        .collect();
    Cow::Owned(kept.join(","))
}

impl fmt::Display for HelloReply<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "hello version={} name=", self.version)?;
        write_valid_name(f, &self.name)?;
        if let Some(author) = self.author.as_deref().filter(|a| !a.is_empty()) {
            f.write_str(" author=")?;
            for c in author.chars() {
                fmt::Write::write_char(f, if c.is_ascii_graphic() { c } else { '_' })?;
            }
        }
        if let Some(options) = self.options.as_deref().filter(|o| !o.is_empty()) {
            write!(f, " options={options}")?;
        }
        Ok(())
    }
}

impl FromStr for HelloReply<'static> {
    type Err = ReplyError;

    /// # Errors
    /// [`ReplyError::BadHello`], or [`ReplyError::Unknown`] for a line that
    /// is not a `hello`.
    fn from_str(line: &str) -> Result<HelloReply<'static>, ReplyError> {
        match Reply::parse(line)? {
            Reply::Hello(h) => Ok(h.into_owned()),
            _ => Err(ReplyError::Unknown),
        }
    }
}

/// One line from a bot, decoded: a message, or a blank line. Borrows from
/// the line ([`Reply::parse`]), so decoding a `move` or an `info` line
/// allocates nothing; [`FromStr`] gives an owned one.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Reply<'a> {
    /// `hello version=V name=NAME ...`: the answer to `hello`.
    Hello(HelloReply<'a>),
    /// `ready`: the answer to `newgame`.
    Ready,
    /// `move N`: the answer to `turn`; the number is not yet checked
    /// against the board.
    Move(u32),
    /// `info TEXT`: a log line, never a reply. Holds the text after `info`;
    /// encoding writes line breaks in it as spaces.
    Info(Cow<'a, str>),
    /// An empty line (or one of only whitespace); ignored. Encoded as an
    /// empty line.
    Blank,
}

impl<'a> Reply<'a> {
    /// Decodes one line from a bot (without its `\n`); a trailing `\r` and
    /// surrounding whitespace are ignored. Allocates nothing, unless a
    /// `hello`'s `options=` list needs cleaning ([`HelloReply::options`]).
    /// A key given twice in a `hello` reply counts once: the last one (as
    /// [`Hello::option`](crate::Hello::option) reads `option.NAME=`).
    ///
    /// # Errors
    /// [`ReplyError`] when the line is not a message of protocol.md.
    pub fn parse(line: &'a str) -> Result<Reply<'a>, ReplyError> {
        let line = line.trim();
        let (command, rest) = line.split_once(' ').unwrap_or((line, ""));
        match command {
            "" => Ok(Reply::Blank),
            "info" => Ok(Reply::Info(Cow::Borrowed(rest.trim_start()))),
            "ready" if rest.trim().is_empty() => Ok(Reply::Ready),
            "move" => {
                let arg = rest.trim();
                // Plain decimal, from 1: "+3", "03", "0" or "3 4" is not a
                // hole number.
                parse_hole(arg)
                    .map(Reply::Move)
                    .map_err(ReplyError::BadMove)
            }
            "hello" => {
                let mut version = None;
                let mut name = None;
                let mut author = None;
                let mut options = None;
                for word in rest.split_whitespace() {
                    match word.split_once('=') {
                        Some(("version", v)) => version = crate::parse_decimal(v),
                        Some(("name", n)) if valid_name(n) => name = Some(n),
                        Some(("author", a)) => author = Some(Cow::Borrowed(a)),
                        // The last options= replaces any before it.
                        Some(("options", o)) => options = Some(o),
                        Some(_) => {} // keys of later versions
                        // A name with a space (`name=my bot`) leaves a bare word.
                        None => return Err(ReplyError::BadHello),
                    }
                }
                match (version, name) {
                    (Some(version), Some(name)) => Ok(Reply::Hello(HelloReply {
                        version,
                        name: Cow::Borrowed(name),
                        author,
                        options: options.map(clean_options),
                    })),
                    _ => Err(ReplyError::BadHello),
                }
            }
            _ => Err(ReplyError::Unknown),
        }
    }

    /// The same reply, owning its text.
    #[must_use]
    pub fn into_owned(self) -> Reply<'static> {
        match self {
            Reply::Hello(h) => Reply::Hello(h.into_owned()),
            Reply::Ready => Reply::Ready,
            Reply::Move(n) => Reply::Move(n),
            Reply::Info(t) => Reply::Info(Cow::Owned(t.into_owned())),
            Reply::Blank => Reply::Blank,
        }
    }
}

impl From<Move> for Reply<'_> {
    /// `move N` for `mv`.
    fn from(mv: Move) -> Self {
        Reply::Move(u32::from(mv.hole()))
    }
}

impl fmt::Display for Reply<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reply::Hello(h) => h.fmt(f),
            Reply::Ready => f.write_str("ready"),
            Reply::Move(n) => write!(f, "move {n}"),
            Reply::Info(text) => {
                f.write_str("info")?;
                if !text.is_empty() {
                    f.write_str(" ")?;
                    for c in text.chars() {
                        let c = if c == '\n' || c == '\r' { ' ' } else { c };
                        fmt::Write::write_char(f, c)?;
                    }
                }
                Ok(())
            }
            Reply::Blank => Ok(()),
        }
    }
}

impl FromStr for Reply<'static> {
    type Err = ReplyError;

    /// [`Reply::parse`], owning the text.
    fn from_str(line: &str) -> Result<Reply<'static>, ReplyError> {
        Reply::parse(line).map(Reply::into_owned)
    }
}

/// Why a bot's answer to `hello` is not a good handshake.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HandshakeError {
    /// A well-formed `hello` with another version.
    #[error("speaks protocol version {version}, the arena speaks {VERSION}")]
    OtherVersion {
        /// The version the bot speaks.
        version: u32,
    },
    /// Not a well-formed `hello`.
    #[error("answered hello with '{}': reply 'hello version=1 name=NAME', every word key=value", shown(.line))]
    Malformed {
        /// The line as sent (shown escaped).
        line: String,
        /// Why it does not decode, if it is not a `hello` at all.
        error: Option<ReplyError>,
    },
}

/// The bot's name from its answer to `hello` (`line`, as read): it must be
/// `hello version=1 name=NAME`, with a valid name and this version.
///
/// ```
/// use endodoi_protocol::{hello_name, HandshakeError};
/// assert_eq!(hello_name("hello version=1 name=me author=x"), Ok("me"));
/// assert_eq!(hello_name("hello version=2 name=me"), Err(HandshakeError::OtherVersion { version: 2 }));
/// ```
///
/// # Errors
/// [`HandshakeError`]: another version, or a line that is not a good `hello`.
pub fn hello_name(line: &str) -> Result<&str, HandshakeError> {
    match Reply::parse(line) {
        Ok(Reply::Hello(HelloReply {
            version,
            name: Cow::Borrowed(name),
            ..
        })) if version == VERSION => Ok(name),
        Ok(Reply::Hello(HelloReply { version, .. })) if version != VERSION => {
            Err(HandshakeError::OtherVersion { version })
        }
        other => Err(HandshakeError::Malformed {
            line: line.to_string(),
            error: other.err(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Hello, Request};

    #[test]
    fn replies_parse_with_tolerance() {
        assert_eq!(Reply::parse("move 3"), Ok(Reply::Move(3)));
        assert_eq!(Reply::parse("  move 12 \r"), Ok(Reply::Move(12)));
        assert_eq!(Reply::parse("ready\r"), Ok(Reply::Ready));
        assert_eq!(Reply::parse(""), Ok(Reply::Blank));
        assert_eq!(
            Reply::parse("info depth 3"),
            Ok(Reply::Info("depth 3".into()))
        );
        assert_eq!(
            Reply::parse("hello version=1 name=greedy-py author=x extra=1"),
            Ok(Reply::Hello(HelloReply {
                version: 1,
                name: "greedy-py".into(),
                author: Some("x".into()),
                options: None,
            }))
        );
        let owned: Reply<'static> = "move 7".parse().unwrap();
        assert_eq!(owned, Reply::Move(7));
    }

    #[test]
    fn bad_replies_are_errors() {
        for (bad, why) in [
            ("move", BadHole::NotDigits),
            ("move x", BadHole::NotDigits),
            ("move 3 4", BadHole::NotDigits),
            ("move +", BadHole::NotDigits),
            ("move -1", BadHole::Sign),
            ("move +3", BadHole::Sign),
            ("move +1", BadHole::Sign),
            ("move 01", BadHole::LeadingZero),
            ("move 007", BadHole::LeadingZero),
            ("move 0", BadHole::Zero),
            ("move 00", BadHole::Zero),
            ("move 99999999999", BadHole::TooLarge),
        ] {
            assert_eq!(Reply::parse(bad), Err(ReplyError::BadMove(why)), "{bad}");
        }
        assert_eq!(
            Reply::parse("move 01").unwrap_err().to_string(),
            "not a hole number: write it without a leading zero: 'move 3', not 'move 03'"
        );
        assert_eq!(
            Reply::parse("move +1").unwrap_err().to_string(),
            "not a hole number: write it without a sign: 'move 3', not 'move +3'"
        );
        assert_eq!(
            Reply::parse("hello version=01 name=x"),
            Err(ReplyError::BadHello)
        );
        assert_eq!(
            Reply::parse("hello version=+1 name=x"),
            Err(ReplyError::BadHello)
        );
        for bad in [
            "hello",
            "hello version=1",
            "hello name=x",
            "hello version=one name=x",
            "hello version=1 name=a/b",
            "hello version=1 name=cap bot",
        ] {
            assert_eq!(Reply::parse(bad), Err(ReplyError::BadHello), "{bad}");
        }
        for bad in ["3", "ready now", "MOVE 3", "quit"] {
            assert_eq!(Reply::parse(bad), Err(ReplyError::Unknown), "{bad}");
        }
        assert!(Reply::parse("hello there").is_err());
        assert_eq!("ready".parse::<HelloReply>(), Err(ReplyError::Unknown));
    }

    #[test]
    fn replies_are_written() {
        let hello = Reply::Hello(HelloReply::new("greedy", Some("a b".into())));
        assert_eq!(hello.to_string(), "hello version=1 name=greedy author=a_b");
        let odd = HelloReply::new("my bot", Some("".into()));
        assert_eq!(odd.to_string(), "hello version=1 name=my-bot");
        assert_eq!(Reply::Ready.to_string(), "ready");
        assert_eq!(Reply::from(Move::new(12).unwrap()).to_string(), "move 12");
        assert_eq!(Reply::Info("a\nb".into()).to_string(), "info a b");
        assert_eq!(Reply::Info("".into()).to_string(), "info");
    }

    #[test]
    fn hello_options_both_ways() {
        // The arena's side: option words out, and back.
        let hello = Hello {
            options: vec![
                ("depth".into(), "5".into()),
                ("style".into(), "fast".into()),
            ],
            ..Hello::CURRENT
        };
        let line = hello.to_string();
        assert_eq!(line, "hello version=1 option.depth=5 option.style=fast");
        assert_eq!(line.parse::<Hello>().as_ref(), Ok(&hello));
        assert_eq!(Request::parse(&line), Ok(Request::Hello(hello.clone())));
        assert_eq!(hello.option("style"), Some("fast"));
        assert_eq!(hello.option("speed"), None);
        // Keys a bot does not know, and an option word with no name, are
        // no option.
        let odd: Hello = "hello version=1 future=2 option.=x option.a=b=c"
            .parse()
            .unwrap();
        assert_eq!(odd.options, [("a".to_string(), "b=c".to_string())]);
        // The bot's side: its list, out and back.
        let reply = HelloReply::new("ab", None).with_options(&["depth", "style"]);
        let line = reply.to_string();
        assert_eq!(line, "hello version=1 name=ab options=depth,style");
        let back: HelloReply = line.parse().unwrap();
        assert_eq!(back, reply);
        assert_eq!(back.option_names().collect::<Vec<_>>(), ["depth", "style"]);
        let none: HelloReply = "hello version=1 name=ab".parse().unwrap();
        assert_eq!(none.options, None);
        assert_eq!(none.option_names().count(), 0);
        // An empty list says "no options", and stays out of the line.
        let empty = HelloReply::new("ab", None).with_options::<&str>(&[]);
        assert_eq!(empty.to_string(), "hello version=1 name=ab");
    }

    #[test]
    fn listed_options_keep_only_valid_names_once() {
        let names = |line: &str| -> Vec<String> {
            let reply: HelloReply = line.parse().unwrap();
            reply.option_names().map(str::to_string).collect()
        };
        // Escape sequences, empty items and repeats are dropped, in order.
        let line = "hello version=1 name=g options=\u{1b}[31mred\u{1b}[0m,depth,\u{1b}]0;pwned\u{7},,depth,seed,-x";
        assert_eq!(names(line), ["depth", "seed"]);
        let reply: HelloReply = line.parse().unwrap();
        assert_eq!(reply.options.as_deref(), Some("depth,seed"));
        assert!(!reply.to_string().contains('\u{1b}'));
        // Nothing valid: a list of none, not an absent list.
        let junk: HelloReply = "hello version=1 name=g options=\u{7}".parse().unwrap();
        assert_eq!(junk.options.as_deref(), Some(""));
        // A clean list is borrowed as sent.
        match Reply::parse("hello version=1 name=g options=depth,seed") {
            Ok(Reply::Hello(h)) => assert!(matches!(h.options, Some(Cow::Borrowed("depth,seed")))),
            other => panic!("{other:?}"),
        }
        // A second options= replaces the first, as every repeated key.
        assert_eq!(
            names("hello version=1 name=g options=seed options=x"),
            ["x"]
        );
        // The bot's side cleans the same way.
        let reply = HelloReply::new("g", None).with_options(&["a", "a b", "a", "b"]);
        assert_eq!(reply.to_string(), "hello version=1 name=g options=a,b");
    }

    #[test]
    fn hello_answers() {
        assert_eq!(hello_name("hello version=1 name=me author=x"), Ok("me"));
        let old = hello_name("hello version=2 name=me").unwrap_err();
        assert!(old.to_string().contains("version 2"), "{old}");
        let bad = hello_name("hi\u{1b}").unwrap_err();
        assert!(bad.to_string().contains("'hi\\u{1b}'"), "{bad}");
        assert!(matches!(
            bad,
            HandshakeError::Malformed {
                error: Some(ReplyError::Unknown),
                ..
            }
        ));
        // A name with a space is not silently cut to its first word.
        let spaced = hello_name("hello version=1 name=cap bot").unwrap_err();
        assert!(
            spaced.to_string().contains("every word key=value"),
            "{spaced}"
        );
        assert_eq!(hello_name("hello version=1 name=me future=1"), Ok("me"));
        // A well-formed reply to another request is no handshake either.
        assert!(matches!(
            hello_name("ready"),
            Err(HandshakeError::Malformed { error: None, .. })
        ));
    }
}
