//! `arena run`: a tournament from its config, into a run folder.

use std::future::Future;
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Context as _;
use tokio_util::sync::CancellationToken;

use super::{Console, Outcome};
use crate::config::{Config, OnStartFailure};
use crate::live::{self, Server};
use crate::output::RunFolder;
use crate::reporter::{Lines, Reporter, RoundLines};
use crate::runner::{self, RunOptions};
use crate::shard::Shard;
use crate::{progress, report};

/// How the run is shown as it goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    /// The live view (a terminal).
    Live,
    /// A line per game (off a terminal).
    Lines,
    /// Only the final table and the lines a user must see (`--quiet`).
    Quiet,
}

/// What `arena run` was asked.
#[derive(Clone, Debug)]
pub struct Options {
    /// The tournament config.
    pub config: PathBuf,
    /// The run folder [default: a new results/NAME-TIMESTAMP].
    pub out: Option<PathBuf>,
    /// How the run is shown.
    pub view: View,
    /// Keep every game's protocol transcript.
    pub transcripts: bool,
    /// Play only this shard.
    pub shard: Option<Shard>,
    /// Go on with the interrupted run in this folder.
    pub resume: Option<PathBuf>,
    /// With `out`: resume it if it already holds this run.
    pub resume_if_exists: bool,
    /// The executable that supervises each bot (`arena guard`): this one.
    pub guard: Option<PathBuf>,
    /// Serve the live view on this address (`HOST:PORT`, as given).
    pub serve: Option<String>,
}

/// Runs the tournament: checks the bots, plays every game, writes the
/// summaries and prints the final table. `interrupted` resolves when the
/// user asks to stop (Ctrl-C, SIGTERM): the first time, the games in
/// progress are abandoned and the run winds down ([`Outcome::Interrupted`]);
/// the second time, it returns at once.
///
/// # Errors
/// A bad config or run folder, a bot that does not start (unless skipped),
/// a resume of another run, or a file that cannot be written.
pub fn run<F: Future<Output = ()>>(
    options: &Options,
    console: &mut Console<'_>,
    interrupted: impl Fn() -> F,
) -> anyhow::Result<Outcome> {
    let shard = options.shard;
    // The live view's address is taken first: a bad one, or one in use,
    // stops the run before anything is written.
    let listener = listen(options)?;
    let resume = resume_dir(options);
    let mut config = load_config(options, console)?;
    let league = matches!(config.format, crate::format::Format::League(_));
    let members = resumed_members(&config, options, resume.as_ref(), league);
    let checked = checked_while_watching(options, resume.as_ref(), &members, &interrupted, console);
    let Some(out) = checked? else {
        return Ok(Outcome::Interrupted);
    };
    let (dir, _lock) = open_folder(options, &out, resume.is_some(), &config)?;
    // A resumed league's bots are its roster's, in its order: the config's
    // bots not in it join at the next round, as bots added.
    let not_in_league = if league && resume.is_some() {
        runner::league_order(&mut config, &options.config, &dir)?
    } else {
        Vec::new()
    };
    let (notes_tx, notes_rx) = std::sync::mpsc::channel::<runner::DoorNote>();
    let earlier = earlier_games(resume.is_some(), league, &dir, console)?;
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    let server = listener
        .map(|l| serve(l, &config, &dir, shard, earlier.as_deref(), console))
        .transpose()?;
    let watch = server.as_ref().map(Server::watch);
    let mut run_options = run_options_for(
        options,
        resume.is_some(),
        league,
        &not_in_league,
        watch,
        notes_tx,
        earlier,
    );
    let cancel = CancellationToken::new();
    let failures = check_starts(
        &runtime,
        &config,
        &dir,
        &run_options,
        &interrupted,
        &cancel,
        console,
    );
    skip_failed(
        &config,
        &failures,
        &not_in_league,
        league && resume.is_some(),
        &mut run_options,
        &dir,
        console,
    )?;
    let config = Arc::new(config);
    let bound = announce(
        &config,
        &run_options,
        server.as_ref(),
        options.view,
        &dir,
        console,
    );
    let reporter = reporter_for(options.view, &config, &run_options.skipped, bound, console);
    let playing = Playing {
        config: &config,
        dir: &dir,
        run_options: &run_options,
        cancel: &cancel,
        server: server.as_ref(),
        notes: &notes_rx,
        view: options.view,
    };
    let (outcome, mut reporter, done) = play_games(&runtime, &playing, reporter, &interrupted);
    last_door_lines(&notes_rx, &mut *reporter);
    reporter.finish();
    // Dropping the runtime kills every bot still running, with its group.
    drop(runtime);
    let Some(summary) = outcome else {
        say_interrupted(&mut *reporter, options, &dir);
        return Ok(Outcome::Interrupted);
    };
    let finished = Finished {
        options,
        dir: &dir,
        failures: &failures,
        cancelled: cancel.is_cancelled(),
        league,
    };
    let table = write_results(&finished, config, summary, server)?;
    drop(reporter);
    console.print(table);
    close(&finished, done, console)
}

