//! `games.csv`: its one writer ([`GamesCsv`], appended and synced game by
//! game, with group commit) and its one reader ([`read_games`]), which
//! every reader of the file uses: `arena rate`, `arena replay`, the report,
//! the live view and the resume of a run, and `arena merge`
//! ([`merge_games`]).
//!
//! **A torn last line.** A run killed while it wrote a row leaves at most
//! its last line incomplete (no newline at its end). The reader leaves that
//! line out and says so ([`GamesRead::torn`]); the caller decides whether to
//! tell the user. The writer, reopening such a file to resume, cuts the line
//! off, so the game it held is simply played again.

use std::fmt;
use std::fs::{File, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};

use endodoi::Side;

use super::checks::{CheckError, Duplicates, RowChecks};
use super::rows::{CsvRow, GameRow, GAMES_REQUIRED};
use super::RunFolder;

/// The file of a merged run folder with the games its shards played past
/// the point where a single run would have stopped (`arena merge`): the
/// columns of `games.csv`, rows sorted by series and game.
pub const PAST_END_FILE: &str = "games-past-end.csv";

/// A last line cut short, left out by the reader: the bytes after the
/// file's last newline. The arena ends every row it writes with a newline,
/// so a line without one is a write cut short by a crash, and a prefix of a
/// row can look whole (a `duration_ms` of `12` cut from `1234`); a line
/// edited by hand needs its newline to count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TornLine {
    /// The file.
    pub path: PathBuf,
    /// Its line number, from 1.
    pub line: u64,
    /// Bytes on it.
    pub bytes: usize,
}

impl fmt::Display for TornLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}: the last line has no newline at its end, so it was cut short \
             (a run stopped while writing it): skipped its {} bytes; if the line is whole \
             (a file edited by hand), end it with a newline",
            self.path.display(),
            self.line,
            self.bytes
        )
    }
}

/// The games of one `games.csv`, as [`read_games`] read them.
#[derive(Clone, Debug, Default)]
pub struct GamesRead {
    /// Every whole row, in file order.
    pub rows: Vec<GameRow>,
    /// The line each row of `rows` starts on, from 1 (named in errors).
    pub lines: Vec<u64>,
    /// The header row's columns, in order.
    pub columns: Vec<String>,
    /// The last line, if it was cut short (and so left out).
    pub torn: Option<TornLine>,
}

impl GamesRead {
    /// Whether the file has column `name`.
    #[must_use]
    pub fn has_column(&self, name: &str) -> bool {
        self.columns.iter().any(|c| c == name)
    }
}

/// Why a `games.csv` cannot be read, merged or written. Each names the
/// file, and a row's error its line, as `FILE:LINE: ...`.
#[derive(Debug, thiserror::Error)]
pub enum GamesError {
    /// The file cannot be read.
    #[error("cannot read {}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: io::Error,
    },
    /// The file has no header row.
    #[error("{} has no header row", path.display())]
    NoHeader {
        /// The file.
        path: PathBuf,
    },
    /// The file is shorter than where an earlier read of it stopped: it
    /// was replaced or cut (a follower cannot go on).
    #[error("{} is shorter than when it was last read: it was replaced or cut; start again to read it whole", path.display())]
    Shrank {
        /// The file.
        path: PathBuf,
    },
    /// A column a reader needs is missing.
    #[error("{} has no column '{column}': is it an arena games.csv?", path.display())]
    MissingColumn {
        /// The file.
        path: PathBuf,
        /// The column.
        column: String,
    },
    /// A row that is not CSV (say, not UTF-8), or has more fields than
    /// the header.
    #[error("{}:{line}: not a CSV row", path.display())]
    NotCsv {
        /// The file.
        path: PathBuf,
        /// The line, from 1.
        line: u64,
        /// What the CSV reader said.
        #[source]
        source: csv::Error,
    },
    /// A field that is not what its column holds (a number, say).
    #[error("{}:{line}: bad {column} '{value}': write {}", path.display(), expected(column))]
    BadValue {
        /// The file.
        path: PathBuf,
        /// The line, from 1.
        line: u64,
        /// The column.
        column: String,
        /// The field's text.
        value: String,
    },
    /// A row without a bot's name.
    #[error("{}:{line}: a game without a bot's name (south '{south}', north '{north}')", path.display())]
    NoBotName {
        /// The file.
        path: PathBuf,
        /// The line, from 1.
        line: u64,
        /// South's name.
        south: String,
        /// North's name.
        north: String,
    },
    /// A row with one bot on both sides.
    #[error("{}:{line}: '{bot}' plays itself: a games.csv row names two bots", path.display())]
    PlaysItself {
        /// The file.
        path: PathBuf,
        /// The line, from 1.
        line: u64,
        /// The bot.
        bot: String,
    },
    /// A result other than `south`, `north` or `draw`.
    #[error("{}:{line}: bad result '{result}' (south, north or draw)", path.display())]
    BadResult {
        /// The file.
        path: PathBuf,
        /// The line, from 1.
        line: u64,
        /// The result.
        result: String,
    },
    /// Files to merge whose headers differ.
    #[error("{} has other columns than the first file", path.display())]
    OtherColumns {
        /// The file that differs from the first.
        path: PathBuf,
    },
    /// A row that contradicts itself, a game twice, or games of two rules
    /// ([`RowChecks`]).
    #[error(transparent)]
    Check(#[from] CheckError),
    /// A merge of no file.
    #[error("no games.csv to merge")]
    NothingToMerge,
    /// The merged file cannot be written.
    #[error("cannot write {}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: io::Error,
    },
}

