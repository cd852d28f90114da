//! Whole tournaments through the `arena` binary, with real bot processes.

mod common;

use std::collections::HashMap;
use std::path::Path;

use common::{
    arena, arena_bot, arena_command, arena_in, assert_contains, assert_none_left,
    assert_played_out, assert_replays, assert_same_files, assert_success, config, games,
    games_counted, games_without_timing, greedy_and_random, merge, python, rate, read_files, repo,
    rows, run_arena, run_in, run_shards, run_to, series_and_games, stderr_of, stdout_of,
    temp_config, temp_run, LOGISTIC_SPRT, SUMMARY_FILES,
};

#[test]
fn a_round_robin_of_rust_and_python_bots_is_refereed_rated_and_written() {
    let tmp = tempfile::tempdir().unwrap();
    let header =
        "[board]\nholes = 8\nseeds = 4\n[tournament]\nfirst_to = 3\nconcurrency = 2\nseed = 7\n";
    let bots = [
        ("greedy", arena_bot("greedy", 1)),
        ("random", arena_bot("random", 2)),
        (
            "greedy-py",
            python(&repo().join("bots/python/greedy.py"), &["--seed", "3"]),
        ),
    ];
    let (out, output) = run_in(tmp.path(), header, &bots);
    let table = stdout_of(&output);
    assert!(
        table.contains("greedy-py") && table.contains("Elo"),
        "{table}"
    );

    // games.csv: every game of three series, each series stopped at first_to.
    let (series, games) = series_and_games(&out);
    assert_eq!(series.len(), 3);
    for s in &series {
        let wins = [&s["wins_a"], &s["wins_b"]].map(|w| w.parse::<u32>().unwrap());
        // first_to 3, and a series ends only with a whole game pair: the
        // winner reached 3 in the pair's first or second game.
        let most = *wins.iter().max().unwrap();
        assert!(most == 3 || most == 4, "{s:?}");
        assert_eq!(
            s["games"].parse::<u32>().unwrap() % 2,
            0,
            "whole pairs: {s:?}"
        );
        assert_eq!(s["decided"], "true");
    }
    assert_played_out(&games, 64);

    // An independent implementation of RULES.md replays every game.
    assert_replays(&out.join("games.csv"));

    // `arena replay` reproduces every row.
    for g in &games {
        let replay = arena(&[
            &"replay",
            &"--series",
            &g["series"],
            &"--game",
            &g["game"],
            &"--games",
            &out.join("games.csv"),
        ]);
        let text = stdout_of(&replay);
        assert!(
            replay.status.success() && text.contains("the replay agrees"),
            "{g:?}\n{text}"
        );
    }

    // Standings: greedy-type bots above random, and only finite numbers.
    let standings = rows(&out.join("standings.csv"));
    assert_eq!(standings.len(), 3);
    assert_eq!(standings.last().unwrap()["bot"], "random");
    for s in &standings {
        for key in ["elo", "elo_lower", "elo_upper", "score"] {
            let x: f64 = s[key].parse().unwrap();
            assert!(x.is_finite(), "{key} in {s:?}");
        }
        let (lo, elo, hi): (f64, f64, f64) = (
            s["elo_lower"].parse().unwrap(),
            s["elo"].parse().unwrap(),
            s["elo_upper"].parse().unwrap(),
        );
        assert!(lo <= elo && elo <= hi, "{s:?}");
    }
    let elo_sum: f64 = standings
        .iter()
        .map(|s| s["elo"].parse::<f64>().unwrap())
        .sum();
    assert!(elo_sum.abs() < 0.5, "mean rating 0, got sum {elo_sum}");
    assert!(out.join("config.toml").exists());
}

#[test]
fn misbehaving_bots_lose_with_the_right_reason_and_leave_no_process() {
    let tmp = tempfile::tempdir().unwrap();
    // Copies of the test bots (and the loop they share) under the temp
    // folder, so their command lines carry a marker to look for afterwards.
    let bots_dir = tmp.path().join("test-bots");
    std::fs::create_dir(&bots_dir).unwrap();
    for f in [
        "_protocol.py",
        "crash.py",
        "illegal.py",
        "garbage.py",
        "hang.py",
        "info_spam.py",
    ] {
        std::fs::copy(repo().join("test-bots").join(f), bots_dir.join(f)).unwrap();
    }
    let bot = |f: &str, args: &[&str]| python(&bots_dir.join(f), args);
    let header = "[time]\nmove_time_ms = 400\nstartup_ms = 1500\n[tournament]\nfirst_to = 2\nmax_games = 3\nconcurrency = 2\n";
    let faulty = [
        ("crash", "crash"),
        ("illegal", "illegal-move"),
        ("garbage", "protocol-error"),
        ("hang", "timeout"),
    ];
    let bots = [
        ("random", arena_bot("random", 5)),
        ("crash", bot("crash.py", &[])),
        ("illegal", bot("illegal.py", &[])),
        ("garbage", bot("garbage.py", &[])),
        ("hang", bot("hang.py", &["--stubborn"])),
        ("info-spam", bot("info_spam.py", &[])),
    ];
    let (out, _) = run_in(tmp.path(), header, &bots);

    let games = rows(&out.join("games.csv"));
    let expected: HashMap<&str, &str> = faulty.into_iter().collect();
    let mut seen_faults = std::collections::HashSet::new();
    for g in &games {
        let (south, north) = (g["south"].as_str(), g["north"].as_str());
        let loser = match g["result"].as_str() {
            "south" => north,
            "north" => south,
            _ => panic!("no game here can be drawn: {g:?}"),
        };
        let faulty_in_game = expected.contains_key(south) || expected.contains_key(north);
        if faulty_in_game {
            // The bot that lost is the one at fault, and the reason is its fault.
            assert_eq!(
                Some(&g["termination"].as_str()),
                expected.get(loser),
                "{g:?}"
            );
            assert!(g["detail"].contains(loser), "{g:?}");
            seen_faults.insert(loser.to_string());
        } else {
            // random vs info-spam: info lines and a stderr flood are harmless.
            assert!(
                ["no-moves", "ply-limit"].contains(&g["termination"].as_str()),
                "{g:?}"
            );
        }
    }
    assert_eq!(
        seen_faults.len(),
        faulty.len(),
        "every fault was seen: {seen_faults:?}"
    );

    // Every series ended: the tournament went on after every fault.
    assert_eq!(rows(&out.join("series.csv")).len(), 15);
    let standings = rows(&out.join("standings.csv"));
    for s in &standings {
        let forfeits: u32 = s["forfeits"].parse().unwrap();
        if expected.contains_key(s["bot"].as_str()) {
            assert_eq!(s["forfeits"], s["losses"], "{s:?}");
            assert!(forfeits > 0);
        } else {
            assert_eq!(forfeits, 0, "{s:?}");
        }
    }
    assert_none_left(&bots_dir.display().to_string());
}

