//! [`PairMap`]: the persistent contact pairs, sorted by collider pair.
//!
//! A vector of *slots* kept in key order: the solver, the narrowphase and
//! the islands each walk every pair once per step, and a sorted vector
//! makes those walks cheap while giving the same deterministic order as an
//! ordered map. The read side mirrors `BTreeMap` (`iter`, `values`, `get`,
//! `len`) and sees only the live pairs, in key order.
//!
//! **Free slots.** A slot holds a live pair or nothing. A pair that ends
//! leaves its slot free where it was; a new pair takes the free slot at its
//! place in the order, or the nearest one within [`SHIFT_LIMIT`] slots, the
//! pairs between moving over by one. So a pair that ends or begins in a
//! large map moves a handful of entries, not every entry after it: the
//! churn of a settled pile (a few pairs a step among tens of thousands)
//! costs what it touches. A [`rebuild`] lays the live pairs out again with
//! one free slot after every [`SPREAD`]; it runs when a batch of new pairs
//! is large, when no free slot is near enough, and when more than one slot
//! in [`COMPACT_FRACTION`] is free (so the walks skip little).
//!
//! **Orders.** Each slot carries an order, searched densely: a live
//! slot the [`pair_order`] of its key, a free slot that of the nearest
//! live slot before it (0 with none; every pair order is above 0, as the
//! versions of issued slotmap keys are odd). So the orders never decrease,
//! a live slot's is above every earlier slot's, and the first slot whose
//! order is not below a key's holds the key exactly when its order equals
//! the key's: a search reads only the orders. Otherwise that slot is where
//! the key belongs, with a free slot there or just before it to take.
//!
//! **Indices.** The narrowphase hands each pair's slot index to the
//! solver, which writes impulses back by it later in the step. Slots move
//! only in [`PairMap::merge`] (and [`PairMap::rekey`]), never in the
//! narrowphase's pass or between it and the write-back.
//!
//! **States.** The pairs' states live in one vector, the *arena*, and a
//! slot names its pair's state by index, so moving a slot moves 28 bytes,
//! never the state. One vector rather than a box per pair: however
//! fragmented the process's heap is (a long-running game, another engine
//! run before in the same process), the states lie side by side, and the
//! narrowphase's walk reads them as a stream. (Boxed, the 32,000-ball
//! pit's step took more than twice as long once the heap had been
//! fragmented by two million small allocations.) States of dropped pairs
//! stay in the arena, free, their indices in a pool, and are reused by new
//! pairs; the arena is grown with some slack when the pool runs dry, so
//! once the scene's pair count has been reached nothing is allocated.
//! After a burst of pairs has gone (a pile blown apart, a level cleared),
//! a pool holding more than [`POOL_SLACK`] times the live pairs (plus
//! [`POOL_FLOOR`]) is cut back to the slack a growth would add and the
//! arena shrunk to match; a steady scene's pool stays far below that, so
//! states are not dropped and made again step after step.
//!
//! Free states are handed out in no particular order, so after enough
//! pairs have come and gone, neighbours in key order lie far apart in the
//! arena and the narrowphase's walk over them misses the cache at every
//! pair. The pass counts how often a kept state lies below the one before
//! it; when that happens for more than one pair in [`REPACK_DESCENTS`],
//! the states change places so that their indices rise with the keys
//! again, the live ones first. Nothing else sees the change: only where
//! each state lives moves, never which key it belongs to.
//!
//! A pair of two circle trees also names a tree cache, which the
//! narrowphase reads on every visit; the caches live in an arena of their
//! own, scatter the same way and are re-packed the same way
//! ([`PairMap::repack_tree_caches`], see `tree_caches.rs`).
//!
//! Keys compare through [`key_order`]: every handle in one map belongs to the
//! same world, so the pair order is that of the two collider keys.
//!
//! Each pair's impulses of the last step (by feature id, for warm starting)
//! live beside its key, not in its state: the solver writes them back in
//! pair order into one dense array, without opening the states again.
//!
//! Each slot also carries a *quiet threshold* beside its key (not in its
//! state): a pair the narrowphase found apart and may pass over while the
//! motion readings of its two colliders sum to no more than this (see
//! `narrowphase.rs`); `-∞` ([`NOT_QUIET`]) for every other pair, for
//! every new pair and for every pair of a map built from a list
//! (`FromIterator`); a rebuild keeps each pair's.
//!
//! **No prefetching.** The pass reads the slots, marks, thresholds and
//! impulses in order and each live pair's state in arena order (see the
//! re-packing above), which the processor's own prefetcher follows;
//! hints for the pairs' states (boxed then) and collider entries a few
//! pairs ahead, once
//! issued for every pair, made the ball pit's narrowphase 11% slower and
//! the 32,000-ball pit's step no faster.
//!
//! **Pairs at rest.** Each slot also carries a *rest mark*: the epoch
//! (a number the caller advances whenever a body wakes or the world is
//! edited, never reusing one) at which the narrowphase found both of the
//! pair's bodies at rest. While the caller hands the same epoch, nothing
//! about such a pair can have changed, and [`PairMap::retain_quiet`]
//! passes over it reading only its mark: a step of a world that sleeps
//! costs next to nothing per sleeping pair. Marks are 0 (no epoch) for new
//! pairs, after a rebuild and in a copy of the map.
//!
//! [`rebuild`]: PairMap::rebuild

