//! `arena tune`, end to end: the iterations through the match loop,
//! `tune.csv`, the options line, `--resume` on the same course (a torn
//! last row included), `--verify`, a fixed opponent, and a bad `[tune]`
//! table's one line.

mod common;

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::process::Output;

use common::{arena_at, assert_contains, rows, stderr_of, stdout_of, write_config};

/// A small, quick tuning of mcts's exploration; `extra` goes into `[tune]`.
fn config(pairs: u32, extra: &str, bots: &str) -> String {
    format!(
        r#"
[board]
holes = 4
seeds = 3
[tournament]
concurrency = 2
seed = 3
[openings]
plies_min = 1
plies_max = 3
[[bot]]
name = "m"
command = ["arena", "bot", "mcts", "--playouts", "20"]
{bots}
[tune]
bot = "m"
pairs = {pairs}
{extra}
[[tune.param]]
name = "exploration"
start = 2.0
min = 0.05
max = 3.0
c_end = 0.2
r_end = 0.5
"#
    )
}

/// A new temporary folder holding the config `text` as its `t.toml`.
fn folder_with(text: &str) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    write_config(tmp.path(), "t.toml", text);
    tmp
}

fn text(o: &Output) -> (String, String) {
    (stdout_of(o), stderr_of(o))
}

/// `tune.csv`'s rows by iteration.
fn by_iteration(dir: &Path) -> BTreeMap<u32, HashMap<String, String>> {
    rows(&dir.join("tune.csv"))
        .into_iter()
        .map(|r| (r["iteration"].parse().unwrap(), r))
        .collect()
}

#[test]
fn a_tuning_plays_a_pair_per_iteration_and_resumes_on_the_same_course() {
    let tmp = folder_with(&config(8, "", ""));
    let out = arena_at(
        tmp.path(),
        &["tune", "t.toml", "--out", "run", "--verify", "4"],
    );
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stdout.contains("[[bot]] options = { exploration = "),
        "{stdout}"
    );
    assert_contains(&stdout, "verify: ");
    let run = tmp.path().join("run");
    let first = by_iteration(&run);
    assert_eq!(
        first.keys().copied().collect::<Vec<_>>(),
        (1..=8).collect::<Vec<_>>()
    );
    for (k, row) in &first {
        // One colour-swapped pair between the two sides, as its row says.
        let games = rows(&run.join(format!("iterations/{k:06}/games.csv")));
        assert_eq!(games.len(), 2);
        assert_eq!(games[0]["south"], games[1]["north"]);
        let n = |c: &str| row[c].parse::<i64>().unwrap();
        assert_eq!(n("wins") + n("draws") + n("losses"), 2);
        assert_eq!(
            (n("wins") - n("losses")) as f64,
            row["result"].parse::<f64>().unwrap()
        );
        let (plus, minus) = (&row["exploration_plus"], &row["exploration_minus"]);
        assert_ne!(plus, minus);
    }
    // Iterations of one batch (concurrency 2) start from the same theta.
    assert_eq!(first[&3]["exploration"], first[&4]["exploration"]);
    assert_eq!(first[&1]["exploration"], "2");
    let svg = std::fs::read_to_string(run.join("tune.svg")).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("exploration"));
    let verify = rows(&run.join("verify/games.csv"));
    assert_eq!(verify.len(), 4);
    // A second verification of the finished tuning keeps the first.
    let again = arena_at(
        tmp.path(),
        &["tune", "t.toml", "--resume", "run", "--verify", "2"],
    );
    assert!(again.status.success(), "{}", text(&again).1);
    assert_eq!(rows(&run.join("verify/games.csv")).len(), 4);
    assert_eq!(rows(&run.join("verify-2/games.csv")).len(), 2);
    // arena serve of the tuning's folder points to its report.
    let serve = arena_at(tmp.path(), &["serve", "run", "--addr", "127.0.0.1:0"]);
    assert!(!serve.status.success());
    assert!(
        text(&serve)
            .1
            .contains("is a tuning's folder: open its report.html"),
        "{}",
        text(&serve).1
    );

    // Cut the file to iterations 1-4 and a torn row, as a kill -9 would
    // leave it: the resume plays 5-8 from the theta those four give.
    let copy = tmp.path().join("copy");
    std::fs::create_dir(&copy).unwrap();
    for f in ["config.toml", "config-dir", "shard", "tune-batch"] {
        std::fs::copy(run.join(f), copy.join(f)).unwrap();
    }
    let csv = std::fs::read_to_string(run.join("tune.csv")).unwrap();
    let mut lines = csv.lines();
    let mut kept = format!("{}\n", lines.next().unwrap());
    for line in lines {
        let k: u32 = line.split(',').next().unwrap().parse().unwrap();
        if k <= 4 {
            kept.push_str(line);
            kept.push('\n');
        }
    }
    kept.push_str("5,2.01");
    std::fs::write(copy.join("tune.csv"), kept).unwrap();
    let again = arena_at(tmp.path(), &["tune", "t.toml", "--resume", "copy"]);
    assert!(again.status.success(), "{}", text(&again).1);
    let second = by_iteration(&copy);
    assert_eq!(second.len(), 8);
    for k in 1..=8 {
        for column in ["exploration_delta", "exploration_c", "exploration_a"] {
            assert_eq!(
                first[&k][column], second[&k][column],
                "iteration {k}'s {column}"
            );
        }
    }
    for k in 1..=4 {
        assert_eq!(first[&k], second[&k]);
    }
    // The first resumed batch starts from the theta the kept results give.
    assert_eq!(first[&5]["exploration"], second[&5]["exploration"]);
}

