//! `arena bench`: what the arena costs per ply, measured side by side with
//! the physical floor, a line's round trip over a pipe to a child that
//! answers at once.
//!
//! One run measures:
//!
//! - **the floor**: this process writes a `turn`-sized line to a minimal
//!   child (`arena bench-echo`, which answers every line with `move 1`)
//!   and reads the answer, over the same kind of pipes the arena uses;
//!   blocking (the physical floor), on tokio's runtimes, and with both
//!   processes pinned to one core or to two;
//! - **the arena**: whole games between two instant bots (`arena bot
//!   first`, under the guard, as a tournament starts them) through the
//!   referee, bots kept across the games as in a series: wall time per ply,
//!   the arena process's own CPU time per ply (`getrusage(RUSAGE_SELF)`,
//!   every thread), and the bots' and guards' CPU (`RUSAGE_CHILDREN`, once
//!   they have been reaped); on either tokio runtime, pinned to one core,
//!   and with the bots restarted every game; and a bot's start and stop;
//! - **rules only**: the same games replayed with no process at all (the
//!   engine; the engine with the referee's formatting and parsing; the
//!   bot's side of the protocol, in memory);
//! - **throughput**: whole tournaments of four instant bots through the
//!   runner (with `games.csv` synced per game), at concurrency 1 and at the
//!   number of cores, with and without `affinity`, each in a child process
//!   that reports its own figures;
//! - with `--scale`, tournaments of N instant bots, first to 3: total time,
//!   games per second, and the arena process's peak RSS as games accumulate.
//!
//! Nothing here asserts a time: the figures are printed, and written to a
//! CSV file with `--out`.

use std::io::{BufRead as _, BufReader, Write as _};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context as _, Result};
use endodoi::{Move, Rules};
use tokio::io::{AsyncBufReadExt as _, AsyncWriteExt as _};
use tokio_util::sync::CancellationToken;

use super::{Console, Outcome};

mod league;
use crate::affinity::{allowed_cores, pinned};
use crate::bot::{BotLog, BotProcess, StartOptions};
use crate::config::{BotSpec, CgroupMode, Config, TimeControl};
use crate::output::RunFolder;
use crate::platform::Whose;
use crate::referee::{play_game, Seat};
use crate::runner::{self, Event, RunOptions};

/// What `arena bench` was asked (the defaults are the command line's).
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Write every figure to FILE as CSV (columns: section, figure, value,
    /// unit, x_floor, note).
    pub out: Option<PathBuf>,
    /// A run of a few seconds for CI: every measurement with small counts
    /// (with --scale, the smallest tournament only). Its figures are noisy;
    /// nothing about time is asserted either way.
    pub smoke: bool,
    /// Also play the scaling tournaments: N instant bots for each N of
    /// --scale-bots, first to 3, at concurrency = cores.
    pub scale: bool,
    /// The bot counts of --scale.
    pub scale_bots: Vec<usize>,
    /// Games between the two instant bots, per arena measurement.
    pub games: u32,
    /// Line round trips per floor measurement.
    pub round_trips: u32,
    /// Run only these sections (comma separated: floor, arena, rules,
    /// throughput, scale, league), e.g. to profile one of them; the floor
    /// always runs, as the figures' yardstick. `scale` here implies
    /// --scale; `league` (simulated leagues) runs only when named.
    pub only: Vec<String>,
    /// Internal: play the tournament of this config in this process and
    /// print its figures on one line (how --scale and the throughput runs
    /// measure a tournament's own peak RSS).
    pub tournament: Option<PathBuf>,
    /// Internal: the run folder of --tournament.
    pub tournament_dir: Option<PathBuf>,
}

/// `arena bench-echo`: answers every line on standard input with `move 1`
/// on standard output, flushed, until the end of its input: the minimal
/// child of the floor measurement.
///
/// # Errors
/// An I/O error on standard input or output.
pub fn echo(
    mut input: impl std::io::BufRead,
    mut output: impl std::io::Write,
) -> std::io::Result<()> {
    let mut line = Vec::with_capacity(256);
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line)? == 0 {
            return Ok(());
        }
        output.write_all(b"move 1\n")?;
        output.flush()?;
    }
}

/// One measured figure: a row of the CSV.
#[derive(Clone, Debug, PartialEq)]
pub struct Figure {
    /// The part of the benchmark: `context`, `floor`, `arena`, `rules`,
    /// `throughput`, `scale`.
    pub section: &'static str,
    /// What was measured.
    pub figure: String,
    /// The value, in `unit`.
    pub value: f64,
    /// The unit: `us` (microseconds), `ns`, `games/s`, `MiB`, `s`, `count`...
    pub unit: &'static str,
    /// The value over the floor's median round trip, for times per ply.
    pub x_floor: Option<f64>,
    /// How it was measured.
    pub note: String,
}

/// Round-trip (or per-ply) times in microseconds, and CPU time per unit.
#[derive(Clone, Debug, Default)]
struct Times {
    /// Each sample, µs, sorted.
    samples: Vec<f64>,
    /// The process's own CPU time per unit, µs.
    cpu_us: f64,
}

impl Times {
    fn new(mut samples: Vec<f64>, cpu: Duration, units: u64) -> Times {
        samples.sort_by(f64::total_cmp);
        Times {
            samples,
            cpu_us: cpu.as_secs_f64() * 1e6 / units.max(1) as f64,
        }
    }

    fn quantile(&self, q: f64) -> f64 {
        if self.samples.is_empty() {
            return 0.0;
        }
        let i = ((self.samples.len() - 1) as f64 * q).round() as usize;
        self.samples[i]
    }

    fn median(&self) -> f64 {
        self.quantile(0.5)
    }

    fn mean(&self) -> f64 {
        self.samples.iter().sum::<f64>() / self.samples.len().max(1) as f64
    }
}

/// CPU time (user + system) of `who` so far (zero where the system will
/// not say, [`crate::platform::cpu_time`]).
fn cpu(who: Whose) -> Duration {
    crate::platform::cpu_time(who).unwrap_or_default()
}

/// Peak resident set size of this program so far, KiB
/// ([`crate::platform::peak_rss_kib`]; 0 where the system will not say).
fn max_rss_kib() -> u64 {
    crate::platform::peak_rss_kib().unwrap_or(0)
}

/// The 1-, 5- and 15-minute load averages, as `/proc/loadavg` has them.
fn load_average() -> String {
    crate::platform::load_average().unwrap_or_else(|| "unknown".into())
}

/// The cores this process may run on.
fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Where the floor's two processes run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pin {
    /// Wherever the scheduler puts them.
    Free,
    /// Both on the first allowed core.
    OneCore,
    /// This process on the first allowed core, the child on the second.
    TwoCores,
}

