//! A thick shot against a simple (possibly non-convex) polygon, through its
//! convex pieces.
//!
//! The polygon inflated by `r` is the union of its pieces inflated by `r`, so
//! the first contact is the earliest first contact over the pieces, and it
//! always lies on the outline (an interior diagonal is never the first thing
//! a shot from outside reaches). A shot that starts inside reports the
//! outline's normal: towards the shot's start from the closest outline point
//! when outside, out through the closest outline point when inside.

use super::cast_capsule_polygon::{cast_polygon_local, closest_boundary_point};
use super::local::{LocalHit, LocalShot, normalize_or};
use super::shot::{CastHit, Shot};
use crate::math::{Pose, Vec2};
use crate::shape::SimplePolygon;

/// First hit of `shot` on `polygon` placed at `pose` (world), or `None`.
///
/// # Examples
/// ```
/// use circlet::{math::{Pose, vec2}, shape::SimplePolygon};
/// use circlet::query::cast::{Shot, cast_capsule_simple_polygon};
/// let l_shape = SimplePolygon::new(&[vec2(0.0, 0.0), vec2(2.0, 0.0), vec2(2.0, 1.0),
///                                    vec2(1.0, 1.0), vec2(1.0, 2.0), vec2(0.0, 2.0)]).unwrap();
/// // Down into the notch: the hit is on the notch's floor at y = 1.
/// let shot = Shot::ray(vec2(1.5, 3.0), vec2(1.5, -1.0)).unwrap();
/// let hit = cast_capsule_simple_polygon(&shot, &l_shape, &Pose::IDENTITY).unwrap();
/// assert!((hit.point - vec2(1.5, 1.0)).norm() < 1e-5);
/// assert!((hit.normal - vec2(0.0, 1.0)).norm() < 1e-6);
/// ```
pub fn cast_capsule_simple_polygon(
    shot: &Shot,
    polygon: &SimplePolygon,
    pose: &Pose,
) -> Option<CastHit> {
    let local = LocalShot::new(shot, pose);
    let mut best: Option<LocalHit> = None;
    for piece in polygon.pieces() {
        if let Some(hit) = cast_polygon_local(&local, piece.vertices(), piece.normals(), 0.0) {
            if hit.started_inside {
                return Some(outline_start_hit(&local, polygon.vertices()).to_world(shot, pose));
            }
            if best.is_none_or(|b| hit.fraction < b.fraction) {
                best = Some(hit);
            }
        }
    }
    best.map(|hit| hit.to_world(shot, pose))
}

/// Every piece's entry hit (for piercing shots), in piece order, as
/// `(piece index, hit)`. A piece entered from a neighbouring piece reports
/// its shared diagonal as surface and normal.
pub(crate) fn cast_capsule_simple_polygon_pieces(
    shot: &Shot,
    polygon: &SimplePolygon,
    pose: &Pose,
    mut report: impl FnMut(usize, CastHit),
) {
    let local = LocalShot::new(shot, pose);
    for (index, piece) in polygon.pieces().iter().enumerate() {
        if let Some(hit) = cast_polygon_local(&local, piece.vertices(), piece.normals(), 0.0) {
            report(index, hit.to_world(shot, pose));
        }
    }
}

/// The start-inside hit measured against the outline.
fn outline_start_hit(shot: &LocalShot, outline: &[Vec2]) -> LocalHit {
    let (closest, edge) = closest_boundary_point(shot.start, outline);
    let next = outline[(edge + 1) % outline.len()];
    let edge_vector = next - outline[edge];
    let edge_normal = normalize_or(
        Vec2::new(edge_vector.y, -edge_vector.x),
        Vec2::new(0.0, 1.0),
    );
    let normal = if contains(outline, shot.start) {
        normalize_or(closest - shot.start, edge_normal)
    } else {
        normalize_or(shot.start - closest, edge_normal)
    };
    LocalHit::inside(closest, normal)
}

/// Even-odd point in polygon (boundary points may go either way; callers
/// only use it to orient a normal).
fn contains(outline: &[Vec2], p: Vec2) -> bool {
    let count = outline.len();
    let mut inside = false;
    for i in 0..count {
        let a = outline[i];
        let b = outline[(i + 1) % count];
        if (a.y > p.y) != (b.y > p.y) {
            // x of the edge at height p.y
            let x = a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x);
            if p.x < x {
                inside = !inside;
            }
        }
    }
    inside
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;

    fn l_shape() -> SimplePolygon {
        SimplePolygon::new(&[
            vec2(0.0, 0.0),
            vec2(2.0, 0.0),
            vec2(2.0, 1.0),
            vec2(1.0, 1.0),
            vec2(1.0, 2.0),
            vec2(0.0, 2.0),
        ])
        .unwrap()
    }

    #[test]
    fn first_hit_is_on_the_outline_not_a_diagonal() {
        // Horizontally through both pieces at y = 0.5, from the right.
        let shot = Shot::ray(vec2(5.0, 0.5), vec2(-5.0, 0.5)).unwrap();
        let hit = cast_capsule_simple_polygon(&shot, &l_shape(), &Pose::IDENTITY).unwrap();
        assert!((hit.point - vec2(2.0, 0.5)).norm() < 1e-5);
        assert!((hit.normal - vec2(1.0, 0.0)).norm() < 1e-6);
    }

    #[test]
    fn start_inside_uses_the_outline() {
        // Inside, near the reflex corner (1, 1): the closest outline point is
        // that corner, and the normal points from the start out through it.
        let shot = Shot::ray(vec2(0.9, 0.9), vec2(0.0, 0.0)).unwrap();
        let hit = cast_capsule_simple_polygon(&shot, &l_shape(), &Pose::IDENTITY).unwrap();
        assert!(hit.started_inside && hit.fraction == 0.0);
        assert!((hit.point - vec2(1.0, 1.0)).norm() < 1e-5);
        let diagonal = 0.5f32.sqrt();
        assert!((hit.normal - vec2(diagonal, diagonal)).norm() < 1e-5);
        // In the notch, within a thick shot's radius of the wall x = 1.
        let thick = Shot::new(vec2(1.1, 1.25), vec2(3.0, 3.0), 0.3).unwrap();
        let hit = cast_capsule_simple_polygon(&thick, &l_shape(), &Pose::IDENTITY).unwrap();
        assert!(hit.started_inside);
        assert!((hit.normal - vec2(1.0, 0.0)).norm() < 1e-5);
        assert!((hit.point - vec2(1.0, 1.25)).norm() < 1e-5);
    }

    #[test]
    fn every_piece_reports_its_entry() {
        let shot = Shot::ray(vec2(5.0, 0.5), vec2(-5.0, 0.5)).unwrap();
        let mut hits = Vec::new();
        cast_capsule_simple_polygon_pieces(&shot, &l_shape(), &Pose::IDENTITY, |i, h| {
            hits.push((i, h))
        });
        assert_eq!(hits.len(), l_shape().pieces().len());
        assert!(hits.iter().all(|(_, h)| !h.started_inside));
    }
}
