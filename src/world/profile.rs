//! [`StepProfile`]: how long each stage of the last step took, for finding
//! where a scene's time goes.
//!
//! Profiling is off by default ([`World::set_profiling`]); a step then reads
//! no clock and the profile stays as it was. On, a step reads the monotonic
//! clock seven times (well under a microsecond) and records the wall-clock
//! time between those reads: the stages are consecutive, so they add up to
//! [`StepProfile::total`] exactly.
//!
//! Invariants:
//! - the profile never changes the simulation: the same inputs give the
//!   same states with profiling on or off, and [`World::state_hash`] and
//!   snapshots ignore it;
//! - where the platform has no clock (WebAssembly without an operating
//!   system), every stage reads zero instead of panicking.

use super::World;
use std::time::Duration;

/// Wall-clock time of each stage of one step, in the order they run (see
/// [`World::step`]). All zero until a step runs with profiling on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StepProfile {
    /// Broadphase: the proxies that moved last step find their new pairs.
    pub pairs: Duration,
    /// Solver set-up: the step's solver bodies and their velocity kicks.
    pub setup: Duration,
    /// Narrowphase: every pair's manifold and events, and its constraint
    /// built into its solver lane.
    pub contacts: Duration,
    /// Solver substeps, write-back of poses and velocities, and the proxies
    /// moved to their swept boxes.
    pub solve: Duration,
    /// Continuous collision of fast bodies, then projectiles traced.
    pub continuous: Duration,
    /// Islands: sleep timers, bodies falling asleep and waking.
    pub islands: Duration,
}

impl StepProfile {
    /// Names of the stages, in the order of [`Self::stages`].
    pub const STAGE_NAMES: [&'static str; 6] = [
        "pairs",
        "setup",
        "contacts",
        "solve",
        "continuous",
        "islands",
    ];

    /// The stages' times in the order they run (see [`Self::STAGE_NAMES`]).
    pub fn stages(&self) -> [Duration; 6] {
        [
            self.pairs,
            self.setup,
            self.contacts,
            self.solve,
            self.continuous,
            self.islands,
        ]
    }

    /// The whole step: the sum of the stages.
    pub fn total(&self) -> Duration {
        self.stages().iter().sum()
    }
}

/// Reads the clock at each stage boundary while profiling; reads nothing
/// otherwise (every lap is then zero).
pub(super) struct Laps {
    last: Option<Clock>,
}

impl Laps {
    /// Starts timing when `on`.
    #[inline]
    pub(super) fn start(on: bool) -> Laps {
        Laps {
            last: if on { Clock::now() } else { None },
        }
    }

    /// The time since the last boundary (zero when not timing).
    #[inline]
    pub(super) fn lap(&mut self) -> Duration {
        let Some(last) = self.last else {
            return Duration::ZERO;
        };
        let now = Clock::now().unwrap_or(last);
        self.last = Some(now);
        now.since(last)
    }

    /// Whether the laps are being timed.
    pub(super) fn timing(&self) -> bool {
        self.last.is_some()
    }
}

/// A point in time on the monotonic clock, where the platform has one.
#[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
#[derive(Clone, Copy)]
struct Clock(std::time::Instant);

#[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
impl Clock {
    #[inline]
    fn now() -> Option<Clock> {
        Some(Clock(std::time::Instant::now()))
    }

    #[inline]
    fn since(self, earlier: Clock) -> Duration {
        self.0.saturating_duration_since(earlier.0)
    }
}

/// No clock (`Instant::now` would panic there): never made.
#[cfg(all(target_family = "wasm", target_os = "unknown"))]
#[derive(Clone, Copy)]
struct Clock;

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
impl Clock {
    fn now() -> Option<Clock> {
        None
    }

    fn since(self, _earlier: Clock) -> Duration {
        Duration::ZERO
    }
}

impl World {
    /// Whether steps record their [`StepProfile`] (off by default).
    pub fn profiling(&self) -> bool {
        self.profiling
    }

    /// Turns the recording of [`World::profile`] on or off. It is not part
    /// of the simulation: snapshots neither hold nor restore it, and the
    /// states stepped are the same either way.
    pub fn set_profiling(&mut self, on: bool) {
        self.profiling = on;
    }

    /// How long each stage of the last step took, when it ran with
    /// profiling on (all zero before that; the profile of the last profiled
    /// step while profiling is off).
    ///
    /// # Examples
    /// ```
    /// use circlet::world::{World, WorldSettings};
    /// let mut world = World::new(WorldSettings::default()).unwrap();
    /// world.set_profiling(true);
    /// world.step(1.0 / 60.0).unwrap();
    /// let profile = world.profile();
    /// assert_eq!(profile.total(), profile.stages().iter().sum());
    /// ```
    pub fn profile(&self) -> &StepProfile {
        &self.profile
    }
}
