//! Property tests of the broadphase against brute force over every proxy.
//! 10,000 cases each, with small random sets (up to 40 boxes) so the whole
//! file runs in seconds. Coordinates are multiples of 1/4 m so that touching
//! boxes, flat boxes and axis-parallel rays come up often.
//!
//! Locks:
//! - stored fat boxes are the given box grown by the tree's margin;
//! - `query_aabb` and `query_point` report exactly the proxies whose fat box
//!   overlaps / contains the query (touching counts), each once;
//! - `ray_cast` / `ray_cast_thick` with clipping end at the brute-force first
//!   hit (minimum slab fraction over all boxes, inflated by the radius), and
//!   without clipping call back exactly the boxes the slab test hits;
//! - the slab test itself agrees with an independent f64 computation;
//! - `BroadPhase::ray_cast_thick_any_order`, over both trees read node by
//!   node or through their flattened copies (`DynamicTree::flatten`), calls
//!   back exactly the boxes the slab test hits when it never clips, and
//!   with clipping ends at the brute-force first hit; the flattened copies
//!   pass `validate()`;
//! - after random insert / move / remove sequences (stale removes included)
//!   `validate()` holds after every operation, stale ids are errors, fat boxes
//!   follow the move rules, and queries still match brute force;
//! - `update_pairs` returns exactly the brute-force set of overlapping fat
//!   box pairs that involve a moved, created or touched proxy (never two
//!   static ones), sorted, each pair once with the smaller id first;
//! - a caller that keeps every pair `update_new_pairs_with` reports until
//!   its fat boxes stop overlapping holds exactly the brute-force set of
//!   overlapping pairs after every update, and is told nothing
//!   `update_pairs_with` would not say.
//! - `keep_room` is safe: every tight box whose corners lie within the room
//!   of the end box it was measured for is kept by `keeps`, whatever the
//!   displacement, at coordinates up to 10 km.

use circlet::broadphase::{
    AABB_MARGIN, Bounds, BroadPhase, BroadPhaseError, DynamicTree, PREDICTION_MULTIPLIER, ProxyId,
    ProxyKind,
};
use circlet::math::{Real, Vec2, vec2};
use proptest::prelude::*;

const CASES: u32 = 10_000;
const QUARTER: Real = 0.25;

fn quarter_point() -> impl Strategy<Value = Vec2> {
    (-80i32..80, -80i32..80).prop_map(|(x, y)| vec2(x as Real * QUARTER, y as Real * QUARTER))
}

/// Boxes of 0 to 5 m per side (flat and point boxes included).
fn tight_box() -> impl Strategy<Value = Bounds> {
    (quarter_point(), 0i32..20, 0i32..20).prop_map(|(corner, w, h)| {
        Bounds::new(
            corner,
            corner + vec2(w as Real * QUARTER, h as Real * QUARTER),
        )
        .unwrap()
    })
}

fn kind() -> impl Strategy<Value = ProxyKind> {
    prop_oneof![Just(ProxyKind::Static), Just(ProxyKind::Moving)]
}

fn margin_of(kind: ProxyKind) -> Real {
    match kind {
        ProxyKind::Static => 0.0,
        ProxyKind::Moving => AABB_MARGIN,
    }
}

fn build(kind: ProxyKind, boxes: &[Bounds]) -> (DynamicTree<usize>, Vec<ProxyId>) {
    let mut tree = DynamicTree::new(kind);
    let ids = boxes
        .iter()
        .enumerate()
        .map(|(i, b)| tree.insert(*b, i))
        .collect();
    (tree, ids)
}

fn sorted<T: Ord>(mut items: Vec<T>) -> Vec<T> {
    items.sort();
    items
}