#[test]
fn a_bad_config_gets_one_line_naming_the_place_and_the_fix() {
    let tmp = tempfile::tempdir().unwrap();
    let cfg = tmp.path().join("bad.toml");
    std::fs::write(&cfg, "[board]\nholes = 80\n").unwrap();
    let output = arena(&[&"run", &cfg]);
    assert_eq!(output.status.code(), Some(2));
    let err = stderr_of(&output);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("bad.toml:2:9") && err.contains("use 2 to 50"),
        "{err}"
    );

    let missing = arena(&[&"run", &"no/such.toml"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(stderr_of(&missing).contains("cannot read config no/such.toml"));

    // Saved as UTF-16 (with its byte-order mark), as some Windows editors do.
    let utf16 = tmp.path().join("utf16.toml");
    let mut bytes = vec![0xff, 0xfe];
    bytes.extend("[tournament]\n".encode_utf16().flat_map(u16::to_le_bytes));
    std::fs::write(&utf16, bytes).unwrap();
    let wide = arena(&[&"run", &utf16]);
    let err = stderr_of(&wide);
    assert_eq!(wide.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("is not UTF-8 text") && err.contains("save it as UTF-8"),
        "{err}"
    );
}

#[test]
fn bad_command_lines_get_one_line() {
    for args in [
        &["run", "--bogus"][..],
        &["run"],
        &["run", "x.toml", "--out"],
        &["fly"],
    ] {
        let output = arena_command().args(args).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let err = stderr_of(&output);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        // The help to read: the subcommand's, when one was named.
        let help = if args[0] == "run" {
            "see 'arena run --help'"
        } else {
            "see 'arena --help'"
        };
        assert!(err.starts_with("error: ") && err.contains(help), "{err}");
    }
}

#[test]
fn a_folder_with_results_is_never_overwritten() {
    let (tmp, cfg) = temp_config(
        "[tournament]\nfirst_to = 1\n",
        &[("a", arena_bot("random", 1)), ("b", arena_bot("random", 2))],
    );
    let out = tmp.path().join("run");
    std::fs::create_dir(&out).unwrap();
    std::fs::write(out.join("games.csv"), "precious\n").unwrap();
    let output = run_arena(&cfg, &out);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr_of(&output).contains("already holds a tournament"));
    assert_eq!(
        std::fs::read_to_string(out.join("games.csv")).unwrap(),
        "precious\n"
    );
}

#[test]
fn transcripts_keep_every_line_of_every_game() {
    let (tmp, cfg) = temp_config(
        "[board]\nholes = 4\n[tournament]\nfirst_to = 2\n",
        &[("a", arena_bot("random", 1)), ("b", arena_bot("greedy", 2))],
    );
    let out = tmp.path().join("run");
    let output = arena(&[&"run", &"--quiet", &"--transcripts", &cfg, &"--out", &out]);
    assert_success(&output);
    for g in rows(&out.join("games.csv")) {
        let name = format!(
            "series-{:04}-game-{:03}.txt",
            g["series"].parse::<u32>().unwrap(),
            g["game"].parse::<u32>().unwrap()
        );
        let text = std::fs::read_to_string(out.join("transcripts").join(&name)).unwrap();
        // One turn and one move per ply after the opening, both sides' lines
        // marked, and the end.
        let opening = g["opening"].split_whitespace().count();
        let plies: usize = g["plies"].parse::<usize>().unwrap() - opening;
        assert_eq!(
            text.lines().filter(|l| l.contains("> turn ")).count(),
            plies,
            "{name}"
        );
        assert_eq!(
            text.lines().filter(|l| l.contains("< move ")).count(),
            plies,
            "{name}"
        );
        assert_eq!(
            text.lines().filter(|l| l.contains("> gameover ")).count(),
            2,
            "{name}"
        );
        assert!(
            text.lines()
                .all(|l| l.starts_with("S ") || l.starts_with("N ")),
            "{name}"
        );
    }
}

