//! `arena rate`: every statistic again from one or more `games.csv` files,
//! for example from several machines, so ratings are never locked inside
//! one run.

use std::collections::HashMap;
use std::path::Path;

use anyhow::Context as _;
use endodoi::Side;

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
    /// Incomplete last lines skipped (a run killed while writing).
    pub skipped: usize,
}

/// One row of a `games.csv`, as far as the statistics need it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedGame {
    /// The series number.
    pub series: u64,
    /// The game's number in its series, from 1.
    pub game: u32,
    /// South's bot name.
    pub south: String,
    /// North's bot name.
    pub north: String,
    /// The winner, `None` for a draw.
    pub winner: Option<Side>,
    /// How the game ended (`termination`: `no-moves`, `timeout`, ...).
    pub termination: String,
}

impl RecordedGame {
    /// Whether the loser lost by a fault.
    #[must_use]
    pub fn forfeit(&self) -> bool {
        !matches!(self.termination.as_str(), "no-moves" | "ply-limit")
    }
}

/// The games of one `games.csv`, and whether its last line was incomplete
/// (a run killed mid-write leaves at most that; it is skipped).
///
/// # Errors
/// The file cannot be read or lacks a column, or a row has a bad value
/// (named by file and line).
pub fn recorded_games(path: &Path) -> anyhow::Result<(Vec<RecordedGame>, bool)> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let (complete, cut) = match text.rfind('\n') {
        Some(end) if end + 1 < text.len() => (&text[..=end], true),
        _ => (&text[..], false),
    };
    let mut reader = csv::Reader::from_reader(complete.as_bytes());
    let headers = reader
        .headers()
        .with_context(|| format!("{} has no header row", path.display()))?
        .clone();
    let col = |name: &str| {
        headers.iter().position(|h| h == name).with_context(|| {
            format!(
                "{} has no column '{name}': is it an arena games.csv?",
                path.display()
            )
        })
    };
    let cols: Vec<usize> = ["series", "game", "south", "north", "result", "termination"]
        .iter()
        .map(|c| col(c))
        .collect::<anyhow::Result<_>>()?;
    let mut games = Vec::new();
    for (i, record) in reader.records().enumerate() {
        let line = i + 2;
        let r = record.with_context(|| format!("{}:{line}: not a CSV row", path.display()))?;
        let field = |c: usize| r.get(cols[c]).unwrap_or("");
        let bad = |c: usize| {
            let what = ["series", "game", "south", "north", "result", "termination"][c];
            anyhow::anyhow!("{}:{line}: bad {what} '{}'", path.display(), field(c))
        };
        games.push(RecordedGame {
            series: field(0).parse().map_err(|_| bad(0))?,
            game: field(1).parse().map_err(|_| bad(1))?,
            south: field(2).to_string(),
            north: field(3).to_string(),
            winner: row_result(path, line as u64, field(2), field(3), field(4))?,
            termination: field(5).to_string(),
        });
    }
    Ok((games, cut))
}

/// Reads and tallies `files`. Series numbers are made unique per file, so
/// game pairs never straddle two files.
///
/// # Errors
/// A file that cannot be read or lacks a column, or a row with a bad value
/// (named by file and line); a truncated last line is skipped, not an error.
pub fn read_games(files: &[impl AsRef<Path>]) -> anyhow::Result<Rated> {
    let mut rows = Vec::new();
    let mut skipped = 0;
    for (f, file) in files.iter().enumerate() {
        let path = file.as_ref();
        let (games, cut) = recorded_games(path)?;
        if cut {
            skipped += 1;
            eprintln!(
                "arena: {}: the last line is incomplete; skipped",
                path.display()
            );
        }
        rows.extend(games.into_iter().map(|mut g| {
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
            winner: r.winner,
            forfeit: r.forfeit(),
        });
    }
    Ok(Rated {
        names,
        tally,
        games: rows.len(),
        skipped,
    })
}

/// The winner of a `games.csv` row (`None`: a draw), once its bots and
/// result make sense.
///
/// # Errors
/// An empty bot name, a bot playing itself, or a result other than
/// `south`, `north` or `draw`, as `FILE:LINE: ...`.
fn row_result(
    path: &Path,
    line: u64,
    south: &str,
    north: &str,
    result: &str,
) -> anyhow::Result<Option<Side>> {
    let at = format!("{}:{line}", path.display());
    anyhow::ensure!(
        !south.is_empty() && !north.is_empty(),
        "{at}: a game without a bot's name (south '{south}', north '{north}')"
    );
    anyhow::ensure!(
        south != north,
        "{at}: '{south}' plays itself: a games.csv row names two bots"
    );
    match result {
        "south" => Ok(Some(Side::South)),
        "north" => Ok(Some(Side::North)),
        "draw" => Ok(None),
        _ => anyhow::bail!("{at}: bad result '{result}' (south, north or draw)"),
    }
}

/// One game of a merge: its series and its winner's name (`None`: a draw).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MergedGame {
    /// The series number, the same in every shard.
    pub series: usize,
    /// The two bots: South, then North.
    pub bots: [String; 2],
    /// The winning bot's name, or `None` for a draw.
    pub winner: Option<String>,
}

