use circlet::math::{Pose, Vec2, vec2};
use circlet::shape::{ConvexPolygon, Shape};
use circlet::world::*;
fn main() {
    for (spin, offset) in [(0.0, 0.0), (0.0, 0.03), (120.0, 0.0)] {
        let shape =
            Shape::from(ConvexPolygon::rectangle(vec2(-0.05, -0.05), vec2(0.05, 0.05)).unwrap());
        let mut world = World::new(WorldSettings {
            gravity: Vec2::zeros(),
            ..Default::default()
        })
        .unwrap();
        let speed = 20.0 * 60.0;
        let a = world
            .add_body(
                BodyDef::dynamic(Pose::from_translation(vec2(-15.0, 0.0)))
                    .with_velocity(vec2(speed, 0.0), spin),
            )
            .unwrap();
        world
            .add_collider(a, ColliderDef::new(shape.clone()))
            .unwrap();
        let b = world
            .add_body(
                BodyDef::dynamic(Pose::from_translation(vec2(15.0, offset)))
                    .with_velocity(vec2(-speed, 0.0), -spin),
            )
            .unwrap();
        world
            .add_collider(b, ColliderDef::new(shape.clone()))
            .unwrap();
        println!("spin {spin} offset {offset}");
        for _ in 0..6 {
            world.step(1.0 / 60.0).unwrap();
            let (ba, bb) = (world.body(a).unwrap(), world.body(b).unwrap());
            println!(
                "a={:?} {:.3} va={:?} w={} b={:?} vb={:?} pairs={} ev={:?}",
                ba.pose().translation,
                ba.angle(),
                ba.linear_velocity(),
                ba.angular_velocity(),
                bb.pose().translation,
                bb.linear_velocity(),
                world.pair_count(),
                world.events().len()
            );
        }
    }
}
