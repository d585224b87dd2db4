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
//! - a lane's inverse masses are those of its bodies' velocity rows, which
//!   the passes gather anyway (a general batch copies the same values, see
//!   `LaneHead`): the batch keeps no copy, so its passes read one cache
//!   line fewer of it;
//! - an empty lane names no constraint (index `u32::MAX`) and body 0 on
//!   both sides, with a negative inverse inertia ([`EMPTY_INERTIA`]) on
//!   both: it reads body 0 (or the fixed body), which may be a body that
//!   moves, and is never written back (the negative inertia says so) nor
//!   read out, so neither what it computes nor the values it may keep from
//!   an earlier step change anything;
//! - bodies that cannot move (inverse mass and inertia 0) are never written.

use super::body_rows::Bodies;
use super::contact_solver::ConstraintPoint;
use super::quad::Quad;
use super::wide_batch::{LANES, Lane, LaneHead, ZERO, lane_index};
use super::wide_quad::{QuadBody, QuadSoftness};
use crate::math::Real;

#[cfg(target_arch = "x86_64")]
#[path = "wide_round_avx.rs"]
mod avx;

/// The inverse inertia of both sides of an empty lane: no real side has a
/// negative one (see the module docs).
const EMPTY_INERTIA: Lane = super::lanes::F8([-1.0; LANES]);

/// [`LANES`] round one-point constraints, one per lane.
///
/// Laid out for the passes that stream the batches, on cache lines of
/// 64 bytes: warm starting reads the first five lines, solving the first
/// eight; the values only restitution and the impulses' hand-back read
/// come last.
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

