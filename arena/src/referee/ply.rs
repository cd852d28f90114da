//! One ply, and the start of a game, for one bot: the one place that asks
//! a bot a question and judges its answer. The referee's game loop,
//! `arena play` and `arena check` all play their bots' plies through
//! [`ply`], and tell them of a new game through [`new_game`]; each turns
//! the typed outcome ([`PlyFault`], [`NewGameFault`]) into its own words.
//!
//! A ply is one round trip, and allocates nothing unless the bot faults:
//! the `turn` is written into the caller's reused buffer, the reply is
//! decoded in place, and the move is checked and played by one call of the
//! rules engine.

use std::fmt;
use std::time::Duration;

use endodoi::{IllegalMove, Move, MoveDetails, MoveSet, Position};
use endodoi_protocol::{write_line, NewGame, Reply, ReplyError, Turn};

use crate::bot::{BotProcess, Fault};

/// The time a bot is given for one ply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlyClock {
    /// The time the reply may take, ms: sent as `time_ms`, and the limit.
    pub limit_ms: u64,
    /// Granted on top of the limit before the reply is a timeout.
    pub margin: Duration,
    /// With a game clock, both clocks in ms (the mover's, then the
    /// opponent's), sent as `clock_ms`.
    pub clocks: Option<[u64; 2]>,
}

/// A ply played: the move, as the rules engine played it, and the time
/// the reply took (from the write of `turn` to the arrival of the reply).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played {
    /// The move and what it did.
    pub details: MoveDetails,
    /// The time from the request to the reply.
    pub elapsed: Duration,
}

/// Why the hole a bot named cannot be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalReply {
    /// No such hole on this board (0, or past the last hole).
    #[error("hole {hole} does not exist: holes are 1 to {holes}")]
    NoSuchHole {
        /// The hole named.
        hole: u32,
        /// Holes per row.
        holes: usize,
    },
    /// The rules forbid it (an empty hole, an endless move).
    #[error("{0}")]
    Rule(IllegalMove),
}

/// How a ply went wrong for the bot; the position is then unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlyFault {
    /// The request failed: a timeout, a crash, or a line the framing
    /// refuses (too long, not ASCII, unsolicited). No reply line.
    Fault(Fault),
    /// A reply that is not `move N`.
    NotAMove {
        /// The reply, trimmed, as read.
        line: String,
        /// Why it does not decode; `None` for another message (`ready`...).
        error: Option<ReplyError>,
        /// The time the reply took.
        elapsed: Duration,
    },
    /// `move N` with `N` not a legal move; the bot is still in step.
    Illegal {
        /// The reply, trimmed, as read.
        line: String,
        /// The hole it named.
        hole: u32,
        /// Why that hole cannot be played.
        illegal: IllegalReply,
        /// The legal moves it was sent.
        legal: MoveSet,
        /// The time the reply took.
        elapsed: Duration,
    },
}

impl PlyFault {
    /// The `termination` of `games.csv` this fault makes.
    #[must_use]
    pub fn termination(&self) -> &'static str {
        match self {
            PlyFault::Fault(f) => f.termination(),
            PlyFault::NotAMove { .. } => "protocol-error",
            PlyFault::Illegal { .. } => "illegal-move",
        }
    }

    /// The line the bot sent, if it sent one.
    #[must_use]
    pub fn line(&self) -> Option<&str> {
        match self {
            PlyFault::Fault(_) => None,
            PlyFault::NotAMove { line, .. } | PlyFault::Illegal { line, .. } => Some(line),
        }
    }
}

impl fmt::Display for PlyFault {
    /// What went wrong, without the line: the fault, `expected 'move N'`
    /// (or why the line is no message), or `illegal move: WHY; legal were
    /// 1 2 3`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlyFault::Fault(fault) => fault.fmt(f),
            // A `hello ...` line that is not a good handshake is still no
            // move: say what a turn wants.
            PlyFault::NotAMove {
                error: None | Some(ReplyError::BadHello),
                ..
            } => f.write_str("expected 'move N'"),
            PlyFault::NotAMove { error: Some(e), .. } => e.fmt(f),
            PlyFault::Illegal { illegal, legal, .. } => {
                write!(f, "illegal move: {illegal}; legal were {legal}")
            }
        }
    }
}

impl std::error::Error for PlyFault {}

