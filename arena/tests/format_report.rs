//! The files and the console table of a knockout and a Swiss of bundled
//! bots, checked against `series.csv` by the rules of docs/formats.md:
//! `knockout.csv`'s ties add up their series and deciders and name the
//! bot that went through, and `swiss.csv`'s points, Buchholz and ranks
//! are recomputed from the series and the byes; the report has the
//! bracket and the rounds.

mod common;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;

use common::{
    assert_contains, assert_success, bundled_field, config, rate, rows, run_arena, stdout_of,
};

/// `n` seeded bundled bots `b1`..`bn` (greedy, random and first in turn).
fn field(n: usize) -> Vec<(String, Vec<String>)> {
    bundled_field(n, &[])
}

/// Runs `format_keys` over `bots` on tiny boards, series of one game pair
/// (first to 1 of at most 2: 1-1 is a drawn series), and returns the run
/// folder's path and the run's stdout.
fn run(
    dir: &Path,
    format_keys: &str,
    bots: &[(String, Vec<String>)],
) -> (std::path::PathBuf, String) {
    let header = format!(
        "[board]\nholes = 4\nseeds = 3\n[tournament]\n{format_keys}\nfirst_to = 1\nmax_games = 2\nconcurrency = 2\nseed = 7\n"
    );
    let cfg = config(dir, &header, bots);
    let out = dir.join("out");
    let output = run_arena(&cfg, &out);
    assert_success(&output);
    (out, stdout_of(&output))
}

fn num(row: &HashMap<String, String>, column: &str) -> u32 {
    row[column]
        .parse()
        .unwrap_or_else(|_| panic!("{column}: {row:?}"))
}

#[test]
fn knockout_csv_agrees_with_series_csv_tie_by_tie() {
    let tmp = tempfile::tempdir().unwrap();
    let bots = field(6);
    let names: Vec<String> = bots.iter().map(|(n, _)| n.clone()).collect();
    let (out, stdout) = run(
        tmp.path(),
        "format = \"knockout\"\ndecider = \"pair\"",
        &bots,
    );
    let series: BTreeMap<String, HashMap<String, String>> = rows(&out.join("series.csv"))
        .into_iter()
        .map(|r| (r["series"].clone(), r))
        .collect();
    let ties = rows(&out.join("knockout.csv"));
    // 6 bots: a bracket of 8, so 4 + 2 + 1 ties; seeds 1 and 2 have byes.
    let per_round: Vec<usize> = (1..=3)
        .map(|r| ties.iter().filter(|t| num(t, "round") == r).count())
        .collect();
    assert_eq!(per_round, [4, 2, 1], "{ties:?}");
    let mut listed = BTreeSet::new();
    for t in &ties {
        let seed = |col: &str| t[col].parse::<usize>().ok();
        if t["bot_b"].is_empty() {
            assert_eq!(t["settled"], "bye", "{t:?}");
            assert_eq!(t["winner"], t["bot_a"], "{t:?}");
            assert!(t["series"].is_empty(), "{t:?}");
            continue;
        }
        // The seeds are the config's order (seeding not given).
        assert_eq!(names[seed("seed_a").unwrap() - 1], t["bot_a"], "{t:?}");
        assert_eq!(names[seed("seed_b").unwrap() - 1], t["bot_b"], "{t:?}");
        assert!(
            seed("seed_a") < seed("seed_b"),
            "the better seed first: {t:?}"
        );
        let numbers: Vec<&str> = t["series"].split(' ').collect();
        let (mut wins_a, mut draws, mut wins_b) = (0, 0, 0);
        let mut last_winner = String::new();
        for (k, n) in numbers.iter().enumerate() {
            let s = &series[*n];
            assert!(listed.insert(n.to_string()), "series {n} in two ties");
            assert_eq!(num(s, "round"), num(t, "round"), "{s:?}");
            assert_eq!(
                s["note"] == "decider",
                k > 0,
                "deciders after the series: {s:?}"
            );
            let a_first = s["bot_a"] == t["bot_a"];
            assert_eq!(
                BTreeSet::from([&s["bot_a"], &s["bot_b"]]),
                BTreeSet::from([&t["bot_a"], &t["bot_b"]]),
                "{s:?} {t:?}"
            );
            let (wa, wb) = (num(s, "wins_a"), num(s, "wins_b"));
            if a_first {
                (wins_a, wins_b) = (wins_a + wa, wins_b + wb);
            } else {
                (wins_a, wins_b) = (wins_a + wb, wins_b + wa);
            }
            draws += num(s, "draws");
            last_winner = s["winner"].clone();
        }
        assert_eq!(
            (num(t, "wins_a"), num(t, "draws"), num(t, "wins_b")),
            (wins_a, draws, wins_b),
            "{t:?}"
        );
        match t["settled"].as_str() {
            "series" => {
                assert_eq!(numbers.len(), 1, "{t:?}");
                assert_eq!(t["winner"], last_winner, "{t:?}");
            }
            "decider" => {
                assert!(numbers.len() > 1, "{t:?}");
                assert_eq!(t["winner"], last_winner, "{t:?}");
            }
            // Drawn throughout (at most 3 decider pairs): the better seed.
            "seed" => {
                assert_eq!(last_winner, "draw", "{t:?}");
                assert_eq!(numbers.len(), 4, "{t:?}");
                assert_eq!(t["winner"], t["bot_a"], "{t:?}");
            }
            other => panic!("settled {other}: {t:?}"),
        }
    }
    assert_eq!(listed.len(), series.len(), "every series is in a tie");
    // Each round's winners meet in the next, ties 2i-1 and 2i in tie i.
    for r in 2..=3u32 {
        let before: Vec<&HashMap<String, String>> =
            ties.iter().filter(|t| num(t, "round") == r - 1).collect();
        for t in ties.iter().filter(|t| num(t, "round") == r) {
            let i = num(t, "tie") as usize;
            let from = BTreeSet::from([&before[2 * i - 2]["winner"], &before[2 * i - 1]["winner"]]);
            assert_eq!(from, BTreeSet::from([&t["bot_a"], &t["bot_b"]]), "{t:?}");
        }
    }
    let champion = &ties.last().unwrap()["winner"];
    assert_contains(&stdout, &format!("Knockout champion: {champion}"));
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(html.contains("<section id=\"bracket\">"));
    assert_eq!(html.matches("<div class=\"tie\"").count(), ties.len());
    assert!(html.contains(&format!(
        "Champion: <strong class=\"champion\">{champion}</strong>"
    )));
    // Rating the run folder again writes its report anew: with the bracket,
    // followed through its games.csv, the same as the run's.
    assert_success(&rate(&out.join("games.csv"), &[]));
    let again = std::fs::read_to_string(out.join("report.html")).unwrap();
    let section = |h: &str| {
        h[h.find("<section id=\"bracket\">").unwrap()..]
            .split("</section>")
            .next()
            .unwrap()
            .to_string()
    };
    assert_eq!(section(&again), section(&html));
}

