//! The contact descent of two trees with both trees in tree A's frame.
//!
//! [`walk_pair`](super::walk::walk_pair) places every node circle it tests in
//! the world (a pose transform and a square root per node, per pair). For
//! contacts, the descent here maps B's nodes into A's local frame with one
//! similarity computed per call ([`BInA`]), reads A's nodes as stored, and
//! prunes with squared distances: a node test is a handful of multiplications.
//! Only the leaf pairs that pass are placed in the world, and they get the
//! exact leaf kernel on the same world circles the brute-force loop uses, so
//! the contacts found are bit for bit the brute-force ones.
//!
//! Pruning stays conservative: each test is widened by one slack for the
//! whole call, [`PRUNE_SLACK`] times the world magnitude of both trees (how
//! far from the world origin any of their circles reaches) plus the margin,
//! in A's units. That covers the rounding of the relative similarity, of
//! the squared distances and of the world placement of the leaves, each a
//! few ulps of those magnitudes, with a wide berth.

use super::contact_tree_tree::leaf_circles_contact;
use super::walk::{PRUNE_SLACK, WorldCircle};
use super::{LeafContact, TreeQueryStats};
use crate::math::{Pose, Real, Vec2, vec2};
use crate::shape::CircleTree;
use smallvec::SmallVec;

/// B's local frame mapped into A's local frame: `p_A = M p_B + t`, where
/// `M` is a rotation scaled by `k = scale_B / scale_A`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BInA {
    xx: Real,
    xy: Real,
    yx: Real,
    yy: Real,
    t: Vec2,
    /// Radii of B in A's units are `k` times B's local radii.
    k: Real,
}

impl BInA {
    /// The similarity taking B's local points to A's local points, if both
    /// poses give a finite one (a scale of zero or a NaN gives none).
    pub fn new(pose_a: &Pose, pose_b: &Pose) -> Option<BInA> {
        let (ra, rb) = (pose_a.rotation.complex(), pose_b.rotation.complex());
        // conj(R_A) · R_B
        let cos = ra.re * rb.re + ra.im * rb.im;
        let sin = ra.re * rb.im - ra.im * rb.re;
        let inv_scale_a = 1.0 / pose_a.scale;
        let k = pose_b.scale * inv_scale_a;
        // conj(R_A) · (t_B − t_A) / s_A
        let d = pose_b.translation - pose_a.translation;
        let t = vec2(ra.re * d.x + ra.im * d.y, ra.re * d.y - ra.im * d.x) * inv_scale_a;
        let frame = BInA {
            xx: k * cos,
            xy: -k * sin,
            yx: k * sin,
            yy: k * cos,
            t,
            k,
        };
        let finite = [
            frame.xx,
            frame.xy,
            frame.yx,
            frame.yy,
            t.x,
            t.y,
            k,
            inv_scale_a,
        ]
        .iter()
        .all(|v| v.is_finite());
        (finite && pose_a.scale > 0.0 && k > 0.0).then_some(frame)
    }

    /// A point of B's local frame in A's local frame.
    #[inline(always)]
    pub fn map(&self, p: Vec2) -> Vec2 {
        vec2(
            self.xx * p.x + self.xy * p.y + self.t.x,
            self.yx * p.x + self.yy * p.y + self.t.y,
        )
    }

    /// An upper bound (A's units) of how far any point of B's local frame
    /// within `reach` of B's origin has moved in A's frame from where
    /// `earlier` put it: `|Δt| + ‖ΔM‖ · reach`, and `ΔM`, a difference of
    /// scaled rotations, has the norm `√(Δxx² + Δyx²)`.
    #[inline]
    pub fn moved_from(&self, earlier: &BInA, reach: Real) -> Real {
        let (dc, ds) = (self.xx - earlier.xx, self.yx - earlier.yx);
        (self.t - earlier.t).norm() + (dc * dc + ds * ds).sqrt() * reach
    }

    /// A length of B's local frame in A's units.
    #[inline(always)]
    pub fn scale(&self, length: Real) -> Real {
        self.k * length
    }
}

/// An upper bound of how far from its pose's origin any circle of `tree`
/// reaches (local units): the root's, which holds every other circle (the
/// centre's distance over-estimated by |x| + |y|, which needs no root).
#[inline]
pub(crate) fn local_reach(tree: &CircleTree) -> Real {
    let root = tree.root();
    root.center().x.abs() + root.center().y.abs() + root.radius()
}

