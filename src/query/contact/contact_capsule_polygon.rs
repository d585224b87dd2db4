//! Contact between a capsule (a segment is radius 0) and a convex polygon.
//!
//! The capsule is its core segment grown by its radius. The Minkowski
//! difference of the core and the polygon is a convex polygon whose edge
//! normals are the polygon's normals and ± the core's normal, so SAT over
//! those axes decides whether the cores overlap:
//! - cores overlap: the minimum translation is the smallest `radius + overlap`
//!   over those axes; that axis's face (a polygon face, or a side of the core)
//!   is the reference and the other shape's edge is clipped against it;
//! - cores apart: closest points. A closest point inside a polygon face makes
//!   that face the reference (so a capsule lying flat on a face gets two
//!   points, its core clipped to the face's side planes); inside the core, the
//!   core's side is the reference; two vertices closest give one point.

use super::clip::{
    Face, Feature, REFERENCE_FACE_BIAS, incident_edge, max_face_separation, sanitize_margin, unit,
};
use super::closest::closest_between_outlines;
use super::contact_circle_polygon::contact_circle_polygon_core;
use super::convex_manifold::{ConvexManifold, point_manifold};
use super::face_manifold::face_manifold;
use super::local_frame::{ContactFrame, PolygonCore};
use super::{FeatureId, Manifold};
use crate::math::{Real, Vec2, vec2};
use crate::query::placed::WorldPolygon;

/// The contact between capsule A (world core `core_a = [a, b]`, radius in
/// metres) and convex polygon B, if their surfaces are at most `margin`
/// metres apart.
///
/// Up to two points. On a tie between a polygon face and a side of the core
/// (a capsule lying flat), the polygon face is the reference. A core whose
/// ends coincide is treated as a disc ([`super::contact_circle_polygon`]).
pub fn contact_capsule_polygon(
    core_a: [Vec2; 2],
    radius_a: Real,
    polygon_b: &WorldPolygon,
    margin: Real,
) -> Option<Manifold> {
    let polygon_b = PolygonCore::of_world(polygon_b)?;
    contact_capsule_polygon_core(core_a, radius_a, polygon_b, margin, &ContactFrame::WORLD)
        .map(ConvexManifold::into_manifold)
}

/// [`contact_capsule_polygon`] for a core and polygon given in the rigid
/// `frame` (which only sizes the reference face bias); the manifold is in
/// `frame`.
pub(super) fn contact_capsule_polygon_core(
    core_a: [Vec2; 2],
    radius_a: Real,
    polygon_b: PolygonCore<'_>,
    margin: Real,
    frame: &ContactFrame,
) -> Option<ConvexManifold> {
    let margin = sanitize_margin(margin);
    let Some(direction) = unit(core_a[1] - core_a[0]) else {
        return contact_circle_polygon_core(core_a[0], radius_a, polygon_b, margin);
    };
    let right = vec2(direction.y, -direction.x);
    let vertices = polygon_b.vertices;
    // The core against B's faces: separation of the core from face k.
    let (face_gap, face) =
        max_face_separation(vertices, polygon_b.normals, &core_a, radius_a + margin);
    // B against the core's sides (outward normal ±right through a).
    let side_gap_along = |normal: Vec2| {
        vertices
            .iter()
            .map(|q| normal.dot(&(q - core_a[0])))
            .fold(Real::INFINITY, Real::min)
    };
    let (side_gap, side_normal) = {
        let (plus, minus) = (side_gap_along(right), side_gap_along(-right));
        if minus > plus {
            (minus, -right)
        } else {
            (plus, right)
        }
    };
    let core_gap = face_gap.max(side_gap);
    if core_gap > radius_a + margin {
        return None;
    }
    if core_gap > 0.0 {
        return cores_apart(core_a, right, radius_a, polygon_b, margin);
    }
    // Cores overlap: least penetration radius − gap; the polygon face wins
    // ties (the size is only needed when the side is better at all).
    let side_is_reference = side_gap > face_gap && {
        let size = frame
            .world_extent(vertices)
            .max((core_a[1] - core_a[0]).norm())
            + radius_a;
        side_gap > face_gap + REFERENCE_FACE_BIAS * size
    };
    if side_is_reference {
        let reference = Face::of_segment(core_a, right, side_normal, radius_a);
        let k = incident_edge(polygon_b.normals, reference.normal);
        let incident = Face::of_polygon(vertices, polygon_b.normals, k);
        face_manifold(&reference, &incident, true, margin)
    } else {
        let reference = Face::of_polygon(vertices, polygon_b.normals, face);
        let incident = Face::of_segment(core_a, right, -reference.normal, radius_a);
        face_manifold(&reference, &incident, false, margin)
    }
}

