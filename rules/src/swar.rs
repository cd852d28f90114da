//! The smallest compact ring: up to 16 holes of at most 255 seeds, one byte
//! each, in one `u128` that lives in two registers (SIMD within a register).
//! Boards up to 2x8 take it.
//!
//! A lap is sown at once (RULES.md, "A move"): clear the lifted hole's byte,
//! add `seeds / 2n` to every byte if it goes round, and add a run of ones to
//! the `seeds mod 2n` bytes after it, wrapping once at most. No byte ever
//! carries into the next, since no hole holds more than the board's 255 seeds.

use crate::compact::MAX_SEEDS;
use crate::ring::{Ring, Seeds};
use crate::sowing::{Sowing, CYCLE_CHECK_FROM};

/// Holes in the ring.
const LANES: usize = 16;

/// A one in every byte.
const ONE_EACH: u128 = u128::MAX / 255;

/// `RUNS[start][k]`: ones in the `k` bytes from byte `start` (`start + k` at
/// most 16), so a lap's seeds are one table read, not a 128-bit shift.
static RUNS: [[u128; LANES + 1]; LANES + 1] = {
    let mut runs = [[0u128; LANES + 1]; LANES + 1];
    let mut start = 0;
    while start <= LANES {
        let mut k = 0;
        while start + k <= LANES {
            let mut byte = start;
            while byte < start + k {
                runs[start][k] |= 1 << (8 * byte);
                byte += 1;
            }
            k += 1;
        }
        start += 1;
    }
    runs
};

/// `KEEP[i]`: every byte but byte `i`, to empty a hole.
static KEEP: [u128; LANES] = {
    let mut keep = [0u128; LANES];
    let mut i = 0;
    while i < LANES {
        keep[i] = !(0xff << (8 * i));
        i += 1;
    }
    keep
};

/// The ring, one byte per hole; bytes past the ring hold 0. Kept as bytes
/// and sown as a `u128` (the low byte first): reading one hole is then one
/// byte load, never a 16-byte load of what was just stored as two halves.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Swar {
    bytes: [u8; LANES],
}

impl Swar {
    /// Byte `i` of the ring (`i` below 16), read from memory: cheaper than a
    /// 128-bit shift.
    #[inline(always)]
    fn byte(ring: u128, i: usize) -> u8 {
        ring.to_le_bytes()[i]
    }

    /// The lap from `hole`, which holds `seeds`: returns the ring after it,
    /// the ring index of the last seed and the seeds the last hole then holds.
    ///
    /// The last hole's count is read from the ring before the add (plus the
    /// seed the lap drops there), so the next lap's start does not wait for
    /// the add.
    #[inline(always)]
    fn lap(ring: u128, len: usize, hole: usize, seeds: u8) -> (u128, usize, u8) {
        let (full, rest) = if usize::from(seeds) < len {
            (0, usize::from(seeds))
        } else {
            // Whole rounds, the emptied hole included: rare, so the division
            // stays off the common path.
            let (full, rest) = (usize::from(seeds) / len, usize::from(seeds) % len);
            (full as u8, rest)
        };
        let cleared = ring & KEEP[hole];
        let last = hole + rest;
        let last = if last >= len { last - len } else { last };
        let now = Swar::byte(cleared, last) + full + u8::from(rest > 0);
        let start = hole + 1;
        let end = start + rest;
        let run = RUNS[start][rest.min(len - start)];
        let wrapped = RUNS[0][end.saturating_sub(len)];
        let mut next = cleared + (run | wrapped);
        if full > 0 {
            next += RUNS[0][len] * u128::from(full);
        }
        (next, last, now)
    }

    fn with_bytes(ring: u128) -> Swar {
        Swar {
            bytes: ring.to_le_bytes(),
        }
    }

    #[inline(always)]
    fn ring(&self) -> u128 {
        u128::from_le_bytes(self.bytes)
    }
}

impl Ring for Swar {
    fn from_rows(south: &[u32], north: &[u32]) -> Option<Swar> {
        let total: u64 = south.iter().chain(north).map(|&s| u64::from(s)).sum();
        if south.len() + north.len() > LANES || total > MAX_SEEDS {
            return None;
        }
        let mut bytes = [0u8; LANES];
        for (slot, &seeds) in bytes.iter_mut().zip(south.iter().chain(north)) {
            *slot = seeds as u8;
        }
        Some(Swar::with_bytes(u128::from_le_bytes(bytes)))
    }

    #[inline(always)]
    fn get(&self, i: usize) -> u32 {
        u32::from(self.bytes[i])
    }

    #[inline(always)]
    fn take(&mut self, i: usize) -> u32 {
        u32::from(std::mem::take(&mut self.bytes[i]))
    }

    fn sum(&self, from: usize, to: usize) -> u32 {
        (from..to).map(|i| self.get(i)).sum()
    }

    fn clear(&mut self) {
        *self = Swar::with_bytes(0);
    }

    #[inline]
    fn ends_in_one_lap(&self, len: usize, start: usize) -> bool {
        let bytes = &self.bytes;
        let seeds = usize::from(bytes[start]);
        let end = start + seeds;
        let end = if end >= len { end - len } else { end };
        seeds > 0 && seeds < len && bytes[end & (LANES - 1)] == 0
    }

    #[inline(always)]
    fn ends_in_one_lap_set(&self, len: usize, base: usize, n: usize) -> u64 {
        let bytes = &self.bytes;
        let mut set = 0u64;
        for k in 0..n {
            let i = base + k;
            let seeds = usize::from(bytes[i & (LANES - 1)]);
            let end = i + seeds;
            let end = if end >= len { end - len } else { end };
            // `&`, not `&&`: no branch on the board.
            let ends = (seeds > 0) & (seeds < len) & (bytes[end & (LANES - 1)] == 0);
            set |= u64::from(ends) << k;
        }
        set
    }

