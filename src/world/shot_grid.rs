//! [`ShotGrid`]: a uniform grid over the colliders of a world that has
//! stopped changing, which [`World::cast_thick`] walks along a shot instead
//! of descending the broadphase trees, built lazily once enough casts have
//! been made against the unchanged world.
//!
//! # What it holds
//! One record per collider that has a broadphase proxy: its world pose (the
//! body pose composed with the local pose, the same value the tree path
//! computes per cast), its shape's world box grown by
//! [`SPECULATIVE_DISTANCE`](super::SPECULATIVE_DISTANCE) and a rounding
//! allowance, its filter, sensor flag and body. A collider sits in the one
//! cell that holds its box's centre ("loose" grid): a cell's colliders reach
//! at most the largest half size of any grid collider beyond the cell, so a
//! shot sees every collider it can touch by visiting the cells whose region,
//! grown by that reach and the shot's radius, it crosses. Colliders much
//! larger than most (floors, walls) are kept apart and tested one by one.
//!
//! # The walk
//! Cells are visited column by column along the shot's major axis, in the
//! direction of travel; in each column, the rows the shot's grown path
//! crosses. Each collider whose grown box the shot reaches by the current
//! best fraction gets the exact cast of the tree path; the walk stops at the
//! first column entered after the best hit so far. Every collider with an
//! exact hit at or before the best is therefore cast, so the closest hit,
//! with the same tie rule, is exactly the tree path's: the same collider,
//! the same fraction bit for bit.
//!
//! # When it is built
//! Any change to what a cast sees (a step that moved a body, a collider
//! added or removed, a pose or scale set) drops the grid and restarts a
//! count of casts; once the world has answered [`GRID_CASTS_PER_COLLIDER`]
//! casts per collider unchanged, the next cast builds it (the ski-rental
//! rule, as for the broadphase's flattened trees: a world that moves every
//! step and takes a few shots per step never pays for a build). A world
//! whose colliders do not suit a grid (too few, or too many outsized ones)
//! is noted as such and keeps the tree path until it changes. The buffers
//! of a dropped grid are reused, so rebuilding allocates nothing once they
//! have grown.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock, PoisonError};

use super::handles::{BodyKey, ColliderKey};
use super::queries::{Candidate, Closest, Target};
use super::swept_box::proxy_bounds;
use super::{Filter, QueryFilter, World};
use crate::math::{Pose, Real, Vec2, vec2};
use crate::query::cast::Shot;
use crate::shape::Circle;

/// Casts per collider an unchanged world answers through the broadphase
/// before its grid is built. Building costs about 700 instructions per
/// collider (a pose, a box and a sort slot each, measured on the 5,000-ball
/// pile) and the grid saves about 900 per cast against the flattened trees
/// there: the break-even is near one cast per collider, where the
/// ski-rental rule builds.
pub const GRID_CASTS_PER_COLLIDER: Real = 1.0;

/// Fewest colliders worth a grid: below this the trees are as fast.
const GRID_MIN_COLLIDERS: usize = 64;

/// A collider whose half size exceeds this many times the typical one (the
/// 90th percentile) is tested on its own instead of sitting in a cell.
const OUTSIZED_FACTOR: Real = 2.0;

/// Outsized colliders a grid may leave to one-by-one tests, plus one per
/// [`OUTSIZED_SHARE`] colliders; with more, the world keeps the tree path.
const OUTSIZED_MAX: usize = 32;

/// See [`OUTSIZED_MAX`].
const OUTSIZED_SHARE: usize = 32;

/// Cells per collider at most: a sparse world gets coarser cells.
const CELLS_PER_COLLIDER: usize = 4;

/// Rounding allowance, in ulps of the largest coordinate: boxes and cell
/// reaches are grown by this much so that no rounding in the walk can skip
/// a collider (growing only adds colliders to test, never changes a hit).
const SLACK_ULPS: Real = 16.0;

/// World box of a collider's shape grown by the speculative distance and
/// the grid's slack (metres): `[min x, min y, max x, max y]`.
type Box4 = [Real; 4];

/// One collider as a cast needs it: 64 bytes, one cache line.
#[derive(Clone, Copy, Debug)]
#[repr(align(64))]
struct Record {
    /// World pose of the shape (body pose ∘ local pose).
    pose: Pose,
    /// The shape when it is a circle (the common case needs no lookup).
    circle: Option<Circle>,
    collider: ColliderKey,
    body: BodyKey,
    filter: Filter,
    sensor: bool,
    /// The pose passes `Pose::validate` (checked once, not per cast).
    pose_valid: bool,
}

