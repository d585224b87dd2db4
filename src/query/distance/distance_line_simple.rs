//! Infinite line to simple polygon.

use super::ClosestPoints;
use super::distance_line_segment::line_to_nearest_point;
use crate::math::{Pose, Vec2};
use crate::query::intersects::intersects_line_simple;
use crate::shape::SimplePolygon;
use smallvec::SmallVec;

/// Closest points of a world line and a simple polygon (its outline vertex
/// nearest the line); `None` when they meet.
pub fn distance_line_simple(
    line_point: Vec2,
    line_direction: Vec2,
    simple: &SimplePolygon,
    pose: &Pose,
) -> Option<ClosestPoints> {
    if intersects_line_simple(line_point, line_direction, simple, pose) {
        return None;
    }
    let world: SmallVec<[Vec2; 16]> = simple
        .vertices()
        .iter()
        .map(|v| pose.transform_point(*v))
        .collect();
    Some(line_to_nearest_point(
        line_point,
        line_direction,
        &world,
        0.0,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;

    #[test]
    fn line_above_an_l() {
        let l_shape = SimplePolygon::new(&[
            vec2(0.0, 0.0),
            vec2(2.0, 0.0),
            vec2(2.0, 1.0),
            vec2(1.0, 1.0),
            vec2(1.0, 2.0),
            vec2(0.0, 2.0),
        ])
        .unwrap();
        let c = distance_line_simple(vec2(0.0, 5.0), vec2(1.0, 0.0), &l_shape, &Pose::IDENTITY)
            .unwrap();
        assert_eq!(c.distance, 3.0);
    }
}
