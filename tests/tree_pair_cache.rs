//! The candidate cache of a tree pair ([`TreePairCache`]). Locks:
//! - along random walks of both poses (small moves, turns, rescales and
//!   jumps, margin changes), every answer of the cache equals, bit for bit,
//!   a fresh `contact_tree_tree_with_margin` of the same poses (10,000 walks
//!   of up to 12 steps, trees of 1 to 32 leaves, tight and loose);
//! - along the same walks, with a motion stamp that grows by a bound of how
//!   far any point of either tree moved: whenever the stamp is still at or
//!   below the `quiet_until` of an earlier answer, the fresh answer is
//!   `None` (the promise the world passes quiet pairs over on), both for
//!   the answer just before and, with a second cache that is not asked
//!   while it is quiet (as the world does), over several steps;
//! - trees apart with candidates (leaves nearer than the widened descent,
//!   farther than the margin) are quiet too, for the room of the nearest;
//! - the cache does serve answers from its candidates (a walk of small
//!   moves runs one descent), descends again once the motion used up
//!   [`CACHE_REACH`], and a cleared cache descends on its next query.

mod support;

use circlet::math::{Pose, Real, Rot2, vec2};
use circlet::query::tree::{CACHE_REACH, TreePairCache, contact_tree_tree_with_margin};
use circlet::shape::{CircleTree, TreeBuilder};
use proptest::prelude::*;
use support::contact::real;
use support::*;

/// One step of a walk: how each pose moves, and whether the margin or a
/// scale changes.
#[derive(Clone, Debug)]
struct Move {
    shift_a: (Real, Real, Real),
    shift_b: (Real, Real, Real),
    /// 0..=13 small moves, 14 a jump of B, 15 a new scale of A, 16 a new margin.
    kind: u8,
}

fn step() -> impl Strategy<Value = Move> {
    let shift = || (real(-0.03, 0.03), real(-0.03, 0.03), real(-0.02, 0.02));
    (shift(), shift(), 0u8..=16).prop_map(|(shift_a, shift_b, kind)| Move {
        shift_a,
        shift_b,
        kind,
    })
}

fn moved(pose: &Pose, (dx, dy, turn): (Real, Real, Real)) -> Pose {
    Pose {
        rotation: Rot2::new(turn) * pose.rotation,
        translation: pose.translation + vec2(dx, dy),
        scale: pose.scale,
    }
}

/// A bound (m) of how far any point of `tree` moves from `from` to `to`:
/// `|Δt| + (|ΔR| s₁ + |Δs|) · reach`, generously rounded up.
fn motion(tree: &CircleTree, from: &Pose, to: &Pose) -> f64 {
    let reach = f64::from(tree.bounding_radius_about_origin());
    let (r0, r1) = (from.rotation.complex(), to.rotation.complex());
    let shift = f64::from((to.translation - from.translation).norm());
    let turn = f64::from((r1.re - r0.re).hypot(r1.im - r0.im));
    let grow = f64::from((to.scale - from.scale).abs());
    (shift + (turn * f64::from(to.scale) + grow) * reach) * 1.001 + 1e-6
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(10_000))]

    #[test]
    fn cached_answers_equal_fresh_descents(
        a in tree(32),
        b in tree(32),
        start_a in pose(),
        offset in (real(-4.0, 4.0), real(-4.0, 4.0), real(-3.2, 3.2), real(0.3, 3.0)),
        margin in real(0.0, 0.1),
        walk in prop::collection::vec(step(), 1..12),
    ) {
        // B starts near A, so that leaves touch, come and go.
        let (x, y, angle, scale) = offset;
        let mut pose_a = start_a;
        let mut pose_b = Pose::new(start_a.translation + vec2(x, y), angle).with_scale(scale);
        let mut margin = margin;
        let mut cache = TreePairCache::default();
        let mut stamp = 0.0f64;
        let mut quiet_until = f64::NEG_INFINITY;
        // Asked only once its stamp has passed its threshold, as the world
        // asks a quiet pair.
        let mut skipping = TreePairCache::default();
        let mut skipping_until = f64::NEG_INFINITY;
        for (i, m) in walk.iter().enumerate() {
            let (was_a, was_b) = (pose_a, pose_b);
            match m.kind {
                14 => pose_b = moved(&pose_b, (m.shift_b.0 * 30.0, m.shift_b.1 * 30.0, m.shift_b.2 * 50.0)),
                15 => pose_a = pose_a.with_scale(pose_a.scale * (1.0 + m.shift_a.0)),
                16 => margin = (margin + m.shift_a.0).max(0.0),
                _ => {
                    pose_a = moved(&pose_a, m.shift_a);
                    pose_b = moved(&pose_b, m.shift_b);
                }
            }
            stamp += motion(&a, &was_a, &pose_a) + motion(&b, &was_b, &pose_b);
            if m.kind == 16 {
                // The promise holds for one margin.
                quiet_until = f64::NEG_INFINITY;
                skipping_until = f64::NEG_INFINITY;
            }
            let cached = cache.contact_with_stamp(&a, &pose_a, &b, &pose_b, margin, stamp);
            let fresh = contact_tree_tree_with_margin(&a, &pose_a, &b, &pose_b, margin);
            if stamp <= quiet_until {
                prop_assert!(fresh.is_none(), "step {}: quiet, yet {:?}", i, fresh);
            }
            prop_assert_eq!(&cached, &fresh, "step {}", i);
            quiet_until = cache.quiet_until();
            if stamp <= skipping_until {
                prop_assert!(fresh.is_none(), "step {}: still quiet, yet {:?}", i, fresh);
            } else {
                let answer = skipping.contact_with_stamp(&a, &pose_a, &b, &pose_b, margin, stamp);
                prop_assert_eq!(answer, fresh, "step {} after quiet steps", i);
                skipping_until = skipping.quiet_until();
            }
        }
    }
}