impl Pin {
    fn name(self) -> &'static str {
        match self {
            Pin::Free => "unpinned",
            Pin::OneCore => "both pinned to one core",
            Pin::TwoCores => "pinned to two cores",
        }
    }
}

/// A `turn` line as long as a mid-game one on `rules`' board.
fn turn_line(rules: Rules) -> String {
    let mut pos = rules.start();
    let mut last = None;
    for _ in 0..6 {
        if let Some(mv) = pos.legal_moves().first() {
            let _ = pos.play(mv);
            last = Some(mv);
        }
    }
    let mut buf = String::new();
    endodoi_protocol::write_line(
        &mut buf,
        &endodoi_protocol::Turn::new(&pos, last, pos.legal_moves(), 1000, None),
    );
    buf
}

fn echo_command(exe: &Path) -> Command {
    let mut cmd = Command::new(exe);
    cmd.arg("bench-echo")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit());
    cmd
}

/// The floor: `n` round trips of `line` to `arena bench-echo` with blocking
/// reads and writes (one `write` and one `read` each way).
fn floor_blocking(exe: &Path, line: &str, n: u32, pin: Pin) -> Result<Times> {
    let allowed = allowed_cores();
    let (mine, child) = match (pin, allowed.as_slice()) {
        (Pin::Free, _) | (_, []) => (None, None),
        (Pin::OneCore, [a, ..]) => (Some(*a), Some(*a)),
        (Pin::TwoCores, [a, b, ..]) => (Some(*a), Some(*b)),
        (Pin::TwoCores, [_]) => bail!("one core only: cannot pin to two"),
    };
    let mut cmd = echo_command(exe);
    if let Some(core) = child {
        crate::platform::pin_child(&mut cmd, core);
    }
    pinned(mine, || -> Result<Times> {
        let mut child = cmd.spawn().context("cannot start arena bench-echo")?;
        let mut stdin = child.stdin.take().expect("piped");
        let mut stdout = BufReader::new(child.stdout.take().expect("piped"));
        let mut reply = Vec::with_capacity(64);
        let mut trips = RoundTrips::new(n);
        for i in 0..trips.count() {
            let t = trips.start(i);
            stdin.write_all(line.as_bytes())?;
            reply.clear();
            stdout.read_until(b'\n', &mut reply)?;
            trips.done(i, t);
        }
        let times = trips.times();
        drop(stdin);
        let _ = child.wait();
        Ok(times)
    })
}

/// The round trips of an echo floor: `n` timed ones after `n / 10 + 10` to
/// warm up, and this process's CPU time over the timed ones.
struct RoundTrips {
    n: u32,
    warm: u32,
    /// The timed trips' durations, µs.
    samples: Vec<f64>,
    /// This process's CPU time when the first timed trip started.
    cpu0: Duration,
}

impl RoundTrips {
    fn new(n: u32) -> RoundTrips {
        RoundTrips {
            n,
            warm: n / 10 + 10,
            samples: Vec::with_capacity(n as usize),
            cpu0: Duration::ZERO,
        }
    }

    /// The trips to make, the warm-up included.
    fn count(&self) -> u32 {
        self.warm + self.n
    }

    /// Trip `i` starts now (the CPU count too, at the first timed one).
    fn start(&mut self, i: u32) -> Instant {
        if i == self.warm {
            self.cpu0 = cpu(Whose::ThisProcess);
        }
        Instant::now()
    }

    /// Trip `i`, started at `t`, is back: timed unless it warmed up.
    fn done(&mut self, i: u32, t: Instant) {
        if i >= self.warm {
            self.samples.push(t.elapsed().as_secs_f64() * 1e6);
        }
    }

    /// The timed trips and the CPU time used since the first of them.
    fn times(self) -> Times {
        let used = cpu(Whose::ThisProcess) - self.cpu0;
        Times::new(self.samples, used, u64::from(self.n))
    }
}

/// Which tokio runtime to measure on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Flavor {
    /// `new_current_thread`: everything on this thread.
    CurrentThread,
    /// `new_multi_thread` with a worker per core, as `arena run` uses.
    MultiThread,
}

impl Flavor {
    fn runtime(self) -> Result<tokio::runtime::Runtime> {
        let mut builder = match self {
            Flavor::CurrentThread => tokio::runtime::Builder::new_current_thread(),
            Flavor::MultiThread => tokio::runtime::Builder::new_multi_thread(),
        };
        builder
            .enable_all()
            .build()
            .context("cannot start a runtime")
    }

    fn name(self) -> &'static str {
        match self {
            Flavor::CurrentThread => "tokio current-thread",
            Flavor::MultiThread => "tokio multi-thread",
        }
    }
}

/// The floor through tokio's pipes, as the arena reads and writes them:
/// `write_all` and `flush` on the child's stdin, a buffered line read.
fn floor_tokio(exe: &Path, line: &str, n: u32, flavor: Flavor) -> Result<Times> {
    let runtime = flavor.runtime()?;
    let mut cmd = tokio::process::Command::from(echo_command(exe));
    cmd.kill_on_drop(true);
    runtime.block_on(async {
        let mut child = cmd.spawn().context("cannot start arena bench-echo")?;
        let mut stdin = child.stdin.take().expect("piped");
        let mut stdout = tokio::io::BufReader::new(child.stdout.take().expect("piped"));
        let mut reply = Vec::with_capacity(64);
        let mut trips = RoundTrips::new(n);
        for i in 0..trips.count() {
            let t = trips.start(i);
            stdin.write_all(line.as_bytes()).await?;
            stdin.flush().await?;
            reply.clear();
            stdout.read_until(b'\n', &mut reply).await?;
            trips.done(i, t);
        }
        let times = trips.times();
        drop(stdin);
        let _ = child.wait().await;
        Ok(times)
    })
}

/// The instant bot, as a config names it.
fn first_bot(name: &str) -> BotSpec {
    BotSpec::new(
        name,
        vec!["arena".into(), "bot".into(), "first".into()],
        time_control(),
    )
}

/// `spec` with `[limits] cgroups = mode`.
fn with_cgroups(mut spec: BotSpec, mode: CgroupMode) -> BotSpec {
    spec.limits.cgroups = mode;
    spec
}

/// The time control of every benchmark game: the defaults.
fn time_control() -> TimeControl {
    TimeControl {
        move_time_ms: crate::config::DEFAULT_MOVE_TIME_MS,
        base_time_ms: 0,
        increment_ms: 0,
        margin_ms: crate::config::DEFAULT_MARGIN_MS,
        startup_ms: crate::config::DEFAULT_STARTUP_MS,
    }
}

/// A game as played: its moves, the first `opening` of them the referee's.
#[derive(Clone, Debug)]
struct Played {
    moves: Vec<Move>,
    opening: usize,
}

