//! Continuous collision: fast bodies never tunnel.
//!
//! After the solver, a dynamic body is *fast* when it moved more than
//! [`CCD_MOTION_FRACTION`] of its thinnest half-size in the step (centre
//! displacement plus spin times its largest extent), or when it is flagged
//! as a bullet. Each fast body's colliders are swept (see `sweep.rs`, with
//! rotation) against every collider, static **and moving**, whose fat box
//! overlaps the collider's swept box.
//!
//! What is clamped, and what is left alone (Box2D style):
//! - a fast body is moved back to its earliest time of impact, backed off
//!   so [`LINEAR_SLOP`] separates it from what it hit; its velocity is kept,
//!   and next step's speculative contact resolves the impact;
//! - for two dynamic bodies the pair's time of impact clamps both;
//! - impacts are processed in time order; when a body is clamped, the fast
//!   bodies that may meet it are re-swept against it standing still from
//!   that time on, so a later impact with a clamped body is not lost;
//! - a pair within the speculative margin at the start is the solver's
//!   contact, unless by the end of the step the solver drove the fast body
//!   out on the far side of the other (the direction between their closest
//!   points flipped): then the body is stopped where it was and gets its
//!   velocity of the start of the step back, less the approach along the
//!   contact normal; so a contact with a thin wall is never a way through
//!   it, and the next step makes progress;
//! - a linear approach that would sink in by no more than [`LINEAR_SLOP`]
//!   by the end of the step, or only grazes, is left to the next step's
//!   contact (no pause for bodies skimming a surface); kinematic bodies are
//!   never clamped;
//! - sensors are swept but never clamp: a fast body that enters and leaves
//!   a sensor within one step sends `SensorEntered` and `SensorLeft` in that step.

use super::handles::{BodyKey, ColliderKey};
use super::narrowphase::sensor_first;
use super::settings::{LINEAR_SLOP, SPECULATIVE_DISTANCE};
use super::sweep::{Path, Sweep, first_contact, first_contact_from};
use super::{Body, BodyKind, Event, World};
use crate::math::{Real, Vec2};
use crate::query::distance::closest_points_below;
use crate::query::time_of_impact::Motion;
use crate::query::{closest_points, contact};
use crate::shape::Shape;
use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;

/// A dynamic body moving more than this fraction of its thinnest half-size
/// ([`super::Body::min_extent`]) in a step is swept. Below it the body's
/// start and end shapes overlap along its path, so nothing thicker than
/// half its size fits between them unseen, and the speculative contacts of
/// the next step stop it.
pub const CCD_MOTION_FRACTION: Real = 0.5;

/// Bisection steps that place a stop a slop before a touch when the back-off
/// along the normal would overshoot: 2^-12 of the time to the touch.
const STOP_BISECTIONS: u32 = 12;

/// From how far apart at the start two shapes on their paths surely miss
/// each other over the interval, and what their bounding discs alone say of
/// that start distance: see [`miss_distance`].
#[derive(Clone, Copy, Debug)]
struct MissDistance {
    /// A start distance at or beyond this (metres) makes
    /// [`World::impact_time`] answer `None`.
    cap: Real,
    /// A lower bound of the start distance as [`closest_points`] computes it
    /// (metres; ≤ 0 when the discs overlap).
    lower: Real,
    /// For two paths that translate without turning: a start distance
    /// beyond this (metres) keeps them apart over the interval, so the
    /// linear sweep would find no touch.
    apart: Real,
}

