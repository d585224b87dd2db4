//! The pruned descents every tree query shares, with the budget and counters.
//!
//! Nodes are tested when their parent is expanded ("test at push"): a stack
//! entry is always a node (or node pair) that passed its test, so a budget
//! that stops the descent knows the node is a possible hit. Children are
//! pushed so that the one with the smallest bound is expanded first (for
//! branch and bound in `distance` and `cast`).

use super::{QueryBudget, TreeQueryStats};
use crate::math::{Pose, Real, Vec2};
use crate::shape::CircleTree;
use smallvec::SmallVec;
use std::ops::ControlFlow;

/// A node's test widens its circle by this fraction of the magnitudes its
/// placement rounds at (its world centre's distance from the origin, its
/// radius, and its scaled local centre's |x| + |y|, which the pose rotates
/// before translating): a child's or leaf's circle may then be computed a
/// few ulps outside its parent's after the pose's rounding, and pruning must
/// never lose a hit that the leaf test (the brute-force answer) would find.
/// The local term matters for a tree whose leaves lie far from its own
/// origin placed near the world's: leaves 10 km out round by about a
/// millimetre, where the world centre alone allows a micrometre.
pub const PRUNE_SLACK: Real = 1e-5;

/// A node circle in world coordinates, with the slack of its pruning test.
#[derive(Clone, Copy, Debug)]
pub(crate) struct WorldCircle {
    pub center: Vec2,
    pub radius: Real,
    /// How much to widen the circle in a pruning test (metres).
    pub slack: Real,
}

#[inline]
pub(crate) fn world_circle(tree: &CircleTree, pose: &Pose, node: u32) -> WorldCircle {
    let n = &tree.nodes()[node as usize];
    let center = pose.transform_point(n.center());
    let radius = pose.scale_length(n.radius());
    let local = pose.scale_length(n.center().x.abs() + n.center().y.abs());
    WorldCircle {
        center,
        radius,
        slack: PRUNE_SLACK * (center.norm() + radius + local),
    }
}

/// What a tree-versus-shape query does at each step of the descent.
pub(crate) trait Visitor {
    /// `Some(bound)` if an internal node may hold a result (bound orders the
    /// descent, smallest first), `None` to prune it.
    fn enter(&mut self, circle: &WorldCircle) -> Option<Real>;
    /// The exact test of a leaf.
    fn leaf(&mut self, node: u32, circle: &WorldCircle) -> ControlFlow<()>;
    /// A node that passed but whose children the budget does not allow.
    fn cut(&mut self, node: u32, circle: &WorldCircle) -> ControlFlow<()>;
    /// False when a stacked node's bound can no longer improve the answer.
    fn useful(&self, _bound: Real) -> bool {
        true
    }
    /// True when the order of descent matters (branch and bound): children
    /// are then expanded smallest bound first.
    fn ordered(&self) -> bool {
        false
    }
}

struct Budget {
    max_depth: u32,
    max_tests: u32,
}

impl Budget {
    fn new(budget: &QueryBudget) -> Budget {
        Budget {
            max_depth: budget.max_depth.unwrap_or(u32::MAX),
            max_tests: budget.max_node_tests.unwrap_or(u32::MAX).max(1),
        }
    }

    /// True if a node at `level` may have its `children` tested.
    fn allows(&self, level: u32, children: usize, stats: &TreeQueryStats) -> bool {
        level < self.max_depth
            && (stats.node_tests as u64 + children as u64) <= self.max_tests as u64
    }
}

fn note_cut(stats: &mut TreeQueryStats, level: u32) {
    stats.stopped_at_level = Some(stats.stopped_at_level.map_or(level, |l| l.min(level)));
}

