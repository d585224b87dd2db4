//! Primitive geometry shared by the contact pair functions: closest points on
//! segments, SAT separations, reference/incident clipping and the building of
//! manifold points from cores and radii.
//!
//! Every shape here is a *core* (point, segment or convex polygon, world
//! coordinates) grown by a radius. Separations are measured between cores;
//! depth = radius of A + radius of B − core separation.

use super::FeatureId;
use super::convex_manifold::{ConvexManifold, ConvexPoint};
use crate::math::{Real, Vec2};

/// Below this length a vector has no usable direction: its squared components
/// approach the smallest normal f32 (1.2e-38), so dividing by its norm would no
/// longer give a unit vector.
pub(super) const MIN_DIRECTION_LENGTH: Real = 1e-18;

/// When two candidate reference faces are this close in separation (relative
/// to the size of the pair), the face of A wins: only float noise separates
/// faces that close, and preferring one side keeps the choice from flickering
/// between steps. 1e-6 relative stays far below the 1e-4 m that moves a
/// depth measurably, so the depth is still the true penetration.
pub(super) const REFERENCE_FACE_BIAS: Real = 1e-6;

/// Two clipped points closer than this fraction of the reference face's
/// length are one contact: they arise when an incident vertex sits on a side
/// plane, and two coincident points would only give a solver the same
/// constraint twice (and flicker between one and two points with rounding).
pub(super) const POINT_MERGE_FRACTION: Real = 1e-3;

/// A margin that is negative or NaN acts as 0 (`max` ignores NaN).
pub(super) fn sanitize_margin(margin: Real) -> Real {
    margin.max(0.0)
}

/// The unit vector along `v`, or `None` when `v` is too short to have a direction.
pub(super) fn unit(v: Vec2) -> Option<Vec2> {
    let length = v.norm();
    (length > MIN_DIRECTION_LENGTH && length.is_finite()).then(|| v / length)
}

/// The 16-bit feature naming vertex `index` (wrapped to 15 bits).
pub(super) fn vertex_feature(index: usize) -> u16 {
    (index & 0x7fff) as u16
}

/// The 16-bit feature naming edge `index` (wrapped to 15 bits).
pub(super) fn edge_feature(index: usize) -> u16 {
    FeatureId::EDGE | (index & 0x7fff) as u16
}

/// The point of segment `a`–`b` closest to `p`, with its parameter `t` in
/// [0, 1] (`a + t (b - a)`); a zero-length segment gives `(a, 0)`.
pub(super) fn closest_on_segment(p: Vec2, a: Vec2, b: Vec2) -> (Vec2, Real) {
    let ab = b - a;
    let length_squared = ab.norm_squared();
    if length_squared <= 0.0 {
        return (a, 0.0);
    }
    // d/dt |a + t ab - p|² = 0  ⇒  t = (p - a)·ab / |ab|², clamped to the segment.
    let t = ((p - a).dot(&ab) / length_squared).clamp(0.0, 1.0);
    if t >= 1.0 { (b, 1.0) } else { (a + ab * t, t) }
}

/// A vertex or an edge of a core, by index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Feature {
    /// Vertex `i`.
    Vertex(usize),
    /// Edge `i` (from vertex `i` to the next).
    Edge(usize),
}

impl Feature {
    /// The 16-bit encoding used in [`FeatureId`].
    pub(super) fn packed(self) -> u16 {
        match self {
            Feature::Vertex(i) => vertex_feature(i),
            Feature::Edge(i) => edge_feature(i),
        }
    }

    /// The feature of segment `start`→`end` (vertex indices `start_index`,
    /// `end_index`, edge `edge_index`) where parameter `t` lands.
    pub(super) fn on_segment(
        t: Real,
        start_index: usize,
        end_index: usize,
        edge_index: usize,
    ) -> Feature {
        if t <= 0.0 {
            Feature::Vertex(start_index)
        } else if t >= 1.0 {
            Feature::Vertex(end_index)
        } else {
            Feature::Edge(edge_index)
        }
    }
}

/// SAT over the faces of a convex core: for face `i` (outward unit normal
/// `normals[i]` through `vertices[i]`) the separation of `other` is
/// `min_j normals[i]·(other[j] - vertices[i])`. Returns the largest separation
/// and its face (the first on ties; `(-inf, 0)` without faces).
///
/// Stops at the first face whose separation exceeds `stop_above` and returns
/// it: callers pass the gap beyond which they report no contact, so the
/// remaining faces could not change their answer.
pub(super) fn max_face_separation(
    vertices: &[Vec2],
    normals: &[Vec2],
    other: &[Vec2],
    stop_above: Real,
) -> (Real, usize) {
    let mut best = (Real::NEG_INFINITY, 0);
    for (i, (vertex, normal)) in vertices.iter().zip(normals).enumerate() {
        // A plain comparison skips NaN as `Real::min` does, without its
        // NaN-handling instructions in this innermost loop.
        let mut separation = Real::INFINITY;
        for p in other {
            let distance = normal.dot(&(p - vertex));
            if distance < separation {
                separation = distance;
            }
        }
        if separation > best.0 {
            best = (separation, i);
            if separation > stop_above {
                break;
            }
        }
    }
    best
}

