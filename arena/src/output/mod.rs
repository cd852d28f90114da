//! The formats of a run folder: the row types of its CSV files
//! ([`rows`]), `games.csv`'s one reader and one writer ([`games`]), the
//! checks `arena rate` and `arena merge` make of its rows ([`checks`]),
//! the folder itself with its lifecycle ([`folder`]), and the console's
//! tables ([`table`]), and endgame tables on disk ([`tablebase`]). `games.csv` is appended and synced game by game,
//! a league's `league.csv` round by round ([`league`]);
//! `series.csv`, `standings.csv` and the other summaries are written whole
//! to a temporary file and renamed over the old one, so a reader never sees
//! half a file.

pub mod checks;
pub mod folder;
pub mod games;
pub mod league;
pub mod roster;
pub mod rows;
pub mod table;
pub mod tablebase;

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};

pub use checks::{CheckError, Duplicates, RowChecks};
pub use folder::{FolderError, RunFolder, RunLock};
pub use games::{
    merge_games, read_games, GamesCsv, GamesError, GamesRead, GamesReader, Merged, MergedGame,
    ReadPoint, TornLine,
};
pub use league::LeagueCsv;
/// The declaration of a row type, for the other files here that declare one
/// (roster.rs).
use rows::csv_row;
pub use rows::{
    AnalysisRow, CsvRow, GameAnalysisRow, GameRow, KnockoutRow, LeagueRow, MatchRow, PairwiseRow,
    SeriesRow, SprtRow, StandingRow, SwissStandingRow, GAMES_COLUMNS, KNOCKOUT_COLUMNS,
    LEAGUE_COLUMNS, MATCH_COLUMNS, PAIRWISE_COLUMNS, SERIES_COLUMNS, SPRT_COLUMNS,
    STANDINGS_COLUMNS, SWISS_COLUMNS,
};

/// The CSV file of row type `R` in a folder (as [`CsvRow::FILE`]),
/// written row by row into a temporary file beside it and renamed over
/// the old one once whole ([`RowsFile::finish`]): the bytes
/// [`write_rows`] writes for the same rows, without holding them all
/// (`series.csv` of a league of any length). Dropped unfinished, the
/// temporary file goes and the old file stays.
pub struct RowsFile<R> {
    /// The rows so far; `None` once finished.
    writer: Option<csv::Writer<io::BufWriter<File>>>,
    tmp: PathBuf,
    path: PathBuf,
    rows: std::marker::PhantomData<R>,
}

impl<R: CsvRow> RowsFile<R> {
    /// Starts `dir`'s file of rows `R` with its header row.
    ///
    /// # Errors
    /// An I/O error creating or writing the temporary file.
    pub fn create(dir: &Path) -> io::Result<RowsFile<R>> {
        let path = dir.join(R::FILE);
        let mut tmp = path.as_os_str().to_owned();
        tmp.push(".tmp");
        let tmp = PathBuf::from(tmp);
        let file = File::create(&tmp).map_err(|e| write_error(&path, e))?;
        let mut rows = RowsFile {
            writer: Some(
                csv::WriterBuilder::new()
                    .has_headers(false)
                    .from_writer(io::BufWriter::new(file)),
            ),
            tmp,
            path,
            rows: std::marker::PhantomData,
        };
        rows.write(|w| w.write_record(R::COLUMNS))?;
        Ok(rows)
    }

    /// Appends `row`.
    ///
    /// # Errors
    /// An I/O error writing the temporary file.
    pub fn push(&mut self, row: &R) -> io::Result<()> {
        self.write(|w| w.serialize(row))
    }

    /// Writes with `write`, its error that of the file.
    fn write(
        &mut self,
        write: impl FnOnce(&mut csv::Writer<io::BufWriter<File>>) -> csv::Result<()>,
    ) -> io::Result<()> {
        let Some(writer) = self.writer.as_mut() else {
            return Ok(());
        };
        write(writer).map_err(|e| write_error(&self.path, e.into()))
    }

