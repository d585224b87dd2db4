//! Sample outlines shared by the fit report example, the benches and the
//! tests: a unit disc, a 4:1 bar, an L-shape, a five-pointed star, a ship
//! sprite's alpha mask and a small mask with a one-pixel island, plus a
//! 64-leaf body for the query benches. All are
//! centred near the local origin; `size` is half the larger side of the
//! bounding box (the unit ε scales with).

use super::{AlphaMask, CircleTree};
use crate::math::{Real, Vec2, vec2};
use crate::shape::Circle;
use crate::shape::{Aabb, Capsule, ConvexPolygon, SimplePolygon};

/// A unit disc as a regular 256-gon (size 1).
pub fn unit_disc() -> ConvexPolygon {
    ConvexPolygon::regular(256, 1.0, 0.0).unwrap_or_else(|_| unreachable!("constant outline"))
}

/// A 2:1 ellipse (semi-axes 1 and 0.5) as a 256-gon (size 1): a smooth
/// outline whose curvature varies.
pub fn ellipse() -> ConvexPolygon {
    let points: Vec<Vec2> = (0..256)
        .map(|i| {
            let a = std::f32::consts::TAU * i as Real / 256.0;
            vec2(a.cos(), 0.5 * a.sin())
        })
        .collect();
    ConvexPolygon::new(&points).unwrap_or_else(|_| unreachable!("constant outline"))
}

/// A 4:1 bar, 4 by 1 (size 2).
pub fn bar() -> Aabb {
    Aabb::new(vec2(-2.0, -0.5), vec2(2.0, 0.5)).unwrap_or_else(|_| unreachable!("constant outline"))
}

/// A capsule 3 long overall, radius 0.5 (size 1.5).
pub fn capsule() -> Capsule {
    Capsule::new(vec2(-1.0, 0.0), vec2(1.0, 0.0), 0.5)
        .unwrap_or_else(|_| unreachable!("constant outline"))
}

/// An L-shape in a 2 by 2 square with a 1 by 1 notch (size 1).
pub fn l_shape() -> SimplePolygon {
    let points = [
        vec2(-1.0, -1.0),
        vec2(1.0, -1.0),
        vec2(1.0, 0.0),
        vec2(0.0, 0.0),
        vec2(0.0, 1.0),
        vec2(-1.0, 1.0),
    ];
    SimplePolygon::new(&points).unwrap_or_else(|_| unreachable!("constant outline"))
}

/// A five-pointed star, outer radius 1, inner radius 0.45 (size about 1).
pub fn star() -> SimplePolygon {
    let points: Vec<Vec2> = (0..10)
        .map(|i| {
            let radius = if i % 2 == 0 { 1.0 } else { 0.45 };
            let a = std::f32::consts::FRAC_PI_2 + std::f32::consts::TAU * i as Real / 10.0;
            vec2(radius * a.cos(), radius * a.sin())
        })
        .collect();
    SimplePolygon::new(&points).unwrap_or_else(|_| unreachable!("constant outline"))
}

/// True if the point (in a frame where the ship spans x in [-1, 1]) is on the ship.
fn on_ship(x: Real, y: Real) -> bool {
    let fuselage = (x / 0.95).powi(2) + (y / 0.16).powi(2) <= 1.0;
    // Swept wings: a quadrilateral per side, root 0.5 long, tip further back.
    let wing = |y: Real| {
        let t = y.abs();
        t <= 0.72
            && x <= 0.25 - 0.55 * t
            && x >= -0.25 - 0.55 * t.min(0.6) - 0.2 * (t - 0.6).max(0.0) * 5.0
    };
    // Tail planes: a small swept wing at the back.
    let tail = {
        let t = y.abs();
        t <= 0.3 && x <= -0.62 - 0.45 * t && x >= -0.9 - 0.2 * t
    };
    // A cockpit window cut out of the fuselage (a hole in the mask).
    let window = ((x - 0.55) / 0.12).powi(2) + (y / 0.05).powi(2) <= 1.0;
    (fuselage || wing(y) || tail) && !window
}

/// A ship silhouette sprite, `width` pixels wide and `width / 2` high, with
/// anti-aliased alpha (4 × 4 supersampling) and threshold 128; pixel size
/// `2 / width`, so the ship spans about 2 local units (size 1).
pub fn ship_mask(width: usize) -> AlphaMask {
    let width = width.max(8);
    let height = width / 2;
    let pixel = 2.0 / width as Real;
    let mut alpha = Vec::with_capacity(width * height);
    for row in 0..height {
        for col in 0..width {
            let mut hits = 0u32;
            for sy in 0..4 {
                for sx in 0..4 {
                    let x = -1.0 + (col as Real + (sx as Real + 0.5) / 4.0) * pixel;
                    let y = 0.5 - (row as Real + (sy as Real + 0.5) / 4.0) * pixel;
                    hits += u32::from(on_ship(x, y));
                }
            }
            alpha.push((hits * 255 / 16) as u8);
        }
    }
    AlphaMask::new(width, height, alpha, 128, pixel)
        .unwrap_or_else(|_| unreachable!("the ship is drawn"))
}

/// An 8 × 14 mask (pixel 0.6213179, threshold 1): a blob in columns 0–3
/// and a one-pixel island (column 5, rows 2 to 4) whose bottom edge lies on
/// a line of the fitting quadtree at this pixel size. Quarter cells that
/// reached an ulp past their parent once lost that edge, and a fit at
/// ε = 0.24989435 · pixel · 7 left a strip along it bare.
pub fn island_mask() -> AlphaMask {
    #[rustfmt::skip]
    let solid: [u8; 112] = [
        1, 1, 1, 0, 0, 0, 0, 0,
        1, 1, 1, 1, 0, 0, 0, 0,
        1, 1, 1, 1, 0, 1, 0, 0,
        1, 1, 1, 1, 0, 1, 0, 0,
        1, 1, 1, 1, 0, 1, 0, 0,
        1, 1, 1, 1, 0, 0, 0, 0,
        1, 1, 1, 1, 0, 0, 0, 0,
        1, 1, 1, 0, 0, 0, 0, 0,
        1, 1, 1, 0, 0, 0, 0, 0,
        1, 1, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0,
    ];
    let alpha = solid.iter().map(|&s| s * 255).collect();
    AlphaMask::new(8, 14, alpha, 1, 0.6213179).unwrap_or_else(|_| unreachable!("the blob is solid"))
}

/// A body of exactly 64 leaf circles: 16 columns of 4, 0.3 apart along x,
/// spread across an ellipse of semi-axes 2.4 and 1.0, radius 0.22; grouped
/// with branching 4. The tree of the query benches.
pub fn body_64() -> CircleTree {
    let leaves: Vec<Circle> = (0..64)
        .map(|i| {
            let x = -2.25 + 0.3 * (i / 4) as Real;
            let half_height = (1.0 - (x / 2.4).powi(2)).max(0.0).sqrt();
            let y = (-0.75 + 0.5 * (i % 4) as Real) * half_height;
            Circle::new(vec2(x, y), 0.22).unwrap_or_else(|_| unreachable!("constant circle"))
        })
        .collect();
    CircleTree::from_leaves(&leaves, 4).unwrap_or_else(|_| unreachable!("64 valid leaves"))
}
