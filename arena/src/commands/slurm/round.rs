//! A knockout, Swiss or league on Slurm, round by round: one job array
//! per round, and a small job between rounds that merges the round and
//! submits the next (a chain of job dependencies, as the merge job of a
//! round robin). Shard K of round R plays the round's series whose place
//! in it is K - 1 modulo the round's shards, into `DIR/round-R/shard-K`;
//! the round itself is paired by every task alike from `DIR/merged/games.csv`
//! (the games of the rounds before it), since a round's pairing is a pure
//! function of them. The job after round R (`next.sbatch R`, after the
//! array with `afterany`) checks that every shard finished, merges them
//! into `DIR/merged` with the merge's own checks, and submits round R + 1
//! and the job after it; after the last round it writes the summaries a
//! single run writes. The files are the only state: a job that fails or
//! is cancelled anywhere leaves a folder from which `arena slurm rerun`
//! finds what to submit again.

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Context as _;

use super::rounds::{self, Course};
use super::{query, refuse_stuck, Console, JobOptions, Jobs, Poll, Row, Submit, Tournament};
use crate::config::Config;
use crate::output::RunFolder;
use crate::shard::Shard;

/// The file that keeps a round-by-round tournament's job options, for the
/// jobs that its jobs submit.
const OPTIONS_FILE: &str = "options.toml";

/// Whether `config` split into `n` shards runs round by round: a format
/// that pairs each round from the one before, in more than one shard.
#[must_use]
pub fn by_round(config: &Config, n: usize) -> bool {
    !config.format.is_static() && n > 1
}

/// Whether `t` was submitted round by round (it has `slurm/round.sbatch`).
#[must_use]
pub fn is_by_round(t: &Tournament) -> bool {
    t.slurm().join("round.sbatch").exists()
}

impl Tournament {
    /// The run folder of shard `k` of round `round`.
    #[must_use]
    pub fn round_shard(&self, round: usize, k: usize) -> RunFolder {
        RunFolder {
            path: self
                .dir
                .join(format!("round-{round}"))
                .join(format!("shard-{k}")),
        }
    }

    /// The tournament's config, from its copy in the folder.
    fn config(&self) -> anyhow::Result<Config> {
        Ok(Config::load(
            &self.dir.join("config.toml"),
            &super::super::host(),
        )?)
    }

    /// The job options kept for the jobs to come.
    fn job_options(&self) -> anyhow::Result<JobOptions> {
        let path = self.slurm().join(OPTIONS_FILE);
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        toml::from_str(&text).with_context(|| format!("{} is not valid", path.display()))
    }

    fn save_job_options(&self, options: &JobOptions) -> anyhow::Result<()> {
        let text = toml::to_string(options)?;
        let path = self.slurm().join(OPTIONS_FILE);
        crate::output::write_bytes_atomic(&path, text.as_bytes())
            .with_context(|| format!("cannot write {}", path.display()))
    }

    /// Where the tournament stands, from `merged/games.csv` (whose rows
    /// the job between rounds checked as it merged them).
    fn course(&self, config: &Config) -> anyhow::Result<Course> {
        let merged = self.merged();
        let games: Vec<crate::output::MergedGame> = match merged.read_games()? {
            Some(read) => read.rows.iter().map(Into::into).collect(),
            None => Vec::new(),
        };
        rounds::follow(config, &games).with_context(|| merged.games().display().to_string())
    }
}

