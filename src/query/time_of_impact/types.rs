//! [`Motion`], [`Toi`], [`ToiStatus`] and [`ToiError`]: the inputs, output and
//! errors of [`super::time_of_impact`].

use crate::math::{Pose, PoseError, Real, Rot2, Vec2, is_finite_vec};
use crate::shape::{PartId, ShapeKind};

/// Largest accepted displacement per step along each axis (metres). Squares
/// of such lengths stay far inside the f32 range; the design range is ~1e4 m.
pub const MAX_LINEAR_MOTION: Real = 1.0e9;

/// Largest accepted rotation per step (radians). Larger values only make
/// conservative advancement take tiny steps; a million radians per step is
/// already far beyond anything a simulation produces.
pub const MAX_ANGULAR_MOTION: Real = 1.0e6;

/// How a body moves over one step, as a displacement and a rotation.
///
/// Units are **per step**: `linear` is the world displacement of the body
/// origin (the pose's translation) over the whole step in metres, `angular`
/// the rotation about that origin in radians, counter-clockwise. The pose at
/// fraction `t` of the step is given by [`Motion::pose_at`]; use
/// [`Motion::from_velocity`] to convert velocities and a time step.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Motion {
    /// World displacement of the body origin over the step (metres).
    pub linear: Vec2,
    /// Rotation about the body origin over the step (radians, CCW).
    pub angular: Real,
}

impl Motion {
    /// No motion.
    pub const ZERO: Motion = Motion {
        linear: Vec2::new(0.0, 0.0),
        angular: 0.0,
    };

    /// A displacement (metres per step) and a rotation (radians per step).
    pub fn new(linear: Vec2, angular: Real) -> Self {
        Motion { linear, angular }
    }

    /// A pure translation by `linear` metres over the step.
    pub fn linear(linear: Vec2) -> Self {
        Motion {
            linear,
            angular: 0.0,
        }
    }

    /// The motion over a step of `dt` seconds at `linear_velocity` (m/s) and
    /// `angular_velocity` (rad/s).
    pub fn from_velocity(linear_velocity: Vec2, angular_velocity: Real, dt: Real) -> Self {
        Motion {
            linear: linear_velocity * dt,
            angular: angular_velocity * dt,
        }
    }

    /// The pose at `fraction` of the step: translated by `fraction * linear`
    /// and turned by `fraction * angular` about the body origin; scale unchanged.
    pub fn pose_at(&self, pose: &Pose, fraction: Real) -> Pose {
        Pose {
            rotation: Rot2::new(self.angular * fraction) * pose.rotation,
            translation: pose.translation + self.linear * fraction,
            scale: pose.scale,
        }
    }

    /// Checks that the motion is finite and within [`MAX_LINEAR_MOTION`] and
    /// [`MAX_ANGULAR_MOTION`]; `which` names the body in the error.
    pub(crate) fn validate(&self, which: &'static str) -> Result<(), ToiError> {
        if !is_finite_vec(self.linear) {
            return Err(ToiError::NonFiniteMotion {
                which,
                field: "linear",
            });
        }
        if !self.angular.is_finite() {
            return Err(ToiError::NonFiniteMotion {
                which,
                field: "angular",
            });
        }
        if self.linear.abs().max() > MAX_LINEAR_MOTION {
            return Err(ToiError::MotionOutOfRange {
                which,
                field: "linear",
            });
        }
        if self.angular.abs() > MAX_ANGULAR_MOTION {
            return Err(ToiError::MotionOutOfRange {
                which,
                field: "angular",
            });
        }
        Ok(())
    }
}

/// What a [`Toi`] reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ToiStatus {
    /// The shapes first touch at `fraction`: exactly (closed forms, up to f32
    /// rounding) or within the tolerance before it (conservative advancement).
    Touching,
    /// The shapes already overlap or touch at the start of the step;
    /// `fraction` is 0 and the normal is the direction of least penetration.
    OverlappingAtStart,
    /// Conservative advancement reached its iteration cap before converging:
    /// the shapes are apart at `fraction` and at every earlier time, and may
    /// touch soon after. Treat it as a hit at `fraction` (never a miss).
    IterationLimit,
}

