//! The league format through the real arena binary: a league of noisy
//! bundled bots plays its rounds, each bot once a round or the bye, with
//! `league.csv` agreeing with `series.csv` and `games.csv`; and a league
//! killed (SIGKILL) in round 2 (its `league.csv` written up to there)
//! resumes to the same pairings, games and files as a league played in
//! one go (docs/formats.md, "League").
// Signals and process groups: Unix only (docs/platforms.md).
#![cfg(unix)]

mod common;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use nix::sys::signal::{kill, Signal};
use nix::unistd::Pid;

use common::{
    assert_contains, assert_same_files, assert_success, bot_tables, config, games_counted,
    games_so_far, games_without_timing, killed_in_round, rate, read_files, resume_after_cut, rows,
    run_arena, run_to, said_by, save_atomically, start_run, stderr_of, stdout_of, wait_until,
    SUMMARY_FILES,
};

/// `n` greedy bots `g1`..`gn` with noise spread from 0 to 1, seeded, each
/// waiting `think_ms` before a move.
fn noisy_field(n: usize, think_ms: u32) -> Vec<(String, Vec<String>)> {
    (1..=n)
        .map(|i| {
            let noise = (i - 1) as f64 / (n - 1) as f64;
            let command = [
                "arena".to_string(),
                "bot".into(),
                "greedy".into(),
                "--seed".into(),
                i.to_string(),
                "--noise".into(),
                format!("{noise:.3}"),
                "--think-ms".into(),
                think_ms.to_string(),
            ]
            .to_vec();
            (format!("g{i}"), command)
        })
        .collect()
}

/// Writes `dir/t.toml`: a league of `rounds` rounds over `n` noisy bots.
fn league_config(dir: &Path, n: usize, rounds: u32, think_ms: u32) -> PathBuf {
    let header = format!(
        "[board]\nholes = 6\n[tournament]\nformat = \"league\"\nrounds = {rounds}\nconcurrency = 2\nseed = 7\n[ratings]\nbootstrap = 100\n"
    );
    let bots = noisy_field(n, think_ms);
    config(dir, &header, &bots)
}

/// Checks a finished league's `league.csv` against its `series.csv` and
/// `games.csv`: each round pairs every bot once (or gives it the bye),
/// the pairings are the series, each of one game pair, and the ratings
/// of round 1 are those of bots without games.
fn check_league(dir: &Path, bots: &[String], rounds: u32) {
    let league = rows(&dir.join("league.csv"));
    let series: HashMap<String, HashMap<String, String>> = rows(&dir.join("series.csv"))
        .into_iter()
        .map(|r| (r["series"].clone(), r))
        .collect();
    let pairs = bots.len() / 2;
    assert_eq!(
        league.len(),
        rounds as usize * (pairs + bots.len() % 2),
        "one row per pairing and bye"
    );
    assert_eq!(series.len(), rounds as usize * pairs);
    let mut byes: BTreeMap<String, u32> = BTreeMap::new();
    for round in 1..=rounds {
        let of_round: Vec<&HashMap<String, String>> = league
            .iter()
            .filter(|r| r["round"] == round.to_string())
            .collect();
        let mut seen: Vec<String> = of_round
            .iter()
            .flat_map(|r| [r["south"].clone(), r["north"].clone()])
            .filter(|b| !b.is_empty())
            .collect();
        seen.sort();
        let mut all = bots.to_vec();
        all.sort();
        assert_eq!(seen, all, "round {round}: every bot once");
        for r in &of_round {
            if r["note"] == "bye" {
                assert!(r["series"].is_empty() && r["north"].is_empty());
                *byes.entry(r["south"].clone()).or_default() += 1;
                continue;
            }
            let s = &series[&r["series"]];
            assert_eq!(s["round"], r["round"]);
            let mut a = [s["bot_a"].clone(), s["bot_b"].clone()];
            let mut b = [r["south"].clone(), r["north"].clone()];
            a.sort();
            b.sort();
            assert_eq!(a, b, "series {} is its pairing", r["series"]);
            assert_eq!(s["games"], "2", "one game pair a pairing");
            if round == 1 {
                for side in ["south", "north"] {
                    assert_eq!(r[&format!("{side}_elo")], "0.0");
                    assert_eq!(r[&format!("{side}_sd")], "350.0");
                    assert_eq!(r[&format!("{side}_games")], "0");
                }
            } else {
                // Only the bot that had round 1's bye is without games in
                // round 2, and it meets one with games.
                let games = |side: &str| r[&format!("{side}_games")].parse::<u32>().unwrap();
                assert!(games("south") + games("north") > 0, "{r:?}");
            }
            let q: f64 = r["quality"].parse().unwrap();
            assert!((0.0..=1.0).contains(&q), "{q}");
        }
    }
    assert!(byes.values().all(|&b| b == 1), "the bye rotates: {byes:?}");
    // games.csv: the series' games, two each, and nothing else.
    let games = rows(&dir.join("games.csv"));
    assert_eq!(games.len(), 2 * series.len());
    for g in &games {
        assert!(series.contains_key(&g["series"]), "{g:?}");
    }
}

