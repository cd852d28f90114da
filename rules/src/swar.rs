//! The compact ring: up to 16 or 32 holes of at most 255 seeds, one byte
//! each, sown in one or two `u128` words that live in registers (SIMD within
//! a register). Boards up to 2x8 take one word, up to 2x16 two.
//!
//! A lap is sown at once (RULES.md, "A move"): clear the lifted hole's byte,
//! add `seeds / 2n` to every byte if it goes round, and add a run of ones to
//! the `seeds mod 2n` bytes after it, wrapping once at most. No byte ever
//! carries into the next, since no hole holds more than the board's 255 seeds.

use crate::ring::{Glance, Ring, Seeds};
use crate::sowing::{Sowing, CYCLE_CHECK_FROM};

/// The most seeds a compact board holds, so that no hole overflows a byte.
const MAX_SEEDS: u64 = u8::MAX as u64;

/// Bytes in one word of the ring.
const LANES: usize = 16;

/// `PREFIX[k][w]`: word `w` of a 32-byte ring with a one in bytes `0..k`.
/// The ones in bytes `a..b` are `PREFIX[b] - PREFIX[a]`, byte by byte, with
/// no borrow: a lap's run of seeds is table reads, not 128-bit shifts.
static PREFIX: [[u128; 2]; 2 * LANES + 1] = {
    let mut prefix = [[0u128; 2]; 2 * LANES + 1];
    let mut k = 0;
    while k <= 2 * LANES {
        let mut byte = 0;
        while byte < k {
            prefix[k][byte / LANES] |= 1 << (8 * (byte % LANES));
            byte += 1;
        }
        k += 1;
    }
    prefix
};

/// The largest board the compact ring takes, in holes per row.
const MAX_ROW: usize = LANES;

/// `OFFSETS[n]`: where the steps of a board of `n` holes per row start in
/// [`STEPS`]; each board has `(2n)^2` of them, by lifted hole and seeds.
static OFFSETS: [usize; MAX_ROW + 2] = {
    let mut offsets = [0usize; MAX_ROW + 2];
    let mut n = 2;
    while n <= MAX_ROW {
        offsets[n + 1] = offsets[n] + 4 * n * n;
        n += 1;
    }
    offsets
};

/// What a lap of `s` seeds from hole `h` adds to the ring, for `s` below the
/// ring's length `L`: a one in each of the holes `h + 1 ..= h + s` (mod `L`),
/// less the `s` seeds lifted from `h`, as one 256-bit number (two's
/// complement, low word first). The sum is exact byte by byte since no hole
/// ever holds less than 0 or more than 255 seeds, so a lap is one table read
/// and one wide add. Entry `OFFSETS[n] + h * 2n + s`; one-word rings add the
/// low word only, modulo 2^128.
static STEPS: [[u128; 2]; OFFSETS[MAX_ROW + 1]] = {
    let mut steps = [[0u128; 2]; OFFSETS[MAX_ROW + 1]];
    let mut n = 2;
    while n <= MAX_ROW {
        let len = 2 * n;
        let mut h = 0;
        while h < len {
            let mut s = 1;
            while s < len {
                // The ones, then the lifted seeds taken off with a borrow.
                let mut add = [0u128; 2];
                let mut j = 1;
                while j <= s {
                    let at = (h + j) % len;
                    add[at / LANES] |= 1 << (8 * (at % LANES));
                    j += 1;
                }
                let lifted = (s as u128) << (8 * (h % LANES));
                let mut take = [0u128; 2];
                take[h / LANES] = lifted;
                let (lo, borrow) = add[0].overflowing_sub(take[0]);
                let hi = add[1].wrapping_sub(take[1]).wrapping_sub(borrow as u128);
                steps[OFFSETS[n] + h * len + s] = [lo, hi];
                s += 1;
            }
            h += 1;
        }
        n += 1;
    }
    steps
};

