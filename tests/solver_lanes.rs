//! The contact solver in SIMD lanes (`dynamics::WideContacts`) against the
//! scalar solver it replaces in the step:
//! - over random bodies (moving, fixed, kinematic) and random constraints
//!   of 1 to 4 points that share bodies freely, some of them round (see
//!   `ContactConstraint::round`), warm starting and solving
//!   in lanes gives bit for bit the bodies and impulses of the scalar
//!   `warm_start_constraint` / `solve_constraint` run in `solve_order()`
//!   (with and without bias, several passes, then restitution); so do
//!   colours full of one-, two- or four-point batches, which are solved
//!   side by side two at a time; both with a batch's eight lanes solved at
//!   once in AVX registers (where the processor has AVX) and four at a
//!   time in SSE ones;
//! - a constraint built straight into its lane from a manifold
//!   (`push_manifold`) solves exactly as the same constraint built by
//!   `ContactConstraint::new` and pushed whole;
//! - no movable body is in two lanes of one batch's colour, and fixed
//!   bodies are never written;
//! - `solve_order()` lists every constraint exactly once;
//! - batches reused from an earlier step (whose unused lanes keep old
//!   values) solve bit for bit as fresh ones, whether the constraints are
//!   pushed whole or built from manifolds of 0 to 4 points.

use circlet::dynamics::{
    BodyTurn, ConstraintPoint, ContactConstraint, ContactSettings, ContactSoftness, SolverBody,
    WideContacts, apply_restitution, solve_constraint, warm_start_constraint,
};
use circlet::math::{Rot2, Vec2};
use circlet::query::{FeatureId, Manifold};
use proptest::prelude::*;

mod solver_support;
use solver_support::{body_bits, manifold, warm};

/// A solver body and its turn (inverse inertia, accumulated angle).
fn body(seed: &[f32; 8], kind: u8) -> (SolverBody, BodyTurn) {
    let (inv_mass, inv_inertia) = match kind % 5 {
        0 => (0.0, 0.0),                  // static or kinematic
        1 => (seed[6].abs() + 0.1, 0.0),  // no rotation
        2 => (0.0, seed[7].abs() + 0.05), // turns in place
        _ => (seed[6].abs() + 0.1, seed[7].abs() + 0.05),
    };
    let body = SolverBody {
        linear_velocity: Vec2::new(seed[0], seed[1]),
        angular_velocity: seed[2],
        delta_position: Vec2::new(seed[3] * 0.01, seed[4] * 0.01),
        delta_rotation: Rot2::new(seed[5] * 0.1),
        inv_mass,
    };
    let turn = BodyTurn {
        inv_inertia,
        delta_angle: seed[5] * 0.1,
    };
    (body, turn)
}

fn constraint(
    (bodies, turns): (&[SolverBody], &[BodyTurn]),
    a: usize,
    b: usize,
    angle: f32,
    points: &[[f32; 6]],
    round: bool,
) -> ContactConstraint {
    // Every third constraint bounces.
    let restitution = if (a + b).is_multiple_of(3) { 0.5 } else { 0.0 };
    let normal = Vec2::new(angle.cos(), angle.sin());
    let points = points
        .iter()
        .enumerate()
        .map(|(i, q)| ConstraintPoint {
            anchor_a: Vec2::new(q[0], q[1]),
            anchor_b: Vec2::new(q[2], q[3]),
            base_separation: q[4] * 0.05,
            normal_impulse: q[5].abs(),
            tangent_impulse: q[5] * 0.3,
            max_normal_impulse: 0.0,
            normal_mass: 1.0 / (1.0 + q[0].abs()),
            tangent_mass: 1.0 / (1.0 + q[1].abs()),
            // Some points approach fast enough to bounce, some exactly at
            // the threshold, some not.
            relative_velocity: [-3.0 * q[1].abs(), -1.0, 0.5][i % 3],
            arm_a: q[0],
            arm_b: q[2],
            id: FeatureId(i as u32),
        })
        .collect();
    let fixed = |i: usize| bodies[i].inv_mass == 0.0 && turns[i].inv_inertia == 0.0;
    ContactConstraint {
        body_a: a,
        body_b: b,
        normal,
        friction: 0.6,
        restitution,
        inv_inertia: [turns[a].inv_inertia, turns[b].inv_inertia],
        against_fixed: fixed(a) || fixed(b),
        round,
        points,
    }
}

