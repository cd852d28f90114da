//! The two players.

use std::fmt;
use std::str::FromStr;

/// One of the two players. South moves first (RULES.md, "Board and notation").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    /// The player who makes the first move; owns ring indices `0..n`.
    South,
    /// The player who moves second; owns ring indices `n..2n`.
    North,
}

impl Side {
    /// Both sides, South first.
    pub const ALL: [Side; 2] = [Side::South, Side::North];

    /// The other player.
    ///
    /// ```
    /// use endodoi::Side;
    /// assert_eq!(Side::South.opponent(), Side::North);
    /// ```
    #[must_use]
    pub const fn opponent(self) -> Side {
        match self {
            Side::South => Side::North,
            Side::North => Side::South,
        }
    }

    /// 0 for South, 1 for North: the index used by per-side arrays.
    #[must_use]
    pub const fn index(self) -> usize {
        match self {
            Side::South => 0,
            Side::North => 1,
        }
    }

    /// The lower-case name, `"south"` or `"north"`, as used in CSV files and the protocol.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Side::South => "south",
            Side::North => "north",
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The error from parsing a [`Side`]: the text was none of `south`, `north`, `s`, `n`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSideError(pub String);

impl fmt::Display for ParseSideError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}' is not a side: use south or north", self.0)
    }
}

impl std::error::Error for ParseSideError {}

impl FromStr for Side {
    type Err = ParseSideError;

    /// Parses `south`/`north` or `s`/`n`, in any case.
    ///
    /// ```
    /// use endodoi::Side;
    /// assert_eq!("North".parse::<Side>(), Ok(Side::North));
    /// assert!("east".parse::<Side>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<Side, ParseSideError> {
        match s.to_ascii_lowercase().as_str() {
            "south" | "s" => Ok(Side::South),
            "north" | "n" => Ok(Side::North),
            _ => Err(ParseSideError(s.to_string())),
        }
    }
}
