//! Once warm, a world step allocates nothing.
//!
//! Locks: after a ball pit has run long enough for the step's buffers to
//! reach the scene's size, further steps (broadphase, narrowphase, solver,
//! continuous collision, islands, projectile tracing with hits) make zero
//! heap allocations, as long as the caller reads events without taking the
//! buffer. Counted by a global allocator wrapper on this test's thread.

use circlet::math::{Real, vec2};
use circlet::world::scenes::ball_pit;
use circlet::world::{Event, ProjectileDef, WorldSettings};
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

fn allocations() -> usize {
    ALLOCATIONS.with(|count| count.get())
}

#[test]
fn a_warm_step_allocates_nothing() {
    let settings = WorldSettings {
        sleeping: false,
        ..WorldSettings::default()
    };
    let (mut world, _) = ball_pit(settings, 400, 0.5, 20.0).unwrap();
    let dt: Real = 1.0 / 60.0;
    let fire = |world: &mut circlet::world::World| {
        for i in 0..50 {
            let x = -9.0 + 0.36 * i as Real;
            world
                .add_projectile(ProjectileDef::new(vec2(x, 40.0), vec2(0.0, -900.0), 0.05))
                .unwrap();
        }
    };
    for step in 0..400u32 {
        if step.is_multiple_of(40) {
            fire(&mut world);
        }
        world.step(dt).unwrap();
    }
    fire(&mut world);
    let before = allocations();
    let mut hits = 0;
    for _ in 0..20 {
        world.step(dt).unwrap();
        assert!(world.is_finite());
        hits += world
            .events()
            .iter()
            .filter(|event| matches!(event, Event::ProjectileHit { .. }))
            .count();
    }
    let during = allocations() - before;
    assert!(hits >= 40, "only {hits} shots hit while counting");
    assert_eq!(during, 0, "{during} allocations in 20 warm steps");
}
