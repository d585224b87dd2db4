//! Segment against capsule.

use crate::math::{Real, Vec2};
use crate::query::geometry::{segment_segment_closest_points, segments_intersect};

/// True if the world segment `a0`–`a1` comes within `radius` of the capsule's
/// core segment `b0`–`b1`.
#[inline]
pub fn intersects_segment_capsule(a0: Vec2, a1: Vec2, b0: Vec2, b1: Vec2, radius: Real) -> bool {
    super::intersects_capsule_capsule::intersects_capsule_capsule(a0, a1, 0.0, b0, b1, radius)
}

/// True if the two cores come within `reach` of each other (shared by the capsule pairs).
#[inline]
pub(crate) fn segments_within(a0: Vec2, a1: Vec2, b0: Vec2, b1: Vec2, reach: Real) -> bool {
    if segments_intersect(a0, a1, b0, b1) {
        return true;
    }
    let (on_a, on_b) = segment_segment_closest_points(a0, a1, b0, b1);
    (on_b - on_a).norm_squared() <= reach * reach
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;

    #[test]
    fn segment_grazing_a_rounded_end() {
        let (b0, b1) = (vec2(0.0, 0.0), vec2(4.0, 0.0));
        assert!(intersects_segment_capsule(
            vec2(5.0, -3.0),
            vec2(5.0, 3.0),
            b0,
            b1,
            1.0
        ));
        assert!(!intersects_segment_capsule(
            vec2(5.01, -3.0),
            vec2(5.01, 3.0),
            b0,
            b1,
            1.0
        ));
        assert!(intersects_segment_capsule(
            vec2(1.0, -3.0),
            vec2(1.0, 3.0),
            b0,
            b1,
            0.5
        )); // crossing the core
    }
}
