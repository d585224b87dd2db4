//! Capsule to simple polygon.

use super::distance_capsule_polygon::distance_capsule_polygon;
use super::{ClosestPoints, nearest};
use crate::math::{Pose, Real, Vec2};
use crate::query::geometry::placed_pieces;
use crate::query::intersects::intersects_capsule_simple;
use crate::shape::SimplePolygon;

/// Closest points of the world capsule around `a`–`b` and a simple polygon;
/// `None` when they meet.
pub fn distance_capsule_simple(
    a: Vec2,
    b: Vec2,
    radius: Real,
    simple: &SimplePolygon,
    pose: &Pose,
) -> Option<ClosestPoints> {
    if intersects_capsule_simple(a, b, radius, simple, pose) {
        return None;
    }
    nearest(placed_pieces(simple, pose).map(|piece| distance_capsule_polygon(a, b, radius, &piece)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;

    #[test]
    fn thick_shot_in_the_notch() {
        let l_shape = SimplePolygon::new(&[
            vec2(0.0, 0.0),
            vec2(2.0, 0.0),
            vec2(2.0, 1.0),
            vec2(1.0, 1.0),
            vec2(1.0, 2.0),
            vec2(0.0, 2.0),
        ])
        .unwrap();
        let c = distance_capsule_simple(
            vec2(1.5, 1.5),
            vec2(1.5, 3.0),
            0.25,
            &l_shape,
            &Pose::IDENTITY,
        )
        .unwrap();
        assert_eq!(c.distance, 0.25);
    }
}
