//! Circle to TileTriangle, in the tile's local frame (fast path of circle to polygon).

use super::ClosestPoints;
use crate::math::{Pose, Real, Vec2};
use crate::query::intersects::{closest_point_on_tile, intersects_circle_tile};
use crate::shape::TileTriangle;

/// Closest points of a world circle and the tile placed at `pose`; `None` when they meet.
pub fn distance_circle_tile(
    center: Vec2,
    radius: Real,
    tile: &TileTriangle,
    pose: &Pose,
) -> Option<ClosestPoints> {
    if intersects_circle_tile(center, radius, tile, pose) {
        return None;
    }
    let on_tile = pose.transform_point(closest_point_on_tile(
        pose.inverse_transform_point(center),
        tile,
    ));
    Some(ClosestPoints::from_cores(center, radius, on_tile, 0.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;
    use crate::shape::Corner;

    #[test]
    fn ball_facing_the_slope() {
        let tile = TileTriangle::new(vec2(0.0, 0.0), vec2(2.0, 2.0), Corner::LowerLeft).unwrap();
        let c = distance_circle_tile(vec2(0.0, 0.0), 0.5, &tile, &Pose::IDENTITY).unwrap();
        assert!((c.distance - (2f32.sqrt() - 0.5)).abs() < 1e-6);
        assert!((c.point_b - vec2(1.0, 1.0)).norm() < 1e-6);
    }
}
