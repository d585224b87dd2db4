//! [`ShapeError`]: why a shape could not be built, and where.

use crate::math::Real;

/// A shape constructor rejected its input. Every variant names what was wrong
/// and, where there is one, the index of the offending point or edge.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ShapeError {
    /// A coordinate or length is NaN or infinite.
    #[error("{field} is not finite{}", at_index(*index))]
    NonFinite {
        /// Which field (e.g. `center`, `radius`, `vertex`).
        field: &'static str,
        /// Index of the offending point, when the field is a list.
        index: Option<usize>,
    },
    /// A radius, extent, thickness or size that must be > 0 is not.
    #[error("{field} must be > 0, got {value}")]
    NonPositive {
        /// Which field (e.g. `radius`, `half_extents.x`).
        field: &'static str,
        /// The rejected value.
        value: Real,
    },
    /// A polygon needs at least 3 points.
    #[error("a polygon needs at least 3 points, got {count}")]
    TooFewPoints {
        /// How many points were given.
        count: usize,
    },
    /// Two consecutive points coincide (within tolerance).
    #[error("point {index} repeats point {previous}")]
    RepeatedPoint {
        /// Index of the repeated point.
        index: usize,
        /// Index of the point it repeats.
        previous: usize,
    },
    /// A point lies on the line through its neighbours (no turn there).
    #[error("point {index} is collinear with its neighbours")]
    CollinearPoint {
        /// Index of the point that makes no turn.
        index: usize,
    },
    /// All the points lie on one line: the outline encloses no area.
    #[error("all points are collinear: the outline has no area")]
    Degenerate,
    /// The outline turns the wrong way at this point (ConvexPolygon only).
    #[error("outline is not convex at point {index}")]
    NotConvex {
        /// Index of the reflex point.
        index: usize,
    },
    /// Two edges of the outline cross or touch (SimplePolygon only).
    #[error("edge {edge_a} intersects edge {edge_b} (edge i runs from point i to point i+1)")]
    SelfIntersecting {
        /// Index of the first edge.
        edge_a: usize,
        /// Index of the second edge.
        edge_b: usize,
    },
    /// A direction vector has zero length.
    #[error("{field} has zero length")]
    ZeroLength {
        /// Which field.
        field: &'static str,
    },
    /// Serialized circle-tree data breaks a tree invariant.
    #[error("invalid circle tree: {reason}")]
    InvalidTree {
        /// What the tree validation said, naming the node.
        reason: String,
    },
    /// The minimum corner of a box is not below and left of its maximum corner.
    #[error("{field}: min must be < max on both axes")]
    InvertedBounds {
        /// Which field.
        field: &'static str,
    },
}

fn at_index(index: Option<usize>) -> String {
    match index {
        Some(i) => format!(" at index {i}"),
        None => String::new(),
    }
}

pub(crate) fn check_finite(field: &'static str, value: Real) -> Result<(), ShapeError> {
    if value.is_finite() {
        Ok(())
    } else {
        Err(ShapeError::NonFinite { field, index: None })
    }
}

pub(crate) fn check_finite_vec(
    field: &'static str,
    v: crate::math::Vec2,
    index: Option<usize>,
) -> Result<(), ShapeError> {
    if crate::math::is_finite_vec(v) {
        Ok(())
    } else {
        Err(ShapeError::NonFinite { field, index })
    }
}

pub(crate) fn check_positive(field: &'static str, value: Real) -> Result<(), ShapeError> {
    check_finite(field, value)?;
    if value > 0.0 {
        Ok(())
    } else {
        Err(ShapeError::NonPositive { field, value })
    }
}
