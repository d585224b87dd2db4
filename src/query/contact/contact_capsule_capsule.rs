//! Contact between two capsules (segments are capsules of radius 0).
//!
//! Cores apart: closest points of the two segments. When the closest point of
//! one core is inside it (not an end), that core's side is the reference face
//! and the other core is clipped against its end planes, which gives two
//! points for capsules lying along each other; two ends closest gives one
//! point along the line between them.
//!
//! Cores crossing: the Minkowski difference of the cores is a parallelogram
//! with normals ±(normal of A), ±(normal of B), so the minimum translation is
//! the smallest of `radii + overlap` over those four axes, and that axis's
//! core is the reference face.

use super::clip::{Face, Feature, REFERENCE_FACE_BIAS, sanitize_margin, unit};
use super::closest::closest_between_outlines;
use super::contact_circle_capsule;
use super::convex_manifold::{ConvexManifold, point_manifold};
use super::face_manifold::face_manifold;
use super::{FeatureId, Manifold};
use crate::math::{Real, Vec2, vec2};

/// The contact between capsule A (world core `core_a = [a, b]`, radius in
/// metres) and capsule B, if their surfaces are at most `margin` metres apart.
///
/// Up to two points. A core whose ends coincide is treated as a disc
/// ([`contact_circle_capsule`]). Features: see the module docs of
/// [`mod@crate::query::contact`] (vertex 0/1 = ends, edge 0/1 = sides).
pub fn contact_capsule_capsule(
    core_a: [Vec2; 2],
    radius_a: Real,
    core_b: [Vec2; 2],
    radius_b: Real,
    margin: Real,
) -> Option<Manifold> {
    let margin = sanitize_margin(margin);
    let Some(direction_a) = unit(core_a[1] - core_a[0]) else {
        return contact_circle_capsule(core_a[0], radius_a, core_b, radius_b, margin);
    };
    let Some(direction_b) = unit(core_b[1] - core_b[0]) else {
        return contact_circle_capsule(core_b[0], radius_b, core_a, radius_a, margin)
            .map(Manifold::flipped);
    };
    let radii = radius_a + radius_b;
    let right_a = vec2(direction_a.y, -direction_a.x);
    let right_b = vec2(direction_b.y, -direction_b.x);
    // Gap between the cores along `axis`, B beyond A: min_B axis·q − max_A axis·p.
    let gap_along = |axis: Vec2| {
        let b_low = axis.dot(&core_b[0]).min(axis.dot(&core_b[1]));
        let a_high = axis.dot(&core_a[0]).max(axis.dot(&core_a[1]));
        b_low - a_high
    };
    // The normals are the SAT axes of two segments; the directions add the
    // axis that separates parallel segments lying end to end.
    let core_gap = [
        right_a,
        -right_a,
        right_b,
        -right_b,
        direction_a,
        -direction_a,
        direction_b,
        -direction_b,
    ]
    .into_iter()
    .map(gap_along)
    .fold(Real::NEG_INFINITY, Real::max);
    if core_gap > radii + margin {
        return None;
    }
    if core_gap > 0.0 {
        return cores_apart(core_a, right_a, radius_a, core_b, right_b, radius_b, margin);
    }

    // Cores cross: moving B by radii − gap_along(u) along u separates the pair.
    let best_of = |normal: Vec2| {
        let (plus, minus) = (radii - gap_along(normal), radii - gap_along(-normal));
        if minus < plus {
            (minus, -normal)
        } else {
            (plus, normal)
        }
    };
    let (depth_a, axis_a) = best_of(right_a);
    let (depth_b, axis_b) = best_of(right_b);
    let size = (core_a[1] - core_a[0])
        .norm()
        .max((core_b[1] - core_b[0]).norm())
        + radii;
    if depth_b < depth_a - REFERENCE_FACE_BIAS * size {
        let reference = Face::of_segment(core_b, right_b, -axis_b, radius_b);
        let incident = Face::of_segment(core_a, right_a, axis_b, radius_a);
        face_manifold(&reference, &incident, false, margin).map(ConvexManifold::into_manifold)
    } else {
        let reference = Face::of_segment(core_a, right_a, axis_a, radius_a);
        let incident = Face::of_segment(core_b, right_b, -axis_a, radius_b);
        face_manifold(&reference, &incident, true, margin).map(ConvexManifold::into_manifold)
    }
}

