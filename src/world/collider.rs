//! Colliders: a shape attached to a body with a local pose, a material, a
//! collision filter and a sensor flag.
//!
//! Frames: `local_pose` places the shape in the body frame; the world pose of
//! the shape is `body.pose ∘ local_pose`, so the body's uniform scale applies
//! to the shape (and to the offset) without rebuilding it.

use super::handles::BodyHandle;
use crate::broadphase::ProxyId;
use crate::math::{Pose, Real};
use crate::shape::Shape;
use std::sync::Arc;

/// Surface and bulk properties of a collider.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Material {
    /// Mass per area (kg/m², > 0).
    pub density: Real,
    /// Coulomb friction coefficient (≥ 0); pairs mix by geometric mean.
    pub friction: Real,
    /// Restitution in [0, 1]; pairs take the larger.
    pub restitution: Real,
}

impl Default for Material {
    fn default() -> Self {
        Material {
            density: 1.0,
            friction: 0.6,
            restitution: 0.0,
        }
    }
}

/// Which colliders may touch: A and B interact when
/// `A.groups & B.mask != 0 && B.groups & A.mask != 0`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Filter {
    /// The groups this collider belongs to (bit set).
    pub groups: u32,
    /// The groups this collider interacts with (bit set).
    pub mask: u32,
}

impl Default for Filter {
    fn default() -> Self {
        Filter {
            groups: 1,
            mask: u32::MAX,
        }
    }
}

impl Filter {
    /// Belongs to every group and interacts with every group.
    pub const ALL: Filter = Filter {
        groups: u32::MAX,
        mask: u32::MAX,
    };

    /// True when the two filters let their colliders interact.
    pub fn allows(&self, other: &Filter) -> bool {
        self.groups & other.mask != 0 && other.groups & self.mask != 0
    }
}

/// Everything needed to attach a collider. Validated by `World::add_collider`.
#[derive(Clone, Debug, PartialEq)]
pub struct ColliderDef {
    /// The shape, in its local frame; shared, never copied per step.
    pub shape: Arc<Shape>,
    /// Where the shape sits in the body frame.
    pub local_pose: Pose,
    /// Density, friction, restitution.
    pub material: Material,
    /// Collision groups and mask.
    pub filter: Filter,
    /// A sensor reports overlaps but never pushes.
    pub sensor: bool,
    /// Caller's data, returned untouched.
    pub user_data: u64,
}

impl ColliderDef {
    /// A solid collider of `shape` at the body origin with the default material.
    pub fn new(shape: impl Into<Shape>) -> Self {
        ColliderDef {
            shape: Arc::new(shape.into()),
            local_pose: Pose::IDENTITY,
            material: Material::default(),
            filter: Filter::default(),
            sensor: false,
            user_data: 0,
        }
    }

    /// This definition with another material.
    pub fn with_material(mut self, material: Material) -> Self {
        self.material = material;
        self
    }

    /// This definition placed at `local_pose` in the body frame.
    pub fn at(mut self, local_pose: Pose) -> Self {
        self.local_pose = local_pose;
        self
    }

    /// This definition as a sensor.
    pub fn sensor(mut self) -> Self {
        self.sensor = true;
        self
    }

    /// This definition with another collision filter.
    pub fn with_filter(mut self, filter: Filter) -> Self {
        self.filter = filter;
        self
    }
}

/// A collider in the world.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Collider {
    pub(crate) body: BodyHandle,
    pub(crate) shape: Arc<Shape>,
    pub(crate) local_pose: Pose,
    pub(crate) material: Material,
    pub(crate) filter: Filter,
    pub(crate) sensor: bool,
    pub(crate) user_data: u64,
    /// Its broadphase proxy; `None` only while a restored world rebuilds them.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub(crate) proxy: Option<ProxyId>,
}

impl Collider {
    /// How far from the body origin (body units) every point of the shape
    /// lies, given how far from its own origin it does (`shape_reach`,
    /// shape units): widened by the tree pruning's slack for its own
    /// rounding. The motion readings of the narrowphase and the write-back's
    /// keep of the proxies both count motion at this reach.
    #[inline]
    pub(crate) fn reach_in_body(&self, shape_reach: Real) -> Real {
        let local = &self.local_pose;
        (local.translation.norm() + local.scale * shape_reach)
            * (1.0 + crate::query::tree::PRUNE_SLACK)
    }

    /// The body this collider belongs to.
    pub fn body(&self) -> BodyHandle {
        self.body
    }

    /// The shape (local frame).
    pub fn shape(&self) -> &Shape {
        &self.shape
    }

    /// Pose in the body frame.
    pub fn local_pose(&self) -> Pose {
        self.local_pose
    }

    /// Density, friction, restitution.
    pub fn material(&self) -> Material {
        self.material
    }

    /// Collision filter.
    pub fn filter(&self) -> Filter {
        self.filter
    }

    /// True for a sensor.
    pub fn is_sensor(&self) -> bool {
        self.sensor
    }

    /// The caller's data.
    pub fn user_data(&self) -> u64 {
        self.user_data
    }
}
