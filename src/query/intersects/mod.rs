//! Boolean overlap tests for every pair of shape kinds (touching counts).

use crate::math::Pose;
use crate::shape::Shape;

/// True if the two shapes share at least one point (touching counts).
///
/// # Examples
/// ```
/// use circlet::{math::{Pose, vec2}, shape::{Circle, Shape}, query::intersects};
/// let unit = Shape::from(Circle::new(vec2(0.0, 0.0), 1.0).unwrap());
/// let touching = Pose::from_translation(vec2(2.0, 0.0));
/// assert!(intersects(&unit, &Pose::IDENTITY, &unit, &touching));
/// let apart = Pose::from_translation(vec2(2.01, 0.0));
/// assert!(!intersects(&unit, &Pose::IDENTITY, &unit, &apart));
/// ```
pub fn intersects(a: &Shape, pose_a: &Pose, b: &Shape, pose_b: &Pose) -> bool {
    let _ = (a, pose_a, b, pose_b);
    todo!("intersects dispatch")
}
