//! The window's state between frames: the simulation, the camera, the
//! overlays, the speed, and what the mouse is doing.

use crate::math::{Real, Vec2, vec2};
use crate::render::{
    Canvas, HudStats, Overlays, RenderError, aim_camera, deepest_tree, draw_frame, draw_message,
    hud_stats, next_tree_depth,
};
use crate::scene::{LoadedScene, SceneSource, Simulation};
use minifb::{Key, KeyRepeat, MouseButton, MouseMode, Window};

/// Mouse travel (px) below which a press and release is a click, not a drag.
const CLICK_SLOP: Real = 4.0;
/// Zoom factor per wheel notch.
const WHEEL_ZOOM: Real = 1.12;
/// Speeds the `+`/`-` keys move between (steps per frame at 60 fps).
const SPEEDS: [Real; 9] = [0.0625, 0.125, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0];
/// Most steps in one frame, so a slow frame cannot snowball.
const MAX_STEPS_PER_FRAME: u32 = 32;
/// Seconds a message stays on screen.
const MESSAGE_SECONDS: Real = 6.0;
/// Speed (m/s) and diameter (m) of a shot fired with the mouse.
const MOUSE_SHOT_SPEED: Real = 60.0;
const MOUSE_SHOT_THICKNESS: Real = 0.12;

/// What the left mouse button is doing.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Press {
    Up,
    /// Held since this screen point; `dragging` once it moved past the slop.
    Down {
        start: (Real, Real),
        last: (Real, Real),
        dragging: bool,
    },
}

pub(crate) struct App {
    source: SceneSource,
    sim: Simulation,
    canvas: Canvas,
    overlays: Overlays,
    paused: bool,
    speed_index: usize,
    step_debt: Real,
    press: Press,
    right_last: Option<(Real, Real)>,
    fps: Real,
    message: Option<(String, bool, Real)>,
    screenshots: u32,
    steps: u64,
}

impl App {
    pub fn new(
        source: SceneSource,
        loaded: LoadedScene,
        width: u32,
        height: u32,
        overlays: Overlays,
    ) -> Result<App, RenderError> {
        let mut canvas = Canvas::new(width, height)?;
        aim_camera(canvas.camera_mut(), &loaded);
        Ok(App {
            source,
            sim: Simulation::new(loaded),
            canvas,
            overlays,
            paused: false,
            speed_index: 4,
            step_debt: 0.0,
            press: Press::Up,
            right_last: None,
            fps: 0.0,
            message: None,
            screenshots: 0,
            steps: 0,
        })
    }

    pub fn canvas(&self) -> &Canvas {
        &self.canvas
    }

    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Follows a window resize, keeping the camera's centre and zoom.
    pub fn resize(&mut self, width: u32, height: u32) -> Result<(), RenderError> {
        if (width, height) != (self.canvas.width(), self.canvas.height()) {
            let mut camera = *self.canvas.camera();
            camera.width = width;
            camera.height = height;
            self.canvas = Canvas::new(width, height)?;
            *self.canvas.camera_mut() = camera;
        }
        Ok(())
    }

    fn say(&mut self, text: String, warning: bool) {
        self.message = Some((text, warning, MESSAGE_SECONDS));
    }

    fn step_once(&mut self) {
        match self.sim.step() {
            Ok(()) => self.steps += 1,
            Err(error) => {
                self.paused = true;
                self.say(format!("STEP FAILED: {error}"), true);
            }
        }
    }

    pub fn handle_input(&mut self, window: &Window) {
        for key in window.get_keys_pressed(KeyRepeat::No) {
            match key {
                Key::Space => self.paused = !self.paused,
                Key::Period | Key::N => {
                    self.paused = true;
                    self.step_once();
                }
                Key::Equal | Key::NumPadPlus => {
                    self.speed_index = (self.speed_index + 1).min(SPEEDS.len() - 1)
                }
                Key::Minus | Key::NumPadMinus => {
                    self.speed_index = self.speed_index.saturating_sub(1)
                }
                Key::A => self.overlays.aabbs = !self.overlays.aabbs,
                Key::C => self.overlays.contacts = !self.overlays.contacts,
                Key::V => self.overlays.normals = !self.overlays.normals,
                Key::D => self.overlays.sleeping_dim = !self.overlays.sleeping_dim,
                Key::T => self.next_tree_depth(),
                Key::P => {
                    let world = self.sim.world_mut();
                    world.set_profiling(!world.profiling());
                }
                Key::H | Key::F1 => self.overlays.help = !self.overlays.help,
                Key::Home => aim_camera(self.canvas.camera_mut(), self.sim.scene()),
                Key::R => self.reload(),
                Key::S => self.screenshot(),
                _ => {}
            }
        }
        self.handle_mouse(window);
    }

