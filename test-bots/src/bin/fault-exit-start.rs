//! `fault-exit-start`: exits with code 5 at once, before reading anything.
//!
//! Expected termination: `start-failure`.

fn main() {
    std::process::exit(5);
}
