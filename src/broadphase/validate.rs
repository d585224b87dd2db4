//! [`DynamicTree::validate`]: the structural invariants, checked for tests.

use smallvec::SmallVec;

use super::tree::{NULL, Slot};
use super::{DynamicTree, InvariantViolation};
use crate::math::is_finite_vec;

impl<T: Copy> DynamicTree<T> {
    /// Checks every structural invariant: parent pointers match children,
    /// each internal box is exactly the union of its children's, heights are
    /// 1 + the larger child's, leaves carry data and no children, the free
    /// list holds only free slots, and every slot is either reachable from the
    /// root or on the free list (no leak, no cycle), and the flattened copy
    /// casts read, if built, holds exactly the tree's proxies and boxes.
    ///
    /// # Errors
    /// The first [`InvariantViolation`] found.
    pub fn validate(&self) -> Result<(), InvariantViolation> {
        let fail = |node: u32, what| Err(InvariantViolation { node, what });
        let count = self.nodes.len();
        if self.slot_data.len() != count {
            return fail(NULL, "slot data and nodes differ in length");
        }
        let mut reached = 0usize;
        let mut leaves = 0usize;
        if self.root != NULL {
            if self.root as usize >= count {
                return fail(self.root, "root out of range");
            }
            if self.nodes[self.root as usize].parent != NULL {
                return fail(self.root, "root has a parent");
            }
            let mut stack: SmallVec<[u32; 64]> = SmallVec::new();
            stack.push(self.root);
            while let Some(index) = stack.pop() {
                reached += 1;
                if reached > count {
                    return fail(index, "cycle: more nodes reached than exist");
                }
                let node = &self.nodes[index as usize];
                match node.slot {
                    Slot::Free => return fail(index, "free slot reachable from the root"),
                    Slot::Leaf => {
                        leaves += 1;
                        if node.child1 != NULL || node.child2 != NULL {
                            return fail(index, "leaf with children");
                        }
                        if node.height != 0 {
                            return fail(index, "leaf height is not 0");
                        }
                        if self.slot_data[index as usize].user_data.is_none() {
                            return fail(index, "leaf without user data");
                        }
                        if !(is_finite_vec(node.bounds.min()) && is_finite_vec(node.bounds.max())) {
                            return fail(index, "leaf box not finite");
                        }
                    }
                    Slot::Internal => {
                        let (c1, c2) = (node.child1, node.child2);
                        if c1 as usize >= count || c2 as usize >= count || c1 == c2 {
                            return fail(index, "bad child index");
                        }
                        let (n1, n2) = (&self.nodes[c1 as usize], &self.nodes[c2 as usize]);
                        if n1.parent != index || n2.parent != index {
                            return fail(index, "child's parent pointer is wrong");
                        }
                        if node.bounds != n1.bounds.union(&n2.bounds) {
                            return fail(index, "box is not the union of its children");
                        }
                        if node.height != n1.height.max(n2.height).saturating_add(1) {
                            return fail(index, "height is not 1 + max(child heights)");
                        }
                        if self.slot_data[index as usize].user_data.is_some() {
                            return fail(index, "internal node with user data");
                        }
                        stack.push(c1);
                        stack.push(c2);
                    }
                }
            }
        }
        if leaves != self.proxy_count {
            return fail(self.root, "leaf count differs from proxy count");
        }
        let mut free = 0usize;
        let mut index = self.free_list;
        while index != NULL {
            free += 1;
            if index as usize >= count || free > count {
                return fail(index, "free list out of range or cyclic");
            }
            if self.nodes[index as usize].slot != Slot::Free {
                return fail(index, "free list holds a used slot");
            }
            index = self.nodes[index as usize].parent;
        }
        if reached + free != count {
            return fail(self.root, "slots neither reachable nor free (leak)");
        }
        self.validate_flat()
    }
}
