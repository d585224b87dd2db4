//! Simple polygon against simple polygon.

use super::intersects_polygon_polygon::intersects_polygon_polygon;
use crate::math::Pose;
use crate::query::geometry::placed_pieces;
use crate::query::placed::WorldPolygon;
use crate::shape::SimplePolygon;
use smallvec::SmallVec;

/// True if any convex piece of `a` (placed at `pose_a`) meets any piece of `b` (at `pose_b`).
///
/// Unlike seed 002's vertex-in-polygon method for non-convex outlines, this
/// also finds overlaps where no vertex of either lies inside the other (two
/// bars crossing like a plus sign).
pub fn intersects_simple_simple(
    a: &SimplePolygon,
    pose_a: &Pose,
    b: &SimplePolygon,
    pose_b: &Pose,
) -> bool {
    let pieces_b: SmallVec<[WorldPolygon; 4]> = placed_pieces(b, pose_b).collect();
    placed_pieces(a, pose_a).any(|piece_a| {
        pieces_b
            .iter()
            .any(|piece_b| intersects_polygon_polygon(&piece_a, piece_b))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;

    #[test]
    fn crossing_bars_with_no_vertex_inside() {
        let bar = SimplePolygon::new(&[
            vec2(-3.0, -0.5),
            vec2(3.0, -0.5),
            vec2(3.0, 0.5),
            vec2(-3.0, 0.5),
        ])
        .unwrap();
        let turned = Pose::new(vec2(0.0, 0.0), std::f32::consts::FRAC_PI_2);
        assert!(intersects_simple_simple(
            &bar,
            &Pose::IDENTITY,
            &bar,
            &turned
        ));
        let apart = Pose::new(vec2(0.0, 5.0), 0.0);
        assert!(!intersects_simple_simple(
            &bar,
            &Pose::IDENTITY,
            &bar,
            &apart
        ));
    }
}
