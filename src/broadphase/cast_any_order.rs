//! [`BroadPhase::ray_cast_thick_any_order`]: the thick cast for callers that
//! keep the closest hit (or every hit) under an order of their own, so the
//! order of the callbacks is free to serve speed.
//!
//! Both trees are descended in one near-first pass: the children of the two
//! roots are sorted together by the fraction at which the cast enters their
//! boxes, so a ball in front of a wall is tested before the wall, whichever
//! tree holds it. Below the roots the descent is depth first, nearest child
//! first, as in [`DynamicTree::ray_cast_thick`]. A tree that has answered
//! enough casts unchanged is read through its flattened four-wide copy
//! (see `flat.rs`); otherwise through its own nodes.
//!
//! Every box test is [`Ray::entry`]'s arithmetic on the tree's own boxes, so
//! the proxies reported are exactly those whose boxes the cast reaches before
//! the current maximum when they are tested, as for the ordered cast: a
//! caller that keeps the minimum of (fraction, its own tie key) over the
//! reported proxies gets the same answer from both.

use super::bounds::Ray;
use super::flat::{FlatNode, FlatTree, LANES, LEAF};
use super::tree::{NULL, Slot};
use super::{BroadPhase, BroadPhaseError, DynamicTree, ProxyId};
use crate::math::{Real, Vec2};

/// Stack entries kept on the call stack (zeroed on every cast, so no more
/// than trees of some 10^6 proxies need); deeper descents use a heap buffer.
const STACK_INLINE: usize = 64;

/// The stack of trees up to some 10^4 proxies read node by node.
const STACK_SMALL: usize = 32;

/// Stack references name the tree in their top bit (set: the moving tree)
/// and a node, or for a flattened tree a node or `LEAF | leaf`, below it.
const MOVING: u32 = 1 << 31;

/// Slots a tree may have to be cast this way: node indices must leave the
/// top bit free for [`MOVING`], and flattened leaves stay below [`LEAF`].
const MAX_SLOTS: usize = LEAF as usize;

/// How one tree is read during a cast.
#[derive(Clone, Copy)]
enum View<'a, T: Copy> {
    Empty,
    Nodes(&'a DynamicTree<T>),
    Flat(&'a FlatTree<T>),
}

impl<'a, T: Copy> View<'a, T> {
    fn of(tree: &'a DynamicTree<T>) -> Self {
        if tree.root == NULL {
            View::Empty
        } else if let Some(flat) = tree.flat_for_cast() {
            View::Flat(flat)
        } else {
            View::Nodes(tree)
        }
    }

    /// Stack entries a descent below one root child may need.
    fn stack_bound(self) -> usize {
        match self {
            View::Empty => 0,
            View::Nodes(tree) => tree.height() as usize + 2,
            View::Flat(flat) => flat.stack_bound(),
        }
    }
}

/// The cast's fixed inputs and its running state.
struct Caster<'a, T: Copy, F> {
    ray: Ray,
    radius: Real,
    max_fraction: Real,
    views: [View<'a, T>; 2],
    callback: F,
}

/// The work stack: (reference, entry fraction of its box), and its length.
struct Stack<'s> {
    items: &'s mut [(u32, Real)],
    len: usize,
}

impl Stack<'_> {
    /// Pushes `item` into the entries pushed since `base` (the children of
    /// one node), keeping them sorted so the smallest entry pops first;
    /// among equal entries the one pushed first pops first.
    #[inline(always)]
    fn insert_near_first(&mut self, base: usize, item: (u32, Real)) {
        let mut j = self.len;
        while j > base && self.items[j - 1].1 <= item.1 {
            self.items[j] = self.items[j - 1];
            j -= 1;
        }
        self.items[j] = item;
        self.len += 1;
    }
}

