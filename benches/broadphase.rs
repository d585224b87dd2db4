//! Broadphase cost as the scene grows: 1k, 4k, 16k and 32k boxes on a
//! jittered grid (2 m cells, boxes 0.6–1.2 m), every box orbiting its cell
//! centre by 0.5 m with its own phase and speed (up to ~0.04 m per step).
//!
//! - `broadphase_update/N`: one step = `move_proxy` for every box + `update_pairs`.
//! - `broadphase_build/N`: create N proxies + the first `update_pairs`.
//! - `broadphase_query_aabb/N`: one 2 m x 2 m box query at a random place.
//! - `broadphase_ray_cast/N`: one 20 m ray, closest hit (clipping at each box).
//!
//! Divide by N for ns per proxy; ~n log n total cost shows as a log-log slope
//! of update time vs N a little above 1.
//!
//! Run: `cargo bench --bench broadphase -- --warm-up-time 1 --measurement-time 3`.

use circlet::broadphase::{Bounds, BroadPhase, ProxyId, ProxyKind};
use circlet::math::{Real, Vec2, vec2};
use criterion::{BatchSize, BenchmarkId, Criterion, criterion_group, criterion_main};
use std::hint::black_box;

const SIZES: [usize; 4] = [1_000, 4_000, 16_000, 32_000];
const CELL: Real = 2.0;
const ORBIT_RADIUS: Real = 0.5;

/// A small deterministic generator (no dependency, same scene every run).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> Real {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 40) as Real) / (1u64 << 24) as Real
    }

    fn range(&mut self, low: Real, high: Real) -> Real {
        low + (high - low) * self.next()
    }
}

struct Body {
    home: Vec2,
    half_extents: Vec2,
    /// Offset from `home`, turned by `turn` (cos, sin) each step: an orbit
    /// of radius `ORBIT_RADIUS` without trigonometry in the timed loop.
    offset: Vec2,
    turn: (Real, Real),
}

impl Body {
    /// Advances one step; returns the new tight box and the displacement.
    fn step(&mut self) -> (Bounds, Vec2) {
        let (c, s) = self.turn;
        let next = vec2(
            c * self.offset.x - s * self.offset.y,
            s * self.offset.x + c * self.offset.y,
        );
        let displacement = next - self.offset;
        self.offset = next;
        (self.bounds(), displacement)
    }

    fn bounds(&self) -> Bounds {
        Bounds::from_center(self.home + self.offset, self.half_extents).unwrap()
    }
}

struct Scene {
    bodies: Vec<Body>,
    side: Real,
}

fn jittered_grid(n: usize) -> Scene {
    let mut rng = Lcg(n as u64);
    let columns = (n as f64).sqrt().ceil() as usize;
    let bodies = (0..n)
        .map(|i| {
            let cell = vec2((i % columns) as Real, (i / columns) as Real) * CELL;
            let phase = rng.range(0.0, std::f32::consts::TAU);
            let angular_speed = rng.range(0.02, 0.08);
            Body {
                home: cell + vec2(rng.range(-0.2, 0.2), rng.range(-0.2, 0.2)),
                half_extents: vec2(rng.range(0.3, 0.6), rng.range(0.3, 0.6)),
                offset: vec2(phase.cos(), phase.sin()) * ORBIT_RADIUS,
                turn: (angular_speed.cos(), angular_speed.sin()),
            }
        })
        .collect();
    Scene {
        bodies,
        side: columns as Real * CELL,
    }
}

fn build(scene: &Scene) -> (BroadPhase<u32>, Vec<ProxyId>) {
    let mut broad_phase = BroadPhase::new();
    let ids = scene
        .bodies
        .iter()
        .enumerate()
        .map(|(i, body)| broad_phase.create_proxy(body.bounds(), ProxyKind::Moving, i as u32))
        .collect();
    (broad_phase, ids)
}

