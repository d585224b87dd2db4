//! [`Region`]: the outline a fitting builder covers, in f64.
//!
//! A region is a closed set given by its boundary segments (any number of
//! closed loops: holes and several components are fine), an inside test, and
//! optionally a different *true* shape for the overhang bound (a capsule is
//! covered through a polygon circumscribed about it, but its overhang is
//! measured against the exact capsule). The signed distance (negative inside)
//! uses a uniform grid over the segments.

use super::super::enclosing::DVec;
use crate::shape::MassProperties;

/// How the inside of the boundary is decided.
pub(crate) enum Inside {
    /// Crossing number of a ray against the boundary segments (even-odd).
    Segments,
    /// Pixel lookup in a bitmap: `opaque[row * width + col]`, row 0 at the top.
    Pixels {
        width: usize,
        height: usize,
        opaque: Vec<bool>,
        /// x of the vertical pixel edges, left to right (`width + 1`).
        columns: Vec<f64>,
        /// y of the horizontal pixel edges, top to bottom (`height + 1`).
        rows: Vec<f64>,
    },
}

/// The exact shape whose overhang is bounded, when it differs from the
/// covered outline.
pub(crate) enum Truth {
    /// The covered outline is the true shape.
    Outline,
    /// A capsule (core segment and radius); the outline circumscribes it.
    Capsule { a: DVec, b: DVec, radius: f64 },
}

/// A closed region to cover with discs.
pub(crate) struct Region {
    pub segments: Vec<[DVec; 2]>,
    inside: Inside,
    truth: Truth,
    /// Bounding box of the covered outline.
    pub lo: DVec,
    pub hi: DVec,
    grid: SegmentGrid,
    /// Mass properties of the true shape (unit density).
    pub mass: MassProperties,
}

