//! Reference oracle for continuous collision, in f64 and independent of the
//! crate's queries: its own exact static tests (signed distance and closest
//! points of rounded convex cores: circles, capsules, convex polygons, and
//! unions of convex pieces), and a dense sampling of the motion (>= 2,000
//! samples) with bisection at the first sign change.
//!
//! Only the shapes' stored geometry (vertices, radii, pieces) and the pose /
//! motion model are read from the crate; no query is called.

use circlet::math::{Pose, Vec2};
use circlet::query::time_of_impact::Motion;
use circlet::shape::Shape;

/// A 2D point or vector in f64.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct P {
    pub x: f64,
    pub y: f64,
}

pub const fn p(x: f64, y: f64) -> P {
    P { x, y }
}

impl P {
    pub fn of(v: Vec2) -> P {
        p(v.x as f64, v.y as f64)
    }
    pub fn to_f32(self) -> Vec2 {
        Vec2::new(self.x as f32, self.y as f32)
    }
    pub fn add(self, o: P) -> P {
        p(self.x + o.x, self.y + o.y)
    }
    pub fn sub(self, o: P) -> P {
        p(self.x - o.x, self.y - o.y)
    }
    pub fn mul(self, s: f64) -> P {
        p(self.x * s, self.y * s)
    }
    pub fn dot(self, o: P) -> f64 {
        self.x * o.x + self.y * o.y
    }
    pub fn cross(self, o: P) -> f64 {
        self.x * o.y - self.y * o.x
    }
    pub fn norm(self) -> f64 {
        self.dot(self).sqrt()
    }
    pub fn perp(self) -> P {
        p(-self.y, self.x)
    }
}

/// A convex part: a core of 1 point, 2 points or a CCW convex polygon, plus a
/// rounding radius; local frame.
#[derive(Clone, Debug)]
pub struct Part {
    pub core: Vec<P>,
    pub radius: f64,
}

/// A shape as a union of convex parts (one part unless it is a simple
/// polygon or a circle tree).
#[derive(Clone, Debug)]
pub struct OShape {
    pub parts: Vec<Part>,
}

impl OShape {
    /// The oracle's view of a crate shape (solids, points and segments).
    pub fn of(shape: &Shape) -> OShape {
        let v = |points: &[Vec2]| points.iter().map(|q| P::of(*q)).collect::<Vec<_>>();
        let parts = match shape {
            Shape::Point(point) => vec![Part {
                core: v(&[point.position()]),
                radius: 0.0,
            }],
            Shape::Circle(c) => vec![Part {
                core: v(&[c.center()]),
                radius: c.radius() as f64,
            }],
            Shape::Segment(s) => vec![Part {
                core: v(&[s.a(), s.b()]),
                radius: 0.0,
            }],
            Shape::Capsule(c) => vec![Part {
                core: v(&[c.a(), c.b()]),
                radius: c.radius() as f64,
            }],
            Shape::Aabb(b) => vec![Part {
                core: v(&b.vertices()),
                radius: 0.0,
            }],
            Shape::OrientedRect(r) => vec![Part {
                core: v(&r.vertices()),
                radius: 0.0,
            }],
            Shape::ConvexPolygon(c) => vec![Part {
                core: v(c.vertices()),
                radius: 0.0,
            }],
            Shape::TileTriangle(t) => vec![Part {
                core: v(&t.vertices()),
                radius: 0.0,
            }],
            Shape::SimplePolygon(s) => s
                .pieces()
                .iter()
                .map(|piece| Part {
                    core: v(piece.vertices()),
                    radius: 0.0,
                })
                .collect(),
            // A circle tree is the union of its leaf discs (a point core each).
            Shape::Tree(tree) => tree
                .leaf_circles()
                .map(|leaf| Part {
                    core: v(&[leaf.center()]),
                    radius: leaf.radius() as f64,
                })
                .collect(),
            Shape::Line(_) => panic!("the oracle has no infinite lines"),
        };
        OShape { parts }
    }

