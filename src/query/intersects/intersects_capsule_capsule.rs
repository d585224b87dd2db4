//! Capsule against capsule: seed 004's thick line test with thickness on both sides.

use super::intersects_segment_capsule::segments_within;
use crate::math::{Real, Vec2};

/// True if the two world capsules overlap: their core segments cross or come
/// within `radius_a + radius_b` of each other. Symmetric in A and B.
#[inline]
pub fn intersects_capsule_capsule(
    a0: Vec2,
    a1: Vec2,
    radius_a: Real,
    b0: Vec2,
    b1: Vec2,
    radius_b: Real,
) -> bool {
    segments_within(a0, a1, b0, b1, radius_a + radius_b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;

    #[test]
    fn parallel_capsules_touch_at_the_sum_of_radii() {
        let (a0, a1) = (vec2(0.0, 0.0), vec2(4.0, 0.0));
        assert!(intersects_capsule_capsule(
            a0,
            a1,
            0.5,
            vec2(1.0, 1.5),
            vec2(3.0, 1.5),
            1.0
        ));
        assert!(!intersects_capsule_capsule(
            a0,
            a1,
            0.5,
            vec2(1.0, 1.6),
            vec2(3.0, 1.6),
            1.0
        ));
    }
}
