//! Every move of a game judged against the tables, as a chess player
//! checks a game against Syzygy: where the position before the move has a
//! value the tables know exactly, the move either keeps that value
//! (optimal) or gives some of it away (a mistake of so many seeds).
//! Pure: a game's moves and the tables in, one [`Judged`] per ply out.

use endodoi::{IllegalMove, Move, Position, Side, Termination};

use crate::{adjudicate, Tables};

/// What the tables say of one move ([`judge_move`]). `best` is the margin
/// the mover forces from the position before the move (seeds, the mover's
/// future seeds minus the opponent's, the seeds captured so far left out);
/// `after` the margin it still forces after the move, on the same scale
/// (the seeds the move captured plus the margin the tables give the
/// position after it, negated, as the opponent moves there).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The position before the move is not one the tables know exactly:
    /// beyond the built layers, of another board or lap limit, unresolved
    /// (`lo < hi`), or with fewer plies left before the ply limit than its
    /// `plies`. Not judged.
    Outside,
    /// The position is known exactly but the mover had one legal move:
    /// no choice, so not counted among the judged moves.
    Forced {
        /// The forced margin, seeds.
        best: i32,
    },
    /// The move keeps the best forced margin.
    Optimal {
        /// The forced margin, seeds.
        best: i32,
    },
    /// The move gives away `best - after` seeds (always at least 1).
    Mistake {
        /// The forced margin before the move, seeds.
        best: i32,
        /// The forced margin after it, seeds (less than `best`).
        after: i32,
    },
    /// The position before the move is known exactly, the one after it
    /// only within its forced bounds (unresolved), and those already show
    /// the move worth at most `at_most`, less than `best`: a mistake of at
    /// least `best - at_most` seeds. The opponent, to move after it, can
    /// force an end with its `lo` within the plies left, so the move is worth
    /// at most its capture minus that `lo`.
    BoundedMistake {
        /// The forced margin before the move, seeds.
        best: i32,
        /// The most the move can be worth, seeds (less than `best`).
        at_most: i32,
    },
    /// The position before the move is known exactly, the one after it is
    /// not (unresolved, or its `plies` exceed the plies left), and its
    /// bounds do not show the move worse than `best`: the move cannot be
    /// judged.
    Unjudged {
        /// The forced margin before the move, seeds.
        best: i32,
    },
}

impl Verdict {
    /// The seeds the move gave away: `best - after` for a mistake, at
    /// least `best - at_most` for a bounded one (that bound), 0 otherwise.
    #[must_use]
    pub fn loss(self) -> u32 {
        match self {
            Verdict::Mistake { best, after } => best.abs_diff(after),
            Verdict::BoundedMistake { best, at_most } => best.abs_diff(at_most),
            _ => 0,
        }
    }

    /// Whether the move is a mistake: exact or bounded.
    #[must_use]
    pub fn is_mistake(self) -> bool {
        matches!(
            self,
            Verdict::Mistake { .. } | Verdict::BoundedMistake { .. }
        )
    }

    /// Whether the move changes the forced result: a win (a positive
    /// margin) to a draw or a loss, or a draw to a loss. A bounded mistake
    /// does so when its bound already does.
    #[must_use]
    pub fn loses_result(self) -> bool {
        match self {
            Verdict::Mistake { best, after: worth }
            | Verdict::BoundedMistake {
                best,
                at_most: worth,
            } => best.signum() > worth.signum(),
            _ => false,
        }
    }

    /// Whether the move counts as judged: optimal or a mistake (exact or
    /// bounded).
    #[must_use]
    pub fn is_judged(self) -> bool {
        matches!(self, Verdict::Optimal { .. }) || self.is_mistake()
    }

    /// Whether the position before the move was known exactly (every
    /// verdict but [`Verdict::Outside`]).
    #[must_use]
    pub fn in_tables(self) -> bool {
        !matches!(self, Verdict::Outside)
    }
}

/// One ply of a game and its [`Verdict`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Judged {
    /// Plies played before this move (0 for the first move).
    pub ply: u32,
    /// The side that made the move.
    pub mover: Side,
    /// The tables' verdict.
    pub verdict: Verdict,
}