/// A `games.csv` read row by row: an iterator over its whole rows, each
/// checked as [`read_games`] checks it, with its line number. It holds one
/// row at a time (and a read buffer), so a reader that keeps only counts
/// needs memory independent of the file's size. A torn last line is left
/// out; [`GamesReader::torn`] reports it once every row is read.
pub struct GamesReader {
    path: PathBuf,
    reader: csv::Reader<io::Take<io::BufReader<File>>>,
    headers: csv::StringRecord,
    record: csv::StringRecord,
    /// The bytes of a last line without its newline.
    torn_bytes: Option<usize>,
    /// The line after the last row read (from 1).
    next_line: u64,
    /// Where the CSV reader started: its byte 0 and line 1 are this
    /// point's (the file's start, or [`GamesReader::open_at`]'s point).
    base: ReadPoint,
    done: bool,
}

/// A place between rows of a `games.csv`: where the next row starts, as a
/// byte offset (from 0) and a line number (from 1). [`GamesReader::point`]
/// gives it; [`GamesReader::open_at`] reads on from it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReadPoint {
    /// Bytes before it.
    pub byte: u64,
    /// Its line, from 1; 0 for the file's start (before the header row).
    pub line: u64,
}

/// The length of the whole lines of `file` (up to and with its last
/// newline; all of it if it has none), and the bytes after them.
fn whole_lines(file: &mut File) -> io::Result<(u64, u64)> {
    use std::io::{Read as _, Seek as _, SeekFrom};
    let len = file.metadata()?.len();
    let mut end = len;
    let mut chunk = vec![0u8; 64 * 1024];
    while end > 0 {
        let start = end.saturating_sub(chunk.len() as u64);
        let part = &mut chunk[..(end - start) as usize];
        file.seek(SeekFrom::Start(start))?;
        file.read_exact(part)?;
        if let Some(i) = part.iter().rposition(|&b| b == b'\n') {
            file.seek(SeekFrom::Start(0))?;
            let whole = start + i as u64 + 1;
            return Ok((whole, len - whole));
        }
        end = start;
    }
    file.seek(SeekFrom::Start(0))?;
    Ok((len, 0))
}

impl GamesReader {
    /// Opens the `games.csv` at `path` and reads its header row, which must
    /// have the columns of [`GAMES_REQUIRED`].
    ///
    /// # Errors
    /// A [`GamesError`] naming the file: it cannot be read, has no header
    /// row, or lacks a column.
    pub fn open(path: &Path) -> Result<GamesReader, GamesError> {
        let read_error = |source| GamesError::Read {
            path: path.to_path_buf(),
            source,
        };
        let mut file = File::open(path).map_err(read_error)?;
        let (whole, torn) = whole_lines(&mut file).map_err(read_error)?;
        use std::io::Read as _;
        let mut reader = csv::Reader::from_reader(io::BufReader::new(file).take(whole));
        let headers = reader
            .headers()
            .map_err(|_| GamesError::NoHeader {
                path: path.to_path_buf(),
            })?
            .clone();
        for column in GAMES_REQUIRED {
            if !headers.iter().any(|h| h == column) {
                return Err(GamesError::MissingColumn {
                    path: path.to_path_buf(),
                    column: column.to_string(),
                });
            }
        }
        Ok(GamesReader {
            path: path.to_path_buf(),
            next_line: reader.position().line(),
            reader,
            headers,
            record: csv::StringRecord::new(),
            torn_bytes: (torn > 0).then_some(torn as usize),
            base: ReadPoint::default(),
            done: false,
        })
    }

