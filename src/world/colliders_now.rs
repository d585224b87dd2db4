//! [`ColliderTable`]: every collider's world placement at the start of a
//! step, computed once per collider instead of once per contact pair.
//!
//! Indexed by the collider key's slot, so a pair finds both of its colliders
//! with two array reads; each entry remembers the key version it was made
//! for, so a stale key finds nothing. The values are exactly those the
//! narrowphase would compute for itself (the same expressions in the same
//! order), so using them changes no result. Refreshed at every step by
//! [`World::update_contacts`](super::World); not part of the state.
//!
//! While few bodies are awake, only the colliders of bodies awake now or
//! at the last refresh are recomputed: nothing else can have moved, since the entry of a sleeping
//! or static body changes only through an edit (a collider added or
//! removed, a body removed or placed), and every such edit calls
//! [`ColliderTable::invalidate`], after which the next refresh recomputes
//! every entry. A fresh table (a new, cloned or restored world) starts invalid.
//!
//! **Epochs.** The table counts its *rest epoch*: it moves on at every
//! refresh that finds a body awake whose entry said it was not, and (to
//! be safe, though the edits of today either wake the bodies they touch or
//! drop their pairs themselves) at the first refresh after an edit; it
//! stays otherwise. So while it stays, every body at rest (asleep or
//! static) at the last refresh still is, and nothing about it has
//! changed: the contact map passes over pairs of two such bodies (see
//! `pair_map`). It starts at 1 and only grows (64 bits never wrap).

use super::handles::{BodyKey, ColliderKey, key_slot, key_version};
use super::{Body, Collider};
use crate::broadphase::{Bounds, BroadPhase};
use crate::math::{Pose, Real, Vec2};
use crate::shape::Shape;
use slotmap::SlotMap;

/// One collider at the start of the step.
///
/// One entry is two cache lines, aligned to them: the first holds all that
/// a pair of two discs reads, so such a pair reads one line of each entry
/// (in a pile too large for the cache, every line read is a wait); the
/// second the pose, which only the other shapes read. The fat box, the
/// circle and the body's flags are packed to fit (see the accessors).
#[derive(Clone, Copy, Debug)]
#[repr(C, align(64))]
pub(crate) struct ColliderNow {
    /// For a circle tree or a circle: its body's motion reading over the
    /// shape's reach (see `motion.rs`; only differences mean anything); +∞
    /// otherwise.
    pub motion: f64,
    /// The proxy's fat box (world) as `[min x, min y, max x, max y]`;
    /// [`NO_BOX`], which overlaps nothing, without a proxy.
    fat: [Real; 4],
    /// For a circle: its world centre and radius (metres); the radius is
    /// NaN for any other shape.
    circle_center: Vec2,
    circle_radius: Real,
    /// The body's centre of mass (world), as its sweep starts the step.
    pub center: Vec2,
    /// Slot of the collider's body, with [`AWAKE`] and [`DYNAMIC`] set
    /// above it.
    body: u32,
    /// The body's index among this step's solver bodies (0: not simulated).
    pub solver_index: u32,
    /// The collider's friction and restitution coefficients.
    pub friction: Real,
    pub restitution: Real,
    /// Version of the collider key this entry was made for (0: empty slot).
    version: u32,
    /// World pose of the shape: body pose ∘ local pose.
    pub pose: Pose,
}

/// The fat box of a collider without a proxy: inverted, so no box overlaps it.
const NO_BOX: [Real; 4] = [
    Real::INFINITY,
    Real::INFINITY,
    Real::NEG_INFINITY,
    Real::NEG_INFINITY,
];

/// [`ColliderNow::body`] flag: the body is awake (never set for static bodies).
const AWAKE: u32 = 1 << 31;
/// [`ColliderNow::body`] flag: the body is dynamic.
const DYNAMIC: u32 = 1 << 30;
/// The bits of [`ColliderNow::body`] that hold the slot: a world holds far
/// fewer than 2^30 bodies (each takes hundreds of bytes).
const SLOT: u32 = DYNAMIC - 1;

impl ColliderNow {
    /// The slot of the collider's body.
    #[inline(always)]
    pub fn body(&self) -> u32 {
        self.body & SLOT
    }

    /// The body is awake (never set for static bodies).
    #[inline(always)]
    pub fn awake(&self) -> bool {
        self.body & AWAKE != 0
    }

    /// The body is dynamic: it takes its contacts' solver colours.
    #[inline(always)]
    pub fn dynamic(&self) -> bool {
        self.body & DYNAMIC != 0
    }

