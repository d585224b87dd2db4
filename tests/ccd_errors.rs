//! Bad input to casts and time of impact is a typed error, never a panic or
//! a NaN; motionless input is valid and answers "no hit" or "overlapping":
//! - every `CastError` variant: NaN / infinite / out-of-range shot points,
//!   negative / NaN / infinite radius, ranges outside `[0, 1]` or reversed,
//!   invalid target poses (with the target's index in `cast_all`);
//! - every `ToiError` variant: NaN / infinite / out-of-range motions (linear
//!   and angular, naming the shape), invalid poses, infinite lines, invalid
//!   swept bodies;
//! - zero-length shots and zero motions, for every solid kind.

use circlet::math::{Pose, Real, vec2};
use circlet::query::cast::{CastError, MAX_SHOT_COORDINATE, Shot, cast, cast_all};
use circlet::query::time_of_impact::{
    MAX_ANGULAR_MOTION, MAX_LINEAR_MOTION, Motion, SweptBody, ToiError, ToiStatus,
    conservative_advancement, time_of_impact,
};
use circlet::shape::{
    Aabb, Capsule, Circle, CircleTree, ConvexPolygon, Corner, Line, OrientedRect, Shape,
    SimplePolygon, TileTriangle,
};

fn solids() -> Vec<Shape> {
    vec![
        Circle::new(vec2(0.1, 0.0), 0.5).unwrap().into(),
        Capsule::new(vec2(-0.4, 0.0), vec2(0.4, 0.1), 0.2)
            .unwrap()
            .into(),
        Aabb::new(vec2(-0.5, -0.3), vec2(0.5, 0.3)).unwrap().into(),
        OrientedRect::new(vec2(0.0, 0.0), vec2(0.5, 0.2), 0.4)
            .unwrap()
            .into(),
        ConvexPolygon::regular(7, 0.5, 0.1).unwrap().into(),
        TileTriangle::new(vec2(-0.5, -0.5), vec2(0.5, 0.5), Corner::UpperLeft)
            .unwrap()
            .into(),
        SimplePolygon::new(&[
            vec2(-0.5, -0.5),
            vec2(0.5, -0.5),
            vec2(0.5, 0.5),
            vec2(0.0, -0.1),
            vec2(-0.5, 0.5),
        ])
        .unwrap()
        .into(),
        CircleTree::from_leaves(
            &[
                Circle::new(vec2(-0.2, 0.0), 0.35).unwrap(),
                Circle::new(vec2(0.3, 0.05), 0.3).unwrap(),
            ],
            2,
        )
        .unwrap()
        .into(),
    ]
}

#[test]
fn shot_errors() {
    let (o, x) = (vec2(0.0, 0.0), vec2(1.0, 0.0));
    assert_eq!(
        Shot::ray(vec2(Real::NAN, 0.0), x),
        Err(CastError::NonFinite { field: "start" })
    );
    assert_eq!(
        Shot::ray(o, vec2(0.0, Real::INFINITY)),
        Err(CastError::NonFinite { field: "end" })
    );
    assert_eq!(
        Shot::ray(o, vec2(2.0 * MAX_SHOT_COORDINATE, 0.0)),
        Err(CastError::OutOfRange { field: "end" })
    );
    assert_eq!(
        Shot::new(o, x, -0.1),
        Err(CastError::InvalidRadius { radius: -0.1 })
    );
    assert!(matches!(
        Shot::new(o, x, Real::NAN),
        Err(CastError::InvalidRadius { .. })
    ));
    assert!(matches!(
        Shot::new(o, x, Real::INFINITY),
        Err(CastError::InvalidRadius { .. })
    ));
    assert!(
        matches!(Shot::thick(o, x, -0.02), Err(CastError::InvalidRadius { radius }) if radius == -0.01)
    );
    let shot = Shot::ray(o, x).unwrap();
    for (min, max) in [
        (-0.1, 0.5),
        (0.2, 1.1),
        (0.7, 0.3),
        (Real::NAN, 0.5),
        (0.0, Real::NAN),
    ] {
        assert!(
            matches!(
                shot.with_range(min, max),
                Err(CastError::InvalidRange { .. })
            ),
            "[{min}, {max}]"
        );
    }
    assert!(shot.with_range(0.0, 0.0).is_ok() && shot.with_range(1.0, 1.0).is_ok());
    // Every error says what is wrong.
    assert!(
        Shot::new(o, x, -0.1)
            .unwrap_err()
            .to_string()
            .contains("radius")
    );
}