    /// Opens the `games.csv` at `path` as [`GamesReader::open`] does (its
    /// header row read and checked), and reads on from `at`, a point an
    /// earlier reader of the same file gave ([`GamesReader::point`]): so a
    /// file that grows is read row by row once, not from its start again.
    /// Lines are numbered as in the whole file.
    ///
    /// # Errors
    /// As [`GamesReader::open`]; and a file now shorter than `at` (it was
    /// replaced) is [`GamesError::Shrank`].
    pub fn open_at(path: &Path, at: ReadPoint) -> Result<GamesReader, GamesError> {
        let mut reader = GamesReader::open(path)?;
        let header_end = reader.reader.position().byte();
        if at.byte <= header_end {
            return Ok(reader);
        }
        let read_error = |source| GamesError::Read {
            path: path.to_path_buf(),
            source,
        };
        use std::io::{Read as _, Seek as _};
        let mut file = File::open(path).map_err(read_error)?;
        let (whole, torn) = whole_lines(&mut file).map_err(read_error)?;
        if whole + torn < at.byte {
            return Err(GamesError::Shrank {
                path: path.to_path_buf(),
            });
        }
        file.seek(std::io::SeekFrom::Start(at.byte))
            .map_err(read_error)?;
        let rest = io::BufReader::new(file).take(whole.saturating_sub(at.byte));
        reader.reader = csv::ReaderBuilder::new()
            .has_headers(false)
            .from_reader(rest);
        reader.base = ReadPoint {
            byte: at.byte,
            line: at.line.saturating_sub(1),
        };
        reader.next_line = at.line;
        Ok(reader)
    }

    /// Where the next row starts: after the rows read so far.
    #[must_use]
    pub fn point(&self) -> ReadPoint {
        let p = self.reader.position();
        ReadPoint {
            byte: self.base.byte + p.byte(),
            line: self.base.line + p.line(),
        }
    }

    /// The file.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The header row's columns, in order.
    #[must_use]
    pub fn columns(&self) -> Vec<String> {
        self.headers.iter().map(str::to_string).collect()
    }

    /// Whether the file has column `name`.
    #[must_use]
    pub fn has_column(&self, name: &str) -> bool {
        self.headers.iter().any(|c| c == name)
    }

    /// The last line, if it was cut short (and so left out); its line
    /// number is known once every row is read (`None` before).
    #[must_use]
    pub fn torn(&self) -> Option<TornLine> {
        let bytes = self.torn_bytes.filter(|_| self.done)?;
        Some(TornLine {
            path: self.path.clone(),
            line: self.next_line,
            bytes,
        })
    }

    /// The next row and its line, or `None` at the end.
    fn next_row(&mut self) -> Result<Option<(u64, GameRow)>, GamesError> {
        let path = &self.path;
        let base = self.base.line;
        let line = base + self.reader.position().line();
        match self.reader.read_record(&mut self.record) {
            Ok(true) => {}
            Ok(false) => {
                self.next_line = base + self.reader.position().line();
                return Ok(None);
            }
            Err(source) => {
                return Err(GamesError::NotCsv {
                    path: path.clone(),
                    line,
                    source,
                })
            }
        }
        let (record, headers) = (&self.record, &self.headers);
        let line = record.position().map_or(line, |p| base + p.line());
        let row: GameRow = record.deserialize(Some(headers)).map_err(|e| {
            let field = match e.kind() {
                csv::ErrorKind::Deserialize { err, .. } => err.field(),
                _ => None,
            };
            match field.and_then(|i| usize::try_from(i).ok()) {
                Some(i) => GamesError::BadValue {
                    path: path.clone(),
                    line,
                    column: headers.get(i).unwrap_or("").to_string(),
                    value: record.get(i).unwrap_or("").to_string(),
                },
                None => GamesError::NotCsv {
                    path: path.clone(),
                    line,
                    source: e,
                },
            }
        })?;
        check_row(path, line, &row)?;
        Ok(Some((line, row)))
    }
}

