//! One bot process: started in its own process group (under the guard),
//! spoken to over pipes with capped line reads and deadlines, its stderr
//! drained to a capped log, and shut down with quit, a grace period,
//! SIGTERM, then SIGKILL to the whole group.
//!
//! Faults are values ([`Fault`]), not errors: the referee turns them into a
//! lost game. Modelled on how cargo-nextest runs test processes.

mod framing;
pub mod layout;
pub mod log;
pub mod spawn;
pub mod transcript;

use std::path::Path;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, ChildStdout};
use tokio::task::JoinHandle;
use tokio::time::Instant;

use endodoi_protocol::{
    hello_name, shown, shown_bytes, Hello, Quit, Reply, MAX_LINE_BYTES, MAX_REPLY_BYTES,
    MAX_UNASKED_BYTES, MAX_UNASKED_LINES, QUIT_GRACE_MS,
};

use crate::config::BotSpec;
use crate::platform::{signal_group, signal_process, Sig};
use framing::{read_line_capped, waiting_lines, Blanks, ReadError, Sent};
pub use log::BotLog;
pub use spawn::resolve_program;
pub use transcript::{Transcriber, Transcript, TranscriptFailed, TRANSCRIPT_CAP_BYTES};

/// How long a bot may take to exit after `quit`, and after SIGTERM
/// ([`QUIT_GRACE_MS`]).
pub const GRACE: Duration = Duration::from_millis(QUIT_GRACE_MS);

/// How a bot failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// It could not be started, or failed its handshake.
    Start(String),
    /// No reply within the limit the bot was told plus the margin.
    Timeout {
        /// The limit the bot was told, ms.
        limit_ms: u64,
        /// The margin granted on top, ms.
        margin_ms: u64,
        /// The start of a line it had sent without its end of line, shown
        /// escaped ([`shown_bytes`]: bytes that are not UTF-8 as `\xff`),
        /// if it had sent one.
        unfinished: Option<String>,
    },
    /// The process exited or closed its stdout; holds what was seen,
    /// with the exit status or signal when known.
    Crash(String),
    /// A line that breaks protocol.md: too long, not ASCII, not the expected
    /// reply, or sent before it was asked for.
    Protocol(String),
}

impl Fault {
    /// The termination name for `games.csv`.
    #[must_use]
    pub fn termination(&self) -> &'static str {
        match self {
            Fault::Start(_) => "start-failure",
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
                unfinished,
            } => {
                write!(f, "no reply within its {limit_ms} ms")?;
                if *margin_ms > 0 {
                    write!(f, " (and the {margin_ms} ms margin)")?;
                }
                if let Some(text) = unfinished {
                    write!(
                        f,
                        "; it had sent '{text}' with no end of line (end each line with \\n and flush)"
                    )?;
                }
                Ok(())
            }
            Fault::Start(s) | Fault::Crash(s) | Fault::Protocol(s) => f.write_str(s),
        }
    }
}

/// How to start a bot.
#[derive(Clone, Debug)]
pub struct StartOptions<'a> {
    /// The limit for the handshake, from the start of the process.
    pub startup: Duration,
    /// The arena's own executable, to run the bot under `arena guard`;
    /// `None` starts it directly (then only the bot dies with the arena).
    pub guard: Option<&'a Path>,
    /// Where its stderr and `info` lines go.
    pub log: BotLog,
    /// What each of its log lines starts with (which series it serves).
    pub log_prefix: String,
    /// Where to write every line in and out (a game's [`Transcript`],
    /// this bot's side of it), if anywhere.
    pub transcript: Option<Transcriber>,
}

