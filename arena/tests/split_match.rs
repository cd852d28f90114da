//! A two-bot first-to-N match split by game pairs, merged: `arena merge`
//! cuts it where a single run stops, so the merged folder holds the single
//! run's files, and the games past that end go to `games-past-end.csv`.

mod common;

use common::{
    arena, assert_contains, assert_same_files, assert_success, games, games_without_timing,
    greedy_and_random, merge, rows, run_shards, run_to, stderr_of, temp_config, SUMMARY_FILES,
};

#[test]
fn a_split_first_to_match_merges_into_the_single_runs_files() {
    // Greedy reaches 3 wins long before the 20th game.
    let (tmp, cfg) = temp_config(
        "[board]\nholes = 6\n[tournament]\nfirst_to = 3\nmax_games = 20\n",
        &greedy_and_random(["g", "r"]),
    );
    let (single, _) = run_to(&cfg, tmp.path().join("single"));
    let played = games(&single).len();
    assert!(played < 20, "the single run stopped at first_to: {played}");
    let shards = run_shards(tmp.path(), &cfg, 3);
    let in_shards: usize = shards.iter().map(|s| games(s).len()).sum();
    assert_eq!(in_shards, 20, "each shard plays all its pairs");
    let merged = tmp.path().join("merged");
    let output = merge(&shards, &merged);
    assert_success(&output);
    assert_eq!(games_without_timing(&single), games_without_timing(&merged));
    assert_same_files(&single, &merged, &SUMMARY_FILES);
    // The rest, aside: every game after the single run's last one.
    let past = rows(&merged.join("games-past-end.csv"));
    let numbers: Vec<usize> = past.iter().map(|g| g["game"].parse().unwrap()).collect();
    assert_eq!(numbers, ((played + 1)..=20).collect::<Vec<_>>());
    let stderr = stderr_of(&output);
    assert_contains(&stderr, &format!("the match ended after {played} games"));
    // With a shard missing (--partial), games before the single run's end
    // are missing too: no cut is made on a guess, every game is counted.
    let partial = tmp.path().join("partial");
    let output = arena(&[
        &"merge",
        &shards[0],
        &shards[2],
        &"--partial",
        &"--out",
        &partial,
    ]);
    assert_success(&output);
    let stderr = stderr_of(&output);
    assert_contains(&stderr, "so it is not cut there");
    assert!(!stderr.contains("the match ended after"), "{stderr}");
    assert!(!partial.join("games-past-end.csv").exists());
    assert_eq!(
        games(&partial).len(),
        games(&shards[0]).len() + games(&shards[2]).len()
    );
    // A merge that has nothing past the end writes no such file.
    let again = tmp.path().join("again");
    let output = arena(&[&"merge", &single, &"--out", &again]);
    assert_success(&output);
    assert!(!again.join("games-past-end.csv").exists());
}
