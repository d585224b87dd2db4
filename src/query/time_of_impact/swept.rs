//! Shapes resolved for linear sweeps: every convex kind is a *core* (one point,
//! a segment, or a convex polygon) plus a rounding radius, in world
//! coordinates relative to a common origin (which keeps f32 precision when
//! the bodies are far from the world origin).

use super::types::ToiError;
use crate::math::{Pose, Real, Vec2, cross, perp};
use crate::query::WorldPolygon;
use crate::query::cast::local::{normalize_or, with_local_polygon};
use crate::shape::{Shape, SimplePolygon};
use smallvec::SmallVec;

/// Which vertices of a contact are treated as one feature (a face parallel
/// to the contact plane), in ulps of the shape's coordinates: vertices whose
/// depth along the normal is within this many ulps of the deepest one. Exactly
/// parallel faces, rotated in f32, differ by about an ulp; a face tilted any
/// more reports its deepest vertex, so the point never leaves the surfaces
/// by more than f32 noise.
pub(crate) const SUPPORT_FEATURE_ULPS: Real = 16.0;

/// A convex shape as a core plus a rounding radius (world, relative origin).
#[derive(Clone, Debug)]
pub(crate) struct Convex {
    /// One point (circle), two points (capsule) or a CCW convex polygon with
    /// outward unit normals (no normals for the first two).
    pub core: WorldPolygon,
    /// Rounding radius (metres, >= 0).
    pub radius: Real,
}

/// The three closed forms a convex core calls for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CoreClass {
    Round,
    Capsule,
    Polygon,
}

impl Convex {
    pub(crate) fn round(center: Vec2, radius: Real) -> Self {
        Convex {
            core: WorldPolygon {
                vertices: SmallVec::from_slice(&[center]),
                normals: SmallVec::new(),
            },
            radius,
        }
    }

    fn capsule(a: Vec2, b: Vec2, radius: Real) -> Self {
        if a == b {
            return Self::round(a, radius);
        }
        Convex {
            core: WorldPolygon {
                vertices: SmallVec::from_slice(&[a, b]),
                normals: SmallVec::new(),
            },
            radius,
        }
    }

    pub fn class(&self) -> CoreClass {
        match self.core.vertices.len() {
            1 => CoreClass::Round,
            2 => CoreClass::Capsule,
            _ => CoreClass::Polygon,
        }
    }

    pub fn center(&self) -> Vec2 {
        self.core.vertices[0]
    }

    pub fn segment(&self) -> [Vec2; 2] {
        [self.core.vertices[0], self.core.vertices[1]]
    }
}

/// A shape resolved for a sweep: one convex shape, or the convex pieces of a
/// simple polygon.
#[derive(Clone, Debug)]
pub(crate) enum Swept {
    Convex(Convex),
    Pieces(Vec<Convex>),
}

impl Swept {
    /// Resolves `shape` at `pose`, with coordinates relative to `origin`.
    pub fn new(
        shape: &Shape,
        pose: &Pose,
        origin: Vec2,
        which: &'static str,
    ) -> Result<Self, ToiError> {
        let pose = Pose {
            translation: pose.translation - origin,
            ..*pose
        };
        let convex = match shape {
            Shape::Point(point) => Convex::round(pose.transform_point(point.position()), 0.0),
            Shape::Circle(circle) => Convex::round(
                pose.transform_point(circle.center()),
                pose.scale_length(circle.radius()),
            ),
            Shape::Segment(segment) => Convex::capsule(
                pose.transform_point(segment.a()),
                pose.transform_point(segment.b()),
                0.0,
            ),
            Shape::Capsule(capsule) => Convex::capsule(
                pose.transform_point(capsule.a()),
                pose.transform_point(capsule.b()),
                pose.scale_length(capsule.radius()),
            ),
            Shape::SimplePolygon(polygon) => return Ok(Swept::Pieces(pieces(polygon, &pose))),
            Shape::Line(_) => {
                return Err(ToiError::UnsupportedShape {
                    which,
                    kind: shape.kind(),
                });
            }
            _ => with_local_polygon(shape, |vertices, normals| Convex {
                core: WorldPolygon::from_local(vertices, normals, &pose),
                radius: 0.0,
            })
            .ok_or(ToiError::UnsupportedShape {
                which,
                kind: shape.kind(),
            })?,
        };
        Ok(Swept::Convex(convex))
    }

