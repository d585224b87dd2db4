//! Box-like shapes: [`Aabb`], [`OrientedRect`] and [`TileTriangle`].
//!
//! Each is a convex polygon with a closed-form description; `vertices()` lists
//! its corners counter-clockwise in the local frame, so the generic polygon
//! queries apply and the special-case ones can be checked against them.

use super::error::{ShapeError, check_finite, check_finite_vec, check_positive};
use crate::math::{Real, Rot2, Vec2, vec2};

/// An axis-aligned box in its local frame, from `min` to `max`.
///
/// Under a rotated pose it is no longer axis-aligned in the world; queries
/// handle that by working in the box's local frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Aabb {
    /// Lower-left corner.
    pub min: Vec2,
    /// Upper-right corner.
    pub max: Vec2,
}

impl Aabb {
    /// The box from `min` to `max`; both extents must be > 0.
    ///
    /// # Errors
    /// [`ShapeError::NonFinite`] or [`ShapeError::InvertedBounds`].
    pub fn new(min: Vec2, max: Vec2) -> Result<Self, ShapeError> {
        check_finite_vec("min", min, None)?;
        check_finite_vec("max", max, None)?;
        if !(min.x < max.x && min.y < max.y) {
            return Err(ShapeError::InvertedBounds { field: "aabb" });
        }
        Ok(Aabb { min, max })
    }

    /// The box centred on `center` with the given half extents (> 0).
    ///
    /// # Errors
    /// [`ShapeError::NonFinite`] or [`ShapeError::NonPositive`].
    pub fn from_center(center: Vec2, half_extents: Vec2) -> Result<Self, ShapeError> {
        check_finite_vec("center", center, None)?;
        check_positive("half_extents.x", half_extents.x)?;
        check_positive("half_extents.y", half_extents.y)?;
        Self::new(center - half_extents, center + half_extents)
    }

    /// An unchecked box, for bounds computed by the engine itself (may be empty).
    pub(crate) fn from_min_max_unchecked(min: Vec2, max: Vec2) -> Self {
        Aabb { min, max }
    }

    /// Centre of the box.
    pub fn center(&self) -> Vec2 {
        (self.min + self.max) * 0.5
    }

    /// Half of the width and height.
    pub fn half_extents(&self) -> Vec2 {
        (self.max - self.min) * 0.5
    }

    /// Corners counter-clockwise from `min`.
    pub fn vertices(&self) -> [Vec2; 4] {
        [
            self.min,
            vec2(self.max.x, self.min.y),
            self.max,
            vec2(self.min.x, self.max.y),
        ]
    }

    /// True if the two boxes overlap or touch (same frame).
    pub fn overlaps(&self, other: &Aabb) -> bool {
        self.min.x <= other.max.x
            && other.min.x <= self.max.x
            && self.min.y <= other.max.y
            && other.min.y <= self.max.y
    }

    /// The smallest box containing both.
    pub fn union(&self, other: &Aabb) -> Aabb {
        Aabb {
            min: self.min.inf(&other.min),
            max: self.max.sup(&other.max),
        }
    }
}

/// A rectangle with a centre, half extents and its own rotation (radians,
/// counter-clockwise), in the local frame of its pose.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OrientedRect {
    center: Vec2,
    half_extents: Vec2,
    rotation: Rot2,
}

impl OrientedRect {
    /// The rectangle centred on `center`, `half_extents` along its own axes,
    /// turned by `angle` radians.
    ///
    /// # Errors
    /// [`ShapeError::NonFinite`] or [`ShapeError::NonPositive`].
    pub fn new(center: Vec2, half_extents: Vec2, angle: Real) -> Result<Self, ShapeError> {
        check_finite_vec("center", center, None)?;
        check_positive("half_extents.x", half_extents.x)?;
        check_positive("half_extents.y", half_extents.y)?;
        check_finite("angle", angle)?;
        Ok(OrientedRect {
            center,
            half_extents,
            rotation: Rot2::new(angle),
        })
    }

    /// The rectangle from parts the engine computed itself (positive half
    /// extents, unit rotation), stored as given.
    pub(crate) fn from_parts_unchecked(center: Vec2, half_extents: Vec2, rotation: Rot2) -> Self {
        OrientedRect {
            center,
            half_extents,
            rotation,
        }
    }

    /// The rectangle with an explicit rotation, kept bit for bit when it is
    /// unit length to within 1e-4 (renormalized otherwise): restores a
    /// rectangle exactly from its stored parts.
    ///
    /// # Errors
    /// As [`OrientedRect::new`], [`ShapeError::NonFinite`] for a rotation
    /// that is not finite or of length 0.
    #[cfg(feature = "serde")]
    pub(crate) fn with_rotation(
        center: Vec2,
        half_extents: Vec2,
        rotation: Rot2,
    ) -> Result<Self, ShapeError> {
        let mut rect = Self::new(center, half_extents, 0.0)?;
        let c = rotation.complex();
        let norm = (c.re * c.re + c.im * c.im).sqrt();
        if !norm.is_finite() || norm <= 0.0 {
            return Err(ShapeError::NonFinite {
                field: "rotation",
                index: None,
            });
        }
        rect.rotation = if (norm - 1.0).abs() <= 1e-4 {
            rotation
        } else {
            Rot2::new(c.im.atan2(c.re))
        };
        Ok(rect)
    }

