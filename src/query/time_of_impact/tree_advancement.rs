//! What the circle-tree pairs share: the swept body of a tree, the rounding
//! allowance of their pruned sweeps, and conservative advancement driven by
//! the tree-aware closest points, which also reports the parts.

use super::conservative_advancement::{SweptBody, advancement_tolerance, conservative_advancement};
use super::types::{Motion, Toi, ToiError, ToiStatus};
use crate::math::{Pose, Real, Vec2};
use crate::query::tree::TreeClosestPoints;
use crate::query::{ClosestPoints, Manifold};
use crate::shape::CircleTree;

/// A pruned linear sweep widens each node circle by this many ulps of the
/// magnitudes involved (coordinates relative to the common origin plus the
/// relative motion): a node's and a leaf's entry fractions round
/// independently, by a few ulps of those magnitudes each (the motion may be
/// a thousand times the tree's size), and a grazing contact that the leaf's
/// closed form accepts must pass all its ancestors' tests too.
pub(super) const SWEEP_ROUNDING_ULPS: Real = 16.0;

/// The widening of [`SWEEP_ROUNDING_ULPS`] for a sweep whose coordinates
/// (relative to the common origin) reach `magnitude` metres and whose
/// relative motion is `relative_motion` (metres per step).
pub(super) fn sweep_widening(magnitude: Real, relative_motion: Vec2) -> Real {
    SWEEP_ROUNDING_ULPS * Real::EPSILON * (magnitude + relative_motion.abs().max())
}

/// Size of a tree for the stopping tolerance (local units): the radius about
/// the mean of its leaf centres that contains every leaf.
pub(crate) fn tree_length_scale(tree: &CircleTree) -> Real {
    let count = tree.leaves().len().max(1) as Real;
    let middle = tree.leaf_circles().map(|c| c.center()).sum::<Vec2>() / count;
    tree.leaf_circles()
        .map(|c| (c.center() - middle).norm() + c.radius())
        .fold(0.0, Real::max)
}

/// The swept body of a tree at `pose` moving by `motion`: not convex (a
/// union of discs), bounding radius about its origin, size from
/// [`tree_length_scale`]; the same as [`SweptBody::from_shape`] gives for a
/// [`crate::shape::Shape::Tree`].
pub(super) fn tree_body(tree: &CircleTree, pose: &Pose, motion: &Motion) -> SweptBody {
    SweptBody {
        pose: *pose,
        motion: *motion,
        bounding_radius: pose.scale_length(tree.bounding_radius_about_origin()),
        length_scale: pose.scale_length(tree_length_scale(tree)),
        convex: false,
    }
}

/// Conservative advancement of two bodies of which at least one is a tree,
/// with `closest(pose_a, pose_b)` the tree-aware closest points (`None` when
/// they intersect) and `contact(pose_a, pose_b, margin)` their contact
/// manifold within `margin` metres.
///
/// The parts of the reported contact are those of the closest points at the
/// reported fraction. Where the bodies already intersect there (overlapping
/// at the start, or brought into contact by rounding), the normal, point and
/// parts are the contact manifold's: its normal and its deepest point.
/// Where they touch only within rounding (the closest points call it an
/// intersection, yet no leaf overlaps in the contact query, far from the
/// origin where a coordinate's ulp exceeds the overlap), the manifold within
/// the advancement's tolerance stands in: its deepest point is the leaf
/// nearest the other body, so a tree's answer always names a part.
pub(super) fn advance_trees(
    body_a: &SweptBody,
    body_b: &SweptBody,
    mut closest: impl FnMut(&Pose, &Pose) -> Option<TreeClosestPoints>,
    contact: impl Fn(&Pose, &Pose, Real) -> Option<Manifold>,
) -> Result<Option<Toi>, ToiError> {
    // What the last call of `closest` saw: the parts, or an intersection.
    let mut last = None;
    let toi = conservative_advancement(body_a, body_b, |pose_a, pose_b| {
        let found = closest(pose_a, pose_b);
        last = Some(found.map(|c| (c.part_a, c.part_b)));
        found.map(|c| ClosestPoints {
            distance: c.distance,
            point_a: c.point_a,
            point_b: c.point_b,
        })
    })?;
    Ok(toi.map(|toi| match last {
        Some(Some((part_a, part_b))) => Toi {
            part_a,
            part_b,
            ..toi
        },
        _ => {
            let pose_a = body_a.motion.pose_at(&body_a.pose, toi.fraction);
            let pose_b = body_b.motion.pose_at(&body_b.pose, toi.fraction);
            let manifold = contact(&pose_a, &pose_b, 0.0)
                .or_else(|| contact(&pose_a, &pose_b, advancement_tolerance(body_a, body_b)));
            with_manifold(toi, manifold.as_ref())
        }
    }))
}

/// `toi` with the normal, point and parts of `manifold`'s deepest point
/// (unchanged without a manifold).
pub(super) fn with_manifold(toi: Toi, manifold: Option<&Manifold>) -> Toi {
    let deepest = manifold.and_then(|m| {
        m.points
            .iter()
            .max_by(|p, q| p.depth.total_cmp(&q.depth))
            .map(|p| (m.normal, p))
    });
    match deepest {
        Some((normal, point)) => Toi {
            normal,
            point: point.point,
            part_a: point.part_a,
            part_b: point.part_b,
            ..toi
        },
        None => toi,
    }
}

/// True when a linear sweep's answer is final: nothing comes before an
/// overlap at the start.
pub(super) fn is_overlap(toi: &Toi) -> bool {
    toi.status == ToiStatus::OverlappingAtStart
}