/// The edge whose outward normal is most anti-parallel to `reference_normal`
/// (it holds the support vertex in `-reference_normal`).
pub(super) fn incident_edge(normals: &[Vec2], reference_normal: Vec2) -> usize {
    let mut best = (Real::INFINITY, 0);
    for (i, normal) in normals.iter().enumerate() {
        let alignment = normal.dot(&reference_normal);
        if alignment < best.0 {
            best = (alignment, i);
        }
    }
    best.1
}

/// An edge of a core with the features of its ends, as a reference face or
/// an incident edge. A one-sided face: `normal` is its outward unit normal.
#[derive(Clone, Copy, Debug)]
pub(super) struct Face {
    /// First end (world).
    pub start: Vec2,
    /// Second end (world).
    pub end: Vec2,
    /// Outward unit normal (world); unused for an incident edge.
    pub normal: Vec2,
    /// Radius the core is grown by (metres).
    pub radius: Real,
    /// Feature of `start`.
    pub start_feature: u16,
    /// Feature of `end`.
    pub end_feature: u16,
    /// Feature of the edge itself.
    pub edge_feature: u16,
}

impl Face {
    /// Edge `i` of a counter-clockwise polygon core (radius 0).
    pub(super) fn of_polygon(vertices: &[Vec2], normals: &[Vec2], i: usize) -> Face {
        let j = if i + 1 < vertices.len() { i + 1 } else { 0 };
        Face {
            start: vertices[i],
            end: vertices[j],
            normal: normals[i],
            radius: 0.0,
            start_feature: vertex_feature(i),
            end_feature: vertex_feature(j),
            edge_feature: edge_feature(i),
        }
    }

    /// The side of segment core `core` whose outward normal is `side_normal`:
    /// edge 0 (`a → b`) when `side_normal` is the right-hand normal
    /// `right_normal` of `a → b`, else edge 1 (`b → a`).
    pub(super) fn of_segment(
        core: [Vec2; 2],
        right_normal: Vec2,
        side_normal: Vec2,
        radius: Real,
    ) -> Face {
        if right_normal.dot(&side_normal) >= 0.0 {
            Face {
                start: core[0],
                end: core[1],
                normal: right_normal,
                radius,
                start_feature: vertex_feature(0),
                end_feature: vertex_feature(1),
                edge_feature: edge_feature(0),
            }
        } else {
            Face {
                start: core[1],
                end: core[0],
                normal: -right_normal,
                radius,
                start_feature: vertex_feature(1),
                end_feature: vertex_feature(0),
                edge_feature: edge_feature(1),
            }
        }
    }
}

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

    fn as_slice(&self) -> &[ClipVertex] {
        &self.points[..self.len]
    }

    /// Appends `vertex`; a third vertex cannot arise and would be dropped.
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
/// Two points closer than [`POINT_MERGE_FRACTION`] of the reference face's
/// length are merged into the deeper one.
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
        && (first.point - second.point).norm() < POINT_MERGE_FRACTION * tangent.norm()
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
    let to_contact = |v: &ClipVertex| {
        let depth = depth_of(v.point);
        ConvexPoint {
            // The reference surface lies `depth` beyond the incident
            // point along the normal: midway is half of it.
            point: v.point + normal * (depth * 0.5),
            depth,
            id: if reference_is_a {
                FeatureId::new(v.reference_feature, v.incident_feature)
            } else {
                FeatureId::new(v.incident_feature, v.reference_feature)
            },
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;

    #[test]
    fn closest_on_segment_clamps_to_the_ends() {
        let (a, b) = (vec2(0.0, 0.0), vec2(2.0, 0.0));
        assert_eq!(
            closest_on_segment(vec2(1.0, 3.0), a, b),
            (vec2(1.0, 0.0), 0.5)
        );
        assert_eq!(closest_on_segment(vec2(-1.0, 1.0), a, b), (a, 0.0));
        assert_eq!(closest_on_segment(vec2(5.0, -1.0), a, b), (b, 1.0));
        assert_eq!(closest_on_segment(vec2(5.0, -1.0), a, a), (a, 0.0));
    }

    #[test]
    fn clipping_names_points_by_the_features_that_meet() {
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
            assert_eq!(p.id.feature_b(), edge_feature(0));
        }
        let mut ids: Vec<u16> = m.points().iter().map(|p| p.id.feature_a()).collect();
        ids.sort();
        assert_eq!(ids, vec![vertex_feature(2), vertex_feature(3)]);
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
}
