//! Boolean overlap tests for every pair of shape kinds (touching counts).
//!
//! [`intersects`] resolves both shapes with [`Placed::new`] and hands the pair
//! to [`intersects_placed`], whose single `match` reaches one
//! `intersects_<a>_<b>` function per pair of placed kinds (written for one
//! order, flipped for the other). Kinds are ordered point, line, segment,
//! capsule, circle, polygon, simple, tree; a circle tree against any kind is
//! [`crate::query::tree`]'s pruned descent (two trees descend together). A few shape pairs skip the placement and
//! take a fast path first: circle–Aabb, circle–TileTriangle, Aabb–Aabb and
//! OrientedRect–OrientedRect; each is property-tested against the generic
//! polygon path.
//!
//! Every function here is symmetric: `intersects(a, b) == intersects(b, a)`
//! bit for bit, because the same-kind pair functions use only symmetric
//! predicates. [`crate::query::distance()`] calls the very same predicates, so
//! `distance == 0` exactly when `intersects` is true.

mod intersects_aabb_aabb;
mod intersects_capsule_capsule;
mod intersects_capsule_circle;
mod intersects_capsule_polygon;
mod intersects_capsule_simple;
mod intersects_circle_aabb;
mod intersects_circle_circle;
mod intersects_circle_polygon;
mod intersects_circle_simple;
mod intersects_circle_tile;
mod intersects_line_capsule;
mod intersects_line_circle;
mod intersects_line_line;
mod intersects_line_polygon;
mod intersects_line_segment;
mod intersects_line_simple;
mod intersects_point_capsule;
mod intersects_point_circle;
mod intersects_point_line;
mod intersects_point_point;
mod intersects_point_polygon;
mod intersects_point_segment;
mod intersects_point_simple;
mod intersects_polygon_polygon;
mod intersects_polygon_simple;
mod intersects_rect_rect;
mod intersects_segment_capsule;
mod intersects_segment_circle;
mod intersects_segment_polygon;
mod intersects_segment_segment;
mod intersects_segment_simple;
mod intersects_simple_simple;

pub use intersects_aabb_aabb::{bounds_in_common_frame, intersects_aabb_aabb};
pub use intersects_capsule_capsule::intersects_capsule_capsule;
pub use intersects_capsule_circle::intersects_capsule_circle;
pub use intersects_capsule_polygon::intersects_capsule_polygon;
pub use intersects_capsule_simple::intersects_capsule_simple;
pub use intersects_circle_aabb::{closest_point_on_aabb, intersects_circle_aabb};
pub use intersects_circle_circle::intersects_circle_circle;
pub use intersects_circle_polygon::intersects_circle_polygon;
pub use intersects_circle_simple::intersects_circle_simple;
pub use intersects_circle_tile::{closest_point_on_tile, intersects_circle_tile};
pub use intersects_line_capsule::intersects_line_capsule;
pub use intersects_line_circle::intersects_line_circle;
pub use intersects_line_line::intersects_line_line;
pub use intersects_line_polygon::{intersects_line_polygon, intersects_line_vertices};
pub use intersects_line_segment::intersects_line_segment;
pub use intersects_line_simple::intersects_line_simple;
pub use intersects_point_capsule::intersects_point_capsule;
pub use intersects_point_circle::intersects_point_circle;
pub use intersects_point_line::intersects_point_line;
pub use intersects_point_point::intersects_point_point;
pub use intersects_point_polygon::intersects_point_polygon;
pub use intersects_point_segment::intersects_point_segment;
pub use intersects_point_simple::intersects_point_simple;
pub use intersects_polygon_polygon::intersects_polygon_polygon;
pub use intersects_polygon_simple::intersects_polygon_simple;
pub use intersects_rect_rect::{WorldRect, intersects_rect_rect};
pub use intersects_segment_capsule::intersects_segment_capsule;
pub use intersects_segment_circle::intersects_segment_circle;
pub use intersects_segment_polygon::intersects_segment_polygon;
pub use intersects_segment_segment::intersects_segment_segment;
pub use intersects_segment_simple::intersects_segment_simple;
pub use intersects_simple_simple::intersects_simple_simple;

