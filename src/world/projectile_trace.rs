//! Tracing projectiles through a step, in each target's moving frame.
//!
//! A projectile's velocity first takes its gravity for the step; its centre
//! then moves on a straight segment over the step. Candidates come from a
//! thick ray over the broadphase: every proxy's fat box holds its collider's
//! whole sweep of the step, so the world segment enters the box of anything
//! it can meet, no later than it meets it (the ray is clipped at the best
//! hit when only the first hit matters).
//!
//! Each candidate is then tested exactly against the *target's motion over
//! the step* (see `sweep.rs`: centre of mass on a segment, constant spin):
//! - resting target: one cast at its pose;
//! - translating target (exact): the shot relative to it, i.e. the shot's
//!   displacement minus the target's, cast against the target's pose at the
//!   start of the interval; the hit point is moved back by the target's
//!   displacement at the hit time;
//! - spinning target (cannot miss): the target stays inside the disc of its
//!   reach about its centre of mass, so the relative shot is first cast
//!   against that disc for the entry and exit times (no entry: no hit);
//!   between them conservative advancement on the exact distance, which
//!   never steps past the first contact. If it reaches its iteration cap it
//!   restarts from its last safe time, up to [`MAX_ADVANCEMENT_RESTARTS`]
//!   times, and then reports a hit at that time rather than risk a miss.
//!
//! Hits are taken in order of time (ties by collider handle), one per body:
//! a projectile with pierce left passes through (never hitting that body
//! again), else ricochets if it may (about the hit normal, relative to the
//! surface's velocity, with its restitution; the rest of the step continues
//! from the hit), else stops. The owner is never hit, nor are sensors.

use super::edit::apply_impulse_to;
use super::handles::{BodyKey, ColliderKey, WorldId};
use super::queries::clip_at;
use super::sweep::{Path, Sweep, first_contact};
use super::{Body, BodyHandle, Collider, ColliderHandle, Event, HitOutcome, Projectile, World};
use crate::broadphase::BroadPhase;
use crate::math::{Pose, Real, Vec2, perp};
use crate::query::cast::{Shot, cast};
use crate::query::closest_points;
use crate::shape::{Circle, PartId, Point, Shape};
use slotmap::SlotMap;

/// Ricochets traced within one step; a projectile that would bounce more
/// often (trapped in a corner) waits at its last bounce until the next step.
pub const MAX_RICOCHETS_PER_STEP: u32 = 4;

/// Times conservative advancement against a spinning target restarts after
/// reaching its iteration cap before the hit is reported at the last safe time.
pub const MAX_ADVANCEMENT_RESTARTS: u32 = 8;

/// A possible hit on one collider, within the current segment.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Candidate {
    /// Fraction of the segment.
    fraction: Real,
    collider: ColliderKey,
    body: BodyKey,
    point: Vec2,
    normal: Vec2,
    part: Option<PartId>,
    started_inside: bool,
}

/// A hit to report and the impulse it gives.
#[derive(Debug)]
pub(crate) struct Hit {
    event: Event,
    body: BodyKey,
    impulse: Vec2,
    point: Vec2,
}

/// What became of a projectile this step.
#[derive(PartialEq)]
enum Fate {
    Flying,
    Stopped,
    /// Its path left the coordinate range of casts.
    Lost,
}

/// Read-only view of the world for tracing.
struct Tracer<'a> {
    world: WorldId,
    bodies: &'a SlotMap<BodyKey, Body>,
    colliders: &'a SlotMap<ColliderKey, Collider>,
    broad_phase: &'a BroadPhase<ColliderKey>,
    sweeps: &'a [Sweep],
}