    /// Centre (local frame).
    pub fn center(&self) -> Vec2 {
        self.center
    }

    /// Half extents along the rectangle's own axes.
    pub fn half_extents(&self) -> Vec2 {
        self.half_extents
    }

    /// The rectangle's own rotation within its local frame.
    pub fn rotation(&self) -> Rot2 {
        self.rotation
    }

    /// The rectangle's unit axes (its local x and y) in the local frame.
    pub fn axes(&self) -> [Vec2; 2] {
        [
            self.rotation * vec2(1.0, 0.0),
            self.rotation * vec2(0.0, 1.0),
        ]
    }

    /// Corners counter-clockwise (local frame).
    pub fn vertices(&self) -> [Vec2; 4] {
        let [ax, ay] = self.axes();
        let ex = ax * self.half_extents.x;
        let ey = ay * self.half_extents.y;
        [
            self.center - ex - ey,
            self.center + ex - ey,
            self.center + ex + ey,
            self.center - ex + ey,
        ]
    }
}

/// Which corner of a tile's rectangle is missing (seed 001's triangle types).
/// "Upper" is +y (y points up).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Corner {
    /// The (min.x, max.y) corner is missing.
    UpperLeft,
    /// The (max.x, max.y) corner is missing.
    UpperRight,
    /// The (min.x, min.y) corner is missing.
    LowerLeft,
    /// The (max.x, min.y) corner is missing.
    LowerRight,
}

/// A right triangle: the rectangle `min`–`max` with one corner cut off along
/// the diagonal that joins its two neighbours (a 45° slope for square tiles).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TileTriangle {
    rect: Aabb,
    missing: Corner,
}

impl TileTriangle {
    /// The tile `min`–`max` with the `missing` corner cut away.
    ///
    /// # Errors
    /// As [`Aabb::new`].
    pub fn new(min: Vec2, max: Vec2, missing: Corner) -> Result<Self, ShapeError> {
        Ok(TileTriangle {
            rect: Aabb::new(min, max)?,
            missing,
        })
    }

    /// The full tile rectangle.
    pub fn rect(&self) -> Aabb {
        self.rect
    }

    /// The missing corner.
    pub fn missing(&self) -> Corner {
        self.missing
    }

    /// The three corners counter-clockwise (local frame).
    pub fn vertices(&self) -> [Vec2; 3] {
        let [ll, lr, ur, ul] = self.rect.vertices();
        match self.missing {
            Corner::LowerLeft => [lr, ur, ul],
            Corner::LowerRight => [ll, ur, ul],
            Corner::UpperRight => [ll, lr, ul],
            Corner::UpperLeft => [ll, lr, ur],
        }
    }

    /// The sloped edge (hypotenuse) as its two end points, counter-clockwise order.
    pub fn hypotenuse(&self) -> (Vec2, Vec2) {
        let v = self.vertices();
        match self.missing {
            Corner::LowerLeft => (v[2], v[0]),
            Corner::LowerRight => (v[0], v[1]),
            Corner::UpperRight => (v[1], v[2]),
            Corner::UpperLeft => (v[2], v[0]),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::cross;

    fn ccw(vertices: &[Vec2]) -> bool {
        (0..vertices.len()).all(|i| {
            let a = vertices[i];
            let b = vertices[(i + 1) % vertices.len()];
            let c = vertices[(i + 2) % vertices.len()];
            cross(b - a, c - b) > 0.0
        })
    }

    #[test]
    fn every_vertex_list_is_counter_clockwise() {
        let aabb = Aabb::new(vec2(0.0, 0.0), vec2(2.0, 1.0)).unwrap();
        assert!(ccw(&aabb.vertices()));
        let rect = OrientedRect::new(vec2(1.0, 1.0), vec2(2.0, 0.5), 0.7).unwrap();
        assert!(ccw(&rect.vertices()));
        for missing in [
            Corner::UpperLeft,
            Corner::UpperRight,
            Corner::LowerLeft,
            Corner::LowerRight,
        ] {
            let tile = TileTriangle::new(vec2(0.0, 0.0), vec2(1.0, 1.0), missing).unwrap();
            assert!(ccw(&tile.vertices()), "{missing:?}");
            let (a, b) = tile.hypotenuse();
            assert!(((b - a).norm() - 2f32.sqrt()).abs() < 1e-6, "{missing:?}");
        }
    }

    #[test]
    fn bad_boxes_are_errors() {
        assert!(Aabb::new(vec2(1.0, 0.0), vec2(0.0, 1.0)).is_err());
        assert!(Aabb::new(vec2(0.0, 0.0), vec2(1.0, 0.0)).is_err());
        assert!(Aabb::from_center(vec2(0.0, 0.0), vec2(-1.0, 1.0)).is_err());
        assert!(OrientedRect::new(vec2(0.0, 0.0), vec2(1.0, 0.0), 0.0).is_err());
        assert!(OrientedRect::new(vec2(0.0, 0.0), vec2(1.0, 1.0), f32::NAN).is_err());
        assert!(TileTriangle::new(vec2(0.0, 0.0), vec2(0.0, 1.0), Corner::UpperLeft).is_err());
    }
}
