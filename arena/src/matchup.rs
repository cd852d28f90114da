//! The summary of a two-bot match: what a researcher running an SPRT (or
//! any head-to-head match) looks for at the end, computed from the games as
//! `games.csv` holds them, so that `arena run`, a resumed run, `arena merge`
//! and `arena rate` all give the same numbers.
//!
//! Nothing is derived here: the counts come from the [`Tally`] the
//! standings use (so they equal `pairwise.csv`'s), the Elo, its error and
//! LOS from [`crate::stats::penta_elo`] (or [`crate::stats::pair_elo`]
//! without a single complete pair), and the SPRT's log-likelihood ratio
//! after each game pair from [`SeriesState::replay`], the very code that
//! decides when a run's SPRT match stops.

use crate::output::num;
use crate::schedule::Series;
use crate::series::{SeriesRule, SeriesState, SprtState};
use crate::standings::{Tally, Wdl};
use crate::stats::{self, GameScore, Pentanomial, Sprt, SprtModel};

/// A two-bot match, seen from its first bot's side (South in the first
/// game of the first series: the first `[[bot]]` of the config).
#[derive(Clone, Debug, PartialEq)]
pub struct Matchup {
    /// The first bot and its opponent.
    pub bots: [String; 2],
    /// The first bot's wins, draws and losses.
    pub wdl: Wdl,
    /// The game pairs by the first bot's points (see [`Pentanomial`]).
    pub pentanomial: Pentanomial,
    /// The first bot's Elo over the second, with its error and LOS.
    pub elo: MatchElo,
    /// The SPRT test of the match and the LLR after each pair, if it had one.
    pub sprt: Option<SprtCurve>,
}

impl Matchup {
    /// The share of the games drawn, percent (0 without a game).
    #[must_use]
    pub fn draw_pct(&self) -> f64 {
        match self.wdl.games() {
            0 => 0.0,
            games => 100.0 * f64::from(self.wdl.draws) / f64::from(games),
        }
    }
}

/// The Elo estimate of a match from the first bot's side.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MatchElo {
    /// Elo points (logistic scale); `None` when one bot scored every
    /// point, which no finite Elo fits (the fit's `±stats::ELO_LIMIT`
    /// stand-in would be read as real, as in `pairwise.csv`).
    pub elo: Option<f64>,
    /// Half-width of the 95% interval of `elo`, Elo points; `None` when
    /// every pair (or game) had the same result and the formula can say
    /// nothing (the sample variance is 0).
    pub error_95: Option<f64>,
    /// Normalised Elo (nElo), clamped like `elo`; `None` in the same case.
    pub nelo: Option<f64>,
    /// Half-width of the 95% interval of `nelo`, nElo; `None` as above.
    pub nelo_error_95: Option<f64>,
    /// Likelihood of superiority of the first bot, `0..=1`.
    pub los: f64,
    /// Whether the figures come from the game pairs
    /// ([`stats::penta_elo`]) or, without a complete pair, from single
    /// games ([`stats::pair_elo`]).
    pub pentanomial: bool,
    /// How many samples the figures come from: game pairs when
    /// `pentanomial`, else games. With one, `error_95` is `None` because
    /// one sample has no spread to measure, not because results agreed.
    pub samples: u64,
}

impl MatchElo {
    /// The column of `pairwise.csv` that holds this LOS (`penta_los` from
    /// the game pairs, `los` from single games): which of the arena's three
    /// LOS figures it is (docs/ratings.md, "Which LOS to quote").
    #[must_use]
    pub fn los_column(&self) -> &'static str {
        if self.pentanomial {
            "penta_los"
        } else {
            "los"
        }
    }
}

/// An SPRT match's test and its course.
#[derive(Clone, Debug, PartialEq)]
pub struct SprtCurve {
    /// The test: hypotheses, error rates and model.
    pub test: Sprt,
    /// The test's state after each game pair, in the order of the games.
    pub pairs: Vec<SprtState>,
}

impl SprtCurve {
    /// The log-likelihood ratio after the last pair (0 before any).
    #[must_use]
    pub fn llr(&self) -> f64 {
        self.pairs.last().map_or(0.0, |s| s.llr)
    }

    /// The stopping bounds on the LLR (`Sprt::bounds`).
    #[must_use]
    pub fn bounds(&self) -> (f64, f64) {
        self.test.bounds()
    }

    /// `H0`, `H1` or `continue`, as in `sprt.csv`.
    #[must_use]
    pub fn verdict(&self) -> &'static str {
        self.pairs.last().map_or("continue", SprtState::verdict)
    }
}

/// A signed number with `decimals` decimals, as `output::num` writes it:
/// `+12.3`, `-4.0`, `0.0`.
#[must_use]
pub fn signed(x: f64, decimals: usize) -> String {
    let s = crate::output::num(x, decimals);
    if s.starts_with('-') || s.trim_matches(|c| c == '0' || c == '.').is_empty() {
        s
    } else {
        format!("+{s}")
    }
}