/// A running bot.
pub struct BotProcess {
    child: Child,
    /// Its cgroups ([`crate::cgroup`]): frozen but while it is asked
    /// something, killed and removed when it ends (dropped after `child`).
    cgroup: Option<std::sync::Arc<crate::cgroup::BotGroup>>,
    /// Set by [`BotProcess::hand_over`] for the next request: the
    /// opponent's cgroups to freeze once it is written.
    handed: Option<Option<std::sync::Arc<crate::cgroup::BotGroup>>>,
    pgid: u32,
    /// Whether the group's leader is the guard, which on SIGUSR2 ends the
    /// bot with every process it started, even those out of its group.
    guarded: bool,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
    line: Vec<u8>,
    log: BotLog,
    prefix: String,
    stderr_task: Option<JoinHandle<()>>,
    transcript: Option<Transcriber>,
    /// The blank lines read since the last line that was not blank, not
    /// yet in the transcript.
    blanks: Blanks,
    /// The name the bot gave in its handshake.
    pub self_name: String,
    /// The options the bot listed in its handshake (`options=`), in its
    /// order; `None` when it listed none.
    pub listed_options: Option<Vec<String>>,
    closed: bool,
    /// The last notification sent (`gameover`), until the next request: a
    /// line the bot sends meanwhile is most likely a reply to it.
    notified: Option<String>,
    /// The notification sent just before the latest request, if any.
    asked_after: Option<String>,
    /// Where the handshake is: awaiting the `hello` reply, just after it
    /// (a second one would be skipped), or past it.
    hello: HelloStage,
    /// Lines before the `hello` reply that were not one (a banner),
    /// skipped and logged: how many, and the first, its bytes as read.
    banner: (usize, Option<Vec<u8>>),
    /// A second `hello` reply, skipped: the line, as read.
    second_hello: Option<String>,
}

/// Where a bot's handshake is ([`BotProcess::request`] reads lines by it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum HelloStage {
    /// The next reply is the `hello` reply: lines that are not one are a
    /// banner, logged and skipped (whenever they arrived).
    Awaiting,
    /// The `hello` reply has been read: if the next line (other than
    /// `info` or blank) is a well-formed `hello` reply too, it is the
    /// bot's second answer to the one `hello` (it sent one before it was
    /// asked), logged and skipped once.
    Answered,
    /// Past the handshake: every line counts.
    Done,
}

/// What a bot left behind when it was stopped ([`BotProcess::shutdown`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Ended {
    /// A second `hello` reply the bot sent (skipped), as read: it answered
    /// the one `hello` twice, most likely once before it was asked.
    pub second_hello: Option<String>,
    /// How many lines before its `hello` reply were not one (a banner,
    /// skipped), and the first of them, its bytes as read (show them with
    /// [`shown_bytes`]: `\xff` for a byte that is not UTF-8).
    pub banner: (usize, Option<Vec<u8>>),
}

impl Ended {
    /// The words for a bot author about a second `hello` reply, if there
    /// was one: what it did, that it cost nothing, and the fix.
    #[must_use]
    pub fn second_hello_note(&self) -> Option<String> {
        self.second_hello.as_ref().map(|line| {
            format!(
                "answered hello twice (the second '{}'): it sent two hello replies (one early, before it was asked, or two in answer to one hello); the arena skips the second, but send exactly one, in answer to the arena's hello",
                shown(line)
            )
        })
    }
}

/// The `hello` for `spec`: this version, with its `options` as
/// `option.NAME=VALUE` words.
#[must_use]
pub fn hello_of(spec: &BotSpec) -> Hello {
    Hello {
        options: spec.options.clone(),
        ..Hello::CURRENT
    }
}

/// The options a good `hello` reply `line` lists (`options=`), `None` when
/// it lists none.
#[must_use]
pub fn listed_options(line: &str) -> Option<Vec<String>> {
    match Reply::parse(line) {
        Ok(Reply::Hello(h)) if h.options.is_some() => {
            Some(h.option_names().map(str::to_string).collect())
        }
        _ => None,
    }
}

/// The options of `sent` (a config's `options`) that a bot which `listed`
/// its options in its `hello` reply did not list, in `sent`'s order; none
/// when it listed none (a bot need not list what it reads).
#[must_use]
pub fn unlisted_options<'a>(
    listed: Option<&[String]>,
    sent: &'a [(String, String)],
) -> Vec<&'a str> {
    let Some(listed) = listed else {
        return Vec::new();
    };
    sent.iter()
        .map(|(n, _)| n.as_str())
        .filter(|n| !listed.iter().any(|l| l == n))
        .collect()
}

