//! [`AlphaMask`]: a sprite's alpha channel as an outline to fit.
//!
//! The true shape of a mask is the union of its opaque pixels (alpha >=
//! threshold), each a closed square of side `pixel_size`. Local frame: the
//! bitmap's centre is the origin, x to the right, y up; row 0 is the top row.

use super::super::TreeError;
use super::super::enclosing::DVec;
use super::region::{Inside, Region, Truth};
use crate::math::{Real, Vec2};
use crate::shape::MassProperties;

/// A `width × height` alpha bitmap with its threshold and pixel size.
#[derive(Clone, Debug, PartialEq)]
pub struct AlphaMask {
    width: usize,
    height: usize,
    alpha: Vec<u8>,
    threshold: u8,
    pixel_size: Real,
}

impl AlphaMask {
    /// A mask over `alpha` (row-major, row 0 at the top, `width * height`
    /// bytes); a pixel is solid when its alpha is >= `threshold`; each pixel
    /// is a square of `pixel_size` local units.
    ///
    /// # Errors
    /// [`TreeError::InvalidThreshold`] for a threshold of 0,
    /// [`TreeError::InvalidParameter`] naming `pixel_size` when it is not
    /// finite and > 0, [`TreeError::MaskSizeMismatch`] when the buffer does not
    /// hold `width * height` bytes, [`TreeError::AllTransparent`] when no pixel
    /// reaches the threshold (an empty mask included).
    ///
    /// # Examples
    /// ```
    /// use circlet::shape::{AlphaMask, TreeError};
    /// let mask = AlphaMask::new(2, 2, vec![0, 255, 255, 255], 128, 0.5).unwrap();
    /// assert_eq!(mask.solid_count(), 3);
    /// assert!(matches!(
    ///     AlphaMask::new(2, 2, vec![0; 3], 128, 0.5),
    ///     Err(TreeError::MaskSizeMismatch { expected: 4, actual: 3, .. })
    /// ));
    /// ```
    pub fn new(
        width: usize,
        height: usize,
        alpha: Vec<u8>,
        threshold: u8,
        pixel_size: Real,
    ) -> Result<AlphaMask, TreeError> {
        if threshold == 0 {
            return Err(TreeError::InvalidThreshold { threshold });
        }
        if !(pixel_size.is_finite() && pixel_size > 0.0) {
            return Err(TreeError::InvalidParameter {
                field: "pixel_size",
                value: pixel_size,
            });
        }
        let expected = width.checked_mul(height);
        if expected != Some(alpha.len()) {
            return Err(TreeError::MaskSizeMismatch {
                width,
                height,
                expected: expected.unwrap_or(usize::MAX),
                actual: alpha.len(),
            });
        }
        if !alpha.iter().any(|&a| a >= threshold) {
            return Err(TreeError::AllTransparent { threshold });
        }
        Ok(AlphaMask {
            width,
            height,
            alpha,
            threshold,
            pixel_size,
        })
    }

    /// Width in pixels.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Height in pixels.
    pub fn height(&self) -> usize {
        self.height
    }

    /// Side of one pixel (local units).
    pub fn pixel_size(&self) -> Real {
        self.pixel_size
    }

    /// The alpha threshold: pixels at or above it are solid.
    pub fn threshold(&self) -> u8 {
        self.threshold
    }

    /// True if the pixel exists and is solid.
    pub fn is_solid(&self, col: usize, row: usize) -> bool {
        col < self.width
            && row < self.height
            && self.alpha[row * self.width + col] >= self.threshold
    }

    /// Number of solid pixels.
    pub fn solid_count(&self) -> usize {
        self.alpha.iter().filter(|&&a| a >= self.threshold).count()
    }

    /// x of the vertical pixel edge `k` (0 = left side), local frame. Every
    /// use of the mask's geometry goes through these two functions, so the
    /// covered outline, the mass and [`AlphaMask::pixel_rect`] agree exactly.
    fn edge_x(&self, k: usize) -> Real {
        ((k as f64 - self.width as f64 * 0.5) * self.pixel_size as f64) as Real
    }

    /// y of the horizontal pixel edge `k` (0 = top side), local frame.
    fn edge_y(&self, k: usize) -> Real {
        ((self.height as f64 * 0.5 - k as f64) * self.pixel_size as f64) as Real
    }

    /// The local rectangle `(min, max)` of a pixel (local frame, y up).
    pub fn pixel_rect(&self, col: usize, row: usize) -> (Vec2, Vec2) {
        (
            Vec2::new(self.edge_x(col), self.edge_y(row + 1)),
            Vec2::new(self.edge_x(col + 1), self.edge_y(row)),
        )
    }

