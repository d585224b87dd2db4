//! Shape generators and independent geometry for the contact properties
//! (`contact_properties.rs`): random shapes of every kind (circle trees
//! included), poses, placed pairs, and signed distances computed here,
//! independently of the library's queries.

use super::rebuild;
use circlet::math::{Pose, Real, Vec2, vec2};
use circlet::query::tree::{self, LeafContact, QueryBudget};
use circlet::query::{Manifold, Placed, contact};
use circlet::shape::{
    Aabb, Capsule, Circle, CircleTree, ConvexPolygon, Corner, Line, OrientedRect, Point, Segment,
    Shape, SimplePolygon, TileTriangle,
};
use proptest::prelude::*;
use std::f32::consts::PI;

/// Steps of [`real`]: 2^24, the resolution of an f32 in [1, 2).
pub const REAL_STEPS: u32 = 1 << 24;

/// A real in `[low, high]`, drawn as an integer step: proptest's own f32
/// range sampler trips a debug assertion on rare draws near the bounds.
pub fn real(low: Real, high: Real) -> impl Strategy<Value = Real> + Clone {
    (0..=REAL_STEPS).prop_map(move |k| low + (high - low) * (k as Real / REAL_STEPS as Real))
}

/// A vector with both coordinates in `[low, high]`.
pub fn vector(low: Real, high: Real) -> impl Strategy<Value = Vec2> + Clone {
    (real(low, high), real(low, high)).prop_map(|(x, y)| vec2(x, y))
}

/// An angle in [-π, π] (radians).
pub fn angle() -> impl Strategy<Value = Real> + Clone {
    real(-PI, PI)
}

/// A convex polygon: `n` points at increasing angles on the unit circle,
/// stretched and sheared by a random linear map (which keeps it convex).
pub fn convex_polygon() -> impl Strategy<Value = ConvexPolygon> {
    (3usize..=8)
        .prop_flat_map(|n| {
            (
                proptest::collection::vec(real(0.3, 1.0), n),
                angle(),
                real(0.3, 2.0),
                real(0.3, 2.0),
                real(-1.0, 1.0),
                vector(-1.0, 1.0),
            )
        })
        .prop_filter_map(
            "collinear after the shear",
            |(gaps, phase, sx, sy, shear, center)| {
                let total: Real = gaps.iter().sum();
                let mut angle = phase;
                let points: Vec<Vec2> = gaps
                    .iter()
                    .map(|gap| {
                        angle += gap / total * 2.0 * PI;
                        let (x, y) = (angle.cos(), angle.sin());
                        center + vec2(sx * x + shear * y, sy * y)
                    })
                    .collect();
                ConvexPolygon::new(&points).ok()
            },
        )
}

/// Any convex solid shape kind.
pub fn convex_solid() -> BoxedStrategy<Shape> {
    let corner = prop_oneof![
        Just(Corner::UpperLeft),
        Just(Corner::UpperRight),
        Just(Corner::LowerLeft),
        Just(Corner::LowerRight)
    ];
    prop_oneof![
        (vector(-1.0, 1.0), real(0.1, 2.0))
            .prop_map(|(c, r)| Shape::from(Circle::new(c, r).unwrap())),
        (vector(-1.5, 1.5), vector(-1.5, 1.5), real(0.05, 1.0))
            .prop_map(|(a, b, r)| Shape::from(Capsule::new(a, b, r).unwrap())),
        (vector(-2.0, 1.0), vector(0.1, 3.0))
            .prop_map(|(min, size)| Shape::from(Aabb::new(min, min + size).unwrap())),
        (vector(-1.0, 1.0), vector(0.05, 1.5), angle())
            .prop_map(|(c, half, angle)| Shape::from(OrientedRect::new(c, half, angle).unwrap())),
        convex_polygon().prop_map(Shape::from),
        (vector(-2.0, 1.0), vector(0.1, 3.0), corner).prop_map(|(min, size, corner)| Shape::from(
            TileTriangle::new(min, min + size, corner).unwrap()
        )),
    ]
    .boxed()
}

