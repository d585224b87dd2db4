//! Point against point.

use crate::math::Vec2;

/// True if the two world points are equal.
///
/// Touching counts, so two points intersect only when they coincide exactly:
/// no tolerance (seed 000 compares with `equal_floats`; we do not, so that
/// `intersects` and `distance == 0` stay the same predicate).
#[inline]
pub fn intersects_point_point(point_a: Vec2, point_b: Vec2) -> bool {
    point_a == point_b
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;

    #[test]
    fn only_equal_points_intersect() {
        assert!(intersects_point_point(vec2(2.0, 3.0), vec2(2.0, 3.0)));
        assert!(!intersects_point_point(
            vec2(2.0, 3.0),
            vec2(2.0, 3.000_001)
        ));
    }
}
