//! Laps and relay sowing on the ring of holes, with the endless-move check.
//!
//! RULES.md, "A move" and "Endless sowing". The ring holds South's row at
//! indices `0..n` and North's at `n..2n`; sowing goes to index + 1 (mod 2n).

/// Lap-start states are compared for a cycle only from this lap on, so the
/// common short moves pay nothing for the check.
pub(crate) const CYCLE_CHECK_FROM: u32 = 64;

/// How a sowing ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Sowing {
    /// The last seed fell into an empty hole at ring index `last`.
    Ended { last: usize, laps: u32, sown: u64 },
    /// Lap `max_laps` still ended in an occupied hole, or the lap-start state
    /// repeated, so the sowing would never end.
    Endless,
}

/// Sows from ring index `start` with relay sowing until the last seed of a lap
/// falls into an empty hole, or the move proves endless. `ring` is the whole
/// ring (`2n` holes) and is changed in place; on `Endless` its contents are
/// unspecified but the seeds are conserved.
///
/// A move is endless once it is known never to end: either lap `max_laps` ends
/// in an occupied hole, or a lap-start state repeats (Brent's cycle detection,
/// which only shortens the work, never changes the answer: a repeated state
/// repeats for ever, so lap `max_laps` would end occupied too).
pub(crate) fn sow(ring: &mut [u32], start: usize, max_laps: u32) -> Sowing {
    let mut hole = start;
    let mut sown = 0u64;
    // Almost every move ends within a few laps: sow those without any cycle
    // bookkeeping, and hand the rare long ones to `sow_long`.
    for laps in 1..=max_laps.min(CYCLE_CHECK_FROM) {
        let seeds = std::mem::take(&mut ring[hole]);
        sown += u64::from(seeds);
        let last = lap(ring, hole, seeds);
        if ring[last] == 1 {
            return Sowing::Ended { last, laps, sown };
        }
        hole = last;
    }
    if max_laps <= CYCLE_CHECK_FROM {
        return Sowing::Endless;
    }
    sow_long(ring, hole, CYCLE_CHECK_FROM, sown, max_laps)
}

/// Goes on with a sowing that has run `laps` laps and must lift `hole` next,
/// comparing lap-start states for a cycle.
#[cold]
fn sow_long(
    ring: &mut [u32],
    mut hole: usize,
    mut laps: u32,
    mut sown: u64,
    max_laps: u32,
) -> Sowing {
    let len = ring.len();
    let mut saved = [0u32; 2 * crate::MAX_HOLES];
    let mut saved_hole = usize::MAX;
    let mut power = 1u32;
    let mut lambda = 0u32;
    loop {
        if hole == saved_hole && saved[..len] == *ring {
            return Sowing::Endless;
        }
        lambda += 1;
        if lambda >= power {
            saved[..len].copy_from_slice(ring);
            saved_hole = hole;
            power = power.saturating_mul(2);
            lambda = 0;
        }
        laps += 1;
        let seeds = std::mem::take(&mut ring[hole]);
        sown += u64::from(seeds);
        let last = lap(ring, hole, seeds);
        if ring[last] == 1 {
            return Sowing::Ended { last, laps, sown };
        }
        if laps >= max_laps {
            return Sowing::Endless;
        }
        hole = last;
    }
}

/// One lap of a relay sowing, as [`Laps`] gives it (RULES.md, "A move",
/// steps 2 to 4). Ring indices are `0..2n`: South's holes 1..n, then
/// North's holes 1..n.
///
/// ```
/// use endodoi::{Lap, Move, Rules};
/// // 2x4, 4 seeds: South's hole 2 sows into holes 3, 4 and North's 1 and 2.
/// let start = Rules::new(4, 4)?.start();
/// let first = start.laps(Move::new(2).unwrap())?.next().unwrap();
/// assert_eq!(first, Lap { number: 1, from: 1, seeds: 4, last: 5, ends: false });
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Lap {
    /// The lap's number, from 1 (the lap from the chosen hole).
    pub number: u32,
    /// The ring index of the hole that was lifted.
    pub from: usize,
    /// The seeds lifted from it and dropped one by one into the holes after it.
    pub seeds: u32,
    /// The ring index where the last seed fell.
    pub last: usize,
    /// Whether the sowing ends with this lap: the last seed fell into an empty
    /// hole. Otherwise the next lap lifts the hole at `last`.
    pub ends: bool,
}

/// The laps of one legal move, one at a time, with the ring after each:
/// from [`Position::laps`](crate::Position::laps). An iterator of [`Lap`];
/// after each [`next`](Iterator::next), [`Laps::ring`] is the ring as that
/// lap left it. The capture is not a lap: [`Position::play`](crate::Position::play)
/// applies it after the last one, so the last lap's ring is the position
/// after the move but for the captured holes. Holds a copy of the ring
/// (no heap allocation) and sows each lap when it is asked for.
///
/// ```
/// use endodoi::{Move, Rules, Side};
/// // The example of `Position`: 2x6 with 1 seed, South plays 4.
/// let start = Rules::new(6, 1)?.start();
/// let mut laps = start.laps(Move::new(4).unwrap())?;
/// let first = laps.next().unwrap();
/// assert_eq!((first.from, first.seeds, first.last, first.ends), (3, 1, 4, false));
/// assert_eq!(laps.row(Side::South), [1, 1, 1, 0, 2, 1]);
/// let rest: Vec<_> = laps.by_ref().collect();
/// assert_eq!(rest.len(), 6); // 7 laps in all, the last one ends
/// assert!(rest.last().unwrap().ends);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Laps {
    ring: [u32; 2 * crate::MAX_HOLES],
    len: usize,
    next: usize,
    number: u32,
    max_laps: u32,
    done: bool,
}

