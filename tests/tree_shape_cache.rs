//! The candidate cache of a tree and a shape that is not a tree
//! ([`TreePairCache::contact_shape`]). Locks: along random walks of both
//! poses (small moves and turns, jumps, rescales of either, margin
//! changes), every answer of the cache equals, bit for bit, a fresh
//! `contact_with_margin` of the tree and the shape, for every shape kind
//! (lines and simple polygons included) and trees of 1 to 32 leaves, tight
//! and loose (40,000 walks of up to 12 steps); and in a walk of small
//! moves most answers come from the candidates.

mod support;

use circlet::math::{Pose, Real, Rot2, vec2};
use circlet::query::contact::contact_with_margin;
use circlet::query::tree::TreePairCache;
use circlet::shape::Shape;
use proptest::prelude::*;
use std::sync::Arc;
use support::contact::{any_shape, real};
use support::{pose, tree};

/// One step of a walk: how each pose moves, and what else changes.
#[derive(Clone, Debug)]
struct Move {
    shift_tree: (Real, Real, Real),
    shift_shape: (Real, Real, Real),
    /// 0..=12 small moves of both, 13 of the tree only, 14 a jump of the
    /// tree, 15 a new scale of the shape, 16 of the tree, 17 a new margin.
    kind: u8,
}

fn step() -> impl Strategy<Value = Move> {
    let shift = || (real(-0.03, 0.03), real(-0.03, 0.03), real(-0.02, 0.02));
    (shift(), shift(), 0u8..=17).prop_map(|(shift_tree, shift_shape, kind)| Move {
        shift_tree,
        shift_shape,
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

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40_000))]

    #[test]
    fn cached_answers_equal_fresh_contacts(
        tree in tree(32),
        shape in any_shape(),
        start in pose(),
        offset in (real(-4.0, 4.0), real(-4.0, 4.0), real(-3.2, 3.2), real(0.3, 3.0)),
        margin in real(0.0, 0.1),
        walk in prop::collection::vec(step(), 1..12),
    ) {
        let as_shape = Shape::Tree(Arc::new(tree.clone()));
        let (x, y, angle, scale) = offset;
        let mut pose_tree = start;
        let mut pose_shape = Pose::new(start.translation + vec2(x, y), angle).with_scale(scale);
        let mut margin = margin;
        let mut cache = TreePairCache::default();
        for (i, m) in walk.iter().enumerate() {
            match m.kind {
                13 => pose_tree = moved(&pose_tree, m.shift_tree),
                14 => pose_tree = moved(&pose_tree, (m.shift_tree.0 * 30.0, m.shift_tree.1 * 30.0, m.shift_tree.2 * 50.0)),
                15 => pose_shape = pose_shape.with_scale(pose_shape.scale * (1.0 + m.shift_shape.0)),
                16 => pose_tree = pose_tree.with_scale(pose_tree.scale * (1.0 + m.shift_tree.0)),
                17 => margin = (margin + m.shift_tree.0).max(0.0),
                _ => {
                    pose_tree = moved(&pose_tree, m.shift_tree);
                    pose_shape = moved(&pose_shape, m.shift_shape);
                }
            }
            let cached = cache.contact_shape(&tree, &pose_tree, &shape, &pose_shape, margin);
            let fresh = contact_with_margin(&as_shape, &pose_tree, &shape, &pose_shape, margin);
            prop_assert_eq!(cached, fresh, "step {}", i);
        }
    }
}

/// A tree of 16 leaves in two rows creeping over a floor 0.5 mm a step:
/// one descent in ten answers or fewer, each answer the fresh contact, and
/// only the lower row's leaves tested.
#[test]
fn a_creeping_tree_is_answered_from_its_candidates() {
    let leaves: Vec<_> = (0..16)
        .map(|i| {
            let x = (i % 8) as Real * 0.4 - 1.4;
            let y = (i / 8) as Real * 0.4 - 0.2;
            circlet::shape::Circle::new(vec2(x, y), 0.25).unwrap()
        })
        .collect();
    let tree = circlet::shape::CircleTree::from_leaves(&leaves, 4).unwrap();
    let as_shape = Shape::Tree(Arc::new(tree.clone()));
    let floor = Shape::from(
        circlet::shape::ConvexPolygon::rectangle(vec2(-50.0, -1.0), vec2(50.0, 0.0)).unwrap(),
    );
    let mut cache = TreePairCache::default();
    let queries = 400;
    for i in 0..queries {
        let pose = Pose::new(vec2(0.0005 * i as Real, 0.44), 0.0001 * i as Real);
        let cached = cache.contact_shape(&tree, &pose, &floor, &Pose::IDENTITY, 0.02);
        let fresh = contact_with_margin(&as_shape, &pose, &floor, &Pose::IDENTITY, 0.02);
        assert_eq!(cached, fresh, "query {i}");
        assert!(cached.is_some(), "query {i}: resting on the floor");
    }
    assert!(
        cache.descents() * 10 <= queries,
        "{} descents for {queries} queries",
        cache.descents()
    );
    // The upper row of leaves lies 0.4 m above the floor's reach.
    assert_eq!(cache.candidate_count(), 8, "the lower row only");
}
