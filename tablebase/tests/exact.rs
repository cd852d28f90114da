//! The tables against searches that do not use them: a depth-limited minimax
//! over the rules engine (written here), `arena solve`'s backward induction,
//! and the negamax identity between a position and its best child.

use std::collections::HashMap;
use std::sync::OnceLock;

use endodoi::{Position, Rules, Side};
use endodoi_tablebase::{build, judge_move, Tables, Value, Verdict};
use proptest::prelude::*;

/// The rules of a 2x`holes` board with no ply limit of their own: the search
/// below counts its plies itself.
fn rules(holes: usize) -> Rules {
    Rules::new(holes, 1)
        .unwrap()
        .with_max_plies(u32::MAX)
        .unwrap()
}

/// The position of `board` (the mover's row, then the opponent's) with South
/// to move after some earlier move (ply 1, so there is a last mover).
fn position(rules: Rules, board: &[u32]) -> Position {
    let n = rules.holes();
    Position::from_parts(rules, &board[..n], &board[n..], Side::South, [0, 0], 1).unwrap()
}

/// The board of `pos` seen from its side to move.
fn view(pos: &Position) -> Vec<u32> {
    let side = pos.to_move();
    let mut board = pos.row(side).to_vec();
    board.extend(pos.row(side.opponent()).iter());
    board
}

/// Each legal move of `pos`, in order: the seeds it captures, and the
/// position after it (`None` when the move ends the game).
fn successors(pos: &Position) -> Vec<(i32, Option<Position>)> {
    pos.legal_moves()
        .into_iter()
        .map(|mv| {
            let mut next = pos.clone();
            let details = next.play(mv).unwrap();
            let g = details.capture.map_or(0, |c| c.seeds) as i32;
            (g, details.outcome.is_none().then_some(next))
        })
        .collect()
}

/// The exact margin from here of the mover of `board` with `plies` plies
/// left before the ply limit (RULES.md: no legal move, the last mover sweeps;
/// at the limit each side takes its own row), both sides optimal. Memoised by
/// (board, plies left).
fn minimax(
    rules: Rules,
    board: &[u32],
    plies: u32,
    memo: &mut HashMap<(Vec<u32>, u32), i32>,
) -> i32 {
    if let Some(&v) = memo.get(&(board.to_vec(), plies)) {
        return v;
    }
    let n = rules.holes();
    let k: u32 = board.iter().sum();
    let pos = position(rules, board);
    let value = if pos.legal_moves().is_empty() {
        -(k as i32)
    } else if plies == 0 {
        board[..n].iter().sum::<u32>() as i32 - board[n..].iter().sum::<u32>() as i32
    } else {
        successors(&pos)
            .into_iter()
            .map(|(g, next)| match next {
                None => k as i32, // the capture, and the rest swept
                Some(next) => g - minimax(rules, &view(&next), plies - 1, memo),
            })
            .max()
            .unwrap()
    };
    memo.insert((board.to_vec(), plies), value);
    value
}

/// Every position of `tables` against [`minimax`] with `plies`, `plies + 1`
/// and `plies + 4` plies left: a resolved value exactly, an unresolved one
/// within its forced bounds. Returns (resolved, unresolved) counts.
fn check_against_minimax(tables: &Tables) -> (u64, u64) {
    let rules = rules(tables.holes())
        .with_max_laps(tables.max_laps())
        .unwrap();
    let mut memo = HashMap::new();
    let (mut resolved, mut unresolved) = (0, 0);
    for layer in tables.layers() {
        let mut board = vec![0; 2 * tables.holes()];
        for (rank, value) in layer.values().iter().enumerate() {
            layer.index().unrank(rank as u64, &mut board);
            let plies = u32::from(value.plies());
            for r in [plies, plies + 1, plies + 4] {
                let v = minimax(rules, &board, r, &mut memo);
                match value.exact() {
                    Some(exact) => assert_eq!(v, exact, "{board:?} {value:?}, {r} plies left"),
                    None => {
                        assert!(
                            value.lo().is_none_or(|lo| lo <= v),
                            "{board:?} {value:?} {v}"
                        );
                        assert!(
                            value.hi().is_none_or(|hi| v <= hi),
                            "{board:?} {value:?} {v}"
                        );
                    }
                }
            }
            if value.exact().is_some() {
                resolved += 1;
            } else {
                unresolved += 1;
            }
        }
        memo.clear();
    }
    (resolved, unresolved)
}

