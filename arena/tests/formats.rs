//! The tournament formats over the bundled bots, through the real arena
//! binary: who meets whom, read back from `series.csv` and checked against
//! the rules of docs/formats.md (a gauntlet's candidates meet every other
//! bot once and the others never meet; a knockout follows its seeded
//! bracket, byes and deciders to one champion; a Swiss plays its rounds
//! with one series or the bye per bot and no repeat while one can be
//! avoided), with `knockout.csv` and `swiss.csv` recomputed from the
//! series; a bot that does not start (walked over, never paired); resume
//! after `kill -9` in the middle of a knockout round and of a Swiss round;
//! the refusal of shards, `arena slurm` and `arena merge`; and the sample
//! configs, with what docs/formats.md shows of their runs.

// Unix only: kill -9 of a process group, for the resume tests (docs/platforms.md, Windows).
#![cfg(unix)]

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;

use common::{
    assert_contains, assert_same_files, assert_success, bundled_field, config, error_line,
    games_without_timing, killed_in_round, repo, resume_after_cut, rows, run_arena, stderr_of,
    stdout_of, SUMMARY_FILES,
};

/// One row of `series.csv`.
#[derive(Clone, Debug)]
struct Played {
    series: usize,
    round: u32,
    a: String,
    b: String,
    games: u32,
    /// The winner's name; `None` for a drawn series.
    winner: Option<String>,
    /// A knockout's decider (note `decider`).
    decider: bool,
}

/// The series of a run folder's `series.csv`, in its (number) order; every
/// one played (these runs have no bot that fails to start).
fn series_of(dir: &Path) -> Vec<Played> {
    rows(&dir.join("series.csv"))
        .into_iter()
        .map(|r| {
            assert!(
                r["note"].is_empty() || r["note"] == "decider",
                "unexpected note: {r:?}"
            );
            let played = Played {
                series: r["series"].parse().unwrap(),
                round: r["round"].parse().unwrap(),
                a: r["bot_a"].clone(),
                b: r["bot_b"].clone(),
                games: r["games"].parse().unwrap(),
                winner: (r["winner"] != "draw").then(|| r["winner"].clone()),
                decider: r["note"] == "decider",
            };
            assert!(played.games > 0, "a series without games: {r:?}");
            played
        })
        .collect()
}

/// The two names in order: a pairing, whoever is bot_a.
fn pair(x: &str, y: &str) -> (String, String) {
    if x < y {
        (x.to_string(), y.to_string())
    } else {
        (y.to_string(), x.to_string())
    }
}

/// `n` seeded, deterministic bundled bots `b1`..`bn` (greedy, random and
/// first in turn), each waiting `think_ms` before a move.
fn field(n: usize, think_ms: u32) -> Vec<(String, Vec<String>)> {
    bundled_field(n, &["--think-ms", &think_ms.to_string()])
}

/// `arena slurm CFG --shards 2 --dry-run`, from `dir`, to completion.
fn slurm_dry_run(dir: &Path, cfg: &Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_arena"))
        .current_dir(dir)
        .arg("slurm")
        .arg(cfg)
        .args(["--shards", "2", "--dry-run"])
        .output()
        .unwrap()
}

/// Writes `dir/t.toml`: tiny boards and series of one game pair (first to
/// 1 of at most 2 games: 1-1 is a drawn series), two series at once.
fn tiny(dir: &Path, format_keys: &str, bots: &[(String, Vec<String>)]) -> std::path::PathBuf {
    let header = format!(
        "[board]\nholes = 4\nseeds = 3\n[tournament]\n{format_keys}\nfirst_to = 1\nmax_games = 2\nconcurrency = 2\nseed = 5\n"
    );
    config(dir, &header, bots)
}

fn names(bots: &[(String, Vec<String>)]) -> Vec<String> {
    bots.iter().map(|(n, _)| n.clone()).collect()
}

