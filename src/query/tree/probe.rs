//! The shape a tree is tested against, resolved once into world coordinates,
//! and the leaf kernels: one world circle against that shape.
//!
//! Circles, capsules, points and segments are a core segment with a radius
//! (zero for points and segments) and are handled in closed form; every other
//! kind is placed once ([`Placed`]) and each leaf goes through the crate's
//! placed dispatch functions as a [`Placed::Circle`]. The pruned queries and
//! the brute-force references call the same kernels, so they agree exactly.

use super::walk::WorldCircle;
use crate::math::{Pose, Real, Vec2, is_finite_vec, perp};
use crate::query::contact::contact_placed;
use crate::query::distance::closest_points_placed;
use crate::query::intersects::intersects_placed;
use crate::query::placed::Placed;
use crate::shape::Shape;
use smallvec::SmallVec;
use std::borrow::Cow;

/// Normal used when the two centres coincide and no direction is defined
/// (world +x; any unit vector is as right as another there).
pub(crate) const COINCIDENT_NORMAL: Vec2 = Vec2::new(1.0, 0.0);

/// The other shape of a tree query.
pub(crate) enum Probe<'a> {
    /// Every point within `radius` of the segment `a`–`b` (world).
    Core { a: Vec2, b: Vec2, radius: Real },
    /// Any other shape, placed once, through the placed dispatch functions.
    General(Cow<'a, Placed<'a>>),
}

/// One contact of a world circle (A) with the probe (B): normal from A to B.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Touch {
    pub point: Vec2,
    pub normal: Vec2,
    pub depth: Real,
    pub feature_b: u16,
}

/// Closest point to `p` on the segment `a`–`b`.
#[inline]
pub(crate) fn closest_on_segment(p: Vec2, a: Vec2, b: Vec2) -> Vec2 {
    let edge = b - a;
    let length2 = edge.norm_squared();
    if length2 <= 0.0 {
        return a;
    }
    // dot(p − (a + t·edge), edge) = 0, clamped to the segment.
    let t = ((p - a).dot(&edge) / length2).clamp(0.0, 1.0);
    a + edge * t
}

/// The contact of disc (c, r) with the core (q its closest point, radius rb).
#[inline]
pub(crate) fn disc_touch(
    c: Vec2,
    r: Real,
    q: Vec2,
    rb: Real,
    fallback: Vec2,
) -> (Vec2, Vec2, Real) {
    let offset = q - c;
    let distance = offset.norm();
    let normal = if distance > 0.0 {
        offset / distance
    } else {
        fallback
    };
    let depth = r + rb - distance;
    // Midway between the two surfaces: c + n·r on A, q − n·rb on B.
    let point = (c + normal * r + q - normal * rb) * 0.5;
    (point, normal, depth)
}

/// A world circle as a placed disc grown by `extra`, if it is a valid disc
/// (finite, radius > 0; a NaN pose gives none).
fn as_circle(circle: &WorldCircle, extra: Real) -> Option<Placed<'static>> {
    let radius = circle.radius + extra;
    (is_finite_vec(circle.center) && radius.is_finite() && radius > 0.0)
        .then_some(Placed::Circle(circle.center, radius))
}

impl<'a> Probe<'a> {
    /// Resolves `shape` at `pose`.
    pub fn new(shape: &'a Shape, pose: &Pose) -> Probe<'a> {
        Probe::from_placed(Cow::Owned(Placed::new(shape, pose)))
    }

    /// The probe of a shape already placed in the world.
    pub fn from_placed(placed: Cow<'a, Placed<'a>>) -> Probe<'a> {
        match *placed {
            Placed::Circle(center, radius) => Probe::Core {
                a: center,
                b: center,
                radius,
            },
            Placed::Capsule(a, b, radius) => Probe::Core { a, b, radius },
            Placed::Point(at) => Probe::Core {
                a: at,
                b: at,
                radius: 0.0,
            },
            Placed::Segment(a, b) => Probe::Core { a, b, radius: 0.0 },
            _ => Probe::General(placed),
        }
    }

    /// Fallback normal of a disc centred on the core: across the core's
    /// segment, or [`COINCIDENT_NORMAL`] for a point core.
    fn fallback_normal(a: Vec2, b: Vec2) -> Vec2 {
        let edge = b - a;
        let length = edge.norm();
        if length > 0.0 {
            perp(edge / length)
        } else {
            COINCIDENT_NORMAL
        }
    }

    /// Signed gap between the circle's edge and the probe (negative when
    /// overlapping), for the closed forms; `None` for a general shape.
    #[inline]
    fn core_gap(&self, circle: &WorldCircle) -> Option<Real> {
        match self {
            Probe::Core { a, b, radius } => {
                let q = closest_on_segment(circle.center, *a, *b);
                Some((q - circle.center).norm() - circle.radius - radius)
            }
            Probe::General(_) => None,
        }
    }

    /// Pruning test: may a circle inside `circle` come within `margin` of the probe?
    pub fn may_touch(&self, circle: &WorldCircle, margin: Real) -> bool {
        match self {
            Probe::Core { .. } => self
                .core_gap(circle)
                .is_none_or(|gap| gap <= margin + circle.slack),
            Probe::General(placed) => as_circle(circle, margin.max(0.0) + circle.slack)
                .is_none_or(|c| intersects_placed(&c, placed)),
        }
    }

