//! Properties of `query::contact` over random convex solid shapes of every
//! kind (circle, capsule, aabb, oriented rect, convex polygon with 3–8
//! vertices, tile triangle) under random poses (angle, scale 0.2–5,
//! coordinates within ±20), 10,000 cases each. Locks:
//! - depth is the true penetration depth: moving B along the normal by
//!   depth + ε separates the pair, by depth − ε does not;
//! - symmetry: `contact(b, a)` has the opposite normal and the same depth;
//! - invariance: a common rotation + translation rotates the normal and moves
//!   the points; a common uniform scale scales the depth;
//! - no NaN, unit normals, and every point lies midway between the surfaces:
//!   within half its |depth| (+ 2ε) of both shapes' boundaries (also for
//!   points, segments, lines and simple polygons, with and without a
//!   speculative margin).
//!
//!
//! Circle trees (2–8 random leaf discs with parts, against every kind and
//! each other) lock what holds for a union of discs:
//! - symmetry: a tree against another kind is one function and its flip, so
//!   `contact(b, a)` is exactly `contact(a, b)` flipped; tree against tree
//!   has the opposite normal and the same depth;
//! - invariance: a common rotation + translation + scale scales the depth,
//!   keeps the set of touching leaves (unless a leaf is within ε of touching)
//!   and, with one touching leaf, rotates the normal and moves the point;
//! - every point names a leaf (feature id) and its part, lies midway between
//!   that leaf and the other shape, and `depth()` is the deepest leaf's
//!   contact depth (each leaf checked on its own as a circle).
//!
//! The depth property above (moving B by depth ± ε) does NOT hold for trees:
//! the reduced normal averages the leaves' normals, and the depth is the
//! deepest leaf's, not the minimum translation of a non-convex union.
//!
//! Tolerances: ε = 1e-4 m, not scaled with the shapes. The pairs reach about
//! 60 m at most (±20 m poses, shapes up to ~10 m, the common motion), where
//! one f32 rounding is ~4e-6 m and a depth computed from transformed vertices
//! carries a few of them, so ε leaves a factor of ~10; runs of 300,000 cases
//! per property pass with it. Depths compared across a swap agree within
//! 1e-5 × the largest coordinate (the reference face bias is 1e-6 of the size).
//! A contact normal is ill-conditioned near a tie between two faces or for a
//! disc centred on a vertex (the depth is not): a normal that differs is
//! accepted when it is itself a minimum translation direction within ε.

mod support;

use circlet::math::{Pose, Real, Vec2, vec2};
use circlet::query::tree::{self, LeafContact};
use circlet::query::{Manifold, contact, contact_with_margin};
use circlet::shape::Shape;
use proptest::prelude::*;
use std::f32::consts::PI;
use support::contact::*;

/// ε of the module docs (metres).
const EPSILON: Real = 1e-4;

/// True when `normal` is as good a contact normal for `pair` as the one it
/// is compared with: either the two agree, or moving B along `normal` by
/// `depth ± ε` also separates / keeps the pair (near ties between two faces,
/// or a disc centred close to a vertex, leave the direction ill-conditioned
/// while the depth stays exact).
fn is_minimum_translation(pair: &Pair, normal: Vec2, depth: Real) -> bool {
    let separates = pair
        .with_b_moved(normal * (depth + EPSILON))
        .contact()
        .is_none();
    let short = depth < 2.0 * EPSILON
        || pair
            .with_b_moved(normal * (depth - EPSILON))
            .contact()
            .is_some();
    separates && short
}

/// True when moving B by ε in some direction changes the number of points:
/// the pair sits on a boundary between manifold kinds (an incident vertex on a
/// side plane, a closest point at the end of an edge, a second point exactly
/// touching), where rounding alone may pick either count.
fn point_count_is_fragile(pair: &Pair) -> bool {
    let count = pair.contact().map_or(0, |m| m.points.len());
    (0..8).any(|k| {
        let angle = k as Real * PI / 4.0;
        let nudged = pair.with_b_moved(vec2(angle.cos(), angle.sin()) * EPSILON);
        nudged.contact().map_or(0, |m| m.points.len()) != count
    })
}