/// A gauntlet: every series has a candidate; each candidate meets every
/// other bot (candidates included) exactly once.
fn check_gauntlet(played: &[Played], bots: &[String], candidates: &[String]) {
    let mut met: BTreeMap<(String, String), usize> = BTreeMap::new();
    for s in played {
        assert!(
            candidates.contains(&s.a) || candidates.contains(&s.b),
            "series {} pairs two non-candidates, {} and {}",
            s.series,
            s.a,
            s.b
        );
        *met.entry(pair(&s.a, &s.b)).or_default() += 1;
    }
    let expected: BTreeSet<(String, String)> = candidates
        .iter()
        .flat_map(|c| {
            bots.iter()
                .filter(move |o| *o != c)
                .map(move |o| pair(c, o))
        })
        .collect();
    assert_eq!(
        met.keys().cloned().collect::<BTreeSet<_>>(),
        expected,
        "who meets whom"
    );
    assert!(met.values().all(|&k| k == 1), "a pair meets twice: {met:?}");
}

/// A knockout of `seeds` (best first): the bracket of docs/formats.md
/// (standard seeding positions, byes to the top seeds in round 1), rebuilt
/// round by round from the series' winners, is exactly what was played;
/// each round halves the field; a drawn series goes to deciders (`pair`:
/// one game pair each, in a stage of their own, at most 3, then the better
/// seed) or to the better seed at once; a bot in `absent` (it did not
/// start) loses its tie unplayed.
fn check_knockout(
    played: &[Played],
    seeds: &[String],
    absent: &[String],
    decider_pairs: bool,
) -> Knockout {
    let n = seeds.len();
    let size = n.next_power_of_two();
    let rounds = size.trailing_zeros();
    let rank = |b: &str| seeds.iter().position(|s| s == b).unwrap();
    // Seeds 1..=size at their slots: from [1, 2], s -> (s, 2m + 1 - s).
    let mut order = vec![1usize];
    let mut m = 1;
    while m < size {
        m *= 2;
        order = order.iter().flat_map(|&s| [s, m + 1 - s]).collect();
    }
    let mut slots: Vec<Option<String>> = order.iter().map(|&s| seeds.get(s - 1).cloned()).collect();
    let mut deciders = 0;
    let mut ties_seen = Vec::new();
    let mut last_of_round = 0;
    for r in 1..=rounds {
        if r > 1 && absent.is_empty() {
            assert!(
                slots.iter().all(Option::is_some),
                "a bye after round 1: {slots:?}"
            );
        }
        let of_round: Vec<&Played> = played.iter().filter(|s| s.round == r).collect();
        // A round of walkovers alone has no series.
        if let Some(first) = of_round.iter().map(|s| s.series).min() {
            assert!(
                first > last_of_round,
                "round {r} starts before round {} ended",
                r - 1
            );
            last_of_round = of_round.iter().map(|s| s.series).max().unwrap();
        }
        let mut next = Vec::new();
        let mut ties = BTreeSet::new();
        for (i, tie) in slots.chunks(2).enumerate() {
            // The tie as knockout.csv lists it: the better seed first.
            let mut bots = [tie[0].clone(), tie[1].clone()];
            bots.sort_by_key(|b| b.as_deref().map_or(usize::MAX, rank));
            let [better, other] = bots;
            let mut went_through = |w: Option<String>| {
                ties_seen.push((r, i + 1, better.clone(), other.clone(), w.clone()));
                next.push(w);
            };
            let (x, y) = match (&tie[0], &tie[1]) {
                (Some(x), Some(y)) if !absent.contains(x) && !absent.contains(y) => (x, y),
                (x, y) => {
                    // A bye or a walkover: the one present goes through.
                    let present = |b: &Option<String>| b.clone().filter(|b| !absent.contains(b));
                    went_through(present(x).or_else(|| present(y)));
                    continue;
                }
            };
            ties.insert(pair(x, y));
            let games: Vec<&Played> = of_round
                .iter()
                .filter(|s| pair(&s.a, &s.b) == pair(x, y))
                .copied()
                .collect();
            assert!(!games.is_empty(), "round {r}: {x} v {y} did not meet");
            assert!(
                !games[0].decider,
                "round {r}: {x} v {y} starts with a decider"
            );
            let series_end = of_round
                .iter()
                .filter(|s| !s.decider)
                .map(|s| s.series)
                .max()
                .unwrap();
            for s in &games[1..] {
                assert!(s.decider, "round {r}: {x} v {y} meet twice: {games:?}");
                assert!(
                    s.series > series_end,
                    "a decider before the round's series ended"
                );
                assert_eq!(s.games, 2, "a decider is one game pair");
            }
            for s in &games[..games.len() - 1] {
                assert!(
                    s.winner.is_none(),
                    "a decider after a won series: {games:?}"
                );
            }
            let extra = games.len() - 1;
            let last = games.last().unwrap();
            if decider_pairs {
                assert!(extra <= 3, "more than 3 deciders: {games:?}");
                if last.winner.is_none() {
                    assert_eq!(extra, 3, "a drawn tie stopped before 3 deciders: {games:?}");
                }
            } else {
                assert_eq!(extra, 0, "decider = \"seed\" played a decider");
            }
            deciders += extra;
            let better = if rank(x) < rank(y) { x } else { y };
            went_through(Some(last.winner.clone().unwrap_or_else(|| better.clone())));
        }
        let played_ties: BTreeSet<(String, String)> =
            of_round.iter().map(|s| pair(&s.a, &s.b)).collect();
        assert_eq!(played_ties, ties, "the ties of round {r}");
        assert_eq!(next.len(), slots.len() / 2);
        slots = next;
    }
    assert!(
        played.iter().all(|s| (1..=rounds).contains(&s.round)),
        "a round past {rounds}"
    );
    assert_eq!(slots.len(), 1);
    Knockout {
        champion: slots[0].clone().unwrap(),
        deciders,
        ties: ties_seen,
    }
}

