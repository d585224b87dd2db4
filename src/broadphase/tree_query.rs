//! Queries on a [`DynamicTree`]: boxes, points, rays and thick rays.
//!
//! Every traversal is depth first with an explicit stack that lives on the
//! call stack for trees up to 62 levels (a balanced tree of 2^62 proxies), so
//! a query does not allocate. The visiting order depends only on the tree's
//! structure and the query, never on hashing or randomness.

use super::bounds::Ray;
use super::tree::{NULL, Slot};
use super::{Bounds, BroadPhaseError, DynamicTree, ProxyId};
use crate::math::{Real, Vec2};

/// Inline capacity of the traversal stacks; deeper trees spill to the heap.
const STACK_INLINE: usize = 64;

impl<T: Copy> DynamicTree<T> {
    /// Calls `callback(id, user_data)` for every proxy whose fat box overlaps
    /// or touches `bounds` (world). The callback returns `true` to continue,
    /// `false` to stop. Returns `false` if the callback stopped the query.
    pub fn query_aabb<F>(&self, bounds: &Bounds, mut callback: F) -> bool
    where
        F: FnMut(ProxyId, T) -> bool,
    {
        self.visit(|node_bounds| node_bounds.overlaps(bounds), &mut callback)
    }

    /// Calls `callback(id, user_data)` for every proxy whose fat box contains
    /// the world point `point` (boundary included; a NaN point finds nothing).
    /// Returns `false` if the callback stopped the query.
    pub fn query_point<F>(&self, point: Vec2, mut callback: F) -> bool
    where
        F: FnMut(ProxyId, T) -> bool,
    {
        self.visit(
            |node_bounds| node_bounds.contains_point(point),
            &mut callback,
        )
    }

    fn visit<P, F>(&self, passes: P, callback: &mut F) -> bool
    where
        P: Fn(&Bounds) -> bool,
        F: FnMut(ProxyId, T) -> bool,
    {
        if self.root == NULL || !passes(&self.nodes[self.root as usize].bounds) {
            return true;
        }
        // Each depth holds at most one pending node, the deepest two (see
        // `visit_with_stack`): height + 2 entries always suffice.
        if self.height() as usize + 2 <= STACK_INLINE {
            let mut stack = [NULL; STACK_INLINE];
            self.visit_with_stack(passes, callback, &mut stack)
        } else {
            // A degenerate tree (heights saturate): the node count bounds
            // the depth whatever the stored heights say.
            let mut stack = vec![NULL; self.nodes.len() + 2];
            self.visit_with_stack(passes, callback, &mut stack)
        }
    }

    /// The depth-first descent of [`Self::visit`] from a root that passes,
    /// with a stack of at least height + 2 entries.
    ///
    /// Nodes are tested before they are pushed, so the stack holds only
    /// nodes that pass; the visiting order is that of testing on pop.
    /// Popping the deepest entry pushes at most its two children one level
    /// deeper, so the stack's depths never decrease from bottom to top and
    /// only the top level can hold two.
    #[inline(always)]
    fn visit_with_stack<P, F>(&self, passes: P, callback: &mut F, stack: &mut [u32]) -> bool
    where
        P: Fn(&Bounds) -> bool,
        F: FnMut(ProxyId, T) -> bool,
    {
        let nodes = self.nodes.as_slice();
        stack[0] = self.root;
        let mut len = 1;
        while len > 0 {
            len -= 1;
            let index = stack[len];
            let node = &nodes[index as usize];
            if node.slot == Slot::Internal {
                // Pushed second, popped first: child1's subtree is visited first.
                let (child1, child2) = (node.child1, node.child2);
                if passes(&nodes[child2 as usize].bounds) {
                    stack[len] = child2;
                    len += 1;
                }
                if passes(&nodes[child1 as usize].bounds) {
                    stack[len] = child1;
                    len += 1;
                }
            } else if let Some(data) = self.slot_data[index as usize].user_data
                && !callback(self.id_of(index), data)
            {
                return false;
            }
        }
        true
    }