    #[inline(always)]
    fn occupied(&self, base: usize, n: usize) -> u64 {
        // The high bit of each byte of `hi` says the hole is occupied, and
        // one multiply per eight bytes gathers them into a byte.
        let low = ONE_EACH * 0x7f;
        let ring = self.ring();
        let hi = (((ring & low) + low) | ring) & !low;
        let gather = |x: u64| (x >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56;
        let bits = gather(hi as u64) | gather((hi >> 64) as u64) << 8;
        (bits >> base) & ((1u64 << n) - 1)
    }

    #[inline]
    fn sow(&mut self, len: usize, start: usize, max_laps: u32) -> Sowing {
        let mut ring = self.ring();
        let mut hole = start;
        let mut seeds = Swar::byte(ring, hole);
        let mut sown = 0u64;
        // Almost every move ends within a few laps: sow those without any
        // cycle bookkeeping, and hand the rare long ones to `sow_long`.
        for laps in 1..=max_laps.min(CYCLE_CHECK_FROM) {
            sown += u64::from(seeds);
            let (next, last, now) = Swar::lap(ring, len, hole, seeds);
            ring = next;
            if now == 1 {
                *self = Swar::with_bytes(ring);
                return Sowing::Ended { last, laps, sown };
            }
            (hole, seeds) = (last, now);
        }
        *self = Swar::with_bytes(ring);
        if max_laps <= CYCLE_CHECK_FROM {
            return Sowing::Endless;
        }
        self.sow_long(len, hole, sown, max_laps)
    }

    fn seeds(&self, len: usize) -> Seeds<'_> {
        Seeds::bytes(&self.bytes[..len])
    }
}

impl Swar {
    /// Goes on with a sowing that has run [`CYCLE_CHECK_FROM`] laps and must
    /// lift `hole` next, comparing lap-start states for a cycle (Brent's
    /// method, as [`crate::sowing::sow`] does).
    #[cold]
    #[inline(never)]
    fn sow_long(&mut self, len: usize, mut hole: usize, mut sown: u64, max_laps: u32) -> Sowing {
        let mut ring = self.ring();
        let mut laps = CYCLE_CHECK_FROM;
        let mut saved = (ring, usize::MAX);
        let (mut power, mut lambda) = (1u32, 0u32);
        let mut seeds = Swar::byte(ring, hole);
        let result = loop {
            if (ring, hole) == saved {
                break Sowing::Endless;
            }
            lambda += 1;
            if lambda >= power {
                saved = (ring, hole);
                power = power.saturating_mul(2);
                lambda = 0;
            }
            laps += 1;
            sown += u64::from(seeds);
            let (next, last, now) = Swar::lap(ring, len, hole, seeds);
            ring = next;
            if now == 1 {
                break Sowing::Ended { last, laps, sown };
            }
            if laps >= max_laps {
                break Sowing::Endless;
            }
            (hole, seeds) = (last, now);
        };
        *self = Swar::with_bytes(ring);
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ring(seeds: &[u32]) -> Swar {
        Swar::from_rows(seeds, &[]).unwrap()
    }

    #[test]
    fn a_lap_wraps_round_the_ring() {
        // Index 2 of 4 holds 3 seeds: they go to 3, 0 and 1.
        let r = ring(&[1, 0, 3, 0]);
        let (next, last, now) = Swar::lap(r.ring(), 4, 2, 3);
        assert_eq!((last, now), (1, 1));
        assert_eq!(Swar::with_bytes(next).seeds(4), [2, 1, 0, 1]);
    }

    #[test]
    fn whole_rounds_include_the_origin() {
        let (next, last, now) = Swar::lap(ring(&[9, 0, 0, 0]).ring(), 4, 0, 9);
        assert_eq!((last, now), (1, 3));
        assert_eq!(
            next,
            u128::from_le_bytes([2, 3, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])
        );
        let (_, last, now) = Swar::lap(ring(&[8, 0, 0, 0]).ring(), 4, 0, 8);
        assert_eq!((last, now), (0, 2), "whole rounds end in the emptied hole");
    }

    #[test]
    fn a_capture_empties_the_view_too() {
        let mut r = ring(&[1, 2, 3, 4]);
        assert_eq!(r.take(2), 3);
        assert_eq!(r.seeds(4), [1, 2, 0, 4]);
    }

    #[test]
    fn a_full_ring_of_sixteen_wraps_from_the_last_hole() {
        let mut seeds = [0u32; 16];
        seeds[15] = 3;
        let (next, last, now) = Swar::lap(ring(&seeds).ring(), 16, 15, 3);
        assert_eq!((last, now), (2, 1));
        assert_eq!(
            next,
            u128::from_le_bytes([1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])
        );
    }

    #[test]
    fn occupied_holes_are_gathered_into_bits() {
        let r = ring(&[0, 1, 0, 200, 0, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 1]);
        assert_eq!(r.occupied(0, 16), 0b1000_0001_0000_1010);
        assert_eq!(r.occupied(8, 8), 0b1000_0001);
    }

    #[test]
    fn sowing_matches_the_general_ring() {
        let rows = [1u32, 1, 0, 0, 5, 0];
        let mut c = ring(&rows);
        let mut g = crate::ring::General::from_rows(&rows, &[]).unwrap();
        assert_eq!(c.sow(6, 0, 100), g.sow(6, 0, 100));
        assert_eq!(c.seeds(6), g.seeds(6));
        assert_eq!(c.sow(6, 4, 100), g.sow(6, 4, 100));
        assert_eq!(c.seeds(6), g.seeds(6));
    }
}
