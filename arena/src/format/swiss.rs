//! The Swiss system: the Dutch system's core (FIDE Handbook C.04.3).
//!
//! The rules (docs/formats.md repeats them):
//! - Series points: a series won is 1, drawn (equal game wins) 0.5, lost
//!   0; a bye is 1.
//! - Before each round the present bots are ranked by points, most first,
//!   then by seed. Bots that did not start (absent) are never paired.
//! - An odd count gives one bot a bye: the lowest-ranked bot of those with
//!   the fewest byes (no bye yet, as long as one has none), moving up while
//!   the rest cannot then be paired without a repeat.
//! - Pairing, with backtracking: the top unpaired bot `p`, in its score
//!   group (the `m` unpaired bots with its points, in rank order, `p` at
//!   position 0), prefers the group's bots at positions `m/2, m/2 + 1, ...,
//!   m - 1` (S2 in order: so a group of 4 plays 1 v 3 and 2 v 4), then the
//!   group's S1 bots from the bottom up, then the lower groups' bots in
//!   rank order (a floater); a bot it has met is skipped; when no bot is
//!   left for some `p`, the search goes back to the last choice and takes
//!   the next.
//! - When no pairing (with a bye as above) avoids every repeat, or the
//!   search has tried [`STEP_BUDGET`] pairs first (a large field late in
//!   the tournament could otherwise take very long), the round is paired
//!   again allowing repeats: the bye to the lowest-ranked bot with the
//!   fewest byes, and each top unpaired bot, in turn, with the bot it has
//!   met fewest times, the earlier in its preference order on a tie.
//! - Standings: points, then Buchholz (the sum of the points of each
//!   opponent met, once per meeting; a bye adds nothing), then seed.

use super::Step;
use crate::schedule::Series;
use crate::series::SeriesResult;

/// The most pairs the repeat-free search of one round tries before the
/// round is paired allowing repeats.
pub const STEP_BUDGET: u64 = 100_000;

/// A Swiss tournament's standings, for the report.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct SwissStandings {
    /// The number of rounds paired so far.
    pub rounds_paired: u32,
    /// The rows, best first: the present bots by points, Buchholz, then
    /// seed; then the bots that did not start, by seed.
    pub rows: Vec<SwissRow>,
}

/// One bot's row of the Swiss standings.
#[derive(Clone, Debug, PartialEq)]
pub struct SwissRow {
    /// The bot (an index).
    pub bot: usize,
    /// Its rank, from 1 (no two rows share one: the seed breaks ties).
    pub rank: usize,
    /// Its seed, from 1.
    pub seed: usize,
    /// Points: 1 a series won or a bye, 0.5 a drawn series.
    pub points: f64,
    /// Buchholz: the sum of the points of each opponent met.
    pub buchholz: f64,
    /// Series won, drawn and lost (recorded ones).
    pub won: u32,
    /// Series drawn.
    pub drawn: u32,
    /// Series lost.
    pub lost: u32,
    /// Byes had.
    pub byes: u32,
    /// Whether the bot did not start (never paired).
    pub absent: bool,
}

/// A Swiss tournament's course.
#[derive(Clone, Debug)]
pub(super) struct Swiss {
    /// The bots, best seed first.
    seeds: Vec<usize>,
    rounds: u32,
    absent: Vec<usize>,
    /// Each bot's seed rank (0 the best), by bot index; `None` unseeded.
    rank: Vec<Option<usize>>,
    /// Rounds paired so far.
    paired: u32,
}

/// The field of one round, in rank order: position `i` is the `i`-th
/// ranked present bot.
#[derive(Clone, Debug)]
pub(super) struct Field {
    /// Half-points of each.
    pub points: Vec<u32>,
    /// Times each two have met.
    pub met: Vec<Vec<u32>>,
    /// Byes each has had.
    pub byes: Vec<u32>,
}