    /// The convex parts (one, or the pieces).
    pub fn parts(&self) -> &[Convex] {
        match self {
            Swept::Convex(convex) => std::slice::from_ref(convex),
            Swept::Pieces(pieces) => pieces,
        }
    }
}

fn pieces(polygon: &SimplePolygon, pose: &Pose) -> Vec<Convex> {
    polygon
        .pieces()
        .iter()
        .map(|piece| Convex {
            core: WorldPolygon::from_local(piece.vertices(), piece.normals(), pose),
            radius: 0.0,
        })
        .collect()
}

/// A core and how far it has moved: the points `core[i] + offset`.
#[derive(Clone, Copy)]
pub(crate) struct MovedCore<'a> {
    pub core: &'a [Vec2],
    pub offset: Vec2,
    pub radius: Real,
}

impl MovedCore<'_> {
    fn points(&self) -> impl Iterator<Item = Vec2> + '_ {
        self.core.iter().map(move |v| v + self.offset)
    }

    /// Depth noise of the moved points: a few ulps of the coordinates before
    /// the move plus the move itself (moving a far point back near the
    /// origin keeps its absolute rounding error).
    fn depth_tolerance(&self) -> Real {
        let magnitude =
            self.core.iter().map(|v| v.abs().max()).fold(0.0, Real::max) + self.offset.abs().max();
        SUPPORT_FEATURE_ULPS * Real::EPSILON * magnitude
    }
}

/// The contact point of two touching cores along `normal` (A to B): midway
/// between the rounded surfaces, in the middle of the overlap of the two
/// support features (a vertex, or a face parallel to the contact plane).
pub(crate) fn contact_point(a: MovedCore, b: MovedCore, normal: Vec2) -> Vec2 {
    let tangent = perp(normal);
    let support_a = a
        .points()
        .map(|v| normal.dot(&v))
        .fold(Real::NEG_INFINITY, Real::max);
    let support_b = b
        .points()
        .map(|v| normal.dot(&v))
        .fold(Real::INFINITY, Real::min);
    let span = |core: &MovedCore, deep: &dyn Fn(Real) -> bool| {
        core.points()
            .filter(|v| deep(normal.dot(v)))
            .map(|v| tangent.dot(&v))
            .fold((Real::INFINITY, Real::NEG_INFINITY), |(lo, hi), x| {
                (lo.min(x), hi.max(x))
            })
    };
    // One tolerance for both sides: the normal comes from the difference of
    // the two cores, so its direction errs by the rounding of both
    // magnitudes over a feature's length, and a face of either side may
    // tilt by that much across its length (a far, fast B can leave a
    // capsule's flank of A looking like one end).
    let tolerance = a.depth_tolerance() + b.depth_tolerance();
    let (a_low, a_high) = span(&a, &|depth| depth >= support_a - tolerance);
    let (b_low, b_high) = span(&b, &|depth| depth <= support_b + tolerance);
    // Middle of the overlap [max(lows), min(highs)], or of the gap if they miss.
    let along_tangent = (a_low.max(b_low) + a_high.min(b_high)) * 0.5;
    let along_normal = (support_a + a.radius + support_b - b.radius) * 0.5;
    normal * along_normal + tangent * along_tangent
}

