//! The league: a population ranked by rounds in which every bot plays once,
//! paired by the current joint ratings so that the games go where they
//! inform most (docs/formats.md, "League", repeats the rules).
//!
//! Before each round the games so far are fitted once (the Bradley–Terry
//! fit of [`crate::stats`], with [`MEAN_DRAWS`] of each bot against the
//! population's mean), and the round is paired greedily over the
//! bots sorted by rating, in `O(n log n)`:
//! - an odd count gives one bot a bye (no games): one of those with the
//!   fewest byes, the one with the most games among them, then by a
//!   seeded lot;
//! - the bots are taken in priority order, fewest games first (new bots
//!   first), then the most uncertain rating, then by a seeded lot; each
//!   draws a rating at a normal distance from its own (standard deviation
//!   [`SPREAD_ELO`], seeded) and takes the unpaired bot nearest that
//!   rating, drawing again (up to [`DRAWS`] times) while that bot is one
//!   it has met; when every draw was a repeat it takes, among the
//!   [`WIDE_WINDOW`] nearest unpaired bots on either side, the one it has
//!   met fewest times, then the best match quality: the
//!   two-player match quality of TrueSkill (Herbrich, Minka & Graepel,
//!   "TrueSkill: A Bayesian Skill Rating System", NIPS 2006, eq. 4 with
//!   two players): `sqrt(2β² / c²) · exp(-(μ₁ - μ₂)² / (2c²))`, with
//!   `c² = 2β² + σ₁² + σ₂²`, the draw probability of two players under the
//!   model. Opponents near in rating give games near even odds (the most
//!   informative single games), and the random distance links the
//!   population into one well-connected graph, whose fit places every bot
//!   against all the others, not only along a chain of neighbours (the
//!   nearest-neighbour pairing this replaced ranked no better than random
//!   pairings: docs/formats.md, "League");
//! - a rating's uncertainty `σ` is the standard deviation of the
//!   ratings' fit (the bootstrap's, when `settle_los` asks for LOS),
//!   or, without `settle_los`, the curvature of the bot's own rating
//!   alone, `1 / sqrt(Σ_j n_ij E_ij (1 - E_ij))` in natural units
//!   (prior draws counted): the Fisher information of its rating with the
//!   others held fixed; [`NEW_SD`] for a bot without games.
//!
//! With `pairing = "random"` ([`PairBy::Random`]) a round is instead a
//! seeded random perfect matching (the bye as above, repeats allowed): the
//! control that the rating pairing is measured against.
//!
//! The league stops after `rounds`, or once settled (`settle_los`: every
//! two neighbours of the ranking, by rating, one group, decided at that
//! likelihood of superiority), or when the run is stopped.
//!
//! Pure: a function of the settings, the bots and the series results so
//! far, so a resumed run pairs every round again exactly.

use std::collections::{BTreeSet, HashMap};

pub use super::meetings::Met;
use super::meetings::{Meetings, PairTotals};
use super::roster::Roster;
use super::Step;
use crate::schedule::Series;
use crate::series::SeriesResult;
use crate::stats::{self, PairResult, RatingOptions};

/// How far a bot looks on each side when every opponent it drew is one
/// it has met already.
pub const WIDE_WINDOW: usize = 64;

/// The spread (standard deviation) of the rating differences a bot's
/// opponents are drawn at, Elo points: wide enough that the games link
/// every part of the population to every other in a few steps (an
/// expander, not a chain of neighbours), narrow enough that each game
/// stays nearly as informative as one at even odds (`E (1 - E)` is 0.235
/// at 100 Elo against 0.25). docs/formats.md, "League", gives the
/// measurements it was chosen by.
pub const SPREAD_ELO: f64 = 100.0;

/// The opponents a bot draws at most before it falls back to the window
/// scan, when each one drawn is one it has met.
pub const DRAWS: u32 = 8;

/// The per-game performance spread `β` of the match quality, Elo points:
/// the spread of the logistic Elo model's game (scale `400 / ln 10`), whose
/// difference of two performances has a standard deviation of about
/// `π / √3 · 173.7 ≈ 315`, so `β ≈ 315 / √2 ≈ 223`; rounded to 200.
pub const BETA_ELO: f64 = 200.0;

/// The uncertainty of a bot without games, Elo points: Glicko's 350 for
/// an unrated player (Glickman, "The Glicko system", 1995).
pub const NEW_SD: f64 = 350.0;

/// The most rounds of a league: its length when `rounds` is not set (it
/// then goes on until stopped, or settled).
pub const MAX_ROUNDS: u32 = 1_000_000;

