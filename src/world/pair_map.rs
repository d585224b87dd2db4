//! [`PairMap`]: the persistent contact pairs, sorted by collider pair.
//!
//! A vector kept sorted by key: the solver, the narrowphase and the islands
//! each walk every pair once per step, and a sorted vector makes those walks
//! cheap while giving the same deterministic order as an ordered map. The
//! read side mirrors `BTreeMap` (`iter`, `values`, `get`, `len`).
//!
//! Each pair's state is boxed, so keeping the vector sorted moves 32-byte
//! entries, never the states: the narrowphase drops pairs in one compacting
//! pass, and new pairs from the broadphase are merged in one pass from the
//! back that moves each entry after the first new key once. Boxes of dropped
//! pairs wait in a pool and are reused by new pairs; the pool is topped up
//! with some slack when it runs dry, so once the scene's pair count has been
//! reached nothing is allocated.
//!
//! Boxes are handed out in no particular order, so after enough pairs have
//! come and gone, neighbours in key order live far apart in memory and the
//! narrowphase's walk over them misses the cache at every pair. The
//! compacting pass counts how often a kept box lies below the one before
//! it; when that happens for more than one pair in [`REPACK_DESCENTS`], the
//! boxes change places (their states do not) so that their addresses rise
//! with the keys again. Nothing else sees the change: only where each state
//! lives moves, never which key it belongs to.
//!
//! Keys compare through [`key_order`]: every handle in one map belongs to the
//! same world, so the pair order is that of the two collider keys.
//!
//! Each pair's impulses of the last step (by feature id, for warm starting)
//! live beside its key, not in its box: the solver writes them back in pair
//! order into one dense array, without opening the boxes again.
//!
//! Each entry also carries a *quiet threshold* beside its key (not in its
//! box): a pair the narrowphase found apart and may pass over while the
//! motion readings of its two colliders sum to no more than this (see
//! `narrowphase.rs`); `-∞` for every other pair, and for every pair this
//! map makes, merges or rebuilds.

use super::handles::{ColliderHandle, key_order};
use super::prefetch::prefetch;
use super::step::{ContactPair, Impulses};

/// A pair of colliders, the smaller handle first.
pub(crate) type PairKey = (ColliderHandle, ColliderHandle);

/// A pair key as one integer ordered like the key (both handles of one world).
#[inline]
fn pair_order(key: &PairKey) -> u128 {
    (u128::from(key_order(key.0.key)) << 64) | u128::from(key_order(key.1.key))
}

/// Contact pairs sorted by key.
#[derive(Debug, Default)]
pub(crate) struct PairMap {
    entries: Vec<(PairKey, Box<ContactPair>)>,
    /// Parallel to `entries`: each key's [`pair_order`], searched densely.
    orders: Vec<u128>,
    /// Parallel to `entries`: each pair's quiet threshold (see the module docs).
    quiet: Vec<f64>,
    /// Parallel to `entries`: each pair's impulses (see the module docs).
    impulses: Vec<Impulses>,
    /// Boxes of dropped pairs, reused by new ones (capacity for every box
    /// made). Boxed on purpose: a reused box is moved into `entries` as is.
    #[allow(clippy::vec_box)]
    pool: Vec<Box<ContactPair>>,
    /// New pairs being merged: (insertion index, key, sensor); reused.
    incoming: Vec<(usize, PairKey, bool)>,
    /// Boxes made by `fresh` (in `entries` or the pool).
    boxes: usize,
    /// Room for a merge by copy (empty between merges).
    spare: Vec<(PairKey, Box<ContactPair>)>,
    spare_orders: Vec<u128>,
    spare_quiet: Vec<f64>,
    spare_impulses: Vec<Impulses>,
    /// Room for [`PairMap::repack`]: (box address, entry index); reused.
    by_address: Vec<(usize, u32)>,
}

/// The quiet threshold of a pair that must be looked at.
pub(crate) const NOT_QUIET: f64 = f64::NEG_INFINITY;

