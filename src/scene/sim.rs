//! [`Simulation`]: a loaded scene running: guns firing, shots flying, hits
//! counted, one fixed time step at a time. The window, the command line,
//! the examples and the tests all drive scenes through it.
//!
//! Shots: [`Simulation::fire`] is the one place that puts a [`Shot`] into the
//! world, as a world projectile (a disc of half the shot's thickness, traced
//! with continuous collision every step; see [`crate::world::ProjectileDef`]).
//! Shots fly straight (no gravity), never hit each other nor their gun's
//! mount, pass through `pierce` bodies and stop in the next one, and carry
//! the momentum of a disc of their size of density [`SHOT_DENSITY`]. The
//! world removes them when they stop or their lifetime ends: a simulation
//! adds no body for a shot.
//!
//! Hits: every [`Event::ProjectileHit`] of a step is one hit, counted by
//! body, by part (the circle-tree part hit, or the named collider) and by
//! gun. The path each shot took during the last step is kept as straight
//! [`Trace`]s, from where it was to each hit and on to where it is.
//!
//! Determinism: guns fire on the simulation clock (`steps × dt`), projectiles
//! are traced and reported in handle order, and nothing here reads the wall
//! clock except the step timing in [`SimStats::last_step_seconds`], which no
//! decision uses.

use super::build::LoadedScene;
use super::guns::Shot;
use crate::math::{Real, Vec2};
use crate::shape::{PartId, Shape};
use crate::world::{
    BodyHandle, ColliderHandle, Event, Projectile, ProjectileDef, ProjectileHandle, WorldError,
};
use std::collections::BTreeMap;

/// Density of shots (kg/m²): a shot carries the momentum of a disc of its
/// radius this dense; light, so a hit nudges rather than blasts.
pub const SHOT_DENSITY: Real = 2.0;

/// Smallest radius used for a shot's mass (m): a ray (thickness 0) still
/// carries momentum.
pub const MIN_SHOT_RADIUS: Real = 0.02;

/// Lifetime of a shot fired with [`Simulation::shoot`] (s).
pub const USER_SHOT_LIFETIME: Real = 3.0;

/// Name under which shots fired with [`Simulation::shoot`] (or added to the
/// world directly) are counted in [`SimStats::hits_by_gun`].
pub const USER_GUN: &str = "user";

/// Counters of a running simulation.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SimStats {
    /// Steps taken.
    pub steps: u64,
    /// Shots fired (guns and [`Simulation::shoot`]).
    pub shots: u64,
    /// Hits: projectile hits reported by the world (a shot passing through a
    /// body, bouncing off it or stopping in it).
    pub hits: u64,
    /// Hits by body name (unnamed bodies as `#index`, in world order).
    pub hits_by_body: BTreeMap<String, u64>,
    /// Hits by `body/part`, the part being the circle-tree part hit, else
    /// the name of the collider hit (as `body/collider/part` when both are
    /// named), and by body name alone for hits on nothing named.
    pub hits_by_part: BTreeMap<String, u64>,
    /// Hits by the gun that fired the shot (its name, else `#index` in the
    /// scene's list; [`USER_GUN`] for other shots).
    pub hits_by_gun: BTreeMap<String, u64>,
    /// Wall-clock time of the last step (s).
    pub last_step_seconds: f64,
}

/// One straight piece of a shot's path during the last step (world, m).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Trace {
    /// The shot.
    pub projectile: ProjectileHandle,
    /// Where the shot's centre was at the start of the piece.
    pub from: Vec2,
    /// Where it was at the end: a hit, or its position after the step.
    pub to: Vec2,
    /// The shot's radius (m): half its thickness.
    pub radius: Real,
    /// True when the piece ends in a hit.
    pub hit: bool,
}

/// A projectile in flight at the start of a step.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Start {
    projectile: ProjectileHandle,
    position: Vec2,
    radius: Real,
    /// Its user data: which gun fired it (see [`Simulation::fire`]).
    gun: u64,
}

