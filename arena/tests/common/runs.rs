//! Runs of the `arena` binary and of the tools that check its output, to
//! completion, with what they printed.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use super::configs::{arena_bot, config, repo, write_config};

/// The `arena` binary this test build made, as a command to add to.
pub fn arena_command() -> Command {
    Command::new(env!("CARGO_BIN_EXE_arena"))
}

/// `arena ARGS…`, to completion, its stdout and stderr captured.
pub fn arena(args: &[&dyn AsRef<OsStr>]) -> Output {
    let mut command = arena_command();
    for arg in args {
        command.arg(arg);
    }
    command.output().unwrap()
}

/// `arena tablebase build` of the 2x4 endgame tables to 10 seeds on the
/// board into `out`, asserting it succeeded: the tables the tests of
/// `perfect`, `arena analyse` and tablebase adjudication play on.
pub fn build_tables(out: &Path) {
    assert_success(&arena(&[
        &"tablebase",
        &"build",
        &"--holes",
        &"4",
        &"--seeds-on-board",
        &"10",
        &"--out",
        &out,
    ]));
}

/// `arena run CFG --out OUT`, to completion.
pub fn run_arena(cfg: &Path, out: &Path) -> Output {
    run_with(cfg, out, &[])
}

/// `arena run CFG --out OUT`, to completion, asserting it succeeded; the
/// run folder and what the arena printed.
pub fn run_to(cfg: &Path, out: PathBuf) -> (PathBuf, Output) {
    let output = run_arena(cfg, &out);
    assert_success(&output);
    (out, output)
}

/// A new temporary folder holding the config of `header` and `bots`
/// ([`temp_config`]), run to completion into its folder `run`, asserting
/// it succeeded: the temporary folder (removed when dropped), the run
/// folder and what the arena printed.
pub fn temp_run<N: AsRef<str>>(
    header: &str,
    bots: &[(N, Vec<String>)],
) -> (tempfile::TempDir, PathBuf, Output) {
    let tmp = tempfile::tempdir().unwrap();
    let (run, output) = run_in(tmp.path(), header, bots);
    (tmp, run, output)
}

/// Writes the config of `header` and `bots` as `dir/t.toml` ([`config`])
/// and runs it to completion into `dir/run`, asserting it succeeded: the
/// run folder and what the arena printed.
pub fn run_in<N: AsRef<str>>(
    dir: &Path,
    header: &str,
    bots: &[(N, Vec<String>)],
) -> (PathBuf, Output) {
    run_to(&config(dir, header, bots), dir.join("run"))
}

/// Writes the config `text` as `dir/t.toml` and runs it to completion into
/// `dir/run`, asserting it succeeded: the run folder and what the arena
/// printed.
pub fn run_text_in(dir: &Path, text: &str) -> (PathBuf, Output) {
    run_to(&write_config(dir, "t.toml", text), dir.join("run"))
}

/// `arena run CFG FLAGS… --out OUT`, to completion.
pub fn run_with(cfg: &Path, out: &Path, flags: &[&str]) -> Output {
    arena_command()
        .arg("run")
        .arg(cfg)
        .args(flags)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap()
}

/// Runs the config at `cfg` as `n` shards, `dir/shard-K` each (`--quiet
/// --shard K/n`), asserting each succeeded; their folders.
pub fn run_shards(dir: &Path, cfg: &Path, n: u32) -> Vec<PathBuf> {
    (1..=n)
        .map(|k| {
            let out = dir.join(format!("shard-{k}"));
            let output = run_with(cfg, &out, &["--quiet", "--shard", &format!("{k}/{n}")]);
            assert_success(&output);
            out
        })
        .collect()
}

/// `arena merge SHARDS… --out OUT`, to completion.
pub fn merge(shards: &[PathBuf], out: &Path) -> Output {
    arena_command()
        .arg("merge")
        .args(shards)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap()
}

/// `arena rate GAMES FLAGS…`, to completion.
pub fn rate(games: &Path, flags: &[&str]) -> Output {
    arena_command()
        .arg("rate")
        .arg(games)
        .args(flags)
        .output()
        .unwrap()
}

/// Asserts that a command succeeded, showing its stderr if not.
pub fn assert_success(output: &Output) {
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// Asserts that the independent implementation of RULES.md,
/// `tools/replay_check.py`, replays every game of the file `games`,
/// showing what it said if not.
pub fn assert_replays(games: &Path) {
    let check = Command::new("python3")
        .arg(repo().join("tools/replay_check.py"))
        .arg(games)
        .output()
        .unwrap();
    assert!(
        check.status.success(),
        "{}",
        String::from_utf8_lossy(&check.stdout)
    );
}

/// Says that a test skipped and why, on the test process's own stderr:
/// libtest captures `eprintln!` of a passing test, so a skip written that
/// way would be seen by nobody.
pub fn skipped(why: impl std::fmt::Display) {
    use std::io::Write as _;
    let _ = writeln!(std::io::stderr(), "SKIPPED: {why}");
}

/// What a platform without a Linux-only promise does instead (the
/// `portable-unix` build, macOS): a config with `setting` (one line of
/// `[limits]`, say `sandbox = true`) stops `arena run` before any game,
/// with one line on stderr naming the config's file and the setting's
/// line and saying `reason` (one of `arena::platform`'s).
pub fn refused_by_platform(setting: &str, reason: &str) {
    let tmp = tempfile::tempdir().unwrap();
    let bots = [("a", arena_bot("random", 1)), ("b", arena_bot("random", 2))];
    let cfg = config(tmp.path(), &format!("[limits]\n{setting}\n"), &bots);
    let out = tmp.path().join("run");
    let output = run_arena(&cfg, &out);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "one line: {stderr}");
    let at = format!("{}:2:", cfg.display());
    assert!(
        stderr.trim_start_matches("error: ").starts_with(&at) && stderr.contains(reason),
        "names the file, the line and why: {stderr}"
    );
    assert!(!out.join("games.csv").exists(), "no game was played");
}

/// `arena ARGS…` run from the folder `dir`, to completion.
pub fn arena_in(dir: &Path, args: &[&dyn AsRef<OsStr>]) -> Output {
    let mut command = arena_command();
    command.current_dir(dir);
    for arg in args {
        command.arg(arg);
    }
    command.output().unwrap()
}

/// `arena ARGS…` run from the folder `dir`, to completion: for arguments
/// that are all plain words ([`arena_in`] takes paths too).
pub fn arena_at(dir: &Path, args: &[&str]) -> Output {
    arena_command()
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap()
}

/// The one line a failed command printed on stderr, asserting that it
/// failed and printed just that line.
pub fn error_line(output: &Output) -> String {
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(!output.status.success(), "it did not fail: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "not one line: {stderr}");
    stderr.trim_end().to_string()
}
