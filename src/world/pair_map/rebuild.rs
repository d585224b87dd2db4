//! The two whole-map passes of [`PairMap`]: the rebuild, which lays the
//! slots out again (new pairs merged in, free slots spread evenly), and the
//! re-pack, which lays the states out in the arena in key order.

use super::{FREE, Impulses, NO_EPOCH, NOT_QUIET, PairKey, PairMap, SPREAD, Slot, pair_order};

/// The vectors a rebuild writes, and how many live slots since the last free one.
struct Layout {
    slots: Vec<Slot>,
    orders: Vec<u128>,
    quiet: Vec<f64>,
    impulses: Vec<Impulses>,
    run: usize,
}

impl Layout {
    /// Appends a live slot, and a free one after every [`SPREAD`] live ones
    /// (with the live slot's key and order, so the orders keep the map's
    /// invariant).
    fn push(&mut self, key: PairKey, state: u32, order: u128, quiet: f64, impulses: Impulses) {
        self.slots.push((key, state));
        self.orders.push(order);
        self.quiet.push(quiet);
        self.impulses.push(impulses);
        self.run += 1;
        if self.run == SPREAD {
            self.run = 0;
            self.slots.push((key, FREE));
            self.orders.push(order);
            self.quiet.push(NOT_QUIET);
            self.impulses.push(Impulses::new());
        }
    }
}

impl PairMap {
    /// Lays the live pairs and `incoming` (sorted by order, none of them
    /// here yet) out in order in the spare vectors, with one free slot
    /// after every [`SPREAD`] live ones, and makes those the map's. Every
    /// live pair moves once; nothing is allocated once the spare vectors
    /// have grown.
    pub(super) fn rebuild(&mut self, incoming: &[(PairKey, bool)]) {
        let mut old = std::mem::take(&mut self.slots);
        let mut old_orders = std::mem::take(&mut self.orders);
        let mut old_quiet = std::mem::take(&mut self.quiet);
        let mut old_impulses = std::mem::take(&mut self.impulses);
        let live = self.live + incoming.len();
        let room = live + live / SPREAD + 1;
        let mut layout = Layout {
            slots: std::mem::take(&mut self.spare),
            orders: std::mem::take(&mut self.spare_orders),
            quiet: std::mem::take(&mut self.spare_quiet),
            impulses: std::mem::take(&mut self.spare_impulses),
            run: 0,
        };
        layout.slots.clear();
        layout.orders.clear();
        layout.quiet.clear();
        layout.impulses.clear();
        layout.slots.reserve(room);
        layout.orders.reserve(room);
        layout.quiet.reserve(room);
        layout.impulses.reserve(room);
        let mut new = incoming.iter().peekable();
        let old_slots = old
            .drain(..)
            .zip(old_orders.drain(..))
            .zip(old_quiet.drain(..).zip(old_impulses.drain(..)));
        for (((key, state), order), (quiet, impulses)) in old_slots {
            // A free slot's impulses are stale: dropped here.
            if state == FREE {
                continue;
            }
            while let Some(&added) = new.next_if(|(k, _)| pair_order(k) < order) {
                self.push_new(&mut layout, added);
            }
            layout.push(key, state, order, quiet, impulses);
        }
        for &added in new {
            self.push_new(&mut layout, added);
        }
        self.live = live;
        (self.slots, self.orders, self.quiet, self.impulses) =
            (layout.slots, layout.orders, layout.quiet, layout.impulses);
        (
            self.spare,
            self.spare_orders,
            self.spare_quiet,
            self.spare_impulses,
        ) = (old, old_orders, old_quiet, old_impulses);
        // Every pair moved: marks start again (see the module docs).
        self.rest.clear();
        self.rest.resize(self.slots.len(), NO_EPOCH);
    }

    /// Appends the new pair (key, sensor) to `layout`, with a fresh state.
    fn push_new(&mut self, layout: &mut Layout, (key, sensor): (PairKey, bool)) {
        let fresh = self.fresh(sensor);
        layout.push(key, fresh, pair_order(&key), NOT_QUIET, Impulses::new());
    }

    /// Lays the states out in the arena in key order: the `i`-th live
    /// slot's state moves to index `i`, the free states after them (the
    /// lowest handed out first). Each state keeps its key. The permutation
    /// is applied cycle by cycle, one exchange of two states at a time;
    /// `moves` has room for every state (see `PairMap::fresh`): nothing is
    /// allocated.
    pub(super) fn repack(&mut self) {
        let PairMap {
            slots,
            states,
            pool,
            moves,
            ..
        } = self;
        moves.clear();
        moves.resize(states.len(), FREE);
        let mut next = 0;
        for (_, state) in slots.iter_mut().filter(|(_, state)| *state != FREE) {
            moves[*state as usize] = next;
            *state = next;
            next += 1;
        }
        // The pool hands out its last index first: the lowest goes last.
        for state in pool.iter_mut().rev() {
            moves[*state as usize] = next;
            *state = next;
            next += 1;
        }
        debug_assert_eq!(next as usize, states.len(), "every state named once");
        permute(states, moves);
    }
}

/// Moves each item of `items` to the index `moves` gives for it
/// (`moves[i]`: where the item now at `i` belongs; a permutation), one
/// exchange of two items at a time, cycle by cycle; `moves` is left
/// empty. An index out of range leaves its item where it is.
pub(super) fn permute<T>(items: &mut [T], moves: &mut Vec<u32>) {
    for at in 0..moves.len().min(items.len()) {
        loop {
            let to = moves[at] as usize;
            if to == at || to >= items.len() || to >= moves.len() {
                break;
            }
            items.swap(at, to);
            moves.swap(at, to);
        }
    }
    moves.clear();
}
