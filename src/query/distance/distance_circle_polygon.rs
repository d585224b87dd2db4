//! Circle to convex polygon.

use super::ClosestPoints;
use crate::math::{Real, Vec2};
use crate::query::geometry::closest_point_on_outline;
use crate::query::intersects::intersects_circle_polygon;
use crate::query::placed::WorldPolygon;

/// Closest points of a world circle and a polygon; `None` when they meet.
#[inline]
pub fn distance_circle_polygon(
    center: Vec2,
    radius: Real,
    polygon: &WorldPolygon,
) -> Option<ClosestPoints> {
    if intersects_circle_polygon(center, radius, polygon) {
        return None;
    }
    let on_polygon = closest_point_on_outline(center, &polygon.vertices);
    Some(ClosestPoints::from_cores(center, radius, on_polygon, 0.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Pose, vec2};

    #[test]
    fn ball_over_a_corner() {
        let square = [
            vec2(0.0, 0.0),
            vec2(1.0, 0.0),
            vec2(1.0, 1.0),
            vec2(0.0, 1.0),
        ];
        let polygon = WorldPolygon::from_local_vertices(&square, &Pose::IDENTITY);
        let c = distance_circle_polygon(vec2(4.0, 5.0), 2.0, &polygon).unwrap();
        assert_eq!(c.distance, 3.0);
        assert_eq!(c.point_b, vec2(1.0, 1.0));
    }
}
