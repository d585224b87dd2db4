//! Circle against circle.

use crate::math::{Real, Vec2};

/// True if the centres are at most `radius_a + radius_b` apart (squared
/// comparison, no square root; seed 003 returns the inverted answer).
#[inline]
pub fn intersects_circle_circle(
    center_a: Vec2,
    radius_a: Real,
    center_b: Vec2,
    radius_b: Real,
) -> bool {
    let reach = radius_a + radius_b;
    (center_b - center_a).norm_squared() <= reach * reach
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;

    #[test]
    fn apart_touching_overlapping() {
        assert!(intersects_circle_circle(
            vec2(0.0, 0.0),
            1.0,
            vec2(3.0, 4.0),
            4.0
        ));
        assert!(!intersects_circle_circle(
            vec2(0.0, 0.0),
            1.0,
            vec2(3.0, 4.0),
            3.99
        ));
        assert!(intersects_circle_circle(
            vec2(0.0, 0.0),
            5.0,
            vec2(0.1, 0.0),
            0.1
        ));
    }
}