use crate::math::Pose;
use crate::query::placed::Placed;
use crate::query::tree::intersects_tree_placed;
use crate::shape::Shape;

/// True if the two shapes share at least one point (touching counts).
///
/// Defined for every pair of kinds, in both orders, with the same answer.
/// Never panics; given a NaN pose the answer is unspecified.
///
/// # Examples
/// ```
/// use circlet::{math::{Pose, vec2}, shape::{Circle, Shape}, query::intersects};
/// let unit = Shape::from(Circle::new(vec2(0.0, 0.0), 1.0).unwrap());
/// let touching = Pose::from_translation(vec2(2.0, 0.0));
/// assert!(intersects(&unit, &Pose::IDENTITY, &unit, &touching));
/// let apart = Pose::from_translation(vec2(2.01, 0.0));
/// assert!(!intersects(&unit, &Pose::IDENTITY, &unit, &apart));
/// ```
pub fn intersects(a: &Shape, pose_a: &Pose, b: &Shape, pose_b: &Pose) -> bool {
    match (a, b) {
        (Shape::Circle(circle), Shape::Aabb(aabb)) => intersects_circle_aabb(
            pose_a.transform_point(circle.center()),
            pose_a.scale_length(circle.radius()),
            aabb,
            pose_b,
        ),
        (Shape::Aabb(aabb), Shape::Circle(circle)) => intersects_circle_aabb(
            pose_b.transform_point(circle.center()),
            pose_b.scale_length(circle.radius()),
            aabb,
            pose_a,
        ),
        (Shape::Circle(circle), Shape::TileTriangle(tile)) => intersects_circle_tile(
            pose_a.transform_point(circle.center()),
            pose_a.scale_length(circle.radius()),
            tile,
            pose_b,
        ),
        (Shape::TileTriangle(tile), Shape::Circle(circle)) => intersects_circle_tile(
            pose_b.transform_point(circle.center()),
            pose_b.scale_length(circle.radius()),
            tile,
            pose_a,
        ),
        (Shape::Aabb(box_a), Shape::Aabb(box_b)) => {
            intersects_aabb_aabb(box_a, pose_a, box_b, pose_b)
        }
        (Shape::OrientedRect(rect_a), Shape::OrientedRect(rect_b)) => {
            intersects_rect_rect(rect_a, pose_a, rect_b, pose_b)
        }
        _ => intersects_placed(&Placed::new(a, pose_a), &Placed::new(b, pose_b)),
    }
}

