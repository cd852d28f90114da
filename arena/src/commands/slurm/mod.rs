//! `arena slurm`: a tournament as a Slurm job array. Task K plays shard K
//! (`arena run --shard K/N`) into `DIR/shard-K`; a job that depends on the
//! array (`afterany`) merges the shards into `DIR/merged`. Everything goes
//! through Slurm's own tools (sbatch, squeue, sacct, scontrol); the arena
//! keeps no daemon. A shard's own files say whether it finished, so a
//! failed, cancelled or timed-out task is found and re-run from them, and
//! resumes its folder.
//!
//! The tournament folder:
//! - `config.toml`: the config, copied, which every task plays;
//! - `shard-K/`: shard K's run folder;
//! - `merged/`: the merged run folder, the tournament's result;
//! - `slurm/`: the scripts, `shards` (N), `jobs.csv` (every submission)
//!   and the jobs' logs.

pub mod query;
pub mod round;
pub mod rounds;
pub mod script;

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Context as _;
use serde::{Deserialize, Serialize};

use super::{Console, Outcome};
use crate::config::Config;
use crate::output::RunFolder;
use query::JobState;
use script::Scripts;

/// What `arena slurm` was asked.
#[derive(Clone, Debug)]
pub enum Options {
    /// Write the scripts and submit the array and its merge.
    Submit(Submit),
    /// Show each shard's progress and Slurm state.
    Status {
        /// The tournament folder.
        dir: PathBuf,
        /// Wait until no job of the tournament is pending or running.
        wait: bool,
    },
    /// Submit again the shards that did not finish, and a new merge.
    Rerun {
        /// The tournament folder.
        dir: PathBuf,
        /// Options over the scripts' own.
        job: JobOptions,
        /// Print the sbatch commands; submit nothing.
        dry_run: bool,
    },
    /// A task of a round's job array: play shard `shard` of round `round`
    /// of a tournament that pairs round by round ([`round::play`]).
    Play {
        /// The tournament folder.
        dir: PathBuf,
        /// The round, from 1.
        round: usize,
        /// The shard, from 1 (`None`: `SLURM_ARRAY_TASK_ID`).
        shard: Option<usize>,
    },
    /// The job between rounds: merge round `round` and submit the next
    /// ([`round::next`]).
    Next {
        /// The tournament folder.
        dir: PathBuf,
        /// The round just played, from 1.
        round: usize,
    },
}

/// A first submission.
#[derive(Clone, Debug)]
pub struct Submit {
    /// The tournament config.
    pub config: PathBuf,
    /// The number of shards (array tasks).
    pub shards: usize,
    /// The tournament folder [default: results/NAME-TIMESTAMP].
    pub out: Option<PathBuf>,
    /// The jobs' Slurm options.
    pub job: JobOptions,
    /// Print the scripts and the sbatch commands; write and submit nothing.
    pub dry_run: bool,
    /// Do not start each bot here once before submitting.
    pub no_check: bool,
}

/// The Slurm options of a tournament's jobs (`None`: the cluster's or the
/// scripts' own). A tournament played round by round keeps them in
/// `slurm/options.toml`, for the rounds that its jobs submit.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(default)]
pub struct JobOptions {
    /// The partition (sbatch --partition).
    pub partition: Option<String>,
    /// The time limit of each job (sbatch --time).
    pub time: Option<String>,
    /// CPUs per task (sbatch --cpus-per-task).
    pub cpus: Option<u32>,
    /// At most this many tasks of the array at once (--array=...%K).
    pub max_running: Option<u32>,
    /// More sbatch options for both jobs.
    pub sbatch: Vec<String>,
}

