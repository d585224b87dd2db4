//! [`BroadPhase`]: a static and a moving [`DynamicTree`], a move buffer, and
//! deterministic pair finding.

use super::{Bounds, BroadPhaseError, DynamicTree, InvariantViolation, ProxyId, ProxyKind};
use crate::math::{Real, Vec2};

/// Pair finding over two trees: static proxies (tight boxes, never paired
/// with each other) and moving proxies (fattened, velocity-predicted boxes).
///
/// Proxies that were created, re-inserted by [`move_proxy`](Self::move_proxy)
/// or [`touch_proxy`](Self::touch_proxy) since the last
/// [`update_pairs`](Self::update_pairs) wait in the move buffer; only they
/// are queried, so a step costs O(m log n) for m moved proxies.
///
/// # Examples
/// ```
/// use circlet::broadphase::{BroadPhase, Bounds, ProxyKind};
/// use circlet::math::vec2;
/// let mut broad_phase = BroadPhase::new();
/// let ground = broad_phase.create_proxy(
///     Bounds::new(vec2(-10.0, -1.0), vec2(10.0, 0.0)).unwrap(), ProxyKind::Static, "ground");
/// let ball = broad_phase.create_proxy(
///     Bounds::new(vec2(-0.5, 0.0), vec2(0.5, 1.0)).unwrap(), ProxyKind::Moving, "ball");
/// let far = broad_phase.create_proxy(
///     Bounds::new(vec2(0.0, 5.0), vec2(1.0, 6.0)).unwrap(), ProxyKind::Moving, "far");
/// let mut pairs = Vec::new();
/// broad_phase.update_pairs(&mut pairs);
/// assert_eq!(pairs, vec![(ground, ball)]);
/// // Nothing moved since: no pairs to report.
/// broad_phase.update_pairs(&mut pairs);
/// assert!(pairs.is_empty());
/// # let _ = far;
/// ```
#[derive(Clone, Debug)]
pub struct BroadPhase<T: Copy> {
    static_tree: DynamicTree<T>,
    moving_tree: DynamicTree<T>,
    /// Proxies to query at the next `update_pairs`; each live one appears once
    /// (its node's `moved` flag), entries of removed proxies are skipped.
    move_buffer: Vec<ProxyId>,
    /// Parallel to `move_buffer`: the fat box each proxy had at the last
    /// pair update, `None` for a proxy created or touched since (every pair
    /// of it may be new). Read by [`Self::update_new_pairs_with`].
    moved_from: Vec<Option<Bounds>>,
}

impl<T: Copy> Default for BroadPhase<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Copy> BroadPhase<T> {
    /// An empty broadphase with the default margins.
    pub fn new() -> Self {
        BroadPhase {
            static_tree: DynamicTree::new(ProxyKind::Static),
            moving_tree: DynamicTree::new(ProxyKind::Moving),
            move_buffer: Vec::new(),
            moved_from: Vec::new(),
        }
    }

    /// The tree holding proxies of `kind` (for queries restricted to one kind).
    pub fn tree(&self, kind: ProxyKind) -> &DynamicTree<T> {
        match kind {
            ProxyKind::Static => &self.static_tree,
            ProxyKind::Moving => &self.moving_tree,
        }
    }

    fn tree_mut(&mut self, kind: ProxyKind) -> &mut DynamicTree<T> {
        match kind {
            ProxyKind::Static => &mut self.static_tree,
            ProxyKind::Moving => &mut self.moving_tree,
        }
    }

    /// Total number of proxies (both kinds).
    pub fn proxy_count(&self) -> usize {
        self.static_tree.len() + self.moving_tree.len()
    }

    /// Adds a proxy for the world box `bounds`; its pairs are reported by the
    /// next [`update_pairs`](Self::update_pairs).
    pub fn create_proxy(&mut self, bounds: Bounds, kind: ProxyKind, user_data: T) -> ProxyId {
        let id = self.tree_mut(kind).insert(bounds, user_data);
        self.buffer_move(id, None);
        id
    }

