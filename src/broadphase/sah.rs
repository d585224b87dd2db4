//! Surface-area heuristic for the [`DynamicTree`]: where a new leaf goes, and
//! the rotations that keep the tree shallow.
//!
//! In 2D the "surface area" of a box is its perimeter. The cost of a tree is
//! the sum of its internal nodes' perimeters (a query's expected work is
//! proportional to it). Inserting leaf `D` next to sibling `S` costs
//!
//! `perimeter(S ∪ D)` (the new parent) `+ Σ over S's ancestors A of
//! (perimeter(A ∪ D) - perimeter(A))` (each ancestor grows to hold `D`).
//!
//! The search is branch and bound along one path, as Box2D v3 describes it
//! (the bound is Bittner et al. 2013's). Below a node `C` every candidate pays
//! at least what `C`'s ancestors and `C` itself grow, plus a new parent no
//! smaller than `min(perimeter(D), perimeter(C))`. From the root the search
//! keeps the cheapest sibling seen, descends into the child with the smaller
//! bound (ties: the nearer centre) and stops when neither child's bound can
//! beat the best cost: O(height) per insertion.
//!
//! It is not an exhaustive search: where sibling boxes overlap the path can
//! miss the cheapest node. An exhaustive branch and bound (every subtree
//! whose bound beats the best) was measured too: it always finds the minimum
//! but on a 32k-box jittered grid it made a broadphase step twice as slow
//! and the resulting trees were no better for queries (a little deeper), so
//! the single path is kept.

use super::tree::Slot;
use super::{Bounds, DynamicTree};
use crate::math::Real;

impl<T: Copy> DynamicTree<T> {
    /// The node next to which a leaf with box `leaf_bounds` is inserted: the
    /// cheapest sibling met on one root-to-leaf path chosen by lower bounds.
    pub(super) fn find_best_sibling(&self, leaf_bounds: &Bounds) -> u32 {
        let nodes = &self.nodes;
        let leaf_perimeter = leaf_bounds.perimeter();
        let leaf_center = leaf_bounds.center();

        let mut index = self.root;
        let mut node_perimeter = nodes[index as usize].bounds.perimeter();
        // perimeter(node ∪ D): the new parent's cost if `index` is the sibling.
        let mut direct_cost = nodes[index as usize].bounds.union(leaf_bounds).perimeter();
        // Growth of the strict ancestors of `index`.
        let mut inherited_cost: Real = 0.0;
        let mut best = index;
        let mut best_cost = direct_cost;

        while nodes[index as usize].slot == Slot::Internal {
            let cost = direct_cost + inherited_cost;
            if cost < best_cost {
                best = index;
                best_cost = cost;
            }
            // Every node below pays for `index` growing too.
            inherited_cost += direct_cost - node_perimeter;

            let node = &nodes[index as usize];
            let children = [node.child1, node.child2];
            let mut lower = [Real::INFINITY; 2];
            let mut direct = [0.0; 2];
            let mut perimeter = [0.0; 2];
            for (k, &child) in children.iter().enumerate() {
                let child_bounds = nodes[child as usize].bounds;
                direct[k] = child_bounds.union(leaf_bounds).perimeter();
                if nodes[child as usize].slot == Slot::Leaf {
                    // A leaf can only be a sibling: its exact cost (bound stays inf).
                    let leaf_cost = direct[k] + inherited_cost;
                    if leaf_cost < best_cost {
                        best = child;
                        best_cost = leaf_cost;
                    }
                } else {
                    perimeter[k] = child_bounds.perimeter();
                    // inherited + growth(child) + min(perimeter(D), perimeter(child))
                    lower[k] = inherited_cost + direct[k] - perimeter[k]
                        + leaf_perimeter.min(perimeter[k]);
                }
            }
            // Written so that NaN bounds (overflowing boxes) stop the search too.
            if !(lower[0] < best_cost || lower[1] < best_cost) {
                break;
            }
            let k = if lower[0] != lower[1] {
                usize::from(lower[1] < lower[0])
            } else {
                // Equal bounds (both children already hold D, say): go
                // towards the nearer centre.
                let distance = |child: u32| {
                    (nodes[child as usize].bounds.center() - leaf_center).norm_squared()
                };
                usize::from(distance(children[1]) < distance(children[0]))
            };
            if nodes[children[k] as usize].slot != Slot::Internal {
                break;
            }
            index = children[k];
            node_perimeter = perimeter[k];
            direct_cost = direct[k];
        }
        best
    }

