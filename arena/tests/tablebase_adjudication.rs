//! `[board] adjudicate = "tablebase"` end to end: 2x4 tables to 10 seeds on
//! the board, a small tournament that enters them, every adjudicated game
//! played on from its final position by `perfect` on both sides with
//! adjudication off (it must end with the adjudicated seeds), and the
//! checks of `arena rate` and `arena replay` on the run and on a tampered
//! copy.

mod common;

use std::collections::HashMap;
use std::path::Path;
use std::process::Command;

use common::{
    arena_bot, assert_contains, assert_success, build_tables, config, rows, run_arena, stderr_of,
    stdout_of,
};
use endodoi::{Move, Position, Rules, Side, Termination};

fn arena(args: &[&str], extra: &Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(args)
        .arg(extra)
        .output()
        .unwrap()
}

/// The position after a row's moves.
fn final_position(g: &HashMap<String, String>) -> Position {
    let rules = Rules::new(4, 2).unwrap();
    let mut pos = rules.start();
    for word in g["moves"].split_whitespace() {
        pos.play(Move::new(word.parse().unwrap()).unwrap()).unwrap();
    }
    pos
}

/// Plays `pos` to its end with the tables' best move on both sides; the
/// final seeds (South, North).
fn perfect_to_the_end(tables: &endodoi_tablebase::Tables, mut pos: Position) -> [u32; 2] {
    while !pos.is_over() {
        let view = endodoi_bots::own_view(&pos);
        let mv = arena::commands::perfect::best_move(tables, &view, view.legal_moves())
            .expect("a resolved position has a move that keeps its value");
        pos.play(mv).unwrap();
    }
    let row = |s: Side| pos.row(s).sum();
    let mut seeds = [pos.captured(Side::South), pos.captured(Side::North)];
    match pos.outcome().unwrap().termination {
        Termination::NoMoves => {
            seeds[pos.to_move().opponent().index()] += row(Side::South) + row(Side::North)
        }
        Termination::PlyLimit => {
            seeds[0] += row(Side::South);
            seeds[1] += row(Side::North);
        }
    }
    seeds
}

