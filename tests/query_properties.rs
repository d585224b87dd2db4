//! Properties of `intersects`, `distance` / `closest_points` and `point_inside`
//! over all 121 ordered pairs of the 11 shape kinds (circle trees of 2–8
//! random leaf discs included), random valid shapes and random poses
//! (rotation, translation within ±20 m, scale 0.2..5).
//!
//! Each proptest case draws two independent shapes of every kind, so every
//! property is checked on all 121 ordered kind pairs in each of its 10,000 cases.
//!
//! Locks:
//! - symmetry: `intersects(a, b) == intersects(b, a)` and
//!   `distance(a, b) == distance(b, a)`, bit for bit;
//! - `distance == 0` exactly when `intersects`, never NaN, and the closest
//!   points lie on their shapes and are `distance` apart;
//! - invariance under a common rotation + translation and under a common
//!   uniform scale (distance scales by the factor); `intersects` may change
//!   only for pairs within [`NEAR_TOUCHING`] of touching;
//! - the fast paths (circle–Aabb, circle–TileTriangle, Aabb–Aabb including
//!   equally rotated poses, OrientedRect–OrientedRect) agree with the generic
//!   polygon path on the same box given as a `ConvexPolygon`;
//! - circles are bracketed by 64-gons: the inscribed one intersecting implies
//!   the circle does, the circle intersecting implies the circumscribed one
//!   does, and the distances are ordered the same way;
//! - `point_inside` equals `intersects(Point, shape)`, for simple polygons
//!   the even-odd rule agrees with the union of the convex pieces, and for
//!   circle trees it agrees with "some leaf disc holds the point" computed
//!   here.

use circlet::math::{Pose, Real, Vec2, vec2};
use circlet::query::{closest_points, distance, intersects, point_inside};
use circlet::shape::{
    Aabb, Capsule, Circle, CircleTree, ConvexPolygon, Corner, Line, OrientedRect, Point, Segment,
    Shape, SimplePolygon, TileTriangle,
};
use proptest::prelude::*;
use std::f32::consts::{PI, TAU};

/// Pairs closer than this fraction of the scene size to touching may change
/// their `intersects` answer under a transform: f32 rounding of the
/// transformed coordinates (~1e-7 relative) is far below it, while a wrong
/// branch in a pair function moves shapes by a sizeable fraction of their size.
const NEAR_TOUCHING: Real = 1e-3;

/// Tolerance for comparing two computed distances or positions, as a fraction
/// of the scene size: an order above the f32 rounding of coordinates up to ~100 m.
const DISTANCE_TOLERANCE: Real = 1e-4;

fn coordinate() -> impl Strategy<Value = Real> {
    -4.0f32..4.0
}

fn point2() -> impl Strategy<Value = Vec2> {
    (coordinate(), coordinate()).prop_map(|(x, y)| vec2(x, y))
}

fn pose() -> impl Strategy<Value = Pose> {
    (-20.0f32..20.0, -20.0f32..20.0, -PI..PI, 0.2f32..5.0)
        .prop_map(|(x, y, angle, scale)| Pose::new(vec2(x, y), angle).with_scale(scale))
}

/// Some segments and capsules are degenerate (both ends equal).
fn ends() -> impl Strategy<Value = (Vec2, Vec2)> {
    (point2(), point2(), 0..8u8)
        .prop_map(|(a, b, degenerate)| (a, if degenerate == 0 { a } else { b }))
}

/// A convex polygon with 3..8 vertices on a random ellipse, angles jittered.
fn convex_polygon() -> impl Strategy<Value = ConvexPolygon> {
    (
        3usize..9,
        point2(),
        0.3f32..3.0,
        0.3f32..3.0,
        -PI..PI,
        prop::collection::vec(-0.35f32..0.35, 8),
    )
        .prop_filter_map("outline rejected", |(n, center, rx, ry, turn, jitter)| {
            let (sin, cos) = turn.sin_cos();
            let points: Vec<Vec2> = (0..n)
                .map(|i| {
                    let angle = TAU * (i as Real + jitter[i]) / n as Real;
                    let (x, y) = (rx * angle.cos(), ry * angle.sin());
                    center + vec2(cos * x - sin * y, sin * x + cos * y)
                })
                .collect();
            ConvexPolygon::new(&points).ok()
        })
}

