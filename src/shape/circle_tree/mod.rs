//! [`CircleTree`]: a body outline as a hierarchy of circles (seed 004's
//! "hierarchical circle structures"), stored once in its local frame.
//!
//! # Layout
//! Nodes live in one flat array, root first; the children of a node are a
//! contiguous index range that comes after the node itself (the builders emit
//! breadth-first order, so each level is contiguous too). A node is 32 bytes:
//! two per cache line.
//!
//! # Invariants (checked by [`CircleTree::new`] and every builder)
//! - at least one node; every centre and radius finite; every radius > 0;
//! - node 0 is the root; every other node has exactly one parent, and comes
//!   after it in the array;
//! - every child circle lies inside its parent's circle. A child that sticks
//!   out by at most [`CONTAINMENT_TOLERANCE`] of the parent's radius is
//!   accepted and the parent is widened to contain it exactly, so pruning a
//!   subtree by its parent circle never loses a hit;
//! - the leaves are the collision shape: every query answers for the union of
//!   the leaf discs;
//! - part ids index the part name table; a node without its own part belongs
//!   to its nearest named ancestor's part ([`CircleTree::part_of`]).
//!
//! # Poses
//! Queries take a [`crate::math::Pose`] (rotation, translation, uniform scale):
//! rotating or rescaling a body is O(1), the tree is never rebuilt.

mod builder;
mod enclosing;
mod error;
pub mod fit;
mod hierarchy;
pub mod samples;
mod union_mass;
mod validate;

pub use builder::TreeBuilder;
pub use error::TreeError;
pub use fit::{AlphaMask, FitOptions, FitReport, LevelReport};

use super::{Aabb, Circle, MassProperties, PartId};
use crate::math::{Real, Vec2};
use std::ops::Range;

/// A child may stick out of its parent by this fraction of the parent's
/// radius and still be accepted (the parent is then widened to contain it
/// exactly): circles computed in f32 that touch the parent from inside land
/// a few ulps either side of its edge, and 1e-5 is about 80 ulps.
pub const CONTAINMENT_TOLERANCE: Real = 1e-5;

/// One node of a [`CircleTree`]: a circle in the tree's local frame, the
/// index range of its children and the part it belongs to.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TreeNode {
    circle: Circle,
    first_child: u32,
    end_child: u32,
    /// The part of this node: its own, or inherited from the nearest named ancestor.
    part: Option<PartId>,
    /// True when the part was given to this node itself.
    named_here: bool,
}

impl TreeNode {
    /// Centre (local frame, local units).
    #[inline]
    pub fn center(&self) -> Vec2 {
        self.circle.center()
    }

    /// Radius (local units, > 0).
    #[inline]
    pub fn radius(&self) -> Real {
        self.circle.radius()
    }

    /// The node's circle (local frame).
    #[inline]
    pub fn circle(&self) -> Circle {
        self.circle
    }

    /// Indices of the children in the node array (empty for a leaf).
    #[inline]
    pub fn children(&self) -> Range<usize> {
        self.first_child as usize..self.end_child as usize
    }

    /// True for a leaf: a circle of the collision shape.
    #[inline]
    pub fn is_leaf(&self) -> bool {
        self.first_child == self.end_child
    }

    /// The part this node belongs to: its own, or its nearest named ancestor's.
    #[inline]
    pub fn part(&self) -> Option<PartId> {
        self.part
    }

    /// The part given to this node itself (not inherited).
    pub fn own_part(&self) -> Option<PartId> {
        if self.named_here { self.part } else { None }
    }
}

/// One node as given to [`CircleTree::new`] (the flat form).
#[derive(Clone, Debug, PartialEq)]
pub struct FlatNode {
    /// Centre (local frame).
    pub center: Vec2,
    /// Radius (local units, > 0).
    pub radius: Real,
    /// Indices of the children; empty for a leaf. Must come after this node.
    pub children: Range<usize>,
    /// The part this node names, an index into the part name table.
    pub part: Option<PartId>,
}

