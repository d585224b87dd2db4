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
//! The pass reads bodies by key slot from flat arrays rebuilt each step and
//! the touching pairs' bodies from the list the narrowphase made (no map lookups).

use super::handles::{BodyKey, key_slot};
use super::{BodyHandle, BodyKind, Event, World};
use crate::math::Real;

/// "Not a dynamic body" in [`IslandScratch::index`].
const NONE: u32 = u32::MAX;

/// [`IslandScratch::flags`]: the body is dynamic.
const DYNAMIC: u8 = 1;
/// [`IslandScratch::flags`]: the body is awake.
const AWAKE: u8 = 2;
/// [`IslandScratch::flags`]: the body is static.
const STATIC: u8 = 4;

fn find(parent: &mut [u32], mut i: u32) -> u32 {
    while parent[i as usize] != i {
        parent[i as usize] = parent[parent[i as usize] as usize];
        i = parent[i as usize];
    }
    i
}

/// Buffers of the island pass, reused from step to step.
#[derive(Debug, Default)]
pub(crate) struct IslandScratch {
    /// Per body slot: its index among the dynamic bodies (handle order), or `NONE`.
    index: Vec<u32>,
    /// Per body slot: `DYNAMIC`, `AWAKE` and `STATIC` as the pass starts.
    flags: Vec<u8>,
    /// Union–find over the dynamic bodies.
    parent: Vec<u32>,
    /// Per dynamic body: its island's root.
    root: Vec<u32>,
    /// Per root: every body of the island may sleep.
    ready: Vec<bool>,
    /// Per root: some body of the island is awake (or was just touched).
    awake: Vec<bool>,
    /// Dynamic bodies touched by an awake moving body while asleep.
    woken: Vec<u32>,
    /// Bodies that wake up, in handle order.
    woke: Vec<BodyKey>,
}

