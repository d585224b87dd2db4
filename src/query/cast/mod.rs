//! Ray and thick-segment casts ("shots") against every shape kind.
//!
//! A [`Shot`] is a circle of radius `r` swept in a straight line from `start`
//! to `end` over one step: a bullet of thickness `2r`; `r = 0` is a ray. Its
//! trace is a capsule, hence the file names `cast_capsule_<target>.rs`.
//! [`cast`] returns the first hit, [`cast_all`] every entry of a piercing shot.
//!
//! # Guarantees
//! - **No miss.** Every test is exact, none samples: circles are a quadratic,
//!   capsules two offset sides and two end circles, convex polygons a ray
//!   against the polygon inflated by `r` (edges offset by `r`, arcs of radius
//!   `r` at the vertices), simple polygons the earliest of their convex
//!   pieces. Where rounding could lose a hit between an edge and its
//!   neighbour, the edge's ends are widened by a few ulps of the coordinates,
//!   so a shot through a corner always reports it: the tests err towards a hit.
//! - **Touching counts**: a shot whose circle only grazes the target hits it.
//! - **Starting inside**: a shot that overlaps or touches the target at the
//!   start of its range reports that fraction with
//!   [`CastHit::started_inside`] set and a defined unit normal: from the
//!   target towards the shot's centre when the centre is outside the target,
//!   otherwise out through the nearest surface (least penetration). Never NaN.
//! - **Tolerance**: the fraction is exact up to f32 rounding, a few ulps of
//!   the shot's coordinates in the target's frame divided by the shot's length.
//! - A zero-length shot is valid: a hit at its start if it starts inside,
//!   otherwise none.
//! - The pair functions (`cast_capsule_<target>`) expect a valid pose, which
//!   [`cast`] validates; like every function here they never panic.
//!
//! # Frame
//! The shot is in world coordinates (metres); the target is a shape in its
//! local frame plus a [`Pose`]. Fractions are of the whole sweep, in `[0, 1]`;
//! points and normals are world. Internally each cast maps the shot into the
//! target's frame, which never transforms the target's vertices and keeps the
//! precision of the shape's own coordinates.
//!
//! # Circle trees
//! A [`Shape::Tree`] target goes to [`cast_capsule_tree`]: a pruned,
//! branch-and-bound descent that enters a node only if the shot reaches its
//! circle before the best hit so far, with [`cast_capsule_circle`]'s
//! quadratic at the leaves (so the same guarantees hold). Its hits fill
//! [`CastHit::part`] with the leaf's part; every other kind reports
//! `part: None`. [`cast_all`] lists a tree once, at its first leaf.

mod cast_capsule_capsule;
mod cast_capsule_circle;
mod cast_capsule_line;
mod cast_capsule_polygon;
mod cast_capsule_simple_polygon;
mod cast_capsule_tree;
pub(crate) mod local;
mod shot;

pub use cast_capsule_capsule::cast_capsule_capsule;
pub use cast_capsule_circle::cast_capsule_circle;
pub use cast_capsule_line::cast_capsule_line;
pub use cast_capsule_polygon::cast_capsule_polygon;
pub use cast_capsule_simple_polygon::cast_capsule_simple_polygon;
pub use cast_capsule_tree::{cast_capsule_tree, cast_capsule_tree_with_stats};
pub use shot::{CastError, CastHit, MAX_SHOT_COORDINATE, Shot, TargetHit};

use crate::math::{Pose, is_finite_vec};
use crate::shape::Shape;
use local::{LocalShot, with_local_polygon};

/// The first hit of `shot` on `target` placed at `pose`, or `None` if the shot
/// misses within its range. Results are world; see the module docs for what
/// is guaranteed.
///
/// # Errors
/// [`CastError::InvalidPose`] if the pose fails [`Pose::validate`];
/// [`CastError::Overflow`] if the target is so large or far out that the
/// computation left the f32 range.
///
/// # Examples
/// ```
/// use circlet::math::{Pose, vec2};
/// use circlet::shape::{Aabb, Shape};
/// use circlet::query::cast::{Shot, cast};
/// // A 0.01 m wall and a bullet covering 10,000 m/s over a 1/60 s step.
/// let wall = Shape::from(Aabb::new(vec2(50.0, -1.0), vec2(50.01, 1.0)).unwrap());
/// let bullet = Shot::ray(vec2(0.0, 0.0), vec2(10_000.0 / 60.0, 0.0)).unwrap();
/// let hit = cast(&bullet, &wall, &Pose::IDENTITY).unwrap().expect("no tunnelling");
/// assert!((bullet.point_at(hit.fraction).x - 50.0).abs() < 1e-3);
/// assert_eq!(hit.normal, vec2(-1.0, 0.0));
/// ```
pub fn cast(shot: &Shot, target: &Shape, pose: &Pose) -> Result<Option<CastHit>, CastError> {
    cast_checked(shot, target, pose, 0)
}

