//! `arena play`: one game in the terminal, a human against a bot, or two
//! bots shown ply by ply.
//!
//! The bots run as in a tournament ([`crate::bot`]: the guard, the line
//! framing, the deadlines) and are told the game as game 1 of series 1, so
//! seeded bots play it as they would play the first game of a two-bot
//! tournament. The human types on standard input; the board is drawn on
//! standard output from the human's seat ([`board`]), in plain text, with
//! colour only when standard output is a terminal and `NO_COLOR` is unset.
//!
//! The drawing and the reading of the human's input are pure functions
//! ([`board`], [`status_line`], [`read_input`], [`move_line`]); the game
//! loop around them is async, so that Ctrl-C (or SIGTERM, SIGHUP) can end
//! it at any point: the bots are then stopped (`quit`, grace, SIGTERM,
//! SIGKILL to their process groups) before the arena exits.

use std::fmt::Write as _;
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::time::Duration;

use anstyle::{AnsiColor, Style};
use endodoi::{
    IllegalMove, Move, MoveDetails, MoveSet, Position, Rules, RulesError, Side, Termination,
};
use endodoi_protocol::{shown, write_line, GameOver, NewGame};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use crate::bot::log::LOG_CAP_BYTES;
use crate::bot::{BotLog, BotProcess, StartOptions};
use crate::config::{BotSpec, DEFAULT_MARGIN_MS, DEFAULT_STARTUP_MS};
use crate::referee::ply::{self, NewGameFault, PlyClock, PlyFault};

/// The most laps of one move shown one by one with `laps` on; the rest of a
/// longer sowing is summed up in a line.
pub const LAPS_SHOWN: u32 = 100;

/// The longest input line read from the human, in bytes; the rest of a
/// longer line is dropped.
pub const MAX_INPUT_BYTES: usize = 1024;

/// Who plays: a human against one bot, or two bots.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Players {
    /// The human plays `human`; the bot, started with `bot`, the other side.
    Human {
        /// The human's side.
        human: Side,
        /// The bot's program and arguments.
        bot: Vec<String>,
    },
    /// Two bots, South's command first; with `step`, the game waits for
    /// Enter before each ply.
    Bots {
        /// The programs and arguments of South's and North's bots.
        commands: [Vec<String>; 2],
        /// Whether to wait for Enter before each ply.
        step: bool,
    },
}

/// Everything `arena play` needs.
#[derive(Clone, Debug)]
pub struct PlayOptions {
    /// The rules of the game.
    pub rules: Rules,
    /// Plies played before the players take over, South first.
    pub opening: Vec<Move>,
    /// Who plays.
    pub players: Players,
    /// The per-move limit told to the bots, ms; a bot gets the arena's
    /// margin on top, as in a tournament.
    pub move_time_ms: u64,
    /// The limit for a bot's `hello` and `ready`, ms.
    pub startup_ms: u64,
    /// Whether moves are shown lap by lap from the start (the human can
    /// toggle it with `laps`).
    pub laps: bool,
    /// Whether to colour the board (ANSI escapes); [`PlayOptions::new`]
    /// sets it when standard output is a terminal and `NO_COLOR` is unset
    /// (anstream's rules, which also honour `CLICOLOR_FORCE` and `TERM=dumb`).
    pub colour: bool,
    /// Whether to echo each input line after its prompt (when the input is
    /// not a terminal, which would echo it itself).
    pub echo: bool,
    /// The arena's own executable, to run the bots under `arena guard`.
    pub guard: Option<PathBuf>,
    /// Where the bots' stderr and `info` lines go (replaced); `None` drops them.
    pub log: Option<PathBuf>,
    /// The columns the intro's paragraphs are wrapped to (at least 20).
    pub width: usize,
}

/// How a session ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The game was played to its end by the rules.
    Finished,
    /// A bot lost by a fault (an illegal move, a timeout, a crash, a bad line).
    Forfeit,
    /// The human typed `quit`, or the input ended.
    Quit,
    /// Ctrl-C, SIGTERM or SIGHUP.
    Interrupted,
}

impl Ending {
    /// The exit code: 130 for an interruption (as a shell reports Ctrl-C),
    /// 0 otherwise.
    #[must_use]
    pub const fn exit_code(self) -> u8 {
        match self {
            Ending::Interrupted => 130,
            _ => 0,
        }
    }
}

/// What `arena play` is asked for, as plain values (the binary fills them
/// from its arguments), not yet checked: [`PlayOptions::new`] checks them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlaySettings {
    /// Holes per row (2 to 50).
    pub holes: usize,
    /// Seeds per hole at the start.
    pub seeds: u32,
    /// The lap limit.
    pub max_laps: u32,
    /// The ply limit.
    pub max_plies: u32,
    /// The opening's plies as hole numbers separated by spaces (`"4 3 2"`),
    /// South first; `None` for none.
    pub opening: Option<String>,
    /// The human's side (without `bots`).
    pub side: Side,
    /// Whether two bots play each other (`command` then holds South's
    /// command, `--`, and North's).
    pub bots: bool,
    /// With `bots`: wait for Enter before each ply.
    pub step: bool,
    /// The bot's program and arguments; with `bots`, both bots' split by `--`.
    pub command: Vec<String>,
    /// South's and North's commands each as one string, split as a shell
    /// splits words (`--south`, `--north`): two bots play each other. Both
    /// or neither; with them, `command` is empty.
    pub south_north: [Option<String>; 2],
    /// The terminal's width in columns (80 when not a terminal): the intro
    /// is wrapped to it.
    pub width: usize,
    /// The per-move limit told to the bots, ms.
    pub move_time_ms: u64,
    /// Whether moves are shown lap by lap from the start.
    pub laps: bool,
    /// Where the bots' stderr and `info` lines go; `None` drops them.
    pub log: Option<PathBuf>,
    /// Whether the output takes colour (a terminal, and no `NO_COLOR`).
    pub colour: bool,
    /// Whether to echo each input line after its prompt (an input that is
    /// not a terminal, which would echo it itself).
    pub echo: bool,
    /// The arena's own executable, to run the bots under its guard.
    pub guard: Option<PathBuf>,
}

/// Why a session of `arena play` stopped short.
#[derive(Debug, thiserror::Error)]
pub enum PlayError {
    /// The log cannot be created.
    #[error("cannot create the log {}: {cause}", path.display())]
    Log {
        /// The file.
        path: PathBuf,
        /// Why.
        cause: std::io::Error,
    },
    /// A bot did not start (or failed its handshake).
    #[error("the bot '{command}' did not start: {why}{hint}")]
    Start {
        /// Its command, as shown.
        command: String,
        /// Why (the bot's fault).
        why: String,
        /// How to see more, when its stderr is not kept.
        hint: &'static str,
    },
    /// The output cannot be written.
    #[error("cannot write the game: {0}")]
    Output(std::io::Error),
}

impl From<std::io::Error> for PlayError {
    /// The output failed; its message says why (not a `source`, which the
    /// message already gives).
    fn from(e: std::io::Error) -> Self {
        PlayError::Output(e)
    }
}

