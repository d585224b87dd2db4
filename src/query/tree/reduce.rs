//! Reduction of leaf contacts to one stable manifold of at most two points.
//!
//! The leaf contacts are first put in a canonical order (by node indices and
//! feature), so that the same set of contacts always gives the same manifold
//! whatever order a descent found them in. Then:
//! - **normal**: the weighted mean of the leaf normals, the deepest weighing
//!   `1 + DEEPEST_WEIGHT` times the shallowest (linear in depth between), so
//!   it turns smoothly as contacts come and go; when the normals disagree too
//!   much to average (a tree gripping a thin shape from both sides), the
//!   deepest contact's normal;
//! - **points**: the deepest contact (so the deepest depth is preserved) and
//!   the contact farthest from it along the tangent (the support span that
//!   resists rotation). Each point keeps its own leaf depth, feature id and
//!   parts.
//!
//! Why two: in the plane, one normal leaves two degrees of freedom to push
//! against (along the normal and the turn about it), and two points at the
//! ends of the span hold both, as a polygon face's two clipped points do.
//! Further points along the same normal are redundant: the solver makes
//! each point a spring of the contact stiffness, so they stack into a
//! stiffer contact than the substep holds. A tower of 36 hulls of 16 leaves
//! resting flat on each other never came to rest with four points and
//! rocked itself over (6 m of sway); with two it settles and sleeps
//! (`tests/world_tree_contacts.rs`).

use super::LeafContact;
use crate::math::{Real, perp};
use crate::query::{ContactPoint, Manifold};
use smallvec::SmallVec;

/// Most points in a reduced manifold.
pub const MAX_MANIFOLD_POINTS: usize = 2;

/// The deepest leaf normal weighs `1 + DEEPEST_WEIGHT` times the shallowest:
/// deep contacts steer the normal, shallow ones still smooth it.
const DEEPEST_WEIGHT: Real = 4.0;

/// The mean normal is used only if its length is at least this fraction of
/// the total weight (the normals agree within about 75°); otherwise the
/// deepest contact's normal.
const NORMAL_AGREEMENT: Real = 0.25;

/// One manifold from leaf contacts (normal from A to B), `None` for none.
///
/// # Examples
/// ```
/// use circlet::math::vec2;
/// use circlet::query::FeatureId;
/// use circlet::query::tree::{LeafContact, reduce_leaf_contacts};
/// let contact = |node: u32, x: f32, depth: f32| LeafContact {
///     node_a: node, node_b: None, point: vec2(x, 0.0), normal: vec2(0.0, -1.0), depth,
///     id: FeatureId::new(node as u16, 0), part_a: None, part_b: None,
/// };
/// let leaves: Vec<_> = (0..9).map(|i| contact(i, i as f32, 0.01 * i as f32)).collect();
/// let manifold = reduce_leaf_contacts(&leaves).unwrap();
/// assert_eq!(manifold.points.len(), 2);
/// let xs: Vec<f32> = manifold.points.iter().map(|p| p.point.x).collect();
/// assert_eq!(xs, [8.0, 0.0]); // the deepest, and the farthest from it
/// assert_eq!(manifold.depth(), 0.08);
/// ```
pub fn reduce_leaf_contacts(contacts: &[LeafContact]) -> Option<Manifold> {
    if contacts.is_empty() {
        return None;
    }
    let mut order: SmallVec<[LeafContact; 16]> = contacts.iter().copied().collect();
    order.sort_by(canonical);
    reduce_ordered(&order)
}

/// The canonical order of leaf contacts: by nodes and feature, then depth,
/// point and normal (and parts, which the nodes decide): contacts that
/// compare equal are equal in every field, so any sort gives one order.
fn canonical(a: &LeafContact, b: &LeafContact) -> std::cmp::Ordering {
    (a.node_a, a.node_b, a.id)
        .cmp(&(b.node_a, b.node_b, b.id))
        .then(a.depth.total_cmp(&b.depth))
        .then(a.point.x.total_cmp(&b.point.x))
        .then(a.point.y.total_cmp(&b.point.y))
        .then(a.normal.x.total_cmp(&b.normal.x))
        .then(a.normal.y.total_cmp(&b.normal.y))
        .then((a.part_a, a.part_b).cmp(&(b.part_a, b.part_b)))
}