    /// Puts the file in place of the old one: synced, then renamed.
    ///
    /// # Errors
    /// An I/O error writing, syncing or renaming the temporary file (which
    /// then goes; the old file stays).
    pub fn finish(mut self) -> io::Result<()> {
        let Some(writer) = self.writer.take() else {
            return Ok(());
        };
        let done = (|| {
            let file = writer.into_inner().map_err(|e| e.into_error())?;
            let file = file.into_inner().map_err(|e| e.into_error())?;
            file.sync_all()?;
            drop(file);
            std::fs::rename(&self.tmp, &self.path)
        })();
        if let Err(source) = done {
            let _ = std::fs::remove_file(&self.tmp);
            return Err(write_error(&self.path, source));
        }
        if let Some(dir) = self.path.parent() {
            // Make the rename itself durable.
            if let Ok(d) = File::open(dir) {
                let _ = d.sync_all();
            }
        }
        Ok(())
    }
}

impl<R> Drop for RowsFile<R> {
    fn drop(&mut self) {
        if self.writer.take().is_some() {
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}

/// `source`, writing `path`: an [`io::Error`] of its kind holding a
/// [`WriteError`], as [`write_bytes_atomic`] returns.
fn write_error(path: &Path, source: io::Error) -> io::Error {
    io::Error::new(
        source.kind(),
        WriteError {
            path: path.to_path_buf(),
            cause: source,
        },
    )
}

/// Writes the CSV file of row type `R` whole into `dir` (as
/// [`CsvRow::FILE`]): its header, then `rows`, through a temporary file
/// renamed over the old one ([`write_bytes_atomic`]).
///
/// # Errors
/// Any I/O error; the file is then unchanged.
pub fn write_rows<R: CsvRow>(dir: &Path, rows: &[R]) -> io::Result<()> {
    write_rows_at(&dir.join(R::FILE), rows)
}

/// Writes the rows of type `R` as the whole of `path`, whatever its name:
/// the header [`CsvRow::COLUMNS`], then `rows`, through a temporary file
/// renamed over the old one ([`write_bytes_atomic`]).
///
/// # Errors
/// Any I/O error, naming the file; `path` is then unchanged.
pub fn write_rows_at<R: CsvRow>(path: &Path, rows: &[R]) -> io::Result<()> {
    let mut writer = csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(Vec::new());
    writer.write_record(R::COLUMNS)?;
    for row in rows {
        writer.serialize(row)?;
    }
    let bytes = writer.into_inner().map_err(|e| e.into_error())?;
    write_bytes_atomic(path, &bytes)
}

/// Writes a CSV file whole from plain records (`los.csv`, whose columns
/// depend on the bots): rows go to `NAME.tmp`, which is synced and then
/// renamed over `path`, so readers see the old file or the new one, never half.
///
/// # Errors
/// Any I/O error; `path` is then unchanged.
pub fn write_atomic(path: &Path, header: &[&str], rows: &[Vec<String>]) -> io::Result<()> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    writer.write_record(header)?;
    for row in rows {
        writer.write_record(row)?;
    }
    let bytes = writer.into_inner().map_err(|e| e.into_error())?;
    write_bytes_atomic(path, &bytes)
}

/// Writes `bytes` as the whole of `path`: they go to `path` with `.tmp`
/// added to its extension (`report.html.tmp`), which is synced and then
/// renamed over `path`, so readers see the old file or the new one, never
/// half of one.
///
/// # Errors
/// Any I/O error, of its kind, as a [`WriteError`] that names `path` (a
/// full disk says which file it was writing); `path` is then unchanged and
/// the `.tmp` file is removed.
pub fn write_bytes_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_atomic_with(path, |file| {
        use std::io::Write as _;
        file.write_all(bytes)
    })
}

/// A file that could not be written: its path and the I/O error, inside
/// the [`io::Error`] of the same kind that [`write_bytes_atomic`] returns.
/// Its message says the cause, so the cause is not also its `source()`
/// (a chain printed whole would say it twice).
#[derive(Debug, thiserror::Error)]
#[error("cannot write {}: {cause}", path.display())]
pub struct WriteError {
    /// The file meant.
    pub path: PathBuf,
    /// What failed.
    pub cause: io::Error,
}

/// [`write_bytes_atomic`] with the contents written by `fill`, into the
/// temporary file (a test makes it fail as a full disk would).
fn write_atomic_with(
    path: &Path,
    fill: impl FnOnce(&mut File) -> io::Result<()>,
) -> io::Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    let written = (|| {
        let mut file = File::create(&tmp)?;
        fill(&mut file)?;
        file.sync_all()?;
        drop(file);
        std::fs::rename(&tmp, path)
    })();
    if let Err(source) = written {
        // The file as it was stays; the half-written copy goes.
        let _ = std::fs::remove_file(&tmp);
        return Err(write_error(path, source));
    }
    if let Some(dir) = path.parent() {
        // Make the rename itself durable.
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
    }
    Ok(())
}

