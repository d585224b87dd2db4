//! [`Event`]: what happened during a step, drained by the caller.
//!
//! Events name bodies, colliders and projectiles by handle. Handles are plain
//! values: an event stays readable after the object it names was removed, and
//! using such a handle afterwards is answered with `None` or an error.

use super::handles::{BodyHandle, ColliderHandle, ProjectileHandle};
use crate::math::{Real, Vec2};
use crate::shape::PartId;

/// What a projectile did when it hit something.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum HitOutcome {
    /// Passed through (one of its pierce count used); it flies on.
    Pierced,
    /// Bounced off about the hit normal; it flies on.
    Ricocheted,
    /// Stopped in the body and was removed.
    Stopped,
}

/// Something that happened during a step, in a deterministic order:
/// contact and sensor changes (by collider pair), continuous-collision sensor
/// crossings, projectile hits and expiries (by projectile handle, then time),
/// then sleep changes (by body handle).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Event {
    /// Two solid colliders started touching.
    Began(ColliderHandle, ColliderHandle),
    /// Two solid colliders stopped touching.
    Ended(ColliderHandle, ColliderHandle),
    /// A collider entered a sensor: (sensor, visitor).
    SensorEntered(ColliderHandle, ColliderHandle),
    /// A collider left a sensor: (sensor, visitor).
    SensorLeft(ColliderHandle, ColliderHandle),
    /// A projectile hit a body.
    ProjectileHit {
        /// The projectile.
        projectile: ProjectileHandle,
        /// The body hit.
        body: BodyHandle,
        /// The collider hit.
        collider: ColliderHandle,
        /// The part of a circle tree that was hit; `None` for plain shapes.
        part: Option<PartId>,
        /// World point on the body's surface at the moment of the hit (metres).
        point: Vec2,
        /// World unit normal of the body's surface there, towards the projectile.
        normal: Vec2,
        /// Fraction of the step at which the hit happened, in `[0, 1]`.
        fraction: Real,
        /// Speed of the projectile relative to the body's surface point (m/s).
        relative_speed: Real,
        /// What the projectile did.
        outcome: HitOutcome,
    },
    /// A projectile reached the end of its lifetime (or left the coordinate
    /// range) and was removed.
    ProjectileExpired(ProjectileHandle),
    /// A body fell asleep.
    Slept(BodyHandle),
    /// A sleeping body woke up.
    Woke(BodyHandle),
}