/// Why `arena play` cannot start: its settings do not make a game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayOptionsError {
    /// The board or the limits are not valid rules.
    #[error(transparent)]
    Rules(#[from] RulesError),
    /// The opening is unreadable, illegal, or ends the game.
    #[error(transparent)]
    Opening(#[from] OpeningError),
    /// `--bots` without two commands, or `--south` without `--north`.
    #[error(
        "two bots need two commands: arena play --south \"SOUTH COMMAND\" --north \"NORTH COMMAND\" \
         (or --bots -- SOUTH_COMMAND... -- NORTH_COMMAND...)"
    )]
    TwoCommandsNeeded,
    /// `--south`/`--north` and a command after `--` as well.
    #[error(
        "give the bots' commands one way: --south and --north, or a command after --, not both"
    )]
    CommandsTwoWays,
    /// A `--south` or `--north` that does not split into words.
    #[error("{flag}: {why}: give the command as one quoted string, e.g. {flag} \"cargo run -- --seed 1\"")]
    BadCommand {
        /// `--south` or `--north`.
        flag: &'static str,
        /// Why it does not split (the shell-words reader's message).
        why: String,
    },
    /// No bot command at all.
    #[error("no bot command: write it after --, e.g. arena play -- arena bot greedy")]
    NoCommand,
    /// A bot's program cannot be found or run.
    #[error("program '{program}' not found or not executable: give a path (./my_bot) or a program in PATH")]
    ProgramNotFound {
        /// The program, as given.
        program: String,
    },
}

/// Why the moves of `--opening` cannot open the game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OpeningError {
    /// The text is not a list of hole numbers (the reader's message).
    #[error("--opening: {0}")]
    Unreadable(String),
    /// A ply the rules forbid.
    #[error("--opening: ply {ply} ({side} to move) cannot be {hole}: {error}; legal: {legal}")]
    Illegal {
        /// The ply, from 1.
        ply: usize,
        /// The side to move then.
        side: Side,
        /// The hole asked for.
        hole: u8,
        /// Why it cannot be played.
        error: IllegalMove,
        /// The legal moves then.
        legal: MoveSet,
    },
    /// The plies end the game.
    #[error("--opening: the game is over after these plies: leave some for the players")]
    GameOver,
}

impl PlayOptions {
    /// The options of `arena play` from its settings, checked: the rules,
    /// the opening and the players.
    ///
    /// # Errors
    /// [`PlayOptionsError`] for bad rules, an illegal or game-ending
    /// opening, a missing bot command, or a program that cannot be found.
    pub fn new(args: PlaySettings) -> Result<PlayOptions, PlayOptionsError> {
        let rules = Rules::new(args.holes, args.seeds)
            .and_then(|r| r.with_max_laps(args.max_laps))
            .and_then(|r| r.with_max_plies(args.max_plies))?;
        let opening = match &args.opening {
            Some(text) => parse_opening(text, rules)?,
            None => Vec::new(),
        };
        let players = if args.south_north.iter().any(Option::is_some) {
            if !args.command.is_empty() {
                return Err(PlayOptionsError::CommandsTwoWays);
            }
            let split = |i: usize| -> Result<Vec<String>, PlayOptionsError> {
                let flag = ["--south", "--north"][i];
                let text = args.south_north[i]
                    .as_deref()
                    .ok_or(PlayOptionsError::TwoCommandsNeeded)?;
                let words = shell_words::split(text).map_err(|e| PlayOptionsError::BadCommand {
                    flag,
                    why: e.to_string(),
                })?;
                if words.is_empty() {
                    return Err(PlayOptionsError::BadCommand {
                        flag,
                        why: "it is empty".into(),
                    });
                }
                Ok(words)
            };
            Players::Bots {
                commands: [split(0)?, split(1)?],
                step: args.step,
            }
        } else if args.bots {
            let split = args.command.iter().position(|w| w == "--");
            let (south, north) = match split {
                Some(i) => (&args.command[..i], &args.command[i + 1..]),
                None => (&args.command[..], &[][..]),
            };
            if south.is_empty() || north.is_empty() {
                return Err(PlayOptionsError::TwoCommandsNeeded);
            }
            Players::Bots {
                commands: [south.to_vec(), north.to_vec()],
                step: args.step,
            }
        } else {
            if args.command.is_empty() {
                return Err(PlayOptionsError::NoCommand);
            }
            Players::Human {
                human: args.side,
                bot: args.command.clone(),
            }
        };
        let commands: Vec<&Vec<String>> = match &players {
            Players::Human { bot, .. } => vec![bot],
            Players::Bots { commands, .. } => commands.iter().collect(),
        };
        for command in commands {
            let spec = spec("bot", command, args.move_time_ms, DEFAULT_STARTUP_MS);
            crate::bot::resolve_program(&spec).map_err(|_| PlayOptionsError::ProgramNotFound {
                program: command[0].clone(),
            })?;
        }
        Ok(PlayOptions {
            rules,
            opening,
            players,
            move_time_ms: args.move_time_ms,
            startup_ms: DEFAULT_STARTUP_MS,
            laps: args.laps,
            colour: args.colour,
            echo: args.echo,
            guard: args.guard,
            log: args.log,
            width: args.width.max(20),
        })
    }
}

/// The moves of `--opening`, checked by playing them.
fn parse_opening(text: &str, rules: Rules) -> Result<Vec<Move>, OpeningError> {
    let holes = crate::replay::parse_moves_of(&[text], Some(rules.holes()))
        .map_err(|e| OpeningError::Unreadable(e.to_string()))?;
    let mut pos = rules.start();
    let mut moves = Vec::with_capacity(holes.len());
    for (i, hole) in holes.into_iter().enumerate() {
        let mv = Move::new(hole).expect("parse_moves gives 1..=50");
        if let Err(error) = pos.play(mv) {
            return Err(OpeningError::Illegal {
                ply: i + 1,
                side: pos.to_move(),
                hole,
                error,
                legal: pos.legal_moves(),
            });
        }
        moves.push(mv);
    }
    if pos.is_over() {
        return Err(OpeningError::GameOver);
    }
    Ok(moves)
}

fn spec(name: &str, command: &[String], move_time_ms: u64, startup_ms: u64) -> BotSpec {
    BotSpec::new(
        name,
        command.to_vec(),
        crate::config::TimeControl::per_move(move_time_ms, startup_ms),
    )
}

/// Reads one line into `line` (without its `\n`), keeping at most
/// [`MAX_INPUT_BYTES`] of it; `None` at the end of the input.
pub fn read_capped_line(
    reader: &mut impl BufRead,
    line: &mut Vec<u8>,
) -> std::io::Result<Option<()>> {
    line.clear();
    let mut any = false;
    loop {
        let available = reader.fill_buf()?;
        if available.is_empty() {
            return Ok(any.then_some(()));
        }
        any = true;
        let (chunk, used, done) = match available.iter().position(|&b| b == b'\n') {
            Some(i) => (&available[..i], i + 1, true),
            None => (available, available.len(), false),
        };
        let room = MAX_INPUT_BYTES.saturating_sub(line.len());
        line.extend_from_slice(&chunk[..chunk.len().min(room)]);
        reader.consume(used);
        if done {
            return Ok(Some(()));
        }
    }
}

