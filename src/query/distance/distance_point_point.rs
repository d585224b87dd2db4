//! Point to point.

use super::ClosestPoints;
use crate::math::Vec2;
use crate::query::intersects::intersects_point_point;

/// Closest points of two world points; `None` when they are equal.
#[inline]
pub fn distance_point_point(point_a: Vec2, point_b: Vec2) -> Option<ClosestPoints> {
    if intersects_point_point(point_a, point_b) {
        return None;
    }
    Some(ClosestPoints::from_cores(point_a, 0.0, point_b, 0.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;

    #[test]
    fn three_four_five() {
        let c = distance_point_point(vec2(1.0, 1.0), vec2(4.0, 5.0)).unwrap();
        assert_eq!(c.distance, 5.0);
        assert_eq!((c.point_a, c.point_b), (vec2(1.0, 1.0), vec2(4.0, 5.0)));
        assert!(distance_point_point(vec2(1.0, 1.0), vec2(1.0, 1.0)).is_none());
    }
}