#[test]
fn an_opponent_plays_a_pair_against_each_side() {
    let greedy = "[[bot]]\nname = \"g\"\ncommand = [\"arena\", \"bot\", \"greedy\"]\n";
    let tmp = folder_with(&config(2, "opponent = \"g\"", greedy));
    let out = arena_at(tmp.path(), &["tune", "t.toml", "--out", "run"]);
    assert!(out.status.success(), "{}", text(&out).1);
    let run = tmp.path().join("run");
    for k in 1..=2 {
        for side in ["plus", "minus"] {
            let games = rows(&run.join(format!("iterations/{k:06}/{side}/games.csv")));
            assert_eq!(games.len(), 2);
            assert!(games.iter().all(|g| g["south"] == "g" || g["north"] == "g"));
        }
    }
    assert_eq!(by_iteration(&run).len(), 2);
}

#[test]
fn a_bad_tune_table_is_one_line_with_the_place_and_the_fix() {
    let tmp = folder_with(&config(8, "", "").replace("start = 2.0", "start = 5.0"));
    let out = arena_at(tmp.path(), &["tune", "t.toml", "--out", "run"]);
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with(
            "error: t.toml:21:9: [[tune.param]] exploration: start = 5 is outside min..max"
        ),
        "{stderr}"
    );
    // A config without [tune] gets the tuning's line, not the tournament's.
    let plain = config(8, "", "");
    let plain = &plain[..plain.find("[tune]").unwrap()];
    std::fs::write(tmp.path().join("plain.toml"), plain).unwrap();
    let out = arena_at(tmp.path(), &["tune", "plain.toml", "--out", "plain"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out)
            .1
            .contains("plain.toml: no [tune] table: add [tune]"),
        "{}",
        text(&out).1
    );
    // arena run does not play a tuning's one bot.
    std::fs::write(tmp.path().join("one.toml"), config(2, "", "")).unwrap();
    let out = arena_at(tmp.path(), &["run", "one.toml", "--out", "one"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out).1.contains("arena tune one.toml"),
        "{}",
        text(&out).1
    );
    // A tuned option the bot does not list is refused before any game: the
    // budget would move a value the bot ignores.
    let unknown = config(1, "", "").replace("\"exploration\"", "\"explore\"");
    std::fs::write(tmp.path().join("u.toml"), unknown).unwrap();
    let out = arena_at(tmp.path(), &["tune", "u.toml", "--out", "u"]);
    let (_, stderr) = text(&out);
    assert!(!out.status.success(), "{stderr}");
    assert_contains(&stderr, "which the bot does not list");
    assert!(
        stderr.contains("does not list option explore in its hello reply")
            && stderr.contains("fix the [[tune.param]] name"),
        "{stderr}"
    );
    let rows = std::fs::read_to_string(tmp.path().join("u/tune.csv")).unwrap_or_default();
    assert!(rows.lines().count() <= 1, "no iteration played: {rows}");
}

