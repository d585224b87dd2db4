use super::*;
use crate::math::vec2;
use crate::query::tree::contact_tree_shape_with_margin;
use crate::shape::{Circle, ConvexPolygon, Line, TreeBuilder};

/// A hull of three leaves in a row, 3 m long.
fn hull() -> CircleTree {
    TreeBuilder::node(vec2(0.0, 0.0), 1.6)
        .child(TreeBuilder::node(vec2(-1.0, 0.0), 0.5))
        .child(TreeBuilder::node(vec2(0.0, 0.0), 0.5))
        .child(TreeBuilder::node(vec2(1.0, 0.0), 0.5))
        .build()
        .unwrap()
        .0
}

fn floor() -> Shape {
    Shape::from(ConvexPolygon::rectangle(vec2(-10.0, -1.0), vec2(10.0, 0.0)).unwrap())
}

/// Resting on the floor and creeping: one descent, the candidates the
/// leaves within the reach, and every answer the descent's.
#[test]
fn a_creeping_hull_descends_once() {
    let (tree, floor) = (hull(), floor());
    let mut cache = TreePairCache::default();
    for step in 0..20 {
        let pose = Pose::new(vec2(0.001 * step as Real, 0.49), 0.0005 * step as Real);
        let cached = cache.contact_shape(&tree, &pose, &floor, &Pose::IDENTITY, 0.02);
        let fresh = contact_tree_shape_with_margin(&tree, &pose, &floor, &Pose::IDENTITY, 0.02);
        assert_eq!(cached, fresh, "step {step}");
        assert!(cached.is_some());
    }
    assert_eq!(cache.descents(), 1);
    assert_eq!(cache.candidate_count(), 3);
}

/// Moved farther than the reach in one go, or rescaled, or asked with
/// another margin: a new descent, and still the descent's answer.
#[test]
fn motion_beyond_the_reach_descends_again() {
    let (tree, floor) = (hull(), floor());
    let mut cache = TreePairCache::default();
    let ask = |cache: &mut TreePairCache, pose: Pose, margin: Real| {
        let cached = cache.contact_shape(&tree, &pose, &floor, &Pose::IDENTITY, margin);
        let fresh = contact_tree_shape_with_margin(&tree, &pose, &floor, &Pose::IDENTITY, margin);
        assert_eq!(cached, fresh);
    };
    let pose = Pose::new(vec2(0.0, 0.49), 0.0);
    ask(&mut cache, pose, 0.02);
    ask(
        &mut cache,
        Pose::new(vec2(2.0 * CACHE_REACH, 0.49), 0.0),
        0.02,
    );
    assert_eq!(cache.descents(), 2);
    ask(&mut cache, pose.with_scale(1.01), 0.02);
    assert_eq!(cache.descents(), 3);
    ask(&mut cache, pose.with_scale(1.01), 0.03);
    assert_eq!(cache.descents(), 4);
    // A turn about the tree's origin moves its end leaves by 1 m per
    // radian: 0.1 rad is beyond the reach.
    ask(
        &mut cache,
        pose.with_scale(1.01)
            .compose(&Pose::new(vec2(0.0, 0.0), 0.1)),
        0.03,
    );
    assert_eq!(cache.descents(), 5);
}

/// A cache gathered against another tree is not read as one gathered
/// against a shape, nor the other way round.
#[test]
fn caches_of_trees_and_of_shapes_do_not_mix() {
    let (tree, floor) = (hull(), floor());
    let pose = Pose::new(vec2(0.0, 0.49), 0.0);
    let other = Pose::new(vec2(0.3, 1.45), 0.0);
    let mut cache = TreePairCache::default();
    let with_tree = cache.contact(&tree, &pose, &tree, &other, 0.02);
    let with_floor = cache.contact_shape(&tree, &pose, &floor, &Pose::IDENTITY, 0.02);
    assert_eq!(
        with_floor,
        contact_tree_shape_with_margin(&tree, &pose, &floor, &Pose::IDENTITY, 0.02)
    );
    assert_eq!(cache.descents(), 2);
    assert_eq!(cache.contact(&tree, &pose, &tree, &other, 0.02), with_tree);
    assert_eq!(cache.descents(), 3);
}

/// A line gives none (as every contact query), another tree and a tree of
/// one leaf take the plain descent.
#[test]
fn lines_trees_and_single_leaves_take_the_plain_answers() {
    let tree = hull();
    let pose = Pose::new(vec2(0.0, 0.49), 0.0);
    let mut cache = TreePairCache::default();
    let line = Shape::from(Line::new(vec2(0.0, 0.0), vec2(1.0, 0.0)).unwrap());
    assert_eq!(
        cache.contact_shape(&tree, &pose, &line, &Pose::IDENTITY, 0.02),
        None
    );
    let as_shape = Shape::Tree(std::sync::Arc::new(tree.clone()));
    let other = Pose::new(vec2(0.3, 1.45), 0.0);
    assert_eq!(
        cache.contact_shape(&tree, &pose, &as_shape, &other, 0.02),
        crate::query::tree::contact_tree_tree_with_margin(&tree, &pose, &tree, &other, 0.02)
    );
    let (single, _) = TreeBuilder::node(vec2(0.0, 0.0), 0.5).build().unwrap();
    let ball = Shape::from(Circle::new(vec2(0.0, 0.0), 0.5).unwrap());
    let at = Pose::from_translation(vec2(0.0, 0.99));
    assert_eq!(
        cache.contact_shape(&single, &pose, &ball, &at, 0.02),
        contact_tree_shape_with_margin(&single, &pose, &ball, &at, 0.02)
    );
    assert_eq!(cache.descents(), 0);
}
