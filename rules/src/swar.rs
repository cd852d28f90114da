//! The compact ring: up to 16 or 32 holes of at most 255 seeds, one byte
//! each, in one or two 16-byte words, sown as 64-bit limbs of eight holes
//! that live in registers (SIMD within a register). Boards up to 2x8 take
//! one word, 2x9 to 2x16 two.
//!
//! A lap of fewer seeds than holes is sown at once (RULES.md, "A move"): one
//! precomputed step per (board, lifted hole, seeds), the lifted seeds taken
//! off and a one added to each hole sown, added limb by limb; no byte leaves
//! 0 to 255, so no limb carries into the next. A lap that goes all the way
//! round takes a cold byte loop. The lap's critical path is one byte read
//! (see [`Swar::lap`]).

use crate::ring::{Glance, Ring, Seeds};
use crate::sowing::{Sowing, CYCLE_CHECK_FROM};

/// The most seeds a compact board holds, so that no hole overflows a byte.
const MAX_SEEDS: u64 = u8::MAX as u64;

/// Bytes in one word of the ring.
const LANES: usize = 16;

/// The largest board the compact ring takes, in holes per row.
const MAX_ROW: usize = LANES;

/// Steps per lifted hole in [`STEPS`]: the seeds of a common lap are below
/// the ring's length, so a power of two at least that long (an index is then
/// a shift, not a multiply).
const fn stride(n: usize) -> usize {
    if 2 * n <= LANES {
        LANES
    } else {
        2 * LANES
    }
}

/// `OFFSETS[n]`: where the steps of a board of `n` holes per row start in
/// [`STEPS`]; each board has `2n * stride(n)` of them, by lifted hole and seeds.
static OFFSETS: [usize; MAX_ROW + 2] = {
    let mut offsets = [0usize; MAX_ROW + 2];
    let mut n = 2;
    while n <= MAX_ROW {
        offsets[n + 1] = offsets[n] + 2 * n * stride(n);
        n += 1;
    }
    offsets
};

/// What a lap of `s` seeds from hole `h` adds to the ring, for `s` below the
/// ring's length: a one in each of the holes `h + 1 ..= h + s` (mod `2n`),
/// less the `s` seeds lifted from `h`, as four 64-bit limbs of eight holes
/// each, each to be added with wrapping. No byte of a limb ever goes below 0
/// or above 255 (hole `h` holds exactly `s`, no hole more than the board's
/// 255 seeds), so no limb carries into the next: the limbs add
/// independently. Entry `OFFSETS[n] + h * stride(n) + s`.
static STEPS: [[u64; 4]; OFFSETS[MAX_ROW + 1]] = {
    let mut steps = [[0u64; 4]; OFFSETS[MAX_ROW + 1]];
    let mut n = 2;
    while n <= MAX_ROW {
        let len = 2 * n;
        let mut h = 0;
        while h < len {
            let mut s = 1;
            while s < len {
                let mut step = [0u64; 4];
                let mut j = 1;
                while j <= s {
                    let at = (h + j) % len;
                    step[at / 8] = step[at / 8].wrapping_add(1 << (8 * (at % 8)));
                    j += 1;
                }
                step[h / 8] = step[h / 8].wrapping_sub((s as u64) << (8 * (h % 8)));
                steps[OFFSETS[n] + h * stride(n) + s] = step;
                s += 1;
            }
            h += 1;
        }
        n += 1;
    }
    steps
};

/// The ring of `16 * WORDS` byte-sized holes (the low byte first); bytes
/// past the ring hold 0. Kept as bytes, so reading one hole is one byte
/// load, and sown as 64-bit limbs in registers.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Swar<const WORDS: usize> {
    bytes: [[u8; LANES]; WORDS],
}

/// The ring as limbs of eight holes, two per word, while it is sown.
type Limbs<const WORDS: usize> = [[u64; 2]; WORDS];

