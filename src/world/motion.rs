//! [`MotionTrack`]: how far a body's points may have moved, accumulated
//! from step to step, so that a pair of trees or of discs known to be
//! apart can be passed over without looking at the shapes again.
//!
//! At the start of every step's narrowphase each body with a circle tree
//! or a circle (the only colliders whose pairs go quiet) adds a bound of
//! its motion since the last time to two running sums; a body gaining its
//! first such collider later adds all its motion since the last reading
//! at once, which only makes the bound looser:
//! - `translation`: `|Δt|`, the motion of the body origin;
//! - `turn`: `|ΔR| · s₁ + |Δs|`, which times a collider's reach about the
//!   origin (`|q|`, local units) bounds the rest: a point `t + R s q` moves
//!   by at most `|Δt| + |R₁ s₁ − R₀ s₀| · |q| ≤ |Δt| + (|ΔR| s₁ + |Δs|) |q|`,
//!   and a disc's radius `s r` changes by `|Δs| r`, covered the same way
//!   when the reach includes the radius.
//!
//! So every point of a collider (every leaf disc, as a set) has moved by at
//! most `Δtranslation + reach · Δturn` between two readings: the triangle
//! inequality over the steps in between. The sums are `f64` and every term
//! is inflated by [`MOTION_INFLATION`] to cover its own rounding. Teleports
//! (`set_pose`), rescaling and continuous collision all show up as pose
//! changes, so nothing escapes the sums.
//!
//! The track is derived data: it never changes the simulation, equality
//! ignores it, and snapshots skip it (a restored track starts over, and the
//! pairs' caches it vouches for are skipped along with it).

use crate::math::{Pose, Real};

/// Each term of the sums is multiplied by `1 + MOTION_INFLATION`: the f32
/// differences and products it comes from round by a few ulps at most.
pub(crate) const MOTION_INFLATION: f64 = 1e-5;

/// Running bounds of a body's motion (see the module docs).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct MotionTrack {
    /// The pose at the last reading.
    pose: Pose,
    /// Σ |Δt| (m).
    translation: f64,
    /// Σ (|ΔR| s₁ + |Δs|) (per local unit of reach).
    turn: f64,
}

impl PartialEq for MotionTrack {
    /// Always equal: the track is not part of the simulated state.
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl MotionTrack {
    /// A track starting at `pose`.
    pub fn new(pose: Pose) -> MotionTrack {
        MotionTrack {
            pose,
            translation: 0.0,
            turn: 0.0,
        }
    }

    /// Adds the motion from the last reading to `pose`.
    #[inline]
    pub fn advance(&mut self, pose: &Pose) {
        if *pose == self.pose {
            return;
        }
        let (r0, r1) = (self.pose.rotation.complex(), pose.rotation.complex());
        let shift = pose.translation - self.pose.translation;
        let (dc, ds) = (
            f64::from(r1.re) - f64::from(r0.re),
            f64::from(r1.im) - f64::from(r0.im),
        );
        let grow = 1.0 + MOTION_INFLATION;
        // f64 squares of f32 values neither overflow nor underflow to a
        // wrong length, and the root is within a few f64 ulps: far inside
        // the inflation (`hypot`, a library call, cost 2% of a trees step).
        let length = |x: f64, y: f64| (x * x + y * y).sqrt();
        let translation = length(f64::from(shift.x), f64::from(shift.y));
        let turn = length(dc, ds) * f64::from(pose.scale)
            + (f64::from(pose.scale) - f64::from(self.pose.scale)).abs();
        self.translation += translation * grow;
        self.turn += turn * grow;
        self.pose = *pose;
    }

    /// How far any point within `reach` (local units, about the body
    /// origin) has moved in all, as a running total (m): only differences
    /// of two readings mean anything.
    #[inline]
    pub fn reading(&self, reach: Real) -> f64 {
        self.translation + f64::from(reach) * self.turn
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;

    #[test]
    fn readings_bound_the_motion_of_every_point() {
        let start = Pose::new(vec2(1.0, -2.0), 0.3).with_scale(1.5);
        let mut track = MotionTrack::new(start);
        let before = track.reading(2.0);
        let mut pose = start;
        for i in 0..50 {
            let turn = 0.1 * (i as Real).sin();
            pose = Pose {
                rotation: crate::math::Rot2::new(turn) * pose.rotation,
                translation: pose.translation + vec2(0.01 * i as Real, -0.02),
                scale: pose.scale * (1.0 + 0.001 * (i % 3) as Real),
            };
            track.advance(&pose);
        }
        let moved = track.reading(2.0) - before;
        for q in [
            vec2(2.0, 0.0),
            vec2(0.0, -2.0),
            vec2(1.2, 1.5),
            vec2(0.0, 0.0),
        ] {
            let shift = (pose.transform_point(q) - start.transform_point(q)).norm();
            assert!(f64::from(shift) <= moved, "{q:?}: {shift} > {moved}");
        }
        // A radius of 2 grows by |Δs| · 2.
        let grown = (pose.scale - start.scale).abs() * 2.0;
        assert!(f64::from(grown) <= moved);
        // Standing still adds nothing.
        let still = track.reading(2.0);
        track.advance(&pose);
        assert_eq!(track.reading(2.0), still);
    }
}
