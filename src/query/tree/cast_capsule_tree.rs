//! `cast_capsule_tree`: the first leaf a thick shot touches along its trace.
//!
//! A shot of radius ρ from `a` to `b` (a capsule's core and radius) touches a
//! leaf circle (c, r) when its centre comes within r + ρ of c: a ray against
//! a circle, solved in closed form (seed 004's thick line, with the hit time).

use super::probe::{COINCIDENT_NORMAL, unit_or};
use super::walk::{Visitor, WorldCircle, visit_leaves, walk};
use super::{QueryBudget, TreeCastHit, TreeQueryStats, part};
use crate::math::{Pose, Real, Vec2};
use crate::shape::{Capsule, CircleTree};
use std::ops::ControlFlow;

/// First fraction in [0, 1] at which the point `start + t·travel` comes
/// within `reach` of `center`, if any.
#[inline]
pub(crate) fn entry_fraction(start: Vec2, travel: Vec2, center: Vec2, reach: Real) -> Option<Real> {
    // |m + t·d|² = R² with m = start − c: a t² + 2 b t + c = 0.
    let m = start - center;
    let c = m.norm_squared() - reach * reach;
    if c <= 0.0 {
        return Some(0.0); // starts touching
    }
    let b = m.dot(&travel);
    if b >= 0.0 {
        return None; // outside and not approaching
    }
    let a = travel.norm_squared();
    let disc = b * b - a * c;
    if disc < 0.0 {
        return None;
    }
    // Smaller root (−b − √disc)/a written as c/(−b + √disc): no cancellation.
    let t = c / (-b + disc.sqrt());
    (t <= 1.0).then_some(t.max(0.0))
}

struct Cast<'a> {
    tree: &'a CircleTree,
    start: Vec2,
    travel: Vec2,
    radius: Real,
    best: Option<(Real, u32, Vec2, Real)>,
}

impl Cast<'_> {
    fn consider(&mut self, node: u32, circle: &WorldCircle) -> ControlFlow<()> {
        if let Some(t) = entry_fraction(
            self.start,
            self.travel,
            circle.center,
            circle.radius + self.radius,
        ) {
            // Earliest fraction; equal fractions go to the lower node index.
            if self.best.is_none_or(|(bt, bn, _, _)| (t, node) < (bt, bn)) {
                self.best = Some((t, node, circle.center, circle.radius));
            }
        }
        ControlFlow::Continue(())
    }
}

impl Visitor for Cast<'_> {
    fn enter(&mut self, circle: &WorldCircle) -> Option<Real> {
        let bound = entry_fraction(
            self.start,
            self.travel,
            circle.center,
            circle.radius + self.radius + circle.slack,
        )?;
        self.useful(bound).then_some(bound)
    }

    fn leaf(&mut self, node: u32, circle: &WorldCircle) -> ControlFlow<()> {
        self.consider(node, circle)
    }

    fn cut(&mut self, node: u32, circle: &WorldCircle) -> ControlFlow<()> {
        self.consider(node, circle)
    }

    fn ordered(&self) -> bool {
        true
    }

    fn useful(&self, bound: Real) -> bool {
        self.best.is_none_or(|(t, _, _, _)| bound <= t)
    }
}

/// Sweeps a disc of the capsule's radius from its end `a` to its end `b`
/// (a thick shot: the capsule is the trace) and returns where it first
/// touches a leaf of `tree`; fraction 0 if it starts touching.
///
/// # Examples
/// ```
/// use circlet::math::{Pose, vec2};
/// use circlet::query::tree::cast_capsule_tree;
/// use circlet::shape::{Capsule, CircleTree, TreeBuilder};
/// let (target, _) = TreeBuilder::node(vec2(0.0, 0.0), 2.0)
///     .child(TreeBuilder::node(vec2(0.0, 1.0), 1.0).part("head"))
///     .child(TreeBuilder::node(vec2(0.0, -1.0), 1.0).part("body"))
///     .build()
///     .unwrap();
/// let shot = Capsule::new(vec2(-10.0, 1.0), vec2(10.0, 1.0), 0.1).unwrap();
/// let hit = cast_capsule_tree(&shot, &Pose::IDENTITY, &target, &Pose::IDENTITY).unwrap();
/// assert_eq!(hit.part, target.part_id("head"));
/// assert!((hit.fraction - (10.0 - 1.1) / 20.0).abs() < 1e-5);
/// assert!((hit.normal - vec2(-1.0, 0.0)).norm() < 1e-5);
/// ```
pub fn cast_capsule_tree(
    shot: &Capsule,
    shot_pose: &Pose,
    tree: &CircleTree,
    tree_pose: &Pose,
) -> Option<TreeCastHit> {
    cast_capsule_tree_with_stats(shot, shot_pose, tree, tree_pose, QueryBudget::UNLIMITED).0
}

/// [`cast_capsule_tree`] within a budget, with the counters: under a cut the
/// fraction is a lower bound (a node circle's) and the node is not a leaf.
pub fn cast_capsule_tree_with_stats(
    shot: &Capsule,
    shot_pose: &Pose,
    tree: &CircleTree,
    tree_pose: &Pose,
    budget: QueryBudget,
) -> (Option<TreeCastHit>, TreeQueryStats) {
    let mut visitor = Cast::new(shot, shot_pose, tree);
    let stats = walk(tree, tree_pose, &budget, &mut visitor);
    (visitor.hit(), stats)
}

/// The brute-force reference of [`cast_capsule_tree`]: every leaf tested.
pub(crate) fn brute_force(
    shot: &Capsule,
    shot_pose: &Pose,
    tree: &CircleTree,
    tree_pose: &Pose,
) -> (Option<TreeCastHit>, TreeQueryStats) {
    let mut visitor = Cast::new(shot, shot_pose, tree);
    let stats = visit_leaves(tree, tree_pose, &mut visitor);
    (visitor.hit(), stats)
}

impl<'a> Cast<'a> {
    fn new(shot: &Capsule, shot_pose: &Pose, tree: &'a CircleTree) -> Cast<'a> {
        let start = shot_pose.transform_point(shot.a());
        Cast {
            tree,
            start,
            travel: shot_pose.transform_point(shot.b()) - start,
            radius: shot_pose.scale_length(shot.radius()),
            best: None,
        }
    }

    fn hit(&self) -> Option<TreeCastHit> {
        let (start, travel, tree) = (self.start, self.travel, self.tree);
        self.best.map(|(fraction, node, center, radius)| {
            let at = start + travel * fraction;
            let normal = unit_or(at - center, unit_or(-travel, COINCIDENT_NORMAL));
            TreeCastHit {
                fraction,
                point: center + normal * radius,
                normal,
                node,
                part: part(tree, node),
            }
        })
    }
}