/// Independent slab test in f64 by division; `None` on a miss.
fn slab_f64(b: &Bounds, origin: Vec2, translation: Vec2, max_fraction: Real) -> Option<f64> {
    let (mut enter, mut exit) = (0.0f64, max_fraction as f64);
    for axis in 0..2 {
        let (o, d) = (origin[axis] as f64, translation[axis] as f64);
        let (lo, hi) = (b.min()[axis] as f64, b.max()[axis] as f64);
        if d == 0.0 {
            if o < lo || o > hi {
                return None;
            }
        } else {
            let (t1, t2) = ((lo - o) / d, (hi - o) / d);
            enter = enter.max(t1.min(t2));
            exit = exit.min(t1.max(t2));
        }
    }
    (enter <= exit).then_some(enter)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(CASES))]

    #[test]
    fn box_and_point_queries_match_brute_force(
        kind in kind(),
        boxes in prop::collection::vec(tight_box(), 0..40),
        query in tight_box(),
        point in quarter_point(),
    ) {
        let (tree, ids) = build(kind, &boxes);
        prop_assert!(tree.validate().is_ok());
        for (id, tight) in ids.iter().zip(&boxes) {
            prop_assert_eq!(tree.fat_bounds(*id), tight.inflated(margin_of(kind)).ok());
        }
        let mut found = Vec::new();
        let completed = tree.query_aabb(&query, |id, data| {
            found.push((id, data));
            true
        });
        prop_assert!(completed);
        let expected: Vec<_> = ids
            .iter()
            .enumerate()
            .filter(|(_, id)| tree.fat_bounds(**id).unwrap().overlaps(&query))
            .map(|(i, id)| (*id, i))
            .collect();
        prop_assert_eq!(sorted(found), sorted(expected));

        let mut at_point = Vec::new();
        tree.query_point(point, |id, _| {
            at_point.push(id);
            true
        });
        let expected: Vec<_> =
            ids.iter().copied().filter(|id| tree.fat_bounds(*id).unwrap().contains_point(point)).collect();
        prop_assert_eq!(sorted(at_point), sorted(expected));
    }

    #[test]
    fn ray_casts_match_brute_force(
        kind in kind(),
        boxes in prop::collection::vec(tight_box(), 0..40),
        origin in quarter_point(),
        target in quarter_point(),
        max_fraction_quarters in 0i32..6,
        radius_quarters in prop_oneof![Just(0i32), 0i32..4],
    ) {
        let (tree, ids) = build(kind, &boxes);
        let translation = target - origin;
        let max_fraction = max_fraction_quarters as Real * QUARTER;
        let radius = radius_quarters as Real * QUARTER;
        let reach = |id: ProxyId, max: Real| {
            tree.fat_bounds(id).unwrap().inflated(radius).unwrap().ray_fraction(origin, translation, max)
        };

        // Clipping at every hit ends at the first hit.
        let mut closest: Option<(ProxyId, Real)> = None;
        let fraction = tree
            .ray_cast_thick(origin, translation, radius, max_fraction, |id, _, max| match reach(id, max) {
                Some(t) => {
                    if closest.is_none_or(|(_, best)| t < best) {
                        closest = Some((id, t));
                    }
                    t
                }
                None => max,
            })
            .unwrap();
        let first_hit = ids.iter().filter_map(|id| reach(*id, max_fraction)).fold(None, |best: Option<Real>, t| {
            Some(best.map_or(t, |b| b.min(t)))
        });
        prop_assert_eq!(fraction, first_hit.unwrap_or(max_fraction));
        prop_assert_eq!(closest.map(|(_, t)| t), first_hit);
        if let Some((id, t)) = closest {
            prop_assert_eq!(reach(id, max_fraction), Some(t));
        }

        // Never clipping: every box the slab test hits is called back, once.
        let mut called = Vec::new();
        let unclipped = tree
            .ray_cast_thick(origin, translation, radius, max_fraction, |id, _, max| {
                called.push(id);
                max
            })
            .unwrap();
        prop_assert_eq!(unclipped, max_fraction);
        let expected: Vec<_> = ids.iter().copied().filter(|id| reach(*id, max_fraction).is_some()).collect();
        prop_assert_eq!(sorted(called), sorted(expected));
        if radius == 0.0 {
            let thin = tree.ray_cast(origin, translation, max_fraction, |id, _, max| reach(id, max).unwrap_or(max));
            prop_assert_eq!(thin, Ok(fraction));
        }
    }

    #[test]
    fn any_order_casts_match_brute_force_flattened_or_not(
        boxes in prop::collection::vec((tight_box(), kind()), 0..60),
        origin in quarter_point(),
        target in quarter_point(),
        max_fraction_quarters in 0i32..6,
        radius_quarters in prop_oneof![Just(0i32), 0i32..4],
        flatten in (any::<bool>(), any::<bool>()),
    ) {
        let mut broad_phase = BroadPhase::new();
        let ids: Vec<ProxyId> = boxes
            .iter()
            .enumerate()
            .map(|(i, (b, kind))| broad_phase.create_proxy(*b, *kind, i))
            .collect();
        for (kind, on) in [(ProxyKind::Static, flatten.0), (ProxyKind::Moving, flatten.1)] {
            if on {
                broad_phase.tree(kind).flatten();
            }
            let tree = broad_phase.tree(kind);
            prop_assert_eq!(tree.is_flattened(), on && !tree.is_empty());
        }
        prop_assert!(broad_phase.validate().is_ok());
        let translation = target - origin;
        let max_fraction = max_fraction_quarters as Real * QUARTER;
        let radius = radius_quarters as Real * QUARTER;
        let reach = |id: ProxyId, max: Real| {
            broad_phase.fat_bounds(id).unwrap().inflated(radius).unwrap().ray_fraction(origin, translation, max)
        };
        let mut called = Vec::new();
        let unclipped = broad_phase
            .ray_cast_thick_any_order(origin, translation, radius, max_fraction, |id, _, max| {
                called.push(id);
                max
            })
            .unwrap();
        prop_assert_eq!(unclipped, max_fraction);
        let expected: Vec<_> = ids.iter().copied().filter(|id| reach(*id, max_fraction).is_some()).collect();
        prop_assert_eq!(sorted(called), sorted(expected));
        let fraction = broad_phase
            .ray_cast_thick_any_order(origin, translation, radius, max_fraction, |id, _, max| {
                reach(id, max).unwrap_or(max)
            })
            .unwrap();
        let first_hit = ids.iter().filter_map(|id| reach(*id, max_fraction)).fold(None, |best: Option<Real>, t| {
            Some(best.map_or(t, |b| b.min(t)))
        });
        // A first hit at 0 stops the cast at once.
        prop_assert_eq!(fraction, first_hit.unwrap_or(max_fraction));
    }

    #[test]
    fn slab_test_agrees_with_f64_division(
        b in tight_box(),
        origin in quarter_point(),
        translation in (-400i32..400, -400i32..400).prop_map(|(x, y)| vec2(x as Real * 0.1, y as Real * 0.1)),
        max_fraction_quarters in 0i32..6,
    ) {
        let max_fraction = max_fraction_quarters as Real * QUARTER;
        let ours = b.ray_fraction(origin, translation, max_fraction);
        let reference = slab_f64(&b, origin, translation, max_fraction);
        match (ours, reference) {
            (Some(t), Some(r)) => prop_assert!((t as f64 - r).abs() <= 1e-5 * (1.0 + r.abs()), "{} vs {}", t, r),
            (None, None) => {}
            // Only grazing cases may differ by rounding: the reference's entry
            // and exit (or the max fraction) are then within rounding.
            (ours, reference) => {
                let grown = b.inflated(1e-3).unwrap();
                let shrunk_min = b.min() + vec2(1e-3, 1e-3);
                let shrunk_max = b.max() - vec2(1e-3, 1e-3);
                let near_miss = slab_f64(&grown, origin, translation, max_fraction + 1e-4).is_some();
                let near_hit = shrunk_min.x > shrunk_max.x
                    || shrunk_min.y > shrunk_max.y
                    || slab_f64(&Bounds::new(shrunk_min, shrunk_max).unwrap(), origin, translation, (max_fraction - 1e-4).max(0.0)).is_none();
                prop_assert!(near_miss && near_hit, "{:?} vs {:?}", ours, reference);
            }
        }
    }
}

