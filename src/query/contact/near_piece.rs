//! [`NearPiece`] and [`NearShape`]: the tests that pass over the convex
//! pieces of a simple polygon that cannot come within the margin of
//! another shape, by bounding circles and, against a convex polygon, by
//! its edges' lines.
//!
//! A circle of the other shape (a piece of another simple polygon, or a
//! whole convex shape) is carried into the polygon's local frame once and
//! grown by the margin and a rounding slack; each piece's own bounding
//! circle ([`crate::shape::SimplePolygon::piece_bounds`], local frame) is
//! then compared with it. A piece whose circle is farther than that is
//! farther from the shape than the margin, so its contact is `None` and
//! the answer does not change when it is passed over. Against a convex
//! polygon, a piece whose circle lies beyond one of its edges' lines by
//! more than the margin and the slack is passed over too (see
//! [`NearShape`]).
//!
//! The slack is [`PRUNE_SLACK`] times the magnitudes at which the
//! placements and the exact test round: both poses' translations, the
//! circles' distances from their own origins, and the margin. A NaN
//! anywhere gives a circle every piece passes, as the loop without the
//! test would take them all.

use crate::math::{Pose, Real, Vec2, is_finite_vec};
use crate::query::placed::{Placed, WorldPolygon};
use crate::query::tree::PRUNE_SLACK;

/// A circle of another shape in a simple polygon's local frame, grown by
/// the margin and the slack (see the module docs).
pub(super) struct NearPiece {
    center: Vec2,
    /// Radius, margin and slack, in the polygon's units.
    reach: Real,
}

impl NearPiece {
    /// The circle `(center, radius)`, in the local frame of `pose_other`
    /// (the identity for a circle already in the world), as seen by the
    /// polygon placed at `pose`, whose pieces reach `reach` from its origin
    /// (local units, see [`pieces_reach`]).
    pub(super) fn new(
        (center, radius): (Vec2, Real),
        pose_other: &Pose,
        pose: &Pose,
        reach: Real,
        margin: Real,
    ) -> NearPiece {
        let l1 = |v: Vec2| v.x.abs() + v.y.abs();
        // The other shape's placement rounds at its translation and at its
        // scaled local centre (a circle far from its own origin rounds by
        // more than its world position alone says); the polygon's
        // likewise, over all its pieces.
        let magnitude_other =
            l1(pose_other.translation) + pose_other.scale_length(l1(center) + radius);
        let world = pose_other.transform_point(center);
        let radius = pose_other.scale_length(radius);
        let magnitude =
            magnitude_other + l1(world) + l1(pose.translation) + pose.scale_length(reach) + margin;
        let reach = (radius + margin + PRUNE_SLACK * magnitude) / pose.scale;
        let center = pose.inverse_transform_point(world);
        if reach.is_nan() || !is_finite_vec(center) {
            return NearPiece::everything();
        }
        NearPiece { center, reach }
    }

    /// A test every piece passes.
    pub(super) fn everything() -> NearPiece {
        NearPiece {
            center: Vec2::zeros(),
            reach: Real::INFINITY,
        }
    }

    /// False only when a piece's circle `bounds` (the polygon's local
    /// frame) is farther from this one than the margin and the slack. The
    /// piece centres are finite (the polygon is valid, and `new` keeps no
    /// other centre), so no NaN reaches the comparison.
    #[inline]
    pub(super) fn may_touch(&self, (center, radius): (Vec2, Real)) -> bool {
        let reach = self.reach + radius;
        (center - self.center).norm_squared() <= reach * reach
    }
}

/// How far a polygon's pieces reach from its origin (local units,
/// over-estimated by |x| + |y|): the magnitude its placements round at.
pub(super) fn pieces_reach(bounds: &[(Vec2, Real)]) -> Real {
    bounds
        .iter()
        .map(|(center, radius)| center.x.abs() + center.y.abs() + radius)
        .fold(0.0, Real::max)
}

/// The test of a simple polygon's pieces against a placed convex shape:
/// a circle holding the shape (see [`NearPiece`]) and, for a polygon,
/// each of its edges' lines. A piece whose circle lies beyond one of
/// those lines by more than the margin and the slack is farther from the
/// polygon than the margin: its vertices are all beyond that line, the
/// separating axis the exact test also tries. A long floor's circle is
/// large; its top edge passes over every piece well above it.
pub(super) struct NearShape<'p> {
    circle: NearPiece,
    faces: Option<Faces<'p>>,
}

/// A convex polygon's edges and what a piece's circle is carried by.
struct Faces<'p> {
    polygon: &'p WorldPolygon,
    /// The simple polygon's pose: pieces' circles to the world.
    pose: Pose,
    /// Margin and slack (m).
    pad: Real,
}

