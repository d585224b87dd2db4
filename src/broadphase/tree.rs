//! [`DynamicTree`]: a bounding-volume hierarchy of fattened boxes, kept
//! balanced by surface-area-heuristic insertion and tree rotations.

use super::flat::FlatCache;
use super::{
    AABB_MARGIN, Bounds, BroadPhaseError, MAX_MARGIN, PREDICTION_MULTIPLIER, ProxyId, ProxyKind,
    SHRINK_SLACK, STATIC_MARGIN,
};
use crate::math::{Real, Vec2, is_finite_vec};

/// The rounding slack of [`DynamicTree::keep_room`], in units in the last
/// place of the largest coordinate: the sums `keeps` makes (two growths)
/// round by one unit each, and the caller's boxes, built from poses a few
/// operations each, by a few more; 64 leaves ample room.
pub const KEEP_ROOM_ULPS: Real = 64.0;

/// "No node": the parent of the root, the children of a leaf, the end of the free list.
pub(super) const NULL: u32 = u32::MAX;

/// What a node slot currently holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(super) enum Slot {
    /// On the free list; `parent` is the next free slot.
    Free,
    /// A proxy: fat box and user data, no children.
    Leaf,
    /// Two children; its box is exactly their union.
    Internal,
}

/// The part of a slot that traversals read: 32 bytes, two per cache line.
#[derive(Clone, Debug)]
pub(super) struct Node {
    /// Fat box for a leaf, union of the children for an internal node (world).
    pub(super) bounds: Bounds,
    /// Parent slot, or the next free slot when `slot == Free`.
    pub(super) parent: u32,
    pub(super) child1: u32,
    pub(super) child2: u32,
    /// 0 for a leaf, 1 + the larger child height otherwise (saturating).
    pub(super) height: u16,
    pub(super) slot: Slot,
    /// The proxy is waiting in a broadphase move buffer.
    pub(super) moved: bool,
}

/// The part of a slot that only id checks and callbacks read, kept apart so
/// traversals touch less memory.
#[derive(Clone, Debug)]
pub(super) struct SlotData<T> {
    /// Bumped each time the slot is freed, so old ids become stale.
    pub(super) generation: u32,
    /// `Some` exactly for leaves.
    pub(super) user_data: Option<T>,
}

/// A dynamic AABB tree over world-space boxes: insert, move and remove
/// proxies in O(log n), query by box, point and (thick) ray.
///
/// Nodes live in one `Vec` with a free list (no allocation per node once the
/// array has grown). Each proxy's box is stored *fattened* by the tree's
/// margin and extended along its last displacement, so small motions do not
/// touch the tree. Insertion picks the sibling that adds the least total
/// perimeter along one lower-bound-guided path (surface-area heuristic,
/// branch and bound; see `sah.rs`) and every node on the way back up is
/// offered a rotation that shrinks a child's perimeter.
///
/// Deterministic: the structure depends only on the sequence of calls, and
/// traversals follow the structure (no hashing, no randomness).
///
/// # Examples
/// ```
/// use circlet::broadphase::{Bounds, DynamicTree, ProxyKind};
/// use circlet::math::vec2;
/// let mut tree = DynamicTree::new(ProxyKind::Moving);
/// let a = tree.insert(Bounds::new(vec2(0.0, 0.0), vec2(1.0, 1.0)).unwrap(), 'a');
/// let _b = tree.insert(Bounds::new(vec2(5.0, 0.0), vec2(6.0, 1.0)).unwrap(), 'b');
/// let mut found = Vec::new();
/// tree.query_aabb(&Bounds::new(vec2(0.5, 0.5), vec2(2.0, 2.0)).unwrap(), |id, data| {
///     found.push((id, data));
///     true // keep going
/// });
/// assert_eq!(found, vec![(a, 'a')]);
/// assert!(tree.validate().is_ok());
/// ```
#[derive(Clone, Debug)]
pub struct DynamicTree<T: Copy> {
    kind: ProxyKind,
    margin: Real,
    pub(super) nodes: Vec<Node>,
    /// Parallel to `nodes`.
    pub(super) slot_data: Vec<SlotData<T>>,
    pub(super) root: u32,
    pub(super) free_list: u32,
    pub(super) proxy_count: usize,
    /// Always true outside tests, which turn it off to measure what rotations buy.
    pub(super) rotations_enabled: bool,
    /// The flattened copy casts read once the tree stops changing; dropped
    /// by every change.
    pub(super) flat: FlatCache<T>,
}

