//! Capsule to convex polygon.

use super::ClosestPoints;
use crate::math::{Real, Vec2};
use crate::query::geometry::segment_polygon_closest_points;
use crate::query::intersects::intersects_capsule_polygon;
use crate::query::placed::WorldPolygon;

/// Closest points of the world capsule around `a`–`b` and a polygon; `None` when they meet.
#[inline]
pub fn distance_capsule_polygon(
    a: Vec2,
    b: Vec2,
    radius: Real,
    polygon: &WorldPolygon,
) -> Option<ClosestPoints> {
    if intersects_capsule_polygon(a, b, radius, polygon) {
        return None;
    }
    let (on_core, on_polygon) = segment_polygon_closest_points(a, b, &polygon.vertices);
    Some(ClosestPoints::from_cores(on_core, radius, on_polygon, 0.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Pose, vec2};

    #[test]
    fn capsule_above_a_box() {
        let square = [
            vec2(0.0, 0.0),
            vec2(1.0, 0.0),
            vec2(1.0, 1.0),
            vec2(0.0, 1.0),
        ];
        let polygon = WorldPolygon::from_local_vertices(&square, &Pose::IDENTITY);
        let c = distance_capsule_polygon(vec2(-1.0, 3.0), vec2(3.0, 3.0), 0.5, &polygon).unwrap();
        assert_eq!(c.distance, 1.5);
        assert_eq!(c.point_a.y, 2.5);
    }
}
