//! OrientedRect against OrientedRect: the four-axis separating axis test (seed 000).

use crate::math::{Pose, Real, Vec2};
use crate::shape::OrientedRect;

/// An oriented rectangle resolved into world coordinates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WorldRect {
    /// Centre (world, metres).
    pub center: Vec2,
    /// The rectangle's unit x and y axes (world).
    pub axes: [Vec2; 2],
    /// Half extents along those axes (world, metres).
    pub half_extents: Vec2,
}

impl WorldRect {
    /// Places `rect` with `pose`: its own rotation composed with the pose's.
    pub fn new(rect: &OrientedRect, pose: &Pose) -> Self {
        let [x_axis, y_axis] = rect.axes();
        WorldRect {
            center: pose.transform_point(rect.center()),
            axes: [pose.rotate(x_axis), pose.rotate(y_axis)],
            half_extents: rect.half_extents() * pose.scale,
        }
    }

    /// Half the length of the rectangle's projection onto the unit `axis` (metres).
    #[inline]
    pub fn projected_radius(&self, axis: Vec2) -> Real {
        self.half_extents.x * self.axes[0].dot(&axis).abs()
            + self.half_extents.y * self.axes[1].dot(&axis).abs()
    }

    /// The corners counter-clockwise (world).
    pub fn vertices(&self) -> [Vec2; 4] {
        let ex = self.axes[0] * self.half_extents.x;
        let ey = self.axes[1] * self.half_extents.y;
        [
            self.center - ex - ey,
            self.center + ex - ey,
            self.center + ex + ey,
            self.center - ex + ey,
        ]
    }
}

/// True if the two placed rectangles overlap or touch.
///
/// Seed 000 projects two opposite edges of each rectangle onto each edge
/// direction; equivalently, along each of the four axes (two per rectangle)
/// the centres' distance is compared with the sum of the projected half
/// widths. Symmetric in A and B.
pub fn intersects_rect_rect(
    a: &OrientedRect,
    pose_a: &Pose,
    b: &OrientedRect,
    pose_b: &Pose,
) -> bool {
    let (a, b) = (WorldRect::new(a, pose_a), WorldRect::new(b, pose_b));
    let offset = b.center - a.center;
    [a.axes[0], a.axes[1], b.axes[0], b.axes[1]]
        .into_iter()
        .all(|axis| offset.dot(&axis).abs() <= a.projected_radius(axis) + b.projected_radius(axis))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;

    #[test]
    fn rotated_rectangles_near_and_far() {
        let square = OrientedRect::new(vec2(0.0, 0.0), vec2(1.0, 1.0), 0.0).unwrap();
        let diamond =
            OrientedRect::new(vec2(0.0, 0.0), vec2(1.0, 1.0), std::f32::consts::FRAC_PI_4).unwrap();
        let reach = 1.0 + 2f32.sqrt();
        assert!(intersects_rect_rect(
            &square,
            &Pose::IDENTITY,
            &diamond,
            &Pose::from_translation(vec2(reach - 1e-5, 0.3))
        ));
        assert!(!intersects_rect_rect(
            &square,
            &Pose::IDENTITY,
            &diamond,
            &Pose::from_translation(vec2(reach + 1e-3, 0.3))
        ));
        // Only a diagonal axis separates these two (their x and y extents overlap).
        assert!(!intersects_rect_rect(
            &square,
            &Pose::IDENTITY,
            &diamond,
            &Pose::from_translation(vec2(2.0, 2.0))
        ));
    }
}
