//! Primitive geometry shared by the contact pair functions: closest points on
//! segments, SAT separations and the faces that reference/incident clipping
//! ([`super::face_manifold`]) works on.
//!
//! Every shape here is a *core* (point, segment or convex polygon, in world
//! coordinates or in the frame of one of the shapes) grown by a radius. Separations are measured between cores;
//! depth = radius of A + radius of B − core separation.

use super::FeatureId;
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
    /// First end (the pair function's frame).
    pub start: Vec2,
    /// Second end (same frame).
    pub end: Vec2,
    /// Outward unit normal (same frame); unused for an incident edge.
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
}
