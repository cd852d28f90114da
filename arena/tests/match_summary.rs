//! The summary of a two-bot match (issue 17, item 1): what `arena run`
//! prints under the standings, writes to `match.csv` and shows in
//! `report.html`, checked against the numbers the library's statistics give
//! for the games the run wrote to `games.csv`.

mod common;

use common::{
    arena, arena_bot, assert_contains, assert_same_files, assert_success, config,
    greedy_and_random, rows, run_arena, stderr_of, stdout_of, temp_config, temp_run, LOGISTIC_SPRT,
};

use arena::stats::{penta_elo, GameScore, Pentanomial, Sprt, SprtModel, SprtStatus};

/// The games of `games.csv`, scored from `first`'s side, in game order.
fn scores(dir: &std::path::Path, first: &str) -> Vec<GameScore> {
    let mut games = rows(&dir.join("games.csv"));
    games.sort_by_key(|g| g["game"].parse::<u32>().unwrap());
    games
        .iter()
        .map(|g| match g["result"].as_str() {
            "draw" => GameScore::Draw,
            side if g[side] == first => GameScore::Win,
            _ => GameScore::Loss,
        })
        .collect()
}

/// `+x` or `-x` with one decimal.
fn signed(x: f64) -> String {
    let s = format!("{x:.1}");
    if s.starts_with('-') {
        s
    } else {
        format!("+{s}")
    }
}

#[test]
fn an_sprt_match_prints_and_writes_its_summary_and_draws_its_llr() {
    let (tmp, out, output) = temp_run(LOGISTIC_SPRT, &greedy_and_random(["greedy", "random"]));
    let stdout = stdout_of(&output);
    // The start line says what is tested, not only max_games's bound.
    let stderr = stderr_of(&output);
    assert_contains(&stderr, "an SPRT of [0, 50] logistic Elo to a verdict or ");
    assert!(!stderr.contains("first_to"), "{stderr}");

    // Everything again from games.csv, with the library's statistics.
    let games = scores(&out, "greedy");
    let test = Sprt {
        elo0: 0.0,
        elo1: 50.0,
        alpha: 0.05,
        beta: 0.05,
        model: SprtModel::Logistic,
    };
    let pentanomial = Pentanomial::from_pairs(games.chunks_exact(2).map(|p| (p[0], p[1])));
    let count = |s: GameScore| games.iter().filter(|&&g| g == s).count();
    let (w, d, l) = (
        count(GameScore::Win),
        count(GameScore::Draw),
        count(GameScore::Loss),
    );
    let llr = test.llr_pentanomial(&pentanomial);
    let (lower, upper) = test.bounds();
    let elo = penta_elo(&pentanomial);
    let verdict = match test.status(llr) {
        SprtStatus::AcceptH1 => "H1 accepted: the test passed",
        SprtStatus::AcceptH0 => "H0 accepted: the test failed",
        SprtStatus::Continue => "no decision",
    };
    let c = pentanomial.counts;
    let expected = [
        format!(
            "greedy vs random: {} games ({} pairs), from greedy's side",
            games.len(),
            pentanomial.pairs()
        ),
        format!("  SPRT: {verdict}"),
        format!(
            "  LLR {llr:.2} in [{lower:.2}, {upper:.2}], [elo0, elo1] = [0, 50] logistic Elo, alpha 0.05, beta 0.05"
        ),
        format!(
            "  W-D-L {w}-{d}-{l}, draw ratio {:.1}%",
            100.0 * d as f64 / games.len() as f64
        ),
        format!(
            "  pentanomial [{}, {}, {}, {}, {}] (pairs by greedy's points: 0, 0.5, 1, 1.5, 2)",
            c[0], c[1], c[2], c[3], c[4]
        ),
        format!(
            "  Elo {} ± {:.1}, nElo {} ± {:.1} (95%, from the game pairs), LOS {:.1}% (pairwise.csv's penta_los)",
            signed(elo.elo),
            elo.error_95,
            signed(elo.nelo),
            elo.nelo_error_95,
            100.0 * elo.los
        ),
    ];
    // The pair that ended the test says so in the summary's words, on its
    // game's line on stderr (one wording of a verdict everywhere).
    let last = stderr
        .lines()
        .rfind(|l| l.contains("; SPRT: LLR "))
        .unwrap_or_else(|| panic!("no SPRT line on stderr:\n{stderr}"));
    assert!(last.ends_with(&format!("): {verdict}")), "{last}");
    let lines: Vec<&str> = stdout.lines().collect();
    let start = lines
        .iter()
        .position(|l| l.starts_with("greedy vs random"))
        .unwrap_or_else(|| panic!("no summary in stdout:\n{stdout}"));
    assert_eq!(&lines[start..], &expected[..], "stdout:\n{stdout}");
    // The summary comes after the standings, on stdout.
    assert!(lines[..start].iter().any(|l| l.contains("greedy")));
    assert_eq!(
        test.status(llr),
        SprtStatus::AcceptH1,
        "greedy is far stronger"
    );

    // match.csv holds the same numbers.
    let row = &rows(&out.join("match.csv"))[0];
    assert_eq!(row["bot_a"], "greedy");
    assert_eq!(row["wins"], w.to_string());
    assert_eq!(row["penta_4"], c[4].to_string());
    assert_eq!(row["llr"], format!("{llr:.4}"));
    assert_eq!(row["upper"], format!("{upper:.4}"));
    assert_eq!(row["status"], "H1");
    assert_eq!(row["elo"], format!("{:.1}", elo.elo));
    assert_eq!(row["los"], format!("{:.4}", elo.los));

    // The report draws the LLR after each pair: one point per pair, from 0.
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    let chart = html
        .split("id=\"llr-chart\"")
        .nth(1)
        .expect("the report has the LLR chart")
        .split("</figure>")
        .next()
        .unwrap();
    let curve = chart
        .rsplit("<polyline")
        .next()
        .and_then(|p| p.split("points=\"").nth(1))
        .and_then(|p| p.split('"').next())
        .expect("a line");
    assert_eq!(
        curve.split_whitespace().count() as u64,
        pentanomial.pairs() + 1
    );
    assert!(html.contains("SPRT: H1 accepted: the test passed"));
    // The same LOS as the summary's line, named by its pairwise.csv column.
    assert!(html.contains("is the stronger (pairwise.csv's penta_los)"));
    assert!(html.contains(&format!("{llr:.2} in [{lower:.2}, {upper:.2}]")));

    // `arena rate` of the run's games draws the same report, curve and all.
    let again = tmp.path().join("again");
    let output = arena(&[&"rate", &out.join("games.csv"), &"--out", &again]);
    assert_success(&output);
    assert!(stdout_of(&output).contains(&expected[2]));
    let stderr = stderr_of(&output);
    assert_contains(&stderr, "los.csv, match.csv, report.html");
    assert_same_files(&out, &again, &["report.html", "match.csv"]);
}

