//! `contact_tree_shape`: leaf-pair contacts of a tree with a shape, reduced
//! to one manifold.

use super::contact_tree_tree::contact_tree_tree_in;
use super::probe::Probe;
use super::reduce::{reduce_leaf_contacts, reduce_leaf_contacts_into};
use super::walk::{Visitor, WorldCircle, visit_leaves, walk};
use super::{LeafContact, QueryBudget, TreeQueryStats, feature, part};
use crate::math::{Pose, Real};
use crate::query::Manifold;
use crate::query::placed::Placed;
use crate::shape::{CircleTree, Shape};
use std::borrow::Cow;
use std::ops::ControlFlow;

struct Contacts<'a> {
    tree: &'a CircleTree,
    probe: Probe<'a>,
    margin: Real,
    found: Vec<LeafContact>,
}

impl Contacts<'_> {
    fn record(&mut self, node: u32, circle: &WorldCircle) {
        record_leaf(
            self.tree,
            &self.probe,
            node,
            circle,
            self.margin,
            &mut self.found,
        );
    }
}

/// Appends the exact contacts of `tree`'s node `node` (its world circle
/// `circle`) with `probe` within `margin` to `found`: the leaf kernel every
/// tree-versus-shape contact query shares, so a query from cached
/// candidates finds what a descent finds.
pub(super) fn record_leaf(
    tree: &CircleTree,
    probe: &Probe,
    node: u32,
    circle: &WorldCircle,
    margin: Real,
    found: &mut Vec<LeafContact>,
) {
    for touch in probe.contact(circle, margin) {
        found.push(LeafContact {
            node_a: node,
            node_b: None,
            point: touch.point,
            normal: touch.normal,
            depth: touch.depth,
            id: feature(node, touch.feature_b as u32),
            part_a: part(tree, node),
            part_b: None,
        });
    }
}

impl Visitor for Contacts<'_> {
    fn enter(&mut self, circle: &WorldCircle) -> Option<Real> {
        self.probe.may_touch(circle, self.margin).then_some(0.0)
    }

    fn leaf(&mut self, node: u32, circle: &WorldCircle) -> ControlFlow<()> {
        self.record(node, circle);
        ControlFlow::Continue(())
    }

    fn cut(&mut self, node: u32, circle: &WorldCircle) -> ControlFlow<()> {
        // The node's circle stands in for its leaves (it holds them all).
        self.record(node, circle);
        ControlFlow::Continue(())
    }
}

/// Every contact of a leaf of `tree` with `shape` within `margin` metres (at
/// depth −margin or more), in descent order, with the counters; under a
/// budget, nodes the budget stops at report their own circle's contact.
pub fn leaf_contacts_tree_shape(
    tree: &CircleTree,
    tree_pose: &Pose,
    shape: &Shape,
    shape_pose: &Pose,
    margin: Real,
    budget: QueryBudget,
) -> (Vec<LeafContact>, TreeQueryStats) {
    let mut visitor = Contacts {
        tree,
        probe: Probe::new(shape, shape_pose),
        margin,
        found: Vec::new(),
    };
    let stats = walk(tree, tree_pose, &budget, &mut visitor);
    (visitor.found, stats)
}

/// The contact manifold of a tree (A) and a shape (B), if they touch: the
/// leaf contacts reduced to at most two points (see [`reduce_leaf_contacts`]),
/// each naming the leaf's part in `part_a`. Normal from the tree to the shape.
///
/// # Examples
/// ```
/// use circlet::math::{Pose, vec2};
/// use circlet::query::tree::contact_tree_shape;
/// use circlet::shape::{CircleTree, Circle, Shape, TreeBuilder};
/// let (ship, _) = TreeBuilder::node(vec2(0.0, 0.0), 2.0)
///     .child(TreeBuilder::node(vec2(-1.0, 0.0), 1.0).part("engine"))
///     .child(TreeBuilder::node(vec2(1.0, 0.0), 1.0).part("cockpit"))
///     .build()
///     .unwrap();
/// let rock = Shape::from(Circle::new(vec2(0.0, 0.0), 0.5).unwrap());
/// let manifold = contact_tree_shape(&ship, &Pose::IDENTITY, &rock, &Pose::from_translation(vec2(2.3, 0.0))).unwrap();
/// assert_eq!(manifold.points.len(), 1);
/// assert_eq!(manifold.points[0].part_a, ship.part_id("cockpit"));
/// assert!((manifold.depth() - 0.2).abs() < 1e-5);
/// ```
pub fn contact_tree_shape(
    tree: &CircleTree,
    tree_pose: &Pose,
    shape: &Shape,
    shape_pose: &Pose,
) -> Option<Manifold> {
    contact_tree_shape_with_stats(
        tree,
        tree_pose,
        shape,
        shape_pose,
        0.0,
        QueryBudget::UNLIMITED,
    )
    .0
}