/// A constraint drawn: bodies A and B, normal angle, points, round.
type Spec = (usize, usize, f32, Vec<[f32; 6]>, bool);

type Case = (Vec<([f32; 8], u8)>, Vec<Spec>);

/// What a pass over packed constraints leaves: the bodies, every point's
/// impulses as bits (see `solved_bits`), and what `each_impulse` hands over.
type Solved = (
    Vec<SolverBody>,
    Vec<[u32; 3]>,
    Vec<(usize, usize, u32, u32)>,
);

/// `count` bodies' seeds and kinds (see `body`).
fn seeds(count: std::ops::Range<usize>) -> impl Strategy<Value = Vec<([f32; 8], u8)>> {
    prop::collection::vec((prop::array::uniform8(-2.0f32..2.0), any::<u8>()), count)
}

/// A constraint of 1 to 4 points between two of `n` bodies, round or not.
fn spec(n: usize) -> impl Strategy<Value = Spec> {
    let point = prop::array::uniform6(-2.0f32..2.0);
    (
        0..n,
        0..n,
        -3.2f32..3.2,
        prop::collection::vec(point, 1..=4),
        any::<bool>(),
    )
        .prop_filter("two bodies", |(a, b, _, _, _)| a != b)
}

fn case() -> impl Strategy<Value = Case> {
    seeds(2..24).prop_flat_map(|bodies| {
        let n = bodies.len();
        (Just(bodies), prop::collection::vec(spec(n), 0..60))
    })
}

/// Disjoint pairs of bodies first, 24 to 39 of them, each with a
/// constraint of `points` points (1, 2 or 4, not round): pushed first,
/// they all take the first colour, three to five batches of one class
/// there (the last one full or not), which the lanes solve side by side
/// two at a time (the last alone when their number is odd). Then random
/// constraints sharing bodies, as in `case`.
fn full_colour_case() -> impl Strategy<Value = Case> {
    let points = prop_oneof![Just(1usize), Just(2usize), Just(4usize)];
    (seeds(48..80), points).prop_flat_map(|(bodies, points)| {
        let n = bodies.len();
        let point = prop::array::uniform6(-2.0f32..2.0);
        let pairs = prop::collection::vec(
            (-3.2f32..3.2, prop::collection::vec(point, points..=points)),
            n / 2..=n / 2,
        )
        .prop_map(|pairs| {
            pairs
                .into_iter()
                .enumerate()
                .map(|(i, (angle, pts))| (2 * i, 2 * i + 1, angle, pts, false))
                .collect::<Vec<Spec>>()
        });
        (Just(bodies), pairs, prop::collection::vec(spec(n), 0..20)).prop_map(
            |(bodies, mut specs, extra)| {
                specs.extend(extra);
                (bodies, specs)
            },
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(10_000))]

    #[test]
    fn lanes_match_the_scalar_solver_bit_for_bit((seeds, specs) in case()) {
        lanes_match_the_scalar_solver(&seeds, &specs)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1_000))]

    #[test]
    fn full_colours_solved_side_by_side_match_the_scalar_solver(
        (seeds, specs) in full_colour_case()
    ) {
        lanes_match_the_scalar_solver(&seeds, &specs)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1_000))]

    /// Constraints may give one body different inverse inertias (built,
    /// then changed): a body one of them moves and another holds fixed.
    #[test]
    fn inverse_inertias_given_differently_match_the_scalar_solver(
        (seeds, specs) in full_colour_case(),
        changes in prop::collection::vec((0..2usize, prop_oneof![Just(0.0f32), Just(2.0f32)]), 0..80),
    ) {
        let (bodies, mut constraints) = built(&seeds, &specs);
        for (c, (side, inv_inertia)) in constraints.iter_mut().zip(changes) {
            c.inv_inertia[side] = inv_inertia;
        }
        lanes_match_the_scalar_solver_on(&bodies, &constraints)?;
    }
}