mod rebuild;
#[cfg(test)]
mod tests;
mod tree_caches;

pub(crate) use tree_caches::TreeCaches;

use super::handles::{ColliderHandle, key_order};
use super::step::{ContactPair, Impulses, NO_CACHE};

/// A pair of colliders, the smaller handle first.
pub(crate) type PairKey = (ColliderHandle, ColliderHandle);

/// A slot: a key and the arena index of its pair's state, or a free slot
/// ([`FREE`], with a stale key).
type Slot = (PairKey, u32);

/// The state index of a free slot.
const FREE: u32 = u32::MAX;

/// A pair key as one integer ordered like the key (both handles of one world).
#[inline]
fn pair_order(key: &PairKey) -> u128 {
    (u128::from(key_order(key.0.key)) << 64) | u128::from(key_order(key.1.key))
}

/// Contact pairs sorted by key, in slots (see the module docs).
#[derive(Debug, Default)]
pub(crate) struct PairMap {
    slots: Vec<Slot>,
    /// Parallel to `slots`: each slot's order (see the module docs).
    orders: Vec<u128>,
    /// Parallel to `slots`: each pair's quiet threshold (see the module docs).
    quiet: Vec<f64>,
    /// Parallel to `slots`: each pair's impulses (see the module docs).
    impulses: Vec<Impulses>,
    /// Parallel to `slots` (the same length): each pair's rest mark (see
    /// the module docs).
    rest: Vec<u64>,
    /// Live slots.
    live: usize,
    /// The arena: every state, named by the live slots or free (in `pool`).
    states: Vec<ContactPair>,
    /// Indices of the free states, reused by new pairs (the next one
    /// handed out last; capacity for every state).
    pool: Vec<u32>,
    /// New pairs being merged, sorted: (key, sensor); reused.
    incoming: Vec<(PairKey, bool)>,
    /// Room for a rebuild (empty between rebuilds).
    spare: Vec<Slot>,
    spare_orders: Vec<u128>,
    spare_quiet: Vec<f64>,
    spare_impulses: Vec<Impulses>,
    /// Room for [`PairMap::repack`] and [`PairMap::repack_tree_caches`]:
    /// each item's new index; empty between re-packs.
    moves: Vec<u32>,
    /// The tree caches the states name (see `tree_caches.rs`).
    tree_caches: TreeCaches,
}

/// The rest mark of a pair not known to be at rest: no epoch is 0.
pub(crate) const NO_EPOCH: u64 = 0;

/// What [`PairMap::retain_quiet`] does with a pair after its visit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Visit {
    /// Drop the pair; its slot is left free.
    Drop,
    /// Keep the pair.
    Keep,
    /// Keep the pair, and pass over it while the epoch stays the same:
    /// both of its bodies are at rest (see the module docs).
    Rest,
}

/// The quiet threshold of a pair that must be looked at: no motion stamp
/// (a sum of distances, never negative) is at or below it.
pub(crate) const NOT_QUIET: f64 = f64::NEG_INFINITY;

/// True for a threshold that may let the narrowphase pass a pair over.
pub(crate) fn is_quiet(threshold: f64) -> bool {
    threshold > NOT_QUIET
}

/// The states are re-packed in key order once more than one kept pair in
/// this many has its state below the one before it (see the module docs).
const REPACK_DESCENTS: usize = 16;

