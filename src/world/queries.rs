//! Scene queries over the broadphase: rays, thick shots, point and box overlaps.
//!
//! Each query asks the broadphase trees for candidates (fat boxes), then
//! tests each candidate's shape exactly at its current pose. Results are
//! sorted (by fraction, then collider handle; overlaps by collider handle),
//! so they never depend on the trees' shapes. A [`QueryFilter`] selects the
//! colliders seen: groups and mask, one body to skip, sensors or not.

use super::{BodyHandle, Collider, ColliderHandle, Filter, World, WorldError};
use crate::broadphase::Bounds;
use crate::math::{Pose, Real, Vec2};
use crate::query::cast::{Shot, cast};
use crate::query::{intersects, point_inside};
use crate::shape::{Aabb, PartId, Shape};

/// Which colliders a scene query sees.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct QueryFilter {
    /// The query's own groups and mask: a collider is seen when
    /// `filter.allows(&collider.filter())`. Default: every group.
    pub filter: Filter,
    /// Colliders of this body are not seen (e.g. the one casting).
    pub exclude_body: Option<BodyHandle>,
    /// Sensors are seen only when this is true. Default: false.
    pub include_sensors: bool,
}

impl Default for QueryFilter {
    fn default() -> Self {
        QueryFilter {
            filter: Filter::ALL,
            exclude_body: None,
            include_sensors: false,
        }
    }
}

impl QueryFilter {
    /// Sees every solid collider except those of `body`.
    pub fn excluding(body: BodyHandle) -> Self {
        QueryFilter {
            exclude_body: Some(body),
            ..Self::default()
        }
    }

    /// This filter, seeing sensors too.
    pub fn with_sensors(mut self) -> Self {
        self.include_sensors = true;
        self
    }

    /// This filter with other groups and mask.
    pub fn with_filter(mut self, filter: Filter) -> Self {
        self.filter = filter;
        self
    }

    fn accepts(&self, collider: &Collider) -> bool {
        (self.include_sensors || !collider.sensor)
            && self.exclude_body != Some(collider.body)
            && self.filter.allows(&collider.filter)
    }
}

/// Where a ray or shot met a collider.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SceneHit {
    /// The collider hit.
    pub collider: ColliderHandle,
    /// Its body.
    pub body: BodyHandle,
    /// Fraction of the ray or shot, in `[0, 1]`.
    pub fraction: Real,
    /// World point on the collider's surface (metres).
    pub point: Vec2,
    /// World unit normal of the surface there, towards the caster.
    pub normal: Vec2,
    /// The part of a circle tree that was hit; `None` for plain shapes.
    pub part: Option<PartId>,
}

/// A collider found by an overlap query.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Overlap {
    /// The collider.
    pub collider: ColliderHandle,
    /// Its body.
    pub body: BodyHandle,
}

/// The value a broadphase ray callback returns to clip the ray at `fraction`
/// and carry on: a clip to exactly 0 would stop the cast and could skip a
/// tie at 0 with a smaller handle, so 0 becomes the smallest positive value.
pub(crate) fn clip_at(fraction: Real) -> Real {
    fraction.max(Real::MIN_POSITIVE)
}

impl World {
    /// The closest collider hit by the ray from `origin` along `translation`
    /// (world, metres), or `None`.
    ///
    /// # Errors
    /// [`WorldError::Cast`] for a non-finite or out-of-range ray.
    ///
    /// # Examples
    /// ```
    /// use circlet::math::{Pose, vec2};
    /// use circlet::shape::Aabb;
    /// use circlet::world::{BodyDef, ColliderDef, QueryFilter, World, WorldSettings};
    /// let mut world = World::new(WorldSettings::default()).unwrap();
    /// let wall = world.add_body(BodyDef::fixed(Pose::IDENTITY)).unwrap();
    /// world.add_collider(wall, ColliderDef::new(Aabb::new(vec2(5.0, -1.0), vec2(6.0, 1.0)).unwrap())).unwrap();
    /// let hit = world.cast_ray(vec2(0.0, 0.0), vec2(10.0, 0.0), &QueryFilter::default()).unwrap().unwrap();
    /// assert_eq!(hit.body, wall);
    /// assert!((hit.fraction - 0.5).abs() < 1e-6);
    /// assert_eq!(hit.normal, vec2(-1.0, 0.0));
    /// ```
    pub fn cast_ray(
        &self,
        origin: Vec2,
        translation: Vec2,
        filter: &QueryFilter,
    ) -> Result<Option<SceneHit>, WorldError> {
        let shot = Shot::ray(origin, origin + translation)?;
        self.cast_thick(&shot, filter)
    }

    /// Every collider the ray from `origin` along `translation` enters, one
    /// hit per collider, sorted by fraction (ties by collider handle).
    ///
    /// # Errors
    /// As [`World::cast_ray`].
    pub fn cast_ray_all(
        &self,
        origin: Vec2,
        translation: Vec2,
        filter: &QueryFilter,
    ) -> Result<Vec<SceneHit>, WorldError> {
        let shot = Shot::ray(origin, origin + translation)?;
        let mut hits = Vec::new();
        self.cast_scene(&shot, filter, &mut hits)?;
        Ok(hits)
    }