/// A knockout tie: round, place in the round (from 1), the better seed,
/// the other, the bot that went through.
type Tie = (u32, usize, Option<String>, Option<String>, Option<String>);

/// A knockout as its series' rows make it, by [`check_knockout`].
struct Knockout {
    champion: String,
    /// Deciders played.
    deciders: usize,
    /// Each tie, in knockout.csv's order.
    ties: Vec<Tie>,
}

/// `dir/knockout.csv` lists the ties of `knockout`, in order, and the
/// console's last line names its champion.
fn assert_knockout_csv(dir: &Path, knockout: &Knockout) {
    let some = |v: &str| (!v.is_empty()).then(|| v.to_string());
    let listed: Vec<_> = rows(&dir.join("knockout.csv"))
        .iter()
        .map(|r| {
            (
                r["round"].parse::<u32>().unwrap(),
                r["tie"].parse::<usize>().unwrap(),
                some(&r["bot_a"]),
                some(&r["bot_b"]),
                some(&r["winner"]),
            )
        })
        .collect();
    assert_eq!(listed, knockout.ties, "knockout.csv");
    let last = knockout.ties.last().unwrap();
    assert_eq!(last.4.as_ref(), Some(&knockout.champion));
}

/// A row of swiss.csv: bot, seed, points, Buchholz, won, drawn, lost, byes.
type SwissLine = (String, usize, f64, f64, u32, u32, u32, u32);