impl World {
    /// Traces every projectile through the step (see the module docs).
    #[inline(never)]
    pub(crate) fn trace_projectiles(&mut self, dt: Real) {
        if self.projectiles.is_empty() {
            return;
        }
        let gravity = self.settings.gravity;
        let mut candidates = std::mem::take(&mut self.scratch.projectile_hits);
        let mut removed = std::mem::take(&mut self.scratch.removed_projectiles);
        removed.clear();
        let mut hits = std::mem::take(&mut self.scratch.projectile_events);
        let World {
            id,
            bodies,
            colliders,
            broad_phase,
            projectiles,
            projectile_order,
            scratch,
            events,
            ..
        } = self;
        for &key in projectile_order.iter() {
            let Some(projectile) = projectiles.get_mut(key) else {
                // Removed by hand since the last step: dropped below.
                removed.push(key);
                continue;
            };
            let handle = super::ProjectileHandle { key, world: *id };
            hits.clear();
            projectile.velocity += gravity * projectile.gravity_scale * dt;
            let tracer = Tracer {
                world: *id,
                bodies,
                colliders,
                broad_phase,
                sweeps: &scratch.sweeps,
            };
            let fate = tracer.trace(handle, projectile, dt, &mut candidates, &mut hits);
            for hit in &hits {
                if let Some(body) = bodies.get_mut(hit.body) {
                    apply_impulse_to(body, hit.impulse, hit.point);
                    // It may have woken the body: the islands read every
                    // body at this step's pass.
                    scratch.awake_known = false;
                }
                events.push(hit.event);
            }
            match fate {
                Fate::Stopped => removed.push(key),
                Fate::Lost => {
                    removed.push(key);
                    events.push(Event::ProjectileExpired(handle));
                }
                Fate::Flying => {
                    projectile.lifetime -= dt;
                    if projectile.lifetime <= 0.0 {
                        removed.push(key);
                        events.push(Event::ProjectileExpired(handle));
                    }
                }
            }
        }
        // Keys removed by hand are gone from the map already.
        for key in &removed {
            self.projectiles.remove(*key);
        }
        // `removed` is in the order's order: one pass drops them, without
        // looking any projectile up.
        if !removed.is_empty() {
            let mut gone = removed.iter().peekable();
            self.projectile_order
                .retain(|key| gone.next_if_eq(&key).is_none());
        }
        self.scratch.projectile_hits = candidates;
        self.scratch.removed_projectiles = removed;
        self.scratch.projectile_events = hits;
    }
}

