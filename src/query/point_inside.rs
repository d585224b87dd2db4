//! Point containment for every shape kind (boundary counts as inside).
//!
//! Shapes without area contain only the points on them. A [`crate::shape::SimplePolygon`]
//! uses the even-odd rule, which for a simple outline equals the winding rule.

use crate::math::{Pose, Vec2};
use crate::shape::Shape;

/// True if the world point `point` lies in `shape` placed at `pose` (boundary included).
pub fn point_inside(shape: &Shape, pose: &Pose, point: Vec2) -> bool {
    let _ = (shape, pose, point);
    todo!("point_inside")
}
