//! The small shapes: [`Point`], [`Line`], [`Segment`], [`Capsule`], [`Circle`].
//!
//! All coordinates are in the shape's local frame (metres); a [`crate::math::Pose`]
//! places them in the world. Every constructor validates its input.

use super::error::{ShapeError, check_finite_vec, check_positive};
use crate::math::{Real, Vec2};

/// A single point: zero area, it intersects what contains it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    position: Vec2,
}

impl Point {
    /// A point at `position` (local frame).
    ///
    /// # Errors
    /// [`ShapeError::NonFinite`] for NaN or infinite coordinates.
    pub fn new(position: Vec2) -> Result<Self, ShapeError> {
        check_finite_vec("position", position, None)?;
        Ok(Point { position })
    }

    /// The point's position (local frame).
    pub fn position(&self) -> Vec2 {
        self.position
    }
}

/// An infinite straight line through `point` along the unit `direction`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Line {
    point: Vec2,
    direction: Vec2,
}

impl Line {
    /// The line through `point` with direction `direction` (any non-zero length;
    /// stored normalized).
    ///
    /// # Errors
    /// [`ShapeError::NonFinite`] or [`ShapeError::ZeroLength`] for the direction.
    pub fn new(point: Vec2, direction: Vec2) -> Result<Self, ShapeError> {
        check_finite_vec("point", point, None)?;
        check_finite_vec("direction", direction, None)?;
        let length = direction.norm();
        if length.is_nan() || length <= 0.0 || !length.is_finite() {
            return Err(ShapeError::ZeroLength { field: "direction" });
        }
        Ok(Line {
            point,
            direction: direction / length,
        })
    }

    /// A point on the line (local frame).
    pub fn point(&self) -> Vec2 {
        self.point
    }

    /// The unit direction of the line (local frame).
    pub fn direction(&self) -> Vec2 {
        self.direction
    }
}

/// A line segment from `a` to `b`; zero thickness. `a == b` is allowed (a point).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Segment {
    a: Vec2,
    b: Vec2,
}

impl Segment {
    /// The segment from `a` to `b` (local frame).
    ///
    /// # Errors
    /// [`ShapeError::NonFinite`] naming `a` or `b`.
    pub fn new(a: Vec2, b: Vec2) -> Result<Self, ShapeError> {
        check_finite_vec("a", a, None)?;
        check_finite_vec("b", b, None)?;
        Ok(Segment { a, b })
    }

    /// First end point.
    pub fn a(&self) -> Vec2 {
        self.a
    }

    /// Second end point.
    pub fn b(&self) -> Vec2 {
        self.b
    }

    /// Length in local units.
    pub fn length(&self) -> Real {
        (self.b - self.a).norm()
    }
}

/// A segment thickened by `radius`: every point within `radius` of the segment
/// `a`–`b`. A thick shot trace is a capsule whose radius is half the shot's
/// thickness. `a == b` is allowed (then it is a circle).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Capsule {
    a: Vec2,
    b: Vec2,
    radius: Real,
}

impl Capsule {
    /// The capsule around segment `a`–`b` with the given radius (local frame).
    ///
    /// # Errors
    /// [`ShapeError::NonFinite`] for a bad end point, [`ShapeError::NonPositive`]
    /// for a radius that is not > 0.
    pub fn new(a: Vec2, b: Vec2, radius: Real) -> Result<Self, ShapeError> {
        check_finite_vec("a", a, None)?;
        check_finite_vec("b", b, None)?;
        check_positive("radius", radius)?;
        Ok(Capsule { a, b, radius })
    }

    /// The capsule that a shot of full `thickness` traces from `a` to `b`.
    ///
    /// # Errors
    /// As [`Capsule::new`], naming `thickness`.
    pub fn from_thickness(a: Vec2, b: Vec2, thickness: Real) -> Result<Self, ShapeError> {
        check_positive("thickness", thickness)?;
        Self::new(a, b, thickness * 0.5)
    }

    /// First end of the core segment.
    pub fn a(&self) -> Vec2 {
        self.a
    }

    /// Second end of the core segment.
    pub fn b(&self) -> Vec2 {
        self.b
    }

    /// Radius (half the thickness).
    pub fn radius(&self) -> Real {
        self.radius
    }

    /// The core segment.
    pub fn segment(&self) -> Segment {
        Segment {
            a: self.a,
            b: self.b,
        }
    }
}

/// A solid disc.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Circle {
    center: Vec2,
    radius: Real,
}

impl Circle {
    /// The disc of `radius` around `center` (local frame).
    ///
    /// # Errors
    /// [`ShapeError::NonFinite`] or [`ShapeError::NonPositive`].
    pub fn new(center: Vec2, radius: Real) -> Result<Self, ShapeError> {
        check_finite_vec("center", center, None)?;
        check_positive("radius", radius)?;
        Ok(Circle { center, radius })
    }

    /// Center (local frame).
    pub fn center(&self) -> Vec2 {
        self.center
    }

    /// Radius (local units).
    pub fn radius(&self) -> Real {
        self.radius
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;

    #[test]
    fn bad_input_is_an_error() {
        assert!(Point::new(vec2(f32::NAN, 0.0)).is_err());
        assert_eq!(
            Line::new(vec2(0.0, 0.0), vec2(0.0, 0.0)),
            Err(ShapeError::ZeroLength { field: "direction" })
        );
        assert!(Segment::new(vec2(0.0, f32::INFINITY), vec2(0.0, 0.0)).is_err());
        assert_eq!(
            Capsule::new(vec2(0.0, 0.0), vec2(1.0, 0.0), -1.0),
            Err(ShapeError::NonPositive {
                field: "radius",
                value: -1.0
            })
        );
        assert!(Capsule::from_thickness(vec2(0.0, 0.0), vec2(1.0, 0.0), 0.0).is_err());
        assert!(Circle::new(vec2(0.0, 0.0), 0.0).is_err());
        assert!(Circle::new(vec2(0.0, 0.0), f32::NAN).is_err());
    }

    #[test]
    fn line_direction_is_normalized() {
        let line = Line::new(vec2(1.0, 1.0), vec2(3.0, 4.0)).unwrap();
        assert!((line.direction().norm() - 1.0).abs() < 1e-6);
    }
}
