//! [`ConvexPolygon`]: any number of vertices, stored counter-clockwise.
//!
//! Invariants (checked by [`ConvexPolygon::new`]): at least 3 finite vertices,
//! no repeated or collinear vertex, every turn strictly left, winding once.
//! `normals[i]` is the outward unit normal of edge `i`, which runs from
//! `vertices[i]` to `vertices[(i + 1) % n]`.
//!
//! A polygon that is a rectangle is recognized once, when it is built
//! ([`ConvexPolygon::as_rectangle`]): box–box contacts use it in closed form.

use super::OrientedRect;
use super::error::ShapeError;
use super::outline::{normalize_outline, reject_collinear, turn_sine};
use crate::math::{Real, Rot2, Vec2, perp, vec2};

/// How far (relative to the size of the box and its distance from the local
/// origin) a corner of a polygon may lie from the rectangle its edge normals
/// describe and still be that rectangle: a few roundings of its coordinates
/// (6e-8 each), far below the rounding guard of the box–box contact path
/// (1e-5), which therefore sees the two as the same shape.
const RECTANGLE_TOLERANCE: Real = 1e-6;

/// A convex polygon in its local frame.
#[derive(Clone, Debug, PartialEq)]
pub struct ConvexPolygon {
    /// The vertices counter-clockwise, then the outward normal of each edge
    /// (one allocation, so a polygon stays as small as two pointers).
    points: Box<[Vec2]>,
    /// The polygon as a rectangle, when it is one.
    rectangle: Option<OrientedRect>,
}

impl ConvexPolygon {
    /// Builds a convex polygon from its outline.
    ///
    /// Clockwise input is accepted and reversed to counter-clockwise; error
    /// indices always refer to the input order.
    ///
    /// # Errors
    /// [`ShapeError::NonFinite`], [`ShapeError::TooFewPoints`],
    /// [`ShapeError::RepeatedPoint`], [`ShapeError::Degenerate`],
    /// [`ShapeError::CollinearPoint`] or [`ShapeError::NotConvex`] with the
    /// index of the offending input point.
    ///
    /// # Examples
    /// ```
    /// use circlet::shape::ConvexPolygon;
    /// use circlet::math::vec2;
    /// let clockwise = [vec2(0.0, 0.0), vec2(0.0, 1.0), vec2(1.0, 0.0)];
    /// let triangle = ConvexPolygon::new(&clockwise).unwrap();
    /// assert_eq!(triangle.vertices()[1], vec2(1.0, 0.0)); // reoriented
    /// assert!(ConvexPolygon::new(&[vec2(0.0, 0.0), vec2(1.0, 0.0)]).is_err());
    /// ```
    pub fn new(points: &[Vec2]) -> Result<Self, ShapeError> {
        let (outline, original_index) = normalize_outline(points)?;
        reject_collinear(&outline, &original_index)?;
        let n = outline.len();
        let mut total_turn = 0.0;
        for i in 0..n {
            let prev = outline[(i + n - 1) % n];
            let next = outline[(i + 1) % n];
            if turn_sine(prev, outline[i], next) < 0.0 {
                return Err(ShapeError::NotConvex {
                    index: original_index[i],
                });
            }
            let e1 = outline[i] - prev;
            let e2 = next - outline[i];
            total_turn += crate::math::cross(e1, e2).atan2(e1.dot(&e2));
        }
        // All left turns but winding twice (a pentagram) turns by 4π, not 2π.
        if total_turn > 3.0 * std::f32::consts::PI {
            return Err(ShapeError::NotConvex {
                index: original_index[0],
            });
        }
        Ok(Self::from_ccw_unchecked(outline))
    }

    /// A regular polygon with `count` vertices on a circle of `radius` around the
    /// origin, the first at angle `phase`.
    ///
    /// # Errors
    /// [`ShapeError::TooFewPoints`] for `count < 3`, [`ShapeError::NonPositive`]
    /// for the radius.
    pub fn regular(count: usize, radius: Real, phase: Real) -> Result<Self, ShapeError> {
        super::error::check_positive("radius", radius)?;
        super::error::check_finite("phase", phase)?;
        if count < 3 {
            return Err(ShapeError::TooFewPoints { count });
        }
        let points: Vec<Vec2> = (0..count)
            .map(|i| {
                let angle = phase + std::f32::consts::TAU * i as Real / count as Real;
                vec2(radius * angle.cos(), radius * angle.sin())
            })
            .collect();
        Self::new(&points)
    }

