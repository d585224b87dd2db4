//! [`Sweep`]: how a body moved during the step, and the first contact of two
//! colliders along their bodies' sweeps.
//!
//! Within a step a body's centre of mass moves on the straight segment from
//! its start to its end position and its angle turns at a constant rate by
//! the angle it integrated (which may exceed half a turn); its shapes turn
//! about the centre of mass. This is the path continuous collision and
//! projectile tracing check; it matches the solver's end pose exactly.
//!
//! [`first_contact`] finds when two colliders on such paths first come
//! within a target separation: exactly by [`time_of_impact`] when neither
//! spins (then it backs off along the contact normal, which is exact for
//! convex shapes because their distance is a convex function of time under
//! translation), and by [`conservative_advancement`] on the distance minus
//! the target when one spins (never past the first contact). Advancement
//! knows nothing of circle-tree parts; a tree's part is then that of its
//! leaf nearest the contact point at the time of contact.

use super::Collider;
use super::handles::BodyKey;
use crate::math::{Pose, Real, Rot2, Vec2};
use crate::query::time_of_impact::{
    Motion, SweptBody, ToiError, ToiStatus, conservative_advancement, time_of_impact,
};
use crate::query::{ClosestPoints, closest_points, contact};
use crate::shape::{PartId, Shape};

/// A body's motion over one step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Sweep {
    /// The body.
    pub key: BodyKey,
    /// Pose of the body origin at the start of the step.
    pub start: Pose,
    /// Pose of the body origin at the end of the step (after any clamp).
    pub end: Pose,
    /// Centre of mass at the start (world).
    pub center0: Vec2,
    /// Centre of mass at the end (world).
    pub center1: Vec2,
    /// Rotation over the step (radians; may exceed π).
    pub angle: Real,
    /// Centre of mass in the body frame (unscaled).
    pub local_center: Vec2,
    /// False for a body that did not move this step (static or asleep).
    pub moving: bool,
    /// Velocity of the centre of mass at the start of the step (m/s, world).
    pub velocity0: Vec2,
    /// Spin at the start of the step (rad/s).
    pub spin0: Real,
}

impl Sweep {
    /// A body that stays at `pose` for the whole step.
    pub fn frozen(key: BodyKey, pose: Pose, local_center: Vec2) -> Sweep {
        let center = pose.transform_point(local_center);
        Sweep {
            key,
            start: pose,
            end: pose,
            center0: center,
            center1: center,
            angle: 0.0,
            local_center,
            moving: false,
            velocity0: Vec2::zeros(),
            spin0: 0.0,
        }
    }

    /// Pose of the body origin at `fraction` of the step (exactly `start` at
    /// 0 and `end` at 1).
    pub fn pose_at(&self, fraction: Real) -> Pose {
        if !self.moving || fraction <= 0.0 {
            return self.start;
        }
        if fraction >= 1.0 {
            return self.end;
        }
        let rotation = Rot2::new(self.angle * fraction) * self.start.rotation;
        let center = self.center0 + (self.center1 - self.center0) * fraction;
        Pose {
            rotation,
            translation: center - rotation * (self.local_center * self.start.scale),
            scale: self.start.scale,
        }
    }

    /// The pose whose origin is the centre of mass at `fraction` (scale and
    /// rotation of the body): spinning about it is spinning about the centre of mass.
    fn center_pose_at(&self, fraction: Real) -> Pose {
        let pose = self.pose_at(fraction);
        Pose {
            translation: self.center0 + (self.center1 - self.center0) * fraction.clamp(0.0, 1.0),
            ..pose
        }
    }

    /// The sweep cut at `fraction`: the body ends there.
    pub fn clamped(&self, fraction: Real) -> Sweep {
        let end = self.pose_at(fraction);
        Sweep {
            end,
            center1: self.center0 + (self.center1 - self.center0) * fraction,
            angle: self.angle * fraction,
            ..*self
        }
    }

    /// Largest distance (m, world) from the centre of mass to a point of `collider`.
    #[inline]
    pub fn collider_reach(&self, collider: &Collider) -> Real {
        self.reach_with(collider, collider.shape.bounding_radius())
    }

    /// [`Sweep::collider_reach`] given the shape's bounding radius (local units).
    #[inline]
    pub fn reach_with(&self, collider: &Collider, bounding_radius: Real) -> Real {
        let offset = (collider.local_pose.translation - self.local_center).norm();
        (offset + bounding_radius * collider.local_pose.scale) * self.start.scale
    }

