//! `[board] adjudicate = ["decided", "tablebase"]` end to end: 2x4 tables
//! to 10 seeds on the board, the same tournament run with each rule alone
//! and with both (same seeds, so the same moves until the referee stops a
//! game), compared game by game; then the checks of `arena rate`, `arena
//! replay`, `arena merge` (of its shards), `--resume` and
//! `tools/replay_check.py` on the run with both, and on rows edited to go
//! on past the other rule's first stop.

mod common;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Output;

use common::{
    arena, arena_bot, assert_success, build_tables, config, rows, run_arena, stderr_of, stdout_of,
};

type Row = HashMap<String, String>;

/// Runs the tournament in `dir` with `[board] adjudicate = adjudicate`
/// (and the tables `tb` beside it); the run's config and folder.
fn run(dir: &Path, name: &str, adjudicate: &str) -> (PathBuf, PathBuf) {
    // 32 seeds: a side wins by `decided` at 17 captured, so with 15 on the
    // board, before the tables' 10; or the board empties to 10 first.
    let header = format!(
        "[board]\nholes = 4\nseeds = 4\nadjudicate = {adjudicate}\ntablebase = \"tb\"\n\
         [tournament]\nfirst_to = 100\nmax_games = 16\nconcurrency = 2\nseed = 5\n"
    );
    let header = if adjudicate == "\"decided\"" {
        header.replace("tablebase = \"tb\"\n", "")
    } else {
        header
    };
    let bots = [
        ("greedy", arena_bot("greedy", 1)),
        ("random", arena_bot("random", 2)),
    ];
    let cfg = dir.join(format!("{name}.toml"));
    std::fs::rename(config(dir, &header, &bots), &cfg).unwrap();
    let out = dir.join(name);
    assert_success(&run_arena(&cfg, &out));
    (cfg, out)
}

/// A run's games by (series, game).
fn by_game(out: &Path) -> HashMap<(String, String), Row> {
    rows(&out.join("games.csv"))
        .into_iter()
        .map(|r| ((r["series"].clone(), r["game"].clone()), r))
        .collect()
}

/// `row` without the columns a run does not fix (its time).
fn played(row: &Row) -> Row {
    let mut row = row.clone();
    row.remove("duration_ms");
    row
}

/// `tools/replay_check.py FILE`, to completion.
fn replay_check(file: &Path) -> Output {
    std::process::Command::new("python3")
        .arg(common::repo().join("tools/replay_check.py"))
        .arg(file)
        .output()
        .unwrap()
}

/// `arena replay` of `row`'s game in `games`, to completion.
fn replay(games: &Path, row: &Row) -> Output {
    arena(&[
        &"replay",
        &"--series",
        &row["series"],
        &"--game",
        &row["game"],
        &"--games",
        &games,
    ])
}

