//! `intersects_tree_shape`: does any leaf of a tree share a point with a shape?

use super::intersects_tree_tree::intersects_tree_tree;
use super::probe::Probe;
use super::walk::{Visitor, WorldCircle, visit_leaves, walk};
use super::{QueryBudget, TreeQueryStats};
use crate::math::{Pose, Real};
use crate::query::placed::Placed;
use crate::shape::{CircleTree, Shape};
use std::borrow::Cow;
use std::ops::ControlFlow;

struct Intersects<'a> {
    probe: Probe<'a>,
    hit: bool,
}

impl Visitor for Intersects<'_> {
    fn enter(&mut self, circle: &WorldCircle) -> Option<Real> {
        self.probe.may_touch(circle, 0.0).then_some(0.0)
    }

    fn leaf(&mut self, _node: u32, circle: &WorldCircle) -> ControlFlow<()> {
        if self.probe.intersects(circle) {
            self.hit = true;
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    }

    fn cut(&mut self, _node: u32, _circle: &WorldCircle) -> ControlFlow<()> {
        // A node that passed may hold a hit: conservative answer.
        self.hit = true;
        ControlFlow::Break(())
    }
}

/// True if some leaf of `tree` (at `tree_pose`) shares a point with `shape`
/// (at `shape_pose`); touching counts.
///
/// # Examples
/// ```
/// use circlet::math::{Pose, vec2};
/// use circlet::query::tree::intersects_tree_shape;
/// use circlet::shape::{Capsule, CircleTree, Circle, Shape};
/// let tree = CircleTree::from_leaves(&[
///     Circle::new(vec2(-1.0, 0.0), 0.5).unwrap(),
///     Circle::new(vec2(1.0, 0.0), 0.5).unwrap(),
/// ], 4).unwrap();
/// // A thick shot through the gap between the two leaves misses.
/// let shot = Shape::from(Capsule::new(vec2(0.0, -2.0), vec2(0.0, 2.0), 0.25).unwrap());
/// assert!(!intersects_tree_shape(&tree, &Pose::IDENTITY, &shot, &Pose::IDENTITY));
/// // Twice as large, the tree's leaves close the gap: scaling is just the pose.
/// let scaled = Pose::IDENTITY.with_scale(2.0);
/// assert!(intersects_tree_shape(&tree, &scaled, &shot, &Pose::from_translation(vec2(1.0, 0.0))));
/// ```
pub fn intersects_tree_shape(
    tree: &CircleTree,
    tree_pose: &Pose,
    shape: &Shape,
    shape_pose: &Pose,
) -> bool {
    intersects_tree_shape_with_stats(tree, tree_pose, shape, shape_pose, QueryBudget::UNLIMITED).0
}

/// [`intersects_tree_shape`] within a budget, with the counters. A node the
/// budget stops at that passes its test counts as a hit.
pub fn intersects_tree_shape_with_stats(
    tree: &CircleTree,
    tree_pose: &Pose,
    shape: &Shape,
    shape_pose: &Pose,
    budget: QueryBudget,
) -> (bool, TreeQueryStats) {
    let mut visitor = Intersects {
        probe: Probe::new(shape, shape_pose),
        hit: false,
    };
    let stats = walk(tree, tree_pose, &budget, &mut visitor);
    (visitor.hit, stats)
}

/// [`intersects_tree_shape`] against a shape already placed in the world:
/// the tree arm of [`crate::query::intersects::intersects_placed`]. A placed
/// tree goes to [`intersects_tree_tree`] (both trees descend together).
pub(crate) fn intersects_tree_placed(tree: &CircleTree, pose: &Pose, other: &Placed) -> bool {
    if let Placed::Tree(other_tree, other_pose) = other {
        return intersects_tree_tree(tree, pose, other_tree, other_pose);
    }
    let mut visitor = Intersects {
        probe: Probe::from_placed(Cow::Borrowed(other)),
        hit: false,
    };
    walk(tree, pose, &QueryBudget::UNLIMITED, &mut visitor);
    visitor.hit
}

/// The brute-force reference of [`intersects_tree_shape`]: every leaf tested.
pub(crate) fn brute_force(
    tree: &CircleTree,
    tree_pose: &Pose,
    shape: &Shape,
    shape_pose: &Pose,
) -> (bool, TreeQueryStats) {
    let mut visitor = Intersects {
        probe: Probe::new(shape, shape_pose),
        hit: false,
    };
    let stats = visit_leaves(tree, tree_pose, &mut visitor);
    (visitor.hit, stats)
}
