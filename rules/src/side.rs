//! The two players, South and North (RULES.md, "Board and notation").

use std::fmt;
use std::str::FromStr;

/// One of the two players. South moves first (RULES.md, "Board and notation":
/// the project's notation for the two-row board of Merker 1904, via Mancala
/// World's "En Dodoi" page). Each side owns one row of `n` holes, numbered
/// 1..=n from its own left. `Display` gives [`Side::name`];
/// `FromStr` reads `south`, `north`, `s` or `n` in any case.
///
/// ```
/// use endodoi::{Rules, Side};
/// let start = Rules::new(8, 4)?.start();
/// assert_eq!(start.to_move(), Side::South);
/// assert_eq!(Side::North.to_string(), "north");
/// assert_eq!("s".parse::<Side>()?, Side::South);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    /// The player who makes the first move; owns ring indices `0..n`.
    South,
    /// The player who moves second; owns ring indices `n..2n`.
    North,
}

impl Side {
    /// Both sides, South first (the order of per-side arrays and of the text format).
    ///
    /// ```
    /// use endodoi::Side;
    /// assert_eq!(Side::ALL.map(Side::index), [0, 1]);
    /// assert_eq!(Side::ALL[0], Side::South);
    /// ```
    pub const ALL: [Side; 2] = [Side::South, Side::North];

    /// The other player.
    ///
    /// ```
    /// use endodoi::Side;
    /// assert_eq!(Side::South.opponent(), Side::North);
    /// assert_eq!(Side::North.opponent().opponent(), Side::North);
    /// ```
    #[must_use]
    pub const fn opponent(self) -> Side {
        match self {
            Side::South => Side::North,
            Side::North => Side::South,
        }
    }

    /// 0 for South, 1 for North: the index used by per-side arrays, such as the
    /// `captured: [u32; 2]` of [`Position::from_parts`](crate::Position::from_parts).
    ///
    /// ```
    /// use endodoi::Side;
    /// let captured = [5, 8];
    /// assert_eq!(captured[Side::North.index()], 8);
    /// ```
    #[must_use]
    pub const fn index(self) -> usize {
        match self {
            Side::South => 0,
            Side::North => 1,
        }
    }

    /// The lower-case name, `"south"` or `"north"`, as used in CSV files and the
    /// protocol; also the `Display` text, and read back by `FromStr`.
    ///
    /// ```
    /// use endodoi::Side;
    /// assert_eq!(Side::South.name(), "south");
    /// assert_eq!(Side::North.name().parse::<Side>(), Ok(Side::North));
    /// ```
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

/// The error from parsing a [`Side`]: the text was none of `south`, `north`,
/// `s`, `n` (in any case). Field `.0` holds the text that was given.
///
/// ```
/// use endodoi::{ParseSideError, Side};
/// let err = "east".parse::<Side>().unwrap_err();
/// assert_eq!(err, ParseSideError("east".to_string()));
/// assert_eq!(err.to_string(), "'east' is not a side: use south or north");
/// ```
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
    /// # Errors
    /// [`ParseSideError`] holding the text, for anything else (surrounding
    /// spaces included).
    ///
    /// ```
    /// use endodoi::Side;
    /// assert_eq!("North".parse::<Side>(), Ok(Side::North));
    /// assert_eq!("S".parse::<Side>(), Ok(Side::South));
    /// assert!("east".parse::<Side>().is_err());
    /// assert!(" north".parse::<Side>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<Side, ParseSideError> {
        match s.to_ascii_lowercase().as_str() {
            "south" | "s" => Ok(Side::South),
            "north" | "n" => Ok(Side::North),
            _ => Err(ParseSideError(s.to_string())),
        }
    }
}