/// 2x2 to 10 seeds, 2x4 to 5 and 2x5 to 7: every value agrees, and more
/// than the number given is resolved.
#[test]
fn every_value_of_2x2_2x4_and_2x5_agrees_with_minimax() {
    for (holes, seeds, at_least) in [(2, 10, 200), (4, 5, 500), (5, 7, 10000)] {
        let (resolved, _) = check_against_minimax(&build(holes, seeds).unwrap());
        assert!(resolved > at_least, "2x{holes} to {seeds}: {resolved}");
    }
}

#[test]
fn every_value_of_2x3_to_8_seeds_agrees_with_minimax() {
    let (resolved, unresolved) = check_against_minimax(&build(3, 8).unwrap());
    assert!(resolved > 1000 && unresolved > 0, "{resolved} {unresolved}");
}

/// Every move the judge calls a bounded mistake (its child unresolved) in a
/// resolved position of 2x3 up to 8 seeds, with the position's `plies` and
/// 4 more plies left, is worth at most its bound by [`minimax`], and so
/// less than the position's value; and there are such moves.
#[test]
fn a_bounded_mistake_is_worth_at_most_its_bound() {
    let tables = build(3, 8).unwrap();
    let mut memo = HashMap::new();
    let mut bounded = 0;
    for layer in tables.layers() {
        let mut board = vec![0; 6];
        for (rank, value) in layer.values().iter().enumerate() {
            let Some(exact) = value.exact() else { continue };
            layer.index().unrank(rank as u64, &mut board);
            let left = u32::from(value.plies()) + 4;
            let limited = rules(3).with_max_plies(1 + left).unwrap();
            let pos = position(limited, &board);
            for mv in pos.legal_moves() {
                let Verdict::BoundedMistake { best, at_most } =
                    judge_move(&tables, &pos, mv).unwrap()
                else {
                    continue;
                };
                let mut child = position(rules(3), &board);
                let gain = child.play(mv).unwrap().capture.map_or(0, |c| c.seeds) as i32;
                let worth = gain - minimax(rules(3), &view(&child), left - 1, &mut memo);
                assert_eq!(best, exact);
                assert!(
                    worth <= at_most && at_most < best,
                    "{board:?} {mv:?}: {worth} {at_most} {best}"
                );
                bounded += 1;
            }
        }
        memo.clear();
    }
    assert!(bounded > 0, "no bounded mistake found");
}

#[test]
fn a_table_is_for_its_lap_limit() {
    // With max_laps 2 every move that relays more than once is endless, so
    // not legal: the tables differ from the default's, and each agrees with
    // the minimax under its own limit.
    let mut short = Tables::new(3, 2).unwrap();
    while short.layers().len() <= 8 {
        short.build_next().unwrap();
    }
    assert_eq!(short.max_laps(), 2);
    check_against_minimax(&short);
    let default = build(3, 8).unwrap();
    let differ = (0..=8)
        .filter(|&k| short.layers()[k].values() != default.layers()[k].values())
        .count();
    assert!(differ > 0);
}

#[test]
fn a_position_is_probed_from_its_side_to_move() {
    let tables = build(3, 6).unwrap();
    let rules = Rules::new(3, 2).unwrap();
    // North to move, 6 seeds captured: the value is North's margin from here.
    let pos = Position::parse("1,0,2/0,1,0 n 4 2 9", rules).unwrap();
    let value = tables.probe(&pos).unwrap();
    assert_eq!(Some(value), tables.value(&[0, 1, 0, 1, 0, 2]));
    let over = Position::parse("0,0,0/1,0,0 s 5 6 9", rules).unwrap();
    assert_eq!(tables.probe(&over), None);
    let other_laps =
        Position::parse("1,0,2/0,1,0 n 4 2 9", rules.with_max_laps(7).unwrap()).unwrap();
    assert_eq!(tables.probe(&other_laps), None);
}

