//! Infinite line against convex polygon (also Aabb, OrientedRect, TileTriangle).

use crate::math::{Real, Vec2};
use crate::query::geometry::line_offset;

/// True if the vertices' signed offsets from the line straddle 0: a convex (in
/// fact any connected) set meets a line exactly when its projection onto the
/// line normal contains 0.
pub fn intersects_line_vertices(line_point: Vec2, line_direction: Vec2, vertices: &[Vec2]) -> bool {
    let mut low = Real::INFINITY;
    let mut high = Real::NEG_INFINITY;
    for v in vertices {
        let offset = line_offset(line_point, line_direction, *v);
        low = low.min(offset);
        high = high.max(offset);
    }
    low <= 0.0 && high >= 0.0
}

/// True if the world polygon meets the line (touching counts).
#[inline]
pub fn intersects_line_polygon(
    line_point: Vec2,
    line_direction: Vec2,
    polygon: &crate::query::placed::WorldPolygon,
) -> bool {
    intersects_line_vertices(line_point, line_direction, &polygon.vertices)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Pose, vec2};
    use crate::query::placed::WorldPolygon;

    #[test]
    fn line_through_a_corner_touches() {
        let square = [
            vec2(0.0, 0.0),
            vec2(1.0, 0.0),
            vec2(1.0, 1.0),
            vec2(0.0, 1.0),
        ];
        let polygon = WorldPolygon::from_local_vertices(&square, &Pose::IDENTITY);
        let diagonal = vec2(1.0, -1.0).normalize();
        assert!(intersects_line_polygon(vec2(2.0, 0.0), diagonal, &polygon));
        assert!(!intersects_line_polygon(
            vec2(2.01, 0.0),
            diagonal,
            &polygon
        ));
        assert!(intersects_line_polygon(
            vec2(0.0, 0.5),
            vec2(1.0, 0.0),
            &polygon
        ));
    }
}