/// Disjoint cores: closest points, then a reference face or two vertices.
fn cores_apart(
    core_a: [Vec2; 2],
    right: Vec2,
    radius_a: Real,
    polygon_b: PolygonCore<'_>,
    margin: Real,
) -> Option<ConvexManifold> {
    // Polygon first, so that on a tie a polygon face is the reference.
    let closest = closest_between_outlines(polygon_b.vertices, &core_a);
    if radius_a - closest.distance < -margin {
        return None;
    }
    let (point_b, point_a) = (closest.point_a, closest.point_b);
    match (closest.feature_a, closest.feature_b) {
        (Feature::Edge(k), _) => {
            let reference = Face::of_polygon(polygon_b.vertices, polygon_b.normals, k);
            let incident = Face::of_segment(core_a, right, -reference.normal, radius_a);
            face_manifold(&reference, &incident, false, margin)
        }
        (_, Feature::Edge(_)) => {
            let reference = Face::of_segment(core_a, right, point_b - point_a, radius_a);
            let k = incident_edge(polygon_b.normals, reference.normal);
            let incident = Face::of_polygon(polygon_b.vertices, polygon_b.normals, k);
            face_manifold(&reference, &incident, true, margin)
        }
        (feature_b, feature_a) => {
            let normal = unit(point_b - point_a).unwrap_or(right);
            let id = FeatureId::new(feature_a.packed(), feature_b.packed());
            Some(point_manifold(
                normal,
                point_a,
                radius_a,
                point_b,
                0.0,
                closest.distance,
                id,
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Pose;
    use crate::query::contact::clip::vertex_feature;

    fn floor_box() -> WorldPolygon {
        let corners = [
            vec2(-3.0, -1.0),
            vec2(3.0, -1.0),
            vec2(3.0, 0.0),
            vec2(-3.0, 0.0),
        ];
        WorldPolygon::from_local_vertices(&corners, &Pose::IDENTITY)
    }

    #[test]
    fn capsule_flat_on_a_box_gives_two_points() {
        let core = [vec2(-1.0, 0.2), vec2(1.0, 0.2)];
        let m = contact_capsule_polygon(core, 0.25, &floor_box(), 0.0).unwrap();
        assert!((m.normal - vec2(0.0, -1.0)).norm() < 1e-6);
        assert_eq!(m.points.len(), 2);
        for p in &m.points {
            assert!((p.depth - 0.05).abs() < 1e-6);
            assert!((p.point.y + 0.025).abs() < 1e-6);
        }
        // Each point is named by the corners at its end of the overlap: the
        // capsule's end a (vertex 0) with the box's top left corner (vertex 3),
        // its end b (vertex 1) with the top right corner (vertex 2).
        let mut ids: Vec<FeatureId> = m.points.iter().map(|p| p.id).collect();
        ids.sort();
        assert_eq!(
            ids,
            vec![
                FeatureId::new(vertex_feature(0), vertex_feature(3)),
                FeatureId::new(vertex_feature(1), vertex_feature(2))
            ]
        );
    }

    #[test]
    fn capsule_overhanging_a_box_is_clipped_to_its_side_planes() {
        let core = [vec2(2.0, 0.2), vec2(5.0, 0.2)];
        let m = contact_capsule_polygon(core, 0.25, &floor_box(), 0.0).unwrap();
        assert_eq!(m.points.len(), 2);
        let mut xs: Vec<f32> = m.points.iter().map(|p| p.point.x).collect();
        xs.sort_by(f32::total_cmp);
        assert!((xs[0] - 2.0).abs() < 1e-6 && (xs[1] - 3.0).abs() < 1e-6);
        // The clipped point is named by the corners at its end of the overlap:
        // the box corner (vertex 2) and the capsule's end beyond it (vertex 1).
        assert!(
            m.points
                .iter()
                .any(|p| p.id == FeatureId::new(vertex_feature(1), vertex_feature(2)))
        );
    }

    #[test]
    fn tilted_capsule_touches_with_one_end() {
        let core = [vec2(-1.0, 0.2), vec2(1.0, 1.2)];
        let m = contact_capsule_polygon(core, 0.25, &floor_box(), 0.0).unwrap();
        assert_eq!(m.points.len(), 1);
        assert!((m.depth() - 0.05).abs() < 1e-6);
        // The lower end (vertex 0) is on the side of the box's top left corner
        // (vertex 3).
        assert_eq!(
            m.points[0].id,
            FeatureId::new(vertex_feature(0), vertex_feature(3))
        );
    }

    #[test]
    fn tilted_capsule_measures_its_far_end_from_its_side() {
        // Lower end 0.05 into the box; the core rises at 0.05 rad over length 2.
        let (sin, cos) = 0.05f32.sin_cos();
        let core = [vec2(-1.0, 0.2), vec2(-1.0 + 2.0 * cos, 0.2 + 2.0 * sin)];
        let m = contact_capsule_polygon(core, 0.25, &floor_box(), 0.1).unwrap();
        assert_eq!(m.points.len(), 2);
        let (deep, far) = if m.points[0].depth > m.points[1].depth {
            (m.points[0], m.points[1])
        } else {
            (m.points[1], m.points[0])
        };
        // The lower cap's bottom: exact penetration, straight below the end.
        assert!((deep.depth - 0.05).abs() < 1e-6);
        assert!((deep.point - vec2(-1.0, -0.025)).norm() < 1e-6);
        // The far point sits on the lower side of the capsule, not on a cap
        // hidden inside it: side point = b + r (sin, -cos).
        let side_point = core[1] + vec2(sin, -cos) * 0.25;
        assert!((far.depth + side_point.y).abs() < 1e-6);
        assert!((far.point - vec2(side_point.x, side_point.y * 0.5)).norm() < 1e-6);
        // Named by the corners at its end of the overlap: end b (vertex 1) and
        // the box's top right corner (vertex 2).
        assert_eq!(far.id, FeatureId::new(vertex_feature(1), vertex_feature(2)));
    }

    #[test]
    fn ids_are_stable_when_the_pair_moves_slightly() {
        let ids = |dx: f32, dy: f32, tilt: f32| {
            let core = [
                vec2(-1.0 + dx, 0.2 + dy - tilt),
                vec2(1.0 + dx, 0.2 + dy + tilt),
            ];
            let m = contact_capsule_polygon(core, 0.25, &floor_box(), 0.1).unwrap();
            let mut ids: Vec<FeatureId> = m.points.iter().map(|p| p.id).collect();
            ids.sort();
            ids
        };
        let resting = ids(0.0, 0.0, 0.0);
        assert_eq!(resting.len(), 2);
        for (dx, dy, tilt) in [(0.01, 0.0, 0.0), (-0.03, 0.02, 0.004), (0.0, -0.01, -0.003)] {
            assert_eq!(ids(dx, dy, tilt), resting, "{dx} {dy} {tilt}");
        }
    }

    #[test]
    fn capsule_on_a_corner_uses_its_side() {
        let diamond = WorldPolygon::from_local_vertices(
            &[
                vec2(0.0, -1.0),
                vec2(1.0, 0.0),
                vec2(0.0, 1.0),
                vec2(-1.0, 0.0),
            ],
            &Pose::IDENTITY,
        );
        let core = [vec2(-2.0, 1.1), vec2(2.0, 1.1)];
        let m = contact_capsule_polygon(core, 0.2, &diamond, 0.0).unwrap();
        assert!((m.normal - vec2(0.0, -1.0)).norm() < 1e-6);
        assert_eq!(m.points.len(), 1);
        assert!((m.depth() - 0.1).abs() < 1e-6);
        // The top corner (vertex 2) against the capsule's lower side, named by
        // the corners at that end of the overlap: the incident edge is edge 1
        // (vertex 1 at x = 1 to vertex 2 at x = 0), so at the vertex 2 end
        // the side's corner is its end a (vertex 0, at x = -2).
        assert_eq!(
            m.points[0].id,
            FeatureId::new(vertex_feature(0), vertex_feature(2))
        );
    }

    #[test]
    fn sunken_core_leaves_through_the_shallowest_face() {
        // Core inside the box near its top: lift by 0.3 + radius.
        let core = [vec2(-1.0, -0.3), vec2(1.0, -0.3)];
        let m = contact_capsule_polygon(core, 0.1, &floor_box(), 0.0).unwrap();
        assert!((m.normal - vec2(0.0, -1.0)).norm() < 1e-6);
        assert!((m.depth() - 0.4).abs() < 1e-6);
        assert_eq!(m.points.len(), 2);
        // Core poking down through the box's right side: the side is shallower.
        let poke = [vec2(2.9, 2.0), vec2(2.9, -0.5)];
        let m = contact_capsule_polygon(poke, 0.05, &floor_box(), 0.0).unwrap();
        assert!((m.normal - vec2(-1.0, 0.0)).norm() < 1e-6);
        assert!((m.depth() - 0.15).abs() < 1e-5);
    }

    #[test]
    fn rotated_capsule_flat_on_rotated_box() {
        let pose = Pose::new(vec2(-4.0, 7.0), 2.2);
        let corners = [
            vec2(-3.0, -1.0),
            vec2(3.0, -1.0),
            vec2(3.0, 0.0),
            vec2(-3.0, 0.0),
        ];
        let polygon = WorldPolygon::from_local_vertices(&corners, &pose);
        let core = [
            pose.transform_point(vec2(-1.0, 0.2)),
            pose.transform_point(vec2(1.0, 0.2)),
        ];
        let m = contact_capsule_polygon(core, 0.25, &polygon, 0.0).unwrap();
        assert_eq!(m.points.len(), 2);
        assert!((m.normal + pose.rotate(vec2(0.0, 1.0))).norm() < 1e-5);
        assert!((m.depth() - 0.05).abs() < 1e-5);
    }
}
