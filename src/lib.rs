//! circlet: 2D rigid-body physics built on hierarchical circle trees and
//! continuous collision.
//!
//! # A short tour
//! ```
//! use circlet::math::{Pose, vec2};
//! use circlet::shape::{Circle, ConvexPolygon, Shape};
//! use circlet::query::{contact, distance, intersects};
//!
//! let ball = Shape::from(Circle::new(vec2(0.0, 0.0), 0.5).unwrap());
//! let crate_box = Shape::from(ConvexPolygon::regular(4, 1.0, 0.0).unwrap());
//! let at = |x: f32, y: f32| Pose::from_translation(vec2(x, y));
//!
//! assert!(!intersects(&ball, &at(0.0, 0.0), &crate_box, &at(3.0, 0.0)));
//! assert!((distance(&ball, &at(0.0, 0.0), &crate_box, &at(3.0, 0.0)) - 1.5).abs() < 1e-5);
//! let manifold = contact(&ball, &at(0.0, 0.0), &crate_box, &at(1.2, 0.0)).unwrap();
//! assert!(manifold.normal.x > 0.99); // from the ball towards the box
//! ```
//!
//! # Layers
//! `math` → `shape` → `query` → `broadphase` → `dynamics` → `world` →
//! `scene` → `render` → `viewer`; each module only uses the ones before it.
//!
//! # Cargo features
//! - `viewer` (default): the minifb debug window (the `viewer` module).
//! - `cli` (default): what the `circlet` command needs (clap, indicatif,
//!   serde_json).
//! - `serde`: `Serialize` / `Deserialize` for world snapshots
//!   ([`world::Snapshot`]) and the shapes, poses and settings they hold;
//!   deserializing validates (shapes go through their constructors).
//!
//! Library users who want neither window nor command line build with
//! `default-features = false`.

#![warn(missing_docs)]

pub mod broadphase;
pub mod dynamics;
pub mod math;
pub mod query;
pub mod render;
pub mod scene;
pub mod shape;
#[cfg(feature = "viewer")]
pub mod viewer;
pub mod world;