/// |x| + |y|: at least the length of `v`.
#[inline(always)]
pub(crate) fn l1(v: Vec2) -> Real {
    v.x.abs() + v.y.abs()
}

/// The widening of every test of one call (A's units): [`PRUNE_SLACK`]
/// times the world magnitude of both trees (over-estimated) and the margin.
#[inline]
pub(crate) fn pair_slack(
    tree_a: &CircleTree,
    pose_a: &Pose,
    tree_b: &CircleTree,
    pose_b: &Pose,
    margin: Real,
) -> Real {
    let magnitude = l1(pose_a.translation)
        + pose_a.scale * local_reach(tree_a)
        + l1(pose_b.translation)
        + pose_b.scale * local_reach(tree_b)
        + margin;
    PRUNE_SLACK * magnitude / pose_a.scale
}

/// True when circles (`ca`, `ra`) and (`cb`, `rb`) may come within `pad`
/// of each other (squared distances; NaN prunes).
#[inline(always)]
pub(crate) fn near(ca: Vec2, ra: Real, cb: Vec2, rb: Real, pad: Real) -> bool {
    let (dx, dy) = (cb.x - ca.x, cb.y - ca.y);
    let reach = ra + rb + pad;
    dx * dx + dy * dy <= reach * reach
}

/// A leaf of `tree` placed in the world, as `world_circle` places it.
#[inline(always)]
pub(crate) fn world_leaf(tree: &CircleTree, pose: &Pose, node: u32) -> WorldCircle {
    let n = &tree.nodes()[node as usize];
    WorldCircle {
        center: pose.transform_point(n.center()),
        radius: pose.scale_length(n.radius()),
        slack: 0.0,
    }
}

/// The exact contact of two leaves (world circles), pushed to `out` when
/// they are within `margin`.
#[allow(clippy::too_many_arguments)]
#[inline]
pub(crate) fn leaf_pair(
    tree_a: &CircleTree,
    pose_a: &Pose,
    node_a: u32,
    tree_b: &CircleTree,
    pose_b: &Pose,
    node_b: u32,
    margin: Real,
    out: &mut Vec<LeafContact>,
) {
    let a = world_leaf(tree_a, pose_a, node_a);
    let b = world_leaf(tree_b, pose_b, node_b);
    if let Some(contact) = leaf_circles_contact(tree_a, node_a, &a, tree_b, node_b, &b, margin) {
        out.push(contact);
    }
}

/// A node pair waiting on the stack: B's node circle already in A's frame.
#[derive(Clone, Copy)]
struct Entry {
    a: u32,
    b: u32,
    center_b: Vec2,
    radius_b: Real,
}

/// Descends both trees together in A's frame, splitting the larger node
/// (never a leaf) as `walk_pair` does, and calls `leaf_pair(a, b, centre of
/// b in A's frame)` for every leaf pair whose circles come within `pad` (A's
/// units) of each other. Counts every test in `stats.node_tests`.
///
/// With `GAP`, returns how far beyond `pad` the nearest pruned pair of
/// circles was (A's units, computed: `√d² − (r_a + r_b + pad)`; +∞ when
/// nothing was pruned), so every leaf pair not reported is at least that
/// much farther apart than `pad`, up to rounding. Without, returns +∞.
#[inline]
pub(crate) fn descend<const GAP: bool>(
    tree_a: &CircleTree,
    tree_b: &CircleTree,
    frame: &BInA,
    pad: Real,
    stats: &mut TreeQueryStats,
    mut leaf_pair: impl FnMut(u32, u32, Vec2),
) -> Real {
    let mut beyond = Real::INFINITY;
    let mut near = |ca: Vec2, ra: Real, cb: Vec2, rb: Real| {
        let (dx, dy) = (cb.x - ca.x, cb.y - ca.y);
        let reach = ra + rb + pad;
        let squared = dx * dx + dy * dy;
        let passes = squared <= reach * reach;
        if GAP && !passes {
            beyond = beyond.min(squared.sqrt() - reach);
        }
        passes
    };
    let (nodes_a, nodes_b) = (tree_a.nodes(), tree_b.nodes());
    let (root_a, root_b) = (&nodes_a[0], &nodes_b[0]);
    let center_b = frame.map(root_b.center());
    let radius_b = frame.scale(root_b.radius());
    stats.node_tests += 1;
    if !near(root_a.center(), root_a.radius(), center_b, radius_b) {
        return beyond;
    }
    if root_a.is_leaf() && root_b.is_leaf() {
        leaf_pair(0, 0, center_b);
        return beyond;
    }
    let mut stack: SmallVec<[Entry; 64]> = SmallVec::new();
    stack.push(Entry {
        a: 0,
        b: 0,
        center_b,
        radius_b,
    });
    while let Some(Entry {
        a,
        b,
        center_b,
        radius_b,
    }) = stack.pop()
    {
        let (node_a, node_b) = (&nodes_a[a as usize], &nodes_b[b as usize]);
        if node_b.is_leaf() || (!node_a.is_leaf() && node_a.radius() >= radius_b) {
            for child in node_a.children() {
                let c = &nodes_a[child];
                stats.node_tests += 1;
                if !near(c.center(), c.radius(), center_b, radius_b) {
                    continue;
                }
                let child = child as u32;
                if c.is_leaf() && node_b.is_leaf() {
                    leaf_pair(child, b, center_b);
                } else {
                    stack.push(Entry {
                        a: child,
                        b,
                        center_b,
                        radius_b,
                    });
                }
            }
        } else {
            let (center_a, radius_a) = (node_a.center(), node_a.radius());
            for child in node_b.children() {
                let c = &nodes_b[child];
                let center = frame.map(c.center());
                let radius = frame.scale(c.radius());
                stats.node_tests += 1;
                if !near(center_a, radius_a, center, radius) {
                    continue;
                }
                let child = child as u32;
                if node_a.is_leaf() && c.is_leaf() {
                    leaf_pair(a, child, center);
                } else {
                    stack.push(Entry {
                        a,
                        b: child,
                        center_b: center,
                        radius_b: radius,
                    });
                }
            }
        }
    }
    beyond
}