/// True if the two placed shapes share at least one point (touching counts).
///
/// The generic path of [`intersects`], for callers that already hold world
/// primitives (circle-tree descents, contact generation).
pub fn intersects_placed(a: &Placed, b: &Placed) -> bool {
    use Placed::{Capsule, Circle, Line, Point, Polygon, Segment, Simple, Tree};
    match (a, b) {
        // A tree against anything (another tree included) descends the tree.
        (Tree(tree, pose), other) | (other, Tree(tree, pose)) => {
            intersects_tree_placed(tree, pose, other)
        }

        (Point(p), Point(q)) => intersects_point_point(*p, *q),
        (Point(p), Line { point, direction }) | (Line { point, direction }, Point(p)) => {
            intersects_point_line(*p, *point, *direction)
        }
        (Point(p), Segment(s0, s1)) | (Segment(s0, s1), Point(p)) => {
            intersects_point_segment(*p, *s0, *s1)
        }
        (Point(p), Capsule(c0, c1, r)) | (Capsule(c0, c1, r), Point(p)) => {
            intersects_point_capsule(*p, *c0, *c1, *r)
        }
        (Point(p), Circle(c, r)) | (Circle(c, r), Point(p)) => intersects_point_circle(*p, *c, *r),
        (Point(p), Polygon(polygon)) | (Polygon(polygon), Point(p)) => {
            intersects_point_polygon(*p, polygon)
        }
        (Point(p), Simple(simple, pose)) | (Simple(simple, pose), Point(p)) => {
            intersects_point_simple(*p, simple, pose)
        }

        (
            Line {
                point: pa,
                direction: da,
            },
            Line {
                point: pb,
                direction: db,
            },
        ) => intersects_line_line(*pa, *da, *pb, *db),
        (Line { point, direction }, Segment(s0, s1))
        | (Segment(s0, s1), Line { point, direction }) => {
            intersects_line_segment(*point, *direction, *s0, *s1)
        }
        (Line { point, direction }, Capsule(c0, c1, r))
        | (Capsule(c0, c1, r), Line { point, direction }) => {
            intersects_line_capsule(*point, *direction, *c0, *c1, *r)
        }
        (Line { point, direction }, Circle(c, r)) | (Circle(c, r), Line { point, direction }) => {
            intersects_line_circle(*point, *direction, *c, *r)
        }
        (Line { point, direction }, Polygon(polygon))
        | (Polygon(polygon), Line { point, direction }) => {
            intersects_line_polygon(*point, *direction, polygon)
        }
        (Line { point, direction }, Simple(simple, pose))
        | (Simple(simple, pose), Line { point, direction }) => {
            intersects_line_simple(*point, *direction, simple, pose)
        }

        (Segment(a0, a1), Segment(b0, b1)) => intersects_segment_segment(*a0, *a1, *b0, *b1),
        (Segment(s0, s1), Capsule(c0, c1, r)) | (Capsule(c0, c1, r), Segment(s0, s1)) => {
            intersects_segment_capsule(*s0, *s1, *c0, *c1, *r)
        }
        (Segment(s0, s1), Circle(c, r)) | (Circle(c, r), Segment(s0, s1)) => {
            intersects_segment_circle(*s0, *s1, *c, *r)
        }
        (Segment(s0, s1), Polygon(polygon)) | (Polygon(polygon), Segment(s0, s1)) => {
            intersects_segment_polygon(*s0, *s1, polygon)
        }
        (Segment(s0, s1), Simple(simple, pose)) | (Simple(simple, pose), Segment(s0, s1)) => {
            intersects_segment_simple(*s0, *s1, simple, pose)
        }

        (Capsule(a0, a1, ra), Capsule(b0, b1, rb)) => {
            intersects_capsule_capsule(*a0, *a1, *ra, *b0, *b1, *rb)
        }
        (Capsule(c0, c1, rc), Circle(c, r)) | (Circle(c, r), Capsule(c0, c1, rc)) => {
            intersects_capsule_circle(*c0, *c1, *rc, *c, *r)
        }
        (Capsule(c0, c1, r), Polygon(polygon)) | (Polygon(polygon), Capsule(c0, c1, r)) => {
            intersects_capsule_polygon(*c0, *c1, *r, polygon)
        }
        (Capsule(c0, c1, r), Simple(simple, pose)) | (Simple(simple, pose), Capsule(c0, c1, r)) => {
            intersects_capsule_simple(*c0, *c1, *r, simple, pose)
        }

        (Circle(ca, ra), Circle(cb, rb)) => intersects_circle_circle(*ca, *ra, *cb, *rb),
        (Circle(c, r), Polygon(polygon)) | (Polygon(polygon), Circle(c, r)) => {
            intersects_circle_polygon(*c, *r, polygon)
        }
        (Circle(c, r), Simple(simple, pose)) | (Simple(simple, pose), Circle(c, r)) => {
            intersects_circle_simple(*c, *r, simple, pose)
        }

        (Polygon(pa), Polygon(pb)) => intersects_polygon_polygon(pa, pb),
        (Polygon(polygon), Simple(simple, pose)) | (Simple(simple, pose), Polygon(polygon)) => {
            intersects_polygon_simple(polygon, simple, pose)
        }

        (Simple(sa, pose_a), Simple(sb, pose_b)) => {
            intersects_simple_simple(sa, pose_a, sb, pose_b)
        }
    }
}