/// A body without inverse mass that one constraint turns (inverse inertia
/// 5) and another holds fixed (0), both in the first colour, in one batch
/// or in the two batches of a pair: the second may not read the body
/// before the first has written it, so the colouring keeps them apart.
#[test]
fn a_body_one_constraint_turns_and_another_holds_is_solved_in_order() {
    let point = [[0.3, -0.5, 0.7, 0.4, -19.4, 0.0]];
    let turning = SolverBody {
        linear_velocity: Vec2::new(-1.0, -0.5),
        angular_velocity: -3.0,
        inv_mass: 0.0,
        delta_position: Vec2::zeros(),
        delta_rotation: Rot2::identity(),
    };
    let moving = SolverBody {
        inv_mass: 1.0,
        ..SolverBody::FIXED
    };
    let mut bodies = vec![turning];
    bodies.extend(std::iter::repeat_n(moving, 9));
    bodies.push(SolverBody::FIXED);
    let turns: Vec<BodyTurn> = bodies
        .iter()
        .map(|b| BodyTurn {
            inv_inertia: b.inv_mass,
            delta_angle: 0.0,
        })
        .collect();
    let with = (bodies.as_slice(), turns.as_slice());
    let between = |a: usize, b: usize, inv_inertia: [f32; 2]| ContactConstraint {
        inv_inertia,
        ..constraint(with, a, b, 0.9, &point, false)
    };
    // The turning body 0 with body 1, seven fillers against the ground
    // (body 10), then body 0 held fixed with body 9: the ninth constraint
    // opens the first colour's second batch.
    let mut pair_of_batches = vec![between(1, 0, [1.0, 5.0])];
    pair_of_batches.extend((2..=8).map(|k| between(k, 10, [1.0, 0.0])));
    pair_of_batches.push(between(9, 0, [1.0, 0.0]));
    let one_batch = vec![between(1, 0, [1.0, 5.0]), between(9, 0, [1.0, 0.0])];
    for constraints in [pair_of_batches, one_batch] {
        lanes_match_the_scalar_solver_on(&bodies, &constraints).unwrap();
        // Held fixed first, turned second: the same.
        let mut reversed = constraints.clone();
        reversed.reverse();
        lanes_match_the_scalar_solver_on(&bodies, &reversed).unwrap();
    }
}

/// Warm starting, solving (with and without bias) and restitution in lanes
/// against the scalar solver in `solve_order()`: the same bodies and
/// impulses bit for bit, fixed bodies never written, every point handed
/// over once.
fn lanes_match_the_scalar_solver(
    seeds: &[([f32; 8], u8)],
    specs: &[Spec],
) -> Result<(), TestCaseError> {
    let (bodies, constraints) = built(seeds, specs);
    lanes_match_the_scalar_solver_on(&bodies, &constraints)
}

/// The bodies of `seeds` and the constraints of `specs` between them.
fn built(seeds: &[([f32; 8], u8)], specs: &[Spec]) -> (Vec<SolverBody>, Vec<ContactConstraint>) {
    let (bodies, turns): (Vec<SolverBody>, Vec<BodyTurn>) =
        seeds.iter().map(|(s, k)| body(s, *k)).unzip();
    let with = (bodies.as_slice(), turns.as_slice());
    let constraints = specs
        .iter()
        .map(|(a, b, angle, pts, round)| constraint(with, *a, *b, *angle, pts, *round))
        .collect();
    (bodies, constraints)
}

/// [`lanes_match_the_scalar_solver`] on given bodies and constraints; a
/// body that no constraint gives an inverse mass or inertia must come out
/// as it went in.
fn lanes_match_the_scalar_solver_on(
    bodies: &[SolverBody],
    constraints: &[ContactConstraint],
) -> Result<(), TestCaseError> {
    // Eight lanes at once in AVX registers (where the processor has AVX),
    // then four at a time.
    for avx in [true, false] {
        lanes_match_the_scalar_solver_with(bodies, constraints, avx)?;
    }
    Ok(())
}

