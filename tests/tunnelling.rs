//! The classic tunnelling cases, each built so that checking the shapes at
//! the start and the end of the step finds nothing (asserted with the
//! oracle), and each must be caught within the tolerance of the oracle's
//! first contact:
//! - a 0.01 m wall against a bullet at 10,000 m/s (dt 1/60): ray, thick shot,
//!   circle body and small polygon body, near and far from the origin;
//! - two small fast polygons passing head-on;
//! - a thin bar spinning at 20 rad/s against a small fast circle;
//! - a glancing hit on a rotating box (the corner clips a passing circle).
//!
//! The rotating cases run conservative advancement twice: driven by the
//! oracle's closest points (always), and through `time_of_impact` with the
//! crate's `closest_points` (once that is merged; skipped before).

mod common;

use circlet::math::{Pose, Vec2, vec2};
use circlet::query::Toi;
use circlet::query::cast::{Shot, cast};
use circlet::query::time_of_impact::{
    Motion, SweptBody, ToiStatus, conservative_advancement, time_of_impact,
};
use circlet::shape::{Aabb, Circle, ConvexPolygon, OrientedRect, Shape};
use common::oracle::{self, OBody, OShape, P};
use common::{PointOn, Reported, Tally, check, tolerance, tolerance_with};

const DT: f32 = 1.0 / 60.0;

/// Asserts the scenario is a tunnelling case: apart at both ends of the step,
/// yet the oracle finds a real overlap in between. Returns its first contact.
/// (The overlap may be shallower than the f32 noise far from the origin: a
/// 0.01 m wall at 3 km is only 40 ulps thick.)
fn assert_tunnels_if_sampled_at_the_ends(a: &OBody, b: &OBody) -> f64 {
    let tol = tolerance(a, b);
    assert!(
        oracle::signed_distance(a, b, 0.0, f64::INFINITY) > 0.0,
        "overlapping at the start"
    );
    assert!(
        oracle::signed_distance(a, b, 1.0, f64::INFINITY) > 0.0,
        "overlapping at the end"
    );
    let sweep = oracle::sweep(a, b, common::SAMPLES, tol.distance);
    assert!(
        sweep.min_value < 0.0,
        "the oracle finds no overlap: {sweep:?}"
    );
    sweep.first_contact.unwrap()
}

fn judge_toi(toi: Option<Toi>, a: &OBody, b: &OBody, declared: Option<f32>) -> Toi {
    let toi = toi.expect("tunnelled: no time of impact reported");
    assert_ne!(toi.status, ToiStatus::IterationLimit, "{toi:?}");
    let reported = Reported {
        fraction: toi.fraction as f64,
        normal: P::of(toi.normal),
        point: P::of(toi.point),
        overlapping_at_start: toi.status == ToiStatus::OverlappingAtStart,
        may_be_early: false,
        point_on: PointOn::Both,
    };
    let tol = match declared {
        Some(declared) => tolerance_with(a, b, declared as f64),
        None => tolerance(a, b),
    };
    check(Some(reported), a, b, tol, &mut Tally::default()).unwrap();
    toi
}

#[test]
fn thin_wall_vs_bullet_at_10000_units_per_second() {
    let step = 10_000.0 * DT; // 166.7 m per step
    for origin in [vec2(0.0, 0.0), vec2(3_000.0, -2_000.0)] {
        let wall = Shape::from(Aabb::new(vec2(-0.005, -1.0), vec2(0.005, 1.0)).unwrap());
        let wall_pose = Pose::from_translation(origin + vec2(60.0, 0.0));
        for start_x in [-100.0, -50.0, 0.0, 50.0] {
            let start = origin + vec2(start_x, 0.3);
            let end = start + vec2(step, 0.0);
            let expected = (60.0 - 0.005 - start_x) / step;
            // Ray and thick shot.
            for radius in [0.0, 0.01] {
                let shot = Shot::new(start, end, radius).unwrap();
                let hit = cast(&shot, &wall, &wall_pose)
                    .unwrap()
                    .expect("the bullet went through the wall");
                let along = (shot.point_at(hit.fraction) - start).x;
                assert!(
                    (along - (60.0 - 0.005 - start_x - radius)).abs() < 2e-3,
                    "{along}"
                );
                assert_eq!(hit.normal, vec2(-1.0, 0.0));
                assert!(!hit.started_inside);
                let a = common::shot_body(start, end, radius);
                let b = OBody::at(&wall, &wall_pose);
                assert_tunnels_if_sampled_at_the_ends(&a, &b);
            }
            // A circle body and a small polygon body.
            let ball = Shape::from(Circle::new(vec2(0.0, 0.0), 0.01).unwrap());
            let pellet = Shape::from(ConvexPolygon::regular(5, 0.01, 0.0).unwrap());
            for bullet in [&ball, &pellet] {
                let pose = Pose::from_translation(start);
                let motion = Motion::from_velocity(vec2(10_000.0, 0.0), 0.0, DT);
                let a = OBody::new(bullet, &pose, &motion);
                let b = OBody::at(&wall, &wall_pose);
                let first = assert_tunnels_if_sampled_at_the_ends(&a, &b);
                let toi = time_of_impact(bullet, &pose, &motion, &wall, &wall_pose, &Motion::ZERO)
                    .unwrap();
                let toi = judge_toi(toi, &a, &b, None);
                assert!(
                    (toi.fraction as f64 - first).abs() < 1e-4,
                    "{} vs {first}",
                    toi.fraction
                );
                assert!((toi.fraction - expected).abs() < 1e-4);
                assert!(
                    (toi.normal - vec2(1.0, 0.0)).norm() < 1e-3,
                    "{:?}",
                    toi.normal
                );
            }
        }
    }
}

