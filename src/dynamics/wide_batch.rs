//! One batch of the lane solver: [`LANES`] constraints of up to `P` points,
//! one per lane, with the body velocities gathered into lanes while a batch
//! is solved, four lanes at a time (see `wide_quad.rs`).
//!
//! Invariants:
//! - every lane computes exactly what the scalar `solve_constraint`,
//!   `warm_start_constraint` and `apply_restitution` compute for its
//!   constraint, given the same body velocities (the same formulas in the
//!   same order);
//! - an empty lane names no constraint (index `u32::MAX`) and body 0 on
//!   both sides, with no inverse mass nor inertia: it reads body 0 (or
//!   the fixed body, when there are no bodies) and is never written back
//!   nor read out, so neither what it computes nor the values it may keep
//!   from an earlier step change anything (see `wide.rs`);
//! - a point a lane's constraint does not have has zero mass and no
//!   impulse, and changes nothing;
//! - bodies that cannot move (inverse mass and inertia 0) are never written.

use super::body_rows::Bodies;
use super::contact_solver::{ConstraintPoint, ContactConstraint, SolverBody};
use super::lanes::F8;
use super::quad::Quad;
use super::wide_quad::{QuadBody, QuadSoftness};
use crate::math::{Real, Vec2};

#[cfg(target_arch = "x86_64")]
#[path = "wide_batch_avx.rs"]
mod avx;

/// Constraints solved side by side: two SSE registers of four (the baseline
/// of every x86-64 and aarch64 machine), whose chains of dependent
/// operations the processor overlaps, or one AVX register of eight where
/// the processor has AVX (`wide_oct.rs`).
pub const LANES: usize = 8;

pub(super) type Lane = F8;

pub(super) const ZERO: Lane = Lane::ZERO;

/// One contact point in every lane (world frame, see `ConstraintPoint`).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct WidePoint {
    anchor_a_x: Lane,
    anchor_a_y: Lane,
    anchor_b_x: Lane,
    anchor_b_y: Lane,
    base_separation: Lane,
    normal_mass: Lane,
    tangent_mass: Lane,
    pub(super) normal_impulse: Lane,
    pub(super) tangent_impulse: Lane,
    pub(super) max_normal_impulse: Lane,
    /// Normal relative velocity at the start of the step (restitution).
    relative_velocity: Lane,
}

impl WidePoint {
    /// This point with every value of `lane` zero.
    #[inline]
    fn without_lane(mut self, lane: usize) -> WidePoint {
        for values in [
            &mut self.anchor_a_x,
            &mut self.anchor_a_y,
            &mut self.anchor_b_x,
            &mut self.anchor_b_y,
            &mut self.base_separation,
            &mut self.normal_mass,
            &mut self.tangent_mass,
            &mut self.normal_impulse,
            &mut self.tangent_impulse,
            &mut self.max_normal_impulse,
            &mut self.relative_velocity,
        ] {
            values.0[lane] = 0.0;
        }
        self
    }
}

/// The per-constraint values of a lane, shared by its points.
#[derive(Clone, Copy, Debug)]
pub(super) struct LaneHead {
    /// Index of body A in the solver bodies.
    pub body_a: usize,
    /// Index of body B in the solver bodies.
    pub body_b: usize,
    /// Unit normal from A to B (world).
    pub normal: Vec2,
    /// Coulomb friction coefficient.
    pub friction: Real,
    /// Restitution in [0, 1].
    pub restitution: Real,
    /// The inverse masses of bodies A and B (1/kg).
    pub inv_mass: [Real; 2],
    /// The inverse rotational inertias of bodies A and B (1/(kg·m²)).
    pub inv_inertia: [Real; 2],
}

/// [`LANES`] constraints of up to `P` points each, one per lane.
#[derive(Clone, Copy, Debug)]
pub(super) struct Batch<const P: usize> {
    body_a: [u32; LANES],
    body_b: [u32; LANES],
    /// Index of the lane's constraint; `u32::MAX` for an empty lane.
    pub(super) constraint: [u32; LANES],
    normal_x: Lane,
    normal_y: Lane,
    friction: Lane,
    restitution: Lane,
    inv_mass_a: Lane,
    inv_mass_b: Lane,
    inv_inertia_a: Lane,
    inv_inertia_b: Lane,
    pub(super) points: [WidePoint; P],
}

