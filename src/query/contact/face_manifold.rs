//! Reference/incident clipping: the manifold of a reference face and the
//! incident edge of the other core ([`face_manifold`]), and its radius-0
//! form for two polygons ([`polygon_face_manifold`]), which gives the same
//! manifold with the capsule-only steps left out.

use super::FeatureId;
use super::clip::Face;
use super::convex_manifold::{ConvexManifold, ConvexPoint};
use crate::math::{Real, Vec2};

/// Two clipped points closer than this fraction of the shorter of the two
/// faces are one contact: they arise when an incident vertex sits on a side
/// plane, and two coincident points would only give a solver the same
/// constraint twice (and flicker between one and two points with rounding).
/// The shorter face, not the reference: against a floor 1 km long, a
/// fraction of the floor is a metre, and a 1 m box resting on it lost one
/// of its two points (which of them by rounding) and rocked for ever.
pub(super) const POINT_MERGE_FRACTION: Real = 1e-3;

/// A point of the incident edge during clipping, named by the pair of
/// features (reference, incident) that meet there.
#[derive(Clone, Copy, Debug)]
struct ClipVertex {
    point: Vec2,
    reference_feature: u16,
    incident_feature: u16,
}

/// Up to two clip vertices, kept in order on the stack: clipping a segment
/// by a half-plane never makes more than two.
#[derive(Clone, Copy, Debug)]
struct ClipPoints {
    points: [ClipVertex; 2],
    len: usize,
}

impl ClipPoints {
    const EMPTY: ClipPoints = ClipPoints {
        points: [ClipVertex {
            point: Vec2::new(0.0, 0.0),
            reference_feature: 0,
            incident_feature: 0,
        }; 2],
        len: 0,
    };

    #[inline(always)]
    fn as_slice(&self) -> &[ClipVertex] {
        &self.points[..self.len]
    }

    /// Appends `vertex`; a third vertex cannot arise and would be dropped.
    #[inline(always)]
    fn push(&mut self, vertex: ClipVertex) {
        if let Some(slot) = self.points.get_mut(self.len) {
            *slot = vertex;
            self.len += 1;
        }
    }

    /// Keeps the vertices for which `keep` holds, in order.
    fn retain(&mut self, keep: impl Fn(&ClipVertex) -> bool) {
        let mut kept = ClipPoints::EMPTY;
        for vertex in self.as_slice() {
            if keep(vertex) {
                kept.push(*vertex);
            }
        }
        *self = kept;
    }
}

/// Keeps the part of the clip polygon (one or two points) where
/// `side·(p - origin) <= 0`; a point made on the plane is named
/// `(plane_feature, incident edge_feature)`.
#[inline(always)]
fn clip_half_plane(
    points: &ClipPoints,
    side: Vec2,
    origin: Vec2,
    plane_feature: u16,
    incident_edge_feature: u16,
) -> ClipPoints {
    let mut kept = ClipPoints::EMPTY;
    let distance_of = |v: &ClipVertex| side.dot(&(v.point - origin));
    match points.as_slice() {
        [only] if distance_of(only) <= 0.0 => kept.push(*only),
        [first, second] => {
            let (d0, d1) = (distance_of(first), distance_of(second));
            if d0 <= 0.0 {
                kept.push(*first);
            }
            if d1 <= 0.0 {
                kept.push(*second);
            }
            if (d0 < 0.0 && d1 > 0.0) || (d0 > 0.0 && d1 < 0.0) {
                // side·(p0 + s (p1 - p0) - origin) = 0  ⇒  s = d0 / (d0 - d1).
                let s = d0 / (d0 - d1);
                kept.push(ClipVertex {
                    point: first.point + (second.point - first.point) * s,
                    reference_feature: plane_feature,
                    incident_feature: incident_edge_feature,
                });
            }
        }
        _ => {}
    }
    kept
}

