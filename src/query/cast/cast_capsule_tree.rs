//! A thick shot against a circle tree: the first leaf the shot's circle
//! touches, found by a pruned descent, with the leaf's part.
//!
//! The shot is mapped into the tree's local frame once (as for every target,
//! see [`super::local`]); each leaf is then exactly
//! [`super::cast_capsule_circle`]'s quadratic. A node's children are visited
//! only when the shot enters the node's circle (widened by
//! [`crate::query::tree::PRUNE_SLACK`] of its magnitude, so rounding never
//! prunes a leaf the exact test would hit) no later than the best hit so
//! far; nodes are expanded in order of that entry fraction (branch and bound).

use super::local::{LocalHit, LocalShot, cast_circle_local, circle_entry};
use super::shot::{CastHit, Shot};
use crate::math::{Pose, Real};
use crate::query::tree::{QueryBudget, TreeQueryStats};
use crate::query::tree::{Visitor, WorldCircle, walk};
use crate::shape::{CircleTree, PartId};
use std::ops::ControlFlow;

/// Pruning widens each node circle, on top of its own slack, by this many
/// times the shot's rounding allowance ([`LocalShot::slack`]): the entry
/// tests of a node and of a leaf inside it round independently, each by a
/// few ulps of the shot's coordinates (which may be far larger than the
/// tree), and a grazing shot that the leaf test accepts must pass all its
/// ancestors' tests too.
const SHOT_ROUNDING_FACTOR: Real = 4.0;

/// The branch-and-bound visitor: nodes are in the tree's local frame (the
/// descent runs with the identity pose, the shot having been mapped in).
struct FirstLeaf {
    shot: LocalShot,
    /// Best hit so far and the node it came from.
    best: Option<(LocalHit, u32)>,
}

impl FirstLeaf {
    fn consider(&mut self, node: u32, circle: &WorldCircle) -> ControlFlow<()> {
        if let Some(hit) = cast_circle_local(&self.shot, circle.center, circle.radius) {
            // Earliest fraction; equal fractions go to the lower node index.
            let better = self
                .best
                .is_none_or(|(best, best_node)| (hit.fraction, node) < (best.fraction, best_node));
            if better {
                self.best = Some((hit, node));
            }
        }
        ControlFlow::Continue(())
    }
}

impl Visitor for FirstLeaf {
    fn enter(&mut self, circle: &WorldCircle) -> Option<Real> {
        let reach = circle.radius
            + self.shot.radius
            + circle.slack
            + SHOT_ROUNDING_FACTOR * self.shot.slack(circle.radius);
        let bound = if (self.shot.start - circle.center).norm_squared() <= reach * reach {
            0.0
        } else {
            circle_entry(self.shot.start, self.shot.delta, circle.center, reach)?
        };
        self.useful(bound).then_some(bound)
    }

    fn leaf(&mut self, node: u32, circle: &WorldCircle) -> ControlFlow<()> {
        self.consider(node, circle)
    }

    fn cut(&mut self, node: u32, circle: &WorldCircle) -> ControlFlow<()> {
        // Only under a budget: the node's circle stands in for its leaves.
        self.consider(node, circle)
    }

    fn ordered(&self) -> bool {
        true
    }

    fn useful(&self, bound: Real) -> bool {
        self.best.is_none_or(|(best, _)| bound <= best.fraction)
    }
}

