//! The Python module `endodoi._endodoi`, re-exported by the package
//! `endodoi` (python/endodoi/__init__.py, typed in `_endodoi.pyi`).
//! Sides are the strings `"south"` and `"north"`, moves the mover's own
//! hole numbers 1..n, as in protocol.md.

use endodoi::{IllegalMove, Lap, Move, MoveDetails, Outcome, Side};
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyInt;

use crate::{batch, observation, turn};

create_exception!(
    endodoi,
    IllegalMoveError,
    PyValueError,
    "A move that cannot be played: the game is over, no such hole, an empty hole, or an endless move."
);

fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

fn illegal(e: IllegalMove) -> PyErr {
    IllegalMoveError::new_err(e.to_string())
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::South => "south",
        Side::North => "north",
    }
}

fn parse_side(text: &str) -> PyResult<Side> {
    text.parse().map_err(value_error)
}

/// A hole number from Python as a move, refused as the engine refuses a
/// hole that does not exist (any Python int is taken, never an overflow;
/// a non-integer is a `TypeError`).
fn to_move(hole: &Bound<'_, PyAny>, holes: usize) -> PyResult<Move> {
    let number: i64 = match hole.extract() {
        Ok(n) => n,
        Err(_) if hole.is_instance_of::<PyInt>() => i64::MAX,
        Err(e) => return Err(e),
    };
    u8::try_from(number)
        .ok()
        .filter(|&h| usize::from(h) <= holes)
        .and_then(Move::new)
        .ok_or_else(|| {
            IllegalMoveError::new_err(format!(
                "hole {hole} does not exist: holes are 1 to {holes}"
            ))
        })
}

/// A count from Python that must not be negative.
fn count(what: &str, value: i64) -> PyResult<u64> {
    u64::try_from(value).map_err(|_| value_error(format!("{what} must be 0 or more, not {value}")))
}

/// The rules of a game: holes per row, seeds per hole, the lap limit that
/// makes a sowing endless and the ply limit (RULES.md).
#[pyclass(module = "endodoi", frozen, eq, hash, from_py_object)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rules(endodoi::Rules);

#[pymethods]
impl Rules {
    #[new]
    #[pyo3(signature = (holes = 8, seeds = 4, max_laps = i64::from(endodoi::DEFAULT_MAX_LAPS), max_plies = i64::from(endodoi::DEFAULT_MAX_PLIES)))]
    fn new(holes: i64, seeds: i64, max_laps: i64, max_plies: i64) -> PyResult<Rules> {
        let number = |what: &str, v: i64| {
            u32::try_from(v)
                .map_err(|_| value_error(format!("{what} must be 0 to {}, not {v}", u32::MAX)))
        };
        let (max_laps, max_plies) = (
            number("max_laps", max_laps)?,
            number("max_plies", max_plies)?,
        );
        let holes = usize::try_from(holes).map_err(|_| {
            value_error(format!(
                "holes must be {} to {}, not {holes}",
                endodoi::MIN_HOLES,
                endodoi::MAX_HOLES
            ))
        })?;
        let rules = endodoi::Rules::new(holes, number("seeds", seeds)?)
            .and_then(|r| r.with_max_laps(max_laps))
            .and_then(|r| r.with_max_plies(max_plies))
            .map_err(value_error)?;
        Ok(Rules(rules))
    }

    /// Holes per row, `n`.
    #[getter]
    fn holes(&self) -> usize {
        self.0.holes()
    }

    /// Seeds per hole at the start.
    #[getter]
    fn seeds(&self) -> u32 {
        self.0.seeds()
    }

    /// The lap limit: a move still sowing at this lap is endless.
    #[getter]
    fn max_laps(&self) -> u32 {
        self.0.max_laps()
    }

    /// The ply limit.
    #[getter]
    fn max_plies(&self) -> u32 {
        self.0.max_plies()
    }