/// `arena slurm CONFIG --shards N` for a knockout, Swiss or league: writes
/// the folder and the scripts, and submits round 1 and the job after it.
///
/// # Errors
/// A league without `rounds`, a folder that is not new or empty, a bot
/// that does not start here, or sbatch's refusal.
pub fn submit(args: &Submit, config: &Config, console: &mut Console<'_>) -> anyhow::Result<bool> {
    if let crate::format::Format::League(l) = &config.format {
        anyhow::ensure!(
            l.rounds.is_some(),
            "{}: a league without rounds goes on until stopped, and on Slurm each round is a job array: set rounds = R in [tournament] (or run it whole, --shards 1)",
            args.config.display()
        );
    }
    let (workdir, dir, created) = super::out_dir(args, config)?;
    let scripts = super::script::Scripts {
        arena: std::env::current_exe().context("cannot find the arena executable")?,
        dir: dir.clone(),
        workdir,
        name: config.name.clone(),
        shards: args.shards,
        cpus: args
            .job
            .cpus
            .unwrap_or_else(|| super::default_cpus(&args.config)) as usize,
        max_running: args.job.max_running,
        partition: args.job.partition.clone(),
        time: args.job.time.clone(),
    };
    if !args.no_check {
        // Every task needs every bot: on_start_failure = "skip" cannot
        // leave one out of some rounds and not others.
        let mut strict = config.clone();
        strict.tournament.on_start_failure = crate::config::OnStartFailure::Stop;
        super::check_bots(&strict, &args.config, console)?;
    }
    let round_text = scripts.round_script()?;
    let next_text = scripts.next_script()?;
    let t = Tournament { dir };
    let first = rounds::follow(config, &[])?;
    let stage = first
        .current
        .context("the tournament has no round to play")?;
    let tasks = format!("1-{}", rounds::shards_of(&stage, args.shards));
    if args.dry_run {
        super::print_dry_run(
            &t,
            &[("round.sbatch", &round_text), ("next.sbatch", &next_text)],
            console,
        );
        let jobs = Jobs {
            tasks: Some(tasks),
            overrides: &args.job,
        };
        console.print(format_args!("# would run:"));
        for line in commands(&t, &jobs, 1, true) {
            console.print(format_args!("{line}"));
        }
        return Ok(true);
    }
    let written = super::write_folder(
        &t,
        args,
        config,
        &[("round.sbatch", &round_text), ("next.sbatch", &next_text)],
    )
    .and_then(|()| t.save_job_options(&args.job))
    .and_then(|()| {
        // The merged folder grows round by round.
        let merged = RunFolder::create(&t.merged().path)?;
        merged.write_config(&std::fs::read(t.dir.join("config.toml"))?)?;
        super::super::run::write_config_dir(&merged.path, &config.base)
    });
    let submitted = written.and_then(|()| submit_round(&t, 1, &tasks, &args.job, true, console));
    if let Err(e) = submitted {
        super::take_back(&t, created);
        return Err(e);
    }
    console.note(format_args!(
        "arena: follow it with `arena slurm status {0}` (--wait to wait); the rounds merge into {1}",
        t.dir.display(),
        t.merged().path.display()
    ));
    Ok(true)
}

/// The sbatch command lines of round `round`'s array (if `with_array`)
/// and of the job after it, as [`submit_round`] runs them.
fn commands(t: &Tournament, jobs: &Jobs, round: usize, with_array: bool) -> Vec<String> {
    let [array, next] = jobs.options(false, with_array.then_some("ARRAY_JOB_ID"));
    let line = |options: &[String], script: &str| {
        let mut words = vec!["sbatch".to_string(), "--parsable".into()];
        words.extend(options.iter().cloned());
        words.push(t.slurm().join(script).display().to_string());
        words.push(round.to_string());
        words.join(" ")
    };
    let mut lines = Vec::new();
    if with_array {
        lines.push(line(&array, "round.sbatch"));
    }
    lines.push(line(&next, "next.sbatch"));
    lines
}

/// Submits round `round`'s array with the tasks `tasks` (if `with_array`)
/// and the job after it, with `options`; prints the job ids.
fn submit_round(
    t: &Tournament,
    round: usize,
    tasks: &str,
    options: &JobOptions,
    with_array: bool,
    console: &mut Console<'_>,
) -> anyhow::Result<()> {
    let jobs = Jobs {
        tasks: Some(tasks.to_string()),
        overrides: options,
    };
    let arg = [round.to_string()];
    let array = if with_array {
        let [array, _] = jobs.options(false, None);
        let kind = format!("round-{round}");
        Some(t.submit_with(&kind, tasks, &array, "round.sbatch", &arg)?)
    } else {
        None
    };
    let array_job = array.map(|j| j.to_string());
    let [_, next] = jobs.options(false, array_job.as_deref());
    let next_job = t
        .submit_with(&format!("next-{round}"), "", &next, "next.sbatch", &arg)
        .with_context(|| {
            format!(
                "the job after round {round} was not submitted; once the cause is fixed, `arena slurm rerun {}` submits it",
                t.dir.display()
            )
        })?;
    if let Some(job) = array {
        console.print(format_args!(
            "round {round}: job {job} (array tasks {tasks})"
        ));
    }
    console.print(format_args!("next {round}: job {next_job}"));
    Ok(())
}

