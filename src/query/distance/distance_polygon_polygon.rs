//! Convex polygon to convex polygon.

use super::ClosestPoints;
use crate::query::geometry::polygon_polygon_closest_points;
use crate::query::intersects::intersects_polygon_polygon;
use crate::query::placed::WorldPolygon;

/// Closest points of two world polygons; `None` when they meet (SAT finds no separating edge).
#[inline]
pub fn distance_polygon_polygon(a: &WorldPolygon, b: &WorldPolygon) -> Option<ClosestPoints> {
    if intersects_polygon_polygon(a, b) {
        return None;
    }
    let (on_a, on_b) = polygon_polygon_closest_points(&a.vertices, &b.vertices);
    Some(ClosestPoints::from_cores(on_a, 0.0, on_b, 0.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Pose, vec2};

    #[test]
    fn corner_to_face() {
        let square = [
            vec2(-1.0, -1.0),
            vec2(1.0, -1.0),
            vec2(1.0, 1.0),
            vec2(-1.0, 1.0),
        ];
        let a = WorldPolygon::from_local_vertices(&square, &Pose::IDENTITY);
        let turned = Pose::new(vec2(2.0 + 2f32.sqrt(), 0.0), std::f32::consts::FRAC_PI_4);
        let b = WorldPolygon::from_local_vertices(&square, &turned);
        let c = distance_polygon_polygon(&a, &b).unwrap();
        assert!((c.distance - 1.0).abs() < 1e-5);
        assert!((c.point_b - vec2(2.0, 0.0)).norm() < 1e-5);
    }
}