    /// A box from `min` to `max` as a polygon.
    ///
    /// # Errors
    /// As [`super::Aabb::new`].
    pub fn rectangle(min: Vec2, max: Vec2) -> Result<Self, ShapeError> {
        let aabb = super::Aabb::new(min, max)?;
        Ok(Self::from_ccw_unchecked(aabb.vertices().to_vec()))
    }

    /// Builds from vertices the engine already knows to be convex and
    /// counter-clockwise (box corners, decomposition pieces).
    pub(crate) fn from_ccw_unchecked(vertices: Vec<Vec2>) -> Self {
        let n = vertices.len();
        let mut points = vertices;
        points.reserve_exact(n);
        for i in 0..n {
            let edge = points[(i + 1) % n] - points[i];
            points.push(vec2(edge.y, -edge.x).normalize());
        }
        let (vertices, normals) = points.split_at(n);
        let rectangle = rectangle_of(vertices, normals);
        ConvexPolygon {
            points: points.into_boxed_slice(),
            rectangle,
        }
    }

    /// Vertices counter-clockwise (local frame).
    pub fn vertices(&self) -> &[Vec2] {
        &self.points[..self.len()]
    }

    /// Outward unit normal of each edge (local frame).
    pub fn normals(&self) -> &[Vec2] {
        &self.points[self.len()..]
    }

    /// Number of vertices.
    pub fn len(&self) -> usize {
        self.points.len() / 2
    }

    /// Never true: a valid polygon has at least 3 vertices.
    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
    }

    /// The polygon as a rectangle (local frame), when it is one: four
    /// vertices whose edge normals are, bit for bit, `-v`, `u`, `v`, `-u`
    /// with `u` the direction of edge 0 and `v` its quarter turn
    /// counter-clockwise, and whose corners are those of the rectangle to
    /// within rounding. Every axis-aligned rectangle is one, whichever
    /// corner it starts at. The rectangle's axes are `u` and `v`, so its
    /// corners ([`OrientedRect::vertices`]) come in the polygon's order.
    /// Decided once, when the polygon is built.
    ///
    /// # Examples
    /// ```
    /// use circlet::math::vec2;
    /// use circlet::shape::ConvexPolygon;
    /// let plank = ConvexPolygon::rectangle(vec2(1.0, 0.0), vec2(5.0, 0.5)).unwrap();
    /// let rect = plank.as_rectangle().unwrap();
    /// assert_eq!(rect.center(), vec2(3.0, 0.25));
    /// assert_eq!(rect.half_extents(), vec2(2.0, 0.25));
    /// assert!(ConvexPolygon::regular(4, 1.0, 0.3).unwrap().as_rectangle().is_none());
    /// ```
    pub fn as_rectangle(&self) -> Option<&OrientedRect> {
        self.rectangle.as_ref()
    }
}