    /// Removes a proxy and returns its user data.
    ///
    /// # Errors
    /// [`BroadPhaseError::StaleProxy`] for an id already removed.
    pub fn destroy_proxy(&mut self, id: ProxyId) -> Result<T, BroadPhaseError> {
        // The move buffer may still name it; update_pairs skips stale entries.
        self.tree_mut(id.kind()).remove(id)
    }

    /// Reports the proxy's new tight world box and its displacement since the
    /// last call (see [`DynamicTree::move_proxy`]). Returns `Ok(true)` when the
    /// fat box changed, in which case the proxy's pairs are looked up again at
    /// the next [`update_pairs`](Self::update_pairs).
    ///
    /// # Errors
    /// As [`DynamicTree::move_proxy`].
    #[inline]
    pub fn move_proxy(
        &mut self,
        id: ProxyId,
        bounds: Bounds,
        displacement: Vec2,
    ) -> Result<bool, BroadPhaseError> {
        // The box it had: that of the last pair update, unless a move
        // since then buffered it already (and keeps that one).
        let from = self
            .tree_mut(id.kind())
            .move_proxy_from(id, bounds, displacement)?;
        if from.is_some() {
            self.buffer_move(id, from);
        }
        Ok(from.is_some())
    }

    /// True if [`Self::move_proxy`] would keep the proxy of kind `kind`
    /// whose stored fat box is `stored` (a copy of what
    /// [`Self::fat_bounds`] returns) where it is: the same decision, from
    /// the copy, without reading the tree. A caller that keeps such copies
    /// skips the call for every proxy that stays.
    #[inline]
    pub fn keeps(
        &self,
        kind: ProxyKind,
        stored: &Bounds,
        bounds: &Bounds,
        displacement: Vec2,
    ) -> bool {
        self.tree(kind).keeps(stored, bounds, displacement)
    }

    /// [`DynamicTree::keep_room`] in the tree of proxies of kind `kind`: how
    /// far a tight box may stray from `end` while a proxy whose stored box
    /// is `stored` is sure to stay where it is.
    #[inline]
    pub fn keep_room(&self, kind: ProxyKind, stored: &Bounds, end: &Bounds) -> Real {
        self.tree(kind).keep_room(stored, end)
    }

    /// Queues a proxy for pair finding without moving it (e.g. after its
    /// collision filter changed, or a body woke up). Every pair of a touched
    /// proxy is reported again, also by
    /// [`update_new_pairs_with`](Self::update_new_pairs_with).
    ///
    /// # Errors
    /// [`BroadPhaseError::StaleProxy`].
    pub fn touch_proxy(&mut self, id: ProxyId) -> Result<(), BroadPhaseError> {
        let index = self.tree(id.kind()).leaf_index(id)?;
        if self.tree(id.kind()).nodes[index as usize].moved {
            // Already buffered (rare: a touch after a move in one step).
            if let Some(k) = self
                .move_buffer
                .iter()
                .rposition(|&buffered| buffered == id)
            {
                self.moved_from[k] = None;
            }
        }
        self.buffer_move(id, None);
        Ok(())
    }

    /// Buffers `id` for the next pair update, with its fat box at the last
    /// update (`None`: all its pairs may be new); a proxy already buffered
    /// keeps the box it was buffered with.
    fn buffer_move(&mut self, id: ProxyId, from: Option<Bounds>) {
        let tree = self.tree_mut(id.kind());
        if let Ok(index) = tree.leaf_index(id) {
            let node = &mut tree.nodes[index as usize];
            if !node.moved {
                node.moved = true;
                self.move_buffer.push(id);
                self.moved_from.push(from);
            }
        }
    }

    /// Number of proxies waiting for the next [`update_pairs`](Self::update_pairs).
    pub fn pending_moves(&self) -> usize {
        self.move_buffer.len()
    }

    /// The fat world box of a proxy, `None` for a stale id.
    pub fn fat_bounds(&self, id: ProxyId) -> Option<Bounds> {
        self.tree(id.kind()).fat_bounds(id)
    }

    /// The user data of a proxy, `None` for a stale id.
    pub fn user_data(&self, id: ProxyId) -> Option<T> {
        self.tree(id.kind()).user_data(id)
    }

