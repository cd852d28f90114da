//! The config's text as text: its byte order mark, its lines, a table's
//! header, a name made safe for a folder.

use std::ops::Range;

/// `text` without one leading UTF-8 byte order mark (U+FEFF), which some
/// Windows editors write at the start of a text file: every text file the
/// arena reads (the config, an openings file) goes through this; the CSV
/// reader strips one itself.
#[must_use]
pub fn strip_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// The span of table `name`'s header line (`[name]`, spaces and a comment
/// allowed) in TOML `text`, from its `[`; `None` if it has none (a table
/// written inline or with dotted keys).
pub(super) fn table_header(text: &str, name: &str) -> Option<Range<usize>> {
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start();
        let start = offset + (line.len() - trimmed.len());
        offset += line.len();
        let Some(rest) = trimmed.strip_prefix('[') else {
            continue;
        };
        let Some((inside, after)) = rest.split_once(']') else {
            continue;
        };
        let after = after.trim();
        if inside.trim() == name && (after.is_empty() || after.starts_with('#')) {
            return Some(start..start + 1);
        }
    }
    None
}

/// 1-based line and column of byte `offset` in `text`.
/// Where each line of a text starts (byte offsets), so that a byte offset
/// turns into a line and column in `O(log lines)`: a config of 10,000
/// `[[bot]]` tables names each bot's line without a scan per bot.
pub(super) struct Lines {
    starts: Vec<usize>,
    len: usize,
}

impl Lines {
    pub(super) fn new(text: &str) -> Lines {
        let starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        Lines {
            starts,
            len: text.len(),
        }
    }

    /// The 1-based line and byte column of `offset`.
    pub(super) fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.len);
        let line = self.starts.partition_point(|&s| s <= offset);
        (line, offset - self.starts[line - 1] + 1)
    }
}

/// A file stem made safe for a folder name.
pub(super) fn sanitize(stem: &str) -> String {
    let s: String = stem
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '_'
            }
        })
        .take(64)
        .collect();
    if s.is_empty() {
        "tournament".into()
    } else {
        s
    }
}
