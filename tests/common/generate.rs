//! proptest strategies: shapes of every solid kind (thin ones included), and
//! motion scenarios aimed so that about half of them collide, with speeds up
//! to 1,000 times the smallest shape's size per step.

use super::oracle::OShape;
use circlet::math::{Pose, Vec2, vec2};
use circlet::query::cast::Shot;
use circlet::query::time_of_impact::Motion;
use circlet::shape::{
    Aabb, Capsule, Circle, CircleTree, ConvexPolygon, Corner, FlatNode, OrientedRect, PartId,
    Shape, SimplePolygon, TileTriangle,
};
use proptest::prelude::*;

/// Log-uniform in `[low, high]`.
pub fn log_uniform(low: f32, high: f32) -> impl Strategy<Value = f32> + Clone {
    (0.0f64..=1.0).prop_map(move |u| (low as f64 * (high as f64 / low as f64).powf(u)) as f32)
}

fn offset() -> impl Strategy<Value = Vec2> + Clone {
    (-0.5f32..0.5, -0.5f32..0.5).prop_map(|(x, y)| vec2(x, y))
}

pub fn circle() -> BoxedStrategy<Shape> {
    (log_uniform(0.02, 2.0), offset())
        .prop_map(|(radius, centre)| Circle::new(centre * radius, radius).unwrap().into())
        .boxed()
}

pub fn capsule() -> BoxedStrategy<Shape> {
    (log_uniform(0.01, 1.0), 0.0f32..2.0, -3.2f32..3.2, offset())
        .prop_map(|(radius, half_length, angle, centre)| {
            let axis = vec2(angle.cos(), angle.sin()) * half_length;
            Capsule::new(centre - axis, centre + axis, radius)
                .unwrap()
                .into()
        })
        .boxed()
}

pub fn aabb() -> BoxedStrategy<Shape> {
    (log_uniform(0.01, 2.0), log_uniform(0.01, 2.0), offset())
        .prop_map(|(hx, hy, centre)| Aabb::from_center(centre, vec2(hx, hy)).unwrap().into())
        .boxed()
}

pub fn oriented_rect() -> BoxedStrategy<Shape> {
    (
        log_uniform(0.01, 2.0),
        log_uniform(0.01, 2.0),
        -3.2f32..3.2,
        offset(),
    )
        .prop_map(|(hx, hy, angle, centre)| {
            OrientedRect::new(centre, vec2(hx, hy), angle)
                .unwrap()
                .into()
        })
        .boxed()
}

/// Vertices on an ellipse at jittered angles: always in convex position.
pub fn convex_polygon() -> BoxedStrategy<Shape> {
    ellipse_polygons((0.02, 2.0), (0.02, 2.0))
}

/// Slivers: convex polygons 20 to 400 times as long as they are thick,
/// whose long faces are antiparallel within a few milliradians.
pub fn thin_polygon() -> BoxedStrategy<Shape> {
    ellipse_polygons((0.3, 2.0), (0.005, 0.015))
}

/// 3 to 9 vertices at jittered angles on an ellipse whose radii are
/// log-uniform in the `(low, high)` ranges `rx` and `ry`.
fn ellipse_polygons(rx: (f32, f32), ry: (f32, f32)) -> BoxedStrategy<Shape> {
    (
        3usize..=9,
        log_uniform(rx.0, rx.1),
        log_uniform(ry.0, ry.1),
        -3.2f32..3.2,
        proptest::collection::vec(-0.4f32..0.4, 9),
    )
        .prop_map(|(count, rx, ry, phase, jitter)| {
            let step = std::f32::consts::TAU / count as f32;
            let points: Vec<Vec2> = (0..count)
                .map(|i| {
                    let angle = phase + step * (i as f32 + jitter[i]);
                    vec2(rx * angle.cos(), ry * angle.sin())
                })
                .collect();
            ConvexPolygon::new(&points)
                .unwrap_or_else(|_| ConvexPolygon::regular(count, rx, phase).unwrap())
                .into()
        })
        .boxed()
}