/// Maps with fewer pairs than this are never re-packed: their states stay
/// in cache wherever they are.
const REPACK_MIN_PAIRS: usize = 4096;

/// The pool is trimmed once it holds more than this many times the live
/// pairs, plus [`POOL_FLOOR`] (see the module docs).
const POOL_SLACK: usize = 2;

/// Free states a map may keep whatever its live pairs.
const POOL_FLOOR: usize = 1024;

/// Free states the arena grows by when the pool runs dry with `states`
/// made (a quarter, as a vector grows), and what a trim leaves the pool
/// for `states` live pairs.
fn top_up(states: usize) -> usize {
    states / 4 + 8
}

/// A rebuild leaves one free slot after every this many live ones.
const SPREAD: usize = 32;

/// A new pair takes a free slot at most this many slots from its place;
/// with none that near, the map is rebuilt.
const SHIFT_LIMIT: usize = 4 * SPREAD;

/// The map is compacted (rebuilt) when more than one slot in this many is free.
const COMPACT_FRACTION: usize = 8;

/// Batches of more new pairs than this, and than one per [`SPREAD`] slots,
/// are merged by one rebuild rather than slot by slot. A rebuild moves
/// every slot; a pair put in place moves the few up to its nearest free
/// slot (about a rebuild's spacing away), so slot by slot is the cheaper
/// until the batch is a fair fraction of the map: a pile of a thousand
/// tumbling circle trees gains some 70 pairs a step in a map of 6,000,
/// which slot by slot costs a quarter less pair finding than a rebuild
/// every step.
const LOCAL_MERGE_LIMIT: usize = 64;

/// The largest batch of new pairs [`PairMap::merge`] puts in slot by slot
/// into a map of `slots` slots (see [`LOCAL_MERGE_LIMIT`]).
fn local_merge_limit(slots: usize) -> usize {
    LOCAL_MERGE_LIMIT.max(slots / SPREAD)
}

impl Clone for PairMap {
    /// The live states only, in key order (no free ones).
    fn clone(&self) -> Self {
        let mut states = Vec::with_capacity(self.live);
        let slots = self
            .slots
            .iter()
            .map(|&(key, state)| match self.states.get(state as usize) {
                Some(pair) => {
                    states.push(pair.clone());
                    (key, (states.len() - 1) as u32)
                }
                None => (key, FREE),
            })
            .collect();
        PairMap {
            slots,
            orders: self.orders.clone(),
            quiet: self.quiet.clone(),
            impulses: self.impulses.clone(),
            // The caller's epochs belong to the original.
            rest: vec![NO_EPOCH; self.slots.len()],
            live: self.live,
            states,
            pool: Vec::new(),
            incoming: Vec::new(),
            spare: Vec::new(),
            spare_orders: Vec::new(),
            spare_quiet: Vec::new(),
            spare_impulses: Vec::new(),
            moves: Vec::new(),
            // The copies name no cache (see `ContactPair`'s `Clone`).
            tree_caches: TreeCaches::default(),
        }
    }
}

impl PairMap {
    /// Number of pairs.
    pub fn len(&self) -> usize {
        self.live
    }

    /// Pairs in key order.
    pub fn iter(&self) -> impl Iterator<Item = (&PairKey, &ContactPair)> {
        let states = &self.states;
        self.slots
            .iter()
            .filter_map(|(key, state)| states.get(*state as usize).map(|pair| (key, pair)))
    }

    /// Pairs in key order, with their impulses.
    pub fn iter_with_impulses(&self) -> impl Iterator<Item = (&PairKey, &ContactPair, &Impulses)> {
        let states = &self.states;
        self.slots
            .iter()
            .zip(&self.impulses)
            .filter_map(|((key, state), impulses)| {
                states
                    .get(*state as usize)
                    .map(|pair| (key, pair, impulses))
            })
    }

    /// Calls `each` with every pair in key order, its state to change in
    /// place.
    pub fn for_each_mut(&mut self, mut each: impl FnMut(&PairKey, &mut ContactPair)) {
        let states = &mut self.states;
        for (key, state) in &self.slots {
            if let Some(pair) = states.get_mut(*state as usize) {
                each(key, pair);
            }
        }
    }

    /// The pairs' states in key order.
    pub fn values(&self) -> impl Iterator<Item = &ContactPair> {
        self.iter().map(|(_, pair)| pair)
    }

