//! The Swiss system: the Dutch system's core.

/// A Swiss tournament's standings, for the report.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct SwissStandings {
    /// The rows, best first.
    pub rows: Vec<SwissRow>,
}

/// One bot's row of the Swiss standings.
#[derive(Clone, Debug, PartialEq)]
pub struct SwissRow {
    /// The bot (an index).
    pub bot: usize,
    /// Points: 1 a series won or a bye, 0.5 a drawn series.
    pub points: f64,
}