/// A round's pairing over a [`Field`]'s positions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Pairing {
    /// Pairs `(higher-ranked, lower-ranked)`, in the order made.
    pub pairs: Vec<(usize, usize)>,
    /// The position with the bye, if the count is odd.
    pub bye: Option<usize>,
}

/// The search ran past its budget.
struct OutOfSteps;

impl Field {
    /// `p`'s candidates in preference order among the unpaired (see the
    /// module's rules); `p` is the top unpaired position.
    fn preference(&self, paired: &[bool], p: usize) -> Vec<usize> {
        let unpaired: Vec<usize> = (0..paired.len())
            .filter(|&i| !paired[i] || i == p)
            .collect();
        let m = unpaired
            .iter()
            .take_while(|&&i| self.points[i] == self.points[p])
            .count();
        let group = &unpaired[..m];
        let s2 = (m / 2).max(1);
        let mut out: Vec<usize> = group[s2..].to_vec();
        out.extend(group[1..s2].iter().rev());
        out.extend(&unpaired[m..]);
        out
    }

    /// The pairing of this field: repeat-free if one is found within
    /// `budget` pairs tried, else allowing repeats.
    pub(super) fn pair(&self, budget: u64) -> Pairing {
        let n = self.points.len();
        let fewest = self.byes.iter().copied().min().unwrap_or(0);
        let bye_order: Vec<usize> = (0..n).rev().filter(|&i| self.byes[i] == fewest).collect();
        let mut steps = 0;
        let candidates: Vec<Option<usize>> = if n % 2 == 1 {
            bye_order.iter().map(|&i| Some(i)).collect()
        } else {
            vec![None]
        };
        for &bye in &candidates {
            let mut paired = vec![false; n];
            if let Some(b) = bye {
                paired[b] = true;
            }
            let mut pairs = Vec::new();
            match self.search(&mut paired, &mut pairs, &mut steps, budget) {
                Ok(true) => return Pairing { pairs, bye },
                Ok(false) => {}
                Err(OutOfSteps) => break,
            }
        }
        self.pair_allowing_repeats(candidates[0])
    }

    /// The depth-first, repeat-free search: pairs the top unpaired bot
    /// with each candidate it has not met in turn; `Ok(false)` when none
    /// leads to a whole pairing.
    fn search(
        &self,
        paired: &mut [bool],
        pairs: &mut Vec<(usize, usize)>,
        steps: &mut u64,
        budget: u64,
    ) -> Result<bool, OutOfSteps> {
        let Some(p) = paired.iter().position(|&x| !x) else {
            return Ok(true);
        };
        for q in self.preference(paired, p) {
            if self.met[p][q] > 0 {
                continue;
            }
            *steps += 1;
            if *steps > budget {
                return Err(OutOfSteps);
            }
            paired[p] = true;
            paired[q] = true;
            pairs.push((p, q));
            if self.search(paired, pairs, steps, budget)? {
                return Ok(true);
            }
            pairs.pop();
            paired[p] = false;
            paired[q] = false;
        }
        Ok(false)
    }

    /// Pairs each top unpaired bot with its candidate met fewest times.
    fn pair_allowing_repeats(&self, bye: Option<usize>) -> Pairing {
        let n = self.points.len();
        let mut paired = vec![false; n];
        if let Some(b) = bye {
            paired[b] = true;
        }
        let mut pairs = Vec::new();
        while let Some(p) = paired.iter().position(|&x| !x) {
            let prefs = self.preference(&paired, p);
            // min_by_key keeps the first of equal keys: preference order.
            let Some(q) = prefs.into_iter().min_by_key(|&q| self.met[p][q]) else {
                break;
            };
            paired[p] = true;
            paired[q] = true;
            pairs.push((p, q));
        }
        Pairing { pairs, bye }
    }
}

/// A bot's tally from the series recorded so far.
#[derive(Clone, Copy, Debug, Default)]
struct Tally {
    half_points: u32,
    won: u32,
    drawn: u32,
    lost: u32,
    byes: u32,
}

