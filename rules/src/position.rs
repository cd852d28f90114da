//! Positions: the board, the side to move, the captured seeds, and the game's end
//! (RULES.md, "A move", "Endless sowing" and "End of the game").

use std::fmt;

use crate::sowing::{sow, Laps, Sowing};
use crate::{Move, MoveSet, Rules, RulesError, Side, MAX_HOLES};

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
    /// side takes its own row instead; see [`Position::start`].)
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
/// after RULES.md, "End of the game". The totals are [`Position::captured`],
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
/// by [`Position::play`] and [`Position::play_unchecked`].
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

/// Why a move could not be played; returned by [`Position::check`] and
/// [`Position::play`]. Legality follows RULES.md, "A move" (step 1) and
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
    /// The game is already over ([`Position::is_over`]).
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

/// Why a position's text or parts could not be turned into a [`Position`];
/// returned by [`Position::parse`] and [`Position::from_parts`]. Field `.0`
/// holds the reason, and `Display` prefixes it with `bad position: `.
///
/// ```
/// use endodoi::{Position, Rules};
/// let err = Position::parse("4,4,4/4,4,4,4 s 0 0 0", Rules::new(4, 4)?).unwrap_err();
/// assert_eq!(err.0, "rows of 3 and 4 holes, expected 4");
/// assert_eq!(err.to_string(), "bad position: rows of 3 and 4 holes, expected 4");
/// # Ok::<(), endodoi::RulesError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsePositionError(pub String);

impl fmt::Display for ParsePositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad position: {}", self.0)
    }
}

impl std::error::Error for ParsePositionError {}

/// A position of En Dodoi: the ring of `2n` holes, the side to move, the seeds
/// each side has captured, the ply count, and, once the game is over, its
/// [`Outcome`]. It carries its [`Rules`], lives in one fixed-size array (no
/// heap, cheap to clone), and every move is applied in place. `Debug` shows
/// the text format inside `Position(...)`.
///
/// Rules follow RULES.md, which follows Merker (1904) through Mancala World's
/// "En Dodoi" and "En Gehé" pages, with the project's marked decisions.
///
/// # Text format
/// `Display` and [`Position::parse`] use one line:
/// `SOUTH_ROW/NORTH_ROW TO_MOVE SOUTH_CAPTURED NORTH_CAPTURED PLY`, where each
/// row lists its holes' seeds 1..n from its owner's left, comma separated, and
/// `TO_MOVE` is `s` or `n`. The start of 2x4 is `4,4,4,4/4,4,4,4 s 0 0 0`.
///
/// ```
/// use endodoi::{Move, Rules, Side};
/// let mut pos = Rules::new(6, 1)?.start();
/// let details = pos.play(Move::new(4).unwrap())?;
/// assert_eq!((details.laps, details.sown), (7, 13));
/// assert_eq!(details.capture.map(|c| (c.hole, c.seeds)), Some((2, 3)));
/// assert_eq!(pos.to_move(), Side::North);
/// assert_eq!(pos.to_string(), "0,2,0,1,0,2/0,0,0,2,0,2 n 3 0 1");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Position {
    rules: Rules,
    ring: [u32; 2 * MAX_HOLES],
    to_move: Side,
    captured: [u32; 2],
    ply: u32,
    outcome: Option<Outcome>,
}