    /// Clears `out` and fills it with every pair of proxies whose fat boxes
    /// overlap or touch and of which at least one is in the move buffer;
    /// static–static pairs are never reported. Each pair appears once as
    /// `(a, b)` with `a < b`, and the list is sorted (by kind, then slot, then
    /// generation), so the result does not depend on the trees' shapes.
    /// Empties the move buffer.
    ///
    /// Pairs that already existed before the move are reported again: the
    /// caller keeps its own set of live pairs and skips those it knows.
    /// Once the buffers have grown to the scene's size this allocates nothing.
    pub fn update_pairs(&mut self, out: &mut Vec<(ProxyId, ProxyId)>) {
        out.clear();
        self.visit_moved_pairs(false, |a, b, _, _| out.push((a, b)));
        self.clear_move_buffer();
        out.sort_unstable();
        // The rule above reports each pair once; this only guards the contract.
        out.dedup();
    }

    /// [`update_pairs`](Self::update_pairs) for callers that keep their own
    /// order: calls `report(user_data_a, user_data_b)` for each pair, once,
    /// in the order the trees meet them (fixed by the sequence of calls, as
    /// the trees' shapes are, but not sorted), and empties the move buffer.
    /// Saves the sort and the id lookups when the caller sorts anyway.
    pub fn update_pairs_with(&mut self, mut report: impl FnMut(T, T)) {
        self.visit_moved_pairs(false, |_, _, a, b| report(a, b));
        self.clear_move_buffer();
    }

    /// [`update_pairs_with`](Self::update_pairs_with) for a caller that
    /// keeps every pair whose fat boxes overlapped at the last update (and
    /// drops a pair only once its boxes stop overlapping): leaves out the
    /// pairs it must already hold, those of a re-inserted proxy and a proxy
    /// that did not move whose boxes overlapped before the move. Pairs of
    /// proxies created or touched since, and of two moved proxies, are all
    /// reported. In a pile of tumbling bodies most pairs of a re-inserted
    /// proxy are such old pairs, and the caller no longer looks each up.
    pub fn update_new_pairs_with(&mut self, mut report: impl FnMut(T, T)) {
        self.visit_moved_pairs(true, |_, _, a, b| report(a, b));
        self.clear_move_buffer();
    }

    /// Calls `report(a, b, data_a, data_b)`, `a < b`, once for every pair of
    /// overlapping fat boxes with at least one buffered proxy (not
    /// static–static); with `new_only`, not for the old pairs
    /// [`Self::update_new_pairs_with`] leaves out.
    fn visit_moved_pairs(&self, new_only: bool, mut report: impl FnMut(ProxyId, ProxyId, T, T)) {
        let (static_tree, moving_tree) = (&self.static_tree, &self.moving_tree);
        for (&query_id, &from) in self.move_buffer.iter().zip(&self.moved_from) {
            let from = from.filter(|_| new_only);
            let query_tree = match query_id.kind() {
                ProxyKind::Static => static_tree,
                ProxyKind::Moving => moving_tree,
            };
            let Ok(query_index) = query_tree.leaf_index(query_id) else {
                continue; // removed after it was buffered
            };
            let fat = query_tree.nodes[query_index as usize].bounds;
            let Some(query_data) = query_tree.slot_data[query_index as usize].user_data else {
                continue;
            };
            // A pair of two buffered proxies is reported by the query of the
            // smaller id only.
            let mut visit = |tree: &DynamicTree<T>, other: ProxyId, other_data: T| {
                if other == query_id {
                    return true;
                }
                let other_node = &tree.nodes[other.index() as usize];
                if other_node.moved && other < query_id {
                    return true;
                }
                // Boxes that overlapped at the last update: an old pair.
                if !other_node.moved && from.is_some_and(|from| from.overlaps(&other_node.bounds)) {
                    return true;
                }
                if query_id < other {
                    report(query_id, other, query_data, other_data);
                } else {
                    report(other, query_id, other_data, query_data);
                }
                true
            };
            moving_tree.query_aabb(&fat, |other, data| visit(moving_tree, other, data));
            if query_id.kind() == ProxyKind::Moving {
                static_tree.query_aabb(&fat, |other, data| visit(static_tree, other, data));
            }
        }
    }

