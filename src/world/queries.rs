//! Scene queries over the broadphase: rays, thick shots, point and box overlaps.
//!
//! Each query asks the broadphase trees for candidates (fat boxes), then
//! tests each candidate's shape exactly at its current pose. Results are
//! sorted (by fraction, then collider handle; overlaps by collider handle),
//! so they never depend on the trees' shapes. A [`QueryFilter`] selects the
//! colliders seen: groups and mask, one body to skip, sensors or not.

use super::handles::{BodyKey, ColliderKey};
use super::{BodyHandle, Collider, ColliderHandle, Filter, World, WorldError};
use crate::broadphase::Bounds;
use crate::math::{Pose, Real, Vec2};
use crate::query::cast::{CastError, Shot, cast, cast_circle, cast_circle_valid_pose};
use crate::query::{intersects, point_inside};
use crate::shape::{Aabb, Circle, PartId, Shape};

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
        self.sees(collider.sensor, collider.body, &collider.filter)
    }

    /// [`accepts`](Self::accepts) for a collider given by its parts.
    #[inline]
    pub(crate) fn sees(&self, sensor: bool, body: BodyHandle, filter: &Filter) -> bool {
        (self.include_sensors || !sensor)
            && self.exclude_body != Some(body)
            && self.filter.allows(filter)
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

/// The closest hit so far of a thick cast, and the first error met.
#[derive(Debug, Default)]
pub(crate) struct Closest {
    pub(crate) hit: Option<SceneHit>,
    pub(crate) error: Option<CastError>,
}

/// A collider's shape as a cast takes it: circles (the common case) by a
/// path of their own.
#[derive(Clone, Copy)]
pub(crate) enum Target<'a> {
    Circle(&'a Circle),
    /// A circle whose world pose is known to pass `Pose::validate`.
    CircleValidPose(&'a Circle),
    Other(&'a Shape),
}

/// A collider a thick cast tests exactly: its key and body, its shape and
/// its world pose.
#[derive(Clone, Copy)]
pub(crate) struct Candidate<'a> {
    pub(crate) collider: ColliderKey,
    pub(crate) body: BodyKey,
    pub(crate) target: Target<'a>,
    pub(crate) pose: &'a Pose,
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
    /// Touching counts; a shot that starts inside or touching a collider
    /// hits it at the start of its range; among hits at the same fraction
    /// the smallest collider handle wins (as in [`World::cast_thick_all`]'s
    /// order). A world that has answered many casts without changing
    /// answers them from a grid built for the purpose (see
    /// [`World::prepare_shot_grid`]), with the same results.
    ///
    /// # Errors
    /// [`WorldError::Cast`] if a collider is too far out for the cast.
    pub fn cast_thick(
        &self,
        shot: &Shot,
        filter: &QueryFilter,
    ) -> Result<Option<SceneHit>, WorldError> {
        let mut closest = Closest::default();
        if let Some(grid) = self.shot_grid() {
            self.cast_thick_grid(grid, shot, filter, &mut closest);
        } else {
            self.broad_phase.ray_cast_thick_any_order(
                shot.start(),
                shot.delta(),
                shot.radius(),
                shot.range()[1],
                |_, key, max_fraction| {
                    let Some(collider) = self.colliders.get(key).filter(|c| filter.accepts(c))
                    else {
                        return max_fraction;
                    };
                    let Some(body) = self.bodies.get(collider.body.key) else {
                        return max_fraction;
                    };
                    let pose = body.pose.compose(&collider.local_pose);
                    let target = match collider.shape.as_ref() {
                        Shape::Circle(circle) => Target::Circle(circle),
                        shape => Target::Other(shape),
                    };
                    let candidate = Candidate {
                        collider: key,
                        body: collider.body.key,
                        target,
                        pose: &pose,
                    };
                    self.offer(shot, &candidate, max_fraction, &mut closest)
                },
            )?;
        }
        match closest.error {
            Some(e) => Err(e.into()),
            None => Ok(closest.hit),
        }
    }

    /// Casts `shot` against a collider the filter accepts and keeps the hit
    /// in `closest` if it is the closest so far;
    /// returns the new maximum fraction for the search (`max_fraction` when
    /// nothing changed).
    #[inline(always)]
    pub(crate) fn offer(
        &self,
        shot: &Shot,
        candidate: &Candidate<'_>,
        max_fraction: Real,
        closest: &mut Closest,
    ) -> Real {
        let Candidate {
            collider: key,
            body,
            target,
            pose,
        } = *candidate;
        let handle = self.collider_handle(key);
        let result = match target {
            Target::Circle(circle) | Target::CircleValidPose(circle) => {
                // A circle's fraction is never -0.0, so at a best of +0.0
                // only a smaller handle could win the tie.
                if let Some(best) = &closest.hit
                    && best.fraction.to_bits() == 0
                    && handle > best.collider
                {
                    return max_fraction;
                }
                if matches!(target, Target::CircleValidPose(_)) {
                    cast_circle_valid_pose(shot, circle, pose)
                } else {
                    cast_circle(shot, circle, pose)
                }
            }
            Target::Other(shape) => cast(shot, shape, pose),
        };
        match result {
            Ok(Some(hit)) if hit.fraction <= max_fraction => {
                // The closest hit wins; a tie goes to the smaller handle,
                // as in the sorted `cast_thick_all`.
                let better = closest.hit.as_ref().is_none_or(|b| {
                    hit.fraction
                        .total_cmp(&b.fraction)
                        .then(handle.cmp(&b.collider))
                        .is_lt()
                });
                if better {
                    closest.hit = Some(SceneHit {
                        collider: handle,
                        body: self.body_handle(body),
                        fraction: hit.fraction,
                        point: hit.point,
                        normal: hit.normal,
                        part: hit.part,
                    });
                }
                clip_at(hit.fraction)
            }
            Ok(_) => max_fraction,
            Err(e) => {
                closest.error.get_or_insert(e);
                max_fraction
            }
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
