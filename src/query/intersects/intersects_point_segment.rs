//! Point against segment.

use crate::math::Vec2;
use crate::query::geometry::point_on_segment;

/// True if the world point lies on the closed segment `a`–`b` (exact orientation test).
#[inline]
pub fn intersects_point_segment(point: Vec2, a: Vec2, b: Vec2) -> bool {
    point_on_segment(point, a, b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;

    #[test]
    fn end_points_and_interior_points_intersect() {
        let (a, b) = (vec2(0.0, 0.0), vec2(4.0, 2.0));
        assert!(intersects_point_segment(a, a, b));
        assert!(intersects_point_segment(vec2(2.0, 1.0), a, b));
        assert!(!intersects_point_segment(vec2(6.0, 3.0), a, b)); // on the line, past the end
        assert!(!intersects_point_segment(vec2(2.0, 1.01), a, b));
        assert!(intersects_point_segment(a, a, a));
    }
}
