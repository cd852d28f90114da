//! The Python test suites (the independent replay checker, the Python bot,
//! the misbehaving test bots, the module-layers check), run by `cargo test` so one command runs all.

use std::path::Path;

fn unittest(script: &str) {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let output = std::process::Command::new("python3")
        .arg(repo.join(script))
        .current_dir(repo)
        .output()
        .unwrap_or_else(|e| panic!("cannot run python3 for {script}: {e}"));
    assert!(
        output.status.success(),
        "{script} failed:\n{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn replay_checker_suite() {
    unittest("tools/test_replay_check.py");
}

#[test]
fn python_greedy_bot_suite() {
    unittest("bots/python/test_greedy.py");
}

/// The shape of the code: no module cycle, the arena's layers (tools/layers.py).
#[test]
fn module_layers_suite() {
    unittest("tools/test_layers.py");
}

#[test]
fn test_bots_suite() {
    unittest("test-bots/test_test_bots.py");
}

#[test]
fn perft_table_agrees_with_the_independent_engine() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let output = std::process::Command::new("python3")
        .arg(repo.join("tools/perft.py"))
        .args(["--check", "rules/tests/perft.csv", "--max-leaves", "60000"])
        .current_dir(repo)
        .output()
        .expect("python3");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}");
    assert!(stdout.contains(" passed, 0 failed"), "{stdout}");
}