    /// Casts the segment `origin + t * translation`, `t in [0, max_fraction]`
    /// (world, metres), against the fat boxes, Box2D style.
    ///
    /// For each proxy whose box the segment reaches before the current
    /// maximum (see [`Bounds::ray_fraction`]), `callback(id, user_data,
    /// max_fraction)` is called with the current maximum and returns the new
    /// one: the exact hit fraction on the proxy's shape clips the ray (later
    /// boxes beyond it are skipped); the current maximum (or anything larger,
    /// a negative value or NaN) leaves it unchanged; `0.0` below a maximum
    /// above 0 stops the cast (at a maximum of 0, returning it continues).
    /// Nearer children are visited first, so clipping prunes early.
    ///
    /// Returns the final maximum fraction (the closest hit if the callback
    /// clipped at every hit).
    ///
    /// # Errors
    /// [`BroadPhaseError::NonFinite`] for a NaN or infinite input,
    /// [`BroadPhaseError::NegativeFraction`]; no callback is made then.
    ///
    /// # Examples
    /// ```
    /// use circlet::broadphase::{Bounds, DynamicTree, ProxyKind};
    /// use circlet::math::vec2;
    /// let mut tree = DynamicTree::new(ProxyKind::Static);
    /// for x in [2.0, 5.0, 8.0] {
    ///     tree.insert(Bounds::new(vec2(x, -1.0), vec2(x + 1.0, 1.0)).unwrap(), x);
    /// }
    /// let (origin, translation) = (vec2(0.0, 0.0), vec2(10.0, 0.0));
    /// let mut closest = None;
    /// let fraction = tree
    ///     .ray_cast(origin, translation, 1.0, |id, x, max_fraction| {
    ///         let t = tree.fat_bounds(id).unwrap().ray_fraction(origin, translation, max_fraction);
    ///         match t {
    ///             Some(t) => { closest = Some(x); t } // clip at this hit
    ///             None => max_fraction,                 // missed: carry on
    ///         }
    ///     })
    ///     .unwrap();
    /// assert_eq!((fraction, closest), (0.2, Some(2.0)));
    /// ```
    pub fn ray_cast<F>(
        &self,
        origin: Vec2,
        translation: Vec2,
        max_fraction: Real,
        callback: F,
    ) -> Result<Real, BroadPhaseError>
    where
        F: FnMut(ProxyId, T, Real) -> Real,
    {
        self.ray_cast_thick(origin, translation, 0.0, max_fraction, callback)
    }

    /// [`ray_cast`](Self::ray_cast) for a disc of `radius` metres swept along
    /// the segment: each fat box is inflated by `radius` before the slab test
    /// (a superset of the rounded box the disc can touch; the callback decides
    /// the exact hit).
    ///
    /// # Errors
    /// As [`ray_cast`](Self::ray_cast), plus [`BroadPhaseError::NonFinite`] /
    /// [`BroadPhaseError::NegativeRadius`] for a bad radius.
    pub fn ray_cast_thick<F>(
        &self,
        origin: Vec2,
        translation: Vec2,
        radius: Real,
        max_fraction: Real,
        callback: F,
    ) -> Result<Real, BroadPhaseError>
    where
        F: FnMut(ProxyId, T, Real) -> Real,
    {
        self.ray_cast_until_stopped(origin, translation, radius, max_fraction, callback)
            .map(|(fraction, _)| fraction)
    }

    /// The thick cast, also saying whether the callback stopped it (returned 0).
    pub(super) fn ray_cast_until_stopped<F>(
        &self,
        origin: Vec2,
        translation: Vec2,
        radius: Real,
        max_fraction: Real,
        callback: F,
    ) -> Result<(Real, bool), BroadPhaseError>
    where
        F: FnMut(ProxyId, T, Real) -> Real,
    {
        let ray = Ray::new(origin, translation, max_fraction)?;
        if !radius.is_finite() {
            return Err(BroadPhaseError::NonFinite { field: "radius" });
        }
        if radius < 0.0 {
            return Err(BroadPhaseError::NegativeRadius { value: radius });
        }
        if self.root == NULL {
            return Ok((max_fraction, false));
        }
        // Each depth holds at most one pending node on the stack, the deepest
        // two (see `cast_with_stack`): height + 2 entries always suffice.
        if self.height() as usize + 2 <= STACK_INLINE {
            let mut stack = [(NULL, 0.0); STACK_INLINE];
            Ok(self.cast_with_stack(&ray, radius, max_fraction, &mut stack, callback))
        } else {
            // A degenerate tree (heights saturate): the node count bounds
            // the depth whatever the stored heights say.
            let mut stack = vec![(NULL, 0.0); self.nodes.len() + 2];
            Ok(self.cast_with_stack(&ray, radius, max_fraction, &mut stack, callback))
        }
    }

