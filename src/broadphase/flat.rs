//! A flattened, four-wide copy of a [`DynamicTree`] that ray casts read when
//! the tree has stopped changing, and the cache that builds it lazily.
//!
//! The copy is the same hierarchy with every other level folded away: each
//! node holds up to four children's boxes side by side (structure of arrays),
//! so one node is tested against a ray in one pass of plain `f32` arithmetic
//! that the compiler turns into four-lane SIMD, with no pointer chasing per
//! child. The boxes are the tree's own, bit for bit, and the slab test is
//! [`Ray::entry`]'s arithmetic, so a cast reaches exactly the proxies the
//! tree's own descent would (only the order of the callbacks differs).
//!
//! # When it is built
//! Building costs O(n) for n proxies; it pays off only after enough casts
//! against an unchanged tree. Every change to the tree (insert, remove,
//! re-insert, new user data) drops the copy and restarts a count of casts;
//! once the tree has answered [`FLATTEN_CASTS_PER_PROXY`] casts per proxy
//! (plus [`FLATTEN_MIN_CASTS`]) unchanged, the next cast builds the copy.
//! This is the ski-rental rule: a tree that changes between every few casts
//! (bodies moving every step, a few shots per step) never pays for a build,
//! and one that stops changing pays at most about twice what building at
//! once would have cost. A tree whose copies keep being dropped before they
//! paid for themselves waits twice as long before the next build, up to a
//! thousand times (and half as long again after a copy that paid off), so a
//! tree that changes a little less often than the rule expects does not
//! keep paying for builds. The buffers of a dropped copy are kept and
//! reused, so rebuilding allocates nothing once they have grown to the
//! tree's size.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock, PoisonError};

use super::bounds::Ray;
use super::tree::{NULL, Slot};
use super::{DynamicTree, InvariantViolation, ProxyId};
use crate::math::Real;

/// Children per node of the flattened copy.
pub(super) const LANES: usize = 4;

/// A child reference naming a leaf: this bit set, the leaf's index below it.
/// Node and leaf indices stay below it (trees of fewer than 2^30 slots are
/// flattened), which leaves the top bit free for the caster's own use.
pub(super) const LEAF: u32 = 1 << 30;

/// A child reference naming nothing (its lane's box is empty).
pub(super) const NO_CHILD: u32 = u32::MAX;

/// Casts per proxy an unchanged tree answers before its flattened copy is
/// built. Building costs about 200 instructions per proxy (measured on the
/// 5,000-ball pile) and the copy saves about 1,000 per cast there: the
/// break-even is near one cast per five proxies, and the ski-rental rule
/// builds at the break-even so that a tree that changes right after its
/// build never costs more than about twice what the casts alone would.
pub const FLATTEN_CASTS_PER_PROXY: Real = 0.25;

/// Casts an unchanged tree always answers itself before it is flattened, so
/// tiny trees (a level's few static boxes) are not rebuilt after every
/// change for a saving of a few node tests.
pub const FLATTEN_MIN_CASTS: usize = 8;

/// One node of the flattened copy: the boxes of up to [`LANES`] children
/// (world, metres; an unused lane holds the point at `+inf`, which no ray
/// moving along x reaches) and what each child is.
#[derive(Clone, Copy, Debug)]
pub(super) struct FlatNode {
    pub(super) min_x: [Real; LANES],
    pub(super) min_y: [Real; LANES],
    pub(super) max_x: [Real; LANES],
    pub(super) max_y: [Real; LANES],
    /// Index of a child node, `LEAF | leaf index`, or [`NO_CHILD`].
    pub(super) child: [u32; LANES],
}

impl FlatNode {
    const EMPTY: FlatNode = FlatNode {
        min_x: [Real::INFINITY; LANES],
        min_y: [Real::INFINITY; LANES],
        max_x: [Real::INFINITY; LANES],
        max_y: [Real::INFINITY; LANES],
        child: [NO_CHILD; LANES],
    };
}

