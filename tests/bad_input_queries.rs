//! Queries given unusable poses or points never panic.
//!
//! Locks: `intersects`, `distance`, `closest_points` and `point_inside` over
//! all ordered kind pairs (circle trees included) with NaN or infinite translations, NaN
//! rotations, NaN, zero, negative or infinite scales (on either side), and
//! `point_inside` with NaN and infinite query points. The answers are
//! unspecified (`Pose` documents it); only the absence of a panic is locked,
//! plus that the valid side of each call still gives a finite distance when
//! both poses are valid.

use circlet::math::{Pose, Real, vec2};
use circlet::query::{closest_points, distance, intersects, point_inside};
use circlet::shape::{
    Aabb, Capsule, Circle, CircleTree, ConvexPolygon, Corner, Line, OrientedRect, Point, Segment,
    Shape, SimplePolygon, TileTriangle,
};

const NAN: Real = Real::NAN;
const INF: Real = Real::INFINITY;

fn one_of_each_kind() -> Vec<Shape> {
    vec![
        Shape::from(Point::new(vec2(0.5, 0.5)).unwrap()),
        Shape::from(Line::new(vec2(0.0, 1.0), vec2(1.0, 0.5)).unwrap()),
        Shape::from(Segment::new(vec2(-1.0, 0.0), vec2(1.0, 1.0)).unwrap()),
        Shape::from(Segment::new(vec2(2.0, 2.0), vec2(2.0, 2.0)).unwrap()),
        Shape::from(Capsule::new(vec2(-1.0, 0.0), vec2(1.0, 0.0), 0.5).unwrap()),
        Shape::from(Circle::new(vec2(0.0, 0.0), 1.0).unwrap()),
        Shape::from(Aabb::new(vec2(-1.0, -1.0), vec2(1.0, 2.0)).unwrap()),
        Shape::from(OrientedRect::new(vec2(0.0, 0.0), vec2(1.0, 0.5), 0.4).unwrap()),
        Shape::from(ConvexPolygon::regular(5, 1.0, 0.1).unwrap()),
        Shape::from(TileTriangle::new(vec2(0.0, 0.0), vec2(1.0, 1.0), Corner::LowerLeft).unwrap()),
        Shape::from(
            SimplePolygon::new(&[
                vec2(0.0, 0.0),
                vec2(2.0, 0.0),
                vec2(2.0, 1.0),
                vec2(1.0, 1.0),
                vec2(1.0, 2.0),
                vec2(0.0, 2.0),
            ])
            .unwrap(),
        ),
        Shape::from(
            CircleTree::from_leaves(
                &[
                    Circle::new(vec2(-0.5, 0.0), 0.6).unwrap(),
                    Circle::new(vec2(0.7, 0.2), 0.4).unwrap(),
                    Circle::new(vec2(0.0, 0.9), 0.3).unwrap(),
                ],
                2,
            )
            .unwrap(),
        ),
    ]
}

fn bad_poses() -> Vec<Pose> {
    vec![
        Pose::from_translation(vec2(NAN, 0.0)),
        Pose::from_translation(vec2(0.0, INF)),
        Pose::from_translation(vec2(-INF, INF)),
        Pose::new(vec2(0.0, 0.0), NAN),
        Pose::new(vec2(0.0, 0.0), INF),
        Pose::IDENTITY.with_scale(NAN),
        Pose::IDENTITY.with_scale(0.0),
        Pose::IDENTITY.with_scale(-2.0),
        Pose::IDENTITY.with_scale(INF),
        Pose::new(vec2(NAN, NAN), NAN).with_scale(NAN),
    ]
}

#[test]
fn queries_with_bad_poses_do_not_panic() {
    let shapes = one_of_each_kind();
    let good = Pose::new(vec2(0.3, -0.2), 0.5).with_scale(1.5);
    for bad in bad_poses() {
        assert!(bad.validate().is_err(), "{bad:?} should be invalid");
        for a in &shapes {
            for b in &shapes {
                for (pose_a, pose_b) in [(&bad, &good), (&good, &bad), (&bad, &bad)] {
                    let _ = intersects(a, pose_a, b, pose_b);
                    let _ = distance(a, pose_a, b, pose_b);
                    let _ = closest_points(a, pose_a, b, pose_b);
                }
            }
            let _ = point_inside(a, &bad, vec2(0.1, 0.2));
        }
    }
}

#[test]
fn point_inside_with_bad_points_does_not_panic() {
    let shapes = one_of_each_kind();
    for shape in &shapes {
        for point in [
            vec2(NAN, 0.0),
            vec2(INF, 0.0),
            vec2(-INF, NAN),
            vec2(INF, INF),
        ] {
            let _ = point_inside(shape, &Pose::IDENTITY, point);
        }
    }
}

#[test]
fn the_same_shapes_with_valid_poses_give_finite_distances() {
    // Guards the fixture above: the shapes themselves are fine.
    let shapes = one_of_each_kind();
    let good = Pose::new(vec2(0.3, -0.2), 0.5).with_scale(1.5);
    for a in &shapes {
        for b in &shapes {
            let d = distance(a, &Pose::IDENTITY, b, &good);
            assert!(
                d.is_finite() && d >= 0.0,
                "{:?} {:?}: {d}",
                a.kind(),
                b.kind()
            );
        }
    }
}
