//! What a person watching a run sees, fed by the runner's events: the
//! [`Reporter`] trait and its plain-lines implementation, [`Lines`]. The
//! live terminal view, `progress::Live`, is the other one.
//!
//! The runner never prints: it emits [`Event`]s, and the `run` command hands
//! each to its reporter along with its own status lines.

use crate::output::GameRow;
use std::io::Write;

use crate::report::{game_line, sprt_line};
use crate::runner::Event;

/// Shows a run as it goes.
pub trait Reporter {
    /// The run resumes an interrupted one that had played `games` (its
    /// `games.csv`): count them in, and return how many there were.
    fn resumed(&mut self, games: &[GameRow]) -> u64;
    /// Something happened in the run (a game ended, a series, an SPRT step).
    fn event(&mut self, event: &Event);
    /// A status line the user must see (a bot skipped, a stop).
    fn note(&mut self, line: &str);
    /// The bound on the games is known anew (a league's bots came or
    /// went): the games the run plays at most, those played included.
    fn bound(&mut self, _bound: u64) {}
    /// The run is over: clear whatever is drawn.
    fn finish(&mut self) {}
}

/// One line per game on a writer (stderr, off a terminal); in an SPRT
/// match ([`Lines::sprt`]) the line of the game that completes a pair
/// ends with the test's LLR after it ([`sprt_suffix`]). With `quiet`, only
/// the lines a user must see.
pub struct Lines<W: Write> {
    out: W,
    quiet: bool,
    /// Games done so far, this run's and a resumed run's before it.
    done: u64,
    /// The bot SPRT results count from (the first `[[bot]]`).
    first: String,
    /// Whether the run is an SPRT match.
    sprt: bool,
    /// The line of a game that completed a pair, waiting for the test.
    pending: Option<String>,
}

/// What the line of a game that completes a pair of an SPRT match ends
/// with: the LLR with its bounds after the pair, the first bot's W/D/L,
/// and the verdict once there is one, e.g. `; SPRT: LLR 0.27 in [-2.94,
/// 2.94] (greedy +4 =0 -0)`.
#[must_use]
pub fn sprt_suffix(s: &crate::runner::SprtState, first: &str) -> String {
    use crate::output::num;
    let verdict = match s.verdict() {
        "continue" => String::new(),
        v => format!(": {}", crate::matchup::verdict_words(v)),
    };
    format!(
        "; SPRT: LLR {} in [{}, {}] ({first} +{} ={} -{}){verdict}",
        num(s.llr, 3),
        num(s.bounds.0, 3),
        num(s.bounds.1, 3),
        s.wdl.wins,
        s.wdl.draws,
        s.wdl.losses
    )
}

/// The line that announces a knockout or Swiss stage, for the console:
/// `arena: knockout round 2: a v b, c v d` (`bots` are the config's names;
/// a stage of deciders says so; a league round gives its number of series), or `None` for a round robin or gauntlet,
/// whose one stage is the whole schedule.
#[must_use]
pub fn stage_line(
    format: &crate::format::Format,
    bots: &[&str],
    stage: &crate::format::Stage,
) -> Option<String> {
    if format.is_static() {
        return None;
    }
    let round = stage.series.first()?.round;
    let of = match format {
        crate::format::Format::Swiss { rounds, .. } => format!(" of {rounds}"),
        crate::format::Format::League(l) => {
            // A league's round may pair thousands: the count, not the pairs.
            let of = l.rounds.map_or_else(String::new, |r| format!(" of {r}"));
            let how = match l.pairing {
                crate::format::PairBy::Random => "paired at random",
                crate::format::PairBy::Rating if stage.at_random => {
                    "paired at random (the warm-up, while the ratings are mostly noise)"
                }
                crate::format::PairBy::Rating => "paired by rating",
            };
            return Some(format!(
                "arena: league round {round}{of}: {}{}, {how} (league.csv lists them)",
                crate::output::counted(stage.series.len(), "series", "series"),
                byes_and_catch_up(stage)
            ));
        }
        _ => String::new(),
    };
    let pairs: Vec<String> = stage
        .series
        .iter()
        .map(|s| format!("{} v {}", bots[s.a], bots[s.b]))
        .collect();
    let kind = if stage.decider {
        ", deciders (one game pair each)"
    } else {
        ""
    };
    Some(format!(
        "arena: {} round {round}{of}{kind}: {}",
        format.name(),
        pairs.join(", ")
    ))
}

