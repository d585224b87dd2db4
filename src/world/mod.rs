//! The [`World`]: bodies and colliders behind handles, stepped by the
//! soft-step solver, with continuous collision, projectiles and scene queries.
//!
//! A step ([`World::step`], see `step.rs`) runs: broadphase pairs →
//! narrowphase (persistent manifolds, contact and sensor events) → solver
//! substeps → broadphase proxies moved to their swept boxes → continuous
//! collision of fast bodies (`ccd.rs`) → projectiles traced in each target's
//! moving frame (`projectile_trace.rs`) → islands and sleep.
//!
//! Invariants:
//! - the world never holds a NaN: every setter validates and refuses bad input
//!   with a [`WorldError`], leaving the world unchanged;
//! - a step is deterministic: bodies, colliders and contact pairs are
//!   visited in handle order (slotmap keys, then `BTreeMap` order),
//!   projectiles in the order they were added, and whatever the broadphase
//!   trees return is sorted by handle before it is used, so results never
//!   depend on the trees' shapes; the same inputs give bit-identical states
//!   ([`World::state_hash`]), in a world restored from a snapshot too;
//! - every collider has a broadphase proxy whose fat box contains the
//!   collider's shape over the whole last step (its swept box) and now, grown
//!   by [`SPECULATIVE_DISTANCE`]; so any two colliders within that distance
//!   have overlapping fat boxes and therefore a contact pair;
//! - a stale handle (removed object, or a handle of another world) is refused
//!   with an error or answered with `None`, never a panic.

mod body;
mod ccd;
mod clear_boxes;
mod collider;
mod colliders_now;
mod contact_view;
mod edit;
mod error;
mod events;
mod handles;
mod hash;
mod islands;
mod mass;
mod motion;
mod narrowphase;
mod narrowphase_pass;
mod pair_map;
mod profile;
mod projectile;
mod projectile_trace;
mod proxies;
mod proxy_keep;
mod queries;
pub mod scenes;
mod settings;
mod shot_grid;
mod shot_grid_walk;
mod snapshot;
mod step;
mod sweep;
mod swept_box;

pub use body::{Body, BodyDef, BodyKind};
pub use ccd::CCD_MOTION_FRACTION;
pub use collider::{Collider, ColliderDef, Filter, Material};
pub use contact_view::ContactView;
pub use error::WorldError;
pub use events::{Event, HitOutcome};
pub use handles::{BodyHandle, ColliderHandle, ProjectileHandle};
pub use profile::StepProfile;
pub use projectile::{Projectile, ProjectileDef};
pub use projectile_trace::MAX_RICOCHETS_PER_STEP;
pub use queries::{Overlap, QueryFilter, SceneHit};
pub use settings::{AABB_MARGIN, LINEAR_SLOP, SPECULATIVE_DISTANCE, WorldSettings};
pub use shot_grid::GRID_CASTS_PER_COLLIDER;
pub use snapshot::Snapshot;

