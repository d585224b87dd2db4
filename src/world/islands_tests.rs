//! Tests of the island pass: rings against brute-force islands, the ring
//! pass against a full pass, sleep and wake through setters and removals.

use super::{BodyKey, find, key_slot};
use crate::math::{Real, vec2};
use crate::world::scenes::{ball_pit, mixed_pile, settle};
use crate::world::{BodyHandle, Event, ProjectileDef, World, WorldSettings};

const DT: Real = 1.0 / 60.0;

#[test]
fn with_sleeping_off_timers_stay_zero_and_sleepers_wake_only_when_touched() {
    let (mut world, balls) = ball_pit(WorldSettings::default(), 60, 0.5, 8.0).unwrap();
    assert!(
        settle(&mut world, DT, 3_000).unwrap() < 3_000,
        "the pit settles"
    );
    let off = WorldSettings {
        sleeping: false,
        ..*world.settings()
    };
    world.set_settings(off).unwrap();
    world.step(DT).unwrap();
    // Nothing awake to touch them: they sleep on.
    assert!(world.bodies().all(|(_, b)| !b.is_awake()));
    // One ball woken: its island wakes with it at the next step.
    let top = *balls.last().unwrap();
    world.set_velocity(top, vec2(0.0, -1.0), 0.0).unwrap();
    let mut woke = 0;
    for _ in 0..3 {
        world.step(DT).unwrap();
        woke += world
            .events()
            .iter()
            .filter(|e| matches!(e, Event::Woke(_)))
            .count();
    }
    assert!(woke > 1, "the touched island wakes ({woke} bodies)");
    // All awake now with sleeping off: timers stay at zero, nobody sleeps.
    let (mut world, _) = ball_pit(off_settings(), 60, 0.5, 8.0).unwrap();
    for _ in 0..300 {
        world.step(DT).unwrap();
        assert!(world.events().iter().all(|e| !matches!(e, Event::Slept(_))));
    }
    let dynamic = || world.bodies.values().filter(|b| b.is_dynamic());
    assert!(dynamic().all(|b| b.sleep_time == 0.0 && b.awake));
}

/// The sleeping bodies' islands from the touching pairs (brute force),
/// each as its sorted key list.
fn sleeping_islands(world: &World) -> Vec<Vec<BodyKey>> {
    let keys: Vec<BodyKey> = world
        .bodies
        .iter()
        .filter(|(_, b)| b.is_dynamic() && !b.awake)
        .map(|(k, _)| k)
        .collect();
    let mut parent: Vec<u32> = (0..keys.len() as u32).collect();
    let at = |key: BodyKey| keys.iter().position(|&k| k == key);
    for ((a, b), pair) in world.contacts.iter() {
        let body = |c: &crate::world::ColliderHandle| world.colliders[c.key].body.key;
        if let (true, false, Some(i), Some(j)) =
            (pair.touching, pair.sensor, at(body(a)), at(body(b)))
        {
            let (ri, rj) = (find(&mut parent, i as u32), find(&mut parent, j as u32));
            parent[ri.max(rj) as usize] = ri.min(rj);
        }
    }
    let mut islands: Vec<Vec<BodyKey>> = Vec::new();
    for r in 0..keys.len() as u32 {
        let island: Vec<BodyKey> = (0..keys.len())
            .filter(|&i| find(&mut parent, i as u32) == r)
            .map(|i| keys[i])
            .collect();
        if !island.is_empty() {
            islands.push(island);
        }
    }
    islands
}

/// Each sleeping body's ring, walked from it, as a sorted key list;
/// panics if a walk does not come back or meets an awake body.
fn rings(world: &World) -> Vec<Vec<BodyKey>> {
    let mut rings: Vec<Vec<BodyKey>> = Vec::new();
    for (key, body) in world.bodies.iter() {
        assert_eq!(body.sleep_next.is_some(), body.is_dynamic() && !body.awake);
        let Some(mut at) = body.sleep_next else {
            continue;
        };
        let mut ring = vec![key];
        while at != key {
            assert!(!world.bodies[at].awake, "rings hold sleeping bodies only");
            assert!(ring.len() <= world.bodies.len(), "the walk comes back");
            ring.push(at);
            at = world.bodies[at].sleep_next.unwrap();
        }
        // Handle order, from the ring's first member on.
        ring.sort_by_key(|&k| key_slot(k));
        if !rings.contains(&ring) {
            rings.push(ring);
        }
    }
    rings
}

fn sorted(mut sets: Vec<Vec<BodyKey>>) -> Vec<Vec<BodyKey>> {
    for set in &mut sets {
        set.sort_by_key(|&k| key_slot(k));
    }
    sets.sort_by_key(|set| key_slot(set[0]));
    sets
}

