//! `fault-exit-start`: says why on stderr and exits with code 5 at once,
//! before reading anything.
//!
//! Expected termination: `start-failure`, with its stderr line in the reason.

fn main() {
    eprintln!("fault-exit-start: cannot load my weights, giving up");
    std::process::exit(5);
}