/// Reference/incident clipping: clips the incident edge to the slab between
/// the side planes of the reference face, measures each surviving point's
/// depth along the reference normal and keeps those with depth `>= -margin`.
///
/// Surfaces: the reference surface is the reference face pushed out by its
/// radius. The incident surface is the incident edge pushed out by its radius
/// along its own outward normal (for a capsule, its flat side facing the
/// reference; for a polygon, the edge itself): that edge is what gets
/// clipped. The deepest incident end adds its cap's extreme towards the
/// reference (the point whose depth is the exact penetration), replacing the
/// side point of the same end; on a capsule lying flat the two coincide.
/// Each contact point is midway between its incident surface point and that
/// point's projection on the reference surface, both inside the slab.
///
/// Two points closer than [`POINT_MERGE_FRACTION`] of the shorter face's
/// length are merged into the deeper one. Each point is named by the two
/// corners at its end of the overlap ([`EndNames::id`]).
///
/// `reference_is_a` orients the result: the manifold normal points from A to
/// B and the ids list A's feature first. If nothing survives (only possible
/// through rounding, when the deepest end sits on a side plane), the deepest
/// end's cap point is reported alone, so a pair the SAT found overlapping
/// always gets a point. `None` only when even that point is farther than the
/// margin. The faces may be given in any rigid frame; the manifold is in
/// that frame.
pub(super) fn face_manifold(
    reference: &Face,
    incident: &Face,
    reference_is_a: bool,
    margin: Real,
) -> Option<ConvexManifold> {
    let tangent = reference.end - reference.start;
    let normal = reference.normal;
    let separation_of = |p: Vec2| normal.dot(&(p - reference.start));
    let (deepest_end, deepest_feature) =
        if separation_of(incident.end) < separation_of(incident.start) {
            (incident.end, incident.end_feature)
        } else {
            (incident.start, incident.start_feature)
        };
    let cap = ClipVertex {
        point: deepest_end - normal * incident.radius,
        reference_feature: reference.edge_feature,
        incident_feature: deepest_feature,
    };
    let lift = incident.normal * incident.radius;
    let side = ClipPoints {
        points: [
            ClipVertex {
                point: incident.start + lift,
                reference_feature: reference.edge_feature,
                incident_feature: incident.start_feature,
            },
            ClipVertex {
                point: incident.end + lift,
                reference_feature: reference.edge_feature,
                incident_feature: incident.end_feature,
            },
        ],
        len: 2,
    };
    let past_start = clip_half_plane(
        &side,
        -tangent,
        reference.start,
        reference.start_feature,
        incident.edge_feature,
    );
    let mut surface_points = clip_half_plane(
        &past_start,
        tangent,
        reference.end,
        reference.end_feature,
        incident.edge_feature,
    );
    // Same expressions as the clipping, so a radius-0 end that survived
    // clipping is found inside here too (and replaced by itself).
    let in_slab = (-tangent).dot(&(deepest_end - reference.start)) <= 0.0
        && tangent.dot(&(deepest_end - reference.end)) <= 0.0;
    if in_slab {
        let same_end = surface_points.as_slice().iter().position(|v| {
            v.reference_feature == cap.reference_feature
                && v.incident_feature == cap.incident_feature
        });
        let along = |v: &ClipVertex| tangent.dot(&(v.point - cap.point)).abs();
        match (same_end, surface_points.as_slice()) {
            (Some(i), _) => surface_points.points[i] = cap,
            (None, [first, second]) => {
                // The cap's side point was clipped: the cap takes the place of
                // the clipped point on its side.
                let nearest = usize::from(along(second) < along(first));
                surface_points.points[nearest] = cap;
            }
            (None, _) => surface_points.push(cap),
        }
    }
    // Penetration of a surface point below the reference surface.
    let depth_of = |p: Vec2| reference.radius - separation_of(p);
    surface_points.retain(|v| depth_of(v.point) >= -margin);
    if let [first, second] = surface_points.as_slice()
        && (first.point - second.point).norm_squared() < merge_distance_squared(reference, incident)
    {
        // Keep the deeper of two points that are one (the first on a tie).
        let deeper = if depth_of(second.point) > depth_of(first.point) {
            *second
        } else {
            *first
        };
        surface_points = ClipPoints::EMPTY;
        surface_points.push(deeper);
    }
    if surface_points.len == 0 {
        if depth_of(cap.point) < -margin {
            return None;
        }
        surface_points.push(cap);
    }
    let ends = EndNames::new(reference, incident, reference_is_a);
    let to_contact = |v: &ClipVertex| {
        let depth = depth_of(v.point);
        ConvexPoint {
            // The reference surface lies `depth` beyond the incident
            // point along the normal: midway is half of it.
            point: v.point + normal * (depth * 0.5),
            depth,
            id: ends.id(v),
        }
    };
    let [first, rest @ ..] = surface_points.as_slice() else {
        return None;
    };
    Some(ConvexManifold::new(
        if reference_is_a { normal } else { -normal },
        to_contact(first),
        rest.first().map(to_contact),
    ))
}

