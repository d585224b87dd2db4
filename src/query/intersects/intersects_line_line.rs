//! Infinite line against infinite line.

use crate::math::{Vec2, cross};
use crate::query::geometry::line_offset;

/// True if the two world lines meet: they are not parallel, or they coincide.
///
/// Parallel means `cross(direction_a, direction_b) == 0` exactly; coincident
/// means either line's point lies on the other within the rounding band of
/// [`crate::query::geometry::LINE_ROUNDING`]. Both tests read the same for both
/// argument orders.
pub fn intersects_line_line(
    point_a: Vec2,
    direction_a: Vec2,
    point_b: Vec2,
    direction_b: Vec2,
) -> bool {
    if cross(direction_a, direction_b) != 0.0 {
        return true;
    }
    line_offset(point_a, direction_a, point_b) == 0.0
        || line_offset(point_b, direction_b, point_a) == 0.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;

    #[test]
    fn parallel_lines_meet_only_when_equivalent() {
        let d = vec2(1.0, 2.0).normalize();
        assert!(intersects_line_line(
            vec2(0.0, 0.0),
            d,
            vec2(5.0, 0.0),
            vec2(1.0, 0.0)
        ));
        assert!(intersects_line_line(vec2(0.0, 0.0), d, vec2(1.0, 2.0), d));
        assert!(!intersects_line_line(vec2(0.0, 0.0), d, vec2(1.0, 2.1), d));
        assert!(intersects_line_line(vec2(0.0, 0.0), d, vec2(1.0, 2.0), -d));
    }
}
