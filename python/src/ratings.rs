//! Ratings from arrays of games, for `endodoi.ratings` (docs/python.md,
//! "Ratings without a config"): the games added up per pair of bots and
//! rated by [`endodoi_ratings::rate`] exactly as `arena rate` rates a
//! `games.csv` (the same pair table, the same options), then ordered as
//! `standings.csv` orders them, with each bot's LOS over the next.
//!
//! Plain Rust (the bindings in `py` only convert), so it is unit-tested
//! without Python. Bad input is a [`GamesError`], never a panic.

use endodoi_ratings::{rate, PairResult, RatingOptions, Ratings};
use thiserror::Error;

/// A game's result from South's side, in half points: `2` South won, `1`
/// a draw, `0` North won.
pub type HalfPoints = u8;

/// Why games cannot be rated: each message names the entry at fault and
/// the fix, in the Python API's words (`south[3]` is the fourth game's
/// South bot).
#[derive(Debug, Clone, PartialEq, Error)]
pub enum GamesError {
    /// The three arrays differ in length.
    #[error("south has {south} entries, north {north} and result {results}: give one entry per game in each")]
    Lengths {
        /// Entries of `south`.
        south: usize,
        /// Entries of `north`.
        north: usize,
        /// Entries of `result`.
        results: usize,
    },
    /// No game at all.
    #[error("no games: give at least one game (a South bot, a North bot and a result)")]
    Empty,
    /// A bot index that is not one of the bots.
    #[error("{side}[{game}] is bot {bot}, but there are {bots} bots (indices 0 to {last}): give an index below {bots}, or more names", last = bots.saturating_sub(1))]
    UnknownBot {
        /// `south` or `north`.
        side: &'static str,
        /// The game's index.
        game: usize,
        /// The index given.
        bot: usize,
        /// The number of bots.
        bots: usize,
    },
    /// A game of a bot against itself.
    #[error("game {game}: bot {bot} plays itself (south[{game}] == north[{game}]): give two different bots")]
    SelfPlay {
        /// The game's index.
        game: usize,
        /// The bot.
        bot: usize,
    },
    /// A result that is not 0, 1 or 2 half points.
    #[error(
        "result[{game}] is {value} half points: give 2 (South won), 1 (a draw) or 0 (North won)"
    )]
    BadResult {
        /// The game's index.
        game: usize,
        /// The value given.
        value: HalfPoints,
    },
    /// A prior that is negative or not a number.
    #[error(
        "prior_draws is {0}: give 0 or more virtual draws per pair (1 by default, as arena rate)"
    )]
    Prior(f64),
    /// An anchor that is not a bot.
    #[error("the anchor is bot {bot}, but there are {bots} bots: give one of them")]
    UnknownAnchor {
        /// The index given.
        bot: usize,
        /// The number of bots.
        bots: usize,
    },
    /// An anchor that played no game, as `arena rate` refuses it.
    #[error("the anchor, bot {0}, played no game here: anchor a bot that played")]
    AnchorWithoutGames(usize),
    /// An anchor rating out of `arena rate`'s range.
    #[error("anchor_elo is {0}: give a rating from -{MAX_ANCHOR_ELO} to {MAX_ANCHOR_ELO} Elo (as arena rate --anchor-elo)")]
    AnchorElo(f64),
}

/// The largest anchor rating, Elo, either way (`arena rate --anchor-elo`'s range).
pub const MAX_ANCHOR_ELO: f64 = 10_000.0;

