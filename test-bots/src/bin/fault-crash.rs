//! `fault-crash [--at K]`: plays the first legal hole, but exits with code 3
//! when asked for its K-th move of a game (default 2), without replying.
//!
//! Expected termination: `crash`.

use endodoi_test_bots::{arg, run, Bot, Conn, Turn};
use std::io;
use std::process::ExitCode;

struct Crash {
    at: u32,
}

impl Bot for Crash {
    fn on_turn(&mut self, turn: &Turn, conn: &mut Conn) -> io::Result<()> {
        if turn.number == self.at {
            std::process::exit(3);
        }
        conn.play(turn.first_legal())
    }
}

fn main() -> ExitCode {
    run(Crash { at: arg("--at", 2) })
}
