//! [`DiscGrid`]: discs bucketed by centre on a uniform grid, for the fit
//! report's two questions about a point and a set of discs (local units,
//! f64): the least signed distance to a disc, and whether a disc holds it.
//!
//! The answers are exactly the linear scans' (every disc, in order): a
//! minimum does not depend on the order it is taken in, and a cell is passed
//! over only when a bound shows no disc of it can change the answer. A
//! cell's bound is the point's distance to the cell's box less its largest
//! radius (a disc centred in the box reaches no nearer); the bound is widened
//! by a slack far above the rounding of either side, so that rounding can
//! only make the search look at more cells, never fewer. Cells are visited
//! in square rings around the point's cell, and the search stops once every
//! cell left lies farther out than any disc could make a difference.
//!
//! About one disc per cell: a query near the discs reads a handful of
//! cells, where the scans read every disc (the report asks about 26,000
//! sample points about every leaf of the tree).

use super::super::enclosing::{DVec, Disc};

/// Relative slack of the pruning bounds, times the magnitude of the
/// coordinates involved: f64 rounds each of the few operations by 1e-16.
const SLACK: f64 = 1e-9;

/// Discs by the grid cell of their centre (see the module docs).
pub(crate) struct DiscGrid<'a> {
    discs: &'a [Disc],
    /// Corner of cell (0, 0), the side of a cell and the cells per axis.
    lo: DVec,
    cell: f64,
    cells: (usize, usize),
    /// Per cell, the range of `order` holding its discs (`nx · ny + 1`).
    start: Vec<u32>,
    /// Disc indices, cell by cell.
    order: Vec<u32>,
    /// Per cell, its largest radius (−∞ when empty).
    widest: Vec<f64>,
    /// The largest radius of all.
    largest: f64,
    /// Slack of every bound (see [`SLACK`]).
    slack: f64,
    /// No grid (a value that is not finite): the queries scan every disc.
    scan: bool,
}