/// The margin for the mover of `pos` of the move that led from `pos` to
/// `child` (the position right after it), and the plies to the end after
/// `pos` by perfect play (an upper bound, counting the move); `None` when the
/// tables do not know `child` exactly within its plies left. A move that ends
/// the game is worth its capture plus the seeds left on the board as the
/// end shares them (all to the mover when the opponent has no legal move,
/// each side its own row at the ply limit).
#[must_use]
pub fn move_value(tables: &Tables, pos: &Position, child: &Position) -> Option<(i32, u32)> {
    let me = pos.to_move();
    let captured = captured_by(pos, child);
    match child.outcome() {
        Some(outcome) => {
            let row = |s: Side| child.row(s).sum() as i32;
            let rest = match outcome.termination {
                Termination::NoMoves => row(me) + row(me.opponent()),
                Termination::PlyLimit => row(me) - row(me.opponent()),
            };
            Some((captured + rest, 1))
        }
        None => {
            let end = adjudicate(tables, child)?;
            Some((captured - end.margin, 1 + u32::from(end.plies)))
        }
    }
}

/// The seeds the move from `pos` to `child` captured for its mover, less
/// those the opponent captured (none: only the mover sows).
fn captured_by(pos: &Position, child: &Position) -> i32 {
    let me = pos.to_move();
    let gain = |p: &Position, s: Side| p.captured(s) as i32;
    (gain(child, me) - gain(pos, me)) - (gain(child, me.opponent()) - gain(pos, me.opponent()))
}

/// The most the move from `pos` to `child` can be worth to the mover of
/// `pos`, when the tables bound `child` but do not know it exactly: the
/// opponent, to move in `child`, can force an end with at least its `lo`
/// within its `plies`, so the move is worth at most its capture minus that
/// `lo`. `None` when `child` is over, outside the tables, has no `lo`, or
/// needs more plies than are left.
#[must_use]
pub fn move_bound(tables: &Tables, pos: &Position, child: &Position) -> Option<i32> {
    if child.is_over() {
        return None;
    }
    let value = tables.probe(child)?;
    let lo = value.lo()?;
    let left = child.rules().max_plies().saturating_sub(child.ply());
    if value.plies() == u16::MAX || u32::from(value.plies()) > left {
        return None;
    }
    Some(captured_by(pos, child) - lo)
}

/// The tables' verdict on playing `mv` in `pos` ([`Verdict`]).
///
/// # Errors
/// [`IllegalMove`] when `mv` is not legal in `pos`.
pub fn judge_move(tables: &Tables, pos: &Position, mv: Move) -> Result<Verdict, IllegalMove> {
    let mut child = pos.clone();
    child.play(mv)?;
    let Some(best) = adjudicate(tables, pos).map(|a| a.margin) else {
        return Ok(Verdict::Outside);
    };
    if pos.legal_moves().len() == 1 {
        return Ok(Verdict::Forced { best });
    }
    Ok(match move_value(tables, pos, &child) {
        None => match move_bound(tables, pos, &child) {
            Some(at_most) if at_most < best => Verdict::BoundedMistake { best, at_most },
            _ => Verdict::Unjudged { best },
        },
        Some((after, _)) if after >= best => Verdict::Optimal { best },
        Some((after, _)) => Verdict::Mistake { best, after },
    })
}

/// A move of a game that the rules refuse: the game cannot be judged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameError {
    /// Plies played before it.
    pub ply: u32,
    /// The hole played, own-perspective.
    pub hole: u8,
    /// The engine's reason.
    pub cause: IllegalMove,
}

impl std::fmt::Display for GameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "move {}: hole {}: {}",
            self.ply + 1,
            self.hole,
            self.cause
        )
    }
}

impl std::error::Error for GameError {}

/// Every move of the game from `start` judged ([`judge_move`]), one
/// [`Judged`] per move in order. Moves after the game's end are refused
/// like any illegal move.
///
/// # Errors
/// [`GameError`]: the first move the rules refuse.
pub fn judge_game(
    tables: &Tables,
    start: &Position,
    moves: &[Move],
) -> Result<Vec<Judged>, GameError> {
    let mut pos = start.clone();
    let mut judged = Vec::with_capacity(moves.len());
    for &mv in moves {
        let ply = pos.ply();
        let fail = |cause| GameError {
            ply,
            hole: mv.hole(),
            cause,
        };
        let verdict = judge_move(tables, &pos, mv).map_err(fail)?;
        judged.push(Judged {
            ply,
            mover: pos.to_move(),
            verdict,
        });
        pos.play(mv).map_err(fail)?;
    }
    Ok(judged)
}

