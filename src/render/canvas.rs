//! [`Canvas`]: a tiny-skia pixmap seen through a [`Camera`]; anti-aliased
//! [`DebugDraw`] in world coordinates, pixel-exact text and boxes for the
//! HUD in screen coordinates, PNG export.

use super::camera::Camera;
use super::colors::{BACKGROUND, Rgba};
use super::font;
use super::{DebugDraw, Style};
use crate::math::{Real, Vec2};
use tiny_skia::{FillRule, Paint, PathBuilder, Pixmap, Rect, Stroke, Transform};

/// Largest canvas side (px): bigger is a mistake, not a picture.
pub const MAX_CANVAS_SIDE: u32 = 16_384;

/// Screen coordinates beyond this many pixels off the canvas are clamped,
/// so far-away geometry cannot overflow the rasterizer's fixed-point math.
const OFFSCREEN_LIMIT: Real = 1.0e5;

/// Why a canvas could not be made or saved.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// The size is zero or a side is larger than the canvas limit
    /// (`MAX_CANVAS_SIDE` px).
    #[error("cannot make a {width}x{height} canvas (each side 1 to {MAX_CANVAS_SIDE} px)")]
    BadSize {
        /// Requested width.
        width: u32,
        /// Requested height.
        height: u32,
    },
    /// PNG encoding failed.
    #[error("cannot encode PNG: {0}")]
    Png(String),
    /// Writing the file failed.
    #[error("cannot write {path}: {message}")]
    Io {
        /// The file.
        path: String,
        /// The system's reason.
        message: String,
    },
}

/// A pixel buffer with a camera.
#[derive(Clone, Debug)]
pub struct Canvas {
    pixmap: Pixmap,
    camera: Camera,
    background: Rgba,
}

fn paint(color: Rgba) -> Paint<'static> {
    let mut paint = Paint::default();
    paint.set_color_rgba8(color.r, color.g, color.b, color.a);
    paint.anti_alias = true;
    paint
}

impl Canvas {
    /// A `width`×`height` canvas cleared to the background, camera at the origin.
    ///
    /// # Errors
    /// [`RenderError::BadSize`].
    pub fn new(width: u32, height: u32) -> Result<Canvas, RenderError> {
        let bad = RenderError::BadSize { width, height };
        if width == 0 || height == 0 || width > MAX_CANVAS_SIDE || height > MAX_CANVAS_SIDE {
            return Err(bad);
        }
        let pixmap = Pixmap::new(width, height).ok_or(bad)?;
        let mut canvas = Canvas {
            pixmap,
            camera: Camera::new(width, height),
            background: BACKGROUND,
        };
        canvas.clear();
        Ok(canvas)
    }

    /// Width (px).
    pub fn width(&self) -> u32 {
        self.pixmap.width()
    }

    /// Height (px).
    pub fn height(&self) -> u32 {
        self.pixmap.height()
    }

    /// The camera.
    pub fn camera(&self) -> &Camera {
        &self.camera
    }

    /// The camera, to pan or zoom.
    pub fn camera_mut(&mut self) -> &mut Camera {
        &mut self.camera
    }

    /// The background colour.
    pub fn background(&self) -> Rgba {
        self.background
    }

    /// Fills the whole canvas with the background colour.
    pub fn clear(&mut self) {
        let c = self.background;
        self.pixmap
            .fill(tiny_skia::Color::from_rgba8(c.r, c.g, c.b, c.a));
    }

    /// The colour of pixel `(x, y)` (un-premultiplied), or `None` outside.
    pub fn pixel(&self, x: u32, y: u32) -> Option<Rgba> {
        let p = self.pixmap.pixel(x, y)?.demultiply();
        Some(Rgba {
            r: p.red(),
            g: p.green(),
            b: p.blue(),
            a: p.alpha(),
        })
    }

    /// Writes every pixel as `0x00RRGGBB` into `out` (resized to fit), row by row.
    pub fn to_rgb_u32(&self, out: &mut Vec<u32>) {
        out.clear();
        out.extend(self.pixmap.pixels().iter().map(|p| {
            let p = p.demultiply();
            ((p.red() as u32) << 16) | ((p.green() as u32) << 8) | p.blue() as u32
        }));
    }

    /// The picture as PNG bytes.
    ///
    /// # Errors
    /// [`RenderError::Png`].
    pub fn encode_png(&self) -> Result<Vec<u8>, RenderError> {
        self.pixmap
            .encode_png()
            .map_err(|e| RenderError::Png(e.to_string()))
    }

    /// Writes the picture to a PNG file.
    ///
    /// # Errors
    /// [`RenderError::Png`] or [`RenderError::Io`].
    pub fn save_png(&self, path: impl AsRef<std::path::Path>) -> Result<(), RenderError> {
        let path = path.as_ref();
        let bytes = self.encode_png()?;
        std::fs::write(path, bytes).map_err(|e| RenderError::Io {
            path: path.display().to_string(),
            message: e.to_string(),
        })
    }

    /// Fills a screen rectangle (pixels from the top-left).
    pub fn fill_screen_rect(&mut self, x: Real, y: Real, width: Real, height: Real, color: Rgba) {
        if let Some(rect) = Rect::from_xywh(x, y, width, height) {
            let mut paint = paint(color);
            paint.anti_alias = false;
            self.pixmap
                .fill_rect(rect, &paint, Transform::identity(), None);
        }
    }

