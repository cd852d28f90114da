//! What `arena rate` and `arena merge` check of the `games.csv` rows they
//! read, beyond each field's kind (which their reader checks): that every row
//! agrees with itself when its moves are replayed with the rules engine
//! ([`replay_problem`]), that no game (series and game number) is there
//! twice, and (for `arena rate`, unless asked otherwise) that every game was
//! played under the same rules. [`RowChecks`] keeps what the checks need
//! across rows: one key and line per game, and the first game's rules.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use endodoi::{Position, Rules, Side};
use endodoi_tablebase::{adjudicate, Adjudication, Tables};

use crate::config::Adjudicate;

use super::rows::{GameRow, FAULT_ENDS, GAMES_COLUMNS, RULE_ENDS};

/// A row that the checks refuse. Each names the file and line, as
/// `FILE:LINE: ...`.
#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    /// A file with a `moves` column but not every column a replay needs.
    #[error("{} has a moves column but no column '{column}': is it an arena games.csv?", path.display())]
    MissingColumn {
        /// The file.
        path: PathBuf,
        /// The column.
        column: String,
    },
    /// A row that disagrees with a replay of its moves ([`replay_problem`]).
    #[error("{}:{line}: {problem}: the row contradicts itself (edited, or from another program?); correct or remove it", path.display())]
    Disagrees {
        /// The file.
        path: PathBuf,
        /// The line, from 1.
        line: u64,
        /// What disagrees, in words.
        problem: String,
    },
    /// A game (series and game number) that is there twice.
    #[error("{}:{line}: series {series} game {game} is there twice (first at {}:{first_line}): give each game once", path.display(), first.display())]
    Duplicate {
        /// The file of the second copy.
        path: PathBuf,
        /// Its line, from 1.
        line: u64,
        /// The series.
        series: u64,
        /// The game.
        game: u32,
        /// The file of the first copy.
        first: PathBuf,
        /// Its line.
        first_line: u64,
    },
    /// Games of different rules, read together without asking.
    #[error("{}:{line}: a game of {rules}, but {}:{first_line} is a game of {first_rules}: rate one rules' games at a time, or pass --mixed-rules to pool them", path.display(), first.display())]
    MixedRules {
        /// The file of the game with other rules.
        path: PathBuf,
        /// Its line, from 1.
        line: u64,
        /// Its rules, in words (boxed, as `first_rules`: the error stays
        /// small with Windows' larger `PathBuf`).
        rules: Box<str>,
        /// The file of the first game read.
        first: PathBuf,
        /// Its line.
        first_line: u64,
        /// The first game's rules, in words.
        first_rules: Box<str>,
    },
}

/// The columns a replay of a row needs, [`GAMES_COLUMNS`] from `holes` to
/// `north_seeds` (the 7th to the 14th); a file with a `moves` column must
/// have them all.
pub const REPLAY_COLUMNS: &[&str] = GAMES_COLUMNS.split_at(6).1.split_at(8).0;

/// Rules in words, for a message: `2x8, 4 seeds, max_laps 100000,
/// max_plies 1000`.
#[must_use]
pub fn rules_text(rules: &Rules) -> String {
    format!(
        "2x{}, {} seeds, max_laps {}, max_plies {}",
        rules.holes(),
        rules.seeds(),
        rules.max_laps(),
        rules.max_plies()
    )
}

/// What in `row` disagrees with a replay of its moves from the start of
/// its rules, in words, or `None` if it all agrees: rules columns that are
/// not numbers or not playable, final seeds that are not numbers, a move
/// that is not a hole number or is illegal where it was played, `plies`
/// other than the number of moves, an `opening` that is not the start of
/// `moves`, a `pair` other than `ceil(game / 2)`, and an end that the moves
/// do not give. A game the rules ended must end after its moves with the
/// recorded termination, result and final seeds. A game adjudicated
/// `decided` must go on after its moves, with the recorded winner holding
/// more than half of all seeds there and at no earlier position past its
/// opening, and the seeds captured so far as its final seeds. A game lost by a fault
/// (a forfeit: the moves alone cannot give its result) must have a known
/// fault as termination, moves that replay legally and leave the game
/// going on, the final seeds captured so far, and a winner: the opponent
/// of the side the `detail` names first (when it names one). A game
/// adjudicated `tablebase` is refused here: its check needs the tables
/// ([`replay_problem_with`]).
#[must_use]
pub fn replay_problem(row: &GameRow) -> Option<String> {
    replay(row, None, Adjudicate::OFF).err()
}

