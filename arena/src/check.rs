//! `arena check -- BOT_COMMAND...`: a conformance test for bot authors.
//!
//! The bot runs as a real process, started and spoken to by the same code
//! as in a tournament ([`crate::bot`]: the guard, the line framing, the
//! deadlines and the margin), with the same codec ([`endodoi_protocol`])
//! and the same per-ply step ([`crate::referee::ply`]). It
//! goes through the handshake, whole games against the bundled random bot
//! (played in-process), positions that catch common mistakes (playing
//! North, a single legal move, an endless move left out of `legal`, a small
//! lap limit), its reply times, and `quit`. Each check gives one
//! [`CheckLine`]: PASS, FAIL (with the line the bot sent, escaped, and what
//! was expected) or SKIP (it could not run because an earlier one failed).
//!
//! As in a tournament, a bot that times out, crashes or breaks the protocol
//! is stopped and started again for the next check; after an illegal move
//! it is kept.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Duration;

use endodoi::{Move, MoveSet, Position, Rules, Side};
use endodoi_bots::{own_view, Random, Strategy as _};
use tokio::time::Instant;

use crate::bot::log::LOG_CAP_BYTES;
use crate::bot::{BotLog, BotProcess, Fault, StartOptions, GRACE};
use crate::config::{BotSpec, TimeControl, DEFAULT_MARGIN_MS};
use crate::referee::ply::{self, NewGameFault, PlyClock, PlyFault};
use endodoi_protocol::{
    hello_name, shown_bytes, write_line, BadHole, GameOver, NewGame, Quit, Reply, ReplyError,
    VERSION,
};

/// The default per-move limit of `arena check`, ms.
pub const DEFAULT_MOVE_TIME_MS: u64 = 1000;

/// What to check and how.
#[derive(Clone, Debug)]
pub struct CheckOptions {
    /// The bot's program and arguments, run without a shell in the current
    /// directory; a first word of exactly `arena` is this executable, as in
    /// a config.
    pub command: Vec<String>,
    /// The per-move limit sent in `newgame` and `turn`, ms (at least 1).
    /// Replies get [`DEFAULT_MARGIN_MS`] on top before they time out, as in
    /// a tournament, but the reply-time check wants them within the limit.
    pub move_time_ms: u64,
    /// The limit for `hello` and each `ready`, ms.
    pub startup_ms: u64,
    /// The arena's own executable, to run the bot under `arena guard` as a
    /// tournament does; `None` starts it directly.
    pub guard: Option<PathBuf>,
    /// Where the bot's stderr and `info` lines go (the file is replaced);
    /// `None` drops them.
    pub log: Option<PathBuf>,
    /// Run the bot in this sandbox, its `dir` the current directory (needs
    /// `guard`); `None` runs it unsandboxed.
    pub sandbox: Option<crate::config::SandboxSpec>,
    /// Options sent in `hello` as `option.NAME=VALUE`, as a config's
    /// `options` sends them ([`crate::config::valid_option`] words).
    pub options: Vec<(String, String)>,
}

/// The verdict of one check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// The bot did what protocol.md asks.
    Pass,
    /// It did not; the line says what it sent and what was expected.
    Fail,
    /// The check could not run, because the bot could not be started.
    Skip,
}

impl Status {
    /// `PASS`, `FAIL` or `SKIP`.
    #[must_use]
    pub const fn word(self) -> &'static str {
        match self {
            Status::Pass => "PASS",
            Status::Fail => "FAIL",
            Status::Skip => "SKIP",
        }
    }
}

/// One line of the checklist.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckLine {
    /// The verdict.
    pub status: Status,
    /// The check's name, e.g. `handshake`.
    pub name: &'static str,
    /// What happened: for a failure, what went wrong, the line the bot sent
    /// (escaped, at most 200 characters) and what was expected.
    pub detail: String,
}

impl std::fmt::Display for CheckLine {
    /// `PASS  handshake           detail`: one line, names in a column.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}  {:<NAME_WIDTH$} {}",
            self.status.word(),
            self.name,
            self.detail
        )
    }
}

const NAME_WIDTH: usize = 19;

/// Every line of a check, in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// One line per check.
    pub lines: Vec<CheckLine>,
}

impl Report {
    /// Whether every check passed.
    #[must_use]
    pub fn passed(&self) -> bool {
        self.lines.iter().all(|l| l.status == Status::Pass)
    }