/// The ring of `16 * WORDS` byte-sized holes, one `u128` word per 16 holes
/// (the low byte first); bytes past the ring hold 0. Kept as bytes and sown
/// as words: reading one hole is then one byte load, never a 16-byte load of
/// what was just stored as two halves.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Swar<const WORDS: usize> {
    bytes: [[u8; LANES]; WORDS],
}

/// The words of a ring, in registers while it is sown.
type Words<const WORDS: usize> = [u128; WORDS];

impl<const WORDS: usize> Swar<WORDS> {
    /// Byte `i` of the ring, read from memory: cheaper than a shift.
    #[inline(always)]
    fn byte(ring: &Words<WORDS>, i: usize) -> u8 {
        // A select between the words, not an index: an index would keep
        // the ring in memory.
        let word = if WORDS > 1 && i >= LANES {
            ring[WORDS - 1]
        } else {
            ring[0]
        };
        word.to_le_bytes()[i % LANES]
    }

    /// The words with a one in bytes `a..b` (`a <= b`, both at most 32).
    #[inline(always)]
    fn run(a: usize, b: usize) -> Words<WORDS> {
        let (hi, lo) = (&PREFIX[b], &PREFIX[a]);
        std::array::from_fn(|w| hi[w] - lo[w])
    }

    /// The lap from `hole`, which holds `seeds`: returns the ring after it,
    /// the ring index of the last seed and the seeds the last hole then holds.
    ///
    /// The last hole's count is read from the ring before the add (plus the
    /// seed the lap drops there), so the next lap's start does not wait for
    /// the add.
    #[inline(always)]
    fn lap(
        steps: &[[u128; 2]],
        mut ring: Words<WORDS>,
        len: usize,
        hole: usize,
        seeds: u8,
    ) -> (Words<WORDS>, usize, u8) {
        let s = usize::from(seeds);
        if s < len {
            // The common lap: one table read and one wide add. The last hole
            // is not the lifted one, and gains one seed.
            let last = hole + s;
            let last = if last >= len { last - len } else { last };
            let now = Self::byte(&ring, last) + 1;
            let step = &steps[hole * len + s];
            let (lo, carry) = ring[0].overflowing_add(step[0]);
            ring[0] = lo;
            if WORDS > 1 {
                ring[WORDS - 1] = ring[WORDS - 1]
                    .wrapping_add(step[1])
                    .wrapping_add(u128::from(carry));
            }
            return (ring, last, now);
        }
        Self::lap_round(ring, len, hole, seeds)
    }

    /// A lap that goes all the way round: rare, so its division stays off
    /// the common path.
    #[cold]
    #[inline(never)]
    fn lap_round(
        mut ring: Words<WORDS>,
        len: usize,
        hole: usize,
        seeds: u8,
    ) -> (Words<WORDS>, usize, u8) {
        // Whole rounds, the emptied hole included, then the rest.
        let (full, rest) = ((usize::from(seeds) / len) as u8, usize::from(seeds) % len);
        let clear = Self::run(hole, hole + 1);
        for (w, c) in ring.iter_mut().zip(clear) {
            *w &= !(c * 0xff);
        }
        let last = hole + rest;
        let last = if last >= len { last - len } else { last };
        let now = Self::byte(&ring, last) + full + u8::from(rest > 0);
        let start = hole + 1;
        let end = start + rest;
        let run = Self::run(start, end.min(len));
        let wrapped = Self::run(0, end.saturating_sub(len));
        for ((w, r), x) in ring.iter_mut().zip(run).zip(wrapped) {
            *w += r + x;
        }
        if full > 0 {
            for (w, r) in ring.iter_mut().zip(Self::run(0, len)) {
                *w += r * u128::from(full);
            }
        }
        (ring, last, now)
    }

