//! # endodoi-bots: reference bots and the bot side of the arena protocol
//!
//! - [`protocol`]: the protocol codec (`protocol.md`, version 1), the
//!   `endodoi-protocol` crate re-exported: the arena's requests decoded, the
//!   replies encoded;
//! - [`Strategy`]: what a bot plays; [`Random`], [`Greedy`], [`First`],
//!   [`AlphaBeta`] ([`alphabeta`]: alpha-beta search) and [`Mcts`]
//!   ([`mcts`]: Monte Carlo tree search) are bundled;
//! - [`run`]: the whole protocol loop around a strategy, so a Rust bot is
//!   a [`Strategy`] and one call;
//! - [`run_named`], [`strategy_from_args`] and [`bot_main`]: the bundled bots
//!   by name and command line, for the `endodoi-NAME` binaries and
//!   `arena bot NAME [OPTIONS]`;
//! - [`solve`]: exact values of small boards (2x2 to 2x4), for `arena solve`;
//! - [`play_game`]: two strategies in-process, through the rules engine only.
//!
//! ```
//! use endodoi::{Move, MoveSet, Position};
//! use endodoi_bots::{run, Strategy};
//!
//! /// Plays its highest legal hole.
//! struct Last;
//! impl Strategy for Last {
//!     fn name(&self) -> &str { "last" }
//!     fn choose(&mut self, _pos: &Position, legal: MoveSet) -> Move {
//!         legal.into_iter().last().unwrap()
//!     }
//! }
//!
//! let input = "hello version=1\n\
//!     newgame holes=2 seeds=1 side=south move_time_ms=1000 base_time_ms=0 increment_ms=0 max_plies=1000 max_laps=100000\n\
//!     turn mine=1,1 theirs=1,1 captured=0,0 last=none legal=1,2 ply=0 time_ms=1000\n\
//!     quit\n";
//! let mut output = Vec::new();
//! run(Last, input.as_bytes(), &mut output)?;
//! assert_eq!(String::from_utf8(output).unwrap(), "hello version=1 name=last\nready\nmove 2\n");
//! # Ok::<(), std::io::Error>(())
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod alphabeta;
mod args;
pub mod mcts;
/// The protocol codec: the `endodoi-protocol` crate, re-exported.
pub use endodoi_protocol as protocol;
pub mod solve;
mod strategy;

use std::io::{self, BufRead, Write};
use std::time::Instant;

use endodoi::{Move, Position, Rules, Side};

pub use alphabeta::{AlphaBeta, AlphaBetaOptions, Leaves};
pub use args::{alphabeta_from_args, option_args, option_names, strategy_from_args, BotArgsError};
use endodoi_protocol::{Command, Hello, HelloReply, NewGame, Reply, Request, Turn};
pub use mcts::{Mcts, MctsOptions};
pub use strategy::{
    own_view, play_game, First, Greedy, Noisy, Random, Strategy, Thinking, TimeLeft,
};

/// The names of the bundled bots, for [`run_named`], [`strategy_by_name`]
/// and [`strategy_from_args`].
pub const BOT_NAMES: &[&str] = &["random", "greedy", "first", "alphabeta", "mcts"];

/// The bundled strategy called `name` (one of [`BOT_NAMES`]) seeded with
/// `seed`, with its default options (`alphabeta` and `mcts` then take their
/// share of the time the arena allows), or `None` for an unknown name.
#[must_use]
pub fn strategy_by_name(name: &str, seed: u64) -> Option<Box<dyn Strategy>> {
    match name {
        "random" => Some(Box::new(Random::new(seed))),
        "greedy" => Some(Box::new(Greedy::new(seed))),
        "first" => Some(Box::new(First)),
        "alphabeta" => Some(Box::new(AlphaBeta::new(AlphaBetaOptions::default()))),
        "mcts" => Some(Box::new(Mcts::new(MctsOptions::default(), seed))),
        _ => None,
    }
}

