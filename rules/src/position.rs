//! Positions: the board, the side to move, the captured seeds, and the game's end
//! (RULES.md, "A move", "Endless sowing" and "End of the game").

use std::fmt;

use crate::game::Game;
use crate::results::{IllegalMove, MoveDetails, Outcome};
use crate::ring::{General, Ring, Seeds};
use crate::sowing::Laps;
use crate::swar::Swar;
use crate::{Move, MoveSet, Rules, RulesError, Side, MAX_HOLES};

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
/// Two positions are equal (`==`, and `Hash` agrees) when their rules, rings,
/// sides to move, captures, ply counts and outcomes are, whichever board
/// representation each lives on ([`Position::is_compact`]); rules made with
/// [`Rules::with_general_board`] are other rules, so their positions differ
/// from those of the plain rules.
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
#[derive(Clone)]
pub struct Position(Inner);

impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        self.rules() == other.rules()
            && self.to_move() == other.to_move()
            && self.ply() == other.ply()
            && self.outcome() == other.outcome()
            && Side::ALL.map(|s| self.captured(s)) == Side::ALL.map(|s| other.captured(s))
            && self.ring() == other.ring()
    }
}

impl Eq for Position {}

impl std::hash::Hash for Position {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.rules().hash(state);
        self.to_move().hash(state);
        self.ply().hash(state);
        self.outcome().hash(state);
        Side::ALL.map(|s| self.captured(s)).hash(state);
        for seeds in self.ring() {
            seeds.hash(state);
        }
    }
}

/// The game on the representation its board fits (see [`Rules::with_general_board`]).
/// The general variant is large, but boxing it would allocate on every
/// clone; a clone copies only the variant in use.
#[allow(clippy::large_enum_variant)]
#[derive(Clone)]
enum Inner {
    /// Boards of up to 2x8 with at most 255 seeds.
    Compact16(Game<Swar<1>>),
    /// Boards of up to 2x16 with at most 255 seeds.
    Compact32(Game<Swar<2>>),
    General(Game<General>),
}