#[test]
fn a_league_pairs_every_bot_once_a_round_and_lists_its_pairings() {
    let tmp = tempfile::tempdir().unwrap();
    let (out, output) = run_to(&league_config(tmp.path(), 9, 3, 0), tmp.path().join("run"));
    let bots: Vec<String> = (1..=9).map(|i| format!("g{i}")).collect();
    check_league(&out, &bots, 3);
    let stdout = stdout_of(&output);
    assert_contains(
        &stdout,
        "League after 3 of 3 rounds (15 pairings in league.csv)",
    );
    let stderr = stderr_of(&output);
    assert!(
        // 9 bots after one round: their ratings are noise, so a warm-up round; the one left over has the bye.
        stderr.contains(
            "arena: league round 2 of 3: 4 series (1 bye), paired at random (the warm-up, while the ratings are mostly noise)"
        ),
        "{stderr}"
    );
}

#[test]
fn a_league_of_more_than_20_bots_shows_its_top_20_and_where_the_rest_is() {
    let tmp = tempfile::tempdir().unwrap();
    let (out, output) = run_to(&league_config(tmp.path(), 22, 1, 0), tmp.path().join("run"));
    let stdout = stdout_of(&output);
    let note = format!(
        "(the top 20 of 22 bots; every bot is in {})",
        out.join("standings.csv").display()
    );
    assert_contains(&stdout, &note);
    let ranks: Vec<&str> = stdout
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|w| w.parse::<u32>().is_ok())
        .collect();
    assert_eq!(ranks.len(), 20, "{stdout}");
    assert_eq!(rows(&out.join("standings.csv")).len(), 22);
}

#[test]
fn a_league_killed_in_round_2_resumes_to_the_same_pairings() {
    let tmp = tempfile::tempdir().unwrap();
    // Bots that wait 5 ms a move: a round's games take long enough for the
    // kill to land in the middle of it.
    let cfg = league_config(tmp.path(), 8, 3, 5);
    let whole = tmp.path().join("whole");
    assert_success(&run_arena(&cfg, &whole));
    let round_of: BTreeMap<usize, u32> = rows(&whole.join("series.csv"))
        .iter()
        .map(|r| (r["series"].parse().unwrap(), r["round"].parse().unwrap()))
        .collect();
    let run = tmp.path().join("run");
    let cut = killed_in_round(&cfg, &run, &round_of, 2);
    // league.csv is written round by round, not at the end: the killed
    // run's lists rounds 1 and 2 (3 too if it was paired before the
    // kill), as the whole run's begins.
    let (listed, all) = (
        rows(&run.join("league.csv")),
        rows(&whole.join("league.csv")),
    );
    assert!(listed.iter().any(|r| r["round"] == "2"), "{listed:?}");
    assert_eq!(listed[..], all[..listed.len()]);

    resume_after_cut(&cfg, &run, &cut);
    assert_eq!(games_without_timing(&whole), games_without_timing(&run));
    assert_same_files(&whole, &run, &SUMMARY_FILES);
    assert_same_files(&whole, &run, &["league.csv"]);
    let bots: Vec<String> = (1..=8).map(|i| format!("g{i}")).collect();
    check_league(&run, &bots, 3);
}

