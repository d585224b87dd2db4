//! Bounding boxes and bounding radii of shapes under a pose.
//!
//! `world_aabb` is tight for circles, capsules, polygons (the box of the
//! placed vertices) and circle trees (the box of the placed leaf discs, so
//! O(leaves)); a [`Line`](super::Line) is unbounded and gets the largest
//! finite box.

use super::{Aabb, CircleTree, Shape};
use crate::math::{Pose, Real, Vec2, vec2};

fn box_of_points(points: impl Iterator<Item = Vec2>) -> Aabb {
    let mut min = vec2(Real::INFINITY, Real::INFINITY);
    let mut max = vec2(Real::NEG_INFINITY, Real::NEG_INFINITY);
    for p in points {
        min = min.inf(&p);
        max = max.sup(&p);
    }
    Aabb::from_min_max_unchecked(min, max)
}

fn inflate(aabb: Aabb, radius: Real) -> Aabb {
    let r = vec2(radius, radius);
    Aabb::from_min_max_unchecked(aabb.min - r, aabb.max + r)
}

/// Leaves placed side by side in [`tree_box`]: independent running minima
/// and maxima the compiler keeps in vector registers.
const BOX_LANES: usize = 4;

/// The box of the placed leaf discs: tight, O(leaves). Each leaf is placed
/// as [`Pose::transform_point`] places its centre (scale, rotate, then
/// translate; the same operations in the same order) and grown by its
/// scaled radius; minima and maxima of finite values do not depend on the
/// order they are taken in, so the lanes give the box a leaf-by-leaf fold
/// gives.
fn tree_box(tree: &CircleTree, pose: &Pose) -> Aabb {
    let discs = tree.leaf_discs();
    let (re, im) = (pose.rotation.re, pose.rotation.im);
    let (s, t) = (pose.scale, pose.translation);
    // Plain comparisons (one instruction a lane): the values are finite.
    let least = |a: Real, b: Real| if b < a { b } else { a };
    let most = |a: Real, b: Real| if b > a { b } else { a };
    // A leaf centre placed as `Pose::transform_point` places it.
    let place_x = |x: Real, y: Real| t.x + (re * (x * s) - im * (y * s));
    let place_y = |x: Real, y: Real| t.y + (im * (x * s) + re * (y * s));
    let n = discs.x.len().min(discs.y.len()).min(discs.radius.len());
    let (xs, ys, rs) = (&discs.x[..n], &discs.y[..n], &discs.radius[..n]);
    let chunks = n / BOX_LANES * BOX_LANES;
    // One running minimum or maximum per lane and side. Each lane's
    // values are computed in their own loop over the lanes, with nothing
    // mixed across lanes, so each line is one vector instruction.
    let mut low_x = [Real::INFINITY; BOX_LANES];
    let mut low_y = [Real::INFINITY; BOX_LANES];
    let mut high_x = [Real::NEG_INFINITY; BOX_LANES];
    let mut high_y = [Real::NEG_INFINITY; BOX_LANES];
    // The x extents over every leaf, then the y extents: computed in one
    // loop, the compiler paired each lane's x and y up (a complex product)
    // and spent most of the time shuffling them apart.
    for ((x, y), r) in lane_chunks(xs, ys, rs, chunks) {
        for l in 0..BOX_LANES {
            let cx = place_x(x[l], y[l]);
            let reach = r[l] * s;
            low_x[l] = least(low_x[l], cx - reach);
            high_x[l] = most(high_x[l], cx + reach);
        }
    }
    for ((x, y), r) in lane_chunks(xs, ys, rs, chunks) {
        for l in 0..BOX_LANES {
            let cy = place_y(x[l], y[l]);
            let reach = r[l] * s;
            low_y[l] = least(low_y[l], cy - reach);
            high_y[l] = most(high_y[l], cy + reach);
        }
    }
    // Pairwise across the lanes.
    let fold = |l: &[Real; BOX_LANES], pick: &dyn Fn(Real, Real) -> Real| {
        pick(pick(l[0], l[1]), pick(l[2], l[3]))
    };
    let mut min = vec2(fold(&low_x, &least), fold(&low_y, &least));
    let mut max = vec2(fold(&high_x, &most), fold(&high_y, &most));
    for ((&x, &y), &r) in xs[chunks..].iter().zip(&ys[chunks..]).zip(&rs[chunks..]) {
        let (cx, cy) = (place_x(x, y), place_y(x, y));
        let reach = r * s;
        min = vec2(least(min.x, cx - reach), least(min.y, cy - reach));
        max = vec2(most(max.x, cx + reach), most(max.y, cy + reach));
    }
    Aabb::from_min_max_unchecked(min, max)
}