/// The mixed pile, plus three short stacks of boxes on ledges of their own
/// beside its box: islands that settle apart from the pile and from each
/// other, so several sleep at once whatever the pile does.
fn pile_and_stacks() -> World {
    use crate::math::Pose;
    use crate::shape::{Aabb, ConvexPolygon};
    use crate::world::{BodyDef, ColliderDef};
    let (mut world, _) = mixed_pile(WorldSettings::default(), 120).unwrap();
    let block = ConvexPolygon::rectangle(vec2(-0.45, -0.3), vec2(0.45, 0.3)).unwrap();
    for k in 0..3 {
        let x = 40.0 + 6.0 * k as Real;
        let ledge = world.add_body(BodyDef::fixed(Pose::from_translation(vec2(x, 0.0))));
        let ledge = ledge.unwrap();
        let top = Aabb::new(vec2(-2.0, -0.5), vec2(2.0, 0.0)).unwrap();
        world.add_collider(ledge, ColliderDef::new(top)).unwrap();
        for level in 0..3 {
            let at = vec2(x, 0.3 + 0.6 * level as Real);
            let body = world.add_body(BodyDef::dynamic(Pose::from_translation(at)));
            let body = body.unwrap();
            world
                .add_collider(body, ColliderDef::new(block.clone()))
                .unwrap();
        }
    }
    world
}

#[test]
fn each_sleeping_island_is_one_ring() {
    let mut world = pile_and_stacks();
    let mut seen = 0;
    for step in 0..900 {
        world.step(DT).unwrap();
        if step % 10 == 0 || world.events().iter().any(|e| matches!(e, Event::Slept(_))) {
            let islands = sorted(sleeping_islands(&world));
            seen = seen.max(islands.len());
            assert_eq!(sorted(rings(&world)), islands, "step {step}");
        }
    }
    assert!(seen >= 3, "several islands slept at once ({seen})");
}

#[test]
fn the_ring_pass_decides_what_a_full_pass_decides() {
    // A copy of the world has no rings (they are not state), so its
    // next step takes the full pass over every body and pair.
    let (mut world, balls) = ball_pit(WorldSettings::default(), 150, 0.5, 6.0).unwrap();
    let (mut slept, mut woke) = (0, 0);
    for step in 0..1_500 {
        match step {
            600 => world.set_velocity(balls[70], vec2(0.0, 3.0), 0.0).unwrap(),
            1_000 => world
                .apply_impulse(balls[5], vec2(2.0, 0.0), vec2(0.0, 0.0))
                .unwrap(),
            1_200 => world.remove_body(balls[100]).unwrap(),
            _ => {}
        }
        let mut copy = world.clone();
        assert!(!copy.scratch.islands.rings_known);
        world.step(DT).unwrap();
        copy.step(DT).unwrap();
        assert_eq!(world.state_hash(), copy.state_hash(), "step {step}");
        assert_eq!(world.events(), copy.events(), "step {step}");
        assert_eq!(sorted(rings(&world)), sorted(rings(&copy)), "step {step}");
        slept += count(&world, |e| matches!(e, Event::Slept(_)));
        woke += count(&world, |e| matches!(e, Event::Woke(_)));
    }
    assert!(
        slept > 150 && woke > 100,
        "islands slept ({slept}) and woke ({woke})"
    );
    // Many passes reused the islands of the pass before (the copies never
    // do): the same decisions either way.
    let reused = world.scratch.islands.reused;
    assert!(reused > 100, "{reused} passes reused their islands");
}

#[test]
fn shots_into_a_sleeping_pile_wake_it_as_a_full_pass_does() {
    // A projectile's push wakes a body in the middle of a step, after the
    // solver took the awake bodies: the island pass must still see it.
    // A copy of the world reads every body at its next step.
    let (mut world, balls) = ball_pit(WorldSettings::default(), 150, 0.5, 6.0).unwrap();
    assert!(settle(&mut world, DT, 3_000).unwrap() < 3_000);
    assert!(
        world.scratch.awake_known,
        "the ring pass lists the awake bodies"
    );
    let x = |w: &World, b: BodyHandle| w.body(b).unwrap().pose().translation.x;
    let (mut hits, mut woke) = (0, 0);
    for step in 0..600 {
        if step % 150 == 0 {
            // Straight down onto a sleeping ball, fast and heavy enough
            // to move it.
            let target = balls[(step / 150) * 37 % balls.len()];
            let mut shot =
                ProjectileDef::new(vec2(x(&world, target), 40.0), vec2(0.0, -200.0), 0.05);
            shot.impulse = Some(5.0);
            world.add_projectile(shot).unwrap();
            // The copy below starts from here: let the world list its
            // awake bodies again before the shot lands.
            world.step(DT).unwrap();
        }
        let mut copy = world.clone();
        world.step(DT).unwrap();
        copy.step(DT).unwrap();
        assert_eq!(world.state_hash(), copy.state_hash(), "step {step}");
        assert_eq!(world.events(), copy.events(), "step {step}");
        hits += count(&world, |e| matches!(e, Event::ProjectileHit { .. }));
        woke += count(&world, |e| matches!(e, Event::Woke(_)));
    }
    assert!(hits >= 4, "every shot hit ({hits})");
    assert!(woke > 20, "the hits woke islands ({woke})");
}