    /// The closing line: `all 9 checks passed`, or how many failed (and
    /// how many were skipped).
    #[must_use]
    pub fn summary(&self) -> String {
        let count = |s| self.lines.iter().filter(|l| l.status == s).count();
        let total = self.lines.len();
        if self.passed() {
            return format!("all {total} checks passed");
        }
        let mut text = format!("{} of {total} checks failed", count(Status::Fail));
        if count(Status::Skip) > 0 {
            let _ = write!(text, ", {} skipped", count(Status::Skip));
        }
        text
    }
}

/// Why a check cannot run at all (everything the bot does is a
/// [`CheckLine`] instead).
#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    /// No bot command was given.
    #[error("no bot command: write it after --, e.g. arena check -- python3 my_bot.py")]
    NoCommand,
    /// The sandbox cannot run the bot.
    #[error("{}", for_the_command_line(.0))]
    Sandbox(crate::bot::spawn::SpawnError),
    /// A script the command names (`*.py`, `*.js`, ...) does not exist.
    #[error("script '{script}' does not exist (looked in {}): fix the command after --; a relative path starts in the current directory", .dir.display())]
    NoScript {
        /// The script, as given.
        script: String,
        /// Where it was looked for.
        dir: PathBuf,
    },
    /// The program is not found or not executable.
    #[error("program '{program}' {why}")]
    NotFound {
        /// The program, as given.
        program: String,
        /// Where it was looked for, and what to do.
        why: String,
    },
    /// The log file cannot be created.
    #[error("cannot create the log {}: {cause}", .path.display())]
    Log {
        /// The log's path.
        path: PathBuf,
        /// What failed.
        cause: std::io::Error,
    },
    /// The async runtime cannot start.
    #[error("cannot start the async runtime: {0}")]
    Runtime(std::io::Error),
}

/// A start error as `arena check` shows it: the bot is the one command
/// after `--`, not a config's `[[bot]]` (no `bot 'bot':`, no config to fix).
fn for_the_command_line(e: &crate::bot::spawn::SpawnError) -> String {
    e.to_string().replacen("bot 'bot': ", "", 1).replace(
        "fix its command in the config, or its dir",
        "fix the command after --",
    )
}

