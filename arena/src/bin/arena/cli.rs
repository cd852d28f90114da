//! The command line (clap): the arguments of every subcommand, and their
//! conversion into the library's plain options.

use std::path::{Path, PathBuf};

use clap::{Args, Parser, Subcommand};

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
    /// Run the tournament (round robin, gauntlet, knockout, Swiss or
    /// league) described by a TOML config.
    Run(RunArgs),
    /// Serve the live page of a run folder, read-only, until Ctrl-C: a
    /// finished run, one in progress (its games.csv followed as it grows,
    /// say a Slurm shard's) or a merged one.
    ///
    /// Example: `arena serve results/demo-... --addr 127.0.0.1:8080`, then
    /// open http://127.0.0.1:8080/ (from a laptop: see docs/live.md).
    Serve(ServeArgs),
    /// Merge the run folders of the shards of one tournament into one, with
    /// exactly the files a single run would have written.
    Merge(MergeArgs),
    /// Run a tournament on a Slurm cluster as a job array, one task per
    /// shard, with a dependent job that merges them; a knockout, Swiss or
    /// league as one job array per round, with a job between rounds that
    /// merges the round and submits the next (see `arena slurm status`
    /// and `arena slurm rerun`).
    #[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
    Slurm(SlurmArgs),
    /// Write a commented starter config that lists every key with its
    /// default, and runs as it is (two bundled bots).
    Init(InitArgs),
    /// Internal: supervise one bot process (see the guard module).
    #[command(hide = true)]
    Guard(GuardArgs),
    /// Internal: the first step inside a bot's sandbox (see the sandbox module).
    #[command(hide = true)]
    Confine(ConfineArgs),
    /// Internal: removes this arena's bot cgroups once it is gone (see the
    /// cgroup module's `start_sweeper`).
    #[command(hide = true)]
    Sweeper(SweeperArgs),
    /// Replay one game ply by ply: from a move list, or from a games.csv row.
    ///
    /// Examples: `arena replay --holes 3 --seeds 2 1 2 2 2 1 1`, or
    /// `arena replay --games results/demo-.../games.csv --series 3 --game 2`.
    Replay(ReplayArgs),
    /// Recompute every statistic from one or more games.csv files (from
    /// several runs or machines): standings.csv, pairwise.csv, los.csv,
    /// report.html and standings.svg.
    Rate(RateArgs),
    /// Judge every move of a run's games against endgame tables: per bot,
    /// the moves judged, optimal, mistakes and seeds lost, into
    /// RUN_DIR/analysis.csv; per game, each ply's verdict and where the
    /// tables would have stopped it, into RUN_DIR/analysis-games.csv; and
    /// the run's report.html again, its viewer showing the verdicts
    /// (docs/tablebases.md, "Judging moves").
    ///
    /// Example: `arena analyse results/demo-... --tablebase tb-2x4`.
    Analyse(AnalyseArgs),
    /// Check that a bot speaks the protocol correctly: the handshake, whole
    /// games against the random bot on 2x8 and 2x12, playing North, a single
    /// legal move, an endless move, a small lap limit, its reply times and
    /// quit. Prints one PASS/FAIL line per check; exits 0 if all pass, 1 if
    /// any fails.
    ///
    /// Example: `arena check -- python3 my_bot.py`.
    Check(CheckArgs),
    /// Play a game against a bot in the terminal, or watch two bots play
    /// one ply by ply (--bots).
    ///
    /// Examples: `arena play -- arena bot greedy`,
    /// `arena play --side north --holes 6 -- python3 my_bot.py`,
    /// `arena play --bots --step -- arena bot random -- arena bot greedy`,
    /// `arena play --south "cargo run -q -- --seed 1" --north "arena bot greedy"`.
    Play(PlayArgs),
    /// Measure the arena's overhead per ply against the floor of a pipe
    /// round trip, its throughput, and (--scale) how it scales; see
    /// docs/performance.md.
    Bench(BenchArgs),
    /// Internal: answer every line with `move 1` (the floor of `arena bench`).
    #[command(hide = true)]
    BenchEcho,
    /// Be one of the bundled bots, speaking the protocol on stdin/stdout
    /// (used by configs as `command = ["arena", "bot", "greedy"]`).
    ///
    /// The options after NAME are the bot's: `--seed N` for every bot;
    /// `--depth D`, `--time-ms T` for alphabeta; `--playouts P`,
    /// `--time-ms T`, `--rollout random|greedy`, `--exploration C`, `--rollout-plies N` for mcts;
    /// `--tablebase DIR` and alphabeta's for perfect
    /// (bots/README.md and docs/tablebases.md explain them). `arena bot NAME --help` lists them.
    // No --help of its own: `arena bot mcts --help` goes to the bot, which
    // lists its options; `arena bot --help` is handled in main.
    #[command(disable_help_flag = true)]
    Bot {
        /// The bot: random, greedy, first (the first legal move, at once),
        /// alphabeta, mcts, or perfect (`--tablebase DIR`: the endgame
        /// tables where they know the result, alphabeta elsewhere).
        #[arg(allow_hyphen_values = true)]
        name: String,
        /// The bot's options, such as `--seed 3` or `--depth 6`.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// Solve small boards exactly (up to 200 million arrangements of the
    /// seeds: 2x4 with 4 seeds, 2x5 with 2, 2x7 with 1): the value of
    /// the start for South under perfect play to the end of the game, ply
    /// limit and endless moves included, and the work it took. Prints one
    /// table row per board.
    ///
    /// Example: `arena solve --holes 2,3,4 --seeds 1,2,3,4`.
    Solve(SolveArgs),
    /// Endgame tables: `arena tablebase build --holes H --seeds-on-board K
    /// --out DIR` builds, by retrograde analysis, the exact forced result of
    /// every position of 2xH with up to K seeds on the board, a file per
    /// layer and manifest.toml (docs/tablebases.md).
    ///
    /// Example: `arena tablebase build --holes 4 --seeds-on-board 12 --out tb-2x4`.
    Tablebase(TablebaseArgs),
    /// Tune a bot's options by SPSA, as fishtest does: the config's [tune]
    /// table names the bot and the game pairs, [[tune.param]] each option
    /// (docs/tuning.md). Ends with the tuned values as a [[bot]] options
    /// line; --verify plays them against the start.
    ///
    /// Example: `arena tune configs/tune.toml --verify 400`.
    Tune(TuneArgs),
}

