//! `fault-endless`: answers every turn with a hole that holds seeds but is not
//! in `legal` (an endless move, which the arena leaves out of `legal`); if
//! every occupied hole is legal, with an empty hole; if there is none, with
//! hole n+1.
//!
//! Expected termination: `illegal-move`.

use endodoi_test_bots::{run, Bot, Conn, Turn};
use std::io;
use std::process::ExitCode;

struct Endless;

/// The hole `fault-endless` plays: occupied and not legal, else empty, else n+1.
fn endless_hole(turn: &Turn) -> u32 {
    let holes = (1..=turn.mine.len() as u32).map(|h| (h, turn.mine[h as usize - 1]));
    let not_legal: Vec<(u32, u32)> = holes.filter(|(h, _)| !turn.legal.contains(h)).collect();
    let occupied = not_legal.iter().find(|(_, seeds)| *seeds > 0);
    let empty = not_legal.iter().find(|(_, seeds)| *seeds == 0);
    occupied
        .or(empty)
        .map_or(turn.mine.len() as u32 + 1, |(h, _)| *h)
}

impl Bot for Endless {
    fn on_turn(&mut self, turn: &Turn, conn: &mut Conn) -> io::Result<()> {
        conn.play(endless_hole(turn))
    }
}

fn main() -> ExitCode {
    run(Endless)
}
