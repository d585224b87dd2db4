//! [`PairMap`]: the persistent contact pairs, sorted by collider pair.
//!
//! A vector kept sorted by key: the solver, the narrowphase and the islands
//! each walk every pair once per step, and a contiguous sorted vector makes
//! those walks cheap while giving the same deterministic order as an
//! ordered map. New pairs arrive in batches from the broadphase and are
//! merged in one pass; lookups are binary searches. The read side mirrors
//! `BTreeMap` (`iter`, `values`, `get`, `len`).

use super::handles::ColliderHandle;
use super::step::ContactPair;

/// A pair of colliders, the smaller handle first.
pub(crate) type PairKey = (ColliderHandle, ColliderHandle);

/// Contact pairs sorted by key.
#[derive(Clone, Debug, Default)]
pub(crate) struct PairMap {
    entries: Vec<(PairKey, ContactPair)>,
}

impl PairMap {
    /// Number of pairs.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Pairs in key order.
    pub fn iter(&self) -> impl Iterator<Item = (&PairKey, &ContactPair)> {
        self.entries.iter().map(|(key, pair)| (key, pair))
    }

    /// Pairs in key order, the pairs mutable.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (&PairKey, &mut ContactPair)> {
        self.entries.iter_mut().map(|(key, pair)| (&*key, pair))
    }

    /// The pairs' states in key order.
    pub fn values(&self) -> impl Iterator<Item = &ContactPair> {
        self.entries.iter().map(|(_, pair)| pair)
    }

    /// The pair with this key.
    pub fn get(&self, key: &PairKey) -> Option<&ContactPair> {
        self.entries
            .binary_search_by(|(probe, _)| probe.cmp(key))
            .ok()
            .map(|index| &self.entries[index].1)
    }

    /// Keeps the pairs for which `keep` returns true, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(&PairKey, &mut ContactPair) -> bool) {
        self.entries.retain_mut(|(key, pair)| keep(key, pair));
    }

    /// Adds the pairs of `new` whose keys are not here yet (`new` is sorted
    /// and emptied; equal new keys carry equal fresh pairs, one is kept).
    /// One merge pass from the back, moving only what lies after the first
    /// new key; nothing is allocated once the vector has grown.
    pub fn merge(&mut self, new: &mut Vec<(PairKey, ContactPair)>) {
        // Equal keys carry equal new pairs, so an unstable sort loses nothing.
        new.sort_unstable_by_key(|entry| entry.0);
        new.dedup_by(|later, earlier| later.0 == earlier.0);
        new.retain(|(key, _)| self.get(key).is_none());
        if new.is_empty() {
            return;
        }
        let old_len = self.entries.len();
        // Placeholders at the end, then fill from the back.
        self.entries.extend(new.iter().cloned());
        let (mut read, mut write) = (old_len, self.entries.len());
        while let Some(incoming) = new.pop() {
            while read > 0 && self.entries[read - 1].0 > incoming.0 {
                read -= 1;
                write -= 1;
                self.entries.swap(read, write);
            }
            write -= 1;
            self.entries[write] = incoming;
        }
    }

    /// Replaces every key by `rekey(key)`; `rekey` must keep the order.
    pub fn rekey(&mut self, mut rekey: impl FnMut(PairKey) -> PairKey) {
        for (key, _) in &mut self.entries {
            *key = rekey(*key);
        }
    }
}

impl FromIterator<(PairKey, ContactPair)> for PairMap {
    fn from_iter<I: IntoIterator<Item = (PairKey, ContactPair)>>(iter: I) -> Self {
        let mut entries: Vec<(PairKey, ContactPair)> = iter.into_iter().collect();
        entries.sort_by_key(|entry| entry.0);
        entries.dedup_by(|later, earlier| later.0 == earlier.0);
        PairMap { entries }
    }
}

impl<'a> IntoIterator for &'a PairMap {
    type Item = (&'a PairKey, &'a ContactPair);
    type IntoIter = std::iter::Map<
        std::slice::Iter<'a, (PairKey, ContactPair)>,
        fn(&'a (PairKey, ContactPair)) -> (&'a PairKey, &'a ContactPair),
    >;

    fn into_iter(self) -> Self::IntoIter {
        self.entries.iter().map(|(key, pair)| (key, pair))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::handles::{ColliderKey, WorldId};
    use slotmap::SlotMap;

    #[test]
    fn merging_keeps_the_order_and_the_existing_pairs() {
        let mut keys: SlotMap<ColliderKey, ()> = SlotMap::with_key();
        let world = WorldId::fresh();
        let handles: Vec<ColliderHandle> = (0..8)
            .map(|_| ColliderHandle {
                key: keys.insert(()),
                world,
            })
            .collect();
        let pair =
            |i: usize, j: usize, sensor: bool| ((handles[i], handles[j]), ContactPair::new(sensor));
        let mut map: PairMap = [pair(0, 5, false), pair(2, 3, false), pair(6, 7, false)]
            .into_iter()
            .collect();
        let mut new = vec![
            pair(4, 5, true),
            pair(0, 1, true),
            pair(2, 3, true), // already there: the existing pair stays
            pair(7, 7, true),
            pair(0, 1, true), // the same new pair twice: one is kept
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
}