    /// The board's steps in [`STEPS`], by lifted hole and seeds.
    #[inline(always)]
    fn steps(len: usize) -> &'static [[u128; 2]] {
        let n = len / 2;
        &STEPS[OFFSETS[n]..OFFSETS[n + 1]]
    }

    fn from_words(ring: Words<WORDS>) -> Self {
        Swar {
            bytes: ring.map(u128::to_le_bytes),
        }
    }

    #[inline(always)]
    fn words(&self) -> Words<WORDS> {
        self.bytes.map(u128::from_le_bytes)
    }

    #[inline(always)]
    fn at(&self, i: usize) -> u8 {
        // WORDS is 1 or 2, so the mask keeps any index on the ring's bytes
        // and the compiler drops the bounds check.
        self.bytes.as_flattened()[i & (LANES * WORDS - 1)]
    }
}

impl<const WORDS: usize> Ring for Swar<WORDS> {
    fn from_rows(south: &[u32], north: &[u32]) -> Option<Self> {
        let total: u64 = south.iter().chain(north).map(|&s| u64::from(s)).sum();
        if south.len() + north.len() > LANES * WORDS || total > MAX_SEEDS {
            return None;
        }
        let mut bytes = [[0u8; LANES]; WORDS];
        for (i, &seeds) in south.iter().chain(north).enumerate() {
            bytes[i / LANES][i % LANES] = seeds as u8;
        }
        Some(Swar { bytes })
    }

    #[inline(always)]
    fn get(&self, i: usize) -> u32 {
        u32::from(self.at(i))
    }

    #[inline(always)]
    fn take(&mut self, i: usize) -> u32 {
        u32::from(std::mem::take(
            &mut self.bytes[(i / LANES) % WORDS][i % LANES],
        ))
    }

    fn sum(&self, from: usize, to: usize) -> u32 {
        (from..to).map(|i| self.get(i)).sum()
    }

    fn clear(&mut self) {
        self.bytes = [[0; LANES]; WORDS];
    }

    /// Sows several candidates in lockstep: each sowing is a chain of
    /// dependent reads, so interleaving them lets the processor work on
    /// them at once. A finished lane keeps its state (a select, not a branch).
    fn quick_ends(&self, len: usize, base: usize, holes: u64, limit: u32) -> u64 {
        const AT_ONCE: usize = 2;
        let steps = Self::steps(len);
        let start = self.words();
        let mut ended = 0u64;
        let mut rest = holes;
        while rest != 0 {
            let mut bit = [0u32; AT_ONCE];
            let mut live = 0u32;
            let mut ring = [start; AT_ONCE];
            let mut hole = [0usize; AT_ONCE];
            let mut seeds = [1u8; AT_ONCE];
            for j in 0..AT_ONCE {
                if rest != 0 {
                    bit[j] = rest.trailing_zeros();
                    rest &= rest - 1;
                    hole[j] = base + bit[j] as usize;
                    seeds[j] = self.at(hole[j]);
                    live |= 1 << j;
                }
            }
            let mut laps = 0;
            while live != 0 && laps < limit {
                laps += 1;
                for j in 0..AT_ONCE {
                    let (next, last, now) = Self::lap(steps, ring[j], len, hole[j], seeds[j]);
                    let alive = live & (1 << j) != 0;
                    ring[j] = if alive { next } else { ring[j] };
                    hole[j] = if alive { last } else { hole[j] };
                    seeds[j] = if alive { now } else { seeds[j] };
                    let done = alive & (now == 1);
                    ended |= u64::from(done) << bit[j];
                    live &= !(u32::from(done) << j);
                }
            }
        }
        ended
    }

    #[inline(always)]
    fn glance(&self, len: usize, base: usize, n: usize) -> Glance {
        // Each hole's end is a bit of a register of empty holes, not a
        // memory read, with no branch on the board. The register holds the
        // ring twice over, so `i + seeds` needs no wrap for seeds below
        // `len`; any other count looks at bit `i`, which is clear for an
        // occupied hole, and empty holes are masked off at the end.
        let occupied = self.occupied(0, len);
        let empty = !occupied & ((1u64 << len) - 1);
        let twice = empty | empty << len;
        let glance = |k: usize| {
            let i = base + k;
            let seeds = usize::from(self.at(i));
            let end = if seeds < len { i + seeds } else { i };
            ((twice >> end) & 1) << k
        };
        // The trip count of the usual boards is a constant, so the glance
        // unrolls into straight code.
        #[inline(always)]
        fn unrolled<const N: usize>(glance: impl Fn(usize) -> u64) -> u64 {
            (0..N).fold(0, |set, k| set | glance(k))
        }
        let set = match n {
            6 => unrolled::<6>(glance),
            8 => unrolled::<8>(glance),
            10 => unrolled::<10>(glance),
            _ => (0..n).fold(0, |set, k| set | glance(k)),
        };
        let row = (occupied >> base) & ((1u64 << n) - 1);
        Glance {
            occupied: row,
            ends: set & row,
        }
    }