fn bench_update(c: &mut Criterion) {
    let mut group = c.benchmark_group("broadphase_update");
    for n in SIZES {
        let mut scene = jittered_grid(n);
        let (mut broad_phase, ids) = build(&scene);
        let mut pairs = Vec::new();
        broad_phase.update_pairs(&mut pairs);
        // Context for the numbers (untimed): how much work a step carries.
        let (mut reinserted, mut reported, steps) = (0usize, 0usize, 100);
        for _ in 0..steps {
            for (body, id) in scene.bodies.iter_mut().zip(&ids) {
                let (bounds, displacement) = body.step();
                reinserted +=
                    usize::from(broad_phase.move_proxy(*id, bounds, displacement).unwrap());
            }
            broad_phase.update_pairs(&mut pairs);
            reported += pairs.len();
        }
        eprintln!(
            "n = {n}: {:.1}% of proxies re-inserted per step, {} pairs reported per step, tree height {}",
            100.0 * reinserted as f64 / (steps * n) as f64,
            reported / steps,
            broad_phase.tree(ProxyKind::Moving).height()
        );
        group.bench_function(BenchmarkId::from_parameter(n), |bench| {
            bench.iter(|| {
                for (body, id) in scene.bodies.iter_mut().zip(&ids) {
                    let (bounds, displacement) = body.step();
                    broad_phase.move_proxy(*id, bounds, displacement).unwrap();
                }
                broad_phase.update_pairs(&mut pairs);
                black_box(pairs.len())
            })
        });
    }
    group.finish();
}

fn bench_build(c: &mut Criterion) {
    let mut group = c.benchmark_group("broadphase_build");
    for n in SIZES {
        let scene = jittered_grid(n);
        group.bench_function(BenchmarkId::from_parameter(n), |bench| {
            bench.iter_batched(
                || Vec::with_capacity(4 * n),
                |mut pairs| {
                    let (mut broad_phase, _) = build(&scene);
                    broad_phase.update_pairs(&mut pairs);
                    black_box(pairs.len())
                },
                BatchSize::LargeInput,
            )
        });
    }
    group.finish();
}

fn bench_queries(c: &mut Criterion) {
    let mut aabb_group = c.benchmark_group("broadphase_query_aabb");
    for n in SIZES {
        let scene = jittered_grid(n);
        let (broad_phase, _) = build(&scene);
        let mut rng = Lcg(7);
        let queries: Vec<Bounds> = (0..1024)
            .map(|_| {
                let corner = vec2(rng.range(0.0, scene.side), rng.range(0.0, scene.side));
                Bounds::new(corner, corner + vec2(2.0, 2.0)).unwrap()
            })
            .collect();
        let mut next = 0usize;
        aabb_group.bench_function(BenchmarkId::from_parameter(n), |bench| {
            bench.iter(|| {
                next = (next + 1) % queries.len();
                let mut hits = 0u32;
                broad_phase.query_aabb(&queries[next], |_, _| {
                    hits += 1;
                    true
                });
                black_box(hits)
            })
        });
    }
    aabb_group.finish();

    let mut ray_group = c.benchmark_group("broadphase_ray_cast");
    for n in SIZES {
        let scene = jittered_grid(n);
        let (broad_phase, _) = build(&scene);
        let mut rng = Lcg(11);
        let rays: Vec<(Vec2, Vec2)> = (0..1024)
            .map(|_| {
                let origin = vec2(rng.range(0.0, scene.side), rng.range(0.0, scene.side));
                let angle = rng.range(0.0, std::f32::consts::TAU);
                (origin, vec2(angle.cos(), angle.sin()) * 20.0)
            })
            .collect();
        let mut next = 0usize;
        ray_group.bench_function(BenchmarkId::from_parameter(n), |bench| {
            bench.iter(|| {
                next = (next + 1) % rays.len();
                let (origin, translation) = rays[next];
                let fraction =
                    broad_phase.ray_cast(origin, translation, 1.0, |id, _, max_fraction| {
                        let fat = broad_phase.fat_bounds(id).unwrap();
                        fat.ray_fraction(origin, translation, max_fraction)
                            .unwrap_or(max_fraction)
                    });
                black_box(fraction)
            })
        });
    }
    ray_group.finish();
}

criterion_group!(benches, bench_update, bench_build, bench_queries);
criterion_main!(benches);
