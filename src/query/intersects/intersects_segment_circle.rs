//! Segment against circle.

use crate::math::{Real, Vec2};
use crate::query::geometry::point_segment_distance_squared;

/// True if the world segment `a`–`b` comes within `radius` of `center`.
///
/// Closest point with the projection parameter clamped to `[0, 1]` (seed 000's
/// `circle_segment_collide` compares projected lengths instead).
#[inline]
pub fn intersects_segment_circle(a: Vec2, b: Vec2, center: Vec2, radius: Real) -> bool {
    point_segment_distance_squared(center, a, b) <= radius * radius
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;

    #[test]
    fn cut_through_and_beyond_the_end() {
        let center = vec2(0.0, 0.0);
        assert!(intersects_segment_circle(
            vec2(-5.0, 0.5),
            vec2(5.0, 0.5),
            center,
            1.0
        ));
        assert!(intersects_segment_circle(
            vec2(1.0, 0.0),
            vec2(5.0, 0.0),
            center,
            1.0
        ));
        assert!(!intersects_segment_circle(
            vec2(1.01, 0.0),
            vec2(5.0, 0.0),
            center,
            1.0
        ));
    }
}