    #[inline(always)]
    fn occupied(&self, base: usize, n: usize) -> u64 {
        // The high bit of each byte of `hi` says the hole is occupied, and
        // one multiply per eight bytes gathers them into a byte.
        let low = 0x7f7f_7f7f_7f7f_7f7f_u64;
        let mut bits = 0u64;
        for (i, chunk) in self.bytes.as_flattened().chunks_exact(8).enumerate() {
            let limb = u64::from_le_bytes(chunk.try_into().expect("8 bytes"));
            let hi = (((limb & low) + low) | limb) & !low;
            bits |= ((hi >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) << (8 * i);
        }
        (bits >> base) & ((1u64 << n) - 1)
    }

    #[inline(always)]
    fn sow(&mut self, len: usize, start: usize, max_laps: u32) -> Sowing {
        let mut ring = self.words();
        let mut hole = start;
        let mut seeds = self.at(hole);
        let mut sown = 0u64;
        // Almost every move ends within a few laps: sow those without any
        // cycle bookkeeping, and hand the rare long ones to `sow_long`.
        let steps = Self::steps(len);
        let quick = max_laps.min(CYCLE_CHECK_FROM);
        let mut laps = 0;
        while laps < quick {
            laps += 1;
            sown += u64::from(seeds);
            let (next, last, now) = Self::lap(steps, ring, len, hole, seeds);
            ring = next;
            if now == 1 {
                *self = Self::from_words(ring);
                return Sowing::Ended { last, laps, sown };
            }
            (hole, seeds) = (last, now);
        }
        if max_laps <= CYCLE_CHECK_FROM {
            return Sowing::Endless;
        }
        // The long sowing goes on in a copy, kept only if it ends.
        let mut long = Self::from_words(ring);
        let sowing = long.sow_long(len, hole, seeds, sown, max_laps);
        if let Sowing::Ended { .. } = sowing {
            *self = long;
        }
        sowing
    }

    fn seeds(&self, len: usize) -> Seeds<'_> {
        Seeds::bytes(&self.bytes.as_flattened()[..len])
    }
}

