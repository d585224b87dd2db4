//! Segment to simple polygon.

use super::distance_segment_polygon::distance_segment_polygon;
use super::{ClosestPoints, nearest};
use crate::math::{Pose, Vec2};
use crate::query::geometry::placed_pieces;
use crate::query::intersects::intersects_segment_simple;
use crate::shape::SimplePolygon;

/// Closest points of the world segment `a`–`b` and a simple polygon (its
/// nearest convex piece); `None` when they meet.
pub fn distance_segment_simple(
    a: Vec2,
    b: Vec2,
    simple: &SimplePolygon,
    pose: &Pose,
) -> Option<ClosestPoints> {
    if intersects_segment_simple(a, b, simple, pose) {
        return None;
    }
    nearest(placed_pieces(simple, pose).map(|piece| distance_segment_polygon(a, b, &piece)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;

    #[test]
    fn segment_in_the_notch() {
        let l_shape = SimplePolygon::new(&[
            vec2(0.0, 0.0),
            vec2(2.0, 0.0),
            vec2(2.0, 1.0),
            vec2(1.0, 1.0),
            vec2(1.0, 2.0),
            vec2(0.0, 2.0),
        ])
        .unwrap();
        let c = distance_segment_simple(vec2(1.5, 1.5), vec2(1.5, 3.0), &l_shape, &Pose::IDENTITY)
            .unwrap();
        assert_eq!(c.distance, 0.5);
    }
}