#[cfg(test)]
mod tests {
    use super::*;
    use endodoi::Rules;
    use proptest::prelude::*;

    /// The position of `board` (the mover's row, then the opponent's) with
    /// `mover` to move, nothing captured, `ply` plies played of `max_plies`.
    fn position(board: &[u32], mover: Side, ply: u32, max_plies: u32) -> Position {
        let h = board.len() / 2;
        let rules = Rules::new(h, 1).unwrap().with_max_plies(max_plies).unwrap();
        let (mine, theirs) = board.split_at(h);
        let (south, north) = match mover {
            Side::South => (mine, theirs),
            Side::North => (theirs, mine),
        };
        Position::from_parts(rules, south, north, mover, [0, 0], ply).unwrap()
    }

    /// Every position of layer `k` of `tables`, South to move, with `ply`
    /// plies played of `max_plies`.
    fn layer(tables: &Tables, k: u32, ply: u32, max_plies: u32) -> Vec<Position> {
        let index = tables.layers()[k as usize].index();
        let mut board = vec![0; index.holes()];
        (0..index.count())
            .map(|rank| {
                index.unrank(rank, &mut board);
                position(&board, Side::South, ply, max_plies)
            })
            .collect()
    }

    /// The verdicts of every legal move of `pos`.
    fn verdicts(tables: &Tables, pos: &Position) -> Vec<(Move, Verdict)> {
        pos.legal_moves()
            .into_iter()
            .map(|mv| (mv, judge_move(tables, pos, mv).unwrap()))
            .collect()
    }

    #[test]
    fn a_layer_shows_every_verdict_and_a_mistake_loses_what_it_gives_away() {
        let tables = crate::build(3, 6).unwrap();
        let mut seen = [false; 5];
        for pos in layer(&tables, 6, 0, 1000) {
            for (mv, v) in verdicts(&tables, &pos) {
                let kind = match v {
                    Verdict::Outside => 0,
                    Verdict::Forced { .. } => 1,
                    Verdict::Optimal { .. } => 2,
                    Verdict::Mistake { best, after } => {
                        let mut child = pos.clone();
                        child.play(mv).unwrap();
                        let (value, _) = move_value(&tables, &pos, &child).unwrap();
                        assert_eq!((after, v.loss()), (value, (best - value) as u32));
                        assert!(v.loss() >= 1);
                        3
                    }
                    Verdict::Unjudged { .. } => 4,
                    Verdict::BoundedMistake { best, at_most } => {
                        assert!(at_most < best && v.loss() >= 1 && v.is_mistake());
                        3
                    }
                };
                seen[kind] = true;
            }
        }
        // 2x3 with 6 seeds has unresolved positions; a move into one is
        // unjudged, a move from one outside.
        assert_eq!(
            seen, [true; 5],
            "outside, forced, optimal, mistake, unjudged"
        );
        // Beyond the layers: outside.
        let big = position(&[4, 0, 0, 1, 1, 1], Side::South, 0, 1000);
        assert_eq!(
            judge_move(&tables, &big, Move::new(1).unwrap()),
            Ok(Verdict::Outside)
        );
    }

    #[test]
    fn too_few_plies_left_put_a_position_outside() {
        let tables = crate::build(2, 4).unwrap();
        let start = Rules::new(2, 1).unwrap().start();
        let plies = u32::from(tables.probe(&start).unwrap().plies());
        let mv = start.legal_moves().into_iter().next().unwrap();
        let short = position(&[1, 1, 1, 1], Side::South, 0, plies - 1);
        assert_eq!(judge_move(&tables, &short, mv), Ok(Verdict::Outside));
        assert!(judge_move(&tables, &start, mv).unwrap().in_tables());
    }

