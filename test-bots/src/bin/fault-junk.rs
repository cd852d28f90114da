//! `fault-junk`: answers every turn with junk bytes,
//! `\x00\xff garbage \x1b[2J` and a newline (a NUL, a byte that is not UTF-8
//! and a terminal escape sequence).
//!
//! Expected termination: `protocol-error`.

use endodoi_test_bots::{run, Bot, Conn, Turn};
use std::io;
use std::process::ExitCode;

/// The reply to every turn.
const JUNK: &[u8] = b"\x00\xff garbage \x1b[2J\n";

struct Junk;

impl Bot for Junk {
    fn on_turn(&mut self, _turn: &Turn, conn: &mut Conn) -> io::Result<()> {
        conn.send_raw(JUNK)
    }
}

fn main() -> ExitCode {
    run(Junk)
}
