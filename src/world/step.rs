//! One simulation step: pair finding, narrowphase with persistent manifolds,
//! the soft-step solver over substeps, and write-back.
//!
//! Order within a step (all loops in handle order, so deterministic):
//! 1. place every collider (body pose ∘ local pose) and box it;
//! 2. candidate pairs by sort-and-sweep, filtered (groups/mask, same body);
//! 3. manifolds with a speculative margin; impulses of the previous step are
//!    matched by feature id for warm starting; began/ended events;
//! 4. substeps: integrate velocities, warm start, solve with bias, integrate
//!    positions, relax; then restitution;
//! 5. write back poses (the origin follows the centre of mass) and velocities.

use super::handles::{BodyKey, ColliderHandle};
use super::pairs::{PairEntry, overlapping_pairs};
use super::settings::SPECULATIVE_DISTANCE;
use super::{BodyKind, World, WorldError};
use crate::dynamics::{
    ContactConstraint, ContactSoftness, SolverBody, apply_restitution, integrate_positions, solve,
    warm_start,
};
use crate::math::{Real, Vec2};
use crate::query::{FeatureId, Manifold, contact_with_margin};
use slotmap::SecondaryMap;
use smallvec::SmallVec;

/// A contact pair kept from step to step.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ContactPair {
    /// The latest manifold (None when the boxes overlap but the shapes are apart).
    pub manifold: Option<Manifold>,
    /// True when some point has depth ≥ 0 (actually touching, not only speculative).
    pub touching: bool,
    /// Impulses of the last step by feature id: (id, normal, tangent).
    pub impulses: SmallVec<[(FeatureId, Real, Real); 4]>,
    /// One of the two is a sensor: report overlap, never push.
    pub sensor: bool,
}

/// Something that happened during a step: contacts, sensors, sleep.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// Two solid colliders started touching.
    Began(ColliderHandle, ColliderHandle),
    /// Two solid colliders stopped touching (or one was removed).
    Ended(ColliderHandle, ColliderHandle),
    /// A collider entered a sensor: (sensor, visitor).
    SensorEntered(ColliderHandle, ColliderHandle),
    /// A collider left a sensor: (sensor, visitor).
    SensorLeft(ColliderHandle, ColliderHandle),
    /// A body fell asleep.
    Slept(super::BodyHandle),
    /// A sleeping body woke up.
    Woke(super::BodyHandle),
}

