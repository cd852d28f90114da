//! The knockout (single elimination), seeded.

/// A knockout's bracket, round by round, for the report.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Bracket {
    /// Per round, its ties in bracket order.
    pub rounds: Vec<Vec<BracketSeries>>,
}

/// One tie of a bracket.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BracketSeries {
    /// The two bots (indices), the better seed first; `None` for a bye.
    pub bots: [Option<usize>; 2],
}
