//! From pieces to leaves: seeded growth of the largest admissible discs.
//!
//! A disc about centre `c` may have radius up to `ε − sd(c)` (its overhang
//! bound is then exactly ε), so the best discs sit deep inside the shape.
//! Leaves are made one at a time:
//! 1. **Seed**: the uncovered piece whose own best disc is the most
//!    constrained (smallest admissible radius: corners and tips first),
//!    preferring pieces on the frontier of what is already covered, so that
//!    leaves pack side by side instead of leaving slivers between them;
//!    a piece elsewhere that is far more constrained still goes first.
//! 2. **Grow**: uncovered pieces that reach into the admissible disc, nearest
//!    first. A piece inside it joins as is; otherwise the centre is searched
//!    again for all points so far plus the piece ([`super::disc_fit`]) and the
//!    piece joins if the bound still holds. Repeat while pieces join.
//! 3. **Fill**: with the centre polished for what the leaf holds, pieces that
//!    reach into the admissible disc but stick out of it are split into their
//!    quadtree quarters (twice at most); quarters inside it join. So leaves
//!    end cleanly instead of at piece granularity, and the next leaf starts
//!    where this one really stops.
//!
//! Then [`super::tighten`] removes slivers and shrinks the leaves. A piece
//! counts as held only when every vertex of its hull is inside the disc, so
//! the leaves hold every piece and hence the whole outline. Every piece fits
//! its own best disc, so the loop always completes.

use super::super::enclosing::DVec;
use super::disc_fit::{FittedDisc, Search, fit_disc, reach};
use super::pieces::{Piece, convex_hull};
use super::region::Region;
use super::tighten::{LeafDisc, tighten};

/// A leaf as grown: its disc, the hull of what it holds, and its pieces.
pub(crate) struct Grown {
    pub disc: FittedDisc,
    pub hull: Vec<DVec>,
    pub members: Vec<u32>,
}

/// Uniform grid over the pieces' bounding boxes; pieces can be added.
struct PieceGrid {
    lo: DVec,
    cell: f64,
    nx: usize,
    ny: usize,
    cells: Vec<Vec<u32>>,
    /// Per piece: the last query that reported it (to report each once).
    stamp: Vec<u32>,
    query: u32,
}

impl PieceGrid {
    fn new(lo: DVec, hi: DVec, cell: f64) -> PieceGrid {
        let extent = (hi - lo).sup(&DVec::repeat(1e-300));
        let cell = cell.max(extent.max() / 256.0).max(1e-300);
        let nx = ((extent.x / cell).ceil() as usize).clamp(1, 256);
        let ny = ((extent.y / cell).ceil() as usize).clamp(1, 256);
        PieceGrid {
            lo,
            cell,
            nx,
            ny,
            cells: vec![Vec::new(); nx * ny],
            stamp: Vec::new(),
            query: 0,
        }
    }

    fn range(&self, lo: DVec, hi: DVec) -> (usize, usize, usize, usize) {
        let index = |v: f64, origin: f64, n: usize| {
            (((v - origin) / self.cell).floor().max(0.0) as usize).min(n - 1)
        };
        (
            index(lo.x, self.lo.x, self.nx),
            index(lo.y, self.lo.y, self.ny),
            index(hi.x, self.lo.x, self.nx),
            index(hi.y, self.lo.y, self.ny),
        )
    }

    fn insert(&mut self, id: u32, hull: &[DVec]) {
        let (lo, hi) = bounds(hull);
        let (x0, y0, x1, y1) = self.range(lo, hi);
        for y in y0..=y1 {
            for x in x0..=x1 {
                self.cells[y * self.nx + x].push(id);
            }
        }
        if self.stamp.len() <= id as usize {
            self.stamp.resize(id as usize + 1, 0);
        }
    }

    /// Ids of the pieces whose box may meet the disc's box, each once.
    fn near(&mut self, center: DVec, radius: f64, out: &mut Vec<u32>) {
        out.clear();
        self.query = self.query.wrapping_add(1);
        let (x0, y0, x1, y1) =
            self.range(center - DVec::repeat(radius), center + DVec::repeat(radius));
        for y in y0..=y1 {
            for x in x0..=x1 {
                for &id in &self.cells[y * self.nx + x] {
                    if self.stamp[id as usize] != self.query {
                        self.stamp[id as usize] = self.query;
                        out.push(id);
                    }
                }
            }
        }
    }
}

pub(crate) fn bounds(points: &[DVec]) -> (DVec, DVec) {
    let mut lo = DVec::repeat(f64::INFINITY);
    let mut hi = DVec::repeat(f64::NEG_INFINITY);
    for p in points {
        lo = lo.inf(p);
        hi = hi.sup(p);
    }
    (lo, hi)
}

