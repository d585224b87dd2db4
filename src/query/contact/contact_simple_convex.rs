//! Contact between a simple (possibly non-convex) polygon and any other shape.
//!
//! A simple polygon is the union of its convex pieces (see
//! [`SimplePolygon::pieces`]); each piece is placed as a convex polygon and
//! collided with the other shape, and the **deepest** piece manifold is the
//! answer (ties go to the lower piece index). So `Some` exactly when some
//! piece touches, and at most two points. The depth is that piece's: for a
//! shape sunk into the polygon across a diagonal of the decomposition it can
//! be less than the depth needed to push the shape out of the whole polygon.

use super::clip::{edge_feature, sanitize_margin, vertex_feature};
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
    let margin = sanitize_margin(margin);
    let mut deepest: Option<(Manifold, usize)> = None;
    for (index, piece) in simple_a.pieces().iter().enumerate() {
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
    let (mut manifold, index) = deepest?;
    let piece = &simple_a.pieces()[index];
    for point in &mut manifold.points {
        let feature_a = outline_feature(simple_a, piece, point.id.feature_a());
        point.id = FeatureId::new(feature_a, point.id.feature_b());
    }
    Some(manifold)
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
    use super::*;
    use crate::math::vec2;
    use crate::query::contact::contact_with_margin;
    use crate::shape::{Circle, Shape};

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
