//! Point against circle.

use crate::math::{Real, Vec2};

/// True if the world point is within `radius` of `center` (boundary included).
#[inline]
pub fn intersects_point_circle(point: Vec2, center: Vec2, radius: Real) -> bool {
    (point - center).norm_squared() <= radius * radius
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;

    #[test]
    fn boundary_counts() {
        assert!(intersects_point_circle(vec2(3.0, 4.0), vec2(0.0, 0.0), 5.0));
        assert!(!intersects_point_circle(
            vec2(3.0, 4.01),
            vec2(0.0, 0.0),
            5.0
        ));
    }
}
