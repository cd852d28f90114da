//! `arena tune`: SPSA tuning of a bot's options (docs/tuning.md). Each
//! iteration plays one colour-swapped game pair between the bot at
//! `θ + c·Δ` and at `θ - c·Δ` (or each of them a pair against a fixed
//! `opponent`) through the one match loop ([`crate::runner::run`]), and
//! moves `θ` by the pure step of [`crate::tune::spsa`]. Iterations run
//! `concurrency` at a time, each batch with the `θ` of its start, as
//! fishtest's workers do; `tune.csv` gets one synced row per iteration, and
//! `--resume` replays the recorded results to go on with the same course.

use std::collections::BTreeMap;
use std::future::Future;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::Context as _;
use futures::stream::{FuturesUnordered, StreamExt as _};
use tokio_util::sync::CancellationToken;

use super::{Console, Outcome};
use crate::config::{BotSpec, Config};
use crate::html::TuneSummary;
use crate::output::{RunFolder, RunLock};
use crate::runner::{self, RunOptions};
use crate::standings::{GameResult, Tally, Wdl};
use crate::tune::config::Tune;
use crate::tune::spsa::{final_values, Param, Schedule, Side, Step};
use crate::tunechart::Course;

/// The file of one row per iteration, in the tuning's folder.
pub const TUNE_CSV: &str = "tune.csv";
/// The chart of each parameter's course, in the tuning's folder.
pub const TUNE_SVG: &str = "tune.svg";
/// The file that keeps the batch size (iterations at once) of a tuning, so
/// a resume on another machine keeps its course.
const BATCH_FILE: &str = "tune-batch";

/// What `arena tune` was asked.
#[derive(Clone, Debug)]
pub struct Options {
    /// The config, with its `[tune]` table.
    pub config: PathBuf,
    /// The tuning's folder [default: a new results/NAME-tune-TIMESTAMP].
    pub out: Option<PathBuf>,
    /// Go on with the interrupted tuning in this folder.
    pub resume: Option<PathBuf>,
    /// After tuning, play this many games (rounded up to pairs) of the
    /// tuned values against the start.
    pub verify: Option<u32>,
    /// Serve a live page of the tuning at this `HOST:PORT` while it runs
    /// (as `arena run --serve`).
    pub serve: Option<String>,
    /// The executable that supervises each bot (`arena guard`): this one.
    pub guard: Option<PathBuf>,
}

/// Everything the iterations share.
struct Setup {
    config: Config,
    tune: Tune,
    seed: u64,
    schedule: Schedule,
    dir: RunFolder,
    batch: usize,
    run: RunOptions,
}

impl Setup {
    fn params(&self) -> &[Param] {
        &self.tune.params
    }

    fn start(&self) -> Vec<f64> {
        self.params().iter().map(|p| p.start).collect()
    }
}

/// Tunes the bot: checks it starts (and takes the options), plays every
/// iteration, prints the tuned values as a `[[bot]] options = {...}` line,
/// and with `verify`, plays them against the start and says whether the
/// tuning helped. `interrupted` resolves on Ctrl-C or SIGTERM: the
/// iterations in progress are abandoned, and `--resume` goes on.
///
/// # Errors
/// A bad config or `[tune]` table, a folder that cannot be written or
/// resumed, a bot that does not start, a `tune.csv` that does not fit.
pub fn run<F: Future<Output = ()>>(
    options: &Options,
    console: &mut Console<'_>,
    interrupted: impl Fn() -> F,
) -> anyhow::Result<Outcome> {
    // The live view's address is taken first: a bad one, or one in use,
    // stops the tuning before anything is written.
    let listener = options
        .serve
        .as_deref()
        .map(|a| crate::live::parse_addr(a).and_then(crate::live::bind))
        .transpose()
        .context("--serve")?;
    let (setup, _lock) = prepare(options)?;
    let server = listener.map(|l| serve(l, &setup, console)).transpose()?;
    let outcome = tune(options, &setup, server.as_ref(), console, interrupted);
    if let Some(server) = server {
        server.finish();
        server.stop();
    }
    outcome
}

