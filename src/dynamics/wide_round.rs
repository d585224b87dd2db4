//! A batch of round constraints in lanes: [`LANES`] one-point constraints
//! whose sides are both round (see `ContactConstraint::round` and
//! `round.rs`), one per lane.
//!
//! A round point keeps its two arms along the normal instead of two anchor
//! vectors, and needs neither the bodies' rotations nor an angular part
//! along the normal: about half the work of a general one-point lane.
//!
//! Invariants:
//! - every lane computes exactly what `round.rs` computes for its
//!   constraint, given the same body velocities (the same formulas in the
//!   same order);
//! - an empty lane names no constraint (index `u32::MAX`) and body 0 on
//!   both sides, with no inverse mass nor inertia: it reads body 0 (or
//!   the fixed body) and is never written back nor read out, so neither
//!   what it computes nor the values it may keep from an earlier step
//!   change anything;
//! - bodies that cannot move (inverse mass and inertia 0) are never written.

use super::body_rows::Bodies;
use super::contact_solver::{ConstraintPoint, ContactSoftness};
use super::wide_batch::{LANES, Lane, LaneHead, LaneSoftness, WideBody, ZERO, lane_index};
use crate::math::Real;

/// [`LANES`] round one-point constraints, one per lane.
///
/// Laid out for the passes that stream the batches, on cache lines of
/// 64 bytes: warm starting reads the first six lines, solving the first
/// nine; the values only restitution and the impulses' hand-back read come
/// last.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(64))]
pub(super) struct RoundBatch {
    // Warm starting and solving.
    body_a: [u32; LANES],
    body_b: [u32; LANES],
    normal_x: Lane,
    normal_y: Lane,
    inv_inertia_a: Lane,
    inv_inertia_b: Lane,
    /// The anchors' offsets along the normal (m).
    arm_a: Lane,
    arm_b: Lane,
    normal_impulse: Lane,
    tangent_impulse: Lane,
    inv_mass_a: Lane,
    inv_mass_b: Lane,
    // Solving.
    friction: Lane,
    base_separation: Lane,
    normal_mass: Lane,
    tangent_mass: Lane,
    max_normal_impulse: Lane,
    // Restitution and the hand-back.
    /// Index of the lane's constraint; `u32::MAX` for an empty lane.
    pub(super) constraint: [u32; LANES],
    restitution: Lane,
    /// Normal relative velocity at the start of the step (restitution).
    relative_velocity: Lane,
}

const _: () = assert!(std::mem::size_of::<RoundBatch>() == 10 * 64);

impl Default for RoundBatch {
    fn default() -> Self {
        RoundBatch {
            body_a: [0; LANES],
            body_b: [0; LANES],
            constraint: [u32::MAX; LANES],
            normal_x: ZERO,
            normal_y: ZERO,
            friction: ZERO,
            restitution: ZERO,
            inv_mass_a: ZERO,
            inv_mass_b: ZERO,
            inv_inertia_a: ZERO,
            inv_inertia_b: ZERO,
            arm_a: ZERO,
            arm_b: ZERO,
            base_separation: ZERO,
            normal_mass: ZERO,
            tangent_mass: ZERO,
            normal_impulse: ZERO,
            tangent_impulse: ZERO,
            max_normal_impulse: ZERO,
            relative_velocity: ZERO,
        }
    }
}

impl super::wide::Lanes for RoundBatch {
    fn forget_lanes(&mut self) {
        self.body_a = [0; LANES];
        self.body_b = [0; LANES];
        self.constraint = [u32::MAX; LANES];
        // Fixed on both sides (see `Batch`).
        self.inv_mass_a = ZERO;
        self.inv_mass_b = ZERO;
        self.inv_inertia_a = ZERO;
        self.inv_inertia_b = ZERO;
    }
}

impl RoundBatch {
    /// Fills `lane` with constraint `index`, of point `p`.
    #[inline]
    pub(super) fn pack(&mut self, lane: usize, index: u32, head: &LaneHead, p: &ConstraintPoint) {
        self.body_a[lane] = lane_index(head.body_a);
        self.body_b[lane] = lane_index(head.body_b);
        self.constraint[lane] = index;
        self.normal_x.0[lane] = head.normal.x;
        self.normal_y.0[lane] = head.normal.y;
        self.friction.0[lane] = head.friction;
        self.restitution.0[lane] = head.restitution;
        self.inv_mass_a.0[lane] = head.inv_mass[0];
        self.inv_mass_b.0[lane] = head.inv_mass[1];
        self.inv_inertia_a.0[lane] = head.inv_inertia[0];
        self.inv_inertia_b.0[lane] = head.inv_inertia[1];
        self.arm_a.0[lane] = p.arm_a;
        self.arm_b.0[lane] = p.arm_b;
        self.base_separation.0[lane] = p.base_separation;
        self.normal_mass.0[lane] = p.normal_mass;
        self.tangent_mass.0[lane] = p.tangent_mass;
        self.normal_impulse.0[lane] = p.normal_impulse;
        self.tangent_impulse.0[lane] = p.tangent_impulse;
        self.max_normal_impulse.0[lane] = p.max_normal_impulse;
        self.relative_velocity.0[lane] = p.relative_velocity;
    }

    /// The bodies of both sides.
    #[inline(always)]
    fn gather<B: Bodies + ?Sized>(&self, bodies: &B) -> (WideBody, WideBody) {
        (
            WideBody::gather(bodies, &self.body_a, self.inv_mass_a, self.inv_inertia_a),
            WideBody::gather(bodies, &self.body_b, self.inv_mass_b, self.inv_inertia_b),
        )
    }

