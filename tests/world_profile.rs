//! The step profile: off by default, on it times every stage of a step
//! within the step's own wall-clock time, and it never changes what is
//! simulated nor allocates.

use circlet::math::Real;
use circlet::world::scenes::ball_pit;
use circlet::world::{StepProfile, World, WorldSettings};
use std::time::Instant;

mod alloc_count;

use alloc_count::allocations;

const DT: Real = 1.0 / 60.0;

fn pit() -> World {
    ball_pit(WorldSettings::default(), 300, 0.5, 20.0)
        .unwrap()
        .0
}

#[test]
fn off_by_default_and_then_nothing_is_recorded() {
    let mut world = pit();
    assert!(!world.profiling());
    for _ in 0..5 {
        world.step(DT).unwrap();
    }
    assert_eq!(*world.profile(), StepProfile::default());
}

#[test]
fn every_stage_is_timed_within_the_step() {
    let mut world = pit();
    world.set_profiling(true);
    for step in 0..60 {
        let started = Instant::now();
        world.step(DT).unwrap();
        let outside = started.elapsed();
        let profile = *world.profile();
        assert!(
            profile.total() <= outside,
            "step {step}: stages {:?} add up to more than the step took ({outside:?})",
            profile.total()
        );
        // A pile of 300 balls finds contacts and solves them every step.
        assert!(profile.contacts > std::time::Duration::ZERO, "step {step}");
        assert!(profile.solve > std::time::Duration::ZERO, "step {step}");
    }
    // Turned off, the last profiled step's times stay.
    let last = *world.profile();
    world.set_profiling(false);
    world.step(DT).unwrap();
    assert_eq!(*world.profile(), last);
}

#[test]
fn profiling_changes_nothing_that_is_simulated() {
    // A copy of one world, so that the events' handles compare equal.
    let mut plain = pit();
    let mut timed = plain.clone();
    timed.set_profiling(true);
    for step in 0..240 {
        plain.step(DT).unwrap();
        timed.step(DT).unwrap();
        assert_eq!(plain.state_hash(), timed.state_hash(), "step {step}");
        assert_eq!(plain.events(), timed.events(), "step {step}");
    }
}

#[test]
fn restoring_a_snapshot_keeps_the_worlds_own_profiling() {
    let mut world = pit();
    let snapshot = world.snapshot();
    world.set_profiling(true);
    world.step(DT).unwrap();
    let profile = *world.profile();
    world.restore(&snapshot);
    assert!(world.profiling());
    assert_eq!(*world.profile(), profile);
    assert_eq!(world.state_hash(), snapshot.state_hash());
}

#[test]
fn a_profiled_warm_step_allocates_nothing() {
    // As `world_no_alloc.rs`: awake, so the buffers reach their size.
    let settings = WorldSettings {
        sleeping: false,
        ..WorldSettings::default()
    };
    let mut world = ball_pit(settings, 300, 0.5, 20.0).unwrap().0;
    world.set_profiling(true);
    for _ in 0..400 {
        world.step(DT).unwrap();
    }
    let before = allocations();
    for _ in 0..20 {
        world.step(DT).unwrap();
    }
    assert_eq!(allocations() - before, 0);
}