/// The arguments of `arena tune`.
#[derive(Debug, Args)]
pub struct TuneArgs {
    /// The config with its [tune] table (see configs/tune.toml).
    pub config: PathBuf,
    /// The tuning's folder: tune.csv, the iterations' games and logs
    /// [default: results/NAME-tune-TIMESTAMP].
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Go on with the interrupted tuning in DIR, on the same course.
    #[arg(long, value_name = "DIR", conflicts_with = "out")]
    pub resume: Option<PathBuf>,
    /// Then play GAMES games (whole pairs) of the tuned values against the
    /// start values, and say whether the tuning helped.
    #[arg(long, value_name = "GAMES", value_parser = clap::value_parser!(u32).range(2..))]
    pub verify: Option<u32>,
    /// Serve a live page of the tuning while it runs, at http://HOST:PORT/
    /// (printed at start): each parameter's current value and course as
    /// iterations end. ADDR defaults to 127.0.0.1 and a free port, as for
    /// `arena run --serve`; see docs/live.md.
    #[arg(long, value_name = "HOST:PORT", num_args = 0..=1, default_missing_value = "127.0.0.1:0",
          value_parser = serve_addr)]
    pub serve: Option<String>,
}

impl TuneArgs {
    /// The command's options, bots supervised by `guard`.
    pub fn into_options(self, guard: Option<PathBuf>) -> arena::commands::tune::Options {
        arena::commands::tune::Options {
            config: self.config,
            out: self.out,
            resume: self.resume,
            verify: self.verify,
            serve: self.serve,
            guard,
        }
    }
}

/// The arguments of `arena run`.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// The tournament config (see configs/demo.toml).
    pub config: PathBuf,
    /// The run folder for the CSV files and logs
    /// [default: results/NAME-TIMESTAMP, NAME from the config, TIMESTAMP in UTC].
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Print only the final table, not a line per game.
    #[arg(long, short)]
    pub quiet: bool,
    /// Keep every game's protocol transcript in DIR/transcripts/.
    #[arg(long)]
    pub transcripts: bool,
    /// Play only shard K of N (1 <= K <= N): every N-th series of the
    /// schedule, whole; `arena merge` puts the shards together. K may be
    /// `auto`: SLURM_ARRAY_TASK_ID (an array numbered 1-N), or
    /// JOB_COMPLETION_INDEX + 1 (Kubernetes, numbered from 0).
    #[arg(long, value_name = "K/N")]
    pub shard: Option<arena::shard::ShardSpec>,
    /// Go on with the interrupted run in DIR: play exactly the games it
    /// is missing, then write the statistics an uninterrupted run would
    /// have written. The config (and --shard) must be the run's own,
    /// except for [tournament] concurrency and affinity.
    #[arg(long, value_name = "DIR", conflicts_with = "out")]
    pub resume: Option<PathBuf>,
    /// With --out DIR: if DIR already holds this run (an earlier
    /// attempt of a job array task, say), resume it instead of refusing.
    #[arg(long, requires = "out")]
    pub resume_if_exists: bool,
    /// Serve a live page of the run while it plays, at http://HOST:PORT/
    /// (printed at start): progress, standings, cross table, the SPRT
    /// curve, every game in progress, and the game viewer. ADDR defaults
    /// to 127.0.0.1 and a free port; see docs/live.md.
    #[arg(long, value_name = "HOST:PORT", num_args = 0..=1, default_missing_value = "127.0.0.1:0",
          value_parser = serve_addr)]
    pub serve: Option<String>,
}

/// The arguments of `arena serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// The run folder (it holds games.csv).
    pub dir: PathBuf,
    /// The address to serve on [default: 127.0.0.1 and a free port].
    #[arg(long, value_name = "HOST:PORT")]
    pub addr: Option<String>,
}

