//! Live progress on a terminal, drawn with indicatif: games done of the
//! games scheduled with the time left, the standings so far (Elo ± and
//! score), and forfeits by kind. Off a terminal, or with `--quiet`, the
//! binary prints plain log lines instead and this is not used.
//!
//! The games scheduled are an upper bound that shrinks as it gets sharper:
//! each series counts `max_games` until it ends, then the games it played.
//!
//! An SPRT match has no useful bound (it stops when its test decides, long
//! before `max_games`), so its bar shows the log-likelihood ratio between
//! its bounds instead, refreshed in place after each game pair: H0's bound
//! at the left end, H1's at the right, 0 in between ([`sprt_text`]).

use std::collections::{BTreeMap, HashMap};
use std::time::{Duration, Instant};

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::config::Config;
use crate::output::num;
use crate::output::table::{render, Align};
use crate::referee::{GameEnd, GameRecord};
use crate::runner::{SeriesResult, SprtState};
use crate::standings::{standings, GameResult, Tally};
use crate::stats::{RatingOptions, Sprt};

/// The most standings rows drawn; the rest are summed up in one line.
const MAX_ROWS: usize = 12;

/// How often the standings are refitted at most: the fit with its
/// bootstrap costs milliseconds, games can end every few microseconds.
const REFIT_EVERY: Duration = Duration::from_millis(500);

/// Bootstrap replicates for the live intervals (the files get the
/// configured number).
const LIVE_BOOTSTRAP: u32 = 200;

/// The steps of an SPRT match's bar from H0's bound to H1's.
pub const LLR_STEPS: u64 = 1000;

/// Where an SPRT's `llr` stands between its bounds `(lower, upper)`, as a
/// position on a bar of [`LLR_STEPS`] from the lower bound (0) to the upper
/// one; 0 sits at `LLR_STEPS * lower / (lower - upper)` (the middle for
/// `alpha = beta`).
#[must_use]
pub fn llr_position(llr: f64, (lower, upper): (f64, f64)) -> u64 {
    let at = (llr - lower) / (upper - lower);
    if at.is_finite() {
        (at.clamp(0.0, 1.0) * LLR_STEPS as f64).round() as u64
    } else {
        LLR_STEPS / 2
    }
}

/// The live view's line of an SPRT match: `state` is the test after the
/// last pair (`None` before the first), `bounds` its bounds, `wdl` the
/// games so far from the side of `first`, the bot it counts from. It gives
/// the LLR with its bounds, how far it has come toward the bound it heads
/// for, the games and the first bot's W/D/L, e.g. `LLR 1.47 in [-2.94,
/// 2.94], 50% of the way to H1; 40 games, greedy +30 =2 -8`.
#[must_use]
pub fn sprt_text(
    state: Option<&SprtState>,
    bounds: (f64, f64),
    wdl: crate::standings::Wdl,
    first: &str,
) -> String {
    let (lower, upper) = bounds;
    let llr = state.map_or(0.0, |s| s.llr);
    let toward = match state.map(|s| s.verdict()) {
        Some(v @ ("H0" | "H1")) => crate::matchup::verdict_words(v).to_string(),
        _ if llr >= 0.0 => format!("{:.0}% of the way to H1", 100.0 * llr / upper),
        _ => format!("{:.0}% of the way to H0", 100.0 * llr / lower),
    };
    let games = wdl.games();
    format!(
        "LLR {} in [{}, {}], {toward}; {}, {first} +{} ={} -{}",
        num(llr, 2),
        num(lower, 2),
        num(upper, 2),
        crate::output::counted(games, "game", "games"),
        wdl.wins,
        wdl.draws,
        wdl.losses
    )
}

