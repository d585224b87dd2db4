//! Broadphase proxies of colliders, and the persistent pair set they feed.
//!
//! Static bodies' colliders live in the static tree, everything else in the
//! moving tree. A proxy's tight box is the collider's world box grown by
//! [`SPECULATIVE_DISTANCE`]; after each step it is the *swept* box of the
//! step (start and end, or the whole rotation disc for a spinning body), so
//! the stored fat box covers the collider over the whole step. That is what
//! continuous collision and projectile tracing query, and why speculative
//! contacts always have a pair.
//!
//! [`BroadPhase::update_pairs`](crate::broadphase::BroadPhase::update_pairs)
//! reports only pairs of proxies that moved; the world keeps every pair in
//! its contact map and drops a pair once the two fat boxes stop overlapping
//! (see `narrowphase.rs`). Sleeping bodies keep their proxies and do not move them.

use super::handles::{BodyKey, ColliderKey};
use super::settings::SPECULATIVE_DISTANCE;
use super::sweep::Sweep;
use super::{Body, BodyKind, Collider, ColliderHandle, World};
use crate::broadphase::{Bounds, ProxyKind};
use crate::math::{Pose, Real, Vec2};
use crate::shape::Shape;
use slotmap::SlotMap;

/// The tight box a proxy stores for `shape` at `pose`: its world box grown
/// by the speculative distance; `None` if it is not finite.
pub(crate) fn proxy_bounds(shape: &Shape, pose: &Pose) -> Option<Bounds> {
    let (min, max) = world_box(shape, pose);
    grown_box(min, max, SPECULATIVE_DISTANCE)
}

/// Corners of `shape`'s world box at `pose`: [`Shape::world_aabb`], with
/// circles (the common case) computed inline by the same expressions.
#[inline]
fn world_box(shape: &Shape, pose: &Pose) -> (Vec2, Vec2) {
    match shape {
        Shape::Circle(circle) => {
            // The box of one point grown by the scaled radius. For a NaN
            // centre world_aabb's min/max fold yields an infinite corner
            // where this yields NaN: both are refused by `grown_box`.
            let center = pose.transform_point(circle.center());
            let radius = circle.radius() * pose.scale;
            let reach = Vec2::new(radius, radius);
            (center - reach, center + reach)
        }
        _ => {
            let aabb = shape.world_aabb(pose);
            (aabb.min, aabb.max)
        }
    }
}

/// `Bounds::new(min, max)?.inflated(radius)` for a radius known to be
/// finite and ≥ 0 (see [`Corners`]).
#[inline]
fn grown_box(min: Vec2, max: Vec2, radius: Real) -> Option<Bounds> {
    Corners::grown(min, max, radius).checked(false)
}

/// A box as `[min.x, min.y, max.x, max.y]` (world, metres), grown but not
/// yet checked: the sweep builds three and checks them together.
///
/// `Bounds::new(min, max)?.inflated(radius)` succeeds exactly when
/// `min <= max` and the grown corners are finite (a corner that is not
/// finite stays so when grown), which is what [`Corners::grown`] records and
/// [`Corners::checked`] tests.
#[derive(Clone, Copy)]
struct Corners {
    corners: [Real; 4],
    /// `min <= max` on both axes before growing (false for NaN).
    ordered: bool,
}

impl Corners {
    #[inline(always)]
    fn grown(min: Vec2, max: Vec2, radius: Real) -> Corners {
        Corners {
            corners: [
                min.x - radius,
                min.y - radius,
                max.x + radius,
                max.y + radius,
            ],
            ordered: min.x <= max.x && min.y <= max.y,
        }
    }

    /// Ordered, and every corner finite.
    #[inline(always)]
    fn valid(&self) -> bool {
        self.ordered && self.corners.iter().all(|c| c.is_finite())
    }

    /// The box both cover, as [`Bounds::union`] computes it (`self` first).
    #[inline(always)]
    fn union(&self, other: &Corners) -> Corners {
        // nalgebra's inf / sup: `if a <= b { a } else { b }` and `>=`.
        let low = |a: Real, b: Real| if a <= b { a } else { b };
        let high = |a: Real, b: Real| if a >= b { a } else { b };
        let (a, b) = (&self.corners, &other.corners);
        Corners {
            corners: [
                low(a[0], b[0]),
                low(a[1], b[1]),
                high(a[2], b[2]),
                high(a[3], b[3]),
            ],
            ordered: self.ordered && other.ordered,
        }
    }

