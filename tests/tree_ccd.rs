//! Continuous collision against a circle-tree ship with named parts
//! (hull, cockpit, engine, left and right wing). Locks:
//! - a bullet (a ray, and one 4 cm thick) at 3,000 m/s against the ship
//!   flying at 300 m/s and spinning at 30 rad/s (dt 1/60): checking the step's
//!   ends finds nothing, yet the time of impact is reported within the
//!   tolerance of the oracle's first contact, and the part it names is the
//!   part whose leaves the oracle finds touching first;
//! - the part really depends on the rotation being traced: the same shot
//!   against the ship spinning the other way, or not at all, hits other
//!   parts (each again the oracle's);
//! - without spin, a cast traced in the ship's moving frame (the shot's
//!   motion minus the ship's) reports the same fraction and part as the time
//!   of impact.

mod common;

use circlet::math::{Pose, vec2};
use circlet::query::cast::{Shot, cast};
use circlet::query::time_of_impact::{
    Motion, SweptBody, ToiStatus, advancement_tolerance, time_of_impact,
};
use circlet::shape::{Circle, CircleTree, Point, Shape, TreeBuilder};
use common::oracle::{self, OBody, OShape, P, Part};
use common::{PointOn, Reported, Tally, check, tolerance_with};

const DT: f32 = 1.0 / 60.0;

fn ship() -> CircleTree {
    let wing = |side: f32, name: &str| {
        TreeBuilder::node(vec2(-0.3, 1.5 * side), 1.0)
            .part(name)
            .child(TreeBuilder::node(vec2(0.0, 1.2 * side), 0.45))
            .child(TreeBuilder::node(vec2(-0.6, 1.9 * side), 0.45))
    };
    TreeBuilder::node(vec2(0.0, 0.0), 3.0)
        .part("hull")
        .child(TreeBuilder::node(vec2(0.0, 0.0), 0.9))
        .child(TreeBuilder::node(vec2(1.6, 0.0), 0.6).part("cockpit"))
        .child(TreeBuilder::node(vec2(-1.8, 0.0), 0.7).part("engine"))
        .child(wing(1.0, "left wing"))
        .child(wing(-1.0, "right wing"))
        .build()
        .unwrap()
        .0
}

/// The ship's pose at the start of the step and the bullet's start: the
/// bullet crosses the ship's path half way through the step, 1 m behind
/// the ship's centre.
fn scene() -> (Pose, Pose, Motion) {
    let ship_pose = Pose::new(vec2(100.0, 40.0), 0.3);
    let bullet_pose = Pose::from_translation(vec2(101.5, 15.0));
    let bullet_motion = Motion::from_velocity(vec2(0.0, 3_000.0), 0.0, DT);
    (ship_pose, bullet_pose, bullet_motion)
}

/// The part whose leaves the oracle finds touching the bullet first, and when.
fn first_part_by_oracle(tree: &CircleTree, ship_motion: &Motion, bullet: &OBody) -> (String, f64) {
    let (ship_pose, _, _) = scene();
    let mut first: Option<(String, f64)> = None;
    for name in tree.part_names() {
        let part = tree.part_id(name);
        let leaves: Vec<Part> = tree
            .leaves()
            .iter()
            .filter(|&&leaf| tree.part_of(leaf as usize) == part)
            .map(|&leaf| {
                let circle = tree.nodes()[leaf as usize].circle();
                Part {
                    core: vec![P::of(circle.center())],
                    radius: circle.radius() as f64,
                }
            })
            .collect();
        let body = OBody::from_oracle(OShape { parts: leaves }, &ship_pose, ship_motion);
        let sweep = oracle::sweep(bullet, &body, common::SAMPLES, 1e-9);
        if let Some(t) = sweep.first_contact
            && first.as_ref().is_none_or(|(_, best)| t < *best)
        {
            first = Some((name.clone(), t));
        }
    }
    first.expect("the oracle finds no part hit")
}

