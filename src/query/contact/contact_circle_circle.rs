//! Contact between two discs (a point is a disc of radius 0).

use super::clip::{sanitize_margin, unit, vertex_feature};
use super::convex_manifold::{ConvexManifold, point_manifold};
use super::{FeatureId, Manifold};
use crate::math::{Real, Vec2, vec2};

/// The contact between disc A (world centre `center_a`, radius `radius_a` in
/// metres) and disc B, if their surfaces are at most `margin` metres apart.
///
/// The normal runs from centre A to centre B; when the centres coincide it is
/// `+x` (any direction is a minimum translation then). One point, feature ids
/// `(vertex 0, vertex 0)`. Radii may be 0 (points).
pub fn contact_circle_circle(
    center_a: Vec2,
    radius_a: Real,
    center_b: Vec2,
    radius_b: Real,
    margin: Real,
) -> Option<Manifold> {
    circle_circle(center_a, radius_a, center_b, radius_b, margin).map(|m| m.into_manifold())
}

/// [`contact_circle_circle`] written into `out` (`None` when apart), in
/// place when `out` already holds a manifold: the same result without
/// moving a whole manifold.
pub(crate) fn contact_circle_circle_into(
    center_a: Vec2,
    radius_a: Real,
    center_b: Vec2,
    radius_b: Real,
    margin: Real,
    out: &mut Option<Manifold>,
) {
    match circle_circle(center_a, radius_a, center_b, radius_b, margin) {
        Some(manifold) => manifold.write_into(out),
        None => *out = None,
    }
}

#[inline(always)]
fn circle_circle(
    center_a: Vec2,
    radius_a: Real,
    center_b: Vec2,
    radius_b: Real,
    margin: Real,
) -> Option<ConvexManifold> {
    let margin = sanitize_margin(margin);
    let offset = center_b - center_a;
    let distance = offset.norm();
    if radius_a + radius_b - distance < -margin {
        return None;
    }
    let normal = unit(offset).unwrap_or(vec2(1.0, 0.0));
    let id = FeatureId::new(vertex_feature(0), vertex_feature(0));
    Some(point_manifold(
        normal, center_a, radius_a, center_b, radius_b, distance, id,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overlapping_discs_touch_midway() {
        let m = contact_circle_circle(vec2(0.0, 0.0), 1.0, vec2(0.0, 1.5), 1.0, 0.0).unwrap();
        assert!((m.normal - vec2(0.0, 1.0)).norm() < 1e-6);
        assert_eq!(m.points.len(), 1);
        assert!((m.points[0].depth - 0.5).abs() < 1e-6);
        // Surfaces at y = 1 (A) and y = 0.5 (B): midway is 0.75.
        assert!((m.points[0].point - vec2(0.0, 0.75)).norm() < 1e-6);
    }

    #[test]
    fn touching_counts_and_margin_reaches_apart_pairs() {
        let m = contact_circle_circle(vec2(0.0, 0.0), 1.0, vec2(3.0, 0.0), 2.0, 0.0).unwrap();
        assert_eq!(m.depth(), 0.0);
        assert!(contact_circle_circle(vec2(0.0, 0.0), 1.0, vec2(3.5, 0.0), 2.0, 0.0).is_none());
        let m = contact_circle_circle(vec2(0.0, 0.0), 1.0, vec2(3.5, 0.0), 2.0, 0.5).unwrap();
        assert!((m.depth() + 0.5).abs() < 1e-6);
        assert!(
            contact_circle_circle(vec2(0.0, 0.0), 1.0, vec2(3.5, 0.0), 2.0, f32::NAN).is_none()
        );
    }

    #[test]
    fn coincident_centres_push_along_x_without_nan() {
        let m = contact_circle_circle(vec2(2.0, -1.0), 0.5, vec2(2.0, -1.0), 0.25, 0.0).unwrap();
        assert_eq!(m.normal, vec2(1.0, 0.0));
        assert!((m.depth() - 0.75).abs() < 1e-6);
        assert!(m.points[0].point.x.is_finite() && m.points[0].point.y.is_finite());
        // Two coincident points touch with depth 0.
        let m = contact_circle_circle(vec2(1.0, 1.0), 0.0, vec2(1.0, 1.0), 0.0, 0.0).unwrap();
        assert_eq!(m.depth(), 0.0);
    }
}
