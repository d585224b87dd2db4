//! Narrowphase: manifolds for the persistent pairs, and contact / sensor events.
//!
//! Every pair in the contact map is visited in key order. A pair whose two
//! bodies are both at rest (static or asleep) keeps its manifold, touching
//! state and impulses unchanged, so a sleeping stack neither ends nor
//! restarts its contacts; once seen at rest, it is not opened again until
//! a body wakes or the world is edited (the collider table's epoch, see
//! `colliders_now.rs`), so sleeping pairs cost a step almost nothing. Otherwise the pair is dropped once the fat boxes
//! of its proxies stop overlapping (sending `Ended` / `SensorLeft` if it was
//! touching), or gets a fresh manifold with a speculative margin (none for
//! sensors). Impulses are kept by feature id for warm starting and cleared
//! when the shapes are farther apart than the margin, so a pair without a
//! manifold carries no state: whether the broadphase kept it or not makes no
//! difference to the simulation.
//!
//! Two circle trees go through the pair's [`crate::query::tree::TreePairCache`]: the same
//! manifold as a fresh descent, from the candidate leaf pairs while the
//! trees move little. So does a tree and any other shape but a line (a
//! floor, a wall, a polygon body), from the tree's candidate leaves
//! ([`crate::query::tree::TreePairCache::contact_shape`]).
//!
//! **Quiet pairs.** A pair of two trees or of two discs found apart by
//! more than the margin and some room (`TreePairCache::quiet_until`,
//! `contact::apart_room`) is *quiet*: its map entry keeps a threshold on
//! the sum of both colliders' motion readings (`motion.rs`: how far any
//! point of each may have moved), and while the sum stays at or below it
//! the pair is passed over without reading its state: its shapes cannot
//! have come within the margin, so the manifold stays `None`, the pair
//! stays not touching and nothing else would change. In a settled pile of
//! balls about a third of the pairs are quiet at any step: their boxes
//! overlap, their discs do not touch.
//!
//! Other pairs whose shapes' boxes are clear of each other by more than the
//! margin are passed over too ([`super::clear_boxes`]): a pair lives while
//! its fat boxes overlap, which may be long after its shapes part.

use super::clear_boxes::pair_is_clear;
use super::handles::{ColliderHandle, ColliderKey};
use super::narrowphase_pass::{Pass, margin};
use super::pair_map::{NOT_QUIET, Visit, is_quiet};
use super::{Collider, Event, World};
use crate::query::contact::contact_with_margin_into;
use crate::shape::Shape;
use slotmap::SlotMap;

