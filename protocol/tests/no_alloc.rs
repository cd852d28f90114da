//! The arena's side of a ply allocates nothing: writing a `turn` into a
//! buffer that has grown to a line's length, and decoding a `move` or an
//! `info` reply (a counting global allocator; one thread per test binary
//! matters not, since only the calling thread is counted).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use endodoi::{Move, Rules};
use endodoi_protocol::{write_line, Reply, Turn};

struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

fn allocations() -> u64 {
    ALLOCATIONS.with(Cell::get)
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|c| c.set(c.get() + 1));
        System.alloc(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout);
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.with(|c| c.set(c.get() + 1));
        System.realloc(ptr, layout, new_size)
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn a_ply_on_the_arena_side_allocates_nothing() {
    let mut pos = Rules::new(12, 4).unwrap().start();
    let mut buf = String::with_capacity(1024);
    let mut last: Option<Move> = None;
    let before = allocations();
    for _ in 0..20 {
        let legal = pos.legal_moves();
        let Some(mv) = legal.first() else { break };
        write_line(&mut buf, &Turn::new(&pos, last, legal, 1000, Some([5, 6])));
        assert!(buf.starts_with("turn mine="));
        assert_eq!(Reply::parse("  move 3 \r"), Ok(Reply::Move(3)));
        assert!(matches!(Reply::parse("info depth 3"), Ok(Reply::Info(_))));
        pos.play(mv).unwrap();
        last = Some(mv);
    }
    assert_eq!(allocations() - before, 0);
}
