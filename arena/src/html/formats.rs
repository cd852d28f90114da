//! The report's sections of a tournament format beyond the round robin:
//! a knockout's bracket, a Swiss's rounds and standings, a gauntlet's
//! candidates against the pool. Built from the run's [`Plan`] (rebuilt
//! from its series results with [`Plan::replay`]), so the report, the
//! console table and the CSV files show the same course. Pure.

use maud::{html, Markup};

use crate::format::{Format, Plan, Settled};
use crate::output::num;
use crate::standings::Wdl;

/// A tournament's course for the report's format sections: its plan and
/// the config's bot names, which the plan's indices refer to.
#[derive(Clone, Copy, Debug)]
pub struct FormatCourse<'a> {
    /// The plan, with the series results recorded so far.
    pub plan: &'a Plan,
    /// The bots' names in the config's order.
    pub names: &'a [String],
    /// A league's trends, taken round by round as its plan was replayed
    /// (the plan keeps its last round's pairings only); `None`: the
    /// report reads them from the folder's `league.csv`.
    pub trends: Option<&'a crate::html::Trends>,
}

/// One side of a knockout tie: a bot and its seed (from 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entrant {
    /// The bot (an index into the config's bots).
    pub bot: usize,
    /// Its seed, from 1.
    pub seed: usize,
}

/// A knockout tie as the report shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tie {
    /// The knockout round, from 1.
    pub round: u32,
    /// Its place in the round's bracket order, from 1.
    pub tie: usize,
    /// The better seed first; `None` for an empty slot.
    pub bots: [Option<Entrant>; 2],
    /// Its series numbers: the series, then each decider.
    pub series: Vec<usize>,
    /// The decider series among them, by number.
    pub deciders: usize,
    /// Games from `bots[0]`'s side, over every recorded series of the tie.
    pub wdl: Wdl,
    /// The bot that went through, once known.
    pub winner: Option<usize>,
    /// How, once settled.
    pub settled: Option<Settled>,
}

/// The word `knockout.csv` and the report use for how a tie was settled.
#[must_use]
pub fn settled_word(s: Settled) -> &'static str {
    match s {
        Settled::Series => "series",
        Settled::Decider => "decider",
        Settled::Seed => "seed",
        Settled::Bye => "bye",
        Settled::Walkover => "walkover",
    }
}

/// How a settled tie is described to a reader: `series`, `decider` (with
/// the number of decider pairs past one), `better seed`, `bye`,
/// `walkover`; `open` while it is not settled.
#[must_use]
pub fn settled_words(t: &Tie) -> String {
    match t.settled {
        None => "open".to_string(),
        Some(Settled::Decider) if t.deciders > 1 => format!("decider ({} pairs)", t.deciders),
        Some(Settled::Seed) if t.deciders > 0 => format!(
            "better seed (after {})",
            crate::output::counted(t.deciders, "decider pair", "decider pairs")
        ),
        Some(Settled::Seed) => "better seed".to_string(),
        Some(s) => settled_word(s).to_string(),
    }
}

/// Games of `wdl` (from bot `a`'s side) seen from `bot`'s side.
fn from_side(wdl: Wdl, a: usize, bot: usize) -> Wdl {
    if a == bot {
        wdl
    } else {
        Wdl {
            wins: wdl.losses,
            draws: wdl.draws,
            losses: wdl.wins,
        }
    }
}

/// The seed (from 1) of `bot` among `seeds`; bots not seeded count last.
fn seed_of(seeds: &[usize], bot: usize) -> usize {
    seeds
        .iter()
        .position(|&s| s == bot)
        .map_or(seeds.len() + 1, |i| i + 1)
}

