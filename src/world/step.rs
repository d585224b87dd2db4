//! One simulation step.
//!
//! Order within a step (all loops in handle order, so deterministic):
//! 1. pairs of proxies that moved last step join the contact map
//!    (`proxies.rs`); the solver bodies of the step are made (every awake
//!    body); every pair gets its manifold with a speculative margin,
//!    began / ended events, and, while it is in cache, its constraint in
//!    its SIMD lane, warm-started from the impulses kept beside its key
//!    (matched by feature id) (`narrowphase.rs`);
//! 2. substeps of the soft-step solver: integrate velocities, warm start,
//!    solve with bias, integrate positions, relax; then restitution; the
//!    impulses go back beside the pairs' keys, in pair order; write back
//!    poses (the origin follows the centre of mass) and velocities;
//! 3. proxies move to the swept boxes of the step;
//! 4. continuous collision: fast bodies and bullets are moved back to their
//!    first time of impact (`ccd.rs`); fast sensors crossings are reported;
//! 5. projectiles are traced against every body's motion (`projectile_trace.rs`);
//! 6. islands and sleep (`islands.rs`).
//!
//! Buffers live in [`Scratch`] and are reused: once they have grown to the
//! scene's size a step allocates nothing (locked by `tests/world_no_alloc.rs`).

use super::handles::{BodyKey, ProjectileKey};
use super::sweep::Sweep;
use super::{Body, BodyKind, World, WorldError};
use crate::dynamics::{
    BodyTurn, ContactSoftness, LaneRef, NO_COLOR, SolverBody, integrate_positions,
};
use crate::math::{Real, Rot2, Vec2};
use crate::query::tree::LeafContact;
use crate::query::{FeatureId, Manifold};
use smallvec::SmallVec;

/// A pair's impulses of the last step by feature id: (id, normal, tangent)
/// (N·s), one per manifold point; kept by the pair map beside the pair.
pub(crate) type Impulses = SmallVec<[(FeatureId, Real, Real); 2]>;

/// A contact pair kept from step to step (its impulses are kept beside it,
/// see [`Impulses`]).
#[derive(Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct ContactPair {
    /// The latest manifold (None when the boxes overlap but the shapes are apart).
    pub manifold: Option<Manifold>,
    /// True when some point has depth ≥ 0 (actually touching, not only speculative).
    pub touching: bool,
    /// One of the two is a sensor: report overlap, never push.
    pub sensor: bool,
    /// The solver colour the pair's constraint holds from step to step
    /// (`NO_COLOR`: none; see `dynamics::wide_persistent`). State: it
    /// decides the order the solver meets the constraint in.
    #[cfg_attr(feature = "serde", serde(default = "no_color"))]
    pub color: u8,
    /// Where the constraint lives in the solver's lanes: a cache, not
    /// state (a copy names none).
    #[cfg_attr(feature = "serde", serde(skip))]
    pub lane: LaneRef,
    /// For a pair with a circle tree (two trees, or a tree and any shape
    /// but a line): the index of its
    /// [`TreePairCache`](crate::query::tree::TreePairCache) among the pair
    /// map's (`NO_CACHE`: none), the leaf pairs (or leaves) that may touch,
    /// reused while the shapes move little relative to each other. Not state: the answers are those of a
    /// fresh descent, so snapshots skip it, equality ignores it and a copy
    /// names none. Out of line and made on first use, so that the pairs of
    /// other shapes stay small (a pair's hot fields in few cache lines); a
    /// free state keeps it.
    #[cfg_attr(feature = "serde", serde(skip, default = "no_cache"))]
    pub tree_cache: u32,
}

/// The [`ContactPair::tree_cache`] of a pair with no tree cache.
pub(crate) const NO_CACHE: u32 = u32::MAX;

impl Clone for ContactPair {
    /// The same state, naming no tree cache (the cache belongs to the
    /// original's map).
    fn clone(&self) -> Self {
        ContactPair {
            manifold: self.manifold.clone(),
            touching: self.touching,
            sensor: self.sensor,
            color: self.color,
            lane: self.lane.clone(),
            tree_cache: NO_CACHE,
        }
    }
}

impl PartialEq for ContactPair {
    fn eq(&self, other: &Self) -> bool {
        self.manifold == other.manifold
            && self.touching == other.touching
            && self.sensor == other.sensor
            && self.color == other.color
    }
}

/// The colour of a pair read from a snapshot written without colours.
#[cfg(feature = "serde")]
fn no_color() -> u8 {
    NO_COLOR
}

/// A pair read from a snapshot names no tree cache.
#[cfg(feature = "serde")]
fn no_cache() -> u32 {
    NO_CACHE
}