/// The grid over an unchanged world's colliders (see the module docs).
#[derive(Debug, Default)]
pub(crate) struct ShotGrid {
    /// Grid colliders sorted by cell, then the outsized ones.
    records: Vec<Record>,
    /// Their boxes, apart so that the box tests read less memory.
    boxes: Vec<Box4>,
    /// Records `..in_cells` sit in cells.
    in_cells: usize,
    /// Cell `c`'s records are `cell_start[c]..cell_start[c + 1]`; cell
    /// `(column, row)` is `row * columns + column`.
    cell_start: Vec<u32>,
    /// Lower-left corner of cell (0, 0) (world, metres).
    origin: Vec2,
    /// Side of a cell (metres).
    cell: Real,
    /// Cells along x and y.
    counts: [usize; 2],
    /// How far a cell's colliders reach beyond it, per axis (metres,
    /// slack included).
    reach: Vec2,
    /// Build scratch: every collider with its box and cell (`None`: outsized).
    scratch: Vec<(Box4, Record, Option<usize>)>,
    sizes: Vec<Real>,
}

/// Why a world keeps the tree path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Unsuited {
    /// Too few colliders, or too many outsized ones.
    Shape,
}

/// Half the larger side of a box.
fn half_size(b: &Box4) -> Real {
    (b[2] - b[0]).max(b[3] - b[1]) * 0.5
}

impl ShotGrid {
    /// Refills the grid from `world`; `Err` if its colliders do not suit one.
    fn rebuild(&mut self, world: &World) -> Result<(), Unsuited> {
        let all = &mut self.scratch;
        all.clear();
        let mut largest: Real = 0.0;
        for (key, collider) in &world.colliders {
            if collider.proxy.is_none() {
                continue; // the trees do not see it either
            }
            let Some(body) = world.bodies.get(collider.body.key) else {
                continue;
            };
            let pose = body.pose.compose(&collider.local_pose);
            let Some(bounds) = proxy_bounds(&collider.shape, &pose) else {
                continue;
            };
            let (min, max) = (bounds.min(), bounds.max());
            largest = largest.max(min.abs().max()).max(max.abs().max());
            let record = Record {
                pose,
                circle: match collider.shape.as_ref() {
                    crate::shape::Shape::Circle(circle) => Some(*circle),
                    _ => None,
                },
                collider: key,
                body: collider.body.key,
                filter: collider.filter,
                sensor: collider.sensor,
                pose_valid: pose.validate().is_ok(),
            };
            all.push(([min.x, min.y, max.x, max.y], record, None));
        }
        let count = all.len();
        if count < GRID_MIN_COLLIDERS {
            return Err(Unsuited::Shape);
        }
        // Half sizes: the typical one sets the cell, outsized ones stay apart.
        self.sizes.clear();
        self.sizes.extend(all.iter().map(|(b, _, _)| half_size(b)));
        let nth = count * 9 / 10;
        let (_, typical, _) = self.sizes.select_nth_unstable_by(nth, Real::total_cmp);
        let limit = *typical * OUTSIZED_FACTOR;
        let outsized = all.iter().filter(|(b, _, _)| half_size(b) > limit).count();
        if outsized > OUTSIZED_MAX + count / OUTSIZED_SHARE {
            return Err(Unsuited::Shape);
        }
        let slack = SLACK_ULPS * Real::EPSILON * (largest + limit);
        let mut reach = Vec2::zeros();
        let (mut low, mut high) = (
            Vec2::repeat(Real::INFINITY),
            Vec2::repeat(Real::NEG_INFINITY),
        );
        let center = |b: &Box4| vec2(b[0] + b[2], b[1] + b[3]) * 0.5;
        for (b, _, slot) in all.iter_mut() {
            let in_grid = half_size(b) <= limit;
            *b = [b[0] - slack, b[1] - slack, b[2] + slack, b[3] + slack];
            // The cell comes below; `Some` marks a grid member.
            *slot = in_grid.then_some(0);
            if in_grid {
                reach = reach.sup(&vec2(b[2] - b[0], b[3] - b[1]));
                low = low.inf(&center(b));
                high = high.sup(&center(b));
            }
        }
        reach *= 0.5;
        // A cell about as wide as a typical collider; coarser for a sparse world.
        let mut cell = 2.0 * reach.max().max(Real::MIN_POSITIVE);
        let cells_for = |cell: Real| {
            let along = |axis: usize| ((high[axis] - low[axis]) / cell) as usize + 1;
            [along(0), along(1)]
        };
        let mut counts = cells_for(cell);
        while counts[0].saturating_mul(counts[1]) > CELLS_PER_COLLIDER * count + 64 {
            cell *= 2.0;
            counts = cells_for(cell);
        }
        self.origin = low;
        self.cell = cell;
        self.counts = counts;
        // Reach past a cell's edge: the collider's half size beyond its
        // centre, which may itself sit a rounding error outside the cell.
        self.reach = reach + Vec2::repeat(slack + SLACK_ULPS * Real::EPSILON * cell);
        // Counting sort by cell, stable: records keep the world's order.
        let cells = counts[0] * counts[1];
        self.cell_start.clear();
        self.cell_start.resize(cells + 1, 0);
        for (b, _, slot) in all.iter_mut() {
            if slot.is_none() {
                continue;
            }
            let c = center(b);
            let index =
                |axis: usize| (((c[axis] - low[axis]) / cell) as usize).min(counts[axis] - 1);
            let cell_index = index(1) * counts[0] + index(0);
            *slot = Some(cell_index);
            self.cell_start[cell_index + 1] += 1;
        }
        for c in 0..cells {
            self.cell_start[c + 1] += self.cell_start[c];
        }
        self.in_cells = self.cell_start[cells] as usize;
        self.records.clear();
        self.records.resize(count, all[0].1);
        self.boxes.clear();
        self.boxes.resize(count, all[0].0);
        // `cell_start` shifted by one cell serves as the fill cursor, then
        // is shifted back.
        let mut apart = self.in_cells;
        for (b, record, slot) in all.iter() {
            let at = match slot {
                Some(c) => {
                    let at = self.cell_start[*c] as usize;
                    self.cell_start[*c] += 1;
                    at
                }
                None => {
                    apart += 1;
                    apart - 1
                }
            };
            self.records[at] = *record;
            self.boxes[at] = *b;
        }
        for c in (1..=cells).rev() {
            self.cell_start[c] = self.cell_start[c - 1];
        }
        self.cell_start[0] = 0;
        Ok(())
    }
}

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

    /// Visits every cell the segment's path, grown by the radius and the
    /// cells' reach, crosses by the limit, column by column along the major
    /// axis in the direction of travel and, in a column, row by row the
    /// same way, stopping at the first column or row entered after the
    /// limit; then the outsized records.
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
                        if b[0] - r <= start.x
                            && start.x <= b[2] + r
                            && b[1] - r <= start.y
                            && start.y <= b[3] + r
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
            self.visit(grid.in_cells..grid.records.len());
            return;
        };
        // The part of the segment inside the grid's grown region.
        let Some((enter, exit)) = self.inside_region(grow) else {
            self.visit(grid.in_cells..grid.records.len());
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
        self.visit(grid.in_cells..grid.records.len());
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

/// The lazily built grid of a world, its cast count and the buffers of the
/// last grid dropped. Not part of the world's state: a clone starts without.
pub(crate) struct ShotGridCache {
    built: OnceLock<Option<ShotGrid>>,
    /// Casts answered since the last change (racy increments may lose a
    /// count; that only delays the build).
    casts: AtomicUsize,
    spare: Mutex<Option<ShotGrid>>,
}

impl Default for ShotGridCache {
    fn default() -> Self {
        ShotGridCache {
            built: OnceLock::new(),
            casts: AtomicUsize::new(0),
            spare: Mutex::new(None),
        }
    }
}

impl Clone for ShotGridCache {
    fn clone(&self) -> Self {
        ShotGridCache::default()
    }
}

impl std::fmt::Debug for ShotGridCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ShotGridCache")
            .field("built", &self.built.get().map(Option::is_some))
            .field("casts", &self.casts.load(Ordering::Relaxed))
            .finish()
    }
}

