//! Solver bodies into lanes and back, four at a time.
//!
//! A [`SolverBody`] is two rows of four `f32` (it is `repr(C)` and
//! 32-byte aligned): the *velocity row* `[vx, vy, ω, 1/m]` and the *motion
//! row* `[dpx, dpy, cos, sin]` (displacement and rotation within the step).
//! A pass of the lane solver needs each of those fields of four bodies as
//! one [`Quad`].
//!
//! On x86-64 a row is one SSE load, and four rows transposed (eight
//! shuffles) give one field of four bodies per register: four bodies' two
//! rows take 8 loads and 16 shuffles, where filling the lanes one float at
//! a time takes one load and one insert for each of the 32 floats. Writing
//! back transposes the velocity quads into rows and stores each movable
//! body's row whole (its inverse mass unchanged). The solver passes spend
//! most of their time moving bodies in and out of lanes, which this
//! halves. Elsewhere the lanes are filled and read one float at a time.
//!
//! Invariant: both ways only move values, so they give the same lanes and
//! the same bodies bit for bit (a test checks the transposes against the
//! lane-by-lane reference).

use super::contact_solver::{BodyTurn, SolverBody};
use super::lanes::F8;
use super::quad::Quad;

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
    assert!(offset_of!(BodyTurn, inv_inertia) == 0);
    assert!(offset_of!(BodyTurn, delta_angle) == 4);
    assert!(size_of::<BodyTurn>() == 8);
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

/// The two rows of four bodies as quads.
#[derive(Clone, Copy, Debug)]
pub(super) struct BodyQuads {
    /// Linear velocity x (m/s).
    pub vx: Quad,
    /// Linear velocity y (m/s).
    pub vy: Quad,
    /// Angular velocity (rad/s).
    pub w: Quad,
    /// Inverse mass (1/kg).
    pub inv_mass: Quad,
    /// Displacement within the step, x (m).
    pub dpx: Quad,
    /// Displacement within the step, y (m).
    pub dpy: Quad,
    /// Cosine of the rotation within the step.
    pub cos: Quad,
    /// Sine of the rotation within the step.
    pub sin: Quad,
}

// The two moves, by architecture: `gather4` (four bodies' rows into
// quads) and `scatter4_velocities` (velocity quads back into the bodies'
// velocity rows), documented on each implementation.
#[cfg(not(target_arch = "x86_64"))]
pub(super) use self::{gather4_by_lane as gather4, scatter4_by_lane as scatter4_velocities};
#[cfg(target_arch = "x86_64")]
pub(super) use sse::{gather4, scatter4_velocities};

/// Lane `l` of the first four lanes of each of `fields`, filled by `fill`.
#[inline(always)]
fn quads<const K: usize>(fill: impl Fn(usize) -> [f32; K]) -> [Quad; K] {
    let mut lanes = [F8::ZERO; K];
    for l in 0..4 {
        for (field, value) in lanes.iter_mut().zip(fill(l)) {
            field.0[l] = value;
        }
    }
    lanes.map(|field| Quad::half(&field, 0))
}

/// [`gather4`] one float at a time.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
#[inline(always)]
pub(super) fn gather4_by_lane(bodies: [&SolverBody; 4]) -> BodyQuads {
    let [vx, vy, w, inv_mass, dpx, dpy, cos, sin] = quads(|l| {
        let b = bodies[l];
        let c = b.delta_rotation.complex();
        [
            b.linear_velocity.x,
            b.linear_velocity.y,
            b.angular_velocity,
            b.inv_mass,
            b.delta_position.x,
            b.delta_position.y,
            c.re,
            c.im,
        ]
    });
    BodyQuads {
        vx,
        vy,
        w,
        inv_mass,
        dpx,
        dpy,
        cos,
        sin,
    }
}

