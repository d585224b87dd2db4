//! [`TreeCaches`]: the [`TreePairCache`] of every pair with a circle tree
//! (two trees, or a tree and another shape), in one arena of the pair map,
//! and their re-pack into key order.
//!
//! A tree cache is made when its pair first meets a tree, and stays
//! with the pair's state when the pair ends (a free state keeps it for its
//! next pair, cleared), so the arena only grows to the most tree pairs the
//! scene has held. One vector rather than a box each, for the reason the
//! states are (see the module docs of `pair_map`): however fragmented the
//! heap, the caches lie side by side.
//!
//! After some churn, neighbours in key order hold caches far apart in the
//! arena, and in a pile of tumbling trees every visit of a pair missed the
//! cache on its tree cache. The narrowphase's pass counts how often a
//! visited cache lies below the one before it; when that happens for more
//! than one visit in [`REPACK_DESCENTS`] (of at least
//! [`REPACK_MIN_VISITS`]), [`PairMap::repack_tree_caches`] lays the caches
//! out in the key order of the pairs that name them. Only where each cache
//! lives moves: every pair keeps its own candidates, so nothing a query
//! answers changes.

use super::rebuild::permute;
use super::{FREE, PairMap, REPACK_DESCENTS, top_up};
use crate::query::tree::TreePairCache;

/// Pairs with tree caches visited in one pass below which the caches are
/// never re-packed: so few stay in cache wherever they are.
const REPACK_MIN_VISITS: usize = 256;

/// Every pair's tree cache, by index (see the module docs).
#[derive(Debug, Default)]
pub(crate) struct TreeCaches {
    pub(super) caches: Vec<TreePairCache>,
    /// Caches no state names, handed out last first.
    pub(super) free: Vec<u32>,
    /// This pass: the index of the cache met last, the caches met, and
    /// those met below the one before.
    last: u32,
    visits: usize,
    descents: usize,
}

impl TreeCaches {
    /// The cache `slot` names (a pair's [`tree_cache`]), made first or
    /// taken from the free ones, cleared, if it names none.
    ///
    /// [`tree_cache`]: crate::world::step::ContactPair::tree_cache
    #[inline]
    pub fn get_or_make(&mut self, slot: &mut u32) -> &mut TreePairCache {
        let mut at = *slot as usize;
        if at >= self.caches.len() {
            at = match self.free.pop() {
                Some(free) if (free as usize) < self.caches.len() => free as usize,
                _ => {
                    self.caches.push(TreePairCache::default());
                    self.caches.len() - 1
                }
            };
            self.caches[at].clear();
            *slot = at as u32;
        }
        self.descents += usize::from(*slot < self.last);
        self.visits += 1;
        self.last = *slot;
        &mut self.caches[at]
    }

    /// Clears the cache `slot` names, if any (its state serves a new pair).
    pub fn clear(&mut self, slot: u32) {
        if let Some(cache) = self.caches.get_mut(slot as usize) {
            cache.clear();
        }
    }

    /// Takes back the cache `slot` names, if any: no state names it now.
    pub fn give_back(&mut self, slot: u32) {
        if (slot as usize) < self.caches.len() {
            self.free.push(slot);
        }
    }

    /// Starts counting a pass's visits.
    pub fn start_pass(&mut self) {
        (self.last, self.visits, self.descents) = (0, 0, 0);
    }

    /// True when the pass met the caches out of order often enough to
    /// re-pack.
    pub fn scattered(&self) -> bool {
        self.visits >= REPACK_MIN_VISITS && self.descents * REPACK_DESCENTS > self.visits
    }
}

impl PairMap {
    /// Lays the tree caches out in the arena in the key order of the live
    /// pairs that name them, then those of the free states (in the order
    /// the pool hands them out), then the free caches; each pair keeps its
    /// own. Nothing is allocated once `moves` has grown to the caches.
    pub fn repack_tree_caches(&mut self) {
        let PairMap {
            slots,
            states,
            pool,
            tree_caches,
            moves,
            ..
        } = self;
        let TreeCaches { caches, free, .. } = tree_caches;
        moves.clear();
        // Room for every cache (grown only when the caches outgrew it).
        moves.resize(caches.len(), FREE);
        let mut next = 0;
        let owners = slots
            .iter()
            .map(|(_, state)| *state)
            .filter(|&state| state != FREE)
            .chain(pool.iter().rev().copied());
        for state in owners {
            if let Some(pair) = states.get_mut(state as usize)
                && let Some(to) = moves.get_mut(pair.tree_cache as usize)
            {
                *to = next;
                pair.tree_cache = next;
                next += 1;
            }
        }
        // The free ones are handed out last first: the lowest goes last.
        for slot in free.iter_mut().rev() {
            if let Some(to) = moves.get_mut(*slot as usize) {
                *to = next;
                *slot = next;
                next += 1;
            }
        }
        debug_assert_eq!(next as usize, caches.len(), "every cache named once");
        permute(caches, moves);
    }

    /// Cuts the free caches to the slack a growth adds (a trim, after the
    /// states cut from the arena gave theirs back).
    pub(super) fn trim_tree_caches(&mut self) {
        self.repack_tree_caches();
        let caches = &mut self.tree_caches;
        let named = caches.caches.len() - caches.free.len();
        let keep = top_up(named).min(caches.free.len());
        // The free ones hold `named..len`, the highest first.
        let cut = caches.free.len() - keep;
        caches.free.drain(..cut);
        caches.caches.truncate(named + keep);
        caches.caches.shrink_to_fit();
        caches.free.shrink_to(caches.caches.len());
    }
}