/// The bots whose programs are checked before a run: a resumed league's
/// in the league now (its roster's, [`runner::league_order`]); a bot to
/// join, or a retired one, is checked as it would join (a bot that fails
/// does not join, and the league goes on). Else `config`'s, all of them.
fn resumed_members(
    config: &Config,
    options: &Options,
    resume: Option<&PathBuf>,
    league: bool,
) -> Config {
    let mut members = config.clone();
    let Some(dir) = resume.filter(|_| league) else {
        return members;
    };
    match runner::league_order(&mut members, &options.config, &RunFolder::at(dir)) {
        Ok(out) => {
            let keep = |i: &usize| !out.contains(i);
            let mut index = 0..;
            members
                .bots
                .retain(|_| keep(&index.next().unwrap_or_default()));
            let mut index = 0..;
            members
                .bot_origins
                .retain(|_| keep(&index.next().unwrap_or_default()));
            members
        }
        // Said once the folder is open.
        Err(_) => config.clone(),
    }
}

/// The live view's socket (`--serve`), bound; `None` without one.
fn listen(options: &Options) -> anyhow::Result<Option<std::net::TcpListener>> {
    options
        .serve
        .as_deref()
        .map(|a| live::parse_addr(a).and_then(live::bind))
        .transpose()
        .context("--serve")
}

/// How the runner runs this run: `resumed` or not, a `league` (with its
/// door's `notes`), the bots `not_in_league` skipped, the live view's
/// `watch`, and the `earlier` games read here, which the runner goes on
/// from (games.csv is read once).
fn run_options_for(
    options: &Options,
    resumed: bool,
    league: bool,
    not_in_league: &[usize],
    watch: Option<crate::referee::Watch>,
    notes: std::sync::mpsc::Sender<runner::DoorNote>,
    earlier: Option<Arc<crate::output::GamesRead>>,
) -> RunOptions {
    let shard = options.shard;
    RunOptions {
        guard: options.guard.clone(),
        transcripts: options.transcripts,
        // Shard 1 of 1 is the whole tournament (an SPRT match on Slurm).
        shard: shard.filter(|s| !s.is_whole()),
        resume: resumed,
        earlier,
        skipped: not_in_league.to_vec(),
        watch,
        stage: None,
        league: (league && shard.is_none_or(Shard::is_whole)).then(|| runner::LeagueDoor {
            config: options.config.clone(),
            notes,
        }),
    }
}

/// An interrupted run's last lines: where its games are, and how to go on.
fn say_interrupted(reporter: &mut dyn Reporter, options: &Options, dir: &RunFolder) {
    reporter.note(&format!(
        "arena: interrupted; the games already played are in {}",
        dir.games().display()
    ));
    reporter.note(&format!(
        "arena: to go on where it stopped, run (from this folder): {}",
        resume_command(options, &dir.path)
    ));
}

/// The first lines of a resumed league (nothing unless `resumed_league`):
/// the games it keeps (`earlier`), and a damaged `league.csv` in `dir`,
/// which is written anew.
fn say_resuming_league(
    resumed_league: bool,
    dir: &RunFolder,
    earlier: Option<&crate::output::GamesRead>,
    console: &mut Console<'_>,
) {
    if !resumed_league {
        return;
    }
    let kept = earlier.map_or(0, |read| read.rows.len());
    console.note(format_args!(
        "arena: resuming {}: {} kept; the league's rounds are paired again from them",
        dir.path.display(),
        crate::output::counted(kept, "game", "games")
    ));
    let league_csv = dir
        .path
        .join(<crate::output::LeagueRow as crate::output::CsvRow>::FILE);
    if crate::output::league::rewritten_on_resume(&league_csv) {
        console.note(format_args!(
            "arena: {} is damaged (not league.csv's header, or its rounds not 1, 2, 3 ... in order): it is written anew as the rounds are paired again",
            league_csv.display()
        ));
    }
}

