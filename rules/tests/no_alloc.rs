//! Generating, playing and showing moves lap by lap, and asking whether a
//! game is decided, allocate nothing on the heap: a counting global
//! allocator watches a whole random game on each board size.
//!
//! It counts the allocations of the test's own thread only: the test harness's
//! main thread may allocate at any moment, and counting it made this test flaky.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use endodoi::Rules;

struct Counting;

thread_local! {
    // A const-initialised Cell has no destructor, so the allocator may use it.
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

fn allocations() -> usize {
    ALLOCATIONS.with(Cell::get)
}

// SAFETY: forwards to the system allocator, only counting calls.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
        System.alloc(layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
        System.realloc(ptr, layout, new_size)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn a_whole_game_allocates_nothing() {
    for holes in [2, 6, 8, 10, 50] {
        let mut pos = Rules::new(holes, 4).unwrap().start();
        let before = allocations();
        let mut pick = 7usize;
        while let Some(mv) = pos.legal_moves().nth(pick % pos.legal_moves().len().max(1)) {
            // Showing the move lap by lap allocates nothing either.
            let laps = pos.laps(mv).unwrap().count() as u32;
            assert_eq!(pos.play(mv).unwrap().laps, laps);
            // So does the referee's exact adjudication, after every ply.
            let _ = std::hint::black_box(pos.decided_winner());
            pick = pick.wrapping_mul(31).wrapping_add(17);
        }
        let after = allocations();
        assert!(pos.is_over());
        assert_eq!(
            after - before,
            0,
            "2x{holes}: {} allocations",
            after - before
        );
    }
}
