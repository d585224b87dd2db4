//! Circle against TileTriangle: seed 001's tile test with the exact hypotenuse.

use super::intersects_circle_aabb::closest_point_on_aabb;
use crate::math::{Pose, Real, Vec2, cross};
use crate::query::geometry::closest_point_on_segment;
use crate::shape::TileTriangle;

/// The point of the tile (local frame) closest to the local point.
///
/// Clamp onto the tile's rectangle first; if that point is on the kept side of
/// the hypotenuse it is the answer (the triangle lies inside the rectangle and
/// contains it). Otherwise the closest point lies on the hypotenuse, and the
/// exact closest point on that segment is taken (seed 001 walks along the
/// slope pixel by pixel instead, and can step over a touching circle).
pub fn closest_point_on_tile(local_point: Vec2, tile: &TileTriangle) -> Vec2 {
    let clamped = closest_point_on_aabb(local_point, &tile.rect());
    let (start, end) = tile.hypotenuse();
    // The hypotenuse runs counter-clockwise, so the triangle is on its left.
    if cross(end - start, clamped - start) >= 0.0 {
        clamped
    } else {
        closest_point_on_segment(local_point, start, end).0
    }
}

/// True if the world circle (`center`, `radius`) meets the tile placed at `pose`.
#[inline]
pub fn intersects_circle_tile(
    center: Vec2,
    radius: Real,
    tile: &TileTriangle,
    pose: &Pose,
) -> bool {
    let local_center = pose.inverse_transform_point(center);
    let local_radius = radius / pose.scale;
    (local_center - closest_point_on_tile(local_center, tile)).norm_squared()
        <= local_radius * local_radius
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;
    use crate::shape::Corner;

    #[test]
    fn closest_point_for_each_region_of_a_lower_left_tile() {
        let tile = TileTriangle::new(vec2(0.0, 0.0), vec2(2.0, 2.0), Corner::LowerLeft).unwrap();
        assert_eq!(closest_point_on_tile(vec2(1.5, 1.5), &tile), vec2(1.5, 1.5)); // inside
        assert_eq!(closest_point_on_tile(vec2(1.0, 3.0), &tile), vec2(1.0, 2.0)); // top
        assert_eq!(closest_point_on_tile(vec2(3.0, 3.0), &tile), vec2(2.0, 2.0)); // corner
        assert_eq!(closest_point_on_tile(vec2(0.0, 0.0), &tile), vec2(1.0, 1.0)); // missing corner
        assert_eq!(
            closest_point_on_tile(vec2(-1.0, 4.0), &tile),
            vec2(0.0, 2.0)
        ); // upper-left end
    }

    #[test]
    fn circle_touching_the_slope_hits() {
        let tile = TileTriangle::new(vec2(0.0, 0.0), vec2(2.0, 2.0), Corner::LowerLeft).unwrap();
        let gap = 2f32.sqrt() / 2.0; // from (0.5, 0.5) to the slope x + y = 2 is 1/sqrt(2)
        assert!(intersects_circle_tile(
            vec2(0.5, 0.5),
            gap + 1e-6,
            &tile,
            &Pose::IDENTITY
        ));
        assert!(!intersects_circle_tile(
            vec2(0.5, 0.5),
            gap - 1e-4,
            &tile,
            &Pose::IDENTITY
        ));
    }
}
