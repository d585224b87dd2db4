//! Infinite line against capsule.

use crate::math::{Real, Vec2};
use crate::query::geometry::line_offset;

/// True if the capsule around `a`–`b` meets the line: the capsule's extent
/// along the line normal, `[min offset - radius, max offset + radius]`, contains 0.
#[inline]
pub fn intersects_line_capsule(
    line_point: Vec2,
    line_direction: Vec2,
    a: Vec2,
    b: Vec2,
    radius: Real,
) -> bool {
    let offset_a = line_offset(line_point, line_direction, a);
    let offset_b = line_offset(line_point, line_direction, b);
    offset_a.min(offset_b) - radius <= 0.0 && offset_a.max(offset_b) + radius >= 0.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;

    #[test]
    fn radius_reaches_the_line() {
        let (p, d) = (vec2(0.0, 0.0), vec2(1.0, 0.0));
        assert!(intersects_line_capsule(
            p,
            d,
            vec2(0.0, 1.0),
            vec2(5.0, 3.0),
            1.0
        ));
        assert!(!intersects_line_capsule(
            p,
            d,
            vec2(0.0, 1.5),
            vec2(5.0, 3.0),
            1.0
        ));
        assert!(intersects_line_capsule(
            p,
            d,
            vec2(0.0, -1.5),
            vec2(5.0, 3.0),
            0.1
        ));
    }
}
