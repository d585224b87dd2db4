//! The HUD (counters in the top-left corner), the key help and a message
//! line, drawn in screen pixels with the built-in font.

use super::canvas::Canvas;
use super::colors::{Rgba, TEXT, WARNING};
use super::font::{GLYPH_HEIGHT, text_width};

/// Screen pixels per font pixel for HUD text.
const TEXT_SCALE: u32 = 2;
/// Gap around and between HUD lines (px).
const PAD: u32 = 6;
/// Backdrop behind HUD text.
const BACKDROP: Rgba = Rgba {
    r: 0,
    g: 0,
    b: 0,
    a: 170,
};

/// What the HUD shows.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HudStats {
    /// Name of the scene.
    pub scene: String,
    /// Frames per second of the window (0 when headless).
    pub fps: f32,
    /// Wall-clock time of the last step (ms).
    pub step_ms: f32,
    /// Bodies in the world.
    pub bodies: usize,
    /// Touching contact pairs.
    pub contacts: usize,
    /// Shots fired.
    pub shots: u64,
    /// Hits counted.
    pub hits: u64,
    /// Simulated time (s).
    pub time: f64,
    /// Steps per frame relative to real time (1 = real time).
    pub speed: f32,
    /// True while paused.
    pub paused: bool,
    /// The circle-tree level drawn ([`super::Overlays::tree_depth`]): `None`
    /// for the leaves.
    pub tree_depth: Option<u8>,
    /// The last step's stages (ms, in the order of
    /// [`StepProfile::STAGE_NAMES`](crate::world::StepProfile::STAGE_NAMES))
    /// while the world is profiling; `None` otherwise.
    pub stages: Option<[f32; 6]>,
}

/// The key help, one line per key.
pub const HELP_LINES: &[&str] = &[
    "SPACE     PAUSE / RESUME",
    ". OR N    SINGLE STEP",
    "+ / -     FASTER / SLOWER",
    "CLICK     SHOOT TOWARD THE CURSOR",
    "DRAG      PAN    WHEEL  ZOOM",
    "A         AABBS",
    "C         CONTACTS",
    "V         NORMALS",
    "D         DIM SLEEPING BODIES",
    "T         TREE DEPTH: LEAVES, 0, 1, ... BY LEVEL",
    "P         PROFILE: THE TIME OF EACH STAGE OF A STEP",
    "HOME      FIT THE VIEW",
    "R         RELOAD THE SCENE FILE",
    "S         SAVE A SCREENSHOT",
    "H OR F1   THIS HELP",
    "ESC       QUIT",
];

fn line_height() -> u32 {
    GLYPH_HEIGHT * TEXT_SCALE + PAD
}

/// Draws lines of text on a backdrop with its top-left at `(x, y)`.
fn draw_block(canvas: &mut Canvas, x: u32, y: u32, lines: &[String], color: Rgba) {
    let width = lines
        .iter()
        .map(|l| text_width(l, TEXT_SCALE))
        .max()
        .unwrap_or(0);
    let height = lines.len() as u32 * line_height() + PAD;
    canvas.fill_screen_rect(
        x as f32,
        y as f32,
        (width + 2 * PAD) as f32,
        height as f32,
        BACKDROP,
    );
    for (i, line) in lines.iter().enumerate() {
        let top = y + PAD + i as u32 * line_height();
        canvas.draw_text((x + PAD) as i32, top as i32, line, TEXT_SCALE, color);
    }
}

/// The HUD's lines for `stats`.
pub fn hud_lines(stats: &HudStats) -> Vec<String> {
    let state = if stats.paused {
        "PAUSED".to_string()
    } else {
        format!("SPEED X{}", stats.speed)
    };
    // No frame rate without a window.
    let fps = if stats.fps > 0.0 {
        format!("FPS {:.0}  ", stats.fps)
    } else {
        String::new()
    };
    let mut lines = vec![
        format!("{}  T {:.2} S  {}", stats.scene, stats.time, state),
        format!(
            "{fps}STEP {:.2} MS  BODIES {}  CONTACTS {}  SHOTS {}  HITS {}",
            stats.step_ms, stats.bodies, stats.contacts, stats.shots, stats.hits
        ),
    ];
    if let Some(stages) = stats.stages {
        let parts: Vec<String> = crate::world::StepProfile::STAGE_NAMES
            .iter()
            .zip(stages)
            .map(|(name, ms)| format!("{} {ms:.2}", name.to_uppercase()))
            .collect();
        lines.push(format!("{} MS", parts.join(ITEM_GAP)));
    }
    lines.push(format!(
        "H: HELP  T: {}  P: PROFILE {}",
        tree_depth_label(stats.tree_depth),
        if stats.stages.is_some() { "ON" } else { "OFF" }
    ));
    lines
}

/// How the HUD names the circle-tree level drawn.
fn tree_depth_label(depth: Option<u8>) -> String {
    match depth {
        None => "TREE LEAVES".to_string(),
        Some(depth) => format!("TREE DEPTH {depth}"),
    }
}

/// Separator between the items of a HUD line; a line is wrapped there.
const ITEM_GAP: &str = "  ";

/// `lines` wrapped to `width` pixels of text: a line too wide is broken
/// between its items (separated by [`ITEM_GAP`]), as many items to a line
/// as fit. An item wider than `width` on its own keeps a line to itself
/// (and is clipped by the canvas).
pub fn fit_lines(lines: &[String], width: u32) -> Vec<String> {
    let mut out = Vec::with_capacity(lines.len());
    for line in lines {
        if text_width(line, TEXT_SCALE) <= width {
            out.push(line.clone());
            continue;
        }
        let mut current = String::new();
        for item in line.split(ITEM_GAP).filter(|item| !item.is_empty()) {
            let joined = if current.is_empty() {
                item.to_string()
            } else {
                format!("{current}{ITEM_GAP}{item}")
            };
            if current.is_empty() || text_width(&joined, TEXT_SCALE) <= width {
                current = joined;
            } else {
                out.push(std::mem::replace(&mut current, item.to_string()));
            }
        }
        if !current.is_empty() {
            out.push(current);
        }
    }
    out
}

