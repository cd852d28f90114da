//! Moves and sets of moves.

use std::fmt;

use crate::MAX_HOLES;

/// A move: the hole the mover empties, numbered 1..=n from the mover's own left
/// (RULES.md, "Board and notation"). This is the number bots send and `games.csv` records.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(u8);

impl Move {
    /// The move that empties own-perspective hole `hole`, or `None` unless
    /// `1 <= hole <= 50` ([`MAX_HOLES`]). Whether it fits a board is checked by
    /// [`Position::play`](crate::Position::play).
    ///
    /// ```
    /// use endodoi::Move;
    /// assert_eq!(Move::new(3).unwrap().hole(), 3);
    /// assert!(Move::new(0).is_none());
    /// ```
    #[must_use]
    pub const fn new(hole: u8) -> Option<Move> {
        if hole >= 1 && hole as usize <= MAX_HOLES {
            Some(Move(hole))
        } else {
            None
        }
    }

    /// The own-perspective hole number, 1..=n.
    #[must_use]
    pub const fn hole(self) -> u8 {
        self.0
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A set of moves, stored as a 64-bit mask (bit `i - 1` for hole `i`), so
/// generating it never touches the heap. Iterates in increasing hole order.
///
/// ```
/// use endodoi::{Rules, Move};
/// let start = Rules::new(8, 4).unwrap().start();
/// let legal = start.legal_moves();
/// assert_eq!(legal.len(), 8);
/// assert!(legal.contains(Move::new(8).unwrap()));
/// assert_eq!(legal.to_string(), "1 2 3 4 5 6 7 8");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MoveSet(u64);

impl MoveSet {
    /// The empty set.
    pub const EMPTY: MoveSet = MoveSet(0);

    /// Adds `mv` to the set.
    pub fn insert(&mut self, mv: Move) {
        self.0 |= 1 << (mv.0 - 1);
    }

    /// Removes `mv` from the set.
    pub fn remove(&mut self, mv: Move) {
        self.0 &= !(1 << (mv.0 - 1));
    }

    /// Whether `mv` is in the set.
    #[must_use]
    pub const fn contains(self, mv: Move) -> bool {
        self.0 & (1 << (mv.0 - 1)) != 0
    }

    /// The number of moves in the set.
    #[must_use]
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The move with the lowest hole number, if any.
    #[must_use]
    pub const fn first(self) -> Option<Move> {
        if self.0 == 0 {
            None
        } else {
            Some(Move(self.0.trailing_zeros() as u8 + 1))
        }
    }

    /// The `index`-th move in increasing hole order (0-based), if any; handy for
    /// picking a uniformly random move without collecting the set.
    #[must_use]
    pub fn nth(self, index: usize) -> Option<Move> {
        self.into_iter().nth(index)
    }

    /// The set whose mask is `bits` (bit `i - 1` for hole `i`); bits above
    /// hole 50 are dropped.
    ///
    /// ```
    /// use endodoi::MoveSet;
    /// assert_eq!(MoveSet::from_bits(0b101).to_string(), "1 3");
    /// ```
    #[must_use]
    pub const fn from_bits(bits: u64) -> MoveSet {
        MoveSet(bits & ((1 << MAX_HOLES) - 1))
    }

    /// The raw mask: bit `i - 1` is set when hole `i` is in the set.
    #[must_use]
    pub const fn bits(self) -> u64 {
        self.0
    }
}

impl IntoIterator for MoveSet {
    type Item = Move;
    type IntoIter = MoveSetIter;

    fn into_iter(self) -> MoveSetIter {
        MoveSetIter(self.0)
    }
}

/// The iterator over a [`MoveSet`], in increasing hole order.
#[derive(Clone, Debug)]
pub struct MoveSetIter(u64);

impl Iterator for MoveSetIter {
    type Item = Move;

    fn next(&mut self) -> Option<Move> {
        if self.0 == 0 {
            return None;
        }
        let bit = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(Move(bit as u8 + 1))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for MoveSetIter {}

impl fmt::Display for MoveSet {
    /// Space-separated hole numbers, as in the protocol and `rules.csv`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, mv) in self.into_iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{mv}")?;
        }
        Ok(())
    }
}
