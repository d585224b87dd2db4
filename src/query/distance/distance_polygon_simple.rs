//! Convex polygon to simple polygon.

use super::distance_polygon_polygon::distance_polygon_polygon;
use super::{ClosestPoints, nearest};
use crate::math::Pose;
use crate::query::geometry::placed_pieces;
use crate::query::intersects::intersects_polygon_simple;
use crate::query::placed::WorldPolygon;
use crate::shape::SimplePolygon;

/// Closest points of a world polygon and a simple polygon; `None` when they meet.
pub fn distance_polygon_simple(
    polygon: &WorldPolygon,
    simple: &SimplePolygon,
    pose: &Pose,
) -> Option<ClosestPoints> {
    if intersects_polygon_simple(polygon, simple, pose) {
        return None;
    }
    nearest(placed_pieces(simple, pose).map(|piece| distance_polygon_polygon(polygon, &piece)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;

    #[test]
    fn box_in_the_notch() {
        let l_shape = SimplePolygon::new(&[
            vec2(0.0, 0.0),
            vec2(2.0, 0.0),
            vec2(2.0, 1.0),
            vec2(1.0, 1.0),
            vec2(1.0, 2.0),
            vec2(0.0, 2.0),
        ])
        .unwrap();
        let square = [
            vec2(0.0, 0.0),
            vec2(0.5, 0.0),
            vec2(0.5, 0.5),
            vec2(0.0, 0.5),
        ];
        let polygon =
            WorldPolygon::from_local_vertices(&square, &Pose::from_translation(vec2(1.25, 1.5)));
        let c = distance_polygon_simple(&polygon, &l_shape, &Pose::IDENTITY).unwrap();
        assert_eq!(c.distance, 0.25);
    }
}
