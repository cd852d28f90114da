//! A knockout, Swiss or league on Slurm, round by round: where the
//! tournament stands, from its merged games alone. Each round (a stage of
//! the [`Plan`]: a knockout's deciders are a stage of their own) is paired
//! from the games of the rounds before it, so every task and every job
//! between rounds computes the same round from the same `games.csv`, and
//! no other state is kept. Pure: no I/O.

use std::collections::BTreeMap;

use endodoi::Side;

use crate::config::Config;
use crate::format::{Format, Plan, Stage};
use crate::output::MergedGame;
use crate::series::{SeriesResult, SeriesRule, SeriesState, Summary};

/// Games that do not fit the tournament's course.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CourseError {
    /// A game of another pair of bots than the course's series.
    #[error("series {series} has a game of {} and {}, but the course pairs {} and {} in it: the games come from another tournament", bots[0], bots[1], pair[0], pair[1])]
    OtherPair {
        /// The series.
        series: usize,
        /// The game's bots.
        bots: Box<[String; 2]>,
        /// The course's pair.
        pair: Box<[String; 2]>,
    },
    /// A game of a series the course does not have (yet).
    #[error("series {0} has games, but the course has no such series yet: the games come from another tournament, or a round was merged twice")]
    UnknownSeries(usize),
}

/// Where a tournament stands after some games.
#[derive(Clone, Debug)]
pub struct Course {
    /// The plan, with every round over recorded.
    pub plan: Plan,
    /// The rounds over, in order (round 1 first).
    pub done: Vec<Stage>,
    /// The round to play next (`None`: the tournament is over): number
    /// `done.len() + 1`.
    pub current: Option<Stage>,
    /// Whether some series of the current round has games already.
    pub begun: bool,
    /// The results of the rounds over, in number order (the plan keeps a
    /// league's last round only).
    pub results: Vec<SeriesResult>,
}

impl Course {
    /// The number of the round to play next (from 1), or `None` when the
    /// tournament is over.
    #[must_use]
    pub fn round(&self) -> Option<usize> {
        self.current.as_ref().map(|_| self.done.len() + 1)
    }

    /// The summary of the rounds over: each series' result, in number
    /// order, as a single run counts them.
    #[must_use]
    pub fn summary(&self) -> Summary {
        Summary {
            series: self.results.clone(),
            results_in_games: false,
            games: self.results.iter().map(|s| s.wdl.games() as usize).sum(),
            sprt: Vec::new(),
            not_started: Vec::new(),
            not_played: Vec::new(),
        }
    }
}

/// The course of `config`'s tournament (a format that pairs round by
/// round, every bot playing) after `games` (any order): each round is
/// recorded once every series of it is over under its rule (a decider's:
/// one game pair), as the runner records it; the first round that is not
/// over is the current one.
///
/// # Errors
/// A game whose bots are not its series' pair, or of a series the course
/// does not have.
pub fn follow(config: &Config, games: &[MergedGame]) -> Result<Course, CourseError> {
    let names: Vec<&str> = config.bots.iter().map(|b| b.name.as_str()).collect();
    let mut by_series: BTreeMap<usize, Vec<&MergedGame>> = BTreeMap::new();
    for g in games {
        by_series.entry(g.series).or_default().push(g);
    }
    for list in by_series.values_mut() {
        list.sort_by_key(|g| g.game);
    }
    let mut plan = Plan::new(&config.format, config.bots.len(), &[]);
    let (mut done, mut over) = (Vec::new(), Vec::new());
    let rule = crate::runner::series_rule(config, None);
    while let Some(stage) = plan.next_stage() {
        let rule = if stage.decider {
            SeriesRule::decider()
        } else {
            rule
        };
        let mut results: Vec<SeriesResult> = Vec::new();
        let mut begun = false;
        for s in &stage.series {
            let played = by_series.remove(&s.number).unwrap_or_default();
            begun |= !played.is_empty();
            let pair = [names[s.a], names[s.b]];
            let mut scores = Vec::with_capacity(played.len());
            for g in played {
                let [south, north] = [g.bots[0].as_str(), g.bots[1].as_str()];
                if !(pair.contains(&south) && pair.contains(&north) && south != north) {
                    return Err(CourseError::OtherPair {
                        series: s.number,
                        bots: Box::new(g.bots.clone()),
                        pair: Box::new(pair.map(str::to_string)),
                    });
                }
                let winner =
                    g.winner
                        .as_deref()
                        .map(|w| if w == south { Side::South } else { Side::North });
                scores.push(crate::series::score(*s, g.game, winner));
            }
            let (state, _) = SeriesState::replay(*s, rule, scores);
            results.extend(state.result().filter(|r| r.over));
        }
        if results.len() < stage.series.len() {
            if let Some((&series, _)) = by_series.iter().next() {
                return Err(CourseError::UnknownSeries(series));
            }
            return Ok(Course {
                plan,
                done,
                current: Some(stage),
                begun,
                results: over,
            });
        }
        for r in &results {
            plan.record(r);
        }
        over.extend(results);
        done.push(stage);
    }
    if let Some((&series, _)) = by_series.iter().next() {
        return Err(CourseError::UnknownSeries(series));
    }
    Ok(Course {
        plan,
        done,
        current: None,
        begun: false,
        results: over,
    })
}

