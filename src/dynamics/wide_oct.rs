//! All eight lanes of a batch at once, in AVX registers (x86-64 processors
//! that have AVX, checked at run time by [`avx_available`]): [`Oct`], the
//! bodies of one side gathered into octs and written back ([`OctBody`]),
//! and the softness of each lane ([`OctSoftness`]).
//!
//! A batch's passes work through its lanes four at a time in SSE
//! registers (`quad.rs`, `wide_quad.rs`); with AVX one register holds all
//! eight. Every operation here is the IEEE operation of each lane on its
//! own, as the quads' are: `add`, `sub`, `mul`, `max`, `min`, the ordered
//! comparisons, the selects and the sign flips give each lane exactly what
//! their SSE forms give, and nothing is fused (no multiply-add). The
//! passes written with octs (`wide_round_avx.rs`, `wide_batch_avx.rs`)
//! take the same formulas in the same order as the quad passes, and the
//! two halves of a batch never share a body that moves (the colouring), so
//! solving them at once rather than one after the other gives the same
//! bodies and impulses bit for bit (`tests/solver_lanes.rs` checks both
//! widths against the scalar solver).
//!
//! The bodies' rows come in as in `body_rows.rs`: each body's velocity row
//! `[vx, vy, ω, 1/m]` and motion row `[dx, dy, cos, sin]`, lane `l` in the
//! low half of a register and lane `l + 4` in the high half, turned into
//! columns by the same shuffles in each half.
//!
//! Every function carries `#[target_feature(enable = "avx")]`, so it is
//! compiled for AVX and inlined into the passes, which carry it too; the
//! passes are called only once [`avx_available`] said yes.

use super::body_rows::Bodies;
use super::contact_solver::ContactSoftness;
use super::contact_solver::SolverBody;
use super::lanes::F8;
use super::softness::Softness;
use crate::math::Real;
use std::arch::x86_64::{
    __m256, _CMP_GT_OS, _CMP_LE_OS, _mm_load_ps, _mm_store_ps, _mm256_add_ps, _mm256_and_ps,
    _mm256_andnot_ps, _mm256_castps128_ps256, _mm256_castps256_ps128, _mm256_cmp_ps,
    _mm256_extractf128_ps, _mm256_insertf128_ps, _mm256_load_ps, _mm256_max_ps, _mm256_min_ps,
    _mm256_movemask_ps, _mm256_mul_ps, _mm256_or_ps, _mm256_set1_ps, _mm256_setzero_ps,
    _mm256_shuffle_ps, _mm256_store_ps, _mm256_sub_ps, _mm256_unpackhi_ps, _mm256_unpacklo_ps,
    _mm256_xor_ps,
};

/// Whether this processor runs the eight-lane passes (the answer is
/// cached by the standard library after the first call).
#[inline]
pub(super) fn avx_available() -> bool {
    std::arch::is_x86_feature_detected!("avx")
}

/// Eight `f32` lanes in one AVX register.
#[derive(Clone, Copy)]
pub(super) struct Oct(__m256);

/// Eight lane flags, each all ones or all zeros.
#[derive(Clone, Copy)]
pub(super) struct OctMask(__m256);

impl Oct {
    /// The eight lanes of `lanes`.
    #[inline]
    #[target_feature(enable = "avx")]
    pub(super) fn load(lanes: &F8) -> Oct {
        // SAFETY: `F8` is 32-byte aligned and eight `f32`.
        Oct(unsafe { _mm256_load_ps(lanes.0.as_ptr()) })
    }

    /// Writes the eight lanes into `lanes`.
    #[inline]
    #[target_feature(enable = "avx")]
    pub(super) fn put(self, lanes: &mut F8) {
        // SAFETY: `F8` is 32-byte aligned and eight `f32`.
        unsafe { _mm256_store_ps(lanes.0.as_mut_ptr(), self.0) }
    }

    /// Every lane `v`.
    #[inline]
    #[target_feature(enable = "avx")]
    pub(super) fn splat(v: f32) -> Oct {
        Oct(_mm256_set1_ps(v))
    }

    /// Every lane zero.
    #[inline]
    #[target_feature(enable = "avx")]
    pub(super) fn zero() -> Oct {
        Oct(_mm256_setzero_ps())
    }

    #[inline]
    #[target_feature(enable = "avx")]
    pub(super) fn add(self, other: Oct) -> Oct {
        Oct(_mm256_add_ps(self.0, other.0))
    }

