//! `fault-ignore-term`: plays the first legal hole correctly, but ignores
//! SIGTERM (`SIG_IGN`, set before it reads anything) and does not exit on
//! `quit` or at end of input: it then blocks forever (parked, no busy loop).
//! Only SIGKILL ends it.
//!
//! Expected termination: normal results (`no-moves` or `ply-limit`); the
//! arena must still leave no process behind.

use endodoi_test_bots::{park_forever, run, Bot, Conn};
use nix::sys::signal::{signal, SigHandler, Signal};
use std::io;
use std::process::ExitCode;

struct IgnoreTerm;

impl Bot for IgnoreTerm {
    fn on_end(&mut self, _conn: &mut Conn) -> io::Result<()> {
        park_forever()
    }
}

fn main() -> ExitCode {
    // SAFETY: SIG_IGN installs no handler code, and no other thread exists.
    unsafe { signal(Signal::SIGTERM, SigHandler::SigIgn) }.expect("ignore SIGTERM");
    run(IgnoreTerm)
}
