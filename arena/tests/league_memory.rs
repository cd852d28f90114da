//! A league's memory per series: what a league keeps for each series
//! (the per-pair totals the fit and the pairing read, nothing else: the
//! plan keeps the open round's series and pairings only), what a round's
//! refit borrows while it runs, and what the whole runner keeps over a
//! league's rounds. A counting global allocator measures the live heap of
//! the test's thread, where the league's plan runs, and of every thread
//! (the runner's workers) together; no timing here (docs/performance.md,
//! "League pairing", has the figures).

mod heap;

use std::alloc::{GlobalAlloc, Layout};
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use arena::config::{Config, Host};
use arena::format::{Format, LeagueSettings, PairBy, Plan};
use arena::output::RunFolder;
use arena::runner::{Event, RunOptions};
use arena::series::SeriesResult;
use arena::standings::Wdl;

/// [`heap::Tracking`] (the calling thread's heap), and the live heap of
/// every thread together besides.
struct Counting;

/// The live heap of every thread, bytes.
static ALL: AtomicI64 = AtomicI64::new(0);

// SAFETY: every call is passed to heap::Tracking (the system allocator)
// unchanged.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALL.fetch_add(layout.size() as i64, Ordering::Relaxed);
        heap::Tracking.alloc(layout)
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        ALL.fetch_sub(layout.size() as i64, Ordering::Relaxed);
        heap::Tracking.dealloc(ptr, layout);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALL.fetch_add(new_size as i64 - layout.size() as i64, Ordering::Relaxed);
        heap::Tracking.realloc(ptr, layout, new_size)
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// The tests of this file, one at a time: the whole run's test counts
/// every thread's heap, which another test's would change.
fn one_at_a_time() -> MutexGuard<'static, ()> {
    static ONE: Mutex<()> = Mutex::new(());
    ONE.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// What a league of 1,000 bots kept and borrowed, per series.
#[test]
fn a_league_keeps_and_borrows_a_bounded_heap_a_series() {
    let _one = one_at_a_time();
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
    // The totals only: 12 bytes an entry in a sorted list per bot and the
    // lists' spare room (nearly every series a new pair here; 10 bytes a
    // series measured, part of the lists' room taken before round 5; 37
    // with a BTreeMap of 24-byte entries). Before the plan dropped its
    // closed rounds: the plan's series and results and the pairings for
    // league.csv besides, 353 bytes measured.
    assert!(kept < 16.0, "the league keeps {kept:.0} bytes a series");
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
    let _one = one_at_a_time();
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
    // new since, about 14 bytes each (-256 bytes measured: none new).
    let grown = heap::live() - at_30;
    assert!(grown < 120 * 16, "grew {grown} bytes over 400 series");
    println!("grew {grown} bytes from round 30 to 80 (400 series)");
}

/// A league of 16 bots (the arena's own greedy bot, with noise) run whole
/// by the runner for 30 rounds of 8 series: what every thread of it keeps,
/// measured as each round starts (the round before played, its workers
/// ended), grows from round 10 to round 30 by the per-pair totals only,
/// not by each series (before: every series' result, kept for the
/// summaries, 48 bytes each and the list's spare room).
#[test]
fn a_league_run_keeps_no_heap_a_series() {
    let _one = one_at_a_time();
    let arena = env!("CARGO_BIN_EXE_arena");
    let mut text = String::from(
        "[board]\nholes = 6\nseeds = 4\n[tournament]\nformat = \"league\"\nrounds = 30\nmax_games = 2\nconcurrency = 2\nseed = 1\n",
    );
    for i in 0..16 {
        let noise = f64::from(i) / 15.0;
        text.push_str(&format!(
            "[[bot]]\nname = \"greedy-{i}\"\ncommand = [{arena:?}, \"bot\", \"greedy\", \"--seed\", \"{i}\", \"--noise\", \"{noise}\"]\n"
        ));
    }
    let read = |path: &std::path::Path| std::fs::read_to_string(path);
    let host = Host {
        cores: 2,
        read: &read,
    };
    let config = Arc::new(Config::parse(&text, "league.toml", "league", &host).unwrap());
    let tmp = tempfile::tempdir().unwrap();
    let dir = RunFolder::create(&tmp.path().join("run")).unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let cancel = tokio_util::sync::CancellationToken::new();
    // Every thread's live heap as each round starts, and the games played.
    let (mut at_round, mut games) = (Vec::with_capacity(31), 0);
    runtime
        .block_on(arena::runner::run(
            config,
            &dir,
            &RunOptions::default(),
            &cancel,
            |event| match event {
                Event::Stage(_) => at_round.push(ALL.load(Ordering::Relaxed)),
                Event::Game(_) => games += 1,
                Event::Series(_) | Event::Sprt(_) => {}
            },
        ))
        .unwrap();
    assert_eq!(games, 30 * 8 * 2, "every game of 30 rounds played");
    assert_eq!(at_round.len(), 30);
    // Rounds 10 to 30 began 20 rounds of 8 series apart: 160 series,
    // after which at most the 120 pairs of 16 bots are new (about 14
    // bytes each in the plan's totals): 1,072 bytes measured, 7 a series
    // (2,432 with the totals in a BTreeMap); 8,576 (54 a series) when the
    // runner kept every result.
    let grown = at_round[29] - at_round[9];
    let per_series = grown as f64 / 160.0;
    assert!(
        per_series < 15.0,
        "the run kept {grown} bytes more over 160 series ({per_series:.0} a series)"
    );
    println!("the run kept {grown} bytes more from round 10 to 30 (160 series)");
}
