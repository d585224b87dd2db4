//! `contact_with_margin` computes convex polygon pairs, and discs, points,
//! capsules and segments against convex polygons, in the frame of one of the
//! shapes; `contact_placed` on shapes placed in the world runs the same pair
//! functions in world coordinates. The two must agree up to rounding,
//! 10,000 cases each. Locks:
//! - both `None`, or both a manifold with the same feature ids, normals
//!   within 1e-4, and each point (matched by id) within 5e-5 × the pair's
//!   reach, its depth within 2e-5 × the reach;
//! - a normal that differs is accepted when it is itself a minimum
//!   translation direction (moving B along it by depth ± 1e-4 m separates /
//!   keeps the pair): where the reference faces of A and B tie to within
//!   rounding, either face is the answer (the ids are the same by design);
//! - any other disagreement is accepted only where one of the two answers is
//!   itself on a boundary that rounding decides: moving B by 1e-5 × the
//!   reach (ten roundings) in one of eight directions changes its ids, its
//!   normal by more than 1e-4, or whether there is a contact (a vertex at
//!   the very end of an edge, a point exactly at the margin). Either side:
//!   near corners of two boxes apart are taken for corners of flush faces
//!   (two points, the face clipped) when they are offset along the face by
//!   at most a millionth of the largest coordinate, and as two corners (one
//!   point) beyond; at an offset right at that line one path may take them
//!   as flush where the other, rounding in its own frame, does not;
//! - over random pairs of every convex kind, and of every kind with points
//!   and segments (margins 0–0.3 m), and over boxes
//!   stacked flat or nearly so up to 100 m from the origin with the world's
//!   margin, where the reference faces of both boxes tie.
//!
//! Tolerances: a manifold from world coordinates carries a few roundings of
//! the largest coordinate (6e-6 × reach each); runs of 1,000,000 random cases
//! stayed below 1.6e-5 × reach for points, 6e-6 × reach for depths and 7.5e-5
//! for normals wherever the ids agreed.

mod support;

use circlet::math::{Pose, Real, Vec2, vec2};
use circlet::query::contact::contact_placed;
use circlet::query::{FeatureId, Manifold, Placed, contact_with_margin};
use circlet::shape::{Aabb, ConvexPolygon, Shape};
use proptest::prelude::*;
use std::f32::consts::PI;
use support::contact::*;

/// Largest normal difference between the two paths (unit vectors).
const NORMAL_TOLERANCE: Real = 1e-4;
/// Largest point difference, as a fraction of the pair's reach.
const POINT_TOLERANCE: Real = 5e-5;
/// Largest depth difference, as a fraction of the pair's reach.
const DEPTH_TOLERANCE: Real = 2e-5;
/// Move of B, as a fraction of the reach, that tells a configuration on a
/// boundary decided by rounding.
const NUDGE: Real = 1e-5;

/// The world's speculative margin (metres).
const WORLD_MARGIN: Real = 0.02;

fn world_frame(pair: &Pair, margin: Real) -> Option<Manifold> {
    contact_placed(
        &Placed::new(&pair.a, &pair.pose_a),
        &Placed::new(&pair.b, &pair.pose_b),
        margin,
    )
}

fn sorted_ids(m: &Manifold) -> Vec<FeatureId> {
    let mut ids: Vec<FeatureId> = m.points.iter().map(|p| p.id).collect();
    ids.sort();
    ids
}

/// Why the two manifolds differ beyond rounding, if they do. A normal that
/// differs is accepted when it is itself a minimum translation direction.
fn disagreement(pair: &Pair, fast: &Option<Manifold>, world: &Option<Manifold>) -> Option<String> {
    let reach = pair.reach().max(1.0);
    match (fast, world) {
        (None, None) => None,
        (Some(f), Some(w)) => {
            if sorted_ids(f) != sorted_ids(w) {
                return Some(format!("ids {:?} vs {:?}", sorted_ids(f), sorted_ids(w)));
            }
            if (f.normal - w.normal).norm() > NORMAL_TOLERANCE
                && !is_minimum_translation(pair, f.normal, f.depth())
            {
                return Some(format!("normals {:?} vs {:?}", f.normal, w.normal));
            }
            for p in &f.points {
                let q = w.points.iter().find(|q| q.id == p.id)?;
                if (p.point - q.point).norm() > POINT_TOLERANCE * reach {
                    return Some(format!("points {:?} vs {:?}", p.point, q.point));
                }
                if (p.depth - q.depth).abs() > DEPTH_TOLERANCE * reach {
                    return Some(format!("depths {} vs {}", p.depth, q.depth));
                }
            }
            None
        }
        _ => Some(format!(
            "contact {:?} vs {:?}",
            fast.as_ref().map(Manifold::depth),
            world.as_ref().map(Manifold::depth)
        )),
    }
}