/// Starts the bots of `commands` (`None` for the human's side, if
/// `human`), both at once, their stderr to `log`: the bots, or `None` when
/// `cancel` comes first (said on `out`). A bot that does not start stops
/// the other.
async fn start_bots<W: Write>(
    options: &PlayOptions,
    log: &BotLog,
    human: Option<Side>,
    commands: [Option<&Vec<String>>; 2],
    cancel: &CancellationToken,
    out: &mut W,
) -> Result<Option<[Option<BotProcess>; 2]>, PlayError> {
    let has_log = options.log.is_some();
    let start = |side: Side| {
        let log = log.clone();
        let guard = options.guard.clone();
        let command = commands[side.index()].cloned();
        let startup = Duration::from_millis(options.startup_ms);
        let (move_time_ms, startup_ms) = (options.move_time_ms, options.startup_ms);
        async move {
            let Some(command) = command else {
                return Ok(None);
            };
            let name = if human.is_some() { "bot" } else { side.name() };
            let start = StartOptions {
                startup,
                guard: guard.as_deref(),
                log,
                log_prefix: name.into(),
                transcript: None,
            };
            BotProcess::start(&spec(name, &command, move_time_ms, startup_ms), start)
                .await
                .map(Some)
                .map_err(|f| {
                    let shown: Vec<String> = command.iter().map(|w| shown(w)).collect();
                    let hint = if has_log {
                        ""
                    } else {
                        " (--log FILE keeps its stderr)"
                    };
                    PlayError::Start {
                        command: shown.join(" "),
                        why: f.to_string(),
                        hint,
                    }
                })
        }
    };
    let started = tokio::select! {
        biased;
        () = cancel.cancelled() => {
            // The bots being started are dropped, which kills them.
            writeln!(out, "Interrupted while the bots were starting.")?;
            return Ok(None);
        }
        both = futures::future::join(start(Side::South), start(Side::North)) => both,
    };
    match started {
        (Ok(south), Ok(north)) => Ok(Some([south, north])),
        (south, north) => {
            // Stop the one that did start, and report the other.
            let mut error = None;
            for result in [south, north] {
                match result {
                    Ok(Some(bot)) => {
                        bot.shutdown(true).await;
                    }
                    Ok(None) => {}
                    Err(e) => {
                        error.get_or_insert(e);
                    }
                }
            }
            Err(error.expect("one bot failed"))
        }
    }
}

/// The whole session: starts the bots, plays, tells them the end, stops
/// them. `input` gives the human's lines (`None` when nobody types).
///
/// # Errors
/// One line when a bot cannot be started (or fails its handshake), the log
/// cannot be created, or `out` fails. The bots are stopped in every case.
pub async fn session<W: Write>(
    options: PlayOptions,
    input: Option<mpsc::Receiver<String>>,
    out: W,
    cancel: CancellationToken,
) -> Result<Ending, PlayError> {
    let log = match &options.log {
        Some(path) => BotLog::create(path, LOG_CAP_BYTES).map_err(|cause| PlayError::Log {
            path: path.clone(),
            cause,
        })?,
        None => BotLog::none(),
    };
    let (human, commands): (Option<Side>, [Option<&Vec<String>>; 2]) = match &options.players {
        Players::Human { human, bot } => {
            let mut c = [None, None];
            c[human.opponent().index()] = Some(bot);
            (Some(*human), c)
        }
        Players::Bots { commands, .. } => (None, [Some(&commands[0]), Some(&commands[1])]),
    };
    let mut out = out;
    let Some(bots) = start_bots(&options, &log, human, commands, &cancel, &mut out).await? else {
        return Ok(Ending::Interrupted);
    };
    let names = match human {
        Some(side) => {
            let bot = bots[side.opponent().index()]
                .as_ref()
                .map_or("bot", |b| b.self_name.as_str());
            Names::human(side, bot)
        }
        None => Names::bots([
            bots[0].as_ref().map_or("", |b| b.self_name.as_str()),
            bots[1].as_ref().map_or("", |b| b.self_name.as_str()),
        ]),
    };
    let step = matches!(options.players, Players::Bots { step: true, .. });
    let mut game = Game {
        pos: options.rules.start(),
        last: None,
        taken: [0, 0],
        bots,
        in_game: [false; 2],
        human,
        names,
        out,
        input,
        cancel,
        laps: options.laps,
        step,
        colour: options.colour,
        echo: options.echo,
        width: options.width,
        move_time_ms: options.move_time_ms,
        startup: Duration::from_millis(options.startup_ms),
        buf: String::new(),
    };
    for mv in &options.opening {
        game.pos.play(*mv).expect("the opening was checked");
        game.last = Some(*mv);
    }
    let result = match game.play(&options).await {
        Ok(stop) => game.report(&stop).map(|ending| (stop, ending)),
        Err(e) => Err(e),
    };
    game.stop_bots(result.as_ref().ok().map(|(stop, _)| stop))
        .await;
    result.map(|(_, ending)| ending)
}

/// How each side is named in the text: on the board, as the subject of a
/// sentence, and before a hole.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Names {
    /// The seat the board is drawn from: the human's side, or South.
    pub seat: Side,
    /// Board labels, by [`Side::index`]: `you (South)`, `greedy (North)`.
    pub label: [String; 2],
    /// Sentence subjects: `you`, `greedy`; `South (random)` for two bots.
    pub subject: [String; 2],
    /// Possessives: `your`, `greedy's`; `South's` for two bots.
    pub possessive: [String; 2],
    /// Whether `subject` is `you` (so the verb has no `s`).
    pub you: [bool; 2],
}

impl Names {
    /// The names for a human playing `human` against the bot called `bot`.
    #[must_use]
    pub fn human(human: Side, bot: &str) -> Names {
        let mut names = Names {
            seat: human,
            label: Default::default(),
            subject: Default::default(),
            possessive: Default::default(),
            you: [false; 2],
        };
        let (h, b) = (human.index(), human.opponent().index());
        names.label[h] = format!("you ({})", title(human));
        names.label[b] = format!("{bot} ({})", title(human.opponent()));
        names.subject[h] = "you".into();
        names.subject[b] = bot.into();
        names.possessive[h] = "your".into();
        names.possessive[b] = format!("{bot}'s");
        names.you[h] = true;
        names
    }

    /// The names for two bots, South's name first.
    #[must_use]
    pub fn bots(bots: [&str; 2]) -> Names {
        let each = |f: &dyn Fn(Side) -> String| [f(Side::South), f(Side::North)];
        Names {
            seat: Side::South,
            label: each(&|s| format!("{} ({})", bots[s.index()], title(s))),
            subject: each(&|s| format!("{} ({})", title(s), bots[s.index()])),
            possessive: each(&|s| format!("{}'s", title(s))),
            you: [false; 2],
        }
    }

    fn subject(&self, side: Side) -> &str {
        &self.subject[side.index()]
    }

    fn possessive(&self, side: Side) -> &str {
        &self.possessive[side.index()]
    }

    /// `you play` or `greedy plays`, for any verb taking `s`.
    fn verb(&self, side: Side, verb: &str) -> String {
        let s = if self.you[side.index()] { "" } else { "s" };
        format!("{} {verb}{s}", self.subject(side))
    }

    /// `you have` or `greedy has`.
    fn has(&self, side: Side) -> String {
        let verb = if self.you[side.index()] {
            "have"
        } else {
            "has"
        };
        format!("{} {verb}", self.subject(side))
    }

    /// `your hole 3` or `greedy's hole 3`, for ring index `index` of a
    /// board of `holes` holes per row.
    fn hole(&self, index: usize, holes: usize) -> String {
        let (side, hole) = side_and_hole(index, holes);
        format!("{} hole {hole}", self.possessive(side))
    }
}

/// `South` or `North`.
fn title(side: Side) -> &'static str {
    match side {
        Side::South => "South",
        Side::North => "North",
    }
}

