//! Islands and sleeping.
//!
//! An island is a set of dynamic bodies connected by touching, non-sensor
//! contacts (static bodies do not join islands). A body's sleep timer grows
//! while its speed stays under `sleep_velocity` (angular speed counted at the
//! body's largest extent about its centre of mass) and resets otherwise; an island falls asleep when every body
//! in it has slept-timer ≥ `time_to_sleep`. A sleeping body is woken by any
//! setter, force or impulse, and by a touching contact with an awake moving
//! body; waking one body wakes its whole island at the next step.
//!
//! Union–find runs over bodies in handle order, so the result is deterministic.

use super::handles::BodyKey;
use super::{BodyHandle, BodyKind, Event, World};
use crate::math::Real;
use slotmap::SecondaryMap;

fn find(parent: &mut [usize], mut i: usize) -> usize {
    while parent[i] != i {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    i
}

/// Buffers of the island pass, reused from step to step.
#[derive(Debug, Default)]
pub(crate) struct IslandScratch {
    /// Dynamic bodies in handle order, and each one's index among them.
    keys: Vec<BodyKey>,
    index: SecondaryMap<BodyKey, usize>,
    parent: Vec<usize>,
    ready: Vec<bool>,
    awake: Vec<bool>,
    woken: Vec<BodyKey>,
}

impl World {
    /// Updates sleep timers, puts resting islands to sleep and wakes islands
    /// touched by moving bodies; sends `Slept` then `Woke` events.
    pub(crate) fn update_sleep(&mut self, dt: Real) {
        // Borrowed in place: a fresh SecondaryMap would allocate.
        let World {
            settings,
            bodies,
            colliders,
            contacts,
            scratch,
            events,
            id,
            ..
        } = self;
        let IslandScratch {
            keys,
            index,
            parent,
            ready,
            awake,
            woken,
        } = &mut scratch.islands;
        keys.clear();
        index.clear();
        woken.clear();
        for (key, body) in bodies.iter() {
            if body.kind == BodyKind::Dynamic {
                index.insert(key, keys.len());
                keys.push(key);
            }
        }
        parent.clear();
        parent.extend(0..keys.len());
        for ((a, b), pair) in contacts.iter() {
            if !pair.touching || pair.sensor {
                continue;
            }
            let (Some(ca), Some(cb)) = (colliders.get(a.key), colliders.get(b.key)) else {
                continue;
            };
            let (ka, kb) = (ca.body.key, cb.body.key);
            if let (Some(&ia), Some(&ib)) = (index.get(ka), index.get(kb)) {
                let (ra, rb) = (find(parent, ia), find(parent, ib));
                if ra != rb {
                    parent[ra.max(rb)] = ra.min(rb);
                }
            }
            // A sleeping body touched by an awake moving one wakes up.
            for (sleeper, other) in [(ka, kb), (kb, ka)] {
                let (Some(s), Some(o)) = (bodies.get(sleeper), bodies.get(other)) else {
                    continue;
                };
                if s.kind == BodyKind::Dynamic && !s.awake && o.awake && o.kind != BodyKind::Static
                {
                    woken.push(sleeper);
                }
            }
        }
        ready.clear();
        ready.resize(keys.len(), true);
        awake.clear();
        awake.resize(keys.len(), false);
        for (i, key) in keys.iter().enumerate() {
            let body = &mut bodies[*key];
            // Angular speed counted at the body's size.
            let slow = body.linear_velocity.norm() <= settings.sleep_velocity
                && body.angular_velocity.abs() * body.max_extent <= settings.sleep_velocity;
            if !body.can_sleep || !slow || !settings.sleeping {
                body.sleep_time = 0.0;
            } else if body.awake {
                body.sleep_time += dt;
            }
            let root = find(parent, i);
            if body.sleep_time < settings.time_to_sleep {
                ready[root] = false;
            }
            if body.awake {
                awake[root] = true;
            }
        }
        for key in woken.iter() {
            if let Some(&i) = index.get(*key) {
                let root = find(parent, i);
                ready[root] = false;
                awake[root] = true;
            }
        }
        for (i, key) in keys.iter().enumerate() {
            let root = find(parent, i);
            let body = &mut bodies[*key];
            if ready[root] && body.awake && settings.sleeping {
                body.awake = false;
                body.linear_velocity = crate::math::Vec2::zeros();
                body.angular_velocity = 0.0;
                events.push(Event::Slept(BodyHandle {
                    key: *key,
                    world: *id,
                }));
            }
        }
        for (i, key) in keys.iter().enumerate() {
            let root = find(parent, i);
            let body = &mut bodies[*key];
            if !ready[root] && awake[root] && !body.awake {
                body.awake = true;
                body.sleep_time = 0.0;
                events.push(Event::Woke(BodyHandle {
                    key: *key,
                    world: *id,
                }));
            }
        }
    }
}
