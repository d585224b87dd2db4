//! Round contacts: a circle centred on its body's centre of mass touching
//! another such circle or a body that does not move is solved with its
//! anchors along the normal (`ContactConstraint::round`).
//!
//! Locks:
//! - a ball spinning fast on the floor with no friction stays at its radius
//!   (turning a circle about its centre opens no gap under it);
//! - a disc rolls down a slope (gravity tilted by 20°) with the
//!   acceleration of rolling without slipping, `(2/3)·g·sin α` for a solid
//!   disc, and spins at `v / r`, on the floor and on a row of fixed balls;
//! - two equal balls pressed together side by side, each spinning, trade
//!   no spin through a frictionless contact;
//! - a ball resting on a kinematic wheel is carried the way the wheel's
//!   surface moves under it, whichever of the two the pair lists first.

use circlet::math::{Pose, Real, vec2};
use circlet::shape::{Aabb, Circle};
use circlet::world::{BodyDef, BodyHandle, ColliderDef, Material, World, WorldSettings};

const DT: Real = 1.0 / 60.0;

fn material(friction: Real) -> Material {
    Material {
        friction,
        ..Material::default()
    }
}

fn floor(world: &mut World, friction: Real) {
    let body = world.add_body(BodyDef::fixed(Pose::IDENTITY)).unwrap();
    let aabb = Aabb::new(vec2(-200.0, -1.0), vec2(200.0, 0.0)).unwrap();
    world
        .add_collider(
            body,
            ColliderDef::new(aabb).with_material(material(friction)),
        )
        .unwrap();
}

fn ball(world: &mut World, def: BodyDef, radius: Real, friction: Real) -> BodyHandle {
    let body = world.add_body(def).unwrap();
    let disc = Circle::new(vec2(0.0, 0.0), radius).unwrap();
    world
        .add_collider(
            body,
            ColliderDef::new(disc).with_material(material(friction)),
        )
        .unwrap();
    body
}

#[test]
fn a_spinning_ball_rests_at_its_radius() {
    let mut world = World::new(WorldSettings::default()).unwrap();
    floor(&mut world, 0.0);
    let def = BodyDef::dynamic(Pose::from_translation(vec2(0.0, 0.5)))
        .with_velocity(vec2(0.0, 0.0), 40.0);
    let ball = ball(&mut world, def, 0.5, 0.0);
    let mut worst: Real = 0.0;
    for _ in 0..120 {
        world.step(DT).unwrap();
        let body = world.body(ball).unwrap();
        worst = worst.max((body.pose().translation.y - 0.5).abs());
    }
    let body = world.body(ball).unwrap();
    assert!(worst < 1e-3, "the ball left its radius by {worst} m");
    // Frictionless: the spin is kept, and the ball does not wander.
    assert!((body.angular_velocity() - 40.0).abs() < 1e-3);
    assert!(body.pose().translation.x.abs() < 1e-4);
}

/// Rolls a disc of radius `r` from rest for one second under gravity tilted
/// by 20°, on `world` (whose floor is set up by the caller); returns the
/// velocity along the slope and the spin.
fn roll(mut world: World, start: (Real, Real), r: Real) -> (Real, Real) {
    let def = BodyDef::dynamic(Pose::from_translation(vec2(start.0, start.1)));
    let disc = ball(&mut world, def, r, 0.6);
    for _ in 0..60 {
        world.step(DT).unwrap();
    }
    let body = world.body(disc).unwrap();
    (body.linear_velocity().x, body.angular_velocity())
}

fn tilted() -> World {
    let slope = 20.0f32.to_radians();
    let settings = WorldSettings {
        gravity: vec2(9.81 * slope.sin(), -9.81 * slope.cos()),
        sleeping: false,
        ..WorldSettings::default()
    };
    World::new(settings).unwrap()
}