impl Swiss {
    /// A Swiss of `rounds` rounds over `seeds` (best first), `absent` left
    /// out, before round 1 is paired.
    pub(super) fn new(seeds: &[usize], rounds: u32, absent: &[usize]) -> Swiss {
        let mut rank = vec![None; seeds.iter().max().map_or(0, |&m| m + 1)];
        for (i, &bot) in seeds.iter().enumerate() {
            rank[bot] = Some(i);
        }
        Swiss {
            seeds: seeds.to_vec(),
            rounds,
            absent: absent.to_vec(),
            rank,
            paired: 0,
        }
    }

    /// A bot's seed rank (0 the best); `None` if it is not seeded.
    fn rank(&self, bot: usize) -> Option<usize> {
        self.rank.get(bot).copied().flatten()
    }

    /// Each seed's tally (by seed rank) from the series and byes so far.
    fn tallies(&self, results: &[Option<SeriesResult>], byes: &[(u32, usize)]) -> Vec<Tally> {
        let mut t = vec![Tally::default(); self.seeds.len()];
        let rank = |bot: usize| self.rank(bot);
        for r in results.iter().flatten() {
            let (Some(a), Some(b)) = (rank(r.series.a), rank(r.series.b)) else {
                continue;
            };
            match r.winner() {
                Some(w) => {
                    let (win, lose) = if w == r.series.a { (a, b) } else { (b, a) };
                    t[win].half_points += 2;
                    t[win].won += 1;
                    t[lose].lost += 1;
                }
                None => {
                    for x in [a, b] {
                        t[x].half_points += 1;
                        t[x].drawn += 1;
                    }
                }
            }
        }
        for &(_, bot) in byes {
            if let Some(x) = rank(bot) {
                t[x].half_points += 2;
                t[x].byes += 1;
            }
        }
        t
    }

    /// Every series so far is recorded: pair the next round (numbered from
    /// `next`), skipping rounds with no series (a lone bot's bye), or
    /// nothing once every round is paired.
    pub(super) fn advance(
        &mut self,
        series: &[Series],
        results: &[Option<SeriesResult>],
        byes: &[(u32, usize)],
        next: usize,
    ) -> Step {
        let mut step = Step::default();
        while self.paired < self.rounds && step.series.is_empty() {
            self.paired += 1;
            let round = self.paired;
            let mut all_byes = byes.to_vec();
            all_byes.extend(&step.byes);
            let tallies = self.tallies(results, &all_byes);
            // Present bots by points, then seed (seed ranks).
            let mut ranked: Vec<usize> = (0..self.seeds.len())
                .filter(|&i| !self.absent.contains(&self.seeds[i]))
                .collect();
            ranked.sort_by_key(|&i| (std::cmp::Reverse(tallies[i].half_points), i));
            let bots: Vec<usize> = ranked.iter().map(|&i| self.seeds[i]).collect();
            // Times each two positions have met, from every series so far.
            let mut position = vec![None; self.seeds.len()];
            for (p, &i) in ranked.iter().enumerate() {
                position[i] = Some(p);
            }
            let mut met = vec![vec![0; ranked.len()]; ranked.len()];
            for x in series {
                let at = |bot: usize| self.rank(bot).and_then(|i| position[i]);
                if let (Some(p), Some(q)) = (at(x.a), at(x.b)) {
                    met[p][q] += 1;
                    met[q][p] += 1;
                }
            }
            let field = Field {
                points: ranked.iter().map(|&i| tallies[i].half_points).collect(),
                met,
                byes: ranked.iter().map(|&i| tallies[i].byes).collect(),
            };
            let pairing = field.pair(STEP_BUDGET);
            if let Some(b) = pairing.bye {
                step.byes.push((round, bots[b]));
            }
            for (p, q) in pairing.pairs {
                let (x, y) = (bots[p], bots[q]);
                step.series.push(Series {
                    number: next + step.series.len(),
                    round,
                    a: x.min(y),
                    b: x.max(y),
                });
            }
        }
        step
    }

