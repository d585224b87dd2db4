//! Exact closest-point and separation helpers shared by every query module.
//!
//! All functions take world (or any one common frame) coordinates in metres and
//! return points in that same frame. Polygons are vertex slices in
//! counter-clockwise order, as [`WorldPolygon::vertices`] and
//! [`crate::shape::ConvexPolygon::vertices`] store them.
//!
//! # Exactness
//! Boolean predicates (`point_on_segment`, `segments_intersect`,
//! `point_in_convex_polygon`, `polygons_intersect`, ...) decide with the signs
//! of 2D cross products of the input coordinates, never with a distance
//! compared against a tolerance, so touching (a zero cross product) counts as
//! intersecting and the answer is the same for both argument orders. Only lines
//! get a rounding band ([`LINE_ROUNDING`]), because their direction is stored
//! normalized and so is itself rounded.
//!
//! Closest-point functions are the exact Euclidean closest points up to the
//! rounding of one projection; none of them panics or divides by zero, even on
//! degenerate (zero-length) segments or NaN input.

use crate::math::{Pose, Real, Vec2, cross, perp};
use crate::query::placed::WorldPolygon;
use crate::shape::SimplePolygon;

/// Relative rounding band of a line's signed offset.
///
/// A line's direction is stored normalized, which rounds each component by up
/// to half an ulp; a point a distance `L` along the true line then appears up to
/// about `2 * EPSILON * L` off the stored one. Offsets inside four times that
/// band (measured with the L1 length of `point - line_point`) count as exactly
/// on the line, so the line through two given points contains both of them.
pub const LINE_ROUNDING: Real = 4.0 * Real::EPSILON;

/// The point of segment `a`–`b` closest to `point`, and its parameter
/// `t` in `[0, 1]` (`a + t * (b - a)`). A zero-length segment returns `(a, 0)`.
#[inline]
pub fn closest_point_on_segment(point: Vec2, a: Vec2, b: Vec2) -> (Vec2, Real) {
    let ab = b - a;
    let length_squared = ab.norm_squared();
    if length_squared <= 0.0 {
        return (a, 0.0);
    }
    // dot(point - (a + t ab), ab) = 0  =>  t = dot(point - a, ab) / |ab|^2
    let t = (point - a).dot(&ab) / length_squared;
    if t <= 0.0 {
        (a, 0.0)
    } else if t >= 1.0 {
        (b, 1.0)
    } else {
        (a + ab * t, t)
    }
}

/// Squared distance from `point` to segment `a`–`b` (metres squared).
#[inline]
pub fn point_segment_distance_squared(point: Vec2, a: Vec2, b: Vec2) -> Real {
    (point - closest_point_on_segment(point, a, b).0).norm_squared()
}

/// True if `point` lies on the closed segment `a`–`b` (exact orientation test).
#[inline]
pub fn point_on_segment(point: Vec2, a: Vec2, b: Vec2) -> bool {
    cross(b - a, point - a) == 0.0
        && point.x >= a.x.min(b.x)
        && point.x <= a.x.max(b.x)
        && point.y >= a.y.min(b.y)
        && point.y <= a.y.max(b.y)
}

/// True if the closed segments `a0`–`a1` and `b0`–`b1` share a point
/// (touching counts). Symmetric in its two segments.
pub fn segments_intersect(a0: Vec2, a1: Vec2, b0: Vec2, b1: Vec2) -> bool {
    // Sides of each end point relative to the other segment's line.
    let side_b0 = cross(a1 - a0, b0 - a0);
    let side_b1 = cross(a1 - a0, b1 - a0);
    let side_a0 = cross(b1 - b0, a0 - b0);
    let side_a1 = cross(b1 - b0, a1 - b0);
    let opposite = |s: Real, t: Real| (s > 0.0 && t < 0.0) || (s < 0.0 && t > 0.0);
    if opposite(side_b0, side_b1) && opposite(side_a0, side_a1) {
        return true;
    }
    // Otherwise they meet only if an end point lies on the other segment.
    let within = |p: Vec2, q0: Vec2, q1: Vec2, side: Real| {
        side == 0.0
            && p.x >= q0.x.min(q1.x)
            && p.x <= q0.x.max(q1.x)
            && p.y >= q0.y.min(q1.y)
            && p.y <= q0.y.max(q1.y)
    };
    within(b0, a0, a1, side_b0)
        || within(b1, a0, a1, side_b1)
        || within(a0, b0, b1, side_a0)
        || within(a1, b0, b1, side_a1)
}

