//! What a move and a game give back: the details of a move, its capture,
//! why a move is illegal, and how the game ended (RULES.md, "A move",
//! "Endless sowing" and "End of the game").

use std::fmt;

use crate::{Move, Side};

/// Why a game ended (RULES.md, "End of the game": the sweep by the last mover
/// follows Merker 1904 via Mancala World's "En Dodoi" page, the ply limit is an
/// arena rule of the project). `Display` gives [`Termination::name`].
///
/// ```
/// use endodoi::{Rules, Termination};
/// let mut pos = Rules::new(6, 4)?.with_max_plies(3)?.start();
/// while let Some(mv) = pos.legal_moves().first() {
///     pos.play(mv)?;
/// }
/// assert_eq!(pos.outcome().map(|o| o.termination), Some(Termination::PlyLimit));
/// assert_eq!(pos.ply(), 3);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Termination {
    /// The player to move had no legal move (an empty row, or only endless
    /// moves); the last mover swept the board. (If nobody has moved yet, each
    /// side takes its own row instead; see [`Position::start`](crate::Position::start).)
    NoMoves,
    /// The ply limit was reached; each player took the seeds in their own row.
    PlyLimit,
}

impl Termination {
    /// The name used in `games.csv` and the protocol: `no-moves` or `ply-limit`;
    /// also the `Display` text.
    ///
    /// ```
    /// use endodoi::Termination;
    /// assert_eq!(Termination::NoMoves.name(), "no-moves");
    /// assert_eq!(Termination::PlyLimit.to_string(), "ply-limit");
    /// ```
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Termination::NoMoves => "no-moves",
            Termination::PlyLimit => "ply-limit",
        }
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The end of a game: how it ended and who won (`None` for a draw, equal totals),
/// after RULES.md, "End of the game". The totals are [`Position::captured`](crate::Position::captured),
/// final sweep included.
///
/// ```
/// use endodoi::{Outcome, Position, Rules, Side, Termination};
/// let rules = Rules::new(2, 2)?;
/// // South to move with an empty row: North, the last mover, sweeps 2 seeds.
/// let pos = Position::parse("0,0/1,1 s 4 2 5", rules)?;
/// let draw = Outcome { termination: Termination::NoMoves, winner: None };
/// assert_eq!(pos.outcome(), Some(draw));
/// assert_eq!((pos.captured(Side::South), pos.captured(Side::North)), (4, 4));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// How the game ended.
    pub termination: Termination,
    /// The player with more seeds, or `None` when the totals are equal.
    pub winner: Option<Side>,
}

/// A capture made at the end of a move (RULES.md, "A move", step 5, after
/// Merker 1904 via Mancala World's "En Dodoi" page): the last seed fell into an
/// empty hole of the mover's own row and the opposite hole was occupied.
///
/// ```
/// use endodoi::{Capture, Move, Position, Rules, Side};
/// let mut pos = Position::parse("1,0,0/0,2,0 s 3 0 0", Rules::new(3, 1)?)?;
/// let details = pos.play(Move::new(1).unwrap())?;
/// // South's last seed lands in its hole 2, opposite North's hole 2 (2 seeds).
/// assert_eq!(details.capture, Some(Capture { hole: 2, seeds: 3 }));
/// assert_eq!(pos.captured(Side::South), 6);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Capture {
    /// The opponent's hole that was emptied, in the opponent's own numbering (1..=n).
    pub hole: u8,
    /// Seeds taken off the board: the opposite hole's seeds plus the triggering seed.
    pub seeds: u32,
}

/// What one move did, for logs, replays and bots that want to know; returned
/// by [`Position::play`](crate::Position::play) and [`Position::play_unchecked`](crate::Position::play_unchecked).
///
/// ```
/// use endodoi::{Move, Rules, Side};
/// let mut pos = Rules::new(8, 4)?.start();
/// let details = pos.play(Move::new(3).unwrap())?;
/// assert_eq!((details.mover, details.laps, details.sown), (Side::South, 5, 25));
/// assert_eq!(details.last, 11); // North's hole 4
/// assert_eq!((details.capture, details.outcome), (None, None));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MoveDetails {
    /// The move played, in the mover's numbering.
    pub mv: Move,
    /// Who played it.
    pub mover: Side,
    /// Laps sown, counted from 1 (the lap from the chosen hole); at most `max_laps`.
    pub laps: u32,
    /// Seeds dropped (one per hole passed), summed over all laps.
    pub sown: u64,
    /// The ring index (`0..2n`: South's row `0..n`, North's `n..2n`) where the
    /// last seed fell.
    pub last: usize,
    /// The capture, if the last seed fell into the mover's own row opposite an occupied hole.
    pub capture: Option<Capture>,
    /// The end of the game, if this move ended it.
    pub outcome: Option<Outcome>,
}

/// Why a move could not be played; returned by [`Position::check`](crate::Position::check) and
/// [`Position::play`](crate::Position::play). Legality follows RULES.md, "A move" (step 1) and
/// "Endless sowing" (a *decision* of the project).
///
/// ```
/// use endodoi::{IllegalMove, Move, Position, Rules};
/// // RULES.md's example: 2x4 after `4 3 2 4 1`, North to move.
/// let pos = Position::parse("0,5,0,1/2,0,6,5 n 5 8 5", Rules::new(4, 4)?)?;
/// let check = |h| pos.check(Move::new(h).unwrap());
/// assert_eq!(check(1), Err(IllegalMove::Endless { hole: 1, max_laps: 100_000 }));
/// assert_eq!(check(2), Err(IllegalMove::EmptyHole { hole: 2 }));
/// assert_eq!(check(5), Err(IllegalMove::NoSuchHole { hole: 5, holes: 4 }));
/// assert_eq!(check(2).unwrap_err().to_string(), "hole 2 is empty");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IllegalMove {
    /// The game is already over ([`Position::is_over`](crate::Position::is_over)).
    GameOver,
    /// The hole number is outside 1..=n.
    NoSuchHole {
        /// The hole asked for.
        hole: u8,
        /// Holes per row.
        holes: u8,
    },
    /// The hole holds no seeds.
    EmptyHole {
        /// The hole asked for.
        hole: u8,
    },
    /// The sowing from this hole is endless: lap `max_laps` still ends in an
    /// occupied hole (or the sowing was proven to cycle, which implies it).
    Endless {
        /// The hole asked for.
        hole: u8,
        /// The lap limit of the rules.
        max_laps: u32,
    },
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            IllegalMove::GameOver => f.write_str("the game is over"),
            IllegalMove::NoSuchHole { hole, holes } => {
                write!(f, "hole {hole} does not exist: holes are 1 to {holes}")
            }
            IllegalMove::EmptyHole { hole } => write!(f, "hole {hole} is empty"),
            IllegalMove::Endless { hole, max_laps } => write!(
                f,
                "hole {hole} is an endless move (still sowing at lap {max_laps})"
            ),
        }
    }
}

impl std::error::Error for IllegalMove {}