/// The folder of an earlier attempt to go on with: `--resume`'s, or
/// `--out`'s when it holds a run and `--resume-if-exists` is given.
fn resume_dir(options: &Options) -> Option<PathBuf> {
    // An earlier attempt's folder (it has the config copied in) is resumed.
    match (&options.out, &options.resume) {
        (Some(dir), None) if options.resume_if_exists && RunFolder::at(dir).is_run() => {
            Some(dir.clone())
        }
        (_, resume) => resume.clone(),
    }
}

/// The run's config: two bots or more, its moved paths said, and
/// `--shard` checked against what it splits into.
fn load_config(options: &Options, console: &mut Console<'_>) -> anyhow::Result<Config> {
    let (config_path, shard) = (&options.config, options.shard);
    let config = Config::load(config_path, &super::host())?;
    anyhow::ensure!(
        config.bots.len() >= 2,
        "{}: one [[bot]] is a tuning's config (its [tune] table): run it with `arena tune {}`, or add a [[bot]] to play",
        config_path.display(),
        config_path.display()
    );
    let moved = config.moved_paths();
    if !moved.is_empty() && options.view != View::Quiet {
        console.note(format_args!(
            "arena: {}: relative paths start from the config's folder {} (they used to start from the current directory, which has another {}): see \"Relative paths\" in docs/configuration.md",
            config_path.display(),
            config.base.display(),
            moved.join(", ")
        ));
    }
    if let (Some(s), Some(why)) = (shard, runner::unsplittable(&config)) {
        anyhow::ensure!(s.is_whole(), "--shard {s}: {why}");
    }
    if let Some(s) = shard {
        let units = runner::split_units(&config);
        anyhow::ensure!(
            s.n() <= units,
            "--shard {s}: this tournament splits into at most {} (one per {}), so shard {s} would play nothing: choose N from 1 to {units}",
            crate::output::counted(units, "shard", "shards"),
            if config.bots.len() == 2 { "game pair" } else { "series" }
        );
    }
    Ok(config)
}

/// The run folder (`--out`, the one resumed, or a new one in results/),
/// once the sandboxed bots' layout and the bots' programs are checked; a
/// folder made for this run is taken back when they are not.
fn checked_out_dir(
    options: &Options,
    resume: Option<&PathBuf>,
    config: &Config,
    stop: &CancellationToken,
) -> anyhow::Result<PathBuf> {
    let shard = options.shard;
    let claimed = options.out.is_none() && resume.is_none();
    let out = match (&options.out, resume) {
        (_, Some(dir)) => dir.clone(),
        (Some(dir), None) => dir.clone(),
        (None, None) => {
            report::claim_run_dir(&config.name).context("cannot create a folder in results/")?
        }
    };
    // What sandboxed bots would see first (a writable folder that holds
    // the results is refused as that, not as one to chown), then each start.
    let checked = crate::bot::layout::check_layout(&config.bots, &out)
        .map_err(|e| anyhow::anyhow!("{}: {e}", config.bot_origins[e.bot]))
        .and_then(|()| Ok(crate::bot::spawn::check_programs(config, stop)?));
    if let Err(e) = checked {
        if claimed {
            // The folder just made for this run is still empty: take it back.
            let _ = std::fs::remove_dir(&out);
        }
        return Err(e);
    }
    anyhow::ensure!(
        shard.is_none_or(Shard::is_whole) || config.sprt.is_none(),
        "an SPRT match decides game by game and cannot be split into shards: run it whole (or as shard 1/1)"
    );
    Ok(out)
}

/// [`checked_out_dir`] while the signals are watched ([`while_watching`]):
/// the run folder, or `None` when a Ctrl-C stopped the check (a sandbox's
/// probe is then killed, and a folder made for the run taken back), said
/// on `console`.
///
/// # Errors
/// As [`checked_out_dir`].
fn checked_while_watching<F: Future<Output = ()>>(
    options: &Options,
    resume: Option<&PathBuf>,
    config: &Config,
    interrupted: &impl Fn() -> F,
    console: &mut Console<'_>,
) -> anyhow::Result<Option<PathBuf>> {
    let checked = while_watching(interrupted, |stop| {
        checked_out_dir(options, resume, config, stop)
    })?;
    if checked.is_none() {
        console.note("arena: stopping: the start-up check is abandoned and its sandbox probe killed; nothing was played");
    }
    checked.transpose()
}

