//! Time of impact with rotation: conservative advancement (Mirtich).
//!
//! At the current time the closest points give the distance `d` and the unit
//! direction `n` from A to B. Over the rest of the step no point of a body
//! moves faster than its linear speed plus `|ω| R`, `R` the body's bounding
//! radius about its origin (the rotation centre). For convex shapes the slab
//! of width `d` between them, normal to `n`, stays free until their supports
//! along `n` meet, and those approach each other at most at
//!
//! ```text
//! bound = max(0, -n · (v_b - v_a)) + |ω_a| R_a + |ω_b| R_b
//! ```
//!
//! (the relative normal speed, counted only when closing, plus the fastest
//! any point can swing). For non-convex shapes the full relative speed
//! `|v_b - v_a|` replaces the normal part. So the shapes cannot touch before
//! `(d - target) / bound` has passed; advancing by exactly that can never
//! step past the first contact. Repeat until `d <= tolerance`.
//!
//! The advance uses `d - target` with `target = tolerance / 2` rather than
//! `d`, so the iterate never lands on the contact itself, where the distance
//! query could only answer "intersecting".
//!
//! In f32 the closest points are known only to a few ulps `u` of their
//! coordinates, so near contact the direction `n` between them is off by an
//! angle up to `asin(2u / d)`: at 40 m from the origin and `d = 6e-4` m that
//! is 0.6°, and a body moving 40 m/step mostly sideways then closes 0.3
//! m/step faster than `n` says. The bound adds that uncertainty,
//! `|v_b - v_a| · min(1, e / d)` with `e` the stopping distance's
//! coordinate floor (eight ulps of the largest coordinate, four per point),
//! so the advance stays conservative for the true direction.
//!
//! If rounding still brings an iterate into contact (the distance query says
//! "intersecting" after a safe start), the contact lies between the last
//! safe time and this one: bisection on that bracket finds a time within
//! the tolerance, so the reported point and normal are always those of real
//! closest points.

use super::tree_advancement::tree_length_scale;
use super::types::{Motion, Toi, ToiError, ToiStatus};
use crate::math::{Pose, Real, Vec2, is_finite_vec};
use crate::query::ClosestPoints;
use crate::query::cast::local::{normalize_or, with_local_polygon};
use crate::shape::Shape;

/// Conservative advancement stops when the shapes are closer than this
/// fraction of the smaller shape's length scale (a relative tolerance, so it
/// means the same for a 0.1 m and a 10 m body).
pub const ADVANCEMENT_RELATIVE_TOLERANCE: Real = 1.0e-4;

/// Floor of the stopping distance in ulps of the coordinates involved: f32
/// distances between points of magnitude `m` are only known to a few
/// `f32::EPSILON * m`, so a smaller target could never be confirmed.
pub const ADVANCEMENT_COORDINATE_ULPS: Real = 8.0;

/// Iteration cap of conservative advancement. Each step closes a fixed share
/// of the remaining gap unless the motion is mostly tangential or rotational,
/// where the bound is loose; when the cap is hit the answer is
/// [`ToiStatus::IterationLimit`] at the last safe time, never a miss.
pub const MAX_ADVANCEMENT_ITERATIONS: u32 = 64;

/// A body swept by conservative advancement: where it starts, how it moves,
/// and the two lengths the bound and the tolerance need.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SweptBody {
    /// Pose at the start of the step.
    pub pose: Pose,
    /// Motion over the step (per step).
    pub motion: Motion,
    /// World radius about the body origin that contains the whole shape
    /// (metres): no point is farther from `pose.translation`.
    pub bounding_radius: Real,
    /// World size of the shape (metres), e.g. its radius about its own centre;
    /// sets the stopping tolerance.
    pub length_scale: Real,
    /// True if the shape is convex (then the closing speed along the closest
    /// direction bounds the approach; otherwise the full relative speed does).
    pub convex: bool,
}

impl SweptBody {
    /// The swept body of `shape` at `pose` moving by `motion`: bounding radius
    /// about the body origin and length scale (radius about the middle of
    /// its vertices, or of a circle tree's leaf centres) in world metres;
    /// simple polygons and circle trees are not convex. A
    /// [`crate::shape::Line`] gets an infinite bounding radius, which
    /// [`conservative_advancement`] rejects.
    pub fn from_shape(shape: &Shape, pose: Pose, motion: Motion) -> Self {
        SweptBody {
            pose,
            motion,
            bounding_radius: pose.scale_length(local_bounding_radius(shape)),
            length_scale: pose.scale_length(local_length_scale(shape)),
            convex: !matches!(shape, Shape::SimplePolygon(_) | Shape::Tree(_)),
        }
    }

