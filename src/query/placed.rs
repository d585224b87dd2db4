//! Shapes resolved into world coordinates for the pair functions.
//!
//! [`Placed`] is what every pair function works on: the box-like kinds become
//! a [`WorldPolygon`]; points, segments and circles keep their closed form.
//! Resolving costs one transform per vertex; polygons up to 8 vertices live
//! on the stack. Simple polygons and circle trees keep their pose: their
//! pieces and nodes are placed on demand, only where a query looks.

use crate::math::{Pose, Real, Vec2};
use crate::shape::{CircleTree, Shape, SimplePolygon};
use smallvec::SmallVec;

/// A convex polygon in world coordinates, counter-clockwise, with outward unit
/// normals (`normals[i]` belongs to the edge from `vertices[i]` to `vertices[i + 1]`).
#[derive(Clone, Debug, PartialEq)]
pub struct WorldPolygon {
    /// Vertices counter-clockwise (world, metres).
    pub vertices: SmallVec<[Vec2; 8]>,
    /// Outward unit edge normals (world).
    pub normals: SmallVec<[Vec2; 8]>,
}

impl WorldPolygon {
    /// Places local counter-clockwise vertices and their normals with `pose`.
    pub fn from_local(vertices: &[Vec2], normals: &[Vec2], pose: &Pose) -> Self {
        WorldPolygon {
            vertices: vertices.iter().map(|v| pose.transform_point(*v)).collect(),
            normals: normals.iter().map(|n| pose.rotate(*n)).collect(),
        }
    }

    /// Places local counter-clockwise vertices, computing the normals.
    pub fn from_local_vertices(vertices: &[Vec2], pose: &Pose) -> Self {
        let world: SmallVec<[Vec2; 8]> =
            vertices.iter().map(|v| pose.transform_point(*v)).collect();
        let n = world.len();
        let normals = (0..n)
            .map(|i| {
                let edge = world[(i + 1) % n] - world[i];
                Vec2::new(edge.y, -edge.x).normalize()
            })
            .collect();
        WorldPolygon {
            vertices: world,
            normals,
        }
    }

    /// Number of vertices.
    pub fn len(&self) -> usize {
        self.vertices.len()
    }

    /// Never true for a polygon made from a valid shape.
    pub fn is_empty(&self) -> bool {
        self.vertices.is_empty()
    }
}

/// A shape placed in the world.
#[derive(Clone, Debug)]
pub enum Placed<'a> {
    /// A point (world).
    Point(Vec2),
    /// An infinite line: a point on it and its unit direction (world).
    Line {
        /// A point on the line.
        point: Vec2,
        /// Unit direction.
        direction: Vec2,
    },
    /// A segment's end points (world).
    Segment(Vec2, Vec2),
    /// A capsule: core end points and radius (world, metres).
    Capsule(Vec2, Vec2, Real),
    /// A disc: centre and radius (world).
    Circle(Vec2, Real),
    /// Any convex polygon-like kind (Aabb, OrientedRect, ConvexPolygon, TileTriangle).
    Polygon(WorldPolygon),
    /// A simple polygon with its pose (its pieces are placed on demand).
    Simple(&'a SimplePolygon, Pose),
    /// A circle tree with its pose (its nodes are placed on demand, by the
    /// descents of [`crate::query::tree`]).
    Tree(&'a CircleTree, Pose),
}

impl<'a> Placed<'a> {
    /// Resolves `shape` under `pose` into world coordinates.
    pub fn new(shape: &'a Shape, pose: &Pose) -> Placed<'a> {
        match shape {
            Shape::Point(p) => Placed::Point(pose.transform_point(p.position())),
            Shape::Line(l) => Placed::Line {
                point: pose.transform_point(l.point()),
                direction: pose.rotate(l.direction()),
            },
            Shape::Segment(s) => {
                Placed::Segment(pose.transform_point(s.a()), pose.transform_point(s.b()))
            }
            Shape::Capsule(c) => Placed::Capsule(
                pose.transform_point(c.a()),
                pose.transform_point(c.b()),
                pose.scale_length(c.radius()),
            ),
            Shape::Circle(c) => Placed::Circle(
                pose.transform_point(c.center()),
                pose.scale_length(c.radius()),
            ),
            Shape::Aabb(b) => {
                Placed::Polygon(WorldPolygon::from_local_vertices(&b.vertices(), pose))
            }
            Shape::OrientedRect(r) => {
                Placed::Polygon(WorldPolygon::from_local_vertices(&r.vertices(), pose))
            }
            Shape::ConvexPolygon(p) => {
                Placed::Polygon(WorldPolygon::from_local(p.vertices(), p.normals(), pose))
            }
            Shape::TileTriangle(t) => {
                Placed::Polygon(WorldPolygon::from_local_vertices(&t.vertices(), pose))
            }
            Shape::SimplePolygon(p) => Placed::Simple(p, *pose),
            Shape::Tree(tree) => Placed::Tree(tree, *pose),
        }
    }
}