/// The games added up per pair of bots `a < b`, from `a`'s side, sorted by
/// `(a, b)`: the table `arena rate` hands to [`endodoi_ratings::rate`]. A
/// pair with more than `u32::MAX` games of one kind gets several entries
/// (which `rate` adds up).
///
/// # Errors
/// Arrays of different lengths, no games, an index `>= bots`, a bot
/// against itself, or a result other than 0, 1 or 2 half points.
pub fn pair_results(
    bots: usize,
    south: &[usize],
    north: &[usize],
    result: &[HalfPoints],
) -> Result<Vec<PairResult>, GamesError> {
    if south.len() != north.len() || south.len() != result.len() {
        return Err(GamesError::Lengths {
            south: south.len(),
            north: north.len(),
            results: result.len(),
        });
    }
    if south.is_empty() {
        return Err(GamesError::Empty);
    }
    let mut counts: std::collections::BTreeMap<(usize, usize), [u64; 3]> = Default::default();
    for (game, ((&s, &n), &r)) in south.iter().zip(north).zip(result).enumerate() {
        for (side, bot) in [("south", s), ("north", n)] {
            if bot >= bots {
                return Err(GamesError::UnknownBot {
                    side,
                    game,
                    bot,
                    bots,
                });
            }
        }
        if s == n {
            return Err(GamesError::SelfPlay { game, bot: s });
        }
        if r > 2 {
            return Err(GamesError::BadResult { game, value: r });
        }
        // Half points of the lower index: 2 a win, 1 a draw, 0 a loss.
        let (key, points) = if s < n { ((s, n), r) } else { ((n, s), 2 - r) };
        counts.entry(key).or_default()[usize::from(2 - points)] += 1;
    }
    let mut out = Vec::with_capacity(counts.len());
    for ((a, b), [mut wins, mut draws, mut losses]) in counts {
        while wins + draws + losses > 0 {
            let take = |n: &mut u64| {
                let t = (*n).min(u64::from(u32::MAX));
                *n -= t;
                t as u32
            };
            out.push(PairResult {
                a,
                b,
                wins: take(&mut wins),
                draws: take(&mut draws),
                losses: take(&mut losses),
            });
        }
    }
    Ok(out)
}

/// The ratings of some games, with what `standings.csv` shows of them.
#[derive(Debug, Clone)]
pub struct Rated {
    /// The ratings, intervals and covariance, per bot index.
    pub ratings: Ratings,
    /// Games won, per bot.
    pub wins: Vec<u64>,
    /// Games drawn, per bot.
    pub draws: Vec<u64>,
    /// Games lost, per bot.
    pub losses: Vec<u64>,
    /// The bots best first, as `standings.csv` lists them: by group, then
    /// Elo, then score, then index; bots without games last.
    pub order: Vec<usize>,
    /// Per bot, its group numbered from 1 in the order the groups are
    /// listed (`standings.csv`'s `group`).
    pub group: Vec<usize>,
    /// Per bot, its likelihood of superiority (0..=1) over the bot listed
    /// next in its group; `None` for the last of a group.
    pub los_next: Vec<Option<f64>>,
}

