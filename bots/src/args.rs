//! The bundled bots' command lines (clap): `--seed` for every bot, and each
//! bot's own options.

use clap::Parser;

use crate::alphabeta::{
    AlphaBeta, AlphaBetaOptions, Evaluation, Leaves, DEFAULT_ROW_WEIGHT, MAX_DEPTH,
};
use crate::mcts::{Mcts, MctsOptions, Rollout, DEFAULT_EXPLORATION};
use std::time::Duration;

use crate::strategy::{First, Greedy, Noisy, Random, Strategy, Thinking};

/// What every bundled bot's `--help` ends with: the options of `hello`.
const OPTIONS_HELP: &str = "Each option may also come from the arena, as option.NAME=VALUE in hello (a config's options = { NAME = VALUE }), NAME with _ for -: it wins over the command line. The hello reply lists them (options=...).";

/// The options of `random`, `greedy` and `first` (which makes no random
/// choices and ignores its seed): the seed, and a think time.
#[derive(Debug, Parser)]
#[command(args_override_self = true, after_help = OPTIONS_HELP)]
#[command(about = "An En Dodoi bot speaking the arena protocol (protocol.md) on stdin/stdout.")]
struct SeedArgs {
    /// The seed of the bot's random choices (each game is seeded from it and
    /// the game's series and number).
    #[arg(long, value_name = "N", default_value_t = 0)]
    seed: u64,
    /// Wait T ms before each move (0 to 60000), to slow a tournament down
    /// enough to watch it live (`arena run --serve`); never more than half
    /// of the time the arena allows the reply.
    #[arg(long, value_name = "T", default_value_t = 0, value_parser = clap::value_parser!(u64).range(0..=60_000))]
    think_ms: u64,
    /// With probability P (0 to 1) play a uniformly random legal move
    /// instead of the bot's own (seeded per game from --seed), to make
    /// bots of a known order of strength: 0 (the default) never, 1 always.
    #[arg(long, value_name = "P", default_value_t = 0.0, value_parser = noise_value)]
    noise: f64,
}

/// `bot`, waiting `think_ms` before each move when that is not 0.
fn thinking<S: Strategy + 'static>(bot: S, think_ms: u64) -> Box<dyn Strategy> {
    if think_ms == 0 {
        Box::new(bot)
    } else {
        Box::new(Thinking::new(bot, Duration::from_millis(think_ms)))
    }
}

/// `--noise`'s value: a probability, a number from 0 to 1.
fn noise_value(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(p) if (0.0..=1.0).contains(&p) => Ok(p),
        _ => Err(format!(
            "'{text}' is not a probability: give a number from 0 to 1, e.g. 0.25"
        )),
    }
}

/// `bot` with noise `noise` ([`Noisy`], its coins seeded from `seed`);
/// `bot` itself at noise 0.
fn noisy(bot: Box<dyn Strategy>, noise: f64, seed: u64) -> Box<dyn Strategy> {
    if noise > 0.0 {
        Box::new(Noisy::new(bot, noise, seed))
    } else {
        bot
    }
}

/// The options of `alphabeta`.
#[derive(Debug, Parser)]
#[command(args_override_self = true, after_help = OPTIONS_HELP)]
#[command(
    about = "Alpha-beta search with iterative deepening and a transposition table, speaking the arena protocol (protocol.md) on stdin/stdout.",
    long_about = "Alpha-beta search with iterative deepening and a transposition table, speaking the arena protocol (protocol.md) on stdin/stdout.\n\nWithout --depth or --time-ms it takes its share of the time the arena allows (per-move limit, game clock and increment), with a safety margin. With --depth it plays reproducibly, unless the arena's time limit stops a search first."
)]
struct AlphaBetaArgs {
    /// The seed of the noise's random moves (`--noise`); alphabeta itself
    /// makes no random choices.
    #[arg(long, value_name = "N", default_value_t = 0)]
    seed: u64,
    /// Search exactly D plies deep (1 to 128) for reproducible play; the
    /// arena's time limit still stops a search.
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_DEPTH)))]
    depth: Option<u32>,
    /// Take at most T ms per move (also within the arena's limits).
    #[arg(long, value_name = "T", value_parser = clap::value_parser!(u64).range(1..=86_400_000))]
    time_ms: Option<u64>,
    /// The evaluation's weight of the row difference, in quarter seeds per
    /// seed (for experiments).
    #[arg(long, value_name = "W", default_value_t = DEFAULT_ROW_WEIGHT, allow_negative_numbers = true, hide = true)]
    row_weight: i32,
    /// With probability P (0 to 1) play a uniformly random legal move
    /// instead of the bot's own (seeded per game from --seed), to make
    /// bots of a known order of strength: 0 (the default) never, 1 always.
    #[arg(long, value_name = "P", default_value_t = 0.0, value_parser = noise_value)]
    noise: f64,
}