use crate::broadphase::BroadPhase;
use crate::math::{Pose, Real};
use handles::{BodyKey, ColliderKey, ProjectileKey, WorldId};
use slotmap::SlotMap;

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
    projectiles: SlotMap<ProjectileKey, Projectile>,
    /// The projectiles in flight in the order they were added: the order a
    /// step traces them in (so pushes on one body add up in it) and the
    /// hash reads them. Which slot a new projectile takes depends on the
    /// map's free list, which a snapshot read back from serde rebuilds in
    /// another order; this list keeps a restored world stepping as the
    /// original does.
    ///
    /// It may also hold keys of projectiles removed since (at most
    /// `projectile::STALE_ORDER_SLACK` more than twice the projectiles in flight):
    /// every reader skips a key the map no longer has, the next step drops
    /// them in the pass that drops the projectiles it removes, and a
    /// snapshot written out names none.
    projectile_order: Vec<ProjectileKey>,
    contacts: pair_map::PairMap,
    broad_phase: BroadPhase<ColliderKey>,
    events: Vec<Event>,
    step_count: u64,
    /// Buffers reused from step to step; not part of the state.
    scratch: step::Scratch,
    /// The grid thick shots walk once the world stops changing; dropped by
    /// every change to what a cast sees. Not part of the state.
    shot_grid: shot_grid::ShotGridCache,
    /// Whether steps record `profile`. Not part of the state.
    profiling: bool,
    /// The stages' times of the last profiled step. Not part of the state.
    profile: StepProfile,
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
            projectiles: SlotMap::with_key(),
            projectile_order: Vec::new(),
            contacts: pair_map::PairMap::default(),
            broad_phase: BroadPhase::new(),
            events: Vec::new(),
            step_count: 0,
            scratch: step::Scratch::default(),
            shot_grid: shot_grid::ShotGridCache::default(),
            profiling: false,
            profile: StepProfile::default(),
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
        // The next step reads every body afresh (see `islands.rs`).
        self.scratch.awake_known = false;
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

    pub(crate) fn collider_handle(&self, key: ColliderKey) -> ColliderHandle {
        ColliderHandle {
            key,
            world: self.id,
        }
    }

    pub(crate) fn projectile_handle(&self, key: ProjectileKey) -> ProjectileHandle {
        ProjectileHandle {
            key,
            world: self.id,
        }
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

    /// Handles of every collider, in a deterministic order.
    pub fn colliders(&self) -> impl Iterator<Item = (ColliderHandle, &Collider)> {
        self.colliders
            .iter()
            .map(|(key, collider)| (self.collider_handle(key), collider))
    }

    /// Number of bodies.
    pub fn body_count(&self) -> usize {
        self.bodies.len()
    }

    /// Number of colliders.
    pub fn collider_count(&self) -> usize {
        self.colliders.len()
    }

    /// Number of touching (non-speculative) contact pairs after the last step.
    pub fn contact_count(&self) -> usize {
        self.contacts.values().filter(|c| c.touching).count()
    }

    /// Number of contact pairs kept by the broadphase (fat boxes overlap),
    /// touching or not.
    pub fn pair_count(&self) -> usize {
        self.contacts.len()
    }

    /// World pose of a collider's shape: body pose composed with the local pose.
    pub fn collider_pose(&self, collider: ColliderHandle) -> Option<Pose> {
        let c = self.collider(collider)?;
        let body = self.bodies.get(c.body.key)?;
        Some(body.pose.compose(&c.local_pose))
    }

    /// Events of the last step, in a deterministic order (see [`Event`]).
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// Takes the events of the last step, leaving none.
    pub fn drain_events(&mut self) -> Vec<Event> {
        std::mem::take(&mut self.events)
    }

    /// True when no body or projectile holds a NaN or infinite value.
    pub fn is_finite(&self) -> bool {
        let finite = crate::math::is_finite_vec;
        self.bodies.values().all(|b| {
            let c = b.pose.rotation.complex();
            finite(b.pose.translation)
                && c.re.is_finite()
                && c.im.is_finite()
                && b.pose.scale.is_finite()
                && finite(b.linear_velocity)
                && b.angular_velocity.is_finite()
        }) && self
            .projectiles
            .values()
            .all(|p| finite(p.position) && finite(p.velocity) && p.lifetime.is_finite())
    }
}

fn validate_settings(settings: &WorldSettings) -> Result<(), WorldError> {
    use error::{check_finite_vec, check_range};
    check_finite_vec("gravity", settings.gravity)?;
    check_range("substeps", settings.substeps as Real, ">= 1", |v| v >= 1.0)?;
    check_range("contact.hertz", settings.contact.hertz, "> 0", |v| v > 0.0)?;
    check_range(
        "contact.damping_ratio",
        settings.contact.damping_ratio,
        ">= 0",
        |v| v >= 0.0,
    )?;
    check_range(
        "contact.max_push_velocity",
        settings.contact.max_push_velocity,
        ">= 0",
        |v| v >= 0.0,
    )?;
    check_range(
        "contact.restitution_threshold",
        settings.contact.restitution_threshold,
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
