//! Boxes stacked face to face: the contact manifolds they need and the
//! stacks they make.
//!
//! Locks:
//! - a 1 m box resting on a floor 1 km or 10 km long gets both of its
//!   points (two points are merged only when closer than a thousandth of
//!   the *shorter* face).

use circlet::math::{Pose, vec2};
use circlet::query::contact_with_margin;
use circlet::shape::{Aabb, ConvexPolygon, Shape};

fn unit_box() -> Shape {
    ConvexPolygon::rectangle(vec2(-0.5, -0.5), vec2(0.5, 0.5))
        .unwrap()
        .into()
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