impl BotProcess {
    /// Starts `spec` and runs the handshake within `options.startup`.
    ///
    /// # Errors
    /// [`Fault::Start`] when it cannot be started or fails its handshake
    /// (no reply, a bad reply, another protocol version, an exit). The
    /// process is then already stopped.
    pub async fn start(spec: &BotSpec, options: StartOptions<'_>) -> Result<BotProcess, Fault> {
        let startup = options.startup;
        let mut bot = BotProcess::spawn(spec, options)?;
        let mut buf = String::new();
        endodoi_protocol::write_line(&mut buf, &hello_of(spec));
        let result = match bot.request(&buf, startup, Duration::ZERO).await {
            Ok((line, _)) => hello_name(line)
                .map(|name| (name.to_string(), listed_options(line)))
                .map_err(|e| e.to_string()),
            Err(Fault::Timeout {
                limit_ms,
                unfinished,
                ..
            }) => Err(format!(
                "handshake failed: no reply within its {limit_ms} ms to hello{}{}",
                unfinished
                    .map(|u| format!("; it had sent '{u}' with no end of line (end each line with \\n and flush)"))
                    .unwrap_or_default(),
                bot.banner_hint(true)
            )),
            Err(f) => Err(format!("handshake failed: {f}{}", bot.banner_hint(false))),
        };
        match result {
            Ok((name, listed)) => {
                bot.self_name = name;
                bot.listed_options = listed;
                Ok(bot)
            }
            Err(why) => {
                bot.note(&why);
                bot.shutdown(false).await;
                Err(Fault::Start(why))
            }
        }
    }

    /// Starts `spec` without the handshake: the caller sends `hello` at once
    /// (its `startup` limit runs from the start of the process) and checks
    /// the reply with [`endodoi_protocol::hello_name`]. `self_name` stays empty.
    /// [`BotProcess::start`] is this and the handshake.
    ///
    /// # Errors
    /// [`Fault::Start`] when the program cannot be found or started.
    ///
    /// # Panics
    /// Outside a tokio runtime (its stderr is drained by a task).
    pub fn spawn(spec: &BotSpec, options: StartOptions<'_>) -> Result<BotProcess, Fault> {
        // No guard where the platform ends a bot without one (Windows' job).
        let guard = options.guard.filter(|_| crate::platform::GUARD);
        let cgroup = bot_group(spec, guard)?;
        let (mut cmd, limits) = spawn::command(spec, guard, cgroup.as_ref())
            .map_err(|e| Fault::Start(e.to_string()))?;
        options.log.line(
            &format!("{} ", options.log_prefix),
            format!("# start: {}", spec.command.join(" ")).as_bytes(),
        );
        let mut child = cmd
            .spawn()
            .map_err(|e| Fault::Start(format!("cannot start {:?}: {e}", spec.command[0])))?;
        let pid = child
            .id()
            .ok_or_else(|| Fault::Start("exited at once".into()))?;
        crate::platform::started(&child, limits)
            .map_err(|e| Fault::Start(format!("cannot start {:?}: {e}", spec.command[0])))?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
        let stderr = child.stderr.take().expect("piped stderr");
        let stderr_task = tokio::spawn(drain_stderr(
            stderr,
            options.log.clone(),
            options.log_prefix.clone(),
        ));
        Ok(BotProcess {
            child,
            cgroup: cgroup.map(std::sync::Arc::new),
            handed: None,
            pgid: pid,
            guarded: guard.is_some(),
            stdin: Some(stdin),
            stdout,
            line: Vec::with_capacity(256),
            log: options.log,
            prefix: options.log_prefix,
            stderr_task: Some(stderr_task),
            transcript: options.transcript,
            blanks: Blanks::default(),
            self_name: String::new(),
            listed_options: None,
            closed: false,
            notified: None,
            asked_after: None,
            hello: HelloStage::Awaiting,
            banner: (0, None),
            second_hello: None,
        })
    }

    /// Why a handshake that failed may have: the lines skipped before a
    /// `hello` reply (` ; before it, it sent 'X' (1 line, not a hello
    /// reply, skipped)`), or, when none came at all and the bot is still
    /// running (`waiting`: a reply may sit in its buffer), the flush hint.
    /// A bot that exited had its buffers flushed: its stderr says more.
    #[must_use]
    pub fn banner_hint(&self, waiting: bool) -> String {
        match &self.banner {
            (n, Some(first)) => format!(
                "; it sent {n} line{} but no hello reply, the first '{}' (lines before the hello reply that are not one are skipped as a banner)",
                if *n == 1 { "" } else { "s" },
                shown_bytes(first)
            ),
            _ if waiting => {
                " (if it wrote a reply, it may not have flushed its standard output)".into()
            }
            _ => String::new(),
        }
    }

