//! Four lanes of a batch at a time: the bodies of one side gathered into
//! [`Quad`]s and written back, and the softness of each lane.
//!
//! A batch keeps [`LANES`](super::LANES) lanes; its passes work through
//! them half by half (see `quad.rs` for why). No two lanes of a batch
//! write one body, nor does one read a body another writes (the
//! colouring, see `wide.rs`), so the halves give exactly what the whole
//! batch gives at once.
//!
//! Invariants, as for the whole batch (`wide_batch.rs`): the same formulas
//! in the same order as the scalar passes, an empty lane (no inverse mass
//! nor inertia, or in a round batch a negative inertia) and a side that
//! cannot move are never written back.

use super::body_rows::{self, Bodies};
use super::contact_solver::ContactSoftness;
use super::lanes::F8;
use super::quad::{Quad, QuadMask};
use super::softness::Softness;
use crate::math::Real;

/// Velocities and motion of one side of four lanes, gathered from the bodies.
#[derive(Clone, Copy, Debug)]
pub(super) struct QuadBody {
    pub(super) vx: Quad,
    pub(super) vy: Quad,
    pub(super) w: Quad,
    pub(super) dpx: Quad,
    pub(super) dpy: Quad,
    pub(super) cos: Quad,
    pub(super) sin: Quad,
    /// The lanes' inverse masses: the batch's copy (0 in an empty lane),
    /// or, for a batch that keeps none, the bodies' own.
    pub(super) inv_mass: Quad,
    pub(super) inv_inertia: Quad,
    /// The bodies' own inverse masses, as their velocity rows hold them:
    /// written back with the velocities, unchanged.
    row_inv_mass: Quad,
}

impl QuadBody {
    /// The bodies of lanes `4 h .. 4 h + 4` of `index`, with the batch's
    /// lanes of their inverse inertias and its copies of their inverse
    /// masses, or (`None`) the masses the bodies' velocity rows hold, which
    /// are the same for every lane that names a body.
    #[inline(always)]
    pub(super) fn gather<B: Bodies + ?Sized>(
        bodies: &B,
        index: &[u32; 8],
        h: usize,
        inv_mass: Option<&F8>,
        inv_inertia: &F8,
    ) -> Self {
        let index = &index.as_chunks::<4>().0[h];
        let rows = body_rows::gather4([
            bodies.pick(index[0]),
            bodies.pick(index[1]),
            bodies.pick(index[2]),
            bodies.pick(index[3]),
        ]);
        QuadBody {
            vx: rows.vx,
            vy: rows.vy,
            w: rows.w,
            dpx: rows.dpx,
            dpy: rows.dpy,
            cos: rows.cos,
            sin: rows.sin,
            inv_mass: inv_mass.map_or(rows.inv_mass, |lanes| Quad::half(lanes, h)),
            inv_inertia: Quad::half(inv_inertia, h),
            row_inv_mass: rows.inv_mass,
        }
    }

    /// Writes the velocities back to the bodies of lanes `4 h .. 4 h + 4`
    /// that can move: a lane with some inverse mass or inertia, and no
    /// negative inertia (an empty round lane).
    #[inline(always)]
    pub(super) fn scatter<B: Bodies + ?Sized>(&self, bodies: &mut B, index: &[u32; 8], h: usize) {
        let zero = Quad::zero();
        let movable = zero
            .le(self.inv_inertia)
            .and(self.inv_mass.gt(zero).or(self.inv_inertia.gt(zero)))
            .bits();
        let index = &index.as_chunks::<4>().0[h];
        let velocity = [self.vx, self.vy, self.w, self.row_inv_mass];
        body_rows::scatter4_velocities(bodies, index, velocity, movable);
    }

    /// Adds impulse (`jx`, `jy`) at anchor (`rx`, `ry`) in every lane.
    #[inline(always)]
    pub(super) fn push(&mut self, rx: Quad, ry: Quad, jx: Quad, jy: Quad) {
        self.vx += jx * self.inv_mass;
        self.vy += jy * self.inv_mass;
        self.w += self.inv_inertia * (rx * jy - ry * jx);
    }

    /// Subtracts impulse (`jx`, `jy`) at anchor (`rx`, `ry`) in every lane.
    #[inline(always)]
    pub(super) fn pull(&mut self, rx: Quad, ry: Quad, jx: Quad, jy: Quad) {
        self.vx -= jx * self.inv_mass;
        self.vy -= jy * self.inv_mass;
        self.w -= self.inv_inertia * (rx * jy - ry * jx);
    }

