//! Snapshots: the whole simulated state, restorable bit for bit.
//!
//! A restored world continues exactly as the original did from the moment of
//! the snapshot (same bodies, colliders, projectiles, contacts with their
//! warm-starting impulses, sleep timers, pending events and step count),
//! which is what rollback networking needs.
//!
//! With the `serde` feature a [`Snapshot`] serializes to any serde format.
//! The broadphase is not serialized: deserializing rebuilds its proxies, and
//! since every use of the trees sorts what they return, and a pair without
//! a manifold carries no state, the rebuilt world continues bit for bit all
//! the same. Deserializing validates everything (shapes through their
//! constructors, poses, finiteness, handles that point somewhere).

use super::handles::WorldId;
use super::{World, WorldError};

/// A copy of a world's simulated state.
#[derive(Clone, Debug)]
pub struct Snapshot {
    state: World,
}

impl Snapshot {
    /// The step count at the time of the snapshot.
    pub fn step_count(&self) -> u64 {
        self.state.step_count
    }

    /// The state hash at the time of the snapshot (see [`World::state_hash`]).
    pub fn state_hash(&self) -> u64 {
        self.state.state_hash()
    }
}

impl World {
    /// Captures the simulated state.
    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            state: self.clone(),
        }
    }

    /// Restores a captured state. This world keeps its identity: handles it
    /// issued before the snapshot stay valid, and if the snapshot came from
    /// another world (or from a file), the handles in it are re-issued as
    /// this world's, so a replica can be driven with the same handle values
    /// (keys) as the original.
    pub fn restore(&mut self, snapshot: &Snapshot) {
        let (id, profiling, profile) = (self.id, self.profiling, self.profile);
        *self = snapshot.state.clone();
        self.rebrand(id);
        // The instrument stays this world's own.
        (self.profiling, self.profile) = (profiling, profile);
    }

    /// Re-issues every stored handle as a handle of world `id`.
    fn rebrand(&mut self, id: WorldId) {
        if self.id == id {
            return;
        }
        self.id = id;
        for body in self.bodies.values_mut() {
            for collider in &mut body.colliders {
                collider.world = id;
            }
        }
        for collider in self.colliders.values_mut() {
            collider.body.world = id;
        }
        for projectile in self.projectiles.values_mut() {
            if let Some(owner) = &mut projectile.owner {
                owner.world = id;
            }
            for body in &mut projectile.pierced {
                body.world = id;
            }
        }
        // Handles order by key first, so the pairs' order is unchanged.
        self.contacts.rekey(|(mut a, mut b)| {
            a.world = id;
            b.world = id;
            (a, b)
        });
        for event in &mut self.events {
            rebrand_event(event, id);
        }
    }

    /// Checks a state read from outside (deserialized) before it is used.
    #[cfg_attr(not(feature = "serde"), allow(dead_code))]
    fn validate_state(&self) -> Result<(), WorldError> {
        use super::error::{check_finite, check_finite_vec};
        super::validate_settings(&self.settings)?;
        for (key, body) in &self.bodies {
            body.pose.validate()?;
            check_finite_vec("linear_velocity", body.linear_velocity)?;
            check_finite("angular_velocity", body.angular_velocity)?;
            check_finite_vec("local_center", body.local_center)?;
            for value in [
                body.mass,
                body.inv_mass,
                body.inertia,
                body.inv_inertia,
                body.linear_damping,
                body.angular_damping,
                body.sleep_time,
                body.min_extent,
                body.max_extent,
            ] {
                super::error::check_range("body", value, ">= 0", |v| v >= 0.0)?;
            }
            check_finite("gravity_scale", body.gravity_scale)?;
            check_finite_vec("force", body.force)?;
            check_finite("torque", body.torque)?;
            for collider in &body.colliders {
                match self.colliders.get(collider.key) {
                    Some(c) if c.body.key == key => {}
                    _ => return Err(WorldError::StaleCollider),
                }
            }
        }
        for collider in self.colliders.values() {
            if !self.bodies.contains_key(collider.body.key) {
                return Err(WorldError::StaleBody);
            }
            collider.local_pose.validate()?;
            if matches!(*collider.shape, crate::shape::Shape::Line(_)) {
                return Err(WorldError::UnsupportedShape("line"));
            }
        }
        for ((a, b), pair, impulses) in self.contacts.iter_with_impulses() {
            if !(self.colliders.contains_key(a.key) && self.colliders.contains_key(b.key)) || a >= b
            {
                return Err(WorldError::StaleCollider);
            }
            if pair.color != crate::dynamics::NO_COLOR
                && usize::from(pair.color) >= crate::dynamics::COLORS
            {
                return Err(WorldError::OutOfRange {
                    field: "contact colour",
                    expected: "below 32, or none (255)",
                    value: f32::from(pair.color),
                });
            }
            if impulses
                .iter()
                .any(|(_, n, t)| !(n.is_finite() && t.is_finite()))
            {
                return Err(WorldError::NonFinite { field: "impulse" });
            }
        }
        for p in self.projectiles.values() {
            check_finite_vec("position", p.position)?;
            check_finite_vec("velocity", p.velocity)?;
            for value in [p.radius, p.lifetime, p.restitution, p.mass] {
                super::error::check_range("projectile", value, ">= 0", |v| v >= 0.0)?;
            }
            check_finite("gravity_scale", p.gravity_scale)?;
        }
        // The order names every projectile in flight exactly once.
        if self.projectile_order.len() != self.projectiles.len() {
            return Err(WorldError::StaleProjectile);
        }
        let mut named: Vec<u64> = Vec::with_capacity(self.projectile_order.len());
        for &key in &self.projectile_order {
            if !self.projectiles.contains_key(key) {
                return Err(WorldError::StaleProjectile);
            }
            named.push(slotmap::Key::data(&key).as_ffi());
        }
        named.sort_unstable();
        if named.windows(2).any(|w| w[0] == w[1]) {
            return Err(WorldError::StaleProjectile);
        }
        Ok(())
    }
}

