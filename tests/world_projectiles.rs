//! Projectiles in the world.
//!
//! Locks:
//! - the owner is never hit by its own shots, even when a ricochet sends
//!   them back through it (and the same shot without an owner does hit it);
//! - pierce N passes through exactly N bodies, in order of time (within a
//!   step and across steps), then stops in the next one;
//! - a ricochet reflects the velocity about the hit normal with the shot's
//!   restitution (flat and slanted surfaces) and continues the step from
//!   the hit point;
//! - thousands of shots per step are traced, each hit reported once;
//! - a hit gives the body the shot's momentum (or the fixed `impulse`);
//! - shots expire after their lifetime; gravity bends them; filters and
//!   sensors are respected; handles of gone or foreign shots are refused;
//! - no NaN after any step.

use circlet::math::{Pose, Real, Vec2, vec2};
use circlet::shape::{Aabb, Circle, ConvexPolygon};
use circlet::world::scenes::add_static_box;
use circlet::world::{
    BodyDef, BodyHandle, ColliderDef, Event, Filter, HitOutcome, ProjectileDef, ProjectileHandle,
    World, WorldError, WorldSettings,
};

const DT: Real = 1.0 / 60.0;

fn weightless() -> World {
    World::new(WorldSettings {
        gravity: Vec2::zeros(),
        ..WorldSettings::default()
    })
    .unwrap()
}

fn step_checked(world: &mut World) {
    world.step(DT).unwrap();
    assert!(world.is_finite(), "NaN at step {}", world.step_count());
}

fn add_box(world: &mut World, def: BodyDef, half: Real) -> BodyHandle {
    let body = world.add_body(def).unwrap();
    let square = ConvexPolygon::rectangle(vec2(-half, -half), vec2(half, half)).unwrap();
    world.add_collider(body, ColliderDef::new(square)).unwrap();
    body
}

/// (body, outcome, fraction, step) of every hit of `shot` in the last step.
fn hits_of(world: &World, shot: ProjectileHandle) -> Vec<(BodyHandle, HitOutcome, Real, Vec2)> {
    world
        .events()
        .iter()
        .filter_map(|event| match *event {
            Event::ProjectileHit {
                projectile,
                body,
                outcome,
                fraction,
                normal,
                ..
            } if projectile == shot => Some((body, outcome, fraction, normal)),
            _ => None,
        })
        .collect()
}

#[test]
fn the_owner_is_never_hit_by_its_own_shots() {
    let run = |owned: bool| {
        let mut world = weightless();
        add_static_box(&mut world, vec2(10.0, -5.0), vec2(11.0, 5.0)).unwrap();
        add_static_box(&mut world, vec2(-11.0, -5.0), vec2(-10.0, 5.0)).unwrap();
        let shooter = add_box(&mut world, BodyDef::kinematic(Pose::IDENTITY), 0.5);
        // Fired from inside the shooter; bounces between the walls, back
        // through the shooter each time.
        let mut def = ProjectileDef::new(vec2(0.0, 0.0), vec2(300.0, 0.0), 0.05)
            .with_gravity_scale(0.0)
            .with_ricochets(6, 1.0);
        if owned {
            def = def.with_owner(shooter);
        }
        let shot = world.add_projectile(def).unwrap();
        let mut shooter_hits = 0;
        let mut wall_hits = 0;
        for _ in 0..60 {
            step_checked(&mut world);
            for (body, ..) in hits_of(&world, shot) {
                if body == shooter {
                    shooter_hits += 1;
                } else {
                    wall_hits += 1;
                }
            }
        }
        (shooter_hits, wall_hits)
    };
    let (shooter_hits, wall_hits) = run(true);
    assert_eq!(shooter_hits, 0);
    assert!(wall_hits >= 6, "it bounced {wall_hits} times");
    // The same shot without an owner stops in the shooter at once.
    assert!(run(false).0 > 0);
}

