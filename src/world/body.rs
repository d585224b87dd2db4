//! Bodies: kind, pose, velocities, mass properties and the colliders they own.
//!
//! Frames: `pose` places the body's origin in the world (rotation, translation,
//! uniform scale); `local_center` is the centre of mass in the body frame. The
//! integrator moves the centre of mass and re-derives the origin from it.

use super::handles::ColliderHandle;
use crate::math::{Pose, Real, Vec2};
use smallvec::SmallVec;

/// How a body moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum BodyKind {
    /// Never moves; infinite mass.
    Static,
    /// Moves by its velocity only; pushes dynamic bodies, is not pushed.
    Kinematic,
    /// Moved by gravity, forces and contacts.
    Dynamic,
}

/// Everything needed to create a body. Fields are validated by `World::add_body`.
#[derive(Clone, Debug, PartialEq)]
pub struct BodyDef {
    /// How the body moves.
    pub kind: BodyKind,
    /// Where the body's origin is (world), with its uniform scale.
    pub pose: Pose,
    /// Velocity of the origin at creation (m/s, world).
    pub linear_velocity: Vec2,
    /// Spin (rad/s, counter-clockwise).
    pub angular_velocity: Real,
    /// Multiplies the world's gravity for this body.
    pub gravity_scale: Real,
    /// Linear velocity damping (1/s, ≥ 0).
    pub linear_damping: Real,
    /// Angular velocity damping (1/s, ≥ 0).
    pub angular_damping: Real,
    /// Always swept for continuous collision, at any speed.
    pub bullet: bool,
    /// May fall asleep when at rest.
    pub can_sleep: bool,
    /// Caller's data, returned untouched.
    pub user_data: u64,
}

impl BodyDef {
    /// A body of `kind` at `pose`, at rest, with default settings.
    pub fn new(kind: BodyKind, pose: Pose) -> Self {
        BodyDef {
            kind,
            pose,
            linear_velocity: Vec2::zeros(),
            angular_velocity: 0.0,
            gravity_scale: 1.0,
            linear_damping: 0.0,
            angular_damping: 0.0,
            bullet: false,
            can_sleep: true,
            user_data: 0,
        }
    }

    /// A dynamic body at `pose`.
    pub fn dynamic(pose: Pose) -> Self {
        Self::new(BodyKind::Dynamic, pose)
    }

    /// A static body at `pose`.
    pub fn fixed(pose: Pose) -> Self {
        Self::new(BodyKind::Static, pose)
    }

    /// A kinematic body at `pose` (moved by its velocity only).
    pub fn kinematic(pose: Pose) -> Self {
        Self::new(BodyKind::Kinematic, pose)
    }

    /// This definition flagged as a bullet: swept continuously at any speed.
    pub fn bullet(mut self) -> Self {
        self.bullet = true;
        self
    }

    /// This definition with the given initial velocity and spin.
    pub fn with_velocity(mut self, linear: Vec2, angular: Real) -> Self {
        self.linear_velocity = linear;
        self.angular_velocity = angular;
        self
    }
}

/// A body in the world.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Body {
    pub(crate) kind: BodyKind,
    pub(crate) pose: Pose,
    pub(crate) local_center: Vec2,
    pub(crate) linear_velocity: Vec2,
    pub(crate) angular_velocity: Real,
    pub(crate) force: Vec2,
    pub(crate) torque: Real,
    pub(crate) mass: Real,
    pub(crate) inv_mass: Real,
    pub(crate) inertia: Real,
    pub(crate) inv_inertia: Real,
    pub(crate) gravity_scale: Real,
    pub(crate) linear_damping: Real,
    pub(crate) angular_damping: Real,
    pub(crate) bullet: bool,
    pub(crate) can_sleep: bool,
    pub(crate) awake: bool,
    pub(crate) sleep_time: Real,
    pub(crate) user_data: u64,
    /// Inline for the usual one collider: the step's walks over the awake
    /// bodies' colliders then read no memory beyond the body.
    pub(crate) colliders: SmallVec<[ColliderHandle; 1]>,
    /// Thinnest half-size of the solid colliders (m, world, ≥ a slop): a body
    /// moving more than a fraction of it per step is swept continuously.
    pub(crate) min_extent: Real,
    /// Largest distance from the centre of mass to any point of the
    /// colliders (m, world): bounds how fast its points swing when it spins.
    pub(crate) max_extent: Real,
    /// Index in the step's solver arrays (0: not simulated this step).
    /// Rebuilt at every step; not part of the state.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub(crate) solver_index: u32,
    /// Bounds of how far the body has moved (see `motion.rs`); derived,
    /// not part of the state.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub(crate) motion: super::motion::MotionTrack,
    /// How far the body may move before the write-back looks at its
    /// proxies again (see `proxy_keep.rs`); derived, not part of the state.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub(crate) proxy_keep: super::proxy_keep::ProxyKeep,
    /// While asleep: the next body of its sleeping island, a ring through
    /// every member in handle order (see `islands.rs`); `None` while awake.
    /// Derived (rebuilt from the contacts after a restore), not part of the state.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub(crate) sleep_next: Option<super::handles::BodyKey>,
}