    /// Seeds on the board at the start, `2 * holes * seeds`.
    #[getter]
    fn total_seeds(&self) -> u32 {
        self.0.total_seeds()
    }

    /// The start position: every hole full, South to move.
    fn start(&self) -> Position {
        Position(self.0.start())
    }

    fn __repr__(&self) -> String {
        format!(
            "Rules(holes={}, seeds={}, max_laps={}, max_plies={})",
            self.0.holes(),
            self.0.seeds(),
            self.0.max_laps(),
            self.0.max_plies()
        )
    }
}

/// How a game ended: `termination` is `"no-moves"` or `"ply-limit"`,
/// `winner` `"south"`, `"north"` or `None` for a draw.
#[pyclass(module = "endodoi", frozen, eq)]
#[derive(Clone, PartialEq, Eq)]
pub struct GameOutcome {
    /// `"no-moves"` or `"ply-limit"`.
    #[pyo3(get)]
    termination: &'static str,
    /// `"south"`, `"north"`, or `None` for a draw.
    #[pyo3(get)]
    winner: Option<&'static str>,
}

impl From<Outcome> for GameOutcome {
    fn from(o: Outcome) -> Self {
        GameOutcome {
            termination: o.termination.name(),
            winner: o.winner.map(side_name),
        }
    }
}

#[pymethods]
impl GameOutcome {
    fn __repr__(&self) -> String {
        format!(
            "Outcome(termination={:?}, winner={})",
            self.termination,
            self.winner.map_or("None".to_string(), |w| format!("{w:?}"))
        )
    }
}

/// What a move did: its `hole`, the `mover`, the `laps` sown, the seeds
/// `sown`, the ring index `last` where the last seed fell, the `capture`
/// as `(hole, seeds)` (the opponent's hole in its own numbering, seeds with
/// the triggering one) or `None`, and the game's `outcome` if it ended.
#[pyclass(module = "endodoi", frozen)]
#[derive(Clone)]
pub struct MoveResult {
    /// The hole played, in the mover's numbering.
    #[pyo3(get)]
    hole: u8,
    /// `"south"` or `"north"`.
    #[pyo3(get)]
    mover: &'static str,
    /// Laps sown, from 1.
    #[pyo3(get)]
    laps: u32,
    /// Seeds sown over all laps.
    #[pyo3(get)]
    sown: u64,
    /// Ring index where the last seed fell.
    #[pyo3(get)]
    last: usize,
    /// `(hole, seeds)` captured, or `None`.
    #[pyo3(get)]
    capture: Option<(u8, u32)>,
    /// The outcome if this move ended the game.
    #[pyo3(get)]
    outcome: Option<GameOutcome>,
}

impl From<MoveDetails> for MoveResult {
    fn from(d: MoveDetails) -> Self {
        MoveResult {
            hole: d.mv.hole(),
            mover: side_name(d.mover),
            laps: d.laps,
            sown: d.sown,
            last: d.last,
            capture: d.capture.map(|c| (c.hole, c.seeds)),
            outcome: d.outcome.map(GameOutcome::from),
        }
    }
}

#[pymethods]
impl MoveResult {
    fn __repr__(&self) -> String {
        format!(
            "MoveResult(hole={}, mover={:?}, laps={}, sown={}, last={}, capture={:?})",
            self.hole, self.mover, self.laps, self.sown, self.last, self.capture
        )
    }
}

/// One lap of a move: the ring index lifted (`start`), its `seeds`, the
/// ring index where the last fell (`last`), whether the sowing `ends` there,
/// and the `ring` after the lap.
#[pyclass(module = "endodoi", frozen)]
#[derive(Clone)]
pub struct MoveLap {
    /// The lap's number, from 1.
    #[pyo3(get)]
    number: u32,
    /// The ring index lifted.
    #[pyo3(get)]
    start: usize,
    /// The seeds lifted and sown.
    #[pyo3(get)]
    seeds: u32,
    /// The ring index where the last seed fell.
    #[pyo3(get)]
    last: usize,
    /// Whether the sowing ends with this lap.
    #[pyo3(get)]
    ends: bool,
    /// The whole ring after this lap (before any capture).
    #[pyo3(get)]
    ring: Vec<u32>,
}

