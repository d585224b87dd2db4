//! Contact between two simple (possibly non-convex) polygons.
//!
//! Every pair of convex pieces that may come within the margin is collided
//! and the **deepest** manifold is the answer (ties go to the lower piece
//! indices, A's first), as in [`super::contact_simple_convex`].
//!
//! A piece pair is passed over when the pieces' bounding circles (kept by
//! the polygon, see [`SimplePolygon::piece_bounds`]) are farther apart
//! than the margin and a rounding slack ([`super::near_piece`]): such
//! pieces are farther apart than the margin, so their contact is `None`
//! and cannot be the answer.
//! Each piece is placed in the world only when it is collided, so the
//! query allocates nothing, and two outlines of many pieces that touch at
//! one place collide a few piece pairs, not all of them.

use super::clip::sanitize_margin;
use super::contact_polygon_polygon;
use super::contact_simple_convex::outline_feature;
use super::near_piece::{NearPiece, pieces_reach};
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
    deepest_pair::<true>(simple_a, pose_a, simple_b, pose_b, margin)
}

/// [`contact_simple_simple`], passing over far piece pairs when `PRUNE`;
/// the test's reference collides every pair through the same loop.
fn deepest_pair<const PRUNE: bool>(
    simple_a: &SimplePolygon,
    pose_a: &Pose,
    simple_b: &SimplePolygon,
    pose_b: &Pose,
    margin: Real,
) -> Option<Manifold> {
    let margin = sanitize_margin(margin);
    let mut deepest: Option<(Manifold, usize, usize)> = None;
    let pieces_b = simple_b.pieces().iter().zip(simple_b.piece_bounds());
    let reach_b = pieces_reach(simple_b.piece_bounds());
    for (index_a, (piece_a, &bounds_a)) in simple_a
        .pieces()
        .iter()
        .zip(simple_a.piece_bounds())
        .enumerate()
    {
        let near_a = NearPiece::new(bounds_a, pose_a, pose_b, reach_b, margin);
        let mut polygon_a = None;
        for (index_b, (piece_b, &bounds_b)) in pieces_b.clone().enumerate() {
            if PRUNE && !near_a.may_touch(bounds_b) {
                continue;
            }
            let polygon_a = polygon_a.get_or_insert_with(|| {
                WorldPolygon::from_local(piece_a.vertices(), piece_a.normals(), pose_a)
            });
            let polygon_b = WorldPolygon::from_local(piece_b.vertices(), piece_b.normals(), pose_b);
            if let Some(manifold) = contact_polygon_polygon(polygon_a, &polygon_b, margin)
                && deepest
                    .as_ref()
                    .is_none_or(|(best, _, _)| manifold.depth() > best.depth())
            {
                deepest = Some((manifold, index_a, index_b));
            }
        }
    }
    let (manifold, index_a, index_b) = deepest?;
    Some(by_outline(manifold, simple_a, index_a, simple_b, index_b))
}

/// `manifold` of piece `index_a` of A and piece `index_b` of B with its
/// features named by each outline.
fn by_outline(
    mut manifold: Manifold,
    simple_a: &SimplePolygon,
    index_a: usize,
    simple_b: &SimplePolygon,
    index_b: usize,
) -> Manifold {
    let (piece_a, piece_b) = (&simple_a.pieces()[index_a], &simple_b.pieces()[index_b]);
    for point in &mut manifold.points {
        point.id = FeatureId::new(
            outline_feature(simple_a, piece_a, point.id.feature_a()),
            outline_feature(simple_b, piece_b, point.id.feature_b()),
        );
    }
    manifold
}

#[cfg(test)]
mod tests {
    use super::super::near_piece::{Approach, star};
    use super::*;
    use crate::math::vec2;
    use crate::query::contact::clip::vertex_feature;
    use proptest::prelude::*;

    /// Every piece pair collided, none passed over: the answer before the
    /// bounding circles, in the same order.
    fn every_piece_pair(
        simple_a: &SimplePolygon,
        pose_a: &Pose,
        simple_b: &SimplePolygon,
        pose_b: &Pose,
        margin: Real,
    ) -> Option<Manifold> {
        deepest_pair::<false>(simple_a, pose_a, simple_b, pose_b, margin)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(10_000))]

        /// Passing over piece pairs by their bounding circles changes no
        /// answer: the manifold is bit for bit the one of every pair.
        /// B is placed along a random direction at about the distance
        /// where the two outlines first come within the margin (found by
        /// bisection on the unpruned answer), give or take 2 cm: the
        /// pieces that decide are near their bounding circles' reach.
        #[test]
        fn passing_over_far_pieces_changes_nothing(
            radii_a in proptest::collection::vec(0.3f32..2.0, 5..12),
            radii_b in proptest::collection::vec(0.3f32..2.0, 5..12),
            heading in -3.2f32..3.2,
            turn_a in -3.2f32..3.2,
            turn_b in -3.2f32..3.2,
            scale in 0.5f32..2.0,
            margin in 0.0f32..0.2,
            off in -0.02f32..0.02,
            far in prop_oneof![Just(0.0f32), 100.0f32..3000.0],
        ) {
            // With `far`, both outlines lie far from their own origins and
            // the poses bring them back near the world's.
            let a = star(&radii_a, vec2(far, 0.0));
            let b = star(&radii_b, vec2(0.0, far));
            let (Some(a), Some(b)) = (a, b) else {
                return Ok(());
            };
            let approach = Approach { heading, turn_a, turn_b, scale, far };
            let pose_a = approach.pose_a();
            let contact = approach.contact_distance(|distance| {
                every_piece_pair(&a, &pose_a, &b, &approach.pose_b(distance), margin).is_some()
            });
            prop_assume!(contact.is_some());
            let pose_b = approach.pose_b(contact.unwrap_or(0.0) + off);
            prop_assert_eq!(
                contact_simple_simple(&a, &pose_a, &b, &pose_b, margin),
                every_piece_pair(&a, &pose_a, &b, &pose_b, margin)
            );
        }
    }

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
