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

/// The slot invariants of the module docs: parallel vectors, each live
/// slot's order its key's and above the slot's before it, each free slot's
/// that of the slot before it (0 first), and the live count; and every
/// state of the arena named once, by a live slot or by the pool.
fn check_slots(map: &PairMap) {
    let mut named = vec![0; map.states.len()];
    for &state in map.slots.iter().map(|(_, s)| s).chain(&map.pool) {
        if state != FREE {
            named[state as usize] += 1;
        }
    }
    assert!(
        named.iter().all(|&n| n == 1),
        "a state named twice or never"
    );
    let slots = map.slots.len();
    assert_eq!(map.orders.len(), slots);
    assert_eq!(map.quiet.len(), slots);
    assert_eq!(map.impulses.len(), slots);
    let mut live = 0;
    for (index, ((key, pair), &order)) in map.slots.iter().zip(&map.orders).enumerate() {
        if index > 0 {
            assert!(order >= map.orders[index - 1], "slot {index}: order falls");
        }
        if *pair != FREE {
            live += 1;
            assert_eq!(order, pair_order(key), "slot {index}");
            if index > 0 {
                assert!(
                    order > map.orders[index - 1],
                    "slot {index}: order not above"
                );
            }
        } else {
            let before = index.checked_sub(1).map_or(0, |i| map.orders[i]);
            assert_eq!(order, before, "free slot {index}: not the order before it");
        }
    }
    assert_eq!(live, map.len());
}

/// The slot of each live key.
fn slot_of(map: &PairMap) -> std::collections::BTreeMap<PairKey, usize> {
    map.slots
        .iter()
        .enumerate()
        .filter(|(_, (_, state))| *state != FREE)
        .map(|(slot, (key, _))| (*key, slot))
        .collect()
}

/// Every pair of `handles` from `from` on, the smaller first.
fn all_pairs(handles: &[ColliderHandle], from: usize, to: usize) -> Vec<(PairKey, bool)> {
    let mut new = Vec::new();
    for i in from..to {
        for j in i + 1..handles.len() {
            new.push(((handles[i], handles[j]), false));
        }
    }
    new
}

#[test]
fn a_new_pair_moves_only_the_pairs_up_to_the_nearest_free_slot() {
    let handles = handles(40);
    let mut map = PairMap::default();
    // Every pair but those of collider 20 with a higher one: one big batch,
    // laid out with spread free slots.
    let mut new = all_pairs(&handles, 0, 40);
    new.retain(|(key, _)| key.0 != handles[20]);
    map.merge(&mut new);
    check_slots(&map);
    let live = map.len();
    assert_eq!(map.slots.len(), live + live / SPREAD);
    // One at a time, the missing pairs go in the middle of the map: each
    // moves at most the pairs between its place and a free slot within
    // reach, until the free slots near the place run out and the map is
    // rebuilt (which spreads them again).
    let (mut local, mut rebuilt) = (0, 0);
    for j in 21..40 {
        let before = slot_of(&map);
        let slots = map.slots.len();
        map.merge(&mut vec![((handles[20], handles[j]), true)]);
        check_slots(&map);
        assert!(map.get(&(handles[20], handles[j])).unwrap().sensor);
        let after = slot_of(&map);
        let moved = before
            .iter()
            .filter(|(key, slot)| after[*key] != **slot)
            .count();
        if map.slots.len() == slots {
            local += 1;
            let reach = if local == 1 { SPREAD } else { SHIFT_LIMIT };
            assert!(moved <= reach, "pair 20–{j}: {moved} pairs moved");
        } else {
            rebuilt += 1;
            assert_eq!(map.slots.len(), map.len() + map.len() / SPREAD);
        }
    }
    assert_eq!(map.len(), live + 19);
    assert!(
        local >= 2 && rebuilt >= 1,
        "{local} local, {rebuilt} rebuilt"
    );
}

#[test]
fn a_large_map_takes_a_scattered_batch_in_place() {
    // A pile of tumbling bodies gains pairs all over the map each step:
    // a batch of more than LOCAL_MERGE_LIMIT, but few for the map's size,
    // goes into the free slots near each place instead of a rebuild.
    let handles = handles(120);
    let all = all_pairs(&handles, 0, 120);
    let mut map = PairMap::default();
    let is_new = |key: &PairKey| {
        let at = |h: ColliderHandle| handles.iter().position(|x| *x == h).unwrap();
        at(key.1) == at(key.0) + 1 && at(key.0) < 80
    };
    let mut old: Vec<_> = all
        .iter()
        .copied()
        .filter(|(key, _)| !is_new(key))
        .collect();
    map.merge(&mut old);
    let slots = map.slots.len();
    let mut batch: Vec<_> = all.iter().copied().filter(|(key, _)| is_new(key)).collect();
    assert!(batch.len() > LOCAL_MERGE_LIMIT && batch.len() <= local_merge_limit(slots));
    let before = slot_of(&map);
    map.merge(&mut batch);
    check_slots(&map);
    assert_eq!(map.slots.len(), slots, "rebuilt");
    assert_eq!(map.len(), all.len());
    // Each new pair moved at most the pairs up to a free slot nearby.
    let after = slot_of(&map);
    let moved = before
        .iter()
        .filter(|(key, slot)| after[*key] != **slot)
        .count();
    assert!(moved <= 80 * SPREAD, "{moved} pairs moved");
}

