//! `roster.csv`: a league's bots as they came and went (docs/output-files.md
//! and docs/formats.md, "League"). One row per bot ever in the league, in
//! the order they joined; rewritten whole (a temporary file renamed over
//! the old one) before each round is played, and read back by a resume,
//! which takes the rounds already played from it.

use std::io;
use std::path::{Path, PathBuf};

use super::{csv_row, CsvRow};
use crate::format::roster::{Roster, Stint};

csv_row! {
    /// One row of `roster.csv`: a bot and its time in the league.
    pub struct RosterRow {
        /// The bot's name.
        pub bot: String,
        /// The first round it is paired in (1 for the bots of the start).
        pub joined: u32,
        /// The last round it was in; empty while it is in the league.
        pub retired: Option<u32>,
    }
    file: ROSTER_FILE,
    /// The columns of `roster.csv`, in order.
    columns: ROSTER_COLUMNS,
}

/// The file's name in the run folder.
pub const ROSTER_FILE: &str = "roster.csv";

/// Why `roster.csv` could not be read.
#[derive(Debug, thiserror::Error)]
pub enum RosterFileError {
    /// The file could not be read.
    #[error("cannot read {}", .0.display())]
    Read(PathBuf, #[source] io::Error),
    /// A row is not `bot,joined,retired`.
    #[error("{}: line {line}: {why}: the columns are bot,joined,retired (rounds from 1, retired empty while the bot is in); the file is the arena's own: restore it or start the league again", path.display())]
    Row {
        /// The file.
        path: PathBuf,
        /// Its line, from 1 (the header).
        line: u64,
        /// What is wrong.
        why: String,
    },
}

/// The rows of `roster` (bots named by `names`, by index): each bot ever
/// in the league, by the round it joined, then its index.
#[must_use]
pub fn roster_rows(roster: &Roster, names: &[String]) -> Vec<RosterRow> {
    let mut rows: Vec<(usize, Stint)> = roster
        .stints()
        .iter()
        .enumerate()
        .filter_map(|(b, s)| Some((b, (*s)?)))
        .collect();
    rows.sort_by_key(|&(b, s)| (s.joined, b));
    rows.into_iter()
        .map(|(b, s)| RosterRow {
            bot: names.get(b).cloned().unwrap_or_default(),
            joined: s.joined,
            retired: s.retired,
        })
        .collect()
}

/// The roster of `rows` over a league whose bots of the start are
/// `start` (the config's names, in order): those keep their indices, and
/// each other bot of `rows` follows in row order. Returns the roster and
/// every bot's name, by index.
#[must_use]
pub fn roster_of(rows: &[RosterRow], start: &[String]) -> (Roster, Vec<String>) {
    let mut names = start.to_vec();
    let mut stints: Vec<Option<Stint>> = vec![None; start.len()];
    for row in rows {
        let stint = Some(Stint {
            joined: row.joined,
            retired: row.retired,
        });
        match names.iter().position(|n| *n == row.bot) {
            Some(i) => stints[i] = stint,
            None => {
                names.push(row.bot.clone());
                stints.push(stint);
            }
        }
    }
    (Roster::from_stints(stints), names)
}

/// Writes `dir/roster.csv` whole from `roster` (bots named by `names`).
///
/// # Errors
/// Any I/O error.
pub fn write_roster(dir: &Path, roster: &Roster, names: &[String]) -> io::Result<()> {
    super::write_rows(dir, &roster_rows(roster, names))
}

/// The rows of `dir/roster.csv`; `None` when there is no such file (a
/// league that stopped before its first round, or not a league).
///
/// # Errors
/// [`RosterFileError`]: unreadable, or a row that is not one.
pub fn read_roster(dir: &Path) -> Result<Option<Vec<RosterRow>>, RosterFileError> {
    let path = dir.join(RosterRow::FILE);
    let bytes = match std::fs::read(&path) {
        Ok(b) => b,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(RosterFileError::Read(path, e)),
    };
    let mut reader = csv::Reader::from_reader(bytes.as_slice());
    let mut rows = Vec::new();
    for (i, row) in reader.deserialize::<RosterRow>().enumerate() {
        let bad = |why: String| RosterFileError::Row {
            path: path.clone(),
            line: i as u64 + 2,
            why,
        };
        let row = row.map_err(|e| bad(e.to_string()))?;
        if row.joined == 0 {
            return Err(bad(format!(
                "bot '{}' joined at round 0 (rounds count from 1)",
                row.bot
            )));
        }
        if rows.iter().any(|r: &RosterRow| r.bot == row.bot) {
            return Err(bad(format!("bot '{}' is listed twice", row.bot)));
        }
        rows.push(row);
    }
    Ok(Some(rows))
}

/// The roster of the league of `config` in run folder `dir`, with its
/// rows, when `config` is a league's and `dir` has a `roster.csv` (one
/// that cannot be read counts as none: the summaries are then those of
/// the bots of the start). `config`'s bots must include the roster's.
#[must_use]
pub fn league_roster(
    config: &crate::config::Config,
    dir: &Path,
) -> Option<(Roster, Vec<RosterRow>)> {
    if !matches!(config.format, crate::format::Format::League(_)) {
        return None;
    }
    let rows = read_roster(dir).ok().flatten().filter(|r| !r.is_empty())?;
    let names: Vec<String> = config.bots.iter().map(|b| b.name.clone()).collect();
    let (roster, all) = roster_of(&rows, &names);
    (all.len() == names.len()).then_some((roster, rows))
}

/// Marks each retired bot of `rows` in `dir/standings.csv` (its `note`:
/// `retired after round N`) and returns the line the console's table
/// gets under it, naming them; `None` when no bot retired.
///
/// # Errors
/// `standings.csv` cannot be read or written.
pub fn mark_retired(dir: &Path, rows: &[RosterRow]) -> io::Result<Option<String>> {
    let retired: Vec<(&str, u32)> = rows
        .iter()
        .filter_map(|r| Some((r.bot.as_str(), r.retired?)))
        .collect();
    if retired.is_empty() {
        return Ok(None);
    }
    let path = dir.join(super::StandingRow::FILE);
    let mut standings: Vec<super::StandingRow> = csv::Reader::from_path(&path)
        .map_err(io::Error::other)?
        .deserialize()
        .collect::<Result<_, _>>()
        .map_err(io::Error::other)?;
    for row in &mut standings {
        if let Some((_, last)) = retired.iter().find(|(b, _)| *b == row.bot) {
            if row.note.is_empty() {
                row.note = format!("retired after round {last}");
            }
        }
    }
    super::write_rows(dir, &standings)?;
    let named: Vec<String> = retired
        .iter()
        .map(|(b, last)| format!("{b} (after round {last})"))
        .collect();
    Ok(Some(format!(
        "retired, no longer paired (their games and ratings stay): {}",
        named.join(", ")
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_roster_with_a_bot_twice_or_joined_at_round_0_is_refused_naming_its_line() {
        let dir = tempfile::tempdir().unwrap();
        for (text, line, why) in [
            (
                "bot,joined,retired\na,1,\nb,1,4\na,5,\n",
                4,
                "bot 'a' is listed twice",
            ),
            (
                "bot,joined,retired\na,1,\nb,0,\n",
                3,
                "bot 'b' joined at round 0",
            ),
        ] {
            std::fs::write(dir.path().join(ROSTER_FILE), text).unwrap();
            let e = read_roster(dir.path()).unwrap_err().to_string();
            assert!(e.contains(&format!("line {line}: {why}")), "{e}");
        }
        std::fs::write(
            dir.path().join(ROSTER_FILE),
            "bot,joined,retired\na,1,\nb,2,3\n",
        )
        .unwrap();
        assert_eq!(read_roster(dir.path()).unwrap().map(|r| r.len()), Some(2));
    }

    #[test]
    fn a_roster_goes_through_its_file_and_back() {
        let dir = tempfile::tempdir().unwrap();
        let start: Vec<String> = ["a", "b", "c"].map(String::from).to_vec();
        let mut roster = Roster::starting(3, &[1]);
        roster.join(3, 4);
        roster.join(1, 6);
        roster.retire(0, 5);
        let mut names = start.clone();
        names.push("d".into());
        write_roster(dir.path(), &roster, &names).unwrap();
        let text = std::fs::read_to_string(dir.path().join("roster.csv")).unwrap();
        assert_eq!(text, "bot,joined,retired\na,1,5\nc,1,\nd,4,\nb,6,\n");
        let rows = read_roster(dir.path()).unwrap().unwrap();
        assert_eq!(roster_of(&rows, &start), (roster, names));
        assert!(read_roster(&dir.path().join("none")).unwrap().is_none());
        // The header is the row type's.
        let mut w = csv::Writer::from_writer(Vec::new());
        w.serialize(RosterRow::default()).unwrap();
        let header = String::from_utf8(w.into_inner().unwrap()).unwrap();
        assert!(header.starts_with(&ROSTER_COLUMNS.join(",")));
        std::fs::write(dir.path().join("roster.csv"), "bot,joined,retired\na,x,\n").unwrap();
        let e = read_roster(dir.path()).unwrap_err().to_string();
        assert!(e.contains("roster.csv: line 2: "), "{e}");
        assert!(e.contains("the columns are bot,joined,retired"), "{e}");
        // Other columns: the first row names them.
        std::fs::write(dir.path().join("roster.csv"), "name,round\na,1\n").unwrap();
        let e = read_roster(dir.path()).unwrap_err().to_string();
        assert!(e.contains("roster.csv: line 2: "), "{e}");
    }
}