#[test]
fn a_disc_rolls_down_a_slope_without_slipping() {
    let expected = 2.0 / 3.0 * 9.81 * 20.0f32.to_radians().sin();
    let r = 0.5;
    let mut world = tilted();
    floor(&mut world, 0.6);
    let (v, w) = roll(world, (0.0, r), r);
    assert!(
        (v / expected - 1.0).abs() < 0.01,
        "v {v} against {expected}"
    );
    assert!((-w * r / v - 1.0).abs() < 0.01, "spin {w} at speed {v}");

    // On a row of fixed balls of radius 1 touching each other: the disc
    // rides their tops, and still rolls without slipping while it keeps to
    // the gentle part of each (the row's tops are 1 m apart, so it does
    // not: here only the direction of travel and the sign of the spin are
    // the rolling ones).
    let mut world = tilted();
    for i in 0..200 {
        let def = BodyDef::fixed(Pose::from_translation(vec2(i as Real * 2.0 - 20.0, 1.0)));
        ball(&mut world, def, 1.0, 0.6);
    }
    let (v, w) = roll(world, (0.0, 2.0 + r), r);
    assert!(v > 0.0 && w < 0.0, "v {v}, spin {w}");
}

#[test]
fn two_balls_side_by_side_trade_no_spin_without_friction() {
    let settings = WorldSettings {
        gravity: vec2(-9.81, 0.0),
        sleeping: false,
        ..WorldSettings::default()
    };
    let mut world = World::new(settings).unwrap();
    // A wall on the left, two balls pressed against it by gravity.
    let wall = world.add_body(BodyDef::fixed(Pose::IDENTITY)).unwrap();
    let aabb = Aabb::new(vec2(-1.0, -10.0), vec2(0.0, 10.0)).unwrap();
    world
        .add_collider(wall, ColliderDef::new(aabb).with_material(material(0.0)))
        .unwrap();
    let spins = [25.0, -60.0];
    let balls: Vec<BodyHandle> = spins
        .iter()
        .enumerate()
        .map(|(i, &w)| {
            let at = vec2(0.5 + i as Real, 0.0);
            let def = BodyDef::dynamic(Pose::from_translation(at)).with_velocity(vec2(0.0, 0.0), w);
            ball(&mut world, def, 0.5, 0.0)
        })
        .collect();
    for _ in 0..120 {
        world.step(DT).unwrap();
    }
    for (ball, spin) in balls.iter().zip(spins) {
        let body = world.body(*ball).unwrap();
        assert_eq!(body.angular_velocity(), spin);
        assert!(body.pose().translation.y.abs() < 1e-4);
    }
}

#[test]
fn a_wheel_carries_a_ball_the_way_its_surface_moves() {
    // A wheel of radius 1 turning counter-clockwise: its top moves towards
    // -x at 2 m/s. Friction drags the ball resting on top that way, at its
    // lowest point, and so spins it clockwise, as a gear meshing with it.
    for wheel_first in [true, false] {
        let mut world = World::new(WorldSettings {
            sleeping: false,
            ..WorldSettings::default()
        })
        .unwrap();
        let wheel_def = BodyDef::kinematic(Pose::IDENTITY).with_velocity(vec2(0.0, 0.0), 2.0);
        let ball_def = BodyDef::dynamic(Pose::from_translation(vec2(0.0, 1.5)));
        let (wheel, rider) = if wheel_first {
            let wheel = ball(&mut world, wheel_def, 1.0, 0.6);
            (wheel, ball(&mut world, ball_def, 0.5, 0.6))
        } else {
            let rider = ball(&mut world, ball_def, 0.5, 0.6);
            (ball(&mut world, wheel_def, 1.0, 0.6), rider)
        };
        for _ in 0..5 {
            world.step(DT).unwrap();
        }
        let (wheel, rider) = (world.body(wheel).unwrap(), world.body(rider).unwrap());
        assert_eq!(wheel.angular_velocity(), 2.0);
        let (v, w) = (rider.linear_velocity(), rider.angular_velocity());
        assert!(v.x < -0.1, "wheel first {wheel_first}: v {v:?}");
        assert!(w < -0.1, "wheel first {wheel_first}: spin {w}");
    }
}