/// Runs every check on the bot of `options`, calling `on_line` with each
/// line as soon as its check is done, and returns them all. Takes a few
/// seconds for a quick bot; each timeout costs the move limit plus the
/// margin, and each restart up to the start-up limit.
///
/// # Errors
/// [`CheckError`], before anything runs, when the command is empty, its
/// program is not found or not executable, the log cannot be created, or the
/// async runtime cannot start. Everything the bot does is a [`CheckLine`].
pub fn run(
    options: &CheckOptions,
    mut on_line: impl FnMut(&CheckLine),
) -> Result<Report, CheckError> {
    let spec = BotSpec {
        dir: options.sandbox.as_ref().map(|_| ".".into()),
        sandbox: options.sandbox.clone(),
        options: options.options.clone(),
        ..BotSpec::new(
            "bot",
            options.command.clone(),
            TimeControl::per_move(options.move_time_ms.max(1), options.startup_ms),
        )
    };
    let Some(program) = spec.command.first() else {
        return Err(CheckError::NoCommand);
    };
    if options.sandbox.is_some() {
        crate::bot::spawn::check(&spec, &tokio_util::sync::CancellationToken::new())
            .map_err(CheckError::Sandbox)?;
    }
    crate::bot::resolve_program(&spec).map_err(|_| {
        let here = std::env::current_dir().unwrap_or_default();
        CheckError::NotFound {
            program: program.clone(),
            why: crate::bot::spawn::why_not_found(program, &here),
        }
    })?;
    let here = std::env::current_dir().unwrap_or_default();
    let dir: PathBuf = match spec.dir.as_deref() {
        Some(d) => here.join(d).components().collect(),
        None => here,
    };
    if let Some(script) = crate::bot::spawn::missing_script(&spec.command, &dir) {
        return Err(CheckError::NoScript {
            script: script.to_string(),
            dir,
        });
    }

    let log = match &options.log {
        Some(path) => BotLog::create(path, LOG_CAP_BYTES).map_err(|cause| CheckError::Log {
            path: path.clone(),
            cause,
        })?,
        None => BotLog::none(),
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(CheckError::Runtime)?;
    let mut checker = Checker {
        spec,
        guard: options.guard.clone(),
        log,
        startup: Duration::from_millis(options.startup_ms),
        move_time_ms: options.move_time_ms.max(1),
        bot: None,
        gone: false,
        times: Vec::new(),
        timeouts: 0,
        games: 0,
    };
    let mut report = Report::default();
    let mut emit = |line: CheckLine| {
        on_line(&line);
        report.lines.push(line);
    };
    runtime.block_on(async {
        let (hello, started) = checker.handshake().await;
        emit(hello);
        for scenario in scenarios() {
            emit(if started {
                checker.game(&scenario).await
            } else {
                skip(scenario.name)
            });
        }
        emit(if started {
            checker.reply_times()
        } else {
            skip("reply time")
        });
        emit(if started {
            checker.quit().await
        } else {
            skip("quit")
        });
        if let Some(bot) = checker.bot.take() {
            bot.shutdown(false).await;
        }
    });
    Ok(report)
}

fn skip(name: &'static str) -> CheckLine {
    CheckLine {
        status: Status::Skip,
        name,
        detail: "needs a bot that completes the handshake".into(),
    }
}

/// One game the bot plays against the random bot, from a given position.
#[derive(Clone, Debug)]
struct Scenario {
    /// The check's name.
    name: &'static str,
    /// Where the game starts (the start position, or one with the bot to move).
    position: Position,
    /// The bot's side.
    side: Side,
    /// The move that led to `position`, as `last` in the first `turn`.
    last: Option<Move>,
    /// For a position: what it is about, shown before the bot's first move.
    about: Option<&'static str>,
}

/// The games of the check: two whole games from the start, on two board
/// sizes, then positions with the bot to move, each played out to its end.
fn scenarios() -> Vec<Scenario> {
    let rules = |holes, max_laps| {
        Rules::new(holes, 4)
            .and_then(|r| r.with_max_laps(max_laps))
            .expect("valid rules")
    };
    let at = |rules: Rules, text: &str| Position::parse(text, rules).expect("valid position");
    let default_laps = endodoi::DEFAULT_MAX_LAPS;
    vec![
        Scenario {
            name: "game 2x8 as South",
            position: rules(8, default_laps).start(),
            side: Side::South,
            last: None,
            about: None,
        },
        Scenario {
            name: "game 2x12 as North",
            position: rules(12, default_laps).start(),
            side: Side::North,
            last: None,
            about: None,
        },
        // After the plies 3 1 2 of a 2x6 game. North's row starts with three
        // empty holes while South's does not: a bot that reads `theirs` as
        // its own row, or always plays hole 1, plays an empty hole.
        Scenario {
            name: "North mid-game",
            position: at(rules(6, default_laps), "8,2,5,10,0,8/0,0,0,1,2,3 n 9 0 3"),
            side: Side::North,
            last: Move::new(2),
            about: Some("2x6 after 3 plies, North to move"),
        },
        Scenario {
            name: "single legal move",
            position: at(rules(5, default_laps), "0,0,3,0,0/0,6,5,4,2 s 12 8 14"),
            side: Side::South,
            last: Move::new(1),
            about: Some("2x5, only hole 3 holds seeds"),
        },
        // RULES.md's example: North's hole 1 sows forever (a 57-lap cycle).
        Scenario {
            name: "endless move",
            position: at(rules(4, default_laps), "0,5,0,1/2,0,6,5 n 5 8 5"),
            side: Side::North,
            last: Move::new(1),
            about: Some("2x4 of RULES.md, hole 1 sows forever"),
        },
        // Hole 1 needs a second lap, which max_laps=1 forbids: only hole 2.
        Scenario {
            name: "lap limit",
            position: at(rules(4, 1), "1,1,0,0/3,2,4,1 s 11 9 10"),
            side: Side::South,
            last: Move::new(2),
            about: Some("2x4 with max_laps=1, hole 1 needs 2 laps"),
        },
    ]
}

/// How a game went wrong for the bot.
struct Failure {
    /// Where: `newgame` or `ply N`.
    at: String,
    /// What went wrong.
    why: String,
    /// The line the bot sent, if any, its bytes as read.
    sent: Option<Vec<u8>>,
    /// What protocol.md asks for there.
    expected: String,
}

impl Failure {
    fn detail(&self) -> String {
        let mut text = format!("at {}: {}", self.at, self.why);
        if let Some(line) = &self.sent {
            let _ = write!(text, "; sent '{}'", shown_bytes(line));
        }
        let _ = write!(text, "; expected {}", self.expected);
        text
    }
}

/// A failed turn: an illegal move (the bot is still in step and kept), or
/// a fault (timeout, crash, protocol error: the bot has been stopped).
enum Foul {
    Illegal(Failure),
    Fault(Failure),
}

/// The state of a check in progress: the bot's current process and what
/// was measured so far.
struct Checker {
    spec: BotSpec,
    guard: Option<PathBuf>,
    log: BotLog,
    startup: Duration,
    move_time_ms: u64,
    /// The running process; `None` after a fault, until started again.
    bot: Option<BotProcess>,
    /// Set when the bot could not be started again: nothing more can run.
    gone: bool,
    /// The time of every reply to `turn`.
    times: Vec<Duration>,
    /// Replies to `turn` that did not arrive in time.
    timeouts: usize,
    /// Games started so far, for `newgame`'s `game=`.
    games: u32,
}

impl Checker {
    fn start_options(&self) -> StartOptions<'_> {
        StartOptions {
            startup: self.startup,
            guard: self.guard.as_deref(),
            log: self.log.clone(),
            log_prefix: "check".into(),
            transcript: None,
        }
    }

    /// The first start: the handshake as a check of its own, with the
    /// line, and whether the bot completed it (it may still fail the
    /// check, for a second `hello` reply, and play on).
    async fn handshake(&mut self) -> (CheckLine, bool) {
        let mut line = CheckLine {
            status: Status::Fail,
            name: "handshake",
            detail: String::new(),
        };
        let expected = "'hello version=1 name=NAME' (NAME: 1 to 64 of A-Z a-z 0-9 . _ -, from a letter or digit)";
        let mut bot = match BotProcess::spawn(&self.spec, self.start_options()) {
            Ok(bot) => bot,
            Err(f) => {
                line.detail = f.to_string();
                return (line, false);
            }
        };
        let mut buf = String::new();
        write_line(&mut buf, &crate::bot::hello_of(&self.spec));
        let failure = match bot.request(&buf, self.startup, Duration::ZERO).await {
            Ok((reply, elapsed)) => match hello_name(reply) {
                Ok(_) => {
                    line.status = Status::Pass;
                    line.detail = format!(
                        "'{}' in {}{}",
                        shown_bytes(reply.as_bytes()),
                        ms(elapsed),
                        options_note(
                            crate::bot::listed_options(reply).as_deref(),
                            &self.spec.options
                        )
                    );
                    None
                }
                Err(_) => Some(Failure {
                    at: "hello".into(),
                    why: why_not(reply, "hello"),
                    sent: Some(reply.as_bytes().to_vec()),
                    expected: expected.into(),
                }),
            },
            Err(f) => Some(match bot.banner() {
                (n @ 1.., Some(first)) => Failure {
                    at: "hello".into(),
                    why: format!(
                        "{f}, after {n} line{} that {} not a hello reply (skipped as a banner; the first is below)",
                        if n == 1 { "" } else { "s" },
                        if n == 1 { "is" } else { "are" },
                    ),
                    sent: Some(first.to_vec()),
                    expected: format!("{expected} within {} ms", self.startup.as_millis()),
                },
                _ => Failure {
                    at: "hello".into(),
                    why: start_limit(&f, self.startup),
                    sent: None,
                    expected: format!("{expected} within {} ms", self.startup.as_millis()),
                },
            }),
        };
        match failure {
            // Stopped after `hello` alone, as before a tournament, so that
            // all it sent in answer is seen: a second hello reply too. The
            // first game starts it again.
            None => {
                let ended = bot.shutdown(true).await;
                if let Some(note) = ended.second_hello_note() {
                    line.status = Status::Fail;
                    let _ = write!(line.detail, "; but it {note}");
                }
                if let (n @ 1.., Some(first)) = &ended.banner {
                    let _ = write!(
                        line.detail,
                        " (after {n} line{} that {} not a hello reply, skipped as a banner: '{}')",
                        if *n == 1 { "" } else { "s" },
                        if *n == 1 { "is" } else { "are" },
                        shown_bytes(first)
                    );
                }
            }
            Some(f) => {
                line.detail = f.detail();
                bot.shutdown(false).await;
                return (line, false);
            }
        }
        (line, true)
    }

    /// The running bot, started again if a fault stopped it; or the line
    /// of a check that cannot run: FAIL when the bot does not start again
    /// now, SKIP once it has not.
    async fn bot(&mut self, name: &'static str) -> Result<&mut BotProcess, CheckLine> {
        if self.gone {
            return Err(CheckLine {
                status: Status::Skip,
                name,
                detail: "the bot did not start again after an earlier fault".into(),
            });
        }
        if self.bot.is_none() {
            match BotProcess::start(&self.spec, self.start_options()).await {
                Ok(bot) => self.bot = Some(bot),
                Err(f) => {
                    self.gone = true;
                    return Err(CheckLine {
                        status: Status::Fail,
                        name,
                        detail: format!("started again after a fault, the bot failed: {f}"),
                    });
                }
            }
        }
        Ok(self.bot.as_mut().expect("started"))
    }

    /// Stops the bot after a fault, as the arena does; the next check starts
    /// it again.
    async fn stop(&mut self) {
        if let Some(bot) = self.bot.take() {
            bot.shutdown(false).await;
        }
    }

    /// Plays `s` against the random bot; one line for the whole game.
    async fn game(&mut self, s: &Scenario) -> CheckLine {
        if let Err(line) = self.bot(s.name).await {
            return line;
        }
        self.games += 1;
        let (status, detail) = match self.play(s).await {
            Ok(done) => (Status::Pass, done),
            Err(f) => (Status::Fail, f.detail()),
        };
        CheckLine {
            status,
            name: s.name,
            detail,
        }
    }

    /// The game itself: `Ok` with a summary, or the bot's failure. The bot
    /// is started; after a fault other than an illegal move it is stopped.
    async fn play(&mut self, s: &Scenario) -> Result<String, Failure> {
        self.newgame(s).await?;
        let mut pos = s.position.clone();
        let mut last = s.last;
        let mut random = Random::new(u64::from(self.games));
        let mut first = None;
        let mut moves = 0u32;
        let illegal = loop {
            if pos.is_over() {
                break None;
            }
            if pos.to_move() != s.side {
                let mv = random.choose(&own_view(&pos), pos.legal_moves());
                pos.play(mv).expect("the random bot plays a legal move");
                last = Some(mv);
                continue;
            }
            match self.turn(&mut pos, last).await {
                Ok(mv) => {
                    first.get_or_insert(mv);
                    moves += 1;
                    last = Some(mv);
                }
                Err(Foul::Illegal(f)) => break Some(f),
                Err(Foul::Fault(f)) => return Err(f),
            }
        };

        // The game is over, or lost by an illegal move, which leaves the bot
        // in step: tell it, as the arena does.
        let (winner, reason) = match &illegal {
            Some(_) => (Some(s.side.opponent()), "illegal-move"),
            None => {
                let outcome = pos.outcome().expect("the game is over");
                (outcome.winner, outcome.termination.name())
            }
        };
        let seeds = [pos.captured(Side::South), pos.captured(Side::North)];
        let mut buf = String::new();
        write_line(&mut buf, &GameOver::new(s.side, winner, seeds, reason));
        let bot = self.bot.as_mut().expect("started");
        if bot.notify(&buf, GRACE).await.is_err() {
            self.stop().await;
        }
        if let Some(f) = illegal {
            return Err(f);
        }
        let result = match winner {
            None => "drew",
            Some(w) if w == s.side => "won",
            Some(_) => "lost",
        };
        let score = format!(
            "{result} {}-{} ({reason})",
            seeds[s.side.index()],
            seeds[s.side.opponent().index()]
        );
        Ok(match (s.about, first) {
            (Some(about), Some(mv)) => format!(
                "{about}, legal={}: move {mv}; then played out, {score}",
                list(s.position.legal_moves())
            ),
            _ => format!(
                "{} against random, {score}",
                crate::output::counted(moves, "move", "moves")
            ),
        })
    }

    /// `newgame` for `s`, answered by `ready` within the start-up limit; on
    /// a failure the bot is stopped.
    async fn newgame(&mut self, s: &Scenario) -> Result<(), Failure> {
        let rules = s.position.rules();
        let mut buf = String::new();
        let game = NewGame {
            rules: *rules,
            side: s.side,
            move_time_ms: self.move_time_ms,
            base_time_ms: 0,
            increment_ms: 0,
            game: Some((1, u64::from(self.games))),
        };
        let bot = self.bot.as_mut().expect("started");
        let (why, sent) = match ply::new_game(bot, &mut buf, &game, self.startup).await {
            Ok(()) => return Ok(()),
            Err(NewGameFault::NotReady { line, after }) => {
                let hint = after
                    .map(|n| format!(" (after {n}, which takes no reply)"))
                    .unwrap_or_default();
                (
                    format!("{}{hint}", why_not(&line, "newgame")),
                    Some(line.into_bytes()),
                )
            }
            Err(NewGameFault::Fault(f)) => (start_limit(&f, self.startup), None),
        };
        self.stop().await;
        Err(Failure {
            at: "newgame".into(),
            why,
            sent,
            expected: format!("'ready' within {} ms", self.startup.as_millis()),
        })
    }

    /// Plays the bot's ply in `pos` (its turn) with the move limit and the
    /// arena's margin ([`ply::ply`], as a tournament does), and times the
    /// reply. An illegal move keeps the bot (and leaves `pos` as it was);
    /// after any other failure it is stopped.
    async fn turn(&mut self, pos: &mut Position, last: Option<Move>) -> Result<Move, Foul> {
        let at = format!("ply {}", pos.ply());
        let legal = pos.legal_moves();
        let failure = |why: String, sent: Option<String>| Failure {
            at,
            why,
            sent: sent.map(String::into_bytes),
            expected: format!("'move N' with N in legal={}", list(legal)),
        };
        let bot = self.bot.as_mut().expect("started");
        let clock = PlyClock {
            limit_ms: self.move_time_ms,
            margin: Duration::from_millis(DEFAULT_MARGIN_MS),
            clocks: None,
        };
        let mut buf = String::new();
        match ply::ply(bot, &mut buf, pos, last, clock).await {
            Ok(played) => {
                self.times.push(played.elapsed);
                Ok(played.details.mv)
            }
            Err(PlyFault::Fault(f)) => {
                if matches!(f, Fault::Timeout { .. }) {
                    self.timeouts += 1;
                }
                self.stop().await;
                Err(Foul::Fault(failure(f.to_string(), None)))
            }
            Err(PlyFault::NotAMove { line, elapsed, .. }) => {
                self.times.push(elapsed);
                self.stop().await;
                Err(Foul::Fault(failure(why_not(&line, "turn"), Some(line))))
            }
            Err(PlyFault::Illegal {
                line,
                illegal,
                elapsed,
                ..
            }) => {
                self.times.push(elapsed);
                Err(Foul::Illegal(failure(
                    format!("illegal move: {illegal}"),
                    Some(line),
                )))
            }
        }
    }

    /// The reply-time check, from every reply to `turn` so far.
    fn reply_times(&self) -> CheckLine {
        let limit = self.move_time_ms;
        let mut times = self.times.clone();
        times.sort_unstable();
        let stats = match times.len() {
            0 => "no reply was timed".to_string(),
            n => {
                let median = if n % 2 == 1 {
                    times[n / 2]
                } else {
                    (times[n / 2 - 1] + times[n / 2]) / 2
                };
                format!(
                    "median {}, max {} over {}",
                    ms(median),
                    ms(times[n - 1]),
                    crate::output::counted(n, "move", "moves")
                )
            }
        };
        let slow = times
            .iter()
            .filter(|t| t.as_millis() > u128::from(limit))
            .count();
        let (status, detail) = if self.timeouts > 0 {
            (
                Status::Fail,
                format!(
                    "{} of {} turns got no reply within {limit} ms (+{DEFAULT_MARGIN_MS} ms margin); {stats}; expected every reply within {limit} ms",
                    self.timeouts,
                    self.timeouts + times.len(),
                ),
            )
        } else if slow > 0 {
            (
                Status::Fail,
                format!("{slow} replies over the limit; {stats}; expected every reply within {limit} ms (the {DEFAULT_MARGIN_MS} ms margin is for the arena's scheduling, not the bot)"),
            )
        } else if times.is_empty() {
            (Status::Skip, stats)
        } else {
            (Status::Pass, format!("{stats}; limit {limit} ms"))
        };
        CheckLine {
            status,
            name: "reply time",
            detail,
        }
    }

    /// `quit`, as at the end of a series: the notification, the end of the
    /// bot's input, then the grace period, within which it must exit on its
    /// own (a tournament would then send SIGTERM, then SIGKILL).
    async fn quit(&mut self) -> CheckLine {
        let bot = match self.bot("quit").await {
            Ok(bot) => bot,
            Err(line) => return line,
        };
        let grace = GRACE.as_millis();
        let mut quit = String::new();
        write_line(&mut quit, &Quit);
        let (status, detail) = match bot.notify(&quit, GRACE).await {
            Err(f) => (
                Status::Fail,
                format!("quit could not be sent: {f}; expected it to read quit and exit within {grace} ms"),
            ),
            Ok(()) => {
                let sent = Instant::now();
                bot.close_input();
                match bot.wait_for_exit(GRACE).await {
                    Some(exit) if exit.success() => (
                        Status::Pass,
                        format!("exited {} after quit", ms(sent.elapsed())),
                    ),
                    // protocol.md asks for no exit status; a non-zero one
                    // is worth a look, but costs nothing in a tournament.
                    Some(exit) => (
                        Status::Pass,
                        format!(
                            "exited {} after quit, with {exit}: an error at the end?",
                            ms(sent.elapsed())
                        ),
                    ),
                    None => (
                        Status::Fail,
                        format!("still running {grace} ms after quit and the end of its input; expected it to exit within {grace} ms (a tournament then sends SIGTERM, then SIGKILL)"),
                    ),
                }
            }
        };
        self.stop().await;
        CheckLine {
            status,
            name: "quit",
            detail,
        }
    }
}

