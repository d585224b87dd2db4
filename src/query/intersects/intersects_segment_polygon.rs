//! Segment against convex polygon (also Aabb, OrientedRect, TileTriangle).

use crate::math::Vec2;
use crate::query::geometry::segment_polygon_intersect;
use crate::query::placed::WorldPolygon;

/// True if the world segment `a`–`b` meets the polygon (separating axis test on
/// the polygon's edges and the segment's normal).
#[inline]
pub fn intersects_segment_polygon(a: Vec2, b: Vec2, polygon: &WorldPolygon) -> bool {
    segment_polygon_intersect(a, b, &polygon.vertices)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Pose, vec2};

    #[test]
    fn through_inside_and_beside() {
        let square = [
            vec2(-1.0, -1.0),
            vec2(1.0, -1.0),
            vec2(1.0, 1.0),
            vec2(-1.0, 1.0),
        ];
        let polygon = WorldPolygon::from_local_vertices(&square, &Pose::IDENTITY);
        assert!(intersects_segment_polygon(
            vec2(-5.0, 0.0),
            vec2(5.0, 0.3),
            &polygon
        ));
        assert!(intersects_segment_polygon(
            vec2(-0.1, 0.0),
            vec2(0.1, 0.3),
            &polygon
        ));
        assert!(!intersects_segment_polygon(
            vec2(2.5, 0.0),
            vec2(0.0, 2.5),
            &polygon
        )); // passes the corner
        assert!(intersects_segment_polygon(
            vec2(2.0, 0.0),
            vec2(0.0, 2.0),
            &polygon
        )); // touches the corner
    }
}