impl<T: Copy, F: FnMut(ProxyId, T, Real) -> Real> Caster<'_, T, F> {
    /// Pushes the children of node `index` of a tree read through its
    /// nodes that the cast reaches by the current maximum; a leaf (a root
    /// alone) is pushed itself.
    #[inline(always)]
    fn push_node_children(&self, tree: &DynamicTree<T>, tag: u32, index: u32, stack: &mut Stack) {
        let node = &tree.nodes[index as usize];
        let children = if node.slot == Slot::Internal {
            [node.child1, node.child2]
        } else {
            [index, NULL]
        };
        let base = stack.len;
        for child in children {
            if child == NULL {
                continue;
            }
            let bounds = &tree.nodes[child as usize].bounds;
            if let Some(t) = self.ray.entry_grown(bounds, self.radius, self.max_fraction) {
                stack.insert_near_first(base, (tag | child, t));
            }
        }
    }

    /// Pushes the lanes of a flattened node that the cast reaches by the
    /// current maximum.
    #[inline(always)]
    fn push_flat_children<const MOVES: bool>(&self, node: &FlatNode, tag: u32, stack: &mut Stack) {
        let (enter, mut mask) = if MOVES {
            self.ray
                .entry_lanes_moving(node, self.radius, self.max_fraction)
        } else {
            self.ray.entry_lanes(node, self.radius, self.max_fraction)
        };
        let base = stack.len;
        while mask != 0 {
            let k = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            stack.insert_near_first(base, (tag | node.child[k], enter[k]));
        }
    }

    /// Calls back for a proxy; returns true if the callback stopped the cast.
    #[inline(always)]
    fn report(&mut self, id: ProxyId, data: T) -> bool {
        let value = (self.callback)(id, data, self.max_fraction);
        // As in the ordered cast: NaN fails every comparison and continues.
        if value < self.max_fraction {
            if value == 0.0 {
                self.max_fraction = 0.0;
                return true;
            }
            if value > 0.0 {
                self.max_fraction = value;
            }
        }
        false
    }

    /// The whole descent; `MOVES` says the ray moves along both axes.
    /// Returns the final maximum.
    fn run<const MOVES: bool>(mut self, items: &mut [(u32, Real)]) -> Real {
        let mut stack = Stack { items, len: 0 };
        // The roots' children, both trees sorted together.
        let base = stack.len;
        for (tree, tag) in [(0, 0), (1, MOVING)] {
            let start = stack.len;
            match self.views[tree] {
                View::Empty => {}
                View::Nodes(t) => self.push_node_children(t, tag, t.root, &mut stack),
                View::Flat(flat) => {
                    self.push_flat_children::<MOVES>(&flat.nodes[0], tag, &mut stack)
                }
            }
            // Merge the new entries into the sorted run of the first tree's.
            for i in start..stack.len {
                let item = stack.items[i];
                stack.len = i;
                stack.insert_near_first(base, item);
            }
        }
        while stack.len > 0 {
            stack.len -= 1;
            let (reference, enter) = stack.items[stack.len];
            if enter > self.max_fraction {
                continue; // clipped since it was pushed
            }
            let tag = reference & MOVING;
            let index = reference & !MOVING;
            match self.views[usize::from(tag != 0)] {
                View::Empty => {}
                View::Flat(flat) => {
                    if index & LEAF == 0 {
                        let node = &flat.nodes[index as usize];
                        self.push_flat_children::<MOVES>(node, tag, &mut stack);
                    } else {
                        let (id, data) = flat.leaves[(index & !LEAF) as usize];
                        if self.report(id, data) {
                            return 0.0;
                        }
                    }
                }
                View::Nodes(tree) => {
                    if tree.nodes[index as usize].slot == Slot::Internal {
                        self.push_node_children(tree, tag, index, &mut stack);
                    } else if let Some(data) = tree.slot_data[index as usize].user_data
                        && self.report(tree.id_of(index), data)
                    {
                        return 0.0;
                    }
                }
            }
        }
        self.max_fraction
    }

    fn run_with(self, items: &mut [(u32, Real)]) -> Real {
        if self.ray.moves_on_both_axes() {
            self.run::<true>(items)
        } else {
            self.run::<false>(items)
        }
    }
}

