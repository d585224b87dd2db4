//! Boxes in a contact frame, for the closed-form box–box contact
//! ([`super::contact_box_box`]).
//!
//! A box kind ([`Aabb`], [`OrientedRect`], or a [`ConvexPolygon`] that is a
//! rectangle) is described by a centre, its unit axes `u` and `v = perp(u)`
//! and half extents. Its corners and edge normals follow the polygon order
//! of the shape's `vertices()`: corner 0 is `c - hx u - hy v`, edge `k`
//! runs from corner `k` to `k + 1`, and the outward normals are `-v`, `u`,
//! `v`, `-u`.
//!
//! Corners and normals are computed by the very expressions the generic
//! path uses when it loads a polygon into the frame
//! ([`super::local_frame`]), so a face or an edge built from them is that
//! path's face or edge bit for bit (up to the sign of a zero). Only the
//! separations (SAT) use the closed form, and differ from the vertex form by
//! rounding.

use super::clip::{Face, edge_feature, vertex_feature};
use crate::math::{Pose, Real, Vec2, perp, vec2};
use crate::shape::{Aabb, OrientedRect, Shape};

/// A shape that is a box.
#[derive(Clone, Copy, Debug)]
pub(super) enum BoxShape<'s> {
    /// An axis-aligned box (axes x and y of its local frame).
    Aabb(&'s Aabb),
    /// A rectangle with its own rotation.
    Rect(&'s OrientedRect),
    /// A convex polygon that is a rectangle
    /// ([`crate::shape::ConvexPolygon::as_rectangle`]):
    /// its four vertices and the rectangle.
    Polygon(&'s [Vec2; 4], &'s OrientedRect),
}

impl<'s> BoxShape<'s> {
    /// The box that `shape` is, if it is one.
    pub(super) fn of(shape: &'s Shape) -> Option<Self> {
        match shape {
            Shape::Aabb(aabb) => Some(BoxShape::Aabb(aabb)),
            Shape::OrientedRect(rect) => Some(BoxShape::Rect(rect)),
            Shape::ConvexPolygon(polygon) => {
                let rect = polygon.as_rectangle()?;
                Some(BoxShape::Polygon(polygon.vertices().try_into().ok()?, rect))
            }
            _ => None,
        }
    }

    /// Centre, unit axis `u` (the direction of edge 0) and half extents
    /// along `u` and `perp(u)`, in the shape's local frame. `u` is the
    /// shape's own edge-1 normal, the one the generic path loads: for a
    /// rectangle it is `rotation * (1, 0) = (re, im)`, and a polygon's
    /// rectangle holds that normal as its rotation.
    #[inline]
    fn local_frame(&self) -> (Vec2, Vec2, Vec2) {
        match self {
            BoxShape::Aabb(aabb) => (aabb.center(), vec2(1.0, 0.0), aabb.half_extents()),
            BoxShape::Rect(rect) | BoxShape::Polygon(_, rect) => {
                let rotation = rect.rotation();
                let axis = vec2(rotation.re, rotation.im);
                (rect.center(), axis, rect.half_extents())
            }
        }
    }

    /// Corner `k` (mod 4) in the local frame, as the shape lists it.
    #[inline]
    fn local_vertex(&self, k: usize) -> Vec2 {
        match self {
            BoxShape::Aabb(aabb) => aabb.vertices()[k & 3],
            BoxShape::Rect(rect) => rect.vertices()[k & 3],
            BoxShape::Polygon(vertices, _) => vertices[k & 3],
        }
    }
}

/// A box placed in a contact frame (rigid, world scale).
#[derive(Clone, Copy, Debug)]
pub(super) struct FramedBox<'s> {
    shape: BoxShape<'s>,
    /// Maps local points into the frame.
    placement: Pose,
    /// The box owns the frame at scale 1: its local corners are its frame
    /// corners as they are.
    local_is_frame: bool,
    /// Centre (frame, metres).
    pub center: Vec2,
    /// Unit axis along edge 0 (frame).
    pub u: Vec2,
    /// `perp(u)`, the outward normal of edge 2 (frame).
    pub v: Vec2,
    /// Half extents along `u` and `v` (metres).
    pub half: Vec2,
    /// An upper bound on the magnitude of every coordinate the box's
    /// corners are computed from (metres): rounding is relative to it.
    pub magnitude: Real,
}

impl<'s> FramedBox<'s> {
    /// The box that owns the frame (the frame is its pose without the
    /// scale): its corners are its local ones times `scale`.
    #[inline]
    pub(super) fn owner(shape: BoxShape<'s>, scale: Real) -> Self {
        let (center, u, half) = shape.local_frame();
        let placement = Pose::IDENTITY.with_scale(scale);
        let center = center * scale;
        let half = half * scale;
        FramedBox {
            shape,
            placement,
            local_is_frame: scale == 1.0,
            center,
            u,
            v: perp(u),
            half,
            magnitude: center.x.abs() + center.y.abs() + half.x.abs() + half.y.abs(),
        }
    }

