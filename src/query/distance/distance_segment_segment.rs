//! Segment to segment.

use super::ClosestPoints;
use crate::math::Vec2;
use crate::query::geometry::segment_segment_closest_points;
use crate::query::intersects::intersects_segment_segment;

/// Closest points of two world segments; `None` when they meet.
#[inline]
pub fn distance_segment_segment(a0: Vec2, a1: Vec2, b0: Vec2, b1: Vec2) -> Option<ClosestPoints> {
    if intersects_segment_segment(a0, a1, b0, b1) {
        return None;
    }
    let (on_a, on_b) = segment_segment_closest_points(a0, a1, b0, b1);
    Some(ClosestPoints::from_cores(on_a, 0.0, on_b, 0.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;

    #[test]
    fn t_shape_apart() {
        let c = distance_segment_segment(
            vec2(-1.0, 0.0),
            vec2(1.0, 0.0),
            vec2(0.5, 2.0),
            vec2(0.5, 5.0),
        )
        .unwrap();
        assert_eq!(c.distance, 2.0);
        assert_eq!((c.point_a, c.point_b), (vec2(0.5, 0.0), vec2(0.5, 2.0)));
    }
}
