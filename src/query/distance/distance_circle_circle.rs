//! Circle to circle.

use super::ClosestPoints;
use crate::math::{Real, Vec2};
use crate::query::intersects::intersects_circle_circle;

/// Closest points of two world circles; `None` when they meet.
#[inline]
pub fn distance_circle_circle(
    center_a: Vec2,
    radius_a: Real,
    center_b: Vec2,
    radius_b: Real,
) -> Option<ClosestPoints> {
    if intersects_circle_circle(center_a, radius_a, center_b, radius_b) {
        return None;
    }
    Some(ClosestPoints::from_cores(
        center_a, radius_a, center_b, radius_b,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;

    #[test]
    fn gap_between_surfaces() {
        let c = distance_circle_circle(vec2(0.0, 0.0), 1.0, vec2(0.0, 5.0), 2.0).unwrap();
        assert_eq!(c.distance, 2.0);
        assert_eq!((c.point_a, c.point_b), (vec2(0.0, 1.0), vec2(0.0, 3.0)));
    }
}