/// The tuning itself, once the folder is taken: see [`run`].
fn tune<F: Future<Output = ()>>(
    options: &Options,
    setup: &Setup,
    server: Option<&crate::live::Server>,
    console: &mut Console<'_>,
    interrupted: impl Fn() -> F,
) -> anyhow::Result<Outcome> {
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    check(setup, &runtime, console)?;
    let header = header(setup.params());
    let (mut log, done) = TuneLog::open(
        &setup.dir.path.join(TUNE_CSV),
        &header,
        options.resume.is_some().then_some(setup.tune.pairs),
    )?;
    console.note(format_args!(
        "arena: tuning {} ({}) over {}, {} at once; writing {}",
        setup.config.bots[setup.tune.bot].name,
        setup
            .params()
            .iter()
            .map(|p| p.name.as_str())
            .collect::<Vec<_>>()
            .join(", "),
        crate::output::counted(setup.tune.pairs, "iteration", "iterations"),
        setup.batch,
        setup.dir.path.display()
    ));
    let cancel = CancellationToken::new();
    let mut history = Vec::new();
    let watch = async {
        interrupted().await;
        cancel.cancel();
        std::future::pending::<()>().await;
    };
    let mut watcher = Watcher {
        server,
        history: &mut history,
    };
    let theta = runtime.block_on(async {
        tokio::select! {
            r = course(setup, &mut log, done, &cancel, console, &mut watcher) => r,
            () = watch => unreachable!("the watch never ends"),
        }
    })?;
    write_chart(setup, &history)?;
    let mut summary = summary(setup, &history, theta.is_none());
    summary.options_line = theta
        .as_ref()
        .map(|t| options_line(setup.params(), &final_values(setup.params(), t)));
    write_report(setup, &summary, None)?;
    let Some(theta) = theta else {
        console.note(format_args!(
            "arena: interrupted; to go on where it stopped, run (from this folder): {}",
            resume_command(options, &setup.dir.path)
        ));
        return Ok(Outcome::Interrupted);
    };
    console.note(format_args!(
        "arena: tuned; every iteration is in {}",
        setup.dir.path.join(TUNE_CSV).display()
    ));
    console.print(summary.options_line.clone().unwrap_or_default());
    match options.verify {
        Some(games) => {
            let watch = async {
                interrupted().await;
                cancel.cancel();
                std::future::pending::<()>().await;
            };
            runtime.block_on(async {
                tokio::select! {
                    r = verify(setup, &theta, games, &cancel, console, &mut summary) => r,
                    () = watch => unreachable!("the watch never ends"),
                }
            })
        }
        None => Ok(Outcome::Success),
    }
}

/// Reads the config and its `[tune]`, and takes the folder (new, or the
/// one to resume, which must hold the same config).
fn prepare(options: &Options) -> anyhow::Result<(Setup, RunLock)> {
    let path = &options.config;
    let host = super::host();
    let text = (host.read)(path).with_context(|| format!("cannot read {}", path.display()))?;
    // Without [tune] the tuning's own line, not the tournament's (a config
    // that does not parse gets the config's).
    if let Ok(table) = text.parse::<toml::Table>() {
        anyhow::ensure!(
            table.contains_key("tune"),
            "{}: no [tune] table: add [tune] with bot = \"NAME\" and pairs = N, and a [[tune.param]] table per parameter (docs/tuning.md)",
            path.display()
        );
    }
    let config = Config::load(path, &host)?;
    let tune = crate::tune::config::parse(&text, &path.display().to_string(), &config.bots)?;
    let (dir, lock) = match (&options.out, &options.resume) {
        (_, Some(dir)) => RunFolder::resume(dir, text.as_bytes(), None)?,
        (out, None) => {
            let out = match out {
                Some(dir) => dir.clone(),
                None => crate::report::claim_run_dir(&format!("{}-tune", config.name))
                    .context("cannot create a folder in results/")?,
            };
            anyhow::ensure!(
                !out.join(TUNE_CSV).exists(),
                "{} already holds a tuning: choose another --out, or go on with it: arena tune {} --resume {}",
                out.display(),
                path.display(),
                out.display()
            );
            let begun = RunFolder::begin(&out, text.as_bytes(), None)?;
            super::run::write_config_dir(&begun.0.path, &config.base)?;
            begun
        }
    };
    // The batch size is the course's: a resume keeps the first run's.
    let batch_file = dir.path.join(BATCH_FILE);
    let batch = match std::fs::read_to_string(&batch_file) {
        Ok(text) if options.resume.is_some() => text
            .trim()
            .parse::<usize>()
            .ok()
            .filter(|&b| b > 0)
            .with_context(|| {
                format!(
                    "{} is not a number of iterations at once: restore it or start afresh",
                    batch_file.display()
                )
            })?,
        Err(_) if options.resume.is_some() && has_rows(&dir.path.join(TUNE_CSV)) => {
            anyhow::bail!(
                "{} is missing: it holds how many iterations ran at once, which the course depends on; write that number (the tuning's first concurrency) into it, or start afresh",
                batch_file.display()
            )
        }
        _ => {
            let batch = config.tournament.concurrency.max(1);
            crate::output::write_bytes_atomic(&batch_file, format!("{batch}\n").as_bytes())?;
            batch
        }
    };
    let seed = tune.seed.unwrap_or(config.tournament.seed);
    let schedule = Schedule::new(tune.pairs);
    let run = RunOptions {
        guard: options.guard.clone(),
        ..RunOptions::default()
    };
    Ok((
        Setup {
            config,
            tune,
            seed,
            schedule,
            dir,
            batch,
            run,
        },
        lock,
    ))
}

