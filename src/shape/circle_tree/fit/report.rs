//! [`FitReport`]: how well each level of a tree fits the outline it covers.
//!
//! Level k is the *cut* through the tree at depth k: the nodes at depth k and
//! the leaves above it, which is exactly what a query stopped at level k
//! sees. For each cut the report gives the worst and mean overhang bound
//! (`max(0, r + sd(c))` per circle, exact for convex outlines, an upper bound
//! otherwise; see `disc_fit`), the coverage (fraction of a regular grid of
//! sample points of the true shape that lie in some circle of the cut: 1 by
//! construction, measured as a check) and the area ratio (exact area of the
//! union of the cut's circles over the shape's area).

use super::super::CircleTree;
use super::super::enclosing::{DVec, Disc};
use super::super::union_mass::union_mass;
use super::disc_grid::DiscGrid;
use crate::math::Real;
use std::fmt;

/// Sample points per side of the coverage grid over the shape's bounding box.
const COVERAGE_SAMPLES: usize = 160;

/// Fit quality of one level of a circle tree (see the module docs).
#[derive(Clone, Debug, PartialEq)]
pub struct LevelReport {
    /// Depth of the level (0 = root).
    pub level: u32,
    /// Nodes at exactly this depth.
    pub nodes: usize,
    /// Circles in the cut: nodes at this depth plus leaves above it.
    pub circles: usize,
    /// Largest overhang bound of a circle of the cut (local units).
    pub worst_overhang: Real,
    /// Mean overhang bound over the circles of the cut (local units).
    pub mean_overhang: Real,
    /// Fraction of the shape's sample points inside some circle of the cut.
    pub coverage: Real,
    /// Area of the union of the cut's circles over the shape's area (>= 1).
    pub area_ratio: Real,
}

/// What a builder achieved: per-level fit quality, leaf count and the bound asked for.
#[derive(Clone, Debug, PartialEq)]
pub struct FitReport {
    /// The overhang bound the builder was given (local units); 0 for trees
    /// that were not fitted to an outline.
    pub epsilon: Real,
    /// Number of leaves.
    pub leaf_count: usize,
    /// Area of the true shape (local units²).
    pub shape_area: Real,
    /// One entry per depth, root first; the last one is the leaf cut.
    pub levels: Vec<LevelReport>,
}

impl FitReport {
    /// The report of the deepest level: all leaves.
    pub fn leaf_level(&self) -> Option<&LevelReport> {
        self.levels.last()
    }

    /// Worst overhang bound of the leaves (local units).
    pub fn worst_leaf_overhang(&self) -> Real {
        self.leaf_level().map_or(0.0, |l| l.worst_overhang)
    }
}

impl fmt::Display for FitReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "| level | nodes | circles | worst overhang | mean overhang | coverage | area ratio |"
        )?;
        writeln!(f, "|---:|---:|---:|---:|---:|---:|---:|")?;
        for l in &self.levels {
            writeln!(
                f,
                "| {} | {} | {} | {:.4} | {:.4} | {:.4} | {:.3} |",
                l.level,
                l.nodes,
                l.circles,
                l.worst_overhang,
                l.mean_overhang,
                l.coverage,
                l.area_ratio
            )?;
        }
        Ok(())
    }
}

/// The true shape as the report sees it.
pub(crate) struct Outline<'a> {
    /// Signed distance bound (negative inside): overhang of D(c, r) <= r + sd(c).
    pub sd: &'a dyn Fn(DVec) -> f64,
    /// Membership of the true shape.
    pub contains: &'a dyn Fn(DVec) -> bool,
    pub lo: DVec,
    pub hi: DVec,
    pub area: f64,
}

/// Computes the report of `tree` against `outline`.
pub(crate) fn compute(tree: &CircleTree, outline: &Outline<'_>, epsilon: Real) -> FitReport {
    let nodes = tree.nodes();
    let mut depth_of = vec![0u32; nodes.len()];
    for i in 0..nodes.len() {
        for child in nodes[i].children() {
            depth_of[child] = depth_of[i] + 1;
        }
    }
    let samples = sample_points(outline);
    let mut levels = Vec::new();
    for level in 0..=tree.depth() {
        let cut: Vec<Disc> = (0..nodes.len())
            .filter(|&i| depth_of[i] == level || (nodes[i].is_leaf() && depth_of[i] < level))
            .map(|i| Disc::new(nodes[i].center(), nodes[i].radius()))
            .collect();
        let overhangs: Vec<f64> = cut
            .iter()
            .map(|d| (d.radius + (outline.sd)(d.center)).max(0.0))
            .collect();
        let worst = overhangs.iter().copied().fold(0.0, f64::max);
        let mean = overhangs.iter().sum::<f64>() / overhangs.len().max(1) as f64;
        let cut_grid = DiscGrid::new(&cut);
        let covered = samples.iter().filter(|p| cut_grid.holds(**p)).count();
        let coverage = if samples.is_empty() {
            1.0
        } else {
            covered as f64 / samples.len() as f64
        };
        let union_area = union_mass(&cut).area as f64;
        levels.push(LevelReport {
            level,
            nodes: depth_of.iter().filter(|&&d| d == level).count(),
            circles: cut.len(),
            worst_overhang: worst as Real,
            mean_overhang: mean as Real,
            coverage: coverage as Real,
            area_ratio: (union_area / outline.area.max(f64::MIN_POSITIVE)) as Real,
        });
    }
    FitReport {
        epsilon,
        leaf_count: tree.leaves().len(),
        shape_area: outline.area as Real,
        levels,
    }
}

fn sample_points(outline: &Outline<'_>) -> Vec<DVec> {
    let step = (outline.hi - outline.lo) / COVERAGE_SAMPLES as f64;
    let mut out = Vec::new();
    for i in 0..=COVERAGE_SAMPLES {
        for j in 0..=COVERAGE_SAMPLES {
            let p = outline.lo + DVec::new(i as f64 * step.x, j as f64 * step.y);
            if (outline.contains)(p) {
                out.push(p);
            }
        }
    }
    out
}
