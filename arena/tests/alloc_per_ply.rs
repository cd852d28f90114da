//! The referee allocates nothing per ply: with two bots already started, a
//! game of 28 plies makes exactly as many heap allocations in the arena as
//! a game of 8 (a counting global allocator; no timing here).
//!
//! The referee runs on a current-thread runtime, so all of its work happens on
//! the test's thread, and only that thread is counted: the test harness's main
//! thread may allocate at any moment.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use arena::bot::BotLog;
use arena::config::{BotSpec, TimeControl};
use arena::referee::{play_game, GameEnd, Seat};
use endodoi::Rules;
use tokio_util::sync::CancellationToken;

/// Counts allocations (and reallocations) of the calling thread.
struct Counting;

thread_local! {
    // A const-initialised Cell has no destructor, so the allocator may use it.
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

fn allocations() -> u64 {
    ALLOCATIONS.with(Cell::get)
}

fn count() {
    let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
}

// SAFETY: every call is passed to the system allocator unchanged.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        System.alloc(layout)
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        System.realloc(ptr, layout, new_size)
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Generous clocks: a loaded machine must not make the first bot time out.
fn time() -> TimeControl {
    TimeControl {
        move_time_ms: 5000,
        base_time_ms: 0,
        increment_ms: 0,
        margin_ms: 1000,
        startup_ms: 10_000,
    }
}

fn seat(name: &str) -> Seat {
    let arena = env!("CARGO_BIN_EXE_arena");
    Seat {
        spec: BotSpec::new(
            name,
            vec![arena.into(), "bot".into(), "first".into()],
            time(),
        ),
        process: None,
        log: BotLog::none(),
        log_prefix: "s1".into(),
        guard: Some(arena.into()),
        transcripts: None,
    }
}

#[test]
fn a_longer_game_allocates_no_more() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let cancel = CancellationToken::new();
    let mut seats = [seat("a"), seat("b")];
    let allocations = runtime.block_on(async {
        let mut counts = Vec::new();
        // The first game starts the bots; then 8, 28 and 8 plies again.
        for (game, plies) in [(1, 8), (2, 8), (3, 28), (4, 8)] {
            let rules = Rules::new(8, 4).unwrap().with_max_plies(plies).unwrap();
            let [a, b] = &mut seats;
            let before = allocations();
            let record = play_game(rules, [a, b], &[], (1, game), &cancel)
                .await
                .unwrap();
            counts.push(allocations() - before);
            assert_eq!(record.end, GameEnd::PlyLimit, "{record:?}");
            assert_eq!(record.plies, plies);
        }
        for s in seats {
            s.process.unwrap().shutdown(true).await;
        }
        counts
    });
    let (short, long, again) = (allocations[1], allocations[2], allocations[3]);
    assert_eq!(
        long, short,
        "a game of 28 plies allocated {long} times, one of 8 plies {short} (and again {again}): the referee allocates per ply"
    );
}
