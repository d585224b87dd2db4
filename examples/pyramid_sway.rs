//! How far the top box of a pyramid of unit boxes sways once it has
//! settled: the peer comparison's standing test (the top box's largest
//! move from where it was at step 100, sampled every 10 steps up to step
//! 500), for pyramids of several sizes and any solver settings.
//!
//! ```sh
//! cargo run --release --example pyramid_sway -- 80 100 120
//! cargo run --release --example pyramid_sway -- --substeps 6 --hertz 60 100
//! ```
//!
//! Prints, per base: the sway (m), the settled sag of the top box after
//! 600 steps (m) and where its centre ended up sideways (m). Sleeping is
//! off, as in the peer comparison; the floor is a static box 20 m wider
//! than the base on each side.

use circlet::math::{Pose, Real, vec2};
use circlet::shape::{Aabb, ConvexPolygon};
use circlet::world::{BodyDef, ColliderDef, World, WorldSettings};
use std::process::ExitCode;

const DT: Real = 1.0 / 60.0;

/// What one pyramid did.
struct Sway {
    /// Largest distance of the top box from where it was at step 100
    /// (sampled every 10 steps to step 500, m).
    sway: Real,
    /// Initial height of the top box minus its height after 600 steps (m).
    sag: Real,
    /// Sideways position of the top box after 600 steps (m).
    x: Real,
}

fn pyramid(base: usize, settings: WorldSettings) -> Result<Sway, Box<dyn std::error::Error>> {
    let mut world = World::new(settings)?;
    let reach = base as Real * 0.5 + 20.0;
    let floor = world.add_body(BodyDef::fixed(Pose::IDENTITY))?;
    let slab = Aabb::new(vec2(-reach, -1.0), vec2(reach, 0.0))?;
    world.add_collider(floor, ColliderDef::new(slab))?;
    let unit = ConvexPolygon::rectangle(vec2(-0.5, -0.5), vec2(0.5, 0.5))?;
    let mut top = None;
    for row in 0..base {
        let in_row = base - row;
        for i in 0..in_row {
            let x = i as Real - in_row as Real * 0.5 + 0.5;
            let pose = Pose::from_translation(vec2(x, 0.5 + row as Real));
            let body = world.add_body(BodyDef::dynamic(pose))?;
            world.add_collider(body, ColliderDef::new(unit.clone()))?;
            top = Some(body);
        }
    }
    let top = top.ok_or("a pyramid needs a base of at least 1")?;
    let start = world.body(top).ok_or("top box")?.pose().translation;
    let mut at_100 = start;
    let mut sway: Real = 0.0;
    for step in 1..=600 {
        world.step(DT)?;
        let now = world.body(top).ok_or("top box")?.pose().translation;
        if step == 100 {
            at_100 = now;
        }
        if (100..=500).contains(&step) && step % 10 == 0 {
            sway = sway.max((now - at_100).norm());
        }
    }
    let end = world.body(top).ok_or("top box")?.pose().translation;
    Ok(Sway {
        sway,
        sag: start.y - end.y,
        x: end.x,
    })
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let mut settings = WorldSettings {
        sleeping: false,
        ..WorldSettings::default()
    };
    let mut bases = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| {
            args.next()
                .ok_or_else(|| format!("{name} needs a value"))
                .and_then(|v| v.parse::<Real>().map_err(|e| format!("{name} {v}: {e}")))
        };
        match arg.as_str() {
            "--substeps" => settings.substeps = value("--substeps")? as u32,
            "--hertz" => settings.contact.hertz = value("--hertz")?,
            "--damping" => settings.contact.damping_ratio = value("--damping")?,
            base => bases.push(
                base.parse::<usize>()
                    .map_err(|e| format!("base {base}: {e}"))?,
            ),
        }
    }
    if bases.is_empty() {
        bases.push(100);
    }
    println!(
        "{} substeps, {} Hz, damping ratio {}",
        settings.substeps, settings.contact.hertz, settings.contact.damping_ratio
    );
    for base in bases {
        let Sway { sway, sag, x } = pyramid(base, settings)?;
        println!("base {base:>4}: sway {sway:.4} m, sag {sag:.4} m, top box at x {x:+.4} m");
    }
    Ok(())
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("pyramid_sway: {e}");
            ExitCode::FAILURE
        }
    }
}