    /// The standings from the series recorded and the byes so far.
    pub(super) fn standings(
        &self,
        results: &[Option<SeriesResult>],
        byes: &[(u32, usize)],
    ) -> SwissStandings {
        let t = self.tallies(results, byes);
        let rank = |bot: usize| self.rank(bot);
        let mut buchholz = vec![0u32; self.seeds.len()];
        for r in results.iter().flatten() {
            if let (Some(a), Some(b)) = (rank(r.series.a), rank(r.series.b)) {
                buchholz[a] += t[b].half_points;
                buchholz[b] += t[a].half_points;
            }
        }
        let mut order: Vec<usize> = (0..self.seeds.len()).collect();
        let absent = |i: usize| self.absent.contains(&self.seeds[i]);
        order.sort_by_key(|&i| {
            (
                absent(i),
                std::cmp::Reverse(t[i].half_points),
                std::cmp::Reverse(buchholz[i]),
                i,
            )
        });
        let rows = order
            .iter()
            .enumerate()
            .map(|(k, &i)| SwissRow {
                bot: self.seeds[i],
                rank: k + 1,
                seed: i + 1,
                points: f64::from(t[i].half_points) / 2.0,
                buchholz: f64::from(buchholz[i]) / 2.0,
                won: t[i].won,
                drawn: t[i].drawn,
                lost: t[i].lost,
                byes: t[i].byes,
                absent: absent(i),
            })
            .collect();
        SwissStandings {
            rounds_paired: self.paired,
            rows,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::test_result as result;
    use crate::format::{Format, Plan};
    use proptest::prelude::*;
    use std::collections::HashSet;

    fn pairs(stage: &[Series]) -> Vec<(usize, usize)> {
        let mut p: Vec<(usize, usize)> = stage.iter().map(|s| (s.a, s.b)).collect();
        p.sort_unstable();
        p
    }

    fn swiss(n: usize, rounds: u32) -> Format {
        Format::Swiss {
            seeds: (0..n).collect(),
            rounds,
        }
    }

    #[test]
    fn round_one_pairs_the_top_half_with_the_bottom_half() {
        let plan = Plan::new(&swiss(8, 3), 8, &[]);
        let s = plan.next_stage().unwrap();
        assert_eq!(pairs(&s.series), vec![(0, 4), (1, 5), (2, 6), (3, 7)]);
        assert!(s.series.iter().all(|x| x.round == 1));
        // Odd: the lowest seed has the bye, the rest split in halves.
        let plan = Plan::new(&swiss(5, 3), 5, &[]);
        assert_eq!(plan.byes(), &[(1, 4)]);
        assert_eq!(
            pairs(&plan.next_stage().unwrap().series),
            vec![(0, 2), (1, 3)]
        );
    }

    #[test]
    fn round_two_of_four_pairs_winners_and_losers() {
        // Seeds 1..4 are bots 0..3. Round 1 by the rule: 1 v 3, 2 v 4.
        let mut plan = Plan::new(&swiss(4, 3), 4, &[]);
        let r1 = plan.next_stage().unwrap().series;
        assert_eq!(pairs(&r1), vec![(0, 2), (1, 3)]);
        // Seed 3 (bot 2) beats seed 1; seed 2 (bot 1) beats seed 4.
        for s in &r1 {
            let (w, l) = if (s.a, s.b) == (0, 2) { (0, 2) } else { (2, 0) };
            plan.record(&result(*s, w, l));
        }
        // Ranking: bot 1 (1 pt, seed 2), bot 2 (1 pt, seed 3), then bot 0
        // and bot 3 (0 pt). The winners' group {1, 2} pairs 1 v 2, the
        // losers' group {0, 3} pairs 0 v 3.
        let r2 = plan.next_stage().unwrap().series;
        assert_eq!(pairs(&r2), vec![(0, 3), (1, 2)]);
        assert!(r2.iter().all(|x| x.round == 2));
        // Bots 0 and 1 (each series' a) win. Ranking: bot 1 (2 pts), then
        // bots 0 and 2 (1 pt; bot 0 the better seed), then bot 3. Bot 1's
        // group is itself alone, so it takes the lower groups in rank
        // order: bot 0, not met; then bot 2 v bot 3, not met.
        for s in &r2 {
            plan.record(&result(*s, 2, 0));
        }
        let r3 = plan.next_stage().unwrap().series;
        assert_eq!(pairs(&r3), vec![(0, 1), (2, 3)]);
        for s in &r3 {
            plan.record(&result(*s, 1, 1));
        }
        assert!(plan.is_over());
        let st = plan.swiss_standings().unwrap();
        // Bot 1: won, won, drew = 2.5; bot 0: lost, won, drew = 1.5;
        // bot 2: won, lost, drew = 1.5; bot 3: lost, lost, drew = 0.5.
        let rows: Vec<(usize, f64)> = st.rows.iter().map(|r| (r.bot, r.points)).collect();
        // Buchholz: bot 0 met 2, 3, 1: 1.5 + 0.5 + 2.5 = 4.5; bot 2 met 0,
        // 1, 3: 1.5 + 2.5 + 0.5 = 4.5: equal, so seed: bot 0 first.
        assert_eq!(rows, vec![(1, 2.5), (0, 1.5), (2, 1.5), (3, 0.5)]);
        assert_eq!(st.rows[1].buchholz, 4.5);
        assert_eq!(plan.champion(), Some(1));
    }

    #[test]
    fn absent_bots_are_never_paired() {
        let plan = Plan::new(&swiss(5, 2), 5, &[0]);
        let s = plan.next_stage().unwrap();
        // Bots 1..4 rank 1..4: 1 v 3, 2 v 4; no bye.
        assert_eq!(pairs(&s.series), vec![(1, 3), (2, 4)]);
        assert!(plan.byes().is_empty());
        let st = plan.swiss_standings().unwrap();
        assert!(st.rows.last().unwrap().absent && st.rows.last().unwrap().bot == 0);
    }

    /// A field of `n` bots on `points` (half-points, rank order) with the
    /// meetings `met` (position pairs) and no byes.
    fn field(points: &[u32], met: &[(usize, usize)]) -> Field {
        let n = points.len();
        let mut m = vec![vec![0; n]; n];
        for &(p, q) in met {
            m[p][q] += 1;
            m[q][p] += 1;
        }
        Field {
            points: points.to_vec(),
            met: m,
            byes: vec![0; n],
        }
    }

    #[test]
    fn the_top_bot_prefers_s2_then_s1_from_the_bottom_then_lower_groups() {
        // A score group of 6 (positions 0..5), then 2 bots on less.
        let f = field(&[2, 2, 2, 2, 2, 2, 0, 0], &[]);
        let none = vec![false; 8];
        assert_eq!(f.preference(&none, 0), vec![3, 4, 5, 2, 1, 6, 7]);
        // A group of 1 floats at once: the lower groups in rank order.
        let f = field(&[4, 2, 2, 0], &[]);
        assert_eq!(f.preference(&[false; 4], 0), vec![1, 2, 3]);
    }

    #[test]
    fn a_met_opponent_is_skipped_as_the_dutch_transposition_does() {
        // Six on equal points; 1 has met 4 (1-based). Dutch: S1 = {1, 2,
        // 3}, S2 = {4, 5, 6}; 1 v 4 is barred, so S2 transposes to 5, 4, 6:
        // 1 v 5, 2 v 4, 3 v 6.
        let f = field(&[0; 6], &[(0, 3)]);
        assert_eq!(
            f.pair(STEP_BUDGET),
            Pairing {
                pairs: vec![(0, 4), (1, 3), (2, 5)],
                bye: None
            }
        );
    }

    #[test]
    fn the_bye_moves_up_when_the_rest_cannot_be_paired() {
        // Three bots; 1 and 2 (positions 0, 1) have met: a bye to 3 would
        // leave them a repeat, so the bye moves up to 2, and 1 plays 3.
        let f = field(&[0; 3], &[(0, 1)]);
        assert_eq!(
            f.pair(STEP_BUDGET),
            Pairing {
                pairs: vec![(0, 2)],
                bye: Some(1)
            }
        );
        // Out of budget the bye goes to the lowest-ranked bot with the
        // fewest byes, and the rest pair allowing repeats.
        let mut f = field(&[0; 3], &[(0, 1)]);
        f.byes = vec![0, 0, 1];
        assert_eq!(
            f.pair(0),
            Pairing {
                pairs: vec![(0, 2)],
                bye: Some(1)
            }
        );
    }

    #[test]
    fn out_of_budget_pairs_allowing_repeats() {
        // Four bots that have all met: no repeat-free pairing; and with a
        // budget of 0 the search gives up at once. Either way a whole
        // pairing, each bot with one it met fewest times.
        let mut met = vec![vec![1; 4]; 4];
        met[0][2] = 2;
        met[2][0] = 2;
        let field = Field {
            points: vec![2, 2, 0, 0],
            met,
            byes: vec![0; 4],
        };
        for budget in [0, STEP_BUDGET] {
            let p = field.pair(budget);
            assert_eq!(p.bye, None);
            assert_eq!(p.pairs, vec![(0, 1), (2, 3)]);
        }
        // A budget of 0 on a field with a repeat-free pairing still pairs
        // everyone.
        let field = Field {
            points: vec![0; 6],
            met: vec![vec![0; 6]; 6],
            byes: vec![0; 6],
        };
        let p = field.pair(0);
        assert_eq!(p.pairs.len(), 3);
    }

    /// Whether `bots` (minus a bye to one of `bye_ok`, when odd) can be
    /// paired with no two that have met: brute force.
    fn repeat_free_exists(bots: &[usize], met: &HashSet<(usize, usize)>, bye_ok: &[usize]) -> bool {
        fn go(left: &[usize], met: &HashSet<(usize, usize)>) -> bool {
            let Some((&p, rest)) = left.split_first() else {
                return true;
            };
            rest.iter().enumerate().any(|(k, &q)| {
                !met.contains(&(p.min(q), p.max(q))) && {
                    let mut r = rest.to_vec();
                    r.remove(k);
                    go(&r, met)
                }
            })
        }
        if bots.len().is_multiple_of(2) {
            go(bots, met)
        } else {
            bye_ok.iter().any(|b| {
                let r: Vec<usize> = bots.iter().copied().filter(|x| x != b).collect();
                go(&r, met)
            })
        }
    }

    proptest! {
        /// For 3..=9 bots (some absent) over up to 10 rounds with random
        /// results: each round every present bot plays once or has the
        /// bye, at most one bye and only on an odd count, never a repeat
        /// while a repeat-free pairing with a valid bye exists (brute
        /// force), byes spread evenly, absent bots never paired, and the
        /// points add up.
        #[test]
        fn swiss_rounds_pair_everyone_without_needless_repeats(
            n in 3usize..=9,
            order in Just((0..9usize).collect::<Vec<_>>()).prop_shuffle(),
            rounds in 1u32..=10,
            absent_pick in proptest::collection::vec(0usize..40, 0..2),
            results in proptest::collection::vec((0u32..3, 0u32..3), 64),
        ) {
            let seeds: Vec<usize> = order.into_iter().filter(|&b| b < n).collect();
            let absent: Vec<usize> = absent_pick.into_iter().filter(|&b| b < n).collect();
            let present: Vec<usize> = (0..n).filter(|b| !absent.contains(b)).collect();
            let mut plan = Plan::new(&Format::Swiss { seeds: seeds.clone(), rounds }, n, &absent);
            let mut met: HashSet<(usize, usize)> = HashSet::new();
            let mut bye_count = vec![0u32; n];
            let mut k = 0;
            let mut round = 0;
            while let Some(stage) = plan.next_stage() {
                round += 1;
                prop_assert!(!stage.decider);
                prop_assert!(stage.series.iter().all(|s| s.round == round));
                let byes: Vec<usize> = plan.byes().iter().filter(|b| b.0 == round).map(|b| b.1).collect();
                prop_assert!(byes.len() == present.len() % 2);
                // Every present bot once; absent bots never.
                let mut seen: Vec<usize> = stage.series.iter().flat_map(|s| [s.a, s.b]).chain(byes.iter().copied()).collect();
                seen.sort_unstable();
                prop_assert_eq!(&seen, &present);
                // The valid byes: the present bots with the fewest byes.
                let fewest = present.iter().map(|&b| bye_count[b]).min().unwrap();
                let bye_ok: Vec<usize> = present.iter().copied().filter(|&b| bye_count[b] == fewest).collect();
                for b in &byes {
                    prop_assert!(bye_ok.contains(b), "bye to bot {} with {} byes", b, bye_count[*b]);
                    bye_count[*b] += 1;
                }
                let repeats = stage.series.iter().any(|s| met.contains(&(s.a, s.b)));
                if repeats {
                    prop_assert!(!repeat_free_exists(&present, &met, &bye_ok), "round {} repeats a pairing needlessly", round);
                }
                for s in &stage.series {
                    met.insert((s.a, s.b));
                    let (w, l) = results[k % results.len()];
                    k += 1;
                    prop_assert!(plan.record(&result(*s, w, l)));
                }
            }
            prop_assert_eq!(round, if present.len() < 2 { 0 } else { rounds });
            // Byes spread: no bot two more than another.
            let counts: Vec<u32> = present.iter().map(|&b| bye_count[b]).collect();
            prop_assert!(counts.iter().max().unwrap() - counts.iter().min().unwrap() <= 1);
            // Points add up: one per series and per bye.
            let st = plan.swiss_standings().unwrap();
            let total: f64 = st.rows.iter().map(|r| r.points).sum();
            prop_assert_eq!(total, (plan.series().len() + plan.byes().len()) as f64);
            for r in &st.rows {
                prop_assert_eq!(r.points, f64::from(r.won) + f64::from(r.drawn) / 2.0 + f64::from(r.byes));
                prop_assert_eq!(r.absent, absent.contains(&r.bot));
            }
            let ranks: Vec<usize> = st.rows.iter().map(|r| r.rank).collect();
            prop_assert_eq!(ranks, (1..=n).collect::<Vec<_>>());
        }
    }

    #[test]
    fn a_large_field_pairs_every_round_without_repeats() {
        // 101 bots, 9 rounds; the better seed wins every series.
        let mut plan = Plan::new(&swiss(101, 9), 101, &[]);
        let mut met = HashSet::new();
        let mut rounds = 0;
        while let Some(stage) = plan.next_stage() {
            rounds += 1;
            assert_eq!(stage.series.len(), 50);
            for s in &stage.series {
                assert!(met.insert((s.a, s.b)), "round {rounds} repeats {s:?}");
                plan.record(&result(*s, 2, 0));
            }
        }
        assert_eq!(rounds, 9);
        assert_eq!(plan.byes().len(), 9);
        let byes: HashSet<usize> = plan.byes().iter().map(|b| b.1).collect();
        assert_eq!(byes.len(), 9, "nine different bots had the byes");
        // Seed 1 won every series.
        let st = plan.swiss_standings().unwrap();
        assert_eq!((st.rows[0].bot, st.rows[0].points), (0, 9.0));
    }
}
