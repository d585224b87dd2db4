//! Time of impact of a moving circle (or point) and a moving convex polygon:
//! a thick cast of the circle against the polygon in the polygon's frame of
//! motion (exact: offset edges and vertex arcs, see `cast_capsule_polygon`).

use super::toi_circle_capsule::from_relative_hit;
use super::types::Toi;
use crate::math::{Real, Vec2};
use crate::query::WorldPolygon;
use crate::query::cast::local::LocalShot;

/// Time of impact of circle A and convex polygon B; world coordinates (or any
/// common origin), motions in metres per step.
///
/// # Examples
/// ```
/// use circlet::math::{Pose, vec2};
/// use circlet::query::WorldPolygon;
/// use circlet::query::time_of_impact::toi_circle_polygon;
/// let square = [vec2(4.0, -1.0), vec2(6.0, -1.0), vec2(6.0, 1.0), vec2(4.0, 1.0)];
/// let wall = WorldPolygon::from_local_vertices(&square, &Pose::IDENTITY);
/// let toi = toi_circle_polygon(vec2(0.0, 0.0), 1.0, vec2(6.0, 0.0), &wall, vec2(0.0, 0.0)).unwrap();
/// assert!((toi.fraction - 0.5).abs() < 1e-6);
/// assert!((toi.point - vec2(4.0, 0.0)).norm() < 1e-5);
/// ```
pub fn toi_circle_polygon(
    center_a: Vec2,
    radius_a: Real,
    motion_a: Vec2,
    polygon_b: &WorldPolygon,
    motion_b: Vec2,
) -> Option<Toi> {
    let shot = LocalShot {
        start: center_a,
        delta: motion_a - motion_b,
        radius: radius_a,
    };
    let hit = crate::query::cast::local::cast_polygon_local(
        &shot,
        &polygon_b.vertices,
        &polygon_b.normals,
        0.0,
    )?;
    Some(from_relative_hit(
        hit, center_a, radius_a, motion_a, motion_b,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Pose, vec2};

    #[test]
    fn both_moving_corner_hit_and_overlap() {
        let square = [
            vec2(-1.0, -1.0),
            vec2(1.0, -1.0),
            vec2(1.0, 1.0),
            vec2(-1.0, 1.0),
        ];
        let polygon = WorldPolygon::from_local_vertices(&square, &Pose::IDENTITY);
        // The circle heads for the corner (1, 1) along the diagonal while the
        // square moves away along x at a third of its speed.
        let diagonal = vec2(1.0, 1.0).normalize();
        let start = vec2(1.0, 1.0) + diagonal * 3.5;
        let toi =
            toi_circle_polygon(start, 0.5, -diagonal * 6.0, &polygon, vec2(0.0, 0.0)).unwrap();
        assert!((toi.fraction - 0.5).abs() < 1e-5);
        assert!((toi.normal + diagonal).norm() < 1e-5); // from the circle to the square
        assert!((toi.point - vec2(1.0, 1.0)).norm() < 1e-5);
        let overlap = toi_circle_polygon(
            vec2(1.2, 0.0),
            0.5,
            vec2(5.0, 0.0),
            &polygon,
            vec2(0.0, 0.0),
        )
        .unwrap();
        assert_eq!(overlap.status, super::super::ToiStatus::OverlappingAtStart);
        assert!((overlap.normal - vec2(-1.0, 0.0)).norm() < 1e-6);
        // Moving together: never closer.
        assert!(
            toi_circle_polygon(
                vec2(3.0, 0.0),
                0.5,
                vec2(4.0, 0.0),
                &polygon,
                vec2(4.0, 0.0)
            )
            .is_none()
        );
    }
}
