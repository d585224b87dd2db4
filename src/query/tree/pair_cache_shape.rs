//! [`TreePairCache::contact_shape_into`]: the pair cache of a tree and a
//! shape that is not a tree (a floor, a wall, a polygon body): the leaves
//! that may touch the shape, kept while the tree moves little relative to
//! it.
//!
//! A descent of the tree against the shape, its node tests widened by
//! [`CACHE_REACH`], records every leaf it reaches that passes the same
//! widened test: the *candidates*. Every other leaf lies inside a circle
//! (its own or a node's) that, grown by the margin, that reach and its
//! pruning slack, misses the shape. The cache works
//! in the shape's frame (the tree's frame mapped into the shape's, as the
//! cache of two trees maps B into A): while no point of the tree has moved
//! relative to the shape by more than the reach, less a slack for the
//! rounding of both queries, no other leaf can have come within the
//! margin. Today's query then tests the candidates with the descent's own
//! leaf kernel (`record_leaf`, on the circle `world_circle` places), which
//! finds the same leaf contacts, and the reduction sorts them canonically:
//! the manifold is the descent's ([`super::super::contact_tree_shape_with_margin`]),
//! bit for bit.
//!
//! A cache gathered against a shape says so in its node counts (the second
//! is [`SHAPE`], which no tree has), so it is never read as one gathered
//! against a tree, nor the other way round.

use super::super::contact_tree_shape::{contact_tree_placed_into, record_leaf};
use super::super::frame_descent::{BInA, l1, local_reach};
use super::super::probe::Probe;
use super::super::reduce::reduce_leaf_contacts_into;
use super::super::walk::{PRUNE_SLACK, Visitor, WorldCircle, walk, world_circle};
use super::super::{LeafContact, QueryBudget};
use super::{CACHE_REACH, Gathered, INLINE_CANDIDATES, TreePairCache, node_count};
use crate::math::{Pose, Real};
use crate::query::Manifold;
use crate::query::placed::Placed;
use crate::shape::{CircleTree, Shape};
use smallvec::SmallVec;
use std::borrow::Cow;
use std::ops::ControlFlow;

/// `Gathered::nodes.1` of a cache gathered against a shape.
const SHAPE: u32 = u32::MAX;

/// The widened descent: records each leaf it reaches as a candidate and
/// its exact contacts of today, within the margin.
struct Gather<'a, 'p> {
    tree: &'a CircleTree,
    probe: &'a Probe<'p>,
    margin: Real,
    /// The margin the node tests are widened to (m, world).
    wide: Real,
    candidates: &'a mut SmallVec<[[u16; 2]; INLINE_CANDIDATES]>,
    found: &'a mut Vec<LeafContact>,
    /// False once a node was cut short (never, without a budget).
    whole: bool,
}

impl Visitor for Gather<'_, '_> {
    fn enter(&mut self, circle: &WorldCircle) -> Option<Real> {
        self.probe.may_touch(circle, self.wide).then_some(0.0)
    }

    fn leaf(&mut self, node: u32, circle: &WorldCircle) -> ControlFlow<()> {
        // A leaf whose own circle fails the widened test is as far out as
        // the leaves of a pruned node; its exact test of today is the
        // descent's all the same.
        if self.probe.may_touch(circle, self.wide) {
            self.candidates.push([node as u16, 0]);
        }
        record_leaf(self.tree, self.probe, node, circle, self.margin, self.found);
        ControlFlow::Continue(())
    }

    fn cut(&mut self, node: u32, circle: &WorldCircle) -> ControlFlow<()> {
        // As the plain descent does; the candidates would not cover this
        // node's leaves, so the cache is not kept.
        self.whole = false;
        record_leaf(self.tree, self.probe, node, circle, self.margin, self.found);
        ControlFlow::Continue(())
    }
}

impl TreePairCache {
    /// The contact manifold of `tree` at `pose_tree` and `shape` at
    /// `pose_shape` within `margin` metres: exactly
    /// [`contact_with_margin`](crate::query::contact::contact_with_margin)
    /// with the tree as A (normal from the tree to the shape), from the
    /// leaves that may touch while the tree has moved little relative to
    /// the shape. As [`Self::contact`], a cache belongs to one pair: hand
    /// it the same tree and shape on every call, or clear it first.
    ///
    /// # Examples
    /// ```
    /// use circlet::math::{Pose, vec2};
    /// use circlet::query::contact::contact_with_margin;
    /// use circlet::query::tree::TreePairCache;
    /// use circlet::shape::{ConvexPolygon, Shape, TreeBuilder};
    /// let (hull, _) = TreeBuilder::node(vec2(0.0, 0.0), 1.6)
    ///     .child(TreeBuilder::node(vec2(-1.0, 0.0), 0.5))
    ///     .child(TreeBuilder::node(vec2(0.0, 0.0), 0.5))
    ///     .child(TreeBuilder::node(vec2(1.0, 0.0), 0.5))
    ///     .build()
    ///     .unwrap();
    /// let tree = Shape::Tree(std::sync::Arc::new(hull.clone()));
    /// let floor = Shape::from(ConvexPolygon::rectangle(vec2(-10.0, -1.0), vec2(10.0, 0.0)).unwrap());
    /// let at = Pose::IDENTITY;
    /// let mut cache = TreePairCache::default();
    /// for step in 0..10 {
    ///     let pose = Pose::new(vec2(0.001 * step as f32, 0.49), 0.0005 * step as f32);
    ///     let cached = cache.contact_shape(&hull, &pose, &floor, &at, 0.02);
    ///     assert_eq!(cached, contact_with_margin(&tree, &pose, &floor, &at, 0.02));
    ///     assert_eq!(cached.map(|m| m.points.len()), Some(2));
    /// }
    /// assert_eq!(cache.descents(), 1);
    /// ```
    pub fn contact_shape(
        &mut self,
        tree: &CircleTree,
        pose_tree: &Pose,
        shape: &Shape,
        pose_shape: &Pose,
        margin: Real,
    ) -> Option<Manifold> {
        let (mut buffer, mut out) = (Vec::new(), None);
        self.contact_shape_into(
            tree,
            pose_tree,
            shape,
            pose_shape,
            margin,
            &mut buffer,
            &mut out,
        );
        out
    }

