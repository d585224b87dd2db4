//! Contact computed in the frame of one of the two shapes.
//!
//! For two convex polygons, or a disc or capsule against a convex polygon,
//! [`super::contact_with_margin`] does not place both shapes in the world.
//! It works in the polygon's *contact frame* (for two polygons, the frame of
//! one of them chosen independently of the argument order): the
//! polygon's pose without its scale, so lengths stay world metres. In that
//! frame the polygon's vertices are its local ones times its scale and its
//! normals are its local normals; only the other shape is transformed, once,
//! by the relative pose. The manifold is mapped to the world at the end.
//!
//! The pair functions are the same ones the world-frame path runs (they work
//! in any rigid frame), so the answer is the world-frame answer up to float
//! rounding: same normal direction, depths, point count and feature ids.
//! Rounding is smaller here, since coordinates are relative to the polygon
//! rather than to the world origin. Polygons of more than
//! [`MAX_FRAMED_VERTICES`] vertices take the world-frame path.
//!
//! Two boxes (see [`super::framed_box`]) take the closed-form box path
//! ([`super::contact_box_box`]) in the same frame, which gives the polygon
//! path's manifold without loading either polygon; where it cannot decide
//! within rounding, the polygon path runs instead.

use super::contact_box_box::{BoxContact, contact_box_box};
use super::contact_capsule_polygon::contact_capsule_polygon_core;
use super::contact_circle_polygon::contact_circle_polygon_core;
use super::contact_polygon_polygon::contact_polygon_polygon_core;
use super::convex_manifold::ConvexManifold;
use super::framed_box::{BoxShape, FramedBox};
use crate::math::{Pose, Real, Rot2, Vec2, vec2};
use crate::query::placed::WorldPolygon;
use crate::shape::Shape;

/// Largest polygon handled in a contact frame: the vertices and normals live
/// in fixed arrays on the stack (the same bound up to which a
/// [`WorldPolygon`] stays on the stack); larger polygons take the
/// world-frame path.
pub(super) const MAX_FRAMED_VERTICES: usize = 8;

/// Outward normals of an axis-aligned box's edges, in the order of
/// [`crate::shape::Aabb::vertices`] (bottom, right, top, left).
const AABB_NORMALS: [Vec2; 4] = [
    Vec2::new(0.0, -1.0),
    Vec2::new(1.0, 0.0),
    Vec2::new(0.0, 1.0),
    Vec2::new(-1.0, 0.0),
];

/// A convex polygon core in some rigid frame: counter-clockwise vertices and
/// the outward unit normal of each edge (`normals[i]` for the edge from
/// `vertices[i]` to `vertices[i + 1]`), as many normals as vertices.
#[derive(Clone, Copy, Debug)]
pub(super) struct PolygonCore<'p> {
    /// Vertices counter-clockwise (frame coordinates, metres).
    pub vertices: &'p [Vec2],
    /// Outward unit edge normals (frame coordinates).
    pub normals: &'p [Vec2],
}

impl<'p> PolygonCore<'p> {
    /// The core of a world polygon, or `None` when it cannot be collided: no
    /// vertex, or not one normal per vertex (its fields are public).
    pub(super) fn of_world(polygon: &'p WorldPolygon) -> Option<Self> {
        let usable =
            !polygon.vertices.is_empty() && polygon.vertices.len() == polygon.normals.len();
        usable.then_some(PolygonCore {
            vertices: &polygon.vertices,
            normals: &polygon.normals,
        })
    }
}

/// A rigid frame of the world (rotation and origin, world scale) in which a
/// pair function runs; [`ContactFrame::WORLD`] is the world itself.
#[derive(Clone, Copy, Debug)]
pub(super) struct ContactFrame {
    /// The frame's axes as a rotation of the world's.
    rotation: Rot2,
    /// The frame's origin (world, metres).
    origin: Vec2,
}

impl ContactFrame {
    /// The world frame.
    pub(super) const WORLD: ContactFrame = ContactFrame {
        rotation: Pose::IDENTITY.rotation,
        origin: Vec2::new(0.0, 0.0),
    };