/// The rectangle that `vertices` (with their edge `normals`) are, if they
/// are one (see [`ConvexPolygon::as_rectangle`]).
fn rectangle_of(vertices: &[Vec2], normals: &[Vec2]) -> Option<OrientedRect> {
    let ([p0, p1, p2, p3], [n0, n1, n2, n3]) = (vertices, normals) else {
        return None;
    };
    // Edge 0 runs along u, so its right-hand (outward) normal is -v; then
    // u, v and -u for edges 1 to 3. Exact comparisons: the box path reuses
    // these normals as ±u, ±v.
    let (u, v) = (*n1, *n2);
    if !(*n0 == -v && *n3 == -u && v == perp(u)) {
        return None;
    }
    // p0 = c - hx u - hy v, p1 = c + hx u - hy v, p2 = c + hx u + hy v.
    let center = (p0 + p2) * 0.5;
    let half_extents = vec2((p1 - p0).dot(&u), (p2 - p1).dot(&v)) * 0.5;
    let rotation = Rot2::new_unchecked(nalgebra::Complex::new(u.x, u.y));
    let rect = OrientedRect::from_parts_unchecked(center, half_extents, rotation);
    let tolerance =
        RECTANGLE_TOLERANCE * (center.x.abs() + center.y.abs() + half_extents.x + half_extents.y);
    let corners_match = rect
        .vertices()
        .iter()
        .zip([p0, p1, p2, p3])
        .all(|(ideal, actual)| (ideal - actual).amax() <= tolerance);
    (half_extents.x > 0.0 && half_extents.y > 0.0 && corners_match).then_some(rect)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_each_bad_outline_with_its_index() {
        let nan = [vec2(0.0, 0.0), vec2(1.0, f32::NAN), vec2(0.0, 1.0)];
        assert_eq!(
            ConvexPolygon::new(&nan),
            Err(ShapeError::NonFinite {
                field: "vertex",
                index: Some(1)
            })
        );
        assert_eq!(
            ConvexPolygon::new(&[vec2(0.0, 0.0), vec2(1.0, 0.0)]),
            Err(ShapeError::TooFewPoints { count: 2 })
        );
        let repeated = [
            vec2(0.0, 0.0),
            vec2(1.0, 0.0),
            vec2(1.0, 0.0),
            vec2(0.0, 1.0),
        ];
        assert_eq!(
            ConvexPolygon::new(&repeated),
            Err(ShapeError::RepeatedPoint {
                index: 2,
                previous: 1
            })
        );
        let collinear = [
            vec2(0.0, 0.0),
            vec2(1.0, 0.0),
            vec2(2.0, 0.0),
            vec2(0.0, 1.0),
        ];
        assert_eq!(
            ConvexPolygon::new(&collinear),
            Err(ShapeError::CollinearPoint { index: 1 })
        );
        let all_on_a_line = [vec2(0.0, 0.0), vec2(1.0, 1.0), vec2(2.0, 2.0)];
        assert_eq!(
            ConvexPolygon::new(&all_on_a_line),
            Err(ShapeError::Degenerate)
        );
        let reflex = [
            vec2(0.0, 0.0),
            vec2(2.0, 0.0),
            vec2(1.0, 0.5),
            vec2(2.0, 2.0),
            vec2(0.0, 2.0),
        ];
        assert_eq!(
            ConvexPolygon::new(&reflex),
            Err(ShapeError::NotConvex { index: 2 })
        );
    }

    #[test]
    fn clockwise_input_is_reoriented() {
        let clockwise = [
            vec2(0.0, 0.0),
            vec2(0.0, 1.0),
            vec2(1.0, 1.0),
            vec2(1.0, 0.0),
        ];
        let square = ConvexPolygon::new(&clockwise).unwrap();
        assert!(super::super::outline::twice_signed_area(square.vertices()) > 0.0);
        // A reflex vertex in clockwise input is reported by its input index.
        let reflex_cw = [
            vec2(0.0, 2.0),
            vec2(2.0, 2.0),
            vec2(1.0, 1.5),
            vec2(2.0, 0.0),
            vec2(0.0, 0.0),
        ];
        assert_eq!(
            ConvexPolygon::new(&reflex_cw),
            Err(ShapeError::NotConvex { index: 2 })
        );
    }

    #[test]
    fn pentagram_winding_twice_is_not_convex() {
        let star: Vec<Vec2> = (0..5)
            .map(|i| {
                let a = std::f32::consts::TAU * (2 * i) as f32 / 5.0;
                vec2(a.cos(), a.sin())
            })
            .collect();
        assert!(matches!(
            ConvexPolygon::new(&star),
            Err(ShapeError::NotConvex { .. })
        ));
    }

    #[test]
    fn normals_are_outward_units() {
        let hexagon = ConvexPolygon::regular(6, 2.0, 0.3).unwrap();
        for (i, n) in hexagon.normals().iter().enumerate() {
            assert!((n.norm() - 1.0).abs() < 1e-6);
            assert!(n.dot(&hexagon.vertices()[i]) > 0.0);
        }
    }
}