/// `arena slurm`: submits a tournament, or shows or re-runs one.
/// [`Outcome::Failed`] for a `status --wait` whose merge did not finish.
///
/// # Errors
/// A bad config or folder, or a Slurm tool that is missing or fails, as
/// one line.
pub fn run(options: &Options, console: &mut Console<'_>) -> anyhow::Result<Outcome> {
    let ok = match options {
        Options::Status { dir, wait } => {
            let t = Tournament::open(dir)?;
            if round::is_by_round(&t) {
                round::status(&t, *wait, console)
            } else {
                status(&t, *wait, console)
            }
        }
        Options::Rerun { dir, job, dry_run } => {
            let t = Tournament::open(dir)?;
            if round::is_by_round(&t) {
                round::rerun(&t, job, *dry_run, console)
            } else {
                rerun(&t, job, *dry_run, console)
            }
        }
        Options::Submit(submission) => submit(submission, console),
        Options::Play { dir, round, shard } => {
            round::play(&Tournament::open(dir)?, *round, *shard, console)
        }
        Options::Next { dir, round } => round::next(&Tournament::open(dir)?, *round, console),
    }?;
    Ok(Outcome::from_passed(ok))
}

/// One `sbatch` call, as `slurm/jobs.csv` keeps it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Submission {
    /// `shards` (the job array) or `merge`.
    pub kind: String,
    /// The job id sbatch printed.
    pub job: u64,
    /// The array's tasks, as given to `--array` (empty for the merge).
    pub tasks: String,
    /// When it was submitted, UTC, RFC 3339.
    pub submitted: String,
}

/// A tournament folder written by `arena slurm`.
#[derive(Clone, Debug)]
pub struct Tournament {
    /// The folder (absolute).
    pub dir: PathBuf,
}

impl Tournament {
    /// Opens a folder `arena slurm` wrote.
    ///
    /// # Errors
    /// The folder holds no `slurm/shards`.
    pub fn open(dir: &Path) -> anyhow::Result<Tournament> {
        let t = Tournament {
            dir: std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf()),
        };
        anyhow::ensure!(dir.exists(), "{} does not exist", dir.display());
        anyhow::ensure!(
            t.slurm().join("shards").exists(),
            "{} is not a tournament `arena slurm` submitted (it has no slurm/shards)",
            dir.display()
        );
        Ok(t)
    }

    fn slurm(&self) -> PathBuf {
        self.dir.join("slurm")
    }

    /// N, the number of shards.
    ///
    /// # Errors
    /// `slurm/shards` is unreadable.
    pub fn shards(&self) -> anyhow::Result<usize> {
        let path = self.slurm().join("shards");
        std::fs::read_to_string(&path)?
            .trim()
            .parse()
            .with_context(|| format!("{} does not hold a number", path.display()))
    }

    /// The run folder of shard `k`.
    #[must_use]
    pub fn shard(&self, k: usize) -> RunFolder {
        RunFolder {
            path: self.dir.join(format!("shard-{k}")),
        }
    }

    /// The merged run folder.
    #[must_use]
    pub fn merged(&self) -> RunFolder {
        RunFolder {
            path: self.dir.join("merged"),
        }
    }

    /// Every submission so far, oldest first. A last row cut short (a job
    /// between rounds appends while this reads) is left out.
    ///
    /// # Errors
    /// `slurm/jobs.csv` is unreadable, or a row before the last is bad.
    pub fn submissions(&self) -> anyhow::Result<Vec<Submission>> {
        let path = self.slurm().join("jobs.csv");
        if !path.exists() {
            return Ok(Vec::new());
        }
        let rows: Vec<Result<Submission, csv::Error>> = csv::ReaderBuilder::new()
            .flexible(true)
            .from_path(&path)?
            .deserialize()
            .collect();
        let last = rows.len();
        rows.into_iter()
            .enumerate()
            .filter(|(i, row)| row.is_ok() || i + 1 < last)
            .map(|(_, row)| row)
            .collect::<Result<_, _>>()
            .with_context(|| format!("cannot read {}", path.display()))
    }

    /// Submits `script` with sbatch and records the job in `slurm/jobs.csv`.
    fn submit(
        &self,
        kind: &str,
        tasks: &str,
        options: &[String],
        script: &str,
    ) -> anyhow::Result<u64> {
        self.submit_with(kind, tasks, options, script, &[])
    }

    /// [`Tournament::submit`], with arguments for the script.
    fn submit_with(
        &self,
        kind: &str,
        tasks: &str,
        options: &[String],
        script: &str,
        script_args: &[String],
    ) -> anyhow::Result<u64> {
        let mut args = vec!["--parsable".to_string()];
        args.extend(options.iter().cloned());
        args.push(self.slurm().join(script).display().to_string());
        args.extend(script_args.iter().cloned());
        let text = query::tool("sbatch", &args)?;
        // --parsable prints "ID" or "ID;CLUSTER".
        let job: u64 = text
            .trim()
            .split(';')
            .next()
            .and_then(|id| id.parse().ok())
            .with_context(|| format!("sbatch printed '{}', not a job id", text.trim()))?;
        let path = self.slurm().join("jobs.csv");
        let new = !path.exists();
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .with_context(|| format!("cannot write {}", path.display()))?;
        let mut writer = csv::WriterBuilder::new().has_headers(new).from_writer(file);
        writer.serialize(Submission {
            kind: kind.into(),
            job,
            tasks: tasks.into(),
            submitted: now(),
        })?;
        writer.flush()?;
        Ok(job)
    }
}