impl<T: Copy> DynamicTree<T> {
    /// An empty tree for proxies of `kind`, fattening boxes by that kind's
    /// default margin ([`AABB_MARGIN`] for moving, [`STATIC_MARGIN`] for static).
    pub fn new(kind: ProxyKind) -> Self {
        let margin = match kind {
            ProxyKind::Static => STATIC_MARGIN,
            ProxyKind::Moving => AABB_MARGIN,
        };
        DynamicTree {
            kind,
            margin,
            nodes: Vec::new(),
            slot_data: Vec::new(),
            root: NULL,
            free_list: NULL,
            proxy_count: 0,
            rotations_enabled: true,
            flat: FlatCache::default(),
        }
    }

    /// An empty tree with its own fattening margin (metres, `0..=MAX_MARGIN`).
    ///
    /// # Errors
    /// [`BroadPhaseError::BadMargin`] for a NaN, negative or too large margin.
    pub fn with_margin(kind: ProxyKind, margin: Real) -> Result<Self, BroadPhaseError> {
        if !(0.0..=MAX_MARGIN).contains(&margin) {
            return Err(BroadPhaseError::BadMargin {
                value: margin,
                max: MAX_MARGIN,
            });
        }
        Ok(DynamicTree {
            margin,
            ..Self::new(kind)
        })
    }

    /// The kind of proxy this tree holds (stamped into every id it hands out).
    pub fn kind(&self) -> ProxyKind {
        self.kind
    }

    /// How far (metres) each stored box reaches beyond the box it was given.
    pub fn margin(&self) -> Real {
        self.margin
    }

    /// Number of proxies.
    pub fn len(&self) -> usize {
        self.proxy_count
    }

    /// True when the tree holds no proxy.
    pub fn is_empty(&self) -> bool {
        self.proxy_count == 0
    }

    /// Height of the root: 0 for an empty tree or a single proxy, about
    /// log2(n) for a balanced one.
    pub fn height(&self) -> u32 {
        if self.root == NULL {
            0
        } else {
            u32::from(self.nodes[self.root as usize].height)
        }
    }

    /// Box around every proxy (world), `None` when empty.
    pub fn root_bounds(&self) -> Option<Bounds> {
        (self.root != NULL).then(|| self.nodes[self.root as usize].bounds)
    }

    /// Adds a proxy for the world box `bounds` and returns its id. The stored
    /// (fat) box is `bounds` grown by the tree's margin.
    pub fn insert(&mut self, bounds: Bounds, user_data: T) -> ProxyId {
        // margin <= MAX_MARGIN, so growing finite corners stays finite (it
        // rounds back to f32::MAX at worst).
        let fat = bounds.inflated_unchecked(self.margin);
        self.flat.invalidate();
        let leaf = self.allocate_node();
        let node = &mut self.nodes[leaf as usize];
        node.bounds = fat;
        node.slot = Slot::Leaf;
        let data = &mut self.slot_data[leaf as usize];
        data.user_data = Some(user_data);
        let id = ProxyId::new(self.kind, leaf, data.generation);
        self.insert_leaf(leaf);
        self.proxy_count += 1;
        id
    }

    /// Removes a proxy and returns its user data.
    ///
    /// # Errors
    /// [`BroadPhaseError::StaleProxy`] for an id already removed,
    /// [`BroadPhaseError::WrongKind`] for an id of the other kind of tree.
    pub fn remove(&mut self, id: ProxyId) -> Result<T, BroadPhaseError> {
        let leaf = self.leaf_index(id)?;
        let user_data = self.slot_data[leaf as usize].user_data;
        self.flat.invalidate();
        self.remove_leaf(leaf);
        self.free_node(leaf);
        self.proxy_count -= 1;
        user_data.ok_or(BroadPhaseError::StaleProxy { id })
    }