/// Every resolved position that `arena solve`'s backward induction knows
/// (reachable from the start of 2x`holes` with `seeds` per hole, any split
/// of the captured seeds, a whole ply limit still ahead) has its value.
/// Returns how many were compared.
fn check_against_solve(holes: usize, seeds: u32) -> u64 {
    let rules = Rules::new(holes, seeds).unwrap();
    let solution = endodoi_bots::solve::solve(rules).unwrap();
    let total = rules.total_seeds();
    let tables = build(holes, total).unwrap();
    let mut compared = 0;
    for layer in tables.layers() {
        let k = layer.seeds();
        let mut board = vec![0; 2 * holes];
        for (rank, value) in layer.values().iter().enumerate() {
            let Some(exact) = value.exact() else { continue };
            layer.index().unrank(rank as u64, &mut board);
            // Plies left: 1000 - ply, at least the plies the value needs.
            let ply = rules.max_plies() - u32::from(value.plies()) - 1;
            for south in 0..=total - k {
                let captured = [south, total - k - south];
                let pos = Position::from_parts(
                    rules,
                    &board[..holes],
                    &board[holes..],
                    Side::South,
                    captured,
                    ply,
                )
                .unwrap();
                // A finished position has swept its board already: solve says 0.
                if pos.is_over() {
                    continue;
                }
                if let Some(v) = solution.value(&pos) {
                    assert_eq!(v, exact, "{pos} {value:?}");
                    compared += 1;
                }
            }
        }
    }
    compared
}

#[test]
fn resolved_values_agree_with_arena_solve() {
    for (holes, seeds, least) in [
        (2, 1, 5),
        (2, 3, 50),
        (3, 1, 20),
        (3, 2, 500),
        (4, 1, 50),
        (5, 1, 50),
    ] {
        let compared = check_against_solve(holes, seeds);
        assert!(
            compared >= least,
            "2x{holes} with {seeds}: {compared} compared"
        );
    }
}

/// The tables of 2x4 up to 7 seeds on the board, built once.
fn tables_2x4() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| build(4, 7).unwrap())
}

/// The value the mover gets from each legal move of `board`, by the table:
/// (the capture, the child's value, or `None` when the move ends the game).
fn children(tables: &Tables, board: &[u32]) -> Vec<(i32, Option<Value>)> {
    let pos = position(rules(tables.holes()), board);
    successors(&pos)
        .into_iter()
        .map(|(g, next)| (g, next.map(|n| tables.value(&view(&n)).unwrap())))
        .collect()
}

proptest! {
    /// A resolved position's best move by the table (the move whose child's
    /// `hi` is lowest after the capture) leads to a resolved child, and the
    /// negamax identity holds: value = capture - child's value (a move that
    /// ends the game: the whole board); no move does better by `lo`.
    #[test]
    fn the_best_move_keeps_the_value(k in 1u32..=7, pick in any::<prop::sample::Index>()) {
        let tables = tables_2x4();
        let layer = &tables.layers()[k as usize];
        let rank = pick.index(layer.values().len());
        let value = layer.values()[rank];
        let mut board = vec![0; 8];
        layer.index().unrank(rank as u64, &mut board);
        let kids = children(tables, &board);
        let k = k as i32;
        let Some(exact) = value.exact() else {
            // Unresolved: some move is not worth its bound for sure.
            prop_assert!(!kids.is_empty());
            return Ok(());
        };
        if kids.is_empty() {
            prop_assert_eq!((exact, value.plies()), (-k, 0));
            return Ok(());
        }
        let by_hi = |&(g, c): &(i32, Option<Value>)| c.map_or(Some(k), |c| c.hi().map(|h| g - h));
        let best = kids.iter().max_by_key(|kid| by_hi(kid)).unwrap();
        prop_assert_eq!(by_hi(best), Some(exact));
        if let (g, Some(child)) = *best {
            prop_assert_eq!(child.exact(), Some(g - exact));
            // (No order of plies: a child's `plies` also covers its own
            // mover's forcing, which the parent's line does not need.)
        }
        for &(g, c) in &kids {
            let worst = c.map_or(Some(k), |c| c.lo().map(|l| g - l));
            prop_assert!(worst.is_some_and(|w| w <= exact), "{:?}", kids);
        }
    }
}
