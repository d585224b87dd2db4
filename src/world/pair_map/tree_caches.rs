//! The re-pack of the pairs' tree caches: the boxed
//! [`TreePairCache`](crate::query::tree::TreePairCache) a pair of two circle
//! trees keeps, given boxes in rising address order along the pairs' key
//! order, so that the narrowphase's walk reads them as the processor's
//! prefetcher expects.
//!
//! A tree cache is made when its pair first meets a tree, and stays with
//! the pair's state when the pair ends (a pooled state keeps it for its next
//! pair), so after some churn neighbours in key order hold caches far apart
//! in memory, and in a pile of tumbling trees every visit of a pair missed
//! the cache on its tree cache. The narrowphase counts how often a visited
//! cache lies below the one before it ([`CacheOrder`]) and asks for a
//! re-pack when that happens for more than one visit in
//! [`REPACK_DESCENTS`]. Only where each cache lives moves: every pair keeps
//! its own candidates, so nothing a query answers changes.

use super::{PairMap, REPACK_DESCENTS};

/// Pairs with tree caches visited in one pass below which the caches are
/// never re-packed: so few stay in cache wherever they are.
const REPACK_MIN_VISITS: usize = 256;

/// The order in which one narrowphase pass met the pairs' tree caches.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct CacheOrder {
    /// Address of the cache met last.
    last: usize,
    /// Caches met.
    visits: usize,
    /// Caches met below the one before.
    descents: usize,
}

impl CacheOrder {
    /// Counts a visit of the cache at `cache` (compared, never followed).
    #[inline(always)]
    pub fn see<T>(&mut self, cache: &T) {
        let here = std::ptr::from_ref(cache) as usize;
        self.descents += usize::from(here < self.last);
        self.visits += 1;
        self.last = here;
    }

    /// True when the caches met were out of order often enough to re-pack.
    pub fn scattered(&self) -> bool {
        self.visits >= REPACK_MIN_VISITS && self.descents * REPACK_DESCENTS > self.visits
    }
}

impl PairMap {
    /// Gives the tree caches of the live pairs (in key order), then those
    /// of the free states, the boxes they hold in rising address order;
    /// each cache's contents stay with its pair. Nothing is allocated
    /// once the map's spare vectors have grown to the caches there are.
    pub fn repack_tree_caches(&mut self) {
        let PairMap {
            slots,
            states,
            pool,
            owners,
            cache_boxes: boxes,
            cache_contents: contents,
            ..
        } = self;
        owners.clear();
        boxes.clear();
        contents.clear();
        let order = slots
            .iter()
            .map(|(_, state)| *state)
            .filter(|&state| state != super::FREE)
            .chain(pool.iter().rev().copied());
        for state in order {
            if let Some(mut cache) = states
                .get_mut(state as usize)
                .and_then(|pair| pair.tree_cache.take())
            {
                contents.push(std::mem::take(&mut *cache));
                boxes.push(cache);
                owners.push(state);
            }
        }
        boxes.sort_unstable_by_key(|cache| std::ptr::from_ref(&**cache) as usize);
        for (cache, content) in boxes.iter_mut().zip(contents.drain(..)) {
            **cache = content;
        }
        for (&state, cache) in owners.iter().zip(boxes.drain(..)) {
            if let Some(pair) = states.get_mut(state as usize) {
                pair.tree_cache = Some(cache);
            }
        }
        owners.clear();
    }
}