    /// How `collider` moves from `from` (a fraction of the step) to the end:
    /// frozen at its pose there when `frozen` or the body does not move.
    pub fn path(&self, collider: &Collider, from: Real, frozen: bool) -> Path {
        let pose = self.pose_at(from).compose(&collider.local_pose);
        let rest = 1.0 - from;
        if frozen || !self.moving || rest <= 0.0 {
            return Path::Frozen(pose);
        }
        let linear = (self.center1 - self.center0) * rest;
        if self.angle == 0.0 || spins_in_place(collider, self.local_center) {
            return Path::Linear {
                pose,
                motion: linear,
            };
        }
        // pose = center ∘ T(-local_center) ∘ local_pose
        let offset = Pose::from_translation(-self.local_center).compose(&collider.local_pose);
        Path::Spinning {
            center: self.center_pose_at(from),
            motion: Motion::new(linear, self.angle * rest),
            offset,
            reach: self.collider_reach(collider),
        }
    }
}

/// True when turning about `local_center` leaves the collider's shape in
/// place (a disc centred on it), so its path is a pure translation.
#[inline]
pub(crate) fn spins_in_place(collider: &Collider, local_center: Vec2) -> bool {
    match &*collider.shape {
        Shape::Circle(circle) => {
            collider.local_pose.transform_point(circle.center()) == local_center
        }
        _ => false,
    }
}

/// How one shape moves over an interval of the step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Path {
    /// Stays at this (shape) pose.
    Frozen(Pose),
    /// Starts at `pose` and translates by `motion` (metres over the interval).
    Linear {
        /// Shape pose at the start of the interval.
        pose: Pose,
        /// Displacement over the interval (world, metres).
        motion: Vec2,
    },
    /// Spins about a centre that translates: shape pose = `center ∘ offset`.
    Spinning {
        /// Pose at the centre of rotation at the start of the interval.
        center: Pose,
        /// Motion of `center` over the interval.
        motion: Motion,
        /// The shape's pose relative to `center`.
        offset: Pose,
        /// Largest distance from the centre to a point of the shape (m, world).
        reach: Real,
    },
}

impl Path {
    /// A disc that holds `shape` at the start of the interval (centre and
    /// radius, world metres) and how that disc moves over the interval: its
    /// centre by `motion.linear`, the shape turning about it by
    /// `motion.angular`. For a spinning path the radius is the reach that
    /// conservative advancement bounds the spin with ([`Path::swept_body`]).
    pub(crate) fn start_disc(&self, shape: &Shape) -> (Vec2, Real, Motion) {
        match *self {
            Path::Frozen(pose) => (
                pose.translation,
                pose.scale_length(shape.bounding_radius()),
                Motion::ZERO,
            ),
            Path::Linear { pose, motion } => (
                pose.translation,
                pose.scale_length(shape.bounding_radius()),
                Motion::linear(motion),
            ),
            Path::Spinning {
                center,
                motion,
                reach,
                ..
            } => (center.translation, reach, motion),
        }
    }

    fn swept_body(&self, shape: &Shape) -> SweptBody {
        match *self {
            Path::Frozen(pose) => SweptBody::from_shape(shape, pose, Motion::ZERO),
            Path::Linear { pose, motion } => {
                SweptBody::from_shape(shape, pose, Motion::linear(motion))
            }
            Path::Spinning {
                center,
                motion,
                offset,
                reach,
            } => SweptBody {
                pose: center,
                motion,
                bounding_radius: reach,
                ..SweptBody::from_shape(shape, center.compose(&offset), motion)
            },
        }
    }

    /// Maps a pose of the swept body back to the shape's pose.
    fn shape_pose(&self, swept: &Pose) -> Pose {
        match self {
            Path::Spinning { offset, .. } => swept.compose(offset),
            _ => *swept,
        }
    }

    /// The shape's pose at `fraction` of the interval.
    pub fn pose_at(&self, fraction: Real) -> Pose {
        match *self {
            Path::Frozen(pose) => pose,
            Path::Linear { pose, motion } => Motion::linear(motion).pose_at(&pose, fraction),
            Path::Spinning {
                center,
                motion,
                offset,
                ..
            } => motion.pose_at(&center, fraction).compose(&offset),
        }
    }

