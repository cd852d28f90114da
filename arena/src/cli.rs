//! The command line (clap).

use std::path::PathBuf;

use clap::{Parser, Subcommand};

/// En Dodoi Arena: round-robin tournaments of external bots, refereed,
/// rated and written to CSV.
#[derive(Debug, Parser)]
#[command(name = "arena", version, about, long_about = None)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the round-robin tournament described by a TOML config.
    Run {
        /// The tournament config (see configs/demo.toml).
        config: PathBuf,
        /// The run folder for the CSV files and logs
        /// [default: results/<config name>-<UTC timestamp>].
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
        /// Print only the final table, not a line per game.
        #[arg(long, short)]
        quiet: bool,
    },
    /// Be one of the bundled bots, speaking the protocol on stdin/stdout
    /// (used by configs as `command = ["arena", "bot", "greedy"]`).
    Bot {
        /// The bot: random or greedy.
        name: String,
        /// The seed of the bot's random choices.
        #[arg(long, default_value_t = 0)]
        seed: u64,
    },
}
