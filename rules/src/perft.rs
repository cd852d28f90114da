//! Perft: counting move paths, the standard cross-check of a move generator.

use crate::Position;

/// The number of legal move sequences of exactly `depth` plies from `pos`
/// (games that end sooner count nothing), as perft counts them for chess
/// engines. Depth 0 counts `pos` itself. Used with a checked-in table to
/// pin the move generator down, as shakmaty does.
///
/// ```
/// use endodoi::{perft, Rules};
/// let start = Rules::new(6, 4)?.start();
/// assert_eq!(perft(&start, 0), 1);
/// assert_eq!(perft(&start, 1), 6);
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
