//! [`RunFolder`]: a run folder's lifecycle. It owns the files that say what
//! the folder holds: `config.toml` (the config it was run with, copied in
//! whole), `shard` (`K/N`, or `all`), `finished` (every game is in
//! `games.csv`), and `.lock` (one arena process at a time), and the checks
//! that a resume goes on with the same config and the same shard.

use std::fs::{File, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};

use super::games::{read_games, GamesError, GamesRead};
use super::write_bytes_atomic;
use crate::shard::Shard;

/// A run folder: where a tournament's files go.
#[derive(Clone, Debug)]
pub struct RunFolder {
    /// The folder.
    pub path: PathBuf,
}

/// A run folder's exclusive lock ([`RunFolder::lock`]); dropping it unlocks.
#[derive(Debug)]
pub struct RunLock(#[allow(dead_code)] File);

/// Why a run folder cannot be made, taken or resumed. Each names the folder
/// and, where there is one, the fix.
#[derive(Debug, thiserror::Error)]
pub enum FolderError {
    /// The folder already holds a tournament (its `games.csv`).
    #[error("cannot create the run folder {0}: {0} already holds a tournament (games.csv): {how}", path.display())]
    HoldsGames {
        /// The folder.
        path: PathBuf,
        /// What to do instead.
        how: &'static str,
    },
    /// The folder (or a file in it) cannot be created.
    #[error("cannot create the run folder {}", path.display())]
    Create {
        /// The folder.
        path: PathBuf,
        /// Why.
        #[source]
        source: io::Error,
    },
    /// Another arena process holds the folder's lock.
    #[error("{} is in use by another arena process: wait for it to end (or stop it) first", path.display())]
    InUse {
        /// The folder.
        path: PathBuf,
    },
    /// The lock file cannot be opened or locked.
    #[error("cannot lock {}", path.display())]
    Lock {
        /// The lock file.
        path: PathBuf,
        /// Why.
        #[source]
        source: io::Error,
    },
    /// A folder to resume without its `config.toml`.
    #[error("{} holds no config.toml: is it a run folder?", path.display())]
    NoConfig {
        /// The folder.
        path: PathBuf,
        /// Why it cannot be read.
        #[source]
        source: io::Error,
    },
    /// A folder to resume that was run with another config.
    #[error("{} was run with another config ({change} differs): resume it with its own config.toml (only [tournament] concurrency and affinity may differ), or start a new run", path.display())]
    OtherConfig {
        /// The folder.
        path: PathBuf,
        /// The first key that differs, as the config writes it
        /// (`[tournament] seed`).
        change: String,
    },
    /// A folder to resume that was run as another shard.
    #[error("{} was run as shard {stored}: resume it {}", path.display(), if stored == "all" { "without --shard" } else { "with the same --shard" })]
    OtherShard {
        /// The folder.
        path: PathBuf,
        /// The shard it was run as (`K/N` or `all`).
        stored: String,
    },
    /// A file of the folder cannot be written.
    #[error("{what}")]
    Write {
        /// What could not be done, e.g. "cannot mark the run finished".
        what: &'static str,
        /// Why.
        #[source]
        source: io::Error,
    },
}

/// The text of the `shard` file for `shard`: `K/N`, or `all`.
fn shard_text(shard: Option<Shard>) -> String {
    shard.map_or_else(|| "all".to_string(), |s| s.to_string())
}

impl RunFolder {
    /// The folder at `path`, as it is (nothing is created or checked).
    #[must_use]
    pub fn at(path: &Path) -> RunFolder {
        RunFolder {
            path: path.to_path_buf(),
        }
    }

    /// Creates `path` (and its parents) with a `logs/` folder inside.
    ///
    /// # Errors
    /// [`FolderError::HoldsGames`] when `path` already holds a `games.csv`
    /// (results already written are never overwritten), or
    /// [`FolderError::Create`].
    pub fn create(path: &Path) -> Result<RunFolder, FolderError> {
        let folder = RunFolder::at(path);
        if folder.games().exists() {
            return Err(FolderError::HoldsGames {
                path: path.to_path_buf(),
                how: "choose another --out",
            });
        }
        std::fs::create_dir_all(path.join("logs")).map_err(|source| FolderError::Create {
            path: path.to_path_buf(),
            source,
        })?;
        Ok(folder)
    }

    /// Starts a new run in `path` (new, or an earlier attempt's folder
    /// that never got to its first game): creates it, takes its lock, and
    /// writes `config.toml` (`config`, the config file's bytes, whole) and
    /// the `shard` file.
    ///
    /// # Errors
    /// [`FolderError::HoldsGames`] (with how to go on: re-rate a finished
    /// run, resume an unfinished one), or an error creating, locking or
    /// writing the folder.
    pub fn begin(
        path: &Path,
        config: &[u8],
        shard: Option<Shard>,
    ) -> Result<(RunFolder, RunLock), FolderError> {
        let existing = RunFolder::at(path);
        if existing.games().exists() {
            return Err(FolderError::HoldsGames {
                path: path.to_path_buf(),
                how: if existing.is_finished() {
                    "choose another --out (`arena rate` re-rates it)"
                } else {
                    "choose another --out, or go on with it: `arena run CONFIG --resume DIR`"
                },
            });
        }
        let folder = RunFolder::create(path)?;
        let lock = folder.lock()?;
        // Whole or not at all, since a resume compares it byte for byte.
        folder.write_config(config)?;
        std::fs::write(folder.path.join("shard"), shard_text(shard)).map_err(|source| {
            FolderError::Write {
                what: "cannot write the run folder",
                source,
            }
        })?;
        Ok((folder, lock))
    }

    /// Takes up the interrupted run in `path` to go on with it: takes its
    /// lock, makes its `logs/` folder if a copy left it out, and checks that
    /// `config` (the config file's bytes) plays the same games as the
    /// folder's `config.toml` ([`crate::config::same_games`]; for a league,
    /// bots added or removed too: [`crate::format::roster::bots_only_change`]) and that
    /// `shard` is the folder's.
    ///
    /// # Errors
    /// [`FolderError::NoConfig`], [`FolderError::InUse`],
    /// [`FolderError::OtherConfig`], [`FolderError::OtherShard`], or an
    /// I/O error.
    pub fn resume(
        path: &Path,
        config: &[u8],
        shard: Option<Shard>,
    ) -> Result<(RunFolder, RunLock), FolderError> {
        let folder = RunFolder::at(path);
        let stored = folder.config().map_err(|source| FolderError::NoConfig {
            path: path.to_path_buf(),
            source,
        })?;
        let lock = folder.lock()?;
        // Bot logs are appended to; a folder copied without them still resumes.
        let logs = folder.path.join("logs");
        std::fs::create_dir_all(&logs)
            .map_err(|source| FolderError::Create { path: logs, source })?;
        // A league may resume with bots added or removed: its roster.csv
        // decides who plays (docs/formats.md, "League").
        if let Some(change) = crate::config::games_difference(&stored, config) {
            if !crate::format::roster::bots_only_change(&stored, config) {
                return Err(FolderError::OtherConfig {
                    path: path.to_path_buf(),
                    change,
                });
            }
        }
        let stored_shard =
            std::fs::read_to_string(folder.path.join("shard")).unwrap_or_else(|_| "all".into());
        if stored_shard.trim() != shard_text(shard) {
            return Err(FolderError::OtherShard {
                path: path.to_path_buf(),
                stored: stored_shard.trim().to_string(),
            });
        }
        Ok((folder, lock))
    }

    /// Takes the folder for this process alone: an exclusive `flock` on
    /// `DIR/.lock`, held until the returned lock is dropped (the process
    /// ends). Two arenas appending to one `games.csv` (a job array task run
    /// twice, say) would corrupt it; the second one is refused instead.
    ///
    /// # Errors
    /// [`FolderError::InUse`] when another process holds the folder;
    /// [`FolderError::Lock`] for any I/O error opening the lock file.
    pub fn lock(&self) -> Result<RunLock, FolderError> {
        let path = self.path.join(".lock");
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|source| FolderError::Lock {
                path: path.clone(),
                source,
            })?;
        // std's lock: flock(2) on Unix, LockFileEx on Windows; the
        // descriptor's close unlocks.
        match file.try_lock() {
            Ok(()) => Ok(RunLock(file)),
            Err(std::fs::TryLockError::WouldBlock) => Err(FolderError::InUse {
                path: self.path.clone(),
            }),
            Err(std::fs::TryLockError::Error(source)) => Err(FolderError::Lock { path, source }),
        }
    }

    /// Whether the folder holds a run: its `config.toml` is there (a shard
    /// that never ran has no folder, or an empty one).
    #[must_use]
    pub fn is_run(&self) -> bool {
        self.path.join("config.toml").exists()
    }

    /// The bytes of the folder's `config.toml`.
    ///
    /// # Errors
    /// Any I/O error reading it.
    pub fn config(&self) -> io::Result<Vec<u8>> {
        std::fs::read(self.path.join("config.toml"))
    }

    /// Writes `config` as the folder's `config.toml`, whole (atomically).
    ///
    /// # Errors
    /// [`FolderError::Write`].
    pub fn write_config(&self, config: &[u8]) -> Result<(), FolderError> {
        write_bytes_atomic(&self.path.join("config.toml"), config).map_err(|source| {
            FolderError::Write {
                what: "cannot copy the config into the run folder",
                source,
            }
        })
    }

    /// The folder's `games.csv`.
    #[must_use]
    pub fn games(&self) -> PathBuf {
        self.path.join("games.csv")
    }

    /// Whether the folder's `games.csv` got its header row: it exists and
    /// holds a whole line. A file cut short before its first newline (a
    /// disk that filled as the run began) holds no game, as no file does.
    #[must_use]
    pub fn has_games(&self) -> bool {
        use std::io::Read as _;
        let Ok(file) = File::open(self.games()) else {
            return false;
        };
        // The header is one short line: its newline comes early or never.
        let mut head = Vec::new();
        let _ = file.take(64 * 1024).read_to_end(&mut head);
        head.contains(&b'\n')
    }

    /// Removes a `games.csv` that never got its header row (see
    /// [`RunFolder::has_games`]), so a resumed run starts it afresh; one
    /// with its header is left as it is.
    ///
    /// # Errors
    /// An I/O error removing the file.
    pub fn clear_headerless_games(&self) -> io::Result<()> {
        let path = self.games();
        if path.exists() && !self.has_games() {
            std::fs::remove_file(&path)?;
        }
        Ok(())
    }

    /// The games in the folder's `games.csv` ([`read_games`]); `None` when
    /// it has none (a run that stopped before its first game, or before
    /// the file's header row was written).
    ///
    /// # Errors
    /// A [`GamesError`] reading the file.
    pub fn read_games(&self) -> Result<Option<GamesRead>, GamesError> {
        if !self.has_games() {
            return Ok(None);
        }
        read_games(&self.games()).map(Some)
    }

    /// The shard this folder holds, from its `shard` file: `Some(shard)`,
    /// `None` for a whole tournament (or no file).
    #[must_use]
    pub fn shard(&self) -> Option<Shard> {
        let text = std::fs::read_to_string(self.path.join("shard")).ok()?;
        text.trim().parse().ok()
    }

    /// Marks the run finished: every game it was to play is in `games.csv`
    /// (the summaries, derived from it, are written next). `arena merge` and `arena slurm` rely
    /// on it to tell a finished shard from an interrupted one.
    ///
    /// # Errors
    /// Any I/O error writing `DIR/finished`.
    pub fn mark_finished(&self, games: usize) -> io::Result<()> {
        // Atomic: a marker cut short by a full disk would still exist, and
        // an interrupted run would pass for a finished one.
        let path = self.path.join("finished");
        write_bytes_atomic(&path, format!("{games} games\n").as_bytes())
    }

    /// Whether the run finished ([`RunFolder::mark_finished`]).
    #[must_use]
    pub fn is_finished(&self) -> bool {
        self.path.join("finished").exists()
    }

    /// How many games the run counted when it finished (from `finished`);
    /// `None` if it did not finish or the marker holds no number.
    #[must_use]
    pub fn finished_games(&self) -> Option<usize> {
        std::fs::read_to_string(self.path.join("finished"))
            .ok()
            .and_then(|t| t.split_whitespace().next()?.parse::<usize>().ok())
    }

    /// The log file of bot `name`: `logs/<name>.stderr.log`. Bot names are
    /// checked ([`endodoi_protocol::valid_name`]), so this stays in `logs/`.
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::GamesCsv;

    #[test]
    fn a_run_folder_has_one_writer_at_a_time() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = RunFolder::create(tmp.path()).unwrap();
        let first = dir.lock().unwrap();
        // flock belongs to the open file, so a second open conflicts even here.
        let second = dir.lock().unwrap_err();
        assert!(matches!(second, FolderError::InUse { .. }));
        assert!(second.to_string().contains("in use by another arena"));
        drop(first);
        assert!(dir.lock().is_ok());
    }

    #[test]
    fn the_finished_marker_and_the_shard_are_read_back() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = RunFolder::create(tmp.path()).unwrap();
        assert!(!dir.is_finished());
        assert_eq!(dir.shard(), None);
        assert_eq!(dir.finished_games(), None);
        std::fs::write(tmp.path().join("shard"), "2/5").unwrap();
        dir.mark_finished(7).unwrap();
        assert!(dir.is_finished());
        assert_eq!(dir.finished_games(), Some(7));
        assert_eq!(dir.shard(), Some(Shard::new(2, 5).unwrap()));
    }

    #[test]
    fn the_stderr_tail_keeps_only_what_the_bot_wrote() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = RunFolder::create(tmp.path()).unwrap();
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
    fn a_run_dir_with_games_is_never_reused() {
        let dir = tempfile::tempdir().unwrap();
        let run = RunFolder::create(dir.path()).unwrap();
        GamesCsv::create(&run).unwrap();
        let err = RunFolder::create(dir.path()).unwrap_err();
        assert!(matches!(err, FolderError::HoldsGames { .. }));
        assert!(err.to_string().ends_with("choose another --out"), "{err}");
    }

    #[test]
    fn a_resume_needs_the_same_config_and_shard() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("run");
        let config = b"[tournament]\nseed = 1\n";
        let shard = Some(Shard::new(1, 2).unwrap());
        let (dir, lock) = RunFolder::begin(&path, config, shard).unwrap();
        assert_eq!(dir.shard(), shard);
        assert!(dir.is_run());
        // Locked while the run goes on.
        assert!(matches!(
            RunFolder::resume(&path, config, shard),
            Err(FolderError::InUse { .. })
        ));
        drop(lock);
        assert!(RunFolder::resume(&path, config, shard).is_ok());
        let e = RunFolder::resume(&path, config, None).unwrap_err();
        assert!(
            e.to_string()
                .ends_with("was run as shard 1/2: resume it with the same --shard"),
            "{e}"
        );
        let e = RunFolder::resume(&path, b"[tournament]\nseed = 2\n", shard).unwrap_err();
        assert!(matches!(e, FolderError::OtherConfig { .. }), "{e}");
        let e = RunFolder::resume(&tmp.path().join("none"), config, shard).unwrap_err();
        assert!(
            e.to_string()
                .ends_with("holds no config.toml: is it a run folder?"),
            "{e}"
        );
        // Once it has games, a new run there is refused with how to go on.
        GamesCsv::create(&dir).unwrap();
        let e = RunFolder::begin(&path, config, shard).unwrap_err();
        assert!(e.to_string().contains("--resume DIR"), "{e}");
        dir.mark_finished(0).unwrap();
        let e = RunFolder::begin(&path, config, shard).unwrap_err();
        assert!(e.to_string().contains("`arena rate` re-rates it"), "{e}");
    }
}