#[test]
fn cast_pose_errors_name_the_target() {
    let ball = Shape::from(Circle::new(vec2(0.0, 0.0), 1.0).unwrap());
    let shot = Shot::ray(vec2(-5.0, 0.0), vec2(5.0, 0.0)).unwrap();
    let zero_scale = Pose::IDENTITY.with_scale(0.0);
    assert!(matches!(
        cast(&shot, &ball, &zero_scale),
        Err(CastError::InvalidPose { index: 0, .. })
    ));
    let nan = Pose::from_translation(vec2(0.0, Real::NAN));
    let result = cast_all(
        &shot,
        [
            (&ball, &Pose::IDENTITY),
            (&ball, &Pose::IDENTITY),
            (&ball, &nan),
        ],
    );
    assert!(matches!(
        result,
        Err(CastError::InvalidPose { index: 2, .. })
    ));
}

#[test]
fn zero_length_shots_hit_only_when_inside() {
    for target in &solids() {
        let inside = Shot::ray(vec2(0.05, -0.05), vec2(0.05, -0.05)).unwrap();
        let outside = Shot::new(vec2(3.0, 3.0), vec2(3.0, 3.0), 0.5).unwrap();
        let hit = cast(&inside, target, &Pose::IDENTITY)
            .unwrap()
            .expect("starts inside");
        assert!(
            hit.started_inside && hit.fraction == 0.0,
            "{:?}",
            target.kind()
        );
        assert!((hit.normal.norm() - 1.0).abs() < 1e-5 && hit.point.x.is_finite());
        assert_eq!(
            cast(&outside, target, &Pose::IDENTITY).unwrap(),
            None,
            "{:?}",
            target.kind()
        );
    }
}

#[test]
fn motion_errors_name_the_shape_and_field() {
    let ball = Shape::from(Circle::new(vec2(0.0, 0.0), 1.0).unwrap());
    let (here, there) = (Pose::IDENTITY, Pose::from_translation(vec2(5.0, 0.0)));
    let toi = |ma: Motion, mb: Motion| time_of_impact(&ball, &here, &ma, &ball, &there, &mb);
    let still = Motion::ZERO;
    let cases = [
        (
            Motion::linear(vec2(Real::NAN, 0.0)),
            still,
            ToiError::NonFiniteMotion {
                which: "a",
                field: "linear",
            },
        ),
        (
            still,
            Motion::linear(vec2(0.0, Real::NEG_INFINITY)),
            ToiError::NonFiniteMotion {
                which: "b",
                field: "linear",
            },
        ),
        (
            Motion::new(vec2(1.0, 0.0), Real::NAN),
            still,
            ToiError::NonFiniteMotion {
                which: "a",
                field: "angular",
            },
        ),
        (
            still,
            Motion::linear(vec2(2.0 * MAX_LINEAR_MOTION, 0.0)),
            ToiError::MotionOutOfRange {
                which: "b",
                field: "linear",
            },
        ),
        (
            Motion::new(vec2(0.0, 0.0), 2.0 * MAX_ANGULAR_MOTION),
            still,
            ToiError::MotionOutOfRange {
                which: "a",
                field: "angular",
            },
        ),
    ];
    for (motion_a, motion_b, expected) in cases {
        assert_eq!(toi(motion_a, motion_b), Err(expected));
    }
    let bad_pose = Pose::IDENTITY.with_scale(-2.0);
    assert!(matches!(
        time_of_impact(&ball, &here, &still, &ball, &bad_pose, &still),
        Err(ToiError::InvalidPose { which: "b", .. })
    ));
    let line = Shape::from(Line::new(vec2(0.0, 0.0), vec2(0.0, 1.0)).unwrap());
    assert!(matches!(
        time_of_impact(&ball, &here, &still, &line, &there, &still),
        Err(ToiError::UnsupportedShape { which: "b", .. })
    ));
    // A line against a circle tree, either way round, spinning or not.
    let tree = solids().pop().unwrap();
    let spin = Motion::new(vec2(0.0, 0.0), 1.0);
    for motion in [still, spin] {
        assert!(matches!(
            time_of_impact(&line, &here, &motion, &tree, &there, &still),
            Err(ToiError::UnsupportedShape { which: "a", .. })
        ));
        assert!(matches!(
            time_of_impact(&tree, &here, &motion, &line, &there, &still),
            Err(ToiError::UnsupportedShape { which: "b", .. })
        ));
    }
    let mut body = SweptBody::from_shape(&ball, here, still);
    body.length_scale = Real::NAN;
    let good = SweptBody::from_shape(&ball, there, still);
    assert_eq!(
        conservative_advancement(&body, &good, |_, _| None),
        Err(ToiError::InvalidBody { which: "a" })
    );
    assert!(
        toi(Motion::linear(vec2(Real::NAN, 0.0)), still)
            .unwrap_err()
            .to_string()
            .contains("shape a")
    );
}

