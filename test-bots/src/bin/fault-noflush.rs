//! `fault-noflush`: writes correct replies, but into a 1 MiB buffered
//! standard output that it never flushes, so nothing reaches the pipe until
//! the process exits (after `quit` or at end of input). Each reply is also
//! logged to standard error as it is buffered.
//!
//! Expected termination: `start-failure` — its `hello` never arrives within
//! the start-up limit, so it never gets to play.

use endodoi_test_bots::{run_with, Bot, Conn, Flush};
use std::io::{self, BufWriter};
use std::process::ExitCode;

struct NoFlush;

impl Bot for NoFlush {}

fn main() -> ExitCode {
    let stdout = BufWriter::with_capacity(1 << 20, io::stdout());
    run_with(
        NoFlush,
        Conn::new(Box::new(stdout), Flush::Never).with_trace(true),
    )
}
