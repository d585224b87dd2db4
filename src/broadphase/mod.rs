//! Broadphase: sub-quadratic pair finding and scene queries over world boxes.
//!
//! - [`DynamicTree`]: a dynamic AABB tree (bounding-volume hierarchy) of
//!   *fattened* boxes. Nodes sit in one `Vec` with a free list; proxies are
//!   named by [`ProxyId`] (kind + slot + generation, so stale ids are caught).
//!   Insertion uses the surface-area heuristic with branch and bound
//!   (perimeter in 2D) and tree rotations keep it shallow (see `sah.rs`).
//!   Insert, move and remove are O(log n); box, point, ray and thick-ray
//!   queries visit O(log n + k) nodes.
//! - [`BroadPhase`]: a static and a moving tree plus a move buffer;
//!   [`BroadPhase::update_pairs`] queries only the proxies that were created
//!   or re-inserted, so a step costs O(m log n) for m moved proxies, and it
//!   returns the pairs sorted, without allocating once warm.
//! - Casts for callers that keep the closest hit by a rule of their own
//!   ([`BroadPhase::ray_cast_thick_any_order`]) descend both trees together,
//!   nearest box first, and read a tree through a flattened four-wide copy
//!   once it has answered enough casts unchanged ([`FLATTEN_CASTS_PER_PROXY`];
//!   any change drops the copy, whose buffers are reused). The copy holds the
//!   tree's own boxes and is tested with the same slab arithmetic, so it
//!   reports the same proxies.
//!
//! # Boxes
//! The trees store [`Bounds`], a world-space box of this module, rather than
//! [`crate::shape::Aabb`]: an `Aabb` is a *shape* (local frame, strictly
//! positive extents), while a broadphase box is world-space, may be flat (a
//! point, a segment) and is checked once so the trees never see a NaN.
//! `Bounds::try_from(aabb)` converts (and re-checks) a shape box.
//!
//! # Fat boxes
//! A moving proxy is stored grown by [`AABB_MARGIN`] (an absolute 0.1 m) on
//! every side and stretched [`PREDICTION_MULTIPLIER`] times its last
//! displacement ahead, so a body drifting less than the margin per step does
//! not touch the tree. Static proxies use [`STATIC_MARGIN`] (none).
//!
//! # Invariants (checked by [`DynamicTree::validate`])
//! Every internal node's box is exactly the union of its two children's, its
//! height is 1 + the larger child height, parent and child links agree, every
//! slot is reachable from the root or on the free list. Touching boxes overlap
//! (closed sets), as everywhere in circlet.
//!
//! # Determinism
//! No hashing and no randomness: the trees' shapes depend only on the
//! sequence of calls, traversals follow the shapes, and pair lists are sorted
//! by [`ProxyId`].
//!
//! # Layering
//! Uses `math` and `shape::Aabb` (for the conversion) only; the ray–box slab
//! test is local ([`Bounds::ray_fraction`]).

mod bounds;
mod broad_phase;
mod cast_any_order;
mod flat;
mod proxy;
mod sah;
mod tree;
mod tree_query;
mod validate;

pub use bounds::Bounds;
pub use broad_phase::BroadPhase;
pub use flat::{FLATTEN_CASTS_PER_PROXY, FLATTEN_MIN_CASTS};
pub use proxy::{BroadPhaseError, InvariantViolation, ProxyId, ProxyKind};
pub use tree::DynamicTree;

use crate::math::Real;

/// How far (metres) a moving proxy's stored box reaches beyond its tight box
/// on every side. Absolute, for bodies of 0.1–10 m: a body creeping less than
/// this per step (resting, jittering in a stack) never touches the tree, while
/// the extra pairs it creates stay within about a tenth of a body size.
pub const AABB_MARGIN: Real = 0.1;

/// Margin of static proxies (metres): none, since they do not move; tight
/// boxes give the moving proxies fewer false pairs with the level.
pub const STATIC_MARGIN: Real = 0.0;

/// The fat box of a re-inserted proxy is stretched this many times its last
/// displacement in the direction of motion, so a body moving steadily fits its
/// box for about this many more steps before the next re-insertion.
pub const PREDICTION_MULTIPLIER: Real = 2.0;

/// A stored box is shrunk (re-inserted) once it reaches more than this many
/// margins beyond the box that would be built now, e.g. after a fast body
/// stops; smaller values re-insert resting bodies more often.
pub const SHRINK_SLACK: Real = 4.0;

/// Largest accepted margin (metres): 1,000 km, far beyond any sensible value,
/// and small enough that growing any finite box by it stays finite.
pub const MAX_MARGIN: Real = 1.0e6;