/// The live view of a run.
pub struct Live {
    multi: MultiProgress,
    bar: ProgressBar,
    lines: Vec<ProgressBar>,
    names: Vec<String>,
    index: HashMap<String, usize>,
    options: RatingOptions,
    tally: Tally,
    forfeits: BTreeMap<&'static str, u32>,
    max_games: u64,
    /// Games played, per series (by this process, and before a resume).
    played: HashMap<usize, u64>,
    refitted: Option<Instant>,
    /// An SPRT match's test: the bar then shows its LLR.
    sprt: Option<Sprt>,
    /// The test after the last game pair.
    sprt_state: Option<SprtState>,
    /// An SPRT match's line under the bar: the LLR in words ([`sprt_text`]).
    sprt_line: Option<ProgressBar>,
}

impl Live {
    /// A live view drawn on stderr, for a run of at most `bound` games
    /// (`None`: an endless league, whose games are only counted).
    #[must_use]
    pub fn new(config: &Config, bound: Option<u64>) -> Live {
        Self::with_target(config, bound, ProgressDrawTarget::stderr_with_hz(10))
    }

    /// A live view drawn on `target` (hidden, in tests).
    #[must_use]
    pub fn with_target(config: &Config, bound: Option<u64>, target: ProgressDrawTarget) -> Live {
        let multi = MultiProgress::with_draw_target(target);
        let sprt = crate::runner::series_rule(config, None).sprt;
        let bar = match (sprt, bound) {
            (None, None) => {
                let bar = multi.add(ProgressBar::no_length());
                bar.set_style(
                    ProgressStyle::with_template("{elapsed_precise} games: {pos} (endless league)")
                        .expect("a valid template"),
                );
                bar
            }
            (None, Some(bound)) => {
                let bar = multi.add(ProgressBar::new(bound));
                bar.set_style(
                    ProgressStyle::with_template(
                        "{elapsed_precise} [{wide_bar}] {pos}/{len} games (at most), {eta} left",
                    )
                    .expect("a valid template")
                    .progress_chars("=> "),
                );
                bar
            }
            (Some(test), _) => {
                let bar = multi.add(ProgressBar::new(LLR_STEPS));
                bar.set_style(
                    ProgressStyle::with_template("{elapsed_precise} H0 [{wide_bar}] H1")
                        .expect("a valid template")
                        .progress_chars("=| "),
                );
                bar.set_position(llr_position(0.0, test.bounds()));
                bar
            }
        };
        let names: Vec<String> = config.bots.iter().map(|b| b.name.clone()).collect();
        let text = ProgressStyle::with_template("{msg}").expect("a valid template");
        let sprt_line = sprt.map(|_| {
            let line = multi.add(ProgressBar::new(1));
            line.set_style(text.clone());
            line
        });
        // A header, the rows, one "more" line, and the forfeits.
        let lines = (0..names.len().min(MAX_ROWS) + 3)
            .map(|_| {
                let line = multi.add(ProgressBar::new(1));
                line.set_style(text.clone());
                line
            })
            .collect();
        let mut options =
            crate::report::rating_options(&config.ratings, config.tournament.seed, &names);
        options.bootstrap_samples = options.bootstrap_samples.min(LIVE_BOOTSTRAP);
        let mut live = Live {
            multi,
            bar,
            lines,
            index: names.iter().cloned().zip(0..).collect(),
            tally: Tally::new(names.len()),
            names,
            options,
            forfeits: BTreeMap::new(),
            max_games: u64::from(config.tournament.max_games),
            played: HashMap::new(),
            refitted: None,
            sprt,
            sprt_state: None,
            sprt_line,
        };
        live.show_sprt();
        live.redraw();
        live
    }

    /// An SPRT match's bar and line, from the test after the last pair.
    fn show_sprt(&self) {
        let Some(test) = self.sprt else { return };
        let first = self.names.first().map_or("", String::as_str);
        let bounds = test.bounds();
        let llr = self.sprt_state.as_ref().map_or(0.0, |s| s.llr);
        self.bar.set_position(llr_position(llr, bounds));
        let wdl = if self.names.len() >= 2 {
            self.tally.pair(0, 1).0
        } else {
            crate::standings::Wdl::default()
        };
        if let Some(line) = &self.sprt_line {
            let text = sprt_text(self.sprt_state.as_ref(), bounds, wdl, first);
            line.set_message(console::truncate_str(&text, terminal_columns(), "").into_owned());
        }
    }

