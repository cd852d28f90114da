//! `arena rate` streams `games.csv`: reading and tallying a file keeps no
//! row, so its peak heap is far below the file's size (collecting the rows
//! took about 7.5 times it). A counting global allocator measures the heap
//! of the test's thread, where the reading runs; no timing here.

mod common;
mod heap;

use common::{arena_bot, assert_success, config, run_arena};

#[global_allocator]
static GLOBAL: heap::Tracking = heap::Tracking;

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
    let before = heap::reset_peak();
    let out = f();
    (out, heap::peak() - before)
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