/// First hit of `shot` on the leaves of `tree` placed at `pose` (world), or
/// `None`; [`CastHit::part`] names the part of the leaf hit. A shot that
/// starts inside or touching a leaf reports the start of its range with
/// [`CastHit::started_inside`]; among leaves hit at the same fraction the
/// lowest node index wins.
///
/// # Examples
/// ```
/// use circlet::math::{Pose, vec2};
/// use circlet::query::cast::{Shot, cast_capsule_tree};
/// use circlet::shape::TreeBuilder;
/// let (ship, _) = TreeBuilder::node(vec2(0.0, 0.0), 2.0)
///     .child(TreeBuilder::node(vec2(0.0, 1.0), 1.0).part("cockpit"))
///     .child(TreeBuilder::node(vec2(0.0, -1.0), 1.0).part("engine"))
///     .build()
///     .unwrap();
/// let bullet = Shot::thick(vec2(-10.0, -1.0), vec2(10.0, -1.0), 0.2).unwrap();
/// let hit = cast_capsule_tree(&bullet, &ship, &Pose::IDENTITY).unwrap();
/// assert_eq!(hit.part, ship.part_id("engine"));
/// assert!((hit.fraction - (10.0 - 1.1) / 20.0).abs() < 1e-5);
/// assert!((hit.point - vec2(-1.0, -1.0)).norm() < 1e-5);
/// ```
pub fn cast_capsule_tree(shot: &Shot, tree: &CircleTree, pose: &Pose) -> Option<CastHit> {
    cast_capsule_tree_with_stats(shot, tree, pose).0
}

/// [`cast_capsule_tree`] with the descent's counters (node and leaf tests).
pub fn cast_capsule_tree_with_stats(
    shot: &Shot,
    tree: &CircleTree,
    pose: &Pose,
) -> (Option<CastHit>, TreeQueryStats) {
    let mut visitor = FirstLeaf {
        shot: LocalShot::new(shot, pose),
        best: None,
    };
    let stats = walk(tree, &Pose::IDENTITY, &QueryBudget::UNLIMITED, &mut visitor);
    let hit = visitor
        .best
        .map(|(hit, node)| with_part(hit.to_world(shot, pose), tree.part_of(node as usize)));
    (hit, stats)
}

fn with_part(mut hit: CastHit, part: Option<PartId>) -> CastHit {
    hit.part = part;
    hit
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;
    use crate::query::cast::cast_capsule_circle;
    use crate::shape::Circle;

    fn row_of_discs() -> CircleTree {
        let leaves: Vec<Circle> = (0..9)
            .map(|i| Circle::new(vec2(i as Real - 4.0, 0.3 * (i % 3) as Real), 0.4).unwrap())
            .collect();
        CircleTree::from_leaves(&leaves, 3).unwrap()
    }

    #[test]
    fn equals_the_earliest_leaf_cast_and_prunes() {
        let tree = row_of_discs();
        let pose = Pose::new(vec2(2.0, -1.0), 0.7).with_scale(1.5);
        for k in 0..200 {
            let a = k as Real * 0.173;
            let start = vec2(2.0, -1.0) + vec2(a.cos(), a.sin()) * 12.0;
            let end = vec2(2.0, -1.0) + vec2((a * 1.7).sin(), (a * 2.3).cos()) * 3.0;
            let shot = Shot::new(start, end, 0.05 * (k % 4) as Real).unwrap();
            let (hit, stats) = cast_capsule_tree_with_stats(&shot, &tree, &pose);
            let brute = tree
                .leaf_circles()
                .filter_map(|c| cast_capsule_circle(&shot, &c, &pose))
                .min_by(|x, y| x.fraction.total_cmp(&y.fraction));
            assert_eq!(hit.map(|h| h.fraction), brute.map(|h| h.fraction), "{k}");
            assert!(stats.leaf_tests <= 9);
        }
        // A shot far away tests the root only.
        let miss = Shot::ray(vec2(-50.0, 40.0), vec2(50.0, 40.0)).unwrap();
        let (hit, stats) = cast_capsule_tree_with_stats(&miss, &tree, &pose);
        assert!(hit.is_none());
        assert_eq!(stats.node_tests, 1);
    }

    #[test]
    fn starting_inside_a_leaf_reports_the_range_start() {
        let tree = row_of_discs();
        let shot = Shot::ray(vec2(-4.1, 0.0), vec2(4.0, 5.0))
            .unwrap()
            .with_range(0.0, 1.0)
            .unwrap();
        let hit = cast_capsule_tree(&shot, &tree, &Pose::IDENTITY).unwrap();
        assert!(hit.started_inside && hit.fraction == 0.0);
        assert!((hit.normal - vec2(-1.0, 0.0)).norm() < 1e-5);
        assert_eq!(hit.part, None);
    }
}
