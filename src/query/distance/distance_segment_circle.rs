//! Segment to circle.

use super::ClosestPoints;
use crate::math::{Real, Vec2};
use crate::query::geometry::closest_point_on_segment;
use crate::query::intersects::intersects_segment_circle;

/// Closest points of the world segment `a`–`b` and a circle; `None` when they meet.
#[inline]
pub fn distance_segment_circle(
    a: Vec2,
    b: Vec2,
    center: Vec2,
    radius: Real,
) -> Option<ClosestPoints> {
    if intersects_segment_circle(a, b, center, radius) {
        return None;
    }
    let on_segment = closest_point_on_segment(center, a, b).0;
    Some(ClosestPoints::from_cores(on_segment, 0.0, center, radius))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;

    #[test]
    fn circle_off_the_end() {
        let c =
            distance_segment_circle(vec2(0.0, 0.0), vec2(2.0, 0.0), vec2(5.0, 4.0), 2.0).unwrap();
        assert_eq!(c.distance, 3.0);
        assert_eq!(c.point_a, vec2(2.0, 0.0));
    }
}
