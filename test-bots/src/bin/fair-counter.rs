//! `fair-counter [--think-ms T]`: the victim of the fairness tests (issue
//! 29). On every turn it works for `T` ms of wall-clock time (default 200),
//! counting fixed units of work, writes `work N` (the units done) to
//! standard error, the bot's log, and plays its first legal move. Its work
//! per move measures the CPU it got while on move.

use endodoi_test_bots::{arg, log, run, Bot, Conn, Turn};
use std::io;
use std::process::ExitCode;
use std::time::{Duration, Instant};

struct Counter {
    think: Duration,
}

/// One unit of work: a few thousand dependent multiplications.
fn unit(seed: u64) -> u64 {
    let mut x = seed;
    for _ in 0..4096 {
        x = std::hint::black_box(
            x.wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407),
        );
    }
    x
}

impl Bot for Counter {
    fn on_turn(&mut self, turn: &Turn, conn: &mut Conn) -> io::Result<()> {
        let start = Instant::now();
        let (mut units, mut x) = (0u64, 1u64);
        while start.elapsed() < self.think {
            x = unit(x);
            units += 1;
        }
        std::hint::black_box(x);
        log(&format!("work {units}"));
        conn.play(turn.first_legal())
    }
}

fn main() -> ExitCode {
    run(Counter {
        think: Duration::from_millis(arg("--think-ms", 200)),
    })
}