#[test]
fn pierce_n_passes_through_exactly_n_bodies_in_order() {
    for pierce in 0..5u32 {
        let mut world = weightless();
        // Six boxes 2 m apart; the shot crosses about two per step.
        let boxes: Vec<BodyHandle> = (0..6)
            .map(|i| {
                add_box(
                    &mut world,
                    BodyDef::dynamic(Pose::from_translation(vec2(3.0 + 2.0 * i as Real, 0.0))),
                    0.4,
                )
            })
            .collect();
        let shot = world
            .add_projectile(
                ProjectileDef::new(vec2(0.0, 0.0), vec2(4.0 / DT, 0.0), 0.02)
                    .with_gravity_scale(0.0)
                    .with_pierce(pierce),
            )
            .unwrap();
        let mut order = Vec::new();
        for step in 0..10 {
            step_checked(&mut world);
            for (body, outcome, fraction, _) in hits_of(&world, shot) {
                order.push((step as Real + fraction, body, outcome));
            }
        }
        assert_eq!(
            order.len(),
            pierce as usize + 1,
            "pierce {pierce}: {order:?}"
        );
        for (i, (_, body, outcome)) in order.iter().enumerate() {
            assert_eq!(*body, boxes[i], "pierce {pierce}: hit {i} out of order");
            let expected = if i < pierce as usize {
                HitOutcome::Pierced
            } else {
                HitOutcome::Stopped
            };
            assert_eq!(*outcome, expected);
        }
        assert!(
            order.windows(2).all(|w| w[0].0 < w[1].0),
            "times not increasing"
        );
        assert!(
            world.projectile(shot).is_none(),
            "a stopped shot is removed"
        );
    }
}

/// Fires a ricochet shot at a static box rotated by `angle` and returns the
/// hit normal and the shot's velocity after the step.
fn ricochet_off(angle: Real, restitution: Real) -> (Vec2, Vec2, Vec2) {
    let mut world = weightless();
    let slab = world
        .add_body(BodyDef::fixed(Pose::new(vec2(0.0, 0.0), angle)))
        .unwrap();
    world
        .add_collider(
            slab,
            ColliderDef::new(Aabb::new(vec2(-5.0, -1.0), vec2(5.0, 0.0)).unwrap()),
        )
        .unwrap();
    let velocity = vec2(120.0, -180.0);
    let shot = world
        .add_projectile(
            ProjectileDef::new(vec2(-1.0, 2.0), velocity, 0.0)
                .with_gravity_scale(0.0)
                .with_ricochets(1, restitution),
        )
        .unwrap();
    step_checked(&mut world);
    let hits = hits_of(&world, shot);
    assert_eq!(hits.len(), 1, "{hits:?}");
    assert_eq!(hits[0].1, HitOutcome::Ricocheted);
    let after = world.projectile(shot).expect("still flying").velocity();
    (hits[0].3, velocity, after)
}

#[test]
fn a_ricochet_reflects_about_the_hit_normal() {
    for (angle, restitution) in [(0.0, 1.0), (0.0, 0.5), (0.3, 1.0), (-0.2, 0.7)] {
        let (normal, before, after) = ricochet_off(angle, restitution);
        let expected_normal = vec2(-(angle as Real).sin(), angle.cos());
        assert!((normal - expected_normal).norm() < 1e-5, "{normal:?}");
        // v' = v - (1 + e) (v · n) n
        let expected = before - normal * ((1.0 + restitution) * before.dot(&normal));
        assert!(
            (after - expected).norm() < 1e-3 * before.norm(),
            "angle {angle}, e {restitution}: {after:?} vs {expected:?}"
        );
    }
}

#[test]
fn a_ricochet_continues_from_the_hit_point() {
    let mut world = weightless();
    add_static_box(&mut world, vec2(-5.0, -1.0), vec2(5.0, 0.0)).unwrap();
    // Falls 1 m to the floor in a quarter of the step, then climbs back.
    let shot = world
        .add_projectile(
            ProjectileDef::new(vec2(0.0, 1.0), vec2(0.0, -4.0 / DT), 0.0)
                .with_gravity_scale(0.0)
                .with_ricochets(1, 1.0),
        )
        .unwrap();
    step_checked(&mut world);
    let position = world.projectile(shot).unwrap().position();
    assert!((position - vec2(0.0, 3.0)).norm() < 1e-3, "{position:?}");
}

