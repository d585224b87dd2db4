//! Time of impact: when, within one step, two moving shapes first touch.
//!
//! Each shape has a pose at the start of the step and a [`Motion`] (metres
//! and radians **per step**; [`Motion::from_velocity`] converts velocities).
//! [`time_of_impact`] answers with a [`Toi`]: the fraction of the step in
//! `[0, 1]`, the world normal from A to B and the world contact point at that
//! time; or `None` if they stay apart; or [`ToiStatus::OverlappingAtStart`].
//!
//! # Methods and guarantees
//! - **Linear motion** (both angular motions 0) is exact, no iteration:
//!   circle–circle is a quadratic; circle–capsule and circle–polygon are a
//!   thick cast of the circle in the other shape's frame of motion; capsule
//!   pairs are a thick cast against the Minkowski difference of the cores;
//!   polygon–polygon is the SAT interval method (entry = the largest per-axis
//!   entry, exit = the smallest per-axis exit, hit iff entry <= exit and entry
//!   in `[0, 1]`). Simple polygons go through their convex pieces. **No
//!   miss**: the reported fraction is the first contact up to f32 rounding (a
//!   few ulps of the coordinates over the relative speed), and corners are
//!   never lost to rounding (see [`mod@crate::query::cast`]).
//! - **Rotation** (either angular motion non-zero) uses
//!   [`conservative_advancement`] driven by [`crate::query::closest_points`]:
//!   every step is proven not to pass the first contact, so the answer is
//!   never late. It stops once the shapes are within
//!   [`advancement_tolerance`]: [`ADVANCEMENT_RELATIVE_TOLERANCE`] (1e-4) of
//!   the smaller shape's size, floored at a few ulps of the coordinates. If
//!   [`MAX_ADVANCEMENT_ITERATIONS`] is reached first, the answer is
//!   [`ToiStatus::IterationLimit`] at the last time proven safe, never "no
//!   hit". [`Toi::iterations`] reports the steps taken.
//! - Touching counts: shapes that touch at the start are overlapping at start.
//! - The pair functions (`toi_<a>_<b>`) expect finite input, which
//!   [`time_of_impact`] validates; like every function here they never panic.
//!
//! # Frame
//! Inputs are shapes in their local frames, world poses at the start of the
//! step and world motions. The fraction is of the step; normal and point are
//! world, at that fraction. Linear sweeps compute relative to A's position
//! at the start, so far-away bodies keep their precision.
//!
//! # Circle trees
//! A [`Shape::Tree`] goes to [`toi_tree_shape`] or [`toi_tree_tree`]. Linear
//! motion descends swept bounding circles (a node's first contact bounds its
//! leaves' from below; branch and bound, nearest first) into the closed
//! forms here, so it is exact as they are; rotation is
//! [`conservative_advancement`] driven by the tree-aware closest points, with
//! the same tolerance and guarantees as above (a tree counts as non-convex).
//! Both fill [`Toi::part_a`] / [`Toi::part_b`] with the touching leaves'
//! parts; overlapping at the start reports the contact manifold's normal and
//! deepest point. Every other kind reports `None` parts.

mod conservative_advancement;
mod swept;
mod toi_capsule_capsule;
mod toi_capsule_polygon;
mod toi_circle_capsule;
mod toi_circle_circle;
mod toi_circle_polygon;
mod toi_polygon_polygon;
mod toi_tree_shape;
mod toi_tree_tree;
mod tree_advancement;
mod types;

pub use conservative_advancement::{
    ADVANCEMENT_COORDINATE_ULPS, ADVANCEMENT_RELATIVE_TOLERANCE, MAX_ADVANCEMENT_ITERATIONS,
    SweptBody, advancement_tolerance, conservative_advancement,
};
pub use toi_capsule_capsule::toi_capsule_capsule;
pub use toi_capsule_polygon::toi_capsule_polygon;
pub use toi_circle_capsule::toi_circle_capsule;
pub use toi_circle_circle::toi_circle_circle;
pub use toi_circle_polygon::toi_circle_polygon;
pub use toi_polygon_polygon::toi_polygon_polygon;
pub use toi_tree_shape::toi_tree_shape;
pub use toi_tree_tree::toi_tree_tree;
pub use types::{MAX_ANGULAR_MOTION, MAX_LINEAR_MOTION, Motion, Toi, ToiError, ToiStatus};

