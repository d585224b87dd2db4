//! [`Region`]: the outline a fitting builder covers, in f64.
//!
//! A region is a closed set given by its boundary segments (any number of
//! closed loops: holes and several components are fine), an inside test, and
//! optionally a different *true* shape for the overhang bound (a capsule is
//! covered through a polygon circumscribed about it, but its overhang is
//! measured against the exact capsule). The signed distance (negative inside)
//! uses a bounding-volume hierarchy over the segments.

use super::super::enclosing::DVec;
use crate::shape::MassProperties;

/// How the inside of the boundary is decided.
pub(crate) enum Inside {
    /// Crossing number of a ray against the boundary segments (even-odd).
    Segments,
    /// Pixel lookup in a bitmap: `opaque[row * width + col]`, row 0 at the top.
    Pixels {
        width: usize,
        height: usize,
        opaque: Vec<bool>,
        /// x of the vertical pixel edges, left to right (`width + 1`).
        columns: Vec<f64>,
        /// y of the horizontal pixel edges, top to bottom (`height + 1`).
        rows: Vec<f64>,
    },
}

/// The exact shape whose overhang is bounded, when it differs from the
/// covered outline.
pub(crate) enum Truth {
    /// The covered outline is the true shape.
    Outline,
    /// A capsule (core segment and radius); the outline circumscribes it.
    Capsule { a: DVec, b: DVec, radius: f64 },
}

/// A closed region to cover with discs.
pub(crate) struct Region {
    pub segments: Vec<[DVec; 2]>,
    inside: Inside,
    truth: Truth,
    /// Bounding box of the covered outline.
    pub lo: DVec,
    pub hi: DVec,
    nearest: SegmentTree,
    /// Mass properties of the true shape (unit density).
    pub mass: MassProperties,
}

/// Distance from `p` to the segment `a`–`b`.
pub(crate) fn segment_distance(p: DVec, a: DVec, b: DVec) -> f64 {
    segment_distance_squared(p, a, b).sqrt()
}