/// A star-shaped (so simple), usually non-convex polygon with 4..10 vertices.
fn simple_polygon() -> impl Strategy<Value = SimplePolygon> {
    (
        4usize..11,
        point2(),
        prop::collection::vec((-0.3f32..0.3, 0.3f32..1.0), 10),
        0.5f32..3.0,
    )
        .prop_filter_map("outline rejected", |(n, center, spokes, size)| {
            let points: Vec<Vec2> = (0..n)
                .map(|i| {
                    let (jitter, radius) = spokes[i];
                    let angle = TAU * (i as Real + jitter) / n as Real;
                    center + vec2(angle.cos(), angle.sin()) * radius * size
                })
                .collect();
            SimplePolygon::new(&points).ok()
        })
}

/// A circle tree over 2..8 random leaf discs, grouped with branching 2..4.
fn circle_tree() -> impl Strategy<Value = CircleTree> {
    (
        prop::collection::vec((point2(), 0.05f32..1.5), 2..=8),
        2usize..=4,
    )
        .prop_map(|(leaves, branching)| {
            let circles: Vec<Circle> = leaves
                .iter()
                .map(|&(center, radius)| Circle::new(center, radius).unwrap())
                .collect();
            CircleTree::from_leaves(&circles, branching).unwrap()
        })
}

fn corner() -> impl Strategy<Value = Corner> {
    prop_oneof![
        Just(Corner::UpperLeft),
        Just(Corner::UpperRight),
        Just(Corner::LowerLeft),
        Just(Corner::LowerRight)
    ]
}

/// One valid shape of every kind, in `ShapeKind` order.
fn one_of_each_kind() -> impl Strategy<Value = Vec<Shape>> {
    let small = (
        point2(),
        (point2(), -PI..PI),
        ends(),
        (ends(), 0.05f32..2.0),
        (point2(), 0.05f32..3.0),
    );
    let boxes = (
        (point2(), 0.1f32..4.0, 0.1f32..4.0),
        (point2(), 0.05f32..2.0, 0.05f32..2.0, -PI..PI),
        convex_polygon(),
        (point2(), 0.1f32..4.0, 0.1f32..4.0, corner()),
        simple_polygon(),
    );
    (small, boxes, circle_tree()).prop_map(
        |(
            (
                point,
                (line_point, line_angle),
                (s0, s1),
                ((c0, c1), capsule_radius),
                (center, radius),
            ),
            (
                (min, w, h),
                (rect_center, hx, hy, rect_angle),
                convex,
                (tile_min, tw, th, missing),
                simple,
            ),
            tree,
        )| {
            vec![
                Shape::from(Point::new(point).unwrap()),
                Shape::from(
                    Line::new(line_point, vec2(line_angle.cos(), line_angle.sin())).unwrap(),
                ),
                Shape::from(Segment::new(s0, s1).unwrap()),
                Shape::from(Capsule::new(c0, c1, capsule_radius).unwrap()),
                Shape::from(Circle::new(center, radius).unwrap()),
                Shape::from(Aabb::new(min, min + vec2(w, h)).unwrap()),
                Shape::from(OrientedRect::new(rect_center, vec2(hx, hy), rect_angle).unwrap()),
                Shape::from(convex),
                Shape::from(TileTriangle::new(tile_min, tile_min + vec2(tw, th), missing).unwrap()),
                Shape::from(simple),
                Shape::from(tree),
            ]
        },
    )
}

/// Two independent placed shapes of every kind: `first[i]` against
/// `second[j]` covers all 121 ordered kind pairs with distinct shapes.
#[derive(Clone, Debug)]
struct Scene {
    first: Vec<(Shape, Pose)>,
    second: Vec<(Shape, Pose)>,
}

impl Scene {
    /// The 121 ordered pairs `(a, pose_a, b, pose_b)`.
    fn pairs(&self) -> impl Iterator<Item = (&Shape, &Pose, &Shape, &Pose)> {
        self.first
            .iter()
            .flat_map(move |(a, pa)| self.second.iter().map(move |(b, pb)| (a, pa, b, pb)))
    }
}

fn placed_kinds() -> impl Strategy<Value = Vec<(Shape, Pose)>> {
    (one_of_each_kind(), prop::collection::vec(pose(), 11))
        .prop_map(|(shapes, poses)| shapes.into_iter().zip(poses).collect())
}

fn scene() -> impl Strategy<Value = Scene> {
    (placed_kinds(), placed_kinds()).prop_map(|(first, second)| Scene { first, second })
}

