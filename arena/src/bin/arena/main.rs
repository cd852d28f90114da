//! The `arena` binary: the command line (clap) over the `arena` library's
//! commands, the exit codes, and the signal handler.

use std::process::ExitCode;

mod cli;
mod signals;

use arena::commands::{self, run::View, Console, Outcome};
use arena::shard::ShardSpec;
use clap::error::ErrorKind;
use clap::Parser as _;
use cli::{Cli, Command};

/// Exit codes: the command did what was asked.
const SUCCESS: u8 = 0;
/// It ran and reports a failure (a check failed, a replay differs).
const FAILED: u8 = 1;
/// It could not run: bad arguments, a bad config, an error.
const ERROR: u8 = 2;
/// The user interrupted it (128 + SIGINT).
const INTERRUPTED: u8 = 130;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e)
            if e.use_stderr()
                && e.kind() != ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand =>
        {
            eprintln!("{}", cli::usage_error(&e));
            return ExitCode::from(ERROR);
        }
        Err(e) => e.exit(), // --help and --version
    };
    let mut console = Console::new(std::io::stdout(), std::io::stderr());
    // The handlers are in place before the command shows any sign of life.
    match &cli.command {
        Command::Run(_) | Command::Serve(_) | Command::Tune(_) => signals::listen(false),
        Command::Play(_) => signals::listen(true),
        _ => {}
    }
    let outcome = match cli.command {
        Command::Run(args) => ShardSpec::resolve(args.shard.as_ref(), |k| std::env::var(k).ok())
            .map_err(anyhow::Error::from)
            .and_then(|shard| {
                let view = if args.quiet {
                    View::Quiet
                } else if std::io::IsTerminal::is_terminal(&std::io::stderr()) {
                    View::Live
                } else {
                    View::Lines
                };
                let options = args.into_options(shard, view, std::env::current_exe().ok());
                commands::run::run(&options, &mut console, || signals::stopped(false))
            }),
        Command::Serve(args) => {
            commands::serve::run(&args.into(), &mut console, || signals::stopped(false))
        }
        Command::Merge(args) => commands::merge::run(&args.into(), &mut console),
        Command::Init(args) => commands::init::run(&args.into(), &mut console),
        Command::Replay(args) => commands::replay::run(&args.into(), &mut console),
        Command::Rate(args) => commands::rate::run(&args.into(), &mut console),
        Command::Analyse(args) => commands::analyse::run(&args.into(), &mut console),
        Command::Check(args) => {
            let options = args.into_options(std::env::current_exe().ok());
            commands::check::run(&options, &mut console)
        }
        Command::Play(args) => arena::play::PlayOptions::new(args.into())
            .map_err(anyhow::Error::new)
            .and_then(|options| {
                let (input, out) = (std::io::stdin(), std::io::stdout().lock());
                commands::play::run(options, input, out, signals::stopped(true))
            }),
        Command::Tune(args) => {
            let options = args.into_options(std::env::current_exe().ok());
            commands::tune::run(&options, &mut console, || signals::stopped(false))
        }
        Command::Slurm(args) => commands::slurm::run(&args.into(), &mut console),
        Command::Tablebase(args) => commands::tablebase::run(&args.into(), &mut console),
        Command::Bench(args) => commands::bench::run(&args.into(), &mut console),
        Command::BenchEcho => {
            commands::bench::echo(std::io::stdin().lock(), std::io::stdout().lock())
                .map(|()| Outcome::Success)
                .map_err(|e| anyhow::anyhow!("bench-echo: {e}"))
        }
        Command::Guard(args) => {
            let Some((command, limits, sandbox, cgroups)) = args.into_parts() else {
                return ExitCode::from(ERROR);
            };
            // The guard's stderr is the bot's log.
            let code = arena::guard::run(&command, limits, sandbox.as_ref(), &cgroups)
                .unwrap_or_else(|e| {
                    eprintln!("guard: {e}");
                    arena::guard::NOT_STARTED
                });
            return ExitCode::from(code as u8);
        }
        Command::Sweeper(args) => {
            arena::cgroup::sweep_owner(&args.owner, &args.place, std::io::stdin().lock());
            return ExitCode::SUCCESS;
        }
        Command::Confine(args) => {
            return match arena::sandbox::confine::run(args.processes, args.arena, &args.command) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("sandbox: {e}");
                    ExitCode::from(arena::sandbox::confine::REFUSED as u8)
                }
            };
        }
        Command::Bot { name, .. } if name == "--help" || name == "-h" => {
            print!("{}", cli::bot_help());
            return ExitCode::SUCCESS;
        }
        Command::Bot { name, args } if name == "perfect" => {
            return ExitCode::from(arena::commands::perfect::main(args));
        }
        Command::Bot { name, args } => {
            let stdio = endodoi_bots::Stdio {
                input: std::io::stdin().lock(),
                output: std::io::stdout().lock(),
                errors: std::io::stderr(),
            };
            let code = endodoi_bots::bot_main(&format!("arena bot {name}"), &name, args, stdio);
            return ExitCode::from(u8::try_from(code).unwrap_or(FAILED));
        }
        Command::Solve(args) => endodoi_bots::solve::write_table(
            &args.holes,
            &args.seeds,
            args.max_plies,
            args.max_laps,
            &mut std::io::stdout().lock(),
        )
        .map(|()| Outcome::Success)
        .map_err(anyhow::Error::new),
    };
    match outcome {
        Ok(Outcome::Success) => ExitCode::from(SUCCESS),
        Ok(Outcome::Failed) => ExitCode::from(FAILED),
        Ok(Outcome::Interrupted) => ExitCode::from(INTERRUPTED),
        Err(e) => {
            console.note(format_args!("error: {}", cli::one_line(&e)));
            if let Some(stopped) = e.downcast_ref::<commands::run::Stopped>() {
                console.note(format_args!(
                    "arena: to go on where it stopped, run (from this folder): {}",
                    stopped.resume
                ));
            }
            ExitCode::from(ERROR)
        }
    }
}
