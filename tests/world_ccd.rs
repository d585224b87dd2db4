//! Continuous stepping in the world.
//!
//! Locks:
//! - a bullet body at 10,000 units/s (circle, box, and spinning box) against
//!   a 0.01-thick static wall is stopped on the near side, every step;
//! - a fast body that is not flagged as a bullet is swept all the same;
//! - two fast dynamic bodies meeting head-on at 200× their size per step
//!   collide instead of passing (circles and spinning boxes);
//! - a fast body crossing a thin sensor within one step sends
//!   `SensorEntered` and `SensorLeft` in that step;
//! - a shot at a fast moving target (circle, polygon, spinning bar) hits it
//!   at the right time, where a static test at the start or end pose misses;
//! - shots at a fast spinning bar are never missed and never reported
//!   where the bar is not: checked against a fine time sampling;
//! - no NaN after any step.
//!
//! The moving-target shot is written against a target builder so the
//! circle-tree ship is one of the targets, and its hit names the part.

use circlet::math::{Pose, Real, Vec2, vec2};
use circlet::query::{distance, intersects};
use circlet::shape::{Aabb, Circle, ConvexPolygon, PartId, Shape};
use circlet::world::scenes::add_static_box;
use circlet::world::{
    BodyDef, BodyHandle, BodyKind, ColliderDef, Event, HitOutcome, ProjectileDef, World,
    WorldSettings,
};

const DT: Real = 1.0 / 60.0;

fn weightless() -> World {
    World::new(WorldSettings {
        gravity: Vec2::zeros(),
        ..WorldSettings::default()
    })
    .unwrap()
}

fn add_body(world: &mut World, def: BodyDef, shape: impl Into<Shape>) -> BodyHandle {
    let body = world.add_body(def).unwrap();
    world
        .add_collider(body, ColliderDef::new(shape.into()))
        .unwrap();
    body
}

fn step_checked(world: &mut World) {
    world.step(DT).unwrap();
    assert!(world.is_finite(), "NaN at step {}", world.step_count());
}

/// A 0.01-thick wall at x = 10 and a body fired at it at 10,000 units/s.
fn wall_and_bullet(shape: Shape, spin: Real, bullet: bool) {
    let mut world = weightless();
    add_static_box(&mut world, vec2(10.0, -5.0), vec2(10.01, 5.0)).unwrap();
    let mut def = BodyDef::dynamic(Pose::from_translation(vec2(0.0, 0.0)))
        .with_velocity(vec2(10_000.0, 0.0), spin);
    def.bullet = bullet;
    let body = add_body(&mut world, def, shape.clone());
    for _ in 0..30 {
        step_checked(&mut world);
        let pose = world.body(body).unwrap().pose();
        let reach = shape.world_aabb(&pose).max.x;
        assert!(
            reach <= 10.0 + 1e-3,
            "{:?} passed the wall: front at x = {reach} (step {})",
            shape.kind(),
            world.step_count()
        );
    }
    let velocity = world.body(body).unwrap().linear_velocity();
    assert!(
        velocity.x < 100.0,
        "{:?} still flying at {velocity:?}",
        shape.kind()
    );
}

#[test]
fn a_bullet_at_ten_thousand_units_per_second_stops_at_a_thin_wall() {
    let ball = Shape::from(Circle::new(Vec2::zeros(), 0.05).unwrap());
    let square =
        Shape::from(ConvexPolygon::rectangle(vec2(-0.05, -0.05), vec2(0.05, 0.05)).unwrap());
    wall_and_bullet(ball.clone(), 0.0, true);
    wall_and_bullet(square.clone(), 0.0, true);
    wall_and_bullet(square.clone(), 200.0, true);
    // Not flagged: it moves far more than half its size per step, so it is swept anyway.
    wall_and_bullet(ball, 0.0, false);
    wall_and_bullet(square, 50.0, false);
}