/// A fault during `hello` or `newgame`, naming the start-up limit for a
/// timeout (which has no margin there).
/// What the handshake line adds about options: those the bot `listed` in
/// its `hello` reply, and a warning for each option `sent` (`--option`)
/// that it did not list, when it listed any (a bot that lists none may
/// still read some). Empty when it listed none and none was sent.
fn options_note(listed: Option<&[String]>, sent: &[(String, String)]) -> String {
    let mut note = String::new();
    if let Some(listed) = listed {
        let _ = write!(
            note,
            "; its options: {}",
            if listed.is_empty() {
                "none".to_string()
            } else {
                // The bot's text: the codec keeps only valid names, and
                // `shown` escapes whatever might still slip through.
                listed
                    .iter()
                    .map(|n| endodoi_protocol::shown(n))
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        );
        let unlisted = crate::bot::unlisted_options(Some(listed), sent);
        if !unlisted.is_empty() {
            let words: Vec<String> = sent
                .iter()
                .filter(|(n, _)| unlisted.contains(&n.as_str()))
                .map(|(n, v)| format!("{}{n}={v}", endodoi_protocol::OPTION_PREFIX))
                .collect();
            let _ = write!(
                note,
                "; warning: it does not list {} (sent as {} in hello): check the name, or the bot ignores it",
                unlisted.join(", "),
                words.join(" ")
            );
        }
    } else if !sent.is_empty() {
        note.push_str(
            "; it lists no options (options= in its hello reply), so whether it read those sent is unknown",
        );
    }
    note
}

fn start_limit(fault: &Fault, startup: Duration) -> String {
    match fault {
        Fault::Timeout { .. } => format!(
            "no reply within {} ms (if it wrote one, flush standard output after each line)",
            startup.as_millis()
        ),
        other => other.to_string(),
    }
}

/// `legal` as in a `turn` line: `1,3,4`.
fn list(legal: MoveSet) -> String {
    legal
        .into_iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

/// A duration in ms, to 0.01 ms.
fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1000.0)
}

