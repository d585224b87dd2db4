//! Integrating positions within a substep: each body's displacement, turn
//! and rotation since the start of the step move on by its velocities.
//!
//! Four bodies at a time in [`Quad`]s (their rows transposed, as the lane
//! solver gathers them, see `body_rows.rs`), the rest one by one; both
//! compute the same expressions, so a body's result does not depend on
//! where in the array it sits (a test checks every lane against the
//! scalar path).
//!
//! The substep's rotation `(cos θ, sin θ)` comes from the polynomials of
//! Cephes' `sinf`/`cosf` on `|θ| ≤ π/4`, which the spin cap
//! ([`MAX_ROTATION_PER_SUBSTEP`]) keeps every body that can turn within;
//! a larger turn (a kinematic spin, which is not capped) takes the
//! library's `sin_cos`. The polynomials are our own arithmetic, so the
//! rotation is the same on every platform, and they are within 2 ulp of
//! the library's over that range (a test checks).

use super::body_rows;
use super::contact_solver::{BodyTurn, MAX_ROTATION_PER_SUBSTEP, SolverBody};
use super::quad::Quad;
use crate::math::{Real, Rot2, vec2};

// Cephes `sinf` and `cosf` on [-π/4, π/4]: sin x = x + x³ S(x²),
// cos x = 1 − x²/2 + x⁴ C(x²).
const SIN_1: Real = -1.666_665_5e-1;
const SIN_2: Real = 8.332_161e-3;
const SIN_3: Real = -1.951_529_6e-4;
const COS_1: Real = 4.166_664_6e-2;
const COS_2: Real = -1.388_731_6e-3;
const COS_3: Real = 2.443_315_7e-5;

/// Largest angle (radians) the polynomials are used for.
const POLYNOMIAL_REACH: Real = std::f32::consts::FRAC_PI_4;

/// `(sin θ, cos θ)` by the polynomials (for `|θ| ≤ π/4`).
#[inline(always)]
fn sin_cos_polynomial(x: Real) -> (Real, Real) {
    let z = x * x;
    let sin = ((SIN_3 * z + SIN_2) * z + SIN_1) * z * x + x;
    let cos = ((COS_3 * z + COS_2) * z + COS_1) * z * z - 0.5 * z + 1.0;
    (sin, cos)
}

/// `(sin θ, cos θ)`: the polynomials within their reach, the library's
/// `sin_cos` beyond.
#[inline(always)]
fn sin_cos(x: Real) -> (Real, Real) {
    if x.abs() <= POLYNOMIAL_REACH || x.is_nan() {
        sin_cos_polynomial(x)
    } else {
        x.sin_cos()
    }
}

/// Advances body deltas by one substep of `h` seconds from their velocities.
/// `turns` is parallel to `bodies`: each body's inverse inertia and its
/// rotation within the step as an accumulated angle (radians; may exceed
/// π, which `delta_rotation` cannot show: what continuous collision
/// sweeps), which this adds to; bodies past the end of `turns` are left
/// as they are. The spin of a body that can turn is capped at
/// [`MAX_ROTATION_PER_SUBSTEP`] per substep. A body with no velocity keeps
/// its deltas exactly.
pub fn integrate_positions(bodies: &mut [SolverBody], turns: &mut [BodyTurn], h: Real) {
    let n = bodies.len().min(turns.len());
    let (bodies, turns) = (&mut bodies[..n], &mut turns[..n]);
    let (body_fours, body_rest) = bodies.as_chunks_mut::<4>();
    let (turn_fours, turn_rest) = turns.as_chunks_mut::<4>();
    for (four, turn) in body_fours.iter_mut().zip(turn_fours.iter_mut()) {
        integrate_four(four, turn, h);
    }
    for (body, turn) in body_rest.iter_mut().zip(turn_rest.iter_mut()) {
        integrate_one(body, turn, h);
    }
}

