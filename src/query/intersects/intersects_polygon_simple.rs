//! Convex polygon against simple polygon.

use super::intersects_polygon_polygon::intersects_polygon_polygon;
use crate::math::Pose;
use crate::query::geometry::placed_pieces;
use crate::query::placed::WorldPolygon;
use crate::shape::SimplePolygon;

/// True if the world polygon meets any convex piece of the simple polygon placed at `pose`.
pub fn intersects_polygon_simple(
    polygon: &WorldPolygon,
    simple: &SimplePolygon,
    pose: &Pose,
) -> bool {
    placed_pieces(simple, pose).any(|piece| intersects_polygon_polygon(polygon, &piece))
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
        let inside_notch =
            WorldPolygon::from_local_vertices(&square, &Pose::from_translation(vec2(1.2, 1.2)));
        let touching =
            WorldPolygon::from_local_vertices(&square, &Pose::from_translation(vec2(1.0, 1.2)));
        assert!(!intersects_polygon_simple(
            &inside_notch,
            &l_shape,
            &Pose::IDENTITY
        ));
        assert!(intersects_polygon_simple(
            &touching,
            &l_shape,
            &Pose::IDENTITY
        ));
    }
}
