//! Colours kept from step to step: a contact keeps its colour, and its
//! lane, for as long as it has a constraint, so a settled pile is not
//! coloured again at every step.
//!
//! The world's contacts each hold a colour (`u8`, [`NO_COLOR`] for none)
//! as part of the simulated state, and a [`LaneRef`], a cache of where the
//! constraint lives in the lanes. Each step ([`WideContacts::begin_kept`])
//! marks every lane empty; the narrowphase then refreshes each contact's
//! constraint in its own lane ([`WideContacts::refresh_manifold`]),
//! colours the contacts that have none, and gives back the colours of
//! those that end ([`WideContacts::release`]).
//!
//! **Colours.** Within a colour no two constraints name one dynamic body,
//! so a colour's constraints can be solved in any order, and at once.
//! Static and kinematic bodies (never written) take no colour; a
//! dynamic body takes its constraint's colour whether or not it moves in
//! this step (a sleeping one is the fixed stand-in). A contact without a
//! colour takes the one [`spread_color`](super::spread_color) picks among
//! those free on both of its bodies, its bodies' slots hashed; with none
//! free, or more than four points, it goes to the scalar overflow for the
//! step and tries again at the next.
//!
//! **Why colours are state.** Which colour a contact holds decides the
//! order in which the solver meets it, so the results: a world must
//! continue the same whether or not it was restored from a snapshot in
//! between. The colours are kept with the contacts; everything here is
//! derived from them. A world whose lanes are not those of its contacts
//! (a fresh, cloned or restored world, or one whose contacts an edit
//! dropped) rebuilds the body masks from the contacts' colours before its
//! narrowphase ([`WideContacts::rebuild_kept`]), which gives the masks
//! the kept lanes would have had, so every later choice is the same. Where
//! in a colour's batches a constraint lives changes nothing (a colour's
//! constraints share no body a lane writes), so lanes are taken again as
//! the contacts come; a rebuild also packs them densely when many lanes
//! were given back, and lays them out in the contacts' order again when
//! too many kept lanes are out of it ([`WideContacts::lanes_scattered`]),
//! so that the narrowphase writes, and the solver reads, the batches in
//! order.
//!
//! Invariants:
//! - a contact's colour bit is set on each of its dynamic bodies exactly
//!   while it holds the colour, and no two contacts holding one colour
//!   share a dynamic body;
//! - every lane not refreshed in this step is empty (body 0, no mass), so
//!   a stale reservation moves nothing;
//! - the colours chosen depend only on the contacts' colours, their order
//!   and their bodies, so the step stays deterministic.

use super::{
    COLORS, LANES, Location, SolverBody, SolverError, WideContacts, lane_index, point_class,
    spread_color,
};
use crate::dynamics::contact_solver::{BodyTurn, ContactSettings, ContactSoftness};
use crate::dynamics::error::check_bodies;
use crate::math::{Real, Vec2};
use crate::query::{FeatureId, Manifold};
use std::sync::atomic::{AtomicU64, Ordering};

/// The colour of a contact that holds none.
pub const NO_COLOR: u8 = u8::MAX;

/// Where a contact's constraint lives in the lanes of one generation of a
/// [`WideContacts`]: a cache, not state (a copy of the contact that holds
/// it holds none).
#[derive(Debug, PartialEq, Eq)]
pub struct LaneRef {
    /// The lanes' generation this names (0: none).
    generation: u64,
    batch: u32,
    color: u8,
    class: u8,
    lane: u8,
}

impl LaneRef {
    /// No lane.
    pub const NONE: LaneRef = LaneRef {
        generation: 0,
        batch: 0,
        color: 0,
        class: 0,
        lane: 0,
    };
}

impl Default for LaneRef {
    fn default() -> Self {
        LaneRef::NONE
    }
}

impl Clone for LaneRef {
    /// A copy names no lane: its contact belongs to a world of its own,
    /// whose lanes are others.
    fn clone(&self) -> Self {
        LaneRef::NONE
    }
}

/// Generations handed out so far, shared by every [`WideContacts`] of the
/// process, so that a lane reference never matches the lanes of another.
static GENERATIONS: AtomicU64 = AtomicU64::new(1);

