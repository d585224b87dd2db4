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
//! Keys compare through [`key_order`]: every handle in one map belongs to the
//! same world, so the pair order is that of the two collider keys.
//!
//! Each entry also carries a *quiet threshold* beside its key (not in its
//! box): a pair the narrowphase found apart and may pass over while the
//! motion readings of its two colliders sum to no more than this (see
//! `narrowphase.rs`); `-∞` for every other pair, and for every pair this
//! map makes, merges or rebuilds.

use super::handles::{ColliderHandle, key_order};
use super::step::ContactPair;

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
}

/// The quiet threshold of a pair that must be looked at.
pub(crate) const NOT_QUIET: f64 = f64::NEG_INFINITY;

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
            pool: Vec::new(),
            incoming: Vec::new(),
            boxes: self.entries.len(),
            spare: Vec::new(),
            spare_orders: Vec::new(),
            spare_quiet: Vec::new(),
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

    /// The pair at `index` (key order), if there is one.
    #[inline]
    pub fn at(&self, index: usize) -> Option<(&PairKey, &ContactPair)> {
        self.entries.get(index).map(|(key, pair)| (key, &**pair))
    }

    /// The pair at `index` (key order), mutable, if there is one; it is no
    /// longer quiet.
    #[inline]
    pub fn at_mut(&mut self, index: usize) -> Option<&mut ContactPair> {
        if let Some(quiet) = self.quiet.get_mut(index) {
            *quiet = NOT_QUIET;
        }
        self.entries.get_mut(index).map(|(_, pair)| &mut **pair)
    }

    /// Keeps the pairs for which `keep` returns true, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(&PairKey, &mut ContactPair) -> bool) {
        self.retain_quiet(|_, key, _, pair| keep(key, pair));
    }

    /// [`Self::retain`] that also hands `keep` each pair's index after the
    /// pass (its place among the kept pairs) and its quiet threshold. The
    /// pair's box is only touched when `keep` dereferences it.
    pub fn retain_quiet(
        &mut self,
        mut keep: impl FnMut(usize, &PairKey, &mut f64, &mut Box<ContactPair>) -> bool,
    ) {
        let mut kept = 0;
        for read in 0..self.entries.len() {
            let (key, pair) = &mut self.entries[read];
            if keep(kept, key, &mut self.quiet[read], pair) {
                if kept != read {
                    self.entries.swap(kept, read);
                    self.orders[kept] = self.orders[read];
                    self.quiet[kept] = self.quiet[read];
                }
                kept += 1;
            }
        }
        self.orders.truncate(kept);
        self.quiet.truncate(kept);
        // The pool has room for every box ever made: no allocation here.
        self.pool
            .extend(self.entries.drain(kept..).map(|(_, pair)| pair));
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
        let (mut entries, mut orders, mut quiet) = (
            std::mem::take(&mut self.spare),
            std::mem::take(&mut self.spare_orders),
            std::mem::take(&mut self.spare_quiet),
        );
        entries.clear();
        orders.clear();
        quiet.clear();
        entries.reserve(old.len() + self.incoming.len());
        orders.reserve(old.len() + self.incoming.len());
        quiet.reserve(old.len() + self.incoming.len());
        let mut old_pairs = old
            .drain(..)
            .zip(old_orders.drain(..).zip(old_quiet.drain(..)))
            .peekable();
        for i in 0..self.incoming.len() {
            let (_, key, sensor) = self.incoming[i];
            let order = pair_order(&key);
            while let Some((entry, (entry_order, entry_quiet))) =
                old_pairs.next_if(|(_, (o, _))| *o < order)
            {
                entries.push(entry);
                orders.push(entry_order);
                quiet.push(entry_quiet);
            }
            entries.push((key, self.fresh(sensor)));
            orders.push(order);
            quiet.push(NOT_QUIET);
        }
        for (entry, (entry_order, entry_quiet)) in old_pairs {
            entries.push(entry);
            orders.push(entry_order);
            quiet.push(entry_quiet);
        }
        (self.entries, self.orders, self.quiet) = (entries, orders, quiet);
        (self.spare, self.spare_orders, self.spare_quiet) = (old, old_orders, old_quiet);
    }

    /// Replaces every key by `rekey(key)`; `rekey` must keep the order.
    pub fn rekey(&mut self, mut rekey: impl FnMut(PairKey) -> PairKey) {
        for ((key, _), order) in self.entries.iter_mut().zip(&mut self.orders) {
            *key = rekey(*key);
            *order = pair_order(key);
        }
    }
}

impl FromIterator<(PairKey, ContactPair)> for PairMap {
    fn from_iter<I: IntoIterator<Item = (PairKey, ContactPair)>>(iter: I) -> Self {
        let mut entries: Vec<(PairKey, Box<ContactPair>)> = iter
            .into_iter()
            .map(|(key, pair)| (key, Box::new(pair)))
            .collect();
        entries.sort_by_key(|entry| entry.0);
        entries.dedup_by(|later, earlier| later.0 == earlier.0);
        PairMap {
            orders: entries.iter().map(|(key, _)| pair_order(key)).collect(),
            quiet: vec![NOT_QUIET; entries.len()],
            boxes: entries.len(),
            entries,
            ..PairMap::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
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
        let pair =
            |i: usize, j: usize, sensor: bool| ((handles[i], handles[j]), ContactPair::new(sensor));
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
        // states must follow their keys (a pair's flag names its key).
        let handles = handles(40);
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
        }
    }
}