    /// Draws `text` with the built-in font, top-left at screen pixel
    /// `(x, y)`, `scale` screen pixels per font pixel. Returns the width drawn (px).
    pub fn draw_text(&mut self, x: i32, y: i32, text: &str, scale: u32, color: Rgba) -> u32 {
        let scale = scale.max(1);
        let mut lit = Vec::new();
        font::for_each_pixel(text, |fx, fy| lit.push((fx, fy)));
        for (fx, fy) in lit {
            let px = x as Real + (fx * scale) as Real;
            let py = y as Real + (fy * scale) as Real;
            self.fill_screen_rect(px, py, scale as Real, scale as Real, color);
        }
        font::text_width(text, scale)
    }

    fn screen(&self, world: Vec2) -> (Real, Real) {
        let (x, y) = self.camera.to_screen(world);
        let limit = |v: Real, size: u32| {
            if v.is_nan() {
                v
            } else {
                v.clamp(-OFFSCREEN_LIMIT, size as Real + OFFSCREEN_LIMIT)
            }
        };
        (limit(x, self.width()), limit(y, self.height()))
    }
}

impl DebugDraw for Canvas {
    fn draw_polygon(&mut self, points: &[Vec2], closed: bool, style: &Style) {
        let mut builder = PathBuilder::new();
        for (i, p) in points.iter().enumerate() {
            let (x, y) = self.screen(*p);
            if i == 0 {
                builder.move_to(x, y);
            } else {
                builder.line_to(x, y);
            }
        }
        if closed {
            builder.close();
        }
        // `finish` refuses empty paths and non-finite coordinates.
        let Some(path) = builder.finish() else { return };
        if closed && let Some(fill) = style.fill {
            self.pixmap.fill_path(
                &path,
                &paint(fill),
                FillRule::EvenOdd,
                Transform::identity(),
                None,
            );
        }
        if let Some(stroke_color) = style.stroke {
            let stroke = Stroke {
                width: style.width.max(0.1),
                ..Stroke::default()
            };
            self.pixmap.stroke_path(
                &path,
                &paint(stroke_color),
                &stroke,
                Transform::identity(),
                None,
            );
        }
    }

    fn metres_per_pixel(&self) -> Real {
        1.0 / self.camera.pixels_per_metre
    }

    fn draw_circle(&mut self, center: Vec2, radius: Real, style: &Style) {
        let (x, y) = self.screen(center);
        let r = (radius * self.camera.pixels_per_metre).min(4.0 * OFFSCREEN_LIMIT);
        let Some(path) = PathBuilder::from_circle(x, y, r.max(0.5)) else {
            return;
        };
        if let Some(fill) = style.fill {
            self.pixmap.fill_path(
                &path,
                &paint(fill),
                FillRule::Winding,
                Transform::identity(),
                None,
            );
        }
        if let Some(stroke_color) = style.stroke {
            let stroke = Stroke {
                width: style.width.max(0.1),
                ..Stroke::default()
            };
            self.pixmap.stroke_path(
                &path,
                &paint(stroke_color),
                &stroke,
                Transform::identity(),
                None,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;

    #[test]
    fn bad_sizes_are_errors() {
        assert!(Canvas::new(0, 10).is_err());
        assert!(Canvas::new(10, MAX_CANVAS_SIDE + 1).is_err());
        assert!(Canvas::new(1, 1).is_ok());
    }

    #[test]
    fn a_filled_square_covers_its_pixels_and_nothing_else() {
        let mut canvas = Canvas::new(100, 100).unwrap();
        canvas.camera_mut().pixels_per_metre = 10.0;
        let red = Rgba::rgb(255, 0, 0);
        let square = [
            vec2(-1.0, -1.0),
            vec2(1.0, -1.0),
            vec2(1.0, 1.0),
            vec2(-1.0, 1.0),
        ];
        canvas.draw_polygon(&square, true, &Style::fill(red));
        assert_eq!(canvas.pixel(50, 50), Some(red));
        assert_eq!(canvas.pixel(37, 50), Some(canvas.background()));
        assert_eq!(canvas.pixel(50, 62), Some(canvas.background()));
        // y up: a point above the origin is drawn above the centre row.
        canvas.draw_point(vec2(0.0, 3.0), Rgba::rgb(0, 255, 0), 3.0);
        assert_eq!(canvas.pixel(50, 20), Some(Rgba::rgb(0, 255, 0)));
    }

    #[test]
    fn non_finite_and_far_geometry_draws_nothing_and_does_not_panic() {
        let mut canvas = Canvas::new(64, 64).unwrap();
        let style = Style::filled(Rgba::rgb(255, 0, 0), Rgba::rgb(0, 0, 255), 2.0);
        canvas.draw_polygon(&[vec2(f32::NAN, 0.0), vec2(1.0, 1.0)], true, &style);
        canvas.draw_polygon(&[], true, &style);
        canvas.draw_circle(vec2(f32::INFINITY, 0.0), 1.0, &style);
        canvas.draw_circle(vec2(0.0, 0.0), f32::NAN, &style);
        canvas.draw_polygon(
            &[vec2(-1e30, -1e30), vec2(1e30, -1e30), vec2(0.0, 1e30)],
            true,
            &style,
        );
        canvas.draw_circle(vec2(1e20, 0.0), 1e25, &style);
    }

    #[test]
    fn text_is_drawn_in_screen_pixels() {
        let mut canvas = Canvas::new(64, 16).unwrap();
        let white = Rgba::rgb(255, 255, 255);
        let width = canvas.draw_text(1, 1, "1", 2, white);
        assert_eq!(width, 10);
        // The "1" glyph's stem is font column 2, rows 0..7.
        assert_eq!(canvas.pixel(1 + 2 * 2, 1 + 2 * 3), Some(white));
        assert_eq!(canvas.pixel(1, 1 + 2 * 3), Some(canvas.background()));
    }
}