    fn validate(&self, which: &'static str) -> Result<(), ToiError> {
        self.pose
            .validate()
            .map_err(|source| ToiError::InvalidPose { which, source })?;
        self.motion.validate(which)?;
        let finite_non_negative = |x: Real| x.is_finite() && x >= 0.0;
        if !finite_non_negative(self.bounding_radius) || !finite_non_negative(self.length_scale) {
            return Err(ToiError::InvalidBody { which });
        }
        Ok(())
    }

    fn magnitude(&self) -> Real {
        self.pose.translation.abs().max() + self.bounding_radius + self.motion.linear.abs().max()
    }
}

/// The stopping distance for two bodies (metres, > 0):
/// [`ADVANCEMENT_RELATIVE_TOLERANCE`] of the smaller length scale, but never
/// below [`ADVANCEMENT_COORDINATE_ULPS`] ulps of the coordinates.
pub fn advancement_tolerance(a: &SweptBody, b: &SweptBody) -> Real {
    let scales = [a.length_scale, b.length_scale];
    let smaller = scales
        .into_iter()
        .filter(|s| *s > 0.0)
        .fold(Real::INFINITY, Real::min);
    let relative = if smaller.is_finite() {
        ADVANCEMENT_RELATIVE_TOLERANCE * smaller
    } else {
        0.0
    };
    relative.max(coordinate_floor(a, b)).max(Real::MIN_POSITIVE)
}

/// First time in the step at which two moving bodies come within
/// [`advancement_tolerance`] of each other, by conservative advancement with
/// any closest-points function.
///
/// `closest_points(pose_a, pose_b)` must return the exact closest points of
/// the two shapes at those poses (world), or `None` when they intersect.
/// [`super::time_of_impact`] passes [`crate::query::closest_points`], and for
/// circle trees the tree-aware closest points
/// ([`crate::query::tree::closest_points_tree_shape`]), filling in the parts
/// afterwards; any other exact closest-points function works too.
///
/// Guarantees (given exact closest points): the shapes are apart at every
/// time before the returned fraction; a returned [`ToiStatus::Touching`] has
/// `separation <= tolerance`; `None` means they stay apart for the whole
/// step. [`ToiStatus::OverlappingAtStart`] carries the direction between the
/// body origins as normal (the dispatch replaces it by the least-penetration
/// normal).
///
/// # Errors
/// [`ToiError::InvalidPose`], [`ToiError::NonFiniteMotion`],
/// [`ToiError::MotionOutOfRange`], [`ToiError::InvalidBody`], or
/// [`ToiError::Overflow`] if the distances are not finite.
pub fn conservative_advancement(
    a: &SweptBody,
    b: &SweptBody,
    mut closest_points: impl FnMut(&Pose, &Pose) -> Option<ClosestPoints>,
) -> Result<Option<Toi>, ToiError> {
    a.validate("a")?;
    b.validate("b")?;
    let tolerance = advancement_tolerance(a, b);
    let target = 0.5 * tolerance;
    let relative_motion = b.motion.linear - a.motion.linear;
    let relative_speed = relative_motion.norm();
    let swing =
        a.motion.angular.abs() * a.bounding_radius + b.motion.angular.abs() * b.bounding_radius;
    let convex = a.convex && b.convex;
    // How far the closest points may be off (both together), in metres.
    let point_error = coordinate_floor(a, b);
    let origins = b.pose.translation - a.pose.translation;
    let mut normal = normalize_or(origins, normalize_or(-relative_motion, Vec2::new(0.0, 1.0)));
    let mut fraction: Real = 0.0;
    let mut last_safe: Option<Reading> = None;
    let mut iterations = 0;
    loop {
        let pose_a = a.motion.pose_at(&a.pose, fraction);
        let pose_b = b.motion.pose_at(&b.pose, fraction);
        let Some(closest) = closest_points(&pose_a, &pose_b) else {
            let Some(safe) = last_safe else {
                let midpoint = (pose_a.translation + pose_b.translation) * 0.5;
                return Ok(Some(Toi {
                    fraction,
                    normal,
                    point: midpoint,
                    separation: 0.0,
                    status: ToiStatus::OverlappingAtStart,
                    iterations,
                    part_a: None,
                    part_b: None,
                }));
            };
            // Only f32 rounding steps past the contact: it lies between
            // the last safe time and this one.
            let toi = bisect(
                a,
                b,
                &mut closest_points,
                tolerance,
                safe,
                fraction,
                iterations,
            )?;
            return Ok(Some(toi));
        };
        let reading = Reading::new(fraction, closest, normal)?;
        normal = reading.normal;
        let distance = closest.distance;
        if distance <= tolerance {
            return Ok(Some(reading.toi(ToiStatus::Touching, iterations)));
        }
        if iterations >= MAX_ADVANCEMENT_ITERATIONS {
            return Ok(Some(reading.toi(ToiStatus::IterationLimit, iterations)));
        }
        let closing = if convex {
            // The normal speed along `normal`, plus what the true direction
            // may add (it is off by up to `asin(point_error / distance)`).
            (-normal.dot(&relative_motion)).max(0.0)
                + relative_speed * (point_error / distance).min(1.0)
        } else {
            relative_speed
        };
        let bound = closing + swing;
        if bound <= 0.0 {
            return Ok(None); // nothing brings them closer
        }
        let step = (distance - target) / bound;
        if fraction + step >= 1.0 {
            return Ok(None); // apart until the end of the step
        }
        last_safe = Some(reading);
        fraction += step;
        iterations += 1;
    }
}

