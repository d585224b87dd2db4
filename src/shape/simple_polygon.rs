//! [`SimplePolygon`]: a non-convex outline without self-intersections, and its
//! decomposition into convex pieces.
//!
//! Invariants (checked by [`SimplePolygon::new`]): at least 3 finite vertices,
//! no repeated or collinear vertex, no two edges touching except neighbours at
//! their shared vertex; stored counter-clockwise. The pieces are convex,
//! counter-clockwise, do not overlap, and their union is the polygon.
//!
//! Decomposition: ear clipping into triangles, then Hertel–Mehlhorn merging of
//! neighbouring pieces across a diagonal whenever the result stays convex (at
//! most four times the optimal number of pieces).

use super::convex_polygon::ConvexPolygon;
use super::error::ShapeError;
use super::outline::{check_points, normalize_outline, reject_collinear, segments_touch};
use crate::math::{Real, Vec2, cross};

/// A simple (non-self-intersecting) polygon, convex or not, in its local frame.
#[derive(Clone, Debug, PartialEq)]
pub struct SimplePolygon {
    vertices: Vec<Vec2>,
    pieces: Vec<ConvexPolygon>,
    /// Per piece, a circle holding it (local centre and radius).
    piece_bounds: Vec<(Vec2, Real)>,
}

impl SimplePolygon {
    /// Validates the outline and decomposes it into convex pieces.
    ///
    /// Clockwise input is accepted and reversed; error indices refer to the input.
    ///
    /// # Errors
    /// [`ShapeError::NonFinite`], [`ShapeError::TooFewPoints`],
    /// [`ShapeError::RepeatedPoint`], [`ShapeError::Degenerate`],
    /// [`ShapeError::CollinearPoint`] or [`ShapeError::SelfIntersecting`]
    /// naming the two crossing edges by input index.
    ///
    /// # Examples
    /// ```
    /// use circlet::shape::SimplePolygon;
    /// use circlet::math::vec2;
    /// let l_shape = [vec2(0.0, 0.0), vec2(2.0, 0.0), vec2(2.0, 1.0),
    ///                vec2(1.0, 1.0), vec2(1.0, 2.0), vec2(0.0, 2.0)];
    /// let polygon = SimplePolygon::new(&l_shape).unwrap();
    /// assert!((polygon.area() - 3.0).abs() < 1e-6);
    /// assert!(polygon.pieces().len() <= 3);
    /// let bow_tie = [vec2(0.0, 0.0), vec2(1.0, 1.0), vec2(1.0, 0.0), vec2(0.0, 1.0)];
    /// assert!(SimplePolygon::new(&bow_tie).is_err());
    /// ```
    pub fn new(points: &[Vec2]) -> Result<Self, ShapeError> {
        // Self-intersection is checked on the input order so that the edge
        // indices in the error are the caller's.
        check_points(points)?;
        let n = points.len();
        {
            for i in 0..n {
                for j in (i + 1)..n {
                    let adjacent = j == i + 1 || (i == 0 && j == n - 1);
                    if adjacent {
                        continue;
                    }
                    if segments_touch(
                        points[i],
                        points[(i + 1) % n],
                        points[j],
                        points[(j + 1) % n],
                    ) {
                        return Err(ShapeError::SelfIntersecting {
                            edge_a: i,
                            edge_b: j,
                        });
                    }
                }
            }
        }
        let (outline, original_index) = normalize_outline(points)?;
        reject_collinear(&outline, &original_index)?;
        let pieces = decompose(&outline);
        let piece_bounds = pieces.iter().map(bounding_circle).collect();
        Ok(SimplePolygon {
            vertices: outline,
            pieces,
            piece_bounds,
        })
    }

    /// The outline, counter-clockwise (local frame).
    pub fn vertices(&self) -> &[Vec2] {
        &self.vertices
    }

