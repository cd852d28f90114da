//! `fault-alloc`: plays its first move correctly, then on its second turn of
//! a game allocates memory without bound: 64 MiB chunks, every page written,
//! kept forever. It never replies; under a memory limit (the arena sets one
//! with `setrlimit`) an allocation fails and the process aborts.
//!
//! Expected termination: `crash` (with no memory limit it would exhaust the
//! machine's memory instead).

use endodoi_test_bots::{log, run, Bot, Conn, Turn};
use std::io;
use std::process::ExitCode;

const CHUNK: usize = 64 << 20;

struct Alloc;

impl Bot for Alloc {
    fn on_turn(&mut self, turn: &Turn, conn: &mut Conn) -> io::Result<()> {
        if turn.number < 2 {
            return conn.play(turn.first_legal());
        }
        log("allocating without bound");
        let mut hoard: Vec<Vec<u8>> = Vec::new();
        loop {
            // vec![nonzero; n] writes every byte, so every page is touched.
            hoard.push(vec![0xa5; CHUNK]);
            std::hint::black_box(&hoard);
        }
    }
}

fn main() -> ExitCode {
    run(Alloc)
}