/// Draws the HUD in the top-left corner, its lines wrapped to the canvas.
pub fn draw_hud(canvas: &mut Canvas, stats: &HudStats) {
    // The block's backdrop pads the text on both sides, inside a margin.
    let width = canvas.width().saturating_sub(4 * PAD);
    draw_block(canvas, PAD, PAD, &fit_lines(&hud_lines(stats), width), TEXT);
}

/// Draws the key help in the middle of the canvas.
pub fn draw_help(canvas: &mut Canvas) {
    let lines: Vec<String> = HELP_LINES.iter().map(|l| l.to_string()).collect();
    let width = lines
        .iter()
        .map(|l| text_width(l, TEXT_SCALE))
        .max()
        .unwrap_or(0)
        + 2 * PAD;
    let height = lines.len() as u32 * line_height() + PAD;
    let x = canvas.width().saturating_sub(width) / 2;
    let y = canvas.height().saturating_sub(height) / 2;
    draw_block(canvas, x, y, &lines, TEXT);
}

/// Draws a one-line message (or several lines) at the bottom-left, in the
/// warning colour when `warning`.
pub fn draw_message(canvas: &mut Canvas, text: &str, warning: bool) {
    let lines: Vec<String> = text.lines().take(8).map(str::to_string).collect();
    let height = lines.len() as u32 * line_height() + PAD;
    let y = canvas.height().saturating_sub(height + PAD);
    let color = if warning { WARNING } else { TEXT };
    draw_block(canvas, PAD, y, &lines, color);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hud_lines_show_every_counter() {
        let stats = HudStats {
            scene: "SHOWCASE".into(),
            fps: 59.6,
            step_ms: 0.25,
            bodies: 12,
            contacts: 7,
            shots: 30,
            hits: 4,
            time: 1.5,
            speed: 1.0,
            paused: true,
            tree_depth: Some(2),
            stages: Some([0.01, 0.02, 0.5, 0.75, 0.0, 0.125]),
        };
        let text = hud_lines(&stats).join("\n");
        for needle in [
            "FPS 60",
            "STEP 0.25 MS",
            "BODIES 12",
            "CONTACTS 7",
            "SHOTS 30",
            "HITS 4",
            "PAUSED",
            "T: TREE DEPTH 2",
            "PAIRS 0.01  SETUP 0.02  CONTACTS 0.50  SOLVE 0.75  CONTINUOUS 0.00  ISLANDS 0.12 MS",
            "P: PROFILE ON",
        ] {
            assert!(text.contains(needle), "{needle} missing from {text}");
        }
        let leaves = hud_lines(&HudStats::default()).join("\n");
        assert!(leaves.contains("T: TREE LEAVES"), "{leaves}");
    }

    #[test]
    fn hud_lines_wrap_between_items_to_fit_a_narrow_window() {
        let stats = HudStats {
            scene: "SHOWCASE".into(),
            fps: 59.6,
            stages: Some([0.01, 0.02, 0.5, 0.75, 0.0, 0.125]),
            ..HudStats::default()
        };
        let lines = hud_lines(&stats);
        let widest = lines
            .iter()
            .map(|l| text_width(l, TEXT_SCALE))
            .max()
            .unwrap();
        // Wide enough: unchanged.
        assert_eq!(fit_lines(&lines, widest), lines);
        for width in [200, 400, 640] {
            let fitted = fit_lines(&lines, width);
            assert!(fitted.len() > lines.len(), "{width}: {fitted:?}");
            for line in &fitted {
                // Only a single item may be wider than the window.
                assert!(
                    text_width(line, TEXT_SCALE) <= width || !line.contains(ITEM_GAP),
                    "{width}: {line:?}"
                );
            }
            // Every item is kept, in order.
            let items = |ls: &[String]| -> Vec<String> {
                ls.iter()
                    .flat_map(|l| l.split(ITEM_GAP).map(str::to_string))
                    .filter(|i| !i.is_empty())
                    .collect()
            };
            assert_eq!(items(&fitted), items(&lines), "{width}");
        }
        // The stages line of the profile fits a 640-pixel window.
        let fitted = fit_lines(&lines, 640 - 4 * PAD);
        assert!(
            fitted.iter().any(|l| l.starts_with("PAIRS 0.01")),
            "{fitted:?}"
        );
        assert!(
            fitted.iter().any(|l| l.ends_with("ISLANDS 0.12 MS")),
            "{fitted:?}"
        );
    }

    #[test]
    fn the_help_lists_the_tree_depth_key() {
        let line = HELP_LINES
            .iter()
            .find(|line| line.starts_with("T "))
            .expect("a line for T");
        assert!(line.contains("TREE DEPTH"), "{line}");
        // Every character of the help is in the font (none drawn as `?`).
        for line in HELP_LINES {
            for c in line.chars() {
                assert!(
                    c == '?' || super::super::font::glyph(c) != super::super::font::glyph('?'),
                    "{c:?} in {line:?}"
                );
            }
        }
    }

    #[test]
    fn the_hud_and_help_draw_inside_small_canvases() {
        for (w, h) in [(1, 1), (40, 30), (800, 600)] {
            let mut canvas = Canvas::new(w, h).unwrap();
            draw_hud(&mut canvas, &HudStats::default());
            draw_help(&mut canvas);
            draw_message(&mut canvas, "line one\nline two", true);
        }
    }
}
