//! Circle trees against the polygon kinds and lines, through the crate's
//! dispatch functions (`query::{intersects, contact_with_margin,
//! closest_points}`) for the leaf tests. Locks (10,000 random cases each):
//! - the pruned queries return exactly what the brute-force loop over the
//!   leaves returns, for convex polygons, boxes, rotated rectangles, tile
//!   triangles, simple polygons and lines: intersects, the set of leaf
//!   contacts and the deepest depth, distance;
//! - a tree fitted to a polygon intersects that polygon wherever it is placed
//!   on it, and its distance to a shape is within ε of the polygon's.
//!
//! These tests need the shape-pair dispatch functions, which are written in
//! parallel with the trees: they pass once both are merged.

mod support;

use circlet::math::{Pose, Real, vec2};
use circlet::query::tree::{self, LeafContact, QueryBudget, brute_force};
use circlet::query::{distance, intersects};
use circlet::shape::circle_tree::samples;
use circlet::shape::{
    Aabb, Circle, CircleTree, ConvexPolygon, Corner, FitOptions, Line, OrientedRect, Shape,
    TileTriangle,
};
use proptest::prelude::*;
use support::*;

/// The star fitted once at ε = 0.02 for all cases.
fn fitted_star() -> &'static CircleTree {
    static TREE: std::sync::OnceLock<CircleTree> = std::sync::OnceLock::new();
    TREE.get_or_init(|| {
        CircleTree::fit_simple_polygon(&samples::star(), &FitOptions::new(0.02))
            .unwrap()
            .0
    })
}

fn sorted(mut contacts: Vec<LeafContact>) -> Vec<LeafContact> {
    contacts.sort_by_key(|c| (c.node_a, c.node_b, c.id));
    contacts
}

fn polygon_like() -> impl Strategy<Value = Shape> {
    prop_oneof![
        (3usize..9, 0.3f32..2.5, -3.0f32..3.0)
            .prop_map(|(n, r, phase)| Shape::from(ConvexPolygon::regular(n, r, phase).unwrap())),
        (-2.0f32..2.0, -2.0f32..2.0, 0.1f32..2.0, 0.1f32..2.0).prop_map(
            |(x, y, w, h)| Shape::from(Aabb::from_center(vec2(x, y), vec2(w, h)).unwrap())
        ),
        (
            -2.0f32..2.0,
            -2.0f32..2.0,
            0.1f32..2.0,
            0.1f32..2.0,
            -3.0f32..3.0
        )
            .prop_map(|(x, y, w, h, a)| Shape::from(
                OrientedRect::new(vec2(x, y), vec2(w, h), a).unwrap()
            )),
        (-2.0f32..2.0, -2.0f32..2.0, 0.2f32..2.0, 0usize..4).prop_map(|(x, y, s, corner)| {
            let missing = [
                Corner::UpperLeft,
                Corner::UpperRight,
                Corner::LowerLeft,
                Corner::LowerRight,
            ][corner];
            Shape::from(TileTriangle::new(vec2(x, y), vec2(x + s, y + s), missing).unwrap())
        }),
        Just(Shape::from(samples::l_shape())),
        Just(Shape::from(samples::star())),
        (-2.0f32..2.0, -2.0f32..2.0, -3.0f32..3.0).prop_map(|(x, y, a)| Shape::from(
            Line::new(vec2(x, y), vec2(a.cos(), a.sin())).unwrap()
        )),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(10_000))]

    #[test]
    fn tree_vs_polygon_intersects_matches_brute_force(tree in tree(64), pose in pose(), shape in polygon_like(), shape_pose in pose()) {
        prop_assert_eq!(
            tree::intersects_tree_shape(&tree, &pose, &shape, &shape_pose),
            brute_force::intersects_tree_shape(&tree, &pose, &shape, &shape_pose).0
        );
    }

    #[test]
    fn tree_vs_polygon_contacts_match_brute_force(tree in tree(64), pose in pose(), shape in polygon_like(), shape_pose in pose(), margin in 0.0f32..0.3) {
        let (pruned, _) = tree::leaf_contacts_tree_shape(&tree, &pose, &shape, &shape_pose, margin, QueryBudget::UNLIMITED);
        let (brute, _) = brute_force::leaf_contacts_tree_shape(&tree, &pose, &shape, &shape_pose, margin);
        let brute = sorted(brute);
        prop_assert_eq!(sorted(pruned), brute.clone());
        let manifold = tree::contact_tree_shape_with_margin(&tree, &pose, &shape, &shape_pose, margin);
        let deepest = brute.iter().map(|c| c.depth).fold(Real::NEG_INFINITY, Real::max);
        prop_assert_eq!(manifold.map(|m| m.depth()), (!brute.is_empty()).then_some(deepest));
    }

    #[test]
    fn tree_vs_polygon_distance_matches_brute_force(tree in tree(64), pose in pose(), shape in polygon_like(), shape_pose in pose()) {
        prop_assert_eq!(
            tree::distance_tree_shape(&tree, &pose, &shape, &shape_pose),
            brute_force::distance_tree_shape(&tree, &pose, &shape, &shape_pose).0
        );
    }

    #[test]
    fn a_fitted_tree_stands_in_for_its_polygon(pose in pose(), x in -3.0f32..3.0, y in -3.0f32..3.0, r in 0.05f32..1.0) {
        let star = Shape::from(samples::star());
        let fitted = fitted_star();
        let probe = Shape::from(Circle::new(vec2(x, y), r).unwrap());
        let exact = distance(&star, &pose, &probe, &Pose::IDENTITY);
        let approx = tree::distance_tree_shape(fitted, &pose, &probe, &Pose::IDENTITY);
        // Leaves cover the star (never farther) and overhang by <= ε (scaled).
        prop_assert!(approx <= exact + 1e-4);
        prop_assert!(approx >= exact - 0.02 * pose.scale - 1e-4);
        if intersects(&star, &pose, &probe, &Pose::IDENTITY) {
            prop_assert!(tree::intersects_tree_shape(fitted, &pose, &probe, &Pose::IDENTITY));
        }
        prop_assert!(tree::intersects_tree_shape(fitted, &pose, &star, &pose));
    }
}