fn now() -> String {
    time::OffsetDateTime::now_utc()
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap_or_default()
}

/// The CPUs a task asks for by default: the config's own `concurrency`
/// if it sets one (the default, this machine's cores, says nothing of a
/// compute node's), else 1.
fn default_cpus(config_path: &Path) -> u32 {
    std::fs::read_to_string(config_path)
        .ok()
        .and_then(|text| text.parse::<toml::Table>().ok())
        .and_then(|t| t.get("tournament")?.get("concurrency")?.as_integer())
        .and_then(|c| u32::try_from(c).ok())
        .filter(|&c| c > 0)
        .unwrap_or(1)
}

/// Refuses sbatch options that would undo what `arena slurm` sets.
fn check_extra(job: &JobOptions) -> anyhow::Result<()> {
    for option in &job.sbatch {
        let name = option.split('=').next().unwrap_or_default();
        anyhow::ensure!(
            !matches!(name, "--array" | "-a" | "--dependency" | "-d"),
            "--sbatch={option}: arena slurm sets {name} itself (the array's tasks, and the merge after them); use --max-running K to run at most K tasks at once"
        );
    }
    Ok(())
}

/// `arena slurm CONFIG --shards N`: writes the scripts and submits the
/// array and its merge.
fn submit(args: &Submit, console: &mut Console<'_>) -> anyhow::Result<bool> {
    let (config_path, n) = (&args.config, args.shards);
    check_extra(&args.job)?;
    let config = Config::load(config_path, &super::host())?;
    crate::bot::spawn::check_programs(&config, &tokio_util::sync::CancellationToken::new())?;
    if round::by_round(&config, n) {
        return round::submit(args, &config, console);
    }
    // An SPRT match decides game by game: it runs whole, as one task.
    anyhow::ensure!(
        config.sprt.is_none() || n == 1,
        "an SPRT match decides game by game and cannot be split: use --shards 1"
    );
    if let Some(why) = crate::runner::unsplittable(&config) {
        anyhow::ensure!(n == 1, "--shards {n}: {why}");
    }
    let units = crate::runner::split_units(&config);
    anyhow::ensure!(
        (1..=units).contains(&n),
        "--shards {n}: this tournament splits into at most {} (one per {}); choose 1 to {units}",
        crate::output::counted(units, "shard", "shards"),
        if config.bots.len() == 2 {
            "game pair"
        } else {
            "series"
        }
    );
    if config.bots.len() == 2 && n > 1 && config.sprt.is_none() {
        let t = &config.tournament;
        if t.first_to <= t.max_games {
            console.note(format_args!(
                "arena: note: a two-bot match split into shards plays all its {} (no shard can see when a bot reaches first_to = {}); a single run would stop there",
                crate::output::counted(t.max_games, "game", "games"),
                t.first_to
            ));
        }
    }
    let (workdir, dir, created) = out_dir(args, &config)?;
    let scripts = Scripts {
        arena: std::env::current_exe().context("cannot find the arena executable")?,
        dir: dir.clone(),
        workdir,
        name: config.name.clone(),
        shards: n,
        cpus: args.job.cpus.unwrap_or_else(|| default_cpus(config_path)) as usize,
        max_running: args.job.max_running,
        partition: args.job.partition.clone(),
        time: args.job.time.clone(),
    };
    if !args.no_check {
        check_bots(&config, config_path, console)?;
    }
    let shards_text = scripts.shards_script()?;
    let merge_text = scripts.merge_script()?;
    let t = Tournament { dir };
    let jobs = Jobs {
        tasks: None,
        overrides: &args.job,
    };
    if args.dry_run {
        print_dry_run(
            &t,
            &[
                ("shards.sbatch", &shards_text),
                ("merge.sbatch", &merge_text),
            ],
            console,
        );
        print_commands(&t, &jobs, true, console);
        return Ok(true);
    }
    let written = write_folder(
        &t,
        args,
        &config,
        &[
            ("shards.sbatch", &shards_text),
            ("merge.sbatch", &merge_text),
        ],
    );
    // If sbatch refuses the array (a wrong partition, say), nothing runs:
    // take back what was written, so the same --out can be used again.
    let submitted = written.and_then(|()| submit_jobs(&t, &jobs, true, console));
    if let Err(e) = submitted {
        take_back(&t, created);
        return Err(e);
    }
    Ok(true)
}

