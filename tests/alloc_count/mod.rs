//! A global allocator that counts the allocations (and reallocations) made
//! on the current thread, for the tests that lock "allocates nothing once
//! warm". Declaring this module installs it for the whole test binary.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

struct CountingAllocator;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|count| count.set(count.get() + 1));
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.with(|count| count.set(count.get() + 1));
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

/// Allocations made on this thread so far.
pub fn allocations() -> usize {
    ALLOCATIONS.with(|count| count.get())
}

/// The counter is live: a test built on it could not pass by never counting.
#[test]
fn the_counter_sees_an_allocation() {
    let before = allocations();
    let boxed = std::hint::black_box(Box::new([0u8; 64]));
    assert_eq!(allocations() - before, 1);
    drop(boxed);
}
