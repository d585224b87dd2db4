//! Tree pairs in the world: the narrowphase's cached answers are the fresh
//! ones. Locks:
//! - in a pile of circle-tree bodies (hulls of 16 leaves in two levels,
//!   some rescaled, some given a child collider at an offset) in a static
//!   box, after every one of 400 steps, the manifold the world holds for
//!   each pair of tree colliders, and of a tree collider and a side of the
//!   box, equals, bit for bit, `contact_with_margin` of the two shapes
//!   at the poses the step started from, with the speculative margin; and a
//!   pair the world holds no manifold for has none either. Teleports
//!   (`set_pose`), rescaling (`set_scale`) and a removed body happen on the
//!   way, and a snapshot is restored halfway;
//! - so the candidate caches and the passing-over of quiet pairs (which
//!   skip work while the trees move little) change no contact;
//! - a tower of 36 such hulls resting flat on each other comes to rest
//!   within 600 steps and sleeps: no hull strays sideways by 5 cm, the top
//!   one sinks by less than 30 cm (36 soft contacts under load). With tree
//!   manifolds of four points along one normal it never rested and rocked
//!   itself over (6 m of sway).

use circlet::math::{Pose, Real, vec2};
use circlet::query::{Manifold, contact_with_margin};
use circlet::shape::{CircleTree, Shape, TreeBuilder};
use circlet::world::scenes::open_box;
use circlet::world::{
    BodyDef, BodyHandle, ColliderDef, ColliderHandle, SPECULATIVE_DISTANCE, World, WorldSettings,
};
use std::collections::BTreeMap;
use std::sync::Arc;

const DT: Real = 1.0 / 60.0;

/// The peer comparison's hull: 16 leaves in four groups of four.
fn hull() -> CircleTree {
    let mut groups = Vec::new();
    for (x, r) in [(-1.05, 0.25), (-0.35, 0.3), (0.35, 0.3), (1.05, 0.25)] {
        let leaves = [(-0.2, -0.2), (0.2, -0.2), (-0.2, 0.2), (0.2, 0.2)]
            .map(|(dx, dy)| TreeBuilder::node(vec2(x + dx, dy), r));
        groups.push(TreeBuilder::node(vec2(x, 0.0), r + 0.2 * 2f32.sqrt() + 1e-4).children(leaves));
    }
    TreeBuilder::node(vec2(0.0, 0.0), 1.65)
        .children(groups)
        .build()
        .unwrap()
        .0
}

fn pile() -> (World, Vec<BodyHandle>) {
    let mut world = World::new(WorldSettings::default()).unwrap();
    open_box(&mut world, 8.0, 40.0).unwrap();
    let tree = Arc::new(hull());
    let mut bodies = Vec::new();
    for i in 0..48 {
        let (column, row) = (i % 4, i / 4);
        let x = -5.25 + 3.5 * column as Real + 0.03 * (i % 7) as Real;
        let y = 1.0 + 1.6 * row as Real;
        let pose = Pose::new(vec2(x, y), 0.1 * ((i % 5) as Real - 2.0));
        let body = world.add_body(BodyDef::dynamic(pose)).unwrap();
        let mut collider = ColliderDef::new(Shape::Tree(tree.clone()));
        if i % 6 == 5 {
            // A tree off the body origin, turned and scaled in the body.
            collider.local_pose = Pose::new(vec2(0.1, -0.05), 0.2).with_scale(0.8);
        }
        world.add_collider(body, collider).unwrap();
        if i % 9 == 4 {
            world.set_scale(body, 0.7).unwrap();
        }
        bodies.push(body);
    }
    (world, bodies)
}

type Pair = (ColliderHandle, ColliderHandle);

/// Every pair of tree colliders with a manifold at the given poses.
fn fresh(
    world: &World,
    poses: &BTreeMap<ColliderHandle, (Shape, Pose)>,
) -> BTreeMap<Pair, Manifold> {
    let mut out = BTreeMap::new();
    for (&a, (shape_a, pose_a)) in poses {
        for (&b, (shape_b, pose_b)) in poses.range(a..).skip(1) {
            let same_body = world.collider(a).unwrap().body() == world.collider(b).unwrap().body();
            if same_body || !(is_tree(shape_a) || is_tree(shape_b)) {
                continue;
            }
            if let Some(m) =
                contact_with_margin(shape_a, pose_a, shape_b, pose_b, SPECULATIVE_DISTANCE)
            {
                out.insert((a, b), m);
            }
        }
    }
    out
}

