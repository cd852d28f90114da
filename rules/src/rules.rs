//! The rule parameters of a game.

use std::fmt;

use crate::Position;

/// The fewest holes per row the engine accepts.
pub const MIN_HOLES: usize = 2;
/// The most holes per row the engine accepts (En Gehé is played with 40 to 50).
pub const MAX_HOLES: usize = 50;
/// The default lap limit for endless sowing (RULES.md, "Endless sowing").
pub const DEFAULT_MAX_LAPS: u32 = 100_000;
/// The default ply limit of the arena rule (RULES.md, "End of the game").
pub const DEFAULT_MAX_PLIES: u32 = 1_000;

/// The parameters of a game: `holes` per row, `seeds` per hole at the start,
/// `max_laps` (the lap number at which a still-running sowing is endless) and
/// `max_plies` (the ply limit). Built with [`Rules::new`], so it is always valid.
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
}

impl Rules {
    /// Rules for `holes` holes per row (2 to 50) with `seeds` seeds per hole (1 or
    /// more), the default lap limit (100,000) and ply limit (1,000).
    ///
    /// # Errors
    /// [`RulesError::Holes`] when `holes` is outside 2..=50, [`RulesError::Seeds`]
    /// when `seeds` is 0 or the board would hold more than `u32::MAX` seeds.
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
        })
    }

    /// The same rules with another lap limit (1 or more).
    ///
    /// # Errors
    /// [`RulesError::MaxLaps`] when `max_laps` is 0.
    pub fn with_max_laps(self, max_laps: u32) -> Result<Rules, RulesError> {
        if max_laps == 0 {
            return Err(RulesError::MaxLaps);
        }
        Ok(Rules { max_laps, ..self })
    }

    /// The same rules with another ply limit (1 or more).
    ///
    /// # Errors
    /// [`RulesError::MaxPlies`] when `max_plies` is 0.
    pub fn with_max_plies(self, max_plies: u32) -> Result<Rules, RulesError> {
        if max_plies == 0 {
            return Err(RulesError::MaxPlies);
        }
        Ok(Rules { max_plies, ..self })
    }

    /// Holes per row, `n`.
    #[must_use]
    pub const fn holes(&self) -> usize {
        self.holes as usize
    }

    /// Seeds per hole at the start.
    #[must_use]
    pub const fn seeds(&self) -> u32 {
        self.seeds
    }

    /// The lap number at which a sowing that still ends in an occupied hole is endless.
    #[must_use]
    pub const fn max_laps(&self) -> u32 {
        self.max_laps
    }

    /// The ply limit: after this many plies an unfinished game ends with `ply-limit`.
    #[must_use]
    pub const fn max_plies(&self) -> u32 {
        self.max_plies
    }

    /// All seeds in the game, `2 * holes * seeds`; conserved by every move.
    #[must_use]
    pub const fn total_seeds(&self) -> u32 {
        2 * self.holes as u32 * self.seeds
    }

    /// The start position: every hole holds `seeds`, South to move.
    #[must_use]
    pub fn start(&self) -> Position {
        Position::start(*self)
    }
}

/// Why a [`Rules`] value could not be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RulesError {
    /// Holes per row outside 2..=50.
    Holes(usize),
    /// Seeds per hole of 0, or too many to count in a `u32`.
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
