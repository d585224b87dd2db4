//! Solver bodies into lanes and back, eight at a time.
//!
//! A [`SolverBody`] is two rows of four `f32` (it is `repr(C)` and
//! 32-byte aligned): the *velocity row* `[vx, vy, ω, 1/m]` and the *motion
//! row* `[dpx, dpy, cos, sin]` (displacement and rotation within the step).
//! A batch of the lane solver needs each of those fields of eight bodies as
//! one [`F8`].
//!
//! On x86-64 a row is one SSE load, and four rows transposed (eight
//! shuffles) give one field of four bodies per register: eight bodies' two
//! rows take 16 loads and 32 shuffles, where filling the lanes one float at
//! a time takes one load and one insert for each of the 64 floats. Writing
//! back transposes the velocity lanes into rows and stores each movable
//! body's row whole (its inverse mass unchanged). The solver passes spend
//! most of their time moving bodies in and out of lanes, which this
//! halves. Elsewhere the lanes are filled and read one float at a time.
//!
//! Invariant: both ways only move values, so they give the same lanes and
//! the same bodies bit for bit (a test checks the transposes against the
//! lane-by-lane reference).

use super::contact_solver::SolverBody;
use super::lanes::F8;

/// Lanes per batch: one body per lane.
const N: usize = 8;

// The rows the transposes read and write, where they must be.
const _: () = {
    use std::mem::{align_of, offset_of, size_of};
    assert!(align_of::<SolverBody>() == 32);
    assert!(offset_of!(SolverBody, linear_velocity) == 0);
    assert!(offset_of!(SolverBody, angular_velocity) == 8);
    assert!(offset_of!(SolverBody, inv_mass) == 12);
    assert!(offset_of!(SolverBody, delta_position) == 16);
    assert!(offset_of!(SolverBody, delta_rotation) == 24);
    assert!(size_of::<crate::math::Rot2>() == 8);
    assert!(size_of::<SolverBody>() == 32);
    assert!(size_of::<F8>() == 32);
};

/// How the lanes reach the solver bodies by index.
///
/// Checked, on a plain slice: an index past the bodies stands for the
/// fixed body ([`SolverBody::FIXED`]) and is never written. Unchecked, on
/// [`Fitted`] bodies, which every index the lanes name is known to fit.
/// Both give the same bodies for every index that fits.
pub(super) trait Bodies {
    /// The body lane index `i` reads.
    fn pick(&self, i: u32) -> &SolverBody;
    /// The body lane index `i` writes, if it names one.
    fn pick_mut(&mut self, i: u32) -> Option<&mut SolverBody>;
}

impl Bodies for [SolverBody] {
    #[inline(always)]
    fn pick(&self, i: u32) -> &SolverBody {
        self.get(i as usize).unwrap_or(&SolverBody::FIXED)
    }

    #[inline(always)]
    fn pick_mut(&mut self, i: u32) -> Option<&mut SolverBody> {
        self.get_mut(i as usize)
    }
}

/// Solver bodies that every index given to [`Bodies::pick`] and
/// [`Bodies::pick_mut`] fits: those index without a bounds check (one
/// comparison per lane and side fewer, in every pass).
pub(super) struct Fitted<'a>(&'a mut [SolverBody]);

impl<'a> Fitted<'a> {
    /// `bodies`, if `largest` fits them.
    ///
    /// # Safety
    /// Every index later given to [`Bodies::pick`] or [`Bodies::pick_mut`]
    /// of the result must be at most `largest`.
    #[inline]
    pub(super) unsafe fn new(bodies: &'a mut [SolverBody], largest: u32) -> Option<Self> {
        ((largest as usize) < bodies.len()).then_some(Fitted(bodies))
    }
}