/// Like [`contact_tree_shape`], also reporting leaves up to `margin` metres
/// apart (speculative contacts, negative depths).
pub fn contact_tree_shape_with_margin(
    tree: &CircleTree,
    tree_pose: &Pose,
    shape: &Shape,
    shape_pose: &Pose,
    margin: Real,
) -> Option<Manifold> {
    contact_tree_shape_with_stats(
        tree,
        tree_pose,
        shape,
        shape_pose,
        margin,
        QueryBudget::UNLIMITED,
    )
    .0
}

/// [`contact_tree_shape_with_margin`] within a budget, with the counters.
pub fn contact_tree_shape_with_stats(
    tree: &CircleTree,
    tree_pose: &Pose,
    shape: &Shape,
    shape_pose: &Pose,
    margin: Real,
    budget: QueryBudget,
) -> (Option<Manifold>, TreeQueryStats) {
    let (contacts, stats) =
        leaf_contacts_tree_shape(tree, tree_pose, shape, shape_pose, margin, budget);
    (reduce_leaf_contacts(&contacts), stats)
}

/// [`contact_tree_shape_with_margin`] against a shape already placed in the
/// world: the tree arm of [`crate::query::contact::contact_placed`], and
/// [`contact_tree_placed_into`] with buffers of its own. A placed tree goes
/// to [`contact_tree_tree_with_margin`](super::contact_tree_tree_with_margin).
/// A negative or NaN margin acts as 0, as in every contact function, and a
/// manifold that is not finite is none.
pub(crate) fn contact_tree_placed(
    tree: &CircleTree,
    pose: &Pose,
    other: &Placed,
    margin: Real,
) -> Option<Manifold> {
    let (mut buffer, mut out) = (Vec::new(), None);
    contact_tree_placed_into(tree, pose, other, margin, &mut buffer, &mut out);
    out
}

/// [`contact_tree_placed`] with the leaf contacts gathered in `buffer`
/// (cleared first) and the manifold written into `out` (its points
/// reused): the same manifold, none when it is not finite, and no
/// allocation once `buffer` has grown.
pub(crate) fn contact_tree_placed_into(
    tree: &CircleTree,
    pose: &Pose,
    other: &Placed,
    margin: Real,
    buffer: &mut Vec<LeafContact>,
    out: &mut Option<Manifold>,
) {
    let margin = margin.max(0.0);
    if let Placed::Tree(other_tree, other_pose) = other {
        *out = contact_tree_tree_in(tree, pose, other_tree, other_pose, margin, buffer)
            .filter(Manifold::is_finite);
        return;
    }
    buffer.clear();
    leaf_contacts_placed(tree, pose, other, margin, buffer);
    reduce_leaf_contacts_into(buffer, out);
}

/// Appends every leaf contact of `tree` with the placed shape `other`
/// within `margin` (not negative) to `found`, in descent order.
fn leaf_contacts_placed(
    tree: &CircleTree,
    pose: &Pose,
    other: &Placed,
    margin: Real,
    found: &mut Vec<LeafContact>,
) {
    let mut visitor = Contacts {
        tree,
        probe: Probe::from_placed(Cow::Borrowed(other)),
        margin,
        found: std::mem::take(found),
    };
    walk(tree, pose, &QueryBudget::UNLIMITED, &mut visitor);
    *found = visitor.found;
}

/// The brute-force reference of [`leaf_contacts_tree_shape`]: every leaf tested.
pub(crate) fn brute_force(
    tree: &CircleTree,
    tree_pose: &Pose,
    shape: &Shape,
    shape_pose: &Pose,
    margin: Real,
) -> (Vec<LeafContact>, TreeQueryStats) {
    let mut visitor = Contacts {
        tree,
        probe: Probe::new(shape, shape_pose),
        margin,
        found: Vec::new(),
    };
    let stats = visit_leaves(tree, tree_pose, &mut visitor);
    (visitor.found, stats)
}
