//! Circle to Aabb, in the box's local frame (fast path of circle to polygon).

use super::ClosestPoints;
use crate::math::{Pose, Real, Vec2};
use crate::query::intersects::{closest_point_on_aabb, intersects_circle_aabb};
use crate::shape::Aabb;

/// Closest points of a world circle and the box placed at `pose`; `None` when they meet.
///
/// The clamped point of the local centre is the box's closest point; it is
/// placed back in the world with `pose`.
pub fn distance_circle_aabb(
    center: Vec2,
    radius: Real,
    aabb: &Aabb,
    pose: &Pose,
) -> Option<ClosestPoints> {
    if intersects_circle_aabb(center, radius, aabb, pose) {
        return None;
    }
    let on_box = pose.transform_point(closest_point_on_aabb(
        pose.inverse_transform_point(center),
        aabb,
    ));
    Some(ClosestPoints::from_cores(center, radius, on_box, 0.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;

    #[test]
    fn ball_above_a_scaled_floor() {
        let aabb = Aabb::new(vec2(-1.0, -1.0), vec2(1.0, 0.0)).unwrap();
        let pose = Pose::from_translation(vec2(10.0, 0.0)).with_scale(5.0);
        let c = distance_circle_aabb(vec2(12.0, 3.0), 1.0, &aabb, &pose).unwrap();
        assert_eq!(c.distance, 2.0);
        assert_eq!((c.point_a, c.point_b), (vec2(12.0, 2.0), vec2(12.0, 0.0)));
    }
}