#[test]
fn adjudicated_games_end_as_perfect_play_ends_them_and_are_checked() {
    let tmp = tempfile::tempdir().unwrap();
    let tb = tmp.path().join("tb");
    build_tables(&tb);
    let header = "[board]\nholes = 4\nseeds = 2\nadjudicate = \"tablebase\"\ntablebase = \"tb\"\n\
                  [tournament]\nfirst_to = 4\nmax_games = 8\nconcurrency = 2\nseed = 5\n";
    let bots = [
        ("greedy", arena_bot("greedy", 1)),
        ("random", arena_bot("random", 2)),
    ];
    let cfg = config(tmp.path(), header, &bots);
    let out = tmp.path().join("run");
    assert_success(&run_arena(&cfg, &out));
    let games = out.join("games.csv");
    let all = rows(&games);
    let adjudicated: Vec<_> = all
        .iter()
        .filter(|g| g["termination"] == "tablebase")
        .collect();
    assert!(
        adjudicated.len() * 2 >= all.len(),
        "only {} of {} games ended by the tables",
        adjudicated.len(),
        all.len()
    );

    // The goal: each adjudicated game, played on from its final
    // position by perfect play on both sides without adjudication, ends
    // with the adjudicated seeds and result.
    let tables = arena::output::tablebase::load(&tb).unwrap();
    for g in &adjudicated {
        let pos = final_position(g);
        assert!(pos.ring().sum() <= 10, "{g:?}");
        let seeds = perfect_to_the_end(&tables, pos);
        let recorded = ["south_seeds", "north_seeds"].map(|c| g[c].parse::<u32>().unwrap());
        assert_eq!(seeds, recorded, "{g:?}");
        let result = match seeds[0].cmp(&seeds[1]) {
            std::cmp::Ordering::Greater => "south",
            std::cmp::Ordering::Less => "north",
            std::cmp::Ordering::Equal => "draw",
        };
        assert_eq!(g["result"], result, "{g:?}");
    }

    // A resumed run reads its adjudicated rows back through the tables'
    // checks, and plays the games it lacks to the same rows.
    let resumed = tmp.path().join("resumed");
    std::fs::create_dir(&resumed).unwrap();
    for entry in std::fs::read_dir(&out).unwrap() {
        let entry = entry.unwrap();
        if entry.file_type().unwrap().is_file() && entry.file_name() != "finished" {
            std::fs::copy(entry.path(), resumed.join(entry.file_name())).unwrap();
        }
    }
    let text = std::fs::read_to_string(&games).unwrap();
    let kept: Vec<&str> = text.lines().take(4).collect();
    std::fs::write(resumed.join("games.csv"), kept.join("\n") + "\n").unwrap();
    let again = Command::new(env!("CARGO_BIN_EXE_arena"))
        .arg("run")
        .arg(&cfg)
        .arg("--resume")
        .arg(&resumed)
        .output()
        .unwrap();
    assert_success(&again);
    let without_time = |rows: Vec<HashMap<String, String>>| {
        rows.into_iter()
            .map(|mut r| {
                r.remove("duration_ms");
                r
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(
        without_time(rows(&resumed.join("games.csv"))),
        without_time(all.clone())
    );

    // `arena rate` checks every row by the run's tables; `arena replay`
    // agrees with an adjudicated game.
    assert_success(&arena(&["rate"], &games));
    let first = adjudicated[0];
    let replay = |file: &Path| {
        Command::new(env!("CARGO_BIN_EXE_arena"))
            .args([
                "replay",
                "--series",
                &first["series"],
                "--game",
                &first["game"],
                "--games",
            ])
            .arg(file)
            .output()
            .unwrap()
    };
    let agrees = replay(&games);
    assert_success(&agrees);
    assert!(stdout_of(&agrees).contains("tablebase: "), "{agrees:?}");

    // A tampered row: one seed moved from the winner's total to the loser's.
    let text = std::fs::read_to_string(&games).unwrap();
    let header_line = text.lines().next().unwrap();
    let columns: Vec<&str> = header_line.split(',').collect();
    let at = |name: &str| columns.iter().position(|c| *c == name).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let target = lines
        .iter()
        .position(|l| l.split(',').nth(at("termination")) == Some("tablebase"))
        .unwrap();
    let mut cells: Vec<String> = lines[target].split(',').map(String::from).collect();
    let (s, n) = (at("south_seeds"), at("north_seeds"));
    let south: u32 = cells[s].parse().unwrap();
    let north: u32 = cells[n].parse().unwrap();
    let (s2, n2) = if south > 0 {
        (south - 1, north + 1)
    } else {
        (south + 1, north - 1)
    };
    cells[s] = s2.to_string();
    cells[n] = n2.to_string();
    lines[target] = cells.join(",");
    let bad_dir = tmp.path().join("tampered");
    std::fs::create_dir(&bad_dir).unwrap();
    let bad = bad_dir.join("games.csv");
    std::fs::write(&bad, lines.join("\n") + "\n").unwrap();
    let refused = Command::new(env!("CARGO_BIN_EXE_arena"))
        .arg("rate")
        .arg(&bad)
        .arg("--tablebase")
        .arg(&tb)
        .output()
        .unwrap();
    assert!(!refused.status.success());
    let why = stderr_of(&refused);
    assert_contains(&why, "but the tables force");
    // `arena replay` of the tampered game shows the disagreement and fails.
    let disagrees = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args([
            "replay",
            "--series",
            &cells[at("series")],
            "--game",
            &cells[at("game")],
        ])
        .arg("--games")
        .arg(&bad)
        .arg("--tablebase")
        .arg(&tb)
        .output()
        .unwrap();
    assert!(!disagrees.status.success());
    assert!(stdout_of(&disagrees).contains("THE REPLAY DISAGREES"));
    // The independent checker confirms every adjudicated row by its own
    // search (none beyond its budget here), and refuses the tampered one.
    let check = |file: &Path| {
        Command::new("python3")
            .arg(common::repo().join("tools/replay_check.py"))
            .arg(file)
            .output()
            .unwrap()
    };
    let passed = check(&games);
    let said = stdout_of(&passed);
    assert!(
        passed.status.success() && !said.contains("unchecked"),
        "{said}"
    );
    let failed = check(&bad);
    assert!(!failed.status.success());
    // Its seeds no longer give the margin its detail (the tables') names.
    let said = stdout_of(&failed);
    assert_contains(&said, "the detail says");
    // Without the tables, a tablebase row is refused with the fix.
    let unchecked = arena(&["rate"], &bad);
    assert!(!unchecked.status.success());
    assert!(stderr_of(&unchecked).contains("pass --tablebase DIR"));
    // The run's tables gone from where its config names them: said so,
    // with the folder, by rate and replay alike (not blamed on the rows).
    std::fs::rename(&tb, tmp.path().join("tb-gone")).unwrap();
    for args in [
        &["rate"][..],
        &["replay", "--series", "1", "--game", "1", "--games"],
    ] {
        let gone = arena(args, &games);
        let said = stderr_of(&gone);
        assert!(!gone.status.success(), "{said}");
        assert!(
            said.contains("tb") && said.contains("restore them there, or pass --tablebase DIR"),
            "{args:?}: {said}"
        );
    }
}
