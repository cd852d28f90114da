//! The tournament formats: who meets whom, round by round. Pure: a
//! function of the format, the number of bots and the results of the
//! series played so far.
//!
//! A [`Plan`] holds a tournament's course. The runner asks it for the
//! [`Stage`] to play (series whose pairs are known and whose results are
//! not), plays the stage, records each [`SeriesResult`], and asks again
//! until [`Plan::next_stage`] has nothing left. Round robin and gauntlet
//! know every series from the start (one stage); a knockout round or a
//! Swiss round is known only once the round before it has ended.
//!
//! Series are numbered from 1 in the order they become known, so a resumed
//! run, which records the results of its `games.csv` in order, numbers
//! them alike.

mod course;
mod gauntlet;
mod knockout;
mod league;
mod meetings;
pub mod roster;
mod swiss;

pub use course::{GameCourse, SeenGame};
pub use knockout::{Bracket, BracketSeries, Placing, Settled};
pub use league::{
    catch_up_wants, match_quality, pair_catch_up, pair_league_round, pair_round,
    pair_round_randomly, warming_up, Entrant, LeagueCourse, LeaguePairing, LeagueSettings, Met,
    PairBy, RoundPairing, CATCH_UP as LEAGUE_CATCH_UP, MAX_CATCH_UP as LEAGUE_MAX_CATCH_UP,
    MAX_ROUNDS as LEAGUE_MAX_ROUNDS, WARM_UP_SD,
};
pub use meetings::{Meetings, PairTotal, PairTotals};
pub use swiss::{SwissRow, SwissStandings, STEP_BUDGET as SWISS_STEP_BUDGET};

use knockout::Knockout;
use league::League;
use swiss::Swiss;

use crate::schedule::{round_robin, Series};
use crate::series::SeriesResult;
use crate::shard::Shard;

/// The most extra game pairs a drawn knockout series plays with
/// [`Decider::Pair`] before the better seed goes through.
pub const MAX_DECIDER_PAIRS: u32 = 3;

/// A tournament format (`[tournament] format`).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum Format {
    /// Every pair of bots meets in one series (the default).
    #[default]
    RoundRobin,
    /// Each candidate (indices into the config's bots, in the config's
    /// order) meets every other bot; two non-candidates never meet.
    Gauntlet {
        /// The candidates.
        candidates: Vec<usize>,
    },
    /// Single elimination: each round's series winners meet in the next.
    Knockout {
        /// The bots, best seed first (indices into the config's bots).
        seeds: Vec<usize>,
        /// What settles a drawn series.
        decider: Decider,
    },
    /// A number of rounds, each bot meeting a bot with the same score that
    /// it has not met (the Dutch system's core, FIDE Handbook C.04.3).
    Swiss {
        /// The bots, best seed first: the ranking before round 1 and the
        /// last tiebreak.
        seeds: Vec<usize>,
        /// The number of rounds.
        rounds: u32,
    },
    /// Rounds in which every bot plays once, paired by the current joint
    /// ratings (close in rating, weighted by uncertainty, new bots first,
    /// repeats avoided), until a number of rounds, a settled ranking, or
    /// the run's stop.
    League(LeagueSettings),
}

/// What settles a drawn knockout series (`[tournament] decider`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Decider {
    /// Extra game pairs, one at a time, until a bot wins one, at most
    /// [`MAX_DECIDER_PAIRS`]; then the better seed.
    #[default]
    Pair,
    /// The better seed goes through at once.
    Seed,
}

