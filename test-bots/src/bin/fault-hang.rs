//! `fault-hang`: answers the handshake and `newgame`, then never answers its
//! first turn of a game: it reads (and ignores) its input, `quit` included,
//! blocking on the pipe without a busy loop, and exits with code 0 at end of
//! input.
//!
//! Expected termination: `timeout`.

use endodoi_test_bots::{run, Bot, Conn, Turn};
use std::io;
use std::process::ExitCode;

struct Hang;

impl Bot for Hang {
    fn on_turn(&mut self, turn: &Turn, conn: &mut Conn) -> io::Result<()> {
        if turn.number == 1 {
            conn.drain()?;
            std::process::exit(0);
        }
        conn.play(turn.first_legal())
    }
}

fn main() -> ExitCode {
    run(Hang)
}
