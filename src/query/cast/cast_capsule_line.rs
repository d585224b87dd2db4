//! A thick shot against an infinite line: the shot's circle touches the line
//! when its centre is within `r` of it, so the cast is a ray against the strip
//! of half-width `r` around the line.

use super::local::{LocalHit, LocalShot, against_motion};
use super::shot::{CastHit, Shot};
use crate::math::{Pose, Vec2, perp};
use crate::shape::Line;

/// First hit of `shot` on `line` placed at `pose` (world), or `None`. The
/// normal points to the side of the line the shot comes from.
///
/// # Examples
/// ```
/// use circlet::{math::{Pose, vec2}, shape::Line};
/// use circlet::query::cast::{Shot, cast_capsule_line};
/// let ground = Line::new(vec2(0.0, 0.0), vec2(1.0, 0.0)).unwrap();
/// let drop = Shot::new(vec2(3.0, 5.0), vec2(3.0, -5.0), 1.0).unwrap();
/// let hit = cast_capsule_line(&drop, &ground, &Pose::IDENTITY).unwrap();
/// assert!((hit.fraction - 0.4).abs() < 1e-6);
/// assert!((hit.point - vec2(3.0, 0.0)).norm() < 1e-6);
/// ```
pub fn cast_capsule_line(shot: &Shot, line: &Line, pose: &Pose) -> Option<CastHit> {
    let local = LocalShot::new(shot, pose);
    cast_line_local(&local, line.point(), line.direction()).map(|hit| hit.to_world(shot, pose))
}

/// The cast in the line's frame: through `point`, unit `direction`.
pub(crate) fn cast_line_local(shot: &LocalShot, point: Vec2, direction: Vec2) -> Option<LocalHit> {
    let line_normal = perp(direction);
    let distance = line_normal.dot(&(shot.start - point));
    let side = if distance > 0.0 {
        line_normal
    } else if distance < 0.0 {
        -line_normal
    } else {
        // On the line: the side the shot comes from.
        let from = -against_motion(shot.delta);
        if line_normal.dot(&from) > 0.0 {
            -line_normal
        } else {
            line_normal
        }
    };
    if distance.abs() <= shot.radius {
        return Some(LocalHit::inside(shot.start - line_normal * distance, side));
    }
    let gap = distance.abs() - shot.radius;
    let approach = -side.dot(&shot.delta);
    if approach <= 0.0 || gap > approach {
        return None;
    }
    let fraction = gap / approach;
    let centre = shot.start + shot.delta * fraction;
    Some(LocalHit {
        fraction,
        point: centre - side * shot.radius,
        normal: side,
        started_inside: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;

    #[test]
    fn from_either_side_and_parallel() {
        let cast = |start: Vec2, delta: Vec2, radius| {
            cast_line_local(
                &LocalShot {
                    start,
                    delta,
                    radius,
                },
                vec2(0.0, 0.0),
                vec2(1.0, 0.0),
            )
        };
        let below = cast(vec2(0.0, -2.0), vec2(0.0, 4.0), 0.5).unwrap();
        assert!((below.fraction - 1.5 / 4.0).abs() < 1e-6);
        assert!((below.normal - vec2(0.0, -1.0)).norm() < 1e-6);
        assert!(cast(vec2(0.0, 2.0), vec2(5.0, 0.0), 0.5).is_none());
        let on = cast(vec2(0.0, 0.0), vec2(0.0, 1.0), 0.0).unwrap();
        assert!(on.started_inside);
        assert!((on.normal - vec2(0.0, -1.0)).norm() < 1e-6);
    }
}