    /// Tells the tree that the proxy's tight world box is now `bounds`, having
    /// moved by `displacement` (metres) since the last call.
    ///
    /// Returns `Ok(true)` when the proxy was re-inserted (its tight box left
    /// the fat box, or the fat box had become much larger than needed); the new
    /// fat box is `bounds` grown by the margin and stretched by
    /// [`PREDICTION_MULTIPLIER`] times `displacement` in the direction of
    /// motion. `Ok(false)` when nothing changed.
    ///
    /// # Errors
    /// [`BroadPhaseError::StaleProxy`] / [`BroadPhaseError::WrongKind`] for a
    /// bad id, [`BroadPhaseError::NonFinite`] for a NaN or infinite
    /// displacement (or one so large the predicted box overflows).
    #[inline]
    pub fn move_proxy(
        &mut self,
        id: ProxyId,
        bounds: Bounds,
        displacement: Vec2,
    ) -> Result<bool, BroadPhaseError> {
        self.move_proxy_from(id, bounds, displacement)
            .map(|from| from.is_some())
    }

    /// [`Self::move_proxy`] that returns the fat box the proxy had before,
    /// `Some` exactly when it was re-inserted.
    #[inline]
    pub(super) fn move_proxy_from(
        &mut self,
        id: ProxyId,
        bounds: Bounds,
        displacement: Vec2,
    ) -> Result<Option<Bounds>, BroadPhaseError> {
        let leaf = self.leaf_index(id)?;
        let fat = self.predicted_fat_bounds(&bounds, displacement)?;
        let stored = self.nodes[leaf as usize].bounds;
        if self.keeps_fat(&stored, &bounds, &fat) {
            return Ok(None);
        }
        self.reinsert(leaf, fat);
        Ok(Some(stored))
    }

    /// True if [`Self::move_proxy`] keeps a proxy whose stored box is
    /// `stored`, for the tight box `bounds` moved by `displacement`: the
    /// same decision, made from a copy of the stored box without reading
    /// the tree. False when `move_proxy` would refuse the displacement.
    #[inline]
    pub fn keeps(&self, stored: &Bounds, bounds: &Bounds, displacement: Vec2) -> bool {
        self.predicted_fat_bounds(bounds, displacement)
            .is_ok_and(|fat| self.keeps_fat(stored, bounds, &fat))
    }

    /// How far (m) the tight box may stray from `end` while [`Self::keeps`]
    /// is sure to keep the stored box `stored`: for every `d` up to the
    /// result, every finite displacement and every tight box whose corners
    /// each lie within `d` of `end`'s (`|bounds.min − end.min| ≤ d` and
    /// `|bounds.max − end.max| ≤ d` on both axes), `keeps` is true. Negative
    /// when no such `d` is known, NaN for boxes that are not finite.
    ///
    /// The stored box must contain the tight box (its inner room: the least
    /// gap between `end` and `stored`) and must not reach more than
    /// `(1 + SHRINK_SLACK)` margins beyond it (`keeps` grows the tight box
    /// by the margin, then by the shrink slack; the prediction only adds):
    /// the outer room is what is left of that after the widest gap. Less a
    /// slack for the rounding of those sums and of the caller's boxes:
    /// [`KEEP_ROOM_ULPS`] units in the last place of the largest coordinate.
    #[inline]
    pub fn keep_room(&self, stored: &Bounds, end: &Bounds) -> Real {
        let (s, e) = ((stored.min(), stored.max()), (end.min(), end.max()));
        let gaps = [e.0.x - s.0.x, e.0.y - s.0.y, s.1.x - e.1.x, s.1.y - e.1.y];
        let inner = gaps.iter().copied().fold(Real::INFINITY, Real::min);
        let widest = gaps.iter().copied().fold(Real::NEG_INFINITY, Real::max);
        let outer = (1.0 + SHRINK_SLACK) * self.margin - widest;
        let largest = [s.0, s.1, e.0, e.1]
            .iter()
            .map(|v| v.x.abs().max(v.y.abs()))
            .fold(self.margin, Real::max);
        inner.min(outer) - KEEP_ROOM_ULPS * Real::EPSILON * largest
    }