    #[inline]
    #[target_feature(enable = "avx")]
    pub(super) fn sub(self, other: Oct) -> Oct {
        Oct(_mm256_sub_ps(self.0, other.0))
    }

    #[inline]
    #[target_feature(enable = "avx")]
    pub(super) fn mul(self, other: Oct) -> Oct {
        Oct(_mm256_mul_ps(self.0, other.0))
    }

    /// The sign bit flipped, as `Quad::neg`.
    #[inline]
    #[target_feature(enable = "avx")]
    pub(super) fn neg(self) -> Oct {
        Oct(_mm256_xor_ps(self.0, _mm256_set1_ps(-0.0)))
    }

    /// Lane-wise `self > other ? self : other`.
    #[inline]
    #[target_feature(enable = "avx")]
    pub(super) fn max(self, other: Oct) -> Oct {
        Oct(_mm256_max_ps(self.0, other.0))
    }

    /// Lane-wise `self < other ? self : other`.
    #[inline]
    #[target_feature(enable = "avx")]
    pub(super) fn min(self, other: Oct) -> Oct {
        Oct(_mm256_min_ps(self.0, other.0))
    }

    /// Lanes where `self > other`.
    #[inline]
    #[target_feature(enable = "avx")]
    pub(super) fn gt(self, other: Oct) -> OctMask {
        OctMask(_mm256_cmp_ps::<_CMP_GT_OS>(self.0, other.0))
    }

    /// Lanes where `self <= other`.
    #[inline]
    #[target_feature(enable = "avx")]
    pub(super) fn le(self, other: Oct) -> OctMask {
        OctMask(_mm256_cmp_ps::<_CMP_LE_OS>(self.0, other.0))
    }
}

impl OctMask {
    #[inline]
    #[target_feature(enable = "avx")]
    pub(super) fn and(self, other: OctMask) -> OctMask {
        OctMask(_mm256_and_ps(self.0, other.0))
    }

    #[inline]
    #[target_feature(enable = "avx")]
    pub(super) fn or(self, other: OctMask) -> OctMask {
        OctMask(_mm256_or_ps(self.0, other.0))
    }

    /// `yes` in the flagged lanes, `no` elsewhere (their bits, as they are).
    #[inline]
    #[target_feature(enable = "avx")]
    pub(super) fn select(self, yes: Oct, no: Oct) -> Oct {
        Oct(_mm256_or_ps(
            _mm256_and_ps(self.0, yes.0),
            _mm256_andnot_ps(self.0, no.0),
        ))
    }

    /// Bit `l` set for each flagged lane `l`.
    #[inline]
    #[target_feature(enable = "avx")]
    pub(super) fn bits(self) -> u32 {
        _mm256_movemask_ps(self.0) as u32
    }

    #[inline]
    #[target_feature(enable = "avx")]
    pub(super) fn any(self) -> bool {
        self.bits() != 0
    }
}

/// Four rows of four in each half turned into columns:
/// `out[k][j] = rows[j][k]` half by half (`body_rows`' `transpose`).
#[inline]
#[target_feature(enable = "avx")]
fn transpose(rows: [__m256; 4]) -> [__m256; 4] {
    let low01 = _mm256_unpacklo_ps(rows[0], rows[1]);
    let low23 = _mm256_unpacklo_ps(rows[2], rows[3]);
    let high01 = _mm256_unpackhi_ps(rows[0], rows[1]);
    let high23 = _mm256_unpackhi_ps(rows[2], rows[3]);
    [
        _mm256_shuffle_ps::<0x44>(low01, low23),
        _mm256_shuffle_ps::<0xEE>(low01, low23),
        _mm256_shuffle_ps::<0x44>(high01, high23),
        _mm256_shuffle_ps::<0xEE>(high01, high23),
    ]
}

/// Row `k` (0: velocity, 1: motion) of body `low` in the low half and of
/// body `high` in the high half.
#[inline]
#[target_feature(enable = "avx")]
fn rows(low: &SolverBody, high: &SolverBody, k: usize) -> __m256 {
    let (low, high) = (
        (low as *const SolverBody).cast::<f32>(),
        (high as *const SolverBody).cast::<f32>(),
    );
    // SAFETY: a solver body is 32-byte aligned and its 32 bytes are eight
    // `f32` fields (checked in `body_rows.rs`), so both rows are aligned,
    // inside the body and initialised.
    unsafe {
        _mm256_insertf128_ps::<1>(
            _mm256_castps128_ps256(_mm_load_ps(low.add(4 * k))),
            _mm_load_ps(high.add(4 * k)),
        )
    }
}