impl Position {
    /// The start position of `rules`: every hole holds `rules.seeds()`, South
    /// to move. With a `max_laps` so small that every first move is endless,
    /// the game is over at once: nobody has moved to sweep the board, so each
    /// side takes its own row (a decision of this engine; RULES.md never
    /// reaches this case with its default `max_laps`).
    ///
    /// ```
    /// use endodoi::{Position, Rules, Termination};
    /// let start = Position::start(Rules::new(4, 4)?);
    /// assert_eq!(start.to_string(), "4,4,4,4/4,4,4,4 s 0 0 0");
    /// // With 1 seed per hole and max_laps 1, every first move is endless.
    /// let stuck = Position::start(Rules::new(4, 1)?.with_max_laps(1)?);
    /// assert_eq!(stuck.outcome().map(|o| (o.termination, o.winner)), Some((Termination::NoMoves, None)));
    /// assert_eq!(stuck.to_string(), "0,0,0,0/0,0,0,0 s 4 4 0");
    /// # Ok::<(), endodoi::RulesError>(())
    /// ```
    #[must_use]
    pub fn start(rules: Rules) -> Position {
        let mut ring = [0; 2 * MAX_HOLES];
        ring[..2 * rules.holes()].fill(rules.seeds());
        let mut pos = Position {
            rules,
            ring,
            to_move: Side::South,
            captured: [0, 0],
            ply: 0,
            outcome: None,
        };
        pos.settle_end();
        pos
    }