    /// The slot of the body if it is dynamic: the side of a contact that
    /// takes a solver colour (see `dynamics::wide_persistent`).
    #[inline]
    pub fn colored_side(&self) -> Option<u32> {
        self.dynamic().then_some(self.body())
    }

    /// The proxy's fat box (world); `None` without a proxy.
    #[inline]
    pub fn fat(&self) -> Option<Bounds> {
        let [x0, y0, x1, y1] = self.fat;
        Bounds::new(Vec2::new(x0, y0), Vec2::new(x1, y1)).ok()
    }

    /// Records the proxy's fat box.
    #[inline]
    fn set_fat(&mut self, fat: Option<Bounds>) {
        self.fat = fat.map_or(NO_BOX, |b| [b.min().x, b.min().y, b.max().x, b.max().y]);
    }

    /// True when both colliders have proxies whose fat boxes overlap or
    /// touch ([`Bounds::overlaps`] on the stored boxes).
    #[inline(always)]
    pub fn fat_overlaps(&self, other: &ColliderNow) -> bool {
        let ([ax0, ay0, ax1, ay1], [bx0, by0, bx1, by1]) = (self.fat, other.fat);
        ax0 <= bx1 && bx0 <= ax1 && ay0 <= by1 && by0 <= ay1
    }

    /// For a circle: its world centre and radius (metres).
    #[inline(always)]
    pub fn circle(&self) -> Option<(Vec2, Real)> {
        (!self.circle_radius.is_nan()).then_some((self.circle_center, self.circle_radius))
    }
}

impl ColliderNow {
    const EMPTY: ColliderNow = ColliderNow {
        motion: f64::INFINITY,
        fat: NO_BOX,
        circle_center: Vec2::new(0.0, 0.0),
        circle_radius: Real::NAN,
        center: Vec2::new(0.0, 0.0),
        body: SLOT,
        solver_index: 0,
        friction: 0.0,
        restitution: 0.0,
        version: 0,
        pose: Pose::IDENTITY,
    };
}

/// A refresh recomputes only the entries of awake bodies while fewer than
/// one body in this many is awake; otherwise it recomputes every entry.
const PARTIAL_SHARE: usize = 4;

/// Every live collider's [`ColliderNow`], by key slot.
#[derive(Debug, Default)]
pub(crate) struct ColliderTable {
    entries: Vec<ColliderNow>,
    /// Every entry of a body not in `last_awake` matches the world.
    valid: bool,
    /// The bodies awake at the last refresh, if it found few of them.
    last_awake: Vec<BodyKey>,
    /// Every live entry's `fat` is its proxy's stored box: true after a
    /// refresh, kept by [`Self::set_fat`] when the step moves a proxy,
    /// false after an edit. While true a refresh copies `fat` from the old
    /// entry instead of reading the broadphase tree.
    fats_current: bool,
    /// The rest epoch (see the module docs); 0 before the first refresh.
    epoch: u64,
    /// A refresh found a body awake whose entry said it was not.
    woke: bool,
}

impl ColliderTable {
    /// Marks every entry for recomputing at the next refresh (after an edit).
    pub fn invalidate(&mut self) {
        self.valid = false;
        self.fats_current = false;
    }

    /// Records that the proxy of `key` was re-inserted with the stored box
    /// `fat` (the step's proxy moves, after the narrowphase read the table).
    pub fn set_fat(&mut self, key: ColliderKey, fat: Option<Bounds>) {
        if let Some(entry) = self.entries.get_mut(key_slot(key))
            && entry.version == key_version(key)
        {
            entry.set_fat(fat);
        }
    }

    /// Brings the table up to date with the world's colliders, bodies and
    /// proxies; `awake` lists the bodies awake now.
    pub fn refresh(
        &mut self,
        colliders: &SlotMap<ColliderKey, Collider>,
        bodies: &mut SlotMap<BodyKey, Body>,
        broad_phase: &BroadPhase<ColliderKey>,
        awake: impl ExactSizeIterator<Item = BodyKey> + Clone,
    ) {
        // With many bodies awake, one pass in slot order over every
        // collider costs less than finding the awake ones by key; then the
        // awake bodies are not recorded and the next refresh is whole too.
        let few = awake.len() * PARTIAL_SHARE < bodies.len();
        // After an edit, entries may have changed without a body waking.
        let edited = !self.fats_current;
        self.woke = false;
        if self.valid && few {
            let last_awake = std::mem::take(&mut self.last_awake);
            for &key in last_awake.iter() {
                // Those awake still come next.
                if bodies.get(key).is_some_and(|body| !body.awake) {
                    self.refresh_body(key, colliders, bodies, broad_phase);
                }
            }
            self.last_awake = last_awake;
            for key in awake.clone() {
                self.refresh_body(key, colliders, bodies, broad_phase);
            }
        } else {
            if !self.fats_current {
                // Every slot below the capacity, reset: vacant slots stay
                // empty. (With no edit since the last refresh the live
                // colliders and the capacity are the same, and each entry
                // keeps its stored box for the pass below.)
                self.entries.clear();
                self.entries
                    .resize(colliders.capacity() + 1, ColliderNow::EMPTY);
            }
            for (key, collider) in colliders {
                self.refresh_collider(key, collider, bodies, broad_phase);
            }
        }
        if edited || self.woke {
            self.epoch += 1;
        }
        self.valid = few;
        self.fats_current = true;
        self.last_awake.clear();
        if few {
            self.last_awake.extend(awake);
        }
    }

