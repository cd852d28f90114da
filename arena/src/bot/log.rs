//! A bot's log: `DIR/logs/<bot>.stderr.log`, shared by every process of the
//! bot (one per series), capped in size with a note where it was cut.

use std::fs::File;
use std::io::Write as _;
use std::path::Path;
use std::sync::{Arc, Mutex};

/// `bytes` as text, invalid UTF-8 replaced and control characters but tab
/// escaped.
fn printable(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() && c != '\t' {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// The default cap of one bot's log, bytes.
pub const LOG_CAP_BYTES: u64 = 4 << 20;

/// A shared, capped, append-only log file. Cloning shares the file and the cap.
#[derive(Clone, Debug)]
pub struct BotLog(Arc<Mutex<Capped>>);

#[derive(Debug)]
struct Capped {
    file: Option<File>,
    written: u64,
    cap: u64,
    cut: bool,
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
            written,
            cap,
            cut: false,
        }))))
    }

    /// A log that drops everything (for bots started outside a run folder).
    #[must_use]
    pub fn none() -> BotLog {
        BotLog(Arc::new(Mutex::new(Capped {
            file: None,
            written: 0,
            cap: 0,
            cut: true,
        })))
    }

    /// Appends `prefix` and `line` and a newline, unless the cap is reached;
    /// the first line past the cap is replaced by a note saying so. The
    /// line is stored as text with its control characters escaped (`\u{1b}`):
    /// a bot cannot send escape sequences to whoever reads its log on a
    /// terminal, nor through the error that quotes its last lines.
    pub fn line(&self, prefix: &str, line: &[u8]) {
        let mut log = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let Capped {
            file,
            written,
            cap,
            cut,
        } = &mut *log;
        // A full log drops lines unread: a bot flooding its stderr costs
        // the arena no more than the reads (and never its time limit).
        let Some(file) = file.as_mut().filter(|_| !*cut) else {
            return;
        };
        let line = printable(line);
        let line = line.as_bytes();
        let size = (prefix.len() + line.len() + 1) as u64;
        if *written + size <= *cap {
            let mut buf = Vec::with_capacity(size as usize);
            buf.extend_from_slice(prefix.as_bytes());
            buf.extend_from_slice(line);
            buf.push(b'\n');
            if file.write_all(&buf).is_ok() {
                *written += size;
            }
        } else if !*cut {
            *cut = true;
            let _ = writeln!(
                file,
                "# the log was cut here: it reached its cap of {cap} bytes"
            );
        }
    }
}

#[cfg(test)]
mod tests {
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
    }
}
