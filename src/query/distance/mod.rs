//! Distances and closest points between shapes (world, metres).
//!
//! Every `distance_<a>_<b>` function first asks the matching
//! `intersects_<a>_<b>` predicate and returns `None` when it holds, so by
//! construction `distance == 0` exactly when [`super::intersects()`] is true and
//! `distance > 0` otherwise (a separated pair whose gap rounds to zero reports
//! [`MIN_SEPARATION`]). The dispatch mirrors [`super::intersects()`]: the same
//! fast paths, the same kind order, one `match` that flips the other order.
//! A circle tree goes to [`crate::query::tree`]'s branch-and-bound descent,
//! whose leaf tests are these same functions (for
//! [`crate::query::tree::closest_points_tree_shape`] the leaf and its part
//! come along).
//!
//! Shapes are treated as a core (point, segment, polygon) grown by a radius
//! (0, or the circle's or capsule's radius): the closest points are those of
//! the cores, moved towards each other by the radii.

mod distance_aabb_aabb;
mod distance_capsule_capsule;
mod distance_capsule_circle;
mod distance_capsule_polygon;
mod distance_capsule_simple;
mod distance_circle_aabb;
mod distance_circle_circle;
mod distance_circle_polygon;
mod distance_circle_simple;
mod distance_circle_tile;
mod distance_line_capsule;
mod distance_line_circle;
mod distance_line_line;
mod distance_line_polygon;
mod distance_line_segment;
mod distance_line_simple;
mod distance_point_capsule;
mod distance_point_circle;
mod distance_point_line;
mod distance_point_point;
mod distance_point_polygon;
mod distance_point_segment;
mod distance_point_simple;
mod distance_polygon_polygon;
mod distance_polygon_simple;
mod distance_rect_rect;
mod distance_segment_capsule;
mod distance_segment_circle;
mod distance_segment_polygon;
mod distance_segment_segment;
mod distance_segment_simple;
mod distance_simple_simple;

pub use distance_aabb_aabb::distance_aabb_aabb;
pub use distance_capsule_capsule::distance_capsule_capsule;
pub use distance_capsule_circle::distance_capsule_circle;
pub use distance_capsule_polygon::distance_capsule_polygon;
pub use distance_capsule_simple::distance_capsule_simple;
pub use distance_circle_aabb::distance_circle_aabb;
pub use distance_circle_circle::distance_circle_circle;
pub use distance_circle_polygon::distance_circle_polygon;
pub use distance_circle_simple::distance_circle_simple;
pub use distance_circle_tile::distance_circle_tile;
pub use distance_line_capsule::distance_line_capsule;
pub use distance_line_circle::distance_line_circle;
pub use distance_line_line::distance_line_line;
pub use distance_line_polygon::distance_line_polygon;
pub use distance_line_segment::distance_line_segment;
pub use distance_line_simple::distance_line_simple;
pub use distance_point_capsule::distance_point_capsule;
pub use distance_point_circle::distance_point_circle;
pub use distance_point_line::distance_point_line;
pub use distance_point_point::distance_point_point;
pub use distance_point_polygon::distance_point_polygon;
pub use distance_point_segment::distance_point_segment;
pub use distance_point_simple::distance_point_simple;
pub use distance_polygon_polygon::distance_polygon_polygon;
pub use distance_polygon_simple::distance_polygon_simple;
pub use distance_rect_rect::distance_rect_rect;
pub use distance_segment_capsule::distance_segment_capsule;
pub use distance_segment_circle::distance_segment_circle;
pub use distance_segment_polygon::distance_segment_polygon;
pub use distance_segment_segment::distance_segment_segment;
pub use distance_segment_simple::distance_segment_simple;
pub use distance_simple_simple::distance_simple_simple;

use crate::math::{Pose, Real, Vec2};
use crate::query::placed::Placed;
use crate::query::tree::{
    TreeClosestPoints, closest_points_tree_placed, closest_points_tree_placed_below,
};
use crate::shape::Shape;

/// The distance reported for shapes that do not intersect but whose computed
/// gap rounds to zero or below: the smallest positive normal `f32`, so that
/// `distance > 0` keeps meaning "does not intersect".
pub const MIN_SEPARATION: Real = Real::MIN_POSITIVE;

/// The closest pair of points of two disjoint shapes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClosestPoints {
    /// Distance between the shapes (metres, > 0).
    pub distance: Real,
    /// Point on shape A closest to B (world).
    pub point_a: Vec2,
    /// Point on shape B closest to A (world).
    pub point_b: Vec2,
}