/// A scene running at its fixed time step.
#[derive(Clone, Debug)]
pub struct Simulation {
    loaded: LoadedScene,
    time: f64,
    stats: SimStats,
    due: Vec<Shot>,
    starts: Vec<Start>,
    /// Hit centres of the last step: (shot, centre of the shot at the hit).
    hit_centres: Vec<(ProjectileHandle, Vec2)>,
    traces: Vec<Trace>,
}

impl Simulation {
    /// A simulation at time 0.
    pub fn new(loaded: LoadedScene) -> Simulation {
        Simulation {
            loaded,
            time: 0.0,
            stats: SimStats::default(),
            due: Vec::new(),
            starts: Vec::new(),
            hit_centres: Vec::new(),
            traces: Vec::new(),
        }
    }

    /// The world.
    pub fn world(&self) -> &crate::world::World {
        &self.loaded.world
    }

    /// The world, to change it between steps.
    pub fn world_mut(&mut self) -> &mut crate::world::World {
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

    /// The shots in flight (the world's projectiles), in handle order.
    pub fn shots(&self) -> impl Iterator<Item = (ProjectileHandle, &Projectile)> {
        self.loaded.world.projectiles()
    }

    /// Number of shots in flight.
    pub fn shots_in_flight(&self) -> usize {
        self.loaded.world.projectile_count()
    }

    /// The paths of the shots during the last step, shot by shot in handle
    /// order, each shot's pieces in order of time.
    pub fn traces(&self) -> &[Trace] {
        &self.traces
    }

    /// One step: guns fire what is due, the world steps by `dt` (tracing
    /// every shot), hits are counted and the shots' paths kept.
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
        self.starts.clear();
        self.starts.extend(
            self.loaded
                .world
                .projectiles()
                .map(|(projectile, p)| Start {
                    projectile,
                    position: p.position(),
                    radius: p.radius(),
                    gun: p.user_data(),
                }),
        );
        // Sorted by handle, to find a shot of an event by binary search.
        self.starts.sort_unstable_by_key(|s| s.projectile);
        self.loaded.world.step(self.loaded.dt)?;
        self.stats.steps += 1;
        self.time = self.stats.steps as f64 * self.loaded.dt as f64;
        self.count_hits();
        self.trace_paths();
        self.stats.last_step_seconds = started.elapsed().as_secs_f64();
        Ok(())
    }

    /// Fires a shot from `from` towards `toward` (world points) at `speed`
    /// m/s with diameter `thickness` m, living [`USER_SHOT_LIFETIME`] s;
    /// nothing happens when the two points coincide. Returns the projectile.
    ///
    /// # Errors
    /// [`WorldError`] for non-finite input or a negative thickness.
    pub fn shoot(
        &mut self,
        from: Vec2,
        toward: Vec2,
        speed: Real,
        thickness: Real,
    ) -> Result<Option<ProjectileHandle>, WorldError> {
        self.user_shot(from, toward, speed, thickness, None)
    }

    /// Fires a shot like [`Simulation::shoot`] from the muzzle of the
    /// scene's gun number `gun`, never hitting the gun's mount; nothing
    /// happens when there is no such gun or its mount is gone. The shot is
    /// the user's, not the gun's: the gun's own sequence is untouched.
    ///
    /// # Errors
    /// As [`Simulation::shoot`].
    pub fn shoot_from_gun(
        &mut self,
        gun: usize,
        toward: Vec2,
        speed: Real,
        thickness: Real,
    ) -> Result<Option<ProjectileHandle>, WorldError> {
        let Some(gun) = self.loaded.guns.get(gun) else {
            return Ok(None);
        };
        let (Some(from), owner) = (gun.muzzle(&self.loaded.world), gun.mount) else {
            return Ok(None);
        };
        self.user_shot(from, toward, speed, thickness, owner)
    }

    fn user_shot(
        &mut self,
        from: Vec2,
        toward: Vec2,
        speed: Real,
        thickness: Real,
        owner: Option<BodyHandle>,
    ) -> Result<Option<ProjectileHandle>, WorldError> {
        let offset = toward - from;
        let length = offset.norm();
        if !(length > super::guns::MIN_AIM_LENGTH && length.is_finite()) {
            return Ok(None);
        }
        let shot = Shot {
            gun: None,
            origin: from,
            velocity: offset / length * speed,
            thickness,
            pierce: 0,
            lifetime: USER_SHOT_LIFETIME,
            owner,
        };
        self.fire(&shot).map(Some)
    }