/// Velocities and motion of one side of eight lanes, gathered from the
/// bodies (`QuadBody` for all eight lanes).
#[derive(Clone, Copy)]
pub(super) struct OctBody {
    pub(super) vx: Oct,
    pub(super) vy: Oct,
    pub(super) w: Oct,
    pub(super) dpx: Oct,
    pub(super) dpy: Oct,
    pub(super) cos: Oct,
    pub(super) sin: Oct,
    /// The lanes' inverse masses: the batch's copy (0 in an empty lane),
    /// or, for a batch that keeps none, the bodies' own.
    pub(super) inv_mass: Oct,
    pub(super) inv_inertia: Oct,
    /// The bodies' own inverse masses, written back unchanged.
    row_inv_mass: Oct,
}

impl OctBody {
    /// The bodies of the eight lanes of `index`, with the batch's lanes of
    /// their inverse inertias and its copies of their inverse masses, or
    /// (`None`) the masses the bodies' velocity rows hold, which are the
    /// same for every lane that names a body.
    #[inline]
    #[target_feature(enable = "avx")]
    pub(super) fn gather<B: Bodies + ?Sized>(
        bodies: &B,
        index: &[u32; 8],
        inv_mass: Option<&F8>,
        inv_inertia: &F8,
    ) -> Self {
        let picked: [&SolverBody; 8] = std::array::from_fn(|l| bodies.pick(index[l]));
        let velocity = transpose(std::array::from_fn(|l| rows(picked[l], picked[l + 4], 0)));
        let motion = transpose(std::array::from_fn(|l| rows(picked[l], picked[l + 4], 1)));
        OctBody {
            vx: Oct(velocity[0]),
            vy: Oct(velocity[1]),
            w: Oct(velocity[2]),
            row_inv_mass: Oct(velocity[3]),
            dpx: Oct(motion[0]),
            dpy: Oct(motion[1]),
            cos: Oct(motion[2]),
            sin: Oct(motion[3]),
            inv_mass: match inv_mass {
                Some(lanes) => Oct::load(lanes),
                None => Oct(velocity[3]),
            },
            inv_inertia: Oct::load(inv_inertia),
        }
    }

    /// Writes the velocity rows back to the lanes' bodies that can move,
    /// lanes 0–3 first, as the quad passes do: a lane with some inverse
    /// mass or inertia, and no negative inertia (an empty round lane).
    #[inline]
    #[target_feature(enable = "avx")]
    pub(super) fn scatter<B: Bodies + ?Sized>(&self, bodies: &mut B, index: &[u32; 8]) {
        let zero = Oct::zero();
        let movable = zero
            .le(self.inv_inertia)
            .and(self.inv_mass.gt(zero).or(self.inv_inertia.gt(zero)))
            .bits();
        let rows = transpose([self.vx.0, self.vy.0, self.w.0, self.row_inv_mass.0]);
        for (lane, &i) in index.iter().enumerate() {
            if movable >> lane & 1 == 0 {
                continue;
            }
            let row = if lane < 4 {
                _mm256_castps256_ps128(rows[lane])
            } else {
                _mm256_extractf128_ps::<1>(rows[lane - 4])
            };
            if let Some(body) = bodies.pick_mut(i) {
                let at = (body as *mut SolverBody).cast::<f32>();
                // SAFETY: the velocity row is the body's first 16 bytes,
                // aligned, four `f32` fields.
                unsafe { _mm_store_ps(at, row) };
            }
        }
    }

    /// Adds impulse (`jx`, `jy`) at anchor (`rx`, `ry`) in every lane.
    #[inline]
    #[target_feature(enable = "avx")]
    pub(super) fn push(&mut self, rx: Oct, ry: Oct, jx: Oct, jy: Oct) {
        self.vx = self.vx.add(jx.mul(self.inv_mass));
        self.vy = self.vy.add(jy.mul(self.inv_mass));
        self.w = self.w.add(self.inv_inertia.mul(rx.mul(jy).sub(ry.mul(jx))));
    }

    /// Subtracts impulse (`jx`, `jy`) at anchor (`rx`, `ry`) in every lane.
    #[inline]
    #[target_feature(enable = "avx")]
    pub(super) fn pull(&mut self, rx: Oct, ry: Oct, jx: Oct, jy: Oct) {
        self.vx = self.vx.sub(jx.mul(self.inv_mass));
        self.vy = self.vy.sub(jy.mul(self.inv_mass));
        self.w = self.w.sub(self.inv_inertia.mul(rx.mul(jy).sub(ry.mul(jx))));
    }