    /// Radius about the local origin containing the shape.
    pub fn bounding_radius(&self) -> f64 {
        self.parts
            .iter()
            .map(|part| part.core.iter().map(|q| q.norm()).fold(0.0, f64::max) + part.radius)
            .fold(0.0, f64::max)
    }

    /// Middle of the core points (local), and the radius about it that
    /// contains the shape.
    pub fn centre_and_radius(&self) -> (P, f64) {
        let points: Vec<P> = self
            .parts
            .iter()
            .flat_map(|part| part.core.iter().copied())
            .collect();
        let centre = points
            .iter()
            .fold(P::default(), |s, q| s.add(*q))
            .mul(1.0 / points.len() as f64);
        let radius = self
            .parts
            .iter()
            .map(|part| {
                part.core
                    .iter()
                    .map(|q| q.sub(centre).norm())
                    .fold(0.0, f64::max)
                    + part.radius
            })
            .fold(0.0, f64::max);
        (centre, radius)
    }

    /// Rough size: half the largest extent of the shape (local).
    pub fn size(&self) -> f64 {
        let points: Vec<P> = self
            .parts
            .iter()
            .flat_map(|part| part.core.iter().copied())
            .collect();
        let radius = self
            .parts
            .iter()
            .map(|part| part.radius)
            .fold(0.0, f64::max);
        let mut extent: f64 = 0.0;
        for a in &points {
            for b in &points {
                extent = extent.max(a.sub(*b).norm());
            }
        }
        extent * 0.5 + radius
    }
}

/// A shape with a pose at the start of the step and a motion over it, in f64.
#[derive(Clone, Debug)]
pub struct OBody {
    pub shape: OShape,
    pub translation: P,
    pub cos: f64,
    pub sin: f64,
    pub scale: f64,
    pub linear: P,
    pub angular: f64,
    /// World bounding radius about the body origin.
    pub reach: f64,
    /// Per part: local centre and radius of a bounding circle.
    part_bounds: Vec<(P, f64)>,
}

impl OBody {
    pub fn new(shape: &Shape, pose: &Pose, motion: &Motion) -> OBody {
        Self::from_oracle(OShape::of(shape), pose, motion)
    }

    pub fn from_oracle(shape: OShape, pose: &Pose, motion: &Motion) -> OBody {
        let rotation = pose.rotation.complex();
        let scale = pose.scale as f64;
        let part_bounds = shape
            .parts
            .iter()
            .map(|part| {
                let n = part.core.len() as f64;
                let centre = part
                    .core
                    .iter()
                    .fold(P::default(), |s, q| s.add(*q))
                    .mul(1.0 / n);
                let radius = part
                    .core
                    .iter()
                    .map(|q| q.sub(centre).norm())
                    .fold(0.0, f64::max)
                    + part.radius;
                (centre, radius)
            })
            .collect();
        OBody {
            reach: shape.bounding_radius() * scale,
            shape,
            translation: P::of(pose.translation),
            cos: rotation.re as f64,
            sin: rotation.im as f64,
            scale,
            linear: P::of(motion.linear),
            angular: motion.angular as f64,
            part_bounds,
        }
    }

    /// A body that does not move, for the static tests.
    pub fn at(shape: &Shape, pose: &Pose) -> OBody {
        Self::new(shape, pose, &Motion::ZERO)
    }

    /// Maps a local point to world at fraction `t` of the step.
    pub fn world(&self, t: f64, q: P) -> P {
        let (sw, cw) = (self.angular * t).sin_cos();
        // rotation(t) = rotation(w t) * rotation(start)
        let (c, s) = (cw * self.cos - sw * self.sin, sw * self.cos + cw * self.sin);
        let q = q.mul(self.scale);
        p(c * q.x - s * q.y, s * q.x + c * q.y)
            .add(self.translation)
            .add(self.linear.mul(t))
    }

    pub fn origin(&self, t: f64) -> P {
        self.translation.add(self.linear.mul(t))
    }

