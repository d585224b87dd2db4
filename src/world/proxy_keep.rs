//! [`ProxyKeep`]: how far a body may move before the solver's write-back
//! must look at its proxies again.
//!
//! After every step the write-back gives each moved collider's proxy the
//! swept box of the step (`proxies.rs`), and the broadphase keeps the
//! stored fat box while it still holds that box and is not far larger
//! ([`BroadPhase::keeps`](crate::broadphase::BroadPhase::keeps)). In a
//! resting pile that is the answer for nearly every body at every step,
//! yet finding it builds the swept box from the collider, its shape and
//! its pose: most of the write-back's time.
//!
//! So when the write-back does look, it also measures, per collider, how
//! far the swept box may stray from the collider's box at the end of the
//! step (`end`) with the stored box still kept
//! ([`BroadPhase::keep_room`](crate::broadphase::BroadPhase::keep_room)),
//! and records the least of those *rooms* on the body with the pose it
//! ended at. At a later step the body's proxies are all kept, and not
//! looked at, while
//!
//! `max(moved(start), moved(end)) + sagitta of this step's turn ≤ room`,
//!
//! where `moved(pose)` bounds how far any point of the body's colliders
//! lies at `pose` from where it lay at the recorded pose.
//!
//! Why that is enough: the collider's boxes at the start and at the end of
//! this step (grown by the same speculative distance) then have each
//! corner within `moved` of `end`'s, as every point of the shape is. The
//! swept box is the union of those two boxes, grown, for a turning body,
//! by at most the sagitta of the turn at the collider's reach about the
//! centre of mass (`swept_box.rs`, [`arc_growth`]); a turn of more than
//! half a turn, or one that is not a number, always looks. So every
//! corner of this step's swept box lies within the left side of the
//! inequality of `end`'s, which is what the room was measured for.
//!
//! `moved` compares the two poses directly, with no square root: a point
//! `q` (body units) sits at `t + s R q`, so it moved by at most
//! `|Δt| + s |ΔR| |q|`, where `|ΔR|` is the length of the difference of
//! the rotations' complex numbers, and a length is at most the sum of its
//! two components' sizes. `|q|` is at most the colliders' reach about the
//! body origin; the scale is the recorded one (a new scale is an edit,
//! which clears the keep). The sum is widened for its own rounding, and
//! the boxes' rounding is in the room's slack.
//!
//! Invariant: a body's keep describes its proxies' stored boxes as they
//! are. Only the write-back moves a proxy during a step; every other move
//! (a new collider, a collider removed, a teleport, a restored snapshot)
//! clears the body's keep ([`ProxyKeep::NONE`]), and a body whose step was
//! not finite keeps none either. The keep is derived: equality ignores it
//! and snapshots skip it, so it never changes what a step computes, only
//! whether the write-back recomputes a box that it would keep anyway.

use super::swept_box::arc_growth;
use crate::math::{Pose, Real, Vec2, is_finite_vec};

/// Relative widening of [`ProxyKeep`]'s motion bound, for the rounding of
/// its few sums and products (far more than they need).
const MOVED_SLACK: Real = 1.0e-4;

/// See the module docs.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ProxyKeep {
    /// The body's pose when the rooms were measured.
    pose: Pose,
    /// Reach of every collider about the body origin, times the recorded
    /// scale (m): how far a point moves per unit of `|ΔR|`.
    reach: Real,
    /// Reach of every collider about the centre of mass (m): the
    /// sagitta's.
    turn_reach: Real,
    /// The least room of the body's proxies (m); negative: no keep.
    room: Real,
}

impl ProxyKeep {
    /// No keep: the write-back looks at the body's proxies.
    pub const NONE: ProxyKeep = ProxyKeep {
        pose: Pose::IDENTITY,
        reach: 0.0,
        turn_reach: 0.0,
        room: -1.0,
    };

    /// The keep of a body at `pose` whose proxies were just looked at:
    /// every proxy kept while no point of its colliders (within `reach` of
    /// the origin, body units) strays more than `room` (m) from where it is,
    /// the sagitta of a turn at `turn_reach` (m) included. `NONE` for a
    /// room that is negative or not finite, or reaches that are not.
    pub fn measured(pose: &Pose, reach: Real, turn_reach: Real, room: Real) -> Self {
        let reach = reach * pose.scale;
        if room >= 0.0 && room.is_finite() && reach.is_finite() && turn_reach.is_finite() {
            ProxyKeep {
                pose: *pose,
                reach,
                turn_reach,
                room,
            }
        } else {
            ProxyKeep::NONE
        }
    }

    /// How far any point of the body may lie at `pose` from where it lay
    /// at the recorded pose (m, an upper bound; NaN when not finite).
    #[inline(always)]
    fn moved(&self, pose: &Pose) -> Real {
        let (r0, r1) = (self.pose.rotation.complex(), pose.rotation.complex());
        let shift = (pose.translation.x - self.pose.translation.x).abs()
            + (pose.translation.y - self.pose.translation.y).abs();
        let turn = (r1.re - r0.re).abs() + (r1.im - r0.im).abs();
        (shift + self.reach * turn) * (1.0 + MOVED_SLACK)
    }

