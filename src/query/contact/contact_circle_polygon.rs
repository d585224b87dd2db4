//! Contact between a disc and a convex polygon (a point is a disc of radius 0).

use super::clip::{
    Feature, edge_feature, max_face_separation, sanitize_margin, unit, vertex_feature,
};
use super::closest::closest_between_outlines;
use super::convex_manifold::{ConvexManifold, point_manifold};
use super::local_frame::PolygonCore;
use super::{FeatureId, Manifold};
use crate::math::{Real, Vec2};
use crate::query::placed::WorldPolygon;

/// The contact between disc A (world centre, radius in metres) and convex
/// polygon B, if their surfaces are at most `margin` metres apart.
///
/// Centre inside B: the face of least penetration, depth = radius + distance
/// from the centre to that face. Centre outside: the closest point of B's
/// boundary (a face, normal = minus its outward normal, or a vertex, normal
/// towards it). One point; A's feature is vertex 0, B's the face or vertex.
pub fn contact_circle_polygon(
    center_a: Vec2,
    radius_a: Real,
    polygon_b: &WorldPolygon,
    margin: Real,
) -> Option<Manifold> {
    contact_circle_polygon_core(
        center_a,
        radius_a,
        PolygonCore::of_world(polygon_b)?,
        margin,
    )
    .map(ConvexManifold::into_manifold)
}

/// [`contact_circle_polygon`] for a centre and polygon given in any rigid
/// frame; the manifold is in that frame.
pub(super) fn contact_circle_polygon_core(
    center_a: Vec2,
    radius_a: Real,
    polygon_b: PolygonCore<'_>,
    margin: Real,
) -> Option<ConvexManifold> {
    let margin = sanitize_margin(margin);
    let (separation, face) = max_face_separation(
        polygon_b.vertices,
        polygon_b.normals,
        &[center_a],
        Real::INFINITY,
    );
    if radius_a - separation < -margin {
        return None;
    }
    let face_normal = polygon_b.normals[face];
    if separation <= 0.0 {
        // Inside: leave through the nearest face; B moves along -n.
        let on_face = center_a - face_normal * separation;
        let id = FeatureId::new(vertex_feature(0), edge_feature(face));
        return Some(point_manifold(
            -face_normal,
            center_a,
            radius_a,
            on_face,
            0.0,
            separation,
            id,
        ));
    }
    let closest = closest_between_outlines(&[center_a], polygon_b.vertices);
    if radius_a - closest.distance < -margin {
        return None;
    }
    let id = FeatureId::new(vertex_feature(0), closest.feature_b.packed());
    if let Feature::Edge(k) = closest.feature_b {
        // The closest point is inside a face: the exact normal is that face's.
        let normal = polygon_b.normals[k];
        let face_separation = normal.dot(&(center_a - polygon_b.vertices[k]));
        let on_face = center_a - normal * face_separation;
        return Some(point_manifold(
            -normal,
            center_a,
            radius_a,
            on_face,
            0.0,
            face_separation,
            id,
        ));
    }
    let normal = unit(closest.point_b - center_a).unwrap_or(-face_normal);
    Some(point_manifold(
        normal,
        center_a,
        radius_a,
        closest.point_b,
        0.0,
        closest.distance,
        id,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Pose, vec2};

    fn unit_box() -> WorldPolygon {
        let corners = [
            vec2(-1.0, -1.0),
            vec2(1.0, -1.0),
            vec2(1.0, 1.0),
            vec2(-1.0, 1.0),
        ];
        WorldPolygon::from_local_vertices(&corners, &Pose::IDENTITY)
    }

    #[test]
    fn disc_resting_on_a_box_face() {
        let m = contact_circle_polygon(vec2(0.2, 1.4), 0.5, &unit_box(), 0.0).unwrap();
        assert!((m.normal - vec2(0.0, -1.0)).norm() < 1e-6);
        assert!((m.depth() - 0.1).abs() < 1e-6);
        assert!((m.points[0].point - vec2(0.2, 0.95)).norm() < 1e-6);
        assert_eq!(
            m.points[0].id,
            FeatureId::new(vertex_feature(0), edge_feature(2))
        );
        assert!(contact_circle_polygon(vec2(0.2, 1.6), 0.5, &unit_box(), 0.0).is_none());
        let speculative = contact_circle_polygon(vec2(0.2, 1.6), 0.5, &unit_box(), 0.2).unwrap();
        assert!((speculative.depth() + 0.1).abs() < 1e-6);
    }

    #[test]
    fn disc_at_a_corner_points_at_the_corner() {
        let m = contact_circle_polygon(vec2(1.3, 1.4), 0.6, &unit_box(), 0.0).unwrap();
        assert!((m.normal - vec2(-0.6, -0.8)).norm() < 1e-6);
        assert!((m.depth() - 0.1).abs() < 1e-6);
        assert_eq!(m.points[0].id.feature_b(), vertex_feature(2));
    }

    #[test]
    fn centre_inside_leaves_through_the_nearest_face() {
        let m = contact_circle_polygon(vec2(0.7, 0.1), 0.25, &unit_box(), 0.0).unwrap();
        assert!((m.normal - vec2(-1.0, 0.0)).norm() < 1e-6);
        assert!((m.depth() - 0.55).abs() < 1e-6);
        assert_eq!(m.points[0].id.feature_b(), edge_feature(1));
        // A point (radius 0) inside is a contact, on the boundary too.
        assert!(contact_circle_polygon(vec2(1.0, 0.5), 0.0, &unit_box(), 0.0).is_some());
        assert!(contact_circle_polygon(vec2(1.0001, 0.5), 0.0, &unit_box(), 0.0).is_none());
    }

    #[test]
    fn rotated_box_face() {
        let corners = [
            vec2(-1.0, -1.0),
            vec2(1.0, -1.0),
            vec2(1.0, 1.0),
            vec2(-1.0, 1.0),
        ];
        let angle = 0.5f32;
        let pose = Pose::new(vec2(3.0, -2.0), angle);
        let polygon = WorldPolygon::from_local_vertices(&corners, &pose);
        // A disc 1.2 above the top face along the face's normal, radius 0.3.
        let up = pose.rotate(vec2(0.0, 1.0));
        let center = pose.transform_point(vec2(0.25, 0.0)) + up * 1.2;
        let m = contact_circle_polygon(center, 0.3, &polygon, 0.0).unwrap();
        assert!((m.normal + up).norm() < 1e-5);
        assert!((m.depth() - 0.1).abs() < 1e-5);
    }
}
