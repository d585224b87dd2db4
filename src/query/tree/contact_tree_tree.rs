//! `contact_tree_tree`: leaf-pair contacts of two trees, reduced to one manifold.

use super::frame_descent::leaf_contacts_in_frame;
use super::probe::{circle_circle_touch, circles_may_touch};
use super::reduce::reduce_leaf_pairs;
use super::walk::{PairVisitor, WorldCircle, visit_leaf_pairs, walk_pair};
use super::{LeafContact, QueryBudget, TreeQueryStats, feature, part};
use crate::math::{Pose, Real};
use crate::query::Manifold;
use crate::shape::CircleTree;
use std::ops::ControlFlow;

struct Contacts<'a> {
    tree_a: &'a CircleTree,
    tree_b: &'a CircleTree,
    margin: Real,
    found: Vec<LeafContact>,
}

impl Contacts<'_> {
    fn record(&mut self, node_a: u32, a: &WorldCircle, node_b: u32, b: &WorldCircle) {
        let (tree_a, tree_b) = (self.tree_a, self.tree_b);
        if let Some(contact) =
            leaf_circles_contact(tree_a, node_a, a, tree_b, node_b, b, self.margin)
        {
            self.found.push(contact);
        }
    }
}

/// The contact of leaf `node_a` of `tree_a` and leaf `node_b` of `tree_b`,
/// placed as the world circles `a` and `b`, when they are within `margin`
/// metres: the one form every tree–tree path records.
#[inline]
pub(super) fn leaf_circles_contact(
    tree_a: &CircleTree,
    node_a: u32,
    a: &WorldCircle,
    tree_b: &CircleTree,
    node_b: u32,
    b: &WorldCircle,
    margin: Real,
) -> Option<LeafContact> {
    let (point, normal, depth) = circle_circle_touch(a, b, margin)?;
    Some(LeafContact {
        node_a,
        node_b: Some(node_b),
        point,
        normal,
        depth,
        id: feature(node_a, node_b),
        part_a: part(tree_a, node_a),
        part_b: part(tree_b, node_b),
    })
}

impl PairVisitor for Contacts<'_> {
    fn enter(&mut self, a: &WorldCircle, b: &WorldCircle) -> Option<Real> {
        circles_may_touch(a, b, self.margin).then_some(0.0)
    }

    fn leaves(
        &mut self,
        node_a: u32,
        a: &WorldCircle,
        node_b: u32,
        b: &WorldCircle,
    ) -> ControlFlow<()> {
        self.record(node_a, a, node_b, b);
        ControlFlow::Continue(())
    }

    fn cut(
        &mut self,
        node_a: u32,
        a: &WorldCircle,
        node_b: u32,
        b: &WorldCircle,
    ) -> ControlFlow<()> {
        self.record(node_a, a, node_b, b);
        ControlFlow::Continue(())
    }
}

/// Every contact of a leaf of `tree_a` with a leaf of `tree_b` within `margin`
/// metres, in descent order, with the counters; under a budget, node pairs
/// the budget stops at report their own circles' contact.
pub fn leaf_contacts_tree_tree(
    tree_a: &CircleTree,
    pose_a: &Pose,
    tree_b: &CircleTree,
    pose_b: &Pose,
    margin: Real,
    budget: QueryBudget,
) -> (Vec<LeafContact>, TreeQueryStats) {
    let mut found = Vec::new();
    let stats = leaf_contacts_into(tree_a, pose_a, tree_b, pose_b, margin, budget, &mut found);
    (found, stats)
}

/// [`leaf_contacts_tree_tree`] appending to `found`. Without a budget the
/// descent runs in A's frame (`frame_descent`); with one, or for poses that
/// give no finite relative frame, it is [`walk_pair`].
fn leaf_contacts_into(
    tree_a: &CircleTree,
    pose_a: &Pose,
    tree_b: &CircleTree,
    pose_b: &Pose,
    margin: Real,
    budget: QueryBudget,
    found: &mut Vec<LeafContact>,
) -> TreeQueryStats {
    if budget == QueryBudget::UNLIMITED
        && let Some(stats) = leaf_contacts_in_frame(tree_a, pose_a, tree_b, pose_b, margin, found)
    {
        return stats;
    }
    let mut visitor = Contacts {
        tree_a,
        tree_b,
        margin,
        found: std::mem::take(found),
    };
    let stats = walk_pair(tree_a, pose_a, tree_b, pose_b, &budget, &mut visitor);
    *found = visitor.found;
    stats
}

/// [`contact_tree_tree_with_margin`] with the leaf contacts gathered in
/// `buffer` (cleared first), so a caller that keeps the buffer allocates
/// nothing once it has grown.
pub(crate) fn contact_tree_tree_in(
    tree_a: &CircleTree,
    pose_a: &Pose,
    tree_b: &CircleTree,
    pose_b: &Pose,
    margin: Real,
    buffer: &mut Vec<LeafContact>,
) -> Option<Manifold> {
    buffer.clear();
    leaf_contacts_into(
        tree_a,
        pose_a,
        tree_b,
        pose_b,
        margin,
        QueryBudget::UNLIMITED,
        buffer,
    );
    reduce_leaf_pairs(buffer)
}

/// The contact manifold of two trees, if they touch: the leaf-pair contacts
/// reduced to at most two points, each naming both leaves' parts.
/// Normal from `tree_a` to `tree_b`.
pub fn contact_tree_tree(
    tree_a: &CircleTree,
    pose_a: &Pose,
    tree_b: &CircleTree,
    pose_b: &Pose,
) -> Option<Manifold> {
    contact_tree_tree_with_stats(tree_a, pose_a, tree_b, pose_b, 0.0, QueryBudget::UNLIMITED).0
}

/// Like [`contact_tree_tree`], also reporting leaf pairs up to `margin` metres apart.
pub fn contact_tree_tree_with_margin(
    tree_a: &CircleTree,
    pose_a: &Pose,
    tree_b: &CircleTree,
    pose_b: &Pose,
    margin: Real,
) -> Option<Manifold> {
    contact_tree_tree_with_stats(
        tree_a,
        pose_a,
        tree_b,
        pose_b,
        margin,
        QueryBudget::UNLIMITED,
    )
    .0
}

/// [`contact_tree_tree_with_margin`] within a budget, with the counters.
pub fn contact_tree_tree_with_stats(
    tree_a: &CircleTree,
    pose_a: &Pose,
    tree_b: &CircleTree,
    pose_b: &Pose,
    margin: Real,
    budget: QueryBudget,
) -> (Option<Manifold>, TreeQueryStats) {
    let (mut contacts, stats) =
        leaf_contacts_tree_tree(tree_a, pose_a, tree_b, pose_b, margin, budget);
    (reduce_leaf_pairs(&mut contacts), stats)
}

/// The brute-force reference of [`leaf_contacts_tree_tree`]: every leaf pair tested.
pub(crate) fn brute_force(
    tree_a: &CircleTree,
    pose_a: &Pose,
    tree_b: &CircleTree,
    pose_b: &Pose,
    margin: Real,
) -> (Vec<LeafContact>, TreeQueryStats) {
    let mut visitor = Contacts {
        tree_a,
        tree_b,
        margin,
        found: Vec::new(),
    };
    let stats = visit_leaf_pairs(tree_a, pose_a, tree_b, pose_b, &mut visitor);
    (visitor.found, stats)
}