/// Why `reply` is not the answer to `request` (`hello`, `newgame`, `turn`).
fn why_not(reply: &str, request: &str) -> String {
    match (Reply::parse(reply), request) {
        (Ok(Reply::Hello(hello)), "hello") => format!(
            "speaks protocol version {}, the arena speaks {VERSION}",
            hello.version
        ),
        (Err(ReplyError::BadHello), "hello") => {
            "a bad hello: every word key=value, with version= and a valid name=".into()
        }
        (Err(ReplyError::BadMove(BadHole::NotDigits)), "turn") => "not a hole number".into(),
        (Err(e @ ReplyError::BadMove(_)), "turn") => e.to_string(),
        (Err(ReplyError::Unknown), _) => "not a protocol message".into(),
        _ => format!("not the answer to {request}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_are_shown_and_unlisted_ones_warned_of() {
        let sent = [
            ("depth".to_string(), "4".to_string()),
            ("style".to_string(), "x".to_string()),
        ];
        let listed = ["depth".to_string(), "seed".to_string()];
        let note = options_note(Some(&listed), &sent);
        assert!(
            note.starts_with(
                "; its options: depth, seed; warning: it does not list style (sent as option.style=x in hello)"
            ),
            "{note}"
        );
        assert_eq!(
            options_note(Some(&listed), &sent[..1]),
            "; its options: depth, seed"
        );
        assert_eq!(options_note(None, &[]), "");
        assert!(options_note(None, &sent).contains("lists no options"));
    }

    /// Each position holds what its check says about it.
    #[test]
    fn positions_test_what_they_claim() {
        let s = scenarios();
        let legal = |name: &str| {
            let sc = s.iter().find(|x| x.name == name).expect(name);
            assert!(!sc.position.is_over(), "{name}");
            assert_eq!(
                sc.position.to_move(),
                sc.side,
                "{name}: the bot moves first"
            );
            let seeds: u32 = sc.position.ring().iter().sum::<u32>()
                + sc.position.captured(Side::South)
                + sc.position.captured(Side::North);
            assert_eq!(seeds, sc.position.rules().total_seeds(), "{name}");
            list(sc.position.legal_moves())
        };
        assert_eq!(legal("game 2x8 as South"), "1,2,3,4,5,6,7,8");
        // North's first three holes are empty; South's are not.
        assert_eq!(legal("North mid-game"), "4,5,6");
        assert_eq!(legal("single legal move"), "3");
        assert_eq!(legal("endless move"), "3,4");
        assert_eq!(legal("lap limit"), "2");

        // The endless hole holds seeds: only the rules leave it out.
        let endless = s.iter().find(|x| x.name == "endless move").unwrap();
        assert_eq!(
            endless.position.check(Move::new(1).unwrap()),
            Err(endodoi::IllegalMove::Endless {
                hole: 1,
                max_laps: endodoi::DEFAULT_MAX_LAPS
            })
        );
        // Under the default lap limit, hole 1 of the lap-limit position is legal.
        let laps = s.iter().find(|x| x.name == "lap limit").unwrap();
        let relaxed =
            Position::parse(&laps.position.to_string(), Rules::new(4, 4).unwrap()).unwrap();
        assert_eq!(list(relaxed.legal_moves()), "1,2");
        // The 2x12 game starts with the random bot's move.
        let north = s.iter().find(|x| x.name == "game 2x12 as North").unwrap();
        assert_eq!((north.position.holes(), north.side), (12, Side::North));
    }

    /// The mid-game position is the one reached by real plies.
    #[test]
    fn north_position_is_reachable() {
        let mut pos = Rules::new(6, 4).unwrap().start();
        for hole in [3, 1, 2] {
            pos.play(Move::new(hole).unwrap()).unwrap();
        }
        let s = scenarios();
        let sc = s.iter().find(|x| x.name == "North mid-game").unwrap();
        assert_eq!(pos, sc.position);
        assert_eq!(sc.last, Move::new(2));
    }

    #[test]
    fn lines_and_summary() {
        let line = |status, name| CheckLine {
            status,
            name,
            detail: "d".into(),
        };
        let mut report = Report {
            lines: vec![line(Status::Pass, "handshake"), line(Status::Pass, "quit")],
        };
        assert_eq!(report.lines[0].to_string(), "PASS  handshake           d");
        assert!(report.passed());
        assert_eq!(report.summary(), "all 2 checks passed");
        report.lines.push(line(Status::Fail, "x"));
        report.lines.push(line(Status::Skip, "y"));
        assert!(!report.passed());
        assert_eq!(report.summary(), "1 of 4 checks failed, 1 skipped");
    }

    #[test]
    fn failures_show_the_escaped_line() {
        let f = Failure {
            at: "ply 4".into(),
            why: "not a protocol message".into(),
            sent: Some("\u{0}\u{ff} garbage \u{1b}[2J".into()),
            expected: "'move N' with N in legal=1,2".into(),
        };
        assert_eq!(
            f.detail(),
            "at ply 4: not a protocol message; sent '\\u{0}\\u{ff} garbage \\u{1b}[2J'; expected 'move N' with N in legal=1,2"
        );
    }
}
