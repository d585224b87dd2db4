//! Infinite line against segment.

use crate::math::Vec2;
use crate::query::geometry::line_offset;

/// True if the segment `a`–`b` meets the line: its end points' signed offsets
/// from the line straddle 0 (an end point on the line counts).
#[inline]
pub fn intersects_line_segment(line_point: Vec2, line_direction: Vec2, a: Vec2, b: Vec2) -> bool {
    let offset_a = line_offset(line_point, line_direction, a);
    let offset_b = line_offset(line_point, line_direction, b);
    offset_a.min(offset_b) <= 0.0 && offset_a.max(offset_b) >= 0.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;

    #[test]
    fn straddling_touching_and_one_sided() {
        let (p, d) = (vec2(0.0, 0.0), vec2(1.0, 0.0));
        assert!(intersects_line_segment(
            p,
            d,
            vec2(50.0, -1.0),
            vec2(51.0, 1.0)
        ));
        assert!(intersects_line_segment(
            p,
            d,
            vec2(-3.0, 0.0),
            vec2(-2.0, 4.0)
        ));
        assert!(!intersects_line_segment(
            p,
            d,
            vec2(-3.0, 0.1),
            vec2(-2.0, 4.0)
        ));
    }
}