fn rebrand_event(event: &mut super::Event, id: WorldId) {
    use super::Event;
    match event {
        Event::Began(a, b)
        | Event::Ended(a, b)
        | Event::SensorEntered(a, b)
        | Event::SensorLeft(a, b) => {
            a.world = id;
            b.world = id;
        }
        Event::ProjectileHit {
            projectile,
            body,
            collider,
            ..
        } => {
            projectile.world = id;
            body.world = id;
            collider.world = id;
        }
        Event::ProjectileExpired(projectile) => projectile.world = id,
        Event::Slept(body) | Event::Woke(body) => body.world = id,
    }
}

#[cfg(feature = "serde")]
mod serde_impl {
    use super::super::handles::{BodyKey, ColliderKey, ProjectileKey, WorldId};
    use super::super::step::{ContactPair, Impulses};
    use super::super::{Body, Collider, ColliderHandle, Event, Projectile, World, WorldSettings};
    use super::Snapshot;
    use serde::de::Error as _;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    use slotmap::SlotMap;

    type PairKey = (ColliderHandle, ColliderHandle);

    /// The serialized fields, borrowed from the snapshot.
    #[derive(Serialize)]
    struct StateRef<'a> {
        id: WorldId,
        settings: &'a WorldSettings,
        bodies: &'a SlotMap<BodyKey, Body>,
        colliders: &'a SlotMap<ColliderKey, Collider>,
        projectiles: &'a SlotMap<ProjectileKey, Projectile>,
        /// Only projectiles in flight (see `World`'s `projectile_order`).
        projectile_order: Vec<ProjectileKey>,
        /// A sequence of pairs: map keys of most formats must be strings.
        contacts: Vec<(&'a PairKey, &'a ContactPair, &'a Impulses)>,
        events: &'a [Event],
        step_count: u64,
    }

    /// The same fields, owned, as read back.
    #[derive(Deserialize)]
    struct StateOwned {
        id: WorldId,
        settings: WorldSettings,
        bodies: SlotMap<BodyKey, Body>,
        colliders: SlotMap<ColliderKey, Collider>,
        projectiles: SlotMap<ProjectileKey, Projectile>,
        /// Missing in snapshots written before the order was kept: the
        /// projectiles are then taken in slot order.
        #[serde(default)]
        projectile_order: Option<Vec<ProjectileKey>>,
        contacts: Vec<(PairKey, ContactPair, Impulses)>,
        events: Vec<Event>,
        step_count: u64,
    }

    impl Serialize for Snapshot {
        fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            let state = &self.state;
            StateRef {
                id: state.id,
                settings: &state.settings,
                bodies: &state.bodies,
                colliders: &state.colliders,
                projectiles: &state.projectiles,
                projectile_order: state.projectiles_in_order().map(|(key, _)| key).collect(),
                contacts: state.contacts.iter_with_impulses().collect(),
                events: &state.events,
                step_count: state.step_count,
            }
            .serialize(serializer)
        }
    }

    impl<'de> Deserialize<'de> for Snapshot {
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            let owned = StateOwned::deserialize(deserializer)?;
            let mut world = World::new(owned.settings).map_err(D::Error::custom)?;
            let fresh = world.id;
            world.id = owned.id;
            world.bodies = owned.bodies;
            world.colliders = owned.colliders;
            world.projectile_order = owned
                .projectile_order
                .unwrap_or_else(|| owned.projectiles.keys().collect());
            world.projectiles = owned.projectiles;
            world.contacts = owned.contacts.into_iter().collect();
            world.events = owned.events;
            world.step_count = owned.step_count;
            world.validate_state().map_err(D::Error::custom)?;
            // A fresh identity: the snapshot is a world of its own until restored.
            world.rebrand(fresh);
            let keys: Vec<ColliderKey> = world.colliders.keys().collect();
            for key in keys {
                world.create_proxy(key);
                if world.colliders[key].proxy.is_none() {
                    return Err(D::Error::custom("a collider's box is not finite"));
                }
            }
            Ok(Snapshot { state: world })
        }
    }
}
