//! Perft: counting move paths, the standard cross-check of a move generator.

use crate::Position;

/// The number of legal move sequences of exactly `depth` plies from `pos`
/// (games that end sooner count nothing), as perft counts them for chess
/// engines. Depth 0 counts `pos` itself (1, even for a finished game). Used
/// with a checked-in table (`tests/perft.csv`) to pin the move generator down,
/// as shakmaty does. Endless moves are not legal, so they are not counted
/// (RULES.md, "Endless sowing"). The work grows exponentially with `depth`.
///
/// ```
/// use endodoi::{perft, Rules};
/// let start = Rules::new(6, 4)?.start();
/// assert_eq!(perft(&start, 0), 1);
/// assert_eq!(perft(&start, 1), 6);
/// assert_eq!(perft(&start, 2), 28);
/// assert_eq!(perft(&start, 3), 129);
/// # Ok::<(), endodoi::RulesError>(())
/// ```
#[must_use]
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let legal = pos.legal_moves();
    if depth == 1 {
        return legal.len() as u64;
    }
    legal
        .into_iter()
        .map(|mv| {
            let mut next = pos.clone();
            next.play_unchecked(mv);
            perft(&next, depth - 1)
        })
        .sum()
}