/// The side and own-perspective hole number of ring index `index`.
fn side_and_hole(index: usize, holes: usize) -> (Side, usize) {
    if index < holes {
        (Side::South, index + 1)
    } else {
        (Side::North, index - holes + 1)
    }
}

/// A board to draw.
#[derive(Clone, Copy, Debug)]
pub struct Board<'a> {
    /// The whole ring: South's holes 1..n, then North's 1..n.
    pub ring: &'a [u32],
    /// Seeds captured by South and North.
    pub captured: [u32; 2],
    /// The names, and the seat the board is seen from (the bottom row).
    pub names: &'a Names,
    /// Ring indices to highlight (the hole just played, a lap's ends); shown
    /// only in colour.
    pub marks: &'a [usize],
    /// Whether to use colour.
    pub colour: bool,
}

/// The board as seen from `board.names.seat`: the opponent's row on top,
/// from its hole n on the left to its hole 1 on the right, numbered above;
/// the seat's own row below, from hole 1 to n, numbered below, so opposite
/// holes stand one above the other. The arrows round the rows show the
/// sowing: counterclockwise, along the bottom row to the right, up, and
/// along the top row to the left. Each row is labelled with its player and
/// the seeds they captured. Every line ends with `\n`.
#[must_use]
pub fn board(board: &Board<'_>) -> String {
    let n = board.ring.len() / 2;
    let bottom = board.names.seat;
    let top = bottom.opponent();
    let width = board
        .ring
        .iter()
        .copied()
        .max()
        .unwrap_or(0)
        .max(n as u32)
        .to_string()
        .len()
        .max(2);
    let paint = |text: String, style: Style| {
        if board.colour {
            format!("{style}{text}{style:#}")
        } else {
            text
        }
    };
    let mark = Style::new().invert().bold();
    let dim = Style::new().dimmed();
    let holes = |side: Side| -> Vec<usize> {
        match side == top {
            true => (1..=n).rev().collect(),
            false => (1..=n).collect(),
        }
    };
    let index = |side: Side, hole: usize| side.index() * n + hole - 1;
    let numbers = |side: Side| {
        let cells: Vec<String> = holes(side)
            .into_iter()
            .map(|h| format!("{h:>width$}"))
            .collect();
        paint(cells.join("  "), dim)
    };
    let seeds = |side: Side| {
        let cells: Vec<String> = holes(side)
            .into_iter()
            .map(|h| {
                let i = index(side, h);
                let text = format!("{:>width$}", board.ring[i]);
                if board.marks.contains(&i) {
                    paint(text, mark)
                } else {
                    text
                }
            })
            .collect();
        cells.join("  ")
    };
    let label = |side: Side| {
        let name = paint(board.names.label[side.index()].clone(), Style::new().bold());
        format!("{name}, captured {}", board.captured[side.index()])
    };
    let row_len = n * width + (n - 1) * 2;
    let arrows = Style::new().fg_color(Some(AnsiColor::Cyan.into()));
    // A line of the ring: its arrows on either side of `middle`.
    let ring = |left: &str, middle: String, right: &str| {
        let (left, right) = (paint(left.into(), arrows), paint(right.into(), arrows));
        format!("  {left} {middle} {right}")
    };
    let mut out = String::new();
    let _ = writeln!(out, "  {}", label(top));
    let _ = writeln!(out, "      {}", numbers(top));
    let _ = writeln!(out, "{}", ring(".--", seeds(top), "<-."));
    let _ = writeln!(out, "{}", ring("v  ", " ".repeat(row_len), "  ^"));
    let _ = writeln!(out, "{}", ring("'->", seeds(bottom), "--'"));
    let _ = writeln!(out, "      {}", numbers(bottom));
    let _ = writeln!(out, "  {}", label(bottom));
    out
}

/// The line under the board: the ply, the last move and whose move it is
/// (or that the game is over).
#[must_use]
pub fn status_line(pos: &Position, last: Option<Move>, names: &Names) -> String {
    let mut text = format!("  ply {}", pos.ply());
    if let Some(mv) = last {
        let mover = pos.to_move().opponent();
        let _ = write!(text, "; last move: {} played {mv}", names.subject(mover));
    }
    if pos.is_over() {
        text.push_str("; the game is over");
    } else {
        let _ = write!(text, "; to move: {}", names.subject(pos.to_move()));
    }
    text
}

/// The line that reports a move: `you play 3: 5 laps, 25 seeds sown, no
/// capture`, with the capture in the captured side's own numbering. A
/// capture is told as RULES.md has it, the opposite hole's seeds and the
/// triggering seed: `captures 6 seeds from greedy's hole 3, and the
/// triggering seed: 7 seeds`.
#[must_use]
pub fn move_line(details: &MoveDetails, names: &Names) -> String {
    let mover = details.mover;
    let capture = match details.capture {
        Some(c) => format!(
            "{} {}",
            if names.you[mover.index()] {
                "capture"
            } else {
                "captures"
            },
            crate::replay::capture_text(c, names.possessive(mover.opponent()))
        ),
        None => "no capture".into(),
    };
    format!(
        "{} {}: {} lap{}, {} seed{} sown, {capture}",
        names.verb(mover, "play"),
        details.mv,
        details.laps,
        plural(u64::from(details.laps)),
        details.sown,
        plural(details.sown)
    )
}

/// `1 ply`, `2 plies`.
fn plies_text(plies: u32) -> String {
    crate::output::counted(plies, "ply", "plies")
}

fn plural(count: u64) -> &'static str {
    if count == 1 {
        ""
    } else {
        "s"
    }
}

/// The line that reports one lap of a move.
#[must_use]
pub fn lap_line(lap: &endodoi::Lap, holes: usize, names: &Names, mover: Side) -> String {
    let (side, _) = side_and_hole(lap.last, holes);
    let end = if !lap.ends {
        "which held seeds: they are lifted next".to_string()
    } else if side == mover {
        "which was empty: the sowing ends".into()
    } else {
        "which was empty: the sowing ends, on the other side (no capture)".into()
    };
    format!(
        "lap {}: {} seed{} from {}; the last falls in {}, {end}",
        lap.number,
        lap.seeds,
        plural(u64::from(lap.seeds)),
        names.hole(lap.from, holes),
        names.hole(lap.last, holes),
    )
}

/// What the human typed, read against the position (the human to move).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// A legal move.
    Move(Move),
    /// `help`: the commands.
    Help,
    /// `legal`: the legal moves.
    Legal,
    /// `laps`: toggle showing moves lap by lap.
    Laps,
    /// `board`: draw the board again.
    Board,
    /// `quit`: end the game.
    Quit,
    /// An empty line: prompt again.
    Empty,
    /// Anything else: a message that says what is wrong and what to type.
    Bad(String),
}