/// The first contact of two moving shapes within a step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Toi {
    /// Fraction of the step in `[0, 1]` at which the shapes touch.
    pub fraction: Real,
    /// World unit normal at contact, pointing from shape A to shape B.
    pub normal: Vec2,
    /// World contact point at `fraction` (midway between the two surfaces).
    pub point: Vec2,
    /// Distance between the shapes at `fraction` (metres): 0 for the closed
    /// forms and when overlapping at start, up to the tolerance for
    /// conservative advancement.
    pub separation: Real,
    /// How the answer was reached.
    pub status: ToiStatus,
    /// Conservative advancement steps taken (0 for the closed forms).
    pub iterations: u32,
    /// The part of A that touches (circle trees only).
    pub part_a: Option<PartId>,
    /// The part of B that touches (circle trees only).
    pub part_b: Option<PartId>,
}

impl Toi {
    /// A contact reported by a closed form.
    pub(crate) fn closed_form(
        fraction: Real,
        normal: Vec2,
        point: Vec2,
        status: ToiStatus,
    ) -> Self {
        Toi {
            fraction,
            normal,
            point,
            separation: 0.0,
            status,
            iterations: 0,
            part_a: None,
            part_b: None,
        }
    }

    /// The same contact seen with A and B swapped.
    pub fn flipped(mut self) -> Self {
        self.normal = -self.normal;
        std::mem::swap(&mut self.part_a, &mut self.part_b);
        self
    }

    /// The same contact with its point moved by `offset` (a change of origin).
    pub(crate) fn translated(mut self, offset: Vec2) -> Self {
        self.point += offset;
        self
    }

    pub(crate) fn is_finite(&self) -> bool {
        self.fraction.is_finite()
            && self.separation.is_finite()
            && is_finite_vec(self.normal)
            && is_finite_vec(self.point)
    }
}

/// Input a time-of-impact query cannot use. `which` is `"a"` or `"b"`.
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
pub enum ToiError {
    /// A motion holds NaN or an infinite value.
    #[error("motion of shape {which}: {field} is not finite")]
    NonFiniteMotion {
        /// `"a"` or `"b"`.
        which: &'static str,
        /// `"linear"` or `"angular"`.
        field: &'static str,
    },
    /// A motion is beyond [`MAX_LINEAR_MOTION`] or [`MAX_ANGULAR_MOTION`].
    #[error("motion of shape {which}: {field} is out of range")]
    MotionOutOfRange {
        /// `"a"` or `"b"`.
        which: &'static str,
        /// `"linear"` or `"angular"`.
        field: &'static str,
    },
    /// A pose fails [`Pose::validate`].
    #[error("pose of shape {which}: {source}")]
    InvalidPose {
        /// `"a"` or `"b"`.
        which: &'static str,
        /// What is wrong with it.
        source: PoseError,
    },
    /// The shape kind has no time of impact (an infinite [`crate::shape::Line`]
    /// has no bounding radius and no motion of its own to sweep).
    #[error("shape {which}: no time of impact for {kind:?}")]
    UnsupportedShape {
        /// `"a"` or `"b"`.
        which: &'static str,
        /// Its kind.
        kind: ShapeKind,
    },
    /// A bounding radius or length scale given to
    /// [`super::conservative_advancement`] is negative or not finite.
    #[error("swept body {which}: bounding radius and length scale must be finite and >= 0")]
    InvalidBody {
        /// `"a"` or `"b"`.
        which: &'static str,
    },
    /// The shapes are so large or far out that the computation left the f32
    /// range (far outside the design range of ~1e4 m).
    #[error("time of impact overflowed the f32 range")]
    Overflow,
}
