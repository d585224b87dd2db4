//! The contact solver in lanes: constraints that share no movable body are
//! solved side by side, [`LANES`] at a time, in plain arrays the compiler
//! turns into SIMD instructions.
//!
//! Each step the constraints are coloured greedily in their given order: a
//! constraint takes the lowest colour that none of its movable bodies has
//! used yet (static and kinematic bodies are only read, so they never
//! conflict). Within a colour no two constraints write the same body, so
//! they can be solved in any order, and at once. A colour's constraints are
//! packed by point count (1, 2, or up to 4) into batches of [`LANES`]; the
//! rare constraint that finds no free colour among [`COLORS`] is solved by
//! the scalar code after the colours.
//!
//! Invariants:
//! - every lane computes exactly what [`solve_constraint`] computes for its
//!   constraint, given the same body velocities (the same formulas in the
//!   same order; empty lanes and missing points have zero mass and change
//!   nothing);
//! - the colouring and the batches depend only on the order of the
//!   constraints, so the step stays deterministic;
//! - bodies that cannot move (inverse mass and inertia 0) are never written.

use super::contact_solver::{
    ContactConstraint, ContactSettings, ContactSoftness, SolverBody, solve_constraint,
    warm_start_constraint,
};
use super::lanes::F8;
use crate::math::Real;

/// Constraints solved side by side: two SSE registers of four (the baseline
/// of every x86-64 and aarch64 machine), whose chains of dependent
/// operations the processor overlaps.
pub const LANES: usize = 8;

/// Colours tried before a constraint goes to the scalar overflow: one bit
/// each in a body's `u32` mask. A body touching more than this many others
/// in one step is rare (a ball in a hexagonal pile touches six).
pub const COLORS: usize = 32;

type Lane = F8;

const ZERO: Lane = Lane::ZERO;

/// One contact point in every lane (world frame, see `ConstraintPoint`).
#[derive(Clone, Copy, Debug, Default)]
struct WidePoint {
    anchor_a_x: Lane,
    anchor_a_y: Lane,
    anchor_b_x: Lane,
    anchor_b_y: Lane,
    base_separation: Lane,
    normal_mass: Lane,
    tangent_mass: Lane,
    normal_impulse: Lane,
    tangent_impulse: Lane,
    max_normal_impulse: Lane,
}

/// [`LANES`] constraints of up to `P` points each, one per lane.
#[derive(Clone, Copy, Debug)]
struct Batch<const P: usize> {
    body_a: [u32; LANES],
    body_b: [u32; LANES],
    /// Index of the lane's constraint; `u32::MAX` for an empty lane.
    constraint: [u32; LANES],
    normal_x: Lane,
    normal_y: Lane,
    friction: Lane,
    bias_rate: Lane,
    mass_scale: Lane,
    impulse_scale: Lane,
    /// Inverse masses and inertias of the lanes' bodies (constant in a step,
    /// so packed once instead of gathered every pass).
    inv_mass_a: Lane,
    inv_inertia_a: Lane,
    inv_mass_b: Lane,
    inv_inertia_b: Lane,
    points: [WidePoint; P],
}

impl<const P: usize> Default for Batch<P> {
    fn default() -> Self {
        Batch {
            body_a: [u32::MAX; LANES],
            body_b: [u32::MAX; LANES],
            constraint: [u32::MAX; LANES],
            normal_x: ZERO,
            normal_y: ZERO,
            friction: ZERO,
            bias_rate: ZERO,
            mass_scale: ZERO,
            impulse_scale: ZERO,
            inv_mass_a: ZERO,
            inv_inertia_a: ZERO,
            inv_mass_b: ZERO,
            inv_inertia_b: ZERO,
            points: [WidePoint::default(); P],
        }
    }
}

/// Velocities and motion of one side of a batch, gathered from the bodies.
#[derive(Clone, Copy, Debug, Default)]
struct WideBody {
    vx: Lane,
    vy: Lane,
    w: Lane,
    dpx: Lane,
    dpy: Lane,
    cos: Lane,
    sin: Lane,
    inv_mass: Lane,
    inv_inertia: Lane,
}