/// Reads one line of the human's input (the human is to move in `pos`):
/// a legal hole number or a command, in any case, with surrounding spaces.
/// A bad hole number gets a message that says why: not a number, no such
/// hole, an empty hole, or an endless move (with the lap limit).
#[must_use]
pub fn read_input(line: &str, pos: &Position) -> Input {
    let word = line.trim();
    let legal = pos.legal_moves();
    let legal_text = format!("legal: {legal}");
    match word.to_ascii_lowercase().as_str() {
        "" => return Input::Empty,
        "help" | "h" | "?" => return Input::Help,
        "legal" | "l" => return Input::Legal,
        "laps" => return Input::Laps,
        "board" | "b" => return Input::Board,
        "quit" | "q" | "exit" => return Input::Quit,
        _ => {}
    }
    let n = pos.holes();
    let digits = word.strip_prefix(['+', '-']).unwrap_or(word);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Input::Bad(format!(
            "'{}' is not a hole number: type one of your holes ({legal_text}), or help",
            shown(word)
        ));
    }
    let hole = word
        .parse::<i64>()
        .ok()
        .filter(|h| (1..=n as i64).contains(h));
    let Some(mv) = hole.and_then(|h| u8::try_from(h).ok()).and_then(Move::new) else {
        return Input::Bad(format!(
            "there is no hole {}: your holes are 1 to {n}, numbered from your left under your row ({legal_text})",
            shown(word)
        ));
    };
    match pos.check(mv) {
        Ok(()) => Input::Move(mv),
        Err(IllegalMove::EmptyHole { hole }) => Input::Bad(format!(
            "your hole {hole} is empty: pick a hole with seeds ({legal_text})"
        )),
        Err(IllegalMove::Endless { hole, max_laps }) => Input::Bad(format!(
            "hole {hole} is an endless move: its relay sowing is still going at lap {max_laps}, the lap limit (that lap ends in an occupied hole), so the rules do not allow it ({legal_text})"
        )),
        Err(e) => Input::Bad(format!("{e} ({legal_text})")),
    }
}

/// The text of `legal`: the legal moves, and the occupied holes left out
/// as endless.
#[must_use]
pub fn legal_text(pos: &Position) -> String {
    let legal = pos.legal_moves();
    let endless: Vec<String> = pos
        .candidate_moves()
        .into_iter()
        .filter(|m| !legal.contains(*m))
        .map(|m| m.to_string())
        .collect();
    let mut text = format!("your legal moves: {legal}");
    if !endless.is_empty() {
        let _ = write!(
            text,
            " (not {}: endless, still sowing at lap {}, the lap limit)",
            endless.join(" "),
            pos.rules().max_laps()
        );
    }
    text
}

/// The text of `help`.
#[must_use]
pub fn help_text(holes: usize, laps: bool, opponent: &str) -> String {
    format!(
        "Type one of these, then Enter:
  1 to {holes}   play that hole of your row (the numbers under the bottom row)
  legal    list your legal moves
  laps     show each move lap by lap, or stop (now {})
  board    draw the board again
  help     this list
  quit     end the game and stop the bot
Sowing runs counterclockwise, along the arrows: your row to the right, then
{opponent}'s row to the left; {opponent}'s holes are numbered from its own left,
as it names its moves. A lap that ends in an occupied hole lifts it and sows
on; the move ends in an empty hole. If that hole is yours and the hole
opposite holds seeds, you capture them and the last seed.",
        if laps { "on" } else { "off" }
    )
}

/// Why the game stopped, before the bots are told.
enum Stop {
    /// Over by the rules.
    Over,
    /// `side` lost by a fault; `why` says how, `reason` is its
    /// termination name (`timeout`...). A bot that faulted other than by an
    /// illegal move has been stopped already.
    Forfeit {
        side: Side,
        why: String,
        reason: &'static str,
    },
    /// The human quit, or the input ended; the text says which.
    Quit(&'static str),
    /// A signal.
    Interrupted,
}

/// A game in progress.
struct Game<W: Write> {
    pos: Position,
    last: Option<Move>,
    /// The seeds each side took off the board when the game ended (the
    /// sweep, or each side's row at the ply limit).
    taken: [u32; 2],
    /// The bots by [`Side::index`]; `None` for the human's side, or a bot
    /// stopped after a fault.
    bots: [Option<BotProcess>; 2],
    /// Which bots were told of the game (`newgame` answered).
    in_game: [bool; 2],
    human: Option<Side>,
    names: Names,
    out: W,
    input: Option<mpsc::Receiver<String>>,
    cancel: CancellationToken,
    laps: bool,
    step: bool,
    colour: bool,
    echo: bool,
    /// The columns the intro is wrapped to.
    width: usize,
    move_time_ms: u64,
    startup: Duration,
    buf: String,
}

impl<W: Write> Game<W> {
    /// Plays until the game stops; the `Stop` is then reported by
    /// [`Game::report`], and the bots told and stopped by [`Game::stop_bots`].
    async fn play(&mut self, options: &PlayOptions) -> Result<Stop, PlayError> {
        self.intro(options)?;
        self.show_board(&[])?;
        if let Some(stop) = self.newgames().await {
            return Ok(stop);
        }
        loop {
            if self.pos.is_over() {
                return Ok(Stop::Over);
            }
            let side = self.pos.to_move();
            let before = self.pos.clone();
            let details = if self.human == Some(side) {
                match self.human_move().await? {
                    Ok(mv) => self.pos.play(mv).expect("a legal move"),
                    Err(stop) => return Ok(stop),
                }
            } else {
                if self.step {
                    if let Some(stop) = self.wait_for_enter().await? {
                        return Ok(stop);
                    }
                }
                match self.bot_move(side).await {
                    Ok(details) => details,
                    Err(stop) => return Ok(stop),
                }
            };
            self.show_move(&before, &details)?;
        }
    }

    /// The intro: the board, the players and how to read the board, as
    /// paragraphs wrapped to the terminal's width.
    fn intro(&mut self, options: &PlayOptions) -> std::io::Result<()> {
        let rules = self.pos.rules();
        let mut first = format!(
            "arena play: 2x{} board, {} seed{} per hole",
            rules.holes(),
            rules.seeds(),
            plural(u64::from(rules.seeds()))
        );
        if !options.opening.is_empty() {
            let plies: Vec<String> = options.opening.iter().map(Move::to_string).collect();
            let _ = write!(first, ", after the opening {}", plies.join(" "));
        }
        let mut paragraphs = Vec::new();
        match self.human {
            Some(human) => {
                let bot = self.names.subject(human.opponent()).to_string();
                let _ = write!(
                    first,
                    "; you are {}, {bot} is {}; South moves first.",
                    title(human),
                    title(human.opponent()),
                );
                paragraphs.push(first);
                paragraphs.push(format!(
                    "Sowing runs counterclockwise, along the arrows: your row to the right, then \
                     {bot}'s row to the left. {bot}'s holes are numbered from its own left, as it \
                     names its moves. Type a hole number to move; help lists the commands."
                ));
            }
            None => {
                let _ = write!(
                    first,
                    "; {} against {}.",
                    self.names.subject(Side::South),
                    self.names.subject(Side::North),
                );
                paragraphs.push(first);
                paragraphs.push(
                    "Sowing runs counterclockwise, along the arrows: South's row to the right, \
                     then North's row to the left; each row is numbered from its owner's left."
                        .into(),
                );
                if self.step {
                    paragraphs.push(
                        "Press Enter for each ply; laps shows the sowing lap by lap, quit stops."
                            .into(),
                    );
                }
            }
        }
        for paragraph in &paragraphs {
            writeln!(self.out, "{}", textwrap::fill(paragraph, self.width))?;
        }
        Ok(())
    }

    /// Draws the position, with `marks` highlighted, and the status line.
    fn show_board(&mut self, marks: &[usize]) -> std::io::Result<()> {
        let ring = self.pos.ring().to_vec();
        let drawing = board(&Board {
            ring: &ring,
            captured: [
                self.pos.captured(Side::South),
                self.pos.captured(Side::North),
            ],
            names: &self.names,
            marks,
            colour: self.colour,
        });
        let status = self.wrapped(&status_line(&self.pos, self.last, &self.names), "    ");
        write!(self.out, "\n{drawing}{status}\n\n")?;
        self.out.flush()
    }

