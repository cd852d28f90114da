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
pub mod script;

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Context as _;
use serde::{Deserialize, Serialize};

use crate::cli::{SlurmArgs, SlurmCommand};
use crate::config::Config;
use crate::output::RunDir;
use query::JobState;
use script::Scripts;

/// `arena slurm`: submits a tournament, or shows or re-runs one. Returns
/// whether it succeeded in the user's terms (for `status`, whether the
/// merge finished), for the exit code.
///
/// # Errors
/// A bad config or folder, or a Slurm tool that is missing or fails, as
/// one line.
pub fn main(args: SlurmArgs) -> anyhow::Result<bool> {
    match args.command {
        Some(SlurmCommand::Status { dir, wait }) => status(&Tournament::open(&dir)?, wait),
        Some(SlurmCommand::Rerun {
            dir,
            sbatch,
            dry_run,
        }) => rerun(&Tournament::open(&dir)?, &sbatch, dry_run),
        None => submit(&args),
    }
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
    pub fn shard(&self, k: usize) -> RunDir {
        RunDir {
            path: self.dir.join(format!("shard-{k}")),
        }
    }

    /// The merged run folder.
    #[must_use]
    pub fn merged(&self) -> RunDir {
        RunDir {
            path: self.dir.join("merged"),
        }
    }

    /// Every submission so far, oldest first.
    ///
    /// # Errors
    /// `slurm/jobs.csv` is unreadable.
    pub fn submissions(&self) -> anyhow::Result<Vec<Submission>> {
        let path = self.slurm().join("jobs.csv");
        if !path.exists() {
            return Ok(Vec::new());
        }
        csv::Reader::from_path(&path)?
            .deserialize()
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
        let mut args = vec!["--parsable".to_string()];
        args.extend(options.iter().cloned());
        args.push(self.slurm().join(script).display().to_string());
        let text = query::tool("sbatch", &args).map_err(anyhow::Error::msg)?;
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

/// The units a tournament splits into: its series, or, for a two-bot
/// match, its game pairs.
fn split_units(config: &Config) -> usize {
    let bots = config.bots.len();
    match bots * (bots - 1) / 2 {
        1 => config.tournament.max_games.div_ceil(2) as usize,
        series => series,
    }
}

/// `arena slurm CONFIG --shards N`: writes the scripts and submits the
/// array and its merge.
fn submit(args: &SlurmArgs) -> anyhow::Result<bool> {
    let (Some(config_path), Some(n)) = (&args.config, args.shards) else {
        anyhow::bail!("arena slurm needs CONFIG and --shards N");
    };
    let config = Config::load(config_path)?;
    config.check_programs()?;
    for bot in &config.bots {
        crate::bot::spawn::command(bot, None)
            .map_err(|e| anyhow::anyhow!("{}: {e}", config_path.display()))?;
    }
    anyhow::ensure!(
        config.sprt.is_none(),
        "an SPRT match decides game by game and cannot be split into shards: run it with `arena run`"
    );
    let units = split_units(&config);
    anyhow::ensure!(
        (1..=units).contains(&n),
        "--shards {n}: this tournament splits into at most {units} shards (one per {}); choose 1 to {units}",
        if config.bots.len() == 2 { "game pair" } else { "series" }
    );
    let dir = match (&args.out, args.dry_run) {
        (Some(dir), _) => dir.clone(),
        (None, true) => PathBuf::from(format!("results/{}-TIMESTAMP", config.name)),
        (None, false) => crate::report::claim_run_dir(&config.name)
            .context("cannot create a folder in results/")?,
    };
    let dir = std::path::absolute(&dir).unwrap_or(dir);
    anyhow::ensure!(
        !dir.join("slurm").exists() && !dir.join("games.csv").exists(),
        "{} already holds a tournament: follow it with `arena slurm status {0}`, re-run its failed shards with `arena slurm rerun {0}`, or choose another --out",
        dir.display()
    );
    let scripts = Scripts {
        arena: std::env::current_exe().context("cannot find the arena executable")?,
        dir: dir.clone(),
        workdir: std::env::current_dir().context("cannot read the current folder")?,
        name: config.name.clone(),
        shards: n,
        cpus: args.cpus.unwrap_or(config.tournament.concurrency).max(1),
        partition: args.partition.clone(),
        time: args.time.clone(),
    };
    if !args.no_check {
        check_bots(&config, config_path)?;
    }
    let shards_text = scripts.shards_script().map_err(anyhow::Error::msg)?;
    let merge_text = scripts.merge_script().map_err(anyhow::Error::msg)?;
    let t = Tournament { dir };
    let all = format!("1-{n}");
    if args.dry_run {
        print_dry_run(
            &t,
            &[
                ("shards.sbatch", &shards_text),
                ("merge.sbatch", &merge_text),
            ],
        );
        print_commands(&t, Some(&all), &args.sbatch);
        return Ok(true);
    }
    std::fs::create_dir_all(t.slurm())
        .with_context(|| format!("cannot create {}", t.slurm().display()))?;
    std::fs::copy(config_path, t.dir.join("config.toml"))
        .context("cannot copy the config into the tournament folder")?;
    for (name, text) in [
        ("shards.sbatch", &shards_text),
        ("merge.sbatch", &merge_text),
    ] {
        write_script(&t.slurm().join(name), text)?;
    }
    std::fs::write(t.slurm().join("shards"), format!("{n}\n"))?;
    submit_jobs(&t, Some(&all), &args.sbatch)?;
    Ok(true)
}

/// Starts every bot here once, as `arena run` does before its first game,
/// so a bot that cannot start is found before a hundred tasks fail on it.
fn check_bots(config: &Config, config_path: &Path) -> anyhow::Result<()> {
    let logs = tempfile::tempdir().context("cannot create a folder for the check's logs")?;
    let dir = RunDir::create(logs.path())?;
    let options = crate::runner::RunOptions {
        guard: std::env::current_exe().ok(),
        ..Default::default()
    };
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    let failures = runtime.block_on(crate::runner::check_bots(config, &dir, &options));
    let failed: Vec<String> = config
        .bots
        .iter()
        .zip(&failures)
        .filter_map(|(b, f)| {
            f.as_ref()
                .map(|why| format!("bot '{}' did not start: {why}", b.name))
        })
        .collect();
    if config.tournament.on_start_failure == crate::config::OnStartFailure::Skip {
        for line in &failed {
            eprintln!(
                "arena: {line}; the tasks will play without it (on_start_failure = \"skip\")"
            );
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
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))?;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755))?;
    Ok(())
}