/// The boxes are re-packed in key order once more than one kept pair in
/// this many has its box below the one before it (see the module docs).
const REPACK_DESCENTS: usize = 16;

/// How many pairs before its turn a pair's box is prefetched: far enough
/// for a load from memory to land while the pairs between are handled
/// (chosen on the 32,000-ball wide pit, where the boxes no longer fit in
/// cache).
const PREFETCH_AHEAD: usize = 6;

/// Maps with fewer pairs than this are never re-packed: their boxes stay
/// in cache wherever they are.
const REPACK_MIN_PAIRS: usize = 4096;

/// Where a pair's state lives: only compared, never turned back into a pointer.
#[inline]
fn address(pair: &ContactPair) -> usize {
    std::ptr::from_ref(pair) as usize
}

/// Batches up to this many new pairs are merged in place by rotations,
/// which move the entries after the first new key once plus a triangle of
/// at most this many squared over two; larger ones by one copying pass.
const ROTATED_MERGE_LIMIT: usize = 64;

impl Clone for PairMap {
    fn clone(&self) -> Self {
        PairMap {
            entries: self.entries.clone(),
            orders: self.orders.clone(),
            quiet: self.quiet.clone(),
            impulses: self.impulses.clone(),
            pool: Vec::new(),
            incoming: Vec::new(),
            boxes: self.entries.len(),
            spare: Vec::new(),
            spare_orders: Vec::new(),
            spare_quiet: Vec::new(),
            spare_impulses: Vec::new(),
            by_address: Vec::new(),
        }
    }
}

impl PairMap {
    /// Number of pairs.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Pairs in key order.
    pub fn iter(&self) -> impl Iterator<Item = (&PairKey, &ContactPair)> {
        self.entries.iter().map(|(key, pair)| (key, &**pair))
    }

    /// Pairs in key order, with their impulses.
    pub fn iter_with_impulses(&self) -> impl Iterator<Item = (&PairKey, &ContactPair, &Impulses)> {
        self.entries
            .iter()
            .zip(&self.impulses)
            .map(|((key, pair), impulses)| (key, &**pair, impulses))
    }

    /// The pairs' states in key order.
    pub fn values(&self) -> impl Iterator<Item = &ContactPair> {
        self.entries.iter().map(|(_, pair)| &**pair)
    }

    /// Where `key` is (`Ok`) or would be inserted (`Err`).
    fn search(&self, key: &PairKey) -> Result<usize, usize> {
        self.orders.binary_search(&pair_order(key))
    }

    /// The pair with this key.
    pub fn get(&self, key: &PairKey) -> Option<&ContactPair> {
        self.search(key).ok().map(|index| &*self.entries[index].1)
    }

    /// The impulses of the pair at `index` (key order), if there is one.
    #[inline]
    pub fn impulses_at_mut(&mut self, index: usize) -> Option<&mut Impulses> {
        self.impulses.get_mut(index)
    }