/// The first `chunks` leaves of each array, [`BOX_LANES`] at a time.
#[inline(always)]
fn lane_chunks<'a>(
    xs: &'a [Real],
    ys: &'a [Real],
    rs: &'a [Real],
    chunks: usize,
) -> impl Iterator<Item = ((&'a [Real], &'a [Real]), &'a [Real])> {
    xs[..chunks]
        .chunks_exact(BOX_LANES)
        .zip(ys[..chunks].chunks_exact(BOX_LANES))
        .zip(rs[..chunks].chunks_exact(BOX_LANES))
}

impl Shape {
    /// The world-space axis-aligned box around this shape placed at `pose` (metres).
    ///
    /// # Examples
    /// ```
    /// use circlet::{math::{Pose, vec2}, shape::{Circle, Shape}};
    /// let disc = Shape::from(Circle::new(vec2(1.0, 0.0), 0.5).unwrap());
    /// let pose = Pose::from_translation(vec2(10.0, 0.0)).with_scale(2.0);
    /// let aabb = disc.world_aabb(&pose);
    /// assert_eq!((aabb.min, aabb.max), (vec2(11.0, -1.0), vec2(13.0, 1.0)));
    /// ```
    pub fn world_aabb(&self, pose: &Pose) -> Aabb {
        match self {
            Shape::Point(p) => box_of_points(std::iter::once(pose.transform_point(p.position()))),
            Shape::Line(_) => Aabb::from_min_max_unchecked(
                vec2(-Real::MAX, -Real::MAX),
                vec2(Real::MAX, Real::MAX),
            ),
            Shape::Segment(s) => {
                box_of_points([s.a(), s.b()].into_iter().map(|v| pose.transform_point(v)))
            }
            Shape::Capsule(c) => inflate(
                box_of_points([c.a(), c.b()].into_iter().map(|v| pose.transform_point(v))),
                c.radius() * pose.scale,
            ),
            Shape::Circle(c) => inflate(
                box_of_points(std::iter::once(pose.transform_point(c.center()))),
                c.radius() * pose.scale,
            ),
            Shape::Aabb(b) => {
                box_of_points(b.vertices().into_iter().map(|v| pose.transform_point(v)))
            }
            Shape::OrientedRect(r) => {
                box_of_points(r.vertices().into_iter().map(|v| pose.transform_point(v)))
            }
            Shape::ConvexPolygon(p) => {
                box_of_points(p.vertices().iter().map(|v| pose.transform_point(*v)))
            }
            Shape::TileTriangle(t) => {
                box_of_points(t.vertices().into_iter().map(|v| pose.transform_point(v)))
            }
            Shape::SimplePolygon(p) => {
                box_of_points(p.vertices().iter().map(|v| pose.transform_point(*v)))
            }
            Shape::Tree(tree) => tree_box(tree, pose),
        }
    }

