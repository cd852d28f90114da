//! The Python module `endodoi._endodoi`, re-exported by the package
//! `endodoi` (python/endodoi/__init__.py, typed in `_endodoi.pyi`).
//! Sides are the strings `"south"` and `"north"`, moves the mover's own
//! hole numbers 1..n, as in protocol.md.

use endodoi::{IllegalMove, Lap, Move, MoveDetails, Outcome, Side};
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyInt, PyType};

use crate::{batch, observation, turn};

mod ratings;

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

fn side_name_of(side: Side) -> &'static str {
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

/// An integer argument from Python in `0..=max`: any other int is a
/// `ValueError` naming the argument and its range (never an
/// `OverflowError`), a non-integer a `TypeError`.
fn uint(what: &str, value: &Bound<'_, PyAny>, max: u64) -> PyResult<u64> {
    let out_of_range = || value_error(format!("{what} must be 0 to {max}, not {value}"));
    match value.extract::<u64>() {
        Ok(v) if v <= max => Ok(v),
        Ok(_) => Err(out_of_range()),
        Err(_) if value.is_instance_of::<PyInt>() => Err(out_of_range()),
        Err(e) => Err(e),
    }
}

/// [`uint`] for a `u32`.
fn uint32(what: &str, value: &Bound<'_, PyAny>) -> PyResult<u32> {
    Ok(uint(what, value, u64::from(u32::MAX))? as u32)
}

/// A row of seeds from Python, each checked by [`uint32`].
fn row_arg(what: &str, row: &Bound<'_, PyAny>) -> PyResult<Vec<u32>> {
    row.try_iter()?
        .enumerate()
        .map(|(i, v)| uint32(&format!("{what}[{i}]"), &v?))
        .collect()
}

/// What `__reduce__` returns: the class and the arguments that remake the value.
type Reduced<'py, A> = (Bound<'py, PyType>, A);

/// Games per chunk of `Position.playouts`: between chunks the GIL is
/// taken back and Ctrl-C checked, a few milliseconds apart.
const PLAYOUT_CHUNK: u64 = 256;

/// The rules of a game: holes per row, seeds per hole, the lap limit that
/// makes a sowing endless and the ply limit (RULES.md).
#[pyclass(module = "endodoi", frozen, eq, hash, from_py_object)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rules(endodoi::Rules);

#[pymethods]
impl Rules {
    #[new]
    #[pyo3(
        signature = (holes = None, seeds = None, max_laps = None, max_plies = None),
        text_signature = "(holes=8, seeds=4, max_laps=100000, max_plies=1000)"
    )]
    fn new(
        holes: Option<&Bound<'_, PyAny>>,
        seeds: Option<&Bound<'_, PyAny>>,
        max_laps: Option<&Bound<'_, PyAny>>,
        max_plies: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Rules> {
        let number = |what: &str, v: Option<&Bound<'_, PyAny>>, default: u32| {
            v.map_or(Ok(default), |v| uint32(what, v))
        };
        let max_laps = number("max_laps", max_laps, endodoi::DEFAULT_MAX_LAPS)?;
        let max_plies = number("max_plies", max_plies, endodoi::DEFAULT_MAX_PLIES)?;
        let seeds = number("seeds", seeds, 4)?;
        let holes = match holes {
            None => 8,
            Some(h) => {
                let bad = || {
                    value_error(format!(
                        "holes must be {} to {}, not {h}",
                        endodoi::MIN_HOLES,
                        endodoi::MAX_HOLES
                    ))
                };
                match h.extract::<usize>() {
                    Ok(n) => n,
                    Err(_) if h.is_instance_of::<PyInt>() => return Err(bad()),
                    Err(e) => return Err(e),
                }
            }
        };
        let rules = endodoi::Rules::new(holes, seeds)
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

    /// Pickles as its four numbers.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> Reduced<'py, (usize, u32, u32, u32)> {
        let r = slf.get().0;
        (
            slf.get_type(),
            (r.holes(), r.seeds(), r.max_laps(), r.max_plies()),
        )
    }

    fn __copy__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __deepcopy__<'py>(slf: PyRef<'py, Self>, _memo: &Bound<'py, PyAny>) -> PyRef<'py, Self> {
        slf
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
#[pyclass(module = "endodoi", frozen, eq, from_py_object)]
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
            winner: o.winner.map(side_name_of),
        }
    }
}

#[pymethods]
impl GameOutcome {
    /// An outcome from its `termination` and `winner` (what pickling uses).
    #[new]
    #[pyo3(signature = (termination, winner = None))]
    fn new(termination: &str, winner: Option<&str>) -> PyResult<GameOutcome> {
        let termination = match termination {
            "no-moves" => "no-moves",
            "ply-limit" => "ply-limit",
            other => {
                return Err(value_error(format!(
                    "termination must be \"no-moves\" or \"ply-limit\", not {other:?}"
                )))
            }
        };
        let winner = winner.map(parse_side).transpose()?.map(side_name_of);
        Ok(GameOutcome {
            termination,
            winner,
        })
    }

    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> (Bound<'py, PyType>, (&'static str, Option<&'static str>)) {
        let o = slf.get();
        (slf.get_type(), (o.termination, o.winner))
    }

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
            mover: side_name_of(d.mover),
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
    /// A result from its fields (what pickling uses; `Position.play` makes them).
    #[new]
    #[pyo3(signature = (hole, mover, laps, sown, last, capture = None, outcome = None))]
    fn new(
        hole: u8,
        mover: &str,
        laps: u32,
        sown: u64,
        last: usize,
        capture: Option<(u8, u32)>,
        outcome: Option<GameOutcome>,
    ) -> PyResult<MoveResult> {
        Ok(MoveResult {
            hole,
            mover: side_name_of(parse_side(mover)?),
            laps,
            sown,
            last,
            capture,
            outcome,
        })
    }

    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> (
        Bound<'py, PyType>,
        (
            u8,
            &'static str,
            u32,
            u64,
            usize,
            Option<(u8, u32)>,
            Option<GameOutcome>,
        ),
    ) {
        let r = slf.get();
        (
            slf.get_type(),
            (
                r.hole,
                r.mover,
                r.laps,
                r.sown,
                r.last,
                r.capture,
                r.outcome.clone(),
            ),
        )
    }