    /// Velocity of the anchor point (`rx`, `ry`): v + ω × r.
    #[inline]
    #[target_feature(enable = "avx")]
    pub(super) fn point_velocity(&self, rx: Oct, ry: Oct) -> (Oct, Oct) {
        (self.vx.sub(ry.mul(self.w)), self.vy.add(rx.mul(self.w)))
    }

    /// The anchor (`rx`, `ry`) moved by the body's motion within the step.
    #[inline]
    #[target_feature(enable = "avx")]
    pub(super) fn moved(&self, rx: Oct, ry: Oct) -> (Oct, Oct) {
        (
            self.dpx.add(self.cos.mul(rx).sub(self.sin.mul(ry))),
            self.dpy.add(self.sin.mul(rx).add(self.cos.mul(ry))),
        )
    }
}

/// `(v_B − v_A)·(dx, dy)` in every lane: the centres' relative speed along
/// a direction.
#[inline]
#[target_feature(enable = "avx")]
pub(super) fn relative_speed(a: &OctBody, b: &OctBody, dx: Oct, dy: Oct) -> Oct {
    b.vx.sub(a.vx).mul(dx).add(b.vy.sub(a.vy).mul(dy))
}

/// The softness of eight lanes, picked by their sides (`SideSoftness`).
#[derive(Clone, Copy)]
pub(super) struct OctSides {
    bias_rate: Oct,
    mass_scale: Oct,
    impulse_scale: Oct,
}

impl OctSides {
    /// `softness` in every lane.
    #[inline]
    #[target_feature(enable = "avx")]
    fn splat(softness: &Softness) -> OctSides {
        OctSides {
            bias_rate: Oct::splat(softness.bias_rate),
            mass_scale: Oct::splat(softness.mass_scale),
            impulse_scale: Oct::splat(softness.impulse_scale),
        }
    }
}

/// The softness of a pass in every lane (`QuadSoftness`), made once a pass:
/// the stiffer one where a side cannot move, and the pass's `1/h` and
/// `-max_push`.
#[derive(Clone, Copy)]
pub(super) struct OctSoftness {
    moving: OctSides,
    fixed: OctSides,
    inv_h: Oct,
    max_push: Oct,
}

impl OctSoftness {
    /// The values `QuadSoftness::new` takes, in every lane.
    #[inline]
    #[target_feature(enable = "avx")]
    pub(super) fn new(softness: ContactSoftness, max_push: Real, inv_h: Real) -> Self {
        OctSoftness {
            moving: OctSides::splat(&softness.moving),
            fixed: OctSides::splat(&softness.fixed),
            inv_h: Oct::splat(inv_h),
            max_push: Oct::splat(-max_push),
        }
    }

    /// The softness of the lanes between sides `a` and `b`
    /// (`QuadSoftness::sides`).
    #[inline]
    #[target_feature(enable = "avx")]
    pub(super) fn sides(&self, a: &OctBody, b: &OctBody) -> OctSides {
        let zero = Oct::zero();
        let fixed_side = |side: &OctBody| side.inv_mass.le(zero).and(side.inv_inertia.le(zero));
        let against_fixed = fixed_side(a).or(fixed_side(b));
        if !against_fixed.any() {
            // Every lane between moving sides: what the selects give.
            return self.moving;
        }
        let (fixed, moving) = (&self.fixed, &self.moving);
        OctSides {
            bias_rate: against_fixed.select(fixed.bias_rate, moving.bias_rate),
            mass_scale: against_fixed.select(fixed.mass_scale, moving.mass_scale),
            impulse_scale: against_fixed.select(fixed.impulse_scale, moving.impulse_scale),
        }
    }

    /// The bias, mass scale and impulse scale of points at `separation`
    /// (`QuadSoftness::terms`).
    #[inline]
    #[target_feature(enable = "avx")]
    pub(super) fn terms(&self, sides: Option<&OctSides>, separation: Oct) -> (Oct, Oct, Oct) {
        let zero = Oct::zero();
        let apart = separation.gt(zero);
        match sides {
            Some(sides) => (
                apart.select(
                    separation.mul(self.inv_h),
                    sides.bias_rate.mul(separation).max(self.max_push),
                ),
                apart.select(Oct::splat(1.0), sides.mass_scale),
                apart.select(zero, sides.impulse_scale),
            ),
            None => (
                apart.select(separation.mul(self.inv_h), zero),
                Oct::splat(1.0),
                zero,
            ),
        }
    }
}