/// Checks finiteness, the unit normal, depths against the margin and that
/// each point lies within the depth of both surfaces. Only meaningful for
/// convex shapes and for points of simple polygons (the union's distance
/// taken as the nearest piece's).
fn check_manifold(pair: &Pair, m: &Manifold, margin: Real) -> Result<(), TestCaseError> {
    let tolerance = 2.0 * EPSILON;
    prop_assert!(
        m.normal.x.is_finite() && m.normal.y.is_finite(),
        "normal {:?}",
        m.normal
    );
    prop_assert!(
        (m.normal.norm() - 1.0).abs() < 1e-5,
        "normal not unit: {:?}",
        m.normal
    );
    prop_assert!(
        !m.points.is_empty() && m.points.len() <= 2,
        "{} points",
        m.points.len()
    );
    for point in &m.points {
        prop_assert!(
            point.point.x.is_finite() && point.point.y.is_finite() && point.depth.is_finite()
        );
        prop_assert!(
            point.depth >= -margin - tolerance,
            "depth {} beyond margin {margin}",
            point.depth
        );
        // Midway between two surface points |depth| apart along the normal.
        let allowed = 0.5 * point.depth.abs() + tolerance;
        let to_a = signed_distance(&pair.a, &pair.pose_a, point.point);
        let to_b = signed_distance(&pair.b, &pair.pose_b, point.point);
        prop_assert!(
            to_a.abs() <= allowed,
            "point {:?} is {to_a} from A, depth {}",
            point.point,
            point.depth
        );
        prop_assert!(
            to_b.abs() <= allowed,
            "point {:?} is {to_b} from B, depth {}",
            point.point,
            point.depth
        );
    }
    Ok(())
}

