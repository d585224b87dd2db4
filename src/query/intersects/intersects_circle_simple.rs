//! Circle against simple polygon.

use super::intersects_circle_polygon::intersects_circle_polygon;
use crate::math::{Pose, Real, Vec2};
use crate::query::geometry::placed_pieces;
use crate::shape::SimplePolygon;

/// True if the world circle meets any convex piece of the simple polygon placed at `pose`.
pub fn intersects_circle_simple(
    center: Vec2,
    radius: Real,
    simple: &SimplePolygon,
    pose: &Pose,
) -> bool {
    placed_pieces(simple, pose).any(|piece| intersects_circle_polygon(center, radius, &piece))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;

    #[test]
    fn ball_resting_in_the_notch() {
        let l_shape = SimplePolygon::new(&[
            vec2(0.0, 0.0),
            vec2(2.0, 0.0),
            vec2(2.0, 1.0),
            vec2(1.0, 1.0),
            vec2(1.0, 2.0),
            vec2(0.0, 2.0),
        ])
        .unwrap();
        let pose = Pose::from_translation(vec2(-1.0, -1.0)).with_scale(2.0);
        // Local notch centre (1.5, 1.5) -> world (2, 2); both walls are 1 away.
        assert!(intersects_circle_simple(
            vec2(2.0, 2.0),
            1.0,
            &l_shape,
            &pose
        ));
        assert!(!intersects_circle_simple(
            vec2(2.0, 2.0),
            0.99,
            &l_shape,
            &pose
        ));
    }
}