    /// Convex pieces whose union is the polygon (local frame).
    pub fn pieces(&self) -> &[ConvexPolygon] {
        &self.pieces
    }

    /// Per piece (in the order of [`Self::pieces`]), a circle holding it:
    /// local centre (the mean of its vertices) and radius (to the farthest).
    pub(crate) fn piece_bounds(&self) -> &[(Vec2, Real)] {
        &self.piece_bounds
    }

    /// Area enclosed (local units squared).
    pub fn area(&self) -> Real {
        super::outline::twice_signed_area(&self.vertices) * 0.5
    }
}

/// A circle holding `piece`: about the mean of its vertices, through the
/// farthest one.
fn bounding_circle(piece: &ConvexPolygon) -> (Vec2, Real) {
    let vertices = piece.vertices();
    let mean = vertices.iter().sum::<Vec2>() / vertices.len().max(1) as Real;
    let reach = vertices
        .iter()
        .map(|v| (v - mean).norm())
        .fold(0.0, Real::max);
    (mean, reach)
}

/// True if `p` is inside or on triangle `a b c` (counter-clockwise).
fn in_triangle(p: Vec2, a: Vec2, b: Vec2, c: Vec2) -> bool {
    cross(b - a, p - a) >= 0.0 && cross(c - b, p - b) >= 0.0 && cross(a - c, p - c) >= 0.0
}

/// Ear clipping: triangles as index triples into `outline` (counter-clockwise).
fn triangulate(outline: &[Vec2]) -> Vec<[usize; 3]> {
    let mut remaining: Vec<usize> = (0..outline.len()).collect();
    let mut triangles = Vec::with_capacity(outline.len() - 2);
    let mut guard = 0usize;
    while remaining.len() > 3 {
        let m = remaining.len();
        let mut clipped = false;
        // Prefer the best-shaped ear (largest minimum angle sine) for robustness.
        let mut best: Option<(usize, Real)> = None;
        for k in 0..m {
            let ia = remaining[(k + m - 1) % m];
            let ib = remaining[k];
            let ic = remaining[(k + 1) % m];
            let (a, b, c) = (outline[ia], outline[ib], outline[ic]);
            if cross(b - a, c - b) <= 0.0 {
                continue; // reflex or flat: not an ear
            }
            let blocked = remaining
                .iter()
                .any(|&j| j != ia && j != ib && j != ic && in_triangle(outline[j], a, b, c));
            if blocked {
                continue;
            }
            let quality = cross(b - a, c - b)
                / ((b - a).norm_squared() + (c - b).norm_squared() + (a - c).norm_squared());
            if best.is_none_or(|(_, q)| quality > q) {
                best = Some((k, quality));
            }
        }
        if let Some((k, _)) = best {
            let ia = remaining[(k + m - 1) % m];
            let ib = remaining[k];
            let ic = remaining[(k + 1) % m];
            triangles.push([ia, ib, ic]);
            remaining.remove(k);
            clipped = true;
        }
        if !clipped {
            // Only reachable through rounding on nearly degenerate input:
            // clip the most convex vertex to guarantee progress.
            guard += 1;
            let k = (0..m)
                .max_by(|&x, &y| {
                    let turn = |k: usize| {
                        let (a, b, c) = (
                            outline[remaining[(k + m - 1) % m]],
                            outline[remaining[k]],
                            outline[remaining[(k + 1) % m]],
                        );
                        cross(b - a, c - b)
                    };
                    turn(x).total_cmp(&turn(y))
                })
                .unwrap_or(0);
            triangles.push([
                remaining[(k + m - 1) % m],
                remaining[k],
                remaining[(k + 1) % m],
            ]);
            remaining.remove(k);
            if guard > outline.len() {
                break;
            }
        }
    }
    if remaining.len() == 3 {
        triangles.push([remaining[0], remaining[1], remaining[2]]);
    }
    triangles
}