#[test]
fn both_rules_stop_each_game_at_the_earlier_and_rows_are_checked_against_both() {
    let tmp = tempfile::tempdir().unwrap();
    build_tables(&tmp.path().join("tb"));
    let (_, decided) = run(tmp.path(), "decided", "\"decided\"");
    let (_, tablebase) = run(tmp.path(), "tablebase", "\"tablebase\"");
    let (cfg, both) = run(tmp.path(), "both", "[\"decided\", \"tablebase\"]");
    let (d, t, b) = (by_game(&decided), by_game(&tablebase), by_game(&both));
    assert_eq!(b.len(), 16);
    assert_eq!((d.len(), t.len()), (16, 16));

    // Game by game: the run with both is the run whose rule stopped it
    // first (decided on the same ply), move for move, never later.
    let plies = |r: &Row| r["plies"].parse::<u32>().unwrap();
    for (key, row) in &b {
        let (alone_d, alone_t) = (&d[key], &t[key]);
        let first = if plies(alone_d) <= plies(alone_t) {
            alone_d
        } else {
            alone_t
        };
        assert_eq!(played(row), played(first), "{key:?}");
        assert!(plies(row) <= plies(alone_d).min(plies(alone_t)));
    }
    let count = |end: &str| b.values().filter(|r| r["termination"] == end).count();
    assert!(
        count("decided") > 0 && count("tablebase") > 0,
        "decided {}, tablebase {} of {}",
        count("decided"),
        count("tablebase"),
        b.len()
    );

    // Every check accepts the run: rate, replay of a game of each
    // termination, the independent checker.
    let games = both.join("games.csv");
    assert_success(&arena(&[&"rate", &games]));
    for end in ["decided", "tablebase"] {
        let row = b.values().find(|r| r["termination"] == end).unwrap();
        assert_success(&replay(&games, row));
    }
    let checked = replay_check(&games);
    assert_success(&checked);
    assert!(checked.status.success(), "{checked:?}");
    // Shards of it merge, their rows checked under the shards' config.
    let shards = common::run_shards(tmp.path(), &cfg, 2);
    let merged = tmp.path().join("merged");
    assert_success(&common::merge(&shards, &merged));
    assert_eq!(
        common::games_without_timing(&merged),
        common::games_without_timing(&both)
    );

    // A row that goes on past the other rule's stop: the single rule's row
    // of a game that the other rule stops earlier, put in the run with
    // both. Alone, each such row is right (its own run accepts it).
    let text = std::fs::read_to_string(&games).unwrap();
    let original = text.clone();
    for (alone, end, why) in [
        (
            &d,
            "decided",
            "termination decided, but the tables knew the result after ply",
        ),
        (&t, "tablebase", "termination tablebase, but"),
    ] {
        let Some((key, edited)) = alone
            .iter()
            .find(|(k, r)| r["termination"] == end && plies(r) > plies(&b[*k]))
        else {
            panic!("no {end} row that the other rule stops earlier");
        };
        let line_of = |r: &Row| {
            let header: Vec<&str> = text.lines().next().unwrap().split(',').collect();
            let cells: Vec<String> = header.iter().map(|c| r[*c].clone()).collect();
            let mut w = csv::WriterBuilder::new().from_writer(Vec::new());
            w.write_record(&cells).unwrap();
            String::from_utf8(w.into_inner().unwrap()).unwrap()
        };
        let replaced = original.replace(&line_of(&b[key]), &line_of(edited));
        assert_ne!(replaced, original);
        std::fs::write(&games, &replaced).unwrap();
        let refused = arena(&[&"rate", &games]);
        let said = stderr_of(&refused);
        assert!(!refused.status.success() && said.contains(why), "{said}");
        let disagrees = replay(&games, edited);
        assert!(!disagrees.status.success());
        assert!(stdout_of(&disagrees).contains("THE REPLAY DISAGREES"));
        let resumed = arena(&[&"run", &cfg, &"--resume", &both]);
        let said = stderr_of(&resumed);
        assert!(!resumed.status.success() && said.contains(why), "{said}");
        if end == "tablebase" {
            // The checker needs no tables to see a side past half.
            let failed = replay_check(&games);
            let said = stdout_of(&failed);
            assert!(
                !failed.status.success() && said.contains("held more than half"),
                "{said}"
            );
        }
        std::fs::write(&games, &original).unwrap();
        // And merge refuses the shard that holds it.
        let (shard, row) = shards
            .iter()
            .find_map(|s| Some((s.join("games.csv"), by_game(s).remove(key)?)))
            .unwrap();
        let kept = std::fs::read_to_string(&shard).unwrap();
        let replaced = kept.replace(&line_of(&row), &line_of(edited));
        assert_ne!(replaced, kept);
        std::fs::write(&shard, replaced).unwrap();
        let refused = common::merge(&shards, &tmp.path().join(format!("merged-{end}")));
        let said = stderr_of(&refused);
        assert!(!refused.status.success() && said.contains(why), "{said}");
        std::fs::write(&shard, kept).unwrap();
    }
}