#[test]
fn the_sample_league_is_64_greedy_bots_of_rising_noise_and_runs() {
    let text = std::fs::read_to_string(common::repo().join("configs/league.toml")).unwrap();
    let table: toml::Table = text.parse().unwrap();
    assert_eq!(table["tournament"]["format"].as_str(), Some("league"));
    let noise: Vec<f64> = table["bot"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            let command: Vec<&str> = b["command"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c.as_str().unwrap())
                .collect();
            assert_eq!(command[..3], ["arena", "bot", "greedy"]);
            let at = command.iter().position(|&c| c == "--noise").unwrap();
            command[at + 1].parse().unwrap()
        })
        .collect();
    assert_eq!(noise.len(), 64);
    assert_eq!((noise[0], noise[63]), (0.0, 1.0));
    assert!(noise.windows(2).all(|w| w[0] < w[1]), "{noise:?}");
    // Its first round, run as the sample is (one round, to stay short).
    let tmp = tempfile::tempdir().unwrap();
    let rounds = table["tournament"]["rounds"].as_integer().unwrap();
    let one = text.replacen(&format!("rounds = {rounds}"), "rounds = 1", 1);
    assert_ne!(one, text);
    let cfg = tmp.path().join("league.toml");
    std::fs::write(&cfg, one).unwrap();
    let out = tmp.path().join("run");
    assert_success(&run_arena(&cfg, &out));
    let names: Vec<String> = table["bot"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["name"].as_str().unwrap().to_string())
        .collect();
    check_league(&out, &names, 1);
}

#[test]
fn a_league_without_rounds_goes_on_until_ctrl_c_and_then_writes_its_files() {
    let tmp = tempfile::tempdir().unwrap();
    let header = "[board]\nholes = 6\n[tournament]\nformat = \"league\"\nconcurrency = 2\nseed = 3\n[ratings]\nbootstrap = 50\n";
    let bots = noisy_field(6, 2);
    let cfg = config(tmp.path(), header, &bots);
    let run = tmp.path().join("run");
    let mut child = start_run(&cfg, &["--quiet"], &run, false);
    // Round 4's games are under way: past any bound a rounds key would set.
    let deadline = Instant::now() + Duration::from_secs(120);
    while games_so_far(&run).len() < 3 * 3 * 2 + 1 {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the league ended by itself"
        );
        assert!(Instant::now() < deadline, "no round 4 in 120 s");
        std::thread::sleep(Duration::from_millis(2));
    }
    kill(Pid::from_raw(child.id() as i32), Signal::SIGINT).unwrap();
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(130));
    let stdout = stdout_of(&output);
    assert_contains(&stdout, "rounds: stopped");
    let stderr = stderr_of(&output);
    assert_contains(&stderr, "--resume");
    // The files cover the games played; league.csv the rounds paired.
    let games = rows(&run.join("games.csv"));
    let standings = rows(&run.join("standings.csv"));
    let counted = games_counted(&standings);
    assert_eq!(counted, 2 * games.len());
    let league = rows(&run.join("league.csv"));
    let rounds: BTreeSet<u32> = league.iter().map(|r| r["round"].parse().unwrap()).collect();
    assert!(rounds.len() >= 4, "{rounds:?}");
    assert_eq!(league.len(), 3 * rounds.len());
}

/// A league's config: `header`, the bots of `field` but the one named
/// `without`, then the `extra` bots, each a name and its command written
/// as a TOML array.
fn league_text(
    header: &str,
    field: &[(String, Vec<String>)],
    without: &str,
    extra: &[(&str, &str)],
) -> String {
    let kept: Vec<_> = field
        .iter()
        .filter(|(n, _)| n != without)
        .cloned()
        .collect();
    let mut t = format!("{header}{}", bot_tables(&kept));
    for (name, command) in extra {
        t.push_str(&format!(
            "\n[[bot]]\nname = \"{name}\"\ncommand = {command}\n"
        ));
    }
    t
}

