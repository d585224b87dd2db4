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
//! A sleeping island does not change while it sleeps: its bodies do not
//! move, and a pair between two sleeping (or static) bodies keeps its
//! state. So an island that falls asleep is kept as a *ring*: each member
//! names the next one (`Body::sleep_next`, in handle order, the last naming
//! the first). A step then only looks at the awake bodies and the touching
//! pairs with an awake side: union–find over the awake dynamic bodies, and
//! the rings of sleeping bodies that an awake moving body touches, or that
//! a setter woke, wake whole; sleeping bodies only have their flags read.
//! The rings are derived, not part of the state: a world without
//! them (a restored snapshot, a removed body) takes one full pass over every
//! body and every touching pair, which rebuilds them and decides exactly
//! what the ring pass decides.
//!
//! Invariants:
//! - a dynamic body is asleep exactly when it is in a ring (once the rings
//!   are known), and each ring is one island;
//! - union–find runs over bodies in handle order, and every event goes out
//!   in handle order (`Slept`, then `Woke`), so the result is deterministic;
//! - the pass reads bodies by key slot from flat arrays and the touching
//!   pairs' bodies from the list the narrowphase made (no map lookups).
//!
//! **Reused islands.** A ring pass that puts no body to sleep and wakes
//! none leaves the next pass the same members, in the same order, and its
//! roots (`IslandScratch::root`: each member's island named by its least
//! member index, which union–find by least index gives whatever the order
//! of the joins). When, in the next step, no body was edited and no solid
//! pair of two dynamic bodies stopped touching (it would have sent
//! `Ended`), every edge of then is still there, so this step's islands are
//! those islands joined by the pairs that began touching (`Began`): the
//! pass starts from the roots and joins only those, instead of every
//! touching pair (the ball pit of the peer comparison does so at a third
//! of its steps). The result is the same partition with the same roots,
//! checked against a fresh join in debug builds.
//!
//! **The awake list.** A ring pass ends by listing the bodies awake after
//! it (`Scratch::awake_bodies`, handle order), leaving the flags of every
//! body not in the list right (static, or asleep with its key) and every
//! member index cleared. The next step's solver set-up and ring pass then
//! read only the listed bodies, so a sleeping body costs nothing per step.
//! Anything that may wake a body outside the pass (every edit of a body,
//! a projectile's push within the step) clears `Scratch::awake_known`: that
//! step reads every body and rebuilds the arrays, as before.

use super::handles::{BodyKey, ColliderHandle, ColliderKey, key_slot};
use super::{Body, BodyHandle, BodyKind, Collider, Event, World};
use crate::math::Real;
use slotmap::SlotMap;

/// "Not an island member" in [`IslandScratch::index`].
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

/// An awake body that moves (dynamic or kinematic) and so wakes sleepers it touches.
fn moving(flags: u8) -> bool {
    flags & AWAKE != 0 && flags & STATIC == 0
}

/// A sleeping dynamic body.
fn sleeping(flags: u8) -> bool {
    flags & (DYNAMIC | AWAKE) == DYNAMIC
}

