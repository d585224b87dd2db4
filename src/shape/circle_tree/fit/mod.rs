//! Fitting builders: a [`CircleTree`] whose leaves cover an outline with a
//! bounded overhang.
//!
//! # Guarantees
//! - **Coverage**: every point of the true shape lies in some leaf, so a
//!   fitted tree never misses a hit the exact shape would have.
//! - **Overhang**: no leaf sticks out of the true shape by more than ε
//!   (`max over the leaf of the distance to the shape <= ε`). A disc D(c, r)
//!   overhangs a shape with signed distance sd by at most `r + sd(c)`, exactly
//!   that much when the shape is convex; the builders keep every leaf within
//!   that bound.
//! - **Radii vary**: small circles in convex corners (a corner of angle α
//!   covered by a circle of radius r overhangs by at least r(1 − sin(α/2))),
//!   large ones inside and along flat or gently curved stretches, where a deep
//!   circle cuts the boundary like a chord of sagitta ε: along a boundary of
//!   curvature radius R the leaves are about √(Rε) apart, so the leaf count
//!   grows like ε^(-1/2) on smooth outlines.
//!
//! # Method
//! 1. The outline becomes a region (boundary segments, inside test, exact
//!    signed distance through a segment hierarchy). A capsule is covered
//!    through a polygon circumscribed about it within ε/32, its overhang
//!    measured on the exact capsule.
//! 2. Pieces: a quadtree splits the region until each cell's piece (the
//!    convex hull of the region inside the cell) has a disc of overhang bound
//!    <= ε/4, its centre searched deep inside the shape (minimising
//!    `max |p − c| + sd(c)` over c).
//! 3. Cover: leaves are grown one at a time from the most constrained
//!    uncovered piece (corners and tips first, then along the frontier of
//!    what is covered), taking whole pieces while a centre meeting the bound
//!    exists, then the parts of cut pieces inside the final disc. Slivers are
//!    then absorbed by neighbours, each leaf shrinks to what it holds, and
//!    leaves held by others are dropped.
//! 4. Leaves are rounded to f32 outwards (radius rounded up past the centre's
//!    rounding) and grouped bottom-up into a hierarchy of smallest enclosing
//!    circles.
//!
//! All fitting geometry runs in f64; a fit is deterministic.

mod cover;
pub(crate) mod disc_fit;
mod disc_grid;
mod mask;
pub(crate) mod pieces;
pub(crate) mod region;
mod report;
mod tighten;

pub use mask::AlphaMask;
pub use report::{FitReport, LevelReport};

use super::enclosing::{DVec, Disc};
use super::validate::{round_up, to_f64};
use super::{CircleTree, TreeError, hierarchy, validate};
use crate::math::{Real, Vec2};
use crate::shape::{
    Aabb, Capsule, Circle, ConvexPolygon, OrientedRect, Shape, SimplePolygon, polygon_mass,
};
use region::{Inside, Region, Truth};

/// Default number of children per node.
pub const DEFAULT_BRANCHING: usize = 4;

/// The smallest ε accepted, relative to the outline's size (half its
/// bounding-box diagonal): below it f32 leaves cannot hold the bound
/// reliably and the leaf count grows without use.
pub const MIN_RELATIVE_EPSILON: Real = 1e-4;

/// Pieces are split until their best disc overhangs by at most this fraction
/// of ε, so that the cover's discs (allowed the full ε) each hold several
/// pieces and can be placed freely.
const PIECE_TARGET_FRACTION: f64 = 0.25;

/// A capsule is covered through a circumscribed polygon at most this
/// fraction of ε outside it (well below the piece target, which the pieces
/// must be able to reach).
const CAPSULE_OUTLINE_FRACTION: f64 = PIECE_TARGET_FRACTION / 8.0;

/// Margin kept from ε for rounding the leaves to f32, relative to the
/// largest coordinate of the outline (about 8 f32 ulps).
const F32_ROUNDING_MARGIN: f64 = 1e-6;