/// The [`MissDistance`] of two shapes on these paths, from their bounding
/// discs (each holds its shape however it turns, and translates with the
/// path).
///
/// Shapes that start `cap` or more apart are beyond the speculative margin,
/// so not the solver's contact, and farther apart than [`LINEAR_SLOP`] plus
/// the advancement's stopping tolerance plus `2 × relative speed + spin`.
/// That sum bounds the closing speed conservative advancement steps with
/// (the relative speed, or for two convex shapes at most twice it, plus
/// each disc's spin times its radius), so its first step already passes the
/// end of the interval; and since the shapes close by at most the relative
/// motion, the linear sweep finds no touch either. For paths that do not
/// turn, `apart` (the relative motion plus the rounding allowance) is
/// already enough for that.
///
/// The stopping tolerance is at most 1e-4 of twice the larger radius (a
/// length scale is at most a bounding diameter) or eight ulps of the
/// coordinates; distances round by a few ulps of the coordinates, for which
/// 64 are allowed on each side. In a tumbling pile about a tenth of the
/// candidates end on their discs alone (most are neighbours whose discs
/// overlap); the rest have their start distance measured only up to `cap`.
fn miss_distance(own: &Shape, path_own: &Path, other: &Shape, path_other: &Path) -> MissDistance {
    let (center_a, radius_a, motion_a) = path_own.start_disc(own);
    let (center_b, radius_b, motion_b) = path_other.start_disc(other);
    let linear = motion_b.linear - motion_a.linear;
    let closing =
        2.0 * linear.norm() + motion_a.angular.abs() * radius_a + motion_b.angular.abs() * radius_b;
    let magnitude = |center: Vec2, radius: Real, motion: &Motion| {
        center.abs().max() + radius + motion.linear.abs().max()
    };
    let magnitude =
        magnitude(center_a, radius_a, &motion_a).max(magnitude(center_b, radius_b, &motion_b));
    let rounding = 64.0 * Real::EPSILON * magnitude;
    let tolerance = 2.0e-4 * radius_a.max(radius_b) + 8.0 * Real::EPSILON * magnitude;
    let cap = SPECULATIVE_DISTANCE.max(LINEAR_SLOP + tolerance + closing) + rounding;
    MissDistance {
        // Nothing not finite caps the measure (an infinite radius, a NaN).
        cap: if cap.is_finite() { cap } else { Real::INFINITY },
        lower: (center_b - center_a).norm() - radius_a - radius_b - rounding,
        apart: linear.norm() + rounding,
    }
}

/// One collider of a fast body and one collider it may hit.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Candidate {
    /// Solver index of the fast body.
    fast: u32,
    own: ColliderKey,
    other: ColliderKey,
    other_body: BodyKey,
    /// Solver index of the other body (0: it does not move this step).
    other_index: u32,
    /// One of the two colliders is a sensor: report, never clamp.
    sensor: bool,
}

/// A possible impact at `time` (fraction of the step) for `candidate`.
#[derive(Clone, Copy, Debug)]
struct Impact {
    time: Real,
    candidate: u32,
    /// Whether the other body was already standing still when this was computed.
    other_frozen: bool,
    /// Set when the pair touched at `time` already and the solver drove the
    /// fast body on into the other: the contact normal (from the fast
    /// body's collider to the other's).
    through_contact: Option<Vec2>,
}

impl PartialEq for Impact {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Impact {}
impl PartialOrd for Impact {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Impact {
    fn cmp(&self, other: &Self) -> Ordering {
        self.time
            .total_cmp(&other.time)
            .then(self.candidate.cmp(&other.candidate))
            .then(self.other_frozen.cmp(&other.other_frozen))
            .then(
                self.through_contact
                    .is_some()
                    .cmp(&other.through_contact.is_some()),
            )
    }
}

/// Buffers of continuous collision, reused from step to step.
#[derive(Debug, Default)]
pub(crate) struct CcdScratch {
    /// Solver indices of the step's fast bodies, rising (see [`Self::mark`]).
    fast: Vec<u32>,
    candidates: Vec<Candidate>,
    found: Vec<ColliderKey>,
    impacts: BinaryHeap<Reverse<Impact>>,
    /// Per solver index: the fraction the body was clamped at.
    clamp: Vec<Option<Real>>,
    /// Stops from contact: (fast body, other body or 0 if it does not
    /// move, normal, whether the other was stopped with it).
    contact_stops: Vec<(u32, u32, Vec2, bool)>,
    sensor_events: Vec<(super::ColliderHandle, super::ColliderHandle)>,
}

impl CcdScratch {
    /// Starts the list of fast bodies of a step (see [`Self::mark`]).
    pub(crate) fn clear_fast(&mut self) {
        self.fast.clear();
    }