impl<const P: usize> Default for Batch<P> {
    fn default() -> Self {
        Batch {
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
            points: [WidePoint::default(); P],
        }
    }
}

impl<const P: usize> super::wide::Lanes for Batch<P> {
    fn forget_lanes(&mut self) {
        self.body_a = [0; LANES];
        self.body_b = [0; LANES];
        self.constraint = [u32::MAX; LANES];
        // With no mass nor inertia an empty lane is fixed on both sides,
        // and so never written back.
        self.inv_mass_a = ZERO;
        self.inv_mass_b = ZERO;
        self.inv_inertia_a = ZERO;
        self.inv_inertia_b = ZERO;
    }
}

impl LaneHead {
    /// The shared values of constraint `c` over `bodies` (a side past the
    /// bodies, the fixed body to the lanes, has no mass nor inertia).
    pub(super) fn of(c: &ContactConstraint, bodies: &[SolverBody]) -> Self {
        let inertia = |i: usize, inv_inertia: Real| bodies.get(i).map_or(0.0, |_| inv_inertia);
        let mass = |i: usize| bodies.get(i).map_or(0.0, |body| body.inv_mass);
        LaneHead {
            body_a: c.body_a,
            body_b: c.body_b,
            normal: c.normal,
            friction: c.friction,
            restitution: c.restitution,
            inv_mass: [mass(c.body_a), mass(c.body_b)],
            inv_inertia: [
                inertia(c.body_a, c.inv_inertia[0]),
                inertia(c.body_b, c.inv_inertia[1]),
            ],
        }
    }
}

impl<const P: usize> Batch<P> {
    /// Fills `lane` with constraint `index`'s shared values.
    pub(super) fn pack_head(&mut self, lane: usize, index: u32, head: &LaneHead) {
        self.body_a[lane] = lane_index(head.body_a);
        self.body_b[lane] = lane_index(head.body_b);
        self.constraint[lane] = index;
        self.normal_x.0[lane] = head.normal.x;
        self.normal_y.0[lane] = head.normal.y;
        self.friction.0[lane] = head.friction;
        self.restitution.0[lane] = head.restitution;
        // The inverse masses and inertias are stored: an empty lane then
        // has none whatever body it reads, and `solve` picks the softness
        // from both (the stiffer one where a side cannot move).
        self.inv_mass_a.0[lane] = head.inv_mass[0];
        self.inv_mass_b.0[lane] = head.inv_mass[1];
        self.inv_inertia_a.0[lane] = head.inv_inertia[0];
        self.inv_inertia_b.0[lane] = head.inv_inertia[1];
    }

    /// Fills point `k` of `lane`.
    #[inline]
    pub(super) fn pack_point(&mut self, lane: usize, k: usize, p: &ConstraintPoint) {
        let wide = &mut self.points[k];
        wide.anchor_a_x.0[lane] = p.anchor_a.x;
        wide.anchor_a_y.0[lane] = p.anchor_a.y;
        wide.anchor_b_x.0[lane] = p.anchor_b.x;
        wide.anchor_b_y.0[lane] = p.anchor_b.y;
        wide.base_separation.0[lane] = p.base_separation;
        wide.normal_mass.0[lane] = p.normal_mass;
        wide.tangent_mass.0[lane] = p.tangent_mass;
        wide.normal_impulse.0[lane] = p.normal_impulse;
        wide.tangent_impulse.0[lane] = p.tangent_impulse;
        wide.max_normal_impulse.0[lane] = p.max_normal_impulse;
        wide.relative_velocity.0[lane] = p.relative_velocity;
    }

    /// Gives points `from..P` of `lane` zero mass and no impulse: the
    /// points a constraint of fewer than `P` points does not fill.
    #[inline]
    pub(super) fn clear_points_from(&mut self, lane: usize, from: usize) {
        for point in self.points.iter_mut().skip(from) {
            *point = point.without_lane(lane);
        }
    }

    /// Fills `lane` with a whole constraint.
    pub(super) fn pack(
        &mut self,
        lane: usize,
        index: u32,
        c: &ContactConstraint,
        bodies: &[SolverBody],
    ) {
        debug_assert!(c.points.len() <= P);
        // `solve` picks the softness from the bodies' inverse masses and the
        // lane's inverse inertias, as the scalar passes do
        // (`solved_against_fixed`), so it is not stored.
        self.pack_head(lane, index, &LaneHead::of(c, bodies));
        for (k, p) in c.points.iter().enumerate().take(P) {
            self.pack_point(lane, k, p);
        }
        self.clear_points_from(lane, c.points.len());
    }