    /// The box, given that every box merged into it was valid (`valid` or
    /// `assume_valid`).
    #[inline(always)]
    fn checked(&self, assume_valid: bool) -> Option<Bounds> {
        if !(assume_valid || self.valid()) {
            return None;
        }
        let c = &self.corners;
        Bounds::new(Vec2::new(c[0], c[1]), Vec2::new(c[2], c[3])).ok()
    }
}

/// The box covering `collider` over a body's sweep (world, grown by the
/// speculative distance); `None` if it is not finite.
pub(crate) fn swept_bounds(collider: &Collider, sweep: &Sweep) -> Option<Bounds> {
    let (min, max) = world_box(&collider.shape, &sweep.start.compose(&collider.local_pose));
    swept_bounds_from(collider, sweep, min, max)
}

/// [`swept_bounds`] given the corners of the collider's world box at the
/// start of the sweep (not grown yet).
#[inline]
fn swept_bounds_from(
    collider: &Collider,
    sweep: &Sweep,
    start_min: Vec2,
    start_max: Vec2,
) -> Option<Bounds> {
    let start = Corners::grown(start_min, start_max, SPECULATIVE_DISTANCE);
    let (end_min, end_max) = world_box(&collider.shape, &sweep.end.compose(&collider.local_pose));
    let end = Corners::grown(end_min, end_max, SPECULATIVE_DISTANCE);
    if !(start.valid() && end.valid()) {
        return None;
    }
    if sweep.angle == 0.0 {
        return start.union(&end).checked(true);
    }
    let (disc, _) = spin_disc(collider, sweep)?;
    disc.union(&start).union(&end).checked(true)
}

/// Spinning: every point of `collider` stays within `reach` of the centre
/// of mass, which moves on the segment center0 → center1. The box of that
/// (grown by the speculative distance), as [`swept_bounds`] builds it, and
/// how far it was grown; `None` if it is not finite.
#[inline(always)]
fn spin_disc(collider: &Collider, sweep: &Sweep) -> Option<(Corners, Real)> {
    let bounding_radius = match collider.shape.as_ref() {
        // Shape::bounding_radius of a disc, inline.
        Shape::Circle(circle) => circle.center().norm() + circle.radius(),
        shape => shape.bounding_radius(),
    };
    let grow = sweep.reach_with(collider, bounding_radius) + SPECULATIVE_DISTANCE;
    if grow.is_nan() || grow < 0.0 {
        return None; // (an infinite one fails below)
    }
    let low = sweep.center0.inf(&sweep.center1);
    let high = sweep.center0.sup(&sweep.center1);
    let disc = Corners::grown(low, high, grow);
    disc.valid().then_some((disc, grow))
}

/// [`swept_bounds`] of a disc collider (`circle`) whose world centre and
/// radius at the start of the sweep are known, in plain `f32` arithmetic:
/// every product and sum is the one nalgebra's `UnitComplex` and vector
/// operators perform, in the same order, so the box is the same to the bit
/// (a test holds the two together).
#[inline]
fn circle_swept_bounds(
    collider: &Collider,
    circle: &crate::shape::Circle,
    sweep: &Sweep,
    start_center: Vec2,
    start_radius: Real,
) -> Option<Bounds> {
    let spec = SPECULATIVE_DISTANCE;
    // The collider's pose at the end: end ∘ local.
    let (end, local) = (&sweep.end, &collider.local_pose);
    let (er, lr) = (end.rotation.complex(), local.rotation.complex());
    let (re, im) = (er.re * lr.re - er.im * lr.im, er.re * lr.im + er.im * lr.re);
    let (vx, vy) = (
        local.translation.x * end.scale,
        local.translation.y * end.scale,
    );
    let tx = end.translation.x + (er.re * vx - er.im * vy);
    let ty = end.translation.y + (er.im * vx + er.re * vy);
    let scale = end.scale * local.scale;
    // Its centre and radius there.
    let (ux, uy) = (circle.center().x * scale, circle.center().y * scale);
    let cx = tx + (re * ux - im * uy);
    let cy = ty + (im * ux + re * uy);
    let radius = circle.radius() * scale;
    let start = Corners::grown(
        Vec2::new(start_center.x - start_radius, start_center.y - start_radius),
        Vec2::new(start_center.x + start_radius, start_center.y + start_radius),
        spec,
    );
    let end = Corners::grown(
        Vec2::new(cx - radius, cy - radius),
        Vec2::new(cx + radius, cy + radius),
        spec,
    );
    if !(start.valid() && end.valid()) {
        return None;
    }
    if sweep.angle == 0.0 {
        return start.union(&end).checked(true);
    }
    let (disc, _) = spin_disc(collider, sweep)?;
    disc.union(&start).union(&end).checked(true)
}