impl Iterator for GamesReader {
    type Item = Result<(u64, GameRow), GamesError>;

    /// The next whole row with its line number (from 1); after an error,
    /// or the last row, `None`.
    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let next = self.next_row().transpose();
        if !matches!(next, Some(Ok(_))) {
            self.done = true;
        }
        next
    }
}

/// Reads every whole row of the `games.csv` at `path` ([`GamesReader`],
/// collected), checked: the columns of [`GAMES_REQUIRED`] present, every
/// field of the right kind, two bot names per row, and a result of
/// `south`, `north` or `draw`. A torn last line is left out and reported
/// in [`GamesRead::torn`]. The rows are not replayed (`arena replay` shows
/// a row that disagrees with its moves); [`RowChecks`] does that.
///
/// # Errors
/// A [`GamesError`] naming the file (and the line, for a bad row).
pub fn read_games(path: &Path) -> Result<GamesRead, GamesError> {
    let mut reader = GamesReader::open(path)?;
    let (mut rows, mut lines) = (Vec::new(), Vec::new());
    for row in reader.by_ref() {
        let (line, row) = row?;
        rows.push(row);
        lines.push(line);
    }
    Ok(GamesRead {
        rows,
        lines,
        columns: reader.columns(),
        torn: reader.torn(),
    })
}

/// Whether a row's bots and result make sense.
/// What a `games.csv` column's field must be, for [`GamesError::BadValue`]'s fix.
fn expected(column: &str) -> &'static str {
    match column {
        "series" | "game" | "pair" => "a whole number from 1, in plain digits",
        "plies" => "a whole number of plies, 0 or more, in plain digits",
        "duration_ms" => "a whole number of ms, 0 or more, in plain digits",
        _ => "what the column holds (docs/output-files.md lists each column)",
    }
}

fn check_row(path: &Path, line: u64, row: &GameRow) -> Result<(), GamesError> {
    let path = || path.to_path_buf();
    if row.south.is_empty() || row.north.is_empty() {
        return Err(GamesError::NoBotName {
            path: path(),
            line,
            south: row.south.clone(),
            north: row.north.clone(),
        });
    }
    if row.south == row.north {
        return Err(GamesError::PlaysItself {
            path: path(),
            line,
            bot: row.south.clone(),
        });
    }
    if !matches!(row.result.as_str(), "south" | "north" | "draw") {
        return Err(GamesError::BadResult {
            path: path(),
            line,
            result: row.result.clone(),
        });
    }
    Ok(())
}

/// One game of a merge (or of a resumed run): its series, bots and winner.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MergedGame {
    /// The series number, the same in every shard.
    pub series: usize,
    /// The game's number in its series, from 1.
    pub game: u32,
    /// The two bots: South, then North.
    pub bots: [String; 2],
    /// The winning bot's name, or `None` for a draw.
    pub winner: Option<String>,
}

impl From<&GameRow> for MergedGame {
    fn from(row: &GameRow) -> MergedGame {
        MergedGame {
            series: row.series as usize,
            game: row.game,
            winner: match row.winner() {
                Some(Side::South) => Some(row.south.clone()),
                Some(Side::North) => Some(row.north.clone()),
                None => None,
            },
            bots: [row.south.clone(), row.north.clone()],
        }
    }
}

/// The games of a merge, in schedule order (series, then game).
#[derive(Clone, Debug, Default)]
pub struct Merged {
    /// Every game.
    pub games: Vec<MergedGame>,
    /// Every row, in the same order as `games`.
    pub rows: Vec<GameRow>,
    /// The torn last lines left out, one per file that had one.
    pub torn: Vec<TornLine>,
    /// The whole rows of each file, in the order given.
    pub per_file: Vec<usize>,
}

