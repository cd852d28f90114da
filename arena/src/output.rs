//! The CSV files of a run folder: `games.csv` appended and synced game by
//! game; `series.csv` and `standings.csv` written whole to a temporary file
//! and renamed over the old one, so a reader never sees half a file.

use std::fs::{File, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};

use crate::referee::GameRecord;

/// The columns of `games.csv`, in order.
pub const GAMES_COLUMNS: [&str; 18] = [
    "series",
    "game",
    "pair",
    "opening",
    "south",
    "north",
    "holes",
    "seeds",
    "max_laps",
    "max_plies",
    "moves",
    "plies",
    "south_seeds",
    "north_seeds",
    "result",
    "termination",
    "detail",
    "duration_ms",
];

/// The columns of `series.csv`, in order.
pub const SERIES_COLUMNS: [&str; 9] = [
    "series", "bot_a", "bot_b", "games", "wins_a", "draws", "wins_b", "winner", "decided",
];

/// The columns of `pairwise.csv`, in order.
pub const PAIRWISE_COLUMNS: [&str; 23] = [
    "bot_a",
    "bot_b",
    "games",
    "wins_a",
    "draws",
    "wins_b",
    "score_pct",
    "elo",
    "elo_error_95",
    "los",
    "nelo",
    "nelo_error_95",
    "pairs",
    "penta_0",
    "penta_1",
    "penta_2",
    "penta_3",
    "penta_4",
    "penta_elo",
    "penta_elo_error_95",
    "penta_los",
    "penta_nelo",
    "penta_nelo_error_95",
];

/// The columns of `standings.csv`, in order.
pub const STANDINGS_COLUMNS: [&str; 14] = [
    "rank",
    "bot",
    "games",
    "wins",
    "draws",
    "losses",
    "score",
    "score_pct",
    "elo",
    "elo_lower",
    "elo_upper",
    "los_next",
    "forfeits",
    "group",
];

/// A run folder: where a tournament's files go.
#[derive(Clone, Debug)]
pub struct RunDir {
    /// The folder.
    pub path: PathBuf,
}

impl RunDir {
    /// Creates `path` (and its parents) with a `logs/` folder inside.
    ///
    /// # Errors
    /// An I/O error, or `AlreadyExists` when `path` already holds a
    /// `games.csv`: results already written are never overwritten.
    pub fn create(path: &Path) -> io::Result<RunDir> {
        if path.join("games.csv").exists() {
            return Err(io::Error::new(
                io::ErrorKind::AlreadyExists,
                format!(
                    "{} already holds a tournament (games.csv): choose another --out",
                    path.display()
                ),
            ));
        }
        std::fs::create_dir_all(path.join("logs"))?;
        Ok(RunDir {
            path: path.to_path_buf(),
        })
    }

    /// Takes the folder for this process alone: an exclusive `flock` on
    /// `DIR/.lock`, held until the returned lock is dropped (the process
    /// ends). Two arenas appending to one `games.csv` (a job array task run
    /// twice, say) would corrupt it; the second one is refused instead.
    ///
    /// # Errors
    /// `WouldBlock` with a one-line message when another process holds
    /// the folder; any I/O error opening the lock file.
    pub fn lock(&self) -> io::Result<RunLock> {
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(self.path.join(".lock"))?;
        nix::fcntl::Flock::lock(file, nix::fcntl::FlockArg::LockExclusiveNonblock)
            .map(RunLock)
            .map_err(|(_, errno)| match errno {
                nix::errno::Errno::EWOULDBLOCK => io::Error::new(
                    io::ErrorKind::WouldBlock,
                    format!(
                        "{} is in use by another arena process: wait for it to end (or stop it) first",
                        self.path.display()
                    ),
                ),
                e => io::Error::from(e),
            })
    }

    /// The shard this folder holds, from its `shard` file: `Some((k, n))`
    /// for shard k of n, `None` for a whole tournament (or no file).
    #[must_use]
    pub fn shard(&self) -> Option<(usize, usize)> {
        let text = std::fs::read_to_string(self.path.join("shard")).ok()?;
        parse_shard(text.trim()).ok()
    }

