//! `arena bench --only league`: the league's pairing on simulated
//! populations, no bot processes. A population of `N` bots of known
//! strength, evenly spread over [`SPREAD_ELO`] (the span of `alphabeta
//! --depth 4` with noise from 0 to 1 on 2x6, docs/formats.md), plays each
//! pairing's game pair by the logistic Elo model itself, drawn from a
//! seeded generator. Measured: the time of each round's advance (the one
//! fit of every game so far and the pairing, what the runner waits for
//! between rounds), the pairing alone, and how well the final ratings
//! rank the population (Spearman's correlation with the true order)
//! against random pairings with as many games.

use std::time::Instant;

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::Report;
use crate::format::{pair_round, Entrant, Format, LeagueSettings, Met, PairBy, Plan};
use crate::schedule::Series;
use crate::series::SeriesResult;
use crate::standings::Wdl;
use crate::stats::{self, PairResult};

/// The span of the simulated strengths, Elo: bot 0 the strongest, the last
/// bot this much weaker.
pub const SPREAD_ELO: f64 = 570.0;

/// The true rating of bot `i` of `n`.
fn strength(i: usize, n: usize) -> f64 {
    SPREAD_ELO * (1.0 - i as f64 / (n.max(2) - 1) as f64)
}

/// One game pair of `a` against `b` by the logistic Elo model (no draws):
/// the games `a` won and lost.
fn game_pair(rng: &mut ChaCha8Rng, a: usize, b: usize, n: usize) -> Wdl {
    let expected = 1.0 / (1.0 + 10f64.powf((strength(b, n) - strength(a, n)) / 400.0));
    let wins = (0..2).filter(|_| rng.gen_bool(expected)).count() as u32;
    Wdl {
        wins,
        draws: 0,
        losses: 2 - wins,
    }
}

/// Spearman's rank correlation of the fitted `elo` with the true order
/// (bot 0 the strongest): `1 - 6 Σ d² / (n (n² - 1))`, ties by index.
fn spearman(elo: &[f64]) -> f64 {
    let n = elo.len();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| elo[b].total_cmp(&elo[a]).then(a.cmp(&b)));
    let d2: f64 = order
        .iter()
        .enumerate()
        .map(|(rank, &bot)| (rank as f64 - bot as f64).powi(2))
        .sum();
    let n = n as f64;
    1.0 - 6.0 * d2 / (n * (n * n - 1.0))
}

/// What one simulated league gave.
struct League {
    /// Each round's advance (fit and pairing), ms, rounds 2 on.
    advance_ms: Vec<f64>,
    /// The pairing alone of one more round, on the final ratings, ms.
    pair_ms: f64,
    /// Spearman's correlation of the final fit with the true order.
    spearman: f64,
}

/// The league format the benchmark plays: `rounds` rounds paired by
/// rating, `seed` for the lots, no bootstrap.
fn league_format(rounds: u32, seed: u64) -> Format {
    Format::League(LeagueSettings {
        rounds: Some(rounds),
        settle_los: None,
        seed,
        prior_draws: 1.0,
        bootstrap: 0,
        pairing: PairBy::Rating,
        catch_up: crate::format::LEAGUE_CATCH_UP,
    })
}

/// A league of `n` bots over `rounds` rounds, seeded.
fn league(n: usize, rounds: u32, seed: u64) -> League {
    let format = league_format(rounds, seed);
    let mut plan = Plan::new(&format, n, &[]);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut games = Vec::new();
    let mut advance_ms = Vec::new();
    while let Some(stage) = plan.next_stage() {
        let last = stage.series.len() - 1;
        for (k, s) in stage.series.iter().enumerate() {
            let wdl = game_pair(&mut rng, s.a, s.b, n);
            games.push(pair_result(s, wdl));
            let result = SeriesResult {
                series: *s,
                wdl,
                decided: false,
                over: true,
            };
            // The round's last result makes the next round known.
            let start = Instant::now();
            plan.record(&result);
            if k == last && !plan.is_over() {
                advance_ms.push(start.elapsed().as_secs_f64() * 1e3);
            }
        }
    }
    let elo = stats::fit(n, &games, 1.0);
    let entrants: Vec<Entrant> = (0..n)
        .map(|bot| Entrant {
            bot,
            elo: elo[bot],
            sd: 50.0,
            games: u64::from(rounds) * 2,
            byes: 0,
        })
        .collect();
    let mut met = Met::new();
    for g in &games {
        *met.entry((g.a, g.b)).or_insert(0) += 1;
    }
    let start = Instant::now();
    let pairing = pair_round(&entrants, &met, seed, rounds + 1);
    let pair_ms = start.elapsed().as_secs_f64() * 1e3;
    assert_eq!(pairing.pairs.len(), n / 2, "a whole pairing");
    League {
        advance_ms,
        pair_ms,
        spearman: spearman(&elo),
    }
}

fn pair_result(s: &Series, wdl: Wdl) -> PairResult {
    PairResult {
        a: s.a,
        b: s.b,
        wins: wdl.wins,
        draws: wdl.draws,
        losses: wdl.losses,
    }
}

/// Random pairings of `n` bots over `rounds` rounds (a seeded shuffle a
/// round, one game pair each): Spearman's correlation of the final fit.
fn random_pairings(n: usize, rounds: u32, seed: u64) -> f64 {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5EED);
    let mut games = Vec::new();
    let mut bots: Vec<usize> = (0..n).collect();
    for _ in 0..rounds {
        bots.shuffle(&mut rng);
        for pair in bots.chunks_exact(2) {
            let (a, b) = (pair[0].min(pair[1]), pair[0].max(pair[1]));
            let s = Series {
                number: 0,
                round: 0,
                a,
                b,
            };
            let wdl = game_pair(&mut rng, a, b, n);
            games.push(pair_result(&s, wdl));
        }
    }
    spearman(&stats::fit(n, &games, 1.0))
}

