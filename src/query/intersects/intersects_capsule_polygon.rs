//! Capsule against convex polygon (also Aabb, OrientedRect, TileTriangle).

use crate::math::{Real, Vec2};
use crate::query::geometry::{segment_polygon_closest_points, segment_polygon_intersect};
use crate::query::placed::WorldPolygon;

/// True if the capsule's core `a`–`b` meets the polygon or comes within `radius` of it.
pub fn intersects_capsule_polygon(a: Vec2, b: Vec2, radius: Real, polygon: &WorldPolygon) -> bool {
    if segment_polygon_intersect(a, b, &polygon.vertices) {
        return true;
    }
    let (on_segment, on_polygon) = segment_polygon_closest_points(a, b, &polygon.vertices);
    (on_polygon - on_segment).norm_squared() <= radius * radius
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Pose, vec2};

    #[test]
    fn thick_shot_past_a_box_corner() {
        let square = [
            vec2(0.0, 0.0),
            vec2(1.0, 0.0),
            vec2(1.0, 1.0),
            vec2(0.0, 1.0),
        ];
        let polygon = WorldPolygon::from_local_vertices(&square, &Pose::IDENTITY);
        // The core passes 0.5 / sqrt(2) ~ 0.354 from corner (1, 1).
        assert!(intersects_capsule_polygon(
            vec2(2.5, 0.0),
            vec2(0.0, 2.5),
            0.36,
            &polygon
        ));
        assert!(!intersects_capsule_polygon(
            vec2(2.5, 0.0),
            vec2(0.0, 2.5),
            0.35,
            &polygon
        ));
    }
}