    /// Mass properties of the solid pixels (unit density, local frame).
    pub fn mass_properties(&self) -> MassProperties {
        let (mut area, mut first, mut second) = (0.0, DVec::zeros(), 0.0);
        for row in 0..self.height {
            for col in 0..self.width {
                if self.is_solid(col, row) {
                    let (lo, hi) = self.pixel_rect(col, row);
                    let (w, h) = ((hi.x - lo.x) as f64, (hi.y - lo.y) as f64);
                    let center = DVec::new(
                        (lo.x as f64 + hi.x as f64) * 0.5,
                        (lo.y as f64 + hi.y as f64) * 0.5,
                    );
                    let a = w * h;
                    area += a;
                    first += center * a;
                    // A w × h rectangle: polar moment a (w² + h²) / 12 about its centre.
                    second += a * center.norm_squared() + a * (w * w + h * h) / 12.0;
                }
            }
        }
        let centroid = first / area;
        MassProperties {
            area: area as Real,
            centroid: Vec2::new(centroid.x as Real, centroid.y as Real),
            inertia: (second - area * centroid.norm_squared()) as Real,
        }
    }

    /// The region of the solid pixels: boundary edges between a solid and a
    /// clear pixel, merged into maximal straight runs.
    pub(crate) fn region(&self) -> Region {
        let x = |k: usize| self.edge_x(k) as f64;
        let y = |k: usize| self.edge_y(k) as f64;
        let solid = |col: isize, row: isize| {
            col >= 0 && row >= 0 && self.is_solid(col as usize, row as usize)
        };
        let mut segments = Vec::new();
        // Horizontal edge line k lies between rows k − 1 and k.
        for k in 0..=self.height {
            let mut run: Option<usize> = None;
            for col in 0..=self.width {
                let edge = col < self.width
                    && solid(col as isize, k as isize - 1) != solid(col as isize, k as isize);
                match (edge, run) {
                    (true, None) => run = Some(col),
                    (false, Some(start)) => {
                        segments.push([DVec::new(x(start), y(k)), DVec::new(x(col), y(k))]);
                        run = None;
                    }
                    _ => {}
                }
            }
        }
        // Vertical edge line k lies between columns k − 1 and k.
        for k in 0..=self.width {
            let mut run: Option<usize> = None;
            for row in 0..=self.height {
                let edge = row < self.height
                    && solid(k as isize - 1, row as isize) != solid(k as isize, row as isize);
                match (edge, run) {
                    (true, None) => run = Some(row),
                    (false, Some(start)) => {
                        segments.push([DVec::new(x(k), y(start)), DVec::new(x(k), y(row))]);
                        run = None;
                    }
                    _ => {}
                }
            }
        }
        let opaque = self.alpha.iter().map(|&a| a >= self.threshold).collect();
        let inside = Inside::Pixels {
            width: self.width,
            height: self.height,
            opaque,
            columns: (0..=self.width).map(x).collect(),
            rows: (0..=self.height).map(y).collect(),
        };
        Region::new(segments, inside, Truth::Outline, self.mass_properties())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_masks_are_typed_errors() {
        assert_eq!(
            AlphaMask::new(2, 2, vec![255; 4], 0, 1.0),
            Err(TreeError::InvalidThreshold { threshold: 0 })
        );
        assert!(matches!(
            AlphaMask::new(2, 2, vec![255; 4], 1, f32::NAN),
            Err(TreeError::InvalidParameter {
                field: "pixel_size",
                ..
            })
        ));
        assert!(matches!(
            AlphaMask::new(2, 2, vec![255; 4], 1, -1.0),
            Err(TreeError::InvalidParameter {
                field: "pixel_size",
                ..
            })
        ));
        assert_eq!(
            AlphaMask::new(3, 2, vec![255; 5], 1, 1.0),
            Err(TreeError::MaskSizeMismatch {
                width: 3,
                height: 2,
                expected: 6,
                actual: 5
            })
        );
        assert!(matches!(
            AlphaMask::new(usize::MAX, 2, vec![], 1, 1.0),
            Err(TreeError::MaskSizeMismatch {
                expected: usize::MAX,
                ..
            })
        ));
        assert_eq!(
            AlphaMask::new(2, 2, vec![10, 20, 30, 127], 128, 1.0),
            Err(TreeError::AllTransparent { threshold: 128 })
        );
        assert_eq!(
            AlphaMask::new(0, 0, vec![], 1, 1.0),
            Err(TreeError::AllTransparent { threshold: 1 })
        );
    }

    #[test]
    fn region_of_a_plus_sign_has_its_twelve_edges() {
        #[rustfmt::skip]
        let alpha = vec![
            0, 255, 0,
            255, 255, 255,
            0, 255, 0,
        ];
        let mask = AlphaMask::new(3, 3, alpha, 128, 1.0).unwrap();
        let region = mask.region();
        assert_eq!(region.segments.len(), 12);
        let perimeter: f64 = region.segments.iter().map(|[a, b]| (b - a).norm()).sum();
        assert!((perimeter - 12.0).abs() < 1e-12);
        assert!(region.inside(DVec::new(0.0, 0.0)));
        assert!(!region.inside(DVec::new(1.2, 1.2)));
        // The nearest boundary points from the centre are the four reflex corners.
        assert!((region.sd(DVec::new(0.0, 0.0)) + 0.5f64.sqrt()).abs() < 1e-12);
        let mass = mask.mass_properties();
        assert!((mass.area - 5.0).abs() < 1e-6 && mass.centroid.norm() < 1e-6);
        // Five unit squares: 5/6 about their own centres + 4 · 1² offsets.
        assert!((mass.inertia - (5.0 / 6.0 + 4.0)).abs() < 1e-5);
    }
}