/// Slack added to every leaf radius before rounding, relative to the
/// outline's size: covers f64 rounding of the clipped piece vertices.
const COVER_SLACK: f64 = 1e-12;

/// Options of the fitting builders.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FitOptions {
    /// Largest allowed overhang of a leaf beyond the true outline (local units, > 0).
    pub epsilon: Real,
    /// Largest number of children per node (>= 2).
    pub branching: usize,
}

impl FitOptions {
    /// Options with overhang bound `epsilon` (local units) and the default branching of 4.
    pub fn new(epsilon: Real) -> FitOptions {
        FitOptions {
            epsilon,
            branching: DEFAULT_BRANCHING,
        }
    }

    /// These options with another branching factor.
    pub fn with_branching(mut self, branching: usize) -> FitOptions {
        self.branching = branching;
        self
    }

    fn validate(&self) -> Result<(), TreeError> {
        if !(self.epsilon.is_finite() && self.epsilon > 0.0) {
            return Err(TreeError::InvalidEpsilon {
                epsilon: self.epsilon,
            });
        }
        if self.branching < 2 {
            return Err(TreeError::InvalidBranching {
                branching: self.branching,
            });
        }
        Ok(())
    }
}

fn to_dvecs(points: &[Vec2]) -> Vec<DVec> {
    points.iter().map(|p| to_f64(*p)).collect()
}

impl CircleTree {
    /// Fits a tree to a convex polygon.
    ///
    /// # Errors
    /// [`TreeError::InvalidEpsilon`], [`TreeError::EpsilonTooSmall`] or
    /// [`TreeError::InvalidBranching`] for bad options.
    ///
    /// # Examples
    /// ```
    /// use circlet::shape::{CircleTree, ConvexPolygon, FitOptions};
    /// let hexagon = ConvexPolygon::regular(6, 1.0, 0.0).unwrap();
    /// let (tree, report) = CircleTree::fit_convex_polygon(&hexagon, &FitOptions::new(0.05)).unwrap();
    /// assert!(report.worst_leaf_overhang() <= 0.05);
    /// assert_eq!(report.leaf_level().unwrap().coverage, 1.0);
    /// assert_eq!(report.leaf_count, tree.leaves().len());
    /// ```
    pub fn fit_convex_polygon(
        polygon: &ConvexPolygon,
        options: &FitOptions,
    ) -> Result<(CircleTree, FitReport), TreeError> {
        let mass = polygon_mass(polygon.vertices());
        fit_region(
            &Region::polygon(&to_dvecs(polygon.vertices()), mass),
            options,
        )
    }

    /// Fits a tree to a simple (possibly non-convex) polygon.
    ///
    /// # Errors
    /// As [`CircleTree::fit_convex_polygon`].
    pub fn fit_simple_polygon(
        polygon: &SimplePolygon,
        options: &FitOptions,
    ) -> Result<(CircleTree, FitReport), TreeError> {
        let mass = polygon_mass(polygon.vertices());
        fit_region(
            &Region::polygon(&to_dvecs(polygon.vertices()), mass),
            options,
        )
    }

    /// Fits a tree to a box.
    ///
    /// # Errors
    /// As [`CircleTree::fit_convex_polygon`].
    pub fn fit_aabb(
        aabb: &Aabb,
        options: &FitOptions,
    ) -> Result<(CircleTree, FitReport), TreeError> {
        let vertices = aabb.vertices();
        fit_region(
            &Region::polygon(&to_dvecs(&vertices), polygon_mass(&vertices)),
            options,
        )
    }

    /// Fits a tree to a rotated rectangle.
    ///
    /// # Errors
    /// As [`CircleTree::fit_convex_polygon`].
    pub fn fit_oriented_rect(
        rect: &OrientedRect,
        options: &FitOptions,
    ) -> Result<(CircleTree, FitReport), TreeError> {
        let vertices = rect.vertices();
        fit_region(
            &Region::polygon(&to_dvecs(&vertices), polygon_mass(&vertices)),
            options,
        )
    }

