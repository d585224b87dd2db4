//! [`WorldSettings`]: gravity, substeps and the tolerances of the step.

use crate::dynamics::ContactSettings;
use crate::math::{Real, Vec2};

/// Allowed penetration (m): one linear slop. Contacts push apart only what
/// exceeds it, so resting bodies do not jitter.
pub const LINEAR_SLOP: Real = 0.005;

/// Contacts are created this far before shapes touch (m), four slops, so the
/// solver sees an approaching surface a step early (speculative contacts).
pub const SPECULATIVE_DISTANCE: Real = 4.0 * LINEAR_SLOP;

/// Broadphase boxes are fattened by this much (m) so small motions do not
/// re-insert: the broadphase's own constant, so the two cannot disagree.
pub use crate::broadphase::AABB_MARGIN;

/// Settings of a world. Validated by `World::new` and `World::set_settings`.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct WorldSettings {
    /// Acceleration of gravity (m/s², world).
    pub gravity: Vec2,
    /// Number of solver substeps per step (≥ 1).
    pub substeps: u32,
    /// Contact stiffness and limits.
    pub contact: ContactSettings,
    /// Bodies slower than this (m/s, and rad/s times their size) may sleep.
    pub sleep_velocity: Real,
    /// How long (s) an island must stay slow before it sleeps.
    pub time_to_sleep: Real,
    /// Let bodies sleep at all.
    pub sleeping: bool,
}

impl WorldSettings {
    /// Stiffer contacts for deep piles and tall stacks: 8 substeps and
    /// 120 Hz contacts, about twice the solver cost of the default. A soft
    /// contact compresses by load / (effective mass · ω²), so doubling the
    /// frequency cuts the overlap under the same load by four.
    pub fn stiff() -> Self {
        let defaults = Self::default();
        WorldSettings {
            substeps: 8,
            contact: ContactSettings {
                hertz: 120.0,
                ..defaults.contact
            },
            ..defaults
        }
    }
}

impl Default for WorldSettings {
    fn default() -> Self {
        WorldSettings {
            gravity: Vec2::new(0.0, -9.81),
            substeps: 4,
            contact: ContactSettings::default(),
            sleep_velocity: 0.05,
            time_to_sleep: 0.5,
            sleeping: true,
        }
    }
}