/// The flattened copy of one tree.
#[derive(Clone, Debug)]
pub(super) struct FlatTree<T> {
    /// Node 0 is the root.
    pub(super) nodes: Vec<FlatNode>,
    /// The proxies, in the order the build met them.
    pub(super) leaves: Vec<(ProxyId, T)>,
    /// Levels of nodes (1 for a root alone).
    pub(super) depth: usize,
    /// Build scratch: (tree node, flat node to fill, its level).
    work: Vec<(u32, u32, usize)>,
}

impl<T> Default for FlatTree<T> {
    fn default() -> Self {
        FlatTree {
            nodes: Vec::new(),
            leaves: Vec::new(),
            depth: 0,
            work: Vec::new(),
        }
    }
}

impl<T: Copy> FlatTree<T> {
    /// Refills this copy from `tree` (which has a root), reusing the buffers.
    ///
    /// Each flat node takes a tree node's two children and, while it has a
    /// free lane, replaces its internal child with the largest perimeter by
    /// that child's two children: big boxes are split first, as a wider
    /// tree built top-down would.
    fn rebuild(&mut self, tree: &DynamicTree<T>) {
        self.nodes.clear();
        self.leaves.clear();
        self.work.clear();
        self.depth = 0;
        if tree.root == NULL {
            return;
        }
        let nodes = &tree.nodes;
        let internal = |index: u32| nodes[index as usize].slot == Slot::Internal;
        self.nodes.push(FlatNode::EMPTY);
        self.work.push((tree.root, 0, 1));
        while let Some((index, slot, level)) = self.work.pop() {
            self.depth = self.depth.max(level);
            let mut lanes = [NULL; LANES];
            let mut count = 1;
            lanes[0] = index;
            if internal(index) {
                let node = &nodes[index as usize];
                (lanes[0], lanes[1]) = (node.child1, node.child2);
                count = 2;
                while count < LANES {
                    let widest = (0..count)
                        .filter(|&k| internal(lanes[k]))
                        .map(|k| (k, nodes[lanes[k] as usize].bounds.perimeter()))
                        .fold(None, |best: Option<(usize, Real)>, (k, p)| match best {
                            Some((_, q)) if q >= p => best,
                            _ => Some((k, p)),
                        });
                    let Some((k, _)) = widest else { break };
                    let split = &nodes[lanes[k] as usize];
                    (lanes[k], lanes[count]) = (split.child1, split.child2);
                    count += 1;
                }
            }
            let mut flat = FlatNode::EMPTY;
            for (k, &lane) in lanes[..count].iter().enumerate() {
                let bounds = nodes[lane as usize].bounds;
                (flat.min_x[k], flat.min_y[k]) = (bounds.min().x, bounds.min().y);
                (flat.max_x[k], flat.max_y[k]) = (bounds.max().x, bounds.max().y);
                flat.child[k] = if internal(lane) {
                    let child = self.nodes.len() as u32;
                    self.nodes.push(FlatNode::EMPTY);
                    self.work.push((lane, child, level + 1));
                    child
                } else {
                    let data = tree.slot_data[lane as usize].user_data;
                    // Leaves always carry data; a slot without is skipped.
                    let Some(data) = data else { continue };
                    self.leaves.push((tree.id_of(lane), data));
                    LEAF | (self.leaves.len() as u32 - 1)
                };
            }
            self.nodes[slot as usize] = flat;
        }
    }

    /// Stack entries a descent of this copy may need: a popped node pushes
    /// at most [`LANES`] children one level down and the stack's levels
    /// never decrease from bottom to top, so each level holds at most
    /// `LANES - 1` pending entries and the deepest `LANES`.
    pub(super) fn stack_bound(&self) -> usize {
        (LANES - 1) * (self.depth + 1) + LANES
    }
}