    /// The bodies of both sides in lanes `4 h .. 4 h + 4`.
    #[inline(always)]
    fn gather<B: Bodies + ?Sized>(&self, bodies: &B, h: usize) -> (QuadBody, QuadBody) {
        (
            QuadBody::gather(
                bodies,
                &self.body_a,
                h,
                Some(&self.inv_mass_a),
                &self.inv_inertia_a,
            ),
            QuadBody::gather(
                bodies,
                &self.body_b,
                h,
                Some(&self.inv_mass_b),
                &self.inv_inertia_b,
            ),
        )
    }

    /// Writes both sides of lanes `4 h .. 4 h + 4` back (only bodies that
    /// can move).
    #[inline(always)]
    fn scatter<B: Bodies + ?Sized>(&self, bodies: &mut B, h: usize, a: &QuadBody, b: &QuadBody) {
        a.scatter(bodies, &self.body_a, h);
        b.scatter(bodies, &self.body_b, h);
    }

    #[inline(always)]
    pub(super) fn warm_start<B: Bodies + ?Sized>(&self, bodies: &mut B) {
        for h in 0..2 {
            let (mut a, mut b) = self.gather(bodies, h);
            let (nx, ny) = (half(&self.normal_x, h), half(&self.normal_y, h));
            for p in &self.points {
                let (normal, tangent) = (half(&p.normal_impulse, h), half(&p.tangent_impulse, h));
                // tangent = -perp(n) = (ny, -nx)
                let jx = nx * normal + ny * tangent;
                let jy = ny * normal - nx * tangent;
                a.pull(half(&p.anchor_a_x, h), half(&p.anchor_a_y, h), jx, jy);
                b.push(half(&p.anchor_b_x, h), half(&p.anchor_b_y, h), jx, jy);
            }
            self.scatter(bodies, h, &a, &b);
        }
    }

    /// One pass of every point of the batch: each point's normal, then each
    /// point's friction, four lanes at a time (see `wide_quad.rs`).
    #[inline(always)]
    pub(super) fn solve<const BIAS: bool, B: Bodies + ?Sized>(
        &mut self,
        bodies: &mut B,
        soft: &QuadSoftness,
    ) {
        if P == 1 {
            for h in 0..2 {
                self.solve_half::<BIAS, B>(bodies, h, soft);
            }
            return;
        }
        self.solve_halves::<BIAS, B>(bodies, soft);
    }

