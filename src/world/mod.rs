//! The [`World`]: bodies and colliders behind handles, stepped by the
//! soft-step solver.
//!
//! Invariants:
//! - the world never holds a NaN: every setter validates and refuses bad input
//!   with a [`WorldError`], leaving the world unchanged;
//! - a step is deterministic: bodies, colliders and contact pairs are visited
//!   in handle order (slotmap keys, then `BTreeMap` order), never in the
//!   order of a randomly seeded hash map, so the same inputs give
//!   bit-identical states ([`World::state_hash`]);
//! - a stale handle (removed object, or a handle of another world) is refused
//!   with an error or answered with `None`, never a panic.

mod body;
mod collider;
mod contact_view;
mod error;
mod handles;
mod hash;
mod islands;
mod pairs;
mod settings;
mod snapshot;
mod step;

pub use body::{Body, BodyDef, BodyKind};
pub use collider::{Collider, ColliderDef, Filter, Material};
pub use contact_view::ContactView;
pub use error::WorldError;
pub use handles::{BodyHandle, ColliderHandle, ProjectileHandle};
pub use settings::{AABB_MARGIN, LINEAR_SLOP, SPECULATIVE_DISTANCE, WorldSettings};
pub use snapshot::Snapshot;
pub use step::Event;

use crate::math::{Pose, Real, Vec2};
use crate::shape::{MassProperties, Shape};
use error::{check_finite, check_finite_vec, check_range};
use handles::{BodyKey, ColliderKey, WorldId};
use slotmap::SlotMap;
use std::collections::BTreeMap;

/// A simulated world.
///
/// # Examples
/// ```
/// use circlet::math::{Pose, vec2};
/// use circlet::shape::{Aabb, Circle};
/// use circlet::world::{BodyDef, ColliderDef, World, WorldSettings};
///
/// let mut world = World::new(WorldSettings::default()).unwrap();
/// let ground = world.add_body(BodyDef::fixed(Pose::IDENTITY)).unwrap();
/// world.add_collider(ground, ColliderDef::new(Aabb::new(vec2(-10.0, -1.0), vec2(10.0, 0.0)).unwrap())).unwrap();
/// let ball = world.add_body(BodyDef::dynamic(Pose::from_translation(vec2(0.0, 2.0)))).unwrap();
/// world.add_collider(ball, ColliderDef::new(Circle::new(vec2(0.0, 0.0), 0.5).unwrap())).unwrap();
/// for _ in 0..120 {
///     world.step(1.0 / 60.0).unwrap();
/// }
/// let y = world.body(ball).unwrap().pose().translation.y;
/// assert!((y - 0.5).abs() < 0.02, "resting on the ground, y = {y}");
/// ```
#[derive(Clone, Debug)]
pub struct World {
    id: WorldId,
    settings: WorldSettings,
    bodies: SlotMap<BodyKey, Body>,
    colliders: SlotMap<ColliderKey, Collider>,
    contacts: BTreeMap<(ColliderHandle, ColliderHandle), step::ContactPair>,
    events: Vec<Event>,
    step_count: u64,
}

impl World {
    /// An empty world.
    ///
    /// # Errors
    /// [`WorldError`] for non-finite gravity or zero substeps.
    pub fn new(settings: WorldSettings) -> Result<World, WorldError> {
        validate_settings(&settings)?;
        Ok(World {
            id: WorldId::fresh(),
            settings,
            bodies: SlotMap::with_key(),
            colliders: SlotMap::with_key(),
            contacts: BTreeMap::new(),
            events: Vec::new(),
            step_count: 0,
        })
    }

    /// The world's settings.
    pub fn settings(&self) -> &WorldSettings {
        &self.settings
    }

    /// Replaces the settings.
    ///
    /// # Errors
    /// As [`World::new`]; the world is unchanged on error.
    pub fn set_settings(&mut self, settings: WorldSettings) -> Result<(), WorldError> {
        validate_settings(&settings)?;
        self.settings = settings;
        Ok(())
    }