/// [`replay_problem`], with the endgame tables that check a game
/// adjudicated `tablebase`: its moves must stop at the first position past
/// the opening whose result the tables know exactly within the plies left
/// ([`endodoi_tablebase::adjudicate`]), and its result and final seeds must
/// be the ones they force there. `adjudicate` is the run's
/// `[board] adjudicate` where known ([`Adjudicate::OFF`] if not): with both
/// rules, a game ends at the first position either rule ends, by `decided`
/// where both do, so a `decided` row must also stop before any position the
/// tables know, and a `tablebase` row at or before any position a side
/// holds more than half of the seeds ([`early_end`]).
#[must_use]
pub fn replay_problem_with(
    row: &GameRow,
    tables: Option<&Tables>,
    adjudicate: Adjudicate,
) -> Option<String> {
    replay(row, tables, adjudicate).err()
}

/// A rule that would have ended an adjudicated game at a position past its
/// opening before its last ([`early_end`]).
#[derive(Clone, Copy, Debug)]
pub enum EarlyEnd {
    /// `decided`: this side held more than half of all seeds.
    Decided(Side),
    /// `tablebase`: the tables knew the result exactly within the plies left.
    Tablebase(Adjudication),
}

/// The rule that would have ended a game recorded with `termination` at
/// `pos` (a position past its opening, before its last), under the run's
/// `[board] adjudicate`, `rule`: its own termination's rule always (a `decided` row by
/// [`Position::decided_winner`], a `tablebase` row by `tables`), and with
/// both rules the other one too; `None` if neither would have (or for any
/// other termination). Without `tables` the tables' rule never applies.
#[must_use]
pub fn early_end(
    termination: &str,
    pos: &Position,
    rule: Adjudicate,
    tables: Option<&Tables>,
) -> Option<EarlyEnd> {
    let both = rule == Adjudicate::BOTH;
    let adjudicated = termination == DECIDED || termination == TABLEBASE;
    let by_decided = termination == DECIDED || (both && adjudicated);
    let by_tables = termination == TABLEBASE || (both && adjudicated);
    let decided = by_decided
        .then(|| pos.decided_winner())
        .flatten()
        .map(EarlyEnd::Decided);
    decided.or_else(|| {
        by_tables
            .then_some(tables)
            .flatten()
            .and_then(|t| adjudicate(t, pos))
            .map(EarlyEnd::Tablebase)
    })
}

fn replay(row: &GameRow, tables: Option<&Tables>, rule: Adjudicate) -> Result<(), String> {
    let rules = row.rules().map_err(|e| e.to_string())?;
    let seeds = |column: &str, text: &str| {
        text.parse::<u32>()
            .map_err(|_| format!("bad {column} '{text}' (final seeds, a number)"))
    };
    let recorded = [
        seeds("south_seeds", &row.south_seeds)?,
        seeds("north_seeds", &row.north_seeds)?,
    ];
    let mut pos = rules.start();
    let mut plies = 0u32;
    let opening_plies = row.opening.split_whitespace().count();
    for word in row.moves.split_whitespace() {
        // The referee adjudicates after the opening and every ply since:
        // an adjudicated game has no ply past the first position its rules
        // end.
        if plies as usize >= opening_plies {
            let termination = &row.termination;
            match early_end(termination, &pos, rule, tables) {
                Some(EarlyEnd::Decided(side)) => return Err(format!(
                    "termination {termination}, but {side} had more than half of the seeds after ply {plies} already, and its moves go on"
                )),
                Some(EarlyEnd::Tablebase(end)) => return Err(format!(
                    "termination {termination}, but the tables knew the result after ply {plies} already ({} to move forces {:+}), and its moves go on",
                    pos.to_move(),
                    end.margin
                )),
                None => {}
            }
        }
        plies += 1;
        let mover = pos.to_move();
        let mv = endodoi_protocol::parse_move(word).ok().ok_or_else(|| {
            format!(
                "moves: ply {plies} {}",
                crate::config::not_a_hole(word, Some(rules.holes()))
            )
        })?;
        pos.play(mv).map_err(|e| {
            format!("moves do not replay: at ply {plies} {mover} cannot play {word}: {e}")
        })?;
    }
    if plies != row.plies {
        return Err(format!("plies is {} but moves has {plies}", row.plies));
    }
    let opening: Vec<&str> = row.opening.split_whitespace().collect();
    if !row
        .moves
        .split_whitespace()
        .take(opening.len())
        .eq(opening.iter().copied())
        || opening.len() > plies as usize
    {
        return Err(format!(
            "opening '{}' is not the start of moves",
            row.opening
        ));
    }
    if row.pair != 0 && row.pair != row.game.div_ceil(2) {
        return Err(format!(
            "pair {} but game {} is in pair {}",
            row.pair,
            row.game,
            row.game.div_ceil(2)
        ));
    }
    check_end(
        &pos,
        &row.termination,
        &row.result,
        &row.detail,
        recorded,
        (tables, rule),
    )
}