/// How many shards play a round of `series` series when the tournament is
/// split into `n`: one per series at most.
#[must_use]
pub fn shards_of(stage: &Stage, n: usize) -> usize {
    n.min(stage.series.len()).max(1)
}

/// Shard `k` (from 1) of `n` of a round: its series whose place in the
/// round (from 0) is `k - 1` modulo `n`.
#[must_use]
pub fn share(stage: &Stage, k: usize, n: usize) -> Stage {
    Stage {
        series: stage
            .series
            .iter()
            .enumerate()
            .filter(|(i, _)| n > 0 && i % n == (k + n - 1) % n)
            .map(|(_, s)| *s)
            .collect(),
        decider: stage.decider,
        at_random: stage.at_random,
        // A share is no round (its line is never said): none counted.
        byes: 0,
        catch_up: 0,
    }
}

/// The most rounds `format` plays, as `arena slurm status` says it: a
/// league's or Swiss's `rounds`; a knockout's rounds over `bots` bots
/// (its deciders, each a round of their own on Slurm, come on top).
#[must_use]
pub fn rounds_of(format: &Format, bots: usize) -> Option<u32> {
    match format {
        Format::League(l) => l.rounds,
        Format::Swiss { rounds, .. } => Some(*rounds),
        Format::Knockout { .. } => Some(bots.next_power_of_two().trailing_zeros()),
        Format::RoundRobin | Format::Gauntlet { .. } => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schedule::Series;

    fn stage(n: usize) -> Stage {
        Stage {
            series: (1..=n)
                .map(|i| Series {
                    number: i,
                    a: 0,
                    b: 1,
                    round: 1,
                })
                .collect(),
            decider: false,
            at_random: false,
            byes: 0,
            catch_up: 0,
        }
    }

    fn knockout() -> Config {
        let bots = crate::config::test_bots(&["a", "b", "c", "d"]);
        crate::config::test_config(&format!(
            "[tournament]\nformat = \"knockout\"\nfirst_to = 1\nmax_games = 2\n{bots}"
        ))
    }

    /// Game `game` of `s`, won by bot `winner` (an index) or drawn.
    fn game(config: &Config, s: Series, game: u32, winner: Option<usize>) -> MergedGame {
        let name = |i: usize| config.bots[i].name.clone();
        let south = s.south(game);
        let north = if south == s.a { s.b } else { s.a };
        MergedGame {
            series: s.number,
            game,
            bots: [name(south), name(north)],
            winner: winner.map(name),
        }
    }

    #[test]
    fn a_knockout_stands_at_its_deciders_after_a_drawn_series() {
        let config = knockout();
        let start = follow(&config, &[]).unwrap();
        assert_eq!(start.round(), Some(1));
        assert!(!start.begun);
        let round1 = start.current.unwrap().series;
        let (won, drawn) = (round1[0], round1[1]);
        // Half of round 1: the tournament still stands at round 1, begun.
        let mut games = vec![game(&config, won, 1, Some(won.a))];
        let half = follow(&config, &games).unwrap();
        assert_eq!((half.round(), half.begun), (Some(1), true));
        games.push(game(&config, won, 2, Some(won.a)));
        games.push(game(&config, drawn, 1, Some(drawn.a)));
        games.push(game(&config, drawn, 2, Some(drawn.b)));
        let after = follow(&config, &games).unwrap();
        assert_eq!(after.round(), Some(2));
        let deciders = after.current.clone().unwrap();
        assert!(deciders.decider, "a drawn series is settled by a decider");
        assert_eq!(deciders.series.len(), 1);
        assert_eq!(
            (deciders.series[0].a, deciders.series[0].b),
            (drawn.a, drawn.b)
        );
        let summary = after.summary();
        assert_eq!(summary.series.len(), 2);
        assert!(summary.series.iter().all(|r| r.over));
    }

    #[test]
    fn games_of_another_tournament_are_named() {
        let config = knockout();
        let s = follow(&config, &[]).unwrap().current.unwrap().series[0];
        // A bot of the other series of round 1 plays in this one.
        let stranger = (0..4).find(|&i| i != s.a && i != s.b).unwrap();
        let mut other = game(&config, s, 1, None);
        other.bots[1] = config.bots[stranger].name.clone();
        assert!(matches!(
            follow(&config, &[other]),
            Err(CourseError::OtherPair { series: 1, .. })
        ));
        let mut unknown = game(&config, s, 1, None);
        unknown.series = 9;
        assert_eq!(
            follow(&config, &[unknown]).unwrap_err(),
            CourseError::UnknownSeries(9)
        );
    }

    #[test]
    fn each_series_of_a_round_goes_to_one_shard() {
        let round = stage(5);
        let numbers = |k| -> Vec<usize> {
            share(&round, k, 2)
                .series
                .iter()
                .map(|s| s.number)
                .collect()
        };
        assert_eq!(numbers(1), [1, 3, 5]);
        assert_eq!(numbers(2), [2, 4]);
        assert_eq!(shards_of(&round, 8), 5);
        assert_eq!(shards_of(&round, 2), 2);
        assert_eq!(shards_of(&stage(0), 3), 1);
    }
}