/// Distance from `p` to a convex hull (0 inside).
pub(crate) fn hull_distance(hull: &[DVec], p: DVec) -> f64 {
    let n = hull.len();
    if n == 0 {
        return f64::INFINITY;
    }
    let mut inside = n >= 3;
    let mut best = f64::INFINITY;
    for i in 0..n {
        let (a, b) = (hull[i], hull[(i + 1) % n]);
        let edge = b - a;
        if edge.x * (p.y - a.y) - edge.y * (p.x - a.x) < 0.0 {
            inside = false;
        }
        best = best.min(super::region::segment_distance(p, a, b));
    }
    if inside { 0.0 } else { best }
}

/// The fill splits a piece that reaches into a finished leaf only while its
/// cell's half side is above this fraction of ε: finer quarters gain the
/// next leaves less than the extra pieces cost.
const SPLIT_FLOOR: f64 = 0.25;

/// A piece off the frontier is seeded first when its admissible radius is
/// below this fraction of the best frontier piece's.
const SEED_CONSTRAINT_RATIO: f64 = 0.5;

/// How many times the fill may halve a piece that a leaf holds in part.
const FILL_DEPTH: u32 = 2;

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Uncovered,
    Covered,
    /// Replaced by its quarters.
    Split,
}

struct Pool<'a> {
    region: &'a Region,
    epsilon: f64,
    pieces: Vec<Piece>,
    state: Vec<State>,
    frontier: Vec<bool>,
    grid: PieceGrid,
    uncovered: usize,
}