    /// Sends `newgame` to each bot; a bot that does not answer `ready`
    /// forfeits.
    async fn newgames(&mut self) -> Option<Stop> {
        let rules = *self.pos.rules();
        for side in Side::ALL {
            let Some(bot) = self.bots[side.index()].as_mut() else {
                continue;
            };
            let game = NewGame {
                rules,
                side,
                move_time_ms: self.move_time_ms,
                base_time_ms: 0,
                increment_ms: 0,
                game: Some((1, 1)),
            };
            let asked = ply::new_game(bot, &mut self.buf, &game, self.startup);
            let answer = tokio::select! {
                biased;
                () = self.cancel.cancelled() => return Some(Stop::Interrupted),
                answer = asked => answer,
            };
            let why = match answer {
                Ok(()) => None,
                Err(NewGameFault::NotReady { line, .. }) => Some((
                    format!(
                        "protocol-error: answered newgame without 'ready'; it sent '{}'",
                        shown(&line)
                    ),
                    "protocol-error",
                )),
                Err(NewGameFault::Fault(f)) => Some((
                    format!("{}: did not answer newgame: {f}", f.termination()),
                    f.termination(),
                )),
            };
            match why {
                None => self.in_game[side.index()] = true,
                Some((why, reason)) => {
                    self.stop_bot(side, &why).await;
                    return Some(Stop::Forfeit { side, why, reason });
                }
            }
        }
        None
    }

    /// The next line of input, or `None` at its end; `Err` on a signal.
    async fn line(&mut self) -> Result<Option<String>, Stop> {
        let Some(input) = self.input.as_mut() else {
            return Ok(None);
        };
        let line = tokio::select! {
            biased;
            () = self.cancel.cancelled() => return Err(Stop::Interrupted),
            line = input.recv() => line,
        };
        if self.echo {
            // The input is not a terminal, which would have echoed it.
            let _ = writeln!(self.out, "{}", line.as_deref().unwrap_or(""));
        }
        Ok(line)
    }

    /// Writes `prompt` and reads the line typed after it; `Err` when the
    /// input ended ([`Stop::Quit`]) or on a signal.
    async fn answer(&mut self, prompt: &str) -> Result<Result<String, Stop>, PlayError> {
        write!(self.out, "{prompt}")?;
        self.out.flush()?;
        Ok(match self.line().await {
            Ok(Some(line)) => Ok(line),
            Ok(None) => Err(Stop::Quit("the input ended")),
            Err(stop) => Err(stop),
        })
    }

    /// Prompts until the human types a legal move (`Ok(Ok)`), quits or the
    /// game is interrupted (`Ok(Err)`).
    async fn human_move(&mut self) -> Result<Result<Move, Stop>, PlayError> {
        loop {
            let prompt = format!(
                "Your move, ply {} (legal: {}): ",
                self.pos.ply() + 1,
                self.pos.legal_moves()
            );
            let line = match self.answer(&prompt).await? {
                Ok(line) => line,
                Err(stop) => return Ok(Err(stop)),
            };
            match read_input(&line, &self.pos) {
                Input::Move(mv) => return Ok(Ok(mv)),
                Input::Quit => return Ok(Err(Stop::Quit("you quit"))),
                Input::Empty => {}
                Input::Help => {
                    let opponent = self.names.subject(self.pos.to_move().opponent());
                    let text = help_text(self.pos.holes(), self.laps, opponent);
                    writeln!(self.out, "{text}")?;
                }
                Input::Legal => writeln!(self.out, "{}", legal_text(&self.pos))?,
                Input::Laps => self.toggle_laps()?,
                Input::Board => self.show_board(&[])?,
                Input::Bad(message) => {
                    let style = Style::new().fg_color(Some(AnsiColor::Red.into()));
                    let message = if self.colour {
                        format!("{style}{message}{style:#}")
                    } else {
                        message
                    };
                    writeln!(self.out, "{message}")?;
                }
            }
        }
    }

    fn toggle_laps(&mut self) -> std::io::Result<()> {
        self.laps = !self.laps;
        let state = if self.laps {
            "on: each move is shown lap by lap"
        } else {
            "off"
        };
        writeln!(self.out, "laps {state}")
    }

    /// With `--step`: waits for Enter before the next ply.
    async fn wait_for_enter(&mut self) -> Result<Option<Stop>, PlayError> {
        loop {
            let prompt = format!("Press Enter for ply {} (laps, quit): ", self.pos.ply() + 1);
            let line = match self.answer(&prompt).await? {
                Ok(line) => line,
                Err(stop) => return Ok(Some(stop)),
            };
            match line.trim().to_ascii_lowercase().as_str() {
                "" => return Ok(None),
                "quit" | "q" | "exit" => return Ok(Some(Stop::Quit("you quit"))),
                "laps" => self.toggle_laps()?,
                other => writeln!(
                    self.out,
                    "'{}': press Enter for the next ply, or type laps or quit",
                    shown(other)
                )?,
            }
        }
    }

    /// Plays `side`'s bot's ply, as a tournament does ([`ply::ply`]); a
    /// fault or an illegal move loses the game.
    async fn bot_move(&mut self, side: Side) -> Result<MoveDetails, Stop> {
        let bot = self.bots[side.index()]
            .as_mut()
            .expect("a bot plays this side");
        let clock = PlyClock {
            limit_ms: self.move_time_ms,
            margin: Duration::from_millis(DEFAULT_MARGIN_MS),
            clocks: None,
        };
        let asked = ply::ply(bot, &mut self.buf, &mut self.pos, self.last, clock);
        let answer = tokio::select! {
            biased;
            () = self.cancel.cancelled() => return Err(Stop::Interrupted),
            answer = asked => answer,
        };
        let fault = match answer {
            Ok(played) => return Ok(played.details),
            Err(fault) => fault,
        };
        let reason = fault.termination();
        let why = match &fault {
            PlyFault::Fault(f) => format!("{reason}: {f}"),
            PlyFault::NotAMove { line, .. } => {
                format!("{reason}: {fault}; it sent '{}'", shown(line))
            }
            PlyFault::Illegal {
                line,
                illegal,
                legal,
                ..
            } => format!(
                "{reason}: {illegal}; legal were {legal}; it sent '{}'",
                shown(line)
            ),
        };
        // After an illegal move the bot is still in step: it hears of the end.
        if !matches!(fault, PlyFault::Illegal { .. }) {
            self.stop_bot(side, &why).await;
        }
        Err(Stop::Forfeit { side, why, reason })
    }

    /// Writes `text`, each of its lines wrapped by [`Game::wrapped`].
    fn say(&mut self, text: &str) -> std::io::Result<()> {
        for line in text.split('\n') {
            let line = self.wrapped(line, "  ");
            writeln!(self.out, "{line}")?;
        }
        Ok(())
    }

    /// `line` wrapped to the terminal's width (80 columns off a terminal),
    /// its lines after the first indented by `indent`; words are never
    /// split at a hyphen, so a bot's name stays whole.
    fn wrapped(&self, line: &str, indent: &str) -> String {
        let options = textwrap::Options::new(self.width)
            .subsequent_indent(indent)
            .word_splitter(textwrap::WordSplitter::NoHyphenation);
        let leading = line.len() - line.trim_start().len();
        let options = options.initial_indent(&line[..leading]);
        textwrap::fill(line.trim_start(), options)
    }