impl World {
    /// Updates every pair's manifold, sends began / ended events, and builds
    /// the step's contact constraints (`scratch.wide`, in pair order, each
    /// named by its pair's map index, in the lane its pair's colour holds)
    /// on the solver bodies `prepare_solver` made.
    #[inline(never)]
    pub(crate) fn update_contacts(&mut self) {
        let World {
            contacts,
            colliders,
            bodies,
            broad_phase,
            events,
            scratch,
            ..
        } = self;
        let table = &mut scratch.colliders_now;
        let leaf_contacts = &mut scratch.leaf_contacts;
        let shape_boxes = &scratch.shape_boxes;
        let awake = scratch.sweeps.get(1..).unwrap_or_default();
        table.refresh(
            colliders,
            bodies,
            broad_phase,
            awake.iter().map(|sweep| sweep.key),
        );
        // The islands' edges: the bodies of every touching, solid pair kept
        // (with an awake side, unless the islands need a full pass).
        // Written by index into room for every pair (no growth checks in the loop).
        // Room for every pair, grown but never cleared: entries past this
        // step's count are stale and never read.
        let touching_bodies = &mut scratch.touching_bodies;
        if touching_bodies.len() < contacts.len() {
            touching_bodies.resize(contacts.len(), (0, 0));
        }
        let wide = &mut scratch.wide;
        // Lanes that are not the pairs' (a fresh or restored world, pairs an
        // edit dropped, or many lanes given back): the colours' bookkeeping
        // again from every pair's colour (see `dynamics::wide_persistent`).
        if wide.needs_rebuild() {
            wide.start_rebuild_kept();
            contacts.for_each_mut(|key, pair| {
                let sides = table
                    .get(key.0.key)
                    .zip(table.get(key.1.key))
                    .map(|(a, b)| [a.colored_side(), b.colored_side()]);
                wide.rebuild_kept_one(&mut pair.color, sides);
            });
        }
        let mut pass = Pass {
            events,
            colliders,
            touching_bodies,
            touching_count: 0,
            wide,
            solver_bodies: &scratch.solver_bodies,
            solver_turns: &scratch.solver_turns,
        };
        // The ring pass of the islands needs no pair without an awake side
        // (see `islands.rs`); only a full pass does.
        let full_islands = !scratch.islands.rings_known;
        // Pairs of two bodies at rest are passed over while the table's
        // epoch says none of them woke, unless the islands need them.
        let epoch = (!full_islands).then(|| table.epoch());
        contacts.retain_quiet(epoch, |index, key, quiet, pair, impulses, caches| {
            // Stale colliders or bodies have no entry.
            let (Some(a), Some(b)) = (table.get(key.0.key), table.get(key.1.key)) else {
                // A rebuild took the pair's colour back (gone colliders
                // come only with an edit, which rebuilds).
                pass.wide
                    .release(&mut pair.color, &mut pair.lane, [None, None]);
                return Visit::Drop;
            };
            // `awake` is never set on static bodies.
            if !a.awake() && !b.awake() {
                if full_islands && pair.touching && !pair.sensor {
                    pass.touching_bodies[pass.touching_count] = (a.body(), b.body());
                    pass.touching_count += 1;
                }
                // Neither body is simulated: no constraint, and nothing
                // changes until one of them wakes or the world is edited.
                let sides = [a.colored_side(), b.colored_side()];
                pass.wide.release(&mut pair.color, &mut pair.lane, sides);
                return Visit::Rest;
            }
            // Without a proxy a side overlaps nothing.
            if !a.fat_overlaps(b) {
                // A quiet pair is not touching: its state stays unread.
                if !is_quiet(*quiet) && pair.touching {
                    pass.events
                        .push(ended_event(key, pair.sensor, pass.colliders));
                }
                let sides = [a.colored_side(), b.colored_side()];
                pass.wide.release(&mut pair.color, &mut pair.lane, sides);
                return Visit::Drop;
            }
            let stamp = a.motion + b.motion;
            if stamp <= *quiet {
                return Visit::Keep;
            }
            // The pile's common case, without placing both shapes first
            // (the same centres and radii `Placed` computes).
            if let (Some(disc_a), Some(disc_b)) = (a.circle(), b.circle()) {
                return pass.discs(
                    index,
                    key,
                    quiet,
                    pair,
                    impulses,
                    (a, b),
                    (disc_a, disc_b),
                    stamp,
                );
            }
            let margin = margin(pair.sensor);
            let quiet_now = match (
                colliders[key.0.key].shape.as_ref(),
                colliders[key.1.key].shape.as_ref(),
            ) {
                // Two trees: the pair's candidate leaf pairs, exactly
                // what `contact_with_margin` finds (see `TreePairCache`),
                // written in place; when they are apart, quiet until the
                // motion says otherwise.
                (Shape::Tree(tree_a), Shape::Tree(tree_b)) => {
                    let cache = caches.get_or_make(&mut pair.tree_cache);
                    cache.contact_into(
                        tree_a,
                        &a.pose,
                        tree_b,
                        &b.pose,
                        margin,
                        stamp,
                        leaf_contacts,
                        &mut pair.manifold,
                    );
                    match pair.manifold {
                        None => cache.quiet_until(),
                        Some(_) => NOT_QUIET,
                    }
                }
                // Shapes whose boxes are clear of each other: what
                // the query would say, for a few comparisons. Asked
                // only of pairs apart at the last step: a pair that
                // had a manifold is most likely still in contact,
                // and the query gives the same answer either way.
                _ if pair.manifold.is_none() && pair_is_clear(shape_boxes, key, a, b, margin) => {
                    pair.manifold = None;
                    NOT_QUIET
                }
                // A tree and another shape (a floor, a wall, a polygon
                // body): the candidate leaves of the pair's cache, exactly
                // what the query finds (see `TreePairCache::contact_shape`),
                // the tree as A and the manifold turned when it is B.
                (Shape::Tree(tree_a), shape_b) if cached_against(shape_b) => {
                    let cache = caches.get_or_make(&mut pair.tree_cache);
                    cache.contact_shape_into(
                        tree_a,
                        &a.pose,
                        shape_b,
                        &b.pose,
                        margin,
                        leaf_contacts,
                        &mut pair.manifold,
                    );
                    NOT_QUIET
                }
                (shape_a, Shape::Tree(tree_b)) if cached_against(shape_a) => {
                    let cache = caches.get_or_make(&mut pair.tree_cache);
                    cache.contact_shape_into(
                        tree_b,
                        &b.pose,
                        shape_a,
                        &a.pose,
                        margin,
                        leaf_contacts,
                        &mut pair.manifold,
                    );
                    if let Some(manifold) = &mut pair.manifold {
                        manifold.flip();
                    }
                    NOT_QUIET
                }
                (shape_a, shape_b) => {
                    contact_with_margin_into(
                        shape_a,
                        &a.pose,
                        shape_b,
                        &b.pose,
                        margin,
                        leaf_contacts,
                        &mut pair.manifold,
                    );
                    NOT_QUIET
                }
            };
            pass.finish(index, key, quiet, quiet_now, pair, impulses, (a, b))
        });
        scratch.touching_count = pass.touching_count;
        scratch.wide.end_kept();
    }
}

/// The shapes a tree's pair cache takes the other side of: all but
/// another tree (two trees have their own arm) and a line, which no
/// contact query collides.
#[inline]
fn cached_against(shape: &Shape) -> bool {
    !matches!(shape, Shape::Tree(_) | Shape::Line(_))
}

pub(super) fn began_event(
    key: &(ColliderHandle, ColliderHandle),
    sensor: bool,
    colliders: &SlotMap<ColliderKey, Collider>,
) -> Event {
    if sensor {
        let (s, v) = sensor_first(key, colliders);
        Event::SensorEntered(s, v)
    } else {
        Event::Began(key.0, key.1)
    }
}

pub(super) fn ended_event(
    key: &(ColliderHandle, ColliderHandle),
    sensor: bool,
    colliders: &SlotMap<ColliderKey, Collider>,
) -> Event {
    if sensor {
        let (s, v) = sensor_first(key, colliders);
        Event::SensorLeft(s, v)
    } else {
        Event::Ended(key.0, key.1)
    }
}

/// The pair as (sensor, visitor).
pub(crate) fn sensor_first(
    key: &(ColliderHandle, ColliderHandle),
    colliders: &SlotMap<ColliderKey, Collider>,
) -> (ColliderHandle, ColliderHandle) {
    if colliders.get(key.0.key).is_some_and(|c| c.sensor) {
        (key.0, key.1)
    } else {
        (key.1, key.0)
    }
}

#[cfg(test)]
#[path = "narrowphase_tests.rs"]
mod tests;
