//! Moves and sets of moves.

use std::fmt;

use crate::MAX_HOLES;

/// A move: the hole the mover empties, numbered 1..=n from the mover's own left
/// (RULES.md, "Board and notation" and "A move", after Merker 1904 via Mancala
/// World's "En Dodoi" page). This is the number bots send and `games.csv`
/// records, and the `Display` text. A `Move` only knows its hole number; whether
/// it is legal in a position is decided by [`Position::check`](crate::Position::check)
/// and [`Position::play`](crate::Position::play).
///
/// ```
/// use endodoi::{Move, Rules};
/// let mv = Move::new(4).unwrap();
/// assert_eq!(mv.to_string(), "4");
/// let mut pos = Rules::new(8, 4)?.start();
/// assert_eq!(pos.play(mv)?.mv, mv);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
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
    /// assert!(Move::new(51).is_none());
    /// ```
    #[must_use]
    pub const fn new(hole: u8) -> Option<Move> {
        if hole >= 1 && hole as usize <= MAX_HOLES {
            Some(Move(hole))
        } else {
            None
        }
    }

    /// The own-perspective hole number, 1..=50 (1..=n on a board it fits).
    ///
    /// ```
    /// use endodoi::Move;
    /// assert_eq!(Move::new(7).unwrap().hole(), 7);
    /// ```
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
/// generating it never touches the heap. Iterates in increasing hole order;
/// `Display` gives the hole numbers separated by spaces.
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
    /// The empty set (also the `Default`).
    ///
    /// ```
    /// use endodoi::MoveSet;
    /// assert!(MoveSet::EMPTY.is_empty());
    /// assert_eq!(MoveSet::EMPTY, MoveSet::default());
    /// ```
    pub const EMPTY: MoveSet = MoveSet(0);

    /// Adds `mv` to the set (no change if it is there already).
    ///
    /// ```
    /// use endodoi::{Move, MoveSet};
    /// let mut set = MoveSet::EMPTY;
    /// set.insert(Move::new(5).unwrap());
    /// set.insert(Move::new(2).unwrap());
    /// assert_eq!(set.to_string(), "2 5");
    /// ```
    pub fn insert(&mut self, mv: Move) {
        self.0 |= 1 << (mv.0 - 1);
    }

    /// Removes `mv` from the set (no change if it is absent).
    ///
    /// ```
    /// use endodoi::{Move, MoveSet};
    /// let mut set = MoveSet::from_bits(0b111);
    /// set.remove(Move::new(2).unwrap());
    /// assert_eq!(set.to_string(), "1 3");
    /// ```
    pub fn remove(&mut self, mv: Move) {
        self.0 &= !(1 << (mv.0 - 1));
    }

    /// Whether `mv` is in the set.
    ///
    /// ```
    /// use endodoi::{Move, MoveSet};
    /// let set = MoveSet::from_bits(0b100);
    /// assert!(set.contains(Move::new(3).unwrap()));
    /// assert!(!set.contains(Move::new(1).unwrap()));
    /// ```
    #[must_use]
    pub const fn contains(self, mv: Move) -> bool {
        self.0 & (1 << (mv.0 - 1)) != 0
    }

    /// The number of moves in the set (0 to 50).
    ///
    /// ```
    /// use endodoi::Rules;
    /// assert_eq!(Rules::new(6, 4)?.start().legal_moves().len(), 6);
    /// # Ok::<(), endodoi::RulesError>(())
    /// ```
    #[must_use]
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty; the legal moves are empty exactly when the
    /// game is over.
    ///
    /// ```
    /// use endodoi::{MoveSet, Position, Rules};
    /// let over = Position::parse("0,0/1,1 s 1 1 5", Rules::new(2, 1)?)?;
    /// assert!(over.legal_moves().is_empty());
    /// assert!(!MoveSet::from_bits(1).is_empty());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The move with the lowest hole number, if any.
    ///
    /// ```
    /// use endodoi::MoveSet;
    /// assert_eq!(MoveSet::from_bits(0b1100).first().map(|m| m.hole()), Some(3));
    /// assert_eq!(MoveSet::EMPTY.first(), None);
    /// ```
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
    ///
    /// ```
    /// use endodoi::MoveSet;
    /// let set = MoveSet::from_bits(0b10110); // holes 2, 3, 5
    /// assert_eq!(set.nth(2).map(|m| m.hole()), Some(5));
    /// assert_eq!(set.nth(3), None);
    /// ```
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
    /// assert_eq!(MoveSet::from_bits(u64::MAX).len(), 50);
    /// ```
    #[must_use]
    pub const fn from_bits(bits: u64) -> MoveSet {
        MoveSet(bits & ((1 << MAX_HOLES) - 1))
    }

    /// The raw mask: bit `i - 1` is set when hole `i` is in the set.
    ///
    /// ```
    /// use endodoi::Rules;
    /// let start = Rules::new(4, 4)?.start();
    /// assert_eq!(start.legal_moves().bits(), 0b1111);
    /// # Ok::<(), endodoi::RulesError>(())
    /// ```
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

/// The iterator over a [`MoveSet`], in increasing hole order, from
/// `MoveSet::into_iter`; it knows its exact length.
///
/// ```
/// use endodoi::{MoveSet, MoveSetIter};
/// let mut iter: MoveSetIter = MoveSet::from_bits(0b1001).into_iter();
/// assert_eq!(iter.len(), 2);
/// assert_eq!(iter.next().map(|m| m.hole()), Some(1));
/// assert_eq!(iter.next().map(|m| m.hole()), Some(4));
/// assert_eq!(iter.next(), None);
/// ```
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
    /// Space-separated hole numbers, as in the protocol and `rules.csv`; the
    /// empty set is the empty string.
    ///
    /// ```
    /// use endodoi::MoveSet;
    /// assert_eq!(MoveSet::from_bits(0b1011).to_string(), "1 2 4");
    /// assert_eq!(MoveSet::EMPTY.to_string(), "");
    /// ```
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
