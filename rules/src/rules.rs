//! The rule parameters of a game: board size, seeds per hole, and the two
//! limits (RULES.md, "Board and notation", "Endless sowing", "End of the game").

use std::fmt;

use crate::Position;

/// The fewest holes per row the engine accepts: 2 (RULES.md, "Board and notation").
///
/// ```
/// use endodoi::{Rules, MIN_HOLES};
/// assert!(Rules::new(MIN_HOLES, 4).is_ok());
/// assert!(Rules::new(MIN_HOLES - 1, 4).is_err());
/// ```
pub const MIN_HOLES: usize = 2;
/// The most holes per row the engine accepts: 50 (En Gehé is played with 40
/// to 50; Merker 1904 via Mancala World's "En Gehé" page, RULES.md "Board and notation").
///
/// ```
/// use endodoi::{Rules, MAX_HOLES};
/// assert!(Rules::new(MAX_HOLES, 4).is_ok());
/// assert!(Rules::new(MAX_HOLES + 1, 4).is_err());
/// ```
pub const MAX_HOLES: usize = 50;
/// The default lap limit for endless sowing, in laps: 100,000 (RULES.md,
/// "Endless sowing", a *decision* of the project).
///
/// ```
/// use endodoi::{Rules, DEFAULT_MAX_LAPS};
/// assert_eq!(Rules::new(8, 4)?.max_laps(), DEFAULT_MAX_LAPS);
/// # Ok::<(), endodoi::RulesError>(())
/// ```
pub const DEFAULT_MAX_LAPS: u32 = 100_000;
/// The default ply limit of the arena rule, in plies (single moves): 1,000
/// (RULES.md, "End of the game").
///
/// ```
/// use endodoi::{Rules, DEFAULT_MAX_PLIES};
/// assert_eq!(Rules::new(8, 4)?.max_plies(), DEFAULT_MAX_PLIES);
/// # Ok::<(), endodoi::RulesError>(())
/// ```
pub const DEFAULT_MAX_PLIES: u32 = 1_000;

/// The parameters of a game: `holes` per row, `seeds` per hole at the start,
/// `max_laps` (the lap number at which a still-running sowing is endless) and
/// `max_plies` (the ply limit). Built with [`Rules::new`], so it is always valid.
///
/// It models RULES.md's board and limits; those rules follow Merker (1904)
/// through Mancala World's "En Dodoi" and "En Gehé" pages, and the lap and ply
/// limits are the project's decisions.
///
/// ```
/// use endodoi::Rules;
/// let rules = Rules::new(8, 4)?.with_max_plies(200)?;
/// assert_eq!((rules.holes(), rules.seeds(), rules.max_plies()), (8, 4, 200));
/// assert_eq!(rules.total_seeds(), 64);
/// # Ok::<(), endodoi::RulesError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    holes: u8,
    seeds: u32,
    max_laps: u32,
    max_plies: u32,
    general_board: bool,
}

impl Rules {
    /// Rules for `holes` holes per row (2 to 50) with `seeds` seeds per hole (1 or
    /// more), the default lap limit ([`DEFAULT_MAX_LAPS`], 100,000) and ply limit
    /// ([`DEFAULT_MAX_PLIES`], 1,000).
    ///
    /// # Errors
    /// [`RulesError::Holes`] when `holes` is outside 2..=50, [`RulesError::Seeds`]
    /// when `seeds` is 0 or the board would hold more than `u32::MAX` seeds
    /// (`2 * holes * seeds > u32::MAX`).
    ///
    /// ```
    /// use endodoi::{Rules, RulesError};
    /// assert_eq!(Rules::new(6, 4)?.total_seeds(), 48);
    /// assert_eq!(Rules::new(51, 4), Err(RulesError::Holes(51)));
    /// assert_eq!(Rules::new(8, 0), Err(RulesError::Seeds(0)));
    /// # Ok::<(), RulesError>(())
    /// ```
    pub fn new(holes: usize, seeds: u32) -> Result<Rules, RulesError> {
        if !(MIN_HOLES..=MAX_HOLES).contains(&holes) {
            return Err(RulesError::Holes(holes));
        }
        if seeds == 0 || u64::from(seeds) * 2 * holes as u64 > u64::from(u32::MAX) {
            return Err(RulesError::Seeds(seeds));
        }
        Ok(Rules {
            holes: holes as u8,
            seeds,
            max_laps: DEFAULT_MAX_LAPS,
            max_plies: DEFAULT_MAX_PLIES,
            general_board: false,
        })
    }

    /// The same rules with another lap limit, in laps (1 or more): a sowing
    /// whose lap `max_laps` still ends in an occupied hole is endless.
    ///
    /// # Errors
    /// [`RulesError::MaxLaps`] when `max_laps` is 0.
    ///
    /// ```
    /// use endodoi::{Rules, RulesError};
    /// let rules = Rules::new(8, 4)?;
    /// assert_eq!(rules.with_max_laps(500)?.max_laps(), 500);
    /// assert_eq!(rules.with_max_laps(0), Err(RulesError::MaxLaps));
    /// # Ok::<(), RulesError>(())
    /// ```
    pub fn with_max_laps(self, max_laps: u32) -> Result<Rules, RulesError> {
        if max_laps == 0 {
            return Err(RulesError::MaxLaps);
        }
        Ok(Rules { max_laps, ..self })
    }

    /// The same rules with another ply limit, in plies (1 or more).
    ///
    /// # Errors
    /// [`RulesError::MaxPlies`] when `max_plies` is 0.
    ///
    /// ```
    /// use endodoi::{Rules, RulesError};
    /// let rules = Rules::new(8, 4)?;
    /// assert_eq!(rules.with_max_plies(200)?.max_plies(), 200);
    /// assert_eq!(rules.with_max_plies(0), Err(RulesError::MaxPlies));
    /// # Ok::<(), RulesError>(())
    /// ```
    pub fn with_max_plies(self, max_plies: u32) -> Result<Rules, RulesError> {
        if max_plies == 0 {
            return Err(RulesError::MaxPlies);
        }
        Ok(Rules { max_plies, ..self })
    }

