//! `arena run --transcripts` against a bot that floods its standard output
//! within the protocol's caps (`fault-stdout-flood`: about 1 MB before each
//! move, just under the cap on one reply): the games end normally, blank
//! lines are counted rather than written one by one, each bot's share of a
//! transcript stops at its cap with a note saying how much was left out,
//! the run folder stays small, and so does the arena's memory (its peak
//! resident set, from `getrusage(RUSAGE_CHILDREN)` once it has exited).
//! No timing here. Build the fault bots first: `cargo build -p
//! endodoi-test-bots`.

// Unix only: getrusage of the children (docs/platforms.md, Windows).
#![cfg(unix)]

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use arena::bot::log::LOG_CAP_BYTES;
use arena::bot::transcript::TRANSCRIPT_CAP_BYTES;
use common::{arena_bot, assert_success, config, rows};

/// The flood's bytes before each move (the bot's default).
const FLOOD_BYTES: u64 = 1_000_000;
/// The blank lines the bot sends unasked with each `ready` (its default).
const UNASKED_BLANKS: u64 = 5_000;
/// A generous bound on the arena's peak resident set, kB: streamed, the
/// transcripts keep it near 18 MB (a debug build); held whole in memory,
/// a game's transcript took it to 65 MB on these two games.
const PEAK_RSS_KB: i64 = 40 * 1024;

fn arena() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_arena"))
}

/// Runs two games of `fault-stdout-flood ARGS` against a bundled bot with
/// `--transcripts`; returns the run folder and the peak resident set (kB)
/// of the children of this test process so far (the arenas of this file's
/// tests, and the bots they waited for: all small when all is well).
fn flood_run(tmp: &Path, args: &[&str]) -> (PathBuf, i64) {
    let built = arena().parent().unwrap().join("fault-stdout-flood");
    assert!(
        built.exists(),
        "{} is missing: run cargo build -p endodoi-test-bots",
        built.display()
    );
    let mut flood = vec![built.display().to_string()];
    flood.extend(args.iter().map(|a| a.to_string()));
    let bots = [("flood", flood), ("random", arena_bot("random", 7))];
    // A generous clock: a slow machine (or an unoptimised build) must not
    // turn the flood into timeouts.
    let cfg = config(
        tmp,
        "[board]\nholes = 4\n[time]\nmove_time_ms = 60000\n[tournament]\nfirst_to = 2\nmax_games = 2\n",
        &bots,
    );
    let out = tmp.join("run");
    let output = Command::new(arena())
        .args(["run", "--quiet", "--transcripts"])
        .arg(&cfg)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert_success(&output);
    let usage =
        nix::sys::resource::getrusage(nix::sys::resource::UsageWho::RUSAGE_CHILDREN).unwrap();
    (out, usage.max_rss())
}

/// The total size of the files under `dir`, bytes.
fn folder_size(dir: &Path) -> u64 {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            let meta = e.metadata().unwrap();
            if meta.is_dir() {
                folder_size(&e.path())
            } else {
                meta.len()
            }
        })
        .sum()
}

/// Each game's transcript, with the side (`S` or `N`) the flooder had and
/// the moves it made (from `games.csv`: plies alternate, South first).
fn games(out: &Path) -> Vec<(String, char, u64)> {
    let games = rows(&out.join("games.csv"));
    assert_eq!(games.len(), 2, "two games");
    games
        .iter()
        .map(|g| {
            assert!(
                ["no-moves", "ply-limit"].contains(&g["termination"].as_str()),
                "a flood within the caps is legal: {g:?}"
            );
            let side = if g["south"] == "flood" { 'S' } else { 'N' };
            let opening = g["opening"].split_whitespace().count() as u64;
            let plies: u64 = g["plies"].parse().unwrap();
            let first = u64::from(side == 'N');
            let moves = (opening..plies).filter(|p| p % 2 == first).count() as u64;
            let name = format!(
                "series-{:04}-game-{:03}.txt",
                g["series"].parse::<u32>().unwrap(),
                g["game"].parse::<u32>().unwrap()
            );
            let text = std::fs::read_to_string(out.join("transcripts").join(&name)).unwrap();
            (text, side, moves)
        })
        .collect()
}