/// [`face_manifold`] of two polygon cores (both radii 0): the same manifold
/// with fewer steps. Without a radius the deepest end's cap point is that
/// end itself, which the clipping keeps or drops like any end, so the cap
/// steps of [`face_manifold`] change nothing and are left out; the two
/// clippings are written out for one or two points ([`clip_pair`]), with
/// the same expressions, so the points are the same bit for bit; each
/// surviving point's depth is computed once.
#[inline(always)]
pub(super) fn polygon_face_manifold(
    reference: &Face,
    incident: &Face,
    reference_is_a: bool,
    margin: Real,
) -> Option<ConvexManifold> {
    let tangent = reference.end - reference.start;
    let normal = reference.normal;
    let separation_of = |p: Vec2| normal.dot(&(p - reference.start));
    let depth_of = |p: Vec2| reference.radius - separation_of(p);
    let start = ClipVertex {
        point: incident.start,
        reference_feature: reference.edge_feature,
        incident_feature: incident.start_feature,
    };
    let end = ClipVertex {
        point: incident.end,
        reference_feature: reference.edge_feature,
        incident_feature: incident.end_feature,
    };
    // Past the side plane through the reference start (side -tangent),
    // then the one through its end (side tangent).
    let past_start = -tangent;
    let (points, count) = clip_pair(
        start,
        end,
        past_start.dot(&(start.point - reference.start)),
        past_start.dot(&(end.point - reference.start)),
        reference.start_feature,
        incident.edge_feature,
    );
    let beyond_end = |v: &ClipVertex| tangent.dot(&(v.point - reference.end));
    let (points, count) = match count {
        2 => clip_pair(
            points[0],
            points[1],
            beyond_end(&points[0]),
            beyond_end(&points[1]),
            reference.end_feature,
            incident.edge_feature,
        ),
        1 if beyond_end(&points[0]) <= 0.0 => (points, 1),
        _ => (points, 0),
    };
    // The points deep enough, with their depths, in order.
    let mut kept = [(start, 0.0); 2];
    let mut kept_count = 0;
    if count >= 1 {
        let depth = depth_of(points[0].point);
        if depth >= -margin {
            kept[0] = (points[0], depth);
            kept_count = 1;
        }
    }
    if count == 2 {
        let depth = depth_of(points[1].point);
        if depth >= -margin {
            kept[kept_count] = (points[1], depth);
            kept_count += 1;
        }
    }
    if kept_count == 2
        && (kept[0].0.point - kept[1].0.point).norm_squared()
            < merge_distance_squared(reference, incident)
    {
        // Keep the deeper of two points that are one (the first on a tie).
        if kept[1].1 > kept[0].1 {
            kept[0] = kept[1];
        }
        kept_count = 1;
    }
    if kept_count == 0 {
        // Nothing survived the clipping: the deepest end alone (its cap
        // point, which is the end itself).
        let (deepest_end, deepest_feature) =
            if separation_of(incident.end) < separation_of(incident.start) {
                (incident.end, incident.end_feature)
            } else {
                (incident.start, incident.start_feature)
            };
        let cap = deepest_end - normal * incident.radius;
        let depth = depth_of(cap);
        if depth < -margin {
            return None;
        }
        let vertex = ClipVertex {
            point: cap,
            reference_feature: reference.edge_feature,
            incident_feature: deepest_feature,
        };
        kept[0] = (vertex, depth);
        kept_count = 1;
    }
    let ends = EndNames::new(reference, incident, reference_is_a);
    let to_contact = |(v, depth): &(ClipVertex, Real)| ConvexPoint {
        // The reference surface lies `depth` beyond the incident point
        // along the normal: midway is half of it.
        point: v.point + normal * (depth * 0.5),
        depth: *depth,
        id: ends.id(v),
    };
    Some(ConvexManifold::new(
        if reference_is_a { normal } else { -normal },
        to_contact(&kept[0]),
        (kept_count == 2).then(|| to_contact(&kept[1])),
    ))
}

/// The square of the distance under which two clipped points are one
/// contact: [`POINT_MERGE_FRACTION`] of the shorter of the two faces
/// (squares throughout, so no root is taken).
#[inline(always)]
fn merge_distance_squared(reference: &Face, incident: &Face) -> Real {
    let shorter_squared = (reference.end - reference.start)
        .norm_squared()
        .min((incident.end - incident.start).norm_squared());
    POINT_MERGE_FRACTION * POINT_MERGE_FRACTION * shorter_squared
}