/// Reads the rows of every file in `files` ([`GamesReader`]), each checked
/// ([`RowChecks`]: replayed, and no game in two places), in schedule order
/// (series, then game) and, with `out`, writes them into a new `games.csv`
/// there, with one header, synced.
///
/// # Errors
/// A file that cannot be read, has other columns than the first, a row
/// that disagrees with its moves, a game another row has too; or the
/// output cannot be written.
pub fn merge_games(files: &[impl AsRef<Path>], out: Option<&Path>) -> Result<Merged, GamesError> {
    merge_games_with(files, out, None, crate::config::Adjudicate::OFF)
}

/// [`merge_games`], with the endgame tables that check the rows adjudicated
/// `tablebase` ([`RowChecks::with_tables`]) and the run's `[board]
/// adjudicate` ([`RowChecks::with_adjudicate`]).
///
/// # Errors
/// As [`merge_games`].
pub fn merge_games_with(
    files: &[impl AsRef<Path>],
    out: Option<&Path>,
    tables: Option<std::sync::Arc<endodoi_tablebase::Tables>>,
    adjudicate: crate::config::Adjudicate,
) -> Result<Merged, GamesError> {
    let mut columns: Option<Vec<String>> = None;
    let mut rows = Vec::new();
    let mut torn = Vec::new();
    let mut per_file = Vec::new();
    // Shards of one tournament: one rules, so mixed rules are not refused
    // here (a shard of another config is, by the caller).
    let mut checks = RowChecks::new(Duplicates::AcrossFiles, true)
        .with_tables(tables)
        .with_adjudicate(adjudicate);
    for file in files {
        let path = file.as_ref();
        let mut reader = GamesReader::open(path)?;
        let read_columns = reader.columns();
        match &columns {
            None => columns = Some(read_columns),
            Some(first) if *first != read_columns => {
                return Err(GamesError::OtherColumns {
                    path: path.to_path_buf(),
                })
            }
            Some(_) => {}
        }
        let index = checks.file(reader.path(), &reader.columns())?;
        let before = rows.len();
        for row in reader.by_ref() {
            let (line, row) = row?;
            checks.row(index, line, &row)?;
            rows.push(row);
        }
        per_file.push(rows.len() - before);
        torn.extend(reader.torn());
    }
    if columns.is_none() {
        return Err(GamesError::NothingToMerge);
    }
    rows.sort_by_key(|r| (r.series, r.game));
    if let Some(out) = out {
        write_rows_to(out, &rows)?;
    }
    Ok(Merged {
        games: rows.iter().map(MergedGame::from).collect(),
        rows,
        torn,
        per_file,
    })
}

/// The games of the one `games.csv` at `path`, already read (`read`, by
/// [`read_games`]), checked as [`merge_games_with`] checks a file's rows
/// (each row replayed, its verdict checked against `tables` if given and
/// the run's `adjudicate`; no
/// game twice), in schedule order (series, then game): what a resumed run
/// goes on from, without reading the file again.
///
/// # Errors
/// [`GamesError::Check`] for a row that fails a check.
pub fn checked_games(
    path: &Path,
    read: &GamesRead,
    tables: Option<std::sync::Arc<endodoi_tablebase::Tables>>,
    adjudicate: crate::config::Adjudicate,
) -> Result<Vec<MergedGame>, GamesError> {
    let mut checks = RowChecks::new(Duplicates::AcrossFiles, true)
        .with_tables(tables)
        .with_adjudicate(adjudicate);
    let index = checks.file(path, &read.columns)?;
    for (row, &line) in read.rows.iter().zip(&read.lines) {
        checks.row(index, line, row)?;
    }
    let mut games: Vec<MergedGame> = read.rows.iter().map(MergedGame::from).collect();
    games.sort_by_key(|g| (g.series, g.game));
    Ok(games)
}

/// Writes `rows` as a new `games.csv` at `out`, with its header, synced.
///
/// # Errors
/// [`GamesError::Write`].
pub fn write_rows_to(out: &Path, rows: &[GameRow]) -> Result<(), GamesError> {
    let write = || -> io::Result<()> {
        let mut bytes = csv::Writer::from_writer(Vec::new());
        for row in rows {
            bytes.serialize(row)?;
        }
        let mut bytes = bytes.into_inner().map_err(|e| e.into_error())?;
        if rows.is_empty() {
            bytes = header_bytes()?;
        }
        use std::io::Write as _;
        let mut file = File::create(out)?;
        file.write_all(&bytes)?;
        file.sync_all()
    };
    write().map_err(|source| GamesError::Write {
        path: out.to_path_buf(),
        source,
    })
}