#[test]
fn two_small_fast_polygons_passing_head_on() {
    let small = Shape::from(ConvexPolygon::regular(6, 0.05, 0.1).unwrap());
    let tiny_box = Shape::from(OrientedRect::new(vec2(0.0, 0.0), vec2(0.04, 0.02), 0.3).unwrap());
    for speed in [600.0, 6_000.0] {
        // Each moves speed * dt towards the other, from 4 m apart: they swap places.
        let pose_a = Pose::new(vec2(-2.0, 0.01), 0.2);
        let pose_b = Pose::new(vec2(2.0, -0.01), -0.7);
        let motion_a = Motion::from_velocity(vec2(speed, 0.0), 0.0, DT);
        let motion_b = Motion::from_velocity(vec2(-speed, 0.0), 0.0, DT);
        let a = OBody::new(&small, &pose_a, &motion_a);
        let b = OBody::new(&tiny_box, &pose_b, &motion_b);
        let first = assert_tunnels_if_sampled_at_the_ends(&a, &b);
        let toi =
            time_of_impact(&small, &pose_a, &motion_a, &tiny_box, &pose_b, &motion_b).unwrap();
        let toi = judge_toi(toi, &a, &b, None);
        assert!((toi.fraction as f64 - first).abs() * (2.0 * speed as f64 * DT as f64) < 1e-4);
        assert!(toi.normal.x > 0.9, "{:?}", toi.normal);
        // And the other way round, mirrored.
        let back = time_of_impact(&tiny_box, &pose_b, &motion_b, &small, &pose_a, &motion_a)
            .unwrap()
            .unwrap();
        assert!((back.fraction - toi.fraction).abs() < 1e-6);
        assert!((back.normal + toi.normal).norm() < 1e-5);
    }
}

/// A rotating case, run by conservative advancement with the oracle's
/// distance, and through `time_of_impact` when `closest_points` is merged.
fn rotating_case(
    a_shape: &Shape,
    pose_a: Pose,
    motion_a: Motion,
    b_shape: &Shape,
    pose_b: Pose,
    motion_b: Motion,
) {
    let a = OBody::new(a_shape, &pose_a, &motion_a);
    let b = OBody::new(b_shape, &pose_b, &motion_b);
    let first = assert_tunnels_if_sampled_at_the_ends(&a, &b);
    let body_a = SweptBody::from_shape(a_shape, pose_a, motion_a);
    let body_b = SweptBody::from_shape(b_shape, pose_b, motion_b);
    let declared = circlet::query::time_of_impact::advancement_tolerance(&body_a, &body_b);
    let (oracle_a, oracle_b) = (OShape::of(a_shape), OShape::of(b_shape));
    let toi = conservative_advancement(&body_a, &body_b, |pa, pb| {
        common::oracle_closest_points(&oracle_a, pa, &oracle_b, pb)
    })
    .unwrap();
    let toi = judge_toi(toi, &a, &b, Some(declared));
    assert!(
        toi.fraction as f64 <= first + 1e-6,
        "late: {} vs {first}",
        toi.fraction
    );
    eprintln!(
        "advancement: {} iterations, fraction {} (oracle {first})",
        toi.iterations, toi.fraction
    );
    let toi = time_of_impact(a_shape, &pose_a, &motion_a, b_shape, &pose_b, &motion_b).unwrap();
    let toi = judge_toi(toi, &a, &b, Some(declared));
    assert!(
        toi.fraction as f64 <= first + 1e-6,
        "late: {} vs {first}",
        toi.fraction
    );
}

#[test]
fn thin_spinning_bar_vs_small_fast_circle() {
    // A 2 m x 0.02 m bar spinning at 20 rad/s about its centre; a 0.05 m
    // circle at 300 m/s crosses its disc at x = 0.5 while the bar sweeps by.
    let bar = Shape::from(OrientedRect::new(vec2(0.0, 0.0), vec2(1.0, 0.01), 0.0).unwrap());
    let circle = Shape::from(Circle::new(vec2(0.0, 0.0), 0.05).unwrap());
    let spin = Motion::from_velocity(Vec2::zeros(), 20.0, DT);
    let bar_pose = Pose::new(vec2(0.0, 0.0), -10.0 * DT);
    let shot = Motion::from_velocity(vec2(0.0, 300.0), 0.0, DT);
    rotating_case(
        &circle,
        Pose::from_translation(vec2(0.5, -2.5)),
        shot,
        &bar,
        bar_pose,
        spin,
    );
}

#[test]
fn glancing_hit_on_rotating_box() {
    // A 1 m box spinning at 120 rad/s; a 0.02 m circle passes 0.69 m from
    // its centre, inside the corners' 0.707 m reach by only 0.037 m, while
    // a corner swings through the top.
    let square = Shape::from(Aabb::new(vec2(-0.5, -0.5), vec2(0.5, 0.5)).unwrap());
    let circle = Shape::from(Circle::new(vec2(0.0, 0.0), 0.02).unwrap());
    let spin = Motion::from_velocity(Vec2::zeros(), 120.0, DT);
    // Corner (0.5, 0.5) points straight up (angle pi/4 turned) at t = 0.5.
    let box_pose = Pose::new(vec2(0.0, 0.0), std::f32::consts::FRAC_PI_4 - 60.0 * DT);
    let pass = Motion::from_velocity(vec2(1_200.0, 0.0), 0.0, DT);
    rotating_case(
        &circle,
        Pose::from_translation(vec2(-10.0, 0.69)),
        pass,
        &square,
        box_pose,
        spin,
    );
}
