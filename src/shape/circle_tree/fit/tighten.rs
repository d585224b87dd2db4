//! After the cover: fewer and tighter leaves.
//!
//! 1. **Absorb**, smallest leaf first: a leaf whose pieces its neighbours can
//!    take over (the whole leaf into one neighbour, or piece by piece into
//!    several), each neighbour's centre searched again and its bound still
//!    met, is removed. This clears the slivers left where two sweeps meet.
//! 2. **Shrink**: each leaf takes the radius its pieces need, or the smallest
//!    circle enclosing them when that one also meets the bound.
//! 3. **Drop**: a leaf all of whose pieces lie inside other leaves goes.
//!
//! Every step keeps each piece inside some leaf with overhang bound <= ε.

use super::super::enclosing::{DVec, enclosing_points};
use super::cover::Grown;
use super::disc_fit::{FittedDisc, Search, fit_disc, reach};
use super::pieces::{Piece, convex_hull};
use super::region::Region;

/// A leaf absorbed piece by piece may have at most this many pieces: beyond
/// it the attempt costs more searches than the leaf is worth.
const MAX_PIECEWISE: usize = 24;

/// A finished leaf disc (f64, local frame) before rounding to f32.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LeafDisc {
    pub center: DVec,
    pub radius: f64,
}

fn admissible(disc: &FittedDisc, epsilon: f64) -> f64 {
    epsilon - (disc.overhang - disc.radius)
}

/// `target` extended by `extra` points if the bound still holds.
fn extend(
    region: &Region,
    target: &(FittedDisc, Vec<DVec>),
    extra: &[DVec],
    epsilon: f64,
) -> Option<(FittedDisc, Vec<DVec>)> {
    let (disc, hull) = target;
    let extra_reach = reach(extra, disc.center);
    let room = admissible(disc, epsilon);
    let mut points: Vec<DVec> = hull.iter().chain(extra.iter()).copied().collect();
    let points = convex_hull(&mut points);
    if extra_reach <= room {
        let radius = reach(&points, disc.center);
        let sd = disc.overhang - disc.radius;
        return Some((
            FittedDisc {
                center: disc.center,
                radius,
                overhang: radius + sd,
            },
            points,
        ));
    }
    let trial = fit_disc(
        region,
        &points,
        Search::feasibility(disc.center, extra_reach - room, epsilon),
    );
    (trial.overhang <= epsilon).then_some((trial, points))
}

fn absorb(
    region: &Region,
    pieces: &[Piece],
    leaves: &mut [Grown],
    alive: &mut [bool],
    epsilon: f64,
) {
    let mut order: Vec<usize> = (0..leaves.len()).collect();
    order.sort_by(|&a, &b| {
        leaves[a]
            .disc
            .radius
            .total_cmp(&leaves[b].disc.radius)
            .then(a.cmp(&b))
    });
    for k in order {
        let center = leaves[k].disc.center;
        let radius = leaves[k].disc.radius;
        let mut neighbours: Vec<(f64, usize)> = (0..leaves.len())
            .filter(|&m| m != k && alive[m])
            .map(|m| ((leaves[m].disc.center - center).norm(), m))
            .filter(|&(d, m)| d <= admissible(&leaves[m].disc, epsilon) + radius)
            .collect();
        neighbours.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        // The whole leaf into one neighbour.
        let whole = neighbours.iter().find_map(|&(_, m)| {
            let target = (leaves[m].disc, leaves[m].hull.clone());
            extend(region, &target, &leaves[k].hull, epsilon).map(|done| (m, done))
        });
        if let Some((m, (disc, hull))) = whole {
            let members = std::mem::take(&mut leaves[k].members);
            leaves[m].disc = disc;
            leaves[m].hull = hull;
            leaves[m].members.extend(members);
            alive[k] = false;
            continue;
        }
        if leaves[k].members.len() > MAX_PIECEWISE || neighbours.len() < 2 {
            continue;
        }
        // Piece by piece into several neighbours, committed only if all find one.
        let mut changed: Vec<(usize, FittedDisc, Vec<DVec>, Vec<u32>)> = Vec::new();
        let mut all_placed = true;
        for &j in &leaves[k].members {
            let hull = &pieces[j as usize].hull;
            let placed = neighbours.iter().find_map(|&(_, m)| {
                let slot = changed.iter().position(|c| c.0 == m);
                let target = match slot {
                    Some(s) => (changed[s].1, changed[s].2.clone()),
                    None => (leaves[m].disc, leaves[m].hull.clone()),
                };
                extend(region, &target, hull, epsilon).map(|done| (m, slot, done))
            });
            match placed {
                Some((_, Some(slot), (disc, points))) => {
                    changed[slot].1 = disc;
                    changed[slot].2 = points;
                    changed[slot].3.push(j);
                }
                Some((m, None, (disc, points))) => changed.push((m, disc, points, vec![j])),
                None => {
                    all_placed = false;
                    break;
                }
            }
        }
        if all_placed {
            for (m, disc, hull, members) in changed {
                leaves[m].disc = disc;
                leaves[m].hull = hull;
                leaves[m].members.extend(members);
            }
            leaves[k].members.clear();
            alive[k] = false;
        }
    }
}