/// The convex hull, counter-clockwise, of `b - a` for every `a` in `core_a`
/// and `b` in `core_b` (the Minkowski difference of the cores), with the
/// outward unit normals of its edges. Andrew's monotone chain; collinear and
/// repeated points are dropped, so the hull has 1, 2 or >= 3 vertices.
pub(crate) fn minkowski_difference(core_a: &[Vec2], core_b: &[Vec2]) -> WorldPolygon {
    let mut points: SmallVec<[Vec2; 16]> = core_b
        .iter()
        .flat_map(|b| core_a.iter().map(move |a| b - a))
        .collect();
    points.sort_by(|p, q| p.x.total_cmp(&q.x).then(p.y.total_cmp(&q.y)));
    points.dedup();
    let mut hull: SmallVec<[Vec2; 8]> = SmallVec::new();
    if points.len() <= 2 {
        hull.extend(points.iter().copied());
    } else {
        // Lower chain left to right, then upper chain right to left.
        for pass in 0..2 {
            let start = hull.len();
            let n = points.len();
            for k in 0..n {
                let p = if pass == 0 {
                    points[k]
                } else {
                    points[n - 1 - k]
                };
                while hull.len() >= start + 2
                    && cross(
                        hull[hull.len() - 1] - hull[hull.len() - 2],
                        p - hull[hull.len() - 2],
                    ) <= 0.0
                {
                    hull.pop();
                }
                hull.push(p);
            }
            hull.pop(); // the last point starts the other chain
        }
        if hull.len() < 3 {
            // All points collinear: keep the two extremes.
            hull.clear();
            hull.push(points[0]);
            hull.push(points[points.len() - 1]);
        }
    }
    let count = hull.len();
    let normals = if count >= 3 {
        (0..count)
            .map(|i| {
                let edge = hull[(i + 1) % count] - hull[i];
                normalize_or(Vec2::new(edge.y, -edge.x), Vec2::new(0.0, 1.0))
            })
            .collect()
    } else {
        SmallVec::new()
    };
    WorldPolygon {
        vertices: hull,
        normals,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;

    #[test]
    fn minkowski_difference_of_segment_and_square() {
        let square = [
            vec2(0.0, 0.0),
            vec2(1.0, 0.0),
            vec2(1.0, 1.0),
            vec2(0.0, 1.0),
        ];
        let segment = [vec2(0.0, 0.0), vec2(2.0, 0.0)];
        let hull = minkowski_difference(&segment, &square);
        // square - segment spans x in [-2, 1], y in [0, 1]: a 3 x 1 rectangle.
        assert_eq!(hull.vertices.len(), 4);
        let area: Real = (0..4)
            .map(|i| cross(hull.vertices[i], hull.vertices[(i + 1) % 4]))
            .sum::<Real>()
            * 0.5;
        assert!((area - 3.0).abs() < 1e-6);
        for (i, normal) in hull.normals.iter().enumerate() {
            let edge = hull.vertices[(i + 1) % 4] - hull.vertices[i];
            assert!(normal.dot(&edge).abs() < 1e-6);
        }
    }

    #[test]
    fn degenerate_differences() {
        let point = [vec2(1.0, 1.0)];
        assert_eq!(minkowski_difference(&point, &point).vertices.len(), 1);
        let parallel_a = [vec2(0.0, 0.0), vec2(1.0, 0.0)];
        let parallel_b = [vec2(0.0, 2.0), vec2(3.0, 2.0)];
        let hull = minkowski_difference(&parallel_a, &parallel_b);
        assert_eq!(hull.vertices.len(), 2);
        assert_eq!(hull.vertices[0], vec2(-1.0, 2.0));
        assert_eq!(hull.vertices[1], vec2(3.0, 2.0));
    }

    #[test]
    fn contact_point_of_faces_is_mid_overlap() {
        let a = [
            vec2(0.0, 0.0),
            vec2(2.0, 0.0),
            vec2(2.0, 1.0),
            vec2(0.0, 1.0),
        ];
        let b = [
            vec2(1.0, 1.0),
            vec2(5.0, 1.0),
            vec2(5.0, 2.0),
            vec2(1.0, 2.0),
        ];
        let still = |core| MovedCore {
            core,
            offset: vec2(0.0, 0.0),
            radius: 0.0,
        };
        let p = contact_point(still(&a), still(&b), vec2(0.0, 1.0));
        assert!((p - vec2(1.5, 1.0)).norm() < 1e-6);
        let corner = [vec2(3.0, 1.0), vec2(4.0, 2.0), vec2(2.0, 2.0)];
        let q = contact_point(still(&a), still(&corner), vec2(0.0, 1.0));
        // The corner (3, 1) misses the face, so the point is mid-gap.
        assert!((q - vec2(2.5, 1.0)).norm() < 1e-6);
    }
}
