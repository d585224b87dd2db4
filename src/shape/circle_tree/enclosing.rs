//! Smallest enclosing circle of a set of discs (points are discs of radius 0),
//! in f64: Welzl's move-to-front algorithm generalised to discs.
//!
//! The smallest disc enclosing a set of discs is an LP-type problem with at
//! most three discs in a basis (Welzl 1991; Fischer & Gärtner 2004 for balls),
//! so the classic triple loop applies: if disc `i` is not inside the smallest
//! enclosing disc of the discs before it, it is internally tangent to the
//! smallest enclosing disc of the discs up to `i`. The basis cases are the
//! disc itself, the disc through the two extreme points of two discs, and the
//! Apollonius circle internally tangent to three discs.
//!
//! Whatever the rounding, the result contains every input: its radius is
//! finally set to `max |c_i - c| + r_i`.

use crate::math::{Real, Vec2};

/// A 2D vector in f64, for the builders' geometry.
pub(crate) type DVec = nalgebra::Vector2<f64>;

/// A disc in f64 (local frame).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Disc {
    pub center: DVec,
    pub radius: f64,
}

/// Relative slack of the containment test inside the loops (a disc counts as
/// inside when it sticks out by less than this times the enclosing radius):
/// lets the loops accept basis circles computed with f64 rounding instead of
/// recomputing them forever. The final radius fix makes containment exact.
const INSIDE_SLACK: f64 = 1e-12;

impl Disc {
    /// A disc from f32 centre and radius.
    pub fn new(center: Vec2, radius: Real) -> Disc {
        Disc {
            center: DVec::new(center.x as f64, center.y as f64),
            radius: radius as f64,
        }
    }

    /// A disc from f64 parts.
    pub fn at(center: DVec, radius: f64) -> Disc {
        Disc { center, radius }
    }

    /// How far `other` reaches beyond this disc (negative when well inside).
    pub fn excess(&self, other: &Disc) -> f64 {
        (other.center - self.center).norm() + other.radius - self.radius
    }

    fn holds(&self, other: &Disc) -> bool {
        self.excess(other) <= INSIDE_SLACK * self.radius.abs().max(other.radius.abs()).max(1e-300)
    }
}

/// The smallest disc containing both discs.
fn enclose_two(a: &Disc, b: &Disc) -> Disc {
    if a.excess(b) <= 0.0 {
        return *a;
    }
    if b.excess(a) <= 0.0 {
        return *b;
    }
    let offset = b.center - a.center;
    let distance = offset.norm();
    let direction = offset / distance;
    // Extreme points along the line of centres: a.c - a.r·dir and b.c + b.r·dir.
    let radius = 0.5 * (distance + a.radius + b.radius);
    let center = a.center + direction * (radius - a.radius);
    Disc { center, radius }
}

/// The circle internally tangent to three discs (|c - c_i| = r - r_i), if
/// one exists with r >= every r_i.
fn apollonius(a: &Disc, b: &Disc, c: &Disc) -> Option<Disc> {
    // Relative to a's centre: |x|² = (r - ra)², |x - p_i|² = (r - r_i)².
    // Subtracting: 2 p_i·x = |p_i|² - r_i² + ra² + 2 r (r_i - ra), linear in (x, r).
    let p1 = b.center - a.center;
    let p2 = c.center - a.center;
    let det = 2.0 * (p1.x * p2.y - p1.y * p2.x) * 2.0;
    let scale = (p1.norm_squared() + p2.norm_squared()).max(1e-300);
    if det.abs() <= 1e-12 * scale {
        return None; // centres collinear: two of the discs decide
    }
    let k1 = p1.norm_squared() - b.radius * b.radius + a.radius * a.radius;
    let k2 = p2.norm_squared() - c.radius * c.radius + a.radius * a.radius;
    let m1 = 2.0 * (b.radius - a.radius);
    let m2 = 2.0 * (c.radius - a.radius);
    // Solve [2 p1; 2 p2] x = k + r m by Cramer's rule: x = u + r v.
    let solve = |r1: f64, r2: f64| {
        DVec::new(
            (r1 * 2.0 * p2.y - r2 * 2.0 * p1.y) / det,
            (2.0 * p1.x * r2 - 2.0 * p2.x * r1) / det,
        )
    };
    let u = solve(k1, k2);
    let v = solve(m1, m2);
    // |u + r v|² = (r - ra)²  →  (v·v - 1) r² + 2 (u·v + ra) r + (u·u - ra²) = 0.
    let qa = v.norm_squared() - 1.0;
    let qb = 2.0 * (u.dot(&v) + a.radius);
    let qc = u.norm_squared() - a.radius * a.radius;
    let min_radius = a.radius.max(b.radius).max(c.radius);
    let mut roots = [f64::NAN; 2];
    if qa.abs() <= 1e-12 {
        if qb != 0.0 {
            roots[0] = -qc / qb;
        }
    } else {
        let disc = qb * qb - 4.0 * qa * qc;
        if disc < 0.0 {
            return None;
        }
        let sq = disc.sqrt();
        // Stable pair of roots: q = -(b + sign(b) sqrt(disc)) / 2.
        let q = -0.5 * (qb + qb.signum() * sq);
        roots[0] = q / qa;
        if q != 0.0 {
            roots[1] = qc / q;
        }
    }
    roots
        .into_iter()
        .filter(|r| r.is_finite() && *r >= min_radius * (1.0 - 1e-12))
        .map(|r| Disc {
            center: a.center + u + v * r,
            radius: r,
        })
        .filter(|d| d.holds(a) && d.holds(b) && d.holds(c))
        .min_by(|x, y| x.radius.total_cmp(&y.radius))
}

