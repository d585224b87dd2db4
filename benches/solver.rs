//! Solver benchmarks: one pass of the lane solver (`WideContacts`) over the
//! contacts of a hexagonal pile of 40 × 30 balls of radius 0.5 resting on a
//! floor (3,501 one-point constraints, every ball touching up to six
//! others), built two ways from the same manifolds:
//! - `round`: as the world builds them between balls centred on their
//!   bodies' centres of mass (`ContactConstraint::round`), in round batches;
//! - `general`: as any other one-point contact, in general batches;
//!
//! and for each, a solving pass with the position bias (`solve`) and a warm
//! starting pass (`warm_start`). Each iteration is one pass over every
//! constraint; the bodies and impulses carry over from pass to pass.

use circlet::dynamics::{
    BodyTurn, ContactConstraint, ContactSettings, ContactSoftness, SolverBody, WideContacts,
};
use circlet::math::{Real, Vec2};
use circlet::query::{ContactPoint, FeatureId, Manifold};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

const RADIUS: Real = 0.5;
const COLUMNS: usize = 40;
const ROWS: usize = 30;
/// One substep of a 60 Hz step in four.
const SUBSTEP: Real = 1.0 / 240.0;

/// The pile's solver bodies (index 0 the floor), their turns and the ball
/// centres.
fn bodies() -> (Vec<SolverBody>, Vec<BodyTurn>, Vec<Vec2>) {
    // A solid disc of density 1: m = πr², I = m r² / 2.
    let mass = std::f32::consts::PI * RADIUS * RADIUS;
    let ball = SolverBody {
        inv_mass: 1.0 / mass,
        ..SolverBody::FIXED
    };
    let turn = BodyTurn {
        inv_inertia: 2.0 / (mass * RADIUS * RADIUS),
        delta_angle: 0.0,
    };
    let mut bodies = vec![SolverBody::FIXED];
    let mut turns = vec![BodyTurn::default()];
    let mut centres = vec![Vec2::zeros()];
    let step_y = 3.0f32.sqrt() * RADIUS;
    for row in 0..ROWS {
        for column in 0..COLUMNS {
            let shift = if row % 2 == 1 { RADIUS } else { 0.0 };
            let centre = Vec2::new(
                column as Real * 2.0 * RADIUS + shift,
                RADIUS + row as Real * step_y,
            );
            // A little motion, so the passes have work to do.
            let mut body = ball;
            body.linear_velocity = Vec2::new(0.01 * (column % 3) as Real, -0.05);
            bodies.push(body);
            turns.push(turn);
            centres.push(centre);
        }
    }
    (bodies, turns, centres)
}

/// The pile's contacts as constraints, round or general.
fn constraints(
    (bodies, turns): (&[SolverBody], &[BodyTurn]),
    centres: &[Vec2],
    round: bool,
) -> Vec<ContactConstraint> {
    let id = |column: usize, row: usize| 1 + row * COLUMNS + column;
    let contact = |a: usize, b: usize, normal: Vec2, point: Vec2| {
        let manifold = Manifold {
            normal,
            points: std::iter::once(ContactPoint {
                point,
                depth: 0.001,
                id: FeatureId(0),
                part_a: None,
                part_b: None,
            })
            .collect(),
        };
        ContactConstraint::new(
            bodies,
            turns,
            a,
            b,
            centres[a],
            centres[b],
            &manifold,
            0.6,
            0.0,
            round,
            |_| (0.05, 0.01),
        )
        .expect("indices in range")
    };
    let between = |a: usize, b: usize| {
        let normal = (centres[b] - centres[a]).normalize();
        contact(a, b, normal, centres[a] + normal * RADIUS)
    };
    let mut out = Vec::new();
    for row in 0..ROWS {
        for column in 0..COLUMNS {
            let here = id(column, row);
            if row == 0 {
                let floor_point = centres[here] - Vec2::new(0.0, RADIUS);
                out.push(contact(0, here, Vec2::new(0.0, 1.0), floor_point));
            }
            if column + 1 < COLUMNS {
                out.push(between(here, id(column + 1, row)));
            }
            if row + 1 < ROWS {
                // The two balls above, on an odd row's right or an even
                // row's left.
                out.push(between(here, id(column, row + 1)));
                let diagonal = if row % 2 == 1 {
                    (column + 1 < COLUMNS).then(|| column + 1)
                } else {
                    column.checked_sub(1)
                };
                if let Some(other) = diagonal {
                    out.push(between(here, id(other, row + 1)));
                }
            }
        }
    }
    out
}

fn passes(c: &mut Criterion) {
    let mut group = c.benchmark_group("solver_pass");
    let settings = ContactSettings::default();
    let softness = ContactSoftness::new(&settings, SUBSTEP);
    for (name, round) in [("round", true), ("general", false)] {
        let (mut bodies, turns, centres) = bodies();
        let constraints = constraints((&bodies, &turns), &centres, round);
        let mut wide = WideContacts::default();
        wide.prepare(&bodies, &constraints, &settings, softness);
        group.bench_function(format!("{name}/solve"), |b| {
            b.iter(|| wide.solve(black_box(&mut bodies), 1.0 / SUBSTEP, true))
        });
        group.bench_function(format!("{name}/warm_start"), |b| {
            b.iter(|| wide.warm_start(black_box(&mut bodies)))
        });
        eprintln!(
            "{name}: {} constraints, {} colours, {} in the overflow",
            constraints.len(),
            wide.color_count(),
            wide.overflow_count()
        );
    }
    group.finish();
}

criterion_group!(benches, passes);
criterion_main!(benches);
