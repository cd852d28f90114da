//! `fault-stdout-flood [--bytes N] [--info] [--unasked K]`: plays the first
//! legal hole correctly, but before each move sends N bytes (default
//! 1,000,000, just under the arena's 1 MiB cap on one reply) of blank lines
//! on standard output, or with `--info` of short `info flood` lines, in the
//! same write as the move. With its `ready` it also sends K blank lines
//! (default 5,000, under the cap on lines sent unasked), in the same write,
//! so they have surely arrived when the arena asks its next question.
//!
//! Expected termination: a normal end (`no-moves` or `ply-limit`), never a
//! fault: the flood is within the protocol's caps.

use endodoi_test_bots::{arg, has_flag, run, Bot, Conn, Message, Turn};
use std::io;
use std::process::ExitCode;

struct Flood {
    bytes: usize,
    info: bool,
    unasked: usize,
}

impl Bot for Flood {
    fn on_newgame(&mut self, _game: &Message, conn: &mut Conn) -> io::Result<()> {
        let mut out = b"ready\n".to_vec();
        out.resize(out.len() + self.unasked, b'\n');
        conn.send_raw(&out)
    }

    fn on_turn(&mut self, turn: &Turn, conn: &mut Conn) -> io::Result<()> {
        let line: &[u8] = if self.info { b"info flood\n" } else { b"\n" };
        let mut out: Vec<u8> = line
            .iter()
            .copied()
            .cycle()
            .take(self.bytes / line.len() * line.len())
            .collect();
        out.extend_from_slice(format!("move {}\n", turn.first_legal()).as_bytes());
        conn.send_raw(&out)
    }
}

fn main() -> ExitCode {
    run(Flood {
        bytes: arg("--bytes", 1_000_000),
        info: has_flag("--info"),
        unasked: arg("--unasked", 5_000),
    })
}