    #[test]
    fn a_game_is_judged_ply_by_ply_and_an_illegal_move_named() {
        let tables = crate::build(2, 4).unwrap();
        let start = Rules::new(2, 1).unwrap().start();
        // Play the best move (by the tables) at every ply to the end.
        let (mut pos, mut moves) = (start.clone(), Vec::new());
        while !pos.is_over() {
            let mv = best_moves(&tables, &pos)[0];
            moves.push(mv);
            pos.play(mv).unwrap();
        }
        let judged = judge_game(&tables, &start, &moves).unwrap();
        assert_eq!(judged.len(), moves.len());
        for (i, j) in judged.iter().enumerate() {
            assert_eq!(j.ply, i as u32);
            assert_eq!(j.mover, if i % 2 == 0 { Side::South } else { Side::North });
            assert!(
                matches!(j.verdict, Verdict::Optimal { .. } | Verdict::Forced { .. }),
                "{j:?}"
            );
        }
        // One move too many: the game is over.
        moves.push(Move::new(1).unwrap());
        let e = judge_game(&tables, &start, &moves).unwrap_err();
        assert_eq!(
            (e.ply, e.cause),
            (moves.len() as u32 - 1, IllegalMove::GameOver)
        );
        assert!(e
            .to_string()
            .starts_with(&format!("move {}: hole 1:", moves.len())));
    }

    /// The legal moves of `pos` that keep the largest known value.
    fn best_moves(tables: &Tables, pos: &Position) -> Vec<Move> {
        let valued: Vec<(Move, i32)> = pos
            .legal_moves()
            .into_iter()
            .filter_map(|mv| {
                let mut child = pos.clone();
                child.play(mv).ok()?;
                Some((mv, move_value(tables, pos, &child)?.0))
            })
            .collect();
        let top = valued.iter().map(|&(_, v)| v).max();
        valued
            .into_iter()
            .filter(|&(_, v)| Some(v) == top)
            .map(|(mv, _)| mv)
            .collect()
    }

    fn any_position() -> impl Strategy<Value = Position> {
        (2usize..=4, any::<bool>(), 1u32..=8)
            .prop_flat_map(|(h, north, k)| {
                let k = k.min(if h == 4 { 7 } else { 8 });
                (
                    proptest::collection::vec(0..=k, 2 * h),
                    Just(north),
                    Just(k),
                )
            })
            .prop_map(|(mut board, north, k)| {
                // Scale the board down to at most k seeds.
                while board.iter().sum::<u32>() > k {
                    let i = board.iter().position(|&s| s > 0).unwrap();
                    board[i] -= 1;
                }
                let mover = if north { Side::North } else { Side::South };
                position(&board, mover, 0, 1000)
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// In a position the tables know exactly, no move is worth more
        /// than its value, the best move's value equals it, the moves that
        /// keep it are optimal, and no loss is negative.
        #[test]
        fn the_best_move_keeps_the_tables_value(pos in any_position()) {
            let tables = TABLES.with(|t| t.clone());
            let tables = &tables[pos.holes() - 2];
            let Some(value) = adjudicate(tables, &pos).map(|a| a.margin) else {
                return Ok(());
            };
            let best = best_moves(tables, &pos);
            prop_assert!(!best.is_empty());
            for (mv, v) in verdicts(tables, &pos) {
                let keeps = best.contains(&mv);
                match v {
                    Verdict::Optimal { best } | Verdict::Forced { best } => {
                        prop_assert_eq!(best, value);
                    }
                    Verdict::Mistake { best, after } => {
                        prop_assert!(after < best && best == value && !keeps);
                    }
                    Verdict::Unjudged { best } => prop_assert!(best == value && !keeps),
                    Verdict::BoundedMistake { best, at_most } => {
                        prop_assert!(at_most < best && best == value && !keeps);
                    }
                    Verdict::Outside => prop_assert!(false, "outside in a known position"),
                }
                if keeps && pos.legal_moves().len() > 1 {
                    prop_assert_eq!(v, Verdict::Optimal { best: value });
                }
            }
            let mut child = pos.clone();
            child.play(best[0]).unwrap();
            prop_assert_eq!(move_value(tables, &pos, &child).map(|v| v.0), Some(value));
        }
    }

    thread_local! {
        /// 2x2 to 8 seeds, 2x3 to 8, 2x4 to 7, built once per test thread.
        static TABLES: std::rc::Rc<Vec<Tables>> = std::rc::Rc::new(vec![
            crate::build(2, 8).unwrap(),
            crate::build(3, 8).unwrap(),
            crate::build(4, 7).unwrap(),
        ]);
    }
}