#[test]
fn thousands_of_shots_per_step_are_traced() {
    let mut world = weightless();
    // A wall of 50 targets; 5,000 shots, each aimed at one of them.
    let targets: Vec<BodyHandle> = (0..50)
        .map(|i| {
            let body = world
                .add_body(BodyDef::fixed(Pose::from_translation(vec2(
                    20.0,
                    i as Real * 2.0,
                ))))
                .unwrap();
            world
                .add_collider(
                    body,
                    ColliderDef::new(Circle::new(Vec2::zeros(), 0.8).unwrap()),
                )
                .unwrap();
            body
        })
        .collect();
    let count = 5_000;
    for i in 0..count {
        let lane = i % 50;
        let y = lane as Real * 2.0 + ((i / 50) as Real / 100.0 - 0.5);
        world
            .add_projectile(
                ProjectileDef::new(vec2(0.0, y), vec2(30.0 / DT, 0.0), 0.01)
                    .with_gravity_scale(0.0),
            )
            .unwrap();
    }
    step_checked(&mut world);
    let mut per_target = vec![0usize; targets.len()];
    for event in world.events() {
        if let Event::ProjectileHit { body, outcome, .. } = *event {
            assert_eq!(outcome, HitOutcome::Stopped);
            let index = targets.iter().position(|t| *t == body).unwrap();
            per_target[index] += 1;
        }
    }
    assert!(
        per_target.iter().all(|&n| n == count / 50),
        "{per_target:?}"
    );
    assert_eq!(world.projectile_count(), 0);
}

#[test]
fn a_hit_gives_the_body_the_shots_momentum() {
    let mut world = weightless();
    let target = add_box(
        &mut world,
        BodyDef::dynamic(Pose::from_translation(vec2(5.0, 0.0))),
        0.5,
    );
    let mass = world.body(target).unwrap().mass();
    let mut def =
        ProjectileDef::new(vec2(0.0, 0.0), vec2(600.0, 0.0), 0.01).with_gravity_scale(0.0);
    def.mass = 0.05;
    world.add_projectile(def).unwrap();
    step_checked(&mut world);
    let velocity = world.body(target).unwrap().linear_velocity();
    assert!(
        (velocity.x - 0.05 * 600.0 / mass).abs() < 1e-3,
        "{velocity:?}"
    );
    assert!(velocity.y.abs() < 1e-4);
    // A fixed impulse replaces the mass-based one.
    let mut world = weightless();
    let target = add_box(
        &mut world,
        BodyDef::dynamic(Pose::from_translation(vec2(5.0, 0.0))),
        0.5,
    );
    def.impulse = Some(2.0);
    world.add_projectile(def).unwrap();
    step_checked(&mut world);
    let velocity = world.body(target).unwrap().linear_velocity();
    assert!((velocity.x - 2.0 / mass).abs() < 1e-4, "{velocity:?}");
}

