//! Follows a run folder's `games.csv` as it grows, as `tail -f` does: its
//! length is polled, and when it grows the rows after those already read
//! are read with [`GamesReader`] from where the last read stopped
//! ([`GamesReader::open_at`]: each row is read once, however long the file
//! grows), so every row is parsed and checked as everywhere else. A last line without its newline (a write under way) is
//! left for the next poll, not counted. So a folder being written by
//! another arena (a Slurm shard, on a shared file system), a finished one
//! or a merged one can be watched by `arena serve`.

use std::path::{Path, PathBuf};

use crate::output::{GameRow, GamesError, GamesReader, ReadPoint};

/// How often `arena serve` looks at the file's length.
pub const POLL: std::time::Duration = std::time::Duration::from_millis(300);

/// A `games.csv` being followed.
#[derive(Clone, Debug)]
pub struct Follower {
    path: PathBuf,
    /// Whole rows read so far.
    rows: usize,
    /// Where the next row starts.
    next: ReadPoint,
    /// The file's length at the last read.
    len: Option<u64>,
}

impl Follower {
    /// Follows the `games.csv` at `path`, from its first row.
    #[must_use]
    pub fn new(path: &Path) -> Follower {
        Follower {
            path: path.to_path_buf(),
            rows: 0,
            next: ReadPoint::default(),
            len: None,
        }
    }

    /// The file.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whole rows read so far.
    #[must_use]
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// The whole rows added since the last call (all of them the first
    /// time); none if the file's length did not change.
    ///
    /// # Errors
    /// As [`Follower::poll_each`].
    pub fn poll(&mut self) -> Result<Vec<GameRow>, GamesError> {
        let mut rows = Vec::new();
        self.poll_each(|row| rows.push(row))?;
        Ok(rows)
    }

    /// Calls `each` with every whole row added since the last call (all
    /// of them the first time), one at a time as they are read, so that a
    /// file of millions of rows is never held whole; none if the file's
    /// length did not change. Returns the rows read.
    ///
    /// # Errors
    /// The file cannot be read, lacks a column, has a bad row (the rows
    /// before it were handed to `each`; the next call reads on from the
    /// bad row), or is shorter than it was ([`GamesError::Shrank`]: it was
    /// replaced).
    pub fn poll_each(&mut self, mut each: impl FnMut(GameRow)) -> Result<usize, GamesError> {
        let len = std::fs::metadata(&self.path)
            .map_err(|source| GamesError::Read {
                path: self.path.clone(),
                source,
            })?
            .len();
        if self.len == Some(len) {
            return Ok(0);
        }
        if self.len.is_some_and(|was| len < was) {
            return Err(GamesError::Shrank {
                path: self.path.clone(),
            });
        }
        let mut reader = GamesReader::open_at(&self.path, self.next)?;
        let mut read = 0;
        while let Some(row) = reader.next() {
            match row {
                Ok((_, row)) => {
                    each(row);
                    read += 1;
                    self.next = reader.point();
                }
                Err(e) => {
                    self.rows += read;
                    return Err(e);
                }
            }
        }
        self.next = reader.point();
        self.rows += read;
        self.len = Some(len);
        Ok(read)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write as _;

    const HEADER: &str = "series,game,pair,opening,south,north,holes,seeds,max_laps,max_plies,moves,plies,south_seeds,north_seeds,result,termination,detail,duration_ms\n";

    fn row(game: u32) -> String {
        format!(
            "1,{game},{},,a,b,2,1,0,0,1,1,2,0,south,no-moves,,1\n",
            game.div_ceil(2)
        )
    }

    #[test]
    fn rows_are_read_once_as_they_come_and_a_torn_line_waits_for_its_newline() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.csv");
        std::fs::write(&path, format!("{HEADER}{}", row(1))).unwrap();
        let mut f = Follower::new(&path);
        let first = f.poll().unwrap();
        assert_eq!(first.len(), 1);
        assert_eq!(first[0].game, 1);
        assert!(f.poll().unwrap().is_empty(), "nothing new");
        let mut file = std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap();
        let second = row(2);
        let (head, tail) = second.split_at(10);
        file.write_all(head.as_bytes()).unwrap();
        assert!(f.poll().unwrap().is_empty(), "a torn line is not a row");
        file.write_all(tail.as_bytes()).unwrap();
        file.write_all(row(3).as_bytes()).unwrap();
        let games: Vec<u32> = f.poll().unwrap().iter().map(|r| r.game).collect();
        assert_eq!(games, [2, 3]);
        assert_eq!(f.rows(), 3);
        // Read on from where it stopped: a bad row already read is not
        // read again, and a bad new row is named by its line in the file.
        file.write_all(b"1,4,2,,a,b,2,1,0,0,1,1,2,0,sideways,no-moves,,1\n")
            .unwrap();
        let e = f.poll().unwrap_err().to_string();
        assert!(e.contains(":5:"), "{e}");
        // Rows before a bad one are handed over once; the next look reads
        // on from the bad row.
        file.write_all(b"1,5,3,,a,b,2,1,0,0,1,1,2,0,south,no-moves,,1\n")
            .unwrap();
        let mut bad = Follower::new(&path);
        let mut games = Vec::new();
        assert!(bad.poll_each(|r| games.push(r.game)).is_err());
        assert_eq!(games, [1, 2, 3], "the rows before the bad one");
        assert_eq!(bad.rows(), 3);
        assert!(bad.poll_each(|r| games.push(r.game)).is_err(), "still bad");
        assert_eq!(games, [1, 2, 3], "none twice");
        // A file replaced by a shorter one cannot be followed on.
        std::fs::write(&path, format!("{HEADER}{}", row(1))).unwrap();
        assert!(matches!(f.poll(), Err(GamesError::Shrank { .. })));
    }

    #[test]
    fn a_reader_goes_on_from_its_point_as_a_whole_read_would() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.csv");
        let all: String = (1..=6).map(row).collect();
        std::fs::write(&path, format!("{HEADER}{all}")).unwrap();
        let whole: Vec<(u64, u32)> = GamesReader::open(&path)
            .unwrap()
            .map(|r| r.map(|(line, g)| (line, g.game)).unwrap())
            .collect();
        let mut first = GamesReader::open(&path).unwrap();
        let mut got: Vec<(u64, u32)> = first
            .by_ref()
            .take(2)
            .map(|r| r.map(|(line, g)| (line, g.game)).unwrap())
            .collect();
        let at = first.point();
        got.extend(
            GamesReader::open_at(&path, at)
                .unwrap()
                .map(|r| r.map(|(line, g)| (line, g.game)).unwrap()),
        );
        assert_eq!(got, whole);
        assert_eq!(whole[0], (2, 1));
    }
}