    fn placed(&self, t: f64, part: usize) -> (Vec<P>, f64) {
        let part_ref = &self.shape.parts[part];
        (
            part_ref.core.iter().map(|q| self.world(t, *q)).collect(),
            part_ref.radius * self.scale,
        )
    }

    /// Largest speed of any point of this body (world units per step).
    pub fn max_point_speed(&self) -> f64 {
        self.linear.norm() + self.angular.abs() * self.reach
    }
}

// ---- exact static geometry -------------------------------------------------

fn closest_on_segment(q: P, a: P, b: P) -> P {
    let e = b.sub(a);
    let l2 = e.dot(e);
    if l2 == 0.0 {
        return a;
    }
    let u = (q.sub(a).dot(e) / l2).clamp(0.0, 1.0);
    a.add(e.mul(u))
}

fn orientation(a: P, b: P, c: P) -> f64 {
    b.sub(a).cross(c.sub(a))
}

fn segments_cross(a: P, b: P, c: P, d: P) -> bool {
    let (o1, o2) = (orientation(a, b, c), orientation(a, b, d));
    let (o3, o4) = (orientation(c, d, a), orientation(c, d, b));
    o1 * o2 < 0.0 && o3 * o4 < 0.0
}

/// Closest points of segments a-b and c-d: (distance, on first, on second).
fn segment_segment(a: P, b: P, c: P, d: P) -> (f64, P, P) {
    if segments_cross(a, b, c, d) {
        // Intersection point: a + (b - a) * s.
        let s = (c.sub(a)).cross(d.sub(c)) / (b.sub(a)).cross(d.sub(c));
        let x = a.add(b.sub(a).mul(s));
        return (0.0, x, x);
    }
    let mut best = (f64::INFINITY, a, c);
    for (q, on_first, (s, t)) in [
        (a, false, (c, d)),
        (b, false, (c, d)),
        (c, true, (a, b)),
        (d, true, (a, b)),
    ] {
        let x = closest_on_segment(q, s, t);
        let dist = q.sub(x).norm();
        if dist < best.0 {
            best = if on_first { (dist, x, q) } else { (dist, q, x) };
        }
    }
    best
}

fn edges(core: &[P]) -> Vec<(P, P)> {
    match core.len() {
        1 => vec![(core[0], core[0])],
        2 => vec![(core[0], core[1])],
        n => (0..n).map(|i| (core[i], core[(i + 1) % n])).collect(),
    }
}

/// Closed containment of `q` in a CCW convex polygon (cores of >= 3 points).
fn contains(core: &[P], q: P) -> bool {
    core.len() >= 3
        && (0..core.len()).all(|i| orientation(core[i], core[(i + 1) % core.len()], q) >= 0.0)
}

fn axes(core: &[P]) -> Vec<P> {
    edges(core)
        .into_iter()
        .filter_map(|(a, b)| {
            let e = b.sub(a);
            let l = e.norm();
            (l > 0.0).then(|| p(e.y / l, -e.x / l))
        })
        .collect()
}

/// Penetration depth of two intersecting convex cores: the least overlap
/// over the edge normals of both (those of their Minkowski difference).
fn penetration(a: &[P], b: &[P]) -> f64 {
    let mut depth = f64::INFINITY;
    for axis in axes(a).into_iter().chain(axes(b)) {
        let project = |core: &[P]| {
            core.iter()
                .map(|q| q.dot(axis))
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
                    (lo.min(x), hi.max(x))
                })
        };
        let ((a_lo, a_hi), (b_lo, b_hi)) = (project(a), project(b));
        depth = depth.min((a_hi - b_lo).min(b_hi - a_lo));
    }
    if depth.is_finite() {
        depth.max(0.0)
    } else {
        0.0
    }
}

