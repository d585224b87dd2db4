//! Narrow-phase cost per pair: `intersects`, `contact` and `distance` for
//! circle–circle, circle–polygon(8), polygon(8)–polygon(8) and
//! capsule–polygon(8), each with the pair overlapping and separated; and
//! `contact_with_margin` (the world's speculative margin) between two unit
//! boxes as in a stacked pyramid: resting (overlapping by a few millimetres,
//! slightly turned), rotated (turned 0.4 rad, a corner into the face below),
//! speculative (apart by less than the margin, stacked), side apart (row
//! neighbours apart by less than the margin, slightly turned) and
//! separated; the boxes are `ConvexPolygon::rectangle`s, which take the
//! closed-form box path. Also `contact_with_margin` between two saws
//! (simple polygons of 8 teeth, 16 convex pieces each) side by side, end
//! to end: touching at their ends, and apart by 5 cm; and between a saw
//! and a convex shape: a ball in a notch between two teeth, the same ball
//! 5 cm above a tooth's tip, and the saw resting on a floor box.
//!
//! Run: `cargo bench --bench queries`.

use circlet::math::{Pose, vec2};
use circlet::query::{contact, contact_with_margin, distance, intersects};
use circlet::shape::{Aabb, Capsule, Circle, ConvexPolygon, Shape, SimplePolygon};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

struct Pair {
    name: &'static str,
    a: Shape,
    b: Shape,
}

fn pairs() -> Vec<Pair> {
    let circle = || Shape::from(Circle::new(vec2(0.0, 0.0), 0.5).unwrap());
    let octagon = || Shape::from(ConvexPolygon::regular(8, 0.6, 0.1).unwrap());
    let capsule = || Shape::from(Capsule::new(vec2(-0.6, 0.0), vec2(0.6, 0.0), 0.2).unwrap());
    vec![
        Pair {
            name: "circle_circle",
            a: circle(),
            b: circle(),
        },
        Pair {
            name: "circle_polygon8",
            a: circle(),
            b: octagon(),
        },
        Pair {
            name: "polygon8_polygon8",
            a: octagon(),
            b: octagon(),
        },
        Pair {
            name: "capsule_polygon8",
            a: capsule(),
            b: octagon(),
        },
    ]
}

fn bench_queries(c: &mut Criterion) {
    let pose_a = Pose::new(vec2(0.0, 0.0), 0.2);
    let overlapping = Pose::new(vec2(0.8, 0.3), 0.5);
    let separated = Pose::new(vec2(2.5, 0.7), 0.5);
    for pair in pairs() {
        // Sanity: the two configurations are what their names say.
        assert!(
            intersects(&pair.a, &pose_a, &pair.b, &overlapping),
            "{}",
            pair.name
        );
        assert!(
            !intersects(&pair.a, &pose_a, &pair.b, &separated),
            "{}",
            pair.name
        );
        let mut group = c.benchmark_group(pair.name);
        for (label, pose_b) in [("overlapping", overlapping), ("separated", separated)] {
            group.bench_function(format!("intersects/{label}"), |bench| {
                bench.iter(|| intersects(black_box(&pair.a), &pose_a, black_box(&pair.b), &pose_b))
            });
            group.bench_function(format!("contact/{label}"), |bench| {
                bench.iter(|| contact(black_box(&pair.a), &pose_a, black_box(&pair.b), &pose_b))
            });
            group.bench_function(format!("distance/{label}"), |bench| {
                bench.iter(|| distance(black_box(&pair.a), &pose_a, black_box(&pair.b), &pose_b))
            });
        }
        group.finish();
    }
}

/// The margin the world asks for (its speculative distance, metres).
const WORLD_MARGIN: f32 = 0.02;