    /// The same rules played on the general board representation (`u32`
    /// holes, one lap at a time) even where the compact one fits: for
    /// testing one against the other and for measuring what the compact
    /// ring buys. The game is the same; see [`Position::is_compact`].
    ///
    /// ```
    /// use endodoi::Rules;
    /// let rules = Rules::new(8, 4)?;
    /// let (mut a, mut b) = (rules.start(), rules.with_general_board().start());
    /// assert!(a.is_compact() && !b.is_compact());
    /// while let Some(mv) = a.legal_moves().first() {
    ///     assert_eq!(a.play(mv)?, b.play(mv)?);
    ///     assert_eq!(a.to_string(), b.to_string());
    /// }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub const fn with_general_board(self) -> Rules {
        Rules {
            general_board: true,
            ..self
        }
    }

    /// Whether [`Rules::with_general_board`] asked for the general board.
    ///
    /// ```
    /// use endodoi::Rules;
    /// assert!(!Rules::new(8, 4)?.general_board());
    /// assert!(Rules::new(8, 4)?.with_general_board().general_board());
    /// # Ok::<(), endodoi::RulesError>(())
    /// ```
    #[must_use]
    pub const fn general_board(&self) -> bool {
        self.general_board
    }

    /// Holes per row, `n` (2 to 50); the ring has `2n` holes.
    ///
    /// ```
    /// use endodoi::Rules;
    /// assert_eq!(Rules::new(10, 4)?.holes(), 10);
    /// # Ok::<(), endodoi::RulesError>(())
    /// ```
    #[must_use]
    pub const fn holes(&self) -> usize {
        self.holes as usize
    }

    /// Seeds per hole at the start (1 or more).
    ///
    /// ```
    /// use endodoi::Rules;
    /// assert_eq!(Rules::new(8, 3)?.seeds(), 3);
    /// # Ok::<(), endodoi::RulesError>(())
    /// ```
    #[must_use]
    pub const fn seeds(&self) -> u32 {
        self.seeds
    }

    /// The lap number at which a sowing that still ends in an occupied hole is
    /// endless (laps counted from 1; RULES.md, "Endless sowing").
    ///
    /// ```
    /// use endodoi::Rules;
    /// assert_eq!(Rules::new(8, 4)?.max_laps(), 100_000);
    /// # Ok::<(), endodoi::RulesError>(())
    /// ```
    #[must_use]
    pub const fn max_laps(&self) -> u32 {
        self.max_laps
    }

    /// The ply limit: after this many plies an unfinished game ends with `ply-limit`
    /// and each player takes the seeds in their own row.
    ///
    /// ```
    /// use endodoi::Rules;
    /// assert_eq!(Rules::new(8, 4)?.max_plies(), 1_000);
    /// # Ok::<(), endodoi::RulesError>(())
    /// ```
    #[must_use]
    pub const fn max_plies(&self) -> u32 {
        self.max_plies
    }

    /// All seeds in the game, `2 * holes * seeds`; conserved by every move.
    /// Never overflows: [`Rules::new`] refuses boards above `u32::MAX` seeds.
    ///
    /// ```
    /// use endodoi::Rules;
    /// assert_eq!(Rules::new(8, 4)?.total_seeds(), 64);
    /// # Ok::<(), endodoi::RulesError>(())
    /// ```
    #[must_use]
    pub const fn total_seeds(&self) -> u32 {
        2 * self.holes as u32 * self.seeds
    }

    /// The start position: every hole holds `seeds`, South to move, nothing
    /// captured, ply 0. The same as [`Position::start`].
    ///
    /// ```
    /// use endodoi::{Rules, Side};
    /// let start = Rules::new(4, 4)?.start();
    /// assert_eq!(start.to_string(), "4,4,4,4/4,4,4,4 s 0 0 0");
    /// assert_eq!(start.to_move(), Side::South);
    /// # Ok::<(), endodoi::RulesError>(())
    /// ```
    #[must_use]
    pub fn start(&self) -> Position {
        Position::start(*self)
    }
}

/// Why a [`Rules`] value could not be built; returned by [`Rules::new`],
/// [`Rules::with_max_laps`] and [`Rules::with_max_plies`]. Its `Display` text
/// names the accepted range.
///
/// ```
/// use endodoi::{Rules, RulesError};
/// let err = Rules::new(1, 4).unwrap_err();
/// assert_eq!(err, RulesError::Holes(1));
/// assert_eq!(err.to_string(), "1 holes per row is not playable: use 2 to 50");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RulesError {
    /// Holes per row outside 2..=50; holds the number asked for.
    Holes(usize),
    /// Seeds per hole of 0, or so many that the board's `2 * holes * seeds`
    /// exceeds `u32::MAX`; holds the seeds per hole asked for.
    Seeds(u32),
    /// A lap limit of 0.
    MaxLaps,
    /// A ply limit of 0.
    MaxPlies,
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RulesError::Holes(h) => write!(
                f,
                "{h} holes per row is not playable: use {MIN_HOLES} to {MAX_HOLES}"
            ),
            RulesError::Seeds(s) => write!(
                f,
                "{s} seeds per hole is not playable: use 1 or more, with at most 4294967295 on the board"
            ),
            RulesError::MaxLaps => f.write_str("max_laps must be 1 or more"),
            RulesError::MaxPlies => f.write_str("max_plies must be 1 or more"),
        }
    }
}

impl std::error::Error for RulesError {}
