//! The SAT loop over a polygon of up to four or eight vertices, in lanes.
//!
//! [`super::clip::max_face_separation`] takes, for each face, the minimum
//! over the other polygon's vertices of `normal·(p - vertex)`. With the
//! other polygon's coordinates in two arrays of four or eight (the unused
//! lanes repeating a vertex, which leaves a minimum unchanged), the terms of
//! a face are computed side by side and reduced by halves: the same values,
//! in a handful of vector instructions instead of a loop per vertex.

use crate::math::{Real, Vec2};

/// Vertex coordinates in `LANES` lanes (a power of two): `xs[k]`, `ys[k]`
/// for vertex `k`, the lanes past the last vertex repeating vertex 0.
#[derive(Clone, Copy, Debug)]
pub(super) struct Lanes<const LANES: usize> {
    xs: [Real; LANES],
    ys: [Real; LANES],
}

impl<const LANES: usize> Lanes<LANES> {
    /// The lanes of `points`, or `None` without points or with more than
    /// `LANES`.
    pub(super) fn of(points: &[Vec2]) -> Option<Self> {
        let first = *points.first()?;
        if points.len() > LANES {
            return None;
        }
        let mut lanes = Lanes {
            xs: [first.x; LANES],
            ys: [first.y; LANES],
        };
        for ((x, y), p) in lanes.xs.iter_mut().zip(&mut lanes.ys).zip(points) {
            *x = p.x;
            *y = p.y;
        }
        Some(lanes)
    }

    /// `min_k normal·(p_k - origin)` over the points, as
    /// [`super::clip::max_face_separation`] computes each term (NaN terms
    /// are skipped there; here they may win, which only an invalid pose
    /// can cause).
    #[inline]
    pub(super) fn min_height(&self, normal: Vec2, origin: Vec2) -> Real {
        let mut heights = [0.0; LANES];
        for ((height, x), y) in heights.iter_mut().zip(&self.xs).zip(&self.ys) {
            // Vec2::dot evaluates x·x' + y·y' in this order.
            *height = normal.x * (x - origin.x) + normal.y * (y - origin.y);
        }
        // Halving: lanes k and k + width/2 meet until one is left.
        let mut width = LANES;
        while width > 1 {
            width /= 2;
            for k in 0..width {
                if heights[k + width] < heights[k] {
                    heights[k] = heights[k + width];
                }
            }
        }
        heights[0]
    }

    /// [`super::clip::max_face_separation`] of these points against the
    /// faces `vertices`/`normals`: the largest separation, its face (the
    /// first on ties), stopping at a face past `stop_above`.
    pub(super) fn max_face_separation(
        &self,
        vertices: &[Vec2],
        normals: &[Vec2],
        stop_above: Real,
    ) -> (Real, usize) {
        let mut best = (Real::NEG_INFINITY, 0);
        for (i, (vertex, normal)) in vertices.iter().zip(normals).enumerate() {
            let separation = self.min_height(*normal, *vertex);
            if separation > best.0 {
                best = (separation, i);
                if separation > stop_above {
                    break;
                }
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;
    use crate::query::contact::clip::max_face_separation;

    #[test]
    fn lanes_give_the_separations_of_the_vertex_loop() {
        let regular = |count: usize, radius: Real, phase: Real, center: Vec2| -> Vec<Vec2> {
            (0..count)
                .map(|k| {
                    let angle = phase + std::f32::consts::TAU * k as Real / count as Real;
                    center + vec2(angle.cos(), angle.sin()) * radius
                })
                .collect()
        };
        let normals = |outline: &[Vec2]| -> Vec<Vec2> {
            (0..outline.len())
                .map(|i| {
                    let edge = outline[(i + 1) % outline.len()] - outline[i];
                    vec2(edge.y, -edge.x).normalize()
                })
                .collect()
        };
        let mut compared = 0;
        for count_a in 3..=8 {
            for count_b in 3..=8 {
                for step in 0..12 {
                    let offset = vec2(0.3 * step as Real - 1.5, 0.7 - 0.11 * step as Real);
                    let a = regular(count_a, 1.0, 0.1 * step as Real, vec2(0.0, 0.0));
                    let b = regular(count_b, 0.8, -0.2 * step as Real, offset);
                    let eight = Lanes::<8>::of(&b).unwrap();
                    let four = Lanes::<4>::of(&b);
                    assert_eq!(four.is_some(), count_b <= 4);
                    for stop_above in [Real::INFINITY, 0.0] {
                        let expected = max_face_separation(&a, &normals(&a), &b, stop_above);
                        assert_eq!(
                            eight.max_face_separation(&a, &normals(&a), stop_above),
                            expected
                        );
                        if let Some(four) = four {
                            assert_eq!(
                                four.max_face_separation(&a, &normals(&a), stop_above),
                                expected
                            );
                        }
                    }
                    compared += 1;
                }
            }
        }
        assert_eq!(compared, 6 * 6 * 12);
        assert!(Lanes::<8>::of(&[]).is_none());
        assert!(Lanes::<8>::of(&[vec2(0.0, 0.0); 9]).is_none());
    }
}