/// The closest points of segments `a0`–`a1` and `b0`–`b1`: `(on_a, on_b)`.
///
/// When the segments intersect both points are a common point (the crossing
/// point, or an end point lying on the other segment for collinear overlaps).
pub fn segment_segment_closest_points(a0: Vec2, a1: Vec2, b0: Vec2, b1: Vec2) -> (Vec2, Vec2) {
    let da = a1 - a0;
    let db = b1 - b0;
    if segments_intersect(a0, a1, b0, b1) {
        let denominator = cross(da, db);
        if denominator != 0.0 {
            // a0 + t da = b0 + u db; cross both sides with db: t = cross(b0 - a0, db) / cross(da, db)
            let t = (cross(b0 - a0, db) / denominator).clamp(0.0, 1.0);
            let point = a0 + da * t;
            return (point, point);
        }
        // Collinear overlap: an end point of one lies on the other.
        for (p, q0, q1) in [(a0, b0, b1), (a1, b0, b1)] {
            if point_on_segment(p, q0, q1) {
                return (p, p);
            }
        }
        for (p, q0, q1) in [(b0, a0, a1), (b1, a0, a1)] {
            if point_on_segment(p, q0, q1) {
                return (p, p);
            }
        }
    }
    // Disjoint segments: the closest pair involves an end point of one of them.
    let candidates = [
        (a0, closest_point_on_segment(a0, b0, b1).0),
        (a1, closest_point_on_segment(a1, b0, b1).0),
        (closest_point_on_segment(b0, a0, a1).0, b0),
        (closest_point_on_segment(b1, a0, a1).0, b1),
    ];
    closest_pair(candidates)
}

/// The pair with the smallest squared distance (the first on ties or NaN).
fn closest_pair<I: IntoIterator<Item = (Vec2, Vec2)>>(pairs: I) -> (Vec2, Vec2) {
    let mut iter = pairs.into_iter();
    let Some(mut best) = iter.next() else {
        return (Vec2::zeros(), Vec2::zeros());
    };
    let mut best_distance = (best.1 - best.0).norm_squared();
    for pair in iter {
        let d = (pair.1 - pair.0).norm_squared();
        if d < best_distance {
            best = pair;
            best_distance = d;
        }
    }
    best
}

/// The edges `(start, end)` of a closed loop of vertices, the closing edge
/// (last vertex to first) first; no modulo in the loop.
#[inline]
fn edges(vertices: &[Vec2]) -> impl Iterator<Item = (Vec2, Vec2)> + '_ {
    let last = vertices.last().copied().unwrap_or_else(Vec2::zeros);
    vertices.iter().scan(last, |start, &end| {
        let edge = (*start, end);
        *start = end;
        Some(edge)
    })
}

/// The point of the closed loop `vertices` nearest to `point`, with its squared
/// distance (`(point, INFINITY)` for an empty loop).
#[inline]
fn nearest_on_loop(point: Vec2, vertices: &[Vec2]) -> (Vec2, Real) {
    let mut best = (point, Real::INFINITY);
    for (start, end) in edges(vertices) {
        let candidate = closest_point_on_segment(point, start, end).0;
        let d = (point - candidate).norm_squared();
        if d < best.1 {
            best = (candidate, d);
        }
    }
    best
}

/// True if `point` lies in the convex counter-clockwise polygon (boundary included).
#[inline]
pub fn point_in_convex_polygon(point: Vec2, vertices: &[Vec2]) -> bool {
    // Inside is to the left of every edge: cross(edge, point - start) >= 0.
    edges(vertices).all(|(start, end)| cross(end - start, point - start) >= 0.0)
}

/// The point of the convex polygon (boundary and interior) closest to `point`;
/// `point` itself when it is inside.
pub fn closest_point_on_convex_polygon(point: Vec2, vertices: &[Vec2]) -> Vec2 {
    if point_in_convex_polygon(point, vertices) {
        return point;
    }
    closest_point_on_outline(point, vertices)
}

/// The point of a closed outline's boundary (any simple polygon) closest to `point`.
pub fn closest_point_on_outline(point: Vec2, vertices: &[Vec2]) -> Vec2 {
    nearest_on_loop(point, vertices).0
}

/// The interval `(min, max)` of `dot(vertex, axis)` over the vertices.
pub fn project_polygon(vertices: &[Vec2], axis: Vec2) -> (Real, Real) {
    let mut low = Real::INFINITY;
    let mut high = Real::NEG_INFINITY;
    for v in vertices {
        let d = v.dot(&axis);
        low = low.min(d);
        high = high.max(d);
    }
    (low, high)
}