    /// The same motion seen over the part of the interval from `from` to
    /// `from + span` (fractions of this interval), re-parametrised to `[0, 1]`.
    pub fn restricted(&self, from: Real, span: Real) -> Path {
        match *self {
            Path::Frozen(pose) => Path::Frozen(pose),
            Path::Linear { pose, motion } => Path::Linear {
                pose: Motion::linear(motion).pose_at(&pose, from),
                motion: motion * span,
            },
            Path::Spinning {
                center,
                motion,
                offset,
                reach,
            } => Path::Spinning {
                center: motion.pose_at(&center, from),
                motion: Motion::new(motion.linear * span, motion.angular * span),
                offset,
                reach,
            },
        }
    }

    /// Displacement of the translation part over the interval (the centre
    /// for a spinning shape).
    fn translation(&self) -> Vec2 {
        match *self {
            Path::Frozen(_) => Vec2::zeros(),
            Path::Linear { motion, .. } => motion,
            Path::Spinning { motion, .. } => motion.linear,
        }
    }

    pub(crate) fn linear_motion(&self) -> Option<Vec2> {
        match *self {
            Path::Frozen(_) => Some(Vec2::zeros()),
            Path::Linear { motion, .. } => Some(motion),
            Path::Spinning { .. } => None,
        }
    }
}

/// When two moving shapes first come within the target separation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct PathContact {
    /// Fraction of the interval at which the separation is (about) the
    /// target: the time to stop at (0 when overlapping at the start).
    pub fraction: Real,
    /// Fraction at which they touch (equal to `fraction` for a target of 0
    /// and for conservative advancement, which aims at the target directly).
    pub touch: Real,
    /// Unit normal from shape A to shape B at that time (world); at the
    /// start, the direction of least penetration when overlapping.
    pub normal: Vec2,
    /// Contact point (world).
    pub point: Vec2,
    /// How far the translations close along `normal` over the whole
    /// interval (metres; < 0 when separating). Spin is not counted.
    pub closing: Real,
    /// The shapes already touch or overlap at the start of the interval.
    pub overlapping_at_start: bool,
    /// Conservative advancement hit its iteration cap: the shapes are apart
    /// up to `fraction` and may touch soon after (never a miss).
    pub limited: bool,
    /// The part of A (circle trees only).
    pub part_a: Option<PartId>,
    /// The part of B (circle trees only).
    pub part_b: Option<PartId>,
}

/// First time in the interval at which shape A on `path_a` and shape B on
/// `path_b` come within `target` metres (0: touch). `Ok(None)` if they stay
/// farther apart, or if, with `target > 0`, a linear approach only grazes
/// (no closing speed along the normal).
///
/// # Errors
/// A [`ToiError`] for input outside the range of the queries.
pub(crate) fn first_contact(
    shape_a: &Shape,
    path_a: &Path,
    shape_b: &Shape,
    path_b: &Path,
    target: Real,
) -> Result<Option<PathContact>, ToiError> {
    first_contact_from(shape_a, path_a, shape_b, path_b, target, None)
}

