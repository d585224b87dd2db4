//! Closest features between two disjoint outlines (polygon, segment or point
//! cores, in any rigid frame), for the pair functions' "apart" cases.

use super::clip::{Feature, closest_on_segment};
use crate::math::{Real, Vec2};

/// How far, relative to the magnitude of the coordinates involved, the
/// closest-feature search may misjudge a distance or a projection: each is
/// a few roundings of the corners (6e-8 relative each, about 5e-7
/// together), so 1e-6 bounds them with a margin of two. The box path's
/// closed form, computed from the same corners, is judged by it too.
pub(super) const CLOSEST_ROUNDING_GUARD: Real = 1e-6;

/// The closest pair of points between two disjoint outlines (polygon, segment
/// or point cores, listed in order), with the features they lie on.
#[derive(Clone, Copy, Debug)]
pub(super) struct ClosestFeatures {
    /// Distance between the cores (metres).
    pub distance: Real,
    /// Closest point on A's core (frame coordinates).
    pub point_a: Vec2,
    /// Closest point on B's core (frame coordinates).
    pub point_b: Vec2,
    /// Feature of A holding `point_a`.
    pub feature_a: Feature,
    /// Feature of B holding `point_b`.
    pub feature_b: Feature,
}

/// A line that a whole convex outline lies behind: `normal·(x - point) <= 0`
/// for each of its points `x` (a face of a convex polygon, unit normal).
/// The height `normal·(p - point)` of a point `p` in front of it is then a
/// lower bound on `p`'s distance to the outline.
#[derive(Clone, Copy, Debug)]
pub(super) struct BoundingLine {
    /// Outward unit normal.
    pub normal: Vec2,
    /// A point on the line.
    pub point: Vec2,
}

/// Closest points between the boundaries of two outlines that do not
/// intersect: for disjoint convex cores one of the closest points is a vertex,
/// so the minimum over every vertex against every edge of the other is exact.
/// Edge `i` runs from vertex `i` to `i + 1` (wrapping). The first candidate
/// wins ties, with A's edges tried first; a single point is only tried
/// against the other's edges.
pub(super) fn closest_between_outlines(a: &[Vec2], b: &[Vec2]) -> ClosestFeatures {
    closest_between_bounded_outlines(a, None, b, None)
}

/// What is known of a convex outline that lets the closest-feature search
/// skip candidates that cannot win.
#[derive(Clone, Copy, Debug)]
pub(super) struct ConvexHints<'p> {
    /// A line the outline lies behind (one of its faces).
    pub behind: BoundingLine,
    /// The outward unit normal of each edge (`normals[i]` for edge `i`).
    pub normals: &'p [Vec2],
}

