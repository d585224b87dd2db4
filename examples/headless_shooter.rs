//! A headless shooter written against the library API, no window: load the
//! shooter scene, let its batteries fire for ten seconds, add a volley of
//! our own, and report the hits by ship, by part and by gun, and the state
//! hash. Shots are world projectiles: the body count never changes.
//!
//! Run: `cargo run --release --example headless_shooter [-- out.png]`

use circlet::math::vec2;
use circlet::render::picture;
use circlet::scene::{Scene, Simulation};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/scenes/shooter.ron");
    let loaded = Scene::load(path)?;
    let cruiser = loaded.names["cruiser"];
    let mut sim = Simulation::new(loaded);

    for step in 0..600 {
        // Every second, a volley of three shots from the bottom-left corner
        // at where the cruiser is now.
        if step % 60 == 0 {
            let target = sim.world().body(cruiser).map(|b| b.center_of_mass());
            if let Some(target) = target {
                for offset in [-0.5, 0.0, 0.5] {
                    sim.shoot(vec2(-19.0, -11.0), target + vec2(0.0, offset), 150.0, 0.08)?;
                }
            }
        }
        sim.step()?;
    }

    let stats = sim.stats();
    println!(
        "{} steps, {} shots, {} hits, {} bodies, state hash {:#018x}",
        stats.steps,
        stats.shots,
        stats.hits,
        sim.world().body_count(),
        sim.world().state_hash()
    );
    for (title, counts) in [
        ("by body", &stats.hits_by_body),
        ("by part", &stats.hits_by_part),
        ("by gun", &stats.hits_by_gun),
    ] {
        println!("hits {title}:");
        for (name, hits) in counts {
            println!("  {name:<18} {hits:>4}");
        }
    }
    if let Some(file) = std::env::args().nth(1) {
        picture(&sim, "shooter", 1280, 720)?.save_png(&file)?;
        println!("picture: {file}");
    }
    Ok(())
}
