//! `arena rate` and `arena merge` refuse rows that contradict themselves
//! (replayed with the rules engine), games given twice, and (`arena rate`)
//! games of different rules unless `--mixed-rules`; each with one line
//! naming the file and line. Real runs, real files, the real binary.

mod common;

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use common::{arena_bot, assert_contains, assert_success, config, run_arena, stderr_of};

/// A finished two-bot run on `holes` holes per row, in `dir/name`.
fn a_run(dir: &Path, name: &str, holes: u32) -> PathBuf {
    let bots = [
        ("greedy", arena_bot("greedy", 1)),
        ("random", arena_bot("random", 2)),
    ];
    let cfg = config(
        dir,
        &format!("[board]\nholes = {holes}\n[tournament]\nfirst_to = 3\nmax_games = 8\n"),
        &bots,
    );
    let out = dir.join(name);
    assert_success(&run_arena(&cfg, &out));
    out
}

/// `arena ARGS`: its exit code and stderr.
fn arena(args: &[&std::ffi::OsStr]) -> (Option<i32>, String) {
    let output = Command::cargo_bin("arena")
        .unwrap()
        .args(args)
        .output()
        .unwrap();
    (output.status.code(), stderr_of(&output))
}

/// `arena rate FILE --out OUT`: its exit code and stderr.
fn rate_into(file: &Path, out: &Path) -> (Option<i32>, String) {
    arena(&[
        "rate".as_ref(),
        file.as_os_str(),
        "--out".as_ref(),
        out.as_os_str(),
    ])
}

/// `lines` written as the file `dir/NAME.csv` and rated into
/// `dir/NAME-rated`: the file, and the exit code and stderr of the rating.
fn rate_lines(dir: &Path, name: &str, lines: &[String]) -> (PathBuf, Option<i32>, String) {
    let file = dir.join(format!("{name}.csv"));
    std::fs::write(&file, lines.join("\n") + "\n").unwrap();
    let (code, stderr) = rate_into(&file, &dir.join(format!("{name}-rated")));
    (file, code, stderr)
}

/// A change to one line of a games.csv.
type Edit<'a> = Option<&'a dyn Fn(&str) -> String>;

/// `dir` copied to `to`, with line `line` (from 1) of its games.csv
/// changed by `edit` (or, for `None`, repeated).
fn tampered(dir: &Path, to: &Path, line: usize, edit: Edit<'_>) -> PathBuf {
    std::fs::create_dir_all(to).unwrap();
    for f in ["config.toml", "shard", "finished"] {
        std::fs::copy(dir.join(f), to.join(f)).unwrap();
    }
    let text = std::fs::read_to_string(dir.join("games.csv")).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    match edit {
        Some(edit) => lines[line - 1] = edit(&lines[line - 1]),
        None => {
            let copy = lines[line - 1].clone();
            lines.push(copy);
        }
    }
    std::fs::write(to.join("games.csv"), lines.join("\n") + "\n").unwrap();
    to.join("games.csv")
}

/// Field `column` of a games.csv line (no quoted commas in these runs'
/// first columns, up to `moves`), replaced by `value`.
fn set(line: &str, column: usize, value: &str) -> String {
    let mut cells: Vec<&str> = line.split(',').collect();
    cells[column] = value;
    cells.join(",")
}

