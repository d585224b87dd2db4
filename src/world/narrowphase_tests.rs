//! Tests of the narrowphase's passing over pairs: a world that passes over
//! its sleeping pairs, and its quiet ones, steps exactly as a copy that
//! visits every pair; and a world that keeps its contacts' solver colours
//! and lanes from step to step (laying the lanes out afresh when they have
//! scattered) steps exactly as one that rebuilds them at every step, no
//! two contacts of a colour sharing a dynamic body.

use crate::math::{Pose, Real, vec2};
use crate::shape::{Circle, TreeBuilder};
use crate::world::scenes::{mixed_pile, settle};
use crate::world::{BodyDef, ColliderDef, Event, World, WorldSettings};

const DT: Real = 1.0 / 60.0;

/// Steps `world` and a copy of it (which has no rest marks and a fresh
/// collider table, so it visits every pair) and checks they agree; returns
/// how many pairs the world found at rest before the step, and its pairs.
fn step_against_a_copy(world: &mut World, step: usize) -> (usize, usize) {
    let resting = world.contacts.resting(world.scratch.colliders_now.epoch());
    let mut copy = world.clone();
    world.step(DT).unwrap();
    copy.step(DT).unwrap();
    assert_eq!(world.state_hash(), copy.state_hash(), "step {step}");
    assert_eq!(world.events(), copy.events(), "step {step}");
    (resting, world.contacts.len())
}

#[test]
fn pairs_at_rest_are_passed_over_with_the_same_results_as_a_visit() {
    let (mut world, bodies) = mixed_pile(WorldSettings::default(), 60).unwrap();
    // Two circle trees among them, so tree pairs (with their quiet
    // thresholds and leaf-pair caches) come to rest too.
    let (tree, _) = TreeBuilder::node(vec2(0.0, 0.0), 1.0)
        .child(TreeBuilder::node(vec2(-0.5, 0.0), 0.5))
        .child(TreeBuilder::node(vec2(0.5, 0.0), 0.5))
        .build()
        .unwrap();
    for x in [-1.2, 1.2] {
        let body = world
            .add_body(BodyDef::dynamic(Pose::from_translation(vec2(x, 20.0))))
            .unwrap();
        world
            .add_collider(body, ColliderDef::new(tree.clone()))
            .unwrap();
    }
    assert!(
        settle(&mut world, DT, 4_000).unwrap() < 4_000,
        "the pile sleeps"
    );
    let ramp = crate::world::scenes::mixed_pile_ramp(&world);
    let (mut all_at_rest, mut some_at_rest, mut woke) = (0, 0, 0);
    for step in 0..700 {
        match step {
            // A ball dropped onto the sleeping pile wakes part of it.
            20 => {
                let ball = world
                    .add_body(BodyDef::dynamic(Pose::from_translation(vec2(0.3, 30.0))))
                    .unwrap();
                let disc = Circle::new(vec2(0.0, 0.0), 0.4).unwrap();
                world.add_collider(ball, ColliderDef::new(disc)).unwrap();
            }
            // A sleeping body woken by a setter, then by an impulse.
            250 => world.set_velocity(bodies[10], vec2(0.0, 2.0), 1.0).unwrap(),
            400 => world
                .apply_impulse(bodies[30], vec2(1.0, 0.0), vec2(0.0, 0.0))
                .unwrap(),
            // A static body moved under sleepers, and a sleeper removed.
            650 => {
                let pose = world.body(ramp).unwrap().pose();
                let moved = Pose::new(pose.translation + vec2(0.05, -0.02), 0.0);
                world.set_pose(ramp, moved).unwrap();
            }
            600 => world.remove_body(bodies[20]).unwrap(),
            _ => {}
        }
        let (resting, pairs) = step_against_a_copy(&mut world, step);
        some_at_rest += usize::from(resting > 0 && resting < pairs);
        all_at_rest += usize::from(resting > 0 && resting == pairs);
        woke += world
            .events()
            .iter()
            .filter(|e| matches!(e, Event::Woke(_)))
            .count();
    }
    // The marks were in use: the whole pile at rest, and part of it while
    // another part moved.
    assert!(
        all_at_rest > 10,
        "{all_at_rest} steps with every pair at rest"
    );
    assert!(
        some_at_rest > 10,
        "{some_at_rest} steps with some pairs at rest"
    );
    assert!(woke > 5, "sleepers woke ({woke})");
}

/// Steps `world` and a copy of it that has forgotten every quiet threshold
/// (so it opens every pair the world passes over as quiet) and checks they
/// agree, pair by pair; returns how many pairs were quiet before the step.
fn step_against_a_copy_that_opens_quiet_pairs(world: &mut World, step: usize) -> usize {
    let quiet = world.contacts.quiet_count();
    let mut copy = world.clone();
    copy.contacts.forget_quiet();
    world.step(DT).unwrap();
    copy.step(DT).unwrap();
    assert_eq!(world.state_hash(), copy.state_hash(), "step {step}");
    assert_eq!(world.events(), copy.events(), "step {step}");
    assert!(
        world.contacts.iter().eq(copy.contacts.iter()),
        "step {step}: the pairs differ"
    );
    quiet
}