#[derive(Clone, Debug)]
enum Op {
    Insert(Bounds),
    /// Move the proxy at this index of the live list (modulo its length) by a
    /// displacement in quarter metres, resizing it by `grow` quarters.
    Move(usize, (i32, i32), i32),
    Remove(usize),
    /// Remove again a proxy removed earlier (modulo the removed list).
    RemoveStale(usize),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => tight_box().prop_map(Op::Insert),
        4 => (any::<usize>(), (-12i32..12, -12i32..12), -2i32..3).prop_map(|(i, d, g)| Op::Move(i, d, g)),
        2 => any::<usize>().prop_map(Op::Remove),
        1 => any::<usize>().prop_map(Op::RemoveStale),
    ]
}

/// The stored box a re-insertion must produce.
fn predicted(tight: &Bounds, displacement: Vec2, margin: Real) -> Bounds {
    let fat = tight.inflated(margin).unwrap();
    let ahead = displacement * PREDICTION_MULTIPLIER;
    let (mut min, mut max) = (fat.min(), fat.max());
    for axis in 0..2 {
        if ahead[axis] < 0.0 {
            min[axis] += ahead[axis];
        } else {
            max[axis] += ahead[axis];
        }
    }
    Bounds::new(min, max).unwrap()
}

fn moved(tight: &Bounds, step: (i32, i32), grow: i32) -> (Bounds, Vec2) {
    let displacement = vec2(step.0 as Real, step.1 as Real) * QUARTER;
    let extra = vec2(grow as Real, grow as Real) * QUARTER;
    let min = tight.min() + displacement;
    let max = (tight.max() + displacement + extra).sup(&min);
    (Bounds::new(min, max).unwrap(), displacement)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(CASES))]

    #[test]
    fn random_edit_sequences_keep_the_tree_valid(
        kind in kind(),
        ops in prop::collection::vec(op(), 1..40),
        query in tight_box(),
    ) {
        let margin = margin_of(kind);
        let mut tree = DynamicTree::new(kind);
        let mut live: Vec<(ProxyId, Bounds, u32)> = Vec::new();
        let mut removed: Vec<ProxyId> = Vec::new();
        let mut next_data = 0u32;
        for op in ops {
            match op {
                Op::Insert(b) => {
                    let id = tree.insert(b, next_data);
                    prop_assert!(!live.iter().any(|(other, _, _)| *other == id), "fresh id");
                    live.push((id, b, next_data));
                    next_data += 1;
                }
                Op::Move(i, step, grow) if !live.is_empty() => {
                    let i = i % live.len();
                    let (id, tight, _) = live[i];
                    let before = tree.fat_bounds(id).unwrap();
                    let (to, displacement) = moved(&tight, step, grow);
                    let reinserted = tree.move_proxy(id, to, displacement).unwrap();
                    let after = tree.fat_bounds(id).unwrap();
                    prop_assert!(after.contains(&to), "fat box holds the tight box");
                    if reinserted {
                        prop_assert_eq!(after, predicted(&to, displacement, margin));
                    } else {
                        prop_assert_eq!(after, before);
                        prop_assert!(before.contains(&to));
                    }
                    live[i].1 = to;
                }
                Op::Remove(i) if !live.is_empty() => {
                    let (id, _, data) = live.swap_remove(i % live.len());
                    prop_assert_eq!(tree.remove(id), Ok(data));
                    removed.push(id);
                }
                Op::RemoveStale(i) if !removed.is_empty() => {
                    let id = removed[i % removed.len()];
                    prop_assert_eq!(tree.remove(id), Err(BroadPhaseError::StaleProxy { id }));
                    prop_assert_eq!(tree.fat_bounds(id), None);
                }
                _ => {}
            }
            if let Err(violation) = tree.validate() {
                return Err(TestCaseError::fail(format!("{violation}")));
            }
            prop_assert_eq!(tree.len(), live.len());
        }
        for (id, _, data) in &live {
            prop_assert_eq!(tree.user_data(*id), Some(*data));
        }
        let mut found = Vec::new();
        tree.query_aabb(&query, |id, _| {
            found.push(id);
            true
        });
        let expected: Vec<_> = live
            .iter()
            .map(|(id, _, _)| *id)
            .filter(|id| tree.fat_bounds(*id).unwrap().overlaps(&query))
            .collect();
        prop_assert_eq!(sorted(found), sorted(expected));
        let listed: Vec<_> = tree.proxies().map(|(id, _, data)| (id, data)).collect();
        prop_assert_eq!(sorted(listed), sorted(live.iter().map(|(id, _, data)| (*id, *data)).collect()));
    }
}

