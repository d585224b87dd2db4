//! The world's first contracts.
//!
//! Locks:
//! - a ball dropped on the ground comes to rest on it (no sinking, no bounce);
//! - a circle-tree body (a `Shape::Tree` collider) dropped on the ground comes
//!   to rest on its lowest leaves, with the mass of its leaf union;
//! - a small box stack stands;
//! - two identical runs give identical `state_hash`es;
//! - snapshot at step 100, restore, continue: identical hash at step 200;
//! - bad input (NaN in setters, zero density, removed or foreign handles) is
//!   a typed error and leaves the world unchanged; no NaN after any step;
//! - rescaling a body at run time rescales its mass by s²;
//! - damping divides a damped body's velocity and spin by `1 + h·damping`
//!   every substep, bit for bit, and leaves an undamped one's exactly as is.

use circlet::math::{Pose, vec2};
use circlet::shape::{Aabb, Circle, CircleTree, ConvexPolygon, Shape};
use circlet::world::{
    BodyDef, BodyHandle, ColliderDef, Material, World, WorldError, WorldSettings,
};

const DT: f32 = 1.0 / 60.0;

fn ground(world: &mut World) -> BodyHandle {
    let ground = world.add_body(BodyDef::fixed(Pose::IDENTITY)).unwrap();
    world
        .add_collider(
            ground,
            ColliderDef::new(Aabb::new(vec2(-50.0, -1.0), vec2(50.0, 0.0)).unwrap()),
        )
        .unwrap();
    ground
}

fn stack(count: usize) -> (World, Vec<BodyHandle>) {
    let mut world = World::new(WorldSettings::default()).unwrap();
    ground(&mut world);
    let boxes = (0..count)
        .map(|i| {
            let body = world
                .add_body(BodyDef::dynamic(Pose::from_translation(vec2(
                    0.0,
                    0.5 + i as f32 * 1.0,
                ))))
                .unwrap();
            world
                .add_collider(
                    body,
                    ColliderDef::new(
                        ConvexPolygon::rectangle(vec2(-0.5, -0.5), vec2(0.5, 0.5)).unwrap(),
                    ),
                )
                .unwrap();
            body
        })
        .collect();
    (world, boxes)
}

#[test]
fn ball_comes_to_rest_on_the_ground() {
    let mut world = World::new(WorldSettings::default()).unwrap();
    ground(&mut world);
    let ball = world
        .add_body(BodyDef::dynamic(Pose::from_translation(vec2(0.0, 3.0))))
        .unwrap();
    world
        .add_collider(
            ball,
            ColliderDef::new(Circle::new(vec2(0.0, 0.0), 0.5).unwrap()),
        )
        .unwrap();
    for _ in 0..240 {
        world.step(DT).unwrap();
        assert!(world.is_finite());
    }
    let body = world.body(ball).unwrap();
    let y = body.pose().translation.y;
    assert!((y - 0.5).abs() < 0.01, "ball rests at y = {y}");
    assert!(body.linear_velocity().norm() < 0.05);
}

#[test]
fn circle_tree_body_comes_to_rest_on_the_ground() {
    let mut world = World::new(WorldSettings::default()).unwrap();
    ground(&mut world);
    // A dumbbell: two discs of radius 0.4 joined by a smaller one.
    let leaves = [
        Circle::new(vec2(-1.0, 0.0), 0.4).unwrap(),
        Circle::new(vec2(0.0, 0.0), 0.2).unwrap(),
        Circle::new(vec2(1.0, 0.0), 0.4).unwrap(),
    ];
    let tree = CircleTree::from_leaves(&leaves, 2).unwrap();
    let mass = Shape::from(tree.clone()).mass_properties();
    assert!((mass.area - tree.leaf_union_mass_properties().area).abs() < 1e-6);
    let body = world
        .add_body(BodyDef::dynamic(Pose::new(vec2(0.0, 2.0), 0.3)))
        .unwrap();
    world.add_collider(body, ColliderDef::new(tree)).unwrap();
    for _ in 0..300 {
        world.step(DT).unwrap();
        assert!(world.is_finite());
    }
    let body = world.body(body).unwrap();
    let pose = body.pose();
    // Both end discs on the ground: level, centres 0.4 up.
    assert!(
        (pose.translation.y - 0.4).abs() < 0.02,
        "rests at {:?}",
        pose
    );
    assert!(pose.angle().sin().abs() < 0.02, "tilted: {}", pose.angle());
    assert!(body.linear_velocity().norm() < 0.05);
}

#[test]
fn a_stack_of_five_boxes_stands() {
    let (mut world, boxes) = stack(5);
    for _ in 0..300 {
        world.step(DT).unwrap();
    }
    for (i, b) in boxes.iter().enumerate() {
        let p = world.body(*b).unwrap().pose().translation;
        assert!(p.x.abs() < 0.05, "box {i} slid to x = {}", p.x);
        assert!(
            (p.y - (0.5 + i as f32)).abs() < 0.05,
            "box {i} at y = {}",
            p.y
        );
    }
}

