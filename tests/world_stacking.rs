//! Stacking and settling with the soft-step solver.
//!
//! Locks:
//! - a pyramid of 20-base unit boxes stands for 10 s: after the first second
//!   the top box moves < 0.01 m, no box slides sideways > 0.05 m, and the
//!   settling sag of the top box is < 0.1 m;
//! - a pyramid of base 40 ends within 5 mm of its axis after 10 s, built
//!   from left to right or from right to left: the order the boxes are
//!   made in does not lean it (it leaned 1.1–1.5 cm while the solver's
//!   colours followed that order);
//! - 2,000 circles dropped into a closed 80 × 60 box settle (with
//!   `WorldSettings::stiff`): none escape, none overlaps another by more than
//!   1% of a radius after settling, and the kinetic energy decays;
//! - no NaN after any step.

use circlet::math::{Pose, vec2};
use circlet::shape::{Aabb, Circle, ConvexPolygon};
use circlet::world::{BodyDef, BodyHandle, ColliderDef, World, WorldSettings};

const DT: f32 = 1.0 / 60.0;

fn add_static_box(world: &mut World, min: (f32, f32), max: (f32, f32)) {
    let body = world.add_body(BodyDef::fixed(Pose::IDENTITY)).unwrap();
    let aabb = Aabb::new(vec2(min.0, min.1), vec2(max.0, max.1)).unwrap();
    world.add_collider(body, ColliderDef::new(aabb)).unwrap();
}

#[test]
fn pyramid_of_twenty_stands_for_ten_seconds() {
    let mut world = World::new(WorldSettings::default()).unwrap();
    add_static_box(&mut world, (-50.0, -1.0), (50.0, 0.0));
    let boxes = add_pyramid(&mut world, 20, false);
    let (top, _, top_start_y) = *boxes.last().unwrap();
    let mut top_after_one_second = vec2(0.0, 0.0);
    for step in 1..=600 {
        world.step(DT).unwrap();
        assert!(world.is_finite(), "NaN at step {step}");
        if step == 60 {
            top_after_one_second = world.body(top).unwrap().pose().translation;
        }
    }
    let top_end = world.body(top).unwrap().pose().translation;
    let drift = (top_end - top_after_one_second).norm();
    assert!(
        drift < 0.01,
        "top box moved {drift} m after the first second"
    );
    let sag = top_start_y - top_end.y;
    assert!(sag < 0.1, "settling sag {sag} m");
    for (body, x, _) in &boxes {
        let slide = (world.body(*body).unwrap().pose().translation.x - x).abs();
        assert!(slide < 0.05, "a box slid {slide} m sideways");
    }
}

/// Adds a pyramid of `base` unit boxes standing on y = 0, the boxes of
/// each row made from left to right (or from right to left), rows from
/// the bottom up; returns each box with its starting x and y (the top box
/// last).
fn add_pyramid(world: &mut World, base: usize, right_to_left: bool) -> Vec<(BodyHandle, f32, f32)> {
    let unit = ConvexPolygon::rectangle(vec2(-0.5, -0.5), vec2(0.5, 0.5)).unwrap();
    let mut boxes = Vec::new();
    for row in 0..base {
        let in_row = base - row;
        for i in 0..in_row {
            let column = if right_to_left { in_row - 1 - i } else { i };
            let (x, y) = (column as f32 - in_row as f32 * 0.5 + 0.5, 0.5 + row as f32);
            let body = world
                .add_body(BodyDef::dynamic(Pose::from_translation(vec2(x, y))))
                .unwrap();
            world
                .add_collider(body, ColliderDef::new(unit.clone()))
                .unwrap();
            boxes.push((body, x, y));
        }
    }
    boxes
}

/// Where the top box of a pyramid of `base` unit boxes ends after 600
/// steps (its x, m), built as [`add_pyramid`] does.
fn pyramid_top_after_ten_seconds(base: usize, right_to_left: bool) -> f32 {
    let mut world = World::new(WorldSettings::default()).unwrap();
    add_static_box(&mut world, (-60.0, -1.0), (60.0, 0.0));
    let (top, _, _) = *add_pyramid(&mut world, base, right_to_left).last().unwrap();
    for _ in 0..600 {
        world.step(DT).unwrap();
    }
    world.body(top).unwrap().pose().translation.x
}

#[test]
fn pyramid_does_not_lean_the_way_it_was_built() {
    for right_to_left in [false, true] {
        let x = pyramid_top_after_ten_seconds(40, right_to_left);
        assert!(
            x.abs() < 0.005,
            "built {}: the top box ended {x} m off the axis",
            if right_to_left {
                "right to left"
            } else {
                "left to right"
            }
        );
    }
}

#[test]
fn two_thousand_circles_settle_in_a_closed_box() {
    // A 25-row pile: stiff contacts keep the bottom rows within 1% (see WorldSettings::stiff).
    let mut world = World::new(WorldSettings::stiff()).unwrap();
    // Floor, walls and a lid: a closed 80 × 60 box.
    let half = 40.0;
    add_static_box(&mut world, (-half - 1.0, -1.0), (half + 1.0, 0.0));
    add_static_box(&mut world, (-half - 1.0, 0.0), (-half, 61.0));
    add_static_box(&mut world, (half, 0.0), (half + 1.0, 61.0));
    add_static_box(&mut world, (-half - 1.0, 60.0), (half + 1.0, 61.0));
    let radius = 0.4;
    let disc = Circle::new(vec2(0.0, 0.0), radius).unwrap();
    let mut balls = Vec::new();
    for i in 0..2000 {
        let (column, row) = (i % 80, i / 80);
        // A jittered grid so the pile does not stack in perfect columns.
        let jitter = ((i * 7919) % 13) as f32 * 0.01 - 0.06;
        let x = -39.5 + column as f32 * 1.0 + jitter;
        let y = 1.0 + row as f32 * 1.0;
        let body = world
            .add_body(BodyDef::dynamic(Pose::from_translation(vec2(x, y))))
            .unwrap();
        world.add_collider(body, ColliderDef::new(disc)).unwrap();
        balls.push(body);
    }
    let energy = |world: &World| -> f32 {
        balls
            .iter()
            .map(|b| world.body(*b).unwrap().kinetic_energy())
            .sum()
    };
    let mut peak = 0.0f32;
    for step in 1..=900 {
        world.step(DT).unwrap();
        assert!(world.is_finite(), "NaN at step {step}");
        peak = peak.max(energy(&world));
    }
    let settled = energy(&world);
    assert!(
        settled < 0.01 * peak,
        "kinetic energy {settled} J vs peak {peak} J"
    );
    let centers: Vec<_> = balls
        .iter()
        .map(|b| world.body(*b).unwrap().pose().translation)
        .collect();
    for c in &centers {
        assert!(
            c.x > -half && c.x < half && c.y > 0.0 && c.y < 60.0,
            "a ball escaped to {c:?}"
        );
    }
    // Worst overlap between any two balls (sorted sweep on x keeps this cheap).
    let mut order: Vec<usize> = (0..centers.len()).collect();
    order.sort_by(|&a, &b| centers[a].x.total_cmp(&centers[b].x));
    let mut worst = 0.0f32;
    for (k, &i) in order.iter().enumerate() {
        for &j in &order[k + 1..] {
            if centers[j].x - centers[i].x > 2.0 * radius {
                break;
            }
            worst = worst.max(2.0 * radius - (centers[j] - centers[i]).norm());
        }
    }
    assert!(
        worst <= 0.01 * radius,
        "worst overlap {worst} m is more than 1% of the radius"
    );
}
