//! Partition of a region into small pieces, each coverable by one disc.
//!
//! A quadtree over the region's bounding square. For a cell Q, the convex hull
//! of these points contains S ∩ Q: the cell corners inside S, and the end
//! points of every boundary segment clipped to Q (which are the segment end
//! points inside Q and the crossings of the boundary with Q's sides). Those
//! are all the possible vertices of the polygon(s) S ∩ Q, so a disc that holds
//! them holds the whole piece. A cell is split while the best disc for its
//! piece ([`super::disc_fit`]) overhangs by more than the piece target.
//!
//! Termination: a piece in a cell of circumradius ρ fits a disc of radius ρ
//! about the cell centre, which lies within ρ of S, so its overhang bound is
//! at most 2ρ (plus the outline's own offset from the true shape); cells stop
//! splitting once that is below the target.

use super::super::enclosing::DVec;
use super::disc_fit::{FittedDisc, Search, fit_disc, reach};
use super::region::Region;

/// Cell corners this close to the boundary (relative to the region's size)
/// count as inside: f64 rounding of the crossing test must not drop a corner
/// that lies on the outline.
const CORNER_TOLERANCE: f64 = 1e-12;

/// One piece: the hull of S ∩ cell, its best disc, and its cell (to split it).
pub(crate) struct Piece {
    /// Convex hull of the piece (counter-clockwise, f64, local frame).
    pub hull: Vec<DVec>,
    /// The disc of least overhang bound found for this piece.
    pub disc: FittedDisc,
    /// Centre of the quadtree cell.
    pub cell_center: DVec,
    /// Half side of the quadtree cell.
    pub cell_half: f64,
    /// Boundary segments that cross the cell.
    pub segments: Vec<u32>,
}

impl Piece {
    /// The largest radius a disc about this piece's best centre may have.
    pub fn admissible_radius(&self, epsilon: f64) -> f64 {
        (epsilon - (self.disc.overhang - self.disc.radius)).max(self.disc.radius)
    }