    fn handle_mouse(&mut self, window: &Window) {
        let mouse = window.get_mouse_pos(MouseMode::Clamp);
        if let Some((_, dy)) = window.get_scroll_wheel()
            && let Some((x, y)) = mouse
            && dy != 0.0
        {
            // Window systems report notches (±1) or pixels; at most 3 notches a frame.
            self.canvas
                .camera_mut()
                .zoom_at(x, y, WHEEL_ZOOM.powf(dy.clamp(-3.0, 3.0)));
        }
        let Some(at) = mouse else { return };
        // Right button: always a drag.
        if window.get_mouse_down(MouseButton::Right) {
            if let Some(last) = self.right_last {
                self.canvas
                    .camera_mut()
                    .pan_pixels(at.0 - last.0, at.1 - last.1);
            }
            self.right_last = Some(at);
        } else {
            self.right_last = None;
        }
        let down = window.get_mouse_down(MouseButton::Left);
        self.press = match (self.press, down) {
            (Press::Up, true) => Press::Down {
                start: at,
                last: at,
                dragging: false,
            },
            (
                Press::Down {
                    start,
                    last,
                    dragging,
                },
                true,
            ) => {
                let moved = (at.0 - start.0).hypot(at.1 - start.1);
                let dragging = dragging || moved > CLICK_SLOP;
                if dragging {
                    self.canvas
                        .camera_mut()
                        .pan_pixels(at.0 - last.0, at.1 - last.1);
                }
                Press::Down {
                    start,
                    last: at,
                    dragging,
                }
            }
            (Press::Down { dragging, .. }, false) => {
                if !dragging {
                    self.shoot_at(at);
                }
                Press::Up
            }
            (Press::Up, false) => Press::Up,
        };
    }

    /// Fires a shot from the scene's first gun (or the bottom middle of the
    /// view when it has none, or its mount is gone) toward the screen point
    /// `at`.
    fn shoot_at(&mut self, at: (Real, Real)) {
        let camera = *self.canvas.camera();
        let target = camera.to_world(at.0, at.1);
        let armed = self
            .sim
            .scene()
            .guns
            .first()
            .is_some_and(|gun| gun.muzzle(self.sim.world()).is_some());
        let fired = if armed {
            self.sim
                .shoot_from_gun(0, target, MOUSE_SHOT_SPEED, MOUSE_SHOT_THICKNESS)
        } else {
            let (lo, hi) = camera.visible();
            let from: Vec2 = vec2((lo.x + hi.x) * 0.5, lo.y + (hi.y - lo.y) * 0.05);
            self.sim
                .shoot(from, target, MOUSE_SHOT_SPEED, MOUSE_SHOT_THICKNESS)
        };
        if let Err(error) = fired {
            self.say(format!("CANNOT SHOOT: {error}"), true);
        }
    }

    /// Draws circle trees one level deeper, back to the leaves after the
    /// deepest level of any tree in the scene.
    fn next_tree_depth(&mut self) {
        let deepest = deepest_tree(self.sim.world());
        if deepest.is_none() {
            self.say("NO CIRCLE TREES IN THIS SCENE".into(), false);
        }
        self.overlays.tree_depth = next_tree_depth(self.overlays.tree_depth, deepest);
    }

    fn reload(&mut self) {
        match self.source.load() {
            Ok(loaded) => {
                let profiling = self.sim.world().profiling();
                self.sim = Simulation::new(loaded);
                self.sim.world_mut().set_profiling(profiling);
                self.step_debt = 0.0;
                self.say(format!("RELOADED {}", self.source.file_label()), false);
            }
            Err(error) => {
                let first: Vec<String> = error
                    .to_string()
                    .lines()
                    .take(4)
                    .map(String::from)
                    .collect();
                self.say(
                    format!("RELOAD FAILED (KEPT THE OLD SCENE):\n{}", first.join("\n")),
                    true,
                );
            }
        }
    }

    fn screenshot(&mut self) {
        self.screenshots += 1;
        let path = format!("circlet-{}-{:03}.png", self.source.name(), self.screenshots);
        match self.canvas.save_png(&path) {
            Ok(()) => self.say(format!("SAVED {path}"), false),
            Err(error) => self.say(format!("SCREENSHOT FAILED: {error}"), true),
        }
    }

    /// Steps as many times as the speed asks for a frame of `frame_seconds`.
    pub fn advance(&mut self, frame_seconds: Real) {
        if frame_seconds > 0.0 && frame_seconds.is_finite() {
            let instant = 1.0 / frame_seconds;
            self.fps = if self.fps == 0.0 {
                instant
            } else {
                0.9 * self.fps + 0.1 * instant
            };
        }
        if let Some((_, _, left)) = &mut self.message {
            *left -= frame_seconds.clamp(0.0, 1.0);
            if *left <= 0.0 {
                self.message = None;
            }
        }
        if self.paused {
            return;
        }
        // Real time at the target frame rate: one frame is 1/60 s of the scene.
        let per_frame = SPEEDS[self.speed_index] / (super::TARGET_FPS as Real * self.sim.dt());
        self.step_debt += per_frame;
        let mut taken = 0;
        while self.step_debt >= 1.0 && taken < MAX_STEPS_PER_FRAME && !self.paused {
            self.step_once();
            self.step_debt -= 1.0;
            taken += 1;
        }
        self.step_debt = self.step_debt.min(1.0);
    }

    pub fn render(&mut self) {
        let hud = HudStats {
            tree_depth: self.overlays.tree_depth,
            ..hud_stats(
                &self.sim,
                &self.source.name(),
                self.fps,
                SPEEDS[self.speed_index],
                self.paused,
            )
        };
        draw_frame(&mut self.canvas, &self.sim, &self.overlays, &hud);
        if let Some((text, warning, _)) = &self.message {
            draw_message(&mut self.canvas, &text.to_uppercase(), *warning);
        }
    }
}