/// The lines a league's door said after the last event, to `reporter`.
fn last_door_lines(
    notes: &std::sync::mpsc::Receiver<runner::DoorNote>,
    reporter: &mut dyn Reporter,
) {
    for note in notes.try_iter() {
        if let runner::DoorNote::Line(line) = note {
            reporter.note(&line);
        }
    }
}

/// Runs `work` on a thread of its own while the signals are watched: the
/// first `interrupted` fires its stop (a sandbox's probe is then killed)
/// and waits for it to end. Its result, or `None` when it was stopped.
///
/// # Errors
/// The runtime that watches cannot start.
fn while_watching<T: Send, F: Future<Output = ()>>(
    interrupted: &impl Fn() -> F,
    work: impl FnOnce(&CancellationToken) -> T + Send,
) -> anyhow::Result<Option<T>> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let stop = CancellationToken::new();
    let (tx, rx) = tokio::sync::oneshot::channel();
    let stopped = std::thread::scope(|scope| {
        let stop = &stop;
        scope.spawn(move || {
            let _ = tx.send(work(stop));
        });
        runtime.block_on(async {
            tokio::pin!(rx);
            tokio::select! {
                biased;
                done = &mut rx => done.ok(),
                () = interrupted() => {
                    stop.cancel();
                    let _ = rx.await;
                    None
                }
            }
        })
    });
    Ok(stopped)
}

/// The run folder `out` begun (or, `resumed`, taken up again), its lock
/// held: only the same config (and shard) may go on where a run stopped.
fn open_folder(
    options: &Options,
    out: &std::path::Path,
    resumed: bool,
    config: &Config,
) -> anyhow::Result<(RunFolder, crate::output::RunLock)> {
    // Each way takes the folder's lock before it writes anything there;
    // only the same config (and shard) may go on where a run stopped.
    let config_text = std::fs::read(&options.config)
        .with_context(|| format!("cannot read {}", options.config.display()))?;
    Ok(if resumed {
        RunFolder::resume(out, &config_text, options.shard)?
    } else {
        // The folder may be new, or an earlier attempt's that never began.
        let begun = RunFolder::begin(out, &config_text, options.shard)?;
        // The copy of the config resolves its paths from the original's
        // folder (a resume may name the copy).
        write_config_dir(&begun.0.path, &config.base)?;
        begun
    })
}

/// The games an interrupted run has (when `resumed`), read once for the
/// view and the runner; a game cut short by a kill as it was written is
/// said, and played again; a resumed `league` says so first.
fn earlier_games(
    resumed: bool,
    league: bool,
    dir: &RunFolder,
    console: &mut Console<'_>,
) -> anyhow::Result<Option<Arc<crate::output::GamesRead>>> {
    let earlier = if resumed { dir.read_games()? } else { None };
    say_resuming_league(league && resumed, dir, earlier.as_ref(), console);
    if let Some(torn) = earlier.as_ref().and_then(|read| read.torn.as_ref()) {
        console.note(format_args!("arena: {torn}"));
    }
    Ok(earlier.map(Arc::new))
}

/// Starts every bot before any game: why each did not start (`None`: it
/// did). The signals are watched from before the first bot starts: a
/// Ctrl-C while one takes its time to answer stops the check (dropped, it
/// kills its bots) and `cancel` is set, so the run winds down as one
/// interrupted before its first game.
fn check_starts<F: Future<Output = ()>>(
    runtime: &tokio::runtime::Runtime,
    config: &Config,
    dir: &RunFolder,
    run_options: &RunOptions,
    interrupted: &impl Fn() -> F,
    cancel: &CancellationToken,
    console: &mut Console<'_>,
) -> Vec<Option<String>> {
    let checks = runtime.block_on(async {
        tokio::select! {
            biased;
            () = interrupted() => None,
            checks = runner::check_bots(config, dir, run_options) => Some(checks),
        }
    });
    let checks = checks.unwrap_or_else(|| {
        console.note("arena: stopping: the start-up check is abandoned and every bot is stopped");
        cancel.cancel();
        runner::StartChecks {
            failures: vec![None; config.bots.len()],
            ..Default::default()
        }
    });
    for note in &checks.notes {
        console.note(format_args!("arena: {note}"));
    }
    checks.failures
}