    /// Lines skipped before the `hello` reply (a banner): how many, and
    /// the first, its bytes as read.
    #[must_use]
    pub fn banner(&self) -> (usize, Option<&[u8]>) {
        (self.banner.0, self.banner.1.as_deref())
    }

    /// Whether the line `bytes` (`text`, read as UTF-8 with replacements)
    /// is one a bot may send unasked, handled so: an `info` line (logged
    /// as such), a blank reply, or a line the handshake skips
    /// ([`BotProcess::skipped_in_handshake`], logged).
    fn may_send_unasked(&mut self, bytes: &[u8], text: &str) -> bool {
        match Reply::parse(text) {
            Ok(Reply::Info(info)) if bytes.is_ascii() => {
                self.log
                    .line(&format!("{} info: ", self.prefix), info.as_bytes());
                true
            }
            Ok(Reply::Blank) => true,
            _ => bytes.is_ascii() && self.skipped_in_handshake(bytes),
        }
    }

    /// Whether the line `bytes` (not `info` or blank) is skipped as
    /// part of the handshake, and logs it if so: before the `hello` reply,
    /// any line that is not one (a banner); just after it, one more
    /// well-formed `hello` reply (the second answer to the one `hello`).
    /// Any other line ends the handshake's tolerance.
    fn skipped_in_handshake(&mut self, bytes: &[u8]) -> bool {
        let text = &*String::from_utf8_lossy(bytes);
        let is_hello_word = text.split_whitespace().next() == Some("hello");
        match self.hello {
            HelloStage::Awaiting if !is_hello_word => {
                self.note(&format!(
                    "skipped before its hello reply: '{}'",
                    shown_bytes(bytes)
                ));
                self.banner.0 += 1;
                self.banner.1.get_or_insert_with(|| bytes.to_vec());
                true
            }
            HelloStage::Awaiting => {
                self.hello = HelloStage::Answered;
                false
            }
            HelloStage::Answered if matches!(Reply::parse(text), Ok(Reply::Hello(_))) => {
                self.hello = HelloStage::Done;
                self.note(&format!(
                    "skipped a second hello reply '{}': answer hello once, when asked",
                    shown(text)
                ));
                self.second_hello = Some(text.to_string());
                true
            }
            _ => {
                self.hello = HelloStage::Done;
                false
            }
        }
    }

    /// Writes `request` (one line, with its `\n`) and waits up to `limit`
    /// plus `margin` for the reply line, skipping `info` lines (logged) and
    /// blank lines. The write counts against the deadline too, so a bot that
    /// stops reading cannot stall the arena. Lines the bot sent before the
    /// request are never taken as its reply: `info` and blank lines are
    /// logged, anything else is a protocol error. Returns the reply, trimmed,
    /// and the time from the write to its arrival.
    ///
    /// # Errors
    /// A [`Fault`] when the bot is gone, too slow, or sends a bad line.
    pub async fn request(
        &mut self,
        request: &str,
        limit: Duration,
        margin: Duration,
    ) -> Result<(&str, Duration), Fault> {
        // Thawed only while it is asked something: a bot cannot take CPU
        // from its opponent's turn (the protocol has no pondering). In a
        // game ([`BotProcess::hand_over`]) the previous mover is frozen
        // once this request is out, off the ply's critical path, and this
        // bot by the next mover's request.
        let cgroup = self.cgroup.clone();
        if let Some(group) = &cgroup {
            group.thaw();
        }
        let handed = self.handed.take();
        let result = self.exchange(request, limit, margin, handed.as_ref()).await;
        if let (Some(group), None) = (&cgroup, handed) {
            group.freeze();
        }
        result
    }

    /// Makes the next [`BotProcess::request`] a move in a game: once it is
    /// written, `previous` (the opponent's cgroups, which answered last)
    /// is frozen, and this bot is left thawed when it replies, for the
    /// opponent's next request to freeze. Either way a bot runs only from
    /// just before its request is written to just after its opponent's is.
    pub fn hand_over(&mut self, previous: Option<std::sync::Arc<crate::cgroup::BotGroup>>) {
        self.handed = Some(previous);
    }