    /// Marks the run finished: every game it was to play is in `games.csv`
    /// (the summaries, derived from it, are written next). `arena merge` and `arena slurm` rely
    /// on it to tell a finished shard from an interrupted one.
    ///
    /// # Errors
    /// Any I/O error writing `DIR/finished`.
    pub fn mark_finished(&self, games: usize) -> io::Result<()> {
        let path = self.path.join("finished");
        std::fs::write(&path, format!("{games} games\n"))
    }

    /// Whether the run finished ([`RunDir::mark_finished`]).
    #[must_use]
    pub fn is_finished(&self) -> bool {
        self.path.join("finished").exists()
    }

    /// The log file of bot `name`: `logs/<name>.stderr.log`. Bot names are
    /// checked ([`crate::protocol::valid_name`]), so this stays in `logs/`.
    #[must_use]
    pub fn bot_log(&self, name: &str) -> PathBuf {
        self.path.join("logs").join(format!("{name}.stderr.log"))
    }

    /// The last `max` non-empty lines bot `name` itself wrote to stderr
    /// under the log prefix `tag` (`check` for the start-up check), since
    /// its latest start under that tag, joined
    /// with ` | ` and cut to 300 characters; `None` if it wrote none. The
    /// arena's own notes (`# ...`) and `info` lines are left out: this is
    /// what to show when the bot failed to start, since its last words
    /// (a usage error, a traceback) usually say why.
    #[must_use]
    pub fn bot_stderr_tail(&self, name: &str, tag: &str, max: usize) -> Option<String> {
        let log = std::fs::read_to_string(self.bot_log(name)).ok()?;
        let prefix = format!("{tag} ");
        // Only the latest start under this tag (a resumed run's log holds
        // the earlier ones too).
        let latest = log
            .rfind(&format!("{prefix}# start:"))
            .map_or(&log[..], |at| &log[at..]);
        let mut said: Vec<&str> = latest
            .lines()
            .filter_map(|l| l.strip_prefix(&prefix))
            .filter(|l| !l.starts_with("# ") && !l.starts_with("info: ") && !l.trim().is_empty())
            .map(str::trim)
            .collect();
        if said.is_empty() {
            return None;
        }
        let said = said.split_off(said.len().saturating_sub(max)).join(" | ");
        Some(if said.chars().count() > 300 {
            format!("{}...", said.chars().take(300).collect::<String>())
        } else {
            said
        })
    }
}

/// A run folder's exclusive lock ([`RunDir::lock`]); dropping it unlocks.
#[derive(Debug)]
pub struct RunLock(#[allow(dead_code)] nix::fcntl::Flock<File>);

/// `games.csv`, open for appending.
pub struct GamesCsv {
    file: File,
    /// The length of the file's whole rows.
    len: u64,
}

impl GamesCsv {
    /// Creates `games.csv` in `dir` with its header row.
    ///
    /// # Errors
    /// Any I/O error creating or writing the file.
    pub fn create(dir: &RunDir) -> io::Result<GamesCsv> {
        let file = OpenOptions::new()
            .create_new(true)
            .append(true)
            .open(dir.path.join("games.csv"))?;
        let mut games = GamesCsv { file, len: 0 };
        games.write_row(&GAMES_COLUMNS)?;
        Ok(games)
    }

    /// Opens the `games.csv` of an interrupted run in `dir` for appending.
    /// A last line cut short by a crash is removed first, so the game it
    /// held is simply played again.
    ///
    /// # Errors
    /// Any I/O error; a file without its header row.
    pub fn reopen(dir: &RunDir) -> io::Result<GamesCsv> {
        let path = dir.path.join("games.csv");
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
        })
    }

    /// Writes one CSV row with a single write, then syncs it.
    fn write_row(&mut self, fields: &[&str]) -> io::Result<()> {
        let mut rows = csv::Writer::from_writer(Vec::new());
        rows.write_record(fields)?;
        let bytes = rows.into_inner().map_err(|e| e.into_error())?;
        self.write_synced(&bytes)
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
    pub fn append(&mut self, g: &GameRecord) -> io::Result<()> {
        self.append_all([g])
    }

    /// Appends several games, a complete row each, with one write and one
    /// sync for them all (group commit: the games that ended while the last
    /// sync ran share the next one). None of them is on disk before all are.
    ///
    /// # Errors
    /// Any I/O error (a full disk, say); the file then ends in its last
    /// whole row from before, and the caller stops the tournament.
    pub fn append_all<'a>(
        &mut self,
        games: impl IntoIterator<Item = &'a GameRecord>,
    ) -> io::Result<()> {
        let mut rows = csv::Writer::from_writer(Vec::new());
        for g in games {
            let result = match g.winner {
                None => "draw",
                Some(side) => side.name(),
            };
            rows.write_record([
                g.series.to_string().as_str(),
                &g.game.to_string(),
                &g.game.div_ceil(2).to_string(),
                &g.opening,
                &g.bots[0],
                &g.bots[1],
                &g.rules.holes().to_string(),
                &g.rules.seeds().to_string(),
                &g.rules.max_laps().to_string(),
                &g.rules.max_plies().to_string(),
                &g.moves,
                &g.plies.to_string(),
                &g.seeds[0].to_string(),
                &g.seeds[1].to_string(),
                result,
                g.end.name(),
                &g.detail,
                &g.duration_ms.to_string(),
            ])?;
        }
        let bytes = rows.into_inner().map_err(|e| e.into_error())?;
        if bytes.is_empty() {
            return Ok(());
        }
        self.write_synced(&bytes)
    }
}