/// Distance from `p` to the segment `a`–`b`.
pub(crate) fn segment_distance(p: DVec, a: DVec, b: DVec) -> f64 {
    let edge = b - a;
    let length2 = edge.norm_squared();
    // Closest point a + t·edge with t = clamp(dot(p − a, edge) / |edge|², 0, 1).
    let t = if length2 > 0.0 {
        ((p - a).dot(&edge) / length2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (p - (a + edge * t)).norm()
}

impl Region {
    /// A region from its boundary loops; `truth` defaults to the outline.
    pub fn new(
        segments: Vec<[DVec; 2]>,
        inside: Inside,
        truth: Truth,
        mass: MassProperties,
    ) -> Region {
        let mut lo = DVec::repeat(f64::INFINITY);
        let mut hi = DVec::repeat(f64::NEG_INFINITY);
        for s in &segments {
            for p in s {
                lo = lo.inf(p);
                hi = hi.sup(p);
            }
        }
        let grid = SegmentGrid::new(&segments, lo, hi);
        Region {
            segments,
            inside,
            truth,
            lo,
            hi,
            grid,
            mass,
        }
    }

    /// A closed polygon outline (counter-clockwise or not) as a region.
    pub fn polygon(vertices: &[DVec], mass: MassProperties) -> Region {
        let n = vertices.len();
        let segments = (0..n)
            .map(|i| [vertices[i], vertices[(i + 1) % n]])
            .collect();
        Region::new(segments, Inside::Segments, Truth::Outline, mass)
    }

    /// Radius of the smallest circle about the bounding box centre holding the outline.
    pub fn size(&self) -> f64 {
        0.5 * (self.hi - self.lo).norm()
    }

    /// True if `p` is inside the covered outline (boundary may go either way).
    pub fn inside(&self, p: DVec) -> bool {
        match &self.inside {
            Inside::Segments => {
                // Even-odd crossing number of the ray from p towards +x.
                let mut inside = false;
                for [a, b] in &self.segments {
                    if (a.y > p.y) != (b.y > p.y) {
                        let x = a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x);
                        if x > p.x {
                            inside = !inside;
                        }
                    }
                }
                inside
            }
            Inside::Pixels {
                width,
                height,
                opaque,
                columns,
                rows,
            } => {
                // The pixel whose closed square holds p (edges are sorted).
                let col = columns.partition_point(|&x| x <= p.x);
                let row = rows.partition_point(|&y| y >= p.y);
                if col == 0 || row == 0 || col > *width || row > *height {
                    return false;
                }
                opaque[(row - 1) * width + (col - 1)]
            }
        }
    }

    /// Distance from `p` to the nearest boundary segment.
    pub fn boundary_distance(&self, p: DVec) -> f64 {
        self.grid.nearest(&self.segments, p)
    }

    /// Signed distance to the covered outline (negative inside).
    pub fn outline_sd(&self, p: DVec) -> f64 {
        let d = self.boundary_distance(p);
        if self.inside(p) { -d } else { d }
    }

    /// Signed distance to the true shape (negative inside). A disc of radius
    /// `r` about `p` then overhangs the true shape by at most `r + sd(p)`
    /// (exactly that much for convex shapes).
    pub fn sd(&self, p: DVec) -> f64 {
        match &self.truth {
            Truth::Outline => self.outline_sd(p),
            Truth::Capsule { a, b, radius } => segment_distance(p, *a, *b) - radius,
        }
    }

    /// True if `p` belongs to the true shape.
    pub fn truth_contains(&self, p: DVec) -> bool {
        match &self.truth {
            Truth::Outline => self.inside(p) || self.boundary_distance(p) == 0.0,
            Truth::Capsule { .. } => self.sd(p) <= 0.0,
        }
    }
}

/// Uniform grid of segment ids for nearest-segment queries.
struct SegmentGrid {
    lo: DVec,
    hi: DVec,
    cell: f64,
    nx: usize,
    ny: usize,
    /// Compressed rows: the ids of cell k are `ids[starts[k]..starts[k + 1]]`.
    starts: Vec<u32>,
    ids: Vec<u32>,
}

impl SegmentGrid {
    fn new(segments: &[[DVec; 2]], lo: DVec, hi: DVec) -> SegmentGrid {
        let extent = (hi - lo).sup(&DVec::repeat(1e-300));
        // About two segments per cell.
        let cells = (segments.len() as f64 / 2.0).max(1.0);
        let cell = ((extent.x * extent.y / cells).sqrt())
            .max(extent.max() / 1024.0)
            .max(1e-300);
        let nx = ((extent.x / cell).ceil() as usize).clamp(1, 1024);
        let ny = ((extent.y / cell).ceil() as usize).clamp(1, 1024);
        let cell_of = |v: f64, origin: f64, n: usize| {
            (((v - origin) / cell).floor().max(0.0) as usize).min(n - 1)
        };
        let span = |[a, b]: &[DVec; 2]| {
            let (x0, x1) = (
                cell_of(a.x.min(b.x), lo.x, nx),
                cell_of(a.x.max(b.x), lo.x, nx),
            );
            let (y0, y1) = (
                cell_of(a.y.min(b.y), lo.y, ny),
                cell_of(a.y.max(b.y), lo.y, ny),
            );
            (y0..=y1).flat_map(move |y| (x0..=x1).map(move |x| y * nx + x))
        };
        let mut starts = vec![0u32; nx * ny + 1];
        for segment in segments {
            for k in span(segment) {
                starts[k + 1] += 1;
            }
        }
        for k in 0..nx * ny {
            starts[k + 1] += starts[k];
        }
        let mut fill = starts.clone();
        let mut ids = vec![0u32; starts[nx * ny] as usize];
        for (id, segment) in segments.iter().enumerate() {
            for k in span(segment) {
                ids[fill[k] as usize] = id as u32;
                fill[k] += 1;
            }
        }
        SegmentGrid {
            lo,
            hi,
            cell,
            nx,
            ny,
            starts,
            ids,
        }
    }

    /// Distance from `p` to the nearest segment: rings of cells around the
    /// cell of p's projection q onto the grid box. For any x in the box,
    /// |p − x| >= |q − x|, and cells in ring m are at least (m − 1)·cell from q.
    fn nearest(&self, segments: &[[DVec; 2]], p: DVec) -> f64 {
        let q = p.sup(&self.lo).inf(&self.hi);
        let to_box = (p - q).norm();
        let cx = (((q.x - self.lo.x) / self.cell).floor().max(0.0) as usize).min(self.nx - 1);
        let cy = (((q.y - self.lo.y) / self.cell).floor().max(0.0) as usize).min(self.ny - 1);
        let mut best = f64::INFINITY;
        let max_ring = self.nx.max(self.ny);
        for ring in 0..=max_ring {
            let bound = to_box.max((ring as f64 - 1.0).max(0.0) * self.cell);
            if bound >= best {
                break;
            }
            let (x0, x1) = (cx.saturating_sub(ring), (cx + ring).min(self.nx - 1));
            let (y0, y1) = (cy.saturating_sub(ring), (cy + ring).min(self.ny - 1));
            for y in y0..=y1 {
                for x in x0..=x1 {
                    // Only the cells on this ring are new.
                    if x.abs_diff(cx).max(y.abs_diff(cy)) != ring {
                        continue;
                    }
                    let k = y * self.nx + x;
                    for &id in &self.ids[self.starts[k] as usize..self.starts[k + 1] as usize] {
                        let [a, b] = segments[id as usize];
                        best = best.min(segment_distance(p, a, b));
                    }
                }
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square_with_hole() -> Region {
        let outer = [
            DVec::new(0.0, 0.0),
            DVec::new(4.0, 0.0),
            DVec::new(4.0, 4.0),
            DVec::new(0.0, 4.0),
        ];
        let hole = [
            DVec::new(1.0, 1.0),
            DVec::new(1.0, 3.0),
            DVec::new(3.0, 3.0),
            DVec::new(3.0, 1.0),
        ];
        let mut segments = Vec::new();
        for ring in [&outer[..], &hole[..]] {
            for i in 0..4 {
                segments.push([ring[i], ring[(i + 1) % 4]]);
            }
        }
        Region::new(
            segments,
            Inside::Segments,
            Truth::Outline,
            MassProperties::ZERO,
        )
    }

    #[test]
    fn signed_distance_matches_brute_force_everywhere() {
        let region = square_with_hole();
        for i in 0..60 {
            for j in 0..60 {
                let p = DVec::new(-3.0 + i as f64 * 0.17, -3.0 + j as f64 * 0.17);
                let brute = region
                    .segments
                    .iter()
                    .map(|[a, b]| segment_distance(p, *a, *b))
                    .fold(f64::INFINITY, f64::min);
                assert_eq!(region.boundary_distance(p), brute, "{p:?}");
            }
        }
        assert!(region.sd(DVec::new(0.5, 2.0)) < 0.0);
        assert!(region.sd(DVec::new(2.0, 2.0)) > 0.0); // in the hole
        assert!((region.sd(DVec::new(2.0, 2.0)) - 1.0).abs() < 1e-12);
        assert!((region.sd(DVec::new(-1.0, 2.0)) - 1.0).abs() < 1e-12);
    }
}
