//! Exact mass properties of a union of discs, by Green's theorem.
//!
//! The boundary of the union is made of the arcs of each circle that no other
//! disc covers. Integrating over that boundary counts every overlap once.
//! Each arc from angle θ1 to θ2 (counter-clockwise on its own circle)
//! contributes, relative to a reference point O:
//! - the triangle (O, P1, P2) of its chord, signed, and
//! - the circular segment between the chord and the arc.
//!
//! The chords of all arcs close into polygons, so the triangles sum to the
//! chord polygons' signed area, and every segment lies inside the union.
//! Segment of half-angle α on a circle of radius r (valid for 0 < α <= π):
//! area r²(2α − sin 2α)/2, first moment about the circle centre
//! (2/3) r³ sin³α along the arc's bisector, polar moment about the centre
//! r⁴α/2 − r⁴ sin 2α (2 + cos 2α)/12 (sector minus the signed triangle).
//! Computed in f64.

use super::enclosing::{DVec, Disc};
use crate::math::{Real, Vec2};
use crate::shape::MassProperties;
use std::f64::consts::{PI, TAU};

/// Area, first moment and polar second moment about the reference point.
#[derive(Default)]
struct Moments {
    area: f64,
    first: DVec,
    second: f64,
}

/// Pairs of discs whose bounding boxes overlap (sweep along x).
fn overlapping_pairs(discs: &[Disc]) -> Vec<Vec<usize>> {
    let mut order: Vec<usize> = (0..discs.len()).collect();
    let min_x = |i: usize| discs[i].center.x - discs[i].radius;
    order.sort_by(|&a, &b| min_x(a).total_cmp(&min_x(b)).then(a.cmp(&b)));
    let mut neighbours = vec![Vec::new(); discs.len()];
    for (k, &a) in order.iter().enumerate() {
        let max_x = discs[a].center.x + discs[a].radius;
        for &b in &order[k + 1..] {
            if min_x(b) > max_x {
                break;
            }
            let dy = (discs[a].center.y - discs[b].center.y).abs();
            if dy <= discs[a].radius + discs[b].radius {
                neighbours[a].push(b);
                neighbours[b].push(a);
            }
        }
    }
    neighbours
}

/// Exact mass properties (unit density) of the union of `discs`; overlaps count once.
pub(crate) fn union_mass(discs: &[Disc]) -> MassProperties {
    let discs: Vec<Disc> = discs
        .iter()
        .copied()
        .filter(|d| d.radius > 0.0 && d.center.x.is_finite() && d.center.y.is_finite())
        .collect();
    if discs.is_empty() {
        return MassProperties::ZERO;
    }
    let neighbours = overlapping_pairs(&discs);
    // A disc inside another adds nothing; of two equal discs keep the first.
    let redundant: Vec<bool> = (0..discs.len())
        .map(|i| {
            neighbours[i].iter().any(|&j| {
                let excess = discs[j].excess(&discs[i]);
                excess < 0.0 || (excess == 0.0 && (discs[i].excess(&discs[j]) > 0.0 || j < i))
            })
        })
        .collect();
    let origin = discs.iter().map(|d| d.center).sum::<DVec>() / discs.len() as f64;
    let mut total = Moments::default();
    let mut covered: Vec<(f64, f64)> = Vec::new();
    for i in 0..discs.len() {
        if redundant[i] {
            continue;
        }
        let disc = discs[i];
        covered.clear();
        for &j in &neighbours[i] {
            if redundant[j] {
                continue;
            }
            let other = discs[j];
            let offset = other.center - disc.center;
            let distance = offset.norm();
            if distance >= disc.radius + other.radius || disc.excess(&other) <= 0.0 {
                continue; // apart, touching, or inside this disc: covers no arc
            }
            // Law of cosines: the other circle crosses this one at ±β about φ.
            let cos_beta = (distance * distance + disc.radius * disc.radius
                - other.radius * other.radius)
                / (2.0 * distance * disc.radius);
            let beta = cos_beta.clamp(-1.0, 1.0).acos();
            let phi = offset.y.atan2(offset.x);
            let start = (phi - beta).rem_euclid(TAU);
            let end = start + 2.0 * beta;
            if end > TAU {
                covered.push((start, TAU));
                covered.push((0.0, end - TAU));
            } else {
                covered.push((start, end));
            }
        }
        if covered.is_empty() {
            add_full_disc(&mut total, &disc, origin);
            continue;
        }
        covered.sort_by(|a, b| a.0.total_cmp(&b.0));
        // Walk the merged covered intervals; the gaps are the boundary arcs.
        let mut cursor = 0.0;
        let mut gaps: Vec<(f64, f64)> = Vec::new();
        for &(start, end) in covered.iter() {
            if start > cursor {
                gaps.push((cursor, start));
            }
            cursor = cursor.max(end);
        }
        if cursor < TAU {
            gaps.push((cursor, TAU));
        }
        // An arc through angle 0 is one arc, not two.
        if gaps.len() >= 2 && gaps[0].0 == 0.0 && gaps[gaps.len() - 1].1 == TAU {
            let last = gaps.pop().unwrap_or((0.0, 0.0));
            gaps[0] = (last.0 - TAU, gaps[0].1);
        }
        for (start, end) in gaps {
            if end > start {
                add_arc(&mut total, &disc, start, end, origin);
            }
        }
    }
    if total.area <= 0.0 {
        return MassProperties::ZERO;
    }
    let centroid = total.first / total.area;
    let inertia = total.second - total.area * centroid.norm_squared();
    let centroid = origin + centroid;
    MassProperties {
        area: total.area as Real,
        centroid: Vec2::new(centroid.x as Real, centroid.y as Real),
        inertia: inertia.max(0.0) as Real,
    }
}

