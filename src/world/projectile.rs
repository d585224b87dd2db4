//! Projectiles: lightweight shots in their own slotmap, traced every step.
//!
//! A projectile is a disc of `radius` (half its thickness) at a world
//! position with a velocity; it has no mass in the solver and never collides
//! with other projectiles. Each step it is traced against every body's
//! motion (see `projectile_trace.rs`); what happens at a hit is set by its
//! pierce count, its ricochets and its lifetime.

use super::error::{check_finite, check_finite_vec, check_range};
use super::handles::ProjectileKey;
use super::{BodyHandle, Filter, ProjectileHandle, World, WorldError};
use crate::math::{Real, Vec2};
use crate::query::cast::MAX_SHOT_COORDINATE;
use smallvec::SmallVec;

/// The projectile order may hold up to this many keys more than twice
/// the projectiles in flight (the rest are keys of removed projectiles)
/// before [`World::remove_projectile`] drops the removed ones.
pub(crate) const STALE_ORDER_SLACK: usize = 64;

/// Everything needed to fire a projectile. Validated by [`World::add_projectile`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ProjectileDef {
    /// Centre at the time it is fired (world, metres).
    pub position: Vec2,
    /// Velocity (world, m/s).
    pub velocity: Vec2,
    /// Radius of the disc (metres, ≥ 0): half the shot's thickness; 0 is a ray.
    pub radius: Real,
    /// A body the projectile never hits (the shooter).
    pub owner: Option<BodyHandle>,
    /// Multiplies the world's gravity for this projectile.
    pub gravity_scale: Real,
    /// Seconds until it expires (finite, > 0).
    pub lifetime: Real,
    /// How many bodies it passes through; it stops in (or ricochets off) the next one.
    pub pierce: u32,
    /// How many times it bounces off a body after its pierce count is used up.
    pub ricochets: u32,
    /// Restitution of a ricochet in `[0, 1]`: the normal part of the
    /// velocity relative to the surface is reversed and scaled by it; the
    /// tangential part is kept.
    pub restitution: Real,
    /// Which colliders it hits, matched like colliders' filters.
    pub filter: Filter,
    /// Mass (kg, ≥ 0): a hit gives the body the projectile's change of
    /// momentum relative to it (all of it for a stop or a pierce).
    pub mass: Real,
    /// When set, every hit gives the body this impulse (N·s, ≥ 0) along the
    /// relative velocity instead of the mass-based one.
    pub impulse: Option<Real>,
    /// Caller's data, returned untouched.
    pub user_data: u64,
}

impl ProjectileDef {
    /// A projectile at `position` with `velocity` and `radius`; no owner,
    /// gravity scale 1, a lifetime of 5 s, no pierce, no ricochet, 10 g.
    pub fn new(position: Vec2, velocity: Vec2, radius: Real) -> Self {
        ProjectileDef {
            position,
            velocity,
            radius,
            owner: None,
            gravity_scale: 1.0,
            lifetime: 5.0,
            pierce: 0,
            ricochets: 0,
            restitution: 1.0,
            filter: Filter::ALL,
            mass: 0.01,
            impulse: None,
            user_data: 0,
        }
    }

    /// This definition fired by `owner`, which it never hits.
    pub fn with_owner(mut self, owner: BodyHandle) -> Self {
        self.owner = Some(owner);
        self
    }

    /// This definition passing through `count` bodies.
    pub fn with_pierce(mut self, count: u32) -> Self {
        self.pierce = count;
        self
    }

    /// This definition bouncing `count` times with `restitution`.
    pub fn with_ricochets(mut self, count: u32, restitution: Real) -> Self {
        self.ricochets = count;
        self.restitution = restitution;
        self
    }

    /// This definition with another gravity scale.
    pub fn with_gravity_scale(mut self, gravity_scale: Real) -> Self {
        self.gravity_scale = gravity_scale;
        self
    }

    /// This definition with another lifetime (seconds).
    pub fn with_lifetime(mut self, lifetime: Real) -> Self {
        self.lifetime = lifetime;
        self
    }
}