/// Distance (m) from the centre of `leaf`'s circle in tree A to the core of
/// B (its centre, segment or leaf centre) for a round B: the lever of the
/// contact normal's rounding. `None` when A is no tree or B is not round.
fn core_distance(pair: &Pair, leaf: &LeafContact) -> Option<Real> {
    let Shape::Tree(tree) = &pair.a else {
        return None;
    };
    let radius_a = tree.nodes().get(leaf.node_a as usize)?.radius() * pair.pose_a.scale;
    let radius_b = match &pair.b {
        Shape::Circle(c) => c.radius(),
        Shape::Capsule(c) => c.radius(),
        Shape::Point(_) => 0.0,
        Shape::Tree(t) => t.nodes().get(leaf.node_b? as usize)?.radius(),
        _ => return None,
    } * pair.pose_b.scale;
    Some(radius_a + radius_b - leaf.depth)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(10_000))]

    #[test]
    fn depth_is_the_true_penetration(pair in pair_of(convex_solid())) {
        if let Some(m) = pair.contact() {
            let depth = m.depth();
            let beyond = pair.with_b_moved(m.normal * (depth + EPSILON));
            prop_assert!(beyond.contact().is_none(), "moved by depth {depth} + ε: {:?}", beyond.contact());
            if depth >= 2.0 * EPSILON {
                let short = pair.with_b_moved(m.normal * (depth - EPSILON));
                prop_assert!(short.contact().is_some(), "moved by depth {depth} - ε separates");
            }
        }
    }

    #[test]
    fn swapping_the_shapes_flips_the_normal(pair in pair_of(convex_solid())) {
        let ab = pair.contact();
        let ba = contact(&pair.b, &pair.pose_b, &pair.a, &pair.pose_a);
        match (ab, ba) {
            (None, None) => {}
            (Some(ab), Some(ba)) => {
                let tolerance = 1e-5 * pair.reach().max(1.0);
                prop_assert!((ab.depth() - ba.depth()).abs() <= tolerance, "depths {} vs {}", ab.depth(), ba.depth());
                prop_assert!(
                    (ab.normal + ba.normal).norm() < 1e-4 || is_minimum_translation(&pair, -ba.normal, ba.depth()),
                    "normals {:?} vs {:?}", ab.normal, ba.normal
                );
            }
            (ab, ba) => {
                // Only a pair touching within rounding may be seen one way and not the other.
                let depth = ab.or(ba).map_or(0.0, |m| m.depth());
                prop_assert!(depth.abs() <= 1e-5 * pair.reach().max(1.0), "one-sided contact of depth {depth}");
            }
        }
    }

    #[test]
    fn a_common_motion_moves_the_manifold(
        pair in pair_of(convex_solid()),
        turn in angle(),
        shift in vector(-10.0, 10.0),
        scale in real(0.5, 2.0),
    ) {
        // Scale about A's origin, turn about it and shift, keeping coordinates in range.
        let center = pair.pose_a.translation;
        let motion = Pose::from_translation(center + shift)
            .compose(&Pose::new(vec2(0.0, 0.0), turn).with_scale(scale))
            .compose(&Pose::from_translation(-center));
        let moved = Pair {
            a: pair.a.clone(),
            pose_a: motion.compose(&pair.pose_a),
            b: pair.b.clone(),
            pose_b: motion.compose(&pair.pose_b),
        };
        match (pair.contact(), moved.contact()) {
            (None, None) => {}
            (Some(before), Some(after)) => {
                let depth_tolerance = EPSILON * scale.max(1.0);
                prop_assert!(
                    (after.depth() - scale * before.depth()).abs() <= depth_tolerance,
                    "depth {} became {} under scale {scale}", before.depth(), after.depth()
                );
                let turned = motion.rotate(before.normal);
                let turned_back = motion.inverse_rotate(after.normal);
                prop_assert!(
                    (after.normal - turned).norm() < 1e-4
                        || is_minimum_translation(&pair, turned_back, after.depth() / scale),
                    "normal {:?} vs {:?}", after.normal, turned
                );
                prop_assert!(
                    before.points.len() == after.points.len()
                        || point_count_is_fragile(&pair)
                        || point_count_is_fragile(&moved),
                    "{} points became {}", before.points.len(), after.points.len()
                );
                // Where the manifold is the same one, its points moved along.
                let same_manifold = (after.normal - turned).norm() < 1e-4 && before.points.len() == after.points.len();
                if same_manifold {
                    for point in &after.points {
                        let nearest = before
                            .points
                            .iter()
                            .map(|p| (motion.transform_point(p.point) - point.point).norm())
                            .fold(Real::INFINITY, Real::min);
                        prop_assert!(nearest <= 10.0 * depth_tolerance, "point {:?} is {nearest} from its image", point.point);
                    }
                }
            }
            (before, after) => {
                let depth = before.map(|m| m.depth() * scale).or(after.map(|m| m.depth())).unwrap_or(0.0);
                prop_assert!(depth.abs() <= EPSILON * scale.max(1.0), "contact of depth {depth} lost or gained");
            }
        }
    }

    #[test]
    fn manifolds_are_finite_and_on_the_surfaces(pair in pair_of(convex_solid())) {
        if let Some(m) = pair.contact() {
            check_manifold(&pair, &m, 0.0)?;
        }
    }

    #[test]
    fn no_nan_for_any_kind_with_or_without_margin(pair in pair_of(any_shape()), margin in real(0.0, 1.0)) {
        for margin in [0.0, margin] {
            if let Some(m) = contact_with_margin(&pair.a, &pair.pose_a, &pair.b, &pair.pose_b, margin) {
                check_manifold(&pair, &m, margin)?;
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(10_000))]

    #[test]
    fn trees_swap_to_the_flipped_manifold(pair in pair_from(tree_shape(), with_trees()), margin in real(0.0, 0.5)) {
        let ab = contact_with_margin(&pair.a, &pair.pose_a, &pair.b, &pair.pose_b, margin);
        let ba = contact_with_margin(&pair.b, &pair.pose_b, &pair.a, &pair.pose_a, margin);
        if !matches!(pair.b, Shape::Tree(_)) {
            // One function for the pair, flipped for the other order.
            prop_assert_eq!(ab.map(Manifold::flipped), ba);
            return Ok(());
        }
        let tolerance = 1e-5 * pair.reach().max(1.0);
        match (ab, ba) {
            (None, None) => {}
            (Some(ab), Some(ba)) => {
                prop_assert!((ab.depth() - ba.depth()).abs() <= tolerance, "depths {} vs {}", ab.depth(), ba.depth());
                prop_assert!((ab.normal + ba.normal).norm() < 1e-4, "normals {:?} vs {:?}", ab.normal, ba.normal);
                prop_assert_eq!(ab.points.len(), ba.points.len());
            }
            (ab, ba) => {
                let depth = ab.or(ba).map_or(0.0, |m| m.depth());
                prop_assert!((depth + margin).abs() <= tolerance, "one-sided contact of depth {depth}");
            }
        }
    }

    #[test]
    fn tree_contacts_follow_a_common_motion(
        pair in pair_from(tree_shape(), with_trees()),
        turn in angle(),
        shift in vector(-10.0, 10.0),
        scale in real(0.5, 2.0),
    ) {
        let center = pair.pose_a.translation;
        let motion = Pose::from_translation(center + shift)
            .compose(&Pose::new(vec2(0.0, 0.0), turn).with_scale(scale))
            .compose(&Pose::from_translation(-center));
        let moved = Pair {
            a: pair.a.clone(),
            pose_a: motion.compose(&pair.pose_a),
            b: pair.b.clone(),
            pose_b: motion.compose(&pair.pose_b),
        };
        let tolerance = EPSILON * scale.max(1.0);
        let (before, after) = match (pair.contact(), moved.contact()) {
            (None, None) => return Ok(()),
            (Some(before), Some(after)) => (before, after),
            (before, after) => {
                let depth = before.map(|m| m.depth() * scale).or(after.map(|m| m.depth())).unwrap_or(0.0);
                prop_assert!(depth.abs() <= tolerance, "contact of depth {depth} lost or gained");
                return Ok(());
            }
        };
        prop_assert!((after.depth() - scale * before.depth()).abs() <= tolerance,
            "depth {} became {} under scale {scale}", before.depth(), after.depth());
        // Leaves are matched by node, not feature id: against a simple polygon
        // the deepest convex piece (and so the id) may switch where two pieces
        // tie across an inner diagonal.
        let key = |c: &LeafContact| (c.node_a, c.node_b);
        let (leaves_before, leaves_after) = (leaf_contacts(&pair), leaf_contacts(&moved));
        if leaves_before.iter().map(key).ne(leaves_after.iter().map(key)) {
            // Only leaves touching within rounding may come or go.
            for c in leaves_before.iter().filter(|c| !leaves_after.iter().any(|d| key(d) == key(c))) {
                prop_assert!(c.depth.abs() * scale <= tolerance, "leaf contact {c:?} lost");
            }
            for c in leaves_after.iter().filter(|c| !leaves_before.iter().any(|d| key(d) == key(c))) {
                prop_assert!(c.depth.abs() <= tolerance, "leaf contact {c:?} gained");
            }
            return Ok(());
        }
        // One touching leaf against a round shape: a well-conditioned normal.
        let round = matches!(pair.b, Shape::Tree(_) | Shape::Circle(_) | Shape::Capsule(_) | Shape::Point(_));
        if leaves_before.len() == 1 && round {
            let turned = motion.rotate(before.normal);
            // The normal is the direction from the leaf's centre to the other
            // shape's core: a few ulps of the coordinates over that distance.
            // Allow 5e-4, or 64 ulps of the reach over the distance when the
            // core is closer (a wrong frame or a lost rotation is off by order 1).
            let reach = pair.reach().max(moved.reach());
            let conditioned = core_distance(&pair, &leaves_before[0])
                .map_or(5e-4, |d| (64.0 * Real::EPSILON * reach / d.max(1e-6)).max(5e-4));
            prop_assert!((after.normal - turned).norm() < conditioned,
                "normal {:?} vs {:?} (allowed {conditioned})", after.normal, turned);
            let moved_point = motion.transform_point(before.points[0].point);
            prop_assert!((after.points[0].point - moved_point).norm() <= 10.0 * tolerance,
                "point {:?} vs {:?}", after.points[0].point, moved_point);
            prop_assert_eq!(after.points[0].part_a, before.points[0].part_a);
        }
    }

    #[test]
    fn tree_manifolds_name_their_leaves(pair in pair_from(tree_shape(), with_trees()), margin in real(0.0, 0.5), swap in any::<bool>()) {
        let pair = if swap { pair.swapped() } else { pair };
        let Some(m) = contact_with_margin(&pair.a, &pair.pose_a, &pair.b, &pair.pose_b, margin) else {
            return Ok(());
        };
        let tolerance = 2.0 * EPSILON;
        prop_assert!((m.normal.norm() - 1.0).abs() < 1e-5, "normal {:?}", m.normal);
        prop_assert!(!m.points.is_empty() && m.points.len() <= tree::MAX_MANIFOLD_POINTS, "{} points", m.points.len());
        let (leaves_a, leaves_b) = (world_leaves(&pair.a, &pair.pose_a), world_leaves(&pair.b, &pair.pose_b));
        for point in &m.points {
            prop_assert!(point.point.x.is_finite() && point.point.y.is_finite() && point.depth.is_finite());
            prop_assert!(point.depth >= -margin - tolerance, "depth {} beyond margin {margin}", point.depth);
            let allowed = 0.5 * point.depth.abs() + tolerance;
            for (shape, pose, leaves, node, part) in [
                (&pair.a, &pair.pose_a, &leaves_a, point.id.feature_a(), point.part_a),
                (&pair.b, &pair.pose_b, &leaves_b, point.id.feature_b(), point.part_b),
            ] {
                let surface = match shape {
                    Shape::Tree(t) => {
                        // The id names the leaf, the part is that leaf's.
                        let leaf = leaves.iter().find(|(i, _)| *i == node as u32);
                        prop_assert!(leaf.is_some(), "feature {node} is not a leaf");
                        prop_assert_eq!(part, t.part_of(node as usize));
                        signed_distance(&leaf.unwrap().1, &Pose::IDENTITY, point.point)
                    }
                    other => signed_distance(other, pose, point.point),
                };
                prop_assert!(surface.abs() <= allowed, "point {:?} is {surface} from {:?}, depth {}", point.point, shape.kind(), point.depth);
            }
        }
        // The deepest leaf, each leaf a circle on its own.
        let single = |shape: &Shape, pose: &Pose, leaves: &[(u32, Shape)]| -> Vec<(Shape, Pose)> {
            if leaves.is_empty() { vec![(shape.clone(), *pose)] } else { leaves.iter().map(|(_, c)| (c.clone(), Pose::IDENTITY)).collect() }
        };
        let mut deepest = Real::NEG_INFINITY;
        for (a, pa) in single(&pair.a, &pair.pose_a, &leaves_a) {
            for (b, pb) in single(&pair.b, &pair.pose_b, &leaves_b) {
                if let Some(leaf) = contact_with_margin(&a, &pa, &b, &pb, margin) {
                    deepest = deepest.max(leaf.depth());
                }
            }
        }
        prop_assert!((m.depth() - deepest).abs() <= 1e-5 * pair.reach().max(1.0), "depth {} vs deepest leaf {deepest}", m.depth());
    }
}
