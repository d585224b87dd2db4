//! Infinite line to convex polygon.

use super::ClosestPoints;
use super::distance_line_segment::line_to_nearest_point;
use crate::math::Vec2;
use crate::query::intersects::intersects_line_polygon;
use crate::query::placed::WorldPolygon;

/// Closest points of a world line and a polygon (its vertex nearest the line);
/// `None` when they meet.
pub fn distance_line_polygon(
    line_point: Vec2,
    line_direction: Vec2,
    polygon: &WorldPolygon,
) -> Option<ClosestPoints> {
    if intersects_line_polygon(line_point, line_direction, polygon) {
        return None;
    }
    Some(line_to_nearest_point(
        line_point,
        line_direction,
        &polygon.vertices,
        0.0,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Pose, vec2};

    #[test]
    fn nearest_corner() {
        let square = [
            vec2(0.0, 0.0),
            vec2(1.0, 0.0),
            vec2(1.0, 1.0),
            vec2(0.0, 1.0),
        ];
        let polygon =
            WorldPolygon::from_local_vertices(&square, &Pose::from_translation(vec2(3.0, 3.0)));
        let c =
            distance_line_polygon(vec2(0.0, 0.0), vec2(1.0, -1.0).normalize(), &polygon).unwrap();
        assert!((c.distance - 6.0 / 2f32.sqrt()).abs() < 1e-5);
        assert_eq!(c.point_b, vec2(3.0, 3.0));
    }
}