#[test]
fn swiss_csv_is_the_points_and_buchholz_of_series_csv_and_the_byes() {
    let tmp = tempfile::tempdir().unwrap();
    let bots = field(5);
    let names: Vec<String> = bots.iter().map(|(n, _)| n.clone()).collect();
    let (out, stdout) = run(tmp.path(), "format = \"swiss\"\nrounds = 3", &bots);
    let series = rows(&out.join("series.csv"));
    // Points from the series: 1 a win, 0.5 a draw; a bye 1: the bot of
    // the five that has no series in a round.
    let mut points: BTreeMap<&str, f64> = names.iter().map(|n| (n.as_str(), 0.0)).collect();
    let mut wdl: BTreeMap<&str, [u32; 4]> = names.iter().map(|n| (n.as_str(), [0; 4])).collect();
    let mut met: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for round in 1..=3u32 {
        let played: Vec<&HashMap<String, String>> =
            series.iter().filter(|s| num(s, "round") == round).collect();
        assert_eq!(played.len(), 2, "5 bots: 2 series a round");
        let mut seen = BTreeSet::new();
        for s in &played {
            let (a, b) = (s["bot_a"].as_str(), s["bot_b"].as_str());
            seen.extend([a, b]);
            met.entry(a).or_default().push(b);
            met.entry(b).or_default().push(a);
            match s["winner"].as_str() {
                "draw" => {
                    for x in [a, b] {
                        *points.get_mut(x).unwrap() += 0.5;
                        wdl.get_mut(x).unwrap()[1] += 1;
                    }
                }
                w => {
                    let l = if w == a { b } else { a };
                    *points.get_mut(w).unwrap() += 1.0;
                    wdl.get_mut(w).unwrap()[0] += 1;
                    wdl.get_mut(l).unwrap()[2] += 1;
                }
            }
        }
        let bye: Vec<&str> = names
            .iter()
            .map(String::as_str)
            .filter(|n| !seen.contains(n))
            .collect();
        assert_eq!(bye.len(), 1, "round {round}: {bye:?}");
        *points.get_mut(bye[0]).unwrap() += 1.0;
        wdl.get_mut(bye[0]).unwrap()[3] += 1;
    }
    let buchholz = |bot: &str| -> f64 {
        met.get(bot)
            .map_or(0.0, |o| o.iter().map(|x| points[x]).sum())
    };
    let table = rows(&out.join("swiss.csv"));
    assert_eq!(table.len(), 5);
    for (i, r) in table.iter().enumerate() {
        let bot = r["bot"].as_str();
        assert_eq!(num(r, "rank") as usize, i + 1);
        assert_eq!(names[num(r, "seed") as usize - 1], bot);
        assert_eq!(r["points"], format!("{:.1}", points[bot]), "{r:?}");
        assert_eq!(r["buchholz"], format!("{:.1}", buchholz(bot)), "{r:?}");
        let w = wdl[bot];
        assert_eq!(
            [
                num(r, "won"),
                num(r, "drawn"),
                num(r, "lost"),
                num(r, "byes")
            ],
            w,
            "{r:?}"
        );
    }
    // Ranked by points, then Buchholz, then seed.
    let key = |r: &HashMap<String, String>| {
        (
            -(r["points"].parse::<f64>().unwrap() * 2.0) as i64,
            -(r["buchholz"].parse::<f64>().unwrap() * 2.0) as i64,
            num(r, "seed"),
        )
    };
    assert!(
        table.windows(2).all(|w| key(&w[0]) < key(&w[1])),
        "{table:?}"
    );
    // The console prints the Swiss standings before the Elo table.
    let swiss_at = stdout
        .find("Swiss standings after 3 of 3 rounds")
        .expect(&stdout);
    let elo_at = stdout.find("95% interval").expect(&stdout);
    assert!(swiss_at < elo_at, "{stdout}");
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert_eq!(html.matches("<div class=\"swiss-round\"").count(), 3);
    assert_eq!(html.matches("<tr class=\"bye\">").count(), 3);
    assert!(html.find("id=\"swiss\"") < html.find("id=\"standings\""));
}