/// Disjoint cores: closest points, then a reference side or two ends.
fn cores_apart(
    core_a: [Vec2; 2],
    right_a: Vec2,
    radius_a: Real,
    core_b: [Vec2; 2],
    right_b: Vec2,
    radius_b: Real,
    margin: Real,
) -> Option<Manifold> {
    let closest = closest_between_outlines(&core_a, &core_b);
    if radius_a + radius_b - closest.distance < -margin {
        return None;
    }
    let towards_b = closest.point_b - closest.point_a;
    match (closest.feature_a, closest.feature_b) {
        (Feature::Edge(_), _) => {
            let reference = Face::of_segment(core_a, right_a, towards_b, radius_a);
            let incident = Face::of_segment(core_b, right_b, -reference.normal, radius_b);
            face_manifold(&reference, &incident, true, margin).map(ConvexManifold::into_manifold)
        }
        (_, Feature::Edge(_)) => {
            let reference = Face::of_segment(core_b, right_b, -towards_b, radius_b);
            let incident = Face::of_segment(core_a, right_a, -reference.normal, radius_a);
            face_manifold(&reference, &incident, false, margin).map(ConvexManifold::into_manifold)
        }
        (feature_a, feature_b) => {
            let normal = unit(towards_b).unwrap_or(right_a);
            let id = FeatureId::new(feature_a.packed(), feature_b.packed());
            Some(
                point_manifold(
                    normal,
                    closest.point_a,
                    radius_a,
                    closest.point_b,
                    radius_b,
                    closest.distance,
                    id,
                )
                .into_manifold(),
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Rot2;
    use crate::query::contact::clip::vertex_feature;

    #[test]
    fn parallel_capsules_lying_on_each_other_give_two_points() {
        let floor = [vec2(-2.0, 0.0), vec2(2.0, 0.0)];
        let log = [vec2(-1.0, 0.45), vec2(1.0, 0.45)];
        let m = contact_capsule_capsule(floor, 0.25, log, 0.25, 0.0).unwrap();
        assert!((m.normal - vec2(0.0, 1.0)).norm() < 1e-6);
        assert_eq!(m.points.len(), 2);
        for p in &m.points {
            assert!((p.depth - 0.05).abs() < 1e-6);
            assert!((p.point.y - 0.225).abs() < 1e-6);
        }
        let mut xs: Vec<f32> = m.points.iter().map(|p| p.point.x).collect();
        xs.sort_by(f32::total_cmp);
        assert!((xs[0] + 1.0).abs() < 1e-6 && (xs[1] - 1.0).abs() < 1e-6);
        // Each point is named by the corners at its end of the overlap: at
        // x = -1 the floor's end a and the log's end a (vertices 0), at x = 1
        // their ends b (vertices 1).
        let mut ids: Vec<FeatureId> = m.points.iter().map(|p| p.id).collect();
        ids.sort();
        assert_eq!(
            ids,
            vec![
                FeatureId::new(vertex_feature(0), vertex_feature(0)),
                FeatureId::new(vertex_feature(1), vertex_feature(1))
            ]
        );
    }

    #[test]
    fn end_to_end_capsules_touch_at_the_caps() {
        let a = [vec2(0.0, 0.0), vec2(1.0, 0.0)];
        let b = [vec2(1.5, 0.0), vec2(3.0, 0.0)];
        let m = contact_capsule_capsule(a, 0.3, b, 0.3, 0.0).unwrap();
        assert!((m.normal - vec2(1.0, 0.0)).norm() < 1e-6);
        assert_eq!(m.points.len(), 1);
        assert!((m.depth() - 0.1).abs() < 1e-6);
        assert_eq!(
            m.points[0].id,
            FeatureId::new(vertex_feature(1), vertex_feature(0))
        );
        assert!(contact_capsule_capsule(a, 0.2, b, 0.2, 0.0).is_none());
    }

    #[test]
    fn crossing_cores_take_the_shallowest_axis() {
        // A horizontal, B vertical crossing it near B's lower end.
        let a = [vec2(-2.0, 0.0), vec2(2.0, 0.0)];
        let b = [vec2(0.5, -0.2), vec2(0.5, 3.0)];
        let m = contact_capsule_capsule(a, 0.1, b, 0.1, 0.0).unwrap();
        // Lifting B by 0.2 + 0.2 separates; pushing sideways needs 1.5 + 0.2.
        assert!((m.normal - vec2(0.0, 1.0)).norm() < 1e-6);
        assert!((m.depth() - 0.4).abs() < 1e-6);
        assert_eq!(m.points.len(), 1);
        // B's lower end (vertex 0) under A's upper side, named by the corners
        // at that end of the overlap: B's core is square to A's side, so it is
        // taken as running against it, its lower end towards the side's end,
        // which is A's end a (vertex 0).
        assert_eq!(
            m.points[0].id,
            FeatureId::new(vertex_feature(0), vertex_feature(0))
        );
    }

    #[test]
    fn rotated_pair_keeps_its_depth() {
        let rotation = Rot2::new(1.1);
        let turn = |p: Vec2| rotation * p + vec2(4.0, -3.0);
        let floor = [turn(vec2(-2.0, 0.0)), turn(vec2(2.0, 0.0))];
        let log = [turn(vec2(-1.0, 0.45)), turn(vec2(1.0, 0.45))];
        let m = contact_capsule_capsule(floor, 0.25, log, 0.25, 0.0).unwrap();
        assert!((m.normal - rotation * vec2(0.0, 1.0)).norm() < 1e-5);
        assert_eq!(m.points.len(), 2);
        assert!((m.depth() - 0.05).abs() < 1e-5);
    }

    #[test]
    fn ids_are_stable_when_the_pair_moves_slightly() {
        let floor = [vec2(-2.0, 0.0), vec2(2.0, 0.0)];
        let ids = |dx: f32, dy: f32, tilt: f32| {
            let log = [
                vec2(-1.0 + dx, 0.45 + dy - tilt),
                vec2(1.0 + dx, 0.45 + dy + tilt),
            ];
            let m = contact_capsule_capsule(floor, 0.25, log, 0.25, 0.1).unwrap();
            let mut ids: Vec<FeatureId> = m.points.iter().map(|p| p.id).collect();
            ids.sort();
            ids
        };
        let reference = ids(0.0, 0.0, 0.0);
        assert_eq!(reference.len(), 2);
        for (dx, dy, tilt) in [(0.01, 0.0, 0.0), (-0.02, 0.01, 0.003), (0.0, -0.01, -0.004)] {
            assert_eq!(ids(dx, dy, tilt), reference);
        }
    }

    #[test]
    fn degenerate_cores_act_as_discs() {
        let dot = [vec2(0.0, 0.5), vec2(0.0, 0.5)];
        let floor = [vec2(-1.0, 0.0), vec2(1.0, 0.0)];
        let m = contact_capsule_capsule(dot, 0.3, floor, 0.3, 0.0).unwrap();
        assert!((m.normal - vec2(0.0, -1.0)).norm() < 1e-6);
        assert!((m.depth() - 0.1).abs() < 1e-6);
        let flipped = contact_capsule_capsule(floor, 0.3, dot, 0.3, 0.0).unwrap();
        assert!((flipped.normal - vec2(0.0, 1.0)).norm() < 1e-6);
        // Two zero-thickness segments crossing are in contact with depth 0 ≤ d.
        let cross =
            contact_capsule_capsule(floor, 0.0, [vec2(0.0, -1.0), vec2(0.0, 1.0)], 0.0, 0.0)
                .unwrap();
        assert!((cross.depth() - 1.0).abs() < 1e-6);
    }
}
