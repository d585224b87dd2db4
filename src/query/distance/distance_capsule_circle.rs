//! Capsule to circle.

use super::ClosestPoints;
use crate::math::{Real, Vec2};
use crate::query::geometry::closest_point_on_segment;
use crate::query::intersects::intersects_capsule_circle;

/// Closest points of the world capsule around `a`–`b` and a circle; `None` when they meet.
#[inline]
pub fn distance_capsule_circle(
    a: Vec2,
    b: Vec2,
    capsule_radius: Real,
    center: Vec2,
    circle_radius: Real,
) -> Option<ClosestPoints> {
    if intersects_capsule_circle(a, b, capsule_radius, center, circle_radius) {
        return None;
    }
    let on_core = closest_point_on_segment(center, a, b).0;
    Some(ClosestPoints::from_cores(
        on_core,
        capsule_radius,
        center,
        circle_radius,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;

    #[test]
    fn thick_shot_passing_a_ball() {
        let c = distance_capsule_circle(vec2(0.0, 0.0), vec2(10.0, 0.0), 0.25, vec2(4.0, 3.0), 1.0)
            .unwrap();
        assert_eq!(c.distance, 1.75);
        assert_eq!((c.point_a, c.point_b), (vec2(4.0, 0.25), vec2(4.0, 2.0)));
    }
}
