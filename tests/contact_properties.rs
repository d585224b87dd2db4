//! Properties of `query::contact` over random convex solid shapes of every
//! kind (circle, capsule, aabb, oriented rect, convex polygon with 3–8
//! vertices, tile triangle) under random poses (angle, scale 0.2–5,
//! coordinates within ±20), 10,000 cases each. Locks:
//! - depth is the true penetration depth: moving B along the normal by
//!   depth + ε separates the pair, by depth − ε does not;
//! - symmetry: `contact(b, a)` has the opposite normal and the same depth;
//! - invariance: a common rotation + translation rotates the normal and moves
//!   the points; a common uniform scale scales the depth;
//! - no NaN, unit normals, and every point lies midway between the surfaces:
//!   within half its |depth| (+ 2ε) of both shapes' boundaries (also for
//!   points, segments, lines and simple polygons, with and without a
//!   speculative margin).
//!
//! Tolerances: ε = 1e-4 m, not scaled with the shapes. The pairs reach about
//! 60 m at most (±20 m poses, shapes up to ~10 m, the common motion), where
//! one f32 rounding is ~4e-6 m and a depth computed from transformed vertices
//! carries a few of them, so ε leaves a factor of ~10; runs of 300,000 cases
//! per property pass with it. Depths compared across a swap agree within
//! 1e-5 × the largest coordinate (the reference face bias is 1e-6 of the size).
//! A contact normal is ill-conditioned near a tie between two faces or for a
//! disc centred on a vertex (the depth is not): a normal that differs is
//! accepted when it is itself a minimum translation direction within ε.

use circlet::math::{Pose, Real, Vec2, vec2};
use circlet::query::{Manifold, Placed, contact, contact_with_margin};
use circlet::shape::{
    Aabb, Capsule, Circle, ConvexPolygon, Corner, Line, OrientedRect, Point, Segment, Shape,
    SimplePolygon, TileTriangle,
};
use proptest::prelude::*;
use std::f32::consts::PI;

/// Steps of [`real`]: 2^24, the resolution of an f32 in [1, 2).
const REAL_STEPS: u32 = 1 << 24;

/// ε of the module docs (metres).
const EPSILON: Real = 1e-4;

/// A real in `[low, high]`, drawn as an integer step: proptest's own f32
/// range sampler trips a debug assertion on rare draws near the bounds.
fn real(low: Real, high: Real) -> impl Strategy<Value = Real> + Clone {
    (0..=REAL_STEPS).prop_map(move |k| low + (high - low) * (k as Real / REAL_STEPS as Real))
}

/// A vector with both coordinates in `[low, high]`.
fn vector(low: Real, high: Real) -> impl Strategy<Value = Vec2> + Clone {
    (real(low, high), real(low, high)).prop_map(|(x, y)| vec2(x, y))
}

/// An angle in [-π, π] (radians).
fn angle() -> impl Strategy<Value = Real> + Clone {
    real(-PI, PI)
}