/// Takes back a tournament folder whose first submission failed (nothing
/// runs): all of it if `created` here, else what was written into it.
fn take_back(t: &Tournament, created: bool) {
    if t.submissions().map_or(true, |s| s.is_empty()) {
        if created {
            let _ = std::fs::remove_dir_all(&t.dir);
        } else {
            let _ = std::fs::remove_dir_all(t.slurm());
            let _ = std::fs::remove_file(t.dir.join("config.toml"));
            let _ = std::fs::remove_dir_all(t.merged().path);
        }
    }
}

/// Writes a new tournament folder: the config's copy (and the folder its
/// paths start from), the `scripts` into `slurm/`, and `slurm/shards`.
fn write_folder(
    t: &Tournament,
    args: &Submit,
    config: &Config,
    scripts: &[(&str, &String)],
) -> anyhow::Result<()> {
    std::fs::create_dir_all(t.slurm())
        .with_context(|| format!("cannot create {}", t.slurm().display()))?;
    let text = std::fs::read(&args.config)?;
    crate::output::write_bytes_atomic(&t.dir.join("config.toml"), &text)
        .context("cannot copy the config into the tournament folder")?;
    // The copy's relative paths start from the original's folder.
    super::run::write_config_dir(&t.dir, &config.base)?;
    for (name, text) in scripts {
        write_script(&t.slurm().join(name), text)?;
    }
    std::fs::write(t.slurm().join("shards"), format!("{}\n", args.shards))?;
    Ok(())
}

/// The folder the tasks run in (this one), and the tournament folder of
/// a submission (absolute), with whether it is made here; refuses a
/// folder that is not new or empty.
fn out_dir(args: &Submit, config: &Config) -> anyhow::Result<(PathBuf, PathBuf, bool)> {
    let workdir = std::env::current_dir().context("cannot read the current folder")?;
    script::sbatch_path(&workdir)
        .map_err(|e| anyhow::anyhow!("the current folder, where the tasks will run: {e}"))?;
    let (dir, created) = match (&args.out, args.dry_run) {
        (Some(dir), _) => (dir.clone(), !dir.exists()),
        (None, true) => (
            PathBuf::from(format!("results/{}-TIMESTAMP", config.name)),
            false,
        ),
        (None, false) => (
            crate::report::claim_run_dir(&config.name)
                .context("cannot create a folder in results/")?,
            true,
        ),
    };
    let dir = std::path::absolute(&dir).unwrap_or(dir);
    let empty = std::fs::read_dir(&dir).map_or(true, |mut d| d.next().is_none());
    anyhow::ensure!(
        empty || args.dry_run,
        "{0} is not empty: give --out a new or empty folder (to follow a tournament already there: `arena slurm status {0}`; to re-run its failed shards: `arena slurm rerun {0}`)",
        dir.display()
    );
    Ok((workdir, dir, created))
}

