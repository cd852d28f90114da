//! `league.csv`, written round by round: each round's pairings (and its
//! bye) appended once the round is paired, so that neither the run nor a
//! replay of it keeps a league's pairings past their round
//! ([`crate::format::LeagueCourse::pairings`] holds the last round's
//! only).

use std::fs::{File, OpenOptions};
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};

use crate::format::{match_quality, LeagueCourse, Plan};
use crate::output::{num, CsvRow, LeagueRow};

/// `league.csv` open for appending, round by round.
pub struct LeagueCsv {
    file: File,
    /// The length of the file's whole rows, bytes.
    len: u64,
    /// The rounds written (the last one's number; 0: none).
    rounds: u32,
    /// Whether each round is synced to disk as it is written (the run's
    /// own file), or only the whole file once written (a replay's).
    sync_each: bool,
    /// For a replay's file: the temporary file's path and the file it
    /// replaces once written whole ([`LeagueCsv::finish`]).
    replaces: Option<(PathBuf, PathBuf)>,
    /// For a resumed file: where its last round starts, replaced by the
    /// first rows written ([`LeagueCsv::resume`]).
    replace_from: Option<u64>,
}

impl LeagueCsv {
    /// Creates `path` (emptied if it was there) with its header row: a
    /// run's `league.csv`, each round synced as it is written. A resumed
    /// run pairs its rounds again from round 1, so it writes the file
    /// anew.
    ///
    /// # Errors
    /// Any I/O error creating or writing the file.
    pub fn create(path: &Path) -> io::Result<LeagueCsv> {
        let file = OpenOptions::new()
            .create(true)
            .write(true)
            .truncate(true)
            .open(path)?;
        let mut csv = LeagueCsv {
            file,
            len: 0,
            rounds: 0,
            sync_each: true,
            replaces: None,
            replace_from: None,
        };
        csv.write_header()?;
        Ok(csv)
    }

    /// Opens a resumed run's `path` to go on with it: the rounds it holds
    /// whole are kept as they are (the pairing is a pure function of the
    /// games, so the resumed run pairs them again to the same rows) and
    /// only the rounds after them are written. Its last round may have
    /// been cut by the run's end (a partial row, or not all its rows): its
    /// rows stay until the run writes that round again, in their place (a
    /// run killed before then loses none). A file that is missing, whose
    /// header is not `league.csv`'s, or whose rounds are not 1, 2, 3 ...
    /// in order, is written anew
    /// ([`LeagueCsv::create`]). Complete rows of earlier rounds are never
    /// rewritten.
    ///
    /// # Errors
    /// Any I/O error reading, cutting or creating the file.
    pub fn resume(path: &Path) -> io::Result<LeagueCsv> {
        let text = match std::fs::read(path) {
            Ok(t) => t,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return LeagueCsv::create(path),
            Err(e) => return Err(e),
        };
        let Some((len, rounds)) = kept_rounds(&text) else {
            return LeagueCsv::create(path);
        };
        // The last round stays until its rows are written again, so that a
        // run killed before that loses none of the file's rows.
        let file = OpenOptions::new().write(true).open(path)?;
        Ok(LeagueCsv {
            file,
            len,
            rounds,
            sync_each: true,
            replaces: None,
            replace_from: Some(len),
        })
    }

    /// A `league.csv` written whole in place of `path`'s: into
    /// `path.tmp`, renamed over `path` by [`LeagueCsv::finish`], so a
    /// reader never sees half of it.
    ///
    /// # Errors
    /// Any I/O error creating or writing the temporary file.
    pub fn replacing(path: &Path) -> io::Result<LeagueCsv> {
        let mut tmp = path.as_os_str().to_owned();
        tmp.push(".tmp");
        let tmp = PathBuf::from(tmp);
        let mut csv = LeagueCsv::create(&tmp)?;
        csv.sync_each = false;
        csv.replaces = Some((tmp, path.to_path_buf()));
        Ok(csv)
    }

    fn write_header(&mut self) -> io::Result<()> {
        let mut rows = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(Vec::new());
        rows.write_record(LeagueRow::COLUMNS)?;
        let bytes = rows.into_inner().map_err(|e| e.into_error())?;
        self.write(&bytes)
    }

    /// Appends the rows of `plan`'s last round paired if it is a league
    /// round not written yet (nothing otherwise: call it after each result
    /// recorded); bots are indices into `names`.
    ///
    /// # Errors
    /// Any I/O error; the file then ends in its last whole row.
    pub fn follow(&mut self, plan: &Plan, names: &[String]) -> io::Result<()> {
        let Some(course) = plan.league() else {
            return Ok(());
        };
        if course.rounds_paired <= self.rounds {
            return Ok(());
        }
        let mut rows = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(Vec::new());
        for row in round_rows(course, names) {
            rows.serialize(row)?;
        }
        let bytes = rows.into_inner().map_err(|e| e.into_error())?;
        self.write(&bytes)?;
        self.rounds = course.rounds_paired;
        Ok(())
    }

