//! The wait for the sandbox's probe ([`super::Sandbox::probe`]): bubblewrap
//! started in a process group of its own, so a Ctrl-C at the terminal
//! does not reach it, and killed with its group when the run is stopped
//! (`stop`) or it takes longer than [`PROBE_TIMEOUT`], its pipes' end
//! included: a namespace's init left behind may hold them open for good.

use std::process::{ExitStatus, Stdio};
use std::time::Duration;

use tokio::io::AsyncReadExt as _;
use tokio_util::sync::CancellationToken;

use crate::platform::{self, OnArenaDeath, ProcessLimits, Sig};

/// The longest a probe may take before it is killed: a healthy one ends
/// in well under a second.
pub const PROBE_TIMEOUT: Duration = Duration::from_secs(30);

/// Why a probe gave no answer.
#[derive(Debug, thiserror::Error)]
pub enum ProbeWait {
    /// It could not be started, or its runtime could not be.
    #[error("{0}")]
    Start(std::io::Error),
    /// The run was stopped (Ctrl-C) while it ran: it was killed.
    #[error("the start-up check was stopped: the sandbox's probe was killed")]
    Stopped,
    /// It ran longer than its time: it was killed.
    #[error("the sandbox's probe did not end within {} s: it was killed", .0.as_secs())]
    TimedOut(Duration),
}

/// Runs `command` (the probe) to its exit, or kills its process group
/// once `stop` fires or `timeout` passes (its stderr read to its end
/// within the same time). Its exit status and what it wrote to stderr.
///
/// # Errors
/// [`ProbeWait`].
pub fn run(
    command: std::process::Command,
    stop: &CancellationToken,
    timeout: Duration,
) -> Result<(ExitStatus, Vec<u8>), ProbeWait> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(ProbeWait::Start)?;
    runtime.block_on(wait(command, stop, timeout))
}

async fn wait(
    command: std::process::Command,
    stop: &CancellationToken,
    timeout: Duration,
) -> Result<(ExitStatus, Vec<u8>), ProbeWait> {
    let mut command = tokio::process::Command::from(command);
    command
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    platform::start_in_own_group(&mut command, OnArenaDeath::Kill, ProcessLimits::default());
    let mut child = command.spawn().map_err(ProbeWait::Start)?;
    let group = child.id();
    let stderr = child.stderr.take();
    let read = async move {
        let mut said = Vec::new();
        if let Some(mut err) = stderr {
            let _ = err.read_to_end(&mut said).await;
        }
        said
    };
    // Its stderr is read to its end within the same time and stop.
    let ended = async {
        let (status, said) = tokio::join!(child.wait(), read);
        status.map(|s| (s, said))
    };
    let why = tokio::select! {
        ended = ended => return ended.map_err(ProbeWait::Start),
        () = stop.cancelled() => ProbeWait::Stopped,
        () = tokio::time::sleep(timeout) => ProbeWait::TimedOut(timeout),
    };
    if let Some(group) = group {
        let _ = platform::signal_group(group, Sig::Kill);
    }
    Err(why)
}
