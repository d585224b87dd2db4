//! Point to simple polygon.

use super::ClosestPoints;
use crate::math::{Pose, Vec2};
use crate::query::geometry::closest_point_on_outline;
use crate::query::intersects::intersects_point_simple;
use crate::shape::SimplePolygon;

/// Closest points of a world point and a simple polygon placed at `pose`;
/// `None` when the point is inside or on the outline.
///
/// The nearest outline point is found in the polygon's local frame and placed back with `pose`.
pub fn distance_point_simple(
    point: Vec2,
    simple: &SimplePolygon,
    pose: &Pose,
) -> Option<ClosestPoints> {
    if intersects_point_simple(point, simple, pose) {
        return None;
    }
    let local = closest_point_on_outline(pose.inverse_transform_point(point), simple.vertices());
    Some(ClosestPoints::from_cores(
        point,
        0.0,
        pose.transform_point(local),
        0.0,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;

    #[test]
    fn from_the_notch_of_an_l() {
        let l_shape = SimplePolygon::new(&[
            vec2(0.0, 0.0),
            vec2(2.0, 0.0),
            vec2(2.0, 1.0),
            vec2(1.0, 1.0),
            vec2(1.0, 2.0),
            vec2(0.0, 2.0),
        ])
        .unwrap();
        let pose = Pose::IDENTITY.with_scale(3.0);
        let c = distance_point_simple(vec2(4.5, 6.0), &l_shape, &pose).unwrap();
        assert!((c.distance - 1.5).abs() < 1e-6);
        assert!((c.point_b - vec2(3.0, 6.0)).norm() < 1e-6);
    }
}