/// [`reduce_leaf_contacts`] sorting `contacts` in place and writing into
/// `out` (its point buffer reused), with the contact functions' rule that
/// a manifold that is not finite is none: no allocation. The sort is
/// `sort_unstable_by`, in place and O(n log n) for a tree with many leaves
/// on one shape; the order is total, so it is the order `sort_by` gives.
pub(crate) fn reduce_leaf_contacts_into(contacts: &mut [LeafContact], out: &mut Option<Manifold>) {
    contacts.sort_unstable_by(canonical);
    reduce_ordered_into(contacts, out);
    if out.as_ref().is_some_and(|m| !m.is_finite()) {
        *out = None;
    }
}

/// [`reduce_leaf_contacts`] for the contacts of two trees, each leaf pair
/// once: sorted in place by leaf pair, which is the canonical order (a
/// pair's feature id follows from its two nodes, so no two contacts tie).
pub(crate) fn reduce_leaf_pairs(contacts: &mut [LeafContact]) -> Option<Manifold> {
    let mut out = None;
    reduce_leaf_pairs_into(contacts, &mut out);
    out
}

/// Leaf-pair contacts up to this many are sorted by insertion (they come
/// nearly in order from a descent or a pair cache); more by the standard
/// library's unstable sort.
const INSERTION_SORT_MAX: usize = 32;

/// [`reduce_leaf_pairs`] written into `out` (its point buffer reused), with
/// the contact functions' rule that a manifold that is not finite is none.
pub(crate) fn reduce_leaf_pairs_into(contacts: &mut [LeafContact], out: &mut Option<Manifold>) {
    let key = |c: &LeafContact| (u64::from(c.node_a) << 32) | u64::from(c.node_b.unwrap_or(0));
    // No two contacts share a key, so every sort gives the same order.
    if contacts.len() <= INSERTION_SORT_MAX {
        // Insertion sort: a few to a few dozen contacts, often nearly in order.
        for i in 1..contacts.len() {
            let mut j = i;
            while j > 0 && key(&contacts[j - 1]) > key(&contacts[j]) {
                contacts.swap(j - 1, j);
                j -= 1;
            }
        }
    } else {
        // Two large trees lying along each other: O(n log n), not O(n²).
        contacts.sort_unstable_by_key(key);
    }
    reduce_ordered_into(contacts, out);
    if out.as_ref().is_some_and(|m| !m.is_finite()) {
        *out = None;
    }
}

/// The first index with the largest `score` (`total_cmp`) among those not
/// in `chosen`.
#[inline]
fn pick(count: usize, chosen: &[usize], score: impl Fn(usize) -> Real) -> Option<usize> {
    let mut best: Option<(usize, Real)> = None;
    for i in (0..count).filter(|i| !chosen.contains(i)) {
        let s = score(i);
        if best.is_none_or(|(_, b)| s.total_cmp(&b).is_gt()) {
            best = Some((i, s));
        }
    }
    best.map(|(i, _)| i)
}

/// The reduction of contacts already in canonical order.
fn reduce_ordered(order: &[LeafContact]) -> Option<Manifold> {
    let mut out = None;
    reduce_ordered_into(order, &mut out);
    out
}