/// What a run of games through the referee measured.
#[derive(Clone, Debug)]
struct ArenaRun {
    /// Wall time per ply of each game (the game's time over its bots'
    /// plies), µs; and the arena's own CPU per ply.
    per_ply: Times,
    /// Wall time per ply over all the games, µs.
    mean_us: f64,
    /// The bots' and guards' CPU per ply, µs, over their whole lives.
    children_cpu_us: f64,
    /// Plies the bots played.
    plies: u64,
    /// The games, for the replay without processes.
    played: Vec<Played>,
}

/// How the arena measurement is set up.
#[derive(Clone, Copy, Debug)]
struct ArenaSetup {
    flavor: Flavor,
    /// Pin this thread (so the runtime, the guards and the bots, which
    /// inherit it) to one core.
    pin: bool,
    /// Stop both bots after every game and start them again, instead of
    /// keeping them across the series.
    restart: bool,
    /// The bots' `[limits] cgroups` (the arena figures: off, the path
    /// before per-bot cgroups; the fairness section: both).
    cgroups: CgroupMode,
}

/// `games` games between two `arena bot first` under the guard, through
/// [`play_game`], openings of 2 to 4 plies varying by game pair, the bots
/// kept across games (or restarted, with `setup.restart`). One game before
/// the timing starts the bots and warms up.
fn arena_games(exe: &Path, rules: Rules, games: u32, setup: ArenaSetup) -> Result<ArenaRun> {
    let core = setup
        .pin
        .then(|| allowed_cores().first().copied())
        .flatten();
    pinned(core, || {
        let runtime = setup.flavor.runtime()?;
        let children0 = cpu(Whose::ReapedChildren);
        // A task, as the runner's series are (on a multi-thread runtime,
        // block_on's own future would run on this thread, not a worker).
        let task = arena_games_async(exe.to_path_buf(), rules, games, setup);
        let out = runtime
            .block_on(runtime.spawn(task))
            .context("the benchmark task failed")?;
        drop(runtime);
        let mut out = out?;
        out.children_cpu_us =
            (cpu(Whose::ReapedChildren) - children0).as_secs_f64() * 1e6 / out.plies.max(1) as f64;
        Ok(out)
    })
}

async fn arena_games_async(
    exe: PathBuf,
    rules: Rules,
    games: u32,
    setup: ArenaSetup,
) -> Result<ArenaRun> {
    let restart = setup.restart;
    let cancel = CancellationToken::new();
    let seat = |name: &str| Seat {
        spec: with_cgroups(first_bot(name), setup.cgroups),
        process: None,
        log: BotLog::none(),
        log_prefix: "bench".into(),
        guard: Some(exe.to_path_buf()),
        transcripts: None,
    };
    let mut seats = [seat("first-a"), seat("first-b")];
    let mut samples = Vec::with_capacity(games as usize);
    let mut played = Vec::with_capacity(games as usize);
    let (mut plies, mut wall) = (0u64, Duration::ZERO);
    let mut cpu0 = Duration::ZERO;
    for game in 0..=games {
        if game == 1 {
            cpu0 = cpu(Whose::ThisProcess);
        }
        let pair = game.div_ceil(2).max(1);
        let opening = crate::schedule::opening(&rules, 1, 1, pair, 2..=4);
        let [a, b] = &mut seats;
        let order = if game % 2 == 0 { [a, b] } else { [b, a] };
        let t = Instant::now();
        let record = play_game(rules, order, &opening, (1, game.max(1)), &cancel)
            .await
            .expect("never cancelled");
        let took = t.elapsed();
        if record.end.is_forfeit() {
            bail!("a benchmark game ended by a fault: {}", record.detail);
        }
        let bot_plies = u64::from(record.plies) - opening.len() as u64;
        if game > 0 {
            plies += bot_plies;
            wall += took;
            samples.push(took.as_secs_f64() * 1e6 / bot_plies.max(1) as f64);
            let moves = record
                .moves
                .split_whitespace()
                .filter_map(|m| endodoi_protocol::parse_move(m).ok())
                .collect();
            played.push(Played {
                moves,
                opening: opening.len(),
            });
        }
        if restart {
            for s in &mut seats {
                if let Some(p) = s.process.take() {
                    p.shutdown(true).await;
                }
            }
        }
    }
    let used = cpu(Whose::ThisProcess) - cpu0;
    for s in seats {
        if let Some(p) = s.process {
            p.shutdown(true).await;
        }
    }
    Ok(ArenaRun {
        per_ply: Times::new(samples, used, plies),
        mean_us: wall.as_secs_f64() * 1e6 / plies.max(1) as f64,
        children_cpu_us: 0.0,
        plies,
        played,
    })
}

/// Each bot's start and stop, `n` times each, the bots taking turns (so a
/// change in the machine's load falls on all of them alike): from the spawn
/// under the guard to its answer to `hello`, and from `quit` to the
/// process reaped (µs).
fn bot_lifecycle(exe: &Path, n: u32, specs: &[BotSpec]) -> Result<Vec<(Times, Times)>> {
    let runtime = Flavor::CurrentThread.runtime()?;
    runtime.block_on(async {
        let mut samples = vec![(Vec::new(), Vec::new()); specs.len()];
        for _ in 0..n {
            for (spec, (starts, stops)) in specs.iter().zip(&mut samples) {
                let options = StartOptions {
                    startup: Duration::from_millis(crate::config::DEFAULT_STARTUP_MS),
                    guard: Some(exe),
                    log: BotLog::none(),
                    log_prefix: "bench".into(),
                    transcript: None,
                };
                let t = Instant::now();
                let bot = BotProcess::start(spec, options)
                    .await
                    .map_err(|f| anyhow::anyhow!("bot {} did not start: {f}", spec.name))?;
                starts.push(t.elapsed().as_secs_f64() * 1e6);
                let t = Instant::now();
                bot.shutdown(true).await;
                stops.push(t.elapsed().as_secs_f64() * 1e6);
            }
        }
        Ok(samples
            .into_iter()
            .map(|(starts, stops)| {
                (
                    Times::new(starts, Duration::ZERO, 1),
                    Times::new(stops, Duration::ZERO, 1),
                )
            })
            .collect())
    })
}

/// The instant bot in the sandbox (`sandbox = true`, the defaults), in a
/// fresh folder of its own that its host user can reach; `None` without
/// bubblewrap.
fn sandboxed_first_bot() -> Result<Option<(BotSpec, tempfile::TempDir)>> {
    if !crate::platform::SANDBOX || crate::bot::spawn::bubblewrap().is_none() {
        return Ok(None);
    }
    let dir = tempfile::tempdir()?;
    crate::platform::set_mode(dir.path(), 0o755)?;
    let mut spec = first_bot("first-sandboxed");
    spec.dir = Some(dir.path().to_path_buf());
    spec.sandbox = Some(crate::config::SandboxSpec::default());
    crate::bot::spawn::check(&spec, &tokio_util::sync::CancellationToken::new())?;
    Ok(Some((spec, dir)))
}

