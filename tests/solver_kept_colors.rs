//! Contacts that keep their solver colour and lane from step to step
//! (`WideContacts::begin_kept`, `refresh_manifold`, `release`,
//! `rebuild_kept`), over random bodies and contacts that come and go and
//! change their point counts across several steps. Locks:
//! - each step, the lanes solve bit for bit as the scalar solver run over
//!   the same constraints (`ContactConstraint::new`) in `solve_order()`,
//!   which lists every contact with a constraint exactly once, by its id;
//! - no two contacts holding one colour name one body that can move;
//! - forgetting the lanes (`forget_kept`, then a rebuild from the contacts'
//!   colours) at any step changes no colour and no result;
//! - a contact of more than four points holds no colour and is solved by
//!   the scalar overflow; a colour out of range or taken twice is dropped
//!   by a rebuild.

use circlet::dynamics::{
    BodyTurn, ContactConstraint, ContactSettings, ContactSoftness, LaneRef, NO_COLOR, SolverBody,
    WideContacts, apply_restitution, solve_constraint, warm_start_constraint,
};
use circlet::math::{Rot2, Vec2};
use circlet::query::Manifold;
use proptest::prelude::*;

mod solver_support;
use solver_support::{body_bits, manifold, warm};

const INV_H: f32 = 240.0;

/// A body that cannot move (kind 0), moves without turning (1), turns in
/// place (2), or both.
fn body(seed: &[f32; 6], kind: u8) -> (SolverBody, BodyTurn) {
    let (inv_mass, inv_inertia) = match kind % 4 {
        0 => (0.0, 0.0),
        1 => (seed[4].abs() + 0.1, 0.0),
        2 => (0.0, seed[5].abs() + 0.05),
        _ => (seed[4].abs() + 0.1, seed[5].abs() + 0.05),
    };
    (
        SolverBody {
            linear_velocity: Vec2::new(seed[0], seed[1]),
            angular_velocity: seed[2],
            delta_position: Vec2::new(seed[3] * 0.01, -seed[3] * 0.02),
            delta_rotation: Rot2::new(seed[5] * 0.1),
            inv_mass,
        },
        BodyTurn {
            inv_inertia,
            delta_angle: 0.0,
        },
    )
}

/// A contact's manifold in one step: normal angle, points (x, y, depth in
/// units of 5 cm, 1 to 5 of them), round.
type Shape = (f32, Vec<[f32; 3]>, bool);

/// A contact: its two bodies, and its manifold in each step (`None`: no
/// constraint that step).
type Contact = (usize, usize, Vec<Option<Shape>>);

const STEPS: usize = 4;

/// A body's seed and kind (see [`body`]).
type Seed = ([f32; 6], u8);

fn case() -> impl Strategy<Value = (Vec<Seed>, Vec<Contact>, Vec<bool>)> {
    let seeds = prop::collection::vec((prop::array::uniform6(-2.0f32..2.0), any::<u8>()), 2..16);
    seeds.prop_flat_map(|bodies| {
        let n = bodies.len();
        let shape = (
            -3.2f32..3.2,
            prop::collection::vec(prop::array::uniform3(-2.0f32..2.0), 1..=5),
            any::<bool>(),
        );
        let contact = (
            0..n,
            0..n,
            prop::collection::vec(prop::option::weighted(0.8, shape), STEPS..=STEPS),
        )
            .prop_filter("two bodies", |c| c.0 != c.1);
        (
            Just(bodies),
            prop::collection::vec(contact, 0..40),
            prop::collection::vec(any::<bool>(), STEPS..=STEPS),
        )
    })
}

/// The manifold of a step's shape.
fn manifold_of((angle, points, _): &Shape) -> Manifold {
    manifold(*angle, points)
}

/// The colour-taking side of body `i`: its index, if it can move.
fn side(bodies: &[SolverBody], turns: &[BodyTurn], i: usize) -> Option<u32> {
    (bodies[i].inv_mass != 0.0 || turns[i].inv_inertia != 0.0).then_some(i as u32)
}