impl<const WORDS: usize> Swar<WORDS> {
    /// Goes on with a sowing that has run [`CYCLE_CHECK_FROM`] laps to
    /// `self` and must lift the `seeds` of `hole` next. Lap-start states are compared for a cycle
    /// (Brent's method, as [`crate::sowing::sow`] does).
    #[cold]
    #[inline(never)]
    fn sow_long(
        &mut self,
        len: usize,
        mut hole: usize,
        mut seeds: u8,
        mut sown: u64,
        max_laps: u32,
    ) -> Sowing {
        let mut ring = self.words();
        let steps = Self::steps(len);
        let mut laps = CYCLE_CHECK_FROM;
        let mut saved = (ring, usize::MAX);
        let (mut power, mut lambda) = (1u32, 0u32);
        let sowing = loop {
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
            let (next, last, now) = Self::lap(steps, ring, len, hole, seeds);
            ring = next;
            if now == 1 {
                break Sowing::Ended { last, laps, sown };
            }
            if laps >= max_laps {
                break Sowing::Endless;
            }
            (hole, seeds) = (last, now);
        };
        *self = Self::from_words(ring);
        sowing
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ring(seeds: &[u32]) -> Swar<1> {
        Swar::from_rows(seeds, &[]).unwrap()
    }

    fn word(bytes: &[u8]) -> [u128; 1] {
        let mut b = [0u8; 16];
        b[..bytes.len()].copy_from_slice(bytes);
        [u128::from_le_bytes(b)]
    }

    #[test]
    fn a_lap_wraps_round_the_ring() {
        // Index 2 of 4 holds 3 seeds: they go to 3, 0 and 1.
        let r = ring(&[1, 0, 3, 0]);
        let (next, last, now) = Swar::lap(Swar::<1>::steps(4), r.words(), 4, 2, 3);
        assert_eq!((last, now), (1, 1));
        assert_eq!(Swar::from_words(next).seeds(4), [2, 1, 0, 1]);
    }

    #[test]
    fn whole_rounds_include_the_origin() {
        let (next, last, now) =
            Swar::lap(Swar::<1>::steps(4), ring(&[9, 0, 0, 0]).words(), 4, 0, 9);
        assert_eq!((last, now), (1, 3));
        assert_eq!(next, word(&[2, 3, 2, 2]));
        let (_, last, now) = Swar::lap(Swar::<1>::steps(4), ring(&[8, 0, 0, 0]).words(), 4, 0, 8);
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
        let (next, last, now) = Swar::lap(Swar::<1>::steps(16), ring(&seeds).words(), 16, 15, 3);
        assert_eq!((last, now), (2, 1));
        assert_eq!(next, word(&[1, 1, 1]));
    }

    #[test]
    fn two_words_carry_a_lap_across_their_boundary() {
        // 2x10: index 14 holds 9 seeds, sown to 15..=19 and wrapping to 0..=3.
        let mut seeds = [0u32; 20];
        seeds[14] = 9;
        seeds[3] = 1;
        let r = Swar::<2>::from_rows(&seeds, &[]).unwrap();
        let (next, last, now) = Swar::<2>::lap(Swar::<2>::steps(20), r.words(), 20, 14, 9);
        assert_eq!((last, now), (3, 2));
        let after = Swar::<2>::from_words(next);
        assert_eq!(
            after.seeds(20),
            [1, 1, 1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1]
        );
        assert_eq!(after.occupied(10, 10), 0b11_1110_0000);
        assert!(Swar::<2>::from_rows(&[0; 17], &[0; 16]).is_none());
    }

    #[test]
    fn occupied_holes_are_gathered_into_bits() {
        let r = ring(&[0, 1, 0, 200, 0, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 1]);
        assert_eq!(r.occupied(0, 16), 0b1000_0001_0000_1010);
        assert_eq!(r.occupied(8, 8), 0b1000_0001);
    }

    #[test]
    fn an_endless_sowing_leaves_the_ring_as_it_was() {
        // RULES.md's example: North's hole 1 (index 4) is endless, a cycle
        // of 57 laps, found on the long path; with max_laps 10 it stops on
        // the quick one.
        let rows = [0u32, 5, 0, 1, 2, 0, 6, 5];
        for max_laps in [10, 100_000] {
            let mut c = Swar::<1>::from_rows(&rows, &[]).unwrap();
            let mut g = crate::ring::General::from_rows(&rows, &[]).unwrap();
            assert_eq!(c.sow(8, 4, max_laps), Sowing::Endless);
            assert_eq!(g.sow(8, 4, max_laps), Sowing::Endless);
            assert_eq!(c.seeds(8), rows);
            assert_eq!(g.seeds(8), rows);
        }
    }

    #[test]
    fn sowing_matches_the_general_ring() {
        let rows = [1u32, 1, 0, 0, 5, 0];
        let mut c = ring(&rows);
        let mut g = crate::ring::General::from_rows(&rows, &[]).unwrap();
        assert!(Swar::<1>::from_rows(&[255], &[1]).is_none());
        assert_eq!(c.sow(6, 0, 100), g.sow(6, 0, 100));
        assert_eq!(c.seeds(6), g.seeds(6));
        assert_eq!(c.sow(6, 4, 100), g.sow(6, 4, 100));
        assert_eq!(c.seeds(6), g.seeds(6));
    }
}