/// Starts every bot here once, as `arena run` does before its first game,
/// so a bot that cannot start is found before a hundred tasks fail on it.
fn check_bots(
    config: &Config,
    config_path: &Path,
    console: &mut Console<'_>,
) -> anyhow::Result<()> {
    let logs = tempfile::tempdir().context("cannot create a folder for the check's logs")?;
    let dir = RunFolder::create(logs.path())?;
    let options = crate::runner::RunOptions {
        guard: std::env::current_exe().ok(),
        ..Default::default()
    };
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    let checks = runtime.block_on(crate::runner::check_bots(config, &dir, &options));
    for note in &checks.notes {
        console.note(format_args!("arena: {note}"));
    }
    let failures = checks.failures;
    let failed = super::not_started(&config.bots, &failures);
    if config.tournament.on_start_failure == crate::config::OnStartFailure::Skip {
        for line in &failed {
            console.note(format_args!(
                "arena: {line}; the tasks will play without it (on_start_failure = \"skip\")"
            ));
        }
        return Ok(());
    }
    anyhow::ensure!(
        failed.is_empty(),
        "{}: {} (checked here, in {}; bots start in the folder `arena slurm` is run from; --no-check skips this check)",
        config_path.display(),
        failed.join("; "),
        std::env::current_dir().unwrap_or_default().display()
    );
    Ok(())
}

fn write_script(path: &Path, text: &str) -> anyhow::Result<()> {
    std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))?;
    crate::platform::set_mode(path, 0o755)?;
    Ok(())
}

fn print_dry_run(t: &Tournament, scripts: &[(&str, &String)], console: &mut Console<'_>) {
    for (name, text) in scripts {
        console.print(format_args!("# {}\n{text}", t.slurm().join(name).display()));
    }
}

/// What to submit: the array's tasks (`None`: the script's own, or none on
/// a re-run), and options over the scripts'.
struct Jobs<'a> {
    tasks: Option<String>,
    overrides: &'a JobOptions,
}

impl Jobs<'_> {
    /// The sbatch options of the array, and of the merge after `array_job`
    /// (`None`: no array was submitted). On a first submission the scripts
    /// hold partition, time and CPUs already.
    fn options(&self, first: bool, array_job: Option<&str>) -> [Vec<String>; 2] {
        let o = self.overrides;
        let mut both = Vec::new();
        if !first {
            both.extend(o.partition.iter().map(|p| format!("--partition={p}")));
            both.extend(o.time.iter().map(|t| format!("--time={t}")));
        }
        both.extend(o.sbatch.iter().cloned());
        let mut shards = Vec::new();
        if let Some(tasks) = &self.tasks {
            let limit = o.max_running.map(|k| format!("%{k}")).unwrap_or_default();
            shards.push(format!("--array={tasks}{limit}"));
        }
        if !first {
            shards.extend(o.cpus.iter().map(|c| format!("--cpus-per-task={c}")));
        }
        shards.extend(both.iter().cloned());
        let mut merge = Vec::new();
        if let Some(job) = array_job {
            merge.push(format!("--dependency=afterany:{job}"));
            merge.push("--kill-on-invalid-dep=yes".into());
        }
        merge.extend(both);
        [shards, merge]
    }
}

fn print_commands(t: &Tournament, jobs: &Jobs, with_array: bool, console: &mut Console<'_>) {
    let [shards, merge] = jobs.options(
        jobs.tasks.is_none() && with_array,
        with_array.then_some("ARRAY_JOB_ID"),
    );
    let line = |options: &[String], script: &str| {
        let mut words = vec!["sbatch".to_string(), "--parsable".into()];
        words.extend(options.iter().cloned());
        words.push(t.slurm().join(script).display().to_string());
        words.join(" ")
    };
    console.print(format_args!("# would run:"));
    if with_array {
        console.print(format_args!("{}", line(&shards, "shards.sbatch")));
    }
    console.print(format_args!("{}", line(&merge, "merge.sbatch")));
}