/// Runs the shot against the ship spinning at `spin` rad/s and returns the
/// name of the part hit, after checking it against the oracle.
fn part_hit(bullet: &Shape, spin: f32) -> String {
    let tree = ship();
    let ship_shape = Shape::from(tree.clone());
    let (ship_pose, bullet_pose, bullet_motion) = scene();
    let ship_motion = Motion::from_velocity(vec2(300.0, 0.0), spin, DT);
    let a = OBody::new(bullet, &bullet_pose, &bullet_motion);
    let b = OBody::new(&ship_shape, &ship_pose, &ship_motion);
    // A tunnelling case: apart at both ends of the step.
    assert!(oracle::signed_distance(&a, &b, 0.0, f64::INFINITY) > 0.0);
    assert!(oracle::signed_distance(&a, &b, 1.0, f64::INFINITY) > 0.0);
    let toi = time_of_impact(
        bullet,
        &bullet_pose,
        &bullet_motion,
        &ship_shape,
        &ship_pose,
        &ship_motion,
    )
    .unwrap()
    .expect("the bullet went through the ship");
    assert_eq!(toi.status, ToiStatus::Touching, "{toi:?}");
    let declared = advancement_tolerance(
        &SweptBody::from_shape(bullet, bullet_pose, bullet_motion),
        &SweptBody::from_shape(&ship_shape, ship_pose, ship_motion),
    );
    let reported = Reported {
        fraction: toi.fraction as f64,
        normal: P::of(toi.normal),
        point: P::of(toi.point),
        overlapping_at_start: false,
        may_be_early: false,
        point_on: PointOn::Both,
    };
    let tol = tolerance_with(&a, &b, declared as f64);
    check(Some(reported), &a, &b, tol, &mut Tally::default()).unwrap();
    let name = toi
        .part_b
        .and_then(|part| tree.part_name(part))
        .expect("a hit on a tree names a part")
        .to_string();
    let (expected, first) = first_part_by_oracle(&tree, &ship_motion, &a);
    assert_eq!(
        name, expected,
        "spin {spin}: oracle's first contact at {first}"
    );
    assert!(
        toi.fraction as f64 <= first + tol.time,
        "late: {} vs {first}",
        toi.fraction
    );
    assert_eq!(toi.part_a, None);
    name
}

#[test]
fn shot_at_a_fast_spinning_ship_hits_the_right_part() {
    let ray = Shape::from(Point::new(vec2(0.0, 0.0)).unwrap());
    let thick = Shape::from(Circle::new(vec2(0.0, 0.0), 0.02).unwrap());
    for bullet in [&ray, &thick] {
        let spinning = part_hit(bullet, 30.0);
        assert_eq!(spinning, "engine");
        // Not spinning, or spinning the other way, the same shot hits elsewhere.
        let still = part_hit(bullet, 0.0);
        let against = part_hit(bullet, -30.0);
        assert_eq!(
            (still.as_str(), against.as_str()),
            ("left wing", "right wing")
        );
    }
}

#[test]
fn cast_in_the_moving_frame_equals_the_time_of_impact() {
    let tree = ship();
    let ship_shape = Shape::from(tree.clone());
    let (ship_pose, bullet_pose, bullet_motion) = scene();
    let ship_motion = Motion::from_velocity(vec2(300.0, 0.0), 0.0, DT);
    let ray = Shape::from(Point::new(vec2(0.0, 0.0)).unwrap());
    let thick = Shape::from(Circle::new(vec2(0.0, 0.0), 0.02).unwrap());
    for (bullet, radius) in [(&ray, 0.0), (&thick, 0.02)] {
        let start = bullet_pose.translation;
        let relative = bullet_motion.linear - ship_motion.linear;
        let shot = Shot::new(start, start + relative, radius).unwrap();
        let hit = cast(&shot, &ship_shape, &ship_pose).unwrap().unwrap();
        let toi = time_of_impact(
            bullet,
            &bullet_pose,
            &bullet_motion,
            &ship_shape,
            &ship_pose,
            &ship_motion,
        )
        .unwrap()
        .unwrap();
        assert!(
            (hit.fraction - toi.fraction).abs() < 1e-5,
            "{hit:?} vs {toi:?}"
        );
        assert_eq!(hit.part, toi.part_b);
        assert_eq!(hit.part.and_then(|p| tree.part_name(p)), Some("left wing"));
        assert!(
            (hit.normal + toi.normal).norm() < 1e-3,
            "{hit:?} vs {toi:?}"
        );
    }
}
