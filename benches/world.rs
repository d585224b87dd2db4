//! World benchmarks, one group per capability, over the scenes in
//! `circlet::world::scenes` (the same builders the tests use):
//! - `ball_pit`: 5,000 circles of radius 0.5 in a 100 m wide box at 60 Hz,
//!   one step of the settled pit, asleep (sleeping on) and awake (sleeping
//!   off); the pit is settled once and reused through a snapshot;
//! - `pyramid`: a pyramid with a base of 100 one-metre boxes (5,050 boxes),
//!   sleeping off, one step;
//! - `projectiles`: 100,000 shots (radius 0.05, 33 m per step) fired into
//!   the settled pit, one step (the shots are added outside the timing);
//!   and `remove_each/N`: N shots in flight in an empty world removed one
//!   by one, first to last (the shots are added outside the timing): the
//!   time per removal should not grow with N;
//! - `scaling`: one step of a ball pit of 1k, 4k, 16k and 32k bodies,
//!   sleeping off, after a second of falling, to show how cost grows;
//! - `shots`: thick shots (radius 0.05, 33 m, random origins over the pit
//!   and directions) through `World::cast_thick`: 1,000 into the settled,
//!   sleeping pit (`settled_1000`, answered from the shot grid once it is
//!   built); and the game case, the pit awake (sleeping off, every body
//!   integrated each step): 8 shots right after each step (`awake_8_after_step`,
//!   the step untimed) and one step plus those 8 shots
//!   (`awake_step_and_8`).

use circlet::math::{Real, vec2};
use circlet::query::cast::Shot;
use circlet::world::scenes::{ball_pit, jitter, pyramid, settle, wake_all};
use circlet::world::{ProjectileDef, QueryFilter, Snapshot, World, WorldSettings};
use criterion::{BatchSize, BenchmarkId, Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

const DT: Real = 1.0 / 60.0;

/// The settled 5,000-ball pit, built once per run.
fn settled_pit() -> &'static Snapshot {
    static PIT: OnceLock<Snapshot> = OnceLock::new();
    PIT.get_or_init(|| {
        let (mut world, _) = ball_pit(WorldSettings::default(), 5_000, 0.5, 100.0).unwrap();
        let steps = settle(&mut world, DT, 1_800).unwrap();
        let awake = world.bodies().filter(|(_, b)| b.is_awake()).count();
        eprintln!(
            "ball pit settled in {steps} steps: {awake} of 5000 awake, {} pairs, {} touching",
            world.pair_count(),
            world.contact_count()
        );
        world.snapshot()
    })
}

fn restored(snapshot: &Snapshot) -> World {
    let mut world = World::new(WorldSettings::default()).unwrap();
    world.restore(snapshot);
    world
}

fn bench_ball_pit(c: &mut Criterion) {
    let mut group = c.benchmark_group("ball_pit");
    group.sample_size(20);
    let mut asleep = restored(settled_pit());
    group.bench_function("settled_asleep", |b| {
        b.iter(|| asleep.step(black_box(DT)).unwrap())
    });
    // The step profile's cost where a step is cheapest: seven clock reads.
    let mut profiled = restored(settled_pit());
    profiled.set_profiling(true);
    group.bench_function("settled_asleep_profiled", |b| {
        b.iter(|| profiled.step(black_box(DT)).unwrap())
    });
    let mut awake = restored(settled_pit());
    awake
        .set_settings(WorldSettings {
            sleeping: false,
            ..WorldSettings::default()
        })
        .unwrap();
    wake_all(&mut awake).unwrap();
    group.bench_function("settled_awake", |b| {
        b.iter(|| awake.step(black_box(DT)).unwrap())
    });
    group.finish();
}

fn bench_pyramid(c: &mut Criterion) {
    let mut group = c.benchmark_group("pyramid");
    group.sample_size(10);
    let settings = WorldSettings {
        sleeping: false,
        ..WorldSettings::default()
    };
    let (mut world, boxes) = pyramid(settings, 100, 1.0).unwrap();
    for _ in 0..30 {
        world.step(DT).unwrap();
    }
    eprintln!("pyramid of {} boxes", boxes.len());
    group.bench_function("base_100", |b| {
        b.iter(|| world.step(black_box(DT)).unwrap())
    });
    group.finish();
}

