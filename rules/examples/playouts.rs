//! Random playouts from the start of a board, for profiling and quick figures:
//! `cargo run --release -p endodoi --example playouts -- [HOLES] [PLAYOUTS] [legal|sample]`.
//!
//! `legal` picks uniformly from `legal_moves()`; `sample` picks an occupied
//! hole and lets `play` refuse the rare endless one (also uniform over the
//! legal moves, with one sowing per ply).

use std::time::Instant;

use endodoi::Rules;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let holes: usize = args.first().map_or(8, |a| a.parse().expect("holes"));
    let playouts: u64 = args
        .get(1)
        .map_or(200_000, |a| a.parse().expect("playouts"));
    let sample = args.get(2).is_some_and(|a| a == "sample");
    let start = Rules::new(holes, 4).expect("rules").start();
    // A small xorshift generator: no dependency, and cheap next to a move.
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    let t = Instant::now();
    let mut plies = 0u64;
    let (mut laps, mut sown) = (0u64, 0u64);
    for _ in 0..playouts {
        let mut pos = start.clone();
        if sample {
            'game: loop {
                let mut candidates = pos.candidate_moves();
                loop {
                    if candidates.is_empty() {
                        break 'game;
                    }
                    let mv = candidates.nth(next(candidates.len())).expect("in range");
                    if let Ok(d) = pos.play(mv) {
                        laps += u64::from(d.laps);
                        sown += d.sown;
                        break;
                    }
                    candidates.remove(mv);
                }
            }
        } else {
            loop {
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                let d = pos.play_unchecked(legal.nth(next(legal.len())).expect("in range"));
                laps += u64::from(d.laps);
                sown += d.sown;
            }
        }
        plies += u64::from(pos.ply());
    }
    let secs = t.elapsed().as_secs_f64();
    println!(
        "2x{holes}, {}: {playouts} playouts in {secs:.2} s: {:.0} playouts/s, {:.1} plies each, {:.0} ns per ply; per ply {:.1} laps, {:.1} seeds sown",
        if sample { "sampling" } else { "legal_moves" },
        playouts as f64 / secs,
        plies as f64 / playouts as f64,
        secs * 1e9 / plies as f64,
        laps as f64 / plies as f64,
        sown as f64 / plies as f64
    );
}