    /// The frame of `pose` without its scale.
    fn of_pose(pose: &Pose) -> Self {
        ContactFrame {
            rotation: pose.rotation,
            origin: pose.translation,
        }
    }

    /// `pose` seen from this frame: it maps local points into frame coordinates.
    fn relative(&self, pose: &Pose) -> Pose {
        // frame = origin + R x and world = t + Rb (s v)  ⇒
        // x = Rᵀ (t - origin) + (Rᵀ Rb) (s v).
        Pose {
            rotation: self.rotation.inverse() * pose.rotation,
            translation: self
                .rotation
                .inverse_transform_vector(&(pose.translation - self.origin)),
            scale: pose.scale,
        }
    }

    /// The world's x and y axes in frame coordinates (unit vectors).
    pub(super) fn world_axes(&self) -> (Vec2, Vec2) {
        (
            self.rotation.inverse_transform_vector(&vec2(1.0, 0.0)),
            self.rotation.inverse_transform_vector(&vec2(0.0, 1.0)),
        )
    }

    /// Size of a set of frame points as the world sees it: the larger side of
    /// their world-axis-aligned bounding box (metres). The reference face
    /// bias is relative to this size, so the choice of frame does not move it.
    pub(super) fn world_extent(&self, points: &[Vec2]) -> Real {
        // The world axes in frame coordinates are Rᵀ x̂ and Rᵀ ŷ; a translation
        // shifts both ends of a range alike.
        let world_x = self.rotation.inverse_transform_vector(&vec2(1.0, 0.0));
        let world_y = self.rotation.inverse_transform_vector(&vec2(0.0, 1.0));
        let Some(first) = points.first() else {
            return 0.0;
        };
        let (mut low_x, mut low_y) = (world_x.dot(first), world_y.dot(first));
        let (mut high_x, mut high_y) = (low_x, low_y);
        for p in points {
            let (x, y) = (world_x.dot(p), world_y.dot(p));
            // Plain comparisons: these coordinates are finite for valid
            // poses, and a NaN one only makes the extent NaN or smaller.
            if x < low_x {
                low_x = x;
            }
            if x > high_x {
                high_x = x;
            }
            if y < low_y {
                low_y = y;
            }
            if y > high_y {
                high_y = y;
            }
        }
        let (size_x, size_y) = (high_x - low_x, high_y - low_y);
        if size_y > size_x { size_y } else { size_x }
    }

    /// Maps a manifold computed in this frame to world coordinates.
    fn manifold_to_world(&self, manifold: &mut ConvexManifold) {
        manifold.transform(&self.rotation, self.origin);
    }
}

/// A convex polygon of up to [`MAX_FRAMED_VERTICES`] vertices, with its
/// normals, in fixed arrays.
#[derive(Clone, Copy, Debug)]
struct FramedPolygon {
    vertices: [Vec2; MAX_FRAMED_VERTICES],
    normals: [Vec2; MAX_FRAMED_VERTICES],
    len: usize,
}

impl FramedPolygon {
    /// Room for a polygon; [`FramedPolygon::load`] fills it.
    const EMPTY: FramedPolygon = FramedPolygon {
        vertices: [Vec2::new(0.0, 0.0); MAX_FRAMED_VERTICES],
        normals: [Vec2::new(0.0, 0.0); MAX_FRAMED_VERTICES],
        len: 0,
    };

    /// Loads a convex polygon kind that [`FramedPair::of`] accepted, placed
    /// with `pose` (any other shape leaves the polygon empty, which the pair
    /// functions never see). `pose` maps local points to the contact frame.
    fn load(&mut self, shape: &Shape, pose: &Pose) {
        match shape {
            Shape::Aabb(aabb) => self.place(&aabb.vertices(), &AABB_NORMALS, pose),
            Shape::OrientedRect(rect) => {
                // Edges run along +x, +y, −x, −y of the rectangle's own axes.
                let [x_axis, y_axis] = rect.axes();
                self.place(&rect.vertices(), &[-y_axis, x_axis, y_axis, -x_axis], pose);
            }
            Shape::ConvexPolygon(convex) => self.place(convex.vertices(), convex.normals(), pose),
            Shape::TileTriangle(tile) => {
                let vertices = tile.vertices();
                let mut normals = [Vec2::zeros(); 3];
                for (i, normal) in normals.iter_mut().enumerate() {
                    let edge = vertices[(i + 1) % 3] - vertices[i];
                    *normal = vec2(edge.y, -edge.x).normalize();
                }
                self.place(&vertices, &normals, pose);
            }
            _ => self.len = 0,
        }
    }