#[test]
fn arena_rate_reproduces_a_run_and_merges_runs() {
    let (tmp, cfg) = temp_config(
        "[board]\nholes = 6\n[tournament]\nfirst_to = 3\n",
        &[
            ("a", arena_bot("greedy", 1)),
            ("b", arena_bot("random", 2)),
            ("c", arena_bot("random", 3)),
        ],
    );
    let (one, two) = (tmp.path().join("one"), tmp.path().join("two"));
    for out in [&one, &two] {
        assert!(run_arena(&cfg, out).status.success());
    }
    // Rating one run again gives byte for byte the files of the run.
    let again = tmp.path().join("again");
    let output = arena(&[&"rate", &one.join("games.csv"), &"--out", &again]);
    assert_success(&output);
    assert_same_files(
        &one,
        &again,
        &[
            "standings.csv",
            "pairwise.csv",
            "los.csv",
            "report.html",
            "standings.svg",
        ],
    );
    // Two runs merged: every game counts once, pairs included.
    let merged = tmp.path().join("merged");
    let output = arena(&[
        &"rate",
        &one.join("games.csv"),
        &two.join("games.csv"),
        &"--anchor",
        &"b",
        &"--anchor-elo",
        &"1500",
        &"--out",
        &merged,
    ]);
    assert_success(&output);
    let games = games(&one).len() + games(&two).len();
    let standings = rows(&merged.join("standings.csv"));
    let counted = games_counted(&standings);
    assert_eq!(counted, 2 * games);
    let b = standings.iter().find(|s| s["bot"] == "b").unwrap();
    assert_eq!(
        (
            b["elo"].as_str(),
            b["elo_lower"].as_str(),
            b["elo_upper"].as_str()
        ),
        ("1500.0", "1500.0", "1500.0")
    );
    let pairwise = rows(&merged.join("pairwise.csv"));
    assert_eq!(pairwise.len(), 3);
    for p in &pairwise {
        let games: u32 = p["games"].parse().unwrap();
        let pairs: u32 = p["pairs"].parse().unwrap();
        let penta: u32 = (0..5)
            .map(|k| p[&format!("penta_{k}")].parse::<u32>().unwrap())
            .sum();
        assert_eq!(penta, pairs);
        assert!(2 * pairs <= games && games <= 2 * pairs + 2, "{p:?}");
    }
    // The report covers both files, every game of each in the viewer.
    let report = std::fs::read_to_string(merged.join("report.html")).unwrap();
    assert_contains(&report, "From 2 files");
    assert!(report.contains(&format!(r#""omitted":0,"total":{games}"#)));
    // Several files need --out.
    let output = arena(&[&"rate", &one.join("games.csv"), &two.join("games.csv")]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr_of(&output).contains("need --out"));
}

#[test]
fn an_sprt_match_stops_when_the_test_decides() {
    let (tmp, out, output) = temp_run(LOGISTIC_SPRT, &greedy_and_random(["greedy", "random"]));
    // One line per game; the one that completes a pair ends with the LLR.
    let stderr = stderr_of(&output);
    assert_contains(&stderr, " plies; SPRT: LLR ");
    assert!(stderr.contains("(greedy +"), "{stderr}");
    let sprt = rows(&out.join("sprt.csv"));
    let last = sprt.last().unwrap();
    assert_eq!(last["status"], "H1", "greedy is far stronger than random");
    let llr: f64 = last["llr"].parse().unwrap();
    assert!(llr >= last["upper"].parse::<f64>().unwrap());
    // It stopped at once: every earlier pair said continue, and no game came after.
    assert!(sprt[..sprt.len() - 1]
        .iter()
        .all(|r| r["status"] == "continue"));
    let games = games(&out).len();
    assert_eq!(last["games"], games.to_string());
    assert!(sprt
        .iter()
        .all(|r| r["llr"].parse::<f64>().unwrap().is_finite()));
    // Merged (as a Slurm merge job does with the match run as shard 1/1),
    // its games give the same test, pair by pair.
    let merged = tmp.path().join("merged");
    let output = arena(&[&"merge", &out, &"--out", &merged]);
    assert_success(&output);
    assert!(
        stderr_of(&output).contains("arena: 1 shard folder merged into"),
        "{}",
        stderr_of(&output)
    );
    assert_same_files(&out, &merged, &["sprt.csv", "standings.csv"]);
}

#[test]
fn an_interrupted_sprt_match_resumes_where_it_stopped() {
    // Bounds wide enough for a few dozen games.
    let (tmp, cfg) = temp_config("[board]\nholes = 6\n[sprt]\nelo0 = 0\nelo1 = 20\nalpha = 0.01\nbeta = 0.01\nmodel = \"logistic\"\n", &greedy_and_random(["greedy", "random"]));
    let (whole, _) = run_to(&cfg, tmp.path().join("whole"));
    let games = std::fs::read_to_string(whole.join("games.csv")).unwrap();
    let lines: Vec<&str> = games.lines().collect();
    assert!(lines.len() > 8, "{games}");
    // Cut after a whole pair, and in the middle of one, as an interrupted
    // run leaves its folder (no `finished` marker).
    for kept in [6, 7] {
        let out = tmp.path().join(format!("cut-{kept}"));
        std::fs::create_dir_all(&out).unwrap();
        for f in ["config.toml", "shard"] {
            std::fs::copy(whole.join(f), out.join(f)).unwrap();
        }
        let cut: String = lines[..=kept].iter().map(|l| format!("{l}\n")).collect();
        std::fs::write(out.join("games.csv"), cut).unwrap();
        // The second resumes on more lanes: concurrency may change.
        let resumed_with = if kept == 7 {
            let more = tmp.path().join("more-lanes.toml");
            let text = std::fs::read_to_string(out.join("config.toml")).unwrap();
            std::fs::write(&more, format!("{text}[tournament]\nconcurrency = 3\n")).unwrap();
            more
        } else {
            out.join("config.toml")
        };
        let output = arena(&[&"run", &resumed_with, &"--quiet", &"--resume", &out]);
        assert_success(&output);
        let (resumed, once) = (games_without_timing(&out), games_without_timing(&whole));
        assert_eq!(
            resumed.len(),
            once.len(),
            "the match stops at the same game"
        );
        assert!(resumed == once, "the resumed games differ");
        assert_same_files(&whole, &out, &["sprt.csv", "standings.csv"]);
    }
}

#[test]
fn concurrency_never_changes_which_games_are_played() {
    let tmp = tempfile::tempdir().unwrap();
    let bots = [
        ("g1", arena_bot("greedy", 1)),
        ("g2", arena_bot("greedy", 2)),
        ("r1", arena_bot("random", 3)),
        ("r2", arena_bot("random", 4)),
    ];
    let mut results = Vec::new();
    for concurrency in [1, 8] {
        let header = format!("[board]\nholes = 6\n[tournament]\nfirst_to = 2\nseed = 11\nconcurrency = {concurrency}\n");
        let cfg = config(tmp.path(), &header, &bots);
        let out = tmp.path().join(format!("c{concurrency}"));
        assert!(run_arena(&cfg, &out).status.success());
        results.push(games_without_timing(&out));
    }
    assert!(!results[0].is_empty());
    assert_eq!(results[0], results[1]);
}

/// `files`, and sprt.csv after them for the match named "sprt".
fn with_sprt(name: &str, files: &[&'static str]) -> Vec<&'static str> {
    let mut files = files.to_vec();
    if name == "sprt" {
        files.push("sprt.csv");
    }
    files
}

#[test]
fn a_two_bot_match_on_lanes_plays_the_games_of_one_lane() {
    let tmp = tempfile::tempdir().unwrap();
    let bots = greedy_and_random(["greedy", "random"]);
    // A long series (it ends at a pair's end once a bot has 12 wins and the
    // lead), a series that ends at max_games (an odd number: a half pair),
    // and an SPRT test that stops when it decides.
    for (name, settings) in [
        ("series", "[tournament]\nfirst_to = 12\n"),
        ("capped", "[tournament]\nfirst_to = 50\nmax_games = 15\n"),
        (
            "sprt",
            "[sprt]\nelo0 = 0\nelo1 = 20\nalpha = 0.01\nbeta = 0.01\nmodel = \"logistic\"\n[tournament]\n",
        ),
    ] {
        let mut outs = Vec::new();
        for concurrency in [1, 3] {
            let header = format!("[board]\nholes = 6\n{settings}seed = 3\nconcurrency = {concurrency}\n");
            let cfg = config(tmp.path(), &header, &bots);
            outs.push(run_to(&cfg, tmp.path().join(format!("{name}-{concurrency}"))).0);
        }
        let [one, three] = &outs[..] else { unreachable!() };
        assert_eq!(
            games_without_timing(one),
            games_without_timing(three),
            "{name}"
        );
        // Written in game order, as one lane writes them.
        let numbers: Vec<u32> = rows(&three.join("games.csv"))
            .iter()
            .map(|g| g["game"].parse().unwrap())
            .collect();
        assert!(numbers.windows(2).all(|w| w[1] == w[0] + 1), "{name}: {numbers:?}");
        assert_same_files(one, three, &with_sprt(name, &["series.csv", "standings.csv"]));
        // Three lanes, each with its own bots: the log names every lane.
        let log = std::fs::read_to_string(three.join("logs/greedy.stderr.log")).unwrap();
        for lane in ["s1l1 ", "s1l2 ", "s1l3 "] {
            assert!(log.contains(lane), "{name}: no {lane} in {log}");
        }
    }
}

#[test]
fn an_sprt_match_cut_by_max_games_merges_to_the_files_of_its_run() {
    // The test cannot decide in 20 games, though greedy has far more than
    // first_to (5) wins: the match is not decided.
    let (tmp, cfg) = temp_config("[board]\nholes = 6\n[sprt]\nelo0 = 0\nelo1 = 5\nalpha = 0.001\nbeta = 0.001\n[tournament]\nmax_games = 20\nconcurrency = 2\n", &greedy_and_random(["greedy", "random"]));
    // As an arena slurm task runs it: shard 1 of 1, on lanes.
    let out = tmp.path().join("run");
    let output = arena(&[&"run", &cfg, &"--shard", &"1/1", &"--out", &out]);
    assert_success(&output);
    let stderr = stderr_of(&output);
    assert_contains(&stderr, "or 20 games, 2 at once");
    assert_eq!(rows(&out.join("series.csv"))[0]["decided"], "false");
    let merged = tmp.path().join("merged");
    let output = arena(&[&"merge", &out, &"--out", &merged]);
    assert_success(&output);
    assert_same_files(&out, &merged, &["series.csv", "sprt.csv", "standings.csv"]);
}

#[test]
fn resuming_a_match_that_was_over_starts_no_bot() {
    let tmp = tempfile::tempdir().unwrap();
    let bots = greedy_and_random(["greedy", "random"]);
    for (name, settings) in [
        ("series", "[tournament]\nfirst_to = 3\n"),
        (
            "sprt",
            "[sprt]\nelo0 = 0\nelo1 = 50\nmodel = \"logistic\"\n[tournament]\n",
        ),
    ] {
        let header = format!("[board]\nholes = 6\n{settings}concurrency = 3\n");
        let cfg = config(tmp.path(), &header, &bots);
        let (whole, _) = run_to(&cfg, tmp.path().join(format!("{name}-whole")));
        // Killed after its last game, before it marked the folder finished.
        let out = tmp.path().join(format!("{name}-over"));
        std::fs::create_dir_all(&out).unwrap();
        for f in ["config.toml", "shard", "games.csv"] {
            std::fs::copy(whole.join(f), out.join(f)).unwrap();
        }
        let output = arena(&[&"run", &cfg, &"--quiet", &"--resume", &out]);
        assert_success(&output);
        let files = with_sprt(name, &["games.csv", "series.csv", "standings.csv"]);
        assert_same_files(&whole, &out, &files);
        // The start-up check starts each bot; no lane starts one.
        let log = std::fs::read_to_string(out.join("logs/greedy.stderr.log")).unwrap();
        assert!(!log.contains("s1l"), "{name}: a lane started a bot: {log}");
    }
}

#[test]
fn four_shards_merged_equal_one_run() {
    let bots = [
        ("g1", arena_bot("greedy", 1)),
        ("g2", arena_bot("greedy", 2)),
        ("r1", arena_bot("random", 3)),
        ("r2", arena_bot("random", 4)),
        ("r3", arena_bot("random", 5)),
    ];
    let (tmp, cfg) = temp_config(
        "[board]\nholes = 6\n[tournament]\nfirst_to = 2\nseed = 5\n",
        &bots,
    );
    let single = tmp.path().join("single");
    assert!(run_arena(&cfg, &single).status.success());
    let mut shards = Vec::new();
    for k in 1..=4 {
        let out = tmp.path().join(format!("shard-{k}"));
        let status = arena(&[
            &"run",
            &cfg,
            &"--quiet",
            &"--shard",
            &format!("{k}/4"),
            &"--out",
            &out,
        ])
        .status;
        assert!(status.success());
        shards.push(out);
    }
    let merged = tmp.path().join("merged");
    let output = merge(&shards, &merged);
    assert_success(&output);
    assert_same_files(&single, &merged, &SUMMARY_FILES);
    assert_eq!(games_without_timing(&single), games_without_timing(&merged));
    // Shards of another config are refused.
    let other = config(tmp.path(), "[board]\nholes = 7\n", &bots);
    let stranger = tmp.path().join("stranger");
    std::fs::create_dir(&stranger).unwrap();
    std::fs::copy(&other, stranger.join("config.toml")).unwrap();
    std::fs::copy(shards[0].join("games.csv"), stranger.join("games.csv")).unwrap();
    let output = arena(&[
        &"merge",
        &shards[1],
        &stranger,
        &"--out",
        &tmp.path().join("m2"),
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr_of(&output).contains("another config"));
    // A finished shard whose games.csv lost its last row (a copy cut short)
    // is refused, not merged without that game.
    let games = std::fs::read_to_string(shards[2].join("games.csv")).unwrap();
    std::fs::write(shards[2].join("games.csv"), &games[..games.len() - 5]).unwrap();
    let output = merge(&shards, &tmp.path().join("m3"));
    assert_eq!(output.status.code(), Some(2));
    let err = stderr_of(&output);
    assert!(err.contains("shard-3") && err.contains("finished"), "{err}");
}

#[test]
fn one_long_match_splits_by_game_pairs() {
    // first_to above max_games: the match plays all its games, as shards
    // must; each shard plays its pairs on two lanes.
    let (tmp, cfg) = temp_config(
        "[board]\nholes = 6\n[tournament]\nfirst_to = 100\nmax_games = 14\nconcurrency = 2\n",
        &greedy_and_random(["g", "r"]),
    );
    let single = tmp.path().join("single");
    assert!(run_arena(&cfg, &single).status.success());
    let shards: Vec<_> = (1..=3)
        .map(|k| {
            let out = tmp.path().join(format!("shard-{k}"));
            let output = arena(&[&"run", &cfg, &"--shard", &format!("{k}/3"), &"--out", &out]);
            assert_success(&output);
            let stderr = stderr_of(&output);
            assert_contains(&stderr, " 2 at once;");
            out
        })
        .collect();
    // Whole pairs: every shard's games come in twos, the same opening, sides swapped.
    for s in &shards {
        let games = rows(&s.join("games.csv"));
        assert_eq!(games.len() % 2, 0);
        for pair in games.chunks(2) {
            assert_eq!(pair[0]["pair"], pair[1]["pair"]);
            assert_eq!(pair[0]["opening"], pair[1]["opening"]);
        }
    }
    let merged = tmp.path().join("merged");
    let output = merge(&shards, &merged);
    assert_success(&output);
    assert_eq!(games(&merged).len(), 14);
    assert_same_files(&single, &merged, &SUMMARY_FILES);
}

/// The final table of `configs/demo.toml`, run from the repository's
/// root into `dir/demo`.
fn demo_table(dir: &Path) -> String {
    let output = arena_in(
        &repo(),
        &[
            &"run",
            &"configs/demo.toml",
            &"--quiet",
            &"--out",
            &dir.join("demo"),
        ],
    );
    assert_success(&output);
    stdout_of(&output)
}

#[test]
fn the_readme_shows_the_demo_table_as_it_is() {
    let tmp = tempfile::tempdir().unwrap();
    let table = demo_table(tmp.path());
    let readme = std::fs::read_to_string(repo().join("README.md")).unwrap();
    assert!(
        readme.contains(&table),
        "README.md's demo table is out of date; the demo prints:\n{table}"
    );
}

/// A config's relative paths (a bot's script, a `dir`, the openings file)
/// start from its own folder, not from where the arena runs; the current
/// directory's other file of the same name is named in one stderr line.
/// The run folder's copy resolves them the same way.
#[test]
fn relative_paths_start_from_the_config_files_folder() {
    let tmp = tempfile::tempdir().unwrap();
    let place = tmp.path().join("other/place");
    std::fs::create_dir_all(place.join("sub")).unwrap();
    let greedy = repo().join("bots/python/greedy.py");
    std::fs::copy(&greedy, place.join("greedy.py")).unwrap();
    std::fs::copy(&greedy, place.join("sub/mine.py")).unwrap();
    std::fs::write(place.join("book.txt"), "1\n2\n").unwrap();
    // The current directory has its own book.txt, which the old way used.
    std::fs::write(tmp.path().join("book.txt"), "3\n").unwrap();
    let text = "[tournament]\nfirst_to = 1\n[openings]\nfile = \"book.txt\"\n\
        [[bot]]\nname = \"a\"\ncommand = [\"python3\", \"greedy.py\", \"--seed\", \"1\"]\n\
        [[bot]]\nname = \"b\"\ncommand = [\"python3\", \"mine.py\"]\ndir = \"sub\"\n";
    std::fs::write(place.join("demo.toml"), text).unwrap();
    let output = arena_in(
        tmp.path(),
        &[&"run", &"other/place/demo.toml", &"--out", &"run"],
    );
    assert_success(&output);
    let stderr = stderr_of(&output);
    let notes: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains("relative paths start from the config's folder"))
        .collect();
    assert_eq!(notes.len(), 1, "{stderr}");
    assert!(notes[0].contains("book.txt"), "{stderr}");
    let games = rows(&tmp.path().join("run/games.csv"));
    assert!(!games.is_empty());
    // Pair 1 opened with the config's book's first line (hole 1), not 3.
    assert_eq!(games[0]["opening"], "1", "{:?}", games[0]);

    // The copy in the run folder resolves from the original's folder.
    let copy = tmp.path().join("run/config.toml");
    let moved = tmp.path().join("elsewhere");
    std::fs::create_dir(&moved).unwrap();
    let again = arena_in(&moved, &[&"run", &copy, &"--out", &"run2", &"--quiet"]);
    assert_success(&again);
}

/// A file missing beside the config but in the current directory (where
/// relative paths started before issue 17): the one-line error says that
/// the current directory has it and how to fix the config, for the
/// openings file, a bot's script, a bot's program and a bot's `dir`.
#[test]
fn a_file_only_in_the_current_directory_is_named_in_the_error() {
    let tmp = tempfile::tempdir().unwrap();
    let place = tmp.path().join("other/place");
    std::fs::create_dir_all(&place).unwrap();
    std::fs::create_dir_all(tmp.path().join("bots/sub")).unwrap();
    std::fs::write(tmp.path().join("book.txt"), "1\n").unwrap();
    let greedy = repo().join("bots/python/greedy.py");
    std::fs::copy(&greedy, tmp.path().join("bots/greedy.py")).unwrap();
    let random = "[[bot]]\nname = \"r\"\ncommand = [\"arena\", \"bot\", \"random\"]\n";
    for (what, table, written) in [
        (
            "openings",
            "[openings]\nfile = \"book.txt\"\n[[bot]]\nname = \"g\"\ncommand = [\"arena\", \"bot\", \"greedy\"]\n".to_string(),
            "book.txt",
        ),
        (
            "script",
            "[[bot]]\nname = \"g\"\ncommand = [\"python3\", \"bots/greedy.py\"]\n".to_string(),
            "bots/greedy.py",
        ),
        (
            "program",
            "[[bot]]\nname = \"g\"\ncommand = [\"bots/greedy.py\"]\n".to_string(),
            "bots/greedy.py",
        ),
        (
            "dir",
            "[[bot]]\nname = \"g\"\ncommand = [\"arena\", \"bot\", \"greedy\"]\ndir = \"bots/sub\"\n".to_string(),
            "bots/sub",
        ),
    ] {
        std::fs::write(place.join("t.toml"), format!("{table}{random}")).unwrap();
        let output = arena_in(tmp.path(), &[&"run", &"other/place/t.toml", &"--out", &"run", &"--quiet"]);
        let stderr = stderr_of(&output);
        assert_eq!(output.status.code(), Some(2), "{what}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{what}: {stderr}");
        assert!(
            stderr.starts_with("error: other/place/t.toml:")
                && stderr.contains(&format!(
                    "the current directory has {written}, but relative paths start from the config's folder other/place"
                ))
                && stderr.contains("write the path from other/place, or an absolute one"),
            "{what}: {stderr}"
        );
    }
}

/// With `[openings] file`, the start says that plies_min/plies_max are
/// ignored (when set) and that the book repeats, one stderr line each.
#[test]
fn an_openings_file_says_what_it_overrides_and_that_it_repeats() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("book.txt"), "1\n2\n").unwrap();
    let bots = [
        ("a", arena_bot("random", 1)),
        ("b", arena_bot("random", 2)),
        ("c", arena_bot("greedy", 3)),
    ];
    let book = tmp.path().join("book.txt");
    let base = format!(
        "[tournament]\nfirst_to = 3\nmax_games = 6\n[openings]\nfile = {:?}\n",
        book.display().to_string()
    );
    for (header, ignored) in [
        (format!("{base}plies_min = 3\nplies_max = 5\n"), true),
        (base.clone(), false),
    ] {
        let cfg = config(tmp.path(), &header, &bots);
        let out = tmp.path().join(format!("run-{ignored}"));
        let output = run_arena(&cfg, &out);
        assert_success(&output);
        let stderr = stderr_of(&output);
        let count = |text: &str| stderr.lines().filter(|l| l.contains(text)).count();
        assert_eq!(
            count("plies_min and plies_max are ignored"),
            usize::from(ignored),
            "{stderr}"
        );
        assert_eq!(count("pair k of every series plays line k"), 1, "{stderr}");
        assert!(
            stderr.contains("the 3 series play the same openings")
                && stderr.contains("plays them again"),
            "{stderr}"
        );
    }
}

/// A small tmpfs, unmounted when dropped.
struct SmallDisk(std::path::PathBuf);

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = std::process::Command::new("umount").arg(&self.0).status();
    }
}

/// A full disk while the summaries are written: the error names the file,
/// no `.tmp` file is left, the exit is non-zero, what was written
/// (games.csv, the summaries before) is whole, and the last line is the
/// command that goes on, which, once the disk has room, finishes the run.
/// Needs root for the mount (CI is); elsewhere it says it is skipped.
#[test]
fn a_full_disk_names_the_file_and_leaves_no_temporary_file() {
    let tmp = tempfile::tempdir().unwrap();
    let disk = tmp.path().join("disk");
    std::fs::create_dir(&disk).unwrap();
    let mounted = std::process::Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=48k", "tmpfs"])
        .arg(&disk)
        .output();
    if !mounted.as_ref().is_ok_and(|o| o.status.success()) {
        common::skipped(format_args!(
            "a_full_disk_names_the_file_and_leaves_no_temporary_file: cannot mount a small tmpfs (not root?): {mounted:?}"
        ));
        return;
    }
    let _unmount = SmallDisk(disk.clone());
    let bots = [("a", arena_bot("random", 1)), ("b", arena_bot("random", 2))];
    let cfg = config(tmp.path(), "[tournament]\nfirst_to = 1\n", &bots);
    let out = disk.join("run");
    let output = run_arena(&cfg, &out);
    let stderr = stderr_of(&output);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    let lines: Vec<&str> = stderr.lines().collect();
    let [.., error, go_on] = lines[..] else {
        panic!("{stderr}")
    };
    assert!(
        error.starts_with(&format!("error: cannot write {}/", out.display()))
            && error.ends_with("No space left on device (os error 28)"),
        "{stderr}"
    );
    let command = go_on
        .strip_prefix("arena: to go on where it stopped, run (from this folder): ")
        .unwrap_or_else(|| panic!("no resume command last: {stderr}"));
    let words = shell_words::split(command).unwrap();
    assert_eq!(
        words[1..],
        [
            "run".to_string(),
            cfg.display().to_string(),
            "--resume".to_string(),
            out.display().to_string()
        ],
        "{stderr}"
    );
    let left: Vec<_> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(left.is_empty(), "temporary files left: {left:?}");
    // games.csv and each summary written before the failure are whole.
    assert_eq!(games(&out).len(), 2);
    for file in ["series.csv", "standings.csv", "pairwise.csv"] {
        if out.join(file).exists() {
            assert!(!rows(&out.join(file)).is_empty(), "{file}");
        }
    }
    // With room on the disk, the printed command finishes the run.
    let grown = std::process::Command::new("mount")
        .args(["-o", "remount,size=8m"])
        .arg(&disk)
        .status()
        .unwrap();
    assert!(grown.success());
    let again = std::process::Command::new(&words[0])
        .args(&words[1..])
        .output()
        .unwrap();
    assert_success(&again);
    assert_eq!(games(&out).len(), 2);
    for file in common::SUMMARY_FILES {
        assert!(out.join(file).exists(), "{file}");
    }
}

/// The final table, on a pipe, is whole: a 6-bot round robin of long-ish
/// names on a 2x10 board gets one line a bot, every column there, however
/// wide (a terminal's width is what [`long_names_at_80_columns_get_a_table_of_whole_rows`]
/// fits); the demo's fits 80 columns.
#[test]
fn the_final_table_is_whole_off_a_terminal() {
    let tmp = tempfile::tempdir().unwrap();
    let header = "[board]\nholes = 10\nseeds = 4\n[tournament]\nfirst_to = 1\nmax_games = 2\nconcurrency = 2\nseed = 3\n";
    let names = [
        "greedy-deep-search",
        "random-walker-one",
        "random-walker-two",
        "random-baseline-c",
        "greedy-with-seed-9",
        "random-walker-3000",
    ];
    let bots: Vec<(&str, Vec<String>)> = names
        .iter()
        .zip(1..)
        .map(|(n, seed)| {
            let kind = if n.starts_with("greedy") {
                "greedy"
            } else {
                "random"
            };
            (*n, arena_bot(kind, seed))
        })
        .collect();
    let cfg = config(tmp.path(), header, &bots);
    let output = run_arena(&cfg, &tmp.path().join("run"));
    assert_success(&output);
    let table = stdout_of(&output);
    let lines: Vec<&str> = table.lines().collect();
    assert!(lines[0].ends_with("LOS next  forfeits"), "{table}");
    for (line, rank) in lines[1..=names.len()].iter().zip(1..) {
        assert!(
            line.starts_with(&format!("{rank}  ")),
            "{line:?} in:\n{table}"
        );
        assert!(
            names.iter().any(|n| line.contains(n)),
            "{line:?} in:\n{table}"
        );
    }
    let demo = demo_table(tmp.path());
    for line in demo.lines() {
        assert!(
            line.chars().count() <= 80,
            "a line of {} columns:\n{line}\nin:\n{demo}",
            line.chars().count()
        );
    }
}

/// `arena run CFG --out OUT` on a real pseudo-terminal (`script`, after the
/// shell commands `setup`), to completion: what it drew.
fn run_on_a_terminal(setup: &str, cfg: &Path, out: &Path) -> String {
    let command = format!(
        "{setup}{} run {} --out {}",
        env!("CARGO_BIN_EXE_arena"),
        cfg.display(),
        out.display()
    );
    let output = std::process::Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .output()
        .expect("script (util-linux) runs a command on a terminal");
    let drawn = stdout_of(&output);
    assert!(output.status.success(), "{drawn}");
    drawn
}

#[test]
fn a_terminal_gets_the_live_view_and_a_pipe_gets_lines() {
    let (tmp, cfg) = temp_config(
        "[tournament]\nfirst_to = 3\n",
        &greedy_and_random(["g", "r"]),
    );
    let drawn = run_on_a_terminal("", &cfg, &tmp.path().join("tty"));
    assert_contains(&drawn, "games (at most)");
    assert_contains(&drawn, "forfeits: none");
    assert_contains(&drawn, " ± ");
    assert!(!drawn.contains("series 1 game 1:"), "{drawn}");
    // Through a pipe: a line per game, no drawing.
    let piped = run_arena(&cfg, &tmp.path().join("pipe"));
    let lines = stderr_of(&piped);
    assert!(
        !lines.contains("games (at most)") && !lines.contains('\u{1b}'),
        "{lines}"
    );
    assert_eq!(
        lines
            .lines()
            .filter(|l| l.contains(" game ") && l.starts_with('['))
            .count(),
        games(&tmp.path().join("pipe")).len(),
        "{lines}"
    );
}

/// Names of 28 characters at an 80-column terminal: the final table leaves
/// `LOS next` and `forfeits` out (and says so) instead of breaking a row;
/// on a pipe the same table is whole, wider than 80 columns.
#[test]
fn long_names_at_80_columns_get_a_table_of_whole_rows() {
    let bots = greedy_and_random([
        "alphabeta-depth-7-quiescence",
        "random-walker-with-seed-2000",
    ]);
    let (tmp, cfg) = temp_config("[tournament]\nfirst_to = 3\n", &bots);
    let drawn = run_on_a_terminal("stty cols 80 rows 30; ", &cfg, &tmp.path().join("tty"));
    let table = &drawn[drawn.rfind("#  bot").unwrap()..];
    let lines: Vec<&str> = table.lines().map(|l| l.trim_end_matches('\r')).collect();
    assert!(lines[0].ends_with("95% interval"), "{table}");
    for (line, bot) in lines[1..3].iter().zip(bots.iter()) {
        assert!(line.contains(bot.0), "{line:?} in:\n{table}");
        assert!(line.chars().count() <= 80, "{line:?} in:\n{table}");
    }
    assert!(
        lines[3].starts_with("(left out to fit 80 columns: LOS next, forfeits;"),
        "{table}"
    );
    let piped = run_arena(&cfg, &tmp.path().join("pipe"));
    assert_success(&piped);
    let piped = stdout_of(&piped);
    let header = piped.lines().find(|l| l.starts_with("#  bot")).unwrap();
    assert!(
        header.ends_with("LOS next  forfeits") && header.len() > 80,
        "{piped}"
    );
}

#[test]
fn a_narrow_terminal_gets_lines_cut_never_wrapped() {
    let (tmp, cfg) = temp_config(
        "[tournament]\nfirst_to = 3\n",
        &greedy_and_random(["a-bot-with-a-rather-long-name", "r"]),
    );
    let drawn = run_on_a_terminal("stty cols 40 rows 30; ", &cfg, &tmp.path().join("tty"));
    assert_contains(&drawn, "games (at most)");
    // What the live view draws, without its escape sequences (ESC [ ... letter),
    // stays within 40 columns; the lines before and after it (the start
    // line, the final table) are plain output that the terminal may wrap.
    let view = &drawn[drawn.find('\u{1b}').unwrap()..drawn.rfind('\u{1b}').unwrap()];
    let mut plain = String::new();
    let mut chars = view.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            plain.push(c);
        }
    }
    // The bar's line is indicatif's own (its bar shrinks to fit).
    let widest = plain
        .split(['\r', '\n'])
        .filter(|l| !l.contains("games (at most)"))
        .max_by_key(|l| l.chars().count())
        .unwrap_or_default();
    assert!(widest.chars().count() <= 40, "{widest:?} in {drawn}");
}