/// True if some edge of convex polygon `polygon` has every point of `others`
/// strictly outside it (a separating axis).
fn has_separating_edge(polygon: &[Vec2], others: &[Vec2]) -> bool {
    edges(polygon).any(|(start, end)| {
        let edge = end - start;
        others.iter().all(|w| cross(edge, *w - start) < 0.0)
    })
}

/// Separating axis test of two convex counter-clockwise polygons (touching counts).
///
/// In 2D two convex polygons are disjoint exactly when the outward normal of
/// some edge of one of them separates them; each candidate is decided with
/// exact cross-product signs. Symmetric in its arguments.
pub fn polygons_intersect(a: &[Vec2], b: &[Vec2]) -> bool {
    !has_separating_edge(a, b) && !has_separating_edge(b, a)
}

/// True if segment `a`–`b` meets the convex polygon (touching counts).
///
/// Separating axis test: the polygon's edge normals and the segment's normal.
/// A zero-length segment reduces to [`point_in_convex_polygon`].
pub fn segment_polygon_intersect(a: Vec2, b: Vec2, vertices: &[Vec2]) -> bool {
    if has_separating_edge(vertices, &[a, b]) {
        return false;
    }
    // The segment's own axis: every vertex strictly on one side separates.
    let direction = b - a;
    let all_left = vertices.iter().all(|v| cross(direction, *v - a) > 0.0);
    let all_right = vertices.iter().all(|v| cross(direction, *v - a) < 0.0);
    !(all_left || all_right)
}

/// Closest points `(on_segment, on_polygon)` of a segment and a convex polygon
/// that do **not** intersect (check [`segment_polygon_intersect`] first).
///
/// For disjoint convex sets in 2D the closest pair involves a vertex of one of
/// them, so end points against edges and vertices against the segment suffice.
pub fn segment_polygon_closest_points(a: Vec2, b: Vec2, vertices: &[Vec2]) -> (Vec2, Vec2) {
    let mut best = ((a, a), Real::INFINITY);
    for end in [a, b] {
        let (on_polygon, d) = nearest_on_loop(end, vertices);
        if d < best.1 {
            best = ((end, on_polygon), d);
        }
    }
    for v in vertices {
        let on_segment = closest_point_on_segment(*v, a, b).0;
        let d = (*v - on_segment).norm_squared();
        if d < best.1 {
            best = ((on_segment, *v), d);
        }
    }
    best.0
}

/// Closest points `(on_a, on_b)` of two convex polygons that do **not**
/// intersect (check [`polygons_intersect`] first).
///
/// Vertices of each against edges of the other: for disjoint convex polygons
/// the closest pair always has a vertex of one of them. Symmetric: swapping the
/// polygons swaps the points.
pub fn polygon_polygon_closest_points(a: &[Vec2], b: &[Vec2]) -> (Vec2, Vec2) {
    let mut best = ((Vec2::zeros(), Vec2::zeros()), Real::INFINITY);
    for v in a {
        let (on_b, d) = nearest_on_loop(*v, b);
        if d < best.1 {
            best = ((*v, on_b), d);
        }
    }
    for w in b {
        let (on_a, d) = nearest_on_loop(*w, a);
        if d < best.1 {
            best = ((on_a, *w), d);
        }
    }
    best.0
}

/// The largest separation of `b` from `a` along `a`'s edge normals, and that edge.
///
/// For edge `i` the separation is `min over vertices w of b of dot(normal_i, w - vertex_i)`;
/// a positive maximum means edge `i` is a separating axis and the value is a
/// lower bound of the distance (metres); a negative one is minus the
/// penetration along that axis (the SAT axis of least penetration).
pub fn max_separation(a: &WorldPolygon, b: &WorldPolygon) -> (Real, usize) {
    let mut best = (Real::NEG_INFINITY, 0);
    for (i, (normal, vertex)) in a.normals.iter().zip(&a.vertices).enumerate() {
        let separation = b
            .vertices
            .iter()
            .map(|w| normal.dot(&(w - vertex)))
            .fold(Real::INFINITY, Real::min);
        if separation > best.0 {
            best = (separation, i);
        }
    }
    best
}

