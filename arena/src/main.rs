//! The `arena` binary: a thin shell over the `arena` library.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::Context as _;
use arena::cli::{Cli, Command, ReplayArgs};
use arena::config::Config;
use arena::output::RunDir;
use arena::report;
use arena::runner::{self, Event};
use clap::error::ErrorKind;
use clap::Parser as _;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e)
            if e.use_stderr()
                && e.kind() != ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand =>
        {
            // One line: clap's message up to its first blank line, and where to look.
            let text = e.to_string();
            let message: Vec<&str> = text
                .lines()
                .take_while(|l| !l.trim().is_empty())
                .map(str::trim)
                .collect();
            eprintln!("{}; see 'arena --help'", message.join(" "));
            return ExitCode::from(2);
        }
        Err(e) => e.exit(), // --help and --version
    };
    let result = match cli.command {
        Command::Run { config, out, quiet } => run(&config, out, quiet),
        Command::Replay(args) => replay(args),
        Command::Bot { name, seed } => endodoi_bots::run_named(&name, seed)
            .map(|()| ExitCode::SUCCESS)
            .with_context(|| {
                format!(
                    "bot '{name}' (bundled bots: {})",
                    endodoi_bots::BOT_NAMES.join(", ")
                )
            }),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            // One line: the cause chain joined, as the user must see it.
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn run(config_path: &Path, out: Option<PathBuf>, quiet: bool) -> anyhow::Result<ExitCode> {
    let config = Arc::new(Config::load(config_path)?);
    for bot in &config.bots {
        arena::bot::resolve_program(bot)
            .map_err(|e| anyhow::anyhow!("{}: {e}", config_path.display()))?;
    }
    let out = out.unwrap_or_else(|| report::default_run_dir(&config.name));
    let dir = RunDir::create(&out)
        .with_context(|| format!("cannot create the run folder {}", out.display()))?;
    std::fs::copy(config_path, dir.path.join("config.toml"))
        .context("cannot copy the config into the run folder")?;
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    let scheduled = report::games_bound(&config);
    let say = |line: String| {
        if !quiet {
            eprintln!("{line}");
        }
    };
    say(format!(
        "arena: {} bots, {} series, at most {} games, {} at once; writing {}",
        config.bots.len(),
        config.bots.len() * (config.bots.len() - 1) / 2,
        scheduled,
        config.tournament.concurrency,
        dir.path.display()
    ));
    let mut done = 0usize;
    let outcome = runtime.block_on(async {
        let work = runner::run(config.clone(), &dir, |event| {
            if let Event::Game(g) = event {
                done += 1;
                if !quiet {
                    eprintln!("{}", report::game_line(done, g));
                }
            }
        });
        tokio::select! {
            r = work => Some(r),
            _ = interrupted() => None,
        }
    });
    // Dropping the runtime kills every bot still running.
    drop(runtime);
    let Some(summary) = outcome else {
        eprintln!(
            "arena: interrupted; the games already played are in {}",
            dir.path.join("games.csv").display()
        );
        return Ok(ExitCode::from(130));
    };
    let summary = summary?;
    let table = report::write_summaries(&config, &dir, &summary)?;
    println!("{table}");
    say(format!("arena: results in {}", dir.path.display()));
    Ok(ExitCode::SUCCESS)
}

fn replay(args: ReplayArgs) -> anyhow::Result<ExitCode> {
    let game = match (&args.games, args.series.zip(args.game)) {
        (Some(path), Some((series, game))) => arena::replay::from_games_csv(path, series, game)?,
        _ => arena::replay::Replay {
            rules: endodoi::Rules::new(args.holes, args.seeds)?
                .with_max_laps(args.max_laps)?
                .with_max_plies(args.max_plies)?,
            moves: arena::replay::parse_moves(&args.moves)?,
            recorded: None,
        },
    };
    let (report, matches) = arena::replay::run(&game)?;
    print!("{report}");
    Ok(if matches {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// Resolves on Ctrl-C or SIGTERM.
async fn interrupted() {
    let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        .expect("SIGTERM handler");
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        _ = term.recv() => {}
    }
}
