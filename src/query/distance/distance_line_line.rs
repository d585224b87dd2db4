//! Infinite line to infinite line.

use super::ClosestPoints;
use crate::math::Vec2;
use crate::query::geometry::{line_offset, project_on_line};
use crate::query::intersects::intersects_line_line;

/// Closest points of two parallel, distinct world lines; `None` when the lines
/// meet (not parallel, or coincident).
///
/// The distance is the smaller of the two offsets (each line's point measured
/// from the other line), which reads the same for both argument orders.
pub fn distance_line_line(
    point_a: Vec2,
    direction_a: Vec2,
    point_b: Vec2,
    direction_b: Vec2,
) -> Option<ClosestPoints> {
    if intersects_line_line(point_a, direction_a, point_b, direction_b) {
        return None;
    }
    let offset_of_b = line_offset(point_a, direction_a, point_b).abs();
    let offset_of_a = line_offset(point_b, direction_b, point_a).abs();
    let closest = if offset_of_b <= offset_of_a {
        let foot = project_on_line(point_a, direction_a, point_b);
        ClosestPoints::from_cores(foot, 0.0, point_b, 0.0)
    } else {
        let foot = project_on_line(point_b, direction_b, point_a);
        ClosestPoints::from_cores(point_a, 0.0, foot, 0.0)
    };
    Some(closest.with_distance(offset_of_b.min(offset_of_a)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;

    #[test]
    fn parallel_lines_two_apart() {
        let c = distance_line_line(
            vec2(0.0, 0.0),
            vec2(1.0, 0.0),
            vec2(5.0, 2.0),
            vec2(-1.0, 0.0),
        )
        .unwrap();
        assert_eq!(c.distance, 2.0);
        assert_eq!((c.point_a, c.point_b), (vec2(5.0, 0.0), vec2(5.0, 2.0)));
        assert!(
            distance_line_line(
                vec2(0.0, 0.0),
                vec2(1.0, 0.0),
                vec2(5.0, 2.0),
                vec2(0.0, 1.0)
            )
            .is_none()
        );
    }
}