/// The per-bot cgroups' cost (`[limits] cgroups`, docs/sandbox.md): the
/// time per ply of instant bots with the freeze and thaw around every
/// request, beside the same games without cgroups, unpinned and pinned,
/// in alternating chunks so the machine's load falls on both alike; and
/// the start of a bot, plain and sandboxed, with and without its cgroups.
/// Says so and measures nothing where the host gives no freezer.
fn fairness(
    report: &mut Report<'_, '_>,
    exe: &Path,
    rules: Rules,
    games: u32,
    smoke: bool,
) -> Result<()> {
    let host = crate::cgroup::Cgroups::host();
    if !host.enforces(crate::cgroup::Control::Freeze) {
        let why = format!("fairness: skipped: {}", host.summary());
        report
            .console
            .print(table_row(["fairness", &why, "", "", ""]));
        return Ok(());
    }
    let chunks = 4;
    let per_chunk = games.div_ceil(chunks).max(1);
    for pin in [false, true] {
        let mut samples = [Vec::new(), Vec::new()];
        for _ in 0..chunks {
            for (i, cgroups) in [CgroupMode::Off, CgroupMode::Auto].into_iter().enumerate() {
                let setup = ArenaSetup {
                    flavor: Flavor::CurrentThread,
                    pin,
                    restart: false,
                    cgroups,
                };
                samples[i].extend(arena_games(exe, rules, per_chunk, setup)?.per_ply.samples);
            }
        }
        let [off, on] = samples.map(|s| Times::new(s, Duration::ZERO, 1).median());
        let pinned = if pin {
            "pinned to one core"
        } else {
            "unpinned"
        };
        let note = format!(
            "{} games each, in {chunks} alternating chunks",
            per_chunk * chunks
        );
        report.add(
            "fairness",
            format!("time per ply, {pinned}, cgroups off"),
            off,
            "us",
            &note,
        );
        report.add(
            "fairness",
            format!("time per ply, {pinned}, cgroups on"),
            on,
            "us",
            &note,
        );
        let rt = report.floor_us.map_or(String::new(), |f| {
            format!(": {:.2} pipe round trips (the floor)", (on - off) / f)
        });
        report.add(
            "fairness",
            format!("the freeze and thaw per ply, {pinned}"),
            on - off,
            "us",
            format!("cgroups on minus off{rt}"),
        );
    }
    let mut specs = vec![
        with_cgroups(first_bot("first"), CgroupMode::Off),
        with_cgroups(first_bot("first"), CgroupMode::Auto),
    ];
    let sandboxed = sandboxed_first_bot()?;
    if let Some((spec, _)) = &sandboxed {
        specs.push(with_cgroups(spec.clone(), CgroupMode::Off));
        specs.push(with_cgroups(spec.clone(), CgroupMode::Auto));
    }
    let times = bot_lifecycle(exe, if smoke { 5 } else { 40 }, &specs)?;
    for (i, (starts, _)) in times.iter().enumerate() {
        let what = if i < 2 { "a bot" } else { "a sandboxed bot" };
        let with = if i % 2 == 0 { "without" } else { "with" };
        report.add(
            "fairness",
            format!("start {what} {with} its cgroups (spawn to hello): median"),
            starts.median() / 1e3,
            "ms",
            "arena bot first under the guard, the four kinds taking turns",
        );
    }
    Ok(())
}

/// The games replayed with no process: the engine alone (legal moves and
/// the move, each ply), and the engine with the referee's own work per ply
/// (the `turn` line, the reply parsed, the move list). ns per bot ply, for
/// each; repeated for at least `budget`.
fn rules_only(rules: Rules, played: &[Played], budget: Duration) -> (f64, f64) {
    let replies: Vec<String> = (0..=rules.holes()).map(|h| format!("move {h}")).collect();
    let bot_plies: u64 = played
        .iter()
        .map(|g| (g.moves.len() - g.opening) as u64)
        .sum();
    let run = |referee: bool| -> f64 {
        let mut buf = String::with_capacity(256);
        let mut list = String::with_capacity(4096);
        let (mut rounds, t) = (0u64, Instant::now());
        while rounds == 0 || t.elapsed() < budget {
            for g in played {
                let mut pos = rules.start();
                let mut last = None;
                list.clear();
                for (i, &mv) in g.moves.iter().enumerate() {
                    if i >= g.opening {
                        let legal = pos.legal_moves();
                        std::hint::black_box(legal);
                        if referee {
                            endodoi_protocol::write_line(
                                &mut buf,
                                &endodoi_protocol::Turn::new(&pos, last, legal, 1000, None),
                            );
                            let reply = &replies[usize::from(mv.hole())];
                            std::hint::black_box(endodoi_protocol::Reply::parse(reply).ok());
                        }
                    }
                    pos.play(mv).expect("a recorded move replays");
                    if referee {
                        use std::fmt::Write as _;
                        let _ = write!(list, "{mv} ");
                    }
                    last = Some(mv);
                }
                std::hint::black_box(&pos);
            }
            rounds += 1;
        }
        t.elapsed().as_secs_f64() * 1e9 / (rounds * bot_plies.max(1)) as f64
    };
    (run(false), run(true))
}

/// The bot's side of the games, in memory: [`endodoi_bots::run`] with
/// [`endodoi_bots::First`] over every `turn` line the games sent (and a
/// `newgame` per game), its replies into a buffer. ns per turn; repeated
/// for at least `budget`.
fn bot_only(rules: Rules, played: &[Played], budget: Duration) -> f64 {
    let mut input = String::from("hello version=1\n");
    let mut buf = String::new();
    let mut turns = 0u64;
    for g in played {
        input.push_str("newgame holes=8 seeds=4 side=south move_time_ms=1000 base_time_ms=0 increment_ms=0 max_plies=1000 max_laps=100000 series=1 game=1\n");
        let mut pos = rules.start();
        let mut last = None;
        for (i, &mv) in g.moves.iter().enumerate() {
            if i >= g.opening {
                endodoi_protocol::write_line(
                    &mut buf,
                    &endodoi_protocol::Turn::new(&pos, last, pos.legal_moves(), 1000, None),
                );
                input.push_str(&buf);
                turns += 1;
            }
            pos.play(mv).expect("a recorded move replays");
            last = Some(mv);
        }
    }
    let mut output = Vec::with_capacity(16 * turns as usize + 64);
    let (mut rounds, t) = (0u64, Instant::now());
    while rounds == 0 || t.elapsed() < budget {
        output.clear();
        endodoi_bots::run(endodoi_bots::First, input.as_bytes(), &mut output)
            .expect("in-memory I/O");
        std::hint::black_box(&output);
        rounds += 1;
    }
    t.elapsed().as_secs_f64() * 1e9 / (rounds * turns.max(1)) as f64
}