impl Ray {
    /// True if the ray moves along both axes: its lanes take the fast path
    /// ([`Ray::entry_lanes_moving`]).
    #[inline(always)]
    pub(super) fn moves_on_both_axes(&self) -> bool {
        !(self.is_parallel(0) || self.is_parallel(1))
    }

    /// [`Ray::entry`] into each lane's box of `node` grown by `radius`
    /// (finite, >= 0), for a ray that moves along both axes: the entry
    /// fractions, and a bit per lane the ray reaches by `max_fraction`.
    ///
    /// The same arithmetic as `entry`, one operation over the four lanes at
    /// a time, so that the compiler makes each one SIMD instruction. An
    /// unused lane's box lies at `+inf` on both axes: its slab on x is
    /// entered at `+inf` or left at `-inf`, so it is never reached.
    #[inline(always)]
    pub(super) fn entry_lanes_moving(
        &self,
        node: &FlatNode,
        radius: Real,
        max_fraction: Real,
    ) -> ([Real; LANES], u32) {
        let (ox, oy) = (self.origin(0), self.origin(1));
        let (ix, iy) = (self.inverse(0), self.inverse(1));
        // One operation over the four lanes at a time, so each is one SIMD
        // instruction.
        let lanes = |f: &dyn Fn(usize) -> Real| -> [Real; LANES] { std::array::from_fn(f) };
        let ax = lanes(&|k| (node.min_x[k] - radius - ox) * ix);
        let bx = lanes(&|k| (node.max_x[k] + radius - ox) * ix);
        let ay = lanes(&|k| (node.min_y[k] - radius - oy) * iy);
        let by = lanes(&|k| (node.max_y[k] + radius - oy) * iy);
        // As in `entry`: the slab is entered at the fraction of the near
        // corner, which is the lower one when the ray moves towards +axis.
        let (near_x, far_x) = if ix >= 0.0 { (ax, bx) } else { (bx, ax) };
        let (near_y, far_y) = if iy >= 0.0 { (ay, by) } else { (by, ay) };
        let enter = lanes(&|k| max(max(near_x[k], near_y[k]), 0.0));
        let exit = lanes(&|k| min(min(far_x[k], far_y[k]), max_fraction));
        let mask = (0..LANES).fold(0, |mask, k| mask | (u32::from(enter[k] <= exit[k]) << k));
        (enter, mask)
    }

    /// [`Ray::entry_lanes_moving`] for any ray, including one that does not
    /// move along an axis (it must then lie inside the lane's slab).
    pub(super) fn entry_lanes(
        &self,
        node: &FlatNode,
        radius: Real,
        max_fraction: Real,
    ) -> ([Real; LANES], u32) {
        let mut enter = [0.0; LANES];
        let mut mask = 0;
        for (k, lane_enter) in enter.iter_mut().enumerate() {
            if node.child[k] == NO_CHILD {
                continue;
            }
            let bounds = super::Bounds::unchecked(
                crate::math::vec2(node.min_x[k], node.min_y[k]),
                crate::math::vec2(node.max_x[k], node.max_y[k]),
            );
            if let Some(t) = self.entry_grown(&bounds, radius, max_fraction) {
                *lane_enter = t;
                mask |= 1 << k;
            }
        }
        (enter, mask)
    }
}

/// `a < b ? a : b`: the SIMD minimum, equal to `f32::min` but for NaN,
/// which no slab test produces.
#[inline(always)]
fn min(a: Real, b: Real) -> Real {
    if a < b { a } else { b }
}

/// `a > b ? a : b`, as [`min`].
#[inline(always)]
fn max(a: Real, b: Real) -> Real {
    if a > b { a } else { b }
}

