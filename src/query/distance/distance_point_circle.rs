//! Point to circle.

use super::ClosestPoints;
use crate::math::{Real, Vec2};
use crate::query::intersects::intersects_point_circle;

/// Closest points of a world point and a circle; `None` when the point is inside.
#[inline]
pub fn distance_point_circle(point: Vec2, center: Vec2, radius: Real) -> Option<ClosestPoints> {
    if intersects_point_circle(point, center, radius) {
        return None;
    }
    Some(ClosestPoints::from_cores(point, 0.0, center, radius))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;

    #[test]
    fn outside_by_one() {
        let c = distance_point_circle(vec2(0.0, 6.0), vec2(0.0, 0.0), 5.0).unwrap();
        assert_eq!(c.distance, 1.0);
        assert_eq!(c.point_b, vec2(0.0, 5.0));
    }
}