/// Runs `$body` with `$g` bound to the position's game, whichever its ring.
macro_rules! on_game {
    ($pos:expr, $g:ident => $body:expr) => {
        match $pos {
            Inner::Compact16($g) => $body,
            Inner::Compact32($g) => $body,
            Inner::General($g) => $body,
        }
    };
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
        let row = [rules.seeds(); MAX_HOLES];
        let n = rules.holes();
        Position::build(rules, &row[..n], &row[..n], Side::South, [0, 0], 0)
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
        Ok(Position::build(rules, south, north, to_move, captured, ply))
    }

    /// The position on the compact ring if the rules allow it and the board
    /// fits (at most 32 holes, 255 seeds), else on the general ring; its end
    /// settled. The rows fit the rules and the seeds `u32`.
    fn build(
        rules: Rules,
        south: &[u32],
        north: &[u32],
        to_move: Side,
        captured: [u32; 2],
        ply: u32,
    ) -> Position {
        let compact = !rules.general_board();
        if let Some(ring) = compact.then(|| Swar::from_rows(south, north)).flatten() {
            return Position(Inner::Compact16(Game::new(
                rules, ring, to_move, captured, ply,
            )));
        }
        if let Some(ring) = compact.then(|| Swar::from_rows(south, north)).flatten() {
            return Position(Inner::Compact32(Game::new(
                rules, ring, to_move, captured, ply,
            )));
        }
        let ring = General::from_rows(south, north).expect("the general ring holds any board");
        Position(Inner::General(Game::new(
            rules, ring, to_move, captured, ply,
        )))
    }

    #[inline]
    fn game_rules(&self) -> &Rules {
        on_game!(&self.0, g => &g.rules)
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
    #[inline]
    pub fn rules(&self) -> &Rules {
        self.game_rules()
    }

    /// Holes per row, `n` (the same as `self.rules().holes()`).
    ///
    /// ```
    /// use endodoi::Rules;
    /// assert_eq!(Rules::new(6, 4)?.start().holes(), 6);
    /// # Ok::<(), endodoi::RulesError>(())
    /// ```
    #[must_use]
    #[inline]
    pub fn holes(&self) -> usize {
        self.game_rules().holes()
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
    #[inline]
    pub fn to_move(&self) -> Side {
        on_game!(&self.0, g => g.to_move)
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
    #[inline]
    pub fn ply(&self) -> u32 {
        on_game!(&self.0, g => g.ply)
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
    #[inline]
    pub fn captured(&self, side: Side) -> u32 {
        on_game!(&self.0, g => g.captured[side.index()])
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
    pub fn ring(&self) -> Seeds<'_> {
        let len = 2 * self.holes();
        on_game!(&self.0, g => g.ring.seeds(len))
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
    pub fn row(&self, side: Side) -> Seeds<'_> {
        let n = self.holes();
        let ring = self.ring();
        match side {
            Side::South => ring.slice(0, n),
            Side::North => ring.slice(n, 2 * n),
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
        let n = self.holes();
        assert!(
            (1..=n).contains(&hole),
            "hole {hole} is not on a board of {n} holes per row"
        );
        let index = if side == Side::South {
            hole - 1
        } else {
            n + hole - 1
        };
        on_game!(&self.0, g => g.ring.get(index))
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
    #[inline]
    pub fn outcome(&self) -> Option<Outcome> {
        on_game!(&self.0, g => g.outcome)
    }

    /// The side that has won whatever follows: the one that has captured
    /// more than half of all seeds (the board's plus both captures), or
    /// `None` when neither has. Exact, not a guess: seeds only ever leave
    /// the board to the players, never back, and every way the game ends
    /// gives the seeds left out to the players (the last mover's sweep, or
    /// each side its own row at the ply limit; RULES.md, "A move", step 5,
    /// and "End of the game"), so a capture total never falls and more than
    /// half stays more than half. Once the game is over it is the winner if
    /// the winner holds more than half (never for a draw). Allocates
    /// nothing; the arena's `[board] adjudicate = "decided"` ends a game on it.
    ///
    /// ```
    /// use endodoi::{Position, Rules, Side};
    /// let rules = Rules::new(2, 2)?; // 8 seeds
    /// let open = Position::parse("1,1/1,1 s 4 0 6", rules)?;
    /// assert_eq!(open.decided_winner(), None); // 4 of 8 is half, not more
    /// let decided = Position::parse("1,0/1,1 n 5 0 7", rules)?;
    /// assert_eq!(decided.decided_winner(), Some(Side::South));
    /// assert!(!decided.is_over());
    /// # Ok::<(), endodoi::ParsePositionError>(())
    /// ```
    #[must_use]
    #[inline]
    pub fn decided_winner(&self) -> Option<Side> {
        let board = u64::from(on_game!(&self.0, g => g.ring.sum(0, 2 * g.rules.holes())));
        let [south, north] = Side::ALL.map(|s| u64::from(self.captured(s)));
        if south > north + board {
            Some(Side::South)
        } else if north > south + board {
            Some(Side::North)
        } else {
            None
        }
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
    #[inline]
    pub fn is_over(&self) -> bool {
        self.outcome().is_some()
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
    #[inline]
    pub fn legal_moves(&self) -> MoveSet {
        on_game!(&self.0, g => g.legal_moves())
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
    #[inline]
    pub fn candidate_moves(&self) -> MoveSet {
        on_game!(&self.0, g => g.candidate_moves())
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
    #[inline]
    pub fn check(&self, mv: Move) -> Result<(), IllegalMove> {
        on_game!(&self.0, g => g.check(mv))
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
        let start = on_game!(&self.0, g => g.index(mv));
        Ok(Laps::new(self.ring(), start, self.rules().max_laps()))
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
    #[inline]
    pub fn play(&mut self, mv: Move) -> Result<MoveDetails, IllegalMove> {
        on_game!(&mut self.0, g => g.play(mv))
    }

    /// Plays `mv` without checking it: for a legal move it does exactly what
    /// [`Position::play`] does. For an illegal move the result is unspecified
    /// (and may differ between the two board representations) but safe:
    /// seeds are conserved, an endless move leaves the holes as they were,
    /// and the game still ends as usual.
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
    #[inline]
    pub fn play_unchecked(&mut self, mv: Move) -> MoveDetails {
        on_game!(&mut self.0, g => g.play_unchecked(mv))
    }

    /// Whether this position lives on the compact ring (32 byte-sized holes,
    /// sown a lap at a time in 64-bit limbs) rather than the general one.
    /// The representation is chosen when a position is built from its rules
    /// and rows ([`Position::start`], [`Position::from_parts`],
    /// [`Position::parse`]): compact for boards of up to 2x16 with at most
    /// 255 seeds on them, unless the rules ask for the general board
    /// ([`Rules::with_general_board`]). Moves never change it, so a game
    /// started with more seeds stays on the general ring after captures.
    /// Both play exactly the same game (every legal move, every illegal one
    /// refused alike) and compare equal.
    ///
    /// ```
    /// use endodoi::{Position, Rules};
    /// assert!(Rules::new(8, 4)?.start().is_compact());
    /// assert!(!Rules::new(40, 4)?.start().is_compact()); // En Gehé
    /// assert!(!Rules::new(8, 4)?.with_general_board().start().is_compact());
    /// let many = Rules::new(2, 100)?.start(); // 400 seeds
    /// assert!(!many.is_compact());
    /// let few = Position::parse("1,0/0,0 s 200 199 7", *many.rules())?;
    /// assert!(few.is_compact());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    #[inline]
    pub fn is_compact(&self) -> bool {
        !matches!(self.0, Inner::General(_))
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, side) in Side::ALL.into_iter().enumerate() {
            if i > 0 {
                f.write_str("/")?;
            }
            for (j, seeds) in self.row(side).into_iter().enumerate() {
                if j > 0 {
                    f.write_str(",")?;
                }
                write!(f, "{seeds}")?;
            }
        }
        let side = match self.to_move() {
            Side::South => 's',
            Side::North => 'n',
        };
        write!(
            f,
            " {side} {} {} {}",
            self.captured(Side::South),
            self.captured(Side::North),
            self.ply()
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
