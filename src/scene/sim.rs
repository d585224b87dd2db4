//! [`Simulation`]: a loaded scene running: guns firing, shots flying, hits
//! counted, one fixed time step at a time. The window, the command line,
//! the examples and the tests all drive scenes through it.
//!
//! Shots: [`Simulation::fire`] is the one place that puts a [`Shot`] into the
//! world. It makes each shot a small, fast dynamic circle flagged `bullet`,
//! without gravity, in collision group [`SHOT_GROUP`] (shots do not hit each
//! other). A shot counts a hit when it begins touching a body that is not a
//! shot; after `pierce + 1` hits, or when its lifetime ends, it is removed.
//! When the world gains projectiles (thick swept rays with exact hit
//! reports), `fire` is where they replace shot bodies.
//!
//! Determinism: guns fire on the simulation clock (`steps × dt`), shots are
//! kept in handle order, and nothing here reads the wall clock except the
//! step timing in [`SimStats::last_step_seconds`], which no decision uses.

use super::build::LoadedScene;
use super::guns::Shot;
use crate::math::{Real, Vec2};
use crate::shape::Circle;
use crate::world::{
    BodyDef, BodyHandle, ColliderDef, ColliderHandle, Event, Filter, Material, World, WorldError,
};
use std::collections::{BTreeMap, BTreeSet};

/// Collision group bit of shots: shots are in it, and their mask leaves it out.
pub const SHOT_GROUP: u32 = 1 << 31;

/// Smallest radius of a shot body (m): thinner shots still need area to collide.
pub const MIN_SHOT_RADIUS: Real = 0.02;

/// Density of shot bodies (kg/m²): light, so a hit nudges rather than blasts.
pub const SHOT_DENSITY: Real = 2.0;

/// Counters of a running simulation.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SimStats {
    /// Steps taken.
    pub steps: u64,
    /// Shots fired (guns and [`Simulation::shoot`]).
    pub shots: u64,
    /// Hits: a shot beginning to touch a body that is not a shot.
    pub hits: u64,
    /// Hits by body name (unnamed bodies as `#index`, in world order).
    pub hits_by_body: BTreeMap<String, u64>,
    /// Hits by `body/part` for hits on a named part of a body (a collider
    /// with a `name`), and by body name for hits anywhere else.
    pub hits_by_part: BTreeMap<String, u64>,
    /// Wall-clock time of the last step (s).
    pub last_step_seconds: f64,
}

/// A shot in flight.
#[derive(Clone, Debug, PartialEq)]
struct LiveShot {
    expires: f64,
    pierce_left: u32,
    hit: BTreeSet<BodyHandle>,
}

/// A scene running at its fixed time step.
#[derive(Clone, Debug)]
pub struct Simulation {
    loaded: LoadedScene,
    time: f64,
    shots: BTreeMap<BodyHandle, LiveShot>,
    stats: SimStats,
    due: Vec<Shot>,
}

impl Simulation {
    /// A simulation at time 0.
    pub fn new(loaded: LoadedScene) -> Simulation {
        Simulation {
            loaded,
            time: 0.0,
            shots: BTreeMap::new(),
            stats: SimStats::default(),
            due: Vec::new(),
        }
    }

    /// The world.
    pub fn world(&self) -> &World {
        &self.loaded.world
    }

    /// The world, to change it between steps.
    pub fn world_mut(&mut self) -> &mut World {
        &mut self.loaded.world
    }

    /// The loaded scene (names, guns, view).
    pub fn scene(&self) -> &LoadedScene {
        &self.loaded
    }

    /// Simulated time (s): steps × dt.
    pub fn time(&self) -> f64 {
        self.time
    }

    /// The fixed time step (s).
    pub fn dt(&self) -> Real {
        self.loaded.dt
    }

    /// Counters so far.
    pub fn stats(&self) -> &SimStats {
        &self.stats
    }

    /// True when `body` is a shot in flight.
    pub fn is_shot(&self, body: BodyHandle) -> bool {
        self.shots.contains_key(&body)
    }

