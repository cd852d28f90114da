//! The value of one position: the two forced bounds and the plies they need.

/// `lo` when the mover cannot force the game to end at all.
const NO_LO: i8 = i8::MIN;
/// `hi` when the opponent cannot force the game to end at all.
const NO_HI: i8 = i8::MAX;

/// The most seeds on the board a table takes: margins are `i8`, and two of
/// its values are kept for "cannot force an end".
pub const MAX_SEEDS_ON_BOARD: u32 = 126;

/// What the table knows of a position with `k` seeds on the board, for the
/// side to move; margins are in seeds (the mover's future seeds minus the
/// opponent's, the final sweep included), plies are single moves.
///
/// - `lo`: the best margin the mover can force **with the game ending** (every
///   line of its strategy ends the game, whatever the opponent plays); `None`
///   when the opponent can keep the game going forever.
/// - `hi`: the worst margin, for the mover, that the opponent can force with
///   the game ending; `None` when the mover can keep the game going.
/// - `plies`: both forcing strategies end the game within this many plies (an
///   upper bound, exact within a layer); `u16::MAX` means "more than can be
///   recorded": then the value must not be used.
///
/// `lo <= hi` always. Where they are equal the position is *resolved*: with at
/// least `plies` plies left before the ply limit, perfect play by both sides
/// ends the game with exactly that margin. Where they differ, best play needs
/// the ply limit (cycles of non-capturing moves), and the table only bounds it.
///
/// ```
/// use endodoi_tablebase::build;
/// let tables = build(2, 2)?;
/// // The mover's row 1,0, the opponent's 0,0: hole 1 sows into the empty
/// // hole 2, the opponent has no move, and the mover sweeps the seed.
/// let value = tables.value(&[1, 0, 0, 0]).unwrap();
/// assert_eq!((value.exact(), value.plies()), (Some(1), 1));
/// // The mover's row 0,1: its seed goes over, the opponent's sows it on, and
/// // the mover, without a seed, has no move: the opponent sweeps.
/// let value = tables.value(&[0, 1, 0, 0]).unwrap();
/// assert_eq!((value.exact(), value.plies()), (Some(-1), 2));
/// # Ok::<(), endodoi_tablebase::BuildError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Value {
    lo: i8,
    hi: i8,
    plies: u16,
}

impl Value {
    /// A value from its parts (margins in seeds, within -126..=126; plies
    /// saturating at `u16::MAX`).
    #[must_use]
    pub(crate) fn new(lo: Option<i32>, hi: Option<i32>, plies: u32) -> Value {
        let margin = |m: i32| i8::try_from(m).expect("margins fit -126..=126");
        Value {
            lo: lo.map_or(NO_LO, margin),
            hi: hi.map_or(NO_HI, margin),
            plies: u16::try_from(plies).unwrap_or(u16::MAX),
        }
    }

    /// The best margin the mover can force with the game ending, in seeds;
    /// `None` when it cannot force an end.
    #[must_use]
    pub fn lo(self) -> Option<i32> {
        (self.lo != NO_LO).then_some(i32::from(self.lo))
    }

    /// The worst margin (for the mover) the opponent can force with the game
    /// ending, in seeds; `None` when it cannot force an end.
    #[must_use]
    pub fn hi(self) -> Option<i32> {
        (self.hi != NO_HI).then_some(i32::from(self.hi))
    }

    /// Plies within which both forcing strategies end the game (an upper
    /// bound); `u16::MAX`: too many to record.
    #[must_use]
    pub fn plies(self) -> u16 {
        self.plies
    }

    /// The exact margin of a resolved position (`lo == hi`), in seeds, valid
    /// with at least [`Value::plies`] plies left; `None` when unresolved.
    #[must_use]
    pub fn exact(self) -> Option<i32> {
        match (self.lo(), self.hi()) {
            (Some(lo), Some(hi)) if lo == hi && self.plies != u16::MAX => Some(lo),
            _ => None,
        }
    }

    /// The four bytes of the table files: `lo`, `hi` (two's complement, -128
    /// and 127 for "none"), `plies` little-endian.
    #[must_use]
    pub fn to_bytes(self) -> [u8; 4] {
        let [p0, p1] = self.plies.to_le_bytes();
        [self.lo as u8, self.hi as u8, p0, p1]
    }

    /// The value of [`Value::to_bytes`]'s four bytes.
    #[must_use]
    pub fn from_bytes(bytes: [u8; 4]) -> Value {
        Value {
            lo: bytes[0] as i8,
            hi: bytes[1] as i8,
            plies: u16::from_le_bytes([bytes[2], bytes[3]]),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_round_trip_and_none_is_kept() {
        for v in [
            Value::new(Some(-3), Some(5), 17),
            Value::new(None, Some(126), 0),
            Value::new(Some(-126), None, 70_000),
            Value::new(None, None, 0),
        ] {
            assert_eq!(Value::from_bytes(v.to_bytes()), v);
        }
        let v = Value::new(Some(4), Some(4), 9);
        assert_eq!((v.exact(), v.plies()), (Some(4), 9));
        assert_eq!(Value::new(Some(4), Some(4), 70_000).exact(), None);
        assert_eq!(Value::new(None, Some(4), 0).lo(), None);
    }
}
