//! What a person watching a run sees, fed by the runner's events: the
//! [`Reporter`] trait and its plain-lines implementation, [`Lines`]. The
//! live terminal view, `progress::Live`, is the other one.
//!
//! The runner never prints: it emits [`Event`]s, and the `run` command hands
//! each to its reporter along with its own status lines.

use crate::output::GameRow;
use std::io::Write;

use crate::report::{game_line, sprt_line};
use crate::runner::Event;

/// Shows a run as it goes.
pub trait Reporter {
    /// The run resumes an interrupted one that had played `games` (its
    /// `games.csv`): count them in, and return how many there were.
    fn resumed(&mut self, games: &[GameRow]) -> u64;
    /// Something happened in the run (a game ended, a series, an SPRT step).
    fn event(&mut self, event: &Event);
    /// A status line the user must see (a bot skipped, a stop).
    fn note(&mut self, line: &str);
    /// The run is over: clear whatever is drawn.
    fn finish(&mut self) {}
}

/// One line per game and per SPRT step on a writer (stderr, off a
/// terminal); with `quiet`, only the lines a user must see.
pub struct Lines<W: Write> {
    out: W,
    quiet: bool,
    /// Games done so far, this run's and a resumed run's before it.
    done: u64,
    /// The bot SPRT results count from (the first `[[bot]]`).
    first: String,
}

impl<W: Write> Lines<W> {
    /// Plain lines on `out`; `first` is the first bot's name.
    pub fn new(out: W, quiet: bool, first: &str) -> Lines<W> {
        Lines {
            out,
            quiet,
            done: 0,
            first: first.to_string(),
        }
    }

    fn line(&mut self, text: &str) {
        // A closed stderr must not stop the tournament.
        let _ = writeln!(self.out, "{text}");
    }
}

impl<W: Write> Reporter for Lines<W> {
    fn resumed(&mut self, games: &[GameRow]) -> u64 {
        self.done = games.len() as u64;
        self.done
    }

    fn event(&mut self, event: &Event) {
        match event {
            Event::Game(g) => {
                self.done += 1;
                if !self.quiet {
                    let line = game_line(self.done as usize, g);
                    self.line(&line);
                }
            }
            Event::Sprt(s) if !self.quiet => {
                let line = sprt_line(s, &self.first);
                self.line(&line);
            }
            _ => {}
        }
    }

    fn note(&mut self, line: &str) {
        self.line(line);
    }
}