fn bench_projectiles(c: &mut Criterion) {
    let mut group = c.benchmark_group("projectiles");
    group.sample_size(10);
    let pit = settled_pit();
    let count = 100_000;
    group.bench_function("100k_into_pit", |b| {
        b.iter_batched(
            || {
                let mut world = restored(pit);
                for i in 0..count {
                    let i = i as u32;
                    // Above the pit, heading down and sideways at 33 m per step.
                    let start = vec2(jitter(3 * i) * 96.0 - 48.0, 64.0 + jitter(3 * i + 1) * 10.0);
                    let angle = -1.2 - jitter(3 * i + 2) * 0.7;
                    let velocity = vec2(angle.cos(), angle.sin()) * (33.0 / DT);
                    world
                        .add_projectile(
                            ProjectileDef::new(start, velocity, 0.05).with_gravity_scale(0.0),
                        )
                        .unwrap();
                }
                world
            },
            |mut world| {
                world.step(DT).unwrap();
                world
            },
            BatchSize::PerIteration,
        )
    });
    for count in [1_000usize, 10_000] {
        group.bench_with_input(
            BenchmarkId::new("remove_each", count),
            &count,
            |b, &count| {
                b.iter_batched(
                    || {
                        let mut world = World::new(WorldSettings::default()).unwrap();
                        let shots: Vec<_> = (0..count)
                            .map(|i| {
                                let start = vec2(i as Real, 0.0);
                                let def = ProjectileDef::new(start, vec2(0.0, 1.0), 0.05);
                                world.add_projectile(def).unwrap()
                            })
                            .collect();
                        (world, shots)
                    },
                    |(mut world, shots)| {
                        for shot in &shots {
                            world.remove_projectile(*shot).unwrap();
                        }
                        world
                    },
                    BatchSize::PerIteration,
                )
            },
        );
    }
    group.finish();
}

fn bench_scaling(c: &mut Criterion) {
    let mut group = c.benchmark_group("scaling");
    group.sample_size(10);
    let settings = WorldSettings {
        sleeping: false,
        ..WorldSettings::default()
    };
    for count in [1_000usize, 4_000, 16_000, 32_000] {
        // About 70 balls per row whatever the count, so the pile is as
        // deep as wide for 4k.
        let width = (count as Real).sqrt() * 1.6;
        let (mut world, _) = ball_pit(settings, count, 0.5, width).unwrap();
        for _ in 0..60 {
            world.step(DT).unwrap();
        }
        eprintln!(
            "scaling {count}: {} pairs, {} touching",
            world.pair_count(),
            world.contact_count()
        );
        group.bench_with_input(BenchmarkId::from_parameter(count), &count, |b, _| {
            b.iter(|| world.step(black_box(DT)).unwrap())
        });
    }
    group.finish();
}

/// `count` thick shots over the pit's area, fixed by `seed`.
fn pit_shots(count: u32, seed: u32) -> Vec<Shot> {
    (0..count)
        .map(|i| {
            let k = 3 * (i + seed * count);
            let start = vec2(jitter(k) * 130.0 - 65.0, jitter(k + 1) * 80.0 - 16.0);
            let angle = jitter(k + 2) * std::f32::consts::TAU;
            Shot::new(start, start + vec2(angle.cos(), angle.sin()) * 33.0, 0.05).unwrap()
        })
        .collect()
}

fn bench_shots(c: &mut Criterion) {
    let mut group = c.benchmark_group("shots");
    group.sample_size(20);
    let filter = QueryFilter::default();
    let settled = restored(settled_pit());
    let shots = pit_shots(1_000, 0);
    group.bench_function("settled_1000", |b| {
        b.iter(|| {
            for shot in &shots {
                black_box(settled.cast_thick(shot, &filter).unwrap());
            }
        })
    });
    let mut awake = restored(settled_pit());
    awake
        .set_settings(WorldSettings {
            sleeping: false,
            ..WorldSettings::default()
        })
        .unwrap();
    wake_all(&mut awake).unwrap();
    let few = pit_shots(8, 1);
    group.bench_function("awake_8_after_step", |b| {
        b.iter_custom(|iterations| {
            let mut total = Duration::ZERO;
            for _ in 0..iterations {
                awake.step(DT).unwrap();
                let start = Instant::now();
                for shot in &few {
                    black_box(awake.cast_thick(shot, &filter).unwrap());
                }
                total += start.elapsed();
            }
            total
        })
    });
    group.bench_function("awake_step_and_8", |b| {
        b.iter(|| {
            awake.step(DT).unwrap();
            for shot in &few {
                black_box(awake.cast_thick(shot, &filter).unwrap());
            }
        })
    });
    group.finish();
}

criterion_group!(
    benches,
    bench_ball_pit,
    bench_pyramid,
    bench_projectiles,
    bench_scaling,
    bench_shots
);
criterion_main!(benches);
