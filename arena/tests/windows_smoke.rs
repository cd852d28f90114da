//! What the arena promises on every platform, Windows included, with
//! nothing but the arena binary and its bundled bots (no Python, no shell,
//! no test bots): `arena check` of a bundled bot; a small round robin of
//! real bot processes through pipes; `arena rate` and `arena replay` of its
//! `games.csv`. On Windows (CI runs this file under Wine, docs/platforms.md)
//! also the Job Object's promise: the arena killed outright takes its bots,
//! and what they started, with it.

mod common;

use common::{
    arena_at, assert_ends_with, assert_played_out, assert_success, config, games_without_timing,
    series_and_games, stdout_of, SUMMARY_FILES,
};

#[test]
fn a_bundled_bot_passes_arena_check() {
    let tmp = tempfile::tempdir().unwrap();
    let out = arena_at(
        tmp.path(),
        &["check", "--", "arena", "bot", "greedy", "--seed", "5"],
    );
    let stdout = stdout_of(&out);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert_ends_with(&stdout, "all 9 checks passed\n");
    assert_eq!(stdout.matches("\nPASS  ").count(), 9, "{stdout}");
}

#[test]
fn a_round_robin_of_bundled_bots_is_played_rated_and_replayed() {
    let tmp = tempfile::tempdir().unwrap();
    let (holes, seeds) = (6u32, 4u32);
    let header = format!(
        "[board]\nholes = {holes}\nseeds = {seeds}\n[tournament]\nfirst_to = 2\nconcurrency = 2\nseed = 11\n[limits]\nmemory_mb = 512\ncpu_seconds = 60\n"
    );
    let bot = |name: &str, seed: u64| -> Vec<String> {
        ["arena", "bot", name, "--seed", &seed.to_string()]
            .map(String::from)
            .to_vec()
    };
    let bots = [
        ("greedy", bot("greedy", 1)),
        ("random", bot("random", 2)),
        ("first", bot("first", 3)),
    ];
    let cfg = config(tmp.path(), &header, &bots);
    let run = arena_at(
        tmp.path(),
        &["run", &cfg.display().to_string(), "--out", "run", "--quiet"],
    );
    assert_success(&run);
    let dir = tmp.path().join("run");

    // Three series, each played in whole pairs until a bot has 2 wins.
    let (series, games) = series_and_games(&dir);
    assert_eq!(series.len(), 3, "{series:?}");
    for s in &series {
        let wins = [&s["wins_a"], &s["wins_b"]].map(|w| w.parse::<u32>().unwrap());
        assert!(wins.iter().any(|&w| w >= 2), "{s:?}");
        assert_eq!(s["decided"], "true", "{s:?}");
    }
    assert_played_out(&games, 2 * holes * seeds);

    // `arena rate` of the games alone gives the run's summaries again.
    let rated = tmp.path().join("rated");
    std::fs::create_dir(&rated).unwrap();
    std::fs::copy(dir.join("games.csv"), rated.join("games.csv")).unwrap();
    let rate = arena_at(
        tmp.path(),
        &["rate", "rated/games.csv", "--out", "rated", "--seed", "11"],
    );
    assert_success(&rate);
    for file in SUMMARY_FILES.iter().filter(|f| rated.join(f).exists()) {
        assert_eq!(
            std::fs::read_to_string(rated.join(file)).unwrap(),
            std::fs::read_to_string(dir.join(file)).unwrap(),
            "{file}"
        );
    }
    assert!(rated.join("standings.csv").exists());
    assert_eq!(games_without_timing(&rated), games_without_timing(&dir));

    // `arena replay` of a game ends with the row's final count.
    let first = &games[0];
    let replay = arena_at(
        tmp.path(),
        &[
            "replay",
            "--games",
            "run/games.csv",
            "--series",
            &first["series"],
            "--game",
            &first["game"],
        ],
    );
    assert_success(&replay);
    let text = stdout_of(&replay);
    assert!(
        text.contains(&first["south_seeds"]) && text.contains(&first["north_seeds"]),
        "{text}"
    );
}