    /// Number of steps taken.
    pub fn step_count(&self) -> u64 {
        self.step_count
    }

    pub(crate) fn body_handle(&self, key: BodyKey) -> BodyHandle {
        BodyHandle {
            key,
            world: self.id,
        }
    }

    fn collider_handle(&self, key: ColliderKey) -> ColliderHandle {
        ColliderHandle {
            key,
            world: self.id,
        }
    }

    /// Adds a body (without colliders: it has no mass until one is added).
    ///
    /// # Errors
    /// [`WorldError`] naming the field for NaN/inf, an invalid pose or negative damping.
    pub fn add_body(&mut self, def: BodyDef) -> Result<BodyHandle, WorldError> {
        def.pose.validate()?;
        check_finite_vec("linear_velocity", def.linear_velocity)?;
        check_finite("angular_velocity", def.angular_velocity)?;
        check_finite("gravity_scale", def.gravity_scale)?;
        check_range("linear_damping", def.linear_damping, ">= 0", |v| v >= 0.0)?;
        check_range("angular_damping", def.angular_damping, ">= 0", |v| v >= 0.0)?;
        let key = self.bodies.insert(Body::from_def(&def));
        Ok(self.body_handle(key))
    }

    /// Attaches a collider to `body` and updates the body's mass properties.
    ///
    /// # Errors
    /// [`WorldError::StaleBody`], an invalid local pose, a density that is not
    /// > 0, friction < 0, restitution outside [0, 1], or a line shape.
    pub fn add_collider(
        &mut self,
        body: BodyHandle,
        def: ColliderDef,
    ) -> Result<ColliderHandle, WorldError> {
        self.body_ref(body)?;
        def.local_pose.validate()?;
        check_range("density", def.material.density, "> 0", |v| v > 0.0)?;
        check_range("friction", def.material.friction, ">= 0", |v| v >= 0.0)?;
        check_range("restitution", def.material.restitution, "in [0, 1]", |v| {
            (0.0..=1.0).contains(&v)
        })?;
        if matches!(*def.shape, Shape::Line(_)) {
            return Err(WorldError::UnsupportedShape("line"));
        }
        let key = self.colliders.insert(collider::Collider {
            body,
            shape: def.shape,
            local_pose: def.local_pose,
            material: def.material,
            filter: def.filter,
            sensor: def.sensor,
            user_data: def.user_data,
        });
        let handle = self.collider_handle(key);
        if let Some(b) = self.bodies.get_mut(body.key) {
            b.colliders.push(handle);
        }
        self.update_mass(body);
        Ok(handle)
    }

    /// Removes a body, its colliders and their contacts. Pending events that
    /// name them stay readable (handles in events are plain values).
    ///
    /// # Errors
    /// [`WorldError::StaleBody`] if it was already removed or is of another world.
    pub fn remove_body(&mut self, body: BodyHandle) -> Result<(), WorldError> {
        self.body_ref(body)?;
        let removed = self.bodies.remove(body.key).ok_or(WorldError::StaleBody)?;
        for collider in removed.colliders {
            self.colliders.remove(collider.key);
        }
        self.contacts
            .retain(|(a, b), _| a.body_of_live(&self.colliders) && b.body_of_live(&self.colliders));
        Ok(())
    }

    /// The body, or `None` for a stale handle.
    pub fn body(&self, body: BodyHandle) -> Option<&Body> {
        if body.world != self.id {
            return None;
        }
        self.bodies.get(body.key)
    }

    /// The collider, or `None` for a stale handle.
    pub fn collider(&self, collider: ColliderHandle) -> Option<&Collider> {
        if collider.world != self.id {
            return None;
        }
        self.colliders.get(collider.key)
    }

