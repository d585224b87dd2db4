//! One batch of the lane solver: [`LANES`] constraints of up to `P` points,
//! one per lane, with the body velocities gathered into lanes while a batch
//! is solved.
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

use super::body_rows::{self, Bodies};
use super::contact_solver::{ConstraintPoint, ContactConstraint, ContactSoftness, SolverBody};
use super::lanes::{F8, M8};
use super::softness::Softness;
use crate::math::{Real, Vec2};

/// Constraints solved side by side: two SSE registers of four (the baseline
/// of every x86-64 and aarch64 machine), whose chains of dependent
/// operations the processor overlaps.
pub const LANES: usize = 8;

pub(super) type Lane = F8;
type Mask = M8;

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

/// Velocities and motion of one side of a batch, gathered from the bodies.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct WideBody {
    pub(super) vx: Lane,
    pub(super) vy: Lane,
    pub(super) w: Lane,
    pub(super) dpx: Lane,
    pub(super) dpy: Lane,
    cos: Lane,
    sin: Lane,
    /// The lane's inverse masses (the batch's copy, 0 in an empty lane).
    pub(super) inv_mass: Lane,
    pub(super) inv_inertia: Lane,
    /// The bodies' own inverse masses, as their velocity rows hold them:
    /// written back with the velocities, unchanged.
    row_inv_mass: Lane,
}

impl WideBody {
    /// The lanes' bodies, with the batch's copies of their inverse masses
    /// and inertias (the bodies do not hold the inertia: see
    /// [`SolverBody`]; a side past the bodies has neither, and neither has
    /// an empty lane).
    #[inline(always)]
    pub(super) fn gather<B: Bodies + ?Sized>(
        bodies: &B,
        index: &[u32; LANES],
        inv_mass: Lane,
        inv_inertia: Lane,
    ) -> Self {
        // Plain loops, here, in `body_rows::gather` and in `solve_group`,
        // rather than `std::array::from_fn`, whose closures the compiler
        // inlines only while its budget lasts: with one more grouped pass
        // in the build they were left out of line, and copying the arrays
        // they built took 13% of the pyramid's step.
        let mut picked = [&SolverBody::FIXED; LANES];
        for (pick, &i) in picked.iter_mut().zip(index) {
            *pick = bodies.pick(i);
        }
        let rows = body_rows::gather(picked);
        WideBody {
            vx: rows.vx,
            vy: rows.vy,
            w: rows.w,
            dpx: rows.dpx,
            dpy: rows.dpy,
            cos: rows.cos,
            sin: rows.sin,
            inv_mass,
            inv_inertia,
            row_inv_mass: rows.inv_mass,
        }
    }

    /// Writes the velocities back to the lanes' bodies that can move.
    #[inline(always)]
    pub(super) fn scatter<B: Bodies + ?Sized>(&self, bodies: &mut B, index: &[u32; LANES]) {
        let velocity = [self.vx, self.vy, self.w, self.row_inv_mass];
        body_rows::scatter_velocities(bodies, index, velocity, |l| {
            self.inv_mass.0[l] > 0.0 || self.inv_inertia.0[l] > 0.0
        });
    }

    /// Adds impulse (`jx`, `jy`) at anchor (`rx`, `ry`) in every lane.
    #[inline(always)]
    fn push(&mut self, rx: Lane, ry: Lane, jx: Lane, jy: Lane) {
        self.vx += jx * self.inv_mass;
        self.vy += jy * self.inv_mass;
        self.w += self.inv_inertia * (rx * jy - ry * jx);
    }

    /// Subtracts impulse (`jx`, `jy`) at anchor (`rx`, `ry`) in every lane.
    #[inline(always)]
    fn pull(&mut self, rx: Lane, ry: Lane, jx: Lane, jy: Lane) {
        self.vx -= jx * self.inv_mass;
        self.vy -= jy * self.inv_mass;
        self.w -= self.inv_inertia * (rx * jy - ry * jx);
    }

    /// Velocity of the anchor point (`rx`, `ry`): v + ω × r.
    #[inline(always)]
    fn point_velocity(&self, rx: Lane, ry: Lane) -> (Lane, Lane) {
        (self.vx - ry * self.w, self.vy + rx * self.w)
    }

