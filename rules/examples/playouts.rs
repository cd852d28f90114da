//! Random playouts from the start of a board, the engine's speed figure:
//!
//! ```text
//! cargo run --release -p endodoi --example playouts -- HOLES GAMES MODE [general]
//! ```
//!
//! - `sample` plays the games of `../shared/bench/fastplay.c`, the C
//!   yardstick: the same xorshift generator and seed, the same pick (a random
//!   occupied hole, and on an endless one a swap-remove and a new pick), so
//!   its South/North/draw counts must equal the C kernel's exactly;
//! - `legal` picks uniformly from `legal_moves()` every ply, as the referee
//!   and the bundled bots see the legal moves.
//!
//! `general` plays on the general board representation instead of the
//! compact one (`Rules::with_general_board`), to measure what it buys.
//! Defaults: 8 holes, 200,000 games, `sample`. Prints one line, the way the C
//! kernel does: playouts per second, plies per game, and `S/N/D` (South wins,
//! North wins, draws).

use std::process::ExitCode;
use std::time::Instant;

use endodoi::{Move, Position, Rules};

/// The C kernel's generator: Marsaglia's xorshift64 (13, 7, 17) from the seed
/// in `fastplay.c`.
struct XorShift(u64);

impl XorShift {
    /// The next number modulo `n` (at most 64), as the C kernel's `xr() % n`:
    /// exactly, by Lemire, Kaser and Kurz's direct remainder ("Faster
    /// remainder by direct computation", 2019: a 128-bit fraction suffices
    /// for any 64-bit number), a few multiplies instead of a division.
    #[inline(always)]
    fn below(&mut self, n: usize) -> usize {
        let s = &mut self.0;
        *s ^= *s << 13;
        *s ^= *s >> 7;
        *s ^= *s << 17;
        let fraction = RECIPROCALS[n].wrapping_mul(u128::from(*s));
        // The top 64 bits of the 192-bit product `fraction * n`.
        let (lo, hi) = (fraction as u64 as u128, fraction >> 64);
        ((hi * n as u128 + ((lo * n as u128) >> 64)) >> 64) as usize
    }
}

/// `RECIPROCALS[n]` is `ceil(2^128 / n)` (wrapping for n = 1), for the
/// remainder of [`XorShift::below`].
const RECIPROCALS: [u128; 65] = {
    let mut table = [0u128; 65];
    let mut n = 1;
    while n <= 64 {
        table[n] = (u128::MAX / n as u128).wrapping_add(1);
        n += 1;
    }
    table
};

/// `IN_ORDER[v]`: the numbers `k + 1` of the set bits `k` of byte `v`, in
/// order, one per byte from the lowest, and how many there are: the
/// occupied holes in order without a loop.
const IN_ORDER: [(u64, u8); 256] = {
    let mut table = [(0u64, 0u8); 256];
    let mut v = 0;
    while v < 256 {
        let mut k = 0;
        while k < 8 {
            if v & (1 << k) != 0 {
                let (list, count) = table[v];
                table[v] = (list | (k as u64 + 1) << (8 * count), count + 1);
            }
            k += 1;
        }
        v += 1;
    }
    table
};

/// The occupied holes of `occupied` (at most 16 holes), numbered from 1, in
/// order, and how many there are.
#[inline(always)]
fn in_order(occupied: u64) -> ([u8; 16], usize) {
    let (low, count_low) = IN_ORDER[(occupied & 0xff) as usize];
    let (high, count_high) = IN_ORDER[((occupied >> 8) & 0xff) as usize];
    // The high byte's holes are 9 to 16: add 8 to each of its numbers (the
    // bytes past them become 8, but lie past the count).
    let high = high + 0x0808_0808_0808_0808;
    let list = u128::from(low) | (u128::from(high) << (8 * count_low));
    (list.to_le_bytes(), usize::from(count_low + count_high))
}

/// One game as `fastplay.c` plays it: the occupied holes in order, a random
/// one, and an endless one swap-removed before the next pick.
#[inline(always)]
fn sample_game(pos: &mut Position, rng: &mut XorShift) {
    loop {
        // The occupied holes in order, without a branch per hole.
        let occupied = pos.candidate_moves().bits();
        let mut candidates = [0u8; 64];
        let mut count = 0;
        if pos.holes() <= 16 {
            let (list, n) = in_order(occupied);
            candidates[..16].copy_from_slice(&list);
            count = n;
        } else {
            for k in 0..pos.holes() {
                candidates[count] = k as u8 + 1;
                count += ((occupied >> k) & 1) as usize;
            }
        }
        loop {
            if count == 0 {
                return;
            }
            let i = rng.below(count);
            let mv = Move::new(candidates[i]).expect("a hole");
            if pos.play(mv).is_ok() {
                break;
            }
            count -= 1;
            candidates[i] = candidates[count];
        }
    }
}

/// One game picking uniformly from the legal moves every ply.
#[inline(always)]
fn legal_game(pos: &mut Position, rng: &mut XorShift) {
    loop {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            return;
        }
        let mv = legal.nth(rng.below(legal.len())).expect("in range");
        pos.play_unchecked(mv);
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage =
        "usage: playouts [HOLES [GAMES [sample|legal [general]]]] (defaults 8 200000 sample)";
    if args.len() > 4 {
        eprintln!("{usage}: '{}' is one argument too many", args[4]);
        return ExitCode::FAILURE;
    }
    let holes: usize = match args.first().map_or(Ok(8), |a| a.parse()) {
        Ok(h) => h,
        Err(_) => {
            eprintln!("{usage}: HOLES must be a number");
            return ExitCode::FAILURE;
        }
    };
    let games: u64 = match args.get(1).map_or(Ok(200_000), |a| a.parse()) {
        Ok(g) if g > 0 => g,
        _ => {
            eprintln!("{usage}: GAMES must be a positive number");
            return ExitCode::FAILURE;
        }
    };
    let mode = args.get(2).map_or("sample", String::as_str);
    if mode != "sample" && mode != "legal" {
        eprintln!("{usage}: MODE '{mode}' is neither sample nor legal");
        return ExitCode::FAILURE;
    }
    let general = match args.get(3).map(String::as_str) {
        None => false,
        Some("general") => true,
        Some(other) => {
            eprintln!("{usage}: '{other}' is not 'general'");
            return ExitCode::FAILURE;
        }
    };
    let rules = match Rules::new(holes, 4) {
        Ok(r) if general => r.with_general_board(),
        Ok(r) => r,
        Err(e) => {
            eprintln!("{usage}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let start = rules.start();
    let mut rng = XorShift(88_172_645_463_325_252);
    let mut plies = 0u64;
    let mut wins = [0u64; 3];
    let t = Instant::now();
    for _ in 0..games {
        let mut pos = start.clone();
        if mode == "sample" {
            sample_game(&mut pos, &mut rng);
        } else {
            legal_game(&mut pos, &mut rng);
        }
        plies += u64::from(pos.ply());
        let winner = pos.outcome().expect("a finished game").winner;
        wins[winner.map_or(2, endodoi::Side::index)] += 1;
    }
    let secs = t.elapsed().as_secs_f64();
    println!(
        "2x{holes} {mode}{}: {games} games, {:.0} playouts/s, {:.1} plies/game, S/N/D {}/{}/{}",
        if general { " general" } else { "" },
        games as f64 / secs,
        plies as f64 / games as f64,
        wins[0],
        wins[1],
        wins[2]
    );
    ExitCode::SUCCESS
}
