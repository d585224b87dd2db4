//! Broadphase proxies of colliders, and the persistent pair set they feed.
//!
//! Static bodies' colliders live in the static tree, everything else in the
//! moving tree. A proxy's tight box is the collider's world box grown by
//! [`SPECULATIVE_DISTANCE`]; after each step it is the *swept* box of the
//! step (start and end, grown by the sagitta of a small turn or covering
//! the whole rotation disc of a large one, see `swept_box.rs`), so
//! the stored fat box covers the collider over the whole step. That is what
//! continuous collision and projectile tracing query, and why speculative
//! contacts always have a pair.
//!
//! [`BroadPhase::update_pairs`](crate::broadphase::BroadPhase::update_pairs)
//! reports only pairs of proxies that moved; the world keeps every pair in
//! its contact map and drops a pair once the two fat boxes stop overlapping
//! (see `narrowphase.rs`). Sleeping bodies keep their proxies and do not move them.
//!
//! Invariant: after each step's narrowphase the map holds every pair of
//! colliders that may pair ([`World::may_pair`], fixed for a collider's
//! life) whose fat boxes overlap. Proxies only move between one
//! narrowphase and the next pair update, and only pairs whose boxes no
//! longer overlap are dropped (or those of removed colliders, whose
//! proxies go too). So a pair update may leave out the pairs of a
//! re-inserted proxy with a proxy that did not move whose boxes
//! overlapped before the move: the map holds them already
//! ([`BroadPhase::update_new_pairs_with`](crate::broadphase::BroadPhase::update_new_pairs_with)).
//! A new proxy (a new collider, a restored snapshot) reports all its pairs.
//!
//! The write-back does not look at the proxies of a body that has stayed
//! within the room it measured when it last looked (`proxy_keep.rs`): in a
//! resting pile, nearly every body at nearly every step, whose proxies the
//! broadphase would keep anyway.

