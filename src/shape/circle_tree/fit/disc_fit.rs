//! The disc of least overhang bound that holds a convex point set.
//!
//! For a disc D(c, r) and a closed shape S with signed distance sd (negative
//! inside), every point p of D satisfies dist(p, S) <= r + sd(c):
//! - c outside S: dist(p, S) <= |p − c| + dist(c, S) <= r + sd(c);
//! - c inside S at depth h: any point q farther than ε from S is farther than
//!   h + ε from c (the segment c–q leaves S after at least h and then needs
//!   more than ε to get ε away from it), so D ⊆ S ⊕ ε whenever r <= h + ε.
//!
//! For convex S the bound is exact (the farthest point of D lies on the ray
//! from c along the outward normal of its nearest boundary point). So the
//! overhang of a disc that must hold the points H is at most
//! `f(c) = max_h |h − c| + sd(c)`, and this module minimises f over c: the
//! best centre sits deep inside S (where sd is most negative) while still
//! reaching every point. f is convex for convex S; for other shapes the
//! search finds a local minimum, which is still a valid (bounded) disc.

use super::super::enclosing::{DVec, enclosing_points};
use super::region::Region;

/// Pattern-search iterations at most (each tries 8 directions).
const MAX_ITERATIONS: usize = 200;

/// How a centre search starts and when it stops.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Search {
    /// A centre to start from (used when better than the points' enclosing
    /// circle's centre) and the first step length from it.
    pub start: Option<(DVec, f64)>,
    /// Stop as soon as the overhang bound is at or below this.
    pub good_enough: f64,
    /// Stop when the step falls below this fraction of the points'
    /// enclosing radius (f then changes by less than that fraction).
    pub step_floor: f64,
}

impl Search {
    /// Minimise from the enclosing circle's centre, to 1e-3 of its radius.
    pub const FULL: Search = Search {
        start: None,
        good_enough: f64::NEG_INFINITY,
        step_floor: 1e-3,
    };

    /// Decide quickly whether a bound of `epsilon` can be met, from `start`.
    pub fn feasibility(start: DVec, first_step: f64, epsilon: f64) -> Search {
        Search {
            start: Some((start, first_step)),
            good_enough: epsilon,
            step_floor: 1e-2,
        }
    }
}

/// A disc that holds a point set, with its overhang bound.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct FittedDisc {
    pub center: DVec,
    /// Distance to the farthest point held.
    pub radius: f64,
    /// `radius + sd(center)`: an upper bound of how far the disc sticks out.
    pub overhang: f64,
}

/// Farthest distance from `c` to the points.
pub(crate) fn reach(points: &[DVec], c: DVec) -> f64 {
    points
        .iter()
        .map(|p| (p - c).norm_squared())
        .fold(0.0, f64::max)
        .sqrt()
}

/// The disc about `center` holding `points`, and `sd(center)`.
fn evaluate(region: &Region, points: &[DVec], center: DVec) -> (FittedDisc, f64) {
    disc(points, center, region.sd(center))
}

/// The disc about `center` holding `points`, given `sd(center)`; and that.
fn disc(points: &[DVec], center: DVec, sd: f64) -> (FittedDisc, f64) {
    let radius = reach(points, center);
    let disc = FittedDisc {
        center,
        radius,
        overhang: radius + sd,
    };
    (disc, sd)
}

/// The disc of (locally) least overhang bound holding `points`, moving the
/// centre by an expanding / contracting compass search (see [`Search`]).
pub(crate) fn fit_disc(region: &Region, points: &[DVec], search: Search) -> FittedDisc {
    let enclosing = enclosing_points(points);
    // The best disc so far, and the signed distance at its centre.
    let (mut best, mut depth) = evaluate(region, points, enclosing.center);
    let floor = (enclosing.radius * search.step_floor).max(region.size() * 1e-9);
    let mut step = (enclosing.radius * 0.5).max(floor * 2.0);
    if let Some((start, first_step)) = search.start {
        let (warm, warm_depth) = evaluate(region, points, start);
        if warm.overhang < best.overhang {
            (best, depth) = (warm, warm_depth);
            step = first_step.max(floor * 2.0);
        }
    }
    let diagonal = std::f64::consts::FRAC_1_SQRT_2;
    let directions = [
        DVec::new(1.0, 0.0),
        DVec::new(-1.0, 0.0),
        DVec::new(0.0, 1.0),
        DVec::new(0.0, -1.0),
        DVec::new(diagonal, diagonal),
        DVec::new(-diagonal, diagonal),
        DVec::new(diagonal, -diagonal),
        DVec::new(-diagonal, -diagonal),
    ];
    let mut near = Vec::new();
    for _ in 0..MAX_ITERATIONS {
        if step < floor || best.overhang <= search.good_enough {
            break;
        }
        let trials = directions.map(|direction| best.center + direction * step);
        // The directions are unit vectors to rounding: every trial is
        // within `step` of the centre, give or take a few ulps.
        let depths = region.sd_around(best.center, depth, step * (1.0 + 1e-12), &trials, &mut near);
        let mut improved: Option<(FittedDisc, f64)> = None;
        for (center, sd) in trials.into_iter().zip(depths) {
            let trial = disc(points, center, sd);
            if trial.0.overhang < improved.map_or(best.overhang, |(d, _)| d.overhang) {
                improved = Some(trial);
            }
        }
        match improved {
            Some(better) => {
                (best, depth) = better;
                step *= 2.0;
            }
            None => step *= 0.5,
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::MassProperties;

    #[test]
    fn a_boundary_piece_of_a_bar_is_held_from_the_midline() {
        // Bar 8 x 1; a piece along the top edge, 0.4 long and 0.1 deep.
        let bar = [
            DVec::new(-4.0, -0.5),
            DVec::new(4.0, -0.5),
            DVec::new(4.0, 0.5),
            DVec::new(-4.0, 0.5),
        ];
        let region = Region::polygon(&bar, MassProperties::ZERO);
        let piece = [
            DVec::new(-0.2, 0.4),
            DVec::new(0.2, 0.4),
            DVec::new(0.2, 0.5),
            DVec::new(-0.2, 0.5),
        ];
        let disc = fit_disc(&region, &piece, Search::FULL);
        // Centre on the midline: r = sqrt(0.2² + 0.5²), overhang r − 0.5.
        let expected = (0.04f64 + 0.25).sqrt() - 0.5;
        assert!(disc.center.y.abs() < 1e-3, "{disc:?}");
        assert!((disc.overhang - expected).abs() < 1e-4, "{disc:?}");
        // Far better than the piece's own enclosing circle.
        let own = enclosing_points(&piece);
        assert!(own.radius + region.sd(own.center) > 2.0 * disc.overhang);
    }
}
