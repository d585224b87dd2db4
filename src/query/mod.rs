//! Pure geometric queries over `(shape, pose)` pairs.
//!
//! # Naming rule
//! One module per operation, one file per shape pair:
//! `query/<op>/<op>_<a>_<b>.rs` holds `<op>_<a>_<b>`, written for one order
//! of the pair only; the single dispatch function of each operation
//! (`intersects`, `contact`, `distance`, ...) has one `match (a, b)` that
//! flips the other order. Box-like kinds (Aabb, OrientedRect, TileTriangle)
//! reach the generic `polygon` functions unless a special-case file exists
//! for the pair (e.g. `intersects_circle_aabb.rs`); the special cases are
//! property-tested against the generic polygon path. The exact helpers the
//! pair functions share (closest points, SAT, containment) are in [`geometry`].
//!
//! # Touching counts
//! Shapes are closed sets: two shapes that touch (distance exactly 0)
//! intersect, a point on a boundary is inside, and `contact` reports a
//! manifold of depth 0. So everywhere `intersects(a, b) == (distance(a, b) == 0)`.
//!
//! # Frames and units
//! Inputs are shapes in their local frames plus a [`crate::math::Pose`] each;
//! every result (points, normals, distances) is in world coordinates, metres.
//! Normals point from shape A to shape B; a cast's normal points out of the
//! target towards the shot.
//!
//! Continuous collision: [`mod@cast`] (files `cast_capsule_<target>.rs`, a shot's
//! trace being a capsule) and [`mod@time_of_impact`] (files `toi_<a>_<b>.rs`).
//!
//! Circle trees ([`crate::shape::Shape::Tree`]): the static pair functions
//! live in [`tree`] (`<op>_tree_shape.rs`, `<op>_tree_tree.rs`); every
//! dispatch routes a pair with a tree there with one arm pair (the other
//! order flipped); `cast_capsule_tree` and `toi_tree_<b>` sit with the other
//! continuous-collision files.

pub mod cast;
pub mod contact;
pub mod distance;
pub mod geometry;
pub mod intersects;
pub mod placed;
pub mod point_inside;
pub mod time_of_impact;
pub mod tree;

pub use cast::{CastError, CastHit, Shot, cast, cast_all};
pub use contact::{ContactPoint, FeatureId, Manifold, contact, contact_with_margin};
pub use distance::{ClosestPoints, closest_points, distance};
pub use intersects::intersects;
pub use placed::{Placed, WorldPolygon};
pub use point_inside::point_inside;
pub use time_of_impact::{Motion, Toi, ToiError, ToiStatus, time_of_impact};
