//! The compact ring: up to 16 or 32 holes of at most 255 seeds, one byte
//! each, in a 16- or 32-byte array that the compiler adds as vectors. A lap is sown at once:
//! empty the hole, add `seeds / 2n` to every hole if it goes round, then add
//! a mask of ones to the `seeds mod 2n` holes after it (RULES.md, "A move").

use crate::ring::{Ring, Seeds};
use crate::sowing::{Sowing, CYCLE_CHECK_FROM};

/// The most seeds a compact board holds, so that no hole overflows a byte.
pub(crate) const MAX_SEEDS: u64 = u8::MAX as u64;

/// A compact ring of `W` byte-sized holes (16 for boards up to 2x8, 32 up
/// to 2x16); lanes at and beyond the ring's length hold 0.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Compact<const W: usize>([u8; W]);

impl<const W: usize> Compact<W> {
    /// The lap from `hole`, which holds `seeds`: empties it and drops the
    /// seeds on the holes after it, all lanes at once. Returns the ring index
    /// of the last seed and the seeds it then holds.
    ///
    /// The last hole's count is read before the add, so the next lap can
    /// start while the add is still being stored: the sowing's critical path
    /// is then one byte read per lap, not a vector store and a reload.
    #[inline(always)]
    fn lap(&mut self, len: usize, hole: usize, seeds: u8) -> (usize, u8) {
        let (full, rest) = if usize::from(seeds) < len {
            (0, seeds)
        } else {
            // Whole rounds, the emptied hole included: rare, so the division
            // stays off the common path.
            (seeds / len as u8, seeds % len as u8)
        };
        let last = hole + usize::from(rest);
        let last = if last >= len { last - len } else { last };
        let before = if last == hole { 0 } else { self.0[last] };
        let (len8, hole8) = (len as u8, hole as u8);
        let start = hole8 + 1;
        for (i, h) in self.0.iter_mut().enumerate() {
            let i = i as u8;
            // `d` is how far lane `i` lies after the lifted hole, less one.
            let d = if i >= start {
                i - start
            } else {
                i.wrapping_add(len8 - start)
            };
            let on_ring = i < len8;
            let kept = if i == hole8 { 0 } else { *h };
            *h = kept + u8::from(d < rest && on_ring) + if on_ring { full } else { 0 };
        }
        (last, before + full + u8::from(rest > 0))
    }
}

impl<const W: usize> Ring for Compact<W> {
    fn from_rows(south: &[u32], north: &[u32]) -> Option<Compact<W>> {
        let total: u64 = south.iter().chain(north).map(|&s| u64::from(s)).sum();
        if south.len() + north.len() > W || total > MAX_SEEDS {
            return None;
        }
        let mut ring = [0u8; W];
        for (slot, &seeds) in ring.iter_mut().zip(south.iter().chain(north)) {
            *slot = seeds as u8;
        }
        Some(Compact(ring))
    }

    #[inline(always)]
    fn get(&self, i: usize) -> u32 {
        u32::from(self.0[i])
    }

    #[inline(always)]
    fn take(&mut self, i: usize) -> u32 {
        u32::from(std::mem::take(&mut self.0[i]))
    }

    fn sum(&self, from: usize, to: usize) -> u32 {
        self.0[from..to].iter().map(|&s| u32::from(s)).sum()
    }

    fn clear(&mut self) {
        self.0 = [0; W];
    }

