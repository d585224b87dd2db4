//! Point against convex polygon (also Aabb, OrientedRect, TileTriangle).

use crate::math::Vec2;
use crate::query::geometry::point_in_convex_polygon;
use crate::query::placed::WorldPolygon;

/// True if the world point lies in the convex polygon or on its boundary.
#[inline]
pub fn intersects_point_polygon(point: Vec2, polygon: &WorldPolygon) -> bool {
    point_in_convex_polygon(point, &polygon.vertices)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Pose, vec2};

    #[test]
    fn inside_boundary_and_outside() {
        let triangle = [vec2(0.0, 0.0), vec2(2.0, 0.0), vec2(0.0, 2.0)];
        let polygon =
            WorldPolygon::from_local_vertices(&triangle, &Pose::from_translation(vec2(1.0, 1.0)));
        assert!(intersects_point_polygon(vec2(1.5, 1.5), &polygon));
        assert!(intersects_point_polygon(vec2(2.0, 2.0), &polygon)); // on the hypotenuse
        assert!(!intersects_point_polygon(vec2(2.1, 2.0), &polygon));
    }
}