/// A projectile in flight.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Projectile {
    pub(crate) position: Vec2,
    pub(crate) velocity: Vec2,
    pub(crate) radius: Real,
    pub(crate) owner: Option<BodyHandle>,
    pub(crate) gravity_scale: Real,
    pub(crate) lifetime: Real,
    pub(crate) pierce_left: u32,
    pub(crate) ricochets_left: u32,
    pub(crate) restitution: Real,
    pub(crate) filter: Filter,
    pub(crate) mass: Real,
    pub(crate) impulse: Option<Real>,
    pub(crate) user_data: u64,
    /// Bodies already passed through: never hit again by this projectile.
    pub(crate) pierced: SmallVec<[BodyHandle; 2]>,
}

impl Projectile {
    /// Centre (world, metres).
    pub fn position(&self) -> Vec2 {
        self.position
    }

    /// Velocity (world, m/s).
    pub fn velocity(&self) -> Vec2 {
        self.velocity
    }

    /// Radius (metres), half the thickness.
    pub fn radius(&self) -> Real {
        self.radius
    }

    /// The body it never hits.
    pub fn owner(&self) -> Option<BodyHandle> {
        self.owner
    }

    /// Seconds left before it expires.
    pub fn remaining_lifetime(&self) -> Real {
        self.lifetime
    }

    /// Bodies it may still pass through.
    pub fn pierce_left(&self) -> u32 {
        self.pierce_left
    }

    /// Ricochets it may still make.
    pub fn ricochets_left(&self) -> u32 {
        self.ricochets_left
    }

    /// Bodies it has passed through, in order.
    pub fn pierced(&self) -> &[BodyHandle] {
        &self.pierced
    }

    /// The caller's data.
    pub fn user_data(&self) -> u64 {
        self.user_data
    }
}

impl World {
    /// Fires a projectile; it is first traced in the next step.
    ///
    /// # Errors
    /// [`WorldError::NonFinite`] / [`WorldError::OutOfRange`] naming the
    /// field (position beyond ±1e9 m, radius < 0, lifetime ≤ 0, restitution
    /// outside [0, 1], mass or impulse < 0), [`WorldError::StaleBody`] for an
    /// owner handle of another world.
    pub fn add_projectile(&mut self, def: ProjectileDef) -> Result<ProjectileHandle, WorldError> {
        check_finite_vec("position", def.position)?;
        check_range(
            "position",
            def.position.abs().max(),
            "within ±1e9 m",
            |v| v <= MAX_SHOT_COORDINATE,
        )?;
        check_finite_vec("velocity", def.velocity)?;
        check_range("radius", def.radius, ">= 0 and <= 1e9", |v| {
            (0.0..=MAX_SHOT_COORDINATE).contains(&v)
        })?;
        check_finite("gravity_scale", def.gravity_scale)?;
        check_range("lifetime", def.lifetime, "> 0", |v| v > 0.0)?;
        check_range("restitution", def.restitution, "in [0, 1]", |v| {
            (0.0..=1.0).contains(&v)
        })?;
        check_range("mass", def.mass, ">= 0", |v| v >= 0.0)?;
        if let Some(impulse) = def.impulse {
            check_range("impulse", impulse, ">= 0", |v| v >= 0.0)?;
        }
        if let Some(owner) = def.owner
            && owner.world != self.id
        {
            return Err(WorldError::StaleBody);
        }
        let key = self.projectiles.insert(Projectile {
            position: def.position,
            velocity: def.velocity,
            radius: def.radius,
            owner: def.owner,
            gravity_scale: def.gravity_scale,
            lifetime: def.lifetime,
            pierce_left: def.pierce,
            ricochets_left: def.ricochets,
            restitution: def.restitution,
            filter: def.filter,
            mass: def.mass,
            impulse: def.impulse,
            user_data: def.user_data,
            pierced: SmallVec::new(),
        });
        self.projectile_order.push(key);
        Ok(self.projectile_handle(key))
    }

    /// Removes a projectile without an event.
    ///
    /// # Errors
    /// [`WorldError::StaleProjectile`] if it already hit, expired or was removed.
    pub fn remove_projectile(&mut self, projectile: ProjectileHandle) -> Result<(), WorldError> {
        if projectile.world != self.id {
            return Err(WorldError::StaleProjectile);
        }
        self.projectiles
            .remove(projectile.key)
            .ok_or(WorldError::StaleProjectile)?;
        // Its key stays in the order, skipped by every reader, until the
        // stale keys outnumber the live ones: then one pass drops them all.
        // So removing each of n projectiles costs O(1) amortised, not a
        // search of the order each.
        if self.projectile_order.len() > 2 * self.projectiles.len() + STALE_ORDER_SLACK {
            self.compact_projectile_order();
        }
        Ok(())
    }

