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
//! Quarter cells are cut at their parent's midpoint, so every cell's closed
//! box lies exactly inside its parent's and the parent's crossing segments
//! are all the candidates a quarter needs (see [`Cell::quarters`]).
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

/// A quadtree cell: a closed square box (f64, local frame).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Cell {
    pub lo: DVec,
    pub hi: DVec,
}

impl Cell {
    /// Half the side of the cell.
    pub fn half(&self) -> f64 {
        0.5 * (self.hi.x - self.lo.x)
    }

    /// The four quarters, cut at the midpoint.
    ///
    /// Each quarter's box lies exactly inside this one: `lo <= (lo + hi) / 2
    /// <= hi` holds in f64 (rounding is monotone and halving `2 lo` is exact),
    /// and clipping a segment to a box ([`clip_segment`]) is monotone in the
    /// box under correctly rounded arithmetic, so a segment that meets a
    /// quarter also met this cell and is among its crossing segments. A
    /// quarter built as `centre ± half / 2` instead can reach an ulp past
    /// this cell: a boundary segment lying along that side then meets the
    /// quarter but is missing from its candidates, the corner on it (whose
    /// inside test may go either way on the boundary) is dropped, and the
    /// piece's hull loses a strip of the region that no leaf is then made
    /// to hold.
    pub fn quarters(&self) -> [Cell; 4] {
        let mid = (self.lo + self.hi) * 0.5;
        [
            Cell {
                lo: self.lo,
                hi: mid,
            },
            Cell {
                lo: DVec::new(mid.x, self.lo.y),
                hi: DVec::new(self.hi.x, mid.y),
            },
            Cell {
                lo: mid,
                hi: self.hi,
            },
            Cell {
                lo: DVec::new(self.lo.x, mid.y),
                hi: DVec::new(mid.x, self.hi.y),
            },
        ]
    }
}