#[derive(Clone, Debug)]
enum Event {
    Create(Bounds, ProxyKind),
    Move(usize, (i32, i32)),
    Destroy(usize),
    Touch(usize),
}

fn event() -> impl Strategy<Value = Event> {
    prop_oneof![
        2 => (tight_box(), kind()).prop_map(|(b, k)| Event::Create(b, k)),
        5 => (any::<usize>(), (-8i32..8, -8i32..8)).prop_map(|(i, d)| Event::Move(i, d)),
        1 => any::<usize>().prop_map(Event::Destroy),
        1 => any::<usize>().prop_map(Event::Touch),
    ]
}

/// Live proxies of a broadphase whose user data is a unique number.
struct Proxies {
    broad_phase: BroadPhase<usize>,
    /// (id, user data, tight box).
    live: Vec<(ProxyId, usize, Bounds)>,
    next: usize,
}

/// What an event did.
enum Applied {
    /// A proxy the next update must query: created, re-inserted or touched.
    Pending(ProxyId),
    /// The user data of a destroyed proxy.
    Destroyed(usize),
    Nothing,
}

impl Proxies {
    fn new(initial: Vec<(Bounds, ProxyKind)>) -> Proxies {
        let mut proxies = Proxies {
            broad_phase: BroadPhase::new(),
            live: Vec::new(),
            next: 0,
        };
        for (b, kind) in initial {
            proxies.create(b, kind);
        }
        proxies
    }