    /// The rest epoch (see the module docs): never 0 after a refresh.
    pub fn epoch(&self) -> u64 {
        self.epoch
    }

    /// Recomputes the entries of a body's colliders (none for a body gone).
    fn refresh_body(
        &mut self,
        key: BodyKey,
        colliders: &SlotMap<ColliderKey, Collider>,
        bodies: &mut SlotMap<BodyKey, Body>,
        broad_phase: &BroadPhase<ColliderKey>,
    ) {
        let count = bodies.get(key).map_or(0, |body| body.colliders.len());
        for i in 0..count {
            let handle = bodies[key].colliders[i];
            if let Some(collider) = colliders.get(handle.key) {
                self.refresh_collider(handle.key, collider, bodies, broad_phase);
            }
        }
    }

    /// Recomputes one collider's entry.
    fn refresh_collider(
        &mut self,
        key: ColliderKey,
        collider: &Collider,
        bodies: &mut SlotMap<BodyKey, Body>,
        broad_phase: &BroadPhase<ColliderKey>,
    ) {
        let Some(body) = bodies.get_mut(collider.body.key) else {
            return;
        };
        let pose = body.pose.compose(&collider.local_pose);
        let (circle_center, circle_radius) = match collider.shape.as_ref() {
            Shape::Circle(c) => (
                pose.transform_point(c.center()),
                pose.scale_length(c.radius()),
            ),
            _ => (Vec2::zeros(), Real::NAN),
        };
        // How far from the collider's origin every point of the shape lies
        // (shape units), for the shapes whose pairs may go quiet: circle
        // trees and circles.
        let shape_reach = match collider.shape.as_ref() {
            Shape::Tree(tree) => Some(tree.bounding_radius_about_origin()),
            Shape::Circle(c) => Some(c.center().norm() + c.radius()),
            _ => None,
        };
        let motion = match shape_reach {
            Some(shape_reach) => {
                let reach = collider.reach_in_body(shape_reach);
                // Only these bodies track their motion (a second collider
                // of the same body finds the pose read: no change).
                body.motion.advance(&body.pose);
                body.motion.reading(reach)
            }
            None => f64::INFINITY,
        };
        let slot = key_slot(key);
        let old = self
            .entries
            .get(slot)
            .filter(|old| old.version == key_version(key));
        self.woke |= body.awake && old.is_some_and(|old| !old.awake());
        let mut entry = ColliderNow {
            motion,
            fat: NO_BOX,
            circle_center,
            circle_radius,
            center: body.pose.transform_point(body.local_center),
            body: body_bits(key_slot(collider.body.key), body),
            solver_index: body.solver_index,
            friction: collider.material.friction,
            restitution: collider.material.restitution,
            version: key_version(key),
            pose,
        };
        match old {
            // The copy kept since the last refresh (see `fats_current`).
            Some(old) if self.fats_current => {
                debug_assert_eq!(
                    old.fat(),
                    collider.proxy.and_then(|id| broad_phase.fat_bounds(id))
                );
                entry.fat = old.fat;
            }
            _ => entry.set_fat(collider.proxy.and_then(|id| broad_phase.fat_bounds(id))),
        }
        // Slots are below the slot count, which the capacity bounds.
        if let Some(slot) = self.entries.get_mut(slot) {
            *slot = entry;
        }
    }

    /// The entry of a live collider, `None` for a stale key or one whose
    /// body is gone.
    #[inline]
    pub fn get(&self, key: ColliderKey) -> Option<&ColliderNow> {
        self.entries
            .get(key_slot(key))
            .filter(|entry| entry.version == key_version(key))
    }
}