/// Plays one ply of `bot`, the side to move in `pos` (a game not over):
/// writes the `turn` (with `last`, the opponent's previous move, and the
/// times of `clock`) into `buf`, sends it, waits for the reply within the
/// limit and the margin, decodes it, and plays the move on `pos` if it is
/// legal.
///
/// # Errors
/// [`PlyFault`]: the bot faulted, replied with something other than
/// `move N`, or named an illegal hole. `pos` is then unchanged.
pub async fn ply(
    bot: &mut BotProcess,
    buf: &mut String,
    pos: &mut Position,
    last: Option<Move>,
    clock: PlyClock,
) -> Result<Played, PlyFault> {
    let legal = pos.legal_moves();
    write_line(
        buf,
        &Turn::new(pos, last, legal, clock.limit_ms, clock.clocks),
    );
    let limit = Duration::from_millis(clock.limit_ms);
    let (line, elapsed) = bot
        .request(buf, limit, clock.margin)
        .await
        .map_err(PlyFault::Fault)?;
    let hole = match Reply::parse(line) {
        Ok(Reply::Move(hole)) => hole,
        other => {
            return Err(PlyFault::NotAMove {
                line: line.to_string(),
                error: other.err(),
                elapsed,
            })
        }
    };
    let no_such_hole = IllegalReply::NoSuchHole {
        hole,
        holes: pos.holes(),
    };
    let played = u8::try_from(hole)
        .ok()
        .and_then(Move::new)
        .ok_or(no_such_hole)
        .and_then(|mv| {
            pos.play(mv).map_err(|e| match e {
                IllegalMove::NoSuchHole { .. } => no_such_hole,
                other => IllegalReply::Rule(other),
            })
        });
    match played {
        Ok(details) => Ok(Played { details, elapsed }),
        Err(illegal) => Err(PlyFault::Illegal {
            line: line.to_string(),
            hole,
            illegal,
            legal,
            elapsed,
        }),
    }
}

/// How telling a bot of a new game went wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NewGameFault {
    /// The request failed (a timeout, a crash, a refused line).
    Fault(Fault),
    /// It answered with something other than `ready`.
    NotReady {
        /// The reply, trimmed, as read.
        line: String,
        /// The notification just before the request (`gameover`), if
        /// there was one: the reply may be meant for it.
        after: Option<String>,
    },
}

impl NewGameFault {
    /// The line the bot sent, if it sent one.
    #[must_use]
    pub fn line(&self) -> Option<&str> {
        match self {
            NewGameFault::Fault(_) => None,
            NewGameFault::NotReady { line, .. } => Some(line),
        }
    }
}

impl fmt::Display for NewGameFault {
    /// The fault, or `answered newgame without 'ready'` (with the hint
    /// `(after gameover, which takes no reply)` when it followed one).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NewGameFault::Fault(fault) => fault.fmt(f),
            NewGameFault::NotReady { after, .. } => {
                f.write_str("answered newgame without 'ready'")?;
                if let Some(n) = after {
                    write!(f, " (after {n}, which takes no reply)")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for NewGameFault {}

/// Tells `bot` of a new game (`newgame`, written into `buf`) and waits up
/// to `startup` for its `ready`.
///
/// # Errors
/// [`NewGameFault`]: the bot faulted or did not answer `ready`.
pub async fn new_game(
    bot: &mut BotProcess,
    buf: &mut String,
    game: &NewGame,
    startup: Duration,
) -> Result<(), NewGameFault> {
    write_line(buf, game);
    let (line, _) = bot
        .request(buf, startup, Duration::ZERO)
        .await
        .map_err(NewGameFault::Fault)?;
    if Reply::parse(line) == Ok(Reply::Ready) {
        return Ok(());
    }
    let line = line.to_string();
    Err(NewGameFault::NotReady {
        line,
        after: bot.asked_after().map(str::to_string),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn faults_say_what_a_turn_wants() {
        let not_a_move = |error| PlyFault::NotAMove {
            line: "x".into(),
            error,
            elapsed: Duration::ZERO,
        };
        assert_eq!(not_a_move(None).to_string(), "expected 'move N'");
        assert_eq!(
            not_a_move(Some(ReplyError::BadHello)).to_string(),
            "expected 'move N'"
        );
        assert_eq!(
            not_a_move(Some(ReplyError::Unknown)).to_string(),
            "not a protocol message"
        );
        let illegal = PlyFault::Illegal {
            line: "move 9".into(),
            hole: 9,
            illegal: IllegalReply::NoSuchHole { hole: 9, holes: 8 },
            legal: MoveSet::from_bits(0b11),
            elapsed: Duration::ZERO,
        };
        assert_eq!(
            illegal.to_string(),
            "illegal move: hole 9 does not exist: holes are 1 to 8; legal were 1 2"
        );
        assert_eq!(illegal.termination(), "illegal-move");
        assert_eq!(illegal.line(), Some("move 9"));
        let ready = NewGameFault::NotReady {
            line: "move 1".into(),
            after: Some("gameover".into()),
        };
        assert_eq!(
            ready.to_string(),
            "answered newgame without 'ready' (after gameover, which takes no reply)"
        );
    }
}
