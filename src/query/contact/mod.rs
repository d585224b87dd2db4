//! Contact manifolds between solid shapes: normal from A to B, penetration
//! depth and up to two points with feature ids for warm starting.
//!
//! Convex polygon pairs use SAT to find the axis of least penetration, then
//! clip the incident edge against the reference edge's side planes (Box2D's
//! reference/incident method). Circles and capsules use closest points.
//! [`contact_with_margin`] computes a convex polygon pair, or a disc or
//! capsule against a convex polygon (up to eight vertices), in the frame of
//! one of the polygons, transforming only the other shape, and maps the
//! manifold to the world at the end; [`contact_placed`] runs the same pair
//! functions on shapes placed in the world, and the two agree up to
//! rounding (`tests/contact_frames.rs`). Two boxes (`Aabb`, `OrientedRect`,
//! a `ConvexPolygon` that is a rectangle) take a closed-form path in that
//! frame that returns the polygon pair's manifold bit for bit, except where
//! two reference faces tie to within rounding.
//! A simple polygon contributes the deepest of its convex pieces' manifolds.
//! A circle tree contributes the contacts of its leaves (pruned descent),
//! reduced to one manifold of up to two points that name the leaves' parts
//! ([`crate::query::tree`]); being a union of discs, not a convex shape, its
//! `depth()` is the deepest leaf's penetration, not the union's minimum
//! translation distance.
//!
//! # Invariants
//! - `normal` is a world unit vector from A to B; moving B by
//!   `normal * depth()` brings a convex pair to touching: `depth()` is the
//!   true penetration depth (the minimum translation distance), not an
//!   estimate. Each point's `depth` is the penetration at that point along
//!   the normal, so `depth()` (the largest) is the one that equals it.
//! - [`contact`] (margin 0) returns `Some` exactly when the shapes intersect,
//!   touching included (depth 0). With a margin, pairs apart by up to the
//!   margin are reported with negative depths (speculative contacts), and
//!   only points within the margin are kept.
//! - Points are world points midway between the two surfaces along the
//!   normal: between a point of one surface (a vertex, the extreme of a
//!   rounded end, or a point on a capsule's flat side) and its projection on
//!   the other. Convex pairs give at most two points; two clipped points
//!   closer than a thousandth of the reference face are merged into one.
//! - `contact(b, a)` is `contact(a, b)` [`Manifold::flipped`].
//! - Every shape is treated as a *core* (a point, a segment or a convex
//!   polygon) grown by a radius: a circle is a point core, a capsule a
//!   segment core, a polygon has radius 0. [`Shape::Point`] and
//!   [`Shape::Segment`] are a circle and a capsule of radius 0; a capsule
//!   whose two ends coincide is a circle. A [`Shape::Line`] has no contact
//!   (`None`): it is not a solid and has no depth.
//!
//! # Feature ids
//! A [`FeatureId`] packs one 16-bit feature of A (high half) and one of B
//! (low half). A feature is a vertex or an edge of the shape's core:
//! bit 15 set means edge ([`FeatureId::EDGE`]), bits 0–14 hold the index
//! (wrapped to 15 bits).
//! - circle: vertex 0 (its centre);
//! - capsule or segment: vertex 0 is end `a`, vertex 1 end `b`; edge 0 is the
//!   side whose outward normal is to the right of `a → b`, edge 1 the other;
//! - convex polygon kinds: vertex `i`, and edge `i` from vertex `i` to `i + 1`,
//!   in the counter-clockwise order of the shape's `vertices()`;
//! - simple polygon: indices refer to its outline (`vertices()`): vertex `i` is
//!   outline vertex `i`, edge `i` is the edge of the touching convex piece that
//!   starts at outline vertex `i` (an outline edge unless the contact is on an
//!   internal diagonal of the decomposition).
//!
//! A point of a face manifold (reference face against incident edge) lies
//! at one end of the two faces' overlap, and is named by the two corners at
//! that end: the reference face's vertex on that side and the incident
//! edge's vertex on that side, whichever of them bounds the overlap there
//! (an incident vertex kept inside the reference's slab, or the incident
//! edge cut at the side plane through the reference vertex). So the name of
//! a resting contact survives both things rounding flips from step to step:
//! the corners of two equal faces passing each other (boxes stacked in a
//! column or standing side by side), and the reference face switching from
//! A to B where both faces are equally good. Other points are named by the
//! features that touch there (a circle's centre and a polygon's edge or
//! vertex; two vertices for shapes apart at their corners). The ids of one
//! manifold are distinct. Warm starting matches points by id, so a name
//! that flickered would drop a loaded point's impulse for a step: a column
//! of ten boxes then never came to rest.

