//! A bot's log: `DIR/logs/<bot>.stderr.log`, shared by every process of the
//! bot (one per series), capped in size with a note where it was cut.

use std::fs::File;
use std::io::Write as _;
use std::path::Path;
use std::sync::{Arc, Mutex};

/// `bytes` as text, control characters but tab escaped (`\u{1b}`) and
/// bytes that are not UTF-8 shown as themselves, escaped (`\xff`), not
/// replaced.
fn printable(bytes: &[u8]) -> std::borrow::Cow<'_, str> {
    // Plain printable ASCII, by far the common case, is kept as it is.
    if bytes
        .iter()
        .all(|&b| b == b'\t' || (0x20..0x7f).contains(&b))
    {
        return String::from_utf8_lossy(bytes);
    }
    let mut out = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            if c.is_control() && c != '\t' {
                out.extend(c.escape_default());
            } else {
                out.push(c);
            }
        }
        for &b in chunk.invalid() {
            out.extend(std::ascii::escape_default(b).map(char::from));
        }
    }
    std::borrow::Cow::Owned(out)
}

/// The default cap of one bot's log, bytes.
pub const LOG_CAP_BYTES: u64 = 4 << 20;

/// A shared, capped, append-only log file. Cloning shares the file and the cap.
#[derive(Clone, Debug)]
pub struct BotLog(Arc<Mutex<Capped>>);

#[derive(Debug)]
struct Capped {
    file: Option<File>,
    budget: Budget,
}

/// A cap on the bytes written to a file (or a bot's share of one): what
/// has been written, the cap, and whether it was reached. The one capping
/// of the bot logs and of the transcripts' shares.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Budget {
    written: u64,
    cap: u64,
    cut: bool,
}

impl Budget {
    /// A budget of `cap` bytes, `written` of them already used.
    pub(crate) fn new(written: u64, cap: u64) -> Budget {
        Budget {
            written,
            cap,
            cut: false,
        }
    }

    /// A budget that takes nothing: cut before anything is written.
    fn spent() -> Budget {
        Budget {
            written: 0,
            cap: 0,
            cut: true,
        }
    }

    /// Takes `size` bytes if they fit under the cap (they are then counted
    /// as written); the first that do not cut the budget, and once cut it
    /// takes nothing more.
    pub(crate) fn take(&mut self, size: u64) -> bool {
        if !self.cut && self.written + size <= self.cap {
            self.written += size;
            return true;
        }
        self.cut = true;
        false
    }

    /// Whether the cap has been reached.
    pub(crate) fn is_cut(&self) -> bool {
        self.cut
    }

    /// The cap, bytes.
    pub(crate) fn cap(&self) -> u64 {
        self.cap
    }
}

impl BotLog {
    /// Opens (appends to) `path`, keeping at most `cap` bytes in it.
    ///
    /// # Errors
    /// The I/O error opening the file.
    pub fn open(path: &Path, cap: u64) -> std::io::Result<BotLog> {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)?;
        let written = file.metadata().map_or(0, |m| m.len());
        Ok(BotLog(Arc::new(Mutex::new(Capped {
            file: Some(file),
            budget: Budget::new(written, cap),
        }))))
    }

    /// Replaces `path` with an empty file and opens it as [`BotLog::open`]
    /// does, keeping at most `cap` bytes.
    ///
    /// # Errors
    /// The I/O error creating or opening the file.
    pub fn create(path: &Path, cap: u64) -> std::io::Result<BotLog> {
        std::fs::File::create(path)?;
        BotLog::open(path, cap)
    }

    /// A log that drops everything (for bots started outside a run folder).
    #[must_use]
    pub fn none() -> BotLog {
        BotLog(Arc::new(Mutex::new(Capped {
            file: None,
            budget: Budget::spent(),
        })))
    }

    /// Appends `prefix` and `line` and a newline, unless the cap is reached;
    /// the first line past the cap is replaced by a note saying so. The
    /// line is stored as text with its control characters escaped (`\u{1b}`):
    /// a bot cannot send escape sequences to whoever reads its log on a
    /// terminal, nor through the error that quotes its last lines.
    pub fn line(&self, prefix: &str, line: &[u8]) {
        self.lines(prefix, [line]);
    }

    /// [`BotLog::line`] for each of `lines`, written at once (one write for
    /// a whole read of a chatty bot's stderr, not one per line).
    pub fn lines<'a>(&self, prefix: &str, lines: impl IntoIterator<Item = &'a [u8]>) {
        let mut log = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let Capped { file, budget } = &mut *log;
        // A full log drops lines unread: a bot flooding its stderr costs
        // the arena no more than the reads (and never its time limit).
        let Some(file) = file.as_mut().filter(|_| !budget.is_cut()) else {
            return;
        };
        let mut buf = Vec::new();
        for line in lines {
            let line = printable(line);
            if !budget.take((prefix.len() + line.len() + 1) as u64) {
                break;
            }
            buf.extend_from_slice(prefix.as_bytes());
            buf.extend_from_slice(line.as_bytes());
            buf.push(b'\n');
        }
        let _ = file.write_all(&buf);
        if budget.is_cut() {
            let _ = writeln!(
                file,
                "# the log was cut here: it reached its cap of {} bytes",
                budget.cap()
            );
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn lines_stop_at_the_cap_with_one_note() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("bot.log");
        let log = super::BotLog::open(&path, 20).unwrap();
        log.lines("b ", [&b"one"[..], b"two", b"three", b"four"]);
        log.lines("b ", [&b"five"[..]]);
        log.line("b ", b"six");
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(
            text,
            "b one\nb two\nb three\n# the log was cut here: it reached its cap of 20 bytes\n"
        );
    }

    #[test]
    fn control_characters_are_escaped_and_text_kept() {
        assert_eq!(
            super::printable(b"plain \xc2\xb1 text\tok"),
            "plain \u{b1} text\tok"
        );
        assert_eq!(
            super::printable(b"\x1b]52;c;aGk=\x07\x1b[2K\r"),
            "\\u{1b}]52;c;aGk=\\u{7}\\u{1b}[2K\\r"
        );
        assert_eq!(super::printable("\u{9b}x".as_bytes()), "\\u{9b}x");
        // Bytes that are not UTF-8 show as they are, not as U+FFFD.
        assert_eq!(super::printable(b"move \xff\xc3"), "move \\xff\\xc3");
    }
}
