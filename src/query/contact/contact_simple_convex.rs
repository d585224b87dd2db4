//! Contact between a simple (possibly non-convex) polygon and any other shape.
//!
//! A simple polygon is the union of its convex pieces (see
//! [`SimplePolygon::pieces`]); each piece is placed as a convex polygon and
//! collided with the other shape, and the **deepest** piece manifold is the
//! answer (ties go to the lower piece index). So `Some` exactly when some
//! piece touches, and at most two points. The depth is that piece's: for a
//! shape sunk into the polygon across a diagonal of the decomposition it can
//! be less than the depth needed to push the shape out of the whole polygon.
//!
//! A piece is passed over when its bounding circle is farther than the
//! margin and a rounding slack from a circle holding the other shape, or
//! beyond one of a convex polygon's edges ([`super::near_piece`]): its
//! contact is `None` and cannot be the answer. So a long outline touching
//! a shape at one place, or resting on a floor, collides a few pieces,
//! not all of them.

use super::clip::{edge_feature, sanitize_margin, vertex_feature};
use super::near_piece::{NearShape, pieces_reach};
use super::{FeatureId, Manifold, contact_placed};
use crate::math::{Pose, Real};
use crate::query::placed::{Placed, WorldPolygon};
use crate::shape::{ConvexPolygon, SimplePolygon};

/// The contact between simple polygon A (its shape and pose) and any placed
/// shape B, if they are at most `margin` metres apart: the deepest manifold
/// among A's convex pieces. A's features are numbered by A's outline (see the
/// module docs of [`mod@crate::query::contact`]).
pub fn contact_simple_convex(
    simple_a: &SimplePolygon,
    pose_a: &Pose,
    b: &Placed,
    margin: Real,
) -> Option<Manifold> {
    deepest_piece::<true>(simple_a, pose_a, b, margin)
}

/// [`contact_simple_convex`], passing over far pieces when `PRUNE`; the
/// test's reference collides every piece through the same loop.
fn deepest_piece<const PRUNE: bool>(
    simple_a: &SimplePolygon,
    pose_a: &Pose,
    b: &Placed,
    margin: Real,
) -> Option<Manifold> {
    let margin = sanitize_margin(margin);
    let near = NearShape::new(b, pose_a, pieces_reach(simple_a.piece_bounds()), margin);
    let mut deepest: Option<(Manifold, usize)> = None;
    let pieces = simple_a.pieces().iter().zip(simple_a.piece_bounds());
    for (index, (piece, &bounds)) in pieces.enumerate() {
        if PRUNE && !near.may_touch(bounds) {
            continue;
        }
        let placed = Placed::Polygon(WorldPolygon::from_local(
            piece.vertices(),
            piece.normals(),
            pose_a,
        ));
        if let Some(manifold) = contact_placed(&placed, b, margin)
            && deepest
                .as_ref()
                .is_none_or(|(best, _)| manifold.depth() > best.depth())
        {
            deepest = Some((manifold, index));
        }
    }
    let (manifold, index) = deepest?;
    Some(by_outline_a(manifold, simple_a, index))
}

/// `manifold` of piece `index` of A with A's features named by A's outline.
fn by_outline_a(mut manifold: Manifold, simple_a: &SimplePolygon, index: usize) -> Manifold {
    let piece = &simple_a.pieces()[index];
    for point in &mut manifold.points {
        let feature_a = outline_feature(simple_a, piece, point.id.feature_a());
        point.id = FeatureId::new(feature_a, point.id.feature_b());
    }
    manifold
}

/// Renames a feature of `piece` (vertex or edge `i` of the piece) by the
/// outline index of the piece's vertex `i`: pieces are made of outline
/// vertices, copied exactly, and a simple outline never repeats a point.
pub(super) fn outline_feature(simple: &SimplePolygon, piece: &ConvexPolygon, feature: u16) -> u16 {
    let index = usize::from(feature & !FeatureId::EDGE);
    let outline_index = piece
        .vertices()
        .get(index)
        .and_then(|v| simple.vertices().iter().position(|w| w == v))
        .unwrap_or(index);
    if feature & FeatureId::EDGE != 0 {
        edge_feature(outline_index)
    } else {
        vertex_feature(outline_index)
    }
}

#[cfg(test)]
mod tests {
    use super::super::near_piece::{Approach, star};
    use super::*;
    use crate::math::Vec2;
    use crate::math::vec2;
    use crate::query::contact::contact_with_margin;
    use crate::shape::{Aabb, Capsule, Circle, Point, Segment, Shape, TileTriangle};
    use proptest::prelude::*;

    /// Every piece collided, none passed over: the answer before the
    /// bounding circles, in the same order.
    fn every_piece(
        simple_a: &SimplePolygon,
        pose_a: &Pose,
        b: &Placed,
        margin: Real,
    ) -> Option<Manifold> {
        deepest_piece::<false>(simple_a, pose_a, b, margin)
    }

