//! Point against infinite line.

use crate::math::Vec2;
use crate::query::geometry::line_offset;

/// True if the world point lies on the line through `line_point` along the unit
/// `line_direction` (within the line's rounding band, [`crate::query::geometry::LINE_ROUNDING`]).
#[inline]
pub fn intersects_point_line(point: Vec2, line_point: Vec2, line_direction: Vec2) -> bool {
    line_offset(line_point, line_direction, point) == 0.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;

    #[test]
    fn points_of_the_line_intersect_it() {
        let direction = vec2(5.0, -1.0).normalize();
        assert!(intersects_point_line(
            vec2(8.0, 4.0),
            vec2(3.0, 5.0),
            direction
        ));
        assert!(intersects_point_line(
            vec2(-97.0, 25.0),
            vec2(3.0, 5.0),
            direction
        ));
        assert!(!intersects_point_line(
            vec2(8.0, 4.001),
            vec2(3.0, 5.0),
            direction
        ));
    }
}
