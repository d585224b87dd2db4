//! Once warm, a broadphase step allocates nothing.
//!
//! Locks: after the buffers have grown to the scene's size, a step of
//! `move_proxy` for every proxy plus `update_pairs` (re-insertions, pair
//! queries, sorting) and box, point and ray queries make zero heap
//! allocations. Counted by a global allocator wrapper on this test's thread.

use circlet::broadphase::{Bounds, BroadPhase, ProxyId, ProxyKind};
use circlet::math::{Real, vec2};

mod alloc_count;

use alloc_count::allocations;

/// Box `i` of a 40 x 50 grid (2 m cells), orbiting its cell centre.
fn box_at(i: usize, step: u32) -> (Bounds, circlet::math::Vec2) {
    let home = vec2((i % 40) as Real, (i / 40) as Real) * 2.0;
    let angle = |s: u32| i as Real * 0.7 + 0.05 * s as Real;
    let center = |s: u32| home + vec2(angle(s).cos(), angle(s).sin()) * 0.5;
    let displacement = center(step) - center(step.saturating_sub(1));
    (
        Bounds::from_center(center(step), vec2(0.8, 0.6)).unwrap(),
        displacement,
    )
}

#[test]
fn a_warm_step_allocates_nothing() {
    let mut broad_phase = BroadPhase::new();
    let ground = Bounds::new(vec2(-5.0, -3.0), vec2(85.0, -1.0)).unwrap();
    broad_phase.create_proxy(ground, ProxyKind::Static, usize::MAX);
    let ids: Vec<ProxyId> = (0..2000)
        .map(|i| broad_phase.create_proxy(box_at(i, 0).0, ProxyKind::Moving, i))
        .collect();
    let mut pairs = Vec::new();
    let step =
        |broad_phase: &mut BroadPhase<usize>, pairs: &mut Vec<(ProxyId, ProxyId)>, s: u32| {
            for (i, id) in ids.iter().enumerate() {
                let (bounds, displacement) = box_at(i, s);
                broad_phase.move_proxy(*id, bounds, displacement).unwrap();
            }
            broad_phase.update_pairs(pairs);
        };
    // Warm-up: a full orbit (126 steps at 0.05 rad), then every proxy touched
    // at once, which is the largest the move buffer and pair list can get.
    for s in 1..=130 {
        step(&mut broad_phase, &mut pairs, s);
    }
    for id in &ids {
        broad_phase.touch_proxy(*id).unwrap();
    }
    broad_phase.update_pairs(&mut pairs);
    let all_pairs = pairs.len();
    assert!(all_pairs > 1000, "the scene has overlaps: {all_pairs}");

    let before = allocations();
    let mut reported = 0;
    for s in 131..=200 {
        step(&mut broad_phase, &mut pairs, s);
        reported += pairs.len();
    }
    let query = Bounds::new(vec2(10.0, 10.0), vec2(30.0, 30.0)).unwrap();
    let mut found = 0;
    broad_phase.query_aabb(&query, |_, _| {
        found += 1;
        true
    });
    broad_phase.query_point(vec2(20.0, 20.0), |_, _| true);
    let fraction = broad_phase
        .ray_cast_thick(vec2(-3.0, 1.0), vec2(90.0, 50.0), 0.2, 1.0, |_, _, max| max)
        .unwrap();
    let after = allocations();
    assert_eq!(
        after - before,
        0,
        "allocations during warm steps and queries"
    );
    assert!(reported > 0 && found > 0 && fraction == 1.0);
    assert!(broad_phase.validate().is_ok());
}