use crate::math::{Pose, Vec2};
use crate::shape::Shape;
use swept::{Convex, CoreClass, Swept};

/// First contact of shape A (at `pose_a`, moving by `motion_a`) and shape B
/// within one step; `Ok(None)` if they stay apart. See the module docs for
/// the methods, the tolerance and the frame.
///
/// # Errors
/// [`ToiError::InvalidPose`], [`ToiError::NonFiniteMotion`],
/// [`ToiError::MotionOutOfRange`], [`ToiError::UnsupportedShape`] for an
/// infinite [`crate::shape::Line`], [`ToiError::Overflow`] if the
/// computation left the f32 range.
///
/// # Examples
/// ```
/// use circlet::math::{Pose, vec2};
/// use circlet::shape::{Circle, ConvexPolygon, Shape};
/// use circlet::query::time_of_impact::{Motion, ToiStatus, time_of_impact};
/// let ball = Shape::from(Circle::new(vec2(0.0, 0.0), 0.1).unwrap());
/// let wall = Shape::from(ConvexPolygon::rectangle(vec2(0.0, -1.0), vec2(0.01, 1.0)).unwrap());
/// let dt = 1.0 / 60.0;
/// let toi = time_of_impact(
///     &ball, &Pose::from_translation(vec2(-100.0, 0.0)), &Motion::from_velocity(vec2(10_000.0, 0.0), 0.0, dt),
///     &wall, &Pose::IDENTITY, &Motion::ZERO,
/// ).unwrap().expect("no tunnelling");
/// assert_eq!(toi.status, ToiStatus::Touching);
/// assert!((toi.fraction - 99.9 / (10_000.0 * dt)).abs() < 1e-5);
/// assert!((toi.normal - vec2(1.0, 0.0)).norm() < 1e-6);
/// ```
pub fn time_of_impact(
    a: &Shape,
    pose_a: &Pose,
    motion_a: &Motion,
    b: &Shape,
    pose_b: &Pose,
    motion_b: &Motion,
) -> Result<Option<Toi>, ToiError> {
    pose_a
        .validate()
        .map_err(|source| ToiError::InvalidPose { which: "a", source })?;
    pose_b
        .validate()
        .map_err(|source| ToiError::InvalidPose { which: "b", source })?;
    motion_a.validate("a")?;
    motion_b.validate("b")?;
    for (shape, which) in [(a, "a"), (b, "b")] {
        if let Shape::Line(_) = shape {
            return Err(ToiError::UnsupportedShape {
                which,
                kind: shape.kind(),
            });
        }
    }
    let toi = match (a, b) {
        (Shape::Tree(tree), _) => toi_tree_shape(tree, pose_a, motion_a, b, pose_b, motion_b)?,
        (_, Shape::Tree(tree)) => {
            toi_tree_shape(tree, pose_b, motion_b, a, pose_a, motion_a)?.map(Toi::flipped)
        }
        _ => toi_shapes(a, pose_a, motion_a, b, pose_b, motion_b)?,
    };
    match toi {
        Some(toi) if !toi.is_finite() => Err(ToiError::Overflow),
        toi => Ok(toi),
    }
}

