//! The protocol's own-perspective view of a position, turned back, gives the
//! same position: the arena writes `turn`, the bot side (endodoi-bots) reads
//! it, and swapping North's view back restores the board.

use endodoi::{Position, Rules, Side};
use endodoi_protocol::{write_line, Request, Turn};
use proptest::prelude::*;

/// Plays `picks` (indices into the legal moves) from the start.
fn position(holes: usize, seeds: u32, picks: &[u8]) -> Position {
    let mut pos = Rules::new(holes, seeds).unwrap().start();
    for &p in picks {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        pos.play(legal.nth(p as usize % legal.len()).unwrap())
            .unwrap();
    }
    pos
}

proptest! {
    #[test]
    fn own_view_turns_back(holes in 2usize..=50, seeds in 1u32..=6, picks in proptest::collection::vec(any::<u8>(), 0..60)) {
        let pos = position(holes, seeds, &picks);
        prop_assume!(!pos.is_over());
        let mut line = String::new();
        write_line(&mut line, &Turn::new(&pos, None, pos.legal_moves(), 1000, None));
        let Ok(Request::Turn(turn)) = Request::parse(line.trim_end()) else {
            return Err(TestCaseError::fail(format!("not a turn: {line}")));
        };
        let view = endodoi_bots::turn_position(&turn, Some(*pos.rules())).unwrap();
        // In its own view the mover is South; turning North's view back swaps the rows.
        let me = pos.to_move();
        let back = match me {
            Side::South => view.ring().to_vec(),
            Side::North => [view.row(Side::North).to_vec(), view.row(Side::South).to_vec()].concat(),
        };
        prop_assert_eq!(back.as_slice(), pos.ring());
        prop_assert_eq!(view.captured(Side::South), pos.captured(me));
        prop_assert_eq!(view.captured(Side::North), pos.captured(me.opponent()));
        prop_assert_eq!(view.ply(), pos.ply());
        // The view's legal moves are the mover's, hole for hole.
        prop_assert_eq!(view.legal_moves(), pos.legal_moves());
        prop_assert_eq!(turn.legal, pos.legal_moves());
    }
}
