//! `arena slurm` against a real Slurm: a one-node cluster on localhost
//! (munged, MariaDB and slurmdbd, slurmctld, slurmd), started by
//! `tools/slurm/cluster.sh` and stopped when the test ends.
//!
//! Skipped, saying why, only where Slurm cannot run: not installed
//! (`tools/slurm/cluster.sh install` installs it), or not root. With
//! `ENDODOI_REQUIRE_SLURM=1` (as `.ci/run` sets) a skip is a failure.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use common::{
    arena_bot, assert_contains, assert_same_files, assert_success, config, games_without_timing,
    repo, run_arena, run_to, stderr_of, stdout_of, temp_config, SUMMARY_FILES,
};

/// A running one-node cluster; dropping it stops every daemon.
struct Cluster {
    dir: tempfile::TempDir,
}

impl Cluster {
    /// Starts the cluster, or says why Slurm cannot run here.
    fn up() -> Result<Cluster, String> {
        // Unix sockets need short paths: /tmp, not target/.
        let dir = tempfile::Builder::new()
            .prefix("endodoi-slurm-")
            .tempdir_in("/tmp")
            .unwrap();
        let log = dir.path().join("up.log");
        // The daemons outlive the script: their output goes to a file, so
        // no pipe of ours stays open.
        let status = Command::new(repo().join("tools/slurm/cluster.sh"))
            .arg("up")
            .arg(dir.path().join("c"))
            .stdout(std::fs::File::create(&log).unwrap())
            .stderr(Stdio::from(
                std::fs::File::create(dir.path().join("up.err")).unwrap(),
            ))
            .status()
            .unwrap();
        let said = std::fs::read_to_string(&log).unwrap_or_default();
        let cluster = Cluster { dir };
        match status.code() {
            Some(0) => Ok(cluster),
            Some(3) => Err(said.lines().last().unwrap_or("").to_string()),
            _ => panic!(
                "the test cluster did not start:\n{said}\n{}",
                std::fs::read_to_string(cluster.dir.path().join("up.err")).unwrap_or_default()
            ),
        }
    }

    fn conf(&self) -> PathBuf {
        self.dir.path().join("c/slurm.conf")
    }

    /// A command with this cluster's SLURM_CONF.
    fn command(&self, program: impl AsRef<std::ffi::OsStr>) -> Command {
        let mut c = Command::new(program);
        c.env("SLURM_CONF", self.conf()).env(
            "PATH",
            format!("{}:/usr/sbin", std::env::var("PATH").unwrap_or_default()),
        );
        c
    }

    fn arena(&self, args: &[&str], dir: &Path) -> Output {
        self.command(env!("CARGO_BIN_EXE_arena"))
            .args(args)
            .current_dir(dir)
            .output()
            .unwrap()
    }

    /// `arena slurm CFG --shards SHARDS --out OUT` (held: with
    /// `--sbatch=--hold`) from the folder `dir`, asserting it succeeded.
    fn submit(&self, dir: &Path, cfg: &Path, shards: usize, out: &Path, held: bool) -> Output {
        let shards = shards.to_string();
        let mut args = vec![
            "slurm",
            cfg.to_str().unwrap(),
            "--shards",
            &shards,
            "--out",
            out.to_str().unwrap(),
        ];
        if held {
            args.push("--sbatch=--hold");
        }
        let submitted = self.arena(&args, dir);
        assert_success(&submitted);
        submitted
    }

    /// Submits `cfg` held ([`Cluster::submit`]) into `out`, and the ids of
    /// the two jobs whose lines are named `first` and `then`.
    fn submit_held(
        &self,
        dir: &Path,
        cfg: &Path,
        shards: usize,
        out: &Path,
        [first, then]: [&str; 2],
    ) -> (String, String) {
        let submitted = self.submit(dir, cfg, shards, out, true);
        (
            job_id(&submitted.stdout, first),
            job_id(&submitted.stdout, then),
        )
    }

