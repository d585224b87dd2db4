//! [`TreeError`]: why a circle tree could not be built, and where.

use crate::math::Real;
use crate::shape::{PartId, ShapeError, ShapeKind};

/// A circle tree or one of its builders rejected its input. Every variant
/// names the offending node (by its index in the flat node array, or in the
/// builder's insertion order) or the offending field.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum TreeError {
    /// The tree has no node at all.
    #[error("a circle tree needs at least one node")]
    Empty,
    /// A node's centre or radius is NaN or infinite.
    #[error("node {node}: {field} is not finite")]
    NonFinite {
        /// Index of the node.
        node: usize,
        /// `center` or `radius`.
        field: &'static str,
    },
    /// A node's radius is zero or negative.
    #[error("node {node}: radius must be > 0, got {radius}")]
    NonPositiveRadius {
        /// Index of the node.
        node: usize,
        /// The rejected radius.
        radius: Real,
    },
    /// A child circle is not inside its parent's circle (beyond the tolerance).
    #[error("node {child} sticks out of its parent {parent} by {excess} (local units)")]
    ChildOutsideParent {
        /// Index of the child.
        child: usize,
        /// Index of the parent.
        parent: usize,
        /// How far the child's circle reaches beyond the parent's (local units).
        excess: Real,
    },
    /// A node's child range points outside the node array, or before the node.
    #[error("node {node}: children {start}..{end} are not valid for {count} nodes")]
    BadChildRange {
        /// Index of the node.
        node: usize,
        /// First child index.
        start: usize,
        /// One past the last child index.
        end: usize,
        /// Number of nodes in the tree.
        count: usize,
    },
    /// A node is listed as the child of two parents, or of none (other than the root).
    #[error("node {node} has {parents} parents (every node but the root needs exactly one)")]
    NotATree {
        /// Index of the node.
        node: usize,
        /// How many nodes list it as a child.
        parents: usize,
    },
    /// A node names a part id that is not in the name table.
    #[error("node {node}: part id {} is not in the part table of {count} names", part.0)]
    UnknownPart {
        /// Index of the node.
        node: usize,
        /// The unknown id.
        part: PartId,
        /// Number of names in the table.
        count: usize,
    },
    /// Two parts share a name.
    #[error("part name {name:?} is used twice")]
    DuplicatePartName {
        /// The repeated name.
        name: String,
    },
    /// The overhang bound of a fitting builder is not > 0 (or not finite).
    #[error("epsilon must be finite and > 0, got {epsilon}")]
    InvalidEpsilon {
        /// The rejected bound.
        epsilon: Real,
    },
    /// The overhang bound is below what f32 can resolve at the shape's size.
    #[error(
        "epsilon {epsilon} is below the smallest supported bound {minimum} for this shape's size"
    )]
    EpsilonTooSmall {
        /// The rejected bound.
        epsilon: Real,
        /// The smallest bound accepted for this shape.
        minimum: Real,
    },
    /// The branching factor must be at least 2.
    #[error("branching must be >= 2, got {branching}")]
    InvalidBranching {
        /// The rejected branching factor.
        branching: usize,
    },
    /// The mask's pixel buffer does not hold `width * height` bytes.
    #[error("mask of {width} x {height} needs {expected} bytes, got {actual}")]
    MaskSizeMismatch {
        /// Declared width in pixels.
        width: usize,
        /// Declared height in pixels.
        height: usize,
        /// `width * height` (or `usize::MAX` if that overflows).
        expected: usize,
        /// Length of the buffer given.
        actual: usize,
    },
    /// No pixel of the mask reaches the alpha threshold.
    #[error("no pixel of the mask reaches the alpha threshold {threshold}")]
    AllTransparent {
        /// The threshold used.
        threshold: u8,
    },
    /// An alpha threshold of 0 would make every pixel opaque, the empty
    /// background included.
    #[error("alpha threshold must be in 1..=255, got {threshold}")]
    InvalidThreshold {
        /// The rejected threshold.
        threshold: u8,
    },
    /// A numeric parameter of a builder is NaN, infinite or not > 0.
    #[error("{field} must be finite and > 0, got {value}")]
    InvalidParameter {
        /// Which parameter (e.g. `pixel_size`).
        field: &'static str,
        /// The rejected value.
        value: Real,
    },
    /// Only shapes with area can be fitted (not points, lines or segments).
    #[error("a {kind:?} has no area to fit a circle tree to")]
    NotSolid {
        /// The kind of the shape given.
        kind: ShapeKind,
    },
    /// The source shape itself is invalid.
    #[error("source shape: {0}")]
    Shape(#[from] ShapeError),
}
