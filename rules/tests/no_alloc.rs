//! Generating, playing and showing moves lap by lap allocates nothing on the
//! heap: a counting global allocator watches a whole random game on each board size.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use endodoi::Rules;

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards to the system allocator, only counting calls.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::SeqCst);
        System.alloc(layout)
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
        let before = ALLOCATIONS.load(Ordering::SeqCst);
        let mut pick = 7usize;
        while let Some(mv) = pos.legal_moves().nth(pick % pos.legal_moves().len().max(1)) {
            // Showing the move lap by lap allocates nothing either.
            let laps = pos.laps(mv).unwrap().count() as u32;
            assert_eq!(pos.play(mv).unwrap().laps, laps);
            pick = pick.wrapping_mul(31).wrapping_add(17);
        }
        let after = ALLOCATIONS.load(Ordering::SeqCst);
        assert!(pos.is_over());
        assert_eq!(
            after - before,
            0,
            "2x{holes}: {} allocations",
            after - before
        );
    }
}
