//! A thick shot against a convex polygon (Aabb, OrientedRect, ConvexPolygon,
//! TileTriangle): exact edge tests, no sampling.
//!
//! The shot's circle (radius `r`) touches the polygon exactly when its centre
//! is in the polygon inflated by `r` (the Minkowski sum with a disc), whose
//! boundary is every edge offset outwards by `r` plus an arc of radius `r`
//! around every vertex. The cast is a ray against that rounded polygon:
//!
//! 1. One pass over the edges computes the start's distance to each edge line
//!    (start inside?) and clips the ray against the offset half-planes
//!    (Cyrus–Beck); a half-plane never entered, or entered after the end,
//!    proves a miss.
//! 2. If the clip's entry point lies on the flat part of its offset edge, it
//!    is the first contact (the half-planes contain the rounded polygon).
//! 3. Otherwise the first contact is on a vertex arc (or there is none): the
//!    earliest of the vertex circles and of the flat offset edges, whose ends
//!    are widened by a rounding allowance so that a corner is never missed.

use super::cast_capsule_circle::circle_entry;
use super::local::{LocalHit, LocalShot, closest_on_segment, normalize_or};
use super::shot::{CastHit, Shot};
use crate::math::{Pose, Real, Vec2, cross, perp};

/// First hit of `shot` on the convex polygon with local counter-clockwise
/// `vertices` and outward unit `normals` (`normals[i]` belongs to the edge
/// from `vertices[i]` to `vertices[i + 1]`), placed at `pose` (world).
///
/// # Examples
/// ```
/// use circlet::{math::{Pose, vec2}, shape::ConvexPolygon};
/// use circlet::query::cast::{Shot, cast_capsule_polygon};
/// let square = ConvexPolygon::rectangle(vec2(-1.0, -1.0), vec2(1.0, 1.0)).unwrap();
/// let shot = Shot::new(vec2(-5.0, 0.0), vec2(5.0, 0.0), 0.5).unwrap();
/// let pose = Pose::from_translation(vec2(1.0, 0.0));
/// let hit = cast_capsule_polygon(&shot, square.vertices(), square.normals(), &pose).unwrap();
/// assert!((hit.fraction - 0.45).abs() < 1e-6);
/// assert!((hit.point - vec2(0.0, 0.0)).norm() < 1e-5);
/// assert!((hit.normal - vec2(-1.0, 0.0)).norm() < 1e-6);
/// ```
pub fn cast_capsule_polygon(
    shot: &Shot,
    vertices: &[Vec2],
    normals: &[Vec2],
    pose: &Pose,
) -> Option<CastHit> {
    let local = LocalShot::new(shot, pose);
    cast_polygon_local(&local, vertices, normals, 0.0).map(|hit| hit.to_world(shot, pose))
}