pub fn tile_triangle() -> BoxedStrategy<Shape> {
    let corners = prop_oneof![
        Just(Corner::UpperLeft),
        Just(Corner::UpperRight),
        Just(Corner::LowerLeft),
        Just(Corner::LowerRight)
    ];
    (
        log_uniform(0.02, 2.0),
        log_uniform(0.02, 2.0),
        offset(),
        corners,
    )
        .prop_map(|(w, h, corner, missing)| {
            TileTriangle::new(corner, corner + vec2(w, h), missing)
                .unwrap()
                .into()
        })
        .boxed()
}

/// Star-shaped outlines around the origin (simple by construction), mostly non-convex.
pub fn simple_polygon() -> BoxedStrategy<Shape> {
    (
        5usize..=10,
        log_uniform(0.05, 2.0),
        proptest::collection::vec((0.25f32..1.0, -0.35f32..0.35), 10),
    )
        .prop_map(|(count, size, radial)| {
            let step = std::f32::consts::TAU / count as f32;
            let points: Vec<Vec2> = (0..count)
                .map(|i| {
                    let (r, jitter) = radial[i];
                    let angle = step * (i as f32 + jitter);
                    vec2(angle.cos(), angle.sin()) * (r * size)
                })
                .collect();
            SimplePolygon::new(&points)
                .unwrap_or_else(|_| {
                    let l_shape = [
                        vec2(0.0, 0.0),
                        vec2(2.0, 0.0),
                        vec2(2.0, 1.0),
                        vec2(1.0, 1.0),
                        vec2(1.0, 2.0),
                        vec2(0.0, 2.0),
                    ];
                    SimplePolygon::new(&l_shape.map(|v| v * size)).unwrap()
                })
                .into()
        })
        .boxed()
}

/// A circle tree of 2–8 leaf discs of varied sizes (radii log-uniform over
/// a factor 12), scattered over a square of side `2 * size`, grouped with
/// branching 2–4. Every leaf names its own part (`leaf k`), so a reported
/// part says exactly which leaf touched.
pub fn tree() -> BoxedStrategy<Shape> {
    (
        log_uniform(0.05, 2.0),
        proptest::collection::vec((-1.0f32..1.0, -1.0f32..1.0, log_uniform(0.05, 0.6)), 2..=8),
        2usize..=4,
    )
        .prop_map(|(size, leaves, branching)| {
            let circles: Vec<Circle> = leaves
                .iter()
                .map(|&(x, y, r)| Circle::new(vec2(x, y) * size, r * size).unwrap())
                .collect();
            let grouped = CircleTree::from_leaves(&circles, branching).unwrap();
            let mut names = Vec::new();
            let nodes = grouped
                .nodes()
                .iter()
                .map(|node| FlatNode {
                    center: node.center(),
                    radius: node.radius(),
                    children: node.children(),
                    part: node.is_leaf().then(|| {
                        names.push(format!("leaf {}", names.len()));
                        PartId(names.len() as u32 - 1)
                    }),
                })
                .collect();
            CircleTree::new(nodes, names).unwrap().into()
        })
        .boxed()
}

/// Every polygon-like kind, simple polygons included.
pub fn polygon() -> BoxedStrategy<Shape> {
    prop_oneof![
        aabb(),
        oriented_rect(),
        convex_polygon(),
        tile_triangle(),
        simple_polygon()
    ]
    .boxed()
}

/// Every solid kind.
pub fn solid() -> BoxedStrategy<Shape> {
    prop_oneof![circle(), capsule(), polygon()].boxed()
}

/// Two shapes, their poses at the start of the step and their motions.
#[derive(Clone, Debug)]
pub struct Scenario {
    pub a: Shape,
    pub pose_a: Pose,
    pub motion_a: Motion,
    pub b: Shape,
    pub pose_b: Pose,
    pub motion_b: Motion,
}

/// World size (half the largest extent) of a shape under a scale.
pub fn world_size(shape: &Shape, scale: f32) -> f32 {
    OShape::of(shape).size() as f32 * scale
}

/// World centre and radius about it of a shape placed at `pose`.
fn placed_bounds(shape: &Shape, pose: &Pose) -> (Vec2, f32) {
    let (centre, radius) = OShape::of(shape).centre_and_radius();
    (
        pose.transform_point(centre.to_f32()),
        radius as f32 * pose.scale,
    )
}

