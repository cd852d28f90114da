//! Reading a bot's output a line at a time, with caps that keep memory flat.

use tokio::io::{AsyncBufRead, AsyncBufReadExt};

use crate::protocol::MAX_LINE_BYTES;

/// Why no line could be read.
#[derive(Debug)]
pub(crate) enum ReadError {
    /// The bot closed its output.
    Eof,
    /// A line longer than [`MAX_LINE_BYTES`].
    TooLong,
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
pub(crate) async fn waiting_lines<R: AsyncBufRead + Unpin>(
    reader: &mut R,
) -> Result<Vec<Vec<u8>>, ReadError> {
    let mut lines = Vec::new();
    loop {
        // Polled once: only what has already arrived counts.
        let Ok(ready) = tokio::time::timeout(std::time::Duration::ZERO, reader.fill_buf()).await
        else {
            return Ok(lines);
        };
        let available = ready.map_err(ReadError::Io)?;
        let Some(end) = available.iter().position(|&b| b == b'\n') else {
            if available.len() > MAX_LINE_BYTES {
                return Err(ReadError::TooLong);
            }
            return Ok(lines);
        };
        let mut line = available[..end].to_vec();
        reader.consume(end + 1);
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        if line.len() > MAX_LINE_BYTES {
            return Err(ReadError::TooLong);
        }
        lines.push(line);
    }
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
    async fn waiting_lines_leave_a_partial_line() {
        let mut input: &[u8] = b"info a\nmove 1\nmov";
        let lines = waiting_lines(&mut input).await.unwrap();
        assert_eq!(lines, [b"info a".to_vec(), b"move 1".to_vec()]);
        assert_eq!(input, b"mov");
    }
}
