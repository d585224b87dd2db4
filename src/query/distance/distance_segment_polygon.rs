//! Segment to convex polygon.

use super::ClosestPoints;
use crate::math::Vec2;
use crate::query::geometry::segment_polygon_closest_points;
use crate::query::intersects::intersects_segment_polygon;
use crate::query::placed::WorldPolygon;

/// Closest points of the world segment `a`–`b` and a polygon; `None` when they meet.
#[inline]
pub fn distance_segment_polygon(a: Vec2, b: Vec2, polygon: &WorldPolygon) -> Option<ClosestPoints> {
    if intersects_segment_polygon(a, b, polygon) {
        return None;
    }
    let (on_segment, on_polygon) = segment_polygon_closest_points(a, b, &polygon.vertices);
    Some(ClosestPoints::from_cores(on_segment, 0.0, on_polygon, 0.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Pose, vec2};

    #[test]
    fn segment_over_a_corner() {
        let square = [
            vec2(0.0, 0.0),
            vec2(1.0, 0.0),
            vec2(1.0, 1.0),
            vec2(0.0, 1.0),
        ];
        let polygon = WorldPolygon::from_local_vertices(&square, &Pose::IDENTITY);
        let c = distance_segment_polygon(vec2(-1.0, 3.0), vec2(3.0, 3.0), &polygon).unwrap();
        assert_eq!(c.distance, 2.0);
        assert_eq!(c.point_b.y, 1.0);
    }
}
