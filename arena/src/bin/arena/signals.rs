//! The signals that stop a command: Ctrl-C (SIGINT), SIGTERM and, for a
//! command tied to a terminal, SIGHUP (the terminal closed); installed by
//! [`arena::platform::ShutdownSignals`].
//!
//! One thread of its own listens for them from the first wait on, and
//! counts them; each wait takes one. So a signal that comes while no one
//! waits (between the start-up check and the run, say, which a loaded
//! machine widens) is kept for the next wait, not lost.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

use arena::platform::ShutdownSignals;
use tokio::sync::Notify;

/// Signals received, and taken by a wait.
static RECEIVED: AtomicU64 = AtomicU64::new(0);
static TAKEN: AtomicU64 = AtomicU64::new(0);
static ARRIVED: Notify = Notify::const_new();
static LISTENING: OnceLock<()> = OnceLock::new();

/// Starts the listening thread once, and returns when its handlers are
/// installed: `main` calls it before a command that waits for signals
/// starts, so a signal sent as soon as the command shows a sign of life
/// (the live view's address) is counted, not fatal. A signal whose handler cannot be installed is not listened
/// for.
pub fn listen(hangup: bool) {
    LISTENING.get_or_init(|| {
        let (ready, installed) = std::sync::mpsc::channel();
        let started = std::thread::Builder::new()
            .name("signals".into())
            .spawn(move || {
                let Ok(runtime) = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                else {
                    let _ = ready.send(());
                    return;
                };
                runtime.block_on(async move {
                    let mut signals = ShutdownSignals::install(hangup);
                    let _ = ready.send(());
                    loop {
                        signals.recv().await;
                        RECEIVED.fetch_add(1, Ordering::SeqCst);
                        ARRIVED.notify_waiters();
                    }
                });
            });
        if started.is_ok() {
            let _ = installed.recv();
        }
    });
}

/// Resolves on Ctrl-C or SIGTERM, and with `hangup` on SIGHUP too (the
/// first wait decides which signals are listened for): on the first such
/// signal not yet taken by an earlier wait.
pub async fn stopped(hangup: bool) {
    listen(hangup);
    loop {
        let arrived = ARRIVED.notified();
        tokio::pin!(arrived);
        arrived.as_mut().enable();
        let taken = TAKEN.load(Ordering::SeqCst);
        if RECEIVED.load(Ordering::SeqCst) > taken {
            if TAKEN
                .compare_exchange(taken, taken + 1, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
            {
                return;
            }
            continue;
        }
        arrived.await;
    }
}
