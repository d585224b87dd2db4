//! Segment to capsule.

use super::ClosestPoints;
use crate::math::{Real, Vec2};
use crate::query::geometry::segment_segment_closest_points;
use crate::query::intersects::intersects_segment_capsule;

/// Closest points of the world segment `a0`–`a1` and the capsule around
/// `b0`–`b1`; `None` when they meet.
#[inline]
pub fn distance_segment_capsule(
    a0: Vec2,
    a1: Vec2,
    b0: Vec2,
    b1: Vec2,
    radius: Real,
) -> Option<ClosestPoints> {
    if intersects_segment_capsule(a0, a1, b0, b1, radius) {
        return None;
    }
    let (on_a, on_b) = segment_segment_closest_points(a0, a1, b0, b1);
    Some(ClosestPoints::from_cores(on_a, 0.0, on_b, radius))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;

    #[test]
    fn parallel_above() {
        let c = distance_segment_capsule(
            vec2(0.0, 3.0),
            vec2(4.0, 3.0),
            vec2(1.0, 0.0),
            vec2(2.0, 0.0),
            1.0,
        )
        .unwrap();
        assert_eq!(c.distance, 2.0);
        assert_eq!(c.point_b.y, 1.0);
    }
}