impl WideBody {
    #[inline(always)]
    fn gather(
        bodies: &[SolverBody],
        index: &[u32; LANES],
        inv_mass: Lane,
        inv_inertia: Lane,
    ) -> Self {
        let mut out = WideBody {
            inv_mass,
            inv_inertia,
            ..WideBody::default()
        };
        for (l, &i) in index.iter().enumerate() {
            // An empty lane (index `u32::MAX`) or an index past the bodies
            // stands for the fixed body: zero velocity, never written back.
            let b = bodies.get(i as usize).unwrap_or(&SolverBody::FIXED);
            out.vx.0[l] = b.linear_velocity.x;
            out.vy.0[l] = b.linear_velocity.y;
            out.w.0[l] = b.angular_velocity;
            out.dpx.0[l] = b.delta_position.x;
            out.dpy.0[l] = b.delta_position.y;
            let c = b.delta_rotation.complex();
            out.cos.0[l] = c.re;
            out.sin.0[l] = c.im;
        }
        out
    }

    /// Writes the velocities back to the lanes' bodies that can move.
    #[inline(always)]
    fn scatter(&self, bodies: &mut [SolverBody], index: &[u32; LANES]) {
        for (l, &i) in index.iter().enumerate() {
            let movable = self.inv_mass.0[l] > 0.0 || self.inv_inertia.0[l] > 0.0;
            if let (true, Some(b)) = (movable, bodies.get_mut(i as usize)) {
                b.linear_velocity.x = self.vx.0[l];
                b.linear_velocity.y = self.vy.0[l];
                b.angular_velocity = self.w.0[l];
            }
        }
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
}

impl<const P: usize> Batch<P> {
    fn pack(
        &mut self,
        lane: usize,
        index: u32,
        c: &ContactConstraint,
        bodies: &[SolverBody],
        softness: ContactSoftness,
    ) {
        debug_assert!(c.points.len() <= P);
        let fixed = SolverBody::FIXED;
        let a = bodies.get(c.body_a).unwrap_or(&fixed);
        let b = bodies.get(c.body_b).unwrap_or(&fixed);
        self.inv_mass_a.0[lane] = a.inv_mass;
        self.inv_inertia_a.0[lane] = a.inv_inertia;
        self.inv_mass_b.0[lane] = b.inv_mass;
        self.inv_inertia_b.0[lane] = b.inv_inertia;
        self.body_a[lane] = c.body_a as u32;
        self.body_b[lane] = c.body_b as u32;
        self.constraint[lane] = index;
        self.normal_x.0[lane] = c.normal.x;
        self.normal_y.0[lane] = c.normal.y;
        self.friction.0[lane] = c.friction;
        let soft = if c.against_fixed {
            softness.fixed
        } else {
            softness.moving
        };
        self.bias_rate.0[lane] = soft.bias_rate;
        self.mass_scale.0[lane] = soft.mass_scale;
        self.impulse_scale.0[lane] = soft.impulse_scale;
        for (wide, p) in self.points.iter_mut().zip(&c.points) {
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
        }
    }

    fn unpack(&self, constraints: &mut [ContactConstraint]) {
        for l in 0..LANES {
            let Some(c) = constraints.get_mut(self.constraint[l] as usize) else {
                continue;
            };
            for (p, wide) in c.points.iter_mut().zip(&self.points) {
                p.normal_impulse = wide.normal_impulse.0[l];
                p.tangent_impulse = wide.tangent_impulse.0[l];
                p.max_normal_impulse = wide.max_normal_impulse.0[l];
            }
        }
    }