    /// Velocity of the anchor point (`rx`, `ry`): v + ω × r.
    #[inline(always)]
    pub(super) fn point_velocity(&self, rx: Quad, ry: Quad) -> (Quad, Quad) {
        (self.vx - ry * self.w, self.vy + rx * self.w)
    }

    /// The anchor (`rx`, `ry`) moved by the body's motion within the step.
    #[inline(always)]
    pub(super) fn moved(&self, rx: Quad, ry: Quad) -> (Quad, Quad) {
        (
            self.dpx + (self.cos * rx - self.sin * ry),
            self.dpy + (self.sin * rx + self.cos * ry),
        )
    }

    /// Keeps the velocities of `other` in the flagged lanes.
    #[inline(always)]
    pub(super) fn take(&mut self, flags: QuadMask, other: &QuadBody) {
        self.vx = flags.select(other.vx, self.vx);
        self.vy = flags.select(other.vy, self.vy);
        self.w = flags.select(other.w, self.w);
    }
}

/// The softness of a pass, to be picked per lane: the stiffer one where a
/// side cannot move (inverse mass and inertia 0, as
/// [`is_fixed`](super::is_fixed); they are never negative).
#[derive(Clone, Copy, Debug)]
pub(super) struct QuadSoftness {
    moving: Softness,
    fixed: Softness,
    /// The pass's `1/h` and `-max_push`.
    inv_h: Quad,
    max_push: Quad,
}

/// The softness of four lanes, picked by their sides (see [`QuadSoftness`]).
#[derive(Clone, Copy, Debug)]
pub(super) struct SideSoftness {
    bias_rate: Quad,
    mass_scale: Quad,
    impulse_scale: Quad,
}

impl QuadSoftness {
    #[inline(always)]
    pub(super) fn new(softness: ContactSoftness, max_push: Real, inv_h: Real) -> Self {
        QuadSoftness {
            moving: softness.moving,
            fixed: softness.fixed,
            inv_h: Quad::splat(inv_h),
            max_push: Quad::splat(-max_push),
        }
    }

    /// The softness of the lanes between sides `a` and `b`.
    #[inline(always)]
    pub(super) fn sides(&self, a: &QuadBody, b: &QuadBody) -> SideSoftness {
        let zero = Quad::zero();
        let fixed_side = |side: &QuadBody| side.inv_mass.le(zero).and(side.inv_inertia.le(zero));
        let against_fixed = fixed_side(a).or(fixed_side(b));
        if !against_fixed.any() {
            // Every lane between moving sides (most lanes of a pile): what
            // the selects below give, without them.
            return SideSoftness {
                bias_rate: Quad::splat(self.moving.bias_rate),
                mass_scale: Quad::splat(self.moving.mass_scale),
                impulse_scale: Quad::splat(self.moving.impulse_scale),
            };
        }
        let soft = |pick: fn(&Softness) -> Real| {
            against_fixed.select(
                Quad::splat(pick(&self.fixed)),
                Quad::splat(pick(&self.moving)),
            )
        };
        SideSoftness {
            bias_rate: soft(|s| s.bias_rate),
            mass_scale: soft(|s| s.mass_scale),
            impulse_scale: soft(|s| s.impulse_scale),
        }
    }

    /// The bias, mass scale and impulse scale of points at `separation`:
    /// apart, a point may close exactly the gap this substep (speculative);
    /// overlapping, it is pushed out softly with the bias of `sides` (the
    /// lanes' softness, in a pass with bias), not at all without (`None`).
    #[inline(always)]
    pub(super) fn terms(
        &self,
        sides: Option<&SideSoftness>,
        separation: Quad,
    ) -> (Quad, Quad, Quad) {
        let zero = Quad::zero();
        let apart = separation.gt(zero);
        match sides {
            Some(soft) => (
                apart.select(
                    separation * self.inv_h,
                    (soft.bias_rate * separation).max(self.max_push),
                ),
                apart.select(Quad::one(), soft.mass_scale),
                apart.select(zero, soft.impulse_scale),
            ),
            None => (
                apart.select(separation * self.inv_h, zero),
                Quad::one(),
                zero,
            ),
        }
    }
}
