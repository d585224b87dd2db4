//! Proxy identifiers, the two proxy kinds and the broadphase error type.

use crate::math::Real;

/// Which tree a proxy lives in.
///
/// Static proxies never pair with each other; moving proxies pair with both
/// kinds. The order (`Static < Moving`) is part of the deterministic pair order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ProxyKind {
    /// Things that do not move (static bodies): tight boxes, no pairs among themselves.
    Static,
    /// Things that move (dynamic and kinematic bodies, sensors): fattened boxes.
    Moving,
}

/// Handle to a proxy (a leaf) of a [`DynamicTree`](super::DynamicTree) or
/// [`BroadPhase`](super::BroadPhase).
///
/// It names the tree (its [`ProxyKind`]), the node slot and the slot's
/// generation, so an id kept after its proxy was removed is recognised as
/// stale even when the slot has been reused. Ids order by kind, then slot,
/// then generation; pair lists are sorted by that order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ProxyId {
    kind: ProxyKind,
    index: u32,
    generation: u32,
}

impl ProxyId {
    pub(super) fn new(kind: ProxyKind, index: u32, generation: u32) -> Self {
        ProxyId {
            kind,
            index,
            generation,
        }
    }

    /// The tree this proxy belongs to.
    pub fn kind(self) -> ProxyKind {
        self.kind
    }

    /// The node slot of the proxy inside its tree (stable while the proxy lives).
    pub fn index(self) -> u32 {
        self.index
    }

    /// How many times the slot had been freed before this proxy took it.
    pub fn generation(self) -> u32 {
        self.generation
    }
}

/// Why a broadphase call was refused. Nothing is changed when an error is returned.
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
pub enum BroadPhaseError {
    /// The id names a proxy that was removed (or never existed in this tree).
    #[error("proxy {id:?} does not exist (removed, or from another tree)")]
    StaleProxy {
        /// The rejected id.
        id: ProxyId,
    },
    /// The id belongs to the other tree.
    #[error("proxy {id:?} is not a {expected:?} proxy")]
    WrongKind {
        /// The rejected id.
        id: ProxyId,
        /// The kind of the tree it was given to.
        expected: ProxyKind,
    },
    /// A coordinate, displacement or margin is NaN or infinite.
    #[error("{field} is not finite")]
    NonFinite {
        /// Which input (e.g. `min`, `displacement`).
        field: &'static str,
    },
    /// A box with `min > max` on some axis.
    #[error("bounds are inverted: min must be <= max on both axes")]
    InvertedBounds,
    /// A radius (thick ray, inflated box) below zero.
    #[error("radius must be >= 0, got {value}")]
    NegativeRadius {
        /// The rejected radius (metres).
        value: Real,
    },
    /// A ray's `max_fraction` below zero.
    #[error("max_fraction must be >= 0, got {value}")]
    NegativeFraction {
        /// The rejected fraction.
        value: Real,
    },
    /// A margin outside `0..=MAX_MARGIN`.
    #[error("margin must be in 0..={max} m, got {value}")]
    BadMargin {
        /// The rejected margin (metres).
        value: Real,
        /// The largest accepted margin (metres).
        max: Real,
    },
}

/// A broken tree invariant found by [`DynamicTree::validate`](super::DynamicTree::validate).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("node {node}: {what}")]
pub struct InvariantViolation {
    /// The node slot where the check failed (`u32::MAX` when the check is
    /// about the whole tree rather than one node).
    pub node: u32,
    /// Which invariant failed.
    pub what: &'static str,
}
