//! `fault-unsolicited`: answers `newgame` with `ready` and, in the same
//! write, an extra `move 1` before any turn was requested; then plays the
//! first legal hole. One write, so the extra line has surely arrived when
//! the arena asks its next question (two writes could be split by the
//! scheduler, and a line that arrives after a request is its reply).
//!
//! Expected termination: `protocol-error` (output before it was requested).

use endodoi_test_bots::{run, Bot, Conn, Message};
use std::io;
use std::process::ExitCode;

struct Unsolicited;

impl Bot for Unsolicited {
    fn on_newgame(&mut self, _game: &Message, conn: &mut Conn) -> io::Result<()> {
        conn.send_raw(b"ready\nmove 1\n")
    }
}

fn main() -> ExitCode {
    run(Unsolicited)
}