/// True when moving B along `normal` by `depth + ε` leaves the pair apart
/// and by `depth - ε` makes it touch (world frame, no margin; `ε` = 1e-4 m,
/// as in `contact_properties`): near a tie between two faces either face's
/// normal is a right answer. A negative depth moves B towards A.
fn is_minimum_translation(pair: &Pair, normal: Vec2, depth: Real) -> bool {
    const EPSILON: Real = 1e-4;
    let apart = world_frame(&pair.with_b_moved(normal * (depth + EPSILON)), 0.0).is_none();
    let touching = depth.abs() < 2.0 * EPSILON
        || world_frame(&pair.with_b_moved(normal * (depth - EPSILON)), 0.0).is_some();
    apart && touching
}

/// True when moving B by [`NUDGE`] × reach changes `answer`'s ids, its
/// normal by more than [`NORMAL_TOLERANCE`], or its existence, `contact`
/// being the path that gave it.
fn answer_is_fragile(
    pair: &Pair,
    margin: Real,
    answer: &Option<Manifold>,
    contact: impl Fn(&Pair, Real) -> Option<Manifold>,
) -> bool {
    let step = NUDGE * pair.reach().max(1.0);
    (0..8).any(|k| {
        let angle = k as Real * PI / 4.0;
        let nudged = contact(
            &pair.with_b_moved(vec2(angle.cos(), angle.sin()) * step),
            margin,
        );
        match (answer, &nudged) {
            (None, None) => false,
            (Some(w), Some(n)) => {
                sorted_ids(w) != sorted_ids(n) || (w.normal - n.normal).norm() > NORMAL_TOLERANCE
            }
            _ => true,
        }
    })
}

fn check_agreement(pair: &Pair, margin: Real) -> Result<(), TestCaseError> {
    let fast = contact_with_margin(&pair.a, &pair.pose_a, &pair.b, &pair.pose_b, margin);
    let world = world_frame(pair, margin);
    if let Some(why) = disagreement(pair, &fast, &world) {
        let shape_frame = |pair: &Pair, margin: Real| {
            contact_with_margin(&pair.a, &pair.pose_a, &pair.b, &pair.pose_b, margin)
        };
        prop_assert!(
            answer_is_fragile(pair, margin, &world, world_frame)
                || answer_is_fragile(pair, margin, &fast, shape_frame),
            "{why} ({:?} vs {:?}): {fast:?} vs {world:?}",
            pair.a.kind(),
            pair.b.kind()
        );
    }
    Ok(())
}

/// A box of half extents `half` as an [`Aabb`] or as a [`ConvexPolygon`].
fn box_shape(half: (Real, Real), as_aabb: bool) -> Shape {
    let (min, max) = (vec2(-half.0, -half.1), vec2(half.0, half.1));
    if as_aabb {
        Shape::from(Aabb::new(min, max).unwrap())
    } else {
        Shape::from(ConvexPolygon::rectangle(min, max).unwrap())
    }
}

/// Two boxes, B standing on A's top face: offset sideways by up to the mean
/// width, up to 3 cm into or off the face, tilted by up to 0.01 rad or not
/// at all, the pair turned and placed anywhere within 100 m.
fn stacked_boxes() -> impl Strategy<Value = Pair> {
    (
        (vector(0.2, 2.0), vector(0.2, 2.0), any::<bool>()),
        (vector(-100.0, 100.0), prop_oneof![Just(0.0), angle()]),
        (
            real(-1.0, 1.0),
            real(-0.03, 0.03),
            prop_oneof![Just(0.0), real(-0.01, 0.01)],
        ),
    )
        .prop_map(
            |((half_a, half_b, as_aabb), (origin, turn), (sideways, lift, tilt))| {
                let common = Pose::new(origin, turn);
                let on_top = vec2(
                    sideways * (half_a.x + half_b.x) * 0.5,
                    half_a.y + half_b.y + lift,
                );
                Pair {
                    a: box_shape((half_a.x, half_a.y), as_aabb),
                    pose_a: common,
                    b: box_shape((half_b.x, half_b.y), false),
                    pose_b: common.compose(&Pose::new(on_top, tilt)),
                }
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(10_000))]

    #[test]
    fn shape_frame_agrees_with_world_frame(pair in pair_of(convex_solid()), margin in real(0.0, 0.3)) {
        check_agreement(&pair, margin)?;
    }

    #[test]
    fn points_segments_and_every_kind_agree_with_world_frame(pair in pair_of(any_shape()), margin in real(0.0, 0.3)) {
        check_agreement(&pair, margin)?;
    }

    #[test]
    fn stacked_boxes_agree_with_world_frame(pair in stacked_boxes()) {
        check_agreement(&pair, WORLD_MARGIN)?;
    }
}
