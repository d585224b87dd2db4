//! A scene built in code with the scene format's types: checked like a file
//! (every problem reported), written out as RON, loaded into a world, and
//! drawn headless to a PNG.
//!
//! Run: `cargo run --example custom_scene [-- out.png]`

use circlet::render::picture;
use circlet::scene::{
    AimDesc, BodyDesc, GunDesc, KindDesc, MaterialDesc, Scene, ShapeDesc, Simulation, TileMapDesc,
};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut scene = Scene::default();
    scene.bodies.push(BodyDesc {
        name: Some("ground".into()),
        kind: KindDesc::Static,
        position: (0.0, -0.5),
        shape: Some(ShapeDesc::Box {
            half_extents: (12.0, 0.5),
            center: (0.0, 0.0),
        }),
        ..BodyDesc::default()
    });
    // A tower of alternating boxes and hexagons.
    for level in 0..6 {
        let shape = if level % 2 == 0 {
            ShapeDesc::Box {
                half_extents: (0.6, 0.4),
                center: (0.0, 0.0),
            }
        } else {
            ShapeDesc::Regular {
                sides: 6,
                radius: 0.45,
                phase: 0.0,
            }
        };
        scene.bodies.push(BodyDesc {
            name: Some(format!("block {level}")),
            position: (4.0, 0.4 + level as f32 * 0.9),
            shape: Some(shape),
            material: MaterialDesc {
                density: 1.0,
                friction: 0.8,
                restitution: 0.0,
            },
            ..BodyDesc::default()
        });
    }
    scene.tile_maps.push(TileMapDesc {
        name: Some("ramp".into()),
        origin: (-10.0, 0.0),
        tile_size: 1.0,
        rows: vec!["#L..".into(), "##L.".into(), "###L".into()],
        material: MaterialDesc::default(),
        filter: Default::default(),
    });
    scene.guns.push(GunDesc {
        name: Some("cannon".into()),
        position: (-9.0, 6.0),
        aim: AimDesc::Target("block 5".into()),
        mount: None,
        rate: 2.0,
        speed: 35.0,
        spread: 0.0,
        thickness: 0.2,
        pierce: 0,
        start: 0.5,
        lifetime: 2.0,
        seed: 0,
    });

    // A mistake is reported with the field it is in.
    let mut broken = scene.clone();
    broken.bodies[1].scale = -1.0;
    if let Err(error) = broken.build() {
        println!("a broken copy is refused:\n{error}");
    }

    println!("{}", scene.to_ron());
    let mut sim = Simulation::new(scene.build()?);
    for _ in 0..240 {
        sim.step()?;
    }
    println!(
        "after 4 s: {} bodies, {} shots, {} hits",
        sim.world().body_count(),
        sim.stats().shots,
        sim.stats().hits
    );
    if let Some(file) = std::env::args().nth(1) {
        picture(&sim, "custom", 960, 540)?.save_png(&file)?;
        println!("picture: {file}");
    }
    Ok(())
}