mod clip;
mod closest;
mod contact_box_box;
mod contact_capsule_capsule;
mod contact_capsule_polygon;
mod contact_circle_capsule;
mod contact_circle_circle;
mod contact_circle_polygon;
mod contact_polygon_polygon;
mod contact_simple_convex;
mod contact_simple_simple;
mod convex_manifold;
mod face_manifold;
mod framed_box;
mod lanes;
mod local_frame;
mod near_piece;

use convex_manifold::ConvexManifold;
use framed_box::BoxShape;
use local_frame::{FramedPair, contact_boxes, contact_boxes_into};

pub use contact_capsule_capsule::contact_capsule_capsule;
pub use contact_capsule_polygon::contact_capsule_polygon;
pub use contact_circle_capsule::contact_circle_capsule;
pub use contact_circle_circle::contact_circle_circle;
pub(crate) use contact_circle_circle::{apart_room, contact_circle_circle_point};
pub use contact_circle_polygon::contact_circle_polygon;
pub use contact_polygon_polygon::contact_polygon_polygon;
pub use contact_simple_convex::contact_simple_convex;
pub use contact_simple_simple::contact_simple_simple;

use crate::math::{Pose, Real, Vec2, is_finite_vec};
use crate::query::placed::{Placed, WorldPolygon};
use crate::query::tree::{LeafContact, contact_tree_placed, contact_tree_placed_into};
use crate::shape::{CircleTree, PartId, Shape, SimplePolygon};
use smallvec::SmallVec;

/// Identifies which features (vertex or edge of each shape) made a contact
/// point, so a point can be matched across steps for warm starting.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FeatureId(pub u32);

impl FeatureId {
    /// Bit set in a 16-bit feature when it names an edge (clear: a vertex).
    pub const EDGE: u16 = 0x8000;

    /// Packs a feature index of shape A and one of shape B.
    pub fn new(feature_a: u16, feature_b: u16) -> Self {
        FeatureId(((feature_a as u32) << 16) | feature_b as u32)
    }

    /// The 16-bit feature of shape A (see the module docs for the encoding).
    pub fn feature_a(self) -> u16 {
        (self.0 >> 16) as u16
    }

    /// The 16-bit feature of shape B (see the module docs for the encoding).
    pub fn feature_b(self) -> u16 {
        self.0 as u16
    }

    /// The same contact seen with A and B swapped.
    pub fn flipped(self) -> Self {
        FeatureId(self.0.rotate_left(16))
    }
}

/// One point of a contact manifold.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ContactPoint {
    /// World point midway between the two surfaces (metres).
    pub point: Vec2,
    /// Penetration along the manifold normal (metres); negative means separated
    /// by that much (only with a speculative margin).
    pub depth: Real,
    /// Which features touch.
    pub id: FeatureId,
    /// The part of shape A this point belongs to (circle trees only).
    pub part_a: Option<PartId>,
    /// The part of shape B this point belongs to (circle trees only).
    pub part_b: Option<PartId>,
}

/// A contact manifold: one normal and one or two points.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Manifold {
    /// Unit normal in world coordinates, pointing from shape A to shape B.
    pub normal: Vec2,
    /// The contact points.
    pub points: SmallVec<[ContactPoint; 2]>,
}

impl Manifold {
    /// The largest penetration depth over the points (metres).
    pub fn depth(&self) -> Real {
        self.points
            .iter()
            .map(|p| p.depth)
            .fold(Real::NEG_INFINITY, Real::max)
    }

    /// The same manifold seen with A and B swapped: normal negated, ids flipped.
    pub fn flipped(mut self) -> Self {
        self.flip();
        self
    }

