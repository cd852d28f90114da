//! The knockout (single elimination), seeded.
//!
//! The rules (docs/formats.md repeats them):
//! - The bracket has `P` slots, the least power of two at least the number
//!   of entrants. Slots are placed by the standard seeding: from `[1, 2]`,
//!   each doubling to `m` slots turns each seed `s` into the pair
//!   `(s, 2m + 1 - s)`, so round 1 is 1 v P, and seeds 1 and 2 can meet
//!   only in the final (1 and 4 only in a semi-final, and so on).
//! - Seeds past the entrants are byes, so the byes go to the top seeds, in
//!   round 1 only: round 2 is then a full power of two.
//! - A series' winner (more game wins) goes through. A drawn series (equal
//!   game wins) goes, with [`Decider::Seed`], to the better seed; with
//!   [`Decider::Pair`], to a decider: one game pair, played in a stage of
//!   its own, again while the pairs are drawn, at most
//!   [`MAX_DECIDER_PAIRS`] of them, then to the better seed. Deciders keep
//!   their tie's round.
//! - A bot that did not start (absent) loses its tie unplayed: its opponent
//!   goes through (a walkover); a tie of two absent bots sends no one
//!   through, and the next round's opponent then has a bye.
//! - The loser of a round-`r` tie of `R` rounds places `2^(R - r) + 1`
//!   (shared with the round's other losers): 2 the final's loser, 3 the
//!   semi-finals', 5 the quarter-finals'.

use super::{Decider, Step, MAX_DECIDER_PAIRS};
use crate::schedule::Series;
use crate::series::SeriesResult;

/// A knockout's bracket, round by round, for the report: the rounds known
/// so far (a round becomes known once the round before it is settled).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Bracket {
    /// The number of slots of round 1: the least power of two at least the
    /// number of entrants (so `size / 2` ties in round 1).
    pub size: usize,
    /// The number of rounds the knockout has in all: `log2(size)`.
    pub total_rounds: u32,
    /// Per round known so far, its ties in bracket order: the winners of
    /// ties `2i` and `2i + 1` meet in tie `i` of the next round.
    pub rounds: Vec<Vec<BracketSeries>>,
}

/// One tie of a bracket.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BracketSeries {
    /// The two bots (indices), the better seed first; `None` for a bye (no
    /// bot: a slot past the entrants, or no winner from the tie before).
    pub bots: [Option<usize>; 2],
    /// The numbers of its series: the series, then each decider, in order.
    /// Empty for a bye or a walkover.
    pub series: Vec<usize>,
    /// The bot that went through, once known.
    pub winner: Option<usize>,
    /// How the tie was settled, once it is.
    pub settled: Option<Settled>,
}

/// How a knockout tie was settled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Settled {
    /// Its series had a winner.
    Series,
    /// The series was drawn and a decider game pair had a winner.
    Decider,
    /// Drawn (the series, and each decider if any): the better seed went
    /// through.
    Seed,
    /// One slot had no bot: the other went through unplayed (or neither,
    /// if both were empty).
    Bye,
    /// A bot did not start: its opponent went through unplayed (or neither,
    /// if both did not start).
    Walkover,
}

/// Where a bot placed in a knockout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placing {
    /// The bot (an index).
    pub bot: usize,
    /// Its place, from 1: 1 the champion, 2 the runner-up, `2^(R - r) + 1`
    /// for the losers of round `r` of `R` (a place they share).
    pub place: usize,
    /// The round it lost in; `None` for the champion.
    pub out_in: Option<u32>,
}

/// A knockout's course.
#[derive(Clone, Debug)]
pub(super) struct Knockout {
    /// The entrants, best seed first.
    seeds: Vec<usize>,
    decider: Decider,
    /// The bots that did not start.
    absent: Vec<usize>,
    bracket: Bracket,
}

