//! `arena play`: a game against a bot, or two bots watched, on a terminal.

use std::future::Future;
use std::io::{BufReader, Read, Write};

use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use super::Outcome;
use crate::play::{read_capped_line, session, Ending, PlayOptions, Players};

/// Plays the session of `options`, the human's lines read from `input` (on
/// a thread of its own) and the board written to `out`. `interrupted`
/// resolves when the user stops it (Ctrl-C, SIGTERM, a closed terminal):
/// the game is abandoned and the bots are stopped ([`Outcome::Interrupted`]).
///
/// # Errors
/// One line when a bot cannot be started (or fails its handshake), the log
/// cannot be created, the async runtime cannot start, or `out` fails. The
/// bots are stopped in every case.
pub fn run<F: Future<Output = ()>>(
    options: PlayOptions,
    input: impl Read + Send + 'static,
    out: impl Write,
    interrupted: F,
) -> anyhow::Result<Outcome> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| anyhow::anyhow!("cannot start the async runtime: {e}"))?;
    let needs_input = match &options.players {
        Players::Human { .. } => true,
        Players::Bots { step, .. } => *step,
    };
    // The reader thread blocks on its input; it is never joined, so a session
    // that ends (Ctrl-C, the bot's last move) does not wait for a line.
    let input = needs_input.then(|| lines(input));
    let ending = runtime.block_on(async {
        let cancel = CancellationToken::new();
        let work = session(options, input, out, cancel.clone());
        tokio::pin!(work);
        tokio::select! {
            result = &mut work => return result,
            () = interrupted => cancel.cancel(),
        }
        work.await
    })?;
    Ok(match ending {
        Ending::Interrupted => Outcome::Interrupted,
        _ => Outcome::Success,
    })
}

/// The lines of `input`, read on a thread of their own; the channel closes
/// at the end of the input. Bytes that are not UTF-8 are replaced, and a
/// line is cut at [`crate::play::MAX_INPUT_BYTES`].
fn lines(input: impl Read + Send + 'static) -> mpsc::Receiver<String> {
    let (tx, rx) = mpsc::channel(16);
    std::thread::spawn(move || {
        let mut input = BufReader::new(input);
        let mut line = Vec::new();
        while let Ok(Some(())) = read_capped_line(&mut input, &mut line) {
            if tx
                .blocking_send(String::from_utf8_lossy(&line).into_owned())
                .is_err()
            {
                break;
            }
        }
    });
    rx
}