    /// The bodies of the shots in flight, in handle order.
    pub fn shots(&self) -> impl Iterator<Item = BodyHandle> + '_ {
        self.shots.keys().copied()
    }

    /// Number of shots in flight.
    pub fn shots_in_flight(&self) -> usize {
        self.shots.len()
    }

    /// One step: guns fire what is due, the world steps by `dt`, hits are
    /// counted and spent or expired shots removed.
    ///
    /// # Errors
    /// A [`WorldError`] from the world; the simulation stays usable.
    pub fn step(&mut self) -> Result<(), WorldError> {
        let started = std::time::Instant::now();
        self.due.clear();
        for (index, gun) in self.loaded.guns.iter_mut().enumerate() {
            gun.shots_until(index, self.time, &self.loaded.world, &mut self.due);
        }
        for pulse in &self.loaded.pulses {
            // A pulsing body that was removed is skipped.
            let _ = self
                .loaded
                .world
                .set_scale(pulse.body, pulse.scale_at(self.time));
        }
        let due = std::mem::take(&mut self.due);
        for shot in &due {
            self.fire(shot)?;
        }
        self.due = due;
        self.loaded.world.step(self.loaded.dt)?;
        self.stats.steps += 1;
        self.time = self.stats.steps as f64 * self.loaded.dt as f64;
        self.count_hits();
        self.expire_shots();
        self.stats.last_step_seconds = started.elapsed().as_secs_f64();
        Ok(())
    }

    /// Fires a shot from `from` towards `toward` (world points) at `speed`
    /// m/s with diameter `thickness` m; nothing happens when the two points
    /// coincide. Returns the shot's body.
    ///
    /// # Errors
    /// [`WorldError`] for non-finite input.
    pub fn shoot(
        &mut self,
        from: Vec2,
        toward: Vec2,
        speed: Real,
        thickness: Real,
    ) -> Result<Option<BodyHandle>, WorldError> {
        let offset = toward - from;
        let length = offset.norm();
        if !(length > 1e-6 && length.is_finite()) {
            return Ok(None);
        }
        let shot = Shot {
            gun: None,
            origin: from,
            velocity: offset / length * speed,
            thickness,
            pierce: 0,
            lifetime: 3.0,
        };
        self.fire(&shot).map(Some)
    }

    /// Puts one shot into the world: the hook where the world's projectiles
    /// will replace shot bodies (see the module docs). Returns its body.
    ///
    /// # Errors
    /// [`WorldError`] for a non-finite origin or velocity.
    pub fn fire(&mut self, shot: &Shot) -> Result<BodyHandle, WorldError> {
        let radius = (shot.thickness * 0.5).max(MIN_SHOT_RADIUS);
        let circle = Circle::new(Vec2::zeros(), radius).map_err(WorldError::Shape)?;
        let mut def = BodyDef::dynamic(crate::math::Pose::from_translation(shot.origin))
            .with_velocity(shot.velocity, 0.0);
        def.bullet = true;
        def.gravity_scale = 0.0;
        def.can_sleep = false;
        let world = &mut self.loaded.world;
        let body = world.add_body(def)?;
        let mut collider = ColliderDef::new(circle).with_material(Material {
            density: SHOT_DENSITY,
            friction: 0.0,
            restitution: 0.0,
        });
        collider.filter = Filter {
            groups: SHOT_GROUP,
            mask: !SHOT_GROUP,
        };
        if let Err(error) = world.add_collider(body, collider) {
            let _ = world.remove_body(body);
            return Err(error);
        }
        self.shots.insert(
            body,
            LiveShot {
                expires: self.time + shot.lifetime as f64,
                pierce_left: shot.pierce,
                hit: BTreeSet::new(),
            },
        );
        self.stats.shots += 1;
        Ok(body)
    }

    fn body_of(&self, collider: ColliderHandle) -> Option<BodyHandle> {
        self.loaded.world.collider(collider).map(|c| c.body())
    }

    /// Counts hits from the step's events and removes spent shots.
    fn count_hits(&mut self) {
        let mut spent = Vec::new();
        let events: Vec<Event> = self.loaded.world.events().to_vec();
        for event in events {
            let Event::Began(a, b) = event else { continue };
            let (Some(body_a), Some(body_b)) = (self.body_of(a), self.body_of(b)) else {
                continue;
            };
            for (shot, target, target_collider) in [(body_a, body_b, b), (body_b, body_a, a)] {
                if self.shots.contains_key(&target) {
                    continue;
                }
                let Some(live) = self.shots.get_mut(&shot) else {
                    continue;
                };
                if !live.hit.insert(target) {
                    continue;
                }
                if live.pierce_left == 0 {
                    spent.push(shot);
                } else {
                    live.pierce_left -= 1;
                }
                self.record_hit(target, target_collider);
            }
        }
        for shot in spent {
            self.shots.remove(&shot);
            let _ = self.loaded.world.remove_body(shot);
        }
    }

    fn record_hit(&mut self, target: BodyHandle, collider: ColliderHandle) {
        let name = match self.loaded.name_of(target) {
            Some(name) => name.to_string(),
            None => {
                let index = self
                    .loaded
                    .world
                    .bodies()
                    .position(|(handle, _)| handle == target)
                    .unwrap_or(usize::MAX);
                format!("#{index}")
            }
        };
        let part = self
            .loaded
            .world
            .contacts()
            .find(|c| c.collider_a == collider || c.collider_b == collider)
            .and_then(|c| {
                let first = c.manifold.points.first()?;
                if c.collider_a == collider {
                    first.part_a
                } else {
                    first.part_b
                }
            });
        self.stats.hits += 1;
        *self.stats.hits_by_body.entry(name.clone()).or_default() += 1;
        // A named collider is the part; a tree node's id where trees report one.
        let key = match (self.loaded.parts.get(&collider), part) {
            (Some(part_name), _) => format!("{name}/{part_name}"),
            (None, Some(part)) => format!("{name}/part{}", part.0),
            (None, None) => name,
        };
        *self.stats.hits_by_part.entry(key).or_default() += 1;
    }

    fn expire_shots(&mut self) {
        let time = self.time;
        let expired: Vec<BodyHandle> = self
            .shots
            .iter()
            .filter(|(_, live)| live.expires <= time)
            .map(|(body, _)| *body)
            .collect();
        for shot in expired {
            self.shots.remove(&shot);
            let _ = self.loaded.world.remove_body(shot);
        }
    }
}
