//! Validation of a flat node array into a [`CircleTree`].

use super::{CONTAINMENT_TOLERANCE, CircleTree, FlatNode, TreeError, TreeNode};
use crate::math::{Real, Vec2, is_finite_vec};
use crate::shape::{Circle, MassProperties};
use std::collections::HashSet;

/// The smallest f32 that is >= the f64 value.
pub(crate) fn round_up(value: f64) -> Real {
    let rounded = value as Real;
    if (rounded as f64) < value {
        rounded.next_up()
    } else {
        rounded
    }
}

/// Checks every invariant of the module docs and builds the tree.
pub(crate) fn build(
    nodes: Vec<FlatNode>,
    part_names: Vec<String>,
    source_mass: Option<MassProperties>,
) -> Result<CircleTree, TreeError> {
    let count = nodes.len();
    if count == 0 {
        return Err(TreeError::Empty);
    }
    // The first name seen before, in table order: one pass with a set
    // (membership only, so the hasher's seed cannot change the answer).
    let mut seen = HashSet::with_capacity(part_names.len());
    if let Some(name) = part_names.iter().find(|name| !seen.insert(name.as_str())) {
        return Err(TreeError::DuplicatePartName { name: name.clone() });
    }
    let mut parents = vec![0usize; count];
    for (i, node) in nodes.iter().enumerate() {
        if !is_finite_vec(node.center) {
            return Err(TreeError::NonFinite {
                node: i,
                field: "center",
            });
        }
        if !node.radius.is_finite() {
            return Err(TreeError::NonFinite {
                node: i,
                field: "radius",
            });
        }
        if node.radius <= 0.0 {
            return Err(TreeError::NonPositiveRadius {
                node: i,
                radius: node.radius,
            });
        }
        let range = &node.children;
        let empty = range.start >= range.end;
        let bad = range.start > range.end
            || (!empty && (range.start <= i || range.end > count || range.end > u32::MAX as usize));
        if bad {
            return Err(TreeError::BadChildRange {
                node: i,
                start: range.start,
                end: range.end,
                count,
            });
        }
        for child in range.clone() {
            parents[child] += 1;
        }
        if let Some(part) = node.part
            && part.0 as usize >= part_names.len()
        {
            return Err(TreeError::UnknownPart {
                node: i,
                part,
                count: part_names.len(),
            });
        }
    }
    for (node, &count) in parents.iter().enumerate() {
        let expected = usize::from(node != 0);
        if count != expected {
            return Err(TreeError::NotATree {
                node,
                parents: count,
            });
        }
    }
    // Containment, bottom-up (children have larger indices than parents), so
    // that widening a child within tolerance is seen by its own parent.
    let mut radii: Vec<f64> = nodes.iter().map(|n| n.radius as f64).collect();
    for i in (0..count).rev() {
        let node = &nodes[i];
        let parent_center = to_f64(node.center);
        let mut worst: Option<(usize, f64)> = None;
        for child in node.children.clone() {
            let reach = (to_f64(nodes[child].center) - parent_center).norm() + radii[child];
            if worst.is_none_or(|(_, r)| reach > r) {
                worst = Some((child, reach));
            }
        }
        if let Some((child, reach)) = worst {
            let excess = reach - radii[i];
            if excess > CONTAINMENT_TOLERANCE as f64 * radii[i] {
                return Err(TreeError::ChildOutsideParent {
                    child,
                    parent: i,
                    excess: excess as Real,
                });
            }
            if excess > 0.0 {
                radii[i] = round_up(reach) as f64;
            }
        }
    }
    let mut tree_nodes = Vec::with_capacity(count);
    let mut levels = vec![0u32; count];
    for (i, node) in nodes.iter().enumerate() {
        let radius = round_up(radii[i]);
        let circle = Circle::new(node.center, radius).map_err(|_| TreeError::NonFinite {
            node: i,
            field: "radius",
        })?;
        let (first_child, end_child) = if node.children.start < node.children.end {
            (node.children.start as u32, node.children.end as u32)
        } else {
            (0, 0)
        };
        tree_nodes.push(TreeNode {
            circle,
            first_child,
            end_child,
            part: node.part,
            named_here: node.part.is_some(),
        });
    }
    // Parents come first, so one forward pass resolves inherited parts and levels.
    for i in 0..count {
        let (part, level) = (tree_nodes[i].part, levels[i]);
        for child in tree_nodes[i].children() {
            if !tree_nodes[child].named_here {
                tree_nodes[child].part = part;
            }
            levels[child] = level + 1;
        }
    }
    let leaves: Vec<u32> = (0..count)
        .filter(|&i| tree_nodes[i].is_leaf())
        .map(|i| i as u32)
        .collect();
    let bounding_radius = leaves
        .iter()
        .map(|&i| {
            let n = &tree_nodes[i as usize];
            to_f64(n.center()).norm() + n.radius() as f64
        })
        .fold(0.0, f64::max);
    Ok(CircleTree {
        leaf_discs: super::LeafDiscs::of(&tree_nodes, &leaves),
        nodes: tree_nodes,
        leaves,
        part_names,
        depth: levels.iter().copied().max().unwrap_or(0),
        bounding_radius: round_up(bounding_radius),
        source_mass,
    })
}