/// Buffers of the island pass, reused from step to step.
#[derive(Debug, Default)]
pub(crate) struct IslandScratch {
    /// The sleeping bodies' rings are known (see the module docs). False in
    /// a fresh or restored world and after a body is removed: the next pass
    /// is a full one. Read by the narrowphase, which reports the touching
    /// pairs between sleeping bodies only for a full pass.
    pub rings_known: bool,
    /// The last pass was a ring pass that put no body to sleep and woke
    /// none: `root` holds its members' islands (see "Reused islands").
    reusable: bool,
    /// Ring passes that reused the last pass's islands (tests read it).
    #[cfg(test)]
    pub reused: u64,
    /// Debug builds: the islands joined afresh, to check a reuse against.
    #[cfg(debug_assertions)]
    fresh: Vec<u32>,
    /// Per body slot: its index among the island members, or `NONE`.
    index: Vec<u32>,
    /// Per body slot: `DYNAMIC`, `AWAKE` and `STATIC` as the pass starts.
    flags: Vec<u8>,
    /// Per body slot: the key of a sleeping dynamic body (ring pass).
    keys: Vec<BodyKey>,
    /// The island members (handle order): the awake dynamic bodies in the
    /// ring pass, every dynamic body in the full pass.
    members: Vec<BodyKey>,
    /// Union–find over the members.
    parent: Vec<u32>,
    /// Per member: its island's root.
    root: Vec<u32>,
    /// Per root: every body of the island may sleep.
    ready: Vec<bool>,
    /// Per root: some body of the island is awake (or was just touched).
    awake: Vec<bool>,
    /// Full pass: members touched by an awake moving body while asleep.
    /// Ring pass: members whose island touches a sleeper (it wakes that one,
    /// so it cannot sleep itself).
    woken: Vec<u32>,
    /// Ring pass: a body of each ring to wake.
    rings: Vec<BodyKey>,
    /// Per root: first and last body linked into its ring so far.
    first: Vec<Option<BodyKey>>,
    last: Vec<Option<BodyKey>>,
    /// Bodies that wake up.
    woke: Vec<BodyKey>,
    /// Ring pass: bodies that fall asleep (handle order).
    slept: Vec<BodyKey>,
    /// Ring pass: the bodies awake as it starts (handle order).
    started: Vec<BodyKey>,
}

impl IslandScratch {
    /// Empties the per-pass buffers, with room for `slots` body slots.
    fn reset(&mut self, slots: usize) {
        self.reusable = false;
        self.index.clear();
        self.index.resize(slots, NONE);
        self.flags.clear();
        self.flags.resize(slots, 0);
        self.keys.clear();
        self.keys.resize(slots, BodyKey::default());
        self.clear_lists();
    }

    /// Empties the per-pass lists, keeping the per-slot arrays.
    fn clear_lists(&mut self) {
        self.members.clear();
        self.parent.clear();
        self.woken.clear();
        self.rings.clear();
    }
}

impl World {
    /// Updates sleep timers, puts resting islands to sleep and wakes islands
    /// touched by moving bodies; sends `Slept` then `Woke` events.
    #[inline(never)]
    pub(crate) fn update_sleep(&mut self, dt: Real) {
        if !self.settings.sleeping && self.scratch.all_dynamic_awake {
            // Sleeping off: every timer resets, nothing falls asleep, and
            // with no body asleep nothing can wake either, so the islands
            // are not needed. The step's `prepare_solver` reset the timers
            // and found every dynamic body awake (nothing in a step puts
            // one to sleep before this). A body left asleep (sleeping was
            // switched off since) takes the pass below, which resets the
            // timers the same. Only a ring pass lists the awake bodies.
            self.scratch.awake_known = false;
            return;
        }
        if self.scratch.islands.rings_known {
            // It lists the awake bodies for the next step.
            self.ring_pass(dt);
        } else {
            self.full_pass(dt);
            self.scratch.awake_known = false;
        }
    }