    /// Places local `vertices` and `normals` with `pose` (as many as the
    /// shorter and the capacity allow).
    fn place(&mut self, vertices: &[Vec2], normals: &[Vec2], pose: &Pose) {
        let mut len = 0;
        for ((slot, normal_slot), (vertex, normal)) in self
            .vertices
            .iter_mut()
            .zip(&mut self.normals)
            .zip(vertices.iter().zip(normals))
        {
            *slot = pose.transform_point(*vertex);
            *normal_slot = pose.rotate(*normal);
            len += 1;
        }
        self.len = len;
    }

    fn core(&self) -> PolygonCore<'_> {
        PolygonCore {
            vertices: &self.vertices[..self.len],
            normals: &self.normals[..self.len],
        }
    }
}

/// A round shape reduced to its core and radius, in some frame.
enum Round {
    /// A point core (circle, or point with radius 0).
    Disc(Vec2, Real),
    /// A segment core (capsule, or segment with radius 0).
    Capsule([Vec2; 2], Real),
}

impl Round {
    /// The core of a disc-like or capsule-like kind placed with `pose`, as
    /// [`crate::query::Placed::new`] places it (any other shape, which
    /// [`FramedPair::of`] never accepts, gives a point at the pose's origin).
    fn of_shape(shape: &Shape, pose: &Pose) -> Round {
        match shape {
            Shape::Point(p) => Round::Disc(pose.transform_point(p.position()), 0.0),
            Shape::Circle(c) => Round::Disc(
                pose.transform_point(c.center()),
                pose.scale_length(c.radius()),
            ),
            Shape::Segment(s) => Round::Capsule(
                [pose.transform_point(s.a()), pose.transform_point(s.b())],
                0.0,
            ),
            Shape::Capsule(c) => Round::Capsule(
                [pose.transform_point(c.a()), pose.transform_point(c.b())],
                pose.scale_length(c.radius()),
            ),
            _ => Round::Disc(pose.translation, 0.0),
        }
    }

    /// The contact between this round shape (as A) and `polygon` (as B),
    /// both in `frame`; the manifold is in `frame`.
    fn contact_polygon(
        &self,
        polygon: PolygonCore<'_>,
        margin: Real,
        frame: &ContactFrame,
    ) -> Option<ConvexManifold> {
        match *self {
            Round::Disc(center, radius) => {
                contact_circle_polygon_core(center, radius, polygon, margin)
            }
            Round::Capsule(core, radius) => {
                contact_capsule_polygon_core(core, radius, polygon, margin, frame)
            }
        }
    }
}

/// Whether two polygons are collided in B's frame rather than A's. The
/// choice depends on the pair, not on its order (the lower kind, then the
/// lower translation), so `contact(b, a)` computes in the same frame as
/// `contact(a, b)` and stays its exact flip wherever the world-frame
/// computation was.
fn in_frame_of_b(a: &Shape, pose_a: &Pose, b: &Shape, pose_b: &Pose) -> bool {
    a.kind()
        .cmp(&b.kind())
        .then_with(|| pose_a.translation.x.total_cmp(&pose_b.translation.x))
        .then_with(|| pose_a.translation.y.total_cmp(&pose_b.translation.y))
        .is_gt()
}

/// The pairs computed in a contact frame, by the kinds of A and B.
#[derive(Clone, Copy, Debug)]
pub(super) enum FramedPair {
    /// Two convex polygons.
    PolygonPolygon,
    /// A convex polygon and a disc or capsule.
    PolygonRound,
    /// A disc or capsule and a convex polygon.
    RoundPolygon,
}

