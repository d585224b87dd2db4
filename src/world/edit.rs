//! Adding, removing and changing bodies and colliders between steps.
//!
//! Every call validates first and changes nothing when it refuses; proxies
//! in the broadphase follow at once, so scene queries between steps see the
//! change.

use super::error::{check_finite, check_finite_vec, check_range};
use super::handles::ColliderKey;
use super::proxy_keep::ProxyKeep;
use super::{Body, BodyDef, BodyHandle, BodyKind, Collider, ColliderDef, ColliderHandle};
use super::{World, WorldError};
use crate::math::{Pose, Real, Vec2, cross};
use crate::shape::Shape;
use slotmap::SlotMap;

impl World {
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
        let mut body = Body::from_def(&def);
        if def.kind == BodyKind::Static {
            body.linear_velocity = Vec2::zeros();
            body.angular_velocity = 0.0;
        }
        let key = self.bodies.insert(body);
        self.scratch.awake_known = false;
        Ok(self.body_handle(key))
    }

    /// Attaches a collider to `body`, gives it a broadphase proxy, updates
    /// the body's mass properties and wakes it.
    ///
    /// # Errors
    /// [`WorldError::StaleBody`], an invalid local pose, a density that is
    /// not positive, a negative friction, a restitution outside [0, 1], a
    /// line shape, or a shape whose world box is not finite.
    pub fn add_collider(
        &mut self,
        body: BodyHandle,
        def: ColliderDef,
    ) -> Result<ColliderHandle, WorldError> {
        let body_pose = self.body_ref(body)?.pose;
        def.local_pose.validate()?;
        check_range("density", def.material.density, "> 0", |v| v > 0.0)?;
        check_range("friction", def.material.friction, ">= 0", |v| v >= 0.0)?;
        check_range("restitution", def.material.restitution, "in [0, 1]", |v| {
            (0.0..=1.0).contains(&v)
        })?;
        if matches!(*def.shape, Shape::Line(_)) {
            return Err(WorldError::UnsupportedShape("line"));
        }
        let pose = body_pose.compose(&def.local_pose);
        pose.validate()?;
        super::swept_box::proxy_bounds(&def.shape, &pose).ok_or(WorldError::NonFinite {
            field: "collider bounds",
        })?;
        self.shot_grid.invalidate();
        self.scratch.colliders_now.invalidate();
        self.scratch.awake_known = false;
        let key = self.colliders.insert(Collider {
            body,
            shape: def.shape,
            local_pose: def.local_pose,
            material: def.material,
            filter: def.filter,
            sensor: def.sensor,
            user_data: def.user_data,
            proxy: None,
        });
        self.create_proxy(key);
        let handle = self.collider_handle(key);
        if let Some(b) = self.bodies.get_mut(body.key) {
            b.colliders.push(handle);
            wake(b);
        }
        self.update_mass(body.key);
        Ok(handle)
    }

    /// Removes a body, its colliders, their proxies and their contacts, and
    /// wakes the bodies it touched (with their islands). Pending events that
    /// name them stay readable (handles in events are plain values); no event
    /// is sent for contacts ended by a removal.
    ///
    /// # Errors
    /// [`WorldError::StaleBody`] if it was already removed or is of another world.
    pub fn remove_body(&mut self, body: BodyHandle) -> Result<(), WorldError> {
        self.body_ref(body)?;
        self.shot_grid.invalidate();
        self.scratch.colliders_now.invalidate();
        self.scratch.awake_known = false;
        let removed = self.bodies.remove(body.key).ok_or(WorldError::StaleBody)?;
        // A sleeping body leaves a gap in its island's ring: the next step
        // rebuilds the rings from the contacts (see `islands.rs`).
        if removed.sleep_next.is_some() {
            self.scratch.islands.rings_known = false;
        }
        for collider in &removed.colliders {
            self.detach_collider(collider.key);
        }
        // Pairs that lost a collider.
        self.drop_pairs_waking(|colliders, (a, b)| {
            colliders.contains_key(a.key) && colliders.contains_key(b.key)
        });
        Ok(())
    }

    /// Drops the contact pairs `keep` refuses and wakes the bodies that a
    /// dropped pair held up: whatever was resting on what is removed must
    /// fall, even if it sleeps (its island wakes with it at the next step).
    fn drop_pairs_waking(
        &mut self,
        keep: impl Fn(&SlotMap<ColliderKey, Collider>, &super::pair_map::PairKey) -> bool,
    ) {
        let mut touched = Vec::new();
        let colliders = &self.colliders;
        // The dropped pairs' colours are not given back one by one: the
        // next step rebuilds them from the pairs left.
        self.scratch.wide.forget_kept();
        self.contacts.retain(|key, pair| {
            let kept = keep(colliders, key);
            if !kept && pair.touching && !pair.sensor {
                touched.extend([key.0.key, key.1.key]);
            }
            kept
        });
        for collider in touched {
            let body = self.colliders.get(collider).map(|c| c.body.key);
            if let Some(b) = body.and_then(|key| self.bodies.get_mut(key)) {
                wake(b);
            }
        }
    }

    /// Removes one collider (its proxy and contacts), updates its body's
    /// mass and wakes it and the bodies the collider touched.
    ///
    /// # Errors
    /// [`WorldError::StaleCollider`] if it was already removed or is of another world.
    pub fn remove_collider(&mut self, collider: ColliderHandle) -> Result<(), WorldError> {
        let body = self
            .collider(collider)
            .ok_or(WorldError::StaleCollider)?
            .body;
        self.shot_grid.invalidate();
        self.scratch.colliders_now.invalidate();
        self.scratch.awake_known = false;
        self.detach_collider(collider.key);
        if let Some(b) = self.bodies.get_mut(body.key) {
            b.colliders.retain(|c| *c != collider);
            wake(b);
        }
        self.drop_pairs_waking(|_, (a, b)| *a != collider && *b != collider);
        self.update_mass(body.key);
        Ok(())
    }

    fn detach_collider(&mut self, key: super::handles::ColliderKey) {
        let Some(removed) = self.colliders.remove(key) else {
            return;
        };
        // Its body's mass and reach change: the keep is measured again.
        if let Some(body) = self.bodies.get_mut(removed.body.key) {
            body.proxy_keep = ProxyKeep::NONE;
        }
        if let Some(proxy) = removed.proxy {
            // The proxy exists while its collider does; a stale id is ignored.
            let _ = self.broad_phase.destroy_proxy(proxy);
        }
    }

    pub(crate) fn body_ref(&self, body: BodyHandle) -> Result<&Body, WorldError> {
        self.body(body).ok_or(WorldError::StaleBody)
    }

    fn body_mut(&mut self, body: BodyHandle) -> Result<&mut Body, WorldError> {
        if body.world != self.id {
            return Err(WorldError::StaleBody);
        }
        // Any setter may wake the body: the islands' list of awake bodies
        // is read again from every body at the next step.
        self.scratch.awake_known = false;
        self.bodies.get_mut(body.key).ok_or(WorldError::StaleBody)
    }

    /// Moves a body to `pose` (origin, rotation and uniform scale) at once, a
    /// teleport: nothing is swept between the old and the new pose. Changing
    /// the scale is O(1): shapes are not rebuilt; mass properties are rescaled.
    /// Wakes the body.
    ///
    /// # Errors
    /// [`WorldError::StaleBody`], an invalid pose, or one whose collider boxes
    /// are not finite.
    pub fn set_pose(&mut self, body: BodyHandle, pose: Pose) -> Result<(), WorldError> {
        pose.validate()?;
        let current = self.body_ref(body)?;
        for collider in &current.colliders {
            if let Some(c) = self.colliders.get(collider.key) {
                super::swept_box::proxy_bounds(&c.shape, &pose.compose(&c.local_pose)).ok_or(
                    WorldError::NonFinite {
                        field: "collider bounds",
                    },
                )?;
            }
        }
        let old_scale = current.pose.scale;
        self.shot_grid.invalidate();
        self.scratch.colliders_now.invalidate();
        self.scratch.awake_known = false;
        let b = self.body_mut(body)?;
        b.pose = pose;
        b.awake = b.kind != BodyKind::Static;
        b.sleep_time = 0.0;
        if old_scale != pose.scale {
            self.update_mass(body.key);
        }
        self.teleport_proxies(body.key);
        Ok(())
    }

    /// Sets the uniform scale of a body, keeping its origin and rotation (O(1)).
    ///
    /// # Errors
    /// [`WorldError::StaleBody`] or a scale that is not finite and > 0.
    pub fn set_scale(&mut self, body: BodyHandle, scale: Real) -> Result<(), WorldError> {
        check_range("scale", scale, "> 0", |v| v > 0.0)?;
        let pose = self.body_ref(body)?.pose.with_scale(scale);
        self.set_pose(body, pose)
    }

    /// Sets the velocity of the centre of mass (m/s) and the spin (rad/s).
    /// Ignored for static bodies; wakes the body.
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

    /// Flags a body as a bullet (swept continuously at any speed) or not.
    ///
    /// # Errors
    /// [`WorldError::StaleBody`].
    pub fn set_bullet(&mut self, body: BodyHandle, bullet: bool) -> Result<(), WorldError> {
        self.body_mut(body)?.bullet = bullet;
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
            b.sleep_time = 0.0;
        }
        Ok(())
    }

    /// Adds a torque (N·m) for the next step.
    ///
    /// # Errors
    /// [`WorldError::StaleBody`] or a non-finite torque.
    pub fn apply_torque(&mut self, body: BodyHandle, torque: Real) -> Result<(), WorldError> {
        check_finite("torque", torque)?;
        let b = self.body_mut(body)?;
        if b.is_dynamic() {
            b.torque += torque;
            b.awake = true;
            b.sleep_time = 0.0;
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
        apply_impulse_to(b, impulse, point);
        Ok(())
    }
}

/// Wakes a body that can move (a static body is never awake).
fn wake(body: &mut Body) {
    body.awake = body.kind != BodyKind::Static;
    body.sleep_time = 0.0;
}

/// Applies an impulse at a world point to a dynamic body and wakes it;
/// anything else is unchanged. A result that would not be finite is dropped.
pub(crate) fn apply_impulse_to(body: &mut Body, impulse: Vec2, point: Vec2) {
    if !body.is_dynamic() {
        return;
    }
    let arm = point - body.pose.transform_point(body.local_center);
    let linear = body.linear_velocity + impulse * body.inv_mass;
    let angular = body.angular_velocity + body.inv_inertia * cross(arm, impulse);
    if crate::math::is_finite_vec(linear) && angular.is_finite() {
        body.linear_velocity = linear;
        body.angular_velocity = angular;
        body.awake = true;
        body.sleep_time = 0.0;
    }
}