    /// Lists the body with solver index `index` as fast if it is (see the
    /// module docs), given its sweep of the step. The solver's write-back
    /// calls this for every body in index order, while the body is in
    /// cache, so continuous collision need not read every body again.
    pub(crate) fn mark(&mut self, index: usize, body: &Body, sweep: &Sweep) {
        if body.kind != BodyKind::Dynamic {
            return;
        }
        let motion = (sweep.center1 - sweep.center0).norm() + sweep.angle.abs() * body.max_extent;
        if body.bullet || motion > CCD_MOTION_FRACTION * body.min_extent {
            self.fast.push(index as u32);
        }
    }
}

impl World {
    /// Sweeps fast bodies and clamps them at their first impact (see the module docs).
    #[inline(never)]
    pub(crate) fn continuous_collision(&mut self) {
        let mut sweeps = std::mem::take(&mut self.scratch.sweeps);
        let mut ccd = std::mem::take(&mut self.scratch.ccd);
        self.collect_candidates(&sweeps, &mut ccd);
        if !ccd.candidates.is_empty() {
            ccd.clamp.clear();
            ccd.clamp.resize(sweeps.len(), None);
            self.resolve_impacts(&sweeps, &mut ccd);
            for (index, clamp) in ccd.clamp.iter().enumerate() {
                if let Some(fraction) = *clamp {
                    let clamped = sweeps[index].clamped(fraction);
                    sweeps[index] = clamped;
                    self.bodies[clamped.key].pose = clamped.end;
                }
            }
            for &(fast, other, normal, both) in &ccd.contact_stops {
                self.stop_at_contact(&sweeps, fast, other, normal, both);
            }
            self.sweep_sensors(&sweeps, &mut ccd);
        }
        self.scratch.sweeps = sweeps;
        self.scratch.ccd = ccd;
    }

    /// The swept boxes' candidates of the fast bodies, which the solver's
    /// write-back listed (see [`CcdScratch::mark`]).
    fn collect_candidates(&self, sweeps: &[Sweep], ccd: &mut CcdScratch) {
        ccd.candidates.clear();
        for &fast in &ccd.fast {
            let sweep = &sweeps[fast as usize];
            for own in &self.bodies[sweep.key].colliders {
                let Some(collider) = self.colliders.get(own.key) else {
                    continue;
                };
                let Some(bounds) = super::swept_box::swept_bounds(collider, sweep) else {
                    continue;
                };
                ccd.found.clear();
                self.broad_phase.query_aabb(&bounds, |_, key| {
                    ccd.found.push(key);
                    true
                });
                // The trees' order is not part of the state: sort by handle.
                ccd.found.sort_unstable();
                ccd.found.dedup();
                for &other in &ccd.found {
                    if !self.may_pair(own.key, other) {
                        continue;
                    }
                    let other_collider = &self.colliders[other];
                    let other_body = other_collider.body.key;
                    ccd.candidates.push(Candidate {
                        fast,
                        own: own.key,
                        other,
                        other_body,
                        other_index: self.bodies[other_body].solver_index,
                        sensor: collider.sensor || other_collider.sensor,
                    });
                }
            }
        }
    }

    /// The sweep of the body with solver index `index` (frozen if 0).
    fn indexed_sweep(&self, sweeps: &[Sweep], index: u32, body: BodyKey) -> Sweep {
        if index > 0 {
            sweeps[index as usize]
        } else {
            let b = &self.bodies[body];
            Sweep::frozen(body, b.pose, b.local_center)
        }
    }