impl Bodies for Fitted<'_> {
    #[inline(always)]
    fn pick(&self, i: u32) -> &SolverBody {
        debug_assert!((i as usize) < self.0.len());
        // SAFETY: `i` is at most the `largest` that `Fitted::new` found
        // smaller than the length (its caller's promise).
        unsafe { self.0.get_unchecked(i as usize) }
    }

    #[inline(always)]
    fn pick_mut(&mut self, i: u32) -> Option<&mut SolverBody> {
        debug_assert!((i as usize) < self.0.len());
        // SAFETY: as in `pick`.
        Some(unsafe { self.0.get_unchecked_mut(i as usize) })
    }
}

/// The two rows of eight bodies as lanes.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct BodyLanes {
    /// Linear velocity x (m/s).
    pub vx: F8,
    /// Linear velocity y (m/s).
    pub vy: F8,
    /// Angular velocity (rad/s).
    pub w: F8,
    /// Inverse mass (1/kg).
    pub inv_mass: F8,
    /// Displacement within the step, x (m).
    pub dpx: F8,
    /// Displacement within the step, y (m).
    pub dpy: F8,
    /// Cosine of the rotation within the step.
    pub cos: F8,
    /// Sine of the rotation within the step.
    pub sin: F8,
}

// The two moves, by architecture: `gather` (eight bodies' rows into
// lanes) and `scatter_velocities` (velocity lanes back into the bodies'
// velocity rows), documented on each implementation.
#[cfg(not(target_arch = "x86_64"))]
pub(super) use self::{gather_by_lane as gather, scatter_by_lane as scatter_velocities};
#[cfg(target_arch = "x86_64")]
pub(super) use sse::{gather, scatter_velocities};

/// The rows of `bodies` as lanes, one float at a time.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
#[inline(always)]
pub(super) fn gather_by_lane(bodies: [&SolverBody; N]) -> BodyLanes {
    let mut out = BodyLanes::default();
    for (l, b) in bodies.iter().enumerate() {
        out.vx.0[l] = b.linear_velocity.x;
        out.vy.0[l] = b.linear_velocity.y;
        out.w.0[l] = b.angular_velocity;
        out.inv_mass.0[l] = b.inv_mass;
        out.dpx.0[l] = b.delta_position.x;
        out.dpy.0[l] = b.delta_position.y;
        let c = b.delta_rotation.complex();
        out.cos.0[l] = c.re;
        out.sin.0[l] = c.im;
    }
    out
}

