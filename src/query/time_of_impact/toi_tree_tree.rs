//! Time of impact of two circle trees.
//!
//! - **Linear motion**: both trees descend together (the larger node split
//!   first) by their swept bounding circles: the first contact of two node
//!   circles, each moving with its tree, is a lower bound of their leaves';
//!   a pair is split only if that bound is no later than the best leaf pair
//!   found so far, nearest first. Leaf pairs are [`super::toi_circle_circle`]'s
//!   closed form, so the answer is exact as it is.
//! - **Rotation**: conservative advancement driven by
//!   [`crate::query::tree::closest_points_tree_tree`].
//!
//! Both leaves' parts are reported; overlapping at the start reports the
//! contact manifold's normal and deepest point.

use super::toi_circle_circle;
use super::tree_advancement::{
    advance_trees, is_overlap, sweep_widening, tree_body, with_manifold,
};
use super::types::{Motion, Toi, ToiError};
use crate::math::{Pose, Real, Vec2};
use crate::query::tree::{
    PairVisitor, QueryBudget, WorldCircle, closest_points_tree_tree, contact_tree_tree_with_margin,
    walk_pair,
};
use crate::shape::CircleTree;
use std::ops::ControlFlow;

/// The branch-and-bound visitor of the joint linear sweep (coordinates
/// relative to the common origin).
struct FirstContact {
    motion_a: Vec2,
    motion_b: Vec2,
    /// Extra widening of node circles (metres), see [`sweep_widening`].
    widening: Real,
    best: Option<(Toi, u32, u32)>,
}

impl FirstContact {
    fn consider(
        &mut self,
        node_a: u32,
        a: &WorldCircle,
        node_b: u32,
        b: &WorldCircle,
    ) -> ControlFlow<()> {
        let Some(toi) = toi_circle_circle(
            a.center,
            a.radius,
            self.motion_a,
            b.center,
            b.radius,
            self.motion_b,
        ) else {
            return ControlFlow::Continue(());
        };
        // Earliest fraction; equal fractions go to the lower node pair.
        let key = (toi.fraction, node_a, node_b);
        if self
            .best
            .is_none_or(|(best, best_a, best_b)| key < (best.fraction, best_a, best_b))
        {
            self.best = Some((toi, node_a, node_b));
        }
        if is_overlap(&toi) {
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    }
}

impl PairVisitor for FirstContact {
    fn enter(&mut self, a: &WorldCircle, b: &WorldCircle) -> Option<Real> {
        let bound = toi_circle_circle(
            a.center,
            a.radius + a.slack + self.widening,
            self.motion_a,
            b.center,
            b.radius + b.slack,
            self.motion_b,
        )?
        .fraction;
        self.useful(bound).then_some(bound)
    }

    fn leaves(
        &mut self,
        node_a: u32,
        a: &WorldCircle,
        node_b: u32,
        b: &WorldCircle,
    ) -> ControlFlow<()> {
        self.consider(node_a, a, node_b, b)
    }

    fn cut(
        &mut self,
        node_a: u32,
        a: &WorldCircle,
        node_b: u32,
        b: &WorldCircle,
    ) -> ControlFlow<()> {
        self.consider(node_a, a, node_b, b)
    }

    fn ordered(&self) -> bool {
        true
    }