    /// Largest distance from the local origin to any point of the shape, in
    /// local units (multiply by the pose scale for metres); infinite for a line.
    ///
    /// Conservative advancement bounds how fast a rotating shape's points move with it.
    pub fn bounding_radius(&self) -> Real {
        let farthest =
            |points: &mut dyn Iterator<Item = Vec2>| points.map(|v| v.norm()).fold(0.0, Real::max);
        match self {
            Shape::Point(p) => p.position().norm(),
            Shape::Line(_) => Real::INFINITY,
            Shape::Segment(s) => s.a().norm().max(s.b().norm()),
            Shape::Capsule(c) => c.a().norm().max(c.b().norm()) + c.radius(),
            Shape::Circle(c) => c.center().norm() + c.radius(),
            Shape::Aabb(b) => farthest(&mut b.vertices().into_iter()),
            Shape::OrientedRect(r) => farthest(&mut r.vertices().into_iter()),
            Shape::ConvexPolygon(p) => farthest(&mut p.vertices().iter().copied()),
            Shape::TileTriangle(t) => farthest(&mut t.vertices().into_iter()),
            Shape::SimplePolygon(p) => farthest(&mut p.vertices().iter().copied()),
            Shape::Tree(tree) => tree.bounding_radius_about_origin(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::{Capsule, ConvexPolygon, TreeBuilder};

    /// The lane-wise tree box equals, bit for bit, the box folded leaf by
    /// leaf from `Pose::transform_point`, for trees of 1 to 40 leaves (full
    /// lanes, a remainder, both) under scaled, turned, moved poses.
    #[test]
    fn tree_box_is_the_leaf_by_leaf_fold() {
        let mut seed = 0x9e37_79b9_u32;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed as Real / u32::MAX as Real * 2.0 - 1.0
        };
        for leaves in 1..=40 {
            let discs: Vec<(Vec2, Real)> = (0..leaves)
                .map(|_| (vec2(next() * 3.0, next() * 3.0), 0.1 + next().abs()))
                .collect();
            let (tree, _) = TreeBuilder::node(Vec2::zeros(), 8.0)
                .children(discs.iter().map(|&(c, r)| TreeBuilder::node(c, r)))
                .build()
                .unwrap();
            for _ in 0..8 {
                let pose = Pose::new(vec2(next() * 50.0, next() * 50.0), next() * 3.2)
                    .with_scale(0.5 + next().abs() * 3.0);
                let mut min = vec2(Real::INFINITY, Real::INFINITY);
                let mut max = vec2(Real::NEG_INFINITY, Real::NEG_INFINITY);
                for leaf in tree.leaf_circles() {
                    let center = pose.transform_point(leaf.center());
                    let reach = Vec2::repeat(pose.scale_length(leaf.radius()));
                    min = min.inf(&(center - reach));
                    max = max.sup(&(center + reach));
                }
                let aabb = Shape::Tree(std::sync::Arc::new(tree.clone())).world_aabb(&pose);
                assert_eq!((aabb.min, aabb.max), (min, max), "{leaves} leaves");
            }
        }
    }

    #[test]
    fn rotated_box_bounds_contain_every_vertex() {
        let square = Shape::from(ConvexPolygon::regular(4, 1.0, 0.0).unwrap());
        let pose = Pose::new(vec2(3.0, -1.0), 0.4).with_scale(2.0);
        let aabb = square.world_aabb(&pose);
        if let Shape::ConvexPolygon(p) = &square {
            for v in p.vertices() {
                let w = pose.transform_point(*v);
                assert!(
                    w.x >= aabb.min.x
                        && w.x <= aabb.max.x
                        && w.y >= aabb.min.y
                        && w.y <= aabb.max.y
                );
            }
        }
        assert!((square.bounding_radius() - 1.0).abs() < 1e-6);
    }

    #[test]
    fn tree_bounds_are_those_of_its_leaf_discs() {
        use crate::shape::{Circle, CircleTree};
        let leaves = [
            Circle::new(vec2(-1.0, 0.0), 0.5).unwrap(),
            Circle::new(vec2(1.5, 0.5), 0.25).unwrap(),
        ];
        let tree = CircleTree::from_leaves(&leaves, 2).unwrap();
        let shape = Shape::from(tree.clone());
        let pose = Pose::new(vec2(2.0, 1.0), std::f32::consts::FRAC_PI_2).with_scale(2.0);
        let aabb = shape.world_aabb(&pose);
        // Leaf centres turn to (2, -1) and (1, 4), radii double to 1 and 0.5.
        assert!((aabb.min - vec2(0.5, -2.0)).norm() < 1e-5, "{:?}", aabb.min);
        assert!((aabb.max - vec2(3.0, 4.5)).norm() < 1e-5, "{:?}", aabb.max);
        assert_eq!(shape.bounding_radius(), tree.bounding_radius_about_origin());
        assert!((shape.bounding_radius() - (2.5f32.sqrt() + 0.25)).abs() < 1e-5);
        assert_eq!(shape.mass_properties(), tree.mass_properties());
        assert!(shape.is_solid());
    }

    #[test]
    fn capsule_bounds_include_the_radius() {
        let capsule = Shape::from(Capsule::new(vec2(-1.0, 0.0), vec2(1.0, 0.0), 0.5).unwrap());
        let aabb = capsule.world_aabb(&Pose::IDENTITY);
        assert_eq!((aabb.min, aabb.max), (vec2(-1.5, -0.5), vec2(1.5, 0.5)));
        assert!((capsule.bounding_radius() - 1.5).abs() < 1e-6);
    }
}
