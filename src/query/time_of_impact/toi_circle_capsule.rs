//! Time of impact of a moving circle and a moving capsule (points and segments
//! included): a thick cast of the circle in the capsule's frame of motion.

use super::types::{Toi, ToiStatus};
use crate::math::{Real, Vec2};
use crate::query::cast::local::{LocalHit, LocalShot};

/// Time of impact of circle A and capsule B (core `segment_b`, `radius_b`);
/// world coordinates (or any common origin), motions in metres per step.
///
/// # Examples
/// ```
/// use circlet::math::vec2;
/// use circlet::query::time_of_impact::toi_circle_capsule;
/// let bar = [vec2(5.0, -1.0), vec2(5.0, 1.0)];
/// let toi = toi_circle_capsule(vec2(0.0, 0.0), 0.5, vec2(10.0, 0.0), bar, 0.5, vec2(0.0, 0.0)).unwrap();
/// assert!((toi.fraction - 0.4).abs() < 1e-6);
/// ```
pub fn toi_circle_capsule(
    center_a: Vec2,
    radius_a: Real,
    motion_a: Vec2,
    segment_b: [Vec2; 2],
    radius_b: Real,
    motion_b: Vec2,
) -> Option<Toi> {
    // In B's frame of motion A's centre sweeps by motion_a - motion_b.
    let shot = LocalShot {
        start: center_a,
        delta: motion_a - motion_b,
        radius: radius_a,
    };
    let hit =
        crate::query::cast::local::cast_segment_local(&shot, segment_b[0], segment_b[1], radius_b)?;
    Some(from_relative_hit(
        hit, center_a, radius_a, motion_a, motion_b,
    ))
}

/// A [`Toi`] from a circle's thick cast against B in B's frame of motion:
/// the cast's normal points out of B (towards A), its point is on B's surface
/// at the start of the step.
pub(crate) fn from_relative_hit(
    hit: LocalHit,
    center_a: Vec2,
    radius_a: Real,
    motion_a: Vec2,
    motion_b: Vec2,
) -> Toi {
    let fraction = hit.fraction;
    let normal = -hit.normal;
    let surface_a = center_a + motion_a * fraction + normal * radius_a;
    let surface_b = hit.point + motion_b * fraction;
    let status = if hit.started_inside {
        ToiStatus::OverlappingAtStart
    } else {
        ToiStatus::Touching
    };
    Toi::closed_form(fraction, normal, (surface_a + surface_b) * 0.5, status)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;

    #[test]
    fn end_cap_and_overlap() {
        let bar = [vec2(0.0, 0.0), vec2(4.0, 0.0)];
        // Along the bar's axis into its end cap, the bar moving away slower.
        let toi = toi_circle_capsule(
            vec2(10.0, 0.0),
            1.0,
            vec2(-8.0, 0.0),
            bar,
            1.0,
            vec2(2.0, 0.0),
        )
        .unwrap();
        assert!((toi.fraction - 0.4).abs() < 1e-6);
        assert!((toi.normal - vec2(-1.0, 0.0)).norm() < 1e-6);
        assert!((toi.point - vec2(5.8, 0.0)).norm() < 1e-5);
        let overlap = toi_circle_capsule(
            vec2(2.0, 1.5),
            1.0,
            vec2(0.0, 0.0),
            bar,
            1.0,
            vec2(0.0, 0.0),
        )
        .unwrap();
        assert_eq!(overlap.status, ToiStatus::OverlappingAtStart);
        assert!((overlap.normal - vec2(0.0, -1.0)).norm() < 1e-6);
    }
}