#[test]
fn resume_if_exists_starts_a_folder_that_never_got_to_its_first_game() {
    let bots = greedy_and_random(["g", "r"]);
    let (tmp, cfg) = temp_config("[tournament]\nfirst_to = 2\n", &bots);
    let out = tmp.path().join("shard");
    let run = || {
        arena(&[
            &"run",
            &cfg,
            &"--quiet",
            &"--resume-if-exists",
            &"--out",
            &out,
        ])
    };
    assert_success(&run());
    let first = games_without_timing(&out);
    // As a task killed while its bots were starting leaves it: the config
    // copied in, no games.csv, not finished.
    std::fs::remove_file(out.join("games.csv")).unwrap();
    std::fs::remove_file(out.join("finished")).unwrap();
    assert_success(&run());
    assert!(out.join("finished").exists());
    assert_eq!(games_without_timing(&out), first);
    // A finished folder run again plays nothing more.
    assert_success(&run());
    assert_eq!(games_without_timing(&out), first);
    // As a disk that filled as the run began leaves it: a games.csv of no
    // bytes, or of half its header; resumed, as the arena says to.
    for stub in ["", "series,game,pa"] {
        std::fs::write(out.join("games.csv"), stub).unwrap();
        std::fs::remove_file(out.join("finished")).unwrap();
        for f in SUMMARY_FILES {
            let _ = std::fs::remove_file(out.join(f));
        }
        assert_success(&run());
        assert_eq!(games_without_timing(&out), first, "from {stub:?}");
        assert!(out.join("finished").exists());
        std::fs::write(out.join("games.csv"), stub).unwrap();
        std::fs::remove_file(out.join("finished")).unwrap();
        let resumed = arena(&[&"run", &cfg, &"--quiet", &"--resume", &out]);
        assert_success(&resumed);
        assert_eq!(games_without_timing(&out), first, "--resume from {stub:?}");
    }
}