impl Format {
    /// The format's name as the config writes it: `round-robin`,
    /// `gauntlet`, `knockout`, `swiss` or `league`.
    #[must_use]
    pub fn name(&self) -> &'static str {
        match self {
            Format::RoundRobin => "round-robin",
            Format::Gauntlet { .. } => "gauntlet",
            Format::Knockout { .. } => "knockout",
            Format::Swiss { .. } => "swiss",
            Format::League(_) => "league",
        }
    }

    /// Whether every series is known before any is played (round robin and
    /// gauntlet), so the series can be split among shards by number.
    #[must_use]
    pub fn is_static(&self) -> bool {
        matches!(self, Format::RoundRobin | Format::Gauntlet { .. })
    }

    /// Every series of a static format over `bots` bots, numbered from 1;
    /// `None` for a knockout or Swiss, whose rounds depend on results.
    #[must_use]
    pub fn static_schedule(&self, bots: usize) -> Option<Vec<Series>> {
        match self {
            Format::RoundRobin => Some(round_robin(bots)),
            Format::Gauntlet { candidates } => Some(gauntlet::schedule(bots, candidates)),
            Format::Knockout { .. } | Format::Swiss { .. } | Format::League(_) => None,
        }
    }

    /// The series a run of a static format over `bots` bots plays: all, or
    /// a shard's share ([`crate::schedule::shard_of`]); with the pair shard
    /// of a two-bot match split by game pairs. Empty for a knockout or Swiss.
    #[must_use]
    pub fn shard_schedule(
        &self,
        bots: usize,
        shard: Option<Shard>,
    ) -> (Vec<Series>, Option<Shard>) {
        crate::schedule::shard_of(self.static_schedule(bots).unwrap_or_default(), shard)
    }

    /// The most series the tournament can have over `bots` bots (for the
    /// games bound: each plays at most `max_games`); for a knockout or
    /// Swiss, `bots` is the number that play (those that started). A
    /// knockout counts its
    /// possible deciders, each of one game pair, apart: see
    /// [`Format::max_decider_series`].
    #[must_use]
    pub fn max_series(&self, bots: usize) -> usize {
        match self {
            Format::RoundRobin | Format::Gauntlet { .. } => {
                self.static_schedule(bots).map_or(0, |s| s.len())
            }
            Format::Knockout { .. } => bots.saturating_sub(1),
            Format::Swiss { rounds, .. } => bots / 2 * *rounds as usize,
            Format::League(l) => bots / 2 * l.max_rounds() as usize,
        }
    }

    /// Whether it goes on until stopped: a league without `rounds`, whose
    /// games have no bound worth saying.
    #[must_use]
    pub fn is_endless(&self) -> bool {
        matches!(self, Format::League(l) if l.rounds.is_none())
    }

    /// The most decider series (one game pair each) a knockout can play.
    #[must_use]
    pub fn max_decider_series(&self) -> usize {
        match self {
            Format::Knockout {
                seeds,
                decider: Decider::Pair,
            } => seeds.len().saturating_sub(1) * MAX_DECIDER_PAIRS as usize,
            _ => 0,
        }
    }
}

/// Series to play now: all of them may be played at once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stage {
    /// The series, in number order.
    pub series: Vec<Series>,
    /// Whether these are knockout deciders: each one game pair long
    /// (`max_games = 2`, no `first_to`), whatever the config's series are.
    pub decider: bool,
    /// Whether a league paired this round at random (a warm-up round, or
    /// `pairing = "random"`); `false` for every other format.
    pub at_random: bool,
    /// A league round's byes (a bot left out of an odd count); 0 for
    /// every other format.
    pub byes: usize,
    /// A league round's catch-up series among `series` (a late entrant's
    /// extra series); 0 for every other format.
    pub catch_up: usize,
}

/// A tournament's course: the series known so far and their results (a
/// league's of its last round paired only: its closed rounds are in its
/// per-pair totals, so its memory does not grow with its rounds).
#[derive(Clone, Debug)]
pub struct Plan {
    format: Format,
    /// The series dropped: a league's closed rounds (none for another
    /// format). Series number `dropped + i + 1` is at `i`.
    dropped: usize,
    /// The series kept, in number order: every series known so far, or a
    /// league's of its last round paired.
    series: Vec<Series>,
    /// The result of each series kept, by index, once recorded.
    results: Vec<Option<SeriesResult>>,
    /// The series without a result yet (so that recording one is `O(1)`,
    /// not a scan of every result so far).
    unrecorded: usize,
    /// Which series kept are knockout deciders, by index.
    deciders: Vec<bool>,
    /// Byes: (round, bot), in the order given.
    byes: Vec<(u32, usize)>,
    /// The state of a format whose rounds depend on results.
    course: Course,
}

/// The state of a knockout or Swiss beside the series and results.
#[derive(Clone, Debug)]
enum Course {
    /// Round robin or gauntlet: every series known from the start.
    Static,
    /// A knockout's bracket.
    Knockout(Knockout),
    /// A Swiss's rounds paired so far.
    Swiss(Swiss),
    /// A league's rounds paired so far.
    League(League),
}

