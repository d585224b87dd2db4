//! The contact solver in lanes: constraints that share no movable body are
//! solved side by side, [`LANES`] at a time: in SSE registers on x86-64,
//! elsewhere in plain arrays the compiler may vectorize.
//!
//! Constraints are coloured greedily: a constraint takes a colour in which
//! no other constraint writes one of its bodies or reads a body it writes
//! (a side with no inverse mass nor inertia is only read: static and
//! kinematic bodies, which no constraint writes, never conflict): the
//! lowest such colour, or for some body pairs the second or third lowest
//! already open, so that the order of the colours does not follow the
//! order the constraints come in (see `spread_color`). Within a colour no
//! constraint reads or writes a body another one writes, so they can be
//! solved in any order, and at once. A colour's constraints are packed by
//! point count (1, 2, or up to 4; round constraints, see `round.rs`, in
//! batches of their own) into batches of [`LANES`]. Two ways in: the
//! world's contacts keep their colour and lane from step to step and
//! refresh their constraint in place (`wide_persistent.rs`,
//! [`WideContacts::refresh_manifold`]); a list of constraints is coloured
//! afresh in its given order ([`WideContacts::prepare`],
//! [`WideContacts::push_manifold`]). Either way each constraint is built
//! straight into its lane from its manifold, with no intermediate
//! constraint list. The rare constraint that finds no free colour among
//! [`COLORS`] is kept whole and solved by the scalar code after the colours.
//! The passes work through a batch four lanes at a time, one SSE register
//! a value (`quad.rs`, `wide_quad.rs`); a batch of two or four points
//! solves its two halves side by side, so the processor overlaps their
//! chains of dependent operations (see `Batch::solve_halves`). Where the
//! processor has AVX (checked at run time, [`WideContacts::use_avx`]), the
//! warm start and the solve take all eight lanes at once, one AVX register
//! a value (`wide_oct.rs`), with the same results bit for bit; restitution,
//! once a step, stays four lanes wide.
//!
//! Invariants:
//! - every lane computes exactly what [`solve_constraint`] computes for its
//!   constraint, given the same body velocities (the same formulas in the
//!   same order; missing points have zero mass, and empty lanes have no
//!   mass nor inertia and are never written back, so neither changes
//!   anything);
//! - the colouring and the batches depend only on the constraints, their
//!   order, their bodies' indices and (kept colours) the colours the
//!   contacts already hold, so the step stays deterministic;
//! - bodies that cannot move (inverse mass and inertia 0) are never written;
//! - every body index a lane of this step names is at most `largest` (an
//!   empty lane names body 0): a pass over bodies that `largest` fits
//!   reads and writes them without bounds checks ([`Fitted`]); a pass over
//!   fewer bodies checks every index (one past the bodies is the fixed
//!   body).

use super::body_rows::{Bodies, Fitted};
use super::contact_solver::{
    BodyTurn, ConstraintPoint, ContactConstraint, ContactSettings, ContactSoftness, SolverBody,
    apply_restitution, is_fixed, solve_constraint, warm_start_constraint,
};
use super::error::{SolverError, check_bodies};
use super::softness::Softness;
pub use super::wide_batch::LANES;
use super::wide_batch::{Batch, LaneHead, lane_index};
use super::wide_quad::QuadSoftness;
use super::wide_round::RoundBatch;

#[path = "wide_persistent.rs"]
mod persistent;
use crate::math::{Real, Vec2};
use crate::query::{FeatureId, Manifold};
pub use persistent::{LaneRef, NO_COLOR};

/// Colours tried before a constraint goes to the scalar overflow: one bit
/// each in a body's `u32` mask. A body touching more than this many others
/// in one step is rare (a ball in a hexagonal pile touches six).
pub const COLORS: usize = 32;

/// A batch whose lanes can all be marked empty (no constraint, body 0 on
/// both sides, never written back) without rewriting its values.
pub(super) trait Lanes: Default {
    /// Marks every lane empty: each names no constraint and body 0 on both
    /// sides, which it never writes back (a general batch gives them no
    /// mass nor inertia, a round batch a negative inertia, see
    /// `wide_round.rs`).
    fn forget_lanes(&mut self);
}