    /// Clears the moved flags of the buffered proxies and empties the buffer.
    fn clear_move_buffer(&mut self) {
        for index in 0..self.move_buffer.len() {
            let id = self.move_buffer[index];
            let tree = self.tree_mut(id.kind());
            if let Ok(leaf) = tree.leaf_index(id) {
                tree.nodes[leaf as usize].moved = false;
            }
        }
        self.move_buffer.clear();
        self.moved_from.clear();
    }

    /// [`DynamicTree::query_aabb`] over the static tree, then the moving one.
    /// Returns `false` if the callback stopped the query.
    pub fn query_aabb<F>(&self, bounds: &Bounds, mut callback: F) -> bool
    where
        F: FnMut(ProxyId, T) -> bool,
    {
        self.static_tree.query_aabb(bounds, &mut callback)
            && self.moving_tree.query_aabb(bounds, &mut callback)
    }

    /// [`DynamicTree::query_point`] over the static tree, then the moving one.
    /// Returns `false` if the callback stopped the query.
    pub fn query_point<F>(&self, point: Vec2, mut callback: F) -> bool
    where
        F: FnMut(ProxyId, T) -> bool,
    {
        self.static_tree.query_point(point, &mut callback)
            && self.moving_tree.query_point(point, &mut callback)
    }

    /// [`DynamicTree::ray_cast`] over the static tree, then the moving one
    /// with the maximum fraction clipped by the first. Returns the final
    /// maximum fraction.
    ///
    /// # Errors
    /// As [`DynamicTree::ray_cast`].
    pub fn ray_cast<F>(
        &self,
        origin: Vec2,
        translation: Vec2,
        max_fraction: Real,
        callback: F,
    ) -> Result<Real, BroadPhaseError>
    where
        F: FnMut(ProxyId, T, Real) -> Real,
    {
        self.ray_cast_thick(origin, translation, 0.0, max_fraction, callback)
    }

    /// [`DynamicTree::ray_cast_thick`] over both trees, static first.
    ///
    /// # Errors
    /// As [`DynamicTree::ray_cast_thick`].
    pub fn ray_cast_thick<F>(
        &self,
        origin: Vec2,
        translation: Vec2,
        radius: Real,
        max_fraction: Real,
        mut callback: F,
    ) -> Result<Real, BroadPhaseError>
    where
        F: FnMut(ProxyId, T, Real) -> Real,
    {
        let (clipped, stopped) = self.static_tree.ray_cast_until_stopped(
            origin,
            translation,
            radius,
            max_fraction,
            &mut callback,
        )?;
        if stopped {
            return Ok(clipped);
        }
        self.moving_tree
            .ray_cast_thick(origin, translation, radius, clipped, &mut callback)
    }