    fn slurm_tool(&self, program: &str, args: &[&str]) {
        let output = self.command(program).args(args).output().unwrap();
        assert_success(&output);
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = Command::new(repo().join("tools/slurm/cluster.sh"))
            .arg("down")
            .arg(self.dir.path().join("c"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
    }
}

/// The job id printed on the line that starts with `what: job `.
fn job_id(stdout: &[u8], what: &str) -> String {
    let text = String::from_utf8_lossy(stdout);
    text.lines()
        .find_map(|l| l.strip_prefix(&format!("{what}: job ")))
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("no '{what}: job' line in:\n{text}"))
        .to_string()
}

/// One cluster at a time: the tests of this file take turns.
static ONE_CLUSTER: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Starts a cluster, or skips the test (returns `None`) where Slurm cannot
/// run, unless `ENDODOI_REQUIRE_SLURM=1`.
fn cluster_or_skip() -> Option<Cluster> {
    match Cluster::up() {
        Ok(c) => Some(c),
        Err(why) if std::env::var("ENDODOI_REQUIRE_SLURM").as_deref() == Ok("1") => {
            panic!("ENDODOI_REQUIRE_SLURM=1, but {why}")
        }
        Err(why) => {
            common::skipped(why);
            None
        }
    }
}

#[test]
fn a_job_array_with_a_cancelled_shard_reruns_and_merges_to_a_single_run() {
    let _turn = ONE_CLUSTER.lock().unwrap_or_else(|e| e.into_inner());
    let Some(cluster) = cluster_or_skip() else {
        return;
    };
    let (tmp, cfg) = temp_config(
        "[board]\nholes = 6\n[tournament]\nfirst_to = 3\nconcurrency = 1\nseed = 9\n",
        &[
            ("g1", arena_bot("greedy", 1)),
            ("g2", arena_bot("greedy", 2)),
            ("r1", arena_bot("random", 3)),
            ("r2", arena_bot("random", 4)),
        ],
    );
    let (single, _) = run_to(&cfg, tmp.path().join("single"));

    // Submitted held, so that task 2 can be cancelled before it starts: a
    // shard that never ran, as when a user cancels it. (Slurm keeps no
    // record of such a task; the arena finds it from the files.)
    let t = tmp.path().join("t");
    let (array, merge) = cluster.submit_held(tmp.path(), &cfg, 3, &t, ["shards", "merge"]);
    cluster.slurm_tool("scancel", &[&format!("{array}_2")]);
    cluster.slurm_tool("scontrol", &["release", &array, &merge]);

    let status = cluster.arena(
        &["slurm", "status", t.to_str().unwrap(), "--wait"],
        tmp.path(),
    );
    let table = stdout_of(&status);
    assert_eq!(status.status.code(), Some(1), "{table}");
    let line = |k: &str| {
        table
            .lines()
            .find(|l| l.split_whitespace().next() == Some(k))
            .unwrap_or_else(|| panic!("no row {k} in:\n{table}"))
            .to_string()
    };
    assert!(
        line("1").contains("finished") && line("1").contains("COMPLETED"),
        "{table}"
    );
    assert!(
        line("2").contains("none") && line("2").contains("never ran"),
        "{table}"
    );
    assert!(line("merge").contains("FAILED"), "{table}");
    let merge_log = std::fs::read_to_string(t.join("slurm/merge.log")).unwrap();
    assert_contains(
        &merge_log,
        &format!("{} holds no run", t.join("shard-2").display()),
    );

    // Shard 3 as a task killed half-way leaves it: some games synced, and
    // no `finished` marker. Its re-run must resume it, not start over.
    let shard3 = t.join("shard-3/games.csv");
    let text = std::fs::read_to_string(&shard3).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines.len() > 3,
        "shard 3 played too few games to cut: {text}"
    );
    std::fs::write(&shard3, lines[..lines.len() / 2].join("\n") + "\n").unwrap();
    std::fs::remove_file(t.join("shard-3/finished")).unwrap();

    let rerun = cluster.arena(&["slurm", "rerun", t.to_str().unwrap()], tmp.path());
    assert_success(&rerun);
    assert!(
        stdout_of(&rerun).contains("(array tasks 2,3)"),
        "{}",
        stdout_of(&rerun)
    );
    let status = cluster.arena(
        &["slurm", "status", t.to_str().unwrap(), "--wait"],
        tmp.path(),
    );
    assert_success(&status);

    let merged = t.join("merged");
    assert_same_files(&single, &merged, &SUMMARY_FILES);
    assert_eq!(games_without_timing(&single), games_without_timing(&merged));

    // Nothing is left to re-run now.
    let again = cluster.arena(&["slurm", "rerun", t.to_str().unwrap()], tmp.path());
    assert_success(&again);
    assert!(stderr_of(&again).contains("nothing to re-run"));
}

