//! A game's transcript (`arena run --transcripts`):
//! `DIR/transcripts/series-SSSS-game-GGG.txt`, every line to and from both
//! bots, written to its file as the game goes (never held whole), each
//! bot's share capped with a note where it was cut and how much was left
//! out, and runs of blank lines counted rather than written one by one.

use std::fmt::Write as _;
use std::fs::File;
use std::io::{BufWriter, Write as _};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use endodoi::Side;
use endodoi_protocol::shown_bytes;

use super::log::Budget;

/// The default cap of one bot's share of one game's transcript, bytes: a
/// game's requests and replies take a few KiB, so this leaves room for
/// thousands of `info` lines, and a run folder stays within a few of these
/// per game however much a bot sends.
pub const TRANSCRIPT_CAP_BYTES: u64 = 2 << 20;

/// `n` with its thousands grouped by commas (`12,345`).
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// One bot's share of a transcript: its budget, and what was left out
/// past it (lines and bytes, as sent).
#[derive(Debug)]
struct Share {
    budget: Budget,
    left_lines: u64,
    left_bytes: u64,
}

#[derive(Debug)]
struct Sheet {
    /// `None` once finished: later lines are dropped.
    out: Option<BufWriter<File>>,
    /// The first write that failed.
    error: Option<std::io::Error>,
    shares: [Share; 2],
}

/// The tag of `side`'s lines.
fn tag(side: Side) -> char {
    if side == Side::South {
        'S'
    } else {
        'N'
    }
}

impl Sheet {
    /// Writes `S ` (the side's tag), `text` and a newline, if the side's
    /// share has room; the first line past it is replaced by a note, and
    /// what is left out from then on (`lines` lines of `bytes` bytes, as
    /// sent) is counted. `text` is made only when the line is kept.
    fn line(&mut self, side: Side, lines: u64, bytes: usize, text: impl FnOnce() -> String) {
        let share = &mut self.shares[side.index()];
        let Some(out) = self.out.as_mut() else {
            return;
        };
        if share.budget.is_cut() {
            share.left_lines += lines;
            share.left_bytes += bytes as u64;
            return;
        }
        let text = text();
        let written = if share.budget.take(text.len() as u64 + 3) {
            writeln!(out, "{} {text}", tag(side))
        } else {
            share.left_lines += lines;
            share.left_bytes += bytes as u64;
            writeln!(
                out,
                "{0} # the transcript of {0} was cut here: it reached its cap of {1} bytes a game",
                tag(side),
                grouped(share.budget.cap())
            )
        };
        if let Err(e) = written {
            self.error.get_or_insert(e);
        }
    }
}

/// A game's transcript file, written as the game goes. Each bot process
/// writes its lines through a [`Transcriber`] for its side.
#[derive(Debug)]
pub struct Transcript {
    sheet: Arc<Mutex<Sheet>>,
    path: PathBuf,
}

/// A transcript that could not be written: its file, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TranscriptFailed {
    /// The transcript's file.
    pub path: PathBuf,
    /// The I/O error, in words.
    pub why: String,
}

impl Transcript {
    /// Creates (truncates) `path`, keeping at most `cap` bytes of each
    /// bot's lines in it.
    ///
    /// # Errors
    /// [`TranscriptFailed`] when the file cannot be created.
    pub fn create(path: &Path, cap: u64) -> Result<Transcript, TranscriptFailed> {
        let file = File::create(path).map_err(|e| TranscriptFailed {
            path: path.to_path_buf(),
            why: e.to_string(),
        })?;
        let share = || Share {
            budget: Budget::new(0, cap),
            left_lines: 0,
            left_bytes: 0,
        };
        Ok(Transcript {
            sheet: Arc::new(Mutex::new(Sheet {
                out: Some(BufWriter::new(file)),
                error: None,
                shares: [share(), share()],
            })),
            path: path.to_path_buf(),
        })
    }

    /// Where `side`'s bot writes its lines.
    #[must_use]
    pub fn side(&self, side: Side) -> Transcriber {
        Transcriber {
            sheet: self.sheet.clone(),
            side,
        }
    }

