//! Contact manifolds between solid shapes: normal from A to B, penetration
//! depth and up to two points with feature ids for warm starting.
//!
//! Convex polygon pairs use SAT to find the axis of least penetration, then
//! clip the incident edge against the reference edge's side planes (Box2D's
//! reference/incident method). Circles and capsules use closest points.
//! A simple polygon contributes the deepest of its convex pieces' manifolds.

use crate::math::{Pose, Real, Vec2};
use crate::shape::{PartId, Shape};
use smallvec::SmallVec;

/// Identifies which features (vertex or edge of each shape) made a contact
/// point, so a point can be matched across steps for warm starting.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FeatureId(pub u32);

impl FeatureId {
    /// Packs a feature index of shape A and one of shape B.
    pub fn new(feature_a: u16, feature_b: u16) -> Self {
        FeatureId(((feature_a as u32) << 16) | feature_b as u32)
    }

    /// The same contact seen with A and B swapped.
    pub fn flipped(self) -> Self {
        FeatureId(self.0.rotate_left(16))
    }
}

/// One point of a contact manifold.
#[derive(Clone, Copy, Debug, PartialEq)]
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

/// A contact manifold: one normal, up to four points (two for convex pairs).
#[derive(Clone, Debug, PartialEq)]
pub struct Manifold {
    /// Unit normal in world coordinates, pointing from shape A to shape B.
    pub normal: Vec2,
    /// The contact points.
    pub points: SmallVec<[ContactPoint; 4]>,
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
        self.normal = -self.normal;
        for p in &mut self.points {
            p.id = p.id.flipped();
            std::mem::swap(&mut p.part_a, &mut p.part_b);
        }
        self
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
pub fn contact_with_margin(
    a: &Shape,
    pose_a: &Pose,
    b: &Shape,
    pose_b: &Pose,
    margin: Real,
) -> Option<Manifold> {
    let _ = (a, pose_a, b, pose_b, margin);
    todo!("contact dispatch")
}
