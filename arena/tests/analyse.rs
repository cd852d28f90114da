//! `arena analyse` end to end: 2x4 tables to 10 seeds on the board, a
//! small tournament of `perfect` (the tables' bot), `random` and `greedy`
//! on 2x4, and every move judged: perfect makes no mistake, random does;
//! the CSV parses; a bad run folder or tables folder is one line with the
//! path and the fix.

mod common;

use std::path::Path;
use std::process::{Command, Output};

use common::{
    arena_bot, assert_contains, assert_success, build_tables, config, error_line, rows, run_arena,
    stdout_of,
};

fn arena(args: &[&str], paths: &[&Path]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(args)
        .args(paths)
        .output()
        .unwrap()
}

#[test]
fn perfect_is_never_wrong_random_is_and_faults_name_their_path() {
    let tmp = tempfile::tempdir().unwrap();
    let tb = tmp.path().join("tb");
    build_tables(&tb);
    let header = "[board]\nholes = 4\nseeds = 2\n\
                  [tournament]\nfirst_to = 4\nmax_games = 6\nconcurrency = 2\nseed = 7\n";
    let mut perfect = arena_bot("perfect", 1);
    perfect.extend(["--tablebase".to_string(), tb.display().to_string()]);
    let bots = [
        ("perfect", perfect),
        ("random", arena_bot("random", 2)),
        ("greedy", arena_bot("greedy", 3)),
    ];
    let cfg = config(tmp.path(), header, &bots);
    let run = tmp.path().join("run");
    assert_success(&run_arena(&cfg, &run));

    let out = arena(&["analyse", "--tablebase"], &[&tb, &run]);
    assert_success(&out);
    let stdout = stdout_of(&out);
    assert_contains(&stdout, "accuracy");
    assert_contains(&stdout, "games analysed");
    let analysis = rows(&run.join("analysis.csv"));
    assert_eq!(analysis.len(), 3, "{analysis:?}");
    let bot = |name: &str| analysis.iter().find(|r| r["bot"] == name).unwrap();
    let number = |name: &str, column: &str| bot(name)[column].parse::<u64>().unwrap();
    assert!(number("perfect", "judged") > 0);
    assert_eq!(bot("perfect")["accuracy"], "1.0000");
    assert_eq!(number("perfect", "mistakes"), 0);
    assert!(number("random", "mistakes") > 0, "{analysis:?}");
    for r in &analysis {
        let n = |c: &str| r[c].parse::<u64>().unwrap();
        assert_eq!(n("judged"), n("optimal") + n("mistakes"), "{r:?}");
        assert_eq!(
            n("moves_in_tables"),
            n("judged") + n("forced") + n("unjudged"),
            "{r:?}"
        );
        assert!(n("seeds_lost") >= n("mistakes"), "{r:?}");
    }
    per_game_verdicts_agree_with_the_bots_rows(&run, &analysis);
    assert_contains(&stdout, "reach: ");
    // Every game of the run counted once per side.
    let games = rows(&run.join("games.csv")).len() as u64;
    let sides: u64 = analysis
        .iter()
        .map(|r| r["games"].parse::<u64>().unwrap())
        .sum();
    assert_eq!(sides, 2 * games);

    // --out elsewhere: the same figures, the run's file untouched.
    let before = std::fs::read(run.join("analysis.csv")).unwrap();
    let elsewhere = tmp.path().join("other.csv");
    assert_success(&arena(
        &["analyse", "--tablebase"],
        &[&tb, &run, Path::new("--out"), &elsewhere],
    ));
    assert_eq!(std::fs::read(&elsewhere).unwrap(), before);
    // --out never replaces a file that is not an analysis.csv.
    let games_csv = run.join("games.csv");
    let kept = std::fs::read(&games_csv).unwrap();
    let line = error_line(&arena(
        &["analyse", "--tablebase"],
        &[&tb, &run, Path::new("--out"), &games_csv],
    ));
    assert_contains(&line, "give --out a new file");
    assert_eq!(std::fs::read(&games_csv).unwrap(), kept);

    // Faults: one line naming the path and the fix, a non-zero exit.
    let nowhere = tmp.path().join("nowhere");
    let line = error_line(&arena(&["analyse", "--tablebase"], &[&tb, &nowhere]));
    assert_contains(&line, &nowhere.display().to_string());
    assert_contains(&line, "arena run CONFIG --out DIR");
    let gone = tmp.path().join("gone");
    let line = error_line(&arena(&["analyse", "--tablebase"], &[&gone, &run]));
    assert_contains(&line, &gone.display().to_string());
    assert_contains(&line, "arena tablebase build");
    let line = error_line(&arena(&["analyse"], &[&run]));
    assert_contains(&line, "--tablebase DIR");

    // A run whose config names the tables needs no --tablebase. Its games
    // end where the tables know the result (adjudication), so few of its
    // moves are judged, but every one of its games is analysed.
    let header = "[board]\nholes = 4\nseeds = 2\nadjudicate = \"tablebase\"\ntablebase = \"tb\"\n\
                  [tournament]\nfirst_to = 1\nmax_games = 2\nseed = 7\n";
    let cfg = config(tmp.path(), header, &bots[1..]);
    let adjudicated = tmp.path().join("adjudicated");
    assert_success(&run_arena(&cfg, &adjudicated));
    let out = arena(&["analyse"], &[&adjudicated]);
    assert_success(&out);
    let games = rows(&adjudicated.join("games.csv")).len();
    let stdout = stdout_of(&out);
    assert_contains(&stdout, &format!("{games} games analysed"));
    // Each adjudicated game stopped at its first ply the tables know, with
    // the margin its detail names.
    let played = rows(&adjudicated.join("games.csv"));
    for g in rows(&adjudicated.join("analysis-games.csv")) {
        let row = played
            .iter()
            .find(|r| r["series"] == g["series"] && r["game"] == g["game"])
            .unwrap();
        if row["termination"] == "tablebase" {
            assert_eq!(g["first_table_ply"], g["plies"], "{g:?}");
            let forces = format!("forces {} in", g["table_margin"]);
            assert!(row["detail"].contains(&forces), "{g:?} {row:?}");
        }
    }
}

