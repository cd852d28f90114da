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
                                    td.name class=(if won == Some(std::cmp::Ordering::Greater) { "name won" } else { "name" }) { (name_of(names, *a)) }
                                    td.score { @match wdl { Some(w) => { (w.wins) "-" (w.draws) "-" (w.losses) }, None => { "…" } } }
                                    td.name class=(if won == Some(std::cmp::Ordering::Less) { "name won" } else { "name" }) { (name_of(names, *b)) }
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