/// `arena slurm play DIR --round R --shard K`, a task of round R's array:
/// pairs round R from the merged games, and plays its shard K into
/// `DIR/round-R/shard-K`, resuming that folder if an earlier attempt left
/// one; marks it finished.
///
/// # Errors
/// Round R is not the round to play, K is past the round's shards, a bot
/// does not start, or the runner's own failures.
pub fn play(
    t: &Tournament,
    round: usize,
    shard: Option<usize>,
    console: &mut Console<'_>,
) -> anyhow::Result<bool> {
    let k = match shard {
        Some(k) => k,
        None => std::env::var("SLURM_ARRAY_TASK_ID")
            .ok()
            .and_then(|v| v.trim().parse().ok())
            .context("--shard K, or SLURM_ARRAY_TASK_ID, names the shard")?,
    };
    let config = t.config()?;
    let course = t.course(&config)?;
    let stage = match (course.round(), &course.current) {
        (Some(r), Some(stage)) if r == round => stage.clone(),
        (Some(r), _) => anyhow::bail!(
            "round {round} is not the one to play: the merged games of {} stand before round {r}",
            t.dir.display()
        ),
        _ => anyhow::bail!(
            "the tournament in {} is over: round {round} has nothing to play",
            t.dir.display()
        ),
    };
    let n = rounds::shards_of(&stage, t.shards()?);
    let shard = Shard::new(k, n).map_err(|_| {
        anyhow::anyhow!("round {round} has {n} shards (one per series at most): no shard {k}")
    })?;
    let share = rounds::share(&stage, k, n);
    let folder = t.round_shard(round, k);
    let text = std::fs::read(t.dir.join("config.toml"))?;
    let resume = folder.is_run();
    let (dir, _lock) = if resume {
        RunFolder::resume(&folder.path, &text, Some(shard))?
    } else {
        let begun = RunFolder::begin(&folder.path, &text, Some(shard))?;
        super::super::run::write_config_dir(&begun.0.path, &config.base)?;
        begun
    };
    if dir.is_finished() {
        console.note(format_args!(
            "arena: round {round}, shard {shard} finished already, in {}",
            dir.path.display()
        ));
        return Ok(true);
    }
    let options = crate::runner::RunOptions {
        guard: std::env::current_exe().ok(),
        resume,
        stage: Some(share.clone()),
        ..Default::default()
    };
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    let checks = runtime.block_on(crate::runner::check_bots(&config, &dir, &options));
    let failed = super::super::not_started(&config.bots, &checks.failures);
    anyhow::ensure!(
        failed.is_empty(),
        "{} (on Slurm a round-by-round tournament needs every bot: fix it and `arena slurm rerun {}`)",
        failed.join("; "),
        t.dir.display()
    );
    let cancel = tokio_util::sync::CancellationToken::new();
    let summary = runtime.block_on(crate::runner::run(
        Arc::new(config),
        &dir,
        &options,
        &cancel,
        |_| {},
    ))?;
    drop(runtime);
    let games: usize = summary.series.iter().map(|s| s.wdl.games() as usize).sum();
    dir.mark_finished(games)
        .context("cannot mark the shard finished")?;
    console.note(format_args!(
        "arena: round {round}, shard {shard}: {} of {} in {}",
        crate::output::counted(games, "game", "games"),
        crate::output::counted(share.series.len(), "series", "series"),
        dir.path.display()
    ));
    Ok(true)
}