impl Body {
    pub(crate) fn from_def(def: &BodyDef) -> Body {
        Body {
            kind: def.kind,
            pose: def.pose,
            local_center: Vec2::zeros(),
            linear_velocity: def.linear_velocity,
            angular_velocity: def.angular_velocity,
            force: Vec2::zeros(),
            torque: 0.0,
            mass: 0.0,
            inv_mass: 0.0,
            inertia: 0.0,
            inv_inertia: 0.0,
            gravity_scale: def.gravity_scale,
            linear_damping: def.linear_damping,
            angular_damping: def.angular_damping,
            bullet: def.bullet,
            can_sleep: def.can_sleep,
            awake: def.kind != BodyKind::Static,
            sleep_time: 0.0,
            user_data: def.user_data,
            colliders: SmallVec::new(),
            min_extent: super::settings::LINEAR_SLOP,
            max_extent: 0.0,
            solver_index: 0,
            motion: super::motion::MotionTrack::new(def.pose),
            proxy_keep: super::proxy_keep::ProxyKeep::NONE,
            sleep_next: None,
        }
    }

    /// How the body moves.
    pub fn kind(&self) -> BodyKind {
        self.kind
    }

    /// Pose of the body origin (world), including its uniform scale.
    pub fn pose(&self) -> Pose {
        self.pose
    }

    /// Centre of mass (world, metres).
    pub fn center_of_mass(&self) -> Vec2 {
        self.pose.transform_point(self.local_center)
    }

    /// Velocity of the centre of mass (m/s, world).
    pub fn linear_velocity(&self) -> Vec2 {
        self.linear_velocity
    }

    /// Spin (rad/s).
    pub fn angular_velocity(&self) -> Real {
        self.angular_velocity
    }

    /// Mass (kg); 0 for static and kinematic bodies.
    pub fn mass(&self) -> Real {
        self.mass
    }

    /// Rotational inertia about the centre of mass (kg·m²).
    pub fn inertia(&self) -> Real {
        self.inertia
    }

    /// False while the body sleeps.
    pub fn is_awake(&self) -> bool {
        self.awake
    }

    /// Swept for continuous collision at any speed.
    pub fn is_bullet(&self) -> bool {
        self.bullet
    }

    /// The caller's data.
    pub fn user_data(&self) -> u64 {
        self.user_data
    }

    /// Handles of the body's colliders, in the order they were added.
    pub fn colliders(&self) -> &[ColliderHandle] {
        &self.colliders
    }

    /// Kinetic energy (J).
    pub fn kinetic_energy(&self) -> Real {
        0.5 * self.mass * self.linear_velocity.norm_squared()
            + 0.5 * self.inertia * self.angular_velocity * self.angular_velocity
    }

    /// Thinnest half-size of the solid colliders (m, world); continuous
    /// collision sweeps the body once it moves more than
    /// [`super::CCD_MOTION_FRACTION`] of this in a step.
    pub fn min_extent(&self) -> Real {
        self.min_extent
    }

    /// Largest distance from the centre of mass to any point of the colliders (m, world).
    pub fn max_extent(&self) -> Real {
        self.max_extent
    }

    /// Angle of the body's rotation (radians, counter-clockwise).
    pub fn angle(&self) -> Real {
        self.pose.rotation.angle()
    }

    pub(crate) fn is_dynamic(&self) -> bool {
        self.kind == BodyKind::Dynamic
    }
}