/// A hierarchy of circles whose leaves are a body's collision shape.
///
/// # Examples
/// ```
/// use circlet::math::vec2;
/// use circlet::shape::{CircleTree, TreeBuilder};
/// let (ship, _report) = TreeBuilder::node(vec2(0.0, 0.0), 3.0)
///     .part("hull")
///     .child(TreeBuilder::node(vec2(-1.5, 0.0), 1.4).part("engine"))
///     .child(TreeBuilder::node(vec2(1.5, 0.0), 1.4))
///     .build()
///     .unwrap();
/// assert_eq!(ship.leaves().len(), 2);
/// let engine = ship.part_id("engine").unwrap();
/// assert_eq!(ship.part_name(engine), Some("engine"));
/// // The unnamed leaf belongs to the root's part.
/// assert_eq!(ship.node(2).unwrap().part(), ship.part_id("hull"));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct CircleTree {
    nodes: Vec<TreeNode>,
    leaves: Vec<u32>,
    /// The leaf discs again, in `leaves` order, as three arrays (centre x,
    /// centre y, radius; local units): what the world box reads, a lane at
    /// a time. Derived from `nodes` at construction.
    leaf_discs: LeafDiscs,
    part_names: Vec<String>,
    depth: u32,
    bounding_radius: Real,
    /// Mass properties of the outline a fitting builder started from.
    source_mass: Option<MassProperties>,
}

/// A tree's leaf discs as structure of arrays (local units), all of the
/// same length.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct LeafDiscs {
    pub x: Vec<Real>,
    pub y: Vec<Real>,
    pub radius: Vec<Real>,
}

impl LeafDiscs {
    /// The discs of `leaves` (indices into `nodes`).
    pub(crate) fn of(nodes: &[TreeNode], leaves: &[u32]) -> LeafDiscs {
        let discs = leaves.iter().map(|&i| &nodes[i as usize]);
        LeafDiscs {
            x: discs.clone().map(|n| n.center().x).collect(),
            y: discs.clone().map(|n| n.center().y).collect(),
            radius: discs.map(|n| n.radius()).collect(),
        }
    }
}

impl CircleTree {
    /// Builds a tree from its flat node array and part name table, validating
    /// every invariant listed in the module docs.
    ///
    /// # Errors
    /// [`TreeError::Empty`], [`TreeError::NonFinite`],
    /// [`TreeError::NonPositiveRadius`], [`TreeError::BadChildRange`],
    /// [`TreeError::NotATree`], [`TreeError::ChildOutsideParent`],
    /// [`TreeError::UnknownPart`] or [`TreeError::DuplicatePartName`], each
    /// naming the node index or the name.
    ///
    /// # Examples
    /// ```
    /// use circlet::math::vec2;
    /// use circlet::shape::{CircleTree, FlatNode, TreeError};
    /// let root = FlatNode { center: vec2(0.0, 0.0), radius: 1.0, children: 1..2, part: None };
    /// let outside = FlatNode { center: vec2(1.0, 0.0), radius: 0.5, children: 2..2, part: None };
    /// let err = CircleTree::new(vec![root, outside], vec![]).unwrap_err();
    /// assert!(matches!(err, TreeError::ChildOutsideParent { child: 1, parent: 0, .. }));
    /// ```
    pub fn new(nodes: Vec<FlatNode>, part_names: Vec<String>) -> Result<CircleTree, TreeError> {
        validate::build(nodes, part_names, None)
    }

    /// A tree over the given leaf circles, grouped bottom-up by proximity into
    /// parents of at most `branching` children (each parent the smallest
    /// circle enclosing its children).
    ///
    /// # Errors
    /// [`TreeError::Empty`] without leaves, [`TreeError::InvalidBranching`]
    /// for `branching < 2`.
    pub fn from_leaves(leaves: &[Circle], branching: usize) -> Result<CircleTree, TreeError> {
        if branching < 2 {
            return Err(TreeError::InvalidBranching { branching });
        }
        if leaves.is_empty() {
            return Err(TreeError::Empty);
        }
        let discs: Vec<_> = leaves
            .iter()
            .map(|c| enclosing::Disc::new(c.center(), c.radius()))
            .collect();
        validate::build(hierarchy::build_flat(&discs, branching), Vec::new(), None)
    }