/// `dir/swiss.csv` has the standings that `played` (every series of the
/// Swiss) makes by the rules: points (1 a series won or a bye, 0.5
/// drawn), Buchholz (the opponents' points, per meeting), then seed; the
/// bots in `absent` last, by seed. A bye is a round without a series.
fn assert_swiss_csv(dir: &Path, played: &[Played], seeds: &[String], absent: &[String]) {
    #[derive(Default, Debug)]
    struct Tally {
        won: u32,
        drawn: u32,
        lost: u32,
        byes: u32,
        met: Vec<String>,
    }
    let present: Vec<&String> = seeds.iter().filter(|b| !absent.contains(b)).collect();
    let mut tally: BTreeMap<&String, Tally> =
        present.iter().map(|b| (*b, Tally::default())).collect();
    let rounds = played.iter().map(|s| s.round).max().unwrap_or(0);
    for r in 1..=rounds {
        let of_round: Vec<&Played> = played.iter().filter(|s| s.round == r).collect();
        for bot in &present {
            if !of_round.iter().any(|s| &&s.a == bot || &&s.b == bot) {
                tally.get_mut(bot).unwrap().byes += 1;
            }
        }
        for s in of_round {
            for (me, them) in [(&s.a, &s.b), (&s.b, &s.a)] {
                let t = tally.get_mut(me).unwrap();
                t.met.push(them.clone());
                match &s.winner {
                    None => t.drawn += 1,
                    Some(w) if w == me => t.won += 1,
                    Some(_) => t.lost += 1,
                }
            }
        }
    }
    // Half-points, to sort exactly.
    let points = |t: &Tally| 2 * (t.won + t.byes) + t.drawn;
    let seed = |b: &String| seeds.iter().position(|s| s == b).unwrap() + 1;
    let mut expected: Vec<SwissLine> = tally
        .iter()
        .map(|(b, t)| {
            let buchholz: u32 = t.met.iter().map(|o| points(&tally[o])).sum();
            let p = f64::from(points(t)) / 2.0;
            (
                b.to_string(),
                seed(b),
                p,
                f64::from(buchholz) / 2.0,
                t.won,
                t.drawn,
                t.lost,
                t.byes,
            )
        })
        .collect();
    expected.sort_by(|x, y| {
        y.2.total_cmp(&x.2)
            .then(y.3.total_cmp(&x.3))
            .then(x.1.cmp(&y.1))
    });
    let mut out: Vec<&String> = seeds.iter().filter(|b| absent.contains(b)).collect();
    out.sort_by_key(|b| seed(b));
    expected.extend(
        out.into_iter()
            .map(|b| (b.clone(), seed(b), 0.0, 0.0, 0, 0, 0, 0)),
    );
    let listed: Vec<_> = rows(&dir.join("swiss.csv"))
        .iter()
        .enumerate()
        .map(|(i, r)| {
            assert_eq!(r["rank"], (i + 1).to_string(), "{r:?}");
            (
                r["bot"].clone(),
                r["seed"].parse::<usize>().unwrap(),
                r["points"].parse::<f64>().unwrap(),
                r["buchholz"].parse::<f64>().unwrap(),
                r["won"].parse::<u32>().unwrap(),
                r["drawn"].parse::<u32>().unwrap(),
                r["lost"].parse::<u32>().unwrap(),
                r["byes"].parse::<u32>().unwrap(),
            )
        })
        .collect();
    assert_eq!(listed, expected, "swiss.csv");
}

/// Whether the bots not in `out` can be paired with no pair that has met,
/// one of them (of those with the fewest byes) sitting out if the count is
/// odd.
fn repeat_free_pairing(
    bots: &[String],
    met: &BTreeMap<(String, String), u32>,
    byes: &BTreeMap<String, u32>,
) -> bool {
    fn pairs_up(left: &[String], met: &BTreeMap<(String, String), u32>) -> bool {
        let Some((p, rest)) = left.split_first() else {
            return true;
        };
        rest.iter().enumerate().any(|(i, q)| {
            !met.contains_key(&pair(p, q)) && {
                let mut others = rest.to_vec();
                others.remove(i);
                pairs_up(&others, met)
            }
        })
    }
    if bots.len().is_multiple_of(2) {
        return pairs_up(bots, met);
    }
    let fewest = bots.iter().map(|b| byes[b]).min().unwrap();
    bots.iter().filter(|b| byes[*b] == fewest).any(|bye| {
        let rest: Vec<String> = bots.iter().filter(|b| *b != bye).cloned().collect();
        pairs_up(&rest, met)
    })
}