/// The options of `mcts`.
#[derive(Debug, Parser)]
#[command(args_override_self = true, after_help = OPTIONS_HELP)]
#[command(
    about = "Monte Carlo tree search (UCT) speaking the arena protocol (protocol.md) on stdin/stdout.",
    long_about = "Monte Carlo tree search (UCT) speaking the arena protocol (protocol.md) on stdin/stdout.\n\nWithout --playouts or --time-ms it takes its share of the time the arena allows. With --playouts it plays reproducibly (seeded per game), unless the arena's time limit stops a search first."
)]
struct MctsArgs {
    /// The seed of the playouts' random choices (each game is seeded from it
    /// and the game's series and number).
    #[arg(long, value_name = "N", default_value_t = 0)]
    seed: u64,
    /// Playouts per move.
    #[arg(long, value_name = "P", value_parser = clap::value_parser!(u32).range(1..))]
    playouts: Option<u32>,
    /// Take at most T ms per move (also within the arena's limits).
    #[arg(long, value_name = "T", value_parser = clap::value_parser!(u64).range(1..=86_400_000))]
    time_ms: Option<u64>,
    /// How a playout plays the game out.
    #[arg(long, value_enum, default_value_t = Rollout::Random)]
    rollout: Rollout,
    /// The UCB1 exploration constant (rewards are in [0, 1]).
    #[arg(long, value_name = "C", default_value_t = DEFAULT_EXPLORATION)]
    exploration: f64,
    /// Cut each rollout short after N plies and score it by the capture
    /// difference (default: play it to the end); its best value lies
    /// inside the range, about 7 to 14 at 300 playouts on 2x8.
    #[arg(long, value_name = "N")]
    rollout_plies: Option<u32>,
    /// With probability P (0 to 1) play a uniformly random legal move
    /// instead of the bot's own (seeded per game from --seed), to make
    /// bots of a known order of strength: 0 (the default) never, 1 always.
    #[arg(long, value_name = "P", default_value_t = 0.0, value_parser = noise_value)]
    noise: f64,
}

/// The options bundled bot `name` takes as `option.NAME=VALUE` in `hello`
/// (its command-line options `--NAME` with `_` for `-`), listed in its
/// `hello` reply (`options=`); empty for an unknown name.
///
/// ```
/// assert_eq!(endodoi_bots::option_names("alphabeta"), ["depth", "time_ms", "seed", "noise"]);
/// ```
#[must_use]
pub fn option_names(name: &str) -> &'static [&'static str] {
    match name {
        "random" | "greedy" | "first" => &["seed", "think_ms", "noise"],
        "alphabeta" => &["depth", "time_ms", "seed", "noise"],
        "mcts" => &[
            "playouts",
            "time_ms",
            "rollout",
            "exploration",
            "rollout_plies",
            "seed",
            "noise",
        ],
        _ => &[],
    }
}

/// The command-line arguments that say what the `option.` words of a
/// `hello` say, for bundled bot `name`: `--depth=4` for `option.depth=4`;
/// options it does not take are left out (protocol.md: a bot ignores
/// keys it does not know). Put after the command line's, they win.
#[must_use]
pub fn option_args(name: &str, options: &[(String, String)]) -> Vec<String> {
    let known = option_names(name);
    options
        .iter()
        .filter(|(n, _)| known.contains(&n.as_str()))
        .map(|(n, v)| format!("--{}={v}", n.replace('_', "-")))
        .collect()
}

/// Why a bot could not be made from a command line.
#[derive(Debug)]
pub enum BotArgsError {
    /// No bundled bot has this name.
    UnknownBot(String),
    /// A bad option, or `--help` (which clap renders as its "error").
    Options(clap::Error),
}