/// The config of a tournament of `bots` instant bots, first to `first_to`,
/// `concurrency` series at once, pinned to cores or not (`affinity`).
#[must_use]
pub fn tournament_config(bots: usize, first_to: u32, concurrency: usize, affinity: bool) -> String {
    let mut text = format!(
        "# arena bench: {bots} instant bots (arena bot first), first to {first_to}\n\
         name = \"bench-{bots}\"\n\n[tournament]\nfirst_to = {first_to}\n\
         concurrency = {concurrency}\naffinity = {affinity}\n\n"
    );
    for i in 1..=bots {
        text.push_str(&format!(
            "[[bot]]\nname = \"first-{i:02}\"\ncommand = [\"arena\", \"bot\", \"first\"]\n\n"
        ));
    }
    text
}

/// What one tournament measured (in its own process).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TournamentFigures {
    /// Games played.
    pub games: u64,
    /// Bot plies played (without the openings).
    pub plies: u64,
    /// Wall time of the games, from the runner's start to its end, s.
    pub games_s: f64,
    /// Wall time of the summaries (ratings, report), s.
    pub summary_s: f64,
    /// The arena process's CPU time (all threads), s.
    pub cpu_s: f64,
    /// The bots' and guards' CPU time, s.
    pub children_cpu_s: f64,
    /// Peak RSS after a quarter of the series, KiB.
    pub rss_quarter_kib: u64,
    /// Peak RSS after all the games, before the summaries, KiB.
    pub rss_games_kib: u64,
    /// Peak RSS at the end, summaries included, KiB.
    pub rss_end_kib: u64,
}

impl TournamentFigures {
    fn to_line(&self) -> String {
        format!(
            "games={} plies={} games_s={} summary_s={} cpu_s={} children_cpu_s={} rss_quarter_kib={} rss_games_kib={} rss_end_kib={}",
            self.games,
            self.plies,
            self.games_s,
            self.summary_s,
            self.cpu_s,
            self.children_cpu_s,
            self.rss_quarter_kib,
            self.rss_games_kib,
            self.rss_end_kib
        )
    }

    fn from_line(line: &str) -> Option<TournamentFigures> {
        let mut f = TournamentFigures::default();
        for word in line.split_whitespace() {
            let (key, value) = word.split_once('=')?;
            match key {
                "games" => f.games = value.parse().ok()?,
                "plies" => f.plies = value.parse().ok()?,
                "games_s" => f.games_s = value.parse().ok()?,
                "summary_s" => f.summary_s = value.parse().ok()?,
                "cpu_s" => f.cpu_s = value.parse().ok()?,
                "children_cpu_s" => f.children_cpu_s = value.parse().ok()?,
                "rss_quarter_kib" => f.rss_quarter_kib = value.parse().ok()?,
                "rss_games_kib" => f.rss_games_kib = value.parse().ok()?,
                "rss_end_kib" => f.rss_end_kib = value.parse().ok()?,
                _ => {}
            }
        }
        Some(f)
    }
}

/// `arena bench --tournament CONFIG --tournament-dir DIR`: plays the
/// tournament in this process, as `arena run` does (the same runner, bots
/// under the guard, `games.csv` synced per game, then the summaries), and
/// prints its [`TournamentFigures`] on one line.
///
/// # Errors
/// A config that does not load, or the runner's own failures.
pub fn tournament(config: &Path, dir: &Path, console: &mut Console<'_>) -> Result<()> {
    let config = Arc::new(Config::load(config, &super::host())?);
    let dir = RunFolder::create(dir)?;
    let options = RunOptions {
        guard: std::env::current_exe().ok(),
        ..RunOptions::default()
    };
    let series = runner::series_count(&config, None, &[]);
    let mut series_done = 0usize;
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    let cancel = CancellationToken::new();
    let mut f = TournamentFigures::default();
    let children0 = cpu(Whose::ReapedChildren);
    let t = Instant::now();
    let summary = runtime.block_on(runner::run(
        config.clone(),
        &dir,
        &options,
        &cancel,
        |event| match event {
            Event::Game(g) => {
                f.games += 1;
                f.plies += u64::from(g.plies) - g.opening.split_whitespace().count() as u64;
            }
            Event::Series(_) => {
                series_done += 1;
                if f.rss_quarter_kib == 0 && series_done * 4 >= series {
                    f.rss_quarter_kib = max_rss_kib();
                }
            }
            Event::Sprt(_) | Event::Stage(_) => {}
        },
    ))?;
    f.games_s = t.elapsed().as_secs_f64();
    drop(runtime);
    f.rss_games_kib = max_rss_kib();
    f.children_cpu_s = (cpu(Whose::ReapedChildren) - children0).as_secs_f64();
    let t = Instant::now();
    crate::report::write_summaries(&config, &dir, &summary)?;
    f.summary_s = t.elapsed().as_secs_f64();
    f.rss_end_kib = max_rss_kib();
    f.cpu_s = cpu(Whose::ThisProcess).as_secs_f64();
    console.print(f.to_line());
    Ok(())
}

/// Plays a tournament of `bots` instant bots in a child process (`arena
/// bench --tournament`) and returns what it measured.
fn tournament_child(
    exe: &Path,
    bots: usize,
    first_to: u32,
    concurrency: usize,
    affinity: bool,
) -> Result<TournamentFigures> {
    let tmp = tempfile::tempdir().context("cannot create a temporary folder")?;
    let config = tmp.path().join("bench.toml");
    let text = tournament_config(bots, first_to, concurrency, affinity);
    std::fs::write(&config, text)?;
    let run_dir = tmp.path().join("run");
    let out = Command::new(exe)
        .arg("bench")
        .arg("--tournament")
        .arg(&config)
        .arg("--tournament-dir")
        .arg(&run_dir)
        .stderr(Stdio::inherit())
        .output()
        .context("cannot start arena bench --tournament")?;
    let text = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        bail!(
            "the tournament of {bots} bots failed ({}): {text}",
            out.status
        );
    }
    TournamentFigures::from_line(text.trim())
        .with_context(|| format!("unreadable figures from the tournament: {text}"))
}

/// Collects the figures and prints each as it comes.
struct Report<'c, 'o> {
    figures: Vec<Figure>,
    floor_us: Option<f64>,
    console: &'c mut Console<'o>,
}

