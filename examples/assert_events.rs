//! A test-style headless run that asserts on events: a ball falls through a
//! sensor onto the ground. The sensor must report it entering and leaving,
//! in that order, before the ball begins touching the ground; then the ball
//! must come to rest and fall asleep. Exits non-zero if any of that fails.
//!
//! Run: `cargo run --example assert_events`

use circlet::scene::Scene;
use circlet::world::Event;

const SCENE: &str = r#"(
    bodies: [
        (name: "ground", kind: Static, position: (0, -0.5), shape: Box(half_extents: (5, 0.5))),
        (name: "gate", kind: Static, position: (0, 3), sensor: true, shape: Box(half_extents: (1, 0.25))),
        (name: "ball", position: (0, 6), shape: Circle(radius: 0.3)),
    ],
)"#;

fn main() {
    let mut loaded = Scene::from_str(SCENE, "assert_events").unwrap_or_else(|e| panic!("{e}"));
    let [ground, gate, ball] = ["ground", "gate", "ball"].map(|name| loaded.names[name]);
    let world = &mut loaded.world;
    let body_of = |world: &circlet::world::World, c| world.collider(c).map(|c| c.body());

    let mut seen = Vec::new();
    for step in 0..600 {
        world.step(loaded.dt).expect("a valid step");
        for event in world.events() {
            let named = match *event {
                Event::SensorEntered(s, v)
                    if body_of(world, s) == Some(gate) && body_of(world, v) == Some(ball) =>
                {
                    "entered gate"
                }
                Event::SensorLeft(s, v)
                    if body_of(world, s) == Some(gate) && body_of(world, v) == Some(ball) =>
                {
                    "left gate"
                }
                Event::Began(a, b)
                    if [body_of(world, a), body_of(world, b)].contains(&Some(ground)) =>
                {
                    "landed"
                }
                Event::Slept(body) if body == ball => "slept",
                _ => continue,
            };
            println!("step {step:>3}: {named}");
            seen.push(named);
        }
    }
    assert_eq!(
        seen,
        ["entered gate", "left gate", "landed", "slept"],
        "events out of order"
    );
    let rest = world.body(ball).expect("the ball").pose().translation.y;
    assert!(
        (rest - 0.3).abs() < 0.02,
        "the ball rests on the ground, at y = {rest}"
    );
    println!("ok: every event came, in order; the ball rests at y = {rest:.3}");
}