/// Rebuild once more lanes than this wait to be taken again, beyond a
/// quarter of the lanes held.
const SPARE_LANES: usize = LANES;

/// Rebuild once more than one refresh in this many finds its lane in an
/// earlier batch of its colour and class than the refresh before it. A
/// 32,000-ball pit settles with about one in twenty so (lanes given back
/// while it fell, taken again by new contacts), and steps 7% faster with
/// its lanes in order; a rebuild costs about one pass over the contacts.
const SCATTERED_SHARE: usize = 32;

/// The bookkeeping of kept colours (see the module docs).
#[derive(Clone, Debug, Default)]
pub(super) struct KeptColors {
    /// The generation of the lanes' kept constraints; 0 when they are not
    /// those of the contacts (a rebuild is due).
    generation: u64,
    /// Per body slot: the colours held by contacts that name the body.
    slots: Vec<u32>,
    /// Per colour: the contacts holding it.
    counts: [u32; COLORS],
    /// Lanes held by kept constraints, and lanes given back.
    live: usize,
    spare: usize,
    /// Kept constraints refreshed in this step.
    refreshed: usize,
    /// Per colour and point class: the batch of the lane refreshed last
    /// in this step (see `scattered`).
    last_batch: [[u32; 4]; COLORS],
    /// Refreshes in this step whose lane lay in an earlier batch of its
    /// colour and class than the refresh before.
    descents: usize,
    /// The last step's lanes lay far out of the contacts' order: the next
    /// step rebuilds them (see [`WideContacts::needs_rebuild`]).
    scattered: bool,
}

impl KeptColors {
    /// The lanes no longer hold the contacts' constraints.
    pub(super) fn invalidate(&mut self) {
        self.generation = 0;
    }

    /// The colours in use: one past the highest held.
    fn open(&self) -> usize {
        self.counts
            .iter()
            .rposition(|&n| n > 0)
            .map_or(0, |c| c + 1)
    }

    /// The colours held on the dynamic bodies among `sides`.
    fn taken(&self, sides: [Option<u32>; 2]) -> u32 {
        sides.into_iter().flatten().fold(0, |taken, slot| {
            taken | self.slots.get(slot as usize).copied().unwrap_or(0)
        })
    }

    /// Sets (`on`) or clears colour bit `bit` on the dynamic bodies among `sides`.
    fn mark(&mut self, sides: [Option<u32>; 2], bit: u32, on: bool) {
        for slot in sides.into_iter().flatten() {
            if let Some(mask) = self.slots.get_mut(slot as usize) {
                *mask = if on { *mask | bit } else { *mask & !bit };
            }
        }
    }
}

impl WideContacts {
    /// Starts a step of kept colours over `bodies` (with `body_slots`
    /// slots of bodies the contacts may name) with the softness of its
    /// substeps: every lane is marked empty, to be refreshed by
    /// [`Self::refresh_manifold`], in a deterministic order.
    pub fn begin_kept(
        &mut self,
        body_slots: usize,
        settings: &ContactSettings,
        softness: ContactSoftness,
    ) {
        self.settings = *settings;
        self.softness = softness;
        self.overflow.clear();
        self.overflow_ids.clear();
        self.location.clear();
        self.largest = 0;
        self.kept.refreshed = 0;
        self.kept.descents = 0;
        self.kept.last_batch = [[0; 4]; COLORS];
        for color in &mut self.colors[..self.used_colors] {
            color.forget_lanes();
        }
        if self.kept.slots.len() < body_slots {
            self.kept.slots.resize(body_slots, 0);
        }
    }

    /// True when the lanes must be rebuilt from the contacts' colours
    /// before the next refresh: they are not the contacts' (see
    /// [`Self::forget_kept`]), many lanes wait to be taken again, or they
    /// lie far out of the contacts' order ([`Self::lanes_scattered`]).
    pub fn needs_rebuild(&self) -> bool {
        let kept = &self.kept;
        kept.generation == 0 || kept.spare > SPARE_LANES + kept.live / 16 || kept.scattered
    }