    /// [`Self::solve`] of both halves side by side, row by row: two chains
    /// of dependent operations for the processor to overlap. A half's rows
    /// run one after another through the same velocities, a chain too long
    /// for the processor to start the other half while it waits; the two
    /// halves share no body a lane writes (the colouring), so each sees
    /// exactly the velocities it sees alone.
    #[inline(always)]
    fn solve_halves<const BIAS: bool, B: Bodies + ?Sized>(
        &mut self,
        bodies: &mut B,
        soft: &QuadSoftness,
    ) {
        let (a0, b0) = self.gather(bodies, 0);
        let (a1, b1) = self.gather(bodies, 1);
        let mut a = [a0, a1];
        let mut b = [b0, b1];
        let sides = [
            BIAS.then(|| soft.sides(&a[0], &b[0])),
            BIAS.then(|| soft.sides(&a[1], &b[1])),
        ];
        for p in &mut self.points {
            for h in 0..2 {
                let (nx, ny) = (half(&self.normal_x, h), half(&self.normal_y, h));
                let (a, b) = (&mut a[h], &mut b[h]);
                let (rax, ray) = (half(&p.anchor_a_x, h), half(&p.anchor_a_y, h));
                let (rbx, rby) = (half(&p.anchor_b_x, h), half(&p.anchor_b_y, h));
                let (ax, ay) = a.moved(rax, ray);
                let (bx, by) = b.moved(rbx, rby);
                let separation = (bx - ax) * nx + (by - ay) * ny + half(&p.base_separation, h);
                let (bias, mass_scale, impulse_scale) = soft.terms(sides[h].as_ref(), separation);
                let (vax, vay) = a.point_velocity(rax, ray);
                let (vbx, vby) = b.point_velocity(rbx, rby);
                let normal_speed = (vbx - vax) * nx + (vby - vay) * ny;
                let normal_impulse = half(&p.normal_impulse, h);
                let impulse = -(half(&p.normal_mass, h) * mass_scale * (normal_speed + bias))
                    - impulse_scale * normal_impulse;
                let accumulated = (normal_impulse + impulse).max(Quad::zero());
                let applied = accumulated - normal_impulse;
                accumulated.put(&mut p.normal_impulse, h);
                half(&p.max_normal_impulse, h)
                    .max(applied)
                    .put(&mut p.max_normal_impulse, h);
                let (jx, jy) = (nx * applied, ny * applied);
                a.pull(rax, ray, jx, jy);
                b.push(rbx, rby, jx, jy);
            }
        }
        for p in &mut self.points {
            for h in 0..2 {
                let (tx, ty) = (half(&self.normal_y, h), -half(&self.normal_x, h));
                let friction = half(&self.friction, h);
                let (a, b) = (&mut a[h], &mut b[h]);
                let (rax, ray) = (half(&p.anchor_a_x, h), half(&p.anchor_a_y, h));
                let (rbx, rby) = (half(&p.anchor_b_x, h), half(&p.anchor_b_y, h));
                let (vax, vay) = a.point_velocity(rax, ray);
                let (vbx, vby) = b.point_velocity(rbx, rby);
                let tangent_speed = (vbx - vax) * tx + (vby - vay) * ty;
                let impulse = -(half(&p.tangent_mass, h) * tangent_speed);
                let limit = friction * half(&p.normal_impulse, h);
                let tangent_impulse = half(&p.tangent_impulse, h);
                let accumulated = (tangent_impulse + impulse).max(-limit).min(limit);
                let applied = accumulated - tangent_impulse;
                accumulated.put(&mut p.tangent_impulse, h);
                let (jx, jy) = (tx * applied, ty * applied);
                a.pull(rax, ray, jx, jy);
                b.push(rbx, rby, jx, jy);
            }
        }
        for h in 0..2 {
            self.scatter(bodies, h, &a[h], &b[h]);
        }
    }

    /// [`Self::solve`] of lanes `4 h .. 4 h + 4`.
    #[inline(always)]
    fn solve_half<const BIAS: bool, B: Bodies + ?Sized>(
        &mut self,
        bodies: &mut B,
        h: usize,
        soft: &QuadSoftness,
    ) {
        let (mut a, mut b) = self.gather(bodies, h);
        let sides = BIAS.then(|| soft.sides(&a, &b));
        let (nx, ny) = (half(&self.normal_x, h), half(&self.normal_y, h));
        for p in &mut self.points {
            let (rax, ray) = (half(&p.anchor_a_x, h), half(&p.anchor_a_y, h));
            let (rbx, rby) = (half(&p.anchor_b_x, h), half(&p.anchor_b_y, h));
            // Current separation from the body deltas within the step.
            let (ax, ay) = a.moved(rax, ray);
            let (bx, by) = b.moved(rbx, rby);
            let separation = (bx - ax) * nx + (by - ay) * ny + half(&p.base_separation, h);
            // Speculative (apart): allow closing exactly the gap this substep.
            let (bias, mass_scale, impulse_scale) = soft.terms(sides.as_ref(), separation);
            let (vax, vay) = a.point_velocity(rax, ray);
            let (vbx, vby) = b.point_velocity(rbx, rby);
            let normal_speed = (vbx - vax) * nx + (vby - vay) * ny;
            let normal_impulse = half(&p.normal_impulse, h);
            let impulse = -(half(&p.normal_mass, h) * mass_scale * (normal_speed + bias))
                - impulse_scale * normal_impulse;
            let accumulated = (normal_impulse + impulse).max(Quad::zero());
            let applied = accumulated - normal_impulse;
            accumulated.put(&mut p.normal_impulse, h);
            half(&p.max_normal_impulse, h)
                .max(applied)
                .put(&mut p.max_normal_impulse, h);
            let (jx, jy) = (nx * applied, ny * applied);
            a.pull(rax, ray, jx, jy);
            b.push(rbx, rby, jx, jy);
        }
        let (tx, ty) = (ny, -nx);
        let friction = half(&self.friction, h);
        for p in &mut self.points {
            let (rax, ray) = (half(&p.anchor_a_x, h), half(&p.anchor_a_y, h));
            let (rbx, rby) = (half(&p.anchor_b_x, h), half(&p.anchor_b_y, h));
            let (vax, vay) = a.point_velocity(rax, ray);
            let (vbx, vby) = b.point_velocity(rbx, rby);
            let tangent_speed = (vbx - vax) * tx + (vby - vay) * ty;
            let impulse = -(half(&p.tangent_mass, h) * tangent_speed);
            let limit = friction * half(&p.normal_impulse, h);
            let tangent_impulse = half(&p.tangent_impulse, h);
            let accumulated = (tangent_impulse + impulse).max(-limit).min(limit);
            let applied = accumulated - tangent_impulse;
            accumulated.put(&mut p.tangent_impulse, h);
            let (jx, jy) = (tx * applied, ty * applied);
            a.pull(rax, ray, jx, jy);
            b.push(rbx, rby, jx, jy);
        }
        self.scatter(bodies, h, &a, &b);
    }