    /// Turns this manifold into [`Manifold::flipped`] in place.
    pub(crate) fn flip(&mut self) {
        self.normal = -self.normal;
        for p in &mut self.points {
            p.id = p.id.flipped();
            std::mem::swap(&mut p.part_a, &mut p.part_b);
        }
    }
}

/// The contact between two shapes, if they intersect (touching counts: depth 0).
///
/// Defined for every pair of shapes with area and for points and segments
/// (which act as a circle or capsule of radius 0); `None` if either is a [`Shape::Line`].
///
/// # Examples
/// ```
/// use circlet::{math::{Pose, vec2}, shape::{Circle, Shape}, query::contact};
/// let a = Shape::from(Circle::new(vec2(0.0, 0.0), 1.0).unwrap());
/// let b = Shape::from(Circle::new(vec2(0.0, 0.0), 1.0).unwrap());
/// let m = contact(&a, &Pose::IDENTITY, &b, &Pose::from_translation(vec2(1.5, 0.0))).unwrap();
/// assert!((m.normal - vec2(1.0, 0.0)).norm() < 1e-6);
/// assert!((m.depth() - 0.5).abs() < 1e-6);
/// ```
pub fn contact(a: &Shape, pose_a: &Pose, b: &Shape, pose_b: &Pose) -> Option<Manifold> {
    contact_with_margin(a, pose_a, b, pose_b, 0.0)
}

/// Like [`contact`], but also reports pairs separated by up to `margin` metres
/// (speculative contacts), with negative depths.
///
/// A negative or NaN `margin` acts as 0. Given poses that fail
/// [`Pose::validate`] the answer is unspecified, but it never panics and never
/// holds a NaN (a non-finite result becomes `None`).
///
/// # Examples
/// ```
/// use circlet::{math::{Pose, vec2}, shape::{Aabb, Shape}, query::contact_with_margin};
/// let floor = Shape::from(Aabb::new(vec2(-5.0, -1.0), vec2(5.0, 0.0)).unwrap());
/// let crate_box = Shape::from(Aabb::new(vec2(-0.5, 0.0), vec2(0.5, 1.0)).unwrap());
/// let hovering = Pose::from_translation(vec2(0.0, 0.02));
/// let m = contact_with_margin(&floor, &Pose::IDENTITY, &crate_box, &hovering, 0.05).unwrap();
/// assert_eq!(m.points.len(), 2);
/// assert!((m.depth() + 0.02).abs() < 1e-6); // 2 cm apart
/// assert!((m.normal - vec2(0.0, 1.0)).norm() < 1e-6);
/// ```
pub fn contact_with_margin(
    a: &Shape,
    pose_a: &Pose,
    b: &Shape,
    pose_b: &Pose,
    margin: Real,
) -> Option<Manifold> {
    match contact_convex(a, pose_a, b, pose_b, margin) {
        Some(convex) => convex.map(ConvexManifold::into_manifold),
        None => contact_placed(&Placed::new(a, pose_a), &Placed::new(b, pose_b), margin),
    }
}

/// [`contact_with_margin`] written into `out`, in place when `out` already
/// holds a manifold and the pair takes one of the convex paths or is a tree
/// against a shape: the same result without moving a whole manifold. A
/// tree's leaf contacts are gathered in `buffer`, so a caller that keeps
/// it allocates nothing once it has grown.
pub(crate) fn contact_with_margin_into(
    a: &Shape,
    pose_a: &Pose,
    b: &Shape,
    pose_b: &Pose,
    margin: Real,
    buffer: &mut Vec<LeafContact>,
    out: &mut Option<Manifold>,
) {
    if let (Some(box_a), Some(box_b)) = (BoxShape::of(a), BoxShape::of(b)) {
        contact_boxes_into((a, box_a), pose_a, (b, box_b), pose_b, margin, out);
        return;
    }
    match contact_framed(a, pose_a, b, pose_b, margin) {
        Some(Some(convex)) => convex.write_into(out),
        Some(None) => *out = None,
        None => contact_placed_into(
            &Placed::new(a, pose_a),
            &Placed::new(b, pose_b),
            margin,
            buffer,
            out,
        ),
    }
}