/// The padding of one call's tests (A's units): the margin and the slack.
#[inline]
pub(crate) fn pad_of(
    tree_a: &CircleTree,
    pose_a: &Pose,
    tree_b: &CircleTree,
    pose_b: &Pose,
    margin: Real,
) -> Real {
    margin / pose_a.scale + pair_slack(tree_a, pose_a, tree_b, pose_b, margin)
}

/// Appends to `out` every contact of a leaf of `tree_a` with a leaf of
/// `tree_b` within `margin` metres (in descent order), and returns the
/// counters; `None` (nothing appended) when the poses give no finite frame.
pub(crate) fn leaf_contacts_in_frame(
    tree_a: &CircleTree,
    pose_a: &Pose,
    tree_b: &CircleTree,
    pose_b: &Pose,
    margin: Real,
    out: &mut Vec<LeafContact>,
) -> Option<TreeQueryStats> {
    let frame = BInA::new(pose_a, pose_b)?;
    let pad = pad_of(tree_a, pose_a, tree_b, pose_b, margin);
    if !pad.is_finite() {
        return None;
    }
    let mut stats = TreeQueryStats::default();
    let mut leaf_tests = 0;
    descend::<false>(tree_a, tree_b, &frame, pad, &mut stats, |a, b, _| {
        leaf_tests += 1;
        leaf_pair(tree_a, pose_a, a, tree_b, pose_b, b, margin, out);
    });
    stats.leaf_tests = leaf_tests;
    Some(stats)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;

    #[test]
    fn b_in_a_maps_like_the_two_poses() {
        let pose_a = Pose::new(vec2(3.0, -1.0), 0.8).with_scale(1.7);
        let pose_b = Pose::new(vec2(-2.0, 4.0), -2.1).with_scale(0.6);
        let frame = BInA::new(&pose_a, &pose_b).unwrap();
        for p in [vec2(0.0, 0.0), vec2(1.5, -0.25), vec2(-3.0, 2.0)] {
            let expected = pose_a.inverse_transform_point(pose_b.transform_point(p));
            assert!((frame.map(p) - expected).norm() < 1e-5, "{p:?}");
        }
        assert!((frame.scale(2.0) - 2.0 * 0.6 / 1.7).abs() < 1e-6);
    }

    #[test]
    fn degenerate_poses_give_no_frame() {
        let a = Pose::IDENTITY;
        assert!(BInA::new(&a.with_scale(0.0), &a).is_none());
        assert!(BInA::new(&a, &a.with_scale(Real::NAN)).is_none());
        assert!(BInA::new(&Pose::from_translation(vec2(Real::INFINITY, 0.0)), &a).is_none());
    }
}