    /// True when every proxy of the body is sure to stay where it is after
    /// a step from `start` to `end` (the body's poses) whose sweep turned
    /// by `angle` and moved the centre of mass by `displacement`.
    #[inline]
    pub fn holds(&self, start: &Pose, end: &Pose, angle: Real, displacement: Vec2) -> bool {
        // (A room is never NaN: `measured` keeps none then.)
        if self.room < 0.0 || !is_finite_vec(displacement) {
            return false;
        }
        let sagitta = if angle == 0.0 {
            0.0
        } else {
            match arc_growth(angle, self.turn_reach) {
                Some(sagitta) => sagitta,
                None => return false,
            }
        };
        // A NaN fails the comparisons.
        self.moved(start) + sagitta <= self.room
            && self.moved(end) + sagitta <= self.room
            && start.scale == self.pose.scale
            && end.scale == self.pose.scale
    }
}

impl Default for ProxyKeep {
    fn default() -> Self {
        ProxyKeep::NONE
    }
}

impl PartialEq for ProxyKeep {
    /// Always equal: the keep is not part of the simulated state.
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;

    #[test]
    fn a_keep_holds_until_the_motion_uses_its_room() {
        let at = |x: Real, angle: Real| Pose::new(vec2(x, 2.0), angle);
        let keep = ProxyKeep::measured(&at(1.0, 0.0), 1.0, 1.0, 0.05);
        assert!(keep.holds(&at(1.0, 0.0), &at(1.0, 0.0), 0.0, Vec2::zeros()));
        assert!(keep.holds(&at(1.0, 0.0), &at(1.04, 0.0), 0.0, vec2(0.04, 0.0)));
        // A turn's sagitta counts: 1 m · 0.5² / 8 > the 0.01 m left.
        assert!(!keep.holds(&at(1.0, 0.0), &at(1.04, 0.0), 0.5, vec2(0.04, 0.0)));
        // So does the turn since the keep: 1 m · |ΔR| ≈ 0.06.
        assert!(!keep.holds(&at(1.0, 0.06), &at(1.0, 0.06), 0.0, Vec2::zeros()));
        // The start counts as much as the end.
        assert!(!keep.holds(&at(1.06, 0.0), &at(1.0, 0.0), 0.0, vec2(-0.06, 0.0)));
        // More than half a turn, or no number, always looks.
        assert!(!keep.holds(&at(1.0, 0.0), &at(1.0, 0.0), 4.0, Vec2::zeros()));
        assert!(!keep.holds(&at(1.0, 0.0), &at(1.0, 0.0), Real::NAN, Vec2::zeros()));
        let nan = at(Real::NAN, 0.0);
        assert!(!keep.holds(&at(1.0, 0.0), &nan, 0.0, Vec2::zeros()));
        assert!(!keep.holds(&at(1.0, 0.0), &at(1.0, 0.0), 0.0, vec2(Real::NAN, 0.0)));
        // Another scale is an edit's: never kept.
        let scaled = at(1.0, 0.0).with_scale(1.01);
        assert!(!keep.holds(&scaled, &scaled, 0.0, Vec2::zeros()));
    }

    #[test]
    fn the_motion_bound_holds_every_point() {
        let from = Pose::new(vec2(3.0, -1.0), 0.7).with_scale(1.5);
        let keep = ProxyKeep::measured(&from, 2.0, 3.0, 1.0);
        for i in 0..200 {
            let k = i as Real;
            let to = Pose::new(
                vec2(
                    3.0 + 0.01 * (k * 0.37).sin(),
                    -1.0 + 0.01 * (k * 0.91).cos(),
                ),
                0.7 + 0.02 * (k * 0.13).sin(),
            )
            .with_scale(1.5);
            for q in [vec2(2.0, 0.0), vec2(-1.2, 1.6), vec2(0.0, -2.0)] {
                let shift = (to.transform_point(q) - from.transform_point(q)).norm();
                assert!(
                    shift <= keep.moved(&to),
                    "{i}: {shift} > {}",
                    keep.moved(&to)
                );
            }
        }
    }

    #[test]
    fn no_room_is_no_keep() {
        let here = Pose::IDENTITY;
        for room in [-0.01, Real::NAN, Real::INFINITY] {
            let keep = ProxyKeep::measured(&here, 1.0, 1.0, room);
            assert!(!keep.holds(&here, &here, 0.0, Vec2::zeros()), "{room}");
        }
        assert!(!ProxyKeep::NONE.holds(&here, &here, 0.0, Vec2::zeros()));
        let keep = ProxyKeep::measured(&here, 1.0, Real::INFINITY, 0.01);
        assert!(!keep.holds(&here, &here, 0.0, Vec2::zeros()));
        let keep = ProxyKeep::measured(&here, Real::INFINITY, 1.0, 0.01);
        assert!(!keep.holds(&here, &here, 0.0, Vec2::zeros()));
    }
}
