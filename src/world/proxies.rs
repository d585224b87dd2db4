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
use super::{BodyKind, Collider, World};
use crate::broadphase::{Bounds, ProxyKind};
use crate::math::{Pose, Real, Vec2};
use crate::shape::Shape;

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
/// finite and ≥ 0, in one check: the grown corners are finite exactly when
/// the corners are and growing them does not overflow, and for ordered
/// corners the grown ones are ordered (`min <= max` is checked before growing).
#[inline]
fn grown_box(min: Vec2, max: Vec2, radius: Real) -> Option<Bounds> {
    if !(min.x <= max.x && min.y <= max.y) {
        return None;
    }
    let r = Vec2::new(radius, radius);
    Bounds::new(min - r, max + r).ok()
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
    let start = grown_box(start_min, start_max, SPECULATIVE_DISTANCE)?;
    let (end_min, end_max) = world_box(&collider.shape, &sweep.end.compose(&collider.local_pose));
    let end = grown_box(end_min, end_max, SPECULATIVE_DISTANCE)?;
    if sweep.angle == 0.0 {
        return Some(start.union(&end));
    }
    // Spinning: every point stays within `reach` of the centre of mass, which
    // moves on the segment center0 → center1.
    let grow = sweep.collider_reach(collider) + SPECULATIVE_DISTANCE;
    if !(grow.is_finite() && grow >= 0.0) {
        return None;
    }
    let low = sweep.center0.inf(&sweep.center1);
    let high = sweep.center0.sup(&sweep.center1);
    if !(crate::math::is_finite_vec(low) && crate::math::is_finite_vec(high)) {
        return None;
    }
    let disc = grown_box(low, high, grow)?;
    Some(disc.union(&start).union(&end))
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
                // The start box as `world_box` computes it, from the table.
                let (min, max) = match table.get(handle.key) {
                    Some(now) => match now.circle {
                        Some((center, radius)) => {
                            let reach = Vec2::new(radius, radius);
                            (center - reach, center + reach)
                        }
                        None => world_box(&collider.shape, &now.pose),
                    },
                    None => world_box(&collider.shape, &sweep.start.compose(&collider.local_pose)),
                };
                if let Some(bounds) = swept_bounds_from(collider, sweep, min, max) {
                    let _ = broad_phase.move_proxy(id, bounds, displacement);
                }
            }
        }
    }

    /// Adds the pairs the broadphase reports (proxies that moved since the
    /// last call) to the contact map, if the two colliders may interact.
    pub(crate) fn find_new_pairs(&mut self) {
        let mut pairs = std::mem::take(&mut self.scratch.proxy_pairs);
        let mut new_pairs = std::mem::take(&mut self.scratch.new_pairs);
        new_pairs.clear();
        self.broad_phase.update_pairs(&mut pairs);
        for &(proxy_a, proxy_b) in &pairs {
            let (Some(key_a), Some(key_b)) = (
                self.broad_phase.user_data(proxy_a),
                self.broad_phase.user_data(proxy_b),
            ) else {
                continue;
            };
            if !self.may_pair(key_a, key_b) {
                continue;
            }
            let (a, b) = (self.collider_handle(key_a), self.collider_handle(key_b));
            let pair_key = if a < b { (a, b) } else { (b, a) };
            let sensor = self.colliders[key_a].sensor || self.colliders[key_b].sensor;
            new_pairs.push((pair_key, sensor));
        }
        self.contacts.merge(&mut new_pairs);
        self.scratch.proxy_pairs = pairs;
        self.scratch.new_pairs = new_pairs;
    }

    /// True if two colliders may form a contact pair: different bodies,
    /// filters that allow each other, and something that can move and
    /// respond (a dynamic body, or a sensor on a body that is not static).
    pub(crate) fn may_pair(&self, key_a: ColliderKey, key_b: ColliderKey) -> bool {
        let (Some(a), Some(b)) = (self.colliders.get(key_a), self.colliders.get(key_b)) else {
            return false;
        };
        if a.body.key == b.body.key || !a.filter.allows(&b.filter) {
            return false;
        }
        let (Some(body_a), Some(body_b)) =
            (self.bodies.get(a.body.key), self.bodies.get(b.body.key))
        else {
            return false;
        };
        let dynamic = body_a.kind == BodyKind::Dynamic || body_b.kind == BodyKind::Dynamic;
        let moving = body_a.kind != BodyKind::Static || body_b.kind != BodyKind::Static;
        dynamic || ((a.sensor || b.sensor) && moving)
    }
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