/// One body (the expressions of [`integrate_four`], one lane).
#[inline]
fn integrate_one(body: &mut SolverBody, turn: &mut BodyTurn, h: Real) {
    let mut w = body.angular_velocity;
    if turn.inv_inertia > 0.0 && (w * h).abs() > MAX_ROTATION_PER_SUBSTEP {
        w = MAX_ROTATION_PER_SUBSTEP.copysign(w) / h;
        body.angular_velocity = w;
    }
    let (v, dp) = (body.linear_velocity, body.delta_position);
    body.delta_position = vec2(dp.x + v.x * h, dp.y + v.y * h);
    let angle = w * h;
    turn.delta_angle += angle;
    let (sin, cos) = sin_cos(angle);
    let q = body.delta_rotation.complex();
    let (re, im) = (cos * q.re - sin * q.im, cos * q.im + sin * q.re);
    // `renormalize_fast`: one Newton step towards unit length.
    let k = 0.5 * (3.0 - (re * re + im * im));
    body.delta_rotation = Rot2::new_unchecked(nalgebra::Complex {
        re: re * k,
        im: im * k,
    });
}

/// Four bodies side by side.
#[inline(always)]
fn integrate_four(bodies: &mut [SolverBody; 4], turns: &mut [BodyTurn; 4], h: Real) {
    let mut rows = body_rows::gather4([&bodies[0], &bodies[1], &bodies[2], &bodies[3]]);
    let [inv_inertia, delta_angle] = body_rows::load_turns(turns);
    let (h4, zero) = (Quad::splat(h), Quad::zero());
    let cap = Quad::splat(MAX_ROTATION_PER_SUBSTEP);
    let capped = inv_inertia.gt(zero).and((rows.w * h4).abs().gt(cap));
    rows.w = capped.select(cap.copysign(rows.w) / h4, rows.w);
    rows.dpx += rows.vx * h4;
    rows.dpy += rows.vy * h4;
    let angle = rows.w * h4;
    let delta_angle = delta_angle + angle;
    // The polynomials in every lane, then the library's where they do not reach.
    let z = angle * angle;
    let splat = Quad::splat;
    let mut sin = ((splat(SIN_3) * z + splat(SIN_2)) * z + splat(SIN_1)) * z * angle + angle;
    let mut cos = ((splat(COS_3) * z + splat(COS_2)) * z + splat(COS_1)) * z * z - splat(0.5) * z
        + Quad::one();
    let far = angle.abs().gt(splat(POLYNOMIAL_REACH));
    if far.any() {
        (sin, cos) = library_sin_cos(angle, far, sin, cos);
    }
    let (re, im) = (
        cos * rows.cos - sin * rows.sin,
        cos * rows.sin + sin * rows.cos,
    );
    let k = splat(0.5) * (splat(3.0) - (re * re + im * im));
    (rows.cos, rows.sin) = (re * k, im * k);
    body_rows::store_rows(bodies, &rows);
    body_rows::store_turns(turns, [inv_inertia, delta_angle]);
}

