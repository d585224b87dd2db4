//! Circle to simple polygon.

use super::distance_circle_polygon::distance_circle_polygon;
use super::{ClosestPoints, nearest};
use crate::math::{Pose, Real, Vec2};
use crate::query::geometry::placed_pieces;
use crate::query::intersects::intersects_circle_simple;
use crate::shape::SimplePolygon;

/// Closest points of a world circle and a simple polygon; `None` when they meet.
pub fn distance_circle_simple(
    center: Vec2,
    radius: Real,
    simple: &SimplePolygon,
    pose: &Pose,
) -> Option<ClosestPoints> {
    if intersects_circle_simple(center, radius, simple, pose) {
        return None;
    }
    nearest(
        placed_pieces(simple, pose).map(|piece| distance_circle_polygon(center, radius, &piece)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;

    #[test]
    fn ball_in_the_notch() {
        let l_shape = SimplePolygon::new(&[
            vec2(0.0, 0.0),
            vec2(2.0, 0.0),
            vec2(2.0, 1.0),
            vec2(1.0, 1.0),
            vec2(1.0, 2.0),
            vec2(0.0, 2.0),
        ])
        .unwrap();
        let c = distance_circle_simple(vec2(1.75, 1.75), 0.25, &l_shape, &Pose::IDENTITY).unwrap();
        assert_eq!(c.distance, 0.5);
    }
}
