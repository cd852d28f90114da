//! The searching bots are strong: short tournaments through `arena run`
//! (real bot processes, fixed seeds, fixed search budgets) in which
//! `alphabeta` at depth 3 and `mcts` at 300 playouts each beat `random` and
//! `greedy` with a likelihood of superiority above 99% in their head-to-head
//! games (pairwise.csv). A statistical check with fixed seeds, not a timing
//! test: the games are the same on any machine.

mod common;

use common::{arena_bot, assert_success, config, rows, run_arena};

/// Runs a round robin of `strong` against random and greedy, and checks
/// that `strong` beats each with LOS > 99% and no forfeits.
fn beats_random_and_greedy(name: &str, command: Vec<String>) {
    let tmp = tempfile::tempdir().unwrap();
    let header = "[board]\nholes = 8\nseeds = 4\n\
                  [time]\nmove_time_ms = 5000\n\
                  [tournament]\nfirst_to = 12\nmax_games = 30\nconcurrency = 2\nseed = 1\n";
    let cfg = config(
        tmp.path(),
        header,
        &[
            (name, command),
            ("random", arena_bot("random", 1)),
            ("greedy", arena_bot("greedy", 2)),
        ],
    );
    let out = tmp.path().join("out");
    assert_success(&run_arena(&cfg, &out));
    let pairs = rows(&out.join("pairwise.csv"));
    for other in ["random", "greedy"] {
        let row = pairs
            .iter()
            .find(|r| {
                (r["bot_a"] == name && r["bot_b"] == other)
                    || (r["bot_a"] == other && r["bot_b"] == name)
            })
            .unwrap_or_else(|| panic!("no pair {name}-{other}"));
        let los: f64 = row["los"].parse().unwrap();
        let los = if row["bot_a"] == name { los } else { 1.0 - los };
        let (w, d, l) = (&row["wins_a"], &row["draws"], &row["wins_b"]);
        println!(
            "{name} vs {other}: {w}-{d}-{l} (from {}'s side), LOS {los:.4}",
            row["bot_a"]
        );
        assert!(los > 0.99, "{name} vs {other}: LOS {los} ({row:?})");
    }
    for row in rows(&out.join("standings.csv")) {
        assert_eq!(row["forfeits"], "0", "{row:?}");
    }
}

#[test]
fn alphabeta_beats_random_and_greedy() {
    beats_random_and_greedy(
        "alphabeta",
        vec![
            "arena".into(),
            "bot".into(),
            "alphabeta".into(),
            "--depth".into(),
            "3".into(),
        ],
    );
}

#[test]
fn mcts_beats_random_and_greedy() {
    beats_random_and_greedy(
        "mcts",
        vec![
            "arena".into(),
            "bot".into(),
            "mcts".into(),
            "--playouts".into(),
            "300".into(),
            "--seed".into(),
            "7".into(),
        ],
    );
}
