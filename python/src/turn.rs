//! Positions to and from the protocol's `turn` and `newgame` lines
//! (protocol.md), so that a Python bot builds its position in one call.

use endodoi::{Move, ParsePositionError, Position, Rules, Side};
use endodoi_protocol::{Encode, NewGame, RequestError, Turn};

/// Why a `turn` or `newgame` line could not become a position, or a
/// position a `turn`.
#[derive(Debug, thiserror::Error)]
pub enum TurnError {
    /// The line is not a well-formed request (protocol.md).
    #[error(transparent)]
    Request(#[from] RequestError),
    /// The rows do not fit the rules.
    #[error(transparent)]
    Position(#[from] ParsePositionError),
    /// The line's `legal` is not the engine's for that position: other
    /// rules (`max_laps`?) or another side.
    #[error("the turn's legal moves {turn} are not the engine's {engine} for {position} (other rules or another side?)")]
    Legal {
        /// The legal moves the line lists.
        turn: String,
        /// The legal moves the engine finds.
        engine: String,
        /// The position, in the text format.
        position: String,
    },
    /// The line's ply is the other side's: South moves at even plies and
    /// North at odd ones, as no player ever moves twice in a row (RULES.md).
    #[error("the turn is at ply {ply}, where {mover} moves, but it was read as {side}'s")]
    WrongSide {
        /// The ply of the line.
        ply: u32,
        /// The side that moves at that ply.
        mover: &'static str,
        /// The side named by the caller.
        side: &'static str,
    },
    /// A finished game has no `turn`.
    #[error("the game is over: there is no turn to send")]
    GameOver,
}

/// The position a `turn` line shows to the bot playing `side`, under
/// `rules` (from the game's `newgame`). The line's `legal` must be the
/// engine's legal moves of that position.
///
/// # Errors
/// [`TurnError`]: a malformed line, a ply where the other side moves,
/// rows that do not fit `rules`, or legal moves that differ from the engine's.
///
/// ```
/// use endodoi::{Rules, Side};
/// use endodoi_python::turn::from_turn;
/// let line = "turn mine=0,3,0 theirs=1,4,0 captured=0,4 last=1 legal=2 ply=1 time_ms=1000";
/// let pos = from_turn(line, Rules::new(3, 2)?, Side::North)?;
/// assert_eq!(pos.to_string(), "1,4,0/0,3,0 n 4 0 1");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn from_turn(line: &str, rules: Rules, side: Side) -> Result<Position, TurnError> {
    let turn: Turn = line.parse()?;
    let mover = if turn.ply.is_multiple_of(2) {
        Side::South
    } else {
        Side::North
    };
    if mover != side {
        let name = |s: Side| match s {
            Side::South => "South",
            Side::North => "North",
        };
        return Err(TurnError::WrongSide {
            ply: turn.ply,
            mover: name(mover),
            side: name(side),
        });
    }
    let (south, north, captured) = match side {
        Side::South => (turn.mine, turn.theirs, turn.captured),
        Side::North => (turn.theirs, turn.mine, [turn.captured[1], turn.captured[0]]),
    };
    let pos = Position::from_parts(rules, &south, &north, side, captured, turn.ply)?;
    if pos.legal_moves() != turn.legal {
        return Err(TurnError::Legal {
            turn: turn.legal.to_string(),
            engine: pos.legal_moves().to_string(),
            position: pos.to_string(),
        });
    }
    Ok(pos)
}

/// The `turn` line the arena sends for `pos` to its side to move: `last`
/// is the opponent's previous hole (its own numbering), `time_ms` the time
/// the reply may take (left out when `None`).
///
/// # Errors
/// [`TurnError::GameOver`] for a finished game.
///
/// ```
/// use endodoi::Rules;
/// use endodoi_python::turn::to_turn;
/// let start = Rules::new(3, 2)?.start();
/// assert_eq!(
///     to_turn(&start, None, Some(1000))?,
///     "turn mine=2,2,2 theirs=2,2,2 captured=0,0 last=none legal=1,2,3 ply=0 time_ms=1000"
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn to_turn(
    pos: &Position,
    last: Option<Move>,
    time_ms: Option<u64>,
) -> Result<String, TurnError> {
    if pos.is_over() {
        return Err(TurnError::GameOver);
    }
    let mut turn = Turn::new(pos, last, pos.legal_moves(), time_ms.unwrap_or(0), None);
    turn.time_ms = time_ms;
    let mut line = String::new();
    turn.encode(&mut line).expect("a String takes any write");
    Ok(line)
}

/// The rules and the bot's side of a `newgame` line.
///
/// # Errors
/// [`TurnError::Request`] for a malformed line.
///
/// ```
/// use endodoi::Side;
/// use endodoi_python::turn::from_newgame;
/// let (rules, side) = from_newgame("newgame holes=6 seeds=3 side=north max_laps=500")?;
/// assert_eq!((rules.holes(), rules.seeds(), rules.max_laps(), side), (6, 3, 500, Side::North));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn from_newgame(line: &str) -> Result<(Rules, Side), TurnError> {
    let game: NewGame = line.parse()?;
    Ok((game.rules, game.side))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_turn_and_back_for_either_side() {
        let rules = Rules::new(5, 3).unwrap();
        let mut pos = rules.start();
        for hole in [2, 4, 1, 3] {
            let side = pos.to_move();
            let line = to_turn(&pos, None, Some(50)).unwrap();
            assert_eq!(from_turn(&line, rules, side).unwrap(), pos, "{line}");
            let mv = Move::new(hole).unwrap();
            let legal = pos.legal_moves();
            pos.play(if legal.contains(mv) {
                mv
            } else {
                legal.first().unwrap()
            })
            .unwrap();
        }
    }

    #[test]
    fn a_wrong_side_or_bad_line_is_an_error() {
        let rules = Rules::new(4, 4).unwrap();
        // RULES.md's example seen by North: hole 1 is endless, so legal=1,3,4 is wrong.
        let line = "turn mine=2,0,6,5 theirs=0,5,0,1 captured=8,5 last=1 legal=1,3,4 ply=5";
        let err = from_turn(line, rules, Side::North).unwrap_err();
        assert!(matches!(err, TurnError::Legal { .. }), "{err}");
        assert!(err.to_string().contains("3 4"), "{err}");
        let wrong = from_turn(line, rules, Side::South).unwrap_err();
        assert!(
            matches!(wrong, TurnError::WrongSide { ply: 5, .. }),
            "{wrong}"
        );
        assert!(
            wrong
                .to_string()
                .contains("North moves, but it was read as South's"),
            "{wrong}"
        );
        let ok = "turn mine=2,0,6,5 theirs=0,5,0,1 captured=8,5 last=1 legal=3,4 ply=5";
        assert!(from_turn(ok, rules, Side::North).is_ok());
        assert!(matches!(
            from_turn("turn mine=1,2", rules, Side::South),
            Err(TurnError::Request(_))
        ));
        let short = "turn mine=1,2 theirs=1,2 legal=1,2";
        assert!(matches!(
            from_turn(short, rules, Side::South),
            Err(TurnError::Position(_))
        ));
    }

    #[test]
    fn a_finished_game_has_no_turn() {
        let over = Position::parse("0,0/1,1 s 1 1 5", Rules::new(2, 1).unwrap()).unwrap();
        assert!(matches!(
            to_turn(&over, None, None),
            Err(TurnError::GameOver)
        ));
    }
}