/// The ring as it was at the start of the previous lap, twice over in a row
/// (hole `i` at bytes `i` and `len + i`), in memory. A lap reads its last
/// hole here, with no wrap, and adds what the previous lap put there (see
/// [`Swar::lap`]): the read then never waits for the previous lap's add,
/// only for the add before it, which is long done.
struct Echo<const WORDS: usize> {
    bytes: [[[u8; LANES]; WORDS]; 2],
}

impl<const WORDS: usize> Echo<WORDS> {
    /// Makes the echo, which the caller built as two copies of `ring`'s
    /// words (`Echo { bytes: [ring.bytes; 2] }`), the echo of `ring`: the
    /// second copy moves to start at `len`. Built in place by the caller: a
    /// constructor returning it was copied, and the copy's wide loads of
    /// narrow stores stalled.
    #[inline(always)]
    fn start(&mut self, ring: &Swar<WORDS>, len: usize) {
        let ring = ring.bytes.as_flattened();
        let bytes = self.bytes.as_flattened_mut().as_flattened_mut();
        let at = len.min(ring.len());
        bytes[at..at + ring.len()].copy_from_slice(ring);
    }

    /// Keeps `ring` for the next lap to read, with hole `lifted` (below
    /// `len`) emptied: the lap about to be sown lifts it.
    #[inline(always)]
    fn store_lifting(&mut self, ring: &Limbs<WORDS>, len: usize, lifted: usize) {
        self.store(ring, len);
        let bytes = self.bytes.as_flattened_mut().as_flattened_mut();
        let mask = 2 * LANES * WORDS - 1;
        bytes[lifted & mask] = 0;
        bytes[(lifted + len) & mask] = 0;
    }

    /// Keeps `ring` for the next lap to read.
    #[inline(always)]
    fn store(&mut self, ring: &Limbs<WORDS>, len: usize) {
        let ring = Swar::from_limbs(*ring);
        let ring = ring.bytes.as_flattened();
        let bytes = self.bytes.as_flattened_mut().as_flattened_mut();
        bytes[..ring.len()].copy_from_slice(ring);
        // The second copy starts at `len`, overwriting the zeros past the
        // first; `len` is at most the ring's bytes, so both fit.
        let at = len.min(ring.len());
        bytes[at..at + ring.len()].copy_from_slice(ring);
    }

    /// The ring of `len` holes it holds, the bytes past it 0 (there the
    /// echo holds the start of its second copy).
    #[cold]
    fn ring(&self, len: usize) -> Limbs<WORDS> {
        let mut ring = Swar {
            bytes: self.bytes[0],
        };
        ring.bytes.as_flattened_mut()[len..].fill(0);
        ring.limbs()
    }

    /// Hole `i mod len`, for `i` below `2 * len`.
    #[inline(always)]
    fn get(&self, i: usize) -> u8 {
        self.bytes.as_flattened().as_flattened()[i & (2 * LANES * WORDS - 1)]
    }
}

impl<const WORDS: usize> Swar<WORDS> {
    /// The lap from `hole`, which holds `seeds`, the previous lap having
    /// lifted `before` seeds (0 for none, or when the echo holds `ring`
    /// itself). Adds the lap to `ring` and returns the ring index of the last
    /// seed, the seeds the last hole then holds, and the `before` of the next
    /// lap (`seeds`, or 0 after a lap that went round, which leaves the echo
    /// holding the ring itself).
    ///
    /// The last hole's count is read from the echo, the ring at the start of
    /// the previous lap with the hole it lifted emptied, plus what the
    /// previous lap sowed there. That lap sowed the `before` holes up to
    /// `hole`, so the last hole, `seeds` further on, is one of them when
    /// `before + seeds` goes past `len` (one more seed), or else untouched;
    /// and this lap drops one seed there.
    #[inline(always)]
    fn lap(
        steps: &[[u64; 4]],
        ring: &mut Limbs<WORDS>,
        echo: &mut Echo<WORDS>,
        len: usize,
        hole: usize,
        seeds: u8,
        before: u8,
    ) -> (usize, u8, u8) {
        let s = usize::from(seeds);
        if s >= len {
            // The ring goes to the cold path and back through the echo, so
            // its address never escapes and it stays in registers.
            echo.store(ring, len);
            let (last, now) = Self::lap_round(echo, len, hole, seeds);
            *ring = echo.ring(len);
            return (last, now, 0);
        }
        let at = hole + s;
        let read = echo.get(at);
        let sown_there = s + usize::from(before) > len;
        let now = read + 1 + u8::from(sown_there);
        let last = if at >= len { at - len } else { at };
        echo.store_lifting(ring, len, hole);
        let step = &steps[(hole << stride_bits::<WORDS>()) | s];
        for (w, word) in ring.iter_mut().enumerate() {
            for (l, limb) in word.iter_mut().enumerate() {
                *limb = limb.wrapping_add(step[(2 * w + l) % 4]);
            }
        }
        (last, now, seeds)
    }