    /// An SPRT match's test after a game pair: the bar moves to its LLR.
    pub fn sprt(&mut self, state: &SprtState) {
        self.sprt_state = Some(state.clone());
        self.show_sprt();
    }

    /// Counts a finished game.
    pub fn game(&mut self, g: &GameRecord) {
        let (Some(&south), Some(&north)) = (self.index.get(&g.bots[0]), self.index.get(&g.bots[1]))
        else {
            return;
        };
        self.tally.add(GameResult {
            series: g.series as u64,
            game: g.game,
            south,
            north,
            winner: g.winner,
            forfeit: g.end.is_forfeit(),
        });
        if g.end.is_forfeit() {
            *self.forfeits.entry(g.end.name()).or_default() += 1;
        }
        *self.played.entry(g.series).or_default() += 1;
        if self.sprt.is_some() {
            self.show_sprt();
        } else {
            self.bar.inc(1);
        }
        if self.refitted.is_none_or_elapsed() {
            self.redraw();
        }
    }

    /// Counts the games an interrupted run already played (`games`, the
    /// rows of its `games.csv`), so that a resumed run's view goes on where
    /// it stopped: the bar, the standings and the forfeits. Returns how many
    /// it counted: no game of a bot this config does not have.
    pub fn resumed(&mut self, games: &[crate::output::GameRow]) -> u64 {
        let mut counted = 0;
        for g in games {
            let (Some(&south), Some(&north)) = (self.index.get(&g.south), self.index.get(&g.north))
            else {
                continue;
            };
            self.tally.add(GameResult {
                series: g.series,
                game: g.game,
                south,
                north,
                winner: g.winner(),
                forfeit: g.is_forfeit(),
            });
            if let Some(kind) = GameEnd::ALL
                .into_iter()
                .find(|e| e.is_forfeit() && e.name() == g.termination)
            {
                *self.forfeits.entry(kind.name()).or_default() += 1;
            }
            *self.played.entry(g.series as usize).or_default() += 1;
            counted += 1;
        }
        match self.sprt {
            None => {
                self.bar.set_position(counted);
                // The time left comes from the games this run plays.
                self.bar.reset_eta();
            }
            Some(test) => {
                // The test as the games played so far left it, recomputed
                // from them as the run's summary is.
                let mut rows: Vec<&crate::output::GameRow> = games
                    .iter()
                    .filter(|g| {
                        self.index.contains_key(&g.south) && self.index.contains_key(&g.north)
                    })
                    .collect();
                rows.sort_by_key(|g| (g.series, g.game));
                let course: Vec<crate::matchup::MatchGame> = rows
                    .iter()
                    .map(|g| crate::matchup::MatchGame {
                        south: self.index[&g.south],
                        winner: g.winner(),
                    })
                    .collect();
                self.sprt_state =
                    crate::matchup::matchup(&self.names, &self.tally, 0, Some(&course), Some(test))
                        .and_then(|m| m.sprt)
                        .and_then(|c| c.pairs.last().cloned());
                self.show_sprt();
            }
        }
        self.redraw();
        counted
    }

    /// A series ended: its share of the bound becomes the games it played.
    pub fn series(&mut self, s: &SeriesResult) {
        let Some(len) = self.bar.length().filter(|_| self.sprt.is_none()) else {
            return; // An SPRT's bar, or an endless league's count.
        };
        let played = self.played.get(&s.series.number).copied().unwrap_or(0);
        let unplayed = self.max_games.saturating_sub(played);
        self.bar
            .set_length(len.saturating_sub(unplayed).max(self.bar.position()));
    }