/// The bots that did not start (`failures`): an error (`on_start_failure =
/// "stop"`, or a `resumed_league`, whose roster's bots must all start), or
/// each said and left out of `run_options` with the league's bots
/// `not_in_league`, as long as there is still something to play.
fn skip_failed(
    config: &Config,
    failures: &[Option<String>],
    not_in_league: &[usize],
    resumed_league: bool,
    run_options: &mut RunOptions,
    dir: &RunFolder,
    console: &mut Console<'_>,
) -> anyhow::Result<()> {
    let failed = super::not_started(&config.bots, failures);
    // A resumed league pairs its roster's bots: each must start.
    anyhow::ensure!(
        failed.is_empty() || !resumed_league,
        "{}; a resumed league needs every bot in it (roster.csv) to start, whatever on_start_failure says: fix it and resume again (logs in {})",
        failed.join("; "),
        dir.path.join("logs").display()
    );
    if !failed.is_empty() {
        match config.tournament.on_start_failure {
            OnStartFailure::Stop => anyhow::bail!(
                "{}; fix it, or set on_start_failure = \"skip\" in [tournament] to play without it (logs in {})",
                failed.join("; "),
                dir.path.join("logs").display()
            ),
            OnStartFailure::Skip => {
                for line in &failed {
                    console.note(format_args!("arena: {line}; playing without it"));
                }
                // The bot stays in the list, so every series keeps its number
                // (a resume may see another set of bots start).
                run_options.skipped = (0..failures.len())
                    .filter(|&i| failures[i].is_some() || not_in_league.contains(&i))
                    .collect();
                anyhow::ensure!(
                    config.bots.len() - run_options.skipped.len() >= 2,
                    "fewer than two bots started: nothing to play"
                );
                if let crate::format::Format::Gauntlet { candidates } = &config.format {
                    anyhow::ensure!(
                        candidates.iter().any(|c| !run_options.skipped.contains(c)),
                        "no candidate of the gauntlet started, and the other bots never meet: nothing to play; fix a candidate (its error is above) or name others in candidates"
                    );
                }
            }
        }
    }
    Ok(())
}

/// Says what the run will play (bots, series, games, at once, where) and
/// its warnings and notes, writing in `dir`; tells the live view the
/// bound. The bound on the games (`None` for an endless league).
fn announce(
    config: &Config,
    run_options: &RunOptions,
    server: Option<&Server>,
    view: View,
    dir: &RunFolder,
    console: &mut Console<'_>,
) -> Option<u64> {
    let (series, bound) = run_bound(config, run_options, dir);
    if let Some(server) = server {
        // 0: none (an endless league's /state gives null).
        server.bound(if config.format.is_endless() { 0 } else { bound });
        if !config.format.is_static() {
            server.absent(run_options.skipped.clone());
        }
    }
    let playing = |i: &usize| !run_options.skipped.contains(i);
    let at_once = runner::games_at_once(config, run_options.shard, &run_options.skipped);
    // An SPRT match says what it tests: its bound is only max_games.
    let games = match runner::sprt_of(config) {
        Some(s) => format!(
            "an SPRT of [{}, {}] {} to a verdict or {}",
            s.elo0,
            s.elo1,
            crate::matchup::model_words(s.model),
            crate::output::counted(bound, "game", "games")
        ),
        None => format!("at most {}", crate::output::counted(bound, "game", "games")),
    };
    // A league without rounds goes on until stopped: no bound to give.
    let (series_text, games) = match &config.format {
        crate::format::Format::League(l) if l.rounds.is_none() => (
            format!(
                "{} series a round",
                series / crate::format::LEAGUE_MAX_ROUNDS as usize
            ),
            "rounds until stopped (Ctrl-C)".to_string(),
        ),
        _ => (format!("{series} series"), games),
    };
    let start = format!(
        "arena: {}, {series_text}, {games}, {at_once} at once; writing {}",
        crate::output::counted(
            (0..config.bots.len()).filter(playing).count(),
            "bot",
            "bots"
        ),
        dir.path.display()
    );
    // Before the live view starts; wrapped at a terminal's width (whole
    // in a pipe or a log, one line to grep).
    if view != View::Quiet {
        console.note(crate::output::table::wrap_lines(
            &start,
            crate::output::table::stderr_terminal_width(),
        ));
    }
    // Even when quiet: games lost on time to the scheduler look like the
    // bots' fault.
    if let Some(warning) = runner::overload_warning(
        at_once,
        crate::affinity::usable_cores(),
        &runner::tightest_time(&config.bots).unwrap_or(config.time),
    ) {
        console.note(format_args!("arena: {warning}"));
    }
    for note in runner::openings_notes(config, series)
        .into_iter()
        .chain(runner::sprt_note(config))
        .chain(crate::bot::spawn::cgroups_note(config))
        .chain(runner::platform_notes(config))
    {
        console.note(format_args!("arena: {note}"));
    }
    (!config.format.is_endless()).then_some(bound)
}

