//! Readers of a run folder's files: CSV rows as maps or as the library's
//! own row types, games compared without timing, and files compared byte
//! for byte.

use std::collections::HashMap;
use std::path::Path;

use serde::de::DeserializeOwned;

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

/// The rows of a CSV file as one of the library's row types
/// (`arena::output::rows`), read by its header.
pub fn typed_rows<R: DeserializeOwned>(path: &Path) -> Vec<R> {
    csv::Reader::from_path(path)
        .unwrap()
        .deserialize()
        .map(|r| r.unwrap())
        .collect()
}

/// The games of the run folder `dir`, from its games.csv.
pub fn games(dir: &Path) -> Vec<arena::output::rows::GameRow> {
    typed_rows(&dir.join("games.csv"))
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

/// The bytes of each of `files` in the folder `dir`, in order.
pub fn read_files(dir: &Path, files: &[&str]) -> Vec<Vec<u8>> {
    files
        .iter()
        .map(|f| std::fs::read(dir.join(f)).unwrap())
        .collect()
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

/// A CSV file's rows, each a map from column to field ([`rows`]).
pub type Rows = Vec<HashMap<String, String>>;

/// The sum of the `games` column of `rows` (series.csv's or
/// standings.csv's).
pub fn games_counted(rows: &[HashMap<String, String>]) -> usize {
    rows.iter()
        .map(|s| s["games"].parse::<usize>().unwrap())
        .sum()
}

/// The rows of `dir`'s series.csv and games.csv, asserting that the games
/// the series count (their `games` column) are the rows of games.csv.
pub fn series_and_games(dir: &Path) -> (Rows, Rows) {
    let series = rows(&dir.join("series.csv"));
    let games = rows(&dir.join("games.csv"));
    let total = games_counted(&series);
    assert_eq!(games.len(), total, "{series:?}");
    (series, games)
}

/// Asserts that every game of `games` (games.csv's rows) was played out
/// by the rules, no bot at fault (it ended with no moves or at the ply
/// limit), with all of the board's `seeds` seeds captured.
pub fn assert_played_out(games: &[HashMap<String, String>], seeds: u32) {
    for g in games {
        assert!(
            ["no-moves", "ply-limit"].contains(&g["termination"].as_str()),
            "{g:?}"
        );
        let captured: u32 =
            g["south_seeds"].parse::<u32>().unwrap() + g["north_seeds"].parse::<u32>().unwrap();
        assert_eq!(captured, seeds, "{g:?}");
    }
}