/// Squared distance from `p` to the segment `a`–`b`: the square root of
/// this is [`segment_distance`] to the bit (it is taken last).
fn segment_distance_squared(p: DVec, a: DVec, b: DVec) -> f64 {
    let edge = b - a;
    let length2 = edge.norm_squared();
    // Closest point a + t·edge with t = clamp(dot(p − a, edge) / |edge|², 0, 1).
    let t = if length2 > 0.0 {
        ((p - a).dot(&edge) / length2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (p - (a + edge * t)).norm_squared()
}

/// The number of leading indices of `0..len` for which `holds` is true
/// (`holds` true then false, as for `partition_point`), searched from
/// `guess` (any number; the closer to the answer the fewer steps, and a
/// guess off by at most one costs two).
fn partition_near(len: usize, guess: f64, holds: impl Fn(usize) -> bool) -> usize {
    // A float-to-integer cast saturates and sends NaN to 0.
    let mut at = ((guess.floor() + 1.0) as usize).min(len);
    while at < len && holds(at) {
        at += 1;
    }
    while at > 0 && !holds(at - 1) {
        at -= 1;
    }
    at
}

impl Region {
    /// A region from its boundary loops; `truth` defaults to the outline.
    pub fn new(
        segments: Vec<[DVec; 2]>,
        inside: Inside,
        truth: Truth,
        mass: MassProperties,
    ) -> Region {
        let mut lo = DVec::repeat(f64::INFINITY);
        let mut hi = DVec::repeat(f64::NEG_INFINITY);
        for s in &segments {
            for p in s {
                lo = lo.inf(p);
                hi = hi.sup(p);
            }
        }
        let nearest = SegmentTree::new(&segments, lo, hi);
        Region {
            segments,
            inside,
            truth,
            lo,
            hi,
            nearest,
            mass,
        }
    }

    /// A closed polygon outline (counter-clockwise or not) as a region.
    pub fn polygon(vertices: &[DVec], mass: MassProperties) -> Region {
        let n = vertices.len();
        let segments = (0..n)
            .map(|i| [vertices[i], vertices[(i + 1) % n]])
            .collect();
        Region::new(segments, Inside::Segments, Truth::Outline, mass)
    }

    /// Radius of the smallest circle about the bounding box centre holding the outline.
    pub fn size(&self) -> f64 {
        0.5 * (self.hi - self.lo).norm()
    }

    /// True if `p` is inside the covered outline (boundary may go either way).
    pub fn inside(&self, p: DVec) -> bool {
        match &self.inside {
            Inside::Segments => {
                // Even-odd crossing number of the ray from p towards +x.
                let mut inside = false;
                for [a, b] in &self.segments {
                    if (a.y > p.y) != (b.y > p.y) {
                        let x = a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x);
                        if x > p.x {
                            inside = !inside;
                        }
                    }
                }
                inside
            }
            Inside::Pixels {
                width,
                height,
                opaque,
                columns,
                rows,
            } => {
                // The pixel whose closed square holds p (edges are sorted,
                // and evenly spaced up to rounding: a guess from the spacing
                // is off by at most one, and corrected).
                let col = partition_near(
                    columns.len(),
                    (p.x - columns[0]) / (columns[*width] - columns[0]) * *width as f64,
                    |k| columns[k] <= p.x,
                );
                let row = partition_near(
                    rows.len(),
                    (rows[0] - p.y) / (rows[0] - rows[*height]) * *height as f64,
                    |k| rows[k] >= p.y,
                );
                if col == 0 || row == 0 || col > *width || row > *height {
                    return false;
                }
                opaque[(row - 1) * width + (col - 1)]
            }
        }
    }

    /// Distance from `p` to the nearest boundary segment.
    pub fn boundary_distance(&self, p: DVec) -> f64 {
        self.nearest.nearest(p)
    }

    /// Signed distance to the covered outline (negative inside).
    pub fn outline_sd(&self, p: DVec) -> f64 {
        let d = self.boundary_distance(p);
        if self.inside(p) { -d } else { d }
    }

    /// Signed distance to the true shape (negative inside). A disc of radius
    /// `r` about `p` then overhangs the true shape by at most `r + sd(p)`
    /// (exactly that much for convex shapes).
    pub fn sd(&self, p: DVec) -> f64 {
        match &self.truth {
            Truth::Outline => self.outline_sd(p),
            Truth::Capsule { a, b, radius } => segment_distance(p, *a, *b) - radius,
        }
    }

    /// [`Self::sd`] at each of `trials`, every one within `reach` of `c`,
    /// to the bit, given `depth`, [`Self::sd`] at `c`. The nearest segment
    /// of a trial is within `|depth| + 2·reach` of `c` (the distance to the
    /// outline is 1-Lipschitz), so the
    /// segments that near `c` are gathered once into `near` (a buffer the
    /// caller reuses) and the trials search only them: one search of the
    /// hierarchy instead of one per trial.
    pub fn sd_around<const N: usize>(
        &self,
        c: DVec,
        depth: f64,
        reach: f64,
        trials: &[DVec; N],
        near: &mut Vec<[DVec; 2]>,
    ) -> [f64; N] {
        if !matches!(self.truth, Truth::Outline) {
            return trials.map(|q| self.sd(q));
        }
        // Widened far beyond rounding: a superset only costs a little.
        let radius = (depth.abs() + 2.0 * reach) * (1.0 + 1e-9) + self.nearest.slack;
        self.nearest.within(c, radius, near);
        trials.map(|q| {
            let distance = if near.is_empty() {
                self.boundary_distance(q)
            } else {
                near.iter()
                    .map(|[a, b]| segment_distance_squared(q, *a, *b))
                    .fold(f64::INFINITY, f64::min)
                    .sqrt()
            };
            if self.inside(q) { -distance } else { distance }
        })
    }

    /// True if `p` belongs to the true shape.
    pub fn truth_contains(&self, p: DVec) -> bool {
        match &self.truth {
            Truth::Outline => self.inside(p) || self.nearest.touches(p),
            Truth::Capsule { .. } => self.sd(p) <= 0.0,
        }
    }
}

/// Bounding-volume hierarchy over the boundary segments for nearest-segment
/// queries: median splits along the longer axis, leaves of a few segments,
/// searched nearer child first and pruned by box distance.
struct SegmentTree {
    /// Segments reordered so that every node's segments are contiguous.
    segments: Vec<[DVec; 2]>,
    nodes: Vec<BoxNode>,
    /// How far [`SegmentTree::touches`] looks beyond a box: far more than
    /// the rounding of a closest point computed on one of its segments
    /// (a few units in the last place of the outline's largest coordinate),
    /// so a point at distance 0 of a segment is never outside its boxes.
    slack: f64,
}

/// A node: its box, and either two children or a run of segments.
struct BoxNode {
    lo: DVec,
    hi: DVec,
    /// For a leaf: first segment and count; for an inner node: the two children.
    first: u32,
    count: u32,
    children: Option<(u32, u32)>,
}

/// Segments per leaf of the hierarchy.
const SEGMENTS_PER_LEAF: usize = 4;

/// Deepest a hierarchy can be: median splits halve the segments, so this
/// takes more segments than memory holds.
const MAX_DEPTH: usize = 64;

/// No piece of the hierarchy is longer than the box's extent over this.
const CHUNKS_PER_EXTENT: f64 = 32.0;

impl SegmentTree {
    fn new(segments: &[[DVec; 2]], lo: DVec, hi: DVec) -> SegmentTree {
        // Long segments are cut into pieces of at most 1/32 of the box, so
        // that boxes stay small and a query opens few leaves.
        let longest = (hi - lo).max() / CHUNKS_PER_EXTENT;
        let mut pieces = Vec::with_capacity(segments.len());
        for [a, b] in segments {
            let count = ((b - a).norm() / longest).ceil().clamp(1.0, 1024.0) as usize;
            let step = (b - a) / count as f64;
            for k in 0..count {
                let end = if k + 1 == count {
                    *b
                } else {
                    a + step * (k + 1) as f64
                };
                pieces.push([a + step * k as f64, end]);
            }
        }
        let segments = &pieces[..];
        let magnitude = if segments.is_empty() {
            0.0
        } else {
            lo.abs().max().max(hi.abs().max())
        };
        let mut tree = SegmentTree {
            segments: segments.to_vec(),
            nodes: Vec::with_capacity(2 * segments.len() / SEGMENTS_PER_LEAF + 1),
            slack: magnitude * 1e-12,
        };
        if !segments.is_empty() {
            tree.build(0, segments.len());
        }
        tree
    }

    fn build(&mut self, first: usize, end: usize) -> u32 {
        let (mut lo, mut hi) = (DVec::repeat(f64::INFINITY), DVec::repeat(f64::NEG_INFINITY));
        for [a, b] in &self.segments[first..end] {
            lo = lo.inf(a).inf(b);
            hi = hi.sup(a).sup(b);
        }
        let id = self.nodes.len() as u32;
        self.nodes.push(BoxNode {
            lo,
            hi,
            first: first as u32,
            count: (end - first) as u32,
            children: None,
        });
        if end - first > SEGMENTS_PER_LEAF {
            let axis = if hi.x - lo.x >= hi.y - lo.y { 0 } else { 1 };
            let middle = first + (end - first) / 2;
            let key = |s: &[DVec; 2]| s[0][axis] + s[1][axis];
            self.segments[first..end]
                .select_nth_unstable_by(middle - first, |a, b| key(a).total_cmp(&key(b)));
            let left = self.build(first, middle);
            let right = self.build(middle, end);
            self.nodes[id as usize].children = Some((left, right));
        }
        id
    }

    /// Squared distance from `p` to `node`'s box (0 inside it).
    fn box_distance_squared(node: &BoxNode, p: DVec) -> f64 {
        (p.sup(&node.lo).inf(&node.hi) - p).norm_squared()
    }

    /// Distance from `p` to the nearest segment (infinite without segments).
    ///
    /// Searched in squared distances, the square root taken once at the
    /// end: as the root is monotone and correctly rounded, that is the
    /// least of the segments' [`segment_distance`]s to the bit. The stack
    /// lives on the call's own stack frame: each visit of an inner node
    /// pops one entry and pushes two, so it never holds more than the
    /// tree's depth plus one ([`MAX_DEPTH`] bounds the depth).
    fn nearest(&self, p: DVec) -> f64 {
        let mut best = f64::INFINITY;
        if self.nodes.is_empty() {
            return best;
        }
        let mut stack = [(0u32, 0.0f64); MAX_DEPTH + 1];
        stack[0] = (0, Self::box_distance_squared(&self.nodes[0], p));
        let mut len = 1;
        while len > 0 {
            len -= 1;
            let (id, bound) = stack[len];
            if bound >= best {
                continue;
            }
            let node = &self.nodes[id as usize];
            match node.children {
                Some((left, right)) => {
                    let dl = Self::box_distance_squared(&self.nodes[left as usize], p);
                    let dr = Self::box_distance_squared(&self.nodes[right as usize], p);
                    // Push the farther first, so the nearer is searched first.
                    let (near, far) = if dl < dr {
                        ((left, dl), (right, dr))
                    } else {
                        ((right, dr), (left, dl))
                    };
                    stack[len] = far;
                    stack[len + 1] = near;
                    len += 2;
                }
                None => {
                    let run = node.first as usize..(node.first + node.count) as usize;
                    for [a, b] in &self.segments[run] {
                        best = best.min(segment_distance_squared(p, *a, *b));
                    }
                }
            }
        }
        best.sqrt()
    }

    /// Visits, depth first, the leaf runs of segments under every node
    /// whose box `open` accepts (a node refused is not descended into);
    /// stops as soon as `visit` returns true, and says whether it did.
    fn any_run(
        &self,
        open: impl Fn(&BoxNode) -> bool,
        mut visit: impl FnMut(&[[DVec; 2]]) -> bool,
    ) -> bool {
        if self.nodes.is_empty() {
            return false;
        }
        // Each visit of an inner node pops one entry and pushes two: never
        // more than the depth plus one ([`MAX_DEPTH`] bounds the depth).
        let mut stack = [0u32; MAX_DEPTH + 1];
        let mut len = 1;
        while len > 0 {
            len -= 1;
            let node = &self.nodes[stack[len] as usize];
            if !open(node) {
                continue;
            }
            match node.children {
                Some((left, right)) => {
                    stack[len] = right;
                    stack[len + 1] = left;
                    len += 2;
                }
                None => {
                    let run = node.first as usize..(node.first + node.count) as usize;
                    if visit(&self.segments[run]) {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Replaces `out` with every segment whose squared distance from `p` is
    /// at most `radius²` (and maybe a few a hair farther).
    fn within(&self, p: DVec, radius: f64, out: &mut Vec<[DVec; 2]>) {
        out.clear();
        let limit = radius * radius;
        self.any_run(
            |node| Self::box_distance_squared(node, p) <= limit,
            |run| {
                out.extend(
                    run.iter()
                        .filter(|[a, b]| segment_distance_squared(p, *a, *b) <= limit),
                );
                false
            },
        );
    }

    /// True if `p` lies on a segment: exactly when [`Self::nearest`] is 0,
    /// but only boxes `p` is in (give or take [`Self::slack`]) are opened,
    /// which on a point off the boundary is a handful.
    fn touches(&self, p: DVec) -> bool {
        let slack = self.slack;
        self.any_run(
            |node| {
                let (lo, hi) = (node.lo.add_scalar(-slack), node.hi.add_scalar(slack));
                p.x >= lo.x && p.y >= lo.y && p.x <= hi.x && p.y <= hi.y
            },
            |run| {
                run.iter()
                    .any(|[a, b]| segment_distance_squared(p, *a, *b) == 0.0)
            },
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square_with_hole() -> Region {
        let outer = [
            DVec::new(0.0, 0.0),
            DVec::new(4.0, 0.0),
            DVec::new(4.0, 4.0),
            DVec::new(0.0, 4.0),
        ];
        let hole = [
            DVec::new(1.0, 1.0),
            DVec::new(1.0, 3.0),
            DVec::new(3.0, 3.0),
            DVec::new(3.0, 1.0),
        ];
        let mut segments = Vec::new();
        for ring in [&outer[..], &hole[..]] {
            for i in 0..4 {
                segments.push([ring[i], ring[(i + 1) % 4]]);
            }
        }
        Region::new(
            segments,
            Inside::Segments,
            Truth::Outline,
            MassProperties::ZERO,
        )
    }

    #[test]
    fn hierarchy_distance_equals_brute_force_on_a_fine_outline() {
        let outline: Vec<DVec> = (0..300)
            .map(|i| {
                let a = std::f64::consts::TAU * i as f64 / 300.0;
                let r = 1.0 + 0.3 * (5.0 * a).sin();
                DVec::new(r * a.cos(), 0.6 * r * a.sin())
            })
            .collect();
        let region = Region::polygon(&outline, MassProperties::ZERO);
        let mut state = 7u64;
        for _ in 0..2000 {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let x = (state >> 11) as f64 / (1u64 << 53) as f64 * 4.0 - 2.0;
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let y = (state >> 11) as f64 / (1u64 << 53) as f64 * 3.0 - 1.5;
            let p = DVec::new(x, y);
            let brute = (0..outline.len())
                .map(|i| segment_distance(p, outline[i], outline[(i + 1) % outline.len()]))
                .fold(f64::INFINITY, f64::min);
            assert!(
                (region.boundary_distance(p) - brute).abs() <= 1e-12,
                "{p:?}"
            );
        }
    }

    #[test]
    fn a_partition_searched_from_any_guess_is_the_partition_point() {
        let edges: Vec<f64> = (0..=7).map(|k| -1.5 + 0.3 * k as f64).collect();
        for i in 0..200 {
            let x = -2.0 + 0.0137 * i as f64;
            let exact = edges.partition_point(|&e| e <= x);
            for guess in [
                -1e300,
                -3.0,
                -0.5,
                0.0,
                2.5,
                6.99,
                7.0,
                9.0,
                1e300,
                f64::NAN,
            ] {
                assert_eq!(partition_near(edges.len(), guess, |k| edges[k] <= x), exact);
            }
            let guess = (x - edges[0]) / (edges[7] - edges[0]) * 7.0;
            assert_eq!(partition_near(edges.len(), guess, |k| edges[k] <= x), exact);
        }
        assert_eq!(partition_near(0, 3.0, |_| true), 0);
    }

    #[test]
    fn distances_around_a_centre_are_those_of_each_point() {
        let outline: Vec<DVec> = (0..40)
            .map(|i| {
                let a = std::f64::consts::TAU * i as f64 / 40.0;
                let r = 1.0 + 0.4 * (3.0 * a).sin();
                DVec::new(r * a.cos(), r * a.sin())
            })
            .collect();
        let region = Region::polygon(&outline, MassProperties::ZERO);
        let mut near = Vec::new();
        for (c, step) in [
            (DVec::new(0.1, 0.2), 0.5),
            (DVec::new(0.9, -0.3), 0.01),
            (DVec::new(3.0, 1.0), 2.0),
            (DVec::new(-0.5, 0.7), 1e-6),
        ] {
            let trials = [
                c + DVec::new(step, 0.0),
                c - DVec::new(0.0, step),
                c + DVec::new(step, step) * std::f64::consts::FRAC_1_SQRT_2,
            ];
            let got = region.sd_around(c, region.sd(c), step * (1.0 + 1e-12), &trials, &mut near);
            assert_eq!(got, trials.map(|q| region.sd(q)), "{c:?} {step}");
        }
    }

    #[test]
    fn signed_distance_matches_brute_force_everywhere() {
        let region = square_with_hole();
        for i in 0..60 {
            for j in 0..60 {
                let p = DVec::new(-3.0 + i as f64 * 0.17, -3.0 + j as f64 * 0.17);
                let brute = region
                    .segments
                    .iter()
                    .map(|[a, b]| segment_distance(p, *a, *b))
                    .fold(f64::INFINITY, f64::min);
                assert!(
                    (region.boundary_distance(p) - brute).abs() <= 1e-12,
                    "{p:?}"
                );
            }
        }
        assert!(region.sd(DVec::new(0.5, 2.0)) < 0.0);
        assert!(region.sd(DVec::new(2.0, 2.0)) > 0.0); // in the hole
        assert!((region.sd(DVec::new(2.0, 2.0)) - 1.0).abs() < 1e-12);
        assert!((region.sd(DVec::new(-1.0, 2.0)) - 1.0).abs() < 1e-12);
    }
}