/// An SPRT verdict (`H0`, `H1` or `continue`, see [`SprtCurve::verdict`])
/// in words: the one wording of a verdict, which the match summary, the
/// report, the live view's line and the per-game lines all print
/// (docs/ratings.md, "The words of a verdict").
#[must_use]
pub fn verdict_words(verdict: &str) -> &'static str {
    match verdict {
        "H0" => "H0 accepted: the test failed",
        "H1" => "H1 accepted: the test passed",
        _ => "no decision: the LLR is still between its bounds",
    }
}

/// `6 games (3 pairs)`, in the singular where it is one.
#[must_use]
pub fn games_and_pairs(games: u32, pairs: u64) -> String {
    format!(
        "{} ({})",
        crate::output::counted(games, "game", "games"),
        crate::output::counted(pairs, "pair", "pairs")
    )
}

/// The Elo of a match in words, as the summary and the report print it
/// after "Elo": the figure with its 95% error and nElo and how it was got,
/// or why it has no error or no finite value.
#[must_use]
pub fn elo_text(e: &MatchElo) -> String {
    let from = if e.pentanomial {
        "from the game pairs"
    } else {
        "from single games"
    };
    match (e.elo, e.error_95) {
        (None, _) => format!("without a finite estimate ({from}: one bot scored every point)"),
        (Some(x), None) => {
            let why = match (e.samples, e.pentanomial) {
                (0 | 1, true) => "one pair is too few",
                (0 | 1, false) => "one game is too few",
                (_, true) => "every pair scored the same",
                (_, false) => "every game had the same result",
            };
            format!("{} ({from}; no error: {why})", signed(x, 1))
        }
        (Some(x), Some(error)) => {
            let nelo = match (e.nelo, e.nelo_error_95) {
                (Some(n), Some(ne)) => format!(", nElo {} ± {}", signed(n, 1), num(ne, 1)),
                _ => String::new(),
            };
            format!("{} ± {}{nelo} (95%, {from})", signed(x, 1), num(error, 1))
        }
    }
}

/// The scale of an SPRT's hypotheses in words.
#[must_use]
pub fn model_words(model: SprtModel) -> &'static str {
    match model {
        SprtModel::Logistic => "logistic Elo",
        SprtModel::Normalized => "normalized Elo (nElo)",
    }
}

/// The scale of an SPRT's hypotheses as `[sprt] model` writes it:
/// `logistic` or `normalized`.
#[must_use]
pub fn model_name(model: SprtModel) -> &'static str {
    match model {
        SprtModel::Logistic => "logistic",
        SprtModel::Normalized => "normalized",
    }
}

/// One game of a match, for its SPRT's course.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatchGame {
    /// South, as an index into the match's names.
    pub south: usize,
    /// The winner, `None` for a draw.
    pub winner: Option<endodoi::Side>,
}

/// The summary of the match counted in `tally` (bot `i` is `names[i]`),
/// seen from bot `first`'s side (the first `[[bot]]` of a run's config,
/// or South in the first game), with the SPRT test `sprt` if the run had
/// one. `None` unless `names` are two bots that played.
///
/// The SPRT's course replays `course`, the match's games in game order. A
/// match with a test is one series of one file: for games of several
/// series or files (`arena rate` of several runs) `course` is `None` and
/// the summary has no SPRT, since no one test ran over them.
#[must_use]
pub fn matchup(
    names: &[String],
    tally: &Tally,
    first: usize,
    course: Option<&[MatchGame]>,
    sprt: Option<Sprt>,
) -> Option<Matchup> {
    // A match is a run of two bots: a round robin of more that happens to
    // have games of only two (interrupted, or bots that did not start) is
    // not one.
    let (x, y) = (0, 1);
    if names.len() != 2 || tally.bot(x).games() == 0 {
        return None;
    }
    let (first, second) = if first == y { (y, x) } else { (x, y) };
    let (wdl, counts) = tally.pair(x, y);
    let mut pentanomial = Pentanomial { counts };
    let mut wdl = wdl;
    if first != x {
        pentanomial = pentanomial.flipped();
        wdl = Wdl {
            wins: wdl.losses,
            draws: wdl.draws,
            losses: wdl.wins,
        };
    }
    let elo = match_elo(wdl, &pentanomial);
    let sprt = sprt.zip(course).map(|(test, course)| {
        let rule = SeriesRule {
            first_to: u32::MAX,
            max_games: u32::MAX,
            sprt: Some(test),
            pair_shard: None,
        };
        let scores = course.iter().map(|g| {
            let first_is_south = g.south == first;
            match g.winner {
                None => GameScore::Draw,
                Some(endodoi::Side::South) if first_is_south => GameScore::Win,
                Some(endodoi::Side::North) if !first_is_south => GameScore::Win,
                Some(_) => GameScore::Loss,
            }
        });
        let series = Series {
            number: 1,
            round: 1,
            a: 0,
            b: 1,
        };
        let (_, pairs) = SeriesState::replay(series, rule, scores);
        SprtCurve { test, pairs }
    });
    Some(Matchup {
        bots: [names[first].clone(), names[second].clone()],
        wdl,
        pentanomial,
        elo,
        sprt,
    })
}

