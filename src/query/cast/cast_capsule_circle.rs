//! A thick shot against a circle (and a point, a circle of radius 0): closed form.
//!
//! The shot's circle (radius `r`) touches a disc (radius `R`) exactly when its
//! centre is within `r + R` of the disc's centre, so the cast is a ray against
//! the disc of radius `r + R`: the quadratic `|m + t d|² = (r + R)²`.

use super::local::{LocalHit, LocalShot, against_motion, normalize_or_else};
use super::shot::{CastHit, Shot};
use crate::math::{Pose, Real, Vec2};
use crate::shape::Circle;

/// First hit of `shot` on `circle` placed at `pose` (world), or `None`.
///
/// # Examples
/// ```
/// use circlet::{math::{Pose, vec2}, shape::Circle};
/// use circlet::query::cast::{Shot, cast_capsule_circle};
/// let target = Circle::new(vec2(0.0, 0.0), 1.0).unwrap();
/// let shot = Shot::new(vec2(-5.0, 0.0), vec2(5.0, 0.0), 0.5).unwrap();
/// let hit = cast_capsule_circle(&shot, &target, &Pose::IDENTITY).unwrap();
/// assert!((hit.fraction - 0.35).abs() < 1e-6); // centre travels 3.5 of 10
/// assert!((hit.point - vec2(-1.0, 0.0)).norm() < 1e-6);
/// assert!((hit.normal - vec2(-1.0, 0.0)).norm() < 1e-6);
/// ```
pub fn cast_capsule_circle(shot: &Shot, circle: &Circle, pose: &Pose) -> Option<CastHit> {
    let local = LocalShot::new(shot, pose);
    cast_circle_local(&local, circle.center(), circle.radius()).map(|hit| hit.to_world(shot, pose))
}

/// The cast in the circle's frame: disc of `radius` (>= 0) at `center`.
pub(crate) fn cast_circle_local(shot: &LocalShot, center: Vec2, radius: Real) -> Option<LocalHit> {
    let inflated = radius + shot.radius;
    let offset = shot.start - center;
    if offset.norm_squared() <= inflated * inflated {
        let normal = normalize_or_else(offset, || against_motion(shot.delta));
        return Some(LocalHit::inside(center + normal * radius, normal));
    }
    let fraction = circle_entry(shot.start, shot.delta, center, inflated)?;
    let shot_center = shot.start + shot.delta * fraction;
    let normal = normalize_or_else(shot_center - center, || against_motion(shot.delta));
    Some(LocalHit {
        fraction,
        point: center + normal * radius,
        normal,
        started_inside: false,
    })
}

/// Fraction in `[0, 1]` at which a point moving from `start` by `delta` enters
/// the disc of `radius` around `center`, for a start outside the disc.
///
/// Ericson's robust form: project the start offset on the unit direction and
/// take the chord from the perpendicular offset, which avoids the
/// cancellation of `|m|² - R²` for far starts.
#[inline]
pub(crate) fn circle_entry(start: Vec2, delta: Vec2, center: Vec2, radius: Real) -> Option<Real> {
    let length_squared = delta.norm_squared();
    if length_squared <= 0.0 {
        return None;
    }
    let length = length_squared.sqrt();
    let direction = delta / length;
    let offset = start - center;
    let along = offset.dot(&direction);
    if along >= 0.0 {
        return None; // moving away from the centre, and starting outside
    }
    // offset = along * direction + perpendicular
    let perpendicular = offset - direction * along;
    let half_chord_squared = radius * radius - perpendicular.norm_squared();
    if half_chord_squared < 0.0 {
        return None;
    }
    // Distance travelled to the entry: -along - half_chord (>= 0 from outside).
    let travel = (-along - half_chord_squared.sqrt()).max(0.0);
    if travel > length {
        return None;
    }
    Some((travel / length).min(1.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;

    fn shot(start: Vec2, delta: Vec2, radius: Real) -> LocalShot {
        LocalShot {
            start,
            delta,
            radius,
        }
    }

    #[test]
    fn head_on_tangent_and_miss() {
        let hit = cast_circle_local(
            &shot(vec2(-4.0, 0.0), vec2(8.0, 0.0), 0.0),
            vec2(0.0, 0.0),
            1.0,
        )
        .unwrap();
        assert!((hit.fraction - 3.0 / 8.0).abs() < 1e-6);
        // Touching counts: a ray along the tangent line touches.
        let graze = cast_circle_local(
            &shot(vec2(-4.0, 1.0), vec2(8.0, 0.0), 0.0),
            vec2(0.0, 0.0),
            1.0,
        );
        assert!((graze.unwrap().fraction - 0.5).abs() < 1e-6);
        assert!(
            cast_circle_local(
                &shot(vec2(-4.0, 1.001), vec2(8.0, 0.0), 0.0),
                vec2(0.0, 0.0),
                1.0
            )
            .is_none()
        );
        // Too short, and moving away.
        assert!(
            cast_circle_local(
                &shot(vec2(-4.0, 0.0), vec2(2.9, 0.0), 0.0),
                vec2(0.0, 0.0),
                1.0
            )
            .is_none()
        );
        assert!(
            cast_circle_local(
                &shot(vec2(-4.0, 0.0), vec2(-8.0, 0.0), 0.0),
                vec2(0.0, 0.0),
                1.0
            )
            .is_none()
        );
    }

    #[test]
    fn start_inside_reports_zero_with_a_defined_normal() {
        let hit = cast_circle_local(
            &shot(vec2(0.5, 0.0), vec2(8.0, 0.0), 0.0),
            vec2(0.0, 0.0),
            1.0,
        )
        .unwrap();
        assert!(hit.started_inside && hit.fraction == 0.0);
        assert!((hit.normal - vec2(1.0, 0.0)).norm() < 1e-6);
        assert!((hit.point - vec2(1.0, 0.0)).norm() < 1e-6);
        // At the exact centre: back along the shot.
        let centre = cast_circle_local(
            &shot(vec2(0.0, 0.0), vec2(0.0, 2.0), 0.0),
            vec2(0.0, 0.0),
            1.0,
        )
        .unwrap();
        assert!((centre.normal - vec2(0.0, -1.0)).norm() < 1e-6);
        // Motionless at the centre: up.
        let still = cast_circle_local(
            &shot(vec2(0.0, 0.0), vec2(0.0, 0.0), 0.0),
            vec2(0.0, 0.0),
            1.0,
        )
        .unwrap();
        assert!((still.normal - vec2(0.0, 1.0)).norm() < 1e-6);
        // Thick shot touching at the start.
        let thick = cast_circle_local(
            &shot(vec2(1.5, 0.0), vec2(8.0, 0.0), 0.5),
            vec2(0.0, 0.0),
            1.0,
        )
        .unwrap();
        assert!(thick.started_inside);
    }

    #[test]
    fn far_start_keeps_precision() {
        // 1e4 m away, aimed at a 0.1 m disc: the entry lands on the surface.
        let hit = cast_circle_local(
            &shot(vec2(-1.0e4, 0.05), vec2(2.0e4, 0.0), 0.0),
            vec2(0.0, 0.0),
            0.1,
        )
        .unwrap();
        let x = -1.0e4 + 2.0e4 * hit.fraction;
        let expected = -(0.1f32 * 0.1 - 0.05 * 0.05).sqrt();
        assert!((x - expected).abs() < 2e-3, "{x} vs {expected}");
    }
}