impl ContactPair {
    /// A new pair: no manifold yet, not touching.
    pub(crate) fn new(sensor: bool) -> Self {
        ContactPair {
            manifold: None,
            touching: false,
            sensor,
            color: NO_COLOR,
            lane: LaneRef::NONE,
            tree_cache: NO_CACHE,
        }
    }

    /// Makes this the state of a new pair, keeping its buffers and its
    /// tree cache (which the map clears).
    pub(crate) fn reset(&mut self, sensor: bool) {
        self.manifold = None;
        self.touching = false;
        self.sensor = sensor;
        self.color = NO_COLOR;
        self.lane = LaneRef::NONE;
    }
}

/// A dynamic body's velocity change in one substep: `v += linear`,
/// `w += angular`, then `v /= linear_damping`, `w /= angular_damping`
/// (m/s, rad/s, and divisors ≥ 1).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Kick {
    /// The body's solver index.
    pub index: u32,
    pub linear: Vec2,
    pub angular: Real,
    pub linear_damping: Real,
    pub angular_damping: Real,
}

/// Buffers reused from step to step. Not part of the simulated state: a
/// clone (a snapshot) starts with empty buffers.
#[derive(Debug, Default)]
pub(crate) struct Scratch {
    /// Pairs the broadphase reported this step: (key, sensor).
    pub new_pairs: Vec<(super::pair_map::PairKey, bool)>,
    /// Solver bodies; index 0 is the fixed body that stands for every body
    /// not simulated this step.
    pub solver_bodies: Vec<SolverBody>,
    /// Parallel to `solver_bodies`: each one's inverse inertia and turn
    /// within the step.
    pub solver_turns: Vec<BodyTurn>,
    /// Parallel to `solver_bodies`: how each simulated body moved.
    pub sweeps: Vec<Sweep>,
    /// Parallel to the dynamic solver bodies: their velocity change per
    /// substep from gravity and applied forces, and their damping divisors.
    pub kicks: Vec<Kick>,
    /// The constraints coloured and packed into SIMD lanes.
    pub wide: crate::dynamics::WideContacts,
    pub ccd: super::ccd::CcdScratch,
    pub projectile_hits: Vec<super::projectile_trace::Candidate>,
    pub removed_projectiles: Vec<ProjectileKey>,
    pub projectile_events: Vec<super::projectile_trace::Hit>,
    pub islands: super::islands::IslandScratch,
    /// Body slots of the touching, solid pairs the narrowphase kept (the
    /// islands' edges; the pairs' `touching` does not change later in a step).
    /// Pairs with no awake side only when the islands take a full pass.
    /// Only the first `touching_count` entries are this step's.
    pub touching_bodies: Vec<(u32, u32)>,
    /// How many of `touching_bodies` the narrowphase wrote this step.
    pub touching_count: usize,
    /// With sleeping off: `prepare_solver` found every dynamic body awake
    /// and reset their sleep timers, so the islands have nothing to do.
    pub all_dynamic_awake: bool,
    /// The bodies awake after the last island pass, in handle order, when
    /// `awake_known`: then `prepare_solver` and the islands' next pass read
    /// this list instead of every body (see `islands.rs`).
    pub awake_bodies: Vec<BodyKey>,
    /// `awake_bodies` is every awake body: set by the islands' ring pass,
    /// cleared by every edit of a body (and a projectile's push), as those
    /// may wake one.
    pub awake_known: bool,
    /// Every collider's placement at the start of the step.
    pub colliders_now: super::colliders_now::ColliderTable,
    /// Per collider: bounding radius and last end box, kept between steps.
    pub shape_boxes: super::swept_box::ShapeBoxes,
    /// Leaf contacts of one tree pair, before they are reduced to a manifold.
    pub leaf_contacts: Vec<LeafContact>,
}

impl Clone for Scratch {
    fn clone(&self) -> Self {
        Scratch::default()
    }
}

impl World {
    /// Advances the world by `dt` seconds. With profiling on
    /// ([`World::set_profiling`]), [`World::profile`] then holds how long
    /// each stage took.
    ///
    /// # Errors
    /// [`WorldError::OutOfRange`] if `dt` is not finite and > 0; the world is unchanged.
    pub fn step(&mut self, dt: Real) -> Result<(), WorldError> {
        super::error::check_range("dt", dt, "> 0", |v| v > 0.0)?;
        let mut laps = super::profile::Laps::start(self.profiling);
        self.events.clear();
        self.find_new_pairs();
        let pairs = laps.lap();
        self.prepare_solver(dt);
        let setup = laps.lap();
        self.update_contacts();
        let contacts = laps.lap();
        self.solve_contacts(dt);
        let solve = laps.lap();
        // Sweeps beyond the placeholder are bodies that moved this step
        // (continuous collision only clamps those): only then can a cast
        // see something new.
        if self.scratch.sweeps.len() > 1 {
            self.shot_grid.invalidate();
        }
        self.continuous_collision();
        self.trace_projectiles(dt);
        let continuous = laps.lap();
        self.update_sleep(dt);
        let islands = laps.lap();
        if laps.timing() {
            self.profile = super::StepProfile {
                pairs,
                setup,
                contacts,
                solve,
                continuous,
                islands,
            };
        }
        self.step_count += 1;
        Ok(())
    }

