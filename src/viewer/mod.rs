//! The debug window (cargo feature `viewer`): the only module that touches
//! minifb. It runs a [`crate::scene::Simulation`] at its fixed step, draws it with
//! [`crate::render`] into a pixel buffer and shows that buffer.
//!
//! Keys: space pauses, `.` or `N` steps once, `+`/`-` change the speed,
//! `A` `C` `V` `D` toggle AABBs, contacts, normals and dimming of sleeping
//! bodies, `T` steps the circle-tree depth drawn (leaves, then level 0, 1,
//! … down to the deepest tree, coloured by level, then leaves again),
//! `Home` fits the view, `R` reloads the scene file, `S` saves a
//! screenshot, `H`/`F1` shows the key help, `Esc` quits. The mouse: a
//! click shoots toward the cursor, a drag pans, the wheel zooms.
//!
//! `frames` and `screenshot` make automated runs: the window closes after
//! that many frames and saves what it showed last as a PNG.

mod app;

use crate::render::RenderError;
use crate::scene::{SceneError, SceneSource};
use app::App;
use minifb::{Key, Window, WindowOptions};
use std::path::PathBuf;
use std::time::Instant;

/// Frames per second the window aims for.
pub const TARGET_FPS: usize = 60;

/// How to open the window.
#[derive(Clone, Debug)]
pub struct ViewerOptions {
    /// The scene to show (reloaded from here with `R`).
    pub source: SceneSource,
    /// Close after this many frames.
    pub frames: Option<u64>,
    /// Save the last frame here as a PNG when the window closes.
    pub screenshot: Option<PathBuf>,
    /// Window width (px).
    pub width: usize,
    /// Window height (px).
    pub height: usize,
    /// The circle-tree level drawn at first (`None`: the leaves); `T` changes it.
    pub tree_depth: Option<u8>,
}

/// What happened in a window session.
#[derive(Clone, Debug, PartialEq)]
pub struct ViewerReport {
    /// Frames shown.
    pub frames: u64,
    /// Simulation steps taken.
    pub steps: u64,
    /// The screenshot written at the end, if one was asked for.
    pub screenshot: Option<PathBuf>,
}

/// Why the window could not run.
#[derive(Debug, thiserror::Error)]
pub enum ViewerError {
    /// No display to open a window on, or the window system refused.
    #[error("cannot open a window: {0}")]
    NoWindow(String),
    /// The scene could not be loaded.
    #[error("{0}")]
    Scene(#[from] SceneError),
    /// Drawing or saving a picture failed.
    #[error("{0}")]
    Render(#[from] RenderError),
}

/// True when the environment names a display (X11 `DISPLAY` or Wayland
/// `WAYLAND_DISPLAY`); opening a window may still fail.
pub fn has_display() -> bool {
    ["DISPLAY", "WAYLAND_DISPLAY"]
        .iter()
        .any(|name| std::env::var_os(name).is_some_and(|v| !v.is_empty()))
}

/// Opens the window and runs until it is closed (or `frames` have been shown).
///
/// # Errors
/// [`ViewerError::Scene`] if the scene does not load (checked before any
/// window opens), [`ViewerError::NoWindow`] without a display, and
/// [`ViewerError::Render`] if the screenshot cannot be written.
pub fn run(options: ViewerOptions) -> Result<ViewerReport, ViewerError> {
    let loaded = options.source.load()?;
    if !has_display() {
        return Err(ViewerError::NoWindow(
            "no display (neither DISPLAY nor WAYLAND_DISPLAY is set)".into(),
        ));
    }
    let (width, height) = (options.width.max(1), options.height.max(1));
    let title = format!("circlet: {}", options.source.name());
    let mut window = Window::new(
        &title,
        width,
        height,
        WindowOptions {
            resize: true,
            ..WindowOptions::default()
        },
    )
    .map_err(|e| ViewerError::NoWindow(e.to_string()))?;
    window.set_target_fps(TARGET_FPS);
    let overlays = crate::render::Overlays {
        tree_depth: options.tree_depth,
        ..crate::render::Overlays::default()
    };
    let mut app = App::new(
        options.source.clone(),
        loaded,
        width as u32,
        height as u32,
        overlays,
    )?;
    let mut buffer: Vec<u32> = Vec::new();
    let mut frames = 0u64;
    let mut last_frame = Instant::now();
    while window.is_open() && !window.is_key_down(Key::Escape) {
        let (w, h) = window.get_size();
        if w > 0 && h > 0 {
            app.resize(w as u32, h as u32)?;
        }
        app.handle_input(&window);
        let now = Instant::now();
        app.advance(now.duration_since(last_frame).as_secs_f32());
        last_frame = now;
        app.render();
        app.canvas().to_rgb_u32(&mut buffer);
        let (cw, ch) = (
            app.canvas().width() as usize,
            app.canvas().height() as usize,
        );
        window
            .update_with_buffer(&buffer, cw, ch)
            .map_err(|e| ViewerError::NoWindow(e.to_string()))?;
        frames += 1;
        if options.frames.is_some_and(|limit| frames >= limit) {
            break;
        }
    }
    if let Some(path) = &options.screenshot {
        app.canvas().save_png(path)?;
    }
    Ok(ViewerReport {
        frames,
        steps: app.steps(),
        screenshot: options.screenshot.clone(),
    })
}