/// `arena slurm next DIR --round R`, the job after round R's array: if
/// every shard of round R finished, merges them into `DIR/merged` and
/// submits round R + 1 and the job after it, or, after the last round,
/// writes the summaries a single run writes and marks the merge finished.
///
/// # Errors
/// A shard of round R did not finish (named, with `arena slurm rerun`),
/// round R is not the round the merged games stand at, the shards' games
/// do not merge (the merge's checks), or sbatch fails.
pub fn next(t: &Tournament, round: usize, console: &mut Console<'_>) -> anyhow::Result<bool> {
    let config = t.config()?;
    let course = t.course(&config)?;
    let Some(stage) = course.current.clone() else {
        // Merged, but the summaries were not written: write them.
        return finish(t, &config, &course, console);
    };
    let at = course.round().unwrap_or_default();
    anyhow::ensure!(
        at == round,
        "round {round} is not the round {} stands at (round {at}): `arena slurm status {0}` shows where it is, and `arena slurm rerun {0}` goes on from there",
        t.dir.display()
    );
    let n = rounds::shards_of(&stage, t.shards()?);
    let unfinished: Vec<usize> = (1..=n)
        .filter(|&k| !t.round_shard(round, k).is_finished())
        .collect();
    anyhow::ensure!(
        unfinished.is_empty(),
        "round {round}: {} of {} did not finish ({}): `arena slurm rerun {}` plays {} again from where it stopped, and the rounds go on",
        unfinished.len(),
        crate::output::counted(n, "shard", "shards"),
        unfinished
            .iter()
            .map(|k| format!("shard {k}, {}", t.round_shard(round, *k).path.display()))
            .collect::<Vec<_>>()
            .join("; "),
        t.dir.display(),
        if unfinished.len() == 1 { "it" } else { "each" }
    );
    let merged = t.merged();
    let shards: Vec<RunFolder> = (1..=n).map(|k| t.round_shard(round, k)).collect();
    let mut files: Vec<PathBuf> = Vec::new();
    if merged.has_games() {
        files.push(merged.games());
    }
    files.extend(shards.iter().map(RunFolder::games));
    let tables = super::super::tables_for(None, Some(&config))?;
    let checked = crate::output::games::merge_games_with(&files, None, tables, config.adjudicate)?;
    // A finished shard counted its games: a copy cut short has fewer.
    let counts = &checked.per_file[checked.per_file.len() - n..];
    for (shard, &rows) in shards.iter().zip(counts) {
        if let Some(counted) = shard.finished_games().filter(|&c| c != rows) {
            anyhow::bail!(
                "{} finished with {}, but its games.csv holds {}: play it again (remove its `finished` file, then `arena slurm rerun {}`)",
                shard.path.display(),
                crate::output::counted(counted, "game", "games"),
                crate::output::counted(rows, "whole row", "whole rows"),
                t.dir.display()
            );
        }
    }
    let after = rounds::follow(&config, &checked.games)?;
    anyhow::ensure!(
        after.done.len() >= round,
        "round {round} is not over with the games of its {}: a shard did not play all its series",
        crate::output::counted(n, "shard", "shards")
    );
    write_games(&merged, &checked.rows)?;
    console.note(format_args!(
        "arena: round {round} merged: {} in {}",
        crate::output::counted(checked.rows.len(), "game", "games"),
        merged.games().display()
    ));
    let Some(stage) = after.current.clone() else {
        return finish(t, &config, &after, console);
    };
    // The merged folder shows the rounds so far, as an interrupted run's.
    write_roster(&config, &merged)?;
    crate::report::write_summaries(&config, &merged, &after.summary())?;
    let tasks = format!("1-{}", rounds::shards_of(&stage, t.shards()?));
    submit_round(t, round + 1, &tasks, &t.job_options()?, true, console)?;
    Ok(true)
}