/// A knockout's ties, round by round in bracket order; empty for other
/// formats.
#[must_use]
pub fn ties(plan: &Plan) -> Vec<Tie> {
    let (Some(bracket), Format::Knockout { seeds, .. }) = (plan.bracket(), plan.format()) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (r, round) in bracket.rounds.iter().enumerate() {
        for (t, b) in round.iter().enumerate() {
            let bots = b.bots.map(|x| {
                x.map(|bot| Entrant {
                    bot,
                    seed: seed_of(seeds, bot),
                })
            });
            let mut wdl = Wdl::default();
            if let Some(first) = b.bots[0] {
                for &n in &b.series {
                    if let Some(res) = plan.result(n) {
                        let w = from_side(res.wdl, res.series.a, first);
                        wdl.wins += w.wins;
                        wdl.draws += w.draws;
                        wdl.losses += w.losses;
                    }
                }
            }
            out.push(Tie {
                round: r as u32 + 1,
                tie: t + 1,
                bots,
                deciders: b.series.iter().filter(|&&n| plan.is_decider(n)).count(),
                series: b.series.clone(),
                wdl,
                winner: b.winner,
                settled: b.settled,
            });
        }
    }
    out
}

/// The name of knockout round `round` of `total`: `final`, `semi-finals`,
/// `quarter-finals`, else `round N`.
#[must_use]
pub fn round_name(round: u32, total: u32) -> String {
    match total.saturating_sub(round) {
        0 => "final".to_string(),
        1 => "semi-finals".to_string(),
        2 => "quarter-finals".to_string(),
        _ => format!("round {round}"),
    }
}

/// A Swiss round as the report shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct SwissRound {
    /// The round, from 1.
    pub round: u32,
    /// Its series: (number, bot a, bot b, games from a's side if
    /// recorded), in number order.
    pub pairings: Vec<(usize, usize, usize, Option<Wdl>)>,
    /// The bot with the bye, if any.
    pub bye: Option<usize>,
}

/// A Swiss's rounds paired so far; empty for other formats.
#[must_use]
pub fn swiss_rounds(plan: &Plan) -> Vec<SwissRound> {
    let Some(st) = plan.swiss_standings() else {
        return Vec::new();
    };
    (1..=st.rounds_paired)
        .map(|round| SwissRound {
            round,
            pairings: plan
                .series()
                .iter()
                .filter(|s| s.round == round)
                .map(|s| (s.number, s.a, s.b, plan.result(s.number).map(|r| r.wdl)))
                .collect(),
            bye: plan
                .byes()
                .iter()
                .find(|(r, _)| *r == round)
                .map(|(_, b)| *b),
        })
        .collect()
}

/// A gauntlet candidate's games against the pool (the bots that are not
/// candidates).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CandidateScore {
    /// The candidate (an index into the config's bots).
    pub bot: usize,
    /// Series recorded against the pool.
    pub series: usize,
    /// Series it won, drew and lost against the pool.
    pub series_wdl: Wdl,
    /// Its games against the pool.
    pub wdl: Wdl,
}

impl CandidateScore {
    /// The candidate's score against the pool in percent (a win 1, a draw
    /// 1/2), `None` before a game.
    #[must_use]
    pub fn score_pct(&self) -> Option<f64> {
        let games = self.wdl.games();
        (games > 0).then(|| {
            100.0 * (f64::from(self.wdl.wins) + f64::from(self.wdl.draws) / 2.0) / f64::from(games)
        })
    }
}

/// Each gauntlet candidate's score against the pool, in the config's
/// order of the candidates; empty for other formats.
#[must_use]
pub fn candidate_scores(plan: &Plan) -> Vec<CandidateScore> {
    let Format::Gauntlet { candidates } = plan.format() else {
        return Vec::new();
    };
    candidates
        .iter()
        .map(|&c| {
            let mut score = CandidateScore {
                bot: c,
                series: 0,
                series_wdl: Wdl::default(),
                wdl: Wdl::default(),
            };
            for s in plan.series() {
                let other = if s.a == c {
                    s.b
                } else if s.b == c {
                    s.a
                } else {
                    continue;
                };
                if candidates.contains(&other) {
                    continue;
                }
                let Some(r) = plan.result(s.number) else {
                    continue;
                };
                let w = from_side(r.wdl, s.a, c);
                score.series += 1;
                match w.wins.cmp(&w.losses) {
                    std::cmp::Ordering::Greater => score.series_wdl.wins += 1,
                    std::cmp::Ordering::Equal => score.series_wdl.draws += 1,
                    std::cmp::Ordering::Less => score.series_wdl.losses += 1,
                }
                score.wdl.wins += w.wins;
                score.wdl.draws += w.draws;
                score.wdl.losses += w.losses;
            }
            score
        })
        .collect()
}

