//! Capsule against simple polygon.

use super::intersects_capsule_polygon::intersects_capsule_polygon;
use crate::math::{Pose, Real, Vec2};
use crate::query::geometry::placed_pieces;
use crate::shape::SimplePolygon;

/// True if the world capsule around `a`–`b` meets any convex piece of the simple polygon.
pub fn intersects_capsule_simple(
    a: Vec2,
    b: Vec2,
    radius: Real,
    simple: &SimplePolygon,
    pose: &Pose,
) -> bool {
    placed_pieces(simple, pose).any(|piece| intersects_capsule_polygon(a, b, radius, &piece))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;

    #[test]
    fn thick_shot_into_the_notch() {
        let l_shape = SimplePolygon::new(&[
            vec2(0.0, 0.0),
            vec2(2.0, 0.0),
            vec2(2.0, 1.0),
            vec2(1.0, 1.0),
            vec2(1.0, 2.0),
            vec2(0.0, 2.0),
        ])
        .unwrap();
        let (a, b) = (vec2(1.5, 3.0), vec2(1.5, 1.5));
        assert!(!intersects_capsule_simple(
            a,
            b,
            0.4,
            &l_shape,
            &Pose::IDENTITY
        ));
        assert!(intersects_capsule_simple(
            a,
            b,
            0.5,
            &l_shape,
            &Pose::IDENTITY
        ));
    }
}