/// [`time_of_impact`] for two shapes that are not circle trees (validated input).
fn toi_shapes(
    a: &Shape,
    pose_a: &Pose,
    motion_a: &Motion,
    b: &Shape,
    pose_b: &Pose,
    motion_b: &Motion,
) -> Result<Option<Toi>, ToiError> {
    let origin = pose_a.translation;
    let swept_a = Swept::new(a, pose_a, origin, "a")?;
    let swept_b = Swept::new(b, pose_b, origin, "b")?;
    let toi = if motion_a.angular == 0.0 && motion_b.angular == 0.0 {
        toi_linear(&swept_a, motion_a.linear, &swept_b, motion_b.linear)
            .map(|toi| toi.translated(origin))
    } else {
        let body_a = SweptBody::from_shape(a, *pose_a, *motion_a);
        let body_b = SweptBody::from_shape(b, *pose_b, *motion_b);
        let toi = conservative_advancement(&body_a, &body_b, |pa, pb| {
            crate::query::closest_points(a, pa, b, pb)
        })?;
        match toi {
            Some(toi) if toi.status == ToiStatus::OverlappingAtStart => {
                // The least-penetration normal of the static shapes.
                let normal_and_point = toi_linear(&swept_a, Vec2::zeros(), &swept_b, Vec2::zeros())
                    .map(|stat| (stat.normal, stat.point + origin));
                let (normal, point) = normal_and_point.unwrap_or((toi.normal, toi.point));
                Some(Toi {
                    normal,
                    point,
                    ..toi
                })
            }
            other => other,
        }
    };
    Ok(toi)
}

/// Linear time of impact over every pair of convex parts: the earliest
/// contact, or the first pair found overlapping at the start.
fn toi_linear(a: &Swept, motion_a: Vec2, b: &Swept, motion_b: Vec2) -> Option<Toi> {
    let mut best: Option<Toi> = None;
    for part_a in a.parts() {
        for part_b in b.parts() {
            if let Some(toi) = toi_convex(part_a, motion_a, part_b, motion_b) {
                if toi.status == ToiStatus::OverlappingAtStart {
                    return Some(toi);
                }
                if best.is_none_or(|b| toi.fraction < b.fraction) {
                    best = Some(toi);
                }
            }
        }
    }
    best
}