    /// Restitution (see `apply_restitution`): lanes without restitution, and
    /// points that were not approaching faster than `threshold` or carried
    /// no load, are left exactly as they are.
    pub(super) fn restitution<B: Bodies + ?Sized>(&mut self, bodies: &mut B, threshold: Real) {
        for h in 0..2 {
            self.restitution_half(bodies, h, threshold);
        }
    }

    /// [`Self::restitution`] of lanes `4 h .. 4 h + 4`.
    #[inline(always)]
    fn restitution_half<B: Bodies + ?Sized>(&mut self, bodies: &mut B, h: usize, threshold: Real) {
        let restitution = half(&self.restitution, h);
        let bouncy = restitution.nonzero();
        if !bouncy.any() {
            return;
        }
        let (mut a, mut b) = self.gather(bodies, h);
        let (nx, ny) = (half(&self.normal_x, h), half(&self.normal_y, h));
        let threshold = Quad::splat(-threshold);
        let mut moved = false;
        for p in &mut self.points {
            let relative_velocity = half(&p.relative_velocity, h);
            let max_normal_impulse = half(&p.max_normal_impulse, h);
            let active = bouncy
                .and(relative_velocity.le(threshold))
                .and(max_normal_impulse.nonzero());
            if !active.any() {
                continue;
            }
            moved = true;
            let (rax, ray) = (half(&p.anchor_a_x, h), half(&p.anchor_a_y, h));
            let (rbx, rby) = (half(&p.anchor_b_x, h), half(&p.anchor_b_y, h));
            let (vax, vay) = a.point_velocity(rax, ray);
            let (vbx, vby) = b.point_velocity(rbx, rby);
            let normal_speed = (vbx - vax) * nx + (vby - vay) * ny;
            let normal_impulse = half(&p.normal_impulse, h);
            let impulse =
                -(half(&p.normal_mass, h) * (normal_speed + restitution * relative_velocity));
            let accumulated = (normal_impulse + impulse).max(Quad::zero());
            let applied = accumulated - normal_impulse;
            active
                .select(accumulated, normal_impulse)
                .put(&mut p.normal_impulse, h);
            active
                .select(max_normal_impulse.max(applied), max_normal_impulse)
                .put(&mut p.max_normal_impulse, h);
            let (jx, jy) = (nx * applied, ny * applied);
            let (mut a2, mut b2) = (a, b);
            a2.pull(rax, ray, jx, jy);
            b2.push(rbx, rby, jx, jy);
            a.take(active, &a2);
            b.take(active, &b2);
        }
        // A half no point of which bounced is left as it is: writing it
        // back would store what was read.
        if moved {
            self.scatter(bodies, h, &a, &b);
        }
    }

    /// The accumulated impulses (normal, tangent) and largest normal impulse
    /// of point `k` in `lane`.
    pub(super) fn impulses(&self, lane: usize, k: usize) -> (Real, Real, Real) {
        let p = &self.points[k.min(P - 1)];
        (
            p.normal_impulse.0[lane],
            p.tangent_impulse.0[lane],
            p.max_normal_impulse.0[lane],
        )
    }
}

/// A body index as a lane holds it: an index too large for 32 bits names
/// no body (`u32::MAX`, past any bodies) rather than another one.
#[inline]
pub(super) fn lane_index(index: usize) -> u32 {
    u32::try_from(index).unwrap_or(u32::MAX)
}

/// Lanes `4 h .. 4 h + 4` of `lanes`.
#[inline(always)]
fn half(lanes: &Lane, h: usize) -> Quad {
    Quad::half(lanes, h)
}
