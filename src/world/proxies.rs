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
use crate::math::{Pose, Vec2};
use crate::shape::Shape;

/// The tight box a proxy stores for `shape` at `pose`: its world box grown
/// by the speculative distance; `None` if it is not finite.
pub(crate) fn proxy_bounds(shape: &Shape, pose: &Pose) -> Option<Bounds> {
    let aabb = shape.world_aabb(pose);
    Bounds::new(aabb.min, aabb.max)
        .ok()?
        .inflated(SPECULATIVE_DISTANCE)
        .ok()
}

/// The box covering `collider` over a body's sweep (world, grown by the
/// speculative distance); `None` if it is not finite.
pub(crate) fn swept_bounds(collider: &Collider, sweep: &Sweep) -> Option<Bounds> {
    let start = proxy_bounds(&collider.shape, &sweep.start.compose(&collider.local_pose))?;
    let end = proxy_bounds(&collider.shape, &sweep.end.compose(&collider.local_pose))?;
    if sweep.angle == 0.0 {
        return Some(start.union(&end));
    }
    // Spinning: every point stays within `reach` of the centre of mass, which
    // moves on the segment center0 → center1.
    let reach = sweep.collider_reach(collider);
    let low = sweep.center0.inf(&sweep.center1);
    let high = sweep.center0.sup(&sweep.center1);
    let disc = Bounds::new(low, high)
        .ok()?
        .inflated(reach + SPECULATIVE_DISTANCE)
        .ok()?;
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

    /// Moves the proxies of a simulated body to its swept box of the step.
    pub(crate) fn sweep_proxies(&mut self, sweep: &Sweep) {
        let Some(body) = self.bodies.get(sweep.key) else {
            return;
        };
        let displacement = sweep.center1 - sweep.center0;
        for handle in &body.colliders {
            let Some(collider) = self.colliders.get(handle.key) else {
                continue;
            };
            if let (Some(id), Some(bounds)) = (collider.proxy, swept_bounds(collider, sweep)) {
                let _ = self.broad_phase.move_proxy(id, bounds, displacement);
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