/// Whether this processor has AVX (the eight-lane passes run only there).
fn has_avx() -> bool {
    #[cfg(target_arch = "x86_64")]
    return std::arch::is_x86_feature_detected!("avx");
    #[cfg(not(target_arch = "x86_64"))]
    return false;
}

/// [`lanes_match_the_scalar_solver_on`] with the AVX passes on or off.
fn lanes_match_the_scalar_solver_with(
    bodies: &[SolverBody],
    constraints: &[ContactConstraint],
    avx: bool,
) -> Result<(), TestCaseError> {
    let (bodies, constraints) = (bodies.to_vec(), constraints.to_vec());
    let mut moved_by_some = vec![false; bodies.len()];
    for c in &constraints {
        for (i, inv_inertia) in [(c.body_a, c.inv_inertia[0]), (c.body_b, c.inv_inertia[1])] {
            if let Some(moved) = moved_by_some.get_mut(i) {
                *moved |= bodies[i].inv_mass != 0.0 || inv_inertia != 0.0;
            }
        }
    }
    let settings = ContactSettings::default();
    let softness = ContactSoftness::new(&settings, 1.0 / 240.0);
    let inv_h = 240.0;

    let mut wide = WideContacts::default();
    prop_assert_eq!(wide.use_avx(avx), avx && has_avx());
    wide.prepare(&bodies, &constraints, &settings, softness);
    let order = wide.solve_order();
    let mut sorted = order.clone();
    sorted.sort_unstable();
    prop_assert_eq!(sorted, (0..constraints.len() as u32).collect::<Vec<_>>());

    let mut lane_bodies = bodies.clone();
    let mut lane_constraints = constraints.clone();
    let mut scalar_bodies = bodies.clone();
    let mut scalar_constraints = constraints.clone();
    wide.warm_start(&mut lane_bodies);
    for &i in &order {
        warm_start_constraint(&mut scalar_bodies, &scalar_constraints[i as usize]);
    }
    for use_bias in [true, false, true] {
        wide.solve(&mut lane_bodies, inv_h, use_bias);
        for &i in &order {
            solve_constraint(
                &mut scalar_bodies,
                &mut scalar_constraints[i as usize],
                &settings,
                softness,
                inv_h,
                use_bias,
            );
        }
    }
    wide.restitution(&mut lane_bodies);
    for &i in &order {
        apply_restitution(
            &mut scalar_bodies,
            std::slice::from_mut(&mut scalar_constraints[i as usize]),
            &settings,
        );
    }
    wide.finish(&mut lane_constraints);
    // `each_impulse` hands over every point of every constraint once,
    // as `point_impulses` reads it; room past a constraint's points
    // (a three-point constraint in a four-point lane) comes as zeros.
    let mut handed = Vec::new();
    wide.each_impulse(|index, k, normal, tangent| handed.push((index, k, normal, tangent)));
    handed.sort_by_key(|&(index, k, _, _)| (index, k));
    let mut expected = 0;
    for &(index, k, normal, tangent) in &handed {
        let points = constraints[index].points.len();
        if k < points {
            expected += 1;
            let (n, t, _) = wide.point_impulses(index, k);
            prop_assert_eq!(
                (normal.to_bits(), tangent.to_bits()),
                (n.to_bits(), t.to_bits())
            );
        } else {
            prop_assert!(
                k < 4 && normal == 0.0 && tangent == 0.0,
                "room {} of {}",
                k,
                index
            );
        }
    }
    handed.dedup_by_key(|&mut (index, k, _, _)| (index, k));
    prop_assert_eq!(
        expected,
        constraints.iter().map(|c| c.points.len()).sum::<usize>()
    );
    prop_assert_eq!(
        handed
            .iter()
            .filter(|h| h.1 < constraints[h.0].points.len())
            .count(),
        expected
    );
    for (i, (lane, scalar)) in lane_bodies.iter().zip(&scalar_bodies).enumerate() {
        prop_assert_eq!(lane, scalar, "body {}", i);
        if !moved_by_some[i] {
            prop_assert_eq!(lane, &bodies[i], "fixed body {} was written", i);
        }
    }
    for (i, (lane, scalar)) in lane_constraints.iter().zip(&scalar_constraints).enumerate() {
        prop_assert_eq!(lane, scalar, "constraint {}", i);
    }
    Ok(())
}