    /// Puts one shot into the world as a projectile (see the module docs);
    /// it is first traced in the next step.
    ///
    /// # Errors
    /// [`WorldError`] for a non-finite or out-of-range origin, velocity,
    /// thickness or lifetime.
    pub fn fire(&mut self, shot: &Shot) -> Result<ProjectileHandle, WorldError> {
        let radius = shot.thickness * 0.5;
        // Mass of a disc of the shot's radius: m = ρ π r².
        let mass_radius = radius.max(MIN_SHOT_RADIUS);
        let mut def = ProjectileDef::new(shot.origin, shot.velocity, radius)
            .with_pierce(shot.pierce)
            .with_gravity_scale(0.0)
            .with_lifetime(shot.lifetime);
        def.mass = SHOT_DENSITY * std::f32::consts::PI * mass_radius * mass_radius;
        // 0 marks a shot of no gun; gun i is i + 1.
        def.user_data = shot.gun.map_or(0, |gun| gun as u64 + 1);
        if let Some(owner) = shot.owner {
            def = def.with_owner(owner);
        }
        let projectile = self.loaded.world.add_projectile(def)?;
        self.stats.shots += 1;
        Ok(projectile)
    }

    /// Counts the step's projectile hits and notes where each shot was when
    /// it hit. A shot that stopped is gone from the world by now, so what
    /// it was (radius, gun) is read from the step's starts.
    fn count_hits(&mut self) {
        self.hit_centres.clear();
        for event in self.loaded.world.events() {
            let Event::ProjectileHit {
                projectile,
                body,
                collider,
                part,
                point,
                normal,
                ..
            } = *event
            else {
                continue;
            };
            let start = self
                .starts
                .binary_search_by_key(&projectile, |s| s.projectile)
                .ok()
                .map(|i| self.starts[i]);
            let (radius, gun) = start.map_or((0.0, 0), |s| (s.radius, s.gun));
            // The event's point is on the body's surface, the shot's centre
            // one radius out along the normal.
            self.hit_centres.push((projectile, point + normal * radius));
            record_hit(&self.loaded, &mut self.stats, body, collider, part);
            let gun = gun_label(&self.loaded, gun);
            *self.stats.hits_by_gun.entry(gun).or_default() += 1;
        }
        // By shot, each shot's hits kept in order of time (a stable sort).
        self.hit_centres.sort_by_key(|(projectile, _)| *projectile);
    }

    /// The pieces of every shot's path during the last step.
    fn trace_paths(&mut self) {
        self.traces.clear();
        // Both lists are sorted by shot: one merged pass.
        let mut hits = self.hit_centres.iter().peekable();
        for start in &self.starts {
            let mut from = start.position;
            while hits.next_if(|(p, _)| *p < start.projectile).is_some() {}
            while let Some(&(projectile, centre)) = hits.next_if(|(p, _)| *p == start.projectile) {
                self.traces.push(Trace {
                    projectile,
                    from,
                    to: centre,
                    radius: start.radius,
                    hit: true,
                });
                from = centre;
            }
            if let Some(p) = self.loaded.world.projectile(start.projectile) {
                self.traces.push(Trace {
                    projectile: start.projectile,
                    from,
                    to: p.position(),
                    radius: start.radius,
                    hit: false,
                });
            }
        }
    }
}

/// The name a gun is counted under, from a shot's user data (gun index + 1).
fn gun_label(loaded: &LoadedScene, tag: u64) -> String {
    let index = tag.checked_sub(1).and_then(|i| usize::try_from(i).ok());
    match index.map(|i| (i, loaded.guns.get(i))) {
        Some((_, Some(gun))) if gun.name.is_some() => gun.name.clone().unwrap_or_default(),
        Some((i, Some(_))) => format!("#{i}"),
        _ => USER_GUN.to_string(),
    }
}