/// The job of kind `kind` (`round-2`, `next-2`) last recorded in
/// `DIR/slurm/jobs.csv`.
fn recorded_job(t: &Path, kind: &str) -> String {
    let text = std::fs::read_to_string(t.join("slurm/jobs.csv")).unwrap();
    text.lines()
        .rev()
        .find_map(|l| {
            let mut cells = l.split(',');
            (cells.next() == Some(kind)).then(|| cells.next().unwrap().to_string())
        })
        .unwrap_or_else(|| panic!("no {kind} job in:\n{text}"))
}

/// `arena slurm status DIR --wait`: its exit code and its table.
fn wait_for(cluster: &Cluster, t: &Path, cwd: &Path) -> (Option<i32>, String) {
    let status = cluster.arena(&["slurm", "status", t.to_str().unwrap(), "--wait"], cwd);
    (
        status.status.code(),
        format!("{}\n{}", stdout_of(&status), stderr_of(&status)),
    )
}

/// The line of `table` whose first word is `what`.
fn row(table: &str, what: &str) -> String {
    table
        .lines()
        .find(|l| l.split_whitespace().next() == Some(what))
        .unwrap_or_else(|| panic!("no row {what} in:\n{table}"))
        .to_string()
}

#[test]
fn a_league_runs_round_by_round_with_a_cancelled_shard_rerun_to_a_single_run() {
    let _turn = ONE_CLUSTER.lock().unwrap_or_else(|e| e.into_inner());
    let Some(cluster) = cluster_or_skip() else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let bots: Vec<(String, Vec<String>)> = (0..8)
        .map(|i| {
            let kind = if i % 2 == 0 { "greedy" } else { "random" };
            (format!("b{i}"), arena_bot(kind, i + 1))
        })
        .collect();
    let cfg = config(
        tmp.path(),
        "[board]\nholes = 6\n[tournament]\nformat = \"league\"\nrounds = 3\nconcurrency = 1\nseed = 5\n",
        &bots,
    );
    let (single, _) = run_to(&cfg, tmp.path().join("single"));

    // Held, so that the test can step in between rounds: --sbatch options
    // are kept for every round's jobs.
    let t = tmp.path().join("t");
    let (round1, next1) = cluster.submit_held(tmp.path(), &cfg, 2, &t, ["round 1", "next 1"]);
    cluster.slurm_tool("scontrol", &["release", &round1, &next1]);
    // Round 1 plays; the job after it merges it and submits round 2, held.
    let (code, table) = wait_for(&cluster, &t, tmp.path());
    assert_eq!(code, Some(1), "{table}");
    assert_contains(&table, "league: round 2 of 3, in 2 shards of 4 series");
    assert!(row(&table, "merged").contains("1 round merged"), "{table}");

    // Round 2: shard 2 is cancelled, shard 1 plays, and the job after the
    // round stops the chain, naming the shard.
    let (round2, next2) = (recorded_job(&t, "round-2"), recorded_job(&t, "next-2"));
    cluster.slurm_tool("scancel", &[&format!("{round2}_2")]);
    cluster.slurm_tool("scontrol", &["release", &round2, &next2]);
    let (code, table) = wait_for(&cluster, &t, tmp.path());
    assert_eq!(code, Some(1), "{table}");
    assert_contains(&table, "league: round 2 of 3");
    let (one, two) = (row(&table, "1"), row(&table, "2"));
    assert!(
        one.contains("finished") && one.contains("COMPLETED"),
        "{table}"
    );
    assert!(two.contains("none") && two.contains("never ran"), "{table}");
    assert!(row(&table, "next").contains("FAILED"), "{table}");
    assert_contains(
        &table,
        "the job between rounds said: round 2: 1 of 2 shards did not finish",
    );
    let log = std::fs::read_to_string(t.join("slurm/next.log")).unwrap();
    assert!(
        log.contains("round 2: 1 of 2 shards did not finish (shard 2"),
        "{log}"
    );

    // Shard 1 as a task killed half-way leaves it: its re-run resumes it.
    let shard1 = t.join("round-2/shard-1/games.csv");
    let text = std::fs::read_to_string(&shard1).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines.len() >= 4,
        "round 2's shard 1 played too few games to cut: {text}"
    );
    std::fs::write(&shard1, lines[..lines.len() / 2 + 1].join("\n") + "\n").unwrap();
    std::fs::remove_file(t.join("round-2/shard-1/finished")).unwrap();

    let rerun = cluster.arena(&["slurm", "rerun", t.to_str().unwrap()], tmp.path());
    assert_success(&rerun);
    let said = stdout_of(&rerun);
    assert_contains(&said, "(array tasks 1,2)");
    let (again, next) = (
        job_id(&rerun.stdout, "round 2"),
        job_id(&rerun.stdout, "next 2"),
    );
    cluster.slurm_tool("scontrol", &["release", &again, &next]);
    let (code, table) = wait_for(&cluster, &t, tmp.path());
    assert_eq!(code, Some(1), "{table}");
    assert_contains(&table, "league: round 3 of 3");
    let (round3, next3) = (recorded_job(&t, "round-3"), recorded_job(&t, "next-3"));
    cluster.slurm_tool("scontrol", &["release", &round3, &next3]);
    let (code, table) = wait_for(&cluster, &t, tmp.path());
    assert_eq!(code, Some(0), "{table}");
    assert_contains(&table, "league: over after 3 rounds");

    let merged = t.join("merged");
    let mut files = SUMMARY_FILES.to_vec();
    files.extend(["league.csv", "roster.csv", "finished"]);
    assert_same_files(&single, &merged, &files);
    assert_eq!(games_without_timing(&single), games_without_timing(&merged));
    let csvs = |dir: &Path| {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".csv") || n.ends_with(".html") || n.ends_with(".svg"))
            .collect();
        names.sort();
        names
    };
    assert_eq!(csvs(&single), csvs(&merged));

    let again = cluster.arena(&["slurm", "rerun", t.to_str().unwrap()], tmp.path());
    assert_success(&again);
    assert!(stderr_of(&again).contains("nothing to re-run"));
}