    /// Drops the keys of removed projectiles from the order (see `World`'s
    /// `projectile_order`), keeping the others in their order.
    pub(crate) fn compact_projectile_order(&mut self) {
        let projectiles = &self.projectiles;
        self.projectile_order
            .retain(|&key| projectiles.contains_key(key));
    }

    /// The projectile, or `None` once it hit, expired or was removed.
    pub fn projectile(&self, projectile: ProjectileHandle) -> Option<&Projectile> {
        if projectile.world != self.id {
            return None;
        }
        self.projectiles.get(projectile.key)
    }

    /// Every projectile in flight, in the order they were added (the order
    /// a step traces them in).
    pub fn projectiles(&self) -> impl Iterator<Item = (ProjectileHandle, &Projectile)> {
        self.projectiles_in_order()
            .map(|(key, p)| (self.projectile_handle(key), p))
    }

    /// [`Self::projectiles`] by key: the order, without the keys of
    /// projectiles removed since it was last compacted.
    pub(crate) fn projectiles_in_order(
        &self,
    ) -> impl Iterator<Item = (ProjectileKey, &Projectile)> {
        self.projectile_order
            .iter()
            .filter_map(|&key| Some((key, self.projectiles.get(key)?)))
    }

    /// Number of projectiles in flight.
    pub fn projectile_count(&self) -> usize {
        self.projectiles.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;

    fn weightless() -> World {
        World::new(super::super::WorldSettings {
            gravity: Vec2::zeros(),
            ..Default::default()
        })
        .unwrap()
    }

    /// Removing most projectiles one at a time, in an order of its own,
    /// keeps the order within its bound after every removal, and the
    /// projectiles left in the order they were added.
    #[test]
    fn removed_keys_stay_within_the_bound_and_the_rest_keep_their_order() {
        let mut world = weightless();
        let handles: Vec<ProjectileHandle> = (0..1_000)
            .map(|i| {
                let def = ProjectileDef::new(vec2(i as Real, 0.0), vec2(0.0, 1.0), 0.01);
                world.add_projectile(def).unwrap()
            })
            .collect();
        // Every third from the back, then the rest but the ones ending in 7.
        let mut gone: Vec<usize> = (0..1_000).rev().step_by(3).collect();
        gone.extend((0..1_000).filter(|i| (999 - i) % 3 != 0 && i % 10 != 7));
        for (n, &i) in gone.iter().enumerate() {
            world.remove_projectile(handles[i]).unwrap();
            let live = world.projectile_count();
            assert_eq!(live, 1_000 - n - 1);
            assert!(
                world.projectile_order.len() <= 2 * live + STALE_ORDER_SLACK,
                "{} keys for {live} projectiles",
                world.projectile_order.len()
            );
        }
        let left: Vec<ProjectileHandle> = world.projectiles().map(|(h, _)| h).collect();
        let expected: Vec<ProjectileHandle> = (0..1_000)
            .filter(|i| !gone.contains(i))
            .map(|i| handles[i])
            .collect();
        assert_eq!(left, expected);
        // The next step passes the stale keys in its trace and drops them
        // in the pass that drops the projectiles it removes; the rest keep
        // their order.
        assert!(world.projectile_order.len() > world.projectile_count());
        world.step(1.0 / 60.0).unwrap();
        assert_eq!(world.projectile_order.len(), world.projectile_count());
        let left: Vec<ProjectileHandle> = world.projectiles().map(|(h, _)| h).collect();
        assert_eq!(left, expected);
        // A projectile removed by hand after a step and one expiring in the
        // next both leave the order with that step.
        world.remove_projectile(expected[0]).unwrap();
        let expected = &expected[1..];
        assert!(world.projectile_order.len() > world.projectile_count());
        let shot = world
            .add_projectile(
                ProjectileDef::new(vec2(0.0, 0.0), vec2(1.0, 0.0), 0.01).with_lifetime(0.01),
            )
            .unwrap();
        world.step(1.0 / 60.0).unwrap();
        assert!(world.projectile(shot).is_none(), "expired");
        assert_eq!(world.projectile_order.len(), world.projectile_count());
        let left: Vec<ProjectileHandle> = world.projectiles().map(|(h, _)| h).collect();
        assert_eq!(left, expected);
    }
}