/// Every shape kind, including those without area and simple polygons.
pub fn any_shape() -> BoxedStrategy<Shape> {
    let star = (5usize..=10)
        .prop_flat_map(|n| proptest::collection::vec((real(0.3, 1.0), real(0.3, 2.0)), n))
        .prop_filter_map("degenerate outline", |spokes| {
            let total: Real = spokes.iter().map(|(gap, _)| gap).sum();
            let mut angle = 0.0;
            let points: Vec<Vec2> = spokes
                .iter()
                .map(|(gap, radius)| {
                    angle += gap / total * 2.0 * PI;
                    vec2(radius * angle.cos(), radius * angle.sin())
                })
                .collect();
            SimplePolygon::new(&points).ok().map(Shape::from)
        });
    prop_oneof![
        4 => convex_solid(),
        1 => vector(-1.0, 1.0).prop_map(|p| Shape::from(Point::new(p).unwrap())),
        1 => (vector(-1.5, 1.5), vector(-1.5, 1.5)).prop_map(|(a, b)| Shape::from(Segment::new(a, b).unwrap())),
        1 => (vector(-1.0, 1.0), angle())
            .prop_map(|(p, angle)| Shape::from(Line::new(p, vec2(angle.cos(), angle.sin())).unwrap())),
        2 => star,
    ]
    .boxed()
}

/// Largest distance from the pose's origin to a point of the placed shape
/// (infinite for a line, whose reach is not bounded).
pub fn bounding_radius(shape: &Shape, pose: &Pose) -> Real {
    let o = pose.translation;
    match Placed::new(shape, pose) {
        Placed::Point(p) => (p - o).norm(),
        Placed::Line { point, .. } => (point - o).norm(),
        Placed::Segment(a, b) => (a - o).norm().max((b - o).norm()),
        Placed::Capsule(a, b, r) => (a - o).norm().max((b - o).norm()) + r,
        Placed::Circle(c, r) => (c - o).norm() + r,
        Placed::Polygon(p) => p
            .vertices
            .iter()
            .map(|v| (v - o).norm())
            .fold(0.0, Real::max),
        Placed::Simple(s, pose) => s
            .vertices()
            .iter()
            .map(|v| (pose.transform_point(*v) - o).norm())
            .fold(0.0, Real::max),
        Placed::Tree(t, pose) => t
            .leaf_circles()
            .map(|c| (pose.transform_point(c.center()) - o).norm() + c.radius() * pose.scale)
            .fold(0.0, Real::max),
    }
}

/// Two shapes and their poses, B placed near A so that about half the pairs touch.
#[derive(Clone, Debug)]
pub struct Pair {
    pub a: Shape,
    pub pose_a: Pose,
    pub b: Shape,
    pub pose_b: Pose,
}

impl Pair {
    /// Largest world coordinate the pair reaches (metres).
    pub fn reach(&self) -> Real {
        let ra = bounding_radius(&self.a, &self.pose_a).min(1e3);
        let rb = bounding_radius(&self.b, &self.pose_b).min(1e3);
        (self.pose_a.translation.abs().max() + ra).max(self.pose_b.translation.abs().max() + rb)
    }

    /// The pair with B moved by `offset`.
    pub fn with_b_moved(&self, offset: Vec2) -> Pair {
        let mut moved = self.clone();
        moved.pose_b.translation += offset;
        moved
    }

    pub fn contact(&self) -> Option<Manifold> {
        contact(&self.a, &self.pose_a, &self.b, &self.pose_b)
    }
}

/// A pose: translation within ±20 m, any angle, scale 0.2–5.
pub fn pose() -> impl Strategy<Value = Pose> {
    (vector(-20.0, 20.0), angle(), real(0.2, 5.0))
        .prop_map(|(translation, angle, scale)| Pose::new(translation, angle).with_scale(scale))
}

/// Two shapes drawn from `shapes`, B placed at a random fraction (up to 0.8)
/// of the two bounding radii from A, so that about 40% of the pairs touch.
pub fn pair_of(shapes: BoxedStrategy<Shape>) -> impl Strategy<Value = Pair> {
    pair_from(shapes.clone(), shapes)
}

/// As [`pair_of`], A drawn from `first` and B from `second`.
pub fn pair_from(
    first: BoxedStrategy<Shape>,
    second: BoxedStrategy<Shape>,
) -> impl Strategy<Value = Pair> {
    (
        first,
        pose(),
        second,
        angle(),
        real(0.2, 5.0),
        angle(),
        real(0.0, 0.8),
    )
        .prop_map(|(a, pose_a, b, angle_b, scale_b, direction, fraction)| {
            let mut pose_b = Pose::new(vec2(0.0, 0.0), angle_b).with_scale(scale_b);
            let reach =
                bounding_radius(&a, &pose_a).min(50.0) + bounding_radius(&b, &pose_b).min(50.0);
            pose_b.translation =
                pose_a.translation + vec2(direction.cos(), direction.sin()) * (fraction * reach);
            Pair {
                a,
                pose_a,
                b,
                pose_b,
            }
        })
}

