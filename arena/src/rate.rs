//! `arena rate`: every statistic again from one or more `games.csv` files,
//! for example from several machines, so ratings are never locked inside
//! one run.

use std::collections::HashMap;
use std::path::Path;

use crate::output::{read_games as read_file, GameRow, GamesError, TornLine};
use crate::standings::{GameResult, Tally};

/// The games of some `games.csv` files, tallied, with the bot names in
/// alphabetical order.
#[derive(Clone, Debug)]
pub struct Rated {
    /// Bot names; tally indices refer to this list.
    pub names: Vec<String>,
    /// Counts of every game read.
    pub tally: Tally,
    /// Games read.
    pub games: usize,
    /// Incomplete last lines skipped (a run killed while writing), one per
    /// file that had one: the caller may tell the user.
    pub torn: Vec<TornLine>,
}

impl Rated {
    /// Adds the bots of `bots` that played no game (for example every bot
    /// of a run stopped before its first game), so the standings list them
    /// with 0 games. The names stay in alphabetical order; the counts do
    /// not change.
    pub fn include_bots<S: AsRef<str>>(&mut self, bots: &[S]) {
        let mut names = self.names.clone();
        names.extend(bots.iter().map(|b| b.as_ref().to_string()));
        names.sort();
        names.dedup();
        if names.len() == self.names.len() {
            return;
        }
        let map: Vec<usize> = self
            .names
            .iter()
            .map(|n| names.binary_search(n).expect("every old name is kept"))
            .collect();
        self.tally = self.tally.renumbered(&map, names.len());
        self.names = names;
    }
}

/// Reads ([`crate::output::read_games`]) and tallies `files`. Series
/// numbers are made unique per file, so game pairs never straddle two
/// files.
///
/// # Errors
/// A file that cannot be read or lacks a column, or a row with a bad value
/// (named by file and line); a truncated last line is skipped and reported
/// in [`Rated::torn`], not an error.
pub fn read_games(files: &[impl AsRef<Path>]) -> Result<Rated, GamesError> {
    let mut rows: Vec<GameRow> = Vec::new();
    let mut torn = Vec::new();
    for (f, file) in files.iter().enumerate() {
        let read = read_file(file.as_ref())?;
        torn.extend(read.torn);
        rows.extend(read.rows.into_iter().map(|mut g| {
            g.series |= (f as u64) << 40;
            g
        }));
    }
    // Pairs are found by game number within a series, whatever the row order.
    rows.sort_by_key(|r| (r.series, r.game));
    // Bots in name order, so the statistics depend only on the games, not
    // on the order of files or rows.
    let mut names: Vec<String> = rows
        .iter()
        .flat_map(|r| [r.south.clone(), r.north.clone()])
        .collect();
    names.sort();
    names.dedup();
    let index: HashMap<String, usize> = names
        .iter()
        .enumerate()
        .map(|(i, n)| (n.clone(), i))
        .collect();
    let mut tally = Tally::new(names.len());
    for r in &rows {
        tally.add(GameResult {
            series: r.series,
            game: r.game,
            south: index[&r.south],
            north: index[&r.north],
            winner: r.winner(),
            forfeit: r.is_forfeit(),
        });
    }
    Ok(Rated {
        names,
        tally,
        games: rows.len(),
        torn,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::merge_games;

    /// A games.csv with just the columns these readers use, one row each.
    fn file(dir: &Path, name: &str, rows: &[&str]) -> std::path::PathBuf {
        let path = dir.join(name);
        let mut text = String::from("series,game,south,north,result,termination\n");
        for r in rows {
            text.push_str(r);
            text.push('\n');
        }
        std::fs::write(&path, text).unwrap();
        path
    }

    #[test]
    fn rows_that_make_no_sense_are_refused_with_their_line() {
        let tmp = tempfile::tempdir().unwrap();
        let good = file(
            tmp.path(),
            "good.csv",
            &["1,1,a,b,south,no-moves", "1,2,b,a,draw,no-moves"],
        );
        assert_eq!(read_games(&[&good]).unwrap().games, 2);
        assert_eq!(
            merge_games(&[&good], None).unwrap().games[0]
                .winner
                .as_deref(),
            Some("a")
        );
        for (row, why) in [
            ("1,3,a,a,south,no-moves", "'a' plays itself"),
            ("1,3,,b,north,no-moves", "a game without a bot's name"),
            ("1,3,a,b,won,no-moves", "bad result 'won'"),
        ] {
            let bad = file(tmp.path(), "bad.csv", &["1,1,a,b,south,no-moves", row]);
            let want = format!("{}:3: {why}", bad.display());
            let e = read_games(&[&bad]).unwrap_err().to_string();
            assert!(e.starts_with(&want), "rate: {e}");
            let e = merge_games(&[&bad], None).unwrap_err().to_string();
            assert!(e.starts_with(&want), "merge: {e}");
        }
    }
}