/// What a format's `advance` adds: series (numbered on from the plan's
/// last), whether they are deciders, and byes.
#[derive(Clone, Debug, Default)]
struct Step {
    series: Vec<Series>,
    decider: bool,
    byes: Vec<(u32, usize)>,
}

impl Plan {
    /// The plan of `format` over `bots` bots, before any series is played.
    /// Bots in `absent` (left out: they did not start) are not paired: a
    /// knockout keeps them in the bracket and their round-1 opponent goes
    /// through unplayed (a walkover, listed among the byes), a Swiss leaves
    /// them out, and a round robin or gauntlet still lists their series
    /// (the runner does not play them), so series keep their numbers. A
    /// knockout's or Swiss's round 1 is known at once.
    #[must_use]
    pub fn new(format: &Format, bots: usize, absent: &[usize]) -> Plan {
        Plan::build(format, bots, absent, None)
    }

    /// The plan of a league whose bots come and go as `roster` says (its
    /// history so far: [`roster::Roster`]); for another format, as
    /// [`Plan::new`] over the roster's bots, those never in it absent.
    #[must_use]
    pub fn with_roster(format: &Format, roster: roster::Roster) -> Plan {
        let absent: Vec<usize> = (0..roster.len())
            .filter(|&b| roster.stints()[b].is_none())
            .collect();
        Plan::build(format, roster.len(), &absent, Some(roster))
    }

    /// [`Plan::with_roster`] after the series `results`, as
    /// [`Plan::replay`].
    #[must_use]
    pub fn replay_with_roster(
        format: &Format,
        roster: roster::Roster,
        results: &[SeriesResult],
    ) -> Plan {
        let mut plan = Plan::with_roster(format, roster);
        plan.record_all(results);
        plan
    }

    /// A league's roster: who is in which round; `None` for other formats.
    #[must_use]
    pub fn roster(&self) -> Option<&roster::Roster> {
        match &self.course {
            Course::League(l) => Some(l.roster()),
            _ => None,
        }
    }

    /// Takes `roster` for a league's rounds not yet paired (bots that join
    /// or leave from the next round on); it must agree with the roster so
    /// far on every round paired. Returns whether it was taken (`false`
    /// for another format).
    pub fn set_roster(&mut self, roster: roster::Roster) -> bool {
        match &mut self.course {
            Course::League(l) => l.set_roster(roster),
            _ => false,
        }
    }

    fn build(
        format: &Format,
        bots: usize,
        absent: &[usize],
        roster: Option<roster::Roster>,
    ) -> Plan {
        let course = match format {
            Format::RoundRobin | Format::Gauntlet { .. } => Course::Static,
            Format::Knockout { seeds, decider } => {
                Course::Knockout(Knockout::new(seeds, *decider, absent))
            }
            Format::Swiss { seeds, rounds } => Course::Swiss(Swiss::new(seeds, *rounds, absent)),
            Format::League(settings) => Course::League(League::new(
                *settings,
                roster.unwrap_or_else(|| roster::Roster::starting(bots, absent)),
            )),
        };
        let mut plan = Plan {
            format: format.clone(),
            dropped: 0,
            series: Vec::new(),
            results: Vec::new(),
            unrecorded: 0,
            deciders: Vec::new(),
            byes: Vec::new(),
            course,
        };
        if let Some(all) = format.static_schedule(bots) {
            plan.push_all(all, false);
        } else {
            plan.advance();
        }
        plan
    }

    /// The plan of `format` over `bots` bots (`absent` left out, as in
    /// [`Plan::new`]) after the series `results`, recorded in number order:
    /// a finished or interrupted run's course, for its report.
    #[must_use]
    pub fn replay(
        format: &Format,
        bots: usize,
        absent: &[usize],
        results: &[SeriesResult],
    ) -> Plan {
        let mut plan = Plan::new(format, bots, absent);
        plan.record_all(results);
        plan
    }

    /// Records `results` in number order.
    fn record_all(&mut self, results: &[SeriesResult]) {
        let none = self.record_each(results, |_| Ok::<(), std::convert::Infallible>(()));
        let Ok(()) = none;
    }