    /// Writes whole rows with one write (synced for a run's file); a
    /// failed write is cut back to the last whole row.
    fn write(&mut self, bytes: &[u8]) -> io::Result<()> {
        if let Some(at) = self.replace_from.take() {
            self.file.set_len(at)?;
            std::io::Seek::seek(&mut self.file, io::SeekFrom::Start(at))?;
        }
        let mut written = self.file.write_all(bytes);
        if self.sync_each {
            written = written.and_then(|()| self.file.sync_data());
        }
        if let Err(e) = written {
            let _ = self.file.set_len(self.len);
            return Err(e);
        }
        self.len += bytes.len() as u64;
        Ok(())
    }

    /// Syncs the file; a replay's replaces the file it was made for.
    ///
    /// # Errors
    /// Any I/O error syncing or renaming; the old file is then unchanged.
    pub fn finish(self) -> io::Result<()> {
        self.file.sync_all()?;
        if let Some((tmp, path)) = &self.replaces {
            std::fs::rename(tmp, path)?;
        }
        Ok(())
    }
}

/// Whether a resumed run's `league.csv` at `path` is written anew rather
/// than gone on with ([`LeagueCsv::resume`]): a file that is there but
/// whose header is not `league.csv`'s, or whose rounds are not 1, 2, 3 ...
/// in order (a row edited or damaged). `false` for a file kept, or
/// missing or unreadable (then nothing of it is lost, or the resume
/// stops on the error).
#[must_use]
pub fn rewritten_on_resume(path: &Path) -> bool {
    std::fs::read(path).is_ok_and(|text| kept_rounds(&text).is_none())
}

/// Where a resumed `league.csv` (its bytes `text`) is cut and how many
/// rounds it keeps: the whole rows before its last round's first row, and
/// that round less one ([`LeagueCsv::resume`]). `None` if its header is not
/// `league.csv`'s, or its rounds are not 1, 2, 3 ... in order (a row's
/// round unreadable, or edited).
fn kept_rounds(text: &[u8]) -> Option<(u64, u32)> {
    let whole = text.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let mut rows = csv::ReaderBuilder::new()
        .has_headers(true)
        .from_reader(&text[..whole]);
    let header = rows.headers().ok()?;
    if !header.iter().eq(LeagueRow::COLUMNS.iter().copied()) {
        return None;
    }
    let header_len = rows.position().byte();
    // (round, byte offset of its first row)
    let mut last: Option<(u32, u64)> = None;
    let mut record = csv::StringRecord::new();
    loop {
        let at = rows.position().byte();
        if !rows.read_record(&mut record).ok()? {
            break;
        }
        let round: u32 = record.get(0)?.parse().ok()?;
        let next = last.map_or(1, |(r, _)| r + 1);
        match last {
            Some((r, _)) if r == round => {}
            _ if round == next => last = Some((round, at)),
            _ => return None,
        }
    }
    Some(last.map_or((header_len, 0), |(round, at)| (at, round - 1)))
}