    /// The closest collider hit by a thick `shot` (a disc swept along a
    /// segment, within its range), or `None`.
    ///
    /// # Errors
    /// [`WorldError::Cast`] if a collider is too far out for the cast.
    pub fn cast_thick(
        &self,
        shot: &Shot,
        filter: &QueryFilter,
    ) -> Result<Option<SceneHit>, WorldError> {
        let mut best: Option<SceneHit> = None;
        let mut error = None;
        self.broad_phase.ray_cast_thick_any_order(
            shot.start(),
            shot.delta(),
            shot.radius(),
            shot.range()[1],
            |_, key, max_fraction| match self.cast_collider(shot, filter, key) {
                Ok(Some(hit)) if hit.fraction <= max_fraction => {
                    // The closest hit wins; a tie goes to the smaller handle,
                    // as in the sorted `cast_thick_all`.
                    let better = best.is_none_or(|b| {
                        hit.fraction
                            .total_cmp(&b.fraction)
                            .then(hit.collider.cmp(&b.collider))
                            .is_lt()
                    });
                    if better {
                        best = Some(hit);
                    }
                    clip_at(hit.fraction)
                }
                Ok(_) => max_fraction,
                Err(e) => {
                    error.get_or_insert(e);
                    max_fraction
                }
            },
        )?;
        match error {
            Some(e) => Err(e.into()),
            None => Ok(best),
        }
    }

    /// `shot` against one collider (if the filter accepts it), in world terms.
    fn cast_collider(
        &self,
        shot: &Shot,
        filter: &QueryFilter,
        key: super::handles::ColliderKey,
    ) -> Result<Option<SceneHit>, crate::query::CastError> {
        let Some(collider) = self.colliders.get(key).filter(|c| filter.accepts(c)) else {
            return Ok(None);
        };
        let Some(body) = self.bodies.get(collider.body.key) else {
            return Ok(None);
        };
        let pose = body.pose.compose(&collider.local_pose);
        Ok(cast(shot, &collider.shape, &pose)?.map(|hit| SceneHit {
            collider: self.collider_handle(key),
            body: collider.body,
            fraction: hit.fraction,
            point: hit.point,
            normal: hit.normal,
            part: hit.part,
        }))
    }

    /// Every collider a thick `shot` enters, one hit per collider, sorted by
    /// fraction (ties by collider handle).
    ///
    /// # Errors
    /// As [`World::cast_thick`].
    pub fn cast_thick_all(
        &self,
        shot: &Shot,
        filter: &QueryFilter,
    ) -> Result<Vec<SceneHit>, WorldError> {
        let mut hits = Vec::new();
        self.cast_scene(shot, filter, &mut hits)?;
        Ok(hits)
    }

    fn cast_scene(
        &self,
        shot: &Shot,
        filter: &QueryFilter,
        hits: &mut Vec<SceneHit>,
    ) -> Result<(), WorldError> {
        let mut error = None;
        self.broad_phase.ray_cast_thick_any_order(
            shot.start(),
            shot.delta(),
            shot.radius(),
            shot.range()[1],
            |_, key, max_fraction| match self.cast_collider(shot, filter, key) {
                Ok(Some(hit)) if hit.fraction <= max_fraction => {
                    // Every hit is kept: the cast is never clipped.
                    hits.push(hit);
                    max_fraction
                }
                Ok(_) => max_fraction,
                Err(e) => {
                    error.get_or_insert(e);
                    max_fraction
                }
            },
        )?;
        if let Some(e) = error {
            return Err(e.into());
        }
        hits.sort_by(|a, b| {
            a.fraction
                .total_cmp(&b.fraction)
                .then(a.collider.cmp(&b.collider))
        });
        Ok(())
    }

    /// Every collider whose shape contains the world `point` (boundary
    /// included), sorted by collider handle.
    ///
    /// # Errors
    /// [`WorldError::NonFinite`] for a NaN or infinite point.
    pub fn overlap_point(
        &self,
        point: Vec2,
        filter: &QueryFilter,
    ) -> Result<Vec<Overlap>, WorldError> {
        super::error::check_finite_vec("point", point)?;
        let mut found = Vec::new();
        self.broad_phase.query_point(point, |_, key| {
            if let Some((collider, pose)) = self.accepted(key, filter)
                && point_inside(&collider.shape, &pose, point)
            {
                found.push(Overlap {
                    collider: self.collider_handle(key),
                    body: collider.body,
                });
            }
            true
        });
        found.sort_unstable();
        Ok(found)
    }

    /// Every collider whose shape overlaps or touches the world box `aabb`,
    /// sorted by collider handle.
    ///
    /// # Errors
    /// [`WorldError::Shape`] for a box that is not finite or has no area.
    pub fn overlap_aabb(
        &self,
        aabb: &Aabb,
        filter: &QueryFilter,
    ) -> Result<Vec<Overlap>, WorldError> {
        let checked = Aabb::new(aabb.min, aabb.max)?;
        let bounds = Bounds::new(checked.min, checked.max)
            .map_err(|_| WorldError::NonFinite { field: "aabb" })?;
        let region = Shape::Aabb(checked);
        let mut found = Vec::new();
        self.broad_phase.query_aabb(&bounds, |_, key| {
            if let Some((collider, pose)) = self.accepted(key, filter)
                && intersects(&collider.shape, &pose, &region, &Pose::IDENTITY)
            {
                found.push(Overlap {
                    collider: self.collider_handle(key),
                    body: collider.body,
                });
            }
            true
        });
        found.sort_unstable();
        Ok(found)
    }

    fn accepted(
        &self,
        key: super::handles::ColliderKey,
        filter: &QueryFilter,
    ) -> Option<(&Collider, Pose)> {
        let collider = self.colliders.get(key).filter(|c| filter.accepts(c))?;
        let body = self.bodies.get(collider.body.key)?;
        Some((collider, body.pose.compose(&collider.local_pose)))
    }
}