fn add_full_disc(total: &mut Moments, disc: &Disc, origin: DVec) {
    let r2 = disc.radius * disc.radius;
    let area = PI * r2;
    let offset = disc.center - origin;
    total.area += area;
    total.first += offset * area;
    // J about the centre is A r²/2; shift to the origin (parallel axis).
    total.second += 0.5 * area * r2 + area * offset.norm_squared();
}

fn add_arc(total: &mut Moments, disc: &Disc, start: f64, end: f64, origin: DVec) {
    let r = disc.radius;
    let on_circle = |angle: f64| DVec::new(angle.cos(), angle.sin()) * r;
    let (p1, p2) = (on_circle(start), on_circle(end));
    // Chord triangle (O, P1, P2), relative to O.
    let to_origin = disc.center - origin;
    let (a, b) = (to_origin + p1, to_origin + p2);
    let cross = a.x * b.y - a.y * b.x;
    total.area += 0.5 * cross;
    total.first += (a + b) * (cross / 6.0);
    total.second += cross / 12.0 * (a.dot(&a) + a.dot(&b) + b.dot(&b));
    // Circular segment between the chord and the arc.
    let half = 0.5 * (end - start);
    let r2 = r * r;
    let area = 0.5 * r2 * (2.0 * half - (2.0 * half).sin());
    let bisector = 0.5 * (start + end);
    let direction = DVec::new(bisector.cos(), bisector.sin());
    let first_about_center = direction * (2.0 / 3.0 * r2 * r * half.sin().powi(3));
    let second_about_center =
        r2 * r2 * half / 2.0 - r2 * r2 * (2.0 * half).sin() * (2.0 + (2.0 * half).cos()) / 12.0;
    total.area += area;
    total.first += to_origin * area + first_about_center;
    // ∫|x − O|² = ∫|x − c|² + 2 (c − O)·∫(x − c) + A |c − O|².
    total.second += second_about_center
        + 2.0 * to_origin.dot(&first_about_center)
        + area * to_origin.norm_squared();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(x: f64, y: f64, r: f64) -> Disc {
        Disc::at(DVec::new(x, y), r)
    }

    /// Grid integration of the union (test oracle only).
    fn sampled(discs: &[Disc], n: usize) -> (f64, DVec, f64) {
        let (mut lo, mut hi) = (DVec::repeat(f64::INFINITY), DVec::repeat(f64::NEG_INFINITY));
        for disc in discs {
            lo = lo.inf(&(disc.center - DVec::repeat(disc.radius)));
            hi = hi.sup(&(disc.center + DVec::repeat(disc.radius)));
        }
        let step = (hi - lo) / n as f64;
        let cell = step.x * step.y;
        let (mut area, mut first, mut second) = (0.0, DVec::zeros(), 0.0);
        for i in 0..n {
            for j in 0..n {
                let p = lo + DVec::new((i as f64 + 0.5) * step.x, (j as f64 + 0.5) * step.y);
                if discs
                    .iter()
                    .any(|disc| (p - disc.center).norm() <= disc.radius)
                {
                    area += cell;
                    first += p * cell;
                    second += p.norm_squared() * cell;
                }
            }
        }
        let centroid = first / area;
        (area, centroid, second - area * centroid.norm_squared())
    }

    #[test]
    fn single_disc_and_nested_and_equal_discs() {
        for discs in [
            vec![d(1.0, 2.0, 3.0)],
            vec![d(1.0, 2.0, 3.0), d(1.5, 2.0, 1.0)],
            vec![d(1.0, 2.0, 3.0), d(1.0, 2.0, 3.0)],
        ] {
            let m = union_mass(&discs);
            assert!((m.area as f64 - PI * 9.0).abs() < 1e-4, "{m:?}");
            assert!((m.centroid - Vec2::new(1.0, 2.0)).norm() < 1e-5);
            assert!((m.inertia as f64 - PI * 81.0 / 2.0).abs() < 1e-3);
        }
    }

    #[test]
    fn lens_of_two_unit_discs_matches_closed_form() {
        // Two unit discs with centres 1 apart: overlap = 2 acos(1/2) − (1/2)√3.
        let m = union_mass(&[d(0.0, 0.0, 1.0), d(1.0, 0.0, 1.0)]);
        let lens = 2.0 * (0.5f64).acos() - 0.5 * 3f64.sqrt();
        assert!((m.area as f64 - (2.0 * PI - lens)).abs() < 1e-5);
        assert!((m.centroid - Vec2::new(0.5, 0.0)).norm() < 1e-6);
    }

    #[test]
    fn many_discs_match_grid_integration() {
        let discs = vec![
            d(0.0, 0.0, 1.0),
            d(1.2, 0.3, 0.8),
            d(0.5, 1.1, 0.6),
            d(-0.9, 0.4, 0.7),
            d(3.0, 0.0, 0.5), // apart
            d(0.1, 0.1, 0.2), // inside
            d(3.4, 0.0, 0.5), // overlaps the apart one
            d(-0.2, -0.9, 0.9),
        ];
        let m = union_mass(&discs);
        let (area, centroid, inertia) = sampled(&discs, 1500);
        assert!(
            (m.area as f64 - area).abs() < 2e-3 * area,
            "{} vs {area}",
            m.area
        );
        assert!((DVec::new(m.centroid.x as f64, m.centroid.y as f64) - centroid).norm() < 2e-3);
        assert!(
            (m.inertia as f64 - inertia).abs() < 3e-3 * inertia,
            "{} vs {inertia}",
            m.inertia
        );
    }

    #[test]
    fn a_ring_of_discs_leaves_its_hole_empty() {
        // Eight discs around a hole: the union boundary has an inner loop, walked clockwise.
        let discs: Vec<Disc> = (0..8)
            .map(|i| {
                let a = TAU * i as f64 / 8.0;
                d(2.0 * a.cos(), 2.0 * a.sin(), 0.9)
            })
            .collect();
        let m = union_mass(&discs);
        let (area, _, inertia) = sampled(&discs, 1500);
        assert!(
            (m.area as f64 - area).abs() < 2e-3 * area,
            "{} vs {area}",
            m.area
        );
        assert!(m.centroid.norm() < 1e-5);
        assert!((m.inertia as f64 - inertia).abs() < 3e-3 * inertia);
    }
}