const _: () = assert!(std::mem::size_of::<RoundBatch>() == 9 * 64);

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
            inv_inertia_a: EMPTY_INERTIA,
            inv_inertia_b: EMPTY_INERTIA,
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
        // Never written back (see the module docs).
        self.inv_inertia_a = EMPTY_INERTIA;
        self.inv_inertia_b = EMPTY_INERTIA;
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

    #[inline(always)]
    pub(super) fn warm_start<B: Bodies + ?Sized>(&self, bodies: &mut B) {
        for h in 0..2 {
            self.warm_start_half(bodies, h);
        }
    }

    /// Warm starts lanes `4 h .. 4 h + 4`.
    #[inline(always)]
    fn warm_start_half<B: Bodies + ?Sized>(&self, bodies: &mut B, h: usize) {
        let (mut a, mut b) = self.gather(bodies, h);
        let (nx, ny) = (half(&self.normal_x, h), half(&self.normal_y, h));
        let normal = half(&self.normal_impulse, h);
        let tangent = half(&self.tangent_impulse, h);
        let jx = nx * normal + ny * tangent;
        let jy = ny * normal - nx * tangent;
        push_linear(&mut a, &mut b, jx, jy);
        a.w += a.inv_inertia * (half(&self.arm_a, h) * tangent);
        b.w -= b.inv_inertia * (half(&self.arm_b, h) * tangent);
        self.scatter(bodies, h, &a, &b);
    }

    #[inline(always)]
    pub(super) fn solve<const BIAS: bool, B: Bodies + ?Sized>(
        &mut self,
        bodies: &mut B,
        soft: &QuadSoftness,
    ) {
        for h in 0..2 {
            self.solve_half::<BIAS, B>(bodies, h, soft);
        }
    }

    /// Solves lanes `4 h .. 4 h + 4`.
    #[inline(always)]
    fn solve_half<const BIAS: bool, B: Bodies + ?Sized>(
        &mut self,
        bodies: &mut B,
        h: usize,
        soft: &QuadSoftness,
    ) {
        let (mut a, mut b) = self.gather(bodies, h);
        let (nx, ny) = (half(&self.normal_x, h), half(&self.normal_y, h));
        let (arm_a, arm_b) = (half(&self.arm_a, h), half(&self.arm_b, h));
        let separation =
            (b.dpx - a.dpx) * nx + (b.dpy - a.dpy) * ny + half(&self.base_separation, h);
        let sides = BIAS.then(|| soft.sides(&a, &b));
        let (bias, mass_scale, impulse_scale) = soft.terms(sides.as_ref(), separation);
        let normal_speed = relative_speed(&a, &b, nx, ny);
        let normal_impulse = half(&self.normal_impulse, h);
        let impulse = -(half(&self.normal_mass, h) * mass_scale * (normal_speed + bias))
            - impulse_scale * normal_impulse;
        let accumulated = (normal_impulse + impulse).max(Quad::zero());
        let applied = accumulated - normal_impulse;
        accumulated.put(&mut self.normal_impulse, h);
        half(&self.max_normal_impulse, h)
            .max(applied)
            .put(&mut self.max_normal_impulse, h);
        push_linear(&mut a, &mut b, nx * applied, ny * applied);

        let (tx, ty) = (ny, -nx);
        let tangent_speed = relative_speed(&a, &b, tx, ty) + (a.w * arm_a - b.w * arm_b);
        let impulse = -(half(&self.tangent_mass, h) * tangent_speed);
        let limit = half(&self.friction, h) * accumulated;
        let tangent_impulse = half(&self.tangent_impulse, h);
        let accumulated = (tangent_impulse + impulse).max(-limit).min(limit);
        let applied = accumulated - tangent_impulse;
        accumulated.put(&mut self.tangent_impulse, h);
        push_linear(&mut a, &mut b, tx * applied, ty * applied);
        a.w += a.inv_inertia * (arm_a * applied);
        b.w -= b.inv_inertia * (arm_b * applied);
        self.scatter(bodies, h, &a, &b);
    }

    /// Restitution (see `restitution_round`): lanes without restitution, and
    /// points that were not approaching faster than `threshold` or carried
    /// no load, are left exactly as they are.
    pub(super) fn restitution<B: Bodies + ?Sized>(&mut self, bodies: &mut B, threshold: Real) {
        for h in 0..2 {
            self.restitution_half(bodies, h, threshold);
        }
    }

    /// Restitution of lanes `4 h .. 4 h + 4`.
    #[inline(always)]
    fn restitution_half<B: Bodies + ?Sized>(&mut self, bodies: &mut B, h: usize, threshold: Real) {
        let max_normal_impulse = half(&self.max_normal_impulse, h);
        let relative_velocity = half(&self.relative_velocity, h);
        let restitution = half(&self.restitution, h);
        let active = restitution
            .nonzero()
            .and(relative_velocity.le(Quad::splat(-threshold)))
            .and(max_normal_impulse.nonzero());
        if !active.any() {
            return;
        }
        let (mut a, mut b) = self.gather(bodies, h);
        let (nx, ny) = (half(&self.normal_x, h), half(&self.normal_y, h));
        let normal_speed = relative_speed(&a, &b, nx, ny);
        let normal_impulse = half(&self.normal_impulse, h);
        let impulse =
            -(half(&self.normal_mass, h) * (normal_speed + restitution * relative_velocity));
        let accumulated = (normal_impulse + impulse).max(Quad::zero());
        let applied = accumulated - normal_impulse;
        active
            .select(accumulated, normal_impulse)
            .put(&mut self.normal_impulse, h);
        active
            .select(max_normal_impulse.max(applied), max_normal_impulse)
            .put(&mut self.max_normal_impulse, h);
        let (mut a2, mut b2) = (a, b);
        push_linear(&mut a2, &mut b2, nx * applied, ny * applied);
        a.take(active, &a2);
        b.take(active, &b2);
        self.scatter(bodies, h, &a, &b);
    }

    /// The bodies of both sides in lanes `4 h .. 4 h + 4`.
    #[inline(always)]
    fn gather<B: Bodies + ?Sized>(&self, bodies: &B, h: usize) -> (QuadBody, QuadBody) {
        (
            QuadBody::gather(bodies, &self.body_a, h, None, &self.inv_inertia_a),
            QuadBody::gather(bodies, &self.body_b, h, None, &self.inv_inertia_b),
        )
    }

    /// Writes both sides of lanes `4 h .. 4 h + 4` back (only bodies that
    /// can move).
    #[inline(always)]
    fn scatter<B: Bodies + ?Sized>(&self, bodies: &mut B, h: usize, a: &QuadBody, b: &QuadBody) {
        a.scatter(bodies, &self.body_a, h);
        b.scatter(bodies, &self.body_b, h);
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

/// Lanes `4 h .. 4 h + 4` of `lanes`.
#[inline(always)]
fn half(lanes: &Lane, h: usize) -> Quad {
    Quad::half(lanes, h)
}

/// `(v_B − v_A)·(dx, dy)` in every lane: the centres' relative speed along
/// a direction.
#[inline(always)]
fn relative_speed(a: &QuadBody, b: &QuadBody, dx: Quad, dy: Quad) -> Quad {
    (b.vx - a.vx) * dx + (b.vy - a.vy) * dy
}

/// Applies the linear part of impulse (`jx`, `jy`) to B and its opposite
/// to A, in every lane.
#[inline(always)]
fn push_linear(a: &mut QuadBody, b: &mut QuadBody, jx: Quad, jy: Quad) {
    a.vx -= jx * a.inv_mass;
    a.vy -= jy * a.inv_mass;
    b.vx += jx * b.inv_mass;
    b.vy += jy * b.inv_mass;
}