/// Signed distance from `p` to the boundary of a placed convex shape
/// (negative inside), computed here independently of the library.
pub fn signed_distance(shape: &Shape, pose: &Pose, p: Vec2) -> Real {
    let to_segment = |a: Vec2, b: Vec2| {
        let ab = b - a;
        let t = if ab.norm_squared() > 0.0 {
            ((p - a).dot(&ab) / ab.norm_squared()).clamp(0.0, 1.0)
        } else {
            0.0
        };
        (a + ab * t - p).norm()
    };
    let polygon = |vertices: &[Vec2]| {
        let n = vertices.len();
        let mut inside = Real::NEG_INFINITY;
        let mut outside = Real::INFINITY;
        for i in 0..n {
            let (a, b) = (vertices[i], vertices[(i + 1) % n]);
            let e = b - a;
            let normal = vec2(e.y, -e.x) / e.norm();
            inside = inside.max(normal.dot(&(p - a)));
            outside = outside.min(to_segment(a, b));
        }
        if inside <= 0.0 { inside } else { outside }
    };
    match Placed::new(shape, pose) {
        Placed::Point(q) => (p - q).norm(),
        Placed::Line { point, direction } => {
            (p - point).dot(&vec2(-direction.y, direction.x)).abs()
        }
        Placed::Segment(a, b) => to_segment(a, b),
        Placed::Capsule(a, b, r) => to_segment(a, b) - r,
        Placed::Circle(c, r) => (p - c).norm() - r,
        Placed::Polygon(w) => polygon(&w.vertices),
        Placed::Simple(s, pose) => s
            .pieces()
            .iter()
            .map(|piece| {
                let world: Vec<Vec2> = piece
                    .vertices()
                    .iter()
                    .map(|v| pose.transform_point(*v))
                    .collect();
                polygon(&world)
            })
            .fold(Real::INFINITY, Real::min),
        // Exact outside the union of the leaves, an upper bound inside.
        Placed::Tree(t, pose) => t
            .leaf_circles()
            .map(|c| (p - pose.transform_point(c.center())).norm() - c.radius() * pose.scale)
            .fold(Real::INFINITY, Real::min),
    }
}

/// A circle tree of 2–8 random leaf discs grouped with branching 2–4; every
/// third node names one of four parts.
pub fn tree_shape() -> BoxedStrategy<Shape> {
    (
        proptest::collection::vec((vector(-1.5, 1.5), real(0.1, 0.8)), 2..=8),
        2usize..=4,
    )
        .prop_map(|(leaves, branching)| {
            let circles: Vec<Circle> = leaves
                .iter()
                .map(|&(center, radius)| Circle::new(center, radius).unwrap())
                .collect();
            let tight = CircleTree::from_leaves(&circles, branching).unwrap();
            Shape::from(rebuild(&tight, None))
        })
        .boxed()
}

/// Trees, convex solids and every other kind.
pub fn with_trees() -> BoxedStrategy<Shape> {
    prop_oneof![2 => tree_shape(), 2 => convex_solid(), 1 => any_shape()].boxed()
}

impl Pair {
    /// The same pair with A and B swapped.
    pub fn swapped(&self) -> Pair {
        Pair {
            a: self.b.clone(),
            pose_a: self.pose_b,
            b: self.a.clone(),
            pose_b: self.pose_a,
        }
    }
}

/// The touching leaves of a pair whose A is a tree (margin 0), sorted.
pub fn leaf_contacts(pair: &Pair) -> Vec<LeafContact> {
    let Shape::Tree(a) = &pair.a else {
        unreachable!("A is a tree")
    };
    let unlimited = QueryBudget::UNLIMITED;
    let (mut contacts, _) = match &pair.b {
        Shape::Tree(b) => {
            tree::leaf_contacts_tree_tree(a, &pair.pose_a, b, &pair.pose_b, 0.0, unlimited)
        }
        b => tree::leaf_contacts_tree_shape(a, &pair.pose_a, b, &pair.pose_b, 0.0, unlimited),
    };
    contacts.sort_by_key(|c| (c.node_a, c.node_b, c.id));
    contacts
}

/// The world leaf discs of a shape (none unless it is a tree), by node index.
pub fn world_leaves(shape: &Shape, pose: &Pose) -> Vec<(u32, Shape)> {
    let Shape::Tree(t) = shape else {
        return Vec::new();
    };
    t.leaves()
        .iter()
        .map(|&i| {
            let c = t.nodes()[i as usize].circle();
            let world = Circle::new(pose.transform_point(c.center()), c.radius() * pose.scale);
            (i, Shape::from(world.unwrap()))
        })
        .collect()
}