    /// A position from its parts: `south` and `north` list each row's seeds from
    /// its owner's left; `captured` is indexed by [`Side::index`] (South, North);
    /// the ply count starts the ply limit's count. The holes of `rules` must
    /// equal the row lengths. The seed total is not checked against
    /// [`Rules::total_seeds`]. The game's end is settled at once: if `to_move`
    /// has no legal move, the other side sweeps the board (each side takes its
    /// own row if `ply` is 0); otherwise, if `ply` has reached the ply limit,
    /// each side takes its own row.
    ///
    /// # Errors
    /// [`ParsePositionError`] when the rows differ in length from `rules.holes()`
    /// or the board and `captured` together would hold more than `u32::MAX` seeds.
    ///
    /// ```
    /// use endodoi::{Position, Rules, Side};
    /// let rules = Rules::new(2, 1)?;
    /// let pos = Position::from_parts(rules, &[0, 1], &[1, 1], Side::South, [0, 1], 5)?;
    /// assert_eq!(pos.to_string(), "0,1/1,1 s 0 1 5");
    /// assert!(!pos.is_over());
    /// assert!(Position::from_parts(rules, &[0, 1, 0], &[1, 1], Side::South, [0, 0], 0).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_parts(
        rules: Rules,
        south: &[u32],
        north: &[u32],
        to_move: Side,
        captured: [u32; 2],
        ply: u32,
    ) -> Result<Position, ParsePositionError> {
        let n = rules.holes();
        if south.len() != n || north.len() != n {
            return Err(ParsePositionError(format!(
                "rows of {} and {} holes, expected {n}",
                south.len(),
                north.len()
            )));
        }
        let total: u64 = south
            .iter()
            .chain(north)
            .chain(&captured)
            .map(|&s| u64::from(s))
            .sum();
        if total > u64::from(u32::MAX) {
            return Err(ParsePositionError(format!("{total} seeds is too many")));
        }
        let mut ring = [0; 2 * MAX_HOLES];
        ring[..n].copy_from_slice(south);
        ring[n..2 * n].copy_from_slice(north);
        let mut pos = Position {
            rules,
            ring,
            to_move,
            captured,
            ply,
            outcome: None,
        };
        pos.settle_end();
        Ok(pos)
    }

    /// Parses the one-line text format (see the type's docs) under `rules`, whose
    /// hole count must match the rows. Fields are separated by whitespace;
    /// anything after the ply count is ignored. The result is then built as by
    /// [`Position::from_parts`], so the game's end is settled at once.
    ///
    /// ```
    /// use endodoi::{Position, Rules, Side};
    /// let rules = Rules::new(4, 4)?;
    /// let pos = Position::parse("0,5,0,1/2,0,6,5 n 5 8 5", rules)?;
    /// assert_eq!(pos.to_move(), Side::North);
    /// assert_eq!(pos.legal_moves().to_string(), "3 4"); // hole 1 is endless
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`ParsePositionError`] naming the field that is missing or malformed, or
    /// any error of [`Position::from_parts`] (rows of the wrong length, too many
    /// seeds).
    pub fn parse(text: &str, rules: Rules) -> Result<Position, ParsePositionError> {
        let mut fields = text.split_whitespace();
        let mut next = |what: &str| {
            fields
                .next()
                .ok_or_else(|| ParsePositionError(format!("missing {what} in '{text}'")))
        };
        let rows = next("rows")?;
        let (south, north) = rows
            .split_once('/')
            .ok_or_else(|| ParsePositionError(format!("rows '{rows}' need a '/'")))?;
        let row = |r: &str| -> Result<Vec<u32>, ParsePositionError> {
            r.split(',')
                .map(|s| {
                    s.parse()
                        .map_err(|_| ParsePositionError(format!("'{s}' is not a seed count")))
                })
                .collect()
        };
        let (south, north) = (row(south)?, row(north)?);
        let to_move: Side = next("side to move")?
            .parse()
            .map_err(|e| ParsePositionError(format!("{e}")))?;
        let mut number = |what: &str| -> Result<u32, ParsePositionError> {
            let s = next(what)?;
            s.parse()
                .map_err(|_| ParsePositionError(format!("{what} '{s}' is not a number")))
        };
        let captured = [number("south captured")?, number("north captured")?];
        let ply = number("ply")?;
        Position::from_parts(rules, &south, &north, to_move, captured, ply)
    }

    /// The rules this position is played under.
    ///
    /// ```
    /// use endodoi::Rules;
    /// let rules = Rules::new(6, 3)?;
    /// assert_eq!(rules.start().rules(), &rules);
    /// # Ok::<(), endodoi::RulesError>(())
    /// ```
    #[must_use]
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Holes per row, `n` (the same as `self.rules().holes()`).
    ///
    /// ```
    /// use endodoi::Rules;
    /// assert_eq!(Rules::new(6, 4)?.start().holes(), 6);
    /// # Ok::<(), endodoi::RulesError>(())
    /// ```
    #[must_use]
    pub fn holes(&self) -> usize {
        self.rules.holes()
    }

    /// The side to move; after the game's end, the side that could not move
    /// (or would have moved next, at the ply limit).
    ///
    /// ```
    /// use endodoi::{Move, Rules, Side};
    /// let mut pos = Rules::new(8, 4)?.start();
    /// assert_eq!(pos.to_move(), Side::South);
    /// pos.play(Move::new(1).unwrap())?;
    /// assert_eq!(pos.to_move(), Side::North);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn to_move(&self) -> Side {
        self.to_move
    }

    /// Plies played so far (one ply is one move by one player), counted from
    /// the start or from the `ply` given to [`Position::from_parts`].
    ///
    /// ```
    /// use endodoi::{Move, Rules};
    /// let mut pos = Rules::new(8, 4)?.start();
    /// pos.play(Move::new(1).unwrap())?;
    /// assert_eq!(pos.ply(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// Seeds captured by `side`, including the final sweep once the game is over.
    /// Board seeds plus both sides' captures are conserved by every move.
    ///
    /// ```
    /// use endodoi::{Move, Position, Rules, Side};
    /// let mut pos = Position::parse("1,0,0/0,2,0 s 3 0 0", Rules::new(3, 1)?)?;
    /// pos.play(Move::new(1).unwrap())?; // captures 2 + 1 seeds
    /// assert_eq!((pos.captured(Side::South), pos.captured(Side::North)), (6, 0));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn captured(&self, side: Side) -> u32 {
        self.captured[side.index()]
    }

    /// The whole ring, `2n` seed counts indexed by ring index: South's row
    /// 1..n, then North's row 1..n (RULES.md, "Board and notation"). Sowing goes
    /// to index + 1 (mod 2n); the hole opposite index `k` is `2n - 1 - k`.
    ///
    /// ```
    /// use endodoi::{Move, Rules};
    /// let mut pos = Rules::new(4, 4)?.start();
    /// pos.play(Move::new(1).unwrap())?;
    /// assert_eq!(pos.ring(), [4, 0, 9, 9, 1, 1, 8, 0]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn ring(&self) -> &[u32] {
        &self.ring[..2 * self.holes()]
    }

    /// `side`'s row, `n` seed counts for holes 1..n from that side's own left.
    ///
    /// ```
    /// use endodoi::{Move, Rules, Side};
    /// let mut pos = Rules::new(4, 4)?.start();
    /// pos.play(Move::new(1).unwrap())?;
    /// assert_eq!(pos.row(Side::South), [4, 0, 9, 9]);
    /// assert_eq!(pos.row(Side::North), [1, 1, 8, 0]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn row(&self, side: Side) -> &[u32] {
        let n = self.holes();
        match side {
            Side::South => &self.ring[..n],
            Side::North => &self.ring[n..2 * n],
        }
    }

    /// Seeds in `side`'s own-perspective hole `hole` (1..=n).
    ///
    /// # Panics
    /// If `hole` is outside 1..=n.
    ///
    /// ```
    /// use endodoi::{Move, Rules, Side};
    /// let mut pos = Rules::new(4, 4)?.start();
    /// pos.play(Move::new(1).unwrap())?;
    /// assert_eq!(pos.seeds(Side::North, 3), 8);
    /// assert!(std::panic::catch_unwind(|| pos.seeds(Side::South, 5)).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn seeds(&self, side: Side, hole: usize) -> u32 {
        self.row(side)[hole - 1]
    }

    /// The end of the game, or `None` while it goes on.
    ///
    /// ```
    /// use endodoi::{Position, Rules, Side, Termination};
    /// assert_eq!(Rules::new(8, 4)?.start().outcome(), None);
    /// // South to move with an empty row: North, the last mover, sweeps the board.
    /// let over = Position::parse("0,0/1,1 s 1 1 5", Rules::new(2, 1)?)?;
    /// let outcome = over.outcome().unwrap();
    /// assert_eq!((outcome.termination, outcome.winner), (Termination::NoMoves, Some(Side::North)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Whether the game is over, the same as `self.outcome().is_some()`.
    ///
    /// ```
    /// use endodoi::{Position, Rules};
    /// assert!(!Rules::new(8, 4)?.start().is_over());
    /// assert!(Position::parse("0,0/1,1 s 1 1 5", Rules::new(2, 1)?)?.is_over());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// The legal moves of the side to move: its occupied holes whose sowing is
    /// not endless. Empty once the game is over. Allocates nothing; a move
    /// whose first lap ends in an empty hole is known legal without sowing
    /// (RULES.md, "A move" and "Endless sowing").
    ///
    /// ```
    /// use endodoi::{Position, Rules};
    /// // RULES.md's example: North's hole 1 is endless, hole 2 is empty.
    /// let pos = Position::parse("0,5,0,1/2,0,6,5 n 5 8 5", Rules::new(4, 4)?)?;
    /// assert_eq!(pos.legal_moves().to_string(), "3 4");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn legal_moves(&self) -> MoveSet {
        let mut set = MoveSet::EMPTY;
        if self.outcome.is_none() {
            for mv in self.candidate_moves() {
                if self.ends(mv) {
                    set.insert(mv);
                }
            }
        }
        set
    }

    /// The occupied holes of the side to move (empty once the game is over):
    /// the legal moves plus the rare endless ones, at no cost. For fast random
    /// playouts, pick from these and let [`Position::play`] refuse an endless
    /// one and pick again: the pick is then uniform over the legal moves.
    ///
    /// ```
    /// use endodoi::{Position, Rules};
    /// let start = Rules::new(6, 4)?.start();
    /// assert_eq!(start.candidate_moves(), start.legal_moves());
    /// // RULES.md's example: hole 1 is a candidate, but endless.
    /// let pos = Position::parse("0,5,0,1/2,0,6,5 n 5 8 5", Rules::new(4, 4)?)?;
    /// assert_eq!(pos.candidate_moves().to_string(), "1 3 4");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn candidate_moves(&self) -> MoveSet {
        if self.outcome.is_some() {
            return MoveSet::EMPTY;
        }
        let mut bits = 0u64;
        for (i, &seeds) in self.row(self.to_move).iter().enumerate() {
            bits |= u64::from(seeds != 0) << i;
        }
        MoveSet::from_bits(bits)
    }

    /// Checks that `mv` is legal for the side to move, without playing it
    /// (an occupied hole may still have to be sown, on a copy, to rule out an
    /// endless move).
    ///
    /// # Errors
    /// The [`IllegalMove`] reason, checked in this order:
    /// [`GameOver`](IllegalMove::GameOver), [`NoSuchHole`](IllegalMove::NoSuchHole),
    /// [`EmptyHole`](IllegalMove::EmptyHole), [`Endless`](IllegalMove::Endless).
    ///
    /// ```
    /// use endodoi::{IllegalMove, Move, Position, Rules};
    /// let pos = Position::parse("0,5,0,1/2,0,6,5 n 5 8 5", Rules::new(4, 4)?)?;
    /// assert_eq!(pos.check(Move::new(3).unwrap()), Ok(()));
    /// assert_eq!(pos.check(Move::new(2).unwrap()), Err(IllegalMove::EmptyHole { hole: 2 }));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn check(&self, mv: Move) -> Result<(), IllegalMove> {
        self.check_candidate(mv)?;
        if self.ends(mv) {
            Ok(())
        } else {
            Err(self.endless(mv))
        }
    }

    /// The laps of `mv`, one at a time, with the ring after each: the
    /// sowing [`Position::play`] would make, lap by lap (RULES.md, "A move",
    /// steps 2 to 4), for showing a move as it happens. The position is not
    /// changed. No heap allocation; the legality check may sow the move once
    /// on a copy first, as [`Position::check`] does.
    ///
    /// # Errors
    /// The [`IllegalMove`] reason, as [`Position::check`] gives it; so the
    /// laps always end, within `max_laps`.
    ///
    /// ```
    /// use endodoi::{Move, Rules};
    /// let mut pos = Rules::new(8, 4)?.start();
    /// let mv = Move::new(3).unwrap();
    /// let laps: Vec<_> = pos.laps(mv)?.collect();
    /// let details = pos.play(mv)?;
    /// assert_eq!(laps.len() as u32, details.laps);
    /// assert_eq!(laps.iter().map(|l| u64::from(l.seeds)).sum::<u64>(), details.sown);
    /// assert_eq!(laps.last().map(|l| (l.last, l.ends)), Some((details.last, true)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn laps(&self, mv: Move) -> Result<Laps, IllegalMove> {
        self.check(mv)?;
        Ok(Laps::new(
            self.ring(),
            self.ring_index(self.to_move, mv),
            self.rules.max_laps(),
        ))
    }

    /// Plays `mv` for the side to move, after checking that it is legal; ends
    /// the game when the next player has no legal move or the ply limit is
    /// reached. Allocates nothing.
    ///
    /// # Errors
    /// The [`IllegalMove`] reason, as [`Position::check`] gives it; the
    /// position is then unchanged.
    ///
    /// ```
    /// use endodoi::{IllegalMove, Move, Position, Rules};
    /// let mut pos = Position::parse("0,5,0,1/2,0,6,5 n 5 8 5", Rules::new(4, 4)?)?;
    /// let before = pos.clone();
    /// let endless = pos.play(Move::new(1).unwrap());
    /// assert!(matches!(endless, Err(IllegalMove::Endless { hole: 1, .. })));
    /// assert_eq!(pos, before);
    /// assert_eq!(pos.play(Move::new(4).unwrap())?.laps, 2);
    /// assert_eq!(pos.to_string(), "0,6,1,2/0,1,7,0 s 5 10 6");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn play(&mut self, mv: Move) -> Result<MoveDetails, IllegalMove> {
        self.check_candidate(mv)?;
        if self.ends_in_one_lap(self.ring_index(self.to_move, mv)) {
            return Ok(self.play_unchecked(mv));
        }
        // Sow on a copy, so an endless move leaves the position unchanged.
        let len = 2 * self.holes();
        let mut scratch = [0u32; 2 * MAX_HOLES];
        scratch[..len].copy_from_slice(&self.ring[..len]);
        let start = self.ring_index(self.to_move, mv);
        match sow(&mut scratch[..len], start, self.rules.max_laps()) {
            Sowing::Ended { last, laps, sown } => {
                self.ring[..len].copy_from_slice(&scratch[..len]);
                Ok(self.finish_move(mv, last, laps, sown))
            }
            Sowing::Endless => Err(self.endless(mv)),
        }
    }

    /// Plays `mv` without checking it: for a legal move it does exactly what
    /// [`Position::play`] does. For an illegal move the result is unspecified
    /// but safe: seeds are conserved, an endless sowing stops after
    /// `max_laps` laps, and the game still ends as usual.
    ///
    /// # Panics
    /// Only when the ply count would overflow `u32` (in builds with overflow
    /// checks): playing on a finished position whose ply is `u32::MAX`, which
    /// only [`Position::from_parts`] can make. Never for a legal move.
    ///
    /// ```
    /// use endodoi::{Move, Rules};
    /// let start = Rules::new(8, 4)?.start();
    /// let (mut a, mut b) = (start.clone(), start);
    /// let mv = Move::new(3).unwrap();
    /// assert_eq!(a.play_unchecked(mv), b.play(mv)?);
    /// assert_eq!(a, b);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn play_unchecked(&mut self, mv: Move) -> MoveDetails {
        let n = self.holes();
        let start = self.ring_index(self.to_move, mv);
        let (last, laps, sown) = match sow(&mut self.ring[..2 * n], start, self.rules.max_laps()) {
            Sowing::Ended { last, laps, sown } => (last, laps, sown),
            Sowing::Endless => (start, self.rules.max_laps(), 0),
        };
        self.finish_move(mv, last, laps, sown)
    }

    /// The reasons a move is illegal short of being endless.
    fn check_candidate(&self, mv: Move) -> Result<(), IllegalMove> {
        let hole = mv.hole();
        if self.outcome.is_some() {
            Err(IllegalMove::GameOver)
        } else if usize::from(hole) > self.holes() {
            Err(IllegalMove::NoSuchHole {
                hole,
                holes: self.holes() as u8,
            })
        } else if self.seeds(self.to_move, usize::from(hole)) == 0 {
            Err(IllegalMove::EmptyHole { hole })
        } else {
            Ok(())
        }
    }

    fn endless(&self, mv: Move) -> IllegalMove {
        IllegalMove::Endless {
            hole: mv.hole(),
            max_laps: self.rules.max_laps(),
        }
    }

    /// Whether the sowing of occupied hole `mv` ends within `max_laps` laps.
    fn ends(&self, mv: Move) -> bool {
        let start = self.ring_index(self.to_move, mv);
        if self.ends_in_one_lap(start) {
            return true;
        }
        let len = 2 * self.holes();
        let mut scratch = [0u32; 2 * MAX_HOLES];
        scratch[..len].copy_from_slice(&self.ring[..len]);
        matches!(
            sow(&mut scratch[..len], start, self.rules.max_laps()),
            Sowing::Ended { .. }
        )
    }

    /// Whether the first lap from ring index `start` ends in an empty hole:
    /// with fewer seeds than holes it ends at `start + seeds`, so one look
    /// settles the move's legality without sowing it.
    fn ends_in_one_lap(&self, start: usize) -> bool {
        let len = 2 * self.holes();
        let seeds = self.ring[start] as usize;
        let end = start + seeds;
        let end = if end >= len { end - len } else { end };
        seeds > 0 && seeds < len && self.ring[end] == 0
    }

    /// The ring index of `side`'s hole `mv`, clamped to the board.
    fn ring_index(&self, side: Side, mv: Move) -> usize {
        let n = self.holes();
        let hole = usize::from(mv.hole()).clamp(1, n) - 1;
        match side {
            Side::South => hole,
            Side::North => n + hole,
        }
    }

    /// The capture, the ply count and the game's end, after the sowing of `mv`
    /// ended at ring index `last`.
    fn finish_move(&mut self, mv: Move, last: usize, laps: u32, sown: u64) -> MoveDetails {
        let n = self.holes();
        let mover = self.to_move;
        let own_row = match mover {
            Side::South => 0..n,
            Side::North => n..2 * n,
        };
        let mut capture = None;
        if own_row.contains(&last) {
            let opposite = 2 * n - 1 - last;
            let seeds = self.ring[opposite];
            if seeds > 0 && self.ring[last] > 0 {
                // The opposite hole's seeds and the triggering seed leave the board.
                let taken = seeds + self.ring[last];
                self.ring[opposite] = 0;
                self.ring[last] = 0;
                self.captured[mover.index()] += taken;
                let hole = (opposite % n) as u8 + 1;
                capture = Some(Capture { hole, seeds: taken });
            }
        }
        self.ply += 1;
        self.to_move = mover.opponent();
        self.settle_end();
        MoveDetails {
            mv,
            mover,
            laps,
            sown,
            last,
            capture,
            outcome: self.outcome,
        }
    }

    /// Ends the game if the side to move has no legal move (the other side sweeps
    /// the board) or the ply limit is reached (each side takes its own row).
    fn settle_end(&mut self) {
        if self.outcome.is_some() {
            return;
        }
        let n = self.holes();
        let own_rows = |pos: &mut Position| {
            for side in Side::ALL {
                let rest: u32 = pos.row(side).iter().sum();
                pos.captured[side.index()] += rest;
            }
        };
        let termination = if !self.has_legal_move() {
            if self.ply == 0 {
                // Nobody has moved, so there is no last mover to sweep: each
                // side keeps its own row (only a tiny max_laps gets here).
                own_rows(self);
            } else {
                let rest: u32 = self.ring[..2 * n].iter().sum();
                self.captured[self.to_move.opponent().index()] += rest;
            }
            Termination::NoMoves
        } else if self.ply >= self.rules.max_plies() {
            own_rows(self);
            Termination::PlyLimit
        } else {
            return;
        };
        self.ring[..2 * n].fill(0);
        let [south, north] = self.captured;
        let winner = match south.cmp(&north) {
            std::cmp::Ordering::Greater => Some(Side::South),
            std::cmp::Ordering::Less => Some(Side::North),
            std::cmp::Ordering::Equal => None,
        };
        self.outcome = Some(Outcome {
            termination,
            winner,
        });
    }
}

