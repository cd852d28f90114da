//! The alphabeta bot plays perfectly on small boards, checked against the
//! exact values that `solve` computes (retrograde analysis over the ply
//! horizon, ply limit and endless moves included):
//!
//! - at the start and at positions sampled from seeded random games, the
//!   move it picks has the best game-theoretic result (win, draw or loss);
//!   where the search proved its score, that score is the exact final margin
//!   and the move's margin is the best one. (A bigger margin can hide in a
//!   cycle that only the ply limit ends, 1000 plies away: the bot then takes
//!   a proven win over an unproven bigger lead.)
//! - at the same boards a few plies before the ply limit, where its search
//!   reaches every end, it proves the exact best margin and plays a move
//!   that achieves it.

use endodoi::{Position, Rules, Side};
use endodoi_bots::alphabeta::{terminal_score, AlphaBeta, AlphaBetaOptions};
use endodoi_bots::solve::{solve, GameValue, Solution};
use endodoi_bots::{own_view, TimeLeft};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const DEPTH: u32 = 24;

/// The start, and `count` positions from seeded random games at random
/// plies below 40 (each with at least two legal moves).
fn sample(rules: Rules, count: usize, seed: u64) -> Vec<Position> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = vec![rules.start()];
    while out.len() <= count {
        let mut pos = rules.start();
        let stop = rng.gen_range(1..40);
        while !pos.is_over() && pos.ply() < stop {
            let legal = pos.legal_moves();
            pos.play(legal.nth(rng.gen_range(0..legal.len())).unwrap())
                .unwrap();
        }
        if !pos.is_over() && pos.legal_moves().len() > 1 {
            out.push(pos);
        }
    }
    out
}

/// What the bot did at one position.
struct Checked {
    /// Its move achieves the best margin.
    best_margin: bool,
    /// It claimed a proven score.
    proven: bool,
}

/// Asks a fresh bot for its move at `pos` and checks it against `solution`.
fn check(solution: &Solution, pos: &Position) -> Checked {
    let view = own_view(pos);
    let values = solution.move_values(&view).expect("a solved position");
    let best = values.iter().map(|&(_, v)| v).max().unwrap();
    let mut bot = AlphaBeta::new(AlphaBetaOptions {
        depth: Some(DEPTH),
        ..AlphaBetaOptions::default()
    });
    let result = bot.analyse(&view, view.legal_moves(), &TimeLeft::unlimited());
    let chosen = values.iter().find(|&&(mv, _)| mv == result.best).unwrap().1;
    let diff = view.captured(Side::South) as i32 - view.captured(Side::North) as i32;
    assert_eq!(
        GameValue::of_margin(diff + chosen),
        GameValue::of_margin(diff + best),
        "at {pos} the bot plays {} for a final margin of {:+}; the best is {:+} ({values:?})",
        result.best,
        diff + chosen,
        diff + best,
    );
    if result.exact {
        assert_eq!(result.score, terminal_score(diff + best), "proof at {pos}");
        assert_eq!(chosen, best, "proven move at {pos}");
    }
    Checked {
        best_margin: chosen == best,
        proven: result.exact,
    }
}

/// Checks the start and `count` sampled positions of 2x`holes` with `seeds`,
/// and the same positions moved to a few plies before the limit. Returns
/// (positions, best margins, proven) over the early ones.
fn check_board(holes: usize, seeds: u32, count: usize) -> (usize, usize, usize) {
    let rules = Rules::new(holes, seeds).unwrap();
    let solution = solve(rules).unwrap();
    let positions = sample(rules, count, 7 * holes as u64 + u64::from(seeds));
    let (mut margins, mut proven) = (0, 0);
    for pos in &positions {
        let c = check(&solution, pos);
        margins += usize::from(c.best_margin);
        proven += usize::from(c.proven);
    }
    // Near the ply limit every line ends within the search: exact play.
    for (i, pos) in positions.iter().enumerate() {
        let left = 1 + (i as u32 % (DEPTH - 1));
        let late = Position::from_parts(
            rules,
            &pos.row(Side::South).to_vec(),
            &pos.row(Side::North).to_vec(),
            pos.to_move(),
            [pos.captured(Side::South), pos.captured(Side::North)],
            rules.max_plies() - left,
        )
        .unwrap();
        if late.is_over() || late.legal_moves().len() < 2 {
            continue;
        }
        let c = check(&solution, &late);
        assert!(
            c.proven && c.best_margin,
            "at {late}, {left} plies before the limit"
        );
    }
    println!(
        "2x{holes}, {seeds} per hole: {} positions, best margin at {margins}, proven at {proven}",
        positions.len()
    );
    (positions.len(), margins, proven)
}

#[test]
fn perfect_on_2x2() {
    for seeds in 1..=4 {
        check_board(2, seeds, 30);
    }
}

#[test]
fn perfect_on_2x3() {
    for seeds in 1..=4 {
        check_board(3, seeds, 40);
    }
}

#[test]
fn perfect_on_2x4_with_1_and_2_seeds() {
    check_board(4, 1, 40);
    check_board(4, 2, 40);
}