/// The rows of `tune.csv`, sorted by iteration, as text.
#[cfg(unix)]
fn sorted_rows(dir: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(dir.join("tune.csv")).unwrap();
    let mut rows: Vec<String> = text.lines().skip(1).map(String::from).collect();
    rows.sort_by_key(|r| r.split(',').next().unwrap().parse::<u32>().unwrap());
    rows
}

/// Killed (SIGKILL to its process group) with some iterations written and
/// resumed, a tuning writes the very rows of one run: mcts with a playout
/// count plays reproducibly, so the same course gives the same games.
#[cfg(unix)]
#[test]
fn a_tuning_killed_mid_course_resumes_to_the_same_rows() {
    use nix::sys::signal::{kill, Signal};
    use nix::unistd::Pid;
    use std::os::unix::process::CommandExt as _;
    use std::process::Stdio;
    use std::time::{Duration, Instant};

    let tmp = folder_with(&config(16, "", "").replace("\"20\"", "\"300\""));
    let whole = arena_at(tmp.path(), &["tune", "t.toml", "--out", "whole"]);
    assert!(whole.status.success(), "{}", text(&whole).1);

    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(["tune", "t.toml", "--out", "run"])
        .current_dir(tmp.path())
        .process_group(0)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let run = tmp.path().join("run");
    let written = || {
        std::fs::read_to_string(run.join("tune.csv"))
            .map(|t| t.lines().count().saturating_sub(1))
            .unwrap_or(0)
    };
    let deadline = Instant::now() + Duration::from_secs(120);
    while written() < 4 {
        if let Some(status) = child.try_wait().unwrap() {
            panic!("the tuning ended ({status}) before its fourth row");
        }
        assert!(Instant::now() < deadline, "no fourth row in 120 s");
        std::thread::sleep(Duration::from_millis(2));
    }
    kill(Pid::from_raw(-(child.id() as i32)), Signal::SIGKILL).unwrap();
    child.wait().unwrap();
    assert!(written() < 16, "the tuning finished before the kill");
    let again = arena_at(tmp.path(), &["tune", "t.toml", "--resume", "run"]);
    assert!(again.status.success(), "{}", text(&again).1);
    assert_eq!(sorted_rows(&tmp.path().join("whole")), sorted_rows(&run));
    assert_eq!(text(&whole).0, text(&again).0, "the same tuned values");
}