/// A league's `roster.csv` in `merged`, as a single run writes it: on
/// Slurm the roster is fixed, every bot in from round 1 to the end.
fn write_roster(config: &Config, merged: &RunFolder) -> anyhow::Result<()> {
    if !matches!(config.format, crate::format::Format::League(_)) {
        return Ok(());
    }
    let roster = crate::format::roster::Roster::starting(config.bots.len(), &[]);
    let names: Vec<String> = config.bots.iter().map(|b| b.name.clone()).collect();
    crate::output::roster::write_roster(&merged.path, &roster, &names)
        .with_context(|| format!("cannot write {}", merged.path.join("roster.csv").display()))
}

/// Writes `rows` as `merged`'s `games.csv`, whole or not at all.
fn write_games(merged: &RunFolder, rows: &[crate::output::GameRow]) -> anyhow::Result<()> {
    let path = merged.games();
    let new = merged.path.join("games.csv.new");
    crate::output::games::write_rows_to(&new, rows)?;
    std::fs::rename(&new, &path).with_context(|| format!("cannot write {}", path.display()))
}

/// The tournament is over: marks the merge finished and writes the
/// summaries a single run writes; prints the final table.
fn finish(
    t: &Tournament,
    config: &Config,
    course: &Course,
    console: &mut Console<'_>,
) -> anyhow::Result<bool> {
    let merged = t.merged();
    let summary = course.summary();
    let games = summary.series.iter().map(|s| s.wdl.games() as usize).sum();
    merged
        .mark_finished(games)
        .context("cannot mark the merge finished")?;
    write_roster(config, &merged)?;
    let table = crate::report::write_summaries(config, &merged, &summary)?;
    console.print(table);
    console.note(format_args!(
        "arena: the tournament is over after {}: results in {}",
        crate::output::counted(course.done.len(), "round", "rounds"),
        merged.path.display()
    ));
    Ok(true)
}

/// The newest submission of kind `kind` (with task `k`, for an array).
fn latest(subs: &[super::Submission], kind: &str, k: Option<usize>) -> Option<u64> {
    subs.iter()
        .rev()
        .filter(|s| s.kind == kind)
        .find(|s| {
            k.is_none_or(|k| {
                query::parse_job_id(&format!("0_{}", s.tasks))
                    .and_then(|(_, tasks)| tasks)
                    .is_some_and(|tasks| tasks.contains(&k))
            })
        })
        .map(|s| s.job)
}

/// The status table: the shards of the round the tournament stands at
/// (the last one once over), the job after it, and the merged folder.
fn rows(
    t: &Tournament,
    course: &Course,
    subs: &[super::Submission],
    states: &[query::JobState],
) -> anyhow::Result<Vec<Row>> {
    let state_of = |job: Option<u64>, task: Option<usize>| super::job_state(states, job, task);
    let (round, stage) = match (&course.current, course.done.last()) {
        (Some(stage), _) => (course.done.len() + 1, stage),
        (None, Some(stage)) => (course.done.len(), stage),
        (None, None) => return Ok(Vec::new()),
    };
    let n = rounds::shards_of(stage, t.shards()?);
    let kind = format!("round-{round}");
    let mut rows: Vec<Row> = (1..=n)
        .map(|k| {
            let dir = t.round_shard(round, k);
            Row {
                what: k.to_string(),
                games: super::games_in(&dir),
                files: super::files_state(&dir),
                slurm: state_of(latest(subs, &kind, Some(k)), Some(k)),
            }
        })
        .collect();
    rows.push(Row {
        what: "next".into(),
        games: 0,
        files: "-",
        slurm: state_of(latest(subs, &format!("next-{round}"), None), None),
    });
    let merged = t.merged();
    rows.push(Row {
        what: "merged".into(),
        games: super::games_in(&merged),
        files: super::files_state(&merged),
        slurm: format!(
            "{} merged",
            crate::output::counted(course.done.len(), "round", "rounds")
        ),
    });
    Ok(rows)
}