    /// A lap that goes all the way round (RULES.md: the emptied hole is not
    /// skipped): rare, so its division and byte loop stay off the common
    /// path. Sows the ring the echo holds, leaving the ring after it there
    /// (the next lap then reads it directly: `before` 0), and returns the
    /// last hole and its seeds.
    #[cold]
    #[inline(never)]
    fn lap_round(echo: &mut Echo<WORDS>, len: usize, hole: usize, seeds: u8) -> (usize, u8) {
        let mut board = Swar {
            bytes: echo.bytes[0],
        };
        let bytes = board.bytes.as_flattened_mut();
        let (full, rest) = (usize::from(seeds) / len, usize::from(seeds) % len);
        bytes[hole] = 0;
        for b in &mut bytes[..len] {
            *b += full as u8;
        }
        for j in 1..=rest {
            bytes[(hole + j) % len] += 1;
        }
        let last = (hole + rest) % len;
        let now = bytes[last];
        echo.store(&board.limbs(), len);
        (last, now)
    }

    /// The board's steps in [`STEPS`], by lifted hole and seeds.
    #[inline(always)]
    fn steps(len: usize) -> &'static [[u64; 4]] {
        let n = len / 2;
        debug_assert!(
            len.is_multiple_of(2) && stride(n) == 1 << stride_bits::<WORDS>(),
            "a board of {len} holes on {WORDS} words"
        );
        &STEPS[OFFSETS[n]..OFFSETS[n + 1]]
    }

    #[inline(always)]
    fn from_limbs(ring: Limbs<WORDS>) -> Self {
        Swar {
            bytes: ring.map(|[lo, hi]| {
                let mut word = [0u8; LANES];
                word[..8].copy_from_slice(&lo.to_le_bytes());
                word[8..].copy_from_slice(&hi.to_le_bytes());
                word
            }),
        }
    }

    #[inline(always)]
    fn limbs(&self) -> Limbs<WORDS> {
        self.bytes.map(|word| {
            let (lo, hi) = word.split_at(8);
            [
                u64::from_le_bytes(lo.try_into().expect("8 bytes")),
                u64::from_le_bytes(hi.try_into().expect("8 bytes")),
            ]
        })
    }

    #[inline(always)]
    fn at(&self, i: usize) -> u8 {
        // WORDS is 1 or 2, so the mask keeps any index on the ring's bytes
        // and the compiler drops the bounds check.
        self.bytes.as_flattened()[i & (LANES * WORDS - 1)]
    }
}

/// log2 of the [`stride`] of every board that takes `WORDS` words.
const fn stride_bits<const WORDS: usize>() -> u32 {
    (LANES * WORDS).trailing_zeros()
}