/// The bot at the start values (and the opponent) must start; options the
/// bot does not list are noted, as `arena run` does, and a tuned one the
/// bot does not list (when it lists any) is refused.
fn check(
    setup: &Setup,
    runtime: &tokio::runtime::Runtime,
    console: &mut Console<'_>,
) -> anyhow::Result<()> {
    let start: Vec<String> = final_values(setup.params(), &setup.start());
    let mut config = setup.config.clone();
    config.bots = std::iter::once(variant(
        &setup.config.bots[setup.tune.bot],
        "start",
        setup.params(),
        &start,
    ))
    .chain(setup.tune.opponent.map(|o| setup.config.bots[o].clone()))
    .collect();
    let checks = runtime.block_on(runner::check_bots(&config, &setup.dir, &setup.run));
    for note in &checks.notes {
        console.note(format_args!("arena: {note}"));
    }
    let failed = super::not_started(&config.bots, &checks.failures);
    anyhow::ensure!(
        failed.is_empty(),
        "{}; fix it (logs in {})",
        failed.join("; "),
        setup.dir.path.join("logs").display()
    );
    // A tuned option the bot does not list would spend the whole budget on
    // a value it ignores: refused, where `arena run` only notes it.
    let ignored: Vec<&str> = setup
        .params()
        .iter()
        .map(|p| p.name.as_str())
        .filter(|n| {
            checks
                .unlisted
                .first()
                .is_some_and(|u| u.iter().any(|x| x == n))
        })
        .collect();
    anyhow::ensure!(
        ignored.is_empty(),
        "bot '{}' does not list option {} in its hello reply, so the tuning would move a value it ignores: fix the [[tune.param]] name (the note above lists the bot's options)",
        setup.config.bots[setup.tune.bot].name,
        ignored.join(", ")
    );
    Ok(())
}

/// `bot` named `NAME.suffix`, with `params` set to `values` among its options.
fn variant(bot: &BotSpec, suffix: &str, params: &[Param], values: &[String]) -> BotSpec {
    let mut spec = bot.clone();
    spec.name = format!("{}.{suffix}", bot.name);
    for (p, v) in params.iter().zip(values) {
        spec.options.retain(|(name, _)| *name != p.name);
        spec.options.push((p.name.clone(), v.clone()));
    }
    spec.options.sort();
    spec
}