/// The series the run plays at most, and the games: a resumed league's
/// from its roster (`roster.csv` in `dir`: the bots that came and went,
/// each in its rounds), and never below the games it keeps (a finished
/// one's: those games); else from the config's bots but those skipped.
fn run_bound(config: &Config, run_options: &RunOptions, dir: &RunFolder) -> (usize, u64) {
    let resumed_league = run_options.resume && run_options.league.is_some();
    match runner::roster_series(config, &dir.path).filter(|_| resumed_league) {
        Some(series) => {
            let each = u64::from(runner::series_rule(config, None).bound());
            let kept = run_options.earlier.as_ref().map_or(0, |r| r.rows.len()) as u64;
            let bound = if dir.is_finished() {
                kept
            } else {
                (series * each).max(kept)
            };
            (series as usize, bound)
        }
        None => (
            runner::series_count(config, run_options.shard, &run_options.skipped),
            runner::games_bound(config, run_options.shard, &run_options.skipped),
        ),
    }
}

/// The reporter of `view`: the live view of the bots not `skipped`, or a
/// line per game on the console's status sink.
fn reporter_for<'a>(
    view: View,
    config: &Config,
    skipped: &[usize],
    bound: Option<u64>,
    console: &'a mut Console<'_>,
) -> Box<dyn Reporter + 'a> {
    let playing = |i: &usize| !skipped.contains(i);
    match view {
        View::Live => {
            let mut shown = (*config).clone();
            let mut index = 0..;
            shown
                .bots
                .retain(|_| playing(&index.next().unwrap_or_default()));
            Box::new(progress::Live::new(&shown, bound))
        }
        view => Box::new(
            Lines::new(
                console.status_sink(),
                view == View::Quiet,
                &config.bots[0].name,
            )
            .sprt(config.sprt.is_some()),
        ),
    }
}

/// What the games are played with.
struct Playing<'a> {
    config: &'a Arc<Config>,
    dir: &'a RunFolder,
    run_options: &'a RunOptions,
    cancel: &'a CancellationToken,
    server: Option<&'a Server>,
    /// A league's door: bots that joined or left, changes refused.
    notes: &'a std::sync::mpsc::Receiver<runner::DoorNote>,
    view: View,
}

/// Plays the games, each event to `reporter` and the live view; the first
/// `interrupted` abandons the games in progress and lets the run wind down,
/// a second one returns at once (`None`). The summary, the reporter, and
/// the games counted (from the earlier ones on, the run options' `earlier`).
fn play_games<'r, F: Future<Output = ()>>(
    runtime: &tokio::runtime::Runtime,
    p: &Playing<'_>,
    reporter: Box<dyn Reporter + 'r>,
    interrupted: &impl Fn() -> F,
) -> (
    Option<Result<crate::series::Summary, runner::RunError>>,
    Box<dyn Reporter + 'r>,
    u64,
) {
    let mut reporter = reporter;
    // A resumed run counts on from the games it already has.
    let mut done = match p.run_options.earlier.as_deref() {
        Some(read) => reporter.resumed(&read.rows),
        None => 0,
    };
    let reporter = std::cell::RefCell::new(reporter);
    let names: Vec<&str> = p.config.bots.iter().map(|b| b.name.as_str()).collect();
    let mut rounds = RoundLines::new(p.run_options.resume && p.run_options.league.is_some());
    // A live view that fails does not stop the run: it is said once.
    let mut live_gone = false;
    let outcome = runtime.block_on(async {
        let work = runner::run(p.config.clone(), p.dir, p.run_options, p.cancel, |event| {
            // A league's door first: a bot joins before its round begins.
            door_notes(p, &mut **reporter.borrow_mut(), done);
            let lines = match event {
                runner::Event::Game(_) => {
                    done += 1;
                    rounds.game()
                }
                runner::Event::Stage(stage) => {
                    let line = crate::reporter::stage_line(&p.config.format, &names, stage);
                    let round = stage.series.first().map_or(0, |s| s.round);
                    line.map(|l| rounds.stage(round, l)).unwrap_or_default()
                }
                _ => Vec::new(),
            };
            if p.view != View::Quiet {
                for line in lines {
                    reporter.borrow_mut().note(&line);
                }
            }
            reporter.borrow_mut().event(event);
            if let Some(server) = p.server {
                if !server.event(event) && !live_gone {
                    live_gone = true;
                    reporter.borrow_mut().note("arena: the live view stopped; the run goes on");
                }
            }
        });
        tokio::pin!(work);
        // The first Ctrl-C (or SIGTERM) abandons the games in progress and
        // lets the run wind down; a second one returns at once.
        if !p.cancel.is_cancelled() {
            tokio::select! {
                r = &mut work => return Some(r),
                () = interrupted() => {
                    reporter.borrow_mut().note("arena: stopping: games in progress are abandoned and every bot is stopped (press Ctrl-C again to exit at once)");
                    p.cancel.cancel();
                }
            }
        }
        tokio::select! {
            r = &mut work => Some(r),
            () = interrupted() => None,
        }
    });
    let mut reporter = reporter.into_inner();
    if p.view != View::Quiet {
        for line in rounds.end() {
            reporter.note(&line);
        }
    }
    (outcome, reporter, done)
}