/// `(sin, cos)` with the lanes flagged in `far` replaced by the library's
/// `sin_cos` of `angle`.
#[cold]
#[inline(never)]
fn library_sin_cos(angle: Quad, far: super::quad::QuadMask, sin: Quad, cos: Quad) -> (Quad, Quad) {
    let mut lanes = [super::lanes::F8::ZERO; 3];
    angle.put(&mut lanes[0], 0);
    sin.put(&mut lanes[1], 0);
    cos.put(&mut lanes[2], 0);
    for l in 0..4 {
        if far.bits() >> l & 1 == 1 {
            (lanes[1].0[l], lanes[2].0[l]) = lanes[0].0[l].sin_cos();
        }
    }
    (Quad::half(&lanes[1], 0), Quad::half(&lanes[2], 0))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(k: usize) -> (SolverBody, BodyTurn) {
        let f = k as f32;
        // Spins from resting to beyond the cap, either way; every fifth
        // body cannot turn (its spin is not capped).
        let w = [0.0, 3.0, -47.0, 120.0, -900.0, 2.5e4, -0.0][k % 7] * (1.0 + 0.1 * f);
        (
            SolverBody {
                linear_velocity: vec2(0.3 * f - 2.0, -1.25 * f),
                angular_velocity: w,
                inv_mass: if k.is_multiple_of(5) {
                    0.0
                } else {
                    1.0 / (f + 1.0)
                },
                delta_position: vec2(0.01 * f, -0.02 * f),
                delta_rotation: Rot2::new(0.37 * f),
            },
            BodyTurn {
                inv_inertia: if k.is_multiple_of(5) { 0.0 } else { 0.5 },
                delta_angle: 0.1 * f,
            },
        )
    }

    /// Every body comes out of the four-lane path exactly as out of the
    /// one-body path, wherever it sits.
    #[test]
    fn four_lanes_are_the_scalar_path() {
        for count in [0, 1, 4, 5, 11, 23] {
            let (mut bodies, mut turns): (Vec<_>, Vec<_>) = (0..count).map(body).unzip();
            let (mut one_bodies, mut one_turns) = (bodies.clone(), turns.clone());
            let h = 1.0 / 240.0;
            integrate_positions(&mut bodies, &mut turns, h);
            for (b, t) in one_bodies.iter_mut().zip(one_turns.iter_mut()) {
                integrate_one(b, t, h);
            }
            let bits = |b: &SolverBody| {
                let q = b.delta_rotation.complex();
                [
                    b.linear_velocity.x,
                    b.linear_velocity.y,
                    b.angular_velocity,
                    b.inv_mass,
                    b.delta_position.x,
                    b.delta_position.y,
                    q.re,
                    q.im,
                ]
                .map(f32::to_bits)
            };
            for k in 0..count {
                assert_eq!(
                    bits(&bodies[k]),
                    bits(&one_bodies[k]),
                    "body {k} of {count}"
                );
                assert_eq!(
                    turns[k].delta_angle.to_bits(),
                    one_turns[k].delta_angle.to_bits()
                );
            }
        }
    }

    #[test]
    fn spins_are_capped_for_bodies_that_turn_only() {
        let h = 0.01;
        let mut bodies = [SolverBody::FIXED; 2];
        bodies[0].angular_velocity = 500.0;
        bodies[1].angular_velocity = -500.0;
        let mut turns = [
            BodyTurn {
                inv_inertia: 1.0,
                delta_angle: 0.0,
            },
            BodyTurn::default(),
        ];
        integrate_positions(&mut bodies, &mut turns, h);
        assert_eq!(bodies[0].angular_velocity, MAX_ROTATION_PER_SUBSTEP / h);
        assert_eq!(bodies[1].angular_velocity, -500.0);
        assert_eq!(turns[1].delta_angle, -5.0);
        // The uncapped turn of 5 rad takes the library's rotation.
        let q = bodies[1].delta_rotation.complex();
        assert!((q.re - (-5.0f32).cos()).abs() < 1e-6 && (q.im - (-5.0f32).sin()).abs() < 1e-6);
    }

    #[test]
    fn a_body_at_rest_keeps_its_deltas_exactly() {
        let mut bodies = [SolverBody::FIXED; 5];
        bodies[2].inv_mass = 1.0;
        let mut turns = [BodyTurn::default(); 5];
        integrate_positions(&mut bodies, &mut turns, 0.004);
        for body in &bodies[..] {
            assert_eq!(
                body.delta_position.map(f32::to_bits),
                vec2(0.0, 0.0).map(f32::to_bits)
            );
            let q = body.delta_rotation.complex();
            assert_eq!(
                (q.re.to_bits(), q.im.to_bits()),
                (1.0f32.to_bits(), 0.0f32.to_bits())
            );
        }
        assert!(turns.iter().all(|t| t.delta_angle.to_bits() == 0));
    }

    /// Within their reach the polynomials are within 2 ulp of the
    /// library's `sin` and `cos`, and exact at 0.
    #[test]
    fn polynomials_follow_the_library() {
        let ulps = |a: f32, b: f32| (a.to_bits() as i64 - b.to_bits() as i64).unsigned_abs();
        let steps = 20_000;
        for i in -steps..=steps {
            let x = POLYNOMIAL_REACH * i as f32 / steps as f32;
            let (s, c) = sin_cos_polynomial(x);
            let (ls, lc) = x.sin_cos();
            assert!(ulps(c, lc) <= 2, "cos {x}: {c} against {lc}");
            // Near 0 sine's ulps are tiny: compare in absolute terms there.
            assert!(
                ulps(s, ls) <= 2 || (s - ls).abs() < 1e-9,
                "sin {x}: {s} against {ls}"
            );
        }
        assert_eq!(sin_cos_polynomial(0.0), (0.0, 1.0));
        assert_eq!(sin_cos(-0.0), (0.0, 1.0));
    }
}
