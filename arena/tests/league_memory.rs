//! A league's memory per series: what a league keeps for each series
//! (the per-pair totals the fit and the pairing read, nothing else: the
//! plan keeps the open round's series and pairings only) and what a
//! round's refit borrows while it runs. A counting global allocator measures the live heap of
//! the test's thread, where the league runs; no timing here
//! (docs/performance.md, "League pairing", has the figures).

mod heap;

use arena::format::{Format, LeagueSettings, PairBy, Plan};
use arena::series::SeriesResult;
use arena::standings::Wdl;

#[global_allocator]
static GLOBAL: heap::Tracking = heap::Tracking;

/// What a league of 1,000 bots kept and borrowed, per series.
#[test]
fn a_league_keeps_and_borrows_a_bounded_heap_a_series() {
    let bots = 1_000;
    let format = Format::League(LeagueSettings {
        rounds: Some(20),
        settle_los: None,
        seed: 3,
        prior_draws: 1.0,
        bootstrap: 0,
        pairing: PairBy::Rating,
        catch_up: arena::format::LEAGUE_CATCH_UP,
    });
    let mut plan = Plan::new(&format, bots, &[]);
    let (mut round, mut x) = (0u32, 7u64);
    let (mut kept_at_5, mut worst_borrow) = (0i64, 0f64);
    while let Some(stage) = plan.next_stage() {
        round += 1;
        if round == 5 {
            kept_at_5 = heap::live();
        }
        let last = stage.series.len() - 1;
        for (k, s) in stage.series.iter().enumerate() {
            // A seeded stream of results: the lower index wins more often.
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            let wins = ((x >> 33) % 3) as u32;
            let wdl = Wdl {
                wins,
                draws: 0,
                losses: 2 - wins,
            };
            let result = SeriesResult {
                series: *s,
                wdl,
                decided: false,
                over: true,
            };
            if k == last && round >= 5 {
                // The refit and pairing that this last result starts.
                heap::reset_peak();
                assert!(plan.record(&result));
                let borrowed = heap::peak() - heap::live();
                worst_borrow = worst_borrow.max(borrowed as f64 / plan.series_count() as f64);
            } else {
                assert!(plan.record(&result));
            }
        }
    }
    assert_eq!(round, 20);
    // Rounds 5 to 20 paired 15 rounds of 500 series.
    let kept = (heap::live() - kept_at_5) as f64 / (15.0 * 500.0);
    // The totals only, about 35 bytes a pair (nearly every series a new
    // pair here; 37 bytes a series measured). Before the plan dropped its
    // closed rounds: the plan's series and results and the pairings for
    // league.csv besides, 353 bytes measured.
    assert!(kept < 60.0, "the league keeps {kept:.0} bytes a series");
    // The fit's buffers (about 160 bytes a pair, nearly every series a new
    // pair) and the pairing's (per bot), borrowed and given back (237
    // bytes a series measured).
    assert!(
        worst_borrow < 400.0,
        "a refit borrows {worst_borrow:.0} bytes a series"
    );
    println!("kept {kept:.0} bytes a series; a refit borrows at most {worst_borrow:.0}");
}

/// Records a result for each of `series` into `plan`, drawn from the
/// seeded stream `x` (the lower index wins more often).
fn record_round(plan: &mut Plan, series: &[arena::schedule::Series], x: &mut u64) {
    for s in series {
        *x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        let wins = ((*x >> 33) % 3) as u32;
        let result = SeriesResult {
            series: *s,
            wdl: Wdl {
                wins,
                draws: 0,
                losses: 2 - wins,
            },
            decided: false,
            over: true,
        };
        assert!(plan.record(&result));
    }
}

/// A league of 16 bots over 80 rounds: once most pairs have met, its
/// memory stops growing, round after round (the plan drops each round
/// once recorded; what is kept grows with the pairs met only).
#[test]
fn a_leagues_memory_is_flat_once_its_pairs_have_met() {
    let format = Format::League(LeagueSettings {
        rounds: Some(80),
        settle_los: None,
        seed: 5,
        prior_draws: 1.0,
        bootstrap: 0,
        pairing: PairBy::Rating,
        catch_up: arena::format::LEAGUE_CATCH_UP,
    });
    let mut plan = Plan::new(&format, 16, &[]);
    let (mut round, mut x, mut at_30) = (0u32, 11u64, 0i64);
    while let Some(stage) = plan.next_stage() {
        round += 1;
        if round == 30 {
            at_30 = heap::live();
        }
        record_round(&mut plan, &stage.series, &mut x);
    }
    assert_eq!(round, 80);
    // 50 rounds of 8 series after round 30: 400 series, which kept 353
    // bytes each before (141 kB); at most the 120 pairs of 16 bots are
    // new since, about 35 bytes each.
    let grown = heap::live() - at_30;
    assert!(grown < 120 * 48, "grew {grown} bytes over 400 series");
    println!("grew {grown} bytes from round 30 to 80 (400 series)");
}