    /// Its cgroups, for the opponent's [`BotProcess::hand_over`].
    #[must_use]
    pub fn cgroup(&self) -> Option<std::sync::Arc<crate::cgroup::BotGroup>> {
        self.cgroup.clone()
    }

    /// [`BotProcess::request`] without the thaw and freeze around it; once
    /// the request is written, `handed`'s cgroups (if any) are frozen.
    async fn exchange(
        &mut self,
        request: &str,
        limit: Duration,
        margin: Duration,
        handed: Option<&Option<std::sync::Arc<crate::cgroup::BotGroup>>>,
    ) -> Result<(&str, Duration), Fault> {
        // Before the hello reply nothing is unasked: a banner is skipped
        // and a hello reply sent early is the reply, whenever it arrived.
        if self.hello != HelloStage::Awaiting {
            self.check_unsolicited().await?;
        }
        self.asked_after = self.notified.take();
        let sent = Instant::now();
        let deadline = sent + limit + margin;
        // With what the bot had sent of a line, if anything.
        let timeout = |unfinished| Fault::Timeout {
            limit_ms: limit.as_millis() as u64,
            margin_ms: margin.as_millis() as u64,
            unfinished,
        };
        if let Some(t) = &self.transcript {
            t.sent(request);
        }
        match tokio::time::timeout_at(deadline, write_line(self.stdin.as_mut(), request)).await {
            Err(_) => return Err(self.timeout_fault(timeout(None))),
            Ok(Err(e)) => {
                return Err(self
                    .crash_fault(&format!("cannot be written to ({e})"))
                    .await)
            }
            Ok(Ok(())) => {}
        }
        if let Some(Some(previous)) = handed {
            previous.freeze();
        }
        let mut received = 0usize;
        loop {
            let budget = MAX_REPLY_BYTES.saturating_sub(received);
            let read = read_line_capped(&mut self.stdout, &mut self.line, &mut self.blanks, budget);
            let read = tokio::time::timeout_at(deadline, read).await;
            // The blank lines skipped count, however the read ended.
            received += self.blanks.bytes;
            self.transcribe_blanks();
            match read {
                Err(_) => {
                    // What the cancelled read had taken of a line.
                    let unfinished = (!self.line.is_empty()).then(|| shown_bytes(&self.line));
                    return Err(self.timeout_fault(timeout(unfinished)));
                }
                Ok(Err(e)) => return Err(self.read_fault(e).await),
                Ok(Ok(())) => {}
            }
            let elapsed = sent.elapsed();
            received += self.line.len() + 1;
            if received > MAX_REPLY_BYTES {
                return Err(self.read_fault(ReadError::TooMuch).await);
            }
            if let Some(t) = &self.transcript {
                t.received(&self.line);
            }
            if self.hello == HelloStage::Awaiting && !self.line.starts_with(b"hello") {
                let bytes = self.line.clone();
                let text = String::from_utf8_lossy(&bytes);
                if matches!(Reply::parse(&text), Ok(Reply::Info(_) | Reply::Blank)) {
                    // Logged below, as any info line.
                } else if self.skipped_in_handshake(&bytes) {
                    continue;
                }
            }
            if !self.line.is_ascii() {
                return Err(Fault::Protocol(format!(
                    "sent a line that is not ASCII: '{}'",
                    shown_bytes(&self.line)
                )));
            }
            let text = std::str::from_utf8(&self.line).expect("ASCII");
            let is_reply = match Reply::parse(text) {
                Ok(Reply::Info(info)) => {
                    self.log
                        .line(&format!("{} info: ", self.prefix), info.as_bytes());
                    false
                }
                Ok(Reply::Blank) => false,
                // Past the handshake (every ply), nothing to copy.
                _ if self.hello == HelloStage::Done => true,
                _ => {
                    let bytes = self.line.clone();
                    !self.skipped_in_handshake(&bytes)
                }
            };
            if is_reply {
                let text = std::str::from_utf8(&self.line).expect("ASCII");
                return Ok((text.trim(), elapsed));
            }
        }
    }

