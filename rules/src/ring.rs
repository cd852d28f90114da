//! The ring of holes, in one of two representations behind one trait, and
//! [`Seeds`], the read-only view of it that [`Position`](crate::Position) hands out.
//!
//! Every En Dodoi board (2x6 to 2x10 with 4 seeds) fits the compact ring: 32
//! byte-sized holes sown a lap at a time as 64-bit limbs of eight holes.
//! Larger rings (En Gehé) or boards with more than 255 seeds on them take the
//! general ring of 100 `u32` holes. The game logic is written once, over
//! [`Ring`], and compiled for each.

use std::fmt;
use std::hash::Hash;

use crate::sowing::Sowing;

/// A ring of `2n` holes with the sowing of RULES.md, "A move" and "Endless
/// sowing". Holes at and beyond `len` hold 0. Ring indices are `0..len`.
pub(crate) trait Ring: Copy + Eq + Hash {
    /// The ring of `south` then `north`, or `None` if it does not fit.
    fn from_rows(south: &[u32], north: &[u32]) -> Option<Self>;
    /// Seeds in ring index `i`.
    fn get(&self, i: usize) -> u32;
    /// Empties ring index `i` if `take`, returning the seeds taken.
    fn take_if(&mut self, i: usize, take: bool) -> u32;
    /// Seeds in ring indices `from..to`.
    fn sum(&self, from: usize, to: usize) -> u32;
    /// Empties every hole.
    fn clear(&mut self);
    /// Bit `i` set for each occupied hole `base + i`, for `i` in `0..n`.
    fn occupied(&self, base: usize, n: usize) -> u64;
    /// Relay-sows from `start` until a lap ends in an empty hole, or the move
    /// proves endless (then the ring is left as it was, so a move can be
    /// sown in place before it is known to be legal).
    fn sow(&mut self, len: usize, start: usize, max_laps: u32) -> Sowing;
    /// Whether the sowing from `start` ends (is not endless), leaving the
    /// ring as it is.
    #[inline]
    fn ends(&self, len: usize, start: usize, max_laps: u32) -> bool {
        let mut scratch = *self;
        matches!(scratch.sow(len, start, max_laps), Sowing::Ended { .. })
    }
    /// The first `len` holes as a view.
    fn seeds(&self, len: usize) -> Seeds<'_>;

    /// Whether the first lap from `start` ends in an empty hole: with fewer
    /// seeds than holes it ends at `start + seeds`, so one look proves the
    /// move legal without sowing it.
    #[inline]
    fn ends_in_one_lap(&self, len: usize, start: usize) -> bool {
        let seeds = self.get(start) as usize;
        let end = start + seeds;
        let end = if end >= len { end - len } else { end };
        seeds > 0 && seeds < len && self.get(end) == 0
    }

    /// The row of `n` holes from `base` at a glance: which are occupied
    /// (bit `k` for hole `base + k`), and which of those end in one lap.
    #[inline]
    fn glance(&self, len: usize, base: usize, n: usize) -> Glance {
        let mut ends = 0u64;
        for k in 0..n {
            ends |= u64::from(self.ends_in_one_lap(len, base + k)) << k;
        }
        Glance {
            occupied: self.occupied(base, n),
            ends,
        }
    }
}

/// What [`Ring::glance`] sees of a row, as bits `k` for holes `base + k`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Glance {
    /// The occupied holes.
    pub(crate) occupied: u64,
    /// The occupied holes whose first lap ends in an empty hole.
    pub(crate) ends: u64,
}

/// The general ring: up to 100 holes ([`MAX_HOLES`](crate::MAX_HOLES) per row)
/// of `u32` seeds, sown by [`crate::sowing::sow`].
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct General([u32; 2 * crate::MAX_HOLES]);

impl Ring for General {
    fn from_rows(south: &[u32], north: &[u32]) -> Option<General> {
        let mut ring = [0; 2 * crate::MAX_HOLES];
        ring[..south.len()].copy_from_slice(south);
        ring[south.len()..south.len() + north.len()].copy_from_slice(north);
        Some(General(ring))
    }

    #[inline]
    fn get(&self, i: usize) -> u32 {
        self.0[i]
    }

    #[inline]
    fn take_if(&mut self, i: usize, take: bool) -> u32 {
        if take {
            std::mem::take(&mut self.0[i])
        } else {
            0
        }
    }

    fn sum(&self, from: usize, to: usize) -> u32 {
        self.0[from..to].iter().sum()
    }

    fn clear(&mut self) {
        self.0.fill(0);
    }

    fn occupied(&self, base: usize, n: usize) -> u64 {
        let mut bits = 0u64;
        for (i, &seeds) in self.0[base..base + n].iter().enumerate() {
            bits |= u64::from(seeds != 0) << i;
        }
        bits
    }

    #[inline]
    fn sow(&mut self, len: usize, start: usize, max_laps: u32) -> Sowing {
        let mut scratch = *self;
        let sowing = crate::sowing::sow(&mut scratch.0[..len], start, max_laps);
        if let Sowing::Ended { .. } = sowing {
            *self = scratch;
        }
        sowing
    }

    #[inline]
    fn ends(&self, len: usize, start: usize, max_laps: u32) -> bool {
        let mut scratch = *self;
        matches!(
            crate::sowing::sow(&mut scratch.0[..len], start, max_laps),
            Sowing::Ended { .. }
        )
    }

    fn seeds(&self, len: usize) -> Seeds<'_> {
        Seeds(Inner::Wide(&self.0[..len]))
    }
}

