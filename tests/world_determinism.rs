//! Determinism, snapshots and bad input.
//!
//! Locks:
//! - two runs of a 1,000-body scene (mixed shapes, dumbbells, a ramp, and
//!   projectiles fired into it) for 600 steps give identical state hashes;
//! - a snapshot taken at step 300 and restored (into the same world, and
//!   into another world) continues to the same hash at step 600;
//! - with the `serde` feature: the snapshot serialized to JSON, read back,
//!   restored into a fresh world and run to step 600 gives the same hash
//!   after every step, while projectiles fired after the restore are in
//!   flight too; so does one written just after projectiles were removed
//!   by hand;
//! - the hash covers projectiles;
//! - bad input (NaN/inf in every setter, zero or negative density, removing
//!   a body twice, a handle of another world, bad queries) gives a typed
//!   error or `None`, never a panic, and leaves the world unchanged;
//! - `world.is_finite()` after every step of these runs.

use circlet::math::{Pose, Real, Vec2, vec2};
use circlet::query::cast::Shot;
use circlet::shape::{Aabb, Circle, Line};
use circlet::world::scenes::mixed_pile;
use circlet::world::{
    BodyDef, ColliderDef, Material, ProjectileDef, QueryFilter, World, WorldError, WorldSettings,
};

const DT: Real = 1.0 / 60.0;
const BODIES: usize = 1_000;

fn scene() -> World {
    mixed_pile(WorldSettings::default(), BODIES).unwrap().0
}

/// Steps from the world's current step to `until`, firing a fan of shots
/// into the pile every 20 steps, checking for NaN after every step.
fn run(world: &mut World, until: u64) {
    while world.step_count() < until {
        let step = world.step_count();
        if step.is_multiple_of(20) {
            for i in 0..10 {
                let angle = -0.3 - 0.05 * i as Real;
                let mut def = ProjectileDef::new(
                    vec2(-30.0, 40.0),
                    vec2(angle.cos(), angle.sin()) * 400.0,
                    0.02,
                )
                .with_pierce((i % 3) as u32)
                .with_ricochets((i % 2) as u32, 0.6);
                def.mass = 0.2;
                world.add_projectile(def).unwrap();
            }
        }
        world.step(DT).unwrap();
        assert!(world.is_finite(), "NaN at step {}", world.step_count());
    }
}

#[test]
fn runs_snapshots_and_restores_are_bit_identical() {
    let mut first = scene();
    run(&mut first, 300);
    let snapshot = first.snapshot();
    let in_flight = first.projectile_count();
    run(&mut first, 600);
    let straight = first.state_hash();

    let mut second = scene();
    run(&mut second, 600);
    assert_eq!(second.state_hash(), straight, "two runs differ");

    first.restore(&snapshot);
    assert_eq!(first.step_count(), 300);
    assert_eq!(first.projectile_count(), in_flight);
    run(&mut first, 600);
    assert_eq!(first.state_hash(), straight, "restore into the same world");

    let mut replica = World::new(WorldSettings::default()).unwrap();
    replica.restore(&snapshot);
    run(&mut replica, 600);
    assert_eq!(replica.state_hash(), straight, "restore into another world");
    // Handles of the replica work in the replica.
    let (body, _) = replica.bodies().next().unwrap();
    assert!(replica.body(body).is_some());
    assert!(first.body(body).is_none(), "a handle of another world");
}

#[cfg(feature = "serde")]
#[test]
fn a_serialized_snapshot_continues_bit_identically() {
    let mut world = scene();
    run(&mut world, 300);
    let json = serde_json::to_string(&world.snapshot()).unwrap();

    let snapshot: circlet::world::Snapshot = serde_json::from_str(&json).unwrap();
    assert_eq!(snapshot.step_count(), 300);
    let mut restored = World::new(WorldSettings::default()).unwrap();
    restored.restore(&snapshot);
    // Step by step, projectiles in flight or not: the projectiles fired
    // after the restore take other slots than in the original (the map's
    // free list is rebuilt when read back), and are still stepped alike.
    for step in 301..=600 {
        run(&mut world, step);
        run(&mut restored, step);
        assert_eq!(restored.state_hash(), world.state_hash(), "step {step}");
    }

    // Tampered data is refused, not restored.
    let tampered = json.replacen("\"scale\":1.0", "\"scale\":-1.0", 1);
    assert_ne!(tampered, json);
    assert!(serde_json::from_str::<circlet::world::Snapshot>(&tampered).is_err());
    // So is an order of the projectiles that leaves one out or names one twice.
    let mut value: serde_json::Value = serde_json::from_str(&json).unwrap();
    let order = value["projectile_order"].as_array().unwrap().clone();
    assert!(order.len() >= 2, "projectiles were in flight at step 300");
    for bad in [
        &order[1..],
        &[&order[..1], &order[..order.len() - 1]].concat()[..],
    ] {
        value["projectile_order"] = serde_json::Value::Array(bad.to_vec());
        let tampered = serde_json::to_string(&value).unwrap();
        assert!(serde_json::from_str::<circlet::world::Snapshot>(&tampered).is_err());
    }
}

