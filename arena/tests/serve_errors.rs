//! A bad address for the live view, or one in use, and a folder that is no
//! run's: one line that names the problem and the fix, exit 2, and nothing
//! written (the address is taken before the run folder is made).

mod common;

use std::path::Path;
use std::process::Output;

use common::{arena_at, arena_bot, assert_contains, config, error_line};

/// The one line of stderr, after checking the exit code is 2.
fn one_line(output: &Output) -> String {
    let line = error_line(output);
    assert_eq!(output.status.code(), Some(2), "{line}");
    line
}

fn demo(dir: &Path) -> std::path::PathBuf {
    config(
        dir,
        "[tournament]\nmax_games = 2\n",
        &[("a", arena_bot("random", 1)), ("b", arena_bot("random", 2))],
    )
}

#[test]
fn an_address_that_does_not_parse_stops_the_run_before_anything_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = demo(dir.path());
    for bad in ["nonsense", "127.0.0.1", "127.0.0.1:70000", "example.com:80"] {
        let out = dir.path().join("out");
        let output = arena_at(
            dir.path(),
            &["run", cfg.to_str().unwrap(), "--serve", bad, "--out", "out"],
        );
        let line = one_line(&output);
        assert!(
            line.starts_with(&format!(
                "error: --serve: '{bad}' is not an address HOST:PORT"
            )),
            "{line}"
        );
        assert!(
            line.contains("127.0.0.1:0 for a free port"),
            "the fix: {line}"
        );
        assert!(!out.exists(), "nothing written for {bad}");
    }
}

#[test]
fn an_address_in_use_stops_the_run_before_anything_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = demo(dir.path());
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = taken.local_addr().unwrap().to_string();
    let output = arena_at(
        dir.path(),
        &[
            "run",
            cfg.to_str().unwrap(),
            "--serve",
            &addr,
            "--out",
            "out",
        ],
    );
    let line = one_line(&output);
    assert_eq!(
        line,
        format!("error: --serve: {addr} is in use by another program: choose another port, or port 0 for a free one")
    );
    assert!(!dir.path().join("out").exists());
    // The same for arena serve, whose folder is left as it was.
    let run = dir.path().join("run");
    std::fs::create_dir(&run).unwrap();
    std::fs::write(run.join("games.csv"), "series,game\n").unwrap();
    let output = arena_at(dir.path(), &["serve", "run", "--addr", &addr]);
    let line = one_line(&output);
    assert!(
        line.starts_with(&format!("error: --addr: {addr} is in use")),
        "{line}"
    );
    assert_eq!(std::fs::read_dir(&run).unwrap().count(), 1);
}

#[test]
fn a_folder_without_games_csv_is_not_served() {
    let dir = tempfile::tempdir().unwrap();
    let output = arena_at(dir.path(), &["serve", "."]);
    assert_eq!(
        one_line(&output),
        "error: . has no games.csv: give a run folder (arena run --out DIR, a shard's or a merged one)"
    );
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        0,
        "nothing written"
    );
}

#[test]
fn a_config_after_a_bare_serve_is_named_as_such() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = demo(dir.path());
    let output = arena_at(
        dir.path(),
        &["run", "--serve", cfg.to_str().unwrap(), "--out", "out"],
    );
    let line = one_line(&output);
    assert_contains(&line, "that is a config, not an address");
    assert!(
        line.contains("`arena run CONFIG --serve`"),
        "the fix: {line}"
    );
    assert!(!dir.path().join("out").exists(), "nothing written");
}