    fn __repr__(&self) -> String {
        format!(
            "MoveResult(hole={}, mover={:?}, laps={}, sown={}, last={}, capture={:?}, outcome={})",
            self.hole,
            self.mover,
            self.laps,
            self.sown,
            self.last,
            self.capture,
            self.outcome
                .as_ref()
                .map_or("None".to_string(), GameOutcome::__repr__)
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
            self.number,
            self.start,
            self.seeds,
            self.last,
            if self.ends { "True" } else { "False" }
        )
    }
}

/// The tally of `Position.playouts`.
#[pyclass(module = "endodoi", frozen, eq)]
#[derive(Clone, PartialEq, Eq)]
pub struct PlayoutStats(batch::PlayoutStats);

#[pymethods]
impl PlayoutStats {
    /// A tally from its numbers (what pickling uses; `Position.playouts` makes them).
    #[new]
    fn new(
        games: u64,
        south_wins: u64,
        north_wins: u64,
        draws: u64,
        plies: u64,
        seed_difference: i64,
    ) -> PlayoutStats {
        PlayoutStats(batch::PlayoutStats {
            games,
            south_wins,
            north_wins,
            draws,
            plies,
            seed_difference,
        })
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> Reduced<'py, (u64, u64, u64, u64, u64, i64)> {
        let s = slf.get().0;
        (
            slf.get_type(),
            (
                s.games,
                s.south_wins,
                s.north_wins,
                s.draws,
                s.plies,
                s.seed_difference,
            ),
        )
    }

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
    #[pyo3(
        signature = (rules, south, north, to_move = "south", captured = None, ply = None),
        text_signature = "(rules, south, north, to_move='south', captured=(0, 0), ply=0)"
    )]
    fn from_parts(
        rules: Rules,
        south: &Bound<'_, PyAny>,
        north: &Bound<'_, PyAny>,
        to_move: &str,
        captured: Option<(Bound<'_, PyAny>, Bound<'_, PyAny>)>,
        ply: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Position> {
        let side = parse_side(to_move)?;
        let (south, north) = (row_arg("south", south)?, row_arg("north", north)?);
        let captured = match captured {
            None => [0, 0],
            Some((s, n)) => [uint32("captured[0]", &s)?, uint32("captured[1]", &n)?],
        };
        let ply = ply.map_or(Ok(0), |p| uint32("ply", p))?;
        endodoi::Position::from_parts(rules.0, &south, &north, side, captured, ply)
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
    fn to_turn(
        &self,
        last: Option<&Bound<'_, PyAny>>,
        time_ms: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<String> {
        let last = last.map(|h| to_move(h, self.0.holes())).transpose()?;
        let time_ms = time_ms.map(|t| uint("time_ms", t, u64::MAX)).transpose()?;
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
        side_name_of(self.0.to_move())
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
        let hole: i64 = match hole.extract() {
            Ok(n) => n,
            Err(_) if hole.is_instance_of::<PyInt>() => i64::MAX,
            Err(e) => return Err(e),
        };
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
    #[pyo3(signature = (n, seed = None), text_signature = "($self, n, seed=0)")]
    fn playouts(
        &self,
        py: Python<'_>,
        n: &Bound<'_, PyAny>,
        seed: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PlayoutStats> {
        let mut left = uint("n", n, u64::MAX)?;
        let seed = seed.map_or(Ok(0), |s| uint("seed", s, u64::MAX))?;
        let mut run = batch::Playouts::new(seed);
        while left > 0 {
            let chunk = left.min(PLAYOUT_CHUNK);
            py.detach(|| run.play(&self.0, chunk));
            left -= chunk;
            py.check_signals()?;
        }
        Ok(PlayoutStats(run.stats()))
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

    /// Pickles as its text and rules.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> (Bound<'py, PyType>, (String, Rules)) {
        let p = slf.get();
        (slf.get_type(), (p.0.to_string(), Rules(*p.0.rules())))
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
    Ok((Rules(rules), side_name_of(side)))
}

/// The side's name as the package spells it, `"south"` or `"north"`, from
/// any spelling the engine takes (`"South"`, `"s"`, `"N"`...).
#[pyfunction]
fn side_name(side: &str) -> PyResult<&'static str> {
    parse_side(side).map(side_name_of)
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
    m.add_function(wrap_pyfunction!(side_name, m)?)?;
    m.add_class::<ratings::RatingTable>()?;
    m.add_function(wrap_pyfunction!(ratings::rate_games, m)?)?;
    m.add("IllegalMoveError", m.py().get_type::<IllegalMoveError>())?;
    m.add("MAX_HOLES", endodoi::MAX_HOLES)?;
    m.add("MIN_HOLES", endodoi::MIN_HOLES)?;
    Ok(())
}