    /// Records `results` in number order, as [`Plan::replay`] does, and
    /// hands the plan to `each` before the first and after each one: a
    /// reader of every league round takes each round as it is paired (the
    /// plan keeps the last round's pairings only).
    ///
    /// # Errors
    /// The first error of `each`; the results after it are not recorded.
    pub fn record_each<E>(
        &mut self,
        results: &[SeriesResult],
        mut each: impl FnMut(&Plan) -> Result<(), E>,
    ) -> Result<(), E> {
        let mut sorted: Vec<&SeriesResult> = results.iter().collect();
        sorted.sort_by_key(|r| r.series.number);
        each(self)?;
        for r in sorted {
            self.record(r);
            each(self)?;
        }
        Ok(())
    }

    /// The format.
    #[must_use]
    pub fn format(&self) -> &Format {
        &self.format
    }

    /// Every series known so far, in number order; a league's of its last
    /// round paired only (its closed rounds are dropped once recorded).
    #[must_use]
    pub fn series(&self) -> &[Series] {
        &self.series
    }

    /// The series known so far, every round's (a league's dropped ones
    /// counted).
    #[must_use]
    pub fn series_count(&self) -> usize {
        self.dropped + self.series.len()
    }

    /// The index of series `number` (from 1) among those kept.
    fn index(&self, number: usize) -> Option<usize> {
        number.checked_sub(self.dropped + 1)
    }

    /// Series `number` (from 1), if known and kept (not of a league's
    /// closed round).
    #[must_use]
    pub fn get(&self, number: usize) -> Option<Series> {
        self.series.get(self.index(number)?).copied()
    }

    /// Whether series `number` is a knockout decider (one game pair).
    #[must_use]
    pub fn is_decider(&self, number: usize) -> bool {
        self.index(number)
            .and_then(|i| self.deciders.get(i))
            .copied()
            .unwrap_or(false)
    }

    /// The recorded result of series `number`, if kept (not of a league's
    /// closed round).
    #[must_use]
    pub fn result(&self, number: usize) -> Option<&SeriesResult> {
        self.results.get(self.index(number)?)?.as_ref()
    }

    /// The byes given so far: (round, bot).
    #[must_use]
    pub fn byes(&self) -> &[(u32, usize)] {
        &self.byes
    }

    /// The series known and not yet recorded, to play now; `None` when the
    /// tournament is over.
    #[must_use]
    pub fn next_stage(&self) -> Option<Stage> {
        let pending: Vec<Series> = self
            .series
            .iter()
            .zip(&self.results)
            .filter(|(_, r)| r.is_none())
            .map(|(s, _)| *s)
            .collect();
        let decider = pending.first().is_some_and(|s| self.is_decider(s.number));
        let at_random = self.league().is_some_and(|l| l.last_at_random);
        let pairings = self.league().map_or(&[][..], |l| l.pairings.as_slice());
        let round = pending.first().map_or(0, |s| s.round);
        let byes = pairings
            .iter()
            .filter(|p| p.round == round && p.series.is_none())
            .count();
        let catch_up = pairings
            .iter()
            .filter(|p| p.catch_up && pending.iter().any(|s| Some(s.number) == p.series))
            .count();
        (!pending.is_empty()).then_some(Stage {
            series: pending,
            decider,
            at_random,
            byes,
            catch_up,
        })
    }

    /// Whether every series is recorded and no round is left.
    #[must_use]
    pub fn is_over(&self) -> bool {
        self.next_stage().is_none()
    }

    /// Records the result of a known series (`result.series.number`); once
    /// every series of a round is recorded, the next round's series become
    /// known. A result of an unknown series, one recorded already, or one
    /// not over (an interrupted run's) is ignored: returns whether it was
    /// taken.
    pub fn record(&mut self, result: &SeriesResult) -> bool {
        if !result.over {
            return false;
        }
        let Some(i) = self.index(result.series.number) else {
            return false;
        };
        match self.results.get_mut(i) {
            Some(slot @ None) if self.series[i] == result.series => {
                *slot = Some(result.clone());
                self.unrecorded -= 1;
            }
            _ => return false,
        }
        if self.unrecorded == 0 {
            self.advance();
        }
        true
    }

    /// Adds series for bot pairs `pairs` (`(a, b, round)`) as the next
    /// numbers.
    fn push_all(&mut self, series: impl IntoIterator<Item = Series>, decider: bool) {
        for s in series {
            let number = self.series_count() + 1;
            self.series.push(Series { number, ..s });
            self.results.push(None);
            self.unrecorded += 1;
            self.deciders.push(decider);
        }
    }

