//! `distance_tree_tree`: branch-and-bound distance between two trees.

use super::probe::{circles_closest, circles_distance_bound};
use super::walk::{PairVisitor, WorldCircle, visit_leaf_pairs, walk_pair};
use super::{QueryBudget, TreeClosestPoints, TreeQueryStats, part};
use crate::math::{Pose, Real};
use crate::shape::CircleTree;
use std::ops::ControlFlow;

struct Nearest<'a> {
    tree_a: &'a CircleTree,
    tree_b: &'a CircleTree,
    best: Real,
    witness: Option<TreeClosestPoints>,
}

impl Nearest<'_> {
    fn consider(
        &mut self,
        node_a: u32,
        a: &WorldCircle,
        node_b: u32,
        b: &WorldCircle,
    ) -> ControlFlow<()> {
        match circles_closest(a, b) {
            None => {
                self.best = 0.0;
                self.witness = None;
                ControlFlow::Break(())
            }
            Some((distance, point_a, point_b)) => {
                if distance < self.best {
                    self.best = distance;
                    self.witness = Some(TreeClosestPoints {
                        distance,
                        point_a,
                        point_b,
                        node_a,
                        node_b: Some(node_b),
                        part_a: part(self.tree_a, node_a),
                        part_b: part(self.tree_b, node_b),
                    });
                }
                ControlFlow::Continue(())
            }
        }
    }
}

impl PairVisitor for Nearest<'_> {
    fn enter(&mut self, a: &WorldCircle, b: &WorldCircle) -> Option<Real> {
        let bound = circles_distance_bound(a, b);
        (bound < self.best).then_some(bound)
    }

    fn leaves(
        &mut self,
        node_a: u32,
        a: &WorldCircle,
        node_b: u32,
        b: &WorldCircle,
    ) -> ControlFlow<()> {
        self.consider(node_a, a, node_b, b)
    }

    fn cut(
        &mut self,
        node_a: u32,
        a: &WorldCircle,
        node_b: u32,
        b: &WorldCircle,
    ) -> ControlFlow<()> {
        self.consider(node_a, a, node_b, b)
    }

    fn ordered(&self) -> bool {
        true
    }

    fn useful(&self, bound: Real) -> bool {
        bound < self.best
    }
}

/// The nearest leaf pair closer than `cap` (∞: any), its distance (`cap`
/// when none is; 0 when two leaves intersect) and the counters.
fn nearest(
    tree_a: &CircleTree,
    pose_a: &Pose,
    tree_b: &CircleTree,
    pose_b: &Pose,
    budget: QueryBudget,
    cap: Real,
) -> (Option<TreeClosestPoints>, Real, TreeQueryStats) {
    let mut visitor = Nearest {
        tree_a,
        tree_b,
        best: cap,
        witness: None,
    };
    let stats = walk_pair(tree_a, pose_a, tree_b, pose_b, &budget, &mut visitor);
    (visitor.witness, visitor.best, stats)
}

/// Distance in metres between the leaves of two trees; 0 when they intersect.
/// This is what conservative advancement needs for rotating bodies.
pub fn distance_tree_tree(
    tree_a: &CircleTree,
    pose_a: &Pose,
    tree_b: &CircleTree,
    pose_b: &Pose,
) -> Real {
    distance_tree_tree_with_stats(tree_a, pose_a, tree_b, pose_b, QueryBudget::UNLIMITED).0
}

/// The closest points of two trees, naming both leaves and parts; `None`
/// when they intersect.
pub fn closest_points_tree_tree(
    tree_a: &CircleTree,
    pose_a: &Pose,
    tree_b: &CircleTree,
    pose_b: &Pose,
) -> Option<TreeClosestPoints> {
    nearest(
        tree_a,
        pose_a,
        tree_b,
        pose_b,
        QueryBudget::UNLIMITED,
        Real::INFINITY,
    )
    .0
}