    /// The notification (`gameover`) sent just before the latest request,
    /// if one was: a wrong answer to that request may be a late reply to
    /// the notification, which takes none (a reply that had arrived before
    /// the request is caught as unsolicited; one still on its way is read
    /// as the answer).
    #[must_use]
    pub fn asked_after(&self) -> Option<&str> {
        self.asked_after.as_deref()
    }

    /// The hint for a wrong answer to the latest request: ` (after
    /// gameover, which takes no reply)` when it followed a notification.
    #[must_use]
    pub fn after_notification_hint(&self) -> String {
        self.asked_after()
            .map(|n| format!(" (after {n}, which takes no reply)"))
            .unwrap_or_default()
    }

    /// Looks at what the bot sent since its last reply, before a new request:
    /// `info` and blank lines are logged, anything else is a protocol error,
    /// so a reply can never drift one line out of step.
    async fn check_unsolicited(&mut self) -> Result<(), Fault> {
        let arrived = |out: &ChildStdout| crate::platform::pipe_readable(out);
        let sent = match waiting_lines(&mut self.stdout, arrived).await {
            Ok(sent) => sent,
            Err(ReadError::Eof) => return Ok(()), // The request itself will find out.
            Err(e) => return Err(self.read_fault(e).await),
        };
        for line in sent {
            let line = match line {
                Sent::Line(line) => line,
                Sent::Blanks(Blanks { lines, bytes }) => {
                    if let Some(t) = &self.transcript {
                        t.blanks(lines, bytes);
                    }
                    continue;
                }
            };
            let text = String::from_utf8_lossy(&line);
            if let Some(t) = &self.transcript {
                t.received(&line);
            }
            if !self.may_send_unasked(&line, &text) {
                let hint = match self.notified.as_deref() {
                    Some(n) => format!(" (after {n}, which takes no reply)"),
                    None => String::new(),
                };
                return Err(Fault::Protocol(format!(
                    "sent '{}' before it was asked for anything{hint}",
                    shown_bytes(&line)
                )));
            }
        }
        Ok(())
    }

    /// Writes a notification line (`gameover`, `quit`), expecting no reply,
    /// within `limit`.
    ///
    /// # Errors
    /// A [`Fault`] when the bot has gone or does not read its input.
    pub async fn notify(&mut self, line: &str, limit: Duration) -> Result<(), Fault> {
        // A notification may ask the bot to act (exit on `quit`), so it
        // stays thawed until its next request; none comes while its
        // opponent is on move (a game ends with `gameover` to both).
        if let Some(group) = &self.cgroup {
            group.thaw();
        }
        self.write_notification(line, limit).await
    }

    /// [`BotProcess::notify`] without the thaw and freeze around it.
    async fn write_notification(&mut self, line: &str, limit: Duration) -> Result<(), Fault> {
        self.notified = line.split_whitespace().next().map(str::to_string);
        if let Some(t) = &self.transcript {
            t.sent(line);
        }
        match tokio::time::timeout(limit, write_line(self.stdin.as_mut(), line)).await {
            Err(_) => Err(Fault::Timeout {
                limit_ms: limit.as_millis() as u64,
                margin_ms: 0,
                unfinished: None,
            }),
            Ok(Err(e)) => Err(self
                .crash_fault(&format!("cannot be written to ({e})"))
                .await),
            Ok(Ok(())) => Ok(()),
        }
    }

    /// Closes the bot's standard input (it sees the end of its input), as
    /// [`BotProcess::shutdown`] does after `quit`.
    pub fn close_input(&mut self) {
        if let Some(group) = &self.cgroup {
            group.thaw();
        }
        drop(self.stdin.take());
    }

    /// Waits up to `limit` for the process to exit on its own, without
    /// closing its input or signalling it; its exit status, or `None` if it
    /// is still running. Under the guard the status is the bot's own.
    pub async fn wait_for_exit(&mut self, limit: Duration) -> Option<std::process::ExitStatus> {
        match tokio::time::timeout(limit, self.child.wait()).await {
            Ok(Ok(status)) => Some(status),
            _ => None,
        }
    }

    /// Sets where every line in and out goes from now on (this bot's side
    /// of a game's [`Transcript`]); `None` stops the transcript.
    pub fn transcribe_to(&mut self, transcript: Option<Transcriber>) {
        self.transcript = transcript;
    }