impl FramedPair {
    /// How the pair of `a` and `b` is computed in a contact frame, or `None`
    /// when it is not (other kinds, or a polygon of more than
    /// [`MAX_FRAMED_VERTICES`] vertices). Two boxes are a
    /// [`FramedPair::PolygonPolygon`], though [`super::contact_with_margin`]
    /// gives them to [`contact_boxes`] first.
    pub(super) fn of(a: &Shape, b: &Shape) -> Option<FramedPair> {
        match (Kind::of(a), Kind::of(b)) {
            (Kind::Polygon, Kind::Polygon) => Some(FramedPair::PolygonPolygon),
            (Kind::Polygon, Kind::Round) => Some(FramedPair::PolygonRound),
            (Kind::Round, Kind::Polygon) => Some(FramedPair::RoundPolygon),
            _ => None,
        }
    }

    /// The contact between A and B (world) for a pair of this kind: the
    /// manifold of the world-frame pair functions up to rounding.
    pub(super) fn contact(
        self,
        a: &Shape,
        pose_a: &Pose,
        b: &Shape,
        pose_b: &Pose,
        margin: Real,
    ) -> Option<ConvexManifold> {
        let mut manifold = match self {
            FramedPair::PolygonPolygon => {
                let b_owns_frame = in_frame_of_b(a, pose_a, b, pose_b);
                let frame = ContactFrame::of_pose(if b_owns_frame { pose_b } else { pose_a });
                let manifold =
                    polygons_in_frame(a, pose_a, b, pose_b, b_owns_frame, &frame, margin);
                (manifold, frame)
            }
            FramedPair::PolygonRound => {
                let frame = ContactFrame::of_pose(pose_a);
                let mut storage = FramedPolygon::EMPTY;
                let polygon_a = local_core(a, pose_a.scale, &mut storage);
                let round_b = Round::of_shape(b, &frame.relative(pose_b));
                let mut manifold = round_b.contact_polygon(polygon_a, margin, &frame);
                if let Some(m) = &mut manifold {
                    m.flip();
                }
                (manifold, frame)
            }
            FramedPair::RoundPolygon => {
                let frame = ContactFrame::of_pose(pose_b);
                let mut storage = FramedPolygon::EMPTY;
                let polygon_b = local_core(b, pose_b.scale, &mut storage);
                let round_a = Round::of_shape(a, &frame.relative(pose_a));
                let manifold = round_a.contact_polygon(polygon_b, margin, &frame);
                (manifold, frame)
            }
        };
        if let (Some(m), frame) = &mut manifold {
            frame.manifold_to_world(m);
        }
        manifold.0
    }
}

/// Two convex polygons collided in `frame`, the pose of B without its scale
/// when `b_owns_frame`, else A's; the manifold is in `frame`.
fn polygons_in_frame(
    a: &Shape,
    pose_a: &Pose,
    b: &Shape,
    pose_b: &Pose,
    b_owns_frame: bool,
    frame: &ContactFrame,
    margin: Real,
) -> Option<ConvexManifold> {
    let (owner, owner_pose, other, other_pose) = if b_owns_frame {
        (b, pose_b, a, pose_a)
    } else {
        (a, pose_a, b, pose_b)
    };
    let mut owner_storage = FramedPolygon::EMPTY;
    let owner_core = local_core(owner, owner_pose.scale, &mut owner_storage);
    let mut other_polygon = FramedPolygon::EMPTY;
    other_polygon.load(other, &frame.relative(other_pose));
    let (core_a, core_b) = if b_owns_frame {
        (other_polygon.core(), owner_core)
    } else {
        (owner_core, other_polygon.core())
    };
    contact_polygon_polygon_core(core_a, core_b, margin, frame)
}

/// How [`contact_boxes`] reached its answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum BoxPath {
    /// Closed form: farther apart than the margin.
    Separated,
    /// Closed form: overlapping.
    Overlapping,
    /// Closed form: apart (or touching) within the margin, a face contact.
    Apart,
    /// The polygon path decided.
    Polygon,
}