    /// Shows the move of `details`, just played from `before`: the move
    /// line, the laps if asked for, and the board after it.
    fn show_move(&mut self, before: &Position, details: &MoveDetails) -> std::io::Result<()> {
        let mv = details.mv;
        let mover = before.to_move();
        let holes = before.holes();
        let laps = self.laps.then(|| before.laps(mv).expect("a legal move"));
        self.last = Some(mv);
        if details.outcome.is_some() {
            let capture = details.capture.map_or(0, |c| c.seeds);
            for side in Side::ALL {
                let own = if side == mover { capture } else { 0 };
                self.taken[side.index()] = self.pos.captured(side) - before.captured(side) - own;
            }
        }
        let line = format!(
            "Ply {}: {}",
            self.pos.ply(),
            move_line(details, &self.names)
        );
        writeln!(self.out, "{}", self.wrapped(&line, "  "))?;
        if let (Some(laps), true) = (laps, details.laps > 1) {
            self.show_laps(laps, before, mover, details.laps)?;
        }
        let start = holes * mover.index() + usize::from(mv.hole()) - 1;
        self.show_board(&[start, details.last])
    }

    /// Shows each lap of a move (the first [`LAPS_SHOWN`]), with the board
    /// after each lap but the last (the board after the move follows).
    fn show_laps(
        &mut self,
        mut laps: endodoi::Laps,
        before: &Position,
        mover: Side,
        count: u32,
    ) -> std::io::Result<()> {
        let holes = before.holes();
        let captured = [before.captured(Side::South), before.captured(Side::North)];
        while let Some(lap) = laps.next() {
            if lap.number > LAPS_SHOWN && !lap.ends {
                continue;
            }
            if lap.number > LAPS_SHOWN && lap.ends && count > LAPS_SHOWN + 1 {
                writeln!(
                    self.out,
                    "  ... laps {} to {} not shown",
                    LAPS_SHOWN + 1,
                    count - 1
                )?;
            }
            let line = format!("  {}", lap_line(&lap, holes, &self.names, mover));
            writeln!(self.out, "{}", self.wrapped(&line, "    "))?;
            if !lap.ends && lap.number <= LAPS_SHOWN {
                let drawing = board(&Board {
                    ring: laps.ring(),
                    captured,
                    names: &self.names,
                    marks: &[lap.from, lap.last],
                    colour: self.colour,
                });
                writeln!(self.out, "\n{drawing}")?;
            }
        }
        Ok(())
    }

    /// Stops `side`'s bot after a fault, at once, as the referee does.
    async fn stop_bot(&mut self, side: Side, why: &str) {
        if let Some(bot) = self.bots[side.index()].take() {
            bot.note(&format!("fault: {why}; stopping the process"));
            bot.shutdown(false).await;
        }
    }

    /// Tells the bots still in the game how it ended (`stop`; `None` after
    /// an error of the arena's), and stops every bot.
    async fn stop_bots(&mut self, stop: Option<&Stop>) {
        let over = match stop {
            Some(Stop::Over) => {
                let outcome = self.pos.outcome().expect("over");
                Some((outcome.winner, outcome.termination.name()))
            }
            Some(Stop::Forfeit { side, reason, .. }) => Some((Some(side.opponent()), *reason)),
            _ => None,
        };
        let seeds = [
            self.pos.captured(Side::South),
            self.pos.captured(Side::North),
        ];
        for side in Side::ALL {
            let Some(bot) = self.bots[side.index()].as_mut() else {
                continue;
            };
            if let (Some((winner, reason)), true) = (over, self.in_game[side.index()]) {
                write_line(&mut self.buf, &GameOver::new(side, winner, seeds, reason));
                let _ = bot.notify(&self.buf, crate::bot::GRACE).await;
            }
        }
        let [south, north] = [self.bots[0].take(), self.bots[1].take()];
        let stop_one = |bot: Option<BotProcess>| async move {
            if let Some(bot) = bot {
                bot.shutdown(true).await;
            }
        };
        futures::future::join(stop_one(south), stop_one(north)).await;
    }

    /// `the bot` or `the bots`.
    fn the_bots(&self) -> &'static str {
        if self.human.is_some() {
            "the bot"
        } else {
            "the bots"
        }
    }