/// Writes a CSV file whole: rows go to `NAME.tmp`, which is synced and then
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
/// Any I/O error; `path` is then unchanged (a stray `.tmp` file may remain).
pub fn write_bytes_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    {
        use std::io::Write as _;
        let mut file = File::create(&tmp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
    }
    std::fs::rename(&tmp, path)?;
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

/// Parses `K/N` with 1 <= K <= N.
///
/// # Errors
/// One line saying how to write it.
pub fn parse_shard(text: &str) -> Result<(usize, usize), String> {
    let bad = || format!("'{text}' is not a shard: write K/N with 1 <= K <= N, e.g. 2/4");
    let (k, n) = text.split_once('/').ok_or_else(bad)?;
    let (k, n): (usize, usize) = (k.parse().map_err(|_| bad())?, n.parse().map_err(|_| bad())?);
    if k == 0 || k > n {
        return Err(bad());
    }
    Ok((k, n))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_folder_has_one_writer_at_a_time() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = RunDir::create(tmp.path()).unwrap();
        let first = dir.lock().unwrap();
        // flock belongs to the open file, so a second open conflicts even here.
        let second = dir.lock().unwrap_err();
        assert_eq!(second.kind(), io::ErrorKind::WouldBlock);
        assert!(second.to_string().contains("in use by another arena"));
        drop(first);
        assert!(dir.lock().is_ok());
    }

    #[test]
    fn the_finished_marker_and_the_shard_are_read_back() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = RunDir::create(tmp.path()).unwrap();
        assert!(!dir.is_finished());
        assert_eq!(dir.shard(), None);
        std::fs::write(tmp.path().join("shard"), "2/5").unwrap();
        dir.mark_finished(7).unwrap();
        assert!(dir.is_finished());
        assert_eq!(dir.shard(), Some((2, 5)));
    }

    #[test]
    fn the_stderr_tail_keeps_only_what_the_bot_wrote() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = RunDir::create(tmp.path()).unwrap();
        assert_eq!(dir.bot_stderr_tail("b", "check", 3), None);
        std::fs::write(
            dir.bot_log("b"),
            "check # start: an earlier attempt\n\
             check an earlier error, not this start's\n\
             check # start: arena bot greedy --depth 3\n\
             check error: unexpected argument '--depth' found\n\
             check \n\
             check info: depth 3\n\
             check For more information, try '--help'.\n\
             check # handshake failed: closed its output\n\
             s1 later\n",
        )
        .unwrap();
        assert_eq!(
            dir.bot_stderr_tail("b", "check", 3).as_deref(),
            Some(
                "error: unexpected argument '--depth' found | For more information, try '--help'."
            )
        );
        assert_eq!(
            dir.bot_stderr_tail("b", "check", 1).as_deref(),
            Some("For more information, try '--help'.")
        );
        assert_eq!(dir.bot_stderr_tail("b", "s2", 3), None);
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

    #[test]
    fn a_run_dir_with_games_is_never_reused() {
        let dir = tempfile::tempdir().unwrap();
        let run = RunDir::create(dir.path()).unwrap();
        GamesCsv::create(&run).unwrap();
        let err = RunDir::create(dir.path()).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::AlreadyExists);
    }
}
