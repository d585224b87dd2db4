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

use super::contact_solver::{ContactConstraint, ContactSettings, PairVelocities, SolverBody};
use super::softness::Softness;
use crate::math::Real;

/// Applies the stored impulses of round constraint `c`.
pub(super) fn warm_start_round(bodies: &mut [SolverBody], c: &ContactConstraint) {
    let (nx, ny) = (c.normal.x, c.normal.y);
    let mut pair = PairVelocities::load(bodies, c);
    let (a, b) = (&mut pair.a, &mut pair.b);
    for p in &c.points {
        let jx = nx * p.normal_impulse + ny * p.tangent_impulse;
        let jy = ny * p.normal_impulse - nx * p.tangent_impulse;
        a.linear_velocity.x -= jx * a.inv_mass;
        a.linear_velocity.y -= jy * a.inv_mass;
        a.angular_velocity += a.inv_inertia * (p.arm_a * p.tangent_impulse);
        b.linear_velocity.x += jx * b.inv_mass;
        b.linear_velocity.y += jy * b.inv_mass;
        b.angular_velocity -= b.inv_inertia * (p.arm_b * p.tangent_impulse);
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
    let (a, b) = (&mut pair.a, &mut pair.b);
    for p in c.points.iter_mut() {
        let separation = (b.delta_position.x - a.delta_position.x) * nx
            + (b.delta_position.y - a.delta_position.y) * ny
            + p.base_separation;
        let (bias, mass_scale, impulse_scale) = if separation > 0.0 {
            // Speculative: allow closing exactly the gap this substep.
            (separation * inv_h, 1.0, 0.0)
        } else if use_bias {
            (
                (softness.bias_rate * separation).max(-settings.max_push_velocity),
                softness.mass_scale,
                softness.impulse_scale,
            )
        } else {
            (0.0, 1.0, 0.0)
        };
        let normal_speed = (b.linear_velocity.x - a.linear_velocity.x) * nx
            + (b.linear_velocity.y - a.linear_velocity.y) * ny;
        let impulse = -(p.normal_mass * mass_scale * (normal_speed + bias))
            - impulse_scale * p.normal_impulse;
        let accumulated = (p.normal_impulse + impulse).max(0.0);
        let applied = accumulated - p.normal_impulse;
        p.normal_impulse = accumulated;
        p.max_normal_impulse = p.max_normal_impulse.max(applied);
        let (jx, jy) = (nx * applied, ny * applied);
        a.linear_velocity.x -= jx * a.inv_mass;
        a.linear_velocity.y -= jy * a.inv_mass;
        b.linear_velocity.x += jx * b.inv_mass;
        b.linear_velocity.y += jy * b.inv_mass;
    }
    let (tx, ty) = (ny, -nx);
    for p in c.points.iter_mut() {
        let tangent_speed = ((b.linear_velocity.x - a.linear_velocity.x) * tx
            + (b.linear_velocity.y - a.linear_velocity.y) * ty)
            + (a.angular_velocity * p.arm_a - b.angular_velocity * p.arm_b);
        let impulse = -(p.tangent_mass * tangent_speed);
        let limit = c.friction * p.normal_impulse;
        let accumulated = (p.tangent_impulse + impulse).max(-limit).min(limit);
        let applied = accumulated - p.tangent_impulse;
        p.tangent_impulse = accumulated;
        let (jx, jy) = (tx * applied, ty * applied);
        a.linear_velocity.x -= jx * a.inv_mass;
        a.linear_velocity.y -= jy * a.inv_mass;
        a.angular_velocity += a.inv_inertia * (p.arm_a * applied);
        b.linear_velocity.x += jx * b.inv_mass;
        b.linear_velocity.y += jy * b.inv_mass;
        b.angular_velocity -= b.inv_inertia * (p.arm_b * applied);
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
        let normal_speed = (b.linear_velocity.x - a.linear_velocity.x) * nx
            + (b.linear_velocity.y - a.linear_velocity.y) * ny;
        let impulse = -(p.normal_mass * (normal_speed + c.restitution * p.relative_velocity));
        let accumulated = (p.normal_impulse + impulse).max(0.0);
        let applied = accumulated - p.normal_impulse;
        p.normal_impulse = accumulated;
        p.max_normal_impulse = p.max_normal_impulse.max(applied);
        let (jx, jy) = (nx * applied, ny * applied);
        a.linear_velocity.x -= jx * a.inv_mass;
        a.linear_velocity.y -= jy * a.inv_mass;
        b.linear_velocity.x += jx * b.inv_mass;
        b.linear_velocity.y += jy * b.inv_mass;
    }
    pair.store(bodies, c);
}
