//! Boxes stacked face to face: the contact manifolds they need and the
//! stacks they make.
//!
//! Locks:
//! - two equal boxes stacked (or standing side by side) keep the feature
//!   ids of their contact points while their corners pass each other by
//!   rounding, and when the reference face switches sides, so warm
//!   starting never drops a loaded point;
//! - a 1 m box resting on a floor 1 km or 10 km long gets both of its
//!   points (two points are merged only when closer than a thousandth of
//!   the *shorter* face);
//! - a column of ten aligned boxes and a wall of ten by ten come to rest on
//!   a floor 1 km long: after five seconds the boxes are still, and none
//!   has slid or turned; so does a wall of twenty by twenty with
//!   `WorldSettings::stiff` (under the default contacts it topples).
//!
//! Before those fixes the column's boxes kept moving at 0.10 m/s and slid
//! 5 cm, and the wall's moved at 0.08 m/s and slid 16 cm: the floor's
//! contact dropped one of its points (which one by rounding), so the bottom
//! boxes rocked. With both points kept, the column still moved at 0.04 m/s
//! and slid 8 cm, the wall slid 6 cm: the contacts lost their warm starts
//! whenever the equal corners passed. Now: 0.0002 m/s and 0.3 mm for the
//! column, 0.00001 m/s and 1 cm for the wall.

use circlet::math::{Pose, Vec2, vec2};
use circlet::query::{FeatureId, Manifold, contact, contact_with_margin};
use circlet::shape::{Aabb, ConvexPolygon, Shape};
use circlet::world::{BodyDef, BodyHandle, ColliderDef, World, WorldSettings};

const DT: f32 = 1.0 / 60.0;

fn unit_box() -> Shape {
    ConvexPolygon::rectangle(vec2(-0.5, -0.5), vec2(0.5, 0.5))
        .unwrap()
        .into()
}

fn sorted_ids(m: &Manifold) -> Vec<FeatureId> {
    let mut ids: Vec<FeatureId> = m.points.iter().map(|p| p.id).collect();
    ids.sort();
    ids
}

/// The sorted ids of `a` at `pose_a` against `b` at `pose_b`, and those of
/// the same pair asked the other way round (flipped back to A, B).
fn ids_both_ways(a: &Shape, pose_a: &Pose, b: &Shape, pose_b: &Pose) -> [Vec<FeatureId>; 2] {
    let ab = contact(a, pose_a, b, pose_b).expect("overlapping");
    let ba = contact(b, pose_b, a, pose_a).expect("overlapping");
    assert_eq!(ab.points.len(), 2, "{ab:?}");
    let mut flipped: Vec<FeatureId> = ba.points.iter().map(|p| p.id.flipped()).collect();
    flipped.sort();
    [sorted_ids(&ab), flipped]
}

/// Asserts that a unit box at `contact_at` (its offset from another at the
/// origin, faces touching) keeps its contact ids when shifted along the
/// faces by `across` times small amounts and turned slightly either way:
/// which box's corner bounds each end of the overlap changes, the ids do
/// not, asked either way round.
fn assert_ids_hold_as_corners_pass(contact_at: Vec2, across: Vec2) {
    let b = unit_box();
    let still = Pose::IDENTITY;
    let reference = ids_both_ways(&b, &still, &b, &Pose::new(contact_at, 0.0))[0].clone();
    for shift in [-1e-3, -1e-5, -1e-7, 0.0, 1e-7, 1e-5, 1e-3] {
        for angle in [-1e-4, 0.0, 1e-4] {
            let moved = Pose::new(contact_at + across * shift, angle);
            for ids in ids_both_ways(&b, &still, &b, &moved) {
                assert_eq!(ids, reference, "shift {shift}, turn {angle}");
            }
        }
    }
}

#[test]
fn stacked_equal_boxes_keep_their_ids_as_their_corners_pass() {
    assert_ids_hold_as_corners_pass(vec2(0.0, 0.999), vec2(1.0, 0.0));
}

#[test]
fn side_by_side_equal_boxes_keep_their_ids_as_their_corners_pass() {
    assert_ids_hold_as_corners_pass(vec2(0.999, 0.0), vec2(0.0, 1.0));
}