impl World {
    /// Gives a new collider its proxy (static tree for static bodies).
    pub(crate) fn create_proxy(&mut self, key: ColliderKey) {
        let Some(collider) = self.colliders.get(key) else {
            return;
        };
        let Some(body) = self.bodies.get(collider.body.key) else {
            return;
        };
        let kind = if body.kind == BodyKind::Static {
            ProxyKind::Static
        } else {
            ProxyKind::Moving
        };
        let pose = body.pose.compose(&collider.local_pose);
        if let Some(bounds) = proxy_bounds(&collider.shape, &pose) {
            let id = self.broad_phase.create_proxy(bounds, kind, key);
            self.colliders[key].proxy = Some(id);
        }
    }

    /// Re-boxes the proxies of a body that was moved by a setter (no sweep).
    pub(crate) fn teleport_proxies(&mut self, key: BodyKey) {
        let Some(body) = self.bodies.get(key) else {
            return;
        };
        for handle in &body.colliders {
            let Some(collider) = self.colliders.get(handle.key) else {
                continue;
            };
            let pose = body.pose.compose(&collider.local_pose);
            if let (Some(id), Some(bounds)) = (collider.proxy, proxy_bounds(&collider.shape, &pose))
            {
                // A stale id cannot happen (proxies live as long as their collider).
                let _ = self.broad_phase.move_proxy(id, bounds, Vec2::zeros());
            }
        }
    }

    /// Moves the proxies of the simulated bodies to their swept boxes of the
    /// step. The colliders' start poses are those of the step's collider
    /// table (the bodies have not moved since it was filled).
    pub(crate) fn sweep_proxies(&mut self, sweeps: &[Sweep]) {
        let World {
            bodies,
            colliders,
            broad_phase,
            scratch,
            ..
        } = self;
        let table = &scratch.colliders_now;
        for sweep in sweeps {
            let Some(body) = bodies.get(sweep.key) else {
                continue;
            };
            let displacement = sweep.center1 - sweep.center0;
            for handle in &body.colliders {
                let Some(collider) = colliders.get(handle.key) else {
                    continue;
                };
                let Some(id) = collider.proxy else {
                    continue;
                };
                // The start from the table: the same values `world_box` computes.
                let now = table.get(handle.key);
                let bounds = match (now, collider.shape.as_ref()) {
                    (Some(now), Shape::Circle(circle)) if now.circle.is_some() => {
                        let (center, radius) = now.circle.unwrap_or_default();
                        circle_swept_bounds(collider, circle, sweep, center, radius)
                    }
                    (Some(now), shape) => {
                        let (min, max) = world_box(shape, &now.pose);
                        swept_bounds_from(collider, sweep, min, max)
                    }
                    (None, _) => swept_bounds(collider, sweep),
                };
                if let Some(bounds) = bounds {
                    let _ = broad_phase.move_proxy(id, bounds, displacement);
                }
            }
        }
    }

    /// Adds the pairs the broadphase reports (proxies that moved since the
    /// last call) to the contact map, if the two colliders may interact.
    pub(crate) fn find_new_pairs(&mut self) {
        let mut new_pairs = std::mem::take(&mut self.scratch.new_pairs);
        new_pairs.clear();
        let World {
            broad_phase,
            colliders,
            bodies,
            id,
            ..
        } = self;
        // Reported in the trees' order; the merge sorts what is new.
        broad_phase.update_pairs_with(|key_a, key_b| {
            if !may_pair(colliders, bodies, key_a, key_b) {
                return;
            }
            let handle = |key| ColliderHandle { key, world: *id };
            let (a, b) = (handle(key_a), handle(key_b));
            let pair_key = if a < b { (a, b) } else { (b, a) };
            let sensor = colliders[key_a].sensor || colliders[key_b].sensor;
            new_pairs.push((pair_key, sensor));
        });
        self.contacts.merge(&mut new_pairs);
        self.scratch.new_pairs = new_pairs;
    }

    /// True if two colliders may form a contact pair: different bodies,
    /// filters that allow each other, and something that can move and
    /// respond (a dynamic body, or a sensor on a body that is not static).
    pub(crate) fn may_pair(&self, key_a: ColliderKey, key_b: ColliderKey) -> bool {
        may_pair(&self.colliders, &self.bodies, key_a, key_b)
    }
}

