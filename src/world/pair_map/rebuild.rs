//! The two whole-map passes of [`PairMap`]: the rebuild, which lays the
//! slots out again (new pairs merged in, free slots spread evenly), and the
//! re-pack, which gives the live slots their boxes in rising address order.

use super::{
    ContactPair, Impulses, NO_EPOCH, NOT_QUIET, PairKey, PairMap, SPREAD, Slot, address, pair_order,
};

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
    fn push(
        &mut self,
        key: PairKey,
        pair: Box<ContactPair>,
        order: u128,
        quiet: f64,
        impulses: Impulses,
    ) {
        self.slots.push((key, Some(pair)));
        self.orders.push(order);
        self.quiet.push(quiet);
        self.impulses.push(impulses);
        self.run += 1;
        if self.run == SPREAD {
            self.run = 0;
            self.slots.push((key, None));
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
        for (((key, pair), order), (quiet, impulses)) in old_slots {
            // A free slot's impulses are stale: dropped here.
            let Some(pair) = pair else {
                continue;
            };
            while let Some(&added) = new.next_if(|(k, _)| pair_order(k) < order) {
                self.push_new(&mut layout, added);
            }
            layout.push(key, pair, order, quiet, impulses);
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

    /// Appends the new pair (key, sensor) to `layout`, in a fresh box.
    fn push_new(&mut self, layout: &mut Layout, (key, sensor): (PairKey, bool)) {
        let fresh = self.fresh(sensor);
        layout.push(key, fresh, pair_order(&key), NOT_QUIET, Impulses::new());
    }

    /// Gives the live slots the lowest boxes there are (theirs and the
    /// pool's) in rising address order, each slot keeping its state: the
    /// `i`-th live slot takes the `i`-th lowest box, and the pool what is
    /// left. Positions `0..live` are the live slots in order, the rest the
    /// pool. The permutation is walked cycle by cycle; each exchange swaps
    /// two boxes and then swaps their states back. `by_address` and
    /// `live_slots` have room for every box (see `PairMap::fresh`): nothing
    /// is allocated.
    pub(super) fn repack(&mut self) {
        let mut by_address = std::mem::take(&mut self.by_address);
        let mut live_slots = std::mem::take(&mut self.live_slots);
        by_address.clear();
        live_slots.clear();
        live_slots.extend(
            self.slots
                .iter()
                .enumerate()
                .filter(|(_, (_, pair))| pair.is_some())
                .map(|(slot, _)| slot as u32),
        );
        let boxes = self
            .slots
            .iter()
            .filter_map(|(_, pair)| pair.as_deref())
            .chain(self.pool.iter().map(|pair| &**pair));
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
                self.exchange_boxes(&live_slots, at, from);
                at = from;
            }
        }
        by_address.clear();
        live_slots.clear();
        self.by_address = by_address;
        self.live_slots = live_slots;
    }

    /// Positions `i` and `j` (live slots, then the pool; see
    /// [`Self::repack`]) trade boxes but keep their states.
    fn exchange_boxes(&mut self, live_slots: &[u32], i: usize, j: usize) {
        let live = live_slots.len();
        let (low, high) = (i.min(j), i.max(j));
        let boxes = if high < live {
            let (first, second) = (live_slots[low] as usize, live_slots[high] as usize);
            let (head, tail) = self.slots.split_at_mut(second);
            (head[first].1.as_mut(), tail[0].1.as_mut())
        } else if low >= live {
            let (head, tail) = self.pool.split_at_mut(high - live);
            (Some(&mut head[low - live]), Some(&mut tail[0]))
        } else {
            (
                self.slots[live_slots[low] as usize].1.as_mut(),
                Some(&mut self.pool[high - live]),
            )
        };
        if let (Some(a), Some(b)) = boxes {
            std::mem::swap(a, b);
            std::mem::swap(&mut **a, &mut **b);
        }
    }
}