/// The position of a `turn` request as the bot sees it: the bot is South and
/// to move, `mine` is South's row, `theirs` North's, `captured` and `ply` as
/// given. `rules` come from the game's `newgame`; without them (or if their
/// hole count differs from the rows) the hole count is taken from the rows and
/// the other parameters from `rules` or the defaults.
///
/// # Errors
/// [`TurnPositionError`], with the rules engine's message, when the rows
/// cannot make a position (for example fewer than 2 holes).
pub fn turn_position(turn: &Turn, rules: Option<Rules>) -> Result<Position, TurnPositionError> {
    let n = turn.mine.len();
    let rules = match rules {
        Some(r) if r.holes() == n => r,
        other => {
            let seeds = other.map_or(1, |r| r.seeds());
            let fresh = Rules::new(n, seeds).or_else(|_| Rules::new(n, 1))?;
            match other {
                Some(r) => fresh
                    .with_max_laps(r.max_laps())
                    .and_then(|f| f.with_max_plies(r.max_plies()))?,
                None => fresh,
            }
        }
    };
    Position::from_parts(
        rules,
        &turn.mine,
        &turn.theirs,
        Side::South,
        turn.captured,
        turn.ply,
    )
    .map_err(TurnPositionError::Position)
}

/// Why a `turn` does not make a position ([`turn_position`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TurnPositionError {
    /// No rules fit the rows (the engine's message).
    #[error(transparent)]
    Rules(#[from] endodoi::RulesError),
    /// The rows and counts do not make a position (the engine's message).
    #[error("{0}")]
    Position(endodoi::ParsePositionError),
}

/// Why [`parse_seed`] refused its arguments.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SeedError {
    /// `--seed` was the last argument.
    #[error("--seed needs a value")]
    MissingValue,
    /// An argument other than `--seed`.
    #[error("unknown argument '{0}'")]
    UnknownArgument(String),
    /// A value that is not a whole number from 0 to 2^64-1.
    #[error("--seed {0}: not a whole number from 0 to 2^64-1")]
    NotANumber(String),
}

/// Asks `strategy` for its move in `turn`, keeping the answer within `legal`.
fn answer_turn<S: Strategy>(
    strategy: &mut S,
    turn: &Turn,
    settings: Option<&NewGame>,
    received: Instant,
) -> Move {
    let rules = settings.map(|s| s.rules);
    let time = TimeLeft {
        received,
        // time_ms=0 is "no limit" without a game clock, and "none left" with one.
        reply_ms: turn.time_ms.filter(|&t| t > 0 || turn.clock_ms.is_some()),
        clock_ms: turn.clock_ms.map(|[mine, _]| mine),
        increment_ms: settings.map_or(0, |s| s.increment_ms),
    };
    let fallback = turn
        .legal
        .first()
        .unwrap_or_else(|| Move::new(1).expect("hole 1 exists"));
    if turn.legal.is_empty() {
        return fallback;
    }
    match turn_position(turn, rules) {
        Ok(pos) => {
            let mv = strategy.choose_timed(&pos, turn.legal, &time);
            if turn.legal.contains(mv) {
                mv
            } else {
                fallback
            }
        }
        Err(_) => fallback,
    }
}

fn send(output: &mut impl Write, reply: &Reply) -> io::Result<()> {
    writeln!(output, "{reply}")?;
    output.flush()
}

/// Runs a bot: reads the arena's requests from `input` and writes the replies
/// to `output`, flushing after every line, until `quit` or the end of input.
///
/// - `hello` → `hello version=1 name=NAME` (the strategy's [`name`](Strategy::name));
/// - `newgame` → [`Strategy::new_game`], then `ready`;
/// - `turn` → [`Strategy::choose_timed`] on the position from
///   [`turn_position`] and the time from the request (timed from the moment
///   the line was read), then [`Strategy::info`] as an `info` line if any,
///   then `move N`. A turn that cannot be turned into a position, or a choice
///   outside `legal`, is answered with the first legal hole (hole 1 if even
///   `legal` is unreadable), so the bot stays in step;
/// - `gameover`, blank lines and unknown commands are ignored.
///
/// A malformed request is reported on `output` as an `info` line (which the
/// arena logs) before the reply.
///
/// # Errors
/// Only I/O errors from `input` or `output`.
pub fn run<S: Strategy>(strategy: S, input: impl BufRead, output: impl Write) -> io::Result<()> {
    serve(strategy, &[], |_| Ok(None), input, output)
}

