//! Point to capsule.

use super::ClosestPoints;
use crate::math::{Real, Vec2};
use crate::query::geometry::closest_point_on_segment;
use crate::query::intersects::intersects_point_capsule;

/// Closest points of a world point and the capsule around `a`–`b`; `None` when the point is inside.
#[inline]
pub fn distance_point_capsule(
    point: Vec2,
    a: Vec2,
    b: Vec2,
    radius: Real,
) -> Option<ClosestPoints> {
    if intersects_point_capsule(point, a, b, radius) {
        return None;
    }
    let core = closest_point_on_segment(point, a, b).0;
    Some(ClosestPoints::from_cores(point, 0.0, core, radius))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;

    #[test]
    fn beyond_the_rounded_end() {
        let c =
            distance_point_capsule(vec2(7.0, 0.0), vec2(0.0, 0.0), vec2(4.0, 0.0), 1.0).unwrap();
        assert_eq!(c.distance, 2.0);
        assert_eq!(c.point_b, vec2(5.0, 0.0));
    }
}