/// Runs the steps of `contacts` in `wide`, forgetting the lanes before the
/// steps flagged in `forget`; checks each step against the scalar solver
/// and returns each step's colours.
fn run(
    wide: &mut WideContacts,
    seeds: &[Seed],
    contacts: &[Contact],
    forget: &[bool],
) -> Result<Vec<Vec<u8>>, TestCaseError> {
    let (bodies, turns): (Vec<SolverBody>, Vec<BodyTurn>) =
        seeds.iter().map(|(s, k)| body(s, *k)).unzip();
    let settings = ContactSettings::default();
    let softness = ContactSoftness::new(&settings, 1.0 / INV_H);
    let mut held: Vec<(u8, LaneRef)> = contacts.iter().map(|_| (NO_COLOR, LaneRef::NONE)).collect();
    let mut colours = Vec::new();
    for step in 0..STEPS {
        wide.begin_kept(bodies.len(), &settings, softness);
        if forget[step] {
            wide.forget_kept();
        }
        if wide.needs_rebuild() {
            wide.rebuild_kept(
                held.iter_mut()
                    .zip(contacts)
                    .map(|((color, _), (a, b, _))| {
                        (
                            color,
                            Some([side(&bodies, &turns, *a), side(&bodies, &turns, *b)]),
                        )
                    }),
            );
        }
        let mut expected = Vec::new();
        for (id, ((a, b, shapes), (color, lane))) in contacts.iter().zip(&mut held).enumerate() {
            let sides = [side(&bodies, &turns, *a), side(&bodies, &turns, *b)];
            let Some(shape) = &shapes[step] else {
                wide.release(color, lane, sides);
                continue;
            };
            let m = manifold_of(shape);
            let centres = (Vec2::new(0.1, -0.2), Vec2::new(-0.3, 0.4));
            wide.refresh_manifold(
                id as u32,
                (color, lane),
                &bodies,
                &turns,
                (*a, *b),
                sides,
                centres,
                &m,
                (0.6, 0.3),
                shape.2,
                warm,
            )
            .expect("indices in range");
            if m.points.len() > 4 {
                prop_assert_eq!(*color, NO_COLOR, "five points hold no colour");
            }
            let c = ContactConstraint::new(
                &bodies, &turns, *a, *b, centres.0, centres.1, &m, 0.6, 0.3, shape.2, warm,
            )
            .expect("indices in range");
            expected.push((id as u32, c));
        }
        wide.end_kept();
        // Every constraint once, by its id.
        let order = wide.solve_order();
        let mut sorted = order.clone();
        sorted.sort_unstable();
        prop_assert_eq!(
            &sorted,
            &expected.iter().map(|(id, _)| *id).collect::<Vec<_>>()
        );
        // No colour names one movable body twice.
        let mut taken = std::collections::BTreeSet::new();
        for ((a, b, _), (color, _)) in contacts.iter().zip(&held) {
            if *color == NO_COLOR {
                continue;
            }
            for s in [side(&bodies, &turns, *a), side(&bodies, &turns, *b)]
                .into_iter()
                .flatten()
            {
                prop_assert!(
                    taken.insert((*color, s)),
                    "colour {} twice on body {}",
                    color,
                    s
                );
            }
        }
        // The lanes against the scalar passes in that order.
        let mut scalar: Vec<ContactConstraint> = Vec::new();
        let by_id = |id: u32| {
            expected
                .iter()
                .find(|(i, _)| *i == id)
                .map(|(_, c)| c.clone())
        };
        for &id in &order {
            scalar.push(by_id(id).expect("listed"));
        }
        let (mut lane_bodies, mut scalar_bodies) = (bodies.clone(), bodies.clone());
        wide.warm_start(&mut lane_bodies);
        for c in &scalar {
            warm_start_constraint(&mut scalar_bodies, c);
        }
        for use_bias in [true, false] {
            wide.solve(&mut lane_bodies, INV_H, use_bias);
            for c in &mut scalar {
                solve_constraint(&mut scalar_bodies, c, &settings, softness, INV_H, use_bias);
            }
        }
        wide.restitution(&mut lane_bodies);
        for c in &mut scalar {
            apply_restitution(&mut scalar_bodies, std::slice::from_mut(c), &settings);
        }
        prop_assert_eq!(
            body_bits(&lane_bodies),
            body_bits(&scalar_bodies),
            "step {}",
            step
        );
        colours.push(held.iter().map(|(color, _)| *color).collect());
    }
    Ok(colours)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1_000))]

    #[test]
    fn kept_lanes_solve_as_the_scalar_solver_and_forgetting_them_changes_nothing(
        (seeds, contacts, forget) in case()
    ) {
        let kept = run(&mut WideContacts::default(), &seeds, &contacts, &[false; STEPS])?;
        let forgotten = run(&mut WideContacts::default(), &seeds, &contacts, &forget)?;
        prop_assert_eq!(kept, forgotten);
    }
}

#[test]
fn a_rebuild_drops_colours_out_of_range_or_taken_twice() {
    let settings = ContactSettings::default();
    let softness = ContactSoftness::new(&settings, 1.0 / INV_H);
    let mut wide = WideContacts::default();
    wide.begin_kept(4, &settings, softness);
    assert!(wide.needs_rebuild(), "a fresh solver has no lanes yet");
    // Colour 3 on bodies 0 and 1, again on body 1 (taken twice), 40 (out
    // of range), 3 on a contact whose colliders are gone, 3 on bodies 2
    // and a static side.
    let mut colours = [3, 3, 40, 3, 3, NO_COLOR];
    let sides = [
        Some([Some(0), Some(1)]),
        Some([Some(1), Some(2)]),
        Some([Some(2), Some(3)]),
        None,
        Some([Some(2), None]),
        Some([Some(3), None]),
    ];
    wide.rebuild_kept(colours.iter_mut().zip(sides));
    assert_eq!(colours, [3, NO_COLOR, NO_COLOR, NO_COLOR, 3, NO_COLOR]);
    assert!(!wide.needs_rebuild());
    assert_eq!(wide.kept_color_count(), 4);
}

#[test]
fn a_copy_of_a_lane_reference_names_no_lane() {
    let (bodies, turns) = (
        vec![SolverBody::FIXED, body(&[0.5; 6], 3).0],
        vec![BodyTurn::default(), body(&[0.5; 6], 3).1],
    );
    let settings = ContactSettings::default();
    let mut wide = WideContacts::default();
    wide.begin_kept(2, &settings, ContactSoftness::new(&settings, 1.0 / INV_H));
    wide.rebuild_kept(std::iter::empty());
    let (mut color, mut lane) = (NO_COLOR, LaneRef::NONE);
    let m = manifold(0.3, &[[0.0, 0.0, 1.0]]);
    wide.refresh_manifold(
        0,
        (&mut color, &mut lane),
        &bodies,
        &turns,
        (0, 1),
        [None, Some(1)],
        (Vec2::new(0.0, 0.0), Vec2::new(0.0, 1.0)),
        &m,
        (0.6, 0.0),
        true,
        warm,
    )
    .unwrap();
    assert_eq!(color, 0);
    assert_ne!(lane, LaneRef::NONE);
    assert_eq!(lane.clone(), LaneRef::NONE);
}
