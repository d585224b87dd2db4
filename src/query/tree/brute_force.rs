//! The brute-force references: each tree query answered by testing every
//! leaf (every leaf pair) with the same leaf kernels, nothing pruned. The
//! tests hold the pruned queries to these; the benches compare against them.

use super::{LeafContact, TreeCastHit, TreeClosestPoints, TreeQueryStats};
use crate::math::{Pose, Real, Vec2};
use crate::shape::{Capsule, CircleTree, Shape};

/// Every leaf against the shape: does any intersect it?
pub fn intersects_tree_shape(
    tree: &CircleTree,
    tree_pose: &Pose,
    shape: &Shape,
    shape_pose: &Pose,
) -> (bool, TreeQueryStats) {
    super::intersects_tree_shape::brute_force(tree, tree_pose, shape, shape_pose)
}

/// Every leaf's contact with the shape within `margin`, in leaf order.
pub fn leaf_contacts_tree_shape(
    tree: &CircleTree,
    tree_pose: &Pose,
    shape: &Shape,
    shape_pose: &Pose,
    margin: Real,
) -> (Vec<LeafContact>, TreeQueryStats) {
    super::contact_tree_shape::brute_force(tree, tree_pose, shape, shape_pose, margin)
}

/// The smallest leaf distance to the shape (0 when one intersects) and its
/// closest points (`None` when one intersects).
pub fn distance_tree_shape(
    tree: &CircleTree,
    tree_pose: &Pose,
    shape: &Shape,
    shape_pose: &Pose,
) -> (Real, Option<TreeClosestPoints>, TreeQueryStats) {
    let (witness, best, stats) =
        super::distance_tree_shape::brute_force(tree, tree_pose, shape, shape_pose);
    (if best.is_finite() { best } else { 0.0 }, witness, stats)
}

/// The first leaf holding the world point.
pub fn point_inside_tree(
    tree: &CircleTree,
    pose: &Pose,
    point: Vec2,
) -> (Option<u32>, TreeQueryStats) {
    super::point_inside_tree::brute_force(tree, pose, point)
}

/// The earliest leaf hit by the swept disc (lowest node index on ties).
pub fn cast_capsule_tree(
    shot: &Capsule,
    shot_pose: &Pose,
    tree: &CircleTree,
    tree_pose: &Pose,
) -> (Option<TreeCastHit>, TreeQueryStats) {
    super::cast_capsule_tree::brute_force(shot, shot_pose, tree, tree_pose)
}

/// Every leaf pair: does any intersect?
pub fn intersects_tree_tree(
    tree_a: &CircleTree,
    pose_a: &Pose,
    tree_b: &CircleTree,
    pose_b: &Pose,
) -> (bool, TreeQueryStats) {
    super::intersects_tree_tree::brute_force(tree_a, pose_a, tree_b, pose_b)
}

/// Every leaf pair's contact within `margin`.
pub fn leaf_contacts_tree_tree(
    tree_a: &CircleTree,
    pose_a: &Pose,
    tree_b: &CircleTree,
    pose_b: &Pose,
    margin: Real,
) -> (Vec<LeafContact>, TreeQueryStats) {
    super::contact_tree_tree::brute_force(tree_a, pose_a, tree_b, pose_b, margin)
}

/// The smallest leaf-pair distance (0 when one pair intersects) and its closest points.
pub fn distance_tree_tree(
    tree_a: &CircleTree,
    pose_a: &Pose,
    tree_b: &CircleTree,
    pose_b: &Pose,
) -> (Real, Option<TreeClosestPoints>, TreeQueryStats) {
    let (witness, best, stats) =
        super::distance_tree_tree::brute_force(tree_a, pose_a, tree_b, pose_b);
    (if best.is_finite() { best } else { 0.0 }, witness, stats)
}