    /// Writes how the game ended and the score.
    fn report(&mut self, stop: &Stop) -> Result<Ending, PlayError> {
        let names = self.names.clone();
        let seeds = [
            self.pos.captured(Side::South),
            self.pos.captured(Side::North),
        ];
        let score = format!(
            "Final score: {} {}, {} {}.",
            names.label[0], seeds[0], names.label[1], seeds[1]
        );
        let ending = match stop {
            Stop::Over => {
                let outcome = self.pos.outcome().expect("over");
                let plies = self.pos.ply();
                let why = match outcome.termination {
                    Termination::NoMoves if plies == 0 => {
                        "nobody can move: each side takes its own row".to_string()
                    }
                    Termination::NoMoves => {
                        let stuck = self.pos.to_move();
                        let swept = self.taken[stuck.opponent().index()];
                        format!(
                            "{} no legal move, so {} the {swept} seed{} left on the board",
                            names.has(stuck),
                            names.verb(stuck.opponent(), "take"),
                            plural(u64::from(swept)),
                        )
                    }
                    Termination::PlyLimit => format!(
                        "the ply limit ({}) is reached: each side takes the seeds in its own row (South {}, North {})",
                        self.pos.rules().max_plies(),
                        self.taken[0],
                        self.taken[1],
                    ),
                };
                self.say(&format!("Game over after {}: {why}.", plies_text(plies)))?;
                let result = match outcome.winner {
                    Some(w) => format!(
                        "{} {} to {}",
                        names.verb(w, "win"),
                        seeds[w.index()],
                        seeds[w.opponent().index()]
                    ),
                    None => format!("a draw, {} to {}", seeds[0], seeds[1]),
                };
                self.say(&format!("Result: {result}.\n{score}"))?;
                Ending::Finished
            }
            Stop::Forfeit { side, why, .. } => {
                self.say(&format!("{} forfeits: {why}.", names.label[side.index()]))?;
                let winner = side.opponent();
                self.say(&format!(
                    "Result: {} by forfeit.\n{score}",
                    names.verb(winner, "win")
                ))?;
                Ending::Forfeit
            }
            Stop::Quit(why) => {
                self.say(&format!(
                    "{}{}: the game is abandoned after {}; stopping {}.",
                    why[..1].to_ascii_uppercase(),
                    &why[1..],
                    plies_text(self.pos.ply()),
                    self.the_bots()
                ))?;
                Ending::Quit
            }
            Stop::Interrupted => {
                self.say(&format!(
                    "\nInterrupted: the game is abandoned after {}; stopping {}.",
                    plies_text(self.pos.ply()),
                    self.the_bots()
                ))?;
                Ending::Interrupted
            }
        };
        self.out.flush()?;
        Ok(ending)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(holes: usize, seeds: u32) -> Rules {
        Rules::new(holes, seeds).unwrap()
    }

    /// RULES.md's example: 2x4 after `4 3 2 4 1`, North to move; hole 1
    /// is endless, hole 2 empty.
    fn endless_position() -> Position {
        Position::parse("0,5,0,1/2,0,6,5 n 5 8 5", rules(4, 4)).unwrap()
    }

    fn plain(ring: &[u32], captured: [u32; 2], names: &Names) -> String {
        board(&Board {
            ring,
            captured,
            names,
            marks: &[],
            colour: false,
        })
    }

    #[test]
    fn the_board_from_south_seat() {
        let pos = rules(8, 4).start();
        let names = Names::human(Side::South, "greedy");
        let expected = "  \
  greedy (North), captured 0
       8   7   6   5   4   3   2   1
  .--  4   4   4   4   4   4   4   4 <-.
  v                                    ^
  '->  4   4   4   4   4   4   4   4 --'
       1   2   3   4   5   6   7   8
  you (South), captured 0
";
        assert_eq!(plain(&pos.ring().to_vec(), [0, 0], &names), expected);
    }

    #[test]
    fn the_board_from_north_seat_puts_south_on_top() {
        // South's row 1,2,3 is on top, from its hole 3 on the left; North's
        // row 4,5,6 below from its hole 1; the hole opposite North's hole 1
        // (4 seeds) is South's hole 3 (3 seeds).
        let names = Names::human(Side::North, "random");
        let text = plain(&[1, 2, 3, 4, 5, 6], [7, 12], &names);
        let expected = "  \
  random (South), captured 7
       3   2   1
  .--  3   2   1 <-.
  v                ^
  '->  4   5   6 --'
       1   2   3
  you (North), captured 12
";
        assert_eq!(text, expected);
    }

    #[test]
    fn wide_counts_widen_every_cell() {
        let names = Names::bots(["random", "greedy"]);
        let text = plain(&[0, 120, 3, 5], [0, 0], &names);
        let expected = "  \
  greedy (North), captured 0
        2    1
  .--   5    3 <-.
  v              ^
  '->   0  120 --'
        1    2
  random (South), captured 0
";
        assert_eq!(text, expected);
    }

    #[test]
    fn colour_only_when_asked() {
        let names = Names::human(Side::South, "greedy");
        let ring = [1, 2, 3, 4];
        let coloured = board(&Board {
            ring: &ring,
            captured: [0, 0],
            names: &names,
            marks: &[1],
            colour: true,
        });
        assert!(coloured.contains("\u{1b}["), "{coloured}");
        assert!(!plain(&ring, [0, 0], &names).contains('\u{1b}'));
    }

    #[test]
    fn the_status_line_says_whose_move() {
        let mut pos = rules(4, 4).start();
        let names = Names::human(Side::North, "greedy");
        assert_eq!(status_line(&pos, None, &names), "  ply 0; to move: greedy");
        pos.play(Move::new(2).unwrap()).unwrap();
        assert_eq!(
            status_line(&pos, Move::new(2), &names),
            "  ply 1; last move: greedy played 2; to move: you"
        );
    }

    #[test]
    fn moves_and_laps_are_told_in_the_reader_s_numbering() {
        // 2x6 with 1 seed, South plays 4: 7 laps, captures North's hole 2.
        let mut pos = rules(6, 1).start();
        let mv = Move::new(4).unwrap();
        let laps: Vec<_> = pos.laps(mv).unwrap().collect();
        let details = pos.play(mv).unwrap();
        let names = Names::human(Side::North, "greedy");
        assert_eq!(
            move_line(&details, &names),
            "greedy plays 4: 7 laps, 13 seeds sown, captures 2 seeds from your hole 2, \
             and the triggering seed: 3 seeds"
        );
        let you = Names::human(Side::South, "greedy");
        assert_eq!(
            move_line(&details, &you),
            "you play 4: 7 laps, 13 seeds sown, capture 2 seeds from greedy's hole 2, \
             and the triggering seed: 3 seeds"
        );
        assert_eq!(
            lap_line(&laps[0], 6, &you, Side::South),
            "lap 1: 1 seed from your hole 4; the last falls in your hole 5, which held seeds: they are lifted next"
        );
        assert_eq!(
            lap_line(laps.last().unwrap(), 6, &you, Side::South),
            "lap 7: 2 seeds from your hole 3; the last falls in your hole 5, which was empty: the sowing ends"
        );
    }

    #[test]
    fn every_kind_of_bad_input_says_why() {
        let pos = endless_position();
        let bad = |line: &str| match read_input(line, &pos) {
            Input::Bad(message) => message,
            other => panic!("{line}: {other:?}"),
        };
        assert_eq!(
            bad("abc"),
            "'abc' is not a hole number: type one of your holes (legal: 3 4), or help"
        );
        assert!(bad("3.5").contains("not a hole number"));
        assert!(bad("-").contains("not a hole number"));
        assert_eq!(
            bad("5"),
            "there is no hole 5: your holes are 1 to 4, numbered from your left under your row (legal: 3 4)"
        );
        assert!(bad("0").starts_with("there is no hole 0"));
        assert!(bad("-2").starts_with("there is no hole -2"));
        assert!(bad("99999999999999999999999").starts_with("there is no hole 9999"));
        assert_eq!(
            bad("2"),
            "your hole 2 is empty: pick a hole with seeds (legal: 3 4)"
        );
        assert_eq!(
            bad("1"),
            "hole 1 is an endless move: its relay sowing is still going at lap 100000, the lap limit (that lap ends in an occupied hole), so the rules do not allow it (legal: 3 4)"
        );
        // A control character in the input is shown escaped.
        assert!(bad("\u{1b}[2J").contains("\\u{1b}"));
    }

    #[test]
    fn commands_and_moves_are_read() {
        let pos = endless_position();
        assert_eq!(read_input(" 3 ", &pos), Input::Move(Move::new(3).unwrap()));
        assert_eq!(read_input("+4", &pos), Input::Move(Move::new(4).unwrap()));
        for (line, input) in [
            ("", Input::Empty),
            ("HELP", Input::Help),
            ("legal", Input::Legal),
            ("laps", Input::Laps),
            ("board", Input::Board),
            ("quit", Input::Quit),
        ] {
            assert_eq!(read_input(line, &pos), input, "{line}");
        }
        assert_eq!(
            legal_text(&pos),
            "your legal moves: 3 4 (not 1: endless, still sowing at lap 100000, the lap limit)"
        );
    }

    #[test]
    fn long_input_lines_are_cut() {
        let text = format!("{}\nquit\nlast", "7".repeat(3 * MAX_INPUT_BYTES));
        let mut reader = std::io::BufReader::with_capacity(64, text.as_bytes());
        let mut line = Vec::new();
        assert_eq!(read_capped_line(&mut reader, &mut line).unwrap(), Some(()));
        assert_eq!(line.len(), MAX_INPUT_BYTES);
        assert_eq!(read_capped_line(&mut reader, &mut line).unwrap(), Some(()));
        assert_eq!(line, b"quit");
        assert_eq!(read_capped_line(&mut reader, &mut line).unwrap(), Some(()));
        assert_eq!(line, b"last");
        assert_eq!(read_capped_line(&mut reader, &mut line).unwrap(), None);
    }

    #[test]
    fn openings_are_checked() {
        let r = rules(4, 4);
        assert_eq!(parse_opening("4 3 2 4 1", r).unwrap().len(), 5);
        let err = parse_opening("4 3 2 4 1 1", r).unwrap_err().to_string();
        assert!(err.contains("ply 6 (north to move) cannot be 1"), "{err}");
        assert!(err.contains("endless"), "{err}");
        assert!(parse_opening("x", r)
            .unwrap_err()
            .to_string()
            .starts_with("--opening: 'x'"));
    }
}
