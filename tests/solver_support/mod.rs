//! Shared by the lane-solver tests (`solver_lanes.rs`,
//! `solver_kept_colors.rs`): manifolds drawn from a normal angle and
//! points, warm-start impulses by feature id, and bodies as bits.

#![allow(dead_code)]

use circlet::dynamics::SolverBody;
use circlet::math::Vec2;
use circlet::query::{ContactPoint, FeatureId, Manifold};

/// The manifold of normal angle `angle` (rad) and points `(x, y, depth in
/// units of 5 cm)`, numbered from 1.
pub fn manifold(angle: f32, points: &[[f32; 3]]) -> Manifold {
    Manifold {
        normal: Vec2::new(angle.cos(), angle.sin()),
        points: points
            .iter()
            .enumerate()
            .map(|(i, q)| ContactPoint {
                point: Vec2::new(q[0], q[1]),
                depth: q[2] * 0.05,
                id: FeatureId(i as u32 + 1),
                part_a: None,
                part_b: None,
            })
            .collect(),
    }
}

/// Warm-start impulses (normal, tangent) by feature id.
pub fn warm(id: FeatureId) -> (f32, f32) {
    (id.0 as f32 * 0.25, id.0 as f32 * -0.125)
}

/// Every value of every body as bits (a float comparison would take -0
/// for +0).
pub fn body_bits(bodies: &[SolverBody]) -> Vec<[u32; 8]> {
    bodies
        .iter()
        .map(|b| {
            let c = b.delta_rotation.complex();
            [
                b.linear_velocity.x,
                b.linear_velocity.y,
                b.angular_velocity,
                b.inv_mass,
                b.delta_position.x,
                b.delta_position.y,
                c.re,
                c.im,
            ]
            .map(f32::to_bits)
        })
        .collect()
}
