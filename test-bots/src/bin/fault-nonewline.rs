//! `fault-nonewline`: answers the handshake and `newgame` correctly, but
//! writes each move as `move H` with no trailing newline (and flushes it), so
//! the reply line never ends.
//!
//! Expected termination: `timeout`.

use endodoi_test_bots::{run, Bot, Conn, Turn};
use std::io;
use std::process::ExitCode;

struct NoNewline;

impl Bot for NoNewline {
    fn on_turn(&mut self, turn: &Turn, conn: &mut Conn) -> io::Result<()> {
        conn.send_raw(format!("move {}", turn.first_legal()).as_bytes())
    }
}

fn main() -> ExitCode {
    run(NoNewline)
}