/// One piece: the hull of S ∩ cell, its best disc, and its cell (to split it).
pub(crate) struct Piece {
    /// Convex hull of the piece (counter-clockwise, f64, local frame).
    pub hull: Vec<DVec>,
    /// The disc of least overhang bound found for this piece.
    pub disc: FittedDisc,
    /// The quadtree cell.
    pub cell: Cell,
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
        let sd_at_center = self.disc.overhang - self.disc.radius;
        self.cell
            .quarters()
            .into_iter()
            .filter_map(|cell| {
                let hull = piece_hull(region, cell, &self.segments)?;
                let radius = reach(&hull.0, self.disc.center);
                Some(Piece {
                    hull: hull.0,
                    disc: FittedDisc {
                        center: self.disc.center,
                        radius,
                        overhang: radius + sd_at_center,
                    },
                    cell,
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

/// The hull of the piece of `cell` and the segments crossing the cell, if
/// the region meets the cell; `candidates` must hold every segment that meets
/// the cell's closed box (those crossing a cell that contains it).
fn piece_hull(region: &Region, cell: Cell, candidates: &[u32]) -> Option<(Vec<DVec>, Vec<u32>)> {
    let Cell { lo, hi } = cell;
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
        if !region.inside((lo + hi) * 0.5) {
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

/// The piece of `cell`, with its best disc, if the region meets the cell.
pub(crate) fn make_piece(region: &Region, cell: Cell, candidates: &[u32]) -> Option<Piece> {
    let (hull, segments) = piece_hull(region, cell, candidates)?;
    let disc = fit_disc(region, &hull, Search::FULL);
    Some(Piece {
        hull,
        disc,
        cell,
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
    let root = Cell {
        lo: center - DVec::repeat(half),
        hi: center + DVec::repeat(half),
    };
    let mut stack: Vec<Piece> = make_piece(region, root, &all).into_iter().collect();
    while let Some(piece) = stack.pop() {
        if piece.disc.overhang <= target || piece.cell.half() <= min_half {
            pieces.push(piece);
        } else {
            for cell in piece.cell.quarters() {
                stack.extend(make_piece(region, cell, &piece.segments));
            }
        }
    }
    pieces
}

#[cfg(test)]
mod tests {
    use super::super::{AlphaMask, PIECE_TARGET_FRACTION, cover::hull_distance};
    use super::*;
    use crate::shape::MassProperties;

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

    /// The island mask's piece target: the fit's for ε = 0.24989435 · pixel · 14 / 2.
    fn island_target(mask: &AlphaMask) -> f64 {
        (0.24989435 * mask.pixel_size() * 7.0) as f64 * PIECE_TARGET_FRACTION
    }

    /// The partition's pieces and, for each, the quarters the fill would make.
    fn pieces_and_quarters(region: &Region, target: f64) -> Vec<Piece> {
        let pieces = partition(region, target);
        let quarters: Vec<Piece> = pieces.iter().flat_map(|p| p.split(region)).collect();
        pieces.into_iter().chain(quarters).collect()
    }

    /// Every solid pixel clipped to a piece's cell lies in the piece's hull,
    /// for the pieces of the partition and their fill quarters.
    #[test]
    fn piece_hulls_hold_every_solid_pixel_inside_their_cells() {
        let mask = crate::shape::circle_tree::samples::island_mask();
        let region = mask.region();
        let pieces = pieces_and_quarters(&region, island_target(&mask));
        // Clipped end points are rounded: the cover's slack, relative to the size.
        let tolerance = 1e-12 * region.size();
        let mut checked = 0;
        for piece in &pieces {
            let Cell {
                lo: cell_lo,
                hi: cell_hi,
            } = piece.cell;
            for row in 0..mask.height() {
                for col in 0..mask.width() {
                    if !mask.is_solid(col, row) {
                        continue;
                    }
                    let (lo, hi) = mask.pixel_rect(col, row);
                    let lo = DVec::new(lo.x as f64, lo.y as f64).sup(&cell_lo);
                    let hi = DVec::new(hi.x as f64, hi.y as f64).inf(&cell_hi);
                    if lo.x > hi.x || lo.y > hi.y {
                        continue;
                    }
                    // The hull is convex: holding the corners holds the rectangle.
                    for corner in [lo, DVec::new(hi.x, lo.y), hi, DVec::new(lo.x, hi.y)] {
                        let gap = hull_distance(&piece.hull, corner);
                        assert!(
                            gap <= tolerance,
                            "pixel ({col}, {row}) point {corner:?} is {gap} outside the hull \
                             {:?} of cell {cell_lo:?}..{cell_hi:?}",
                            piece.hull
                        );
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 100, "{checked}");
    }

    /// A piece's crossing segments are exactly the boundary segments that
    /// meet its cell's closed box (brute force over the whole boundary): no
    /// quarter misses a segment its parent filtered out.
    #[test]
    fn every_segment_meeting_a_cell_is_among_its_crossing_segments() {
        let island = crate::shape::circle_tree::samples::island_mask();
        let star = crate::shape::circle_tree::samples::star();
        let star_outline: Vec<DVec> = star
            .vertices()
            .iter()
            .map(|p| DVec::new(p.x as f64, p.y as f64))
            .collect();
        let cases = [
            (island.region(), island_target(&island)),
            (
                crate::shape::circle_tree::samples::ship_mask(40).region(),
                0.05,
            ),
            (Region::polygon(&star_outline, MassProperties::ZERO), 0.005),
        ];
        for (case, (region, target)) in cases.iter().enumerate() {
            let pieces = pieces_and_quarters(region, *target);
            assert!(pieces.len() > 20, "case {case}: {}", pieces.len());
            for piece in &pieces {
                let Cell { lo, hi } = piece.cell;
                let meeting: Vec<u32> = (0..region.segments.len() as u32)
                    .filter(|&id| {
                        let [a, b] = region.segments[id as usize];
                        clip_segment(a, b, lo, hi).is_some()
                    })
                    .collect();
                let mut listed = piece.segments.clone();
                listed.sort_unstable();
                assert_eq!(listed, meeting, "case {case}, cell {lo:?}..{hi:?}");
            }
        }
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
