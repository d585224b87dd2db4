//! The rapier2d side: a [`PhysicsWorld`] built from a [`SceneDef`], with
//! rapier's default integration parameters (4 solver iterations) and no CCD,
//! both its defaults. One default can be turned off for a second view
//! ([`set_contact_recycling`]): contact recycling, under which a pair whose
//! relative pose drifted less than 0.05 m since its last full update keeps
//! its old contact points instead of being collided again.

use crate::engine::{CastKind, Engine};
use crate::scenes::{SHOT_LENGTH, SHOT_RADIUS, SceneDef, ShapeDef, ShotDef};
use rapier2d::parry::query::ShapeCastOptions;
use rapier2d::parry::shape::Ball;
use rapier2d::prelude::{
    ColliderBuilder, MassProperties, PhysicsWorld, Pose, Ray, RigidBodyBuilder, RigidBodyHandle,
    SharedShape, Vector,
};
use std::cell::Cell;

thread_local! {
    /// Whether the worlds this thread builds next recycle contacts
    /// (rapier2d's default, on). Per thread, so that tests running side by
    /// side do not see each other's choice; the comparison builds every
    /// world on its main thread.
    static CONTACT_RECYCLING: Cell<bool> = const { Cell::new(true) };
}

/// Builds this thread's next worlds with rapier2d's contact recycling on
/// (its default) or off, so that every awake pair is collided afresh each
/// step, as circlet collides them.
pub fn set_contact_recycling(on: bool) {
    CONTACT_RECYCLING.set(on);
}

/// Whether this thread's next worlds recycle contacts.
pub fn contact_recycling() -> bool {
    CONTACT_RECYCLING.get()
}

/// The stages of rapier2d's own step profile, in the order
/// [`Rapier::stages_ms`] gives them (its `StagesCounters`).
#[cfg(feature = "rapier-profiler")]
pub const STAGE_NAMES: [&str; 7] = [
    "update",
    "collisions",
    "islands",
    "graph",
    "solver",
    "ccd",
    "user",
];

/// rapier2d running one scene.
pub struct Rapier {
    world: PhysicsWorld,
    dynamic: Vec<RigidBodyHandle>,
}

fn v(p: [f32; 2]) -> Vector {
    Vector::new(p[0], p[1])
}

fn shape(def: &ShapeDef) -> SharedShape {
    match def {
        ShapeDef::Circle(r) => SharedShape::ball(*r),
        ShapeDef::Box(h) => SharedShape::cuboid(h[0], h[1]),
        ShapeDef::Balls { balls, .. } => SharedShape::compound(
            balls
                .iter()
                .map(|b| {
                    (
                        Pose::from_translation(v(b.offset)),
                        SharedShape::ball(b.radius),
                    )
                })
                .collect(),
        ),
    }
}

#[cfg(feature = "rapier-profiler")]
impl Rapier {
    /// Turns rapier2d's stage timers on for the steps that follow.
    pub fn enable_profile(&mut self) {
        self.world.physics_pipeline.counters.enable();
    }

    /// The last step's whole time and the time of each of its stages
    /// ([`STAGE_NAMES`]), in ms, as rapier2d's timers measured them.
    pub fn stages_ms(&self) -> (f64, [f64; 7]) {
        let counters = &self.world.physics_pipeline.counters;
        let s = &counters.stages;
        (
            counters.step_time_ms(),
            [
                s.update_time.time_ms(),
                s.collision_detection_time.time_ms(),
                s.island_construction_time.time_ms(),
                s.island_constraints_collection_time.time_ms(),
                s.solver_time.time_ms(),
                s.ccd_time.time_ms(),
                s.user_changes.time_ms(),
            ],
        )
    }
}

impl Engine for Rapier {
    const NAME: &'static str = "rapier2d";