impl MoveLap {
    fn new(lap: Lap, ring: &[u32]) -> MoveLap {
        MoveLap {
            number: lap.number,
            start: lap.from,
            seeds: lap.seeds,
            last: lap.last,
            ends: lap.ends,
            ring: ring.to_vec(),
        }
    }
}

#[pymethods]
impl MoveLap {
    fn __repr__(&self) -> String {
        format!(
            "Lap(number={}, start={}, seeds={}, last={}, ends={})",
            self.number, self.start, self.seeds, self.last, self.ends
        )
    }
}

/// The tally of `Position.playouts`.
#[pyclass(module = "endodoi", frozen, eq)]
#[derive(Clone, PartialEq, Eq)]
pub struct PlayoutStats(batch::PlayoutStats);

#[pymethods]
impl PlayoutStats {
    /// Games played.
    #[getter]
    fn games(&self) -> u64 {
        self.0.games
    }
    /// Games South won.
    #[getter]
    fn south_wins(&self) -> u64 {
        self.0.south_wins
    }
    /// Games North won.
    #[getter]
    fn north_wins(&self) -> u64 {
        self.0.north_wins
    }
    /// Drawn games.
    #[getter]
    fn draws(&self) -> u64 {
        self.0.draws
    }
    /// Plies played in all the games.
    #[getter]
    fn plies(&self) -> u64 {
        self.0.plies
    }
    /// South's final seeds minus North's, summed over the games.
    #[getter]
    fn seed_difference(&self) -> i64 {
        self.0.seed_difference
    }
    /// Wins plus half the draws of `side`, over the games (0.5 for none).
    fn score(&self, side: &str) -> PyResult<f64> {
        let s = &self.0;
        if s.games == 0 {
            return Ok(0.5);
        }
        let wins = match parse_side(side)? {
            Side::South => s.south_wins,
            Side::North => s.north_wins,
        };
        Ok((wins as f64 + s.draws as f64 / 2.0) / s.games as f64)
    }
    fn __repr__(&self) -> String {
        let s = &self.0;
        format!(
            "PlayoutStats(games={}, south_wins={}, north_wins={}, draws={}, plies={})",
            s.games, s.south_wins, s.north_wins, s.draws, s.plies
        )
    }
}

/// A position: the ring of `2n` holes, the side to move, the captured
/// seeds, the ply count, and the outcome once the game is over. `str()` is
/// the engine's one-line text format, `Position.parse` reads it back.
#[pyclass(module = "endodoi", eq, hash, frozen)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Position(endodoi::Position);

#[pymethods]
impl Position {
    /// The position of the text format, e.g. `"4,4,4,4/4,4,4,4 s 0 0 0"`.
    #[new]
    #[pyo3(signature = (text, rules))]
    fn new(text: &str, rules: Rules) -> PyResult<Position> {
        Position::parse(text, rules)
    }

    /// The position of the text format (the same as `Position(text, rules)`).
    #[staticmethod]
    fn parse(text: &str, rules: Rules) -> PyResult<Position> {
        endodoi::Position::parse(text, rules.0)
            .map(Position)
            .map_err(value_error)
    }

    /// A position from its rows (each from its owner's left), the side to
    /// move, the captured seeds `(south, north)` and the ply count.
    #[staticmethod]
    #[pyo3(signature = (rules, south, north, to_move = "south", captured = (0, 0), ply = 0))]
    fn from_parts(
        rules: Rules,
        south: Vec<u32>,
        north: Vec<u32>,
        to_move: &str,
        captured: (u32, u32),
        ply: u32,
    ) -> PyResult<Position> {
        let side = parse_side(to_move)?;
        endodoi::Position::from_parts(rules.0, &south, &north, side, [captured.0, captured.1], ply)
            .map(Position)
            .map_err(value_error)
    }