/// The resident set size of this process now, KiB (`VmRSS` of
/// `/proc/self/status`); `None` where there is no such file (not Linux).
/// The current size, not the peak: the peak of a bench that ran other
/// sections first would hide whether the league's memory stays flat.
fn rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status.lines().find_map(|l| {
        l.strip_prefix("VmRSS:")
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
    })
}

/// The rounds of the scale run that are reported.
const CHECKPOINTS: [u32; 3] = [1, 10, 50];

/// What the scale run measured after one checkpoint round.
struct Checkpoint {
    /// The round just played.
    round: u32,
    /// The advance that followed it: the fit of every game so far and the
    /// pairing of the next round, ms.
    advance_ms: f64,
    /// The process's resident set size then, KiB.
    rss_kib: Option<u64>,
}

/// A league of `n` simulated bots over the last of [`CHECKPOINTS`] rounds,
/// plus one round paired after it: the advance's time after each round
/// and the process's RSS at the checkpoints, and the slowest advance.
fn scale(n: usize, seed: u64) -> (Vec<Checkpoint>, f64) {
    let last = CHECKPOINTS[CHECKPOINTS.len() - 1];
    let format = league_format(last + 1, seed);
    let mut plan = Plan::new(&format, n, &[]);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut out, mut slowest) = (Vec::new(), 0.0f64);
    let mut round = 0;
    while let Some(stage) = plan.next_stage() {
        round += 1;
        let series = stage.series.len();
        for (k, s) in stage.series.iter().enumerate() {
            let result = SeriesResult {
                series: *s,
                wdl: game_pair(&mut rng, s.a, s.b, n),
                decided: false,
                over: true,
            };
            let start = Instant::now();
            plan.record(&result);
            if k + 1 == series && !plan.is_over() {
                let ms = start.elapsed().as_secs_f64() * 1e3;
                slowest = slowest.max(ms);
                if CHECKPOINTS.contains(&round) {
                    out.push(Checkpoint {
                        round,
                        advance_ms: ms,
                        rss_kib: rss_kib(),
                    });
                }
            }
        }
    }
    (out, slowest)
}

/// The scale goal (issue 32): 10,000 bots, a round's fit and pairing under
/// 2 s, and memory flat from round to round.
fn scale_section(report: &mut Report<'_, '_>, smoke: bool) {
    let n = if smoke { 200 } else { 10_000 };
    let (checkpoints, slowest) = scale(n, 1);
    let note = format!(
        "{n} simulated bots, one game pair a pairing; the share of the 2 s budget is value / 2000"
    );
    for c in &checkpoints {
        report.add(
            "league",
            format!("{n} bots: fit and pairing after round {}", c.round),
            c.advance_ms,
            "ms",
            &note,
        );
    }
    report.add(
        "league",
        format!(
            "{n} bots: the slowest fit and pairing, rounds 1 to {}",
            CHECKPOINTS[2]
        ),
        slowest,
        "ms",
        &note,
    );
    for c in &checkpoints {
        let figure = format!("{n} bots: the process's RSS after round {}", c.round);
        match c.rss_kib {
            Some(kib) => report.add(
                "league",
                figure,
                kib as f64 / 1024.0,
                "MiB",
                "VmRSS of the bench process: the plan (the open round's series, the per-pair totals) and the fit's buffers",
            ),
            None => report.skip("league", &figure, "no /proc/self/status here"),
        }
    }
}

/// The median of `xs` (0 for none).
fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs.get(xs.len() / 2).copied().unwrap_or(0.0)
}

/// The league section: the round's advance and the pairing alone at 1,000
/// and 10,000 bots, and the ranking against random pairings at 256 bots
/// over 5 seeds (a smoke run: 1,000 bots and one seed, fewer rounds).
pub(super) fn section(report: &mut Report<'_, '_>, smoke: bool) {
    let sizes: &[(usize, u32)] = if smoke {
        &[(1_000, 3)]
    } else {
        &[(1_000, 20), (10_000, 5)]
    };
    for &(n, rounds) in sizes {
        let l = league(n, rounds, 1);
        let note = format!(
            "{n} simulated bots, {rounds} rounds of one game pair a pairing; rounds 2 to {rounds}"
        );
        report.add(
            "league",
            format!("round's fit and pairing, {n} bots: median"),
            median(l.advance_ms.clone()),
            "ms",
            &note,
        );
        report.add(
            "league",
            format!("round's fit and pairing, {n} bots: max"),
            l.advance_ms.iter().copied().fold(0.0, f64::max),
            "ms",
            &note,
        );
        report.add(
            "league",
            format!("pairing alone, {n} bots"),
            l.pair_ms,
            "ms",
            "pair_round on the final ratings",
        );
    }
    scale_section(report, smoke);
    let (n, seeds): (usize, u32) = if smoke { (256, 1) } else { (256, 5) };
    for rounds in [5u32, 13, 26] {
        let (mut by_league, mut by_chance) = (0.0, 0.0);
        for seed in 1..=seeds {
            by_league += league(n, rounds, u64::from(seed)).spearman;
            by_chance += random_pairings(n, rounds, u64::from(seed));
        }
        let note = format!(
            "{n} bots spread over {SPREAD_ELO} Elo, {} games a bot, mean of {seeds} seeds",
            2 * rounds
        );
        report.add(
            "league",
            format!("Spearman, league pairing, {rounds} rounds"),
            by_league / f64::from(seeds),
            "rho",
            &note,
        );
        report.add(
            "league",
            format!("Spearman, random pairing, {rounds} rounds"),
            by_chance / f64::from(seeds),
            "rho",
            &note,
        );
    }
}