/// A Swiss of `seeds` (best first) over `rounds` rounds: each round, every
/// bot plays one series or (one bot, with an odd count) has the bye, which
/// goes to a bot with the fewest byes; round 1 pairs the top half with the
/// bottom half by seed, the bye to the last seed; a pair meets again only
/// when no pairing of the round could avoid every repeat.
fn check_swiss(played: &[Played], seeds: &[String], rounds: u32) {
    let n = seeds.len();
    let mut met: BTreeMap<(String, String), u32> = BTreeMap::new();
    let mut byes: BTreeMap<String, u32> = seeds.iter().map(|b| (b.clone(), 0)).collect();
    for r in 1..=rounds {
        let of_round: Vec<&Played> = played.iter().filter(|s| s.round == r).collect();
        assert_eq!(
            of_round.len(),
            n / 2,
            "round {r} has {} series",
            of_round.len()
        );
        let mut busy = BTreeSet::new();
        for s in &of_round {
            assert!(!s.decider, "a Swiss has no deciders");
            for bot in [&s.a, &s.b] {
                assert!(busy.insert(bot.clone()), "{bot} plays twice in round {r}");
            }
        }
        let idle: Vec<&String> = seeds.iter().filter(|b| !busy.contains(*b)).collect();
        assert_eq!(
            idle.len(),
            n % 2,
            "round {r}: bots without a series: {idle:?}"
        );
        let fewest = byes.values().copied().min().unwrap();
        if let Some(bye) = idle.first() {
            assert_eq!(
                byes[*bye], fewest,
                "round {r}: the bye to {bye}, who had one"
            );
        }
        let repeats: Vec<&&Played> = of_round
            .iter()
            .filter(|s| met.contains_key(&pair(&s.a, &s.b)))
            .collect();
        assert!(
            repeats.is_empty() || !repeat_free_pairing(seeds, &met, &byes),
            "round {r} repeats {repeats:?} where a repeat-free pairing exists"
        );
        if r == 1 {
            let mut top: Vec<String> = seeds.to_vec();
            if n % 2 == 1 {
                assert_eq!(
                    Some(idle[0]),
                    top.last(),
                    "round 1's bye is the last seed's"
                );
                top.pop();
            }
            let half = top.len() / 2;
            let expected: BTreeSet<(String, String)> =
                (0..half).map(|i| pair(&top[i], &top[i + half])).collect();
            let got: BTreeSet<(String, String)> =
                of_round.iter().map(|s| pair(&s.a, &s.b)).collect();
            assert_eq!(got, expected, "round 1: top half against bottom half");
        }
        for s in &of_round {
            *met.entry(pair(&s.a, &s.b)).or_default() += 1;
        }
        for bye in idle {
            *byes.get_mut(bye).unwrap() += 1;
        }
    }
    assert!(
        played.iter().all(|s| (1..=rounds).contains(&s.round)),
        "a round past {rounds}"
    );
}

#[test]
fn a_gauntlet_pairs_each_candidate_with_every_other_bot_and_never_two_others() {
    let tmp = tempfile::tempdir().unwrap();
    for (n, candidates) in [(3, 1), (5, 1), (8, 2), (9, 3)] {
        let dir = tmp.path().join(format!("g{n}"));
        std::fs::create_dir_all(&dir).unwrap();
        let bots = field(n, 0);
        // Candidates b2, b4, ...: not simply the first bots.
        let chosen: Vec<String> = (0..candidates).map(|k| format!("b{}", 2 + 2 * k)).collect();
        let keys = format!("format = \"gauntlet\"\ncandidates = {chosen:?}");
        let out = dir.join("run");
        assert_success(&run_arena(&tiny(&dir, &keys, &bots), &out));
        check_gauntlet(&series_of(&out), &names(&bots), &chosen);
    }
}

#[test]
fn a_knockout_follows_its_bracket_round_by_round_to_one_champion() {
    let tmp = tempfile::tempdir().unwrap();
    let mut deciders = 0;
    for (n, decider, seeding) in [
        (3, "pair", None),
        (5, "seed", None),
        (8, "pair", None),
        (9, "pair", Some(["b9", "b8", "b7"])),
    ] {
        let dir = tmp.path().join(format!("k{n}"));
        std::fs::create_dir_all(&dir).unwrap();
        let bots = field(n, 0);
        let mut keys = format!("format = \"knockout\"\ndecider = \"{decider}\"");
        // Seeds: those named, then the others in the [[bot]] order.
        let mut seeds: Vec<String> = Vec::new();
        if let Some(list) = seeding {
            keys.push_str(&format!("\nseeding = {list:?}"));
            seeds.extend(list.iter().map(|s| s.to_string()));
        }
        let rest: Vec<String> = names(&bots)
            .into_iter()
            .filter(|b| !seeds.contains(b))
            .collect();
        seeds.extend(rest);
        let out = dir.join("run");
        assert_success(&run_arena(&tiny(&dir, &keys, &bots), &out));
        let knockout = check_knockout(&series_of(&out), &seeds, &[], decider == "pair");
        assert_knockout_csv(&out, &knockout);
        deciders += knockout.deciders;
    }
    // Series of one game pair are often drawn: the decider path was taken.
    assert!(deciders > 0, "no decider was played");
}

