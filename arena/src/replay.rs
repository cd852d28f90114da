//! `arena replay`: a game replayed ply by ply from a move list or a
//! `games.csv` row, with each move's laps, seeds sown and capture, and the
//! result. For debugging a bot, or checking a disputed game.

use std::fmt::Write as _;
use std::path::Path;

use endodoi::{Move, Position, Rules, Side};
use endodoi_tablebase::Tables;

use crate::config::Adjudicate;
use crate::output::checks::EarlyEnd;
use crate::output::rows::RowRulesError;
use crate::output::GamesError;

/// Why a game cannot be replayed.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    /// A move that is not a hole number.
    /// The word, and the board's holes per row when known.
    #[error("{}", crate::config::not_a_hole(.0, *.1))]
    NotAHole(String, Option<usize>),
    /// The `games.csv` cannot be read.
    #[error(transparent)]
    Games(#[from] GamesError),
    /// The `games.csv` has no such game.
    #[error("{} has no game {game} in series {series}", path.display())]
    NoSuchGame {
        /// The file.
        path: std::path::PathBuf,
        /// The series asked for.
        series: usize,
        /// The game asked for.
        game: u32,
        /// The file's last line, if it was cut short and left out (it may
        /// have been the game asked for): the caller warns of it first.
        torn: Option<crate::output::TornLine>,
    },
    /// The game's row has rules that are not numbers or not playable.
    #[error("{}: series {series} game {game}: {cause}", path.display())]
    BadRules {
        /// The file.
        path: std::path::PathBuf,
        /// The series.
        series: usize,
        /// The game.
        game: u32,
        /// What is wrong.
        #[source]
        cause: RowRulesError,
    },
    /// A move that is illegal where it was played.
    #[error("{so_far}ply {ply}: {mover} cannot play {hole}: {reason} (legal: {legal})")]
    Illegal {
        /// The report up to the move.
        so_far: String,
        /// The ply, from 1.
        ply: usize,
        /// The side that moved.
        mover: Side,
        /// The hole it played.
        hole: u8,
        /// The engine's reason.
        reason: String,
        /// The legal moves there.
        legal: String,
    },
}

/// A game to replay: its rules and moves, and, from a `games.csv` row, what
/// was recorded (`south_seeds`, `north_seeds`, `result`, `termination`).
#[derive(Clone, Debug)]
pub struct Replay {
    /// The rules of the game.
    pub rules: Rules,
    /// Own-perspective hole numbers, South first.
    pub moves: Vec<u8>,
    /// The recorded end, if the game came from `games.csv`.
    pub recorded: Option<Recorded>,
    /// Who played it, if the game came from `games.csv`.
    pub players: Option<Players>,
}

/// Who played a game of `games.csv`, and how it opened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Players {
    /// The series number.
    pub series: u64,
    /// The game number within the series.
    pub game: u32,
    /// South's bot and North's bot.
    pub bots: [String; 2],
    /// How many of the first plies are the opening, played by the referee
    /// (the `opening` column's moves).
    pub opening: usize,
}

/// What `games.csv` recorded for a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Recorded {
    /// Final seeds of South and North.
    pub seeds: [u32; 2],
    /// `south`, `north` or `draw`.
    pub result: String,
    /// The `termination` column.
    pub termination: String,
    /// The `detail` column: for a forfeit it starts with the side at fault.
    pub detail: String,
}

impl Recorded {
    /// Whether `end`, the position after replaying the game's moves, agrees
    /// with this record. For a game the rules ended: the same final seeds,
    /// result and termination. For a forfeit: the moves stop before the end,
    /// the seeds are those captured so far, and the side at fault (the first
    /// word of `detail`) lost.
    #[must_use]
    pub fn agrees(&self, end: &Position) -> bool {
        self.agrees_with(end, None, Adjudicate::OFF)
    }

