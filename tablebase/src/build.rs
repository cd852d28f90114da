//! The builder: layer by layer of seeds on the board, each by retrograde
//! analysis over thresholds (see the crate's documentation).

use std::fmt;

use endodoi::{Position, Rules, DEFAULT_MAX_LAPS, MAX_HOLES, MIN_HOLES};

use crate::attractor;
use crate::layer_graph::{mover_view, LayerGraph};
use crate::value::MAX_SEEDS_ON_BOARD;
use crate::{Index, Value};

/// The most positions one layer may have: ranks are `u32`.
pub const MAX_LAYER_POSITIONS: u64 = u32::MAX as u64 - 1;

/// Why tables could not be built: returned by [`build`], [`Tables::new`] and
/// [`Tables::build_next`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BuildError {
    /// Holes per row outside 2..=50 (the rules engine's range); holds the number asked for.
    Holes(usize),
    /// A lap limit of 0.
    MaxLaps,
    /// More seeds on the board than [`MAX_SEEDS_ON_BOARD`] (126); holds the number asked for.
    Seeds(u32),
    /// A layer of more than [`MAX_LAYER_POSITIONS`] positions; holds the seeds on the board.
    TooBig(u32),
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildError::Holes(h) => {
                write!(f, "{h} holes per row: use {MIN_HOLES} to {MAX_HOLES}")
            }
            BuildError::MaxLaps => f.write_str("max_laps must be 1 or more"),
            BuildError::Seeds(k) => write!(
                f,
                "{k} seeds on the board: the tables take at most {MAX_SEEDS_ON_BOARD}"
            ),
            BuildError::TooBig(k) => write!(
                f,
                "the layer of {k} seeds has more than {MAX_LAYER_POSITIONS} positions"
            ),
        }
    }
}

impl std::error::Error for BuildError {}

/// The positions with one number of seeds on the board, and their values
/// (indexed by the rank of the board seen from the mover: its row, hole 1
/// to H, then the opponent's row, hole 1 to H).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layer {
    index: Index,
    values: Vec<Value>,
}

impl Layer {
    /// Seeds on the board in this layer.
    #[must_use]
    pub fn seeds(&self) -> u32 {
        self.index.seeds()
    }

    /// The index of the layer's boards.
    #[must_use]
    pub fn index(&self) -> &Index {
        &self.index
    }

    /// The values, by rank.
    #[must_use]
    pub fn values(&self) -> &[Value] {
        &self.values
    }

    /// The layer of `seeds` seeds on `holes` ring holes with these values, as
    /// read back from a file; `None` when their number is not the index's count.
    #[must_use]
    pub fn from_values(holes: usize, seeds: u32, values: Vec<Value>) -> Option<Layer> {
        let index = Index::new(holes, seeds);
        (index.count() == values.len() as u64).then_some(Layer { index, values })
    }

    /// The layer's counts (see [`LayerStats`]).
    #[must_use]
    pub fn stats(&self) -> LayerStats {
        let mut stats = LayerStats {
            seeds: self.seeds(),
            positions: self.values.len() as u64,
            ..LayerStats::default()
        };
        for v in &self.values {
            match v.exact() {
                Some(m) => {
                    stats.resolved += 1;
                    match m.signum() {
                        1 => stats.won += 1,
                        0 => stats.drawn += 1,
                        _ => stats.lost += 1,
                    }
                    stats.longest = stats.longest.max(u32::from(v.plies()));
                }
                None => stats.unresolved += 1,
            }
        }
        stats
    }
}

/// The counts of one layer, for the manifest and the docs. `resolved = won +
/// drawn + lost` (for the side to move) and `positions = resolved + unresolved`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LayerStats {
    /// Seeds on the board.
    pub seeds: u32,
    /// Positions (boards with the side to move), `C(seeds + 2H - 1, 2H - 1)`.
    pub positions: u64,
    /// Positions with an exact forced value.
    pub resolved: u64,
    /// Resolved with a positive margin for the mover.
    pub won: u64,
    /// Resolved with margin 0.
    pub drawn: u64,
    /// Resolved with a negative margin.
    pub lost: u64,
    /// Positions whose best play needs the ply limit.
    pub unresolved: u64,
    /// The longest forced ending among the resolved positions, in plies.
    pub longest: u32,
}

/// The tables of a 2xH board for one lap limit, from 0 seeds on the board up
/// to the layers built so far.
#[derive(Clone, Debug)]
pub struct Tables {
    rules: Rules,
    layers: Vec<Layer>,
}