/// A length that bounds the coordinates of a pair (metres).
fn scene_size(pose_a: &Pose, pose_b: &Pose) -> Real {
    1.0 + pose_a.translation.norm().max(pose_b.translation.norm())
        + 8.0 * pose_a.scale.max(pose_b.scale)
}

/// `inner ∘ outer` applied to every pose: the whole scene moved by `outer`.
fn moved(outer: &Pose, pose: &Pose) -> Pose {
    outer.compose(pose)
}

/// The same box-like shape as a `ConvexPolygon` (generic polygon path).
fn polygonized(shape: &Shape) -> Option<Shape> {
    let vertices: Vec<Vec2> = match shape {
        Shape::Aabb(b) => b.vertices().to_vec(),
        Shape::OrientedRect(r) => r.vertices().to_vec(),
        Shape::TileTriangle(t) => t.vertices().to_vec(),
        _ => return None,
    };
    Some(Shape::from(ConvexPolygon::new(&vertices).unwrap()))
}

/// A 64-gon around the circle's centre with its vertices at `vertex_radius`.
fn polygon_64(circle: &Circle, vertex_radius: Real) -> Shape {
    let points: Vec<Vec2> = (0..64)
        .map(|i| {
            let angle = TAU * i as Real / 64.0;
            circle.center() + vec2(angle.cos(), angle.sin()) * vertex_radius
        })
        .collect();
    Shape::from(ConvexPolygon::new(&points).unwrap())
}

/// Fails unless `intersects` gives the same answer for both configurations,
/// or one of them is within `near` of touching.
fn same_answer_unless_touching(
    label: &str,
    (a, pa, b, pb): (&Shape, &Pose, &Shape, &Pose),
    (c, pc, d, pd): (&Shape, &Pose, &Shape, &Pose),
    near: Real,
) -> Result<(), TestCaseError> {
    let first = intersects(a, pa, b, pb);
    let second = intersects(c, pc, d, pd);
    if first != second {
        let gap = distance(a, pa, b, pb).max(distance(c, pc, d, pd));
        prop_assert!(
            gap <= near,
            "{label}: {:?} vs {:?}: {first} then {second}, gap {gap}",
            a.kind(),
            b.kind()
        );
    }
    Ok(())
}