    /// The other box, placed with `relative` (its pose seen from the frame).
    #[inline]
    pub(super) fn placed(shape: BoxShape<'s>, relative: &Pose) -> Self {
        let (local_center, local_u, local_half) = shape.local_frame();
        // R perp(x) = perp(R x) bit for bit, so `v` is the rotated edge-2
        // normal the generic path computes.
        let u = relative.rotate(local_u);
        let half = local_half * relative.scale;
        let t = relative.translation;
        let scaled_center = local_center * relative.scale;
        FramedBox {
            shape,
            placement: *relative,
            local_is_frame: false,
            center: relative.transform_point(local_center),
            u,
            v: perp(u),
            half,
            magnitude: t.x.abs()
                + t.y.abs()
                + scaled_center.x.abs()
                + scaled_center.y.abs()
                + half.x.abs()
                + half.y.abs(),
        }
    }

    /// Corner `k` (mod 4) in the frame.
    #[inline]
    pub(super) fn vertex(&self, k: usize) -> Vec2 {
        let local = self.shape.local_vertex(k);
        if self.local_is_frame {
            local
        } else {
            self.placement.transform_point(local)
        }
    }

    /// Outward unit normal of edge `k` (mod 4) in the frame.
    #[inline]
    pub(super) fn normal(&self, k: usize) -> Vec2 {
        match k & 3 {
            0 => -self.v,
            1 => self.u,
            2 => self.v,
            _ => -self.u,
        }
    }

    /// Half extent along the normal of edge `k` (metres).
    #[inline]
    pub(super) fn half_across(&self, k: usize) -> Real {
        if k & 1 == 1 { self.half.x } else { self.half.y }
    }

    /// Edge `k` (mod 4) as a face: the face [`Face::of_polygon`] makes of
    /// the generic path's polygon.
    #[inline(always)]
    pub(super) fn face(&self, k: usize) -> Face {
        let next = (k + 1) & 3;
        Face {
            start: self.vertex(k),
            end: self.vertex(next),
            normal: self.normal(k),
            radius: 0.0,
            start_feature: vertex_feature(k & 3),
            end_feature: vertex_feature(next),
            edge_feature: edge_feature(k & 3),
        }
    }

    /// The separations of `other` from the two faces of this box that look
    /// towards it, in closed form: `|d·a| - h - (other's half extent along
    /// a)` for the face of axis `a` on the side of the offset `d` (the
    /// other two faces are farther behind by the box's whole width).
    /// Returns `[(separation, face); 2]` for the `u` face (1 or 3) and the
    /// `v` face (0 or 2); where the offset is 0 along an axis, both faces
    /// of that axis tie and the first listed (1, 0) is taken, as the vertex
    /// form takes it.
    #[inline]
    pub(super) fn facing_separations(
        &self,
        other: &FramedBox<'_>,
        cos: Real,
        sin: Real,
    ) -> [(Real, usize); 2] {
        // `cos` = |u·u'| = |v·v'| and `sin` = |u·v'| = |v·u'| for any two
        // frames of the plane; the other box reaches hx'|a·u'| + hy'|a·v'|
        // along a unit axis a.
        let offset = other.center - self.center;
        let (along_u, along_v) = (offset.dot(&self.u), offset.dot(&self.v));
        let separation_u = along_u.abs() - self.half.x - (other.half.x * cos + other.half.y * sin);
        let separation_v = along_v.abs() - self.half.y - (other.half.x * sin + other.half.y * cos);
        [
            (separation_u, if along_u >= 0.0 { 1 } else { 3 }),
            (separation_v, if along_v > 0.0 { 2 } else { 0 }),
        ]
    }

    /// The separation of `other` from face `k` as the generic path computes
    /// it, bit for bit: `min_j n_k·(w_j - c_k)` over the other's corners.
    #[inline]
    pub(super) fn vertex_separation(&self, k: usize, other: &FramedBox<'_>) -> Real {
        let (normal, origin) = (self.normal(k), self.vertex(k));
        let mut separation = Real::INFINITY;
        for j in 0..4 {
            let distance = normal.dot(&(other.vertex(j) - origin));
            if distance < separation {
                separation = distance;
            }
        }
        separation
    }