/// True if the cyclic index list forms a strictly convex counter-clockwise outline.
fn is_convex(outline: &[Vec2], piece: &[usize]) -> bool {
    let m = piece.len();
    (0..m).all(|k| {
        let a = outline[piece[(k + m - 1) % m]];
        let b = outline[piece[k]];
        let c = outline[piece[(k + 1) % m]];
        cross(b - a, c - b) > 0.0
    })
}

/// Hertel–Mehlhorn: merge pieces across shared diagonals while they stay convex.
fn decompose(outline: &[Vec2]) -> Vec<ConvexPolygon> {
    let mut pieces: Vec<Vec<usize>> = triangulate(outline)
        .into_iter()
        .map(|t| t.to_vec())
        .collect();
    let mut merged_any = true;
    while merged_any {
        merged_any = false;
        'outer: for i in 0..pieces.len() {
            for j in (i + 1)..pieces.len() {
                if let Some(merged) = merge_pieces(&pieces[i], &pieces[j])
                    && is_convex(outline, &merged)
                {
                    pieces[i] = merged;
                    pieces.swap_remove(j);
                    merged_any = true;
                    break 'outer;
                }
            }
        }
    }
    pieces
        .into_iter()
        .map(|piece| ConvexPolygon::from_ccw_unchecked(piece.iter().map(|&i| outline[i]).collect()))
        .collect()
}

/// Joins two counter-clockwise index cycles that share an edge (u, v) in `a`
/// and (v, u) in `b`; `None` if they share no edge.
fn merge_pieces(a: &[usize], b: &[usize]) -> Option<Vec<usize>> {
    let (na, nb) = (a.len(), b.len());
    for i in 0..na {
        let (u, v) = (a[i], a[(i + 1) % na]);
        for j in 0..nb {
            if b[j] == v && b[(j + 1) % nb] == u {
                // a: ... u | v ...   walk a from v round to u, then b from u round to v.
                let mut merged = Vec::with_capacity(na + nb - 2);
                for k in 0..na {
                    merged.push(a[(i + 1 + k) % na]);
                }
                // merged ends with u; append b's vertices strictly between u and v.
                for k in 2..nb {
                    merged.push(b[(j + k) % nb]);
                }
                return Some(merged);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;

    fn area(points: &[Vec2]) -> Real {
        super::super::outline::twice_signed_area(points) * 0.5
    }

    #[test]
    fn pieces_are_convex_and_cover_the_area() {
        let star: Vec<Vec2> = (0..10)
            .map(|i| {
                let r = if i % 2 == 0 { 2.0 } else { 0.8 };
                let a = std::f32::consts::TAU * i as f32 / 10.0;
                vec2(r * a.cos(), r * a.sin())
            })
            .collect();
        let polygon = SimplePolygon::new(&star).unwrap();
        let total: Real = polygon.pieces().iter().map(|p| area(p.vertices())).sum();
        assert!((total - polygon.area()).abs() < 1e-4 * polygon.area());
        assert!(polygon.pieces().len() <= 8);
        for piece in polygon.pieces() {
            assert!(ConvexPolygon::new(piece.vertices()).is_ok());
        }
    }

    #[test]
    fn self_intersection_names_both_edges() {
        let bow_tie = [
            vec2(0.0, 0.0),
            vec2(1.0, 1.0),
            vec2(1.0, 0.0),
            vec2(0.0, 1.0),
        ];
        assert_eq!(
            SimplePolygon::new(&bow_tie),
            Err(ShapeError::SelfIntersecting {
                edge_a: 0,
                edge_b: 2
            })
        );
    }

    #[test]
    fn convex_input_is_one_piece() {
        let square = [
            vec2(0.0, 0.0),
            vec2(1.0, 0.0),
            vec2(1.0, 1.0),
            vec2(0.0, 1.0),
        ];
        assert_eq!(SimplePolygon::new(&square).unwrap().pieces().len(), 1);
    }
}