/// Descends `tree` at `pose`, asking `visitor` at each node.
pub(crate) fn walk(
    tree: &CircleTree,
    pose: &Pose,
    budget: &QueryBudget,
    visitor: &mut impl Visitor,
) -> TreeQueryStats {
    let mut stats = TreeQueryStats::default();
    let budget = Budget::new(budget);
    let nodes = tree.nodes();
    let root = world_circle(tree, pose, 0);
    stats.node_tests += 1;
    if nodes[0].is_leaf() {
        stats.leaf_tests += 1;
        let _ = visitor.leaf(0, &root);
        return stats;
    }
    let Some(bound) = visitor.enter(&root) else {
        return stats;
    };
    let ordered = visitor.ordered();
    let mut stack: SmallVec<[(u32, u32, Real, WorldCircle); 48]> = SmallVec::new();
    stack.push((0, 0, bound, root));
    let mut children: SmallVec<[(u32, Real, WorldCircle); 16]> = SmallVec::new();
    while let Some((node, level, bound, circle)) = stack.pop() {
        if !visitor.useful(bound) {
            continue;
        }
        let range = nodes[node as usize].children();
        if !budget.allows(level, range.len(), &stats) {
            note_cut(&mut stats, level);
            if visitor.cut(node, &circle).is_break() {
                return stats;
            }
            continue;
        }
        children.clear();
        for child in range {
            let child = child as u32;
            let circle = world_circle(tree, pose, child);
            stats.node_tests += 1;
            if nodes[child as usize].is_leaf() {
                stats.leaf_tests += 1;
                if visitor.leaf(child, &circle).is_break() {
                    return stats;
                }
            } else if let Some(bound) = visitor.enter(&circle) {
                children.push((child, bound, circle));
            }
        }
        if ordered {
            // Largest bound pushed first, so the smallest is expanded next.
            children.sort_by(|a, b| b.1.total_cmp(&a.1).then(b.0.cmp(&a.0)));
        }
        stack.extend(
            children
                .iter()
                .map(|&(child, bound, circle)| (child, level + 1, bound, circle)),
        );
    }
    stats
}

/// What a tree-versus-tree query does at each step of the joint descent.
pub(crate) trait PairVisitor {
    /// `Some(bound)` if a node pair (not both leaves) may hold a result.
    fn enter(&mut self, a: &WorldCircle, b: &WorldCircle) -> Option<Real>;
    /// The exact test of a leaf pair.
    fn leaves(
        &mut self,
        node_a: u32,
        a: &WorldCircle,
        node_b: u32,
        b: &WorldCircle,
    ) -> ControlFlow<()>;
    /// A pair that passed but that the budget does not allow to split.
    fn cut(
        &mut self,
        node_a: u32,
        a: &WorldCircle,
        node_b: u32,
        b: &WorldCircle,
    ) -> ControlFlow<()>;
    /// False when a stacked pair's bound can no longer improve the answer.
    fn useful(&self, _bound: Real) -> bool {
        true
    }
    /// True when the order of descent matters (branch and bound).
    fn ordered(&self) -> bool {
        false
    }
}

/// A node pair waiting on the stack, with its world circles.
#[derive(Clone, Copy)]
struct PairEntry {
    a: u32,
    b: u32,
    level: u32,
    bound: Real,
    circle_a: WorldCircle,
    circle_b: WorldCircle,
}

