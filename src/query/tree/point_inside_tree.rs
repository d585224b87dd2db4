//! `point_inside_tree`: is a world point inside some leaf of a tree?

use super::walk::{Visitor, WorldCircle, visit_leaves, walk};
use super::{QueryBudget, TreeQueryStats};
use crate::math::{Pose, Real, Vec2};
use crate::shape::CircleTree;
use std::ops::ControlFlow;

struct Inside {
    point: Vec2,
    found: Option<u32>,
}

impl Visitor for Inside {
    fn enter(&mut self, circle: &WorldCircle) -> Option<Real> {
        let reach = circle.radius + circle.slack;
        ((self.point - circle.center).norm_squared() <= reach * reach).then_some(0.0)
    }

    fn leaf(&mut self, node: u32, circle: &WorldCircle) -> ControlFlow<()> {
        if (self.point - circle.center).norm_squared() <= circle.radius * circle.radius {
            self.found = Some(node);
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    }

    fn cut(&mut self, node: u32, _circle: &WorldCircle) -> ControlFlow<()> {
        self.found = Some(node);
        ControlFlow::Break(())
    }
}

/// True if the world point lies in some leaf of `tree` at `pose` (boundary included).
///
/// # Examples
/// ```
/// use circlet::math::{Pose, vec2};
/// use circlet::query::tree::point_inside_tree;
/// use circlet::shape::{CircleTree, Circle};
/// let tree = CircleTree::from_leaves(&[Circle::new(vec2(1.0, 0.0), 0.5).unwrap()], 4).unwrap();
/// let turned = Pose::new(vec2(0.0, 0.0), std::f32::consts::FRAC_PI_2);
/// assert!(point_inside_tree(&tree, &turned, vec2(0.0, 1.2)));
/// assert!(!point_inside_tree(&tree, &turned, vec2(1.0, 0.0)));
/// ```
pub fn point_inside_tree(tree: &CircleTree, pose: &Pose, point: Vec2) -> bool {
    point_inside_tree_with_stats(tree, pose, point, QueryBudget::UNLIMITED)
        .0
        .is_some()
}

/// The leaf holding the world point (the first found), within a budget, with
/// the counters. A node the budget stops at that holds the point is returned
/// in place of its leaves (conservative).
pub fn point_inside_tree_with_stats(
    tree: &CircleTree,
    pose: &Pose,
    point: Vec2,
    budget: QueryBudget,
) -> (Option<u32>, TreeQueryStats) {
    let mut visitor = Inside { point, found: None };
    let stats = walk(tree, pose, &budget, &mut visitor);
    (visitor.found, stats)
}

/// The brute-force reference of [`point_inside_tree_with_stats`].
pub(crate) fn brute_force(
    tree: &CircleTree,
    pose: &Pose,
    point: Vec2,
) -> (Option<u32>, TreeQueryStats) {
    let mut visitor = Inside { point, found: None };
    let stats = visit_leaves(tree, pose, &mut visitor);
    (visitor.found, stats)
}
