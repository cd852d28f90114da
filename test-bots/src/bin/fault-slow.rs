//! `fault-slow [--delay-ms N]`: legal but slow: waits N ms (default 200)
//! before each move, then plays the first legal hole.
//!
//! Expected termination: a normal end (`no-moves` or `ply-limit`) when the
//! time limit is above N, `timeout` when it is below.

use endodoi_test_bots::{arg, run, Bot, Conn, Turn};
use std::io;
use std::process::ExitCode;
use std::time::Duration;

struct Slow {
    delay: Duration,
}

impl Bot for Slow {
    fn on_turn(&mut self, turn: &Turn, conn: &mut Conn) -> io::Result<()> {
        std::thread::sleep(self.delay);
        conn.play(turn.first_legal())
    }
}

fn main() -> ExitCode {
    run(Slow {
        delay: Duration::from_millis(arg("--delay-ms", 200)),
    })
}