/// What in a game's recorded end (`termination`, `result`, `detail` and the
/// final seeds, South's then North's) disagrees with `end`, the position
/// after its moves, in words: the checks of [`replay_problem`] after the
/// moves replayed, which `arena replay` and the report's viewer use too;
/// `None` if it all agrees.
#[must_use]
pub fn end_problem(
    end: &Position,
    termination: &str,
    result: &str,
    detail: &str,
    recorded: [u32; 2],
) -> Option<String> {
    check_end(
        end,
        termination,
        result,
        detail,
        recorded,
        (None, Adjudicate::OFF),
    )
    .err()
}

/// [`end_problem`], with the endgame tables that check a `tablebase` end
/// and the run's `[board] adjudicate` (see [`replay_problem_with`]: with
/// both rules, a `tablebase` end must be at a position where no side holds
/// more than half of the seeds).
#[must_use]
pub fn end_problem_with(
    end: &Position,
    termination: &str,
    result: &str,
    detail: &str,
    recorded: [u32; 2],
    referee: (Option<&Tables>, Adjudicate),
) -> Option<String> {
    check_end(end, termination, result, detail, recorded, referee).err()
}

/// The termination of a game the referee adjudicated (see [`RULE_ENDS`]).
const DECIDED: &str = "decided";
/// The termination of a game the endgame tables adjudicated.
const TABLEBASE: &str = "tablebase";

fn check_end(
    pos: &Position,
    termination: &str,
    result: &str,
    detail: &str,
    recorded: [u32; 2],
    (tables, rule): (Option<&Tables>, Adjudicate),
) -> Result<(), String> {
    let captured = [pos.captured(Side::South), pos.captured(Side::North)];
    if termination == TABLEBASE {
        if let (Adjudicate::BOTH, None, Some(side)) = (rule, pos.outcome(), pos.decided_winner()) {
            return Err(format!(
                "termination tablebase, but after its moves {side} has more than half of the seeds, where adjudicate = [\"decided\", \"tablebase\"] ends the game by decided"
            ));
        }
        return check_tablebase(pos, result, detail, recorded, tables);
    }
    if termination == DECIDED {
        if let Some(outcome) = pos.outcome() {
            return Err(format!(
                "termination decided, but its moves end the game ({} by {})",
                outcome.winner.map_or("draw", Side::name),
                outcome.termination.name()
            ));
        }
        match pos.decided_winner() {
            Some(side) if side.name() == result => {}
            Some(side) => {
                return Err(format!(
                    "result {result} by decided, but after its moves {side} has more than half of the seeds"
                ))
            }
            None => {
                return Err(format!(
                    "termination decided, but after its moves neither side has more than half of the seeds (South {}, North {})",
                    captured[0], captured[1]
                ))
            }
        }
    } else if RULE_ENDS.contains(&termination) {
        let Some(outcome) = pos.outcome() else {
            return Err(format!(
                "termination {termination} but after its moves the game goes on ({} to move)",
                pos.to_move()
            ));
        };
        let (ends, winner) = (
            outcome.termination.name(),
            outcome.winner.map_or("draw", Side::name),
        );
        if ends != termination || winner != result {
            return Err(format!(
                "result {} by {termination}, but its moves end in {winner} by {ends}",
                result
            ));
        }
    } else {
        if !FAULT_ENDS.contains(&termination) {
            return Err(format!(
                "unknown termination '{termination}' (no-moves, ply-limit, decided, tablebase, or a fault: {})",
                FAULT_ENDS.join(", ")
            ));
        }
        if let Some(outcome) = pos.outcome() {
            return Err(format!(
                "termination {termination} (a fault), but its moves end the game ({} by {})",
                outcome.winner.map_or("draw", Side::name),
                outcome.termination.name()
            ));
        }
        if result == "draw" {
            return Err(format!(
                "result draw, but a {termination} loses the game for the bot at fault"
            ));
        }
        let at_fault = detail
            .split(' ')
            .next()
            .and_then(|s| s.parse::<Side>().ok());
        if let Some(side) = at_fault.filter(|s| s.name() == result) {
            return Err(format!(
                "result {}, but the detail says {side} lost by {termination}",
                result
            ));
        }
    }
    if captured != recorded {
        return Err(format!(
            "final seeds {} - {} (south_seeds - north_seeds), but its moves give {} - {}",
            recorded[0], recorded[1], captured[0], captured[1]
        ));
    }
    Ok(())
}