impl ClosestPoints {
    /// The closest points of two shapes given as cores grown by radii: `core_a`
    /// and `core_b` are the closest points of the cores (world); each is moved
    /// towards the other by its radius (metres). The distance is
    /// `|core_b - core_a| - (radius_a + radius_b)`, at least [`MIN_SEPARATION`].
    pub fn from_cores(core_a: Vec2, radius_a: Real, core_b: Vec2, radius_b: Real) -> Self {
        let delta = core_b - core_a;
        let length = delta.norm();
        let (point_a, point_b) = if length > 0.0 {
            let direction = delta / length;
            (core_a + direction * radius_a, core_b - direction * radius_b)
        } else {
            (core_a, core_b)
        };
        ClosestPoints {
            // Radii summed first: the result is then the same for both orders.
            distance: (length - (radius_a + radius_b)).max(MIN_SEPARATION),
            point_a,
            point_b,
        }
    }

    /// The same points with the distance replaced by `distance` (metres), at
    /// least [`MIN_SEPARATION`]; for pairs whose distance has a more exact
    /// closed form than the length between the points (lines).
    pub fn with_distance(mut self, distance: Real) -> Self {
        self.distance = distance.max(MIN_SEPARATION);
        self
    }

    /// The same result seen with A and B swapped.
    pub fn flipped(self) -> Self {
        ClosestPoints {
            distance: self.distance,
            point_a: self.point_b,
            point_b: self.point_a,
        }
    }
}

/// A tree's closest points without the leaves and parts they name.
fn tree_pair(closest: TreeClosestPoints) -> ClosestPoints {
    ClosestPoints {
        distance: closest.distance,
        point_a: closest.point_a,
        point_b: closest.point_b,
    }
}

/// The nearest of several results, or `None` if any of them is `None` (the
/// shapes meet) or there are none.
pub(crate) fn nearest<I: IntoIterator<Item = Option<ClosestPoints>>>(
    results: I,
) -> Option<ClosestPoints> {
    let mut best: Option<ClosestPoints> = None;
    for result in results {
        let result = result?;
        if best.is_none_or(|b| result.distance < b.distance) {
            best = Some(result);
        }
    }
    best
}

/// Distance between two shapes in metres; 0 when they intersect.
///
/// # Examples
/// ```
/// use circlet::{math::{Pose, vec2}, shape::{Circle, Aabb, Shape}, query::distance};
/// let ball = Shape::from(Circle::new(vec2(0.0, 3.0), 1.0).unwrap());
/// let floor = Shape::from(Aabb::new(vec2(-5.0, -1.0), vec2(5.0, 0.0)).unwrap());
/// let d = distance(&ball, &Pose::IDENTITY, &floor, &Pose::IDENTITY);
/// assert!((d - 2.0).abs() < 1e-6);
/// ```
pub fn distance(a: &Shape, pose_a: &Pose, b: &Shape, pose_b: &Pose) -> Real {
    closest_points(a, pose_a, b, pose_b).map_or(0.0, |c| c.distance)
}

/// The closest points of two shapes (world), or `None` when they intersect.
///
/// Defined for every pair of kinds; swapping A and B swaps the points and
/// keeps the distance. Lines are infinite: a line and a shape are apart only
/// when the shape lies strictly on one side of it (parallel lines for two
/// lines). Never panics; given a NaN pose the answer is unspecified.
///
/// # Examples
/// ```
/// use circlet::{math::{Pose, vec2}, shape::{Circle, Segment, Shape}, query::closest_points};
/// let ball = Shape::from(Circle::new(vec2(0.0, 0.0), 1.0).unwrap());
/// let wall = Shape::from(Segment::new(vec2(3.0, -5.0), vec2(3.0, 5.0)).unwrap());
/// let c = closest_points(&ball, &Pose::IDENTITY, &wall, &Pose::IDENTITY).unwrap();
/// assert_eq!((c.distance, c.point_a, c.point_b), (2.0, vec2(1.0, 0.0), vec2(3.0, 0.0)));
/// ```
pub fn closest_points(a: &Shape, pose_a: &Pose, b: &Shape, pose_b: &Pose) -> Option<ClosestPoints> {
    match (a, b) {
        (Shape::Circle(circle), Shape::Aabb(aabb)) => distance_circle_aabb(
            pose_a.transform_point(circle.center()),
            pose_a.scale_length(circle.radius()),
            aabb,
            pose_b,
        ),
        (Shape::Aabb(aabb), Shape::Circle(circle)) => distance_circle_aabb(
            pose_b.transform_point(circle.center()),
            pose_b.scale_length(circle.radius()),
            aabb,
            pose_a,
        )
        .map(ClosestPoints::flipped),
        (Shape::Circle(circle), Shape::TileTriangle(tile)) => distance_circle_tile(
            pose_a.transform_point(circle.center()),
            pose_a.scale_length(circle.radius()),
            tile,
            pose_b,
        ),
        (Shape::TileTriangle(tile), Shape::Circle(circle)) => distance_circle_tile(
            pose_b.transform_point(circle.center()),
            pose_b.scale_length(circle.radius()),
            tile,
            pose_a,
        )
        .map(ClosestPoints::flipped),
        (Shape::Aabb(box_a), Shape::Aabb(box_b)) => {
            distance_aabb_aabb(box_a, pose_a, box_b, pose_b)
        }
        (Shape::OrientedRect(rect_a), Shape::OrientedRect(rect_b)) => {
            distance_rect_rect(rect_a, pose_a, rect_b, pose_b)
        }
        _ => closest_points_placed(&Placed::new(a, pose_a), &Placed::new(b, pose_b)),
    }
}