use super::colliders_now::{ColliderNow, ColliderTable};
use super::handles::{BodyKey, ColliderKey};
use super::proxy_keep::ProxyKeep;
use super::sweep::Sweep;
use super::swept_box::{
    ShapeBoxes, SweptBox, bounding_radius, circle_swept_bounds, proxy_bounds, swept_bounds,
};
use super::{Body, BodyKind, Collider, ColliderHandle, World};
use crate::broadphase::{BroadPhase, ProxyKind};
use crate::math::{Real, Vec2};
use crate::query::tree::PRUNE_SLACK;
use crate::shape::Shape;
use slotmap::SlotMap;

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
        let body_key = collider.body.key;
        if let Some(bounds) = proxy_bounds(&collider.shape, &pose) {
            let id = self.broad_phase.create_proxy(bounds, kind, key);
            self.colliders[key].proxy = Some(id);
        }
        // A new proxy: the body's keep is measured again.
        self.bodies[body_key].proxy_keep = ProxyKeep::NONE;
    }

    /// Re-boxes the proxies of a body that was moved by a setter (no sweep).
    pub(crate) fn teleport_proxies(&mut self, key: BodyKey) {
        let Some(body) = self.bodies.get_mut(key) else {
            return;
        };
        // Its proxies move here, not in the write-back.
        body.proxy_keep = ProxyKeep::NONE;
        let body = &*body;
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

    /// Adds the pairs the broadphase reports (proxies that moved since the
    /// last call) to the contact map, if the two colliders may interact.
    #[inline(never)]
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
        // Reported in the trees' order; the merge sorts what is new. The
        // map holds every pair whose fat boxes overlapped at the last update
        // (see the module docs), so the broadphase leaves those out.
        broad_phase.update_new_pairs_with(|key_a, key_b| {
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

/// Moves each simulated body's proxies to their swept boxes of the step, as
/// the solver's write-back finishes the body (in the sweeps' order, while
/// the body is in cache). The colliders' start poses are those of the
/// step's collider table (the bodies have not moved since it was filled),
/// and so is the copy of each proxy's stored box: nothing moves a proxy
/// between the table's refresh and here, so a proxy that stays is decided
/// without reading the tree, and a re-inserted one updates the copy.
pub(crate) struct ProxyMover<'a> {
    pub colliders: &'a SlotMap<ColliderKey, Collider>,
    pub table: &'a mut ColliderTable,
    pub shape_boxes: &'a mut ShapeBoxes,
    pub broad_phase: &'a mut BroadPhase<ColliderKey>,
}

impl ProxyMover<'_> {
    /// Moves the proxies of `body`, swept by `sweep`, whose centre of mass
    /// moved by `displacement` (`sweep.center1 - sweep.center0`, passed in
    /// by the caller, who has just computed the end), and whose pose is
    /// the sweep's end when `finite` (else the step was refused). Passes
    /// over every proxy while the body's keep holds (`proxy_keep.rs`);
    /// otherwise looks at each and measures the keep again.
    #[inline]
    pub fn move_body(&mut self, body: &mut Body, sweep: &Sweep, displacement: Vec2, finite: bool) {
        debug_assert_eq!(
            displacement.map(f32::to_bits),
            (sweep.center1 - sweep.center0).map(f32::to_bits)
        );
        if body
            .proxy_keep
            .holds(&sweep.start, &sweep.end, sweep.angle, displacement)
        {
            #[cfg(debug_assertions)]
            self.check_kept(body, sweep, displacement);
            return;
        }
        let (mut room, mut reach, mut turn_reach) = (Real::INFINITY, 0.0 as Real, 0.0 as Real);
        for &handle in &body.colliders {
            let Some(collider) = self.colliders.get(handle.key) else {
                continue;
            };
            let Some(id) = collider.proxy else {
                continue;
            };
            let radius = bounding_radius(&collider.shape);
            // Every point of the collider lies within these of the body
            // origin (body units) and of the centre of mass (m).
            reach = reach.max(collider.reach_in_body(radius));
            turn_reach = turn_reach.max(sweep.reach_with(collider, radius) * (1.0 + PRUNE_SLACK));
            let now = self.table.get(handle.key);
            let fat = now.and_then(|now| now.fat());
            let swept = swept(self.shape_boxes, now, handle.key, collider, sweep);
            let Some(SweptBox { bounds, end }) = swept else {
                room = Real::NEG_INFINITY;
                continue;
            };
            let stored = match fat {
                Some(stored)
                    if self
                        .broad_phase
                        .keeps(id.kind(), &stored, &bounds, displacement) =>
                {
                    debug_assert_eq!(self.broad_phase.fat_bounds(id), Some(stored));
                    Some(stored)
                }
                _ => match self.broad_phase.move_proxy(id, bounds, displacement) {
                    Ok(moved) => {
                        let stored = self.broad_phase.fat_bounds(id);
                        if moved {
                            // Re-inserted: the table's copy follows.
                            self.table.set_fat(handle.key, stored);
                        }
                        stored
                    }
                    Err(_) => None,
                },
            };
            room = match stored {
                Some(stored) => room.min(self.broad_phase.keep_room(id.kind(), &stored, &end)),
                None => Real::NEG_INFINITY,
            };
        }
        body.proxy_keep = if finite {
            ProxyKeep::measured(&sweep.end, reach, turn_reach, room)
        } else {
            ProxyKeep::NONE
        };
    }

    /// With a keep that holds, every proxy of the body is one
    /// `BroadPhase::keeps` keeps (checked in debug builds).
    #[cfg(debug_assertions)]
    fn check_kept(&mut self, body: &Body, sweep: &Sweep, displacement: Vec2) {
        for &handle in &body.colliders {
            let Some(collider) = self.colliders.get(handle.key) else {
                continue;
            };
            let now = self.table.get(handle.key);
            let swept = swept(self.shape_boxes, now, handle.key, collider, sweep);
            let (Some(id), Some(swept)) = (collider.proxy, swept) else {
                continue;
            };
            let stored = self.broad_phase.fat_bounds(id);
            assert!(
                stored.is_some_and(|stored| self.broad_phase.keeps(
                    id.kind(),
                    &stored,
                    &swept.bounds,
                    displacement
                )),
                "a kept proxy would move: stored {stored:?}, swept {:?}",
                swept.bounds
            );
        }
    }
}

/// The swept box of the step of one collider (its table entry `now`) and
/// its end box. The start from the table: the same values `world_box`
/// computes, or the box remembered from the last step's end.
#[inline]
fn swept(
    shape_boxes: &mut ShapeBoxes,
    now: Option<&ColliderNow>,
    key: ColliderKey,
    collider: &Collider,
    sweep: &Sweep,
) -> Option<SweptBox> {
    match (now, collider.shape.as_ref()) {
        (Some(now), Shape::Circle(circle)) if let Some((center, radius)) = now.circle() => {
            circle_swept_bounds(collider, circle, sweep, center, radius)
        }
        (Some(now), _) => shape_boxes.swept_bounds(key, collider, sweep, &now.pose),
        (None, _) => {
            let bounds = swept_bounds(collider, sweep)?;
            let end = proxy_bounds(&collider.shape, &sweep.end.compose(&collider.local_pose))?;
            Some(SweptBox { bounds, end })
        }
    }
}
