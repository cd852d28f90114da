//! `fault-unsolicited`: answers `newgame` with `ready` and, at once, an extra
//! `move 1` before any turn was requested; then plays the first legal hole.
//!
//! Expected termination: `protocol-error` (output before it was requested).

use endodoi_test_bots::{run, Bot, Conn, Message};
use std::io;
use std::process::ExitCode;

struct Unsolicited;

impl Bot for Unsolicited {
    fn on_newgame(&mut self, _game: &Message, conn: &mut Conn) -> io::Result<()> {
        conn.send("ready")?;
        conn.send("move 1")
    }
}

fn main() -> ExitCode {
    run(Unsolicited)
}