/// The printed table's columns but the figure's, characters: section,
/// value, unit, ratio to the floor. The figure takes the rest of stdout's
/// width ([`crate::output::table::stdout_width`]), wrapped in its column.
const COLUMNS: [u16; 4] = [10, 10, 7, 7];

/// The most characters the figure column takes: the longest name
/// (`bots' and guards' CPU per ply, current-thread, pinned to one core
/// (affinity = true)`) fits on a wide terminal.
const FIGURE_WIDTH: u16 = 84;

/// One row of the printed table, laid out in its fixed columns.
fn table_row(cells: [&str; 5]) -> String {
    use crate::output::table::{render_fixed, stdout_width, Align};
    let [section, value, unit, ratio] = COLUMNS;
    let gaps = 2 * 4;
    let figure = stdout_width()
        .saturating_sub(section + value + unit + ratio + gaps)
        .clamp(16, FIGURE_WIDTH);
    render_fixed(
        &[cells.map(String::from).to_vec()],
        &[
            Align::Left,
            Align::Left,
            Align::Right,
            Align::Left,
            Align::Right,
        ],
        &[section, figure, value, unit, ratio],
    )
}

impl Report<'_, '_> {
    /// Says, in one row, that `figure` of `section` is not measured, and why.
    fn skip(&mut self, section: &'static str, figure: &str, why: &str) {
        let line = format!("{figure}: skipped, {why}");
        self.console.print(table_row([section, &line, "", "", ""]));
    }

    fn add(
        &mut self,
        section: &'static str,
        figure: impl Into<String>,
        value: f64,
        unit: &'static str,
        note: impl Into<String>,
    ) {
        let figure = figure.into();
        // Only wall times compare with the floor's round trip; CPU times
        // are a process's share of it.
        let x_floor = match (unit, self.floor_us) {
            ("us", Some(floor))
                if !figure.contains("CPU") && (section != "floor" || figure.contains("median")) =>
            {
                Some(value / floor)
            }
            _ => None,
        };
        let ratio = x_floor.map_or_else(String::new, |x| format!("{x:.2}x"));
        let shown = format!("{value:.3}");
        self.console
            .print(table_row([section, &figure, &shown, unit, &ratio]));
        self.figures.push(Figure {
            section,
            figure,
            value,
            unit,
            x_floor,
            note: note.into(),
        });
    }

    fn times(&mut self, section: &'static str, what: &str, t: &Times, note: &str) {
        self.add(section, format!("{what}: median"), t.median(), "us", note);
        self.add(section, format!("{what}: mean"), t.mean(), "us", note);
        self.add(
            section,
            format!("{what}: 99th percentile"),
            t.quantile(0.99),
            "us",
            note,
        );
    }

    fn write_csv(&self, path: &Path) -> Result<()> {
        use crate::output::rows::{BenchRow, CsvRow as _};
        let mut w = csv::WriterBuilder::new()
            .has_headers(false)
            .from_path(path)
            .with_context(|| format!("cannot write {}", path.display()))?;
        w.write_record(BenchRow::COLUMNS)?;
        for f in &self.figures {
            w.serialize(BenchRow {
                section: f.section.to_string(),
                figure: f.figure.clone(),
                value: format!("{:.3}", f.value),
                unit: f.unit.to_string(),
                x_floor: f.x_floor.map_or_else(String::new, |x| format!("{x:.3}")),
                note: f.note.clone(),
            })?;
        }
        w.flush()?;
        Ok(())
    }
}

/// The 1-minute load average, and the three as text.
fn load_now() -> (f64, String) {
    let text = load_average();
    let one = text
        .split_whitespace()
        .next()
        .and_then(|l| l.parse().ok())
        .unwrap_or(-1.0);
    (one, text)
}

/// The sections of `arena bench`, for `--only`.
pub const SECTIONS: [&str; 7] = [
    "floor",
    "arena",
    "fairness",
    "rules",
    "throughput",
    "scale",
    "league",
];

/// `arena bench`: every measurement in turn, printed as it is made; the
/// figures go to `--out` as CSV. With `--tournament`, the hidden child mode.
///
/// # Errors
/// A measurement that cannot run (the arena's own executable or a bot
/// cannot start, a game ends by a fault), or a CSV that cannot be written.
pub fn run(args: &Options, console: &mut Console<'_>) -> Result<Outcome> {
    if let (Some(config), Some(dir)) = (&args.tournament, &args.tournament_dir) {
        tournament(config, dir, console)?;
        return Ok(Outcome::Success);
    }
    // Before minutes of measuring, not after.
    check_args(args)?;
    let wanted = |section: &str| args.only.is_empty() || args.only.iter().any(|s| s == section);
    let exe = std::env::current_exe().context("cannot find the arena's own executable")?;
    let rules = Rules::new(crate::config::DEFAULT_HOLES, crate::config::DEFAULT_SEEDS)?;
    let (round_trips, games) = if args.smoke {
        (args.round_trips.min(2_000), args.games.min(20))
    } else {
        (args.round_trips, args.games)
    };
    let cores = cores();
    let mut report = Report {
        figures: Vec::new(),
        floor_us: None,
        console,
    };
    let (load, load_text) = load_now();
    report.console.print(format_args!(
        "arena bench{}: 2x8, {round_trips} round trips per floor, {games} games per arena figure; {cores} cores, load average {load_text}",
        if args.smoke { " --smoke" } else { "" },
    ));
    report
        .console
        .print(table_row(["section", "figure", "value", "unit", "x floor"]));
    report.add(
        "context",
        "cores",
        cores as f64,
        "count",
        "available_parallelism",
    );
    report.add(
        "context",
        "load average (1 min) at the start",
        load,
        "load",
        load_text,
    );

    // (a) The floor, always: it is every other figure's yardstick.
    floor_section(&mut report, &exe, rules, round_trips)?;
    // (b) The arena; (d) the same games without processes.
    let played = arena_section(
        &mut report,
        &exe,
        rules,
        games,
        wanted("arena"),
        wanted("rules"),
    )?;
    if wanted("arena") {
        lifecycle_section(&mut report, &exe, args.smoke)?;
    }
    if wanted("fairness") {
        fairness(&mut report, &exe, rules, games, args.smoke)?;
    }
    if wanted("rules") {
        rules_section(&mut report, rules, &played, args.smoke);
    }
    // (c) Throughput through the runner, in a child process each.
    if wanted("throughput") {
        throughput_section(&mut report, &exe, cores, args.smoke)?;
    }
    // (4) Scale.
    if args.scale || args.only.iter().any(|s| s == "scale") {
        scale_section(&mut report, &exe, args, cores)?;
    }
    // (5) The league's pairing, on simulated populations: only when asked.
    if args.only.iter().any(|s| s == "league") {
        league::section(&mut report, args.smoke);
    }
    let (load, load_text) = load_now();
    report.add(
        "context",
        "load average (1 min) at the end",
        load,
        "load",
        load_text,
    );
    if let Some(path) = &args.out {
        report.write_csv(path)?;
        report
            .console
            .print(format_args!("figures written to {}", path.display()));
    }
    Ok(Outcome::Success)
}

