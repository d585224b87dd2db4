//! Contact between two convex polygons (every box-like kind goes here).
//!
//! SAT over the edge normals of both polygons finds the axis of least
//! penetration (for convex polygons the minimum translation is along one of
//! them, so the depth is exact). Its face is the reference; the incident edge
//! is the other polygon's edge most anti-parallel to it, clipped against the
//! reference face's side planes (Box2D's reference/incident method); points
//! deeper than `-margin` below the reference face are kept.
//!
//! Pairs apart by up to a margin: the true distance decides (the face gaps
//! only bound it from below). When the closest features are two vertices the
//! contact is one point along the line joining them; otherwise the face
//! clipping above gives the points, with negative depths. Two corners that
//! face each other across the reference face to within rounding are corners
//! of flush faces (two boxes side by side, their tops level): the search
//! names them or a corner and an edge as rounding falls, so they take the
//! face clipping too, and flush faces get their two points in every frame.

use super::clip::{
    Face, Feature, REFERENCE_FACE_BIAS, incident_edge, max_face_separation, sanitize_margin, unit,
};
use super::closest::{
    BoundingLine, CLOSEST_ROUNDING_GUARD, ConvexHints, closest_between_bounded_outlines,
};
use super::convex_manifold::{ConvexManifold, point_manifold};
use super::face_manifold::polygon_face_manifold;
use super::lanes::Lanes;
use super::local_frame::{ContactFrame, PolygonCore};
use super::{FeatureId, Manifold};
use crate::math::{Real, Vec2, cross};
use crate::query::placed::WorldPolygon;

/// The contact between convex polygons A and B (world), if they are at most
/// `margin` metres apart.
///
/// Up to two points. The reference face is A's unless B's face is better by
/// more than a millionth of the pair's size, which keeps the choice stable
/// for boxes resting flat on each other.
pub fn contact_polygon_polygon(
    polygon_a: &WorldPolygon,
    polygon_b: &WorldPolygon,
    margin: Real,
) -> Option<Manifold> {
    contact_polygon_polygon_core(
        PolygonCore::of_world(polygon_a)?,
        PolygonCore::of_world(polygon_b)?,
        margin,
        &ContactFrame::WORLD,
    )
    .map(ConvexManifold::into_manifold)
}

/// [`contact_polygon_polygon`] for polygons given in the rigid `frame`
/// (which only sizes the reference face bias); the manifold is in `frame`.
pub(super) fn contact_polygon_polygon_core(
    polygon_a: PolygonCore<'_>,
    polygon_b: PolygonCore<'_>,
    margin: Real,
    frame: &ContactFrame,
) -> Option<ConvexManifold> {
    let margin = sanitize_margin(margin);
    let (gap_a, face_a) = separation_from_faces(polygon_a, polygon_b, margin);
    if gap_a > margin {
        return None;
    }
    let (gap_b, face_b) = separation_from_faces(polygon_b, polygon_a, margin);
    if gap_b > margin {
        return None;
    }
    // A's face wins unless B's is better by more than the bias; the size is
    // only needed when B's face is better at all.
    let reference_is_a = gap_b <= gap_a || {
        let size = frame
            .world_extent(polygon_a.vertices)
            .max(frame.world_extent(polygon_b.vertices));
        gap_b <= gap_a + REFERENCE_FACE_BIAS * size
    };
    let (reference_polygon, incident_polygon, face) = if reference_is_a {
        (polygon_a, polygon_b, face_a)
    } else {
        (polygon_b, polygon_a, face_b)
    };
    // Box2D's reference/incident clipping, for overlapping pairs and for
    // apart ones whose closest features are not two corners.
    let face_contact = || {
        let reference =
            Face::of_polygon(reference_polygon.vertices, reference_polygon.normals, face);
        let k = incident_edge(incident_polygon.normals, reference.normal);
        let incident = Face::of_polygon(incident_polygon.vertices, incident_polygon.normals, k);
        polygon_face_manifold(&reference, &incident, reference_is_a, margin)
    };
    let face_gap = gap_a.max(gap_b);
    if face_gap > 0.0 {
        // Apart (only with a margin): the faces bound the distance from below;
        // the closest features tell a face contact from a vertex-vertex one.
        // Each polygon lies behind its own best face.
        let closest = closest_between_bounded_outlines(
            polygon_a.vertices,
            hints(polygon_a, face_a),
            polygon_b.vertices,
            hints(polygon_b, face_b),
        );
        if closest.distance > margin {
            return None;
        }
        if let (Feature::Vertex(_), Feature::Vertex(_)) = (closest.feature_a, closest.feature_b) {
            // Corners of flush faces are a face contact, whichever feature
            // rounding named (when the clipping keeps a point at all).
            let reference_normal = reference_polygon.normals[face];
            let (point_a, point_b) = (closest.point_a, closest.point_b);
            if flush(point_a, point_b, reference_normal, polygon_a, polygon_b)
                && let Some(manifold) = face_contact()
            {
                return Some(manifold);
            }
            let fallback = if reference_is_a {
                reference_normal
            } else {
                -reference_normal
            };
            let normal = unit(point_b - point_a).unwrap_or(fallback);
            let id = FeatureId::new(closest.feature_a.packed(), closest.feature_b.packed());
            return Some(point_manifold(
                normal,
                point_a,
                0.0,
                point_b,
                0.0,
                closest.distance,
                id,
            ));
        }
    }
    face_contact()
}

