//! One bot process: started in its own process group, spoken to over pipes
//! with capped line reads and deadlines, its stderr drained to a capped log,
//! and shut down with quit, a grace period, SIGTERM, then SIGKILL.
//!
//! Faults are values ([`Fault`]), not errors: the referee turns them into a
//! lost game. Modelled on how cargo-nextest runs test processes.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use nix::sys::signal::{killpg, Signal};
use nix::unistd::Pid;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};
use tokio::task::JoinHandle;
use tokio::time::Instant;

use crate::config::BotSpec;
use crate::protocol::{self, Reply, MAX_LINE_BYTES};

/// How long a bot may take to exit after `quit`, and after SIGTERM.
pub const GRACE: Duration = Duration::from_millis(500);

/// Bytes of `info` lines kept in a bot's log per process; later ones are
/// dropped, so a chatty bot cannot fill the disk.
pub const INFO_CAP_BYTES: u64 = 1 << 20;

/// Bytes of a bot's stderr kept in its log; the rest is read and dropped, so
/// a chatty bot never blocks on a full pipe.
pub const STDERR_CAP_BYTES: u64 = 1 << 20;

/// How a bot failed a request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// No reply within the limit the bot was told plus the margin.
    Timeout {
        /// The limit the bot was told, ms.
        limit_ms: u64,
        /// The margin granted on top, ms.
        margin_ms: u64,
    },
    /// The process exited, closed its stdout, or could not be started.
    Crash(String),
    /// A line that breaks protocol.md: too long, not ASCII, or not the expected reply.
    Protocol(String),
}

impl Fault {
    /// The termination name for `games.csv`.
    #[must_use]
    pub fn termination(&self) -> &'static str {
        match self {
            Fault::Timeout { .. } => "timeout",
            Fault::Crash(_) => "crash",
            Fault::Protocol(_) => "protocol-error",
        }
    }
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Fault::Timeout {
                limit_ms,
                margin_ms,
            } => {
                write!(
                    f,
                    "no reply within its {limit_ms} ms (and the {margin_ms} ms margin)"
                )
            }
            Fault::Crash(s) | Fault::Protocol(s) => f.write_str(s),
        }
    }
}

/// A running bot.
pub struct BotProcess {
    child: Child,
    pgid: Pid,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    line: Vec<u8>,
    log: std::fs::File,
    stderr_task: Option<JoinHandle<()>>,
    info_bytes: u64,
    /// The name the bot gave in its handshake.
    pub self_name: String,
    closed: bool,
}

