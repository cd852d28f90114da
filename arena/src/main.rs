//! The `arena` binary: a thin shell over the `arena` library.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::Context as _;
use arena::cli::{CheckArgs, Cli, Command, RateArgs, ReplayArgs};
use arena::config::{Config, OnStartFailure};
use arena::output::RunDir;
use arena::report;
use arena::runner::{self, Event, RunOptions};
use clap::error::ErrorKind;
use clap::Parser as _;
use tokio_util::sync::CancellationToken;

/// Like `eprintln!` and `println!`, but a closed stderr or stdout (say, a
/// pipe into `head`) is ignored instead of stopping the tournament.
macro_rules! err {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($t)*);
    }};
}
macro_rules! out {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($t)*);
    }};
}

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
            err!("{}; see 'arena --help'", message.join(" "));
            return ExitCode::from(2);
        }
        Err(e) => e.exit(), // --help and --version
    };
    let result = match cli.command {
        Command::Run {
            config,
            out,
            quiet,
            transcripts,
            shard,
            resume,
            resume_if_exists,
        } => shard_from(shard.as_deref(), |k| std::env::var(k).ok())
            .map_err(anyhow::Error::msg)
            .and_then(|shard| {
                // An earlier attempt's folder (it has the config copied in) is resumed.
                let resume = match (&out, resume) {
                    (Some(dir), None) if resume_if_exists && dir.join("config.toml").exists() => {
                        Some(dir.clone())
                    }
                    (_, resume) => resume,
                };
                run(&config, out, quiet, transcripts, shard, resume)
            }),
        Command::Merge { dirs, out, partial } => merge(&dirs, &out, partial),
        Command::Init { path, force } => init(&path, force),
        Command::Slurm(args) => arena::slurm::main(args).map(|ok| {
            if ok {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            }
        }),
        Command::Guard {
            memory_mb,
            cpu_seconds,
            open_files,
            sandbox,
            command,
        } => {
            let limits = arena::config::Limits {
                memory_mb,
                cpu_seconds,
                open_files,
            };
            let sandbox = match sandbox.map(|s| serde_json::from_str(&s)).transpose() {
                Ok(s) => s,
                Err(e) => {
                    eprintln!("guard: bad --sandbox: {e}");
                    return ExitCode::from(2);
                }
            };
            return ExitCode::from(arena::guard::run(&command, limits, sandbox.as_ref()) as u8);
        }
        Command::Confine {
            processes,
            arena,
            command,
        } => {
            return ExitCode::from(arena::sandbox::confine::run(processes, arena, &command) as u8);
        }
        Command::Replay(args) => replay(args),
        Command::Rate(args) => rate(args),
        Command::Check(args) => check(args),
        Command::Play(args) => arena::play::PlayOptions::from_args(args)
            .map_err(anyhow::Error::msg)
            .and_then(arena::play::run)
            .map(|ending| ExitCode::from(ending.exit_code())),
        Command::Bench(args) => arena::bench::run(&args).map(|()| ExitCode::SUCCESS),
        Command::BenchEcho => arena::bench::echo()
            .map(|()| ExitCode::SUCCESS)
            .context("bench-echo"),
        Command::Bot { name, .. } if name == "--help" || name == "-h" => {
            let mut cmd = <Cli as clap::CommandFactory>::command();
            cmd.build();
            let help = cmd
                .find_subcommand_mut("bot")
                .map(|bot| bot.render_long_help().to_string())
                .unwrap_or_default();
            print!("{help}");
            return ExitCode::SUCCESS;
        }
        Command::Bot { name, args } => {
            let code = endodoi_bots::bot_main(&format!("arena bot {name}"), &name, args);
            return ExitCode::from(u8::try_from(code).unwrap_or(1));
        }
        Command::Solve {
            holes,
            seeds,
            max_plies,
            max_laps,
        } => endodoi_bots::solve::print_table(&holes, &seeds, max_plies, max_laps)
            .map(|()| ExitCode::SUCCESS)
            .map_err(anyhow::Error::msg),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            // One line: the cause chain joined, as the user must see it.
            err!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn run(
    config_path: &Path,
    out: Option<PathBuf>,
    quiet: bool,
    transcripts: bool,
    shard: Option<(usize, usize)>,
    resume: Option<PathBuf>,
) -> anyhow::Result<ExitCode> {
    let config = Config::load(config_path)?;
    let claimed = out.is_none() && resume.is_none();
    let out = match (out, &resume) {
        (_, Some(dir)) => dir.clone(),
        (Some(dir), None) => dir,
        (None, None) => {
            report::claim_run_dir(&config.name).context("cannot create a folder in results/")?
        }
    };
    // What sandboxed bots would see first (a writable folder that holds
    // the results is refused as that, not as one to chown), then each start.
    let checked = arena::bot::layout::check_layout(&config.bots, &out)
        .map_err(|e| anyhow::anyhow!("{}: {e}", config.bot_origins[e.bot]))
        .and_then(|()| Ok(config.check_programs()?));
    if let Err(e) = checked {
        if claimed {
            // The folder just made for this run is still empty: take it back.
            let _ = std::fs::remove_dir(&out);
        }
        return Err(e);
    }
    anyhow::ensure!(
        shard.is_none() || shard == Some((1, 1)) || config.sprt.is_none(),
        "an SPRT match decides game by game and cannot be split into shards: run it whole (or as shard 1/1)"
    );
    let shard_text = shard.map_or_else(|| "all".to_string(), |(k, n)| format!("{k}/{n}"));
    // Each branch takes the folder's lock before it writes anything there.
    let (dir, _lock) = if resume.is_some() {
        // Only the same config (and shard) may go on where a run stopped.
        let stored = std::fs::read(out.join("config.toml")).with_context(|| {
            format!(
                "{} holds no config.toml: is it a run folder?",
                out.display()
            )
        })?;
        let dir = RunDir { path: out.clone() };
        let lock = dir.lock()?;
        // Bot logs are appended to; a folder copied without them still resumes.
        std::fs::create_dir_all(dir.path.join("logs"))
            .with_context(|| format!("cannot create {}", dir.path.join("logs").display()))?;
        anyhow::ensure!(
            arena::config::same_games(&stored, &std::fs::read(config_path)?),
            "{} was run with another config: resume it with its own config.toml (only [tournament] concurrency and affinity may differ), or start a new run",
            out.display()
        );
        let stored_shard =
            std::fs::read_to_string(out.join("shard")).unwrap_or_else(|_| "all".into());
        anyhow::ensure!(
            stored_shard.trim() == shard_text,
            "{} was run as shard {}: resume it with the same --shard",
            out.display(),
            stored_shard.trim()
        );
        (dir, lock)
    } else {
        // The folder may be new, or an earlier attempt's that never began.
        let existing = RunDir { path: out.clone() };
        if out.join("games.csv").exists() {
            let how = if existing.is_finished() {
                "choose another --out (`arena rate` re-rates it)"
            } else {
                "choose another --out, or go on with it: `arena run CONFIG --resume DIR`"
            };
            anyhow::bail!(
                "cannot create the run folder {0}: {0} already holds a tournament (games.csv): {how}",
                out.display()
            );
        }
        let dir = RunDir::create(&out)
            .with_context(|| format!("cannot create the run folder {}", out.display()))?;
        let lock = dir.lock()?;
        // Whole or not at all, since a resume compares it byte for byte.
        std::fs::read(config_path)
            .and_then(|text| {
                arena::output::write_bytes_atomic(&dir.path.join("config.toml"), &text)
            })
            .context("cannot copy the config into the run folder")?;
        std::fs::write(dir.path.join("shard"), &shard_text)
            .context("cannot write the run folder")?;
        (dir, lock)
    };
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    let say = |line: String| {
        if !quiet {
            err!("{line}");
        }
    };
    let mut options = RunOptions {
        guard: std::env::current_exe().ok(),
        transcripts,
        // Shard 1 of 1 is the whole tournament (an SPRT match on Slurm).
        shard: shard.filter(|&s| s != (1, 1)),
        resume: resume.is_some(),
        skipped: Vec::new(),
    };

    // Every bot must start before any game is played.
    let failures = runtime.block_on(runner::check_bots(&config, &dir, &options));
    let failed: Vec<String> = config
        .bots
        .iter()
        .zip(&failures)
        .filter_map(|(b, f)| {
            f.as_ref()
                .map(|why| format!("bot '{}' did not start: {why}", b.name))
        })
        .collect();
    if !failed.is_empty() {
        match config.tournament.on_start_failure {
            OnStartFailure::Stop => anyhow::bail!(
                "{}; fix it, or set on_start_failure = \"skip\" in [tournament] to play without it (logs in {})",
                failed.join("; "),
                dir.path.join("logs").display()
            ),
            OnStartFailure::Skip => {
                for line in &failed {
                    err!("arena: {line}; playing without it");
                }
                // The bot stays in the list, so every series keeps its number
                // (a resume may see another set of bots start).
                options.skipped = (0..failures.len())
                    .filter(|&i| failures[i].is_some())
                    .collect();
                anyhow::ensure!(config.bots.len() - options.skipped.len() >= 2, "fewer than two bots started: nothing to play");
            }
        }
    }
    let config = Arc::new(config);
    let bound = runner::games_bound(&config, options.shard, &options.skipped);
    let playing = |i: &usize| !options.skipped.contains(i);
    // As the runner sees it: shard 1/1 is the whole match, played on lanes.
    let (schedule, _) = runner::shard_schedule(config.bots.len(), options.shard);
    let series = schedule
        .iter()
        .filter(|s| playing(&s.a) && playing(&s.b))
        .count();
    // A series plays its games one by one, so no more than one game per
    // series runs at once, except in a two-bot match, played on lanes.
    let at_once = if schedule.len() == 1 && series == 1 {
        config.tournament.concurrency
    } else {
        config.tournament.concurrency.min(series).max(1)
    };
    say(format!(
        "arena: {} bots, {series} series, at most {bound} games, {at_once} at once; writing {}",
        (0..config.bots.len()).filter(playing).count(),
        dir.path.display()
    ));
    // On a terminal, a live view of the bots that play; otherwise (or
    // --quiet) plain lines.
    let live = std::cell::RefCell::new(
        (!quiet && std::io::IsTerminal::is_terminal(&std::io::stderr())).then(|| {
            let mut shown = (*config).clone();
            let mut index = 0..;
            shown
                .bots
                .retain(|_| playing(&index.next().unwrap_or_default()));
            arena::progress::Live::new(&shown, bound)
        }),
    );
    let note = |line: &str| match live.borrow().as_ref() {
        Some(l) => l.println(line),
        None => err!("{line}"),
    };
    let cancel = CancellationToken::new();
    // A resumed run counts on from the games it already has.
    let games_csv = dir.path.join("games.csv");
    let mut done = match live.borrow_mut().as_mut() {
        Some(l) if options.resume => l.resumed(&games_csv) as usize,
        None if options.resume => {
            csv::Reader::from_path(&games_csv).map_or(0, |mut r| r.records().flatten().count())
        }
        _ => 0,
    };
    let outcome = runtime.block_on(async {
        let work = runner::run(config.clone(), &dir, &options, &cancel, |event| {
            let mut live = live.borrow_mut();
            match (event, live.as_mut()) {
                (Event::Game(g), Some(l)) => {
                    done += 1;
                    l.game(g);
                }
                (Event::Game(g), None) => {
                    done += 1;
                    if !quiet {
                        err!("{}", report::game_line(done, g));
                    }
                }
                (Event::Series(s), Some(l)) => l.series(s),
                (Event::Sprt(s), Some(l)) => l.println(&report::sprt_line(s, &config.bots[0].name)),
                (Event::Sprt(s), None) if !quiet => err!("{}", report::sprt_line(s, &config.bots[0].name)),
                _ => {}
            }
        });
        tokio::pin!(work);
        // The first Ctrl-C (or SIGTERM) abandons the games in progress and
        // lets the run wind down; a second one exits at once.
        tokio::select! {
            r = &mut work => return Some(r),
            () = interrupted() => {
                note("arena: stopping: games in progress are abandoned and every bot is stopped (press Ctrl-C again to exit at once)");
                cancel.cancel();
            }
        }
        tokio::select! {
            r = &mut work => Some(r),
            () = interrupted() => None,
        }
    });
    if let Some(l) = live.into_inner() {
        l.finish();
    }
    // Dropping the runtime kills every bot still running, with its group.
    drop(runtime);
    let Some(summary) = outcome else {
        err!(
            "arena: interrupted; the games already played are in {}",
            dir.path.join("games.csv").display()
        );
        return Ok(ExitCode::from(130));
    };
    let summary = summary?;
    // Every game is in games.csv: the run is finished (the report says so).
    if !cancel.is_cancelled() {
        let games = summary.series.iter().map(|s| s.wdl.games() as usize).sum();
        dir.mark_finished(games)
            .context("cannot mark the run finished")?;
    }
    let table = report::write_summaries(&config, &dir, &summary)?;
    out!("{table}");
    if cancel.is_cancelled() {
        err!(
            "arena: interrupted; the summaries cover the {done} games played, in {}",
            dir.path.display()
        );
        return Ok(ExitCode::from(130));
    }
    say(format!("arena: results in {}", dir.path.display()));
    Ok(ExitCode::SUCCESS)
}

/// The shard to play: `--shard K/N`, or `--shard auto/N` with K from the
/// job array's index: Slurm's SLURM_ARRAY_TASK_ID as it is (arrays numbered
/// 1-N, so that a task re-run alone with `--array=K` keeps its K), or
/// Kubernetes' JOB_COMPLETION_INDEX + 1 (numbered from 0). A Slurm array
/// task without `--shard` is refused: it would play the whole tournament.
fn shard_from(
    arg: Option<&str>,
    env: impl Fn(&str) -> Option<String>,
) -> Result<Option<(usize, usize)>, String> {
    let number = |k: &str| env(k).and_then(|v| v.trim().parse::<usize>().ok());
    match arg {
        Some(text) => match text.strip_prefix("auto/") {
            Some(n) => {
                let k = match (number("SLURM_ARRAY_TASK_ID"), number("JOB_COMPLETION_INDEX")) {
                    (Some(0), _) => return Err("--shard auto/N: SLURM_ARRAY_TASK_ID is 0; number the array 1-N (sbatch --array=1-N)".into()),
                    (Some(id), _) => id,
                    (None, Some(i)) => i + 1,
                    (None, None) => return Err("--shard auto/N needs SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX in the environment".into()),
                };
                arena::cli::parse_shard(&format!("{k}/{n}")).map(Some).map_err(|e| {
                    format!("{e} (K from SLURM_ARRAY_TASK_ID, or JOB_COMPLETION_INDEX + 1: is N the number of tasks?)")
                })
            }
            None => arena::cli::parse_shard(text).map(Some),
        },
        None if env("SLURM_ARRAY_TASK_ID").is_some() => Err(
            "this is a Slurm array task: pass --shard auto/N (N shards, array 1-N), or let `arena slurm` write the job".into(),
        ),
        None => Ok(None),
    }
}

/// `arena merge`: the shards' games in one games.csv, and every summary
/// computed from it, as a single run would have written them.
fn merge(dirs: &[PathBuf], out: &Path, partial: bool) -> anyhow::Result<ExitCode> {
    // A shard that never ran has no folder (or an empty one).
    let (dirs, absent): (Vec<PathBuf>, Vec<PathBuf>) = dirs
        .iter()
        .cloned()
        .partition(|d| d.join("config.toml").exists());
    let list = |ds: &[PathBuf]| {
        ds.iter()
            .map(|d| d.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    if !absent.is_empty() {
        anyhow::ensure!(
            partial && !dirs.is_empty(),
            "{} hold(s) no run (no config.toml): a shard that never ran? Run it (`arena slurm rerun DIR`, or `arena run CONFIG --shard K/N --out DIR`), or pass --partial to merge what there is",
            list(&absent)
        );
        err!("arena: --partial: leaving out {}", list(&absent));
    }
    let config_text = |d: &PathBuf| std::fs::read(d.join("config.toml"));
    let first = config_text(&dirs[0])?;
    for d in &dirs[1..] {
        anyhow::ensure!(
            config_text(d)? == first,
            "{} comes from another config than {}: merge only the shards of one tournament",
            d.display(),
            dirs[0].display()
        );
    }
    if !partial {
        let states: Vec<_> = dirs
            .iter()
            .map(|d| arena::shards::ShardState::read(d))
            .collect();
        arena::shards::check_whole(&states)
            .map_err(|e| anyhow::anyhow!("{e}; or pass --partial to merge what there is"))?;
        // A finished run counted its games: a copy cut short has fewer.
        for d in &dirs {
            let counted = std::fs::read_to_string(d.join("finished"))
                .ok()
                .and_then(|t| t.split_whitespace().next()?.parse::<usize>().ok());
            let rows = arena::rate::merge_games(&[d.join("games.csv")], None)?.len();
            if let Some(counted) = counted.filter(|&c| c != rows) {
                anyhow::bail!(
                    "{} finished with {counted} games, but its games.csv holds {rows} whole rows: copy the folder again (a copy cut short?), or pass --partial to merge what there is",
                    d.display()
                );
            }
        }
    }
    let config = Config::parse(&String::from_utf8_lossy(&first), "config.toml", "merged")?;
    let dir = RunDir::create(out)
        .with_context(|| format!("cannot create the run folder {}", out.display()))?;
    std::fs::write(dir.path.join("config.toml"), &first)?;
    let files: Vec<PathBuf> = dirs.iter().map(|d| d.join("games.csv")).collect();
    let series = arena::rate::merge_games(&files, Some(&dir.path.join("games.csv")))?;
    let summary = runner::Summary::from_series(&config, &series);
    if !partial {
        let games = series.len();
        dir.mark_finished(games)
            .context("cannot mark the merge finished")?;
    }
    let table = report::write_summaries(&config, &dir, &summary)?;
    out!("{table}");
    err!(
        "arena: {} shard folder(s) merged into {}",
        dirs.len(),
        dir.path.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// `arena check`: the checklist on stdout; exit 0 if every check passed,
/// 1 if not (2, from the caller, when the check cannot run at all).
fn check(args: CheckArgs) -> anyhow::Result<ExitCode> {
    let options = arena::check::CheckOptions {
        command: args.command,
        move_time_ms: args.move_time_ms,
        startup_ms: args.startup_ms,
        guard: std::env::current_exe().ok(),
        log: args.log,
        sandbox: args.sandbox.then(|| arena::sandbox::SandboxSpec {
            read_only: args.sandbox_ro,
            writable: args.sandbox_rw,
            ..arena::sandbox::SandboxSpec::default()
        }),
    };
    let mut header = Some(format!(
        "arena check: {} (move time {} ms, start-up {} ms)",
        options
            .command
            .iter()
            .map(|word| arena::protocol::shown(word))
            .collect::<Vec<_>>()
            .join(" "),
        options.move_time_ms,
        options.startup_ms
    ));
    let report = arena::check::run(&options, |line| {
        if let Some(header) = header.take() {
            out!("{header}");
        }
        out!("{line}");
    })
    .map_err(anyhow::Error::msg)?;
    out!("{}", report.summary());
    if !report.passed() && options.log.is_none() {
        out!("(the bot's stderr is not kept: run again with --log FILE before -- to see what it said)");
    }
    Ok(if report.passed() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// `arena init`: the starter config, never over a file unless `--force`;
/// `-` prints it to standard output.
fn init(path: &Path, force: bool) -> anyhow::Result<ExitCode> {
    use std::io::Write as _;
    if path == Path::new("-") {
        std::io::stdout()
            .write_all(arena::config::STARTER.as_bytes())
            .context("cannot write the starter config to standard output")?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut options = std::fs::OpenOptions::new();
    options.write(true);
    if force {
        options.create(true).truncate(true);
    } else {
        options.create_new(true);
    }
    let mut file = options.open(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::AlreadyExists => anyhow::anyhow!(
            "{} exists: choose another file (arena init FILE), or pass --force to overwrite it",
            path.display()
        ),
        _ => anyhow::anyhow!("cannot write {}: {e}", path.display()),
    })?;
    file.write_all(arena::config::STARTER.as_bytes())
        .with_context(|| format!("cannot write {}", path.display()))?;
    err!(
        "arena: wrote {0}; run it with `arena run {0}`, or edit it first",
        path.display()
    );
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
    {
        use std::io::Write as _;
        let _ = write!(std::io::stdout(), "{report}");
    }
    Ok(if matches {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn rate(args: RateArgs) -> anyhow::Result<ExitCode> {
    let out = match (&args.out, args.games.as_slice()) {
        (Some(dir), _) => dir.clone(),
        (None, [one]) => one
            .parent()
            .map_or_else(|| PathBuf::from("."), Path::to_path_buf),
        (None, _) => {
            anyhow::bail!("several games.csv files need --out DIR for the merged statistics")
        }
    };
    // The settings of the run the files come from (its config.toml beside
    // them, the same for all), so that rating a run gives the run's files.
    let run_config = {
        let texts: Vec<Option<String>> = args
            .games
            .iter()
            .map(|g| {
                let dir = g.parent().unwrap_or(Path::new("."));
                std::fs::read_to_string(dir.join("config.toml")).ok()
            })
            .collect();
        match texts.first() {
            Some(Some(first)) if texts.iter().all(|t| t.as_ref() == Some(first)) => {
                Config::parse(first, "config.toml", "rated").ok()
            }
            _ => None,
        }
    };
    let given = args.prior_draws.is_some()
        || args.bootstrap.is_some()
        || args.seed.is_some()
        || args.anchor.is_some();
    anyhow::ensure!(
        args.out.is_some() || !given || !out.join("config.toml").exists(),
        "{} is a run folder: rating it with other settings would overwrite its own statistics; give --out DIR for the new files",
        out.display()
    );
    let (ratings, seed) = run_config.map_or_else(
        || {
            (
                arena::config::RatingSettings::default(),
                arena::config::DEFAULT_SEED,
            )
        },
        |c| (c.ratings, c.tournament.seed),
    );
    let prior_draws = args.prior_draws.unwrap_or(ratings.prior_draws);
    anyhow::ensure!(
        prior_draws.is_finite() && prior_draws >= 0.0,
        "--prior-draws must be 0 or more"
    );
    let rated = arena::rate::read_games(&args.games)?;
    anyhow::ensure!(
        rated.games > 0,
        "no games in {}",
        args.games
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    );
    let anchor = match args.anchor {
        Some(a) => Some((a, args.anchor_elo.unwrap_or(0.0))),
        None => ratings.anchor,
    };
    if let Some((anchor, _)) = &anchor {
        anyhow::ensure!(
            rated.names.contains(anchor),
            "--anchor {anchor} played no game here; the bots are {}",
            rated.names.join(", ")
        );
    }
    std::fs::create_dir_all(&out).with_context(|| format!("cannot create {}", out.display()))?;
    let settings = arena::config::RatingSettings {
        prior_draws,
        bootstrap: args.bootstrap.unwrap_or(ratings.bootstrap),
        anchor,
    };
    let seed = args.seed.unwrap_or(seed);
    let options = report::rating_options(&settings, seed, &rated.names);
    let table = report::write_ratings(&rated.names, &rated.tally, &options, &out, &args.games)?;
    out!("{table}");
    err!(
        "arena: {} games from {} file(s); standings.csv, pairwise.csv, los.csv, report.html and standings.svg in {}",
        rated.games,
        args.games.len(),
        out.display()
    );
    Ok(ExitCode::SUCCESS)
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

#[cfg(test)]
mod tests {
    use super::shard_from;

    #[test]
    fn shards_come_from_the_flag_or_the_job_array() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |k: &str| {
                pairs
                    .iter()
                    .find(|(n, _)| *n == k)
                    .map(|(_, v)| v.to_string())
            }
        };
        assert_eq!(shard_from(Some("2/4"), env(&[])), Ok(Some((2, 4))));
        assert_eq!(shard_from(None, env(&[])), Ok(None));
        assert_eq!(
            shard_from(Some("auto/4"), env(&[("JOB_COMPLETION_INDEX", "0")])),
            Ok(Some((1, 4)))
        );
        let slurm = env(&[("SLURM_ARRAY_TASK_ID", "3"), ("SLURM_ARRAY_TASK_MIN", "3")]);
        assert_eq!(shard_from(Some("auto/4"), slurm), Ok(Some((3, 4))));
        assert!(shard_from(None, slurm).is_err());
        assert!(shard_from(Some("auto/4"), env(&[("SLURM_ARRAY_TASK_ID", "0")])).is_err());
        assert!(shard_from(Some("auto/4"), env(&[])).is_err());
        assert!(shard_from(Some("5/4"), env(&[])).is_err());
    }
}