impl Tracer<'_> {
    fn sweep(&self, key: BodyKey, body: &Body) -> Sweep {
        let index = body.solver_index as usize;
        match self.sweeps.get(index) {
            Some(sweep) if index > 0 && sweep.key == key => *sweep,
            _ => Sweep::frozen(key, body.pose, body.local_center),
        }
    }

    fn trace(
        &self,
        handle: super::ProjectileHandle,
        projectile: &mut Projectile,
        dt: Real,
        candidates: &mut Vec<Candidate>,
        hits: &mut Vec<Hit>,
    ) -> Fate {
        let mut start_time: Real = 0.0;
        let mut bounces = 0;
        let mut bounced_off: Option<ColliderKey> = None;
        'segments: loop {
            let remaining = 1.0 - start_time;
            let end = projectile.position + projectile.velocity * (dt * remaining);
            let Ok(shot) = Shot::new(projectile.position, end, projectile.radius) else {
                return Fate::Lost;
            };
            self.gather(projectile, &shot, start_time, bounced_off, candidates);
            for candidate in candidates.iter() {
                let body_handle = BodyHandle {
                    key: candidate.body,
                    world: self.world,
                };
                if projectile.pierced.contains(&body_handle) {
                    continue; // another collider of a body it passed through
                }
                let body = &self.bodies[candidate.body];
                let time = start_time + candidate.fraction * remaining;
                // Centre of mass at the time of the hit, on the body's sweep.
                let sweep = self.sweep(candidate.body, body);
                let center = sweep.center0 + (sweep.center1 - sweep.center0) * time;
                let surface_velocity =
                    body.linear_velocity + perp(candidate.point - center) * body.angular_velocity;
                let relative = projectile.velocity - surface_velocity;
                let along = |magnitude: Real| {
                    let length = relative.norm();
                    if length > 0.0 {
                        relative * (magnitude / length)
                    } else {
                        Vec2::zeros()
                    }
                };
                let mut record = |outcome, impulse| {
                    hits.push(Hit {
                        event: Event::ProjectileHit {
                            projectile: handle,
                            body: body_handle,
                            collider: ColliderHandle {
                                key: candidate.collider,
                                world: self.world,
                            },
                            part: candidate.part,
                            point: candidate.point,
                            normal: candidate.normal,
                            fraction: time,
                            relative_speed: relative.norm(),
                            outcome,
                        },
                        body: candidate.body,
                        impulse,
                        point: candidate.point,
                    })
                };
                let momentum = projectile.impulse.map_or(relative * projectile.mass, along);
                if projectile.pierce_left > 0 {
                    projectile.pierce_left -= 1;
                    projectile.pierced.push(body_handle);
                    record(HitOutcome::Pierced, momentum);
                    continue;
                }
                if projectile.ricochets_left == 0 {
                    record(HitOutcome::Stopped, momentum);
                    projectile.position = shot.point_at(candidate.fraction);
                    return Fate::Stopped;
                }
                projectile.ricochets_left -= 1;
                let normal_speed = relative.dot(&candidate.normal);
                let bounced = if normal_speed < 0.0 {
                    relative - candidate.normal * ((1.0 + projectile.restitution) * normal_speed)
                } else {
                    relative
                };
                let impulse = projectile
                    .impulse
                    .map_or((relative - bounced) * projectile.mass, along);
                record(HitOutcome::Ricocheted, impulse);
                projectile.position = shot.point_at(candidate.fraction);
                projectile.velocity = surface_velocity + bounced;
                bounces += 1;
                if bounces >= MAX_RICOCHETS_PER_STEP || time >= 1.0 {
                    return Fate::Flying;
                }
                start_time = time;
                bounced_off = Some(candidate.collider);
                continue 'segments;
            }
            projectile.position = end;
            return Fate::Flying;
        }
    }

    /// Fills `candidates` with the hits of `shot` (covering the step from
    /// `start_time` to its end), sorted by fraction then collider.
    /// A shot that just bounced off `bounced_off` starts touching it; that
    /// contact is not a hit (and must not clip the search).
    fn gather(
        &self,
        projectile: &Projectile,
        shot: &Shot,
        start_time: Real,
        bounced_off: Option<ColliderKey>,
        candidates: &mut Vec<Candidate>,
    ) {
        candidates.clear();
        let first_only = projectile.pierce_left == 0;
        let _ = self.broad_phase.ray_cast_thick(
            shot.start(),
            shot.delta(),
            shot.radius(),
            1.0,
            |_, key, max_fraction| {
                let Some(collider) = self.colliders.get(key) else {
                    return max_fraction;
                };
                let body_key = collider.body.key;
                if collider.sensor
                    || Some(collider.body) == projectile.owner
                    || !projectile.filter.allows(&collider.filter)
                    || projectile.pierced.contains(&collider.body)
                {
                    return max_fraction;
                }
                let Some(body) = self.bodies.get(body_key) else {
                    return max_fraction;
                };
                let sweep = self.sweep(body_key, body);
                let path = sweep.path(collider, start_time, false);
                match hit_moving(shot, &collider.shape, &path) {
                    Some(hit) if hit.started_inside && bounced_off == Some(key) => max_fraction,
                    Some(hit) if hit.fraction <= max_fraction => {
                        candidates.push(Candidate {
                            collider: key,
                            body: body_key,
                            ..hit
                        });
                        if first_only {
                            clip_at(hit.fraction)
                        } else {
                            max_fraction
                        }
                    }
                    _ => max_fraction,
                }
            },
        );
        candidates.sort_by(|a, b| {
            a.fraction
                .total_cmp(&b.fraction)
                .then(a.collider.cmp(&b.collider))
        });
    }
}

