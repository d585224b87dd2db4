//! Math aliases over nalgebra (f32) and the [`Pose`] every shape is placed with.
//!
//! Frames: a shape is stored once in its *local* frame; a [`Pose`] maps local
//! points to *world* points as `world = translation + rotation * (scale * local)`.
//! Units are metres and radians, y up, counter-clockwise positive.

/// Scalar type of the engine.
pub type Real = f32;
/// A 2D vector (metres, or metres per second where stated).
pub type Vec2 = nalgebra::Vector2<Real>;
/// A 2D point.
pub type Point2 = nalgebra::Point2<Real>;
/// A 2D rotation stored as a unit complex number.
pub type Rot2 = nalgebra::UnitComplex<Real>;
/// A rigid 2D transform (rotation then translation), without scale.
pub type Iso2 = nalgebra::Isometry2<Real>;

/// Shorthand for `Vec2::new(x, y)`.
#[inline]
pub fn vec2(x: Real, y: Real) -> Vec2 {
    Vec2::new(x, y)
}

/// The vector turned a quarter turn counter-clockwise: `(-y, x)`.
#[inline]
pub fn perp(v: Vec2) -> Vec2 {
    Vec2::new(-v.y, v.x)
}

/// The 2D cross product (z of the 3D cross product): `a.x * b.y - a.y * b.x`.
#[inline]
pub fn cross(a: Vec2, b: Vec2) -> Real {
    a.x * b.y - a.y * b.x
}

/// True when every component is finite (not NaN, not infinite).
#[inline]
pub fn is_finite_vec(v: Vec2) -> bool {
    v.x.is_finite() && v.y.is_finite()
}

/// Where a shape is in the world: rotation, translation and a uniform scale.
///
/// `world = translation + rotation * (scale * local)`. Because the scale is
/// uniform, circles stay circles and convex polygons stay convex, so a shape is
/// never rebuilt when its body is rescaled: changing the scale is O(1).
///
/// The constructors do not validate, so they never fail; [`Pose::validate`]
/// (called by every setter of the world) rejects NaN, infinite values and a
/// scale that is not strictly positive. Queries given an invalid pose never
/// panic, but their answer is unspecified.
///
/// # Examples
/// ```
/// use circlet::math::{Pose, vec2};
/// let pose = Pose::new(vec2(1.0, 2.0), std::f32::consts::FRAC_PI_2).with_scale(2.0);
/// let p = pose.transform_point(vec2(1.0, 0.0));
/// assert!((p - vec2(1.0, 4.0)).norm() < 1e-6);
/// assert!((pose.inverse_transform_point(p) - vec2(1.0, 0.0)).norm() < 1e-6);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Pose {
    /// Rotation applied after scaling, before translation.
    pub rotation: Rot2,
    /// World position of the local origin (metres).
    pub translation: Vec2,
    /// Uniform scale factor (> 0).
    pub scale: Real,
}

impl Default for Pose {
    fn default() -> Self {
        Self::IDENTITY
    }
}

impl Pose {
    /// The identity pose: no rotation, no translation, scale 1.
    pub const IDENTITY: Pose = Pose {
        rotation: Rot2::new_unchecked(nalgebra::Complex { re: 1.0, im: 0.0 }),
        translation: Vec2::new(0.0, 0.0),
        scale: 1.0,
    };

    /// A pose at `translation`, turned by `angle` radians counter-clockwise, scale 1.
    pub fn new(translation: Vec2, angle: Real) -> Self {
        Pose {
            rotation: Rot2::new(angle),
            translation,
            scale: 1.0,
        }
    }

    /// A pose that only translates.
    pub fn from_translation(translation: Vec2) -> Self {
        Pose {
            translation,
            ..Self::IDENTITY
        }
    }

    /// This pose with its uniform scale replaced by `scale`.
    pub fn with_scale(mut self, scale: Real) -> Self {
        self.scale = scale;
        self
    }

    /// Rotation angle in radians, in (-pi, pi].
    pub fn angle(&self) -> Real {
        self.rotation.angle()
    }