    /// All nodes, root first (local frame).
    #[inline]
    pub fn nodes(&self) -> &[TreeNode] {
        &self.nodes
    }

    /// The node at `index`, or `None` past the end.
    #[inline]
    pub fn node(&self, index: usize) -> Option<&TreeNode> {
        self.nodes.get(index)
    }

    /// The root node (index 0), whose circle contains every other circle.
    #[inline]
    pub fn root(&self) -> &TreeNode {
        &self.nodes[0]
    }

    /// Indices of the leaves (the collision shape), in node order.
    #[inline]
    pub fn leaves(&self) -> &[u32] {
        &self.leaves
    }

    /// The leaf discs as arrays (centre x, centre y, radius; local units),
    /// in [`Self::leaves`] order.
    pub(crate) fn leaf_discs(&self) -> &LeafDiscs {
        &self.leaf_discs
    }

    /// The leaf circles (local frame), in node order.
    pub fn leaf_circles(&self) -> impl Iterator<Item = Circle> + '_ {
        self.leaves.iter().map(|&i| self.nodes[i as usize].circle())
    }

    /// Number of levels below the root: 0 for a single circle.
    #[inline]
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// The part this node belongs to (own or inherited); `None` past the end.
    pub fn part_of(&self, index: usize) -> Option<PartId> {
        self.nodes.get(index).and_then(|n| n.part)
    }

    /// The name of a part, if the id is in this tree's table.
    pub fn part_name(&self, part: PartId) -> Option<&str> {
        self.part_names.get(part.0 as usize).map(String::as_str)
    }

    /// The id of the part with this name.
    pub fn part_id(&self, name: &str) -> Option<PartId> {
        self.part_names
            .iter()
            .position(|n| n == name)
            .map(|i| PartId(i as u32))
    }

    /// The part name table: `part_names()[id.0]` is the name of `id`.
    pub fn part_names(&self) -> &[String] {
        &self.part_names
    }

    /// The largest distance from the local origin to any point of the leaves
    /// (local units). Under a pose with scale `s`, every point of the body lies
    /// within `s * bounding_radius_about_origin()` of the pose's translation,
    /// which bounds how far a point can move when the body rotates.
    #[inline]
    pub fn bounding_radius_about_origin(&self) -> Real {
        self.bounding_radius
    }

    /// The smallest axis-aligned box containing every leaf (local frame).
    pub fn local_aabb(&self) -> Aabb {
        let mut min = Vec2::repeat(Real::INFINITY);
        let mut max = Vec2::repeat(Real::NEG_INFINITY);
        for &leaf in &self.leaves {
            let node = &self.nodes[leaf as usize];
            let reach = Vec2::repeat(node.radius());
            min = min.inf(&(node.center() - reach));
            max = max.sup(&(node.center() + reach));
        }
        Aabb::from_min_max_unchecked(min, max)
    }

    /// Mass properties per unit density (local frame): the source outline's
    /// when a fitting builder made the tree, otherwise those of the union of
    /// the leaf discs ([`CircleTree::leaf_union_mass_properties`]).
    pub fn mass_properties(&self) -> MassProperties {
        self.source_mass
            .unwrap_or_else(|| self.leaf_union_mass_properties())
    }

    /// The source outline's mass properties, if a fitting builder made the tree.
    pub fn source_mass_properties(&self) -> Option<MassProperties> {
        self.source_mass
    }

    /// This tree standing for an outline of mass `mass` (per unit density,
    /// local frame): how a tree written out explicitly keeps the mass of the
    /// outline it was fitted to. The caller checks `mass` is finite.
    pub(crate) fn with_source_mass(mut self, mass: MassProperties) -> CircleTree {
        self.source_mass = Some(mass);
        self
    }

    /// Exact area, centroid and polar inertia (about the centroid) of the
    /// UNION of the leaf discs, per unit density (local frame): overlaps are
    /// counted once. Computed by Green's theorem over the arcs of each leaf
    /// circle that no other leaf covers; O(n²) in the leaf count, in f64.
    pub fn leaf_union_mass_properties(&self) -> MassProperties {
        let discs: Vec<_> = self
            .leaves
            .iter()
            .map(|&i| {
                let n = &self.nodes[i as usize];
                enclosing::Disc::new(n.center(), n.radius())
            })
            .collect();
        union_mass::union_mass(&discs)
    }
}

