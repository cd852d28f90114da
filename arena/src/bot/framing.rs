//! Reading a bot's output a line at a time, with caps that keep memory flat.

use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncRead, BufReader};

use endodoi_protocol::{MAX_LINE_BYTES, MAX_UNASKED_BYTES, MAX_UNASKED_LINES};

/// Why no line could be read.
#[derive(Debug)]
pub(crate) enum ReadError {
    /// The bot closed its output.
    Eof,
    /// A line longer than [`MAX_LINE_BYTES`].
    TooLong,
    /// More than [`MAX_UNASKED_BYTES`] or [`MAX_UNASKED_LINES`] sent
    /// before a request.
    Flood,
    /// More blank lines than the read was allowed to skip (the rest of the
    /// bytes one reply may take).
    TooMuch,
    /// The pipe failed.
    Io(std::io::Error),
}

/// A run of blank lines read and skipped (empty, or only spaces, tabs, a
/// `\r` and the like: what [`Reply::parse`](endodoi_protocol::Reply::parse)
/// reads as blank): how many, and their bytes, each with its `\n`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Blanks {
    /// How many blank lines.
    pub(crate) lines: u64,
    /// Their bytes, `\n`s included.
    pub(crate) bytes: usize,
}

impl Blanks {
    /// Counts one more blank line of `bytes` bytes.
    fn add(&mut self, bytes: usize) {
        self.lines += 1;
        self.bytes += bytes;
    }
}

/// Whether `b` may stand in a blank line (ASCII whitespace but `\n`).
fn is_blank_byte(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | 0x0b | 0x0c)
}

/// Whether the line `line` (without its `\n`) is blank.
fn is_blank(line: &[u8]) -> bool {
    line.iter().all(|&b| is_blank_byte(b))
}

/// Skips the whole blank lines at the start of `buf`, counting them into
/// `blanks`; returns the bytes they took. One pass over the bytes, no line
/// copied: a flood of blank lines costs the arena little. Blank lines
/// longer than [`MAX_LINE_BYTES`] are left for the caller to refuse.
fn skip_blank_lines(buf: &[u8], blanks: &mut Blanks) -> usize {
    let mut start = 0;
    loop {
        let rest = &buf[start..];
        match rest.iter().position(|&b| !is_blank_byte(b)) {
            Some(end) if rest[end] == b'\n' && end <= MAX_LINE_BYTES => {
                blanks.add(end + 1);
                start += end + 1;
            }
            _ => return start,
        }
    }
}

/// Reads one line that is not blank into `line` (without `\n` or a
/// trailing `\r`), refusing lines over [`MAX_LINE_BYTES`] without
/// buffering them. Blank lines before it are skipped and counted into
/// `blanks`, at most `max_blank_bytes` of them ([`ReadError::TooMuch`]
/// past that). Cancelled, it leaves in `line` what it had taken of a line,
/// and in `blanks` the blank lines it had skipped.
pub(crate) async fn read_line_capped<R: AsyncBufRead + Unpin>(
    reader: &mut R,
    line: &mut Vec<u8>,
    blanks: &mut Blanks,
    max_blank_bytes: usize,
) -> Result<(), ReadError> {
    line.clear();
    loop {
        if blanks.bytes > max_blank_bytes {
            return Err(ReadError::TooMuch);
        }
        let available = reader.fill_buf().await.map_err(ReadError::Io)?;
        if available.is_empty() {
            return Err(ReadError::Eof);
        }
        if line.is_empty() {
            let skipped = skip_blank_lines(available, blanks);
            if skipped > 0 {
                reader.consume(skipped);
                continue;
            }
        }
        let (chunk, found) = match available.iter().position(|&b| b == b'\n') {
            Some(i) => (&available[..i], Some(i + 1)),
            None => (available, None),
        };
        if line.len() + chunk.len() > MAX_LINE_BYTES + 1 {
            return Err(ReadError::TooLong);
        }
        line.extend_from_slice(chunk);
        let used = found.unwrap_or(available.len());
        reader.consume(used);
        if found.is_some() {
            if line.len() > MAX_LINE_BYTES + usize::from(line.last() == Some(&b'\r')) {
                return Err(ReadError::TooLong);
            }
            if is_blank(line) {
                // A blank line that came in pieces.
                blanks.add(line.len() + 1);
                line.clear();
                continue;
            }
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            return Ok(());
        }
    }
}

/// What a bot sent unasked: a line that is not blank, as read (without
/// `\n` or a trailing `\r`), or a run of blank lines, counted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Sent {
    /// A line that is not blank.
    Line(Vec<u8>),
    /// Blank lines in a row.
    Blanks(Blanks),
}