    /// Shape kind `kind` of size about `size` metres about `center` (its
    /// local frame): every kind a simple polygon meets in this function.
    fn other_shape(kind: usize, size: Real, center: Vec2) -> Shape {
        let (half, corner) = (vec2(size, 0.6 * size), vec2(size, size));
        match kind {
            0 => Point::new(center).unwrap().into(),
            1 => Segment::new(center - half, center + half).unwrap().into(),
            2 => Capsule::new(center - half, center + half, 0.3 * size)
                .unwrap()
                .into(),
            3 => Circle::new(center, size).unwrap().into(),
            4 => Aabb::new(center - half, center + half).unwrap().into(),
            5 => ConvexPolygon::regular(5, size, 0.3)
                .and_then(|p| {
                    let moved: Vec<Vec2> = p.vertices().iter().map(|v| v + center).collect();
                    ConvexPolygon::new(&moved)
                })
                .unwrap()
                .into(),
            _ => TileTriangle::new(
                center - corner,
                center + corner,
                crate::shape::Corner::LowerRight,
            )
            .unwrap()
            .into(),
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(10_000))]

        /// Passing over pieces by their bounding circles changes no
        /// answer: the manifold is bit for bit the one of every piece,
        /// against every kind of shape, in both orders. The shape is
        /// placed along a random direction at about the distance where it
        /// first comes within the margin of the outline (found by
        /// bisection on the unpruned answer), give or take 2 cm: the
        /// pieces that decide are near their bounding circles' reach.
        #[test]
        fn passing_over_far_pieces_changes_nothing(
            radii in proptest::collection::vec(0.3f32..2.0, 5..12),
            kind in 0usize..7,
            size in 0.05f32..1.5,
            heading in -3.2f32..3.2,
            turn_a in -3.2f32..3.2,
            turn_b in -3.2f32..3.2,
            scale in 0.5f32..2.0,
            margin in 0.0f32..0.2,
            off in -0.02f32..0.02,
            far in prop_oneof![Just(0.0f32), 100.0f32..3000.0],
        ) {
            // With `far`, the outline and the shape lie far from their own
            // origins and the poses bring them back near the world's.
            let Some(a) = star(&radii, vec2(far, 0.0)) else {
                return Ok(());
            };
            let shape_b = other_shape(kind, size, vec2(0.0, far));
            let approach = Approach { heading, turn_a, turn_b, scale, far };
            let pose_a = approach.pose_a();
            let contact = approach.contact_distance(|distance| {
                let placed_b = Placed::new(&shape_b, &approach.pose_b(distance));
                every_piece(&a, &pose_a, &placed_b, margin).is_some()
            });
            prop_assume!(contact.is_some());
            let pose_b = approach.pose_b(contact.unwrap_or(0.0) + off);
            let placed_b = Placed::new(&shape_b, &pose_b);
            let pruned = contact_simple_convex(&a, &pose_a, &placed_b, margin);
            prop_assert_eq!(&pruned, &every_piece(&a, &pose_a, &placed_b, margin));
            // Through the dispatch, in both orders.
            let shape_a = Shape::from(a);
            let forward = contact_with_margin(&shape_a, &pose_a, &shape_b, &pose_b, margin);
            prop_assert_eq!(&forward, &pruned.clone().filter(Manifold::is_finite));
            let back = contact_with_margin(&shape_b, &pose_b, &shape_a, &pose_a, margin);
            prop_assert_eq!(back, forward.map(Manifold::flipped));
        }
    }

    /// An L: the 2×2 square at the origin without its upper-right 1×1 quarter.
    fn l_shape() -> SimplePolygon {
        let outline = [
            vec2(0.0, 0.0),
            vec2(2.0, 0.0),
            vec2(2.0, 1.0),
            vec2(1.0, 1.0),
            vec2(1.0, 2.0),
            vec2(0.0, 2.0),
        ];
        SimplePolygon::new(&outline).unwrap()
    }

    #[test]
    fn disc_in_the_notch_touches_both_arms_and_reports_the_deeper() {
        let l = Shape::from(l_shape());
        // Centre (1.4, 1.3): 0.3 above the lower arm's top, 0.4 right of the upper arm.
        let disc = Shape::from(Circle::new(vec2(1.4, 1.3), 0.5).unwrap());
        let m = contact_with_margin(&l, &Pose::IDENTITY, &disc, &Pose::IDENTITY, 0.0).unwrap();
        assert!((m.depth() - 0.2).abs() < 1e-6);
        assert!((m.normal - vec2(0.0, 1.0)).norm() < 1e-6);
        // The lower arm's top is outline edge 2 (from (2, 1) to (1, 1)).
        assert_eq!(
            m.points[0].id,
            FeatureId::new(edge_feature(2), vertex_feature(0))
        );
    }

    #[test]
    fn disc_clear_of_the_notch_has_no_contact() {
        let l = Shape::from(l_shape());
        let disc = Shape::from(Circle::new(vec2(1.6, 1.6), 0.5).unwrap());
        let pose = Pose::IDENTITY;
        assert!(contact_with_margin(&l, &pose, &disc, &pose, 0.0).is_none());
        // Both arms are 0.6 from the centre: the surfaces are 0.1 apart.
        assert!(contact_with_margin(&l, &pose, &disc, &pose, 0.09).is_none());
        let m = contact_with_margin(&l, &pose, &disc, &pose, 0.2).unwrap();
        assert!((m.depth() + 0.1).abs() < 1e-5);
        // Flipped order gives the flipped manifold.
        let back = contact_with_margin(&disc, &pose, &l, &pose, 0.2).unwrap();
        assert_eq!(back, m.flipped());
    }
}