#[test]
fn rows_that_contradict_themselves_are_refused_with_file_and_line() {
    let tmp = tempfile::tempdir().unwrap();
    let run = a_run(tmp.path(), "run", 6);
    let flip = |l: &str| {
        let result = l.split(',').nth(14).unwrap();
        set(l, 14, if result == "south" { "north" } else { "south" })
    };
    let cases: [(&str, Edit<'_>, &str); 4] = [
        ("flipped", Some(&flip), "but its moves end in"),
        (
            "moves",
            Some(&|l: &str| set(l, 10, "9 9 9")),
            "moves do not replay: at ply 1 south cannot play 9",
        ),
        (
            "nan",
            Some(&|l: &str| set(l, 12, "NaN")),
            "bad south_seeds 'NaN'",
        ),
        ("twice", None, "series 1 game 2 is there twice (first at "),
    ];
    for (name, edit, why) in cases {
        let dir = tmp.path().join(name);
        let games = tampered(&run, &dir, 3, edit);
        let line = if edit.is_some() {
            3
        } else {
            std::fs::read_to_string(&games).unwrap().lines().count()
        };
        let want = format!("{}:{line}: ", games.display());
        // `arena rate` of the file and `arena merge` of its folder: each
        // refuses it in one line naming the line and why.
        let rated = tmp.path().join(format!("{name}-rated"));
        let merged = tmp.path().join(format!("{name}-merged"));
        for (command, input, out) in [("rate", &games, &rated), ("merge", &dir, &merged)] {
            let (code, err) = arena(&[
                command.as_ref(),
                input.as_os_str(),
                "--out".as_ref(),
                out.as_os_str(),
            ]);
            assert_eq!(code, Some(2), "{command} {name}: {err}");
            assert_eq!(err.lines().count(), 1, "{command} {name}: {err}");
            assert!(
                err.contains(&want) && err.contains(why),
                "{command} {name}: {err}"
            );
        }
        assert!(!rated.join("standings.csv").exists(), "rate {name}");
    }
    // The untouched run rates and merges.
    let (code, err) = rate_into(&run.join("games.csv"), &tmp.path().join("ok"));
    assert_eq!(code, Some(0), "{err}");
}

#[test]
fn games_of_two_boards_are_pooled_only_when_asked() {
    let tmp = tempfile::tempdir().unwrap();
    let (six, seven) = (a_run(tmp.path(), "six", 6), a_run(tmp.path(), "seven", 7));
    let (six, seven) = (six.join("games.csv"), seven.join("games.csv"));
    let out = tmp.path().join("pooled");
    let args = |more: &[&str]| {
        let mut a: Vec<std::ffi::OsString> = vec![
            "rate".into(),
            six.clone().into(),
            seven.clone().into(),
            "--out".into(),
            out.clone().into(),
        ];
        a.extend(more.iter().map(|m| m.into()));
        a
    };
    let refused = args(&[]);
    let refused: Vec<&std::ffi::OsStr> = refused.iter().map(|a| a.as_os_str()).collect();
    let (code, err) = arena(&refused);
    assert_eq!(code, Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    for part in [
        format!("{}:2: a game of 2x7, 4 seeds", seven.display()),
        format!("but {}:2 is a game of 2x6, 4 seeds", six.display()),
        "--mixed-rules".to_string(),
    ] {
        assert!(err.contains(&part), "{part}: {err}");
    }
    let asked = args(&["--mixed-rules"]);
    let asked: Vec<&std::ffi::OsStr> = asked.iter().map(|a| a.as_os_str()).collect();
    let (code, err) = arena(&asked);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.join("standings.csv").exists());
}

/// A games.csv without a `moves` column cannot be replayed: its rows are
/// counted with a note saying so, and a final seeds cell that is not a
/// number is still refused.
#[test]
fn rows_without_moves_are_counted_with_a_note_and_bad_seeds_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let run = a_run(tmp.path(), "run", 6);
    let text = std::fs::read_to_string(run.join("games.csv")).unwrap();
    let header: Vec<&str> = text.lines().next().unwrap().split(',').collect();
    let moves = header.iter().position(|c| *c == "moves").unwrap();
    let seeds = header.iter().position(|c| *c == "south_seeds").unwrap();
    // Its index once moves is gone (the cells up to it hold no comma).
    let seeds = if seeds > moves { seeds - 1 } else { seeds };
    let without = |line: &str| {
        let mut cells: Vec<&str> = line.split(',').collect();
        cells.remove(moves);
        cells.join(",")
    };
    let lines: Vec<String> = text.lines().map(without).collect();
    let (_, code, stderr) = rate_lines(tmp.path(), "plain", &lines);
    assert_eq!(code, Some(0), "{stderr}");
    assert_contains(
        &stderr,
        "has no moves column, so its rows are counted as they are",
    );
    let mut bad = lines.clone();
    bad[2] = set(&bad[2], seeds, "NaN");
    let (bad_file, code, stderr) = rate_lines(tmp.path(), "bad", &bad);
    assert_eq!(code, Some(2), "{stderr}");
    assert_contains(
        &stderr,
        &format!("{}:3: bad south_seeds 'NaN'", bad_file.display()),
    );
}

/// Issue 17's tester: `no games in X.csv` gave no fix; it says what makes
/// a games.csv (a header row and a row per game, as `arena run` writes).
#[test]
fn a_games_file_without_games_says_what_one_holds() {
    let tmp = tempfile::tempdir().unwrap();
    let run = a_run(tmp.path(), "run", 4);
    let text = std::fs::read_to_string(run.join("games.csv")).unwrap();
    let header = tmp.path().join("header-only.csv");
    std::fs::write(&header, format!("{}\n", text.lines().next().unwrap())).unwrap();
    let (code, stderr) = arena(&["rate".as_ref(), header.as_os_str()]);
    assert_ne!(code, Some(0), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains(&format!(
            "no games in {}: a games.csv needs its header row and a row per game played",
            header.display()
        )),
        "{stderr}"
    );
}

#[test]
fn two_runs_with_the_same_games_are_rated_with_a_warning() {
    let tmp = tempfile::tempdir().unwrap();
    let one = a_run(tmp.path(), "one", 4);
    let again = a_run(tmp.path(), "again", 4);
    let other = a_run(tmp.path(), "other", 5);
    let rate = |a: &Path, b: &Path, out: &str| {
        arena(&[
            "rate".as_ref(),
            a.join("games.csv").as_os_str(),
            b.join("games.csv").as_os_str(),
            "--out".as_ref(),
            tmp.path().join(out).as_os_str(),
            "--mixed-rules".as_ref(),
        ])
    };
    let (code, stderr) = rate(&one, &again, "twice");
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        stderr.contains("holds the same games as") && stderr.contains("they count twice"),
        "{stderr}"
    );
    let (code, stderr) = rate(&one, &other, "apart");
    assert_eq!(code, Some(0), "{stderr}");
    assert!(!stderr.contains("same games"), "{stderr}");
}