/// The header row of `games.csv`, as bytes.
fn header_bytes() -> io::Result<Vec<u8>> {
    let mut rows = csv::Writer::from_writer(Vec::new());
    rows.write_record(GameRow::COLUMNS)?;
    rows.into_inner().map_err(|e| e.into_error())
}

/// `games.csv`, open for appending.
pub struct GamesCsv {
    file: File,
    /// The length of the file's whole rows.
    len: u64,
    /// The rows of the next write, reused.
    buf: Vec<u8>,
}

impl GamesCsv {
    /// Creates `games.csv` in `dir` with its header row.
    ///
    /// # Errors
    /// Any I/O error creating or writing the file.
    pub fn create(dir: &RunFolder) -> io::Result<GamesCsv> {
        let file = OpenOptions::new()
            .create_new(true)
            .append(true)
            .open(dir.games())?;
        let mut games = GamesCsv {
            file,
            len: 0,
            buf: Vec::new(),
        };
        let header = header_bytes()?;
        games.write_synced(&header)?;
        Ok(games)
    }

    /// Opens the `games.csv` of an interrupted run in `dir` for appending.
    /// A last line cut short by a crash is removed first, so the game it
    /// held is simply played again.
    ///
    /// # Errors
    /// Any I/O error; a file without its header row.
    pub fn reopen(dir: &RunFolder) -> io::Result<GamesCsv> {
        let path = dir.games();
        let text = std::fs::read(&path)?;
        let whole = text.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        if whole == 0 {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("{} has no header row", path.display()),
            ));
        }
        let file = OpenOptions::new().append(true).open(&path)?;
        file.set_len(whole as u64)?;
        file.sync_data()?;
        Ok(GamesCsv {
            file,
            len: whole as u64,
            buf: Vec::new(),
        })
    }

    /// Writes whole rows with a single write, then syncs them. If the write
    /// fails (a full disk), the file is cut back to its last whole row, so
    /// it never ends in half a row.
    fn write_synced(&mut self, bytes: &[u8]) -> io::Result<()> {
        use std::io::Write as _;
        let written = self
            .file
            .write_all(bytes)
            .and_then(|()| self.file.sync_data());
        if let Err(e) = written {
            let _ = self.file.set_len(self.len);
            return Err(e);
        }
        self.len += bytes.len() as u64;
        Ok(())
    }

    /// Appends one game as one complete row, then flushes and syncs it to
    /// disk, so a game reported finished survives a crash of the arena.
    ///
    /// # Errors
    /// Any I/O error (a full disk, say); the caller stops the tournament.
    pub fn append(&mut self, g: impl Into<GameRow>) -> io::Result<()> {
        self.append_all([g])
    }

    /// Appends several games, a complete row each, with one write and one
    /// sync for them all (group commit: the games that ended while the last
    /// sync ran share the next one). None of them is on disk before all are.
    ///
    /// # Errors
    /// Any I/O error (a full disk, say); the file then ends in its last
    /// whole row from before, and the caller stops the tournament.
    pub fn append_all(
        &mut self,
        games: impl IntoIterator<Item = impl Into<GameRow>>,
    ) -> io::Result<()> {
        let mut buf = std::mem::take(&mut self.buf);
        buf.clear();
        let mut rows = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(buf);
        for g in games {
            rows.serialize(g.into())?;
        }
        let buf = rows.into_inner().map_err(|e| e.into_error())?;
        let written = if buf.is_empty() {
            Ok(())
        } else {
            self.write_synced(&buf)
        };
        self.buf = buf;
        written
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(dir: &Path, name: &str, text: &str) -> PathBuf {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path
    }

    #[test]
    fn a_torn_last_line_is_left_out_and_reported() {
        let tmp = tempfile::tempdir().unwrap();
        let whole = "series,game,south,north,result,termination\n1,1,a,b,south,no-moves\n";
        let path = file(tmp.path(), "g.csv", &format!("{whole}1,2,b,a,dr"));
        let read = read_games(&path).unwrap();
        assert_eq!(read.rows.len(), 1);
        assert_eq!(read.rows[0].winner(), Some(Side::South));
        let torn = read.torn.unwrap();
        assert_eq!((torn.line, torn.bytes), (3, 10));
        let text = torn.to_string();
        assert!(
            text.starts_with(&format!(
                "{}:3: the last line has no newline",
                path.display()
            )) && text.contains("skipped its 10 bytes")
                && text.contains("end it with a newline"),
            "{text}"
        );
        // A whole row without its newline is left out too: a prefix of a
        // row can look whole, so only the newline says a write finished.
        let path = file(
            tmp.path(),
            "w.csv",
            &format!("{whole}1,2,b,a,draw,no-moves"),
        );
        assert_eq!(read_games(&path).unwrap().rows.len(), 1);
        let path = file(tmp.path(), "h.csv", whole);
        assert_eq!(read_games(&path).unwrap().torn, None);
    }

    #[test]
    fn bad_files_and_rows_are_named_with_their_line() {
        let tmp = tempfile::tempdir().unwrap();
        let e = read_games(&tmp.path().join("none.csv")).unwrap_err();
        assert!(e.to_string().starts_with("cannot read "), "{e}");
        let p = file(tmp.path(), "cols.csv", "series,game,south,north,result\n");
        assert_eq!(
            read_games(&p).unwrap_err().to_string(),
            format!(
                "{} has no column 'termination': is it an arena games.csv?",
                p.display()
            )
        );
        let head = "series,game,south,north,result,termination\n";
        for (row, why) in [
            ("x,1,a,b,south,no-moves", "bad series 'x'"),
            ("1,-1,a,b,south,no-moves", "bad game '-1'"),
            ("1,1,a,a,south,no-moves", "'a' plays itself"),
            ("1,1,,b,north,no-moves", "a game without a bot's name"),
            ("1,1,a,b,won,no-moves", "bad result 'won'"),
            (
                "1e3,1,a,b,south,no-moves",
                "bad series '1e3': write a whole number from 1, in plain digits",
            ),
        ] {
            let p = file(
                tmp.path(),
                "bad.csv",
                &format!("{head}1,1,a,b,draw,no-moves\n{row}\n"),
            );
            let e = read_games(&p).unwrap_err().to_string();
            assert!(e.starts_with(&format!("{}:3: {why}", p.display())), "{e}");
        }
        // Issue 17's tester: the fix is said, not only the problem.
        let p = file(
            tmp.path(),
            "ms.csv",
            "series,game,south,north,result,termination,duration_ms\n1,1,a,b,draw,no-moves,-5\n",
        );
        assert_eq!(
            read_games(&p).unwrap_err().to_string(),
            format!(
                "{}:2: bad duration_ms '-5': write a whole number of ms, 0 or more, in plain digits",
                p.display()
            )
        );
    }

    #[test]
    fn a_merge_orders_rows_and_refuses_a_game_twice() {
        let tmp = tempfile::tempdir().unwrap();
        let head = "series,game,south,north,result,termination\n";
        let a = file(
            tmp.path(),
            "a.csv",
            &format!("{head}2,1,a,b,north,no-moves\n"),
        );
        let b = file(
            tmp.path(),
            "b.csv",
            &format!("{head}1,1,b,c,draw,no-moves\n1,2,c,b,south,timeout"),
        );
        let out = tmp.path().join("m.csv");
        let merged = merge_games(&[&a, &b], Some(&out)).unwrap();
        assert_eq!(merged.games.len(), 2);
        assert_eq!(merged.games[0].series, 1);
        assert_eq!(merged.games[1].winner.as_deref(), Some("b"));
        assert_eq!(merged.torn.len(), 1);
        let back = read_games(&out).unwrap();
        assert_eq!(back.columns, GameRow::COLUMNS);
        assert_eq!(back.rows.len(), 2);
        let e = merge_games(&[&a, &a], None).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "{p}:2: series 2 game 1 is there twice (first at {p}:2): give each game once",
                p = a.display()
            )
        );
        let other = file(
            tmp.path(),
            "o.csv",
            "series,game,south,north,result,termination,x\n",
        );
        assert!(matches!(
            merge_games(&[&a, &other], None),
            Err(GamesError::OtherColumns { .. })
        ));
    }
}