/// The sections of `course`'s format, in the order the page shows them
/// (before the Elo standings): a knockout's `section#bracket`, a Swiss's
/// `section#swiss` (standings) and `section#rounds`, a gauntlet's
/// `section#candidates`; empty for a round robin.
#[must_use]
pub fn format_sections(course: &FormatCourse<'_>) -> Markup {
    match course.plan.format() {
        Format::RoundRobin => html! {},
        Format::Gauntlet { .. } => candidates_section(course),
        Format::Knockout { .. } => bracket_section(course),
        Format::Swiss { .. } => html! { (swiss_section(course)) (rounds_section(course)) },
        Format::League(_) => html! {},
    }
}

/// The nav links of [`format_sections`].
#[must_use]
pub fn format_links(course: &FormatCourse<'_>) -> Markup {
    match course.plan.format() {
        Format::RoundRobin => html! {},
        Format::Gauntlet { .. } => html! { a href="#candidates" { "Candidates" } " · " },
        Format::Knockout { .. } => html! { a href="#bracket" { "Bracket" } " · " },
        Format::Swiss { .. } => html! {
            a href="#swiss" { "Swiss standings" } " · " a href="#rounds" { "Rounds" } " · "
        },
        Format::League(_) => html! {},
    }
}

/// `names[i]`, or `?`.
fn name_of(names: &[String], i: usize) -> &str {
    names.get(i).map_or("?", String::as_str)
}

