//! Candidate pairs from collider boxes by sort-and-sweep on x.
//!
//! Boxes are sorted by their lower x bound (ties broken by handle), then each
//! box is compared with the following ones until their lower x passes its
//! upper x. Cost O(n log n + k) for k overlapping x-intervals; the output is
//! sorted by handle pair, so the order is deterministic.

use super::handles::ColliderHandle;
use crate::shape::Aabb;

/// One collider's entry for pair finding.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PairEntry {
    pub handle: ColliderHandle,
    pub aabb: Aabb,
    /// Index of the owning body in the step's body list.
    pub body: usize,
    /// True when the body can move this step (dynamic or kinematic, awake).
    pub moving: bool,
}

/// Pairs of entries (by index) whose boxes overlap, from different bodies,
/// at least one moving; sorted by (handle a, handle b) with a < b.
pub(crate) fn overlapping_pairs(
    entries: &[PairEntry],
    order: &mut Vec<usize>,
    out: &mut Vec<(usize, usize)>,
) {
    order.clear();
    order.extend(0..entries.len());
    order.sort_by(|&i, &j| {
        entries[i]
            .aabb
            .min
            .x
            .total_cmp(&entries[j].aabb.min.x)
            .then(entries[i].handle.cmp(&entries[j].handle))
    });
    out.clear();
    for (k, &i) in order.iter().enumerate() {
        let a = &entries[i];
        for &j in &order[k + 1..] {
            let b = &entries[j];
            if b.aabb.min.x > a.aabb.max.x {
                break;
            }
            if a.body == b.body || !(a.moving || b.moving) || !a.aabb.overlaps(&b.aabb) {
                continue;
            }
            if a.handle < b.handle {
                out.push((i, j))
            } else {
                out.push((j, i))
            }
        }
    }
    out.sort_by(|x, y| {
        (entries[x.0].handle, entries[x.1].handle).cmp(&(entries[y.0].handle, entries[y.1].handle))
    });
}
