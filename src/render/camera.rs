//! [`Camera`]: world metres (y up) to screen pixels (y down), with pan and zoom.
//!
//! `screen = (width/2 + (x − cx)·k, height/2 − (y − cy)·k)` with `k` pixels
//! per metre and `(cx, cy)` the world point at the centre of the screen.

use crate::math::{Real, Vec2, vec2};

/// Fewest pixels per metre a camera zooms out to (a view ~100 km across).
pub const MIN_PIXELS_PER_METRE: Real = 0.01;
/// Most pixels per metre a camera zooms in to (a millimetre is 10 px).
pub const MAX_PIXELS_PER_METRE: Real = 10_000.0;

/// Maps world points to screen pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera {
    /// World point at the centre of the screen (m).
    pub center: Vec2,
    /// Zoom: screen pixels per metre.
    pub pixels_per_metre: Real,
    /// Screen width (px).
    pub width: u32,
    /// Screen height (px).
    pub height: u32,
}

impl Camera {
    /// A camera on a `width`×`height` screen looking at the origin, 40 px/m.
    pub fn new(width: u32, height: u32) -> Camera {
        Camera {
            center: Vec2::zeros(),
            pixels_per_metre: 40.0,
            width,
            height,
        }
    }

    /// Screen pixel coordinates (x right, y down) of a world point.
    pub fn to_screen(&self, world: Vec2) -> (Real, Real) {
        let k = self.pixels_per_metre;
        (
            self.width as Real * 0.5 + (world.x - self.center.x) * k,
            self.height as Real * 0.5 - (world.y - self.center.y) * k,
        )
    }

    /// The world point under screen pixel `(x, y)`.
    pub fn to_world(&self, x: Real, y: Real) -> Vec2 {
        let k = self.pixels_per_metre;
        vec2(
            self.center.x + (x - self.width as Real * 0.5) / k,
            self.center.y - (y - self.height as Real * 0.5) / k,
        )
    }

    /// Moves the view so that the scene follows a drag of `(dx, dy)` pixels.
    pub fn pan_pixels(&mut self, dx: Real, dy: Real) {
        if dx.is_finite() && dy.is_finite() {
            self.center -= vec2(dx, -dy) / self.pixels_per_metre;
        }
    }

    /// Zooms by `factor` (> 1 zooms in) keeping the world point under screen
    /// pixel `(x, y)` where it is; the zoom stays within
    /// [`MIN_PIXELS_PER_METRE`, `MAX_PIXELS_PER_METRE`].
    pub fn zoom_at(&mut self, x: Real, y: Real, factor: Real) {
        if !(factor.is_finite() && factor > 0.0 && x.is_finite() && y.is_finite()) {
            return;
        }
        let anchor = self.to_world(x, y);
        self.pixels_per_metre =
            (self.pixels_per_metre * factor).clamp(MIN_PIXELS_PER_METRE, MAX_PIXELS_PER_METRE);
        let moved = self.to_world(x, y);
        self.center += anchor - moved;
    }

    /// Looks at `center` with `height` metres visible from bottom to top.
    pub fn show(&mut self, center: Vec2, height: Real) {
        if crate::math::is_finite_vec(center) && height.is_finite() && height > 0.0 {
            self.center = center;
            self.pixels_per_metre = (self.height.max(1) as Real / height)
                .clamp(MIN_PIXELS_PER_METRE, MAX_PIXELS_PER_METRE);
        }
    }

    /// Fits the world box `min`–`max` on screen with `margin` (a fraction of
    /// the screen, e.g. 0.05) left free on every side.
    pub fn fit(&mut self, min: Vec2, max: Vec2, margin: Real) {
        let size = max - min;
        if !(crate::math::is_finite_vec(min) && crate::math::is_finite_vec(max)) {
            return;
        }
        let usable = (1.0 - 2.0 * margin.clamp(0.0, 0.45)).max(0.1);
        let kx = self.width.max(1) as Real * usable / size.x.max(1e-3);
        let ky = self.height.max(1) as Real * usable / size.y.max(1e-3);
        self.center = (min + max) * 0.5;
        self.pixels_per_metre = kx.min(ky).clamp(MIN_PIXELS_PER_METRE, MAX_PIXELS_PER_METRE);
    }

    /// The world box visible on screen: (lower-left, upper-right).
    pub fn visible(&self) -> (Vec2, Vec2) {
        (
            self.to_world(0.0, self.height as Real),
            self.to_world(self.width as Real, 0.0),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn screen_and_world_round_trip_with_y_up() {
        let mut camera = Camera::new(800, 600);
        camera.center = vec2(3.0, -2.0);
        camera.pixels_per_metre = 25.0;
        let p = vec2(4.0, -1.0);
        let (x, y) = camera.to_screen(p);
        assert_eq!(
            (x, y),
            (425.0, 275.0),
            "one metre up is 25 px up the screen"
        );
        assert!((camera.to_world(x, y) - p).norm() < 1e-5);
    }

    #[test]
    fn zoom_keeps_the_point_under_the_cursor() {
        let mut camera = Camera::new(640, 480);
        let before = camera.to_world(100.0, 50.0);
        camera.zoom_at(100.0, 50.0, 1.7);
        assert!((camera.to_world(100.0, 50.0) - before).norm() < 1e-4);
        assert!((camera.pixels_per_metre - 68.0).abs() < 1e-4);
        camera.zoom_at(100.0, 50.0, f32::NAN);
        assert!((camera.pixels_per_metre - 68.0).abs() < 1e-4);
        camera.zoom_at(0.0, 0.0, 1e30);
        assert_eq!(camera.pixels_per_metre, MAX_PIXELS_PER_METRE);
    }

    #[test]
    fn pan_moves_the_scene_with_the_drag() {
        let mut camera = Camera::new(640, 480);
        let grabbed = camera.to_world(300.0, 200.0);
        camera.pan_pixels(40.0, -30.0);
        assert!((camera.to_world(340.0, 170.0) - grabbed).norm() < 1e-5);
    }

    #[test]
    fn fit_shows_the_whole_box() {
        let mut camera = Camera::new(800, 400);
        camera.fit(vec2(-10.0, 0.0), vec2(10.0, 4.0), 0.05);
        let (lo, hi) = camera.visible();
        assert!(lo.x <= -10.0 && lo.y <= 0.0 && hi.x >= 10.0 && hi.y >= 4.0);
        assert!(hi.x - lo.x < 25.0, "not zoomed out further than needed");
    }
}