/// Submits the array (if `with_array`) and a merge after it; prints the
/// job ids.
fn submit_jobs(
    t: &Tournament,
    jobs: &Jobs,
    with_array: bool,
    console: &mut Console<'_>,
) -> anyhow::Result<()> {
    // A first submission has no task list: the script's own --array.
    let first = jobs.tasks.is_none();
    let array = if with_array {
        let [shards, _] = jobs.options(first, None);
        let tasks = jobs
            .tasks
            .clone()
            .unwrap_or_else(|| format!("1-{}", t.shards().unwrap_or(0)));
        Some((t.submit("shards", &tasks, &shards, "shards.sbatch")?, tasks))
    } else {
        None
    };
    let array_job = array.as_ref().map(|(job, _)| job.to_string());
    let [_, merge] = jobs.options(first, array_job.as_deref());
    let merge_job = t.submit("merge", "", &merge, "merge.sbatch").with_context(|| {
        format!(
            "the merge was not submitted; once the cause is fixed, `arena slurm rerun {}` submits it",
            t.dir.display()
        )
    })?;
    if let Some((job, tasks)) = array {
        console.print(format_args!("shards: job {job} (array tasks {tasks})"));
    }
    console.print(format_args!("merge: job {merge_job}"));
    console.note(format_args!(
        "arena: follow it with `arena slurm status {0}` (--wait to wait); the result will be in {1}",
        t.dir.display(),
        t.merged().path.display()
    ));
    Ok(())
}

/// The newest array submission that includes task `k`, if any.
fn latest_for(subs: &[Submission], k: usize) -> Option<u64> {
    subs.iter()
        .rev()
        .filter(|s| s.kind == "shards")
        .find(|s| {
            query::parse_job_id(&format!("0_{}", s.tasks))
                .and_then(|(_, tasks)| tasks)
                .is_some_and(|tasks| tasks.contains(&k))
        })
        .map(|s| s.job)
}

/// One row of `arena slurm status`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// `1`..`N`, or `merge`.
    pub what: String,
    /// Games in its `games.csv`.
    pub games: usize,
    /// `finished`, `partial` (some games, not finished) or `none`.
    pub files: &'static str,
    /// Slurm's state of its latest job, with the job id.
    pub slurm: String,
}

/// The whole rows of `games.csv` (a torn last line left out), 0 if it
/// cannot be read.
fn games_in(dir: &RunFolder) -> usize {
    dir.read_games().ok().flatten().map_or(0, |r| r.rows.len())
}

fn files_state(dir: &RunFolder) -> &'static str {
    if dir.is_finished() {
        "finished"
    } else if dir.games().exists() {
        "partial"
    } else {
        "none"
    }
}

/// The status table's cell of a shard's `job` (array task `task`, if
/// one) in Slurm's `states`: its state and id, `never ran` for a task of
/// a job Slurm knows but not the task (a pending task cancelled before it
/// ran leaves no record), `unknown` for a job it does not know, `-`
/// without a job.
pub(super) fn job_state(states: &[JobState], job: Option<u64>, task: Option<usize>) -> String {
    let Some(job) = job else {
        return "-".to_string();
    };
    let id = task.map_or(job.to_string(), |k| format!("{job}_{k}"));
    match states.iter().find(|s| s.covers(job, task)) {
        Some(s) => format!("{} (job {id})", s.describe()),
        None if states.iter().any(|s| s.job == job) => format!("never ran (job {id})"),
        None => format!("unknown (job {id})"),
    }
}

/// The status table's rows, from the files and Slurm's states.
fn rows(t: &Tournament, subs: &[Submission], states: &[JobState]) -> anyhow::Result<Vec<Row>> {
    let state_of = |job: Option<u64>, task: Option<usize>| job_state(states, job, task);
    let mut rows: Vec<Row> = (1..=t.shards()?)
        .map(|k| {
            let dir = t.shard(k);
            Row {
                what: k.to_string(),
                games: games_in(&dir),
                files: files_state(&dir),
                slurm: state_of(latest_for(subs, k), Some(k)),
            }
        })
        .collect();
    let merged = t.merged();
    rows.push(Row {
        what: "merge".into(),
        games: games_in(&merged),
        files: files_state(&merged),
        slurm: state_of(
            subs.iter().rev().find(|s| s.kind == "merge").map(|s| s.job),
            None,
        ),
    });
    Ok(rows)
}

fn print_rows(rows: &[Row], source: &str, console: &mut Console<'_>) {
    use crate::output::table::{render, stdout_width, Align};
    let slurm = format!("slurm ({source})");
    let cells: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            vec![
                r.what.clone(),
                r.games.to_string(),
                r.files.to_string(),
                r.slurm.to_string(),
            ]
        })
        .collect();
    console.print(render(
        &["shard", "games", "files", &slurm],
        &[Align::Left, Align::Right, Align::Left, Align::Left],
        &cells,
        stdout_width(),
    ));
}

