//! Exact adjudication against the full games: one tournament of bundled
//! bots whose every move follows from the position and a per-game seed
//! (no bot makes a fault), run twice from the same openings, with
//! `[board] adjudicate` off and `"decided"`.

mod common;

use std::collections::HashMap;

use common::{
    arena, arena_bot, assert_contains, assert_replays, assert_success, config, rows, run_arena,
    stdout_of,
};

#[test]
fn every_decided_game_has_the_winner_of_the_full_game() {
    let tmp = tempfile::tempdir().unwrap();
    let header = |adjudicate: &str| {
        format!(
            "[board]\nholes = 6\nseeds = 4\nadjudicate = \"{adjudicate}\"\n\
             [tournament]\nfirst_to = 3\nmax_games = 6\nconcurrency = 2\nseed = 11\n\
             [openings]\nplies_min = 2\nplies_max = 4\n"
        )
    };
    let mut alphabeta = arena_bot("alphabeta", 3);
    alphabeta.extend(["--depth".into(), "3".into()]);
    let bots = [
        ("greedy", arena_bot("greedy", 1)),
        ("random", arena_bot("random", 2)),
        ("alphabeta-3", alphabeta),
    ];
    let run = |adjudicate: &str| {
        let dir = tmp.path().join(adjudicate);
        std::fs::create_dir(&dir).unwrap();
        let cfg = config(&dir, &header(adjudicate), &bots);
        let out = dir.join("run");
        assert_success(&run_arena(&cfg, &out));
        out
    };
    let (full_dir, decided_dir) = (run("off"), run("decided"));
    let full = rows(&full_dir.join("games.csv"));
    let decided = rows(&decided_dir.join("games.csv"));
    let key = |g: &HashMap<String, String>| (g["series"].clone(), g["game"].clone());
    let full_by_game: HashMap<_, _> = full.iter().map(|g| (key(g), g)).collect();

    // The same games were played: the same results make the same series.
    assert_eq!(full.len(), decided.len());
    let (mut adjudicated, mut plies_full, mut plies_decided) = (0, 0u32, 0u32);
    for g in &decided {
        let f = full_by_game[&key(g)];
        assert_eq!(
            (&g["south"], &g["north"], &g["opening"]),
            (&f["south"], &f["north"], &f["opening"])
        );
        assert_eq!(g["result"], f["result"], "{g:?}\nplayed in full: {f:?}");
        assert!(
            ["no-moves", "ply-limit"].contains(&f["termination"].as_str()),
            "{f:?}"
        );
        let (p, q) = (
            g["plies"].parse::<u32>().unwrap(),
            f["plies"].parse::<u32>().unwrap(),
        );
        plies_decided += p;
        plies_full += q;
        if g["termination"] == "decided" {
            adjudicated += 1;
            // The same game, stopped early: its moves begin the full game's,
            // and the winner already holds more than half of the 48 seeds.
            assert!(p < q, "{g:?}");
            assert!(
                f["moves"].starts_with(&format!("{} ", g["moves"])),
                "{g:?}\n{f:?}"
            );
            let seeds = ["south_seeds", "north_seeds"].map(|c| g[c].parse::<u32>().unwrap());
            let winner = if g["result"] == "south" {
                seeds[0]
            } else {
                seeds[1]
            };
            assert!(winner > 24 && seeds[0] + seeds[1] < 48, "{g:?}");
        } else {
            // A game that a rule ended first is the full game itself.
            assert_eq!(g["moves"], f["moves"], "{g:?}");
            assert_eq!(g["termination"], f["termination"]);
        }
    }
    assert!(
        adjudicated * 2 > decided.len(),
        "only {adjudicated} of {} games were adjudicated",
        decided.len()
    );
    assert!(plies_decided < plies_full);
    // The series and the standings come from the results alone.
    for file in ["series.csv", "standings.csv"] {
        assert_eq!(
            std::fs::read_to_string(full_dir.join(file)).unwrap(),
            std::fs::read_to_string(decided_dir.join(file)).unwrap(),
            "{file}"
        );
    }

    // The adjudicated games replay: `arena rate` checks and counts every
    // one, and the independent checker of RULES.md accepts them.
    let rate = arena(&[&"rate", &decided_dir.join("games.csv")]);
    assert_success(&rate);
    let table = stdout_of(&rate);
    assert_contains(&table, "alphabeta-3");
    assert_replays(&decided_dir.join("games.csv"));
}