/// The first hit of `shot` on `shape` moving along `path` over the shot's
/// interval (fractions shared), with the point and normal at that time
/// (collider and body left for the caller).
fn hit_moving(shot: &Shot, shape: &Shape, path: &Path) -> Option<Candidate> {
    let from_cast = |hit: crate::query::CastHit, offset: Vec2| Candidate {
        fraction: hit.fraction,
        collider: ColliderKey::default(),
        body: BodyKey::default(),
        point: hit.point + offset * hit.fraction,
        normal: hit.normal,
        part: hit.part,
        started_inside: hit.started_inside,
    };
    match *path {
        Path::Frozen(pose) => cast(shot, shape, &pose)
            .ok()?
            .map(|hit| from_cast(hit, Vec2::zeros())),
        Path::Linear { pose, motion } => {
            // Relative to the target the shot moves by its own displacement
            // minus the target's.
            let relative = Shot::new(shot.start(), shot.end() - motion, shot.radius()).ok()?;
            cast(&relative, shape, &pose)
                .ok()?
                .map(|hit| from_cast(hit, motion))
        }
        Path::Spinning {
            center,
            motion,
            reach,
            ..
        } => hit_spinning(shot, shape, path, center, motion.linear, reach),
    }
}

/// [`hit_moving`] for a spinning target: bounding disc, then conservative advancement.
fn hit_spinning(
    shot: &Shot,
    shape: &Shape,
    path: &Path,
    center: Pose,
    center_motion: Vec2,
    reach: Real,
) -> Option<Candidate> {
    // In the frame that translates with the centre, the target never leaves
    // the disc of radius `reach` about it.
    let disc = Shape::Circle(Circle::new(Vec2::zeros(), reach.max(Real::MIN_POSITIVE)).ok()?);
    let disc_pose = Pose::from_translation(center.translation);
    let relative_end = shot.end() - center_motion;
    let relative = Shot::new(shot.start(), relative_end, shot.radius()).ok()?;
    let entry = cast(&relative, &disc, &disc_pose).ok()??.fraction;
    let backwards = Shot::new(relative_end, shot.start(), shot.radius()).ok()?;
    let exit = cast(&backwards, &disc, &disc_pose)
        .ok()?
        .map_or(1.0, |hit| 1.0 - hit.fraction)
        .max(entry);
    let bullet = if shot.radius() > 0.0 {
        Shape::Circle(Circle::new(Vec2::zeros(), shot.radius()).ok()?)
    } else {
        Shape::Point(Point::new(Vec2::zeros()).ok()?)
    };
    let mut from = entry;
    for restart in 0..=MAX_ADVANCEMENT_RESTARTS {
        let span = exit - from;
        let shot_path = Path::Linear {
            pose: Pose::from_translation(shot.point_at(from)),
            motion: shot.delta() * span,
        };
        let target_path = path.restricted(from, span);
        let contact = first_contact(&bullet, &shot_path, shape, &target_path, 0.0).ok()??;
        let fraction = from + contact.fraction * span;
        if contact.limited && restart < MAX_ADVANCEMENT_RESTARTS && fraction < exit {
            from = fraction;
            continue;
        }
        let bullet_pose = shot_path.pose_at(contact.fraction);
        let target_pose = target_path.pose_at(contact.fraction);
        // Normal and point on the target's surface, towards the shot.
        let (point, normal) = match closest_points(shape, &target_pose, &bullet, &bullet_pose) {
            Some(closest) if closest.distance > 0.0 => (
                closest.point_a,
                (closest.point_b - closest.point_a) / closest.distance,
            ),
            _ => (contact.point, -contact.normal),
        };
        return Some(Candidate {
            fraction,
            collider: ColliderKey::default(),
            body: BodyKey::default(),
            point,
            normal,
            part: contact.part_b,
            started_inside: contact.overlapping_at_start && fraction <= 0.0,
        });
    }
    None
}
