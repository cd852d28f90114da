//! A game's end by the tables: the result perfect play forces from a
//! position, where the tables know it exactly within the plies left.

use endodoi::{Position, Side};

use crate::Tables;

/// The end the tables force from a position ([`adjudicate`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Adjudication {
    /// The forced margin from the position, for its side to move, in seeds.
    pub margin: i32,
    /// The plies within which perfect play ends the game (an upper bound).
    pub plies: u16,
    /// The final seeds, South's then North's: those captured so far plus
    /// the margin's split of the `k` seeds on the board, `(k + margin) / 2`
    /// to the side to move and `(k - margin) / 2` to the other.
    pub seeds: [u32; 2],
    /// The side with more final seeds; `None` for a draw.
    pub winner: Option<Side>,
    /// The side to move in the position, whose margin `margin` is.
    pub mover: Side,
}

impl Adjudication {
    /// The `detail` of a game it ends, as `games.csv` records it and the
    /// row checks compare: `south to move forces +2 in at most 7 plies`.
    #[must_use]
    pub fn detail(&self) -> String {
        format!(
            "{} to move forces {:+} in at most {} plies",
            self.mover.name(),
            self.margin,
            self.plies
        )
    }
}

/// The end perfect play forces from `pos`, or `None` when the tables cannot
/// say it exactly: the game is over, the position is outside the tables (its
/// seeds on the board beyond the layers, another board or lap limit), its
/// value is unresolved, or its `plies` exceed the plies left before the ply
/// limit (`max_plies - ply`). This is the rule of `[board] adjudicate =
/// "tablebase"` (docs/tablebases.md): like Syzygy adjudication in chess,
/// the result of perfect play from here, not of the players.
///
/// ```
/// use endodoi::{Rules, Side};
/// let tables = endodoi_tablebase::build(2, 4)?;
/// let pos = Rules::new(2, 1).unwrap().start();
/// let end = endodoi_tablebase::adjudicate(&tables, &pos).expect("resolved");
/// assert_eq!(end.seeds[0] + end.seeds[1], 4);
/// assert_eq!(end.winner.is_none(), end.margin == 0);
/// # Ok::<(), endodoi_tablebase::BuildError>(())
/// ```
#[must_use]
pub fn adjudicate(tables: &Tables, pos: &Position) -> Option<Adjudication> {
    let value = tables.probe(pos)?;
    let margin = value.exact()?;
    let left = pos.rules().max_plies().saturating_sub(pos.ply());
    if u32::from(value.plies()) > left {
        return None;
    }
    let mover = pos.to_move();
    let k = pos.ring().sum();
    let mut seeds = [pos.captured(Side::South), pos.captured(Side::North)];
    // Margins have the parity of k and lie within -k..=k.
    let (mine, theirs) = ((k as i32 + margin) / 2, (k as i32 - margin) / 2);
    seeds[mover.index()] += mine as u32;
    seeds[mover.opponent().index()] += theirs as u32;
    let winner = match seeds[0].cmp(&seeds[1]) {
        std::cmp::Ordering::Greater => Some(Side::South),
        std::cmp::Ordering::Less => Some(Side::North),
        std::cmp::Ordering::Equal => None,
    };
    Some(Adjudication {
        margin,
        plies: value.plies(),
        seeds,
        winner,
        mover,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use endodoi::Rules;

    #[test]
    fn the_forced_margin_splits_the_board_and_needs_its_plies() {
        let tables = crate::build(2, 4).unwrap();
        let rules = Rules::new(2, 1).unwrap();
        let pos = rules.start();
        let value = tables.probe(&pos).unwrap();
        let end = adjudicate(&tables, &pos).unwrap();
        assert_eq!(Some(end.margin), value.exact());
        // South moves first: its share minus North's is the margin.
        assert_eq!(end.seeds[0] as i32 - end.seeds[1] as i32, end.margin);
        // Too few plies left: no adjudication.
        let short = rules
            .with_max_plies(u32::from(value.plies()) - 1)
            .unwrap()
            .start();
        assert_eq!(adjudicate(&tables, &short), None);
        // Beyond the layers: 2x2 with 2 seeds a hole has 8 on the board.
        assert_eq!(
            adjudicate(&tables, &Rules::new(2, 2).unwrap().start()),
            None
        );
    }

    #[test]
    fn tables_come_back_from_their_layers_in_place_only() {
        let tables = crate::build(2, 4).unwrap();
        let layers = tables.layers().to_vec();
        let back = Tables::from_layers(2, tables.max_laps(), layers.clone()).unwrap();
        assert_eq!(back.layers(), tables.layers());
        let mut swapped = layers.clone();
        swapped.swap(1, 2);
        assert!(Tables::from_layers(2, tables.max_laps(), swapped).is_none());
        assert!(Tables::from_layers(3, tables.max_laps(), layers.clone()).is_none());
        assert!(Tables::from_layers(2, 0, layers).is_none());
    }
}
