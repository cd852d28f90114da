//! # endodoi-protocol: the En Dodoi bot protocol, version 1
//!
//! Every message of `protocol.md` (the specification) is one type here, used
//! by both sides: the arena writes [`Request`]s and reads [`Reply`]s, a bot
//! reads [`Request`]s and writes [`Reply`]s. Each message encodes with
//! [`Display`](std::fmt::Display) (the line without its `\n`, exactly the
//! bytes `protocol.md` specifies) and decodes with [`FromStr`](std::str::FromStr)
//! (a trailing `\r` and surrounding whitespace tolerated), with a typed error
//! a caller can match ([`RequestError`], [`ReplyError`], [`HandshakeError`]).
//! The name rule ([`valid_name`]) and the caps ([`MAX_LINE_BYTES`] and the
//! others) live here once. Pure: no I/O.
//!
//! The arena's hot path allocates nothing: it fills a [`Turn`] (rows of fixed
//! capacity) from the position and writes it into a reused `String` with
//! [`write_line`]; [`Reply::parse`] borrows from the line, so reading a
//! `move N` or an `info` line allocates nothing either.
//!
//! ```
//! use endodoi_protocol::{Reply, Request};
//! let req: Request = "turn mine=1,1 theirs=1,1 captured=0,0 last=none legal=1,2 ply=0 time_ms=1000\r\n".parse()?;
//! let Request::Turn(turn) = req else { panic!("a turn") };
//! assert_eq!(turn.legal.to_string(), "1 2");
//! assert_eq!(Reply::from(turn.legal.first().unwrap()).to_string(), "move 1");
//! assert_eq!(Reply::parse("  move 3 \r"), Ok(Reply::Move(3)));
//! # Ok::<(), endodoi_protocol::RequestError>(())
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

use std::fmt;

mod reply;
mod request;

pub use reply::{
    hello_name, parse_hole, parse_move, BadHole, HandshakeError, HelloReply, Reply, ReplyError,
};
pub use request::{
    legal_of_turn, Command, GameOver, GameResult, Hello, NewGame, Quit, Request, RequestError,
    RequestErrorKind, Row, Turn, OPTION_PREFIX,
};

/// The protocol version this crate speaks.
pub const VERSION: u32 = 1;

/// The longest line, in bytes without the `\n` (and a trailing `\r`), a bot
/// may send; a longer one is a protocol error.
pub const MAX_LINE_BYTES: usize = 4096;

/// The most bytes a bot may send while answering one request, `info` lines
/// included; past this it forfeits with `protocol-error`.
pub const MAX_REPLY_BYTES: usize = 1 << 20;

/// The most bytes a bot may send between two requests (`info` and blank
/// lines); past this it forfeits with `protocol-error`.
pub const MAX_UNASKED_BYTES: usize = 1 << 20;

/// The most lines a bot may send between two requests (`info` and blank
/// lines); past this it forfeits with `protocol-error`.
pub const MAX_UNASKED_LINES: usize = 10_000;

/// The longest bot name, in bytes (ASCII characters).
pub const MAX_NAME_BYTES: usize = 64;

/// The most characters of a bot's line shown in a fault's detail ([`shown`]).
pub const SHOWN_MAX_CHARS: usize = 200;

/// How long a bot has to exit after `quit` (and after SIGTERM), ms.
pub const QUIT_GRACE_MS: u64 = 500;

/// Whether `name` is a valid bot name: 1 to [`MAX_NAME_BYTES`] of
/// `[A-Za-z0-9._-]`, the first a letter or digit. Names become parts of file
/// names, so `..` or `-x` never can.
///
/// ```
/// assert!(endodoi_protocol::valid_name("greedy-py_2.0"));
/// assert!(!endodoi_protocol::valid_name("-rf"));
/// ```
#[must_use]
pub fn valid_name(name: &str) -> bool {
    (1..=MAX_NAME_BYTES).contains(&name.len())
        && name.as_bytes()[0].is_ascii_alphanumeric()
        && name.bytes().all(name_byte)
}

fn name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-')
}