/// The smallest disc containing three discs (at least one of them tangent).
fn enclose_three(a: &Disc, b: &Disc, c: &Disc) -> Disc {
    let candidates = [
        Some(enclose_two(a, b)),
        Some(enclose_two(a, c)),
        Some(enclose_two(b, c)),
        apollonius(a, b, c),
    ];
    let best = candidates
        .into_iter()
        .flatten()
        .filter(|d| d.holds(a) && d.holds(b) && d.holds(c))
        .min_by(|x, y| x.radius.total_cmp(&y.radius));
    best.unwrap_or_else(|| {
        // Only under extreme rounding: any disc that contains all three.
        let center = (a.center + b.center + c.center) / 3.0;
        let radius = [a, b, c]
            .iter()
            .map(|d| (d.center - center).norm() + d.radius)
            .fold(0.0, f64::max);
        Disc { center, radius }
    })
}

/// A fixed pseudo-random permutation (xorshift), so results are deterministic
/// while the expected running time stays linear.
fn shuffled(discs: &[Disc]) -> Vec<Disc> {
    let mut out = discs.to_vec();
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15 ^ discs.len() as u64;
    for i in (1..out.len()).rev() {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let j = (state % (i as u64 + 1)) as usize;
        out.swap(i, j);
    }
    out
}

/// The smallest disc containing every disc of `discs`; a zero disc at the
/// origin for an empty slice. The result contains each input exactly
/// (`|c_i - c| + r_i <= r` in f64).
pub(crate) fn enclosing_disc(discs: &[Disc]) -> Disc {
    if discs.is_empty() {
        return Disc::at(DVec::zeros(), 0.0);
    }
    let order = shuffled(discs);
    let mut best = order[0];
    for i in 1..order.len() {
        if best.holds(&order[i]) {
            continue;
        }
        best = order[i];
        for j in 0..i {
            if best.holds(&order[j]) {
                continue;
            }
            best = enclose_two(&order[i], &order[j]);
            for k in 0..j {
                if best.holds(&order[k]) {
                    continue;
                }
                best = enclose_three(&order[i], &order[j], &order[k]);
            }
        }
    }
    let radius = discs
        .iter()
        .map(|d| (d.center - best.center).norm() + d.radius)
        .fold(best.radius.min(0.0), f64::max);
    Disc {
        center: best.center,
        radius,
    }
}

/// The smallest disc containing every point.
pub(crate) fn enclosing_points(points: &[DVec]) -> Disc {
    let discs: Vec<Disc> = points.iter().map(|p| Disc::at(*p, 0.0)).collect();
    enclosing_disc(&discs)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(x: f64, y: f64, r: f64) -> Disc {
        Disc::at(DVec::new(x, y), r)
    }

    fn brute_force(discs: &[Disc]) -> f64 {
        // The optimum is one of the basis circles of <= 3 discs that holds all.
        let mut best = f64::INFINITY;
        let n = discs.len();
        let all = |c: &Disc| discs.iter().all(|x| c.excess(x) <= 1e-9);
        for i in 0..n {
            if all(&discs[i]) {
                best = best.min(discs[i].radius);
            }
            for j in i + 1..n {
                let c = enclose_two(&discs[i], &discs[j]);
                if all(&c) {
                    best = best.min(c.radius);
                }
                for k in j + 1..n {
                    if let Some(c) = apollonius(&discs[i], &discs[j], &discs[k])
                        && all(&c)
                    {
                        best = best.min(c.radius);
                    }
                }
            }
        }
        best
    }

    #[test]
    fn two_and_three_discs_have_closed_forms() {
        let c = enclosing_disc(&[d(0.0, 0.0, 1.0), d(4.0, 0.0, 1.0)]);
        assert!((c.radius - 3.0).abs() < 1e-12 && (c.center - DVec::new(2.0, 0.0)).norm() < 1e-12);
        // Three unit discs on an equilateral triangle of circumradius 2: r = 3.
        let tri: Vec<Disc> = (0..3)
            .map(|i| {
                let a = std::f64::consts::TAU * i as f64 / 3.0;
                d(2.0 * a.cos(), 2.0 * a.sin(), 1.0)
            })
            .collect();
        let c = enclosing_disc(&tri);
        assert!((c.radius - 3.0).abs() < 1e-9, "{c:?}");
        // A disc inside another changes nothing.
        let c = enclosing_disc(&[d(0.0, 0.0, 5.0), d(1.0, 1.0, 1.0)]);
        assert_eq!(c.radius, 5.0);
    }

    #[test]
    fn matches_brute_force_on_pseudo_random_sets() {
        let mut state = 12345u64;
        let mut next = || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 11) as f64 / (1u64 << 53) as f64
        };
        for trial in 0..300 {
            let n = 1 + trial % 9;
            let discs: Vec<Disc> = (0..n)
                .map(|_| d(next() * 10.0 - 5.0, next() * 10.0 - 5.0, next() * 2.0))
                .collect();
            let c = enclosing_disc(&discs);
            for x in &discs {
                assert!(c.excess(x) <= 0.0, "trial {trial}: {x:?} outside {c:?}");
            }
            let expected = brute_force(&discs);
            assert!(
                (c.radius - expected).abs() <= 1e-7 * expected.max(1.0),
                "trial {trial}: {} vs {expected}",
                c.radius
            );
        }
    }
}
