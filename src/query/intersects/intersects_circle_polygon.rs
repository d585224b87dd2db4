//! Circle against convex polygon (also OrientedRect; Aabb and TileTriangle have fast paths).

use crate::math::{Real, Vec2};
use crate::query::geometry::closest_point_on_convex_polygon;
use crate::query::placed::WorldPolygon;

/// True if the centre is inside the polygon or within `radius` of its boundary.
#[inline]
pub fn intersects_circle_polygon(center: Vec2, radius: Real, polygon: &WorldPolygon) -> bool {
    let closest = closest_point_on_convex_polygon(center, &polygon.vertices);
    (center - closest).norm_squared() <= radius * radius
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Pose, vec2};

    #[test]
    fn face_corner_and_inside() {
        let hexagon: Vec<Vec2> = (0..6)
            .map(|i| {
                let angle = std::f32::consts::TAU * i as f32 / 6.0;
                vec2(angle.cos(), angle.sin())
            })
            .collect();
        let polygon = WorldPolygon::from_local_vertices(&hexagon, &Pose::IDENTITY);
        assert!(intersects_circle_polygon(vec2(0.1, 0.0), 0.01, &polygon));
        assert!(intersects_circle_polygon(vec2(1.5, 0.0), 0.5001, &polygon)); // vertex (1, 0)
        assert!(!intersects_circle_polygon(vec2(1.5, 0.0), 0.499, &polygon));
    }
}