    /// The slot of `key` (`Ok`), or where it belongs (`Err`): the first
    /// slot whose order is not below the key's (see the module docs).
    fn search(&self, key: &PairKey) -> Result<usize, usize> {
        let order = pair_order(key);
        let at = self.orders.partition_point(|&o| o < order);
        // Equal orders mean a live slot (see the module docs); 0 is no
        // pair's order, but a free slot's, so it never counts as found.
        match self.orders.get(at) {
            Some(&found) if found == order && order != 0 => Ok(at),
            _ => Err(at),
        }
    }

    /// The pair with this key.
    pub fn get(&self, key: &PairKey) -> Option<&ContactPair> {
        let slot = self.search(key).ok()?;
        self.states.get(self.slots[slot].1 as usize)
    }

    /// The impulses of the pair in slot `index` (as handed out by
    /// [`Self::retain_quiet`]), if there is such a slot.
    #[inline]
    pub fn impulses_at_mut(&mut self, index: usize) -> Option<&mut Impulses> {
        self.impulses.get_mut(index)
    }

    /// Keeps the pairs for which `keep` returns true, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(&PairKey, &mut ContactPair) -> bool) {
        self.retain_quiet(None, |_, key, _, pair, _, _| {
            if keep(key, pair) {
                Visit::Keep
            } else {
                Visit::Drop
            }
        });
    }

    /// [`Self::retain`] that also hands `keep` each pair's slot index (which
    /// stays the pair's until the next [`Self::merge`]), its quiet threshold
    /// and its impulses. The pair's state is only read when `keep` reads
    /// it. A dropped pair's slot is left free: no pair moves.
    ///
    /// With an `epoch` (never [`NO_EPOCH`]), a pair `keep` answered
    /// [`Visit::Rest`] at that same epoch is passed over: neither it nor
    /// its state is read again until the epoch changes. Without one, every
    /// live pair is visited and no mark is written.
    pub fn retain_quiet(
        &mut self,
        epoch: Option<u64>,
        mut keep: impl FnMut(
            usize,
            &PairKey,
            &mut f64,
            &mut ContactPair,
            &mut Impulses,
            &mut TreeCaches,
        ) -> Visit,
    ) {
        let PairMap {
            slots,
            orders,
            quiet,
            impulses,
            rest,
            states,
            pool,
            live,
            tree_caches,
            ..
        } = self;
        tree_caches.start_pass();
        let epoch = epoch.filter(|&e| e != NO_EPOCH);
        let (mut last, mut descents) = (0, 0);
        let mut next = 0;
        while next < slots.len() {
            // A run of pairs at rest is passed over reading only their marks.
            if let Some(e) = epoch
                && rest[next] == e
            {
                next += resting_run(&rest[next..], e);
                continue;
            }
            let index = next;
            next += 1;
            let (key, state) = &mut slots[index];
            let Some(pair) = states.get_mut(*state as usize) else {
                continue;
            };
            let visit = keep(
                index,
                key,
                &mut quiet[index],
                pair,
                &mut impulses[index],
                tree_caches,
            );
            let here = *state as usize;
            if visit != Visit::Drop {
                descents += usize::from(here < last);
                last = here;
                if visit == Visit::Rest
                    && let Some(e) = epoch
                {
                    rest[index] = e;
                }
            } else {
                // The pool has room for every state: no allocation.
                pool.push(*state);
                *state = FREE;
                *live -= 1;
                rest[index] = NO_EPOCH;
                let before = index.checked_sub(1).map_or(0, |i| orders[i]);
                set_free_orders(slots, orders, index, before);
            }
        }
        if self.live >= REPACK_MIN_PAIRS && descents * REPACK_DESCENTS > self.live {
            self.repack();
        }
        if self.tree_caches.scattered() {
            self.repack_tree_caches();
        }
        self.trim_pool();
    }

    /// Drops the free states beyond the slack `fresh` grows by, once the
    /// pool holds more than [`POOL_SLACK`] times the live pairs plus
    /// [`POOL_FLOOR`]: a re-pack puts the live states first, and the arena
    /// is cut after the slack and gives its memory back, as do the buffers
    /// sized by it.
    fn trim_pool(&mut self) {
        if self.pool.len() <= POOL_SLACK * self.live + POOL_FLOOR {
            return;
        }
        self.repack();
        // The pool holds `live..states.len()`, the highest first.
        let keep = top_up(self.live);
        let cut = self.pool.len() - keep;
        self.pool.drain(..cut);
        for pair in self.states.drain(self.live + keep..) {
            self.tree_caches.give_back(pair.tree_cache);
        }
        self.trim_tree_caches();
        self.states.shrink_to_fit();
        let states = self.states.len();
        self.pool.shrink_to(states);
        self.moves.shrink_to(states);
    }

    /// Live pairs whose rest mark is `epoch`.
    #[cfg(test)]
    pub fn resting(&self, epoch: u64) -> usize {
        self.slots
            .iter()
            .zip(&self.rest)
            .filter(|((_, state), mark)| *state != FREE && **mark == epoch)
            .count()
    }

    /// Live pairs with a quiet threshold (see the module docs).
    #[cfg(test)]
    pub fn quiet_count(&self) -> usize {
        self.slots
            .iter()
            .zip(&self.quiet)
            .filter(|((_, state), threshold)| *state != FREE && is_quiet(**threshold))
            .count()
    }

    /// Forgets every quiet threshold: the next pass opens every pair.
    #[cfg(test)]
    pub fn forget_quiet(&mut self) {
        self.quiet.fill(NOT_QUIET);
    }

    /// A fresh pair's state index, from the pool when it has one.
    fn fresh(&mut self, sensor: bool) -> u32 {
        if self.pool.is_empty() {
            // Grow with slack (a quarter of the states), as a vector grows,
            // so a slowly growing pair count does not allocate every step;
            // the pool gets room for every state there is, and so do the
            // buffers of the re-packs (empty between them).
            let made = self.states.len();
            let extra = top_up(made);
            let states = made + extra;
            self.states.reserve_exact(extra);
            self.pool.reserve(states);
            self.moves.reserve(states);
            self.states
                .extend((0..extra).map(|_| ContactPair::new(false)));
            // The lowest index is handed out first.
            self.pool.extend((made..states).rev().map(|i| i as u32));
        }
        let state = match self.pool.pop() {
            Some(state) => state,
            None => {
                self.states.push(ContactPair::new(false));
                (self.states.len() - 1) as u32
            }
        };
        if let Some(pair) = self.states.get_mut(state as usize) {
            pair.reset(sensor);
            // The state may have served another pair: its candidates are
            // not this one's.
            self.tree_caches.clear(pair.tree_cache);
        }
        state
    }

    /// Adds the pairs of `new` (key, sensor) whose keys are not here yet;
    /// `new` is emptied. Equal new keys must carry the same sensor flag (one
    /// is kept). A small batch takes free slots near each key's place
    /// (moving only the pairs between); a large one, or one that finds no
    /// free slot near enough, rebuilds the map, as does a map with too many
    /// free slots. Nothing is allocated once the buffers have grown.
    pub fn merge(&mut self, new: &mut Vec<(PairKey, bool)>) {
        let mut incoming = std::mem::take(&mut self.incoming);
        incoming.clear();
        incoming.extend(new.drain(..).filter(|(key, _)| self.search(key).is_err()));
        // Equal keys carry equal flags, so an unstable sort loses nothing.
        incoming.sort_unstable_by_key(|(key, _)| pair_order(key));
        incoming.dedup_by(|later, earlier| later.0 == earlier.0);
        let crowded = (self.slots.len() - self.live) * COMPACT_FRACTION > self.slots.len();
        let start = if crowded || incoming.len() > local_merge_limit(self.slots.len()) {
            0
        } else {
            incoming
                .iter()
                .position(|&(key, sensor)| !self.insert_near(key, sensor))
                .unwrap_or(incoming.len())
        };
        if crowded || start < incoming.len() {
            self.rebuild(&incoming[start..]);
        }
        incoming.clear();
        self.incoming = incoming;
    }

    /// Puts the new pair `key` into a free slot at its place, or into the
    /// nearest free one within [`SHIFT_LIMIT`] slots, moving the pairs
    /// between over by one. False (and nothing changed) if none is that near.
    fn insert_near(&mut self, key: PairKey, sensor: bool) -> bool {
        let at = match self.search(&key) {
            Ok(_) => return true,
            Err(at) => at,
        };
        let len = self.slots.len();
        let free = |slot: usize| self.slots[slot].1 == FREE;
        let slot = if at < len && free(at) {
            at
        } else if at > 0 && free(at - 1) {
            at - 1
        } else {
            // The nearest free slot on each side (the slots `at` and
            // `at - 1` are live).
            let right = (at..len.min(at + SHIFT_LIMIT)).find(|&s| free(s));
            let left = (at.saturating_sub(SHIFT_LIMIT)..at)
                .rev()
                .find(|&s| free(s));
            match (left, right) {
                (Some(l), Some(r)) if at - l <= r - at => self.shift_left(l, at),
                (Some(l), None) => self.shift_left(l, at),
                (_, Some(r)) => self.shift_right(at, r),
                (None, None) => return false,
            }
        };
        let state = self.fresh(sensor);
        self.slots[slot] = (key, state);
        self.quiet[slot] = NOT_QUIET;
        self.impulses[slot].clear();
        self.rest[slot] = NO_EPOCH;
        self.live += 1;
        // The free slots right after now have this pair nearest before them.
        set_free_orders(&self.slots, &mut self.orders, slot, pair_order(&key));
        true
    }

    /// Moves the slots `at..free` one over to the right into the free slot
    /// `free`, which lands at `at`; returns `at`.
    fn shift_right(&mut self, at: usize, free: usize) -> usize {
        self.slots[at..=free].rotate_right(1);
        self.orders[at..=free].rotate_right(1);
        self.quiet[at..=free].rotate_right(1);
        self.impulses[at..=free].rotate_right(1);
        self.rest[at..=free].rotate_right(1);
        at
    }

    /// Moves the slots `free + 1..at` one over to the left into the free
    /// slot `free`, which lands at `at - 1`; returns `at - 1`.
    fn shift_left(&mut self, free: usize, at: usize) -> usize {
        self.slots[free..at].rotate_left(1);
        self.orders[free..at].rotate_left(1);
        self.quiet[free..at].rotate_left(1);
        self.impulses[free..at].rotate_left(1);
        self.rest[free..at].rotate_left(1);
        at - 1
    }

    /// Replaces every key by `rekey(key)`; `rekey` must keep the order. The
    /// map is rebuilt after (free slots hold stale keys whose orders would
    /// no longer fit between the new ones).
    pub fn rekey(&mut self, mut rekey: impl FnMut(PairKey) -> PairKey) {
        for ((key, state), order) in self.slots.iter_mut().zip(&mut self.orders) {
            if *state != FREE {
                *key = rekey(*key);
                *order = pair_order(key);
            }
        }
        self.rebuild(&[]);
    }
}