    /// True when the last step found more than one kept lane in
    /// thirty-two in an earlier batch of its colour and point
    /// class than the lane refreshed before it: the lanes no longer follow
    /// the contacts' order (lanes given back by contacts that ended were
    /// taken by new ones wherever they lay), so the narrowphase's writes
    /// and the solver's reads jump about the batches. The next step
    /// rebuilds them in order (see [`Self::needs_rebuild`]); where in its
    /// colour a constraint lives changes nothing (see the module docs).
    pub fn lanes_scattered(&self) -> bool {
        self.kept.scattered
    }

    /// The lanes are no longer the contacts' (an edit dropped some): the
    /// next step rebuilds them.
    pub fn forget_kept(&mut self) {
        self.kept.invalidate();
    }

    /// Rebuilds the colours' bookkeeping from every contact's colour (see
    /// the module docs), each given with the slots of its dynamic bodies
    /// (`None` for a static or kinematic side), or without sides if its
    /// colliders are gone. A colour out of range, one that a body already
    /// holds through an earlier contact (a state no step makes), or one of
    /// a contact whose colliders are gone is dropped: the contact holds
    /// none.
    pub fn rebuild_kept<'a>(
        &mut self,
        contacts: impl Iterator<Item = (&'a mut u8, Option<[Option<u32>; 2]>)>,
    ) {
        self.start_rebuild_kept();
        for (color, sides) in contacts {
            self.rebuild_kept_one(color, sides);
        }
    }

    /// Starts [`Self::rebuild_kept`]: every colour and lane forgotten.
    /// Then [`Self::rebuild_kept_one`] for each contact, in order.
    pub fn start_rebuild_kept(&mut self) {
        for color in &mut self.colors {
            color.clear();
        }
        self.used_colors = 0;
        let kept = &mut self.kept;
        kept.slots.fill(0);
        kept.counts = [0; COLORS];
        (kept.live, kept.spare) = (0, 0);
        kept.scattered = false;
        kept.generation = GENERATIONS.fetch_add(1, Ordering::Relaxed);
    }

    /// One contact of [`Self::rebuild_kept`], after
    /// [`Self::start_rebuild_kept`]: its colour is kept or dropped.
    pub fn rebuild_kept_one(&mut self, color: &mut u8, sides: Option<[Option<u32>; 2]>) {
        if *color == NO_COLOR {
            return;
        }
        let kept = &mut self.kept;
        let c = *color as usize;
        let fits = |slot: &u32| (*slot as usize) < kept.slots.len();
        match sides {
            Some(sides)
                if c < COLORS
                    && sides.iter().flatten().all(fits)
                    && kept.taken(sides) & (1 << c) == 0 =>
            {
                kept.mark(sides, 1 << c, true);
                kept.counts[c] += 1;
            }
            _ => *color = NO_COLOR,
        }
    }

    /// Refreshes the constraint of `manifold` between bodies `body_a` and
    /// `body_b` (the same values as [`Self::push_manifold`]), with id `id`
    /// (see [`Self::each_impulse`]), for a contact holding colour `color`
    /// and lane `lane`: in its own lane while it holds one of its point
    /// class, otherwise in a lane taken now, colouring the contact first if
    /// it holds no colour (or in the scalar overflow, see the module
    /// docs). `sides` are the slots of the two bodies if dynamic.
    ///
    /// # Errors
    /// [`SolverError::BodyIndex`] when `body_a` or `body_b` is past `bodies`
    /// or `turns`; nothing is added then, and the contact keeps what it
    /// held (the caller releases it).
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn refresh_manifold(
        &mut self,
        id: u32,
        (color, lane): (&mut u8, &mut LaneRef),
        bodies: &[SolverBody],
        turns: &[BodyTurn],
        (body_a, body_b): (usize, usize),
        sides: [Option<u32>; 2],
        centers: (Vec2, Vec2),
        manifold: &Manifold,
        material: (Real, Real),
        round: bool,
        warm: impl Fn(FeatureId) -> (Real, Real),
    ) -> Result<(), SolverError> {
        check_bodies(bodies.len(), turns.len(), body_a, body_b)?;
        let points = manifold.points.len();
        let round = round && points == 1;
        let location = self.keep(color, lane, sides, point_class(points, round), points);
        if let Location::Lane {
            color,
            class,
            batch,
            ..
        } = location
        {
            self.largest = self.largest.max(lane_index(body_a)).max(lane_index(body_b));
            let kept = &mut self.kept;
            kept.refreshed += 1;
            let last = &mut kept.last_batch[color as usize % COLORS][class as usize % 4];
            kept.descents += usize::from(batch < *last);
            *last = batch;
        }
        self.write_manifold(
            location,
            id,
            bodies,
            turns,
            (body_a, body_b),
            centers,
            manifold,
            material,
            round,
            warm,
        )
    }

