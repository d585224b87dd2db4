//! Aabb against Aabb: the interval test seed 003 meant to write.

use super::intersects_polygon_polygon::intersects_polygon_polygon;
use crate::math::{Pose, Vec2};
use crate::query::placed::WorldPolygon;
use crate::shape::Aabb;

/// Both boxes' `(min, max)` corners in the frame of their common rotation
/// (world coordinates turned back by that rotation, metres), or `None` when the
/// two poses are not rotated exactly alike.
///
/// `world = t + R (s local)`, so `R⁻¹ world = R⁻¹ t + s local`: in that frame a
/// box stays axis-aligned, from `R⁻¹ t + s min` to `R⁻¹ t + s max`. Each box
/// uses its own pose only, so the result is the same for both argument orders.
pub fn bounds_in_common_frame(
    a: &Aabb,
    pose_a: &Pose,
    b: &Aabb,
    pose_b: &Pose,
) -> Option<[(Vec2, Vec2); 2]> {
    if pose_a.rotation != pose_b.rotation {
        return None;
    }
    let bounds = |aabb: &Aabb, pose: &Pose| {
        let origin = pose.rotation.inverse_transform_vector(&pose.translation);
        (
            origin + aabb.min * pose.scale,
            origin + aabb.max * pose.scale,
        )
    };
    Some([bounds(a, pose_a), bounds(b, pose_b)])
}

/// True if the two placed boxes overlap or touch.
///
/// Equally rotated poses: the closed interval test on x and on y (seed 003
/// compares a box's bottom using its X; here each axis uses its own
/// coordinates). Otherwise the boxes are placed as polygons and go through the
/// separating axis test.
pub fn intersects_aabb_aabb(a: &Aabb, pose_a: &Pose, b: &Aabb, pose_b: &Pose) -> bool {
    match bounds_in_common_frame(a, pose_a, b, pose_b) {
        Some([(min_a, max_a), (min_b, max_b)]) => {
            min_a.x <= max_b.x && min_b.x <= max_a.x && min_a.y <= max_b.y && min_b.y <= max_a.y
        }
        None => intersects_polygon_polygon(
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
    fn touching_boxes_and_rotated_fallback() {
        let unit = Aabb::new(vec2(0.0, 0.0), vec2(1.0, 1.0)).unwrap();
        let tall = Aabb::new(vec2(0.0, 0.0), vec2(0.5, 4.0)).unwrap();
        // Both turned by 0.3 rad; `tall` sits `x` further along their common x axis.
        let turned = |x: f32| Pose::new(vec2(x * 0.3f32.cos(), x * 0.3f32.sin()), 0.3);
        assert!(intersects_aabb_aabb(
            &unit,
            &turned(0.0),
            &tall,
            &turned(0.9999)
        ));
        assert!(!intersects_aabb_aabb(
            &unit,
            &turned(0.0),
            &tall,
            &turned(1.01)
        ));
        // A wide, low box to the right of a tall one: seed 003's x/y mix would
        // compare the tall box's bottom with the wide box's left.
        let wide = Aabb::new(vec2(2.0, 0.0), vec2(6.0, 0.5)).unwrap();
        assert!(!intersects_aabb_aabb(
            &tall,
            &Pose::IDENTITY,
            &wide,
            &Pose::IDENTITY
        ));
        // Differently rotated: polygon SAT.
        let diamond = Pose::new(vec2(1.0 + 0.5f32.sqrt(), 0.5), std::f32::consts::FRAC_PI_4);
        let centred = Aabb::new(vec2(-0.5, -0.5), vec2(0.5, 0.5)).unwrap();
        assert!(intersects_aabb_aabb(
            &unit,
            &Pose::IDENTITY,
            &centred,
            &diamond
        ));
        let diamond_apart = Pose::new(vec2(1.01 + 0.5f32.sqrt(), 0.5), std::f32::consts::FRAC_PI_4);
        assert!(!intersects_aabb_aabb(
            &unit,
            &Pose::IDENTITY,
            &centred,
            &diamond_apart
        ));
    }
}
