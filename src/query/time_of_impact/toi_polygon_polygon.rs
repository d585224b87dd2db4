//! Time of impact of two convex polygons under linear motion: the SAT
//! interval method (seed 002's prediction, corrected).
//!
//! On each separating-axis candidate (every edge normal of both polygons) the
//! projections of A and of B are intervals, and B's slides at the constant
//! speed `w · axis`, `w` being B's motion relative to A. They overlap during
//! one interval of time `[entry, exit]` (all time if the axis speed is 0 and
//! they overlap, never if it is 0 and they do not). The polygons overlap
//! exactly when they overlap on every axis, so the first contact is the
//! **largest** entry over the axes, provided it is not after the **smallest**
//! exit; the normal is the axis of that largest entry, oriented from A to B.
//! (Seed 002 takes the smallest time, which reports contacts that never
//! happen.) The edge normals of both polygons are exactly the edge normals of
//! their Minkowski difference, so this is also an exact ray cast against it.
//!
//! The normal comes from a face that can touch: an edge normal of A facing
//! B (`+n_A`), or one of B facing A (`-n_B`). The axis line of a face also
//! gives an entry for the opposite direction, the support there being a
//! vertex; in exact arithmetic that entry is the largest only at a tie with
//! a face that touches (the ray meets the Minkowski difference at a vertex).
//! In f32 it can win such a tie by rounding: the back face of a thin polygon
//! is nearly antiparallel to the front face that touches. Its normal would
//! tilt the contact plane, so the support feature on the thin polygon would
//! be one end of the touching face and the point would land between
//! features, off one of the surfaces. The fraction is still the largest entry
//! over all axes.

use super::swept::{MovedCore, contact_point};
use super::types::{Toi, ToiStatus};
use crate::math::{Real, Vec2};
use crate::query::WorldPolygon;

/// Time of impact of convex polygons A and B (counter-clockwise, with outward
/// unit normals); world coordinates (or any common origin), motions in metres
/// per step.
///
/// # Examples
/// ```
/// use circlet::math::{Pose, vec2};
/// use circlet::query::WorldPolygon;
/// use circlet::query::time_of_impact::toi_polygon_polygon;
/// let square = [vec2(-0.5, -0.5), vec2(0.5, -0.5), vec2(0.5, 0.5), vec2(-0.5, 0.5)];
/// let a = WorldPolygon::from_local_vertices(&square, &Pose::from_translation(vec2(-5.0, 0.0)));
/// let b = WorldPolygon::from_local_vertices(&square, &Pose::from_translation(vec2(5.0, 0.2)));
/// let toi = toi_polygon_polygon(&a, vec2(6.0, 0.0), &b, vec2(-6.0, 0.0)).unwrap();
/// assert!((toi.fraction - 0.75).abs() < 1e-6);
/// assert!((toi.normal - vec2(1.0, 0.0)).norm() < 1e-6);
/// assert!((toi.point - vec2(0.0, 0.1)).norm() < 1e-5);
/// ```
pub fn toi_polygon_polygon(
    polygon_a: &WorldPolygon,
    motion_a: Vec2,
    polygon_b: &WorldPolygon,
    motion_b: Vec2,
) -> Option<Toi> {
    if polygon_a.vertices.is_empty() || polygon_b.vertices.is_empty() {
        return None;
    }
    let relative_motion = motion_b - motion_a;
    let mut entry = Real::NEG_INFINITY;
    let mut entry_normal = Vec2::new(0.0, 1.0);
    // The largest entry through a face that can touch, and its normal.
    let mut face_entry = Real::NEG_INFINITY;
    let mut face_normal = Vec2::new(0.0, 1.0);
    let mut exit = Real::INFINITY;
    // Least penetration at the start, in case they already overlap.
    let mut least_depth = Real::INFINITY;
    let mut least_normal = Vec2::new(0.0, 1.0);
    let count_a = polygon_a.normals.len();
    for (index, axis) in polygon_a
        .normals
        .iter()
        .chain(&polygon_b.normals)
        .enumerate()
    {
        let (a_min, a_max) = project(&polygon_a.vertices, axis);
        let (b_min, b_max) = project(&polygon_b.vertices, axis);
        let speed = relative_motion.dot(axis);
        // B overlaps A on this axis at time t iff
        //   b_min + speed t <= a_max  and  b_max + speed t >= a_min.
        let (axis_entry, axis_exit, normal) = if speed == 0.0 {
            if b_min > a_max || b_max < a_min {
                return None; // apart on this axis for the whole step
            }
            (Real::NEG_INFINITY, Real::INFINITY, *axis)
        } else {
            let reach_top = (a_max - b_min) / speed; // b_min meets a_max
            let reach_bottom = (a_min - b_max) / speed; // b_max meets a_min
            if speed > 0.0 {
                (reach_bottom, reach_top, -axis) // B comes up from below A
            } else {
                (reach_top, reach_bottom, *axis) // B comes down from above A
            }
        };
        if axis_entry > entry {
            entry = axis_entry;
            entry_normal = normal;
        }
        // A's face touches when B comes down onto it (`normal == axis`), B's
        // when B comes up onto A (`normal == -axis`).
        let touches = if index < count_a {
            speed < 0.0
        } else {
            speed > 0.0
        };
        if touches && axis_entry > face_entry {
            face_entry = axis_entry;
            face_normal = normal;
        }
        exit = exit.min(axis_exit);
        if entry > exit || exit < 0.0 || entry > 1.0 {
            return None;
        }
        // Depth to push B out along +axis, or along -axis.
        let (depth_up, depth_down) = (a_max - b_min, b_max - a_min);
        let (depth, direction) = if depth_up <= depth_down {
            (depth_up, *axis)
        } else {
            (depth_down, -axis)
        };
        if depth < least_depth {
            least_depth = depth;
            least_normal = direction;
        }
    }
    let (fraction, normal, status) = if entry <= 0.0 {
        (0.0, least_normal, ToiStatus::OverlappingAtStart)
    } else {
        // Some face always touches (the normals of the Minkowski difference
        // span the plane); the fallback is for speeds that round to zero.
        let normal = if face_entry > Real::NEG_INFINITY {
            face_normal
        } else {
            entry_normal
        };
        (entry, normal, ToiStatus::Touching)
    };
    let point = contact_point(
        MovedCore {
            core: &polygon_a.vertices,
            offset: motion_a * fraction,
            radius: 0.0,
        },
        MovedCore {
            core: &polygon_b.vertices,
            offset: motion_b * fraction,
            radius: 0.0,
        },
        normal,
    );
    Some(Toi::closed_form(fraction, normal, point, status))
}