    /// Fits a tree to a capsule (overhang measured on the exact capsule).
    ///
    /// # Errors
    /// As [`CircleTree::fit_convex_polygon`].
    pub fn fit_capsule(
        capsule: &Capsule,
        options: &FitOptions,
    ) -> Result<(CircleTree, FitReport), TreeError> {
        options.validate()?;
        let radius = capsule.radius() as f64;
        let offset = options.epsilon as f64 * CAPSULE_OUTLINE_FRACTION;
        // A regular n-gon about a circle of radius r reaches r / cos(π/n): n >= π / acos(r / (r + δ)).
        let sides = (std::f64::consts::PI / (radius / (radius + offset)).acos())
            .ceil()
            .clamp(8.0, 4096.0) as usize;
        let circumradius = radius / (std::f64::consts::PI / sides as f64).cos();
        let (a, b) = (to_f64(capsule.a()), to_f64(capsule.b()));
        let mut points: Vec<DVec> = (0..sides)
            .flat_map(|i| {
                let angle = std::f64::consts::TAU * i as f64 / sides as f64;
                let spoke = DVec::new(angle.cos(), angle.sin()) * circumradius;
                [a + spoke, b + spoke]
            })
            .collect();
        let outline = pieces::convex_hull(&mut points);
        let n = outline.len();
        let segments = (0..n).map(|i| [outline[i], outline[(i + 1) % n]]).collect();
        let truth = Truth::Capsule { a, b, radius };
        let mass = Shape::Capsule(*capsule).mass_properties();
        fit_region(
            &Region::new(segments, Inside::Segments, truth, mass),
            options,
        )
    }

    /// Fits a tree to the solid pixels of an alpha mask.
    ///
    /// # Errors
    /// As [`CircleTree::fit_convex_polygon`]; the mask itself was validated by
    /// [`AlphaMask::new`].
    pub fn fit_mask(
        mask: &AlphaMask,
        options: &FitOptions,
    ) -> Result<(CircleTree, FitReport), TreeError> {
        fit_region(&mask.region(), options)
    }

    /// Fits a tree to any solid shape: a [`Shape::Circle`] becomes a single
    /// exact leaf, a [`Shape::Tree`] is returned unchanged (with its report
    /// measured against its own leaves), the other solid kinds go to their
    /// builder.
    ///
    /// # Errors
    /// As [`CircleTree::fit_convex_polygon`]; [`TreeError::NotSolid`] for
    /// points, lines and segments, which have no area.
    pub fn fit_shape(
        shape: &Shape,
        options: &FitOptions,
    ) -> Result<(CircleTree, FitReport), TreeError> {
        match shape {
            Shape::Circle(circle) => fit_circle(circle, options),
            Shape::Capsule(c) => Self::fit_capsule(c, options),
            Shape::Aabb(b) => Self::fit_aabb(b, options),
            Shape::OrientedRect(r) => Self::fit_oriented_rect(r, options),
            Shape::ConvexPolygon(p) => Self::fit_convex_polygon(p, options),
            Shape::SimplePolygon(p) => Self::fit_simple_polygon(p, options),
            Shape::TileTriangle(t) => {
                let vertices = t.vertices();
                fit_region(
                    &Region::polygon(&to_dvecs(&vertices), polygon_mass(&vertices)),
                    options,
                )
            }
            Shape::Tree(tree) => {
                // Already a tree: returned as it is, measured against its own leaves.
                options.validate()?;
                let leaves: Vec<Disc> = tree
                    .leaf_circles()
                    .map(|c| Disc::new(c.center(), c.radius()))
                    .collect();
                let report = report_for_leaves(tree, &leaves);
                Ok((CircleTree::clone(tree), report))
            }
            Shape::Point(_) | Shape::Line(_) | Shape::Segment(_) => {
                Err(TreeError::NotSolid { kind: shape.kind() })
            }
        }
    }
}