impl World {
    /// Advances the world by `dt` seconds.
    ///
    /// # Errors
    /// [`WorldError::OutOfRange`] if `dt` is not finite and > 0; the world is unchanged.
    pub fn step(&mut self, dt: Real) -> Result<(), WorldError> {
        super::error::check_range("dt", dt, "> 0", |v| v > 0.0)?;
        self.events.clear();

        // Bodies that take part in the solver: index 0 is the fixed body.
        let mut body_index: SecondaryMap<BodyKey, usize> = SecondaryMap::new();
        let mut solver_bodies = vec![SolverBody::FIXED];
        let mut solver_keys: Vec<BodyKey> = vec![BodyKey::default()];
        let mut centers = vec![Vec2::zeros()];
        for (key, body) in &self.bodies {
            if body.kind == BodyKind::Static || !body.awake {
                body_index.insert(key, 0);
                continue;
            }
            body_index.insert(key, solver_bodies.len());
            solver_keys.push(key);
            centers.push(body.pose.transform_point(body.local_center));
            solver_bodies.push(SolverBody {
                linear_velocity: body.linear_velocity,
                angular_velocity: body.angular_velocity,
                delta_position: Vec2::zeros(),
                delta_rotation: crate::math::Rot2::identity(),
                inv_mass: body.inv_mass,
                inv_inertia: body.inv_inertia,
            });
        }

        // 1–2: place colliders, find candidate pairs.
        let mut entries = Vec::with_capacity(self.colliders.len());
        let mut poses = Vec::with_capacity(self.colliders.len());
        for (key, collider) in &self.colliders {
            let Some(body) = self.bodies.get(collider.body.key) else {
                continue;
            };
            let pose = body.pose.compose(&collider.local_pose);
            let mut aabb = collider.shape.world_aabb(&pose);
            let margin = Vec2::new(SPECULATIVE_DISTANCE, SPECULATIVE_DISTANCE);
            aabb.min -= margin;
            aabb.max += margin;
            entries.push(PairEntry {
                handle: self.collider_handle(key),
                aabb,
                body: body_index.get(collider.body.key).copied().unwrap_or(0),
                moving: body.kind != BodyKind::Static && body.awake,
            });
            poses.push(pose);
        }
        // Static-only pairs never form; pairs between two fixed bodies either.
        for entry in &mut entries {
            if entry.body == 0 && entry.moving {
                entry.moving = false;
            }
        }
        let mut order = Vec::new();
        let mut candidates = Vec::new();
        overlapping_pairs(&entries, &mut order, &mut candidates);

        // 3: narrowphase into the new contact map.
        let mut next = std::collections::BTreeMap::new();
        for &(i, j) in &candidates {
            let (ha, hb) = (entries[i].handle, entries[j].handle);
            let (Some(ca), Some(cb)) = (self.colliders.get(ha.key), self.colliders.get(hb.key))
            else {
                continue;
            };
            if !ca.filter.allows(&cb.filter)
                || (entries[i].body == entries[j].body && entries[i].body != 0)
            {
                continue;
            }
            let sensor = ca.sensor || cb.sensor;
            let margin = if sensor { 0.0 } else { SPECULATIVE_DISTANCE };
            let manifold = contact_with_margin(&ca.shape, &poses[i], &cb.shape, &poses[j], margin);
            let touching = manifold.as_ref().is_some_and(|m| m.depth() >= 0.0);
            let impulses = self
                .contacts
                .get(&(ha, hb))
                .map(|old| old.impulses.clone())
                .unwrap_or_default();
            next.insert(
                (ha, hb),
                ContactPair {
                    manifold,
                    touching,
                    impulses,
                    sensor,
                },
            );
        }
        for (key, pair) in &next {
            let was = self.contacts.get(key).is_some_and(|old| old.touching);
            if pair.touching && !was {
                self.events
                    .push(began_event(key, pair.sensor, &self.colliders));
            }
        }
        for (key, old) in &self.contacts {
            let now = next.get(key).is_some_and(|p| p.touching);
            if old.touching && !now {
                self.events
                    .push(ended_event(key, old.sensor, &self.colliders));
            }
        }

        // 4: constraints in contact-map order.
        let mut constraints = Vec::new();
        let mut constraint_keys = Vec::new();
        for (key, pair) in &next {
            let Some(manifold) = pair.manifold.as_ref() else {
                continue;
            };
            if pair.sensor {
                continue;
            }
            let (ca, cb) = (&self.colliders[key.0.key], &self.colliders[key.1.key]);
            let (ia, ib) = (body_index[ca.body.key], body_index[cb.body.key]);
            if ia == 0 && ib == 0 {
                continue;
            }
            let center_of = |index: usize, handle: ColliderHandle| {
                if index == 0 {
                    let body = &self.bodies[self.colliders[handle.key].body.key];
                    body.pose.transform_point(body.local_center)
                } else {
                    centers[index]
                }
            };
            let friction = (ca.material.friction * cb.material.friction).sqrt();
            let restitution = ca.material.restitution.max(cb.material.restitution);
            let impulses = &pair.impulses;
            constraints.push(ContactConstraint::new(
                &solver_bodies,
                ia,
                ib,
                center_of(ia, key.0),
                center_of(ib, key.1),
                manifold,
                friction,
                restitution,
                |id| {
                    impulses
                        .iter()
                        .find(|(stored, _, _)| *stored == id)
                        .map_or((0.0, 0.0), |&(_, n, t)| (n, t))
                },
            ));
            constraint_keys.push(*key);
        }

        let substeps = self.settings.substeps.max(1);
        let h = dt / substeps as Real;
        let inv_h = 1.0 / h;
        let softness = ContactSoftness::new(&self.settings.contact, h);
        let gravity = self.settings.gravity;
        for _ in 0..substeps {
            for (index, key) in solver_keys.iter().enumerate().skip(1) {
                let body = &self.bodies[*key];
                let sb = &mut solver_bodies[index];
                if body.kind == BodyKind::Dynamic {
                    sb.linear_velocity +=
                        (gravity * body.gravity_scale + body.force * body.inv_mass) * h;
                    sb.angular_velocity += body.torque * body.inv_inertia * h;
                    sb.linear_velocity /= 1.0 + h * body.linear_damping;
                    sb.angular_velocity /= 1.0 + h * body.angular_damping;
                }
            }
            warm_start(&mut solver_bodies, &constraints);
            solve(
                &mut solver_bodies,
                &mut constraints,
                &self.settings.contact,
                softness,
                inv_h,
                true,
            );
            integrate_positions(&mut solver_bodies, h);
            solve(
                &mut solver_bodies,
                &mut constraints,
                &self.settings.contact,
                softness,
                inv_h,
                false,
            );
        }
        apply_restitution(&mut solver_bodies, &mut constraints, &self.settings.contact);

        for (constraint, key) in constraints.iter().zip(&constraint_keys) {
            if let Some(pair) = next.get_mut(key) {
                pair.impulses = constraint
                    .points
                    .iter()
                    .map(|p| (p.id, p.normal_impulse, p.tangent_impulse))
                    .collect();
            }
        }
        self.contacts = next;

        // 5: write back.
        for (index, key) in solver_keys.iter().enumerate().skip(1) {
            let sb = solver_bodies[index];
            let body = &mut self.bodies[*key];
            let center = centers[index] + sb.delta_position;
            let rotation = sb.delta_rotation * body.pose.rotation;
            body.pose.rotation = rotation;
            body.pose.translation = center - rotation * (body.local_center * body.pose.scale);
            body.linear_velocity = sb.linear_velocity;
            body.angular_velocity = sb.angular_velocity;
            body.force = Vec2::zeros();
            body.torque = 0.0;
        }
        let (slept, woke) = self.update_sleep(dt);
        for key in slept {
            self.events.push(Event::Slept(self.body_handle(key)));
        }
        for key in woke {
            self.events.push(Event::Woke(self.body_handle(key)));
        }
        self.step_count += 1;
        Ok(())
    }
}

fn began_event(
    key: &(ColliderHandle, ColliderHandle),
    sensor: bool,
    colliders: &slotmap::SlotMap<super::handles::ColliderKey, super::Collider>,
) -> Event {
    if sensor {
        let (s, v) = sensor_first(key, colliders);
        Event::SensorEntered(s, v)
    } else {
        Event::Began(key.0, key.1)
    }
}

fn ended_event(
    key: &(ColliderHandle, ColliderHandle),
    sensor: bool,
    colliders: &slotmap::SlotMap<super::handles::ColliderKey, super::Collider>,
) -> Event {
    if sensor {
        let (s, v) = sensor_first(key, colliders);
        Event::SensorLeft(s, v)
    } else {
        Event::Ended(key.0, key.1)
    }
}

fn sensor_first(
    key: &(ColliderHandle, ColliderHandle),
    colliders: &slotmap::SlotMap<super::handles::ColliderKey, super::Collider>,
) -> (ColliderHandle, ColliderHandle) {
    if colliders.get(key.0.key).is_some_and(|c| c.sensor) {
        (key.0, key.1)
    } else {
        (key.1, key.0)
    }
}