/// The contact (world) between two shapes with their boxes
/// ([`BoxShape::of`]), in the frame [`FramedPair::PolygonPolygon`] uses,
/// and which path decided it: the closed form where it can, else the
/// polygon path.
#[inline]
pub(super) fn contact_boxes(
    (a, box_a): (&Shape, BoxShape<'_>),
    pose_a: &Pose,
    (b, box_b): (&Shape, BoxShape<'_>),
    pose_b: &Pose,
    margin: Real,
) -> (Option<ConvexManifold>, BoxPath) {
    let b_owns_frame = in_frame_of_b(a, pose_a, b, pose_b);
    let (owner_box, owner_pose, other_box, other_pose) = if b_owns_frame {
        (box_b, pose_b, box_a, pose_a)
    } else {
        (box_a, pose_a, box_b, pose_b)
    };
    let frame = ContactFrame::of_pose(owner_pose);
    let owner_box = FramedBox::owner(owner_box, owner_pose.scale);
    let other_box = FramedBox::placed(other_box, &frame.relative(other_pose));
    let (framed_a, framed_b) = if b_owns_frame {
        (&other_box, &owner_box)
    } else {
        (&owner_box, &other_box)
    };
    let decided = contact_box_box(framed_a, framed_b, margin, &frame);
    let (mut manifold, path) = match decided {
        BoxContact::Separated => return (None, BoxPath::Separated),
        BoxContact::Overlapping(manifold) => (manifold, BoxPath::Overlapping),
        BoxContact::Apart(manifold) => (manifold, BoxPath::Apart),
        BoxContact::Undecided => (
            polygons_in_frame(a, pose_a, b, pose_b, b_owns_frame, &frame, margin),
            BoxPath::Polygon,
        ),
    };
    if let Some(m) = &mut manifold {
        frame.manifold_to_world(m);
    }
    (manifold, path)
}

/// [`contact_boxes`]'s manifold, if finite, written into `out` (`None`
/// otherwise), and the path that decided it. The manifold goes from the
/// box path to `out` within one function: returned to a caller through
/// memory, it was read back whole right after the call, a load that waits
/// on the smaller stores that wrote it.
#[inline(never)]
pub(super) fn contact_boxes_into(
    a: (&Shape, BoxShape<'_>),
    pose_a: &Pose,
    b: (&Shape, BoxShape<'_>),
    pose_b: &Pose,
    margin: Real,
    out: &mut Option<super::Manifold>,
) -> BoxPath {
    let (manifold, path) = contact_boxes(a, pose_a, b, pose_b, margin);
    match manifold.filter(ConvexManifold::is_finite) {
        Some(manifold) => manifold.write_into(out),
        None => *out = None,
    }
    path
}

/// The polygon `shape` in its own contact frame (its local vertices times
/// `scale`, its local normals): borrowed from a [`crate::shape::ConvexPolygon`] at scale
/// 1, else placed in `storage`.
fn local_core<'s>(
    shape: &'s Shape,
    scale: Real,
    storage: &'s mut FramedPolygon,
) -> PolygonCore<'s> {
    match shape {
        Shape::ConvexPolygon(convex) if scale == 1.0 => PolygonCore {
            vertices: convex.vertices(),
            normals: convex.normals(),
        },
        _ => {
            storage.load(shape, &Pose::IDENTITY.with_scale(scale));
            storage.core()
        }
    }
}

/// What a shape is to this module.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// A convex polygon kind of at most [`MAX_FRAMED_VERTICES`] vertices.
    Polygon,
    /// A point, circle, segment or capsule.
    Round,
    /// Anything else.
    Other,
}

impl Kind {
    fn of(shape: &Shape) -> Kind {
        match shape {
            Shape::Aabb(_) | Shape::OrientedRect(_) | Shape::TileTriangle(_) => Kind::Polygon,
            Shape::ConvexPolygon(convex)
                if convex.len() <= MAX_FRAMED_VERTICES
                    && convex.len() == convex.normals().len() =>
            {
                Kind::Polygon
            }
            Shape::Point(_) | Shape::Circle(_) | Shape::Segment(_) | Shape::Capsule(_) => {
                Kind::Round
            }
            _ => Kind::Other,
        }
    }
}