    /// The near-first descent of the thick cast on a non-empty tree, with a
    /// stack of at least height + 2 entries.
    ///
    /// Popping the deepest entry pushes at most its two children one level
    /// deeper, so the stack's depths never decrease from bottom to top and
    /// only the top level can hold two: it never holds more than
    /// height + 2 entries.
    fn cast_with_stack<F>(
        &self,
        ray: &Ray,
        radius: Real,
        mut max_fraction: Real,
        stack: &mut [(u32, Real)],
        mut callback: F,
    ) -> (Real, bool)
    where
        F: FnMut(ProxyId, T, Real) -> Real,
    {
        let nodes = self.nodes.as_slice();
        let entry = |index: u32, max_fraction: Real| {
            ray.entry_grown(&nodes[index as usize].bounds, radius, max_fraction)
        };
        // (node, entry fraction of its box)
        let mut len = 0;
        if let Some(t) = entry(self.root, max_fraction) {
            stack[0] = (self.root, t);
            len = 1;
        }
        while len > 0 {
            len -= 1;
            let (index, enter) = stack[len];
            if enter > max_fraction {
                continue; // clipped since it was pushed
            }
            let node = &nodes[index as usize];
            if node.slot == Slot::Internal {
                let (child1, child2) = (node.child1, node.child2);
                let t1 = entry(child1, max_fraction);
                let t2 = entry(child2, max_fraction);
                match (t1, t2) {
                    (Some(t1), Some(t2)) => {
                        // Far one first so the near one is popped first; a
                        // tie visits child1 first.
                        let (first, second) = if t2 < t1 {
                            ((child2, t2), (child1, t1))
                        } else {
                            ((child1, t1), (child2, t2))
                        };
                        stack[len] = second;
                        stack[len + 1] = first;
                        len += 2;
                    }
                    (Some(t1), None) => {
                        stack[len] = (child1, t1);
                        len += 1;
                    }
                    (None, Some(t2)) => {
                        stack[len] = (child2, t2);
                        len += 1;
                    }
                    (None, None) => {}
                }
            } else if let Some(data) = self.slot_data[index as usize].user_data {
                let value = callback(self.id_of(index), data, max_fraction);
                // NaN fails every comparison: it continues unchanged.
                if value < max_fraction {
                    if value == 0.0 {
                        return (0.0, true);
                    }
                    if value > 0.0 {
                        max_fraction = value;
                    }
                }
            }
        }
        (max_fraction, false)
    }
}

#[cfg(test)]
mod tests {
    use super::super::ProxyKind;
    use super::*;
    use crate::math::vec2;

    /// A 10 x 10 grid of unit boxes with gaps of 1 m.
    fn grid() -> (DynamicTree<(i32, i32)>, Vec<ProxyId>) {
        let mut tree = DynamicTree::new(ProxyKind::Static);
        let mut ids = Vec::new();
        for i in 0..10 {
            for j in 0..10 {
                let min = vec2(2.0 * i as Real, 2.0 * j as Real);
                ids.push(tree.insert(Bounds::new(min, min + vec2(1.0, 1.0)).unwrap(), (i, j)));
            }
        }
        (tree, ids)
    }

    #[test]
    fn box_and_point_queries_find_exactly_the_touching_cells() {
        let (tree, _) = grid();
        let mut found = Vec::new();
        let query = Bounds::new(vec2(1.0, 1.5), vec2(4.0, 2.0)).unwrap();
        tree.query_aabb(&query, |_, cell| {
            found.push(cell);
            true
        });
        found.sort();
        // x in [1, 4] touches columns 0 (edge at 1), 1 and 2 (edge at 4); y in [1.5, 2] touches row 1 (edge at 2).
        assert_eq!(found, vec![(0, 1), (1, 1), (2, 1)]);
        found.clear();
        tree.query_point(vec2(3.0, 3.0), |_, cell| {
            found.push(cell);
            true
        });
        assert_eq!(found, vec![(1, 1)]);
        let mut calls = 0;
        let completed = tree.query_aabb(&tree.root_bounds().unwrap(), |_, _| {
            calls += 1;
            calls < 5
        });
        assert!(!completed);
        assert_eq!(calls, 5);
    }

