//! Infinite line against circle.

use crate::math::{Real, Vec2};
use crate::query::geometry::line_offset;

/// True if the circle's centre is within `radius` of the line.
#[inline]
pub fn intersects_line_circle(
    line_point: Vec2,
    line_direction: Vec2,
    center: Vec2,
    radius: Real,
) -> bool {
    line_offset(line_point, line_direction, center).abs() <= radius
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;

    #[test]
    fn tangent_line_touches() {
        let (p, d) = (vec2(0.0, 2.0), vec2(1.0, 0.0));
        assert!(intersects_line_circle(p, d, vec2(7.0, 0.0), 2.0));
        assert!(!intersects_line_circle(p, d, vec2(7.0, -0.01), 2.0));
    }
}