    /// Writes the blank lines counted since the last line into the
    /// transcript, as one line, and starts a new count.
    fn transcribe_blanks(&mut self) {
        let Blanks { lines, bytes } = std::mem::take(&mut self.blanks);
        if let Some(t) = &self.transcript {
            t.blanks(lines, bytes);
        }
    }

    /// Appends a note to the bot's log.
    pub fn note(&self, text: &str) {
        self.log
            .line(&format!("{} # ", self.prefix), text.as_bytes());
    }

    /// Stops the bot: `quit` if `polite`, then the grace period, SIGTERM to the
    /// process group, another grace period, and SIGKILL. Always ends with a
    /// SIGKILL to the group, so no child the bot started outlives it.
    /// Then the lines it sent since its last reply, all in the pipe now
    /// that it has gone, are logged, and a second `hello` reply among them
    /// is reported in [`Ended`] (so the start-up check, which asks only
    /// `hello`, finds it).
    pub async fn shutdown(mut self, polite: bool) -> Ended {
        if let Some(group) = &self.cgroup {
            group.thaw();
        }
        if polite {
            let mut quit = String::new();
            endodoi_protocol::write_line(&mut quit, &Quit);
            let _ = self.write_notification(&quit, GRACE).await;
        }
        // Closing stdin lets a bot that reads to EOF exit on its own.
        drop(self.stdin.take());
        if tokio::time::timeout(GRACE, self.child.wait())
            .await
            .is_err()
        {
            let _ = signal_group(self.pgid, Sig::Terminate);
            if tokio::time::timeout(GRACE, self.child.wait())
                .await
                .is_err()
            {
                // The guard ends the bot's descendants that left its group too.
                if !self.guarded
                    || self.end_by_guard().is_err()
                    || tokio::time::timeout(GRACE, self.child.wait())
                        .await
                        .is_err()
                {
                    let _ = signal_group(self.pgid, Sig::Kill);
                }
                let _ = self.child.wait().await;
            }
        }
        let _ = signal_group(self.pgid, Sig::Kill);
        self.closed = true;
        self.look_at_leftovers().await;
        if let Some(task) = self.stderr_task.take() {
            // A grandchild may still hold stderr open; don't wait on it for long.
            if tokio::time::timeout(GRACE, task).await.is_err() {
                self.note("stderr still open after the process group was killed");
            }
        }
        Ended {
            second_hello: self.second_hello.take(),
            banner: std::mem::take(&mut self.banner),
        }
    }

    /// After the process has gone: logs the whole lines it left unread
    /// (`info` lines as such, others as sent unasked), skipping a second
    /// `hello` reply as the handshake does. Reads only what is in the pipe.
    async fn look_at_leftovers(&mut self) {
        let arrived = |out: &ChildStdout| crate::platform::pipe_readable(out);
        for sent in framing::lines_left(&mut self.stdout, arrived).await {
            let Sent::Line(line) = sent else {
                continue; // Blank lines.
            };
            let text = String::from_utf8_lossy(&line);
            if !self.may_send_unasked(&line, &text) {
                self.note(&format!(
                    "sent after its last request: '{}'",
                    shown_bytes(&line)
                ));
            }
        }
    }

    /// Asks the guard to SIGKILL the bot, its group and its descendants,
    /// and itself.
    fn end_by_guard(&self) -> std::io::Result<()> {
        // A stopped guard could not act on it.
        signal_group(self.pgid, Sig::Continue)?;
        signal_process(self.pgid, Sig::EndGuard)
    }

