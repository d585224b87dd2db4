//! OrientedRect to OrientedRect.

use super::ClosestPoints;
use crate::math::Pose;
use crate::query::geometry::polygon_polygon_closest_points;
use crate::query::intersects::{WorldRect, intersects_rect_rect};
use crate::shape::OrientedRect;

/// Closest points of two placed rectangles; `None` when they meet (four-axis
/// SAT), otherwise the corner-to-edge closest pair.
pub fn distance_rect_rect(
    a: &OrientedRect,
    pose_a: &Pose,
    b: &OrientedRect,
    pose_b: &Pose,
) -> Option<ClosestPoints> {
    if intersects_rect_rect(a, pose_a, b, pose_b) {
        return None;
    }
    let corners_a = WorldRect::new(a, pose_a).vertices();
    let corners_b = WorldRect::new(b, pose_b).vertices();
    let (on_a, on_b) = polygon_polygon_closest_points(&corners_a, &corners_b);
    Some(ClosestPoints::from_cores(on_a, 0.0, on_b, 0.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;

    #[test]
    fn side_by_side() {
        let rect = OrientedRect::new(vec2(0.0, 0.0), vec2(1.0, 2.0), 0.0).unwrap();
        let c = distance_rect_rect(
            &rect,
            &Pose::IDENTITY,
            &rect,
            &Pose::from_translation(vec2(5.0, 1.0)),
        )
        .unwrap();
        assert_eq!(c.distance, 3.0);
    }
}
