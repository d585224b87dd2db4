//! [`WorldError`]: why a world call was refused, naming the body or field.

use crate::math::PoseError;
use crate::shape::ShapeError;

/// A world call that could not be carried out. The world is unchanged.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum WorldError {
    /// The handle names no live body of this world (removed, or from another world).
    #[error("no such body (removed, or a handle of another world)")]
    StaleBody,
    /// The handle names no live collider of this world.
    #[error("no such collider (removed, or a handle of another world)")]
    StaleCollider,
    /// The handle names no live projectile of this world.
    #[error("no such projectile (expired, removed, or of another world)")]
    StaleProjectile,
    /// A value is NaN or infinite.
    #[error("{field} is not finite")]
    NonFinite {
        /// Which argument or field.
        field: &'static str,
    },
    /// A value that must be > 0 (or ≥ 0) is not.
    #[error("{field} must be {expected}, got {value}")]
    OutOfRange {
        /// Which argument or field.
        field: &'static str,
        /// What was expected, e.g. "> 0" or "in [0, 1]".
        expected: &'static str,
        /// The rejected value.
        value: f32,
    },
    /// A pose is invalid.
    #[error("invalid pose: {0}")]
    Pose(#[from] PoseError),
    /// A shape is invalid.
    #[error("invalid shape: {0}")]
    Shape(#[from] ShapeError),
    /// A ray or shot given to a scene query is unusable, or a collider is
    /// too far out for the cast.
    #[error("cast: {0}")]
    Cast(#[from] crate::query::CastError),
    /// The broadphase refused a query's input.
    #[error("broadphase: {0}")]
    BroadPhase(#[from] crate::broadphase::BroadPhaseError),
    /// The shape cannot be used as a collider (a [`crate::shape::Shape::Line`] is unbounded).
    #[error("a {0} cannot be a collider")]
    UnsupportedShape(&'static str),
}

pub(crate) fn check_finite(field: &'static str, value: f32) -> Result<(), WorldError> {
    if value.is_finite() {
        Ok(())
    } else {
        Err(WorldError::NonFinite { field })
    }
}

pub(crate) fn check_finite_vec(
    field: &'static str,
    v: crate::math::Vec2,
) -> Result<(), WorldError> {
    if crate::math::is_finite_vec(v) {
        Ok(())
    } else {
        Err(WorldError::NonFinite { field })
    }
}

pub(crate) fn check_range(
    field: &'static str,
    value: f32,
    expected: &'static str,
    ok: impl Fn(f32) -> bool,
) -> Result<(), WorldError> {
    check_finite(field, value)?;
    if ok(value) {
        Ok(())
    } else {
        Err(WorldError::OutOfRange {
            field,
            expected,
            value,
        })
    }
}
