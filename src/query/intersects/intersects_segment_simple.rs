//! Segment against simple polygon.

use super::intersects_segment_polygon::intersects_segment_polygon;
use crate::math::{Pose, Vec2};
use crate::query::geometry::placed_pieces;
use crate::shape::SimplePolygon;

/// True if the world segment `a`–`b` meets any convex piece of the simple polygon placed at `pose`.
pub fn intersects_segment_simple(a: Vec2, b: Vec2, simple: &SimplePolygon, pose: &Pose) -> bool {
    placed_pieces(simple, pose).any(|piece| intersects_segment_polygon(a, b, &piece))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;

    #[test]
    fn segment_inside_the_notch_misses() {
        let l_shape = SimplePolygon::new(&[
            vec2(0.0, 0.0),
            vec2(2.0, 0.0),
            vec2(2.0, 1.0),
            vec2(1.0, 1.0),
            vec2(1.0, 2.0),
            vec2(0.0, 2.0),
        ])
        .unwrap();
        assert!(!intersects_segment_simple(
            vec2(1.2, 1.8),
            vec2(1.8, 1.2),
            &l_shape,
            &Pose::IDENTITY
        ));
        assert!(intersects_segment_simple(
            vec2(0.8, 1.8),
            vec2(1.8, 0.8),
            &l_shape,
            &Pose::IDENTITY
        ));
    }
}