    /// The bound on the games, known anew (a league's bots came or went):
    /// nothing for an SPRT's bar or an endless league's count.
    pub fn set_bound(&mut self, bound: u64) {
        if self.sprt.is_none() && self.bar.length().is_some() {
            self.bar.set_length(bound.max(self.bar.position()));
        }
    }

    /// The bar's bound on the games now (`None`: an SPRT's bar, or an
    /// endless league's count).
    #[must_use]
    pub fn bound(&self) -> Option<u64> {
        self.bar.length().filter(|_| self.sprt.is_none())
    }

    /// Prints a line above the view (an SPRT update, a notice).
    pub fn println(&self, line: &str) {
        let _ = self.multi.println(line);
    }

    /// Clears the view (the final table is then printed under it).
    pub fn finish(&mut self) {
        self.redraw();
        self.bar.finish_and_clear();
        for line in self.sprt_line.iter().chain(&self.lines) {
            line.finish_and_clear();
        }
        let _ = self.multi.clear();
    }

    /// Refits the standings and redraws the table lines.
    fn redraw(&mut self) {
        // Cut at the terminal's width, so a narrow terminal never wraps a
        // line (a wrapped line breaks the redraw). Not indicatif's
        // `{wide_msg}`: 0.17 cuts that by bytes, and "±" is two.
        let columns = terminal_columns();
        for (bar, text) in self.lines.iter().zip(self.table_lines()) {
            bar.set_message(console::truncate_str(&text, columns, "").into_owned());
        }
        self.refitted = Some(Instant::now());
    }

    /// The table under the bar: a header, a row per bot (best first, at
    /// most [`MAX_ROWS`]), a line for the rest, and the forfeits by kind.
    #[must_use]
    pub fn table_lines(&self) -> Vec<String> {
        let (table, _) = standings(&self.tally, &self.options);
        let rows: Vec<Vec<String>> = table
            .iter()
            .take(MAX_ROWS)
            .map(|s| {
                let elo = if !s.interval.has_interval() {
                    "-".to_string()
                } else {
                    format!("{:+.0} ± {:.0}", s.elo, (s.elo_upper - s.elo_lower) / 2.0)
                };
                vec![
                    s.rank.to_string(),
                    self.names[s.bot].clone(),
                    s.wdl.games().to_string(),
                    format!("{:.1} ({:>3.0}%)", s.wdl.score(), s.wdl.score_pct()),
                    elo,
                ]
            })
            .collect();
        // Laid out unwrapped: each line is one bar of the view, cut at the
        // terminal's width by `redraw`.
        let text = render(
            &["#", "bot", "games", "score", "Elo"],
            &[
                Align::Right,
                Align::Left,
                Align::Right,
                Align::Right,
                Align::Right,
            ],
            &rows,
            u16::MAX,
        );
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        lines.push(if table.len() > MAX_ROWS {
            format!("     ... and {} more", table.len() - MAX_ROWS)
        } else {
            String::new()
        });
        lines.push(if self.forfeits.is_empty() {
            "forfeits: none".to_string()
        } else {
            let kinds: Vec<String> = self
                .forfeits
                .iter()
                .map(|(kind, n)| format!("{kind} {n}"))
                .collect();
            format!("forfeits: {}", kinds.join(", "))
        });
        lines
    }
}

/// The width of the terminal on stderr, in columns (unbounded off one).
fn terminal_columns() -> usize {
    console::Term::stderr()
        .size_checked()
        .map_or(usize::MAX, |(_, columns)| usize::from(columns))
}

/// `Option<Instant>::is_none_or(elapsed >= REFIT_EVERY)`, which Rust 1.80
/// lacks.
trait Due {
    fn is_none_or_elapsed(&self) -> bool;
}

impl Due for Option<Instant> {
    fn is_none_or_elapsed(&self) -> bool {
        self.is_none_or(|t| t.elapsed() >= REFIT_EVERY)
    }
}

