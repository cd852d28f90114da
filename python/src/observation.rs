//! The mover's view of a position, as the environments observe it.

use endodoi::Position;

/// The observation of `pos` for the side to move: its holes 1..n, the
/// opponent's holes 1..n (numbered from the opponent's left, as in
/// protocol.md's `turn`), then its captured seeds and the opponent's;
/// `2n + 2` numbers in all. For a finished game, the side [`Position::to_move`]
/// names (the one that could not move).
///
/// ```
/// use endodoi::{Move, Rules};
/// use endodoi_python::observation::observation;
/// let mut pos = Rules::new(4, 4)?.start();
/// pos.play(Move::new(1).unwrap())?;
/// // North to move: its row first.
/// assert_eq!(observation(&pos), [1, 1, 8, 0, 4, 0, 9, 9, 0, 0]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[must_use]
pub fn observation(pos: &Position) -> Vec<u32> {
    let me = pos.to_move();
    let them = me.opponent();
    let mut out = Vec::with_capacity(2 * pos.holes() + 2);
    out.extend(pos.row(me));
    out.extend(pos.row(them));
    out.push(pos.captured(me));
    out.push(pos.captured(them));
    out
}

/// The legal moves of `pos` as a mask over the mover's holes: entry `k` is
/// true when hole `k + 1` is legal (endless moves are not).
///
/// ```
/// use endodoi::{Position, Rules};
/// use endodoi_python::observation::action_mask;
/// let pos = Position::parse("0,5,0,1/2,0,6,5 n 5 8 5", Rules::new(4, 4)?)?;
/// assert_eq!(action_mask(&pos), [false, false, true, true]); // hole 1 is endless
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[must_use]
pub fn action_mask(pos: &Position) -> Vec<bool> {
    let legal = pos.legal_moves();
    (0..pos.holes())
        .map(|k| legal.bits() & (1 << k) != 0)
        .collect()
}