    /// The position a `turn` line shows to the bot playing `side` under
    /// `rules` (from `newgame`); its `legal` must be the engine's.
    #[staticmethod]
    fn from_turn(line: &str, rules: Rules, side: &str) -> PyResult<Position> {
        turn::from_turn(line, rules.0, parse_side(side)?)
            .map(Position)
            .map_err(value_error)
    }

    /// The `turn` line the arena would send to the side to move.
    #[pyo3(signature = (last = None, time_ms = None))]
    fn to_turn(&self, last: Option<&Bound<'_, PyAny>>, time_ms: Option<i64>) -> PyResult<String> {
        let last = last
            .map(|h| to_move(h, self.0.holes()))
            .transpose()
            .map_err(value_error)?;
        let time_ms = time_ms.map(|t| count("time_ms", t)).transpose()?;
        turn::to_turn(&self.0, last, time_ms).map_err(value_error)
    }

    /// The rules of the game.
    #[getter]
    fn rules(&self) -> Rules {
        Rules(*self.0.rules())
    }

    /// Holes per row.
    #[getter]
    fn holes(&self) -> usize {
        self.0.holes()
    }

    /// `"south"` or `"north"`: the side to move (after the end, the side that could not).
    #[getter]
    fn to_move(&self) -> &'static str {
        side_name(self.0.to_move())
    }

    /// Plies played.
    #[getter]
    fn ply(&self) -> u32 {
        self.0.ply()
    }

    /// Seeds captured, `(south, north)`, with the final sweep once over.
    #[getter]
    fn captured(&self) -> (u32, u32) {
        (self.0.captured(Side::South), self.0.captured(Side::North))
    }

    /// The ring by ring index: South's holes 1..n, then North's holes 1..n.
    #[getter]
    fn ring(&self) -> Vec<u32> {
        self.0.ring().into_iter().collect()
    }

    /// `side`'s row, holes 1..n from its own left.
    fn row(&self, side: &str) -> PyResult<Vec<u32>> {
        Ok(self.0.row(parse_side(side)?).into_iter().collect())
    }

    /// Seeds in `side`'s hole `hole` (1..n).
    fn seeds(&self, side: &str, hole: &Bound<'_, PyAny>) -> PyResult<u32> {
        let hole: i64 = hole.extract().unwrap_or(i64::MAX);
        let side = parse_side(side)?;
        let n = self.0.holes();
        usize::try_from(hole)
            .ok()
            .filter(|h| (1..=n).contains(h))
            .map(|h| self.0.seeds(side, h))
            .ok_or_else(|| {
                value_error(format!(
                    "hole {hole} is not on a board of {n} holes per row"
                ))
            })
    }

    /// The outcome, or `None` while the game goes on.
    #[getter]
    fn outcome(&self) -> Option<GameOutcome> {
        self.0.outcome().map(GameOutcome::from)
    }

    /// Whether the game is over.
    #[getter]
    fn is_over(&self) -> bool {
        self.0.is_over()
    }

    /// The legal holes of the side to move, increasing (endless moves excluded).
    fn legal_moves(&self) -> Vec<u32> {
        self.0
            .legal_moves()
            .into_iter()
            .map(|m| u32::from(m.hole()))
            .collect()
    }

    /// Whether `hole` is a legal move.
    fn is_legal(&self, hole: &Bound<'_, PyAny>) -> bool {
        to_move(hole, self.0.holes()).is_ok_and(|mv| self.0.check(mv).is_ok())
    }

    /// Raises `IllegalMoveError` if `hole` is not a legal move.
    fn check(&self, hole: &Bound<'_, PyAny>) -> PyResult<()> {
        self.0
            .check(to_move(hole, self.0.holes())?)
            .map_err(illegal)
    }

    /// The position after `hole` is played, and what the move did.
    fn play(&self, hole: &Bound<'_, PyAny>) -> PyResult<(Position, MoveResult)> {
        let mut next = self.0.clone();
        let details = next.play(to_move(hole, self.0.holes())?).map_err(illegal)?;
        Ok((Position(next), details.into()))
    }

    /// The position after `hole` is played (`play` without the details).
    fn after(&self, hole: &Bound<'_, PyAny>) -> PyResult<Position> {
        Ok(self.play(hole)?.0)
    }

    /// The laps `hole` sows, each with the ring after it.
    fn laps(&self, hole: &Bound<'_, PyAny>) -> PyResult<Vec<MoveLap>> {
        let mut laps = self
            .0
            .laps(to_move(hole, self.0.holes())?)
            .map_err(illegal)?;
        let mut out = Vec::new();
        while let Some(lap) = laps.next() {
            out.push(MoveLap::new(lap, laps.ring()));
        }
        Ok(out)
    }

    /// Every legal move with its result: `[(hole, position, result), ...]`.
    fn children(&self) -> Vec<(u8, Position, MoveResult)> {
        batch::children(&self.0)
            .into_iter()
            .map(|(d, p)| (d.mv.hole(), Position(p), d.into()))
            .collect()
    }

    /// `n` uniformly random games from here, seeded; the GIL is released.
    #[pyo3(signature = (n, seed = 0))]
    fn playouts(&self, py: Python<'_>, n: i64, seed: u64) -> PyResult<PlayoutStats> {
        let n = count("n", n)?;
        let pos = self.0.clone();
        Ok(PlayoutStats(
            py.detach(move || batch::playouts(&pos, n, seed)),
        ))
    }

    /// The mover's view: its holes, the opponent's holes, its captured
    /// seeds, the opponent's (`2n + 2` numbers).
    fn observation(&self) -> Vec<u32> {
        observation::observation(&self.0)
    }

    /// `holes` booleans: entry `k` is whether hole `k + 1` is legal.
    fn action_mask(&self) -> Vec<bool> {
        observation::action_mask(&self.0)
    }

    /// Leaf nodes of the move tree `depth` plies deep.
    fn perft(&self, py: Python<'_>, depth: i64) -> PyResult<u64> {
        let depth = u32::try_from(depth)
            .map_err(|_| value_error(format!("depth must be 0 to {}, not {depth}", u32::MAX)))?;
        let pos = self.0.clone();
        Ok(py.detach(move || endodoi::perft(&pos, depth)))
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Position('{}')", self.0)
    }

    fn __copy__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __deepcopy__<'py>(slf: PyRef<'py, Self>, _memo: &Bound<'py, PyAny>) -> PyRef<'py, Self> {
        slf
    }
}

/// The rules and the bot's side (`"south"` or `"north"`) of a `newgame` line.
#[pyfunction]
fn parse_newgame(line: &str) -> PyResult<(Rules, &'static str)> {
    let (rules, side) = turn::from_newgame(line).map_err(value_error)?;
    Ok((Rules(rules), side_name(side)))
}

/// The module `endodoi._endodoi`.
#[pymodule]
#[pyo3(name = "_endodoi")]
fn endodoi_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Rules>()?;
    m.add_class::<Position>()?;
    m.add_class::<GameOutcome>()?;
    m.add_class::<MoveResult>()?;
    m.add_class::<MoveLap>()?;
    m.add_class::<PlayoutStats>()?;
    m.add_function(wrap_pyfunction!(parse_newgame, m)?)?;
    m.add("IllegalMoveError", m.py().get_type::<IllegalMoveError>())?;
    m.add("MAX_HOLES", endodoi::MAX_HOLES)?;
    m.add("MIN_HOLES", endodoi::MIN_HOLES)?;
    Ok(())
}