/// A match of `bots` in the config's settings: one series of `games`
/// games on `lanes` lanes, no SPRT, its openings drawn for `k` (a book's
/// lines taken in turn from line `k`).
fn match_config(setup: &Setup, bots: Vec<BotSpec>, games: u32, lanes: usize, k: u64) -> Config {
    let mut config = setup.config.clone();
    let origin = config.bot_origins[setup.tune.bot].clone();
    config.bot_origins = vec![origin; bots.len()];
    config.bots = bots;
    config.format = crate::format::Format::RoundRobin;
    config.sprt = None;
    config.tournament.first_to = games;
    config.tournament.max_games = games;
    config.tournament.concurrency = lanes;
    // Iterations at once each play on one lane: pinned, each would take
    // the first core.
    config.tournament.affinity &= lanes > 1 || setup.batch == 1;
    config.tournament.seed = config.tournament.seed.wrapping_add(k);
    if let Some(book) = &mut config.opening_book {
        let len = book.len();
        book.rotate_left((k % len as u64) as usize);
    }
    config
}

/// Plays the match `config` in a fresh folder `folder` (an earlier
/// attempt's games there are dropped): the first bot's W/D/L, or `None`
/// when `cancel` cut it short.
async fn play(
    setup: &Setup,
    folder: &Path,
    config: Config,
    cancel: &CancellationToken,
) -> anyhow::Result<Option<Wdl>> {
    if folder.exists() {
        std::fs::remove_dir_all(folder)
            .with_context(|| format!("cannot clear {}", folder.display()))?;
    }
    let dir = RunFolder::create(folder)?;
    let summary = runner::run(Arc::new(config), &dir, &setup.run, cancel, |_| {}).await?;
    if cancel.is_cancelled() {
        return Ok(None);
    }
    Ok(summary.series.first().filter(|s| s.over).map(|s| s.wdl))
}

/// The iterations played (from 0), each with the `θ` it was played from
/// and its result.
type Played = BTreeMap<u64, (Vec<f64>, f64)>;

/// One iteration's record: a row of `tune.csv`.
struct Row {
    k: u64,
    theta: Vec<f64>,
    step: Step,
    plus: Vec<String>,
    minus: Vec<String>,
    /// `θ + c·Δ`'s W/D/L (against `θ - c·Δ`, or against the opponent).
    wdl: Wdl,
    /// Wins minus losses of `θ + c·Δ` over its pair; with an opponent,
    /// that less the same of `θ - c·Δ` over its own pair.
    result: f64,
}

/// Plays iteration `k` from `theta`; `None` if `cancel` cut it short.
async fn iteration(
    setup: &Setup,
    k: u64,
    theta: &[f64],
    cancel: &CancellationToken,
) -> anyhow::Result<Option<Row>> {
    let params = setup.params();
    let step = setup.schedule.step(params, setup.seed, k);
    let plus = step.options(params, theta, Side::Plus, setup.seed);
    let minus = step.options(params, theta, Side::Minus, setup.seed);
    let bot = &setup.config.bots[setup.tune.bot];
    let (plus_bot, minus_bot) = (
        variant(bot, "plus", params, &plus),
        variant(bot, "minus", params, &minus),
    );
    let folder = setup
        .dir
        .path
        .join("iterations")
        .join(format!("{:06}", k + 1));
    let net = |w: &Wdl| f64::from(w.wins) - f64::from(w.losses);
    let (wdl, result) = match setup.tune.opponent {
        None => {
            let config = match_config(setup, vec![plus_bot, minus_bot], 2, 1, k);
            let Some(wdl) = play(setup, &folder, config, cancel).await? else {
                return Ok(None);
            };
            (wdl, net(&wdl))
        }
        Some(o) => {
            let opponent = setup.config.bots[o].clone();
            let up = match_config(setup, vec![plus_bot, opponent.clone()], 2, 1, k);
            let down = match_config(setup, vec![minus_bot, opponent], 2, 1, k);
            let (plus_dir, minus_dir) = (folder.join("plus"), folder.join("minus"));
            let (a, b) = futures::join!(
                play(setup, &plus_dir, up, cancel),
                play(setup, &minus_dir, down, cancel)
            );
            let (Some(a), Some(b)) = (a?, b?) else {
                return Ok(None);
            };
            (a, net(&a) - net(&b))
        }
    };
    Ok(Some(Row {
        k,
        theta: theta.to_vec(),
        step,
        plus,
        minus,
        wdl,
        result,
    }))
}

