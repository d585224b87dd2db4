//! A thick shot against a capsule (and a segment, a capsule of radius 0): closed form.
//!
//! The shot's circle (radius `r`) touches a capsule (core `a`–`b`, radius `R`)
//! exactly when its centre is within `r + R` of the core, so the cast is a ray
//! against the capsule of radius `r + R`, whose boundary is the two sides
//! (the core offset by `r + R` either way) and the two end circles. From
//! outside, the first boundary point reached is the earliest of those four
//! entries.

use super::cast_capsule_circle::{cast_circle_local, circle_entry};
use super::local::{LocalHit, LocalShot, against_motion, closest_on_segment, normalize_or};
use super::shot::{CastHit, Shot};
use crate::math::{Pose, Real, Vec2};
use crate::shape::Capsule;

/// First hit of `shot` on `capsule` placed at `pose` (world), or `None`.
///
/// # Examples
/// ```
/// use circlet::{math::{Pose, vec2}, shape::Capsule};
/// use circlet::query::cast::{Shot, cast_capsule_capsule};
/// let wall = Capsule::new(vec2(0.0, -2.0), vec2(0.0, 2.0), 0.005).unwrap();
/// let bullet = Shot::ray(vec2(-100.0, 1.0), vec2(100.0, 1.0)).unwrap();
/// let hit = cast_capsule_capsule(&bullet, &wall, &Pose::IDENTITY).unwrap();
/// assert!((hit.point.x + 0.005).abs() < 1e-4);
/// assert!((hit.normal - vec2(-1.0, 0.0)).norm() < 1e-6);
/// ```
pub fn cast_capsule_capsule(shot: &Shot, capsule: &Capsule, pose: &Pose) -> Option<CastHit> {
    let local = LocalShot::new(shot, pose);
    cast_segment_local(&local, capsule.a(), capsule.b(), capsule.radius())
        .map(|hit| hit.to_world(shot, pose))
}

/// The cast in the capsule's frame: core `a`–`b`, `radius` >= 0.
pub(crate) fn cast_segment_local(
    shot: &LocalShot,
    a: Vec2,
    b: Vec2,
    radius: Real,
) -> Option<LocalHit> {
    let edge = b - a;
    let length_squared = edge.norm_squared();
    if length_squared <= 0.0 {
        return cast_circle_local(shot, a, radius);
    }
    let inflated = radius + shot.radius;
    let length = length_squared.sqrt();
    let direction = edge / length;
    // Outward normal of the side on the right of a→b; the other side is its negation.
    let side_normal = Vec2::new(direction.y, -direction.x);

    let closest = closest_on_segment(shot.start, a, b);
    let offset = shot.start - closest;
    if offset.norm_squared() <= inflated * inflated {
        let side = if side_normal.dot(&offset) >= 0.0 {
            side_normal
        } else {
            -side_normal
        };
        let fallback = if offset.norm_squared() > 0.0 {
            side
        } else {
            against_motion(shot.delta)
        };
        let normal = normalize_or(offset, fallback);
        return Some(LocalHit::inside(closest + normal * radius, normal));
    }

    let mut best: Option<(Real, Vec2)> = None; // (fraction, centre of the touching circle)
    // The side facing the start: entry where its offset line is crossed, if
    // the crossing lies beside the core (ends widened by the rounding slack).
    let distance_to_line = side_normal.dot(&(shot.start - a));
    let facing = if distance_to_line >= 0.0 {
        side_normal
    } else {
        -side_normal
    };
    let gap = distance_to_line.abs() - inflated;
    let approach = -facing.dot(&shot.delta);
    if gap > 0.0 && approach > 0.0 && gap <= approach {
        let fraction = gap / approach;
        let centre = shot.start + shot.delta * fraction;
        let along = (centre - a).dot(&direction);
        let slack = shot.slack(length);
        if along >= -slack && along <= length + slack {
            best = Some((fraction, centre - facing * inflated));
        }
    }
    // The end circles.
    for end in [a, b] {
        if let Some(fraction) = circle_entry(shot.start, shot.delta, end, inflated)
            && best.is_none_or(|(f, _)| fraction < f)
        {
            best = Some((fraction, end));
        }
    }
    let (fraction, core_point) = best?;
    let centre = shot.start + shot.delta * fraction;
    let normal = normalize_or(centre - core_point, facing);
    Some(LocalHit {
        fraction,
        point: core_point + normal * radius,
        normal,
        started_inside: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;

    fn cast(start: Vec2, delta: Vec2, radius: Real) -> Option<LocalHit> {
        let shot = LocalShot {
            start,
            delta,
            radius,
        };
        cast_segment_local(&shot, vec2(-1.0, 0.0), vec2(1.0, 0.0), 0.5)
    }

    #[test]
    fn side_end_and_miss() {
        let side = cast(vec2(0.3, 3.0), vec2(0.0, -6.0), 0.0).unwrap();
        assert!((side.fraction - 2.5 / 6.0).abs() < 1e-6);
        assert!((side.normal - vec2(0.0, 1.0)).norm() < 1e-6);
        assert!((side.point - vec2(0.3, 0.5)).norm() < 1e-6);
        let end = cast(vec2(5.0, 0.0), vec2(-10.0, 0.0), 0.25).unwrap();
        assert!((end.fraction - (5.0 - 1.75) / 10.0).abs() < 1e-6);
        assert!((end.point - vec2(1.5, 0.0)).norm() < 1e-6);
        // Past the end, outside the rounding.
        assert!(cast(vec2(1.8, 3.0), vec2(0.0, -6.0), 0.0).is_none());
        // Round end, just inside the rounding.
        let corner = cast(vec2(1.4, 3.0), vec2(0.0, -6.0), 0.0).unwrap();
        assert!((corner.point - vec2(1.0, 0.0)).norm() - 0.5 < 1e-5);
        assert!(corner.normal.x > 0.0 && corner.normal.y > 0.0);
    }

    #[test]
    fn starting_on_the_core_line_or_inside() {
        let inside = cast(vec2(0.0, 0.0), vec2(3.0, 1.0), 0.0).unwrap();
        assert!(inside.started_inside);
        assert!((inside.normal.norm() - 1.0).abs() < 1e-6);
        // Beyond the end but on the core's line, moving along it.
        let along = cast(vec2(4.0, 0.0), vec2(-4.0, 0.0), 0.0).unwrap();
        assert!((along.fraction - 2.5 / 4.0).abs() < 1e-6);
        assert!((along.normal - vec2(1.0, 0.0)).norm() < 1e-6);
    }

    #[test]
    fn a_zero_length_core_is_a_circle() {
        let shot = LocalShot {
            start: vec2(-3.0, 0.0),
            delta: vec2(6.0, 0.0),
            radius: 0.0,
        };
        let hit = cast_segment_local(&shot, vec2(0.0, 0.0), vec2(0.0, 0.0), 1.0).unwrap();
        assert!((hit.fraction - 2.0 / 6.0).abs() < 1e-6);
    }
}