    /// Handles of every body, in a deterministic order.
    pub fn bodies(&self) -> impl Iterator<Item = (BodyHandle, &Body)> {
        self.bodies
            .iter()
            .map(|(key, body)| (self.body_handle(key), body))
    }

    /// Number of bodies.
    pub fn body_count(&self) -> usize {
        self.bodies.len()
    }

    /// Number of touching (non-speculative) contact pairs after the last step.
    pub fn contact_count(&self) -> usize {
        self.contacts.values().filter(|c| c.touching).count()
    }

    /// World pose of a collider's shape: body pose composed with the local pose.
    pub fn collider_pose(&self, collider: ColliderHandle) -> Option<Pose> {
        let c = self.collider(collider)?;
        let body = self.bodies.get(c.body.key)?;
        Some(body.pose.compose(&c.local_pose))
    }

    fn body_ref(&self, body: BodyHandle) -> Result<&Body, WorldError> {
        self.body(body).ok_or(WorldError::StaleBody)
    }

    fn body_mut(&mut self, body: BodyHandle) -> Result<&mut Body, WorldError> {
        if body.world != self.id {
            return Err(WorldError::StaleBody);
        }
        self.bodies.get_mut(body.key).ok_or(WorldError::StaleBody)
    }

    /// Moves a body to `pose` (origin, rotation and uniform scale). Changing
    /// the scale is O(1): shapes are not rebuilt; mass properties are rescaled.
    ///
    /// # Errors
    /// [`WorldError::StaleBody`] or an invalid pose.
    pub fn set_pose(&mut self, body: BodyHandle, pose: Pose) -> Result<(), WorldError> {
        pose.validate()?;
        let old_scale = self.body_ref(body)?.pose.scale;
        let b = self.body_mut(body)?;
        b.pose = pose;
        b.awake = b.kind != BodyKind::Static;
        b.sleep_time = 0.0;
        if old_scale != pose.scale {
            self.update_mass(body);
        }
        Ok(())
    }

    /// Sets the uniform scale of a body, keeping its origin and rotation (O(1)).
    ///
    /// # Errors
    /// [`WorldError::StaleBody`] or a scale that is not finite and > 0.
    pub fn set_scale(&mut self, body: BodyHandle, scale: Real) -> Result<(), WorldError> {
        let pose = self.body_ref(body)?.pose.with_scale(scale);
        self.set_pose(body, pose)
    }

    /// Sets the velocity of the centre of mass (m/s) and the spin (rad/s).
    ///
    /// # Errors
    /// [`WorldError::StaleBody`] or non-finite values.
    pub fn set_velocity(
        &mut self,
        body: BodyHandle,
        linear: Vec2,
        angular: Real,
    ) -> Result<(), WorldError> {
        check_finite_vec("linear_velocity", linear)?;
        check_finite("angular_velocity", angular)?;
        let b = self.body_mut(body)?;
        if b.kind == BodyKind::Static {
            return Ok(());
        }
        b.linear_velocity = linear;
        b.angular_velocity = angular;
        b.awake = true;
        b.sleep_time = 0.0;
        Ok(())
    }

    /// Adds a force (N, world) at the centre of mass for the next step.
    ///
    /// # Errors
    /// [`WorldError::StaleBody`] or a non-finite force.
    pub fn apply_force(&mut self, body: BodyHandle, force: Vec2) -> Result<(), WorldError> {
        check_finite_vec("force", force)?;
        let b = self.body_mut(body)?;
        if b.is_dynamic() {
            b.force += force;
            b.awake = true;
        }
        Ok(())
    }

    /// Applies an impulse (N·s, world) at a world point: changes velocity at once.
    ///
    /// # Errors
    /// [`WorldError::StaleBody`] or non-finite input.
    pub fn apply_impulse(
        &mut self,
        body: BodyHandle,
        impulse: Vec2,
        point: Vec2,
    ) -> Result<(), WorldError> {
        check_finite_vec("impulse", impulse)?;
        check_finite_vec("point", point)?;
        let b = self.body_mut(body)?;
        if b.is_dynamic() {
            let r = point - b.pose.transform_point(b.local_center);
            b.linear_velocity += impulse * b.inv_mass;
            b.angular_velocity += b.inv_inertia * crate::math::cross(r, impulse);
            b.awake = true;
            b.sleep_time = 0.0;
        }
        Ok(())
    }

