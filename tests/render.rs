//! Headless rendering of scenes (no window, no stepping).
//!
//! Locks:
//! - bodies are drawn where the camera puts them, in their kind's colour
//!   (static grey, dynamic palette), with y up;
//! - every scene's first picture shows its bodies (not blank) and its guns;
//! - the AABB overlay adds pixels in its own colour only when switched on;
//! - PNG export decodes back to the same pixels;
//! - the HUD draws its counters in the top-left corner;
//! - a circle tree drawn at a chosen depth shows that level's circles in the
//!   level's colour (depth 0: the root envelope) instead of the leaves.

use circlet::math::vec2;
use circlet::render::{
    AABB, Canvas, DYNAMIC_COLORS, GUN, HudStats, LEVEL_COLORS, Overlays, Rgba, STATIC, aim_camera,
    draw_hud, draw_world, hud_stats, picture,
};
use circlet::scene::{Scene, Simulation};

fn close(a: Rgba, b: Rgba, tolerance: i32) -> bool {
    (a.r as i32 - b.r as i32).abs() <= tolerance
        && (a.g as i32 - b.g as i32).abs() <= tolerance
        && (a.b as i32 - b.b as i32).abs() <= tolerance
}

fn at_world(canvas: &Canvas, x: f32, y: f32) -> Rgba {
    let (px, py) = canvas.camera().to_screen(vec2(x, y));
    canvas.pixel(px as u32, py as u32).unwrap()
}

fn count(canvas: &Canvas, keep: impl Fn(Rgba) -> bool) -> usize {
    let mut n = 0;
    for y in 0..canvas.height() {
        for x in 0..canvas.width() {
            if keep(canvas.pixel(x, y).unwrap()) {
                n += 1;
            }
        }
    }
    n
}

const TWO_BODIES: &str = "(bodies: [
    (kind: Static, position: (0, -1), shape: Box(half_extents: (10, 1))),
    (position: (0, 3), shape: Circle(radius: 1)),
])";

#[test]
fn bodies_are_drawn_in_their_colours_with_y_up() {
    let loaded = Scene::from_str(TWO_BODIES, "two.ron").unwrap();
    let mut canvas = Canvas::new(400, 300).unwrap();
    canvas.camera_mut().show(vec2(0.0, 1.0), 10.0);
    draw_world(&mut canvas, &loaded.world, &Overlays::default());
    let background = canvas.background();
    // Fills are half-transparent over the background.
    let ground = at_world(&canvas, 3.0, -1.0);
    assert!(close(ground, STATIC.mix(background, 0.5), 3), "{ground:?}");
    let ball = at_world(&canvas, 0.3, 3.4);
    assert!(
        close(ball, DYNAMIC_COLORS[1].mix(background, 0.5), 3),
        "{ball:?}"
    );
    // Above the ball is empty, and the ball is above the ground on screen.
    assert_eq!(at_world(&canvas, 0.0, 4.5), background);
    let (_, ball_y) = canvas.camera().to_screen(vec2(0.0, 3.0));
    let (_, ground_y) = canvas.camera().to_screen(vec2(0.0, -1.0));
    assert!(ball_y < ground_y);
}

#[test]
fn the_aabb_overlay_draws_only_when_on() {
    let loaded = Scene::from_str(TWO_BODIES, "two.ron").unwrap();
    let aabb_pixels = |on: bool| {
        let mut canvas = Canvas::new(400, 300).unwrap();
        canvas.camera_mut().show(vec2(0.0, 1.0), 10.0);
        let overlays = Overlays {
            aabbs: on,
            ..Overlays::default()
        };
        draw_world(&mut canvas, &loaded.world, &overlays);
        count(&canvas, |p| close(p, AABB, 40))
    };
    assert_eq!(aabb_pixels(false), 0);
    assert!(aabb_pixels(true) > 200);
}

#[test]
fn every_scene_picture_shows_its_bodies_and_guns() {
    for name in [
        "showcase",
        "shooter",
        "minigolf",
        "pyramid",
        "ballpit",
        "nordenfelt",
        "tunnelling",
        "polygons",
    ] {
        let path = format!("{}/scenes/{name}.ron", env!("CARGO_MANIFEST_DIR"));
        let sim = Simulation::new(Scene::load(&path).unwrap());
        let canvas = picture(&sim, name, 960, 540).unwrap();
        let background = canvas.background();
        let drawn = count(&canvas, |p| !close(p, background, 6));
        let total = (canvas.width() * canvas.height()) as usize;
        assert!(
            drawn * 50 > total,
            "{name}: only {drawn} of {total} pixels drawn"
        );
        for gun in &sim.scene().guns {
            // A mounted gun is drawn where its mount carries it.
            let muzzle = gun.muzzle(sim.world()).unwrap();
            let (x, y) = canvas.camera().to_screen(muzzle);
            let p = canvas.pixel(x as u32, y as u32).unwrap();
            assert!(close(p, GUN, 60), "{name}: gun at {muzzle:?} shows {p:?}");
        }
    }
}

