//! Segment against segment.

use crate::math::Vec2;
use crate::query::geometry::segments_intersect;

/// True if the closed world segments `a0`–`a1` and `b0`–`b1` share a point.
///
/// Exact orientation tests (seed 000's separating-axis idea, decided by signs):
/// each segment's end points lie strictly on opposite sides of the other's
/// line, or an end point lies on the other segment (this also covers
/// collinear overlap).
#[inline]
pub fn intersects_segment_segment(a0: Vec2, a1: Vec2, b0: Vec2, b1: Vec2) -> bool {
    segments_intersect(a0, a1, b0, b1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;

    #[test]
    fn crossing_touching_and_collinear() {
        assert!(intersects_segment_segment(
            vec2(0.0, 0.0),
            vec2(2.0, 2.0),
            vec2(0.0, 2.0),
            vec2(2.0, 0.0)
        ));
        assert!(intersects_segment_segment(
            vec2(0.0, 0.0),
            vec2(2.0, 2.0),
            vec2(1.0, 1.0),
            vec2(3.0, 0.0)
        ));
        assert!(!intersects_segment_segment(
            vec2(0.0, 0.0),
            vec2(1.0, 1.0),
            vec2(2.0, 2.0),
            vec2(3.0, 3.0)
        ));
        assert!(intersects_segment_segment(
            vec2(0.0, 0.0),
            vec2(2.0, 2.0),
            vec2(2.0, 2.0),
            vec2(3.0, 3.0)
        ));
    }
}
