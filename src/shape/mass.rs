//! [`MassProperties`] of every solid shape, per unit density, in the local frame.
//!
//! Area in m², centroid in local metres, polar moment of inertia about the
//! centroid in m⁴ (multiply by density in kg/m² for kg·m²). Under a pose with
//! scale `s`, area scales by s², inertia by s⁴ ([`MassProperties::scaled`]).

use super::{Capsule, Circle, Shape};
use crate::math::{Real, Vec2, cross};

/// Area, centroid and rotational inertia of a shape of unit density.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MassProperties {
    /// Area (m²); equals the mass at unit density.
    pub area: Real,
    /// Centre of mass (local frame, metres).
    pub centroid: Vec2,
    /// Polar moment of inertia about the centroid at unit density (m⁴).
    pub inertia: Real,
}

impl MassProperties {
    /// Zero area: points, lines and segments carry no mass.
    pub const ZERO: MassProperties = MassProperties {
        area: 0.0,
        centroid: Vec2::new(0.0, 0.0),
        inertia: 0.0,
    };

    /// These properties for the shape scaled uniformly by `scale` about the local origin.
    pub fn scaled(&self, scale: Real) -> MassProperties {
        MassProperties {
            area: self.area * scale * scale,
            centroid: self.centroid * scale,
            inertia: self.inertia * scale.powi(4),
        }
    }

    /// Combines disjoint parts (for a decomposed polygon or several colliders).
    pub fn combine(parts: &[MassProperties]) -> MassProperties {
        let area: Real = parts.iter().map(|p| p.area).sum();
        if area <= 0.0 {
            return MassProperties::ZERO;
        }
        let centroid = parts.iter().map(|p| p.centroid * p.area).sum::<Vec2>() / area;
        // Parallel-axis theorem: I = Σ (I_i + A_i |c_i − c|²).
        let inertia = parts
            .iter()
            .map(|p| p.inertia + p.area * (p.centroid - centroid).norm_squared())
            .sum();
        MassProperties {
            area,
            centroid,
            inertia,
        }
    }
}

/// Mass properties of a simple polygon given counter-clockwise (triangle fan).
pub fn polygon_mass(vertices: &[Vec2]) -> MassProperties {
    let n = vertices.len();
    let origin = vertices[0];
    let mut area = 0.0;
    let mut first_moment = Vec2::zeros();
    let mut second_moment = 0.0;
    for i in 1..n - 1 {
        // Triangle (origin, p, q) with p, q relative to the origin.
        let p = vertices[i] - origin;
        let q = vertices[i + 1] - origin;
        let d = cross(p, q);
        let tri_area = 0.5 * d;
        area += tri_area;
        first_moment += (p + q) * (tri_area / 3.0);
        // ∫ |x|² dA over the triangle (0, p, q) = d/12 · (p·p + p·q + q·q).
        second_moment += d / 12.0 * (p.dot(&p) + p.dot(&q) + q.dot(&q));
    }
    let centroid_rel = first_moment / area;
    MassProperties {
        area,
        centroid: origin + centroid_rel,
        inertia: second_moment - area * centroid_rel.norm_squared(),
    }
}

fn circle_mass(circle: &Circle) -> MassProperties {
    let r2 = circle.radius() * circle.radius();
    let area = std::f32::consts::PI * r2;
    MassProperties {
        area,
        centroid: circle.center(),
        inertia: 0.5 * area * r2,
    }
}

