//! Circle against Aabb: the clamp test of seeds 000 and 001, in the box's frame.

use crate::math::{Pose, Real, Vec2, vec2};
use crate::shape::Aabb;

/// The point of the box (local frame) closest to the local point: each
/// coordinate clamped to the box's range (NaN-safe, never panics).
#[inline]
pub fn closest_point_on_aabb(local_point: Vec2, aabb: &Aabb) -> Vec2 {
    vec2(
        local_point.x.max(aabb.min.x).min(aabb.max.x),
        local_point.y.max(aabb.min.y).min(aabb.max.y),
    )
}

/// True if the world circle (`center`, `radius`) meets the box placed at `pose`.
///
/// The centre is taken into the box's local frame (undo translation and
/// rotation, divide by the scale) and clamped onto the box; the circle hits
/// when the clamped point is within the radius, also divided by the scale.
/// Works for any pose, including rotated ones; agrees with the generic
/// polygon path (property-tested).
#[inline]
pub fn intersects_circle_aabb(center: Vec2, radius: Real, aabb: &Aabb, pose: &Pose) -> bool {
    let local_center = pose.inverse_transform_point(center);
    let local_radius = radius / pose.scale;
    (local_center - closest_point_on_aabb(local_center, aabb)).norm_squared()
        <= local_radius * local_radius
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn faces_corners_inside_under_a_rotated_scaled_pose() {
        let aabb = Aabb::new(vec2(-1.0, -0.5), vec2(1.0, 0.5)).unwrap();
        let pose = Pose::new(vec2(5.0, 5.0), std::f32::consts::FRAC_PI_2).with_scale(2.0);
        // World box spans x in [4, 6], y in [3, 7].
        assert!(intersects_circle_aabb(vec2(5.0, 5.0), 0.1, &aabb, &pose));
        // A quarter turn is not exact in f32, hence the 1e-4 margins.
        assert!(intersects_circle_aabb(vec2(7.0, 5.0), 1.0001, &aabb, &pose));
        assert!(!intersects_circle_aabb(
            vec2(7.0, 5.0),
            0.9999,
            &aabb,
            &pose
        ));
        assert!(intersects_circle_aabb(vec2(6.6, 7.8), 1.0001, &aabb, &pose)); // corner (6, 7)
        assert!(!intersects_circle_aabb(
            vec2(6.6, 7.8),
            0.9999,
            &aabb,
            &pose
        ));
    }
}
