//! Generators shared by the circle-tree tests: random trees (tight and with
//! loose parents), poses and probe shapes; [`contact`] holds those of the
//! contact properties. Reals are drawn with [`contact::real`] (integer
//! steps): proptest's own f32 range sampler trips a debug assertion on rare
//! draws, about once in ten runs of a test drawing two 64-leaf trees per case.

#![allow(dead_code)]

pub mod contact;

use contact::real;

use circlet::math::{Pose, Real, Vec2, vec2};
use circlet::shape::{Capsule, Circle, CircleTree, FlatNode, PartId, Shape};
use proptest::prelude::*;

/// A random leaf circle within a 6 x 6 box.
pub fn leaf() -> impl Strategy<Value = Circle> {
    (real(-3.0, 3.0), real(-3.0, 3.0), real(0.05, 1.0))
        .prop_map(|(x, y, r)| Circle::new(vec2(x, y), r).unwrap())
}

/// A random tree: 1 to `max_leaves` leaves grouped with a random branching,
/// and (half the time) every internal node widened by a random slack, so
/// that the hierarchies are not only the builder's tight ones. Parts: every
/// third node names one of four parts.
pub fn tree(max_leaves: usize) -> impl Strategy<Value = CircleTree> {
    (
        prop::collection::vec(leaf(), 1..=max_leaves),
        2usize..=6,
        prop::collection::vec(real(0.0, 0.3), 256),
        any::<bool>(),
    )
        .prop_map(|(leaves, branching, extra, loosen)| {
            let tight = CircleTree::from_leaves(&leaves, branching).unwrap();
            rebuild(&tight, if loosen { Some(&extra) } else { None })
        })
}

/// The same tree through the flat constructor, with parts, and parents
/// widened by `extra` (bottom-up, so every child stays inside its parent).
pub fn rebuild(tree: &CircleTree, extra: Option<&[f32]>) -> CircleTree {
    let nodes = tree.nodes();
    let mut slack = vec![0.0f32; nodes.len()];
    if let Some(extra) = extra {
        for i in (0..nodes.len()).rev() {
            if !nodes[i].is_leaf() {
                let from_children = nodes[i].children().map(|c| slack[c]).fold(0.0, f32::max);
                slack[i] = from_children + extra[i % extra.len()];
            }
        }
    }
    let flat = nodes
        .iter()
        .enumerate()
        .map(|(i, n)| FlatNode {
            center: n.center(),
            radius: n.radius() + slack[i],
            children: n.children(),
            part: (i % 3 == 0).then_some(PartId((i % 4) as u32)),
        })
        .collect();
    let names = ["hull", "engine", "cockpit", "wing"]
        .map(String::from)
        .to_vec();
    CircleTree::new(flat, names).unwrap()
}

/// A random pose: any angle, translation within 5 m, scale 0.3 to 3.
pub fn pose() -> impl Strategy<Value = Pose> {
    (
        real(-5.0, 5.0),
        real(-5.0, 5.0),
        real(-3.2, 3.2),
        real(0.3, 3.0),
    )
        .prop_map(|(x, y, angle, scale)| Pose::new(vec2(x, y), angle).with_scale(scale))
}

/// A random circle shape.
pub fn circle_shape() -> impl Strategy<Value = Shape> {
    (real(-4.0, 4.0), real(-4.0, 4.0), real(0.05, 2.0))
        .prop_map(|(x, y, r)| Shape::from(Circle::new(vec2(x, y), r).unwrap()))
}

/// A random capsule (a thick shot trace).
pub fn capsule() -> impl Strategy<Value = Capsule> {
    (
        real(-6.0, 6.0),
        real(-6.0, 6.0),
        real(-6.0, 6.0),
        real(-6.0, 6.0),
        real(0.01, 0.6),
    )
        .prop_map(|(ax, ay, bx, by, r)| Capsule::new(vec2(ax, ay), vec2(bx, by), r).unwrap())
}

/// A world point.
pub fn point() -> impl Strategy<Value = Vec2> {
    (real(-8.0, 8.0), real(-8.0, 8.0)).prop_map(|(x, y)| vec2(x, y))
}

/// Leaf circles of a tree in world coordinates, computed here independently
/// of the library's query code.
pub fn world_leaves(tree: &CircleTree, pose: &Pose) -> Vec<(u32, Vec2, Real)> {
    tree.leaves()
        .iter()
        .map(|&i| {
            let n = &tree.nodes()[i as usize];
            (i, pose.transform_point(n.center()), n.radius() * pose.scale)
        })
        .collect()
}

/// Distance from `p` to the segment a–b, written independently.
pub fn segment_distance(p: Vec2, a: Vec2, b: Vec2) -> Real {
    let ab = b - a;
    let t = if ab.norm_squared() > 0.0 {
        ((p - a).dot(&ab) / ab.norm_squared()).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (a + ab * t - p).norm()
}
