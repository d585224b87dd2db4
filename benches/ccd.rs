//! Continuous collision benchmarks, one group per capability:
//! - `cast`: thick shots against a regular polygon(8) and against the
//!   64-leaf tree of the tree benches, `samples::body_64()` (casts per
//!   second);
//! - `toi_linear`: polygon–polygon SAT sweep (ns per query);
//! - `toi_rotating`: conservative advancement, polygon–polygon and
//!   tree(64 leaves)–polygon (ns per query; the average number of
//!   advancement iterations per hit is printed).
//!
//! Every group runs over a fixed, seeded set of scenes (about half hit).
//! Run with `cargo bench --bench ccd -- --warm-up-time 1 --measurement-time 3`.

use circlet::math::{Pose, Real, Vec2, vec2};
use circlet::query::cast::{Shot, cast};
use circlet::query::time_of_impact::{Motion, time_of_impact};
use circlet::shape::circle_tree::samples;
use circlet::shape::{ConvexPolygon, Shape};
use criterion::{BenchmarkId, Criterion, Throughput, black_box, criterion_group, criterion_main};

const SCENES: usize = 1024;

/// A small deterministic generator (no dependency): xorshift64*.
struct Seeded(u64);

impl Seeded {
    fn unit(&mut self) -> Real {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        ((self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 40) as Real) / (1u64 << 24) as Real
    }
    fn range(&mut self, low: Real, high: Real) -> Real {
        low + (high - low) * self.unit()
    }
    fn direction(&mut self) -> Vec2 {
        let angle = self.range(0.0, std::f32::consts::TAU);
        vec2(angle.cos(), angle.sin())
    }
}

/// Shots of 20 m per step aimed near the polygon at the origin (radius 1).
fn shots() -> Vec<Shot> {
    let mut random = Seeded(0x5eed_cafe);
    (0..SCENES)
        .map(|_| {
            let heading = random.direction();
            let aim = vec2(-heading.y, heading.x) * random.range(-2.0, 2.0);
            let start = aim - heading * random.range(5.0, 15.0);
            Shot::new(start, start + heading * 20.0, random.range(0.0, 0.1)).unwrap()
        })
        .collect()
}

/// Pairs of poses and motions aimed so that about half of them collide.
fn moving_pairs(angular: Real) -> Vec<(Pose, Motion, Pose, Motion)> {
    let mut random = Seeded(0xface_b00c);
    (0..SCENES)
        .map(|_| {
            let heading = random.direction();
            let relative = heading * random.range(1.0, 40.0);
            let miss = vec2(-heading.y, heading.x) * random.range(-3.0, 3.0);
            let pose_a = Pose::new(
                vec2(random.range(-50.0, 50.0), random.range(-50.0, 50.0)),
                random.range(-3.0, 3.0),
            );
            let pose_b = Pose::new(
                pose_a.translation - relative * random.range(0.2, 0.8) + miss,
                random.range(-3.0, 3.0),
            );
            let spin_a = random.range(-angular, angular);
            let spin_b = random.range(-angular, angular);
            (
                pose_a,
                Motion::new(Vec2::zeros(), spin_a),
                pose_b,
                Motion::new(relative, spin_b),
            )
        })
        .collect()
}

fn cast_targets(c: &mut Criterion) {
    let targets = [
        (
            "thick_shot_polygon8",
            Shape::from(ConvexPolygon::regular(8, 1.0, 0.2).unwrap()),
        ),
        ("thick_shot_tree64", Shape::from(samples::body_64())),
    ];
    let pose = Pose::new(vec2(0.0, 0.0), 0.3);
    let shots = shots();
    let mut group = c.benchmark_group("cast");
    group.throughput(Throughput::Elements(SCENES as u64));
    for (name, target) in &targets {
        let hits = shots
            .iter()
            .filter(|s| cast(s, target, &pose).unwrap().is_some())
            .count();
        eprintln!("cast: {hits} of {SCENES} thick shots hit ({name})");
        group.bench_function(*name, |b| {
            b.iter(|| {
                let mut found = 0;
                for shot in &shots {
                    found += cast(black_box(shot), black_box(target), &pose)
                        .unwrap()
                        .is_some() as usize;
                }
                found
            })
        });
    }
    group.finish();
}

fn toi_polygons(c: &mut Criterion) {
    let a = Shape::from(ConvexPolygon::regular(8, 1.0, 0.0).unwrap());
    let b = Shape::from(ConvexPolygon::regular(6, 0.7, 0.1).unwrap());
    let mut group = c.benchmark_group("toi_linear");
    let pairs = moving_pairs(0.0);
    let hits = pairs
        .iter()
        .filter(|(pa, ma, pb, mb)| time_of_impact(&a, pa, ma, &b, pb, mb).unwrap().is_some())
        .count();
    eprintln!("toi_linear: {hits} of {SCENES} pairs touch");
    group.throughput(Throughput::Elements(SCENES as u64));
    group.bench_function(
        BenchmarkId::new("sat_sweep", "polygon8_polygon6"),
        |bench| {
            bench.iter(|| {
                let mut found = 0;
                for (pa, ma, pb, mb) in &pairs {
                    found += time_of_impact(black_box(&a), pa, ma, black_box(&b), pb, mb)
                        .unwrap()
                        .is_some() as usize;
                }
                found
            })
        },
    );
    group.finish();

    let pairs = moving_pairs(1.0);
    let tree = Shape::from(samples::body_64());
    let mut group = c.benchmark_group("toi_rotating");
    group.throughput(Throughput::Elements(SCENES as u64));
    for (name, first) in [("polygon8_polygon6", &a), ("tree64_polygon6", &tree)] {
        let (mut hits, mut iterations) = (0usize, 0usize);
        for (pa, ma, pb, mb) in &pairs {
            if let Some(toi) = time_of_impact(first, pa, ma, &b, pb, mb).unwrap() {
                hits += 1;
                iterations += toi.iterations as usize;
            }
        }
        eprintln!(
            "toi_rotating ({name}): {hits} of {SCENES} pairs touch, {:.2} advancement iterations on average per hit",
            iterations as f64 / hits.max(1) as f64
        );
        group.bench_function(BenchmarkId::new("advancement", name), |bench| {
            bench.iter(|| {
                let mut found = 0;
                for (pa, ma, pb, mb) in &pairs {
                    found += time_of_impact(black_box(first), pa, ma, black_box(&b), pb, mb)
                        .unwrap()
                        .is_some() as usize;
                }
                found
            })
        });
    }
    group.finish();
}

criterion_group!(benches, cast_targets, toi_polygons);
criterion_main!(benches);