    /// Time of impact of a solid candidate from `from` on, the other body
    /// standing still from then on if `other_frozen`; `None` if it never
    /// hits. The normal is set for a stop from contact (see the module docs).
    fn impact_time(
        &self,
        sweeps: &[Sweep],
        candidate: &Candidate,
        from: Real,
        other_frozen: bool,
    ) -> Option<(Real, Option<Vec2>)> {
        let own = &self.colliders[candidate.own];
        let other = &self.colliders[candidate.other];
        let path_own = sweeps[candidate.fast as usize].path(own, from, false);
        let other_sweep = self.indexed_sweep(sweeps, candidate.other_index, candidate.other_body);
        let path_other = other_sweep.path(other, from, other_frozen);
        let miss = miss_distance(&own.shape, &path_own, &other.shape, &path_other);
        if miss.lower >= miss.cap {
            return None;
        }
        let (own_start, other_start) = (path_own.pose_at(0.0), path_other.pose_at(0.0));
        // `None`: at least `cap` apart, so no impact.
        let start =
            closest_points_below(&own.shape, &own_start, &other.shape, &other_start, miss.cap)?;
        if start.is_none_or(|closest| closest.distance <= SPECULATIVE_DISTANCE) {
            // Within the speculative margin: the solver's contact, unless by
            // the end of the step the fast body came out on the far side of
            // the other (the direction between them flipped): the solver
            // drove it through, and it is stopped where it was. Still
            // overlapping at the end is never through, so the direction at
            // the start is only worked out for a pair apart at the end.
            let end_own = path_own.pose_at(1.0);
            let end_other = path_other.pose_at(1.0);
            let end = closest_points(&own.shape, &end_own, &other.shape, &end_other)?;
            let normal = match start {
                // Overlapping: the direction of least penetration.
                None => contact(&own.shape, &own_start, &other.shape, &other_start)
                    .map_or(Vec2::zeros(), |manifold| manifold.normal),
                Some(closest) => {
                    (closest.point_b - closest.point_a) / closest.distance.max(Real::MIN_POSITIVE)
                }
            };
            let through = (end.point_b - end.point_a).dot(&normal) < 0.0;
            return through.then_some((from, Some(normal)));
        }
        // Two paths that do not turn and start farther apart than they can
        // close never touch: the sweep is not needed.
        let linear = path_own.linear_motion().is_some() && path_other.linear_motion().is_some();
        if linear && start.is_some_and(|closest| closest.distance > miss.apart) {
            return None;
        }
        // Errors only come from coordinates far outside the design range;
        // such a body is left to the solver.
        let contact = first_contact_from(
            &own.shape,
            &path_own,
            &other.shape,
            &path_other,
            LINEAR_SLOP,
            Some(start),
        )
        .ok()??;
        if contact.overlapping_at_start {
            return None; // within rounding of the margin test above
        }
        let span = 1.0 - from;
        if contact.fraction == contact.touch {
            // Conservative advancement aims at the slop directly.
            let time = from + contact.fraction * span;
            return (time < 1.0).then_some((time, None));
        }
        if contact.closing * (1.0 - contact.touch) <= LINEAR_SLOP {
            // A linear approach that would sink in by less than a slop by
            // the end of the step: the next step's contact takes it, no pause.
            return None;
        }
        let mut stop = contact.fraction;
        if stop <= 0.0 {
            // The back-off along the normal overshot the start, though the
            // shapes start farther apart than the speculative margin: bisect
            // for the last time at least a slop apart (the gap shrinks all
            // the way to the touch, its distance being convex in time).
            let gap = |t: Real| {
                crate::query::distance(
                    &own.shape,
                    &path_own.pose_at(t),
                    &other.shape,
                    &path_other.pose_at(t),
                )
            };
            let (mut apart, mut close) = (0.0, contact.touch);
            for _ in 0..STOP_BISECTIONS {
                let middle = 0.5 * (apart + close);
                if gap(middle) >= LINEAR_SLOP {
                    apart = middle;
                } else {
                    close = middle;
                }
            }
            stop = apart;
        }
        let time = from + stop * span;
        (time < 1.0).then_some((time, None))
    }

    /// After a stop from contact, the fast body's velocity from the start of
    /// the step comes back, less its approach along the contact `normal` (a
    /// perfectly inelastic impact of the two centres of mass): the solver's
    /// answer drove one through the other, so it is discarded, and the next
    /// step starts from a state that makes progress. The other body (solver
    /// index `other`, 0 if it does not move) gets the same treatment if it
    /// was stopped with it (`both`).
    fn stop_at_contact(
        &mut self,
        sweeps: &[Sweep],
        fast: u32,
        other: u32,
        normal: Vec2,
        both: bool,
    ) {
        let a = sweeps[fast as usize];
        let inv_mass_a = self.bodies[a.key].inv_mass;
        let (velocity_b, inv_mass_b) = if other > 0 {
            let b = sweeps[other as usize];
            let inv_mass = if both {
                self.bodies[b.key].inv_mass
            } else {
                0.0
            };
            (b.velocity0, inv_mass)
        } else {
            (Vec2::zeros(), 0.0)
        };
        let approach = (velocity_b - a.velocity0).dot(&normal);
        let inv_mass = inv_mass_a + inv_mass_b;
        let impulse = if approach < 0.0 && inv_mass > 0.0 {
            -approach / inv_mass
        } else {
            0.0
        };
        let body = &mut self.bodies[a.key];
        body.linear_velocity = a.velocity0 - normal * (impulse * inv_mass_a);
        body.angular_velocity = a.spin0;
        if both {
            let b = sweeps[other as usize];
            let body = &mut self.bodies[b.key];
            body.linear_velocity = b.velocity0 + normal * (impulse * inv_mass_b);
            body.angular_velocity = b.spin0;
        }
    }

