//! Mass properties and extents of a body from its colliders, at its current scale.
//!
//! Mass is the sum over non-sensor colliders of density × area; the centre
//! of mass and the inertia combine by the parallel-axis theorem. Under the
//! body's uniform scale `s`, areas scale by s² and inertia by s⁴, so a
//! rescale recomputes these numbers without touching any shape.

use super::World;
use super::handles::BodyKey;
use super::settings::LINEAR_SLOP;
use crate::math::{Real, Vec2};
use crate::shape::{MassProperties, Shape};

/// Thinnest half-size of a shape (local units): the smallest distance from
/// its middle to its boundary. Circles and capsules: the radius; boxes: the
/// smaller half extent; polygons: the nearest edge line to the vertex
/// average; simple polygons: the thinnest convex piece; circle trees: the
/// smallest leaf radius; points and segments: 0.
pub(crate) fn shape_min_extent(shape: &Shape) -> Real {
    match shape {
        Shape::Point(_) | Shape::Line(_) | Shape::Segment(_) => 0.0,
        Shape::Circle(c) => c.radius(),
        Shape::Capsule(c) => c.radius(),
        Shape::Aabb(b) => b.half_extents().min(),
        Shape::OrientedRect(r) => r.half_extents().min(),
        Shape::ConvexPolygon(p) => polygon_min_extent(p.vertices()),
        Shape::TileTriangle(t) => polygon_min_extent(&t.vertices()),
        Shape::SimplePolygon(p) => p
            .pieces()
            .iter()
            .map(|piece| polygon_min_extent(piece.vertices()))
            .fold(Real::INFINITY, Real::min),
        Shape::Tree(tree) => tree
            .leaf_circles()
            .map(|leaf| leaf.radius())
            .fold(Real::INFINITY, Real::min),
    }
}

/// Distance from the vertex average to the nearest edge line of a convex
/// counter-clockwise polygon.
fn polygon_min_extent(vertices: &[Vec2]) -> Real {
    let n = vertices.len();
    if n < 3 {
        return 0.0;
    }
    let middle = vertices.iter().sum::<Vec2>() / n as Real;
    (0..n)
        .map(|i| {
            let edge = vertices[(i + 1) % n] - vertices[i];
            let length = edge.norm();
            if length > 0.0 {
                // distance to the edge line = cross(edge, middle - v_i) / |edge|
                crate::math::cross(edge, middle - vertices[i]) / length
            } else {
                0.0
            }
        })
        .fold(Real::INFINITY, Real::min)
        .max(0.0)
}

impl World {
    /// Recomputes mass, centre of mass, inertia and extents from the
    /// colliders at the body's current scale.
    pub(crate) fn update_mass(&mut self, key: BodyKey) {
        let Some(b) = self.bodies.get(key) else {
            return;
        };
        let scale = b.pose.scale;
        let mut parts: smallvec::SmallVec<[MassProperties; 4]> = smallvec::SmallVec::new();
        let mut min_extent = Real::INFINITY;
        for c in b.colliders.iter().filter_map(|c| self.colliders.get(c.key)) {
            min_extent = min_extent.min(shape_min_extent(&c.shape) * c.local_pose.scale);
            if c.sensor {
                continue;
            }
            let local = c.shape.mass_properties();
            let density = c.material.density;
            parts.push(MassProperties {
                area: local.area * c.local_pose.scale * c.local_pose.scale * density,
                centroid: c.local_pose.transform_point(local.centroid),
                inertia: local.inertia * c.local_pose.scale.powi(4) * density,
            });
        }
        let combined = MassProperties::combine(&parts);
        let local_center = combined.centroid;
        let mut max_extent: Real = 0.0;
        for c in b.colliders.iter().filter_map(|c| self.colliders.get(c.key)) {
            let reach = (c.local_pose.translation - local_center).norm()
                + c.shape.bounding_radius() * c.local_pose.scale;
            max_extent = max_extent.max(reach);
        }
        let Some(b) = self.bodies.get_mut(key) else {
            return;
        };
        b.min_extent = if min_extent.is_finite() {
            (min_extent * scale).max(LINEAR_SLOP)
        } else {
            LINEAR_SLOP
        };
        b.max_extent = max_extent * scale;
        // Keep the centre of mass where it is in the world when it shifts.
        let old_center = b.pose.transform_point(b.local_center);
        b.local_center = local_center;
        let new_center = b.pose.transform_point(b.local_center);
        let scaled = combined.scaled(scale);
        if b.is_dynamic() && scaled.area > 0.0 && scaled.area.is_finite() {
            b.mass = scaled.area;
            b.inv_mass = 1.0 / b.mass;
            b.inertia = scaled.inertia;
            b.inv_inertia = if b.inertia > 0.0 && b.inertia.is_finite() {
                1.0 / b.inertia
            } else {
                0.0
            };
            // v_new_center = v_old_center + ω × (new − old)
            let shifted =
                b.linear_velocity + crate::math::perp(new_center - old_center) * b.angular_velocity;
            if crate::math::is_finite_vec(shifted) {
                b.linear_velocity = shifted;
            }
        } else {
            b.mass = 0.0;
            b.inv_mass = 0.0;
            b.inertia = 0.0;
            b.inv_inertia = 0.0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;
    use crate::shape::{Aabb, Capsule, Circle, ConvexPolygon, SimplePolygon};

    #[test]
    fn extents_are_the_thinnest_half_size() {
        let circle = Shape::from(Circle::new(vec2(3.0, 0.0), 0.5).unwrap());
        assert_eq!(shape_min_extent(&circle), 0.5);
        let capsule = Shape::from(Capsule::new(vec2(0.0, 0.0), vec2(5.0, 0.0), 0.2).unwrap());
        assert_eq!(shape_min_extent(&capsule), 0.2);
        let plank = Shape::from(Aabb::new(vec2(0.0, 0.0), vec2(4.0, 0.01)).unwrap());
        assert!((shape_min_extent(&plank) - 0.005).abs() < 1e-7);
        let square =
            Shape::from(ConvexPolygon::rectangle(vec2(-1.0, -1.0), vec2(1.0, 1.0)).unwrap());
        assert!((shape_min_extent(&square) - 1.0).abs() < 1e-6);
        let l_shape = Shape::from(
            SimplePolygon::new(&[
                vec2(0.0, 0.0),
                vec2(4.0, 0.0),
                vec2(4.0, 1.0),
                vec2(1.0, 1.0),
                vec2(1.0, 4.0),
                vec2(0.0, 4.0),
            ])
            .unwrap(),
        );
        let extent = shape_min_extent(&l_shape);
        assert!(extent > 0.0 && extent <= 0.5 + 1e-6, "{extent}");
    }
}