    #[inline(always)]
    fn occupied(&self, base: usize, n: usize) -> u64 {
        // SWAR: the high bit of each byte of `hi` says the hole is occupied,
        // and one multiply gathers eight of them into a byte.
        let mut bits = 0u64;
        for (k, chunk) in self.0.chunks_exact(8).enumerate() {
            let x = u64::from_le_bytes(chunk.try_into().expect("8 bytes"));
            let low = 0x7f7f_7f7f_7f7f_7f7f;
            let hi = (((x & low) + low) | x) & !low;
            bits |= ((hi >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) << (8 * k);
        }
        (bits >> base) & ((1u64 << n) - 1)
    }

    #[inline]
    fn sow(&mut self, len: usize, start: usize, max_laps: u32) -> Sowing {
        let mut hole = start;
        let mut seeds = self.0[hole];
        let mut sown = 0u64;
        // Almost every move ends within a few laps: sow those without any
        // cycle bookkeeping, and hand the rare long ones to `sow_long`.
        for laps in 1..=max_laps.min(CYCLE_CHECK_FROM) {
            sown += u64::from(seeds);
            let (last, now) = self.lap(len, hole, seeds);
            if now == 1 {
                return Sowing::Ended { last, laps, sown };
            }
            (hole, seeds) = (last, now);
        }
        if max_laps <= CYCLE_CHECK_FROM {
            return Sowing::Endless;
        }
        self.sow_long(len, hole, sown, max_laps)
    }

    fn seeds(&self, len: usize) -> Seeds<'_> {
        Seeds::bytes(&self.0[..len])
    }
}

impl<const W: usize> Compact<W> {
    /// Goes on with a sowing that has run [`CYCLE_CHECK_FROM`] laps and must
    /// lift `hole` next, comparing lap-start states for a cycle (Brent's
    /// method, as [`crate::sowing::sow`] does).
    #[cold]
    #[inline(never)]
    fn sow_long(&mut self, len: usize, mut hole: usize, mut sown: u64, max_laps: u32) -> Sowing {
        let mut laps = CYCLE_CHECK_FROM;
        let mut saved = (self.0, usize::MAX);
        let (mut power, mut lambda) = (1u32, 0u32);
        let mut seeds = self.0[hole];
        loop {
            if hole == saved.1 && self.0 == saved.0 {
                return Sowing::Endless;
            }
            lambda += 1;
            if lambda >= power {
                saved = (self.0, hole);
                power = power.saturating_mul(2);
                lambda = 0;
            }
            laps += 1;
            sown += u64::from(seeds);
            let (last, now) = self.lap(len, hole, seeds);
            if now == 1 {
                return Sowing::Ended { last, laps, sown };
            }
            if laps >= max_laps {
                return Sowing::Endless;
            }
            (hole, seeds) = (last, now);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ring(seeds: &[u32]) -> Compact<16> {
        Compact::from_rows(seeds, &[]).unwrap()
    }

    #[test]
    fn a_lap_wraps_round_the_ring() {
        // 2x2, index 2 holds 3 seeds: they go to 3, 0 and 1.
        let mut r = ring(&[1, 0, 3, 0]);
        assert_eq!(r.lap(4, 2, 3), (1, 1));
        assert_eq!(r.seeds(4), [2, 1, 0, 1]);
    }

    #[test]
    fn whole_rounds_include_the_origin() {
        let mut r = ring(&[9, 0, 0, 0]);
        assert_eq!(r.lap(4, 0, 9), (1, 3));
        assert_eq!(r.seeds(4), [2, 3, 2, 2]);
        assert_eq!(r.0[4..], [0; 12], "lanes past the ring stay empty");
        let mut r = ring(&[8, 0, 0, 0]);
        assert_eq!(
            r.lap(4, 0, 8),
            (0, 2),
            "whole rounds end in the emptied hole"
        );
    }

    #[test]
    fn sowing_matches_the_general_ring() {
        let rows = [1u32, 1, 0, 0];
        let mut c = ring(&rows);
        let mut g = crate::ring::General::from_rows(&rows, &[]).unwrap();
        assert_eq!(c.sow(4, 0, 100), g.sow(4, 0, 100));
        assert_eq!(c.seeds(4), g.seeds(4));
    }

    #[test]
    fn too_many_seeds_or_holes_do_not_fit() {
        assert!(ring(&[255, 0]).0[0] == 255);
        assert!(Compact::<16>::from_rows(&[255], &[1]).is_none());
        assert!(Compact::<32>::from_rows(&[0; 17], &[0; 16]).is_none());
        assert!(Compact::<16>::from_rows(&[0; 9], &[0; 8]).is_none());
    }
}