    /// Recomputes mass, centre of mass and inertia from the colliders at the
    /// body's current scale (areas scale by s², inertia by s⁴).
    fn update_mass(&mut self, body: BodyHandle) {
        let Some(b) = self.bodies.get(body.key) else {
            return;
        };
        let scale = b.pose.scale;
        let parts: Vec<MassProperties> = b
            .colliders
            .iter()
            .filter_map(|c| self.colliders.get(c.key))
            .filter(|c| !c.sensor)
            .map(|c| {
                let local = c.shape.mass_properties();
                let placed = MassProperties {
                    area: local.area * c.local_pose.scale * c.local_pose.scale,
                    centroid: c.local_pose.transform_point(local.centroid),
                    inertia: local.inertia * c.local_pose.scale.powi(4),
                };
                let density = c.material.density;
                MassProperties {
                    area: placed.area * density,
                    centroid: placed.centroid,
                    inertia: placed.inertia * density,
                }
            })
            .collect();
        let combined = MassProperties::combine(&parts);
        let Some(b) = self.bodies.get_mut(body.key) else {
            return;
        };
        // Keep the centre of mass where it is in the world when it shifts.
        let old_center = b.pose.transform_point(b.local_center);
        b.local_center = combined.centroid;
        let new_center = b.pose.transform_point(b.local_center);
        let scaled = combined.scaled(scale);
        if b.is_dynamic() && scaled.area > 0.0 {
            b.mass = scaled.area;
            b.inv_mass = 1.0 / b.mass;
            b.inertia = scaled.inertia;
            b.inv_inertia = if b.inertia > 0.0 {
                1.0 / b.inertia
            } else {
                0.0
            };
            // v_new_center = v_old_center + ω × (new − old)
            b.linear_velocity += crate::math::perp(new_center - old_center) * b.angular_velocity;
        } else {
            b.mass = 0.0;
            b.inv_mass = 0.0;
            b.inertia = 0.0;
            b.inv_inertia = 0.0;
        }
    }

    /// Contact events of the last step (began / ended), in a deterministic order.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// Takes the events of the last step, leaving none.
    pub fn drain_events(&mut self) -> Vec<Event> {
        std::mem::take(&mut self.events)
    }

    /// True when no body holds a NaN or infinite value.
    pub fn is_finite(&self) -> bool {
        self.bodies.values().all(|b| {
            crate::math::is_finite_vec(b.pose.translation)
                && b.pose.rotation.angle().is_finite()
                && crate::math::is_finite_vec(b.linear_velocity)
                && b.angular_velocity.is_finite()
        })
    }
}

impl ColliderHandle {
    fn body_of_live(&self, colliders: &SlotMap<ColliderKey, Collider>) -> bool {
        colliders.contains_key(self.key)
    }
}

fn validate_settings(settings: &WorldSettings) -> Result<(), WorldError> {
    check_finite_vec("gravity", settings.gravity)?;
    check_range("substeps", settings.substeps as f32, ">= 1", |v| v >= 1.0)?;
    check_range("contact.hertz", settings.contact.hertz, "> 0", |v| v > 0.0)?;
    check_range(
        "contact.damping_ratio",
        settings.contact.damping_ratio,
        ">= 0",
        |v| v >= 0.0,
    )?;
    check_range("sleep_velocity", settings.sleep_velocity, ">= 0", |v| {
        v >= 0.0
    })?;
    check_range("time_to_sleep", settings.time_to_sleep, ">= 0", |v| {
        v >= 0.0
    })?;
    Ok(())
}