/// A convex polygon: `n` points at increasing angles on the unit circle,
/// stretched and sheared by a random linear map (which keeps it convex).
fn convex_polygon() -> impl Strategy<Value = ConvexPolygon> {
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
fn convex_solid() -> BoxedStrategy<Shape> {
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
fn any_shape() -> BoxedStrategy<Shape> {
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
fn bounding_radius(shape: &Shape, pose: &Pose) -> Real {
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
    }
}

/// Two shapes and their poses, B placed near A so that about half the pairs touch.
#[derive(Clone, Debug)]
struct Pair {
    a: Shape,
    pose_a: Pose,
    b: Shape,
    pose_b: Pose,
}

impl Pair {
    /// Largest world coordinate the pair reaches (metres).
    fn reach(&self) -> Real {
        let ra = bounding_radius(&self.a, &self.pose_a).min(1e3);
        let rb = bounding_radius(&self.b, &self.pose_b).min(1e3);
        (self.pose_a.translation.abs().max() + ra).max(self.pose_b.translation.abs().max() + rb)
    }

    /// The pair with B moved by `offset`.
    fn with_b_moved(&self, offset: Vec2) -> Pair {
        let mut moved = self.clone();
        moved.pose_b.translation += offset;
        moved
    }

    fn contact(&self) -> Option<Manifold> {
        contact(&self.a, &self.pose_a, &self.b, &self.pose_b)
    }
}

/// A pose within the ranges of the module docs.
fn pose() -> impl Strategy<Value = Pose> {
    (vector(-20.0, 20.0), angle(), real(0.2, 5.0))
        .prop_map(|(translation, angle, scale)| Pose::new(translation, angle).with_scale(scale))
}

/// Two shapes drawn from `shapes`, B placed at a random fraction (up to 0.8)
/// of the two bounding radii from A, so that about 40% of the pairs touch.
fn pair_of(shapes: BoxedStrategy<Shape>) -> impl Strategy<Value = Pair> {
    (
        shapes.clone(),
        pose(),
        shapes,
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

/// True when `normal` is as good a contact normal for `pair` as the one it
/// is compared with: either the two agree, or moving B along `normal` by
/// `depth ± ε` also separates / keeps the pair (near ties between two faces,
/// or a disc centred close to a vertex, leave the direction ill-conditioned
/// while the depth stays exact).
fn is_minimum_translation(pair: &Pair, normal: Vec2, depth: Real) -> bool {
    let separates = pair
        .with_b_moved(normal * (depth + EPSILON))
        .contact()
        .is_none();
    let short = depth < 2.0 * EPSILON
        || pair
            .with_b_moved(normal * (depth - EPSILON))
            .contact()
            .is_some();
    separates && short
}

/// True when moving B by ε in some direction changes the number of points:
/// the pair sits on a boundary between manifold kinds (an incident vertex on a
/// side plane, a closest point at the end of an edge, a second point exactly
/// touching), where rounding alone may pick either count.
fn point_count_is_fragile(pair: &Pair) -> bool {
    let count = pair.contact().map_or(0, |m| m.points.len());
    (0..8).any(|k| {
        let angle = k as Real * PI / 4.0;
        let nudged = pair.with_b_moved(vec2(angle.cos(), angle.sin()) * EPSILON);
        nudged.contact().map_or(0, |m| m.points.len()) != count
    })
}

/// Signed distance from `p` to the boundary of a placed convex shape
/// (negative inside), computed here independently of the library.
fn signed_distance(shape: &Shape, pose: &Pose, p: Vec2) -> Real {
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
    }
}

/// Checks finiteness, the unit normal, depths against the margin and that
/// each point lies within the depth of both surfaces. Only meaningful for
/// convex shapes and for points of simple polygons (the union's distance
/// taken as the nearest piece's).
fn check_manifold(pair: &Pair, m: &Manifold, margin: Real) -> Result<(), TestCaseError> {
    let tolerance = 2.0 * EPSILON;
    prop_assert!(
        m.normal.x.is_finite() && m.normal.y.is_finite(),
        "normal {:?}",
        m.normal
    );
    prop_assert!(
        (m.normal.norm() - 1.0).abs() < 1e-5,
        "normal not unit: {:?}",
        m.normal
    );
    prop_assert!(
        !m.points.is_empty() && m.points.len() <= 2,
        "{} points",
        m.points.len()
    );
    for point in &m.points {
        prop_assert!(
            point.point.x.is_finite() && point.point.y.is_finite() && point.depth.is_finite()
        );
        prop_assert!(
            point.depth >= -margin - tolerance,
            "depth {} beyond margin {margin}",
            point.depth
        );
        // Midway between two surface points |depth| apart along the normal.
        let allowed = 0.5 * point.depth.abs() + tolerance;
        let to_a = signed_distance(&pair.a, &pair.pose_a, point.point);
        let to_b = signed_distance(&pair.b, &pair.pose_b, point.point);
        prop_assert!(
            to_a.abs() <= allowed,
            "point {:?} is {to_a} from A, depth {}",
            point.point,
            point.depth
        );
        prop_assert!(
            to_b.abs() <= allowed,
            "point {:?} is {to_b} from B, depth {}",
            point.point,
            point.depth
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(10_000))]

    #[test]
    fn depth_is_the_true_penetration(pair in pair_of(convex_solid())) {
        if let Some(m) = pair.contact() {
            let depth = m.depth();
            let beyond = pair.with_b_moved(m.normal * (depth + EPSILON));
            prop_assert!(beyond.contact().is_none(), "moved by depth {depth} + ε: {:?}", beyond.contact());
            if depth >= 2.0 * EPSILON {
                let short = pair.with_b_moved(m.normal * (depth - EPSILON));
                prop_assert!(short.contact().is_some(), "moved by depth {depth} - ε separates");
            }
        }
    }

    #[test]
    fn swapping_the_shapes_flips_the_normal(pair in pair_of(convex_solid())) {
        let ab = pair.contact();
        let ba = contact(&pair.b, &pair.pose_b, &pair.a, &pair.pose_a);
        match (ab, ba) {
            (None, None) => {}
            (Some(ab), Some(ba)) => {
                let tolerance = 1e-5 * pair.reach().max(1.0);
                prop_assert!((ab.depth() - ba.depth()).abs() <= tolerance, "depths {} vs {}", ab.depth(), ba.depth());
                prop_assert!(
                    (ab.normal + ba.normal).norm() < 1e-4 || is_minimum_translation(&pair, -ba.normal, ba.depth()),
                    "normals {:?} vs {:?}", ab.normal, ba.normal
                );
            }
            (ab, ba) => {
                // Only a pair touching within rounding may be seen one way and not the other.
                let depth = ab.or(ba).map_or(0.0, |m| m.depth());
                prop_assert!(depth.abs() <= 1e-5 * pair.reach().max(1.0), "one-sided contact of depth {depth}");
            }
        }
    }

    #[test]
    fn a_common_motion_moves_the_manifold(
        pair in pair_of(convex_solid()),
        turn in angle(),
        shift in vector(-10.0, 10.0),
        scale in real(0.5, 2.0),
    ) {
        // Scale about A's origin, turn about it and shift, keeping coordinates in range.
        let center = pair.pose_a.translation;
        let motion = Pose::from_translation(center + shift)
            .compose(&Pose::new(vec2(0.0, 0.0), turn).with_scale(scale))
            .compose(&Pose::from_translation(-center));
        let moved = Pair {
            a: pair.a.clone(),
            pose_a: motion.compose(&pair.pose_a),
            b: pair.b.clone(),
            pose_b: motion.compose(&pair.pose_b),
        };
        match (pair.contact(), moved.contact()) {
            (None, None) => {}
            (Some(before), Some(after)) => {
                let depth_tolerance = EPSILON * scale.max(1.0);
                prop_assert!(
                    (after.depth() - scale * before.depth()).abs() <= depth_tolerance,
                    "depth {} became {} under scale {scale}", before.depth(), after.depth()
                );
                let turned = motion.rotate(before.normal);
                let turned_back = motion.inverse_rotate(after.normal);
                prop_assert!(
                    (after.normal - turned).norm() < 1e-4
                        || is_minimum_translation(&pair, turned_back, after.depth() / scale),
                    "normal {:?} vs {:?}", after.normal, turned
                );
                prop_assert!(
                    before.points.len() == after.points.len()
                        || point_count_is_fragile(&pair)
                        || point_count_is_fragile(&moved),
                    "{} points became {}", before.points.len(), after.points.len()
                );
                // Where the manifold is the same one, its points moved along.
                let same_manifold = (after.normal - turned).norm() < 1e-4 && before.points.len() == after.points.len();
                if same_manifold {
                    for point in &after.points {
                        let nearest = before
                            .points
                            .iter()
                            .map(|p| (motion.transform_point(p.point) - point.point).norm())
                            .fold(Real::INFINITY, Real::min);
                        prop_assert!(nearest <= 10.0 * depth_tolerance, "point {:?} is {nearest} from its image", point.point);
                    }
                }
            }
            (before, after) => {
                let depth = before.map(|m| m.depth() * scale).or(after.map(|m| m.depth())).unwrap_or(0.0);
                prop_assert!(depth.abs() <= EPSILON * scale.max(1.0), "contact of depth {depth} lost or gained");
            }
        }
    }

    #[test]
    fn manifolds_are_finite_and_on_the_surfaces(pair in pair_of(convex_solid())) {
        if let Some(m) = pair.contact() {
            check_manifold(&pair, &m, 0.0)?;
        }
    }

    #[test]
    fn no_nan_for_any_kind_with_or_without_margin(pair in pair_of(any_shape()), margin in real(0.0, 1.0)) {
        for margin in [0.0, margin] {
            if let Some(m) = contact_with_margin(&pair.a, &pair.pose_a, &pair.b, &pair.pose_b, margin) {
                check_manifold(&pair, &m, margin)?;
            }
        }
    }
}