    /// Every recorded series is in: make the next round's series (or a
    /// knockout's deciders) known. A league takes the round just closed
    /// into its totals, and the plan drops it.
    fn advance(&mut self) {
        let next = self.series_count() + 1;
        let step = match &mut self.course {
            Course::Static => return,
            Course::Knockout(k) => k.advance(&self.results, next),
            Course::Swiss(s) => s.advance(&self.series, &self.results, &self.byes, next),
            Course::League(l) => {
                let step = l.advance(&self.results, &self.byes, next);
                self.dropped += self.series.len();
                self.series.clear();
                self.results.clear();
                self.deciders.clear();
                step
            }
        };
        self.byes.extend(step.byes);
        self.push_all(step.series, step.decider);
    }

    /// A knockout's bracket so far; `None` for other formats.
    #[must_use]
    pub fn bracket(&self) -> Option<&Bracket> {
        match &self.course {
            Course::Knockout(k) => Some(k.bracket()),
            _ => None,
        }
    }

    /// A knockout's placings so far (the champion once known, and every
    /// bot out, by place, then seed); `None` for other formats.
    #[must_use]
    pub fn placings(&self) -> Option<Vec<Placing>> {
        match &self.course {
            Course::Knockout(k) => Some(k.placings()),
            _ => None,
        }
    }

    /// A Swiss's standings from the series recorded so far (points,
    /// Buchholz, seed); `None` for other formats.
    #[must_use]
    pub fn swiss_standings(&self) -> Option<SwissStandings> {
        match &self.course {
            Course::Swiss(s) => Some(s.standings(&self.results, &self.byes)),
            _ => None,
        }
    }

    /// A league's course so far (its rounds, whether it settled, every
    /// pairing with the ratings it was made by); `None` for other formats.
    #[must_use]
    pub fn league(&self) -> Option<&LeagueCourse> {
        match &self.course {
            Course::League(l) => Some(l.course()),
            _ => None,
        }
    }

    /// The winner: a knockout's once its final is settled, a Swiss's top
    /// row once the tournament is over; `None` before, and for a round
    /// robin or gauntlet (their standings rank by rating).
    #[must_use]
    pub fn champion(&self) -> Option<usize> {
        match &self.course {
            Course::Static | Course::League(_) => None,
            Course::Knockout(k) => k.champion(),
            Course::Swiss(_) if !self.is_over() => None,
            Course::Swiss(_) => self
                .swiss_standings()?
                .rows
                .first()
                .filter(|r| !r.absent)
                .map(|r| r.bot),
        }
    }
}

/// A series result for tests: `w` game wins for `a`, `l` for `b`, no draws.
#[cfg(test)]
pub(crate) fn test_result(s: Series, w: u32, l: u32) -> SeriesResult {
    SeriesResult {
        series: s,
        wdl: crate::standings::Wdl {
            wins: w,
            draws: 0,
            losses: l,
        },
        decided: false,
        over: true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_series_an_interruption_cut_short_settles_nothing() {
        let format = Format::Knockout {
            seeds: vec![0, 1, 2, 3],
            decider: Decider::Pair,
        };
        let mut plan = Plan::new(&format, 4, &[]);
        let first = plan.next_stage().unwrap();
        assert_eq!(first.series.len(), 2);
        // 1-1 after two games of up to four: not a drawn series.
        let mut cut = test_result(first.series[0], 1, 1);
        cut.over = false;
        assert!(!plan.record(&cut));
        assert_eq!(plan.result(1), None);
        assert_eq!(
            plan.next_stage().unwrap(),
            first,
            "no decider, no next round"
        );
        // A run's report replays its results: the cut one leaves its tie open.
        let won = test_result(first.series[1], 2, 0);
        let replayed = Plan::replay(&format, 4, &[], &[cut.clone(), won.clone()]);
        // (A round's ties are settled together, once all its series are over.)
        let ties = &replayed.bracket().unwrap().rounds[0];
        assert!(ties.iter().all(|t| t.winner.is_none()));
        assert_eq!(replayed.series().len(), 2, "the final is not known yet");
        assert_eq!(replayed.next_stage().unwrap().series, vec![first.series[0]]);
        // Over, the same result is a drawn series: a decider follows.
        cut.over = true;
        let decided = Plan::replay(&format, 4, &[], &[cut, won]);
        assert!(decided.next_stage().unwrap().decider);
    }
}