    /// The contact manifold of `tree` at `pose_tree` and `shape` at
    /// `pose_shape` within `margin`: exactly what
    /// [`contact_with_margin`](crate::query::contact::contact_with_margin)
    /// gives for the tree as A (normal from the tree to the shape), written
    /// into `out` (its points reused) with the leaf contacts gathered in
    /// `buffer`. From the candidates while they still cover every leaf that
    /// may touch (see the module docs); another tree goes to the plain
    /// descent, and a line, which no contact query collides, gives none.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn contact_shape_into(
        &mut self,
        tree: &CircleTree,
        pose_tree: &Pose,
        shape: &Shape,
        pose_shape: &Pose,
        margin: Real,
        buffer: &mut Vec<LeafContact>,
        out: &mut Option<Manifold>,
    ) {
        self.quiet_until = f64::NEG_INFINITY;
        // As every contact function: a negative or NaN margin acts as 0.
        let margin = margin.max(0.0);
        let placed = Placed::new(shape, pose_shape);
        let nodes = node_count(tree);
        match placed {
            Placed::Line { .. } => {
                self.clear();
                *out = None;
                return;
            }
            Placed::Tree(..) => {
                self.clear();
                contact_tree_placed_into(tree, pose_tree, &placed, margin, buffer, out);
                return;
            }
            _ => {}
        }
        let scale = pose_shape.scale;
        // The rounding of the leaf kernel at today's coordinates and at the
        // descent's (shape units), as `pair_slack` bounds it for two trees.
        let magnitude = l1(pose_tree.translation)
            + pose_tree.scale * local_reach(tree)
            + l1(pose_shape.translation)
            + scale * shape.bounding_radius()
            + margin;
        let slack = 2.0 * PRUNE_SLACK * magnitude / scale;
        let frame = BInA::new(pose_shape, pose_tree).filter(|_| slack.is_finite());
        let cacheable = nodes > 1 && nodes <= 1 << 16;
        let (Some(frame), true) = (frame, cacheable) else {
            self.clear();
            contact_tree_placed_into(tree, pose_tree, &placed, margin, buffer, out);
            return;
        };
        // The room the descent left (shape units): its reach, less today's
        // motion of the tree relative to the shape and the slack.
        let left = self
            .gathered
            .filter(|g| {
                g.scale_a == scale
                    && g.scale_b == pose_tree.scale
                    && g.margin == margin
                    && g.nodes == (nodes, SHAPE)
            })
            .map_or(Real::NEG_INFINITY, |g| {
                g.pad - (margin / scale + frame.moved_from(&g.frame, local_reach(tree)) + slack)
            });
        buffer.clear();
        let probe = Probe::from_placed(Cow::Borrowed(&placed));
        if left >= 0.0 {
            for &[leaf, _] in &self.candidates {
                let node = u32::from(leaf);
                if node < nodes {
                    let circle = world_circle(tree, pose_tree, node);
                    record_leaf(tree, &probe, node, &circle, margin, buffer);
                }
            }
        } else {
            self.gather_shape(tree, pose_tree, &probe, frame, scale, margin, buffer);
        }
        reduce_leaf_contacts_into(buffer, out);
    }

    /// Runs the widened descent of `tree` against `probe`: records the
    /// candidates (kept when the descent was whole) and appends today's
    /// leaf contacts to `buffer`.
    #[allow(clippy::too_many_arguments)]
    fn gather_shape(
        &mut self,
        tree: &CircleTree,
        pose_tree: &Pose,
        probe: &Probe,
        frame: BInA,
        scale: Real,
        margin: Real,
        buffer: &mut Vec<LeafContact>,
    ) {
        self.descents += 1;
        self.candidates.clear();
        let wide = margin + CACHE_REACH;
        let mut gather = Gather {
            tree,
            probe,
            margin,
            wide,
            candidates: &mut self.candidates,
            found: buffer,
            whole: true,
        };
        walk(tree, pose_tree, &QueryBudget::UNLIMITED, &mut gather);
        if !gather.whole || !wide.is_finite() {
            self.clear();
            return;
        }
        self.gathered = Some(Gathered {
            frame,
            scale_a: scale,
            scale_b: pose_tree.scale,
            margin,
            pad: wide / scale,
            nodes: (node_count(tree), SHAPE),
        });
    }
}

#[cfg(test)]
#[path = "pair_cache_shape_tests.rs"]
mod tests;