#[test]
fn identical_runs_hash_identically_and_restore_continues_identically() {
    let run = || {
        let (mut world, _) = stack(8);
        for _ in 0..200 {
            world.step(DT).unwrap();
        }
        world.state_hash()
    };
    assert_eq!(run(), run());

    let (mut world, _) = stack(8);
    for _ in 0..100 {
        world.step(DT).unwrap();
    }
    let snapshot = world.snapshot();
    for _ in 0..100 {
        world.step(DT).unwrap();
    }
    let straight = world.state_hash();
    world.restore(&snapshot);
    for _ in 0..100 {
        world.step(DT).unwrap();
    }
    assert_eq!(world.state_hash(), straight);
}

#[test]
fn bad_input_is_refused_and_changes_nothing() {
    let (mut world, boxes) = stack(1);
    let b = boxes[0];
    let before = world.state_hash();
    assert!(matches!(
        world.set_velocity(b, vec2(f32::NAN, 0.0), 0.0),
        Err(WorldError::NonFinite {
            field: "linear_velocity"
        })
    ));
    assert!(world.set_pose(b, Pose::IDENTITY.with_scale(0.0)).is_err());
    assert!(world.set_scale(b, f32::INFINITY).is_err());
    assert!(world.apply_force(b, vec2(0.0, f32::INFINITY)).is_err());
    assert!(
        world
            .apply_impulse(b, vec2(1.0, 0.0), vec2(f32::NAN, 0.0))
            .is_err()
    );
    assert!(world.step(0.0).is_err());
    assert!(world.step(f32::NAN).is_err());
    let zero_density =
        ColliderDef::new(Circle::new(vec2(0.0, 0.0), 1.0).unwrap()).with_material(Material {
            density: 0.0,
            ..Material::default()
        });
    assert!(matches!(
        world.add_collider(b, zero_density),
        Err(WorldError::OutOfRange {
            field: "density",
            ..
        })
    ));
    assert_eq!(world.state_hash(), before);

    world.remove_body(b).unwrap();
    assert_eq!(world.remove_body(b), Err(WorldError::StaleBody));
    assert!(world.body(b).is_none());
    assert_eq!(
        world.set_velocity(b, vec2(1.0, 0.0), 0.0),
        Err(WorldError::StaleBody)
    );

    let (other, other_boxes) = stack(1);
    let foreign = other_boxes[0];
    assert!(
        world.body(foreign).is_none(),
        "a handle of another world is refused"
    );
    drop(other);
}

#[test]
fn rescaling_at_run_time_rescales_mass() {
    let (mut world, boxes) = stack(1);
    let b = boxes[0];
    let mass = world.body(b).unwrap().mass();
    assert!((mass - 1.0).abs() < 1e-5);
    world.set_scale(b, 2.0).unwrap();
    assert!((world.body(b).unwrap().mass() - 4.0).abs() < 1e-4);
    let inertia = world.body(b).unwrap().inertia();
    assert!(
        (inertia - 16.0 / 6.0).abs() < 1e-3,
        "I = m (w² + h²) / 12 = 4 · 8 / 12, got {inertia}"
    );
}

/// Two free bodies without gravity: one damped (linear and angular), one
/// not. Each substep divides the damped one's velocity by `1 + h·d` (the
/// same f32 operations, so bit for bit); the other keeps its velocity and
/// spin exactly.
#[test]
fn damping_divides_each_substep_and_spares_undamped_bodies() {
    let settings = WorldSettings {
        gravity: vec2(0.0, 0.0),
        sleeping: false,
        ..WorldSettings::default()
    };
    let substeps = settings.substeps;
    let mut world = World::new(settings).unwrap();
    let mut add = |x: f32, linear_damping: f32, angular_damping: f32| {
        let body = world
            .add_body(BodyDef {
                linear_velocity: vec2(3.0, -1.5),
                angular_velocity: 2.0,
                linear_damping,
                angular_damping,
                ..BodyDef::dynamic(Pose::from_translation(vec2(x, 0.0)))
            })
            .unwrap();
        world
            .add_collider(
                body,
                ColliderDef::new(Circle::new(vec2(0.0, 0.0), 0.5).unwrap()),
            )
            .unwrap();
        body
    };
    let damped = add(0.0, 0.5, 0.8);
    let free = add(100.0, 0.0, 0.0);
    let h = DT / substeps as f32;
    let (mut v, mut w) = (vec2(3.0f32, -1.5), 2.0f32);
    for _ in 0..10 {
        world.step(DT).unwrap();
        for _ in 0..substeps {
            v /= 1.0 + h * 0.5;
            w /= 1.0 + h * 0.8;
        }
        let d = world.body(damped).unwrap();
        assert_eq!(d.linear_velocity(), v);
        assert_eq!(d.angular_velocity(), w);
        let f = world.body(free).unwrap();
        assert_eq!(f.linear_velocity(), vec2(3.0, -1.5));
        assert_eq!(f.angular_velocity(), 2.0);
    }
    assert!(
        v.norm() < 3.3 && w < 1.9,
        "the damped body slowed: {v:?} {w}"
    );
}