#[test]
fn rating_a_run_in_place_keeps_its_settings_and_its_files() {
    let (_tmp, run, _) = temp_run(
        "[tournament]\nfirst_to = 3\nseed = 9\n[ratings]\nprior_draws = 3\nbootstrap = 200\n",
        &greedy_and_random(["a", "b"]),
    );
    let files = ["standings.csv", "pairwise.csv", "los.csv", "report.html"];
    let before: Vec<Vec<u8>> = read_files(&run, &files);
    // The run's own settings, from its config.toml: the same files.
    assert_success(&rate(&run.join("games.csv"), &[]));
    // Other settings would overwrite them: refused, and nothing changes.
    let refused = rate(&run.join("games.csv"), &["--prior-draws", "5"]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(stderr_of(&refused).contains("give --out DIR"));
    let after: Vec<Vec<u8>> = read_files(&run, &files);
    assert!(before == after, "rating in place changed the run's files");
}

/// A bot that never played (its start-up check failed and it was skipped)
/// is listed in standings.csv with 0 games and no Elo, and `arena rate` of
/// the run in place lists it too, so the files stay the same.
#[test]
fn a_bot_without_games_is_listed_and_rating_in_place_keeps_it() {
    let (_tmp, run, _) = temp_run(
        "[tournament]\nfirst_to = 2\non_start_failure = \"skip\"\n",
        &[
            ("a", arena_bot("greedy", 1)),
            ("b", arena_bot("random", 2)),
            ("gone", vec!["/bin/false".to_string()]),
        ],
    );
    let standings = rows(&run.join("standings.csv"));
    assert_eq!(standings.len(), 3, "{standings:?}");
    let gone = standings.iter().find(|s| s["bot"] == "gone").unwrap();
    assert_eq!(
        (
            gone["games"].as_str(),
            gone["elo"].as_str(),
            gone["elo_lower"].as_str(),
            gone["interval"].as_str()
        ),
        ("0", "", "", "no-games")
    );
    let files = ["standings.csv", "pairwise.csv", "los.csv", "report.html"];
    let read = || -> Vec<Vec<u8>> { read_files(&run, &files) };
    let before = read();
    let rated = arena(&[&"rate", &run.join("games.csv")]);
    assert_success(&rated);
    assert!(before == read(), "rating in place changed the run's files");
}

#[test]
fn the_report_of_an_unfinished_run_says_so() {
    let bots = greedy_and_random(["a", "b"]);
    let (_tmp, run, _) = temp_run("[tournament]\nfirst_to = 2\n", &bots);
    let report = || std::fs::read_to_string(run.join("report.html")).unwrap();
    assert!(!report().contains("did not finish"));
    // As an interrupted run leaves it: no finished marker.
    std::fs::remove_file(run.join("finished")).unwrap();
    let rated = arena(&[&"rate", &run.join("games.csv")]);
    assert_success(&rated);
    assert!(report().contains("This run did not finish"));
}

/// Bots that did not start (skipped), run as shards and merged, give the
/// single run's files: they are listed after the bots that played, in the
/// config's order, with their `not started` note, no LOS cells, and their
/// series' `not played` rows; `arena rate` of the run lists them the same.
#[test]
fn skipped_bots_merge_and_rate_as_the_single_run_lists_them() {
    let tmp = tempfile::tempdir().unwrap();
    // Reads the hello, then exits: the same reason every time.
    let broken = || vec!["sh".to_string(), "-c".into(), "read x; exit 1".into()];
    let bots = [
        ("b", arena_bot("greedy", 1)),
        ("zed", broken()),
        ("a", arena_bot("random", 2)),
        ("amy", broken()),
    ];
    let cfg = config(
        tmp.path(),
        "[board]\nholes = 6\n[tournament]\nfirst_to = 2\non_start_failure = \"skip\"\n",
        &bots,
    );
    let (single, _) = run_to(&cfg, tmp.path().join("single"));
    let standings = rows(&single.join("standings.csv"));
    let listed: Vec<&str> = standings.iter().map(|s| s["bot"].as_str()).collect();
    assert_eq!(listed, ["b", "a", "zed", "amy"]);
    assert!(standings[3]["note"].starts_with("not started: "));
    let shards = run_shards(tmp.path(), &cfg, 2);
    let merged = tmp.path().join("merged");
    let output = merge(&shards, &merged);
    assert_success(&output);
    assert_same_files(&single, &merged, &SUMMARY_FILES);
    let rated = tmp.path().join("rated");
    let output = arena(&[&"rate", &single.join("games.csv"), &"--out", &rated]);
    assert_success(&output);
    assert_same_files(&single, &rated, &["standings.csv", "los.csv"]);
}

#[test]
fn help_into_a_closed_pipe_ends_quietly() {
    // `arena bot --help | head -1`: the reader gone before the help is
    // written (its end closed before the arena starts, so every write
    // fails) is no error, and no panic.
    for args in [
        &["bot", "perfect", "--help"][..],
        &["bot", "--help"],
        &["bot", "greedy", "--help"],
        &["--help"],
        &["run", "--help"],
    ] {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_arena"))
            .args(args)
            .stdout(writer)
            .stderr(std::process::Stdio::piped())
            .output()
            .unwrap();
        let err = stderr_of(&output);
        assert!(
            output.status.success(),
            "{args:?}: {:?} {err}",
            output.status
        );
        assert!(err.is_empty(), "{args:?}: {err}");
    }
}