impl<'a> DiscGrid<'a> {
    /// Buckets `discs` (about one to a cell).
    pub fn new(discs: &'a [Disc]) -> DiscGrid<'a> {
        let mut lo = DVec::repeat(f64::INFINITY);
        let mut hi = DVec::repeat(f64::NEG_INFINITY);
        let mut largest = f64::NEG_INFINITY;
        for d in discs {
            lo = lo.inf(&d.center);
            hi = hi.sup(&d.center);
            largest = largest.max(d.radius);
        }
        let span = hi - lo;
        let finite = discs
            .iter()
            .all(|d| d.center.iter().all(|v| v.is_finite()) && d.radius.is_finite());
        let count = discs.len().max(1) as f64;
        // Square cells for about one disc each over the centres' box, and
        // never more cells along an axis than discs: at most 3n + 1 cells
        // however flat the box.
        let cell = (span.x * span.y / count)
            .sqrt()
            .max(span.x.max(span.y) / count);
        let cell = if cell > 0.0 && cell.is_finite() {
            cell
        } else {
            1.0
        };
        let per_axis = |extent: f64| ((extent / cell).floor() as usize).saturating_add(1);
        let cells = (per_axis(span.x), per_axis(span.y));
        // (A guard: the sizing above keeps far below it.)
        let scan =
            !finite || discs.is_empty() || cells.0.saturating_mul(cells.1) > 4 * discs.len() + 16;
        let mut grid = DiscGrid {
            discs,
            lo,
            cell,
            cells,
            start: Vec::new(),
            order: Vec::new(),
            widest: Vec::new(),
            largest,
            slack: 0.0,
            scan,
        };
        if scan {
            return grid;
        }
        let total = cells.0 * cells.1;
        let mut start = vec![0u32; total + 1];
        let mut widest = vec![f64::NEG_INFINITY; total];
        let homes: Vec<usize> = discs.iter().map(|d| grid.home(d.center)).collect();
        for (&home, d) in homes.iter().zip(discs) {
            start[home + 1] += 1;
            widest[home] = widest[home].max(d.radius);
        }
        for i in 0..total {
            start[i + 1] += start[i];
        }
        let mut next = start.clone();
        let mut order = vec![0u32; discs.len()];
        for (i, &home) in homes.iter().enumerate() {
            order[next[home] as usize] = i as u32;
            next[home] += 1;
        }
        let magnitude = lo.abs().sum() + hi.abs().sum() + largest.abs();
        (grid.start, grid.order, grid.widest) = (start, order, widest);
        grid.slack = SLACK * magnitude;
        grid
    }

    /// The cell of a point of the centres' box (or the nearest cell).
    fn cell_of(&self, p: DVec) -> (usize, usize) {
        let axis = |v: f64, lo: f64, n: usize| {
            let i = ((v - lo) / self.cell).floor();
            if i >= 0.0 { (i as usize).min(n - 1) } else { 0 }
        };
        (
            axis(p.x, self.lo.x, self.cells.0),
            axis(p.y, self.lo.y, self.cells.1),
        )
    }

    /// The index of the cell a centre belongs to.
    fn home(&self, center: DVec) -> usize {
        let (x, y) = self.cell_of(center);
        y * self.cells.0 + x
    }

    /// Distance from `p` to the box of cell (`x`, `y`).
    fn box_distance(&self, p: DVec, x: usize, y: usize) -> f64 {
        let min = self.lo + DVec::new(x as f64, y as f64) * self.cell;
        let max = min + DVec::repeat(self.cell);
        let gap = |v: f64, a: f64, b: f64| (a - v).max(v - b).max(0.0);
        let (dx, dy) = (gap(p.x, min.x, max.x), gap(p.y, min.y, max.y));
        (dx * dx + dy * dy).sqrt()
    }

    /// Visits the cells in square rings around `p`'s cell, each with the
    /// distance from `p` to its box, for as long as `go_on(distance to
    /// every cell not visited yet)` says so; `visit(cell, distance)`
    /// returns false to stop at once.
    fn rings(
        &self,
        p: DVec,
        mut go_on: impl FnMut(f64) -> bool,
        mut visit: impl FnMut(usize, f64) -> bool,
    ) {
        let (nx, ny) = self.cells;
        let (cx, cy) = self.cell_of(p);
        for k in 0..nx.max(ny) {
            if k > 0 {
                // Every cell left lies beyond the square of the rings
                // before: on a side with cells beyond it, at least as far
                // as that side (0 when `p` is past it).
                let near = self.lo
                    + DVec::new((cx + 1) as f64 - k as f64, (cy + 1) as f64 - k as f64) * self.cell;
                let far = self.lo + DVec::new((cx + k) as f64, (cy + k) as f64) * self.cell;
                let mut beyond = f64::INFINITY;
                if cx >= k {
                    beyond = beyond.min((p.x - near.x).max(0.0));
                }
                if cx + k < nx {
                    beyond = beyond.min((far.x - p.x).max(0.0));
                }
                if cy >= k {
                    beyond = beyond.min((p.y - near.y).max(0.0));
                }
                if cy + k < ny {
                    beyond = beyond.min((far.y - p.y).max(0.0));
                }
                if beyond == f64::INFINITY || !go_on(beyond) {
                    return;
                }
            }
            let (x0, x1) = (cx.saturating_sub(k), (cx + k).min(nx - 1));
            let (y0, y1) = (cy.saturating_sub(k), (cy + k).min(ny - 1));
            for y in y0..=y1 {
                let edge_row = y + k == cy || y == cy + k;
                for x in x0..=x1 {
                    // Ring k only: its cells are k away in x or in y.
                    if !edge_row && x + k != cx && x != cx + k {
                        continue;
                    }
                    if !visit(y * nx + x, self.box_distance(p, x, y)) {
                        return;
                    }
                }
            }
        }
    }

    /// The discs of cell `cell`.
    fn members(&self, cell: usize) -> impl Iterator<Item = &Disc> + '_ {
        let (a, b) = (self.start[cell] as usize, self.start[cell + 1] as usize);
        self.order[a..b].iter().map(|&i| &self.discs[i as usize])
    }

    /// `min_i(|p − c_i| − r_i)`, +∞ for no disc: exactly the scan's value.
    pub fn signed_distance(&self, p: DVec) -> f64 {
        let each = |d: &Disc| (p - d.center).norm() - d.radius;
        if self.scan {
            return self.discs.iter().map(each).fold(f64::INFINITY, f64::min);
        }
        // Read by the stopping test, lowered by the visits.
        let best = std::cell::Cell::new(f64::INFINITY);
        let slack = self.slack + SLACK * p.abs().sum();
        let largest = self.largest;
        self.rings(
            p,
            |beyond| beyond - largest <= best.get() + slack,
            |cell, distance| {
                if distance - self.widest[cell] <= best.get() + slack {
                    best.set(self.members(cell).map(each).fold(best.get(), f64::min));
                }
                true
            },
        );
        best.get()
    }