fn capsule_mass(capsule: &Capsule) -> MassProperties {
    let r = capsule.radius();
    let length = capsule.length_of_core();
    let center = (capsule.a() + capsule.b()) * 0.5;
    // Box of length × 2r plus a full disc split in two half discs at the ends.
    let box_area = 2.0 * r * length;
    let box_inertia = box_area * (length * length + 4.0 * r * r) / 12.0;
    let disc_area = std::f32::consts::PI * r * r;
    // Each half disc: centroid at 4r/(3π) beyond the end; I about its own centroid
    // is (r²/2 − (4r/3π)²)·A/2; shift to the capsule centre by (L/2 + 4r/3π).
    let offset = 4.0 * r / (3.0 * std::f32::consts::PI);
    let half_area = 0.5 * disc_area;
    let half_own = half_area * (0.5 * r * r - offset * offset);
    let shift = 0.5 * length + offset;
    let discs_inertia = 2.0 * (half_own + half_area * shift * shift);
    MassProperties {
        area: box_area + disc_area,
        centroid: center,
        inertia: box_inertia + discs_inertia,
    }
}

impl Capsule {
    fn length_of_core(&self) -> Real {
        (self.b() - self.a()).norm()
    }
}

impl Shape {
    /// Mass properties at unit density in the local frame; zero for
    /// [`Shape::Point`], [`Shape::Line`] and [`Shape::Segment`], which have no
    /// area. A [`Shape::Tree`] gives [`crate::shape::CircleTree::mass_properties`]:
    /// its source outline's when fitted, otherwise the union of its leaf discs.
    pub fn mass_properties(&self) -> MassProperties {
        match self {
            Shape::Point(_) | Shape::Line(_) | Shape::Segment(_) => MassProperties::ZERO,
            Shape::Circle(c) => circle_mass(c),
            Shape::Capsule(c) => capsule_mass(c),
            Shape::Aabb(b) => polygon_mass(&b.vertices()),
            Shape::OrientedRect(r) => polygon_mass(&r.vertices()),
            Shape::ConvexPolygon(p) => polygon_mass(p.vertices()),
            Shape::TileTriangle(t) => polygon_mass(&t.vertices()),
            Shape::SimplePolygon(p) => polygon_mass(p.vertices()),
            Shape::Tree(tree) => tree.mass_properties(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;
    use crate::shape::{Aabb, SimplePolygon};

    #[test]
    fn box_mass_matches_closed_form() {
        let b = Shape::Aabb(Aabb::new(vec2(1.0, 1.0), vec2(3.0, 2.0)).unwrap());
        let m = b.mass_properties();
        assert!((m.area - 2.0).abs() < 1e-6);
        assert!((m.centroid - vec2(2.0, 1.5)).norm() < 1e-6);
        // (w² + h²) · A / 12 = (4 + 1) · 2 / 12
        assert!((m.inertia - 10.0 / 12.0).abs() < 1e-5);
    }

    #[test]
    fn capsule_of_zero_length_is_a_disc() {
        let cap = Shape::Capsule(Capsule::new(vec2(0.0, 0.0), vec2(0.0, 0.0), 2.0).unwrap());
        let disc = Shape::Circle(Circle::new(vec2(0.0, 0.0), 2.0).unwrap());
        let (a, b) = (cap.mass_properties(), disc.mass_properties());
        assert!((a.area - b.area).abs() < 1e-5 && (a.inertia - b.inertia).abs() < 1e-3);
    }

    #[test]
    fn simple_polygon_mass_equals_sum_of_pieces() {
        let l_shape = [
            vec2(0.0, 0.0),
            vec2(3.0, 0.0),
            vec2(3.0, 1.0),
            vec2(1.0, 1.0),
            vec2(1.0, 2.0),
            vec2(0.0, 2.0),
        ];
        let polygon = SimplePolygon::new(&l_shape).unwrap();
        let parts: Vec<_> = polygon
            .pieces()
            .iter()
            .map(|p| polygon_mass(p.vertices()))
            .collect();
        let whole = Shape::SimplePolygon(polygon).mass_properties();
        let combined = MassProperties::combine(&parts);
        assert!((whole.area - combined.area).abs() < 1e-5);
        assert!((whole.centroid - combined.centroid).norm() < 1e-5);
        assert!((whole.inertia - combined.inertia).abs() < 1e-4);
    }
}