/// [`run`] for a bot with options: its `hello` reply lists `options`
/// (`options=`), and the `hello` (with its `option.NAME=VALUE` words) goes
/// to `configure` first, which may return the strategy to play with
/// instead. The bundled bots ([`bot_main`]) make theirs again from their
/// command line with the options added.
///
/// ```
/// use endodoi_bots::{run_with_options, Greedy};
/// let input = "hello version=1 option.seed=3\nquit\n";
/// let mut output = Vec::new();
/// run_with_options(Greedy::new(0), &["seed"], |hello| {
///     Ok(hello.option("seed").map(|s| Greedy::new(s.parse().unwrap())))
/// }, input.as_bytes(), &mut output)?;
/// assert_eq!(String::from_utf8(output).unwrap(), "hello version=1 name=greedy options=seed\n");
/// # Ok::<(), std::io::Error>(())
/// ```
///
/// # Errors
/// I/O errors, and `configure`'s error (the options cannot be used) as
/// [`io::ErrorKind::InvalidInput`], before the `hello` reply.
pub fn run_with_options<S: Strategy>(
    strategy: S,
    options: &[&str],
    configure: impl FnMut(&Hello) -> Result<Option<S>, String>,
    input: impl BufRead,
    output: impl Write,
) -> io::Result<()> {
    serve(strategy, options, configure, input, output)
}

fn serve<S: Strategy>(
    mut strategy: S,
    options: &[&str],
    mut configure: impl FnMut(&Hello) -> Result<Option<S>, String>,
    mut input: impl BufRead,
    mut output: impl Write,
) -> io::Result<()> {
    let mut settings: Option<NewGame> = None;
    let mut buf = Vec::new();
    loop {
        buf.clear();
        if input.read_until(b'\n', &mut buf)? == 0 {
            return Ok(());
        }
        let received = Instant::now();
        let line = String::from_utf8_lossy(&buf);
        let reply = match Request::parse(&line) {
            Ok(Request::Hello(hello)) => {
                if let Some(configured) =
                    configure(&hello).map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?
                {
                    strategy = configured;
                }
                let reply = HelloReply::new(strategy.name(), None);
                Reply::Hello(if options.is_empty() {
                    reply
                } else {
                    reply.with_options(options)
                })
            }
            Ok(Request::NewGame(s)) => {
                strategy.new_game(&s);
                settings = Some(s);
                Reply::Ready
            }
            Ok(Request::Turn(turn)) => {
                let mv = answer_turn(&mut strategy, &turn, settings.as_ref(), received);
                if let Some(info) = strategy.info() {
                    send(&mut output, &Reply::Info(info.into()))?;
                }
                Reply::from(mv)
            }
            Ok(Request::Quit) => return Ok(()),
            Ok(Request::GameOver(_) | Request::Empty | Request::Unknown(_)) => continue,
            Err(err) => {
                send(&mut output, &Reply::Info(err.to_string().into()))?;
                match err.command {
                    Command::NewGame => {
                        settings = None;
                        Reply::Ready
                    }
                    Command::Turn => Reply::from(
                        protocol::legal_of_turn(&line)
                            .and_then(|l| l.first())
                            .unwrap_or_else(|| Move::new(1).expect("hole 1 exists")),
                    ),
                    _ => continue,
                }
            }
        };
        send(&mut output, &reply)?;
    }
}

/// Runs the bundled bot `name` (one of [`BOT_NAMES`]) seeded with `seed`,
/// with its default options ([`strategy_by_name`]), on `input` and
/// `output`, until `quit` or end of input. (`arena bot NAME` and the
/// `endodoi-NAME` binaries take options too: [`bot_main`].)
///
/// # Errors
/// [`io::ErrorKind::InvalidInput`] for an unknown name, else I/O errors.
pub fn run_named(name: &str, seed: u64, input: impl BufRead, output: impl Write) -> io::Result<()> {
    let strategy = strategy_by_name(name, seed).ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "no bundled bot called '{name}': use one of {}",
                BOT_NAMES.join(", ")
            ),
        )
    })?;
    run(strategy, input, output)
}

/// Reads a seed alone from `args` (without the program name): `--seed N` or
/// `--seed=N`, default 0. ([`strategy_from_args`] reads every option of the
/// bundled bots.)
///
/// # Errors
/// [`SeedError`] for an unknown option, a missing value, or a seed that is
/// not a whole number.
pub fn parse_seed(args: impl IntoIterator<Item = String>) -> Result<u64, SeedError> {
    let mut seed = 0;
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let value = match arg.strip_prefix("--seed") {
            Some("") => args.next().ok_or(SeedError::MissingValue)?,
            Some(rest) if rest.starts_with('=') => rest[1..].to_string(),
            _ => return Err(SeedError::UnknownArgument(arg)),
        };
        seed = value
            .parse()
            .map_err(|_| SeedError::NotANumber(value.clone()))?;
    }
    Ok(seed)
}