/// Takes the complete lines already waiting in `reader`, without waiting
/// for more: output the bot sent before it was asked, runs of blank lines
/// counted. A partial line is left.
///
/// `arrived` says whether bytes have arrived on the inner reader that
/// `reader` has not buffered yet (for a pipe, [`pipe_readable`]: the kernel's word, one `poll(2)`);
/// only then is `reader` read, and the read completes at once. No timer is
/// involved: a zero timeout would wait for the runtime's next timer tick,
/// up to a millisecond per request.
pub(crate) async fn waiting_lines<R: AsyncRead + Unpin>(
    reader: &mut BufReader<R>,
    arrived: impl Fn(&R) -> bool,
) -> Result<Vec<Sent>, ReadError> {
    let mut sent = Vec::new();
    collect_waiting(reader, arrived, &mut sent).await?;
    Ok(sent)
}

/// The complete lines waiting in `reader`, as [`waiting_lines`], but
/// those read before the end of the output (or a flood, or a line too
/// long) are kept: what a bot that has gone left in its pipe.
pub(crate) async fn lines_left<R: AsyncRead + Unpin>(
    reader: &mut BufReader<R>,
    arrived: impl Fn(&R) -> bool,
) -> Vec<Sent> {
    let mut sent = Vec::new();
    let _ = collect_waiting(reader, arrived, &mut sent).await;
    sent
}