/// The rows of `league.csv` of `course`'s last round paired: its pairings
/// and bye with the ratings they were made by (bots are indices into
/// `names`, a name past them `?`).
#[must_use]
pub fn round_rows(course: &LeagueCourse, names: &[String]) -> Vec<LeagueRow> {
    let name = |i: usize| names.get(i).cloned().unwrap_or_else(|| "?".to_string());
    course
        .pairings
        .iter()
        .map(|p| LeagueRow {
            round: p.round,
            series: p.series,
            south: name(p.south.bot),
            north: p.north.map_or_else(String::new, |n| name(n.bot)),
            south_elo: num(p.south.elo, 1),
            south_sd: num(p.south.sd, 1),
            south_games: p.south.games,
            north_elo: p.north.map_or_else(String::new, |n| num(n.elo, 1)),
            north_sd: p.north.map_or_else(String::new, |n| num(n.sd, 1)),
            north_games: p.north.map(|n| n.games),
            quality: p
                .north
                .map_or_else(String::new, |n| num(match_quality(&p.south, &n), 4)),
            note: if p.north.is_none() {
                "bye".to_string()
            } else if p.catch_up {
                "catch-up".to_string()
            } else {
                String::new()
            },
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::{test_result, Format, LeagueSettings, PairBy, LEAGUE_CATCH_UP};

    /// A league of 5 bots over 3 rounds, the lower index winning.
    fn plan() -> Plan {
        let format = Format::League(LeagueSettings {
            rounds: Some(3),
            settle_los: None,
            seed: 2,
            prior_draws: 1.0,
            bootstrap: 0,
            pairing: PairBy::Rating,
            catch_up: LEAGUE_CATCH_UP,
        });
        Plan::new(&format, 5, &[])
    }

    fn names() -> Vec<String> {
        (1..=5).map(|i| format!("b{i}")).collect()
    }

    /// Plays `plan` to its end, following it into `csv` after each result
    /// (twice, to show a round is written once); returns every round's
    /// rows, each taken as it was paired.
    fn play(plan: &mut Plan, csv: &mut LeagueCsv) -> Vec<LeagueRow> {
        let names = names();
        let mut all = Vec::new();
        csv.follow(plan, &names).unwrap();
        while let Some(stage) = plan.next_stage() {
            all.extend(round_rows(plan.league().unwrap(), &names));
            for s in &stage.series {
                plan.record(&test_result(*s, 2, 0));
                csv.follow(plan, &names).unwrap();
                csv.follow(plan, &names).unwrap();
            }
        }
        all
    }

    fn read(path: &Path) -> Vec<LeagueRow> {
        let mut reader = csv::Reader::from_path(path).unwrap();
        assert_eq!(reader.headers().unwrap(), LeagueRow::COLUMNS);
        reader.deserialize().map(Result::unwrap).collect()
    }

    /// A temporary folder holding `league.csv` with `text`, and the file's
    /// path.
    fn league_file(text: &str) -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("league.csv");
        std::fs::write(&path, text).unwrap();
        (dir, path)
    }

    #[test]
    fn each_round_is_appended_once_as_it_is_paired() {
        let (_dir, path) = league_file("an older run's file\n");
        let mut csv = LeagueCsv::create(&path).unwrap();
        let mut plan = plan();
        let all = play(&mut plan, &mut csv);
        // 2 series and a bye a round.
        assert_eq!(all.len(), 9);
        let rounds: Vec<u32> = all.iter().map(|r| r.round).collect();
        assert_eq!(rounds, [1, 1, 1, 2, 2, 2, 3, 3, 3]);
        assert_eq!(all.iter().filter(|r| r.note == "bye").count(), 3);
        // On disk as each round was written, before finish.
        assert_eq!(read(&path), all);
        csv.finish().unwrap();
        assert_eq!(read(&path), all);
    }

    #[test]
    fn a_replays_file_replaces_the_old_one_only_once_whole() {
        let (dir, path) = league_file("the run's file\n");
        let mut csv = LeagueCsv::replacing(&path).unwrap();
        let all = play(&mut plan(), &mut csv);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "the run's file\n");
        csv.finish().unwrap();
        assert_eq!(read(&path), all);
        assert!(!dir.path().join("league.csv.tmp").exists());
    }

    #[test]
    fn a_resumed_file_keeps_its_rounds_and_writes_its_last_again() {
        let header = format!("{}\n", LeagueRow::COLUMNS.join(","));
        let row =
            |round: u32, series: u32| format!("{round},{series},a,b,0.0,1.0,0,0.0,1.0,0,0.5,\n");
        let whole = format!("{header}{}{}{}", row(1, 1), row(1, 2), row(2, 3));
        // The last round (3) may be incomplete (the run cut it short): it
        // is written again, the partial row after it with it.
        let text = format!("{whole}{}{}3,6,a", row(2, 4), row(3, 5));
        let cut = (whole.len() + row(2, 4).len()) as u64;
        assert_eq!(kept_rounds(text.as_bytes()), Some((cut, 2)));
        assert_eq!(
            kept_rounds(header.as_bytes()),
            Some((header.len() as u64, 0))
        );
        assert_eq!(kept_rounds(b"round,other\n1,2\n"), None);
        assert_eq!(kept_rounds(format!("{header}x,1\n").as_bytes()), None);
        // Rounds out of order (an edited row), or from 0: written anew.
        let edited = format!("{whole}{}", row(99, 4));
        assert_eq!(kept_rounds(edited.as_bytes()), None);
        assert_eq!(
            kept_rounds(format!("{header}{}", row(0, 1)).as_bytes()),
            None
        );

        let (_dir, path) = league_file(&text);
        let mut csv = LeagueCsv::resume(&path).unwrap();
        assert_eq!(csv.rounds, 2);
        // Nothing goes before the last round is written again.
        assert_eq!(std::fs::read(&path).unwrap(), text.as_bytes());
        csv.write(row(3, 5).as_bytes()).unwrap();
        let again = format!("{}{}", &text[..cut as usize], row(3, 5));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), again);
    }

    #[test]
    fn a_damaged_file_is_known_to_be_written_anew_and_a_sound_or_missing_one_is_not() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("league.csv");
        assert!(!rewritten_on_resume(&path), "missing");
        let header = format!("{}\n", LeagueRow::COLUMNS.join(","));
        let row = |round: u32| format!("{round},{round},a,b,0.0,1.0,0,0.0,1.0,0,0.5,\n");
        std::fs::write(&path, format!("{header}{}{}", row(1), row(2))).unwrap();
        assert!(!rewritten_on_resume(&path), "sound");
        std::fs::write(&path, format!("{header}{}{}", row(1), row(7))).unwrap();
        assert!(rewritten_on_resume(&path), "a round out of order");
        std::fs::write(&path, "round,other\n1,2\n").unwrap();
        assert!(rewritten_on_resume(&path), "another header");
    }
}