/// The bracket positions of seeds `1..=size` (a power of two): round 1's
/// ties are positions `(2i, 2i + 1)`.
#[must_use]
pub(super) fn seeding_positions(size: usize) -> Vec<usize> {
    let mut order = vec![1];
    let mut m = 1;
    while m < size {
        m *= 2;
        order = order.iter().flat_map(|&s| [s, m + 1 - s]).collect();
    }
    order
}

impl Knockout {
    /// A knockout of `seeds` (best first), `absent` left out, settled by
    /// `decider`, before round 1 is drawn.
    pub(super) fn new(seeds: &[usize], decider: Decider, absent: &[usize]) -> Knockout {
        let size = seeds.len().next_power_of_two();
        Knockout {
            seeds: seeds.to_vec(),
            decider,
            absent: absent.to_vec(),
            bracket: Bracket {
                size,
                total_rounds: size.trailing_zeros(),
                rounds: Vec::new(),
            },
        }
    }

    /// The bracket so far.
    pub(super) fn bracket(&self) -> &Bracket {
        &self.bracket
    }

    /// A bot's seed rank (0 the best); bots not seeded rank last.
    fn rank(&self, bot: usize) -> usize {
        self.seeds
            .iter()
            .position(|&s| s == bot)
            .unwrap_or(usize::MAX)
    }

    /// A tie of `x` and `y`, the better seed first, settled at once when a
    /// slot is empty or a bot is absent.
    fn tie(&self, x: Option<usize>, y: Option<usize>) -> BracketSeries {
        let key = |b: Option<usize>| b.map_or(usize::MAX, |b| self.rank(b));
        let bots = if key(y) < key(x) { [y, x] } else { [x, y] };
        let mut tie = BracketSeries {
            bots,
            series: Vec::new(),
            winner: None,
            settled: None,
        };
        let present = |b: Option<usize>| b.filter(|b| !self.absent.contains(b));
        match bots {
            [Some(_), Some(_)] if present(bots[0]).is_none() || present(bots[1]).is_none() => {
                tie.winner = present(bots[0]).or(present(bots[1]));
                tie.settled = Some(Settled::Walkover);
            }
            [Some(_), Some(_)] => {}
            [one, other] => {
                // A lone bot that is absent goes no further either.
                tie.winner = present(one.or(other));
                tie.settled = Some(if one.or(other).is_some() && tie.winner.is_none() {
                    Settled::Walkover
                } else {
                    Settled::Bye
                });
            }
        }
        tie
    }

    /// Every series recorded so far is in (`results` by series index; the
    /// next series gets number `next`): settle the current round's ties,
    /// and give its deciders, or the next round's series, or nothing once
    /// the final is settled.
    pub(super) fn advance(&mut self, results: &[Option<SeriesResult>], next: usize) -> Step {
        let mut step = Step::default();
        if self.bracket.rounds.is_empty() {
            if self.seeds.len() < 2 {
                return step;
            }
            let slot = |p: usize| self.seeds.get(p - 1).copied();
            let positions = seeding_positions(self.bracket.size);
            let ties: Vec<BracketSeries> = positions
                .chunks(2)
                .map(|c| self.tie(slot(c[0]), slot(c[1])))
                .collect();
            self.open(ties, next, &mut step);
            if !step.series.is_empty() {
                return step;
            }
        } else {
            self.settle(results, next, &mut step);
            if !step.series.is_empty() {
                return step;
            }
        }
        // The round is settled: draw the next ones until one has series.
        loop {
            let last = self.bracket.rounds.last().expect("round 1 is drawn");
            if last.len() < 2 {
                return step;
            }
            let ties: Vec<BracketSeries> = last
                .chunks(2)
                .map(|c| self.tie(c[0].winner, c[1].winner))
                .collect();
            self.open(ties, next, &mut step);
            if !step.series.is_empty() {
                return step;
            }
        }
    }