/// A league round's byes and catch-up series, when it has any:
/// ` (1 bye, 3 catch-up)`; empty when it has none.
fn byes_and_catch_up(stage: &crate::format::Stage) -> String {
    let mut parts = Vec::new();
    if stage.byes > 0 {
        parts.push(crate::output::counted(stage.byes, "bye", "byes"));
    }
    if stage.catch_up > 0 {
        parts.push(format!("{} catch-up", stage.catch_up));
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!(" ({})", parts.join(", "))
    }
}

/// The console's round lines ([`stage_line`]) of a resumed league, which
/// pairs again every round the interrupted run paired and replays those it
/// played whole without a game: their lines are held back and said as one
/// ([`RoundLines::game`]), before the line of the first round that plays a
/// game. Any other run's lines are said as they come.
#[derive(Debug, Default)]
pub struct RoundLines {
    /// Whether rounds are still replayed (a resumed league before its
    /// first game of this run).
    replaying: bool,
    /// The last round begun while replaying, and its line, not yet said.
    held: Option<(u32, String)>,
    /// The first and last rounds replayed without a game.
    replayed: Option<(u32, u32)>,
}

impl RoundLines {
    /// The round lines of a run; `resumed_league` holds back those of the
    /// rounds replayed.
    #[must_use]
    pub fn new(resumed_league: bool) -> RoundLines {
        RoundLines {
            replaying: resumed_league,
            ..RoundLines::default()
        }
    }

    /// Round `round` begins, announced by `line`: the lines to say now
    /// (none while replaying: the round before had no game).
    pub fn stage(&mut self, round: u32, line: String) -> Vec<String> {
        if !self.replaying {
            return vec![line];
        }
        self.replay_held();
        self.held = Some((round, line));
        Vec::new()
    }

    /// A game of this run ended: the lines held back, said now (the
    /// rounds replayed in one, then the line of the round being played).
    pub fn game(&mut self) -> Vec<String> {
        if !std::mem::take(&mut self.replaying) {
            return Vec::new();
        }
        let held = self.held.take().map(|(_, line)| line);
        self.replayed_line().into_iter().chain(held).collect()
    }

    /// The run ends: the rounds replayed, if no game came after them.
    pub fn end(&mut self) -> Vec<String> {
        if !std::mem::take(&mut self.replaying) {
            return Vec::new();
        }
        self.replay_held();
        self.replayed_line().into_iter().collect()
    }

    /// The round held back had no game: it was replayed.
    fn replay_held(&mut self) {
        if let Some((round, _)) = self.held.take() {
            let first = self.replayed.map_or(round, |(first, _)| first);
            self.replayed = Some((first, round));
        }
    }

    fn replayed_line(&self) -> Option<String> {
        let rounds = match self.replayed? {
            (a, b) if a == b => format!("round {a}"),
            (a, b) => format!("rounds {a} to {b}"),
        };
        Some(format!(
            "arena: league {rounds} paired again as they were and replayed from the games kept (already played)"
        ))
    }
}

impl<W: Write> Lines<W> {
    /// Plain lines on `out`; `first` is the first bot's name.
    pub fn new(out: W, quiet: bool, first: &str) -> Lines<W> {
        Lines {
            out,
            quiet,
            done: 0,
            first: first.to_string(),
            sprt: false,
            pending: None,
        }
    }

    /// The same, for an SPRT match when `sprt`: the LLR goes on the line of
    /// the game that completes each pair.
    #[must_use]
    pub fn sprt(mut self, sprt: bool) -> Lines<W> {
        self.sprt = sprt;
        self
    }

    /// Writes the line waiting for the test, if any, as it is.
    fn flush_pending(&mut self) {
        if let Some(line) = self.pending.take() {
            self.line(&line);
        }
    }

