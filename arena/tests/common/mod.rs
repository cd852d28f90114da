//! Helpers shared by the integration tests: configs, CSV rows, bot
//! commands, and the search for processes left behind.

#![allow(dead_code)] // Each test file uses its own share of these.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The repository's root.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// Writes `dir/t.toml`: `header` (settings) and one `[[bot]]` table per bot.
pub fn config(dir: &Path, header: &str, bots: &[(&str, Vec<String>)]) -> PathBuf {
    let mut text = header.to_string();
    for (name, command) in bots {
        let command: Vec<String> = command.iter().map(|c| format!("{c:?}")).collect();
        text.push_str(&format!(
            "\n[[bot]]\nname = \"{name}\"\ncommand = [{}]\n",
            command.join(", ")
        ));
    }
    let path = dir.join("t.toml");
    std::fs::write(&path, text).unwrap();
    path
}

/// The rows of a CSV file, each a map from column to value.
pub fn rows(path: &Path) -> Vec<HashMap<String, String>> {
    let mut reader = csv::Reader::from_path(path).unwrap();
    let headers = reader.headers().unwrap().clone();
    reader
        .records()
        .map(|r| {
            headers
                .iter()
                .zip(r.unwrap().iter())
                .map(|(h, v)| (h.to_string(), v.to_string()))
                .collect()
        })
        .collect()
}

/// The command of a bundled bot, seeded.
pub fn arena_bot(name: &str, seed: u64) -> Vec<String> {
    vec![
        "arena".into(),
        "bot".into(),
        name.into(),
        "--seed".into(),
        seed.to_string(),
    ]
}

/// The command of a Python bot.
pub fn python(script: &Path, args: &[&str]) -> Vec<String> {
    let mut v = vec!["python3".to_string(), script.display().to_string()];
    v.extend(args.iter().map(|s| s.to_string()));
    v
}

/// Live processes whose command line mentions `marker`, or whose pid is
/// listed. Zombies (empty command line) are gone, only not yet reaped.
pub fn leftovers(marker: &str, pids: &[i32]) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().to_string();
        let Ok(pid) = name.parse::<i32>() else {
            continue;
        };
        let Ok(cmd) = std::fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        let cmd = String::from_utf8_lossy(&cmd).replace('\0', " ");
        if !cmd.is_empty() && (cmd.contains(marker) || pids.contains(&pid)) {
            found.push(format!("{pid}: {cmd}"));
        }
    }
    found
}

/// The games of `dir/games.csv` as sorted `column=value` lines, without
/// `duration_ms` (the one column that may differ between equal runs), in
/// schedule-independent order: for comparing two runs' games.
pub fn games_without_timing(dir: &Path) -> Vec<String> {
    let mut games: Vec<String> = rows(&dir.join("games.csv"))
        .into_iter()
        .map(|mut g| {
            g.remove("duration_ms");
            let mut cells: Vec<String> = g.into_iter().map(|(k, v)| format!("{k}={v}")).collect();
            cells.sort();
            cells.join(",")
        })
        .collect();
    games.sort();
    games
}

/// Reads a running arena's stderr (piped) until its first game's line,
/// and hands it back for the rest.
pub fn after_first_game(
    child: &mut std::process::Child,
) -> std::io::BufReader<std::process::ChildStderr> {
    use std::io::BufRead;
    let mut stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    while !line.starts_with('[') {
        line.clear();
        assert!(
            stderr.read_line(&mut line).unwrap() > 0,
            "the arena ended before a game"
        );
    }
    stderr
}

/// `arena run CFG --out OUT`, to completion.
pub fn run_arena(cfg: &Path, out: &Path) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_arena"))
        .arg("run")
        .arg(cfg)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap()
}

/// The summary files a run writes from its games, which an equal set of
/// games must reproduce byte for byte.
pub const SUMMARY_FILES: [&str; 6] = [
    "series.csv",
    "standings.csv",
    "pairwise.csv",
    "los.csv",
    "report.html",
    "standings.svg",
];

/// Asserts that a command succeeded, showing its stderr if not.
pub fn assert_success(output: &std::process::Output) {
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// Asserts that `files` are byte for byte the same in folders `a` and `b`.
pub fn assert_same_files(a: &Path, b: &Path, files: &[&str]) {
    for f in files {
        let (x, y) = (
            std::fs::read(a.join(f)).unwrap(),
            std::fs::read(b.join(f)).unwrap(),
        );
        assert!(
            x == y,
            "{f} differs between {} and {}",
            a.display(),
            b.display()
        );
    }
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
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_arena"))
        .arg("run")
        .arg(&cfg)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
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