/// That `--out`'s folder exists and each `--only` names a section.
fn check_args(args: &Options) -> Result<()> {
    if let Some(folder) = args.out.as_deref().and_then(Path::parent) {
        anyhow::ensure!(
            folder.as_os_str().is_empty() || folder.is_dir(),
            "--out {}: the folder {} does not exist: create it, or write the CSV elsewhere",
            args.out.as_deref().unwrap_or(folder).display(),
            folder.display()
        );
    }
    if let Some(bad) = args.only.iter().find(|s| !SECTIONS.contains(&s.as_str())) {
        bail!("--only {bad}: the sections are {}", SECTIONS.join(", "));
    }
    Ok(())
}

/// (a) The floor: a bare round trip to a child that echoes, blocking
/// (unpinned, on one core, on two) and under each tokio runtime.
fn floor_section(
    report: &mut Report<'_, '_>,
    exe: &Path,
    rules: Rules,
    round_trips: u32,
) -> Result<()> {
    let line = turn_line(rules);
    let note = format!("{}-byte turn line, 7-byte reply", line.len());
    let floor = floor_blocking(exe, &line, round_trips, Pin::Free)?;
    report.floor_us = Some(floor.median());
    report.times("floor", "round trip, blocking, unpinned", &floor, &note);
    let cpu_note = "getrusage(RUSAGE_SELF) per round trip";
    report.add(
        "floor",
        "round trip, blocking: this process's CPU",
        floor.cpu_us,
        "us",
        cpu_note,
    );
    for pin in [Pin::OneCore, Pin::TwoCores] {
        if !crate::platform::AFFINITY {
            let figure = format!("round trip, blocking, {}", pin.name());
            report.skip("floor", &figure, crate::platform::NO_AFFINITY);
            continue;
        }
        if pin == Pin::TwoCores && allowed_cores().len() < 2 {
            continue;
        }
        let t = floor_blocking(exe, &line, round_trips, pin)?;
        report.add(
            "floor",
            format!("round trip, blocking, {}: median", pin.name()),
            t.median(),
            "us",
            &note,
        );
    }
    for flavor in [Flavor::CurrentThread, Flavor::MultiThread] {
        let t = floor_tokio(exe, &line, round_trips, flavor)?;
        let name = flavor.name();
        report.add(
            "floor",
            format!("round trip, {name}: median"),
            t.median(),
            "us",
            &note,
        );
        report.add(
            "floor",
            format!("round trip, {name}: this process's CPU"),
            t.cpu_us,
            "us",
            cpu_note,
        );
    }

    Ok(())
}

/// (b) The arena's games under each runtime and pinning (`wanted_arena`),
/// or just enough of them to replay (`wanted_rules`): the games played.
fn arena_section(
    report: &mut Report<'_, '_>,
    exe: &Path,
    rules: Rules,
    games: u32,
    wanted_arena: bool,
    wanted_rules: bool,
) -> Result<Vec<Played>> {
    let setup = |flavor, pin, restart| ArenaSetup {
        flavor,
        pin,
        restart,
        cgroups: CgroupMode::Off,
    };
    let setups = [
        (
            "multi-thread runtime (the runner before)",
            setup(Flavor::MultiThread, false, false),
        ),
        (
            "current-thread runtime (as arena run)",
            setup(Flavor::CurrentThread, false, false),
        ),
        (
            "current-thread, pinned to one core (affinity = true)",
            setup(Flavor::CurrentThread, true, false),
        ),
        (
            "current-thread, bots restarted every game",
            setup(Flavor::CurrentThread, false, true),
        ),
    ];
    let mut played = Vec::new();
    for (what, setup) in setups {
        if !wanted_arena && !played.is_empty() {
            break;
        }
        if !wanted_arena && !wanted_rules {
            break;
        }
        if setup.pin && !crate::platform::AFFINITY {
            let figure = format!("time per ply, {what}");
            report.skip("arena", &figure, crate::platform::NO_AFFINITY);
            continue;
        }
        let n = if setup.restart {
            games.div_ceil(4)
        } else {
            games
        };
        let run = arena_games(exe, rules, n, setup)?;
        let note = format!(
            "{n} games, {} bot plies; per game: its wall time over its bot plies",
            run.plies
        );
        report.add(
            "arena",
            format!("time per ply, {what}: median of games"),
            run.per_ply.median(),
            "us",
            &note,
        );
        if !setup.restart {
            report.add(
                "arena",
                format!("time per ply, {what}: mean"),
                run.mean_us,
                "us",
                &note,
            );
            report.add(
                "arena",
                format!("arena CPU per ply, {what}"),
                run.per_ply.cpu_us,
                "us",
                "getrusage(RUSAGE_SELF), all threads, over the games",
            );
            report.add(
                "arena",
                format!("bots' and guards' CPU per ply, {what}"),
                run.children_cpu_us,
                "us",
                "getrusage(RUSAGE_CHILDREN) once reaped: their whole lives, start-up included",
            );
        }
        if played.is_empty() {
            played = run.played;
        }
    }
    Ok(played)
}

/// A bot's start and stop under the guard, plain and sandboxed.
fn lifecycle_section(report: &mut Report<'_, '_>, exe: &Path, smoke: bool) -> Result<()> {
    let sandboxed = sandboxed_first_bot()?;
    let mut specs = vec![with_cgroups(first_bot("first"), CgroupMode::Off)];
    specs.extend(sandboxed.as_ref().map(|(spec, _)| spec.clone()));
    let times = bot_lifecycle(exe, if smoke { 5 } else { 40 }, &specs)?;
    let (starts, stops) = &times[0];
    let note = "arena bot first under the guard; a series starts and stops two";
    report.add(
        "arena",
        "start a bot (spawn to hello answered): median",
        starts.median() / 1e3,
        "ms",
        note,
    );
    report.add(
        "arena",
        "stop a bot (quit to reaped): median",
        stops.median() / 1e3,
        "ms",
        note,
    );
    if let Some((sandboxed_starts, _)) = times.get(1) {
        report.add(
            "arena",
            "start a sandboxed bot (spawn to hello answered): median",
            sandboxed_starts.median() / 1e3,
            "ms",
            format!(
                "the same bot with sandbox = true (bubblewrap), its starts taking turns with the plain ones: {:.1}x the plain start",
                sandboxed_starts.median() / starts.median()
            ),
        );
    } else {
        let why = if crate::platform::SANDBOX {
            "bubblewrap is not installed"
        } else {
            crate::platform::NO_SANDBOX
        };
        report.skip("arena", "start a sandboxed bot", why);
    }
    Ok(())
}