/// Windows: the arena killed outright (TerminateProcess, as Task Manager
/// or `taskkill /F` do) takes its bots with it, and a process a bot
/// started too: each bot's Job Object ends everything in it when its last
/// handle, the arena's, closes.
#[cfg(windows)]
#[test]
fn killing_the_arena_ends_its_bots_and_their_children() {
    use std::time::{Duration, Instant};
    let tmp = tempfile::tempdir().unwrap();
    // Each bot is `cmd /c arena serve DIR`: cmd.exe and, below it, a
    // process that never reads its input and never ends by itself (a live
    // view of a run with no games), so only the job can end either.
    let exe = env!("CARGO_BIN_EXE_arena");
    // In Windows' own spelling (drive, backslashes), which cmd.exe needs.
    let exe_path = std::path::absolute(exe).unwrap().display().to_string();
    let served = tmp.path().join("served");
    std::fs::create_dir(&served).unwrap();
    let header = "series,game,pair,opening,south,north,holes,seeds,max_laps,max_plies,moves,plies,south_seeds,north_seeds,result,termination,detail,duration_ms\n";
    std::fs::write(served.join("games.csv"), header).unwrap();
    let served = served.display().to_string();
    let bot = || -> Vec<String> {
        ["cmd", "/c", &exe_path, "serve", &served]
            .map(String::from)
            .to_vec()
    };
    let header = "[board]\nholes = 6\nseeds = 4\n[time]\nstartup_ms = 600000\n";
    let cfg = config(tmp.path(), header, &[("a", bot()), ("b", bot())]);
    let mut run = std::process::Command::new(exe)
        .current_dir(tmp.path())
        .args(["run", &cfg.display().to_string(), "--out", "run", "--quiet"])
        .stdout(std::process::Stdio::null())
        .stderr(std::fs::File::create(tmp.path().join("stderr.txt")).unwrap())
        .spawn()
        .unwrap();
    // Both bots running, in their jobs: a process below each cmd.exe (a
    // bot starts suspended and runs only once in its job).
    let deadline = Instant::now() + Duration::from_secs(60);
    let below = loop {
        let below = processes::descendants(run.id());
        if below.iter().filter(|(_, depth)| *depth >= 2).count() >= 2 {
            break below;
        }
        assert!(
            Instant::now() < deadline,
            "the bots did not start: {below:?}; the arena: {:?}, {}",
            run.try_wait(),
            std::fs::read_to_string(tmp.path().join("stderr.txt")).unwrap_or_default()
        );
        std::thread::yield_now();
    };
    // The arena and the bots' own processes still run: only the kill ends them.
    assert_eq!(run.try_wait().unwrap(), None);
    for (pid, _) in below.iter().filter(|(_, depth)| *depth >= 2) {
        assert!(!processes::ends_within(*pid, Duration::ZERO), "{pid} ended");
    }
    run.kill().unwrap();
    run.wait().unwrap();
    for (pid, _) in below {
        assert!(
            processes::ends_within(pid, Duration::from_secs(30)),
            "process {pid}, started below the arena, outlived it"
        );
    }
}

/// The process table of Windows (Toolhelp), for the test above.
#[cfg(windows)]
mod processes {
    use std::time::Duration;

    use windows_sys::Win32::Foundation::{CloseHandle, INVALID_HANDLE_VALUE, WAIT_OBJECT_0};
    use windows_sys::Win32::System::Diagnostics::ToolHelp::{
        CreateToolhelp32Snapshot, Process32FirstW, Process32NextW, PROCESSENTRY32W,
        TH32CS_SNAPPROCESS,
    };
    use windows_sys::Win32::System::Threading::{
        OpenProcess, WaitForSingleObject, PROCESS_SYNCHRONIZE,
    };

    /// Every (pid, parent pid) now.
    fn table() -> Vec<(u32, u32)> {
        // SAFETY: plain calls; the snapshot is closed at the end.
        unsafe {
            let snap = CreateToolhelp32Snapshot(TH32CS_SNAPPROCESS, 0);
            assert!(snap != INVALID_HANDLE_VALUE, "no process snapshot");
            let mut entry = PROCESSENTRY32W {
                dwSize: std::mem::size_of::<PROCESSENTRY32W>() as u32,
                ..std::mem::zeroed()
            };
            let mut all = Vec::new();
            let mut more = Process32FirstW(snap, &mut entry) != 0;
            while more {
                all.push((entry.th32ProcessID, entry.th32ParentProcessID));
                more = Process32NextW(snap, &mut entry) != 0;
            }
            CloseHandle(snap);
            all
        }
    }

    /// The processes below `root` with their depth (1: its children).
    pub fn descendants(root: u32) -> Vec<(u32, usize)> {
        let table = table();
        let mut found = vec![(root, 0)];
        let mut i = 0;
        while i < found.len() {
            let (parent, depth) = found[i];
            let children: Vec<(u32, usize)> = table
                .iter()
                .filter(|(pid, ppid)| *ppid == parent && found.iter().all(|(f, _)| f != pid))
                .map(|(pid, _)| (*pid, depth + 1))
                .collect();
            found.extend(children);
            i += 1;
        }
        found.remove(0);
        found
    }

    /// Whether process `pid` has ended, or ends within `limit`.
    pub fn ends_within(pid: u32, limit: Duration) -> bool {
        // SAFETY: plain calls; the handle is closed before returning.
        unsafe {
            let process = OpenProcess(PROCESS_SYNCHRONIZE, 0, pid);
            if process.is_null() {
                return true; // Gone already.
            }
            let waited = WaitForSingleObject(process, limit.as_millis() as u32);
            CloseHandle(process);
            waited == WAIT_OBJECT_0
        }
    }
}