/// [`closest_points`] for a caller that only needs distances below `cap`
/// metres (> 0): `None` when the shapes are at least `cap` apart, else
/// `Some` of exactly what [`closest_points`] answers. A circle tree's
/// descent then prunes every node at least `cap` away (see
/// `closest_points_tree_tree_below` for why the answer is the same); other
/// shapes are measured in full.
pub(crate) fn closest_points_below(
    a: &Shape,
    pose_a: &Pose,
    b: &Shape,
    pose_b: &Pose,
    cap: Real,
) -> Option<Option<ClosestPoints>> {
    let flip = |c: Option<ClosestPoints>| c.map(ClosestPoints::flipped);
    match (a, b) {
        (Shape::Tree(tree), _) => {
            closest_points_tree_placed_below(tree, pose_a, &Placed::new(b, pose_b), cap)
                .map(|c| c.map(tree_pair))
        }
        (_, Shape::Tree(tree)) => {
            closest_points_tree_placed_below(tree, pose_b, &Placed::new(a, pose_a), cap)
                .map(|c| flip(c.map(tree_pair)))
        }
        _ => match closest_points(a, pose_a, b, pose_b) {
            Some(closest) if closest.distance >= cap => None,
            closest => Some(closest),
        },
    }
}

/// The closest points of two placed shapes, or `None` when they intersect.
///
/// The generic path of [`closest_points`], for callers that already hold
/// world primitives.
pub fn closest_points_placed(a: &Placed, b: &Placed) -> Option<ClosestPoints> {
    use Placed::{Capsule, Circle, Line, Point, Polygon, Segment, Simple, Tree};
    // `flip` marks the arms written for the other order.
    let flip = |c: Option<ClosestPoints>| c.map(ClosestPoints::flipped);
    match (a, b) {
        // A tree against anything (another tree included) descends the tree.
        (Tree(tree, pose), other) => closest_points_tree_placed(tree, pose, other).map(tree_pair),
        (other, Tree(tree, pose)) => {
            flip(closest_points_tree_placed(tree, pose, other).map(tree_pair))
        }

        (Point(p), Point(q)) => distance_point_point(*p, *q),
        (Point(p), Line { point, direction }) => distance_point_line(*p, *point, *direction),
        (Line { point, direction }, Point(p)) => flip(distance_point_line(*p, *point, *direction)),
        (Point(p), Segment(s0, s1)) => distance_point_segment(*p, *s0, *s1),
        (Segment(s0, s1), Point(p)) => flip(distance_point_segment(*p, *s0, *s1)),
        (Point(p), Capsule(c0, c1, r)) => distance_point_capsule(*p, *c0, *c1, *r),
        (Capsule(c0, c1, r), Point(p)) => flip(distance_point_capsule(*p, *c0, *c1, *r)),
        (Point(p), Circle(c, r)) => distance_point_circle(*p, *c, *r),
        (Circle(c, r), Point(p)) => flip(distance_point_circle(*p, *c, *r)),
        (Point(p), Polygon(polygon)) => distance_point_polygon(*p, polygon),
        (Polygon(polygon), Point(p)) => flip(distance_point_polygon(*p, polygon)),
        (Point(p), Simple(simple, pose)) => distance_point_simple(*p, simple, pose),
        (Simple(simple, pose), Point(p)) => flip(distance_point_simple(*p, simple, pose)),

        (
            Line {
                point: pa,
                direction: da,
            },
            Line {
                point: pb,
                direction: db,
            },
        ) => distance_line_line(*pa, *da, *pb, *db),
        (Line { point, direction }, Segment(s0, s1)) => {
            distance_line_segment(*point, *direction, *s0, *s1)
        }
        (Segment(s0, s1), Line { point, direction }) => {
            flip(distance_line_segment(*point, *direction, *s0, *s1))
        }
        (Line { point, direction }, Capsule(c0, c1, r)) => {
            distance_line_capsule(*point, *direction, *c0, *c1, *r)
        }
        (Capsule(c0, c1, r), Line { point, direction }) => {
            flip(distance_line_capsule(*point, *direction, *c0, *c1, *r))
        }
        (Line { point, direction }, Circle(c, r)) => {
            distance_line_circle(*point, *direction, *c, *r)
        }
        (Circle(c, r), Line { point, direction }) => {
            flip(distance_line_circle(*point, *direction, *c, *r))
        }
        (Line { point, direction }, Polygon(polygon)) => {
            distance_line_polygon(*point, *direction, polygon)
        }
        (Polygon(polygon), Line { point, direction }) => {
            flip(distance_line_polygon(*point, *direction, polygon))
        }
        (Line { point, direction }, Simple(simple, pose)) => {
            distance_line_simple(*point, *direction, simple, pose)
        }
        (Simple(simple, pose), Line { point, direction }) => {
            flip(distance_line_simple(*point, *direction, simple, pose))
        }

        (Segment(a0, a1), Segment(b0, b1)) => distance_segment_segment(*a0, *a1, *b0, *b1),
        (Segment(s0, s1), Capsule(c0, c1, r)) => distance_segment_capsule(*s0, *s1, *c0, *c1, *r),
        (Capsule(c0, c1, r), Segment(s0, s1)) => {
            flip(distance_segment_capsule(*s0, *s1, *c0, *c1, *r))
        }
        (Segment(s0, s1), Circle(c, r)) => distance_segment_circle(*s0, *s1, *c, *r),
        (Circle(c, r), Segment(s0, s1)) => flip(distance_segment_circle(*s0, *s1, *c, *r)),
        (Segment(s0, s1), Polygon(polygon)) => distance_segment_polygon(*s0, *s1, polygon),
        (Polygon(polygon), Segment(s0, s1)) => flip(distance_segment_polygon(*s0, *s1, polygon)),
        (Segment(s0, s1), Simple(simple, pose)) => distance_segment_simple(*s0, *s1, simple, pose),
        (Simple(simple, pose), Segment(s0, s1)) => {
            flip(distance_segment_simple(*s0, *s1, simple, pose))
        }

        (Capsule(a0, a1, ra), Capsule(b0, b1, rb)) => {
            distance_capsule_capsule(*a0, *a1, *ra, *b0, *b1, *rb)
        }
        (Capsule(c0, c1, rc), Circle(c, r)) => distance_capsule_circle(*c0, *c1, *rc, *c, *r),
        (Circle(c, r), Capsule(c0, c1, rc)) => flip(distance_capsule_circle(*c0, *c1, *rc, *c, *r)),
        (Capsule(c0, c1, r), Polygon(polygon)) => distance_capsule_polygon(*c0, *c1, *r, polygon),
        (Polygon(polygon), Capsule(c0, c1, r)) => {
            flip(distance_capsule_polygon(*c0, *c1, *r, polygon))
        }
        (Capsule(c0, c1, r), Simple(simple, pose)) => {
            distance_capsule_simple(*c0, *c1, *r, simple, pose)
        }
        (Simple(simple, pose), Capsule(c0, c1, r)) => {
            flip(distance_capsule_simple(*c0, *c1, *r, simple, pose))
        }

        (Circle(ca, ra), Circle(cb, rb)) => distance_circle_circle(*ca, *ra, *cb, *rb),
        (Circle(c, r), Polygon(polygon)) => distance_circle_polygon(*c, *r, polygon),
        (Polygon(polygon), Circle(c, r)) => flip(distance_circle_polygon(*c, *r, polygon)),
        (Circle(c, r), Simple(simple, pose)) => distance_circle_simple(*c, *r, simple, pose),
        (Simple(simple, pose), Circle(c, r)) => flip(distance_circle_simple(*c, *r, simple, pose)),

        (Polygon(pa), Polygon(pb)) => distance_polygon_polygon(pa, pb),
        (Polygon(polygon), Simple(simple, pose)) => distance_polygon_simple(polygon, simple, pose),
        (Simple(simple, pose), Polygon(polygon)) => {
            flip(distance_polygon_simple(polygon, simple, pose))
        }

        (Simple(sa, pose_a), Simple(sb, pose_b)) => distance_simple_simple(sa, pose_a, sb, pose_b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;

    #[test]
    fn radii_are_summed_before_subtracting_so_both_orders_agree() {
        // (L - ra) - rb and (L - rb) - ra round differently; L - (ra + rb) does not depend on order.
        let (core_a, core_b, radius_a, radius_b) = (vec2(0.0, 0.0), vec2(7.2, 9.7), 2.1609, 1.93);
        let length = (core_b - core_a).norm();
        assert_ne!(
            (length - radius_a) - radius_b,
            (length - radius_b) - radius_a
        );
        let forward = ClosestPoints::from_cores(core_a, radius_a, core_b, radius_b);
        let backward = ClosestPoints::from_cores(core_b, radius_b, core_a, radius_a);
        assert_eq!(forward.distance, backward.distance);
        assert_eq!(
            (forward.point_a, forward.point_b),
            (backward.point_b, backward.point_a)
        );
    }

    #[test]
    fn nearest_is_none_if_any_result_meets() {
        let apart = ClosestPoints::from_cores(vec2(0.0, 0.0), 0.0, vec2(2.0, 0.0), 0.0);
        let closer = ClosestPoints::from_cores(vec2(0.0, 0.0), 0.0, vec2(1.0, 0.0), 0.0);
        assert_eq!(nearest([Some(apart), Some(closer)]), Some(closer));
        assert_eq!(nearest([Some(apart), None]), None);
        assert!(ClosestPoints::from_cores(vec2(0.0, 0.0), 1.0, vec2(1.0, 0.0), 0.0).distance > 0.0);
    }

    mod below {
        use super::*;
        use crate::shape::{Aabb, Capsule, Circle, CircleTree};
        use proptest::prelude::*;

        fn shape(kind: u8, leaves: &[(Real, Real, Real)]) -> Shape {
            match kind % 4 {
                0 => Shape::from(Circle::new(vec2(0.3, -0.1), 0.7).unwrap()),
                1 => Shape::from(Aabb::new(vec2(-1.0, -0.4), vec2(1.0, 0.4)).unwrap()),
                2 => Shape::from(Capsule::new(vec2(-0.8, 0.0), vec2(0.8, 0.2), 0.3).unwrap()),
                _ => {
                    let leaves: Vec<Circle> = leaves
                        .iter()
                        .map(|&(x, y, r)| Circle::new(vec2(x, y), r).unwrap())
                        .collect();
                    Shape::from(CircleTree::from_leaves(&leaves, 2).unwrap())
                }
            }
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(10_000))]

            /// Measured up to a cap, a tree's closest points are those of
            /// the full descent bit for bit whenever the shapes are closer
            /// than the cap (or intersect), and "at least the cap apart"
            /// exactly when the full descent says so, down to a cap one
            /// ulp above the distance (trees with leaves near their own
            /// origin, within 50 m of the world's; leaves far from their
            /// own origin are tested with the tree queries).
            #[test]
            fn below_a_cap_is_the_full_answer_or_nothing(
                kinds in (3u8..=3, any::<u8>()),
                swap in any::<bool>(),
                leaves in prop::collection::vec((-2.0f32..2.0, -2.0f32..2.0, 0.1f32..1.0), 1..=12),
                at in (-50.0f32..50.0, -50.0f32..50.0),
                apart in (-4.0f32..4.0, -4.0f32..4.0),
                angles in (-3.2f32..3.2, -3.2f32..3.2),
                scale in 0.5f32..2.0,
                cap in 0.001f32..4.0,
            ) {
                let (a, b) = (shape(kinds.0, &leaves), shape(kinds.1, &leaves[..leaves.len().div_ceil(2)]));
                let (a, b) = if swap { (b, a) } else { (a, b) };
                let pose_a = Pose::new(vec2(at.0, at.1), angles.0).with_scale(scale);
                let pose_b = Pose::new(vec2(at.0 + apart.0, at.1 + apart.1), angles.1);
                let full = closest_points(&a, &pose_a, &b, &pose_b);
                // The drawn cap, and caps on either side of the distance
                // itself (the tightest the descent can be asked for).
                let edges = full.map(|c| [c.distance, c.distance.next_up()]);
                for cap in std::iter::once(cap).chain(edges.into_iter().flatten()) {
                    let capped = closest_points_below(&a, &pose_a, &b, &pose_b, cap);
                    match full {
                        Some(c) if c.distance >= cap => prop_assert!(capped.is_none()),
                        full => prop_assert_eq!(format!("{capped:?}"), format!("{:?}", Some(full))),
                    }
                }
            }
        }
    }
}