/// What a league's door said since the last event, to `reporter`: its
/// lines, and a bound on the games known anew once bots came or went
/// (`done` so far, and at most the series left, each of its most games),
/// said once and given to the live view.
fn door_notes(p: &Playing<'_>, reporter: &mut dyn Reporter, done: u64) {
    for note in p.notes.try_iter() {
        match note {
            runner::DoorNote::Line(line) => reporter.note(&line),
            runner::DoorNote::SeriesLeft(series) => {
                let each = u64::from(runner::series_rule(p.config, None).bound());
                let bound = done + series * each;
                reporter.note(&format!(
                    "arena: the league's bots changed: it now plays at most {} ({done} so far)",
                    crate::output::counted(bound, "game", "games")
                ));
                reporter.bound(bound);
                if let Some(server) = p.server {
                    server.bound(bound);
                }
            }
        }
    }
}

/// How a run that played its games ends.
struct Finished<'a> {
    options: &'a Options,
    dir: &'a RunFolder,
    /// Why each bot did not start (`None`: it did).
    failures: &'a [Option<String>],
    /// Whether the run was interrupted.
    cancelled: bool,
    league: bool,
}

/// Marks a run that played every game finished and writes the summaries
/// of `summary`, then ends the live view (`server`): the final table. An
/// error leaves a run to go on with.
fn write_results(
    f: &Finished<'_>,
    config: Arc<Config>,
    summary: Result<crate::series::Summary, runner::RunError>,
    server: Option<Server>,
) -> anyhow::Result<String> {
    let (options, dir, failures, league) = (f.options, f.dir, f.failures, f.league);
    // From here on an error (a full disk, say) leaves a run to go on with.
    let go_on = |e: anyhow::Error| {
        anyhow::Error::new(Stopped {
            resume: resume_command(options, &dir.path),
            error: e,
        })
    };
    let mut summary = summary.map_err(|e| go_on(e.into()))?;
    // The bots left out are listed in every summary, with why.
    summary.not_started = failures
        .iter()
        .enumerate()
        .filter_map(|(i, why)| why.clone().map(|why| (i, why)))
        .collect();
    // Every game is in games.csv: the run is finished (the report says so).
    if !f.cancelled {
        dir.mark_finished(summary.games)
            .context("cannot mark the run finished")
            .map_err(go_on)?;
    }
    // A league's bots that joined are named in its summaries.
    let config = if league {
        Arc::new(runner::with_joined(&config, dir).map_err(|e| go_on(e.into()))?)
    } else {
        config
    };
    let table = report::write_summaries(&config, dir, &summary).map_err(|e| go_on(e.into()))?;
    if let Some(server) = server {
        // The pages see the run finished, then the streams end.
        if !f.cancelled {
            server.finish();
        }
        server.stop();
    }
    Ok(table)
}