/// The pairs that skip placing both shapes in the world: `Some(answer)`
/// (a finite manifold or none) for two boxes (the closed-form box path, see
/// `contact_box_box`) and for the pairs of [`contact_framed`]; `None` for
/// every other pair.
#[inline(always)]
fn contact_convex(
    a: &Shape,
    pose_a: &Pose,
    b: &Shape,
    pose_b: &Pose,
    margin: Real,
) -> Option<Option<ConvexManifold>> {
    if let (Some(box_a), Some(box_b)) = (BoxShape::of(a), BoxShape::of(b)) {
        let manifold = contact_boxes((a, box_a), pose_a, (b, box_b), pose_b, margin).0;
        return Some(manifold.filter(ConvexManifold::is_finite));
    }
    contact_framed(a, pose_a, b, pose_b, margin)
}

/// [`contact_convex`] for a pair that is not two boxes: `Some(answer)` (a
/// finite manifold or none) for convex polygon pairs and discs and
/// capsules against them (see `local_frame`); `None` for every other pair.
#[inline(always)]
fn contact_framed(
    a: &Shape,
    pose_a: &Pose,
    b: &Shape,
    pose_b: &Pose,
    margin: Real,
) -> Option<Option<ConvexManifold>> {
    let manifold = FramedPair::of(a, b)?.contact(a, pose_a, b, pose_b, margin);
    Some(manifold.filter(ConvexManifold::is_finite))
}

/// [`contact_placed`] written into `out`, a tree's leaf contacts gathered
/// in `buffer`: the same manifold, with no allocation for a tree once
/// `buffer` has grown.
fn contact_placed_into(
    a: &Placed,
    b: &Placed,
    margin: Real,
    buffer: &mut Vec<LeafContact>,
    out: &mut Option<Manifold>,
) {
    match (Solid::from_placed(a), Solid::from_placed(b)) {
        (Solid::Nothing, _) | (_, Solid::Nothing) => *out = None,
        (Solid::Tree(tree, pose), _) => {
            contact_tree_placed_into(tree, &pose, b, margin, buffer, out)
        }
        (_, Solid::Tree(tree, pose)) => {
            contact_tree_placed_into(tree, &pose, a, margin, buffer, out);
            if let Some(manifold) = out {
                manifold.flip();
            }
        }
        _ => *out = contact_placed(a, b, margin),
    }
}

/// [`contact_with_margin`] for shapes already placed in the world.
///
/// This is the single dispatch over shape pairs: each pair is written in one
/// order (`contact_<a>_<b>`) and the other order is its [`Manifold::flipped`].
pub fn contact_placed(a: &Placed, b: &Placed, margin: Real) -> Option<Manifold> {
    let manifold = match (Solid::from_placed(a), Solid::from_placed(b)) {
        (Solid::Nothing, _) | (_, Solid::Nothing) => None,
        // A tree against anything (another tree included) descends the tree.
        (Solid::Tree(tree, pose), _) => contact_tree_placed(tree, &pose, b, margin),
        (_, Solid::Tree(tree, pose)) => {
            contact_tree_placed(tree, &pose, a, margin).map(Manifold::flipped)
        }
        (Solid::Disc(ca, ra), Solid::Disc(cb, rb)) => contact_circle_circle(ca, ra, cb, rb, margin),
        (Solid::Disc(ca, ra), Solid::Capsule(core_b, rb)) => {
            contact_circle_capsule(ca, ra, core_b, rb, margin)
        }
        (Solid::Capsule(core_a, ra), Solid::Disc(cb, rb)) => {
            contact_circle_capsule(cb, rb, core_a, ra, margin).map(Manifold::flipped)
        }
        (Solid::Capsule(core_a, ra), Solid::Capsule(core_b, rb)) => {
            contact_capsule_capsule(core_a, ra, core_b, rb, margin)
        }
        (Solid::Disc(ca, ra), Solid::Polygon(pb)) => contact_circle_polygon(ca, ra, pb, margin),
        (Solid::Polygon(pa), Solid::Disc(cb, rb)) => {
            contact_circle_polygon(cb, rb, pa, margin).map(Manifold::flipped)
        }
        (Solid::Capsule(core_a, ra), Solid::Polygon(pb)) => {
            contact_capsule_polygon(core_a, ra, pb, margin)
        }
        (Solid::Polygon(pa), Solid::Capsule(core_b, rb)) => {
            contact_capsule_polygon(core_b, rb, pa, margin).map(Manifold::flipped)
        }
        (Solid::Polygon(pa), Solid::Polygon(pb)) => contact_polygon_polygon(pa, pb, margin),
        (Solid::Simple(sa, pose_a), Solid::Simple(sb, pose_b)) => {
            contact_simple_simple(sa, &pose_a, sb, &pose_b, margin)
        }
        (Solid::Simple(sa, pose_a), _) => contact_simple_convex(sa, &pose_a, b, margin),
        (_, Solid::Simple(sb, pose_b)) => {
            contact_simple_convex(sb, &pose_b, a, margin).map(Manifold::flipped)
        }
    };
    manifold.filter(Manifold::is_finite)
}