    /// The solver bodies and sweeps of the step (every awake body, in
    /// handle order, each body's `solver_index` set; 0 stands for the rest),
    /// each dynamic body's velocity change per substep, and empty lanes for
    /// the constraints the narrowphase builds.
    #[inline(never)]
    fn prepare_solver(&mut self, dt: Real) {
        let scratch = &mut self.scratch;
        let (solver_bodies, sweeps) = (&mut scratch.solver_bodies, &mut scratch.sweeps);
        let (solver_turns, kicks) = (&mut scratch.solver_turns, &mut scratch.kicks);
        solver_bodies.clear();
        solver_turns.clear();
        sweeps.clear();
        kicks.clear();
        solver_bodies.push(SolverBody::FIXED);
        solver_turns.push(BodyTurn::default());
        sweeps.push(Sweep::frozen(
            BodyKey::default(),
            crate::math::Pose::IDENTITY,
            Vec2::zeros(),
        ));
        let h = dt / self.settings.substeps.max(1) as Real;
        let gravity = self.settings.gravity;
        // Sleeping off: every dynamic timer resets (see `islands.rs`), here
        // while each body is read anyway.
        let reset_timers = !self.settings.sleeping;
        let mut all_dynamic_awake = true;
        let mut simulate = |key: BodyKey, body: &mut Body| {
            body.solver_index = solver_bodies.len() as u32;
            let mut sweep = Sweep::frozen(key, body.pose, body.local_center);
            sweep.moving = true;
            sweep.velocity0 = body.linear_velocity;
            sweep.spin0 = body.angular_velocity;
            sweeps.push(sweep);
            solver_bodies.push(SolverBody {
                linear_velocity: body.linear_velocity,
                angular_velocity: body.angular_velocity,
                delta_position: Vec2::zeros(),
                delta_rotation: Rot2::identity(),
                inv_mass: body.inv_mass,
            });
            solver_turns.push(BodyTurn {
                inv_inertia: body.inv_inertia,
                delta_angle: 0.0,
            });
            if body.kind == BodyKind::Dynamic {
                kicks.push(Kick {
                    index: body.solver_index,
                    linear: (gravity * body.gravity_scale + body.force * body.inv_mass) * h,
                    angular: body.torque * body.inv_inertia * h,
                    linear_damping: 1.0 + h * body.linear_damping,
                    angular_damping: 1.0 + h * body.angular_damping,
                });
            }
        };
        if scratch.awake_known && !reset_timers {
            // Only the awake bodies, in the same order; every other body's
            // solver index is 0 already (`fall_asleep` clears it).
            for &key in &scratch.awake_bodies {
                if let Some(body) = self.bodies.get_mut(key).filter(|body| body.awake) {
                    simulate(key, body);
                }
            }
            all_dynamic_awake = false;
        } else {
            for (key, body) in &mut self.bodies {
                if body.kind == BodyKind::Dynamic {
                    all_dynamic_awake &= body.awake;
                    // Written only when it changes: most are zero already.
                    if reset_timers && body.sleep_time != 0.0 {
                        body.sleep_time = 0.0;
                    }
                }
                if !body.awake {
                    body.solver_index = 0;
                    continue;
                }
                simulate(key, body);
            }
        }
        scratch.all_dynamic_awake = reset_timers && all_dynamic_awake;
        let softness = ContactSoftness::new(&self.settings.contact, h);
        scratch
            .wide
            .begin_kept(self.bodies.capacity() + 1, &self.settings.contact, softness);
    }