/// Seed counts of a run of holes (a row or the whole ring) of a
/// [`Position`](crate::Position), each a `u32`, in ring order: from
/// [`Position::ring`](crate::Position::ring) and
/// [`Position::row`](crate::Position::row). A view, whatever the position's
/// representation (bytes on the compact board, `u32` on the general one), so
/// it is read with [`Seeds::get`], [`Seeds::iter`] or [`Seeds::to_vec`], and
/// compares equal to a slice or array of `u32` with the same counts.
///
/// ```
/// use endodoi::Rules;
/// let start = Rules::new(4, 4)?.start();
/// let ring = start.ring();
/// assert_eq!(ring.len(), 8);
/// assert_eq!(ring.get(0), Some(4));
/// assert_eq!(ring.sum(), 32);
/// assert_eq!(ring, [4; 8]);
/// assert_eq!(ring.to_vec(), vec![4; 8]);
/// # Ok::<(), endodoi::RulesError>(())
/// ```
#[derive(Clone, Copy)]
pub struct Seeds<'a>(Inner<'a>);

#[derive(Clone, Copy)]
enum Inner<'a> {
    Bytes(&'a [u8]),
    Wide(&'a [u32]),
}

impl<'a> Seeds<'a> {
    pub(crate) fn bytes(seeds: &'a [u8]) -> Seeds<'a> {
        Seeds(Inner::Bytes(seeds))
    }

    /// Holes `from..to` of the view.
    pub(crate) fn slice(self, from: usize, to: usize) -> Seeds<'a> {
        Seeds(match self.0 {
            Inner::Bytes(s) => Inner::Bytes(&s[from..to]),
            Inner::Wide(s) => Inner::Wide(&s[from..to]),
        })
    }

    /// The number of holes in the view.
    #[must_use]
    pub fn len(&self) -> usize {
        match self.0 {
            Inner::Bytes(s) => s.len(),
            Inner::Wide(s) => s.len(),
        }
    }

    /// Whether the view holds no holes (never, for a row or ring of a position).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The seeds in the view's hole `index` (0-based), or `None` past its end.
    #[must_use]
    pub fn get(&self, index: usize) -> Option<u32> {
        match self.0 {
            Inner::Bytes(s) => s.get(index).map(|&x| u32::from(x)),
            Inner::Wide(s) => s.get(index).copied(),
        }
    }

    /// The seed counts in order.
    #[must_use]
    pub fn iter(&self) -> SeedsIter<'a> {
        SeedsIter(*self, 0, self.len())
    }

    /// All the seeds in the view. Never overflows: a position holds at most
    /// `u32::MAX` seeds.
    #[must_use]
    pub fn sum(&self) -> u32 {
        self.iter().sum()
    }

    /// The seed counts as a vector.
    #[must_use]
    pub fn to_vec(&self) -> Vec<u32> {
        self.iter().collect()
    }

    /// Copies the seed counts into the start of `out`.
    ///
    /// # Panics
    /// If `out` is shorter than the view.
    pub fn copy_to(&self, out: &mut [u32]) {
        for (o, s) in out[..self.len()].iter_mut().zip(self.iter()) {
            *o = s;
        }
    }
}

impl<'a> IntoIterator for Seeds<'a> {
    type Item = u32;
    type IntoIter = SeedsIter<'a>;

    fn into_iter(self) -> SeedsIter<'a> {
        self.iter()
    }
}

/// The iterator over a [`Seeds`] view, from [`Seeds::iter`]: the seed
/// counts in order, as `u32`.
#[derive(Clone)]
pub struct SeedsIter<'a>(Seeds<'a>, usize, usize);

impl Iterator for SeedsIter<'_> {
    type Item = u32;

    fn next(&mut self) -> Option<u32> {
        if self.1 == self.2 {
            return None;
        }
        self.1 += 1;
        self.0.get(self.1 - 1)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.2 - self.1, Some(self.2 - self.1))
    }
}

impl DoubleEndedIterator for SeedsIter<'_> {
    fn next_back(&mut self) -> Option<u32> {
        if self.1 == self.2 {
            return None;
        }
        self.2 -= 1;
        self.0.get(self.2)
    }
}

impl ExactSizeIterator for SeedsIter<'_> {}

impl fmt::Debug for Seeds<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl PartialEq for Seeds<'_> {
    fn eq(&self, other: &Seeds<'_>) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl Eq for Seeds<'_> {}

impl PartialEq<[u32]> for Seeds<'_> {
    fn eq(&self, other: &[u32]) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter().copied())
    }
}

impl PartialEq<&[u32]> for Seeds<'_> {
    fn eq(&self, other: &&[u32]) -> bool {
        *self == **other
    }
}

impl<const N: usize> PartialEq<[u32; N]> for Seeds<'_> {
    fn eq(&self, other: &[u32; N]) -> bool {
        *self == other[..]
    }
}

impl<const N: usize> PartialEq<&[u32; N]> for Seeds<'_> {
    fn eq(&self, other: &&[u32; N]) -> bool {
        *self == other[..]
    }
}

impl PartialEq<Vec<u32>> for Seeds<'_> {
    fn eq(&self, other: &Vec<u32>) -> bool {
        *self == other[..]
    }
}

impl PartialEq<Seeds<'_>> for [u32] {
    fn eq(&self, other: &Seeds<'_>) -> bool {
        *other == *self
    }
}

impl PartialEq<Seeds<'_>> for &[u32] {
    fn eq(&self, other: &Seeds<'_>) -> bool {
        *other == **self
    }
}

impl PartialEq<Seeds<'_>> for Vec<u32> {
    fn eq(&self, other: &Seeds<'_>) -> bool {
        *other == self[..]
    }
}