    /// The lane of a contact's constraint of `points` points in `class`
    /// (see [`Self::refresh_manifold`]).
    #[inline(always)]
    fn keep(
        &mut self,
        color: &mut u8,
        lane: &mut LaneRef,
        sides: [Option<u32>; 2],
        class: usize,
        points: usize,
    ) -> Location {
        debug_assert!(self.kept.generation != 0, "refreshed before a rebuild");
        if points > 4 {
            self.release(color, lane, sides);
            return Location::Overflow(0);
        }
        if *color as usize >= COLORS {
            *color = NO_COLOR;
            let free = !self.kept.taken(sides);
            if free == 0 {
                self.give_back(lane);
                return Location::Overflow(0);
            }
            let hash = |side: Option<u32>| side.map_or(0, |slot| slot as usize);
            let c = spread_color(free, self.kept.open(), hash(sides[0]), hash(sides[1]));
            self.kept.mark(sides, 1 << c, true);
            self.kept.counts[c] += 1;
            *color = c as u8;
        }
        let c = *color as usize;
        let generation = self.kept.generation;
        if lane.generation == generation && lane.color as usize == c && lane.class as usize == class
        {
            return Location::Lane {
                color: lane.color,
                class: lane.class,
                lane: lane.lane,
                batch: lane.batch,
            };
        }
        self.give_back(lane);
        let batches = self.open_color(c);
        let reused = !batches.free[class].is_empty();
        let (batch, taken) = batches.reserve(class);
        if reused {
            self.kept.spare -= 1;
        }
        self.kept.live += 1;
        *lane = LaneRef {
            generation,
            batch: batch as u32,
            color: c as u8,
            class: class as u8,
            lane: taken as u8,
        };
        Location::Lane {
            color: c as u8,
            class: class as u8,
            lane: taken as u8,
            batch: batch as u32,
        }
    }

    /// Gives back the lane a contact holds, if it is one of these lanes.
    fn give_back(&mut self, lane: &mut LaneRef) {
        if lane.generation != 0 && lane.generation == self.kept.generation {
            let (color, class) = (lane.color as usize, lane.class as usize);
            if let Some(batches) = self.colors.get_mut(color) {
                batches.free[class].push((lane.batch, lane.lane));
                self.kept.spare += 1;
                self.kept.live -= 1;
            }
        }
        *lane = LaneRef::NONE;
    }

    /// A contact ends its constraint (apart, at rest, dropped): it gives
    /// back its colour (on its dynamic bodies, `sides`, as given when it
    /// took it) and its lane.
    pub fn release(&mut self, color: &mut u8, lane: &mut LaneRef, sides: [Option<u32>; 2]) {
        let c = *color as usize;
        if c < COLORS {
            self.kept.mark(sides, 1 << c, false);
            self.kept.counts[c] = self.kept.counts[c].saturating_sub(1);
        }
        *color = NO_COLOR;
        self.give_back(lane);
    }

    /// Ends the refreshes of a step. A kept lane no contact refreshed is
    /// empty (see the module docs); should one be left (a contact that held
    /// one and was neither refreshed nor released), the lanes are rebuilt
    /// at the next step.
    pub fn end_kept(&mut self) {
        debug_assert_eq!(
            self.kept.refreshed, self.kept.live,
            "every kept lane is refreshed or given back"
        );
        if self.kept.refreshed != self.kept.live {
            self.kept.invalidate();
        }
        let kept = &mut self.kept;
        kept.scattered = kept.descents * SCATTERED_SHARE > kept.refreshed;
    }

    /// Number of colours held by kept contacts (see the module docs).
    pub fn kept_color_count(&self) -> usize {
        self.kept.open()
    }
}