/// [`closest_between_outlines`] for convex outlines with hints (`hints_a`
/// for A, `hints_b` for B), the same answer with fewer candidates tried:
/// - a vertex of B whose height above A's bounding line exceeds the best
///   distance found so far is farther from A than that, so its edges are
///   not tried (and likewise for A's vertices);
/// - a vertex of B is not tried against an edge of A that it lies strictly
///   behind: the point of a convex outline closest to an outside point lies
///   on an edge the point is in front of, or is a vertex it shares with
///   such an edge (which names it the same).
///
/// A candidate skipped this way is strictly worse than the best, or the
/// same vertex found through the neighbouring edge, so the answer and its
/// tie-breaking are those of the full search.
pub(super) fn closest_between_bounded_outlines(
    a: &[Vec2],
    hints_a: Option<ConvexHints<'_>>,
    b: &[Vec2],
    hints_b: Option<ConvexHints<'_>>,
) -> ClosestFeatures {
    let mut best = ClosestFeatures {
        distance: Real::INFINITY,
        point_a: a.first().copied().unwrap_or_default(),
        point_b: b.first().copied().unwrap_or_default(),
        feature_a: Feature::Vertex(0),
        feature_b: Feature::Vertex(0),
    };
    // Candidates compare by squared distance; one square root at the end.
    let mut best_squared = Real::INFINITY;
    let is_beyond_best = |p: &Vec2, hints: Option<ConvexHints<'_>>, best_squared: Real| {
        hints.is_some_and(|hints| {
            let line = hints.behind;
            let height = line.normal.dot(&(p - line.point));
            height > 0.0 && height * height > best_squared
        })
    };
    // True when `p` lies strictly behind edge `i` of an outline with hints.
    let is_behind_edge = |p: &Vec2, outline: &[Vec2], hints: Option<ConvexHints<'_>>, i: usize| {
        hints.is_some_and(|hints| {
            hints
                .normals
                .get(i)
                .is_some_and(|normal| normal.dot(&(p - outline[i])) < 0.0)
        })
    };
    // A single point has no edge: its vertex against the other's edges
    // finds the same candidates, with the same features, as the other's
    // vertices against it.
    let a_has_edges = a.len() > 1;
    for (j, w) in b.iter().enumerate() {
        if !a_has_edges || is_beyond_best(w, hints_a, best_squared) {
            continue;
        }
        for i in 0..a.len() {
            if is_behind_edge(w, a, hints_a, i) {
                continue;
            }
            let next = if i + 1 == a.len() { 0 } else { i + 1 };
            let (q, t) = closest_on_segment(*w, a[i], a[next]);
            let squared = (w - q).norm_squared();
            if squared < best_squared {
                best_squared = squared;
                best.point_a = q;
                best.point_b = *w;
                best.feature_a = Feature::on_segment(t, i, next, i);
                best.feature_b = Feature::Vertex(j);
            }
        }
    }
    let b_has_edges = b.len() > 1;
    for (i, v) in a.iter().enumerate() {
        if !b_has_edges || is_beyond_best(v, hints_b, best_squared) {
            continue;
        }
        for j in 0..b.len() {
            if is_behind_edge(v, b, hints_b, j) {
                continue;
            }
            let next = if j + 1 == b.len() { 0 } else { j + 1 };
            let (q, t) = closest_on_segment(*v, b[j], b[next]);
            let squared = (v - q).norm_squared();
            if squared < best_squared {
                best_squared = squared;
                best.point_a = *v;
                best.point_b = q;
                best.feature_a = Feature::Vertex(i);
                best.feature_b = Feature::on_segment(t, j, next, j);
            }
        }
    }
    best.distance = best_squared.sqrt();
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;

    #[test]
    fn closest_between_outlines_finds_vertex_and_edge() {
        let square = [
            vec2(0.0, 0.0),
            vec2(1.0, 0.0),
            vec2(1.0, 1.0),
            vec2(0.0, 1.0),
        ];
        let point = [vec2(3.0, 2.0)];
        let c = closest_between_outlines(&square, &point);
        assert!((c.distance - 5f32.sqrt()).abs() < 1e-6);
        assert_eq!(c.feature_a, Feature::Vertex(2));
        let segment = [vec2(2.0, 0.25), vec2(2.0, 0.75)];
        let c = closest_between_outlines(&square, &segment);
        assert!((c.distance - 1.0).abs() < 1e-6);
        assert_eq!(c.feature_a, Feature::Edge(1));
    }

    #[test]
    fn hints_skip_only_what_cannot_win() {
        // Two squares apart along a diagonal and along a face, every turn.
        let square = |x: Real, y: Real, turn: Real| -> Vec<Vec2> {
            let rotation = crate::math::Rot2::new(turn);
            [(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)]
                .iter()
                .map(|&(u, v)| vec2(x, y) + rotation * vec2(u, v))
                .collect()
        };
        let normals = |outline: &[Vec2]| -> Vec<Vec2> {
            (0..outline.len())
                .map(|i| {
                    let edge = outline[(i + 1) % outline.len()] - outline[i];
                    vec2(edge.y, -edge.x).normalize()
                })
                .collect()
        };
        let mut compared = 0;
        for k in 0..40 {
            let turn = k as Real * 0.157;
            let a = square(0.0, 0.0, 0.0);
            for b in [square(1.7, 0.4, turn), square(1.3, 1.4, -turn)] {
                let full = closest_between_outlines(&a, &b);
                let (normals_a, normals_b) = (normals(&a), normals(&b));
                for (face_a, face_b) in [(1, 3), (2, 0), (1, 0)] {
                    fn hints<'p>(
                        outline: &[Vec2],
                        normals: &'p [Vec2],
                        face: usize,
                    ) -> Option<ConvexHints<'p>> {
                        Some(ConvexHints {
                            behind: BoundingLine {
                                normal: normals[face],
                                point: outline[face],
                            },
                            normals,
                        })
                    }
                    let bounded = closest_between_bounded_outlines(
                        &a,
                        hints(&a, &normals_a, face_a),
                        &b,
                        hints(&b, &normals_b, face_b),
                    );
                    assert_eq!(bounded.distance, full.distance);
                    assert_eq!(bounded.feature_a, full.feature_a);
                    assert_eq!(bounded.feature_b, full.feature_b);
                    compared += 1;
                }
            }
        }
        assert_eq!(compared, 240);
    }
}