/// The waits of a poll of squeue that goes on until the jobs are done,
/// gently: from 1 s up to 15 s between looks, half as long again each
/// time; and the last line said of them.
struct Poll {
    pause: Duration,
    last: String,
}

impl Poll {
    /// The first look: a pause of 1 s, nothing said yet.
    fn new() -> Poll {
        Poll {
            pause: Duration::from_millis(1000),
            last: String::new(),
        }
    }

    /// Says `line` on `console` unless it is the last line said, then
    /// waits the pause before the next look.
    fn say_and_wait(&mut self, line: String, console: &mut Console<'_>) {
        if line != self.last {
            console.note(format_args!("{line}"));
            self.last = line;
        }
        std::thread::sleep(self.pause);
        self.pause = (self.pause * 3 / 2).min(Duration::from_secs(15));
    }
}

/// An error for the first of the `queued` jobs of `t` that waits for
/// something that will not change ([`query::JobState::never_starts`]),
/// naming how to cancel it and submit it again.
fn refuse_stuck<'a>(
    t: &Tournament,
    queued: impl IntoIterator<Item = &'a query::JobState>,
) -> anyhow::Result<()> {
    if let Some(stuck) = queued.into_iter().find(|s| s.never_starts()) {
        anyhow::bail!(
            "job {} waits for {}, which will not change: cancel it (scancel {0}) and re-run with other options (`arena slurm rerun {} --cpus C --time T --partition P`)",
            stuck.job,
            stuck.reason,
            t.dir.display()
        );
    }
    Ok(())
}

