//! Time of impact of a circle tree and any other shape (not a tree).
//!
//! - **Linear motion**: a pruned descent of swept bounding circles. A node's
//!   circle contains all its leaves, so the first contact of the node circle
//!   (moving with the tree) with the shape is a lower bound of its leaves';
//!   a node is expanded only if that bound is no later than the best leaf
//!   found so far, nearest first (branch and bound). Each leaf is a circle
//!   and goes through the closed forms of this module (circle against
//!   circle, capsule, polygon, or each convex piece of a simple polygon), so
//!   the answer is exact as they are.
//! - **Rotation**: conservative advancement driven by the tree-aware closest
//!   points ([`crate::query::tree::closest_points_tree_shape`]); the tree is
//!   not convex, so the full relative speed bounds the approach.
//!
//! The reported parts are the tree leaf's ([`Toi::part_a`]); overlapping at
//! the start reports the contact manifold's normal and deepest point.

use super::conservative_advancement::SweptBody;
use super::swept::{Convex, Swept};
use super::toi_convex;
use super::tree_advancement::{
    advance_trees, is_overlap, sweep_widening, tree_body, with_manifold,
};
use super::types::{Motion, Toi, ToiError};
use crate::math::{Pose, Real, Vec2};
use crate::query::placed::Placed;
use crate::query::tree::{
    QueryBudget, Visitor, WorldCircle, closest_points_tree_placed, contact_tree_placed, walk,
};
use crate::shape::{CircleTree, Shape};
use std::ops::ControlFlow;

/// The branch-and-bound visitor of the linear sweep (coordinates relative
/// to the common origin).
struct FirstContact<'a> {
    parts: &'a [Convex],
    motion_tree: Vec2,
    motion_shape: Vec2,
    /// Extra widening of node circles (metres), see [`sweep_widening`].
    widening: Real,
    best: Option<(Toi, u32)>,
}

impl FirstContact<'_> {
    /// The first contact of the circle (moving with the tree) with any part.
    fn earliest(&self, center: Vec2, radius: Real) -> Option<Toi> {
        let circle = Convex::round(center, radius);
        let mut best: Option<Toi> = None;
        for part in self.parts {
            if let Some(toi) = toi_convex(&circle, self.motion_tree, part, self.motion_shape) {
                if is_overlap(&toi) {
                    return Some(toi);
                }
                if best.is_none_or(|b| toi.fraction < b.fraction) {
                    best = Some(toi);
                }
            }
        }
        best
    }

    fn consider(&mut self, node: u32, circle: &WorldCircle) -> ControlFlow<()> {
        let Some(toi) = self.earliest(circle.center, circle.radius) else {
            return ControlFlow::Continue(());
        };
        // Earliest fraction; equal fractions go to the lower node index.
        if self
            .best
            .is_none_or(|(best, best_node)| (toi.fraction, node) < (best.fraction, best_node))
        {
            self.best = Some((toi, node));
        }
        if is_overlap(&toi) {
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    }
}

impl Visitor for FirstContact<'_> {
    fn enter(&mut self, circle: &WorldCircle) -> Option<Real> {
        let radius = circle.radius + circle.slack + self.widening;
        let bound = self.earliest(circle.center, radius)?.fraction;
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
        self.best.is_none_or(|(best, _)| bound <= best.fraction)
    }
}