    /// The pass over the awake bodies (see the module docs).
    fn ring_pass(&mut self, dt: Real) {
        let slots = self.bodies.capacity() + 1;
        // The last ring pass left every body not awake now with its flags
        // and every index at `NONE`, unless a body was edited since (and
        // the slots are as many): then only the awake bodies are read.
        let listed = self.scratch.awake_known && self.scratch.islands.flags.len() == slots;
        if listed {
            self.scratch.islands.clear_lists();
        } else {
            self.scratch.islands.reset(slots);
        }
        // Borrowed in place: the buffers keep their memory from step to step.
        let World {
            settings,
            bodies,
            colliders,
            scratch,
            events,
            id,
            ..
        } = self;
        let IslandScratch {
            index,
            flags,
            keys,
            members,
            parent,
            root,
            ready,
            woken,
            rings,
            first,
            last,
            woke,
            slept,
            started,
            reusable,
            #[cfg(debug_assertions)]
            fresh,
            #[cfg(test)]
            reused,
            ..
        } = &mut scratch.islands;
        let mut visit = |key: BodyKey, body: &Body| {
            let slot = key_slot(key);
            let mut flag = if body.awake { AWAKE } else { 0 };
            match body.kind {
                BodyKind::Dynamic if body.awake => {
                    flag |= DYNAMIC;
                    // Woken by a setter while asleep: its ring wakes, and
                    // its island cannot fall asleep in the same pass.
                    if body.sleep_next.is_some() {
                        rings.push(key);
                        woken.push(parent.len() as u32);
                    }
                    index[slot] = parent.len() as u32;
                    parent.push(parent.len() as u32);
                    members.push(key);
                }
                BodyKind::Dynamic => {
                    flag |= DYNAMIC;
                    keys[slot] = key;
                }
                BodyKind::Static => flag |= STATIC,
                BodyKind::Kinematic => {}
            }
            flags[slot] = flag;
        };
        let awake_bodies = &mut scratch.awake_bodies;
        started.clear();
        if listed {
            for &key in awake_bodies.iter() {
                if let Some(body) = bodies.get(key).filter(|body| body.awake) {
                    visit(key, body);
                    started.push(key);
                }
            }
        } else {
            for (key, body) in bodies.iter() {
                visit(key, body);
                if body.awake {
                    started.push(key);
                }
            }
        }
        // The narrowphase left out the pairs with no awake side.
        let touching = scratch
            .touching_bodies
            .get(..scratch.touching_count)
            .unwrap_or_default();
        // The same members as at the last pass, and every edge of then
        // still here (a solid pair of two dynamic bodies that stops
        // touching sends `Ended`): its islands, joined by the edges that
        // began (see "Reused islands").
        let reuse = listed
            && *reusable
            && rings.is_empty()
            && root.len() == parent.len()
            && !events.iter().any(|e| ends_edge(e, colliders, bodies));
        let mut touched = |sleeper: usize, _, mover| {
            rings.push(keys[sleeper]);
            if mover != NONE {
                woken.push(mover);
            }
        };
        // Debug builds join every edge afresh beside a reuse, to compare
        // (the room grows with the members, as `parent` does).
        #[cfg(debug_assertions)]
        {
            fresh.clear();
            fresh.extend(0..parent.len() as u32);
        }
        if reuse {
            #[cfg(test)]
            {
                *reused += 1;
            }
            parent.copy_from_slice(root);
            let began = events.iter().filter_map(|e| began_edge(e, colliders));
            #[cfg(debug_assertions)]
            let mut calls = 0;
            join_edges(began, index, flags, parent, |sleeper, i, mover| {
                #[cfg(debug_assertions)]
                {
                    calls += 1;
                }
                touched(sleeper, i, mover);
            });
            #[cfg(debug_assertions)]
            check_reused(touching, index, flags, parent, fresh, calls);
        } else {
            join_touching(touching, index, flags, parent, &mut touched);
        }
        let count = parent.len();
        tick_members(
            bodies,
            members,
            parent,
            root,
            ready,
            settings,
            dt,
            |_, _| {},
        );
        for &i in woken.iter() {
            ready[root[i as usize] as usize] = false;
        }
        // Islands that fall asleep, in handle order, each linked into a ring.
        open_rings(first, last, count);
        slept.clear();
        for (i, &key) in members.iter().enumerate() {
            let r = root[i] as usize;
            if ready[r] && settings.sleeping {
                fall_asleep(&mut bodies[key]);
                events.push(Event::Slept(BodyHandle { key, world: *id }));
                link(bodies, &mut first[r], &mut last[r], key);
                slept.push(key);
            }
        }
        close_rings(bodies, first, last);
        // Whole rings wake, `Woke` events in handle order after every `Slept`.
        woke.clear();
        for &key in rings.iter() {
            wake_ring(bodies, key, woke);
        }
        woke.sort_unstable_by_key(|&key| key_slot(key));
        for &key in woke.iter() {
            events.push(Event::Woke(BodyHandle { key, world: *id }));
        }
        // Leave what the next ring pass reads without looking at every
        // body: no index set, the flags of the bodies that fell asleep, and
        // the awake bodies (those awake before and still, and those woken;
        // both lists in handle order, neither in the other).
        for &key in members.iter() {
            index[key_slot(key)] = NONE;
        }
        for &key in slept.iter() {
            flags[key_slot(key)] = DYNAMIC;
            keys[key_slot(key)] = key;
        }
        let mut asleep_now = slept.iter().peekable();
        started.retain(|&key| asleep_now.next_if_eq(&&key).is_none());
        merge_by_slot(started, woke, awake_bodies);
        scratch.awake_known = true;
        *reusable = slept.is_empty() && woke.is_empty();
    }

