//! Handles for bodies, colliders and projectiles.
//!
//! A handle is a generational slotmap key plus the id of the world that made
//! it. A handle of a removed object is refused (the slot's generation moved
//! on) and so is a handle of another world (its world id differs), so neither
//! can be mistaken for a live object that happens to reuse the slot.

use std::sync::atomic::{AtomicU32, Ordering};

slotmap::new_key_type! {
    pub(crate) struct BodyKey;
    pub(crate) struct ColliderKey;
    pub(crate) struct ProjectileKey;
}

/// Identifies one `World` instance; never part of the simulated state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct WorldId(u32);

impl WorldId {
    pub(crate) fn fresh() -> WorldId {
        static NEXT: AtomicU32 = AtomicU32::new(1);
        WorldId(NEXT.fetch_add(1, Ordering::Relaxed))
    }
}

macro_rules! handle {
    ($(#[$doc:meta])* $name:ident, $key:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
        pub struct $name {
            pub(crate) key: $key,
            pub(crate) world: WorldId,
        }
    };
}

handle!(
    /// Names a body of one world.
    BodyHandle,
    BodyKey
);
handle!(
    /// Names a collider of one world.
    ColliderHandle,
    ColliderKey
);
handle!(
    /// Names a projectile of one world.
    ProjectileHandle,
    ProjectileKey
);