/// The interval `[min, max]` of `vertices` projected on `axis`.
#[inline]
fn project(vertices: &[Vec2], axis: &Vec2) -> (Real, Real) {
    let (mut low, mut high) = (Real::INFINITY, Real::NEG_INFINITY);
    for v in vertices {
        let x = axis.x * v.x + axis.y * v.y;
        // Plain comparisons: the inputs are finite, no NaN handling needed.
        if x < low {
            low = x;
        }
        if x > high {
            high = x;
        }
    }
    (low, high)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Pose, vec2};

    fn square(center: Vec2, half: Real, angle: Real) -> WorldPolygon {
        let corners = [
            vec2(-half, -half),
            vec2(half, -half),
            vec2(half, half),
            vec2(-half, half),
        ];
        WorldPolygon::from_local_vertices(&corners, &Pose::new(center, angle))
    }

    #[test]
    fn largest_entry_not_smallest() {
        // B passes above A diagonally: per-axis entries on x and y both
        // happen, but at different times; the y-overlap ends before the
        // x-overlap starts, so there is no contact. The smallest-entry rule
        // of seed 002 would report one.
        let a = square(vec2(0.0, 0.0), 0.5, 0.0);
        let b = square(vec2(-3.0, 1.5), 0.5, 0.0);
        assert!(toi_polygon_polygon(&a, vec2(0.0, 0.0), &b, vec2(6.0, -0.5)).is_none());
        // Steeper: y-overlap during [1/6, 5/6], x-overlap during [2/3, 4/3],
        // so B meets A's left face at 2/3 (the larger entry).
        let toi = toi_polygon_polygon(&a, vec2(0.0, 0.0), &b, vec2(3.0, -3.0)).unwrap();
        assert!((toi.fraction - 2.0 / 3.0).abs() < 1e-6);
        assert!((toi.normal - vec2(-1.0, 0.0)).norm() < 1e-6);
        assert!((toi.point - vec2(-0.5, -0.25)).norm() < 1e-5);
    }

    #[test]
    fn rotated_squares_corner_to_face() {
        let a = square(vec2(0.0, 0.0), 1.0, 0.0);
        let diamond = square(vec2(5.0, 0.0), 1.0, std::f32::consts::FRAC_PI_4);
        let toi = toi_polygon_polygon(&a, vec2(0.0, 0.0), &diamond, vec2(-4.0, 0.0)).unwrap();
        // The diamond's left corner at 5 - sqrt 2 meets x = 1.
        let expected = (4.0 - 2f32.sqrt()) / 4.0;
        assert!((toi.fraction - expected).abs() < 1e-5);
        assert!((toi.normal - vec2(1.0, 0.0)).norm() < 1e-5);
        assert!((toi.point - vec2(1.0, 0.0)).norm() < 1e-4);
    }

    #[test]
    fn overlap_at_start_and_separating() {
        let a = square(vec2(0.0, 0.0), 1.0, 0.0);
        let b = square(vec2(1.8, 0.5), 1.0, 0.0);
        let toi = toi_polygon_polygon(&a, vec2(0.0, 0.0), &b, vec2(5.0, 0.0)).unwrap();
        assert_eq!(toi.status, ToiStatus::OverlappingAtStart);
        assert!((toi.normal - vec2(1.0, 0.0)).norm() < 1e-6);
        let apart = square(vec2(3.0, 0.0), 1.0, 0.0);
        assert!(toi_polygon_polygon(&a, vec2(0.0, 0.0), &apart, vec2(5.0, 0.0)).is_none());
        assert!(toi_polygon_polygon(&a, vec2(0.0, 0.0), &apart, vec2(0.0, 0.0)).is_none());
    }
}