    /// Still inside the stored box, and the stored box is not far larger
    /// than the one `move_proxy` would build now (after a fast motion
    /// stopped).
    #[inline(always)]
    fn keeps_fat(&self, stored: &Bounds, bounds: &Bounds, fat: &Bounds) -> bool {
        stored.contains(bounds)
            && fat
                .inflated_unchecked(SHRINK_SLACK * self.margin)
                .contains(stored)
    }

    /// Takes `leaf` out of the tree and puts it back with the box `fat`.
    /// Out of line: most moves keep their proxy and never get here.
    #[inline(never)]
    fn reinsert(&mut self, leaf: u32, fat: Bounds) {
        self.flat.invalidate();
        self.remove_leaf(leaf);
        self.nodes[leaf as usize].bounds = fat;
        self.insert_leaf(leaf);
    }

    /// The stored (fat) world box of a proxy, `None` for a stale id.
    pub fn fat_bounds(&self, id: ProxyId) -> Option<Bounds> {
        let leaf = self.leaf_index(id).ok()?;
        Some(self.nodes[leaf as usize].bounds)
    }

    /// The user data of a proxy, `None` for a stale id.
    pub fn user_data(&self, id: ProxyId) -> Option<T> {
        let leaf = self.leaf_index(id).ok()?;
        self.slot_data[leaf as usize].user_data
    }

    /// Replaces the user data of a proxy.
    ///
    /// # Errors
    /// [`BroadPhaseError::StaleProxy`] / [`BroadPhaseError::WrongKind`].
    pub fn set_user_data(&mut self, id: ProxyId, user_data: T) -> Result<(), BroadPhaseError> {
        let leaf = self.leaf_index(id)?;
        self.flat.invalidate();
        self.slot_data[leaf as usize].user_data = Some(user_data);
        Ok(())
    }

    /// True if `id` names a live proxy of this tree.
    pub fn contains(&self, id: ProxyId) -> bool {
        self.leaf_index(id).is_ok()
    }