/// The smaller of: the leaf's centre with the radius its hull needs, and the
/// smallest circle enclosing the hull when that one meets the bound.
fn shrink(region: &Region, leaf: &Grown, epsilon: f64) -> LeafDisc {
    let radius = reach(&leaf.hull, leaf.disc.center);
    let tight = enclosing_points(&leaf.hull);
    if tight.radius < radius && tight.radius + region.sd(tight.center) <= epsilon {
        LeafDisc {
            center: tight.center,
            radius: tight.radius,
        }
    } else {
        LeafDisc {
            center: leaf.disc.center,
            radius,
        }
    }
}

fn holds(disc: &LeafDisc, hull: &[DVec]) -> bool {
    let r2 = disc.radius * disc.radius;
    hull.iter().all(|p| (p - disc.center).norm_squared() <= r2)
}

/// Absorbs, shrinks and drops leaves (module docs); every piece stays held.
pub(crate) fn tighten(
    region: &Region,
    pieces: &[Piece],
    mut leaves: Vec<Grown>,
    epsilon: f64,
) -> Vec<LeafDisc> {
    let mut alive = vec![true; leaves.len()];
    absorb(region, pieces, &mut leaves, &mut alive, epsilon);
    let discs: Vec<LeafDisc> = leaves
        .iter()
        .map(|leaf| shrink(region, leaf, epsilon))
        .collect();
    // Drop, smallest first: every piece of the leaf inside another live leaf.
    let mut order: Vec<usize> = (0..leaves.len()).filter(|&k| alive[k]).collect();
    order.sort_by(|&a, &b| discs[a].radius.total_cmp(&discs[b].radius).then(a.cmp(&b)));
    for &k in &order {
        let disc = discs[k];
        // The leaf that would take over each piece, if every piece has one.
        let takers: Option<Vec<usize>> = leaves[k]
            .members
            .iter()
            .map(|&j| {
                let hull = &pieces[j as usize].hull;
                (0..leaves.len()).find(|&m| {
                    m != k && alive[m] && {
                        let other = &discs[m];
                        (other.center - disc.center).norm() <= other.radius + disc.radius
                            && holds(other, hull)
                    }
                })
            })
            .collect();
        if let Some(takers) = takers {
            // Hand the pieces over, so that dropping a taker later sees them.
            let members = std::mem::take(&mut leaves[k].members);
            for (j, m) in members.into_iter().zip(takers) {
                leaves[m].members.push(j);
            }
            alive[k] = false;
        }
    }
    (0..leaves.len())
        .filter(|&k| alive[k])
        .map(|k| discs[k])
        .collect()
}
