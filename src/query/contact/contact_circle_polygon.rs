//! Contact between a disc and a convex polygon (a point is a disc of radius 0).

use super::clip::{
    Feature, closest_on_segment, edge_feature, max_face_separation, sanitize_margin, unit,
    vertex_feature,
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
    let feature_b = edge_in_front(center_a, &polygon_b, closest.feature_b);
    let id = FeatureId::new(vertex_feature(0), feature_b.packed());
    if let Feature::Edge(k) = feature_b {
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

/// The closest feature of convex polygon B to the outside point `center`,
/// given `found`, the closest-feature search's answer. Near a vertex the
/// distances to the vertex and to a neighbouring edge's interior tie
/// within rounding while their points (and normals) differ at first
/// order, so the search's pick between them is rounding's. An edge whose
/// line the point is in front of and onto which it projects strictly
/// inside is exactly the closest feature (the polygon lies behind that
/// line), and the projection parameter decides that robustly.
fn edge_in_front(center: Vec2, polygon: &PolygonCore<'_>, found: Feature) -> Feature {
    let Feature::Vertex(vertex) = found else {
        return found;
    };
    let count = polygon.vertices.len();
    if count < 2 || vertex >= count || polygon.normals.len() != count {
        return found;
    }
    for edge in [vertex, (vertex + count - 1) % count] {
        let start = polygon.vertices[edge];
        let end = polygon.vertices[(edge + 1) % count];
        let (_, t) = closest_on_segment(center, start, end);
        if t > 0.0 && t < 1.0 && polygon.normals[edge].dot(&(center - start)) > 0.0 {
            return Feature::Edge(edge);
        }
    }
    found
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
    fn a_far_disc_just_inside_an_edge_strip_takes_the_edge() {
        // Centre 4 m above the top face, 0.4 mm in from its right end: the
        // distances to the corner and to the face differ by 2e-8 m, below
        // f32 rounding at 4 m, but the face is exactly the closest feature.
        let center = vec2(1.0 - 4e-4, 5.0);
        let m = contact_circle_polygon(center, 4.5, &unit_box(), 0.0).unwrap();
        assert_eq!(m.points[0].id.feature_b(), edge_feature(2));
        assert_eq!(m.normal, vec2(0.0, -1.0));
        // Just past the end, the corner is.
        let past = contact_circle_polygon(vec2(1.0 + 4e-4, 5.0), 4.5, &unit_box(), 0.0).unwrap();
        assert_eq!(past.points[0].id.feature_b(), vertex_feature(2));
        // The edge test itself, with the search's corner as input.
        let square = unit_box();
        let core = PolygonCore::of_world(&square).unwrap();
        assert_eq!(
            edge_in_front(center, &core, Feature::Vertex(2)),
            Feature::Edge(2)
        );
        assert_eq!(
            edge_in_front(vec2(1.0 + 4e-4, 5.0), &core, Feature::Vertex(2)),
            Feature::Vertex(2)
        );
        assert_eq!(
            edge_in_front(center, &core, Feature::Edge(1)),
            Feature::Edge(1)
        );
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