    /// Every proxy with its fat box and user data, in slot order.
    pub fn proxies(&self) -> impl Iterator<Item = (ProxyId, Bounds, T)> + '_ {
        let slots = self.nodes.iter().zip(&self.slot_data).enumerate();
        slots.filter_map(|(index, (node, data))| {
            let user_data = data.user_data.filter(|_| node.slot == Slot::Leaf)?;
            let id = ProxyId::new(self.kind, index as u32, data.generation);
            Some((id, node.bounds, user_data))
        })
    }

    /// Removes every proxy (ids handed out before become stale) and keeps the
    /// node array's memory.
    pub fn clear(&mut self) {
        self.flat.invalidate();
        for index in 0..self.nodes.len() as u32 {
            if self.nodes[index as usize].slot != Slot::Free {
                self.free_node(index);
            }
        }
        self.root = NULL;
        self.proxy_count = 0;
    }

    /// The slot of a live leaf named by `id`.
    #[inline]
    pub(super) fn leaf_index(&self, id: ProxyId) -> Result<u32, BroadPhaseError> {
        if id.kind() != self.kind {
            return Err(BroadPhaseError::WrongKind {
                id,
                expected: self.kind,
            });
        }
        let index = id.index() as usize;
        match (self.nodes.get(index), self.slot_data.get(index)) {
            (Some(node), Some(data))
                if node.slot == Slot::Leaf && data.generation == id.generation() =>
            {
                Ok(id.index())
            }
            _ => Err(BroadPhaseError::StaleProxy { id }),
        }
    }

    /// The id of the leaf in `index` (which must be a leaf).
    #[inline]
    pub(super) fn id_of(&self, index: u32) -> ProxyId {
        ProxyId::new(self.kind, index, self.slot_data[index as usize].generation)
    }

    /// Fat box for a tight box that moved by `displacement`.
    #[inline]
    fn predicted_fat_bounds(
        &self,
        bounds: &Bounds,
        displacement: Vec2,
    ) -> Result<Bounds, BroadPhaseError> {
        if !is_finite_vec(displacement) {
            return Err(BroadPhaseError::NonFinite {
                field: "displacement",
            });
        }
        let fat = bounds.inflated_unchecked(self.margin);
        let (mut min, mut max) = (fat.min(), fat.max());
        let ahead = displacement * PREDICTION_MULTIPLIER;
        for axis in 0..2 {
            if ahead[axis] < 0.0 {
                min[axis] += ahead[axis];
            } else {
                max[axis] += ahead[axis];
            }
        }
        if !(is_finite_vec(min) && is_finite_vec(max)) {
            return Err(BroadPhaseError::NonFinite {
                field: "displacement",
            });
        }
        Ok(Bounds::unchecked(min, max))
    }

    fn allocate_node(&mut self) -> u32 {
        let placeholder = Bounds::unchecked(Vec2::zeros(), Vec2::zeros());
        if self.free_list != NULL {
            let index = self.free_list;
            let node = &mut self.nodes[index as usize];
            self.free_list = node.parent;
            node.bounds = placeholder;
            node.parent = NULL;
            node.child1 = NULL;
            node.child2 = NULL;
            node.height = 0;
            node.moved = false;
            node.slot = Slot::Internal;
            self.slot_data[index as usize].user_data = None;
            index
        } else {
            let index = self.nodes.len() as u32;
            self.nodes.push(Node {
                bounds: placeholder,
                parent: NULL,
                child1: NULL,
                child2: NULL,
                height: 0,
                slot: Slot::Internal,
                moved: false,
            });
            self.slot_data.push(SlotData {
                generation: 0,
                user_data: None,
            });
            index
        }
    }

    fn free_node(&mut self, index: u32) {
        let data = &mut self.slot_data[index as usize];
        data.generation = data.generation.wrapping_add(1);
        data.user_data = None;
        let node = &mut self.nodes[index as usize];
        node.slot = Slot::Free;
        node.moved = false;
        node.child1 = NULL;
        node.child2 = NULL;
        node.height = 0;
        node.parent = self.free_list;
        self.free_list = index;
    }

    /// Links the detached leaf `leaf` into the tree next to the best sibling.
    fn insert_leaf(&mut self, leaf: u32) {
        if self.root == NULL {
            self.root = leaf;
            self.nodes[leaf as usize].parent = NULL;
            return;
        }
        let leaf_bounds = self.nodes[leaf as usize].bounds;
        let sibling = self.find_best_sibling(&leaf_bounds);
        let old_parent = self.nodes[sibling as usize].parent;
        let new_parent = self.allocate_node();
        {
            let sibling_node = &self.nodes[sibling as usize];
            let (bounds, height) = (
                sibling_node.bounds.union(&leaf_bounds),
                sibling_node.height.saturating_add(1),
            );
            let node = &mut self.nodes[new_parent as usize];
            node.parent = old_parent;
            node.child1 = sibling;
            node.child2 = leaf;
            node.bounds = bounds;
            node.height = height;
        }
        self.nodes[sibling as usize].parent = new_parent;
        self.nodes[leaf as usize].parent = new_parent;
        if old_parent == NULL {
            self.root = new_parent;
        } else {
            self.replace_child(old_parent, sibling, new_parent);
        }
        self.refit_upwards(new_parent);
    }

    /// Unlinks `leaf` (which stays allocated) and frees its parent.
    fn remove_leaf(&mut self, leaf: u32) {
        if leaf == self.root {
            self.root = NULL;
            return;
        }
        let parent = self.nodes[leaf as usize].parent;
        let grandparent = self.nodes[parent as usize].parent;
        let parent_node = &self.nodes[parent as usize];
        let sibling = if parent_node.child1 == leaf {
            parent_node.child2
        } else {
            parent_node.child1
        };
        self.nodes[sibling as usize].parent = grandparent;
        if grandparent == NULL {
            self.root = sibling;
        } else {
            self.replace_child(grandparent, parent, sibling);
        }
        self.free_node(parent);
        self.nodes[leaf as usize].parent = NULL;
        if grandparent != NULL {
            self.refit_upwards(grandparent);
        }
    }

    pub(super) fn replace_child(&mut self, parent: u32, old_child: u32, new_child: u32) {
        let node = &mut self.nodes[parent as usize];
        if node.child1 == old_child {
            node.child1 = new_child;
        } else {
            node.child2 = new_child;
        }
    }

    /// Recomputes boxes and heights from `index` to the root, offering each
    /// node a rotation on the way.
    fn refit_upwards(&mut self, mut index: u32) {
        while index != NULL {
            self.refit(index);
            if self.rotations_enabled {
                self.rotate(index);
            }
            index = self.nodes[index as usize].parent;
        }
    }

    /// Box = union of the children, height = 1 + the larger child height.
    #[inline]
    pub(super) fn refit(&mut self, index: u32) {
        let node = &self.nodes[index as usize];
        let (n1, n2) = (
            &self.nodes[node.child1 as usize],
            &self.nodes[node.child2 as usize],
        );
        let (bounds, height) = (
            n1.bounds.union(&n2.bounds),
            n1.height.max(n2.height).saturating_add(1),
        );
        let node = &mut self.nodes[index as usize];
        node.bounds = bounds;
        node.height = height;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;

    fn unit_at(x: Real, y: Real) -> Bounds {
        Bounds::new(vec2(x, y), vec2(x + 1.0, y + 1.0)).unwrap()
    }

    #[test]
    fn traversed_node_part_is_half_a_cache_line() {
        assert_eq!(std::mem::size_of::<Node>(), 32);
    }

    #[test]
    fn insert_fattens_by_the_margin() {
        let mut tree = DynamicTree::new(ProxyKind::Moving);
        let id = tree.insert(unit_at(0.0, 0.0), 7u32);
        let fat = tree.fat_bounds(id).unwrap();
        assert_eq!(fat, unit_at(0.0, 0.0).inflated(AABB_MARGIN).unwrap());
        assert_eq!(tree.user_data(id), Some(7));
        let mut still = DynamicTree::new(ProxyKind::Static);
        let id = still.insert(unit_at(0.0, 0.0), 7u32);
        assert_eq!(still.fat_bounds(id), Some(unit_at(0.0, 0.0)));
    }

    #[test]
    fn stale_and_foreign_ids_are_errors_not_panics() {
        let mut tree = DynamicTree::new(ProxyKind::Moving);
        let a = tree.insert(unit_at(0.0, 0.0), 1u8);
        assert_eq!(tree.remove(a), Ok(1));
        assert_eq!(tree.remove(a), Err(BroadPhaseError::StaleProxy { id: a }));
        // The slot is reused: the old id stays stale.
        let b = tree.insert(unit_at(3.0, 0.0), 2u8);
        assert_eq!(a.index(), b.index());
        assert!(!tree.contains(a) && tree.contains(b));
        assert_eq!(tree.fat_bounds(a), None);
        assert!(
            tree.move_proxy(a, unit_at(0.0, 0.0), vec2(0.0, 0.0))
                .is_err()
        );
        assert!(tree.set_user_data(a, 9).is_err());
        let mut other = DynamicTree::new(ProxyKind::Static);
        let s = other.insert(unit_at(0.0, 0.0), 3u8);
        assert_eq!(
            tree.remove(s),
            Err(BroadPhaseError::WrongKind {
                id: s,
                expected: ProxyKind::Moving
            })
        );
        // An index past the end.
        let far = ProxyId::new(ProxyKind::Moving, 1_000, 0);
        assert_eq!(
            tree.remove(far),
            Err(BroadPhaseError::StaleProxy { id: far })
        );
        assert!(tree.validate().is_ok());
    }

    #[test]
    fn small_moves_stay_put_and_large_moves_reinsert() {
        let mut tree = DynamicTree::new(ProxyKind::Moving);
        let id = tree.insert(unit_at(0.0, 0.0), ());
        let nudge = vec2(0.5 * AABB_MARGIN, 0.0);
        assert_eq!(tree.move_proxy(id, unit_at(nudge.x, 0.0), nudge), Ok(false));
        assert_eq!(
            tree.move_proxy(id, unit_at(2.0, 0.0), vec2(2.0, 0.0)),
            Ok(true)
        );
        // The new fat box is stretched ahead along the motion.
        let fat = tree.fat_bounds(id).unwrap();
        assert_eq!(fat.min().x, 2.0 - AABB_MARGIN);
        assert_eq!(fat.max().x, 3.0 + AABB_MARGIN + PREDICTION_MULTIPLIER * 2.0);
        // Standing still: the box stretched for the fast motion is far larger
        // than a resting proxy needs, so it is shrunk.
        assert_eq!(
            tree.move_proxy(id, unit_at(2.0, 0.0), vec2(0.0, 0.0)),
            Ok(true)
        );
        assert_eq!(
            tree.fat_bounds(id),
            unit_at(2.0, 0.0).inflated(AABB_MARGIN).ok()
        );
        assert!(
            tree.move_proxy(id, unit_at(2.0, 0.0), vec2(Real::NAN, 0.0))
                .is_err()
        );
        assert!(
            tree.move_proxy(id, unit_at(2.0, 0.0), vec2(Real::MAX, 0.0))
                .is_err()
        );
        assert!(tree.validate().is_ok());
    }

    #[test]
    fn bad_margins_are_rejected() {
        assert!(DynamicTree::<()>::with_margin(ProxyKind::Moving, -0.1).is_err());
        assert!(DynamicTree::<()>::with_margin(ProxyKind::Moving, Real::NAN).is_err());
        assert!(DynamicTree::<()>::with_margin(ProxyKind::Moving, 2.0 * MAX_MARGIN).is_err());
        assert_eq!(
            DynamicTree::<()>::with_margin(ProxyKind::Static, 0.25)
                .unwrap()
                .margin(),
            0.25
        );
    }

    #[test]
    fn clear_frees_everything_and_ids_go_stale() {
        let mut tree = DynamicTree::new(ProxyKind::Moving);
        let ids: Vec<_> = (0..50)
            .map(|i| tree.insert(unit_at(i as Real, 0.0), i))
            .collect();
        assert_eq!(tree.proxies().count(), 50);
        tree.clear();
        assert!(tree.is_empty() && tree.validate().is_ok());
        assert!(ids.iter().all(|id| !tree.contains(*id)));
        let again = tree.insert(unit_at(0.0, 0.0), 0);
        assert!(tree.contains(again) && tree.validate().is_ok());
    }

    #[test]
    fn huge_boxes_do_not_break_the_tree() {
        // A box spanning the whole f32 range (an infinite line's bounds) has an
        // infinite perimeter; insertion costs become inf/NaN but the tree stays valid.
        let mut tree = DynamicTree::new(ProxyKind::Moving);
        let everything =
            Bounds::new(vec2(-Real::MAX, -Real::MAX), vec2(Real::MAX, Real::MAX)).unwrap();
        let big = tree.insert(everything, 0);
        for i in 0..20 {
            tree.insert(unit_at(i as Real, 0.0), i + 1);
        }
        tree.insert(everything, 99);
        assert!(tree.validate().is_ok());
        assert_eq!(tree.remove(big), Ok(0));
        assert!(tree.validate().is_ok());
        let mut hits = 0;
        tree.query_point(vec2(1e30, -1e30), |_, _| {
            hits += 1;
            true
        });
        assert_eq!(hits, 1);
    }
}