/// The names of the two ends of a face overlap (see [`Self::id`]): each
/// the reference face's vertex on that side and the incident edge's
/// vertex on that side.
#[derive(Clone, Copy)]
struct EndNames {
    reference_start: u16,
    reference_end: u16,
    /// The incident edge's vertex on the side of the reference's start.
    incident_at_start: u16,
    /// The incident edge's vertex on the side of the reference's end.
    incident_at_end: u16,
    reference_is_a: bool,
}

impl EndNames {
    #[inline(always)]
    fn new(reference: &Face, incident: &Face, reference_is_a: bool) -> Self {
        // The incident edge runs against the reference face (it is the most
        // anti-parallel edge), so its start lies towards the reference's end,
        // and a cut at the start plane replaces the incident end. An edge
        // square to the face is taken the same way: clipping then keeps or
        // drops both of its ends together.
        let tangent = reference.end - reference.start;
        let start_toward_end = tangent.dot(&(incident.start - incident.end)) >= 0.0;
        let (incident_at_start, incident_at_end) = if start_toward_end {
            (incident.end_feature, incident.start_feature)
        } else {
            (incident.start_feature, incident.end_feature)
        };
        EndNames {
            reference_start: reference.start_feature,
            reference_end: reference.end_feature,
            incident_at_start,
            incident_at_end,
            reference_is_a,
        }
    }

    /// The id of clipped point `v`: the two corners at its end of the
    /// overlap, A's first (see "Feature ids" in the `contact` module docs).
    /// Whichever corner bounds the overlap there, an incident vertex kept
    /// in the slab or a cut at the reference vertex's side plane, the end
    /// keeps its name.
    #[inline(always)]
    fn id(&self, v: &ClipVertex) -> FeatureId {
        // A cut names its reference vertex; a kept vertex names itself.
        let at_start = v.reference_feature == self.reference_start
            || (v.reference_feature != self.reference_end
                && v.incident_feature == self.incident_at_start);
        let (reference_corner, incident_corner) = if at_start {
            (self.reference_start, self.incident_at_start)
        } else {
            (self.reference_end, self.incident_at_end)
        };
        if self.reference_is_a {
            FeatureId::new(reference_corner, incident_corner)
        } else {
            FeatureId::new(incident_corner, reference_corner)
        }
    }
}