/// True when the closest corners `point_a` and `point_b` lie across the
/// reference face from each other: their offset along the face (across its
/// unit `normal`) is within the search's rounding
/// ([`CLOSEST_ROUNDING_GUARD`] of the largest coordinate of either
/// polygon) of 0. The faces are then flush, and whether the search named
/// two corners or a corner and an edge was rounding's choice.
fn flush(
    point_a: Vec2,
    point_b: Vec2,
    normal: Vec2,
    a: PolygonCore<'_>,
    b: PolygonCore<'_>,
) -> bool {
    let magnitude = a
        .vertices
        .iter()
        .chain(b.vertices)
        .fold(0.0, |m: Real, v| m.max(v.x.abs()).max(v.y.abs()));
    cross(point_b - point_a, normal).abs() <= CLOSEST_ROUNDING_GUARD * magnitude
}

/// [`max_face_separation`] of `other` from the faces of `polygon`, in eight
/// lanes when `other` has five to eight vertices.
fn separation_from_faces(
    polygon: PolygonCore<'_>,
    other: PolygonCore<'_>,
    stop_above: Real,
) -> (Real, usize) {
    let (vertices, normals) = (polygon.vertices, polygon.normals);
    // Up to four vertices the plain loop is as quick as the lanes.
    if other.vertices.len() <= 4 {
        return max_face_separation(vertices, normals, other.vertices, stop_above);
    }
    match Lanes::<8>::of(other.vertices) {
        Some(lanes) => lanes.max_face_separation(vertices, normals, stop_above),
        None => max_face_separation(vertices, normals, other.vertices, stop_above),
    }
}

