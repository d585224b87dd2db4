//! A shot mapped into a target's local frame, and the hit that comes back.
//!
//! Casting in the target's frame keeps the precision of the shape's own
//! coordinates and never transforms the target's vertices. A uniform scale
//! does not change fractions: the local shot has radius `radius / scale`.

use super::shot::{CastHit, Shot};
use crate::math::{Pose, Real, Vec2, is_finite_vec};

/// Rounding allowance of the hit tests, in ulps of the coordinates involved:
/// a hit point computed from a shot of magnitude `m` (start, motion and edge
/// length in the target's frame) is off by about `f32::EPSILON * m`, and an
/// edge's ends are widened by this many so that a shot through a corner is
/// never lost between an edge and its neighbour. A shot that passes that
/// close outside a corner is reported as touching it.
pub(crate) const ROUNDING_ULPS: Real = 4.0;

/// A shot in a target's local frame.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LocalShot {
    /// Centre at the start of the (ranged) sweep.
    pub start: Vec2,
    /// Motion of the centre over the (ranged) sweep.
    pub delta: Vec2,
    /// Radius of the swept circle (local units).
    pub radius: Real,
}

impl LocalShot {
    /// Maps a world shot into the local frame of `pose`.
    #[inline]
    pub fn new(shot: &Shot, pose: &Pose) -> Self {
        let (start, delta) = shot.ranged();
        if pose.scale == 1.0 {
            // Dividing by 1 is exact: the same values as below, without
            // five divisions on the path of every unscaled cast.
            return LocalShot {
                start: pose.inverse_rotate(start - pose.translation),
                delta: pose.inverse_rotate(delta),
                radius: shot.radius(),
            };
        }
        LocalShot {
            start: pose.inverse_transform_point(start),
            delta: pose.inverse_transform_vector(delta),
            radius: shot.radius() / pose.scale,
        }
    }

    /// Absolute rounding allowance for positions along this shot (local units).
    pub fn slack(&self, feature_size: Real) -> Real {
        ROUNDING_ULPS
            * Real::EPSILON
            * (self.start.abs().max() + self.delta.abs().max() + feature_size)
    }
}

/// A hit in the target's local frame; `fraction` is of the ranged sweep.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct LocalHit {
    pub fraction: Real,
    /// On the target's surface (local).
    pub point: Vec2,
    /// Unit, out of the target (local).
    pub normal: Vec2,
    pub started_inside: bool,
}

impl LocalHit {
    /// The hit back in world coordinates, fraction relative to the whole shot.
    pub fn to_world(self, shot: &Shot, pose: &Pose) -> CastHit {
        CastHit {
            fraction: shot.unrange(self.fraction),
            point: pose.transform_point(self.point),
            normal: pose.rotate(self.normal),
            started_inside: self.started_inside,
            part: None,
        }
    }

    /// A hit at fraction 0 for a shot that starts inside or touching.
    pub fn inside(point: Vec2, normal: Vec2) -> Self {
        LocalHit {
            fraction: 0.0,
            point,
            normal,
            started_inside: true,
        }
    }
}

/// `v / |v|`, or `fallback` when `v` is zero, too small to normalize, or not finite.
#[inline]
pub(crate) fn normalize_or(v: Vec2, fallback: Vec2) -> Vec2 {
    normalize_or_else(v, || fallback)
}

/// [`normalize_or`] with the fallback computed only when it is needed.
#[inline]
pub(crate) fn normalize_or_else(v: Vec2, fallback: impl FnOnce() -> Vec2) -> Vec2 {
    let length_squared = v.norm_squared();
    if length_squared > 0.0 && length_squared.is_finite() {
        let unit = v / length_squared.sqrt();
        if is_finite_vec(unit) {
            return unit;
        }
    }
    fallback()
}

/// The normal used when no surface direction is defined (a shot starting at a
/// circle's centre): back along the shot, or up for a motionless shot.
#[inline]
pub(crate) fn against_motion(delta: Vec2) -> Vec2 {
    normalize_or(-delta, Vec2::new(0.0, 1.0))
}

/// Closest point of segment `a`–`b` to `p`.
#[inline]
pub(crate) fn closest_on_segment(p: Vec2, a: Vec2, b: Vec2) -> Vec2 {
    let edge = b - a;
    let length_squared = edge.norm_squared();
    if length_squared <= 0.0 {
        return a;
    }
    // dot(p - (a + u * edge), edge) = 0, clamped to the segment.
    let u = ((p - a).dot(&edge) / length_squared).clamp(0.0, 1.0);
    a + edge * u
}

/// Calls `f` with the local counter-clockwise vertices and outward unit
/// normals of a convex polygon-like shape (Aabb, OrientedRect, ConvexPolygon,
/// TileTriangle); `None` for every other kind. Boxes live on the stack.
pub(crate) fn with_local_polygon<R>(
    shape: &crate::shape::Shape,
    f: impl FnOnce(&[Vec2], &[Vec2]) -> R,
) -> Option<R> {
    use crate::shape::Shape;
    match shape {
        Shape::ConvexPolygon(polygon) => Some(f(polygon.vertices(), polygon.normals())),
        Shape::Aabb(aabb) => {
            let normals = [
                Vec2::new(0.0, -1.0),
                Vec2::new(1.0, 0.0),
                Vec2::new(0.0, 1.0),
                Vec2::new(-1.0, 0.0),
            ];
            Some(f(&aabb.vertices(), &normals))
        }
        Shape::OrientedRect(rect) => {
            let [x_axis, y_axis] = rect.axes();
            Some(f(&rect.vertices(), &[-y_axis, x_axis, y_axis, -x_axis]))
        }
        Shape::TileTriangle(tile) => {
            let vertices = tile.vertices();
            let normals = std::array::from_fn::<Vec2, 3, _>(|i| {
                let edge = vertices[(i + 1) % 3] - vertices[i];
                normalize_or(Vec2::new(edge.y, -edge.x), Vec2::new(0.0, 1.0))
            });
            Some(f(&vertices, &normals))
        }
        _ => None,
    }
}

pub(crate) use super::cast_capsule_capsule::cast_segment_local;
pub(crate) use super::cast_capsule_circle::{cast_circle_local, circle_entry};
pub(crate) use super::cast_capsule_polygon::cast_polygon_local;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;

    #[test]
    fn normalize_falls_back_instead_of_nan() {
        let up = vec2(0.0, 1.0);
        assert_eq!(normalize_or(vec2(3.0, 4.0), up), vec2(0.6, 0.8));
        assert_eq!(normalize_or(vec2(0.0, 0.0), up), up);
        assert_eq!(normalize_or(vec2(1e-30, 0.0), up), up); // squares underflow
        assert_eq!(normalize_or(vec2(Real::NAN, 0.0), up), up);
        assert_eq!(normalize_or(vec2(Real::INFINITY, 0.0), up), up);
        assert_eq!(against_motion(vec2(0.0, 0.0)), up);
        assert_eq!(against_motion(vec2(2.0, 0.0)), vec2(-1.0, 0.0));
    }

    #[test]
    fn local_shot_divides_the_radius_by_the_scale() {
        let shot = Shot::new(vec2(1.0, 1.0), vec2(3.0, 1.0), 0.5).unwrap();
        let pose = Pose::new(vec2(1.0, 0.0), std::f32::consts::FRAC_PI_2).with_scale(2.0);
        let local = LocalShot::new(&shot, &pose);
        assert!((local.start - vec2(0.5, 0.0)).norm() < 1e-6);
        assert!((local.delta - vec2(0.0, -1.0)).norm() < 1e-6);
        assert_eq!(local.radius, 0.25);
    }
}