    /// Exact test: does the leaf circle share a point with the probe?
    pub fn intersects(&self, circle: &WorldCircle) -> bool {
        match self {
            Probe::Core { a, b, radius } => {
                let q = closest_on_segment(circle.center, *a, *b);
                let reach = circle.radius + radius;
                (q - circle.center).norm_squared() <= reach * reach
            }
            Probe::General(placed) => {
                as_circle(circle, 0.0).is_some_and(|c| intersects_placed(&c, placed))
            }
        }
    }

    /// Lower bound of the distance from any circle inside `circle` to the probe.
    pub fn distance_bound(&self, circle: &WorldCircle) -> Real {
        match self {
            Probe::Core { .. } => self
                .core_gap(circle)
                .map_or(0.0, |gap| (gap - circle.slack).max(0.0)),
            Probe::General(placed) => as_circle(circle, circle.slack)
                .and_then(|c| closest_points_placed(&c, placed))
                .map_or(0.0, |c| c.distance),
        }
    }

    /// Exact closest points of the leaf circle and the probe: `(distance,
    /// point on the circle, point on the probe)`, or `None` when they intersect.
    pub fn closest(&self, circle: &WorldCircle) -> Option<(Real, Vec2, Vec2)> {
        match self {
            Probe::Core { a, b, radius } => {
                let q = closest_on_segment(circle.center, *a, *b);
                let offset = q - circle.center;
                // The same predicate as `intersects`, so that distance is 0
                // exactly when they intersect.
                let reach = circle.radius + radius;
                let squared = offset.norm_squared();
                if squared <= reach * reach || squared.is_nan() {
                    return None;
                }
                let distance = offset.norm();
                let normal = offset / distance;
                let gap = (distance - reach).max(Real::MIN_POSITIVE);
                Some((
                    gap,
                    circle.center + normal * circle.radius,
                    q - normal * *radius,
                ))
            }
            Probe::General(placed) => {
                let c = as_circle(circle, 0.0)?;
                closest_points_placed(&c, placed).map(|c| (c.distance, c.point_a, c.point_b))
            }
        }
    }

    /// Exact contacts of the leaf circle with the probe within `margin`.
    pub fn contact(&self, circle: &WorldCircle, margin: Real) -> SmallVec<[Touch; 2]> {
        let mut out = SmallVec::new();
        match self {
            Probe::Core { a, b, radius } => {
                let q = closest_on_segment(circle.center, *a, *b);
                let fallback = Self::fallback_normal(*a, *b);
                let (point, normal, depth) =
                    disc_touch(circle.center, circle.radius, q, *radius, fallback);
                if depth >= -margin {
                    out.push(Touch {
                        point,
                        normal,
                        depth,
                        feature_b: 0,
                    });
                }
            }
            Probe::General(placed) => {
                if let Some(c) = as_circle(circle, 0.0)
                    && let Some(manifold) = contact_placed(&c, placed, margin)
                {
                    out.extend(manifold.points.iter().map(|p| Touch {
                        point: p.point,
                        normal: manifold.normal,
                        depth: p.depth,
                        feature_b: (p.id.0 & 0xFFFF) as u16,
                    }));
                }
            }
        }
        out
    }
}

/// Exact contact of two world circles (A and B) within `margin`: normal from A to B.
pub(crate) fn circle_circle_touch(
    a: &WorldCircle,
    b: &WorldCircle,
    margin: Real,
) -> Option<(Vec2, Vec2, Real)> {
    let (point, normal, depth) =
        disc_touch(a.center, a.radius, b.center, b.radius, COINCIDENT_NORMAL);
    (depth >= -margin).then_some((point, normal, depth))
}

/// Exact overlap test of two world circles (touching counts).
#[inline]
pub(crate) fn circles_intersect(a: &WorldCircle, b: &WorldCircle) -> bool {
    let reach = a.radius + b.radius;
    (b.center - a.center).norm_squared() <= reach * reach
}

/// Pruning test of two node circles (both widened by their slack).
#[inline]
pub(crate) fn circles_may_touch(a: &WorldCircle, b: &WorldCircle, margin: Real) -> bool {
    (b.center - a.center).norm() <= a.radius + b.radius + margin + a.slack + b.slack
}

/// Exact closest points of two world circles `(distance, on a, on b)`, or
/// `None` when they intersect (the predicate of [`circles_intersect`]).
pub(crate) fn circles_closest(a: &WorldCircle, b: &WorldCircle) -> Option<(Real, Vec2, Vec2)> {
    if circles_intersect(a, b) {
        return None;
    }
    let offset = b.center - a.center;
    let distance = offset.norm();
    let normal = offset / distance;
    // a.r + b.r, not a.r then b.r: the same rounding whichever tree is A.
    let gap = (distance - (a.radius + b.radius)).max(Real::MIN_POSITIVE);
    Some((
        gap,
        a.center + normal * a.radius,
        b.center - normal * b.radius,
    ))
}

/// Lower bound of the distance between any circles inside two node circles.
#[inline]
pub(crate) fn circles_distance_bound(a: &WorldCircle, b: &WorldCircle) -> Real {
    ((b.center - a.center).norm() - ((a.radius + b.radius) + (a.slack + b.slack))).max(0.0)
}

/// A unit vector that is never NaN: `v` normalised, or `fallback`.
pub(crate) fn unit_or(v: Vec2, fallback: Vec2) -> Vec2 {
    let length = v.norm();
    if length > 0.0 && length.is_finite() {
        v / length
    } else {
        fallback
    }
}