/// Plays the iterations not in `done` (iteration -> its `θ` and result),
/// a batch at a time, writing each one's row as it ends; the final `θ`,
/// or `None` if `cancel` fired first.
async fn course(
    setup: &Setup,
    log: &mut TuneLog,
    mut done: Played,
    cancel: &CancellationToken,
    console: &mut Console<'_>,
    watcher: &mut Watcher<'_>,
) -> anyhow::Result<Option<Vec<f64>>> {
    let (params, n) = (setup.params(), setup.tune.pairs);
    let mut theta = setup.start();
    watcher.batch_ended(setup, 0, &theta);
    let mut shown = 0;
    for first in (0..n).step_by(setup.batch) {
        let ks = first..(first + setup.batch as u64).min(n);
        for k in ks.clone() {
            if let Some((played, _)) = done.get(&k) {
                anyhow::ensure!(
                    *played == theta,
                    "{}: iteration {} was played from {played:?}, and this course reaches {theta:?} there: resume only with the tuning's own config",
                    log.path.display(),
                    k + 1
                );
            }
        }
        let mut pending: FuturesUnordered<_> = ks
            .clone()
            .filter(|k| !done.contains_key(k))
            .map(|k| iteration(setup, k, &theta, cancel))
            .collect();
        while let Some(row) = pending.next().await {
            if let Some(row) = row? {
                log.append(&row)?;
                done.insert(row.k, (row.theta, row.result));
            }
        }
        drop(pending);
        if cancel.is_cancelled() || ks.clone().any(|k| !done.contains_key(&k)) {
            return Ok(None);
        }
        for k in ks.clone() {
            theta = setup
                .schedule
                .step(params, setup.seed, k)
                .update(params, &theta, done[&k].1);
        }
        watcher.batch_ended(setup, ks.end, &theta);
        // A line every twentieth of the course.
        if ks.end * 20 / n > shown || ks.end == n {
            shown = ks.end * 20 / n;
            console.note(format_args!(
                "arena: {}/{n} iterations: {}",
                ks.end,
                values_text(params, &theta)
            ));
        }
    }
    Ok(Some(theta))
}

/// What follows the course as batches end: the history of `θ` (for
/// `tune.svg` and the report) and the live view, if served.
struct Watcher<'a> {
    server: Option<&'a crate::live::Server>,
    history: &'a mut Vec<(u64, Vec<f64>)>,
}

impl Watcher<'_> {
    /// `θ` after `played` iterations: into the history, and to the live
    /// page as the tuning's section.
    fn batch_ended(&mut self, setup: &Setup, played: u64, theta: &[f64]) {
        self.history.push((played, theta.to_vec()));
        if let Some(server) = self.server {
            let summary = summary(setup, self.history, false);
            server.tune(crate::html::tune_section(&summary).into_string());
        }
    }
}

/// Starts the live view of the tuning on `listener` and prints its address.
fn serve(
    listener: std::net::TcpListener,
    setup: &Setup,
    console: &mut Console<'_>,
) -> anyhow::Result<crate::live::Server> {
    let live = crate::live::Setup {
        title: format!("{} (tuning)", setup.config.name),
        follows: true,
        ..crate::live::Setup::default()
    };
    let state = crate::live::LiveState::new(live, std::time::Instant::now());
    let report = Some(setup.dir.path.join(crate::html::REPORT_FILE));
    let server = crate::live::Server::start(listener, state, report).context("--serve")?;
    console.note(format_args!("arena: live view at {}", server.url()));
    if !server.addr().ip().is_loopback() {
        console.note(super::serve::non_loopback_warning(server.addr()));
    }
    Ok(server)
}

/// The tuning's section as `history` (`θ` after each batch) has it.
fn summary(setup: &Setup, history: &[(u64, Vec<f64>)], interrupted: bool) -> TuneSummary {
    TuneSummary {
        bot: setup.config.bots[setup.tune.bot].name.clone(),
        pairs: setup.tune.pairs,
        courses: courses(setup, history),
        start: setup.start(),
        options_line: None,
        verdict: None,
        interrupted,
    }
}

