//! A counting global allocator for the memory tests (rate_memory.rs,
//! league_memory.rs): the live heap bytes of the calling thread and their
//! peak. A test file installs it with
//! `#[global_allocator] static GLOBAL: heap::Tracking = heap::Tracking;`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// Tracks the live heap bytes of the calling thread, and their peak.
pub struct Tracking;

thread_local! {
    // Const-initialised Cells have no destructor, so the allocator may use them.
    static LIVE: Cell<i64> = const { Cell::new(0) };
    static PEAK: Cell<i64> = const { Cell::new(0) };
}

fn add(bytes: i64) {
    let _ = LIVE.try_with(|live| {
        live.set(live.get() + bytes);
        let _ = PEAK.try_with(|peak| peak.set(peak.get().max(live.get())));
    });
}

// SAFETY: every call is passed to the system allocator unchanged.
unsafe impl GlobalAlloc for Tracking {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        add(layout.size() as i64);
        System.alloc(layout)
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        add(-(layout.size() as i64));
        System.dealloc(ptr, layout);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        add(new_size as i64 - layout.size() as i64);
        System.realloc(ptr, layout, new_size)
    }
}

/// The calling thread's live heap now, bytes.
pub fn live() -> i64 {
    LIVE.with(Cell::get)
}

/// Starts a new peak at the live heap now; returns the live heap.
pub fn reset_peak() -> i64 {
    let now = live();
    PEAK.with(|p| p.set(now));
    now
}

/// The peak live heap since [`reset_peak`], bytes.
pub fn peak() -> i64 {
    PEAK.with(Cell::get)
}