/// The number in a line such as `S < (12,345 blank lines)`, if it is one.
fn blank_count(line: &str, side: char) -> Option<u64> {
    let rest = line.strip_prefix(&format!("{side} < ("))?;
    let n = rest
        .strip_suffix(" blank lines)")
        .or_else(|| rest.strip_suffix(" blank line)"))?;
    Some(n.replace(',', "").parse().unwrap())
}

#[test]
fn blank_lines_are_counted_and_the_arena_stays_small() {
    let tmp = tempfile::tempdir().unwrap();
    let (out, peak_kb) = flood_run(tmp.path(), &[]);
    let mut unasked_seen = false;
    for (text, side, moves) in games(&out) {
        let lines: Vec<&str> = text.lines().collect();
        assert!(
            !lines.iter().any(|l| l.trim_end().ends_with('<')),
            "no blank line is written one by one"
        );
        // Every blank line the bot sent in this game, counted: the flood
        // before each move, and those it sent unasked with its ready
        // (counted before the next request, or with its reply when they
        // arrived late).
        let counted: u64 = lines.iter().filter_map(|l| blank_count(l, side)).sum();
        assert_eq!(counted, UNASKED_BLANKS + moves * FLOOD_BYTES, "{text}");
        unasked_seen |= lines.windows(2).any(|w| {
            blank_count(w[0], side) == Some(UNASKED_BLANKS)
                && w[1].starts_with(&format!("{side} > turn "))
        });
        assert!(!text.contains(" # "), "nothing was cut: {text}");
    }
    assert!(
        unasked_seen,
        "the blank lines sent unasked are counted apart"
    );
    // The blank lines cost the folder nothing (it held 251 MB).
    let size = folder_size(&out);
    assert!(size < 1 << 20, "the run folder holds {size} bytes");
    assert!(
        peak_kb < PEAK_RSS_KB,
        "the arena's peak RSS was {peak_kb} kB"
    );
}

#[test]
fn info_lines_stop_at_the_cap_with_a_note_of_what_was_left_out() {
    let tmp = tempfile::tempdir().unwrap();
    let (out, peak_kb) = flood_run(tmp.path(), &["--info", "--unasked", "0"]);
    let info_lines = FLOOD_BYTES / "info flood\n".len() as u64;
    for (text, side, moves) in games(&out) {
        let mine: Vec<&str> = text
            .lines()
            .filter(|l| l.starts_with(&format!("{side} ")))
            .collect();
        let (notes, kept): (Vec<&str>, Vec<&str>) = mine
            .iter()
            .partition(|l| l.starts_with(&format!("{side} # ")));
        let kept_bytes: u64 = kept.iter().map(|l| l.len() as u64 + 1).sum();
        assert!(
            kept_bytes <= TRANSCRIPT_CAP_BYTES,
            "{kept_bytes} bytes kept"
        );
        assert_eq!(notes.len(), 2, "{notes:?}");
        let cut = format!("{side} # the transcript of {side} was cut here");
        assert!(notes[0].starts_with(&cut), "{notes:?}");
        assert_eq!(
            mine.iter().position(|l| l.starts_with(&cut)),
            Some(kept.len()),
            "the note is where the cut is"
        );
        assert_eq!(mine.last(), Some(&notes[1]), "{notes:?}");
        // How much was left out: every line the arena sent to the flooder
        // or read from it after the cut.
        let left: u64 = notes[1]
            .strip_prefix(&format!("{side} # left out after the cut: "))
            .and_then(|n| n.split(" lines").next())
            .unwrap_or_else(|| panic!("{notes:?}"))
            .replace(',', "")
            .parse()
            .unwrap();
        let handshake = if kept.iter().any(|l| l.contains("> hello ")) {
            2
        } else {
            0
        };
        // newgame, ready, per move: turn, the info lines, move; gameover.
        let sent = handshake + 2 + moves * (info_lines + 2) + 1;
        assert_eq!(kept.len() as u64 + left, sent, "{notes:?}");
    }
    // A few caps at most: the transcripts, and the flooder's log (its info
    // lines) at its own cap.
    let size = folder_size(&out);
    let bound = 2 * 2 * TRANSCRIPT_CAP_BYTES + 2 * LOG_CAP_BYTES + (1 << 20);
    assert!(size < bound, "the run folder holds {size} bytes");
    assert!(
        peak_kb < PEAK_RSS_KB,
        "the arena's peak RSS was {peak_kb} kB"
    );
}