/// Builds the tables of a 2x`holes` board with up to `max_seeds_on_board`
/// seeds on the board, under the default lap limit ([`DEFAULT_MAX_LAPS`]).
///
/// # Errors
/// As [`Tables::new`] and [`Tables::build_next`].
///
/// ```
/// let tables = endodoi_tablebase::build(3, 4)?;
/// assert_eq!(tables.layers().len(), 5);
/// assert_eq!(tables.layers()[4].stats().positions, 126); // C(9, 5)
/// # Ok::<(), endodoi_tablebase::BuildError>(())
/// ```
pub fn build(holes: usize, max_seeds_on_board: u32) -> Result<Tables, BuildError> {
    let mut tables = Tables::new(holes, DEFAULT_MAX_LAPS)?;
    if max_seeds_on_board > MAX_SEEDS_ON_BOARD {
        return Err(BuildError::Seeds(max_seeds_on_board));
    }
    while tables.layers.len() <= max_seeds_on_board as usize {
        tables.build_next()?;
    }
    Ok(tables)
}

impl Tables {
    /// Empty tables (no layer built yet) of a 2x`holes` board under the lap
    /// limit `max_laps` (RULES.md, "Endless sowing": an endless move is not legal).
    ///
    /// # Errors
    /// [`BuildError::Holes`] outside 2..=50, [`BuildError::MaxLaps`] for 0.
    pub fn new(holes: usize, max_laps: u32) -> Result<Tables, BuildError> {
        let rules = Rules::new(holes, 1)
            .map_err(|_| BuildError::Holes(holes))?
            .with_max_laps(max_laps)
            .map_err(|_| BuildError::MaxLaps)?
            .with_max_plies(u32::MAX)
            .expect("u32::MAX plies is a valid limit");
        Ok(Tables {
            rules,
            layers: Vec::new(),
        })
    }

    /// The rules the tables are for (any seeds per hole: only the board counts).
    #[cfg(test)]
    pub(crate) fn rules(&self) -> Rules {
        self.rules
    }

    /// Holes per row.
    #[must_use]
    pub fn holes(&self) -> usize {
        self.rules.holes()
    }

    /// The lap limit the tables are for.
    #[must_use]
    pub fn max_laps(&self) -> u32 {
        self.rules.max_laps()
    }

    /// The layers built, layer `k` holding the positions with `k` seeds on the board.
    #[must_use]
    pub fn layers(&self) -> &[Layer] {
        &self.layers
    }

    /// The value of `board` (the mover's row, holes 1 to H, then the
    /// opponent's, holes 1 to H, each from its owner's left), or `None` when
    /// its layer is not built or the board is not of this size.
    #[must_use]
    pub fn value(&self, board: &[u32]) -> Option<Value> {
        if board.len() != 2 * self.holes() {
            return None;
        }
        let layer = self.layers.get(board.iter().sum::<u32>() as usize)?;
        Some(layer.values[layer.index.rank(board) as usize])
    }

    /// The value of `pos` for its side to move, or `None` when the game is
    /// over, the board has another size or lap limit, or its layer is not
    /// built. The value is the margin from here: add the seeds captured so
    /// far for the final totals.
    #[must_use]
    pub fn probe(&self, pos: &Position) -> Option<Value> {
        if pos.is_over() || pos.holes() != self.holes() || pos.rules().max_laps() != self.max_laps()
        {
            return None;
        }
        let mut board = [0u32; 2 * MAX_HOLES];
        let board = mover_view(pos, &mut board);
        self.value(board)
    }

    /// Tables of a 2x`holes` board under `max_laps` from layers read back
    /// (layer `k` holding `k` seeds on the board, from 0 up, as
    /// [`crate::decode_layer`] returns them); `None` when a layer is out of
    /// place or of another board, or the board or lap limit is invalid.
    #[must_use]
    pub fn from_layers(holes: usize, max_laps: u32, layers: Vec<Layer>) -> Option<Tables> {
        let mut tables = Tables::new(holes, max_laps).ok()?;
        let in_place = layers
            .iter()
            .enumerate()
            .all(|(k, l)| l.seeds() as usize == k && l.index.holes() == 2 * holes);
        tables.layers = layers;
        in_place.then_some(tables)
    }

    /// Builds the next layer (0 seeds on the board first) and returns it.
    ///
    /// # Errors
    /// [`BuildError::Seeds`] beyond 126 seeds, [`BuildError::TooBig`] for a
    /// layer of more than [`MAX_LAYER_POSITIONS`] positions.
    pub fn build_next(&mut self) -> Result<&Layer, BuildError> {
        let k = self.layers.len() as u32;
        if k > MAX_SEEDS_ON_BOARD {
            return Err(BuildError::Seeds(k));
        }
        let index = Index::new(2 * self.holes(), k);
        if index.count() > MAX_LAYER_POSITIONS {
            return Err(BuildError::TooBig(k));
        }
        let below: Vec<&[Value]> = self.layers.iter().map(Layer::values).collect();
        let graph = LayerGraph::new(self.rules, &index, &below);
        let values = attractor::solve(&graph, k);
        drop(graph);
        self.layers.push(Layer { index, values });
        Ok(self.layers.last().expect("just pushed"))
    }
}