impl<T: Copy> BroadPhase<T> {
    /// [`ray_cast_thick`](Self::ray_cast_thick) with the order of the
    /// callbacks left free: both trees are descended together, nearest box
    /// first, each through its flattened copy once it has answered enough
    /// casts unchanged (see [`DynamicTree::flatten`]). For callers whose
    /// result does not depend on that order: the closest hit with a tie
    /// rule of their own, or every hit.
    ///
    /// `callback(id, user_data, max_fraction)` is called for each proxy
    /// whose box (inflated by `radius`) the segment `origin + t *
    /// translation` reaches at some `t <= max_fraction` (world, metres),
    /// by the same slab test; it returns the new maximum as for
    /// `ray_cast_thick` (`0.0` stops the cast). Returns the final maximum.
    ///
    /// # Errors
    /// As [`DynamicTree::ray_cast_thick`]; no callback is made then.
    ///
    /// # Examples
    /// ```
    /// use circlet::broadphase::{BroadPhase, Bounds, ProxyKind};
    /// use circlet::math::vec2;
    /// let mut broad_phase = BroadPhase::new();
    /// let boxed = |x: f32| Bounds::new(vec2(x, -1.0), vec2(x + 1.0, 1.0)).unwrap();
    /// broad_phase.create_proxy(boxed(8.0), ProxyKind::Static, "wall");
    /// broad_phase.create_proxy(boxed(3.0), ProxyKind::Moving, "ball");
    /// let mut closest = None;
    /// let fraction = broad_phase
    ///     .ray_cast_thick_any_order(vec2(0.0, 0.0), vec2(10.0, 0.0), 0.0, 1.0, |id, name, max| {
    ///         let t = broad_phase.fat_bounds(id).unwrap().ray_fraction(vec2(0.0, 0.0), vec2(10.0, 0.0), max);
    ///         t.map_or(max, |t| { closest = Some(name); t })
    ///     })
    ///     .unwrap();
    /// // The ball's box is fattened by the moving tree's 0.1 m margin.
    /// assert_eq!(closest, Some("ball"));
    /// assert!((fraction - 0.29).abs() < 1e-6);
    /// ```
    pub fn ray_cast_thick_any_order<F>(
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
        let ray = Ray::new(origin, translation, max_fraction)?;
        if !radius.is_finite() {
            return Err(BroadPhaseError::NonFinite { field: "radius" });
        }
        if radius < 0.0 {
            return Err(BroadPhaseError::NegativeRadius { value: radius });
        }
        let trees = [
            self.tree(super::ProxyKind::Static),
            self.tree(super::ProxyKind::Moving),
        ];
        if trees.iter().any(|tree| tree.nodes.len() >= MAX_SLOTS) {
            // Too many slots to tag: the ordered cast reports the same proxies.
            return self.ray_cast_thick(origin, translation, radius, max_fraction, callback);
        }
        let views = [View::of(trees[0]), View::of(trees[1])];
        let caster = Caster {
            ray,
            radius,
            max_fraction,
            views,
            callback,
        };
        // The roots' children (at most 2 * LANES) and one descent below one of them.
        let needed = 2 * LANES + views[0].stack_bound().max(views[1].stack_bound());
        // The stack is zeroed on every cast: the smaller, the fewer writes.
        let fraction = if needed <= STACK_SMALL {
            let mut stack = [(0u32, 0.0); STACK_SMALL];
            caster.run_with(&mut stack)
        } else if needed <= STACK_INLINE {
            let mut stack = [(0u32, 0.0); STACK_INLINE];
            caster.run_with(&mut stack)
        } else {
            let slots = trees.iter().map(|tree| tree.nodes.len()).sum::<usize>();
            let mut stack = vec![(0u32, 0.0); needed.max(slots + 2 * LANES)];
            caster.run_with(&mut stack)
        };
        Ok(fraction)
    }
}