/// The batches of one class of one colour, kept from step to step: a step
/// reuses the batches of the last one, so starting a batch marks its lanes
/// empty instead of rewriting the whole batch (0.6 to 1.7 KB; a pyramid of
/// 5,050 boxes starts 1,900 two-point batches of 1 KB a step). A lane
/// filled later is written whole, so the values an empty lane keeps from
/// an earlier step are never read out: what it computes is never written
/// back.
#[derive(Clone, Debug, Default)]
struct Batches<T> {
    /// Every batch made so far; the first `used` are this step's.
    kept: Vec<T>,
    used: usize,
}

impl<T: Lanes> Batches<T> {
    fn clear(&mut self) {
        self.used = 0;
    }

    /// Starts the next batch, every lane empty.
    fn start(&mut self) {
        match self.kept.get_mut(self.used) {
            Some(batch) => batch.forget_lanes(),
            None => self.kept.push(T::default()),
        }
        self.used += 1;
    }
}

impl<T> std::ops::Deref for Batches<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        &self.kept[..self.used]
    }
}

impl<T> std::ops::DerefMut for Batches<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        &mut self.kept[..self.used]
    }
}

/// The colours of one body's constraints (bit c = colour c).
#[derive(Clone, Copy, Debug, Default)]
struct BodyColors {
    /// Colours with a constraint that may write the body: it can move there.
    written: u32,
    /// Colours with a constraint that only reads it: one that gives it no
    /// inverse mass nor inertia.
    read: u32,
}

/// The batches of one colour by point class, filled in constraint order.
#[derive(Clone, Debug, Default)]
struct ColorBatches {
    one: Batches<Batch<1>>,
    two: Batches<Batch<2>>,
    four: Batches<Batch<4>>,
    round: Batches<RoundBatch>,
    /// Lanes used in the last batch of each class.
    fill: [usize; CLASSES],
    /// Per class: lanes given back (batch, lane), taken again before the
    /// last batch grows (kept constraints only, see `wide_persistent.rs`).
    free: [Vec<(u32, u8)>; CLASSES],
}

/// Batch classes: one, two and up to four points, and round.
const CLASSES: usize = 4;
const ROUND: usize = 3;

impl ColorBatches {
    fn clear(&mut self) {
        self.one.clear();
        self.two.clear();
        self.four.clear();
        self.round.clear();
        self.fill = [LANES; CLASSES];
        for free in &mut self.free {
            free.clear();
        }
    }

    /// Marks every lane of every batch in use empty (see [`Lanes`]).
    fn forget_lanes(&mut self) {
        self.one.iter_mut().for_each(Lanes::forget_lanes);
        self.two.iter_mut().for_each(Lanes::forget_lanes);
        self.four.iter_mut().for_each(Lanes::forget_lanes);
        self.round.iter_mut().for_each(Lanes::forget_lanes);
    }

    /// The next free lane of `class`: (batch, lane), a lane given back
    /// first.
    fn reserve(&mut self, class: usize) -> (usize, usize) {
        if let Some((batch, lane)) = self.free[class].pop() {
            return (batch as usize, lane as usize);
        }
        if self.fill[class] == LANES {
            match class {
                0 => self.one.start(),
                1 => self.two.start(),
                2 => self.four.start(),
                _ => self.round.start(),
            }
            self.fill[class] = 0;
        }
        let batch = match class {
            0 => self.one.len(),
            1 => self.two.len(),
            2 => self.four.len(),
            _ => self.round.len(),
        } - 1;
        let lane = self.fill[class];
        self.fill[class] += 1;
        (batch, lane)
    }
}

/// Where a constraint lives.
#[derive(Clone, Copy, Debug)]
enum Location {
    /// In a lane of a colour's batch of one point class.
    Lane {
        color: u8,
        class: u8,
        lane: u8,
        batch: u32,
    },
    /// Whole, in the scalar overflow.
    Overflow(u32),
}