/// [`scatter4_velocities`] one float at a time.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
#[inline(always)]
pub(super) fn scatter4_by_lane<B: Bodies + ?Sized>(
    bodies: &mut B,
    index: &[u32; 4],
    velocity: [Quad; 4],
    write: u32,
) {
    let [vx, vy, w, inv_mass] = velocity.map(|q| {
        let mut lanes = F8::ZERO;
        q.put(&mut lanes, 0);
        lanes
    });
    for (l, &i) in index.iter().enumerate() {
        if write >> l & 1 == 0 {
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

#[cfg(not(target_arch = "x86_64"))]
pub(super) use self::{
    load_turns_by_lane as load_turns, store_rows_by_lane as store_rows,
    store_turns_by_lane as store_turns,
};
#[cfg(target_arch = "x86_64")]
pub(super) use sse::{load_turns, store_rows, store_turns};

/// [`store_rows`] one float at a time.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
#[inline(always)]
pub(super) fn store_rows_by_lane(bodies: &mut [SolverBody; 4], quads: &BodyQuads) {
    let fields = [
        quads.vx,
        quads.vy,
        quads.w,
        quads.inv_mass,
        quads.dpx,
        quads.dpy,
        quads.cos,
        quads.sin,
    ]
    .map(|q| {
        let mut lanes = F8::ZERO;
        q.put(&mut lanes, 0);
        lanes
    });
    for (l, b) in bodies.iter_mut().enumerate() {
        let v = |k: usize| fields[k].0[l];
        b.linear_velocity = crate::math::vec2(v(0), v(1));
        b.angular_velocity = v(2);
        b.inv_mass = v(3);
        b.delta_position = crate::math::vec2(v(4), v(5));
        b.delta_rotation =
            crate::math::Rot2::new_unchecked(nalgebra::Complex { re: v(6), im: v(7) });
    }
}

/// [`load_turns`] one float at a time.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
#[inline(always)]
pub(super) fn load_turns_by_lane(turns: &[BodyTurn; 4]) -> [Quad; 2] {
    quads(|l| [turns[l].inv_inertia, turns[l].delta_angle])
}

/// [`store_turns`] one float at a time.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
#[inline(always)]
pub(super) fn store_turns_by_lane(
    turns: &mut [BodyTurn; 4],
    [inv_inertia, delta_angle]: [Quad; 2],
) {
    let [inv_inertia, delta_angle] = [inv_inertia, delta_angle].map(|q| {
        let mut lanes = F8::ZERO;
        q.put(&mut lanes, 0);
        lanes
    });
    for (l, t) in turns.iter_mut().enumerate() {
        t.inv_inertia = inv_inertia.0[l];
        t.delta_angle = delta_angle.0[l];
    }
}

#[cfg(target_arch = "x86_64")]
mod sse {
    use super::{Bodies, BodyQuads, BodyTurn, Quad, SolverBody};
    use std::arch::x86_64::{
        __m128, _mm_load_ps, _mm_loadu_ps, _mm_movehl_ps, _mm_movelh_ps, _mm_shuffle_ps,
        _mm_store_ps, _mm_storeu_ps, _mm_unpackhi_ps, _mm_unpacklo_ps,
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

    /// The rows of four `bodies` (one per lane) as quads.
    #[inline(always)]
    pub(in super::super) fn gather4(bodies: [&SolverBody; 4]) -> BodyQuads {
        let velocity = transpose(bodies.map(|body| row(body, 0)));
        let motion = transpose(bodies.map(|body| row(body, 1)));
        BodyQuads {
            vx: Quad(velocity[0]),
            vy: Quad(velocity[1]),
            w: Quad(velocity[2]),
            inv_mass: Quad(velocity[3]),
            dpx: Quad(motion[0]),
            dpy: Quad(motion[1]),
            cos: Quad(motion[2]),
            sin: Quad(motion[3]),
        }
    }

    /// Writes velocity quads `[vx, vy, ω, 1/m]` back: lane `l`'s velocity
    /// row (with the inverse mass, which the solver never changes) into
    /// `bodies[index[l]]` where bit `l` of `write` is set and the index is
    /// in range.
    #[inline(always)]
    pub(in super::super) fn scatter4_velocities<B: Bodies + ?Sized>(
        bodies: &mut B,
        index: &[u32; 4],
        velocity: [Quad; 4],
        write: u32,
    ) {
        let rows = transpose(velocity.map(|q| q.0));
        for (l, &i) in index.iter().enumerate() {
            if write >> l & 1 == 0 {
                continue;
            }
            if let Some(body) = bodies.pick_mut(i) {
                let at = (body as *mut SolverBody).cast::<f32>();
                // SAFETY: SSE is part of every x86-64 processor; the
                // velocity row is the body's first 16 bytes, aligned, four
                // `f32` fields (see `row`).
                unsafe { _mm_store_ps(at, rows[l]) };
            }
        }
    }

    /// Writes both rows of four `bodies` from quads (the transposes of
    /// [`gather4`]).
    #[inline(always)]
    pub(in super::super) fn store_rows(bodies: &mut [SolverBody; 4], quads: &BodyQuads) {
        let velocity = transpose([quads.vx.0, quads.vy.0, quads.w.0, quads.inv_mass.0]);
        let motion = transpose([quads.dpx.0, quads.dpy.0, quads.cos.0, quads.sin.0]);
        for (l, body) in bodies.iter_mut().enumerate() {
            let at = (body as *mut SolverBody).cast::<f32>();
            // SAFETY: SSE is part of every x86-64 processor; both rows are
            // the body's first 32 bytes, aligned (see `row`).
            unsafe {
                _mm_store_ps(at, velocity[l]);
                _mm_store_ps(at.add(4), motion[l]);
            }
        }
    }

    /// The inverse inertias and turns of four bodies as quads.
    #[inline(always)]
    pub(in super::super) fn load_turns(turns: &[BodyTurn; 4]) -> [Quad; 2] {
        let at = turns.as_ptr().cast::<f32>();
        // SAFETY: SSE is part of every x86-64 processor; four `BodyTurn`s
        // are 32 bytes of `f32` pairs (`repr(C)`, asserted above), read
        // without alignment.
        unsafe {
            let (low, high) = (_mm_loadu_ps(at), _mm_loadu_ps(at.add(4)));
            [
                Quad(_mm_shuffle_ps::<0b10_00_10_00>(low, high)),
                Quad(_mm_shuffle_ps::<0b11_01_11_01>(low, high)),
            ]
        }
    }

    /// Writes the inverse inertias and turns of four bodies from quads.
    #[inline(always)]
    pub(in super::super) fn store_turns(
        turns: &mut [BodyTurn; 4],
        [inv_inertia, delta_angle]: [Quad; 2],
    ) {
        let at = turns.as_mut_ptr().cast::<f32>();
        // SAFETY: as in `load_turns`, written without alignment.
        unsafe {
            _mm_storeu_ps(at, _mm_unpacklo_ps(inv_inertia.0, delta_angle.0));
            _mm_storeu_ps(at.add(4), _mm_unpackhi_ps(inv_inertia.0, delta_angle.0));
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

    fn lanes(q: Quad) -> [u32; 4] {
        let mut out = F8::ZERO;
        q.put(&mut out, 0);
        std::array::from_fn(|l| out.0[l].to_bits())
    }

    fn same(a: &BodyQuads, b: &BodyQuads) -> bool {
        let bits =
            |x: &BodyQuads| [x.vx, x.vy, x.w, x.inv_mass, x.dpx, x.dpy, x.cos, x.sin].map(lanes);
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
        let picks = [3usize, 10, 7, 7];
        let chosen: [&SolverBody; 4] = std::array::from_fn(|l| &bodies[picks[l]]);
        let quads = gather4(chosen);
        assert!(same(&quads, &gather4_by_lane(chosen)));
        assert_eq!(lanes(quads.vx)[1], bodies[10].linear_velocity.x.to_bits());
        assert_eq!(
            lanes(quads.sin)[0],
            bodies[3].delta_rotation.complex().im.to_bits()
        );
    }

    #[test]
    fn scatter_writes_only_the_flagged_bodies_in_range() {
        let start: Vec<SolverBody> = (0..9).map(body).collect();
        let index = [2u32, 5, u32::MAX, 0];
        // Lane 1 not flagged; lane 2 flagged but out of range.
        let write = 0b1101;
        let mut velocity = gather4_by_lane(std::array::from_fn(|l| &start[l]));
        let values = |base: f32| quads(|l| [base + l as f32]);
        [velocity.vx] = values(100.0);
        [velocity.vy] = values(-100.0);
        [velocity.w] = values(0.5);
        let velocity = [velocity.vx, velocity.vy, velocity.w, velocity.inv_mass];
        let (mut fast, mut reference) = (start.clone(), start.clone());
        scatter4_velocities(fast.as_mut_slice(), &index, velocity, write);
        scatter4_by_lane(reference.as_mut_slice(), &index, velocity, write);
        assert_eq!(fast, reference);
        // Lane 0 went to body 2 with body 0's inverse mass, lane 3 to body 0.
        assert_eq!(fast[2].linear_velocity, vec2(100.0, -100.0));
        assert_eq!(fast[2].inv_mass, start[0].inv_mass);
        assert_eq!(fast[0].angular_velocity, 3.5);
        assert_eq!(fast[5], start[5]);
        assert_eq!(fast[3], start[3]);
        assert_eq!(fast[2].delta_position, start[2].delta_position);
    }
}
