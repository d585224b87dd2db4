//! Point to segment.

use super::ClosestPoints;
use crate::math::Vec2;
use crate::query::geometry::closest_point_on_segment;
use crate::query::intersects::intersects_point_segment;

/// Closest points of a world point and the segment `a`–`b`; `None` when the point is on it.
#[inline]
pub fn distance_point_segment(point: Vec2, a: Vec2, b: Vec2) -> Option<ClosestPoints> {
    if intersects_point_segment(point, a, b) {
        return None;
    }
    Some(ClosestPoints::from_cores(
        point,
        0.0,
        closest_point_on_segment(point, a, b).0,
        0.0,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;

    #[test]
    fn side_and_end() {
        let (a, b) = (vec2(0.0, 0.0), vec2(4.0, 0.0));
        assert_eq!(
            distance_point_segment(vec2(1.0, 2.0), a, b)
                .unwrap()
                .distance,
            2.0
        );
        assert_eq!(
            distance_point_segment(vec2(7.0, 4.0), a, b)
                .unwrap()
                .distance,
            5.0
        );
        assert!(distance_point_segment(vec2(3.0, 0.0), a, b).is_none());
    }
}