#[test]
fn png_export_decodes_to_the_same_pixels() {
    let loaded = Scene::from_str(TWO_BODIES, "two.ron").unwrap();
    let mut canvas = Canvas::new(120, 80).unwrap();
    aim_camera(canvas.camera_mut(), &loaded);
    draw_world(&mut canvas, &loaded.world, &Overlays::default());
    let png = canvas.encode_png().unwrap();
    let decoded = tiny_skia::Pixmap::decode_png(&png).unwrap();
    assert_eq!((decoded.width(), decoded.height()), (120, 80));
    for (x, y) in [(0, 0), (60, 40), (60, 70), (119, 79)] {
        let p = decoded.pixel(x, y).unwrap().demultiply();
        let q = canvas.pixel(x, y).unwrap();
        assert_eq!((p.red(), p.green(), p.blue()), (q.r, q.g, q.b));
    }
    let file = std::env::temp_dir().join("circlet-render-test.png");
    canvas.save_png(&file).unwrap();
    assert_eq!(std::fs::read(&file).unwrap(), png);
    let _ = std::fs::remove_file(&file);
}

#[test]
fn the_hud_draws_text_in_the_top_left_corner() {
    let mut canvas = Canvas::new(640, 360).unwrap();
    let background = canvas.background();
    draw_hud(
        &mut canvas,
        &HudStats {
            scene: "TEST".into(),
            bodies: 3,
            ..HudStats::default()
        },
    );
    let white = Rgba::rgb(226, 232, 240);
    let text_pixels = count(&canvas, |p| close(p, white, 10));
    assert!(text_pixels > 300, "{text_pixels}");
    // Nothing in the lower half.
    for y in 180..360 {
        for x in (0..640).step_by(7) {
            assert_eq!(canvas.pixel(x, y), Some(background));
        }
    }
}

#[test]
fn a_tree_at_depth_zero_shows_its_envelope_instead_of_its_leaves() {
    // A root of radius 2 holding two leaves of radius 0.9 side by side.
    let text = "(bodies: [(shape: Tree(root: (radius: 2, children: [
        (center: (-1, 0), radius: 0.9),
        (center: (1, 0), radius: 0.9),
    ])))])";
    let loaded = Scene::from_str(text, "tree.ron").unwrap();
    let draw = |tree_depth: Option<u8>| {
        let mut canvas = Canvas::new(300, 300).unwrap();
        canvas.camera_mut().show(vec2(0.0, 0.0), 5.0);
        let overlays = Overlays {
            tree_depth,
            ..Overlays::default()
        };
        draw_world(&mut canvas, &loaded.world, &overlays);
        canvas
    };
    let (leaves, root, level_one) = (draw(None), draw(Some(0)), draw(Some(1)));
    let background = leaves.background();
    // Inside the envelope, outside both leaves: empty with the leaves drawn,
    // filled in level 0's colour with the root drawn.
    assert_eq!(at_world(&leaves, 0.0, 1.5), background);
    let envelope = at_world(&root, 0.0, 1.5);
    assert!(
        close(envelope, LEVEL_COLORS[0].mix(background, 0.8), 3),
        "{envelope:?}"
    );
    // A leaf's inside: the body's colour, then level 0's, then level 1's.
    let body = DYNAMIC_COLORS[0].mix(background, 0.5);
    assert!(close(at_world(&leaves, -1.0, 0.3), body, 3));
    assert!(close(at_world(&root, -1.0, 0.3), envelope, 3));
    let leaf = at_world(&level_one, -1.0, 0.3);
    assert!(
        close(leaf, LEVEL_COLORS[1].mix(background, 0.8), 3),
        "{leaf:?}"
    );
    // Overall the two pictures differ in many pixels.
    let differing = (0..300)
        .flat_map(|y| (0..300).map(move |x| (x, y)))
        .filter(|&(x, y)| leaves.pixel(x, y) != root.pixel(x, y))
        .count();
    assert!(differing > 5_000, "{differing}");
}

#[test]
fn the_hud_shows_the_stages_of_the_last_step_only_while_profiling() {
    let path = format!("{}/scenes/ballpit.ron", env!("CARGO_MANIFEST_DIR"));
    let mut sim = Simulation::new(Scene::load(&path).unwrap());
    for _ in 0..30 {
        sim.step().unwrap();
    }
    assert_eq!(hud_stats(&sim, "BALLPIT", 0.0, 1.0, false).stages, None);
    sim.world_mut().set_profiling(true);
    sim.step().unwrap();
    let hud = hud_stats(&sim, "BALLPIT", 0.0, 1.0, false);
    let stages = hud.stages.expect("profiling");
    let profile = sim.world().profile();
    assert_eq!(stages[3], (profile.solve.as_secs_f64() * 1e3) as f32);
    assert!(stages[2] > 0.0 && stages[3] > 0.0, "{stages:?}");
}