/// A circle is its own exact single leaf.
fn fit_circle(circle: &Circle, options: &FitOptions) -> Result<(CircleTree, FitReport), TreeError> {
    options.validate()?;
    let flat = vec![super::FlatNode {
        center: circle.center(),
        radius: circle.radius(),
        children: 0..0,
        part: None,
    }];
    let mass = Shape::Circle(*circle).mass_properties();
    let tree = validate::build(flat, Vec::new(), Some(mass))?;
    let disc = Disc::new(circle.center(), circle.radius());
    let sd = |p: DVec| (p - disc.center).norm() - disc.radius;
    let contains = |p: DVec| sd(p) <= 0.0;
    let outline = report::Outline {
        sd: &sd,
        contains: &contains,
        lo: disc.center - DVec::repeat(disc.radius),
        hi: disc.center + DVec::repeat(disc.radius),
        area: mass.area as f64,
    };
    let report = report::compute(&tree, &outline, options.epsilon);
    Ok((tree, report))
}

/// The report of a tree measured against the union of `leaves` (explicit
/// trees): `min_i(|c − c_i| − r_i)` is an upper bound of the signed distance
/// to the union, so `r + min_i(...)` bounds a circle's overhang.
pub(crate) fn report_for_leaves(tree: &CircleTree, leaves: &[Disc]) -> FitReport {
    // The leaves on a grid: the same minimum as a scan over every leaf, in
    // a few cells a point.
    let grid = disc_grid::DiscGrid::new(leaves);
    let sd = |p: DVec| grid.signed_distance(p);
    let contains = |p: DVec| sd(p) <= 0.0;
    let mut lo = DVec::repeat(f64::INFINITY);
    let mut hi = DVec::repeat(f64::NEG_INFINITY);
    for d in leaves {
        lo = lo.inf(&(d.center - DVec::repeat(d.radius)));
        hi = hi.sup(&(d.center + DVec::repeat(d.radius)));
    }
    let outline = report::Outline {
        sd: &sd,
        contains: &contains,
        lo,
        hi,
        area: super::union_mass::union_mass(leaves).area as f64,
    };
    report::compute(tree, &outline, 0.0)
}

/// The common pipeline of the module docs.
fn fit_region(region: &Region, options: &FitOptions) -> Result<(CircleTree, FitReport), TreeError> {
    options.validate()?;
    let size = region.size();
    let minimum = MIN_RELATIVE_EPSILON as f64 * size;
    if (options.epsilon as f64) < minimum {
        return Err(TreeError::EpsilonTooSmall {
            epsilon: options.epsilon,
            minimum: round_up(minimum),
        });
    }
    let magnitude = region.lo.abs().max().max(region.hi.abs().max()).max(size);
    let epsilon = options.epsilon as f64 - F32_ROUNDING_MARGIN * magnitude;
    let pieces = pieces::partition(region, epsilon * PIECE_TARGET_FRACTION);
    let leaves = cover::cover(region, pieces, epsilon);
    let slack = COVER_SLACK * size;
    let min_radius = size * 1e-7;
    let discs: Vec<Disc> = leaves
        .iter()
        .map(|leaf| {
            let center = Vec2::new(leaf.center.x as Real, leaf.center.y as Real);
            let moved = (to_f64(center) - leaf.center).norm();
            let radius = round_up((leaf.radius + moved + slack).max(min_radius));
            Disc::new(center, radius)
        })
        .collect();
    if discs.is_empty() {
        return Err(TreeError::Empty);
    }
    let flat = hierarchy::build_flat(&discs, options.branching);
    let tree = validate::build(flat, Vec::new(), Some(region.mass))?;
    let sd = |p: DVec| region.sd(p);
    let contains = |p: DVec| region.truth_contains(p);
    let outline = report::Outline {
        sd: &sd,
        contains: &contains,
        lo: region.lo,
        hi: region.hi,
        area: region.mass.area as f64,
    };
    let report = report::compute(&tree, &outline, options.epsilon);
    Ok((tree, report))
}
