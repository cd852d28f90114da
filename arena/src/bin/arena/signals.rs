//! The signals that stop a command: Ctrl-C (SIGINT), SIGTERM and, for a
//! command tied to a terminal, SIGHUP (the terminal closed).

use tokio::signal::unix::{signal, Signal, SignalKind};

/// Resolves on Ctrl-C or SIGTERM, and with `hangup` on SIGHUP too. A
/// signal whose handler cannot be installed is not waited for.
pub async fn stopped(hangup: bool) {
    let mut term = signal(SignalKind::terminate()).ok();
    let mut hup = hangup.then(|| signal(SignalKind::hangup()).ok()).flatten();
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        () = received(&mut term) => {}
        () = received(&mut hup) => {}
    }
}

async fn received(signal: &mut Option<Signal>) {
    match signal {
        Some(s) => {
            s.recv().await;
        }
        None => std::future::pending().await,
    }
}