/// [`closest_points_tree_tree`] for a caller that only needs distances
/// below `cap` metres (> 0): `None` when the trees are at least `cap`
/// apart, else `Some` of exactly what [`closest_points_tree_tree`] answers.
///
/// The descent starts with `cap` as its best distance, so it prunes every
/// node pair at least `cap` apart. What it still visits, it visits in the
/// same order as the full descent, and every node pair on the way to the
/// nearest leaf pair is closer than the best so far in both: both end on
/// the same leaf pair (or the same intersection). That rests on each node
/// pair's bound being no more than its leaves' computed distances, which
/// the pruning slack ([`super::walk::PRUNE_SLACK`]) provides, counting the
/// leaves' offset from their own origin as well as their world position.
pub(crate) fn closest_points_tree_tree_below(
    tree_a: &CircleTree,
    pose_a: &Pose,
    tree_b: &CircleTree,
    pose_b: &Pose,
    cap: Real,
) -> Option<Option<TreeClosestPoints>> {
    let (witness, best, _) = nearest(tree_a, pose_a, tree_b, pose_b, QueryBudget::UNLIMITED, cap);
    // `best` is only lowered, to a leaf pair's distance below `cap` or to 0
    // at an intersection (which leaves no witness).
    (witness.is_some() || best < cap).then_some(witness)
}

/// [`distance_tree_tree`] within a budget, with the counters (a lower bound under a cut).
pub fn distance_tree_tree_with_stats(
    tree_a: &CircleTree,
    pose_a: &Pose,
    tree_b: &CircleTree,
    pose_b: &Pose,
    budget: QueryBudget,
) -> (Real, TreeQueryStats) {
    let (_, best, stats) = nearest(tree_a, pose_a, tree_b, pose_b, budget, Real::INFINITY);
    (if best.is_finite() { best } else { 0.0 }, stats)
}

/// The brute-force reference of [`closest_points_tree_tree`] and
/// [`distance_tree_tree`]: every leaf pair tested.
pub(crate) fn brute_force(
    tree_a: &CircleTree,
    pose_a: &Pose,
    tree_b: &CircleTree,
    pose_b: &Pose,
) -> (Option<TreeClosestPoints>, Real, TreeQueryStats) {
    let mut visitor = Nearest {
        tree_a,
        tree_b,
        best: Real::INFINITY,
        witness: None,
    };
    let stats = visit_leaf_pairs(tree_a, pose_a, tree_b, pose_b, &mut visitor);
    (visitor.witness, visitor.best, stats)
}

#[cfg(test)]
mod far_leaves {
    use super::*;
    use crate::math::vec2;
    use crate::shape::Circle;

    /// Trees whose leaves lie 10 km from their own origin, placed so that
    /// the leaves sit near the world's: the leaves' placement rounds by
    /// about a millimetre, and the pruned descent, full or capped one ulp
    /// above the distance, must still find the brute-force nearest pair
    /// (before the slack counted the local offset, 13 of these 200,000
    /// pairs ended on a farther one in the full descent).
    #[test]
    fn leaves_far_from_their_origin_keep_the_nearest_pair() {
        let mut seed = 12345u32;
        let mut unit = || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed as Real / u32::MAX as Real
        };
        let offset = 10_000.0;
        for _ in 0..200_000 {
            let mut leaves = |count: usize, at: Real| -> Vec<Circle> {
                (0..count)
                    .map(|_| {
                        let center = vec2(at + unit() * 0.2 - 0.1, unit() * 0.2 - 0.1);
                        Circle::new(center, 0.01 + unit() * 0.03).unwrap()
                    })
                    .collect()
            };
            let a = CircleTree::from_leaves(&leaves(4, offset), 2).unwrap();
            let b = CircleTree::from_leaves(&leaves(3, 0.0), 2).unwrap();
            let angle = unit() * std::f32::consts::TAU;
            let turned = Pose::new(vec2(0.0, 0.0), angle).transform_point(vec2(offset, 0.0));
            let pose_a = Pose::new(-turned, angle);
            let pose_b = Pose::from_translation(vec2(unit() * 0.6 - 0.3, unit() * 0.6 - 0.3));
            let pruned = closest_points_tree_tree(&a, &pose_a, &b, &pose_b);
            let (brute, _, _) = brute_force(&a, &pose_a, &b, &pose_b);
            assert_eq!(format!("{pruned:?}"), format!("{brute:?}"));
            // Capped one ulp above the distance: the same pair.
            if let Some(nearest) = brute {
                let cap = nearest.distance.next_up();
                let capped = closest_points_tree_tree_below(&a, &pose_a, &b, &pose_b, cap);
                assert_eq!(format!("{capped:?}"), format!("{:?}", Some(brute)));
            }
        }
    }
}