/// Reads the rows of every file in `files` in schedule order (series, then
/// game) and, with `out`, writes them into a new `games.csv` there, with one
/// header; a truncated last line is skipped, as in [`read_games`].
///
/// # Errors
/// A file that cannot be read, has other columns than the first, or repeats
/// a game another file has; or the output cannot be written.
pub fn merge_games(
    files: &[impl AsRef<Path>],
    out: Option<&Path>,
) -> anyhow::Result<Vec<MergedGame>> {
    let mut header: Option<csv::StringRecord> = None;
    let mut rows: Vec<(u64, u64, csv::StringRecord)> = Vec::new();
    for file in files {
        let path = file.as_ref();
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let complete = match text.rfind('\n') {
            Some(end) if end + 1 < text.len() => {
                eprintln!(
                    "arena: {}: the last line is incomplete; skipped",
                    path.display()
                );
                &text[..=end]
            }
            _ => &text[..],
        };
        let mut reader = csv::Reader::from_reader(complete.as_bytes());
        let h = reader
            .headers()
            .with_context(|| format!("{} has no header row", path.display()))?
            .clone();
        match &header {
            None => header = Some(h.clone()),
            Some(first) => anyhow::ensure!(
                *first == h,
                "{} has other columns than the first file",
                path.display()
            ),
        }
        let col = |name: &str| {
            h.iter()
                .position(|c| c == name)
                .with_context(|| format!("{} has no column '{name}'", path.display()))
        };
        let (series, game) = (col("series")?, col("game")?);
        let (south, north, result) = (col("south")?, col("north")?, col("result")?);
        for record in reader.records() {
            let r = record.with_context(|| format!("{}: not a CSV row", path.display()))?;
            let line = r.position().map_or(0, csv::Position::line);
            let field = |i: usize| r.get(i).unwrap_or("");
            row_result(path, line, field(south), field(north), field(result))?;
            let num = |i: usize| {
                r.get(i)
                    .unwrap_or("")
                    .parse::<u64>()
                    .with_context(|| format!("{}: bad number", path.display()))
            };
            rows.push((num(series)?, num(game)?, r));
        }
    }
    rows.sort_by_key(|(s, g, _)| (*s, *g));
    if let Some(w) = rows
        .windows(2)
        .find(|w| (w[0].0, w[0].1) == (w[1].0, w[1].1))
    {
        anyhow::bail!(
            "series {} game {} is in two shards: merge each shard once",
            w[0].0,
            w[0].1
        );
    }
    let header = header.context("no games.csv to merge")?;
    let pos = |name: &str| {
        header
            .iter()
            .position(|c| c == name)
            .context("no such column")
    };
    let (south, north, result) = (pos("south")?, pos("north")?, pos("result")?);
    let mut writer = match out {
        Some(out) => {
            let mut w = csv::Writer::from_path(out)
                .with_context(|| format!("cannot write {}", out.display()))?;
            w.write_record(&header)?;
            Some(w)
        }
        None => None,
    };
    let mut games = Vec::with_capacity(rows.len());
    for (series, _, r) in &rows {
        if let Some(w) = writer.as_mut() {
            w.write_record(r)?;
        }
        let winner = match r.get(result) {
            Some("south") => r.get(south).map(str::to_string),
            Some("north") => r.get(north).map(str::to_string),
            _ => None,
        };
        let name = |i: usize| r.get(i).unwrap_or_default().to_string();
        games.push(MergedGame {
            series: *series as usize,
            bots: [name(south), name(north)],
            winner,
        });
    }
    if let Some(mut w) = writer {
        w.flush()?;
        w.get_ref().sync_all()?;
    }
    Ok(games)
}

#[cfg(test)]
mod tests {
    use super::*;

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
            merge_games(&[&good], None).unwrap()[0].winner.as_deref(),
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