/// [`first_contact`] for a caller that already has the shapes' closest
/// points at the start of the interval (`start`: `None` where they
/// intersect), at the poses `path_a.pose_at(0.0)` and `path_b.pose_at(0.0)`:
/// conservative advancement's first reading, which is taken at those very
/// poses, is that answer instead of a second query. Any other reading is
/// queried as before, so the result is the same bit for bit.
///
/// # Errors
/// As [`first_contact`].
pub(crate) fn first_contact_from(
    shape_a: &Shape,
    path_a: &Path,
    shape_b: &Shape,
    path_b: &Path,
    target: Real,
    start: Option<Option<ClosestPoints>>,
) -> Result<Option<PathContact>, ToiError> {
    let translation = path_b.translation() - path_a.translation();
    if let (Some(motion_a), Some(motion_b)) = (path_a.linear_motion(), path_b.linear_motion()) {
        let toi = time_of_impact(
            shape_a,
            &path_a.pose_at(0.0),
            &Motion::linear(motion_a),
            shape_b,
            &path_b.pose_at(0.0),
            &Motion::linear(motion_b),
        )?;
        let Some(toi) = toi else {
            return Ok(None);
        };
        let overlapping_at_start = toi.status == ToiStatus::OverlappingAtStart;
        // Separation shrinks at `closing` metres per unit fraction at the
        // contact and, being convex in time, was at least closing · δ a
        // fraction δ earlier.
        let closing = -toi.normal.dot(&translation);
        let fraction = if target > 0.0 && !overlapping_at_start {
            if closing <= 0.0 {
                return Ok(None);
            }
            (toi.fraction - target / closing).max(0.0)
        } else {
            toi.fraction
        };
        return Ok(Some(PathContact {
            fraction,
            touch: toi.fraction,
            normal: toi.normal,
            point: toi.point,
            closing,
            overlapping_at_start,
            limited: false,
            part_a: toi.part_a,
            part_b: toi.part_b,
        }));
    }
    let body_a = path_a.swept_body(shape_a);
    let body_b = path_b.swept_body(shape_b);
    let start = start.map(|closest| (path_a.pose_at(0.0), path_b.pose_at(0.0), closest));
    let toi = conservative_advancement(&body_a, &body_b, |swept_a, swept_b| {
        let pose_a = path_a.shape_pose(swept_a);
        let pose_b = path_b.shape_pose(swept_b);
        let known = start
            .filter(|(start_a, start_b, _)| *start_a == pose_a && *start_b == pose_b)
            .map(|(_, _, closest)| closest);
        known
            .unwrap_or_else(|| closest_points(shape_a, &pose_a, shape_b, &pose_b))
            .filter(|closest| closest.distance > target)
            .map(|closest| closest.with_distance(closest.distance - target))
    })?;
    Ok(toi.map(|toi| {
        let overlapping_at_start = toi.status == ToiStatus::OverlappingAtStart;
        let normal = if overlapping_at_start {
            // The direction of least penetration of the shapes at the start.
            contact(shape_a, &path_a.pose_at(0.0), shape_b, &path_b.pose_at(0.0))
                .map_or(toi.normal, |manifold| manifold.normal)
        } else {
            toi.normal
        };
        let part = |shape, path: &Path, part: Option<PartId>| {
            part.or_else(|| leaf_part_near(shape, &path.pose_at(toi.fraction), toi.point))
        };
        PathContact {
            fraction: toi.fraction,
            touch: toi.fraction,
            normal,
            point: toi.point,
            closing: -normal.dot(&translation),
            overlapping_at_start,
            limited: toi.status == ToiStatus::IterationLimit,
            part_a: part(shape_a, path_a, toi.part_a),
            part_b: part(shape_b, path_b, toi.part_b),
        }
    }))
}