/// The lazily built flattened copy of a tree, its cast count and the
/// buffers of the last copy dropped. Not part of the tree's state: a clone
/// starts without a copy.
pub(super) struct FlatCache<T> {
    built: OnceLock<FlatTree<T>>,
    /// Casts answered since the last change, before and after the build
    /// (racy increments may lose a count; that only shifts the rule a bit).
    casts: AtomicUsize,
    /// The break-even count of the tree when the copy was built (casts the
    /// copy must answer to pay for itself), and the count it was built at.
    break_even: AtomicUsize,
    built_at: AtomicUsize,
    /// How many break-evens of casts an unchanged tree answers before the
    /// next build: doubled each time a copy is dropped before it paid for
    /// itself, halved each time one did (1 to [`MAX_PATIENCE`]).
    patience: usize,
    /// Buffers of the last dropped copy, reused by the next build.
    spare: Mutex<Option<FlatTree<T>>>,
}

/// Most break-evens of unchanged casts a tree waits for before a build,
/// after copies kept being dropped early (a tree that changes every few
/// hundred casts builds about once per thousand break-evens then).
const MAX_PATIENCE: usize = 1 << 10;

impl<T> Default for FlatCache<T> {
    fn default() -> Self {
        FlatCache {
            built: OnceLock::new(),
            casts: AtomicUsize::new(0),
            break_even: AtomicUsize::new(0),
            built_at: AtomicUsize::new(0),
            patience: 1,
            spare: Mutex::new(None),
        }
    }
}

impl<T> Clone for FlatCache<T> {
    fn clone(&self) -> Self {
        FlatCache::default()
    }
}

impl<T> std::fmt::Debug for FlatCache<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FlatCache")
            .field("built", &self.built.get().is_some())
            .field("casts", &self.casts.load(Ordering::Relaxed))
            .finish()
    }
}

impl<T> FlatCache<T> {
    /// Drops the copy (keeping its buffers) after the tree changed.
    #[inline]
    pub(super) fn invalidate(&mut self) {
        let casts = std::mem::take(self.casts.get_mut());
        if let Some(flat) = self.built.take() {
            let answered = casts.saturating_sub(*self.built_at.get_mut());
            self.patience = if answered < *self.break_even.get_mut() {
                (self.patience * 2).min(MAX_PATIENCE)
            } else {
                (self.patience / 2).max(1)
            };
            let spare = self.spare.get_mut().unwrap_or_else(PoisonError::into_inner);
            *spare = Some(flat);
        }
    }
}

impl<T: Copy> DynamicTree<T> {
    /// The flattened copy to cast against: the one built, or a new one once
    /// this cast makes enough against the unchanged tree; `None` for an
    /// empty tree or while the tree answers casts itself.
    pub(super) fn flat_for_cast(&self) -> Option<&FlatTree<T>> {
        let cache = &self.flat;
        let casts = cache.casts.load(Ordering::Relaxed).saturating_add(1);
        cache.casts.store(casts, Ordering::Relaxed);
        if let Some(flat) = cache.built.get() {
            return Some(flat);
        }
        if self.root == NULL || self.nodes.len() >= LEAF as usize {
            return None;
        }
        let break_even =
            FLATTEN_MIN_CASTS + (self.proxy_count as Real * FLATTEN_CASTS_PER_PROXY) as usize;
        if casts < break_even.saturating_mul(cache.patience) {
            return None;
        }
        cache.break_even.store(break_even, Ordering::Relaxed);
        cache.built_at.store(casts, Ordering::Relaxed);
        Some(cache.built.get_or_init(|| self.build_flat()))
    }

    /// Builds the flattened copy now (if the tree has proxies and no copy),
    /// so the next casts answer from it whatever their count. For benches
    /// and tests that measure the copy from the first cast.
    pub fn flatten(&self) {
        if self.root != NULL && self.nodes.len() < LEAF as usize {
            self.flat.built.get_or_init(|| self.build_flat());
        }
    }

    /// True while casts answer from the flattened copy (see [`flatten`](Self::flatten)).
    pub fn is_flattened(&self) -> bool {
        self.flat.built.get().is_some()
    }

    fn build_flat(&self) -> FlatTree<T> {
        let spare = self
            .flat
            .spare
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        let mut flat = spare.unwrap_or_default();
        flat.rebuild(self);
        flat
    }