#[test]
fn the_report_shows_each_parameters_course_the_values_and_the_verdict() {
    // Two parameters: mcts's exploration and its rollout plies (an integer).
    let cfg = config(8, "", "")
        + "\n[[tune.param]]\nname = \"rollout_plies\"\nstart = 3\nmin = 0\nmax = 20\ninteger = true\nc_end = 2\nr_end = 0.05\n";
    let tmp = folder_with(&cfg);
    let out = arena_at(
        tmp.path(),
        &["tune", "t.toml", "--out", "run", "--verify", "4"],
    );
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(!stderr.contains("does not list"), "{stderr}");
    let html = std::fs::read_to_string(tmp.path().join("run/report.html")).unwrap();
    assert_contains(&html, "<section id=\"tuning\">");
    assert!(html.contains("8 of 8 iterations played"));
    // The options line and the verdict, as the console printed them.
    let line = stdout
        .lines()
        .find(|l| l.starts_with("[[bot]] options = "))
        .unwrap();
    assert!(html.contains(line), "{line} not in the report");
    let verdict = stdout.lines().find(|l| l.starts_with("verify: ")).unwrap();
    assert!(html.contains(verdict), "{verdict} not in the report");
    assert!(html.contains("id=\"match\""), "the verification's section");
    // The course table: θ after 0, 2, 4, 6 and 8 iterations (batches of
    // 2), for both parameters; the θ each batch was played from is
    // tune.csv's.
    let table = &html[html.find("tune-course").unwrap()..];
    let table = &table[..table.find("</table>").unwrap()];
    for k in [0, 2, 4, 6, 8] {
        assert_contains(table, &format!("<th class=\"num\">{k}</th>"));
    }
    let rows = by_iteration(&tmp.path().join("run"));
    for name in ["exploration", "rollout_plies"] {
        let theta: f64 = rows[&5][name].parse().unwrap();
        let cell = format!("{theta:.4}");
        let cell = cell.trim_end_matches('0').trim_end_matches('.');
        let row = &table[table.find(&format!("<code>{name}</code>")).unwrap()..];
        let row = &row[..row.find("</tr>").unwrap()];
        assert_eq!(row.matches("<td class=\"num\">").count(), 5, "{row}");
        assert!(row.contains(&format!(">{cell}<")), "{cell} not in {row}");
    }
    // The chart of both courses, inline.
    assert!(html.contains("<svg") && html.matches("rollout_plies").count() >= 3);
}

/// A resume refuses, in one line and without a panic, a `tune.csv` or
/// `tune-batch` it cannot trust: a batch of 0, a missing batch file once
/// rows exist, an iteration outside the budget or there twice, a row that
/// is not one pair's.
#[test]
fn a_resume_refuses_files_it_cannot_trust() {
    let tmp = folder_with(&config(4, "", ""));
    let out = arena_at(tmp.path(), &["tune", "t.toml", "--out", "run"]);
    assert!(out.status.success(), "{}", text(&out).1);
    let run = tmp.path().join("run");
    let csv = std::fs::read_to_string(run.join("tune.csv")).unwrap();
    let (head, rows) = csv.split_once('\n').unwrap();
    let first = rows.lines().next().unwrap();
    let swap_first = |field: usize, value: &str| {
        let mut cells: Vec<&str> = first.split(',').collect();
        let at = if field == usize::MAX {
            cells.len() - 1
        } else {
            field
        };
        cells[at] = value;
        format!("{head}\n{}\n", cells.join(","))
    };
    let cases: Vec<(&str, Option<String>, Option<&str>, &str)> = vec![
        (
            "batch0",
            None,
            Some("0\n"),
            "is not a number of iterations at once",
        ),
        ("nobatch", None, None, "tune-batch is missing"),
        (
            "iter0",
            Some(swap_first(0, "0")),
            Some("2\n"),
            "iteration 0 is not one of 1 to 4",
        ),
        (
            "iter9",
            Some(swap_first(0, "9")),
            Some("2\n"),
            "iteration 9 is not one of 1 to 4",
        ),
        (
            "twice",
            Some(format!("{head}\n{first}\n{first}\n")),
            Some("2\n"),
            "is there twice",
        ),
        (
            "result",
            Some(swap_first(usize::MAX, "7")),
            Some("2\n"),
            "two games and a result from -4 to 4",
        ),
    ];
    for (name, csv_text, batch, said) in cases {
        let copy = tmp.path().join(name);
        std::fs::create_dir(&copy).unwrap();
        for f in ["config.toml", "config-dir", "shard", "tune.csv"] {
            std::fs::copy(run.join(f), copy.join(f)).unwrap();
        }
        if let Some(t) = csv_text {
            std::fs::write(copy.join("tune.csv"), t).unwrap();
        }
        if let Some(b) = batch {
            std::fs::write(copy.join("tune-batch"), b).unwrap();
        }
        let out = arena_at(tmp.path(), &["tune", "t.toml", "--resume", name]);
        let (_, stderr) = text(&out);
        assert_eq!(out.status.code(), Some(2), "{name}: {stderr}");
        assert!(stderr.contains(said), "{name}: {stderr}");
        assert!(!stderr.contains("panicked"), "{name}: {stderr}");
    }
}