    /// The anchor (`rx`, `ry`) moved by the body's motion within the step.
    #[inline(always)]
    fn moved(&self, rx: Lane, ry: Lane) -> (Lane, Lane) {
        (
            self.dpx + (self.cos * rx - self.sin * ry),
            self.dpy + (self.sin * rx + self.cos * ry),
        )
    }

    /// Keeps the velocities of `other` in the flagged lanes.
    #[inline(always)]
    pub(super) fn take(&mut self, flags: Mask, other: &WideBody) {
        self.vx = flags.select(other.vx, self.vx);
        self.vy = flags.select(other.vy, self.vy);
        self.w = flags.select(other.w, self.w);
    }
}

/// The softness of each lane of a batch in one pass: the stiffer one where
/// a side cannot move (inverse mass and inertia 0, as
/// [`is_fixed`](super::is_fixed); they are never negative).
/// [`Batch::solve_group`] unpacks it into locals at each row instead of
/// calling [`Self::terms`]: with `terms` called per point, the pyramid's
/// step was 6% slower (measured when a batch was solved alone); unpacked,
/// the code is the same as written out.
#[derive(Clone, Copy, Default)]
pub(super) struct LaneSoftness {
    bias_rate: Lane,
    mass_scale: Lane,
    impulse_scale: Lane,
    /// The pass's `1/h` and `-max_push`.
    inv_h: Lane,
    max_push: Lane,
}

impl LaneSoftness {
    #[inline(always)]
    pub(super) fn new(
        a: &WideBody,
        b: &WideBody,
        softness: ContactSoftness,
        max_push: Real,
        inv_h: Real,
    ) -> Self {
        let fixed_side =
            |inv_mass: Lane, inv_inertia: Lane| inv_mass.le(ZERO).and(inv_inertia.le(ZERO));
        let against_fixed =
            fixed_side(a.inv_mass, a.inv_inertia).or(fixed_side(b.inv_mass, b.inv_inertia));
        let soft = |pick: fn(&Softness) -> Real| {
            against_fixed.select(
                Lane::splat(pick(&softness.fixed)),
                Lane::splat(pick(&softness.moving)),
            )
        };
        LaneSoftness {
            bias_rate: soft(|s| s.bias_rate),
            mass_scale: soft(|s| s.mass_scale),
            impulse_scale: soft(|s| s.impulse_scale),
            inv_h: Lane::splat(inv_h),
            max_push: Lane::splat(-max_push),
        }
    }

