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
    let command = match exit_at_once(cli.command) {
        Ok(code) => return code,
        Err(command) => *command,
    };
    let outcome = run(command, &mut console);
    // Every bot is gone: the cgroups' sweeper may go too.
    arena::cgroup::end_sweeper();
    exit_code(outcome, &mut console)
}

/// Runs one of the commands that report an [`Outcome`].
fn run(command: Command, console: &mut Console<'_>) -> anyhow::Result<Outcome> {
    match command {
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
                commands::run::run(&options, console, || signals::stopped(false))
            }),
        Command::Serve(args) => {
            commands::serve::run(&args.into(), console, || signals::stopped(false))
        }
        Command::Merge(args) => commands::merge::run(&args.into(), console),
        Command::Init(args) => commands::init::run(&args.into(), console),
        Command::Replay(args) => commands::replay::run(&args.into(), console),
        Command::Rate(args) => commands::rate::run(&args.into(), console),
        Command::Analyse(args) => commands::analyse::run(&args.into(), console),
        Command::Check(args) => {
            let options = args.into_options(std::env::current_exe().ok());
            commands::check::run(&options, console)
        }
        Command::Play(args) => arena::play::PlayOptions::new(args.into())
            .map_err(anyhow::Error::new)
            .and_then(|options| {
                let (input, out) = (std::io::stdin(), std::io::stdout().lock());
                commands::play::run(options, input, out, signals::stopped(true))
            }),
        Command::Tune(args) => {
            let options = args.into_options(std::env::current_exe().ok());
            commands::tune::run(&options, console, || signals::stopped(false))
        }
        Command::Slurm(args) => commands::slurm::run(&args.into(), console),
        Command::Tablebase(args) => commands::tablebase::run(&args.into(), console),
        Command::Bench(args) => commands::bench::run(&args.into(), console),
        Command::BenchEcho => {
            commands::bench::echo(std::io::stdin().lock(), std::io::stdout().lock())
                .map(|()| Outcome::Success)
                .map_err(|e| anyhow::anyhow!("bench-echo: {e}"))
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
        Command::Guard(_) | Command::Sweeper(_) | Command::Confine(_) | Command::Bot { .. } => {
            unreachable!("run by exit_at_once")
        }
    }
}

/// Runs a command that ends the process with its own exit code (the guard,
/// the sweeper, the confinement, a bundled bot); any other is given back.
fn exit_at_once(command: Command) -> Result<ExitCode, Box<Command>> {
    match command {
        Command::Guard(args) => {
            let Some((command, limits, sandbox, cgroups)) = args.into_parts() else {
                return Ok(ExitCode::from(ERROR));
            };
            // The guard's stderr is the bot's log.
            let code = arena::guard::run(&command, limits, sandbox.as_ref(), &cgroups)
                .unwrap_or_else(|e| {
                    eprintln!("guard: {e}");
                    arena::guard::NOT_STARTED
                });
            Ok(ExitCode::from(code as u8))
        }
        Command::Sweeper(args) => {
            arena::cgroup::sweep_owner(&args.owner, &args.place, std::io::stdin().lock());
            Ok(ExitCode::SUCCESS)
        }
        Command::Confine(args) => Ok(
            match arena::sandbox::confine::run(args.processes, args.arena, &args.command) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("sandbox: {e}");
                    ExitCode::from(arena::sandbox::confine::REFUSED as u8)
                }
            },
        ),
        Command::Bot { name, .. } if name == "--help" || name == "-h" => {
            Ok(match commands::print_help(&cli::bot_help()) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("error: cannot write the help: {e}");
                    ExitCode::from(FAILED)
                }
            })
        }
        Command::Bot { name, args } if name == "perfect" => {
            Ok(ExitCode::from(arena::commands::perfect::main(args)))
        }
        Command::Bot { name, args } => {
            let stdio = endodoi_bots::Stdio {
                input: std::io::stdin().lock(),
                output: std::io::stdout().lock(),
                errors: std::io::stderr(),
            };
            let code = endodoi_bots::bot_main(&format!("arena bot {name}"), &name, args, stdio);
            Ok(ExitCode::from(u8::try_from(code).unwrap_or(FAILED)))
        }
        other => Err(Box::new(other)),
    }
}

/// The exit code of `outcome`; an error is said first, in one line (with
/// how to go on with a run that stopped).
fn exit_code(outcome: anyhow::Result<Outcome>, console: &mut Console<'_>) -> ExitCode {
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