    /// Whether some disc holds `p` (`|p − c|² ≤ r²`): exactly the scan's
    /// answer.
    pub fn holds(&self, p: DVec) -> bool {
        let inside = |d: &Disc| (p - d.center).norm_squared() <= d.radius * d.radius;
        if self.scan {
            return self.discs.iter().any(inside);
        }
        let slack = self.slack + SLACK * p.abs().sum();
        let reach = self.largest + slack;
        let mut found = false;
        self.rings(
            p,
            |beyond| beyond <= reach,
            |cell, distance| {
                found = distance <= self.widest[cell] + slack && self.members(cell).any(inside);
                !found
            },
        );
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn scan_distance(discs: &[Disc], p: DVec) -> f64 {
        discs
            .iter()
            .map(|d| (p - d.center).norm() - d.radius)
            .fold(f64::INFINITY, f64::min)
    }

    fn scan_holds(discs: &[Disc], p: DVec) -> bool {
        discs
            .iter()
            .any(|d| (p - d.center).norm_squared() <= d.radius * d.radius)
    }

    /// Discs in clusters of very different sizes, some on a line.
    fn discs() -> impl Strategy<Value = Vec<Disc>> {
        prop::collection::vec(
            (
                (-50.0f64..50.0, -50.0f64..50.0),
                prop_oneof![0.001f64..0.1, 0.1f64..3.0, 3.0f64..20.0],
                prop_oneof![Just(false), Just(true)],
            ),
            1..400,
        )
        .prop_map(|raw| {
            raw.into_iter()
                .map(|((x, y), r, flat)| Disc {
                    center: DVec::new(x, if flat { 2.0 } else { y }),
                    radius: r,
                })
                .collect()
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// The grid's answers are the scans', bit for bit, for points among
        /// the discs, on their surfaces and far outside.
        #[test]
        fn the_grid_answers_as_the_scans_do(
            discs in discs(),
            points in prop::collection::vec((-120.0f64..120.0, -120.0f64..120.0), 60),
            on_surface in 0usize..400,
        ) {
            let grid = DiscGrid::new(&discs);
            let d = &discs[on_surface % discs.len()];
            let surface = d.center + DVec::new(d.radius, 0.0);
            let points = points.into_iter().map(|(x, y)| DVec::new(x, y)).chain([surface, d.center]);
            for p in points {
                prop_assert_eq!(grid.signed_distance(p).to_bits(), scan_distance(&discs, p).to_bits(), "{:?}", p);
                prop_assert_eq!(grid.holds(p), scan_holds(&discs, p), "{:?}", p);
            }
        }
    }

    #[test]
    fn one_disc_coincident_discs_and_no_disc() {
        let one = [Disc {
            center: DVec::new(3.0, -1.0),
            radius: 2.0,
        }];
        let same = vec![one[0]; 50];
        for discs in [&one[..], &same[..]] {
            let grid = DiscGrid::new(discs);
            for p in [
                DVec::new(3.0, -1.0),
                DVec::new(5.0, -1.0),
                DVec::new(-40.0, 9.0),
            ] {
                assert_eq!(grid.signed_distance(p), scan_distance(discs, p));
                assert_eq!(grid.holds(p), scan_holds(discs, p));
            }
        }
        let none = DiscGrid::new(&[]);
        assert_eq!(none.signed_distance(DVec::zeros()), f64::INFINITY);
        assert!(!none.holds(DVec::zeros()));
    }

    #[test]
    fn a_grid_of_thousands_reads_few_cells() {
        // 10,000 unit discs on a square lattice: about one a cell.
        let discs: Vec<Disc> = (0..10_000)
            .map(|i| Disc {
                center: DVec::new((i % 100) as f64, (i / 100) as f64),
                radius: 0.6,
            })
            .collect();
        let grid = DiscGrid::new(&discs);
        assert!(!grid.scan);
        let (nx, ny) = grid.cells;
        assert!(nx * ny <= 4 * discs.len() + 16, "{nx} x {ny}");
        let p = DVec::new(50.3, 50.7);
        let mut visited = 0;
        grid.rings(
            p,
            |beyond| beyond <= 2.0,
            |_, _| {
                visited += 1;
                true
            },
        );
        assert!(visited < 100, "{visited} cells");
        assert_eq!(grid.signed_distance(p), scan_distance(&discs, p));
    }
}