/// The rows of `dir/roster.csv`, by bot (empty while it is missing).
fn roster_now(dir: &Path) -> Vec<HashMap<String, String>> {
    if dir.join("roster.csv").exists() {
        rows(&dir.join("roster.csv"))
    } else {
        Vec::new()
    }
}

/// Starts `arena run CFG --quiet` into `out` (`--resume` with `resume`),
/// its stderr collected line by line into the returned buffer.
fn start_league(
    cfg: &Path,
    out: &Path,
    resume: bool,
) -> (
    std::process::Child,
    std::sync::Arc<std::sync::Mutex<String>>,
) {
    let mut child = start_run(cfg, &["--quiet"], out, resume);
    let (said, _reader) = said_by(&mut child);
    (child, said)
}

/// The rounds of `league.csv` each bot is in (paired or with the bye).
fn rounds_of(league: &[HashMap<String, String>]) -> BTreeMap<String, BTreeSet<u32>> {
    let mut out: BTreeMap<String, BTreeSet<u32>> = BTreeMap::new();
    for r in league {
        for side in ["south", "north"] {
            if !r[side].is_empty() {
                out.entry(r[side].clone())
                    .or_default()
                    .insert(r["round"].parse().unwrap());
            }
        }
    }
    out
}

#[test]
fn bots_added_to_a_running_league_join_and_bots_removed_retire() {
    let tmp = tempfile::tempdir().unwrap();
    let header = |seed: u32| {
        format!("[board]\nholes = 6\n[tournament]\nformat = \"league\"\nconcurrency = 2\nseed = {seed}\n[ratings]\nbootstrap = 50\n")
    };
    let field = noisy_field(5, 2);
    let text = |seed: u32, without: &str, extra: &[(&str, &str)]| {
        league_text(&header(seed), &field, without, extra)
    };
    let newbie = ("newbie", r#"["arena", "bot", "random", "--seed", "4"]"#);
    let broken = ("broken", r#"["/nonexistent/bot"]"#);
    let cfg = tmp.path().join("t.toml");
    std::fs::write(&cfg, text(5, "", &[])).unwrap();
    let run = tmp.path().join("run");
    let (mut child, said) = start_league(&cfg, &run, false);
    wait_until(&mut child, "a game", || !games_so_far(&run).is_empty());
    let start = roster_now(&run);
    let names: Vec<&str> = start.iter().map(|r| r["bot"].as_str()).collect();
    assert_eq!(names, ["g1", "g2", "g3", "g4", "g5"]);
    assert!(start
        .iter()
        .all(|r| r["joined"] == "1" && r["retired"].is_empty()));

    // Two bots added: one joins, one fails its check and does not.
    save_atomically(&cfg, &text(5, "", &[newbie, broken]));
    wait_until(&mut child, "newbie joined", || {
        roster_now(&run).iter().any(|r| r["bot"] == "newbie")
    });
    let joined: u32 = roster_now(&run)
        .iter()
        .find(|r| r["bot"] == "newbie")
        .unwrap()["joined"]
        .parse()
        .unwrap();
    assert!(joined >= 2, "joined at {joined}");
    // A bot removed retires.
    save_atomically(&cfg, &text(5, "g2", &[newbie]));
    wait_until(&mut child, "g2 retired", || {
        roster_now(&run)
            .iter()
            .any(|r| r["bot"] == "g2" && !r["retired"].is_empty())
    });
    let retired: u32 = roster_now(&run).iter().find(|r| r["bot"] == "g2").unwrap()["retired"]
        .parse()
        .unwrap();
    // Another key changed (with a bot added): refused whole; the league
    // goes on.
    save_atomically(&cfg, &text(6, "g2", &[newbie, ("never", newbie.1)]));
    wait_until(&mut child, "the change refused", || {
        said.lock().unwrap().contains("change refused")
    });
    let before = games_so_far(&run).len();
    wait_until(&mut child, "two more rounds", || {
        games_so_far(&run).len() >= before + 2 * 4
    });
    kill(Pid::from_raw(child.id() as i32), Signal::SIGINT).unwrap();
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(130));
    let stderr = said.lock().unwrap().clone();
    let file = cfg.display().to_string();
    for line in [
        format!("arena: {file}: bot 'newbie' joins the league at round {joined}"),
        format!("arena: {file}: bot 'broken' does not join: "),
        format!("arena: {file}: bot 'g2' removed: it leaves the league after round {retired}"),
        format!("arena: {file}: change refused ([tournament] seed changed: "),
    ] {
        assert!(stderr.contains(&line), "{line}\n{stderr}");
    }
    // Its reason does not name the bot a second time.
    assert!(!stderr.contains("does not join: bot 'broken'"), "{stderr}");
    let roster = rows(&run.join("roster.csv"));
    let order: Vec<&str> = roster.iter().map(|r| r["bot"].as_str()).collect();
    assert_eq!(order, ["g1", "g2", "g3", "g4", "g5", "newbie"]);
    // league.csv: newbie from its round on, never before; g2 not after.
    let league = rows(&run.join("league.csv"));
    let rounds = rounds_of(&league);
    let last = *rounds.values().flatten().max().unwrap();
    assert!(last > joined.max(retired) + 1, "{last}");
    let newbie_rounds: Vec<u32> = rounds["newbie"].iter().copied().collect();
    assert_eq!(newbie_rounds, (joined..=last).collect::<Vec<_>>());
    // Catch-up: newbie, behind the bots of the start, plays more than one
    // series in the round it joins, each with another bot (concurrency 2:
    // at once), those past its first noted `catch-up` in league.csv.
    let first: Vec<&HashMap<String, String>> = league
        .iter()
        .filter(|r| r["round"] == joined.to_string())
        .filter(|r| r["south"] == "newbie" || r["north"] == "newbie")
        .collect();
    assert!(first.len() > 1, "{first:?}");
    let met: BTreeSet<&str> = first
        .iter()
        .map(|r| {
            if r["south"] == "newbie" {
                r["north"].as_str()
            } else {
                r["south"].as_str()
            }
        })
        .collect();
    assert_eq!(met.len(), first.len(), "{first:?}");
    let noted = first.iter().filter(|r| r["note"] == "catch-up").count();
    assert_eq!(noted, first.len() - 1, "{first:?}");
    assert_eq!(rounds["g2"].iter().max(), Some(&retired));
    assert!(!rounds.contains_key("never") && !rounds.contains_key("broken"));
    // Every game is of the series league.csv lists.
    let games = rows(&run.join("games.csv"));
    assert!(games
        .iter()
        .all(|g| g["south"] != "never" && g["north"] != "broken"));
    // Standings: g2 kept with its games and marked; newbie rated.
    let standings = rows(&run.join("standings.csv"));
    let g2 = standings.iter().find(|s| s["bot"] == "g2").unwrap();
    assert_eq!(g2["note"], format!("retired after round {retired}"));
    assert!(g2["games"].parse::<u32>().unwrap() > 0);
    assert!(standings.iter().any(|s| s["bot"] == "newbie"));
    let stdout = stdout_of(&output);
    assert!(
        stdout.contains(&format!(
            "retired, no longer paired (their games and ratings stay): g2 (after round {retired})"
        )),
        "{stdout}"
    );

    // A resume with the league's config (bots added and removed since the
    // start: accepted), and one more bot: every round the interrupted run
    // played is paired again as it was, and the new bot joins after them.
    let late = ("late", r#"["arena", "bot", "greedy", "--seed", "9"]"#);
    save_atomically(&cfg, &text(5, "g2", &[newbie, late]));
    let (mut child, _) = start_league(&cfg, &run, true);
    let had = games.len();
    wait_until(&mut child, "a game of the late bot", || {
        let text = std::fs::read_to_string(run.join("games.csv")).unwrap_or_default();
        let whole = &text[..text.rfind('\n').map_or(0, |i| i + 1)];
        whole.contains(",late,")
    });
    wait_until(&mut child, "a round after the resume", || {
        games_so_far(&run).len() >= had + 2 * 6
    });
    kill(Pid::from_raw(child.id() as i32), Signal::SIGINT).unwrap();
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(130), "{output:?}");
    let again = rows(&run.join("league.csv"));
    assert!(again.len() > league.len());
    let rounds = rounds_of(&again);
    // The last round paired may have had no game yet: the bot may join there.
    let late_from = *rounds["late"].iter().min().unwrap();
    assert!(late_from >= last, "{late_from} < {last}");
    let kept = if late_from > last {
        league.len()
    } else {
        league
            .iter()
            .filter(|r| r["round"] != last.to_string())
            .count()
    };
    assert_eq!(
        again[..kept],
        league[..kept],
        "the rounds paired are replayed"
    );
    assert_eq!(rounds["g2"].iter().max(), Some(&retired));
    assert_eq!(rounds["newbie"].iter().min(), Some(&joined));

    // arena rate replays the league as its roster.csv has it (the bots
    // that came and went, before and after the resume): in place, the
    // run's files again, byte for byte.
    assert_rate_in_place_keeps(&run);
}

/// The files of a league's run folder that `arena rate` of its games
/// writes again (series.csv and roster.csv it leaves as they are).
fn rated_league_files() -> Vec<&'static str> {
    ["league.csv", "roster.csv"]
        .into_iter()
        .chain(SUMMARY_FILES)
        .collect()
}