    /// The bias, mass scale and impulse scale of a point at `separation`:
    /// apart, it may close exactly the gap this substep (speculative);
    /// overlapping, it is pushed out softly with the bias, not at all
    /// without.
    #[inline(always)]
    pub(super) fn terms(&self, separation: Lane, use_bias: bool) -> (Lane, Lane, Lane) {
        let apart = separation.gt(ZERO);
        if use_bias {
            (
                apart.select(
                    separation * self.inv_h,
                    (self.bias_rate * separation).max(self.max_push),
                ),
                apart.select(Lane::ONE, self.mass_scale),
                apart.select(ZERO, self.impulse_scale),
            )
        } else {
            (apart.select(separation * self.inv_h, ZERO), Lane::ONE, ZERO)
        }
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

    /// The bodies of both sides.
    #[inline(always)]
    fn gather<B: Bodies + ?Sized>(&self, bodies: &B) -> (WideBody, WideBody) {
        (
            WideBody::gather(bodies, &self.body_a, self.inv_mass_a, self.inv_inertia_a),
            WideBody::gather(bodies, &self.body_b, self.inv_mass_b, self.inv_inertia_b),
        )
    }

    #[inline(always)]
    pub(super) fn warm_start<B: Bodies + ?Sized>(&self, bodies: &mut B) {
        let (mut a, mut b) = self.gather(bodies);
        let (nx, ny) = (self.normal_x, self.normal_y);
        for p in &self.points {
            // tangent = -perp(n) = (ny, -nx)
            let jx = nx * p.normal_impulse + ny * p.tangent_impulse;
            let jy = ny * p.normal_impulse - nx * p.tangent_impulse;
            a.pull(p.anchor_a_x, p.anchor_a_y, jx, jy);
            b.push(p.anchor_b_x, p.anchor_b_y, jx, jy);
        }
        a.scatter(bodies, &self.body_a);
        b.scatter(bodies, &self.body_b);
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
        Self::solve_group([self], bodies, softness, max_push, inv_h, use_bias);
    }

    /// Solves `N` batches of one colour side by side: each row (a point's
    /// normal, then each point's friction) of every batch before the next
    /// row of any.
    ///
    /// A batch's rows run one after another through the same velocities,
    /// a chain of dependent operations about 40 cycles long per row, and a
    /// batch is too long for the processor to start the next one while it
    /// waits. No constraint of a colour reads or writes a body another one
    /// writes (see the colouring in `wide.rs`), so each batch's rows see
    /// exactly the velocities they see when the batches are solved one
    /// after the other:
    /// the same results bit for bit, with two chains to overlap. Two-point
    /// batches two at a time make the 5,050-box pyramid's step about 9%
    /// faster, one-point batches the trees' step 1–3%. Round batches
    /// (`RoundBatch`), whose chain is the shortest, are solved one at a
    /// time: two of them need more registers than there are, and the ball
    /// pit's step took 12–15% longer.
    #[inline(always)]
    pub(super) fn solve_group<const N: usize, B: Bodies + ?Sized>(
        group: [&mut Self; N],
        bodies: &mut B,
        softness: ContactSoftness,
        max_push: Real,
        inv_h: Real,
        use_bias: bool,
    ) {
        // Each array starts as N copies of the first batch's values, which
        // the loop overwrites for the others: filled from defaults, the
        // arrays were zeroed first, a call to `memset` per group (1.4% of
        // the pyramid's instructions). Gathered side by side here, not
        // through `Self::gather`, whose pairs cost the pyramid 0.75% more
        // instructions in copies.
        let first = &*group[0];
        let mut a =
            [WideBody::gather(bodies, &first.body_a, first.inv_mass_a, first.inv_inertia_a); N];
        let mut b =
            [WideBody::gather(bodies, &first.body_b, first.inv_mass_b, first.inv_inertia_b); N];
        for s in 1..N {
            let batch = &*group[s];
            a[s] = WideBody::gather(bodies, &batch.body_a, batch.inv_mass_a, batch.inv_inertia_a);
            b[s] = WideBody::gather(bodies, &batch.body_b, batch.inv_mass_b, batch.inv_inertia_b);
        }
        let mut soft = [LaneSoftness::new(&a[0], &b[0], softness, max_push, inv_h); N];
        for s in 1..N {
            soft[s] = LaneSoftness::new(&a[s], &b[s], softness, max_push, inv_h);
        }
        for k in 0..P {
            for s in 0..N {
                let batch = &mut *group[s];
                let (nx, ny) = (batch.normal_x, batch.normal_y);
                // Unpacked into locals (see `LaneSoftness`).
                let LaneSoftness {
                    bias_rate,
                    mass_scale: soft_mass_scale,
                    impulse_scale: soft_impulse_scale,
                    inv_h,
                    max_push,
                } = soft[s];
                let (a, b) = (&mut a[s], &mut b[s]);
                let p = &mut batch.points[k];
                let (rax, ray, rbx, rby) = (p.anchor_a_x, p.anchor_a_y, p.anchor_b_x, p.anchor_b_y);
                // Current separation from the body deltas within the step.
                let (ax, ay) = a.moved(rax, ray);
                let (bx, by) = b.moved(rbx, rby);
                let separation = (bx - ax) * nx + (by - ay) * ny + p.base_separation;
                // Speculative (apart): allow closing exactly the gap this substep.
                let apart = separation.gt(ZERO);
                let (bias, mass_scale, impulse_scale) = if use_bias {
                    (
                        apart.select(separation * inv_h, (bias_rate * separation).max(max_push)),
                        apart.select(Lane::ONE, soft_mass_scale),
                        apart.select(ZERO, soft_impulse_scale),
                    )
                } else {
                    (apart.select(separation * inv_h, ZERO), Lane::ONE, ZERO)
                };
                let (vax, vay) = a.point_velocity(rax, ray);
                let (vbx, vby) = b.point_velocity(rbx, rby);
                let normal_speed = (vbx - vax) * nx + (vby - vay) * ny;
                let impulse = -(p.normal_mass * mass_scale * (normal_speed + bias))
                    - impulse_scale * p.normal_impulse;
                let accumulated = (p.normal_impulse + impulse).max(ZERO);
                let applied = accumulated - p.normal_impulse;
                p.normal_impulse = accumulated;
                p.max_normal_impulse = p.max_normal_impulse.max(applied);
                let (jx, jy) = (nx * applied, ny * applied);
                a.pull(rax, ray, jx, jy);
                b.push(rbx, rby, jx, jy);
            }
        }
        for k in 0..P {
            for s in 0..N {
                let batch = &mut *group[s];
                let (tx, ty) = (batch.normal_y, -batch.normal_x);
                let friction = batch.friction;
                let (a, b) = (&mut a[s], &mut b[s]);
                let p = &mut batch.points[k];
                let (rax, ray, rbx, rby) = (p.anchor_a_x, p.anchor_a_y, p.anchor_b_x, p.anchor_b_y);
                let (vax, vay) = a.point_velocity(rax, ray);
                let (vbx, vby) = b.point_velocity(rbx, rby);
                let tangent_speed = (vbx - vax) * tx + (vby - vay) * ty;
                let impulse = -(p.tangent_mass * tangent_speed);
                let limit = friction * p.normal_impulse;
                let accumulated = (p.tangent_impulse + impulse).max(-limit).min(limit);
                let applied = accumulated - p.tangent_impulse;
                p.tangent_impulse = accumulated;
                let (jx, jy) = (tx * applied, ty * applied);
                a.pull(rax, ray, jx, jy);
                b.push(rbx, rby, jx, jy);
            }
        }
        for s in 0..N {
            a[s].scatter(bodies, &group[s].body_a);
            b[s].scatter(bodies, &group[s].body_b);
        }
    }

    /// Restitution (see `apply_restitution`): lanes without restitution, and
    /// points that were not approaching faster than `threshold` or carried
    /// no load, are left exactly as they are.
    pub(super) fn restitution<B: Bodies + ?Sized>(&mut self, bodies: &mut B, threshold: Real) {
        let bouncy = self.restitution.nonzero();
        if !bouncy.any() {
            return;
        }
        let (mut a, mut b) = self.gather(bodies);
        let (nx, ny) = (self.normal_x, self.normal_y);
        let threshold = Lane::splat(-threshold);
        for p in &mut self.points {
            let active = bouncy
                .and(p.relative_velocity.le(threshold))
                .and(p.max_normal_impulse.nonzero());
            if !active.any() {
                continue;
            }
            let (rax, ray, rbx, rby) = (p.anchor_a_x, p.anchor_a_y, p.anchor_b_x, p.anchor_b_y);
            let (vax, vay) = a.point_velocity(rax, ray);
            let (vbx, vby) = b.point_velocity(rbx, rby);
            let normal_speed = (vbx - vax) * nx + (vby - vay) * ny;
            let impulse =
                -(p.normal_mass * (normal_speed + self.restitution * p.relative_velocity));
            let accumulated = (p.normal_impulse + impulse).max(ZERO);
            let applied = accumulated - p.normal_impulse;
            p.normal_impulse = active.select(accumulated, p.normal_impulse);
            p.max_normal_impulse =
                active.select(p.max_normal_impulse.max(applied), p.max_normal_impulse);
            let (jx, jy) = (nx * applied, ny * applied);
            let (mut a2, mut b2) = (a, b);
            a2.pull(rax, ray, jx, jy);
            b2.push(rbx, rby, jx, jy);
            a.take(active, &a2);
            b.take(active, &b2);
        }
        a.scatter(bodies, &self.body_a);
        b.scatter(bodies, &self.body_b);
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