/// The part of the leaf of a circle tree placed at `pose` whose disc is
/// nearest to the world `point` (first leaf on a tie); `None` for other
/// shapes and leaves without a part.
fn leaf_part_near(shape: &Shape, pose: &Pose, point: Vec2) -> Option<PartId> {
    let Shape::Tree(tree) = shape else {
        return None;
    };
    let local = pose.inverse_transform_point(point);
    let mut nearest: Option<(Real, usize)> = None;
    for &leaf in tree.leaves() {
        let node = tree.node(leaf as usize)?;
        // Signed distance from the point to the leaf's disc (local units;
        // the scale is uniform, so the order is the world's).
        let gap = (local - node.center()).norm() - node.radius();
        if nearest.is_none_or(|(best, _)| gap < best) {
            nearest = Some((gap, leaf as usize));
        }
    }
    nearest.and_then(|(_, leaf)| tree.part_of(leaf))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;
    use crate::shape::{Aabb, Circle};

    fn sweep(start: Pose, end_center: Vec2, angle: Real, local_center: Vec2) -> Sweep {
        let center0 = start.transform_point(local_center);
        let mut sweep = Sweep {
            key: BodyKey::default(),
            start,
            end: start,
            center0,
            center1: end_center,
            angle,
            local_center,
            moving: true,
            velocity0: Vec2::zeros(),
            spin0: 0.0,
        };
        sweep.end = {
            let rotation = Rot2::new(angle) * start.rotation;
            Pose {
                rotation,
                translation: end_center - rotation * (local_center * start.scale),
                scale: start.scale,
            }
        };
        sweep
    }

    #[test]
    fn pose_at_turns_about_the_centre_of_mass() {
        let s = sweep(
            Pose::IDENTITY,
            vec2(1.0, 0.0),
            std::f32::consts::PI,
            vec2(1.0, 0.0),
        );
        // Half way the centre is at (1, 0) still and the body has turned a quarter.
        let half = s.pose_at(0.5);
        assert!((half.transform_point(vec2(1.0, 0.0)) - vec2(1.0, 0.0)).norm() < 1e-6);
        assert!((half.angle() - std::f32::consts::FRAC_PI_2).abs() < 1e-6);
        assert_eq!(s.pose_at(0.0), s.start);
        assert_eq!(s.pose_at(1.0), s.end);
        let cut = s.clamped(0.5);
        assert_eq!(cut.end, half);
        assert!((cut.angle - std::f32::consts::FRAC_PI_2).abs() < 1e-6);
    }

    #[test]
    fn linear_contact_backs_off_by_the_target() {
        let ball = Shape::from(Circle::new(vec2(0.0, 0.0), 0.5).unwrap());
        let wall = Shape::from(Aabb::new(vec2(10.0, -5.0), vec2(10.01, 5.0)).unwrap());
        let path = Path::Linear {
            pose: Pose::IDENTITY,
            motion: vec2(100.0, 0.0),
        };
        let frozen = Path::Frozen(Pose::IDENTITY);
        let touch = first_contact(&ball, &path, &wall, &frozen, 0.0)
            .unwrap()
            .unwrap();
        assert!((touch.fraction - 0.095).abs() < 1e-5);
        let stop = first_contact(&ball, &path, &wall, &frozen, 0.01)
            .unwrap()
            .unwrap();
        assert!((touch.fraction - stop.fraction - 0.01 / 100.0).abs() < 1e-6);
        assert!(!touch.overlapping_at_start && !stop.limited);
        // Grazing along the wall: no closing speed, no stop.
        let along = Path::Linear {
            pose: Pose::from_translation(vec2(9.5, -20.0)),
            motion: vec2(0.0, 40.0),
        };
        assert_eq!(
            first_contact(&ball, &along, &wall, &frozen, 0.01).unwrap(),
            None
        );
    }

    #[test]
    fn spinning_contact_is_never_late() {
        // A long bar spinning about its centre sweeps a ball at distance 2.
        let bar = Shape::from(Aabb::new(vec2(-3.0, -0.1), vec2(3.0, 0.1)).unwrap());
        let ball = Shape::from(Circle::new(vec2(0.0, 2.0), 0.5).unwrap());
        let s = sweep(Pose::IDENTITY, vec2(0.0, 0.0), 3.0, vec2(0.0, 0.0));
        let collider = Collider {
            body: crate::world::BodyHandle {
                key: BodyKey::default(),
                world: crate::world::handles::WorldId::fresh(),
            },
            shape: std::sync::Arc::new(bar.clone()),
            local_pose: Pose::IDENTITY,
            material: Default::default(),
            filter: Default::default(),
            sensor: false,
            user_data: 0,
            proxy: None,
        };
        let path = s.path(&collider, 0.0, false);
        let contact = first_contact(&bar, &path, &ball, &Path::Frozen(Pose::IDENTITY), 0.0)
            .unwrap()
            .unwrap();
        let pose = path.pose_at(contact.fraction);
        let gap = crate::query::distance(&bar, &pose, &ball, &Pose::IDENTITY);
        assert!((0.0..1e-3).contains(&gap), "gap {gap}");
        // The bar's tip reaches the ball's edge at an angle a with 3 > 2 / sin(a) ... first touch
        // well before the end of the turn.
        assert!(contact.fraction > 0.0 && contact.fraction < 0.5);
    }

    #[test]
    fn a_spinning_tree_reports_the_part_it_touches_with() {
        use crate::shape::TreeBuilder;
        // A dumbbell spinning about its middle: "port" at +x, "starboard" at
        // −x. Half a turn brings the port end round to a ball above it.
        let (tree, _) = TreeBuilder::node(vec2(0.0, 0.0), 2.5)
            .child(TreeBuilder::node(vec2(2.0, 0.0), 0.5).part("port"))
            .child(TreeBuilder::node(vec2(-2.0, 0.0), 0.5).part("starboard"))
            .build()
            .unwrap();
        let (port, starboard) = (tree.part_id("port"), tree.part_id("starboard"));
        let dumbbell = Shape::from(std::sync::Arc::new(tree));
        let ball = Shape::from(Circle::new(vec2(0.0, 0.0), 0.3).unwrap());
        let above = Path::Frozen(Pose::from_translation(vec2(0.0, 2.0)));
        for (angle, part) in [(3.0, port), (-3.0, starboard)] {
            let spinning = Path::Spinning {
                center: Pose::IDENTITY,
                motion: Motion::new(Vec2::zeros(), angle),
                offset: Pose::IDENTITY,
                reach: 2.5,
            };
            let contact = first_contact(&dumbbell, &spinning, &ball, &above, 0.0)
                .unwrap()
                .unwrap();
            assert!(part.is_some());
            assert_eq!(contact.part_a, part, "spin {angle}");
            assert_eq!(contact.part_b, None);
            // The same pair the other way round names the tree as B.
            let flipped = first_contact(&ball, &above, &dumbbell, &spinning, 0.0)
                .unwrap()
                .unwrap();
            assert_eq!(flipped.part_b, part, "spin {angle}");
        }
    }
}