/// The Elo of `wdl` and `pentanomial` (the first bot's side): from the
/// pairs when there is one, else from the games.
fn match_elo(wdl: Wdl, pentanomial: &Pentanomial) -> MatchElo {
    let known = |x: f64, spread: bool| spread.then_some(x);
    // A 0% or 100% score: every point to one bot, no finite Elo.
    let points = 2 * wdl.wins + wdl.draws;
    let finite = |x: f64| (points != 0 && points != 2 * wdl.games()).then_some(x);
    if pentanomial.pairs() > 0 {
        let p = stats::penta_elo(pentanomial);
        let spread = pentanomial.counts.iter().filter(|&&c| c > 0).count() > 1;
        MatchElo {
            elo: finite(p.elo),
            error_95: known(p.error_95, spread),
            nelo: known(p.nelo, spread),
            nelo_error_95: known(p.nelo_error_95, spread),
            los: p.los,
            pentanomial: true,
            samples: pentanomial.pairs(),
        }
    } else {
        let t = stats::pair_elo(wdl.wins, wdl.draws, wdl.losses);
        let spread = [wdl.wins, wdl.draws, wdl.losses]
            .iter()
            .filter(|&&c| c > 0)
            .count()
            > 1;
        MatchElo {
            elo: finite(t.elo),
            error_95: known(t.error_95, spread),
            nelo: known(t.nelo, spread),
            nelo_error_95: known(t.nelo_error_95, spread),
            los: t.los,
            pentanomial: false,
            samples: u64::from(wdl.games()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::standings::GameResult;
    use endodoi::Side;

    /// The games and tally of one series between `a` (South in odd games)
    /// and `b`, won by `winners`.
    fn games(winners: &[Option<Side>]) -> (Vec<String>, Tally, Vec<MatchGame>) {
        let names = vec!["a".to_string(), "b".to_string()];
        let rows = (winners.iter().enumerate())
            .map(|(i, &winner)| MatchGame {
                south: i % 2,
                winner,
            })
            .collect();
        (names, Tally::of_pair(winners), rows)
    }

    #[test]
    fn the_summary_counts_from_the_first_bots_side_and_replays_the_test() {
        use Side::{North, South};
        // a wins games 1 (South), 2 (North), draws 3, loses 4 (North).
        let (names, tally, rows) = games(&[Some(South), Some(North), None, Some(South)]);
        let test = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
            model: SprtModel::Logistic,
        };
        let m = matchup(&names, &tally, 0, Some(&rows), Some(test)).unwrap();
        assert_eq!(m.bots, ["a".to_string(), "b".to_string()]);
        assert_eq!((m.wdl.wins, m.wdl.draws, m.wdl.losses), (2, 1, 1));
        assert_eq!(m.pentanomial.counts, [0, 1, 0, 0, 1]);
        let p = stats::penta_elo(&m.pentanomial);
        assert_eq!((m.elo.elo, m.elo.los), (Some(p.elo), p.los));
        let curve = m.sprt.unwrap();
        assert_eq!(curve.pairs.len(), 2);
        assert_eq!(curve.llr(), test.llr_pentanomial(&m.pentanomial));
        let one = Pentanomial {
            counts: [0, 0, 0, 0, 1],
        };
        assert_eq!(curve.pairs[0].llr, test.llr_pentanomial(&one));
        // The same games seen from b's side.
        let m = matchup(&names, &tally, 1, Some(&rows), Some(test)).unwrap();
        assert_eq!(m.bots, ["b".to_string(), "a".to_string()]);
        assert_eq!(m.pentanomial.counts, [1, 0, 0, 1, 0]);
        let llr = m.sprt.unwrap().llr();
        assert_eq!(llr, test.llr_pentanomial(&m.pentanomial));
    }

    #[test]
    fn games_without_one_course_get_no_test() {
        // Games of several series or files (`arena rate` of several runs):
        // no one test ran over them.
        let (names, tally, _) = games(&[Some(Side::South), Some(Side::North)]);
        let m = matchup(&names, &tally, 0, None, Some(Sprt::default())).unwrap();
        assert!(m.sprt.is_none());
        assert_eq!(m.pentanomial.counts, [0, 0, 0, 0, 1]);
    }

    #[test]
    fn only_a_match_of_two_bots_has_a_summary() {
        let (names, tally, rows) = games(&[]);
        assert!(matchup(&names, &tally, 0, Some(&rows), None).is_none());
        let mut three = Tally::new(3);
        for (south, north) in [(0, 1), (1, 2)] {
            three.add(GameResult {
                series: 1,
                game: 1,
                south,
                north,
                winner: None,
                forfeit: false,
            });
        }
        let names3: Vec<String> = ["a", "b", "c"].map(String::from).to_vec();
        let (_, _, rows) = games(&[None]);
        assert!(matchup(&names3, &three, 0, Some(&rows), None).is_none());
        // Three bots of which only two have played yet (an interrupted round
        // robin, or a bot that did not start): still no match.
        let mut two_played = Tally::new(3);
        two_played.add(GameResult {
            series: 1,
            game: 1,
            south: 0,
            north: 1,
            winner: None,
            forfeit: false,
        });
        assert!(matchup(&names3, &two_played, 0, Some(&rows), None).is_none());
    }

    #[test]
    fn one_kind_of_pair_gives_no_error() {
        let (names, tally, rows) = games(&[Some(Side::South), Some(Side::North)]);
        let m = matchup(&names, &tally, 0, Some(&rows), None).unwrap();
        assert!(m.elo.pentanomial && m.elo.error_95.is_none() && m.elo.nelo.is_none());
        let (names, tally, rows) = games(&[Some(Side::South)]);
        let m = matchup(&names, &tally, 0, Some(&rows), None).unwrap();
        assert!(!m.elo.pentanomial && m.elo.los > 0.5);
    }

    #[test]
    fn one_game_and_one_pair_are_singular() {
        assert_eq!(games_and_pairs(1, 0), "1 game (0 pairs)");
        assert_eq!(games_and_pairs(2, 1), "2 games (1 pair)");
        assert_eq!(games_and_pairs(6, 3), "6 games (3 pairs)");
    }

    #[test]
    fn the_elo_in_words_has_one_parenthesis() {
        let e = MatchElo {
            elo: Some(0.0),
            error_95: None,
            nelo: None,
            nelo_error_95: None,
            los: 0.5,
            pentanomial: true,
            samples: 2,
        };
        let text = elo_text(&e);
        assert_eq!(text.matches('(').count(), 1, "{text}");
        assert!(text.contains("no error") && text.contains("from the game pairs"));
        let sweep = MatchElo { elo: None, ..e };
        assert_eq!(elo_text(&sweep).matches('(').count(), 1);
        let measured = MatchElo {
            elo: Some(12.0),
            error_95: Some(30.0),
            ..e
        };
        assert_eq!(
            elo_text(&measured),
            "+12.0 ± 30.0 (95%, from the game pairs)"
        );
    }

    #[test]
    fn a_clean_sweep_has_no_finite_elo_but_a_los() {
        // a wins both games of the pair: no Elo fits a 100% score, and the
        // fit's ±2000 stand-in must not reach match.csv as if measured.
        let (names, tally, rows) = games(&[Some(Side::South), Some(Side::North)]);
        let m = matchup(&names, &tally, 0, Some(&rows), None).unwrap();
        assert_eq!(m.elo.elo, None);
        assert!(m.elo.los > 0.5);
        // A draw in the pair: a finite Elo again.
        let (names, tally, rows) = games(&[Some(Side::South), None]);
        let m = matchup(&names, &tally, 0, Some(&rows), None).unwrap();
        assert!(m.elo.elo.is_some_and(|x| x > 0.0 && x < 2000.0));
    }

    /// Issue 17's tester: one pair's summary said "no error: every pair
    /// scored the same"; with one pair the error is undefined, not zero.
    #[test]
    fn one_pair_is_too_few_for_an_error() {
        let (names, tally, rows) = games(&[Some(Side::South), None]);
        let m = matchup(&names, &tally, 0, Some(&rows), None).unwrap();
        assert_eq!(m.elo.error_95, None);
        let text = elo_text(&m.elo);
        assert!(
            text.ends_with("(from the game pairs; no error: one pair is too few)"),
            "{text}"
        );
        // Two pairs with the same score: that is the reason then.
        let (names, tally, rows) = games(&[Some(Side::South), None, None, Some(Side::North)]);
        let m = matchup(&names, &tally, 0, Some(&rows), None).unwrap();
        let text = elo_text(&m.elo);
        assert!(
            text.ends_with("no error: every pair scored the same)"),
            "{text}"
        );
        // One game, drawn: no pair, and one game is too few.
        let (names, tally, rows) = games(&[None]);
        let m = matchup(&names, &tally, 0, Some(&rows), None).unwrap();
        let text = elo_text(&m.elo);
        assert!(
            text.ends_with("(from single games; no error: one game is too few)"),
            "{text}"
        );
    }
}