#[test]
fn zero_motion_is_no_hit_or_overlapping_for_every_pair() {
    for a in &solids() {
        for b in &solids() {
            let apart = time_of_impact(
                a,
                &Pose::IDENTITY,
                &Motion::ZERO,
                b,
                &Pose::new(vec2(2.5, 0.3), 0.7),
                &Motion::ZERO,
            );
            assert_eq!(apart.unwrap(), None, "{:?} {:?}", a.kind(), b.kind());
            let overlapping = time_of_impact(
                a,
                &Pose::IDENTITY,
                &Motion::ZERO,
                b,
                &Pose::new(vec2(0.3, 0.1), 0.7),
                &Motion::ZERO,
            );
            let toi = overlapping
                .unwrap()
                .unwrap_or_else(|| panic!("{:?} {:?}", a.kind(), b.kind()));
            assert_eq!(toi.status, ToiStatus::OverlappingAtStart);
            assert_eq!(toi.fraction, 0.0);
            assert!((toi.normal.norm() - 1.0).abs() < 1e-5 && toi.point.x.is_finite());
        }
    }
}

#[test]
fn zero_linear_motion_with_spin_still_answers() {
    // Needs the crate's closest_points (conservative advancement): after merge.
    let ball = Shape::from(Circle::new(vec2(0.0, 0.0), 0.5).unwrap());
    let bar = Shape::from(OrientedRect::new(vec2(1.5, 0.0), vec2(1.5, 0.05), 0.0).unwrap());
    let still_spin = Motion::new(vec2(0.0, 0.0), 0.0);
    let far = Pose::from_translation(vec2(0.0, 2.0));
    // Motionless pairs never reach conservative advancement.
    assert_eq!(
        time_of_impact(&ball, &far, &still_spin, &bar, &Pose::IDENTITY, &still_spin).unwrap(),
        None
    );
    // The bar swings a quarter turn about the origin up into the ball at (0, 2).
    let spin = Motion::new(vec2(0.0, 0.0), std::f32::consts::FRAC_PI_2);
    let toi = time_of_impact(&ball, &far, &Motion::ZERO, &bar, &Pose::IDENTITY, &spin)
        .unwrap()
        .unwrap();
    assert!(toi.fraction > 0.5 && toi.fraction < 1.0, "{toi:?}");
    let short = Motion::new(vec2(0.0, 0.0), 0.3);
    assert_eq!(
        time_of_impact(&ball, &far, &Motion::ZERO, &bar, &Pose::IDENTITY, &short).unwrap(),
        None
    );
}