/// A placed shape reduced to its core and radius, as the pair functions take it.
enum Solid<'p> {
    /// No contact is defined (a line).
    Nothing,
    /// A point core grown by a radius (circle, or point with radius 0).
    Disc(Vec2, Real),
    /// A segment core grown by a radius (capsule, or segment with radius 0).
    Capsule([Vec2; 2], Real),
    /// A convex polygon (radius 0).
    Polygon(&'p WorldPolygon),
    /// A simple polygon, handled piece by piece.
    Simple(&'p SimplePolygon, Pose),
    /// A circle tree, handled leaf by leaf with pruning.
    Tree(&'p CircleTree, Pose),
}

impl<'p> Solid<'p> {
    fn from_placed(placed: &'p Placed<'_>) -> Solid<'p> {
        match placed {
            Placed::Point(p) => Solid::Disc(*p, 0.0),
            Placed::Line { .. } => Solid::Nothing,
            Placed::Segment(a, b) => Solid::Capsule([*a, *b], 0.0),
            Placed::Capsule(a, b, r) => Solid::Capsule([*a, *b], *r),
            Placed::Circle(c, r) => Solid::Disc(*c, *r),
            Placed::Polygon(p) => Solid::Polygon(p),
            Placed::Simple(s, pose) => Solid::Simple(s, *pose),
            Placed::Tree(tree, pose) => Solid::Tree(tree, *pose),
        }
    }
}

impl Manifold {
    /// True when the normal and every point and depth are finite.
    pub(crate) fn is_finite(&self) -> bool {
        is_finite_vec(self.normal)
            && !self.points.is_empty()
            && self
                .points
                .iter()
                .all(|p| is_finite_vec(p.point) && p.depth.is_finite())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Rot2, vec2};
    use crate::shape::{
        Aabb, Capsule, Circle, CircleTree, ConvexPolygon, Corner, Line, OrientedRect, Point,
        Segment, SimplePolygon, TileTriangle,
    };

    fn one_of_each_kind() -> Vec<Shape> {
        let l_outline = [
            vec2(-1.0, -1.0),
            vec2(1.0, -1.0),
            vec2(1.0, 0.0),
            vec2(0.0, 0.0),
            vec2(0.0, 1.0),
            vec2(-1.0, 1.0),
        ];
        vec![
            Shape::from(Point::new(vec2(0.1, 0.0)).unwrap()),
            Shape::from(Segment::new(vec2(-0.8, 0.1), vec2(0.7, -0.2)).unwrap()),
            Shape::from(Capsule::new(vec2(-0.6, 0.0), vec2(0.6, 0.3), 0.3).unwrap()),
            Shape::from(Circle::new(vec2(0.0, 0.1), 0.7).unwrap()),
            Shape::from(Aabb::new(vec2(-0.5, -0.4), vec2(0.6, 0.5)).unwrap()),
            Shape::from(OrientedRect::new(vec2(0.0, 0.0), vec2(0.8, 0.3), 0.4).unwrap()),
            Shape::from(ConvexPolygon::regular(5, 0.8, 0.2).unwrap()),
            Shape::from(
                TileTriangle::new(vec2(-0.5, -0.5), vec2(0.5, 0.5), Corner::UpperRight).unwrap(),
            ),
            Shape::from(SimplePolygon::new(&l_outline).unwrap()),
            Shape::from(
                CircleTree::from_leaves(
                    &[
                        Circle::new(vec2(-0.4, 0.1), 0.5).unwrap(),
                        Circle::new(vec2(0.5, -0.2), 0.4).unwrap(),
                    ],
                    2,
                )
                .unwrap(),
            ),
        ]
    }

    #[test]
    fn every_pair_of_different_kinds_is_the_flip_of_the_other_order() {
        let shapes = one_of_each_kind();
        let pose_a = Pose::new(vec2(1.0, 2.0), 0.3).with_scale(1.5);
        let mut contacts = 0;
        for (i, a) in shapes.iter().enumerate() {
            for b in &shapes[i + 1..] {
                for offset in [vec2(0.3, 0.2), vec2(-0.5, 0.6), vec2(0.9, -0.1)] {
                    let pose_b = Pose::new(pose_a.translation + offset, -0.7).with_scale(0.8);
                    let ab = contact_with_margin(a, &pose_a, b, &pose_b, 0.1);
                    let ba = contact_with_margin(b, &pose_b, a, &pose_a, 0.1);
                    assert_eq!(
                        ab.clone().map(Manifold::flipped),
                        ba,
                        "{:?} vs {:?}",
                        a.kind(),
                        b.kind()
                    );
                    contacts += usize::from(ab.is_some());
                }
            }
        }
        // The offsets are small enough that most pairs touch.
        assert!(contacts > 60, "only {contacts} contacts");
    }

    #[test]
    fn written_in_place_every_pair_gives_the_same_manifold() {
        // Whatever the slot held before (nothing, a one-point manifold, the
        // two points of a face or of a tree), it ends equal to the returned one.
        let shapes = one_of_each_kind();
        let pose_a = Pose::new(vec2(1.0, 2.0), 0.3).with_scale(1.5);
        let disc = Shape::from(Circle::new(vec2(0.0, 0.0), 1.0).unwrap());
        let mut before: Vec<Option<Manifold>> = vec![None];
        before.push(contact_with_margin(&disc, &pose_a, &disc, &pose_a, 0.1));
        // One leaf buffer for every call, as the narrowphase keeps it.
        let mut buffer = Vec::new();
        let mut checked = 0;
        for a in &shapes {
            for b in &shapes {
                for offset in [
                    vec2(0.3, 0.2),
                    vec2(-0.5, 0.6),
                    vec2(0.9, -0.1),
                    vec2(9.0, 0.0),
                ] {
                    let pose_b = Pose::new(pose_a.translation + offset, -0.7).with_scale(0.8);
                    let want = contact_with_margin(a, &pose_a, b, &pose_b, 0.1);
                    for old in &before {
                        let mut out = old.clone();
                        contact_with_margin_into(
                            a,
                            &pose_a,
                            b,
                            &pose_b,
                            0.1,
                            &mut buffer,
                            &mut out,
                        );
                        assert_eq!(out, want, "{:?} vs {:?}", a.kind(), b.kind());
                        checked += 1;
                    }
                    if want.as_ref().is_some_and(|m| m.points.len() == 2) {
                        before.push(want);
                    }
                }
            }
        }
        assert!(before.len() > 2, "no two-point manifold");
        assert!(checked > 200);
    }

    #[test]
    fn points_and_segments_act_with_radius_zero() {
        let box_shape = Shape::from(Aabb::new(vec2(-1.0, -1.0), vec2(1.0, 1.0)).unwrap());
        let point = Shape::from(Point::new(vec2(0.0, 0.0)).unwrap());
        let inside = Pose::from_translation(vec2(0.7, 0.2));
        let m = contact(&point, &inside, &box_shape, &Pose::IDENTITY).unwrap();
        assert!((m.depth() - 0.3).abs() < 1e-6);
        assert!((m.normal - vec2(-1.0, 0.0)).norm() < 1e-6);
        assert!(
            contact(
                &point,
                &Pose::from_translation(vec2(1.2, 0.0)),
                &box_shape,
                &Pose::IDENTITY
            )
            .is_none()
        );
        // A segment poking 0.25 into a disc's side.
        let stick = Shape::from(Segment::new(vec2(0.0, -2.0), vec2(0.0, 2.0)).unwrap());
        let disc = Shape::from(Circle::new(vec2(0.0, 0.0), 0.5).unwrap());
        let m = contact(
            &stick,
            &Pose::IDENTITY,
            &disc,
            &Pose::from_translation(vec2(0.25, 0.0)),
        )
        .unwrap();
        assert!((m.depth() - 0.25).abs() < 1e-6);
        assert!((m.normal - vec2(1.0, 0.0)).norm() < 1e-6);
        // A capsule whose ends coincide is a disc.
        let dot = Shape::from(Capsule::new(vec2(0.0, 0.0), vec2(0.0, 0.0), 0.5).unwrap());
        let as_capsule = contact(
            &dot,
            &Pose::IDENTITY,
            &box_shape,
            &Pose::from_translation(vec2(1.3, 0.0)),
        );
        let as_disc = contact(
            &disc,
            &Pose::IDENTITY,
            &box_shape,
            &Pose::from_translation(vec2(1.3, 0.0)),
        );
        assert_eq!(as_capsule, as_disc);
    }

    #[test]
    fn lines_have_no_contact() {
        let line = Shape::from(Line::new(vec2(0.0, 0.0), vec2(1.0, 0.0)).unwrap());
        for shape in one_of_each_kind() {
            assert!(contact(&line, &Pose::IDENTITY, &shape, &Pose::IDENTITY).is_none());
            assert!(contact(&shape, &Pose::IDENTITY, &line, &Pose::IDENTITY).is_none());
        }
    }

    #[test]
    fn bad_poses_and_margins_never_panic_nor_give_nan() {
        let nan = Pose::from_translation(vec2(f32::NAN, 0.0));
        let infinite = Pose::new(vec2(f32::INFINITY, 1.0), 0.0);
        let flat = Pose::IDENTITY.with_scale(0.0);
        let mut broken_rotation = Pose::IDENTITY;
        broken_rotation.rotation = Rot2::new_unchecked(nalgebra::Complex::new(f32::NAN, 0.0));
        for a in one_of_each_kind() {
            for b in one_of_each_kind() {
                for bad in [nan, infinite, flat, broken_rotation] {
                    for m in [
                        contact(&a, &bad, &b, &Pose::IDENTITY),
                        contact(&a, &Pose::IDENTITY, &b, &bad),
                        contact_with_margin(&a, &Pose::IDENTITY, &b, &Pose::IDENTITY, f32::NAN),
                        contact_with_margin(
                            &a,
                            &Pose::IDENTITY,
                            &b,
                            &Pose::IDENTITY,
                            f32::INFINITY,
                        ),
                        contact_with_margin(&a, &Pose::IDENTITY, &b, &Pose::IDENTITY, -1.0),
                    ]
                    .into_iter()
                    .flatten()
                    {
                        assert!(m.is_finite(), "{:?} vs {:?}: {m:?}", a.kind(), b.kind());
                    }
                }
            }
        }
    }

    #[test]
    fn ball_against_a_crate_from_the_crate_docs() {
        let ball = Shape::from(Circle::new(vec2(0.0, 0.0), 0.5).unwrap());
        let crate_box = Shape::from(ConvexPolygon::regular(4, 1.0, 0.0).unwrap());
        let at = |x: f32, y: f32| Pose::from_translation(vec2(x, y));
        assert!(contact(&ball, &at(0.0, 0.0), &crate_box, &at(3.0, 0.0)).is_none());
        let m = contact(&ball, &at(0.0, 0.0), &crate_box, &at(1.2, 0.0)).unwrap();
        // The diamond's left corner is 0.2 from the ball's centre: 0.3 deep.
        assert!((m.normal - vec2(1.0, 0.0)).norm() < 1e-6);
        assert!((m.depth() - 0.3).abs() < 1e-6);
    }
}