/// The name a body is counted under: its name, else `#index` in world order.
fn body_label(loaded: &LoadedScene, body: BodyHandle) -> String {
    match loaded.name_of(body) {
        Some(name) => name.to_string(),
        None => {
            let index = loaded
                .world
                .bodies()
                .position(|(handle, _)| handle == body)
                .unwrap_or(usize::MAX);
            format!("#{index}")
        }
    }
}

/// Adds one hit on `body` (its `collider`, circle-tree `part`) to `stats`.
fn record_hit(
    loaded: &LoadedScene,
    stats: &mut SimStats,
    body: BodyHandle,
    collider: ColliderHandle,
    part: Option<PartId>,
) {
    let name = body_label(loaded, body);
    let tree_part = part.map(|part| {
        let named = loaded
            .world
            .collider(collider)
            .and_then(|c| match c.shape() {
                Shape::Tree(tree) => tree.part_name(part).map(str::to_string),
                _ => None,
            });
        named.unwrap_or_else(|| format!("part{}", part.0))
    });
    let key = match (loaded.parts.get(&collider), tree_part) {
        (Some(collider), Some(part)) => format!("{name}/{collider}/{part}"),
        (Some(collider), None) => format!("{name}/{collider}"),
        (None, Some(part)) => format!("{name}/{part}"),
        (None, None) => name.clone(),
    };
    stats.hits += 1;
    *stats.hits_by_part.entry(key).or_default() += 1;
    *stats.hits_by_body.entry(name).or_default() += 1;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;
    use crate::scene::Scene;
    use crate::world::HitOutcome;

    /// Three thin plates at x = 3, 6, 9 and a fourth at 12, a gun at the
    /// origin firing along +x at 600 m/s (10 m per step) with `pierce`.
    fn range(pierce: u32) -> Simulation {
        let plate = |name: &str, x: f32| {
            format!(
                "(name: \"{name}\", kind: Static, position: ({x}, 0), \
                 shape: Box(half_extents: (0.02, 1)))"
            )
        };
        let text = format!(
            "(settings: (gravity: (0, 0), dt: 0.016666668),
              bodies: [{}, {}, {}, {}],
              guns: [(name: \"gun\", position: (0, 0), aim: Angle(0), rate: 0.5,
                      speed: 600, thickness: 0.1, pierce: {pierce})])",
            plate("a", 3.0),
            plate("b", 6.0),
            plate("c", 9.0),
            plate("d", 12.0),
        );
        Simulation::new(Scene::from_str(&text, "range.ron").unwrap())
    }

    /// (body name, outcome) of every projectile hit of the last step.
    fn hits(sim: &Simulation) -> Vec<(String, HitOutcome)> {
        sim.world()
            .events()
            .iter()
            .filter_map(|event| match *event {
                Event::ProjectileHit { body, outcome, .. } => {
                    Some((sim.scene().name_of(body)?.to_string(), outcome))
                }
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_gun_with_pierce_2_passes_two_bodies_in_order_and_stops_in_the_third() {
        let mut sim = range(2);
        let bodies = sim.world().body_count();
        sim.step().unwrap();
        assert_eq!(sim.stats().shots, 1);
        assert_eq!(
            hits(&sim),
            [
                ("a".to_string(), HitOutcome::Pierced),
                ("b".to_string(), HitOutcome::Pierced),
                ("c".to_string(), HitOutcome::Stopped),
            ]
        );
        assert_eq!(sim.shots_in_flight(), 0, "the shot stopped in c");
        assert_eq!(sim.world().body_count(), bodies, "no body for a shot");
        let stats = sim.stats();
        assert_eq!(stats.hits, 3);
        assert_eq!(stats.hits_by_body.get("d"), None);
        assert_eq!(stats.hits_by_gun.get("gun"), Some(&3));
        // The path: muzzle → a → b → c, each piece ending in a hit, its
        // width the shot's.
        let traces = sim.traces();
        assert_eq!(traces.len(), 3, "{traces:?}");
        assert_eq!(traces[0].from, vec2(0.0, 0.0));
        for (trace, plate_x) in traces.iter().zip([3.0, 6.0, 9.0]) {
            assert!(trace.hit);
            assert_eq!(trace.radius, 0.05);
            // The shot's centre one radius before the plate's face.
            assert!(
                (trace.to.x - (plate_x - 0.02 - 0.05)).abs() < 1e-3,
                "{trace:?}"
            );
        }
        assert_eq!(traces[1].from, traces[0].to);
        assert_eq!(traces[2].from, traces[1].to);
        // Nothing more until the next shot is due (2 s).
        sim.step().unwrap();
        assert!(hits(&sim).is_empty() && sim.traces().is_empty());
    }

    #[test]
    fn without_pierce_the_first_body_stops_the_shot() {
        let mut sim = range(0);
        sim.step().unwrap();
        assert_eq!(hits(&sim), [("a".to_string(), HitOutcome::Stopped)]);
        assert_eq!(sim.stats().hits_by_part.get("a"), Some(&1));
    }

    #[test]
    fn a_mounted_gun_turns_with_its_mount_and_never_hits_it() {
        // The gun sits at the mount's local (0.5, 0), inside the mount, aimed
        // along the mount's +x; the mount is turned a quarter, so the gun
        // fires along world +y, from (0, 0.5), through the mount.
        let text = |mount: &str| {
            format!(
                "(settings: (gravity: (0, 0)),
                  bodies: [
                    (name: \"turret\", kind: Kinematic, angle: 1.5707964,
                     shape: Circle(radius: 1)),
                    (name: \"roof\", kind: Static, position: (0, 5),
                     shape: Box(half_extents: (3, 0.1))),
                  ],
                  guns: [(position: (0.5, 0), aim: Angle(0), {mount} rate: 1, speed: 100)])"
            )
        };
        let mut mounted =
            Simulation::new(Scene::from_str(&text("mount: Some(\"turret\"),"), "m.ron").unwrap());
        let muzzle = mounted.scene().guns[0].muzzle(mounted.world()).unwrap();
        assert!((muzzle - vec2(0.0, 0.5)).norm() < 1e-5, "{muzzle:?}");
        let pointing = mounted.scene().guns[0].pointing(mounted.world()).unwrap();
        assert!((pointing - vec2(0.0, 1.0)).norm() < 1e-5, "{pointing:?}");
        for _ in 0..10 {
            mounted.step().unwrap();
        }
        assert_eq!(mounted.stats().hits_by_body.get("turret"), None);
        assert_eq!(mounted.stats().hits_by_body.get("roof"), Some(&1));
        assert_eq!(mounted.stats().hits_by_gun.get("#0"), Some(&1));
        // The same gun fixed in the world at (0.5, 0) fires along +x from
        // inside the turret, which stops it.
        let mut loose = Simulation::new(Scene::from_str(&text(""), "l.ron").unwrap());
        loose.step().unwrap();
        assert_eq!(hits(&loose), [("turret".to_string(), HitOutcome::Stopped)]);
        // A shot from the user through the gun is the user's, owned alike.
        let from_gun = mounted
            .shoot_from_gun(0, vec2(0.0, 10.0), 100.0, 0.1)
            .unwrap();
        assert!(from_gun.is_some());
        for _ in 0..10 {
            mounted.step().unwrap();
        }
        assert_eq!(mounted.stats().hits_by_gun.get(USER_GUN), Some(&1));
        assert_eq!(mounted.stats().hits_by_body.get("turret"), None);
        assert_eq!(
            mounted.shoot_from_gun(7, vec2(0.0, 10.0), 100.0, 0.1),
            Ok(None)
        );
    }

    #[test]
    fn a_gun_whose_mount_is_gone_stops_firing() {
        let text = "(settings: (gravity: (0, 0)),
            bodies: [(name: \"ship\", shape: Circle(radius: 1))],
            guns: [(position: (0, 0), aim: Angle(0), mount: Some(\"ship\"), rate: 10, speed: 50)])";
        let mut sim = Simulation::new(Scene::from_str(text, "gone.ron").unwrap());
        sim.step().unwrap();
        assert_eq!(sim.stats().shots, 1);
        let ship = sim.scene().names["ship"];
        sim.world_mut().remove_body(ship).unwrap();
        for _ in 0..30 {
            sim.step().unwrap();
        }
        assert_eq!(sim.stats().shots, 1);
        assert_eq!(sim.scene().guns[0].muzzle(sim.world()), None);
    }
}