async fn collect_waiting<R: AsyncRead + Unpin>(
    reader: &mut BufReader<R>,
    arrived: impl Fn(&R) -> bool,
    sent: &mut Vec<Sent>,
) -> Result<(), ReadError> {
    let (mut bytes, mut lines) = (0, 0);
    let mut blanks = Blanks::default();
    let result = loop {
        // A bot that writes faster than it is read would keep this loop
        // (and the arena's memory) going for ever.
        if bytes > MAX_UNASKED_BYTES || lines > MAX_UNASKED_LINES as u64 {
            break Err(ReadError::Flood);
        }
        if reader.buffer().is_empty() && !arrived(reader.get_ref()) {
            break Ok(());
        }
        // Buffered bytes come back at once; otherwise bytes have arrived.
        let available = match reader.fill_buf().await {
            Ok([]) => break Err(ReadError::Eof),
            Ok(available) => available,
            Err(e) => break Err(ReadError::Io(e)),
        };
        let before = blanks;
        let skipped = skip_blank_lines(available, &mut blanks);
        if skipped > 0 {
            reader.consume(skipped);
            bytes += skipped;
            lines += blanks.lines - before.lines;
            continue;
        }
        let Some(end) = available.iter().position(|&b| b == b'\n') else {
            if available.len() > MAX_LINE_BYTES {
                break Err(ReadError::TooLong);
            }
            break Ok(());
        };
        let mut line = available[..end].to_vec();
        reader.consume(end + 1);
        bytes += end + 1;
        lines += 1;
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        if line.len() > MAX_LINE_BYTES {
            break Err(ReadError::TooLong);
        }
        if blanks.lines > 0 {
            sent.push(Sent::Blanks(std::mem::take(&mut blanks)));
        }
        sent.push(Sent::Line(line));
    };
    if blanks.lines > 0 {
        sent.push(Sent::Blanks(blanks));
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One line read with no cap on blank lines; the blank lines skipped.
    async fn read_one<R: AsyncBufRead + Unpin>(
        input: &mut R,
        line: &mut Vec<u8>,
    ) -> Result<Blanks, ReadError> {
        let mut blanks = Blanks::default();
        read_line_capped(input, line, &mut blanks, usize::MAX)
            .await
            .map(|()| blanks)
    }

    fn line(text: &[u8]) -> Sent {
        Sent::Line(text.to_vec())
    }

    fn blanks(lines: u64, bytes: usize) -> Blanks {
        Blanks { lines, bytes }
    }

    #[tokio::test]
    async fn lines_are_capped_and_trimmed() {
        let mut input: &[u8] = b"move 3\r\nready\n";
        let mut line = Vec::new();
        read_one(&mut input, &mut line).await.unwrap();
        assert_eq!(line, b"move 3");
        read_one(&mut input, &mut line).await.unwrap();
        assert_eq!(line, b"ready");
        assert!(matches!(
            read_one(&mut input, &mut line).await,
            Err(ReadError::Eof)
        ));
        let long = vec![b'x'; MAX_LINE_BYTES + 10];
        let mut input: &[u8] = &long;
        assert!(matches!(
            read_one(&mut input, &mut line).await,
            Err(ReadError::TooLong)
        ));
        // A blank line too long is refused as any other.
        let mut long = vec![b' '; MAX_LINE_BYTES + 10];
        long.extend_from_slice(b"\nmove 1\n");
        let mut input: &[u8] = &long;
        assert!(matches!(
            read_one(&mut input, &mut line).await,
            Err(ReadError::TooLong)
        ));
    }

    #[tokio::test]
    async fn blank_lines_are_counted_not_returned() {
        let text = b"\n \r\n\t \n\x0b\x0c\n  move 3 \r\n\n\ninfo x\n";
        // Whole in one buffer, and in pieces of every size: a blank line
        // split between two reads counts the same.
        for capacity in [1, 2, 3, 5, 8192] {
            let mut input = BufReader::with_capacity(capacity, &text[..]);
            let mut line = Vec::new();
            let skipped = read_one(&mut input, &mut line).await.unwrap();
            assert_eq!(
                (skipped, &line[..]),
                (blanks(4, 1 + 3 + 3 + 3), &b"  move 3 "[..]),
                "capacity {capacity}"
            );
            let skipped = read_one(&mut input, &mut line).await.unwrap();
            assert_eq!((skipped, &line[..]), (blanks(2, 2), &b"info x"[..]));
            // Blank lines and then the end: counted, then the end.
            let mut input = BufReader::with_capacity(capacity, &b"\n\n \n"[..]);
            let mut skipped = Blanks::default();
            let end = read_line_capped(&mut input, &mut line, &mut skipped, usize::MAX).await;
            assert!(matches!(end, Err(ReadError::Eof)));
            assert_eq!(skipped, blanks(3, 4));
        }
    }

    #[tokio::test]
    async fn blank_lines_past_the_budget_end_the_read() {
        let mut flood = vec![b'\n'; 100];
        flood.extend_from_slice(b"move 1\n");
        let mut input = BufReader::with_capacity(16, &flood[..]);
        let (mut line, mut skipped) = (Vec::new(), Blanks::default());
        let read = read_line_capped(&mut input, &mut line, &mut skipped, 50).await;
        assert!(matches!(read, Err(ReadError::TooMuch)), "{read:?}");
        // It stopped soon after the budget, not at the end of the flood.
        assert!((51..=66).contains(&skipped.bytes), "{skipped:?}");
        // Within the budget, the line.
        let mut input = BufReader::new(&flood[..]);
        let (mut line, mut skipped) = (Vec::new(), Blanks::default());
        read_line_capped(&mut input, &mut line, &mut skipped, 100)
            .await
            .unwrap();
        assert_eq!((skipped, &line[..]), (blanks(100, 100), &b"move 1"[..]));
    }

    #[tokio::test]
    async fn a_flood_ends_the_look_at_once() {
        let blank = vec![b'\n'; MAX_UNASKED_LINES + 2];
        // Lines that fill the reader's buffer exactly, so none is left
        // partial (which would end the look until the rest arrives).
        let long = b"info xy\n".repeat(MAX_UNASKED_BYTES / 8 + 2);
        for flood in [blank, long] {
            let mut input = BufReader::new(&flood[..]);
            let got = waiting_lines(&mut input, |_| true).await;
            assert!(
                matches!(got, Err(ReadError::Flood)),
                "{:?}",
                got.map(|l| l.len())
            );
        }
    }

    #[tokio::test]
    async fn lines_left_are_kept_at_the_end() {
        let mut input = BufReader::new(&b"hello version=1 name=x\ninfo a\n\n\npart"[..]);
        let lines = lines_left(&mut input, |_| true).await;
        assert_eq!(
            lines,
            [
                line(b"hello version=1 name=x"),
                line(b"info a"),
                Sent::Blanks(blanks(2, 2))
            ]
        );
    }

    #[tokio::test]
    async fn waiting_lines_count_blank_runs_in_order() {
        let text = b"\n\ninfo a\n \r\n\n\ninfo b\n\nmov";
        let mut input = BufReader::new(&text[..]);
        let sent = waiting_lines(&mut input, |_| true).await.unwrap();
        assert_eq!(
            sent,
            [
                Sent::Blanks(blanks(2, 2)),
                line(b"info a"),
                Sent::Blanks(blanks(3, 5)),
                line(b"info b"),
                Sent::Blanks(blanks(1, 1)),
            ]
        );
        assert_eq!(input.buffer(), b"mov");
    }

    #[tokio::test]
    async fn waiting_lines_leave_a_partial_line() {
        let mut input = BufReader::new(&b"info a\nmove 1\nmov"[..]);
        let lines = waiting_lines(&mut input, |_| true).await.unwrap();
        assert_eq!(lines, [line(b"info a"), line(b"move 1")]);
        assert_eq!(input.buffer(), b"mov");
        // Nothing buffered and nothing arrived: no read at all.
        let mut input = BufReader::new(&b"move 2\n"[..]);
        assert!(waiting_lines(&mut input, |_| false)
            .await
            .unwrap()
            .is_empty());
        // Bytes arrived (the inner reader has them): they are read.
        let unread = |inner: &&[u8]| !inner.is_empty();
        assert_eq!(
            waiting_lines(&mut input, unread).await.unwrap(),
            [line(b"move 2")]
        );
        // A flood, faster than it is read, ends the look at once.
        // The end of the output is the bot's to explain, at the request.
        assert!(matches!(
            waiting_lines(&mut input, |_| true).await,
            Err(ReadError::Eof)
        ));
    }
}