/// How a league pairs its rounds (`[tournament] pairing`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum PairBy {
    /// By the current ratings (the module's rules): `pairing = "rating"`,
    /// the default.
    #[default]
    Rating,
    /// A seeded random perfect matching each round, repeats allowed, the
    /// bye as by rating: `pairing = "random"`, the control to compare the
    /// rating pairing against.
    Random,
}

/// A league's settings (`[tournament] format = "league"`).
#[derive(Clone, Copy, Debug)]
pub struct LeagueSettings {
    /// The number of rounds; `None`: until stopped (at most
    /// [`MAX_ROUNDS`]).
    pub rounds: Option<u32>,
    /// Stop once every two neighbours of the ranking are decided at this
    /// likelihood of superiority (a fraction in `0.5..1`); `None`: never.
    pub settle_los: Option<f64>,
    /// The seed of the lots that break ties (the tournament's seed).
    pub seed: u64,
    /// The ratings' virtual draws per pair (`[ratings] prior_draws`).
    pub prior_draws: f64,
    /// The ratings' bootstrap samples (`[ratings] bootstrap`), for the LOS
    /// of `settle_los`.
    pub bootstrap: u32,
    /// How the rounds are paired.
    pub pairing: PairBy,
}

impl PartialEq for LeagueSettings {
    fn eq(&self, other: &Self) -> bool {
        self.rounds == other.rounds
            && self.settle_los.map(f64::to_bits) == other.settle_los.map(f64::to_bits)
            && self.seed == other.seed
            && self.prior_draws.to_bits() == other.prior_draws.to_bits()
            && self.bootstrap == other.bootstrap
            && self.pairing == other.pairing
    }
}

impl Eq for LeagueSettings {}

impl LeagueSettings {
    /// The rounds it plays at most.
    #[must_use]
    pub fn max_rounds(&self) -> u32 {
        self.rounds.unwrap_or(MAX_ROUNDS)
    }
}

/// A bot as the pairing of one round sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Entrant {
    /// The bot (an index into the config's bots).
    pub bot: usize,
    /// Its rating before the round, Elo points.
    pub elo: f64,
    /// Its rating's standard deviation, Elo points.
    pub sd: f64,
    /// Its games so far.
    pub games: u64,
    /// Its byes so far.
    pub byes: u32,
}

/// One round's pairing: bot pairs and the bye.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct RoundPairing {
    /// Pairs of bots, in the order they were made (the bot that chose
    /// first, then its opponent).
    pub pairs: Vec<(usize, usize)>,
    /// The bot with the bye, with an odd count.
    pub bye: Option<usize>,
}

/// One pairing of a league, as `league.csv` lists it: who met whom and
/// their ratings when they were paired.
#[derive(Clone, Debug, PartialEq)]
pub struct LeaguePairing {
    /// The round, from 1.
    pub round: u32,
    /// The series' number; `None` for a bye.
    pub series: Option<usize>,
    /// The first bot (South in the series' first game), and its rating
    /// then.
    pub south: Entrant,
    /// The other bot (North in the first game); `None` for a bye.
    pub north: Option<Entrant>,
}

/// How a league stands: the rounds paired and why it stopped.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct LeagueCourse {
    /// The rounds paired so far.
    pub rounds_paired: u32,
    /// Whether `settle_los` ended it: every two neighbours decided.
    pub settled: bool,
    /// Every pairing so far, round by round.
    pub pairings: Vec<LeaguePairing>,
}

/// A league's course.
#[derive(Clone, Debug)]
pub(super) struct League {
    settings: LeagueSettings,
    /// Who is in which round (the bots' number is its length).
    roster: Roster,
    course: LeagueCourse,
    /// The games so far as per-pair totals: what the fit and the pairing
    /// read, `O(distinct pairs)`.
    totals: PairTotals,
    /// The series results added to `totals` (the plan's first ones).
    added: usize,
}