#[test]
fn quiet_disc_pairs_are_passed_over_with_the_same_results_as_a_visit() {
    // Awake throughout: discs, and dumbbells of two discs off their body's
    // origin that spin as they fall, among boxes, capsules and hexagons.
    let settings = WorldSettings {
        sleeping: false,
        ..WorldSettings::default()
    };
    let (mut world, bodies) = mixed_pile(settings, 80).unwrap();
    let ramp = crate::world::scenes::mixed_pile_ramp(&world);
    let mut quiet_steps = 0;
    for step in 0..500 {
        match step {
            // A disc teleported into the pile, a dumbbell grown, a disc
            // shrunk, a static body moved under the pile: each moves
            // shapes without the solver.
            200 => {
                let pose = world.body(bodies[0]).unwrap().pose();
                let moved = Pose::new(pose.translation + vec2(0.3, -0.2), 0.5);
                world.set_pose(bodies[0], moved).unwrap();
            }
            250 => world.set_scale(bodies[4], 1.4).unwrap(),
            300 => world.set_scale(bodies[10], 0.7).unwrap(),
            350 => {
                let pose = world.body(ramp).unwrap().pose();
                let moved = Pose::new(pose.translation + vec2(0.05, 0.03), -0.3);
                world.set_pose(ramp, moved).unwrap();
            }
            _ => {}
        }
        let quiet = step_against_a_copy_that_opens_quiet_pairs(&mut world, step);
        quiet_steps += usize::from(quiet > 0);
    }
    assert!(quiet_steps > 300, "{quiet_steps} steps with quiet pairs");
}

/// The contacts holding each solver colour share no dynamic body.
fn assert_colors_share_no_dynamic_body(world: &World, step: usize) {
    let mut held = std::collections::BTreeSet::new();
    for ((a, b), pair) in world.contacts.iter() {
        if pair.color == crate::dynamics::NO_COLOR {
            continue;
        }
        assert!(!pair.sensor, "step {step}: a sensor holds a colour");
        for collider in [a, b] {
            let body = world.colliders[collider.key].body;
            if world.bodies[body.key].kind == crate::world::BodyKind::Dynamic {
                assert!(
                    held.insert((pair.color, body.key)),
                    "step {step}: two contacts of colour {} share a body",
                    pair.color
                );
            }
        }
    }
}

#[test]
fn kept_solver_colours_step_as_colours_rebuilt_at_every_step() {
    // Contacts begin, end, fall asleep, wake and change point counts: a
    // mixed pile falling and settling, woken by a ball dropped on it, with
    // a body removed while it is awake.
    let (mut world, bodies) = mixed_pile(WorldSettings::default(), 120).unwrap();
    let mut rebuilt = world.clone();
    let (mut colored, mut kept_lanes, mut scattered) = (0, 0, 0);
    for step in 0..900 {
        match step {
            450 => {
                let ball = world
                    .add_body(BodyDef::dynamic(Pose::from_translation(vec2(0.2, 25.0))))
                    .unwrap();
                let disc = Circle::new(vec2(0.0, 0.0), 0.6).unwrap();
                world.add_collider(ball, ColliderDef::new(disc)).unwrap();
                let copy = rebuilt
                    .add_body(BodyDef::dynamic(Pose::from_translation(vec2(0.2, 25.0))))
                    .unwrap();
                rebuilt.add_collider(copy, ColliderDef::new(disc)).unwrap();
            }
            650 => {
                world.remove_body(bodies[40]).unwrap();
                rebuilt.remove_body(bodies[40]).unwrap();
            }
            _ => {}
        }
        // The copy forgets where its constraints live before every step.
        rebuilt.scratch.wide.forget_kept();
        let lanes_before = world.scratch.wide.needs_rebuild();
        scattered += usize::from(world.scratch.wide.lanes_scattered());
        world.step(DT).unwrap();
        rebuilt.step(DT).unwrap();
        assert_eq!(world.state_hash(), rebuilt.state_hash(), "step {step}");
        assert_eq!(world.events(), rebuilt.events(), "step {step}");
        assert!(
            world.contacts.iter().eq(rebuilt.contacts.iter()),
            "step {step}: the pairs (and their colours) differ"
        );
        assert_colors_share_no_dynamic_body(&world, step);
        let holding = world
            .contacts
            .values()
            .filter(|pair| pair.color != crate::dynamics::NO_COLOR)
            .count();
        colored += usize::from(holding > 0);
        kept_lanes += usize::from(holding > 0 && !lanes_before);
    }
    // The pile settles and sleeps by step 350; the ball reaches it near
    // step 600 and wakes it until about step 700.
    assert!(colored > 380, "{colored} steps with coloured contacts");
    assert!(kept_lanes > 360, "{kept_lanes} steps that kept their lanes");
    // Lanes taken again out of order while the pile falls are laid out
    // afresh some time, with the same results.
    assert!(scattered > 0, "no step found its lanes scattered");
}