    /// Writes both sides back (only bodies that can move).
    #[inline(always)]
    fn scatter<B: Bodies + ?Sized>(&self, bodies: &mut B, a: &WideBody, b: &WideBody) {
        a.scatter(bodies, &self.body_a);
        b.scatter(bodies, &self.body_b);
    }

    #[inline(always)]
    pub(super) fn warm_start<B: Bodies + ?Sized>(&self, bodies: &mut B) {
        let (mut a, mut b) = self.gather(bodies);
        let (nx, ny) = (self.normal_x, self.normal_y);
        let (normal, tangent) = (self.normal_impulse, self.tangent_impulse);
        let jx = nx * normal + ny * tangent;
        let jy = ny * normal - nx * tangent;
        push_linear(&mut a, &mut b, jx, jy);
        a.w += a.inv_inertia * (self.arm_a * tangent);
        b.w -= b.inv_inertia * (self.arm_b * tangent);
        self.scatter(bodies, &a, &b);
    }

    #[inline(always)]
    pub(super) fn solve<B: Bodies + ?Sized>(
        &mut self,
        bodies: &mut B,
        softness: ContactSoftness,
        max_push: Real,
        inv_h: Real,
        use_bias: bool,
    ) {
        let (mut a, mut b) = self.gather(bodies);
        let (nx, ny) = (self.normal_x, self.normal_y);
        let soft = LaneSoftness::new(&a, &b, softness, max_push, inv_h);
        let separation = (b.dpx - a.dpx) * nx + (b.dpy - a.dpy) * ny + self.base_separation;
        let (bias, mass_scale, impulse_scale) = soft.terms(separation, use_bias);
        let normal_speed = relative_speed(&a, &b, nx, ny);
        let impulse = -(self.normal_mass * mass_scale * (normal_speed + bias))
            - impulse_scale * self.normal_impulse;
        let accumulated = (self.normal_impulse + impulse).max(ZERO);
        let applied = accumulated - self.normal_impulse;
        self.normal_impulse = accumulated;
        self.max_normal_impulse = self.max_normal_impulse.max(applied);
        push_linear(&mut a, &mut b, nx * applied, ny * applied);

        let (tx, ty) = (ny, -nx);
        let tangent_speed = relative_speed(&a, &b, tx, ty) + (a.w * self.arm_a - b.w * self.arm_b);
        let impulse = -(self.tangent_mass * tangent_speed);
        let limit = self.friction * self.normal_impulse;
        let accumulated = (self.tangent_impulse + impulse).max(-limit).min(limit);
        let applied = accumulated - self.tangent_impulse;
        self.tangent_impulse = accumulated;
        push_linear(&mut a, &mut b, tx * applied, ty * applied);
        a.w += a.inv_inertia * (self.arm_a * applied);
        b.w -= b.inv_inertia * (self.arm_b * applied);
        self.scatter(bodies, &a, &b);
    }

    /// Restitution (see `restitution_round`): lanes without restitution, and
    /// points that were not approaching faster than `threshold` or carried
    /// no load, are left exactly as they are.
    pub(super) fn restitution<B: Bodies + ?Sized>(&mut self, bodies: &mut B, threshold: Real) {
        let active = self
            .restitution
            .nonzero()
            .and(self.relative_velocity.le(Lane::splat(-threshold)))
            .and(self.max_normal_impulse.nonzero());
        if !active.any() {
            return;
        }
        let (mut a, mut b) = self.gather(bodies);
        let (nx, ny) = (self.normal_x, self.normal_y);
        let normal_speed = relative_speed(&a, &b, nx, ny);
        let impulse =
            -(self.normal_mass * (normal_speed + self.restitution * self.relative_velocity));
        let accumulated = (self.normal_impulse + impulse).max(ZERO);
        let applied = accumulated - self.normal_impulse;
        self.normal_impulse = active.select(accumulated, self.normal_impulse);
        self.max_normal_impulse = active.select(
            self.max_normal_impulse.max(applied),
            self.max_normal_impulse,
        );
        let (mut a2, mut b2) = (a, b);
        push_linear(&mut a2, &mut b2, nx * applied, ny * applied);
        a.take(active, &a2);
        b.take(active, &b2);
        self.scatter(bodies, &a, &b);
    }

    /// The accumulated impulses (normal, tangent) and largest normal impulse
    /// of `lane`'s point.
    pub(super) fn impulses(&self, lane: usize) -> (Real, Real, Real) {
        (
            self.normal_impulse.0[lane],
            self.tangent_impulse.0[lane],
            self.max_normal_impulse.0[lane],
        )
    }
}

/// `(v_B − v_A)·(dx, dy)` in every lane: the centres' relative speed along
/// a direction.
#[inline(always)]
fn relative_speed(a: &WideBody, b: &WideBody, dx: Lane, dy: Lane) -> Lane {
    (b.vx - a.vx) * dx + (b.vy - a.vy) * dy
}

/// Applies the linear part of impulse (`jx`, `jy`) to B and its opposite
/// to A, in every lane.
#[inline(always)]
fn push_linear(a: &mut WideBody, b: &mut WideBody, jx: Lane, jy: Lane) {
    a.vx -= jx * a.inv_mass;
    a.vy -= jy * a.inv_mass;
    b.vx += jx * b.inv_mass;
    b.vy += jy * b.inv_mass;
}