/// `name` made into a valid bot name ([`valid_name`]): characters outside
/// `[A-Za-z0-9._-]` become `-`, a name that does not start with a letter or
/// digit gets `bot` in front, and it is cut to [`MAX_NAME_BYTES`]; an empty
/// name becomes `bot`. A valid name is returned unchanged.
///
/// ```
/// assert_eq!(endodoi_protocol::to_valid_name("my bot!"), "my-bot-");
/// assert_eq!(endodoi_protocol::to_valid_name("-x"), "bot-x");
/// ```
#[must_use]
pub fn to_valid_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len().min(MAX_NAME_BYTES));
    let _ = write_valid_name(&mut out, name);
    out
}

/// Writes [`to_valid_name`]`(name)` without allocating.
fn write_valid_name(f: &mut impl fmt::Write, name: &str) -> fmt::Result {
    let mut chars = name.chars().map(|c| {
        if c.is_ascii() && name_byte(c as u8) {
            c
        } else {
            '-'
        }
    });
    let mut written = 0;
    match name.chars().next() {
        Some(c) if c.is_ascii_alphanumeric() => {}
        _ => {
            f.write_str("bot")?;
            written = 3;
        }
    }
    for c in chars.by_ref().take(MAX_NAME_BYTES - written) {
        f.write_char(c)?;
    }
    Ok(())
}

/// A bot's text made safe to show and store: at most [`SHOWN_MAX_CHARS`]
/// characters, with control characters and non-ASCII escaped (`\u{1b}`,
/// `\n`...), and `...` after a longer text, so a bot cannot write escape
/// sequences to a terminal or a CSV file.
///
/// ```
/// assert_eq!(endodoi_protocol::shown("move\u{1b}[2J"), "move\\u{1b}[2J");
/// ```
#[must_use]
pub fn shown(text: &str) -> String {
    let mut out: String = text
        .chars()
        .take(SHOWN_MAX_CHARS)
        .flat_map(char::escape_default)
        .collect();
    if text.chars().nth(SHOWN_MAX_CHARS).is_some() {
        out.push_str("...");
    }
    out
}

/// A bot's bytes made safe to show and store, as [`shown`] does for text,
/// but bytes that are not UTF-8 show as themselves, escaped (`\xff`), not
/// as a replacement character: what the bot really sent. At most
/// [`SHOWN_MAX_CHARS`] characters of it, then `...`.
///
/// ```
/// assert_eq!(endodoi_protocol::shown_bytes(b"move \xff\x1b"), "move \\xff\\u{1b}");
/// ```
#[must_use]
pub fn shown_bytes(bytes: &[u8]) -> String {
    let mut out = String::new();
    let mut chars = 0;
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            if chars == SHOWN_MAX_CHARS {
                out.push_str("...");
                return out;
            }
            out.extend(c.escape_default());
            chars += 1;
        }
        for b in chunk.invalid() {
            if chars == SHOWN_MAX_CHARS {
                out.push_str("...");
                return out;
            }
            out.extend(std::ascii::escape_default(*b).map(char::from));
            chars += 1;
        }
    }
    out
}

/// A request's encoding, written into any [`fmt::Write`]: its `Display`
/// is this into the formatter, and [`write_line`] this into a `String`
/// directly (no formatter in between, so a `turn` is written as fast as by
/// hand).
pub trait Encode {
    /// Writes the message, without its `\n`, into `out`.
    ///
    /// # Errors
    /// Only `out`'s (a `String` never fails).
    fn encode<W: fmt::Write + ?Sized>(&self, out: &mut W) -> fmt::Result;
}

/// Writes `message` and its `\n` into `buf`, cleared first: how the arena
/// encodes a request into one reused buffer, so a ply allocates nothing
/// once the buffer has grown to a line's length.
///
/// ```
/// let mut buf = String::new();
/// endodoi_protocol::write_line(&mut buf, &endodoi_protocol::Quit);
/// assert_eq!(buf, "quit\n");
/// ```
pub fn write_line(buf: &mut String, message: &impl Encode) {
    buf.clear();
    let _ = message.encode(buf);
    buf.push('\n');
}

