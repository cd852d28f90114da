//! The bindings of [`crate::ratings`]: `rate_games` and the `RatingTable`
//! it returns, which `endodoi.ratings` turns into numpy arrays.

use endodoi_ratings::RatingOptions;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::ratings::{self, HalfPoints, Rated};

/// Ratings of some games, per bot index (`rate_games`): Elo points on the
/// logistic scale, the 95% intervals, and what `standings.csv` shows.
#[pyclass(module = "endodoi", frozen)]
pub struct RatingTable(Rated);

impl RatingTable {
    /// Each bot's value of `f`.
    fn each<T>(&self, f: impl Fn(&endodoi_ratings::Rating) -> T) -> Vec<T> {
        self.0.ratings.ratings.iter().map(f).collect()
    }

    /// Bot `i`, or a ValueError naming the bots.
    fn bot(&self, what: &str, i: usize) -> PyResult<usize> {
        let bots = self.0.ratings.len();
        if i < bots {
            Ok(i)
        } else {
            Err(PyValueError::new_err(format!(
                "{what} is bot {i}, but there are {bots} bots: give an index below {bots}"
            )))
        }
    }
}

#[pymethods]
impl RatingTable {
    /// Ratings, Elo points (mean 0 per group, or the anchor's rating).
    #[getter]
    fn elo(&self) -> Vec<f64> {
        self.each(|r| r.elo)
    }
    /// Lower ends of the intervals, Elo points.
    #[getter]
    fn lower(&self) -> Vec<f64> {
        self.each(|r| r.lower)
    }
    /// Upper ends of the intervals, Elo points.
    #[getter]
    fn upper(&self) -> Vec<f64> {
        self.each(|r| r.upper)
    }
    /// Standard deviations of the ratings, Elo points.
    #[getter]
    fn sd(&self) -> Vec<f64> {
        self.each(|r| r.sd)
    }
    /// How each interval was measured: `bootstrap`, `curvature`,
    /// `at-limit` or `no-games`.
    #[getter]
    fn interval(&self) -> Vec<&'static str> {
        self.each(|r| r.interval.name())
    }
    /// Games played, per bot.
    #[getter]
    fn games(&self) -> Vec<u64> {
        self.each(|r| r.games)
    }
    /// Games won, per bot.
    #[getter]
    fn wins(&self) -> Vec<u64> {
        self.0.wins.clone()
    }
    /// Games drawn, per bot.
    #[getter]
    fn draws(&self) -> Vec<u64> {
        self.0.draws.clone()
    }
    /// Games lost, per bot.
    #[getter]
    fn losses(&self) -> Vec<u64> {
        self.0.losses.clone()
    }
    /// The bot indices best first, as `standings.csv` lists them.
    #[getter]
    fn order(&self) -> Vec<usize> {
        self.0.order.clone()
    }
    /// Each bot's group, from 1 in the listed order (`standings.csv`'s).
    #[getter]
    fn group(&self) -> Vec<usize> {
        self.0.group.clone()
    }
    /// Each bot's LOS over the bot listed next in its group (None for the last).
    #[getter]
    fn los_next(&self) -> Vec<Option<f64>> {
        self.0.los_next.clone()
    }
    /// The number of connected groups.
    #[getter]
    fn groups(&self) -> usize {
        self.0.ratings.groups
    }
    /// The fraction of the games drawn.
    #[getter]
    fn draw_rate(&self) -> f64 {
        self.0.ratings.draw_rate
    }
    /// Bootstrap samples behind the intervals and LOS.
    #[getter]
    fn samples(&self) -> u32 {
        self.0.ratings.samples
    }
    /// The likelihood of superiority of bot `i` over bot `j`, 0..1.
    fn los(&self, i: usize, j: usize) -> PyResult<f64> {
        Ok(self.0.ratings.los(self.bot("i", i)?, self.bot("j", j)?))
    }
    /// The covariance of the ratings of bots `i` and `j`, Elo².
    fn covariance(&self, i: usize, j: usize) -> PyResult<f64> {
        Ok(self
            .0
            .ratings
            .covariance(self.bot("i", i)?, self.bot("j", j)?))
    }
    fn __len__(&self) -> usize {
        self.0.ratings.len()
    }
    fn __repr__(&self) -> String {
        format!(
            "RatingTable(bots={}, groups={}, samples={})",
            self.0.ratings.len(),
            self.0.ratings.groups,
            self.0.ratings.samples
        )
    }
}

/// Rates games among `bots` bots: `south[k]` against `north[k]` (bot
/// indices), South's result `result[k]` in half points (2 won, 1 drawn, 0
/// lost), with `arena rate`'s options and defaults. Bad input is a
/// ValueError naming the entry and the fix.
#[pyfunction]
#[pyo3(signature = (bots, south, north, result, *, prior_draws = 1.0, bootstrap = 1000, seed = 1, anchor = None))]
#[allow(clippy::too_many_arguments)]
pub fn rate_games(
    py: Python<'_>,
    bots: usize,
    south: Vec<usize>,
    north: Vec<usize>,
    result: Vec<HalfPoints>,
    prior_draws: f64,
    bootstrap: u32,
    seed: u64,
    anchor: Option<(usize, f64)>,
) -> PyResult<RatingTable> {
    let options = RatingOptions {
        prior_draws,
        bootstrap_samples: bootstrap,
        seed,
        anchor,
        ..RatingOptions::default()
    };
    py.detach(|| ratings::rate_games(bots, &south, &north, &result, &options))
        .map(RatingTable)
        .map_err(|e| PyValueError::new_err(e.to_string()))
}
