//! Time of impact of moving capsules (segments included), and the shared
//! reduction for every rounded convex pair without its own closed form.
//!
//! Two rounded cores A (radius `ra`) and B (radius `rb`) touch when the
//! distance between the cores is `ra + rb`, i.e. when some `b - a` of the
//! Minkowski difference `M = B ⊖ A` (a convex polygon, segment or point) is
//! within `ra + rb` of the relative displacement. With `w` B's motion
//! relative to A, that is a ray from the origin along `-w` against `M`
//! inflated by `ra + rb`: the exact thick cast of `cast_capsule_polygon`.
//! The cast's normal points out of `M`, towards the shot, which is from B's
//! closest point towards A's: the contact normal from A to B is its negation.

use super::swept::{MovedCore, contact_point, minkowski_difference};
use super::types::{Toi, ToiStatus};
use crate::math::{Real, Vec2};
use crate::query::cast::local::{
    LocalShot, cast_circle_local, cast_polygon_local, cast_segment_local,
};

/// Time of impact of capsule A (core `segment_a`, `radius_a`) and capsule B;
/// world coordinates (or any common origin), motions in metres per step.
///
/// # Examples
/// ```
/// use circlet::math::vec2;
/// use circlet::query::time_of_impact::toi_capsule_capsule;
/// let a = [vec2(0.0, -1.0), vec2(0.0, 1.0)];
/// let b = [vec2(10.0, -1.0), vec2(10.0, 1.0)];
/// let toi = toi_capsule_capsule(a, 0.5, vec2(4.5, 0.0), b, 0.5, vec2(-4.5, 0.0)).unwrap();
/// assert!((toi.fraction - 1.0).abs() < 1e-6);
/// assert!((toi.point - vec2(5.0, 0.0)).norm() < 1e-5);
/// ```
pub fn toi_capsule_capsule(
    segment_a: [Vec2; 2],
    radius_a: Real,
    motion_a: Vec2,
    segment_b: [Vec2; 2],
    radius_b: Real,
    motion_b: Vec2,
) -> Option<Toi> {
    toi_rounded(
        &segment_a, radius_a, motion_a, &segment_b, radius_b, motion_b,
    )
}

/// Time of impact of any two rounded convex cores (points, segments or CCW
/// convex polygons) by a thick cast against their Minkowski difference.
pub(crate) fn toi_rounded(
    core_a: &[Vec2],
    radius_a: Real,
    motion_a: Vec2,
    core_b: &[Vec2],
    radius_b: Real,
    motion_b: Vec2,
) -> Option<Toi> {
    let difference = minkowski_difference(core_a, core_b);
    let relative_motion = motion_b - motion_a;
    let shot = LocalShot {
        start: Vec2::zeros(),
        delta: -relative_motion,
        radius: 0.0,
    };
    let reach = radius_a + radius_b;
    let hull = &difference.vertices;
    let hit = match hull.len() {
        1 => cast_circle_local(&shot, hull[0], reach),
        2 => cast_segment_local(&shot, hull[0], hull[1], reach),
        _ => cast_polygon_local(&shot, hull, &difference.normals, reach),
    }?;
    let normal = -hit.normal;
    let fraction = hit.fraction;
    let point = contact_point(
        MovedCore {
            core: core_a,
            offset: motion_a * fraction,
            radius: radius_a,
        },
        MovedCore {
            core: core_b,
            offset: motion_b * fraction,
            radius: radius_b,
        },
        normal,
    );
    let status = if hit.started_inside {
        ToiStatus::OverlappingAtStart
    } else {
        ToiStatus::Touching
    };
    Some(Toi::closed_form(fraction, normal, point, status))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;

    #[test]
    fn crossing_capsules_touch_where_the_gap_closes() {
        // A horizontal bar falls onto a vertical one's top end cap.
        let a = [vec2(-2.0, 5.0), vec2(2.0, 5.0)];
        let b = [vec2(0.5, -3.0), vec2(0.5, 1.0)];
        let toi = toi_capsule_capsule(a, 0.25, vec2(0.0, -8.0), b, 0.25, vec2(0.0, 0.0)).unwrap();
        // Core gap 4 - 0.5 = 3.5 over 8 m.
        assert!((toi.fraction - 3.5 / 8.0).abs() < 1e-6);
        assert!((toi.normal - vec2(0.0, -1.0)).norm() < 1e-6);
        assert!((toi.point - vec2(0.5, 1.25)).norm() < 1e-5);
    }

    #[test]
    fn parallel_capsules_passing_side_by_side_miss() {
        let a = [vec2(0.0, 0.0), vec2(1.0, 0.0)];
        let b = [vec2(5.0, 0.6), vec2(6.0, 0.6)];
        assert!(toi_capsule_capsule(a, 0.25, vec2(10.0, 0.0), b, 0.25, vec2(0.0, 0.0)).is_none());
        let b_close = [vec2(5.0, 0.5), vec2(6.0, 0.5)];
        assert!(
            toi_capsule_capsule(a, 0.25, vec2(10.0, 0.0), b_close, 0.25, vec2(0.0, 0.0)).is_some()
        );
    }
}
