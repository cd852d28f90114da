//! `arena replay`: one game ply by ply.

use std::path::PathBuf;

use super::{Console, Outcome};

/// Where the game comes from.
#[derive(Clone, Debug)]
pub enum Source {
    /// A move list on the board these rules give.
    Moves {
        /// Holes per row.
        holes: usize,
        /// Seeds per hole at the start.
        seeds: u32,
        /// The lap limit for endless sowing.
        max_laps: u32,
        /// The ply limit.
        max_plies: u32,
        /// The moves, own-perspective hole numbers, South first (words).
        moves: Vec<String>,
    },
    /// A row of a games.csv.
    Recorded {
        /// The games.csv file.
        games: PathBuf,
        /// The series number.
        series: usize,
        /// The game number within the series.
        game: u32,
        /// The endgame tables that check a game adjudicated `tablebase`
        /// [default: the `[board] tablebase` of the config.toml beside
        /// the games.csv].
        tablebase: Option<PathBuf>,
    },
}

/// Replays the game, writing the report to the console's results.
/// [`Outcome::Failed`] when a recorded game's replay differs from its record.
///
/// # Errors
/// Bad rules or moves, or an unreadable games.csv or row.
pub fn run(source: &Source, console: &mut Console<'_>) -> anyhow::Result<Outcome> {
    let (mut tables, mut adjudicate) = (None, crate::config::Adjudicate::OFF);
    let game = match source {
        Source::Recorded {
            games,
            series,
            game,
            tablebase,
        } => match crate::replay::from_games_csv(games, *series, *game) {
            Ok((game, torn)) => {
                if let Some(torn) = torn {
                    console.note(format_args!("arena: {torn}"));
                }
                let adjudicated = game
                    .recorded
                    .as_ref()
                    .is_some_and(|r| r.termination == "tablebase" || r.termination == "decided");
                if adjudicated {
                    // The run's config beside its games.csv, read as the run
                    // read its copy: its tables, and whether it adjudicated
                    // by both rules (then a row of either stops before the
                    // other's first position too).
                    let dir = games.parent().unwrap_or(std::path::Path::new("."));
                    let config = super::run_config(dir, tablebase.is_some())?;
                    (tables, adjudicate) =
                        super::referee_for(tablebase.as_deref(), config.as_ref())?;
                }
                game
            }
            Err(e) => {
                if let crate::replay::ReplayError::NoSuchGame {
                    torn: Some(torn), ..
                } = &e
                {
                    console.note(format_args!("arena: {torn}"));
                }
                return Err(e.into());
            }
        },
        Source::Moves {
            holes,
            seeds,
            max_laps,
            max_plies,
            moves,
        } => crate::replay::Replay {
            rules: endodoi::Rules::new(*holes, *seeds)?
                .with_max_laps(*max_laps)?
                .with_max_plies(*max_plies)?,
            moves: crate::replay::parse_moves_of(moves, Some(*holes))?,
            recorded: None,
            players: None,
        },
    };
    let (report, matches) = crate::replay::run_with(&game, tables.as_deref(), adjudicate)?;
    console.write(report);
    Ok(Outcome::from_passed(matches))
}
