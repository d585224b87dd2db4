//! Queries of a [`CircleTree`] against any shape and against another tree.
//!
//! # What is answered
//! The leaves are the collision shape: every query answers exactly what a
//! loop over all leaves would (the [`brute_force`] module is that loop, and
//! the tests hold the pruned queries to it), only faster:
//! - a node's children are tested only when the node's own circle passes
//!   the test (every leaf lies inside all its ancestors' circles);
//! - tree against tree descends both together, always splitting the node
//!   with the larger world radius;
//! - `distance` and `cast` are branch and bound: nodes are expanded nearest
//!   first and dropped once their bound cannot beat the best leaf found.
//!
//! Pruning tests widen each node circle by [`PRUNE_SLACK`] of the
//! magnitudes its placement rounds at (world and scaled local centre, and
//! radius), so that rounding of the pose never prunes a leaf that the exact
//! leaf test would accept.
//!
//! # Frames, units, conventions
//! Trees and shapes are given in their local frames with a [`crate::math::Pose`] each
//! (rotation, translation, uniform scale); results are world coordinates in
//! metres. Normals point from A (the first argument) to B. Touching counts as
//! intersecting. Leaf circles against circles, capsules, points and segments
//! are closed-form; any other kind is placed once ([`crate::query::Placed`])
//! and each leaf goes, as a [`crate::query::Placed::Circle`], through the
//! placed dispatch functions ([`crate::query::intersects::intersects_placed`],
//! [`crate::query::contact::contact_placed`],
//! [`crate::query::distance::closest_points_placed`]).
//!
//! # As a shape
//! A tree is also a [`crate::shape::Shape::Tree`]: the crate's dispatch
//! functions (`intersects`, `closest_points` / `distance`, `contact`,
//! `point_inside`, `cast`, `time_of_impact`) route every pair with a tree
//! here, a tree pair to the joint descent. The functions below also accept
//! a `Shape::Tree` as the shape argument; they then test its leaves one by
//! one through the dispatch (correct, but only the first tree is pruned as a
//! hierarchy: use the `_tree_tree` functions for two trees).
//!
//! # Budget
//! A [`QueryBudget`] bounds the descent (levels, or node tests). A node that
//! passes its test but may not be expanded counts as a possible hit with its
//! own circle standing in for its leaves, so the answer stays conservative:
//! `intersects` may say true, `contact` reports the node circle's contact,
//! `distance` and `cast` give lower bounds. [`TreeQueryStats`] says whether
//! and at which level the budget stopped the descent.
//!
//! # Parts
//! A contact point, closest-point pair or cast hit names the leaf (node
//! index) and its part ([`CircleTree::part_of`]): the part of the nearest
//! named ancestor.

pub mod brute_force;
mod cast_capsule_tree;
mod contact_tree_shape;
mod contact_tree_tree;
mod distance_tree_shape;
mod distance_tree_tree;
mod frame_descent;
mod intersects_tree_shape;
mod intersects_tree_tree;
mod pair_cache;
mod point_inside_tree;
mod probe;
mod reduce;
mod walk;

pub use cast_capsule_tree::{cast_capsule_tree, cast_capsule_tree_with_stats};
pub use contact_tree_shape::{
    contact_tree_shape, contact_tree_shape_with_margin, contact_tree_shape_with_stats,
    leaf_contacts_tree_shape,
};
pub use contact_tree_tree::{
    contact_tree_tree, contact_tree_tree_with_margin, contact_tree_tree_with_stats,
    leaf_contacts_tree_tree,
};
pub use distance_tree_shape::{
    closest_points_tree_shape, distance_tree_shape, distance_tree_shape_with_stats,
};
pub use distance_tree_tree::{
    closest_points_tree_tree, distance_tree_tree, distance_tree_tree_with_stats,
};
pub use intersects_tree_shape::{intersects_tree_shape, intersects_tree_shape_with_stats};
pub use intersects_tree_tree::{intersects_tree_tree, intersects_tree_tree_with_stats};
pub use pair_cache::{CACHE_REACH, TreePairCache};
pub use point_inside_tree::{point_inside_tree, point_inside_tree_with_stats};
pub use reduce::{MAX_MANIFOLD_POINTS, reduce_leaf_contacts};
pub use walk::PRUNE_SLACK;