/// Every target a piercing `shot` enters within its range, sorted by fraction
/// (ties by target order): one entry per target (a circle tree's at its
/// first leaf, with the part), or one per convex piece entered for a
/// [`crate::shape::SimplePolygon`] (a piece entered from its neighbour
/// reports the shared diagonal as surface). Each entry is where the
/// shot's circle first touches that target or piece (world).
///
/// # Errors
/// As [`cast`], with the index of the offending target.
///
/// # Examples
/// ```
/// use circlet::math::{Pose, vec2};
/// use circlet::shape::{Circle, Shape};
/// use circlet::query::cast::{Shot, cast_all};
/// let ball = Shape::from(Circle::new(vec2(0.0, 0.0), 1.0).unwrap());
/// let (near, far) = (Pose::from_translation(vec2(3.0, 0.0)), Pose::from_translation(vec2(6.0, 0.0)));
/// let shot = Shot::ray(vec2(0.0, 0.0), vec2(10.0, 0.0)).unwrap();
/// let hits = cast_all(&shot, [(&ball, &far), (&ball, &near)]).unwrap();
/// assert_eq!(hits.iter().map(|h| h.target).collect::<Vec<_>>(), [1, 0]);
/// ```
pub fn cast_all<'a>(
    shot: &Shot,
    targets: impl IntoIterator<Item = (&'a Shape, &'a Pose)>,
) -> Result<Vec<TargetHit>, CastError> {
    let mut hits = Vec::new();
    for (index, (target, pose)) in targets.into_iter().enumerate() {
        if let Shape::SimplePolygon(polygon) = target {
            pose.validate()
                .map_err(|source| CastError::InvalidPose { index, source })?;
            let mut overflow = false;
            cast_capsule_simple_polygon::cast_capsule_simple_polygon_pieces(
                shot,
                polygon,
                pose,
                |piece, hit| {
                    overflow |= !hit_is_finite(&hit);
                    hits.push(TargetHit {
                        target: index,
                        piece: Some(piece),
                        hit,
                    });
                },
            );
            if overflow {
                return Err(CastError::Overflow { index });
            }
        } else if let Some(hit) = cast_checked(shot, target, pose, index)? {
            hits.push(TargetHit {
                target: index,
                piece: None,
                hit,
            });
        }
    }
    // Stable: equal fractions keep target (then piece) order.
    hits.sort_by(|a, b| a.hit.fraction.total_cmp(&b.hit.fraction));
    Ok(hits)
}

fn cast_checked(
    shot: &Shot,
    target: &Shape,
    pose: &Pose,
    index: usize,
) -> Result<Option<CastHit>, CastError> {
    pose.validate()
        .map_err(|source| CastError::InvalidPose { index, source })?;
    finite_or_overflow(cast_unchecked(shot, target, pose), index)
}

/// [`cast`] for a circle target: the same checks and the same arithmetic
/// (so the same hit, bit for bit) without the dispatch over shape kinds.
pub(crate) fn cast_circle(
    shot: &Shot,
    circle: &crate::shape::Circle,
    pose: &Pose,
) -> Result<Option<CastHit>, CastError> {
    pose.validate()
        .map_err(|source| CastError::InvalidPose { index: 0, source })?;
    finite_or_overflow(cast_capsule_circle(shot, circle, pose), 0)
}

/// [`cast_circle`] for a pose already known to pass [`Pose::validate`]
/// (checked once for many casts): the same hit, or the same error.
pub(crate) fn cast_circle_valid_pose(
    shot: &Shot,
    circle: &crate::shape::Circle,
    pose: &Pose,
) -> Result<Option<CastHit>, CastError> {
    finite_or_overflow(cast_capsule_circle(shot, circle, pose), 0)
}

#[inline]
fn finite_or_overflow(hit: Option<CastHit>, index: usize) -> Result<Option<CastHit>, CastError> {
    match hit {
        Some(hit) if !hit_is_finite(&hit) => Err(CastError::Overflow { index }),
        hit => Ok(hit),
    }
}

fn hit_is_finite(hit: &CastHit) -> bool {
    hit.fraction.is_finite() && is_finite_vec(hit.point) && is_finite_vec(hit.normal)
}