/// "round 2 of 3 (league), 2 shards", or "over after 3 rounds (league)".
fn headline(config: &Config, course: &Course, t: &Tournament) -> String {
    let name = config.format.name();
    let of = rounds::rounds_of(&config.format, config.bots.len())
        .map(|r| match config.format {
            crate::format::Format::Knockout { .. } => format!(" of {r} (and deciders)"),
            _ => format!(" of {r}"),
        })
        .unwrap_or_default();
    match &course.current {
        Some(stage) => format!(
            "{name}: round {}{of}, in {} of {} series",
            course.done.len() + 1,
            crate::output::counted(
                rounds::shards_of(stage, t.shards().unwrap_or(1)),
                "shard",
                "shards"
            ),
            stage.series.len()
        ),
        None => format!(
            "{name}: over after {}",
            crate::output::counted(course.done.len(), "round", "rounds")
        ),
    }
}

/// `arena slurm status DIR [--wait]` of a tournament played round by
/// round. `--wait` follows the chain of rounds until no job of the
/// tournament is queued or running, or every one that is waits for a
/// release (held) or for something that will never come.
///
/// # Errors
/// An unreadable folder, or a Slurm tool that is missing or fails.
pub fn status(t: &Tournament, wait: bool, console: &mut Console<'_>) -> anyhow::Result<bool> {
    let config = t.config()?;
    if wait {
        wait_for_chain(t, &config, console)?;
    }
    let subs = t.submissions()?;
    let jobs: Vec<u64> = subs.iter().map(|s| s.job).collect();
    let (states, source) = query::history(&jobs);
    let source = if source.is_empty() {
        "no Slurm tool answered".to_string()
    } else {
        source
    };
    let course = t.course(&config)?;
    console.print(format_args!("{}", headline(&config, &course, t)));
    super::print_rows(&rows(t, &course, &subs, &states)?, &source, console);
    let done = t.merged().is_finished();
    if done {
        console.note(format_args!(
            "arena: merged results in {}",
            t.merged().path.display()
        ));
    } else if wait && query::queued(&jobs)?.is_empty() {
        if let Some(why) = last_error(&t.slurm().join("next.log")) {
            console.note(format_args!("arena: the job between rounds said: {why}"));
        }
        console.note(format_args!(
            "arena: the rounds stopped: `arena slurm rerun {}` plays again what did not finish, and the rounds go on",
            t.dir.display()
        ));
    }
    Ok(done || !wait)
}

/// The error the latest attempt logged in `log` (a job between rounds'),
/// if it ended on one: its `error: ` line, without that prefix.
fn last_error(log: &std::path::Path) -> Option<String> {
    let text = std::fs::read_to_string(log).ok()?;
    let latest = text.rsplit("\n== ").next()?;
    latest
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix("error: "))
        .map(str::to_string)
}

/// Polls squeue, gently (from 1 s up to 15 s between looks), until no
/// job of `t` is queued or running, or all that are wait for a release.
fn wait_for_chain(
    t: &Tournament,
    config: &Config,
    console: &mut Console<'_>,
) -> anyhow::Result<()> {
    let mut poll = Poll::new();
    loop {
        // squeue first, jobs.csv second: a job between rounds records the
        // jobs it submits before it ends, so none is missed.
        let queue = query::queue()?;
        let jobs: Vec<u64> = t.submissions()?.iter().map(|s| s.job).collect();
        let queued: Vec<&query::JobState> =
            queue.iter().filter(|s| jobs.contains(&s.job)).collect();
        if queued.is_empty() {
            return Ok(());
        }
        refuse_stuck(t, queued.iter().copied())?;
        let waiting = |s: &&query::JobState| {
            s.held() || (s.state == "PENDING" && s.reason.starts_with("Dependency"))
        };
        if queued.iter().all(waiting) && queued.iter().any(|s| s.held()) {
            let held: Vec<String> = queued
                .iter()
                .filter(|s| s.held())
                .map(|s| s.job.to_string())
                .collect();
            console.note(format_args!(
                "arena: held, waiting for a release: scontrol release {}",
                held.join(" ")
            ));
            return Ok(());
        }
        let course = t.course(config)?;
        let line = format!(
            "arena: {}; queued or running: {}",
            headline(config, &course, t),
            queued
                .iter()
                .map(|s| format!("job {} {}", s.job, s.describe()))
                .collect::<Vec<_>>()
                .join(", ")
        );
        poll.say_and_wait(line, console);
    }
}