/// The constraints of a step, coloured and packed into lanes. Buffers are
/// kept and reused from step to step.
#[derive(Clone, Debug)]
pub struct WideContacts {
    /// Per colour, its batches; the first `used_colors` are this step's.
    colors: Vec<ColorBatches>,
    used_colors: usize,
    /// Constraints solved by the scalar code after the colours.
    overflow: Vec<ContactConstraint>,
    /// Parallel to `overflow`: each one's id (see [`Self::each_impulse`]).
    overflow_ids: Vec<u32>,
    /// Per constraint pushed this step: where it lives.
    location: Vec<Location>,
    /// Per body: the colours in which constraints write it or only read it.
    masks: Vec<BodyColors>,
    /// The largest body index a lane names this step (see the invariants).
    largest: u32,
    settings: ContactSettings,
    softness: ContactSoftness,
    /// The colours kept from step to step (`wide_persistent.rs`).
    kept: persistent::KeptColors,
    /// Warm start and solve eight lanes at once in AVX registers: set only
    /// where the processor has AVX (see [`Self::use_avx`]).
    avx: bool,
}

/// The colour a constraint between bodies `a` and `b` takes among the
/// `free` ones (bit c = colour c, not 0), of which the first `open` are
/// already in use this step: the lowest free one for half of all body
/// pairs, the second lowest for a quarter and the third for a quarter, as
/// a hash of the two body indices decides (so the same constraints get the
/// same colours). It moves past the lowest only to colours already open:
/// a new colour is opened exactly when no open one is free, as in plain
/// greedy colouring, so the colours stay as few.
///
/// Always taking the lowest makes the colours follow the order the
/// constraints come in, which follows space wherever bodies were made row
/// by row: every substep then solves a pile in the same sweep across it,
/// and the sweep's bias adds up to a drift. A pyramid of 100 boxes built
/// from left to right leaned 4.6 cm to the right (its top swayed 2.3 cm
/// over steps 100–500); built from right to left, as far to the left.
/// Spread, the order no longer follows space: the same pyramid ends
/// within a centimetre of its axis built either way, and sways 1.5 cm.
#[inline]
fn spread_color(free: u32, open: usize, a: usize, b: usize) -> usize {
    // Fibonacci hashing: the top bits of the product are well mixed, and
    // the top two choose. The choice is made with selects, not branches:
    // a branch on a hash is mispredicted every other time, which cost the
    // pyramid 4% of its contacts stage.
    let h = ((a as u32) ^ (b as u32).rotate_left(16)).wrapping_mul(0x9E37_79B1);
    let skip = (h >> 30).saturating_sub(1);
    // The free colours already open, then without their lowest one or two.
    let open_mask = ((1u64 << open.min(COLORS)) - 1) as u32;
    let first = free & open_mask;
    let second = first & first.wrapping_sub(1);
    let third = second & second.wrapping_sub(1);
    let pick = if skip >= 1 && second != 0 {
        second
    } else {
        first
    };
    let pick = if skip >= 2 && third != 0 { third } else { pick };
    // No open colour is free: the lowest free one, a new colour.
    let pick = if first == 0 { free } else { pick };
    pick.trailing_zeros() as usize
}

/// The batch class of a constraint of `points` points (round: see
/// [`ContactConstraint::is_round`]).
fn point_class(points: usize, round: bool) -> usize {
    match points {
        1 if round => ROUND,
        0 | 1 => 0,
        2 => 1,
        _ => 2,
    }
}

impl Default for WideContacts {
    fn default() -> Self {
        WideContacts {
            colors: Vec::new(),
            used_colors: 0,
            overflow: Vec::new(),
            overflow_ids: Vec::new(),
            location: Vec::new(),
            masks: Vec::new(),
            largest: 0,
            kept: persistent::KeptColors::default(),
            avx: avx_available(),
            settings: ContactSettings::default(),
            // Replaced by every `begin`.
            softness: ContactSoftness {
                moving: Softness::RIGID,
                fixed: Softness::RIGID,
            },
        }
    }
}

/// Whether this processor can run the eight-lane passes.
fn avx_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    return super::wide_oct::avx_available();
    #[cfg(not(target_arch = "x86_64"))]
    return false;
}

