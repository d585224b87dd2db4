//! Infinite line against simple polygon.

use super::intersects_line_polygon::intersects_line_vertices;
use crate::math::{Pose, Vec2};
use crate::shape::SimplePolygon;
use smallvec::SmallVec;

/// True if the simple polygon placed at `pose` meets the line.
///
/// The polygon is connected, so it meets the line exactly when its outline's
/// vertex offsets straddle 0; no decomposition is needed.
pub fn intersects_line_simple(
    line_point: Vec2,
    line_direction: Vec2,
    simple: &SimplePolygon,
    pose: &Pose,
) -> bool {
    let world: SmallVec<[Vec2; 16]> = simple
        .vertices()
        .iter()
        .map(|v| pose.transform_point(*v))
        .collect();
    intersects_line_vertices(line_point, line_direction, &world)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;

    #[test]
    fn line_through_the_notch_of_a_u() {
        let u_shape = SimplePolygon::new(&[
            vec2(0.0, 0.0),
            vec2(3.0, 0.0),
            vec2(3.0, 3.0),
            vec2(2.0, 3.0),
            vec2(2.0, 1.0),
            vec2(1.0, 1.0),
            vec2(1.0, 3.0),
            vec2(0.0, 3.0),
        ])
        .unwrap();
        // A vertical line through the notch still crosses the base.
        assert!(intersects_line_simple(
            vec2(1.5, 10.0),
            vec2(0.0, 1.0),
            &u_shape,
            &Pose::IDENTITY
        ));
        assert!(!intersects_line_simple(
            vec2(3.5, 10.0),
            vec2(0.0, 1.0),
            &u_shape,
            &Pose::IDENTITY
        ));
    }
}