impl<'p> NearShape<'p> {
    /// The test of the pieces of a simple polygon at `pose`, reaching
    /// `reach` from its origin (local units, see [`pieces_reach`]),
    /// against `other`. Passes every piece when no circle holds `other`.
    pub(super) fn new(other: &'p Placed, pose: &Pose, reach: Real, margin: Real) -> NearShape<'p> {
        let Some(circle) = world_circle(other) else {
            return NearShape {
                circle: NearPiece::everything(),
                faces: None,
            };
        };
        let faces = match other {
            Placed::Polygon(polygon) => {
                let l1 = |v: Vec2| v.x.abs() + v.y.abs();
                // The piece's placement rounds at the pose's translation
                // and the piece's scaled reach; the edge's line at its
                // vertices, within twice the circle's radius of its centre
                // in |x| + |y|.
                let magnitude = l1(pose.translation)
                    + pose.scale_length(reach)
                    + l1(circle.0)
                    + 2.0 * circle.1
                    + margin;
                Some(Faces {
                    polygon,
                    pose: *pose,
                    pad: margin + PRUNE_SLACK * magnitude,
                })
            }
            _ => None,
        };
        NearShape {
            circle: NearPiece::new(circle, &Pose::IDENTITY, pose, reach, margin),
            faces,
        }
    }

    /// False only when the piece's circle `bounds` (the simple polygon's
    /// local frame) is beyond the margin and the slack of the shape's
    /// circle or of one of its edges. A NaN passes the piece.
    #[inline]
    pub(super) fn may_touch(&self, bounds: (Vec2, Real)) -> bool {
        self.circle.may_touch(bounds) && self.faces.as_ref().is_none_or(|f| f.may_touch(bounds))
    }
}

impl Faces<'_> {
    #[inline]
    fn may_touch(&self, (center, radius): (Vec2, Real)) -> bool {
        let center = self.pose.transform_point(center);
        let reach = self.pose.scale_length(radius) + self.pad;
        // A comparison with a NaN is false: no edge separates then.
        let beyond = |(vertex, normal): (&Vec2, &Vec2)| normal.dot(&(center - vertex)) > reach;
        !self
            .polygon
            .vertices
            .iter()
            .zip(&self.polygon.normals)
            .any(beyond)
    }
}

/// A circle (world) holding a placed convex shape: `None` for a line,
/// which no circle holds, and for the kinds handled piece by piece or
/// leaf by leaf.
fn world_circle(placed: &Placed) -> Option<(Vec2, Real)> {
    let around_segment =
        |a: Vec2, b: Vec2, radius: Real| ((a + b) * 0.5, (b - a).norm() * 0.5 + radius);
    match placed {
        Placed::Point(p) => Some((*p, 0.0)),
        Placed::Circle(c, r) => Some((*c, *r)),
        Placed::Segment(a, b) => Some(around_segment(*a, *b, 0.0)),
        Placed::Capsule(a, b, r) => Some(around_segment(*a, *b, *r)),
        Placed::Polygon(polygon) => {
            let vertices = &polygon.vertices;
            let first = *vertices.first()?;
            let (low, high) = vertices
                .iter()
                .fold((first, first), |(low, high), v| (low.inf(v), high.sup(v)));
            let center = (low + high) * 0.5;
            let radius = vertices
                .iter()
                .map(|v| (v - center).norm())
                .fold(0.0, Real::max);
            Some((center, radius))
        }
        Placed::Line { .. } | Placed::Simple(..) | Placed::Tree(..) => None,
    }
}

/// A star-shaped outline of `radii.len()` vertices (radii in metres,
/// evenly turned) about `center`: simple, usually not convex, several
/// pieces. The outlines of the pruning's property tests.
#[cfg(test)]
pub(super) fn star(radii: &[Real], center: Vec2) -> Option<crate::shape::SimplePolygon> {
    let count = radii.len() as Real;
    let points: Vec<Vec2> = radii
        .iter()
        .enumerate()
        .map(|(i, &r)| {
            let angle = std::f32::consts::TAU * i as Real / count;
            center + crate::math::vec2(angle.cos(), angle.sin()) * r
        })
        .collect();
    crate::shape::SimplePolygon::new(&points).ok()
}

/// How the pruning's property tests bring a shape B up to a simple
/// polygon A. A's outline is drawn about `(far, 0)` of its own frame and
/// B's about `(0, far)` of its own (scaled by `scale`); the poses bring
/// A's to the world's `(1, −2)` and B's to that point moved by a
/// distance along `heading`, so that with a large `far` both shapes lie
/// far from their own origins and near the world's.
#[cfg(test)]
pub(super) struct Approach {
    pub heading: Real,
    pub turn_a: Real,
    pub turn_b: Real,
    pub scale: Real,
    pub far: Real,
}

#[cfg(test)]
impl Approach {
    const MEETING: Vec2 = Vec2::new(1.0, -2.0);

    /// A's pose: its outline's centre at the meeting point.
    pub fn pose_a(&self) -> Pose {
        let turned = Pose::new(Vec2::zeros(), self.turn_a).rotation * Vec2::new(self.far, 0.0);
        Pose::new(Self::MEETING - turned, self.turn_a)
    }

    /// B's pose: its outline's centre `distance` (m) from the meeting
    /// point along the heading.
    pub fn pose_b(&self, distance: Real) -> Pose {
        let direction = Vec2::new(self.heading.cos(), self.heading.sin());
        let turned =
            Pose::new(Vec2::zeros(), self.turn_b).rotation * Vec2::new(0.0, self.far * self.scale);
        Pose::new(Self::MEETING + direction * distance - turned, self.turn_b).with_scale(self.scale)
    }

    /// The distance along the heading at which B first comes within the
    /// margin, by bisection on `touches` (up to 12 m, to about 10 µm);
    /// `None` unless B touches at 0 and not at 12 m.
    pub fn contact_distance(&self, touches: impl Fn(Real) -> bool) -> Option<Real> {
        let (mut near, mut far) = (0.0, 12.0);
        if !touches(near) || touches(far) {
            return None;
        }
        for _ in 0..30 {
            let mid = 0.5 * (near + far);
            if touches(mid) {
                near = mid;
            } else {
                far = mid;
            }
        }
        Some(near)
    }
}
