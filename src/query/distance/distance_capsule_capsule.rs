//! Capsule to capsule.

use super::ClosestPoints;
use crate::math::{Real, Vec2};
use crate::query::geometry::segment_segment_closest_points;
use crate::query::intersects::intersects_capsule_capsule;

/// Closest points of two world capsules; `None` when they meet.
#[inline]
pub fn distance_capsule_capsule(
    a0: Vec2,
    a1: Vec2,
    radius_a: Real,
    b0: Vec2,
    b1: Vec2,
    radius_b: Real,
) -> Option<ClosestPoints> {
    if intersects_capsule_capsule(a0, a1, radius_a, b0, b1, radius_b) {
        return None;
    }
    let (on_a, on_b) = segment_segment_closest_points(a0, a1, b0, b1);
    Some(ClosestPoints::from_cores(on_a, radius_a, on_b, radius_b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;

    #[test]
    fn end_to_end() {
        let c = distance_capsule_capsule(
            vec2(0.0, 0.0),
            vec2(2.0, 0.0),
            0.5,
            vec2(5.0, 0.0),
            vec2(9.0, 0.0),
            1.0,
        )
        .unwrap();
        assert_eq!(c.distance, 1.5);
        assert_eq!((c.point_a, c.point_b), (vec2(2.5, 0.0), vec2(4.0, 0.0)));
    }
}