/// The standard streams of a bot process: the protocol's input and output,
/// and the stream for its complaints (a terminal, or the arena's log).
pub struct Stdio<I, O, E> {
    /// The arena's lines.
    pub input: I,
    /// The bot's replies (and `--help`).
    pub output: O,
    /// Errors, for a person.
    pub errors: E,
}

/// The whole `main` of a bundled bot: makes the bot `name` from `args`
/// (without the program name) with [`strategy_from_args`], runs it on
/// `stdio`, and returns the process exit code: 0 after `quit` or end of
/// input (or `--help`), 1 on an I/O error or a bad option in `hello`, 2 on
/// bad arguments or an unknown name. `program` names the command in
/// messages. This is what `arena bot NAME [OPTIONS]` does.
///
/// Its `hello` reply lists the bot's [`option_names`]; the `option.` words
/// of the arena's `hello` set those options as the command line would
/// ([`option_args`]), over the command line's, and the bot is made again.
pub fn bot_main(
    program: &str,
    name: &str,
    args: impl IntoIterator<Item = String>,
    stdio: Stdio<impl BufRead, impl Write, impl Write>,
) -> i32 {
    let Stdio {
        input,
        mut output,
        mut errors,
    } = stdio;
    let args: Vec<String> = args.into_iter().collect();
    // The options of hello, after the command line's, so that they win.
    let configure = |hello: &Hello| {
        if hello.options.is_empty() {
            return Ok(None);
        }
        let mut all = args.clone();
        all.extend(option_args(name, &hello.options));
        strategy_from_args(program, name, all)
            .map(Some)
            .map_err(|e| match e {
                BotArgsError::Options(e) => format!(
                    "bad option in hello ({}): {}",
                    hello
                        .options
                        .iter()
                        .map(|(n, v)| format!("option.{n}={v}"))
                        .collect::<Vec<_>>()
                        .join(" "),
                    e.to_string()
                        .lines()
                        .next()
                        .unwrap_or_default()
                        .trim_start_matches("error: ")
                ),
                e => e.to_string(),
            })
    };
    match strategy_from_args(program, name, args.clone()) {
        Ok(strategy) => match serve(strategy, option_names(name), configure, input, &mut output) {
            Ok(()) => 0,
            Err(e) => {
                let _ = writeln!(errors, "{program}: {e}");
                1
            }
        },
        Err(BotArgsError::Options(e)) => {
            // --help and --version go to the output, mistakes to the errors.
            let text = e.render().to_string();
            let _ = if e.use_stderr() {
                write!(errors, "{text}")
            } else {
                write!(output, "{text}")
            };
            e.exit_code()
        }
        Err(e) => {
            let _ = writeln!(errors, "{program}: {e}");
            2
        }
    }
}

/// [`bot_main`] for the standalone binary `endodoi-NAME`
/// ([`standalone_main`] gives it the process's arguments and stdio).
pub fn main_for(
    name: &str,
    args: impl IntoIterator<Item = String>,
    stdio: Stdio<impl BufRead, impl Write, impl Write>,
) -> i32 {
    bot_main(&format!("endodoi-{name}"), name, args, stdio)
}