#[test]
fn a_swiss_plays_its_rounds_without_repeats_one_series_or_the_bye_each() {
    let tmp = tempfile::tempdir().unwrap();
    // (bots, rounds key, rounds expected: log2 of the bots rounded up by
    // default; 5 for 5 or 6 bots is every opponent once).
    for (n, rounds, expected) in [
        (3, None, 2),
        (5, None, 3),
        (5, Some(5), 5),
        (6, Some(5), 5),
        (8, None, 3),
        (9, None, 4),
    ] {
        let dir = tmp.path().join(format!("s{n}-{expected}"));
        std::fs::create_dir_all(&dir).unwrap();
        let bots = field(n, 0);
        let mut keys = "format = \"swiss\"".to_string();
        if let Some(r) = rounds {
            keys.push_str(&format!("\nrounds = {r}"));
        }
        // 8 bots seeded in reverse: round 1 follows the seeds, not the
        // [[bot]] order.
        let mut seeds = names(&bots);
        if n == 8 {
            seeds.reverse();
            keys.push_str(&format!("\nseeding = {seeds:?}"));
        }
        let out = dir.join("run");
        assert_success(&run_arena(&tiny(&dir, &keys, &bots), &out));
        let played = series_of(&out);
        check_swiss(&played, &seeds, expected);
        assert_swiss_csv(&out, &played, &seeds, &[]);
        assert_eq!(played.len(), n / 2 * expected as usize);
    }
}

/// Plays `keys`' tournament over `n` bots in one go, then again killed
/// (SIGKILL to the arena's process group) once a game of round `round`
/// is in games.csv, and resumed: the resumed run has the same series,
/// rounds and results, every game once, and the same summary files
/// (`file` too: knockout.csv or swiss.csv).
fn killed_in_a_round_resumes_to_the_same_tournament(keys: &str, n: usize, round: u32, file: &str) {
    let tmp = tempfile::tempdir().unwrap();
    // Bots that wait 5 ms a move: a round's games take long enough for the
    // kill to land in the middle of it.
    let bots = field(n, 5);
    let header = format!(
        "[board]\nholes = 6\n[tournament]\n{keys}\nfirst_to = 2\nmax_games = 4\nconcurrency = 2\nseed = 7\n"
    );
    let cfg = config(tmp.path(), &header, &bots);
    let whole = tmp.path().join("whole");
    assert_success(&run_arena(&cfg, &whole));
    let round_of: BTreeMap<usize, u32> = series_of(&whole)
        .iter()
        .map(|s| (s.series, s.round))
        .collect();
    let last_round = round_of.values().copied().max().unwrap();
    assert!(
        last_round > round,
        "the tournament has no round after {round}"
    );
    let run = tmp.path().join("run");
    let cut = killed_in_round(&cfg, &run, &round_of, round);
    resume_after_cut(&cfg, &run, &cut);
    assert_eq!(games_without_timing(&whole), games_without_timing(&run));
    assert_same_files(&whole, &run, &SUMMARY_FILES);
    assert_same_files(&whole, &run, &[file]);
}

#[test]
fn a_knockout_killed_in_round_2_resumes_to_the_same_bracket() {
    killed_in_a_round_resumes_to_the_same_tournament("format = \"knockout\"", 8, 2, "knockout.csv");
}

#[test]
fn a_swiss_killed_in_round_2_resumes_to_the_same_pairings() {
    killed_in_a_round_resumes_to_the_same_tournament("format = \"swiss\"", 6, 2, "swiss.csv");
}

