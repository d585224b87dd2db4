//! Infinite line to circle.

use super::ClosestPoints;
use super::distance_line_segment::line_to_nearest_point;
use crate::math::{Real, Vec2};
use crate::query::intersects::intersects_line_circle;

/// Closest points of a world line and a circle; `None` when they meet.
pub fn distance_line_circle(
    line_point: Vec2,
    line_direction: Vec2,
    center: Vec2,
    radius: Real,
) -> Option<ClosestPoints> {
    if intersects_line_circle(line_point, line_direction, center, radius) {
        return None;
    }
    Some(line_to_nearest_point(
        line_point,
        line_direction,
        &[center],
        radius,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;

    #[test]
    fn circle_above_the_floor_line() {
        let c = distance_line_circle(vec2(0.0, 0.0), vec2(1.0, 0.0), vec2(2.0, 3.0), 1.0).unwrap();
        assert_eq!(c.distance, 2.0);
        assert_eq!((c.point_a, c.point_b), (vec2(2.0, 0.0), vec2(2.0, 2.0)));
    }
}