impl World {
    /// Updates sleep timers, puts resting islands to sleep and wakes islands
    /// touched by moving bodies; sends `Slept` then `Woke` events.
    #[inline(never)]
    pub(crate) fn update_sleep(&mut self, dt: Real) {
        // Borrowed in place: the buffers keep their memory from step to step.
        let World {
            settings,
            bodies,
            scratch,
            events,
            id,
            ..
        } = self;
        let IslandScratch {
            index,
            flags,
            parent,
            root,
            ready,
            awake,
            woken,
            woke,
        } = &mut scratch.islands;
        if !settings.sleeping {
            // Sleeping off: every timer resets, nothing falls asleep, and
            // with no body asleep nothing can wake either, so the islands
            // are not needed. A body left asleep (sleeping was switched off
            // since) takes the full pass below, which resets the timers the same.
            let mut all_awake = true;
            for body in bodies.values_mut() {
                if body.kind == BodyKind::Dynamic {
                    body.sleep_time = 0.0;
                    all_awake &= body.awake;
                }
            }
            if all_awake {
                return;
            }
        }
        let slots = bodies.capacity() + 1;
        index.clear();
        index.resize(slots, NONE);
        flags.clear();
        flags.resize(slots, 0);
        parent.clear();
        woken.clear();
        for (key, body) in bodies.iter() {
            let slot = key_slot(key);
            let mut flag = if body.awake { AWAKE } else { 0 };
            match body.kind {
                BodyKind::Dynamic => {
                    index[slot] = parent.len() as u32;
                    parent.push(parent.len() as u32);
                    flag |= DYNAMIC;
                }
                BodyKind::Static => flag |= STATIC,
                BodyKind::Kinematic => {}
            }
            flags[slot] = flag;
        }
        for &(sa, sb) in scratch.touching_bodies.iter() {
            let (sa, sb) = (sa as usize, sb as usize);
            let (ia, ib) = (index[sa], index[sb]);
            if ia != NONE && ib != NONE {
                let (ra, rb) = (find(parent, ia), find(parent, ib));
                if ra != rb {
                    parent[ra.max(rb) as usize] = ra.min(rb);
                }
            }
            // A sleeping body touched by an awake moving one wakes up.
            let (fa, fb) = (flags[sa], flags[sb]);
            let moving = |f: u8| f & AWAKE != 0 && f & STATIC == 0;
            let sleeping = |f: u8| f & (DYNAMIC | AWAKE) == DYNAMIC;
            if sleeping(fa) && moving(fb) {
                woken.push(ia);
            }
            if sleeping(fb) && moving(fa) {
                woken.push(ib);
            }
        }
        let count = parent.len();
        ready.clear();
        ready.resize(count, true);
        awake.clear();
        awake.resize(count, false);
        root.clear();
        let dynamic = bodies
            .values_mut()
            .filter(|body| body.kind == BodyKind::Dynamic);
        for (i, body) in dynamic.enumerate() {
            // Angular speed counted at the body's size.
            let slow = body.linear_velocity.norm() <= settings.sleep_velocity
                && body.angular_velocity.abs() * body.max_extent <= settings.sleep_velocity;
            if !body.can_sleep || !slow || !settings.sleeping {
                body.sleep_time = 0.0;
            } else if body.awake {
                body.sleep_time += dt;
            }
            let r = find(parent, i as u32);
            root.push(r);
            if body.sleep_time < settings.time_to_sleep {
                ready[r as usize] = false;
            }
            if body.awake {
                awake[r as usize] = true;
            }
        }
        for &i in woken.iter() {
            let r = root[i as usize] as usize;
            ready[r] = false;
            awake[r] = true;
        }
        // Sleep and wake in one pass (the two never meet a body: sleeping
        // needs a ready island, waking one that is not); `Slept` events go
        // out as they come, `Woke` ones after all of them.
        woke.clear();
        let dynamic = bodies
            .iter_mut()
            .filter(|(_, body)| body.kind == BodyKind::Dynamic);
        for (i, (key, body)) in dynamic.enumerate() {
            let r = root[i] as usize;
            if ready[r] && body.awake && settings.sleeping {
                body.awake = false;
                body.linear_velocity = crate::math::Vec2::zeros();
                body.angular_velocity = 0.0;
                events.push(Event::Slept(BodyHandle { key, world: *id }));
            } else if !ready[r] && awake[r] && !body.awake {
                body.awake = true;
                body.sleep_time = 0.0;
                woke.push(key);
            }
        }
        for &key in woke.iter() {
            events.push(Event::Woke(BodyHandle { key, world: *id }));
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::math::{Real, vec2};
    use crate::world::scenes::{ball_pit, settle};
    use crate::world::{Event, WorldSettings};

    const DT: Real = 1.0 / 60.0;

    #[test]
    fn with_sleeping_off_timers_stay_zero_and_sleepers_wake_only_when_touched() {
        let (mut world, balls) = ball_pit(WorldSettings::default(), 60, 0.5, 8.0).unwrap();
        assert!(
            settle(&mut world, DT, 3_000).unwrap() < 3_000,
            "the pit settles"
        );
        let off = WorldSettings {
            sleeping: false,
            ..*world.settings()
        };
        world.set_settings(off).unwrap();
        world.step(DT).unwrap();
        // Nothing awake to touch them: they sleep on.
        assert!(world.bodies().all(|(_, b)| !b.is_awake()));
        // One ball woken: its island wakes with it at the next step.
        let top = *balls.last().unwrap();
        world.set_velocity(top, vec2(0.0, -1.0), 0.0).unwrap();
        let mut woke = 0;
        for _ in 0..3 {
            world.step(DT).unwrap();
            woke += world
                .events()
                .iter()
                .filter(|e| matches!(e, Event::Woke(_)))
                .count();
        }
        assert!(woke > 1, "the touched island wakes ({woke} bodies)");
        // All awake now with sleeping off: timers stay at zero, nobody sleeps.
        let (mut world, _) = ball_pit(off_settings(), 60, 0.5, 8.0).unwrap();
        for _ in 0..300 {
            world.step(DT).unwrap();
            assert!(world.events().iter().all(|e| !matches!(e, Event::Slept(_))));
        }
        let dynamic = || world.bodies.values().filter(|b| b.is_dynamic());
        assert!(dynamic().all(|b| b.sleep_time == 0.0 && b.awake));
    }

    fn off_settings() -> WorldSettings {
        WorldSettings {
            sleeping: false,
            ..WorldSettings::default()
        }
    }
}
