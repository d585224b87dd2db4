//! The walk of a thick shot through a [`ShotGrid`](super::shot_grid::ShotGrid):
//! the cells around the start first, then the outsized colliders (a wall
//! or floor hit found there cuts the walk short), then column by column
//! along the shot's major axis and row by row across it, each collider's
//! box tested before its exact cast. The order only decides how soon the
//! limit drops, never which hit wins (see the `shot_grid` module docs for
//! why this finds the same closest hit as the trees).

use super::queries::{Candidate, Closest, Target};
use super::shot_grid::{Box4, ShotGrid};
use super::{QueryFilter, World};
use crate::math::{Real, Vec2, vec2};
use crate::query::cast::Shot;

/// A segment `start + t * delta` with the slab test's inverses.
#[derive(Clone, Copy)]
struct Segment {
    start: Vec2,
    delta: Vec2,
    /// `1 / delta` per axis, `None` where it overflows (no motion).
    inverse: [Option<Real>; 2],
    /// Both inverses, when the segment moves along both axes.
    moving: Option<Vec2>,
}

impl Segment {
    fn new(start: Vec2, delta: Vec2) -> Self {
        let inverse = |d: Real| Some(1.0 / d).filter(|i| i.is_finite());
        let inverse = [inverse(delta.x), inverse(delta.y)];
        let moving = match inverse {
            [Some(x), Some(y)] => Some(vec2(x, y)),
            _ => None,
        };
        Segment {
            start,
            delta,
            inverse,
            moving,
        }
    }

    /// Whether the segment, `t in [0, limit]`, reaches the box `b` grown
    /// by `grow` (a conservative test: the record boxes carry slack).
    #[inline(always)]
    fn reaches(&self, b: &Box4, grow: Real, limit: Real) -> bool {
        let s = self.start;
        if let Some(inverse) = self.moving {
            // Branch-free slab test; no operand is NaN.
            let min = |a: Real, b: Real| if a < b { a } else { b };
            let max = |a: Real, b: Real| if a > b { a } else { b };
            let (x0, x1) = (
                (b[0] - grow - s.x) * inverse.x,
                (b[2] + grow - s.x) * inverse.x,
            );
            let (y0, y1) = (
                (b[1] - grow - s.y) * inverse.y,
                (b[3] + grow - s.y) * inverse.y,
            );
            let enter = max(max(min(x0, x1), min(y0, y1)), 0.0);
            let exit = min(min(max(x0, x1), max(y0, y1)), limit);
            return enter <= exit;
        }
        let mut enter: Real = 0.0;
        let mut exit = limit;
        for axis in 0..2 {
            let (lo, hi, s) = (b[axis] - grow, b[axis + 2] + grow, s[axis]);
            match self.inverse[axis] {
                None => {
                    if s < lo || s > hi {
                        return false;
                    }
                }
                Some(inv) => {
                    let (a, b) = ((lo - s) * inv, (hi - s) * inv);
                    let (near, far) = if inv >= 0.0 { (a, b) } else { (b, a) };
                    enter = if near > enter { near } else { enter };
                    exit = if far < exit { far } else { exit };
                }
            }
        }
        enter <= exit
    }
}

/// One thick cast walking a grid: its fixed inputs and the closest hit so far.
struct GridCast<'a> {
    world: &'a World,
    grid: &'a ShotGrid,
    shot: &'a Shot,
    filter: &'a QueryFilter,
    segment: Segment,
    radius: Real,
    /// Largest fraction still worth a test: the range's end, then just
    /// past the best hit (as the trees clip).
    limit: Real,
    closest: &'a mut Closest,
}