/// [`reduce_ordered`] written into `out`, reusing its point buffer.
fn reduce_ordered_into(order: &[LeafContact], out: &mut Option<Manifold>) {
    if order.is_empty() {
        *out = None;
        return;
    }
    // The deepest: the first of the largest depths.
    let mut deepest = 0;
    let mut min_depth = Real::INFINITY;
    for (i, c) in order.iter().enumerate() {
        if c.depth.total_cmp(&order[deepest].depth).is_gt() {
            deepest = i;
        }
        min_depth = min_depth.min(c.depth);
    }
    let spread = order[deepest].depth - min_depth;
    let weight = |depth: Real| {
        if spread > 0.0 {
            1.0 + DEEPEST_WEIGHT * (depth - min_depth) / spread
        } else {
            1.0
        }
    };
    let mut sum = crate::math::Vec2::zeros();
    let mut total = 0.0;
    for c in order {
        let w = weight(c.depth);
        sum += c.normal * w;
        total += w;
    }
    let length = sum.norm();
    let normal = if length >= NORMAL_AGREEMENT * total && length.is_finite() && length > 0.0 {
        sum / length
    } else {
        order[deepest].normal
    };
    let tangent = perp(normal);
    let along = |i: usize| tangent.dot(&order[i].point);
    let mut chosen = [deepest; MAX_MANIFOLD_POINTS];
    let mut len = 1;
    let from_deepest = along(deepest);
    if let Some(far) = pick(order.len(), &chosen[..len], |i| {
        (along(i) - from_deepest).abs()
    }) {
        chosen[len] = far;
        len += 1;
    }
    let manifold = out.get_or_insert_with(|| Manifold {
        normal,
        points: SmallVec::new(),
    });
    manifold.normal = normal;
    if manifold.points.len() == len {
        // Field by field into the points there are: a whole point copied
        // from the stack would wait for the stores that just made it.
        for (slot, &i) in manifold.points.iter_mut().zip(&chosen[..len]) {
            let c = &order[i];
            slot.point = c.point;
            slot.depth = c.depth;
            slot.id = c.id;
            slot.part_a = c.part_a;
            slot.part_b = c.part_b;
        }
        return;
    }
    manifold.points.clear();
    for &i in &chosen[..len] {
        let c = &order[i];
        manifold.points.push(ContactPoint {
            point: c.point,
            depth: c.depth,
            id: c.id,
            part_a: c.part_a,
            part_b: c.part_b,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;
    use crate::query::FeatureId;

    /// Leaf contacts against a shape (no node of B), several per leaf and
    /// some equal but for the depth or the point, as a leaf touching a
    /// polygon's corner gives.
    fn contacts(count: u32) -> Vec<LeafContact> {
        (0..count)
            .map(|i| {
                let node = (i * 7) % 5;
                let angle = i as Real * 0.9;
                LeafContact {
                    node_a: node,
                    node_b: None,
                    point: vec2(((i * 3) % 4) as Real * 0.25, 0.1 * (i % 2) as Real),
                    normal: vec2(angle.cos(), angle.sin()),
                    depth: 0.01 * ((i * 5) % 3) as Real - 0.005,
                    id: FeatureId::new(node as u16, (i % 2) as u16),
                    part_a: None,
                    part_b: None,
                }
            })
            .collect()
    }

    #[test]
    fn reduced_in_place_the_manifold_is_the_copied_one() {
        // The copy is sorted by `sort_by` (stable), the buffer in place by
        // `sort_unstable_by`: the order is total, so they agree.
        let mut out = None;
        for count in [0, 1, 2, 7, 21, 40] {
            let found = contacts(count);
            for shift in 0..found.len().max(1) {
                let mut turned = found.clone();
                turned.rotate_left(shift);
                let want = reduce_leaf_contacts(&turned);
                reduce_leaf_contacts_into(&mut turned, &mut out);
                assert_eq!(out, want, "{count} contacts turned by {shift}");
            }
        }
        assert!(out.is_some_and(|m| m.points.len() == 2));
    }

    #[test]
    fn leaf_pairs_sort_the_same_by_insertion_and_in_bulk() {
        // Leaf pairs of two trees, each pair once, in a scrambled order:
        // as many as insertion sorts and more.
        let pairs = |count: u32| -> Vec<LeafContact> {
            (0..count)
                .map(|i| {
                    let (a, b) = ((i * 37) % count / 8, (i * 37) % count % 8);
                    let angle = i as Real * 0.7;
                    LeafContact {
                        node_a: a,
                        node_b: Some(b),
                        point: vec2(a as Real * 0.3, b as Real * 0.2),
                        normal: vec2(angle.cos(), angle.sin()),
                        depth: 0.002 * ((i * 5) % 7) as Real - 0.004,
                        id: FeatureId::new(a as u16, b as u16),
                        part_a: None,
                        part_b: None,
                    }
                })
                .collect()
        };
        let mut out = None;
        for count in [
            1,
            5,
            INSERTION_SORT_MAX as u32,
            INSERTION_SORT_MAX as u32 + 1,
            40,
            400,
        ] {
            let found = pairs(count);
            // The reference: sorted by the canonical order, which for
            // distinct leaf pairs is the order of the pairs.
            let want = reduce_leaf_contacts(&found);
            let mut scrambled = found.clone();
            reduce_leaf_pairs_into(&mut scrambled, &mut out);
            assert_eq!(out, want, "{count} leaf pairs");
            assert!(
                scrambled
                    .windows(2)
                    .all(|w| (w[0].node_a, w[0].node_b) < (w[1].node_a, w[1].node_b)),
                "{count} leaf pairs sorted"
            );
        }
    }
}