/// Descends two trees together, always splitting the node with the larger
/// world radius (a leaf is never split). The level of a pair is the number
/// of splits that led to it (the sum of both nodes' depths).
pub(crate) fn walk_pair(
    tree_a: &CircleTree,
    pose_a: &Pose,
    tree_b: &CircleTree,
    pose_b: &Pose,
    budget: &QueryBudget,
    visitor: &mut impl PairVisitor,
) -> TreeQueryStats {
    let mut stats = TreeQueryStats::default();
    let budget = Budget::new(budget);
    let (nodes_a, nodes_b) = (tree_a.nodes(), tree_b.nodes());
    let (root_a, root_b) = (
        world_circle(tree_a, pose_a, 0),
        world_circle(tree_b, pose_b, 0),
    );
    stats.node_tests += 1;
    if nodes_a[0].is_leaf() && nodes_b[0].is_leaf() {
        stats.leaf_tests += 1;
        let _ = visitor.leaves(0, &root_a, 0, &root_b);
        return stats;
    }
    let Some(bound) = visitor.enter(&root_a, &root_b) else {
        return stats;
    };
    let ordered = visitor.ordered();
    let mut stack: SmallVec<[PairEntry; 64]> = SmallVec::new();
    stack.push(PairEntry {
        a: 0,
        b: 0,
        level: 0,
        bound,
        circle_a: root_a,
        circle_b: root_b,
    });
    let mut children: SmallVec<[PairEntry; 16]> = SmallVec::new();
    while let Some(entry) = stack.pop() {
        let PairEntry {
            a,
            b,
            level,
            bound,
            circle_a,
            circle_b,
        } = entry;
        if !visitor.useful(bound) {
            continue;
        }
        let (node_a, node_b) = (&nodes_a[a as usize], &nodes_b[b as usize]);
        // Split the larger node (never a leaf): larger node first.
        let split_a = node_b.is_leaf() || (!node_a.is_leaf() && circle_a.radius >= circle_b.radius);
        let range = if split_a {
            node_a.children()
        } else {
            node_b.children()
        };
        if !budget.allows(level, range.len(), &stats) {
            note_cut(&mut stats, level);
            if visitor.cut(a, &circle_a, b, &circle_b).is_break() {
                return stats;
            }
            continue;
        }
        children.clear();
        for child in range {
            let child = child as u32;
            let (pa, pb) = if split_a { (child, b) } else { (a, child) };
            let (ca, cb) = if split_a {
                (world_circle(tree_a, pose_a, child), circle_b)
            } else {
                (circle_a, world_circle(tree_b, pose_b, child))
            };
            stats.node_tests += 1;
            if nodes_a[pa as usize].is_leaf() && nodes_b[pb as usize].is_leaf() {
                stats.leaf_tests += 1;
                if visitor.leaves(pa, &ca, pb, &cb).is_break() {
                    return stats;
                }
            } else if let Some(bound) = visitor.enter(&ca, &cb) {
                children.push(PairEntry {
                    a: pa,
                    b: pb,
                    level: level + 1,
                    bound,
                    circle_a: ca,
                    circle_b: cb,
                });
            }
        }
        if ordered {
            children.sort_by(|x, y| {
                y.bound
                    .total_cmp(&x.bound)
                    .then((y.a, y.b).cmp(&(x.a, x.b)))
            });
        }
        stack.extend(children.drain(..));
    }
    stats
}

/// The brute-force reference: every leaf tested, nothing pruned.
pub(crate) fn visit_leaves(
    tree: &CircleTree,
    pose: &Pose,
    visitor: &mut impl Visitor,
) -> TreeQueryStats {
    let mut stats = TreeQueryStats::default();
    for &leaf in tree.leaves() {
        stats.node_tests += 1;
        stats.leaf_tests += 1;
        if visitor
            .leaf(leaf, &world_circle(tree, pose, leaf))
            .is_break()
        {
            break;
        }
    }
    stats
}

/// The brute-force reference for two trees: every leaf pair tested.
pub(crate) fn visit_leaf_pairs(
    tree_a: &CircleTree,
    pose_a: &Pose,
    tree_b: &CircleTree,
    pose_b: &Pose,
    visitor: &mut impl PairVisitor,
) -> TreeQueryStats {
    let mut stats = TreeQueryStats::default();
    let circles_b: Vec<(u32, WorldCircle)> = tree_b
        .leaves()
        .iter()
        .map(|&leaf| (leaf, world_circle(tree_b, pose_b, leaf)))
        .collect();
    for &leaf_a in tree_a.leaves() {
        let circle_a = world_circle(tree_a, pose_a, leaf_a);
        for (leaf_b, circle_b) in &circles_b {
            stats.node_tests += 1;
            stats.leaf_tests += 1;
            if visitor
                .leaves(leaf_a, &circle_a, *leaf_b, circle_b)
                .is_break()
            {
                return stats;
            }
        }
    }
    stats
}