    fn resolve_impacts(&self, sweeps: &[Sweep], ccd: &mut CcdScratch) {
        ccd.impacts.clear();
        ccd.contact_stops.clear();
        for (index, candidate) in ccd.candidates.iter().enumerate() {
            if candidate.sensor {
                continue;
            }
            if let Some((time, through_contact)) = self.impact_time(sweeps, candidate, 0.0, false) {
                ccd.impacts.push(Reverse(Impact {
                    time,
                    candidate: index as u32,
                    other_frozen: false,
                    through_contact,
                }));
            }
        }
        while let Some(Reverse(impact)) = ccd.impacts.pop() {
            let candidate = ccd.candidates[impact.candidate as usize];
            if ccd.clamp[candidate.fast as usize].is_some() {
                continue; // it stopped earlier
            }
            let other = candidate.other_index as usize;
            let other_dynamic =
                other > 0 && self.bodies[candidate.other_body].kind == BodyKind::Dynamic;
            let other_clamped = other_dynamic && ccd.clamp[other].is_some();
            if other_dynamic && other_clamped != impact.other_frozen {
                continue; // computed before the other stopped; re-swept since
            }
            let mut stopped: smallvec::SmallVec<[u32; 2]> = smallvec::smallvec![candidate.fast];
            ccd.clamp[candidate.fast as usize] = Some(impact.time);
            let moving_other = other_dynamic && !other_clamped;
            if moving_other {
                ccd.clamp[other] = Some(impact.time);
                stopped.push(other as u32);
            }
            if let Some(normal) = impact.through_contact {
                ccd.contact_stops
                    .push((candidate.fast, other as u32, normal, moving_other));
            }
            for index in stopped {
                self.resweep_against(sweeps, ccd, index, impact.time);
            }
        }
    }

    /// Re-sweeps every still-moving fast body against the body with solver
    /// index `stopped`, which stands still from `time` on.
    fn resweep_against(&self, sweeps: &[Sweep], ccd: &mut CcdScratch, stopped: u32, time: Real) {
        for (index, candidate) in ccd.candidates.iter().enumerate() {
            if candidate.other_index != stopped
                || candidate.sensor
                || ccd.clamp[candidate.fast as usize].is_some()
            {
                continue;
            }
            if let Some((later, through_contact)) = self.impact_time(sweeps, candidate, time, true)
            {
                ccd.impacts.push(Reverse(Impact {
                    time: later,
                    candidate: index as u32,
                    other_frozen: true,
                    through_contact,
                }));
            }
        }
    }

