//! Per-bot settings of a `[[bot]]` table, end to end: its own clocks (a
//! handicap match), its `options` sent in `hello`, and its `env`. (The
//! sandboxed bot's `env`, as an attacker sees it, is in `sandbox.rs`.)

mod common;

use std::path::Path;

use common::{
    assert_contains, assert_ends_with, assert_success, rows, run_with, stderr_of, write_config,
};

/// Runs a match of two games on 4 holes, a move `move_time_ms` unless a
/// bot's table says otherwise, between the bots of the `[[bot]]` tables
/// `bots` (the config written under `dir`), with `--transcripts`; returns
/// the run folder and what the arena wrote to stderr.
fn run(dir: &Path, move_time_ms: u32, bots: &str) -> (std::path::PathBuf, String) {
    let text = format!(
        "[board]\nholes = 4\n[time]\nmove_time_ms = {move_time_ms}\n\
         [tournament]\nfirst_to = 1\nmax_games = 2\nconcurrency = 1\n{bots}"
    );
    let config = write_config(dir, "t.toml", &text);
    let out = dir.join("run");
    let output = run_with(&config, &out, &["--quiet", "--transcripts"]);
    assert_success(&output);
    (out, stderr_of(&output))
}

/// Each game's transcript, with the side (`S` or `N`) the bot `name` had.
fn transcripts(out: &Path, name: &str) -> Vec<(String, char)> {
    rows(&out.join("games.csv"))
        .iter()
        .map(|g| {
            let file = format!(
                "series-{:04}-game-{:03}.txt",
                g["series"].parse::<u32>().unwrap(),
                g["game"].parse::<u32>().unwrap()
            );
            let text = std::fs::read_to_string(out.join("transcripts").join(file)).unwrap();
            let side = if g["south"] == name { 'S' } else { 'N' };
            (text, side)
        })
        .collect()
}

#[test]
fn alphabeta_takes_its_depth_and_its_clock_from_its_table() {
    let tmp = tempfile::tempdir().unwrap();
    // The depth only in `options`: without it alphabeta would search as
    // deep as its second allows, far past 2 plies on this board.
    let (out, said) = run(
        tmp.path(),
        1000,
        r#"
[[bot]]
name = "deep"
command = ["arena", "bot", "alphabeta"]
options = { depth = 2, style = "unknown-to-it" }
move_time_ms = 1500

[[bot]]
name = "quick"
command = ["arena", "bot", "random", "--seed", "3"]
"#,
    );
    // The start-up check names the option the bot does not list.
    assert_contains(&said, "bot 'deep': the config sets option style, which the bot does not list in its hello reply (it lists depth, time_ms, seed, noise)");
    assert!(
        !said.contains("option depth") && !said.contains("options depth"),
        "{said}"
    );
    let games = transcripts(&out, "deep");
    assert_eq!(games.len(), 2);
    // The first game's transcript holds the handshakes of both processes.
    let (first, side) = &games[0];
    let other = if *side == 'S' { 'N' } else { 'S' };
    assert!(
        first.contains(&format!(
            "{side} > hello version=1 option.depth=2 option.style=unknown-to-it\n"
        )),
        "{first}"
    );
    assert!(
        first.contains(&format!(
            "{side} < hello version=1 name=alphabeta options=depth,time_ms,seed,noise\n"
        )),
        "{first}"
    );
    assert_contains(first, &format!("{other} > hello version=1\n"));
    let mut depths = Vec::new();
    for (text, side) in &games {
        let other = if *side == 'S' { 'N' } else { 'S' };
        // Each bot is told its own clock.
        let newgame = |who: char| {
            text.lines()
                .find(|l| l.starts_with(&format!("{who} > newgame ")))
                .unwrap_or_else(|| panic!("{text}"))
                .to_string()
        };
        assert!(newgame(*side).contains(" move_time_ms=1500 "), "{text}");
        assert!(newgame(other).contains(" move_time_ms=1000 "), "{text}");
        // Its turns too: time_ms is the bot's own limit.
        for line in text.lines().filter(|l| l.contains("> turn ")) {
            let want = if line.starts_with(*side) { 1500 } else { 1000 };
            assert_ends_with(line, &format!(" time_ms={want}"));
        }
        depths.extend(
            text.lines()
                .filter_map(|l| l.strip_prefix(&format!("{side} < info depth ")))
                .map(|rest| rest.split(' ').next().unwrap().parse::<u32>().unwrap()),
        );
    }
    assert!(!depths.is_empty(), "alphabeta said nothing of its search");
    assert!(depths.iter().all(|&d| d <= 2), "{depths:?}");
    assert!(depths.contains(&2), "{depths:?}");
}

#[test]
fn a_game_clock_for_one_bot_alone() {
    let tmp = tempfile::tempdir().unwrap();
    let (out, _) = run(
        tmp.path(),
        800,
        r#"
[[bot]]
name = "clocked"
command = ["arena", "bot", "greedy"]
move_time_ms = 0
base_time_ms = 60000
increment_ms = 100

[[bot]]
name = "per-move"
command = ["arena", "bot", "random"]
"#,
    );
    for (text, side) in transcripts(&out, "clocked") {
        let newgame = |who: char| {
            text.lines()
                .find(|l| l.starts_with(&format!("{who} > newgame ")))
                .unwrap_or_else(|| panic!("{text}"))
                .to_string()
        };
        let other = if side == 'S' { 'N' } else { 'S' };
        assert!(
            newgame(side).contains(" move_time_ms=0 base_time_ms=60000 increment_ms=100 "),
            "{text}"
        );
        assert!(
            newgame(other).contains(" move_time_ms=800 base_time_ms=0 increment_ms=0 "),
            "{text}"
        );
        let turns: Vec<&str> = text.lines().filter(|l| l.contains("> turn ")).collect();
        assert!(!turns.is_empty());
        for line in turns {
            if line.starts_with(side) {
                // Its own clock, and the other's shown as 0 (it has none).
                assert_contains(line, " clock_ms=");
                assert_ends_with(line, ",0");
            } else {
                assert!(!line.contains("clock_ms"), "{line}");
                assert_ends_with(line, " time_ms=800");
            }
        }
    }
}
