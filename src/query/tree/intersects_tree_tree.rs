//! `intersects_tree_tree`: does any leaf of one tree touch a leaf of another?

use super::probe::{circles_intersect, circles_may_touch};
use super::walk::{PairVisitor, WorldCircle, visit_leaf_pairs, walk_pair};
use super::{QueryBudget, TreeQueryStats};
use crate::math::{Pose, Real};
use crate::shape::CircleTree;
use std::ops::ControlFlow;

struct Intersects {
    hit: bool,
}

impl PairVisitor for Intersects {
    fn enter(&mut self, a: &WorldCircle, b: &WorldCircle) -> Option<Real> {
        circles_may_touch(a, b, 0.0).then_some(0.0)
    }

    fn leaves(&mut self, _: u32, a: &WorldCircle, _: u32, b: &WorldCircle) -> ControlFlow<()> {
        if circles_intersect(a, b) {
            self.hit = true;
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    }

    fn cut(&mut self, _: u32, _: &WorldCircle, _: u32, _: &WorldCircle) -> ControlFlow<()> {
        self.hit = true;
        ControlFlow::Break(())
    }
}

/// True if some leaf of `tree_a` shares a point with some leaf of `tree_b`
/// (touching counts).
pub fn intersects_tree_tree(
    tree_a: &CircleTree,
    pose_a: &Pose,
    tree_b: &CircleTree,
    pose_b: &Pose,
) -> bool {
    intersects_tree_tree_with_stats(tree_a, pose_a, tree_b, pose_b, QueryBudget::UNLIMITED).0
}

/// [`intersects_tree_tree`] within a budget, with the counters; a node pair
/// the budget stops at that passes its test counts as a hit.
pub fn intersects_tree_tree_with_stats(
    tree_a: &CircleTree,
    pose_a: &Pose,
    tree_b: &CircleTree,
    pose_b: &Pose,
    budget: QueryBudget,
) -> (bool, TreeQueryStats) {
    let mut visitor = Intersects { hit: false };
    let stats = walk_pair(tree_a, pose_a, tree_b, pose_b, &budget, &mut visitor);
    (visitor.hit, stats)
}

/// The brute-force reference of [`intersects_tree_tree`]: every leaf pair tested.
pub(crate) fn brute_force(
    tree_a: &CircleTree,
    pose_a: &Pose,
    tree_b: &CircleTree,
    pose_b: &Pose,
) -> (bool, TreeQueryStats) {
    let mut visitor = Intersects { hit: false };
    let stats = visit_leaf_pairs(tree_a, pose_a, tree_b, pose_b, &mut visitor);
    (visitor.hit, stats)
}