/// The bodies, then every constraint point's impulses (normal, tangent,
/// largest normal) as bits, after a warm start, a biased and a relaxing
/// pass and restitution over `constraints` packed into `wide`.
fn solved_bits(
    wide: &mut WideContacts,
    bodies: &[SolverBody],
    constraints: &[ContactConstraint],
) -> Solved {
    let settings = ContactSettings::default();
    wide.prepare(
        bodies,
        constraints,
        &settings,
        ContactSoftness::new(&settings, 1.0 / 240.0),
    );
    let mut after = bodies.to_vec();
    wide.warm_start(&mut after);
    wide.solve(&mut after, 240.0, true);
    wide.solve(&mut after, 240.0, false);
    wide.restitution(&mut after);
    let mut impulses = Vec::new();
    for (index, c) in constraints.iter().enumerate() {
        for k in 0..c.points.len() {
            let (n, t, m) = wide.point_impulses(index, k);
            impulses.push([n.to_bits(), t.to_bits(), m.to_bits()]);
        }
    }
    let mut handed = Vec::new();
    wide.each_impulse(|index, k, n, t| handed.push((index, k, n.to_bits(), t.to_bits())));
    (after, impulses, handed)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    /// A step reuses the last step's batches, whose lanes beyond this
    /// step's constraints keep old values: the result is still bit for bit
    /// that of fresh batches, and the old lanes hand over no impulses.
    #[test]
    fn reused_batches_solve_as_fresh_ones(
        (seeds, first) in case(),
        second in prop::collection::vec(
            (0usize..64, 0usize..64, -3.2f32..3.2,
             prop::collection::vec(prop::array::uniform6(-2.0f32..2.0), 1..=4), any::<bool>()),
            0..40,
        ),
    ) {
        let (bodies, turns): (Vec<SolverBody>, Vec<BodyTurn>) =
            seeds.iter().map(|(s, k)| body(s, *k)).unzip();
        let with = (bodies.as_slice(), turns.as_slice());
        let n = bodies.len();
        let build = |specs: &[Spec]| -> Vec<ContactConstraint> {
            specs
                .iter()
                .map(|(a, b, angle, pts, round)| (a % n, b % n, angle, pts, round))
                .filter(|(a, b, _, _, _)| a != b)
                .map(|(a, b, angle, pts, round)| constraint(with, a, b, *angle, pts, *round))
                .collect()
        };
        let (first, second) = (build(&first), build(&second));
        let mut reused = WideContacts::default();
        solved_bits(&mut reused, &bodies, &first);
        let again = solved_bits(&mut reused, &bodies, &second);
        let mut fresh_wide = WideContacts::default();
        let fresh = solved_bits(&mut fresh_wide, &bodies, &second);
        prop_assert_eq!(body_bits(&again.0), body_bits(&fresh.0));
        prop_assert_eq!(&again.1, &fresh.1);
        prop_assert_eq!(&again.2, &fresh.2);
        prop_assert_eq!(reused.solve_order(), fresh_wide.solve_order());
    }
}