/// Two bodies of size 0.1 approaching at 20 units per step each, their
/// centres `offset` apart across the line of motion.
fn head_on(shape: Shape, spin: Real, offset: Real) {
    let mut world = weightless();
    let speed = 200.0 * 0.1 / DT;
    let left = add_body(
        &mut world,
        BodyDef::dynamic(Pose::from_translation(vec2(-15.0, 0.0)))
            .with_velocity(vec2(speed, 0.0), spin),
        shape.clone(),
    );
    let right = add_body(
        &mut world,
        BodyDef::dynamic(Pose::from_translation(vec2(15.0, offset)))
            .with_velocity(vec2(-speed, 0.0), -spin),
        shape.clone(),
    );
    let mut met = false;
    for _ in 0..20 {
        step_checked(&mut world);
        let a = world.body(left).unwrap();
        let b = world.body(right).unwrap();
        // Head-on they stay on their sides; off-centre they may glance off
        // and slide past each other, but never through.
        assert!(
            offset != 0.0 || a.pose().translation.x < b.pose().translation.x,
            "{:?}: passed through each other at step {}",
            shape.kind(),
            world.step_count()
        );
        assert!(
            !intersects(&shape, &a.pose(), &shape, &b.pose())
                || distance_inside(&shape, &a.pose(), &shape, &b.pose()) < 0.02,
            "{:?}: deep overlap at step {}",
            shape.kind(),
            world.step_count()
        );
        let gap = distance(&shape, &a.pose(), &shape, &b.pose());
        met |= gap < 0.02;
    }
    assert!(met, "{:?}: they never met", shape.kind());
    let (a, b) = (world.body(left).unwrap(), world.body(right).unwrap());
    // Passing through would leave the closing speed of 2 × 1,200 m/s intact.
    let closing = a.linear_velocity().x - b.linear_velocity().x;
    assert!(
        closing < 0.5 * speed,
        "{:?}: no collision response: {:?} {:?}",
        shape.kind(),
        a.linear_velocity(),
        b.linear_velocity()
    );
}

/// Penetration depth of two overlapping shapes (metres).
fn distance_inside(a: &Shape, pose_a: &Pose, b: &Shape, pose_b: &Pose) -> Real {
    circlet::query::contact(a, pose_a, b, pose_b).map_or(0.0, |m| m.depth())
}

#[test]
fn two_fast_dynamic_bodies_head_on_collide_instead_of_passing() {
    let ball: Shape = Circle::new(Vec2::zeros(), 0.05).unwrap().into();
    head_on(ball.clone(), 0.0, 0.0);
    head_on(ball, 0.0, 0.03);
    let square: Shape = ConvexPolygon::rectangle(vec2(-0.05, -0.05), vec2(0.05, 0.05))
        .unwrap()
        .into();
    head_on(square.clone(), 0.0, 0.0);
    head_on(square.clone(), 0.0, 0.03);
    head_on(square, 120.0, 0.0);
}

#[test]
fn a_fast_body_crossing_a_thin_sensor_reports_entering_and_leaving() {
    let mut world = weightless();
    let gate = world.add_body(BodyDef::fixed(Pose::IDENTITY)).unwrap();
    let sensor = world
        .add_collider(
            gate,
            ColliderDef::new(Aabb::new(vec2(5.0, -2.0), vec2(5.1, 2.0)).unwrap()).sensor(),
        )
        .unwrap();
    let runner = add_body(
        &mut world,
        BodyDef::dynamic(Pose::from_translation(vec2(0.0, 0.0)))
            .with_velocity(vec2(600.0, 0.0), 0.0),
        Circle::new(Vec2::zeros(), 0.1).unwrap(),
    );
    let visitor = world.body(runner).unwrap().colliders()[0];
    world.step(DT).unwrap();
    // 10 units in one step: from x = 0 to x = 10, through the gate and out.
    assert!(world.body(runner).unwrap().pose().translation.x > 9.0);
    let events = world.events().to_vec();
    assert!(
        events.contains(&Event::SensorEntered(sensor, visitor)),
        "{events:?}"
    );
    assert!(
        events.contains(&Event::SensorLeft(sensor, visitor)),
        "{events:?}"
    );
    // A slow body walking through gets the same two events, in two different steps.
    let walker = add_body(
        &mut world,
        BodyDef::dynamic(Pose::from_translation(vec2(4.5, 1.0))).with_velocity(vec2(3.0, 0.0), 0.0),
        Circle::new(Vec2::zeros(), 0.1).unwrap(),
    );
    let walker_collider = world.body(walker).unwrap().colliders()[0];
    let (mut entered, mut left) = (None, None);
    for step in 0..60 {
        world.step(DT).unwrap();
        for event in world.events() {
            if *event == Event::SensorEntered(sensor, walker_collider) {
                entered.get_or_insert(step);
            }
            if *event == Event::SensorLeft(sensor, walker_collider) {
                left.get_or_insert(step);
            }
        }
    }
    let (entered, left) = (entered.expect("entered"), left.expect("left"));
    assert!(entered < left);
}

