//! The write-back passes over the proxies of bodies whose motion stays
//! within the room it measured (`world/proxy_keep.rs`); this file checks,
//! through the public queries, that no proxy is left behind by that.
//!
//! Locks:
//! - after every step of a random world (discs on and off the centre of
//!   mass, boxes, capsules and circle trees, some bodies with two
//!   colliders, spinning and sliding in a walled pit, falling asleep and
//!   waking), and through teleports, rescales, velocity kicks, colliders
//!   added to moving bodies (up to 4 m out) and removed from them between
//!   steps, every
//!   collider's shape is found by `overlap_aabb` at each of the four sides
//!   of its world box: its proxy's stored box holds the shape;
//! - in a test build, every pass-over is also checked against the
//!   broadphase's own decision (a debug assertion in the write-back).

use circlet::math::{Pose, Real, Vec2, vec2};
use circlet::shape::{Aabb, Capsule, Circle, ConvexPolygon, Shape, TreeBuilder};
use circlet::world::scenes::add_static_box;
use circlet::world::{BodyDef, BodyHandle, ColliderDef, ColliderHandle, QueryFilter, World};
use proptest::prelude::*;

const DT: Real = 1.0 / 60.0;
const STEPS: usize = 150;

/// One of the shapes a body may carry, by number.
fn shape(kind: u8, size: Real) -> Shape {
    match kind % 5 {
        0 => Circle::new(Vec2::zeros(), size).unwrap().into(),
        1 => Circle::new(vec2(0.3 * size, -0.2 * size), 0.6 * size)
            .unwrap()
            .into(),
        2 => ConvexPolygon::rectangle(vec2(-size, -0.5 * size), vec2(size, 0.5 * size))
            .unwrap()
            .into(),
        3 => Capsule::new(vec2(-size, 0.0), vec2(size, 0.0), 0.3 * size)
            .unwrap()
            .into(),
        _ => {
            let leaf = |x: Real, y: Real| TreeBuilder::node(vec2(x, y), 0.4 * size);
            let (tree, _) = TreeBuilder::node(Vec2::zeros(), 2.0 * size)
                .child(leaf(-0.8 * size, 0.0))
                .child(leaf(0.8 * size, 0.3 * size))
                .child(leaf(0.0, -0.9 * size))
                .build()
                .unwrap();
            tree.into()
        }
    }
}

#[derive(Clone, Debug)]
struct BodySpec {
    kind: u8,
    second: Option<u8>,
    size: Real,
    at: (Real, Real),
    angle: Real,
    velocity: (Real, Real),
    spin: Real,
}

fn body_spec() -> impl Strategy<Value = BodySpec> {
    (
        0u8..5,
        prop::option::of(0u8..5),
        0.2 as Real..1.0,
        (-8.0 as Real..8.0, 1.0 as Real..12.0),
        -3.0 as Real..3.0,
        (-20.0 as Real..20.0, -20.0 as Real..20.0),
        -20.0 as Real..20.0,
    )
        .prop_map(|(kind, second, size, at, angle, velocity, spin)| BodySpec {
            kind,
            second,
            size,
            at,
            angle,
            velocity,
            spin,
        })
}

/// An edit made between two steps, to a body picked by number.
#[derive(Clone, Debug)]
enum Edit {
    Teleport(usize, Real, Real),
    Rescale(usize, Real),
    Kick(usize, Real, Real),
    AddCollider(usize, u8, Real, Real),
    RemoveCollider(usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<usize>(), -8.0 as Real..8.0, 1.0 as Real..10.0)
            .prop_map(|(b, x, y)| Edit::Teleport(b, x, y)),
        (any::<usize>(), 0.5 as Real..2.0).prop_map(|(b, s)| Edit::Rescale(b, s)),
        (any::<usize>(), -30.0 as Real..30.0, -30.0 as Real..30.0)
            .prop_map(|(b, x, y)| Edit::Kick(b, x, y)),
        (any::<usize>(), 0u8..5, -4.0 as Real..4.0, -4.0 as Real..4.0)
            .prop_map(|(b, k, x, y)| Edit::AddCollider(b, k, x, y)),
        any::<usize>().prop_map(Edit::RemoveCollider),
    ]
}

/// Every collider's shape is found at each side of its world box.
fn every_shape_is_found(world: &World, colliders: &[ColliderHandle], step: usize) {
    for &handle in colliders {
        let Some(collider) = world.collider(handle) else {
            continue;
        };
        let pose = world.collider_pose(handle).unwrap();
        let aabb = collider.shape().world_aabb(&pose);
        // Thin strips along each side, reaching a little past it.
        let (lo, hi) = (aabb.min, aabb.max);
        let (thin, past) = (0.01, 0.001);
        let strips = [
            (vec2(lo.x - past, lo.y), vec2(lo.x + thin, hi.y)),
            (vec2(hi.x - thin, lo.y), vec2(hi.x + past, hi.y)),
            (vec2(lo.x, lo.y - past), vec2(hi.x, lo.y + thin)),
            (vec2(lo.x, hi.y - thin), vec2(hi.x, hi.y + past)),
        ];
        for (side, (min, max)) in strips.into_iter().enumerate() {
            let strip = Aabb::new(min, max).unwrap();
            let found = world.overlap_aabb(&strip, &QueryFilter::default()).unwrap();
            assert!(
                found.iter().any(|o| o.collider == handle),
                "step {step}: collider {handle:?} not found at side {side} of {aabb:?}"
            );
        }
    }
}