/// `analysis-games.csv` of the judged `run`: a row per game with a verdict
/// per ply, whose mistakes and optimal moves (past the opening) add up to
/// each bot's row of `analysis.csv`; and the run's report embeds them for
/// its viewer.
fn per_game_verdicts_agree_with_the_bots_rows(
    run: &Path,
    analysis: &[std::collections::HashMap<String, String>],
) {
    let played = rows(&run.join("games.csv"));
    let games = rows(&run.join("analysis-games.csv"));
    assert_eq!(games.len(), played.len());
    let mut counts = std::collections::HashMap::<(String, char), u64>::new();
    for g in &games {
        let row = played
            .iter()
            .find(|r| r["series"] == g["series"] && r["game"] == g["game"])
            .unwrap();
        let tokens: Vec<&str> = g["verdicts"].split(' ').collect();
        assert_eq!(tokens.len(), row["moves"].split(' ').count(), "{g:?}");
        assert_eq!(g["plies"].parse::<usize>().unwrap(), tokens.len());
        let opening: usize = g["opening"].parse().unwrap();
        for (ply, t) in tokens.iter().enumerate().skip(opening) {
            let bot = if ply % 2 == 0 {
                &g["south"]
            } else {
                &g["north"]
            };
            *counts
                .entry((bot.clone(), t.as_bytes()[0] as char))
                .or_default() += 1;
        }
        if let Ok(first) = g["first_table_ply"].parse::<usize>() {
            assert!(first >= opening && tokens[first] != ".", "{g:?}");
            assert!(tokens[opening..first].iter().all(|t| *t == "."), "{g:?}");
        }
    }
    for r in analysis {
        let n = |c: &str| r[c].parse::<u64>().unwrap();
        let count = |k: char| counts.get(&(r["bot"].clone(), k)).copied().unwrap_or(0);
        assert_eq!(
            (count('o'), count('m')),
            (n("optimal"), n("mistakes")),
            "{r:?}"
        );
        assert_eq!(count('f'), n("forced"), "{r:?}");
    }
    let report = std::fs::read_to_string(run.join("report.html")).unwrap();
    assert!(
        report.contains("\"verdicts\":\""),
        "the report embeds no verdicts"
    );
}
