//! Debug drawing into a pixel buffer, with no window: bodies, polygons,
//! AABBs, contacts and normals, sleeping bodies dimmed, a HUD, PNG export.
//!
//! Drawing goes through [`DebugDraw`], whose one required method draws a
//! polygon or polyline in world coordinates; [`Canvas`] implements it with
//! tiny-skia (anti-aliased) through a [`Camera`] (world metres, y up → screen
//! pixels, y down). [`draw_world`] draws any world (bodies and projectiles)
//! through any `DebugDraw`, so the physics never depends on a renderer.
//!
//! # Examples
//! ```
//! use circlet::render::{Canvas, Overlays, draw_world};
//! use circlet::scene::Scene;
//! let loaded = Scene::from_str("(bodies: [(shape: Circle(radius: 1))])", "ball.ron").unwrap();
//! let mut canvas = Canvas::new(200, 100).unwrap();
//! canvas.camera_mut().show(circlet::math::vec2(0.0, 0.0), 4.0);
//! canvas.clear();
//! draw_world(&mut canvas, &loaded.world, &Overlays::default());
//! let png = canvas.encode_png().unwrap();
//! assert_eq!(&png[1..4], b"PNG");
//! assert_ne!(canvas.pixel(100, 50), Some(canvas.background()));
//! ```

mod camera;
mod canvas;
mod colors;
mod draw;
pub mod font;
mod frame;
mod hud;

pub use camera::{Camera, MAX_PIXELS_PER_METRE, MIN_PIXELS_PER_METRE};
pub use canvas::{Canvas, RenderError};
pub use colors::{
    AABB, BACKGROUND, CONTACT, DYNAMIC_COLORS, GUN, HIT, KINEMATIC, LEVEL_COLORS, NORMAL, Rgba,
    SENSOR, SHOT, STATIC, TEXT, WARNING,
};
pub use draw::{
    Overlays, deepest_tree, draw_shape, draw_simulation, draw_tree, draw_world, fit_world,
    next_tree_depth,
};
pub use frame::{aim_camera, draw_frame, hud_stats, picture, picture_with};
pub use hud::{HELP_LINES, HudStats, draw_help, draw_hud, draw_message, hud_lines};

use crate::math::{Real, Vec2, vec2};

/// How to paint a path: an optional fill and an optional outline.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Style {
    /// Fill colour, for closed paths.
    pub fill: Option<Rgba>,
    /// Outline colour.
    pub stroke: Option<Rgba>,
    /// Outline width in screen pixels.
    pub width: Real,
}

impl Style {
    /// An outline only.
    pub fn stroke(color: Rgba, width: Real) -> Style {
        Style {
            fill: None,
            stroke: Some(color),
            width,
        }
    }

    /// A fill only.
    pub fn fill(color: Rgba) -> Style {
        Style {
            fill: Some(color),
            stroke: None,
            width: 0.0,
        }
    }

    /// A fill with an outline.
    pub fn filled(fill: Rgba, stroke: Rgba, width: Real) -> Style {
        Style {
            fill: Some(fill),
            stroke: Some(stroke),
            width,
        }
    }
}

/// Number of straight pieces the provided [`DebugDraw::draw_circle`] uses.
pub const CIRCLE_SEGMENTS: usize = 48;

/// A debug renderer in world coordinates (metres, y up).
///
/// Only [`DebugDraw::draw_polygon`] is required; circles, segments and
/// points have default implementations through it.
pub trait DebugDraw {
    /// Draws the path through `points` (world), closed back to the first
    /// point when `closed`. Fills apply to closed paths only.
    fn draw_polygon(&mut self, points: &[Vec2], closed: bool, style: &Style);

    /// Metres per screen pixel at the current zoom (for sizes given in pixels).
    fn metres_per_pixel(&self) -> Real {
        0.01
    }

    /// Draws a circle (world centre and radius in metres).
    fn draw_circle(&mut self, center: Vec2, radius: Real, style: &Style) {
        let points: Vec<Vec2> = (0..CIRCLE_SEGMENTS)
            .map(|i| {
                let angle = std::f32::consts::TAU * i as Real / CIRCLE_SEGMENTS as Real;
                center + vec2(angle.cos(), angle.sin()) * radius
            })
            .collect();
        self.draw_polygon(&points, true, style);
    }

    /// Draws a segment between two world points, `width` pixels wide.
    fn draw_segment(&mut self, a: Vec2, b: Vec2, color: Rgba, width: Real) {
        self.draw_polygon(&[a, b], false, &Style::stroke(color, width));
    }

    /// Draws a dot of `size` pixels across at a world point.
    fn draw_point(&mut self, at: Vec2, color: Rgba, size: Real) {
        let radius = 0.5 * size * self.metres_per_pixel();
        self.draw_circle(at, radius, &Style::fill(color));
    }
}
