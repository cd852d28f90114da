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
    #[inline(always)]
    fn below(&mut self, n: usize) -> usize {
        let s = &mut self.0;
        *s ^= *s << 13;
        *s ^= *s >> 7;
        *s ^= *s << 17;
        (*s % n as u64) as usize
    }
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
        for k in 0..pos.holes() {
            candidates[count] = k as u8 + 1;
            count += ((occupied >> k) & 1) as usize;
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