impl WideContacts {
    /// Whether warm starting and solving take all eight lanes of a batch
    /// at once in AVX registers, rather than four at a time in SSE ones.
    /// On by default on x86-64 processors that have AVX (checked at run
    /// time), off elsewhere. The results are the same bit for bit either
    /// way (see `wide_oct.rs`): only the speed differs.
    pub fn avx(&self) -> bool {
        self.avx
    }

    /// Turns the eight-lane AVX passes on or off (see [`Self::avx`]); on
    /// is refused, and the passes stay four lanes wide, where the
    /// processor has no AVX. Returns whether they are on now.
    pub fn use_avx(&mut self, on: bool) -> bool {
        self.avx = on && avx_available();
        self.avx
    }

    /// Starts a step over `bodies` with the softness of its substeps; the
    /// constraints follow with [`Self::push_manifold`] or
    /// [`Self::push_constraint`], in a deterministic order.
    pub fn begin(
        &mut self,
        bodies: &[SolverBody],
        settings: &ContactSettings,
        softness: ContactSoftness,
    ) {
        self.settings = *settings;
        self.softness = softness;
        for color in &mut self.colors[..self.used_colors] {
            color.clear();
        }
        self.used_colors = 0;
        self.overflow.clear();
        self.overflow_ids.clear();
        self.location.clear();
        self.masks.clear();
        self.masks.resize(bodies.len(), BodyColors::default());
        self.largest = 0;
        // The lanes no longer hold the kept colours' constraints.
        self.kept.invalidate();
    }

    /// Colours the next constraint, between bodies `a` and `b` (of inverse
    /// inertias `inv_inertia`) with `points` points, and reserves its lane
    /// (or sends it to the overflow).
    #[inline(always)]
    fn place(
        &mut self,
        bodies: &[SolverBody],
        (a, b): (usize, usize),
        inv_inertia: [Real; 2],
        points: usize,
        round: bool,
    ) -> Location {
        let movable = |i: usize, inv_inertia: Real| {
            bodies
                .get(i)
                .is_some_and(|body| !is_fixed(body.inv_mass, inv_inertia))
        };
        let (move_a, move_b) = (movable(a, inv_inertia[0]), movable(b, inv_inertia[1]));
        // A side this constraint writes takes no colour in which another
        // constraint writes or reads its body; a side it only reads, none
        // in which another writes it. A body no constraint moves (static,
        // kinematic, the fixed stand-in) is never written, so reading it
        // costs no colour. One that some constraints move and others hold
        // fixed (inverse inertias given differently to each) keeps them
        // apart, so a colour's order still does not matter.
        let taken = |i: usize, moves: bool| {
            self.masks.get(i).map_or(0, |colors| {
                if moves {
                    colors.written | colors.read
                } else {
                    colors.written
                }
            })
        };
        let free = !(taken(a, move_a) | taken(b, move_b));
        let location = if free == 0 || points > 4 {
            Location::Overflow(self.overflow.len() as u32)
        } else {
            let color = spread_color(free, self.used_colors, a, b);
            for (i, moves) in [(a, move_a), (b, move_b)] {
                if let Some(colors) = self.masks.get_mut(i) {
                    if moves {
                        colors.written |= 1 << color;
                    } else {
                        colors.read |= 1 << color;
                    }
                }
            }
            let batches = self.open_color(color);
            let class = point_class(points, round);
            let (batch, lane) = batches.reserve(class);
            self.largest = self.largest.max(lane_index(a)).max(lane_index(b));
            Location::Lane {
                color: color as u8,
                class: class as u8,
                lane: lane as u8,
                batch: batch as u32,
            }
        };
        self.location.push(location);
        location
    }

    /// Adds a whole constraint (its values are packed as they are).
    pub fn push_constraint(&mut self, bodies: &[SolverBody], c: &ContactConstraint) {
        let index = self.location.len() as u32;
        match self.place(
            bodies,
            (c.body_a, c.body_b),
            c.inv_inertia,
            c.points.len(),
            c.is_round(),
        ) {
            Location::Overflow(_) => {
                self.overflow.push(c.clone());
                self.overflow_ids.push(index);
            }
            Location::Lane {
                color,
                class,
                lane,
                batch,
            } => {
                let (lane, batch) = (lane as usize, batch as usize);
                let color = &mut self.colors[color as usize];
                match class as usize {
                    0 => color.one[batch].pack(lane, index, c, bodies),
                    1 => color.two[batch].pack(lane, index, c, bodies),
                    2 => color.four[batch].pack(lane, index, c, bodies),
                    _ => {
                        color.round[batch].pack(lane, index, &LaneHead::of(c, bodies), &c.points[0])
                    }
                }
            }
        }
    }

