//! [`TreeBuilder`]: a circle tree written out node by node, with part names.

use super::enclosing::Disc;
use super::fit::FitReport;
use super::fit::report_for_leaves;
use super::{CircleTree, FlatNode, TreeError, validate};
use crate::math::{Real, Vec2};
use crate::shape::PartId;
use std::collections::{HashMap, VecDeque};

/// One node of an explicit circle tree and its children (local frame).
///
/// Nodes are numbered breadth-first (root 0, then its children in order,
/// then theirs): errors name nodes by that index.
///
/// # Examples
/// ```
/// use circlet::math::vec2;
/// use circlet::shape::{TreeBuilder, TreeError};
/// let bad = TreeBuilder::node(vec2(0.0, 0.0), 1.0)
///     .child(TreeBuilder::node(vec2(0.9, 0.0), 0.5));
/// assert!(matches!(bad.build(), Err(TreeError::ChildOutsideParent { child: 1, parent: 0, .. })));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct TreeBuilder {
    center: Vec2,
    radius: Real,
    part: Option<String>,
    children: Vec<TreeBuilder>,
}

impl TreeBuilder {
    /// A node with its circle (local frame, local units).
    pub fn node(center: Vec2, radius: Real) -> TreeBuilder {
        TreeBuilder {
            center,
            radius,
            part: None,
            children: Vec::new(),
        }
    }

    /// Names the part this node and its unnamed descendants belong to. Nodes
    /// given the same name share one [`PartId`].
    pub fn part(mut self, name: impl Into<String>) -> TreeBuilder {
        self.part = Some(name.into());
        self
    }

    /// Adds a child node (which must lie inside this node's circle).
    pub fn child(mut self, child: TreeBuilder) -> TreeBuilder {
        self.children.push(child);
        self
    }

    /// Adds several children.
    pub fn children(mut self, children: impl IntoIterator<Item = TreeBuilder>) -> TreeBuilder {
        self.children.extend(children);
        self
    }

    /// Validates and builds the tree; the report measures each level against
    /// the union of the leaves (overhang bound `r + min_i(|c − c_i| − r_i)`).
    ///
    /// # Errors
    /// Any [`TreeError`] of [`CircleTree::new`], naming nodes breadth-first.
    pub fn build(&self) -> Result<(CircleTree, FitReport), TreeError> {
        let mut order: Vec<&TreeBuilder> = Vec::new();
        let mut queue = VecDeque::from([self]);
        while let Some(node) = queue.pop_front() {
            order.push(node);
            queue.extend(node.children.iter());
        }
        // Ids in order of first use; the map (looked up, never iterated)
        // finds a name's id in constant time, however many parts there are.
        let mut part_names: Vec<String> = Vec::new();
        let mut part_ids: HashMap<&str, u32> = HashMap::new();
        let mut flat = Vec::with_capacity(order.len());
        let mut next_child = 1;
        for node in &order {
            let part = node.part.as_deref().map(|name| {
                PartId(*part_ids.entry(name).or_insert_with(|| {
                    part_names.push(name.to_owned());
                    (part_names.len() - 1) as u32
                }))
            });
            let count = node.children.len();
            flat.push(FlatNode {
                center: node.center,
                radius: node.radius,
                children: if count == 0 {
                    0..0
                } else {
                    next_child..next_child + count
                },
                part,
            });
            next_child += count;
        }
        let tree = validate::build(flat, part_names, None)?;
        let leaves: Vec<Disc> = tree
            .leaf_circles()
            .map(|c| Disc::new(c.center(), c.radius()))
            .collect();
        let report = report_for_leaves(&tree, &leaves);
        Ok((tree, report))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;

    #[test]
    fn part_ids_follow_first_use_and_a_repeated_name_shares_one() {
        // Breadth-first: the root's name first, then the leaves', a thousand
        // names each used three times.
        let leaves = (0..3_000)
            .map(|i| TreeBuilder::node(vec2(0.0, 0.0), 1.0).part(format!("p{}", i % 1_000)));
        let (tree, _) = TreeBuilder::node(vec2(0.0, 0.0), 2.0)
            .part("hull")
            .children(leaves)
            .build()
            .unwrap();
        assert_eq!(tree.part_names().len(), 1_001);
        assert_eq!(tree.part_names()[0], "hull");
        assert_eq!(tree.part_names()[1_000], "p999");
        for i in 0..3_000 {
            let want = PartId(1 + (i % 1_000) as u32);
            assert_eq!(
                tree.node(1 + i).and_then(|n| n.part()),
                Some(want),
                "leaf {i}"
            );
        }
    }
}