    fn create(&mut self, b: Bounds, kind: ProxyKind) -> ProxyId {
        let id = self.broad_phase.create_proxy(b, kind, self.next);
        self.live.push((id, self.next, b));
        self.next += 1;
        id
    }

    fn apply(&mut self, event: Event) -> Result<Applied, TestCaseError> {
        let count = self.live.len();
        Ok(match event {
            Event::Create(b, kind) => Applied::Pending(self.create(b, kind)),
            Event::Move(i, d) if count > 0 => {
                let (id, _, from) = self.live[i % count];
                let (to, displacement) = moved(&from, d, 0);
                self.live[i % count].2 = to;
                if self.broad_phase.move_proxy(id, to, displacement).unwrap() {
                    Applied::Pending(id)
                } else {
                    Applied::Nothing
                }
            }
            Event::Destroy(i) if count > 0 => {
                let (id, data, _) = self.live.swap_remove(i % count);
                prop_assert_eq!(self.broad_phase.destroy_proxy(id), Ok(data));
                Applied::Destroyed(data)
            }
            Event::Touch(i) if count > 0 => {
                let id = self.live[i % count].0;
                self.broad_phase.touch_proxy(id).unwrap();
                Applied::Pending(id)
            }
            _ => Applied::Nothing,
        })
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(CASES))]

    #[test]
    fn update_pairs_matches_brute_force(
        initial in prop::collection::vec((tight_box(), kind()), 0..30),
        steps in prop::collection::vec(prop::collection::vec(event(), 0..12), 1..4),
    ) {
        let mut proxies = Proxies::new(initial);
        // Proxies the next update must query: created, re-inserted or touched.
        let mut pending: Vec<ProxyId> = proxies.live.iter().map(|(id, _, _)| *id).collect();
        let mut pairs = Vec::new();
        for (step, events) in steps.into_iter().enumerate() {
            // The first update sees the initial proxies; later ones the events.
            if step > 0 {
                for event in events {
                    if let Applied::Pending(id) = proxies.apply(event)? {
                        pending.push(id);
                    }
                }
            }
            let Proxies { broad_phase, live, .. } = &mut proxies;
            prop_assert!(broad_phase.validate().is_ok());
            broad_phase.update_pairs(&mut pairs);
            let is_pending = |id: ProxyId| pending.contains(&id);
            let mut expected = Vec::new();
            for (i, (a, _, _)) in live.iter().enumerate() {
                for (b, _, _) in &live[i + 1..] {
                    let (a, b) = if a < b { (*a, *b) } else { (*b, *a) };
                    let both_static = a.kind() == ProxyKind::Static && b.kind() == ProxyKind::Static;
                    let overlap = broad_phase.fat_bounds(a).unwrap().overlaps(&broad_phase.fat_bounds(b).unwrap());
                    if overlap && !both_static && (is_pending(a) || is_pending(b)) {
                        expected.push((a, b));
                    }
                }
            }
            expected.sort();
            prop_assert!(pairs.windows(2).all(|w| w[0] < w[1]), "sorted, no duplicates");
            prop_assert!(pairs.iter().all(|(a, b)| a < b));
            prop_assert_eq!(&pairs, &expected);
            prop_assert_eq!(broad_phase.pending_moves(), 0);
            pending.clear();
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(CASES))]

    /// A caller that keeps every reported pair until its fat boxes stop
    /// overlapping (as the world's contact map does) holds, after each
    /// `update_new_pairs_with`, exactly the brute-force set of overlapping
    /// pairs; and what it was told is a subset of `update_pairs_with`.
    #[test]
    fn new_pairs_keep_a_pair_set_complete(
        initial in prop::collection::vec((tight_box(), kind()), 0..30),
        steps in prop::collection::vec(prop::collection::vec(event(), 0..12), 1..5),
    ) {
        let mut proxies = Proxies::new(initial);
        let mut held = std::collections::BTreeSet::new();
        for (step, events) in steps.into_iter().enumerate() {
            if step > 0 {
                for event in events {
                    if let Applied::Destroyed(data) = proxies.apply(event)? {
                        held.retain(|&(a, b)| a != data && b != data);
                    }
                }
            }
            let Proxies { broad_phase, live, .. } = &mut proxies;
            prop_assert!(broad_phase.validate().is_ok());
            let mut all = Vec::new();
            broad_phase.clone().update_pairs_with(|a, b| all.push((a.min(b), a.max(b))));
            let mut new = Vec::new();
            broad_phase.update_new_pairs_with(|a, b| new.push((a.min(b), a.max(b))));
            prop_assert!(new.iter().all(|pair| all.contains(pair)));
            held.extend(new);
            // The caller's pass: pairs whose boxes no longer overlap go.
            let fat = |data: usize| {
                let (id, _, _) = live.iter().find(|(_, d, _)| *d == data).unwrap();
                broad_phase.fat_bounds(*id).unwrap()
            };
            held.retain(|&(a, b)| fat(a).overlaps(&fat(b)));
            let mut expected = std::collections::BTreeSet::new();
            for (i, (a, data_a, _)) in live.iter().enumerate() {
                for (b, data_b, _) in &live[i + 1..] {
                    let both_static = a.kind() == ProxyKind::Static && b.kind() == ProxyKind::Static;
                    let overlap = broad_phase.fat_bounds(*a).unwrap().overlaps(&broad_phase.fat_bounds(*b).unwrap());
                    if overlap && !both_static {
                        expected.insert((*data_a.min(data_b), *data_a.max(data_b)));
                    }
                }
            }
            prop_assert_eq!(&held, &expected);
        }
    }
}

