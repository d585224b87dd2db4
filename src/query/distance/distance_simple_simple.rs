//! Simple polygon to simple polygon.

use super::distance_polygon_polygon::distance_polygon_polygon;
use super::{ClosestPoints, nearest};
use crate::math::Pose;
use crate::query::geometry::placed_pieces;
use crate::query::intersects::intersects_simple_simple;
use crate::query::placed::WorldPolygon;
use crate::shape::SimplePolygon;
use smallvec::SmallVec;

/// Closest points of two simple polygons (their nearest pair of convex pieces);
/// `None` when they meet.
pub fn distance_simple_simple(
    a: &SimplePolygon,
    pose_a: &Pose,
    b: &SimplePolygon,
    pose_b: &Pose,
) -> Option<ClosestPoints> {
    if intersects_simple_simple(a, pose_a, b, pose_b) {
        return None;
    }
    let pieces_b: SmallVec<[WorldPolygon; 4]> = placed_pieces(b, pose_b).collect();
    nearest(placed_pieces(a, pose_a).flat_map(|piece_a| {
        pieces_b
            .iter()
            .map(move |piece_b| distance_polygon_polygon(&piece_a, piece_b))
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;

    #[test]
    fn two_ls_side_by_side() {
        let l_shape = SimplePolygon::new(&[
            vec2(0.0, 0.0),
            vec2(2.0, 0.0),
            vec2(2.0, 1.0),
            vec2(1.0, 1.0),
            vec2(1.0, 2.0),
            vec2(0.0, 2.0),
        ])
        .unwrap();
        let c = distance_simple_simple(
            &l_shape,
            &Pose::IDENTITY,
            &l_shape,
            &Pose::from_translation(vec2(3.0, 0.0)),
        )
        .unwrap();
        assert_eq!(c.distance, 1.0);
    }
}