fn print_dry_run(t: &Tournament, scripts: &[(&str, &String)]) {
    let mut out = std::io::stdout().lock();
    for (name, text) in scripts {
        let _ = writeln!(out, "# {}\n{text}", t.slurm().join(name).display());
    }
}

/// The sbatch options of the array (`tasks`) and of the merge after it.
fn sbatch_options(tasks: Option<&str>, array_job: &str, extra: &[String]) -> [Vec<String>; 2] {
    let mut shards = Vec::new();
    if let Some(tasks) = tasks {
        shards.push(format!("--array={tasks}"));
    }
    shards.extend(extra.iter().cloned());
    let mut merge = Vec::new();
    if tasks.is_some() {
        merge.push(format!("--dependency=afterany:{array_job}"));
        merge.push("--kill-on-invalid-dep=yes".into());
    }
    merge.extend(extra.iter().cloned());
    [shards, merge]
}

fn print_commands(t: &Tournament, tasks: Option<&str>, extra: &[String]) {
    let [shards, merge] = sbatch_options(tasks, "ARRAY_JOB_ID", extra);
    let script = |name: &str| t.slurm().join(name).display().to_string();
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "# would run:");
    if tasks.is_some() {
        let _ = writeln!(
            out,
            "sbatch --parsable {} {}",
            shards.join(" "),
            script("shards.sbatch")
        );
    }
    let _ = writeln!(
        out,
        "sbatch --parsable {} {}",
        merge.join(" "),
        script("merge.sbatch")
    );
}

/// Submits the array's `tasks` (if any) and a merge after them; prints the
/// job ids.
fn submit_jobs(t: &Tournament, tasks: Option<&str>, extra: &[String]) -> anyhow::Result<()> {
    let array = match tasks {
        Some(tasks) => {
            let [shards, _] = sbatch_options(Some(tasks), "", extra);
            Some((t.submit("shards", tasks, &shards, "shards.sbatch")?, tasks))
        }
        None => None,
    };
    let array_job = array.map(|(job, _)| job.to_string()).unwrap_or_default();
    let [_, merge] = sbatch_options(tasks, &array_job, extra);
    let merge_job = t.submit("merge", "", &merge, "merge.sbatch")?;
    let mut out = std::io::stdout().lock();
    if let Some((job, tasks)) = array {
        let _ = writeln!(out, "shards: job {job} (array tasks {tasks})");
    }
    let _ = writeln!(out, "merge: job {merge_job}");
    eprintln!(
        "arena: follow it with `arena slurm status {0}` (--wait to wait); the result will be in {1}",
        t.dir.display(),
        t.merged().path.display()
    );
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

/// Rows of a finished line count of `games.csv` (its rows but the header
/// and a torn last line).
fn games_in(dir: &RunDir) -> usize {
    std::fs::read(dir.path.join("games.csv")).map_or(0, |bytes| {
        bytes
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            .saturating_sub(1)
    })
}

fn files_state(dir: &RunDir) -> &'static str {
    if dir.is_finished() {
        "finished"
    } else if dir.path.join("games.csv").exists() {
        "partial"
    } else {
        "none"
    }
}

