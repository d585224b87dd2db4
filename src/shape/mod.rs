//! Shapes, stored once in their local frame and placed by a [`crate::math::Pose`].
//!
//! Every constructor validates its input and returns [`ShapeError`] naming what
//! was wrong and where. The solid kinds (with area) are [`Circle`], [`Capsule`],
//! [`Aabb`], [`OrientedRect`], [`ConvexPolygon`], [`TileTriangle`],
//! [`SimplePolygon`] and [`CircleTree`] (the union of its leaf discs, see
//! [`circle_tree`]); [`Point`], [`Line`] and [`Segment`] have no area.

mod bounds;
mod boxes;
pub mod circle_tree;
mod convex_polygon;
mod error;
mod mass;
pub(crate) mod outline;
mod primitives;
#[cfg(feature = "serde")]
mod serde_repr;
mod simple_polygon;

pub use boxes::{Aabb, Corner, OrientedRect, TileTriangle};
pub use circle_tree::{
    AlphaMask, CircleTree, FitOptions, FitReport, FlatNode, LevelReport, TreeBuilder, TreeError,
    TreeNode,
};
pub use convex_polygon::ConvexPolygon;
pub use error::ShapeError;
pub use mass::{MassProperties, polygon_mass};
pub use primitives::{Capsule, Circle, Line, Point, Segment};
pub use simple_polygon::SimplePolygon;

use std::sync::Arc;

/// Any shape the queries accept.
///
/// With the `serde` feature a shape serializes as its defining data and
/// deserializes through its validating constructor, so bad data is refused
/// with a [`ShapeError`] and a round trip is bit for bit.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(try_from = "serde_repr::ShapeRepr", into = "serde_repr::ShapeRepr")
)]
pub enum Shape {
    /// A single point.
    Point(Point),
    /// An infinite line.
    Line(Line),
    /// A segment without thickness.
    Segment(Segment),
    /// A segment with thickness (a thick shot trace).
    Capsule(Capsule),
    /// A disc.
    Circle(Circle),
    /// A box, axis-aligned in its local frame.
    Aabb(Aabb),
    /// A rotated rectangle.
    OrientedRect(OrientedRect),
    /// A convex polygon.
    ConvexPolygon(ConvexPolygon),
    /// A right-triangle tile.
    TileTriangle(TileTriangle),
    /// A simple, possibly non-convex polygon.
    SimplePolygon(SimplePolygon),
    /// A circle tree: the union of its leaf discs, with named parts. Shared,
    /// so that many colliders (and clones of the shape) use one node array.
    Tree(Arc<CircleTree>),
}

/// The kind of a [`Shape`], without its data.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ShapeKind {
    /// [`Shape::Point`]
    Point,
    /// [`Shape::Line`]
    Line,
    /// [`Shape::Segment`]
    Segment,
    /// [`Shape::Capsule`]
    Capsule,
    /// [`Shape::Circle`]
    Circle,
    /// [`Shape::Aabb`]
    Aabb,
    /// [`Shape::OrientedRect`]
    OrientedRect,
    /// [`Shape::ConvexPolygon`]
    ConvexPolygon,
    /// [`Shape::TileTriangle`]
    TileTriangle,
    /// [`Shape::SimplePolygon`]
    SimplePolygon,
    /// [`Shape::Tree`]
    Tree,
}

impl Shape {
    /// The kind of this shape.
    pub fn kind(&self) -> ShapeKind {
        match self {
            Shape::Point(_) => ShapeKind::Point,
            Shape::Line(_) => ShapeKind::Line,
            Shape::Segment(_) => ShapeKind::Segment,
            Shape::Capsule(_) => ShapeKind::Capsule,
            Shape::Circle(_) => ShapeKind::Circle,
            Shape::Aabb(_) => ShapeKind::Aabb,
            Shape::OrientedRect(_) => ShapeKind::OrientedRect,
            Shape::ConvexPolygon(_) => ShapeKind::ConvexPolygon,
            Shape::TileTriangle(_) => ShapeKind::TileTriangle,
            Shape::SimplePolygon(_) => ShapeKind::SimplePolygon,
            Shape::Tree(_) => ShapeKind::Tree,
        }
    }

    /// True for the kinds with area (everything but points, lines and
    /// segments; circle trees included).
    pub fn is_solid(&self) -> bool {
        !matches!(self, Shape::Point(_) | Shape::Line(_) | Shape::Segment(_))
    }
}

macro_rules! shape_from {
    ($($kind:ident),*) => {$(
        impl From<$kind> for Shape {
            fn from(shape: $kind) -> Shape {
                Shape::$kind(shape)
            }
        }
    )*};
}
shape_from!(
    Point,
    Line,
    Segment,
    Capsule,
    Circle,
    Aabb,
    OrientedRect,
    ConvexPolygon,
    TileTriangle,
    SimplePolygon
);

impl From<CircleTree> for Shape {
    fn from(tree: CircleTree) -> Shape {
        Shape::Tree(Arc::new(tree))
    }
}

impl From<Arc<CircleTree>> for Shape {
    fn from(tree: Arc<CircleTree>) -> Shape {
        Shape::Tree(tree)
    }
}

/// Identifies a named part of a body (a node of a circle tree) in hit reports
/// and contacts; the tree keeps the table from ids to names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PartId(pub u32);