/// [`ADVANCEMENT_COORDINATE_ULPS`] ulps of the largest coordinate either
/// body reaches in the step (metres): how well an f32 distance between
/// their points is known.
fn coordinate_floor(a: &SweptBody, b: &SweptBody) -> Real {
    ADVANCEMENT_COORDINATE_ULPS * Real::EPSILON * a.magnitude().max(b.magnitude())
}

/// Bisection steps of [`bisect`]: each halves the bracket, and a bracket
/// that cannot be split further ends it sooner.
const BISECTION_STEPS: u32 = 32;

/// The closest points at one time of the advancement, checked finite, with
/// the direction between them (the previous direction where they coincide).
#[derive(Clone, Copy)]
struct Reading {
    fraction: Real,
    closest: ClosestPoints,
    normal: Vec2,
}

impl Reading {
    fn new(fraction: Real, closest: ClosestPoints, previous: Vec2) -> Result<Self, ToiError> {
        if !closest.distance.is_finite()
            || !is_finite_vec(closest.point_a)
            || !is_finite_vec(closest.point_b)
        {
            return Err(ToiError::Overflow);
        }
        Ok(Reading {
            fraction,
            closest,
            normal: normalize_or(closest.point_b - closest.point_a, previous),
        })
    }

    /// The answer at this time: the midpoint of the closest points.
    fn toi(&self, status: ToiStatus, iterations: u32) -> Toi {
        Toi {
            fraction: self.fraction,
            normal: self.normal,
            point: (self.closest.point_a + self.closest.point_b) * 0.5,
            separation: self.closest.distance,
            status,
            iterations,
            part_a: None,
            part_b: None,
        }
    }
}

/// The contact between `safe` (apart by more than the tolerance) and
/// `inside` (intersecting), found by bisection: the first midpoint within
/// `tolerance` is `Touching`. If none is found before the bracket stops
/// splitting, the answer is the latest safe time as
/// [`ToiStatus::IterationLimit`] (apart, never late).
fn bisect(
    a: &SweptBody,
    b: &SweptBody,
    closest_points: &mut impl FnMut(&Pose, &Pose) -> Option<ClosestPoints>,
    tolerance: Real,
    mut safe: Reading,
    mut inside: Real,
    mut iterations: u32,
) -> Result<Toi, ToiError> {
    for _ in 0..BISECTION_STEPS {
        let t = 0.5 * (safe.fraction + inside);
        if t <= safe.fraction || t >= inside {
            break;
        }
        iterations += 1;
        let pose_a = a.motion.pose_at(&a.pose, t);
        let pose_b = b.motion.pose_at(&b.pose, t);
        let Some(closest) = closest_points(&pose_a, &pose_b) else {
            inside = t;
            continue;
        };
        safe = Reading::new(t, closest, safe.normal)?;
        if closest.distance <= tolerance {
            return Ok(safe.toi(ToiStatus::Touching, iterations));
        }
    }
    Ok(safe.toi(ToiStatus::IterationLimit, iterations))
}