impl From<ServeArgs> for arena::commands::serve::Options {
    fn from(a: ServeArgs) -> Self {
        Self {
            dir: a.dir,
            addr: a.addr,
        }
    }
}

/// The arguments of `arena merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The shard folders (each holds games.csv and config.toml).
    #[arg(required = true)]
    pub dirs: Vec<PathBuf>,
    /// The merged run folder (new, or without a games.csv).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Merge what there is, even if shards are missing or unfinished
    /// (by default every shard 1..N must be there and finished).
    #[arg(long)]
    pub partial: bool,
}

/// The arguments of `arena init`.
#[derive(Debug, Args)]
pub struct InitArgs {
    /// The file to write; `-` prints the config to standard output.
    #[arg(default_value = "arena.toml")]
    pub path: PathBuf,
    /// Overwrite the file if it exists.
    #[arg(long)]
    pub force: bool,
}

/// The arguments of `arena guard`.
#[derive(Debug, Args)]
pub struct GuardArgs {
    /// The bot's memory limit, MiB (0: none).
    #[arg(long, default_value_t = 0)]
    pub memory_mb: u64,
    /// The bot's CPU-time limit, s (0: none).
    #[arg(long, default_value_t = 0)]
    pub cpu_seconds: u64,
    /// The bot's open-file limit (0: none).
    #[arg(long, default_value_t = 0)]
    pub open_files: u64,
    /// The inherited descriptor that holds the bot's sandbox (see the
    /// sandbox module; not on the command line, which every local user may
    /// read); none: unsandboxed.
    #[arg(long, value_name = "FD")]
    pub sandbox_fd: Option<i32>,
    /// A cgroup folder the bot runs in (one per hierarchy; see the cgroup
    /// module): the guard puts the bot there and stays outside.
    #[arg(long)]
    pub cgroup: Vec<PathBuf>,
    /// Where the guard goes back to once the bot has started, one for
    /// each `--cgroup`, in order.
    #[arg(long)]
    pub cgroup_home: Vec<PathBuf>,
    /// The bot's program and arguments.
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, required = true)]
    pub command: Vec<std::ffi::OsString>,
}

/// The arguments of `arena confine`.
#[derive(Debug, Args)]
pub struct ConfineArgs {
    /// Processes and threads the bot may have at once (RLIMIT_NPROC).
    #[arg(long)]
    pub processes: u64,
    /// The program is this executable (a bundled bot).
    #[arg(long)]
    pub arena: bool,
    /// The bot's program and arguments; none: check the sandbox and exit.
    #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
    pub command: Vec<std::ffi::OsString>,
}

/// The arguments of `arena sweeper`.
#[derive(Debug, Args)]
pub struct SweeperArgs {
    /// The arena whose folders go: `<ns>-<pid>-<start>`.
    #[arg(long)]
    pub owner: String,
    /// A folder holding the arena's bot folders (one per hierarchy).
    #[arg(long)]
    pub place: Vec<PathBuf>,
}

/// The arguments of `arena solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// Holes per row (a comma-separated list solves each).
    #[arg(long, value_delimiter = ',', required = true,
          value_parser = clap::value_parser!(u8).range(2..=50))]
    pub holes: Vec<u8>,
    /// Seeds per hole at the start (a comma-separated list solves each).
    #[arg(long, value_delimiter = ',', required = true,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub seeds: Vec<u32>,
    /// The ply limit (RULES.md: each player then takes their own row).
    #[arg(long, default_value_t = endodoi::DEFAULT_MAX_PLIES,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub max_plies: u32,
    /// The lap limit that makes a sowing endless.
    #[arg(long, default_value_t = endodoi::DEFAULT_MAX_LAPS,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub max_laps: u32,
}

/// The arguments of `arena tablebase`.
#[derive(Debug, Args)]
pub struct TablebaseArgs {
    /// What to do with the tables.
    #[command(subcommand)]
    pub command: TablebaseCommand,
}

/// The subcommands of `arena tablebase`.
#[derive(Debug, Subcommand)]
pub enum TablebaseCommand {
    /// Build the tables of one board: layers 0 to K seeds on the board,
    /// each a checksummed file, and manifest.toml with the counts.
    Build {
        /// Holes per row.
        #[arg(long, value_parser = clap::value_parser!(u8).range(2..=50))]
        holes: u8,
        /// The most seeds on the board (layers 0 to K are built; at most 126).
        #[arg(long, value_name = "K", value_parser = clap::value_parser!(u32).range(0..=126))]
        seeds_on_board: u32,
        /// The lap limit that makes a sowing endless (the tables are for it).
        #[arg(long, default_value_t = endodoi::DEFAULT_MAX_LAPS,
              value_parser = clap::value_parser!(u32).range(1..))]
        max_laps: u32,
        /// The folder to write (created if missing; its layer files are overwritten).
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
    },
}

