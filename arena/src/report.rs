//! What the user reads: the line per game, the final table, and the summary
//! CSV files built from a finished run.

use std::fmt::Write as _;
use std::path::PathBuf;

use endodoi::Side;

use crate::config::Config;
use crate::output::{num, write_atomic, RunDir, SERIES_COLUMNS, STANDINGS_COLUMNS};
use crate::referee::GameRecord;
use crate::runner::Summary;
use crate::standings::{standings, Standing};
use crate::stats::RatingOptions;

/// `results/<name>-<UTC timestamp>`, with `-2`, `-3`... if that exists.
#[must_use]
pub fn default_run_dir(name: &str) -> PathBuf {
    let now = time::OffsetDateTime::now_utc();
    let stamp = now
        .format(time::macros::format_description!(
            "[year][month][day]-[hour][minute][second]"
        ))
        .unwrap_or_else(|_| "now".into());
    let base = PathBuf::from("results").join(format!("{name}-{stamp}"));
    let mut path = base.clone();
    let mut n = 2;
    while path.exists() {
        path = PathBuf::from(format!("{}-{n}", base.display()));
        n += 1;
    }
    path
}

/// The most games the tournament can play: every series at `max_games`.
#[must_use]
pub fn games_bound(config: &Config) -> u64 {
    let n = config.bots.len() as u64;
    n * (n - 1) / 2 * u64::from(config.tournament.max_games)
}

/// One line about a finished game, for the log on stderr.
#[must_use]
pub fn game_line(done: usize, g: &GameRecord) -> String {
    let result = match g.winner {
        None => "draw".to_string(),
        Some(Side::South) => format!("{} wins", g.bots[0]),
        Some(Side::North) => format!("{} wins", g.bots[1]),
    };
    let mut line = format!(
        "[{done:>4}] series {} game {}: {} (S) {}-{} {} (N), {result} by {} after {} plies",
        g.series, g.game, g.bots[0], g.seeds[0], g.seeds[1], g.bots[1], g.end, g.plies
    );
    if !g.detail.is_empty() {
        let _ = write!(line, ": {}", g.detail);
    }
    line
}

/// Writes `series.csv` and `standings.csv` for a finished run and returns
/// the final table as aligned text.
///
/// # Errors
/// An I/O error writing either file.
pub fn write_summaries(
    config: &Config,
    dir: &RunDir,
    summary: &Summary,
) -> std::io::Result<String> {
    let name = |i: usize| config.bots[i].name.clone();
    let series_rows: Vec<Vec<String>> = summary
        .series
        .iter()
        .map(|s| {
            vec![
                s.series.number.to_string(),
                name(s.series.a),
                name(s.series.b),
                s.wdl.games().to_string(),
                s.wdl.wins.to_string(),
                s.wdl.draws.to_string(),
                s.wdl.losses.to_string(),
                s.winner().map_or_else(|| "draw".to_string(), name),
                s.decided.to_string(),
            ]
        })
        .collect();
    write_atomic(&dir.path.join("series.csv"), &SERIES_COLUMNS, &series_rows)?;

    let options = RatingOptions {
        seed: config.tournament.seed,
        ..RatingOptions::default()
    };
    let table = standings(&summary.tally, &options);
    let rows: Vec<Vec<String>> = table.iter().map(|s| standing_row(config, s)).collect();
    write_atomic(&dir.path.join("standings.csv"), &STANDINGS_COLUMNS, &rows)?;
    Ok(render_table(config, &table))
}

/// The cells every view of a standing starts with: rank, bot, games, W, D, L.
fn count_cells(config: &Config, s: &Standing) -> Vec<String> {
    vec![
        s.rank.to_string(),
        config.bots[s.bot].name.clone(),
        s.wdl.games().to_string(),
        s.wdl.wins.to_string(),
        s.wdl.draws.to_string(),
        s.wdl.losses.to_string(),
    ]
}

fn standing_row(config: &Config, s: &Standing) -> Vec<String> {
    let mut row = count_cells(config, s);
    row.extend([
        num(s.wdl.score(), 1),
        num(s.wdl.score_pct(), 1),
        num(s.elo, 1),
        num(s.elo_lower, 1),
        num(s.elo_upper, 1),
        s.los_next.map_or_else(String::new, |l| num(l, 4)),
        s.forfeits.to_string(),
    ]);
    row
}

/// The standings as an aligned text table.
fn render_table(config: &Config, table: &[Standing]) -> String {
    let header = [
        "#",
        "bot",
        "games",
        "W",
        "D",
        "L",
        "score",
        "Elo",
        "95% interval",
        "LOS next",
        "forfeits",
    ];
    let rows: Vec<Vec<String>> = table
        .iter()
        .map(|s| {
            let mut row = count_cells(config, s);
            row.extend([
                format!("{} ({}%)", num(s.wdl.score(), 1), num(s.wdl.score_pct(), 1)),
                num(s.elo, 1),
                format!("[{}, {}]", num(s.elo_lower, 1), num(s.elo_upper, 1)),
                s.los_next
                    .map_or_else(String::new, |l| format!("{}%", num(100.0 * l, 1))),
                s.forfeits.to_string(),
            ]);
            row
        })
        .collect();
    let mut widths: Vec<usize> = header.iter().map(|h| h.len()).collect();
    for row in &rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.len());
        }
    }
    let mut out = String::new();
    let mut line = |cells: &[String]| {
        for (i, (cell, w)) in cells.iter().zip(&widths).enumerate() {
            // Names left-aligned, numbers right-aligned.
            if i == 1 {
                let _ = write!(out, "{cell:<w$}  ");
            } else {
                let _ = write!(out, "{cell:>w$}  ");
            }
        }
        let trimmed = out.trim_end().len();
        out.truncate(trimmed);
        out.push('\n');
    };
    line(&header.map(String::from));
    for row in &rows {
        line(row);
    }
    out.pop();
    out
}