/// Signed offset of `point` from the line through `line_point` along the unit
/// `line_direction` (positive to the left), snapped to 0 within [`LINE_ROUNDING`].
#[inline]
pub fn line_offset(line_point: Vec2, line_direction: Vec2, point: Vec2) -> Real {
    let delta = point - line_point;
    // cross(d, delta) = dot(perp(d), delta): the component along the left normal.
    let offset = cross(line_direction, delta);
    if offset.abs() <= LINE_ROUNDING * (delta.x.abs() + delta.y.abs()) {
        0.0
    } else {
        offset
    }
}

/// The foot of `point` on the line (the closest point of the line to it).
#[inline]
pub fn project_on_line(line_point: Vec2, line_direction: Vec2, point: Vec2) -> Vec2 {
    point - perp(line_direction) * line_offset(line_point, line_direction, point)
}

/// True if `point` is inside the simple polygon `outline` or on its boundary.
///
/// Even-odd rule (a ray towards +x crosses the outline an odd number of
/// times); for a simple outline it equals the winding rule. Points on an edge
/// are detected first with an exact orientation test, so the boundary counts
/// as inside.
pub fn point_in_simple_polygon(point: Vec2, outline: &[Vec2]) -> bool {
    let mut inside = false;
    for (a, b) in edges(outline) {
        if point_on_segment(point, a, b) {
            return true;
        }
        if (a.y > point.y) != (b.y > point.y) {
            // The edge crosses the horizontal through `point`; the crossing is to
            // the right of `point` when `point` is left of an upward edge or right
            // of a downward one.
            let left = cross(b - a, point - a) > 0.0;
            if (b.y > a.y) == left {
                inside = !inside;
            }
        }
    }
    inside
}