impl From<TablebaseArgs> for arena::commands::tablebase::Options {
    fn from(a: TablebaseArgs) -> Self {
        let TablebaseCommand::Build {
            holes,
            seeds_on_board,
            max_laps,
            out,
        } = a.command;
        Self {
            holes: usize::from(holes),
            seeds_on_board,
            max_laps,
            out,
        }
    }
}

/// The arguments of `arena bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Write every figure to FILE as CSV (columns: section, figure, value,
    /// unit, x_floor, note).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// A run of a few seconds for CI: every measurement with small counts
    /// (with --scale, the smallest tournament only). Its figures are noisy;
    /// nothing about time is asserted either way.
    #[arg(long, alias = "quick")]
    pub smoke: bool,
    /// Also play the scaling tournaments: N instant bots for each N of
    /// --scale-bots, first to 3, at concurrency = cores.
    #[arg(long)]
    pub scale: bool,
    /// The bot counts of --scale.
    #[arg(long, value_name = "N,...", value_delimiter = ',', default_values_t = [4, 8, 16, 32])]
    pub scale_bots: Vec<usize>,
    /// Games between the two instant bots, per arena measurement.
    #[arg(long, value_name = "N", default_value_t = 300)]
    pub games: u32,
    /// Line round trips per floor measurement.
    #[arg(long, value_name = "N", default_value_t = 20_000)]
    pub round_trips: u32,
    /// Run only these sections (comma separated: floor, arena, fairness,
    /// rules, throughput, scale, league), e.g. to profile one of them; the
    /// floor always runs, as the figures' yardstick. `scale` here implies
    /// --scale; `league` (simulated leagues) runs only when named.
    #[arg(long, value_name = "SECTION,...", value_delimiter = ',')]
    pub only: Vec<String>,
    /// Internal: play the tournament of this config in this process and
    /// print its figures on one line (how --scale and the throughput runs
    /// measure a tournament's own peak RSS).
    #[arg(long, hide = true, value_name = "CONFIG", requires = "tournament_dir")]
    pub tournament: Option<PathBuf>,
    /// Internal: the run folder of --tournament.
    #[arg(long, hide = true, value_name = "DIR")]
    pub tournament_dir: Option<PathBuf>,
}

/// The value of `--serve`, taken as it is (the run checks the address)
/// unless it names a config: a path that ends in `.toml` or is a file, as
/// in `arena run --serve cfg.toml`, where a bare `--serve` took the config
/// for its address. That is refused with the two ways to write it.
fn serve_addr(text: &str) -> Result<String, String> {
    if text.ends_with(".toml") || Path::new(text).is_file() {
        return Err(
            "that is a config, not an address HOST:PORT; put the config before a bare --serve (`arena run CONFIG --serve`) or write the address as --serve=HOST:PORT"
                .to_string(),
        );
    }
    Ok(text.to_string())
}

/// `NAME=VALUE` of `arena check --option`, checked as a config's `options`.
fn parse_option(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((name, value)) if arena::config::valid_option(name, value) => {
            Ok((name.to_string(), value.to_string()))
        }
        _ => Err(format!(
            "write NAME=VALUE, a name of 1 to 64 of A-Z a-z 0-9 . _ - and a value of printable ASCII without spaces (at most {} bytes with option.)",
            arena::config::MAX_OPTION_BYTES
        )),
    }
}

/// The arguments of `arena check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The per-move limit told to the bot, ms (1 to 86400000, as in a
    /// config); a reply over it fails the reply-time check.
    #[arg(long, value_name = "MS", default_value_t = arena::check::DEFAULT_MOVE_TIME_MS,
          value_parser = clap::value_parser!(u64).range(1..=86_400_000))]
    pub move_time_ms: u64,
    /// The limit for the bot's answers to hello and newgame, ms (1 to
    /// 600000, as in a config).
    #[arg(long, value_name = "MS", default_value_t = arena::config::DEFAULT_STARTUP_MS,
          value_parser = clap::value_parser!(u64).range(1..=600_000))]
    pub startup_ms: u64,
    /// Write the bot's stderr and info lines to FILE (replaced); by default
    /// they are dropped.
    #[arg(long, value_name = "FILE")]
    pub log: Option<PathBuf>,
    /// Run the bot in the sandbox, as `sandbox = true` with the default
    /// settings does, its dir the current directory (read-only): see
    /// docs/sandbox.md.
    #[arg(long)]
    pub sandbox: bool,
    /// With --sandbox: a path the bot may also read, as `sandbox_ro` in a
    /// config (relative to the current directory); repeatable.
    #[arg(long, value_name = "PATH", requires = "sandbox")]
    pub sandbox_ro: Vec<PathBuf>,
    /// With --sandbox: a path the bot may write, as `sandbox_rw` (`.` for
    /// the current directory); repeatable.
    #[arg(long, value_name = "PATH", requires = "sandbox")]
    pub sandbox_rw: Vec<PathBuf>,
    /// Send `option.NAME=VALUE` in hello, as a config's `options` does
    /// (docs/bots.md); repeatable. The check shows the options the bot
    /// lists and warns about one it does not.
    #[arg(long = "option", value_name = "NAME=VALUE", value_parser = parse_option)]
    pub options: Vec<(String, String)>,
    /// The bot's program and arguments, run without a shell, best after
    /// `--`; a first word `arena` means this executable (`arena bot greedy`).
    #[arg(
        value_name = "BOT_COMMAND",
        required = true,
        trailing_var_arg = true,
        allow_hyphen_values = true
    )]
    pub command: Vec<String>,
}