    #[test]
    fn box_queries_of_deep_trees_match_brute_force() {
        // Without rotations, nested boxes added smallest first make a
        // chain (each new box is best placed beside the root): a tree
        // taller than the inline stack (100), and one whose stored
        // heights saturate (400).
        for count in [100, 400] {
            let mut tree = DynamicTree::new(ProxyKind::Static);
            tree.rotations_enabled = false;
            let boxes: Vec<Bounds> = (0..count)
                .map(|i| {
                    let half = 1.0 + i as Real;
                    Bounds::new(vec2(-half, -half), vec2(half, half + (i % 3) as Real)).unwrap()
                })
                .collect();
            for (i, b) in boxes.iter().enumerate() {
                tree.insert(*b, i);
            }
            assert!(
                tree.height() as usize + 2 > STACK_INLINE,
                "{}",
                tree.height()
            );
            for query in [
                Bounds::new(vec2(-1.0, -1.0), vec2(1.0, 1.0)).unwrap(),
                Bounds::new(vec2(31.0, 0.5), vec2(95.5, 1.5)).unwrap(),
                Bounds::new(vec2(-70.0, 60.5), vec2(-69.0, 61.0)).unwrap(),
                Bounds::new(vec2(1e3, 1e3), vec2(2e3, 2e3)).unwrap(),
            ] {
                let mut found = Vec::new();
                assert!(tree.query_aabb(&query, |_, i| {
                    found.push(i);
                    true
                }));
                found.sort();
                let expected: Vec<usize> =
                    (0..count).filter(|&i| boxes[i].overlaps(&query)).collect();
                assert_eq!(found, expected);
            }
        }
    }

    #[test]
    fn ray_cast_clips_to_the_closest_box() {
        let (tree, _) = grid();
        let origin = vec2(-1.0, 0.5);
        let translation = vec2(30.0, 0.0);
        let mut calls = 0;
        let mut closest = None;
        let fraction = tree
            .ray_cast(origin, translation, 1.0, |id, cell, max| {
                calls += 1;
                match tree
                    .fat_bounds(id)
                    .unwrap()
                    .ray_fraction(origin, translation, max)
                {
                    Some(t) => {
                        closest = Some(cell);
                        t
                    }
                    None => max,
                }
            })
            .unwrap();
        assert_eq!(closest, Some((0, 0)));
        assert_eq!(fraction, 1.0 / 30.0);
        // Near-first order: the first box reached is the first reported, and
        // clipping then prunes nearly everything else.
        assert!(calls <= 2, "{calls} callbacks");
    }

    #[test]
    fn thick_ray_reaches_boxes_the_thin_ray_misses() {
        let (tree, _) = grid();
        // Along y = 1.5, in the gap between rows 0 and 1.
        let (origin, translation) = (vec2(-1.0, 1.5), vec2(30.0, 0.0));
        let mut thin = 0;
        tree.ray_cast(origin, translation, 1.0, |_, _, max| {
            thin += 1;
            max
        })
        .unwrap();
        assert_eq!(thin, 0);
        let mut thick = 0;
        tree.ray_cast_thick(origin, translation, 0.5, 1.0, |_, _, max| {
            thick += 1;
            max
        })
        .unwrap();
        assert_eq!(thick, 20, "rows 0 and 1 touch the 0.5-thick ray");
    }

    #[test]
    fn ray_cast_stops_on_zero_and_rejects_bad_input() {
        let (tree, _) = grid();
        let mut calls = 0;
        let fraction = tree
            .ray_cast(vec2(0.5, 0.5), vec2(30.0, 0.0), 1.0, |_, _, _| {
                calls += 1;
                0.0
            })
            .unwrap();
        assert_eq!((fraction, calls), (0.0, 1));
        // NaN or negative callback results are ignored.
        let fraction = tree
            .ray_cast(vec2(-1.0, 0.5), vec2(30.0, 0.0), 1.0, |_, _, _| Real::NAN)
            .unwrap();
        assert_eq!(fraction, 1.0);
        let never =
            |_: ProxyId, _: (i32, i32), _: Real| -> Real { panic!("no callback on bad input") };
        assert!(
            tree.ray_cast(vec2(Real::NAN, 0.0), vec2(1.0, 0.0), 1.0, never)
                .is_err()
        );
        assert!(
            tree.ray_cast(vec2(0.0, 0.0), vec2(Real::INFINITY, 0.0), 1.0, never)
                .is_err()
        );
        assert!(
            tree.ray_cast(vec2(0.0, 0.0), vec2(1.0, 0.0), -0.5, never)
                .is_err()
        );
        assert!(
            tree.ray_cast(vec2(0.0, 0.0), vec2(1.0, 0.0), Real::NAN, never)
                .is_err()
        );
        assert!(
            tree.ray_cast_thick(vec2(0.0, 0.0), vec2(1.0, 0.0), -1.0, 1.0, never)
                .is_err()
        );
        assert!(
            tree.ray_cast_thick(vec2(0.0, 0.0), vec2(1.0, 0.0), Real::NAN, 1.0, never)
                .is_err()
        );
        let empty: DynamicTree<u8> = DynamicTree::new(ProxyKind::Moving);
        assert_eq!(
            empty.ray_cast(vec2(0.0, 0.0), vec2(1.0, 0.0), 0.7, |_, _, m| m),
            Ok(0.7)
        );
    }
}