/// The checks of a `tablebase` end at `pos`, the position after the moves:
/// the game goes on there, and the tables force the recorded result, final
/// seeds and `detail` (side to move, margin, plies) within the plies left.
fn check_tablebase(
    pos: &Position,
    result: &str,
    detail: &str,
    recorded: [u32; 2],
    tables: Option<&Tables>,
) -> Result<(), String> {
    let Some(tables) = tables else {
        return Err("termination tablebase, but no endgame tables were given to check it: pass --tablebase DIR, the folder of the run's [board] tablebase".into());
    };
    if let Some(outcome) = pos.outcome() {
        return Err(format!(
            "termination tablebase, but its moves end the game ({} by {})",
            outcome.winner.map_or("draw", Side::name),
            outcome.termination.name()
        ));
    }
    let Some(end) = adjudicate(tables, pos) else {
        return Err(format!(
            "termination tablebase, but the tables give no exact result within the {} plies left from its final position",
            pos.rules().max_plies().saturating_sub(pos.ply())
        ));
    };
    let forced = end.winner.map_or("draw", Side::name);
    if forced != result {
        return Err(format!(
            "result {result} by tablebase, but the tables force {forced} ({} to move, margin {:+})",
            pos.to_move(),
            end.margin
        ));
    }
    if end.seeds != recorded {
        return Err(format!(
            "final seeds {} - {} (south_seeds - north_seeds), but the tables force {} - {}",
            recorded[0], recorded[1], end.seeds[0], end.seeds[1]
        ));
    }
    if detail != end.detail() {
        return Err(format!(
            "detail '{detail}', but the tables give '{}'",
            end.detail()
        ));
    }
    Ok(())
}

/// Which games count as the same game for [`RowChecks`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Duplicates {
    /// The same series and game in one file (`arena rate`: each file is its
    /// own run, whose series are its own).
    InAFile,
    /// The same series and game in any of the files (`arena merge`: the
    /// shards of one tournament).
    AcrossFiles,
}

/// The checks of rows across a set of files; see the module's doc.
#[derive(Debug)]
pub struct RowChecks {
    duplicates: Duplicates,
    mixed_rules: bool,
    files: Vec<(PathBuf, bool)>,
    /// Per game (series, game; the file's index in the series' top bits
    /// for [`Duplicates::InAFile`]): the file's index and the line.
    seen: HashMap<(u64, u32), (u32, u64)>,
    /// The first game's rules, and where it is.
    rules: Option<(Rules, usize, u64)>,
    /// The endgame tables that check `tablebase` rows, if given.
    tables: Option<Arc<Tables>>,
    /// The run's `[board] adjudicate`, if known ([`Adjudicate::OFF`] if not).
    adjudicate: Adjudicate,
}

impl RowChecks {
    /// No file checked yet: `duplicates` says which games are the same;
    /// with `mixed_rules`, games of different rules may be read together.
    #[must_use]
    pub fn new(duplicates: Duplicates, mixed_rules: bool) -> RowChecks {
        RowChecks {
            duplicates,
            mixed_rules,
            files: Vec::new(),
            seen: HashMap::new(),
            rules: None,
            tables: None,
            adjudicate: Adjudicate::OFF,
        }
    }

    /// These checks with `tables` to check the rows adjudicated
    /// `tablebase` ([`replay_problem_with`]); without tables such a row is
    /// refused, with the fix.
    #[must_use]
    pub fn with_tables(mut self, tables: Option<Arc<Tables>>) -> RowChecks {
        self.tables = tables;
        self
    }