    /// [`Recorded::agrees`], with the endgame tables that check a game
    /// adjudicated `tablebase` (without them such a record never agrees),
    /// under the run's `adjudicate` where known
    /// ([`crate::output::checks::end_problem_with`]).
    #[must_use]
    pub fn agrees_with(
        &self,
        end: &Position,
        tables: Option<&Tables>,
        adjudicate: Adjudicate,
    ) -> bool {
        crate::output::checks::end_problem_with(
            end,
            &self.termination,
            &self.result,
            &self.detail,
            self.seeds,
            (tables, adjudicate),
        )
        .is_none()
    }
}

/// Parses a move list: hole numbers separated by spaces, in one or more words.
///
/// # Errors
/// A word that is not a hole number from 1 to 50, by the protocol's rule
/// ([`endodoi_protocol::parse_move`]: no sign, no leading zero).
pub fn parse_moves<S: AsRef<str>>(words: &[S]) -> Result<Vec<u8>, ReplayError> {
    parse_moves_of(words, None)
}

/// [`parse_moves`] for a board of `holes` holes per row (when known), whose
/// range a word that is not a hole number is told.
///
/// # Errors
/// As [`parse_moves`].
pub fn parse_moves_of<S: AsRef<str>>(
    words: &[S],
    holes: Option<usize>,
) -> Result<Vec<u8>, ReplayError> {
    words
        .iter()
        .flat_map(|w| {
            w.as_ref()
                .split_whitespace()
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .map(|w| {
            endodoi_protocol::parse_move(&w)
                .map(Move::hole)
                .map_err(|_| ReplayError::NotAHole(w.clone(), holes))
        })
        .collect()
}

/// The columns a replay needs of a `games.csv`.
const REPLAY_COLUMNS: [&str; 11] = [
    "series",
    "game",
    "holes",
    "seeds",
    "max_laps",
    "max_plies",
    "moves",
    "south_seeds",
    "north_seeds",
    "result",
    "termination",
];

/// Reads game `game` of series `series` from a `games.csv` file (with
/// [`crate::output::read_games`]).
///
/// With the game, the file's last line if it was cut short and left out
/// (for the caller to warn of, as `arena rate` and `arena merge` do).
///
/// # Errors
/// The file cannot be read, lacks a column, or has no such game; or the
/// game's rules or moves are not numbers.
pub fn from_games_csv(
    path: &Path,
    series: usize,
    game: u32,
) -> Result<(Replay, Option<crate::output::TornLine>), ReplayError> {
    let read = crate::output::read_games(path)?;
    if let Some(column) = REPLAY_COLUMNS.iter().find(|c| !read.has_column(c)) {
        return Err(GamesError::MissingColumn {
            path: path.to_path_buf(),
            column: (*column).to_string(),
        }
        .into());
    }
    let row = read
        .rows
        .iter()
        .find(|r| r.series == series as u64 && r.game == game)
        .ok_or_else(|| ReplayError::NoSuchGame {
            path: path.to_path_buf(),
            series,
            game,
            torn: read.torn.clone(),
        })?;
    let bad = |source: RowRulesError| ReplayError::BadRules {
        path: path.to_path_buf(),
        series,
        game,
        cause: source,
    };
    let rules = row.rules().map_err(bad)?;
    let seeds = |column: &'static str, text: &str| {
        text.parse::<u32>().map_err(|_| {
            bad(RowRulesError::NotANumber {
                column,
                text: text.to_string(),
            })
        })
    };
    let moves = parse_moves_of(&[row.moves.as_str()], Some(rules.holes()))?;
    let players = Players {
        series: row.series,
        game: row.game,
        bots: [row.south.clone(), row.north.clone()],
        opening: row.opening.split_whitespace().count().min(moves.len()),
    };
    let replay = Replay {
        rules,
        moves,
        players: Some(players),
        recorded: Some(Recorded {
            seeds: [
                seeds("south_seeds", &row.south_seeds)?,
                seeds("north_seeds", &row.north_seeds)?,
            ],
            result: row.result.clone(),
            termination: row.termination.clone(),
            detail: row.detail.clone(),
        }),
    };
    Ok((replay, read.torn))
}

/// A capture as RULES.md tells it, the opposite hole's seeds and the
/// triggering seed (the last one sown, which is taken too): `6 seeds from
/// north's hole 3, and the triggering seed: 7 seeds`, where `whose` is the
/// captured side's possessive (`north's`, `your`).
#[must_use]
pub fn capture_text(capture: endodoi::Capture, whose: &str) -> String {
    let from_hole = capture.seeds.saturating_sub(1);
    format!(
        "{from_hole} seed{} from {whose} hole {}, and the triggering seed: {} seeds",
        if from_hole == 1 { "" } else { "s" },
        capture.hole,
        capture.seeds
    )
}

/// The width of a hole's cell, characters: the largest count's digits, at
/// least 2.
fn cell_width(pos: &Position) -> usize {
    pos.ring()
        .iter()
        .max()
        .map_or(1, |m| m.to_string().len())
        .max(2)
}

/// The two rows as the players see them across the board: North's row on
/// top, from North's hole n on the left down to hole 1, South's row below
/// from hole 1 to n, so opposite holes stand one above the other.
#[must_use]
pub fn board(pos: &Position) -> String {
    let width = cell_width(pos);
    let mut out = String::new();
    let _ = write!(out, "  N {:>4} |", pos.captured(Side::North));
    for s in pos.row(Side::North).iter().rev() {
        let _ = write!(out, " {s:>width$}");
    }
    let _ = write!(out, "\n  S {:>4} |", pos.captured(Side::South));
    for s in pos.row(Side::South) {
        let _ = write!(out, " {s:>width$}");
    }
    out
}

/// [`board`] between two lines of hole numbers (each row's own, 1 to n),
/// for the start of a replay: a move names a hole of the mover's row.
#[must_use]
pub fn board_with_holes(pos: &Position) -> String {
    let width = cell_width(pos);
    let numbers = |holes: &mut dyn Iterator<Item = usize>| {
        holes.fold(String::from("  hole   |"), |mut line, h| {
            let _ = write!(line, " {h:>width$}");
            line
        })
    };
    let n = pos.rules().holes();
    format!(
        "{}\n{}\n{}",
        numbers(&mut (1..=n).rev()),
        board(pos),
        numbers(&mut (1..=n))
    )
}

/// Replays `replay` into a report. Returns the report and whether the game
/// matched its record (always `true` without one).
///
/// # Errors
/// A move that is illegal where it was played; the report so far is in the message.
pub fn run(replay: &Replay) -> Result<(String, bool), ReplayError> {
    run_with(replay, None, Adjudicate::OFF)
}

/// Why the referee would end the recorded game at `pos` (a side holds more
/// than half of the seeds, or the tables' detail): by the rule of its
/// termination, and with both rules by the other too
/// ([`crate::output::checks::early_end`]); or `None`.
fn adjudicated_at(
    rec: Option<&Recorded>,
    pos: &Position,
    tables: Option<&Tables>,
    adjudicate: Adjudicate,
) -> Option<String> {
    match crate::output::checks::early_end(&rec?.termination, pos, adjudicate, tables)? {
        EarlyEnd::Decided(side) => Some(format!("{side} had more than half of the seeds")),
        EarlyEnd::Tablebase(end) => Some(end.detail()),
    }
}

/// [`run`], with the endgame tables that check a game adjudicated
/// `tablebase` (its forced end is printed), under the run's `adjudicate`
/// where known ([`Adjudicate::OFF`] if not: each adjudicated game is then
/// checked by its termination's rule alone).
///
/// # Errors
/// As [`run`].
pub fn run_with(
    replay: &Replay,
    tables: Option<&Tables>,
    adjudicate: Adjudicate,
) -> Result<(String, bool), ReplayError> {
    let mut pos = replay.rules.start();
    let mut out = String::new();
    let opening = replay.players.as_ref().map_or(0, |p| p.opening);
    write_header(&mut out, replay, &pos);
    // The first position past the opening where the referee would have
    // ended an adjudicated game: its moves must stop there.
    let mut early: Option<(usize, String)> = None;
    for (i, &hole) in replay.moves.iter().enumerate() {
        if early.is_none() && i >= opening {
            early = adjudicated_at(replay.recorded.as_ref(), &pos, tables, adjudicate)
                .map(|why| (i, why));
        }
        let mover = pos.to_move();
        // Who chose the move: the referee for an opening ply, else the
        // mover's bot (named when the game came from games.csv).
        let by = if i < opening {
            " (opening, played by the referee)".to_string()
        } else {
            replay.players.as_ref().map_or_else(String::new, |p| {
                format!(" ({})", p.bots[usize::from(mover == Side::North)])
            })
        };
        let mv = Move::new(hole).expect("parsed as 1..=50");
        let details = match pos.play(mv) {
            Ok(d) => d,
            Err(e) => {
                return Err(ReplayError::Illegal {
                    so_far: out,
                    ply: i + 1,
                    mover,
                    hole,
                    reason: e.to_string(),
                    legal: pos.legal_moves().to_string(),
                })
            }
        };
        let capture = details.capture.map_or_else(String::new, |c| {
            format!(
                ", captures {}",
                capture_text(c, &format!("{}'s", mover.opponent()))
            )
        });
        let _ = writeln!(
            out,
            "ply {}: {mover}{by} plays {hole}: {} lap{}, {} seed{} sown{capture}\n  {pos}\n{}",
            i + 1,
            details.laps,
            if details.laps == 1 { "" } else { "s" },
            details.sown,
            if details.sown == 1 { "" } else { "s" },
            board(&pos)
        );
    }
    write_end(&mut out, &pos);
    let matches = match &replay.recorded {
        Some(rec) => write_recorded(&mut out, rec, &pos, (tables, adjudicate), early.as_ref()),
        None => true,
    };
    Ok((out, matches))
}

/// The replay's first lines: the players and the opening (from
/// games.csv), the board and rule limits, the start position `pos`.
fn write_header(out: &mut String, replay: &Replay, pos: &Position) {
    if let Some(p) = &replay.players {
        let _ = write!(
            out,
            "series {} game {}: South {}, North {}",
            p.series, p.game, p.bots[0], p.bots[1]
        );
        let _ = match p.opening {
            0 => writeln!(out, "; no opening plies"),
            1 => writeln!(out, "; ply 1 is the opening, played by the referee"),
            n => writeln!(
                out,
                "; plies 1 to {n} are the opening, played by the referee"
            ),
        };
    }
    let _ = writeln!(
        out,
        "2x{} board, {} seeds per hole, max_laps {}, max_plies {}",
        replay.rules.holes(),
        replay.rules.seeds(),
        replay.rules.max_laps(),
        replay.rules.max_plies()
    );
    let _ = writeln!(out, "start: {pos}\n{}", board_with_holes(pos));
}

/// How the game at `pos` ended, or that it goes on (and whether its
/// winner is decided).
fn write_end(out: &mut String, pos: &Position) {
    let seeds = [pos.captured(Side::South), pos.captured(Side::North)];
    let (result, termination) = match pos.outcome() {
        Some(o) => (
            o.winner.map_or("draw", Side::name).to_string(),
            o.termination.name().to_string(),
        ),
        None => (String::new(), String::new()),
    };
    match pos.outcome() {
        Some(_) => {
            let _ = writeln!(
                out,
                "result: {result} by {termination}, South {} - North {}",
                seeds[0], seeds[1]
            );
        }
        None => {
            let _ = writeln!(
                out,
                "the game goes on after {}: South has {}, North {}; {} to move, legal: {}",
                crate::output::counted(pos.ply(), "ply", "plies"),
                seeds[0],
                seeds[1],
                pos.to_move(),
                pos.legal_moves()
            );
            if let Some(side) = pos.decided_winner() {
                let _ = writeln!(
                    out,
                    "decided: {side} has more than half of all seeds, so it wins whatever follows"
                );
            }
        }
    }
}

/// The recorded ending `rec` against the replay's final `pos` (and the
/// tables' verdict there, under the run's `adjudicate`), and a referee's
/// `early` end the moves went past: whether the replay agrees with the
/// record.
fn write_recorded(
    out: &mut String,
    rec: &Recorded,
    pos: &Position,
    (tables, adjudicate): (Option<&Tables>, Adjudicate),
    early: Option<&(usize, String)>,
) -> bool {
    if let Some(end) = tables.and_then(|t| endodoi_tablebase::adjudicate(t, pos)) {
        let _ = writeln!(
            out,
            "tablebase: {} to move forces a margin of {:+} within {} plies: South {} - North {}",
            pos.to_move(),
            end.margin,
            end.plies,
            end.seeds[0],
            end.seeds[1]
        );
    }
    let mut matches = rec.agrees_with(pos, tables, adjudicate);
    if let Some((ply, why)) = early {
        matches = false;
        let _ = writeln!(
            out,
            "the referee would have ended it after ply {ply} already ({why}), but its moves go on"
        );
    }
    let _ = writeln!(
        out,
        "recorded: {} by {}, South {} - North {}: {}",
        rec.result,
        rec.termination,
        rec.seeds[0],
        rec.seeds[1],
        if matches {
            "the replay agrees"
        } else {
            "THE REPLAY DISAGREES"
        }
    );
    matches
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A replay of `moves` under `rules` with a recorded end (no players):
    /// final `seeds` (South's, North's), `result`, `termination`, `detail`.
    fn recorded(
        rules: Rules,
        moves: Vec<u8>,
        seeds: [u32; 2],
        [result, termination, detail]: [&str; 3],
    ) -> Replay {
        Replay {
            rules,
            moves,
            recorded: Some(Recorded {
                seeds,
                result: result.into(),
                termination: termination.into(),
                detail: detail.into(),
            }),
            players: None,
        }
    }

    #[test]
    fn a_whole_game_replays_to_its_result() {
        // A row of ../shared/vectors/rules.csv that ends the game.
        let replay = recorded(
            Rules::new(7, 4).unwrap(),
            parse_moves(&["2 3 4 7 3 5 2 1 4 4 6 4 1 7 1 3 4 4 5 3 6 2 1 4 1 7 1 1 6 6 5 4 7 5"])
                .unwrap(),
            [22, 34],
            ["north", "no-moves", ""],
        );
        let (text, ok) = run(&replay).unwrap();
        assert!(ok, "{text}");
        assert!(
            text.contains("result: north by no-moves, South 22 - North 34"),
            "{text}"
        );
        assert_eq!(
            text.matches("\nply ").count() + usize::from(text.starts_with("ply ")),
            34
        );
    }

    #[test]
    fn a_decided_game_replays_to_its_adjudication() {
        // A demo game stopped after ply 11, South holding 34 of 64 seeds.
        let replay = recorded(
            Rules::new(8, 4).unwrap(),
            parse_moves(&["4 2 2 6 4 1 7 1 5 2 1"]).unwrap(),
            [34, 16],
            ["south", "decided", ""],
        );
        let (text, ok) = run(&replay).unwrap();
        assert!(ok, "{text}");
        assert!(
            text.contains("the game goes on after 11 plies: South has 34, North 16")
                && text.contains("decided: south has more than half of all seeds")
                && text
                    .contains("recorded: south by decided, South 34 - North 16: the replay agrees"),
            "{text}"
        );
    }

    #[test]
    fn an_adjudicated_game_whose_moves_go_on_past_the_point_disagrees() {
        // The game above, one ply longer: its end alone would agree (South
        // still holds more than half), but the referee stops at ply 11.
        let rules = Rules::new(8, 4).unwrap();
        let mut moves = parse_moves(&["4 2 2 6 4 1 7 1 5 2 1"]).unwrap();
        let mut pos = rules.start();
        for &m in &moves {
            pos.play(Move::new(m).unwrap()).unwrap();
        }
        let next = pos.legal_moves().into_iter().next().unwrap();
        pos.play(next).unwrap();
        moves.push(next.hole());
        let seeds = [pos.captured(Side::South), pos.captured(Side::North)];
        assert!(2 * seeds[0] > 64 && pos.outcome().is_none());
        let replay = recorded(rules, moves, seeds, ["south", "decided", ""]);
        let (text, ok) = run(&replay).unwrap();
        assert!(!ok, "{text}");
        assert!(
            text.contains("the referee would have ended it after ply 11 already (south had more than half of the seeds)"),
            "{text}"
        );
    }

    #[test]
    fn a_wrong_record_is_flagged_and_an_illegal_move_named() {
        let mut replay = recorded(
            Rules::new(4, 4).unwrap(),
            parse_moves(&["4", "3 2"]).unwrap(),
            [0, 0],
            ["draw", "timeout", "south (x) no reply"],
        );
        let (text, ok) = run(&replay).unwrap();
        assert!(!ok && text.contains("THE REPLAY DISAGREES"), "{text}");
        replay.moves = parse_moves(&["4 3 2 4 1 1"]).unwrap();
        let err = run(&replay).unwrap_err().to_string();
        assert!(
            err.contains("ply 6: north cannot play 1") && err.contains("endless"),
            "{err}"
        );
        assert!(parse_moves(&["3 x"]).is_err());
        assert!(parse_moves(&["51"]).is_err());
    }

    /// Issue 17 item 13's rule, the protocol's: `move 01` is refused, so
    /// a move list with `01` or `+1` is too (replay took `01` as hole 1).
    #[test]
    fn a_hole_number_has_no_sign_and_no_leading_zero() {
        for bad in ["01", "+1", "-1", "0", "007"] {
            let err = parse_moves(&["4", bad]).unwrap_err();
            assert!(
                matches!(&err, ReplayError::NotAHole(w, None) if w == bad),
                "{err}"
            );
        }
        assert_eq!(parse_moves(&["10 1"]).unwrap(), [10, 1]);
        let on_3 = parse_moves_of(&["01"], Some(3)).unwrap_err().to_string();
        assert_eq!(
            on_3,
            "'01' is not a hole number: use 1 to 3, in plain digits (no sign, no leading zero)"
        );
    }

    #[test]
    fn a_capture_counts_the_hole_and_the_triggering_seed_apart() {
        let c = |hole, seeds| endodoi::Capture { hole, seeds };
        assert_eq!(
            capture_text(c(3, 7), "greedy-c's"),
            "6 seeds from greedy-c's hole 3, and the triggering seed: 7 seeds"
        );
        assert_eq!(
            capture_text(c(1, 2), "your"),
            "1 seed from your hole 1, and the triggering seed: 2 seeds"
        );
        // 2x6 with 1 seed, South plays 4: 7 laps, captures North's hole 2.
        let replay = Replay {
            rules: Rules::new(6, 1).unwrap(),
            moves: vec![4],
            recorded: None,
            players: None,
        };
        let (text, _) = run(&replay).unwrap();
        assert!(
            text.contains(
                "ply 1: south plays 4: 7 laps, 13 seeds sown, captures 2 seeds from north's hole 2, \
                 and the triggering seed: 3 seeds\n"
            ),
            "{text}"
        );
    }

    #[test]
    fn the_board_puts_opposite_holes_one_above_the_other() {
        let pos = Position::parse("1,2,3/4,5,6 s 0 0 0", Rules::new(3, 2).unwrap()).unwrap();
        assert_eq!(board(&pos), "  N    0 |  6  5  4\n  S    0 |  1  2  3");
        assert_eq!(
            board_with_holes(&pos),
            "  hole   |  3  2  1\n  N    0 |  6  5  4\n  S    0 |  1  2  3\n  hole   |  1  2  3"
        );
    }
}
