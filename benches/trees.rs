//! Circle-tree query benches (run with
//! `cargo bench --bench trees -- --warm-up-time 1 --measurement-time 3`):
//! - tree (64 leaves) against tree (64 leaves) contact, overlapping and
//!   separated: pruned against the brute-force 64 × 64 leaf loop, with the
//!   number of leaf tests each does (printed before the timings);
//! - a thick segment (a shot) cast against a 64-leaf tree;
//! - the world box of a turned, scaled 64-leaf tree (every moving tree
//!   body's swept box needs one each step: its end box; the start box is
//!   the end box kept from the step before).
//!
//! The bodies are `samples::body_64()`, the tree the tests use too.

use circlet::math::{Pose, vec2};
use circlet::query::tree::{self, QueryBudget, brute_force};
use circlet::shape::Capsule;
use circlet::shape::circle_tree::samples;
use criterion::{Criterion, black_box, criterion_group, criterion_main};

/// Poses of body B against body A at the origin: typical contacts (end to
/// end, a corner dug in, side by side) and one clear of it.
fn cases() -> Vec<(&'static str, Pose)> {
    vec![
        ("overlapping/end_to_end", Pose::new(vec2(4.7, 0.3), 0.2)),
        ("overlapping/corner", Pose::new(vec2(3.6, 1.4), 1.0)),
        ("overlapping/side_by_side", Pose::new(vec2(0.6, 1.9), 0.1)),
        ("separated", Pose::new(vec2(3.0, 3.0), 0.7)),
    ]
}

fn contact(c: &mut Criterion) {
    let body = samples::body_64();
    let at_origin = Pose::IDENTITY;
    println!(
        "\nleaf tests per query (brute force: {}):",
        body.leaves().len() * body.leaves().len()
    );
    for (name, pose) in cases() {
        let (contacts, stats) = tree::leaf_contacts_tree_tree(
            &body,
            &at_origin,
            &body,
            &pose,
            0.0,
            QueryBudget::UNLIMITED,
        );
        let (brute, brute_stats) =
            brute_force::leaf_contacts_tree_tree(&body, &at_origin, &body, &pose, 0.0);
        assert_eq!(contacts.len(), brute.len());
        println!(
            "  {name:<26} pruned {:>5} leaf tests ({:>4} node tests), brute force {:>5}: {:>5.1}x fewer; {} touching leaf pairs",
            stats.leaf_tests,
            stats.node_tests,
            brute_stats.leaf_tests,
            brute_stats.leaf_tests as f64 / stats.leaf_tests.max(1) as f64,
            brute.len(),
        );
    }
    let mut group = c.benchmark_group("tree64_vs_tree64_contact");
    for (name, pose) in cases() {
        group.bench_function(format!("pruned/{name}"), |b| {
            b.iter(|| {
                tree::contact_tree_tree(
                    black_box(&body),
                    &at_origin,
                    black_box(&body),
                    black_box(&pose),
                )
            })
        });
        group.bench_function(format!("brute_force/{name}"), |b| {
            b.iter(|| {
                let (contacts, _) = brute_force::leaf_contacts_tree_tree(
                    black_box(&body),
                    &at_origin,
                    black_box(&body),
                    black_box(&pose),
                    0.0,
                );
                tree::reduce_leaf_contacts(&contacts)
            })
        });
    }
    group.finish();
}

fn cast(c: &mut Criterion) {
    let body = samples::body_64();
    let target = Pose::new(vec2(0.0, 0.0), 0.4);
    let shots = [
        (
            "hit",
            Capsule::new(vec2(-10.0, 0.3), vec2(10.0, -0.2), 0.05).unwrap(),
        ),
        (
            "near_miss",
            Capsule::new(vec2(-10.0, 1.55), vec2(10.0, 1.55), 0.05).unwrap(),
        ),
        (
            "miss",
            Capsule::new(vec2(-10.0, 4.0), vec2(10.0, 3.0), 0.05).unwrap(),
        ),
    ];
    println!("\nthick segment vs 64 leaves:");
    for (name, shot) in &shots {
        let (hit, stats) = tree::cast_capsule_tree_with_stats(
            shot,
            &Pose::IDENTITY,
            &body,
            &target,
            QueryBudget::UNLIMITED,
        );
        println!(
            "  {name:<9} {:<28} {:>3} leaf tests, {:>3} node tests",
            hit.map_or("no hit".to_string(), |h| format!(
                "hit at {:.3} (leaf {})",
                h.fraction, h.node
            )),
            stats.leaf_tests,
            stats.node_tests
        );
    }
    let mut group = c.benchmark_group("thick_segment_vs_tree64_cast");
    for (name, shot) in &shots {
        group.bench_function(format!("pruned/{name}"), |b| {
            b.iter(|| {
                tree::cast_capsule_tree(black_box(shot), &Pose::IDENTITY, black_box(&body), &target)
            })
        });
        group.bench_function(format!("brute_force/{name}"), |b| {
            b.iter(|| {
                brute_force::cast_capsule_tree(
                    black_box(shot),
                    &Pose::IDENTITY,
                    black_box(&body),
                    &target,
                )
            })
        });
    }
    group.finish();
}

fn world_box(c: &mut Criterion) {
    let body = circlet::shape::Shape::Tree(std::sync::Arc::new(samples::body_64()));
    let pose = Pose::new(vec2(12.5, -3.0), 0.7).with_scale(1.5);
    c.bench_function("tree64_world_aabb", |b| {
        b.iter(|| black_box(&body).world_aabb(black_box(&pose)))
    });
}

criterion_group!(benches, contact, cast, world_box);
criterion_main!(benches);