/// Each parameter's course in `history`.
fn courses(setup: &Setup, history: &[(u64, Vec<f64>)]) -> Vec<Course> {
    setup
        .params()
        .iter()
        .enumerate()
        .map(|(i, p)| Course {
            name: p.name.clone(),
            range: (p.min, p.max),
            points: history.iter().map(|(k, theta)| (*k, theta[i])).collect(),
        })
        .collect()
}

/// Writes the tuning's `report.html` (with the verification match `verify`).
fn write_report(
    setup: &Setup,
    summary: &TuneSummary,
    verify: Option<&crate::matchup::Matchup>,
) -> anyhow::Result<()> {
    crate::html::write_tune_report(&setup.dir.path, summary, verify).with_context(|| {
        format!(
            "cannot write {}",
            setup.dir.path.join(crate::html::REPORT_FILE).display()
        )
    })
}

/// Writes `tune.svg`: each parameter's `θ` after each batch so far.
fn write_chart(setup: &Setup, history: &[(u64, Vec<f64>)]) -> anyhow::Result<()> {
    let courses = courses(setup, history);
    let path = setup.dir.path.join(TUNE_SVG);
    crate::output::write_bytes_atomic(&path, crate::tunechart::tune_svg(&courses).as_bytes())
        .with_context(|| format!("cannot write {}", path.display()))
}

/// `name = value, ...` of `theta`, for the status lines.
fn values_text(params: &[Param], theta: &[f64]) -> String {
    params
        .iter()
        .zip(theta)
        .map(|(p, v)| format!("{} = {v:.4}", p.name))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The line to paste into the tuned bot's `[[bot]]` table.
fn options_line(params: &[Param], values: &[String]) -> String {
    let items: Vec<String> = params
        .iter()
        .zip(values)
        .map(|(p, v)| format!("{} = {v}", p.name))
        .collect();
    format!("[[bot]] options = {{ {} }}", items.join(", "))
}

/// `tune.csv`'s columns for `params`.
fn header(params: &[Param]) -> Vec<String> {
    let mut h = vec!["iteration".to_string()];
    for p in params {
        for what in ["", "_delta", "_c", "_a", "_plus", "_minus"] {
            h.push(format!("{}{what}", p.name));
        }
    }
    h.extend(["wins", "draws", "losses", "result"].map(String::from));
    h
}

/// `tune.csv`, appended to a synced row at a time.
struct TuneLog {
    path: PathBuf,
    file: std::fs::File,
}

impl TuneLog {
    /// Creates the file with `header`, or (`resume`, with the tuning's
    /// pairs) reopens it: a torn last line is dropped, and the rows read
    /// back (iteration from 0 -> its `θ` and result), each checked: an
    /// iteration of the budget not seen before, two games, a result a
    /// pair can have.
    fn open(
        path: &Path,
        header: &[String],
        resume: Option<u64>,
    ) -> anyhow::Result<(TuneLog, Played)> {
        let mut done = BTreeMap::new();
        // A file cut before the end of its header is started afresh.
        let text = if resume.is_some() && path.exists() {
            std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?
        } else {
            Vec::new()
        };
        if text.contains(&b'\n') {
            let whole = text.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
            let file = std::fs::OpenOptions::new()
                .write(true)
                .open(path)
                .with_context(|| format!("cannot reopen {}", path.display()))?;
            file.set_len(whole as u64)?;
            let mut reader = csv::Reader::from_reader(&text[..whole]);
            let found: Vec<String> = reader.headers()?.iter().map(String::from).collect();
            anyhow::ensure!(found == header, "{} has other columns than this config's parameters: resume only with the tuning's own config", path.display());
            let width = header.len();
            for record in reader.records() {
                let record = record.with_context(|| format!("{} has a bad row", path.display()))?;
                let num = |i: usize| -> anyhow::Result<f64> {
                    record.get(i).and_then(|s| s.parse().ok()).with_context(|| {
                        format!(
                            "{}: a row has no number in column {}",
                            path.display(),
                            header[i]
                        )
                    })
                };
                let line = record.position().map_or(0, csv::Position::line);
                let bad = |why: &str| {
                    anyhow::anyhow!(
                        "{}: line {line}: {why}: the file is the tuning's own; restore it or start afresh",
                        path.display()
                    )
                };
                let pairs = resume.unwrap_or(u64::MAX);
                let k = num(0)?;
                if k.fract() != 0.0 || k < 1.0 || k > pairs as f64 {
                    return Err(bad(&format!("iteration {k} is not one of 1 to {pairs}")));
                }
                let k = k as u64 - 1;
                let games = num(width - 4)? + num(width - 3)? + num(width - 2)?;
                let result = num(width - 1)?;
                if games != 2.0 || !(-4.0..=4.0).contains(&result) {
                    return Err(bad("a pair's row has two games and a result from -4 to 4"));
                }
                let theta = (0..(width - 5) / 6)
                    .map(|i| num(1 + 6 * i))
                    .collect::<anyhow::Result<Vec<f64>>>()?;
                if done.insert(k, (theta, result)).is_some() {
                    return Err(bad(&format!("iteration {} is there twice", k + 1)));
                }
            }
            let file = std::fs::OpenOptions::new().append(true).open(path)?;
            return Ok((
                TuneLog {
                    path: path.to_path_buf(),
                    file,
                },
                done,
            ));
        }
        let mut file = std::fs::File::create(path)
            .with_context(|| format!("cannot create {}", path.display()))?;
        file.write_all(&csv_line(header)?)?;
        file.sync_data()?;
        Ok((
            TuneLog {
                path: path.to_path_buf(),
                file,
            },
            done,
        ))
    }

    /// Appends `row`, one write and a sync (as `games.csv`'s rows).
    fn append(&mut self, row: &Row) -> anyhow::Result<()> {
        let mut fields = vec![(row.k + 1).to_string()];
        for i in 0..row.theta.len() {
            fields.push(row.theta[i].to_string());
            fields.push(row.step.delta[i].to_string());
            fields.push(row.step.c[i].to_string());
            fields.push(row.step.a[i].to_string());
            fields.push(row.plus[i].clone());
            fields.push(row.minus[i].clone());
        }
        fields.extend([row.wdl.wins, row.wdl.draws, row.wdl.losses].map(|x| x.to_string()));
        fields.push(row.result.to_string());
        self.file
            .write_all(&csv_line(&fields)?)
            .and_then(|()| self.file.sync_data())
            .with_context(|| format!("cannot append to {}", self.path.display()))
    }
}

/// One CSV line of `fields`.
fn csv_line(fields: &[String]) -> anyhow::Result<Vec<u8>> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(fields)?;
    w.into_inner().map_err(|e| anyhow::anyhow!("{e}"))
}