/// Rates the games (`south[k]` against `north[k]`, South's result
/// `result[k]` in half points) among `bots` bots with `options`, as
/// `arena rate` rates a `games.csv` whose bots, in name order, are these
/// indices: the same pair table ([`pair_results`]) and options give the
/// same numbers.
///
/// # Errors
/// Those of [`pair_results`]; a negative or NaN prior; an anchor that is
/// not a bot, played no game, or whose rating is outside
/// `±`[`MAX_ANCHOR_ELO`].
pub fn rate_games(
    bots: usize,
    south: &[usize],
    north: &[usize],
    result: &[HalfPoints],
    options: &RatingOptions,
) -> Result<Rated, GamesError> {
    let pairs = pair_results(bots, south, north, result)?;
    if options.prior_draws.is_nan() || options.prior_draws < 0.0 {
        return Err(GamesError::Prior(options.prior_draws));
    }
    let mut wins = vec![0u64; bots];
    let mut draws = vec![0u64; bots];
    let mut losses = vec![0u64; bots];
    for p in &pairs {
        wins[p.a] += u64::from(p.wins);
        losses[p.b] += u64::from(p.wins);
        draws[p.a] += u64::from(p.draws);
        draws[p.b] += u64::from(p.draws);
        losses[p.a] += u64::from(p.losses);
        wins[p.b] += u64::from(p.losses);
    }
    if let Some((bot, elo)) = options.anchor {
        if bot >= bots {
            return Err(GamesError::UnknownAnchor { bot, bots });
        }
        if wins[bot] + draws[bot] + losses[bot] == 0 {
            return Err(GamesError::AnchorWithoutGames(bot));
        }
        if !(elo.is_finite() && elo.abs() <= MAX_ANCHOR_ELO) {
            return Err(GamesError::AnchorElo(elo));
        }
    }
    let ratings = rate(bots, &pairs, options);
    let score = |i: usize| wins[i] as f64 + 0.5 * draws[i] as f64;
    let idle = |i: usize| ratings.ratings[i].games == 0;
    // The order of arena::standings::standings.
    let mut order: Vec<usize> = (0..bots).collect();
    order.sort_by(|&x, &y| {
        let (rx, ry) = (&ratings.ratings[x], &ratings.ratings[y]);
        idle(x)
            .cmp(&idle(y))
            .then(rx.group.cmp(&ry.group))
            .then(ry.elo.total_cmp(&rx.elo))
            .then(score(y).total_cmp(&score(x)))
            .then(x.cmp(&y))
    });
    let mut listed: Vec<usize> = Vec::new();
    let mut group = vec![0; bots];
    let mut los_next = vec![None; bots];
    for (k, &bot) in order.iter().enumerate() {
        let g = ratings.ratings[bot].group;
        if listed.last() != Some(&g) {
            listed.push(g);
        }
        group[bot] = listed.len();
        los_next[bot] = order
            .get(k + 1)
            .filter(|&&n| ratings.ratings[n].group == g)
            .map(|&n| ratings.los(bot, n));
    }
    Ok(Rated {
        ratings,
        wins,
        draws,
        losses,
        order,
        group,
        los_next,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use endodoi_ratings::IntervalMethod;

    #[test]
    fn games_add_up_per_pair_from_the_lower_index() {
        let pairs = pair_results(3, &[0, 1, 2, 0], &[1, 0, 0, 1], &[2, 2, 1, 0]).unwrap();
        let p = |a, b, wins, draws, losses| PairResult {
            a,
            b,
            wins,
            draws,
            losses,
        };
        assert_eq!(pairs, vec![p(0, 1, 1, 0, 2), p(0, 2, 0, 1, 0)]);
    }

    #[test]
    fn bad_games_name_the_entry_and_the_fix() {
        type Case<'a> = (&'a [usize], &'a [usize], &'a [u8], &'a str);
        let cases: [Case; 5] = [
            (
                &[0],
                &[1, 2],
                &[1],
                "south has 1 entries, north 2 and result 1",
            ),
            (&[], &[], &[], "no games"),
            (
                &[0, 1],
                &[1, 3],
                &[1, 1],
                "north[1] is bot 3, but there are 3 bots",
            ),
            (&[0, 2], &[1, 2], &[1, 1], "game 1: bot 2 plays itself"),
            (&[0], &[1], &[3], "result[0] is 3 half points"),
        ];
        for (south, north, result, want) in cases {
            let e = pair_results(3, south, north, result)
                .unwrap_err()
                .to_string();
            assert!(e.starts_with(want), "{e}");
            assert!(e.contains(": give"), "{e}");
        }
    }

    #[test]
    fn the_table_is_listed_best_first_with_los_over_the_next() {
        // Bot 2 beats 1 beats 0; bot 3 plays nobody.
        let south = [2, 2, 1, 1, 2, 0];
        let north = [1, 0, 0, 0, 1, 1];
        let result = [2, 2, 2, 2, 1, 1];
        let options = RatingOptions {
            bootstrap_samples: 50,
            ..RatingOptions::default()
        };
        let r = rate_games(4, &south, &north, &result, &options).unwrap();
        assert_eq!(r.order, vec![2, 1, 0, 3]);
        assert_eq!(r.group, vec![1, 1, 1, 2]);
        assert_eq!((r.wins[2], r.draws[2], r.losses[2]), (2, 1, 0));
        assert!(r.los_next[2].unwrap() > 0.5 && r.los_next[0].is_none());
        assert!(r.los_next[3].is_none());
        assert_eq!(r.ratings.ratings[3].interval, IntervalMethod::NoGames);
        let anchored = RatingOptions {
            anchor: Some((3, 0.0)),
            ..options
        };
        let e = rate_games(4, &south, &north, &result, &anchored).unwrap_err();
        assert_eq!(e, GamesError::AnchorWithoutGames(3));
    }
}