impl<const WORDS: usize> Ring for Swar<WORDS> {
    fn from_rows(south: &[u32], north: &[u32]) -> Option<Self> {
        let total: u64 = south.iter().chain(north).map(|&s| u64::from(s)).sum();
        // Each board takes the fewest words that hold it, so its steps'
        // stride is the one `stride_bits` gives.
        let len = south.len() + north.len();
        if len > LANES * WORDS || len <= LANES * (WORDS - 1) || total > MAX_SEEDS {
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
    fn take_if(&mut self, i: usize, take: bool) -> u32 {
        // A mask, not a branch.
        let keep = u8::from(take).wrapping_sub(1);
        let byte = &mut self.bytes[(i / LANES) % WORDS][i % LANES];
        let seeds = *byte & !keep;
        *byte &= keep;
        u32::from(seeds)
    }

    fn sum(&self, from: usize, to: usize) -> u32 {
        (from..to).map(|i| self.get(i)).sum()
    }

    fn clear(&mut self) {
        self.bytes = [[0; LANES]; WORDS];
    }

    #[inline(always)]
    fn glance(&self, len: usize, base: usize, n: usize) -> Glance {
        // Each hole's end is read from the ring laid twice over in a row,
        // so `i + seeds` needs no wrap for seeds below `len`; any other
        // count reads hole `i` itself, occupied. Empty holes read as ending
        // and are masked off at the end. No branch on the board, and no
        // variable shift.
        let occupied = self.occupied(0, len);
        let mut twice = Echo {
            bytes: [self.bytes; 2],
        };
        twice.start(self, len);
        let glance = |i: usize, seeds: u8| {
            let seeds = usize::from(seeds);
            let seeds = if seeds < len { seeds } else { 0 };
            u64::from(twice.get(i + seeds) == 0)
        };
        // The trip count of the usual boards is a constant, so the glance
        // unrolls into straight code; the bits go in from the top, each one
        // shift-and-add.
        #[inline(always)]
        fn unrolled<const N: usize>(
            ring: &[u8],
            base: usize,
            glance: impl Fn(usize, u8) -> u64,
        ) -> u64 {
            let row: &[u8; N] = ring[base..base + N].try_into().expect("the row");
            (0..N)
                .rev()
                .fold(0, |set, k| 2 * set + glance(base + k, row[k]))
        }
        let ring = self.bytes.as_flattened();
        let set = match n {
            6 => unrolled::<6>(ring, base, glance),
            8 => unrolled::<8>(ring, base, glance),
            10 => unrolled::<10>(ring, base, glance),
            _ => (0..n)
                .rev()
                .fold(0, |set, k| 2 * set + glance(base + k, self.at(base + k))),
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
        let (sowing, ring) = self.sown(len, start, max_laps);
        if let Sowing::Ended { .. } = sowing {
            *self = Self::from_limbs(ring);
        }
        sowing
    }

    #[inline(always)]
    fn ends(&self, len: usize, start: usize, max_laps: u32) -> bool {
        matches!(self.sown(len, start, max_laps).0, Sowing::Ended { .. })
    }

    fn seeds(&self, len: usize) -> Seeds<'_> {
        Seeds::bytes(&self.bytes.as_flattened()[..len])
    }
}

impl<const WORDS: usize> Swar<WORDS> {
    /// The sowing from `start`, and the ring after it (meaningful if it
    /// ended), leaving `self` as it is: what [`Ring::sow`] keeps and
    /// [`Ring::ends`] only looks at.
    #[inline(always)]
    fn sown(&self, len: usize, start: usize, max_laps: u32) -> (Sowing, Limbs<WORDS>) {
        let mut ring = self.limbs();
        let mut echo = Echo {
            bytes: [self.bytes; 2],
        };
        echo.start(self, len);
        let (mut hole, mut seeds, mut before) = (start, self.at(start), 0);
        let mut sown = 0u64;
        // Almost every move ends within a few laps: sow those without any
        // cycle bookkeeping, and hand the rare long ones to `sow_long`.
        let steps = Self::steps(len);
        let quick = max_laps.min(CYCLE_CHECK_FROM);
        let mut laps = 0;
        while laps < quick {
            laps += 1;
            sown += u64::from(seeds);
            let (last, now, lifted) =
                Self::lap(steps, &mut ring, &mut echo, len, hole, seeds, before);
            if now == 1 {
                return (Sowing::Ended { last, laps, sown }, ring);
            }
            (hole, seeds, before) = (last, now, lifted);
        }
        if max_laps <= CYCLE_CHECK_FROM {
            return (Sowing::Endless, ring);
        }
        let mut long = Self::from_limbs(ring);
        let sowing = long.sow_long(len, hole, seeds, sown, max_laps);
        (sowing, long.limbs())
    }

    /// Goes on with a sowing that has run [`CYCLE_CHECK_FROM`] laps to
    /// `self` and must lift the `seeds` of `hole` next. Lap-start states are
    /// compared for a cycle (Brent's method, as [`crate::sowing::sow`] does).
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
        // The ring comes and goes through `self`, not as an argument and a
        // result: passed by value, it was kept in memory for the whole loop
        // (a lap took 12 ns on 2x10, against 4.5 ns so). The echo starts
        // over from it, built from the limbs as in `Echo::store` (built from
        // `self.bytes` as in `sown`, this loop measured slower), so the next
        // lap reads the ring directly.
        let mut ring = self.limbs();
        let mut before = 0;
        let first = Self::from_limbs(ring).bytes;
        let mut echo = Echo { bytes: [first; 2] };
        echo.store(&ring, len);
        let steps = Self::steps(len);
        let mut laps = CYCLE_CHECK_FROM;
        let mut power = 1u32;
        // Brent's teleporting tortoise: the state at the start of each block
        // of `power` laps is kept, and each lap's state compared with it
        // (the hole first: it rarely matches, so the ring's compare is
        // seldom made); blocks double.
        let sowing = 'sowing: loop {
            let (saved_ring, saved_hole) = (ring, hole);
            for _ in 0..power.min(max_laps - laps) {
                laps += 1;
                sown += u64::from(seeds);
                let (last, now, lifted) =
                    Self::lap(steps, &mut ring, &mut echo, len, hole, seeds, before);
                if now == 1 {
                    break 'sowing Sowing::Ended { last, laps, sown };
                }
                (hole, seeds, before) = (last, now, lifted);
                if hole == saved_hole && ring == saved_ring {
                    break 'sowing Sowing::Endless;
                }
            }
            if laps >= max_laps {
                break Sowing::Endless;
            }
            power = power.saturating_mul(2);
        };
        *self = Self::from_limbs(ring);
        sowing
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ring(seeds: &[u32]) -> Swar<1> {
        Swar::from_rows(seeds, &[]).unwrap()
    }

    fn ended(last: usize, laps: u32, sown: u64) -> Sowing {
        Sowing::Ended { last, laps, sown }
    }

    /// One lap from `hole` of a ring of `len`, from a fresh echo.
    fn lap<const W: usize>(r: Swar<W>, len: usize, hole: usize) -> (Swar<W>, usize, u8) {
        let mut ring = r.limbs();
        let mut echo = Echo {
            bytes: [r.bytes; 2],
        };
        echo.start(&r, len);
        let (last, now, _) = Swar::<W>::lap(
            Swar::<W>::steps(len),
            &mut ring,
            &mut echo,
            len,
            hole,
            r.at(hole),
            0,
        );
        (Swar::from_limbs(ring), last, now)
    }

    #[test]
    fn a_lap_wraps_round_the_ring() {
        // Index 2 of 4 holds 3 seeds: they go to 3, 0 and 1.
        let (next, last, now) = lap(ring(&[1, 0, 3, 0]), 4, 2);
        assert_eq!((last, now), (1, 1));
        assert_eq!(next.seeds(4), [2, 1, 0, 1]);
    }

    #[test]
    fn whole_rounds_include_the_origin() {
        let (next, last, now) = lap(ring(&[9, 0, 0, 0]), 4, 0);
        assert_eq!((last, now), (1, 3));
        assert_eq!(next.seeds(4), [2, 3, 2, 2]);
        let (_, last, now) = lap(ring(&[8, 0, 0, 0]), 4, 0);
        assert_eq!((last, now), (0, 2), "whole rounds end in the emptied hole");
    }

    #[test]
    fn the_next_lap_reads_what_the_previous_one_sowed() {
        // 2x3: hole 0 sows 3 seeds to 1..=3, ending in hole 3 (now 2); those
        // 2 go to 4 and 5, ending in 5 (now 1 + what lap 1 left: none).
        let mut r = ring(&[3, 0, 0, 1, 0, 0]);
        assert_eq!(r.sow(6, 0, 100), ended(5, 2, 5));
        assert_eq!(r.seeds(6), [0, 1, 1, 0, 1, 1]);
        // The second lap ends in the hole the first emptied: 2x2, hole 0
        // holds 2, sown to 1 and 2 (which held 1), whose 2 go to 3 and 0.
        let mut r = ring(&[2, 0, 1, 0]);
        assert_eq!(r.sow(4, 0, 100), ended(0, 2, 4));
        assert_eq!(r.seeds(4), [1, 1, 0, 1]);
        // And past it, into a hole the first lap sowed: 2x2, hole 2 holds 3,
        // sown to 3, 0 and 1 (which held 1); those 2 go to 2 and 3, where
        // the first lap left 2. After eight laps the ring is back where it
        // started, to lift hole 2 again: endless.
        let mut r = ring(&[0, 1, 3, 1]);
        assert_eq!(r.sow(4, 2, 2), Sowing::Endless);
        assert_eq!(r.sow(4, 2, 100), Sowing::Endless);
        // The same with hole 3 empty: lap 2 ends in it, now holding the
        // seed of lap 1 and its own, so a third lap sows them to 0 and 1.
        let mut r = ring(&[0, 1, 3, 0]);
        assert_eq!(r.sow(4, 2, 100), ended(1, 3, 7));
        assert_eq!(r.seeds(4), [2, 1, 1, 0]);
    }

    #[test]
    fn a_lap_round_the_ring_leaves_the_bytes_past_it_empty() {
        // 2x2, 5 seeds from hole 0: round once and one more, then on.
        let mut r = Swar::<1>::from_rows(&[5, 0], &[0, 0]).unwrap();
        assert!(matches!(r.sow(4, 0, 100), Sowing::Ended { .. }));
        assert_eq!(r.seeds(4).sum(), 5);
        assert_eq!(r.bytes.as_flattened()[4..], [0; 12]);
        let mut seeds = [0u32; 20];
        seeds[3] = 25;
        let mut r = Swar::<2>::from_rows(&seeds, &[]).unwrap();
        let _ = r.sow(20, 3, 100);
        assert_eq!(r.seeds(20).sum(), 25);
        assert_eq!(r.bytes.as_flattened()[20..], [0; 12]);
    }

    #[test]
    fn a_capture_empties_the_view_too() {
        let mut r = ring(&[1, 2, 3, 4]);
        assert_eq!(r.take_if(2, true), 3);
        assert_eq!(r.seeds(4), [1, 2, 0, 4]);
    }

    #[test]
    fn a_full_ring_of_sixteen_wraps_from_the_last_hole() {
        let mut seeds = [0u32; 16];
        seeds[15] = 3;
        let (next, last, now) = lap(ring(&seeds), 16, 15);
        assert_eq!((last, now), (2, 1));
        assert_eq!(next.seeds(3), [1, 1, 1]);
        assert_eq!(next.seeds(16).sum(), 3);
    }

    #[test]
    fn two_words_carry_a_lap_across_their_boundary() {
        // 2x10: index 14 holds 9 seeds, sown to 15..=19 and wrapping to 0..=3.
        let mut seeds = [0u32; 20];
        seeds[14] = 9;
        seeds[3] = 1;
        let r = Swar::<2>::from_rows(&seeds, &[]).unwrap();
        let (after, last, now) = lap(r, 20, 14);
        assert_eq!((last, now), (3, 2));
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
