//! `arena replay` of a `games.csv` row names the two bots and marks the
//! opening plies, which the referee played, as the report's viewer does.

mod common;

use assert_cmd::Command;

use common::{arena_bot, assert_contains, assert_success, config, run_with, stderr_of, stdout_of};

fn arena() -> Command {
    let mut cmd = Command::cargo_bin("arena").unwrap();
    cmd.env_remove("RUST_BACKTRACE");
    cmd
}

/// Runs a 2-game match on a 4-hole board with a 3-ply opening in `dir`;
/// its games.csv.
fn pair_run(dir: &std::path::Path) -> std::path::PathBuf {
    let cfg = config(
        dir,
        "name = \"pair\"\n[board]\nholes = 4\n[tournament]\nfirst_to = 1\nmax_games = 2\n\
         concurrency = 1\n[openings]\nplies_min = 3\nplies_max = 3\n",
        &[
            ("greedy-one", arena_bot("greedy", 1)),
            ("random-two", arena_bot("random", 2)),
        ],
    );
    let out = dir.join("out");
    assert_success(&run_with(&cfg, &out, &["--quiet"]));
    out.join("games.csv")
}

#[test]
fn a_recorded_game_names_its_bots_and_marks_its_opening() {
    let dir = tempfile::tempdir().unwrap();
    let games = pair_run(dir.path());
    let mut reader = csv::Reader::from_path(&games).unwrap();
    let headers = reader.headers().unwrap().clone();
    let col = |name: &str| headers.iter().position(|h| h == name).unwrap();
    for row in reader.records() {
        let row = row.unwrap();
        let (series, game) = (&row[col("series")], &row[col("game")]);
        let (south, north) = (&row[col("south")], &row[col("north")]);
        let plies = row[col("moves")].split_whitespace().count();
        assert_eq!(row[col("opening")].split_whitespace().count(), 3);
        let text = arena()
            .args(["replay", "--series", series, "--game", game, "--games"])
            .arg(&games)
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        let text = String::from_utf8(text).unwrap();
        assert!(
            text.starts_with(&format!(
                "series {series} game {game}: South {south}, North {north}; \
                 plies 1 to 3 are the opening, played by the referee\n"
            )),
            "{text}"
        );
        let ply_lines: Vec<&str> = text.lines().filter(|l| l.starts_with("ply ")).collect();
        assert_eq!(ply_lines.len(), plies, "{text}");
        for (i, line) in ply_lines.iter().enumerate() {
            let mover = if i % 2 == 0 { "south" } else { "north" };
            let by = if i < 3 {
                "(opening, played by the referee)"
            } else if i % 2 == 0 {
                &format!("({south})")
            } else {
                &format!("({north})")
            };
            // En Dodoi alternates every ply, so the mover is fixed by the ply.
            assert!(
                line.starts_with(&format!("ply {}: {mover} {by} plays ", i + 1)),
                "{line}\n{text}"
            );
        }
    }
}

/// The protocol's rule of a hole number (issue 17 item 13): `move 01` is
/// refused, and so is `01` in `arena replay`'s moves (it was hole 1).
#[test]
fn a_move_with_a_leading_zero_or_a_sign_is_refused() {
    for bad in ["01", "+1"] {
        let out = arena()
            .args(["replay", "--holes", "3", "--seeds", "2", "2", bad])
            .output()
            .unwrap();
        let stderr = stderr_of(&out);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert_contains(&stderr, &format!("'{bad}'"));
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
    }
    let ok = arena()
        .args(["replay", "--holes", "3", "--seeds", "2", "2", "1"])
        .output()
        .unwrap();
    assert_success(&ok);
}

/// "after 1 plies" and its kind: a count of one is in the singular.
#[test]
fn one_ply_is_a_ply() {
    let out = arena()
        .args(["replay", "--holes", "3", "--seeds", "2", "1"])
        .output()
        .unwrap();
    let stdout = stdout_of(&out);
    assert!(out.status.success(), "{stdout}");
    assert_contains(&stdout, "the game goes on after 1 ply:");
}

/// Issue 17's tester: replaying the game on a games.csv's last line, cut
/// short (no newline), said only "has no game": the torn-line warning of
/// `arena rate` and `arena merge` comes first.
#[test]
fn a_torn_last_line_is_named_before_its_game_is_missed() {
    let dir = tempfile::tempdir().unwrap();
    let games = pair_run(dir.path());
    let text = std::fs::read_to_string(&games).unwrap();
    std::fs::write(&games, text.trim_end_matches('\n')).unwrap();
    let mut reader = csv::Reader::from_path(&games).unwrap();
    let last = reader.records().last().unwrap().unwrap();
    let (series, game) = (last[0].to_string(), last[1].to_string());
    assert_eq!(
        reader.headers().unwrap().iter().take(2).collect::<Vec<_>>(),
        ["series", "game"]
    );
    let out = arena()
        .args(["replay", "--series", &series, "--game", &game, "--games"])
        .arg(&games)
        .output()
        .unwrap();
    let stderr = stderr_of(&out);
    assert!(!out.status.success(), "{stderr}");
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 2, "{stderr}");
    assert!(
        lines[0].contains("the last line has no newline at its end, so it was cut short"),
        "{stderr}"
    );
    assert!(
        lines[1].contains(&format!("has no game {game} in series {series}")),
        "{stderr}"
    );
}
