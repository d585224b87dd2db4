//! Once warm, a world step allocates nothing, and neither does a cast.
//!
//! Locks: after a ball pit has run long enough for the step's buffers to
//! reach the scene's size, further steps (broadphase, narrowphase, solver,
//! continuous collision, islands, projectile tracing with hits) make zero
//! heap allocations, as long as the caller reads events without taking the
//! buffer; so do the steps of circle-tree hulls resting on each other and
//! on a static box (tree pairs, and trees against the box's sides, whose
//! leaf contacts go through the narrowphase's one buffer), of a pile of
//! every convex kind, and of every scene in `scenes/` (simple polygons,
//! whose pieces are placed one at a time, among them), all kept awake;
//! `cast_thick`
//! and `cast_ray` make none either, through the trees, their flattened
//! copies or the shot grid, including the rebuilds of the copies and the
//! grid after steps that moved bodies (their buffers are reused). Counted by a global allocator wrapper on this test's thread.

use circlet::math::{Pose, Real, vec2};
use circlet::query::cast::Shot;
use circlet::shape::{Shape, TreeBuilder};
use circlet::world::scenes::{ball_pit, open_box};
use circlet::world::{
    BodyDef, ColliderDef, Event, ProjectileDef, QueryFilter, World, WorldSettings,
};
use std::sync::Arc;

mod alloc_count;

use alloc_count::allocations;

#[test]
fn a_warm_step_allocates_nothing() {
    let settings = WorldSettings {
        sleeping: false,
        ..WorldSettings::default()
    };
    let (mut world, _) = ball_pit(settings, 400, 0.5, 20.0).unwrap();
    let dt: Real = 1.0 / 60.0;
    let fire = |world: &mut circlet::world::World| {
        for i in 0..50 {
            let x = -9.0 + 0.36 * i as Real;
            world
                .add_projectile(ProjectileDef::new(vec2(x, 40.0), vec2(0.0, -900.0), 0.05))
                .unwrap();
        }
    };
    for step in 0..400u32 {
        if step.is_multiple_of(40) {
            fire(&mut world);
        }
        world.step(dt).unwrap();
    }
    fire(&mut world);
    let before = allocations();
    let mut hits = 0;
    for _ in 0..20 {
        world.step(dt).unwrap();
        assert!(world.is_finite());
        hits += world
            .events()
            .iter()
            .filter(|event| matches!(event, Event::ProjectileHit { .. }))
            .count();
    }
    let during = allocations() - before;
    assert!(hits >= 40, "only {hits} shots hit while counting");
    assert_eq!(during, 0, "{during} allocations in 20 warm steps");
}

#[test]
fn a_warm_step_of_trees_on_the_ground_allocates_nothing() {
    let settings = WorldSettings {
        sleeping: false,
        ..WorldSettings::default()
    };
    let mut world = World::new(settings).unwrap();
    open_box(&mut world, 10.0, 30.0).unwrap();
    // Hulls of 16 leaves in four groups, as in the peer comparison, five
    // rows of six: they rest on the floor, on the walls and on each other.
    let mut groups = Vec::new();
    for (x, r) in [(-1.05, 0.25), (-0.35, 0.3), (0.35, 0.3), (1.05, 0.25)] {
        let leaves = [(-0.2, -0.2), (0.2, -0.2), (-0.2, 0.2), (0.2, 0.2)]
            .map(|(dx, dy)| TreeBuilder::node(vec2(x + dx, dy), r));
        groups.push(TreeBuilder::node(vec2(x, 0.0), r + 0.2 * 2f32.sqrt() + 1e-4).children(leaves));
    }
    let hull = TreeBuilder::node(vec2(0.0, 0.0), 1.65)
        .children(groups)
        .build()
        .unwrap()
        .0;
    let hull = Arc::new(hull);
    for i in 0..30 {
        let (column, row) = (i % 6, i / 6);
        let x = -8.0 + 3.2 * column as Real + 0.05 * (i % 3) as Real;
        let pose = Pose::new(
            vec2(x, 0.6 + 1.2 * row as Real),
            0.05 * ((i % 5) as Real - 2.0),
        );
        let body = world.add_body(BodyDef::dynamic(pose)).unwrap();
        world
            .add_collider(body, ColliderDef::new(Shape::Tree(hull.clone())))
            .unwrap();
    }
    let dt: Real = 1.0 / 60.0;
    for _ in 0..300 {
        world.step(dt).unwrap();
    }
    let before = allocations();
    for _ in 0..20 {
        world.step(dt).unwrap();
        assert!(world.is_finite());
    }
    let during = allocations() - before;
    let on_the_box = world
        .contacts()
        .filter(|c| c.manifold.points.iter().any(|p| p.depth >= 0.0))
        .filter(|c| {
            let shape = |h| world.collider(h).unwrap().shape();
            !matches!(shape(c.collider_a), Shape::Tree(_))
                || !matches!(shape(c.collider_b), Shape::Tree(_))
        })
        .count();
    assert!(
        world.contact_count() >= 25 && on_the_box >= 4,
        "the hulls rest on each other and on the box: {} contacts, {on_the_box} on the box",
        world.contact_count()
    );
    assert_eq!(during, 0, "{during} allocations in 20 warm steps");
}