/// [`scatter_velocities`] one float at a time.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
#[inline(always)]
pub(super) fn scatter_by_lane<B: Bodies + ?Sized>(
    bodies: &mut B,
    index: &[u32; N],
    [vx, vy, w, inv_mass]: [F8; 4],
    write: impl Fn(usize) -> bool,
) {
    for (l, &i) in index.iter().enumerate() {
        if !write(l) {
            continue;
        }
        if let Some(b) = bodies.pick_mut(i) {
            b.linear_velocity.x = vx.0[l];
            b.linear_velocity.y = vy.0[l];
            b.angular_velocity = w.0[l];
            b.inv_mass = inv_mass.0[l];
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod sse {
    use super::{Bodies, BodyLanes, F8, N, SolverBody};
    use std::arch::x86_64::{
        __m128, _mm_load_ps, _mm_movehl_ps, _mm_movelh_ps, _mm_setzero_ps, _mm_store_ps,
        _mm_unpackhi_ps, _mm_unpacklo_ps,
    };

    /// Four rows of four turned into four columns: `out[k][j] = rows[j][k]`.
    #[inline(always)]
    fn transpose(rows: [__m128; 4]) -> [__m128; 4] {
        // SAFETY: SSE is part of every x86-64 processor; these only shuffle
        // registers.
        unsafe {
            let low01 = _mm_unpacklo_ps(rows[0], rows[1]);
            let low23 = _mm_unpacklo_ps(rows[2], rows[3]);
            let high01 = _mm_unpackhi_ps(rows[0], rows[1]);
            let high23 = _mm_unpackhi_ps(rows[2], rows[3]);
            [
                _mm_movelh_ps(low01, low23),
                _mm_movehl_ps(low23, low01),
                _mm_movelh_ps(high01, high23),
                _mm_movehl_ps(high23, high01),
            ]
        }
    }

    /// Row `k` (0: velocity, 1: motion) of `body`.
    #[inline(always)]
    fn row(body: &SolverBody, k: usize) -> __m128 {
        let at = (body as *const SolverBody).cast::<f32>();
        // SAFETY: SSE is part of every x86-64 processor. A solver body is
        // 16-byte aligned and its first 32 bytes are eight `f32` fields
        // (checked by the assertions above), so both rows are aligned,
        // inside the body and initialised.
        unsafe { _mm_load_ps(at.add(4 * k)) }
    }

    /// Four zeros.
    #[inline(always)]
    fn zero() -> __m128 {
        // SAFETY: SSE is part of every x86-64 processor.
        unsafe { _mm_setzero_ps() }
    }

    /// Two halves of four lanes as eight.
    #[inline(always)]
    fn join(low: __m128, high: __m128) -> F8 {
        // SAFETY: both are 32 bytes of `f32` (F8 is `repr(C)` over
        // `[f32; 8]`), and every bit pattern is a valid `f32`.
        unsafe { std::mem::transmute::<[__m128; 2], F8>([low, high]) }
    }

    /// Eight lanes as two halves of four.
    #[inline(always)]
    fn split(lanes: F8) -> [__m128; 2] {
        // SAFETY: as in `join`.
        unsafe { std::mem::transmute::<F8, [__m128; 2]>(lanes) }
    }

    /// The rows of `bodies` (one per lane) as lanes.
    #[inline(always)]
    pub(in super::super) fn gather(bodies: [&SolverBody; N]) -> BodyLanes {
        // A plain loop, as in `WideBody::gather` (the zeros are never read).
        let mut rows = [[zero(); 2]; N];
        for (rows, body) in rows.iter_mut().zip(bodies) {
            *rows = [row(body, 0), row(body, 1)];
        }
        let columns = |k: usize, first: usize| {
            transpose([
                rows[first][k],
                rows[first + 1][k],
                rows[first + 2][k],
                rows[first + 3][k],
            ])
        };
        let (v_low, v_high) = (columns(0, 0), columns(0, 4));
        let (m_low, m_high) = (columns(1, 0), columns(1, 4));
        BodyLanes {
            vx: join(v_low[0], v_high[0]),
            vy: join(v_low[1], v_high[1]),
            w: join(v_low[2], v_high[2]),
            inv_mass: join(v_low[3], v_high[3]),
            dpx: join(m_low[0], m_high[0]),
            dpy: join(m_low[1], m_high[1]),
            cos: join(m_low[2], m_high[2]),
            sin: join(m_low[3], m_high[3]),
        }
    }

    /// Writes velocity lanes `[vx, vy, ω, 1/m]` back: lane `l`'s velocity
    /// row (with the inverse mass, which the solver never changes) into
    /// `bodies[index[l]]` where `write(l)` holds and the index is in range.
    #[inline(always)]
    pub(in super::super) fn scatter_velocities<B: Bodies + ?Sized>(
        bodies: &mut B,
        index: &[u32; N],
        velocity: [F8; 4],
        write: impl Fn(usize) -> bool,
    ) {
        let [vx, vy, w, inv_mass] = velocity.map(split);
        let low = transpose([vx[0], vy[0], w[0], inv_mass[0]]);
        let high = transpose([vx[1], vy[1], w[1], inv_mass[1]]);
        for (l, &i) in index.iter().enumerate() {
            if !write(l) {
                continue;
            }
            if let Some(body) = bodies.pick_mut(i) {
                let at = (body as *mut SolverBody).cast::<f32>();
                let velocity_row = if l < 4 { low[l] } else { high[l - 4] };
                // SAFETY: SSE is part of every x86-64 processor; the
                // velocity row is the body's first 16 bytes, aligned, four
                // `f32` fields (see `row`).
                unsafe { _mm_store_ps(at, velocity_row) };
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Rot2, vec2};

    fn body(k: usize) -> SolverBody {
        let f = k as f32;
        SolverBody {
            linear_velocity: vec2(f + 0.25, -f - 0.5),
            angular_velocity: 3.0 * f - 7.0,
            inv_mass: 1.0 / (f + 1.0),
            delta_position: vec2(0.01 * f, -0.02 * f),
            delta_rotation: Rot2::new(0.1 * f),
        }
    }

    fn same(a: &BodyLanes, b: &BodyLanes) -> bool {
        let bits = |x: &BodyLanes| {
            [x.vx, x.vy, x.w, x.inv_mass, x.dpx, x.dpy, x.cos, x.sin]
                .map(|lane| lane.0.map(f32::to_bits))
        };
        bits(a) == bits(b)
    }

    #[test]
    fn fitted_bodies_are_the_checked_ones_where_indices_fit() {
        let mut bodies: Vec<SolverBody> = (0..5).map(body).collect();
        let expected = bodies.clone();
        // Checked: past the end is the fixed body, and nothing to write.
        let slice = bodies.as_mut_slice();
        assert_eq!(*slice.pick(5), SolverBody::FIXED);
        assert_eq!(*slice.pick(u32::MAX), SolverBody::FIXED);
        assert!(slice.pick_mut(5).is_none());
        // SAFETY: only indices up to 4 are given below.
        assert!(unsafe { Fitted::new(&mut bodies, 5) }.is_none());
        let mut fitted = unsafe { Fitted::new(&mut bodies, 4) }.unwrap();
        for i in 0..5u32 {
            assert_eq!(*fitted.pick(i), expected[i as usize]);
            fitted.pick_mut(i).unwrap().angular_velocity = -1.0;
        }
        assert!(bodies.iter().all(|b| b.angular_velocity == -1.0));
        assert!(unsafe { Fitted::new(&mut [], 0) }.is_none());
    }

    #[test]
    fn gather_is_the_lane_by_lane_gather() {
        let bodies: Vec<SolverBody> = (0..11).map(body).collect();
        let picks = [3usize, 0, 10, 7, 7, 1, 9, 4];
        let chosen: [&SolverBody; N] = std::array::from_fn(|l| &bodies[picks[l]]);
        let lanes = gather(chosen);
        assert!(same(&lanes, &gather_by_lane(chosen)));
        assert_eq!(lanes.vx.0[2], bodies[10].linear_velocity.x);
        assert_eq!(lanes.sin.0[5], bodies[1].delta_rotation.complex().im);
    }

    #[test]
    fn scatter_writes_only_the_flagged_bodies_in_range() {
        let start: Vec<SolverBody> = (0..9).map(body).collect();
        let index = [2u32, 5, u32::MAX, 0, 8, 20, 6, 1];
        let flags = [true, false, true, true, true, true, false, true];
        let write = |l: usize| flags[l];
        let mut lanes = gather_by_lane(std::array::from_fn(|l| &start[l]));
        for l in 0..N {
            lanes.vx.0[l] = 100.0 + l as f32;
            lanes.vy.0[l] = -100.0 - l as f32;
            lanes.w.0[l] = 0.5 * l as f32;
        }
        let (mut fast, mut reference) = (start.clone(), start.clone());
        let velocity = [lanes.vx, lanes.vy, lanes.w, lanes.inv_mass];
        scatter_velocities(fast.as_mut_slice(), &index, velocity, write);
        scatter_by_lane(reference.as_mut_slice(), &index, velocity, write);
        assert_eq!(fast, reference);
        // Lane 0 went to body 2; lane 1 was not flagged, lane 2 is out of range.
        assert_eq!(fast[2].linear_velocity, vec2(100.0, -100.0));
        assert_eq!(fast[2].inv_mass, start[0].inv_mass);
        assert_eq!(fast[5], start[5]);
        assert_eq!(fast[3], start[3]);
        assert_eq!(fast[2].delta_position, start[2].delta_position);
    }
}
