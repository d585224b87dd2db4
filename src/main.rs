//! The `circlet` command. Until the world and the window exist it runs a
//! small headless demo: a handful of shapes, every pair queried, results printed.

use circlet::math::{Pose, vec2};
use circlet::query::{contact, distance, intersects, point_inside};
use circlet::shape::{
    Aabb, Capsule, Circle, ConvexPolygon, Corner, OrientedRect, Shape, SimplePolygon, TileTriangle,
    TreeBuilder,
};

type DemoScene = Vec<(&'static str, Shape, Pose)>;

fn demo_shapes() -> Result<DemoScene, Box<dyn std::error::Error>> {
    let at = |x: f32, y: f32, angle: f32| Pose::new(vec2(x, y), angle);
    let l_outline = [
        vec2(0.0, 0.0),
        vec2(2.0, 0.0),
        vec2(2.0, 0.6),
        vec2(0.6, 0.6),
        vec2(0.6, 2.0),
        vec2(0.0, 2.0),
    ];
    Ok(vec![
        (
            "ball",
            Circle::new(vec2(0.0, 0.0), 0.5)?.into(),
            at(0.0, 0.0, 0.0),
        ),
        (
            "crate",
            Aabb::from_center(vec2(0.0, 0.0), vec2(0.5, 0.5))?.into(),
            at(0.9, 0.2, 0.0),
        ),
        (
            "plank",
            OrientedRect::new(vec2(0.0, 0.0), vec2(1.5, 0.1), 0.0)?.into(),
            at(0.5, -0.8, 0.3),
        ),
        (
            "octagon",
            ConvexPolygon::regular(8, 0.6, 0.0)?.into(),
            at(3.0, 0.0, 0.0).with_scale(1.5),
        ),
        (
            "ramp",
            TileTriangle::new(vec2(0.0, 0.0), vec2(1.0, 1.0), Corner::UpperLeft)?.into(),
            at(-2.0, -1.0, 0.0),
        ),
        (
            "shot",
            Capsule::from_thickness(vec2(-3.0, 0.3), vec2(3.0, 0.3), 0.1)?.into(),
            Pose::IDENTITY,
        ),
        (
            "ell",
            SimplePolygon::new(&l_outline)?.into(),
            at(-1.5, 0.8, 0.0),
        ),
        (
            "ship",
            TreeBuilder::node(vec2(0.0, 0.0), 1.0)
                .part("hull")
                .child(TreeBuilder::node(vec2(0.5, 0.0), 0.45).part("cockpit"))
                .child(TreeBuilder::node(vec2(-0.5, 0.0), 0.45).part("engine"))
                .build()?
                .0
                .into(),
            at(1.8, -1.2, 0.4),
        ),
    ])
}

fn main() -> std::process::ExitCode {
    let shapes = match demo_shapes() {
        Ok(shapes) => shapes,
        Err(error) => {
            eprintln!("circlet: demo scene is invalid: {error}");
            return std::process::ExitCode::FAILURE;
        }
    };
    println!(
        "circlet headless demo: {} shapes, every pair queried",
        shapes.len()
    );
    println!(
        "{:<9} {:<9} {:>10} {:>9} {:>8} {:>7}",
        "A", "B", "intersects", "distance", "depth", "points"
    );
    let mut hits = 0;
    for (i, (name_a, a, pose_a)) in shapes.iter().enumerate() {
        for (name_b, b, pose_b) in &shapes[i + 1..] {
            let touching = intersects(a, pose_a, b, pose_b);
            let gap = distance(a, pose_a, b, pose_b);
            let manifold = contact(a, pose_a, b, pose_b);
            let (depth, points) = manifold.as_ref().map_or((String::from("-"), 0), |m| {
                (format!("{:.4}", m.depth()), m.points.len())
            });
            hits += usize::from(touching);
            println!("{name_a:<9} {name_b:<9} {touching:>10} {gap:>9.4} {depth:>8} {points:>7}");
        }
    }
    let probe = vec2(0.1, 0.1);
    let containing: Vec<&str> = shapes
        .iter()
        .filter(|(_, shape, pose)| point_inside(shape, pose, probe))
        .map(|(name, _, _)| *name)
        .collect();
    println!(
        "{hits} intersecting pairs; point (0.1, 0.1) lies in: {}",
        containing.join(", ")
    );
    std::process::ExitCode::SUCCESS
}