impl BotProcess {
    /// Starts `spec` in its own process group, with stderr and `info` lines
    /// logged to `log_path` (appended), and runs the handshake within `startup`.
    ///
    /// # Errors
    /// A [`Fault`]: `Crash` if it cannot be started or exits, `Timeout` or
    /// `Protocol` if the handshake fails. The process is then already stopped.
    pub async fn start(
        spec: &BotSpec,
        log_path: &Path,
        startup: Duration,
    ) -> Result<BotProcess, Fault> {
        let mut log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(log_path)
            .map_err(|e| Fault::Crash(format!("cannot open log {}: {e}", log_path.display())))?;
        let _ = writeln!(log, "# start: {}", spec.command.join(" "));
        let program = resolve_program(spec).map_err(Fault::Crash)?;
        let mut cmd = Command::new(program);
        cmd.args(&spec.command[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .process_group(0);
        if let Some(dir) = &spec.dir {
            cmd.current_dir(dir);
        }
        #[cfg(target_os = "linux")]
        // SAFETY: the closure only makes the async-signal-safe prctl call.
        unsafe {
            cmd.pre_exec(|| {
                // The bot dies with the arena, even on kill -9 of the arena.
                nix::sys::prctl::set_pdeathsig(Signal::SIGKILL).map_err(std::io::Error::from)
            });
        }
        let mut child = cmd
            .spawn()
            .map_err(|e| Fault::Crash(format!("cannot start {:?}: {e}", spec.command[0])))?;
        let pid = child
            .id()
            .ok_or_else(|| Fault::Crash("exited at once".into()))?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
        let stderr = child.stderr.take().expect("piped stderr");
        let stderr_log = log
            .try_clone()
            .map_err(|e| Fault::Crash(format!("log: {e}")))?;
        let stderr_task = tokio::spawn(drain_stderr(stderr, stderr_log));
        let mut bot = BotProcess {
            child,
            pgid: Pid::from_raw(pid as i32),
            stdin,
            stdout,
            line: Vec::with_capacity(256),
            log,
            stderr_task: Some(stderr_task),
            info_bytes: 0,
            self_name: String::new(),
            closed: false,
        };
        let mut buf = String::new();
        protocol::hello(&mut buf);
        let result = match bot.request(&buf, startup, Duration::ZERO).await {
            Ok((line, _)) => match protocol::parse_reply(line) {
                Ok(Reply::Hello { version, name }) if version == protocol::VERSION => {
                    Ok(name.to_string())
                }
                Ok(Reply::Hello { version, .. }) => Err(Fault::Protocol(format!(
                    "speaks protocol version {version}, the arena speaks {}",
                    protocol::VERSION
                ))),
                Ok(_) => Err(Fault::Protocol(format!(
                    "answered hello with '{}'",
                    protocol::shown(line)
                ))),
                Err(e) => Err(Fault::Protocol(e.to_string())),
            },
            Err(f) => Err(f),
        };
        match result {
            Ok(name) => {
                bot.self_name = name;
                Ok(bot)
            }
            Err(f) => {
                bot.note(&format!("handshake failed: {f}"));
                bot.shutdown(false).await;
                Err(f)
            }
        }
    }

    /// Writes `request` (one line, with its `\n`) and waits up to `limit`
    /// plus `margin` for the reply line, skipping `info` lines (logged) and
    /// blank lines. The write counts against the deadline too, so a bot that
    /// stops reading cannot stall the arena. Returns the reply, trimmed, and
    /// the time from the write to its arrival.
    ///
    /// # Errors
    /// A [`Fault`] when the bot is gone, too slow, or sends a bad line.
    pub async fn request(
        &mut self,
        request: &str,
        limit: Duration,
        margin: Duration,
    ) -> Result<(&str, Duration), Fault> {
        let sent = Instant::now();
        let deadline = sent + limit + margin;
        let timeout = Fault::Timeout {
            limit_ms: limit.as_millis() as u64,
            margin_ms: margin.as_millis() as u64,
        };
        match tokio::time::timeout_at(deadline, self.write(request)).await {
            Err(_) => return Err(self.timeout_fault(timeout)),
            Ok(Err(e)) => return Err(self.crash_fault(&format!("cannot be written to ({e})"))),
            Ok(Ok(())) => {}
        }
        loop {
            let read = read_line_capped(&mut self.stdout, &mut self.line);
            match tokio::time::timeout_at(deadline, read).await {
                Err(_) => return Err(self.timeout_fault(timeout)),
                Ok(Err(ReadError::Eof)) => return Err(self.crash_fault("closed its output")),
                Ok(Err(ReadError::Io(e))) => {
                    return Err(self.crash_fault(&format!("output failed ({e})")))
                }
                Ok(Err(ReadError::TooLong)) => {
                    return Err(Fault::Protocol(format!(
                        "sent a line longer than {MAX_LINE_BYTES} bytes"
                    )))
                }
                Ok(Ok(())) => {}
            }
            let elapsed = sent.elapsed();
            if !self.line.is_ascii() {
                return Err(Fault::Protocol(format!(
                    "sent a line that is not ASCII: '{}'",
                    protocol::shown(&String::from_utf8_lossy(&self.line))
                )));
            }
            let text = std::str::from_utf8(&self.line).expect("ASCII");
            let is_reply = match protocol::parse_reply(text) {
                Ok(Reply::Info(info)) => {
                    self.info_bytes += info.len() as u64 + 1;
                    if self.info_bytes <= INFO_CAP_BYTES {
                        let _ = writeln!(self.log, "info: {info}");
                    } else if self.info_bytes - (info.len() as u64 + 1) <= INFO_CAP_BYTES {
                        let _ = writeln!(
                            self.log,
                            "# later info lines dropped past the {INFO_CAP_BYTES}-byte cap"
                        );
                    }
                    false
                }
                Ok(Reply::Blank) => false,
                _ => true,
            };
            if is_reply {
                let text = std::str::from_utf8(&self.line).expect("ASCII");
                return Ok((text.trim(), elapsed));
            }
        }
    }

    /// Writes a notification line (`gameover`, `quit`), expecting no reply,
    /// within `limit`.
    ///
    /// # Errors
    /// A [`Fault`] when the bot has gone or does not read its input.
    pub async fn notify(&mut self, line: &str, limit: Duration) -> Result<(), Fault> {
        match tokio::time::timeout(limit, self.write(line)).await {
            Err(_) => Err(Fault::Timeout {
                limit_ms: limit.as_millis() as u64,
                margin_ms: 0,
            }),
            Ok(Err(e)) => Err(self.crash_fault(&format!("cannot be written to ({e})"))),
            Ok(Ok(())) => Ok(()),
        }
    }

    async fn write(&mut self, line: &str) -> std::io::Result<()> {
        self.stdin.write_all(line.as_bytes()).await?;
        self.stdin.flush().await
    }

    /// Appends a note to the bot's log.
    pub fn note(&mut self, text: &str) {
        let _ = writeln!(self.log, "# {text}");
    }

    /// Stops the bot: `quit` if `polite`, then the grace period, SIGTERM to the
    /// process group, another grace period, and SIGKILL. Always ends with a
    /// SIGKILL to the group, so no child the bot started outlives it.
    pub async fn shutdown(mut self, polite: bool) {
        if polite {
            let _ = self.notify(protocol::QUIT, GRACE).await;
        }
        // Closing stdin lets a bot that reads to EOF exit on its own.
        let _ = tokio::time::timeout(GRACE, self.stdin.shutdown()).await;
        if tokio::time::timeout(GRACE, self.child.wait())
            .await
            .is_err()
        {
            let _ = killpg(self.pgid, Signal::SIGTERM);
            if tokio::time::timeout(GRACE, self.child.wait())
                .await
                .is_err()
            {
                let _ = killpg(self.pgid, Signal::SIGKILL);
                let _ = self.child.wait().await;
            }
        }
        let _ = killpg(self.pgid, Signal::SIGKILL);
        self.closed = true;
        if let Some(task) = self.stderr_task.take() {
            // A grandchild may still hold stderr open; don't wait on it for long.
            if tokio::time::timeout(GRACE, task).await.is_err() {
                self.note("stderr still open after the process group was killed");
            }
        }
    }

    /// A timeout, unless the process has in fact exited (its stdout held
    /// open by a child of its own): then a crash.
    fn timeout_fault(&mut self, timeout: Fault) -> Fault {
        match self.child.try_wait() {
            Ok(Some(status)) => {
                Fault::Crash(format!("the process exited ({status}) without replying"))
            }
            _ => timeout,
        }
    }

    fn crash_fault(&mut self, what: &str) -> Fault {
        match self.child.try_wait() {
            Ok(Some(status)) => Fault::Crash(format!("{what}: the process exited ({status})")),
            _ => Fault::Crash(what.to_string()),
        }
    }
}

impl Drop for BotProcess {
    /// A bot dropped without [`BotProcess::shutdown`] (a cancelled series) is
    /// killed at once, with its whole process group.
    fn drop(&mut self) {
        if !self.closed {
            let _ = killpg(self.pgid, Signal::SIGKILL);
        }
        if let Some(task) = self.stderr_task.take() {
            task.abort();
        }
    }
}

/// The program `spec` runs: `arena` means this executable (the bundled bots);
/// a name without `/` is looked up in `PATH`; a path is taken relative to
/// the bot's working directory.
///
/// # Errors
/// One line naming the bot, the program and the fix, when the working
/// directory or the program does not exist or is not executable.
pub fn resolve_program(spec: &BotSpec) -> Result<PathBuf, String> {
    let first = &spec.command[0];
    if first == "arena" {
        return std::env::current_exe().map_err(|e| {
            format!(
                "bot '{}': cannot find the arena's own executable: {e}",
                spec.name
            )
        });
    }
    let cwd =
        std::env::current_dir().map_err(|e| format!("cannot read the working directory: {e}"))?;
    let dir = match &spec.dir {
        Some(d) => cwd.join(d),
        None => cwd,
    };
    if !dir.is_dir() {
        return Err(format!(
            "bot '{}': working directory '{}' does not exist: fix its dir in the config",
            spec.name,
            dir.display()
        ));
    }
    which::which_in(first, std::env::var_os("PATH"), &dir).map_err(|_| {
        format!(
            "bot '{}': program '{first}' not found or not executable (looked {}): fix its command in the config",
            spec.name,
            if first.contains('/') { format!("in {}", dir.display()) } else { "in PATH".to_string() }
        )
    })
}

enum ReadError {
    Eof,
    TooLong,
    Io(std::io::Error),
}

/// Reads one line into `line` (without `\n`), refusing lines over
/// [`MAX_LINE_BYTES`] without buffering them, so memory stays flat.
async fn read_line_capped(
    reader: &mut BufReader<ChildStdout>,
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

/// Copies a bot's stderr into its log up to [`STDERR_CAP_BYTES`], then reads
/// and drops the rest until the pipe closes.
async fn drain_stderr(mut stderr: tokio::process::ChildStderr, mut log: std::fs::File) {
    let mut buf = vec![0u8; 8192];
    let mut kept = 0u64;
    let mut dropped = 0u64;
    loop {
        match stderr.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                let keep = (STDERR_CAP_BYTES - kept).min(n as u64) as usize;
                if keep > 0 {
                    let _ = log.write_all(&buf[..keep]);
                    kept += keep as u64;
                }
                dropped += (n - keep) as u64;
            }
        }
    }
    if dropped > 0 {
        let _ = writeln!(
            log,
            "\n# {dropped} bytes of stderr dropped past the {STDERR_CAP_BYTES}-byte cap"
        );
    }
}