/// [`main_for`] bot `name` with this process's arguments (after the
/// program's name) and its stdin, stdout and stderr: the exit code of the
/// standalone binary `endodoi-NAME`, whose whole `main`
/// (`src/bin/endodoi-greedy.rs`) is:
///
/// ```no_run
/// std::process::exit(endodoi_bots::standalone_main("greedy"));
/// ```
#[must_use]
pub fn standalone_main(name: &str) -> i32 {
    let stdio = Stdio {
        input: std::io::stdin().lock(),
        output: std::io::stdout().lock(),
        errors: std::io::stderr(),
    };
    main_for(name, std::env::args().skip(1), stdio)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn seeds() {
        assert_eq!(parse_seed(args("")), Ok(0));
        assert_eq!(parse_seed(args("--seed 7")), Ok(7));
        assert_eq!(parse_seed(args("--seed=8")), Ok(8));
        assert!(parse_seed(args("--seed")).is_err());
        assert!(parse_seed(args("--seed -1")).is_err());
        assert!(parse_seed(args("--seeds 1")).is_err());
        assert!(parse_seed(args("7")).is_err());
    }

    #[test]
    fn names() {
        for name in BOT_NAMES {
            assert_eq!(strategy_by_name(name, 0).unwrap().name(), *name);
        }
        assert!(strategy_by_name("alphazero", 0).is_none());
        let mut errors = Vec::new();
        let stdio = Stdio {
            input: &b""[..],
            output: Vec::new(),
            errors: &mut errors,
        };
        assert_eq!(main_for("alphazero", args(""), stdio), 2);
        {
            // Options of hello win over the command line; unknown ones are
            // ignored; a bad value stops the bot before its reply.
            let run = |input: &str| {
                let (mut output, mut errors) = (Vec::new(), Vec::new());
                let stdio = Stdio {
                    input: input.as_bytes(),
                    output: &mut output,
                    errors: &mut errors,
                };
                let code = main_for("alphabeta", args("--depth 6"), stdio);
                (
                    code,
                    String::from_utf8(output).unwrap(),
                    String::from_utf8(errors).unwrap(),
                )
            };
            let game = "newgame holes=4 seeds=4 side=south move_time_ms=60000 base_time_ms=0 increment_ms=0 max_plies=1000 max_laps=100000\n\
                turn mine=4,4,4,4 theirs=4,4,4,4 captured=0,0 last=none legal=1,2,3,4 ply=0 time_ms=60000\nquit\n";
            let (code, out, _) = run(&format!(
                "hello version=1 option.depth=2 option.style=x\n{game}"
            ));
            assert_eq!(code, 0);
            assert!(
                out.starts_with(
                    "hello version=1 name=alphabeta options=depth,time_ms,seed,noise\n"
                ),
                "{out}"
            );
            assert!(out.contains("info depth 2 score"), "{out}");
            let (_, out, _) = run(&format!("hello version=1\n{game}"));
            assert!(out.contains("info depth 6 score"), "{out}");
            let (code, out, errors) = run("hello version=1 option.depth=deep\n");
            assert_eq!((code, out.as_str()), (1, ""));
            assert!(
                errors.contains(
                    "bad option in hello (option.depth=deep): invalid value 'deep' for '--depth"
                ),
                "{errors}"
            );
        }
        let said = String::from_utf8(errors).unwrap();
        assert!(said.starts_with("endodoi-alphazero: "), "{said}");
        let (mut output, mut errors) = (Vec::new(), Vec::new());
        let stdio = Stdio {
            input: &b"hello 1\nquit\n"[..],
            output: &mut output,
            errors: &mut errors,
        };
        assert_eq!(main_for("greedy", args("--help"), stdio), 0);
        assert!(String::from_utf8_lossy(&output).contains("--seed"));
        assert!(errors.is_empty());
        assert!(matches!(
            strategy_from_args("greedy", "greedy", args("--colour red")),
            Err(BotArgsError::Options(e)) if e.exit_code() == 2
        ));
        assert!(matches!(
            strategy_from_args("mcts", "mcts", args("--rollout smart")),
            Err(BotArgsError::Options(_))
        ));
        // --noise is a probability.
        for bad in ["--noise 1.5", "--noise -0.1", "--noise x"] {
            assert!(
                strategy_from_args("greedy", "greedy", args(bad)).is_err(),
                "{bad}"
            );
        }
        for name in BOT_NAMES {
            let bot = strategy_from_args(name, name, args("--noise 0.25 --seed 2")).unwrap();
            assert_eq!(bot.name(), *name, "noise keeps the name");
        }
        let bot = strategy_from_args("alphabeta", "alphabeta", args("--depth 3 --seed 1")).unwrap();
        assert_eq!(bot.name(), "alphabeta");
    }

    #[test]
    fn think_ms_waits_before_each_move_and_plays_the_same_moves() {
        let turn = |time_ms: u64| {
            format!(
                "hello version=1\n\
                 newgame holes=8 seeds=4 side=south move_time_ms={time_ms} base_time_ms=0 increment_ms=0 max_plies=1000 max_laps=100000 series=1 game=1\n\
                 turn mine=4,4,4,4,4,4,4,4 theirs=4,4,4,4,4,4,4,4 captured=0,0 last=none legal=1,2,3,4,5,6,7,8 ply=0 time_ms={time_ms}\n\
                 turn mine=4,4,4,4,4,4,4,4 theirs=4,4,4,4,4,4,4,4 captured=0,0 last=none legal=1,2,3,4,5,6,7,8 ply=2 time_ms={time_ms}\n\
                 quit\n"
            )
        };
        let play = |name: &str, options: &str, input: &str| {
            let bot = strategy_from_args(name, name, args(options)).unwrap();
            let mut output = Vec::new();
            let start = std::time::Instant::now();
            run(bot, input.as_bytes(), &mut output).unwrap();
            (String::from_utf8(output).unwrap(), start.elapsed())
        };
        for name in ["random", "greedy", "first"] {
            // No limit on the reply (time_ms=0): the whole wait, twice.
            let (instant, _) = play(name, "--seed 5", &turn(0));
            let (slow, took) = play(name, "--seed 5 --think-ms 60", &turn(0));
            assert_eq!(slow, instant, "{name}: the wait changed the moves");
            assert!(
                took >= std::time::Duration::from_millis(120),
                "{name}: {took:?}"
            );
            // A reply limit of 40 ms: at most half of it is waited, never
            // the 5 s asked for (the bot would lose on time).
            let (_, took) = play(name, "--think-ms 5000", &turn(40));
            assert!(
                took < std::time::Duration::from_millis(2000),
                "{name}: {took:?}"
            );
        }
        assert!(strategy_from_args("random", "random", args("--think-ms 60001")).is_err());
        assert!(strategy_from_args("mcts", "mcts", args("--think-ms 10")).is_err());
    }

    #[test]
    fn searching_bots_send_an_info_line_before_their_move() {
        let input = "hello version=1\n\
            newgame holes=3 seeds=1 side=south move_time_ms=1000 base_time_ms=5000 increment_ms=10 max_plies=1000 max_laps=100000 series=1 game=1\n\
            turn mine=1,1,1 theirs=1,1,1 captured=0,0 last=none legal=1,2,3 ply=0 time_ms=1000 clock_ms=5000,5000\n\
            quit\n";
        for (name, options) in [("alphabeta", "--depth 4"), ("mcts", "--playouts 300")] {
            let bot = strategy_from_args(name, name, args(options)).unwrap();
            let mut output = Vec::new();
            run(bot, input.as_bytes(), &mut output).unwrap();
            let out = String::from_utf8(output).unwrap();
            let lines: Vec<&str> = out.lines().collect();
            assert_eq!(lines.len(), 4, "{out}");
            assert_eq!(lines[0], format!("hello version=1 name={name}"));
            assert_eq!(lines[1], "ready");
            assert!(lines[2].starts_with("info "), "{out}");
            // Solved: only hole 1 wins at the start of 2x3 with 1 seed.
            assert_eq!(lines[3], "move 1", "{out}");
        }
    }

    #[test]
    fn no_time_left_on_the_clock_means_hurry() {
        // time_ms=0 with a game clock: no time left, so alphabeta (with no
        // depth limit) starts no iteration after depth 1; without a clock,
        // time_ms=0 would mean no limit.
        let input = "hello version=1\n\
            newgame holes=8 seeds=4 side=south move_time_ms=0 base_time_ms=1000 increment_ms=500 max_plies=1000 max_laps=100000 series=1 game=1\n\
            turn mine=4,4,4,4,4,4,4,4 theirs=4,4,4,4,4,4,4,4 captured=0,0 last=none legal=1,2,3,4,5,6,7,8 ply=0 time_ms=0 clock_ms=0,1000\n\
            quit\n";
        let bot = strategy_from_args("alphabeta", "alphabeta", args("")).unwrap();
        let mut output = Vec::new();
        run(bot, input.as_bytes(), &mut output).unwrap();
        let out = String::from_utf8(output).unwrap();
        let info = out.lines().nth(2).unwrap();
        assert!(info.starts_with("info depth 1 "), "{out}");
    }

    #[test]
    fn turn_position_without_newgame() {
        let turn = Turn {
            mine: endodoi_protocol::Row::new(&[1, 1]).unwrap(),
            theirs: endodoi_protocol::Row::new(&[1, 1]).unwrap(),
            captured: [0, 0],
            last: None,
            legal: endodoi::MoveSet::EMPTY,
            ply: 0,
            time_ms: None,
            clock_ms: None,
        };
        let pos = turn_position(&turn, None).unwrap();
        assert_eq!(pos.holes(), 2);
        assert_eq!(pos.legal_moves().to_string(), "1 2");
        let other = Rules::new(8, 4).unwrap().with_max_plies(5).unwrap();
        let pos = turn_position(&turn, Some(other)).unwrap();
        assert_eq!((pos.holes(), pos.rules().max_plies()), (2, 5));
    }
}