/// [`ColliderNow::body`] of a collider of the body in `slot`.
#[inline]
fn body_bits(slot: usize, body: &Body) -> u32 {
    debug_assert!(
        slot <= SLOT as usize,
        "body slot {slot} past the table's bits"
    );
    let mut bits = slot as u32 & SLOT;
    if body.awake {
        bits |= AWAKE;
    }
    if body.kind == super::BodyKind::Dynamic {
        bits |= DYNAMIC;
    }
    bits
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;
    use crate::shape::{Aabb, Circle};
    use crate::world::{BodyDef, ColliderDef, World, WorldSettings};

    fn refreshed(world: &World) -> ColliderTable {
        let mut table = ColliderTable::default();
        let mut bodies = world.bodies.clone();
        table.refresh(
            &world.colliders,
            &mut bodies,
            &world.broad_phase,
            std::iter::empty(),
        );
        table
    }

    #[test]
    fn refreshing_only_what_moves_decides_what_a_full_refresh_decides() {
        // A copy of a world starts with an invalid table, so its next step
        // recomputes every entry; the world itself only those of awake
        // bodies, between edits to static and sleeping bodies.
        const DT: crate::math::Real = 1.0 / 60.0;
        let settings = WorldSettings::default();
        let (mut world, bodies) = crate::world::scenes::mixed_pile(settings, 100).unwrap();
        let ramp = crate::world::scenes::mixed_pile_ramp(&world);
        let disc = || ColliderDef::new(Circle::new(vec2(0.0, 0.0), 0.5).unwrap());
        let mut asleep_steps = 0;
        let (mut added, mut quiet_steps) = (None, 0);
        for step in 0..1_100 {
            match step {
                // The ramp moves under sleeping bodies, then they wake (few
                // enough for the table to refresh only theirs).
                350 => {
                    let pose = world.body(ramp).unwrap().pose();
                    let pose = Pose::new(pose.translation + vec2(0.05, -0.02), 0.0);
                    world.set_pose(ramp, pose).unwrap();
                }
                360 => {
                    let on_ramp = resting_on(&world, ramp);
                    assert!((1..25).contains(&on_ramp.len()), "{}", on_ramp.len());
                    for body in on_ramp {
                        world.set_velocity(body, vec2(0.0, 0.0), 0.0).unwrap();
                    }
                }
                // Enough new colliders on one sleeping body to need new
                // slots, a few steps after the pile first fell asleep.
                // (Not after the wake at 360: a disc may roll on for
                // hundreds of steps, with no rolling resistance, before
                // the pile sleeps again.)
                _ if step > 250 && added.is_none() && quiet_steps >= 5 => {
                    assert!(!world.body(bodies[7]).unwrap().is_awake(), "step {step}");
                    let slots = world.colliders.capacity();
                    for _ in 0..=slots {
                        added = Some(world.add_collider(bodies[7], disc()).unwrap());
                    }
                }
                1_000 => world.remove_collider(added.unwrap()).unwrap(),
                1_050 => world.remove_body(bodies[40]).unwrap(),
                _ => {}
            }
            quiet_steps = if few_awake(&world) {
                quiet_steps + 1
            } else {
                0
            };
            let mut copy = world.clone();
            world.step(DT).unwrap();
            copy.step(DT).unwrap();
            assert_eq!(world.state_hash(), copy.state_hash(), "step {step}");
            assert_eq!(world.events(), copy.events(), "step {step}");
            asleep_steps +=
                usize::from(world.bodies().any(|(_, b)| b.is_dynamic() && !b.is_awake()));
        }
        assert!(asleep_steps > 300, "bodies slept ({asleep_steps} steps)");
        assert!(added.is_some(), "colliders were added to a sleeping pile");
    }

    /// So few bodies awake that a refresh recomputes only theirs.
    fn few_awake(world: &World) -> bool {
        let awake = world.bodies().filter(|(_, b)| b.is_awake()).count();
        awake * PARTIAL_SHARE < world.bodies.len()
    }

    /// The bodies touching a body's colliders.
    fn resting_on(world: &World, body: crate::world::BodyHandle) -> Vec<crate::world::BodyHandle> {
        let body_of = |c: &crate::world::ColliderHandle| world.colliders[c.key].body;
        let mut out: Vec<_> = world
            .contacts
            .iter()
            .filter(|(_, pair)| pair.touching)
            .filter_map(|((a, b), _)| {
                let (a, b) = (body_of(a), body_of(b));
                (a == body).then_some(b).or((b == body).then_some(a))
            })
            .collect();
        out.sort_by_key(|h| key_slot(h.key));
        out.dedup();
        out
    }

    #[test]
    fn entries_hold_what_the_narrowphase_would_compute() {
        let mut world = World::new(WorldSettings::default()).unwrap();
        let pose = Pose::new(vec2(1.0, 2.0), 0.3).with_scale(1.5);
        let body = world.add_body(BodyDef::dynamic(pose)).unwrap();
        let disc = Circle::new(vec2(0.5, 0.0), 0.25).unwrap();
        let local = Pose::new(vec2(0.0, 1.0), -0.7);
        let disc = world
            .add_collider(body, ColliderDef::new(disc).at(local))
            .unwrap();
        let square = Aabb::new(vec2(-1.0, -1.0), vec2(1.0, 1.0)).unwrap();
        let square = world.add_collider(body, ColliderDef::new(square)).unwrap();
        let table = refreshed(&world);
        let entry = table.get(disc.key).unwrap();
        let world_pose = pose.compose(&local);
        assert_eq!(entry.pose, world_pose);
        let center = world_pose.transform_point(vec2(0.5, 0.0));
        assert_eq!(
            entry.circle(),
            Some((center, world_pose.scale_length(0.25)))
        );
        let proxy = world.colliders[disc.key].proxy.unwrap();
        assert_eq!(entry.fat(), world.broad_phase.fat_bounds(proxy));
        assert!(entry.fat().is_some() && entry.awake() && entry.dynamic());
        assert_eq!(entry.body() as usize, key_slot(body.key));
        let entry = table.get(square.key).unwrap();
        assert!(entry.circle().is_none());
        assert_eq!(entry.pose, pose);
    }

    #[test]
    fn a_disc_pair_reads_one_line_of_each_entry() {
        assert_eq!(std::mem::size_of::<ColliderNow>(), 128);
        assert_eq!(std::mem::align_of::<ColliderNow>(), 64);
        // Every field but the pose lies in the first line.
        assert_eq!(std::mem::offset_of!(ColliderNow, pose), 64);
        assert!(std::mem::offset_of!(ColliderNow, version) + 4 <= 64);
    }

    #[test]
    fn packed_fields_read_back_as_given() {
        let mut entry = ColliderNow::EMPTY;
        assert_eq!((entry.fat(), entry.circle()), (None, None));
        assert!(!entry.awake() && !entry.dynamic() && entry.colored_side().is_none());
        let fat = Bounds::new(vec2(-1.0, -2.0), vec2(3.0, 4.0)).unwrap();
        entry.set_fat(Some(fat));
        assert_eq!(entry.fat(), Some(fat));
        // A side without a proxy overlaps nothing, not even a box around
        // everything or another side without one.
        let mut everything = ColliderNow::EMPTY;
        let huge = Real::MAX;
        everything.set_fat(Some(
            Bounds::new(vec2(-huge, -huge), vec2(huge, huge)).unwrap(),
        ));
        assert!(entry.fat_overlaps(&everything) && everything.fat_overlaps(&entry));
        let none = ColliderNow::EMPTY;
        assert!(!none.fat_overlaps(&everything) && !everything.fat_overlaps(&none));
        assert!(!none.fat_overlaps(&none));
        entry.set_fat(None);
        assert_eq!(entry.fat(), None);
        // Body flags beside the largest slot.
        entry.body = SLOT | AWAKE | DYNAMIC;
        assert_eq!(entry.body(), SLOT);
        assert!(entry.awake() && entry.dynamic());
        assert_eq!(entry.colored_side(), Some(SLOT));
        entry.body = 7 | DYNAMIC;
        assert!(!entry.awake() && entry.colored_side() == Some(7));
    }

    #[test]
    fn removed_colliders_and_reused_slots_find_nothing_stale() {
        let mut world = World::new(WorldSettings::default()).unwrap();
        let ground = world.add_body(BodyDef::fixed(Pose::IDENTITY)).unwrap();
        let disc = ColliderDef::new(Circle::new(vec2(0.0, 0.0), 1.0).unwrap());
        let first = world.add_collider(ground, disc.clone()).unwrap();
        let table = refreshed(&world);
        assert!(
            !table.get(first.key).unwrap().awake(),
            "static bodies are never awake"
        );
        world.remove_collider(first).unwrap();
        assert!(refreshed(&world).get(first.key).is_none());
        let second = world.add_collider(ground, disc).unwrap();
        assert_eq!(
            key_slot(second.key),
            key_slot(first.key),
            "the slot is reused"
        );
        let table = refreshed(&world);
        assert!(table.get(first.key).is_none());
        assert!(table.get(second.key).is_some());
    }
}
