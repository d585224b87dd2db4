//! Point against capsule.

use crate::math::{Real, Vec2};
use crate::query::geometry::point_segment_distance_squared;

/// True if the world point is within `radius` of the core segment `a`–`b`.
#[inline]
pub fn intersects_point_capsule(point: Vec2, a: Vec2, b: Vec2, radius: Real) -> bool {
    point_segment_distance_squared(point, a, b) <= radius * radius
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;

    #[test]
    fn rounded_ends_and_flat_sides() {
        let (a, b) = (vec2(0.0, 0.0), vec2(4.0, 0.0));
        assert!(intersects_point_capsule(vec2(2.0, 1.0), a, b, 1.0)); // touching the side
        assert!(intersects_point_capsule(vec2(4.6, 0.8), a, b, 1.0)); // |(0.6, 0.8)| = 1
        assert!(!intersects_point_capsule(vec2(4.7, 0.8), a, b, 1.0));
    }
}