    /// These checks knowing the run's `[board] adjudicate`: with both rules,
    /// each adjudicated row must also stop before the other rule would
    /// have ended it ([`replay_problem_with`]).
    #[must_use]
    pub fn with_adjudicate(mut self, adjudicate: Adjudicate) -> RowChecks {
        self.adjudicate = adjudicate;
        self
    }

    /// Starts the file at `path`, whose header row is `columns`; returns
    /// its index for [`RowChecks::row`]. A file without a `moves` column (a
    /// table written by hand with just the columns a count needs) is
    /// counted without the replay.
    ///
    /// # Errors
    /// A file with a `moves` column but not every column of
    /// [`REPLAY_COLUMNS`].
    pub fn file(&mut self, path: &Path, columns: &[String]) -> Result<usize, CheckError> {
        let has = |name: &str| columns.iter().any(|c| c == name);
        let replay = has("moves");
        if replay {
            if let Some(column) = REPLAY_COLUMNS.iter().find(|c| !has(c)) {
                return Err(CheckError::MissingColumn {
                    path: path.to_path_buf(),
                    column: (*column).to_string(),
                });
            }
        }
        self.files.push((path.to_path_buf(), replay));
        Ok(self.files.len() - 1)
    }

    /// The files started so far that have no `moves` column, so their rows
    /// are counted without the replay.
    pub fn unreplayed(&self) -> impl Iterator<Item = &Path> {
        self.files
            .iter()
            .filter(|(_, replay)| !replay)
            .map(|(path, _)| path.as_path())
    }

    /// Checks `row`, at `line` of file `file` (from [`RowChecks::file`]).
    ///
    /// # Errors
    /// [`CheckError::Disagrees`], [`CheckError::Duplicate`] or
    /// [`CheckError::MixedRules`], naming the file and line.
    pub fn row(&mut self, file: usize, line: u64, row: &GameRow) -> Result<(), CheckError> {
        let (path, replay) = &self.files[file];
        let path = path.clone();
        if !*replay {
            // Not replayed, but a final seeds cell that is there must
            // still be a number.
            for (column, text) in [
                ("south_seeds", &row.south_seeds),
                ("north_seeds", &row.north_seeds),
            ] {
                if !text.is_empty() && text.parse::<u32>().is_err() {
                    return Err(CheckError::Disagrees {
                        path,
                        line,
                        problem: format!("bad {column} '{text}' (final seeds, a number)"),
                    });
                }
            }
        }
        if *replay {
            if let Some(problem) = replay_problem_with(row, self.tables.as_deref(), self.adjudicate)
            {
                return Err(CheckError::Disagrees {
                    path,
                    line,
                    problem,
                });
            }
            let rules = row.rules().expect("replayed");
            match &self.rules {
                None => self.rules = Some((rules, file, line)),
                Some((first, first_file, first_line)) if *first != rules && !self.mixed_rules => {
                    return Err(CheckError::MixedRules {
                        path,
                        line,
                        rules: rules_text(&rules).into(),
                        first: self.files[*first_file].0.clone(),
                        first_line: *first_line,
                        first_rules: rules_text(first).into(),
                    })
                }
                Some(_) => {}
            }
        }
        let series = match self.duplicates {
            Duplicates::InAFile => row.series | ((file as u64) << 40),
            Duplicates::AcrossFiles => row.series,
        };
        if let Some(&(first_file, first_line)) = self.seen.get(&(series, row.game)) {
            return Err(CheckError::Duplicate {
                path,
                line,
                series: row.series,
                game: row.game,
                first: self.files[first_file as usize].0.clone(),
                first_line,
            });
        }
        self.seen.insert((series, row.game), (file as u32, line));
        Ok(())
    }

    /// The rules of the first game checked (of a file with its moves).
    #[must_use]
    pub fn rules(&self) -> Option<Rules> {
        self.rules.map(|(r, _, _)| r)
    }