/// Submits `cfg` as `shards` shards a round, waits for the chain of
/// rounds to end, and compares `merged/` with `single` (a run in one go),
/// `format_file` too; returns the status table.
fn rounds_match_a_single_run(
    cluster: &Cluster,
    cfg: &Path,
    single: &Path,
    shards: usize,
    format_file: &str,
) -> String {
    let dir = cfg.parent().unwrap();
    let t = dir.join(format!("t-{format_file}"));
    let submitted = cluster.submit(dir, cfg, shards, &t, false);
    assert!(
        stdout_of(&submitted).contains("round 1: job"),
        "{}",
        stdout_of(&submitted)
    );
    let (code, table) = wait_for(cluster, &t, dir);
    assert_eq!(code, Some(0), "{table}");
    let merged = t.join("merged");
    let mut files = SUMMARY_FILES.to_vec();
    files.extend([format_file, "finished"]);
    assert_same_files(single, &merged, &files);
    assert_eq!(games_without_timing(single), games_without_timing(&merged));
    table
}

/// `n` bundled bots named `prefix0`, ...: greedy and random, seeded.
fn field(prefix: &str, n: u64, greedy: impl Fn(u64) -> bool) -> Vec<(String, Vec<String>)> {
    (0..n)
        .map(|i| {
            let kind = if greedy(i) { "greedy" } else { "random" };
            (format!("{prefix}{i}"), arena_bot(kind, i + 10))
        })
        .collect()
}

#[test]
fn a_swiss_and_a_knockout_run_round_by_round_to_a_single_run() {
    let _turn = ONE_CLUSTER.lock().unwrap_or_else(|e| e.into_inner());
    let Some(cluster) = cluster_or_skip() else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    for (format, header, n, shards) in [
        (
            "swiss",
            "format = \"swiss\"\nrounds = 3\nfirst_to = 2\nseed = 3",
            6,
            3,
        ),
        // Series of one game pair: drawn ones go to deciders, each a
        // round of their own on Slurm.
        (
            "knockout",
            "format = \"knockout\"\nfirst_to = 1\nmax_games = 2\nseed = 4",
            8,
            2,
        ),
    ] {
        let dir = tmp.path().join(format);
        std::fs::create_dir_all(&dir).unwrap();
        let bots = field(&format[..1], n, |i| i % 2 == 0);
        let cfg = config(
            &dir,
            &format!("[board]\nholes = 6\n[tournament]\n{header}\nconcurrency = 1\n"),
            &bots,
        );
        let single = dir.join("single");
        assert_success(&run_arena(&cfg, &single));
        let file = format!("{format}.csv");
        let table = rounds_match_a_single_run(&cluster, &cfg, &single, shards, &file);
        assert_contains(&table, &format!("{format}: over after"));
    }
}