/// The command that goes on with the tuning in `dir`.
fn resume_command(options: &Options, dir: &Path) -> String {
    let verify = options
        .verify
        .map(|g| format!(" --verify {g}"))
        .unwrap_or_default();
    format!(
        "arena tune {} --resume {}{verify}",
        options.config.display(),
        dir.display()
    )
}

/// Plays `games` games (whole pairs) of the tuned values `theta` against
/// the start in `DIR/verify`, prints the match's summary and one line of
/// verdict: the tuning helped when the tuned values' LOS is at least 95%.
async fn verify(
    setup: &Setup,
    theta: &[f64],
    games: u32,
    cancel: &CancellationToken,
    console: &mut Console<'_>,
    report: &mut TuneSummary,
) -> anyhow::Result<Outcome> {
    let games = games.clamp(2, u32::MAX - 1).div_ceil(2) * 2;
    let params = setup.params();
    let bot = &setup.config.bots[setup.tune.bot];
    let tuned = variant(bot, "tuned", params, &final_values(params, theta));
    let start = variant(bot, "start", params, &final_values(params, &setup.start()));
    let names = [tuned.name.clone(), start.name.clone()];
    let lanes = setup.config.tournament.concurrency.max(1);
    let config = match_config(setup, vec![tuned, start], games, lanes, 0);
    let folder = verify_folder(&setup.dir.path);
    console.note(format_args!(
        "arena: verifying: {games} games of the tuned values against the start, in {}",
        folder.display()
    ));
    if folder.exists() {
        std::fs::remove_dir_all(&folder)
            .with_context(|| format!("cannot clear {}", folder.display()))?;
    }
    let dir = RunFolder::create(&folder)?;
    let mut tally = Tally::new(2);
    let config = Arc::new(config);
    let summary = runner::run(config.clone(), &dir, &setup.run, cancel, |event| {
        if let runner::Event::Game(g) = event {
            let index = |n: &str| usize::from(n != names[0]);
            tally.add(GameResult {
                series: g.series as u64,
                game: g.game,
                south: index(&g.bots[0]),
                north: index(&g.bots[1]),
                winner: g.winner,
                forfeit: false,
            });
        }
    })
    .await?;
    if cancel.is_cancelled() {
        console.note("arena: interrupted; the tuning is whole, and a --resume of it plays the verification again");
        return Ok(Outcome::Interrupted);
    }
    let table = crate::report::write_summaries(&config, &dir, &summary)?;
    let played = summary.series.iter().map(|s| s.wdl.games() as usize).sum();
    dir.mark_finished(played)
        .with_context(|| format!("cannot mark {} finished", folder.display()))?;
    console.print(table);
    let m = crate::matchup::matchup(&names, &tally, 0, None, None)
        .context("the verification played no game")?;
    let line = verdict(&m);
    console.print(&line);
    report.verdict = Some(line);
    write_report(setup, report, Some(&m))?;
    Ok(Outcome::Success)
}

