//! The tables against searches that do not use them: a depth-limited minimax
//! over the rules engine (written here), `arena solve`'s backward induction,
//! and the negamax identity between a position and its best child.

use std::collections::HashMap;
use std::sync::OnceLock;

use endodoi::{Position, Rules, Side};
use endodoi_tablebase::{build, Tables, Value};
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
        pos.legal_moves()
            .into_iter()
            .map(|mv| {
                let mut next = pos.clone();
                let details = next.play(mv).unwrap();
                let g = details.capture.map_or(0, |c| c.seeds) as i32;
                if details.outcome.is_some() {
                    k as i32 // the capture, and the rest swept
                } else {
                    g - minimax(rules, &view(&next), plies - 1, memo)
                }
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
    let rules = rules(tables.holes());
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

#[test]
fn every_value_of_2x2_to_10_seeds_agrees_with_minimax() {
    let (resolved, _) = check_against_minimax(&build(2, 10).unwrap());
    assert!(resolved > 200, "{resolved}");
}

#[test]
fn every_value_of_2x3_to_8_seeds_agrees_with_minimax() {
    let (resolved, unresolved) = check_against_minimax(&build(3, 8).unwrap());
    assert!(resolved > 1000 && unresolved > 0, "{resolved} {unresolved}");
}

#[test]
fn every_value_of_2x4_to_5_seeds_agrees_with_minimax() {
    let (resolved, _) = check_against_minimax(&build(4, 5).unwrap());
    assert!(resolved > 500, "{resolved}");
}
