//! Infinite line to segment.

use super::ClosestPoints;
use crate::math::{Real, Vec2};
use crate::query::geometry::{line_offset, project_on_line};
use crate::query::intersects::intersects_line_segment;

/// Closest points of a world line and the nearest of `points` inflated by
/// `radius`, for point sets lying strictly on one side of the line.
pub(crate) fn line_to_nearest_point(
    line_point: Vec2,
    line_direction: Vec2,
    points: &[Vec2],
    radius: Real,
) -> ClosestPoints {
    let mut nearest = (Real::INFINITY, line_point);
    for p in points {
        let offset = line_offset(line_point, line_direction, *p).abs();
        if offset < nearest.0 {
            nearest = (offset, *p);
        }
    }
    let foot = project_on_line(line_point, line_direction, nearest.1);
    ClosestPoints::from_cores(foot, 0.0, nearest.1, radius).with_distance(nearest.0 - radius)
}

/// Closest points of a world line and the segment `a`–`b` (on one side of it);
/// `None` when the segment meets the line.
pub fn distance_line_segment(
    line_point: Vec2,
    line_direction: Vec2,
    a: Vec2,
    b: Vec2,
) -> Option<ClosestPoints> {
    if intersects_line_segment(line_point, line_direction, a, b) {
        return None;
    }
    Some(line_to_nearest_point(
        line_point,
        line_direction,
        &[a, b],
        0.0,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;

    #[test]
    fn nearer_end_point() {
        let c = distance_line_segment(
            vec2(0.0, 0.0),
            vec2(1.0, 0.0),
            vec2(3.0, -4.0),
            vec2(9.0, -1.0),
        )
        .unwrap();
        assert_eq!(c.distance, 1.0);
        assert_eq!((c.point_a, c.point_b), (vec2(9.0, 0.0), vec2(9.0, -1.0)));
    }
}