/// First contact of `tree` (at `tree_pose`, moving by `tree_motion`) and
/// `shape` within one step, the tree's leaf part in [`Toi::part_a`];
/// `Ok(None)` if they stay apart. Normal from the tree to the shape, world.
/// Expects the finite input [`super::time_of_impact`] validates; a
/// [`Shape::Tree`] as `shape` is answered by [`super::toi_tree_tree`].
///
/// # Errors
/// [`ToiError::UnsupportedShape`] for a [`crate::shape::Line`] (named `"b"`),
/// and the errors of [`super::conservative_advancement`] when rotating.
///
/// # Examples
/// ```
/// use circlet::math::{Pose, vec2};
/// use circlet::query::time_of_impact::{Motion, toi_tree_shape};
/// use circlet::shape::{ConvexPolygon, Shape, TreeBuilder};
/// let (ship, _) = TreeBuilder::node(vec2(0.0, 0.0), 2.0)
///     .child(TreeBuilder::node(vec2(1.0, 0.0), 1.0).part("nose"))
///     .child(TreeBuilder::node(vec2(-1.0, 0.0), 1.0).part("tail"))
///     .build()
///     .unwrap();
/// let wall = Shape::from(ConvexPolygon::rectangle(vec2(10.0, -5.0), vec2(10.5, 5.0)).unwrap());
/// let toi = toi_tree_shape(&ship, &Pose::IDENTITY, &Motion::linear(vec2(20.0, 0.0)),
///                          &wall, &Pose::IDENTITY, &Motion::ZERO).unwrap().unwrap();
/// assert!((toi.fraction - 8.0 / 20.0).abs() < 1e-5);
/// assert_eq!(toi.part_a, ship.part_id("nose"));
/// ```
pub fn toi_tree_shape(
    tree: &CircleTree,
    tree_pose: &Pose,
    tree_motion: &Motion,
    shape: &Shape,
    shape_pose: &Pose,
    shape_motion: &Motion,
) -> Result<Option<Toi>, ToiError> {
    if let Shape::Tree(other) = shape {
        return super::toi_tree_tree(
            tree,
            tree_pose,
            tree_motion,
            other,
            shape_pose,
            shape_motion,
        );
    }
    if let Shape::Line(_) = shape {
        return Err(ToiError::UnsupportedShape {
            which: "b",
            kind: shape.kind(),
        });
    }
    let contact = |pose_a: &Pose, pose_b: &Pose, margin: Real| {
        contact_tree_placed(tree, pose_a, &Placed::new(shape, pose_b), margin)
    };
    if tree_motion.angular != 0.0 || shape_motion.angular != 0.0 {
        let body_tree = tree_body(tree, tree_pose, tree_motion);
        let body_shape = SweptBody::from_shape(shape, *shape_pose, *shape_motion);
        return advance_trees(
            &body_tree,
            &body_shape,
            |pose_a, pose_b| closest_points_tree_placed(tree, pose_a, &Placed::new(shape, pose_b)),
            contact,
        );
    }
    let origin = tree_pose.translation;
    let swept = Swept::new(shape, shape_pose, origin, "b")?;
    let relative = Pose {
        translation: Vec2::zeros(),
        ..*tree_pose
    };
    let magnitude = (shape_pose.translation - origin).abs().max()
        + shape_pose.scale_length(shape.bounding_radius())
        + tree_pose.scale_length(tree.bounding_radius_about_origin());
    let mut visitor = FirstContact {
        parts: swept.parts(),
        motion_tree: tree_motion.linear,
        motion_shape: shape_motion.linear,
        widening: sweep_widening(magnitude, shape_motion.linear - tree_motion.linear),
        best: None,
    };
    walk(tree, &relative, &QueryBudget::UNLIMITED, &mut visitor);
    Ok(visitor.best.map(|(toi, node)| {
        let toi = Toi {
            part_a: tree.part_of(node as usize),
            ..toi.translated(origin)
        };
        if is_overlap(&toi) {
            with_manifold(toi, contact(tree_pose, shape_pose, 0.0).as_ref())
        } else {
            toi
        }
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;
    use crate::query::time_of_impact::ToiStatus;
    use crate::shape::{Aabb, Circle, SimplePolygon};

    /// A case the CCD property test drew: a small tree 35 m from the
    /// origin whose leaf 3 overlaps a turning polygon by less than a
    /// coordinate's ulp. The tree's closest points call it an
    /// intersection, its contact query finds no overlapping leaf; the
    /// answer still names the leaf (through the manifold within the
    /// advancement's tolerance), where it named no part before.
    #[test]
    fn touching_within_rounding_far_from_the_origin_names_a_part() {
        use crate::query::closest_points;
        use crate::shape::{ConvexPolygon, FlatNode, PartId};
        let node =
            |x: Real, y: Real, r: Real, children: std::ops::Range<usize>, part: Option<u32>| {
                FlatNode {
                    center: vec2(x, y),
                    radius: r,
                    children,
                    part: part.map(PartId),
                }
            };
        let nodes = vec![
            node(0.017043376, -0.01206537, 0.096836604, 1..3, None),
            node(0.019054666, -0.013580019, 0.09431878, 3..5, None),
            node(-0.057900626, 0.044372972, 0.0030182158, 0..0, Some(0)),
            node(0.048907157, -0.023593491, 0.06283162, 5..7, None),
            node(-0.040365543, 0.006351405, 0.03164483, 7..9, None),
            node(0.046568524, -0.052136157, 0.034193303, 0..0, Some(1)),
            node(0.053791575, 0.03602014, 0.0030182158, 0..0, Some(2)),
            node(-0.040365543, 0.006351405, 0.03164483, 0..0, Some(3)),
            node(-0.054695908, 0.008152177, 0.0030182158, 0..0, Some(4)),
        ];
        let tree = CircleTree::new(nodes, (0..5).map(|i| format!("leaf {i}")).collect()).unwrap();
        let polygon = Shape::from(
            ConvexPolygon::new(&[
                vec2(0.15838663, 0.0640876),
                vec2(-0.328737, 0.051294055),
                vec2(-0.31169704, -0.053152684),
                vec2(-0.08843465, -0.06644061),
                vec2(0.29592884, -0.054732487),
                vec2(0.48719198, 0.018199112),
            ])
            .unwrap(),
        );
        let pose = |x: Real, y: Real, re: Real, im: Real, scale: Real| Pose {
            translation: vec2(x, y),
            rotation: crate::math::Rot2::new_unchecked(nalgebra::Complex::new(re, im)),
            scale,
        };
        let tree_pose = pose(35.278267, 33.692146, -0.98776436, 0.15595357, 1.9754418);
        let polygon_pose = pose(35.46642, 33.701958, -0.73286265, 0.6803766, 0.61884195);
        let turning = Motion {
            linear: vec2(-0.029607324, 0.058514636),
            angular: -1.6881256,
        };
        // The two queries disagree here.
        let whole = Shape::from(tree.clone());
        assert!(closest_points(&whole, &tree_pose, &polygon, &polygon_pose).is_none());
        assert!(crate::query::contact(&whole, &tree_pose, &polygon, &polygon_pose).is_none());
        let toi = toi_tree_shape(
            &tree,
            &tree_pose,
            &Motion::ZERO,
            &polygon,
            &polygon_pose,
            &turning,
        )
        .unwrap()
        .unwrap();
        assert_eq!(toi.status, ToiStatus::OverlappingAtStart);
        assert_eq!(toi.part_a, Some(PartId(3)));
        assert!(toi.normal.norm() > 0.99 && toi.point.x.is_finite());
    }

    fn comb() -> CircleTree {
        let leaves: Vec<Circle> = (0..12)
            .map(|i| {
                Circle::new(vec2(0.4 * i as Real - 2.2, 0.15 * (i % 3) as Real), 0.25).unwrap()
            })
            .collect();
        CircleTree::from_leaves(&leaves, 3).unwrap()
    }

    /// The earliest of the leaves' own sweeps, each a circle shape.
    fn brute(
        tree: &CircleTree,
        pose: &Pose,
        motion: &Motion,
        shape: &Shape,
        at: &Pose,
        moving: &Motion,
    ) -> Option<Toi> {
        tree.leaf_circles()
            .filter_map(|c| {
                let leaf = Shape::from(c);
                super::super::time_of_impact(&leaf, pose, motion, shape, at, moving).unwrap()
            })
            .min_by(|x, y| x.fraction.total_cmp(&y.fraction))
    }

    #[test]
    fn linear_sweep_equals_the_earliest_leaf() {
        let tree = comb();
        let l_shape = Shape::from(
            SimplePolygon::new(&[
                vec2(0.0, 0.0),
                vec2(2.0, 0.0),
                vec2(2.0, 0.5),
                vec2(0.5, 0.5),
                vec2(0.5, 2.0),
                vec2(0.0, 2.0),
            ])
            .unwrap(),
        );
        let block = Shape::from(Aabb::new(vec2(-0.3, -0.2), vec2(0.3, 0.2)).unwrap());
        for shape in [&l_shape, &block] {
            for k in 0..100 {
                let a = k as Real * 0.37;
                let pose = Pose::new(vec2(a.cos() * 8.0, a.sin() * 8.0), a).with_scale(1.3);
                let motion = Motion::linear(
                    -pose.translation * (1.5 + 0.01 * k as Real)
                        + vec2((a * 3.1).sin(), (a * 1.3).cos()) * 2.0,
                );
                let at = Pose::new(vec2(0.3, -0.1), -a);
                let moving = Motion::linear(vec2(0.5, -0.25));
                let toi = toi_tree_shape(&tree, &pose, &motion, shape, &at, &moving).unwrap();
                let expected = brute(&tree, &pose, &motion, shape, &at, &moving);
                assert_eq!(toi.map(|t| t.fraction), expected.map(|t| t.fraction), "{k}");
            }
        }
    }

    #[test]
    fn rotating_tree_reports_the_leaf_part_and_overlap_uses_the_manifold() {
        let tree = comb();
        let wall = Shape::from(Aabb::new(vec2(-5.0, 2.0), vec2(5.0, 2.5)).unwrap());
        // Spinning about its middle, drifting up: an end of the comb swings in.
        let motion = Motion::new(vec2(0.0, 0.5), 1.5);
        let toi = toi_tree_shape(
            &tree,
            &Pose::IDENTITY,
            &motion,
            &wall,
            &Pose::IDENTITY,
            &Motion::ZERO,
        )
        .unwrap()
        .unwrap();
        assert_eq!(toi.status, ToiStatus::Touching);
        assert!(toi.fraction > 0.0 && toi.fraction < 1.0);
        assert!(toi.normal.y > 0.9, "{:?}", toi.normal);
        let at = motion.pose_at(&Pose::IDENTITY, toi.fraction);
        let gap = crate::query::tree::distance_tree_shape(&tree, &at, &wall, &Pose::IDENTITY);
        assert!(gap <= 1e-3, "{gap}");
        // Overlapping at the start: the manifold's normal (out of the tree, up).
        let sunk = Pose::from_translation(vec2(0.0, 1.9));
        let toi = toi_tree_shape(&tree, &sunk, &motion, &wall, &Pose::IDENTITY, &Motion::ZERO)
            .unwrap()
            .unwrap();
        assert_eq!(toi.status, ToiStatus::OverlappingAtStart);
        assert!(toi.normal.y > 0.9, "{:?}", toi.normal);
    }
}