    /// Adds `ties` as the next round, with a series for each tie of two
    /// present bots (numbered from `next`) and a bye for each lone winner.
    fn open(&mut self, mut ties: Vec<BracketSeries>, next: usize, step: &mut Step) {
        let round = self.bracket.rounds.len() as u32 + 1;
        for tie in &mut ties {
            match (tie.settled, tie.bots, tie.winner) {
                (None, [Some(x), Some(y)], _) => {
                    let number = next + step.series.len();
                    tie.series.push(number);
                    step.series.push(Series {
                        number,
                        round,
                        a: x.min(y),
                        b: x.max(y),
                    });
                }
                (Some(_), _, Some(w)) => step.byes.push((round, w)),
                _ => {}
            }
        }
        self.bracket.rounds.push(ties);
    }

    /// Settles the current round's open ties from their last series'
    /// results, adding a decider series for each drawn tie that may have
    /// one.
    fn settle(&mut self, results: &[Option<SeriesResult>], next: usize, step: &mut Step) {
        let decider = self.decider;
        let ties = self.bracket.rounds.last_mut().expect("a round is open");
        for tie in ties.iter_mut().filter(|t| t.settled.is_none()) {
            let last = *tie.series.last().expect("an open tie has a series");
            let Some(result) = results.get(last - 1).and_then(Option::as_ref) else {
                continue;
            };
            if let Some(w) = result.winner() {
                tie.winner = Some(w);
                tie.settled = Some(if tie.series.len() == 1 {
                    Settled::Series
                } else {
                    Settled::Decider
                });
            } else if decider == Decider::Pair && tie.series.len() <= MAX_DECIDER_PAIRS as usize {
                let number = next + step.series.len();
                tie.series.push(number);
                step.series.push(Series {
                    number,
                    ..result.series
                });
                step.decider = true;
            } else {
                tie.winner = tie.bots[0];
                tie.settled = Some(Settled::Seed);
            }
        }
    }

    /// The champion, once the final is settled (the only entrant, if one).
    pub(super) fn champion(&self) -> Option<usize> {
        if self.seeds.len() == 1 {
            return self
                .seeds
                .first()
                .copied()
                .filter(|b| !self.absent.contains(b));
        }
        let last = self.bracket.rounds.last()?;
        match last.as_slice() {
            [final_tie] if self.bracket.rounds.len() as u32 == self.bracket.total_rounds => {
                final_tie.winner
            }
            _ => None,
        }
    }