    /// The pass over every body and every touching pair, which also builds
    /// the rings of every sleeping island.
    fn full_pass(&mut self, dt: Real) {
        self.scratch.islands.reset(self.bodies.capacity() + 1);
        let World {
            settings,
            bodies,
            scratch,
            events,
            id,
            ..
        } = self;
        let IslandScratch {
            rings_known,
            index,
            flags,
            members,
            parent,
            root,
            ready,
            awake,
            woken,
            first,
            last,
            woke,
            ..
        } = &mut scratch.islands;
        for (key, body) in bodies.iter() {
            let slot = key_slot(key);
            let mut flag = if body.awake { AWAKE } else { 0 };
            match body.kind {
                BodyKind::Dynamic => {
                    index[slot] = parent.len() as u32;
                    parent.push(parent.len() as u32);
                    members.push(key);
                    flag |= DYNAMIC;
                }
                BodyKind::Static => flag |= STATIC,
                BodyKind::Kinematic => {}
            }
            flags[slot] = flag;
        }
        // A sleeping body touched by an awake moving one wakes up.
        let touching = scratch
            .touching_bodies
            .get(..scratch.touching_count)
            .unwrap_or_default();
        join_touching(touching, index, flags, parent, |_, sleeper, _| {
            woken.push(sleeper);
        });
        let count = parent.len();
        awake.clear();
        awake.resize(count, false);
        tick_members(
            bodies,
            members,
            parent,
            root,
            ready,
            settings,
            dt,
            |r, body| {
                awake[r] |= body.awake;
            },
        );
        for &i in woken.iter() {
            let r = root[i as usize] as usize;
            ready[r] = false;
            awake[r] = true;
        }
        // Sleep and wake in one pass (the two never meet a body: sleeping
        // needs a ready island, waking one that is not); `Slept` events go
        // out as they come, `Woke` ones after all of them. Every body left
        // asleep is linked into its island's ring.
        woke.clear();
        open_rings(first, last, count);
        for (i, &key) in members.iter().enumerate() {
            let r = root[i] as usize;
            let body = &mut bodies[key];
            body.sleep_next = None;
            if ready[r] && body.awake && settings.sleeping {
                fall_asleep(body);
                events.push(Event::Slept(BodyHandle { key, world: *id }));
            } else if !ready[r] && awake[r] && !body.awake {
                body.awake = true;
                body.sleep_time = 0.0;
                woke.push(key);
            }
            if !bodies[key].awake {
                link(bodies, &mut first[r], &mut last[r], key);
            }
        }
        close_rings(bodies, first, last);
        for &key in woke.iter() {
            events.push(Event::Woke(BodyHandle { key, world: *id }));
        }
        *rings_known = true;
    }
}

