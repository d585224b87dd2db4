//! `distance_tree_shape`: branch-and-bound distance from a tree to a shape.

use super::distance_tree_tree::closest_points_tree_tree_below;
use super::probe::Probe;
use super::walk::{Visitor, WorldCircle, visit_leaves, walk};
use super::{QueryBudget, TreeClosestPoints, TreeQueryStats, part};
use crate::math::{Pose, Real};
use crate::query::placed::Placed;
use crate::shape::{CircleTree, Shape};
use std::borrow::Cow;
use std::ops::ControlFlow;

struct Nearest<'a> {
    tree: &'a CircleTree,
    probe: Probe<'a>,
    best: Real,
    witness: Option<TreeClosestPoints>,
}

impl Nearest<'_> {
    fn consider(&mut self, node: u32, circle: &WorldCircle) -> ControlFlow<()> {
        match self.probe.closest(circle) {
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
                        node_a: node,
                        node_b: None,
                        part_a: part(self.tree, node),
                        part_b: None,
                    });
                }
                ControlFlow::Continue(())
            }
        }
    }
}

impl Visitor for Nearest<'_> {
    fn enter(&mut self, circle: &WorldCircle) -> Option<Real> {
        let bound = self.probe.distance_bound(circle);
        (bound < self.best).then_some(bound)
    }

    fn leaf(&mut self, node: u32, circle: &WorldCircle) -> ControlFlow<()> {
        self.consider(node, circle)
    }

    fn cut(&mut self, node: u32, circle: &WorldCircle) -> ControlFlow<()> {
        // The node circle's distance bounds its leaves' from below.
        self.consider(node, circle)
    }

    fn ordered(&self) -> bool {
        true
    }

    fn useful(&self, bound: Real) -> bool {
        bound < self.best
    }
}

fn nearest(
    tree: &CircleTree,
    tree_pose: &Pose,
    shape: &Shape,
    shape_pose: &Pose,
    budget: QueryBudget,
) -> (Option<TreeClosestPoints>, Real, TreeQueryStats) {
    let mut visitor = Nearest {
        tree,
        probe: Probe::new(shape, shape_pose),
        best: Real::INFINITY,
        witness: None,
    };
    let stats = walk(tree, tree_pose, &budget, &mut visitor);
    (visitor.witness, visitor.best, stats)
}

/// Distance in metres from the leaves of `tree` to `shape`; 0 when they
/// intersect (touching counts).
///
/// # Examples
/// ```
/// use circlet::math::{Pose, vec2};
/// use circlet::query::tree::distance_tree_shape;
/// use circlet::shape::{CircleTree, Circle, Shape};
/// let tree = CircleTree::from_leaves(&[Circle::new(vec2(0.0, 0.0), 1.0).unwrap()], 4).unwrap();
/// let dot = Shape::from(Circle::new(vec2(0.0, 0.0), 0.5).unwrap());
/// let d = distance_tree_shape(&tree, &Pose::IDENTITY.with_scale(2.0), &dot, &Pose::from_translation(vec2(5.0, 0.0)));
/// assert!((d - 2.5).abs() < 1e-5);
/// ```
pub fn distance_tree_shape(
    tree: &CircleTree,
    tree_pose: &Pose,
    shape: &Shape,
    shape_pose: &Pose,
) -> Real {
    distance_tree_shape_with_stats(tree, tree_pose, shape, shape_pose, QueryBudget::UNLIMITED).0
}

/// The closest points of the tree's leaves and the shape, naming the leaf and
/// its part; `None` when they intersect.
pub fn closest_points_tree_shape(
    tree: &CircleTree,
    tree_pose: &Pose,
    shape: &Shape,
    shape_pose: &Pose,
) -> Option<TreeClosestPoints> {
    nearest(tree, tree_pose, shape, shape_pose, QueryBudget::UNLIMITED).0
}

/// [`closest_points_tree_shape`] against a shape already placed in the
/// world: the tree arm of [`crate::query::distance::closest_points_placed`].
/// A placed tree goes to [`super::closest_points_tree_tree`].
pub(crate) fn closest_points_tree_placed(
    tree: &CircleTree,
    pose: &Pose,
    other: &Placed,
) -> Option<TreeClosestPoints> {
    closest_points_tree_placed_below(tree, pose, other, Real::INFINITY).flatten()
}

/// [`closest_points_tree_placed`] for a caller that only needs distances
/// below `cap` metres: `None` when the shapes are at least `cap` apart, else
/// `Some` of exactly what [`closest_points_tree_placed`] answers (`cap` >
/// 0; the descent starts with `cap` as its best distance; see
/// [`closest_points_tree_tree_below`] for why the answer is the same).
pub(crate) fn closest_points_tree_placed_below(
    tree: &CircleTree,
    pose: &Pose,
    other: &Placed,
    cap: Real,
) -> Option<Option<TreeClosestPoints>> {
    if let Placed::Tree(other_tree, other_pose) = other {
        return closest_points_tree_tree_below(tree, pose, other_tree, other_pose, cap);
    }
    let mut visitor = Nearest {
        tree,
        probe: Probe::from_placed(Cow::Borrowed(other)),
        best: cap,
        witness: None,
    };
    walk(tree, pose, &QueryBudget::UNLIMITED, &mut visitor);
    (visitor.witness.is_some() || visitor.best < cap).then_some(visitor.witness)
}

/// [`distance_tree_shape`] within a budget, with the counters: under a cut
/// the answer is a lower bound (a node circle's distance).
pub fn distance_tree_shape_with_stats(
    tree: &CircleTree,
    tree_pose: &Pose,
    shape: &Shape,
    shape_pose: &Pose,
    budget: QueryBudget,
) -> (Real, TreeQueryStats) {
    let (_, best, stats) = nearest(tree, tree_pose, shape, shape_pose, budget);
    (if best.is_finite() { best } else { 0.0 }, stats)
}

/// The brute-force reference of [`closest_points_tree_shape`] and
/// [`distance_tree_shape`]: every leaf tested.
pub(crate) fn brute_force(
    tree: &CircleTree,
    tree_pose: &Pose,
    shape: &Shape,
    shape_pose: &Pose,
) -> (Option<TreeClosestPoints>, Real, TreeQueryStats) {
    let mut visitor = Nearest {
        tree,
        probe: Probe::new(shape, shape_pose),
        best: Real::INFINITY,
        witness: None,
    };
    let stats = visit_leaves(tree, tree_pose, &mut visitor);
    (visitor.witness, visitor.best, stats)
}