/// The arguments of `arena play`.
#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("two_bots").multiple(true)))]
pub struct PlayArgs {
    /// Holes per row (2 to 50).
    #[arg(long, default_value_t = arena::config::DEFAULT_HOLES)]
    pub holes: usize,
    /// Seeds per hole at the start.
    #[arg(long, default_value_t = arena::config::DEFAULT_SEEDS)]
    pub seeds: u32,
    /// Your side; South moves first.
    #[arg(long, value_enum, default_value_t = SideArg::South, conflicts_with = "two_bots")]
    pub side: SideArg,
    /// The per-move limit told to the bot, ms (1 to 86400000); a bot that
    /// takes longer (plus a 50 ms margin) loses, as in a tournament.
    #[arg(long, value_name = "MS", default_value_t = arena::config::DEFAULT_MOVE_TIME_MS,
          value_parser = clap::value_parser!(u64).range(1..=86_400_000))]
    pub move_time_ms: u64,
    /// The lap limit: a move still sowing at this lap is endless, and not
    /// allowed.
    #[arg(long, default_value_t = endodoi::DEFAULT_MAX_LAPS)]
    pub max_laps: u32,
    /// The ply limit: then each side takes the seeds in its own row.
    #[arg(long, default_value_t = endodoi::DEFAULT_MAX_PLIES)]
    pub max_plies: u32,
    /// Plies to play before the game is handed over, South first, as hole
    /// numbers in one word: --opening "4 3 2".
    #[arg(long, value_name = "MOVES")]
    pub opening: Option<String>,
    /// Show each move lap by lap from the start (`laps` toggles it).
    #[arg(long)]
    pub laps: bool,
    /// Two bots play each other: `--bots -- SOUTH_COMMAND... -- NORTH_COMMAND...`
    /// (split at the first `--` after the first word; use --south and
    /// --north for a command that has a `--` of its own).
    #[arg(long, group = "two_bots")]
    pub bots: bool,
    /// South's bot, as one quoted string split as a shell splits words:
    /// `--south "cargo run --release -- --seed 1"`. With --north, two bots
    /// play each other (no --bots or command after `--` needed).
    #[arg(
        long,
        value_name = "COMMAND",
        requires = "north",
        group = "two_bots",
        allow_hyphen_values = true
    )]
    pub south: Option<String>,
    /// North's bot, as one quoted string (see --south).
    #[arg(
        long,
        value_name = "COMMAND",
        requires = "south",
        group = "two_bots",
        allow_hyphen_values = true
    )]
    pub north: Option<String>,
    /// With two bots (--bots, or --south and --north): wait for Enter before each ply.
    #[arg(long, requires = "two_bots")]
    pub step: bool,
    /// Write the bots' stderr and info lines to FILE (replaced); by default
    /// they are dropped.
    #[arg(long, value_name = "FILE")]
    pub log: Option<PathBuf>,
    /// The bot's program and arguments, run without a shell, after `--`; a
    /// first word `arena` means this executable (`arena bot greedy`). With
    /// --bots, South's command, `--`, and North's.
    #[arg(
        value_name = "BOT_COMMAND",
        required_unless_present = "south",
        trailing_var_arg = true,
        allow_hyphen_values = true
    )]
    pub command: Vec<String>,
}

impl From<PlayArgs> for arena::play::PlaySettings {
    /// The settings of `arena play`, as given; [`arena::play::PlayOptions::new`] checks them.
    fn from(args: PlayArgs) -> Self {
        arena::play::PlaySettings {
            holes: args.holes,
            seeds: args.seeds,
            max_laps: args.max_laps,
            max_plies: args.max_plies,
            opening: args.opening,
            side: args.side.into(),
            bots: args.bots,
            step: args.step,
            command: args.command,
            south_north: [args.south, args.north],
            // The terminal's columns; 80 when standard output is not a terminal.
            width: console::Term::stdout()
                .size_checked()
                .map_or(80, |(_, columns)| usize::from(columns)),
            move_time_ms: args.move_time_ms,
            laps: args.laps,
            log: args.log,
            // Colour on a terminal, without NO_COLOR or TERM=dumb (anstream's rules).
            colour: anstream::AutoStream::choice(&std::io::stdout())
                != anstream::ColorChoice::Never,
            // A terminal echoes what is typed; a pipe does not.
            echo: !std::io::IsTerminal::is_terminal(&std::io::stdin()),
            guard: std::env::current_exe().ok(),
        }
    }
}

/// A side on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SideArg {
    /// South, who moves first.
    South,
    /// North.
    North,
}

impl From<SideArg> for endodoi::Side {
    fn from(side: SideArg) -> endodoi::Side {
        match side {
            SideArg::South => endodoi::Side::South,
            SideArg::North => endodoi::Side::North,
        }
    }
}