fn run(specs: &[BodySpec], edits: &[Edit]) {
    let mut world = World::new(Default::default()).unwrap();
    add_static_box(&mut world, vec2(-12.0, -1.0), vec2(12.0, 0.0)).unwrap();
    add_static_box(&mut world, vec2(-13.0, 0.0), vec2(-12.0, 30.0)).unwrap();
    add_static_box(&mut world, vec2(12.0, 0.0), vec2(13.0, 30.0)).unwrap();
    let mut bodies: Vec<(BodyHandle, Real)> = Vec::new();
    let mut colliders = Vec::new();
    for spec in specs {
        let def = BodyDef::dynamic(Pose::new(vec2(spec.at.0, spec.at.1), spec.angle))
            .with_velocity(vec2(spec.velocity.0, spec.velocity.1), spec.spin);
        let body = world.add_body(def).unwrap();
        colliders.push(
            world
                .add_collider(body, ColliderDef::new(shape(spec.kind, spec.size)))
                .unwrap(),
        );
        if let Some(kind) = spec.second {
            let local = Pose::new(vec2(spec.size, 0.5 * spec.size), 0.4);
            let def = ColliderDef::new(shape(kind, 0.5 * spec.size)).at(local);
            colliders.push(world.add_collider(body, def).unwrap());
        }
        bodies.push((body, spec.size));
    }
    let mut edits = edits.iter();
    for step in 1..=STEPS {
        world.step(DT).unwrap();
        every_shape_is_found(&world, &colliders, step);
        if step % 15 != 0 {
            continue;
        }
        let Some(edit) = edits.next() else {
            continue;
        };
        let pick = |i: usize| bodies[i % bodies.len()];
        match *edit {
            Edit::Teleport(b, x, y) => {
                let (body, _) = pick(b);
                let angle = world.body(body).unwrap().angle();
                world.set_pose(body, Pose::new(vec2(x, y), angle)).unwrap();
            }
            Edit::Rescale(b, scale) => world.set_scale(pick(b).0, scale).unwrap(),
            Edit::Kick(b, x, y) => world.set_velocity(pick(b).0, vec2(x, y), 5.0).unwrap(),
            Edit::AddCollider(b, kind, x, y) => {
                // Far out on some bodies: it swings more than the others
                // for the same turn.
                let (body, size) = pick(b);
                let def = ColliderDef::new(shape(kind, 0.4 * size)).at(Pose::new(vec2(x, y), 1.0));
                colliders.push(world.add_collider(body, def).unwrap());
            }
            Edit::RemoveCollider(b) => {
                let (body, _) = pick(b);
                let held = world.body(body).unwrap().colliders().to_vec();
                if held.len() > 1 {
                    world.remove_collider(held[0]).unwrap();
                }
            }
        }
        every_shape_is_found(&world, &colliders, step);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn proxies_hold_their_shapes_after_every_step(
        specs in prop::collection::vec(body_spec(), 2..10),
        edits in prop::collection::vec(edit(), 0..10),
    ) {
        run(&specs, &edits);
    }
}

/// A settled pile of discs: nearly every step passes over every proxy,
/// and every shape is still found.
#[test]
fn a_resting_pile_keeps_its_proxies_over_its_shapes() {
    let specs: Vec<BodySpec> = (0..40)
        .map(|i| BodySpec {
            kind: 0,
            second: None,
            size: 0.5,
            at: (-9.0 + 1.1 * (i % 16) as Real, 0.6 + 1.1 * (i / 16) as Real),
            angle: 0.0,
            velocity: (0.0, 0.0),
            spin: 0.0,
        })
        .collect();
    run(&specs, &[]);
}

/// A collider added far out on a body at rest, which then turns slowly:
/// the new collider swings much farther than the body's first one, whose
/// room the body's keep was measured for, and its proxy follows it.
#[test]
fn a_collider_added_far_out_is_followed() {
    let mut world = World::new(circlet::world::WorldSettings {
        gravity: Vec2::zeros(),
        ..Default::default()
    })
    .unwrap();
    let body = world.add_body(BodyDef::dynamic(Pose::IDENTITY)).unwrap();
    let mut colliders = vec![
        world
            .add_collider(body, ColliderDef::new(shape(0, 0.5)))
            .unwrap(),
    ];
    for step in 1..=5 {
        world.step(DT).unwrap();
        every_shape_is_found(&world, &colliders, step);
    }
    let far = ColliderDef::new(shape(2, 0.3)).at(Pose::from_translation(vec2(4.0, 0.0)));
    colliders.push(world.add_collider(body, far).unwrap());
    world.set_velocity(body, Vec2::zeros(), 0.6).unwrap();
    for step in 6..=60 {
        world.step(DT).unwrap();
        every_shape_is_found(&world, &colliders, step);
    }
}