/// Projectiles removed by hand just before the snapshot leave their keys
/// in the world's order for a while; the written snapshot names only those
/// in flight, reads back, and continues as the original does.
#[cfg(feature = "serde")]
#[test]
fn a_snapshot_written_after_removals_reads_back_and_continues() {
    let mut world = scene();
    run(&mut world, 300);
    // Eight more, climbing in empty space above the pile.
    for i in 0..8 {
        let def = ProjectileDef::new(vec2(i as Real, 300.0), vec2(0.0, 5.0), 0.02);
        world.add_projectile(def).unwrap();
    }
    let in_flight: Vec<_> = world.projectiles().map(|(h, _)| h).collect();
    assert!(in_flight.len() >= 8);
    for &shot in in_flight.iter().step_by(2) {
        world.remove_projectile(shot).unwrap();
    }
    let json = serde_json::to_string(&world.snapshot()).unwrap();
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    let order = value["projectile_order"].as_array().unwrap();
    assert_eq!(order.len(), world.projectile_count());
    let snapshot: circlet::world::Snapshot = serde_json::from_str(&json).unwrap();
    let mut restored = World::new(WorldSettings::default()).unwrap();
    restored.restore(&snapshot);
    assert_eq!(restored.state_hash(), world.state_hash());
    for step in 301..=400 {
        run(&mut world, step);
        run(&mut restored, step);
        assert_eq!(restored.state_hash(), world.state_hash(), "step {step}");
    }
}

#[test]
fn the_hash_covers_projectiles() {
    let mut a = World::new(WorldSettings::default()).unwrap();
    let b = a.clone();
    a.add_projectile(ProjectileDef::new(vec2(0.0, 0.0), vec2(1.0, 0.0), 0.1))
        .unwrap();
    assert_ne!(a.state_hash(), b.state_hash());
}