/// The arguments of `arena slurm`: submit, or one of its subcommands.
#[derive(Debug, Args)]
pub struct SlurmArgs {
    /// `status` or `rerun` of a submitted tournament.
    #[command(subcommand)]
    pub command: Option<SlurmCommand>,
    /// The tournament config.
    #[arg(required = true)]
    pub config: Option<PathBuf>,
    /// The number of shards (array tasks); at most the number of series,
    /// or of game pairs for a two-bot match. A knockout, Swiss or league
    /// with N above 1 runs round by round, each round in up to N shards.
    #[arg(long, required = true, value_name = "N")]
    pub shards: Option<usize>,
    /// The tournament folder: DIR/shard-K per task (DIR/round-R/shard-K
    /// round by round), DIR/merged for the result, DIR/slurm for the
    /// scripts, job ids and logs
    /// [default: results/NAME-TIMESTAMP]. It must be on a file system the
    /// compute nodes share.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// The jobs' Slurm options.
    #[command(flatten)]
    pub job: SlurmJobArgs,
    /// Print the scripts and the sbatch commands; write and submit nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Do not start each bot here once before submitting (for bots that
    /// run only on the compute nodes).
    #[arg(long)]
    pub no_check: bool,
}

/// The Slurm options of a tournament's jobs: `arena slurm` writes them into
/// its scripts; `arena slurm rerun` passes them to sbatch, over the scripts'.
#[derive(Clone, Debug, Default, Args)]
pub struct SlurmJobArgs {
    /// The partition (sbatch --partition) [default: the cluster's].
    #[arg(long, value_name = "P")]
    pub partition: Option<String>,
    /// The time limit of each job (sbatch --time, for the tasks and the
    /// merge), e.g. 2:00:00 [default: the partition's].
    #[arg(long, value_name = "T")]
    pub time: Option<String>,
    /// CPUs per task (sbatch --cpus-per-task) [default: the config's
    /// [tournament] concurrency if it sets one, else 1]. A task plays that
    /// many series at once (games, in a two-bot match).
    #[arg(long, value_name = "C", value_parser = clap::value_parser!(u32).range(1..=4096))]
    pub cpus: Option<u32>,
    /// At most K tasks of the array run at once (sbatch --array=...%K).
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u32).range(1..))]
    pub max_running: Option<u32>,
    /// One more sbatch option for both jobs, e.g. --sbatch=--account=games
    /// (repeatable; not --array or --dependency, which arena slurm sets).
    #[arg(long = "sbatch", value_name = "OPTION", allow_hyphen_values = true)]
    pub sbatch: Vec<String>,
}

/// The subcommands of `arena slurm`.
#[derive(Debug, Subcommand)]
pub enum SlurmCommand {
    /// Show each shard's progress (from its files) and Slurm state (from
    /// sacct, or scontrol and squeue without accounting).
    Status {
        /// The tournament folder `arena slurm` wrote.
        dir: PathBuf,
        /// Wait until no job of the tournament is pending or running; exit
        /// 0 if the merge finished, 1 if not.
        #[arg(long)]
        wait: bool,
    },
    /// Submit again the shards that did not finish (failed, cancelled,
    /// timed out), each resuming its folder, and a new merge after them
    /// (round by round: the current round's, and the job after it).
    Rerun {
        /// The tournament folder `arena slurm` wrote.
        dir: PathBuf,
        /// Options that override the scripts' own for these jobs (a longer
        /// --time after a TIMEOUT, say).
        #[command(flatten)]
        job: SlurmJobArgs,
        /// Print the sbatch commands; submit nothing.
        #[arg(long)]
        dry_run: bool,
    },
    /// A task of a round's job array (a knockout, Swiss or league run
    /// round by round): play shard K of round R. `round.sbatch` runs it.
    #[command(hide = true)]
    Play {
        /// The tournament folder `arena slurm` wrote.
        dir: PathBuf,
        /// The round, from 1.
        #[arg(long, value_name = "R")]
        round: usize,
        /// The shard, from 1 [default: SLURM_ARRAY_TASK_ID].
        #[arg(long, value_name = "K")]
        shard: Option<usize>,
    },
    /// The job between rounds: merge round R and submit the next.
    /// `next.sbatch` runs it.
    #[command(hide = true)]
    Next {
        /// The tournament folder `arena slurm` wrote.
        dir: PathBuf,
        /// The round just played, from 1.
        #[arg(long, value_name = "R")]
        round: usize,
    },
}

