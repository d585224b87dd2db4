//! Infinite line to capsule.

use super::ClosestPoints;
use super::distance_line_segment::line_to_nearest_point;
use crate::math::{Real, Vec2};
use crate::query::intersects::intersects_line_capsule;

/// Closest points of a world line and the capsule around `a`–`b`; `None` when they meet.
pub fn distance_line_capsule(
    line_point: Vec2,
    line_direction: Vec2,
    a: Vec2,
    b: Vec2,
    radius: Real,
) -> Option<ClosestPoints> {
    if intersects_line_capsule(line_point, line_direction, a, b, radius) {
        return None;
    }
    Some(line_to_nearest_point(
        line_point,
        line_direction,
        &[a, b],
        radius,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;

    #[test]
    fn cap_nearest_the_line() {
        let c = distance_line_capsule(
            vec2(0.0, 0.0),
            vec2(0.0, 1.0),
            vec2(3.0, 0.0),
            vec2(6.0, 2.0),
            0.5,
        )
        .unwrap();
        assert_eq!(c.distance, 2.5);
        assert_eq!((c.point_a, c.point_b), (vec2(0.0, 0.0), vec2(2.5, 0.0)));
    }
}