#[test]
fn bad_input_gives_typed_errors_and_changes_nothing() {
    let mut world = scene();
    run(&mut world, 5);
    let (body, _) = world.bodies().nth(10).unwrap();
    let collider = world.body(body).unwrap().colliders()[0];
    let before = world.state_hash();
    let nan = Real::NAN;
    let inf = Real::INFINITY;
    for bad in [nan, inf, -inf] {
        assert!(matches!(
            world.set_velocity(body, vec2(bad, 0.0), 0.0),
            Err(WorldError::NonFinite { .. })
        ));
        assert!(world.set_velocity(body, Vec2::zeros(), bad).is_err());
        assert!(
            world
                .set_pose(body, Pose::from_translation(vec2(0.0, bad)))
                .is_err()
        );
        assert!(world.set_pose(body, Pose::new(Vec2::zeros(), bad)).is_err());
        assert!(world.set_scale(body, bad).is_err());
        assert!(world.apply_force(body, vec2(bad, 1.0)).is_err());
        assert!(world.apply_torque(body, bad).is_err());
        assert!(
            world
                .apply_impulse(body, vec2(1.0, bad), Vec2::zeros())
                .is_err()
        );
        assert!(
            world
                .apply_impulse(body, vec2(1.0, 0.0), vec2(bad, 0.0))
                .is_err()
        );
        assert!(world.step(bad).is_err());
        let mut def = BodyDef::dynamic(Pose::IDENTITY);
        def.gravity_scale = bad;
        assert!(world.add_body(def).is_err());
        let mut def = BodyDef::dynamic(Pose::IDENTITY);
        def.linear_damping = bad;
        assert!(world.add_body(def).is_err());
        assert!(
            world
                .add_body(BodyDef::dynamic(Pose::IDENTITY).with_velocity(vec2(bad, 0.0), 0.0))
                .is_err()
        );
        let material = Material {
            friction: bad,
            ..Material::default()
        };
        let disc = ColliderDef::new(Circle::new(Vec2::zeros(), 1.0).unwrap());
        assert!(
            world
                .add_collider(body, disc.clone().with_material(material))
                .is_err()
        );
        assert!(
            world
                .add_collider(body, disc.at(Pose::from_translation(vec2(bad, 0.0))))
                .is_err()
        );
        let settings = WorldSettings {
            gravity: vec2(0.0, bad),
            ..WorldSettings::default()
        };
        assert!(world.set_settings(settings).is_err());
        assert!(World::new(settings).is_err());
        assert!(
            world
                .cast_ray(vec2(bad, 0.0), vec2(1.0, 0.0), &QueryFilter::default())
                .is_err()
        );
        assert!(
            world
                .cast_ray(Vec2::zeros(), vec2(bad, 0.0), &QueryFilter::default())
                .is_err()
        );
        assert!(
            world
                .overlap_point(vec2(bad, 0.0), &QueryFilter::default())
                .is_err()
        );
        let aabb = Aabb {
            min: vec2(bad, 0.0),
            max: vec2(1.0, 1.0),
        };
        assert!(world.overlap_aabb(&aabb, &QueryFilter::default()).is_err());
        assert!(Shot::new(Vec2::zeros(), vec2(bad, 0.0), 0.1).is_err());
    }
    for density in [0.0, -1.0] {
        let def =
            ColliderDef::new(Circle::new(Vec2::zeros(), 1.0).unwrap()).with_material(Material {
                density,
                ..Material::default()
            });
        assert!(matches!(
            world.add_collider(body, def),
            Err(WorldError::OutOfRange {
                field: "density",
                ..
            })
        ));
    }
    assert!(world.set_scale(body, 0.0).is_err());
    assert!(world.set_scale(body, -2.0).is_err());
    assert!(world.step(0.0).is_err() && world.step(-DT).is_err());
    let line = ColliderDef::new(Line::new(Vec2::zeros(), vec2(1.0, 0.0)).unwrap());
    assert_eq!(
        world.add_collider(body, line),
        Err(WorldError::UnsupportedShape("line"))
    );
    assert_eq!(
        world.state_hash(),
        before,
        "a refused call changed the world"
    );

    // Removing twice, and using what was removed.
    world.remove_collider(collider).unwrap();
    assert_eq!(
        world.remove_collider(collider),
        Err(WorldError::StaleCollider)
    );
    world.remove_body(body).unwrap();
    assert_eq!(world.remove_body(body), Err(WorldError::StaleBody));
    assert!(world.body(body).is_none() && world.collider(collider).is_none());
    assert_eq!(
        world.set_velocity(body, Vec2::zeros(), 0.0),
        Err(WorldError::StaleBody)
    );
    assert_eq!(
        world.set_pose(body, Pose::IDENTITY),
        Err(WorldError::StaleBody)
    );
    assert_eq!(
        world.add_collider(
            body,
            ColliderDef::new(Circle::new(Vec2::zeros(), 1.0).unwrap())
        ),
        Err(WorldError::StaleBody)
    );
    // A handle of another world, even one whose slot exists here.
    let mut other = scene();
    let (foreign, _) = other.bodies().nth(10).unwrap();
    assert!(world.body(foreign).is_none());
    assert_eq!(world.remove_body(foreign), Err(WorldError::StaleBody));
    assert_eq!(
        world.apply_force(foreign, vec2(1.0, 0.0)),
        Err(WorldError::StaleBody)
    );
    let foreign_collider = other.body(foreign).unwrap().colliders()[0];
    assert!(world.collider(foreign_collider).is_none());
    assert!(world.collider_pose(foreign_collider).is_none());
    assert_eq!(
        world.remove_collider(foreign_collider),
        Err(WorldError::StaleCollider)
    );
    other.remove_body(foreign).unwrap();
    // Events that name removed bodies stay readable, and the world steps on.
    run(&mut world, 60);
    assert!(world.is_finite());
}