    /// Checks that the flattened copy, if built, holds exactly this tree's
    /// proxies with their fat boxes, and that every lane's box contains its
    /// child node's boxes.
    pub(super) fn validate_flat(&self) -> Result<(), InvariantViolation> {
        let Some(flat) = self.flat.built.get() else {
            return Ok(());
        };
        let fail = |what| Err(InvariantViolation { node: NULL, what });
        if flat.leaves.len() != self.proxy_count {
            return fail("flattened copy holds another number of proxies");
        }
        for node in &flat.nodes {
            for k in 0..LANES {
                let child = node.child[k];
                if child == NO_CHILD {
                    if node.min_x[k] != Real::INFINITY || node.max_x[k] != Real::INFINITY {
                        return fail("unused flattened lane has a finite box");
                    }
                    continue;
                }
                let (min, max) = (
                    (node.min_x[k], node.min_y[k]),
                    (node.max_x[k], node.max_y[k]),
                );
                if child & LEAF != 0 {
                    let Some(&(id, _)) = flat.leaves.get((child & !LEAF) as usize) else {
                        return fail("flattened leaf out of range");
                    };
                    match self.fat_bounds(id) {
                        Some(b)
                            if (b.min().x, b.min().y) == min && (b.max().x, b.max().y) == max => {}
                        _ => return fail("flattened leaf box differs from the tree's"),
                    }
                } else {
                    let Some(inner) = flat.nodes.get(child as usize) else {
                        return fail("flattened child out of range");
                    };
                    for j in 0..LANES {
                        if inner.child[j] != NO_CHILD
                            && !(min.0 <= inner.min_x[j]
                                && min.1 <= inner.min_y[j]
                                && inner.max_x[j] <= max.0
                                && inner.max_y[j] <= max.1)
                        {
                            return fail("flattened child box outside its lane");
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Bounds, ProxyKind};
    use super::*;
    use crate::math::vec2;

    fn tree(count: usize) -> DynamicTree<usize> {
        let mut tree = DynamicTree::new(ProxyKind::Moving);
        for i in 0..count {
            let x = (i % 10) as Real * 2.0;
            let y = (i / 10) as Real * 2.0;
            let b = Bounds::new(vec2(x, y), vec2(x + 1.0, y + 1.0)).unwrap();
            tree.insert(b, i);
        }
        tree
    }

    /// Casts (through `flat_for_cast`) until the copy is built; returns how many.
    fn casts_to_build(tree: &DynamicTree<usize>) -> usize {
        (1..100_000)
            .find(|_| tree.flat_for_cast().is_some())
            .expect("builds")
    }

    #[test]
    fn copies_dropped_early_make_the_next_build_wait_longer() {
        let mut tree = tree(160);
        let break_even = FLATTEN_MIN_CASTS + (160.0 * FLATTEN_CASTS_PER_PROXY) as usize;
        assert_eq!(casts_to_build(&tree), break_even);
        assert!(tree.is_flattened() && tree.validate().is_ok());
        // Changed right away: the copy never paid for itself.
        let extra = tree.insert(Bounds::new(vec2(50.0, 0.0), vec2(51.0, 1.0)).unwrap(), 999);
        assert!(!tree.is_flattened());
        let break_even = FLATTEN_MIN_CASTS + (161.0 * FLATTEN_CASTS_PER_PROXY) as usize;
        assert_eq!(casts_to_build(&tree), 2 * break_even);
        // This copy answers its break-even before the next change: patience halves.
        for _ in 0..break_even {
            assert!(tree.flat_for_cast().is_some());
        }
        tree.remove(extra).unwrap();
        let break_even = FLATTEN_MIN_CASTS + (160.0 * FLATTEN_CASTS_PER_PROXY) as usize;
        assert_eq!(casts_to_build(&tree), break_even);
        assert!(tree.validate().is_ok());
    }
}