/// The arguments of `arena replay`.
#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// The moves, own-perspective hole numbers, South first (one word or several).
    pub moves: Vec<String>,
    /// Holes per row, for a move list.
    #[arg(long, default_value_t = 8)]
    pub holes: usize,
    /// Seeds per hole at the start, for a move list.
    #[arg(long, default_value_t = 4)]
    pub seeds: u32,
    /// The lap limit for endless sowing, for a move list.
    #[arg(long, default_value_t = endodoi::DEFAULT_MAX_LAPS)]
    pub max_laps: u32,
    /// The ply limit, for a move list.
    #[arg(long, default_value_t = endodoi::DEFAULT_MAX_PLIES)]
    pub max_plies: u32,
    /// A games.csv to take the game from (with --series and --game).
    #[arg(long, value_name = "FILE", requires_all = ["series", "game"], conflicts_with = "moves")]
    pub games: Option<PathBuf>,
    /// The series number of the game in --games.
    #[arg(long)]
    pub series: Option<usize>,
    /// The game number, within its series, in --games.
    #[arg(long)]
    pub game: Option<u32>,
    /// The endgame tables that check a game adjudicated `tablebase`
    /// [default: the `[board] tablebase` of the run's config.toml beside --games].
    #[arg(long, value_name = "DIR", requires = "games")]
    pub tablebase: Option<PathBuf>,
}

/// The arguments of `arena rate`.
#[derive(Debug, Args)]
pub struct RateArgs {
    /// The games.csv files to rate together.
    #[arg(required = true)]
    pub games: Vec<PathBuf>,
    /// Where to write the CSV files [default: the folder of the games.csv,
    /// when there is one file; needed with several].
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// The bot whose rating is fixed [default: the run's config's
    /// [ratings] anchor, if the files come from one run; else mean 0].
    #[arg(long, value_name = "BOT")]
    pub anchor: Option<String>,
    /// The anchor's rating, Elo points, from -10000 to 10000 [default: the
    /// config's, or 0].
    #[arg(long, requires = "anchor", value_parser = arena::config::anchor_elo)]
    pub anchor_elo: Option<f64>,
    /// Virtual draws added to every pair that played (the prior)
    /// [default: the config's [ratings] prior_draws, or 1].
    #[arg(long)]
    pub prior_draws: Option<f64>,
    /// Bootstrap replicates for the intervals and LOS [default: the
    /// config's [ratings] bootstrap, or 1000].
    #[arg(long)]
    pub bootstrap: Option<u32>,
    /// The seed of the bootstrap [default: the config's [tournament] seed,
    /// or 1].
    #[arg(long)]
    pub seed: Option<u64>,
    /// Pool games of different rules (board, seeds, lap or ply limit),
    /// which are refused without it.
    #[arg(long)]
    pub mixed_rules: bool,
    /// The endgame tables that check rows adjudicated `tablebase`
    /// [default: the run's config's [board] tablebase].
    #[arg(long, value_name = "DIR")]
    pub tablebase: Option<PathBuf>,
}