#[test]
fn shots_expire_fall_and_respect_filters() {
    let mut world = World::new(WorldSettings::default()).unwrap();
    let gravity = world.settings().gravity;
    let shot = world
        .add_projectile(
            ProjectileDef::new(vec2(0.0, 100.0), vec2(10.0, 0.0), 0.0).with_lifetime(0.1),
        )
        .unwrap();
    let mut expired_at = None;
    let mut velocity = vec2(10.0, 0.0);
    let mut position = vec2(0.0, 100.0);
    for step in 0..10 {
        step_checked(&mut world);
        if world.events().contains(&Event::ProjectileExpired(shot)) {
            expired_at.get_or_insert(step);
        }
        if let Some(p) = world.projectile(shot) {
            // Semi-implicit Euler, as bodies: velocity first, then position.
            velocity += gravity * DT;
            position += velocity * DT;
            assert!(
                (p.position() - position).norm() < 1e-4,
                "{:?}",
                p.position()
            );
        }
    }
    // 0.1 s at 60 Hz: alive for 6 steps (rounding may take one more).
    let expired_at = expired_at.expect("expired");
    assert!(
        (5..=6).contains(&expired_at),
        "expired at step {expired_at}"
    );
    assert_eq!(
        world.remove_projectile(shot),
        Err(WorldError::StaleProjectile)
    );

    // Filters: group 2 is not in the shot's mask; sensors are never hit.
    let mut world = weightless();
    let ghost = world
        .add_body(BodyDef::fixed(Pose::from_translation(vec2(3.0, 0.0))))
        .unwrap();
    world
        .add_collider(
            ghost,
            ColliderDef::new(Circle::new(Vec2::zeros(), 0.5).unwrap()).with_filter(Filter {
                groups: 2,
                mask: u32::MAX,
            }),
        )
        .unwrap();
    let sensor = world
        .add_body(BodyDef::fixed(Pose::from_translation(vec2(6.0, 0.0))))
        .unwrap();
    world
        .add_collider(
            sensor,
            ColliderDef::new(Circle::new(Vec2::zeros(), 0.5).unwrap()).sensor(),
        )
        .unwrap();
    let wall = add_box(
        &mut world,
        BodyDef::fixed(Pose::from_translation(vec2(9.0, 0.0))),
        0.5,
    );
    let mut def = ProjectileDef::new(vec2(0.0, 0.0), vec2(600.0, 0.0), 0.0).with_gravity_scale(0.0);
    def.filter = Filter {
        groups: 1,
        mask: !2,
    };
    let shot = world.add_projectile(def).unwrap();
    step_checked(&mut world);
    let hits = hits_of(&world, shot);
    assert_eq!(hits.len(), 1, "{hits:?}");
    assert_eq!(hits[0].0, wall);
}

#[test]
fn bad_projectiles_and_stale_handles_are_refused() {
    let mut world = weightless();
    let base = ProjectileDef::new(vec2(0.0, 0.0), vec2(1.0, 0.0), 0.1);
    let bad = [
        ProjectileDef {
            position: vec2(Real::NAN, 0.0),
            ..base
        },
        ProjectileDef {
            position: vec2(2.0e9, 0.0),
            ..base
        },
        ProjectileDef {
            velocity: vec2(0.0, Real::INFINITY),
            ..base
        },
        ProjectileDef {
            radius: -0.1,
            ..base
        },
        ProjectileDef {
            radius: Real::NAN,
            ..base
        },
        ProjectileDef {
            lifetime: 0.0,
            ..base
        },
        ProjectileDef {
            lifetime: Real::INFINITY,
            ..base
        },
        ProjectileDef {
            restitution: 1.5,
            ..base
        },
        ProjectileDef { mass: -1.0, ..base },
        ProjectileDef {
            impulse: Some(Real::NAN),
            ..base
        },
        ProjectileDef {
            gravity_scale: Real::NAN,
            ..base
        },
    ];
    for def in bad {
        assert!(world.add_projectile(def).is_err(), "{def:?}");
    }
    assert_eq!(world.projectile_count(), 0);
    let mut other = weightless();
    let foreign_body = other.add_body(BodyDef::dynamic(Pose::IDENTITY)).unwrap();
    assert_eq!(
        world.add_projectile(base.with_owner(foreign_body)),
        Err(WorldError::StaleBody)
    );
    let foreign = other.add_projectile(base).unwrap();
    assert!(world.projectile(foreign).is_none());
    assert_eq!(
        world.remove_projectile(foreign),
        Err(WorldError::StaleProjectile)
    );
    let mine = world.add_projectile(base).unwrap();
    world.remove_projectile(mine).unwrap();
    assert_eq!(
        world.remove_projectile(mine),
        Err(WorldError::StaleProjectile)
    );
    // A shot flying off beyond the coordinate range expires instead of failing.
    let runaway = world
        .add_projectile(
            ProjectileDef::new(vec2(9.9e8, 0.0), vec2(1.0e12, 0.0), 0.0).with_gravity_scale(0.0),
        )
        .unwrap();
    step_checked(&mut world);
    assert!(world.events().contains(&Event::ProjectileExpired(runaway)));
}
