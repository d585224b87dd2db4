//! Bottom-up hierarchy over a set of leaf circles.
//!
//! Each level groups the nodes of the level below into groups of at most
//! `branching` by proximity, periphery first: the seed of a group is the
//! remaining node farthest from the remaining nodes' centroid (so stragglers
//! at the rim are grouped with their neighbours instead of being left over
//! for the end), and the group grows by the candidate that increases its
//! enclosing circle the least. The parent is the smallest circle enclosing
//! the children's circles ([`super::enclosing`]). A group of one is carried
//! up unchanged, so no node ever has a single child.

use super::FlatNode;
use super::enclosing::{DVec, Disc, enclosing_disc};
use super::validate::round_up;
use crate::math::{Real, Vec2};
use std::collections::VecDeque;

/// How many nearest remaining nodes a group chooses its members from, per
/// member slot: enough to find the tightest neighbours, few enough to keep a
/// level O(n · branching²) enclosing-circle computations.
const CANDIDATES_PER_SLOT: usize = 4;

struct BuildNode {
    disc: Disc,
    children: Vec<usize>,
}

/// The flat, breadth-first node array of a tree over `leaves` (f32-exact
/// discs), with parents of at most `branching >= 2` children.
pub(crate) fn build_flat(leaves: &[Disc], branching: usize) -> Vec<FlatNode> {
    let branching = branching.max(2);
    let mut arena: Vec<BuildNode> = leaves
        .iter()
        .map(|d| BuildNode {
            disc: *d,
            children: Vec::new(),
        })
        .collect();
    let mut level: Vec<usize> = (0..arena.len()).collect();
    while level.len() > 1 {
        let groups = group_level(&arena, &level, branching);
        let mut next = Vec::with_capacity(groups.len());
        for group in groups {
            if group.len() == 1 {
                next.push(group[0]);
                continue;
            }
            let discs: Vec<Disc> = group.iter().map(|&i| arena[i].disc).collect();
            let enclosing = enclosing_disc(&discs);
            // Parent in f32: round the centre, then the radius up so that it
            // contains each child's f32 circle exactly.
            let center = to_f32(enclosing.center);
            let center64 = DVec::new(center.x as f64, center.y as f64);
            let reach = discs
                .iter()
                .map(|d| (d.center - center64).norm() + d.radius)
                .fold(0.0, f64::max);
            let radius = round_up(reach);
            arena.push(BuildNode {
                disc: Disc::at(center64, radius as f64),
                children: group,
            });
            next.push(arena.len() - 1);
        }
        level = next;
    }
    flatten(&arena, level.first().copied().unwrap_or(0))
}

fn to_f32(v: DVec) -> Vec2 {
    Vec2::new(v.x as Real, v.y as Real)
}

/// Splits one level into proximity groups of at most `branching` nodes.
fn group_level(arena: &[BuildNode], level: &[usize], branching: usize) -> Vec<Vec<usize>> {
    let mut remaining: Vec<usize> = level.to_vec();
    let mut groups = Vec::with_capacity(level.len() / branching + 1);
    while !remaining.is_empty() {
        if remaining.len() <= branching {
            groups.push(std::mem::take(&mut remaining));
            break;
        }
        let centroid = remaining
            .iter()
            .map(|&i| arena[i].disc.center)
            .sum::<DVec>()
            / remaining.len() as f64;
        let reach = |i: usize| (arena[i].disc.center - centroid).norm() + arena[i].disc.radius;
        let seed_slot = (0..remaining.len())
            .max_by(|&a, &b| {
                reach(remaining[a])
                    .total_cmp(&reach(remaining[b]))
                    .then(b.cmp(&a))
            })
            .unwrap_or(0);
        let seed = remaining.swap_remove(seed_slot);
        let seed_center = arena[seed].disc.center;
        let far_side =
            |i: usize| (arena[i].disc.center - seed_center).norm() + arena[i].disc.radius;
        // The nearest candidates first (by the far side of their circle from the seed).
        let take = (CANDIDATES_PER_SLOT * branching).min(remaining.len());
        remaining.select_nth_unstable_by(take - 1, |&a, &b| {
            far_side(a).total_cmp(&far_side(b)).then(a.cmp(&b))
        });
        let mut candidates: Vec<usize> = remaining[..take].to_vec();
        let mut group = vec![seed];
        let mut discs = vec![arena[seed].disc];
        while group.len() < branching && !candidates.is_empty() {
            let mut best: Option<(usize, f64)> = None;
            for (slot, &candidate) in candidates.iter().enumerate() {
                discs.push(arena[candidate].disc);
                let radius = enclosing_disc(&discs).radius;
                discs.pop();
                if best.is_none_or(|(_, r)| radius < r) {
                    best = Some((slot, radius));
                }
            }
            let Some((slot, _)) = best else { break };
            let chosen = candidates.swap_remove(slot);
            group.push(chosen);
            discs.push(arena[chosen].disc);
        }
        remaining.retain(|i| !group.contains(i));
        groups.push(group);
    }
    groups
}

/// Breadth-first node order from `root`: children contiguous, root at 0.
fn flatten(arena: &[BuildNode], root: usize) -> Vec<FlatNode> {
    let mut order = Vec::with_capacity(arena.len());
    let mut queue = VecDeque::from([root]);
    while let Some(id) = queue.pop_front() {
        order.push(id);
        queue.extend(arena[id].children.iter().copied());
    }
    let mut nodes = Vec::with_capacity(order.len());
    // In BFS order the children of the k-th node follow those of all earlier nodes.
    let mut next_child = 1;
    for &id in &order {
        let node = &arena[id];
        let children = next_child..next_child + node.children.len();
        next_child += node.children.len();
        nodes.push(FlatNode {
            center: to_f32(node.disc.center),
            radius: node.disc.radius as Real,
            children: if node.children.is_empty() {
                0..0
            } else {
                children
            },
            part: None,
        });
    }
    nodes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_of_at_most_branching_and_no_single_children() {
        for branching in [2, 3, 4, 8] {
            for count in [1, 2, 5, 16, 17, 64, 100] {
                let leaves: Vec<Disc> = (0..count)
                    .map(|i| {
                        let t = i as f64 * 0.37;
                        Disc::at(DVec::new(t.cos() * t, t.sin() * t), 0.2 + 0.01 * i as f64)
                    })
                    .map(|d| Disc::new(to_f32(d.center), d.radius as Real))
                    .collect();
                let nodes = build_flat(&leaves, branching);
                let leaf_count = nodes.iter().filter(|n| n.children.is_empty()).count();
                assert_eq!(leaf_count, count);
                for node in &nodes {
                    let k = node.children.len();
                    assert!(k == 0 || (2..=branching).contains(&k), "{k} children");
                }
            }
        }
    }
}