/// [`clip_half_plane`] of two points at signed distances `d0` and `d1`
/// from the plane: the first if `d0 <= 0`, the second if `d1 <= 0`, then
/// the crossing if they lie strictly on opposite sides (which keeps exactly
/// one of them), named `(plane_feature, incident_edge_feature)`. Returns
/// the points in that order and their count.
#[inline(always)]
fn clip_pair(
    first: ClipVertex,
    second: ClipVertex,
    d0: Real,
    d1: Real,
    plane_feature: u16,
    incident_edge_feature: u16,
) -> ([ClipVertex; 2], usize) {
    let (keep_first, keep_second) = (d0 <= 0.0, d1 <= 0.0);
    if keep_first && keep_second {
        return ([first, second], 2);
    }
    if (d0 < 0.0 && d1 > 0.0) || (d0 > 0.0 && d1 < 0.0) {
        // side·(p0 + s (p1 - p0) - origin) = 0  ⇒  s = d0 / (d0 - d1).
        let s = d0 / (d0 - d1);
        let crossing = ClipVertex {
            point: first.point + (second.point - first.point) * s,
            reference_feature: plane_feature,
            incident_feature: incident_edge_feature,
        };
        let kept = if keep_first { first } else { second };
        return ([kept, crossing], 2);
    }
    match (keep_first, keep_second) {
        (true, _) => ([first, first], 1),
        (_, true) => ([second, second], 1),
        _ => ([first, first], 0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;
    use crate::query::contact::clip::{edge_feature, vertex_feature};
    use proptest::prelude::*;

    #[test]
    fn clipping_names_points_by_the_corners_at_each_end() {
        // Reference: the top of a 2-wide box; incident: a longer edge above it.
        let reference = Face {
            start: vec2(1.0, 0.0),
            end: vec2(-1.0, 0.0),
            normal: vec2(0.0, 1.0),
            radius: 0.0,
            start_feature: vertex_feature(2),
            end_feature: vertex_feature(3),
            edge_feature: edge_feature(2),
        };
        let incident = Face {
            start: vec2(-3.0, -0.1),
            end: vec2(3.0, -0.1),
            normal: vec2(0.0, 0.0),
            radius: 0.0,
            start_feature: vertex_feature(0),
            end_feature: vertex_feature(1),
            edge_feature: edge_feature(0),
        };
        let m = face_manifold(&reference, &incident, true, 0.0).unwrap();
        assert_eq!(m.points().len(), 2);
        for p in m.points() {
            assert!((p.depth - 0.1).abs() < 1e-6);
            assert!((p.point.y + 0.05).abs() < 1e-6);
        }
        // Both ends are cuts at the reference's side planes; each is named
        // by the reference corner and the incident end on its side.
        let mut ids: Vec<FeatureId> = m.points().iter().map(|p| p.id).collect();
        ids.sort();
        assert_eq!(
            ids,
            vec![
                FeatureId::new(vertex_feature(2), vertex_feature(1)),
                FeatureId::new(vertex_feature(3), vertex_feature(0))
            ]
        );
        // Beyond the margin nothing is kept.
        let mut far = incident;
        far.start.y = 0.5;
        far.end.y = 0.5;
        assert!(face_manifold(&reference, &far, true, 0.4).is_none());
        assert_eq!(
            face_manifold(&reference, &far, true, 0.5)
                .unwrap()
                .points()
                .len(),
            2
        );
    }

    #[test]
    fn polygon_clipping_merges_and_falls_back_like_the_general_clipping() {
        let reference = Face {
            start: vec2(1.0, 0.0),
            end: vec2(-1.0, 0.0),
            normal: vec2(0.0, 1.0),
            radius: 0.0,
            start_feature: vertex_feature(2),
            end_feature: vertex_feature(3),
            edge_feature: edge_feature(2),
        };
        let edge = |x0: Real, x1: Real, y1: Real| Face {
            start: vec2(x0, -0.1),
            end: vec2(x1, y1),
            normal: vec2(0.0, -1.0),
            radius: 0.0,
            start_feature: vertex_feature(0),
            end_feature: vertex_feature(1),
            edge_feature: edge_feature(0),
        };
        // A vertex 0.5 mm inside the side plane at x = -1 and the cut at
        // that plane: merged into one.
        let short = edge(-0.9995, -3.0, -0.1001);
        // Wholly past the side plane at x = 1: the deepest end alone.
        let outside = edge(2.0, 3.0, -0.12);
        for incident in [short, outside] {
            for reference_is_a in [true, false] {
                let general = face_manifold(&reference, &incident, reference_is_a, 0.0);
                assert_eq!(general.map(|m| m.points().len()), Some(1));
                assert_eq!(
                    polygon_face_manifold(&reference, &incident, reference_is_a, 0.0),
                    general
                );
            }
        }
        assert!(
            (face_manifold(&reference, &outside, true, 0.0)
                .unwrap()
                .points()[0]
                .depth
                - 0.12)
                .abs()
                < 1e-6
        );
    }

    /// A random face or edge of a polygon: ends within ±3 m, unit normal to
    /// its right (outward for a counter-clockwise polygon), random features.
    fn polygon_edge() -> impl Strategy<Value = Face> {
        let coordinate = || (-3_000i32..=3_000).prop_map(|k| k as Real * 1e-3);
        (
            coordinate(),
            coordinate(),
            coordinate(),
            coordinate(),
            0usize..8,
        )
            .prop_filter_map("zero length", |(x0, y0, x1, y1, i)| {
                let (start, end) = (vec2(x0, y0), vec2(x1, y1));
                let edge = end - start;
                (edge.norm() > 1e-3).then(|| Face {
                    start,
                    end,
                    normal: vec2(edge.y, -edge.x).normalize(),
                    radius: 0.0,
                    start_feature: vertex_feature(i),
                    end_feature: vertex_feature(i + 1),
                    edge_feature: edge_feature(i),
                })
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(10_000))]

        /// The radius-0 clipping gives exactly the general clipping's manifold.
        #[test]
        fn polygon_clipping_is_the_general_clipping_at_radius_zero(
            reference in polygon_edge(),
            incident in polygon_edge(),
            reference_is_a in any::<bool>(),
            margin in prop_oneof![Just(0.0), (0u32..=1_000).prop_map(|k| k as Real * 1e-3)],
        ) {
            prop_assert_eq!(
                polygon_face_manifold(&reference, &incident, reference_is_a, margin),
                face_manifold(&reference, &incident, reference_is_a, margin)
            );
        }
    }
}
