//! Convex polygon against convex polygon: the separating axis test (seed 002).

use crate::query::geometry::polygons_intersect;
use crate::query::placed::WorldPolygon;

/// True if the two world polygons overlap or touch.
///
/// Seed 002's SAT: the polygons are disjoint exactly when one edge's outward
/// normal has every vertex of the other polygon strictly beyond that edge.
/// Decided with exact cross-product signs, without normalizing, and symmetric.
#[inline]
pub fn intersects_polygon_polygon(a: &WorldPolygon, b: &WorldPolygon) -> bool {
    polygons_intersect(&a.vertices, &b.vertices)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Pose, vec2};

    #[test]
    fn diamond_against_square() {
        let square = [
            vec2(0.0, 0.0),
            vec2(1.0, 0.0),
            vec2(1.0, 1.0),
            vec2(0.0, 1.0),
        ];
        let diamond = [
            vec2(1.0, 0.0),
            vec2(0.0, 1.0),
            vec2(-1.0, 0.0),
            vec2(0.0, -1.0),
        ];
        let a = WorldPolygon::from_local_vertices(&square, &Pose::IDENTITY);
        let touching =
            WorldPolygon::from_local_vertices(&diamond, &Pose::from_translation(vec2(2.0, 0.5)));
        let apart =
            WorldPolygon::from_local_vertices(&diamond, &Pose::from_translation(vec2(2.01, 0.5)));
        assert!(intersects_polygon_polygon(&a, &touching));
        assert!(!intersects_polygon_polygon(&a, &apart));
        assert!(!intersects_polygon_polygon(&apart, &a));
    }
}