/// The run's last lines: how to go on with an interrupted one (its `done`
/// games), or where the results are.
fn close(f: &Finished<'_>, done: u64, console: &mut Console<'_>) -> anyhow::Result<Outcome> {
    let (options, dir) = (f.options, f.dir);
    if f.cancelled {
        console.note(format_args!(
            "arena: interrupted; the summaries cover the {} played, in {}",
            crate::output::counted(done, "game", "games"),
            dir.path.display()
        ));
        console.note(format_args!(
            "arena: to go on where it stopped, run (from this folder): {}",
            resume_command(options, &dir.path)
        ));
        return Ok(Outcome::Interrupted);
    }
    if options.view != View::Quiet {
        console.note(format_args!("arena: results in {}", dir.path.display()));
    }
    Ok(Outcome::Success)
}

/// Starts the live view of the run of `config` in `dir` on `listener`, with
/// the games of an interrupted run (`earlier`), and prints its address.
fn serve(
    listener: std::net::TcpListener,
    config: &Config,
    dir: &RunFolder,
    shard: Option<Shard>,
    earlier: Option<&crate::output::GamesRead>,
    console: &mut Console<'_>,
) -> anyhow::Result<Server> {
    let bots: Vec<String> = config.bots.iter().map(|b| b.name.clone()).collect();
    let setup = live::Setup {
        title: config.name.clone(),
        // 0: none (an endless league).
        bound: if config.format.is_endless() {
            0
        } else {
            runner::games_bound(config, shard.filter(|s| !s.is_whole()), &[])
        },
        sprt: runner::sprt_of(config),
        ratings: report::rating_options(&config.ratings, config.tournament.seed, &bots),
        bots,
        follows: true,
        format: config.format.clone(),
        series_rule: Some(runner::series_rule(config, None)),
        folder: Some(dir.path.clone()),
        // `announce` tells it the bots that did not start.
        absent_to_come: !config.format.is_static(),
    };
    let mut state = live::LiveState::new(setup, std::time::Instant::now());
    for row in earlier.iter().flat_map(|read| &read.rows) {
        state.add_earlier(row.clone());
    }
    let server = Server::start(
        listener,
        state,
        Some(dir.path.join(crate::html::REPORT_FILE)),
    )
    .context("--serve")?;
    console.note(format_args!("arena: live view at {}", server.url()));
    if !server.addr().ip().is_loopback() {
        console.note(super::serve::non_loopback_warning(server.addr()));
    }
    Ok(server)
}

/// A run that stopped on an error once its folder held games (a full disk,
/// any write error to the folder): the error, and the command that goes on
/// with the run, which the binary prints after the error, as after a Ctrl-C.
#[derive(Debug)]
pub struct Stopped {
    /// What stopped it.
    pub error: anyhow::Error,
    /// The command that resumes the run, quoted for a POSIX shell.
    pub resume: String,
}

impl std::fmt::Display for Stopped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.error.fmt(f)
    }
}

impl std::error::Error for Stopped {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.error.source()
    }
}

/// The command that resumes the run of `options` in `dir`, quoted for a
/// POSIX shell: this executable as it was called, `run`, the config,
/// `--resume DIR`, and the options a resume must repeat (`--shard`) or
/// would want again (`--transcripts`).
fn resume_command(options: &Options, dir: &std::path::Path) -> String {
    let program = std::env::args_os()
        .next()
        .map_or_else(|| "arena".to_string(), |p| p.to_string_lossy().into_owned());
    let mut words = vec![
        program,
        "run".to_string(),
        options.config.to_string_lossy().into_owned(),
        "--resume".to_string(),
        dir.to_string_lossy().into_owned(),
    ];
    if let Some(shard) = options.shard {
        words.extend(["--shard".to_string(), shard.to_string()]);
    }
    if options.transcripts {
        words.push("--transcripts".to_string());
    }
    shell_words::join(words)
}

/// Writes [`crate::config::CONFIG_DIR_FILE`] into `folder`, beside its copy
/// of the config: `base`, the original config's folder, made absolute.
///
/// # Errors
/// The folder cannot be written.
pub fn write_config_dir(folder: &std::path::Path, base: &std::path::Path) -> anyhow::Result<()> {
    let cwd = std::env::current_dir().context("cannot read the current folder")?;
    let absolute = cwd.join(base);
    let absolute = absolute.canonicalize().unwrap_or(absolute);
    let path = folder.join(crate::config::CONFIG_DIR_FILE);
    // The error names the file.
    Ok(crate::output::write_bytes_atomic(
        &path,
        format!("{}\n", absolute.display()).as_bytes(),
    )?)
}