    /// Offers node `a` (children `b`, `c`) the rotation that most shrinks one
    /// of its children: swap `b` with a child of `c`, or `c` with a child of
    /// `b`. `a`'s own box is unchanged (same leaves below), so only the child
    /// that receives a new grandchild changes. Nothing happens unless the
    /// perimeter strictly decreases.
    pub(super) fn rotate(&mut self, a: u32) {
        let node = &self.nodes[a as usize];
        let (b, c) = (node.child1, node.child2);
        let (b_node, c_node) = (&self.nodes[b as usize], &self.nodes[c as usize]);
        if b_node.slot == Slot::Leaf && c_node.slot == Slot::Leaf {
            return;
        }
        // (outer child of a, its sibling, grandchild to swap with outer, that grandchild's sibling)
        let mut best: Option<(u32, u32, u32, u32)> = None;
        let mut best_gain: Real = 0.0;
        let mut consider =
            |outer: u32, inner_parent: u32, swap: u32, keep: u32, parent_perimeter: Real| {
                let nodes = &self.nodes;
                // After the swap inner_parent holds `outer` and `keep`.
                let after = nodes[outer as usize]
                    .bounds
                    .union(&nodes[keep as usize].bounds)
                    .perimeter();
                let gain = parent_perimeter - after;
                if gain > best_gain {
                    best_gain = gain;
                    best = Some((outer, inner_parent, swap, keep));
                }
            };
        if c_node.slot == Slot::Internal {
            let (f, g, perimeter) = (c_node.child1, c_node.child2, c_node.bounds.perimeter());
            consider(b, c, f, g, perimeter);
            consider(b, c, g, f, perimeter);
        }
        if b_node.slot == Slot::Internal {
            let (d, e, perimeter) = (b_node.child1, b_node.child2, b_node.bounds.perimeter());
            consider(c, b, d, e, perimeter);
            consider(c, b, e, d, perimeter);
        }
        if let Some((outer, inner_parent, swap, _keep)) = best {
            // a: outer -> swap; inner_parent: swap -> outer.
            self.replace_child(a, outer, swap);
            self.replace_child(inner_parent, swap, outer);
            self.nodes[swap as usize].parent = a;
            self.nodes[outer as usize].parent = inner_parent;
            self.refit(inner_parent);
            self.refit(a);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::ProxyKind;
    use super::*;
    use crate::math::vec2;

    fn unit_at(x: Real, y: Real) -> Bounds {
        Bounds::new(vec2(x, y), vec2(x + 1.0, y + 1.0)).unwrap()
    }

    /// Sum of internal perimeters: the SAH cost of the whole tree.
    fn tree_cost<T: Copy>(tree: &DynamicTree<T>) -> Real {
        tree.nodes
            .iter()
            .filter(|n| n.slot == Slot::Internal)
            .map(|n| n.bounds.perimeter())
            .sum()
    }

    fn lcg(seed: &mut u64) -> Real {
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((*seed >> 40) as Real) / (1u64 << 24) as Real
    }

    #[test]
    fn boxes_added_along_a_line_give_a_balanced_tree() {
        // The case that turns an unbalanced tree into a linked list.
        for n in [64usize, 1024, 4096] {
            let mut tree = DynamicTree::new(ProxyKind::Static);
            for i in 0..n {
                tree.insert(unit_at(i as Real, 0.0), i);
            }
            let log2 = (n as Real).log2().ceil() as u32;
            assert!(tree.height() <= log2 + 1, "n {n}: height {}", tree.height());
            assert!(tree.validate().is_ok());
        }
    }

    #[test]
    fn grids_and_random_churn_stay_shallow() {
        let n = 4096usize;
        let mut grid = DynamicTree::new(ProxyKind::Static);
        for i in 0..n {
            grid.insert(unit_at((2 * (i % 64)) as Real, (2 * (i / 64)) as Real), i);
        }
        assert!(grid.height() <= 18, "grid height {}", grid.height());
        let mut seed = 7u64;
        let mut tree = DynamicTree::new(ProxyKind::Moving);
        let mut ids = Vec::new();
        for i in 0..n {
            ids.push(tree.insert(unit_at(lcg(&mut seed) * 1000.0, lcg(&mut seed) * 1000.0), i));
        }
        // Teleport every proxy three times (worst case for incremental trees).
        for _ in 0..3 {
            for id in &ids {
                let to = unit_at(lcg(&mut seed) * 1000.0, lcg(&mut seed) * 1000.0);
                assert_eq!(tree.move_proxy(*id, to, vec2(0.0, 0.0)), Ok(true));
            }
        }
        assert!(tree.height() <= 2 * 12, "random height {}", tree.height());
        assert!(tree.validate().is_ok());
    }

    /// The exact insertion cost of `leaf_bounds` next to `node`.
    fn insertion_cost<T: Copy>(tree: &DynamicTree<T>, leaf_bounds: &Bounds, node: u32) -> Real {
        let mut cost = tree.nodes[node as usize]
            .bounds
            .union(leaf_bounds)
            .perimeter();
        let mut ancestor = tree.nodes[node as usize].parent;
        while ancestor != u32::MAX {
            let bounds = tree.nodes[ancestor as usize].bounds;
            cost += bounds.union(leaf_bounds).perimeter() - bounds.perimeter();
            ancestor = tree.nodes[ancestor as usize].parent;
        }
        cost
    }

    #[test]
    fn chosen_sibling_is_close_to_the_cheapest() {
        // Against a brute-force scan of every node (fixed seed, so the numbers
        // are reproducible): the single-path search picks the cheapest sibling
        // 659 times in 1000 with a mean cost ratio of 1.55. The limits below
        // fail for a flipped growth sign (499, 1.68) or a reversed tie-break
        // (518, 2.88).
        let mut seed = 1u64;
        let mut tree = DynamicTree::new(ProxyKind::Static);
        for i in 0..1024 {
            tree.insert(unit_at((3 * (i % 32)) as Real, (3 * (i / 32)) as Real), i);
        }
        let (mut exact, mut ratio_sum, trials) = (0, 0.0, 1000);
        for _ in 0..trials {
            let corner = vec2(lcg(&mut seed) * 96.0, lcg(&mut seed) * 96.0);
            let size = vec2(lcg(&mut seed) * 3.0, lcg(&mut seed) * 3.0);
            let leaf_bounds = Bounds::new(corner, corner + size).unwrap();
            let chosen = insertion_cost(&tree, &leaf_bounds, tree.find_best_sibling(&leaf_bounds));
            let cheapest = (0..tree.nodes.len() as u32)
                .filter(|&i| tree.nodes[i as usize].slot != Slot::Free)
                .map(|i| insertion_cost(&tree, &leaf_bounds, i))
                .fold(Real::INFINITY, Real::min);
            assert!(chosen >= cheapest);
            exact += usize::from(chosen <= cheapest);
            ratio_sum += chosen / cheapest;
        }
        let mean_ratio = ratio_sum / trials as Real;
        assert!(exact >= 600, "cheapest found {exact} / {trials} times");
        assert!(mean_ratio < 1.6, "mean cost ratio {mean_ratio}");
    }

    #[test]
    fn rotations_lower_the_tree_cost() {
        // Same insertion order with and without rotations: the SAH cost (sum of
        // internal perimeters) must be lower with them.
        let mut seed = 3u64;
        let boxes: Vec<Bounds> = (0..2000)
            .map(|_| unit_at(lcg(&mut seed) * 300.0, lcg(&mut seed) * 300.0))
            .collect();
        let mut with = DynamicTree::new(ProxyKind::Static);
        for (i, b) in boxes.iter().enumerate() {
            with.insert(*b, i);
        }
        let mut without = DynamicTree::new(ProxyKind::Static);
        without.rotations_enabled = false;
        for (i, b) in boxes.iter().enumerate() {
            without.insert(*b, i);
        }
        assert!(without.validate().is_ok() && with.validate().is_ok());
        let (cost_with, cost_without) = (tree_cost(&with), tree_cost(&without));
        assert!(cost_with < cost_without, "{cost_with} vs {cost_without}");
    }
}
