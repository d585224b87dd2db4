//! A whole frame of a running simulation: camera placement, bodies,
//! overlays, HUD and help, the same in the window and in headless pictures.

use super::{Camera, Canvas, HudStats, Overlays, draw_help, draw_hud, draw_simulation, fit_world};
use crate::math::vec2;
use crate::scene::{LoadedScene, Simulation};

/// Points the camera where the scene's `view` says, or at all its bodies.
pub fn aim_camera(camera: &mut Camera, loaded: &LoadedScene) {
    match &loaded.view {
        Some(view) => camera.show(vec2(view.center.0, view.center.1), view.height),
        None => fit_world(camera, &loaded.world),
    }
}

/// The HUD counters of a simulation; `fps` and `speed` come from the window.
pub fn hud_stats(sim: &Simulation, scene: &str, fps: f32, speed: f32, paused: bool) -> HudStats {
    let stats = sim.stats();
    HudStats {
        scene: scene.to_uppercase(),
        fps,
        step_ms: (stats.last_step_seconds * 1000.0) as f32,
        bodies: sim.world().body_count(),
        contacts: sim.world().contact_count(),
        shots: stats.shots,
        hits: stats.hits,
        time: sim.time(),
        speed,
        paused,
        tree_depth: None,
        stages: sim.world().profiling().then(|| {
            sim.world()
                .profile()
                .stages()
                .map(|stage| (stage.as_secs_f64() * 1e3) as f32)
        }),
    }
}

/// Clears the canvas and draws the simulation, then the HUD and help if
/// `overlays` asks for them.
pub fn draw_frame(canvas: &mut Canvas, sim: &Simulation, overlays: &Overlays, hud: &HudStats) {
    canvas.clear();
    draw_simulation(canvas, sim, overlays);
    if overlays.hud {
        draw_hud(canvas, hud);
    }
    if overlays.help {
        draw_help(canvas);
    }
}

/// A picture of a simulation as it is now: `width`×`height`, camera from
/// the scene, default overlays, HUD on.
///
/// # Errors
/// [`super::RenderError::BadSize`].
pub fn picture(
    sim: &Simulation,
    scene: &str,
    width: u32,
    height: u32,
) -> Result<Canvas, super::RenderError> {
    picture_with(sim, scene, width, height, &Overlays::default())
}

/// As [`picture`], with the layers of `overlays` (a chosen tree depth, ...).
///
/// # Errors
/// [`super::RenderError::BadSize`].
pub fn picture_with(
    sim: &Simulation,
    scene: &str,
    width: u32,
    height: u32,
    overlays: &Overlays,
) -> Result<Canvas, super::RenderError> {
    let mut canvas = Canvas::new(width, height)?;
    aim_camera(canvas.camera_mut(), sim.scene());
    let hud = HudStats {
        tree_depth: overlays.tree_depth,
        ..hud_stats(sim, scene, 0.0, 1.0, false)
    };
    draw_frame(&mut canvas, sim, overlays, &hud);
    Ok(canvas)
}