impl ShotGridCache {
    /// Drops the grid (keeping its buffers) after the world changed.
    #[inline]
    pub(crate) fn invalidate(&mut self) {
        *self.casts.get_mut() = 0;
        if let Some(Some(grid)) = self.built.take() {
            *self.spare.get_mut().unwrap_or_else(PoisonError::into_inner) = Some(grid);
        }
    }
}

impl World {
    /// The grid to cast through: the one built, or a new one once this cast
    /// makes enough against the unchanged world; `None` while the world
    /// answers through the broadphase.
    pub(crate) fn shot_grid(&self) -> Option<&ShotGrid> {
        let cache = &self.shot_grid;
        if let Some(built) = cache.built.get() {
            return built.as_ref();
        }
        let casts = cache.casts.load(Ordering::Relaxed).saturating_add(1);
        cache.casts.store(casts, Ordering::Relaxed);
        let threshold = (self.colliders.len() as Real * GRID_CASTS_PER_COLLIDER) as usize;
        if casts <= threshold.max(GRID_MIN_COLLIDERS) {
            return None;
        }
        cache.built.get_or_init(|| self.build_shot_grid()).as_ref()
    }

    /// Builds the grid now (if the world suits one), so the next casts walk
    /// it whatever their count; for benches and tests. Returns whether
    /// casts now walk a grid.
    pub fn prepare_shot_grid(&self) -> bool {
        self.shot_grid
            .built
            .get_or_init(|| self.build_shot_grid())
            .is_some()
    }

    fn build_shot_grid(&self) -> Option<ShotGrid> {
        let spare = self
            .shot_grid
            .spare
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        let mut grid = spare.unwrap_or_default();
        match grid.rebuild(self) {
            Ok(()) => Some(grid),
            Err(Unsuited::Shape) => {
                *self
                    .shot_grid
                    .spare
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner) = Some(grid);
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_fills_one_cache_line() {
        assert_eq!(std::mem::size_of::<Record>(), 64);
    }

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