#[test]
fn a_knockout_or_swiss_refuses_shards_in_one_line_and_a_gauntlet_splits() {
    let tmp = tempfile::tempdir().unwrap();
    let bots = field(5, 0);
    for format in ["knockout", "swiss"] {
        let cfg = tiny(tmp.path(), &format!("format = \"{format}\""), &bots);
        for shard in ["1/2", "2/2"] {
            let out = tmp.path().join(format!("{format}-{}", &shard[..1]));
            let output = Command::new(env!("CARGO_BIN_EXE_arena"))
                .arg("run")
                .arg(&cfg)
                .args(["--shard", shard, "--out"])
                .arg(&out)
                .output()
                .unwrap();
            assert!(
                !output.status.success(),
                "--shard {shard} of a {format} ran"
            );
            let line = error_line(&output);
            assert!(
                line.contains(&format!("--shard {shard}: a {format} pairs each round"))
                    && line.contains("cannot be split into shards"),
                "{line}"
            );
            assert!(!out.exists(), "a refused run made its folder");
        }
        // On Slurm it runs round by round instead: a job array for round
        // 1, and the job after it (tests/slurm.rs runs them); nor does
        // arena merge take its folder.
        let output = slurm_dry_run(tmp.path(), &cfg);
        assert_success(&output);
        let stdout = stdout_of(&output);
        assert!(
            stdout.contains("round.sbatch 1\n")
                && stdout.contains("--dependency=afterany:ARRAY_JOB_ID")
                && stdout.contains("next.sbatch 1\n"),
            "{stdout}"
        );
        let whole = tmp.path().join(format!("{format}-whole"));
        assert_success(&run_arena(&cfg, &whole));
        let output = Command::new(env!("CARGO_BIN_EXE_arena"))
            .arg("merge")
            .arg("--out")
            .arg(tmp.path().join(format!("{format}-merged")))
            .arg(&whole)
            .output()
            .unwrap();
        let line = error_line(&output);
        assert_contains(&line, "no shards to merge");
    }
    // A league without rounds would go on until stopped: not on Slurm.
    let cfg = tiny(tmp.path(), "format = \"league\"", &bots);
    let output = slurm_dry_run(tmp.path(), &cfg);
    let line = error_line(&output);
    assert_contains(&line, "set rounds = R");
    // A gauntlet's series are known at the start: its shards merge to the
    // run made in one go.
    let cfg = tiny(
        tmp.path(),
        "format = \"gauntlet\"\ncandidates = [\"b1\", \"b3\"]",
        &bots,
    );
    let whole = tmp.path().join("whole");
    assert_success(&run_arena(&cfg, &whole));
    let mut merge = Command::new(env!("CARGO_BIN_EXE_arena"));
    merge
        .arg("merge")
        .arg("--out")
        .arg(tmp.path().join("merged"));
    for k in 1..=2 {
        let out = tmp.path().join(format!("gauntlet-{k}"));
        let output = Command::new(env!("CARGO_BIN_EXE_arena"))
            .arg("run")
            .arg(&cfg)
            .args(["--quiet", "--shard", &format!("{k}/2"), "--out"])
            .arg(&out)
            .output()
            .unwrap();
        assert_success(&output);
        merge.arg(out);
    }
    assert_success(&merge.output().unwrap());
    let merged = tmp.path().join("merged");
    assert_eq!(games_without_timing(&whole), games_without_timing(&merged));
    assert_same_files(&whole, &merged, &["series.csv", "standings.csv"]);
}

/// A sample config's bots (in the [[bot]] order) and its `[tournament]`.
fn sample(file: &str) -> (Vec<String>, toml::Table) {
    let text = std::fs::read_to_string(repo().join("configs").join(file)).unwrap();
    let table: toml::Table = text.parse().unwrap();
    let bots = table["bot"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["name"].as_str().unwrap().to_string())
        .collect();
    (bots, table["tournament"].as_table().unwrap().clone())
}

fn strings(value: &toml::Value) -> Vec<String> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect()
}

#[test]
fn the_sample_configs_of_the_formats_run_from_the_repo_root() {
    let tmp = tempfile::tempdir().unwrap();
    for file in ["gauntlet.toml", "knockout.toml", "swiss.toml"] {
        let out = tmp.path().join(file);
        let output = Command::new(env!("CARGO_BIN_EXE_arena"))
            .current_dir(repo())
            .args(["run", &format!("configs/{file}"), "--quiet", "--out"])
            .arg(&out)
            .output()
            .unwrap();
        assert_success(&output);
        // docs/formats.md shows the format's summary the console prints.
        let stdout = stdout_of(&output);
        let marker = match file {
            "gauntlet.toml" => "Candidates against the pool",
            "knockout.toml" => "Knockout champion: ",
            _ => "Swiss standings after ",
        };
        let summary: String = stdout
            .lines()
            .skip_while(|l| !l.starts_with(marker))
            .take_while(|l| !l.is_empty())
            .map(|l| format!("{l}\n"))
            .collect();
        assert!(!summary.is_empty(), "no {marker:?} in:\n{stdout}");
        let page = std::fs::read_to_string(repo().join("docs/formats.md")).unwrap();
        assert!(
            page.contains(&format!("```text\n{summary}```")),
            "docs/formats.md's console summary of configs/{file} is out of date; the run prints:\n{summary}"
        );
        let (bots, t) = sample(file);
        let played = series_of(&out);
        // Seeds: those the config names, then the others in its order.
        let mut seeds = t.get("seeding").map(strings).unwrap_or_default();
        seeds.extend(
            bots.iter()
                .filter(|b| !seeds.contains(b))
                .cloned()
                .collect::<Vec<_>>(),
        );
        match t["format"].as_str().unwrap() {
            "gauntlet" => check_gauntlet(&played, &bots, &strings(&t["candidates"])),
            "knockout" => {
                let pairs = t.get("decider").and_then(|d| d.as_str()) != Some("seed");
                assert_knockout_csv(&out, &check_knockout(&played, &seeds, &[], pairs));
                // docs/formats.md shows this run's series.csv.
                let csv = std::fs::read_to_string(out.join("series.csv")).unwrap();
                assert!(
                    page.contains(&format!("```text\n{csv}```")),
                    "docs/formats.md's series.csv of configs/knockout.toml is out of date; the run writes:\n{csv}"
                );
            }
            "swiss" => {
                check_swiss(&played, &seeds, t["rounds"].as_integer().unwrap() as u32);
                assert_swiss_csv(&out, &played, &seeds, &[]);
            }
            other => panic!("configs/{file}: format {other}"),
        }
    }
}

