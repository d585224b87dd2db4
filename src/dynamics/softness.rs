//! Soft constraint coefficients (the "soft step" of Box2D v3 / Solver2D).
//!
//! A contact is a damped spring of stiffness `hertz` and damping ratio `zeta`
//! solved implicitly over a substep `h`. With ω = 2π·hertz:
//! `a1 = 2ζ + hω`, `a2 = hω·a1`, `a3 = 1 / (1 + a2)`;
//! `bias_rate = ω / a1`, `mass_scale = a2·a3`, `impulse_scale = a3`.
//! A rigid constraint is `bias_rate = 0, mass_scale = 1, impulse_scale = 0`.

use crate::math::Real;

/// Coefficients that turn a rigid velocity constraint into a soft one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Softness {
    /// Fraction of the position error fed back as velocity, per second.
    pub bias_rate: Real,
    /// Scales the effective mass (how much of the velocity error is removed).
    pub mass_scale: Real,
    /// Scales the accumulated impulse that is subtracted (spring relaxation).
    pub impulse_scale: Real,
}

impl Softness {
    /// A rigid constraint: no position feedback, full velocity correction.
    pub const RIGID: Softness = Softness {
        bias_rate: 0.0,
        mass_scale: 1.0,
        impulse_scale: 0.0,
    };

    /// Coefficients for a spring of `hertz` with damping ratio `zeta`, substep `h` seconds.
    pub fn new(hertz: Real, zeta: Real, h: Real) -> Softness {
        if hertz <= 0.0 || h <= 0.0 {
            return Softness::RIGID;
        }
        let omega = 2.0 * std::f32::consts::PI * hertz;
        let a1 = 2.0 * zeta + h * omega;
        let a2 = h * omega * a1;
        let a3 = 1.0 / (1.0 + a2);
        Softness {
            bias_rate: omega / a1,
            mass_scale: a2 * a3,
            impulse_scale: a3,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stiffer_springs_correct_more() {
        let h = 1.0 / 240.0;
        let soft = Softness::new(10.0, 1.0, h);
        let stiff = Softness::new(60.0, 1.0, h);
        assert!(stiff.mass_scale > soft.mass_scale);
        assert!(stiff.impulse_scale < soft.impulse_scale);
        assert!((soft.mass_scale + soft.impulse_scale - 1.0).abs() < 1e-6);
        assert_eq!(Softness::new(0.0, 1.0, h), Softness::RIGID);
    }
}