    /// Keeps the pairs for which `keep` returns true, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(&PairKey, &mut ContactPair) -> bool) {
        self.retain_quiet(|_, key, _, pair, _| keep(key, pair), |_| {});
    }

    /// [`Self::retain`] that also hands `keep` each pair's index after the
    /// pass (its place among the kept pairs), its quiet threshold and its
    /// impulses. The pair's box is only read when `keep` dereferences it
    /// (and prefetched [`PREFETCH_AHEAD`] pairs before); `ahead` is handed
    /// the key of that later pair, to prefetch what `keep` will look up for
    /// it.
    pub fn retain_quiet(
        &mut self,
        mut keep: impl FnMut(usize, &PairKey, &mut f64, &mut Box<ContactPair>, &mut Impulses) -> bool,
        ahead: impl Fn(&PairKey),
    ) {
        let mut kept = 0;
        let (mut last, mut descents) = (0, 0);
        for read in 0..self.entries.len() {
            // The loop's work per pair is too long for the processor to
            // run ahead to a later pair's box by itself.
            if let Some((later_key, later)) = self.entries.get(read + PREFETCH_AHEAD) {
                prefetch(&**later);
                ahead(later_key);
            }
            let (key, pair) = &mut self.entries[read];
            if keep(
                kept,
                key,
                &mut self.quiet[read],
                pair,
                &mut self.impulses[read],
            ) {
                let here = address(pair);
                descents += usize::from(here < last);
                last = here;
                if kept != read {
                    self.entries.swap(kept, read);
                    self.orders[kept] = self.orders[read];
                    self.quiet[kept] = self.quiet[read];
                    self.impulses.swap(kept, read);
                }
                kept += 1;
            }
        }
        self.orders.truncate(kept);
        self.quiet.truncate(kept);
        self.impulses.truncate(kept);
        // The pool has room for every box ever made: no allocation here.
        self.pool
            .extend(self.entries.drain(kept..).map(|(_, pair)| pair));
        if kept >= REPACK_MIN_PAIRS && descents * REPACK_DESCENTS > kept {
            self.repack();
        }
    }

    /// Gives the entries the lowest boxes there are (theirs and the pool's)
    /// in rising address order, each entry keeping its state: entry `i`
    /// takes the `i`-th lowest box, and the pool what is left. Positions
    /// `0..len` are the entries, the rest the pool. The permutation is
    /// walked cycle by cycle; each exchange swaps two boxes and then swaps
    /// their states back. `by_address` has room for every box (see
    /// [`Self::fresh`]): nothing is allocated.
    fn repack(&mut self) {
        let mut by_address = std::mem::take(&mut self.by_address);
        by_address.clear();
        let boxes = self.entries.iter().map(|(_, pair)| pair).chain(&self.pool);
        by_address.extend(
            boxes
                .enumerate()
                .map(|(position, pair)| (address(pair), position as u32)),
        );
        by_address.sort_unstable();
        // by_address[p].1: the position whose box position p takes. Once p
        // has it, p is marked done by pointing at itself.
        for start in 0..by_address.len() {
            let mut at = start;
            loop {
                let from = by_address[at].1 as usize;
                by_address[at].1 = at as u32;
                if from == start {
                    break;
                }
                self.exchange_boxes(at, from);
                at = from;
            }
        }
        by_address.clear();
        self.by_address = by_address;
    }

    /// Positions `i` and `j` (entries, then the pool; see [`Self::repack`])
    /// trade boxes but keep their states.
    fn exchange_boxes(&mut self, i: usize, j: usize) {
        let len = self.entries.len();
        let (low, high) = (i.min(j), i.max(j));
        let (a, b) = if high < len {
            let (head, tail) = self.entries.split_at_mut(high);
            (&mut head[low].1, &mut tail[0].1)
        } else if low >= len {
            let (head, tail) = self.pool.split_at_mut(high - len);
            (&mut head[low - len], &mut tail[0])
        } else {
            (&mut self.entries[low].1, &mut self.pool[high - len])
        };
        std::mem::swap(a, b);
        std::mem::swap(&mut **a, &mut **b);
    }

    /// A fresh pair's box, from the pool when it has one.
    fn fresh(&mut self, sensor: bool) -> Box<ContactPair> {
        if self.pool.is_empty() {
            // Top up with slack (a quarter of the boxes), as a vector grows,
            // so a slowly growing pair count does not allocate every step;
            // the pool gets room for every box there is.
            let extra = self.boxes / 4 + 8;
            self.boxes += extra;
            self.pool.reserve(self.boxes);
            if self.boxes >= REPACK_MIN_PAIRS {
                // `by_address` is empty between re-packs: room for every box.
                self.by_address.reserve(self.boxes);
            }
            self.pool
                .extend((0..extra).map(|_| Box::new(ContactPair::new(false))));
        }
        let mut pair = self
            .pool
            .pop()
            .unwrap_or_else(|| Box::new(ContactPair::new(false)));
        pair.reset(sensor);
        pair
    }

    /// Adds the pairs of `new` (key, sensor) whose keys are not here yet;
    /// `new` is emptied. Equal new keys must carry the same sensor flag (one
    /// is kept). Existing keys are found by binary search; the rest are
    /// merged in one pass from the back, moving only what lies after the
    /// first new key; nothing is allocated once the buffers have grown.
    pub fn merge(&mut self, new: &mut Vec<(PairKey, bool)>) {
        let mut incoming = std::mem::take(&mut self.incoming);
        incoming.clear();
        for &(key, sensor) in new.iter() {
            if let Err(index) = self.search(&key) {
                incoming.push((index, key, sensor));
            }
        }
        new.clear();
        if incoming.is_empty() {
            self.incoming = incoming;
            return;
        }
        // Equal keys carry equal flags, so an unstable sort loses nothing.
        incoming.sort_unstable_by_key(|(_, key, _)| pair_order(key));
        incoming.dedup_by(|later, earlier| later.1 == earlier.1);
        self.incoming = incoming;
        if self.incoming.len() > ROTATED_MERGE_LIMIT {
            self.merge_by_copy();
            return;
        }
        let old_len = self.entries.len();
        for i in 0..self.incoming.len() {
            let (_, key, sensor) = self.incoming[i];
            let pair = self.fresh(sensor);
            self.entries.push((key, pair));
            self.orders.push(pair_order(&key));
            self.quiet.push(NOT_QUIET);
            self.impulses.push(Impulses::new());
        }
        // Back to front: entries[index ..] holds the old block that belongs
        // after new pair `i`, then new pairs 0..=i; rotating by i + 1 puts
        // those new pairs first (pair i last of them, in its place) and the
        // block after them, where it stays.
        let mut block_end = old_len;
        for i in (0..self.incoming.len()).rev() {
            let index = self.incoming[i].0;
            self.entries[index..block_end + i + 1].rotate_right(i + 1);
            self.orders[index..block_end + i + 1].rotate_right(i + 1);
            self.quiet[index..block_end + i + 1].rotate_right(i + 1);
            self.impulses[index..block_end + i + 1].rotate_right(i + 1);
            block_end = index;
        }
    }

    /// The merge for a large batch (`incoming`, sorted): one pass copying
    /// old and new entries in order into the spare vectors, which then
    /// change places with the live ones. Every entry moves once.
    fn merge_by_copy(&mut self) {
        let mut old = std::mem::take(&mut self.entries);
        let mut old_orders = std::mem::take(&mut self.orders);
        let mut old_quiet = std::mem::take(&mut self.quiet);
        let mut old_impulses = std::mem::take(&mut self.impulses);
        let (mut entries, mut orders, mut quiet, mut impulses) = (
            std::mem::take(&mut self.spare),
            std::mem::take(&mut self.spare_orders),
            std::mem::take(&mut self.spare_quiet),
            std::mem::take(&mut self.spare_impulses),
        );
        let room = old.len() + self.incoming.len();
        entries.clear();
        orders.clear();
        quiet.clear();
        impulses.clear();
        entries.reserve(room);
        orders.reserve(room);
        quiet.reserve(room);
        impulses.reserve(room);
        let mut old_pairs = old
            .drain(..)
            .zip(old_orders.drain(..))
            .zip(old_quiet.drain(..).zip(old_impulses.drain(..)))
            .peekable();
        for i in 0..self.incoming.len() {
            let (_, key, sensor) = self.incoming[i];
            let order = pair_order(&key);
            while let Some(((entry, entry_order), (entry_quiet, entry_impulses))) =
                old_pairs.next_if(|((_, o), _)| *o < order)
            {
                entries.push(entry);
                orders.push(entry_order);
                quiet.push(entry_quiet);
                impulses.push(entry_impulses);
            }
            entries.push((key, self.fresh(sensor)));
            orders.push(order);
            quiet.push(NOT_QUIET);
            impulses.push(Impulses::new());
        }
        for ((entry, entry_order), (entry_quiet, entry_impulses)) in old_pairs {
            entries.push(entry);
            orders.push(entry_order);
            quiet.push(entry_quiet);
            impulses.push(entry_impulses);
        }
        (self.entries, self.orders, self.quiet, self.impulses) = (entries, orders, quiet, impulses);
        (
            self.spare,
            self.spare_orders,
            self.spare_quiet,
            self.spare_impulses,
        ) = (old, old_orders, old_quiet, old_impulses);
    }

    /// Replaces every key by `rekey(key)`; `rekey` must keep the order.
    pub fn rekey(&mut self, mut rekey: impl FnMut(PairKey) -> PairKey) {
        for ((key, _), order) in self.entries.iter_mut().zip(&mut self.orders) {
            *key = rekey(*key);
            *order = pair_order(key);
        }
    }
}