/// The cast in the polygon's frame; the polygon itself may be rounded by
/// `rounding` (>= 0), which the shot's radius adds to.
pub(crate) fn cast_polygon_local(
    shot: &LocalShot,
    vertices: &[Vec2],
    normals: &[Vec2],
    rounding: Real,
) -> Option<LocalHit> {
    let count = vertices.len().min(normals.len());
    if count == 0 {
        return None;
    }
    let inflated = rounding + shot.radius;
    let mut max_separation = Real::NEG_INFINITY;
    let mut max_edge = 0;
    let mut entry = 0.0;
    let mut entry_edge = None;
    for i in 0..count {
        let separation = normals[i].dot(&(shot.start - vertices[i]));
        if separation > max_separation {
            max_separation = separation;
            max_edge = i;
        }
        let gap = separation - inflated;
        if gap > 0.0 {
            // Outside this offset half-plane, which contains the rounded polygon.
            let approach = -normals[i].dot(&shot.delta);
            if approach <= 0.0 || gap > approach {
                return None; // never enters it, or only after the end
            }
            let fraction = gap / approach;
            if fraction > entry {
                entry = fraction;
                entry_edge = Some(i);
            }
        }
    }

    if max_separation <= inflated {
        if max_separation <= 0.0 {
            // Inside the polygon: leave through the face of least penetration.
            let normal = normals[max_edge];
            return Some(LocalHit::inside(
                shot.start + normal * (rounding - max_separation),
                normal,
            ));
        }
        let (closest, _) = closest_boundary_point(shot.start, &vertices[..count]);
        let offset = shot.start - closest;
        if offset.norm_squared() <= inflated * inflated {
            let normal = normalize_or(offset, normals[max_edge]);
            return Some(LocalHit::inside(closest + normal * rounding, normal));
        }
        // Otherwise the start is beside a vertex, outside its arc.
    }

    let edge_span = |i: usize| {
        let along_edge = perp(normals[i]);
        (
            along_edge,
            (vertices[(i + 1) % count] - vertices[i]).dot(&along_edge),
        )
    };
    // Fast path: the clip entry is on the flat part of its offset edge.
    if let Some(i) = entry_edge {
        let centre = shot.start + shot.delta * entry;
        let (along_edge, length) = edge_span(i);
        let along = (centre - vertices[i]).dot(&along_edge);
        if (0.0..=length).contains(&along) {
            return Some(flat_hit(shot, entry, normals[i]));
        }
    }

    // Slow path: earliest of the offset edges (widened ends) and vertex arcs.
    // (fraction, the edge if on its flat part, else the vertex)
    let mut best: Option<(Real, Result<usize, usize>)> = None;
    for i in 0..count {
        let gap = normals[i].dot(&(shot.start - vertices[i])) - inflated;
        let approach = -normals[i].dot(&shot.delta);
        if gap > 0.0 && approach > 0.0 {
            let fraction = gap / approach;
            let centre = shot.start + shot.delta * fraction;
            let (along_edge, length) = edge_span(i);
            let along = (centre - vertices[i]).dot(&along_edge);
            let slack = shot.slack(length.abs());
            let feature = if along < 0.0 {
                Err(i)
            } else if along > length {
                Err((i + 1) % count)
            } else {
                Ok(i)
            };
            if along >= -slack && along <= length + slack && best.is_none_or(|(f, _)| fraction < f)
            {
                best = Some((fraction, feature));
            }
        }
    }
    if inflated > 0.0 {
        for (j, vertex) in vertices[..count].iter().enumerate() {
            if let Some(fraction) = circle_entry(shot.start, shot.delta, *vertex, inflated)
                && best.is_none_or(|(f, _)| fraction < f)
            {
                best = Some((fraction, Err(j)));
            }
        }
    }
    let (fraction, feature) = best?;
    match feature {
        Ok(edge) => Some(flat_hit(shot, fraction, normals[edge])),
        Err(vertex) => {
            // On a vertex arc, or just past an edge's end (within the
            // widening): the normal is the direction from the corner to the
            // shot, kept inside the corner's cone of normals.
            let centre = shot.start + shot.delta * fraction;
            let corner = vertices[vertex];
            let before = normals[(vertex + count - 1) % count];
            let normal = corner_normal(centre - corner, before, normals[vertex]);
            Some(LocalHit {
                fraction,
                point: corner + normal * rounding,
                normal,
                started_inside: false,
            })
        }
    }
}

/// The outward unit normal at a convex corner towards `offset`: its
/// direction when inside the corner's cone of normals (from `before`, the
/// normal of the edge ending at the corner, counter-clockwise to `after`),
/// else the nearer edge normal.
fn corner_normal(offset: Vec2, before: Vec2, after: Vec2) -> Vec2 {
    if cross(before, offset) >= 0.0 && cross(offset, after) >= 0.0 {
        normalize_or(offset, normalize_or(before + after, after))
    } else if offset.dot(&before) > offset.dot(&after) {
        before
    } else {
        after
    }
}

/// A hit on the flat part of an offset edge with outward `normal`.
fn flat_hit(shot: &LocalShot, fraction: Real, normal: Vec2) -> LocalHit {
    let centre = shot.start + shot.delta * fraction;
    LocalHit {
        fraction,
        point: centre - normal * shot.radius,
        normal,
        started_inside: false,
    }
}