/// A bot that fails its start-up check, with `on_start_failure = "skip"`:
/// in a knockout its opponent goes through unplayed (round 1 of 5 bots
/// with seed 4 out is then all byes and a walkover: no series), in a Swiss
/// it is never paired and the others are paired as if it were not there.
#[test]
fn a_bot_that_does_not_start_is_walked_over_in_a_knockout_and_never_paired_in_a_swiss() {
    let tmp = tempfile::tempdir().unwrap();
    for (format, n) in [("knockout", 5), ("knockout", 6), ("swiss", 6)] {
        let dir = tmp.path().join(format!("{format}-{n}"));
        std::fs::create_dir_all(&dir).unwrap();
        let mut bots = field(n, 0);
        bots[3].1 = vec!["sh".into(), "-c".into(), "exit 3".into()];
        let keys = format!("format = \"{format}\"\non_start_failure = \"skip\"");
        let out = dir.join("run");
        let output = run_arena(&tiny(&dir, &keys, &bots), &out);
        assert_success(&output);
        let stderr = stderr_of(&output);
        assert_contains(&stderr, "bot 'b4' did not start");
        let played = series_of(&out);
        assert!(
            played.iter().all(|s| s.a != "b4" && s.b != "b4"),
            "b4 played: {played:?}"
        );
        let absent = vec!["b4".to_string()];
        if format == "knockout" {
            assert_knockout_csv(&out, &check_knockout(&played, &names(&bots), &absent, true));
            if n == 5 {
                assert!(!played.iter().any(|s| s.round == 1), "{played:?}");
            }
        } else {
            let present: Vec<String> = names(&bots).into_iter().filter(|b| b != "b4").collect();
            // rounds' default counts every [[bot]]: 6 bots, 3 rounds.
            check_swiss(&played, &present, 3);
            assert_swiss_csv(&out, &played, &names(&bots), &absent);
        }
        let standings = rows(&out.join("standings.csv"));
        let b4 = standings.iter().find(|r| r["bot"] == "b4").unwrap();
        assert!(b4["note"].starts_with("not started: "), "{b4:?}");
    }
}

/// A gauntlet whose only candidate fails its start-up check, skipped: the
/// other bots never meet, so the run stops with one line and plays nothing.
#[test]
fn a_gauntlet_whose_candidates_do_not_start_stops_in_one_line() {
    let tmp = tempfile::tempdir().unwrap();
    let mut bots = field(3, 0);
    bots[0].1 = vec!["sh".into(), "-c".into(), "exit 3".into()];
    let keys = "format = \"gauntlet\"\ncandidates = [\"b1\"]\non_start_failure = \"skip\"";
    let out = tmp.path().join("run");
    let output = run_arena(&tiny(tmp.path(), keys, &bots), &out);
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let stderr = stderr_of(&output);
    let last = stderr.lines().last().unwrap_or("");
    assert!(
        last.starts_with("error: no candidate of the gauntlet started"),
        "{stderr}"
    );
    assert!(!out.join("series.csv").exists(), "a folder of empty tables");
}