impl FromIterator<(PairKey, ContactPair, Impulses)> for PairMap {
    fn from_iter<I: IntoIterator<Item = (PairKey, ContactPair, Impulses)>>(iter: I) -> Self {
        let mut pairs: Vec<(PairKey, Box<ContactPair>, Impulses)> = iter
            .into_iter()
            .map(|(key, pair, impulses)| (key, Box::new(pair), impulses))
            .collect();
        pairs.sort_by_key(|entry| entry.0);
        pairs.dedup_by(|later, earlier| later.0 == earlier.0);
        let mut map = PairMap {
            orders: pairs.iter().map(|(key, _, _)| pair_order(key)).collect(),
            quiet: vec![NOT_QUIET; pairs.len()],
            boxes: pairs.len(),
            ..PairMap::default()
        };
        for (key, pair, impulses) in pairs {
            map.entries.push((key, pair));
            map.impulses.push(impulses);
        }
        map
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Real;
    use crate::world::handles::{ColliderKey, WorldId};
    use slotmap::SlotMap;

    fn handles(count: usize) -> Vec<ColliderHandle> {
        let mut keys: SlotMap<ColliderKey, ()> = SlotMap::with_key();
        let world = WorldId::fresh();
        (0..count)
            .map(|_| ColliderHandle {
                key: keys.insert(()),
                world,
            })
            .collect()
    }

    #[test]
    fn merging_keeps_the_order_and_the_existing_pairs() {
        let handles = handles(8);
        let pair = |i: usize, j: usize, sensor: bool| {
            let key = (handles[i], handles[j]);
            (key, ContactPair::new(sensor), Impulses::new())
        };
        let mut map: PairMap = [pair(0, 5, false), pair(2, 3, false), pair(6, 7, false)]
            .into_iter()
            .collect();
        let key = |i: usize, j: usize, sensor: bool| ((handles[i], handles[j]), sensor);
        let mut new = vec![
            key(4, 5, true),
            key(0, 1, true),
            key(2, 3, true), // already there: the existing pair stays
            key(7, 7, true),
            key(0, 1, true), // the same new pair twice: one is kept
        ];
        map.merge(&mut new);
        assert!(new.is_empty());
        let keys: Vec<PairKey> = map.iter().map(|(k, _)| *k).collect();
        let mut sorted = keys.clone();
        sorted.sort();
        assert_eq!(keys, sorted);
        assert_eq!(map.len(), 6);
        assert!(!map.get(&(handles[2], handles[3])).unwrap().sensor);
        assert!(map.get(&(handles[0], handles[1])).unwrap().sensor);
        assert!(map.get(&(handles[1], handles[2])).is_none());
        map.retain(|_, pair| !pair.sensor);
        assert_eq!(map.len(), 3);
    }

    #[test]
    fn merges_and_drops_match_a_sorted_set() {
        // Random batches of merges and drops against a BTreeSet model; the
        // states must follow their keys (a pair's flag names its key), and
        // so must the impulses beside them (each pair's names its key).
        let handles = handles(40);
        let mark = |key: &PairKey| {
            let at = |h: ColliderHandle| handles.iter().position(|x| *x == h).unwrap() as u32;
            crate::query::FeatureId(at(key.0) * 64 + at(key.1))
        };
        let mut map = PairMap::default();
        let mut model = std::collections::BTreeSet::new();
        let mut seed = 12345u64;
        let mut next = |bound: usize| {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            ((seed >> 33) as usize) % bound
        };
        for round in 0..300 {
            let mut new = Vec::new();
            // Small batches merge by rotations, large ones by copying.
            let batch = if round % 10 == 0 { 200 } else { next(12) };
            for _ in 0..batch {
                let (i, j) = (next(40), next(40));
                let key = (handles[i.min(j)], handles[i.max(j)]);
                new.push((key, (i + j) % 2 == 0));
                model.insert((key, (i + j) % 2 == 0));
            }
            map.merge(&mut new);
            // New pairs come with no impulses: give them their marks.
            let keys: Vec<PairKey> = map.iter().map(|(k, _)| *k).collect();
            for (index, key) in keys.iter().enumerate() {
                let impulses = map.impulses_at_mut(index).unwrap();
                if impulses.is_empty() {
                    impulses.push((mark(key), index as Real, 0.0));
                }
            }
            if round % 3 == 0 {
                let cut = next(40);
                map.retain(|key, _| key.0 != handles[cut]);
                model.retain(|(key, _)| key.0 != handles[cut]);
            }
            let got: Vec<(PairKey, bool)> = map.iter().map(|(k, p)| (*k, p.sensor)).collect();
            let want: Vec<(PairKey, bool)> = model.iter().copied().collect();
            assert_eq!(got, want, "round {round}");
            for (key, sensor) in &want {
                assert_eq!(map.get(key).map(|p| p.sensor), Some(*sensor));
            }
            for (key, _, impulses) in map.iter_with_impulses() {
                assert_eq!(impulses.len(), 1, "round {round}");
                assert_eq!(impulses[0].0, mark(key), "round {round}");
            }
        }
    }

    #[test]
    fn repacking_orders_the_boxes_and_keeps_each_state_with_its_key() {
        // Enough pairs to be re-packed; each state names its key by its
        // manifold normal, and every check reads it back after the moves.
        let handles = handles(130);
        let at = |h: ColliderHandle| handles.iter().position(|x| *x == h).unwrap();
        let mark = |key: &PairKey| (at(key.0) * 1000 + at(key.1)) as Real;
        let label = |key: &PairKey, pair: &mut ContactPair| {
            pair.manifold = Some(crate::query::Manifold {
                normal: crate::math::Vec2::new(mark(key), 0.0),
                points: Default::default(),
            });
        };
        let check = |map: &PairMap, labelled: usize| {
            let addresses: Vec<usize> = map.values().map(address).collect();
            assert!(
                addresses.windows(2).all(|w| w[0] < w[1]),
                "boxes out of order"
            );
            let lowest_free = map.pool.iter().map(|b| address(b)).min();
            if let (Some(&last), Some(free)) = (addresses.last(), lowest_free) {
                assert!(last < free, "a pooled box lies below a used one");
            }
            let mut seen = 0;
            for (key, pair) in map.iter() {
                if let Some(manifold) = &pair.manifold {
                    assert_eq!(manifold.normal.x, mark(key));
                    seen += 1;
                }
            }
            assert_eq!(seen, labelled);
        };
        let keys = |from: usize, to: usize| {
            let mut new = Vec::new();
            for i in from..to {
                for j in i + 1..handles.len() {
                    new.push(((handles[i], handles[j]), false));
                }
            }
            new
        };
        let mut map = PairMap::default();
        // Boxes come from the pool last-in first-out: mostly falling addresses.
        map.merge(&mut keys(0, 60));
        let first = map.len();
        assert!(first >= REPACK_MIN_PAIRS);
        map.retain(|key, pair| {
            label(key, pair);
            true
        });
        check(&map, first);
        // Drop a third, take new pairs from the pool among the old ones.
        map.retain(|key, _| at(key.1) % 3 != 0);
        let mut new = keys(60, 100);
        let added = new.len();
        map.merge(&mut new);
        let mut fresh = 0;
        map.retain(|key, pair| {
            if pair.manifold.is_none() {
                label(key, pair);
                fresh += 1;
            }
            true
        });
        assert_eq!(fresh, added);
        check(&map, map.len());
    }
}
