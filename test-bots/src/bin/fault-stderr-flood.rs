//! `fault-stderr-flood [--bytes N]`: plays the first legal hole correctly, but
//! before each move writes N bytes (default 2 MiB, in 64-byte lines) to
//! standard error. A fault only for an arena that does not drain stderr.
//!
//! Expected termination: a normal end (`no-moves` or `ply-limit`), never a
//! fault.

use endodoi_test_bots::{arg, run, Bot, Conn, Turn};
use std::io::{self, Write};
use std::process::ExitCode;

struct Flood {
    bytes: usize,
}

impl Bot for Flood {
    fn on_turn(&mut self, turn: &Turn, conn: &mut Conn) -> io::Result<()> {
        let line = b"fault-stderr-flood: filler filler filler filler filler filler.\n";
        let flood: Vec<u8> = line.iter().copied().cycle().take(self.bytes).collect();
        io::stderr().lock().write_all(&flood)?;
        conn.play(turn.first_legal())
    }
}

fn main() -> ExitCode {
    run(Flood {
        bytes: arg("--bytes", 2 << 20),
    })
}