/// How many marks from the start of `marks` are `epoch`: eight at a time
/// (a comparison of eight the compiler does in vector registers), then one
/// at a time.
fn resting_run(marks: &[u64], epoch: u64) -> usize {
    const CHUNK: usize = 8;
    let whole = marks
        .chunks_exact(CHUNK)
        .take_while(|chunk| chunk.iter().fold(true, |all, &mark| all & (mark == epoch)))
        .count()
        * CHUNK;
    let rest = marks.get(whole..).unwrap_or_default();
    whole + rest.iter().take_while(|&&mark| mark == epoch).count()
}

/// Sets the order of `slot` and of the free slots right after it to `order`.
fn set_free_orders(slots: &[Slot], orders: &mut [u128], slot: usize, order: u128) {
    orders[slot] = order;
    for next in slot + 1..slots.len() {
        if slots[next].1 != FREE {
            break;
        }
        orders[next] = order;
    }
}

impl FromIterator<(PairKey, ContactPair, Impulses)> for PairMap {
    fn from_iter<I: IntoIterator<Item = (PairKey, ContactPair, Impulses)>>(iter: I) -> Self {
        let mut pairs: Vec<(PairKey, ContactPair, Impulses)> = iter.into_iter().collect();
        pairs.sort_by_key(|entry| entry.0);
        pairs.dedup_by(|later, earlier| later.0 == earlier.0);
        let mut map = PairMap {
            orders: pairs.iter().map(|(key, _, _)| pair_order(key)).collect(),
            quiet: vec![NOT_QUIET; pairs.len()],
            rest: vec![NO_EPOCH; pairs.len()],
            live: pairs.len(),
            ..PairMap::default()
        };
        for (key, mut pair, impulses) in pairs {
            // A cache of another map's is none of this one's.
            pair.tree_cache = NO_CACHE;
            map.slots.push((key, map.states.len() as u32));
            map.states.push(pair);
            map.impulses.push(impulses);
        }
        map
    }
}