/// Signed distance and closest points of two placed convex cores (radius 0):
/// (distance or minus depth, point on a, point on b).
fn core_query(a: &[P], b: &[P]) -> (f64, P, P) {
    let mut best = (f64::INFINITY, a[0], b[0]);
    for (p0, p1) in edges(a) {
        for (q0, q1) in edges(b) {
            let candidate = segment_segment(p0, p1, q0, q1);
            if candidate.0 < best.0 {
                best = candidate;
            }
        }
    }
    let inside = contains(a, b[0]) || contains(b, a[0]);
    if best.0 == 0.0 || inside {
        (-penetration(a, b), best.1, best.2)
    } else {
        best
    }
}

/// Signed distance between two bodies at fraction `t`: the distance when
/// apart, minus the (largest piece) penetration depth when overlapping; a
/// value above `cutoff` may be a lower bound only (from bounding circles).
pub fn signed_distance(a: &OBody, b: &OBody, t: f64, cutoff: f64) -> f64 {
    let gap = a.origin(t).sub(b.origin(t)).norm() - a.reach - b.reach;
    if gap > cutoff {
        return gap;
    }
    let mut best = f64::INFINITY;
    for i in 0..a.shape.parts.len() {
        let (ca, ra) = a.part_bounds[i];
        let centre_a = a.world(t, ca);
        let ra_world = ra * a.scale;
        for j in 0..b.shape.parts.len() {
            let (cb, rb) = b.part_bounds[j];
            let part_gap = centre_a.sub(b.world(t, cb)).norm() - ra_world - rb * b.scale;
            // A bounding-circle gap above the cutoff is an allowed lower bound;
            // one above the best so far cannot lower the minimum.
            if part_gap > cutoff || part_gap >= best {
                best = best.min(part_gap);
                continue;
            }
            let (core_a, radius_a) = a.placed(t, i);
            let (core_b, radius_b) = b.placed(t, j);
            let (d, _, _) = core_query(&core_a, &core_b);
            best = best.min(d - radius_a - radius_b);
        }
    }
    best
}

/// Exact closest points of two bodies at fraction `t` (world), or `None` when
/// they intersect (touching counts): (distance, point on a, point on b).
pub fn closest(a: &OBody, b: &OBody, t: f64) -> Option<(f64, P, P)> {
    let mut best: Option<(f64, P, P)> = None;
    for i in 0..a.shape.parts.len() {
        for j in 0..b.shape.parts.len() {
            let (core_a, radius_a) = a.placed(t, i);
            let (core_b, radius_b) = b.placed(t, j);
            let (d, pa, pb) = core_query(&core_a, &core_b);
            let surface = d - radius_a - radius_b;
            if surface <= 0.0 {
                return None;
            }
            if best.is_none_or(|(bd, _, _)| surface < bd) {
                let n = pb.sub(pa).mul(1.0 / d);
                best = Some((surface, pa.add(n.mul(radius_a)), pb.sub(n.mul(radius_b))));
            }
        }
    }
    best
}

/// Signed distance of a world point to a body at fraction `t`.
pub fn point_distance(body: &OBody, t: f64, q: P) -> f64 {
    let point = OBody {
        shape: OShape {
            parts: vec![Part {
                core: vec![p(0.0, 0.0)],
                radius: 0.0,
            }],
        },
        translation: q,
        cos: 1.0,
        sin: 0.0,
        scale: 1.0,
        linear: P::default(),
        angular: 0.0,
        reach: 0.0,
        part_bounds: vec![(p(0.0, 0.0), 0.0)],
    };
    signed_distance(body, &point, t, f64::INFINITY)
}

// ---- sampling of the motion ------------------------------------------------

/// What the oracle found over the step.
#[derive(Clone, Copy, Debug)]
pub struct Sweep {
    /// Signed distance at the start.
    pub start: f64,
    /// First time the signed distance reaches 0 (bisected), if it does.
    pub first_contact: Option<f64>,
    /// First sampled time the signed distance is <= -deep, if any.
    pub first_deep: Option<f64>,
    /// Smallest signed distance seen.
    pub min_value: f64,
    /// Lipschitz bound of the signed distance in t (world units per step).
    pub lipschitz: f64,
}