/// `arena slurm status DIR [--wait]`.
fn status(t: &Tournament, wait: bool, console: &mut Console<'_>) -> anyhow::Result<bool> {
    let subs = t.submissions()?;
    let jobs: Vec<u64> = subs.iter().map(|s| s.job).collect();
    let shards = t.shards()?;
    if wait {
        // Poll squeue, gently: from 1 s up to 15 s between looks.
        let mut poll = Poll::new();
        loop {
            let queued = query::queued(&jobs)?;
            if queued.is_empty() {
                break;
            }
            refuse_stuck(t, &queued)?;
            let finished = (1..=shards).filter(|&k| t.shard(k).is_finished()).count();
            let line = format!(
                "arena: {finished} of {} finished; queued or running: {}",
                crate::output::counted(shards, "shard", "shards"),
                queued
                    .iter()
                    .map(|s| {
                        let tasks = s.tasks.as_ref().map_or(String::new(), |t| {
                            let t: Vec<String> = t.iter().map(usize::to_string).collect();
                            format!("_{}", t.join(","))
                        });
                        format!("job {}{tasks} {}", s.job, s.describe())
                    })
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            poll.say_and_wait(line, console);
        }
    }
    let (states, source) = query::history(&jobs);
    let source = if source.is_empty() {
        "no Slurm tool answered".to_string()
    } else {
        source
    };
    let rows = rows(t, &subs, &states)?;
    print_rows(&rows, &source, console);
    let done = t.merged().is_finished();
    let unfinished = (1..=shards).filter(|&k| !t.shard(k).is_finished()).count();
    if done {
        console.note(format_args!(
            "arena: merged results in {}",
            t.merged().path.display()
        ));
    } else if wait && unfinished == 0 {
        console.note(format_args!(
            "arena: every shard finished, but the merge did not: `arena slurm rerun {}` merges again",
            t.dir.display()
        ));
    } else if wait {
        console.note(format_args!(
            "arena: {unfinished} of {} did not finish: `arena slurm rerun {}` runs them again, each from where it stopped",
            crate::output::counted(shards, "shard", "shards"),
            t.dir.display()
        ));
    }
    Ok(done || !wait)
}

/// An error while a job `t` submitted is still queued or running: a rerun
/// waits for it or for its cancelling, as the message says.
fn refuse_while_queued(t: &Tournament) -> anyhow::Result<()> {
    let jobs: Vec<u64> = t.submissions()?.iter().map(|s| s.job).collect();
    if let Some(s) = query::queued(&jobs)?.first() {
        anyhow::bail!(
            "job {} of this tournament is still {}: wait for it (`arena slurm status {} --wait`) or cancel it (scancel {}) first",
            s.job,
            s.describe(),
            t.dir.display(),
            s.job
        );
    }
    Ok(())
}

/// `arena slurm rerun DIR`: the shards that did not finish, and a merge.
fn rerun(
    t: &Tournament,
    job: &JobOptions,
    dry_run: bool,
    console: &mut Console<'_>,
) -> anyhow::Result<bool> {
    check_extra(job)?;
    refuse_while_queued(t)?;
    let unfinished: Vec<String> = (1..=t.shards()?)
        .filter(|&k| !t.shard(k).is_finished())
        .map(|k| k.to_string())
        .collect();
    if unfinished.is_empty() && t.merged().is_finished() {
        console.note(format_args!(
            "arena: every shard and the merge finished: nothing to re-run (results in {})",
            t.merged().path.display()
        ));
        return Ok(true);
    }
    let with_array = !unfinished.is_empty();
    let jobs = Jobs {
        tasks: Some(unfinished.join(",")),
        overrides: job,
    };
    if dry_run {
        print_commands(t, &jobs, with_array, console);
        return Ok(true);
    }
    // A merge that died half-way is set aside, so the new one starts clean.
    let merged = t.merged();
    if merged.path.exists() && !merged.is_finished() {
        let aside = t
            .dir
            .join(format!("merged-incomplete-{}", now().replace(':', "")));
        std::fs::rename(&merged.path, &aside)
            .with_context(|| format!("cannot move {} aside", merged.path.display()))?;
        console.note(format_args!(
            "arena: an incomplete merge was moved to {}",
            aside.display()
        ));
    }
    submit_jobs(t, &jobs, with_array, console)?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sub(kind: &str, job: u64, tasks: &str) -> Submission {
        Submission {
            kind: kind.into(),
            job,
            tasks: tasks.into(),
            submitted: String::new(),
        }
    }

    #[test]
    fn each_shard_follows_its_latest_array() {
        let subs = [
            sub("shards", 9, "1-3"),
            sub("merge", 10, ""),
            sub("shards", 11, "2,3"),
            sub("merge", 12, ""),
        ];
        assert_eq!(latest_for(&subs, 1), Some(9));
        assert_eq!(latest_for(&subs, 2), Some(11));
        assert_eq!(latest_for(&subs, 4), None);
    }

    #[test]
    fn the_merge_waits_for_the_array_it_follows() {
        let overrides = JobOptions {
            time: Some("4:00:00".into()),
            cpus: Some(2),
            max_running: Some(1),
            sbatch: vec!["--account=x".into()],
            ..Default::default()
        };
        let jobs = Jobs {
            tasks: Some("2,3".into()),
            overrides: &overrides,
        };
        // A re-run: the options go over the scripts'; CPUs only for the array.
        let [shards, merge] = jobs.options(false, Some("11"));
        assert_eq!(
            shards,
            [
                "--array=2,3%1",
                "--cpus-per-task=2",
                "--time=4:00:00",
                "--account=x"
            ]
        );
        assert_eq!(
            merge,
            [
                "--dependency=afterany:11",
                "--kill-on-invalid-dep=yes",
                "--time=4:00:00",
                "--account=x"
            ]
        );
        // A first submission: the scripts hold time and CPUs already.
        let first = Jobs {
            tasks: None,
            overrides: &overrides,
        };
        let [shards, merge] = first.options(true, None);
        assert_eq!(shards, ["--account=x"]);
        assert_eq!(merge, ["--account=x"]);
    }

    #[test]
    fn options_arena_slurm_sets_itself_are_refused() {
        for option in ["--array=1-3%1", "--dependency=afterok:5", "-d"] {
            let job = JobOptions {
                sbatch: vec![option.into()],
                ..Default::default()
            };
            assert!(check_extra(&job).is_err(), "{option}");
        }
        let job = JobOptions {
            sbatch: vec!["--qos=low".into()],
            ..Default::default()
        };
        assert!(check_extra(&job).is_ok());
    }
}