    /// Ends the transcript: a note of what each cut share left out, and
    /// the file flushed and closed; lines written through a
    /// [`Transcriber`] after this are dropped.
    ///
    /// # Errors
    /// [`TranscriptFailed`] when a write failed, now or before.
    pub fn finish(self) -> Result<(), TranscriptFailed> {
        let mut sheet = self.sheet.lock().unwrap_or_else(|e| e.into_inner());
        let Sheet { out, error, shares } = &mut *sheet;
        if let Some(mut out) = out.take() {
            for side in Side::ALL {
                let share = &shares[side.index()];
                if share.budget.is_cut() {
                    let written = writeln!(
                        out,
                        "{} # left out after the cut: {} lines, {} bytes",
                        tag(side),
                        grouped(share.left_lines),
                        grouped(share.left_bytes)
                    );
                    if let Err(e) = written {
                        error.get_or_insert(e);
                    }
                }
            }
            if let Err(e) = out.flush() {
                error.get_or_insert(e);
            }
        }
        match error.take() {
            None => Ok(()),
            Some(e) => Err(TranscriptFailed {
                path: self.path.clone(),
                why: e.to_string(),
            }),
        }
    }
}

/// One side's pen on a game's [`Transcript`]: each line marked with the
/// side (`S` or `N`) and its direction (`>` to the bot, `<` from it).
#[derive(Clone, Debug)]
pub struct Transcriber {
    sheet: Arc<Mutex<Sheet>>,
    side: Side,
}

impl Transcriber {
    fn line(&self, lines: u64, bytes: usize, text: impl FnOnce() -> String) {
        let mut sheet = self.sheet.lock().unwrap_or_else(|e| e.into_inner());
        sheet.line(self.side, lines, bytes, text);
    }

    /// A line sent to the bot (`> LINE`; a trailing newline is not part
    /// of it).
    pub fn sent(&self, line: &str) {
        let line = line.strip_suffix('\n').unwrap_or(line);
        self.line(1, line.len() + 1, || format!("> {line}"));
    }

    /// A line read from the bot (`< LINE`), its bytes as read (shown
    /// escaped, as in `games.csv`'s `detail`).
    pub fn received(&self, line: &[u8]) {
        self.line(1, line.len() + 1, || format!("< {}", shown_bytes(line)));
    }

    /// A run of `lines` blank lines read from the bot, `bytes` bytes in
    /// all: one line, `< (12,345 blank lines)`.
    pub fn blanks(&self, lines: u64, bytes: usize) {
        if lines == 0 {
            return;
        }
        self.line(lines, bytes, || {
            let mut text = format!("< ({} blank line", grouped(lines));
            let _ = write!(text, "{})", if lines == 1 { "" } else { "s" });
            text
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_grouped() {
        let shown: Vec<String> = [0, 7, 999, 1_000, 12_345, 1_000_000, 123_456_789]
            .into_iter()
            .map(grouped)
            .collect();
        assert_eq!(
            shown,
            [
                "0",
                "7",
                "999",
                "1,000",
                "12,345",
                "1,000,000",
                "123,456,789"
            ]
        );
    }

    #[test]
    fn lines_are_tagged_and_blank_runs_counted() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("t.txt");
        let t = Transcript::create(&path, 1 << 20).unwrap();
        let (s, n) = (t.side(Side::South), t.side(Side::North));
        s.sent("turn ply=0\n");
        s.blanks(12_345, 12_345);
        s.received(b"move 3");
        n.blanks(1, 2);
        n.blanks(0, 0);
        n.received(b"move \xff\x1b");
        t.finish().unwrap();
        // Lines after the end are dropped.
        s.received(b"move 4");
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "S > turn ply=0\nS < (12,345 blank lines)\nS < move 3\nN < (1 blank line)\nN < move \\xff\\u{1b}\n"
        );
    }

    #[test]
    fn each_share_stops_at_its_cap_with_a_note_of_what_was_left_out() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("t.txt");
        // "S < info a\n" takes 11 bytes: two fit in 25.
        let t = Transcript::create(&path, 25).unwrap();
        let (s, n) = (t.side(Side::South), t.side(Side::North));
        for _ in 0..3 {
            s.received(b"info a");
        }
        n.received(b"move 1");
        s.blanks(1_000, 1_500);
        s.sent("turn\n");
        n.received(b"move 2");
        t.finish().unwrap();
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "S < info a\nS < info a\n\
             S # the transcript of S was cut here: it reached its cap of 25 bytes a game\n\
             N < move 1\nN < move 2\n\
             S # left out after the cut: 1,002 lines, 1,512 bytes\n"
        );
    }
}
