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

/// Reads and tallies `files`. Series numbers are made unique per file, so
/// game pairs never straddle two files.
///
/// # Errors
/// A file that cannot be read or lacks a column, or a row with a bad value
/// (named by file and line); a truncated last line is skipped, not an error.
pub fn read_games(files: &[impl AsRef<Path>]) -> anyhow::Result<Rated> {
    struct Row {
        series: u64,
        game: u32,
        south: String,
        north: String,
        winner: Option<Side>,
        forfeit: bool,
    }
    let mut rows = Vec::new();
    let mut skipped = 0;
    for (f, file) in files.iter().enumerate() {
        let path = file.as_ref();
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        // A run killed mid-write leaves at most its last line incomplete.
        let complete = match text.rfind('\n') {
            Some(end) if end + 1 < text.len() => {
                skipped += 1;
                eprintln!(
                    "arena: {}: the last line is incomplete; skipped",
                    path.display()
                );
                &text[..=end]
            }
            _ => &text[..],
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
        for (i, record) in reader.records().enumerate() {
            let line = i + 2;
            let r = record.with_context(|| format!("{}:{line}: not a CSV row", path.display()))?;
            let field = |c: usize| r.get(cols[c]).unwrap_or("");
            let bad = |c: usize| {
                let what = ["series", "game", "south", "north", "result", "termination"][c];
                anyhow::anyhow!("{}:{line}: bad {what} '{}'", path.display(), field(c))
            };
            let series: u64 = field(0).parse().map_err(|_| bad(0))?;
            let winner = match field(4) {
                "south" => Some(Side::South),
                "north" => Some(Side::North),
                "draw" => None,
                _ => return Err(bad(4)),
            };
            rows.push(Row {
                series: (f as u64) << 40 | series,
                game: field(1).parse().map_err(|_| bad(1))?,
                south: field(2).to_string(),
                north: field(3).to_string(),
                winner,
                forfeit: !matches!(field(5), "no-moves" | "ply-limit"),
            });
        }
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
            forfeit: r.forfeit,
        });
    }
    Ok(Rated {
        names,
        tally,
        games: rows.len(),
        skipped,
    })
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
        for record in reader.records() {
            let r = record.with_context(|| format!("{}: not a CSV row", path.display()))?;
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