impl Position {
    /// Whether the side to move has a legal move: first the moves that end
    /// in one lap (a look each), then the others, sown until one ends.
    fn has_legal_move(&self) -> bool {
        let moves = self.candidate_moves();
        let base = self.ring_index(self.to_move, Move::new(1).expect("hole 1"));
        moves
            .into_iter()
            .any(|mv| self.ends_in_one_lap(base + usize::from(mv.hole()) - 1))
            || moves.into_iter().any(|mv| self.ends(mv))
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, side) in Side::ALL.into_iter().enumerate() {
            if i > 0 {
                f.write_str("/")?;
            }
            for (j, seeds) in self.row(side).iter().enumerate() {
                if j > 0 {
                    f.write_str(",")?;
                }
                write!(f, "{seeds}")?;
            }
        }
        let side = match self.to_move {
            Side::South => 's',
            Side::North => 'n',
        };
        write!(
            f,
            " {side} {} {} {}",
            self.captured[0], self.captured[1], self.ply
        )
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({self})")
    }
}

impl From<RulesError> for ParsePositionError {
    /// Wraps a [`RulesError`]'s message, so one `?` serves for building the
    /// rules and parsing a position.
    ///
    /// ```
    /// use endodoi::{ParsePositionError, RulesError};
    /// let err = ParsePositionError::from(RulesError::MaxLaps);
    /// assert_eq!(err.to_string(), "bad position: max_laps must be 1 or more");
    /// ```
    fn from(e: RulesError) -> Self {
        ParsePositionError(e.to_string())
    }
}