    /// Where the bots placed so far: the champion once known, and every bot
    /// out, by place, then seed.
    pub(super) fn placings(&self) -> Vec<Placing> {
        let total = self.bracket.total_rounds;
        let mut out: Vec<Placing> = self
            .champion()
            .map(|bot| Placing {
                bot,
                place: 1,
                out_in: None,
            })
            .into_iter()
            .collect();
        for (r, ties) in self.bracket.rounds.iter().enumerate() {
            let round = r as u32 + 1;
            for tie in ties.iter().filter(|t| t.settled.is_some()) {
                for bot in tie.bots.iter().flatten() {
                    if tie.winner != Some(*bot) {
                        out.push(Placing {
                            bot: *bot,
                            place: (1usize << (total - round)) + 1,
                            out_in: Some(round),
                        });
                    }
                }
            }
        }
        out.sort_by_key(|p| (p.place, self.rank(p.bot)));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::test_result as result;
    use crate::format::{Format, Plan};
    use proptest::prelude::*;
    use std::collections::HashSet;

    /// Plays `plan` out, taking series results from `outcome` (given the
    /// series and how many were played before), and returns the stages
    /// played.
    fn play(plan: &mut Plan, mut outcome: impl FnMut(Series, usize) -> (u32, u32)) -> Vec<Stage> {
        let mut stages = Vec::new();
        let mut played = 0;
        while let Some(stage) = plan.next_stage() {
            for s in &stage.series {
                let (w, l) = outcome(*s, played);
                played += 1;
                assert!(plan.record(&result(*s, w, l)));
            }
            stages.push(stage);
            assert!(stages.len() < 1000, "the knockout never ends");
        }
        stages
    }
    use crate::format::Stage;

    /// The plan of a knockout of the bots `seeds` (the best seed first),
    /// drawn ties settled by `decider`, the bots `absent` not started.
    fn knockout(seeds: &[usize], decider: Decider, absent: &[usize]) -> Plan {
        let format = Format::Knockout {
            seeds: seeds.to_vec(),
            decider,
        };
        Plan::new(&format, seeds.len(), absent)
    }

    #[test]
    fn seeding_positions_keep_the_top_seeds_apart() {
        assert_eq!(seeding_positions(1), vec![1]);
        assert_eq!(seeding_positions(2), vec![1, 2]);
        assert_eq!(seeding_positions(4), vec![1, 4, 2, 3]);
        assert_eq!(seeding_positions(8), vec![1, 8, 4, 5, 2, 7, 3, 6]);
        // Every round-1 tie sums to size + 1.
        let p = seeding_positions(16);
        assert!(p.chunks(2).all(|c| c[0] + c[1] == 17));
    }

    #[test]
    fn five_entrants_give_byes_to_the_top_three() {
        let plan = knockout(&[4, 3, 2, 1, 0], Decider::Seed, &[]);
        // Seeds 4 and 5 (bots 1 and 0) play; seeds 1, 2, 3 have byes.
        let stage = plan.next_stage().unwrap();
        assert_eq!(
            stage.series,
            vec![Series {
                number: 1,
                round: 1,
                a: 0,
                b: 1
            }]
        );
        let mut byes: Vec<usize> = plan
            .byes()
            .iter()
            .map(|&(r, b)| {
                assert_eq!(r, 1);
                b
            })
            .collect();
        byes.sort_unstable();
        assert_eq!(byes, vec![2, 3, 4]);
    }

    #[test]
    fn an_absent_bots_opponent_goes_through_unplayed() {
        // Seed 4 (bot 3) is absent: seed 1 (bot 0) goes through unplayed.
        let mut plan = knockout(&[0, 1, 2, 3], Decider::Seed, &[3]);
        let stage = plan.next_stage().unwrap();
        assert_eq!(stage.series.len(), 1);
        assert_eq!((stage.series[0].a, stage.series[0].b), (1, 2));
        let b = plan.bracket().unwrap();
        assert_eq!(b.rounds[0][0].settled, Some(Settled::Walkover));
        assert_eq!(b.rounds[0][0].winner, Some(0));
        // Bot 2 wins: the final is bot 0 v bot 2.
        plan.record(&result(stage.series[0], 0, 2));
        let fin = plan.next_stage().unwrap();
        assert_eq!(
            (fin.series[0].a, fin.series[0].b, fin.series[0].round),
            (0, 2, 2)
        );
        plan.record(&result(fin.series[0], 2, 1));
        assert!(plan.is_over());
        assert_eq!(plan.champion(), Some(0));
        let places: Vec<(usize, usize)> = plan
            .placings()
            .unwrap()
            .iter()
            .map(|p| (p.bot, p.place))
            .collect();
        assert_eq!(places, vec![(0, 1), (2, 2), (1, 3), (3, 3)]);
    }

    #[test]
    fn a_drawn_series_goes_to_deciders_then_the_better_seed() {
        let mut plan = knockout(&[1, 0], Decider::Pair, &[]);
        // Every series and decider drawn.
        let stages = play(&mut plan, |_, _| (1, 1));
        assert_eq!(stages.len(), 1 + MAX_DECIDER_PAIRS as usize);
        assert!(!stages[0].decider);
        assert!(stages[1..].iter().all(|s| s.decider && s.series.len() == 1));
        assert!(stages.iter().all(|s| s.series[0].round == 1));
        let tie = &plan.bracket().unwrap().rounds[0][0];
        assert_eq!(tie.settled, Some(Settled::Seed));
        assert_eq!(plan.champion(), Some(1), "bot 1 is the better seed");
        // With Decider::Seed no decider is played.
        let mut plan = knockout(&[1, 0], Decider::Seed, &[]);
        assert_eq!(play(&mut plan, |_, _| (1, 1)).len(), 1);
        assert_eq!(plan.champion(), Some(1));
    }

    #[test]
    fn a_decider_won_settles_the_tie() {
        let mut plan = knockout(&[0, 1], Decider::Pair, &[]);
        // The series is drawn, the first decider too, the second won by b.
        let stages = play(&mut plan, |_, n| if n < 2 { (1, 1) } else { (0, 2) });
        assert_eq!(stages.len(), 3);
        let tie = &plan.bracket().unwrap().rounds[0][0];
        assert_eq!(tie.series, vec![1, 2, 3]);
        assert_eq!(tie.settled, Some(Settled::Decider));
        assert_eq!(plan.champion(), Some(1));
        assert!(plan.is_decider(2) && plan.is_decider(3) && !plan.is_decider(1));
    }

    proptest! {
        /// For 3..=9 entrants with random results: round 1 has size/2 ties
        /// and each later round half the ties of the one before, whose
        /// entrants are the winners of the round before; byes only in
        /// round 1 and only to the top seeds; one champion; no bot plays
        /// after it lost; each drawn tie has at most MAX_DECIDER_PAIRS
        /// deciders, each in a decider stage, then the better seed.
        #[test]
        fn a_knockout_halves_each_round(
            n in 3usize..=9,
            order in Just((0..9usize).collect::<Vec<_>>()).prop_shuffle(),
            pair in any::<bool>(),
            results in proptest::collection::vec((0u32..3, 0u32..3), 64),
        ) {
            let seeds: Vec<usize> = order.into_iter().filter(|&b| b < n).collect();
            let decider = if pair { Decider::Pair } else { Decider::Seed };
            let format = Format::Knockout { seeds: seeds.clone(), decider };
            let mut plan = Plan::new(&format, n, &[]);
            let stages = play(&mut plan, |_, k| results[k % results.len()]);
            let b = plan.bracket().unwrap();
            let size = n.next_power_of_two();
            prop_assert_eq!(b.size, size);
            prop_assert_eq!(b.rounds.len() as u32, b.total_rounds);
            prop_assert_eq!(b.rounds[0].len(), size / 2);
            let entrants = |r: usize| b.rounds[r].iter().flat_map(|t| t.bots).flatten().count();
            prop_assert_eq!(entrants(0), n);
            for r in 1..b.rounds.len() {
                prop_assert_eq!(b.rounds[r].len() * 2, b.rounds[r - 1].len());
                // Round 2 is full (the byes made it so); from then on the
                // entrants halve.
                if r == 1 {
                    prop_assert_eq!(entrants(1), size / 2);
                } else {
                    prop_assert_eq!(entrants(r), entrants(r - 1).div_ceil(2));
                }
                // Round r's entrants are round r-1's winners, all present.
                let winners: Vec<usize> = b.rounds[r - 1].iter().map(|t| t.winner.unwrap()).collect();
                let mut entrants: Vec<usize> = b.rounds[r].iter().flat_map(|t| t.bots).flatten().collect();
                prop_assert_eq!(entrants.len(), winners.len());
                entrants.sort_unstable();
                let mut w = winners.clone();
                w.sort_unstable();
                prop_assert_eq!(entrants, w);
                for t in &b.rounds[r] {
                    prop_assert!(t.settled != Some(Settled::Bye), "a bye after round 1");
                }
            }
            // Byes: round 1 only, exactly seeds 1..=size-n.
            let mut byes: Vec<usize> = plan.byes().iter().map(|&(r, bot)| { assert_eq!(r, 1); bot }).collect();
            byes.sort_unstable();
            let mut top: Vec<usize> = seeds[..size - n].to_vec();
            top.sort_unstable();
            prop_assert_eq!(byes, top);
            // One champion; every other bot placed below it.
            let champion = plan.champion();
            prop_assert!(champion.is_some());
            let placings = plan.placings().unwrap();
            prop_assert_eq!(placings.len(), n);
            prop_assert_eq!(placings.iter().filter(|p| p.place == 1).count(), 1);
            prop_assert_eq!(placings[0].bot, champion.unwrap());
            // No bot plays after the series that put it out.
            let mut out = HashSet::new();
            for (r, ties) in b.rounds.iter().enumerate() {
                for t in ties {
                    for bot in t.bots.iter().flatten() {
                        prop_assert!(!out.contains(bot), "bot {} played in round {} after it lost", bot, r + 1);
                    }
                }
                for t in ties {
                    for bot in t.bots.iter().flatten() {
                        if t.winner != Some(*bot) { out.insert(*bot); }
                    }
                }
            }
            // Deciders: each drawn series led to a decider stage, at most
            // MAX_DECIDER_PAIRS per tie, then the better seed.
            for t in b.rounds.iter().flatten() {
                let drawn = t.series.iter().filter(|&&s| plan.result(s).unwrap().winner().is_none()).count();
                for &s in t.series.iter().skip(1) {
                    prop_assert!(plan.is_decider(s));
                    let stage = stages.iter().find(|st| st.series.iter().any(|x| x.number == s)).unwrap();
                    prop_assert!(stage.decider);
                }
                match decider {
                    Decider::Seed => prop_assert!(t.series.len() <= 1),
                    Decider::Pair => prop_assert!(t.series.len() <= 1 + MAX_DECIDER_PAIRS as usize),
                }
                if t.settled == Some(Settled::Seed) {
                    prop_assert_eq!(drawn, t.series.len());
                    prop_assert_eq!(t.winner, t.bots[0]);
                    if decider == Decider::Pair {
                        prop_assert_eq!(t.series.len(), 1 + MAX_DECIDER_PAIRS as usize);
                    }
                }
                if let Some(&last) = t.series.last() {
                    if let Some(w) = plan.result(last).unwrap().winner() {
                        prop_assert_eq!(t.winner, Some(w));
                    }
                }
            }
            for st in &stages {
                prop_assert!(st.series.iter().all(|s| plan.is_decider(s.number) == st.decider));
            }
        }
    }

    proptest! {
        /// With some bots absent: no absent bot ever plays, each present
        /// bot is placed once, and the champion is present (if any is).
        #[test]
        fn absent_bots_never_play(
            n in 3usize..=9,
            gone in proptest::collection::vec(0usize..9, 0..5),
            results in proptest::collection::vec((0u32..3, 0u32..3), 64),
        ) {
            let absent: Vec<usize> = gone.into_iter().filter(|&b| b < n).collect();
            let format = Format::Knockout { seeds: (0..n).collect(), decider: Decider::Pair };
            let mut plan = Plan::new(&format, n, &absent);
            play(&mut plan, |_, k| results[k % results.len()]);
            for s in plan.series() {
                prop_assert!(!absent.contains(&s.a) && !absent.contains(&s.b), "{:?}", s);
            }
            let champion = plan.champion();
            prop_assert_eq!(champion.is_some(), absent.iter().collect::<HashSet<_>>().len() < n);
            if let Some(c) = champion {
                prop_assert!(!absent.contains(&c));
            }
            let mut placed: Vec<usize> = plan.placings().unwrap().iter().map(|p| p.bot).collect();
            placed.sort_unstable();
            placed.dedup();
            // Every bot is placed: the absent ones out in round 1.
            prop_assert_eq!(placed.len(), n);
        }
    }
}