/// (d) The games `played` replayed in memory: the engine, the referee
/// without I/O, the bot's side.
fn rules_section(report: &mut Report<'_, '_>, rules: Rules, played: &[Played], smoke: bool) {
    let budget = Duration::from_millis(if smoke { 50 } else { 500 });
    let (engine_ns, referee_ns) = rules_only(rules, played, budget);
    let note = "the arena's games replayed in memory, no process";
    report.add(
        "rules",
        "engine only per ply (legal moves + play)",
        engine_ns,
        "ns",
        note,
    );
    report.add(
        "rules",
        "referee without I/O per ply (engine + turn line + reply)",
        referee_ns,
        "ns",
        note,
    );
    let bot_ns = bot_only(rules, played, budget);
    report.add(
        "rules",
        "the bot's side per ply (arena bot first, no I/O)",
        bot_ns,
        "ns",
        "endodoi_bots::run over the games' turn lines, in memory",
    );
}

/// (c) Throughput through the runner, a tournament in a child process at
/// each concurrency (and with affinity).
fn throughput_section(
    report: &mut Report<'_, '_>,
    exe: &Path,
    cores: usize,
    smoke: bool,
) -> Result<()> {
    let first_to = if smoke { 1 } else { 3 };
    let levels: &[(usize, bool)] = match cores {
        1 => &[(1, false), (1, true)],
        _ => &[(1, false), (cores, false), (cores, true)],
    };
    for &(concurrency, affinity) in levels {
        if affinity && !crate::platform::AFFINITY {
            let figure = format!("concurrency {concurrency}, affinity");
            report.skip("throughput", &figure, crate::platform::NO_AFFINITY);
            continue;
        }
        let f = tournament_child(exe, 4, first_to, concurrency, affinity)?;
        let note = format!(
            "4 bots, first to {first_to}: {} games, {} bot plies; games.csv synced per game",
            f.games, f.plies
        );
        let setting = format!(
            "concurrency {concurrency}{}",
            if affinity { ", affinity" } else { "" }
        );
        let games_per_s = f.games as f64 / f.games_s;
        report.add(
            "throughput",
            format!("games per second, {setting}"),
            games_per_s,
            "games/s",
            &note,
        );
        let per_ply = f.games_s * 1e6 / f.plies.max(1) as f64;
        report.add(
            "throughput",
            format!("time per ply, {setting}"),
            per_ply,
            "us",
            &note,
        );
    }

    Ok(())
}

/// (4) Scale: tournaments of each of `--scale-bots` instant bots, pinned
/// to cores or not.
fn scale_section(
    report: &mut Report<'_, '_>,
    exe: &Path,
    args: &Options,
    cores: usize,
) -> Result<()> {
    // A smoke run plays the smallest tournament only.
    let counts: Vec<usize> = if args.smoke {
        args.scale_bots.iter().copied().min().into_iter().collect()
    } else {
        args.scale_bots.clone()
    };
    for affinity in [false, true] {
        if affinity && !crate::platform::AFFINITY {
            report.skip(
                "scale",
                "tournaments with affinity",
                crate::platform::NO_AFFINITY,
            );
            continue;
        }
        for &bots in &counts {
            scale_point(report, exe, bots, cores, affinity)?;
        }
    }
    Ok(())
}

/// One row of the scaling table: a tournament of `bots` instant bots,
/// first to 3, at concurrency `cores`, pinned to cores or not.
fn scale_point(
    report: &mut Report<'_, '_>,
    exe: &Path,
    bots: usize,
    cores: usize,
    affinity: bool,
) -> Result<()> {
    if bots < 2 {
        bail!("--scale-bots {bots}: a tournament needs two bots or more");
    }
    let f = tournament_child(exe, bots, 3, cores, affinity)?;
    let series = bots * (bots - 1) / 2;
    let note = format!(
        "{bots} bots, {series} series, first to 3, concurrency {cores}, affinity = {affinity}: {} games",
        f.games
    );
    let label = if affinity {
        format!("{bots} bots, affinity")
    } else {
        format!("{bots} bots")
    };
    let mib = |kib: u64| kib as f64 / 1024.0;
    let rows = [
        ("games", f.games as f64, "count"),
        (
            "total time (games + summaries)",
            f.games_s + f.summary_s,
            "s",
        ),
        ("summaries (ratings, report)", f.summary_s, "s"),
        ("games per second", f.games as f64 / f.games_s, "games/s"),
        (
            "arena CPU per game",
            f.cpu_s * 1e3 / f.games.max(1) as f64,
            "ms",
        ),
        (
            "bots' and guards' CPU per game",
            f.children_cpu_s * 1e3 / f.games.max(1) as f64,
            "ms",
        ),
        (
            "peak RSS after 1/4 of the series",
            mib(f.rss_quarter_kib),
            "MiB",
        ),
        ("peak RSS after the games", mib(f.rss_games_kib), "MiB"),
        ("peak RSS at the end", mib(f.rss_end_kib), "MiB"),
    ];
    for (what, value, unit) in rows {
        report.add("scale", format!("{label}: {what}"), value, unit, &note);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tournament_figures_round_trip() {
        let f = TournamentFigures {
            games: 12,
            plies: 480,
            games_s: 0.5,
            summary_s: 0.25,
            cpu_s: 0.125,
            children_cpu_s: 0.75,
            rss_quarter_kib: 9000,
            rss_games_kib: 9100,
            rss_end_kib: 12000,
        };
        assert_eq!(TournamentFigures::from_line(&f.to_line()), Some(f));
        assert_eq!(TournamentFigures::from_line("games=x"), None);
    }

    #[test]
    fn generated_configs_load() {
        let text = tournament_config(5, 3, 2, true);
        let config = Config::parse(&text, "bench.toml", "bench", &crate::commands::host()).unwrap();
        assert_eq!(config.bots.len(), 5);
        assert_eq!(config.tournament.first_to, 3);
        assert_eq!(config.tournament.concurrency, 2);
        assert!(config.tournament.affinity);
    }

    #[test]
    fn quantiles() {
        let t = Times::new(vec![3.0, 1.0, 2.0, 4.0, 5.0], Duration::from_micros(10), 5);
        assert_eq!(t.median(), 3.0);
        assert_eq!(t.quantile(1.0), 5.0);
        assert_eq!(t.mean(), 3.0);
        assert_eq!(t.cpu_us, 2.0);
    }
}