/// The bracket: rounds as columns, each tie a box with its two bots, their
/// game wins, the winner in bold, and how it was settled.
fn bracket_section(course: &FormatCourse<'_>) -> Markup {
    let plan = course.plan;
    let names = course.names;
    let total = plan.bracket().map_or(0, |b| b.total_rounds);
    let ties = ties(plan);
    let champion = plan.champion();
    html! {
        section #bracket {
            h2 { "Bracket" }
            p.note {
                @if let Some(c) = champion {
                    "Champion: " strong.champion { (name_of(names, c)) } ". "
                } @else {
                    "No champion yet. "
                }
                "Each box is a tie: the seeds, the bots and their game wins (deciders included); the bot that went through in bold. knockout.csv has the same rows."
            }
            div.scroll.bracket-scroll {
                div.bracket {
                    @for round in 1..=total.max(1) {
                        div.round data-round=(round) {
                            h3 { (round_name(round, total)) }
                            @for t in ties.iter().filter(|t| t.round == round) {
                                div.tie data-settled=(t.settled.map_or("open", settled_word)) {
                                    @for (k, e) in t.bots.iter().enumerate() {
                                        @match e {
                                            Some(e) => {
                                                @let wins = if k == 0 { t.wdl.wins } else { t.wdl.losses };
                                                div class=(if t.winner == Some(e.bot) { "slot won" } else { "slot" }) {
                                                    span.seed { (e.seed) }
                                                    span.bot { (name_of(names, e.bot)) }
                                                    span.wins { @if !t.series.is_empty() { (wins) } }
                                                }
                                            }
                                            None => div.slot.empty { span.seed {} span.bot { "—" } span.wins {} },
                                        }
                                    }
                                    div.how {
                                        (settled_words(t))
                                        @if t.wdl.draws > 0 { " · " (t.wdl.draws) " drawn" }
                                        @if let Some(&n) = t.series.first() { " · series " (n) }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// The Swiss standings: points rank a Swiss, Buchholz breaks ties.
fn swiss_section(course: &FormatCourse<'_>) -> Markup {
    let Some(st) = course.plan.swiss_standings() else {
        return html! {};
    };
    let rounds = match course.plan.format() {
        Format::Swiss { rounds, .. } => *rounds,
        _ => 0,
    };
    let names = course.names;
    html! {
        section #swiss {
            h2 { "Swiss standings" }
            p.note {
                "After " (st.rounds_paired) " of " (rounds) " rounds paired"
                @if let Some(c) = course.plan.champion() { "; the winner: " strong { (name_of(names, c)) } }
                ". Points: 1 a series won or a bye, ½ a series drawn; ties broken by Buchholz (the opponents' points), then seed. swiss.csv has the same rows; the Elo standings below rate the same games."
            }
            table.swiss {
                thead { tr {
                    th { "#" } th.name { "bot" } th { "seed" } th { "points" } th { "Buchholz" }
                    th { "W-D-L" } th { "byes" }
                } }
                tbody {
                    @for r in &st.rows {
                        tr {
                            td { @if r.absent { "-" } @else { (r.rank) } }
                            td.name { (name_of(names, r.bot)) }
                            td { (r.seed) }
                            td { (num(r.points, 1)) }
                            td { (num(r.buchholz, 1)) }
                            td { (r.won) "-" (r.drawn) "-" (r.lost) }
                            td { (r.byes) @if r.absent { " (not started)" } }
                        }
                    }
                }
            }
        }
    }
}

/// The Swiss rounds: per round, its pairings with the series score, and
/// the bye.
fn rounds_section(course: &FormatCourse<'_>) -> Markup {
    let names = course.names;
    html! {
        section #rounds {
            h2 { "Rounds" }
            @for r in swiss_rounds(course.plan) {
                div.swiss-round data-round=(r.round) {
                    h3 { "Round " (r.round) }
                    table.pairings {
                        tbody {
                            @for (n, a, b, wdl) in &r.pairings {
                                @let won = wdl.map(|w| w.wins.cmp(&w.losses));
                                tr {
                                    td { "series " (n) }
                                    td class=(if won == Some(std::cmp::Ordering::Greater) { "name won" } else { "name" }) { (name_of(names, *a)) }
                                    td.score { @match wdl { Some(w) => { (w.wins) "-" (w.draws) "-" (w.losses) }, None => { "…" } } }
                                    td class=(if won == Some(std::cmp::Ordering::Less) { "name won" } else { "name" }) { (name_of(names, *b)) }
                                }
                            }
                            @if let Some(b) = r.bye {
                                tr.bye { td { "bye" } td.name colspan="3" { (name_of(names, b)) " (1 point)" } }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// A gauntlet's candidates against the pool.
fn candidates_section(course: &FormatCourse<'_>) -> Markup {
    let names = course.names;
    html! {
        section #candidates {
            h2 { "Candidates" }
            p.note { "Each candidate's series and games against the pool (the bots that are not candidates; series between candidates are left out here, kept in the Elo standings)." }
            table.candidates {
                thead { tr {
                    th.name { "candidate" } th { "series" } th { "series W-D-L" } th { "games" } th { "W-D-L" } th { "score" }
                } }
                tbody {
                    @for c in candidate_scores(course.plan) {
                        tr {
                            td.name { (name_of(names, c.bot)) }
                            td { (c.series) }
                            td { (c.series_wdl.wins) "-" (c.series_wdl.draws) "-" (c.series_wdl.losses) }
                            td { (c.wdl.games()) }
                            td { (c.wdl.wins) "-" (c.wdl.draws) "-" (c.wdl.losses) }
                            td { @if let Some(p) = c.score_pct() { (num(p, 1)) "%" } }
                        }
                    }
                }
            }
        }
    }
}

/// Plans played out with results chosen by hand, for the tests of the
/// format sections here and of their text and CSV (`report`).
#[cfg(test)]
pub(crate) mod fixtures {
    use crate::format::{Decider, Format, Plan};
    use crate::series::SeriesResult;
    use crate::standings::Wdl;

    /// Games `w`-`d`-`l` from bot `a`'s side.
    pub fn wdl(w: u32, d: u32, l: u32) -> Wdl {
        Wdl {
            wins: w,
            draws: d,
            losses: l,
        }
    }

    /// Plays `plan` out stage by stage; `outcome(a, b, decider)` gives each
    /// series' games from `a`'s side (`a < b`, as the plan numbers them).
    pub fn play(mut plan: Plan, outcome: impl Fn(usize, usize, bool) -> Wdl) -> Plan {
        while let Some(stage) = plan.next_stage() {
            for s in stage.series {
                let result = SeriesResult {
                    series: s,
                    wdl: outcome(s.a, s.b, stage.decider),
                    decided: true,
                    over: true,
                };
                assert!(plan.record(&result));
            }
        }
        plan
    }

    /// Names `a`, `b`, ... of `n` bots.
    pub fn names(n: usize) -> Vec<String> {
        (0..n)
            .map(|i| ((b'a' + i as u8) as char).to_string())
            .collect()
    }

    /// A knockout of 4 bots seeded a, b, c, d, decided by game pairs:
    /// a beats d 2-0; b and c draw 1-1 (series 2), c takes the decider
    /// 2-0 (series 3); in the final (series 4) c beats a 2-1.
    pub fn knockout() -> Plan {
        let format = Format::Knockout {
            seeds: vec![0, 1, 2, 3],
            decider: Decider::Pair,
        };
        play(Plan::new(&format, 4, &[]), |a, b, decider| match (a, b) {
            (0, 3) => wdl(2, 0, 0),
            (1, 2) if decider => wdl(0, 0, 2),
            (1, 2) => wdl(1, 0, 1),
            (0, 2) => wdl(1, 0, 2),
            other => panic!("{other:?} do not meet in this bracket"),
        })
    }

    /// A Swiss of 3 bots seeded a, b, c over 2 rounds: round 1 a draws b
    /// 1-1 and c has the bye; round 2 c beats a 2-0 and b has the bye.
    pub fn swiss() -> Plan {
        let format = Format::Swiss {
            seeds: vec![0, 1, 2],
            rounds: 2,
        };
        play(Plan::new(&format, 3, &[]), |a, b, _| match (a, b) {
            (0, 1) => wdl(1, 0, 1),
            (0, 2) => wdl(0, 0, 2),
            other => panic!("{other:?} do not meet in this Swiss"),
        })
    }

    /// A gauntlet of candidates a and b against the pool c and d: a beats
    /// c 2-0 and splits with d 1-0-1; b loses to c 0-0-2 and beats d
    /// 1-2-0; a and b draw 1-1 (not against the pool).
    pub fn gauntlet() -> Plan {
        let format = Format::Gauntlet {
            candidates: vec![0, 1],
        };
        play(Plan::new(&format, 4, &[]), |a, b, _| match (a, b) {
            (0, 1) => wdl(1, 0, 1),
            (0, 2) => wdl(2, 0, 0),
            (0, 3) => wdl(1, 0, 1),
            (1, 2) => wdl(0, 0, 2),
            (1, 3) => wdl(1, 2, 0),
            other => panic!("{other:?} never meet in this gauntlet"),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::fixtures::{self, wdl};
    use super::*;

    fn html_of(plan: &Plan, names: &[String]) -> String {
        format_sections(&FormatCourse {
            plan,
            names,
            trends: None,
        })
        .into_string()
    }

    /// The text of each element that starts with `open` (its tags
    /// stripped, one space between cells), in order.
    fn texts(html: &str, open: &str) -> Vec<String> {
        html.split(open)
            .skip(1)
            .map(|rest| {
                let mut text = String::new();
                let mut depth = 1usize;
                // An opener without its `>` has attributes to skip.
                let mut in_tag = !open.ends_with('>');
                let mut chars = rest.chars().peekable();
                while let Some(c) = chars.next() {
                    match c {
                        '<' if chars.peek() == Some(&'/') => {
                            depth -= 1;
                            in_tag = true;
                            text.push(' ');
                        }
                        '<' => {
                            depth += 1;
                            in_tag = true;
                            text.push(' ');
                        }
                        '>' => in_tag = false,
                        c if !in_tag => text.push(c),
                        _ => {}
                    }
                    if depth == 0 {
                        break;
                    }
                }
                text.split_whitespace().collect::<Vec<_>>().join(" ")
            })
            .collect()
    }

    #[test]
    fn the_ties_of_a_knockout_add_up_their_series_and_deciders() {
        let plan = fixtures::knockout();
        let e = |bot, seed| Some(Entrant { bot, seed });
        let t = ties(&plan);
        assert_eq!(t.len(), 3, "{t:?}");
        assert_eq!(
            (t[0].round, t[0].tie, t[0].bots, &t[0].series, t[0].wdl),
            (1, 1, [e(0, 1), e(3, 4)], &vec![1], wdl(2, 0, 0))
        );
        assert_eq!(t[0].winner, Some(0));
        // b's side: 1-0-1 in the series, 0-0-2 in the decider.
        assert_eq!(
            (t[1].round, t[1].tie, t[1].bots, &t[1].series, t[1].wdl),
            (1, 2, [e(1, 2), e(2, 3)], &vec![2, 3], wdl(1, 0, 3))
        );
        assert_eq!(
            (t[1].winner, t[1].settled),
            (Some(2), Some(Settled::Decider))
        );
        assert_eq!(t[1].deciders, 1);
        assert_eq!(
            (t[2].round, t[2].bots, &t[2].series, t[2].wdl, t[2].winner),
            (2, [e(0, 1), e(2, 3)], &vec![4], wdl(1, 0, 2), Some(2))
        );
        assert_eq!(settled_words(&t[2]), "series");
        assert_eq!(round_name(1, 2), "semi-finals");
        assert_eq!(round_name(2, 2), "final");
        assert_eq!(round_name(1, 4), "round 1");
    }

    #[test]
    fn the_bracket_has_a_column_per_round_and_the_winner_of_each_tie_in_bold() {
        let names = fixtures::names(4);
        let html = html_of(&fixtures::knockout(), &names);
        assert!(html.starts_with("<section id=\"bracket\">"), "{html}");
        assert_eq!(html.matches("<div class=\"round\"").count(), 2, "{html}");
        assert_eq!(html.matches("<div class=\"tie\"").count(), 3, "{html}");
        assert_eq!(
            texts(&html, "<h3>"),
            ["semi-finals", "final"],
            "the rounds in order"
        );
        // Seed, name, game wins; the one that went through is `slot won`.
        assert_eq!(
            texts(&html, "<div class=\"slot won\">"),
            ["1 a 2", "3 c 3", "3 c 2"]
        );
        assert_eq!(
            texts(&html, "<div class=\"slot\">"),
            ["4 d 0", "2 b 1", "1 a 1"]
        );
        assert_eq!(
            texts(&html, "<div class=\"how\">"),
            [
                "series · series 1",
                "decider · series 2",
                "series · series 4"
            ]
        );
        assert!(html.contains("Champion: <strong class=\"champion\">c</strong>"));
        assert!(
            html.contains("class=\"scroll bracket-scroll\""),
            "scrolls in its own box"
        );
    }

    #[test]
    fn a_bracket_with_byes_shows_the_empty_slots_and_no_score() {
        // Three bots in a bracket of 4: seed 1 (a) has the bye.
        let format = Format::Knockout {
            seeds: vec![0, 1, 2],
            decider: crate::format::Decider::Seed,
        };
        let plan = fixtures::play(Plan::new(&format, 3, &[]), |_, _, _| wdl(1, 0, 1));
        let html = html_of(&plan, &fixtures::names(3));
        assert_eq!(
            html.matches("<div class=\"slot empty\">").count(),
            1,
            "{html}"
        );
        let how = texts(&html, "<div class=\"how\">");
        // b v c drawn (a game each, no game drawn): the better seed b;
        // the final a v b drawn: a.
        assert_eq!(
            how,
            ["bye", "better seed · series 1", "better seed · series 2"]
        );
        assert!(html.contains("Champion: <strong class=\"champion\">a</strong>"));
    }

    #[test]
    fn the_swiss_sections_have_the_standings_by_points_and_each_round_with_its_bye() {
        let names = fixtures::names(3);
        let html = html_of(&fixtures::swiss(), &names);
        let swiss_at = html.find("<section id=\"swiss\">").expect("standings");
        let rounds_at = html.find("<section id=\"rounds\">").expect("rounds");
        assert!(swiss_at < rounds_at);
        // c: a bye and a win, 2 points, Buchholz a's 0.5; b: a draw and a
        // bye, 1.5, Buchholz 0.5; a: a draw and a loss, 0.5, Buchholz
        // b's 1.5 + c's 2.
        let rows = texts(&html[..rounds_at], "<tr>");
        assert_eq!(
            rows,
            [
                "# bot seed points Buchholz W-D-L byes",
                "1 c 3 2.0 0.5 1-0-0 1",
                "2 b 2 1.5 0.5 0-1-0 1",
                "3 a 1 0.5 3.5 0-1-1 0",
            ]
        );
        assert_eq!(texts(&html[rounds_at..], "<h3>"), ["Round 1", "Round 2"]);
        let pairings = texts(&html[rounds_at..], "<tr");
        assert_eq!(
            pairings,
            [
                "series 1 a 1-0-1 b",
                "bye c (1 point)",
                "series 2 a 0-0-2 c",
                "bye b (1 point)",
            ]
        );
        assert!(
            html[rounds_at..].contains("<td class=\"name won\">c</td>"),
            "{html}"
        );
        assert!(html.contains("the winner: <strong>c</strong>"));
    }

    #[test]
    fn a_gauntlets_candidates_are_scored_against_the_pool_only() {
        let plan = fixtures::gauntlet();
        let scores = candidate_scores(&plan);
        let expected = [
            ((0, 2, wdl(1, 1, 0), wdl(3, 0, 1)), 75.0),
            ((1, 2, wdl(1, 0, 1), wdl(1, 2, 2)), 40.0),
        ];
        assert_eq!(scores.len(), expected.len());
        for (s, (figures, pct)) in scores.iter().zip(expected) {
            assert_eq!((s.bot, s.series, s.series_wdl, s.wdl), figures);
            assert_eq!(s.score_pct(), Some(pct));
        }
        let html = html_of(&plan, &fixtures::names(4));
        assert_eq!(
            texts(&html, "<tr>")[1..],
            ["a 2 1-1-0 4 3-0-1 75.0%", "b 2 1-0-1 5 1-2-2 40.0%"]
        );
    }

    #[test]
    fn a_round_robin_has_no_format_section() {
        let plan = Plan::new(&Format::RoundRobin, 3, &[]);
        assert_eq!(html_of(&plan, &fixtures::names(3)), "");
    }

    #[test]
    fn names_are_escaped() {
        let mut names = fixtures::names(4);
        names[2] = "<b>c&".to_string();
        let html = html_of(&fixtures::knockout(), &names);
        assert!(!html.contains("<b>c&"), "{html}");
        assert!(html.contains("&lt;b&gt;c&amp;"), "{html}");
    }
}