    async fn read_fault(&mut self, e: ReadError) -> Fault {
        match e {
            ReadError::Eof => self.crash_fault("closed its output").await,
            ReadError::Io(e) => self.crash_fault(&format!("output failed ({e})")).await,
            ReadError::TooLong => {
                Fault::Protocol(format!("sent a line longer than {MAX_LINE_BYTES} bytes"))
            }
            ReadError::TooMuch => Fault::Protocol(format!(
                "sent more than {MAX_REPLY_BYTES} bytes for one request"
            )),
            ReadError::Flood => Fault::Protocol(format!(
                "sent over {} KiB or {MAX_UNASKED_LINES} lines before it was asked for anything",
                MAX_UNASKED_BYTES >> 10,
            )),
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

    /// A crash, with the exit status or signal if the process has ended;
    /// waits briefly for it, since a closed pipe comes just before the exit.
    async fn crash_fault(&mut self, what: &str) -> Fault {
        // The pipe closes just before the process ends: give it a moment,
        // so the fault can name the exit status or the signal.
        let status = tokio::time::timeout(Duration::from_millis(200), self.child.wait()).await;
        let oom = self.cgroup.as_ref().and_then(|g| g.oom_note());
        match (status, oom) {
            (Ok(Ok(status)), Some(oom)) => {
                Fault::Crash(format!("{what}: the process exited ({status}): {oom}"))
            }
            (Ok(Ok(status)), None) => {
                Fault::Crash(format!("{what}: the process exited ({status})"))
            }
            (_, Some(oom)) => Fault::Crash(format!("{what}: {oom}")),
            (_, None) => Fault::Crash(what.to_string()),
        }
    }
}

impl Drop for BotProcess {
    /// A bot dropped without [`BotProcess::shutdown`] (a cancelled run) is
    /// killed at once, with its whole process group.
    fn drop(&mut self) {
        if !self.closed && (!self.guarded || self.end_by_guard().is_err()) {
            let _ = signal_group(self.pgid, Sig::Kill);
        }
        if let Some(task) = self.stderr_task.take() {
            task.abort();
        }
    }
}

/// The cgroups `spec` runs in: none when its `cgroups` is off, it has no
/// guard (which puts it there), or the host gives none. The first makes
/// the arena's sweeper start ([`crate::cgroup::start_sweeper`]), with the
/// guard's executable, which is the arena's.
///
/// # Errors
/// [`Fault::Start`] when the folders cannot be made, or when
/// `cgroups = "require"` and the host does not enforce every control.
fn bot_group(
    spec: &BotSpec,
    guard: Option<&Path>,
) -> Result<Option<crate::cgroup::BotGroup>, Fault> {
    use crate::cgroup::{BotGroup, Cgroups};
    use crate::config::CgroupMode;
    if spec.limits.cgroups == CgroupMode::Off {
        return Ok(None);
    }
    let host = Cgroups::host();
    match (spec.limits.cgroups, guard) {
        (CgroupMode::Require, _) if !host.missing().is_empty() || guard.is_none() => {
            return Err(Fault::Start(format!(
                "cgroups = \"require\", but {}",
                host.summary()
            )))
        }
        (_, None) => return Ok(None),
        (_, Some(_)) if !host.any() => return Ok(None),
        (_, Some(arena)) => crate::cgroup::start_sweeper(arena),
    }
    let processes = spec
        .sandbox
        .as_ref()
        .map(|s| s.processes + SANDBOX_PROCESSES);
    BotGroup::create(host, spec.limits.memory_mb, processes)
        .map(Some)
        .map_err(|e| Fault::Start(e.to_string()))
}

/// The processes of a sandbox besides the bot's own, for its `pids.max`:
/// bubblewrap and its init in the bot's process namespace.
const SANDBOX_PROCESSES: u64 = 2;

async fn write_line(stdin: Option<&mut ChildStdin>, line: &str) -> std::io::Result<()> {
    let stdin = stdin.ok_or_else(|| std::io::Error::from(std::io::ErrorKind::BrokenPipe))?;
    stdin.write_all(line.as_bytes()).await?;
    stdin.flush().await
}

/// Copies a bot's stderr into its log line by line (each line prefixed);
/// once the log is full the rest is read and dropped, so a chatty bot never
/// blocks on a full pipe. Lines over 4096 bytes are split.
async fn drain_stderr(mut stderr: tokio::process::ChildStderr, log: BotLog, prefix: String) {
    let prefix = format!("{prefix} ");
    let mut buf = vec![0u8; 8192];
    let mut pending: Vec<u8> = Vec::new();
    loop {
        let n = match stderr.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        pending.extend_from_slice(&buf[..n]);
        // The whole lines of this read, logged at once.
        let whole = pending
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        if whole > 0 {
            log.lines(&prefix, pending[..whole - 1].split(|&b| b == b'\n'));
            pending.drain(..whole);
        }
        if pending.len() > MAX_LINE_BYTES {
            log.line(&prefix, &pending);
            pending.clear();
        }
    }
    if !pending.is_empty() {
        log.line(&prefix, &pending);
    }
}
