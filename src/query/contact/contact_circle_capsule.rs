//! Contact between a disc and a capsule (points and segments are radius 0).

use super::clip::{closest_on_segment, edge_feature, sanitize_margin, unit, vertex_feature};
use super::convex_manifold::point_manifold;
use super::{FeatureId, Manifold};
use crate::math::{Real, Vec2, vec2};

/// The contact between disc A (world centre, radius in metres) and capsule B
/// (world core `core_b = [a, b]`, radius), if their surfaces are at most
/// `margin` metres apart.
///
/// Closest point on B's core to A's centre, then as two discs: one point.
/// B's feature is vertex 0 or 1 when the closest point is an end of the core,
/// else the side (edge 0 or 1) facing A. A centre on the core pushes B
/// towards the core's left-hand normal (`+x` for a zero-length core).
pub fn contact_circle_capsule(
    center_a: Vec2,
    radius_a: Real,
    core_b: [Vec2; 2],
    radius_b: Real,
    margin: Real,
) -> Option<Manifold> {
    let margin = sanitize_margin(margin);
    let radii = radius_a + radius_b;
    let (closest, t) = closest_on_segment(center_a, core_b[0], core_b[1]);
    let direction = unit(core_b[1] - core_b[0]);
    if let Some(direction) = direction.filter(|_| t > 0.0 && t < 1.0) {
        // Beside the core: the exact normal is the core's perpendicular, not
        // the (ill-conditioned when tiny) offset to the closest point.
        let right_normal = vec2(direction.y, -direction.x);
        let offset = right_normal.dot(&(center_a - core_b[0]));
        if radii - offset.abs() < -margin {
            return None;
        }
        // A right of the core faces B's edge 0 (outward normal right_normal).
        let (normal, feature_b) = if offset >= 0.0 {
            (-right_normal, edge_feature(0))
        } else {
            (right_normal, edge_feature(1))
        };
        let on_core = center_a + normal * offset.abs();
        let id = FeatureId::new(vertex_feature(0), feature_b);
        return Some(
            point_manifold(
                normal,
                center_a,
                radius_a,
                on_core,
                radius_b,
                offset.abs(),
                id,
            )
            .into_manifold(),
        );
    }
    let offset = closest - center_a;
    let distance = offset.norm();
    if radii - distance < -margin {
        return None;
    }
    let fallback = direction.map_or(vec2(1.0, 0.0), |d| vec2(-d.y, d.x));
    let normal = unit(offset).unwrap_or(fallback);
    let feature_b = vertex_feature(usize::from(t >= 1.0));
    let id = FeatureId::new(vertex_feature(0), feature_b);
    Some(
        point_manifold(normal, center_a, radius_a, closest, radius_b, distance, id).into_manifold(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const CORE: [Vec2; 2] = [Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0)];

    #[test]
    fn disc_on_the_side_of_a_capsule() {
        let m = contact_circle_capsule(vec2(0.3, 0.7), 0.5, CORE, 0.25, 0.0).unwrap();
        assert!((m.normal - vec2(0.0, -1.0)).norm() < 1e-6);
        assert!((m.depth() - 0.05).abs() < 1e-6);
        // Disc surface at y = 0.2, capsule surface at y = 0.25.
        assert!((m.points[0].point - vec2(0.3, 0.225)).norm() < 1e-6);
        // Above a → b the outward normal is the left one: edge 1.
        assert_eq!(
            m.points[0].id,
            FeatureId::new(vertex_feature(0), edge_feature(1))
        );
        let below = contact_circle_capsule(vec2(0.3, -0.7), 0.5, CORE, 0.25, 0.0).unwrap();
        assert_eq!(below.points[0].id.feature_b(), edge_feature(0));
    }

    #[test]
    fn disc_at_an_end_cap() {
        let m = contact_circle_capsule(vec2(1.6, 0.8), 0.8, CORE, 0.3, 0.0).unwrap();
        assert!((m.normal - vec2(-0.6, -0.8)).norm() < 1e-6);
        assert!((m.depth() - 0.1).abs() < 1e-6);
        assert_eq!(m.points[0].id.feature_b(), vertex_feature(1));
        assert!(contact_circle_capsule(vec2(1.6, 0.8), 0.6, CORE, 0.3, 0.0).is_none());
    }

    #[test]
    fn centre_on_the_core_has_a_defined_normal() {
        let m = contact_circle_capsule(vec2(0.5, 0.0), 0.1, CORE, 0.2, 0.0).unwrap();
        assert!((m.normal - vec2(0.0, 1.0)).norm() < 1e-6);
        assert!((m.depth() - 0.3).abs() < 1e-6);
        let dot = [vec2(2.0, 2.0), vec2(2.0, 2.0)];
        let m = contact_circle_capsule(vec2(2.0, 2.0), 0.1, dot, 0.2, 0.0).unwrap();
        assert_eq!(m.normal, vec2(1.0, 0.0));
        // An end point exactly at the centre: pushed along the left-hand normal.
        let m = contact_circle_capsule(vec2(1.0, 0.0), 0.1, CORE, 0.2, 0.0).unwrap();
        assert!((m.normal - vec2(0.0, 1.0)).norm() < 1e-6);
    }
}