#[test]
fn a_box_on_a_long_floor_keeps_both_points() {
    let b = unit_box();
    for half_length in [500.0, 5_000.0] {
        let floor_box: Shape = Aabb::new(vec2(-half_length, -1.0), vec2(half_length, 0.0))
            .unwrap()
            .into();
        let floor_polygon: Shape =
            ConvexPolygon::rectangle(vec2(-half_length, -1.0), vec2(half_length, 0.0))
                .unwrap()
                .into();
        for floor in [&floor_box, &floor_polygon] {
            for x in [0.0, 0.25, 17.3] {
                let resting = Pose::new(vec2(x, 0.4998), 0.0);
                for m in [
                    contact_with_margin(floor, &Pose::IDENTITY, &b, &resting, 0.02),
                    contact_with_margin(&b, &resting, floor, &Pose::IDENTITY, 0.02),
                ] {
                    let m = m.expect("resting");
                    assert_eq!(m.points.len(), 2, "floor {half_length}, x {x}: {m:?}");
                    let span = (m.points[0].point - m.points[1].point).norm();
                    assert!((span - 1.0).abs() < 1e-3, "points {span} m apart");
                }
            }
        }
    }
}

/// Aligned unit boxes, `columns` by `rows`, on a floor 1 km long, with
/// `settings` (sleeping off); steps 600 times and says how still it ended.
fn settle_wall(columns: usize, rows: usize, settings: WorldSettings) -> Settled {
    let settings = WorldSettings {
        sleeping: false,
        ..settings
    };
    let mut world = World::new(settings).unwrap();
    let floor = world.add_body(BodyDef::fixed(Pose::IDENTITY)).unwrap();
    let slab = Aabb::new(vec2(-500.0, -1.0), vec2(500.0, 0.0)).unwrap();
    world.add_collider(floor, ColliderDef::new(slab)).unwrap();
    let unit = ConvexPolygon::rectangle(vec2(-0.5, -0.5), vec2(0.5, 0.5)).unwrap();
    let mut boxes: Vec<(BodyHandle, f32)> = Vec::new();
    for row in 0..rows {
        for column in 0..columns {
            let x = column as f32 - columns as f32 * 0.5 + 0.5;
            let pose = Pose::from_translation(vec2(x, 0.5 + row as f32));
            let body = world.add_body(BodyDef::dynamic(pose)).unwrap();
            world
                .add_collider(body, ColliderDef::new(unit.clone()))
                .unwrap();
            boxes.push((body, x));
        }
    }
    let mut speed_sum = 0.0f64;
    for step in 1..=600 {
        world.step(DT).unwrap();
        assert!(world.is_finite(), "NaN at step {step}");
        if step > 300 {
            for (body, _) in &boxes {
                let body = world.body(*body).unwrap();
                let speed = body.linear_velocity().norm() + body.angular_velocity().abs() * 0.5;
                speed_sum += f64::from(speed);
            }
        }
    }
    let mut slide: f32 = 0.0;
    let mut turn: f32 = 0.0;
    for (body, x) in &boxes {
        let pose = world.body(*body).unwrap().pose();
        slide = slide.max((pose.translation.x - x).abs());
        turn = turn.max(pose.rotation.angle().abs());
    }
    let mean_speed = speed_sum / (300.0 * boxes.len() as f64);
    Settled {
        slide,
        turn,
        speed: mean_speed as f32,
    }
}

/// How still a wall ended up: largest sideways slide (m), largest turn
/// (rad), and mean speed of a box over steps 301–600 (m/s, the spin
/// counted at half a metre).
struct Settled {
    slide: f32,
    turn: f32,
    speed: f32,
}

impl Settled {
    /// Asserts the wall stayed within `slide` (m) and `turn` (rad) and
    /// moves slower than `speed` (m/s).
    fn assert_within(&self, slide: f32, turn: f32, speed: f32) {
        let Settled {
            slide: s,
            turn: t,
            speed: v,
        } = *self;
        assert!(s < slide, "a box slid {s} m");
        assert!(t < turn, "a box turned {t} rad");
        assert!(v < speed, "boxes still move at {v} m/s");
    }
}

#[test]
fn a_column_of_ten_boxes_comes_to_rest() {
    settle_wall(1, 10, WorldSettings::default()).assert_within(0.005, 0.002, 1e-3);
}

#[test]
fn a_wall_of_ten_by_ten_boxes_comes_to_rest() {
    settle_wall(10, 10, WorldSettings::default()).assert_within(0.03, 0.005, 1e-3);
}

#[test]
fn a_wall_of_twenty_by_twenty_boxes_stands_with_stiff_contacts() {
    // Under the default contacts this wall topples (its boxes end metres
    // away); `stiff` is what tall stacks are for.
    settle_wall(20, 20, WorldSettings::stiff()).assert_within(0.03, 0.005, 2e-3);
}