/// A box at up to 10 km from the origin, 0 to 20 m wide.
fn far_box() -> impl Strategy<Value = Bounds> {
    (
        -1.0e4f32..1.0e4,
        -1.0e4f32..1.0e4,
        0.0f32..20.0,
        0.0f32..20.0,
    )
        .prop_map(|(x, y, w, h)| Bounds::new(vec2(x, y), vec2(x + w, y + h)).unwrap())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(CASES))]

    /// Stored boxes reach 0 to 6 margins beyond the end box on each side
    /// (past the shrink limit on some): for every room found, a tight box
    /// with each corner moved by up to the room is kept.
    #[test]
    fn boxes_within_the_keep_room_are_kept(
        end in far_box(),
        gaps in prop::array::uniform4(0.0f32..6.0),
        share in 0.0f32..=1.0,
        moves in prop::array::uniform4(-1.0f32..=1.0),
        displacement in (-1.0f32..1.0, -1.0f32..1.0),
    ) {
        let tree: DynamicTree<u32> = DynamicTree::new(ProxyKind::Moving);
        let m = tree.margin();
        let stored = Bounds::new(
            end.min() - vec2(gaps[0], gaps[1]) * m,
            end.max() + vec2(gaps[2], gaps[3]) * m,
        )
        .unwrap();
        let room = tree.keep_room(&stored, &end);
        // Past 5 margins (the margin and the shrink slack of 4) there is no
        // room; within, there is.
        let widest = gaps.iter().copied().fold(0.0, f32::max);
        if widest > 5.001 {
            prop_assert!(room < 0.0, "room {room} past the shrink limit");
            return Ok(());
        }
        // (The slack, 64 units in the last place, is under 0.08 m at 10 km.)
        let least = gaps.iter().copied().fold(Real::INFINITY, f32::min);
        if widest < 4.0 && least > 1.0 {
            prop_assert!(room > 0.0, "no room {room} within the shrink limit");
        }
        if room < 0.0 {
            return Ok(());
        }
        let d = room * share;
        let min = end.min() + vec2(moves[0], moves[1]) * d;
        let max = (end.max() + vec2(moves[2], moves[3]) * d).sup(&min);
        let bounds = Bounds::new(min, max).unwrap();
        let displacement = vec2(displacement.0, displacement.1);
        prop_assert!(
            tree.keeps(&stored, &bounds, displacement),
            "room {room}, stored {stored:?}, bounds {bounds:?}"
        );
    }
}
