//! The row types of the CSV files of a run folder, one per file, with their
//! columns in order. Every writer serializes these (csv + serde), and the
//! readers deserialize them, so a column's name and place are written once.
//! `docs/output-files.md` documents every column (a test checks it).

use endodoi::{Rules, Side};
use serde::{Deserialize, Serialize};

/// A row type of one CSV file of a run folder.
pub trait CsvRow: Serialize {
    /// The file's name in the run folder, e.g. `games.csv`.
    const FILE: &'static str;
    /// Its columns, in order: the header row. Equal to the names serde
    /// writes for the row's fields (a unit test checks it), and given here
    /// so that a file without rows still gets its header.
    const COLUMNS: &'static [&'static str];
}

/// Declares the row type of one CSV file, so that each column's name is
/// written once, as its field's: the struct (deriving `Clone, Debug,
/// Default, PartialEq, Eq, Serialize, Deserialize`, as every row type
/// does), its [`CsvRow`] impl naming the `file`, and the const `columns`:
/// the fields' names in order, the file's header row.
macro_rules! csv_row {
    (
        $(#[$row_meta:meta])*
        pub struct $row:ident {
            $( $(#[$field_meta:meta])* pub $field:ident: $ty:ty, )*
        }
        file: $file:expr,
        $(#[$columns_meta:meta])*
        columns: $columns:ident,
    ) => {
        $(#[$row_meta])*
        #[derive(Clone, Debug, Default, PartialEq, Eq, ::serde::Serialize, ::serde::Deserialize)]
        pub struct $row {
            $( $(#[$field_meta])* pub $field: $ty, )*
        }

        impl $crate::output::rows::CsvRow for $row {
            const FILE: &'static str = $file;
            const COLUMNS: &'static [&'static str] = &$columns;
        }

        $(#[$columns_meta])*
        pub const $columns: [&str; [$(stringify!($field)),*].len()] = [$(stringify!($field)),*];
    };
}
pub(crate) use csv_row;

/// The columns of `games.csv`, in order.
pub const GAMES_COLUMNS: [&str; 18] = [
    "series",
    "game",
    "pair",
    "opening",
    "south",
    "north",
    "holes",
    "seeds",
    "max_laps",
    "max_plies",
    "moves",
    "plies",
    "south_seeds",
    "north_seeds",
    "result",
    "termination",
    "detail",
    "duration_ms",
];

/// The columns `games.csv` must have for its games to be counted; the
/// others default when absent (an older file still reads).
pub const GAMES_REQUIRED: [&str; 6] = ["series", "game", "south", "north", "result", "termination"];

/// The terminations of a game no fault ended: the two the rules end a game
/// with, `decided` (exact adjudication: the referee stopped a game whose
/// winner had more than half of all seeds) and `tablebase` (the endgame
/// tables knew the result of perfect play from there); every other one is
/// a fault.
pub const RULE_ENDS: [&str; 4] = ["no-moves", "ply-limit", "decided", "tablebase"];

/// The terminations of a game a bot lost by its fault (a forfeit).
pub const FAULT_ENDS: [&str; 5] = [
    "illegal-move",
    "timeout",
    "crash",
    "protocol-error",
    "start-failure",
];

/// One row of `games.csv`: one game. The numbers a count needs (`series`,
/// `game`, `pair`, `plies`, `duration_ms`) are numbers; the rules and the
/// seeds are kept as the text written until a replay reads them, so a row
/// with a bad one is still counted (and shown as not replayable). Only the
/// columns of [`GAMES_REQUIRED`] must be in a file; the others default to
/// empty (or 0).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRow {
    /// The series number, from 1.
    pub series: u64,
    /// The game's number in its series, from 1.
    pub game: u32,
    /// The game pair it belongs to: `ceil(game / 2)` (games 2k-1 and 2k
    /// share an opening, colours swapped).
    #[serde(default)]
    pub pair: u32,
    /// The opening plies the referee played (the start of `moves`).
    #[serde(default)]
    pub opening: String,
    /// South's bot.
    pub south: String,
    /// North's bot.
    pub north: String,
    /// Holes per row (a number).
    #[serde(default)]
    pub holes: String,
    /// Seeds per hole at the start (a number).
    #[serde(default)]
    pub seeds: String,
    /// The rules' lap limit (a number).
    #[serde(default)]
    pub max_laps: String,
    /// The rules' ply limit (a number).
    #[serde(default)]
    pub max_plies: String,
    /// Own-perspective hole numbers, South first, separated by spaces.
    #[serde(default)]
    pub moves: String,
    /// Plies played.
    #[serde(default)]
    pub plies: u32,
    /// South's final seeds (for a forfeit, those captured so far).
    #[serde(default)]
    pub south_seeds: String,
    /// North's final seeds.
    #[serde(default)]
    pub north_seeds: String,
    /// `south`, `north` or `draw`.
    pub result: String,
    /// `no-moves`, `ply-limit`, `decided`, or the fault that lost the game.
    pub termination: String,
    /// For a forfeit: the side and bot at fault, and what happened.
    #[serde(default)]
    pub detail: String,
    /// The game's wall time, milliseconds.
    #[serde(default)]
    pub duration_ms: u64,
    /// The index of the file the row came from, from 0, for readers of
    /// several files (not a column: never written, 0 when read).
    #[serde(skip)]
    pub file: usize,
}

impl CsvRow for GameRow {
    const FILE: &'static str = "games.csv";
    const COLUMNS: &'static [&'static str] = &GAMES_COLUMNS;
}

/// A rules column of a [`GameRow`] that does not make rules.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RowRulesError {
    /// A column that is missing or not a number.
    #[error("bad {column} '{text}'")]
    NotANumber {
        /// The column.
        column: &'static str,
        /// Its text.
        text: String,
    },
    /// Numbers the rules engine refuses.
    #[error(transparent)]
    Rules(#[from] endodoi::RulesError),
}

impl GameRow {
    /// Whether a bot lost this game by a fault.
    #[must_use]
    pub fn is_forfeit(&self) -> bool {
        !RULE_ENDS.contains(&self.termination.as_str())
    }

    /// The winner, `None` for a draw (or a result that is none of `south`,
    /// `north`, `draw`: the reader refuses those).
    #[must_use]
    pub fn winner(&self) -> Option<Side> {
        match self.result.as_str() {
            "south" => Some(Side::South),
            "north" => Some(Side::North),
            _ => None,
        }
    }

    /// The side that lost by a fault: the side that did not win, or, in a
    /// row without a winner, the side the detail names first.
    #[must_use]
    pub fn forfeit_side(&self) -> Option<Side> {
        if !self.is_forfeit() {
            return None;
        }
        match self.result.as_str() {
            "south" => Some(Side::North),
            "north" => Some(Side::South),
            _ => self.detail.split(' ').next()?.parse().ok(),
        }
    }

    /// The rules of the game, from its `holes`, `seeds`, `max_laps` and
    /// `max_plies`.
    ///
    /// # Errors
    /// A column that is missing or not a number, or rules the engine refuses
    /// (see [`Rules::new`]); the message names the column.
    pub fn rules(&self) -> Result<Rules, RowRulesError> {
        let number = |column: &'static str, text: &str| {
            text.parse::<u32>().map_err(|_| RowRulesError::NotANumber {
                column,
                text: text.to_string(),
            })
        };
        let holes = number("holes", &self.holes)?;
        let seeds = number("seeds", &self.seeds)?;
        let max_laps = number("max_laps", &self.max_laps)?;
        let max_plies = number("max_plies", &self.max_plies)?;
        Ok(Rules::new(holes as usize, seeds)?
            .with_max_laps(max_laps)?
            .with_max_plies(max_plies)?)
    }
}

csv_row! {
    /// One row of `series.csv`: a series, from its first bot's side.
    pub struct SeriesRow {
        /// The series number, from 1.
        pub series: usize,
        /// The round, from 1: a round robin's Berger round, a gauntlet's, a
        /// knockout's or a Swiss round.
        pub round: u32,
        /// The first bot (South in game 1).
        pub bot_a: String,
        /// The second bot.
        pub bot_b: String,
        /// Games played.
        pub games: u32,
        /// Games `bot_a` won.
        pub wins_a: u32,
        /// Games drawn.
        pub draws: u32,
        /// Games `bot_b` won.
        pub wins_b: u32,
        /// The winning bot, or `draw`.
        pub winner: String,
        /// Whether the series ended by its rule (first to N, SPRT) rather than
        /// by `max_games`.
        pub decided: bool,
        /// Empty for a series played; for one not played, why (`not played:
        /// bot 'x' did not start: ...`).
        #[serde(default)]
        pub note: String,
    }
    file: "series.csv",
    /// The columns of `series.csv`, in order.
    columns: SERIES_COLUMNS,
}

csv_row! {
    /// One row of `knockout.csv`: one tie of a knockout's bracket, round by
    /// round in bracket order (the winners of ties `2i - 1` and `2i` meet in
    /// tie `i` of the next round). Game counts sum the tie's series and its
    /// deciders, from `bot_a`'s side.
    pub struct KnockoutRow {
        /// The knockout round, from 1.
        pub round: u32,
        /// The tie's place in its round's bracket order, from 1.
        pub tie: usize,
        /// The numbers of its series in `series.csv`, the series then each
        /// decider, separated by spaces; empty for a bye or a walkover.
        pub series: String,
        /// The better seed's bot; empty for an empty slot.
        pub bot_a: String,
        /// Its seed, from 1; empty for an empty slot.
        pub seed_a: Option<usize>,
        /// The other bot; empty for an empty slot (a bye).
        pub bot_b: String,
        /// Its seed, from 1; empty for an empty slot.
        pub seed_b: Option<usize>,
        /// Games `bot_a` won, over the series and its deciders.
        pub wins_a: u32,
        /// Games drawn.
        pub draws: u32,
        /// Games `bot_b` won.
        pub wins_b: u32,
        /// The bot that went through; empty while the tie is open.
        pub winner: String,
        /// How: `series`, `decider` (a decider game pair had a winner), `seed`
        /// (drawn: the better seed went through), `bye`, `walkover` (a bot did
        /// not start); empty while open.
        pub settled: String,
    }
    file: "knockout.csv",
    /// The columns of `knockout.csv`, in order.
    columns: KNOCKOUT_COLUMNS,
}

csv_row! {
    /// One row of `swiss.csv`: a bot's line of a Swiss's standings, best
    /// first (points, then Buchholz, then seed).
    pub struct SwissStandingRow {
        /// The rank, from 1; bots that did not start come last.
        pub rank: usize,
        /// The bot.
        pub bot: String,
        /// Its seed, from 1.
        pub seed: usize,
        /// Points: 1 a series won or a bye, 0.5 a series drawn (1 decimal).
        pub points: String,
        /// Buchholz: the sum of the points of the opponents met (1 decimal).
        pub buchholz: String,
        /// Series won.
        pub won: u32,
        /// Series drawn.
        pub drawn: u32,
        /// Series lost.
        pub lost: u32,
        /// Byes had.
        pub byes: u32,
        /// Empty, or `not started` for a bot that was never paired.
        pub note: String,
    }
    file: "swiss.csv",
    /// The columns of `swiss.csv`, in order.
    columns: SWISS_COLUMNS,
}

csv_row! {
    /// One row of `league.csv`: one pairing of a league (or a bye), with both
    /// bots' ratings when the round was paired. Ratings are text as written
    /// (1 decimal).
    pub struct LeagueRow {
        /// The round, from 1.
        pub round: u32,
        /// The series' number (as in `series.csv` and `games.csv`); empty for
        /// a bye.
        pub series: Option<usize>,
        /// The bot that is South in the series' first game (the bot with the
        /// bye, for a bye).
        pub south: String,
        /// The other bot (North in the first game); empty for a bye.
        pub north: String,
        /// South's rating when the round was paired, Elo.
        pub south_elo: String,
        /// Its standard deviation then, Elo.
        pub south_sd: String,
        /// Its games before the round.
        pub south_games: u64,
        /// North's rating when the round was paired, Elo; empty for a bye.
        pub north_elo: String,
        /// Its standard deviation then, Elo; empty for a bye.
        pub north_sd: String,
        /// Its games before the round; empty for a bye.
        pub north_games: Option<u64>,
        /// TrueSkill's match quality of the two (4 decimals), by which the
        /// pair was chosen; empty for a bye.
        pub quality: String,
        /// Empty, `bye`, or `catch-up` (one more series of a late entrant far
        /// behind in its round).
        pub note: String,
    }
    file: "league.csv",
    /// The columns of `league.csv`, in order.
    columns: LEAGUE_COLUMNS,
}

csv_row! {
    /// One row of `sprt.csv`: an SPRT match after a game pair. The decimals
    /// are text as written (4 decimals).
    pub struct SprtRow {
        /// Games played so far.
        pub games: u32,
        /// Wins of the first bot.
        pub wins: u32,
        /// Draws.
        pub draws: u32,
        /// Losses of the first bot.
        pub losses: u32,
        /// Game pairs the first bot scored 0 points in.
        pub penta_0: u32,
        /// Pairs it scored 0.5 in.
        pub penta_1: u32,
        /// Pairs it scored 1 in.
        pub penta_2: u32,
        /// Pairs it scored 1.5 in.
        pub penta_3: u32,
        /// Pairs it scored 2 in.
        pub penta_4: u32,
        /// The log-likelihood ratio.
        pub llr: String,
        /// The lower bound (H0 accepted at or below it).
        pub lower: String,
        /// The upper bound (H1 accepted at or above it).
        pub upper: String,
        /// `continue`, `H0` or `H1`.
        pub status: String,
    }
    file: "sprt.csv",
    /// The columns of `sprt.csv`, one row per game pair of an SPRT match.
    columns: SPRT_COLUMNS,
}

csv_row! {
    /// The one row of `match.csv`: the summary of a two-bot match from its
    /// first bot's side (the first `[[bot]]`), with its SPRT test if it had
    /// one. The decimals are text as written; a cell that has no value (an
    /// error when every pair scored the same, the SPRT cells of a match without
    /// a test) is empty.
    pub struct MatchRow {
        /// The first bot.
        pub bot_a: String,
        /// Its opponent.
        pub bot_b: String,
        /// Games played.
        pub games: u32,
        /// Games `bot_a` won.
        pub wins: u32,
        /// Games drawn.
        pub draws: u32,
        /// Games `bot_a` lost.
        pub losses: u32,
        /// Drawn games per game, percent (1 decimal).
        pub draw_pct: String,
        /// Complete game pairs.
        pub pairs: u64,
        /// Pairs `bot_a` scored 0 points in.
        pub penta_0: u32,
        /// Pairs it scored 0.5 in.
        pub penta_1: u32,
        /// Pairs it scored 1 in.
        pub penta_2: u32,
        /// Pairs it scored 1.5 in.
        pub penta_3: u32,
        /// Pairs it scored 2 in.
        pub penta_4: u32,
        /// `bot_a`'s Elo over `bot_b` (1 decimal).
        pub elo: String,
        /// Half-width of its 95% interval (1 decimal).
        pub elo_error_95: String,
        /// Normalised Elo (1 decimal).
        pub nelo: String,
        /// Half-width of its 95% interval (1 decimal).
        pub nelo_error_95: String,
        /// Likelihood of superiority of `bot_a`, 0 to 1 (4 decimals).
        pub los: String,
        /// `pentanomial` (from the game pairs) or `trinomial` (from single
        /// games, without a complete pair).
        pub elo_from: String,
        /// The SPRT's model: `logistic` or `normalized`.
        pub sprt_model: String,
        /// H0's Elo (or nElo).
        pub elo0: String,
        /// H1's Elo (or nElo).
        pub elo1: String,
        /// The type I error rate.
        pub alpha: String,
        /// The type II error rate.
        pub beta: String,
        /// The log-likelihood ratio after the last pair (4 decimals).
        pub llr: String,
        /// The lower bound (H0 accepted at or below it).
        pub lower: String,
        /// The upper bound (H1 accepted at or above it).
        pub upper: String,
        /// `continue`, `H0` or `H1`.
        pub status: String,
    }
    file: "match.csv",
    /// The columns of `match.csv`, in order.
    columns: MATCH_COLUMNS,
}

csv_row! {
    /// One row of `standings.csv`: a bot's standing. The decimals are text as
    /// written (1 decimal; `los_next` 4, empty for the last bot; the Elo
    /// figures empty when there is no estimate, see `interval`).
    pub struct StandingRow {
        /// The rank, from 1 (tied bots share one).
        pub rank: usize,
        /// The bot.
        pub bot: String,
        /// Games played.
        pub games: u32,
        /// Games won.
        pub wins: u32,
        /// Games drawn.
        pub draws: u32,
        /// Games lost.
        pub losses: u32,
        /// Points: a win 1, a draw 0.5.
        pub score: String,
        /// Points per game, percent.
        pub score_pct: String,
        /// The rating, Elo.
        pub elo: String,
        /// The lower end of its 95% interval, Elo.
        pub elo_lower: String,
        /// The upper end of its 95% interval, Elo.
        pub elo_upper: String,
        /// How the interval was measured: `bootstrap`, `curvature` (where the
        /// bootstrap degenerates), `at-limit` or `no-games` (no estimate: `elo`
        /// and the interval are empty).
        pub interval: String,
        /// The likelihood of superiority over the next bot down (0 to 1).
        pub los_next: String,
        /// Games it lost by a fault.
        pub forfeits: u32,
        /// Its group of bots not told apart, from 1 (0 for a bot that did not
        /// start).
        pub group: usize,
        /// Empty for a bot that played; `not started: ...` (why) for one left
        /// out by `on_start_failure = "skip"`.
        #[serde(default)]
        pub note: String,
    }
    file: "standings.csv",
    /// The columns of `standings.csv`, in order.
    columns: STANDINGS_COLUMNS,
}

csv_row! {
    /// One row of `pairwise.csv`: a pair that played, from the first bot's
    /// side. The decimals are text as written; an error or nElo that cannot be
    /// given (every game, or pair, had one result) is empty, and so are the
    /// pentanomial figures of a pair without a whole game pair.
    pub struct PairwiseRow {
        /// The first bot.
        pub bot_a: String,
        /// The second bot.
        pub bot_b: String,
        /// Games played.
        pub games: u32,
        /// Games `bot_a` won.
        pub wins_a: u32,
        /// Games drawn.
        pub draws: u32,
        /// Games `bot_b` won.
        pub wins_b: u32,
        /// `bot_a`'s points per game, percent.
        pub score_pct: String,
        /// The Elo difference from the trinomial score.
        pub elo: String,
        /// Its 95% error, Elo.
        pub elo_error_95: String,
        /// The likelihood that `bot_a` is the stronger (0 to 1).
        pub los: String,
        /// The normalized Elo difference.
        pub nelo: String,
        /// Its 95% error.
        pub nelo_error_95: String,
        /// Whole game pairs played.
        pub pairs: u64,
        /// Pairs `bot_a` scored 0 points in.
        pub penta_0: u32,
        /// Pairs it scored 0.5 in.
        pub penta_1: u32,
        /// Pairs it scored 1 in.
        pub penta_2: u32,
        /// Pairs it scored 1.5 in.
        pub penta_3: u32,
        /// Pairs it scored 2 in.
        pub penta_4: u32,
        /// The Elo difference from the pentanomial of pairs.
        pub penta_elo: String,
        /// Its 95% error, Elo.
        pub penta_elo_error_95: String,
        /// The likelihood of superiority from the pairs.
        pub penta_los: String,
        /// The normalized Elo difference from the pairs.
        pub penta_nelo: String,
        /// Its 95% error.
        pub penta_nelo_error_95: String,
    }
    file: "pairwise.csv",
    /// The columns of `pairwise.csv`, in order.
    columns: PAIRWISE_COLUMNS,
}

/// The file of the LOS matrix: a column `bot`, then one per bot, in
/// standings order; cell (row bot, column bot) is the likelihood that the
/// row's bot is the stronger (4 decimals; empty on the diagonal). Its
/// columns depend on the bots, so it has no fixed row type: [`LOS_COLUMNS`]
/// are its fixed columns.
pub const LOS_FILE: &str = "los.csv";

/// The fixed columns of `los.csv`: the first (the bots' names follow).
pub const LOS_COLUMNS: [&str; 1] = ["bot"];

/// Every CSV file of a run folder with its fixed columns in order, for
/// checks (the docs test): the row types' files, then `los.csv`.
pub const ALL_FILES: [(&str, &[&str]); 13] = [
    (GameRow::FILE, GameRow::COLUMNS),
    (SeriesRow::FILE, SeriesRow::COLUMNS),
    (KnockoutRow::FILE, KnockoutRow::COLUMNS),
    (SwissStandingRow::FILE, SwissStandingRow::COLUMNS),
    (LeagueRow::FILE, LeagueRow::COLUMNS),
    (
        super::roster::RosterRow::FILE,
        super::roster::RosterRow::COLUMNS,
    ),
    (SprtRow::FILE, SprtRow::COLUMNS),
    (MatchRow::FILE, MatchRow::COLUMNS),
    (StandingRow::FILE, StandingRow::COLUMNS),
    (PairwiseRow::FILE, PairwiseRow::COLUMNS),
    (LOS_FILE, &LOS_COLUMNS),
    (AnalysisRow::FILE, AnalysisRow::COLUMNS),
    (GameAnalysisRow::FILE, GameAnalysisRow::COLUMNS),
];

csv_row! {
    /// One row of `analysis.csv` (`arena analyse`): one bot's moves judged
    /// against the endgame tables (docs/tablebases.md, "Judging moves"). The
    /// decimals are text as written; a share or mean of nothing is empty.
    pub struct AnalysisRow {
        /// The bot.
        pub bot: String,
        /// Its games replayed.
        pub games: u32,
        /// Its moves (the referee's opening plies left out) from a position
        /// the tables know exactly.
        pub moves_in_tables: u64,
        /// Of those, moves with no choice (one legal move): not judged.
        pub forced: u64,
        /// Of those, moves into a position the tables do not know exactly: not
        /// judged.
        pub unjudged: u64,
        /// Moves judged: `optimal + mistakes`.
        pub judged: u64,
        /// Judged moves that keep the best forced margin.
        pub optimal: u64,
        /// Judged moves that give some of it away.
        pub mistakes: u64,
        /// Mistakes that change the forced result: a win to a draw or a loss,
        /// a draw to a loss.
        pub results_lost: u64,
        /// Seeds given away by all mistakes.
        pub seeds_lost: u64,
        /// `seeds_lost / mistakes`, 2 decimals.
        pub seeds_lost_per_mistake: String,
        /// `optimal / judged`, 4 decimals.
        pub accuracy: String,
        /// Its games that reached a position the tables know exactly.
        pub games_in_tables: u32,
        /// Over those games, the median of the plies played before the first
        /// such position (either side to move), 1 decimal.
        pub median_entry_ply: String,
        /// Of `mistakes`, those the tables only bound (the move leads into an
        /// unresolved position whose forced bounds already show it worse):
        /// their seeds in `seeds_lost` are a lower bound.
        pub bounded_mistakes: u64,
    }
    file: "analysis.csv",
    /// The columns of `analysis.csv`, in order.
    columns: ANALYSIS_COLUMNS,
}

csv_row! {
    /// One row of `analysis-games.csv` (`arena analyse`): one game's moves
    /// judged against the endgame tables, a verdict per ply, and where the
    /// referee's adjudication would have ended it (docs/tablebases.md, "Judging
    /// moves"). The report's viewer shows the verdicts. Plies are counted from
    /// the start, the opening's included; an empty ply column means never.
    pub struct GameAnalysisRow {
        /// The game's series, as in `games.csv`.
        pub series: u64,
        /// The game's number in its series, as in `games.csv`.
        pub game: u32,
        /// South's bot.
        pub south: String,
        /// North's bot.
        pub north: String,
        /// Plies played (the moves of `games.csv`, the opening's included).
        pub plies: u32,
        /// The referee's opening plies (the first of them).
        pub opening: u32,
        /// The first ply, at the end of the opening or later, whose position
        /// the tables know exactly within the plies left: where `adjudicate =
        /// "tablebase"` would have ended the game. Empty if none.
        pub first_table_ply: String,
        /// The margin the tables force there for the side to move, seeds, as
        /// `+2`; empty with `first_table_ply`.
        pub table_margin: String,
        /// The first ply, at the end of the opening or later, at which a side
        /// holds more than half of all seeds and the game goes on: where
        /// `adjudicate = "decided"` would have ended it. Empty if none.
        pub decided_ply: String,
        /// One verdict per ply, space-separated: `.` outside the tables, `f`
        /// forced, `o` optimal, `mN` a mistake of N seeds, `mN+` a mistake of
        /// at least N seeds (bounded), `u` unjudged.
        pub verdicts: String,
    }
    file: "analysis-games.csv",
    /// The columns of `analysis-games.csv`, in order.
    columns: GAME_ANALYSIS_COLUMNS,
}

csv_row! {
    /// One row of the CSV file `arena bench --out FILE` writes (called
    /// `bench.csv` in docs/performance.md, which documents it): one figure.
    /// The numbers are text as written (3 decimals).
    pub struct BenchRow {
        /// The section that measured it (`floor`, `arena`, ...).
        pub section: String,
        /// What was measured.
        pub figure: String,
        /// Its value, in `unit`.
        pub value: String,
        /// The unit of `value`.
        pub unit: String,
        /// For a time per ply: its ratio to the floor's round trip; else empty.
        pub x_floor: String,
        /// How it was measured.
        pub note: String,
    }
    file: "bench.csv",
    /// The columns of `bench.csv`, in order.
    columns: BENCH_COLUMNS,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The header serde writes for a default `R`.
    fn serialized_header<R: CsvRow + Default>() -> Vec<String> {
        let mut w = csv::Writer::from_writer(Vec::new());
        w.serialize(R::default()).unwrap();
        let bytes = w.into_inner().unwrap();
        let mut r = csv::Reader::from_reader(bytes.as_slice());
        r.headers().unwrap().iter().map(str::to_string).collect()
    }

    #[test]
    fn each_row_type_serializes_its_columns_in_order() {
        fn check<R: CsvRow + Default>() {
            assert_eq!(serialized_header::<R>(), R::COLUMNS, "{}", R::FILE);
        }
        check::<GameRow>();
        check::<SeriesRow>();
        check::<KnockoutRow>();
        check::<SwissStandingRow>();
        check::<LeagueRow>();
        check::<SprtRow>();
        check::<MatchRow>();
        check::<StandingRow>();
        check::<AnalysisRow>();
        check::<GameAnalysisRow>();
        check::<PairwiseRow>();
        check::<BenchRow>();
    }

    #[test]
    fn the_rules_of_a_row_name_a_bad_column() {
        let mut row = GameRow {
            holes: "2".into(),
            seeds: "3".into(),
            max_laps: "4".into(),
            max_plies: "5".into(),
            ..GameRow::default()
        };
        assert_eq!(row.rules().unwrap().max_plies(), 5);
        row.seeds = "x".into();
        assert_eq!(row.rules().unwrap_err().to_string(), "bad seeds 'x'");
        row.seeds = "0".into();
        assert!(matches!(row.rules(), Err(RowRulesError::Rules(_))));
    }
}