#[test]
fn a_ball_pile_needs_few_colours_and_no_overflow() {
    // A hexagonal pile: every ball touches up to six others and the floor.
    let (cols, rows) = (40, 30);
    let mut bodies = vec![SolverBody::FIXED];
    let moving = SolverBody {
        inv_mass: 1.0,
        ..SolverBody::FIXED
    };
    bodies.extend(std::iter::repeat_n(moving, cols * rows));
    let mut turns = vec![BodyTurn::default()];
    let turning = BodyTurn {
        inv_inertia: 2.0,
        delta_angle: 0.0,
    };
    turns.extend(std::iter::repeat_n(turning, cols * rows));
    let with = (bodies.as_slice(), turns.as_slice());
    let id = |c: usize, r: usize| 1 + r * cols + c;
    let mut constraints = Vec::new();
    let one = [[0.0, 0.0, 0.0, 0.0, 0.0, 0.0]];
    for r in 0..rows {
        for c in 0..cols {
            if r == 0 {
                constraints.push(constraint(with, 0, id(c, r), 1.57, &one, true));
            }
            if c + 1 < cols {
                constraints.push(constraint(with, id(c, r), id(c + 1, r), 0.0, &one, true));
            }
            if r + 1 < rows {
                constraints.push(constraint(with, id(c, r), id(c, r + 1), 1.0, &one, true));
                if c + 1 < cols {
                    constraints.push(constraint(
                        with,
                        id(c, r),
                        id(c + 1, r + 1),
                        2.0,
                        &one,
                        true,
                    ));
                }
            }
        }
    }
    let settings = ContactSettings::default();
    let mut wide = WideContacts::default();
    wide.prepare(
        &bodies,
        &constraints,
        &settings,
        ContactSoftness::new(&settings, 1.0 / 240.0),
    );
    assert_eq!(wide.overflow_count(), 0);
    assert!(wide.color_count() <= 8, "{} colours", wide.color_count());
}

type ManifoldSpec = (usize, usize, f32, Vec<[f32; 3]>, [f32; 4], f32, bool);

/// The manifold a spec draws (see [`manifold`]).
fn manifold_of((_, _, angle, points, _, _, _): &ManifoldSpec) -> Manifold {
    manifold(*angle, points)
}