/// [`World::may_pair`] on the world's maps.
fn may_pair(
    colliders: &SlotMap<ColliderKey, Collider>,
    bodies: &SlotMap<BodyKey, Body>,
    key_a: ColliderKey,
    key_b: ColliderKey,
) -> bool {
    let (Some(a), Some(b)) = (colliders.get(key_a), colliders.get(key_b)) else {
        return false;
    };
    if a.body.key == b.body.key || !a.filter.allows(&b.filter) {
        return false;
    }
    let (Some(body_a), Some(body_b)) = (bodies.get(a.body.key), bodies.get(b.body.key)) else {
        return false;
    };
    let dynamic = body_a.kind == BodyKind::Dynamic || body_b.kind == BodyKind::Dynamic;
    let moving = body_a.kind != BodyKind::Static || body_b.kind != BodyKind::Static;
    dynamic || ((a.sensor || b.sensor) && moving)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;
    use crate::shape::Circle;
    use crate::world::scenes::jitter;

    fn bits(v: Vec2) -> (u32, u32) {
        (v.x.to_bits(), v.y.to_bits())
    }

    #[test]
    fn circle_boxes_are_world_aabb_bit_for_bit() {
        for i in 0..5_000u32 {
            let value = |k: u32, range: Real| (jitter(8 * i + k) - 0.5) * range;
            let circle =
                Circle::new(vec2(value(0, 4.0), value(1, 4.0)), 0.01 + jitter(8 * i + 2)).unwrap();
            let scale = 0.1 + 3.0 * jitter(8 * i + 3);
            let pose = Pose::new(vec2(value(4, 2000.0), value(5, 2000.0)), value(6, 20.0))
                .with_scale(scale);
            let shape = Shape::from(circle);
            let (min, max) = world_box(&shape, &pose);
            let aabb = shape.world_aabb(&pose);
            assert_eq!(
                (bits(min), bits(max)),
                (bits(aabb.min), bits(aabb.max)),
                "case {i}"
            );
        }
    }

    /// The swept box as first written: every box through `Bounds::new` and
    /// `inflated`, unions by `Bounds::union`.
    fn reference_swept_bounds(collider: &Collider, sweep: &Sweep) -> Option<Bounds> {
        let proxy = |pose: &Pose| {
            let aabb = collider
                .shape
                .world_aabb(&pose.compose(&collider.local_pose));
            Bounds::new(aabb.min, aabb.max)
                .ok()?
                .inflated(SPECULATIVE_DISTANCE)
                .ok()
        };
        let (start, end) = (proxy(&sweep.start)?, proxy(&sweep.end)?);
        if sweep.angle == 0.0 {
            return Some(start.union(&end));
        }
        let reach = sweep.collider_reach(collider);
        let low = sweep.center0.inf(&sweep.center1);
        let high = sweep.center0.sup(&sweep.center1);
        let disc = Bounds::new(low, high)
            .ok()?
            .inflated(reach + SPECULATIVE_DISTANCE)
            .ok()?;
        Some(disc.union(&start).union(&end))
    }

    fn corner_bits(bounds: Option<Bounds>) -> Option<[u32; 4]> {
        bounds.map(|b| {
            let (min, max) = (bits(b.min()), bits(b.max()));
            [min.0, min.1, max.0, max.1]
        })
    }

    /// A collider of `shape` on no body in particular.
    fn collider(shape: Shape, local_pose: Pose) -> Collider {
        Collider {
            body: crate::world::BodyHandle {
                key: Default::default(),
                world: crate::world::handles::WorldId::fresh(),
            },
            shape: std::sync::Arc::new(shape),
            local_pose,
            material: Default::default(),
            filter: Default::default(),
            sensor: false,
            user_data: 0,
            proxy: None,
        }
    }

    #[test]
    fn swept_boxes_are_the_reference_bit_for_bit() {
        use crate::math::Rot2;
        use crate::shape::ConvexPolygon;
        let mut spinning = 0;
        for i in 0..10_000u32 {
            let value = |k: u32, range: Real| (jitter(32 * i + k) - 0.5) * range;
            // Rotations a little off unit length, as stored ones drift.
            let rotation = |k: u32| {
                let (angle, stretch) = (value(k, 20.0), 1.0 + value(k + 1, 1.0e-4));
                Rot2::new_unchecked(nalgebra::Complex {
                    re: angle.cos() * stretch,
                    im: angle.sin() * stretch,
                })
            };
            let scale = 0.2 + 2.0 * jitter(32 * i + 2);
            let local = if i % 3 == 0 {
                Pose::IDENTITY
            } else {
                Pose {
                    rotation: rotation(3),
                    translation: vec2(value(5, 3.0), value(6, 3.0)),
                    scale: 0.5 + jitter(32 * i + 7),
                }
            };
            let circle = Circle::new(
                vec2(value(8, 2.0), value(9, 2.0)),
                0.05 + jitter(32 * i + 10),
            )
            .unwrap();
            let shape = if i % 5 == 4 {
                Shape::from(ConvexPolygon::regular(5, 0.7, value(11, 3.0)).unwrap())
            } else {
                Shape::from(circle)
            };
            let collider = collider(shape, local);
            let local_center = if i % 2 == 0 {
                Vec2::zeros()
            } else {
                vec2(value(12, 2.0), value(13, 2.0))
            };
            let magnitude = if i % 7 == 0 { 1.0e5 } else { 200.0 };
            let start = Pose {
                rotation: rotation(14),
                translation: vec2(value(16, magnitude), value(17, magnitude)),
                scale,
            };
            let angle = if i % 4 == 0 { 0.0 } else { value(18, 2.0) };
            let center0 = start.transform_point(local_center);
            let center1 = center0 + vec2(value(19, 1.0), value(20, 1.0));
            let end_rotation = Rot2::new(angle) * start.rotation;
            let end = Pose {
                rotation: end_rotation,
                translation: center1 - end_rotation * (local_center * scale),
                scale,
            };
            let sweep = Sweep {
                key: Default::default(),
                start,
                end,
                center0,
                center1,
                angle,
                local_center,
                moving: true,
                velocity0: Vec2::zeros(),
                spin0: 0.0,
            };
            spinning += usize::from(angle != 0.0);
            let want = corner_bits(reference_swept_bounds(&collider, &sweep));
            assert!(want.is_some(), "case {i}");
            assert_eq!(
                corner_bits(swept_bounds(&collider, &sweep)),
                want,
                "case {i}"
            );
            let placed = start.compose(&local);
            if let Shape::Circle(c) = collider.shape.as_ref() {
                let (center, radius) = (
                    placed.transform_point(c.center()),
                    placed.scale_length(c.radius()),
                );
                let fast = circle_swept_bounds(&collider, c, &sweep, center, radius);
                assert_eq!(corner_bits(fast), want, "circle case {i}");
            } else {
                let (min, max) = world_box(&collider.shape, &placed);
                let from = swept_bounds_from(&collider, &sweep, min, max);
                assert_eq!(corner_bits(from), want, "polygon case {i}");
            }
        }
        assert!(spinning > 5_000);
    }

    #[test]
    fn swept_boxes_that_are_not_finite_are_refused_like_the_reference() {
        let shape = Shape::from(Circle::new(vec2(0.0, 0.0), 1.0).unwrap());
        let collider = collider(shape, Pose::IDENTITY);
        for (start_x, center1_x, angle) in [
            (Real::NAN, 0.0, 0.5),
            (0.0, Real::NAN, 0.5),
            (3.4e38, 0.0, 0.0),
            (0.0, 3.4e38, 0.5),
            (0.0, Real::INFINITY, 0.0),
        ] {
            let start = Pose::from_translation(vec2(start_x, 0.0));
            let sweep = Sweep {
                center1: vec2(center1_x, 0.0),
                end: Pose::from_translation(vec2(center1_x, 0.0)),
                angle,
                ..Sweep::frozen(Default::default(), start, Vec2::zeros())
            };
            let want = corner_bits(reference_swept_bounds(&collider, &sweep));
            assert_eq!(corner_bits(swept_bounds(&collider, &sweep)), want);
            let (center, radius) = (start.transform_point(Vec2::zeros()), start.scale);
            let Shape::Circle(c) = collider.shape.as_ref() else {
                unreachable!()
            };
            let fast = circle_swept_bounds(&collider, c, &sweep, center, radius);
            assert_eq!(corner_bits(fast), want);
        }
    }

    #[test]
    fn boxes_that_overflow_are_refused() {
        let shape = Shape::from(Circle::new(vec2(0.0, 0.0), 1.0e38).unwrap());
        let far = Pose::from_translation(vec2(3.0e38, 0.0));
        assert_eq!(proxy_bounds(&shape, &far), None);
        let near = Pose::from_translation(vec2(1.0e38, 0.0));
        assert!(proxy_bounds(&shape, &near).is_some());
        assert_eq!(
            grown_box(vec2(1.0, 0.0), vec2(0.0, 0.0), 0.5),
            None,
            "inverted"
        );
        assert_eq!(grown_box(vec2(Real::NAN, 0.0), vec2(0.0, 0.0), 0.5), None);
    }
}