    /// Checks both trees ([`DynamicTree::validate`]) and that every buffered
    /// proxy that still exists carries the moved flag and every flagged proxy
    /// is buffered.
    ///
    /// # Errors
    /// The first [`InvariantViolation`] found.
    pub fn validate(&self) -> Result<(), InvariantViolation> {
        self.static_tree.validate()?;
        self.moving_tree.validate()?;
        let mut flagged = 0usize;
        for tree in [&self.static_tree, &self.moving_tree] {
            flagged += tree.nodes.iter().filter(|node| node.moved).count();
        }
        let mut buffered = 0usize;
        for &id in &self.move_buffer {
            let tree = self.tree(id.kind());
            if let Ok(index) = tree.leaf_index(id) {
                buffered += 1;
                if !tree.nodes[index as usize].moved {
                    return Err(InvariantViolation {
                        node: index,
                        what: "buffered proxy without the moved flag",
                    });
                }
            }
        }
        if self.moved_from.len() != self.move_buffer.len() {
            return Err(InvariantViolation {
                node: u32::MAX,
                what: "move buffer and its start boxes disagree",
            });
        }
        if flagged != buffered {
            return Err(InvariantViolation {
                node: u32::MAX,
                what: "moved flags and move buffer disagree",
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::AABB_MARGIN;
    use super::*;
    use crate::math::vec2;

    fn unit_at(x: Real, y: Real) -> Bounds {
        Bounds::new(vec2(x, y), vec2(x + 1.0, y + 1.0)).unwrap()
    }

    #[test]
    fn static_proxies_never_pair_with_each_other() {
        let mut broad_phase = BroadPhase::new();
        let a = broad_phase.create_proxy(unit_at(0.0, 0.0), ProxyKind::Static, 0);
        let b = broad_phase.create_proxy(unit_at(0.5, 0.0), ProxyKind::Static, 1);
        let mut pairs = Vec::new();
        broad_phase.update_pairs(&mut pairs);
        assert!(pairs.is_empty());
        let m = broad_phase.create_proxy(unit_at(0.2, 0.2), ProxyKind::Moving, 2);
        broad_phase.update_pairs(&mut pairs);
        assert_eq!(pairs, vec![(a, m), (b, m)]);
        assert!(a < b && b < m, "static ids sort before moving ids");
    }

    #[test]
    fn two_moved_proxies_report_their_pair_once() {
        let mut broad_phase = BroadPhase::new();
        let a = broad_phase.create_proxy(unit_at(0.0, 0.0), ProxyKind::Moving, 0);
        let b = broad_phase.create_proxy(unit_at(5.0, 0.0), ProxyKind::Moving, 1);
        let mut pairs = Vec::new();
        broad_phase.update_pairs(&mut pairs);
        assert!(pairs.is_empty());
        assert_eq!(
            broad_phase.move_proxy(a, unit_at(2.0, 0.0), vec2(2.0, 0.0)),
            Ok(true)
        );
        assert_eq!(
            broad_phase.move_proxy(b, unit_at(2.5, 0.0), vec2(-2.5, 0.0)),
            Ok(true)
        );
        assert_eq!(broad_phase.pending_moves(), 2);
        broad_phase.update_pairs(&mut pairs);
        assert_eq!(pairs, vec![(a, b)]);
        assert_eq!(broad_phase.pending_moves(), 0);
        assert!(broad_phase.validate().is_ok());
    }

    #[test]
    fn small_moves_and_destroyed_proxies_are_not_queried() {
        let mut broad_phase = BroadPhase::new();
        let a = broad_phase.create_proxy(unit_at(0.0, 0.0), ProxyKind::Moving, 0);
        let b = broad_phase.create_proxy(unit_at(0.5, 0.0), ProxyKind::Moving, 1);
        let mut pairs = Vec::new();
        broad_phase.update_pairs(&mut pairs);
        assert_eq!(pairs, vec![(a, b)]);
        // Inside the fat box: nothing to re-query.
        assert_eq!(
            broad_phase.move_proxy(a, unit_at(0.01, 0.0), vec2(0.01, 0.0)),
            Ok(false)
        );
        broad_phase.update_pairs(&mut pairs);
        assert!(pairs.is_empty());
        // touch_proxy forces a re-query.
        broad_phase.touch_proxy(a).unwrap();
        broad_phase.update_pairs(&mut pairs);
        assert_eq!(pairs, vec![(a, b)]);
        // A proxy destroyed while buffered is skipped, and a new proxy in its
        // slot is a different id.
        broad_phase
            .move_proxy(a, unit_at(0.6, 0.0), vec2(0.6, 0.0))
            .unwrap();
        assert_eq!(broad_phase.destroy_proxy(a), Ok(0));
        let c = broad_phase.create_proxy(unit_at(0.4, 0.0), ProxyKind::Moving, 2);
        assert_eq!(c.index(), a.index());
        assert_ne!(c, a);
        broad_phase.update_pairs(&mut pairs);
        assert!(c < b, "same kind: ordered by slot");
        assert_eq!(pairs, vec![(c, b)]);
        assert_eq!(
            broad_phase.destroy_proxy(a),
            Err(BroadPhaseError::StaleProxy { id: a })
        );
        assert!(broad_phase.touch_proxy(a).is_err());
        assert!(
            broad_phase
                .move_proxy(a, unit_at(0.0, 0.0), vec2(0.0, 0.0))
                .is_err()
        );
        assert_eq!(broad_phase.user_data(a), None);
        assert!(broad_phase.validate().is_ok());
    }

    #[test]
    fn unsorted_pairs_are_the_sorted_pairs_by_user_data() {
        // Two broadphases fed the same calls: one reports sorted ids, the
        // other user data in tree order; the pair sets agree at every round.
        let mut seed = 99u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            ((seed >> 40) as Real) / (1u64 << 24) as Real
        };
        let (mut sorted, mut unsorted) = (BroadPhase::new(), BroadPhase::new());
        let mut ids = Vec::new();
        for i in 0..60u32 {
            let kind = if i % 6 == 0 {
                ProxyKind::Static
            } else {
                ProxyKind::Moving
            };
            let b = unit_at(next() * 12.0, next() * 12.0);
            let id = sorted.create_proxy(b, kind, i);
            assert_eq!(unsorted.create_proxy(b, kind, i), id);
            ids.push((id, kind));
        }
        let mut out = Vec::new();
        for round in 0..20 {
            for &(id, kind) in &ids {
                if kind == ProxyKind::Moving && next() < 0.3 {
                    let (b, d) = (unit_at(next() * 12.0, next() * 12.0), vec2(next(), next()));
                    assert_eq!(sorted.move_proxy(id, b, d), unsorted.move_proxy(id, b, d));
                }
            }
            sorted.update_pairs(&mut out);
            let mut want: Vec<(u32, u32)> = out
                .iter()
                .map(|&(a, b)| (sorted.user_data(a).unwrap(), sorted.user_data(b).unwrap()))
                .map(|(a, b)| (a.min(b), a.max(b)))
                .collect();
            let mut got = Vec::new();
            unsorted.update_pairs_with(|a, b| got.push((a.min(b), a.max(b))));
            want.sort_unstable();
            got.sort_unstable();
            assert_eq!(got, want, "round {round}");
            assert!(round > 0 || !got.is_empty());
            assert_eq!(unsorted.pending_moves(), 0);
            assert!(unsorted.validate().is_ok());
        }
    }

    #[test]
    fn queries_cover_both_trees_and_ray_clips_across_them() {
        let mut broad_phase = BroadPhase::new();
        let wall = broad_phase.create_proxy(unit_at(8.0, 0.0), ProxyKind::Static, "wall");
        let crate_box = broad_phase.create_proxy(unit_at(4.0, 0.0), ProxyKind::Moving, "crate");
        let mut found = Vec::new();
        broad_phase.query_aabb(
            &Bounds::new(vec2(0.0, 0.0), vec2(10.0, 1.0)).unwrap(),
            |id, _| {
                found.push(id);
                true
            },
        );
        assert_eq!(found, vec![wall, crate_box]);
        let mut stopped_after = 0;
        assert!(!broad_phase.query_point(vec2(4.5, 0.5), |_, _| {
            stopped_after += 1;
            false
        }));
        assert_eq!(stopped_after, 1);
        let (origin, translation) = (vec2(0.0, 0.5), vec2(10.0, 0.0));
        let mut hits = Vec::new();
        let fraction = broad_phase
            .ray_cast(origin, translation, 1.0, |id, name, max| {
                hits.push(name);
                broad_phase
                    .fat_bounds(id)
                    .unwrap()
                    .ray_fraction(origin, translation, max)
                    .unwrap_or(max)
            })
            .unwrap();
        // Static first (the wall at 0.8), then the crate clips to its fat box.
        assert_eq!(hits, vec!["wall", "crate"]);
        assert!((fraction - (4.0 - AABB_MARGIN) / 10.0).abs() < 1e-6);
        // Stopping in the static tree skips the moving tree.
        let mut calls = 0;
        let fraction = broad_phase
            .ray_cast(origin, translation, 1.0, |_, _, _| {
                calls += 1;
                0.0
            })
            .unwrap();
        assert_eq!((fraction, calls), (0.0, 1));
    }
}
