//! Point to convex polygon.

use super::ClosestPoints;
use crate::math::Vec2;
use crate::query::geometry::closest_point_on_outline;
use crate::query::intersects::intersects_point_polygon;
use crate::query::placed::WorldPolygon;

/// Closest points of a world point and a polygon; `None` when the point is inside or on it.
#[inline]
pub fn distance_point_polygon(point: Vec2, polygon: &WorldPolygon) -> Option<ClosestPoints> {
    if intersects_point_polygon(point, polygon) {
        return None;
    }
    let on_polygon = closest_point_on_outline(point, &polygon.vertices);
    Some(ClosestPoints::from_cores(point, 0.0, on_polygon, 0.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Pose, vec2};

    #[test]
    fn face_and_corner() {
        let square = [
            vec2(0.0, 0.0),
            vec2(1.0, 0.0),
            vec2(1.0, 1.0),
            vec2(0.0, 1.0),
        ];
        let polygon = WorldPolygon::from_local_vertices(&square, &Pose::IDENTITY);
        assert_eq!(
            distance_point_polygon(vec2(0.5, 3.0), &polygon)
                .unwrap()
                .distance,
            2.0
        );
        assert_eq!(
            distance_point_polygon(vec2(4.0, 5.0), &polygon)
                .unwrap()
                .distance,
            5.0
        );
    }
}
