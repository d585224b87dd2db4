//! Time of impact of a moving capsule (or segment) and a moving convex
//! polygon: a thick cast against their Minkowski difference (see
//! `toi_capsule_capsule` for the reduction).

use super::toi_capsule_capsule::toi_rounded;
use super::types::Toi;
use crate::math::{Real, Vec2};
use crate::query::WorldPolygon;

/// Time of impact of capsule A (core `segment_a`, `radius_a`) and convex
/// polygon B; world coordinates (or any common origin), motions in metres
/// per step.
///
/// # Examples
/// ```
/// use circlet::math::{Pose, vec2};
/// use circlet::query::WorldPolygon;
/// use circlet::query::time_of_impact::toi_capsule_polygon;
/// let floor = [vec2(-5.0, -1.0), vec2(5.0, -1.0), vec2(5.0, 0.0), vec2(-5.0, 0.0)];
/// let floor = WorldPolygon::from_local_vertices(&floor, &Pose::IDENTITY);
/// let log = [vec2(-1.0, 3.0), vec2(1.0, 3.0)];
/// let toi = toi_capsule_polygon(log, 0.5, vec2(0.0, -5.0), &floor, vec2(0.0, 0.0)).unwrap();
/// assert!((toi.fraction - 0.5).abs() < 1e-6);
/// assert!((toi.normal - vec2(0.0, -1.0)).norm() < 1e-6);
/// ```
pub fn toi_capsule_polygon(
    segment_a: [Vec2; 2],
    radius_a: Real,
    motion_a: Vec2,
    polygon_b: &WorldPolygon,
    motion_b: Vec2,
) -> Option<Toi> {
    toi_rounded(
        &segment_a,
        radius_a,
        motion_a,
        &polygon_b.vertices,
        0.0,
        motion_b,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Pose, vec2};

    #[test]
    fn tilted_capsule_lands_on_its_lower_end() {
        let floor = [
            vec2(-5.0, -1.0),
            vec2(5.0, -1.0),
            vec2(5.0, 0.0),
            vec2(-5.0, 0.0),
        ];
        let floor = WorldPolygon::from_local_vertices(&floor, &Pose::IDENTITY);
        // Core from (0, 2) to (2, 3), radius 0.25, falling 4 m and drifting right.
        let toi = toi_capsule_polygon(
            [vec2(0.0, 2.0), vec2(2.0, 3.0)],
            0.25,
            vec2(1.0, -4.0),
            &floor,
            vec2(0.0, 0.0),
        );
        let toi = toi.unwrap();
        assert!((toi.fraction - 1.75 / 4.0).abs() < 1e-5);
        assert!((toi.normal - vec2(0.0, -1.0)).norm() < 1e-6);
        assert!((toi.point - vec2(1.75 / 4.0, 0.0)).norm() < 1e-5);
        // The same capsule falling next to the floor misses it.
        let beside = toi_capsule_polygon(
            [vec2(6.0, 2.0), vec2(8.0, 3.0)],
            0.25,
            vec2(0.0, -4.0),
            &floor,
            vec2(0.0, 0.0),
        );
        assert!(beside.is_none());
    }
}