impl GridCast<'_> {
    /// Tests the records `range`: the box here, the rest (filter, exact
    /// cast) out of line for the few that pass.
    #[inline(always)]
    fn visit(&mut self, range: std::ops::Range<usize>) {
        let first = range.start;
        let boxes = &self.grid.boxes[range];
        for (i, b) in boxes.iter().enumerate() {
            if self.segment.reaches(b, self.radius, self.limit) {
                self.candidate(first + i);
            }
        }
    }

    /// The record `index`, whose box the segment reaches: filter, then the
    /// exact cast and the closest-hit bookkeeping.
    #[inline(never)]
    fn candidate(&mut self, index: usize) {
        let world = self.world;
        let record = &self.grid.records[index];
        if !self.filter.sees(
            record.sensor,
            world.body_handle(record.body),
            &record.filter,
        ) {
            return;
        }
        let target = match &record.circle {
            Some(circle) if record.pose_valid => Target::CircleValidPose(circle),
            Some(circle) => Target::Circle(circle),
            None => match world.colliders.get(record.collider) {
                Some(collider) => Target::Other(&collider.shape),
                None => return,
            },
        };
        let candidate = Candidate {
            collider: record.collider,
            body: record.body,
            target,
            pose: &record.pose,
        };
        let value = world.offer(self.shot, &candidate, self.limit, self.closest);
        // As the trees take a callback's answer: only a lower maximum.
        if value < self.limit {
            self.limit = value;
        }
    }

    /// Visits the cells around the start; unless a hit there is at
    /// fraction 0, the outsized records (a shot from outside a walled pile
    /// meets the wall first, and its hit spares the walk the pile behind
    /// it); then every cell the segment's path, grown by the radius and the
    /// cells' reach, crosses by the limit, column by column along the major
    /// axis in the direction of travel and, in a column, row by row the
    /// same way, stopping at the first column or row entered after the
    /// limit.
    fn run(&mut self) {
        let grid = self.grid;
        let grow = grid.reach + Vec2::repeat(self.radius);
        let (start, delta) = (self.segment.start, self.segment.delta);
        let major = usize::from(delta.y.abs() > delta.x.abs());
        let minor = 1 - major;
        let inverse_cell = 1.0 / grid.cell;
        // The cells along `axis` whose grown band holds `lo..=hi`. The
        // bands carry the slack, so a rounding error of the product here
        // can only add a cell that is not needed.
        let span = |axis: usize, lo: Real, hi: Real| -> Option<(usize, usize)> {
            let count = grid.counts[axis] as Real;
            let last = (hi + grow[axis] - grid.origin[axis]) * inverse_cell;
            let first = (lo - grow[axis] - grid.origin[axis]) * inverse_cell;
            if !(last >= 0.0 && first < count) {
                return None;
            }
            // Both within 0..count here, and counts stay far below 2^31 (at
            // most four cells per collider): the plain 32-bit conversion is
            // exact and cheaper than the saturating one to usize.
            let first = if first > 0.0 {
                first as i32 as usize
            } else {
                0
            };
            let last = if last < count {
                last as i32 as usize
            } else {
                grid.counts[axis] - 1
            };
            Some((first, last))
        };
        let strides = [1, grid.counts[0]];
        let rows = Rows {
            stride: strides[minor],
            // Entry into a row's grown band: `(near + row * cell) * inverse`.
            entry: self.segment.inverse[minor].map(|inverse| {
                let side = if inverse >= 0.0 {
                    -grow[minor]
                } else {
                    grid.cell + grow[minor]
                };
                (grid.origin[minor] + side - start[minor], inverse)
            }),
        };
        // A shot that starts touching a grid collider (most do, in a pile)
        // ends at fraction 0 unless a smaller handle ties there: the cells
        // around the start hold every collider whose grown box holds the
        // start, which is every collider it can touch at fraction 0.
        if let (Some(columns), Some(rows)) = (span(0, start.x, start.x), span(1, start.y, start.y))
        {
            for row in rows.0..=rows.1 {
                for column in columns.0..=columns.1 {
                    let cell = row * strides[1] + column;
                    let (first, end) = (
                        grid.cell_start[cell] as usize,
                        grid.cell_start[cell + 1] as usize,
                    );
                    for index in first..end {
                        // Entered at 0: the start lies in the grown box.
                        let b = &grid.boxes[index];
                        let r = self.radius;
                        // One branch, not four: which way it goes is
                        // random from shot to shot.
                        if (b[0] - r <= start.x)
                            & (start.x <= b[2] + r)
                            & (b[1] - r <= start.y)
                            & (start.y <= b[3] + r)
                        {
                            self.candidate(index);
                        }
                    }
                }
            }
            if self
                .closest
                .hit
                .is_some_and(|hit| hit.fraction.to_bits() == 0)
            {
                self.visit(grid.in_cells..grid.records.len());
                return;
            }
        }
        self.visit(grid.in_cells..grid.records.len());
        let Some(inverse) = self.segment.inverse[major] else {
            // No motion along the major axis, so none at all: the cells
            // around the start.
            let along = span(major, start[major], start[major]);
            let across = span(minor, start[minor], start[minor]);
            if let (Some(along), Some(across)) = (along, across) {
                for column in along.0..=along.1 {
                    self.visit_column(column * strides[major], across, &rows);
                }
            }
            return;
        };
        // The part of the segment inside the grid's grown region.
        let Some((enter, exit)) = self.inside_region(grow) else {
            return;
        };
        let (near, far) = (
            start[major] + delta[major] * enter,
            start[major] + delta[major] * exit,
        );
        if let Some((first, last)) = span(major, near.min(far), near.max(far)) {
            let forward = inverse >= 0.0;
            let (side_in, side_out) = if forward {
                (-grow[major], grid.cell + grow[major])
            } else {
                (grid.cell + grow[major], -grow[major])
            };
            let base = grid.origin[major] - start[major];
            for step in 0..=(last - first) {
                let column = if forward { first + step } else { last - step };
                let edge = base + column as Real * grid.cell;
                let enter = (edge + side_in) * inverse;
                if enter > self.limit {
                    break; // every later column is entered later still
                }
                let exit = (edge + side_out) * inverse;
                let enter = if enter > 0.0 { enter } else { 0.0 };
                let exit = if exit < self.limit { exit } else { self.limit };
                if enter > exit {
                    continue; // behind the start
                }
                let (p, q) = (
                    start[minor] + delta[minor] * enter,
                    start[minor] + delta[minor] * exit,
                );
                let (lo, hi) = if p < q { (p, q) } else { (q, p) };
                if let Some(span) = span(minor, lo, hi) {
                    self.visit_column(column * strides[major], span, &rows);
                }
            }
        }
    }

    /// The fractions `[enter, exit]` within `[0, limit]` at which the
    /// segment is inside the cells' region grown by `grow`, if any.
    #[inline(always)]
    fn inside_region(&self, grow: Vec2) -> Option<(Real, Real)> {
        let grid = self.grid;
        let (mut enter, mut exit) = (0.0, self.limit);
        for axis in 0..2 {
            let lo = grid.origin[axis] - grow[axis];
            let hi = grid.origin[axis] + grid.counts[axis] as Real * grid.cell + grow[axis];
            let s = self.segment.start[axis];
            match self.segment.inverse[axis] {
                None => {
                    if s < lo || s > hi {
                        return None;
                    }
                }
                Some(inverse) => {
                    let (a, b) = ((lo - s) * inverse, (hi - s) * inverse);
                    let (near, far) = if a < b { (a, b) } else { (b, a) };
                    enter = if near > enter { near } else { enter };
                    exit = if far < exit { far } else { exit };
                }
            }
        }
        (enter <= exit).then_some((enter, exit))
    }

    /// The cells of one column (`offset`: its first cell) in `span` rows,
    /// in the direction of travel, up to the first row entered after the
    /// limit.
    #[inline(always)]
    fn visit_column(&mut self, offset: usize, span: (usize, usize), rows: &Rows) {
        let grid = self.grid;
        let forward = rows.entry.is_none_or(|(_, inverse)| inverse >= 0.0);
        for step in 0..=(span.1 - span.0) {
            let row = if forward {
                span.0 + step
            } else {
                span.1 - step
            };
            if let Some((near, inverse)) = rows.entry
                && (near + row as Real * grid.cell) * inverse > self.limit
            {
                break; // every later row is entered later still
            }
            let cell = offset + row * rows.stride;
            let (first, end) = (
                grid.cell_start[cell] as usize,
                grid.cell_start[cell + 1] as usize,
            );
            if first < end {
                self.visit(first..end);
            }
        }
    }
}