/// B's motion relative to A has speed `min size * 10^[-1, 3]` per step and is
/// aimed to pass B's centre within `±1.3` reaches of A's at a time in
/// `[-0.3, 1.3]`; both bodies also share a random drift; rotations are up to
/// `max_angular` radians per step.
pub fn scenario(
    a: BoxedStrategy<Shape>,
    b: BoxedStrategy<Shape>,
    max_angular: f32,
) -> impl Strategy<Value = Scenario> {
    let poses = (
        -3.2f32..3.2,
        -3.2f32..3.2,
        log_uniform(0.5, 2.0),
        log_uniform(0.5, 2.0),
        -50.0f32..50.0,
        -50.0f32..50.0,
    );
    let motion = (
        -1.0f64..3.0,
        -3.2f32..3.2,
        -0.3f32..1.3,
        -1.3f32..1.3,
        0.0f32..1.0,
        (-1.0f32..1.0, -1.0f32..1.0),
    );
    let angular = (-max_angular..=max_angular, -max_angular..=max_angular);
    (a, b, poses, motion, angular).prop_map(
        |(
            a,
            b,
            (angle_a, angle_b, scale_a, scale_b, x, y),
            (speed_exp, direction, aim, lateral, split, drift),
            (wa, wb),
        )| {
            let smallest = world_size(&a, scale_a).min(world_size(&b, scale_b));
            let speed = smallest * 10f64.powf(speed_exp) as f32;
            let heading = vec2(direction.cos(), direction.sin());
            let relative = heading * speed;
            let pose_a = Pose::new(vec2(x, y), angle_a).with_scale(scale_a);
            // Aim B's centre at A's centre, at time `aim`, missing by `lateral` reaches.
            let (centre_a, reach_a) = placed_bounds(&a, &pose_a);
            let (centre_b_local, reach_b) =
                placed_bounds(&b, &Pose::new(vec2(0.0, 0.0), angle_b).with_scale(scale_b));
            let centre_b = centre_a - relative * aim
                + vec2(-heading.y, heading.x) * (lateral * (reach_a + reach_b));
            let common = vec2(drift.0, drift.1) * (0.5 * speed);
            Scenario {
                pose_a,
                pose_b: Pose::new(centre_b - centre_b_local, angle_b).with_scale(scale_b),
                motion_a: Motion::new(common - relative * split, wa),
                motion_b: Motion::new(common + relative * (1.0 - split), wb),
                a,
                b,
            }
        },
    )
}

/// A shot and a static target.
#[derive(Clone, Debug)]
pub struct ShotScenario {
    pub shot: Shot,
    pub target: Shape,
    pub pose: Pose,
}

/// A ray (one case in four) or a thick shot, aimed like [`scenario`], with
/// speeds up to 1,000 times the smaller of the target's size and the shot's radius.
pub fn shot_scenario(target: BoxedStrategy<Shape>) -> impl Strategy<Value = ShotScenario> {
    let radius = prop_oneof![1 => Just(0.0f32), 3 => log_uniform(0.005, 1.0)];
    let params = (-1.0f64..3.0, -3.2f32..3.2, -0.3f32..1.3, -1.3f32..1.3);
    (
        target,
        radius,
        -3.2f32..3.2,
        log_uniform(0.5, 2.0),
        -50.0f32..50.0,
        -50.0f32..50.0,
        params,
    )
        .prop_map(
            |(target, radius, angle, scale, x, y, (speed_exp, direction, aim, lateral))| {
                let size = world_size(&target, scale);
                let smallest = if radius > 0.0 { size.min(radius) } else { size };
                let speed = smallest * 10f64.powf(speed_exp) as f32;
                let heading = vec2(direction.cos(), direction.sin());
                let pose = Pose::new(vec2(x, y), angle).with_scale(scale);
                let (centre, reach) = placed_bounds(&target, &pose);
                let start = centre - heading * (speed * aim)
                    + vec2(-heading.y, heading.x) * (lateral * (reach + radius));
                ShotScenario {
                    shot: Shot::new(start, start + heading * speed, radius).unwrap(),
                    target,
                    pose,
                }
            },
        )
}