impl std::fmt::Display for BotArgsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BotArgsError::UnknownBot(name) => write!(
                f,
                "no bundled bot called '{name}': use one of {}",
                crate::BOT_NAMES.join(", ")
            ),
            BotArgsError::Options(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for BotArgsError {}

fn parse<T: Parser>(program: &str, args: Vec<String>) -> Result<T, BotArgsError> {
    let mut command = T::command().bin_name(program.to_string());
    let matches = command
        .try_get_matches_from_mut(std::iter::once(program.to_string()).chain(args))
        .map_err(BotArgsError::Options)?;
    T::from_arg_matches(&matches).map_err(BotArgsError::Options)
}

/// The `alphabeta` bot of `args` (its options, as `strategy_from_args`
/// parses them for the name `alphabeta`), its search using `leaves` (exact
/// values, say endgame tables) where they know a position: `arena bot
/// perfect --tablebase DIR` builds its search above the tables with it.
///
/// # Errors
/// [`BotArgsError::Options`] for a bad option, and for `--help`.
pub fn alphabeta_from_args(
    program: &str,
    args: Vec<String>,
    leaves: Option<std::sync::Arc<dyn Leaves>>,
) -> Result<Box<dyn Strategy>, BotArgsError> {
    let a = parse::<AlphaBetaArgs>(program, args)?;
    let options = AlphaBetaOptions {
        depth: a.depth,
        time_ms: a.time_ms,
        eval: Evaluation {
            row_weight: a.row_weight,
        },
    };
    let bot = Box::new(match leaves {
        Some(leaves) => AlphaBeta::with_leaves(options, leaves),
        None => AlphaBeta::new(options),
    });
    Ok(noisy(bot, a.noise, a.seed))
}

/// The bundled bot `name` (one of [`BOT_NAMES`](crate::BOT_NAMES)) with the
/// options in `args` (without the program name); `program` names it in
/// usage and error messages (`arena bot alphabeta`, `endodoi-alphabeta`).
///
/// - every bot: `--seed N` (default 0), `--noise P` (default 0: with
///   probability P a uniformly random legal move instead of its own, see
///   [`Noisy`]);
/// - `random`, `greedy`, `first`: `--think-ms T`, a wait before each move
///   (default 0);
/// - `alphabeta`: `--depth D`, `--time-ms T`;
/// - `mcts`: `--playouts P`, `--time-ms T`, `--rollout random|greedy`,
///   `--exploration C`, `--rollout-plies N`.
///
/// ```
/// let bot = endodoi_bots::strategy_from_args("arena bot mcts", "mcts", ["--playouts", "100"])?;
/// assert_eq!(bot.name(), "mcts");
/// assert!(endodoi_bots::strategy_from_args("x", "random", ["--depth", "3"]).is_err());
/// # Ok::<(), endodoi_bots::BotArgsError>(())
/// ```
///
/// # Errors
/// [`BotArgsError::UnknownBot`] for a name not in `BOT_NAMES`;
/// [`BotArgsError::Options`] for a bad option, and for `--help` (whose
/// "error" is the help text; [`clap::Error::exit_code`] is then 0).
pub fn strategy_from_args<I, S>(
    program: &str,
    name: &str,
    args: I,
) -> Result<Box<dyn Strategy>, BotArgsError>
where
    I: IntoIterator<Item = S>,
    S: Into<String>,
{
    let args: Vec<String> = args.into_iter().map(Into::into).collect();
    Ok(match name {
        "random" | "greedy" | "first" => {
            let a = parse::<SeedArgs>(program, args)?;
            let bot: Box<dyn Strategy> = match name {
                "random" => Box::new(Random::new(a.seed)),
                "greedy" => Box::new(Greedy::new(a.seed)),
                _ => Box::new(First),
            };
            thinking(noisy(bot, a.noise, a.seed), a.think_ms)
        }
        "alphabeta" => alphabeta_from_args(program, args, None)?,
        "mcts" => {
            let a = parse::<MctsArgs>(program, args)?;
            let bot = Box::new(Mcts::new(
                MctsOptions {
                    playouts: a.playouts,
                    time_ms: a.time_ms,
                    rollout: a.rollout,
                    exploration: a.exploration,
                    rollout_plies: a.rollout_plies,
                },
                a.seed,
            ));
            noisy(bot, a.noise, a.seed)
        }
        _ => return Err(BotArgsError::UnknownBot(name.to_string())),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    /// The options a bot lists are its visible command-line flags, `-` as
    /// `_`: the list is written out once for `hello`, so it is checked
    /// against the flags it stands for.
    #[test]
    fn each_bots_options_are_its_visible_flags() {
        let flags = |command: clap::Command| {
            let mut names: Vec<String> = command
                .get_arguments()
                .filter(|a| !a.is_hide_set() && a.get_long().is_some_and(|l| l != "help"))
                .map(|a| a.get_long().unwrap_or_default().replace('-', "_"))
                .collect();
            names.sort();
            names
        };
        for (bot, command) in [
            ("random", SeedArgs::command()),
            ("greedy", SeedArgs::command()),
            ("first", SeedArgs::command()),
            ("alphabeta", AlphaBetaArgs::command()),
            ("mcts", MctsArgs::command()),
        ] {
            let mut listed: Vec<String> = option_names(bot).iter().map(|s| s.to_string()).collect();
            listed.sort();
            assert_eq!(listed, flags(command), "{bot}");
        }
    }

    #[test]
    fn rollout_plies_is_a_count_from_the_command_line_or_hello() {
        let mcts = |args: &[&str]| strategy_from_args("mcts", "mcts", args.iter().copied());
        assert!(mcts(&["--rollout-plies", "0"]).is_ok());
        assert!(mcts(&["--rollout-plies=12"]).is_ok());
        for bad in ["-1", "2.5", "x"] {
            assert!(mcts(&["--rollout-plies", bad]).is_err(), "{bad}");
        }
        // From hello, as the arena sends it (`_` for `-`).
        let words = option_args("mcts", &[("rollout_plies".into(), "9".into())]);
        assert_eq!(words, ["--rollout-plies=9"]);
        assert!(mcts(&["--rollout-plies=9"]).is_ok());
    }
}
