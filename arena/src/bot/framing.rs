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
    /// The pipe failed.
    Io(std::io::Error),
}

/// Reads one line into `line` (without `\n` or a trailing `\r`), refusing
/// lines over [`MAX_LINE_BYTES`] without buffering them.
pub(crate) async fn read_line_capped<R: AsyncBufRead + Unpin>(
    reader: &mut R,
    line: &mut Vec<u8>,
) -> Result<(), ReadError> {
    line.clear();
    loop {
        let available = reader.fill_buf().await.map_err(ReadError::Io)?;
        if available.is_empty() {
            return Err(ReadError::Eof);
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
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            if line.len() > MAX_LINE_BYTES {
                return Err(ReadError::TooLong);
            }
            return Ok(());
        }
    }
}

/// Takes the complete lines already waiting in `reader`, without waiting
/// for more: output the bot sent before it was asked. A partial line is left.
///
/// `arrived` says whether bytes have arrived on the inner reader that
/// `reader` has not buffered yet (for a pipe, [`pipe_readable`]: the kernel's word, one `poll(2)`);
/// only then is `reader` read, and the read completes at once. No timer is
/// involved: a zero timeout would wait for the runtime's next timer tick,
/// up to a millisecond per request.
pub(crate) async fn waiting_lines<R: AsyncRead + Unpin>(
    reader: &mut BufReader<R>,
    arrived: impl Fn(&R) -> bool,
) -> Result<Vec<Vec<u8>>, ReadError> {
    let mut lines = Vec::new();
    collect_waiting(reader, arrived, &mut lines).await?;
    Ok(lines)
}

/// The complete lines waiting in `reader`, as [`waiting_lines`], but
/// those read before the end of the output (or a flood, or a line too
/// long) are kept: what a bot that has gone left in its pipe.
pub(crate) async fn lines_left<R: AsyncRead + Unpin>(
    reader: &mut BufReader<R>,
    arrived: impl Fn(&R) -> bool,
) -> Vec<Vec<u8>> {
    let mut lines = Vec::new();
    let _ = collect_waiting(reader, arrived, &mut lines).await;
    lines
}

async fn collect_waiting<R: AsyncRead + Unpin>(
    reader: &mut BufReader<R>,
    arrived: impl Fn(&R) -> bool,
    lines: &mut Vec<Vec<u8>>,
) -> Result<(), ReadError> {
    let mut bytes = 0;
    loop {
        // A bot that writes faster than it is read would keep this loop
        // (and the arena's memory) going for ever.
        if bytes > MAX_UNASKED_BYTES || lines.len() > MAX_UNASKED_LINES {
            return Err(ReadError::Flood);
        }
        if reader.buffer().is_empty() && !arrived(reader.get_ref()) {
            return Ok(());
        }
        // Buffered bytes come back at once; otherwise bytes have arrived.
        let available = reader.fill_buf().await.map_err(ReadError::Io)?;
        if available.is_empty() {
            return Err(ReadError::Eof);
        }
        let Some(end) = available.iter().position(|&b| b == b'\n') else {
            if available.len() > MAX_LINE_BYTES {
                return Err(ReadError::TooLong);
            }
            return Ok(());
        };
        let mut line = available[..end].to_vec();
        reader.consume(end + 1);
        bytes += end + 1;
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        if line.len() > MAX_LINE_BYTES {
            return Err(ReadError::TooLong);
        }
        lines.push(line);
    }
}

/// Whether `fd` (a pipe) has bytes to read, or its end, right now: one
/// `poll(2)` with a zero timeout, which asks the kernel, not the runtime's
/// cached readiness.
pub(crate) fn pipe_readable(fd: std::os::fd::BorrowedFd<'_>) -> bool {
    use nix::poll::{poll, PollFd, PollFlags, PollTimeout};
    let mut fds = [PollFd::new(fd, PollFlags::POLLIN)];
    // An error (EINTR) counts as "look": the read that follows finds out.
    poll(&mut fds, PollTimeout::ZERO).map_or(true, |n| n > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn lines_are_capped_and_trimmed() {
        let mut input: &[u8] = b"move 3\r\nready\n";
        let mut line = Vec::new();
        read_line_capped(&mut input, &mut line).await.unwrap();
        assert_eq!(line, b"move 3");
        read_line_capped(&mut input, &mut line).await.unwrap();
        assert_eq!(line, b"ready");
        assert!(matches!(
            read_line_capped(&mut input, &mut line).await,
            Err(ReadError::Eof)
        ));
        let long = vec![b'x'; MAX_LINE_BYTES + 10];
        let mut input: &[u8] = &long;
        assert!(matches!(
            read_line_capped(&mut input, &mut line).await,
            Err(ReadError::TooLong)
        ));
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
        let mut input = BufReader::new(&b"hello version=1 name=x\ninfo a\npart"[..]);
        let lines = lines_left(&mut input, |_| true).await;
        assert_eq!(
            lines,
            [b"hello version=1 name=x".to_vec(), b"info a".to_vec()]
        );
    }

    #[tokio::test]
    async fn waiting_lines_leave_a_partial_line() {
        let mut input = BufReader::new(&b"info a\nmove 1\nmov"[..]);
        let lines = waiting_lines(&mut input, |_| true).await.unwrap();
        assert_eq!(lines, [b"info a".to_vec(), b"move 1".to_vec()]);
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
            [b"move 2".to_vec()]
        );
        // A flood, faster than it is read, ends the look at once.
        // The end of the output is the bot's to explain, at the request.
        assert!(matches!(
            waiting_lines(&mut input, |_| true).await,
            Err(ReadError::Eof)
        ));
    }
}