/// The convex pieces of `simple` placed in the world with `pose`.
pub fn placed_pieces<'a>(
    simple: &'a SimplePolygon,
    pose: &'a Pose,
) -> impl Iterator<Item = WorldPolygon> + 'a {
    simple
        .pieces()
        .iter()
        .map(move |piece| WorldPolygon::from_local(piece.vertices(), piece.normals(), pose))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;

    fn square() -> [Vec2; 4] {
        [
            vec2(0.0, 0.0),
            vec2(1.0, 0.0),
            vec2(1.0, 1.0),
            vec2(0.0, 1.0),
        ]
    }

    #[test]
    fn closest_point_on_segment_clamps_and_handles_zero_length() {
        let (a, b) = (vec2(0.0, 0.0), vec2(2.0, 0.0));
        assert_eq!(
            closest_point_on_segment(vec2(1.0, 3.0), a, b),
            (vec2(1.0, 0.0), 0.5)
        );
        assert_eq!(closest_point_on_segment(vec2(-1.0, 3.0), a, b), (a, 0.0));
        assert_eq!(closest_point_on_segment(vec2(5.0, -1.0), a, b), (b, 1.0));
        assert_eq!(closest_point_on_segment(vec2(5.0, -1.0), a, a), (a, 0.0));
        assert_eq!(point_segment_distance_squared(vec2(1.0, 3.0), a, b), 9.0);
    }

    #[test]
    fn segments_touching_at_an_end_point_intersect() {
        let (a0, a1) = (vec2(0.0, 0.0), vec2(2.0, 0.0));
        assert!(segments_intersect(a0, a1, vec2(2.0, 0.0), vec2(3.0, 5.0)));
        assert!(segments_intersect(a0, a1, vec2(1.0, 0.0), vec2(1.0, 5.0)));
        assert!(!segments_intersect(a0, a1, vec2(1.0, 0.5), vec2(1.0, 5.0)));
        // Collinear: overlapping and disjoint.
        assert!(segments_intersect(a0, a1, vec2(1.5, 0.0), vec2(4.0, 0.0)));
        assert!(!segments_intersect(a0, a1, vec2(2.5, 0.0), vec2(4.0, 0.0)));
    }

    #[test]
    fn segment_closest_points_cross_and_apart() {
        let (p, q) = segment_segment_closest_points(
            vec2(0.0, 0.0),
            vec2(2.0, 2.0),
            vec2(0.0, 2.0),
            vec2(2.0, 0.0),
        );
        assert_eq!(p, q);
        assert!((p - vec2(1.0, 1.0)).norm() < 1e-6);
        let (p, q) = segment_segment_closest_points(
            vec2(0.0, 0.0),
            vec2(2.0, 0.0),
            vec2(3.0, 1.0),
            vec2(3.0, 4.0),
        );
        assert_eq!((p, q), (vec2(2.0, 0.0), vec2(3.0, 1.0)));
        let (p, q) = segment_segment_closest_points(
            vec2(0.0, 0.0),
            vec2(2.0, 0.0),
            vec2(1.0, 0.0),
            vec2(5.0, 0.0),
        );
        assert_eq!(p, q);
    }

    #[test]
    fn convex_polygon_containment_and_closest_point() {
        let square = square();
        assert!(point_in_convex_polygon(vec2(0.5, 0.5), &square));
        assert!(point_in_convex_polygon(vec2(1.0, 0.5), &square));
        assert!(!point_in_convex_polygon(vec2(1.0001, 0.5), &square));
        assert_eq!(
            closest_point_on_convex_polygon(vec2(0.5, 0.5), &square),
            vec2(0.5, 0.5)
        );
        assert_eq!(
            closest_point_on_convex_polygon(vec2(3.0, 0.5), &square),
            vec2(1.0, 0.5)
        );
        assert_eq!(
            closest_point_on_convex_polygon(vec2(3.0, 3.0), &square),
            vec2(1.0, 1.0)
        );
    }

    #[test]
    fn polygon_sat_touching_counts() {
        let a = square();
        let b = a.map(|v| v + vec2(1.0, 0.5));
        assert!(polygons_intersect(&a, &b));
        let c = a.map(|v| v + vec2(1.0001, 0.5));
        assert!(!polygons_intersect(&a, &c));
        let (p, q) = polygon_polygon_closest_points(&a, &c);
        assert!(((q - p).norm() - 0.0001).abs() < 1e-6);
    }

    #[test]
    fn segment_polygon_uses_the_segment_axis_too() {
        let triangle = [vec2(0.0, 0.0), vec2(2.0, 0.0), vec2(0.0, 2.0)];
        // Every triangle edge normal sees this segment overlapping; only its own axis separates.
        assert!(!segment_polygon_intersect(
            vec2(3.0, 0.5),
            vec2(1.5, -1.0),
            &triangle
        ));
        assert!(segment_polygon_intersect(
            vec2(3.0, 1.0),
            vec2(1.0, -1.0),
            &triangle
        ));
        assert!(segment_polygon_intersect(
            vec2(1.0, 1.0),
            vec2(3.0, -1.0),
            &triangle
        ));
        let (p, q) = segment_polygon_closest_points(vec2(2.0, 2.0), vec2(3.0, 3.0), &triangle);
        assert_eq!(p, vec2(2.0, 2.0));
        assert!((q - vec2(1.0, 1.0)).norm() < 1e-6);
    }

    #[test]
    fn max_separation_is_the_gap_along_the_best_axis() {
        let a = WorldPolygon::from_local_vertices(&square(), &Pose::IDENTITY);
        let b =
            WorldPolygon::from_local_vertices(&square(), &Pose::from_translation(vec2(1.5, 0.2)));
        let (separation, edge) = max_separation(&a, &b);
        assert!((separation - 0.5).abs() < 1e-6);
        assert_eq!(edge, 1);
    }

    #[test]
    fn line_offset_snaps_points_of_the_line() {
        let direction = vec2(5.0, -1.0).normalize();
        assert_eq!(line_offset(vec2(3.0, 5.0), direction, vec2(8.0, 4.0)), 0.0);
        assert!(line_offset(vec2(3.0, 5.0), direction, vec2(8.0, 4.01)) > 0.0);
        let foot = project_on_line(vec2(0.0, 0.0), vec2(1.0, 0.0), vec2(3.0, -2.0));
        assert_eq!(foot, vec2(3.0, 0.0));
    }

    #[test]
    fn even_odd_with_boundary_inside() {
        let l_shape = [
            vec2(0.0, 0.0),
            vec2(2.0, 0.0),
            vec2(2.0, 1.0),
            vec2(1.0, 1.0),
            vec2(1.0, 2.0),
            vec2(0.0, 2.0),
        ];
        assert!(point_in_simple_polygon(vec2(0.5, 1.5), &l_shape));
        assert!(point_in_simple_polygon(vec2(1.5, 0.5), &l_shape));
        assert!(!point_in_simple_polygon(vec2(1.5, 1.5), &l_shape));
        assert!(point_in_simple_polygon(vec2(1.5, 1.0), &l_shape)); // on an edge
        assert!(point_in_simple_polygon(vec2(1.0, 1.0), &l_shape)); // the reflex vertex
        assert!(!point_in_simple_polygon(vec2(-0.5, 1.0), &l_shape)); // ray through a vertex
        assert!(point_in_simple_polygon(vec2(0.5, 1.0), &l_shape)); // ray through the reflex vertex
    }
}