fn bench_box_box(c: &mut Criterion) {
    let unit_box = Shape::from(ConvexPolygon::rectangle(vec2(-0.5, -0.5), vec2(0.5, 0.5)).unwrap());
    let lower = Pose::from_translation(vec2(0.0, 0.5));
    let cases = [
        ("resting", Pose::new(vec2(0.1, 1.495), 0.002), 2),
        ("rotated", Pose::new(vec2(0.1, 1.62), 0.4), 1),
        ("speculative", Pose::new(vec2(0.1, 1.51), 0.0), 2),
        ("side_apart", Pose::new(vec2(1.008, 0.5003), 0.0015), 2),
        ("separated", Pose::new(vec2(2.5, 0.7), 0.5), 0),
    ];
    let mut group = c.benchmark_group("box_box");
    for (label, upper, points) in cases {
        // Sanity: the configuration is what its name says.
        let m = contact_with_margin(&unit_box, &lower, &unit_box, &upper, WORLD_MARGIN);
        assert_eq!(m.map_or(0, |m| m.points.len()), points, "{label}");
        group.bench_function(format!("contact_with_margin/{label}"), |bench| {
            bench.iter(|| {
                contact_with_margin(
                    black_box(&unit_box),
                    black_box(&lower),
                    black_box(&unit_box),
                    black_box(&upper),
                    WORLD_MARGIN,
                )
            })
        });
    }
    group.finish();
}

/// A saw 8 m long: a straight bottom edge and 8 teeth 1 m wide on top,
/// 2 m high at their tips and 1 m in the notches.
fn saw() -> SimplePolygon {
    let teeth = 8;
    let mut outline = vec![vec2(0.0, 0.0), vec2(teeth as f32, 0.0)];
    for k in (0..teeth).rev() {
        outline.push(vec2(k as f32 + 1.0, 2.0));
        outline.push(vec2(k as f32 + 0.5, 1.0));
    }
    outline.push(vec2(0.0, 2.0));
    SimplePolygon::new(&outline).unwrap()
}

fn bench_simple_simple(c: &mut Criterion) {
    let saw = saw();
    let pieces = saw.pieces().len();
    let saw = Shape::from(saw);
    let left = Pose::IDENTITY;
    let cases = [
        (
            "end_to_end",
            Pose::from_translation(vec2(7.995, 0.001)),
            true,
        ),
        ("apart", Pose::from_translation(vec2(8.05, 0.0)), false),
    ];
    let mut group = c.benchmark_group(format!("saw{pieces}_saw{pieces}"));
    for (label, right, touches) in cases {
        // Sanity: the configuration is what its name says.
        let m = contact_with_margin(&saw, &left, &saw, &right, WORLD_MARGIN);
        assert_eq!(m.is_some(), touches, "{label}");
        group.bench_function(format!("contact_with_margin/{label}"), |bench| {
            bench.iter(|| {
                contact_with_margin(
                    black_box(&saw),
                    black_box(&left),
                    black_box(&saw),
                    black_box(&right),
                    WORLD_MARGIN,
                )
            })
        });
    }
    group.finish();
}

fn bench_simple_convex(c: &mut Criterion) {
    let saw = saw();
    let pieces = saw.pieces().len();
    let saw = Shape::from(saw);
    let ball = Shape::from(Circle::new(vec2(0.0, 0.0), 0.3).unwrap());
    let floor = Shape::from(Aabb::new(vec2(-10.0, -1.0), vec2(20.0, 0.0)).unwrap());
    let identity = Pose::IDENTITY;
    // The notch between the teeth tipped at x = 4 and x = 5 is at
    // (4.5, 1), its flanks rising 2 in 1: a ball centred at height y over
    // it is (y − 1)/√5 from each, so at y = 1.668 a ball of 0.3 sinks
    // about 1 mm into both. The floor's top is 1 mm above the saw's base.
    let cases = [
        ("ball_in_notch", &ball, vec2(4.5, 1.668), true),
        ("ball_apart", &ball, vec2(4.0, 2.35), false),
        ("on_floor", &floor, vec2(0.0, 0.001), true),
    ];
    let mut group = c.benchmark_group(format!("saw{pieces}_convex"));
    for (label, other, at, touches) in cases {
        let pose = Pose::from_translation(at);
        // Sanity: the configuration is what its name says.
        let m = contact_with_margin(&saw, &identity, other, &pose, WORLD_MARGIN);
        assert_eq!(m.is_some(), touches, "{label}");
        group.bench_function(format!("contact_with_margin/{label}"), |bench| {
            bench.iter(|| {
                contact_with_margin(
                    black_box(&saw),
                    black_box(&identity),
                    black_box(other),
                    black_box(&pose),
                    WORLD_MARGIN,
                )
            })
        });
    }
    group.finish();
}

criterion_group!(
    benches,
    bench_queries,
    bench_box_box,
    bench_simple_simple,
    bench_simple_convex
);
criterion_main!(benches);