/// A seeded lot for bot `bot` in round `round`: SplitMix64's finaliser of
/// their mix (Steele, Lea & Flood 2014), a tie-break that is a pure
/// function of its inputs.
fn lot(seed: u64, round: u32, bot: usize) -> u64 {
    let mut z = seed
        ^ u64::from(round).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ (bot as u64).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// TrueSkill's two-player match quality of `a` and `b` (see the module's
/// doc), in `0..=1`.
#[must_use]
pub fn match_quality(a: &Entrant, b: &Entrant) -> f64 {
    let beta2 = 2.0 * BETA_ELO * BETA_ELO;
    let c2 = beta2 + a.sd * a.sd + b.sd * b.sd;
    let d = a.elo - b.elo;
    (beta2 / c2).sqrt() * (-d * d / (2.0 * c2)).exp()
}

fn met_count<M: Meetings + ?Sized>(met: &M, a: usize, b: usize) -> u32 {
    met.met(a, b)
}

/// Pairs one round of `entrants` (see the module's rules), `met` the
/// meetings so far, `seed` and `round` for the lots. Every entrant is in
/// one pair, or has the bye (only with an odd count).
#[must_use]
pub fn pair_round<M: Meetings + ?Sized>(
    entrants: &[Entrant],
    met: &M,
    seed: u64,
    round: u32,
) -> RoundPairing {
    let mut left: Vec<&Entrant> = entrants.iter().collect();
    let bye = take_bye(&mut left, seed, round);
    // The rating order, ties by lot.
    left.sort_by(|a, b| {
        a.elo
            .total_cmp(&b.elo)
            .then(lot(seed, round, a.bot).cmp(&lot(seed, round, b.bot)))
    });
    let mut unpaired: BTreeSet<usize> = (0..left.len()).collect();
    // The priority order: fewest games, most uncertain, then lot.
    let mut order: Vec<usize> = (0..left.len()).collect();
    order.sort_by(|&i, &j| {
        let (a, b) = (left[i], left[j]);
        a.games
            .cmp(&b.games)
            .then(b.sd.total_cmp(&a.sd))
            .then(lot(seed, round, a.bot).cmp(&lot(seed, round, b.bot)))
    });
    let elos: Vec<f64> = left.iter().map(|e| e.elo).collect();
    let mut pairs = Vec::with_capacity(left.len() / 2);
    for p in order {
        if !unpaired.remove(&p) {
            continue;
        }
        let met_p = |q: usize| met_count(met, left[p].bot, left[q].bot);
        // Opponents drawn at a normal distance: the first one new to p, or
        // the one it met fewest times.
        let mut best: Option<(u32, usize)> = None;
        for draw in 0..DRAWS {
            let target = left[p].elo + SPREAD_ELO * normal_lot(seed, round, left[p].bot, draw);
            let Some(q) = nearest(&unpaired, &elos, target) else {
                break;
            };
            let m = met_p(q);
            if best.is_none_or(|(fewest, _)| m < fewest) {
                best = Some((m, q));
            }
            if m == 0 {
                break;
            }
        }
        if best.is_some_and(|(m, _)| m > 0) {
            // Every draw met before: the window's least met, best quality.
            let near = unpaired
                .range(..p)
                .rev()
                .take(WIDE_WINDOW)
                .chain(unpaired.range(p + 1..).take(WIDE_WINDOW));
            best = near
                .copied()
                .map(|q| (met_p(q), q))
                .min_by(|&(mx, x), &(my, y)| {
                    mx.cmp(&my)
                        .then(
                            match_quality(left[p], left[y])
                                .total_cmp(&match_quality(left[p], left[x])),
                        )
                        .then(lot(seed, round, left[x].bot).cmp(&lot(seed, round, left[y].bot)))
                });
        }
        let Some((_, q)) = best else {
            // An even count leaves everyone a partner.
            break;
        };
        unpaired.remove(&q);
        pairs.push((left[p].bot, left[q].bot));
    }
    repair_repeats(&mut pairs, &left, met);
    RoundPairing { pairs, bye }
}

/// With an odd count, takes the bye out of `left`: one of the fewest
/// byes, the most games among them, then by lot.
fn take_bye(left: &mut Vec<&Entrant>, seed: u64, round: u32) -> Option<usize> {
    if left.len().is_multiple_of(2) {
        return None;
    }
    let at = (0..left.len())
        .min_by_key(|&i| {
            let e = left[i];
            (e.byes, std::cmp::Reverse(e.games), lot(seed, round, e.bot))
        })
        .expect("an odd count is not empty");
    Some(left.swap_remove(at).bot)
}

/// Pairs one round of `entrants` at random (`pairing = "random"`): the bye
/// as [`pair_round`] gives it, then the others in the order of their
/// seeded lots, paired first with second, third with fourth and so on: a
/// uniformly random perfect matching (the lots are a seeded random
/// permutation), whatever the ratings and the meetings so far. `O(n log n)`.
#[must_use]
pub fn pair_round_randomly(entrants: &[Entrant], seed: u64, round: u32) -> RoundPairing {
    let mut left: Vec<&Entrant> = entrants.iter().collect();
    let bye = take_bye(&mut left, seed, round);
    // Another stream of lots than the tie-breaks'.
    let seed = seed ^ 0x7261_6E64_6F6D_2121;
    left.sort_by_key(|e| (lot(seed, round, e.bot), e.bot));
    let pairs = left.chunks_exact(2).map(|p| (p[0].bot, p[1].bot)).collect();
    RoundPairing { pairs, bye }
}

/// The unpaired bot (a position in `elos`, the ratings in ascending
/// order) whose rating is nearest `target`; `None` when none is left.
/// `O(log n)`.
fn nearest(unpaired: &BTreeSet<usize>, elos: &[f64], target: f64) -> Option<usize> {
    let at = elos.partition_point(|&e| e < target);
    let below = unpaired.range(..at).next_back().copied();
    let above = unpaired.range(at..).next().copied();
    match (below, above) {
        (Some(b), Some(a)) => Some(if target - elos[b] <= elos[a] - target {
            b
        } else {
            a
        }),
        (b, a) => b.or(a),
    }
}

/// A standard normal deviate, a pure function of the seed, the round, the
/// bot and the draw: Box–Muller's transform (Box & Muller, "A note on the
/// generation of random normal deviates", 1958) of two [`lot`]s.
fn normal_lot(seed: u64, round: u32, bot: usize, draw: u32) -> f64 {
    let h1 = lot(
        seed ^ 0x6E6F_726D_616C_0000 ^ u64::from(draw).wrapping_mul(0xD6E8_FEB8_6659_FD93),
        round,
        bot,
    );
    let h2 = lot(h1, round, bot);
    let unit = |h: u64| (h >> 11) as f64 / (1u64 << 53) as f64;
    let (u1, u2) = (1.0 - unit(h1), unit(h2));
    (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}

/// Two bots.
type Pair = (usize, usize);

/// Swaps partners between a repeated pair and another pair where both new
/// pairs are first meetings, the swap that keeps the most match quality:
/// the greedy pass can leave its last bots a pair that met before.
fn repair_repeats<M: Meetings + ?Sized>(
    pairs: &mut [(usize, usize)],
    entrants: &[&Entrant],
    met: &M,
) {
    let by_bot: HashMap<usize, &Entrant> = entrants.iter().map(|e| (e.bot, *e)).collect();
    let quality = |x: usize, y: usize| match_quality(by_bot[&x], by_bot[&y]);
    for i in 0..pairs.len() {
        let (a, b) = pairs[i];
        if met_count(met, a, b) == 0 {
            continue;
        }
        // (the two qualities' sum, the other pair's index, the new pairs)
        let mut best: Option<(f64, usize, Pair, Pair)> = None;
        for (j, &(c, d)) in pairs.iter().enumerate() {
            if j == i {
                continue;
            }
            for (p, q) in [((a, c), (b, d)), ((a, d), (b, c))] {
                if met_count(met, p.0, p.1) == 0 && met_count(met, q.0, q.1) == 0 {
                    let total = quality(p.0, p.1) + quality(q.0, q.1);
                    if best.is_none_or(|(t, ..)| total > t) {
                        best = Some((total, j, p, q));
                    }
                }
            }
        }
        if let Some((_, j, p, q)) = best {
            pairs[i] = p;
            pairs[j] = q;
        }
    }
}

/// Virtual draws of each bot against the population's mean (a virtual bot
/// every bot has met): a weak prior that keeps the ratings of bots whose
/// games do not connect them yet comparable.
pub const MEAN_DRAWS: u32 = 1;

/// The games a round is paired after: their per-pair totals (the fit's
/// input and the meetings), and the plan's series results in number order
/// (read once for each rating's curvature, in the order it always summed
/// them, so that the figures stay the same to the last bit).
struct Games<'a> {
    totals: &'a PairTotals,
    results: &'a [Option<SeriesResult>],
}

/// The fit's input: the per-pair totals of `totals` and [`MEAN_DRAWS`] of
/// each of `present` (ascending) against the virtual bot `mean`, in
/// `(lower, higher)` order (the mean pair of a bot after its other pairs
/// as the lower bot): one entry per distinct pair, built once a round.
fn fit_input(totals: &PairTotals, present: &[usize], mean: usize) -> Vec<PairResult> {
    let mut out = Vec::with_capacity(totals.len() + present.len());
    let mut pending = present.iter().copied().peekable();
    let mean_pair = |a: usize| PairResult {
        a,
        b: mean,
        wins: 0,
        draws: MEAN_DRAWS,
        losses: 0,
    };
    for r in totals.results() {
        while let Some(a) = pending.next_if(|&a| a < r.a) {
            out.push(mean_pair(a));
        }
        out.push(r);
    }
    out.extend(pending.map(mean_pair));
    out
}

/// The ratings the next round is paired by, from one fit of `games` and
/// [`MEAN_DRAWS`] of each present bot against a virtual bot of the
/// population's mean: each bot's rating (relative to that mean),
/// standard deviation and games, and whether the ranking is settled at
/// `settle_los` (always `false` without it).
fn ratings(
    settings: &LeagueSettings,
    bots: usize,
    games: &Games<'_>,
    round: u32,
    present: &[usize],
) -> (Vec<(f64, f64, u64)>, bool) {
    let played = games.totals.games(bots);
    // Bot `bots` is the population's mean.
    let with_mean = fit_input(games.totals, present, bots);
    if let Some(los) = settings.settle_los {
        let options = RatingOptions {
            prior_draws: settings.prior_draws,
            bootstrap_samples: settings.bootstrap,
            seed: settings.seed ^ u64::from(round),
            ..RatingOptions::default()
        };
        let r = stats::rate(bots + 1, &with_mean, &options);
        let mean = r.ratings[bots].elo;
        let out = r
            .ratings
            .iter()
            .zip(&played)
            .map(|(x, &n)| (x.elo - mean, if n == 0 { NEW_SD } else { x.sd }, n))
            .collect();
        let mut ranked: Vec<usize> = present.to_vec();
        ranked.sort_by(|&a, &b| r.ratings[b].elo.total_cmp(&r.ratings[a].elo));
        let settled = !games.totals.is_empty()
            && ranked.len() >= 2
            && ranked.iter().all(|&b| played[b] > 0)
            && ranked.windows(2).all(|w| r.los(w[0], w[1]) >= los);
        return (out, settled);
    }
    let elo = stats::fit(bots + 1, &with_mean, settings.prior_draws);
    // The curvature of each rating alone (natural units), prior included.
    let scale = std::f64::consts::LN_10 / 400.0;
    let prior = if settings.prior_draws.is_finite() {
        settings.prior_draws.max(0.0)
    } else {
        0.0
    };
    let mut info = vec![0.0f64; bots + 1];
    // Series by series, then the mean's draws: each series counts the prior
    // once, as the curvature always did.
    let series = games.results.iter().flatten().map(|r| {
        let (a, b) = (r.series.a, r.series.b);
        (a, b, r.wdl.wins + r.wdl.draws + r.wdl.losses)
    });
    let means = present.iter().map(|&a| (a, bots, MEAN_DRAWS));
    for (a, b, games) in series.chain(means) {
        let n = f64::from(games) + prior;
        let e = 1.0 / (1.0 + (-(elo[a] - elo[b]) * scale).exp());
        let w = n * e * (1.0 - e);
        info[a] += w;
        info[b] += w;
    }
    let out = (0..bots)
        .map(|i| {
            let sd = if played[i] == 0 || info[i] <= 0.0 {
                NEW_SD
            } else {
                (1.0 / info[i].sqrt() / scale).min(NEW_SD)
            };
            (elo[i] - elo[bots], sd, played[i])
        })
        .collect();
    (out, false)
}

impl League {
    /// A league of `settings` whose bots come and go as `roster` says,
    /// before round 1 is paired.
    pub(super) fn new(settings: LeagueSettings, roster: Roster) -> League {
        League {
            settings,
            roster,
            course: LeagueCourse::default(),
            totals: PairTotals::new(),
            added: 0,
        }
    }

    /// Who is in which round.
    pub(super) fn roster(&self) -> &Roster {
        &self.roster
    }

    /// Takes `roster` for the rounds not yet paired: it must agree with
    /// the old one on every round paired (bots only appended, joins and
    /// retirements only after the last round paired). Returns whether it
    /// was taken.
    pub(super) fn set_roster(&mut self, roster: Roster) -> bool {
        let paired = self.course.rounds_paired;
        let old = self.roster.stints();
        let agrees = roster.len() >= old.len()
            && (1..=paired).all(|r| self.roster.present(r) == roster.present(r));
        if agrees {
            self.roster = roster;
        }
        agrees
    }

    /// The league's course so far.
    pub(super) fn course(&self) -> &LeagueCourse {
        &self.course
    }

    /// Every series so far is recorded: pair the next round (numbered from
    /// `next`), or nothing once the rounds are played or the ranking is
    /// settled.
    pub(super) fn advance(
        &mut self,
        series: &[Series],
        results: &[Option<SeriesResult>],
        byes: &[(u32, usize)],
        next: usize,
    ) -> Step {
        let round = self.course.rounds_paired + 1;
        let present = self.roster.present(round);
        let bots = self.roster.len();
        if self.course.settled
            || self.course.rounds_paired >= self.settings.max_rounds()
            || present.len() < 2
        {
            return Step::default();
        }
        // The results recorded since the last round, added to the totals
        // (the plan's results are never taken back).
        for r in results.iter().skip(self.added).flatten() {
            self.totals.add(r.series.a, r.series.b, r.wdl);
        }
        self.added = self.added.max(results.len());
        let games = Games {
            totals: &self.totals,
            results,
        };
        let (rated, settled) = ratings(&self.settings, bots, &games, round, &present);
        if settled {
            self.course.settled = true;
            return Step::default();
        }
        let mut bye_count = vec![0u32; bots];
        for &(_, b) in byes {
            bye_count[b] += 1;
        }
        let entrant = |bot: usize| Entrant {
            bot,
            elo: rated[bot].0,
            sd: rated[bot].1,
            games: rated[bot].2,
            byes: bye_count[bot],
        };
        let entrants: Vec<Entrant> = present.iter().map(|&b| entrant(b)).collect();
        debug_assert_eq!(self.added, series.len(), "every series recorded");
        let pairing = match self.settings.pairing {
            PairBy::Rating => pair_round(&entrants, &self.totals, self.settings.seed, round),
            PairBy::Random => pair_round_randomly(&entrants, self.settings.seed, round),
        };
        self.course.rounds_paired = round;
        let mut step = Step::default();
        if let Some(b) = pairing.bye {
            step.byes.push((round, b));
            self.course.pairings.push(LeaguePairing {
                round,
                series: None,
                south: entrant(b),
                north: None,
            });
        }
        for (x, y) in pairing.pairs {
            let s = Series {
                number: next + step.series.len(),
                round,
                a: x.min(y),
                b: x.max(y),
            };
            self.course.pairings.push(LeaguePairing {
                round,
                series: Some(s.number),
                south: entrant(s.south(1)),
                north: Some(entrant(s.north(1))),
            });
            step.series.push(s);
        }
        step
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::test_result as result;
    use crate::format::{Format, Plan};
    use proptest::prelude::*;
    use std::collections::HashSet;

    fn league(rounds: Option<u32>, settle_los: Option<f64>, seed: u64) -> Format {
        Format::League(LeagueSettings {
            rounds,
            settle_los,
            seed,
            prior_draws: 1.0,
            bootstrap: 200,
            pairing: PairBy::Rating,
        })
    }

    /// Plays `plan` on: in each series the lower index wins `wins` games
    /// of 2 (strength by index); at most `rounds` rounds. Returns the
    /// rounds played.
    fn play(plan: &mut Plan, rounds: u32) -> u32 {
        let mut played = 0;
        while let Some(stage) = plan.next_stage() {
            if played == rounds {
                break;
            }
            played += 1;
            for s in &stage.series {
                assert!(plan.record(&result(*s, 2, 0)));
            }
        }
        played
    }

    fn entrant(bot: usize, elo: f64, sd: f64, games: u64, byes: u32) -> Entrant {
        Entrant {
            bot,
            elo,
            sd,
            games,
            byes,
        }
    }

    #[test]
    fn close_ratings_meet_and_new_bots_choose_first() {
        // Four rated bots in two tight clusters: each cluster pairs within.
        let e = vec![
            entrant(0, 400.0, 30.0, 40, 0),
            entrant(1, 390.0, 30.0, 40, 0),
            entrant(2, -400.0, 30.0, 40, 0),
            entrant(3, -410.0, 30.0, 40, 0),
        ];
        let p = pair_round(&e, &Met::new(), 1, 5);
        let mut pairs: Vec<(usize, usize)> =
            p.pairs.iter().map(|&(a, b)| (a.min(b), a.max(b))).collect();
        pairs.sort_unstable();
        assert_eq!(pairs, vec![(0, 1), (2, 3)]);
        // A repeat is avoided when a bot of the window is new to it.
        let met: Met = [((0, 1), 1), ((2, 3), 1)].into_iter().collect();
        let p = pair_round(&e, &met, 1, 5);
        for &(a, b) in &p.pairs {
            assert_eq!(met_count(&met, a, b), 0, "{p:?}");
        }
        // A new bot (no games) chooses first: it is in the first pair.
        let mut e2 = e.clone();
        e2.push(entrant(4, 0.0, NEW_SD, 0, 0));
        e2.push(entrant(5, 380.0, 30.0, 40, 0));
        let p = pair_round(&e2, &Met::new(), 1, 5);
        assert_eq!(p.pairs[0].0, 4);
    }

    #[test]
    fn a_league_stops_after_its_rounds_and_lists_every_pairing() {
        let mut plan = Plan::new(&league(Some(4), None, 3), 7, &[]);
        assert_eq!(play(&mut plan, 100), 4);
        assert!(plan.is_over());
        let course = plan.league().unwrap();
        assert_eq!(course.rounds_paired, 4);
        // 3 series and 1 bye per round.
        assert_eq!(course.pairings.len(), 16);
        assert_eq!(plan.byes().len(), 4);
        let byes: HashSet<usize> = plan.byes().iter().map(|b| b.1).collect();
        assert_eq!(byes.len(), 4, "the bye rotates");
        for p in &course.pairings {
            if let Some(n) = p.series {
                let s = plan.get(n).unwrap();
                assert_eq!(p.south.bot, s.south(1));
                assert_eq!(p.north.unwrap().bot, s.north(1));
                assert_eq!(s.round, p.round);
            }
        }
    }

    #[test]
    fn a_league_by_the_strength_order_settles_and_stops() {
        // The lower index always wins both games: the order is clear after
        // a few rounds, and the league stops by itself.
        let mut plan = Plan::new(&league(None, Some(0.9), 5), 6, &[]);
        let rounds = play(&mut plan, 60);
        assert!(plan.is_over(), "not settled after {rounds} rounds");
        assert!(plan.league().unwrap().settled);
        assert!(rounds < 60);
    }

    #[test]
    fn the_ratings_of_each_pairing_are_those_before_its_round() {
        let mut plan = Plan::new(&league(Some(3), None, 1), 4, &[]);
        play(&mut plan, 3);
        let course = plan.league().unwrap();
        for p in course.pairings.iter().filter(|p| p.round == 1) {
            assert_eq!((p.south.elo, p.south.sd, p.south.games), (0.0, NEW_SD, 0));
        }
        for p in course.pairings.iter().filter(|p| p.round == 3) {
            assert_eq!(p.south.games, 4);
            assert!(p.south.sd < NEW_SD);
        }
    }

    #[test]
    fn a_thousand_bots_pair_every_round() {
        let mut plan = Plan::new(&league(Some(3), None, 9), 1001, &[]);
        while let Some(stage) = plan.next_stage() {
            assert_eq!(stage.series.len(), 500);
            for s in &stage.series {
                plan.record(&result(*s, 1, 1));
            }
        }
        assert_eq!(plan.byes().len(), 3);
    }

    #[test]
    fn a_random_pairing_ignores_the_ratings_and_is_seeded() {
        // Two tight clusters far apart: the rating pairing keeps them
        // apart, a random one does not, over a few rounds.
        let e: Vec<Entrant> = (0..16)
            .map(|i| entrant(i, if i < 8 { 400.0 } else { -400.0 }, 30.0, 40, 0))
            .collect();
        let across =
            |p: &RoundPairing| p.pairs.iter().filter(|&&(a, b)| (a < 8) != (b < 8)).count();
        let by_rating: usize = (1..=5)
            .map(|r| across(&pair_round(&e, &Met::new(), 7, r)))
            .sum();
        assert_eq!(by_rating, 0);
        let by_chance: Vec<RoundPairing> = (1..=5).map(|r| pair_round_randomly(&e, 7, r)).collect();
        assert!(by_chance.iter().map(across).sum::<usize>() > 0);
        // Seeded: the same seed and round pair the same, others differ.
        assert_eq!(by_chance[0], pair_round_randomly(&e, 7, 1));
        assert_ne!(by_chance[0], by_chance[1]);
        assert_ne!(by_chance[0], pair_round_randomly(&e, 8, 1));
    }

    #[test]
    fn a_random_league_plays_every_bot_each_round_with_rotating_byes() {
        let mut format = league(Some(5), None, 4);
        if let Format::League(l) = &mut format {
            l.pairing = PairBy::Random;
        }
        let mut plan = Plan::new(&format, 5, &[]);
        assert_eq!(play(&mut plan, 100), 5);
        let byes: HashSet<usize> = plan.byes().iter().map(|b| b.1).collect();
        assert_eq!(byes.len(), 5, "each bot had the bye once");
        assert_eq!(plan.league().unwrap().pairings.len(), 15);
    }

    proptest! {
        /// For 2..=40 bots (some absent), random results and seeds: every
        /// present bot plays once a round or has the bye; a bye only with
        /// an odd count, rotating (no bot two more than another); absent
        /// bots never paired; the same input pairs the same; no repeat
        /// while the window had a bot it had not met (checked loosely: a
        /// round 2 of at least 4 bots repeats nothing).
        #[test]
        fn every_bot_is_paired_once_a_round(
            n in 2usize..=40,
            rounds in 1u32..=8,
            seed in any::<u64>(),
            absent_pick in proptest::collection::vec(0usize..60, 0..3),
            results in proptest::collection::vec((0u32..3, 0u32..3), 64),
        ) {
            let absent: Vec<usize> = absent_pick.into_iter().filter(|&b| b < n).collect();
            let present: Vec<usize> = (0..n).filter(|b| !absent.contains(b)).collect();
            let format = league(Some(rounds), None, seed);
            let mut plan = Plan::new(&format, n, &absent);
            let mut twin = Plan::new(&format, n, &absent);
            let mut k = 0;
            let mut round = 0;
            let mut bye_count = vec![0u32; n];
            let mut met = HashSet::new();
            while let Some(stage) = plan.next_stage() {
                round += 1;
                prop_assert_eq!(Some(stage.clone()), twin.next_stage());
                prop_assert!(stage.series.iter().all(|s| s.round == round));
                let byes: Vec<usize> = plan.byes().iter().filter(|b| b.0 == round).map(|b| b.1).collect();
                prop_assert_eq!(byes.len(), present.len() % 2);
                let mut seen: Vec<usize> = stage.series.iter().flat_map(|s| [s.a, s.b]).chain(byes.iter().copied()).collect();
                seen.sort_unstable();
                prop_assert_eq!(&seen, &present);
                for b in byes {
                    bye_count[b] += 1;
                }
                let counts: Vec<u32> = present.iter().map(|&b| bye_count[b]).collect();
                prop_assert!(counts.iter().max().unwrap() - counts.iter().min().unwrap() <= 1);
                if round == 2 && present.len() >= 4 {
                    prop_assert!(stage.series.iter().all(|s| !met.contains(&(s.a, s.b))));
                }
                for s in &stage.series {
                    met.insert((s.a, s.b));
                    let (w, l) = results[k % results.len()];
                    k += 1;
                    prop_assert!(plan.record(&result(*s, w, l)));
                    prop_assert!(twin.record(&result(*s, w, l)));
                }
            }
            prop_assert_eq!(round, if present.len() < 2 { 0 } else { rounds });
            prop_assert_eq!(plan.league().unwrap().pairings.len(), twin.league().unwrap().pairings.len());
        }

        /// The pairing alone: each entrant at most once, the bye only with
        /// an odd count and to one with the fewest byes.
        #[test]
        fn pair_round_pairs_each_entrant_at_most_once(
            ratings in proptest::collection::vec((-800.0f64..800.0, 10.0f64..350.0, 0u64..50, 0u32..3), 0..60),
            seed in any::<u64>(),
            round in 1u32..100,
        ) {
            let e: Vec<Entrant> = ratings.iter().enumerate().map(|(i, &(elo, sd, games, byes))| entrant(i * 3, elo, sd, games, byes)).collect();
            let p = pair_round(&e, &Met::new(), seed, round);
            let mut seen: Vec<usize> = p.pairs.iter().flat_map(|&(a, b)| [a, b]).chain(p.bye).collect();
            seen.sort_unstable();
            let mut all: Vec<usize> = e.iter().map(|x| x.bot).collect();
            all.sort_unstable();
            prop_assert_eq!(seen, all);
            prop_assert_eq!(p.bye.is_some(), e.len() % 2 == 1);
            if let Some(b) = p.bye {
                let fewest = e.iter().map(|x| x.byes).min().unwrap();
                prop_assert_eq!(e.iter().find(|x| x.bot == b).unwrap().byes, fewest);
            }
            prop_assert_eq!(&p, &pair_round(&e, &Met::new(), seed, round));
            // The random pairing: the same bye, every other entrant once.
            let q = pair_round_randomly(&e, seed, round);
            prop_assert_eq!(q.bye, p.bye);
            let mut seen: Vec<usize> = q.pairs.iter().flat_map(|&(a, b)| [a, b]).chain(q.bye).collect();
            seen.sort_unstable();
            let mut all: Vec<usize> = e.iter().map(|x| x.bot).collect();
            all.sort_unstable();
            prop_assert_eq!(seen, all);
        }
    }
}
