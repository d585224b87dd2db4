//! Contact between two simple (possibly non-convex) polygons.
//!
//! Every pair of convex pieces is collided and the **deepest** manifold is the
//! answer (ties go to the lower piece indices, A's first), as in
//! [`super::contact_simple_convex`].

use super::clip::sanitize_margin;
use super::contact_polygon_polygon;
use super::contact_simple_convex::outline_feature;
use super::{FeatureId, Manifold};
use crate::math::{Pose, Real};
use crate::query::placed::WorldPolygon;
use crate::shape::SimplePolygon;

/// The contact between simple polygons A and B (shapes and poses), if they are
/// at most `margin` metres apart: the deepest manifold among all pairs of
/// their convex pieces, with features numbered by each outline.
pub fn contact_simple_simple(
    simple_a: &SimplePolygon,
    pose_a: &Pose,
    simple_b: &SimplePolygon,
    pose_b: &Pose,
    margin: Real,
) -> Option<Manifold> {
    let margin = sanitize_margin(margin);
    let placed_b: Vec<WorldPolygon> = simple_b
        .pieces()
        .iter()
        .map(|piece| WorldPolygon::from_local(piece.vertices(), piece.normals(), pose_b))
        .collect();
    let mut deepest: Option<(Manifold, usize, usize)> = None;
    for (index_a, piece_a) in simple_a.pieces().iter().enumerate() {
        let polygon_a = WorldPolygon::from_local(piece_a.vertices(), piece_a.normals(), pose_a);
        for (index_b, polygon_b) in placed_b.iter().enumerate() {
            if let Some(manifold) = contact_polygon_polygon(&polygon_a, polygon_b, margin)
                && deepest
                    .as_ref()
                    .is_none_or(|(best, _, _)| manifold.depth() > best.depth())
            {
                deepest = Some((manifold, index_a, index_b));
            }
        }
    }
    let (mut manifold, index_a, index_b) = deepest?;
    let (piece_a, piece_b) = (&simple_a.pieces()[index_a], &simple_b.pieces()[index_b]);
    for point in &mut manifold.points {
        point.id = FeatureId::new(
            outline_feature(simple_a, piece_a, point.id.feature_a()),
            outline_feature(simple_b, piece_b, point.id.feature_b()),
        );
    }
    Some(manifold)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;
    use crate::query::contact::clip::vertex_feature;

    #[test]
    fn two_l_shapes_resting_corner_in_notch() {
        let outline = [
            vec2(0.0, 0.0),
            vec2(2.0, 0.0),
            vec2(2.0, 1.0),
            vec2(1.0, 1.0),
            vec2(1.0, 2.0),
            vec2(0.0, 2.0),
        ];
        let l = SimplePolygon::new(&outline).unwrap();
        // A second L whose lower-left corner sinks 0.05 into the notch floor.
        let pose_b = Pose::from_translation(vec2(1.2, 0.95));
        let m = contact_simple_simple(&l, &Pose::IDENTITY, &l, &pose_b, 0.0).unwrap();
        assert!((m.normal - vec2(0.0, 1.0)).norm() < 1e-5);
        assert!((m.depth() - 0.05).abs() < 1e-5);
        // B's bottom edge (outline edge 0) is clipped by A's notch floor
        // (outline edge 2): the right end is named by A's corner 2 and B's
        // corner 1, the left end by A's corner 3 and B's corner 0, in
        // outline indices.
        let mut ids: Vec<FeatureId> = m.points.iter().map(|p| p.id).collect();
        ids.sort();
        assert_eq!(
            ids,
            vec![
                FeatureId::new(vertex_feature(2), vertex_feature(1)),
                FeatureId::new(vertex_feature(3), vertex_feature(0))
            ]
        );
    }
}