#[test]
fn warm_casts_allocate_nothing() {
    let settings = WorldSettings {
        sleeping: false,
        ..WorldSettings::default()
    };
    let (mut world, _) = ball_pit(settings, 300, 0.5, 20.0).unwrap();
    let dt: Real = 1.0 / 60.0;
    let shots: Vec<Shot> = (0..600)
        .map(|i| {
            let x = -12.0 + 0.04 * i as Real;
            let angle = i as Real * 0.37;
            let start = vec2(x, 2.0 + (i % 17) as Real);
            Shot::new(start, start + vec2(angle.cos(), angle.sin()) * 30.0, 0.05).unwrap()
        })
        .collect();
    let filter = QueryFilter::default();
    // Each round: a step that moves bodies, then enough casts for the trees
    // to flatten and the grid to be built; the first rounds size the buffers.
    let round = |world: &mut circlet::world::World| {
        world.step(dt).unwrap();
        let mut hits = 0;
        for shot in &shots {
            hits += usize::from(world.cast_thick(shot, &filter).unwrap().is_some());
            let ray = world.cast_ray(shot.start(), shot.delta(), &filter).unwrap();
            hits += usize::from(ray.is_some());
        }
        hits
    };
    for _ in 0..60 {
        round(&mut world);
    }
    let before = allocations();
    let mut hits = 0;
    for _ in 0..3 {
        hits += round(&mut world);
    }
    let during = allocations() - before;
    assert!(hits > 1_000, "only {hits} hits");
    assert_eq!(during, 0, "{during} allocations in 3 rounds of warm casts");
}

/// Steps `world` awake (sleeping off) for `warm` steps, then counts the
/// allocations of 20 more.
fn allocations_once_warm(world: &mut World, warm: usize) -> usize {
    let settings = WorldSettings {
        sleeping: false,
        ..*world.settings()
    };
    world.set_settings(settings).unwrap();
    let dt: Real = 1.0 / 60.0;
    for _ in 0..warm {
        world.step(dt).unwrap();
    }
    let before = allocations();
    for _ in 0..20 {
        world.step(dt).unwrap();
    }
    allocations() - before
}

#[test]
fn a_warm_step_of_a_mixed_pile_allocates_nothing() {
    // Discs, boxes, capsules, hexagons and two-disc bodies against each
    // other, the box and a ramp.
    let (mut world, _) = circlet::world::scenes::mixed_pile(WorldSettings::default(), 300).unwrap();
    let during = allocations_once_warm(&mut world, 400);
    assert!(
        world.contact_count() > 300,
        "{} contacts",
        world.contact_count()
    );
    assert_eq!(during, 0, "{during} allocations in 20 warm steps");
}

#[test]
fn a_warm_step_of_every_shipped_scene_allocates_nothing() {
    // Simple polygons, tile maps, trees and every other shape the scenes
    // in `scenes/` use, kept awake.
    let mut names: Vec<_> = std::fs::read_dir("scenes")
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "ron"))
        .collect();
    names.sort();
    assert!(names.len() >= 8, "{names:?}");
    let mut contacts = 0;
    for path in &names {
        let mut world = circlet::scene::Scene::load(path).unwrap().world;
        let during = allocations_once_warm(&mut world, 600);
        contacts += world.contact_count();
        assert_eq!(
            during,
            0,
            "{}: {during} allocations in 20 warm steps",
            path.display()
        );
    }
    assert!(contacts > 500, "only {contacts} contacts in all the scenes");
}