/// Joins the islands of every touching pair's two members (body slots
/// `touching`), and calls `touched(sleeper slot, sleeper index, mover
/// index)` for each side that sleeps while the other moves (indices
/// `NONE` for non-members).
fn join_touching(
    touching: &[(u32, u32)],
    index: &[u32],
    flags: &[u8],
    parent: &mut [u32],
    touched: impl FnMut(usize, u32, u32),
) {
    join_edges(touching.iter().copied(), index, flags, parent, touched);
}

/// The loop of [`join_touching`] over `edges`.
#[inline(always)]
fn join_edges(
    edges: impl Iterator<Item = (u32, u32)>,
    index: &[u32],
    flags: &[u8],
    parent: &mut [u32],
    mut touched: impl FnMut(usize, u32, u32),
) {
    for (sa, sb) in edges {
        let (sa, sb) = (sa as usize, sb as usize);
        let (ia, ib) = (index[sa], index[sb]);
        if ia != NONE && ib != NONE {
            let (ra, rb) = (find(parent, ia), find(parent, ib));
            if ra != rb {
                parent[ra.max(rb) as usize] = ra.min(rb);
            }
        }
        let (fa, fb) = (flags[sa], flags[sb]);
        if sleeping(fa) && moving(fb) {
            touched(sa, ia, ib);
        }
        if sleeping(fb) && moving(fa) {
            touched(sb, ib, ia);
        }
    }
}

/// Whether `event` takes an edge out of the islands' graph: a solid pair of
/// two dynamic bodies (only those can be members) stopped touching. A
/// collider or body not found counts as one.
fn ends_edge(
    event: &Event,
    colliders: &SlotMap<ColliderKey, Collider>,
    bodies: &SlotMap<BodyKey, Body>,
) -> bool {
    let Event::Ended(a, b) = event else {
        return false;
    };
    let dynamic = |c: &ColliderHandle| {
        colliders
            .get(c.key)
            .and_then(|c| bodies.get(c.body.key))
            .is_none_or(|body| body.kind == BodyKind::Dynamic)
    };
    dynamic(a) && dynamic(b)
}

/// The body slots of a pair that began touching in this step (a solid
/// pair: sensors send `SensorEntered`), as `touching_bodies` holds them.
fn began_edge(event: &Event, colliders: &SlotMap<ColliderKey, Collider>) -> Option<(u32, u32)> {
    let Event::Began(a, b) = event else {
        return None;
    };
    let body = |c: &ColliderHandle| colliders.get(c.key).map(|c| key_slot(c.body.key) as u32);
    body(a).zip(body(b))
}

/// In debug builds, checks that reused islands are those of every edge
/// joined afresh in `fresh` (a root is the least member index of its
/// island either way, so the two agree member by member), and that the
/// edges joined found as many sleepers touched (`calls`) as all of them.
#[cfg(debug_assertions)]
fn check_reused(
    touching: &[(u32, u32)],
    index: &[u32],
    flags: &[u8],
    parent: &mut [u32],
    fresh: &mut [u32],
    calls: usize,
) {
    let mut all = 0;
    join_touching(touching, index, flags, fresh, |_, _, _| all += 1);
    assert_eq!(calls, all, "sleepers touched");
    for i in 0..parent.len() as u32 {
        assert_eq!(find(parent, i), find(fresh, i), "member {i}");
    }
}

/// Ticks every member's timer, records its island's root in `root` and
/// clears `ready` for islands with a member not ready; `each(root, body)`
/// sees every member after its tick.
#[allow(clippy::too_many_arguments)]
fn tick_members(
    bodies: &mut SlotMap<BodyKey, Body>,
    members: &[BodyKey],
    parent: &mut [u32],
    root: &mut Vec<u32>,
    ready: &mut Vec<bool>,
    settings: &super::WorldSettings,
    dt: Real,
    mut each: impl FnMut(usize, &Body),
) {
    ready.clear();
    ready.resize(parent.len(), true);
    root.clear();
    for (i, &key) in members.iter().enumerate() {
        let body = &mut bodies[key];
        tick(body, settings, dt);
        let r = find(parent, i as u32);
        root.push(r);
        if body.sleep_time < settings.time_to_sleep {
            ready[r as usize] = false;
        }
        each(r as usize, body);
    }
}