/// A hull of two groups of two balls, as in the peer scenes.
fn hull() -> CircleTree {
    TreeBuilder::node(vec2(0.0, 0.0), 1.6)
        .child(
            TreeBuilder::node(vec2(-0.6, 0.0), 0.8)
                .child(TreeBuilder::node(vec2(-0.9, 0.0), 0.45))
                .child(TreeBuilder::node(vec2(-0.3, 0.0), 0.45)),
        )
        .child(
            TreeBuilder::node(vec2(0.6, 0.0), 0.8)
                .child(TreeBuilder::node(vec2(0.3, 0.0), 0.45))
                .child(TreeBuilder::node(vec2(0.9, 0.0), 0.45)),
        )
        .build()
        .unwrap()
        .0
}

#[test]
fn small_moves_are_answered_from_the_candidates() {
    let tree = hull();
    let below = Pose::IDENTITY;
    let mut cache = TreePairCache::default();
    // B rests on A, sliding 1 mm per query: one descent for the first
    // queries, then another once the slide used up the reach.
    let mut descents = Vec::new();
    for i in 0..200 {
        let above = Pose::new(vec2(0.001 * i as Real, 0.88), 0.0);
        let cached = cache.contact(&tree, &below, &tree, &above, 0.02);
        assert_eq!(
            cached,
            contact_tree_tree_with_margin(&tree, &below, &tree, &above, 0.02)
        );
        assert!(cached.is_some());
        descents.push(cache.descents());
    }
    assert_eq!(descents[0], 1);
    assert_eq!(descents[10], 1, "ten small moves need no descent");
    let last = *descents.last().unwrap();
    assert!(last >= 2, "a slide of 0.2 m descends again");
    assert!(
        last <= (0.2 / CACHE_REACH) as u64 + 1,
        "{last} descents for 0.2 m"
    );
    assert!(cache.candidate_count() >= 1);
    cache.clear();
    let above = Pose::new(vec2(0.0, 0.88), 0.0);
    cache.contact(&tree, &below, &tree, &above, 0.02);
    assert_eq!(cache.descents(), last + 1);
}

#[test]
fn trees_apart_with_candidates_are_quiet_for_the_nearest_room() {
    let tree = hull();
    let below = Pose::IDENTITY;
    let margin = 0.02;
    // The lower balls of B 3 cm above A's upper balls: within the widened
    // descent (margin and CACHE_REACH), beyond the margin.
    let gap = 0.03;
    let above = Pose::new(vec2(0.0, 0.9 + gap), 0.0);
    let mut cache = TreePairCache::default();
    assert_eq!(
        cache.contact_with_stamp(&tree, &below, &tree, &above, margin, 1.0),
        None
    );
    assert!(cache.candidate_count() >= 1);
    let room = cache.quiet_until() - 1.0;
    // The room is the candidates' gap beyond the margin, less the rounding
    // slack: not more, and not much less.
    let expected = f64::from(gap - margin);
    assert!(room <= expected, "room {room} beyond {expected}");
    assert!(room > expected - 1e-4, "room {room} far below {expected}");
    // The same from the candidates, without a descent.
    assert_eq!(
        cache.contact_with_stamp(&tree, &below, &tree, &above, margin, 2.0),
        None
    );
    assert_eq!(cache.descents(), 1);
    assert!((cache.quiet_until() - 2.0 - room).abs() < 1e-6);
    // Nearer than the margin: touching, never quiet.
    let touching = Pose::new(vec2(0.0, 0.9 + 0.01), 0.0);
    assert!(
        cache
            .contact_with_stamp(&tree, &below, &tree, &touching, margin, 3.0)
            .is_some()
    );
    assert_eq!(cache.quiet_until(), f64::NEG_INFINITY);
}