impl Pool<'_> {
    fn add(&mut self, piece: Piece, frontier: bool) -> u32 {
        let id = self.pieces.len() as u32;
        self.grid.insert(id, &piece.hull);
        self.pieces.push(piece);
        self.state.push(State::Uncovered);
        self.frontier.push(frontier);
        self.uncovered += 1;
        id
    }

    fn seed(&self) -> Option<usize> {
        let key = |i: usize| self.pieces[i].admissible_radius(self.epsilon);
        let open = |i: &usize| self.state[*i] == State::Uncovered;
        let best = |frontier_only: bool| {
            (0..self.pieces.len())
                .filter(open)
                .filter(|&i| !frontier_only || self.frontier[i])
                .min_by(|&a, &b| key(a).total_cmp(&key(b)).then(a.cmp(&b)))
        };
        let anywhere = best(false)?;
        match best(true) {
            // A much more constrained piece elsewhere (another corner or tip)
            // goes first: its leaf has the least freedom.
            Some(frontier) if key(anywhere) >= SEED_CONSTRAINT_RATIO * key(frontier) => {
                Some(frontier)
            }
            _ => Some(anywhere),
        }
    }

    /// Grows one leaf from `seed` (see the module docs).
    fn grow(&mut self, seed: usize) -> Grown {
        let mut members = vec![seed as u32];
        self.take(seed);
        let mut points = self.pieces[seed].hull.clone();
        let mut disc = self.pieces[seed].disc;
        let mut failed: Vec<u32> = Vec::new();
        let mut near = Vec::new();
        // Whole pieces, nearest first, moving the centre when one needs it.
        loop {
            let admissible = self.epsilon - (disc.overhang - disc.radius);
            let queue = self.reaching(&disc, admissible, &failed, &mut near);
            let mut progress = false;
            for id in queue {
                let index = id as usize;
                let admissible = self.epsilon - (disc.overhang - disc.radius);
                let hull = &self.pieces[index].hull;
                let piece_reach = reach(hull, disc.center);
                if piece_reach > admissible {
                    if hull_distance(hull, disc.center) > admissible {
                        continue; // the centre moved away; maybe next round
                    }
                    let mut trial_points: Vec<DVec> =
                        points.iter().chain(hull.iter()).copied().collect();
                    let trial_points = convex_hull(&mut trial_points);
                    let search =
                        Search::feasibility(disc.center, piece_reach - admissible, self.epsilon);
                    let trial = fit_disc(self.region, &trial_points, search);
                    if trial.overhang > self.epsilon {
                        failed.push(id);
                        continue;
                    }
                    disc = trial;
                    points = trial_points;
                } else {
                    points.extend_from_slice(hull);
                }
                self.take(index);
                members.push(id);
                progress = true;
            }
            if !progress {
                break;
            }
        }
        // Best centre for what the leaf holds: the most room for the fill.
        let mut hull_points = points.clone();
        let hull_points = convex_hull(&mut hull_points);
        let polished = fit_disc(
            self.region,
            &hull_points,
            Search {
                start: Some((disc.center, disc.radius * 1e-2)),
                ..Search::FULL
            },
        );
        if polished.overhang <= disc.overhang {
            disc = polished;
        }
        // Fill: pieces reaching into the admissible disc join whole if they
        // fit, or are split so that their quarters inside it join.
        let admissible = self.epsilon - (disc.overhang - disc.radius);
        let mut queue = self.reaching(&disc, admissible, &[], &mut near);
        let mut depth_left: Vec<(u32, u32)> = queue.iter().map(|&id| (id, FILL_DEPTH)).collect();
        queue.clear();
        while let Some((id, depth)) = depth_left.pop() {
            let index = id as usize;
            if self.state[index] != State::Uncovered {
                continue;
            }
            let hull = &self.pieces[index].hull;
            if reach(hull, disc.center) <= admissible {
                points.extend_from_slice(hull);
                self.take(index);
                members.push(id);
            } else if depth > 0
                && self.pieces[index].cell.half() > SPLIT_FLOOR * self.epsilon
                && hull_distance(hull, disc.center) < admissible
            {
                let quarters = self.pieces[index].split(self.region);
                self.state[index] = State::Split;
                self.uncovered -= 1;
                let frontier = self.frontier[index];
                for quarter in quarters {
                    let quarter_id = self.add(quarter, frontier);
                    depth_left.push((quarter_id, depth - 1));
                }
            }
        }
        let hull = convex_hull(&mut points);
        let radius = reach(&hull, disc.center);
        Grown {
            disc: FittedDisc {
                center: disc.center,
                radius,
                overhang: radius + (disc.overhang - disc.radius),
            },
            hull,
            members,
        }
    }

    fn take(&mut self, index: usize) {
        self.state[index] = State::Covered;
        self.uncovered -= 1;
    }

    /// Uncovered pieces (not in `skip`) that reach into the admissible disc,
    /// nearest (by their farthest point) first.
    fn reaching(
        &mut self,
        disc: &FittedDisc,
        admissible: f64,
        skip: &[u32],
        near: &mut Vec<u32>,
    ) -> Vec<u32> {
        self.grid.near(disc.center, admissible, near);
        let mut queue: Vec<(f64, u32)> = near
            .iter()
            .filter(|&&id| self.state[id as usize] == State::Uncovered && !skip.contains(&id))
            .filter(|&&id| hull_distance(&self.pieces[id as usize].hull, disc.center) <= admissible)
            .map(|&id| (reach(&self.pieces[id as usize].hull, disc.center), id))
            .collect();
        queue.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        queue.into_iter().map(|(_, id)| id).collect()
    }

    /// Marks the uncovered pieces that a new leaf touches as frontier.
    fn mark_frontier(&mut self, leaf: &FittedDisc) {
        let mut near = Vec::new();
        self.grid.near(leaf.center, leaf.radius, &mut near);
        for id in near {
            let index = id as usize;
            if self.state[index] == State::Uncovered {
                let (lo, hi) = bounds(&self.pieces[index].hull);
                let closest = leaf.center.sup(&lo).inf(&hi);
                if (closest - leaf.center).norm() <= leaf.radius {
                    self.frontier[index] = true;
                }
            }
        }
    }
}

/// Leaf discs holding every piece, each with overhang bound <= `epsilon`.
pub(crate) fn cover(region: &Region, pieces: Vec<Piece>, epsilon: f64) -> Vec<LeafDisc> {
    if pieces.is_empty() {
        return Vec::new();
    }
    let mut lo = DVec::repeat(f64::INFINITY);
    let mut hi = DVec::repeat(f64::NEG_INFINITY);
    for piece in &pieces {
        let (plo, phi) = bounds(&piece.hull);
        lo = lo.inf(&plo);
        hi = hi.sup(&phi);
    }
    let typical = ((hi - lo).x * (hi - lo).y / pieces.len() as f64).sqrt();
    let mut pool = Pool {
        region,
        epsilon,
        pieces: Vec::with_capacity(pieces.len() * 2),
        state: Vec::new(),
        frontier: Vec::new(),
        grid: PieceGrid::new(lo, hi, typical),
        uncovered: 0,
    };
    for piece in pieces {
        pool.add(piece, false);
    }
    let mut grown: Vec<Grown> = Vec::new();
    while pool.uncovered > 0 {
        let Some(seed) = pool.seed() else { break };
        let leaf = pool.grow(seed);
        pool.mark_frontier(&leaf.disc);
        grown.push(leaf);
    }
    tighten(region, &pool.pieces, grown, epsilon)
}
