//! Point containment for every shape kind (boundary counts as inside).
//!
//! Shapes without area contain only the points on them: a point only itself,
//! a line the points within its rounding band
//! ([`crate::query::geometry::LINE_ROUNDING`]), a segment the points on it
//! (exact orientation test). A [`crate::shape::SimplePolygon`] uses the
//! even-odd rule on its outline, which for a simple outline equals the
//! winding rule; points on the outline are inside.
//!
//! `point_inside(shape, pose, p)` is by construction the same predicate as
//! `intersects(Point(p), shape)`.

use crate::math::{Pose, Vec2};
use crate::query::intersects::intersects_placed;
use crate::query::placed::Placed;
use crate::shape::Shape;

/// True if the world point `point` lies in `shape` placed at `pose` (boundary included).
///
/// # Examples
/// ```
/// use circlet::{math::{Pose, vec2}, shape::{SimplePolygon, Shape}, query::point_inside};
/// let l_shape = Shape::from(SimplePolygon::new(&[
///     vec2(0.0, 0.0), vec2(2.0, 0.0), vec2(2.0, 1.0),
///     vec2(1.0, 1.0), vec2(1.0, 2.0), vec2(0.0, 2.0),
/// ]).unwrap());
/// assert!(point_inside(&l_shape, &Pose::IDENTITY, vec2(0.5, 1.5)));
/// assert!(point_inside(&l_shape, &Pose::IDENTITY, vec2(1.5, 1.0))); // on the outline
/// assert!(!point_inside(&l_shape, &Pose::IDENTITY, vec2(1.5, 1.5))); // in the notch
/// ```
pub fn point_inside(shape: &Shape, pose: &Pose, point: Vec2) -> bool {
    // The generic path of `intersects`, which also serves (Point, any kind).
    intersects_placed(&Placed::Point(point), &Placed::new(shape, pose))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;
    use crate::shape::{Aabb, Capsule, Circle, Corner, Line, Point, Segment, TileTriangle};

    #[test]
    fn boundary_points_are_inside() {
        let pose = Pose::IDENTITY;
        let circle = Shape::from(Circle::new(vec2(0.0, 0.0), 5.0).unwrap());
        assert!(point_inside(&circle, &pose, vec2(3.0, 4.0)));
        let aabb = Shape::from(Aabb::new(vec2(0.0, 0.0), vec2(2.0, 1.0)).unwrap());
        assert!(point_inside(&aabb, &pose, vec2(2.0, 0.5)));
        assert!(!point_inside(&aabb, &pose, vec2(2.0, 1.5)));
        let tile = Shape::from(
            TileTriangle::new(vec2(0.0, 0.0), vec2(2.0, 2.0), Corner::LowerLeft).unwrap(),
        );
        assert!(point_inside(&tile, &pose, vec2(1.0, 1.0)));
        assert!(!point_inside(&tile, &pose, vec2(0.9, 1.0)));
        let capsule = Shape::from(Capsule::new(vec2(0.0, 0.0), vec2(2.0, 0.0), 1.0).unwrap());
        assert!(point_inside(&capsule, &pose, vec2(3.0, 0.0)));
    }

    #[test]
    fn shapes_without_area_contain_only_their_points() {
        let pose = Pose::from_translation(vec2(1.0, 1.0));
        let point = Shape::from(Point::new(vec2(2.0, 3.0)).unwrap());
        assert!(point_inside(&point, &pose, vec2(3.0, 4.0)));
        assert!(!point_inside(&point, &pose, vec2(3.0, 4.5)));
        let segment = Shape::from(Segment::new(vec2(0.0, 0.0), vec2(2.0, 2.0)).unwrap());
        assert!(point_inside(&segment, &pose, vec2(2.0, 2.0)));
        assert!(!point_inside(&segment, &pose, vec2(4.0, 4.0)));
        let line = Shape::from(Line::new(vec2(0.0, 0.0), vec2(2.0, 2.0)).unwrap());
        assert!(point_inside(&line, &pose, vec2(41.0, 41.0)));
        assert!(!point_inside(&line, &pose, vec2(41.0, 41.1)));
    }
}
