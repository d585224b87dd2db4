//! Rigid-body dynamics: the soft-step contact solver and its building blocks.
//!
//! This layer works on plain arrays of [`SolverBody`] (with the parallel
//! [`BodyTurn`]s) and [`ContactConstraint`]; the world decides which bodies and contacts take part (islands, sleeping)
//! and in which deterministic order.
//!
//! Building a constraint between indices past the bodies is a
//! [`SolverError`]. A constraint whose public fields were changed to such
//! an index afterwards is still solved without a panic: a side past the
//! bodies stands for a body that does not move (no mass, no inertia, zero
//! velocity) and is never written, in the scalar passes as in the lanes.

mod body_rows;
mod contact_solver;
mod error;
mod integrate;
mod lanes;
mod quad;
mod round;
mod softness;
mod wide;
mod wide_batch;
#[cfg(target_arch = "x86_64")]
mod wide_oct;
mod wide_quad;
mod wide_round;

pub use contact_solver::{
    BodyTurn, ConstraintPoint, ContactConstraint, ContactSettings, ContactSoftness,
    MAX_ROTATION_PER_SUBSTEP, SolverBody, apply_restitution, is_fixed, solve, solve_constraint,
    solved_against_fixed, warm_start, warm_start_constraint,
};
pub use error::SolverError;
pub use integrate::integrate_positions;
pub use softness::Softness;
pub use wide::{COLORS, LANES, LaneRef, NO_COLOR, WideContacts};