/// Radius about the local origin containing the whole shape (local units).
fn local_bounding_radius(shape: &Shape) -> Real {
    let farthest = |points: &[Vec2]| points.iter().map(|p| p.norm()).fold(0.0, Real::max);
    match shape {
        Shape::Point(point) => point.position().norm(),
        Shape::Circle(circle) => circle.center().norm() + circle.radius(),
        Shape::Segment(segment) => farthest(&[segment.a(), segment.b()]),
        Shape::Capsule(capsule) => farthest(&[capsule.a(), capsule.b()]) + capsule.radius(),
        Shape::SimplePolygon(polygon) => farthest(polygon.vertices()),
        Shape::Tree(tree) => tree.bounding_radius_about_origin(),
        Shape::Line(_) => Real::INFINITY,
        _ => with_local_polygon(shape, |vertices, _| farthest(vertices)).unwrap_or(0.0),
    }
}

/// Size of the shape: its radius about the middle of its vertices (local units).
fn local_length_scale(shape: &Shape) -> Real {
    let spread = |points: &[Vec2]| {
        let middle = points.iter().sum::<Vec2>() / points.len().max(1) as Real;
        points
            .iter()
            .map(|p| (p - middle).norm())
            .fold(0.0, Real::max)
    };
    match shape {
        Shape::Point(_) | Shape::Line(_) => 0.0,
        Shape::Circle(circle) => circle.radius(),
        Shape::Segment(segment) => spread(&[segment.a(), segment.b()]),
        Shape::Capsule(capsule) => spread(&[capsule.a(), capsule.b()]) + capsule.radius(),
        Shape::SimplePolygon(polygon) => spread(polygon.vertices()),
        Shape::Tree(tree) => tree_length_scale(tree),
        _ => with_local_polygon(shape, |vertices, _| spread(vertices)).unwrap_or(0.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;

    /// Exact closest points of two discs centred on their body origins.
    fn discs(radius_a: Real, radius_b: Real) -> impl FnMut(&Pose, &Pose) -> Option<ClosestPoints> {
        move |pa: &Pose, pb: &Pose| {
            let offset = pb.translation - pa.translation;
            let distance = offset.norm() - radius_a - radius_b;
            (distance > 0.0).then(|| {
                let n = offset / offset.norm();
                ClosestPoints {
                    distance,
                    point_a: pa.translation + n * radius_a,
                    point_b: pb.translation - n * radius_b,
                }
            })
        }
    }

    fn body(x: Real, linear: Vec2, angular: Real, radius: Real) -> SweptBody {
        SweptBody {
            pose: Pose::from_translation(vec2(x, 0.0)),
            motion: Motion::new(linear, angular),
            bounding_radius: radius,
            length_scale: radius,
            convex: true,
        }
    }

    #[test]
    fn converges_before_contact_within_tolerance() {
        // Spinning discs (rotation changes nothing, but loosens the bound).
        let a = body(0.0, vec2(8.0, 0.0), 3.0, 1.0);
        let b = body(10.0, vec2(0.0, 0.0), -2.0, 1.0);
        let toi = conservative_advancement(&a, &b, discs(1.0, 1.0))
            .unwrap()
            .unwrap();
        assert_eq!(toi.status, ToiStatus::Touching);
        let tolerance = advancement_tolerance(&a, &b);
        assert!(toi.fraction <= 1.0 && toi.fraction > 1.0 - tolerance / 8.0 - 1e-6);
        assert!(toi.separation <= tolerance && toi.separation > 0.0);
        assert!(toi.iterations > 1);
        assert!((toi.normal - vec2(1.0, 0.0)).norm() < 1e-6);
    }

    #[test]
    fn miss_overlap_and_cap() {
        let a = body(0.0, vec2(7.0, 0.0), 0.0, 1.0);
        let b = body(10.0, vec2(0.0, 0.0), 0.0, 1.0);
        assert_eq!(
            conservative_advancement(&a, &b, discs(1.0, 1.0)).unwrap(),
            None
        );
        let overlapping = body(1.5, vec2(0.0, 0.0), 0.0, 1.0);
        let toi = conservative_advancement(&a, &overlapping, discs(1.0, 1.0))
            .unwrap()
            .unwrap();
        assert_eq!(toi.status, ToiStatus::OverlappingAtStart);
        // A huge bounding radius with spin makes every step tiny: the cap
        // answers with a safe time, not a miss.
        let mut spinning = body(0.0, vec2(8.0, 0.0), 1.0, 1.0);
        spinning.bounding_radius = 1.0e6;
        let toi = conservative_advancement(&spinning, &b, discs(1.0, 1.0))
            .unwrap()
            .unwrap();
        assert_eq!(toi.status, ToiStatus::IterationLimit);
        assert_eq!(toi.iterations, MAX_ADVANCEMENT_ITERATIONS);
        assert!(toi.fraction < 1.0 && toi.separation > 0.0);
    }

    /// A distance query that rounds: it answers "intersecting" once the
    /// discs are closer than `blind`. The advancement lands on such a time
    /// (its target is half the tolerance), and the bisection between the
    /// last safe time and it must still report real closest points within
    /// the tolerance, never the midpoint of the origins.
    #[test]
    fn a_step_into_contact_is_bisected_back_to_a_touch() {
        let a = body(0.0, vec2(8.0, 0.0), 0.0, 1.0);
        let b = body(10.0, vec2(0.0, 0.0), 0.0, 1.0);
        let tolerance = advancement_tolerance(&a, &b);
        let blind = 0.9 * tolerance;
        let mut exact = discs(1.0, 1.0);
        let mut calls = Vec::new();
        let toi = conservative_advancement(&a, &b, |pa, pb| {
            let closest = exact(pa, pb).filter(|c| c.distance >= blind);
            calls.push(closest.is_some());
            closest
        })
        .unwrap()
        .unwrap();
        assert!(
            calls.contains(&false),
            "the rounding query never answered \"intersecting\""
        );
        assert_eq!(toi.status, ToiStatus::Touching);
        assert!(toi.separation >= blind && toi.separation <= tolerance);
        // On the segment between the discs' surfaces, at the reported time.
        let gap_middle = 8.0 * toi.fraction + 1.0 + 0.5 * toi.separation;
        assert!((toi.point - vec2(gap_middle, 0.0)).norm() < 1e-5);
        assert!((toi.normal - vec2(1.0, 0.0)).norm() < 1e-6);
        assert_eq!(toi.iterations as usize + 1, calls.len());
    }

    /// Far from the origin the closest points' direction is only known to
    /// `asin(point_error / d)`; with a fast sideways motion the bound that
    /// trusts it steps into contact. Here A's exact answers are rotated by
    /// that worst angle towards the motion, and the advancement must never
    /// be handed a time where the true discs overlap.
    #[test]
    fn a_skewed_direction_never_steps_into_contact() {
        // A passes B at 40 m/step, sideways to the direction between them
        // at the touch (centres 0.199 m apart across the motion, radii 0.1).
        let mut a = body(40.0, vec2(0.0, 40.0), 0.0, 0.1);
        a.pose.translation.y = -40.0;
        let b = body(40.199, vec2(0.0, 0.0), 0.0, 0.1);
        let point_error = coordinate_floor(&a, &b);
        let mut exact = discs(0.1, 0.1);
        let toi = conservative_advancement(&a, &b, |pa, pb| {
            let c = exact(pa, pb);
            let c = c.expect("stepped into contact");
            // Tilt the direction by the worst angle, away from the motion,
            // so the closing speed along it reads low.
            let angle = (point_error / c.distance).min(1.0).asin();
            let (sin, cos) = angle.sin_cos();
            let d = c.point_b - c.point_a;
            let tilted = vec2(cos * d.x + sin * d.y, -sin * d.x + cos * d.y);
            Some(ClosestPoints {
                distance: c.distance,
                point_a: c.point_a,
                point_b: c.point_a + tilted,
            })
        })
        .unwrap()
        .unwrap();
        assert_eq!(toi.status, ToiStatus::Touching);
    }

    #[test]
    fn bad_bodies_are_errors() {
        let good = body(0.0, vec2(1.0, 0.0), 0.0, 1.0);
        let mut nan = good;
        nan.motion.angular = Real::NAN;
        assert!(matches!(
            conservative_advancement(&nan, &good, discs(1.0, 1.0)),
            Err(ToiError::NonFiniteMotion {
                which: "a",
                field: "angular"
            })
        ));
        let mut negative = good;
        negative.bounding_radius = -1.0;
        assert!(matches!(
            conservative_advancement(&good, &negative, discs(1.0, 1.0)),
            Err(ToiError::InvalidBody { which: "b" })
        ));
    }
}
