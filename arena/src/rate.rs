//! `arena rate`: every statistic again from one or more `games.csv` files,
//! for example from several machines, so ratings are never locked inside
//! one run.

use std::collections::{HashMap, HashSet};
use std::hash::{Hash, Hasher};
use std::path::Path;

use crate::output::{Duplicates, GameRow, GamesError, GamesReader, RowChecks, TornLine};
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
    /// The files without a `moves` column, whose rows were counted without
    /// the replay check: the caller may tell the user.
    pub unreplayed: Vec<std::path::PathBuf>,
    /// Files whose games equal an earlier file's, game for game (two runs
    /// of one config and seed, say): each with that earlier file. Their
    /// games count twice; the caller may warn.
    pub twins: Vec<(std::path::PathBuf, std::path::PathBuf)>,
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

/// Reads and tallies `files`, streaming: each file is read row by row
/// ([`GamesReader`]) twice, and no row is kept. The first pass checks every
/// row ([`RowChecks`]: replayed with the rules engine, no game twice in a
/// file, and one rules for all unless `mixed_rules`) and collects the bot
/// names; the second adds each game to the [`Tally`], holding only the
/// first game of a game pair until its second comes. Memory is the
/// tally's, plus one key per game for the duplicate check; not the file's
/// size. Series numbers are made unique per file, so game pairs never
/// straddle two files.
///
/// # Errors
/// A file that cannot be read or lacks a column, a row with a bad value, a
/// row that disagrees with its moves, a game twice, or games of two rules
/// (named by file and line); a truncated last line is skipped and reported
/// in [`Rated::torn`], not an error.
pub fn read_games(files: &[impl AsRef<Path>], mixed_rules: bool) -> Result<Rated, GamesError> {
    read_games_with(files, mixed_rules, None, crate::config::Adjudicate::OFF)
}

/// [`read_games`], with the endgame tables that check the rows adjudicated
/// `tablebase` ([`RowChecks::with_tables`]) and the run's `[board]
/// adjudicate`, where known ([`RowChecks::with_adjudicate`]).
///
/// # Errors
/// As [`read_games`].
pub fn read_games_with(
    files: &[impl AsRef<Path>],
    mixed_rules: bool,
    tables: Option<std::sync::Arc<endodoi_tablebase::Tables>>,
    adjudicate: crate::config::Adjudicate,
) -> Result<Rated, GamesError> {
    let mut checks = RowChecks::new(Duplicates::InAFile, mixed_rules)
        .with_tables(tables)
        .with_adjudicate(adjudicate);
    let mut names: HashSet<String> = HashSet::new();
    let mut torn = Vec::new();
    let mut games = 0;
    let mut prints: Vec<(u64, &Path)> = Vec::new();
    let mut twins = Vec::new();
    for file in files {
        let mut reader = GamesReader::open(file.as_ref())?;
        let index = checks.file(reader.path(), &reader.columns())?;
        let mut print = std::hash::DefaultHasher::new();
        let before = games;
        for row in reader.by_ref() {
            let (line, row) = row?;
            checks.row(index, line, &row)?;
            (row.series, row.game, &row.south, &row.north, &row.moves).hash(&mut print);
            (&row.south_seeds, &row.north_seeds).hash(&mut print);
            for name in [row.south, row.north] {
                if !names.contains(&name) {
                    names.insert(name);
                }
            }
            games += 1;
        }
        torn.extend(reader.torn());
        (games - before).hash(&mut print);
        let print = print.finish();
        if let Some((_, first)) = prints.iter().find(|(p, _)| *p == print && games > before) {
            twins.push((file.as_ref().to_path_buf(), first.to_path_buf()));
        }
        prints.push((print, file.as_ref()));
    }
    let unreplayed = checks.unreplayed().map(Path::to_path_buf).collect();
    drop(checks);
    // Bots in name order, so the statistics depend only on the games, not
    // on the order of files or rows.
    let mut names: Vec<String> = names.into_iter().collect();
    names.sort_unstable();
    let index: HashMap<&str, usize> = names
        .iter()
        .enumerate()
        .map(|(i, n)| (n.as_str(), i))
        .collect();
    let mut tally = Tally::new(names.len());
    for (f, file) in files.iter().enumerate() {
        let results = GamesReader::open(file.as_ref())?
            .map(|row| row.map(|(_, r)| result(&r, (f as u64) << 40, &index)));
        tally_pairs(&mut tally, results)?;
    }
    Ok(Rated {
        names,
        tally,
        games,
        torn,
        unreplayed,
        twins,
    })
}

/// The result of game `r`, its series made unique with `file_bits`.
fn result(r: &GameRow, file_bits: u64, index: &HashMap<&str, usize>) -> GameResult {
    GameResult {
        series: r.series | file_bits,
        game: r.game,
        south: index[r.south.as_str()],
        north: index[r.north.as_str()],
        winner: r.winner(),
        forfeit: r.is_forfeit(),
    }
}

/// Adds every game of `results` to `tally`, whatever their order: a game
/// pair's two games go in one after the other (the first, then the
/// second), so that the tally counts the pair; the first to come waits,
/// alone, until the second does. Games whose partner never comes go in at
/// the end.
///
/// # Errors
/// The first error of `results`.
pub fn tally_pairs<E>(
    tally: &mut Tally,
    results: impl Iterator<Item = Result<GameResult, E>>,
) -> Result<(), E> {
    let mut waiting: HashMap<(u64, u32), GameResult> = HashMap::new();
    for g in results {
        let g = g?;
        match waiting.remove(&(g.series, g.game.div_ceil(2))) {
            None => {
                waiting.insert((g.series, g.game.div_ceil(2)), g);
            }
            Some(other) => {
                let (first, second) = if other.game < g.game {
                    (other, g)
                } else {
                    (g, other)
                };
                tally.add(first);
                tally.add(second);
            }
        }
    }
    let mut alone: Vec<GameResult> = waiting.into_values().collect();
    alone.sort_by_key(|g| (g.series, g.game));
    for g in alone {
        tally.add(g);
    }
    Ok(())
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
        assert_eq!(read_games(&[&good], false).unwrap().games, 2);
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
            let e = read_games(&[&bad], false).unwrap_err().to_string();
            assert!(e.starts_with(&want), "rate: {e}");
            let e = merge_games(&[&bad], None).unwrap_err().to_string();
            assert!(e.starts_with(&want), "merge: {e}");
        }
    }
}