    /// The four quarter cells' pieces (empty quarters are left out). A
    /// quarter's hull lies inside its parent's, so the parent's centre still
    /// serves it (with the radius the quarter needs): no new search.
    pub fn split(&self, region: &Region) -> Vec<Piece> {
        let quarter = self.cell_half * 0.5;
        let sd_at_center = self.disc.overhang - self.disc.radius;
        [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
            .into_iter()
            .filter_map(|(dx, dy)| {
                let center = self.cell_center + DVec::new(dx, dy) * quarter;
                let hull = piece_hull(region, center, quarter, &self.segments)?;
                let radius = reach(&hull.0, self.disc.center);
                Some(Piece {
                    hull: hull.0,
                    disc: FittedDisc {
                        center: self.disc.center,
                        radius,
                        overhang: radius + sd_at_center,
                    },
                    cell_center: center,
                    cell_half: quarter,
                    segments: hull.1,
                })
            })
            .collect()
    }
}

/// Convex hull (Andrew's monotone chain), counter-clockwise, without
/// repeated or collinear points; a single point or two points for
/// degenerate input.
pub(crate) fn convex_hull(points: &mut Vec<DVec>) -> Vec<DVec> {
    points.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    points.dedup();
    if points.len() <= 2 {
        return points.clone();
    }
    let cross = |o: DVec, a: DVec, b: DVec| (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
    let mut hull: Vec<DVec> = Vec::with_capacity(points.len() + 1);
    for pass in 0..2 {
        let start = hull.len();
        let iter: Box<dyn Iterator<Item = &DVec>> = if pass == 0 {
            Box::new(points.iter())
        } else {
            Box::new(points.iter().rev())
        };
        for &p in iter {
            while hull.len() >= start + 2
                && cross(hull[hull.len() - 2], hull[hull.len() - 1], p) <= 0.0
            {
                hull.pop();
            }
            hull.push(p);
        }
        hull.pop();
    }
    hull
}

/// Liang–Barsky: the part of segment a–b inside the closed box, if any.
fn clip_segment(a: DVec, b: DVec, lo: DVec, hi: DVec) -> Option<(DVec, DVec)> {
    let d = b - a;
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for (p, q) in [
        (-d.x, a.x - lo.x),
        (d.x, hi.x - a.x),
        (-d.y, a.y - lo.y),
        (d.y, hi.y - a.y),
    ] {
        if p == 0.0 {
            if q < 0.0 {
                return None;
            }
        } else {
            let t = q / p;
            if p < 0.0 {
                t0 = t0.max(t);
            } else {
                t1 = t1.min(t);
            }
            if t0 > t1 {
                return None;
            }
        }
    }
    let start = if t0 == 0.0 { a } else { a + d * t0 };
    let end = if t1 == 1.0 { b } else { a + d * t1 };
    Some((start, end))
}

/// The hull of the piece of the cell centred on `center` with half side
/// `half` and the segments crossing the cell, if the region meets the cell;
/// `candidates` are the segments that may cross it.
fn piece_hull(
    region: &Region,
    center: DVec,
    half: f64,
    candidates: &[u32],
) -> Option<(Vec<DVec>, Vec<u32>)> {
    let lo = center - DVec::repeat(half);
    let hi = center + DVec::repeat(half);
    let mut points = Vec::new();
    let mut segments = Vec::new();
    for &id in candidates {
        let [a, b] = region.segments[id as usize];
        if let Some((p, q)) = clip_segment(a, b, lo, hi) {
            points.push(p);
            points.push(q);
            segments.push(id);
        }
    }
    let corners = [lo, DVec::new(hi.x, lo.y), hi, DVec::new(lo.x, hi.y)];
    if segments.is_empty() {
        // No boundary crosses the cell: wholly inside or wholly outside.
        if !region.inside(center) {
            return None;
        }
        points.extend_from_slice(&corners);
    } else {
        let corner_tolerance = CORNER_TOLERANCE * region.size();
        for corner in corners {
            let near_boundary = segments.iter().any(|&id| {
                let [a, b] = region.segments[id as usize];
                super::region::segment_distance(corner, a, b) <= corner_tolerance
            });
            if near_boundary || region.inside(corner) {
                points.push(corner);
            }
        }
    }
    Some((convex_hull(&mut points), segments))
}

/// The piece of the cell centred on `center` with half side `half`, with its
/// best disc, if the region meets the cell.
pub(crate) fn make_piece(
    region: &Region,
    center: DVec,
    half: f64,
    candidates: &[u32],
) -> Option<Piece> {
    let (hull, segments) = piece_hull(region, center, half, candidates)?;
    let disc = fit_disc(region, &hull, Search::FULL);
    Some(Piece {
        hull,
        disc,
        cell_center: center,
        cell_half: half,
        segments,
    })
}

/// Splits the region into pieces whose best disc overhangs by at most `target`.
pub(crate) fn partition(region: &Region, target: f64) -> Vec<Piece> {
    let center = (region.lo + region.hi) * 0.5;
    let half = 0.5 * (region.hi - region.lo).max() * (1.0 + 1e-9) + 1e-300;
    // 2ρ + outline offset <= target guarantees a fit (see module docs).
    let min_half = target / (2.0 * std::f64::consts::SQRT_2) * 0.5;
    let all: Vec<u32> = (0..region.segments.len() as u32).collect();
    let mut pieces = Vec::new();
    let mut stack: Vec<Piece> = make_piece(region, center, half, &all).into_iter().collect();
    while let Some(piece) = stack.pop() {
        if piece.disc.overhang <= target || piece.cell_half <= min_half {
            pieces.push(piece);
        } else {
            let quarter = piece.cell_half * 0.5;
            for (dx, dy) in [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)] {
                let center = piece.cell_center + DVec::new(dx, dy) * quarter;
                stack.extend(make_piece(region, center, quarter, &piece.segments));
            }
        }
    }
    pieces
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hull_drops_inner_and_collinear_points() {
        let mut points = vec![
            DVec::new(0.0, 0.0),
            DVec::new(1.0, 0.0),
            DVec::new(2.0, 0.0),
            DVec::new(2.0, 2.0),
            DVec::new(1.0, 1.0),
            DVec::new(0.0, 2.0),
            DVec::new(0.0, 2.0),
        ];
        let hull = convex_hull(&mut points);
        assert_eq!(hull.len(), 4);
    }

    #[test]
    fn clipping_keeps_touching_segments() {
        let (lo, hi) = (DVec::new(0.0, 0.0), DVec::new(1.0, 1.0));
        let touching = clip_segment(DVec::new(1.0, -1.0), DVec::new(1.0, 2.0), lo, hi);
        assert_eq!(touching, Some((DVec::new(1.0, 0.0), DVec::new(1.0, 1.0))));
        assert_eq!(
            clip_segment(DVec::new(1.5, -1.0), DVec::new(1.5, 2.0), lo, hi),
            None
        );
        let inside = clip_segment(DVec::new(0.2, 0.3), DVec::new(0.4, 0.5), lo, hi);
        assert_eq!(inside, Some((DVec::new(0.2, 0.3), DVec::new(0.4, 0.5))));
    }
}