    fn build(scene: &SceneDef) -> Rapier {
        let mut world = PhysicsWorld::new();
        world.gravity = v(scene.gravity);
        world.integration_parameters.dt = scene.dt;
        world.integration_parameters.contact_recycling = contact_recycling();
        // Each shape is built once and shared (a SharedShape is reference counted).
        let shapes: Vec<SharedShape> = scene.shapes.iter().map(shape).collect();
        let mut dynamic = Vec::with_capacity(scene.dynamic_count());
        for body in &scene.bodies {
            let builder = if body.dynamic {
                RigidBodyBuilder::dynamic().can_sleep(scene.sleeping)
            } else {
                RigidBodyBuilder::fixed()
            };
            let rigid = builder.translation(v(body.pos)).rotation(body.angle);
            let mut collider = ColliderBuilder::new(shapes[body.shape].clone())
                .friction(scene.friction)
                .restitution(scene.restitution)
                .density(scene.density);
            if let ShapeDef::Balls { mass, .. } = &scene.shapes[body.shape] {
                // The union's mass, as circlet computes it: rapier's compound
                // would count the balls' overlaps twice.
                collider = collider.mass_properties(MassProperties::new(
                    v(mass.centroid),
                    mass.area * scene.density,
                    mass.inertia * scene.density,
                ));
            }
            let (handle, _) = world.insert(rigid, collider);
            if body.dynamic {
                dynamic.push(handle);
            }
        }
        Rapier { world, dynamic }
    }

    fn prepare_queries(&mut self) {
        // rapier's scene queries read the broad phase, filled by a step or here.
        self.world.detect_collisions(&(), &());
    }

    fn step(&mut self) {
        self.world.step();
    }

    fn positions(&self) -> Vec<[f32; 2]> {
        self.dynamic
            .iter()
            .map(|&h| {
                let t = self.world.bodies[h].translation();
                [t.x, t.y]
            })
            .collect()
    }

    fn body_count(&self) -> usize {
        self.world.bodies.len()
    }

    fn awake_count(&self) -> usize {
        self.dynamic
            .iter()
            .filter(|&&h| !self.world.bodies[h].is_sleeping())
            .count()
    }

    fn cast_kinds() -> &'static [CastKind] {
        &[CastKind::Ray, CastKind::RayNormal, CastKind::ShapeCast]
    }

    fn cast(&self, shots: &[ShotDef], kind: CastKind, out: &mut Vec<Option<f32>>) {
        let pipeline = self.world.query_pipeline();
        let ball = Ball::new(SHOT_RADIUS);
        let options = ShapeCastOptions::with_max_time_of_impact(1.0);
        out.clear();
        out.extend(shots.iter().map(|s| {
            let (origin, dir) = (v(s.origin), v(s.dir));
            match kind {
                // `dir` is a unit vector: the time of impact is a distance.
                CastKind::Ray => pipeline
                    .cast_ray(&Ray::new(origin, dir), SHOT_LENGTH, true)
                    .map(|(_, toi)| toi / SHOT_LENGTH),
                CastKind::RayNormal => pipeline
                    .cast_ray_and_get_normal(&Ray::new(origin, dir), SHOT_LENGTH, true)
                    .map(|(_, hit)| hit.time_of_impact / SHOT_LENGTH),
                // The velocity covers the segment in unit time: the time of
                // impact is the fraction.
                CastKind::ShapeCast => pipeline
                    .cast_shape(
                        &Pose::from_translation(origin),
                        dir * SHOT_LENGTH,
                        &ball,
                        options,
                    )
                    .map(|(_, hit)| hit.time_of_impact),
                CastKind::Thick => panic!("rapier2d offers no {kind:?} cast"),
            }
        }));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenes;

    #[test]
    fn contact_recycling_follows_the_switch() {
        let scene = scenes::ball_pit(10, true, 1);
        assert!(
            Rapier::build(&scene)
                .world
                .integration_parameters
                .contact_recycling
        );
        set_contact_recycling(false);
        let off = Rapier::build(&scene);
        set_contact_recycling(true);
        assert!(!off.world.integration_parameters.contact_recycling);
        assert!(
            Rapier::build(&scene)
                .world
                .integration_parameters
                .contact_recycling
        );
    }

    #[cfg(feature = "rapier-profiler")]
    #[test]
    fn stage_timers_add_up_to_at_most_the_step() {
        let mut engine = Rapier::build(&scenes::ball_pit(200, true, 1));
        let (total, stages) = engine.stages_ms();
        assert_eq!((total, stages), (0.0, [0.0; 7]), "off until enabled");
        engine.enable_profile();
        for _ in 0..30 {
            engine.step();
            let (total, stages) = engine.stages_ms();
            assert!(total > 0.0, "the step is timed");
            assert!(stages.iter().all(|&s| s >= 0.0));
            // The stages run one after the other within the step.
            assert!(stages.iter().sum::<f64>() <= total * 1.0001 + 1e-6);
            assert!(stages[1] > 0.0 && stages[4] > 0.0, "collisions and solver");
        }
    }
}