/// Whether the `tune.csv` at `path` holds a row past its header.
fn has_rows(path: &Path) -> bool {
    std::fs::read(path).is_ok_and(|t| t.iter().filter(|&&b| b == b'\n').count() > 1)
}

/// The folder of a new verification in the tuning folder `dir`: `verify`,
/// or `verify-2`, `verify-3`, ... after finished ones, which are kept (an
/// interrupted one, without its `finished` marker, is played again).
fn verify_folder(dir: &Path) -> std::path::PathBuf {
    (1u32..)
        .map(|n| match n {
            1 => dir.join("verify"),
            n => dir.join(format!("verify-{n}")),
        })
        .find(|f| !f.join("finished").exists())
        .expect("an unfinished folder name comes")
}

/// The one line that says whether the tuning helped, from the tuned
/// values' side of the verification match.
fn verdict(m: &crate::matchup::Matchup) -> String {
    let los = m.elo.los;
    let word = if los >= 0.95 {
        "the tuning helped"
    } else if los <= 0.05 {
        "the tuning made it worse"
    } else {
        "no clear difference"
    };
    format!(
        "verify: {word}: tuned vs start {}-{}-{} over {}, Elo {}, LOS {:.1}%",
        m.wdl.wins,
        m.wdl.draws,
        m.wdl.losses,
        crate::matchup::games_and_pairs(m.wdl.games(), m.pentanomial.pairs()),
        crate::matchup::elo_text(&m.elo),
        100.0 * los
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn param(name: &str, integer: bool) -> Param {
        Param {
            name: name.into(),
            start: 1.0,
            min: 0.0,
            max: 2.0,
            c_end: 0.1,
            r_end: 0.01,
            integer,
        }
    }

    #[test]
    fn the_options_line_and_the_header_name_each_parameter() {
        let ps = [param("exploration", false), param("depth", true)];
        assert_eq!(
            options_line(&ps, &["0.7".into(), "3".into()]),
            "[[bot]] options = { exploration = 0.7, depth = 3 }"
        );
        let h = header(&ps);
        assert_eq!(h.len(), 1 + 12 + 4);
        assert_eq!(&h[..3], ["iteration", "exploration", "exploration_delta"]);
    }

    #[test]
    fn a_variant_replaces_the_tuned_options_and_keeps_the_others() {
        let mut bot = BotSpec::new(
            "m",
            vec!["x".into()],
            crate::config::TimeControl::per_move(100, 1000),
        );
        bot.options = vec![
            ("exploration".into(), "1".into()),
            ("playouts".into(), "200".into()),
        ];
        let v = variant(
            &bot,
            "plus",
            &[param("exploration", false)],
            &["1.5".into()],
        );
        assert_eq!(v.name, "m.plus");
        assert_eq!(
            v.options,
            vec![
                ("exploration".into(), "1.5".into()),
                ("playouts".into(), "200".into())
            ]
        );
    }
}