impl Laps {
    /// The laps of the sowing from ring index `start` of `ring` (the whole
    /// ring, `2n` holes), stopping after lap `max_laps` at the latest.
    pub(crate) fn new(ring: crate::Seeds<'_>, start: usize, max_laps: u32) -> Laps {
        let mut copy = [0u32; 2 * crate::MAX_HOLES];
        ring.copy_to(&mut copy);
        Laps {
            ring: copy,
            len: ring.len(),
            next: start,
            number: 0,
            max_laps,
            done: false,
        }
    }

    /// The whole ring (`2n` seed counts by ring index) after the lap last
    /// returned; before the first lap, the position's ring.
    #[must_use]
    pub fn ring(&self) -> &[u32] {
        &self.ring[..self.len]
    }

    /// `side`'s row after the lap last returned, holes 1..n from that
    /// side's own left, as [`Position::row`](crate::Position::row).
    #[must_use]
    pub fn row(&self, side: crate::Side) -> &[u32] {
        let n = self.len / 2;
        match side {
            crate::Side::South => &self.ring[..n],
            crate::Side::North => &self.ring[n..self.len],
        }
    }
}

impl Iterator for Laps {
    type Item = Lap;

    /// Sows the next lap; `None` once a lap has ended the sowing (or lap
    /// `max_laps` has been sown, which a legal move never needs).
    fn next(&mut self) -> Option<Lap> {
        if self.done {
            return None;
        }
        let ring = &mut self.ring[..self.len];
        let from = self.next;
        let seeds = std::mem::take(&mut ring[from]);
        let last = lap(ring, from, seeds);
        self.number += 1;
        let ends = ring[last] == 1;
        self.done = ends || self.number >= self.max_laps;
        self.next = last;
        Some(Lap {
            number: self.number,
            from,
            seeds,
            last,
            ends,
        })
    }
}

impl std::iter::FusedIterator for Laps {}

/// One lap: drops `seeds` seeds one by one into the holes after `from`
/// (the emptied origin is not skipped), and returns the index of the last one.
#[inline]
fn lap(ring: &mut [u32], from: usize, seeds: u32) -> usize {
    let len = ring.len();
    let mut rest = seeds as usize;
    if rest >= len {
        // Whole rounds: one seed to every hole, the origin included. Rare, so
        // the division stays off the common path.
        let full = seeds / len as u32;
        for h in ring.iter_mut() {
            *h += full;
        }
        rest %= len;
    }
    // The remaining seeds go to from+1 ..= from+rest, wrapping once at most.
    let first = from + 1;
    let end = first + rest;
    if end <= len {
        for h in &mut ring[first..end] {
            *h += 1;
        }
    } else {
        for h in &mut ring[first..] {
            *h += 1;
        }
        for h in &mut ring[..end - len] {
            *h += 1;
        }
    }
    let last = from + rest;
    if last >= len {
        last - len
    } else {
        last
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sowing_ends_in_an_empty_hole_after_relays() {
        // (ring, from, expected end, ring after).
        let cases = [
            // A single lap ends in an empty hole.
            ([0, 2, 0, 0], 1, (3, 1, 2), [0, 0, 1, 1]),
            // Lap 1 from index 0 ends in index 1, which held a seed: lap 2
            // lifts 2 seeds.
            ([1, 1, 0, 0], 0, (3, 2, 3), [0, 0, 1, 1]),
        ];
        for (mut ring, from, (last, laps, sown), after) in cases {
            let end = sow(&mut ring, from, 100);
            assert_eq!(end, Sowing::Ended { last, laps, sown }, "from {from}");
            assert_eq!(ring, after, "from {from}");
        }
    }

    #[test]
    fn full_rounds_include_the_origin() {
        // 5 seeds on a ring of 4: one to every hole, origin included, then one more.
        let mut ring = [5, 0, 0, 0];
        let end = sow(&mut ring, 0, 1);
        assert_eq!(ring.iter().sum::<u32>(), 5);
        assert_eq!(ring, [1, 2, 1, 1]);
        assert_eq!(end, Sowing::Endless, "lap 1 = max_laps ends occupied");
    }

    #[test]
    fn laps_show_the_relay_one_lap_at_a_time() {
        // As the relay in `sowing_ends_in_an_empty_hole_after_relays`: lap 1 from index 0 ends in
        // the occupied index 1, lap 2 lifts its 2 seeds and ends in index 3.
        let mut laps = Laps::new(crate::Seeds::bytes(&[1, 1, 0, 0]), 0, 100);
        let first = laps.next().unwrap();
        assert_eq!(
            first,
            Lap {
                number: 1,
                from: 0,
                seeds: 1,
                last: 1,
                ends: false
            }
        );
        assert_eq!(laps.ring(), [0, 2, 0, 0]);
        let second = laps.next().unwrap();
        assert_eq!((second.number, second.from, second.seeds), (2, 1, 2));
        assert_eq!((second.last, second.ends), (3, true));
        assert_eq!(laps.ring(), [0, 0, 1, 1]);
        assert_eq!(laps.row(crate::Side::North), [1, 1]);
        assert_eq!(laps.next(), None);
        assert_eq!(laps.next(), None, "fused");
    }

    #[test]
    fn laps_stop_at_the_lap_limit() {
        let laps: Vec<Lap> = Laps::new(crate::Seeds::bytes(&[1, 1, 0, 0]), 0, 1).collect();
        assert_eq!(laps.len(), 1);
        assert!(!laps[0].ends);
    }

    #[test]
    fn lap_limit_makes_a_move_endless() {
        let mut ring = [1, 1, 0, 0];
        assert_eq!(sow(&mut ring, 0, 1), Sowing::Endless);
    }
}