/// Builds a tree from flat nodes with the mass of the outline it was fitted
/// to (for deserialization), validating every invariant.
#[cfg_attr(not(feature = "serde"), allow(dead_code))]
pub(crate) fn build_validated(
    nodes: Vec<FlatNode>,
    part_names: Vec<String>,
    source_mass: Option<MassProperties>,
) -> Result<CircleTree, TreeError> {
    validate::build(nodes, part_names, source_mass)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;

    fn flat(center: Vec2, radius: Real, children: Range<usize>) -> FlatNode {
        FlatNode {
            center,
            radius,
            children,
            part: None,
        }
    }

    #[test]
    fn single_circle_is_a_tree_of_depth_zero() {
        let tree = CircleTree::new(vec![flat(vec2(1.0, 2.0), 0.5, 0..0)], vec![]).unwrap();
        assert_eq!(tree.depth(), 0);
        assert_eq!(tree.leaves(), &[0]);
        assert!((tree.bounding_radius_about_origin() - (5f32.sqrt() + 0.5)).abs() < 1e-5);
        let aabb = tree.local_aabb();
        assert_eq!((aabb.min, aabb.max), (vec2(0.5, 1.5), vec2(1.5, 2.5)));
    }

    #[test]
    fn parts_are_inherited_down_the_tree() {
        let nodes = vec![
            FlatNode {
                part: Some(PartId(0)),
                ..flat(vec2(0.0, 0.0), 4.0, 1..3)
            },
            FlatNode {
                part: Some(PartId(1)),
                ..flat(vec2(-2.0, 0.0), 1.9, 3..4)
            },
            flat(vec2(2.0, 0.0), 1.9, 4..4),
            flat(vec2(-2.0, 0.0), 1.0, 4..4),
        ];
        let tree = CircleTree::new(nodes, vec!["hull".into(), "engine".into()]).unwrap();
        assert_eq!(tree.part_of(3), Some(PartId(1)));
        assert_eq!(tree.part_of(2), Some(PartId(0)));
        assert_eq!(tree.node(3).unwrap().own_part(), None);
        assert_eq!(tree.node(1).unwrap().own_part(), Some(PartId(1)));
        assert_eq!(tree.part_id("engine"), Some(PartId(1)));
        assert_eq!(tree.part_name(PartId(7)), None);
        assert_eq!(tree.depth(), 2);
        assert_eq!(tree.leaves(), &[2, 3]);
    }

    #[test]
    fn from_leaves_builds_a_valid_hierarchy() {
        let leaves: Vec<Circle> = (0..37)
            .map(|i| {
                let a = i as Real * 0.7;
                Circle::new(
                    vec2(a.cos() * i as Real * 0.1, a.sin()),
                    0.1 + 0.01 * i as Real,
                )
                .unwrap()
            })
            .collect();
        let tree = CircleTree::from_leaves(&leaves, 4).unwrap();
        assert_eq!(tree.leaves().len(), 37);
        for node in tree.nodes() {
            assert!(node.children().len() <= 4);
            for child in node.children() {
                let c = &tree.nodes()[child];
                assert!((c.center() - node.center()).norm() + c.radius() <= node.radius());
            }
        }
        assert_eq!(
            CircleTree::from_leaves(&leaves, 1),
            Err(TreeError::InvalidBranching { branching: 1 })
        );
        assert_eq!(CircleTree::from_leaves(&[], 4), Err(TreeError::Empty));
    }
}