/// The point of the closed polyline `vertices` (cyclic) closest to `p`, and its edge.
pub(crate) fn closest_boundary_point(p: Vec2, vertices: &[Vec2]) -> (Vec2, usize) {
    let count = vertices.len();
    let mut best = (vertices[0], 0);
    let mut best_distance = Real::INFINITY;
    for i in 0..count {
        let candidate = closest_on_segment(p, vertices[i], vertices[(i + 1) % count]);
        let distance = (p - candidate).norm_squared();
        if distance < best_distance {
            best_distance = distance;
            best = (candidate, i);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;
    use crate::shape::ConvexPolygon;

    fn square() -> ConvexPolygon {
        ConvexPolygon::rectangle(vec2(-1.0, -1.0), vec2(1.0, 1.0)).unwrap()
    }

    fn cast(start: Vec2, delta: Vec2, radius: Real) -> Option<LocalHit> {
        let polygon = square();
        cast_polygon_local(
            &LocalShot {
                start,
                delta,
                radius,
            },
            polygon.vertices(),
            polygon.normals(),
            0.0,
        )
    }

    #[test]
    fn ray_hits_face_and_corner_exactly() {
        let face = cast(vec2(-3.0, 0.5), vec2(4.0, 0.0), 0.0).unwrap();
        assert!((face.fraction - 0.5).abs() < 1e-6);
        assert!((face.normal - vec2(-1.0, 0.0)).norm() < 1e-6);
        // Through the corner (1, 1) exactly, diagonally: touching counts.
        let corner = cast(vec2(3.0, 3.0), vec2(-4.0, -4.0), 0.0).unwrap();
        assert!((corner.fraction - 0.5).abs() < 1e-6);
        assert!((corner.point - vec2(1.0, 1.0)).norm() < 1e-5);
        // Grazing the corner (-1, -1) along the line x + y = -2.
        let graze = cast(vec2(-3.0, 1.0), vec2(6.0, -6.0), 0.0).unwrap();
        assert!((graze.fraction - 1.0 / 3.0).abs() < 1e-6);
        // Sliding along the top face touches it; just above it misses.
        let slide = cast(vec2(-3.0, 1.0), vec2(6.0, 0.0), 0.0).unwrap();
        assert!((slide.fraction - 1.0 / 3.0).abs() < 1e-6);
        assert!(cast(vec2(-3.0, 1.01), vec2(6.0, 0.0), 0.0).is_none());
    }

    #[test]
    fn thick_shot_rounds_the_corners() {
        // Diagonal towards the corner (1, 1) with radius 0.5: hits the arc.
        let hit = cast(vec2(3.0, 3.0), vec2(-4.0, -4.0), 0.5).unwrap();
        let centre = vec2(3.0, 3.0) + vec2(-4.0, -4.0) * hit.fraction;
        assert!(((centre - vec2(1.0, 1.0)).norm() - 0.5).abs() < 1e-5);
        assert!((hit.point - vec2(1.0, 1.0)).norm() < 1e-5);
        let diagonal = 0.5f32.sqrt();
        assert!((hit.normal - vec2(diagonal, diagonal)).norm() < 1e-5);
        // Passing the corner at 0.4 from the diagonal corner: arc hit; at 0.6: miss.
        let near = vec2(1.0, 1.0) + vec2(diagonal, diagonal) * 0.4;
        let tangent = vec2(-diagonal, diagonal);
        assert!(cast(near - tangent * 3.0, tangent * 6.0, 0.5).is_some());
        let far = vec2(1.0, 1.0) + vec2(diagonal, diagonal) * 0.6;
        assert!(cast(far - tangent * 3.0, tangent * 6.0, 0.5).is_none());
    }

    #[test]
    fn start_inside_or_within_radius() {
        let inside = cast(vec2(0.9, 0.0), vec2(-5.0, 0.0), 0.0).unwrap();
        assert!(inside.started_inside);
        assert!((inside.normal - vec2(1.0, 0.0)).norm() < 1e-6);
        assert!((inside.point - vec2(1.0, 0.0)).norm() < 1e-6);
        let near = cast(vec2(1.3, 1.3), vec2(5.0, 0.0), 0.5).unwrap();
        assert!(near.started_inside);
        let diagonal = 0.5f32.sqrt();
        assert!((near.normal - vec2(diagonal, diagonal)).norm() < 1e-5);
        // Beside the corner but outside its arc: not inside, and moving away misses.
        assert!(cast(vec2(1.4, 1.4), vec2(5.0, 5.0), 0.5).is_none());
    }

    #[test]
    fn rays_through_a_corner_never_slip_between_its_edges() {
        // Rays entering exactly through a vertex, far from the origin: rounding
        // puts the entry a hair beyond one edge's end and before the next
        // one's start; the widened ends must still catch it.
        use crate::math::Pose;
        let polygon = ConvexPolygon::regular(5, 0.7, 0.3).unwrap();
        let mut cases = 0;
        for step in 0..400 {
            let angle = step as Real * 0.0157;
            let pose = Pose::new(vec2(1234.5, -987.25), angle).with_scale(1.3);
            for (vertex, (n0, n1)) in polygon.vertices().iter().zip(
                polygon
                    .normals()
                    .iter()
                    .zip(polygon.normals().iter().cycle().skip(polygon.len() - 1)),
            ) {
                let corner = pose.transform_point(*vertex);
                let outward = pose.rotate((n0 + n1).normalize());
                let shot = Shot::ray(corner + outward * 300.0, corner - outward * 0.5).unwrap();
                let hit = cast_capsule_polygon(&shot, polygon.vertices(), polygon.normals(), &pose);
                assert!(hit.is_some(), "missed corner {corner:?} at angle {angle}");
                cases += 1;
            }
        }
        assert_eq!(cases, 2000);
    }

    #[test]
    fn zero_length_shot() {
        assert!(cast(vec2(3.0, 0.0), vec2(0.0, 0.0), 0.5).is_none());
        assert!(
            cast(vec2(0.0, 0.0), vec2(0.0, 0.0), 0.0)
                .unwrap()
                .started_inside
        );
        assert!(cast(vec2(1.4, 1.4), vec2(0.0, 0.0), 0.5).is_none());
    }
}