    /// The path of file `file`.
    #[must_use]
    pub fn path(&self, file: usize) -> &Path {
        &self.files[file].0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::read_games;

    const HEAD: &str = "series,game,pair,opening,south,north,holes,seeds,max_laps,max_plies,moves,plies,south_seeds,north_seeds,result,termination,detail,duration_ms\n";
    /// A real game of the demo (2x8, 4 seeds): South wins 38 to 26.
    const GAME: &str = "1,1,1,4 2 2 6,greedy,first,8,4,100000,1000,4 2 2 6 4 1 7 1 5 2 1 1 5 5 1 6 7 1,18,38,26,south,no-moves,,608";

    fn row(text: &str) -> GameRow {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("g.csv");
        std::fs::write(&path, format!("{HEAD}{text}\n")).unwrap();
        read_games(&path).unwrap().rows.remove(0)
    }

    #[test]
    fn a_replay_needs_the_rules_moves_and_seeds_columns() {
        assert_eq!(REPLAY_COLUMNS.len(), 8);
        assert_eq!(REPLAY_COLUMNS.first(), Some(&"holes"));
        assert_eq!(REPLAY_COLUMNS.last(), Some(&"north_seeds"));
    }

    #[test]
    fn a_row_that_replays_to_its_record_agrees() {
        assert_eq!(replay_problem(&row(GAME)), None);
        // Lost by a fault after these moves: the moves replay, the game goes
        // on, and the side at fault lost.
        let forfeit = "1,1,1,4 2 2 6,greedy,first,8,4,100000,1000,4 2 2 6,4,0,7,north,timeout,south (greedy) no reply,5";
        assert_eq!(replay_problem(&row(forfeit)), None);
    }

    #[test]
    fn a_tablebase_row_agrees_only_with_the_tables_result() {
        let tables = endodoi_tablebase::build(2, 4).unwrap();
        let start = Rules::new(2, 1).unwrap().start();
        let end = adjudicate(&tables, &start).expect("the start of 2x2 with 1 seed is resolved");
        let result = end.winner.map_or("draw", Side::name);
        let detail = end.detail();
        let told = |moves: &str, plies: u32, seeds: [u32; 2], result: &str, detail: &str| {
            format!(
                "1,1,1,,a,b,2,1,100000,1000,{moves},{plies},{},{},{result},tablebase,{detail},5",
                seeds[0], seeds[1]
            )
        };
        let text = |moves: &str, plies: u32, seeds: [u32; 2], result: &str| {
            told(moves, plies, seeds, result, &detail)
        };
        let good = row(&text("", 0, end.seeds, result));
        assert_eq!(
            replay_problem_with(&good, Some(&tables), Adjudicate::OFF),
            None
        );
        // A detail that is not the tables' (another margin, or none).
        for lie in [detail.replace("forces", "forces 1"), String::new()] {
            let problem = replay_problem_with(
                &row(&told("", 0, end.seeds, result, &lie)),
                Some(&tables),
                Adjudicate::OFF,
            )
            .unwrap();
            assert!(problem.starts_with(&format!("detail '{lie}'")), "{problem}");
        }
        let without = replay_problem(&good).unwrap();
        assert!(without.contains("pass --tablebase DIR"), "{without}");
        let wrong = [end.seeds[1] + 1, end.seeds[0].saturating_sub(1)];
        let problem = replay_problem_with(
            &row(&text("", 0, wrong, result)),
            Some(&tables),
            Adjudicate::OFF,
        )
        .unwrap();
        assert!(problem.contains("but the tables force"), "{problem}");
        let other = if result == "south" { "north" } else { "south" };
        let problem = replay_problem_with(
            &row(&text("", 0, end.seeds, other)),
            Some(&tables),
            Adjudicate::OFF,
        )
        .unwrap();
        assert!(
            problem.starts_with(&format!("result {other} by tablebase")),
            "{problem}"
        );
        // Moves past the first position the tables knew.
        let problem = replay_problem_with(
            &row(&text("1", 1, end.seeds, result)),
            Some(&tables),
            Adjudicate::OFF,
        )
        .unwrap();
        assert!(
            problem.contains("knew the result after ply 0 already"),
            "{problem}"
        );
        // Too few plies left for the forced end: the tables do not know it.
        let short = format!(
            "1,1,1,,a,b,2,1,100000,{},,0,{},{},{result},tablebase,,5",
            end.plies - 1,
            end.seeds[0],
            end.seeds[1]
        );
        let problem = replay_problem_with(&row(&short), Some(&tables), Adjudicate::OFF).unwrap();
        assert!(problem.contains("no exact result within"), "{problem}");
    }

    #[test]
    fn each_contradiction_is_named() {
        let swap = |from: &str, to: &str| GAME.replacen(from, to, 1);
        for (text, want) in [
            (
                swap(",south,no-moves", ",north,no-moves"),
                "result north by no-moves, but its moves end in south by no-moves",
            ),
            (
                swap("4 2 2 6 4 1", "9 9 9 6 4 1"),
                "moves do not replay: at ply 1 south cannot play 9",
            ),
            (swap(",8,4,", ",8,NaN,"), "bad seeds 'NaN'"),
            (swap(",38,26,", ",NaN,26,"), "bad south_seeds 'NaN'"),
            (
                swap(",38,26,", ",37,27,"),
                "final seeds 37 - 27 (south_seeds - north_seeds), but its moves give 38 - 26",
            ),
            (swap(",18,", ",17,"), "plies is 17 but moves has 18"),
            (
                swap("1,4 2 2 6,", "1,4 2 2 5,"),
                "opening '4 2 2 5' is not the start of moves",
            ),
            (swap("1,1,1,", "1,1,2,"), "pair 2 but game 1 is in pair 1"),
            (
                swap(",no-moves,", ",ply-limit,"),
                "result south by ply-limit, but its moves end in south by no-moves",
            ),
            (
                swap(",no-moves,", ",timeout,"),
                "termination timeout (a fault), but its moves end the game (south by no-moves)",
            ),
            (swap(",no-moves,", ",won,"), "unknown termination 'won'"),
            (
                swap("4 2 2 6 4 1", "4 2 2 06 4 1"),
                "moves: ply 4 '06' is not a hole number",
            ),
        ] {
            let got = replay_problem(&row(&text)).unwrap_or_default();
            assert!(got.starts_with(want), "{text}: {got}");
        }
        let forfeit = "1,1,1,4 2 2 6,greedy,first,8,4,100000,1000,4 2 2 6,4,0,7,south,timeout,south (greedy) no reply,5";
        assert_eq!(
            replay_problem(&row(forfeit)).unwrap(),
            "result south, but the detail says south lost by timeout"
        );
        let draw = forfeit.replace(",south,timeout", ",draw,timeout");
        assert!(replay_problem(&row(&draw))
            .unwrap()
            .starts_with("result draw, but a timeout loses"));
        let going_on = GAME.replacen(" 6 7 1,18,", " 6,16,", 1);
        assert!(replay_problem(&row(&going_on))
            .unwrap()
            .starts_with("termination no-moves but after its moves the game goes on"));
    }

    /// GAME stopped by exact adjudication: after its 11th ply South has 34
    /// of the 64 seeds (shown by `arena replay 4 2 2 6 4 1 7 1 5 2 1`).
    const DECIDED: &str = "1,1,1,4 2 2 6,greedy,first,8,4,100000,1000,4 2 2 6 4 1 7 1 5 2 1,11,34,16,south,decided,,300";

    #[test]
    fn a_decided_game_stops_at_its_first_decided_ply() {
        assert_eq!(replay_problem(&row(DECIDED)), None);
        let swap = |from: &str, to: &str| DECIDED.replacen(from, to, 1);
        for (text, want) in [
            (
                swap(",south,decided", ",north,decided"),
                "result north by decided, but after its moves south has more than half of the seeds",
            ),
            (
                swap(",south,decided", ",draw,decided"),
                "result draw by decided, but after its moves south has",
            ),
            (
                swap(" 5 2 1,11,34,", " 5 2,10,26,"),
                "termination decided, but after its moves neither side has more than half of the seeds (South 26, North 16)",
            ),
            (
                swap(" 5 2 1,11,34,16,", " 5 2 1 1,12,34,21,"),
                "termination decided, but south had more than half of the seeds after ply 11 already",
            ),
            (
                swap(",34,16,", ",34,15,"),
                "final seeds 34 - 15 (south_seeds - north_seeds), but its moves give 34 - 16",
            ),
            (
                GAME.replacen(",no-moves,", ",decided,", 1),
                "termination decided, but south had more than half of the seeds after ply 11",
            ),
        ] {
            let got = replay_problem(&row(&text)).unwrap_or_default();
            assert!(got.starts_with(want), "{text}: {got}");
        }
        // The check counts from the end of the opening, where the referee
        // first looks: an opening past the decided ply is no contradiction.
        let long_opening = swap("1,1,1,4 2 2 6,", "1,1,1,4 2 2 6 4 1 7 1 5 2 1,");
        assert_eq!(replay_problem(&row(&long_opening)), None);
        let the_end = Position::parse("0,0/0,0 s 5 3 9", Rules::new(2, 2).unwrap()).unwrap();
        assert!(end_problem(&the_end, "decided", "south", "", [5, 3])
            .unwrap()
            .starts_with("termination decided, but its moves end the game (south by no-moves)"));
    }
}