/// The closest-feature hints of a polygon whose best SAT face is `face`.
fn hints(polygon: PolygonCore<'_>, face: usize) -> Option<ConvexHints<'_>> {
    Some(ConvexHints {
        behind: BoundingLine {
            normal: *polygon.normals.get(face)?,
            point: *polygon.vertices.get(face)?,
        },
        normals: polygon.normals,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Pose, vec2};
    use crate::query::contact::clip::vertex_feature;

    fn rectangle(half_width: f32, half_height: f32, pose: &Pose) -> WorldPolygon {
        let corners = [
            vec2(-half_width, -half_height),
            vec2(half_width, -half_height),
            vec2(half_width, half_height),
            vec2(-half_width, half_height),
        ];
        WorldPolygon::from_local_vertices(&corners, pose)
    }

    fn sorted_ids(m: &Manifold) -> Vec<FeatureId> {
        let mut ids: Vec<FeatureId> = m.points.iter().map(|p| p.id).collect();
        ids.sort();
        ids
    }

    #[test]
    fn flush_faces_apart_give_two_points_in_every_frame() {
        // Two unit boxes side by side, their faces flush and 0.01 apart,
        // the pair moved and turned as a whole: whether the search names two
        // corners or a corner and an edge is rounding's choice, and the
        // contact is the faces' two points either way.
        let mut one_point = Vec::new();
        for k in 0..40 {
            for turn in [0.0, 0.3, -1.1, std::f32::consts::FRAC_PI_2] {
                let frame = Pose::new(vec2(k as f32 * 0.37 - 7.0, k as f32 * 1.3 - 20.0), turn);
                let place = |x: f32| frame.compose(&Pose::from_translation(vec2(x, 0.25)));
                let a = rectangle(0.5, 0.5, &place(0.0));
                let b = rectangle(0.5, 0.5, &place(1.01));
                let m = contact_polygon_polygon(&a, &b, 0.02).unwrap();
                if m.points.len() != 2 {
                    one_point.push((k, turn));
                }
                for p in &m.points {
                    assert!((p.depth + 0.01).abs() < 1e-4, "depth {}", p.depth);
                }
            }
        }
        assert!(one_point.is_empty(), "one point at {one_point:?}");
    }

    #[test]
    fn box_resting_on_box_gives_two_points() {
        let floor = rectangle(2.0, 0.5, &Pose::IDENTITY);
        let crate_box = rectangle(0.5, 0.5, &Pose::from_translation(vec2(0.3, 0.98)));
        let m = contact_polygon_polygon(&floor, &crate_box, 0.0).unwrap();
        assert!((m.normal - vec2(0.0, 1.0)).norm() < 1e-6);
        assert_eq!(m.points.len(), 2);
        for p in &m.points {
            assert!((p.depth - 0.02).abs() < 1e-6);
            assert!((p.point.y - 0.49).abs() < 1e-6);
        }
        let mut xs: Vec<f32> = m.points.iter().map(|p| p.point.x).collect();
        xs.sort_by(f32::total_cmp);
        assert!((xs[0] + 0.2).abs() < 1e-6 && (xs[1] - 0.8).abs() < 1e-6);
        // Each end of the overlap is named by the corners on its side: the
        // floor's top corners (2 on the right, 3 on the left) with the
        // crate's bottom corners (1 on the right, 0 on the left).
        assert_eq!(
            sorted_ids(&m),
            vec![
                FeatureId::new(vertex_feature(2), vertex_feature(1)),
                FeatureId::new(vertex_feature(3), vertex_feature(0))
            ]
        );
    }

    #[test]
    fn ids_survive_a_switch_of_reference_face() {
        // Equal boxes stacked exactly: both faces are equally good; A's wins.
        let lower = rectangle(0.5, 0.5, &Pose::IDENTITY);
        let upper = rectangle(0.5, 0.5, &Pose::from_translation(vec2(0.25, 0.99)));
        let ab = contact_polygon_polygon(&lower, &upper, 0.0).unwrap();
        let ba = contact_polygon_polygon(&upper, &lower, 0.0).unwrap();
        assert_eq!(ab.points.len(), 2);
        // Seen from the other side the same physical points keep their ids.
        let flipped_ids: Vec<FeatureId> = {
            let mut ids: Vec<FeatureId> = ba.points.iter().map(|p| p.id.flipped()).collect();
            ids.sort();
            ids
        };
        assert_eq!(sorted_ids(&ab), flipped_ids);
        // The right end: lower's corner 2 and upper's corner 1 (lower's
        // corner bounds it); the left end: lower's corner 3 and upper's
        // corner 0 (upper's corner bounds it).
        assert_eq!(
            sorted_ids(&ab),
            vec![
                FeatureId::new(vertex_feature(2), vertex_feature(1)),
                FeatureId::new(vertex_feature(3), vertex_feature(0))
            ]
        );
    }

    #[test]
    fn ids_are_stable_when_the_pair_moves_slightly() {
        let floor = rectangle(2.0, 0.5, &Pose::IDENTITY);
        let ids = |x: f32, y: f32, angle: f32| {
            let crate_box = rectangle(0.5, 0.5, &Pose::new(vec2(x, y), angle));
            sorted_ids(&contact_polygon_polygon(&floor, &crate_box, 0.05).unwrap())
        };
        let resting = ids(0.3, 0.98, 0.0);
        for (x, y, angle) in [
            (0.31, 0.985, 0.001),
            (0.29, 0.975, -0.002),
            (0.3, 1.01, 0.0),
        ] {
            assert_eq!(ids(x, y, angle), resting, "{x} {y} {angle}");
        }
    }

    #[test]
    fn rotated_box_corner_into_a_floor() {
        let floor = rectangle(2.0, 0.5, &Pose::IDENTITY);
        let angle = std::f32::consts::FRAC_PI_4;
        let half_diagonal = 0.5 * 2f32.sqrt();
        let crate_box = rectangle(
            0.5,
            0.5,
            &Pose::new(vec2(0.0, 0.5 + half_diagonal - 0.1), angle),
        );
        let m = contact_polygon_polygon(&floor, &crate_box, 0.0).unwrap();
        assert!((m.normal - vec2(0.0, 1.0)).norm() < 1e-6);
        assert_eq!(m.points.len(), 1);
        assert!((m.depth() - 0.1).abs() < 1e-5);
        assert!((m.points[0].point - vec2(0.0, 0.45)).norm() < 1e-5);
    }

    #[test]
    fn deep_overlap_takes_the_shallowest_axis() {
        let a = rectangle(1.0, 1.0, &Pose::IDENTITY);
        let b = rectangle(1.0, 1.0, &Pose::from_translation(vec2(1.7, 0.4)));
        let m = contact_polygon_polygon(&a, &b, 0.0).unwrap();
        assert!((m.normal - vec2(1.0, 0.0)).norm() < 1e-6);
        assert!((m.depth() - 0.3).abs() < 1e-5);
        assert_eq!(m.points.len(), 2);
    }

    #[test]
    fn speculative_corner_to_corner_uses_the_true_distance() {
        let a = rectangle(0.5, 0.5, &Pose::IDENTITY);
        let b = rectangle(0.5, 0.5, &Pose::from_translation(vec2(1.03, 1.04)));
        assert!(contact_polygon_polygon(&a, &b, 0.0).is_none());
        // Face gaps are 0.04, but the corners are 0.05 apart.
        assert!(contact_polygon_polygon(&a, &b, 0.045).is_none());
        let m = contact_polygon_polygon(&a, &b, 0.06).unwrap();
        assert_eq!(m.points.len(), 1);
        assert!((m.depth() + 0.05).abs() < 1e-5);
        assert!((m.normal - vec2(0.6, 0.8)).norm() < 1e-4);
        assert_eq!(
            m.points[0].id,
            FeatureId::new(vertex_feature(2), vertex_feature(0))
        );
    }

    #[test]
    fn inconsistent_world_polygons_are_refused_not_indexed() {
        let square = rectangle(0.5, 0.5, &Pose::IDENTITY);
        let mut short_normals = square.clone();
        short_normals.normals.pop();
        assert!(contact_polygon_polygon(&square, &short_normals, 0.0).is_none());
        assert!(contact_polygon_polygon(&short_normals, &square, 0.0).is_none());
        let empty = WorldPolygon {
            vertices: Default::default(),
            normals: Default::default(),
        };
        assert!(contact_polygon_polygon(&empty, &square, 0.0).is_none());
        use crate::query::contact::{contact_capsule_polygon, contact_circle_polygon};
        assert!(contact_circle_polygon(vec2(0.0, 0.0), 1.0, &short_normals, 0.0).is_none());
        assert!(
            contact_capsule_polygon([vec2(0.0, 0.0), vec2(1.0, 0.0)], 1.0, &empty, 0.0).is_none()
        );
    }

    #[test]
    fn touching_counts_and_apart_does_not() {
        let a = rectangle(0.5, 0.5, &Pose::IDENTITY);
        let touching = rectangle(0.5, 0.5, &Pose::from_translation(vec2(1.0, 0.25)));
        let m = contact_polygon_polygon(&a, &touching, 0.0).unwrap();
        assert_eq!(m.depth(), 0.0);
        let apart = rectangle(0.5, 0.5, &Pose::from_translation(vec2(1.0001, 0.25)));
        assert!(contact_polygon_polygon(&a, &apart, 0.0).is_none());
    }
}
