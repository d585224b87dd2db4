//! [`ConvexPolygon`]: any number of vertices, stored counter-clockwise.
//!
//! Invariants (checked by [`ConvexPolygon::new`]): at least 3 finite vertices,
//! no repeated or collinear vertex, every turn strictly left, winding once.
//! `normals[i]` is the outward unit normal of edge `i`, which runs from
//! `vertices[i]` to `vertices[(i + 1) % n]`.

use super::error::ShapeError;
use super::outline::{normalize_outline, reject_collinear, turn_sine};
use crate::math::{Real, Vec2, vec2};

/// A convex polygon in its local frame.
#[derive(Clone, Debug, PartialEq)]
pub struct ConvexPolygon {
    vertices: Vec<Vec2>,
    normals: Vec<Vec2>,
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
        let normals = (0..n)
            .map(|i| {
                let edge = vertices[(i + 1) % n] - vertices[i];
                vec2(edge.y, -edge.x).normalize()
            })
            .collect();
        ConvexPolygon { vertices, normals }
    }

    /// Vertices counter-clockwise (local frame).
    pub fn vertices(&self) -> &[Vec2] {
        &self.vertices
    }

    /// Outward unit normal of each edge (local frame).
    pub fn normals(&self) -> &[Vec2] {
        &self.normals
    }

    /// Number of vertices.
    pub fn len(&self) -> usize {
        self.vertices.len()
    }

    /// Never true: a valid polygon has at least 3 vertices.
    pub fn is_empty(&self) -> bool {
        self.vertices.is_empty()
    }
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
