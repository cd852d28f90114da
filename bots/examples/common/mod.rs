//! What the examples share: a random opening drawn as a tournament's
//! `[openings]` draws it.

use endodoi::Position;
use rand::Rng;

/// `start` after 2 to 4 plies, each uniform over the legal moves (fewer
/// when a position on the way has no legal move).
pub fn random_opening(start: &Position, rng: &mut impl Rng) -> Position {
    let mut pos = start.clone();
    for _ in 0..rng.gen_range(2..=4) {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let mv = legal.nth(rng.gen_range(0..legal.len())).expect("in range");
        pos.play(mv).expect("a legal move");
    }
    pos
}
