//! Time of impact of two moving circles (points are circles of radius 0):
//! closed form.
//!
//! With `m` the offset from A's centre to B's and `w` B's motion relative to
//! A, the circles touch when `|m + t w| = ra + rb`: a ray from `m` along `w`
//! against the disc of radius `ra + rb` around the origin.

use super::types::{Toi, ToiStatus};
use crate::math::{Real, Vec2};
use crate::query::cast::local::normalize_or;

/// Time of impact of circle A (`center_a`, `radius_a`, moving by `motion_a`
/// over the step) and circle B; world coordinates (or any common origin),
/// metres per step. `None` if they do not touch within the step.
///
/// # Examples
/// ```
/// use circlet::math::vec2;
/// use circlet::query::time_of_impact::toi_circle_circle;
/// let toi = toi_circle_circle(vec2(0.0, 0.0), 1.0, vec2(10.0, 0.0),
///                             vec2(20.0, 0.0), 1.0, vec2(-10.0, 0.0)).unwrap();
/// assert!((toi.fraction - 0.9).abs() < 1e-6);
/// assert!((toi.normal - vec2(1.0, 0.0)).norm() < 1e-6);
/// assert!((toi.point - vec2(10.0, 0.0)).norm() < 1e-5);
/// ```
pub fn toi_circle_circle(
    center_a: Vec2,
    radius_a: Real,
    motion_a: Vec2,
    center_b: Vec2,
    radius_b: Real,
    motion_b: Vec2,
) -> Option<Toi> {
    let offset = center_b - center_a;
    let relative_motion = motion_b - motion_a;
    let reach = radius_a + radius_b;
    let (fraction, status) = if offset.norm_squared() <= reach * reach {
        (0.0, ToiStatus::OverlappingAtStart)
    } else {
        let fraction =
            crate::query::cast::local::circle_entry(offset, relative_motion, Vec2::zeros(), reach)?;
        (fraction, ToiStatus::Touching)
    };
    let offset_then = offset + relative_motion * fraction;
    // Concentric: B is on the side it came from.
    let normal = normalize_or(
        offset_then,
        normalize_or(-relative_motion, Vec2::new(0.0, 1.0)),
    );
    let center_then = center_a + motion_a * fraction;
    // Midway between A's surface and B's along the normal.
    let point = center_then + normal * ((radius_a + offset_then.norm() - radius_b) * 0.5);
    Some(Toi::closed_form(fraction, normal, point, status))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;

    #[test]
    fn miss_overlap_and_zero_motion() {
        let miss = toi_circle_circle(
            vec2(0.0, 0.0),
            1.0,
            vec2(10.0, 0.0),
            vec2(5.0, 2.5),
            1.0,
            vec2(0.0, 0.0),
        );
        assert!(miss.is_none());
        let still = toi_circle_circle(
            vec2(0.0, 0.0),
            1.0,
            vec2(0.0, 0.0),
            vec2(3.0, 0.0),
            1.0,
            vec2(0.0, 0.0),
        );
        assert!(still.is_none());
        let overlap = toi_circle_circle(
            vec2(0.0, 0.0),
            1.0,
            vec2(0.0, 0.0),
            vec2(1.5, 0.0),
            1.0,
            vec2(0.0, 0.0),
        );
        let overlap = overlap.unwrap();
        assert_eq!(overlap.status, ToiStatus::OverlappingAtStart);
        assert!((overlap.normal - vec2(1.0, 0.0)).norm() < 1e-6);
        let concentric = toi_circle_circle(
            vec2(0.0, 0.0),
            1.0,
            vec2(0.0, 0.0),
            vec2(0.0, 0.0),
            1.0,
            vec2(1.0, 0.0),
        );
        assert!((concentric.unwrap().normal - vec2(-1.0, 0.0)).norm() < 1e-6);
    }

    #[test]
    fn both_moving_same_direction() {
        // B runs ahead at 2 m/step, A chases at 6: the 2 m gap closes at t = 0.5.
        let toi = toi_circle_circle(
            vec2(0.0, 0.0),
            0.5,
            vec2(6.0, 0.0),
            vec2(3.0, 0.0),
            0.5,
            vec2(2.0, 0.0),
        );
        assert!((toi.unwrap().fraction - 0.5).abs() < 1e-6);
    }
}