    /// The larger side of the box's bounding box along the world axes
    /// `world_x` and `world_y` (unit vectors in frame coordinates), metres.
    #[inline]
    pub(super) fn world_extent(&self, world_x: Vec2, world_y: Vec2) -> Real {
        let reach = |axis: Vec2| {
            self.half.x * axis.dot(&self.u).abs() + self.half.y * axis.dot(&self.v).abs()
        };
        2.0 * reach(world_x).max(reach(world_y))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::contact::clip::max_face_separation;
    use crate::shape::ConvexPolygon;

    fn kinds() -> Vec<Shape> {
        let (min, max) = (vec2(-0.3, 0.2), vec2(0.9, 0.7));
        // The same rectangle starting at its top-right corner.
        let turned = [max, vec2(min.x, max.y), min, vec2(max.x, min.y)];
        vec![
            Shape::from(Aabb::new(min, max).unwrap()),
            Shape::from(OrientedRect::new(vec2(0.2, -0.1), vec2(0.6, 0.25), 0.7).unwrap()),
            Shape::from(ConvexPolygon::rectangle(min, max).unwrap()),
            Shape::from(ConvexPolygon::new(&turned).unwrap()),
        ]
    }

    fn polygon_of(shape: &Shape) -> (Vec<Vec2>, Vec<Vec2>) {
        match shape {
            Shape::Aabb(aabb) => (
                aabb.vertices().to_vec(),
                vec![
                    vec2(0.0, -1.0),
                    vec2(1.0, 0.0),
                    vec2(0.0, 1.0),
                    vec2(-1.0, 0.0),
                ],
            ),
            Shape::OrientedRect(rect) => {
                let [x, y] = rect.axes();
                (rect.vertices().to_vec(), vec![-y, x, y, -x])
            }
            Shape::ConvexPolygon(polygon) => {
                (polygon.vertices().to_vec(), polygon.normals().to_vec())
            }
            _ => unreachable!(),
        }
    }

    #[test]
    fn corners_and_normals_are_the_polygon_ones_in_order() {
        let relative = Pose::new(vec2(1.5, -0.25), 2.1).with_scale(1.7);
        for shape in kinds() {
            let boxed = BoxShape::of(&shape).unwrap();
            let (vertices, normals) = polygon_of(&shape);
            for (framed, pose) in [
                (FramedBox::owner(boxed, 1.0), Pose::IDENTITY),
                (FramedBox::owner(boxed, 2.5), Pose::IDENTITY.with_scale(2.5)),
                (FramedBox::placed(boxed, &relative), relative),
            ] {
                for k in 0..4 {
                    assert_eq!(framed.vertex(k), pose.transform_point(vertices[k]));
                    assert_eq!(framed.normal(k), pose.rotate(normals[k]));
                    // The closed form describes the same corner.
                    let sign = |bit: bool| if bit { 1.0 } else { -1.0 };
                    let ideal = framed.center
                        + framed.u * (framed.half.x * sign(k == 1 || k == 2))
                        + framed.v * (framed.half.y * sign(k >= 2));
                    assert!((ideal - framed.vertex(k)).norm() < 1e-5, "{k}");
                }
            }
        }
    }

    #[test]
    fn closed_form_separations_are_the_vertex_form() {
        let kinds = kinds();
        for (i, a) in kinds.iter().enumerate() {
            for b in &kinds {
                for step in 0..24 {
                    let angle = step as Real * 0.29 + i as Real;
                    let offset = vec2(angle.cos(), (1.3 * angle).sin()) * 1.4;
                    let relative = Pose::new(offset, angle * 1.7).with_scale(0.8);
                    let box_a = FramedBox::owner(BoxShape::of(a).unwrap(), 1.3);
                    let box_b = FramedBox::placed(BoxShape::of(b).unwrap(), &relative);
                    let (cos, sin) = (box_a.u.dot(&box_b.u).abs(), box_a.u.dot(&box_b.v).abs());
                    let corners = |framed: &FramedBox| -> Vec<Vec2> {
                        (0..4).map(|k| framed.vertex(k)).collect()
                    };
                    let normals = |framed: &FramedBox| -> Vec<Vec2> {
                        (0..4).map(|k| framed.normal(k)).collect()
                    };
                    for (one, other) in [(&box_a, &box_b), (&box_b, &box_a)] {
                        for (closed, face) in one.facing_separations(other, cos, sin) {
                            let exact = one.vertex_separation(face, other);
                            assert!((closed - exact).abs() < 1e-5, "{closed} vs {exact}");
                            let (one_face, _) = max_face_separation(
                                &corners(one)[face..=face],
                                &normals(one)[face..=face],
                                &corners(other),
                                Real::INFINITY,
                            );
                            assert_eq!(exact, one_face);
                        }
                        // The better facing face is the best face.
                        let [(along_u, _), (along_v, _)] = one.facing_separations(other, cos, sin);
                        let (best, _) = max_face_separation(
                            &corners(one),
                            &normals(one),
                            &corners(other),
                            Real::INFINITY,
                        );
                        assert!((along_u.max(along_v) - best).abs() < 1e-5);
                    }
                }
            }
        }
    }
}
