//! `arena bench --smoke` runs and writes its figures: every section, finite
//! values in their units. Nothing about time is asserted (timing belongs to
//! the benchmark itself, never to a test).

mod common;

use common::{assert_contains, stderr_of, stdout_of};

use std::process::Command;

fn arena() -> Command {
    Command::new(env!("CARGO_BIN_EXE_arena"))
}

#[test]
fn the_smoke_run_writes_every_section() {
    let tmp = tempfile::tempdir().unwrap();
    let csv = tmp.path().join("bench.csv");
    let output = arena()
        .args(["bench", "--smoke", "--scale", "--scale-bots", "3", "--out"])
        .arg(&csv)
        .output()
        .unwrap();
    let stdout = stdout_of(&output);
    assert!(output.status.success(), "{stdout}{}", stderr_of(&output));
    let rows = common::rows(&csv);
    for section in ["context", "floor", "arena", "rules", "throughput", "scale"] {
        assert!(
            rows.iter().any(|r| r["section"] == section),
            "no {section} figure in {rows:?}"
        );
    }
    for row in &rows {
        let value: f64 = row["value"].parse().unwrap();
        assert!(value.is_finite(), "{row:?}");
        assert!(!row["unit"].is_empty(), "{row:?}");
        if row["section"] == "arena" && row["figure"].contains("time per ply") {
            // Every time per ply is set beside the floor...
            let x: f64 = row["x_floor"].parse().unwrap();
            assert!(x.is_finite() && x > 0.0, "{row:?}");
        }
        if row["figure"].contains("CPU") {
            // ...and no CPU time: it is a process's share of a round trip.
            assert_eq!(row["x_floor"], "", "{row:?}");
        }
    }
    // A tournament of 3 bots (3 series) played its games, and the figures
    // of the runner name them.
    let games = rows
        .iter()
        .find(|r| r["figure"] == "3 bots: games")
        .unwrap_or_else(|| panic!("{rows:?}"));
    assert!(games["value"].parse::<f64>().unwrap() >= 3.0, "{games:?}");
}

#[test]
fn an_unknown_section_is_refused() {
    let output = arena()
        .args(["bench", "--only", "floor,warp"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = stderr_of(&output);
    assert_contains(&stderr, "--only warp");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}

#[test]
fn the_league_section_runs_when_named_with_finite_figures() {
    let tmp = tempfile::tempdir().unwrap();
    let csv = tmp.path().join("bench.csv");
    let output = arena()
        .args(["bench", "--smoke", "--only", "league", "--out"])
        .arg(&csv)
        .output()
        .unwrap();
    common::assert_success(&output);
    let rows = common::rows(&csv);
    let league: Vec<_> = rows.iter().filter(|r| r["section"] == "league").collect();
    assert!(
        league
            .iter()
            .any(|r| r["figure"].starts_with("round's fit and pairing")),
        "{rows:?}"
    );
    // The scale run's checkpoints (issue 32: rounds 1, 10 and 50).
    for round in [1, 10, 50] {
        let after = format!("fit and pairing after round {round}");
        assert!(
            league.iter().any(|r| r["figure"].ends_with(&after)),
            "{after}: {rows:?}"
        );
    }
    for row in &league {
        let value: f64 = row["value"].parse().unwrap();
        assert!(value.is_finite(), "{row:?}");
        if row["unit"] == "rho" {
            // Spearman's correlation: a ranking from the games, better
            // than none.
            assert!(value > 0.0 && value <= 1.0, "{row:?}");
        }
    }
    assert!(!rows.iter().any(|r| r["section"] == "arena"), "only league");
}