fn is_tree(shape: &Shape) -> bool {
    matches!(shape, Shape::Tree(_))
}

/// Steps once and checks the manifolds of the pairs with a tree (against
/// another tree or the box) against fresh queries at the poses the step
/// started from.
fn step_and_check(world: &mut World, step: usize) {
    let poses: BTreeMap<ColliderHandle, (Shape, Pose)> = world
        .colliders()
        .map(|(h, c)| (h, (c.shape().clone(), world.collider_pose(h).unwrap())))
        .collect();
    world.step(DT).unwrap();
    let held: BTreeMap<Pair, Manifold> = world
        .contacts()
        .filter(|c| is_tree(&poses[&c.collider_a].0) || is_tree(&poses[&c.collider_b].0))
        .map(|c| ((c.collider_a, c.collider_b), c.manifold.clone()))
        .collect();
    let expected = fresh(world, &poses);
    assert_eq!(held.len(), expected.len(), "step {step}: pair counts");
    for (pair, manifold) in &expected {
        assert_eq!(held.get(pair), Some(manifold), "step {step}: {pair:?}");
    }
}

#[test]
fn cached_tree_contacts_are_the_fresh_ones() {
    let (mut world, bodies) = pile();
    let mut snapshot = None;
    for step in 0..400 {
        match step {
            150 => {
                // A teleport into the pile and a turn.
                let pose = world.body(bodies[3]).unwrap().pose();
                world
                    .set_pose(bodies[3], Pose::new(pose.translation + vec2(0.4, 0.3), 1.0))
                    .unwrap();
            }
            200 => snapshot = Some(world.snapshot()),
            220 => world.set_scale(bodies[17], 1.2).unwrap(),
            260 => world.remove_body(bodies[20]).unwrap(),
            300 => world.restore(snapshot.as_ref().unwrap()),
            _ => {}
        }
        step_and_check(&mut world, step);
    }
    assert!(world.contacts().count() > 40, "the pile touches");
    let on_the_box = world
        .contacts()
        .filter(|c| !is_tree(world.collider(c.collider_a).unwrap().shape()))
        .count();
    assert!(on_the_box >= 4, "only {on_the_box} hulls touch the box");
}

#[test]
fn a_tower_of_tree_hulls_stands() {
    let mut world = World::new(WorldSettings::default()).unwrap();
    open_box(&mut world, 8.0, 40.0).unwrap();
    let tree = Arc::new(hull());
    // Hull leaves reach 0.5 m above and below the body origin: each hull
    // rests on the middle leaves of the one below, and the lowest starts
    // 2 cm above the floor.
    let start: Vec<Pose> = (0..36)
        .map(|i| Pose::from_translation(vec2(0.0, 0.52 + i as Real)))
        .collect();
    let bodies: Vec<BodyHandle> = start
        .iter()
        .map(|&pose| {
            let body = world.add_body(BodyDef::dynamic(pose)).unwrap();
            world
                .add_collider(body, ColliderDef::new(Shape::Tree(tree.clone())))
                .unwrap();
            body
        })
        .collect();
    let mut sway: Real = 0.0;
    for _ in 0..600 {
        world.step(DT).unwrap();
        for (body, pose) in bodies.iter().zip(&start) {
            let x = world.body(*body).unwrap().pose().translation.x;
            sway = sway.max((x - pose.translation.x).abs());
        }
    }
    let top = world.body(bodies[35]).unwrap().pose().translation.y;
    let sink = start[35].translation.y - top;
    let awake = bodies
        .iter()
        .filter(|b| world.body(**b).unwrap().is_awake())
        .count();
    assert_eq!(awake, 0, "the tower never came to rest");
    assert!(sway < 0.05, "a hull strayed {sway} m sideways");
    // Soft contacts give a little under load: about 6 mm each at the foot.
    assert!(sink < 0.3, "the top sank {sink} m");
}