/// `arena slurm rerun DIR` of a tournament played round by round: submits
/// again the shards of the current round that did not finish, each
/// resuming its folder, and the job after them (alone, if every shard
/// finished but it did not go on). `job` goes over the kept options, for
/// these jobs and every round after.
///
/// # Errors
/// A job of the tournament still queued or running, or sbatch's refusal.
pub fn rerun(
    t: &Tournament,
    job: &JobOptions,
    dry_run: bool,
    console: &mut Console<'_>,
) -> anyhow::Result<bool> {
    super::check_extra(job)?;
    super::refuse_while_queued(t)?;
    let config = t.config()?;
    let course = t.course(&config)?;
    let options = over(&t.job_options()?, job);
    let (round, tasks) = match &course.current {
        Some(stage) => {
            let round = course.done.len() + 1;
            let n = rounds::shards_of(stage, t.shards()?);
            let unfinished: Vec<String> = (1..=n)
                .filter(|&k| !t.round_shard(round, k).is_finished())
                .map(|k| k.to_string())
                .collect();
            (round, unfinished.join(","))
        }
        None if t.merged().is_finished() => {
            console.note(format_args!(
                "arena: every round is merged: nothing to re-run (results in {})",
                t.merged().path.display()
            ));
            return Ok(true);
        }
        None => (course.done.len(), String::new()),
    };
    let with_array = !tasks.is_empty();
    if dry_run {
        let jobs = Jobs {
            tasks: Some(tasks),
            overrides: &options,
        };
        console.print(format_args!("# would run:"));
        for line in commands(t, &jobs, round, with_array) {
            console.print(format_args!("{line}"));
        }
        return Ok(true);
    }
    t.save_job_options(&options)?;
    submit_round(t, round, &tasks, &options, with_array, console)?;
    Ok(true)
}

/// The kept job options `kept` with those given `new` over them (its
/// `--sbatch` options, if any, replace the kept ones).
fn over(kept: &JobOptions, new: &JobOptions) -> JobOptions {
    JobOptions {
        partition: new.partition.clone().or_else(|| kept.partition.clone()),
        time: new.time.clone().or_else(|| kept.time.clone()),
        cpus: new.cpus.or(kept.cpus),
        max_running: new.max_running.or(kept.max_running),
        sbatch: if new.sbatch.is_empty() {
            kept.sbatch.clone()
        } else {
            new.sbatch.clone()
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_status_tells_the_latest_error_of_the_job_between_rounds() {
        let tmp = tempfile::tempdir().unwrap();
        let log = tmp.path().join("next.log");
        std::fs::write(
            &log,
            "== after round 1: job 2\nerror: round 1: 1 of 2 shards did not finish\n== after round 1: job 7\narena: round 1 merged\n",
        )
        .unwrap();
        assert_eq!(last_error(&log), None, "the re-run went on");
        std::fs::write(
            &log,
            "== after round 1: job 2\narena: round 1 merged\n== after round 2: job 5\nerror: round 2: 1 of 2 shards did not finish\n",
        )
        .unwrap();
        assert_eq!(
            last_error(&log).as_deref(),
            Some("round 2: 1 of 2 shards did not finish")
        );
    }

    #[test]
    fn options_given_on_a_rerun_go_over_the_kept_ones() {
        let kept = JobOptions {
            partition: Some("short".into()),
            time: Some("1:00:00".into()),
            sbatch: vec!["--account=a".into()],
            ..Default::default()
        };
        let new = JobOptions {
            time: Some("4:00:00".into()),
            ..Default::default()
        };
        let both = over(&kept, &new);
        assert_eq!(both.partition.as_deref(), Some("short"));
        assert_eq!(both.time.as_deref(), Some("4:00:00"));
        assert_eq!(both.sbatch, ["--account=a"]);
        let text = toml::to_string(&both).unwrap();
        assert_eq!(toml::from_str::<JobOptions>(&text).unwrap(), both);
    }
}