    /// Sends `SensorEntered` + `SensorLeft` for sensor pairs a fast body
    /// crossed within the step without overlapping at its start or end.
    fn sweep_sensors(&mut self, sweeps: &[Sweep], ccd: &mut CcdScratch) {
        ccd.sensor_events.clear();
        for candidate in ccd.candidates.iter().filter(|c| c.sensor) {
            let (own, other) = (
                &self.colliders[candidate.own],
                &self.colliders[candidate.other],
            );
            let (h_own, h_other) = (
                self.collider_handle(candidate.own),
                self.collider_handle(candidate.other),
            );
            let key = if h_own < h_other {
                (h_own, h_other)
            } else {
                (h_other, h_own)
            };
            if self.contacts.get(&key).is_some_and(|pair| pair.touching) {
                continue; // the narrowphase reports its leaving
            }
            let own_sweep = &sweeps[candidate.fast as usize];
            let other_sweep =
                self.indexed_sweep(sweeps, candidate.other_index, candidate.other_body);
            let path_own = own_sweep.path(own, 0.0, false);
            let path_other = other_sweep.path(other, 0.0, false);
            let crossed = matches!(
                first_contact(&own.shape, &path_own, &other.shape, &path_other, 0.0),
                Ok(Some(_))
            );
            let inside_at_end = crate::query::intersects(
                &own.shape,
                &path_own.pose_at(1.0),
                &other.shape,
                &path_other.pose_at(1.0),
            );
            if crossed && !inside_at_end {
                ccd.sensor_events.push(sensor_first(&key, &self.colliders));
            }
        }
        ccd.sensor_events.sort_unstable();
        ccd.sensor_events.dedup();
        for &(sensor, visitor) in &ccd.sensor_events {
            self.events.push(Event::SensorEntered(sensor, visitor));
            self.events.push(Event::SensorLeft(sensor, visitor));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Pose, vec2};
    use crate::query::time_of_impact::Motion;
    use crate::shape::{Aabb, Circle, CircleTree};
    use proptest::prelude::*;

    /// A circle tree of 2–5 leaves, a disc or a box, by `kind`, sized by `size`.
    fn shape(kind: u8, size: Real, leaves: &[(Real, Real, Real)]) -> Shape {
        match kind % 3 {
            0 => Shape::from(Circle::new(vec2(0.1, -0.2) * size, size).unwrap()),
            1 => Shape::from(Aabb::new(vec2(-size, -0.5 * size), vec2(size, 0.5 * size)).unwrap()),
            _ => {
                let leaves: Vec<Circle> = leaves
                    .iter()
                    .map(|&(x, y, r)| Circle::new(vec2(x, y) * size, r * size).unwrap())
                    .collect();
                Shape::from(CircleTree::from_leaves(&leaves, 2).unwrap())
            }
        }
    }

    /// A path of `shape`: frozen, translating, or spinning about a centre
    /// `offset` away from its origin (as a body spins about its centre of mass).
    fn path(style: u8, shape: &Shape, at: Pose, motion: Motion, offset: Vec2) -> Path {
        match style % 3 {
            0 => Path::Frozen(at),
            1 => Path::Linear {
                pose: at,
                motion: motion.linear,
            },
            _ => Path::Spinning {
                center: Pose {
                    translation: at.transform_point(offset),
                    ..at
                },
                motion,
                offset: Pose::from_translation(-offset),
                reach: offset.norm() + shape.bounding_radius(),
            },
        }
    }

    /// `path` with its start moved by `by` (world metres).
    fn shifted(path: &Path, by: Vec2) -> Path {
        let moved = |pose: Pose| Pose {
            translation: pose.translation + by,
            ..pose
        };
        match *path {
            Path::Frozen(pose) => Path::Frozen(moved(pose)),
            Path::Linear { pose, motion } => Path::Linear {
                pose: moved(pose),
                motion,
            },
            Path::Spinning {
                center,
                motion,
                offset,
                reach,
            } => Path::Spinning {
                center: moved(center),
                motion,
                offset,
                reach,
            },
        }
    }

    fn leaves() -> impl Strategy<Value = Vec<(Real, Real, Real)>> {
        prop::collection::vec((-1.0f32..1.0, -1.0f32..1.0, 0.2f32..0.8), 2..=5)
    }

    type Case = (u8, u8, u8, u8, Real, Real, Vec<(Real, Real, Real)>);

    fn case() -> impl Strategy<Value = (Case, [Real; 11])> {
        (
            (
                any::<u8>(),
                any::<u8>(),
                any::<u8>(),
                any::<u8>(),
                0.05f32..2.0,
                0.05f32..2.0,
                leaves(),
            ),
            prop::array::uniform11(-1.0f32..1.0),
        )
    }

    /// The two paths of a drawn case: B starts up to `spread` metres from A,
    /// each moves up to 4 m and turns up to 3 rad over the interval.
    fn paths(case: &Case, v: &[Real; 11], spread: Real) -> (Shape, Path, Shape, Path) {
        let (kind_a, kind_b, style_a, style_b, size_a, size_b, leaves) = case;
        let (a, b) = (
            shape(*kind_a, *size_a, leaves),
            shape(*kind_b, *size_b, leaves),
        );
        let pose_a = Pose::new(vec2(3.0 * v[0], 3.0 * v[1]), 3.0 * v[2]);
        let pose_b = Pose::new(pose_a.translation + vec2(v[3], v[4]) * spread, 3.0 * v[5]);
        let motion_a = Motion::new(vec2(v[6], v[7]) * 4.0, 3.0 * v[8]);
        let motion_b = Motion::new(vec2(v[9], v[10]) * 4.0, 3.0 * v[2] * v[9]);
        let offset = vec2(v[4], v[7]) * 0.5;
        let path_a = path(*style_a, &a, pose_a, motion_a, offset);
        let path_b = path(*style_b, &b, pose_b, motion_b, -offset);
        (a, path_a, b, path_b)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(10_000))]