/// A target moving up at 20 units per step, placed so that a shot moving
/// right at 33 units per step meets its centre half-way through the step.
/// Returns the world, the target body and its expected part.
fn moving_target(shape: Shape, spin: Real) -> (World, BodyHandle) {
    let mut world = weightless();
    let target = add_body(
        &mut world,
        BodyDef::kinematic(Pose::from_translation(vec2(16.5, -10.0)))
            .with_velocity(vec2(0.0, 20.0 / DT), spin),
        shape,
    );
    (world, target)
}

fn shot_at_moving_target(shape: Shape, spin: Real, expected_part: Option<PartId>) {
    let (mut world, target) = moving_target(shape.clone(), spin);
    let start = world.body(target).unwrap().pose();
    let shot = world
        .add_projectile(
            ProjectileDef::new(vec2(0.0, 0.0), vec2(33.0 / DT, 0.0), 0.02).with_gravity_scale(0.0),
        )
        .unwrap();
    // A static test at either end pose of the step misses.
    let trace =
        Shape::from(circlet::shape::Capsule::new(vec2(0.0, 0.0), vec2(33.0, 0.0), 0.02).unwrap());
    let end = Pose {
        translation: start.translation + vec2(0.0, 20.0),
        ..start
    };
    assert!(!intersects(&trace, &Pose::IDENTITY, &shape, &start));
    assert!(!intersects(&trace, &Pose::IDENTITY, &shape, &end));
    step_checked(&mut world);
    let hit = world
        .events()
        .iter()
        .find_map(|event| match *event {
            Event::ProjectileHit {
                projectile,
                body,
                part,
                point,
                normal,
                fraction,
                relative_speed,
                outcome,
                ..
            } if projectile == shot => {
                Some((body, part, point, normal, fraction, relative_speed, outcome))
            }
            _ => None,
        })
        .unwrap_or_else(|| panic!("{:?}: the moving target was missed", shape.kind()));
    let (body, part, point, normal, fraction, relative_speed, outcome) = hit;
    assert_eq!(body, target);
    assert_eq!(part, expected_part);
    assert_eq!(outcome, HitOutcome::Stopped);
    assert!(
        fraction > 0.3 && fraction <= 0.5,
        "{:?}: hit at {fraction}",
        shape.kind()
    );
    // The hit point is on the target's surface at that time, facing the shot.
    let at_hit = Pose {
        translation: start.translation + vec2(0.0, 20.0 * fraction),
        rotation: circlet::math::Rot2::new(spin * DT * fraction) * start.rotation,
        ..start
    };
    let probe = Shape::from(circlet::shape::Point::new(point).unwrap());
    let off_surface = distance(&probe, &Pose::IDENTITY, &shape, &at_hit);
    assert!(
        off_surface < 1e-2,
        "{:?}: hit point {off_surface} m off",
        shape.kind()
    );
    assert!(normal.x < 0.0, "{normal:?}");
    assert!(
        relative_speed > 33.0 / DT,
        "{:?}: {relative_speed}",
        shape.kind()
    );
    assert!(
        world.projectile(shot).is_none(),
        "a stopped shot is removed"
    );
}

#[test]
fn a_shot_at_a_fast_moving_target_hits() {
    shot_at_moving_target(Circle::new(Vec2::zeros(), 0.5).unwrap().into(), 0.0, None);
    shot_at_moving_target(
        ConvexPolygon::regular(5, 0.6, 0.3).unwrap().into(),
        0.0,
        None,
    );
    // Spinning a quarter turn per step.
    shot_at_moving_target(
        ConvexPolygon::rectangle(vec2(-1.5, -0.1), vec2(1.5, 0.1))
            .unwrap()
            .into(),
        std::f32::consts::FRAC_PI_2 / DT,
        None,
    );
    // A circle-tree ship: the shot comes from -x, so the engine at the
    // back is the part it must report.
    let (ship, _) = circlet::shape::TreeBuilder::node(Vec2::zeros(), 1.2)
        .part("hull")
        .child(circlet::shape::TreeBuilder::node(vec2(-0.6, 0.0), 0.55).part("engine"))
        .child(circlet::shape::TreeBuilder::node(vec2(0.6, 0.0), 0.55).part("nose"))
        .build()
        .unwrap();
    let engine = ship.part_id("engine");
    assert!(engine.is_some());
    shot_at_moving_target(ship.into(), 0.0, engine);
}