pub(crate) fn to_f64(v: Vec2) -> nalgebra::Vector2<f64> {
    nalgebra::Vector2::new(v.x as f64, v.y as f64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;
    use crate::shape::PartId;

    fn flat(x: Real, radius: Real, children: std::ops::Range<usize>) -> FlatNode {
        FlatNode {
            center: vec2(x, 0.0),
            radius,
            children,
            part: None,
        }
    }

    #[test]
    fn each_bad_input_names_its_node() {
        assert_eq!(build(vec![], vec![], None), Err(TreeError::Empty));
        let nan = vec![flat(0.0, 2.0, 1..2), flat(f32::NAN, 1.0, 0..0)];
        assert_eq!(
            build(nan, vec![], None),
            Err(TreeError::NonFinite {
                node: 1,
                field: "center"
            })
        );
        let nan_radius = vec![flat(0.0, f32::NAN, 0..0)];
        assert_eq!(
            build(nan_radius, vec![], None),
            Err(TreeError::NonFinite {
                node: 0,
                field: "radius"
            })
        );
        let zero = vec![flat(0.0, 2.0, 1..2), flat(0.0, 0.0, 0..0)];
        assert_eq!(
            build(zero, vec![], None),
            Err(TreeError::NonPositiveRadius {
                node: 1,
                radius: 0.0
            })
        );
        let outside = vec![
            flat(0.0, 2.0, 1..3),
            flat(0.0, 1.0, 0..0),
            flat(1.5, 1.0, 0..0),
        ];
        assert!(matches!(
            build(outside, vec![], None),
            Err(TreeError::ChildOutsideParent { child: 2, parent: 0, excess }) if (excess - 0.5).abs() < 1e-6
        ));
        let backwards = vec![flat(0.0, 2.0, 1..2), flat(0.0, 1.0, 0..1)];
        assert!(matches!(
            build(backwards, vec![], None),
            Err(TreeError::BadChildRange { node: 1, .. })
        ));
        let past_end = vec![flat(0.0, 2.0, 1..3), flat(0.0, 1.0, 0..0)];
        assert!(matches!(
            build(past_end, vec![], None),
            Err(TreeError::BadChildRange { node: 0, .. })
        ));
        let orphan = vec![
            flat(0.0, 2.0, 1..2),
            flat(0.0, 1.0, 0..0),
            flat(0.0, 1.0, 0..0),
        ];
        assert_eq!(
            build(orphan, vec![], None),
            Err(TreeError::NotATree {
                node: 2,
                parents: 0
            })
        );
        let shared = vec![
            flat(0.0, 3.0, 1..3),
            flat(0.0, 2.0, 2..3),
            flat(0.0, 1.0, 0..0),
        ];
        assert_eq!(
            build(shared, vec![], None),
            Err(TreeError::NotATree {
                node: 2,
                parents: 2
            })
        );
        let unknown = vec![FlatNode {
            part: Some(PartId(1)),
            ..flat(0.0, 1.0, 0..0)
        }];
        assert!(matches!(
            build(unknown, vec!["a".into()], None),
            Err(TreeError::UnknownPart { node: 0, .. })
        ));
        assert_eq!(
            build(
                vec![flat(0.0, 1.0, 0..0)],
                vec!["a".into(), "a".into()],
                None
            ),
            Err(TreeError::DuplicatePartName { name: "a".into() })
        );
    }

    #[test]
    fn thousands_of_part_names_are_checked_and_the_first_repeat_is_named() {
        // A root over 20,000 leaves, each its own part.
        let count = 20_000;
        let named = |names: Vec<String>| {
            let mut nodes = vec![flat(0.0, 2.0, 1..count + 1)];
            nodes.extend((0..count).map(|i| FlatNode {
                part: Some(PartId(i as u32)),
                ..flat(0.0, 1.0, 0..0)
            }));
            build(nodes, names, None)
        };
        let names: Vec<String> = (0..count).map(|i| format!("p{i}")).collect();
        let tree = named(names.clone()).unwrap();
        assert_eq!(tree.part_names().len(), count);
        assert_eq!(tree.part_id("p19999"), Some(PartId(19_999)));
        assert_eq!(
            tree.node(20_000).and_then(|n| n.part()),
            Some(PartId(19_999))
        );
        // Two repeats at the end: the one met first in table order is named.
        let mut repeated = names;
        repeated.push("p7000".into());
        repeated.push("p3".into());
        assert_eq!(
            named(repeated),
            Err(TreeError::DuplicatePartName {
                name: "p7000".into()
            })
        );
    }

    #[test]
    fn a_child_within_tolerance_widens_its_parents() {
        // The child pokes out of node 1 by 1e-6 (relative 1e-6 < tolerance),
        // and node 1 touches the root from inside.
        let nodes = vec![
            flat(0.0, 3.0, 1..2),
            flat(1.0, 2.0, 2..3),
            flat(2.0, 1.000002, 0..0),
        ];
        let tree = build(nodes, vec![], None).unwrap();
        let n = tree.nodes();
        for (parent, child) in [(0, 1), (1, 2)] {
            let reach = (n[child].center() - n[parent].center()).norm() + n[child].radius();
            assert!(reach <= n[parent].radius(), "{parent} {child}");
        }
    }
}