        /// The discs' bound is a lower bound of the start distance, and a
        /// start distance at or beyond the cap means no impact: apart
        /// beyond the speculative margin, and no first contact within a
        /// slop over the interval.
        #[test]
        fn candidates_at_the_cap_never_meet(
            (case, v) in case(),
            spread in 0.5f32..16.0,
            nudge in 0.0f32..0.01,
        ) {
            let (a, path_a, b, path_b) = paths(&case, &v, spread);
            let miss = miss_distance(&a, &path_a, &b, &path_b);
            let start = closest_points(&a, &path_a.pose_at(0.0), &b, &path_b.pose_at(0.0));
            prop_assert!(miss.lower <= start.map_or(0.0, |c| c.distance));
            // As drawn, and with B moved along the closest direction to
            // just past the cap, where a cap too small would show.
            let at_cap = start.map(|c| {
                let away = (c.point_b - c.point_a) / c.distance;
                shifted(&path_b, away * (miss.cap * (1.0 + nudge) - c.distance))
            });
            for path_b in [Some(path_b), at_cap].into_iter().flatten() {
                let start = closest_points(&a, &path_a.pose_at(0.0), &b, &path_b.pose_at(0.0));
                if start.is_some_and(|c| c.distance >= miss.cap) {
                    prop_assert!(start.is_some_and(|c| c.distance > SPECULATIVE_DISTANCE));
                    let contact = first_contact(&a, &path_a, &b, &path_b, LINEAR_SLOP);
                    prop_assert!(matches!(contact, Ok(None)), "{contact:?}");
                }
                // Paths that do not turn, beyond `apart`: no touch either.
                let linear = path_a.linear_motion().is_some() && path_b.linear_motion().is_some();
                if linear && start.is_some_and(|c| c.distance > miss.apart) {
                    let contact = first_contact(&a, &path_a, &b, &path_b, 0.0);
                    prop_assert!(matches!(contact, Ok(None)), "{contact:?}");
                }
            }
        }

        /// Handing conservative advancement the start's closest points
        /// changes nothing: the same contact, bit for bit.
        #[test]
        fn a_known_start_reading_gives_the_same_contact((case, v) in case(), spread in 0.5f32..16.0) {
            let (a, path_a, b, path_b) = paths(&case, &v, spread);
            let start = closest_points(&a, &path_a.pose_at(0.0), &b, &path_b.pose_at(0.0));
            for target in [0.0, LINEAR_SLOP] {
                let known = first_contact_from(&a, &path_a, &b, &path_b, target, Some(start));
                let fresh = first_contact(&a, &path_a, &b, &path_b, target);
                prop_assert_eq!(format!("{known:?}"), format!("{fresh:?}"));
            }
        }
    }

    /// The discs rule out a far pair and keep a near one: two hulls 10 m
    /// apart, one moving 1 m and turning 1 rad in the step, are out; 3 m
    /// apart, they are not.
    #[test]
    fn far_discs_are_ruled_out_and_near_ones_kept() {
        let hull = shape(2, 1.0, &[(-0.5, 0.0, 0.5), (0.5, 0.0, 0.5)]);
        let at = |x: Real| Pose::from_translation(vec2(x, 0.0));
        let moving = path(
            2,
            &hull,
            at(0.0),
            Motion::new(vec2(1.0, 0.0), 1.0),
            vec2(0.1, 0.0),
        );
        let ruled_out = |other: &Path, moving: &Path| {
            let miss = miss_distance(&hull, moving, &hull, other);
            miss.lower >= miss.cap
        };
        assert!(ruled_out(&Path::Frozen(at(10.0)), &moving));
        assert!(!ruled_out(&Path::Frozen(at(3.0)), &moving));
        // Spin counts: the same pair turning fast may close the gap.
        let spinning = path(
            2,
            &hull,
            at(0.0),
            Motion::new(vec2(1.0, 0.0), 30.0),
            vec2(0.1, 0.0),
        );
        assert!(!ruled_out(&Path::Frozen(at(10.0)), &spinning));
    }
}