#[test]
fn removing_a_sleeping_body_rebuilds_the_rings() {
    let (mut world, balls) = ball_pit(WorldSettings::default(), 80, 0.5, 6.0).unwrap();
    assert!(settle(&mut world, DT, 3_000).unwrap() < 3_000);
    assert!(world.scratch.islands.rings_known);
    world.remove_body(balls[40]).unwrap();
    assert!(!world.scratch.islands.rings_known);
    world.step(DT).unwrap();
    assert!(world.scratch.islands.rings_known);
    assert_eq!(sorted(rings(&world)), sorted(sleeping_islands(&world)));
}

#[test]
fn removing_what_a_sleeping_pile_rests_on_wakes_it() {
    let (mut world, balls) = ball_pit(WorldSettings::default(), 80, 0.5, 6.0).unwrap();
    assert!(settle(&mut world, DT, 3_000).unwrap() < 3_000);
    let y = |w: &World, b: BodyHandle| w.body(b).unwrap().pose().translation.y;
    // The lowest ball: most of the pile rests on it.
    let lowest = *balls
        .iter()
        .min_by(|&&a, &&b| y(&world, a).total_cmp(&y(&world, b)))
        .unwrap();
    let rest: Vec<BodyHandle> = balls.iter().copied().filter(|&b| b != lowest).collect();
    let height = |w: &World| -> Real { rest.iter().map(|&b| y(w, b)).sum() };
    let before = height(&world);
    let island = sleeping_islands(&world)
        .into_iter()
        .find(|island| island.contains(&lowest.key))
        .unwrap();
    assert!(
        island.len() > balls.len() / 2,
        "most of the pile rests on it"
    );
    world.remove_body(lowest).unwrap();
    // The balls it held up wake at once, the rest of its island with them.
    let awake = |w: &World| {
        rest.iter()
            .filter(|&&b| w.body(b).unwrap().is_awake())
            .count()
    };
    let woken_now = awake(&world);
    assert!(
        (1..=3).contains(&woken_now),
        "{woken_now} balls rested on it"
    );
    world.step(DT).unwrap();
    let woke = count(&world, |e| matches!(e, Event::Woke(_)));
    assert_eq!(woke, island.len() - 1 - woken_now, "the island wakes");
    assert_eq!(awake(&world), island.len() - 1);
    // Then the ground and walls: everything falls (1.2 m in free fall
    // over half a second).
    let ground: Vec<BodyHandle> = world
        .bodies()
        .filter(|(_, b)| !b.is_dynamic())
        .map(|(h, _)| h)
        .collect();
    for handle in ground {
        world.remove_body(handle).unwrap();
    }
    for _ in 0..30 {
        world.step(DT).unwrap();
    }
    assert_eq!(awake(&world), rest.len());
    assert!(
        height(&world) < before - rest.len() as Real,
        "the pile falls"
    );
}

fn count(world: &World, which: impl Fn(&Event) -> bool) -> usize {
    world.events().iter().filter(|e| which(e)).count()
}

fn off_settings() -> WorldSettings {
    WorldSettings {
        sleeping: false,
        ..WorldSettings::default()
    }
}

#[test]
fn a_kinematic_body_pressing_into_a_sleeping_pile_wakes_it_as_a_fresh_join_would() {
    // Debug builds join every edge afresh beside each reuse of the islands
    // and compare, touched sleepers included: the steps below check that
    // the reuse wakes what a fresh join wakes.
    use crate::math::Pose;
    use crate::shape::Circle;
    use crate::world::{BodyDef, ColliderDef};
    let (mut world, balls) = ball_pit(WorldSettings::default(), 60, 0.5, 8.0).unwrap();
    assert!(
        settle(&mut world, DT, 3_000).unwrap() < 3_000,
        "the pit settles"
    );
    let top = balls
        .iter()
        .map(|&b| world.body(b).unwrap().pose().translation)
        .max_by(|a, b| a.y.total_cmp(&b.y))
        .unwrap();
    let start = Pose::from_translation(top + vec2(0.0, 1.5));
    let paddle = BodyDef::kinematic(start).with_velocity(vec2(0.0, -0.5), 0.0);
    let paddle = world.add_body(paddle).unwrap();
    let disc = Circle::new(vec2(0.0, 0.0), 0.5).unwrap();
    world.add_collider(paddle, ColliderDef::new(disc)).unwrap();
    let before = world.scratch.islands.reused;
    let mut woke = 0;
    for _ in 0..240 {
        world.step(DT).unwrap();
        woke += count(&world, |e| matches!(e, Event::Woke(_)));
    }
    assert!(woke > 10, "the paddle wakes the pile ({woke} bodies)");
    let reused = world.scratch.islands.reused - before;
    assert!(reused > 10, "{reused} passes reused their islands");
}