/// The single dispatch over target kinds.
fn cast_unchecked(shot: &Shot, target: &Shape, pose: &Pose) -> Option<CastHit> {
    let local = || LocalShot::new(shot, pose);
    match target {
        Shape::Circle(circle) => cast_capsule_circle(shot, circle, pose),
        Shape::Point(point) => {
            cast_capsule_circle::cast_circle_local(&local(), point.position(), 0.0)
                .map(|h| h.to_world(shot, pose))
        }
        Shape::Capsule(capsule) => cast_capsule_capsule(shot, capsule, pose),
        Shape::Segment(segment) => {
            cast_capsule_capsule::cast_segment_local(&local(), segment.a(), segment.b(), 0.0)
                .map(|h| h.to_world(shot, pose))
        }
        Shape::Line(line) => cast_capsule_line(shot, line, pose),
        Shape::SimplePolygon(polygon) => cast_capsule_simple_polygon(shot, polygon, pose),
        Shape::Tree(tree) => cast_capsule_tree(shot, tree, pose),
        Shape::Aabb(_)
        | Shape::OrientedRect(_)
        | Shape::ConvexPolygon(_)
        | Shape::TileTriangle(_) => with_local_polygon(target, |vertices, normals| {
            cast_capsule_polygon(shot, vertices, normals, pose)
        })
        .flatten(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;
    use crate::shape::{Aabb, Circle, Corner, OrientedRect, Point, Segment, TileTriangle};

    #[test]
    fn every_kind_is_hit_head_on() {
        let targets: Vec<Shape> = vec![
            Circle::new(vec2(0.0, 0.0), 1.0).unwrap().into(),
            Point::new(vec2(0.0, 0.0)).unwrap().into(),
            Segment::new(vec2(0.0, -1.0), vec2(0.0, 1.0))
                .unwrap()
                .into(),
            Aabb::new(vec2(-1.0, -1.0), vec2(1.0, 1.0)).unwrap().into(),
            OrientedRect::new(vec2(0.0, 0.0), vec2(1.0, 1.0), 0.0)
                .unwrap()
                .into(),
            TileTriangle::new(vec2(-1.0, -1.0), vec2(1.0, 1.0), Corner::UpperRight)
                .unwrap()
                .into(),
        ];
        let pose = Pose::new(vec2(10.0, 5.0), 0.0).with_scale(2.0);
        let shot = Shot::ray(vec2(0.0, 5.0), vec2(20.0, 5.0)).unwrap();
        for target in &targets {
            let hit = cast(&shot, target, &pose)
                .unwrap()
                .unwrap_or_else(|| panic!("{:?}", target.kind()));
            assert!(
                hit.fraction > 0.35 && hit.fraction <= 0.5,
                "{:?}: {}",
                target.kind(),
                hit.fraction
            );
            assert!((hit.normal.norm() - 1.0).abs() < 1e-5);
            assert!(hit.normal.x < 0.0);
            assert_eq!(hit.part, None);
        }
    }

    #[test]
    fn range_limits_and_rebases_fractions() {
        let ball = Shape::from(Circle::new(vec2(5.0, 0.0), 1.0).unwrap());
        let shot = Shot::ray(vec2(0.0, 0.0), vec2(10.0, 0.0)).unwrap();
        let whole = cast(&shot, &ball, &Pose::IDENTITY).unwrap().unwrap();
        let ranged = cast(&shot.with_range(0.2, 0.6).unwrap(), &ball, &Pose::IDENTITY)
            .unwrap()
            .unwrap();
        assert!((whole.fraction - ranged.fraction).abs() < 1e-6);
        assert!(
            cast(&shot.with_range(0.0, 0.3).unwrap(), &ball, &Pose::IDENTITY)
                .unwrap()
                .is_none()
        );
        let inside = cast(&shot.with_range(0.5, 1.0).unwrap(), &ball, &Pose::IDENTITY)
            .unwrap()
            .unwrap();
        assert!(inside.started_inside && inside.fraction == 0.5);
    }

    #[test]
    fn invalid_pose_is_an_error() {
        let ball = Shape::from(Circle::new(vec2(0.0, 0.0), 1.0).unwrap());
        let shot = Shot::ray(vec2(0.0, 0.0), vec2(1.0, 0.0)).unwrap();
        let bad = Pose::IDENTITY.with_scale(0.0);
        assert!(matches!(
            cast(&shot, &ball, &bad),
            Err(CastError::InvalidPose { index: 0, .. })
        ));
        let nan = Pose::from_translation(vec2(f32::NAN, 0.0));
        let result = cast_all(&shot, [(&ball, &Pose::IDENTITY), (&ball, &nan)]);
        assert!(matches!(
            result,
            Err(CastError::InvalidPose { index: 1, .. })
        ));
    }

    #[test]
    fn overflow_is_an_error_not_a_nan() {
        let ball = Shape::from(Circle::new(vec2(0.0, 0.0), 1.0).unwrap());
        let shot = Shot::ray(vec2(-1.0e9, 0.0), vec2(1.0e9, 0.0)).unwrap();
        let tiny = Pose::IDENTITY.with_scale(1.0e-35);
        match cast(&shot, &ball, &tiny) {
            Ok(Some(hit)) => assert!(hit_is_finite(&hit)),
            Ok(None) | Err(CastError::Overflow { .. }) => {}
            Err(other) => panic!("{other}"),
        }
    }
}