#[test]
fn with_too_many_free_slots_the_next_merge_compacts() {
    let handles = handles(40);
    let mut map = PairMap::default();
    map.merge(&mut all_pairs(&handles, 0, 40));
    let slots = map.slots.len();
    // Dropping leaves slots free and moves nothing.
    let before = slot_of(&map);
    map.retain(|key, _| key.1 != handles[39] && key.1 != handles[38]);
    check_slots(&map);
    assert_eq!(map.slots.len(), slots);
    assert!(slot_of(&map).iter().all(|(key, slot)| before[key] == *slot));
    // A third of the pairs go: the next merge, even of nothing, compacts.
    map.retain(|key, _| key.0 > handles[13]);
    assert_eq!(map.slots.len(), slots);
    map.merge(&mut Vec::new());
    check_slots(&map);
    assert_eq!(map.slots.len(), map.len() + map.len() / SPREAD);
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
        // Small batches take free slots near their places, large ones rebuild.
        let batch = if round % 10 == 0 { 200 } else { next(12) };
        for _ in 0..batch {
            let (i, j) = (next(40), next(40));
            let key = (handles[i.min(j)], handles[i.max(j)]);
            new.push((key, (i + j) % 2 == 0));
            model.insert((key, (i + j) % 2 == 0));
        }
        map.merge(&mut new);
        check_slots(&map);
        // New pairs come with no impulses: give them their marks, through
        // the slot index the pass hands out.
        let mut handed = Vec::new();
        map.retain_quiet(None, |index, key, _, _, impulses, _| {
            if impulses.is_empty() {
                impulses.push((mark(key), 0.0, 0.0));
            }
            handed.push((index, *key));
            Visit::Keep
        });
        for (index, key) in handed {
            let impulses = map.impulses_at_mut(index).unwrap();
            assert_eq!(impulses[0].0, mark(&key), "round {round}");
        }
        if round % 3 == 0 {
            let cut = next(40);
            map.retain(|key, _| key.0 != handles[cut]);
            model.retain(|(key, _)| key.0 != handles[cut]);
        }
        if round % 5 == 1 {
            // Scattered drops: free slots all over the map.
            let (modulus, cut) = (2 + next(9) as u32, next(2) as u32);
            map.retain(|key, _| mark(key).0 % modulus != cut);
            model.retain(|(key, _)| mark(key).0 % modulus != cut);
        }
        check_slots(&map);
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
fn repacking_orders_the_states_and_keeps_each_with_its_key() {
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
        check_slots(map);
        // The live states first, in key order; the pool hands out the
        // lowest free one next.
        let indices: Vec<u32> = map
            .slots
            .iter()
            .map(|(_, state)| *state)
            .filter(|&state| state != FREE)
            .collect();
        assert!(
            indices.iter().enumerate().all(|(i, &s)| s as usize == i),
            "states out of order"
        );
        assert_eq!(
            map.pool.last().copied(),
            (!map.pool.is_empty()).then_some(map.len() as u32)
        );
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
    map.merge(&mut keys(0, 60));
    let first = map.len();
    assert!(first >= REPACK_MIN_PAIRS);
    map.retain(|key, pair| {
        label(key, pair);
        true
    });
    // A map built in one batch is in order already.
    check(&map, first);
    // Drop a third, take new pairs from the pool among the old ones: they
    // get the states the dropped pairs left, far from their neighbours.
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

#[test]
fn a_run_of_resting_marks_is_counted_exactly() {
    // Every length around the chunk size, with the first other mark at
    // every place (or none).
    for len in 0..27 {
        for first_other in 0..=len {
            let marks: Vec<u64> = (0..len)
                .map(|i| if i == first_other { 6 } else { 7 })
                .collect();
            let want = marks.iter().take_while(|&&m| m == 7).count();
            assert_eq!(resting_run(&marks, 7), want, "{len} {first_other}");
        }
    }
}

#[test]
fn the_pool_gives_back_a_bursts_boxes_and_keeps_a_steady_scenes() {
    let handles = handles(120);
    let mut map = PairMap::default();
    let mut new = all_pairs(&handles, 0, 120);
    map.merge(&mut new);
    let burst = map.len();
    assert_eq!(burst, 120 * 119 / 2);
    // The burst is over: only the pairs of the first ten colliders stay.
    let first = &handles[..10];
    let drop_burst = |map: &mut PairMap| {
        map.retain_quiet(None, |_, key, _, _, _, _| {
            if first.contains(&key.0) {
                Visit::Keep
            } else {
                Visit::Drop
            }
        });
    };
    drop_burst(&mut map);
    check_slots(&map);
    let live = map.len();
    assert_eq!(live, (0..10).map(|i| 119 - i).sum::<usize>());
    // Without the trim the pool would hold every dropped state.
    assert_eq!(map.pool.len(), top_up(live));
    assert_eq!(map.states.len(), live + map.pool.len());
    assert!(map.states.capacity() < burst);
    assert!(map.pool.capacity() >= map.states.len());
    // A steady scene: the same hundred pairs come and go every step. The
    // pool serves them without trimming or making states.
    let (pooled, states) = (map.pool.len(), map.states.len());
    for round in 0..20 {
        let mut again = all_pairs(&handles, 10, 12);
        again.truncate(100);
        map.merge(&mut again);
        drop_burst(&mut map);
        check_slots(&map);
        assert_eq!(map.len(), live, "round {round}");
        assert_eq!(
            (map.pool.len(), map.states.len()),
            (pooled, states),
            "round {round}"
        );
    }
}

#[test]
fn repacking_the_tree_caches_orders_them_and_keeps_each_with_its_pair() {
    use crate::query::tree::TreePairCache;
    let handles = handles(120);
    let at = |h: ColliderHandle| handles.iter().position(|x| *x == h).unwrap() as u64;
    let mark = |key: &PairKey| at(key.0) * 1000 + at(key.1) + 1;
    let mut map = PairMap::default();
    map.merge(&mut all_pairs(&handles, 0, 120));
    // Caches for two pairs in three, their indices falling along the keys.
    let count = map.iter().filter(|(key, _)| mark(key) % 3 != 0).count();
    let mut next = count as u32;
    map.for_each_mut(|key, pair| {
        if mark(key) % 3 != 0 {
            next -= 1;
            pair.tree_cache = next;
        }
    });
    map.tree_caches.caches = (0..count).map(|_| TreePairCache::default()).collect();
    let named: Vec<(PairKey, u32)> = map.iter().map(|(k, p)| (*k, p.tree_cache)).collect();
    for (key, cache) in named {
        if cache != NO_CACHE {
            map.tree_caches.caches[cache as usize] = TreePairCache::with_descents(mark(&key));
        }
    }
    check_slots(&map);
    // Some pairs end: their states keep their caches in the pool.
    map.retain(|key, _| at(key.1) % 7 != 0);
    let pooled = |map: &PairMap| -> Vec<u64> {
        let mut labels: Vec<u64> = map
            .pool
            .iter()
            .filter_map(|&state| {
                map.tree_caches
                    .caches
                    .get(map.states[state as usize].tree_cache as usize)
            })
            .map(|cache| cache.descents())
            .collect();
        labels.sort_unstable();
        labels
    };
    let before = pooled(&map);
    assert!(!before.is_empty());
    // A pass meets them out of order and re-packs them.
    let mut with_cache = 0;
    map.retain_quiet(None, |_, _, _, pair, _, caches| {
        if pair.tree_cache != NO_CACHE {
            caches.get_or_make(&mut pair.tree_cache);
            with_cache += 1;
        }
        Visit::Keep
    });
    assert!(with_cache >= 256);
    check_slots(&map);
    // Each live pair's cache is still its own, at the next index along
    // the keys; the free states' follow, and every cache is named once.
    let mut next = 0;
    for (key, pair) in map.iter() {
        if pair.tree_cache == NO_CACHE {
            assert_eq!(mark(key) % 3, 0, "{key:?} lost its cache");
            continue;
        }
        assert_eq!(pair.tree_cache, next, "caches out of order");
        assert_eq!(map.tree_caches.caches[next as usize].descents(), mark(key));
        next += 1;
    }
    assert_eq!(pooled(&map), before);
    assert_eq!(next as usize + before.len(), map.tree_caches.caches.len());
    // Every cache gets candidates; a new pair that takes a pooled state
    // finds its cache cleared, the others keep theirs.
    let (tree, _) = crate::shape::TreeBuilder::node(crate::math::vec2(0.0, 0.0), 1.0)
        .child(crate::shape::TreeBuilder::node(
            crate::math::vec2(-0.5, 0.0),
            0.5,
        ))
        .child(crate::shape::TreeBuilder::node(
            crate::math::vec2(0.5, 0.0),
            0.5,
        ))
        .build()
        .unwrap();
    let near = crate::math::Pose::from_translation(crate::math::vec2(1.9, 0.0));
    for cache in &mut map.tree_caches.caches {
        cache.contact(&tree, &crate::math::Pose::IDENTITY, &tree, &near, 0.02);
        assert!(cache.candidate_count() > 0);
    }
    let key = (handles[0], handles[7]);
    assert!(map.get(&key).is_none());
    map.merge(&mut vec![(key, false)]);
    let reused = map.get(&key).unwrap().tree_cache;
    assert!(
        reused != NO_CACHE,
        "the pool hands out a state with a cache"
    );
    for (slot, cache) in map.tree_caches.caches.iter().enumerate() {
        assert_eq!(cache.candidate_count() == 0, slot as u32 == reused);
    }
    check_slots(&map);
    // The pile is gone but for a few pairs: the trim gives back the states
    // and the caches beyond the slack, and every cache left is named once.
    let made = map.tree_caches.caches.len();
    map.retain(|key, _| key.0 == handles[0]);
    check_slots(&map);
    assert!(
        map.tree_caches.caches.len() < made / 2,
        "{made} caches kept"
    );
}
