//! Bad input to the solver layer (`circlet::dynamics`) is a typed error or
//! a documented stand-in, never a panic:
//! - `ContactConstraint::new` and `WideContacts::push_manifold` refuse a
//!   body index past the solver bodies or their turns
//!   (`SolverError::BodyIndex`, naming the side, the index and both
//!   lengths), and the refused manifold adds nothing;
//! - a constraint whose public `body_b` was changed to such an index after
//!   it was built (even one too large for 32 bits) is solved without a
//!   panic, its side past the bodies
//!   standing for a body that does not move: the scalar passes and the
//!   lanes give the same bodies bit for bit, and match the same constraint
//!   built against the fixed body 0 with no inertia on that side.

use circlet::dynamics::{
    BodyTurn, ContactConstraint, ContactSettings, ContactSoftness, SolverBody, SolverError,
    WideContacts, apply_restitution, solve_constraint, warm_start_constraint,
};
use circlet::math::{Rot2, Vec2};
use circlet::query::{ContactPoint, FeatureId, Manifold};

/// The fixed body 0 and two moving bodies; their turns.
fn bodies() -> (Vec<SolverBody>, Vec<BodyTurn>) {
    let moving = |vx: f32, vy: f32| SolverBody {
        linear_velocity: Vec2::new(vx, vy),
        angular_velocity: 0.3,
        delta_position: Vec2::zeros(),
        delta_rotation: Rot2::identity(),
        inv_mass: 1.0,
    };
    let turn = |inv_inertia: f32| BodyTurn {
        inv_inertia,
        delta_angle: 0.0,
    };
    (
        vec![SolverBody::FIXED, moving(0.0, -2.0), moving(0.5, 1.0)],
        vec![turn(0.0), turn(6.0), turn(6.0)],
    )
}

/// Two points along a normal tilted from +y, overlapping by 1 cm.
fn manifold() -> Manifold {
    let point = |x: f32, id: u32| ContactPoint {
        point: Vec2::new(x, 0.0),
        depth: 0.01,
        id: FeatureId(id),
        part_a: None,
        part_b: None,
    };
    Manifold {
        normal: Vec2::new(0.1, 1.0).normalize(),
        points: [point(-0.4, 1), point(0.4, 2)].into_iter().collect(),
    }
}

fn build(
    (bodies, turns): (&[SolverBody], &[BodyTurn]),
    a: usize,
    b: usize,
) -> Result<ContactConstraint, SolverError> {
    ContactConstraint::new(
        bodies,
        turns,
        a,
        b,
        Vec2::new(0.0, -0.5),
        Vec2::new(0.0, 0.5),
        &manifold(),
        0.6,
        0.5,
        false,
        |_| (0.2, 0.05),
    )
}

#[test]
fn a_constraint_past_the_bodies_is_refused() {
    let (bodies, turns) = bodies();
    assert_eq!(
        build((&bodies, &turns), 1, 3).unwrap_err(),
        SolverError::BodyIndex {
            side: "B",
            index: 3,
            bodies: 3,
            turns: 3
        }
    );
    assert!(matches!(
        build((&bodies, &turns), usize::MAX, 1),
        Err(SolverError::BodyIndex { side: "A", .. })
    ));
    // In range of the bodies but not of their turns.
    assert_eq!(
        build((&bodies, &turns[..2]), 1, 2).unwrap_err(),
        SolverError::BodyIndex {
            side: "B",
            index: 2,
            bodies: 3,
            turns: 2
        }
    );
    let message = build((&bodies, &turns), 1, 3).unwrap_err().to_string();
    assert!(
        message.contains("body B") && message.contains("index 3"),
        "{message}"
    );
}

#[test]
fn a_manifold_past_the_bodies_adds_nothing() {
    let (bodies, turns) = bodies();
    let settings = ContactSettings::default();
    let mut wide = WideContacts::default();
    wide.begin(
        &bodies,
        &settings,
        ContactSoftness::new(&settings, 1.0 / 240.0),
    );
    let refused = wide.push_manifold(
        &bodies,
        &turns,
        2,
        7,
        Vec2::zeros(),
        Vec2::zeros(),
        &manifold(),
        0.6,
        0.0,
        false,
        |_| (0.0, 0.0),
    );
    assert!(matches!(
        refused,
        Err(SolverError::BodyIndex {
            side: "B",
            index: 7,
            ..
        })
    ));
    assert!(wide.solve_order().is_empty());
    let mut after = bodies.clone();
    wide.warm_start(&mut after);
    wide.solve(&mut after, 240.0, true);
    assert_eq!(after, bodies);
}

#[test]
fn a_side_moved_past_the_bodies_stands_for_one_that_does_not_move() {
    moved_past_the_bodies(3);
}

/// A side moved to an index too large for the lanes' 32-bit indices is past
/// the bodies too, not the body its low 32 bits name (body 2 here).
#[cfg(target_pointer_width = "64")]
#[test]
fn a_side_past_32_bits_stands_for_one_that_does_not_move() {
    moved_past_the_bodies((1 << 32) + 2);
}

/// The constraint between bodies 1 and 2 with side B moved to `past`
/// (past the bodies) solves, in the scalar passes and in the lanes, as
/// against the fixed body with no inertia on that side.
fn moved_past_the_bodies(past_index: usize) {
    let (bodies, turns) = bodies();
    let settings = ContactSettings::default();
    let softness = ContactSoftness::new(&settings, 1.0 / 240.0);
    // Built between two moving bodies, then pointed past the bodies.
    let mut past = build((&bodies, &turns), 1, 2).unwrap();
    past.body_b = past_index;
    // The same constraint against the fixed body 0, no inertia on that side.
    let mut fixed = build((&bodies, &turns), 1, 2).unwrap();
    fixed.body_b = 0;
    fixed.inv_inertia[1] = 0.0;

    let scalar = |c: &ContactConstraint| {
        let (mut bodies, mut c) = (bodies.clone(), c.clone());
        warm_start_constraint(&mut bodies, &c);
        solve_constraint(&mut bodies, &mut c, &settings, softness, 240.0, true);
        solve_constraint(&mut bodies, &mut c, &settings, softness, 240.0, false);
        apply_restitution(&mut bodies, std::slice::from_mut(&mut c), &settings);
        bodies
    };
    let lanes = |c: &ContactConstraint| {
        let mut bodies = bodies.clone();
        let mut wide = WideContacts::default();
        wide.prepare(&bodies, std::slice::from_ref(c), &settings, softness);
        wide.warm_start(&mut bodies);
        wide.solve(&mut bodies, 240.0, true);
        wide.solve(&mut bodies, 240.0, false);
        wide.restitution(&mut bodies);
        bodies
    };
    let from_past = scalar(&past);
    assert_eq!(from_past, lanes(&past));
    assert_eq!(from_past, scalar(&fixed));
    // Body 1 was pushed; body 2 and the fixed body were not touched.
    assert_ne!(from_past[1], bodies[1]);
    assert_eq!(from_past[2], bodies[2]);
    assert_eq!(from_past[0], SolverBody::FIXED);
}