/// `arena rate DIR/games.csv` into the run folder `dir` itself: it
/// succeeds and every file of [`rated_league_files`] is as the run wrote
/// it, byte for byte. Returns what it printed on stdout.
fn assert_rate_in_place_keeps(dir: &Path) -> String {
    let files = rated_league_files();
    let before = read_files(dir, &files);
    let rated = rate(&dir.join("games.csv"), &[]);
    assert_success(&rated);
    let after = read_files(dir, &files);
    for (f, (b, a)) in files.iter().zip(before.iter().zip(&after)) {
        assert!(b == a, "arena rate changed {f} of {}", dir.display());
    }
    stdout_of(&rated)
}

/// Whether `dir/league.csv` lists round `round` yet (whole lines only).
fn paired(dir: &Path, round: u32) -> bool {
    let text = std::fs::read_to_string(dir.join("league.csv")).unwrap_or_default();
    let whole = &text[..text.rfind('\n').map_or(0, |i| i + 1)];
    let start = format!("{round},");
    whole.lines().any(|l| l.starts_with(&start))
}

/// A league of 7 rounds of 5 bots in which a bot joins at round 3 and g2
/// leaves at round 5 (removed from the config while round 4 plays: round
/// 4 is its last), each by an atomic save of the config while the league
/// runs, as an organiser does (docs/formats.md, "League"). `arena rate`
/// of its folder replays it from its roster.csv: in place it writes every
/// file again as the run wrote it, byte for byte, and prints the run's
/// table; into another folder, the same files (series.csv aside, which
/// `arena rate` does not write) with roster.csv, which the report there
/// reads for the bot that left.
/// A games.csv whose game is not one of the league's pairings (edited) is
/// refused in one line, nothing written.
#[test]
fn arena_rate_replays_a_league_whose_bots_came_and_went() {
    let tmp = tempfile::tempdir().unwrap();
    let field = noisy_field(5, 4);
    let newbie = ("newbie", r#"["arena", "bot", "random", "--seed", "4"]"#);
    let header = "[board]\nholes = 6\n[tournament]\nformat = \"league\"\nrounds = 7\nconcurrency = 2\nseed = 3\n[ratings]\nbootstrap = 50\n";
    let text = |without: &str, extra: &[(&str, &str)]| league_text(header, &field, without, extra);
    let cfg = tmp.path().join("t.toml");
    std::fs::write(&cfg, text("", &[])).unwrap();
    let run = tmp.path().join("run");
    let (mut child, _) = start_league(&cfg, &run, false);
    // Round 2 paired (the config was read before it): saved now, the
    // bot joins at round 3, once round 2 is played.
    wait_until(&mut child, "round 2 paired", || paired(&run, 2));
    save_atomically(&cfg, &text("", &[newbie]));
    wait_until(&mut child, "round 4 paired", || paired(&run, 4));
    save_atomically(&cfg, &text("g2", &[newbie]));
    let output = child.wait_with_output().unwrap();
    assert_success(&output);
    let roster = rows(&run.join("roster.csv"));
    let stint = |bot: &str| {
        let r = roster.iter().find(|r| r["bot"] == bot).unwrap();
        (r["joined"].clone(), r["retired"].clone())
    };
    assert_eq!(stint("newbie"), ("3".to_string(), String::new()));
    assert_eq!(stint("g2"), ("1".to_string(), "4".to_string()));
    let rounds = rounds_of(&rows(&run.join("league.csv")));
    assert_eq!(rounds["newbie"], (3..=7).collect::<BTreeSet<u32>>());
    assert_eq!(rounds["g2"], (1..=4).collect::<BTreeSet<u32>>());
    let run_stdout = stdout_of(&output);
    assert!(
        run_stdout.contains(
            "retired, no longer paired (their games and ratings stay): g2 (after round 4)"
        ),
        "{run_stdout}"
    );

    // In place: every file again, byte for byte, and the run's table.
    assert_eq!(assert_rate_in_place_keeps(&run), run_stdout);
    // Into another folder: the same files, and roster.csv with them (the
    // report there marks g2 retired from it).
    let other = tmp.path().join("other");
    assert_success(&rate(
        &run.join("games.csv"),
        &["--out", other.to_str().unwrap()],
    ));
    assert_same_files(
        &run,
        &other,
        &[
            "league.csv",
            "roster.csv",
            "standings.csv",
            "pairwise.csv",
            "los.csv",
            "report.html",
            "standings.svg",
        ],
    );

    // A game that is not one of the league's pairings: its North renamed
    // to another bot of the league. Refused in one line, nothing written.
    let edited = tmp.path().join("edited");
    std::fs::create_dir(&edited).unwrap();
    for f in ["config.toml", "roster.csv"] {
        std::fs::copy(run.join(f), edited.join(f)).unwrap();
    }
    let games = std::fs::read_to_string(run.join("games.csv")).unwrap();
    let mut lines: Vec<String> = games.lines().map(String::from).collect();
    let header: Vec<&str> = lines[0].split(',').collect();
    let (south, north) = (
        header.iter().position(|c| *c == "south").unwrap(),
        header.iter().position(|c| *c == "north").unwrap(),
    );
    let last = lines.len() - 1;
    let mut cells: Vec<String> = lines[last].split(',').map(String::from).collect();
    let other_bot = ["g1", "g3", "g4"]
        .into_iter()
        .find(|b| *b != cells[south] && *b != cells[north])
        .unwrap();
    cells[north] = other_bot.to_string();
    lines[last] = cells.join(",");
    std::fs::write(edited.join("games.csv"), lines.join("\n") + "\n").unwrap();
    let refused = rate(&edited.join("games.csv"), &[]);
    let stderr = stderr_of(&refused);
    assert_eq!(refused.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
    assert_contains(
        &stderr,
        "is not a pairing of the league replayed from its config and roster.csv",
    );
    let mut left: Vec<String> = std::fs::read_dir(&edited)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(left, ["config.toml", "games.csv", "roster.csv"]);

    // The run's games rated into the edited folder, which holds games of
    // its own: refused in one line (its roster.csv and summaries are its
    // own), every file there as it was.
    let before: Vec<Vec<u8>> = left
        .iter()
        .map(|f| std::fs::read(edited.join(f)).unwrap())
        .collect();
    let refused = rate(&run.join("games.csv"), &["--out", edited.to_str().unwrap()]);
    let stderr = stderr_of(&refused);
    assert_eq!(refused.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
    assert_contains(&stderr, "holds another run's games.csv");
    let after: Vec<Vec<u8>> = left
        .iter()
        .map(|f| std::fs::read(edited.join(f)).unwrap())
        .collect();
    assert_eq!(before, after);
}
