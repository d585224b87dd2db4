//! Validation shared by the polygon constructors: finiteness, point count,
//! repeated and collinear points, orientation.
//!
//! Tolerances are relative to the outline's size so that validation behaves
//! the same at any scale.

use super::error::{ShapeError, check_finite_vec};
use crate::math::{Real, Vec2, cross};

/// Two consecutive points closer than this fraction of the outline's extent
/// count as repeated: below it, edge normals lose all precision in f32.
pub const REPEATED_POINT_TOLERANCE: Real = 1e-6;

/// A turn whose sine is below this (|cross| / (|e1| |e2|)) counts as no turn:
/// about 0.006°, where f32 normals of the two edges become indistinguishable.
pub const COLLINEAR_TOLERANCE: Real = 1e-4;

/// Twice the signed area of an outline (positive when counter-clockwise).
pub fn twice_signed_area(points: &[Vec2]) -> Real {
    let n = points.len();
    let origin = points[0];
    let mut sum = 0.0;
    for i in 1..n.saturating_sub(1) {
        sum += cross(points[i] - origin, points[i + 1] - origin);
    }
    sum
}

/// Checks finiteness, point count and repeated consecutive points; returns
/// the length of the bounding box diagonal.
pub fn check_points(points: &[Vec2]) -> Result<Real, ShapeError> {
    for (i, p) in points.iter().enumerate() {
        check_finite_vec("vertex", *p, Some(i))?;
    }
    let n = points.len();
    if n < 3 {
        return Err(ShapeError::TooFewPoints { count: n });
    }
    let mut lo = points[0];
    let mut hi = points[0];
    for p in points {
        lo = lo.inf(p);
        hi = hi.sup(p);
    }
    let extent = (hi - lo).norm();
    let repeat_tolerance = extent * REPEATED_POINT_TOLERANCE;
    for i in 0..n {
        let next = (i + 1) % n;
        if (points[next] - points[i]).norm() <= repeat_tolerance {
            return Err(ShapeError::RepeatedPoint {
                index: next,
                previous: i,
            });
        }
    }
    Ok(extent)
}

/// Checks finiteness, count, repeats and degeneracy, and returns the outline
/// counter-clockwise together with a map from new index to input index.
pub fn normalize_outline(points: &[Vec2]) -> Result<(Vec<Vec2>, Vec<usize>), ShapeError> {
    let extent = check_points(points)?;
    let n = points.len();
    let area2 = twice_signed_area(points);
    // All points on one line: the enclosed area is a rounding error of the extent.
    if area2.abs() <= extent * extent * COLLINEAR_TOLERANCE * 1e-2 {
        return Err(ShapeError::Degenerate);
    }
    let mut order: Vec<usize> = (0..n).collect();
    if area2 < 0.0 {
        // Reverse but keep the first point first: 0, n-1, n-2, ..., 1.
        order.reverse();
        order.rotate_right(1);
    }
    let outline = order.iter().map(|&i| points[i]).collect();
    Ok((outline, order))
}

/// Signed sine of the turn at `curr` (positive: left turn).
pub fn turn_sine(prev: Vec2, curr: Vec2, next: Vec2) -> Real {
    let e1 = curr - prev;
    let e2 = next - curr;
    cross(e1, e2) / (e1.norm() * e2.norm())
}

/// Rejects points that make no turn (collinear with their neighbours).
pub fn reject_collinear(outline: &[Vec2], original_index: &[usize]) -> Result<(), ShapeError> {
    let n = outline.len();
    for i in 0..n {
        let s = turn_sine(outline[(i + n - 1) % n], outline[i], outline[(i + 1) % n]);
        let straight_on = s.abs() <= COLLINEAR_TOLERANCE
            && (outline[i] - outline[(i + n - 1) % n]).dot(&(outline[(i + 1) % n] - outline[i]))
                > 0.0;
        let spike = s.abs() <= COLLINEAR_TOLERANCE && !straight_on;
        if straight_on || spike {
            return Err(ShapeError::CollinearPoint {
                index: original_index[i],
            });
        }
    }
    Ok(())
}

/// True when segments `a0`–`a1` and `b0`–`b1` share any point (touching counts).
pub fn segments_touch(a0: Vec2, a1: Vec2, b0: Vec2, b1: Vec2) -> bool {
    let d1 = cross(a1 - a0, b0 - a0);
    let d2 = cross(a1 - a0, b1 - a0);
    let d3 = cross(b1 - b0, a0 - b0);
    let d4 = cross(b1 - b0, a1 - b0);
    if ((d1 > 0.0 && d2 < 0.0) || (d1 < 0.0 && d2 > 0.0))
        && ((d3 > 0.0 && d4 < 0.0) || (d3 < 0.0 && d4 > 0.0))
    {
        return true;
    }
    let on = |p: Vec2, q0: Vec2, q1: Vec2, d: Real| {
        d == 0.0
            && p.x >= q0.x.min(q1.x)
            && p.x <= q0.x.max(q1.x)
            && p.y >= q0.y.min(q1.y)
            && p.y <= q0.y.max(q1.y)
    };
    on(b0, a0, a1, d1) || on(b1, a0, a1, d2) || on(a0, b0, b1, d3) || on(a1, b0, b1, d4)
}
