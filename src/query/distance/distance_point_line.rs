//! Point to infinite line.

use super::ClosestPoints;
use crate::math::Vec2;
use crate::query::geometry::{line_offset, project_on_line};
use crate::query::intersects::intersects_point_line;

/// Closest points of a world point and a line (`point_b` is the foot on the
/// line); `None` when the point lies on the line.
pub fn distance_point_line(
    point: Vec2,
    line_point: Vec2,
    line_direction: Vec2,
) -> Option<ClosestPoints> {
    if intersects_point_line(point, line_point, line_direction) {
        return None;
    }
    let offset = line_offset(line_point, line_direction, point);
    let foot = project_on_line(line_point, line_direction, point);
    Some(ClosestPoints::from_cores(point, 0.0, foot, 0.0).with_distance(offset.abs()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;

    #[test]
    fn foot_of_the_perpendicular() {
        let c = distance_point_line(vec2(2.0, 3.0), vec2(-5.0, 1.0), vec2(1.0, 0.0)).unwrap();
        assert_eq!(c.distance, 2.0);
        assert_eq!(c.point_b, vec2(2.0, 1.0));
    }
}
