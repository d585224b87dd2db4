//! Rigid-body dynamics: the soft-step contact solver and its building blocks.
//!
//! This layer works on plain arrays of [`SolverBody`] and [`ContactConstraint`];
//! the world decides which bodies and contacts take part (islands, sleeping)
//! and in which deterministic order.

mod contact_solver;
mod softness;

pub use contact_solver::{
    ConstraintPoint, ContactConstraint, ContactSettings, ContactSoftness, MAX_ROTATION_PER_SUBSTEP,
    SolverBody, apply_restitution, integrate_positions, solve, warm_start,
};
pub use softness::Softness;