/// Whether `text` is a number as protocol.md writes one: plain decimal
/// digits, with no sign and no leading zero (`0|[1-9][0-9]*`). Rust's own
/// parsers also take `+1` and `01`, which the protocol does not.
///
/// ```
/// assert!(endodoi_protocol::plain_decimal("10") && endodoi_protocol::plain_decimal("0"));
/// assert!(!endodoi_protocol::plain_decimal("01") && !endodoi_protocol::plain_decimal("+1"));
/// ```
#[must_use]
pub fn plain_decimal(text: &str) -> bool {
    !text.is_empty()
        && text.bytes().all(|b| b.is_ascii_digit())
        && (text.len() == 1 || !text.starts_with('0'))
}

/// `text` as a number of type `T`, if it is [`plain_decimal`] and fits.
fn parse_decimal<T: std::str::FromStr>(text: &str) -> Option<T> {
    plain_decimal(text).then(|| text.parse().ok()).flatten()
}

/// Writes `n` in decimal, without the formatting machinery.
fn write_num<W: fmt::Write + ?Sized>(out: &mut W, n: u64) -> fmt::Result {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    let mut n = n;
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.write_str(std::str::from_utf8(&digits[i..]).expect("ASCII digits"))
}

/// Writes `items` comma separated.
fn write_list<W: fmt::Write + ?Sized>(
    out: &mut W,
    items: impl IntoIterator<Item = u64>,
) -> fmt::Result {
    for (i, x) in items.into_iter().enumerate() {
        if i > 0 {
            out.write_char(',')?;
        }
        write_num(out, x)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert!(valid_name("greedy-py_2.0"));
        assert!(valid_name(&"x".repeat(64)));
        assert!(!valid_name(""));
        assert!(!valid_name("a b"));
        assert!(!valid_name(&"x".repeat(65)));
        assert!(!valid_name(".."));
        assert!(!valid_name("../../x"));
        assert!(!valid_name("-rf"));
        assert!(!valid_name("é"));
    }

    #[test]
    fn names_made_valid() {
        assert_eq!(to_valid_name(""), "bot");
        assert_eq!(to_valid_name("greedy"), "greedy");
        assert_eq!(to_valid_name("my bot!"), "my-bot-");
        assert_eq!(to_valid_name(".hidden"), "bot.hidden");
        assert_eq!(to_valid_name("é"), "bot-");
        assert_eq!(to_valid_name(&"x".repeat(100)).len(), 64);
        assert_eq!(to_valid_name(&format!("-{}", "x".repeat(100))).len(), 64);
        for name in ["", "a b", "-", "..", "é", "x\u{1b}y", &"y".repeat(70)] {
            assert!(valid_name(&to_valid_name(name)), "{name:?}");
        }
    }

    #[test]
    fn numbers_are_read_in_plain_decimal_only() {
        for good in ["0", "1", "10", "4294967295"] {
            assert_eq!(parse_decimal::<u32>(good), Some(good.parse().unwrap()));
        }
        for bad in [
            "",
            "01",
            "00",
            "+1",
            "-1",
            " 1",
            "1 ",
            "1_0",
            "4294967296",
            "１",
        ] {
            assert_eq!(parse_decimal::<u32>(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn numbers_are_written_in_decimal() {
        for n in [0, 1, 9, 10, 99, 100, 4_294_967_295, u64::MAX] {
            let mut s = String::new();
            write_num(&mut s, n).unwrap();
            assert_eq!(s, n.to_string());
        }
    }

    #[test]
    fn bot_bytes_show_as_sent() {
        assert_eq!(
            shown_bytes(b"\x00\xff garbage \x1b[2J"),
            "\\u{0}\\xff garbage \\u{1b}[2J"
        );
        assert_eq!(shown_bytes("é".as_bytes()), shown("é"));
        assert_eq!(shown_bytes(b"move 3"), "move 3");
        assert_eq!(shown_bytes(&[0xff; 300]).len(), 4 * 200 + 3);
        assert_eq!(shown_bytes(&[b'A'; 4000]), shown(&"A".repeat(4000)));
    }

    #[test]
    fn bot_text_is_escaped_and_cut() {
        assert_eq!(shown("move\u{1b}[2J\r\0"), "move\\u{1b}[2J\\r\\u{0}");
        let long = "A".repeat(4000);
        assert_eq!(shown(&long).len(), 203);
        assert_eq!(shown("move 3"), "move 3");
    }
}
