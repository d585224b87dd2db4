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
//! # The walk (`shot_grid_walk.rs`)
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
use super::swept_box::proxy_bounds;
use super::{Filter, World};
use crate::math::{Pose, Real, Vec2, vec2};
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
pub(super) type Box4 = [Real; 4];

/// One collider as a cast needs it: 64 bytes, one cache line.
#[derive(Clone, Copy, Debug)]
#[repr(align(64))]
pub(super) struct Record {
    /// World pose of the shape (body pose ∘ local pose).
    pub(super) pose: Pose,
    /// The shape when it is a circle (the common case needs no lookup).
    pub(super) circle: Option<Circle>,
    pub(super) collider: ColliderKey,
    pub(super) body: BodyKey,
    pub(super) filter: Filter,
    pub(super) sensor: bool,
    /// The pose passes `Pose::validate` (checked once, not per cast).
    pub(super) pose_valid: bool,
}

/// The grid over an unchanged world's colliders (see the module docs).
#[derive(Debug, Default)]
pub(crate) struct ShotGrid {
    /// Grid colliders sorted by cell, then the outsized ones.
    pub(super) records: Vec<Record>,
    /// Their boxes, apart so that the box tests read less memory.
    pub(super) boxes: Vec<Box4>,
    /// Records `..in_cells` sit in cells.
    pub(super) in_cells: usize,
    /// Cell `c`'s records are `cell_start[c]..cell_start[c + 1]`; cell
    /// `(column, row)` is `row * columns + column`.
    pub(super) cell_start: Vec<u32>,
    /// Lower-left corner of cell (0, 0) (world, metres).
    pub(super) origin: Vec2,
    /// Side of a cell (metres).
    pub(super) cell: Real,
    /// Cells along x and y.
    pub(super) counts: [usize; 2],
    /// How far a cell's colliders reach beyond it, per axis (metres,
    /// slack included).
    pub(super) reach: Vec2,
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
}