    fn warm_start(&self, bodies: &mut [SolverBody]) {
        let mut a = WideBody::gather(bodies, &self.body_a, self.inv_mass_a, self.inv_inertia_a);
        let mut b = WideBody::gather(bodies, &self.body_b, self.inv_mass_b, self.inv_inertia_b);
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

    fn solve(&mut self, bodies: &mut [SolverBody], max_push: Real, inv_h: Real, use_bias: bool) {
        let mut a = WideBody::gather(bodies, &self.body_a, self.inv_mass_a, self.inv_inertia_a);
        let mut b = WideBody::gather(bodies, &self.body_b, self.inv_mass_b, self.inv_inertia_b);
        let (nx, ny) = (self.normal_x, self.normal_y);
        let inv_h = Lane::splat(inv_h);
        let max_push = Lane::splat(-max_push);
        for p in &mut self.points {
            let (rax, ray, rbx, rby) = (p.anchor_a_x, p.anchor_a_y, p.anchor_b_x, p.anchor_b_y);
            // Current separation from the body deltas within the step.
            let (ax, ay) = a.moved(rax, ray);
            let (bx, by) = b.moved(rbx, rby);
            let separation = (bx - ax) * nx + (by - ay) * ny + p.base_separation;
            // Speculative (apart): allow closing exactly the gap this substep.
            let apart = separation.gt(ZERO);
            let (bias, mass_scale, impulse_scale) = if use_bias {
                (
                    apart.select(
                        separation * inv_h,
                        (self.bias_rate * separation).max(max_push),
                    ),
                    apart.select(Lane::ONE, self.mass_scale),
                    apart.select(ZERO, self.impulse_scale),
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
        let (tx, ty) = (ny, -nx);
        for p in &mut self.points {
            let (rax, ray, rbx, rby) = (p.anchor_a_x, p.anchor_a_y, p.anchor_b_x, p.anchor_b_y);
            let (vax, vay) = a.point_velocity(rax, ray);
            let (vbx, vby) = b.point_velocity(rbx, rby);
            let tangent_speed = (vbx - vax) * tx + (vby - vay) * ty;
            let impulse = -(p.tangent_mass * tangent_speed);
            let limit = self.friction * p.normal_impulse;
            let accumulated = (p.tangent_impulse + impulse).max(-limit).min(limit);
            let applied = accumulated - p.tangent_impulse;
            p.tangent_impulse = accumulated;
            let (jx, jy) = (tx * applied, ty * applied);
            a.pull(rax, ray, jx, jy);
            b.push(rbx, rby, jx, jy);
        }
        a.scatter(bodies, &self.body_a);
        b.scatter(bodies, &self.body_b);
    }
}

/// Batches of one colour: ranges into the three batch vectors.
#[derive(Clone, Copy, Debug, Default)]
struct ColorRanges {
    one: (u32, u32),
    two: (u32, u32),
    four: (u32, u32),
}

/// The constraints of a step, coloured and packed into lanes. Buffers are
/// kept and reused from step to step.
#[derive(Clone, Debug, Default)]
pub struct WideContacts {
    one: Vec<Batch<1>>,
    two: Vec<Batch<2>>,
    four: Vec<Batch<4>>,
    colors: Vec<ColorRanges>,
    /// Constraints solved by the scalar code after the colours.
    overflow: Vec<u32>,
    /// Per body: the colours its constraints use (bit c = colour c).
    masks: Vec<u32>,
    /// Per constraint: its colour, or `u32::MAX` for the overflow.
    color_of: Vec<u32>,
    settings: ContactSettings,
}

fn point_class(points: usize) -> usize {
    match points {
        0 | 1 => 0,
        2 => 1,
        _ => 2,
    }
}

impl WideContacts {
    /// Colours and packs `constraints` (solved later by [`Self::solve`]) with
    /// the softness of this step's substeps.
    pub fn prepare(
        &mut self,
        bodies: &[SolverBody],
        constraints: &[ContactConstraint],
        settings: &ContactSettings,
        softness: ContactSoftness,
    ) {
        self.settings = *settings;
        self.one.clear();
        self.two.clear();
        self.four.clear();
        self.colors.clear();
        self.overflow.clear();
        self.color_of.clear();
        self.masks.clear();
        self.masks.resize(bodies.len(), 0);
        let movable = |i: usize| bodies[i].inv_mass > 0.0 || bodies[i].inv_inertia > 0.0;
        // Counts per (colour, class) for a counting sort.
        let mut counts = [[0u32; 3]; COLORS];
        let mut used_colors = 0;
        for c in constraints {
            let (a, b) = (c.body_a, c.body_b);
            let mut taken = 0u32;
            if movable(a) {
                taken |= self.masks[a];
            }
            if movable(b) {
                taken |= self.masks[b];
            }
            let free = !taken;
            if free == 0 || c.points.len() > 4 {
                self.color_of.push(u32::MAX);
                continue;
            }
            let color = free.trailing_zeros();
            if movable(a) {
                self.masks[a] |= 1 << color;
            }
            if movable(b) {
                self.masks[b] |= 1 << color;
            }
            self.color_of.push(color);
            counts[color as usize][point_class(c.points.len())] += 1;
            used_colors = used_colors.max(color as usize + 1);
        }
        // Batch ranges per colour and class.
        let mut next = [0u32; 3];
        let mut fill = [[0u32; 3]; COLORS];
        for (color, count) in counts.iter().enumerate().take(used_colors) {
            let mut ranges = [(0, 0); 3];
            for class in 0..3 {
                let batches = count[class].div_ceil(LANES as u32);
                ranges[class] = (next[class], next[class] + batches);
                fill[color][class] = next[class] * LANES as u32;
                next[class] += batches;
            }
            self.colors.push(ColorRanges {
                one: ranges[0],
                two: ranges[1],
                four: ranges[2],
            });
        }
        self.one.resize(next[0] as usize, Batch::default());
        self.two.resize(next[1] as usize, Batch::default());
        self.four.resize(next[2] as usize, Batch::default());
        for (index, c) in constraints.iter().enumerate() {
            let color = self.color_of[index];
            if color == u32::MAX {
                self.overflow.push(index as u32);
                continue;
            }
            let class = point_class(c.points.len());
            let slot = &mut fill[color as usize][class];
            let (batch, lane) = (*slot as usize / LANES, *slot as usize % LANES);
            *slot += 1;
            let index = index as u32;
            match class {
                0 => self.one[batch].pack(lane, index, c, bodies, softness),
                1 => self.two[batch].pack(lane, index, c, bodies, softness),
                _ => self.four[batch].pack(lane, index, c, bodies, softness),
            }
        }
    }

    /// Applies the stored impulses of every constraint (see `warm_start`).
    pub fn warm_start(&self, bodies: &mut [SolverBody], constraints: &[ContactConstraint]) {
        for ranges in &self.colors {
            for batch in &self.one[ranges.one.0 as usize..ranges.one.1 as usize] {
                batch.warm_start(bodies);
            }
            for batch in &self.two[ranges.two.0 as usize..ranges.two.1 as usize] {
                batch.warm_start(bodies);
            }
            for batch in &self.four[ranges.four.0 as usize..ranges.four.1 as usize] {
                batch.warm_start(bodies);
            }
        }
        for &index in &self.overflow {
            warm_start_constraint(bodies, &constraints[index as usize]);
        }
    }

    /// One pass over every constraint, colour by colour, then the overflow
    /// (see `solve`). The overflow constraints are read from and written
    /// to `constraints`; the others live in the batches until [`Self::finish`].
    pub fn solve(
        &mut self,
        bodies: &mut [SolverBody],
        constraints: &mut [ContactConstraint],
        softness: ContactSoftness,
        inv_h: Real,
        use_bias: bool,
    ) {
        let max_push = self.settings.max_push_velocity;
        for ranges in &self.colors {
            for batch in &mut self.one[ranges.one.0 as usize..ranges.one.1 as usize] {
                batch.solve(bodies, max_push, inv_h, use_bias);
            }
            for batch in &mut self.two[ranges.two.0 as usize..ranges.two.1 as usize] {
                batch.solve(bodies, max_push, inv_h, use_bias);
            }
            for batch in &mut self.four[ranges.four.0 as usize..ranges.four.1 as usize] {
                batch.solve(bodies, max_push, inv_h, use_bias);
            }
        }
        for &index in &self.overflow {
            solve_constraint(
                bodies,
                &mut constraints[index as usize],
                &self.settings,
                softness,
                inv_h,
                use_bias,
            );
        }
    }

    /// Copies the batches' impulses back into `constraints`.
    pub fn finish(&self, constraints: &mut [ContactConstraint]) {
        for batch in &self.one {
            batch.unpack(constraints);
        }
        for batch in &self.two {
            batch.unpack(constraints);
        }
        for batch in &self.four {
            batch.unpack(constraints);
        }
    }

    /// The constraint indices in the order [`Self::solve`] visits them:
    /// colour by colour, within a colour by point class, batch and lane,
    /// then the overflow. Solving each with [`solve_constraint`] in this
    /// order gives bit for bit the same bodies and impulses.
    pub fn solve_order(&self) -> Vec<u32> {
        fn lanes<const P: usize>(batches: &[Batch<P>], out: &mut Vec<u32>) {
            for batch in batches {
                out.extend(batch.constraint.iter().filter(|&&i| i != u32::MAX));
            }
        }
        let mut out = Vec::new();
        for ranges in &self.colors {
            lanes(
                &self.one[ranges.one.0 as usize..ranges.one.1 as usize],
                &mut out,
            );
            lanes(
                &self.two[ranges.two.0 as usize..ranges.two.1 as usize],
                &mut out,
            );
            lanes(
                &self.four[ranges.four.0 as usize..ranges.four.1 as usize],
                &mut out,
            );
        }
        out.extend(&self.overflow);
        out
    }

    /// Number of colours used in the last [`Self::prepare`].
    pub fn color_count(&self) -> usize {
        self.colors.len()
    }

    /// Number of constraints left to the scalar overflow in the last [`Self::prepare`].
    pub fn overflow_count(&self) -> usize {
        self.overflow.len()
    }
}
