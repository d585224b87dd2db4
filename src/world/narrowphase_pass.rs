//! What the narrowphase does with a pair once it has its manifold: events,
//! the islands' edge, the quiet threshold and the pair's constraint in its
//! solver lane ([`Pass::finish`]); and the whole visit of a pair of two
//! discs ([`Pass::discs`]), the pile's common case, written for its one
//! point.
//!
//! Invariant: a pair of two discs gets exactly what the general path gives
//! it (the same manifold, written in place; the same events, quiet
//! threshold, edge, constraint and impulses), so which path a pair takes
//! never changes a result.

use super::colliders_now::ColliderNow;
use super::handles::ColliderKey;
use super::narrowphase::{began_event, ended_event};
use super::pair_map::{NOT_QUIET, PairKey, Visit};
use super::settings::SPECULATIVE_DISTANCE;
use super::step::{ContactPair, Impulses};
use super::{Collider, Event};
use crate::dynamics::{BodyTurn, SolverBody, WideContacts};
use crate::math::{Real, Vec2};
use crate::query::contact::{apart_room, contact_circle_circle_point};
use crate::query::{FeatureId, Manifold};
use slotmap::SlotMap;
use smallvec::smallvec;

/// The narrowphase's shared state while it walks the pairs.
pub(super) struct Pass<'a> {
    pub events: &'a mut Vec<Event>,
    pub colliders: &'a SlotMap<ColliderKey, Collider>,
    /// Room for every pair's edge; the first `touching_count` are this step's.
    pub touching_bodies: &'a mut [(u32, u32)],
    pub touching_count: usize,
    pub wide: &'a mut WideContacts,
    pub solver_bodies: &'a [SolverBody],
    pub solver_turns: &'a [BodyTurn],
}

/// One side of a pair: a circle centred on its body's centre of mass, or a
/// body the step does not move (see `ContactConstraint::is_round`).
#[inline(always)]
fn round_side(side: &ColliderNow) -> bool {
    side.solver_index == 0
        || side
            .circle()
            .is_some_and(|(center, _)| center == side.center)
}

/// The speculative margin of a pair (m): none for a sensor, which reports
/// overlap only.
#[inline(always)]
pub(super) fn margin(sensor: bool) -> Real {
    if sensor { 0.0 } else { SPECULATIVE_DISTANCE }
}

impl Pass<'_> {
    /// Visits a pair of two discs (`a`'s and `b`'s world circles) that is
    /// not quiet at `stamp`: what the general path does with a manifold of
    /// [`contact_circle_circle`](crate::query::contact::contact_circle_circle),
    /// then [`Self::finish`].
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub fn discs(
        &mut self,
        index: usize,
        key: &PairKey,
        quiet: &mut f64,
        pair: &mut ContactPair,
        impulses: &mut Impulses,
        (a, b): (&ColliderNow, &ColliderNow),
        ((center_a, radius_a), (center_b, radius_b)): ((Vec2, Real), (Vec2, Real)),
        stamp: f64,
    ) -> Visit {
        let margin = margin(pair.sensor);
        let Some((normal, point)) =
            contact_circle_circle_point(center_a, radius_a, center_b, radius_b, margin)
        else {
            // Apart: quiet for as much more motion as the discs have room.
            let room = apart_room(center_a, radius_a, center_b, radius_b, margin);
            pair.manifold = None;
            let disc_room = if room >= 0.0 && stamp.is_finite() {
                stamp + f64::from(room)
            } else {
                NOT_QUIET
            };
            return self.finish(index, key, quiet, disc_room, pair, impulses, (a, b));
        };
        match &mut pair.manifold {
            // Field by field: a whole point copied from the stack would
            // wait for the stores that just made it.
            Some(manifold) if manifold.points.len() == 1 => {
                manifold.normal = normal;
                let slot = &mut manifold.points[0];
                slot.point = point.point;
                slot.depth = point.depth;
                slot.id = point.id;
                slot.part_a = None;
                slot.part_b = None;
            }
            slot => {
                *slot = Some(Manifold {
                    normal,
                    points: smallvec![point],
                })
            }
        }
        self.finish(index, key, quiet, NOT_QUIET, pair, impulses, (a, b))
    }

    /// Finishes the visit of a pair whose manifold is fresh: its events,
    /// `touching`, its quiet threshold (`quiet_now`), its islands' edge and
    /// its constraint, warm-started from `impulses`, which then hold the
    /// new points' ids (cleared when the pair has no manifold).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub fn finish(
        &mut self,
        index: usize,
        key: &PairKey,
        quiet: &mut f64,
        quiet_now: f64,
        pair: &mut ContactPair,
        impulses: &mut Impulses,
        (a, b): (&ColliderNow, &ColliderNow),
    ) -> Visit {
        let sides = [a.colored_side(), b.colored_side()];
        // Some point at depth ≥ 0 (the deepest is, exactly when one is).
        let touching = match &pair.manifold {
            Some(manifold) => manifold.points.iter().any(|p| p.depth >= 0.0),
            None => {
                // Apart: no manifold, no impulses.
                impulses.clear();
                false
            }
        };
        let was_touching = pair.touching;
        if touching && !was_touching {
            self.events
                .push(began_event(key, pair.sensor, self.colliders));
        } else if !touching && was_touching {
            self.events
                .push(ended_event(key, pair.sensor, self.colliders));
        }
        pair.touching = touching;
        *quiet = quiet_now;
        if touching && !pair.sensor {
            self.touching_bodies[self.touching_count] = (a.body(), b.body());
            self.touching_count += 1;
        }
        // The pair's constraint, while its state is in cache: solid, with
        // a manifold, and some body simulated.
        let ContactPair {
            manifold,
            sensor,
            color,
            lane,
            ..
        } = pair;
        let Some(manifold) = manifold
            .as_ref()
            .filter(|_| !*sensor && (a.solver_index != 0 || b.solver_index != 0))
        else {
            self.wide.release(color, lane, sides);
            return Visit::Keep;
        };
        let old = &*impulses;
        let warm = |id: FeatureId| {
            old.iter()
                .find(|(stored, _, _)| *stored == id)
                .map_or((0.0, 0.0), |&(_, n, t)| (n, t))
        };
        let bodies = (a.solver_index as usize, b.solver_index as usize);
        let material = (
            (a.friction * b.friction).sqrt(),
            a.restitution.max(b.restitution),
        );
        // Written out for both sides: `all` over the pair was left out of
        // line, a call per constraint.
        let round = round_side(a) && round_side(b);
        let refreshed = self.wide.refresh_manifold(
            index as u32,
            (color, lane),
            self.solver_bodies,
            self.solver_turns,
            bodies,
            sides,
            (a.center, b.center),
            manifold,
            material,
            round,
            warm,
        );
        // The solver indices come from this step's table, so they are in
        // range; a refused pair would get no constraint and keep no
        // impulses.
        if refreshed.is_err() {
            self.wide.release(color, lane, sides);
            impulses.clear();
            return Visit::Keep;
        }
        // The new points' ids; the solver fills in their impulses.
        if impulses.len() == manifold.points.len() {
            for (stored, p) in impulses.iter_mut().zip(&manifold.points) {
                *stored = (p.id, 0.0, 0.0);
            }
        } else {
            impulses.clear();
            impulses.extend(manifold.points.iter().map(|p| (p.id, 0.0, 0.0)));
        }
        Visit::Keep
    }
}
