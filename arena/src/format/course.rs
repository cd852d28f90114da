//! A tournament's course rebuilt from its games, one at a time: each
//! series goes to the [`Plan`] once its games end it under its rule (a
//! decider's: one game pair), as the runner records it. Pure.

use std::collections::BTreeMap;

use endodoi::Side;

use crate::format::{Format, Plan};
use crate::series::{SeriesRule, SeriesState};

/// A game the live course counted: series, game, bots (South, North),
/// winner.
pub type SeenGame = (usize, u32, [usize; 2], Option<Side>);

/// A tournament's course followed game by game (the live view, `arena
/// rate` of a run folder):
/// its plan, with each series recorded once its games end it under its
/// rule (a decider's: one game pair), as the runner records it.
pub struct GameCourse {
    plan: Plan,
    rule: SeriesRule,
    /// The series with games and not yet over, by number.
    open: BTreeMap<usize, SeriesState>,
    /// Every game counted: (series, game, winner), to count again when
    /// the bots that did not start become known; none once
    /// [`GameCourse::forget_games`] said they never will.
    seen: Vec<SeenGame>,
    /// Whether games counted go to `seen`.
    keeps_games: bool,
}

impl GameCourse {
    /// The course of `format` over `bots` bots, `absent` left out, after
    /// the games `seen`.
    #[must_use]
    pub fn new(
        format: &Format,
        bots: usize,
        absent: &[usize],
        rule: SeriesRule,
        seen: &[SeenGame],
    ) -> GameCourse {
        let mut course = GameCourse {
            plan: Plan::new(format, bots, absent),
            rule,
            open: BTreeMap::new(),
            seen: Vec::new(),
            keeps_games: true,
        };
        for &(number, game, bots, winner) in seen {
            course.add(number, game, bots, winner);
        }
        course
    }

    /// The course of a league of `format` whose bots come and go as
    /// `roster` says (a run's `roster.csv`), before any game: its rounds
    /// paired as [`Plan::with_roster`] pairs them.
    #[must_use]
    pub fn with_roster(
        format: &Format,
        roster: super::roster::Roster,
        rule: SeriesRule,
    ) -> GameCourse {
        GameCourse {
            plan: Plan::with_roster(format, roster),
            rule,
            open: BTreeMap::new(),
            seen: Vec::new(),
            keeps_games: true,
        }
    }

    /// [`GameCourse::add`] for a game of bots by name (`south`, `north`;
    /// `names` are the config's, in order), as `games.csv` gives it; a
    /// name not among `names`, or a series number past `usize`, counts
    /// nothing.
    pub fn add_named(
        &mut self,
        names: &[String],
        series: u64,
        game: u32,
        [south, north]: [&str; 2],
        winner: Option<Side>,
    ) -> bool {
        match by_name(names, series, [south, north]) {
            Some((number, bots)) => self.add(number, game, bots, winner),
            None => false,
        }
    }

    /// Whether the plan has series `series` between the bots named `bots`
    /// (South, North; `names` are the config's, in order), as `games.csv`
    /// gives them: whether [`GameCourse::add_named`] would count the game.
    #[must_use]
    pub fn has_named(&self, names: &[String], series: u64, bots: [&str; 2]) -> bool {
        by_name(names, series, bots)
            .is_some_and(|(number, bots)| self.plan.get(number).is_some_and(|s| between(&s, bots)))
    }

    /// Counts game `game` of series `number` between `bots` (South,
    /// North), won by `winner`: once the series is over, its result goes
    /// to the plan. A game whose bots are not the series' (the plan is
    /// not the run's: a bot the run skipped) is left out. Returns whether
    /// this game ended its series, so that the plan changed.
    pub fn add(
        &mut self,
        number: usize,
        game: u32,
        bots: [usize; 2],
        winner: Option<Side>,
    ) -> bool {
        if self.keeps_games {
            self.seen.push((number, game, bots, winner));
        }
        let Some(series) = self.plan.get(number).filter(|s| between(s, bots)) else {
            return false;
        };
        if self.plan.result(number).is_some() {
            return false;
        }
        let rule = if self.plan.is_decider(number) {
            SeriesRule::decider()
        } else {
            self.rule
        };
        let state = self
            .open
            .entry(number)
            .or_insert_with(|| SeriesState::new(series, rule));
        state.record(crate::series::score(series, game, winner));
        if !state.is_over() {
            return false;
        }
        let recorded = state
            .result()
            .is_some_and(|result| self.plan.record(&result));
        self.open.remove(&number);
        recorded
    }

    /// The plan, with every series recorded that its games have ended.
    #[must_use]
    pub fn plan(&self) -> &Plan {
        &self.plan
    }

    /// The rule of the series (not of deciders).
    #[must_use]
    pub fn rule(&self) -> SeriesRule {
        self.rule
    }

    /// Every game counted so far, in order (none after
    /// [`GameCourse::forget_games`]).
    #[must_use]
    pub fn seen(&self) -> &[SeenGame] {
        &self.seen
    }

    /// Keeps no game counted from now on, and drops those kept: for a
    /// course that will not be made again from its games (the live view
    /// once it knows the bots that did not start), whose memory is then
    /// its plan's and its open series' only, however many games come.
    pub fn forget_games(&mut self) {
        self.keeps_games = false;
        self.seen = Vec::new();
    }
}

/// Whether `series` is between `bots` (either side).
fn between(series: &crate::format::Series, bots: [usize; 2]) -> bool {
    (series.a, series.b) == (bots[0].min(bots[1]), bots[0].max(bots[1]))
}

/// The series number and the bots' indices of a game named as `games.csv`
/// names it (`names` are the config's, in order); `None` for a name not
/// among them or a series number past `usize`.
fn by_name(names: &[String], series: u64, bots: [&str; 2]) -> Option<(usize, [usize; 2])> {
    let at = |name: &str| names.iter().position(|b| b == name);
    Some((usize::try_from(series).ok()?, [at(bots[0])?, at(bots[1])?]))
}