/// The arguments of `arena analyse`.
#[derive(Debug, Args)]
pub struct AnalyseArgs {
    /// The run folder (holding games.csv).
    pub run: PathBuf,
    /// The endgame tables, a folder of `arena tablebase build` [default:
    /// the run's config's [board] tablebase].
    #[arg(long, value_name = "DIR")]
    pub tablebase: Option<PathBuf>,
    /// The CSV file to write [default: RUN_DIR/analysis.csv];
    /// analysis-games.csv goes beside it, and the report is then not
    /// written again.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

impl From<AnalyseArgs> for arena::commands::analyse::Options {
    fn from(a: AnalyseArgs) -> Self {
        Self {
            run: a.run,
            tablebase: a.tablebase,
            out: a.out,
        }
    }
}

/// `arena bot --help`: the long help of the `bot` subcommand (the bot's
/// own `--help` goes to the bot).
#[must_use]
pub fn bot_help() -> String {
    let mut cmd = <Cli as clap::CommandFactory>::command();
    cmd.build();
    cmd.find_subcommand_mut("bot")
        .map(|bot| bot.render_long_help().to_string())
        .unwrap_or_default()
}

impl RunArgs {
    /// The command's options, with the shard and the view the binary chose.
    #[must_use]
    pub fn into_options(
        self,
        shard: Option<arena::shard::Shard>,
        view: arena::commands::run::View,
        guard: Option<PathBuf>,
    ) -> arena::commands::run::Options {
        arena::commands::run::Options {
            config: self.config,
            out: self.out,
            view,
            transcripts: self.transcripts,
            shard,
            resume: self.resume,
            resume_if_exists: self.resume_if_exists,
            guard,
            serve: self.serve,
        }
    }
}

impl From<MergeArgs> for arena::commands::merge::Options {
    fn from(a: MergeArgs) -> Self {
        Self {
            dirs: a.dirs,
            out: a.out,
            partial: a.partial,
        }
    }
}

impl From<InitArgs> for arena::commands::init::Options {
    fn from(a: InitArgs) -> Self {
        Self {
            path: a.path,
            force: a.force,
        }
    }
}

impl From<ReplayArgs> for arena::commands::replay::Source {
    fn from(a: ReplayArgs) -> Self {
        match (a.games, a.series.zip(a.game)) {
            (Some(games), Some((series, game))) => Self::Recorded {
                games,
                series,
                game,
                tablebase: a.tablebase,
            },
            _ => Self::Moves {
                holes: a.holes,
                seeds: a.seeds,
                max_laps: a.max_laps,
                max_plies: a.max_plies,
                moves: a.moves,
            },
        }
    }
}

impl From<RateArgs> for arena::commands::rate::Options {
    fn from(a: RateArgs) -> Self {
        Self {
            games: a.games,
            out: a.out,
            anchor: a.anchor,
            anchor_elo: a.anchor_elo,
            prior_draws: a.prior_draws,
            bootstrap: a.bootstrap,
            seed: a.seed,
            mixed_rules: a.mixed_rules,
            tablebase: a.tablebase,
        }
    }
}

impl CheckArgs {
    /// The checker's options; `guard` is this executable.
    #[must_use]
    pub fn into_options(self, guard: Option<PathBuf>) -> arena::check::CheckOptions {
        arena::check::CheckOptions {
            command: self.command,
            move_time_ms: self.move_time_ms,
            startup_ms: self.startup_ms,
            guard,
            log: self.log,
            options: self.options,
            sandbox: self.sandbox.then(|| arena::config::SandboxSpec {
                read_only: self.sandbox_ro,
                writable: self.sandbox_rw,
                ..arena::config::SandboxSpec::default()
            }),
        }
    }
}

impl GuardArgs {
    /// The bot's command, limits, sandbox and cgroups; `None` (after
    /// saying why on stderr, the bot's log) when the sandbox cannot be read.
    #[must_use]
    pub fn into_parts(
        self,
    ) -> Option<(
        Vec<std::ffi::OsString>,
        arena::config::Limits,
        Option<arena::sandbox::Sandbox>,
        arena::guard::Cgroups,
    )> {
        let cgroups = arena::guard::Cgroups {
            dirs: self.cgroup,
            homes: self.cgroup_home,
        };
        let limits = arena::config::Limits {
            memory_mb: self.memory_mb,
            cpu_seconds: self.cpu_seconds,
            open_files: self.open_files,
            cgroups: arena::config::CgroupMode::Off,
        };
        let sandbox = self.sandbox_fd.map(arena::sandbox::Sandbox::receive);
        match sandbox.transpose() {
            Ok(sandbox) => Some((self.command, limits, sandbox, cgroups)),
            Err(e) => {
                eprintln!("guard: cannot read the sandbox from --sandbox-fd: {e}");
                None
            }
        }
    }
}

impl From<SlurmJobArgs> for arena::commands::slurm::JobOptions {
    fn from(a: SlurmJobArgs) -> Self {
        Self {
            partition: a.partition,
            time: a.time,
            cpus: a.cpus,
            max_running: a.max_running,
            sbatch: a.sbatch,
        }
    }
}

impl From<SlurmArgs> for arena::commands::slurm::Options {
    fn from(a: SlurmArgs) -> Self {
        use arena::commands::slurm::{Options, Submit};
        match a.command {
            Some(SlurmCommand::Status { dir, wait }) => Options::Status { dir, wait },
            Some(SlurmCommand::Rerun { dir, job, dry_run }) => Options::Rerun {
                dir,
                job: job.into(),
                dry_run,
            },
            Some(SlurmCommand::Play { dir, round, shard }) => Options::Play { dir, round, shard },
            Some(SlurmCommand::Next { dir, round }) => Options::Next { dir, round },
            // clap requires both without a subcommand.
            None => Options::Submit(Submit {
                config: a.config.unwrap_or_default(),
                shards: a.shards.unwrap_or_default(),
                out: a.out,
                job: a.job.into(),
                dry_run: a.dry_run,
                no_check: a.no_check,
            }),
        }
    }
}

impl From<BenchArgs> for arena::commands::bench::Options {
    fn from(a: BenchArgs) -> Self {
        Self {
            out: a.out,
            smoke: a.smoke,
            scale: a.scale,
            scale_bots: a.scale_bots,
            games: a.games,
            round_trips: a.round_trips,
            only: a.only,
            tournament: a.tournament,
            tournament_dir: a.tournament_dir,
        }
    }
}

/// The cause chain on one line, joined by `: `. The arena's own errors
/// either say their cause in their message (`cannot read config F: ENOENT;
/// check the path`) or expose it as `source()`, never both; a cause the
/// line already holds is skipped for other crates' errors that do both
/// (csv's I/O errors).
pub fn one_line(e: &anyhow::Error) -> String {
    let mut line = String::new();
    for cause in e.chain().map(ToString::to_string) {
        if !line.contains(&cause) {
            if !line.is_empty() {
                line.push_str(": ");
            }
            line.push_str(&cause);
        }
    }
    line
}

/// A bad command line as one line: clap's message up to its first blank
/// line, and the help to read (the subcommand's, when one was named).
pub fn usage_error(e: &clap::Error) -> String {
    let text = e.to_string();
    let message: Vec<&str> = text
        .lines()
        .take_while(|l| !l.trim().is_empty())
        .map(str::trim)
        .collect();
    let command = <Cli as clap::CommandFactory>::command();
    let help = match std::env::args().nth(1) {
        Some(sub) if command.find_subcommand(&sub).is_some() => format!("arena {sub} --help"),
        _ => "arena --help".to_string(),
    };
    format!("{}; see '{help}'", message.join(" "))
}