pub(crate) use contact_tree_shape::{contact_tree_placed, contact_tree_placed_into};
pub(crate) use distance_tree_shape::{
    closest_points_tree_placed, closest_points_tree_placed_below,
};
pub(crate) use intersects_tree_shape::intersects_tree_placed;
pub(crate) use walk::{PairVisitor, Visitor, WorldCircle, walk, walk_pair};

use crate::math::{Real, Vec2};
use crate::query::FeatureId;
use crate::shape::{CircleTree, PartId};

/// How far a tree query may descend. The default is unlimited (exact).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QueryBudget {
    /// Expand nodes only down to this level (root = 0): nodes at this level
    /// that pass their test are not expanded. For two trees the level of a
    /// node pair is the sum of the two nodes' depths.
    pub max_depth: Option<u32>,
    /// Test at most this many node circles (or node pairs) in all; a node is
    /// expanded only if all its children can still be tested. The root test
    /// is always done.
    pub max_node_tests: Option<u32>,
}

impl QueryBudget {
    /// No limit: the exact answer.
    pub const UNLIMITED: QueryBudget = QueryBudget {
        max_depth: None,
        max_node_tests: None,
    };

    /// Descend at most `levels` levels below the root.
    pub fn depth(levels: u32) -> QueryBudget {
        QueryBudget {
            max_depth: Some(levels),
            max_node_tests: None,
        }
    }

    /// Test at most `tests` nodes (or node pairs).
    pub fn node_tests(tests: u32) -> QueryBudget {
        QueryBudget {
            max_depth: None,
            max_node_tests: Some(tests),
        }
    }
}

/// What a tree query did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TreeQueryStats {
    /// Circles (for two trees: circle pairs) tested, leaves included.
    pub node_tests: u32,
    /// Tests of a leaf against the shape (for two trees: of a leaf pair); a
    /// brute-force loop does one per leaf (per leaf pair).
    pub leaf_tests: u32,
    /// `None` when the answer is exact; otherwise the shallowest level at
    /// which the budget stopped the descent at a node that passed its test.
    pub stopped_at_level: Option<u32>,
}

impl TreeQueryStats {
    /// True when the budget did not cut the descent (the answer is exact).
    pub fn is_exact(&self) -> bool {
        self.stopped_at_level.is_none()
    }
}

/// One leaf-level contact: a leaf of tree A (or a node where the budget
/// stopped) against shape B or a leaf (node) of tree B.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LeafContact {
    /// Node index in tree A.
    pub node_a: u32,
    /// Node index in tree B; `None` when B is a shape.
    pub node_b: Option<u32>,
    /// World point midway between the two surfaces (metres).
    pub point: Vec2,
    /// Unit normal from A to B (world).
    pub normal: Vec2,
    /// Penetration along the normal (metres; negative within a margin).
    pub depth: Real,
    /// Feature id: the node of A in the high half; the node of B, or B's own
    /// feature, in the low half (both truncated to 16 bits).
    pub id: FeatureId,
    /// Part of A's node.
    pub part_a: Option<PartId>,
    /// Part of B's node (trees only).
    pub part_b: Option<PartId>,
}

/// Closest points between a tree and a shape or another tree.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TreeClosestPoints {
    /// Distance (metres, > 0).
    pub distance: Real,
    /// Closest point on tree A (world).
    pub point_a: Vec2,
    /// Closest point on B (world).
    pub point_b: Vec2,
    /// The leaf of A holding `point_a` (a node index).
    pub node_a: u32,
    /// The leaf of B holding `point_b` when B is a tree.
    pub node_b: Option<u32>,
    /// Part of `node_a`.
    pub part_a: Option<PartId>,
    /// Part of `node_b`.
    pub part_b: Option<PartId>,
}

/// Where a swept disc first touches a tree.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TreeCastHit {
    /// Fraction of the sweep (0 = start, 1 = end) at the first touch.
    pub fraction: Real,
    /// The touching point on the leaf's surface (world).
    pub point: Vec2,
    /// Unit surface normal of the leaf at `point`, pointing towards the
    /// swept disc's centre (world).
    pub normal: Vec2,
    /// The leaf hit (node index).
    pub node: u32,
    /// Part of that leaf.
    pub part: Option<PartId>,
}

/// Packs two node indices (or a node and a feature) into a [`FeatureId`].
pub(crate) fn feature(node_a: u32, low: u32) -> FeatureId {
    FeatureId::new(node_a as u16, low as u16)
}

/// The part of a node, for reports.
pub(crate) fn part(tree: &CircleTree, node: u32) -> Option<PartId> {
    tree.part_of(node as usize)
}