    /// Checks that every component is finite and the scale is strictly positive.
    ///
    /// # Errors
    /// [`PoseError`] naming the offending field.
    pub fn validate(&self) -> Result<(), PoseError> {
        if !is_finite_vec(self.translation) {
            return Err(PoseError::NonFinite {
                field: "translation",
            });
        }
        let c = self.rotation.complex();
        if !(c.re.is_finite() && c.im.is_finite()) {
            return Err(PoseError::NonFinite { field: "rotation" });
        }
        if !self.scale.is_finite() {
            return Err(PoseError::NonFinite { field: "scale" });
        }
        if self.scale <= 0.0 {
            return Err(PoseError::NonPositiveScale { scale: self.scale });
        }
        Ok(())
    }

    /// Maps a local point to world coordinates.
    #[inline]
    pub fn transform_point(&self, local: Vec2) -> Vec2 {
        self.translation + self.rotation * (local * self.scale)
    }

    /// Maps a local direction or offset to world (rotated and scaled, not translated).
    #[inline]
    pub fn transform_vector(&self, local: Vec2) -> Vec2 {
        self.rotation * (local * self.scale)
    }

    /// Rotates a local unit direction into world (no scale), e.g. a normal.
    #[inline]
    pub fn rotate(&self, local: Vec2) -> Vec2 {
        self.rotation * local
    }

    /// Maps a world point to local coordinates.
    #[inline]
    pub fn inverse_transform_point(&self, world: Vec2) -> Vec2 {
        self.rotation
            .inverse_transform_vector(&(world - self.translation))
            / self.scale
    }

    /// Maps a world direction or offset to local (unrotated and unscaled).
    #[inline]
    pub fn inverse_transform_vector(&self, world: Vec2) -> Vec2 {
        self.rotation.inverse_transform_vector(&world) / self.scale
    }

    /// Rotates a world unit direction into local (no scale).
    #[inline]
    pub fn inverse_rotate(&self, world: Vec2) -> Vec2 {
        self.rotation.inverse_transform_vector(&world)
    }

    /// The pose `self ∘ inner`: first `inner`, then `self`.
    pub fn compose(&self, inner: &Pose) -> Pose {
        Pose {
            rotation: self.rotation * inner.rotation,
            translation: self.transform_point(inner.translation),
            scale: self.scale * inner.scale,
        }
    }

    /// The inverse pose: `inverse().transform_point(transform_point(p)) == p`.
    pub fn inverse(&self) -> Pose {
        let rotation = self.rotation.inverse();
        let scale = 1.0 / self.scale;
        Pose {
            rotation,
            translation: -(rotation * self.translation) * scale,
            scale,
        }
    }

    /// Scales a local length to world.
    #[inline]
    pub fn scale_length(&self, local: Real) -> Real {
        local * self.scale
    }
}

/// A [`Pose`] that cannot be used.
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
pub enum PoseError {
    /// A field holds NaN or an infinite value.
    #[error("pose {field} is not finite")]
    NonFinite {
        /// `translation`, `rotation` or `scale`.
        field: &'static str,
    },
    /// The scale is zero or negative.
    #[error("pose scale must be > 0, got {scale}")]
    NonPositiveScale {
        /// The rejected scale.
        scale: Real,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compose_and_inverse_round_trip() {
        let a = Pose::new(vec2(1.0, -2.0), 0.7).with_scale(1.5);
        let b = Pose::new(vec2(-3.0, 0.5), -1.1).with_scale(0.4);
        let p = vec2(0.3, 0.9);
        let ab = a.compose(&b);
        assert!((ab.transform_point(p) - a.transform_point(b.transform_point(p))).norm() < 1e-5);
        let inv = a.inverse();
        assert!((inv.transform_point(a.transform_point(p)) - p).norm() < 1e-5);
    }

    #[test]
    fn validate_rejects_bad_scale_and_nan() {
        assert!(Pose::IDENTITY.validate().is_ok());
        assert!(Pose::IDENTITY.with_scale(0.0).validate().is_err());
        assert!(Pose::IDENTITY.with_scale(-1.0).validate().is_err());
        assert!(
            Pose::from_translation(vec2(f32::NAN, 0.0))
                .validate()
                .is_err()
        );
    }
}
