//! Round contacts: the scalar solver of a constraint whose two sides are
//! round (see `ContactConstraint::round`), a circle centred on its body's
//! centre of mass or a body that does not move in the step.
//!
//! A round side's anchor lies along the normal, `r = arm · n`, so:
//! - the normal has no angular part: `r × n = 0`, and a normal impulse
//!   changes only linear velocities;
//! - the separation follows the centres alone, `s = (Δp_B − Δp_A)·n − depth`:
//!   a circle turning about its centre keeps its surface where it was,
//!   where rotating the anchor (as for any other shape) would open a gap
//!   of `arm·(1 − cos θ)` that is not there;
//! - along the tangent `t = (n.y, −n.x)` the anchor's velocity is
//!   `v·t − ω·arm`, and a tangent impulse `λ` turns the body by
//!   `−I⁻¹·arm·λ` (B) or `+I⁻¹·arm·λ` (A, which takes `−λ`).
//!
//! Invariants: the lane solver's round batches compute exactly these
//! formulas in this order; bodies that cannot move are never written.

use super::contact_solver::{
    ContactConstraint, ContactSettings, PairVelocities, SolverBody, bias_terms,
};
use super::softness::Softness;
use crate::math::Real;

/// Applies the stored impulses of round constraint `c`.
pub(super) fn warm_start_round(bodies: &mut [SolverBody], c: &ContactConstraint) {
    let (nx, ny) = (c.normal.x, c.normal.y);
    let mut pair = PairVelocities::load(bodies, c);
    let [inv_inertia_a, inv_inertia_b] = pair.inv_inertia;
    let (a, b) = (&mut pair.a, &mut pair.b);
    for p in &c.points {
        let jx = nx * p.normal_impulse + ny * p.tangent_impulse;
        let jy = ny * p.normal_impulse - nx * p.tangent_impulse;
        push_linear(a, b, jx, jy);
        a.angular_velocity += inv_inertia_a * (p.arm_a * p.tangent_impulse);
        b.angular_velocity -= inv_inertia_b * (p.arm_b * p.tangent_impulse);
    }
    pair.store(bodies, c);
}

/// One pass over round constraint `c` with its `softness` (see
/// `solve_constraint`).
pub(super) fn solve_round(
    bodies: &mut [SolverBody],
    c: &mut ContactConstraint,
    settings: &ContactSettings,
    softness: Softness,
    inv_h: Real,
    use_bias: bool,
) {
    let (nx, ny) = (c.normal.x, c.normal.y);
    let mut pair = PairVelocities::load(bodies, c);
    let [inv_inertia_a, inv_inertia_b] = pair.inv_inertia;
    let (a, b) = (&mut pair.a, &mut pair.b);
    for p in c.points.iter_mut() {
        let separation = (b.delta_position.x - a.delta_position.x) * nx
            + (b.delta_position.y - a.delta_position.y) * ny
            + p.base_separation;
        let (bias, mass_scale, impulse_scale) =
            bias_terms(separation, &softness, settings, inv_h, use_bias);
        let normal_speed = relative_speed(a, b, nx, ny);
        let impulse = -(p.normal_mass * mass_scale * (normal_speed + bias))
            - impulse_scale * p.normal_impulse;
        let accumulated = (p.normal_impulse + impulse).max(0.0);
        let applied = accumulated - p.normal_impulse;
        p.normal_impulse = accumulated;
        p.max_normal_impulse = p.max_normal_impulse.max(applied);
        push_linear(a, b, nx * applied, ny * applied);
    }
    let (tx, ty) = (ny, -nx);
    for p in c.points.iter_mut() {
        let tangent_speed = relative_speed(a, b, tx, ty)
            + (a.angular_velocity * p.arm_a - b.angular_velocity * p.arm_b);
        let impulse = -(p.tangent_mass * tangent_speed);
        let limit = c.friction * p.normal_impulse;
        let accumulated = (p.tangent_impulse + impulse).max(-limit).min(limit);
        let applied = accumulated - p.tangent_impulse;
        p.tangent_impulse = accumulated;
        push_linear(a, b, tx * applied, ty * applied);
        a.angular_velocity += inv_inertia_a * (p.arm_a * applied);
        b.angular_velocity -= inv_inertia_b * (p.arm_b * applied);
    }
    pair.store(bodies, c);
}

/// Restitution of round constraint `c` (see `apply_restitution`).
pub(super) fn restitution_round(
    bodies: &mut [SolverBody],
    c: &mut ContactConstraint,
    settings: &ContactSettings,
) {
    let (nx, ny) = (c.normal.x, c.normal.y);
    let mut pair = PairVelocities::load(bodies, c);
    let (a, b) = (&mut pair.a, &mut pair.b);
    for p in c.points.iter_mut() {
        if p.relative_velocity > -settings.restitution_threshold || p.max_normal_impulse == 0.0 {
            continue;
        }
        let normal_speed = relative_speed(a, b, nx, ny);
        let impulse = -(p.normal_mass * (normal_speed + c.restitution * p.relative_velocity));
        let accumulated = (p.normal_impulse + impulse).max(0.0);
        let applied = accumulated - p.normal_impulse;
        p.normal_impulse = accumulated;
        p.max_normal_impulse = p.max_normal_impulse.max(applied);
        push_linear(a, b, nx * applied, ny * applied);
    }
    pair.store(bodies, c);
}

/// `(v_B − v_A)·(dx, dy)`: the centres' relative speed along a direction.
#[inline(always)]
fn relative_speed(a: &SolverBody, b: &SolverBody, dx: Real, dy: Real) -> Real {
    (b.linear_velocity.x - a.linear_velocity.x) * dx
        + (b.linear_velocity.y - a.linear_velocity.y) * dy
}

/// Applies the linear part of impulse (`jx`, `jy`) to B and its opposite
/// to A.
#[inline(always)]
fn push_linear(a: &mut SolverBody, b: &mut SolverBody, jx: Real, jy: Real) {
    a.linear_velocity.x -= jx * a.inv_mass;
    a.linear_velocity.y -= jy * a.inv_mass;
    b.linear_velocity.x += jx * b.inv_mass;
    b.linear_velocity.y += jy * b.inv_mass;
}
