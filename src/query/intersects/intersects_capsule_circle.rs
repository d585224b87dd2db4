//! Capsule against circle: seed 004's thick line against a circle.

use crate::math::{Real, Vec2};
use crate::query::geometry::point_segment_distance_squared;

/// True if the circle's centre is within `capsule_radius + circle_radius` of the core `a`–`b`.
///
/// Seed 004 inflates the circle by half the line's thickness and tests the
/// segment; this is the same test with the clamped closest point (the seed's
/// `f + t * d` has the wrong sign: the offset from the closest point to the
/// centre is `f - t * d`) and touching counted.
#[inline]
pub fn intersects_capsule_circle(
    a: Vec2,
    b: Vec2,
    capsule_radius: Real,
    center: Vec2,
    circle_radius: Real,
) -> bool {
    let reach = capsule_radius + circle_radius;
    point_segment_distance_squared(center, a, b) <= reach * reach
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;

    #[test]
    fn thick_shot_grazes_a_circle() {
        let (a, b) = (vec2(0.0, 0.0), vec2(10.0, 0.0));
        assert!(intersects_capsule_circle(a, b, 0.25, vec2(5.0, 1.25), 1.0));
        assert!(!intersects_capsule_circle(a, b, 0.25, vec2(5.0, 1.26), 1.0));
        assert!(intersects_capsule_circle(a, b, 0.25, vec2(11.0, 0.0), 1.0)); // beyond the end, reached by its cap
    }
}