impl crate::reporter::Reporter for Live {
    fn resumed(&mut self, games: &[crate::output::GameRow]) -> u64 {
        Live::resumed(self, games)
    }

    fn event(&mut self, event: &crate::runner::Event) {
        use crate::runner::Event;
        match event {
            Event::Game(g) => self.game(g),
            Event::Series(s) => self.series(s),
            // In place, on the bar: a line per pair would flood the terminal.
            Event::Sprt(s) => self.sprt(s),
            Event::Stage(_) => {}
        }
    }

    fn note(&mut self, line: &str) {
        self.println(line);
    }

    fn bound(&mut self, bound: u64) {
        self.set_bound(bound);
    }

    fn finish(&mut self) {
        Live::finish(self);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::GameEnd;
    use crate::schedule::Series;
    use crate::standings::Wdl;
    use endodoi::Side;

    fn config() -> Config {
        let bots = crate::config::test_bots(&["alpha", "b", "c"]);
        crate::config::test_config(&format!(
            "[tournament]\nfirst_to = 2\nmax_games = 4\n{bots}"
        ))
    }

    /// Series 1 of bots 0 and 1 (`alpha` and `b`), in round 1.
    const SERIES_1: Series = Series {
        number: 1,
        round: 1,
        a: 0,
        b: 1,
    };

    /// A game as [`GameRecord::for_test`] takes it: series, game, bots
    /// (South, North), winner, how it ended.
    type GameOf<'a> = (usize, u32, [&'a str; 2], Option<Side>, GameEnd);

    /// A live view of [`config`]'s 12 games (drawn nowhere) after `games`:
    /// each `(series, game, bots, winner, end)` as [`GameRecord::for_test`] makes it.
    fn live_after(games: &[GameOf]) -> Live {
        let mut live = Live::with_target(&config(), Some(12), ProgressDrawTarget::hidden());
        for &(series, number, bots, winner, end) in games {
            live.game(&GameRecord::for_test(series, number, bots, winner, end));
        }
        live
    }

    #[test]
    fn the_table_ranks_bots_and_counts_forfeits_by_kind() {
        let mut live = live_after(&[
            (1, 1, ["alpha", "b"], Some(Side::South), GameEnd::NoMoves),
            (1, 2, ["b", "alpha"], Some(Side::North), GameEnd::Timeout),
            (2, 1, ["alpha", "c"], Some(Side::South), GameEnd::Crash),
        ]);
        live.redraw();
        let lines = live.table_lines();
        assert!(
            lines[0].contains("bot") && lines[0].contains("Elo"),
            "{lines:?}"
        );
        // alpha won all 3 games: first, with 3.0 points.
        assert!(lines[1].trim_start().starts_with("1  alpha"), "{lines:?}");
        assert!(lines[1].contains("3.0 (100%)"), "{lines:?}");
        assert!(lines[1].contains(" ± "), "{lines:?}");
        assert_eq!(lines.last().unwrap(), "forfeits: crash 1, timeout 1");
    }

    /// The rows of a `games.csv` of the columns the live view reads, its
    /// `lines` after the header (each ending with a newline).
    fn rows_of(lines: &str) -> Vec<crate::output::rows::GameRow> {
        let tmp = tempfile::tempdir().unwrap();
        let games = tmp.path().join("games.csv");
        let head = "series,game,south,north,result,termination,detail\n";
        std::fs::write(&games, format!("{head}{lines}")).unwrap();
        crate::output::read_games(&games).unwrap().rows
    }

    #[test]
    fn a_resumed_run_counts_on_from_its_games() {
        let rows = rows_of(
            "1,1,alpha,b,south,no-moves,\n\
             1,2,b,alpha,north,timeout,\"b: no reply\"\n\
             2,1,alpha,c,draw,ply-limit,\n\
             2,2,c,zz,south,no-moves,\n",
        );
        let mut live = Live::with_target(&config(), Some(12), ProgressDrawTarget::hidden());
        // The row of a bot this config does not have is left out.
        assert_eq!(live.resumed(&rows), 3);
        assert_eq!(live.bar.position(), 3);
        let lines = live.table_lines();
        assert!(lines[1].trim_start().starts_with("1  alpha"), "{lines:?}");
        assert!(lines[1].contains("2.5 ( 83%)"), "{lines:?}");
        assert_eq!(lines.last().unwrap(), "forfeits: timeout 1");
        // The games after the resume add to them.
        live.game(&GameRecord::for_test(
            2,
            2,
            ["c", "alpha"],
            Some(Side::North),
            GameEnd::NoMoves,
        ));
        assert_eq!(live.bar.position(), 4);
        assert_eq!(live.resumed(&[]), 0);
        live.finish();
    }

    fn sprt_config() -> Config {
        let bots = crate::config::test_bots(&["alpha", "b"]);
        crate::config::test_config(&format!(
            "[sprt]\nelo0 = 0\nelo1 = 5\nmodel = \"logistic\"\n{bots}"
        ))
    }

    #[test]
    fn the_sprt_line_says_where_the_llr_stands() {
        let bounds = (-2.944, 2.944);
        let state = |llr: f64, verdict| SprtState {
            games: 40,
            wdl: Wdl {
                wins: 30,
                draws: 2,
                losses: 8,
            },
            pentanomial: [0, 1, 4, 5, 10],
            llr,
            bounds,
            status: verdict,
        };
        use crate::stats::SprtStatus::{AcceptH0, AcceptH1, Continue};
        let wdl = Wdl {
            wins: 30,
            draws: 3,
            losses: 8,
        };
        assert_eq!(
            sprt_text(Some(&state(1.472, Continue)), bounds, wdl, "alpha"),
            "LLR 1.47 in [-2.94, 2.94], 50% of the way to H1; 41 games, alpha +30 =3 -8"
        );
        assert_eq!(
            sprt_text(Some(&state(-0.736, Continue)), bounds, wdl, "alpha"),
            "LLR -0.74 in [-2.94, 2.94], 25% of the way to H0; 41 games, alpha +30 =3 -8"
        );
        // A verdict in the words of the summary and the per-game lines.
        for (llr, status, verdict) in [(3.1, AcceptH1, "H1"), (-3.0, AcceptH0, "H0")] {
            let words = crate::matchup::verdict_words(verdict);
            assert!(
                sprt_text(Some(&state(llr, status)), bounds, wdl, "a")
                    .contains(&format!(", {words}; 41 games")),
                "{words}"
            );
        }
        assert_eq!(
            sprt_text(None, bounds, Wdl::default(), "alpha"),
            "LLR 0.00 in [-2.94, 2.94], 0% of the way to H1; 0 games, alpha +0 =0 -0"
        );
        assert_eq!(llr_position(0.0, bounds), LLR_STEPS / 2);
        assert_eq!(llr_position(-9.0, bounds), 0);
        assert_eq!(llr_position(2.944, bounds), LLR_STEPS);
    }

    #[test]
    fn an_sprt_match_shows_its_llr_on_the_bar_not_its_max_games() {
        let config = sprt_config();
        let mut live = Live::with_target(&config, Some(100_000), ProgressDrawTarget::hidden());
        assert_eq!(live.bar.length(), Some(LLR_STEPS));
        assert_eq!(live.bar.position(), LLR_STEPS / 2);
        let test = crate::runner::series_rule(&config, None).sprt.unwrap();
        let winners = [
            Some(Side::South),
            Some(Side::North),
            Some(Side::South),
            None,
        ];
        let mut pentanomial = crate::stats::Pentanomial::default();
        for (i, winner) in winners.into_iter().enumerate() {
            let bots = if i % 2 == 0 {
                ["alpha", "b"]
            } else {
                ["b", "alpha"]
            };
            live.game(&GameRecord::for_test(
                1,
                i as u32 + 1,
                bots,
                winner,
                GameEnd::NoMoves,
            ));
        }
        // Games move nothing on the bar; the test after a pair does.
        assert_eq!(live.bar.position(), LLR_STEPS / 2);
        pentanomial.counts = [0, 0, 1, 0, 1];
        let llr = test.llr_pentanomial(&pentanomial);
        use crate::reporter::Reporter;
        live.event(&crate::runner::Event::Sprt(SprtState {
            games: 4,
            wdl: Wdl {
                wins: 2,
                draws: 1,
                losses: 1,
            },
            pentanomial: pentanomial.counts,
            llr,
            bounds: test.bounds(),
            status: test.status(llr),
        }));
        assert_eq!(live.bar.position(), llr_position(llr, test.bounds()));
        assert!(llr > 0.0 && live.bar.position() > LLR_STEPS / 2);
        let message = live.sprt_line.as_ref().unwrap().message();
        assert!(
            message.starts_with(&format!("LLR {:.2} in [-2.94, 2.94]", llr)),
            "{message}"
        );
        assert!(message.ends_with("; 4 games, alpha +3 =1 -0"), "{message}");
        // A series' end leaves the bar alone.
        live.series(&SeriesResult {
            series: SERIES_1,
            wdl: Wdl::default(),
            decided: true,
            over: true,
        });
        assert_eq!(live.bar.length(), Some(LLR_STEPS));
        live.finish();
    }

    #[test]
    fn a_resumed_sprt_match_shows_the_llr_of_its_games() {
        let rows = rows_of(
            "1,1,alpha,b,south,no-moves,\n\
             1,2,b,alpha,north,no-moves,\n\
             1,3,alpha,b,south,no-moves,\n",
        );
        let config = sprt_config();
        let test = crate::runner::series_rule(&config, None).sprt.unwrap();
        let mut live = Live::with_target(&config, Some(100_000), ProgressDrawTarget::hidden());
        assert_eq!(live.resumed(&rows), 3);
        let llr = test.llr_pentanomial(&crate::stats::Pentanomial {
            counts: [0, 0, 0, 0, 1],
        });
        assert_eq!(live.bar.position(), llr_position(llr, test.bounds()));
        let message = live.sprt_line.as_ref().unwrap().message();
        assert!(message.ends_with("; 3 games, alpha +3 =0 -0"), "{message}");
        live.finish();
    }

    #[test]
    fn the_bound_shrinks_to_the_games_a_series_played() {
        let mut live = live_after(&[
            (1, 1, ["alpha", "b"], Some(Side::South), GameEnd::NoMoves),
            (1, 2, ["b", "alpha"], Some(Side::North), GameEnd::NoMoves),
        ]);
        live.series(&SeriesResult {
            series: SERIES_1,
            wdl: Wdl {
                wins: 2,
                draws: 0,
                losses: 0,
            },
            decided: true,
            over: true,
        });
        // Series 1 played 2 of its 4: the bound is 12 - 2.
        assert_eq!(live.bar.length(), Some(10));
        assert_eq!(live.bar.position(), 2);
        // A league's bots came: the bound known anew.
        live.set_bound(40);
        assert_eq!(live.bound(), Some(40));
        live.finish();
    }

    #[test]
    fn an_endless_leagues_view_counts_games_without_a_bound() {
        let mut live = Live::with_target(&config(), None, ProgressDrawTarget::hidden());
        live.game(&GameRecord::for_test(
            1,
            1,
            ["alpha", "b"],
            Some(Side::South),
            GameEnd::NoMoves,
        ));
        assert_eq!((live.bound(), live.bar.position()), (None, 1));
        // Neither a series' end nor a bound said gives it one.
        live.series(&SeriesResult {
            series: SERIES_1,
            wdl: Wdl {
                wins: 1,
                draws: 0,
                losses: 0,
            },
            decided: true,
            over: true,
        });
        live.set_bound(40);
        assert_eq!(live.bound(), None);
        live.finish();
    }
}