fn manifold_case() -> impl Strategy<Value = (Vec<([f32; 8], u8)>, Vec<ManifoldSpec>)> {
    seeds(2..16).prop_flat_map(|bodies| {
        let n = bodies.len();
        let m = (
            0..n,
            0..n,
            -3.2f32..3.2,
            prop::collection::vec(prop::array::uniform3(-2.0f32..2.0), 1..=4),
            prop::array::uniform4(-2.0f32..2.0),
            0.0f32..1.0,
            any::<bool>(),
        )
            .prop_filter("two bodies", |m| m.0 != m.1);
        (Just(bodies), prop::collection::vec(m, 0..40))
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    #[test]
    fn constraints_built_in_lanes_equal_whole_ones((seeds, specs) in manifold_case()) {
        let (bodies, turns): (Vec<SolverBody>, Vec<BodyTurn>) =
            seeds.iter().map(|(s, k)| body(s, *k)).unzip();
        let settings = ContactSettings::default();
        let softness = ContactSoftness::new(&settings, 1.0 / 240.0);
        let manifolds: Vec<Manifold> = specs.iter().map(manifold_of).collect();
        let mut whole = WideContacts::default();
        let mut built = WideContacts::default();
        whole.begin(&bodies, &settings, softness);
        built.begin(&bodies, &settings, softness);
        for ((a, b, _, _, centres, restitution, round), manifold) in specs.iter().zip(&manifolds) {
            let centre_a = Vec2::new(centres[0], centres[1]);
            let centre_b = Vec2::new(centres[2], centres[3]);
            let c = ContactConstraint::new(
                &bodies, &turns, *a, *b, centre_a, centre_b, manifold, 0.6, *restitution, *round,
                warm,
            )
            .expect("indices in range");
            whole.push_constraint(&bodies, &c);
            built
                .push_manifold(
                    &bodies, &turns, *a, *b, centre_a, centre_b, manifold, 0.6, *restitution,
                    *round, warm,
                )
                .expect("indices in range");
        }
        prop_assert_eq!(whole.solve_order(), built.solve_order());
        let (mut bodies_whole, mut bodies_built) = (bodies.clone(), bodies.clone());
        for (wide, bodies) in [(&mut whole, &mut bodies_whole), (&mut built, &mut bodies_built)] {
            wide.warm_start(bodies);
            wide.solve(bodies, 240.0, true);
            wide.solve(bodies, 240.0, false);
            wide.restitution(bodies);
        }
        prop_assert_eq!(&bodies_whole, &bodies_built);
        for (index, (_, _, _, points, _, _, _)) in specs.iter().enumerate() {
            for k in 0..points.len() {
                let (w, b) = (whole.point_impulses(index, k), built.point_impulses(index, k));
                prop_assert_eq!(w.0.to_bits(), b.0.to_bits());
                prop_assert_eq!(w.1.to_bits(), b.1.to_bits());
                prop_assert_eq!(w.2.to_bits(), b.2.to_bits());
            }
        }
    }
}

/// Builds `specs` straight into lanes (`push_manifold`) in `wide`, with
/// manifolds of as many points as each spec has (0 to 4), then warm starts,
/// solves with and without bias and applies restitution; the bodies and
/// every point's impulses as bits.
fn built_and_solved(
    wide: &mut WideContacts,
    bodies: &[SolverBody],
    turns: &[BodyTurn],
    specs: &[ManifoldSpec],
) -> (Vec<[u32; 8]>, Vec<[u32; 3]>) {
    let settings = ContactSettings::default();
    wide.begin(
        bodies,
        &settings,
        ContactSoftness::new(&settings, 1.0 / 240.0),
    );
    for spec in specs {
        let (a, b, _, _, centres, restitution, round) = spec;
        let manifold = manifold_of(spec);
        let (a, b) = (a % bodies.len(), b % bodies.len());
        let centre_a = Vec2::new(centres[0], centres[1]);
        let centre_b = Vec2::new(centres[2], centres[3]);
        wide.push_manifold(
            bodies,
            turns,
            a,
            b,
            centre_a,
            centre_b,
            &manifold,
            0.6,
            *restitution,
            *round,
            warm,
        )
        .expect("indices in range");
    }
    let mut after = bodies.to_vec();
    wide.warm_start(&mut after);
    wide.solve(&mut after, 240.0, true);
    wide.solve(&mut after, 240.0, false);
    wide.restitution(&mut after);
    let mut impulses = Vec::new();
    for (index, spec) in specs.iter().enumerate() {
        for k in 0..spec.3.len() {
            let (n, t, m) = wide.point_impulses(index, k);
            impulses.push([n.to_bits(), t.to_bits(), m.to_bits()]);
        }
    }
    (body_bits(&after), impulses)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    /// Constraints built straight into lanes reused from an earlier step,
    /// including manifolds of no point and of three (which leave points of
    /// their lane unfilled), solve bit for bit as in fresh batches.
    #[test]
    fn manifolds_built_into_reused_lanes_solve_as_fresh_ones(
        (seeds, first) in manifold_case(),
        second in prop::collection::vec(
            (0usize..64, 0usize..64, -3.2f32..3.2,
             prop::collection::vec(prop::array::uniform3(-2.0f32..2.0), 0..=4),
             prop::array::uniform4(-2.0f32..2.0), 0.0f32..1.0, any::<bool>()),
            0..30,
        ),
    ) {
        let (bodies, turns): (Vec<SolverBody>, Vec<BodyTurn>) =
            seeds.iter().map(|(s, k)| body(s, *k)).unzip();
        let n = bodies.len();
        let second: Vec<ManifoldSpec> = second
            .into_iter()
            .filter(|m| m.0 % n != m.1 % n)
            .collect();
        let mut reused = WideContacts::default();
        built_and_solved(&mut reused, &bodies, &turns, &first);
        let again = built_and_solved(&mut reused, &bodies, &turns, &second);
        let mut fresh_wide = WideContacts::default();
        let fresh = built_and_solved(&mut fresh_wide, &bodies, &turns, &second);
        prop_assert_eq!(again, fresh);
        prop_assert_eq!(reused.solve_order(), fresh_wide.solve_order());
    }
}
