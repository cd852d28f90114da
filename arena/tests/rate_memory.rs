//! `arena rate` streams `games.csv`: reading and tallying a file keeps no
//! row, so its peak heap is far below the file's size (collecting the rows
//! took about 7.5 times it). A counting global allocator measures the heap
//! of the test's thread, where the reading runs; no timing here.

mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use common::{arena_bot, assert_success, config, run_arena};

/// Tracks the live heap bytes of the calling thread, and their peak.
struct Tracking;

thread_local! {
    // Const-initialised Cells have no destructor, so the allocator may use them.
    static LIVE: Cell<i64> = const { Cell::new(0) };
    static PEAK: Cell<i64> = const { Cell::new(0) };
}

fn add(bytes: i64) {
    let _ = LIVE.try_with(|live| {
        live.set(live.get() + bytes);
        let _ = PEAK.try_with(|peak| peak.set(peak.get().max(live.get())));
    });
}

// SAFETY: every call is passed to the system allocator unchanged.
unsafe impl GlobalAlloc for Tracking {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        add(layout.size() as i64);
        System.alloc(layout)
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        add(-(layout.size() as i64));
        System.dealloc(ptr, layout);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        add(new_size as i64 - layout.size() as i64);
        System.realloc(ptr, layout, new_size)
    }
}

#[global_allocator]
static GLOBAL: Tracking = Tracking;

/// About 2 MB of real, replayable games: a run's games again and again,
/// each copy with new series numbers. Returns the file and its games.
fn big_file(tmp: &std::path::Path) -> (std::path::PathBuf, usize) {
    let bots = [
        ("greedy", arena_bot("greedy", 1)),
        ("random", arena_bot("random", 2)),
        ("first", arena_bot("first", 3)),
    ];
    let cfg = config(
        tmp,
        "[board]\nholes = 8\n[tournament]\nfirst_to = 100\nmax_games = 20\n",
        &bots,
    );
    let run = tmp.join("run");
    assert_success(&run_arena(&cfg, &run));
    let mut reader = csv::Reader::from_path(run.join("games.csv")).unwrap();
    let header = reader.headers().unwrap().clone();
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    let big = tmp.join("big.csv");
    let mut writer = csv::Writer::from_path(&big).unwrap();
    writer.write_record(&header).unwrap();
    let mut copies = 0u64;
    let mut bytes = 0usize;
    while bytes < 2_000_000 {
        for row in &rows {
            let series: u64 = row[0].parse().unwrap();
            let mut out: Vec<String> = row.iter().map(str::to_string).collect();
            out[0] = (copies * 3 + series).to_string();
            bytes += out.iter().map(|c| c.len() + 1).sum::<usize>();
            writer.write_record(&out).unwrap();
        }
        copies += 1;
    }
    writer.flush().unwrap();
    (big, rows.len() * copies as usize)
}

/// The peak heap bytes of `f` on this thread, above what was live before.
fn peak_of<T>(f: impl FnOnce() -> T) -> (T, i64) {
    let before = LIVE.with(Cell::get);
    PEAK.with(|p| p.set(before));
    let out = f();
    (out, PEAK.with(Cell::get) - before)
}

#[test]
fn rating_a_file_keeps_no_row_in_memory() {
    let tmp = tempfile::tempdir().unwrap();
    let (big, games) = big_file(tmp.path());
    let size = std::fs::metadata(&big).unwrap().len() as i64;
    let (rated, peak) = peak_of(|| arena::rate::read_games(&[&big], false).unwrap());
    assert_eq!(rated.games, games);
    assert!(
        peak < size / 2,
        "reading and tallying a {size}-byte games.csv peaked at {peak} heap bytes"
    );
}

#[test]
fn the_report_of_a_file_keeps_only_its_viewers_rows() {
    // The report's tables are tallied while the file streams; only the
    // games its viewer shows (here within 64 KiB of positions) are kept.
    let tmp = tempfile::tempdir().unwrap();
    let (big, games) = big_file(tmp.path());
    let size = std::fs::metadata(&big).unwrap().len() as i64;
    let (read, peak) = peak_of(|| arena::html::read_games(&[&big], 64 << 10).unwrap());
    assert_eq!(read.len(), games);
    assert!(
        peak < size / 4,
        "the report's reading of a {size}-byte games.csv peaked at {peak} heap bytes"
    );
}