/// How a walk steps through the rows of a column.
struct Rows {
    /// Cells between two rows.
    stride: usize,
    /// With motion across the columns: the offset of the near edge of row
    /// 0's grown band from the start, and the inverse of that motion.
    entry: Option<(Real, Real)>,
}

impl World {
    /// [`World::cast_thick`] through the grid.
    pub(crate) fn cast_thick_grid(
        &self,
        grid: &ShotGrid,
        shot: &Shot,
        filter: &QueryFilter,
        closest: &mut Closest,
    ) {
        GridCast {
            world: self,
            grid,
            shot,
            filter,
            segment: Segment::new(shot.start(), shot.delta()),
            radius: shot.radius(),
            limit: shot.range()[1],
            closest,
        }
        .run();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;

    #[test]
    fn segment_reaches_grown_boxes_and_stops_at_the_limit() {
        let segment = Segment::new(vec2(0.0, 0.0), vec2(10.0, 0.0));
        let b = [4.0, 0.5, 5.0, 1.5];
        assert!(!segment.reaches(&b, 0.0, 1.0));
        assert!(segment.reaches(&b, 0.5, 1.0), "touching counts");
        assert!(!segment.reaches(&b, 0.5, 0.34), "entered at 0.35");
        assert!(segment.reaches(&b, 0.5, 0.35));
        let still = Segment::new(vec2(4.5, 1.0), Vec2::zeros());
        assert!(still.reaches(&b, 0.0, 1.0));
        assert!(!Segment::new(vec2(3.0, 1.0), Vec2::zeros()).reaches(&b, 0.0, 1.0));
    }
}