/// The core of a capsule or circle (its segment or centre point) and its radius.
fn core_and_radius(shape: &Shape) -> Option<(Shape, Real)> {
    match shape {
        Shape::Capsule(c) => Some((Shape::from(Segment::new(c.a(), c.b()).unwrap()), c.radius())),
        Shape::Circle(c) => Some((Shape::from(Point::new(c.center()).unwrap()), c.radius())),
        _ => None,
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 10_000,
        max_global_rejects: 100_000,
        ..ProptestConfig::default()
    })]

    #[test]
    fn intersects_and_distance_are_symmetric(scene in scene()) {
        for (a, pa, b, pb) in scene.pairs() {
            prop_assert_eq!(intersects(a, pa, b, pb), intersects(b, pb, a, pa), "{:?} {:?}", a.kind(), b.kind());
            let forward = closest_points(a, pa, b, pb).map(|c| c.distance);
            let backward = closest_points(b, pb, a, pa).map(|c| c.distance);
            prop_assert_eq!(forward, backward, "{:?} {:?}", a.kind(), b.kind());
        }
    }

    #[test]
    fn distance_is_zero_exactly_when_intersecting(scene in scene()) {
        for (a, pa, b, pb) in scene.pairs() {
            let hit = intersects(a, pa, b, pb);
            let d = distance(a, pa, b, pb);
            prop_assert!(!d.is_nan() && d >= 0.0, "{:?} {:?}: {d}", a.kind(), b.kind());
            prop_assert_eq!(d == 0.0, hit, "{:?} {:?}: {}", a.kind(), b.kind(), d);
            if let Some(c) = closest_points(a, pa, b, pb) {
                let tolerance = DISTANCE_TOLERANCE * scene_size(pa, pb);
                prop_assert!(((c.point_b - c.point_a).norm() - c.distance).abs() <= tolerance,
                    "{:?} {:?}: points {:?} {:?} vs distance {}", a.kind(), b.kind(), c.point_a, c.point_b, c.distance);
                let on_a = Shape::from(Point::new(c.point_a).unwrap());
                let on_b = Shape::from(Point::new(c.point_b).unwrap());
                prop_assert!(distance(&on_a, &Pose::IDENTITY, a, pa) <= tolerance, "{:?} {:?}: point_a off A", a.kind(), b.kind());
                prop_assert!(distance(&on_b, &Pose::IDENTITY, b, pb) <= tolerance, "{:?} {:?}: point_b off B", a.kind(), b.kind());
            }
        }
    }

    #[test]
    fn capsules_and_circles_are_their_cores_grown_by_the_radius(scene in scene()) {
        // distance(core ⊕ radius, X) = max(0, distance(core, X) - radius), through
        // a different pair function (segment or point instead of capsule or circle).
        for (a, pa, b, pb) in scene.pairs() {
            let Some((core, radius)) = core_and_radius(a) else { continue };
            let size = scene_size(pa, pb);
            let grown = (distance(&core, pa, b, pb) - radius * pa.scale).max(0.0);
            let direct = distance(a, pa, b, pb);
            prop_assert!((grown - direct).abs() <= DISTANCE_TOLERANCE * size,
                "{:?} {:?}: core minus radius {grown}, direct {direct}", a.kind(), b.kind());
            let core_gap = distance(&core, pa, b, pb) - radius * pa.scale;
            if intersects(a, pa, b, pb) != (core_gap <= 0.0) {
                prop_assert!(core_gap.abs() <= NEAR_TOUCHING * size, "{:?} {:?}: core gap {core_gap}", a.kind(), b.kind());
            }
        }
    }

    #[test]
    fn rigid_motion_changes_nothing(
        scene in scene(),
        (x, y, angle) in (-20.0f32..20.0, -20.0f32..20.0, -PI..PI),
    ) {
        let outer = Pose::new(vec2(x, y), angle);
        for (a, pa, b, pb) in scene.pairs() {
            let (qa, qb) = (moved(&outer, pa), moved(&outer, pb));
            let size = scene_size(pa, pb) + outer.translation.norm();
            same_answer_unless_touching("rigid", (a, pa, b, pb), (a, &qa, b, &qb), NEAR_TOUCHING * size)?;
            let (before, after) = (distance(a, pa, b, pb), distance(a, &qa, b, &qb));
            prop_assert!((before - after).abs() <= DISTANCE_TOLERANCE * size,
                "{:?} {:?}: {before} then {after}", a.kind(), b.kind());
        }
    }

    #[test]
    fn uniform_scale_scales_distance(scene in scene(), factor in 0.2f32..5.0) {
        let outer = Pose::IDENTITY.with_scale(factor);
        for (a, pa, b, pb) in scene.pairs() {
            let (qa, qb) = (moved(&outer, pa), moved(&outer, pb));
            let size = scene_size(pa, pb) * factor.max(1.0);
            same_answer_unless_touching("scale", (a, pa, b, pb), (a, &qa, b, &qb), NEAR_TOUCHING * size)?;
            let (before, after) = (distance(a, pa, b, pb), distance(a, &qa, b, &qb));
            prop_assert!((before * factor - after).abs() <= DISTANCE_TOLERANCE * size,
                "{:?} {:?}: {before} x {factor} vs {after}", a.kind(), b.kind());
        }
    }

    #[test]
    fn fast_paths_agree_with_generic_polygons(scene in scene(), same_angle_scale in 0.2f32..5.0) {
        for (a, pa, b, pb) in scene.pairs() {
            let Some(polygon) = polygonized(a) else { continue };
            let size = scene_size(pa, pb);
            let b_polygon = polygonized(b);
            let generic_b = b_polygon.as_ref().unwrap_or(b);
            same_answer_unless_touching("polygonized", (a, pa, b, pb), (&polygon, pa, generic_b, pb), NEAR_TOUCHING * size)?;
            let (fast, generic) = (distance(a, pa, b, pb), distance(&polygon, pa, generic_b, pb));
            prop_assert!((fast - generic).abs() <= DISTANCE_TOLERANCE * size,
                "{:?} {:?}: fast {fast} generic {generic}", a.kind(), b.kind());
        }
        // Aabb against Aabb under equally rotated poses (the interval branch).
        let (aabb, pose_a) = &scene.first[5];
        let (other, other_pose) = &scene.second[5];
        let pose_b = Pose { rotation: pose_a.rotation, ..*other_pose }.with_scale(same_angle_scale);
        let (polygon, other_polygon) = (polygonized(aabb).unwrap(), polygonized(other).unwrap());
        let size = scene_size(pose_a, &pose_b);
        same_answer_unless_touching("aabb interval", (aabb, pose_a, other, &pose_b), (&polygon, pose_a, &other_polygon, &pose_b), NEAR_TOUCHING * size)?;
        let (fast, generic) = (distance(aabb, pose_a, other, &pose_b), distance(&polygon, pose_a, &other_polygon, &pose_b));
        prop_assert!((fast - generic).abs() <= DISTANCE_TOLERANCE * size, "aabb interval: fast {fast} generic {generic}");
    }

    #[test]
    fn circles_are_bracketed_by_64_gons(scene in scene()) {
        let (circle_shape, pose) = &scene.first[4];
        let Shape::Circle(circle) = circle_shape else { unreachable!() };
        // Margins keep the brackets strict under f32 rounding (vertices 0.1 %
        // inside / outside the exact inscribed and circumscribed radii).
        let inscribed = polygon_64(circle, circle.radius() * (1.0 - 1e-3));
        let circumscribed = polygon_64(circle, circle.radius() / (PI / 64.0).cos() * (1.0 + 1e-3));
        for (b, pb) in &scene.second {
            let hit_inscribed = intersects(&inscribed, pose, b, pb);
            let hit_circle = intersects(circle_shape, pose, b, pb);
            let hit_circumscribed = intersects(&circumscribed, pose, b, pb);
            prop_assert!(!hit_inscribed || hit_circle, "inscribed hits {:?}, circle does not", b.kind());
            prop_assert!(!hit_circle || hit_circumscribed, "circle hits {:?}, circumscribed does not", b.kind());
            let tolerance = DISTANCE_TOLERANCE * scene_size(pose, pb);
            let (d_in, d_circle, d_out) = (
                distance(&inscribed, pose, b, pb),
                distance(circle_shape, pose, b, pb),
                distance(&circumscribed, pose, b, pb),
            );
            prop_assert!(d_out <= d_circle + tolerance && d_circle <= d_in + tolerance,
                "{:?}: {d_out} <= {d_circle} <= {d_in}", b.kind());
        }
    }

    #[test]
    fn point_inside_is_intersects_with_a_point(
        scene in scene(),
        (x, y) in (-30.0f32..30.0, -30.0f32..30.0),
    ) {
        let p = vec2(x, y);
        let point = Shape::from(Point::new(p).unwrap());
        for (shape, pose) in &scene.first {
            let inside = point_inside(shape, pose, p);
            prop_assert_eq!(inside, intersects(&point, &Pose::IDENTITY, shape, pose), "{:?}", shape.kind());
            prop_assert_eq!(inside, intersects(shape, pose, &point, &Pose::IDENTITY), "{:?}", shape.kind());
        }
        // Even-odd on the outline against the union of the convex pieces.
        let (simple_shape, pose) = &scene.first[9];
        let Shape::SimplePolygon(simple) = simple_shape else { unreachable!() };
        let in_a_piece = simple.pieces().iter().any(|piece| point_inside(&Shape::from(piece.clone()), pose, p));
        if point_inside(simple_shape, pose, p) != in_a_piece {
            let outline = simple.vertices();
            let to_outline = (0..outline.len())
                .map(|k| {
                    let edge = Shape::from(Segment::new(outline[k], outline[(k + 1) % outline.len()]).unwrap());
                    distance(&point, &Pose::IDENTITY, &edge, pose)
                })
                .fold(Real::INFINITY, Real::min);
            prop_assert!(to_outline <= DISTANCE_TOLERANCE, "even-odd and pieces disagree {to_outline} from the outline");
        }
        // A tree holds exactly the points of its leaf discs.
        let (tree_shape, pose) = &scene.first[10];
        let Shape::Tree(tree) = tree_shape else { unreachable!() };
        let gaps: Vec<Real> = tree
            .leaf_circles()
            .map(|c| (p - pose.transform_point(c.center())).norm() - c.radius() * pose.scale)
            .collect();
        let in_a_leaf = gaps.iter().any(|gap| *gap <= 0.0);
        if point_inside(tree_shape, pose, p) != in_a_leaf {
            let nearest = gaps.iter().map(|gap| gap.abs()).fold(Real::INFINITY, Real::min);
            prop_assert!(nearest <= DISTANCE_TOLERANCE * scene_size(pose, pose), "tree and its leaves disagree {nearest} from a leaf's edge");
        }
    }
}