/// Samples the signed distance of `a` and `b` at `samples + 1` evenly spaced
/// times, refines any interval where the Lipschitz bound allows a hidden dip
/// below 0, bisects the first sign change, and keeps sampling for the first
/// overlap deeper than `deep` (early exit once found).
pub fn sweep(a: &OBody, b: &OBody, samples: usize, deep: f64) -> Sweep {
    let lipschitz =
        a.linear.sub(b.linear).norm() + a.angular.abs() * a.reach + b.angular.abs() * b.reach;
    let cutoff = deep.abs().max(1e-9) * 4.0;
    let f = |t: f64| signed_distance(a, b, t, cutoff);
    let start = f(0.0);
    let mut result = Sweep {
        start,
        first_contact: None,
        first_deep: None,
        min_value: start,
        lipschitz,
    };
    if start <= 0.0 {
        result.first_contact = Some(0.0);
    }
    if start <= -deep {
        result.first_deep = Some(0.0);
        return result;
    }
    let step = 1.0 / samples as f64;
    let (mut t0, mut f0) = (0.0, start);
    for k in 1..=samples {
        let t1 = k as f64 * step;
        let f1 = f(t1);
        result.min_value = result.min_value.min(f1);
        if result.first_contact.is_none() {
            let root = if f1 <= 0.0 {
                Some(bisect(&f, t0, t1))
            } else {
                refine(&f, lipschitz, t0, f0, t1, f1, 0)
            };
            if let Some(root) = root {
                result.first_contact = Some(root);
                result.min_value = result.min_value.min(f(root));
                // A thin shape can be crossed between two samples: look just
                // after the contact, finely, for the deep overlap.
                let window = (2.0 * step).min(1.0 - root);
                for i in 1..=256 {
                    let t = root + window * i as f64 / 256.0;
                    let value = f(t);
                    result.min_value = result.min_value.min(value);
                    if value <= -deep {
                        result.first_deep = Some(t);
                        return result;
                    }
                }
            }
        }
        if f1 <= -deep {
            result.first_deep = Some(t1);
            return result;
        }
        (t0, f0) = (t1, f1);
    }
    result
}

/// First root in (t0, t1] when both ends are positive but the Lipschitz bound
/// allows a dip below 0 between them.
fn refine(
    f: &dyn Fn(f64) -> f64,
    lipschitz: f64,
    t0: f64,
    f0: f64,
    t1: f64,
    f1: f64,
    depth: u32,
) -> Option<f64> {
    if f0 + f1 >= lipschitz * (t1 - t0) * 1.000001 || depth > 48 {
        return None;
    }
    let mid = 0.5 * (t0 + t1);
    let fm = f(mid);
    if fm <= 0.0 {
        return Some(bisect(f, t0, mid));
    }
    refine(f, lipschitz, t0, f0, mid, fm, depth + 1)
        .or_else(|| refine(f, lipschitz, mid, fm, t1, f1, depth + 1))
}

/// Bisection between f(lo) > 0 and f(hi) <= 0: the first contact, to ~1e-15.
fn bisect(f: &dyn Fn(f64) -> f64, mut lo: f64, mut hi: f64) -> f64 {
    for _ in 0..60 {
        let mid = 0.5 * (lo + hi);
        if f(mid) <= 0.0 {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    hi
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn oracle_basics() {
        let square = vec![p(0.0, 0.0), p(1.0, 0.0), p(1.0, 1.0), p(0.0, 1.0)];
        let shifted: Vec<P> = square.iter().map(|q| q.add(p(3.0, 0.5))).collect();
        assert!((core_query(&square, &shifted).0 - 2.0).abs() < 1e-12);
        let overlapping: Vec<P> = square.iter().map(|q| q.add(p(0.75, 0.0))).collect();
        assert!((core_query(&square, &overlapping).0 + 0.25).abs() < 1e-12);
        let inner = vec![p(0.5, 0.4)];
        assert!((core_query(&square, &inner).0 + 0.4).abs() < 1e-12);
    }
}