/// A finite number with `decimals` decimals; the CSV never holds NaN or inf.
#[must_use]
pub fn num(x: f64, decimals: usize) -> String {
    let x = if x.is_finite() { x } else { 0.0 };
    let s = format!("{x:.decimals$}");
    // "-0.0" reads oddly in a table.
    if s.trim_start_matches('-')
        .chars()
        .all(|c| c == '0' || c == '.')
    {
        s.trim_start_matches('-').to_string()
    } else {
        s
    }
}

/// `n` and the word for what is counted, in the singular when `n` is 1:
/// `counted(1, "ply", "plies")` is `1 ply`, `counted(2, ...)` `2 plies`.
/// Every message that counts games, pairs, plies, moves, shards... says it
/// through this.
#[must_use]
pub fn counted(n: impl std::fmt::Display, one: &str, many: &str) -> String {
    let n = n.to_string();
    if n == "1" {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_is_counted_in_the_singular() {
        assert_eq!(counted(1u32, "ply", "plies"), "1 ply");
        assert_eq!(counted(0usize, "game", "games"), "0 games");
        assert_eq!(counted(2u64, "pair", "pairs"), "2 pairs");
        assert_eq!(counted(11, "game", "games"), "11 games");
    }

    #[test]
    fn numbers_are_always_finite() {
        assert_eq!(num(f64::NAN, 1), "0.0");
        assert_eq!(num(f64::INFINITY, 2), "0.00");
        assert_eq!(num(-0.01, 1), "0.0");
        assert_eq!(num(-12.345, 1), "-12.3");
        assert_eq!(num(40.704, 2), "40.70");
    }

    #[test]
    fn atomic_write_replaces_whole_files() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.csv");
        write_atomic(&path, &["a", "b"], &[vec!["1".into(), "2".into()]]).unwrap();
        write_atomic(&path, &["a", "b"], &[vec!["3".into(), "4,5".into()]]).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "a,b\n3,\"4,5\"\n");
        assert!(!dir.path().join("x.csv.tmp").exists());
    }

    /// A write that fails half-way (as on a full disk) names the file,
    /// leaves the old one as it was and removes the temporary file.
    #[test]
    fn a_failed_write_names_the_file_and_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("report.html");
        std::fs::write(&path, "old").unwrap();
        let err = write_atomic_with(&path, |file| {
            use std::io::Write as _;
            file.write_all(b"half")?;
            Err(io::Error::new(
                io::ErrorKind::StorageFull,
                "No space left on device",
            ))
        })
        .unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::StorageFull);
        assert_eq!(
            err.to_string(),
            format!("cannot write {}: No space left on device", path.display())
        );
        // Said once when the whole chain is printed (anyhow's `{:#}`).
        let chain = format!("{:#}", anyhow::Error::new(err));
        assert_eq!(
            chain.matches("No space left on device").count(),
            1,
            "{chain}"
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "old");
        assert!(!dir.path().join("report.html.tmp").exists());
    }

    #[test]
    fn rows_are_written_whole_with_their_header() {
        let dir = tempfile::tempdir().unwrap();
        write_rows::<SeriesRow>(dir.path(), &[]).unwrap();
        let path = dir.path().join("series.csv");
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "series,round,bot_a,bot_b,games,wins_a,draws,wins_b,winner,decided,note\n"
        );
        let row = SeriesRow {
            series: 3,
            round: 2,
            bot_a: "a".into(),
            bot_b: "b,c".into(),
            games: 2,
            wins_a: 1,
            draws: 1,
            wins_b: 0,
            winner: "a".into(),
            decided: true,
            note: String::new(),
        };
        write_rows(dir.path(), &[row]).unwrap();
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "series,round,bot_a,bot_b,games,wins_a,draws,wins_b,winner,decided,note\n3,2,a,\"b,c\",2,1,1,0,a,true,\n"
        );
        assert!(!dir.path().join("series.csv.tmp").exists());
    }
}