    /// The batches of colour `color`, made (empty) if it is new, and the
    /// colour counted among those the passes visit.
    fn open_color(&mut self, color: usize) -> &mut ColorBatches {
        if self.colors.len() <= color {
            self.colors.resize_with(color + 1, || {
                let mut fresh = ColorBatches::default();
                fresh.clear();
                fresh
            });
        }
        self.used_colors = self.used_colors.max(color + 1);
        &mut self.colors[color]
    }

    /// Adds the constraint of `manifold` between bodies `body_a` and
    /// `body_b`, round or not (see [`ContactConstraint::new`]), built
    /// straight into its lane: the values are exactly those of
    /// [`ContactConstraint::new`] with the same arguments.
    ///
    /// # Errors
    /// [`SolverError::BodyIndex`] when `body_a` or `body_b` is past `bodies`
    /// or `turns`; nothing is added then.
    #[allow(clippy::too_many_arguments)]
    pub fn push_manifold(
        &mut self,
        bodies: &[SolverBody],
        turns: &[BodyTurn],
        body_a: usize,
        body_b: usize,
        center_a: Vec2,
        center_b: Vec2,
        manifold: &Manifold,
        friction: Real,
        restitution: Real,
        round: bool,
        warm: impl Fn(FeatureId) -> (Real, Real),
    ) -> Result<(), SolverError> {
        check_bodies(bodies.len(), turns.len(), body_a, body_b)?;
        let index = self.location.len() as u32;
        let round = round && manifold.points.len() == 1;
        let inv_inertia = [turns[body_a].inv_inertia, turns[body_b].inv_inertia];
        let points = manifold.points.len();
        let location = self.place(bodies, (body_a, body_b), inv_inertia, points, round);
        self.write_manifold(
            location,
            index,
            bodies,
            turns,
            (body_a, body_b),
            (center_a, center_b),
            manifold,
            (friction, restitution),
            round,
            warm,
        )
    }