/// The bar of a spinning kinematic body at fraction `t` of the step.
fn bar_pose(start: Pose, spin_per_step: Real, t: Real) -> Pose {
    Pose {
        rotation: circlet::math::Rot2::new(spin_per_step * t) * start.rotation,
        ..start
    }
}

#[test]
fn shots_at_a_fast_spinning_bar_are_never_missed_nor_invented() {
    let bar: Shape = ConvexPolygon::rectangle(vec2(-2.0, -0.05), vec2(2.0, 0.05))
        .unwrap()
        .into();
    let spin_per_step = 2.5; // radians per step
    let mut world = weightless();
    let spinner = add_body(
        &mut world,
        BodyDef::kinematic(Pose::new(vec2(0.0, 0.0), 0.3))
            .with_velocity(Vec2::zeros(), spin_per_step / DT),
        bar.clone(),
    );
    let start = world.body(spinner).unwrap().pose();
    // Shots crossing the bar's disc at many offsets and angles, each 12 units per step.
    let mut shots = Vec::new();
    for i in 0..240 {
        let angle = i as Real * 0.37;
        let heading = vec2(angle.cos(), angle.sin());
        let side = vec2(-heading.y, heading.x);
        let offset = (i % 24) as Real / 24.0 * 4.4 - 2.2;
        let origin = side * offset - heading * 6.0;
        let handle = world
            .add_projectile(
                ProjectileDef::new(origin, heading * (12.0 / DT), 0.01).with_gravity_scale(0.0),
            )
            .unwrap();
        shots.push((handle, origin, heading * 12.0));
    }
    step_checked(&mut world);
    let mut reported = std::collections::HashMap::new();
    for event in world.events() {
        if let Event::ProjectileHit {
            projectile,
            fraction,
            ..
        } = *event
        {
            reported.insert(projectile, fraction);
        }
    }
    let disc = |center: Vec2| Shape::from(Circle::new(center, 0.01).unwrap());
    let samples = 4000;
    let mut hits = 0;
    for (handle, origin, delta) in &shots {
        // First sampled time at which the shot's disc overlaps the bar by a margin.
        let first_deep = (0..=samples)
            .map(|k| k as Real / samples as Real)
            .find(|&t| {
                let pose = bar_pose(start, spin_per_step, t);
                let gap = distance(&disc(*origin + delta * t), &Pose::IDENTITY, &bar, &pose);
                gap == 0.0 && {
                    // Depth by how far the shot's centre is inside the bar.
                    let inside = pose.inverse_transform_point(*origin + delta * t);
                    inside.x.abs() < 2.0 - 1e-3 && inside.y.abs() < 0.05 - 1e-3
                }
            });
        match (first_deep, reported.get(handle)) {
            (Some(t), Some(&fraction)) => {
                hits += 1;
                assert!(
                    fraction <= t + 1e-3,
                    "late: reported {fraction}, sampled {t}"
                );
            }
            (Some(t), None) => panic!("missed a shot that is inside the bar at t = {t}"),
            (None, Some(&fraction)) => {
                // Allowed only where the shot touches the bar (grazing).
                let pose = bar_pose(start, spin_per_step, fraction);
                let gap = distance(
                    &disc(*origin + delta * fraction),
                    &Pose::IDENTITY,
                    &bar,
                    &pose,
                );
                assert!(gap < 1e-3, "invented a hit {gap} m away at {fraction}");
            }
            (None, None) => {}
        }
    }
    assert!(
        hits > 40,
        "only {hits} shots hit: the test does not test much"
    );
    assert_eq!(world.body(spinner).unwrap().kind(), BodyKind::Kinematic);
}