    fn line(&mut self, text: &str) {
        // A closed stderr must not stop the tournament.
        let _ = writeln!(self.out, "{text}");
    }
}

impl<W: Write> Reporter for Lines<W> {
    fn resumed(&mut self, games: &[GameRow]) -> u64 {
        self.done = games.len() as u64;
        self.done
    }

    fn event(&mut self, event: &Event) {
        match event {
            Event::Game(g) => {
                self.flush_pending();
                self.done += 1;
                if !self.quiet {
                    let line = game_line(self.done as usize, g);
                    // In an SPRT match the test's state follows a pair's
                    // second game: it goes on that game's line.
                    if self.sprt && g.game % 2 == 0 {
                        self.pending = Some(line);
                    } else {
                        self.line(&line);
                    }
                }
            }
            Event::Sprt(s) if !self.quiet => match self.pending.take() {
                Some(line) => {
                    let line = format!("{line}{}", sprt_suffix(s, &self.first));
                    self.line(&line);
                }
                None => {
                    let line = sprt_line(s, &self.first);
                    self.line(&line);
                }
            },
            _ => self.flush_pending(),
        }
    }

    fn note(&mut self, line: &str) {
        self.flush_pending();
        self.line(line);
    }

    fn finish(&mut self) {
        self.flush_pending();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::{GameEnd, GameRecord};
    use crate::runner::SprtState;
    use crate::standings::Wdl;
    use crate::stats::SprtStatus;
    use endodoi::Side;

    #[test]
    fn a_resumed_league_says_its_replayed_rounds_once_before_the_round_that_plays() {
        let line = |r: u32| format!("arena: league round {r}: 2 series");
        let mut lines = RoundLines::new(true);
        for r in 1..=3 {
            assert!(lines.stage(r, line(r)).is_empty(), "round {r} held");
        }
        // Round 3 plays: rounds 1 and 2 were replayed whole.
        assert_eq!(
            lines.game(),
            [
                "arena: league rounds 1 to 2 paired again as they were and replayed from the games kept (already played)".to_string(),
                line(3)
            ]
        );
        assert!(lines.game().is_empty());
        assert_eq!(lines.stage(4, line(4)), [line(4)]);
        assert!(lines.end().is_empty());
        // Round 1 plays at once: nothing replayed, its line as it comes.
        let mut lines = RoundLines::new(true);
        assert!(lines.stage(1, line(1)).is_empty());
        assert_eq!(lines.game(), [line(1)]);
        // Every round replayed, then the end (a league over, or stopped).
        let mut lines = RoundLines::new(true);
        assert!(lines.stage(1, line(1)).is_empty());
        assert_eq!(
            lines.end(),
            ["arena: league round 1 paired again as they were and replayed from the games kept (already played)"]
        );
        // A run not resumed: every line as it comes.
        let mut lines = RoundLines::new(false);
        assert_eq!(lines.stage(1, line(1)), [line(1)]);
        assert!(lines.game().is_empty() && lines.end().is_empty());
    }

    fn game(game: u32) -> Event {
        let bots = if game % 2 == 1 {
            ["a", "b"]
        } else {
            ["b", "a"]
        };
        Event::Game(GameRecord::for_test(
            1,
            game,
            bots,
            Some(Side::South),
            GameEnd::NoMoves,
        ))
    }

    fn sprt(games: u32, llr: f64, status: SprtStatus) -> Event {
        Event::Sprt(SprtState {
            games,
            wdl: Wdl {
                wins: games / 2,
                draws: 0,
                losses: games / 2,
            },
            pentanomial: [0, 0, games / 2, 0, 0],
            llr,
            bounds: (-2.944, 2.944),
            status,
        })
    }

    fn lines(sprt_match: bool, events: &[Event]) -> Vec<String> {
        let mut out = Vec::new();
        let mut lines = Lines::new(&mut out, false, "a").sprt(sprt_match);
        for e in events {
            lines.event(e);
        }
        lines.finish();
        String::from_utf8(out)
            .unwrap()
            .lines()
            .map(String::from)
            .collect()
    }

    #[test]
    fn a_knockout_stage_is_announced_with_its_pairs_and_a_round_robin_is_not() {
        use crate::format::{Decider, Format, Stage};
        use crate::schedule::Series;
        let bots = ["a", "b", "c", "d"];
        let series = |number, a, b| Series {
            number,
            round: 2,
            a,
            b,
        };
        let stage = Stage {
            series: vec![series(3, 0, 3), series(4, 1, 2)],
            decider: false,
            at_random: false,
            byes: 0,
            catch_up: 0,
        };
        let knockout = Format::Knockout {
            seeds: vec![0, 1, 2, 3],
            decider: Decider::Pair,
        };
        assert_eq!(
            stage_line(&knockout, &bots, &stage).as_deref(),
            Some("arena: knockout round 2: a v d, b v c")
        );
        let deciders = Stage {
            series: vec![series(5, 0, 3)],
            decider: true,
            at_random: false,
            byes: 0,
            catch_up: 0,
        };
        assert_eq!(
            stage_line(&knockout, &bots, &deciders).as_deref(),
            Some("arena: knockout round 2, deciders (one game pair each): a v d")
        );
        let mut settings = crate::format::LeagueSettings {
            rounds: Some(9),
            settle_los: None,
            seed: 1,
            prior_draws: 1.0,
            bootstrap: 0,
            pairing: crate::format::PairBy::Rating,
            catch_up: 4,
        };
        let line = |settings: &crate::format::LeagueSettings, at_random: bool| {
            let stage = Stage {
                at_random,
                ..stage.clone()
            };
            stage_line(&Format::League(*settings), &bots, &stage).unwrap()
        };
        assert_eq!(
            line(&settings, false),
            "arena: league round 2 of 9: 2 series, paired by rating (league.csv lists them)"
        );
        assert!(line(&settings, true).contains(", paired at random (the warm-up,"));
        let with = Stage {
            byes: 1,
            catch_up: 3,
            ..stage.clone()
        };
        assert_eq!(
            stage_line(&Format::League(settings), &bots, &with).unwrap(),
            "arena: league round 2 of 9: 2 series (1 bye, 3 catch-up), paired by rating (league.csv lists them)"
        );
        settings.pairing = crate::format::PairBy::Random;
        assert!(line(&settings, true).contains(", paired at random (league.csv"));
        let swiss = Format::Swiss {
            seeds: vec![0, 1, 2, 3],
            rounds: 3,
        };
        assert!(stage_line(&swiss, &bots, &stage)
            .unwrap()
            .starts_with("arena: swiss round 2 of 3: "));
        assert_eq!(stage_line(&Format::RoundRobin, &bots, &stage), None);
    }

    #[test]
    fn an_sprt_match_has_one_line_per_game_with_the_llr_after_each_pair() {
        let events = [
            game(1),
            game(2),
            sprt(2, -0.0123, SprtStatus::Continue),
            game(3),
            game(4),
            sprt(4, 3.1, SprtStatus::AcceptH1),
        ];
        let shown = lines(true, &events);
        assert_eq!(shown.len(), 4, "{shown:?}");
        assert!(shown[0].starts_with("[   1] series 1 game 1:") && !shown[0].contains("LLR"));
        assert!(
            shown[1].starts_with("[   2] series 1 game 2:")
                && shown[1].ends_with("; SPRT: LLR -0.012 in [-2.944, 2.944] (a +1 =0 -1)"),
            "{shown:?}"
        );
        assert!(
            shown[3].ends_with(&format!(
                "; SPRT: LLR 3.100 in [-2.944, 2.944] (a +2 =0 -2): {}",
                crate::matchup::verdict_words("H1")
            )),
            "{shown:?}"
        );
        // A pair's game left without its test (a stop) is still written.
        assert_eq!(lines(true, &[game(1), game(2)]).len(), 2);
        // Without a test, a line per game as they come.
        assert_eq!(lines(false, &events[..2]).len(), 2);
    }
}