    /// The solver part of the step: substeps over the constraints the
    /// narrowphase built, write-back, and the sweeps of the step in
    /// `scratch.sweeps`.
    #[inline(never)]
    fn solve_contacts(&mut self, dt: Real) {
        let mut solver_bodies = std::mem::take(&mut self.scratch.solver_bodies);
        let mut solver_turns = std::mem::take(&mut self.scratch.solver_turns);
        let mut sweeps = std::mem::take(&mut self.scratch.sweeps);
        let kicks = std::mem::take(&mut self.scratch.kicks);
        let substeps = self.settings.substeps.max(1);
        let h = dt / substeps as Real;
        let inv_h = 1.0 / h;
        let mut wide = std::mem::take(&mut self.scratch.wide);

        // A divisor of exactly 1 (no damping, the common case) leaves every
        // value as it is, NaN included: the division, the slowest operation
        // here, is skipped then, and with no damped body at all so is the
        // test.
        let damped = kicks
            .iter()
            .any(|kick| kick.linear_damping != 1.0 || kick.angular_damping != 1.0);
        for _ in 0..substeps {
            // The same expressions as integrating each body in place.
            for kick in &kicks {
                let sb = &mut solver_bodies[kick.index as usize];
                sb.linear_velocity += kick.linear;
                sb.angular_velocity += kick.angular;
                if damped {
                    if kick.linear_damping != 1.0 {
                        sb.linear_velocity /= kick.linear_damping;
                    }
                    if kick.angular_damping != 1.0 {
                        sb.angular_velocity /= kick.angular_damping;
                    }
                }
            }
            wide.warm_start(&mut solver_bodies);
            wide.solve(&mut solver_bodies, inv_h, true);
            integrate_positions(&mut solver_bodies, &mut solver_turns, h);
            wide.solve(&mut solver_bodies, inv_h, false);
        }
        wide.restitution(&mut solver_bodies);

        // Each constraint's impulses back to its pair, for warm starting:
        // the narrowphase left the points' ids in place and named each
        // constraint by its pair's index in the map. The batches are read
        // in order and the pairs' impulses (smaller, and mostly in cache)
        // written where they fall.
        let contacts = &mut self.contacts;
        wide.each_impulse(|pair, k, n, t| {
            let point = contacts
                .impulses_at_mut(pair)
                .and_then(|impulses| impulses.get_mut(k));
            if let Some((_, normal, tangent)) = point {
                (*normal, *tangent) = (n, t);
            }
        });

        // Write back; a body whose result is not finite keeps its start
        // state and stops (the world never holds a NaN). Each body's sweep
        // is then final: continuous collision's list of fast bodies is
        // made here, while the body is in cache, and so are its proxies'
        // swept boxes.
        let ccd = &mut self.scratch.ccd;
        ccd.clear_fast();
        let mut proxies = super::proxies::ProxyMover {
            colliders: &self.colliders,
            table: &mut self.scratch.colliders_now,
            shape_boxes: &mut self.scratch.shape_boxes,
            broad_phase: &mut self.broad_phase,
        };
        for (index, sweep) in sweeps.iter_mut().enumerate().skip(1) {
            let sb = solver_bodies[index];
            let delta_angle = solver_turns[index].delta_angle;
            let body = &mut self.bodies[sweep.key];
            let center = sweep.center0 + sb.delta_position;
            let rotation = sb.delta_rotation * body.pose.rotation;
            let translation = center - rotation * (body.local_center * body.pose.scale);
            let c = rotation.complex();
            let finite = crate::math::is_finite_vec(translation)
                && crate::math::is_finite_vec(center)
                && c.re.is_finite()
                && c.im.is_finite()
                && crate::math::is_finite_vec(sb.linear_velocity)
                && sb.angular_velocity.is_finite()
                && delta_angle.is_finite();
            body.force = Vec2::zeros();
            body.torque = 0.0;
            // The centre's motion, from the values at hand: read back from
            // the sweep just written, it would wait on those stores.
            let displacement = if finite {
                // The new pose is written whole to both places from one
                // value: read back from the body's freshly written fields,
                // it would wait on those smaller stores.
                let end = crate::math::Pose {
                    rotation,
                    translation,
                    scale: body.pose.scale,
                };
                body.pose = end;
                body.linear_velocity = sb.linear_velocity;
                body.angular_velocity = sb.angular_velocity;
                sweep.end = end;
                sweep.center1 = center;
                sweep.angle = delta_angle;
                center - sweep.center0
            } else {
                body.linear_velocity = Vec2::zeros();
                body.angular_velocity = 0.0;
                sweep.center1 - sweep.center0
            };
            ccd.mark(index, body, sweep);
            proxies.move_body(body, sweep, displacement, finite);
        }

        self.scratch.solver_bodies = solver_bodies;
        self.scratch.solver_turns = solver_turns;
        self.scratch.sweeps = sweeps;
        self.scratch.kicks = kicks;
        self.scratch.wide = wide;
    }
}

#[cfg(test)]
#[path = "solver_width_tests.rs"]
mod solver_width_tests;
