//! Point against simple (possibly non-convex) polygon.

use crate::math::{Pose, Vec2};
use crate::query::geometry::point_in_simple_polygon;
use crate::shape::SimplePolygon;

/// True if the world point is inside the simple polygon placed at `pose`, or on its outline.
///
/// Uses the even-odd rule on the outline in the polygon's local frame (not the
/// convex pieces), so points on the diagonals between pieces are never lost to
/// rounding; [`crate::query::point_inside()`] uses the same test.
#[inline]
pub fn intersects_point_simple(point: Vec2, simple: &SimplePolygon, pose: &Pose) -> bool {
    point_in_simple_polygon(pose.inverse_transform_point(point), simple.vertices())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;

    #[test]
    fn notch_of_an_l_is_outside() {
        let l_shape = SimplePolygon::new(&[
            vec2(0.0, 0.0),
            vec2(2.0, 0.0),
            vec2(2.0, 1.0),
            vec2(1.0, 1.0),
            vec2(1.0, 2.0),
            vec2(0.0, 2.0),
        ])
        .unwrap();
        let pose = Pose::new(vec2(10.0, 0.0), std::f32::consts::FRAC_PI_2).with_scale(2.0);
        // Local (0.5, 1.5) -> world (10 - 3, 1); local (1.5, 1.5) is the notch.
        assert!(intersects_point_simple(vec2(7.0, 1.0), &l_shape, &pose));
        assert!(!intersects_point_simple(
            pose.transform_point(vec2(1.5, 1.5)),
            &l_shape,
            &pose
        ));
    }
}