/// The single dispatch over convex pairs; pairs written in one order only.
fn toi_convex(a: &Convex, motion_a: Vec2, b: &Convex, motion_b: Vec2) -> Option<Toi> {
    use CoreClass::{Capsule, Polygon, Round};
    match (a.class(), b.class()) {
        (Round, Round) => toi_circle_circle(
            a.center(),
            a.radius,
            motion_a,
            b.center(),
            b.radius,
            motion_b,
        ),
        (Round, Capsule) => toi_circle_capsule(
            a.center(),
            a.radius,
            motion_a,
            b.segment(),
            b.radius,
            motion_b,
        ),
        (Round, Polygon) => toi_circle_polygon(a.center(), a.radius, motion_a, &b.core, motion_b),
        (Capsule, Capsule) => toi_capsule_capsule(
            a.segment(),
            a.radius,
            motion_a,
            b.segment(),
            b.radius,
            motion_b,
        ),
        (Capsule, Polygon) => {
            toi_capsule_polygon(a.segment(), a.radius, motion_a, &b.core, motion_b)
        }
        (Polygon, Polygon) => toi_polygon_polygon(&a.core, motion_a, &b.core, motion_b),
        (Capsule, Round) | (Polygon, Round) | (Polygon, Capsule) => {
            toi_convex(b, motion_b, a, motion_a).map(Toi::flipped)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Real, vec2};
    use crate::shape::{
        Aabb, Capsule, Circle, CircleTree, ConvexPolygon, Line, Point, Segment, SimplePolygon,
    };

    fn at(x: Real, y: Real) -> Pose {
        Pose::from_translation(vec2(x, y))
    }

    fn kinds() -> Vec<Shape> {
        vec![
            Point::new(vec2(0.0, 0.0)).unwrap().into(),
            Circle::new(vec2(0.0, 0.0), 0.5).unwrap().into(),
            Segment::new(vec2(0.0, -0.5), vec2(0.0, 0.5))
                .unwrap()
                .into(),
            Capsule::new(vec2(0.0, -0.3), vec2(0.0, 0.3), 0.2)
                .unwrap()
                .into(),
            Aabb::new(vec2(-0.5, -0.5), vec2(0.5, 0.5)).unwrap().into(),
            ConvexPolygon::regular(6, 0.5, 0.3).unwrap().into(),
            SimplePolygon::new(&[
                vec2(-0.5, -0.5),
                vec2(0.5, -0.5),
                vec2(0.5, 0.5),
                vec2(0.0, 0.0),
                vec2(-0.5, 0.5),
            ])
            .unwrap()
            .into(),
            CircleTree::from_leaves(
                &[
                    Circle::new(vec2(0.0, 0.2), 0.3).unwrap(),
                    Circle::new(vec2(0.0, -0.2), 0.3).unwrap(),
                ],
                2,
            )
            .unwrap()
            .into(),
        ]
    }

    #[test]
    fn every_pair_both_ways_is_symmetric() {
        for a in &kinds() {
            for b in &kinds() {
                let forward = time_of_impact(
                    a,
                    &at(-5.0, 0.1),
                    &Motion::linear(vec2(12.0, 0.0)),
                    b,
                    &at(5.0, 0.0),
                    &Motion::ZERO,
                );
                let backward = time_of_impact(
                    b,
                    &at(5.0, 0.0),
                    &Motion::ZERO,
                    a,
                    &at(-5.0, 0.1),
                    &Motion::linear(vec2(12.0, 0.0)),
                );
                let (forward, backward) = (forward.unwrap(), backward.unwrap());
                let point_pair = matches!(a, Shape::Point(_) | Shape::Segment(_))
                    && matches!(b, Shape::Point(_) | Shape::Segment(_));
                if point_pair {
                    continue; // zero-area pairs at an offset never meet
                }
                let (f, g) = (forward.unwrap(), backward.unwrap());
                assert!(
                    (f.fraction - g.fraction).abs() < 1e-5,
                    "{:?} {:?}",
                    a.kind(),
                    b.kind()
                );
                assert!(
                    (f.normal + g.normal).norm() < 1e-4,
                    "{:?} {:?}",
                    a.kind(),
                    b.kind()
                );
                assert!(f.fraction > 0.3 && f.fraction < 0.9);
                assert!(
                    f.normal.x > 0.5,
                    "{:?} {:?} {:?}",
                    a.kind(),
                    b.kind(),
                    f.normal
                );
            }
        }
    }

    #[test]
    fn zero_motion_is_miss_or_overlap() {
        for a in &kinds() {
            for b in &kinds() {
                let apart = time_of_impact(
                    a,
                    &at(0.0, 0.0),
                    &Motion::ZERO,
                    b,
                    &at(3.0, 0.0),
                    &Motion::ZERO,
                );
                assert_eq!(apart.unwrap(), None);
                let same = time_of_impact(
                    a,
                    &at(0.0, 0.0),
                    &Motion::ZERO,
                    b,
                    &at(0.1, 0.0),
                    &Motion::ZERO,
                );
                if a.is_solid() || b.is_solid() {
                    let toi = same.unwrap().unwrap();
                    assert_eq!(
                        toi.status,
                        ToiStatus::OverlappingAtStart,
                        "{:?} {:?}",
                        a.kind(),
                        b.kind()
                    );
                    assert_eq!(toi.fraction, 0.0);
                    assert!((toi.normal.norm() - 1.0).abs() < 1e-5);
                }
            }
        }
    }

    #[test]
    fn errors_name_the_shape_and_field() {
        let ball = Shape::from(Circle::new(vec2(0.0, 0.0), 1.0).unwrap());
        let nan = Motion::linear(vec2(Real::NAN, 0.0));
        assert_eq!(
            time_of_impact(
                &ball,
                &Pose::IDENTITY,
                &Motion::ZERO,
                &ball,
                &at(3.0, 0.0),
                &nan
            ),
            Err(ToiError::NonFiniteMotion {
                which: "b",
                field: "linear"
            })
        );
        let line = Shape::from(Line::new(vec2(0.0, 0.0), vec2(1.0, 0.0)).unwrap());
        assert!(matches!(
            time_of_impact(
                &line,
                &Pose::IDENTITY,
                &Motion::ZERO,
                &ball,
                &at(3.0, 0.0),
                &Motion::ZERO
            ),
            Err(ToiError::UnsupportedShape { which: "a", .. })
        ));
        assert!(matches!(
            time_of_impact(
                &ball,
                &Pose::IDENTITY.with_scale(-1.0),
                &Motion::ZERO,
                &ball,
                &at(3.0, 0.0),
                &Motion::ZERO
            ),
            Err(ToiError::InvalidPose { which: "a", .. })
        ));
    }
}