/// Advances an island member's sleep timer: it grows while the body is
/// slow (angular speed counted at the body's size) and resets otherwise.
fn tick(body: &mut Body, settings: &super::WorldSettings, dt: Real) {
    let slow = body.linear_velocity.norm() <= settings.sleep_velocity
        && body.angular_velocity.abs() * body.max_extent <= settings.sleep_velocity;
    if !body.can_sleep || !slow || !settings.sleeping {
        body.sleep_time = 0.0;
    } else if body.awake {
        body.sleep_time += dt;
    }
}

/// Puts a body to sleep. Its solver index goes to 0, as `prepare_solver`
/// leaves every body it does not simulate (it reads only the awake ones
/// while the islands list them).
fn fall_asleep(body: &mut Body) {
    body.awake = false;
    body.solver_index = 0;
    body.linear_velocity = crate::math::Vec2::zeros();
    body.angular_velocity = 0.0;
}

/// Writes the keys of `a` and `b` (each in handle order) into `out` in
/// handle order.
fn merge_by_slot(a: &[BodyKey], b: &[BodyKey], out: &mut Vec<BodyKey>) {
    out.clear();
    let (mut a, mut b) = (a.iter().peekable(), b.iter().peekable());
    loop {
        let next = match (a.peek(), b.peek()) {
            (Some(&&x), Some(&&y)) if key_slot(x) <= key_slot(y) => a.next(),
            (Some(_), Some(_)) => b.next(),
            (Some(_), None) => a.next(),
            (None, _) => b.next(),
        };
        match next {
            Some(&key) => out.push(key),
            None => return,
        }
    }
}

/// Empty ring ends (`first`, `last`) for `count` islands.
fn open_rings(first: &mut Vec<Option<BodyKey>>, last: &mut Vec<Option<BodyKey>>, count: usize) {
    first.clear();
    first.resize(count, None);
    last.clear();
    last.resize(count, None);
}

/// Appends `key` to the ring being built from `first` to `last`.
fn link(
    bodies: &mut SlotMap<BodyKey, Body>,
    first: &mut Option<BodyKey>,
    last: &mut Option<BodyKey>,
    key: BodyKey,
) {
    match *last {
        Some(previous) => bodies[previous].sleep_next = Some(key),
        None => *first = Some(key),
    }
    *last = Some(key);
}

/// Closes every ring built: its last body names its first.
fn close_rings(
    bodies: &mut SlotMap<BodyKey, Body>,
    first: &[Option<BodyKey>],
    last: &[Option<BodyKey>],
) {
    for (first, last) in first.iter().zip(last) {
        if let (Some(first), Some(last)) = (first, last) {
            bodies[*last].sleep_next = Some(*first);
        }
    }
}

/// Wakes every sleeping body of the ring through `start` and unlinks them
/// all (a ring already woken this pass has no links left: the walk stops at
/// once). The walk is bounded by the body count.
fn wake_ring(bodies: &mut SlotMap<BodyKey, Body>, start: BodyKey, woke: &mut Vec<BodyKey>) {
    let mut at = start;
    for _ in 0..bodies.len() {
        let Some(body) = bodies.get_mut(at) else {
            return;
        };
        let next = body.sleep_next.take();
        if !body.awake {
            body.awake = true;
            body.sleep_time = 0.0;
            woke.push(at);
        }
        match next {
            Some(next) if next != start => at = next,
            _ => return,
        }
    }
}

#[cfg(test)]
#[path = "islands_tests.rs"]
mod tests;