#[test]
fn a_two_bot_match_without_sprt_gets_the_summary_without_the_test() {
    let (_tmp, out, output) = temp_run(
        "[board]\nholes = 6\n[tournament]\nfirst_to = 100\nmax_games = 6\n",
        &[
            ("random", arena_bot("random", 3)),
            ("greedy", arena_bot("greedy", 4)),
        ],
    );
    let stdout = stdout_of(&output);
    let games = scores(&out, "random");
    let pentanomial = Pentanomial::from_pairs(games.chunks_exact(2).map(|p| (p[0], p[1])));
    let c = pentanomial.counts;
    assert!(stdout.contains("random vs greedy: 6 games (3 pairs), from random's side"));
    assert!(stdout.contains(&format!(
        "  pentanomial [{}, {}, {}, {}, {}]",
        c[0], c[1], c[2], c[3], c[4]
    )));
    assert_contains(&stdout, "LOS ");
    assert!(
        !stdout.contains("SPRT") && !stdout.contains("LLR"),
        "{stdout}"
    );
    let row = &rows(&out.join("match.csv"))[0];
    assert_eq!((row["games"].as_str(), row["status"].as_str()), ("6", ""));
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(html.contains("id=\"match\"") && !html.contains("llr-chart"));
}

/// `first_to` beside `[sprt]` is named at start as unused, not ignored in
/// silence.
#[test]
fn an_sprt_match_with_first_to_says_it_is_not_used() {
    let (tmp, cfg) = temp_config("[board]\nholes = 6\n[tournament]\nfirst_to = 3\nmax_games = 4\n[sprt]\nelo0 = 0\nelo1 = 50\n", &greedy_and_random(["greedy", "random"]));
    let output = run_arena(&cfg, &tmp.path().join("run"));
    assert_success(&output);
    let stderr = stderr_of(&output);
    assert_contains(
        &stderr,
        "warning: [tournament] first_to = 3 is not used by an SPRT match",
    );
}

/// With the config's first bot left out (it did not start), the match of
/// the other two is seen from the first of them in the config, whichever
/// played South first, in the printed summary and in `match.csv`.
#[test]
fn the_summary_is_seen_from_the_configs_first_bot_that_played() {
    let tmp = tempfile::tempdir().unwrap();
    for (first, second) in [("zeta", "alpha"), ("alpha", "zeta")] {
        let bots = [
            ("gone", ["sh", "-c", "exit 3"].map(String::from).to_vec()),
            (first, arena_bot("random", 5)),
            (second, arena_bot("greedy", 6)),
        ];
        let cfg = config(
            tmp.path(),
            "[board]\nholes = 6\n[tournament]\nfirst_to = 100\nmax_games = 4\non_start_failure = \"skip\"\n",
            &bots,
        );
        let out = tmp.path().join(format!("run-{first}"));
        let output = run_arena(&cfg, &out);
        assert_success(&output);
        let stdout = stdout_of(&output);
        assert!(
            stdout.contains(&format!(
                "{first} vs {second}: 4 games (2 pairs), from {first}'s side"
            )),
            "{stdout}"
        );
        let row = &rows(&out.join("match.csv"))[0];
        assert_eq!(row["bot_a"], first, "{row:?}");
        // Arena rate of the games alone, without the config: from the
        // first game's South.
        let games = rows(&out.join("games.csv"));
        let south = &games
            .iter()
            .min_by_key(|g| g["game"].parse::<u32>().unwrap())
            .unwrap()["south"];
        let rated = tmp.path().join(format!("rated-{first}"));
        let output = arena(&[&"rate", &"--out", &rated, &out.join("games.csv")]);
        assert_success(&output);
        assert_eq!(&rows(&rated.join("match.csv"))[0]["bot_a"], south);
    }
}