/// The status table's rows, from the files and Slurm's states.
fn rows(t: &Tournament, subs: &[Submission], states: &[JobState]) -> anyhow::Result<Vec<Row>> {
    let state_of = |job: Option<u64>, task: Option<usize>| match job {
        None => "-".to_string(),
        Some(job) => {
            let id = task.map_or(job.to_string(), |k| format!("{job}_{k}"));
            match states.iter().find(|s| s.covers(job, task)) {
                Some(s) => format!("{} (job {id})", s.state),
                // Slurm keeps no record of a pending task cancelled before it ran.
                None if states.iter().any(|s| s.job == job) => {
                    format!("never ran (job {id})")
                }
                None => format!("unknown (job {id})"),
            }
        }
    };
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

fn print_rows(rows: &[Row], source: &str) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(
        out,
        "{:<6} {:>7}  {:<9} slurm ({source})",
        "shard", "games", "files"
    );
    for r in rows {
        let _ = writeln!(
            out,
            "{:<6} {:>7}  {:<9} {}",
            r.what, r.games, r.files, r.slurm
        );
    }
}

/// `arena slurm status DIR [--wait]`.
fn status(t: &Tournament, wait: bool) -> anyhow::Result<bool> {
    let subs = t.submissions()?;
    let jobs: Vec<u64> = subs.iter().map(|s| s.job).collect();
    if wait {
        // Poll squeue, gently: from 1 s up to 15 s between looks.
        let mut pause = Duration::from_millis(1000);
        let mut last = String::new();
        loop {
            let queued = query::queued(&jobs).map_err(anyhow::Error::msg)?;
            if queued.is_empty() {
                break;
            }
            let finished = (1..=t.shards()?)
                .filter(|&k| t.shard(k).is_finished())
                .count();
            let line = format!(
                "arena: {finished} of {} shards finished; queued or running: {}",
                t.shards()?,
                queued
                    .iter()
                    .map(|s| format!("{} {}", s.job, s.state))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            if line != last {
                eprintln!("{line}");
                last = line;
            }
            std::thread::sleep(pause);
            pause = (pause * 3 / 2).min(Duration::from_secs(15));
        }
    }
    let (states, source) = query::history(&jobs);
    let rows = rows(t, &subs, &states)?;
    print_rows(&rows, &source);
    let done = t.merged().is_finished();
    if done {
        eprintln!("arena: merged results in {}", t.merged().path.display());
    } else if wait {
        eprintln!(
            "arena: the tournament is not complete: re-run its unfinished shards with `arena slurm rerun {}`",
            t.dir.display()
        );
    }
    Ok(done || !wait)
}

/// `arena slurm rerun DIR`: the shards that did not finish, and a merge.
fn rerun(t: &Tournament, extra: &[String], dry_run: bool) -> anyhow::Result<bool> {
    let subs = t.submissions()?;
    let jobs: Vec<u64> = subs.iter().map(|s| s.job).collect();
    let queued = query::queued(&jobs).map_err(anyhow::Error::msg)?;
    if let Some(s) = queued.first() {
        anyhow::bail!(
            "job {} of this tournament is still {}: wait for it (`arena slurm status {} --wait`) or cancel it (scancel {}) first",
            s.job,
            s.state,
            t.dir.display(),
            s.job
        );
    }
    let unfinished: Vec<String> = (1..=t.shards()?)
        .filter(|&k| !t.shard(k).is_finished())
        .map(|k| k.to_string())
        .collect();
    if unfinished.is_empty() && t.merged().is_finished() {
        eprintln!(
            "arena: every shard and the merge finished: nothing to re-run (results in {})",
            t.merged().path.display()
        );
        return Ok(true);
    }
    let tasks = (!unfinished.is_empty()).then(|| unfinished.join(","));
    if dry_run {
        print_commands(t, tasks.as_deref(), extra);
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
        eprintln!(
            "arena: an incomplete merge was moved to {}",
            aside.display()
        );
    }
    submit_jobs(t, tasks.as_deref(), extra)?;
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
        let [shards, merge] = sbatch_options(Some("2,3"), "11", &["--account=x".into()]);
        assert_eq!(shards, ["--array=2,3", "--account=x"]);
        assert_eq!(
            merge,
            [
                "--dependency=afterany:11",
                "--kill-on-invalid-dep=yes",
                "--account=x"
            ]
        );
        // A merge alone (every shard finished) waits for nothing.
        let [_, merge] = sbatch_options(None, "", &[]);
        assert!(merge.is_empty());
    }
}