    fn useful(&self, bound: Real) -> bool {
        self.best.is_none_or(|(best, _, _)| bound <= best.fraction)
    }
}

/// First contact of two circle trees, each at a pose and moving over one
/// step, with both leaves' parts; `Ok(None)` if they stay apart. Normal from
/// A to B, world. Expects the finite input [`super::time_of_impact`] validates.
///
/// # Errors
/// When rotating, the errors of [`super::conservative_advancement`].
///
/// # Examples
/// ```
/// use circlet::math::{Pose, vec2};
/// use circlet::query::time_of_impact::{Motion, toi_tree_tree};
/// use circlet::shape::{Circle, CircleTree};
/// let pair = CircleTree::from_leaves(&[
///     Circle::new(vec2(0.0, 1.0), 0.5).unwrap(),
///     Circle::new(vec2(0.0, -1.0), 0.5).unwrap(),
/// ], 2).unwrap();
/// // B flies at A with a leaf at the height of the gap: only its other leaf hits.
/// let toi = toi_tree_tree(&pair, &Pose::IDENTITY, &Motion::ZERO,
///                         &pair, &Pose::from_translation(vec2(10.0, 2.0)), &Motion::linear(vec2(-20.0, 0.0)))
///     .unwrap()
///     .unwrap();
/// assert!((toi.fraction - 9.0 / 20.0).abs() < 1e-5);
/// assert!((toi.normal - vec2(1.0, 0.0)).norm() < 1e-5);
/// ```
pub fn toi_tree_tree(
    tree_a: &CircleTree,
    pose_a: &Pose,
    motion_a: &Motion,
    tree_b: &CircleTree,
    pose_b: &Pose,
    motion_b: &Motion,
) -> Result<Option<Toi>, ToiError> {
    let contact = |pa: &Pose, pb: &Pose, margin: Real| {
        contact_tree_tree_with_margin(tree_a, pa, tree_b, pb, margin)
    };
    if motion_a.angular != 0.0 || motion_b.angular != 0.0 {
        return advance_trees(
            &tree_body(tree_a, pose_a, motion_a),
            &tree_body(tree_b, pose_b, motion_b),
            |pa, pb| closest_points_tree_tree(tree_a, pa, tree_b, pb),
            contact,
        );
    }
    let origin = pose_a.translation;
    let relative_a = Pose {
        translation: Vec2::zeros(),
        ..*pose_a
    };
    let relative_b = Pose {
        translation: pose_b.translation - origin,
        ..*pose_b
    };
    let magnitude = relative_b.translation.abs().max()
        + pose_a.scale_length(tree_a.bounding_radius_about_origin())
        + pose_b.scale_length(tree_b.bounding_radius_about_origin());
    let mut visitor = FirstContact {
        motion_a: motion_a.linear,
        motion_b: motion_b.linear,
        widening: sweep_widening(magnitude, motion_b.linear - motion_a.linear),
        best: None,
    };
    walk_pair(
        tree_a,
        &relative_a,
        tree_b,
        &relative_b,
        &QueryBudget::UNLIMITED,
        &mut visitor,
    );
    Ok(visitor.best.map(|(toi, node_a, node_b)| {
        let toi = Toi {
            part_a: tree_a.part_of(node_a as usize),
            part_b: tree_b.part_of(node_b as usize),
            ..toi.translated(origin)
        };
        if is_overlap(&toi) {
            with_manifold(toi, contact(pose_a, pose_b, 0.0).as_ref())
        } else {
            toi
        }
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;
    use crate::shape::Circle;

    fn ring(count: usize, radius: Real) -> CircleTree {
        let leaves: Vec<Circle> = (0..count)
            .map(|i| {
                let a = std::f32::consts::TAU * i as Real / count as Real;
                Circle::new(vec2(a.cos(), a.sin()) * radius, 0.2 + 0.02 * i as Real).unwrap()
            })
            .collect();
        CircleTree::from_leaves(&leaves, 3).unwrap()
    }

    #[test]
    fn joint_sweep_equals_the_earliest_leaf_pair() {
        let (a, b) = (ring(9, 1.5), ring(5, 0.8));
        for k in 0..200 {
            let t = k as Real * 0.31;
            let pose_a = Pose::new(vec2(1.0, 2.0), t).with_scale(0.8 + 0.002 * k as Real);
            let pose_b = Pose::new(vec2(1.0, 2.0) + vec2(t.cos(), t.sin()) * 9.0, -t);
            let motion_a = Motion::linear(vec2((t * 1.7).sin(), 0.3));
            let motion_b = Motion::linear(
                (pose_a.translation - pose_b.translation) * 1.6 + vec2((t * 2.9).cos(), 0.0) * 2.0,
            );
            let toi = toi_tree_tree(&a, &pose_a, &motion_a, &b, &pose_b, &motion_b).unwrap();
            let mut brute: Option<Real> = None;
            for la in a.leaf_circles() {
                for lb in b.leaf_circles() {
                    if let Some(t) = toi_circle_circle(
                        pose_a.transform_point(la.center()) - pose_a.translation,
                        pose_a.scale_length(la.radius()),
                        motion_a.linear,
                        pose_b.transform_point(lb.center()) - pose_a.translation,
                        pose_b.scale_length(lb.radius()),
                        motion_b.linear,
                    ) {
                        brute = Some(brute.map_or(t.fraction, |b| b.min(t.fraction)));
                    }
                }
            }
            match (toi, brute) {
                (None, None) => {}
                (Some(toi), Some(expected)) => {
                    assert!(
                        (toi.fraction - expected).abs() < 1e-5,
                        "{k}: {toi:?} vs {expected}"
                    )
                }
                other => panic!("{k}: {other:?}"),
            }
        }
    }
}