    /// Builds the constraint of `manifold` (see [`Self::push_manifold`],
    /// whose checks the caller made: the indices fit `bodies` and
    /// `turns`) into `location`, with id `id`: its lane, or the scalar
    /// overflow.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn write_manifold(
        &mut self,
        location: Location,
        id: u32,
        bodies: &[SolverBody],
        turns: &[BodyTurn],
        (body_a, body_b): (usize, usize),
        (center_a, center_b): (Vec2, Vec2),
        manifold: &Manifold,
        (friction, restitution): (Real, Real),
        round: bool,
        warm: impl Fn(FeatureId) -> (Real, Real),
    ) -> Result<(), SolverError> {
        let Location::Lane {
            color,
            class,
            lane,
            batch,
        } = location
        else {
            self.overflow.push(ContactConstraint::new(
                bodies,
                turns,
                body_a,
                body_b,
                center_a,
                center_b,
                manifold,
                friction,
                restitution,
                round,
                warm,
            )?);
            self.overflow_ids.push(id);
            return Ok(());
        };
        let inv_inertia = [turns[body_a].inv_inertia, turns[body_b].inv_inertia];
        let (a, b) = (&bodies[body_a], &bodies[body_b]);
        let head = LaneHead {
            body_a,
            body_b,
            normal: manifold.normal,
            friction,
            restitution,
            inv_mass: [a.inv_mass, b.inv_mass],
            inv_inertia,
        };
        let (a, b) = ((a, inv_inertia[0]), (b, inv_inertia[1]));
        let (lane, batch) = (lane as usize, batch as usize);
        let color = &mut self.colors[color as usize];
        macro_rules! fill {
            ($batches:expr) => {{
                let target = &mut $batches[batch];
                target.pack_head(lane, id, &head);
                for (k, p) in manifold.points.iter().enumerate() {
                    let point = ConstraintPoint::new(
                        a,
                        b,
                        center_a,
                        center_b,
                        manifold.normal,
                        p,
                        warm(p.id),
                    );
                    target.pack_point(lane, k, &point);
                }
                target.clear_points_from(lane, manifold.points.len());
            }};
        }
        match class as usize {
            0 => fill!(color.one),
            1 => fill!(color.two),
            2 => fill!(color.four),
            _ => {
                if let Some(p) = manifold.points.first() {
                    let point = ConstraintPoint::new_round(
                        a,
                        b,
                        center_a,
                        center_b,
                        manifold.normal,
                        p,
                        warm(p.id),
                    );
                    color.round[batch].pack(lane, id, &head, &point);
                }
            }
        }
        Ok(())
    }

    /// Colours and packs `constraints` (solved later by [`Self::solve`]) with
    /// the softness of this step's substeps.
    pub fn prepare(
        &mut self,
        bodies: &[SolverBody],
        constraints: &[ContactConstraint],
        settings: &ContactSettings,
        softness: ContactSoftness,
    ) {
        self.begin(bodies, settings, softness);
        for c in constraints {
            self.push_constraint(bodies, c);
        }
    }

    fn colors(&self) -> &[ColorBatches] {
        &self.colors[..self.used_colors]
    }

    /// `bodies` as the lanes may index them without checks, if every
    /// index a lane names fits them.
    fn fitted<'a>(&self, bodies: &'a mut [SolverBody]) -> Option<Fitted<'a>> {
        // SAFETY: every lane of this step's batches (the only ones the
        // passes visit) names bodies at most `largest` (see the invariants:
        // `place` raises it for every lane it fills, and an empty lane names
        // body 0).
        unsafe { Fitted::new(bodies, self.largest) }
    }

    /// Applies the stored impulses of every constraint (see `warm_start`).
    pub fn warm_start(&self, bodies: &mut [SolverBody]) {
        match self.fitted(bodies) {
            Some(mut fitted) => self.warm_start_lanes(&mut fitted),
            None => self.warm_start_lanes(bodies),
        }
        for c in &self.overflow {
            warm_start_constraint(bodies, c);
        }
    }

    /// [`Self::warm_start`] of the lanes.
    fn warm_start_lanes<B: Bodies + ?Sized>(&self, bodies: &mut B) {
        #[cfg(target_arch = "x86_64")]
        if self.avx {
            // SAFETY: `avx` is only ever set where the processor has AVX
            // (see `Self::use_avx`).
            unsafe { self.warm_start_lanes_oct(bodies) };
            return;
        }
        for color in self.colors() {
            color.one.iter().for_each(|batch| batch.warm_start(bodies));
            color.two.iter().for_each(|batch| batch.warm_start(bodies));
            color.four.iter().for_each(|batch| batch.warm_start(bodies));
            color
                .round
                .iter()
                .for_each(|batch| batch.warm_start(bodies));
        }
    }

    /// [`Self::warm_start_lanes`] eight lanes at a time (`wide_oct.rs`).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx")]
    fn warm_start_lanes_oct<B: Bodies + ?Sized>(&self, bodies: &mut B) {
        for color in self.colors() {
            color
                .one
                .iter()
                .for_each(|batch| batch.warm_start_oct(bodies));
            color
                .two
                .iter()
                .for_each(|batch| batch.warm_start_oct(bodies));
            color
                .four
                .iter()
                .for_each(|batch| batch.warm_start_oct(bodies));
            color
                .round
                .iter()
                .for_each(|batch| batch.warm_start_oct(bodies));
        }
    }

    /// One pass over every constraint, colour by colour, then the overflow
    /// (see `solve`).
    pub fn solve(&mut self, bodies: &mut [SolverBody], inv_h: Real, use_bias: bool) {
        match self.fitted(bodies) {
            Some(mut fitted) => self.solve_lanes(&mut fitted, inv_h, use_bias),
            None => self.solve_lanes(bodies, inv_h, use_bias),
        }
        for c in &mut self.overflow {
            solve_constraint(bodies, c, &self.settings, self.softness, inv_h, use_bias);
        }
    }

    /// [`Self::solve`] of the lanes.
    fn solve_lanes<B: Bodies + ?Sized>(&mut self, bodies: &mut B, inv_h: Real, use_bias: bool) {
        if use_bias {
            self.solve_lanes_with::<true, B>(bodies, inv_h);
        } else {
            self.solve_lanes_with::<false, B>(bodies, inv_h);
        }
    }

    /// [`Self::solve_lanes`] with the bias (`BIAS`) or without.
    fn solve_lanes_with<const BIAS: bool, B: Bodies + ?Sized>(
        &mut self,
        bodies: &mut B,
        inv_h: Real,
    ) {
        #[cfg(target_arch = "x86_64")]
        if self.avx {
            // SAFETY: `avx` is only ever set where the processor has AVX
            // (see `Self::use_avx`).
            unsafe { self.solve_lanes_oct::<BIAS, B>(bodies, inv_h) };
            return;
        }
        let soft = QuadSoftness::new(self.softness, self.settings.max_push_velocity, inv_h);
        for color in &mut self.colors[..self.used_colors] {
            for batch in color.one.iter_mut() {
                batch.solve::<BIAS, B>(bodies, &soft);
            }
            for batch in color.two.iter_mut() {
                batch.solve::<BIAS, B>(bodies, &soft);
            }
            for batch in color.four.iter_mut() {
                batch.solve::<BIAS, B>(bodies, &soft);
            }
            for batch in color.round.iter_mut() {
                batch.solve::<BIAS, B>(bodies, &soft);
            }
        }
    }

    /// [`Self::solve_lanes_with`] eight lanes at a time (`wide_oct.rs`).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx")]
    fn solve_lanes_oct<const BIAS: bool, B: Bodies + ?Sized>(
        &mut self,
        bodies: &mut B,
        inv_h: Real,
    ) {
        let soft = &super::wide_oct::OctSoftness::new(
            self.softness,
            self.settings.max_push_velocity,
            inv_h,
        );
        for color in &mut self.colors[..self.used_colors] {
            for batch in color.one.iter_mut() {
                batch.solve_oct::<BIAS, B>(bodies, soft);
            }
            for batch in color.two.iter_mut() {
                batch.solve_oct::<BIAS, B>(bodies, soft);
            }
            for batch in color.four.iter_mut() {
                batch.solve_oct::<BIAS, B>(bodies, soft);
            }
            for batch in color.round.iter_mut() {
                batch.solve_oct::<BIAS, B>(bodies, soft);
            }
        }
    }

    /// Restitution once after the substeps (see `apply_restitution`), in
    /// the order of [`Self::solve_order`].
    pub fn restitution(&mut self, bodies: &mut [SolverBody]) {
        match self.fitted(bodies) {
            Some(mut fitted) => self.restitution_lanes(&mut fitted),
            None => self.restitution_lanes(bodies),
        }
        apply_restitution(bodies, &mut self.overflow, &self.settings);
    }

    /// [`Self::restitution`] of the lanes.
    fn restitution_lanes<B: Bodies + ?Sized>(&mut self, bodies: &mut B) {
        let threshold = self.settings.restitution_threshold;
        for color in &mut self.colors[..self.used_colors] {
            for batch in color.one.iter_mut() {
                batch.restitution(bodies, threshold);
            }
            for batch in color.two.iter_mut() {
                batch.restitution(bodies, threshold);
            }
            for batch in color.four.iter_mut() {
                batch.restitution(bodies, threshold);
            }
            for batch in color.round.iter_mut() {
                batch.restitution(bodies, threshold);
            }
        }
    }

    /// Accumulated impulses of point `k` of constraint `index` (in the order
    /// the constraints were pushed): normal, tangent, largest normal.
    /// Zeros for a point or constraint that does not exist.
    pub fn point_impulses(&self, index: usize, k: usize) -> (Real, Real, Real) {
        match self.location.get(index) {
            Some(&Location::Lane {
                color,
                class,
                lane,
                batch,
            }) => {
                let color = &self.colors[color as usize];
                let (lane, batch) = (lane as usize, batch as usize);
                let points = [1, 2, 4, 1][class as usize];
                if k >= points {
                    return (0.0, 0.0, 0.0);
                }
                match class as usize {
                    0 => color.one[batch].impulses(lane, k),
                    1 => color.two[batch].impulses(lane, k),
                    2 => color.four[batch].impulses(lane, k),
                    _ => color.round[batch].impulses(lane),
                }
            }
            Some(&Location::Overflow(i)) => self.overflow[i as usize]
                .points
                .get(k)
                .map_or((0.0, 0.0, 0.0), |p| {
                    (p.normal_impulse, p.tangent_impulse, p.max_normal_impulse)
                }),
            None => (0.0, 0.0, 0.0),
        }
    }

    /// Hands `f` the accumulated impulses of every point of every
    /// constraint as `(constraint, point, normal, tangent)`, the constraint
    /// named by its id (its number in push order, or the id a kept
    /// constraint was refreshed with): batch by batch as they lie in memory, then
    /// the overflow. A lane constraint also yields the points its class has
    /// room for beyond its own, with zeros. Each point comes once, so the
    /// order does not change what a caller writes; reading the batches in
    /// order is what makes it cheaper than [`Self::point_impulses`] per point.
    pub fn each_impulse(&self, mut f: impl FnMut(usize, usize, Real, Real)) {
        fn lanes<const P: usize>(
            batches: &[Batch<P>],
            f: &mut impl FnMut(usize, usize, Real, Real),
        ) {
            for batch in batches {
                for (lane, &constraint) in batch.constraint.iter().enumerate() {
                    if constraint == u32::MAX {
                        continue;
                    }
                    for k in 0..P {
                        let (normal, tangent, _) = batch.impulses(lane, k);
                        f(constraint as usize, k, normal, tangent);
                    }
                }
            }
        }
        for color in self.colors() {
            lanes(&color.one, &mut f);
            lanes(&color.two, &mut f);
            lanes(&color.four, &mut f);
            for batch in color.round.iter() {
                for (lane, &constraint) in batch.constraint.iter().enumerate() {
                    if constraint != u32::MAX {
                        let (normal, tangent, _) = batch.impulses(lane);
                        f(constraint as usize, 0, normal, tangent);
                    }
                }
            }
        }
        for (c, &id) in self.overflow.iter().zip(&self.overflow_ids) {
            for (k, p) in c.points.iter().enumerate() {
                f(id as usize, k, p.normal_impulse, p.tangent_impulse);
            }
        }
    }

    /// Copies the impulses back into `constraints`, the list given to
    /// [`Self::prepare`].
    pub fn finish(&self, constraints: &mut [ContactConstraint]) {
        for (index, c) in constraints.iter_mut().enumerate() {
            for (k, p) in c.points.iter_mut().enumerate() {
                (p.normal_impulse, p.tangent_impulse, p.max_normal_impulse) =
                    self.point_impulses(index, k);
            }
        }
    }

    /// The constraint indices in the order [`Self::solve`] visits them:
    /// colour by colour, within a colour by point class, batch and lane,
    /// then the overflow. Solving each with [`solve_constraint`] in this
    /// order gives bit for bit the same bodies and impulses.
    pub fn solve_order(&self) -> Vec<u32> {
        fn lanes<const P: usize>(batches: &[Batch<P>], out: &mut Vec<u32>) {
            for batch in batches {
                out.extend(batch.constraint.iter().filter(|&&i| i != u32::MAX));
            }
        }
        let mut out = Vec::new();
        for color in self.colors() {
            lanes(&color.one, &mut out);
            lanes(&color.two, &mut out);
            lanes(&color.four, &mut out);
            for batch in color.round.iter() {
                out.extend(batch.constraint.iter().filter(|&&i| i != u32::MAX));
            }
        }
        out.extend(&self.overflow_ids);
        out
    }

    /// Number of colours used in this step.
    pub fn color_count(&self) -> usize {
        self.used_colors
    }

    /// Number of constraints left to the scalar overflow in this step.
    pub fn overflow_count(&self) -> usize {
        self.overflow.len()
    }
}
