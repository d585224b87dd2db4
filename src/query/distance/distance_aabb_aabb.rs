//! Aabb to Aabb: per-axis gaps when equally rotated, polygons otherwise.

use super::ClosestPoints;
use super::distance_polygon_polygon::distance_polygon_polygon;
use crate::math::{Pose, Real, Vec2};
use crate::query::intersects::{bounds_in_common_frame, intersects_aabb_aabb};
use crate::query::placed::WorldPolygon;
use crate::shape::Aabb;

/// Closest coordinates `(on_a, on_b)` of two intervals along one axis: the
/// facing ends when apart, the middle of the overlap otherwise.
fn closest_on_axis(min_a: Real, max_a: Real, min_b: Real, max_b: Real) -> (Real, Real) {
    if min_b > max_a {
        (max_a, min_b)
    } else if min_a > max_b {
        (min_a, max_b)
    } else {
        let middle = 0.5 * (min_a.max(min_b) + max_a.min(max_b));
        (middle, middle)
    }
}

/// Closest points of two placed boxes; `None` when they meet.
///
/// Equally rotated poses: in the common frame of [`bounds_in_common_frame`]
/// each axis contributes its gap independently, and the points are turned back
/// into the world. Otherwise the generic polygon distance.
pub fn distance_aabb_aabb(
    a: &Aabb,
    pose_a: &Pose,
    b: &Aabb,
    pose_b: &Pose,
) -> Option<ClosestPoints> {
    if intersects_aabb_aabb(a, pose_a, b, pose_b) {
        return None;
    }
    match bounds_in_common_frame(a, pose_a, b, pose_b) {
        Some([(min_a, max_a), (min_b, max_b)]) => {
            let (ax, bx) = closest_on_axis(min_a.x, max_a.x, min_b.x, max_b.x);
            let (ay, by) = closest_on_axis(min_a.y, max_a.y, min_b.y, max_b.y);
            let gap = (Vec2::new(bx, by) - Vec2::new(ax, ay)).norm();
            let to_world = |p: Vec2| pose_a.rotation * p;
            let closest = ClosestPoints::from_cores(
                to_world(Vec2::new(ax, ay)),
                0.0,
                to_world(Vec2::new(bx, by)),
                0.0,
            );
            Some(closest.with_distance(gap))
        }
        None => distance_polygon_polygon(
            &WorldPolygon::from_local_vertices(&a.vertices(), pose_a),
            &WorldPolygon::from_local_vertices(&b.vertices(), pose_b),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;

    #[test]
    fn diagonal_gap_between_boxes() {
        let unit = Aabb::new(vec2(0.0, 0.0), vec2(1.0, 1.0)).unwrap();
        let c = distance_aabb_aabb(
            &unit,
            &Pose::IDENTITY,
            &unit,
            &Pose::from_translation(vec2(4.0, 5.0)),
        )
        .unwrap();
        assert_eq!(c.distance, 5.0);
        assert_eq!((c.point_a, c.point_b), (vec2(1.0, 1.0), vec2(4.0, 5.0)));
        let side = distance_aabb_aabb(
            &unit,
            &Pose::IDENTITY,
            &unit,
            &Pose::from_translation(vec2(3.0, 0.5)),
        )
        .unwrap();
        assert_eq!(side.distance, 2.0);
        assert_eq!(
            (side.point_a, side.point_b),
            (vec2(1.0, 0.75), vec2(3.0, 0.75))
        );
    }
}
